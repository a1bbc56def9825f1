"""Closed forms of "Federated Optimization of Smooth Loss Functions" (FedLRGD).

Source: Jadbabaie, Makur and Shah, "Federated Optimization of Smooth Loss Functions", IEEE Trans. Inf. Theory 2023. Equation numbers
are the paper's. ``l = ceil(eta) - 1`` throughout. Printed forms that we believe wrong are
available as ``variant="printed"`` (see the ``fedlrgd.*.erratum`` claims).
"""
from __future__ import annotations

import math

import numpy as np
from scipy.special import gammaln

from .._validation import check_choice, check_finite_array, check_finite_result, check_int, check_real
from .._validation import guard_module as _guard_module

__all__ = ["holder_l", "theorem1_bound", "theorem1_min_rank", "lemma1_bound", "inequality52",
           "erlang_quantile_bounds", "erlang_max_approximation", "theorem2_r", "theorem2_S",
           "theorem2_K1", "fedlrgd_gamma", "fedave_constraint_T", "fedave_gamma_numeric",
           "fedave_b_star_viete", "fedave_bracket", "lemma4_gap", "proposition1_ratio"]


def _out(x):
    x = np.asarray(x, dtype=float)
    return float(x) if x.ndim == 0 else x


def _fin(x, what, **params):
    """``_out(x)`` after checking it is finite (a float64 overflow raises a ValueError naming the inputs)."""
    return _out(check_finite_result(x, what, **params))


def holder_l(eta):
    """``l = ceil(eta) - 1`` (Section II-B, eq. (6))."""
    eta = check_real(eta, "eta", 0, low_open=True, why="Hoelder smoothness")
    return int(math.ceil(eta) - 1)


def theorem1_min_rank(d: int = 2, eta: float = 2.0) -> float:
    """Smallest rank Theorem 1 covers: ``r* = e sqrt(d) 2^d (l + d)^d`` (a float).

    Jadbabaie, Makur and Shah, IEEE Trans. Inf. Theory 2023, Theorem 1 (the condition makes q >= 1 in its proof).
    """
    d = check_int(d, "d", 1)
    l = holder_l(eta)
    try:
        out = math.e * math.sqrt(d) * 2.0 ** d * (l + d) ** d
    except OverflowError:
        out = math.inf
    return check_finite_result(out, "r*", d=d, eta=eta)


def theorem1_bound(r, d: int = 2, eta: float = 2.0, L2: float = 1.0, variant: str = "corrected"):
    """Right side of Theorem 1 (Jadbabaie, Makur and Shah, IEEE Trans. Inf. Theory 2023): for r >= r*,

    ``(1/(n k)) ||M - M_r||_F^2 <= L2^2 e^{2 eta/d} d^{eta/d} 4^eta (l+d)^{2 eta} / (l!)^2 * r^{-2 eta/d}``.

    The statement prints ``(l)^2`` in the denominator (``variant="printed"``; infinite for
    ``l = 0``); the proof's last line has ``(l!)^2`` (default). Broadcasts over ``r``;
    NaN where ``r < r*`` (outside the theorem). ``eta`` must keep ``l!`` and the constant within
    float64 (a ``ValueError`` naming ``eta``, ``d`` otherwise).

    Examples
    --------
    The bound is NaN below the smallest rank ``r*`` the theorem covers:

    >>> from fedtheory.lowrank.theory import theorem1_bound, theorem1_min_rank
    >>> round(theorem1_min_rank(d=2, eta=2.0), 2)
    138.39
    >>> theorem1_bound([100.0, 400.0], d=2, eta=2.0)
    array([       nan, 0.11970271])
    """
    d = check_int(d, "d", 1)
    l = holder_l(eta)
    check_int(l, "eta", 0, 170, why="l = ceil(eta) - 1 must keep l! within float64: eta <= 171")
    L2 = check_real(L2, "L2", 0, low_open=True)
    check_choice(variant, "variant", ("corrected", "printed"))
    r = check_finite_array(r, "r")
    if np.any(r < 1):
        raise ValueError(f"`r` must be >= 1; got r={r!r}")
    denom = math.factorial(l) ** 2 if variant == "corrected" else float(l) ** 2
    try:
        with np.errstate(divide="ignore"):
            c = L2 ** 2 * math.exp(2 * eta / d) * d ** (eta / d) * 4.0 ** eta * (l + d) ** (2 * eta) / denom \
                if denom > 0 else math.inf
    except OverflowError:
        c = math.inf
    if not math.isfinite(c) and denom > 0:
        raise ValueError(f"the constant of Theorem 1 overflows float64 for `eta`={eta!r}, `d`={d}, `L2`={L2!r}")
    out = c * r ** (-2 * eta / d)
    return _out(np.where(r >= theorem1_min_rank(d, eta) * (1 - 1e-12), out, np.nan))


