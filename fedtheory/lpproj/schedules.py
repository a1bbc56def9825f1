"""Decaying schedules of lp-proj's refined convergence theory (Theorems 14, 15, 27, 28).

Han, Li, Lin & Zhang (2024), "A Random Projection Approach to Personalized Federated Learning", JMLR 25,
Section 4.1.3 and Appendices A.5-A.6:

* Theorem 14 / 27 (strongly convex, Assumptions 1-3): ``eta_t = 8/(beta R mu_F (zeta + t))``,
  ``nu_t = 8/(mu_F (zeta + t))``, ``D_t = ceil(mu_F (zeta + t)/D)``, ``zeta = 72 kappa_F (1 + 7 kappa_F/beta)``;
  with ``S = N``: ``nu_t = 8/(mu_F beta^2 (zeta + t)^2)``, ``D_t = ceil(mu_F beta^2 (zeta + t)^2/D)`` (the paper
  writes ``xi`` for ``zeta`` there);
* Theorem 15 / 28 (smooth, Assumptions 2-6): ``eta_t = 1/(90 beta R lam^2 L_F sqrt(t+1))``,
  ``nu_t = 1/(90 lam^2 L_F sqrt(t+1))``, ``D_t = ceil(90 lam^2 L_F sqrt(t+1)/D)``, ``t*`` drawn with
  ``P(t* = i) = alpha_i = eta_i/sum_j eta_j``; with ``S = N`` the exponents 1/3 (``eta``) and 2/3 (``nu``, ``D``)
  and extra powers of ``beta``;
* recursion (32), its constants ``C_0``-``C_4`` and its one-step right side;
* the step-size sums after (32) (App. A.5) and in the proof of Theorem 28 (around (33)), evaluated exactly
  (rational arithmetic where the terms are rational), with the printed bounds and corrected ones.

The mini-batch ``D_t`` is capped by the client's ``n`` samples when ``n`` is given: a schedule that asks for more
than ``n`` samples uses the full batch for that round (reported in :attr:`Schedule.capped`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .._validation import (check_alloc, check_bool, check_choice, check_finite_array, check_finite_result, check_int,
                           check_iterations, check_real)
from .._validation import guard_module as _guard_module

__all__ = ["Schedule", "theorem14_zeta", "theorem14_schedule", "theorem15_schedule", "theorem15_lambda_min",
           "check_schedule_regime",
           "sampling_law", "Recursion32Constants", "recursion32_constants", "recursion32_rhs",
           "A5Sums", "a5_sums", "Theorem28Sums", "theorem28_sums", "theorem28_first_term", "SlopeFit",
           "loglog_slope", "THEOREM15_SOLVERS", "Theorem15Moments", "theorem15_exact_moments"]


def _pos(value, name, why=""):
    return check_real(value, name, 0, low_open=True, why=why)


def _common(T, R, beta, D, n):
    T = check_int(T, "T", 1)
    check_alloc(T, "the schedule (T rounds)", T=T)
    R = check_int(R, "R", 1)
    beta = check_real(beta, "beta", 1, why="the theorems assume beta >= 1")
    D = _pos(D, "D", "the batch-schedule constant D must be positive")
    n = None if n is None else check_int(n, "n", 1, why="samples per client")
    return T, R, beta, D, n


@dataclass(frozen=True)
class Schedule:
    """Per-round schedule ``t = 0..T-1`` of Algorithm 1 (Han et al. 2024, Theorems 14/15).

    Attributes
    ----------
    eta, eta_tilde, nu : (T,) float arrays, the local step ``eta_t``, the effective global step
        ``eta~_t = beta R eta_t`` and the inner tolerance ``nu_t``;
    batch_requested : (T,) int array, the paper's ``D_t``; batch : (T,) int array, ``min(D_t, n)``;
    capped : (T,) bool array, rounds where ``D_t > n`` (full batch used); theorem, no_sampling, params.
    """

    eta: np.ndarray
    eta_tilde: np.ndarray
    nu: np.ndarray
    batch_requested: np.ndarray
    batch: np.ndarray
    capped: np.ndarray
    theorem: str
    no_sampling: bool
    params: dict

    def summary(self) -> str:
        T = self.eta.size
        cap = int(self.capped.sum())
        return (f"{self.theorem} schedule ({'S = N' if self.no_sampling else 'S < N'}), T={T}: eta_0={self.eta[0]:.4g}, "
                f"eta~_0={self.eta_tilde[0]:.4g}, nu_0={self.nu[0]:.4g}, D_0={int(self.batch_requested[0])}, "
                f"D_(T-1)={int(self.batch_requested[-1])}" + (f", {cap} rounds capped at n" if cap else ""))

    __repr__ = summary


def _batches(req, n):
    req = np.asarray(req, dtype=float)
    if not np.all(np.isfinite(req)) or np.any(req > 2 ** 62):
        raise ValueError("the batch schedule D_t overflows (exceeds 2^62 samples): `D` is too small, or `mu_F`, `L_F`, "
                         "`lam`, `beta` or `T` too large in magnitude (or `mu_F` too small)")
    req = np.ceil(req - 1e-9 * req).astype(np.int64)  # guard ceil against rounding of exact integers
    req = np.maximum(req, 1)
    if n is None:
        return req, req.copy(), np.zeros(req.shape, bool)
    return req, np.minimum(req, n), req > n


def theorem14_zeta(kappa_F, beta):
    """``zeta = 72 kappa_F (1 + 7 kappa_F/beta)`` (Han et al. 2024, Theorem 14). Broadcasts."""
    k = check_finite_array(kappa_F, "kappa_F", 1)
    b = check_finite_array(beta, "beta", 1)
    out = 72.0 * k * (1.0 + 7.0 * k / b)
    check_finite_result(out, "zeta", kappa_F=kappa_F, beta=beta)
    return float(out) if np.ndim(out) == 0 else out


def theorem14_schedule(T: int, *, mu_F: float, L_F: float, beta: float, R: int, D: float, no_sampling: bool = False,
                       n: int | None = None) -> Schedule:
    """Theorem 14 / 27's schedules (Han et al. 2024, Sec. 4.1.3 and App. A.5).

    ``eta_t = 8/(beta R mu_F (zeta + t))`` (so ``eta~_t = 8/(mu_F (zeta + t))``), ``zeta = 72 kappa_F (1 +
    7 kappa_F/beta)``, ``kappa_F = L_F/mu_F``; with client sampling ``nu_t = 8/(mu_F (zeta + t))`` and ``D_t =
    ceil(mu_F (zeta + t)/D)``; with ``no_sampling`` (``S = N``) ``nu_t = 8/(mu_F beta^2 (zeta + t)^2)`` and ``D_t =
    ceil(mu_F beta^2 (zeta + t)^2/D)``. ``mu_F`` is Proposition 3's, ``L_F`` the paper's ``lam``.

    Raises ``ValueError`` for ``mu_F <= 0``, ``L_F < mu_F``, ``beta < 1``, ``D <= 0``, ``R, T < 1`` or ``n < 1``.
    """
    T, R, beta, D, n = _common(T, R, beta, D, n)
    mu_F = _pos(mu_F, "mu_F", "strong convexity of the F_k (Proposition 3)")
    L_F = check_real(L_F, "L_F", mu_F, why=f"L_F >= mu_F = {mu_F:g} (the smoothness of the F_k)")
    if not L_F / mu_F <= 1e150:
        raise ValueError(f"`L_F`/`mu_F` = kappa_F must be <= 1e150 (zeta = 72 kappa_F (1 + 7 kappa_F/beta) overflows "
                         f"float64); got L_F={L_F!r}, mu_F={mu_F!r}")
    no_sampling = check_bool(no_sampling, "no_sampling")
    zeta = theorem14_zeta(L_F / mu_F, beta)
    u = zeta + np.arange(T, dtype=float)
    eta_tilde = 8.0 / (mu_F * u)
    if no_sampling:
        nu = 8.0 / (mu_F * beta ** 2 * u ** 2)
        req = mu_F * beta ** 2 * u ** 2 / D
    else:
        nu = 8.0 / (mu_F * u)
        req = mu_F * u / D
    req, batch, capped = _batches(req, n)
    check_finite_result([eta_tilde, nu], "the schedule", T=T, mu_F=mu_F, L_F=L_F, beta=beta, R=R, D=D)
    return Schedule(eta=eta_tilde / (beta * R), eta_tilde=eta_tilde, nu=nu, batch_requested=req, batch=batch,
                    capped=capped, theorem="Theorem 14", no_sampling=no_sampling,
                    params=dict(mu_F=mu_F, L_F=L_F, kappa_F=L_F / mu_F, zeta=zeta, beta=beta, R=R, D=D, n=n))


def theorem15_lambda_min(L):
    """Theorem 15's ``lam >= max(sqrt(10 L^2 + 1), 4 L)`` (Han et al. 2024). Broadcasts."""
    L = check_finite_array(L, "L", 0, low_open=True)
    out = np.maximum(np.sqrt(10 * L ** 2 + 1), 4 * L)
    check_finite_result(out, "the lower bound on lam", "L")
    return float(out) if np.ndim(out) == 0 else out


