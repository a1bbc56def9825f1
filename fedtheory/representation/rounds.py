"""One exact FedRep round on given or freshly drawn batches: the validated single-round API.

FedRep, Collins, Hassani, Mokhtari and Shakkottai, ICML 2021, Algorithm 2 (client head update, one
gradient step on ``B``, server average) plus the QR step of the analysed version; identical to SRPFL
Appendix A eqs. (16)-(19) (Tziotis, Shen, Pedarsani, Hassani and Mokhtari, TMLR).

* :func:`fedrep_round` - on a given batch ``X`` (c, m, d), ``y`` (c, m);
* :func:`fedrep_round_stacked` - fresh batch drawn as one tall matrix (the runs' fast path);
* :func:`fedrep_round_sharded` - fresh batch drawn from one stream per client shard (threads optional);
* :func:`fedrep_round_reduced` - the exact law of the round with Gaussian rows from ``c m 2k + d k`` normals;
* :func:`resolve_sampler` - which of the full and reduced samplers a run uses.

Each function validates its arguments once and then calls the batched kernels of
:mod:`fedtheory.representation._kernels` (with no replicate axis).
"""
from __future__ import annotations

import numpy as np

from .._validation import guard_module as _guard_module
from .._validation import (check_bool, check_choice, check_finite_result, check_generator, check_instance, check_int,
                           check_matrix, check_real)
from ._checks import _check_heads, _check_result, _check_round, _OverflowNames
from ._kernels import _client_heads, _finish_round, _reduced_from_draws, _round_from_features
from .model import FedRepModel
from .results import RoundResult

__all__ = ["fedrep_round", "fedrep_round_stacked", "fedrep_round_sharded", "fedrep_round_reduced", "resolve_sampler",
           "SAMPLERS", "PARALLEL_MIN_NORMALS"]

#: the samplers of the runs: every batch drawn, each round drawn from its exact law, or reduced where it applies
SAMPLERS = ("full", "reduced", "auto")

#: below this many normals per round, shards run one after the other (threads cost more than they save)
PARALLEL_MIN_NORMALS = 2_000_000


def resolve_sampler(sampler: str, model: FedRepModel, fresh_batches: bool = True) -> str:
    """Validate ``sampler`` and resolve ``"auto"``: the reduced sampler needs an isotropic Gaussian
    design, ``d >= 2k`` and fresh batches; ``"auto"`` falls back to ``"full"`` elsewhere."""
    check_choice(sampler, "sampler", SAMPLERS)
    check_instance(model, "model", FedRepModel)
    fresh_batches = check_bool(fresh_batches, "fresh_batches")
    ok = model.design == "gaussian" and model.d >= 2 * model.k and fresh_batches
    if sampler == "reduced" and not ok:
        raise ValueError("`sampler`='reduced' needs design='gaussian', d >= 2k and fresh batches "
                         f"(got design={model.design!r}, d={model.d}, k={model.k}, "
                         f"fresh_batches={fresh_batches}); use sampler='full' or 'auto'")
    if sampler == "auto":
        return "reduced" if ok else "full"
    return sampler