def lemma1_bound(q, eta: float, L2: float = 1.0):
    """Lemma 1: ``sup |g - P_{q,l}| <= L2 / (l! q^eta)`` on an l1 cover of radius 1/q."""
    l = holder_l(eta)
    L2 = check_real(L2, "L2", 0, low_open=True)
    q = check_finite_array(q, "q")
    if np.any(q <= 0):
        raise ValueError(f"`q` must be > 0; got q={q!r}")
    check_int(l, "eta", 0, 170, why="l! must be representable: eta <= 171")
    with np.errstate(over="ignore", under="ignore"):
        out = L2 / (math.factorial(l) * q ** eta)
    return _fin(out, "the Lemma 1 bound", q=q, eta=eta, L2=L2)


def inequality52(d, l):
    """Both sides of (52): ``(d! C(l+d, d), e sqrt(d) (l+d)^d)`` (log-space, returned as floats)."""
    d, l = check_finite_array(d, "d", 1), check_finite_array(l, "l", 0)
    lhs = np.exp(gammaln(d + 1) + gammaln(l + d + 1) - gammaln(l + 1) - gammaln(d + 1))
    rhs = math.e * np.sqrt(d) * (l + d) ** d
    return _fin(lhs, "the left side of (52)", d=d, l=l), _fin(rhs, "the right side of (52)", d=d, l=l)


def erlang_quantile_bounds(b, q):
    """Proposition 2 (Jadbabaie, Makur and Shah, IEEE Trans. Inf. Theory 2023, Appendix B): for ``Y ~ Erlang(b, 1)`` and integer
    ``q >= 2`` with ``(q - 1) b >= 55``,

    ``(1/2) log(q-1) + (1/2) log b <= F_Y^{-1}(1 - 1/q) <= 2 log(q-1) + 2 b log(2b)``.

    Returns ``(lower, upper)``; broadcasts. Raises for ``q < 2`` or ``b < 1``; the
    condition ``(q-1) b >= 55`` is the proposition's and is not enforced.
    """
    b0, q0 = b, q
    b, q = check_finite_array(b, "b"), check_finite_array(q, "q")
    if np.any(q < 2):
        raise ValueError(f"`q` must be >= 2 in Proposition 2; got q={q0!r}")
    if np.any(b < 1):
        raise ValueError(f"`b` must be >= 1 (Erlang shape); got b={b0!r}")
    return (_out(0.5 * np.log(q - 1) + 0.5 * np.log(b)),
            _fin(2 * np.log(q - 1) + 2 * b * np.log(2 * b), "the upper bound", b=b0, q=q0))


def erlang_max_approximation(b, k):
    """Approximation (19): ``b + E[max of k Erlang(b, 1)] ~ log(k) + 2b`` (an approximation, not a bound)."""
    k = check_finite_array(k, "k", 1)
    b = check_finite_array(b, "b", 0)
    return _fin(np.log(k) + 2 * b, "the approximation (19)", b=b, k=k)


