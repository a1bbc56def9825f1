"""The low-dimensional (Assumption 6) setting of lp-proj: Proposition 10, Lemmas 11, 12, 26, eq. (11), Theorem 13.

Source: Han, Li, Lin, Zhang, "A Random Projection Approach to Personalized Federated Learning",
JMLR 25 (2024), Section 4.1.2 and Appendix A.3-A.4.

Assumption 6 says that ``f~_k(P^T y + Q y~; xi) = f~_k(P^T y; xi)`` with ``P Q = 0``: each loss sees ``x``
only through ``P x`` (``y = (P P^T)^{-1} P x``). For the quadratic clients used here,

    f_k(x) = 1/2 (P x)^T A_k (P x) - a_k^T P x + c_k,

(least squares with data vectors ``xi_i = P^T c_i`` in ``row(P)``: ``A_k = C_k^T C_k/n``,
``a_k = C_k^T y_k/n``; ``A_k`` may be indefinite for Proposition 10). Every exact quantity is then
``d_sub``-dimensional: with ``u = P x`` the Moreau-type envelope is
``F_k(w) = min_u 1/2 u^T A_k u - a_k^T u + lam/2 ||w - u||^2``, whose minimiser is
``u_hat_k = (A_k + lam I)^{-1}(a_k + lam w) = P P^T y_hat_k`` (Proposition 10's ``y_hat_k``), and the
smoothness constant of ``f_k`` is ``L = ||P^T A_k P|| = max |eig(G^{1/2} A_k G^{1/2})|``, ``G = P P^T``.

Runs of Algorithm 1 use the shared runner :func:`fedtheory.lpproj.stochastic.run_algorithm1_sgd` on the same
data (:func:`to_stochastic_clients`), which solves the inner problem over ``x = P^T y``.

Closed forms broadcast like ``scipy.special``; the theorem constants raise a ``ValueError`` naming ``s``
or ``lam`` outside the theorems' hypotheses (``s < 1/30``; ``lam > 4L`` for Proposition 10 and Lemma 11,
``lam > sqrt(10) L`` for Lemma 12, ``lam >= max(sqrt(10 L^2 + 1), 4L)`` for Theorem 13).
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from .._validation import guard_module as _guard_module
from .._validation import (check_alloc, check_bool, check_choice, check_finite_array, check_finite_result, check_int,
                           check_matrix, check_real)
from ..random import SeedLike, as_generator
from .model import make_projection

__all__ = ["S_MAX", "A6_RESULTS", "check_a6_regime", "inner_strong_convexity", "delta2_sq", "sigma_F2_sq",
           "eta_hat_2", "Theorem13Constants", "theorem13_constants", "eq20_rhs", "theorem13_step",
           "lemma26_rhs", "eq11_rhs", "personalised_bound_13", "A6Clients", "make_a6_least_squares",
           "a6_quadratics", "to_stochastic_clients", "check_theorem13_steps"]

#: Assumption 3's ``s = C sqrt(d_sub/d)`` must be below this in Proposition 10, Lemmas 11, 12, 26 and Theorem 13.
S_MAX = 1 / 30
#: The A6 results whose hypotheses :func:`check_a6_regime` knows.
A6_RESULTS = ("proposition10", "lemma11", "lemma12", "lemma26", "theorem13")


def _lam_floor(L, result):
    L = np.asarray(L, float)
    if result in ("proposition10", "lemma11", "lemma26"):
        return 4 * L, "lam > 4L", True
    if result == "lemma12":
        return math.sqrt(10) * L, "lam > sqrt(10) L", True
    return np.maximum(np.sqrt(10 * L ** 2 + 1), 4 * L), "lam >= max(sqrt(10 L^2 + 1), 4L)", False


def check_a6_regime(s, lam, L, result: str = "theorem13") -> None:
    """Raise a ``ValueError`` naming ``s`` or ``lam`` unless the hypotheses of an A6 result hold.

    Han et al. (2024): Proposition 10 and Lemma 11 need ``0 <= s < 1/30`` and ``lam > 4L``; Lemma 12 needs
    ``s < 1/30`` and ``lam > sqrt(10) L``; Lemma 26 those of Lemma 11; Theorem 13 ``s < 1/30`` and
    ``lam >= max(sqrt(10 L^2 + 1), 4L)``. Arguments broadcast; every entry must satisfy them.
    """
    check_choice(result, "result", A6_RESULTS)
    s = check_finite_array(s, "s", 0)
    lam = check_finite_array(lam, "lam", 0, low_open=True)
    L = check_finite_array(L, "L", 0)
    if np.any(s >= S_MAX):
        raise ValueError(f"`s` must be in [0, 1/30) for {result} (Assumption 3's s = C sqrt(d_sub/d) < 1/30); "
                         f"got s={float(np.max(s))!r}")
    floor, text, strict = _lam_floor(L, result)
    bad = (lam <= floor) if strict else (lam < floor)
    if np.any(bad):
        i = np.unravel_index(int(np.argmax(bad)), np.broadcast(lam, floor).shape) if np.ndim(bad) else ()
        lv, fv = np.broadcast_to(lam, np.shape(bad))[i], np.broadcast_to(floor, np.shape(bad))[i]
        Lv = np.broadcast_to(L, np.shape(bad))[i]
        raise ValueError(f"`lam` must satisfy {text} = {float(fv):.6g} for {result}; got lam={float(lv)!r} "
                         f"(L={float(Lv)!r})")


def _out(x):
    x = np.asarray(x, dtype=float)
    return float(x) if x.ndim == 0 else x


def inner_strong_convexity(lam, L, s):
    """Proposition 10's modulus ``(1-s)^4 lam - (1+s)^2 L`` of the inner problem in ``y``.

    ``y -> f_k(P^T y) + lam/2 ||w - P P^T y||^2`` is this strongly convex when (5) holds and ``f_k`` is
    ``L``-smooth (Han et al. 2024, proof of Proposition 10). Requires ``s < 1/30`` and ``lam > 4L``.
    """
    check_a6_regime(s, lam, L, "proposition10")
    s, lam, L = (np.asarray(v, float) for v in (s, lam, L))
    return check_finite_result(_out((1 - s) ** 4 * lam - (1 + s) ** 2 * L), "the modulus", "lam", "L", "s")


def delta2_sq(gamma_f_sq, batch, nu, lam, L, s):
    """Lemma 11's ``delta_2^2 = 2 (1+s)^6 (gamma_f^2/|D~_k| + nu) / [(1-s)^4 lam - (1+s)^2 L]^2``.

    Han et al. (2024), Lemma 11: the bound on ``E||grad F_k(w) - lam (w - P x)||^2 / lam^2`` for an inner
    solve on a mini-batch of ``batch`` samples stopped at ``||grad h~_k||^2 <= nu``. ``gamma_f_sq`` is
    Assumption 2's variance bound (at the points where it is used), ``nu >= 0`` (0: exact solves).
    """
    g = check_finite_array(gamma_f_sq, "gamma_f_sq", 0)
    b = check_finite_array(batch, "batch", 1)
    nu = check_finite_array(nu, "nu", 0)
    m = np.asarray(inner_strong_convexity(lam, L, s))
    s = np.asarray(s, float)
    return check_finite_result(_out(2 * (1 + s) ** 6 * (g / b + nu) / m ** 2), "delta_2^2",
                               "gamma_f_sq", "batch", "nu", "lam", "L", "s")


def sigma_F2_sq(sigma_f_sq, lam, L):
    """Lemma 12's ``sigma_{F,2}^2 = lam^2 sigma_f^2 / (lam^2 - 10 L^2)`` (needs ``lam > sqrt(10) L``)."""
    sf = check_finite_array(sigma_f_sq, "sigma_f_sq", 0)
    check_a6_regime(0.0, lam, L, "lemma12")
    lam, L = np.asarray(lam, float), np.asarray(L, float)
    return check_finite_result(_out(lam ** 2 * sf / (lam ** 2 - 10 * L ** 2)), "sigma_F2^2", "sigma_f_sq", "lam", "L")


