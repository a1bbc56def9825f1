"""Structural facts of FedRep's linear model (Sec. 2.1 and Sec. 4.2) as exact computations.

Source: Collins, Hassani, Mokhtari, Shakkottai, "Exploiting Shared Representations for
Personalized Federated Learning", ICML 2021 (PMLR 139). The functions here are the exact
(population, ``m -> infinity``) counterparts of the finite-sample runs of
:mod:`fedtheory.representation.algorithms`: alternating least squares on objective (3), one population round of
Algorithm 2, a representation at a prescribed principal-angle distance (Definition 1), the
row-wise incoherence of ``W* B*^T`` the paper mentions after Assumption 3, and the rank-one
restricted isometry constant of the row-wise sparse sensing operator of Sec. 4.2. Every
function validates its input and raises ``ValueError`` naming the parameter.
"""
from __future__ import annotations

import math

import numpy as np

from .._validation import check_bool, check_int, check_matrix, check_real, check_generator
from .._validation import guard_module as _guard_module
from ..linalg import orthonormalize

__all__ = ["alternating_least_squares", "population_fedrep_round", "basis_at_distance", "row_incoherence",
           "rank1_isometry_range", "sensing_residuals"]


def _pair(B_star, W_star):
    Bs = check_matrix(B_star, "B_star", (None, None))
    Ws = check_matrix(W_star, "W_star", (None, None))
    if Bs.shape[1] != Ws.shape[1]:
        raise ValueError(f"`B_star` (d x k) and `W_star` (n x k) must share k; got shapes {Bs.shape} and {Ws.shape}")
    return Bs, Ws


def _heads(B, theta):
    """Exact population heads argmin_w ||B w - theta_i||^2 for every row theta_i (B full column rank)."""
    return np.linalg.lstsq(B, theta.T, rcond=None)[0].T


def alternating_least_squares(B_star, W_star, B0, iters: int = 200):
    """Exact alternating minimisation of FedRep's objective (3).

    Objective (3) of Collins et al. (ICML 2021, Sec. 2.1) is
    ``F(B, W) = (1/2n) sum_i ||B w_i - B* w_i*||^2``. Each iteration solves it exactly in the
    heads for fixed ``B`` (``w_i = argmin_w ||B w - theta_i||``) and then exactly in ``B`` for
    fixed heads (``B = Theta^T W (W^T W)^+``, ``Theta`` the n x d matrix of ``theta_i = B* w_i*``).

    Parameters
    ----------
    B_star : ndarray (d, k)
        Ground-truth representation.
    W_star : ndarray (n, k)
        Ground-truth heads (rows).
    B0 : ndarray (d, k)
        Starting representation (full column rank).
    iters : int
        Number of alternating sweeps, >= 1.

    Returns
    -------
    B : ndarray (d, k)
    W : ndarray (n, k)
    objective : ndarray (iters + 1,)
        ``F`` before the first sweep (at the optimal heads for ``B0``) and after every sweep.
    """
    Bs, Ws = _pair(B_star, W_star)
    B = check_matrix(B0, "B0", (Bs.shape[0], Bs.shape[1]))
    iters = check_int(iters, "iters", 1)
    if np.linalg.matrix_rank(B) < B.shape[1]:
        raise ValueError("`B0` must have full column rank k")
    theta = Ws @ Bs.T
    n = theta.shape[0]
    W = _heads(B, theta)
    obj = [0.5 * float(np.sum((W @ B.T - theta) ** 2)) / n]
    for _ in range(iters):
        B = np.linalg.lstsq(W, theta, rcond=None)[0].T   # argmin_B ||W B^T - Theta||_F
        W = _heads(B, theta)
        obj.append(0.5 * float(np.sum((W @ B.T - theta) ** 2)) / n)
    return B, W, np.array(obj)


