"""Batched kernels of the exact FedRep round: validated arrays in, no input checks.

FedRep, Collins, Hassani, Mokhtari and Shakkottai, ICML 2021, Algorithm 2 (client head update, one
gradient step on the representation, server average, and the QR step of the analysed version); the
same round is SRPFL's (Tziotis, Shen, Pedarsani, Hassani and Mokhtari, TMLR, Appendix A,
eqs. (16)-(19)). Every kernel works on stacks: the arrays may carry the same leading replicate axes
(``B`` (..., d, k), batches (..., c m, d), heads (..., c, k)), and the heads of all clients of all
replicates are one batched ``k x k`` solve, so a single run is the stack with one replicate.

The callers validate once, at their public entry (:mod:`fedtheory.representation._checks`); the
kernels only detect float64 overflows of their results, which they report as ``ValueError``.
"""
from __future__ import annotations

import numpy as np

from .._validation import check_finite_result
from ..linalg import _distance_to, _solve_spd, _try_solve_spd
from ._checks import _overflow_check
from .results import RoundResult


def _fit_heads(A, y, ridge=0.0):
    """Exact least-squares heads ``(A_c^T A_c + ridge I)^{-1} A_c^T y_c`` of a stack of clients (``A`` (c, m, k),
    ``y`` (c, m)): :func:`~fedtheory.representation.fitting.fit_heads` without the input validation."""
    G = np.matmul(np.swapaxes(A, -1, -2), A)
    if ridge > 0:
        G = G + ridge * np.eye(A.shape[-1])
    rhs = np.einsum("cmk,cm->ck", A, y)
    w = _try_solve_spd(G, rhs)  # certified and finite (the usual case): no further checks needed
    if w is not None:
        return w
    _overflow_check([G, rhs], "the head solve", "A", "y", "ridge")
    return _solve_spd(G, rhs, what="head solve (B^T X^T X B)")


def _client_heads(A, y, head_steps=None, head_lr=0.5, w_init=None):
    """Client head update of Algorithm 2 for a stack of clients: the exact least-squares head, or
    ``head_steps`` gradient steps of size ``head_lr`` from ``w_init`` (GD-GD); returns ``(w, resid)``
    with ``resid = A w - y``. ``A`` is (c, m, k), ``y`` (c, m)."""
    c, m, k = A.shape
    if head_steps is None:
        w = _fit_heads(A, y)
    else:
        w = np.zeros((c, k)) if w_init is None else np.array(w_init, dtype=float)
        for _ in range(head_steps):
            w = w - head_lr * np.einsum("cmk,cm->ck", A, np.einsum("cmk,ck->cm", A, w) - y) / m
    return w, np.einsum("cmk,ck->cm", A, w) - y


def _finish_round(B_bar, w, resid, orthonormalize_B: bool) -> RoundResult:
    """Server step after averaging: QR with ``diag(R) >= 0`` (unique factor), or keep ``B_bar``.
    ``B_bar`` may carry leading replicate axes (..., d, k)."""
    if orthonormalize_B:
        Q, R = np.linalg.qr(B_bar)
        sg = np.sign(np.diagonal(R, axis1=-2, axis2=-1)).copy()
        sg[sg == 0] = 1.0
        return RoundResult(Q * sg[..., None, :], B_bar, sg[..., :, None] * R, w, resid)
    k = B_bar.shape[-1]
    return RoundResult(B_bar, B_bar, np.broadcast_to(np.eye(k), B_bar.shape[:-2] + (k, k)), w, resid)


