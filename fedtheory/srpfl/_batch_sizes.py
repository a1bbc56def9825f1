"""Rounds of FedRep-SRPFL with per-client batch sizes, batched over replicates (validated arrays in).

Tziotis, Shen, Pedarsani, Hassani and Mokhtari, *Straggler-Resilient Personalized Federated Learning* (TMLR 2023),
Algorithm 2 with the imbalanced local datasets of Appendix C (Figure 8: FEMNIST's 100 + U[0, 50] samples per
client, Sent140's log-normal allocation): participant i takes a fresh batch of ``m_i`` samples, fits its exact
head ``w_i`` (eq. (16)), takes one step ``B_i = B - (eta / m_i) X_i^T (X_i B w_i - Y_i) w_i^T`` on its own loss
(``f_i = (1/2m_i) ||.||^2``, eq. (18) per client) and the server averages the n steps with equal weights
(Algorithm 1, line 15) before the QR step, so that

``B_bar = B - (eta / n) sum_i (1 / m_i) X_i^T r_i w_i^T``,  ``r_i = X_i B w_i - Y_i``.

With equal ``m_i = m`` this is FedRep's round (:mod:`fedtheory.representation._kernels`). The batches are kept
zero-padded to ``m_max`` rows (a zero row changes neither ``X_i^T X_i`` nor ``X_i^T Y_i``, and its residual is 0),
so the clients of all replicates are still one batched ``k x k`` head solve; the same round unbatched and
unpadded is :func:`fedtheory.srpfl.meta.imbalanced_round`.

The reduced law (isotropic Gaussian rows, ``d >= 2k``) is FedRep's (:func:`fedtheory.representation
.fedrep_round_reduced`) with per-client weights: with ``U`` an orthonormal basis of ``span[B, B*]``, the heads,
residuals and ``U^T G`` depend on ``a_i = X_i U`` (``m_i x 2k`` standard normals) and the noise only, and given
them the rest of the gradient, ``(I - U U^T) sum_i X_i^T r_i w_i^T / (n m_i)``, is a matrix Gaussian with
column covariance ``I - U U^T`` and row covariance ``S = sum_i ||r_i||^2 w_i w_i^T / (n m_i)^2``.
"""
from __future__ import annotations

import numpy as np

from .._validation import check_finite_result
from ..representation._kernels import _client_heads, _finish_round


def row_masks(m_sel: np.ndarray, m_max: int) -> np.ndarray:
    """``mask[..., i, j] = j < m_sel[..., i]``: the rows of each participant's zero-padded batch that it holds."""
    return np.arange(m_max) < np.asarray(m_sel)[..., None]


def draw_padded(g: np.random.Generator, mask: np.ndarray, out: np.ndarray) -> None:
    """Fill ``out`` (n, m_max, width) with zeros and, at the rows of ``mask`` (n, m_max), with standard normals
    drawn from ``g`` in one call of ``sum(mask)`` rows (client by client, row by row)."""
    out.fill(0.0)
    out[mask] = g.standard_normal((int(np.count_nonzero(mask)),) + out.shape[2:])


def weighted_round(B, Xf, A, y, m_sel, eta):
    """One round on zero-padded full batches: exact heads, ``B_bar = B - (eta/n) sum_i X_i^T r_i w_i^T / m_i``,
    QR. ``B`` (R, d, k), ``Xf`` (R, n m_max, d), ``A = X B`` (R, n, m_max, k), ``y`` (R, n, m_max), ``m_sel``
    (R, n), ``eta`` (R,). Returns the :class:`~fedtheory.representation.results.RoundResult` of the stack."""
    R, n, m_max, k = A.shape
    w, resid = _client_heads(A.reshape(-1, m_max, k), y.reshape(-1, m_max))
    w, resid = w.reshape(R, n, k), resid.reshape(R, n, m_max)
    Rw = ((resid / m_sel[..., None])[..., None] * w[..., None, :]).reshape(R, n * m_max, k)
    B_bar = B - np.asarray(eta)[:, None, None] * (np.swapaxes(Xf, -1, -2) @ Rw) / n
    check_finite_result(B_bar, "the round's averaged representation", "B", "eta")
    return _finish_round(B_bar, w, resid, True)


def weighted_round_reduced(B, B_star, theta, sigma, a, noise, Np, m_sel, eta):
    """The same round drawn from its exact law (module docstring): ``a`` (R, n, m_max, 2k) and ``noise``
    (R, n, m_max) zero beyond each participant's ``m_i`` rows, ``Np`` (R, d, k) standard normals, ``theta``
    (R, n, d) the participants' ``B* w_i*``."""
    R, n, m_max, q = a.shape
    k = B.shape[-1]
    U, _ = np.linalg.qr(np.concatenate([B, B_star], axis=-1))
    Ut_ = np.swapaxes(U, -1, -2)
    y = np.einsum("rcmq,rcq->rcm", a, theta @ U)
    if sigma > 0:
        y = y + sigma * noise
    A = a @ (Ut_ @ B)[:, None, :, :]
    w, resid = _client_heads(A.reshape(-1, m_max, k), y.reshape(-1, m_max))
    w, resid = w.reshape(R, n, k), resid.reshape(R, n, m_max)
    rw = resid / m_sel[..., None]
    G_U = np.swapaxes(np.einsum("rcmq,rcm->rcq", a, rw), -1, -2) @ w / n
    S = np.swapaxes(w * np.sum(rw ** 2, axis=-1)[..., None], -1, -2) @ w / n ** 2
    check_finite_result(S, "the round's gradient covariance", "B", "eta")
    ev, vec = np.linalg.eigh(S)
    L = vec * np.sqrt(np.maximum(ev, 0.0))[..., None, :]
    G = U @ G_U + (Np - U @ (Ut_ @ Np)) @ np.swapaxes(L, -1, -2)
    B_bar = B - np.asarray(eta)[:, None, None] * G
    check_finite_result(B_bar, "the round's averaged representation", "B", "eta")
    return _finish_round(B_bar, w, resid, True)