def theorem2_K1(d: int, eta: float, L2: float = 1.0) -> float:
    """``K_1 = L2^d eta^d e^{eta(d+1)} d^{eta/2} (2 eta + 2d)^{eta d} / (eta - 1)^{eta d}`` (Theorem 2), in log space.

    ``d >= 1``, ``eta > 1``, ``L2 > 0``; returns ``inf`` where ``K_1`` exceeds float64 (documented)."""
    d = check_int(d, "d", 1)
    eta = check_real(eta, "eta", 1, low_open=True, why="K_1 has (eta - 1) in a denominator")
    L2 = check_real(L2, "L2", 0, low_open=True)
    logK = _theorem2_log_K1(d, eta, L2)
    return math.exp(logK) if logK < 700 else math.inf


def _theorem2_log_K1(d, eta, L2):
    """``log K_1`` of Theorem 2 from validated ``d >= 1`` (int), ``eta > 1``, ``L2 > 0`` (floats)."""
    return d * math.log(L2) + d * math.log(eta) + eta * (d + 1) + eta / 2 * math.log(d) \
        + eta * d * (math.log(2 * eta + 2 * d) - math.log(eta - 1))


def _A_term(B, p, mu, c):
    """``9 (B+3)^4 p / (c mu)``; a ``ValueError`` naming ``B``, ``p``, ``mu`` where it overflows float64."""
    try:
        out = 9 * (B + 3) ** 4 * p / (c * mu)
    except OverflowError:
        out = math.inf
    return check_finite_result(out, "9 (B+3)^4 p/mu", B=B, p=p, mu=mu)


def _theorem2_iv(d, eta, alpha, kappa, eps, B, mu, p):
    d = check_int(d, "d", 1)
    check_real(eta, "eta", 0, low_open=True)
    check_real(alpha, "alpha", 1)
    check_real(kappa, "kappa", 1, low_open=True, why="(48) needs kappa > 1")
    check_real(mu, "mu", 0, low_open=True)
    check_real(B, "B", 0, low_open=True)
    p = check_int(p, "p", 1)
    eps_max = _A_term(B, p, mu, 8)
    check_real(eps, "epsilon", 0, eps_max, low_open=True, why="Theorem 2: 0 < `eps` <= 9(B+3)^4 p/(8 mu)")
    if eta <= (2 * alpha + 2) * d:
        raise ValueError(f"`eta` must exceed (2 alpha + 2) d = {(2 * alpha + 2) * d:g} for Theorem 2; got eta={eta}")
    return d, p


def theorem2_r(d: int, eta: float, *, alpha: float = 1.0, kappa: float = 2.0, eps: float = 0.01,
               B: float = 1.0, mu: float = 0.1, p: int = 1, L2: float = 1.0, F0_gap: float = 1.0,
               variant: str = "corrected") -> float:
    """Rank r of Theorem 2, eq. (47), computed in log space (may be inf).

    ``A = F(theta0) - F* + 9 (B+3)^4 p/(2 mu)``; second term ``(K_1 (kappa A/((kappa-1) eps))^{d/2})^{1/(eta - (2 alpha + 2) d)}``.
    ``variant="corrected"``: ``ceil(max{e sqrt(d) 2^d (eta+d)^d, second term})`` (exponent on the
    second term only, as the proof and Appendix E need); ``"printed"``: the exponent applies to
    the max of both terms, as typeset.
    """
    d, p = _theorem2_iv(d, eta, alpha, kappa, eps, B, mu, p)
    check_choice(variant, "variant", ("corrected", "printed"))
    L2 = check_real(L2, "L2", 0, low_open=True)
    F0_gap = check_real(F0_gap, "F0_gap", 0)
    return _theorem2_r(d, eta, alpha, kappa, eps, F0_gap + _A_term(B, p, mu, 2), L2, variant)