def _round_from_features(B, Xf, A, y, eta, *, w_init=None, head_steps=None, head_lr=0.5,
                         orthonormalize_B=True) -> RoundResult:
    """One round of FedRep's Algorithm 2 given the stacked batch ``Xf`` (c m x d) and its features
    ``A = X B`` (c, m, k): the client heads (exact, or ``head_steps`` GD steps from ``w_init``), the
    averaged representation step ``B_bar = B - (eta / (c m)) sum_i X_i^T r_i w_i^T`` and the server QR.

    The representation gradient is one tall matmul ``Xf^T (r * w_rows)`` (w_i repeated over the
    client's m rows), so a round touches X only through two tall matmuls (``X [B|B*]`` upstream
    and this one) besides drawing it. Every array may carry the same leading replicate axes
    (``B`` (..., d, k), ``Xf`` (..., c m, d), ``A`` (..., c, m, k), ``y`` (..., c, m), ``w_init``
    (..., c, k)); ``eta`` is a scalar or has the leading shape.
    """
    *lead, c, m, k = A.shape
    w, resid = _client_heads(A.reshape(-1, m, k), y.reshape(-1, m), head_steps, head_lr,
                             None if w_init is None else np.reshape(w_init, (-1, k)))
    w, resid = w.reshape(*lead, c, k), resid.reshape(*lead, c, m)
    Rw = (resid[..., None] * w[..., None, :]).reshape(*lead, c * m, k)
    # (1/c) sum_i (1/m) X_i^T r_i w_i^T
    B_bar = B - np.asarray(eta)[..., None, None] * (np.swapaxes(Xf, -1, -2) @ Rw) / (c * m)
    check_finite_result(B_bar, "the round's averaged representation", "B", "eta", "head_lr")
    return _finish_round(B_bar, w, resid, orthonormalize_B)


def _reduced_from_draws(B, B_star, theta, sigma, a, noise, Np, eta, *, w_init=None, head_steps=None,
                        head_lr=0.5, orthonormalize_B=True) -> RoundResult:
    """The reduced round of :func:`~fedtheory.representation.rounds.fedrep_round_reduced` (the exact law of
    the round with Gaussian rows; see the derivation there) given its normals, drawn in the order of
    :func:`~fedtheory.representation.rounds._draw_reduced`; every array may carry the same leading replicate
    axes (``B``, ``B_star`` (..., d, k), ``theta`` (..., c, d) the selected
    clients' ``B* w_i*``, ``a`` (..., c, m, 2k), ``noise`` (..., c, m), ``Np`` (..., d, k))."""
    *lead, c, m, q = a.shape
    k = B.shape[-1]
    U, _ = np.linalg.qr(np.concatenate([B, B_star], axis=-1))  # d x 2k, orthonormal
    Ut_ = np.swapaxes(U, -1, -2)
    y = np.einsum("...cmq,...cq->...cm", a, theta @ U)
    if sigma > 0:
        y = y + sigma * noise
    A = a @ (Ut_ @ B)[..., None, :, :]
    w, resid = _client_heads(A.reshape(-1, m, k), y.reshape(-1, m), head_steps, head_lr,
                             None if w_init is None else np.reshape(w_init, (-1, k)))
    w, resid = w.reshape(*lead, c, k), resid.reshape(*lead, c, m)
    G_U = np.swapaxes(np.einsum("...cmq,...cm->...cq", a, resid), -1, -2) @ w / (c * m)  # U^T G, (2k, k)
    S = np.swapaxes(w * np.sum(resid ** 2, axis=-1)[..., None], -1, -2) @ w / (c * m) ** 2
    check_finite_result(S, "the round's gradient covariance", "B", "eta", "head_lr")
    ev, vec = np.linalg.eigh(S)
    L = vec * np.sqrt(np.maximum(ev, 0.0))[..., None, :]  # L L^T = S
    G = U @ G_U + (Np - U @ (Ut_ @ Np)) @ np.swapaxes(L, -1, -2)
    B_bar = B - np.asarray(eta)[..., None, None] * G
    check_finite_result(B_bar, "the round's averaged representation", "B", "eta", "head_lr")
    return _finish_round(B_bar, w, resid, orthonormalize_B)


def _objective_direct(B, W, theta, sigma):
    """The population objective (6) of FedRep (Collins et al., ICML 2021) for any ``B``, given
    ``theta = W* B*^T``: ``(1/2n) sum_i ||B w_i - theta_i||^2 + sigma^2 / 2``; every array may carry the
    same leading replicate axes (the operations of
    :func:`~fedtheory.representation.theory.population_objective`, hence its bits)."""
    diff = W @ np.swapaxes(B, -1, -2) - theta
    return 0.5 * np.mean(np.sum(diff ** 2, axis=-1), axis=-1) + 0.5 * sigma ** 2


