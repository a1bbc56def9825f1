"""Appendix A, the proof of Lemma A.2 of Tziotis, Shen, Pedarsani, Hassani and Mokhtari, *Straggler-Resilient
Personalized Federated Learning* (TMLR 2023; arXiv eqs. (20)-(22)), on exact rounds.

* ``srpfl.lemA2.proof-steps`` - the three lines (21), (22), (23) of the expansion of the head update (17), each
  against the least-squares heads of the round (numpy ``pinv``, independent of the normal equations).

:func:`exact_rounds` draws the exact rounds the lemma-proof modules share (:mod:`.lemma_a4_proof`,
:mod:`.lemma_a5_proof`, :mod:`.lemmas_a6_a9_proof`): it keeps the batches ``X_i`` and the noise ``Z_i`` that the
proof's sums run over.
"""
from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np

from fedtheory.random import as_generator, spawn_seeds
from fedtheory.srpfl import proof_quantities as pq

from . import PAPER
from ._common import relative_identity


# ----------------------------------------------------------------------------- exact rounds with their batches
def principal_pair(d: int, k: int, dist: float):
    """``(B_hat, B*, B_perp)``: B* = the first k coordinate vectors, B_hat = cos(theta) B* + sin(theta) (the next k),
    theta = arcsin(dist), so all k principal angles equal theta and dist(B_hat, B*) = dist (Tziotis et al., TMLR 2023,
    Definition 4.1); B_perp = -sin(theta) B* + cos(theta) (the next k) spans (B_hat B_hat^T - I) B* = dist B_perp.
    Exact in law for the isotropic Gaussian design (rotation invariant). Needs d >= 2k."""
    if d < 2 * k or not 0 <= dist <= 1:
        raise ValueError(f"need d >= 2k and 0 <= dist <= 1; got d={d}, k={k}, dist={dist}")
    th = math.asin(dist)
    E1, E2 = np.zeros((d, k)), np.zeros((d, k))
    E1[:k, :k] = np.eye(k)
    E2[k:2 * k, :k] = np.eye(k)
    return math.cos(th) * E1 + math.sin(th) * E2, E1, -math.sin(th) * E1 + math.cos(th) * E2


def exact_rounds(g, reps: int, *, m: int, d: int, n: int, dist: float, sigma: float, k: int = 2):
    """``reps`` exact FedRep rounds of Appendix A (Tziotis et al., TMLR 2023, (16)-(25)): Gaussian batches X_i (m x d),
    noise Z_i ~ N(0, sigma^2), labels Y_i = X_i B* w_i* + Z_i, sqrt(k)-normalised heads (Assumption 4.6), B_hat at
    distance ``dist`` (:func:`principal_pair`). Returns a namespace with ``X`` (reps, n, m, d), ``Z``, ``Y``, ``W``
    (reps, n, k), ``B``, ``Bs``, ``Bp`` and ``rq``, the :class:`~fedtheory.srpfl.proof_quantities.RoundQuantities`."""
    g = as_generator(g)
    B, Bs, Bp = principal_pair(d, k, dist)
    W = g.standard_normal((reps, n, k))
    W *= math.sqrt(k) / np.linalg.norm(W, axis=-1, keepdims=True)
    X = g.standard_normal((reps, n, m, d))
    Z = sigma * g.standard_normal((reps, n, m))
    Y = np.einsum("rnmd,rnd->rnm", X, W @ Bs.T) + Z
    return SimpleNamespace(X=X, Z=Z, Y=Y, W=W, B=B, Bs=Bs, Bp=Bp, m=m, d=d, n=n, k=k, dist=dist, sigma=sigma,
                           rq=pq.round_quantities(X, Y, B, Bs, W))


def round_grid(full: bool, seed, grid, reps: int, k: int = 2):
    """:func:`exact_rounds` at every ``dict(m=, d=, n=, dist=, sigma=)`` of ``grid``, cell j seeded by
    ``spawn_seeds(seed, len(grid))[j]``."""
    return [exact_rounds(s, reps, k=k, **cell) for cell, s in zip(grid, spawn_seeds(seed, len(grid)))]


def lstsq_heads(X, Y, B):
    """Referee heads: the least-squares solution of min_w ||Y_i - X_i B w|| by the pseudo-inverse (SVD), batched."""
    return np.einsum("...kl,...l->...k", np.linalg.pinv(X @ B), Y)