def population_fedrep_round(B, B_star, W_star, eta: float, clients=None, orthonormalize_B: bool = True):
    """One round of FedRep's Algorithm 2 in the population limit ``m -> infinity``.

    With ``E x x^T = I`` and no noise (Assumption 1, Collins et al., ICML 2021, Sec. 4), the batch
    loss (7) tends to ``f_i(w, B) = (1/2)||B w - theta_i||^2``: each selected client takes the exact
    head ``w_i = (B^T B)^{-1} B^T theta_i`` and the gradient ``(B w_i - theta_i) w_i^T``; the server
    averages ``B - eta grad_i`` over ``clients`` and (``orthonormalize_B``) takes the Q factor of a QR
    decomposition, the orthonormalised iterate of Theorem 1.

    Parameters
    ----------
    B : ndarray (d, k) or (S, d, k)
        Current representation (or a stack of S of them), full column rank.
    B_star, W_star : ndarray (d, k), (n, k)
        Ground truth.
    eta : float
        Step size, > 0.
    clients : array of int, optional
        Selected clients (default all n).
    orthonormalize_B : bool
        QR after averaging (the step that spec erratum T10 says Algorithm 2 omits).

    Returns
    -------
    ndarray, the shape of ``B``
        The next representation(s).
    """
    Bs, Ws = _pair(B_star, W_star)
    B = np.asarray(B, dtype=float)
    if B.ndim not in (2, 3) or B.shape[-2:] != Bs.shape or not np.all(np.isfinite(B)):
        raise ValueError(f"`B` must be a finite {Bs.shape} matrix or a stack of them; got shape {B.shape}")
    eta = check_real(eta, "eta", 0, low_open=True)
    orthonormalize_B = check_bool(orthonormalize_B, "orthonormalize_B")
    n = Ws.shape[0]
    if clients is None:
        clients = np.arange(n)
    else:
        clients = np.asarray(clients)
        if clients.ndim != 1 or clients.size == 0 or not np.issubdtype(clients.dtype, np.integer) \
                or clients.min() < 0 or clients.max() >= n:
            raise ValueError(f"`clients` must be a non-empty 1-D array of indices in [0, {n - 1}]")
    G = np.swapaxes(B, -1, -2) @ B
    if np.any(np.linalg.svd(G, compute_uv=False)[..., -1] <= 1e-14 * np.linalg.norm(G, axis=(-2, -1))):
        raise ValueError("`B` must have full column rank k")
    theta = Ws[clients] @ Bs.T                                   # (c, d)
    W = np.swapaxes(np.linalg.solve(G, np.swapaxes(theta @ B, -1, -2)), -1, -2)   # exact heads (.., c, k)
    resid = W @ np.swapaxes(B, -1, -2) - theta                  # rows B w_i - theta_i
    grad = np.swapaxes(resid, -1, -2) @ W / clients.size        # mean of (B w_i - theta_i) w_i^T
    B_next = B - eta * grad
    return orthonormalize(B_next) if orthonormalize_B else B_next


def basis_at_distance(B_star, dist: float, rng: np.random.Generator):
    """Orthonormal ``B`` with every principal angle to ``col(B*)`` equal to ``arcsin(dist)``.

    ``B = B*_o cos(theta) + U sin(theta)`` with ``B*_o`` an orthonormal basis of ``col(B*)``,
    ``U`` a random orthonormal d x k matrix orthogonal to ``col(B*)`` and ``sin(theta) = dist``, so
    ``dist(B, B*) = dist`` exactly in the sense of Definition 1 (Collins et al., ICML 2021, eq. (9))
    and ``E0 = 1 - dist^2``. Needs ``d >= 2k``; ``dist`` in [0, 1].
    """
    Bs = check_matrix(B_star, "B_star", (None, None))
    d, k = Bs.shape
    if d < 2 * k:
        raise ValueError(f"`B_star` must have d >= 2k rows (room for a k-dim complement); got d={d}, k={k}")
    dist = check_real(dist, "dist", 0, 1)
    check_generator(rng, "rng")
    Bo = orthonormalize(Bs)
    G = rng.standard_normal((d, k))
    U = orthonormalize(G - Bo @ (Bo.T @ G))
    c = math.sqrt(max(0.0, 1.0 - dist ** 2))
    return Bo * c + U * dist