def fedrep_round(B: np.ndarray, X: np.ndarray, y: np.ndarray, eta: float, *,
                 w_init: np.ndarray | None = None, head_steps: int | None = None,
                 head_lr: float = 0.5, orthonormalize_B: bool = True) -> RoundResult:
    """One round of FedRep for linear regression on the participating clients' batches.

    FedRep, Collins et al., ICML 2021, Algorithm 2 (client update, server average), plus
    the QR step of the analysed version; identical to SRPFL Appendix A eqs. (16)-(19)
    (Tziotis et al., TMLR). With ``X`` of shape (c, m, d) and ``y`` of shape (c, m):

    ``w_i = (B^T X_i^T X_i B)^{-1} B^T X_i^T y_i`` (or ``head_steps`` GD steps from ``w_init``),
    ``B_bar = B - (eta / (c m)) sum_i X_i^T (X_i B w_i - y_i) w_i^T``, ``B_next, R = QR(B_bar)``.

    Vectorised over the clients: one batched matmul, one batched k x k solve, one contraction.

    ``B`` (d x k), ``X`` (c, m, d) and ``y`` (c, m) are finite; ``eta >= 0``; ``w_init`` (c, k) or None;
    ``head_steps`` None (exact head, needs ``m >= k``) or >= 1; ``head_lr > 0``. Raises a ``ValueError``
    if the round overflows float64 (e.g. a huge ``eta``).
    """
    X = check_matrix(X, "X", (None, None, None))
    c, m, d = X.shape
    B = check_matrix(B, "B", (d, None))
    y = check_matrix(y, "y", (c, m))
    eta = check_real(eta, "eta", 0)
    w_init, head_steps, head_lr = _check_heads(w_init, head_steps, head_lr, c, B.shape[1], m)
    orthonormalize_B = check_bool(orthonormalize_B, "orthonormalize_B")
    with _OverflowNames("B", "X", "y", "eta", "w_init", "head_lr"):
        return _check_result(_round_given_batch(B, X, y, eta, w_init=w_init, head_steps=head_steps, head_lr=head_lr,
                                                orthonormalize_B=orthonormalize_B), "B", "X", "y", "eta")


def _round_given_batch(B, X, y, eta, *, w_init=None, head_steps=None, head_lr=0.5, orthonormalize_B=True):
    """:func:`fedrep_round` without the input validation (the runs validate once, up front)."""
    c, m, d = X.shape
    Xf = X.reshape(c * m, d)
    return _round_from_features(B, Xf, (Xf @ B).reshape(c, m, -1), y, eta, w_init=w_init,
                                head_steps=head_steps, head_lr=head_lr, orthonormalize_B=orthonormalize_B)


def fedrep_round_stacked(B: np.ndarray, model: FedRepModel, clients: np.ndarray, m: int, eta: float,
                         rng: np.random.Generator, **kw) -> RoundResult:
    """Fresh-batch round with the batch drawn and used as one tall matrix (the library's fast path).

    Draws ``X`` (c m x d) and the label noise exactly as :meth:`FedRepModel.sample` does (same
    stream, same order), computes ``X [B | B*]`` in one matmul, the labels ``y_i = (X_i B*) w_i* +
    noise`` from it, and then the round kernel (:mod:`fedtheory.representation._kernels`).
    """
    unknown = set(kw) - {"w_init", "head_steps", "head_lr", "orthonormalize_B"}
    if unknown:
        raise TypeError(f"unexpected keyword argument(s): {', '.join(sorted(unknown))}")
    check_generator(rng, "rng")
    B, clients, m, eta, w_init, head_steps, head_lr = _check_round(
        B, model, clients, m, eta, kw.get("w_init"), kw.get("head_steps"), kw.get("head_lr", 0.5))
    kw = {**kw, "w_init": w_init, "head_steps": head_steps, "head_lr": head_lr,
          "orthonormalize_B": check_bool(kw.get("orthonormalize_B", True), "orthonormalize_B")}
    with _OverflowNames("B", "model", "eta", "w_init", "head_lr"):
        return _check_result(_round_stacked(B, model, clients, m, eta, rng, **kw), "B", "eta", "model")


def _round_stacked(B, model, clients, m, eta, rng, out=None, **kw) -> RoundResult:
    """:func:`fedrep_round_stacked` without the input validation (``out``: see :func:`_draw_stacked`)."""
    Xf, A, y = _draw_stacked(B, model, clients, m, rng, out)
    return _round_from_features(B, Xf, A, y, eta, **kw)


def _draw_stacked(B, model, clients, m, rng, out=None):
    """Draw the clients' batch as one tall matrix ``Xf`` (c m x d), with one ``X [B | B*]`` matmul giving
    the features ``A = X B`` (c, m, k) and the labels ``y = (X B*) w* + noise`` (c, m). ``out``
    (c m x d, Gaussian designs) is a buffer the batch is drawn into (the same numbers as a fresh
    array: a run reuses one buffer across rounds instead of faulting in new pages every round)."""
    c, k = clients.size, B.shape[1]
    if out is not None and model.design == "gaussian":
        Xf = rng.standard_normal(out=out)
    else:
        Xf = model.draw_x(rng, (c * m,))
    P = Xf @ np.hstack([B, model.B_star])
    y = np.einsum("cmk,ck->cm", P[:, k:].reshape(c, m, -1), model.W_star[clients])
    if model.sigma > 0:
        y += model.sigma * rng.standard_normal((c, m))
    return Xf, P[:, :k].reshape(c, m, k), y