def theorem15_schedule(T: int, *, lam: float, L_F: float | None = None, beta: float, R: int, D: float,
                       no_sampling: bool = False, n: int | None = None, L: float | None = None) -> Schedule:
    """Theorem 15 / 28's schedules (Han et al. 2024, Sec. 4.1.3 and App. A.6), with ``c = 90 lam^2 L_F``.

    With client sampling: ``eta_t = 1/(beta R c sqrt(t+1))`` (``eta~_t = 1/(c sqrt(t+1))``), ``nu_t = 1/(c
    sqrt(t+1))``, ``D_t = ceil(c sqrt(t+1)/D)``. With ``no_sampling`` (``S = N``): ``eta_t = 1/(beta^{1/3} R c
    (t+1)^{1/3})`` (``eta~_t = beta^{2/3}/(c (t+1)^{1/3})``), ``nu_t = 1/(c beta^{2/3} (t+1)^{2/3})``, ``D_t =
    ceil(c beta^{2/3} (t+1)^{2/3}/D)``. ``L_F`` defaults to the paper's ``L_F = lam``. If the smoothness ``L`` of
    the ``f_k`` is given, the theorem's ``lam >= max(sqrt(10 L^2 + 1), 4 L)`` is enforced.
    """
    T, R, beta, D, n = _common(T, R, beta, D, n)
    lam = _pos(lam, "lam")
    L_F = lam if L_F is None else _pos(L_F, "L_F")
    _check_c(lam, L_F)
    no_sampling = check_bool(no_sampling, "no_sampling")
    if L is not None:
        L = _pos(L, "L", "smoothness of the f_k (Assumption 4)")
        lmin = theorem15_lambda_min(L)
        if lam < lmin * (1 - 1e-12):
            raise ValueError(f"`lam` must be >= max(sqrt(10 L^2 + 1), 4 L) = {lmin:.6g} in Theorem 15 "
                             f"(L = {L:g}); got lam={lam!r}")
    c = 90.0 * lam ** 2 * L_F
    t1 = np.arange(1, T + 1, dtype=float)
    if no_sampling:
        eta = 1.0 / (beta ** (1 / 3) * R * c * t1 ** (1 / 3))
        nu = 1.0 / (c * beta ** (2 / 3) * t1 ** (2 / 3))
        req = c * beta ** (2 / 3) * t1 ** (2 / 3) / D
    else:
        eta = 1.0 / (beta * R * c * np.sqrt(t1))
        nu = 1.0 / (c * np.sqrt(t1))
        req = c * np.sqrt(t1) / D
    req, batch, capped = _batches(req, n)
    return Schedule(eta=eta, eta_tilde=eta * beta * R, nu=nu, batch_requested=req, batch=batch, capped=capped,
                    theorem="Theorem 15", no_sampling=no_sampling,
                    params=dict(lam=lam, L_F=L_F, c=c, beta=beta, R=R, D=D, n=n, L=L))