def row_incoherence(W_star, B_star) -> float:
    """Row-wise incoherence ratio ``mu = max_i ||row_i(M)|| sqrt(n) / ||M||_F`` of ``M = W* B*^T``.

    The paper (Collins et al., ICML 2021, after Assumption 3) calls ``W* B*^T`` row-wise incoherent
    when "its row norms have similar magnitudes" and defers the formal definition to App. B, which
    the available text lacks; this ratio is the standard one (``1 <= mu <= sqrt(n)``, ``mu = 1`` iff
    all row norms are equal). ``W*`` is n x k with a nonzero row, ``B*`` d x k.
    """
    Ws = check_matrix(W_star, "W_star", (None, None))
    Bs = check_matrix(B_star, "B_star", (None, Ws.shape[1]))
    M = Ws @ Bs.T
    fro = float(np.linalg.norm(M))
    if not fro > 0:
        raise ValueError("`W_star` B_star^T must be nonzero (the ratio is 0/0 otherwise)")
    return float(np.max(np.linalg.norm(M, axis=1)) * math.sqrt(M.shape[0]) / fro)


def rank1_isometry_range(X) -> tuple[np.ndarray, np.ndarray]:
    """Isometry range of FedRep's sensing operator on the rank-1 row-sparse matrices ``e_i v^T``.

    FedRep's problem (6) is matrix sensing with measurements ``A_ij = e_i x_ij^T`` (Collins et al.,
    ICML 2021, Sec. 4.2, "Connection to matrix sensing"). With the normalisation
    ``A(M) = sqrt(n/(m n)) (<A_ij, M>)_ij`` (so ``E||A(M)||^2 = ||M||_F^2``), a test matrix
    ``M = e_i v^T`` has ``||A(M)||^2 / ||M||_F^2 = v^T (X_i^T X_i / m) v / ||v||^2``, whose range over
    ``v`` is ``[lambda_min, lambda_max]`` of ``X_i^T X_i / m``. The restricted isometry constant of the
    operator over this family is ``max_i max(1 - lambda_min_i, lambda_max_i - 1)``; ``lambda_min_i = 0``
    whenever ``m < d``.

    Parameters
    ----------
    X : ndarray (n, m, d)
        The clients' designs, finite, n, m, d >= 1.

    Returns
    -------
    lam_min, lam_max : ndarray (n,)
        Per-client extreme eigenvalues of ``X_i^T X_i / m``.
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 3 or min(X.shape) < 1 or not np.all(np.isfinite(X)):
        raise ValueError(f"`X` must be a finite (n, m, d) array with n, m, d >= 1; got shape {X.shape}")
    m = X.shape[1]
    lam = np.linalg.eigvalsh(np.swapaxes(X, 1, 2) @ X / m)
    return lam[:, 0], lam[:, -1]


def sensing_residuals(X, W, B, W_star, B_star):
    """Residuals of the matrix-sensing form of objective (8): ``<A_ij, W* B*^T - W B^T>_F``.

    ``A_ij = e_i x_ij^T`` (Collins et al., ICML 2021, Sec. 4.2), so the inner product picks row i of
    the difference and multiplies it by ``x_ij``. Computed with explicit ``A_ij`` (n x d each), not
    through the row shortcut, so that it can referee the direct residual ``y_ij - w_i^T B^T x_ij``.

    Parameters
    ----------
    X : ndarray (n, m, d)
    W, W_star : ndarray (n, k)
    B, B_star : ndarray (d, k)

    Returns
    -------
    ndarray (n, m)
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 3 or not np.all(np.isfinite(X)):
        raise ValueError(f"`X` must be a finite (n, m, d) array; got shape {X.shape}")
    n, m, d = X.shape
    Bs, Ws = _pair(B_star, W_star)
    W = check_matrix(W, "W", Ws.shape)
    B = check_matrix(B, "B", Bs.shape)
    if Ws.shape[0] != n or Bs.shape[0] != d:
        raise ValueError(f"`X` must be (n, m, d) = ({Ws.shape[0]}, m, {Bs.shape[0]}); got {X.shape}")
    if n * n * m * d > 5e7:
        raise ValueError(f"`X` too large for explicit A_ij ({n}x{n} per sample, {n * m} samples)")
    D = Ws @ Bs.T - W @ B.T
    out = np.empty((n, m))
    for i in range(n):
        A = np.zeros((m, n, d))
        A[:, i, :] = X[i]
        out[i] = np.einsum("jnd,nd->j", A, D)
    return out


_guard_module(globals(), __all__)