def _theorem2_r(d, eta, alpha, kappa, eps, A, L2, variant):
    """(47) from validated inputs, ``A = F(theta0) - F* + 9 (B+3)^4 p/(2 mu)``: the kernel of :func:`theorem2_r`."""
    expo = 1.0 / (eta - (2 * alpha + 2) * d)
    logK = _theorem2_log_K1(d, float(eta), L2)
    logK = math.log(math.exp(logK)) if logK < 700 else logK  # log of theorem2_K1 where it is finite
    log_inner = logK + d / 2 * math.log(kappa * A / ((kappa - 1) * eps))
    log_first = 1 + 0.5 * math.log(d) + d * math.log(2) + d * math.log(eta + d)
    if variant == "corrected":
        logr = max(log_first, expo * log_inner)
    else:
        logr = expo * max(log_first, log_inner)
    return math.ceil(math.exp(logr)) if logr < 700 else math.inf


def theorem2_S(*, kappa: float = 2.0, eps: float = 0.01, B: float = 1.0, mu: float = 0.1, p: int = 1,
               F0_gap: float = 1.0) -> int:
    """Inexact-GD iterations (48): ``S = ceil(log(A/eps) / log(kappa/(kappa - 1)))``."""
    check_real(kappa, "kappa", 1, low_open=True, why="(48) needs kappa > 1")
    check_real(eps, "epsilon", 0, low_open=True, why="the accuracy `eps`")
    check_real(B, "B", 0, low_open=True)
    check_real(mu, "mu", 0, low_open=True)
    p = check_int(p, "p", 1)
    check_real(F0_gap, "F0_gap", 0)
    A = F0_gap + _A_term(B, p, mu, 2)
    check_finite_result(A, "A = F0_gap + 9 (B+3)^4 p/(2 mu)", B=B, mu=mu, p=p, F0_gap=F0_gap)
    return _theorem2_S(kappa, eps, A, dict(kappa=kappa, eps=eps, B=B, mu=mu, p=p, F0_gap=F0_gap))


def _theorem2_S(kappa, eps, A, names):
    """(48) from validated ``kappa``, ``eps`` and ``A``: the kernel of :func:`theorem2_S`; a float64 overflow of
    ``S`` raises :func:`theorem2_S`'s ``ValueError`` naming ``names``."""
    with np.errstate(all="ignore"):
        S = float(np.float64(math.log(A / eps) if A / eps < math.inf else math.inf) / math.log(kappa / (kappa - 1)))
    if not math.isfinite(S):
        check_finite_result(S, "S (48)", **names)
    return int(math.ceil(S))


def _gamma(r, s, S, m, phi, tau):
    r, s, S, m, phi = (np.asarray(x, float) for x in (r, s, S, m, phi))
    return r ** 2 + r * s + r * S + phi * tau * m * r


def fedlrgd_gamma(r, s, S, m, phi, tau: float = 1.0):
    """Federated oracle complexity of FedLRGD (Theorem 2): ``r^2 + r s + r S + phi tau m r``."""
    r, s, S, m, phi = (check_finite_array(x, name, 0) for x, name in ((r, "r"), (s, "s"), (S, "S"), (m, "m"),
                                                                       (phi, "phi")))
    tau = check_real(tau, "tau", 0)
    return _fin(r ** 2 + r * s + r * S + phi * tau * m * r, "Gamma", r=r, s=s, S=S, m=m, phi=phi, tau=tau)


def fedave_constraint_T(b, m, eps_t, C):
    """Smallest T meeting (78)-(79): ``T = bC/(2 m eps_t) + sqrt((bC/(2 m eps_t))^2 + C m^2/(eps_t b^2))`` (80)."""
    b = check_finite_array(b, "b", 0, low_open=True)
    m = check_finite_array(m, "m", 0, low_open=True)
    eps_t = check_finite_array(eps_t, "eps_t", 0, low_open=True)
    C = check_finite_array(C, "C", 0, low_open=True)
    with np.errstate(over="ignore"):
        out = _constraint_T(b, m, eps_t, C)
    return _fin(out, "T (80)", b=b, m=m, eps_t=eps_t, C=C)


