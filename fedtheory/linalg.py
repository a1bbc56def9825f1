"""Linear-algebra kernels shared by every subject.

All functions accept stacks of matrices (leading batch axes) where it makes sense.
"""
from __future__ import annotations

import math
import warnings

import numpy as np

from ._validation import guard_module as _guard_module
from ._validation import (check_alloc, check_bool, check_finite_array, check_generator, check_int, check_real)
from ._warnings import IllConditionedWarning

__all__ = [
    "blas_single_thread",
    "orthonormalize",
    "orthogonal_complement",
    "principal_angle_distance",
    "principal_angle_distance_def1",
    "batched_solve",
    "random_orthonormal",
]


def _as_stack(B: np.ndarray, name: str) -> np.ndarray:
    B = check_finite_array(B, name)
    if B.ndim < 2:
        raise ValueError(f"`{name}` must be a matrix or a stack of matrices (ndim >= 2); "
                         f"got shape {B.shape}")
    if B.shape[-2] < B.shape[-1]:
        raise ValueError(f"`{name}` must be tall (rows >= columns, i.e. k <= d); "
                         f"got shape {B.shape}")
    return B


def _finite_or_raise(x: np.ndarray, what: str, names: str) -> np.ndarray:
    """``x`` if finite; else a ``ValueError``: finite inputs whose scale overflowed float64."""
    if not np.all(np.isfinite(x)):
        raise ValueError(f"{what} overflowed float64: the entries of {names} are too large in magnitude")
    return x


def orthonormalize(B: np.ndarray) -> np.ndarray:
    """Orthonormal basis of ``col(B)`` by reduced QR, for a matrix or a stack.

    The sign convention makes ``diag(R) >= 0`` so the result is unique for
    full-rank input (the "hat" of FedRep's Definition 1 and Theorem 1,
    Collins et al., ICML 2021).
    """
    return _orthonormalize(_as_stack(B, "B"))


def orthogonal_complement(B: np.ndarray) -> np.ndarray:
    """Orthonormal basis of ``col(B)^perp`` (d x (d-k)), for a matrix or a stack."""
    B = _as_stack(B, "B")
    d, k = B.shape[-2:]
    Q, _ = np.linalg.qr(B, mode="complete")
    return Q[..., :, k:]


def principal_angle_distance(B1: np.ndarray, B2: np.ndarray) -> np.ndarray | float:
    """Principal-angle distance between ``col(B1)`` and ``col(B2)``.

    FedRep, Collins et al., ICML 2021, Definition 1, eq. (9):
    ``dist(B1, B2) = || Bhat_{1,perp}^T Bhat_2 ||_2``, where ``Bhat_{1,perp}`` is an
    orthonormal basis of ``col(B1)^perp`` and ``Bhat_2`` one of ``col(B2)``.

    It is computed as ``|| (I - Q1 Q1^T) Q2 ||_2`` with ``Q1, Q2`` from QR, which
    equals Definition 1 and ``sin`` of the largest principal angle. It lies in
    ``[0, 1]`` and depends only on the column spaces, so non-orthonormal inputs
    are accepted.

    Parameters
    ----------
    B1, B2 : array_like, shape (..., d, k1) and (..., d, k2)
        Full-column-rank matrices or broadcastable stacks of them, ``k <= d``.

    Returns
    -------
    float or ndarray
        Distance(s), shape the broadcast batch shape (a float for two matrices).

    Examples
    --------
    >>> import numpy as np
    >>> from fedtheory import principal_angle_distance
    >>> e = np.eye(3)
    >>> round(principal_angle_distance(e[:, :1], (e[:, :1] + e[:, 1:2])), 6)
    0.707107
    """
    B1 = _as_stack(B1, "B1")
    B2 = _as_stack(B2, "B2")
    if B1.shape[-2] != B2.shape[-2]:
        raise ValueError(f"`B1` and `B2` must have the same number of rows d; got {B1.shape} "
                         f"and {B2.shape}")
    out = _distance_to(_orthonormalize(B2), B1)
    return float(out) if out.ndim == 0 else out


def _orthonormalize(B: np.ndarray) -> np.ndarray:
    """:func:`orthonormalize` without the input validation (finite tall stacks)."""
    Q, R = np.linalg.qr(B)
    s = np.sign(np.diagonal(R, axis1=-2, axis2=-1))
    s = np.where(s == 0, 1.0, s)
    return Q * s[..., None, :]


def _distance_to(Q2: np.ndarray, B1: np.ndarray) -> np.ndarray:
    """:func:`principal_angle_distance` ``(B1, B2)`` given ``Q2 = orthonormalize(B2)``, without the
    input validation: the runs orthonormalise the fixed ``B*`` once, not every round (the same
    operations, hence the same bits, as the public function)."""
    Q1 = _orthonormalize(B1)
    P = Q2 - Q1 @ (np.swapaxes(Q1, -1, -2) @ Q2)
    return np.clip(np.linalg.norm(P, ord=2, axis=(-2, -1)), 0.0, 1.0)