def _check_c(lam, L_F):
    """Theorems 15/28's ``c = 90 lam^2 L_F`` (and its powers up to 5) must stay positive and finite in float64."""
    with np.errstate(over="ignore", under="ignore"):
        c = 90.0 * np.float64(lam) ** 2 * L_F if 1e-60 <= lam <= 1e60 else np.inf
    if not 1e-60 <= c <= 1e60:
        raise ValueError(f"`lam` and `L_F` must keep c = 90 lam^2 L_F in [1e-60, 1e60] (its powers c^k, k <= 5, "
                         f"stay finite and non-zero in float64); got lam={lam!r}, L_F={L_F!r}")


def sampling_law(eta):
    """Theorem 15's law of ``t*``: ``P(t* = i) = alpha_i = eta_i/sum_{j<T} eta_j`` (the paper writes
    ``alpha_t`` with ``t`` also the summation index, and ``P(t* = i) = alpha_t``; erratum 9)."""
    e = check_finite_array(eta, "eta", 0, low_open=True)
    if e.ndim != 1 or e.size < 1:
        raise ValueError(f"`eta` must be a non-empty 1-d array of step sizes; got shape {e.shape}")
    return e / e.sum()


def check_schedule_regime(theorem: str, eta_tilde, *, beta: float, L_F: float, mu_F: float | None = None,
                          lam: float | None = None, no_sampling: bool = False) -> np.ndarray:
    """Reject effective steps ``eta~_t = beta R eta_t`` outside the range the proofs use (Han et al. 2024, App.
    A.5-A.6), for callers who pass their own schedule but ask for a theorem's regime.

    ``theorem="theorem14"``: ``eta~_t <= 1/(9 L_F (1 + 7 kappa_F/beta))`` (which also gives ``eta~_t <= beta/(5
    L_F)`` and ``<= 1/mu_F``), ``kappa_F = L_F/mu_F``. ``theorem="theorem15"``: ``eta~_t <= beta/(5 L_F)`` and, with
    client sampling, ``eta~_t <= 1/(90 lam^2 L_F)`` (Theorem 13's ``eta_hat_2``; the ``S = N`` schedule of Theorem 15
    exceeds it for ``t + 1 < beta^2``, and the paper does not restrict it there). ``beta >= 1`` always.
    Returns the validated array; raises ``ValueError`` naming the first offending round.
    """
    theorem = check_choice(theorem, "theorem", ("theorem14", "theorem15"))
    h = check_finite_array(eta_tilde, "eta_tilde", 0, low_open=True)
    if h.ndim != 1:
        raise ValueError(f"`eta_tilde` must be a 1-d schedule; got shape {h.shape}")
    beta = check_real(beta, "beta", 1, why="the theorems assume beta >= 1")
    L_F = _pos(L_F, "L_F")
    if theorem == "theorem14":
        mu_F = _pos(mu_F, "mu_F")
        cap, what = 1 / (9 * L_F * (1 + 7 * L_F / (mu_F * beta))), "1/(9 L_F (1 + 7 kappa_F/beta))"
    else:
        cap, what = beta / (5 * L_F), "beta/(5 L_F)"
        if not check_bool(no_sampling, "no_sampling"):
            lam = _pos(lam, "lam")
            if 1 / (90 * lam ** 2 * L_F) < cap:
                cap, what = 1 / (90 * lam ** 2 * L_F), "1/(90 lam^2 L_F)"
    bad = np.flatnonzero(h > cap * (1 + 1e-12))
    if bad.size:
        t = int(bad[0])
        raise ValueError(f"`eta_tilde` is outside {theorem}'s range: eta~_{t} = {h[t]:.6g} > {what} = {cap:.6g} "
                         f"({bad.size} of {h.size} rounds; beta={beta!r}, L_F={L_F!r}, mu_F={mu_F!r}, lam={lam!r})")
    return h


# ----------------------------------------------------------------------------- recursion (32)
@dataclass(frozen=True)
class Recursion32Constants:
    """Constants of recursion (32) (Han et al. 2024, App. A.5): ``C_1 = 10 lam^2/mu_F``, ``C_2 = 6 sigma_F1^2
    (N/S - 1)/(N - 1)``, ``C_3 = 280 kappa_F L_F sigma_F1^2``, ``C_4 = 200 kappa_F L_F lam^2``, ``C_0 = 2 (1+s)^2/
    mu^2 (1 + D gamma_f^2/8)`` (``S < N``; ``delta_t^2 <= C_0 eta~_t``) and ``C0_no_sampling = (1+s)^2 mu_F/
    (4 mu^2) (1 + D gamma_f^2/8)`` (``S = N``; ``delta_t^2 <= C~_0 eta~_t^2/beta^2``)."""

    C0: float
    C0_no_sampling: float
    C1: float
    C2: float
    C3: float
    C4: float
    params: dict

    def summary(self) -> str:
        return (f"recursion (32): C0={self.C0:.4g}, C0~={self.C0_no_sampling:.4g}, C1={self.C1:.4g}, "
                f"C2={self.C2:.4g}, C3={self.C3:.4g}, C4={self.C4:.4g}")

    __repr__ = summary


def recursion32_constants(*, lam: float, mu: float, mu_F: float, L_F: float | None = None, s: float,
                          gamma_f_sq: float, sigma_F1_sq: float, N: int, S: int, D: float) -> Recursion32Constants:
    """Recursion (32)'s constants from the problem's quantities (Han et al. 2024, App. A.5). ``L_F`` defaults to
    the paper's ``lam``; ``mu`` is Assumption 1's strong convexity, ``s`` Assumption 3's."""
    lam = _pos(lam, "lam")
    mu = _pos(mu, "mu")
    mu_F = _pos(mu_F, "mu_F")
    L_F = lam if L_F is None else _pos(L_F, "L_F")
    s = check_real(s, "s", 0)
    g = check_real(gamma_f_sq, "gamma_f_sq", 0)
    sig = check_real(sigma_F1_sq, "sigma_F1_sq", 0)
    N = check_int(N, "N", 2)
    S = check_int(S, "S", 1, N, why=f"1 <= S <= N = {N}")
    D = _pos(D, "D")
    if mu * mu == 0.0:
        raise ValueError(f"`mu` must be >= 1e-154 (mu^2 underflows float64 to 0); got mu={mu!r}")
    kappa = L_F / mu_F
    out = Recursion32Constants(
        C0=2 * (1 + s) ** 2 / mu ** 2 * (1 + D * g / 8), C0_no_sampling=(1 + s) ** 2 * mu_F / (4 * mu ** 2) * (1 + D * g / 8),
        C1=10 * lam ** 2 / mu_F, C2=6 * sig * (N / S - 1) / (N - 1), C3=280 * kappa * L_F * sig,
        C4=200 * kappa * L_F * lam ** 2,
        params=dict(lam=lam, mu=mu, mu_F=mu_F, L_F=L_F, s=s, gamma_f_sq=g, sigma_F1_sq=sig, N=N, S=S, D=D))
    check_finite_result([out.C0, out.C0_no_sampling, out.C1, out.C2, out.C3, out.C4], "recursion (32)'s constants",
                        lam=lam, mu=mu, mu_F=mu_F, L_F=L_F, s=s, gamma_f_sq=g, sigma_F1_sq=sig, D=D)
    return out


