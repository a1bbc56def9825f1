"""Data model of lp-proj's linear analysis (Han et al., JMLR 2024, Sec. 4.2 and App. B).

* fixed design ``Xi_k = sqrt(n b) Q_k`` with orthonormal columns, so ``Xi_k^T Xi_k = n b I_d``;
* ``y_k = Xi_k w_k + z_k``, ``z_k ~ N(0, sigma^2 I_n)``;
* true parameters ``w_k`` fixed, or drawn i.i.d. from ``N(mu_w, Sigma_w)``;
* ``P`` (d_sub x d): i.i.d. Gaussian entries with rows normalised to unit norm (Sec. 3,
  following Li et al. 2018), optionally orthonormalised (Sec. 4.2 needs orthonormal rows).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validation import check_alloc, check_bool, check_finite_array, check_int, check_matrix, check_real
from .._validation import guard_module as _guard_module
from ..random import SeedLike, as_generator

__all__ = ["LinearFLProblem", "make_projection", "make_problem"]


def make_projection(d_sub: int, d: int, *, orthonormal: bool = True, seed: SeedLike = 0) -> np.ndarray:
    """Random projection ``P`` (d_sub x d): Gaussian, unit-norm rows, optionally orthonormal rows."""
    d = check_int(d, "d", 1)
    d_sub = check_int(d_sub, "d_sub", 1, d, why=f"d_sub <= d, d={d}")
    orthonormal = check_bool(orthonormal, "orthonormal")
    check_alloc(d_sub * d, "the d_sub x d projection", d_sub=d_sub, d=d)
    rng = as_generator(seed)
    P = rng.standard_normal((d_sub, d))
    P /= np.linalg.norm(P, axis=1, keepdims=True)
    if orthonormal:
        Q, R = np.linalg.qr(P.T)
        P = (Q * np.sign(np.diag(R))).T
    return P


@dataclass(frozen=True, eq=False)
class LinearFLProblem:
    """Ground truth of the lp-proj linear model: ``W`` (N x d) true parameters, ``b``, ``n``,
    ``sigma``, and ``P``. ``sample_w_hat`` draws the least-squares estimates exactly in law;
    ``sample_data`` draws the full fixed-design data (for the exact algorithm)."""

    W: np.ndarray
    n: int
    b: float
    sigma: float
    P: np.ndarray

    @property
    def N(self) -> int:
        return self.W.shape[0]

    @property
    def d(self) -> int:
        return self.W.shape[1]

    @property
    def d_sub(self) -> int:
        return self.P.shape[0]

    def sample_w_hat(self, rng: np.random.Generator, reps: int) -> np.ndarray:
        """``reps`` draws of all clients' ``w_hat_k ~ N(w_k, sigma^2/(b n) I)``: shape (reps, N, d)."""
        z = rng.standard_normal((reps, self.N, self.d))
        z *= self.sigma / np.sqrt(self.b * self.n)
        z += self.W
        return z

    def design(self, rng: np.random.Generator) -> np.ndarray:
        """Fixed designs ``Xi_k = sqrt(n b) Q_k``, shape (N, n, d) (needs n >= d)."""
        G = rng.standard_normal((self.N, self.n, self.d))
        Q, R = np.linalg.qr(G)
        return np.sqrt(self.n * self.b) * Q * np.sign(np.diagonal(R, axis1=1, axis2=2))[:, None, :]

    def sample_data(self, rng: np.random.Generator, Xi: np.ndarray | None = None):
        """``(Xi, y)``: designs (N, n, d) and labels (N, n)."""
        Xi = self.design(rng) if Xi is None else Xi
        y = np.einsum("knd,kd->kn", Xi, self.W) + self.sigma * rng.standard_normal((self.N, self.n))
        return Xi, y

    def summary(self) -> str:
        return (f"LinearFLProblem(N={self.N}, d={self.d}, d_sub={self.d_sub}, n={self.n}, "
                f"b={self.b:g}, sigma={self.sigma:g})")

    __repr__ = summary


def make_problem(N: int = 20, d: int = 8, d_sub: int = 3, n: int = 50, b: float = 1.0,
                 sigma: float = 1.0, *, W: np.ndarray | None = None, mu_w=0.0, Sigma_w=None,
                 heterogeneity: float = 0.1, orthonormal_P: bool = True, seed: SeedLike = 0
                 ) -> LinearFLProblem:
    """A random instance: ``w_k ~ N(mu_w, Sigma_w)`` (default ``heterogeneity * I``) unless ``W`` is
    given, and ``P`` from :func:`make_projection`.

    ``N >= 2``, ``1 <= d_sub <= d``, ``n >= 1``, ``b > 0``, ``sigma >= 0``; ``W`` (N x d), ``mu_w``
    (scalar or length d) and ``Sigma_w`` (d x d) finite; ``heterogeneity >= 0``.
    """
    N = check_int(N, "N", 2)
    d = check_int(d, "d", 1)
    d_sub = check_int(d_sub, "d_sub", 1, d, why=f"d_sub <= d, d={d}")
    n = check_int(n, "n", 1)
    check_real(b, "b", 0, low_open=True)
    check_real(sigma, "sigma", 0)
    check_alloc(max(N * d, d * d), "the true parameters (N x d) and their covariance (d x d)", N=N, d=d)
    orthonormal_P = check_bool(orthonormal_P, "orthonormal_P")
    if W is not None:
        W = check_matrix(W, "W", (N, d))
    else:
        heterogeneity = check_real(heterogeneity, "heterogeneity", 0)
        mu = check_finite_array(mu_w, "mu_w")
        if mu.ndim > 1 or mu.size not in (1, d):
            raise ValueError(f"`mu_w` must be a scalar or a vector of length d={d}; got shape {mu.shape}")
        if Sigma_w is not None:
            Sigma_w = check_matrix(Sigma_w, "Sigma_w", (d, d))
    rng = as_generator(seed)
    if W is None:
        S = heterogeneity * np.eye(d) if Sigma_w is None else np.asarray(Sigma_w, float)
        W = rng.multivariate_normal(np.broadcast_to(np.asarray(mu_w, float), (d,)), S, size=N)
        if not np.all(np.isfinite(W)):
            raise ValueError("the drawn true parameters overflow float64: `mu_w`, `Sigma_w` or `heterogeneity` "
                             "is too large in magnitude")
    P = make_projection(d_sub, d, orthonormal=orthonormal_P, seed=rng)
    return LinearFLProblem(W=np.asarray(W, float), n=n, b=float(b), sigma=float(sigma), P=P)


# every public function turns float64 overflows, linear-algebra failures and broadcasting errors
# into ValueErrors naming its parameters (fedtheory._validation.guard_numeric_errors)
_guard_module(globals(), __all__)