def eta_hat_2(lam):
    """Theorem 13's step ceiling ``eta_hat_2 = 1/(90 lam^2 L_F)`` with ``L_F = lam`` (Proposition 10)."""
    lam = check_finite_array(lam, "lam", 0, low_open=True)
    return check_finite_result(_out(1 / (90 * lam ** 3)), "eta_hat_2", "lam")


@dataclass(frozen=True)
class Theorem13Constants:
    """The constants of eq. (20) (Han et al. 2024, proof of Theorem 13):
    ``C4 = 4 L_F^2 (21 sigma_F2^2 + 10 lam^2 delta_2^2)``, ``C5 = 5 L_F sigma_F2^2 (N/S-1)/(N-1)``,
    ``C6 = 2 lam^2 delta_2^2``, with ``L_F = lam`` and ``eta_hat_2 = 1/(90 lam^3)``."""

    C4: float
    C5: float
    C6: float
    eta_hat_2: float
    lam: float
    L: float
    s: float
    sigma_F2_sq: float
    delta2_sq: float
    N: int
    S: int

    def summary(self) -> str:
        return (f"Theorem13Constants(C4={self.C4:.4g}, C5={self.C5:.4g}, C6={self.C6:.4g}, "
                f"eta_hat_2={self.eta_hat_2:.4g}; lam={self.lam:g}, L={self.L:.4g}, s={self.s:.3g}, "
                f"sigma_F2^2={self.sigma_F2_sq:.4g}, delta_2^2={self.delta2_sq:.4g}, N={self.N}, S={self.S})")

    __repr__ = summary