def recursion32_rhs(E_delta, eta_tilde, consts: Recursion32Constants, *, beta: float, no_sampling: bool = False):
    """One step of recursion (32): ``(1 - mu_F eta~_t/2) E Delta_t + eta~_t^2 (C_0 C_1 + C_2) + eta~_t^3 C_3/
    beta^2 + eta~_t^4 C_0 C_4/beta^2``; with ``no_sampling`` the ``S = N`` form ``(1 - mu_F eta~/2) E Delta +
    eta~^3 (C~_0 C_1 + C_3)/beta^2 + eta~^4 C~_0 C_4/(9 L_F beta^4)`` (Han et al. 2024, App. A.5).
    Broadcasts over ``E_delta`` and ``eta_tilde``."""
    if not isinstance(consts, Recursion32Constants):
        raise TypeError(f"`consts` must be a Recursion32Constants; got {type(consts).__name__}")
    e = check_finite_array(E_delta, "E_delta", 0)
    h = check_finite_array(eta_tilde, "eta_tilde", 0, low_open=True)
    beta = check_real(beta, "beta", 1, why="the theorems assume beta >= 1")
    if np.any(h > 1e60):
        raise ValueError(f"`eta_tilde` must be <= 1e60 (eta~^4 overflows float64); got max {float(h.max())!r}")
    c = consts
    mu_F, L_F = c.params["mu_F"], c.params["L_F"]
    if no_sampling:
        out = ((1 - mu_F * h / 2) * e + h ** 3 * (c.C0_no_sampling * c.C1 + c.C3) / beta ** 2
               + h ** 4 * c.C0_no_sampling * c.C4 / (9 * L_F * beta ** 4))
    else:
        out = (1 - mu_F * h / 2) * e + h ** 2 * (c.C0 * c.C1 + c.C2) + h ** 3 * c.C3 / beta ** 2 + h ** 4 * c.C0 * c.C4 / beta ** 2
    check_finite_result(out, "recursion (32)'s right side", "E_delta", "eta_tilde", "consts", beta=beta)
    return float(out) if np.ndim(out) == 0 else out


# ----------------------------------------------------------------------------- App. A.5 sums
@dataclass(frozen=True)
class A5Sums:
    """The three sums after (32) (Han et al. 2024, App. A.5), ``Sigma_k = sum_{t<T} eta~_t^k prod_{s=t+1}^{T-1}
    (1 - mu_F eta~_s/2)`` for ``k = 2, 3, 4`` with ``eta~_t = 8/(mu_F (zeta + t))``, evaluated exactly; the printed
    bounds ``16/(3 mu_F^2 (zeta+T-1))``, ``32/(mu_F^3 (zeta+T-1)(zeta+T-2))``, ``256 T/(mu_F^4 prod_{j=1}^4
    (zeta+T-j))`` and the corrected ones (constants 64/3, 256 and 4096, those of ``eta~_t = 8/...``)."""

    sums: tuple
    printed: tuple
    corrected: tuple
    params: dict

    def summary(self) -> str:
        return "; ".join(f"eta~^{k}: {s:.4g} vs printed {p:.4g} / corrected {c:.4g}"
                         for k, s, p, c in zip((2, 3, 4), self.sums, self.printed, self.corrected))

    __repr__ = summary


def a5_sums(T: int, *, zeta, mu_F=1) -> A5Sums:
    """Evaluate the App. A.5 sums exactly (Han et al. 2024, proof of Theorem 27).

    ``zeta`` and ``mu_F`` may be ``fractions.Fraction`` or integers (then the sums are exact rationals, returned
    as floats) or floats (float64 recursion ``Sigma <- (1 - mu_F eta~_t/2) Sigma + eta~_t^k``). ``zeta > 4``.
    """
    T = check_int(T, "T", 1)
    check_iterations(T, "the A.5 sums (one step per round)", T=T)
    exact = all(isinstance(v, (int, Fraction)) and not isinstance(v, bool) for v in (zeta, mu_F))
    check_real(zeta, "zeta", 4, low_open=True, why="the product formula needs zeta > 4")
    check_real(mu_F, "mu_F", 0, low_open=True)
    if float(mu_F) ** 4 == 0.0:
        raise ValueError(f"`mu_F` must be >= 1e-80 (mu_F^4 in the printed bounds underflows float64); got mu_F={mu_F!r}")
    if exact:
        z, m = Fraction(zeta), Fraction(mu_F)
        one = Fraction(1)
    else:
        z, m, one = float(zeta), float(mu_F), 1.0
    acc = [0 * one, 0 * one, 0 * one]
    for t in range(T):  # Sigma_k(t+1) = (1 - mu_F eta~_t/2) Sigma_k(t) + eta~_t^k: the product over s > t
        h = 8 * one / (m * (z + t))
        a = 1 - m * h / 2
        acc = [a * acc[0] + h ** 2, a * acc[1] + h ** 3, a * acc[2] + h ** 4]
    zf, mf = float(z), float(m)
    p4 = (zf + T - 1) * (zf + T - 2) * (zf + T - 3) * (zf + T - 4)
    printed = (16 / (3 * mf ** 2 * (zf + T - 1)), 32 / (mf ** 3 * (zf + T - 1) * (zf + T - 2)), 256 * T / (mf ** 4 * p4))
    corrected = (64 / (3 * mf ** 2 * (zf + T - 1)), 256 / (mf ** 3 * (zf + T - 1) * (zf + T - 2)), 4096 * T / (mf ** 4 * p4))
    return A5Sums(sums=tuple(float(a) for a in acc), printed=printed, corrected=corrected,
                  params=dict(T=T, zeta=zf, mu_F=mf, exact=exact))