def _constraint_T(b, m, eps_t, C):
    b = np.asarray(b, float)
    a = b * C / (2 * m * eps_t)
    return _out(a + np.sqrt(a ** 2 + C * m ** 2 / (eps_t * b ** 2)))


def fedave_gamma_numeric(m, phi, tau, eps_t, C):
    """Numerical minimum of (79): ``min_{b > 0} T(b) (b + phi tau m)`` with T from (80).

    Returns ``(Gamma_min, b_star, T_star)``; the minimisation is over a log grid refined by
    ``scipy.optimize.minimize_scalar`` (bounded, in log b).
    """
    from scipy.optimize import minimize_scalar

    m, phi, tau, eps_t, C = _fedave_args(m, phi, tau, eps_t, C)
    if not math.log(1e8 * m) > -10:
        raise ValueError(f"`m` must exceed about 4.5e-13 (the grid of b runs from e^-10 to 1e8 m); got m={m!r}")
    f = lambda lb: _constraint_T(math.exp(lb), m, eps_t, C) * (math.exp(lb) + phi * tau * m)  # noqa: E731
    grid = np.linspace(-10, math.log(1e8 * m), 4000)
    vals = np.array([f(x) for x in grid])
    i = int(np.argmin(vals))
    res = minimize_scalar(f, bounds=(grid[max(i - 1, 0)], grid[min(i + 1, grid.size - 1)]), method="bounded",
                          options={"xatol": 1e-12})
    b = math.exp(res.x)
    return check_finite_result((float(res.fun), b, float(fedave_constraint_T(b, m, eps_t, C))), "Gamma_min",
                               m=m, phi=phi, tau=tau, eps_t=eps_t, C=C)


def _fedave_args(m, phi, tau, eps_t, C):
    """``m, phi, tau, eps_t, C`` as finite floats > 0 (``phi, tau >= 0``)."""
    return (check_real(m, "m", 0, low_open=True), check_real(phi, "phi", 0), check_real(tau, "tau", 0),
            check_real(eps_t, "eps_t", 0, low_open=True), check_real(C, "C", 0, low_open=True))


def fedave_b_star_viete(m, phi, tau, eps_t, C):
    """Viete root of (86)-(87): ``b* = (C3/3)(sin((1/3) arcsin(1 - 54 C2/(C1 C3^2)) + 2 pi/3) - 1/2)`` with
    ``C1 = C/(2 m eps_t)``, ``C2 = m sqrt(C/eps_t)``, ``C3 = phi tau m`` (minimiser of g(b) = (C1 b + C2/b)(b + C3))."""
    m, phi, tau, eps_t, C = _fedave_args(m, phi, tau, eps_t, C)
    C1, C2, C3 = C / (2 * m * eps_t), m * math.sqrt(C / eps_t), phi * tau * m
    with np.errstate(all="ignore"):
        arg = float(1 - 54 * C2 / (C1 * np.float64(C3) ** 2))
    if not -1 <= arg <= 1:
        raise ValueError(f"the Viete form needs |1 - 54 C2/(C1 C3^2)| <= 1 (phi large enough, (88)); got {arg:.4g} "
                         f"for `m`={m!r}, `phi`={phi!r}, `tau`={tau!r}, `eps_t`={eps_t!r}, `C`={C!r}")
    return check_finite_result(C3 / 3 * (math.sin(math.asin(arg) / 3 + 2 * math.pi / 3) - 0.5), "b*", m=m, phi=phi,
                               tau=tau, eps_t=eps_t, C=C)


def fedave_bracket(m, phi, tau, eps_t, C):
    """Theorem 3's bracket: ``(3/4) phi tau m (C/eps_t)^{3/4} <= Gamma <= 8 phi tau m (C/eps_t)^{3/4}`` and
    (89) ``(m/2)(eps_t/C)^{1/4} <= b* <= 2 m (eps_t/C)^{1/4}``."""
    m, phi, tau, eps_t, C = _fedave_args(m, phi, tau, eps_t, C)
    base = phi * tau * m * (C / eps_t) ** 0.75
    bb = m * (eps_t / C) ** 0.25
    return check_finite_result(((0.75 * base, 8 * base), (0.5 * bb, 2 * bb)), "the bracket", m=m, phi=phi, tau=tau,
                               eps_t=eps_t, C=C)