def theorem13_constants(*, lam, L, s, sigma_f_sq, delta2_sq, N, S) -> Theorem13Constants:
    """C4, C5, C6 and eta_hat_2 of eq. (20) from the problem's ``lam``, ``L``, ``s``, Assumption 5's
    ``sigma_f^2`` and Lemma 11's ``delta_2^2``; raises a ``ValueError`` naming ``s`` or ``lam`` outside
    Theorem 13's regime."""
    lam = check_real(lam, "lam", 0, low_open=True)
    L = check_real(L, "L", 0)
    s = check_real(s, "s", 0)
    check_real(sigma_f_sq, "sigma_f_sq", 0)
    check_a6_regime(s, lam, L, "theorem13")
    N = check_int(N, "N", 2)
    S = check_int(S, "S", 1, N)
    d2 = check_real(delta2_sq, "delta2_sq", 0)
    sF2 = float(sigma_F2_sq(sigma_f_sq, lam, L))
    LF = lam
    C4 = 4 * LF ** 2 * (21 * sF2 + 10 * lam ** 2 * d2)
    C5 = 5 * LF * sF2 * (N / S - 1) / (N - 1)
    C6 = 2 * lam ** 2 * d2
    check_finite_result([C4, C5, C6], "eq. (20)'s constants", lam=lam, L=L, sigma_f_sq=sigma_f_sq, delta2_sq=d2, N=N,
                        S=S)
    return Theorem13Constants(C4=C4, C5=C5, C6=C6, eta_hat_2=float(eta_hat_2(lam)), lam=lam, L=L, s=s,
                              sigma_F2_sq=sF2, delta2_sq=d2, N=N, S=S)


def eq20_rhs(descent, eta_tilde, T, beta, C4, C5, C6):
    """Right side of eq. (20): ``descent/(eta_tilde T) + eta_tilde^2 C4/beta^2 + eta_tilde C5 + C6``, where
    ``descent = E[F(w~_0) - F(w~_T)]`` (Han et al. 2024, proof of Theorem 13); bounds
    ``(1/(4T)) sum_{t<T} E||grad F(w~_t)||^2`` for ``eta_tilde <= eta_hat_2``."""
    descent = check_finite_array(descent, "descent")
    e = check_finite_array(eta_tilde, "eta_tilde", 0, low_open=True)
    T = check_finite_array(T, "T", 1)
    beta = check_finite_array(beta, "beta", 1, why="Theorem 13 needs beta >= 1")
    C4, C5, C6 = (check_finite_array(c, n, 0) for c, n in ((C4, "C4"), (C5, "C5"), (C6, "C6")))
    return check_finite_result(_out(descent / (e * T) + e ** 2 * C4 / beta ** 2 + e * C5 + C6), "eq. (20)'s right side",
                               "descent", "eta_tilde", "T", "beta", "C4", "C5", "C6")