# ----------------------------------------------------------------------------- Theorem 28 sums, eq. (33)
@dataclass(frozen=True)
class Theorem28Sums:
    """Sums of powers of ``eta~_t`` in the proof of Theorem 28 (Han et al. 2024, App. A.6, after (33)) in units
    of ``c = 90 lam^2 L_F`` (and ``beta``): ``sums[k] = sum_{t<T} eta~_t^k``, with the printed bounds
    (``bounds[k]``, lower for ``k = 1``, upper otherwise) and, where the printed one is wrong, the corrected one."""

    sums: dict
    bounds: dict
    corrected: dict
    no_sampling: bool
    params: dict

    def holds(self, which: str = "bounds") -> dict:
        """Whether each bound holds (``which`` = ``"bounds"`` (printed) or ``"corrected"``)."""
        src = getattr(self, which)
        return {k: (self.sums[k] >= v if k == 1 else self.sums[k] <= v) for k, v in src.items()}  # arrays for array T

    def summary(self) -> str:
        last = (lambda v: float(np.ravel(v)[-1]))
        return "; ".join(f"sum eta~^{k} = {last(self.sums[k]):.6g} {'>=' if k == 1 else '<='} {last(self.bounds[k]):.6g}"
                         for k in sorted(self.bounds)) + (" (largest T)" if np.ndim(self.params["T"]) else "")

    __repr__ = summary


def _power_sum(T, p):
    """``sum_{i=1}^T i^{-p}``: compensated summation (smallest terms first) for an int ``T``; for a 1-d array of
    ``T`` the cumulative sums (float64, relative error below ``T`` ulps)."""
    if np.ndim(T) == 0:
        i = np.arange(int(T), 0, -1, dtype=float)
        return math.fsum((i ** -p).tolist())
    T = np.asarray(T)
    cs = np.cumsum(np.arange(1, int(T.max()) + 1, dtype=float) ** -p)
    return cs[T - 1]


def theorem28_sums(T, *, lam: float, L_F: float | None = None, beta: float = 1.0,
                   no_sampling: bool = False) -> Theorem28Sums:
    """The step-size sums of the proof of Theorem 28 (Han et al. 2024, App. A.6) and their printed bounds.

    ``S < N``: ``eta~_t = 1/(c sqrt(t+1))``; printed: ``sum eta~ >= (sqrt(T+1) - 1)/(45 lam^2 L_F)``,
    ``sum eta~^2 <= (ln T + 1)/c^2``, ``sum eta~^3 <= 3/c^3``, ``sum eta~^4 <= 2/c^4``.
    ``S = N``: ``eta~_t = beta^{2/3}/(c (t+1)^{1/3})``; printed: ``sum eta~ >= beta^{2/3} ((T+1)^{2/3} - 1)/(60 lam^2
    L_F)``, ``sum eta~^3 <= beta^2 (ln T + 1)/c^3``, ``sum eta~^5 <= (3/2) beta^{10/3}/c^5``; the last is wrong
    (``sum_{i<=T} i^{-5/3} > 3/2`` from ``T = 4``); corrected: ``(1 + (3/2)(1 - T^{-2/3})) beta^{10/3}/c^5 <
    (5/2) beta^{10/3}/c^5``. ``T`` is an int or a 1-d array of ints (then every entry is an array over ``T``).
    """
    if np.ndim(T) == 0:
        T = check_int(T, "T", 1)
        check_alloc(T, "the power sums (T terms)", T=T)
        Tf = float(T)
    else:
        T = np.asarray(T)
        if T.ndim != 1 or not np.issubdtype(T.dtype, np.integer) or T.size == 0 or T.min() < 1:
            raise ValueError(f"`T` must be an int >= 1 or a 1-d array of ints >= 1; got {T!r}")
        check_alloc(int(T.max()), "the power sums (max T terms)", T=int(T.max()))
        Tf = T.astype(float)
    lam = _pos(lam, "lam")
    L_F = lam if L_F is None else _pos(L_F, "L_F")
    _check_c(lam, L_F)
    beta = check_real(beta, "beta", 1, why="the theorems assume beta >= 1")
    no_sampling = check_bool(no_sampling, "no_sampling")
    c = 90 * lam ** 2 * L_F
    lnT1 = np.log(Tf) + 1
    if not no_sampling:
        sums = {k: _power_sum(T, k / 2) / c ** k for k in (1, 2, 3, 4)}
        bounds = {1: (np.sqrt(Tf + 1) - 1) / (45 * lam ** 2 * L_F), 2: lnT1 / c ** 2, 3: 3 / c ** 3 + 0 * Tf,
                  4: 2 / c ** 4 + 0 * Tf}
        corrected = {}
    else:
        b = beta ** (2 / 3)
        sums = {k: b ** k * _power_sum(T, k / 3) / c ** k for k in (1, 3, 5)}
        bounds = {1: b * ((Tf + 1) ** (2 / 3) - 1) / (60 * lam ** 2 * L_F), 3: beta ** 2 * lnT1 / c ** 3,
                  5: 1.5 * beta ** (10 / 3) / c ** 5 + 0 * Tf}
        corrected = {5: (1 + 1.5 * (1 - Tf ** (-2 / 3))) * beta ** (10 / 3) / c ** 5}
    check_finite_result([sums, bounds, corrected], "the sums and bounds", "T", lam=lam, L_F=L_F, beta=beta)
    return Theorem28Sums(sums=sums, bounds=bounds, corrected=corrected, no_sampling=no_sampling,
                         params=dict(T=T, lam=lam, L_F=L_F, beta=beta, c=c))