def _rel(a, b):
    """Largest relative error ``||a - b|| / ||b||`` over the leading axes (norm over the last axis)."""
    return float(np.max(np.linalg.norm(a - b, axis=-1) / np.maximum(np.linalg.norm(b, axis=-1), 1e-300)))


# ----------------------------------------------------------------------------- (21)-(23)
def expansion_lines(r):
    """The three printed lines of the expansion of (17) in the proof of Lemma A.2 (Tziotis et al., TMLR 2023):

    (21) gram^{-1} (1/m) B^T X^T X B* w* + gram^{-1} (1/m) B^T X^T Z;
    (22) B^T B* w* + gram^{-1} ((1/m) B^T X^T X B* - (1/m) B^T X^T X B B^T B*) w* + gram^{-1} (1/m) B^T X^T Z;
    (23) B^T B* w* + F_i + G_i with F_i, G_i of (24)-(25) (:mod:`fedtheory.srpfl.proof_quantities`).

    Returns ``{"(21)": ..., "(22)": ..., "(23)": ...}``, arrays (reps, n, k)."""
    m = r.m
    A = r.X @ r.B
    gram = np.swapaxes(A, -1, -2) @ A / m
    cross = np.swapaxes(A, -1, -2) @ (r.X @ r.Bs) / m
    noise = np.einsum("rnmk,rnm->rnk", A, r.Z) / m
    sig = np.einsum("rnkl,rnl->rnk", cross, r.W)
    lin21 = np.linalg.solve(gram, (sig + noise)[..., None])[..., 0]
    base = r.W @ (r.B.T @ r.Bs).T
    diff = np.einsum("rnkl,rnl->rnk", cross - gram @ (r.B.T @ r.Bs), r.W)
    lin22 = base + np.linalg.solve(gram, diff[..., None])[..., 0] + np.linalg.solve(gram, noise[..., None])[..., 0]
    lin23 = base + r.rq.F + r.rq.G
    return {"(21)": lin21, "(22)": lin22, "(23)": lin23}


A2_GRID = [dict(m=m, d=d, n=8, dist=0.5, sigma=s) for m in (10, 60) for d in (8, 32) for s in (0.0, 0.5)]


@PAPER.claim("srpfl.lemA2.proof-steps", "Lemma A.2, proof, eqs. (21)-(23) [arXiv: (20)-(22)]",
             "Each line of the expansion of the head update (17) - (21) gram^{-1}(1/m)B^T X^T (X B* w* + Z), (22) "
             "B^T B* w* + gram^{-1}((1/m)B^T X^T X B* - (1/m)B^T X^T X B B^T B*) w* + gram^{-1}(1/m)B^T X^T Z, and "
             "(23) B^T B* w* + F_i + G_i - equals the least-squares head of the round.",
             regime="exact FedRep rounds (Appendix A, (16)-(17)): Gaussian X_i, k = 2, n = 8, orthonormal B_hat at "
                    "dist 0.5 from B*, m in {10, 60}, d in {8, 32}, sigma in {0, 0.5}; exact algebraic identities (no "
                    "probability, no constant): every line's largest relative residual against the pseudo-inverse "
                    "heads <= 1e-10")
def _lemA2_steps(full: bool, seed):
    reps = 16 if full else 4
    rounds = round_grid(full, seed, A2_GRID, reps)
    res = {key: 0.0 for key in ("(21)", "(22)", "(23)")}
    for r in rounds:
        ref = lstsq_heads(r.X, r.Y, r.B)
        for key, val in expansion_lines(r).items():
            res[key] = max(res[key], _rel(val, ref))
    out = relative_identity(list(res.values()), 1e-10,
                            what=f"{len(rounds)} cells x {reps} rounds x 8 clients: the largest relative residual of "
                                 "the lines (21), (22), (23) against the pseudo-inverse heads, each <= 1e-10",
                            params={"grid": A2_GRID, "reps": reps, "k": 2})
    return {**out, "observed": {"max_relative_residual": res}, "bound": {"tolerance": 1e-10},
            "referee": "numpy pinv (SVD) least squares of Y_i on X_i B_hat, independent of the normal equations"}