def theorem13_step(Delta_F, T, beta, C4, C5, lam):
    """The step ``eta_tilde`` chosen in the proof of Theorem 13 (Han et al. 2024, after eq. (20)).

    If ``eta_hat_2^3 >= beta^2 Delta_F/(T C4)`` or ``eta_hat_2^2 >= Delta_F/(T C5)``:
    ``min{(beta^2 Delta_F/(T C4))^{1/3}, (Delta_F/(T C5))^{1/2}}``; otherwise ``eta_hat_2``. A zero ``C4``
    or ``C5`` makes its candidate infinite. The local step of Algorithm 1 is then ``eta = eta_tilde/(beta R)``.
    """
    D = check_real(Delta_F, "Delta_F", 0, low_open=True)
    T = check_real(T, "T", 1)
    beta = check_real(beta, "beta", 1, why="Theorem 13 needs beta >= 1")
    C4 = check_real(C4, "C4", 0)
    C5 = check_real(C5, "C5", 0)
    lam = check_real(lam, "lam", 0, low_open=True)
    eh = float(eta_hat_2(lam))
    a = (beta ** 2 * D / (T * C4)) ** (1 / 3) if C4 > 0 else math.inf
    b = (D / (T * C5)) ** 0.5 if C5 > 0 else math.inf
    if eh >= a or eh >= b:
        return min(a, b)
    return eh


def lemma26_rhs(lam, delta2_sq, eta_tilde, beta, mean_grad_Fk_sq):
    """Right side of Lemma 26 (Han et al. 2024, App. A.3): ``2 lam^2 delta_2^2 + (4 L_F^2 eta_tilde^2/beta^2)
    (7 (1/N) sum_k E||grad F_k(w~_t)||^2 + 10 lam^2 delta_2^2)`` with ``L_F = lam``; valid for
    ``eta_tilde <= beta/(5 L_F)``."""
    lam = check_finite_array(lam, "lam", 0, low_open=True)
    d2 = check_finite_array(delta2_sq, "delta2_sq", 0)
    e = check_finite_array(eta_tilde, "eta_tilde", 0, low_open=True)
    beta = check_finite_array(beta, "beta", 1)
    if np.any(e > beta / (5 * lam) * (1 + 1e-12)):
        raise ValueError(f"`eta_tilde` must be <= beta/(5 L_F) = beta/(5 lam) for Lemma 26; got "
                         f"eta_tilde={float(np.max(e))!r}")
    g = check_finite_array(mean_grad_Fk_sq, "mean_grad_Fk_sq", 0)
    return check_finite_result(_out(2 * lam ** 2 * d2
                                    + 4 * lam ** 2 * e ** 2 / beta ** 2 * (7 * g + 10 * lam ** 2 * d2)),
                               "Lemma 26's right side", "lam", "delta2_sq", "eta_tilde", "beta", "mean_grad_Fk_sq")


def eq11_rhs(eta_tilde, L_F, grad_sq, drift, sampling):
    """Right side of the one-step descent (11) with its last term read as a squared norm (Han et al. 2024,
    Sec. 4.1.2): ``-eta~ (1 - 3 eta~ L_F)/2 E||grad F||^2 + eta~ (1 + 3 eta~ L_F)/2 drift + 3 eta~^2 L_F/2
    sampling``, where ``drift = (1/(N R)) sum E||g_{k,r} - grad F_k(w~_t)||^2`` and ``sampling =
    E||(1/S) sum_{S_t} grad F_k(w~_t) - grad F(w~_t)||^2``. The printed (11) has ``E[...]`` of the vector in
    the last term (no ``||.||^2``); callers pass their reading of it as ``sampling``."""
    e = check_finite_array(eta_tilde, "eta_tilde", 0, low_open=True)
    LF = check_finite_array(L_F, "L_F", 0, low_open=True)
    g, dr, sa = (check_finite_array(v, n, 0) for v, n in ((grad_sq, "grad_sq"), (drift, "drift"),
                                                          (sampling, "sampling")))
    return check_finite_result(_out(-e * (1 - 3 * e * LF) / 2 * g + e * (1 + 3 * e * LF) / 2 * dr
                                    + 3 * e ** 2 * LF / 2 * sa), "eq. (11)'s right side", "eta_tilde", "L_F",
                               "grad_sq", "drift", "sampling")


def personalised_bound_13(mean_grad_sq, lam, L, delta2_sq, sigma_F2_sq):
    """Theorem 13's explicit personalised bound (proof, after (22)): ``(1/(T N)) sum E||P x_k^t - w~_t||^2 <=
    2/(lam^2 - 10 L^2) (1/T) sum E||grad F(w~_t)||^2 + 2 delta_2^2 + 6 sigma_F2^2/lam^2``."""
    g = check_finite_array(mean_grad_sq, "mean_grad_sq", 0)
    check_a6_regime(0.0, lam, L, "lemma12")
    lam, L = np.asarray(lam, float), np.asarray(L, float)
    d2 = check_finite_array(delta2_sq, "delta2_sq", 0)
    sF = check_finite_array(sigma_F2_sq, "sigma_F2_sq", 0)
    return check_finite_result(_out(2 / (lam ** 2 - 10 * L ** 2) * g + 2 * d2 + 6 * sF / lam ** 2), "the bound",
                               "mean_grad_sq", "lam", "L", "delta2_sq", "sigma_F2_sq")