def fedrep_round_sharded(B: np.ndarray, model: FedRepModel, clients: np.ndarray, m: int, eta: float,
                         rngs: list, *, workers: int = 1, w_init=None, head_steps=None, head_lr=0.5,
                         orthonormalize_B: bool = True) -> RoundResult:
    """Fresh-batch round split into ``len(rngs)`` client shards, each drawn from its own stream.

    The numbers depend on the shards (and their streams) only, never on ``workers``: with
    ``workers >= 2`` the shards run in threads with BLAS pinned to one thread each (numpy's
    generators and matmuls release the GIL), otherwise one after the other. Below
    ``PARALLEL_MIN_NORMALS`` normals per round the threads are not used, since they would be slower.
    ``rngs`` is a non-empty list of generators (at most one per client).
    """
    B, clients, m, eta, w_init, head_steps, head_lr = _check_round(B, model, clients, m, eta, w_init,
                                                                   head_steps, head_lr)
    if not isinstance(rngs, (list, tuple)) or not rngs:
        raise TypeError(f"`rngs` must be a non-empty list of numpy.random.Generator; got {rngs!r}")
    for g in rngs:
        check_generator(g, "rngs")
    if len(rngs) > clients.size:
        raise ValueError(f"`rngs` must hold at most one stream per client ({clients.size}); got {len(rngs)}")
    workers = check_int(workers, "workers", 1)
    orthonormalize_B = check_bool(orthonormalize_B, "orthonormalize_B")
    with _OverflowNames("B", "model", "eta", "w_init", "head_lr"):
        return _check_result(_round_sharded(B, model, clients, m, eta, rngs, workers=workers, w_init=w_init,
                                        head_steps=head_steps, head_lr=head_lr,
                                        orthonormalize_B=orthonormalize_B), "B", "eta", "model")


def _round_sharded(B, model, clients, m, eta, rngs, *, workers=1, w_init=None, head_steps=None, head_lr=0.5,
                   orthonormalize_B=True) -> RoundResult:
    """:func:`fedrep_round_sharded` without the input validation."""
    parts = np.array_split(np.arange(clients.size), len(rngs))
    wi = [None if w_init is None else w_init[p] for p in parts]
    jobs = [(B, model, clients[p], m, g, head_steps, head_lr, w) for p, g, w in zip(parts, rngs, wi)]
    from ..linalg import blas_single_thread

    # BLAS is pinned to one thread in both branches, so the floating-point summation order (and hence
    # every bit of the result) is the same whatever `workers` is
    with blas_single_thread():
        if workers >= 2 and clients.size * m * model.d >= PARALLEL_MIN_NORMALS and len(jobs) > 1:
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(max_workers=workers) as ex:
                outs = list(ex.map(lambda j: _shard_part(*j), jobs))
        else:
            outs = [_shard_part(*j) for j in jobs]
    G = sum(o[0] for o in outs)
    w = np.concatenate([o[1] for o in outs])
    resid = np.concatenate([o[2] for o in outs])
    B_bar = B - eta * G / (clients.size * m)
    check_finite_result(B_bar, "the round's averaged representation", "B", "eta", "head_lr")
    return _finish_round(B_bar, w, resid, orthonormalize_B)


def _shard_part(B, model, clients, m, rng, head_steps, head_lr, w_init):
    """One shard's share of a round: draw its batch, heads, residuals and its gradient sum."""
    Xf, A, y = _draw_stacked(B, model, clients, m, rng)
    c, k = clients.size, B.shape[1]
    w, resid = _client_heads(A, y, head_steps, head_lr, w_init)
    return Xf.T @ (resid[:, :, None] * w[:, None, :]).reshape(c * m, k), w, resid


