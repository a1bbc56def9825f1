"""Kernels of the FedLRGD modules that run inside loops: validated inputs in, no input checks.

Jadbabaie, Makur and Shah, "Federated Optimization of Smooth Loss Functions", IEEE Trans. Inf. Theory 2023: the
steps (i)-(viii) of (60) (proof of Theorem 2), the approximate ranks (77) of Appendix C and the cell count of the
explicit l1 cover of Lemma 1. The public entries (:func:`~fedtheory.lowrank.chain.eq60_steps`,
:func:`~fedtheory.lowrank.algorithms.approximate_rank`, :func:`~fedtheory.lowrank.algorithms.l1_cover`) validate
their arguments once and call these; the loops of :func:`~fedtheory.lowrank.chain.fedlrgd_chain`,
:func:`~fedtheory.lowrank.chain.cover_lattice` and :func:`~fedtheory.lowrank.algorithms.appendix_c_ranks` call them
directly, on inputs they have already validated.
"""
from __future__ import annotations

import math

import numpy as np


def _cover_cells(q, d):
    """Cells of the explicit cover of ``[0, 1]^d`` by l1 balls of radius ``1/q``: ``ceil(q/2)`` for d = 1,
    ``ceil(q)^2`` for d = 2 (``q > 0`` finite, ``d`` in {1, 2})."""
    return math.ceil(q / 2) if d == 1 else math.ceil(q) ** 2


def _eq60(eps, r, Ginv, B, alpha, Lw, Pn, res53, resP, resA, dist_aw, grouping):
    """The right sides of (53) and of steps (i)-(viii) of (60), as in :func:`~fedtheory.lowrank.chain.eq60_steps`.

    The per-iterate inputs ``Pn``, ``res53``, ``resP``, ``resA`` may be floats or arrays over the iterates (then every
    step depending on them is an array, elementwise the same float64 operations); the others are floats and ``r``
    an int. A float64 overflow of ``r^(2 alpha + 2)`` raises ``OverflowError``."""
    Fct = Ginv ** 2 / (1 - Ginv * r * eps)
    A1 = eps * math.sqrt(r) * Ginv
    A2 = eps * r ** 1.5 * (B + eps)
    R1 = r ** (alpha + 1)
    R2 = r ** (2 * alpha + 2)
    base = eps * (1 + Lw)
    out = {"(53)": res53, "(i)": base + resP, "(ii)": base + resA, "(iii)": base + dist_aw * Pn}
    if grouping == "printed":
        out["(iv)"] = base + Pn * (A1 + A2) * Fct
        out["(v)"] = base + (B + eps) * math.sqrt(r) * (A1 + A2) * Fct
        out["(vi)"] = eps * (1 + Ginv * B * r) + (B + eps) * (eps * r * Ginv + eps * r ** 2 * (B + eps)) * Fct
    else:
        out["(iv)"] = base + Pn * (A1 + A2 * Fct)
        out["(v)"] = base + (B + eps) * math.sqrt(r) * (A1 + A2 * Fct)
        out["(vi)"] = eps * (1 + Ginv * B * r) + (B + eps) * (eps * r * Ginv + eps * r ** 2 * (B + eps) * Fct)
    out["(vii)"] = eps * (1 + B * R1) + (B + eps) * (eps * R1 + eps * R2 * (B + eps) / (1 - eps * R1))
    out["(viii)"] = eps * R2 * (2 + B + eps) ** 2 * (1 / (1 - eps * R1) + 1)
    return out


def _rank_from_sv2(sv2, threshold):
    """Appendix C, eq. (77), from the squared singular values ``sv2`` (finite): the smallest ``J`` with
    ``sum_{i<=J} sigma_i^2 >= threshold sum_i sigma_i^2`` (0 for a zero matrix)."""
    tot = sv2.sum()
    if tot == 0:
        return 0
    return int(np.searchsorted(np.cumsum(sv2), threshold * tot * (1 - 1e-12)) + 1)


def _slice_ranks(M, keep, threshold):
    """Approximate ranks (77) of the slices ``M[:, :, q]``, ``q`` in ``keep``, with the first slice that
    :func:`~fedtheory.lowrank.algorithms.approximate_rank` refuses (``None`` if none).

    The slices are tested once, as a stack, for non-finite entries; the squared singular values of those before the
    first such slice are tested after the loop. Returns ``(ranks, None)``, or ``([], q)`` with ``q`` the first refused
    slice (in the order of ``keep``), which the caller passes to the public entry for its message."""
    finite = np.isfinite(M[:, :, keep]).all(axis=(0, 1))
    n = keep.size if finite.all() else int(np.argmin(finite))
    sv2 = [np.linalg.svd(M[:, :, q], compute_uv=False) ** 2 for q in keep[:n]]
    ok = [bool(np.all(np.isfinite(s))) for s in sv2] + [False] * (keep.size - n)
    if not all(ok):
        return [], int(keep[ok.index(False)])
    return [_rank_from_sv2(s, threshold) for s in sv2], None