# ----------------------------------------------------------------------------- the A6 clients
def _sym_sqrt(G):
    ev, V = np.linalg.eigh(G)
    return (V * np.sqrt(ev)) @ V.T


@dataclass(frozen=True, eq=False)
class A6Clients:
    """Quadratic clients satisfying Assumption 6: ``f_k(x) = 1/2 (Px)^T A_k (Px) - a_k^T P x + c_k``.

    ``P`` (d_sub, d) full row rank; ``A`` (N, d_sub, d_sub) symmetric (may be indefinite); ``a`` (N, d_sub);
    ``c`` (N,) constants. For least squares ``C`` (N, n, d_sub) and ``Y`` (N, n) hold the data (sample ``i`` of
    client ``k`` is ``xi = P^T C[k, i]`` with label ``Y[k, i]``; ``f~_k(x; xi) = (xi^T x - y)^2/2``), needed by
    mini-batch runs and ``gamma_f_sq``. Build with :func:`make_a6_least_squares` or :func:`a6_quadratics`.
    """

    P: np.ndarray
    A: np.ndarray
    a: np.ndarray
    c: np.ndarray
    C: np.ndarray | None = None
    Y: np.ndarray | None = None

    @property
    def N(self) -> int:
        return self.A.shape[0]

    @property
    def d_sub(self) -> int:
        return self.P.shape[0]

    @property
    def d(self) -> int:
        return self.P.shape[1]

    @functools.cached_property
    def G(self) -> np.ndarray:
        """``P P^T`` (d_sub, d_sub)."""
        return self.P @ self.P.T

    @functools.cached_property
    def singular_values(self) -> tuple:
        ev = np.linalg.eigvalsh(self.G)
        return float(math.sqrt(max(ev[0], 0.0))), float(math.sqrt(ev[-1]))

    @property
    def s(self) -> float:
        """Measured ``s = max(s_max(P) - 1, 1 - s_min(P))`` (Assumption 3 with the observed P)."""
        lo, hi = self.singular_values
        return max(hi - 1, 1 - lo, 0.0)

    @functools.cached_property
    def L(self) -> float:
        """Smoothness of the ``f_k``: ``max_k ||P^T A_k P|| = max_k max |eig(G^{1/2} A_k G^{1/2})|``; for least
        squares also of each sample loss (Assumption 4), ``max ||xi||^2``."""
        Gh = _sym_sqrt(self.G)
        L = float(np.max(np.abs(np.linalg.eigvalsh(Gh @ self.A @ Gh))))
        if self.C is not None:
            L = max(L, float(np.max(np.einsum("kni,ij,knj->kn", self.C, self.G, self.C))))
        return L

    def _wk(self, w, per_client):
        w = np.asarray(w, float)
        if per_client:
            if w.shape[-2:] != (self.N, self.d_sub):
                raise ValueError(f"`w` must have shape (..., N, d_sub) = (..., {self.N}, {self.d_sub}) with "
                                 f"per_client=True; got {w.shape}")
            return w
        if w.shape[-1:] != (self.d_sub,):
            raise ValueError(f"`w` must have shape (..., d_sub) = (..., {self.d_sub}); got {w.shape}")
        return w[..., None, :]

    def u_hat(self, w, lam, per_client=False):
        """``P x_hat_k(w) = (A_k + lam I)^{-1}(a_k + lam w)`` = Proposition 10's ``P P^T y_hat_k``: shape
        (..., N, d_sub), for a common ``w`` (..., d_sub) or, with ``per_client``, one ``w_k`` per client (..., N, d_sub)."""
        wk = self._wk(w, per_client)
        if np.ndim(lam) == 0:
            return np.einsum("kij,...kj->...ki", self._inner_inverse(lam), self.a + lam * wk)
        M = self.A + lam * np.eye(self.d_sub)
        rhs = np.broadcast_to(self.a + lam * wk, np.broadcast_shapes(wk.shape, self.a.shape))
        return np.linalg.solve(M, rhs[..., None])[..., 0]

    def _inner_inverse(self, lam):
        """``(A_k + lam I)^{-1}`` (N, d_sub, d_sub), kept for the last few ``lam`` (one inversion per ``lam``
        instead of one solve per point)."""
        key = float(lam)
        cache = self.__dict__.setdefault("_inverse_cache", {})
        if key not in cache:
            if len(cache) >= 8:
                cache.clear()
            cache[key] = np.linalg.inv(self.A + key * np.eye(self.d_sub))
        return cache[key]

    def grad_F_k(self, w, lam, per_client=False):
        """``grad F_k(w) = lam (w - P P^T y_hat_k)`` (Proposition 10): (..., N, d_sub)."""
        return lam * (self._wk(w, per_client) - self.u_hat(w, lam, per_client))

    def F_k(self, w, lam, per_client=False):
        """``F_k(w) = min_x f_k(x) + lam/2 ||w - P x||^2``: (..., N)."""
        wk = self._wk(w, per_client)
        u = self.u_hat(w, lam, per_client)
        return (0.5 * np.einsum("...ki,kij,...kj->...k", u, self.A, u) - np.einsum("ki,...ki->...k", self.a, u)
                + self.c + lam / 2 * np.sum((wk - u) ** 2, -1))

    def F(self, w, lam):
        """``F(w) = (1/N) sum_k F_k(w)`` for ``w`` (..., d_sub)."""
        return self.F_k(w, lam).mean(-1)

    def grad_F(self, w, lam):
        return self.grad_F_k(w, lam).mean(-2)

    def hess_F_k(self, lam):
        """Exact ``Hess F_k = lam I - lam^2 (A_k + lam I)^{-1}`` (N, d_sub, d_sub)."""
        I = np.eye(self.d_sub)
        return lam * I - lam ** 2 * np.linalg.inv(self.A + lam * I)

    def inner_y_hessian(self, lam):
        """Hessian of Proposition 10's inner problem in ``y``: ``G (A_k + lam I) G`` (N, d_sub, d_sub)."""
        return self.G @ (self.A + lam * np.eye(self.d_sub)) @ self.G

    def w_star(self, lam):
        """The stationary point of ``F`` (``F`` is quadratic): solves ``mean_k Hess F_k w = mean_k lam (A_k + lam)^{-1} a_k``."""
        I = np.eye(self.d_sub)
        Minv = np.linalg.inv(self.A + lam * I)
        H = (lam * I - lam ** 2 * Minv).mean(0)
        return np.linalg.solve(H, (lam * Minv @ self.a[..., None])[..., 0].mean(0))

    @functools.cached_property
    def shared_hessian(self) -> bool:
        return bool(np.allclose(self.A, self.A[:1], rtol=1e-12, atol=1e-12 * max(1.0, float(np.abs(self.A).max()))))

    @property
    def sigma_f_sq(self) -> float:
        """Assumption 5's ``sigma_f^2 = sup_x (1/N) sum_k ||grad f_k(x) - grad f(x)||^2``, exactly: with a shared
        ``A_k = A`` the diversity ``P^T (a_k - a_bar)`` does not depend on ``x`` and ``sigma_f^2 = (1/N) sum_k
        (a_k - a_bar)^T G (a_k - a_bar)``; otherwise it grows without bound and ``inf`` is returned."""
        if not self.shared_hessian:
            return math.inf
        e = self.a - self.a.mean(0)
        return float(np.mean(np.einsum("ki,ij,kj->k", e, self.G, e)))

    @functools.cached_property
    def _gamma_quadratic(self):
        """Coefficients ``(Q, p, r)`` of the per-sample gradient variance as a quadratic in ``u = P x``.

        The centred per-sample gradient (in ``u`` coordinates, before ``P^T``) is affine in ``u``:
        ``e_i(u) = B_i u - b_i`` with ``B_i = c_i c_i^T - A_k`` and ``b_i = c_i y_i - a_k``, so
        ``(1/n) sum_i e_i^T G e_i = u^T Q_k u - 2 p_k^T u + r_k`` with ``Q_k = (1/n) sum_i B_i G B_i``,
        ``p_k = (1/n) sum_i B_i G b_i`` and ``r_k = (1/n) sum_i b_i^T G b_i`` (``G = P P^T``)."""
        C, Y, n = self.C, self.Y, self.C.shape[1]
        B = np.einsum("kni,knj->knij", C, C) - np.einsum("kni,knj->kij", C, C)[:, None] / n
        b = C * Y[..., None] - np.einsum("kni,kn->ki", C, Y)[:, None] / n
        GB = np.einsum("ij,knjl->knil", self.G, B)
        Gb = b @ self.G
        Q = np.einsum("knji,knjl->kil", B, GB) / n
        Q = (Q + np.swapaxes(Q, -1, -2)) / 2
        p = np.einsum("knji,knj->ki", B, Gb) / n
        r = np.einsum("kni,kni->k", b, Gb) / n
        return Q, p, r

    def gamma_f_sq(self, u):
        """Assumption 2's per-sample gradient variance at ``P x = u`` (..., N, d_sub), exactly, for a sample drawn
        uniformly from the client's n samples: ``(1/n) sum_i ||grad f~_k(x; xi_i) - grad f_k(x)||^2`` (..., N).

        Evaluated as the quadratic ``u^T Q_k u - 2 p_k^T u + r_k`` whose coefficients are sums over the samples
        (computed once per instance), so a point costs ``O(d_sub^2)`` instead of ``O(n d_sub)``; the sample
        loop of the definition is the referee in the tests."""
        if self.C is None:
            raise ValueError("`gamma_f_sq` needs sample data (`C`, `Y`): build the clients with make_a6_least_squares")
        u = np.asarray(u, float)
        Q, p, r = self._gamma_quadratic
        val = np.einsum("...ki,kij,...kj->...k", u, Q, u) - 2 * np.einsum("ki,...ki->...k", p, u) + r
        return np.maximum(val, 0.0)

    def summary(self) -> str:
        return (f"A6Clients(N={self.N}, d={self.d}, d_sub={self.d_sub}, s={self.s:.3g}, L={self.L:.4g}, "
                f"least_squares={self.C is not None}, shared_hessian={self.shared_hessian})")

    __repr__ = summary