def lemma4_gap(t):
    """Lemma 4: ``|sin((1/3) arcsin(1 - t^2) + 2pi/3) - 1/2 - t/sqrt(6)|`` and its bound ``5 t^2/9``."""
    t = check_finite_array(t, "t", 0, math.sqrt(2), why="arcsin(1 - t^2) needs t^2 <= 2")
    return _out(np.abs(np.sin(np.arcsin(1 - t ** 2) / 3 + 2 * np.pi / 3) - 0.5 - t / math.sqrt(6))), _out(5 * t ** 2 / 9)


def proposition1_ratio(p_over_eps, *, m, phi, d: int = 1, c1: float = 4.0, alpha: float = 1.0, kappa: float = 2.0,
                       B: float = 1.0, mu: float = 0.1, L2: float = 1.0, s: int | None = None, C: float = 1.0,
                       tau: float = 1.0):
    """Gamma(FedLRGD)/Gamma_+(FedAve) along Proposition 1's scalings (Appendix E):
    ``eta = (c1 + 2 alpha + 2) d``, ``p = 1``, ``eps = 1/p_over_eps``; FedLRGD uses the corrected (47) r and (48) S,
    FedAve the upper end ``8 phi tau m (C/eps_t)^{3/4}`` of Theorem 3. ``inf`` where the rank r of (47)
    exceeds float64 (as :func:`theorem2_r` returns)."""
    d = check_int(d, "d", 1)
    c1 = check_real(c1, "c1", 0, low_open=True)
    alpha = check_real(alpha, "alpha", 1)
    m = check_real(m, "m", 0, low_open=True)
    phi = check_real(phi, "phi", 0, low_open=True)
    C = check_real(C, "C", 0, low_open=True)
    tau = check_real(tau, "tau", 0, low_open=True)
    s = m if s is None else check_real(s, "s", 0)
    pe_all = check_finite_array(p_over_eps, "p_over_eps", 0, low_open=True)
    if pe_all.ndim > 1:
        raise ValueError(f"`p_over_eps` must be a scalar or a 1-D array; got shape {pe_all.shape}")
    eta = (c1 + 2 * alpha + 2) * d
    if not eta > (2 * alpha + 2) * d:
        raise ValueError(f"`c1` too small: eta = (c1 + 2 alpha + 2) d rounds to (2 alpha + 2) d; got c1={c1!r}")
    out, eps_max, A = [], None, None
    for pe in np.atleast_1d(pe_all):
        eps = 1.0 / pe
        if eps_max is None or not 0 < eps <= eps_max:  # the entries' checks: first point, and an eps they refuse
            r = theorem2_r(d, eta, alpha=alpha, kappa=kappa, eps=eps, B=B, mu=mu, p=1, L2=L2)
            S = theorem2_S(kappa=kappa, eps=eps, B=B, mu=mu, p=1)
            eps_max, A = _A_term(B, 1, mu, 8), 1.0 + _A_term(B, 1, mu, 2)  # as theorem2_r and theorem2_S form them
        else:
            r = _theorem2_r(d, eta, alpha, kappa, eps, A, float(L2), "corrected")
            S = _theorem2_S(kappa, eps, A, dict(kappa=kappa, eps=eps, B=B, mu=mu, p=1, F0_gap=1.0))
        with np.errstate(over="ignore", invalid="ignore"):
            g1 = _out(_gamma(r, s, S, m, phi, tau))
        g2 = 8 * phi * tau * m * (C * pe) ** 0.75
        out.append(g1 / g2)
    return _out(np.array(out))


# every public function turns float64 overflows, linear-algebra failures and broadcasting errors
# into ValueErrors naming its parameters (fedtheory._validation.guard_numeric_errors)
_guard_module(globals(), __all__)