def _objective_orthonormal(B, W, B_star, W_star, sigma):
    """The population objective (6) of FedRep (Collins, Hassani, Mokhtari and Shakkottai, ICML 2021,
    eqs. (5)-(6)) for an orthonormal ``B`` in ``O((n + d) k^2)`` instead of ``O(n d k)``; every array
    may carry the same leading replicate axes.

    With ``B^T B = I``, ``theta_i = B* w_i*`` splits into ``B (B^T theta_i)`` and
    ``(I - B B^T) theta_i = P w_i*``, ``P = B* - B C``, ``C = B^T B*``, so
    ``||B w_i - theta_i||^2 = ||w_i - C w_i*||^2 + w_i*^T (P^T P) w_i*``. ``P`` is formed directly
    (not as ``I - C^T C``), so there is no cancellation: the rounding error is
    ``O(eps ||w|| sqrt(F))``, the order of the direct formula's (the departure of the computed ``B``
    from orthonormality, ``O(eps)``, enters as a cross term ``eps ||w|| sqrt(F)``; tested against a
    50-digit evaluation of (6) down to ``F ~ 1e-20``).
    """
    C = np.swapaxes(B, -1, -2) @ B_star
    P = B_star - B @ C
    M = np.swapaxes(P, -1, -2) @ P
    head = W - W_star @ np.swapaxes(C, -1, -2)
    perp = np.sum((W_star @ M) * W_star, axis=-1)
    return 0.5 * np.mean(np.sum(head ** 2, axis=-1) + perp, axis=-1) + 0.5 * sigma ** 2


def _sample(model, theta, rng, clients, m):
    """:meth:`~fedtheory.representation.model.FedRepModel.sample` given the model's ``theta = W* B*^T``
    (computed once per run, not every round): the same draws, in the same order, and the same bits."""
    X = model.draw_x(rng, (clients.size, m))
    y = np.einsum("cmd,cd->cm", X, theta[clients])
    if model.sigma > 0:
        y += model.sigma * rng.standard_normal(y.shape)
    return X, y


#: bytes of iterates a :class:`_DistanceLog` keeps between two of its stacked distance computations
DISTANCE_BLOCK_BYTES = 2 ** 22


class _DistanceLog:
    """``dist(B^t, B*)`` (FedRep Definition 1, Collins et al., ICML 2021) of every round of a run, in blocks.

    The iterates of up to ``block`` rounds are kept and their distances computed by one stacked QR, matmul
    and SVD: each slice is the same LAPACK and BLAS call as for one round at a time (hence the same bits),
    for a fraction of the per-call cost. The distances feed no decision inside the rounds.
    ``Q_star`` (R, d, k) is the orthonormalised ``B*`` of every replicate, ``dist`` (R, rounds+1) the
    trajectory filled from column 1 (column 0, ``B^0``, is the caller's); call :meth:`flush` after the
    last round.
    """

    def __init__(self, Q_star: np.ndarray, dist: np.ndarray, rounds: int):
        self.Q_star, self.dist = Q_star, dist
        self.block = max(1, min(rounds, DISTANCE_BLOCK_BYTES // (8 * Q_star.size)))
        self.iterates = np.empty((self.block,) + Q_star.shape) if rounds else None
        self.start, self.filled = 1, 0

    def add(self, B: np.ndarray) -> None:
        """Record the next round's iterate ``B`` (R, d, k)."""
        self.iterates[self.filled] = B
        self.filled += 1
        if self.filled == self.block:
            self.flush()

    def flush(self) -> None:
        """Compute the distances of the recorded iterates into ``dist``."""
        f = self.filled
        if f:
            self.dist[:, self.start:self.start + f] = _distance_to(self.Q_star, self.iterates[:f]).T
            self.start, self.filled = self.start + f, 0