def principal_angle_distance_def1(B1: np.ndarray, B2: np.ndarray) -> float:
    """Definition 1 verbatim: ``|| Bhat_{1,perp}^T Bhat_2 ||_2`` with an explicit complement.

    A literal transcription of FedRep eq. (9) (Collins et al., ICML 2021), used as
    an independent check of :func:`principal_angle_distance`. Single matrices only.
    """
    B1 = _as_stack(B1, "B1")
    B2 = _as_stack(B2, "B2")
    if B1.ndim != 2 or B2.ndim != 2 or B1.shape[0] != B2.shape[0]:
        raise ValueError(f"`B1` and `B2` must be single matrices with the same number of rows d; got shapes "
                         f"{B1.shape} and {B2.shape}")
    perp = orthogonal_complement(B1)
    Q2 = orthonormalize(B2)
    return float(np.linalg.norm(perp.T @ Q2, ord=2))


def random_orthonormal(rng: np.random.Generator, d: int, k: int, size: tuple = ()) -> np.ndarray:
    """A Haar-distributed d x k matrix with orthonormal columns (QR of a Gaussian).

    Parameters
    ----------
    rng : numpy.random.Generator
    d, k : int
        ``1 <= k <= d``.
    size : tuple of int
        Leading batch shape.
    """
    check_generator(rng, "rng")
    d = check_int(d, "d", 1)
    k = check_int(k, "k", 1, d, why=f"k <= d, d={d}")
    if not isinstance(size, tuple):
        raise TypeError(f"`size` must be a tuple of ints; got {size!r}")
    size = tuple(check_int(s, "size", 0) for s in size)
    check_alloc(math.prod(size) * d * k, "the d x k Gaussian matrices", d=d, k=k, size=size)
    G = rng.standard_normal(size + (d, k))
    return orthonormalize(G)


def _spd_certified(A: np.ndarray, rcond: float) -> np.ndarray:
    """Systems of a symmetric stack ``A`` certified well conditioned without an eigendecomposition.

    For a symmetric positive-definite ``A = L L^T`` (Cholesky), ``lambda_max <= trace(A)`` and
    ``det(A) = lambda_min prod(other eigenvalues) <= lambda_min lambda_max^(p-1)``, hence
    ``lambda_min / lambda_max >= det(A) / trace(A)^p = prod(diag L)^2 / trace(A)^p``. Where that lower
    bound exceeds ``rcond`` the system passes the test of :func:`batched_solve` for certain; the
    others (and every system, if some matrix of the stack is not positive definite) are left to the
    exact ``eigvalsh`` test. Returns a boolean mask over the stack (False = not certified).
    """
    try:
        L = np.linalg.cholesky(A)
    except np.linalg.LinAlgError:
        return np.zeros(A.shape[:-2], dtype=bool)
    # the bound as a product of p factors L_jj^2 / trace(A), each in [0, 1] up to rounding: no overflow,
    # and an underflow to 0 only leaves a system to the exact test (a few numpy calls: this runs once
    # per round on the runs' head solves)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        dg = np.diagonal(L, axis1=-2, axis2=-1)
        bound = np.prod(dg * dg / np.trace(A, axis1=-2, axis2=-1)[..., None], axis=-1)
        # a factor-2 margin absorbs the rounding of the computed Cholesky factor: its determinant is
        # exact for A + E with |E| ~ p eps |A|, a relative change of at most ~p^2 eps / ratio (< 1e-5
        # for p <= 100 at ratio >= 1e-10); NaN (non-finite A) compares False
        return bound > 2.0 * rcond


def _ill_conditioned(A: np.ndarray, rcond: float, symmetric: bool) -> np.ndarray:
    """Mask of the systems of ``A`` whose ``sigma_min / sigma_max`` is not above ``rcond`` (the exact
    test of :func:`batched_solve`; symmetric stacks skip the eigendecomposition of every system the
    Cholesky bound of :func:`_spd_certified` already certifies)."""
    if symmetric:
        bad = ~_spd_certified(A, rcond)
        if not np.any(bad):
            return bad
        ev = np.abs(np.linalg.eigvalsh(A[bad] if A.ndim > 2 else A))
        smax, smin = ev.max(axis=-1), ev.min(axis=-1)
    else:
        sv = np.linalg.svd(A, compute_uv=False)
        smax, smin = sv[..., 0], sv[..., -1]
    ratio = np.where(smax > 0, smin / np.where(smax > 0, smax, 1.0), 0.0)
    if symmetric and A.ndim > 2:
        bad = bad.copy()
        bad[bad] = ~(ratio > rcond)
        return bad
    return ~(ratio > rcond)