def theorem28_first_term(T, *, lam, L_F=None, Delta_F=1.0):
    """The initialisation term of the proof of Theorem 28 (Han et al. 2024, (33)): ``4 Delta_F/sum_{t<T} eta~_t``
    with ``eta~_t = 1/(90 lam^2 L_F sqrt(t+1))`` evaluated exactly, and the proof's bound ``180 lam^2 L_F Delta_F/
    (sqrt(T+1) - 1)``. Returns ``(chain, proof_bound)``; ``T`` an int."""
    T = check_int(T, "T", 1)
    check_alloc(T, "the power sum (T terms)", T=T)
    lam = _pos(lam, "lam")
    L_F = lam if L_F is None else _pos(L_F, "L_F")
    _check_c(lam, L_F)
    Delta_F = check_real(Delta_F, "Delta_F", 0)
    c = 90 * lam ** 2 * L_F
    chain = 4 * Delta_F * c / _power_sum(T, 0.5)
    return check_finite_result((chain, 180 * lam ** 2 * L_F * Delta_F / (math.sqrt(T + 1) - 1)), "the first term",
                               T=T, lam=lam, L_F=L_F, Delta_F=Delta_F)


# ----------------------------------------------------------------------------- slope fits
@dataclass(frozen=True)
class SlopeFit:
    """Least-squares slope of ``log mean_r Y[r, j]`` against ``log x_j`` with a percentile-bootstrap interval
    over the replicates ``r`` (the curves of one replicate are resampled together, which keeps their correlation
    across ``x``)."""

    slope: float
    ci: tuple
    intercept: float
    level: float
    n_boot: int
    x: np.ndarray
    mean: np.ndarray
    se: float = 0.0  #: bootstrap standard deviation of the slope

    def interval(self, level: float) -> tuple:
        """Normal-approximation interval ``slope -/+ z se`` at any ``level`` (e.g. a claim level of 1 - 1e-4, whose
        tail quantiles a percentile bootstrap of this size cannot resolve)."""
        from scipy import stats

        level = check_real(level, "level", 0, 1, True, True)
        z = float(stats.norm.ppf(0.5 + level / 2))
        return (self.slope - z * self.se, self.slope + z * self.se)

    def summary(self) -> str:
        return f"slope {self.slope:.3f} ({100 * self.level:g}% bootstrap CI [{self.ci[0]:.3f}, {self.ci[1]:.3f}])"

    __repr__ = summary


def loglog_slope(x, Y, *, level: float = 0.99, n_boot: int = 2000, seed=0) -> SlopeFit:
    """Fit ``log mean(Y) = a + b log x`` by least squares; percentile bootstrap over the rows of ``Y``
    (replicates, shape ``(r, len(x))``) for ``b``. ``x > 0``, ``Y >= 0`` with positive column means."""
    from ..random import as_generator

    x = check_finite_array(x, "x", 0, low_open=True)
    Y = check_finite_array(Y, "Y", 0)
    if x.ndim != 1 or x.size < 2 or Y.ndim != 2 or Y.shape[1] != x.size or Y.shape[0] < 2:
        raise ValueError(f"`x` must be 1-d with >= 2 points and `Y` (replicates >= 2, len(x)); got {x.shape}, {Y.shape}")
    level = check_real(level, "level", 0, 1, True, True)
    n_boot = check_int(n_boot, "n_boot", 10)
    check_alloc(n_boot * Y.size, "the bootstrap resamples (n_boot x replicates x len(x))", n_boot=n_boot, Y=Y.shape)
    lx = np.log(x)
    A = np.vstack([np.ones_like(lx), lx]).T
    m = Y.mean(0)
    if np.any(m <= 0):
        raise ValueError("`Y` must have positive column means")
    coef = np.linalg.lstsq(A, np.log(m), rcond=None)[0]
    rng = as_generator(seed)
    idx = rng.integers(0, Y.shape[0], (n_boot, Y.shape[0]))
    Mb = Y[idx].mean(1)  # (n_boot, len(x))
    Mb = np.maximum(Mb, np.finfo(float).tiny)
    pinv = np.linalg.pinv(A)
    slopes = (pinv @ np.log(Mb).T)[1]
    a = (1 - level) / 2
    lo, hi = np.quantile(slopes, [a, 1 - a])
    return SlopeFit(slope=float(coef[1]), ci=(float(lo), float(hi)), intercept=float(coef[0]), level=level,
                    n_boot=n_boot, x=x, mean=m, se=float(np.std(slopes, ddof=1)))


# ----------------------------------------------------------------------------- exact moments (shared curvature)
#: inner solvers of :func:`theorem15_exact_moments`: the exact minimiser, and the least favourable admissible one
THEOREM15_SOLVERS = ("exact", "saturating")


def _theorem15_rounds(t0: int, t1: int, *, c: float, beta: float, D: float, n: int, no_sampling: bool):
    """Theorem 15's ``eta~_t``, ``sqrt(nu_t)`` and capped batch ``min(D_t, n)`` for the rounds ``t0 <= t < t1``:
    the formulas of :func:`theorem15_schedule` on one block of rounds (so that ``T = 10^8`` rounds never sit in
    memory at once)."""
    t1p = np.arange(t0 + 1, t1 + 1, dtype=float)
    if no_sampling:
        r = np.cbrt(t1p)
        eta_tilde = (beta ** (2 / 3) / c) / r
        sqrt_nu = 1.0 / (math.sqrt(c) * beta ** (1 / 3) * r)
        req = (c * beta ** (2 / 3) / D) * (r * r)
    else:
        r = np.sqrt(t1p)
        eta_tilde = (1.0 / c) / r
        sqrt_nu = np.sqrt(eta_tilde)  # nu_t = eta~_t
        req = (c / D) * r
    return eta_tilde, sqrt_nu, _batches(req, n)[1]