def fedrep_round_reduced(B: np.ndarray, model: FedRepModel, clients: np.ndarray, m: int,
                         eta: float, rng: np.random.Generator, *, w_init: np.ndarray | None = None,
                         head_steps: int | None = None, head_lr: float = 0.5,
                         orthonormalize_B: bool = True) -> RoundResult:
    """One FedRep round drawn from the exact law of :func:`fedrep_round` with Gaussian rows,
    using ``c m 2k + d k`` normals instead of ``c m d``.

    **Derivation.** Let ``U`` (d x 2k) be an orthonormal basis containing ``col(B)`` and
    ``col(B*)`` (QR of ``[B, B*]``; it has orthonormal columns even if the two spans
    intersect) and ``U_perp`` its complement. For a row ``x ~ N(0, I_d)`` write ``x = U a + U_perp z``
    with ``a ~ N(0, I_2k)`` and ``z ~ N(0, I_{d-2k})`` independent. The features ``x^T B = a^T U^T B``,
    the labels ``y = a^T U^T theta_i + noise``, hence the head ``w_i``, the residuals ``r_i`` (m) and
    ``U^T X_i^T r_i = a_i^T r_i`` depend on ``a`` and the noise only. The remaining part of the
    gradient is ``U_perp^T G = (1/(c m)) sum_i (Z_i^T r_i) w_i^T`` with ``Z_i`` (m x (d-2k)) independent
    of everything else; conditionally ``Z_i^T r_i ~ N(0, ||r_i||^2 I)``, independently over ``i``. So each
    of the ``d - 2k`` rows of ``U_perp^T G`` is ``N(0, S)`` with ``S = sum_i ||r_i||^2 w_i w_i^T / (c m)^2``,
    independently: ``U_perp^T G = N L^T`` with ``N`` standard normal and ``L L^T = S``. Finally
    ``U_perp N ~ (I - U U^T) N'`` for a d x k standard normal ``N'``, so ``U_perp`` is never formed.
    The result equals :func:`fedrep_round`'s in distribution (not sample path by sample path).
    """
    check_generator(rng, "rng")
    B, clients, m, eta, w_init, head_steps, head_lr = _check_round(B, model, clients, m, eta, w_init,
                                                                   head_steps, head_lr)
    if model.d < 2 * B.shape[1]:
        raise ValueError(f"the reduced round needs d >= 2k; got `B` of shape {B.shape}")
    orthonormalize_B = check_bool(orthonormalize_B, "orthonormalize_B")
    with _OverflowNames("B", "model", "eta", "w_init", "head_lr"):
        return _check_result(_round_reduced(B, model, clients, m, eta, rng, w_init=w_init, head_steps=head_steps,
                                        head_lr=head_lr, orthonormalize_B=orthonormalize_B), "B", "eta", "model")


def _round_reduced(B, model, clients, m, eta, rng, *, w_init=None, head_steps=None, head_lr=0.5,
                   orthonormalize_B=True) -> RoundResult:
    """:func:`fedrep_round_reduced` without the input validation."""
    draws = _draw_reduced(rng, clients.size, m, B.shape[0], B.shape[1], model.sigma)
    return _reduced_from_draws(B, model.B_star, model.theta_star[clients], model.sigma, *draws, eta,
                               w_init=w_init, head_steps=head_steps, head_lr=head_lr,
                               orthonormalize_B=orthonormalize_B)


def _draw_reduced(rng, c, m, d, k, sigma):
    """The normals of one reduced round, in stream order: ``a`` (c, m, 2k), the label noise (c, m)
    when ``sigma > 0`` (else None) and ``N'`` (d, k)."""
    a = rng.standard_normal((c, m, 2 * k))
    noise = rng.standard_normal((c, m)) if sigma > 0 else None
    return a, noise, rng.standard_normal((d, k))


# every public function turns float64 overflows, linear-algebra failures and broadcasting errors
# into ValueErrors naming its parameters (fedtheory._validation.guard_numeric_errors)
_guard_module(globals(), __all__)