def a6_quadratics(P, A, a, c=None) -> A6Clients:
    """Quadratic A6 clients ``f_k(x) = 1/2 (Px)^T A_k (Px) - a_k^T P x + c_k`` (``A_k`` symmetric, possibly
    indefinite; no sample data)."""
    P = check_matrix(P, "P", (None, None))
    ds = P.shape[0]
    if ds > P.shape[1] or np.linalg.matrix_rank(P) < ds:
        raise ValueError(f"`P` must have full row rank d_sub <= d; got shape {P.shape}")
    A = check_matrix(A, "A", (None, ds, ds))
    if not np.allclose(A, np.swapaxes(A, 1, 2)):
        raise ValueError("`A` must hold symmetric matrices")
    a = check_matrix(a, "a", (A.shape[0], ds))
    c = np.zeros(A.shape[0]) if c is None else check_matrix(c, "c", (A.shape[0],))
    return A6Clients(P=P, A=A, a=a, c=c)


def make_a6_least_squares(N: int = 6, n: int = 40, d: int = 4000, d_sub: int = 2, *, heterogeneity: float = 1.0,
                          noise: float = 0.5, scale: float = 1.0, shared_design: bool = True,
                          orthonormal_P: bool = False, seed: SeedLike = 0) -> A6Clients:
    """Least-squares clients with data in ``row(P)`` (Assumption 6).

    Sample ``i`` of client ``k`` is ``xi = P^T c_i`` with ``c_i`` uniform on the sphere of radius ``sqrt(scale)`` (so every sample loss
    is ``L``-smooth with ``L = max ||xi||^2 <= scale (1+s)^2``, Assumption 4) and label
    ``y = c_i^T m_k + noise * eps`` (``eps ~ N(0, 1)``, ``m_k ~ N(0, heterogeneity I)``), so that
    ``f_k(x) = (1/(2n)) sum_i (c_i^T P x - y_i)^2`` depends on ``x`` only through ``P x``.
    ``shared_design=True`` gives every client the same ``c_i`` (so ``A_k`` is shared and Assumption 5's
    ``sigma_f^2`` is finite and exact); ``P`` is the paper's (Gaussian rows of unit norm) unless
    ``orthonormal_P`` (then ``s = 0``).
    """
    N = check_int(N, "N", 2)
    n = check_int(n, "n", 1)
    d = check_int(d, "d", 1)
    d_sub = check_int(d_sub, "d_sub", 1, d, why=f"d_sub <= d, d={d}")
    heterogeneity = check_real(heterogeneity, "heterogeneity", 0)
    noise = check_real(noise, "noise", 0)
    scale = check_real(scale, "scale", 0, low_open=True)
    shared_design = check_bool(shared_design, "shared_design")
    check_alloc(N * n * d_sub, "the sample data (N x n x d_sub)", N=N, n=n, d_sub=d_sub)
    rng = as_generator(seed)
    P = make_projection(d_sub, d, orthonormal=check_bool(orthonormal_P, "orthonormal_P"), seed=rng)
    C = rng.standard_normal((1 if shared_design else N, n, d_sub))
    C *= math.sqrt(scale) / np.linalg.norm(C, axis=-1, keepdims=True)
    C = np.broadcast_to(C, (N, n, d_sub)).copy()
    m = rng.standard_normal((N, d_sub)) * math.sqrt(heterogeneity)
    Y = np.einsum("kni,ki->kn", C, m) + noise * rng.standard_normal((N, n))
    A = np.swapaxes(C, 1, 2) @ C / n
    a = np.einsum("kni,kn->ki", C, Y) / n
    c = 0.5 * np.mean(Y ** 2, 1)
    check_finite_result([A, a, c], "the clients' quadratics", heterogeneity=heterogeneity, noise=noise, scale=scale)
    return A6Clients(P=P, A=A, a=a, c=c, C=C, Y=Y)