@dataclass(frozen=True)
class Theorem15Moments:
    """Exact law-level quantities of Algorithm 1 under Theorem 15's schedules (:func:`theorem15_exact_moments`),
    for each inner solver of :data:`THEOREM15_SOLVERS` (first axis).

    Attributes
    ----------
    T : (m,) int array, horizons; Y : (2, m) ``E||grad F(w~_{t*})||^2`` at each horizon, the law of ``t*`` exact
        (``P(t* = i) = eta_i/sum_{j<T} eta_j``); t : (k,) int array, rounds with recorded moments; mean : (2, k)
        ``E[w~_t] - w~*``; var : (k,) ``Var(w~_t)`` (the same for both solvers); grad_sq : (2, k)
        ``E||grad F(w~_t)||^2 = h^2 (mean^2 + var)``; params : the inputs and the derived ``h``, ``c``, ``w_star``.
    """

    T: np.ndarray
    Y: np.ndarray
    t: np.ndarray
    mean: np.ndarray
    var: np.ndarray
    grad_sq: np.ndarray
    params: dict

    def summary(self) -> str:
        return (f"Theorem15Moments({'S = N' if self.params['no_sampling'] else 'S < N'}, T = {int(self.T[0])}.."
                f"{int(self.T[-1])}, Y(T_max) = {self.Y[0, -1]:.4g} (exact solver), {self.Y[1, -1]:.4g} (saturating))")

    __repr__ = summary


def _horner_phi(q, R):
    """``1 - (1 - q)^R`` as the polynomial ``sum_j (-1)^(j+1) C(R, j) q^j`` (no cancellation for small ``q``)."""
    out = np.full_like(q, float((-1) ** (R + 1)))
    for j in range(R - 1, 0, -1):
        out *= q
        out += (-1) ** (j + 1) * math.comb(R, j)
    return out * q