def _solve_spd(G: np.ndarray, rhs: np.ndarray, what: str, rcond: float = 1e-10) -> np.ndarray:
    """:func:`batched_solve` of a symmetric stack ``G`` (..., p, p) with vector right-hand sides
    ``rhs`` (..., p), without the input validation, for the inner loops of the runs (finite inputs
    of matching shapes). When the Cholesky bound certifies every system (the usual case) this is one
    ``numpy.linalg.solve``; otherwise it is exactly :func:`batched_solve`, fallback and warning
    included."""
    x = _try_solve_spd(G, rhs, rcond)
    if x is not None:
        return x
    if np.all(_spd_certified(G, rcond)):
        return _finite_or_raise(np.linalg.solve(G, rhs[..., None])[..., 0], f"the solution of the {what}",
                                "`A` or `b`")
    return batched_solve(G, rhs, rcond=rcond, what=what, symmetric=True)


def _try_solve_spd(G: np.ndarray, rhs: np.ndarray, rcond: float = 1e-10):
    """The fast path of :func:`_solve_spd`: ``numpy.linalg.solve`` when the Cholesky bound certifies
    every system and the solution is finite, else ``None`` (the caller then validates its inputs and
    takes :func:`_solve_spd`, which reports what went wrong). The same bits as :func:`_solve_spd`."""
    if not np.all(_spd_certified(G, rcond)):
        return None
    x = np.linalg.solve(G, rhs[..., None])[..., 0]
    return x if np.isfinite(x).all() else None


def batched_solve(A: np.ndarray, b: np.ndarray, rcond: float = 1e-10,
                  what: str = "linear system", symmetric: bool = False) -> np.ndarray:
    """Solve a stack of square systems ``A x = b``, falling back to least squares.

    Systems whose reciprocal condition number (smallest over largest singular
    value) is below ``rcond`` are solved by ``numpy.linalg.lstsq`` (minimum-norm
    solution) and an :class:`~fedtheory._warnings.IllConditionedWarning` is
    emitted. The result is never a silent NaN.

    Parameters
    ----------
    A : ndarray, shape (..., p, p)
    b : ndarray, shape (..., p) or (..., p, q)
    rcond : float
        Threshold on ``sigma_min / sigma_max``.
    what : str
        Description used in the warning message.
    symmetric : bool
        If True, ``A`` is symmetric positive semi-definite and its conditioning is
        read from ``eigvalsh`` (cheaper than an SVD).
    """
    A = check_finite_array(A, "A")
    b = check_finite_array(b, "b")
    rcond = check_real(rcond, "rcond", 0)
    symmetric = check_bool(symmetric, "symmetric")
    if A.ndim < 2 or A.shape[-1] != A.shape[-2]:
        raise ValueError(f"`A` must be a square matrix or a stack of them (..., p, p); got shape {A.shape}")
    p = A.shape[-1]
    if b.ndim < 1 or (b.ndim == A.ndim - 1 and b.shape[-1] != p) or (b.ndim != A.ndim - 1 and (
            b.ndim < 2 or b.shape[-2] != p)):
        raise ValueError(f"`b` must have shape (..., {p}) or (..., {p}, q) to match `A` {A.shape}; got {b.shape}")
    vec = b.ndim == A.ndim - 1
    bb = b[..., None] if vec else b
    bad = _ill_conditioned(A, rcond, symmetric)
    if not np.any(bad):
        x = np.linalg.solve(A, bb)
    else:
        x = np.empty(np.broadcast_shapes(A.shape[:-2], bb.shape[:-2]) + (A.shape[-1], bb.shape[-1]))
        Ab = np.broadcast_to(A, x.shape[:-2] + A.shape[-2:])
        bbb = np.broadcast_to(bb, x.shape[:-2] + bb.shape[-2:])
        badb = np.broadcast_to(bad, x.shape[:-2])
        good = ~badb
        if np.any(good):
            x[good] = np.linalg.solve(Ab[good], bbb[good])
        idx = np.argwhere(badb)
        for ii in idx:  # rare path: only the ill-conditioned systems
            t = tuple(ii)
            x[t] = np.linalg.lstsq(Ab[t], bbb[t], rcond=None)[0]
        # stacklevel 3: the caller, past the validation wrapper (guard_numeric_errors) around this function
        warnings.warn(
            f"{int(badb.sum())} ill-conditioned {what}(s) (sigma_min/sigma_max <= {rcond:g}); "
            "solved by least squares (minimum-norm) instead", IllConditionedWarning, stacklevel=3)
    _finite_or_raise(x, f"the solution of the {what}", "`A` or `b`")
    return x[..., 0] if vec else x


_CONTROLLER = None


def blas_single_thread():
    """Context manager pinning BLAS to one thread (threadpoolctl; the controller is built once,
    so entering it costs microseconds)."""
    global _CONTROLLER
    if _CONTROLLER is None:
        from threadpoolctl import ThreadpoolController

        _CONTROLLER = ThreadpoolController()
    return _CONTROLLER.limit(limits=1, user_api="blas")


# every public function turns float64 overflows, linear-algebra failures and broadcasting errors
# into ValueErrors naming its parameters (fedtheory._validation.guard_numeric_errors)
_guard_module(globals(), __all__)
