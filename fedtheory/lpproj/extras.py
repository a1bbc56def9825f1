"""Remaining pieces of lp-proj (Han, Li, Lin & Zhang, JMLR 25, 2024) used by the checks of
Proposition 3 (proof), Proposition 25, eq. (34), Sec. 6.1 and Table 3.

* :func:`projected_envelope` -- ``F_k(w~) = min_x f_k(x) + (lam/2)||w~ - P x||^2`` for a quadratic ``f_k``
  (eq. (1)-(2) with p = 2), by an exact inner linear solve;
* :func:`quadratic_conjugate` -- the convex conjugate ``f^*`` of a strongly convex quadratic (Proposition 22);
* :func:`pfedme_general_solution` -- the pFedMe global and personalised models for general designs, the
  solution of eq. (34) (App. B.1);
* :func:`block_diagonal_projection` and :func:`block_diagonal_cost` -- the k-fold block-diagonal projection of
  Sec. 6.1 and its storage / multiply-add counts;
* :func:`layer_parameter_count` -- parameter counts of the layers described in App. C (Table 3).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validation import check_alloc, check_choice, check_finite_result, check_int, check_matrix, check_real
from .._validation import guard_module as _guard_module
from ..random import SeedLike, as_generator

__all__ = ["projected_envelope", "quadratic_conjugate", "pfedme_general_solution", "block_diagonal_projection",
           "BlockDiagonalCost", "block_diagonal_cost", "layer_parameter_count"]


def _spd_stack(H, name):
    H = check_matrix(H, name)
    if H.ndim < 2 or H.shape[-1] != H.shape[-2]:
        raise ValueError(f"`{name}` must be a square matrix or a stack of them (..., d, d); got shape {H.shape}")
    return H


def projected_envelope(H, g, P, lam, w):
    """Value and minimiser of lp-proj's envelope ``F(w~) = min_x f(x) + (lam/2)||w~ - P x||^2`` for the
    quadratic ``f(x) = x^T H x / 2 - g^T x`` (Han et al. 2024, eq. (1)-(2) with p = 2; ``P = I`` is pFedMe).

    Parameters
    ----------
    H : array (d, d)
        Symmetric positive semi-definite Hessian of ``f`` with ``H + lam P^T P`` positive definite.
    g : array (d,)
        Linear term of ``f``.
    P : array (d_sub, d)
        Projection.
    lam : float
        Regularisation weight, ``lam > 0``.
    w : array (..., d_sub)
        Points ``w~`` (any leading shape).

    Returns
    -------
    (F, x) : arrays of shapes (...) and (..., d)
        The envelope value and the inner minimiser ``x_hat = (H + lam P^T P)^{-1}(g + lam P^T w~)``.
    """
    H = _spd_stack(H, "H")
    d = H.shape[-1]
    if H.ndim != 2:
        raise ValueError(f"`H` must be a d x d matrix; got shape {H.shape}")
    g = check_matrix(g, "g", (d,))
    P = check_matrix(P, "P", (None, d))
    lam = check_real(lam, "lam", 0, low_open=True)
    w = check_matrix(w, "w")
    if w.ndim < 1 or w.shape[-1] != P.shape[0]:
        raise ValueError(f"`w` must have last dimension d_sub={P.shape[0]}; got shape {w.shape}")
    M = H + lam * P.T @ P
    rhs = g + lam * w @ P  # (..., d)
    x = np.linalg.solve(M, rhs.reshape(-1, d).T).T.reshape(rhs.shape)
    r = w - x @ P.T
    F = 0.5 * np.einsum("...i,ij,...j->...", x, H, x) - x @ g + 0.5 * lam * np.sum(r * r, axis=-1)
    return check_finite_result((F, x), "the envelope", "H", "g", "P", "w", lam=lam)


def quadratic_conjugate(H, g, u):
    """Convex conjugate ``f^*(u) = sup_x <u, x> - f(x) = (u + g)^T H^{-1} (u + g) / 2`` of the strongly convex
    quadratic ``f(x) = x^T H x / 2 - g^T x`` (Proposition 22 of Han et al. 2024; Hiriart-Urruty and
    Lemarechal 1993).

    ``H`` (d, d) symmetric positive definite, ``g`` (d,), ``u`` (..., d); returns an array of shape (...)."""
    H = _spd_stack(H, "H")
    if H.ndim != 2:
        raise ValueError(f"`H` must be a d x d matrix; got shape {H.shape}")
    d = H.shape[0]
    g = check_matrix(g, "g", (d,))
    u = check_matrix(u, "u")
    if u.ndim < 1 or u.shape[-1] != d:
        raise ValueError(f"`u` must have last dimension d={d}; got shape {u.shape}")
    v = (u + g).reshape(-1, d)
    sol = np.linalg.solve(H, v.T).T
    return check_finite_result(0.5 * np.sum(v * sol, axis=-1).reshape(u.shape[:-1]), "the conjugate", "H", "g", "u")


def pfedme_general_solution(Xi, y, lam):
    """pFedMe (lp-proj with ``P = I_d``) for general designs: the solution of eq. (34) of Han et al. (2024,
    App. B.1), ``w^Me = [sum_k (A_k + lam I)^{-1} A_k]^{-1} sum_k (A_k + lam I)^{-1} Xi_k^T y_k / n`` with
    ``A_k = Xi_k^T Xi_k / n``, and the personalised models ``x_k^Me = (A_k + lam I)^{-1}(Xi_k^T y_k/n + lam w^Me)``.

    Parameters
    ----------
    Xi : array (N, n, d)
        Client designs (vectorised over clients).
    y : array (N, n)
        Responses.
    lam : float
        ``lam > 0``.

    Returns
    -------
    (w, x) : arrays (d,) and (N, d)
    """
    Xi = check_matrix(Xi, "Xi", (None, None, None))
    N, n, d = Xi.shape
    y = check_matrix(y, "y", (N, n))
    lam = check_real(lam, "lam", 0, low_open=True)
    A = np.einsum("kni,knj->kij", Xi, Xi) / n
    h = np.einsum("kni,kn->ki", Xi, y) / n
    M = A + lam * np.eye(d)
    W = np.linalg.solve(M, A)  # (A_k + lam I)^{-1} A_k
    rhs = np.linalg.solve(M, h[..., None])[..., 0].sum(0)
    w = np.linalg.solve(W.sum(0), rhs)
    x = np.linalg.solve(M, (h + lam * w)[..., None])[..., 0]
    return check_finite_result((w, x), "the pFedMe solution", "Xi", "y", lam=lam)


def block_diagonal_projection(d_sub: int, d: int, k: int, *, seed: SeedLike = 0) -> np.ndarray:
    """Sec. 6.1's k-fold block-diagonal projection (Han et al. 2024): a ``d_sub x d`` matrix cut into ``k x k``
    blocks of size ``(d_sub/k) x (d/k)``; the diagonal blocks have i.i.d. Gaussian entries with unit-norm rows,
    the off-diagonal blocks are zero. ``k`` must divide both ``d_sub`` and ``d``."""
    d = check_int(d, "d", 1)
    d_sub = check_int(d_sub, "d_sub", 1, d, why=f"d_sub <= d, d={d}")
    k = check_int(k, "k", 1, d_sub, why=f"k <= d_sub, d_sub={d_sub}")
    if d_sub % k or d % k:
        raise ValueError(f"`k` must divide both d_sub and d (equal blocks); got k={k}, d_sub={d_sub}, d={d}")
    check_alloc(d_sub * d, "the d_sub x d projection", d_sub=d_sub, d=d)
    rng = as_generator(seed)
    r, c = d_sub // k, d // k
    blocks = rng.standard_normal((k, r, c))
    blocks /= np.linalg.norm(blocks, axis=2, keepdims=True)
    P = np.zeros((d_sub, d))
    rows = (np.arange(k)[:, None, None] * r + np.arange(r)[None, :, None])
    cols = (np.arange(k)[:, None, None] * c + np.arange(c)[None, None, :])
    P[rows, cols] = blocks
    return P


@dataclass(frozen=True)
class BlockDiagonalCost:
    """Storage and projection cost of a k-fold block-diagonal ``d_sub x d`` projection (Sec. 6.1)."""

    d_sub: int
    d: int
    k: int
    stored_entries: int  #: non-zero entries of all k diagonal blocks, k (d_sub/k)(d/k) = d_sub d / k
    multiply_adds: int  #: multiply-adds of one product P x using the blocks, also d_sub d / k
    dense_entries: int  #: d_sub d (one dense P)
    printed_storage: float  #: the paper's printed storage order d_sub d / k^2

    def summary(self) -> str:
        return (f"k={self.k} blocks of {self.d_sub // self.k}x{self.d // self.k}: {self.stored_entries} stored entries "
                f"and {self.multiply_adds} multiply-adds (dense {self.dense_entries}; printed d_sub d/k^2 = "
                f"{self.printed_storage:g})")


def block_diagonal_cost(d_sub: int, d: int, k: int) -> BlockDiagonalCost:
    """Closed-form cost of Sec. 6.1's block-diagonal projection: all ``k`` diagonal blocks stored take
    ``k (d_sub/k)(d/k) = d_sub d / k`` entries and a product ``P x`` takes as many multiply-adds; the paper
    prints ``O(d_sub d / k^2)`` for the storage (which is the size of one block only)."""
    d = check_int(d, "d", 1)
    d_sub = check_int(d_sub, "d_sub", 1, d, why=f"d_sub <= d, d={d}")
    k = check_int(k, "k", 1, d_sub, why=f"k <= d_sub, d_sub={d_sub}")
    if d_sub % k or d % k:
        raise ValueError(f"`k` must divide both d_sub and d (equal blocks); got k={k}, d_sub={d_sub}, d={d}")
    per_block = (d_sub // k) * (d // k)
    return BlockDiagonalCost(d_sub=d_sub, d=d, k=k, stored_entries=k * per_block, multiply_adds=k * per_block,
                             dense_entries=d_sub * d, printed_storage=d_sub * d / k ** 2)


_LAYERS = ("linear", "conv", "batchnorm")


def layer_parameter_count(kind: str, n_in: int, n_out: int, kernel: int = 1, *, bias: bool = True) -> int:
    """Trainable parameters of one layer as described in App. C of Han et al. (2024) (PyTorch conventions):
    ``"linear"``: ``n_in n_out (+ n_out)``; ``"conv"`` (square kernel): ``n_in n_out kernel^2 (+ n_out)``;
    ``"batchnorm"`` over ``n_out`` channels: ``2 n_out`` (scale and shift; running statistics are not trained)."""
    kind = check_choice(kind, "kind", _LAYERS)
    n_in = check_int(n_in, "n_in", 1)
    n_out = check_int(n_out, "n_out", 1)
    kernel = check_int(kernel, "kernel", 1)
    if kind == "batchnorm":
        return 2 * n_out
    w = n_in * n_out * (kernel ** 2 if kind == "conv" else 1)
    return w + (n_out if bias else 0)


_guard_module(globals(), [n for n in __all__ if n != "BlockDiagonalCost"])