def theorem15_exact_moments(T, *, curvature: float, lam: float, theta, theta_var, n: int, S: int, R: int,
                            beta: float, D: float, no_sampling: bool, w0: float = 0.0, L_F: float | None = None,
                            record_t=(), block: int = 1 << 16) -> Theorem15Moments:
    """Exact first and second moments of Algorithm 1 (p = 2) under Theorem 15's schedules on a one-dimensional
    shared-curvature instance, by a deterministic recursion run to any horizon (Han, Li, Lin and Zhang 2024,
    Theorem 15 / Theorem 28 and Algorithm 1 lines 4-12).

    Instance. ``d_sub = 1`` and every per-sample loss of every client is ``f~(z; xi_i) = curvature/2 (z -
    theta_i)^2 + const`` in the coordinate ``z`` of ``row(P)`` (least squares whose rows are ``+-sqrt(curvature)
    p``, ``p`` the unit row of an orthonormal ``P``: Assumption 6 holds, and Assumptions 2 and 5 hold for every
    ``w`` because every sample has the same Hessian). Client ``k``'s targets have mean ``theta[k]`` and population
    variance ``theta_var[k]``. Then ``F_k(w) = h/2 (w - theta_k)^2 + const``, ``h = lam curvature/(lam +
    curvature)``, ``w~* = mean_k theta_k`` and ``grad F(w) = h (w - w~*)``.

    Dynamics. Round ``t``: each client takes ``R`` local steps ``w <- w - eta_t lam (w - z)`` with ``z`` the
    minimiser of its mini-batch problem (3) (solver ``"exact"``) or that minimiser moved by ``+sqrt(nu_t)/(curvature
    + lam)``, an inner solution with ``||grad h~_k||^2 = nu_t`` and a fixed sign (solver ``"saturating"``, the least
    favourable admissible inner solver for the bias); mini-batches of ``min(D_t, n)`` samples without replacement,
    fresh at every local step; the server averages ``S`` clients drawn uniformly without replacement, ``w~_{t+1} =
    (1 - beta) w~_t + beta mean_{S_t} w~_{k,R}``. With ``q = eta_t h``, ``phi = 1 - (1 - q)^R``, the error ``e_t =
    w~_t - w~*`` obeys ``e_{t+1} = (1 - beta phi) e_t + b_t + zeta_t``: a deterministic bias ``b_t = beta phi lam
    sqrt(nu_t)/((curvature + lam) h)`` (0 for the exact solver) and a zero-mean noise independent of ``e_t`` with
    ``Var zeta_t = beta^2 phi^2 c_S var_theta + beta^2 q^2 (sum_{r<R} (1-q)^{2r}) rho_b mean_k theta_var[k]/S``,
    ``c_S = (N/S - 1)/(N - 1)`` (sampling without replacement), ``var_theta`` the population variance of the
    ``theta_k`` and ``rho_b = (n - b)/(b (n - 1))``. Hence, exactly, ``E e_{t+1} = (1 - beta phi) E e_t + b_t`` and
    ``Var e_{t+1} = (1 - beta phi)^2 Var e_t + Var zeta_t``, solved in closed form over blocks of rounds.

    Parameters
    ----------
    T : array_like of int
        Horizons (increasing ints >= 1) at which the weighted average ``E||grad F(w~_{t*})||^2`` (``t*`` drawn with
        ``P(t* = t) = eta_t / sum_{s<T} eta_s``) is returned.
    curvature, lam : float
        The per-sample curvature (Assumption 4's ``L``) and ``lam``.
    theta, theta_var : array_like, shape (N,)
        Per-client sample means and population variances of the targets.
    n, S, R : int
        Samples per client, clients sampled per round, local steps.
    beta, D : float
        Theorem 15's schedule constants.
    no_sampling : bool
        ``S = N`` schedules.
    w0 : float
        The initial ``w~_0``.
    L_F : float, optional
        Defaults to ``lam``.
    record_t : sequence of int
        Rounds whose moments are returned.
    block : int
        Rounds per closed-form block.

    Returns
    -------
    Theorem15Moments
    """
    Ts = np.asarray(T)
    if (Ts.ndim != 1 or Ts.size < 1 or not np.issubdtype(Ts.dtype, np.integer) or np.any(Ts < 1)
            or np.any(np.diff(Ts) <= 0)):
        raise ValueError("`T` must be a non-empty increasing 1-d array of ints >= 1")
    Ts = Ts.astype(np.int64)
    curvature = _pos(curvature, "curvature", "the per-sample curvature (Assumption 4's L)")
    lam = _pos(lam, "lam")
    L_F = lam if L_F is None else _pos(L_F, "L_F")
    _check_c(lam, L_F)
    theta = check_finite_array(theta, "theta")
    theta_var = check_finite_array(theta_var, "theta_var", 0)
    if theta.ndim != 1 or theta.shape != theta_var.shape or theta.size < 2:
        raise ValueError("`theta` and `theta_var` must be 1-d of the same length N >= 2")
    N = theta.size
    n = check_int(n, "n", 2, why="samples per client")
    S = check_int(S, "S", 1, N, why=f"1 <= S <= N = {N}")
    R = check_int(R, "R", 1)
    beta = check_real(beta, "beta", 1, why="Theorem 15 assumes beta >= 1")
    D = _pos(D, "D", "the batch-schedule constant D must be positive")
    no_sampling = check_bool(no_sampling, "no_sampling")
    if no_sampling and S != N:
        raise ValueError(f"`no_sampling`=True needs S = N = {N}; got S={S}")
    w0 = check_real(w0, "w0")
    block = check_int(block, "block", 16)
    rec = np.unique(np.asarray(record_t, dtype=np.int64))
    if rec.size and (rec[0] < 0 or rec[-1] > Ts[-1]):
        raise ValueError(f"`record_t` must lie in [0, max(T)] = [0, {int(Ts[-1])}]")
    T_max = int(Ts[-1])
    check_iterations(T_max, "the moment recursion (rounds)", T=T_max)
    h = lam * curvature / (lam + curvature)
    c = 90.0 * lam ** 2 * L_F
    w_star = float(theta.mean())
    K_S = (N / S - 1) / (N - 1) * float(np.mean((theta - w_star) ** 2))  # c_S var_theta
    K_b = float(theta_var.mean()) / S
    bias_unit = lam / ((curvature + lam) * h)
    qk = h / (beta * R)
    m = np.array([w0 - w_star, w0 - w_star])  # E e_t, exact and saturating solvers
    v = 0.0
    num, den = np.zeros(2), 0.0
    Y, out_m, out_v = np.empty((2, Ts.size)), np.empty((2, rec.size)), np.empty(rec.size)
    k_T = k_r = 0
    while k_r < rec.size and rec[k_r] == 0:
        out_m[:, k_r], out_v[k_r] = m, v
        k_r += 1
    t = 0
    full_from = None  # first round with the full batch (min(D_t, n) = n from then on: D_t increases)
    while t < T_max:
        t_end = min(t + block, T_max)
        et, sq_nu, b = _theorem15_rounds(t, t_end, c=c, beta=beta, D=D, n=n, no_sampling=no_sampling)
        q = et * qk
        bphi = _horner_phi(q, R)
        bphi *= beta
        if bphi[0] >= 1:  # bphi decreases with t
            raise ValueError("beta (1 - (1 - eta_t h)^R) >= 1 at the first round: the schedule overshoots on this "
                             "instance (1 - beta phi_t <= 0)")
        log_a = np.log1p(-bphi)
        L = np.cumsum(log_a)
        if L[-1] < -150:  # keep |sum log a| <= 150 in one closed-form block (the variance uses 2 L)
            cut = max(int(np.searchsorted(-L, 150.0)), 1)
            t_end = t + cut
            et, sq_nu, b, q, bphi, L = (a[:cut] for a in (et, sq_nu, b, q, bphi, L))
        E = np.exp(L)
        iE = 1.0 / E
        # variance: Var e_{s+1} = a_s^2 Var e_s + Var zeta_s
        var_z = bphi * bphi
        var_z *= K_S
        if full_from is None:
            part = b < n
            if np.any(part):
                qq = q[part]
                kappa2 = -np.expm1(2 * R * np.log1p(-qq)) / (qq * (2 - qq))  # sum_{r<R} (1-q)^{2r}
                bb = b[part].astype(float)
                var_z[part] += (beta * qq) ** 2 * kappa2 * ((n - bb) / (bb * (n - 1.0))) * K_b
            if not part[-1]:
                full_from = t + int(np.argmin(part))
        E2, iE2 = E * E, iE * iE
        vs = E2 * (v + np.cumsum(var_z * iE2))
        # means: the exact solver has no bias; the saturating one adds b_s
        bias = bphi * sq_nu
        bias *= bias_unit
        ms = np.empty((2, E.size))
        np.multiply(E, m[0], out=ms[0])
        ms[1] = E * (m[1] + np.cumsum(bias * iE))
        # E||grad F(w~_s)||^2 for s = t..t_end-1: the moments before each round's update
        gv = np.empty(E.size)
        gv[0], gv[1:] = v, vs[:-1]
        gm = np.empty((2, E.size))
        gm[:, 0], gm[:, 1:] = m, ms[:, :-1]
        g = (gm * gm + gv) * (h * h)
        cn = num[:, None] + np.cumsum(g * et, axis=1)
        cd = den + np.cumsum(et)
        while k_T < Ts.size and Ts[k_T] <= t_end:  # horizon T averages rounds 0..T-1
            j = int(Ts[k_T]) - t - 1
            Y[:, k_T] = cn[:, j] / cd[j]
            k_T += 1
        while k_r < rec.size and rec[k_r] <= t_end:
            j = int(rec[k_r]) - t - 1
            out_m[:, k_r], out_v[k_r] = ms[:, j], vs[j]
            k_r += 1
        m, v, num, den = ms[:, -1].copy(), float(vs[-1]), cn[:, -1].copy(), float(cd[-1])
        t = t_end
    check_finite_result([Y, out_m, out_v], "the exact moments", "lam", "curvature", "theta", beta=beta)
    params = dict(curvature=curvature, lam=lam, L_F=L_F, h=h, c=c, w_star=w_star, N=N, n=n, S=S, R=R, beta=beta,
                  D=D, no_sampling=no_sampling, w0=w0, solvers=THEOREM15_SOLVERS, full_batch_from=full_from)
    return Theorem15Moments(T=Ts, Y=Y, t=rec, mean=out_m, var=out_v, grad_sq=h * h * (out_m ** 2 + out_v),
                            params=params)


_guard_module(globals(), __all__)