# ----------------------------------------------------------------------------- runs: the shared runner
def to_stochastic_clients(clients: A6Clients, *, reduce: bool = True):
    """The same least-squares clients as a :class:`fedtheory.lpproj.stochastic.LeastSquaresClients` with
    ``a6=True`` and ``ridge=0``, for :func:`fedtheory.lpproj.stochastic.run_algorithm1_sgd` (which solves the
    inner problem over ``x = P^T y``).

    ``reduce=False`` passes the d-dimensional designs ``Xi_k = C_k P``. ``reduce=True`` (default) passes the
    isometric image of ``col(P^T)`` in ``R^{d_sub}``: ``P' = (P P^T)^{1/2}`` (same singular values, so the same
    ``s``) and ``Xi'_k = C_k P'``. Under Assumption 6 the runner only ever uses ``K = P U = P P^T``,
    ``Xi U = C P P^T`` and the metric ``(P P^T)^{-1}`` (``U = P^T``), which are the same for ``P`` and ``P'``:
    the runs are identical, at ``d_sub``-dimensional cost (the runner's constructor eigen-decomposes the d x d
    Hessians, too slow for ``d >= 4000``).
    """
    from .stochastic import LeastSquaresClients

    if not isinstance(clients, A6Clients):
        raise TypeError(f"`clients` must be an A6Clients; got {type(clients).__name__}")
    if clients.C is None:
        raise ValueError("`clients` must carry sample data (`C`, `Y`): build them with make_a6_least_squares")
    P = _sym_sqrt(clients.G) if check_bool(reduce, "reduce") else clients.P
    return LeastSquaresClients(Xi=clients.C @ P, y=clients.Y, P=P, ridge=0.0, a6=True)


def check_theorem13_steps(s, lam, L, eta_tilde, beta) -> None:
    """Theorem 13's computable hypotheses for a run: ``s < 1/30``, ``lam >= max(sqrt(10 L^2 + 1), 4L)``,
    ``beta >= 1`` and ``eta_tilde = eta beta R <= eta_hat_2 = 1/(90 lam^3)``; a ``ValueError`` naming the
    parameter otherwise (Han et al. 2024, Theorem 13)."""
    check_a6_regime(s, lam, L, "theorem13")
    check_real(beta, "beta", 1, why="Theorem 13 assumes beta >= 1")
    e = check_real(eta_tilde, "eta_tilde", 0, low_open=True)
    eh = float(eta_hat_2(lam))
    if e > eh * (1 + 1e-12):
        raise ValueError(f"`eta_tilde` = eta beta R must be <= eta_hat_2 = 1/(90 lam^2 L_F) = {eh:.6g} for Theorem 13; "
                         f"got eta_tilde={e!r}")


# every public function turns float64 overflows, linear-algebra failures and broadcasting errors
# into ValueErrors naming its parameters (fedtheory._validation.guard_numeric_errors)
_guard_module(globals(), __all__)
