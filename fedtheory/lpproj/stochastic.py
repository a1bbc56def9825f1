"""Algorithm 1 (p = 2) with mini-batch inner problems and inexact inner solves, on least squares.

Han, Li, Lin & Zhang (2024), "A Random Projection Approach to Personalized Federated Learning", JMLR 25:
Algorithm 1 (lines 4-12), eqs. (3), (4), (6), (7); Section 4.1 (Proposition 3, Lemmas 4-8, Theorem 9) and,
with Assumption 6 (``a6=True``), Proposition 10 / Theorem 13.

The clients hold least-squares data. Client ``k``'s loss and per-sample loss are

* ``f_k(x) = ||Xi_k x - y_k||^2/(2n) + ridge/2 ||x||^2``,
* ``f~_k(x; xi_j) = (xi_j^T x - y_j)^2/2 + ridge/2 ||x||^2`` (so ``f_k`` is the mean of the ``f~_k``).

Everything about the exact problem (``F_k``, ``grad F_k``, ``w~*``, ``mu_F``, ``L_F``, ``sigma_F1^2``, the
per-sample gradient variance) is computed in closed form from the Hessians: the model is quadratic.

Inner parametrisation. With ``a6=False`` the inner variable is ``x`` itself (``U = I_d``). With ``a6=True``
every row of every ``Xi_k`` lies in ``row(P)`` (Assumption 6); the ``x``-problem is then not strongly convex
along ``row(P)^perp`` when ``ridge = 0``, and, as in Proposition 10's ``y_hat``, the inner problem is solved
over ``x = P^T y`` (``U = P^T``, ``y`` in ``R^{d_sub}``). Writing ``x = U z`` and ``K = P U``, the inner
Hessian of client ``k`` is ``M_k = U^T (G_k + ridge I) U + lam K^T K`` and ``x_hat_k(w) = U M_k^{-1}
(U^T h_k + lam K^T w)`` with ``G_k = Xi_k^T Xi_k/n``, ``h_k = Xi_k^T y_k/n``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .._validation import guard_module as _guard_module
from .._validation import (check_alloc, check_bool, check_choice, check_finite_array, check_finite_result,
                           check_instance, check_int, check_iterations, check_matrix, check_real)
from ..random import SeedLike, as_generator, spawn_seeds
from ._checks import _batch_schedule, _positive_schedule
from .model import make_projection

__all__ = ["LeastSquaresClients", "make_least_squares_clients", "SGDRunResult", "run_algorithm1_sgd",
           "REGIMES", "theorem9_eta_hat", "A6_S_MAX", "regime_checks"]

#: regimes that :func:`run_algorithm1_sgd` can be asked to enforce
REGIMES = (None, "theorem9", "theorem13", "theorem14", "theorem15")
#: Proposition 10 / Theorem 13 require s < 1/30 under Assumption 6
A6_S_MAX = 1.0 / 30.0
#: cap on the inner gradient-descent iterations of one local step
MAX_INNER = 200_000


def theorem9_eta_hat(L_F, mu_F, beta):
    """Theorem 9's step bound ``eta_hat_1 = 1/(18 L_F (1 + 10 kappa_F/beta))``, ``kappa_F = L_F/mu_F``
    (Han et al. 2024, Theorem 9). Broadcasts like ``scipy.special``."""
    L_F = check_finite_array(L_F, "L_F", 0, low_open=True)
    mu_F = check_finite_array(mu_F, "mu_F", 0, low_open=True)
    beta = check_finite_array(beta, "beta", 0, low_open=True)
    out = 1.0 / (18.0 * L_F * (1.0 + 10.0 * (L_F / mu_F) / beta))
    check_finite_result(out, "eta_hat_1", "L_F", "mu_F", "beta")
    return float(out) if np.ndim(out) == 0 else out


@dataclass(frozen=True, eq=False)
class LeastSquaresClients:
    """N least-squares clients for Algorithm 1 (Han et al. 2024, Sec. 4.1).

    Parameters
    ----------
    Xi : (N, n, d) designs; y : (N, n) responses; P : (d_sub, d) projection of full row rank;
    ridge : float >= 0, the weight decay of every per-sample loss; a6 : bool, Assumption 6 (every row of
    every ``Xi_k`` in ``row(P)``; then the inner problem is solved over ``x = P^T y``).

    Methods taking ``lam`` compute the exact quadratic-model quantities of ``F_k(w) = min_x f_k(x) +
    lam/2 ||w - P x||^2`` (Proposition 3).
    """

    Xi: np.ndarray
    y: np.ndarray
    P: np.ndarray
    ridge: float = 0.0
    a6: bool = False
    _cache: dict = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self):
        Xi = check_matrix(self.Xi, "Xi", (None, None, None))
        N, n, d = Xi.shape
        y = check_matrix(self.y, "y", (N, n))
        P = check_matrix(self.P, "P", (None, d))
        ridge = check_real(self.ridge, "ridge", 0)
        a6 = check_bool(self.a6, "a6")
        d_sub = P.shape[0]
        if d_sub > d:
            raise ValueError(f"`P` must have d_sub <= d rows; got shape {P.shape}")
        sv = np.linalg.svd(P, compute_uv=False)
        if sv[-1] <= 1e-12 * max(sv[0], 1e-300):
            raise ValueError("`P` must have full row rank")
        if a6:
            Pinv = np.linalg.pinv(P)
            resid = Xi - (Xi @ Pinv) @ P
            scale = max(float(np.max(np.abs(Xi))), 1e-300)
            if np.max(np.abs(resid)) > 1e-8 * scale:
                raise ValueError("`a6`=True needs every row of every `Xi_k` in row(`P`) (Assumption 6); the largest "
                                 f"component outside row(P) is {float(np.max(np.abs(resid))):.3g}")
        elif ridge == 0 and np.min(np.linalg.eigvalsh(np.swapaxes(Xi, 1, 2) @ Xi / n)) <= 1e-12:
            raise ValueError("`ridge`=0 with singular G_k = Xi_k^T Xi_k/n: f_k is not strongly convex "
                             "(Assumption 1); use ridge > 0")
        for k, v in dict(Xi=Xi, y=y, P=P, ridge=ridge, a6=a6).items():
            object.__setattr__(self, k, v)
        U = np.eye(d) if not a6 else P.T.copy()
        G = np.swapaxes(Xi, 1, 2) @ Xi / n
        H = G + ridge * np.eye(d)
        XU = Xi @ U
        c = dict(U=U, K=P @ U, G=G, H=H, h=np.einsum("knd,kn->kd", Xi, y) / n, c0=np.sum(y ** 2, 1) / (2 * n),
                 XU=XU, UtU=U.T @ U, UtH=np.swapaxes(U.T @ H @ U, -1, -2),
                 metric=(np.eye(d) if not a6 else np.linalg.inv(P @ P.T)), sv=sv,
                 Lz_data=float(np.max(np.sum(XU ** 2, -1))))
        ev = np.linalg.eigvalsh(H)
        c["mu"], c["L"] = max(float(ev[:, 0].min()), 0.0), float(ev[:, -1].max())
        self._cache.clear()
        self._cache.update(c)

    # ------------------------------------------------------------------ sizes
    @property
    def N(self) -> int:
        return self.Xi.shape[0]

    @property
    def n(self) -> int:
        return self.Xi.shape[1]

    @property
    def d(self) -> int:
        return self.Xi.shape[2]

    @property
    def d_sub(self) -> int:
        return self.P.shape[0]

    @property
    def mu(self) -> float:
        """Strong convexity of the ``f_k``: ``min_k lambda_min(G_k + ridge I)``."""
        return self._cache["mu"]

    @property
    def L(self) -> float:
        """Smoothness of the ``f_k``: ``max_k lambda_max(G_k + ridge I)``."""
        return self._cache["L"]

    @property
    def mu_sample(self) -> float:
        """Assumption 1's ``mu`` for the per-sample losses ``f~_k(.; xi)``: their Hessian ``xi xi^T + ridge I``
        has smallest eigenvalue ``ridge`` when ``d >= 2``. It is also a lower bound on the strong convexity of
        every mini-batch inner problem ``h~_k`` (used in Lemma 4's proof)."""
        if self.d == 1:
            return float(self.ridge + np.min(self.Xi ** 2))
        return float(self.ridge)

    @property
    def s(self) -> float:
        """Assumption 3's ``s`` read from ``P``: ``max(s_max(P) - 1, 1 - s_min(P))``."""
        sv = self._cache["sv"]
        return float(max(sv[0] - 1.0, 1.0 - sv[-1]))

    def summary(self) -> str:
        return (f"LeastSquaresClients(N={self.N}, n={self.n}, d={self.d}, d_sub={self.d_sub}, ridge={self.ridge:g}, "
                f"a6={self.a6}, mu={self.mu:.4g}, L={self.L:.4g}, s={self.s:.4g})")

    __repr__ = summary

    # ------------------------------------------------------------------ exact quadratic model
    def _quad(self, lam: float) -> dict:
        lam = check_real(lam, "lam", 0, low_open=True)
        key = ("lam", lam)
        if key not in self._cache:
            c = self._cache
            U, K = c["U"], c["K"]
            M = U.T @ c["H"] @ U + lam * K.T @ K  # (N, m, m)
            Minv = np.linalg.inv(M)
            Uth = c["h"] @ U  # (N, m)
            Hess = lam * np.eye(self.d_sub) - lam ** 2 * K @ Minv @ K.T  # (N, d_sub, d_sub)
            Hess = (Hess + np.swapaxes(Hess, 1, 2)) / 2
            lin = lam * np.einsum("ij,kjl,kl->ki", K, Minv, Uth)  # grad F_k(w) = Hess_k w - lin_k
            w_star = np.linalg.solve(Hess.sum(0), lin.sum(0))
            ev = np.linalg.eigvalsh(Hess)
            q = dict(M=M, Minv=Minv, Uth=Uth, Hess=Hess, lin=lin, w_star=w_star,
                     mu_F=float(ev[:, 0].min()), L_F=float(ev[:, -1].max()))
            q["F_star"] = float(np.mean(self._F_k(w_star, lam, q)))
            g = np.einsum("kij,j->ki", Hess, w_star) - lin
            q["sigma_F1_sq"] = float(np.mean(np.sum(g ** 2, -1)))
            self._cache[key] = q
        return self._cache[key]

    def _z_hat(self, w, lam, q):
        """Exact inner solution (coordinates z, x = U z) at points ``w`` (..., N, d_sub)."""
        rhs = q["Uth"] + lam * w @ self._cache["K"]
        return np.einsum("kij,...kj->...ki", q["Minv"], rhs)

    def _F_k(self, w, lam, q):
        w = np.broadcast_to(np.asarray(w)[..., None, :], np.shape(w)[:-1] + (self.N, self.d_sub))
        z = self._z_hat(w, lam, q)
        x = z @ self._cache["U"].T
        c = self._cache
        fk = 0.5 * np.einsum("...ki,kij,...kj->...k", x, c["H"], x) - np.einsum("...ki,ki->...k", x, c["h"]) + c["c0"]
        return fk + lam / 2 * np.sum((w - x @ self.P.T) ** 2, -1)

    def x_hat(self, w, lam):
        """``x_hat_k(w) = argmin_x f_k(x) + lam/2 ||w - P x||^2`` (Proposition 3) at per-client points ``w``
        of shape (..., N, d_sub); returns (..., N, d)."""
        w = check_finite_array(w, "w")
        q = self._quad(lam)
        if w.ndim < 2 or w.shape[-2:] != (self.N, self.d_sub):
            raise ValueError(f"`w` must have shape (..., N, d_sub) = (..., {self.N}, {self.d_sub}); got {w.shape}")
        return self._z_hat(w, lam, q) @ self._cache["U"].T

    def F_k(self, w, lam):
        """``F_k(w)`` for every client: ``w`` (..., d_sub) -> (..., N)."""
        w = self._check_w(w)
        return self._F_k(w, lam, self._quad(lam))

    def F(self, w, lam):
        """``F(w) = (1/N) sum_k F_k(w)``: ``w`` (..., d_sub) -> (...)."""
        return self.F_k(w, lam).mean(-1)

    def grad_F_k(self, w, lam):
        """``grad F_k(w) = lam (w - P x_hat_k(w))`` (Proposition 3): ``w`` (..., d_sub) -> (..., N, d_sub)."""
        w = self._check_w(w)
        q = self._quad(lam)
        return np.einsum("kij,...j->...ki", q["Hess"], w) - q["lin"]

    def grad_F_k_at(self, w, lam):
        """``grad F_k`` at client-specific points: ``w`` (..., N, d_sub) -> (..., N, d_sub)."""
        w = check_finite_array(w, "w")
        if w.ndim < 2 or w.shape[-2:] != (self.N, self.d_sub):
            raise ValueError(f"`w` must have shape (..., N, d_sub) = (..., {self.N}, {self.d_sub}); got {w.shape}")
        return self._grad_at(w, self._quad(lam))

    def _grad_at(self, w, q):
        """:meth:`grad_F_k_at` of validated points ``w`` (..., N, d_sub), with ``q = self._quad(lam)``."""
        return np.einsum("kij,...kj->...ki", q["Hess"], w) - q["lin"]

    def grad_F(self, w, lam):
        return self.grad_F_k(w, lam).mean(-2)

    def hessian_F_k(self, lam):
        """Hessians of the ``F_k`` (N, d_sub, d_sub): ``lam I - lam^2 K M_k^{-1} K^T``."""
        return self._quad(lam)["Hess"].copy()

    def w_star(self, lam) -> np.ndarray:
        return self._quad(lam)["w_star"].copy()

    def F_star(self, lam) -> float:
        return self._quad(lam)["F_star"]

    def mu_F(self, lam) -> float:
        """True strong convexity of the ``F_k``: ``min_k lambda_min(grad^2 F_k)``."""
        return self._quad(lam)["mu_F"]

    def L_F(self, lam) -> float:
        """True smoothness of the ``F_k``: ``max_k lambda_max(grad^2 F_k)`` (<= lam, Proposition 3)."""
        return self._quad(lam)["L_F"]

    def prop3_constants(self, lam, mu=None):
        """Proposition 3's ``(mu_F, L_F) = (lam mu/((1+s)^2 lam + mu), lam)`` with ``s`` read from ``P`` and
        ``mu`` (default :attr:`mu`)."""
        lam = check_real(lam, "lam", 0, low_open=True)
        mu = self.mu if mu is None else check_real(mu, "mu", 0, low_open=True)
        return lam * mu / ((1 + self.s) ** 2 * lam + mu), lam

    def sigma_F1_sq(self, lam) -> float:
        """Lemma 5's ``sigma_{F,1}^2 = (1/N) sum_k ||grad F_k(w~*)||^2``."""
        return self._quad(lam)["sigma_F1_sq"]

    # ------------------------------------------------------------------ stochastic gradients (Assumption 2)
    def gradient_variance(self, x):
        """Per-sample gradient variance ``E_xi ||grad f~_k(x; xi) - grad f_k(x)||^2`` for ``xi`` uniform on the
        client's ``n`` samples, at client points ``x`` (..., N, d) -> (..., N). Exact (the ridge cancels)."""
        x = check_finite_array(x, "x")
        if x.ndim < 2 or x.shape[-2:] != (self.N, self.d):
            raise ValueError(f"`x` must have shape (..., N, d) = (..., {self.N}, {self.d}); got {x.shape}")
        if self.N * self.d * self.d <= _OUTER_MAX:  # a quadratic in x: O(d^2) per point instead of O(n d)
            Q, p, c = self._variance_quadratic()
            xQ = np.einsum("...ki,kij->...kj", x, Q)
            return np.maximum(np.einsum("...kj,...kj->...k", xQ - 2 * p, x) + c, 0.0)
        r = np.einsum("knd,...kd->...kn", self.Xi, x) - self.y
        sq = np.einsum("...kn,kn->...k", r ** 2, np.sum(self.Xi ** 2, -1)) / self.n
        mean = np.einsum("kij,...kj->...ki", self._cache["G"], x) - self._cache["h"]
        return np.maximum(sq - np.sum(mean ** 2, -1), 0.0)

    def _variance_quadratic(self):
        """``(Q, p, c)`` with :meth:`gradient_variance` ``= x^T Q_k x - 2 p_k^T x + c_k``: the centred per-sample
        gradient is ``(xi xi^T - G_k) x - (xi y - h_k)``, so with ``s_i = ||xi_i||^2``, ``Q_k = (1/n) sum_i s_i xi_i
        xi_i^T - G_k^2``, ``p_k = (1/n) sum_i s_i y_i xi_i - G_k h_k`` and ``c_k = (1/n) sum_i s_i y_i^2 -
        ||h_k||^2`` (computed once per instance)."""
        c = self._cache
        if "variance_quadratic" not in c:
            Xi, y, n, G, h = self.Xi, self.y, self.n, c["G"], c["h"]
            s2 = np.sum(Xi ** 2, -1)
            Q = np.einsum("kn,kni,knj->kij", s2, Xi, Xi) / n - G @ G
            c["variance_quadratic"] = ((Q + np.swapaxes(Q, 1, 2)) / 2,
                                       np.einsum("kn,kn,kni->ki", s2, y, Xi) / n - np.einsum("kij,kj->ki", G, h),
                                       np.einsum("kn,kn->k", s2, y * y) / n - np.sum(h * h, -1))
        return c["variance_quadratic"]

    def minibatch_variance(self, x, batch):
        """``E ||grad f~_k(x; D~) - grad f_k(x)||^2`` for a batch of ``batch`` samples drawn without replacement:
        ``var (n - b)/(b (n - 1))`` (finite-population correction; <= ``var/b`` as used in Lemma 4)."""
        b = check_int(batch, "batch", 1, self.n, why=f"1 <= batch <= n = {self.n}")
        v = self.gradient_variance(x)
        return v * (self.n - b) / (b * (self.n - 1)) if self.n > 1 else 0 * v

    def gamma_f_sq(self, x) -> float:
        """Assumption 2's ``gamma_f^2``. For least squares the per-sample variance is only locally bounded, so it
        is read as the largest per-sample variance over the given points ``x`` (..., N, d) and clients: pass the
        points where a claim uses it (Lemma 4 uses it at the exact inner solutions ``x_hat_k(w~_{k,r}^t)``)."""
        return float(np.max(self.gradient_variance(x)))

    def delta1_sq(self, gamma_f_sq, batch=None, nu=None, mu=None) -> float:
        """Lemma 4's ``delta_1^2 = 2 (1+s)^2/mu^2 (gamma_f^2/|D~_k| + nu)``. ``batch=None`` (the full batch, no
        sampling noise) drops the ``gamma_f^2`` term and ``nu=None`` (exact solves) the ``nu`` term; ``mu``
        defaults to Assumption 1's :attr:`mu_sample` (the strong convexity the proof uses for ``h~_k``)."""
        g = check_real(gamma_f_sq, "gamma_f_sq", 0)
        mu = self.mu_sample if mu is None else check_real(mu, "mu", 0, low_open=True)
        if mu <= 0:
            raise ValueError("`mu` must be > 0: Assumption 1 needs ridge > 0 for per-sample least squares")
        var = 0.0 if batch is None else g / check_int(batch, "batch", 1, self.n)
        tol = 0.0 if nu is None else check_real(nu, "nu", 0)
        return 2 * (1 + self.s) ** 2 / mu ** 2 * (var + tol)

    def _check_w(self, w):
        w = check_finite_array(w, "w")
        if w.ndim < 1 or w.shape[-1] != self.d_sub:
            raise ValueError(f"`w` must have shape (..., d_sub) = (..., {self.d_sub}); got {w.shape}")
        return w


def make_least_squares_clients(N: int, n: int, d: int, d_sub: int, *, ridge: float = 0.5, heterogeneity: float = 1.0,
                               noise: float = 0.5, a6: bool = False, orthonormal_P: bool = False,
                               feature_scale: float = 1.0, seed: SeedLike = 0) -> LeastSquaresClients:
    """Random least-squares clients: ``x_k^o = m + heterogeneity z_k`` (``m, z_k ~ N(0, I_d)``),
    ``Xi_k`` Gaussian rows times ``feature_scale`` (in ``row(P)`` when ``a6``: ``Xi_k = Z_k P`` with ``Z_k``
    Gaussian) and
    ``y_k = Xi_k x_k^o + noise eps``. ``P`` from :func:`fedtheory.lpproj.make_projection` (the paper's Gaussian
    unit-norm rows, or orthonormal rows)."""
    N = check_int(N, "N", 1)
    n = check_int(n, "n", 1)
    d = check_int(d, "d", 1)
    d_sub = check_int(d_sub, "d_sub", 1, d, why=f"d_sub <= d = {d}")
    ridge = check_real(ridge, "ridge", 0)
    heterogeneity = check_real(heterogeneity, "heterogeneity", 0)
    noise = check_real(noise, "noise", 0)
    feature_scale = check_real(feature_scale, "feature_scale", 0, low_open=True)
    a6 = check_bool(a6, "a6")
    orthonormal_P = check_bool(orthonormal_P, "orthonormal_P")
    check_alloc(N * n * d, "the designs (N x n x d)", N=N, n=n, d=d)
    rng = as_generator(seed)
    P = make_projection(d_sub, d, orthonormal=orthonormal_P, seed=rng)
    if a6:
        Xi = rng.standard_normal((N, n, d_sub)) @ P
    else:
        Xi = rng.standard_normal((N, n, d))
    Xi = feature_scale * Xi
    xo = rng.standard_normal(d) + heterogeneity * rng.standard_normal((N, d))
    y = np.einsum("knd,kd->kn", Xi, xo) + noise * rng.standard_normal((N, n))
    check_finite_result([Xi, y], "the designs and responses", heterogeneity=heterogeneity, noise=noise,
                        feature_scale=feature_scale)
    out = LeastSquaresClients(Xi=Xi, y=y, P=P, ridge=ridge, a6=a6)
    check_finite_result({k: v for k, v in out._cache.items() if isinstance(v, (float, np.ndarray))},
                        "the clients' least-squares quantities", heterogeneity=heterogeneity, noise=noise,
                        feature_scale=feature_scale, ridge=ridge)
    return out


@dataclass(frozen=True, eq=False)
class SGDRunResult:
    """Output of :func:`run_algorithm1_sgd`.

    ``history`` (replicates, T+1, d_sub) global iterates; ``w`` (replicates, d_sub) the last one; ``x``
    (replicates, N, d) personalised models solved at the final ``w`` with the last round's batch and tolerance;
    ``record`` (``record=True``) a dict of per-round arrays of shape (replicates, T, R, N, ...):
    ``g`` = ``g_{k,r} = lam (w_{k,r} - P x_{k,r})``, ``grad_local`` = ``grad F_k(w_{k,r})``, ``grad_global`` =
    ``grad F_k(w_t)`` (replicates, T, N, d_sub), ``drift_sq`` = ``||w_{k,r} - w_t||^2``, ``w_local`` = ``w_{k,r}`` and
    ``sampled``
    (replicates, T, S). ``inner_iterations`` counts the inner GD steps of every system."""

    history: np.ndarray
    x: np.ndarray
    params: dict
    record: dict | None = None
    inner_iterations: int = 0
    clients: LeastSquaresClients | None = None

    @property
    def w(self) -> np.ndarray:
        return self.history[:, -1]

    def alpha_weights(self, mu_F: float, T: int | None = None) -> np.ndarray:
        """Theorem 9's normalised weights ``alpha_t/A_T``, ``alpha_t = (1 - eta beta R mu_F/2)^{-(t+1)}``,
        ``t = 0..T-1`` (constant ``eta`` only)."""
        eta = self.params["eta"]
        if np.ndim(eta) != 0:
            raise ValueError("`alpha_weights` needs a constant step `eta` (Theorem 9)")
        T = self.params["T"] if T is None else check_int(T, "T", 1, self.params["T"])
        mu_F = check_real(mu_F, "mu_F", 0, low_open=True)
        q = 1.0 - eta * self.params["beta"] * self.params["R"] * mu_F / 2
        if not 0 < q < 1:
            raise ValueError(f"`mu_F` gives 1 - eta beta R mu_F/2 = {q:.3g} outside (0, 1)")
        logw = -(np.arange(T) + 1.0) * math.log(q)
        w = np.exp(logw - logw.max())
        return w / w.sum()

    def w_bar(self, mu_F: float, T: int | None = None) -> np.ndarray:
        """Theorem 9's weighted average ``w_bar_T = sum_t alpha_t w~_t / A_T`` per replicate (replicates, d_sub)."""
        a = self.alpha_weights(mu_F, T)
        return np.einsum("t,rtd->rd", a, self.history[:, : a.size])

    def summary(self) -> str:
        p = self.params
        return (f"SGDRunResult(replicates={self.history.shape[0]}, T={p['T']}, R={p['R']}, S={p['S']}, "
                f"beta={p['beta']:g}, lam={p['lam']:g}, batch={p['batch']}, nu={p['nu']}, "
                f"inner_iterations={self.inner_iterations})")

    __repr__ = summary


def regime_checks(clients: LeastSquaresClients, lam: float, regime, *, T: int, R: int, beta: float, eta_max: float):
    """The hypotheses of ``regime`` that can be computed from the inputs; raises a ``ValueError`` naming the
    parameter and the condition. Theorem 9: ``beta >= 1``, ``eta beta R <= eta_hat_1 = 1/(18 L_F (1 +
    10 kappa_F/beta))`` with Proposition 3's ``L_F = lam`` and ``mu_F = lam mu/((1+s)^2 lam + mu)``, and
    ``eta~ T >= 2/mu_F``. Theorems 13-15 with ``a6``: ``s < 1/30``. Hook: the A6 step-size ranges (Theorem 13)
    and the decaying schedules (Theorems 14, 15) are checked in :mod:`fedtheory.lpproj.a6` and :mod:`fedtheory.lpproj.schedules`."""
    check_instance(clients, "clients", LeastSquaresClients)
    lam = check_real(lam, "lam", 0, low_open=True)
    check_choice(regime, "regime", REGIMES)
    T = check_int(T, "T", 1)
    R = check_int(R, "R", 1)
    beta = check_real(beta, "beta", 0, low_open=True)
    eta_max = check_real(eta_max, "eta_max", 0, low_open=True, why="the largest local step size")
    if regime is None:
        return
    if regime == "theorem9":
        if beta < 1:
            raise ValueError(f"`beta` must be >= 1 in regime='theorem9' (Theorem 9 assumes beta >= 1); got beta={beta}")
        mu_F, L_F = clients.prop3_constants(lam)
        if not (0 < mu_F < math.inf and 0 < L_F < math.inf):
            raise ValueError(f"Proposition 3's mu_F = {mu_F!r}, L_F = {L_F!r} are not positive and finite in float64 "
                             f"for `lam`={lam!r}")
        try:
            eta_hat = theorem9_eta_hat(L_F, mu_F, beta)
        except ValueError as exc:
            raise ValueError(f"{exc} (L_F, mu_F from Proposition 3 with `lam`={lam!r}; `beta`={beta!r})") from None
        eta_t = eta_max * beta * R
        if eta_t > eta_hat * (1 + 1e-12):
            raise ValueError(f"`eta` is outside Theorem 9's range: eta beta R = {eta_t:.6g} must be <= eta_hat_1 = "
                             f"1/(18 L_F (1 + 10 kappa_F/beta)) = {eta_hat:.6g} (L_F = lam = {L_F:g}, "
                             f"mu_F = {mu_F:.6g} from Proposition 3; eta_max={eta_max!r}, beta={beta!r}, R={R})")
        if eta_t * T < 2 / mu_F * (1 - 1e-12):
            raise ValueError(f"`T` is outside Theorem 9's range: eta beta R T = {eta_t * T:.6g} must be >= 2/mu_F = "
                             f"{2 / mu_F:.6g} (T={T}, eta_max={eta_max!r}, beta={beta!r}, R={R}; mu_F from "
                             f"Proposition 3 with lam={lam!r})")
        return
    # theorems 13, 14, 15 (Assumption 6 where the theorem claims it)
    if regime == "theorem14":  # strongly convex, Assumptions 1-2 only: H3 checks the schedules in its module
        return
    if not clients.a6:
        raise ValueError(f"`regime`={regime!r} needs clients with `a6`=True (Assumption 6)")
    if clients.s >= A6_S_MAX:
        raise ValueError(f"`clients` has s = max(s_max(P) - 1, 1 - s_min(P)) = {clients.s:.4g}; regime={regime!r} "
                         f"(Assumption 6) needs s < 1/30")
    # hook: H2 (theorem13) and H3 (theorem14/15) validate their step-size / schedule ranges in their modules


#: largest N n m^2 for which a run precomputes the per-sample outer products of the inner problems
_OUTER_MAX = 1 << 21
#: largest batch for which :func:`_smallest_keys` selects by repeated argmin (beyond: a full argsort)
_ARGMIN_MAX_BATCH = 8


def _smallest_keys(keys, b):
    """Indices of the ``b`` smallest entries along the last axis of ``keys``, in increasing order of the keys:
    ``np.argsort(keys, axis=-1)[..., :b]`` for distinct keys (ties have probability 0 for uniform draws), by
    ``b`` passes of ``argmin`` when ``b`` is small (no full sort of every row). Overwrites ``keys`` (a fresh,
    C-contiguous draw)."""
    if b > _ARGMIN_MAX_BATCH:
        return np.argsort(keys, axis=-1)[..., :b]
    n = keys.shape[-1]
    flat = keys.reshape(-1, n)
    out = np.empty((flat.shape[0], b), dtype=np.intp)
    r = np.arange(flat.shape[0])
    for j in range(b):
        i = flat.argmin(axis=-1)
        out[:, j] = i
        flat[r, i] = np.inf
    return out.reshape(keys.shape[:-1] + (b,))


def _matvec(H, g):
    """``H g`` for stacks ``H`` (s, m, m) and ``g`` (s, m): a sum of ``m`` column products when ``m`` is small
    (numpy's einsum and matmul are slow for many tiny matrices), a stacked matmul otherwise."""
    m = g.shape[-1]
    if m > 4:
        return np.matmul(H, g[:, :, None])[:, :, 0]
    out = H[:, :, 0] * g[:, 0:1]
    for j in range(1, m):
        out += H[:, :, j] * g[:, j:j + 1]
    return out


def _inner_gd(z, Hz, rhs, metric, nu, max_iter):
    """Steepest descent with exact line search on ``1/2 z^T Hz z - rhs^T z`` for a stack of systems, started
    at ``z``; each system stops at the first iterate with ``g^T metric g <= nu`` (``metric`` turns the
    z-gradient into ``||grad_x h~||^2``; ``None`` is the identity). Only the systems still running are
    iterated. Returns (z, inner iterations summed over systems)."""
    shape = z.shape
    m = shape[-1]
    z = z.reshape(-1, m).copy()
    H = np.broadcast_to(Hz, shape + (m,)).reshape(-1, m, m)
    b = np.broadcast_to(rhs, shape).reshape(-1, m)

    def sq(g):
        return np.einsum("si,si->s", g, g)

    g = _matvec(H, z) - b
    gg = sq(g)
    live = (gg if metric is None else _sq_metric(g, metric)) > nu
    if live.all():
        idx, Ha, za = np.arange(z.shape[0]), H, z.copy()
    else:
        idx = np.flatnonzero(live)
        g, Ha, za, gg = g[idx], H[idx], z[idx], gg[idx]
    live = np.ones(idx.size, bool)
    n_live = idx.size
    total = 0
    it = 0
    while idx.size:
        it += 1
        if it > max_iter:
            raise ValueError(f"the inner gradient descent did not reach ||grad h~||^2 <= `nu`={nu:g} in {max_iter} "
                             f"iterations; increase `nu`")
        Hg = _matvec(Ha, g)
        step = gg / np.einsum("si,si->s", g, Hg)
        if n_live < idx.size:
            step *= live
        step = step[:, None]
        za -= step * g
        g -= step * Hg
        total += n_live
        gg = sq(g)
        live &= (gg if metric is None else _sq_metric(g, metric)) > nu
        n_live = int(np.count_nonzero(live))
        if n_live * 2 <= idx.size:  # compact the stack lazily (fancy indexing copies)
            z[idx] = za
            idx, g, Ha, za, gg = idx[live], g[live], Ha[live], za[live], gg[live]
            live = np.ones(idx.size, bool)
    z[idx] = za
    return z.reshape(shape), total


def _sq_metric(g, metric):
    """``g^T metric g`` for each row of ``g`` (s, m)."""
    return np.einsum("si,si->s", g @ metric, g)


def run_algorithm1_sgd(clients: LeastSquaresClients, lam: float, *, T: int, R: int, S: int | None = None,
                       beta: float = 1.0, eta, batch=None, nu=None, w0=None, replicates: int = 1,
                       seed: SeedLike = 0, regime: str | None = None, record: bool = False,
                       warm_start: bool = True, on_local_step=None) -> SGDRunResult:
    """Run Algorithm 1 with p = 2 (Han et al. 2024, lines 4-12) with mini-batch inner problems and inexact
    inner solves, vectorised over clients and replicates.

    Each round ``t``: every client starts from ``w~_{k,0} = w~_t`` and takes ``R`` local steps; at each, it draws
    a fresh mini-batch ``D~_k`` of ``batch`` samples without replacement (``batch=None``: all ``n``), solves
    ``h~_k(x) = f~_k(x; D~_k) + lam/2 ||w~_{k,r} - P x||^2`` (eq. (3)) by gradient descent (steepest descent
    with exact line search) from the previous solution, stopping at the first iterate with
    ``||grad_x h~_k||^2 <= nu`` (``nu=None``: exact linear solve), and steps ``w~ <- w~ - eta lam (w~ - P x)``
    (eq. (4)). The server samples ``S`` clients uniformly without replacement and sets ``w~_{t+1} = (1 - beta)
    w~_t + (beta/S) sum_{S_t} w~_{k,R}`` (line 12, eq. (7)).

    ``eta``, ``nu`` and ``batch`` may be scalars or length-``T`` schedules. ``regime`` in
    :data:`REGIMES` enforces the computable hypotheses (:func:`regime_checks`). Replicates share the clients'
    data and are bitwise reproducible for a given ``(seed, replicates)``. ``on_local_step(t, r, w_local, g)``,
    if given, is called at every local step with ``w~_{k,r}^t`` and ``g_{k,r}^t`` (replicates, N, d_sub), e.g. to
    track a maximum without recording everything.
    """
    if not isinstance(clients, LeastSquaresClients):
        raise TypeError(f"`clients` must be a LeastSquaresClients; got {type(clients).__name__}")
    lam = check_real(lam, "lam", 0, low_open=True)
    T = check_int(T, "T", 1)
    R = check_int(R, "R", 1)
    check_iterations(T * R, "Algorithm 1 (T rounds of R local steps)", T=T, R=R)
    N, n, d, ds = clients.N, clients.n, clients.d, clients.d_sub
    S = N if S is None else check_int(S, "S", 1, N, why=f"1 <= S <= N = {N} clients")
    beta = check_real(beta, "beta", 0, low_open=True)
    replicates = check_int(replicates, "replicates", 1)
    record = check_bool(record, "record")
    warm_start = check_bool(warm_start, "warm_start")
    if on_local_step is not None and not callable(on_local_step):
        raise TypeError("`on_local_step` must be callable or None")
    check_choice(regime, "regime", REGIMES)
    etas, eta_p = _positive_schedule(eta, "eta", T, why="the local step size must be positive")
    nus, nu_p = _positive_schedule(nu, "nu", T, none_ok=True,
                                   why="the inner-solve tolerance ||grad h~_k||^2 <= nu must be positive; "
                                       "nu=None is the exact solve")
    batches, batch_p = _batch_schedule(batch, T, n)
    regime_checks(clients, lam, regime, T=T, R=R, beta=beta, eta_max=max(etas))
    w = np.zeros(ds) if w0 is None else check_matrix(w0, "w0", (ds,))
    check_alloc(replicates * N * max(b or n for b in batches) * d, "one local step's mini-batches",
                replicates=replicates, N=N, batch=batch, d=d)
    if record:
        check_alloc(replicates * T * R * N * ds * 3, "the recorded gradients", replicates=replicates, T=T, R=R, N=N)
    c = clients._cache
    q = clients._quad(lam)
    U, K, XU = c["U"], c["K"], c["XU"]
    m = U.shape[1]
    # ||grad_x h~||^2 from the z-gradient: identity, or (P P^T)^{-1} under A6 (grad_x = P^T v, grad_y = P P^T v)
    metric = c["metric"] if clients.a6 else None
    base = clients.ridge * c["UtU"] + lam * K.T @ K  # (m, m)
    g_batch, g_sample = (as_generator(s) for s in spawn_seeds(seed, 2))
    w = np.broadcast_to(w, (replicates, ds)).copy()
    hist = np.empty((replicates, T + 1, ds))
    hist[:, 0] = w
    z = np.zeros((replicates, N, m))
    inner_total = 0
    rec = None
    if record:
        rec = dict(g=np.empty((replicates, T, R, N, ds)), grad_local=np.empty((replicates, T, R, N, ds)),
                   grad_global=np.empty((replicates, T, N, ds)), drift_sq=np.empty((replicates, T, R, N)),
                   w_local=np.empty((replicates, T, R, N, ds)),
                   sampled=np.empty((replicates, T, S), dtype=np.int64))
    rows = np.arange(N)
    # per-sample outer products xi xi^T and xi y (in z coordinates), summed over a drawn batch by gathering b of
    # them; for a large inner dimension the batch's design is gathered instead
    outer = (N * n * m * m <= _OUTER_MAX)
    if outer:
        Oxx = (XU[..., :, None] * XU[..., None, :]).reshape(N * n, m, m)
        Oxy = (XU * clients.y[..., None]).reshape(N * n, m)
    offset = (rows * n)[:, None]

    def _batch_moments(idx, b):
        """``(Xb^T Xb/b, Xb^T yb/b)`` of the drawn batches ``idx`` (reps, N, b)."""
        if outer:
            fi = idx + offset
            Gb, hb = Oxx[fi[..., 0]], Oxy[fi[..., 0]]
            for j in range(1, b):
                Gb += Oxx[fi[..., j]]
                hb += Oxy[fi[..., j]]
            return Gb / b, hb / b
        Xb = XU[rows[:, None], idx]  # (reps, N, b, m)
        yb = clients.y[rows[:, None], idx]
        return np.einsum("rkbi,rkbj->rkij", Xb, Xb) / b, np.einsum("rkbi,rkb->rki", Xb, yb) / b

    def inner(wk, z, b, nu_t):
        if b is None or b == n:
            if nu_t is None:  # exact full-batch solve: the cached inverse of the inner Hessian
                return np.einsum("kij,rkj->rki", q["Minv"], q["Uth"] + lam * wk @ K), 0
            Gb = np.broadcast_to(q["M"], (replicates, N, m, m))
            hb = np.broadcast_to(q["Uth"], (replicates, N, m))
        else:
            idx = _smallest_keys(g_batch.random((replicates, N, n)), b)   # a uniform b-subset, in key order
            Gb, hb = _batch_moments(idx, b)
            Gb += base
        rhs = hb + lam * wk @ K
        if nu_t is None:
            return np.linalg.solve(Gb, rhs[..., None])[..., 0], 0
        z0 = z if warm_start else np.zeros_like(z)
        return _inner_gd(z0, Gb, rhs, metric, nu_t, MAX_INNER)

    for t in range(T):
        wk = np.broadcast_to(w[:, None, :], (replicates, N, ds)).copy()
        for r in range(R):
            z, its = inner(wk, z, batches[t], nus[t])
            inner_total += its
            g = lam * (wk - z @ K.T)
            if record:
                rec["g"][:, t, r] = g
                if not np.all(np.isfinite(wk)):  # a diverging local iterate: grad_F_k_at raises its message
                    clients.grad_F_k_at(wk, lam)
                rec["w_local"][:, t, r] = wk
            if on_local_step is not None:
                on_local_step(t, r, wk, g)
            wk = wk - etas[t] * g
        if S < N:
            sel = np.argsort(g_sample.random((replicates, N)), axis=-1)[:, :S]
            msg = np.take_along_axis(wk, sel[..., None], axis=1).mean(1)
        else:
            sel = np.broadcast_to(rows, (replicates, N))
            msg = wk.mean(1)
        if record:
            rec["sampled"][:, t] = sel
        w = (1 - beta) * w + beta * msg
        if not np.all(np.isfinite(w)):
            raise ValueError(f"Algorithm 1 overflowed float64 (diverged): `eta`, `beta`={beta!r} or `lam`={lam!r} "
                             f"too large for this problem")
        hist[:, t + 1] = w
    if record:  # the exact gradients and drifts at the recorded points, in one batch after the run
        wl = rec["w_local"]
        rec["grad_global"][...] = clients._grad_at(np.broadcast_to(hist[:, :T, None, :], (replicates, T, N, ds)), q)
        rec["grad_local"][...] = clients._grad_at(wl, q)
        rec["drift_sq"][...] = np.sum((wl - hist[:, :T, None, None, :]) ** 2, -1)
    zf, its = inner(np.broadcast_to(w[:, None, :], (replicates, N, ds)), z, batches[-1], nus[-1])
    inner_total += its
    x = zf @ U.T
    check_finite_result([hist, x], "Algorithm 1's iterates and personalised models", "eta", "w0", lam=lam, beta=beta)
    params = dict(lam=lam, T=T, R=R, S=S, beta=beta, eta=eta_p, batch=batch_p, nu=nu_p, replicates=replicates,
                  regime=regime, seed=repr(seed) if not isinstance(seed, (int, np.integer)) else int(seed))
    return SGDRunResult(history=hist, x=x, params=params, record=rec, inner_iterations=inner_total, clients=clients)


_guard_module(globals(), ["theorem9_eta_hat", "make_least_squares_clients", "run_algorithm1_sgd", "regime_checks"])
