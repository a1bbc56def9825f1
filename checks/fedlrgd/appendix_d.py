"""Appendix D of Jadbabaie, Makur and Shah (2023), *Federated Optimization of Smooth Loss Functions*, IEEE Trans.
Inf. Theory (proof of Theorem 3): the sandwich (85), the discriminant of (87) with the sufficient thresholds
implied by (88), the note "T >= T0" after (81), and Lemma 4, decided by :mod:`fedtheory.decide`. Lemma 3 and the
constant C of (78) are checked on measured FedAve runs in :mod:`.fedave_runs`.

Referees: an independent numerical minimisation (coarse log grid + scipy's bounded Brent, with T found by
``scipy.optimize.brentq`` on the constraint of (79) instead of the closed form (80)); sympy for the identities;
exact monotonicity arguments in sympy for the threshold implications.
"""
from __future__ import annotations

import itertools
import math

import numpy as np
from fedtheory import decide
from fedtheory._validation import check_int, check_real
from fedtheory.lowrank import lemma4_gap
from fedtheory.lowrank.fedave import lemma3_T0
from fedtheory.lowrank.theory import fedave_b_star_viete, fedave_constraint_T, fedave_gamma_numeric
from . import PAPER


# ----------------------------------------------------------------------------- independent referees
def _T_root(b, m, eps_t, C):
    """Smallest T > 0 meeting the constraint of (79) with equality, by bracketing root finding (not (80))."""
    from scipy.optimize import brentq

    f = lambda T: m ** 2 / (T * b) ** 2 + b / (m * T) - eps_t / C  # noqa: E731  decreasing in T
    hi = 1.0
    while f(hi) > 0:
        hi *= 4
    lo = hi / 4
    while f(lo) <= 0:
        lo /= 4
    return brentq(f, lo, hi, xtol=1e-300, rtol=1e-15, maxiter=400)


def _min_over_log_b(fun, m):
    """Minimum of a unimodal function of ``u = log b``: 80-point grid on [-20, log(1e6 m)], then bounded Brent."""
    from scipy.optimize import minimize_scalar

    grid = np.linspace(-20.0, math.log(1e6 * m), 80)
    vals = [fun(u) for u in grid]
    i = int(np.argmin(vals))
    res = minimize_scalar(fun, bounds=(grid[max(i - 1, 0)], grid[min(i + 1, grid.size - 1)]), method="bounded",
                          options={"xatol": 1e-12})
    return float(min(res.fun, vals[i])), math.exp(res.x if res.fun <= vals[i] else grid[i])


def _gamma_ref(m, phi, tau, eps_t, C):
    """Referee for (79): ``min_b T(b) (b + phi tau m)`` with T from root finding on the constraint."""
    return _min_over_log_b(lambda u: _T_root(math.exp(u), m, eps_t, C) * (math.exp(u) + phi * tau * m), m)


def _g_min_ref(m, phi, tau, eps_t, C):
    """Referee for ``min_b g(b)``, ``g(b) = (C1 b + C2/b)(b + C3)`` with (82)-(84)."""
    C1, C2, C3 = C / (2 * m * eps_t), m * math.sqrt(C / eps_t), phi * tau * m
    return _min_over_log_b(lambda u: (C1 * math.exp(u) + C2 * math.exp(-u)) * (math.exp(u) + C3), m)


# ----------------------------------------------------------------------------- (85)
def _eq85_grid(full: bool):
    if full:
        return list(itertools.product((5, 100, 1000, 10**4), (0.5, 5.0, 100.0, 1e4), (0.1, 1.0),
                                      (1.0, 1e-2, 1e-4, 1e-6), (0.01, 1.0, 100.0)))
    return list(itertools.product((10, 1000), (0.5, 100.0), (1.0,), (1.0, 1e-4), (0.01, 100.0)))


@PAPER.claim("fedlrgd.eq85.sandwich", "Appendix D, eq. (85)",
             "min_b g(b) <= Gamma(FedAve) <= 2 min_b g(b), with Gamma the minimum of (79) and g(b) = (C1 b + C2/b)(b + C3), "
             "C1 = C/(2 m eps~), C2 = m sqrt(C/eps~), C3 = phi tau m.",
             regime="(85) uses only (81), so no (88): quick grid m in {10, 1000}, phi in {0.5, 100}, tau = 1, eps~ in "
                    "{1, 1e-4}, C in {0.01, 100} (16 points); full grid m in {5, 100, 1000, 1e4}, phi in {0.5, 5, 100, "
                    "1e4}, tau in {0.1, 1}, eps~ in {1, 1e-2, 1e-4, 1e-6}, C in {0.01, 1, 100} (384 points); Gamma from "
                    "fedtheory's minimisation of (79), refereed by an independent one (80-point log grid + bounded Brent, "
                    "T by root finding on the constraint instead of (80)), agreement to 1e-7 relative; min g by the "
                    "same independent minimiser; sandwich with relative slack 1e-9")
def _eq85(full: bool, seed):
    ratios, G_lib, G_ind, rows = [], [], [], []
    grid = _eq85_grid(full)
    for m, phi, tau, et, C in grid:
        G, _, _ = fedave_gamma_numeric(m, phi, tau, et, C)
        G_ref, _ = _gamma_ref(m, phi, tau, et, C)
        gmin, _ = _g_min_ref(m, phi, tau, et, C)
        G_lib.append(G)
        G_ind.append(G_ref)
        ratios.append(G / gmin)
    r = np.array(ratios)
    return decide.combine(
        [decide.bound(1 / r, 1.0, rtol=1e-9, of="lower constant 1", what="min g / Gamma <= 1"),
         decide.bound(r, 2.0, rtol=1e-9, of="upper constant 2", what="Gamma / min g <= 2"),
         decide.identity(np.array(G_lib), np.array(G_ind), rtol=1e-7, what="Gamma vs the independent minimisation")],
        what=f"{len(grid)} points: Gamma/min g in [{r.min():.6f}, {r.max():.6f}] (allowed [1, 2])",
        observed={"points": len(grid), "ratio_min": float(r.min()), "ratio_max": float(r.max()),
                  "referee_rel_error": float(np.max(np.abs(np.array(G_lib) / np.array(G_ind) - 1)))},
        bound={"ratio": [1.0, 2.0], "referee_tolerance": 1e-7}, params={"grid_points": len(grid), "full": full})


# ----------------------------------------------------------------------------- discriminant and thresholds
#: The sufficient thresholds of the proof, as phi >= k (eps~/C)^{1/4}/tau: the discriminant's sign (strict), Lemma 4's
#: t <= 1, the bracket of b* before (89), and the last step 3 m sqrt(C/eps~) <= phi tau m (C/eps~)^{3/4}.
THRESHOLDS = {"discriminant > 0": "3*sqrt(6)", "Lemma 4: t <= 1": "6*sqrt(3)", "b* bracket -> (89)": "40",
              "3 m sqrt(C/eps~) <= phi tau m (C/eps~)^{3/4}": "3"}


def _printed_discriminant(phi, tau, m, eps, C):
    """The last line of the discriminant computation after (87), as printed."""
    import sympy as sp

    return phi ** 2 * tau ** 2 * m ** 6 * sp.sqrt(eps / C) * (phi ** 2 * tau ** 2 / 2 - 27 * sp.sqrt(eps / C))


def _zero(expr):
    """Canonical form of ``expr`` for a zero test: ``sympy.expand`` (enough for these monomial identities in positive
    symbols), falling back to ``sympy.simplify`` only when the expansion is not already 0."""
    import sympy as sp

    e = sp.expand(expr)
    return e if e == 0 else sp.simplify(e)


def _symbolic_checks():
    """Sympy: (86) -> (87), the discriminant identity, the four threshold equivalences, their implication by (88)
    with eps~ in (0, 1], and Lemma 4's bracket of b*. Returns a list of (name, passed)."""
    import sympy as sp

    phi, tau, m, eps, C, a, b, u, e = sp.symbols("phi tau m eps C a b u e", positive=True)
    C1, C2, C3 = C / (2 * m * eps), m * sp.sqrt(C / eps), phi * tau * m
    out = []
    # (86) with b = a - C3/6, divided by 2 C1, is the depressed cubic (87)
    cubic86 = 2 * C1 * b ** 3 + C1 * C3 * b ** 2 - C2 * C3
    dep = sp.expand(cubic86.subs(b, a - C3 / 6) / (2 * C1))
    printed87 = a ** 3 - C3 ** 2 / 12 * a + (C3 ** 3 / 108 - C2 * C3 / (2 * C1))
    out.append(("(86) -> (87)", _zero(dep - sp.expand(printed87)) == 0))
    # discriminant of the monic depressed cubic, from sympy, against the printed final form
    disc = sp.discriminant(printed87, a)
    out.append(("discriminant identity", sp.expand(disc - _printed_discriminant(phi, tau, m, eps, C)) == 0))
    # each threshold: the printed quantity, divided by its threshold form, is a monotone function of
    # q = phi tau / (k (eps/C)^{1/4}); equivalences checked as exact identities
    q = lambda k: phi * tau / (k * (eps / C) ** sp.Rational(1, 4))  # noqa: E731
    k = {name: sp.sympify(v) for name, v in THRESHOLDS.items()}
    kd = k["discriminant > 0"]
    out.append(("disc factor <=> phi > 3 sqrt 6 (eps/C)^{1/4}/tau",
                _zero((phi ** 2 * tau ** 2 / 2 - 27 * sp.sqrt(eps / C)) - 27 * sp.sqrt(eps / C) * (q(kd) ** 2 - 1)) == 0))
    t = sp.sqrt(54 * C2 / (C1 * C3 ** 2))
    kt = k["Lemma 4: t <= 1"]
    out.append(("(3/C3) sqrt(6 C2/C1) = t = 1/q", _zero(3 / C3 * sp.sqrt(6 * C2 / C1) - t) == 0
                and _zero(t - 1 / q(kt)) == 0))
    kb = k["b* bracket -> (89)"]
    out.append(("20 m sqrt(eps/C)/(phi tau) = (m/2)(eps/C)^{1/4}/q",
                _zero(20 * m / (phi * tau) * sp.sqrt(eps / C) - m / 2 * (eps / C) ** sp.Rational(1, 4) / q(kb)) == 0))
    kl = k["3 m sqrt(C/eps~) <= phi tau m (C/eps~)^{3/4}"]
    out.append(("3 m sqrt(C/eps) = phi tau m (C/eps)^{3/4}/q",
                _zero(3 * m * sp.sqrt(C / eps) - phi * tau * m * (C / eps) ** sp.Rational(3, 4) / q(kl)) == 0))
    # implication by (88): with u = phi tau C^{1/4} >= 40 and e = eps^{1/4} in (0, 1], q(k) = u/(k e); u - k e is
    # increasing in u and decreasing in e, so its minimum over the region is at (u, e) = (40, 1): 40 - k >= 0
    # (strictly > 0 for the strict discriminant threshold)
    for name, kk in k.items():
        expr = u - kk * e
        mono = sp.diff(expr, u) == 1 and _zero(sp.diff(expr, e) + kk) == 0 and bool(kk > 0)
        corner = expr.subs({u: 40, e: 1})
        strict = name == "discriminant > 0"
        good = bool(corner > 0) if strict else bool(corner >= 0)
        sub_ok = _zero(q(kk) - (phi * tau * C ** sp.Rational(1, 4)) / (kk * eps ** sp.Rational(1, 4))) == 0
        out.append((f"(88) => {name} (k = {kk}, margin 40 - k = {corner})", mono and good and sub_ok))
    # Lemma 4 applied: (C3/3)(t/sqrt 6 +- 5 t^2/9) = sqrt(C2/C1) +- 10 C2/(C1 C3)
    out.append(("Lemma 4 -> sqrt(C2/C1) +- 10 C2/(C1 C3)",
                _zero(C3 / 3 * t / sp.sqrt(6) - sp.sqrt(C2 / C1)) == 0
                and _zero(C3 / 3 * 5 * t ** 2 / 9 - 10 * C2 / (C1 * C3)) == 0))
    return out


@PAPER.claim("fedlrgd.appD.discriminant", "Appendix D, discriminant of (87) and the thresholds of (88)",
             "The discriminant of (87) equals phi^2 tau^2 m^6 sqrt(eps~/C)(phi^2 tau^2/2 - 27 sqrt(eps~/C)); phi >= "
             "40/(C^{1/4} tau) (88) with eps~ in (0, 1] implies phi > 3 sqrt6 (eps~/C)^{1/4}/tau (discriminant > 0), phi >= "
             "6 sqrt3 (eps~/C)^{1/4}/tau (Lemma 4's t <= 1), phi >= 40 eps~^{1/4}/(C^{1/4} tau) (the bracket before (89)) and "
             "phi >= 3 (eps~/C)^{1/4}/tau (the final 4 phi tau m bound); then the Viete b* lies in sqrt(C2/C1) +- 10 C2/(C1 C3).",
             regime="symbolic part exact in sympy (positive symbols): (86) -> (87), the discriminant (sympy.discriminant) "
                    "against the printed form, each threshold's equivalence as an identity, and the implication by (88) "
                    "through monotonicity in u = phi tau C^{1/4} >= 40 and e = eps~^{1/4} in (0, 1] plus the exact corner value "
                    "40 - k; numerical part on (88)'s boundary phi = 40/(C^{1/4} tau) (the worst case) and 4x above it, m "
                    "in {10, 1000}, tau in {0.2, 1}, eps~ in {1, 1e-3, 1e-6}, C in {0.01, 1, 100} (full: also m = 1e5, "
                    "eps~ = 1e-9, C = 1e4): t = sqrt(1 - (Viete arcsin argument)) <= 6 sqrt3/40 and the Viete b* of "
                    "fedtheory inside sqrt(C2/C1) +- 10 C2/(C1 C3) with relative slack 1e-9")
def _disc(full: bool, seed):
    sym = _symbolic_checks()
    failed = [n for n, ok in sym if not ok]
    ms, ets, Cs = ((10, 1000, 10**5), (1.0, 1e-3, 1e-6, 1e-9), (0.01, 1.0, 100.0, 1e4)) if full else \
        ((10, 1000), (1.0, 1e-3, 1e-6), (0.01, 1.0, 100.0))
    t_vals, brk, lhs86, rhs86 = [], [], [], []
    for m, tau, et, C, mult in itertools.product(ms, (0.2, 1.0), ets, Cs, (1.0, 4.0)):
        phi = mult * 40 / (C ** 0.25 * tau)
        C1, C2, C3 = C / (2 * m * et), m * math.sqrt(C / et), phi * tau * m
        t_vals.append(3 / C3 * math.sqrt(6 * C2 / C1))
        bv = fedave_b_star_viete(m, phi, tau, et, C)
        mid, half = math.sqrt(C2 / C1), 10 * C2 / (C1 * C3)
        brk += [(mid - half) / bv, bv / (mid + half)]
        # the Viete root is a stationary point of g (86): residual relative to the terms
        lhs86.append(2 * C1 * bv ** 3 + C1 * C3 * bv ** 2)
        rhs86.append(C2 * C3)
    n = len(t_vals)
    return decide.combine(
        [decide.identity(np.array([float(ok) for _, ok in sym]), 1.0, atol=1e-12,
                         what=f"sympy: {len(sym) - len(failed)}/{len(sym)} identities/implications hold (1 = holds)"
                              + (f" (failed: {'; '.join(failed)})" if failed else "")),
         decide.bound(t_vals, 6 * math.sqrt(3) / 40, rtol=1e-12, of="threshold 6 sqrt3/40",
                      what=f"{n} numeric points: t = (3/C3) sqrt(6 C2/C1)"),
         decide.bound(brk, 1.0, rtol=1e-9, of="Lemma 4 bracket", what="Viete b* inside sqrt(C2/C1) +- 10 C2/(C1 C3)"),
         decide.identity(np.array(lhs86), np.array(rhs86), rtol=1e-8, what="Viete root solves (86)")],
        what=f"margins 40 - k = {40 - 3 * math.sqrt(6):.3f}, {40 - 6 * math.sqrt(3):.3f}, 0, 37 (k = 3 sqrt6, 6 sqrt3, 40, 3)",
        observed={"symbolic_checks": len(sym), "symbolic_failed": failed, "numeric_points": n, "t_max": max(t_vals)},
        bound={"t_max": 6 * math.sqrt(3) / 40, "threshold_k": dict(THRESHOLDS)}, params={"full": full})


# ----------------------------------------------------------------------------- T >= T0
def corrected_T0_condition(m, tau, eps_t, C, mu, kappa):
    """Sufficient condition (derived here) for ``T(b) >= T0(b)`` at ``b = ceil(b*)`` and ``b = floor(b*) >= 1``:
    ``sqrt(2) x^3 >= 4 max{kappa, 4 + 32 kappa^2 (1 - tau)/(tau (m - 1)), 16 x/mu^2}`` with ``x = (C/eps~)^{1/4}``.

    Why: T of (80) is at least ``bC/(2 m eps~) + (m/b) sqrt(C/eps~) >= sqrt(2) x^3`` for every b (AM-GM), and under
    (88) b* >= (m/2)/x (89), so both integer neighbours b of b* (b* >= 1) satisfy b >= m/(4x), whence the last entry
    of T0 is 16 m/(mu^2 b) <= 64 x/mu^2, i.e. 4 (16 x/mu^2). Asymptotically it needs C/eps~ >= 2048/mu^4 (the
    transition on the claim's grid lies between mu^4 C/eps~ = 31.6 and 198).

    Parameters: ``m >= 1`` integer, ``tau`` in (0, 1], ``eps_t > 0``, ``C > 0``, ``mu > 0``, ``kappa >= 1``; a bad value
    raises ``ValueError`` naming it."""
    m = check_int(m, "m", 1)
    tau = check_real(tau, "tau", 0, 1, low_open=True)
    eps_t = check_real(eps_t, "eps_t", 0, low_open=True)
    C = check_real(C, "C", 0, low_open=True)
    mu = check_real(mu, "mu", 0, low_open=True)
    kappa = check_real(kappa, "kappa", 1)
    x = (C / eps_t) ** 0.25
    mid = 4.0 if m == 1 else 4 + 32 * kappa ** 2 * (1 - tau) / (tau * (m - 1))
    return math.sqrt(2) * x ** 3 >= 4 * max(kappa, mid, 16 * x / mu ** 2)


def _T0_grid(full: bool):
    if full:
        return list(itertools.product((10, 100, 1000, 10**4), (0.5, 1.0), tuple(10.0 ** (-k / 2) for k in range(21)),
                                      (1.0, 100.0, 1e4), (0.1, 0.5), (2.0, 10.0)))
    return list(itertools.product((10, 1000), (1.0,), (1.0, 1e-3, 1e-6, 1e-9), (1.0, 100.0), (0.1, 0.5), (2.0,)))


@PAPER.claim("fedlrgd.appD.T-ge-T0", "Appendix D, note after (81)",
             "Printed: at the optimum, T of (80) satisfies T >= T0 = Theta(m/b) (Lemma 3's range) for all eps in (0, 1] "
             "(Theorem 3). Corrected: T >= T0 at the proof's b* (rounded to an integer batch, either way) whenever sqrt(2) "
             "x^3 >= 4 max{kappa, 4 + 32 kappa^2 (1 - tau)/(tau (m - 1)), 16 x/mu^2}, x = (C/eps~)^{1/4}, i.e. for small "
             "eps~ (asymptotically) or large C; not for all eps~ in (0, 1].",
             regime="C read as any constant > 0 (the proof leaves it unspecified); phi = max(100, 2 x 40/(C^{1/4} tau)) so "
                    "(88) holds; quick grid m in {10, 1000}, tau = 1, eps~ in {1, 1e-3, 1e-6, 1e-9}, C in {1, 100}, mu in "
                    "{0.1, 0.5}, kappa = 2 (32 points); full grid m in {10, 100, 1e3, 1e4}, tau in {0.5, 1}, eps~ = 10^(-k/2), "
                    "k = 0..20, C in {1, 100, 1e4}, mu in {0.1, 0.5}, kappa in {2, 10} (2016 points); b* = the Viete root, "
                    "T at b = floor(b*) (if >= 1) and ceil(b*); T0 from fedtheory's Lemma 3 (integer b); referee: T by "
                    "root finding on the constraint of (79) (not the closed form (80)), which must agree with (80) to "
                    "1e-9; printed fails if at some point T < T0 at both integer neighbours; also compared at the integer neighbours "
                    "of the minimiser of (79) (fedtheory's numerical one) for the worst point (quick) or every failing point "
                    "(full); refuted: the proof's note fails on part of the grid with no typo-level fix (the repair is an "
                    "added hypothesis, decided alongside)",
             aliases=("fedlrgd.appD.T-ge-T0.erratum",),
             root_cause="appd-t-ge-t0")
def _T0(full: bool, seed):
    grid = _T0_grid(full)
    n, viol_printed, viol_corr, n_corr, T_err, worst = 0, 0, 0, 0, 0.0, None
    best_ratio, corr_ratio = [], []  # per point: max over the neighbours of T/T0; min over them where the repair applies
    failing = []
    fail_max, hold_min = 0.0, math.inf  # largest mu^4 C/eps~ with T < T0 at both neighbours; smallest with T >= T0 at both
    for m, tau, et, C, mu, kappa in grid:
        phi = max(100.0, 80 / (C ** 0.25 * tau))
        bs = fedave_b_star_viete(m, phi, tau, et, C)
        cands = sorted({max(1, math.ceil(bs))} | ({math.floor(bs)} if bs >= 1 else set()))
        ok_any, ok_all, rats = False, True, []
        for b in cands:
            T_lib = float(fedave_constraint_T(b, m, et, C))
            T_ref = _T_root(b, m, et, C)
            T_err = max(T_err, abs(T_lib - T_ref) / T_ref)
            T0 = lemma3_T0(kappa, tau, m, mu, b)
            rats.append(T_ref / T0)
            ok_any |= T_ref >= T0
            ok_all &= T_ref >= T0
            if worst is None or T_ref / T0 < worst[0]:
                worst = (T_ref / T0, f"m={m}, tau={tau}, eps~={et:g}, C={C:g}, mu={mu}, kappa={kappa}: b={b}, T={T_ref:.4g}, "
                                     f"T0={T0:.4g}", (m, phi, tau, et, C, mu, kappa))
        n += 1
        best_ratio.append(max(rats))
        if not ok_any:
            viol_printed += 1
            failing.append((m, phi, tau, et, C, mu, kappa))
            fail_max = max(fail_max, mu ** 4 * C / et)
        if ok_all:
            hold_min = min(hold_min, mu ** 4 * C / et)
        if corrected_T0_condition(m, tau, et, C, mu, kappa):
            n_corr += 1
            corr_ratio.append(min(rats))
            viol_corr += not ok_all
    # the same comparison at the minimiser of (79) itself (not the surrogate's b*): every failing point in full mode,
    # the worst one in quick mode
    at79 = failing if full else [worst[2]] if worst[0] < 1 else []
    fail79 = 0
    for m, phi, tau, et, C, mu, kappa in at79:
        bG = fedave_gamma_numeric(m, phi, tau, et, C)[1]
        nb = {max(1, math.ceil(bG))} | ({math.floor(bG)} if bG >= 1 else set())
        fail79 += all(_T_root(b, m, et, C) < lemma3_T0(kappa, tau, m, mu, b) for b in nb)
    ev = (f"{n} points with (88): T < T0 at both integer neighbours of b* at {viol_printed} (the largest mu^4 C/eps~ among "
          f"them {fail_max:.3g}, the smallest with T >= T0 at both neighbours {hold_min:.3g}; worst T/T0 = "
          f"{worst[0]:.3g} at {worst[1]}); the repair's condition covers {n_corr} points, T >= T0 at both neighbours "
          f"fails at {viol_corr} of them; T by root finding vs (80): largest relative difference {T_err:.2g}; at the "
          f"integer neighbours of the minimiser of (79) itself, T < T0 at {fail79} of {len(at79)} "
          f"{'failing points' if full else 'worst point'}")
    printed = decide.bound(best_ratio, 1.0, sense=">=", of="T0", what="printed note: T >= T0 at an integer neighbour "
                           "of b*, every point")
    repair = decide.premised(lambda: decide.bound(corr_ratio, 1.0, sense=">=", of="T0",
                                                  what="repair: T >= T0 at both neighbours where its condition holds"),
                             held=n_corr, trials=n, what="the repair's condition", unit="grid points")
    return decide.combine(
        [printed, repair, decide.bound(T_err, 1e-9, of="referee tolerance", what="T by root finding vs (80)")],
        what=ev, observed={"violations": viol_printed, "points": n, "worst_T_over_T0": worst[0],
                           "fails_max_mu4_C_over_eps": fail_max, "holds_min_mu4_C_over_eps": hold_min,
                           "fails_at_79_minimiser": [fail79, len(at79)], "repair_points": n_corr,
                           "repair_violations": viol_corr, "T_rel_error": T_err},
        bound={"T_over_T0": 1.0}, params={"grid_points": n, "full": full}, root_cause="appd-t-ge-t0",
        referee="T by brentq root finding on the constraint of (79) (not the closed form (80)); T0 from Lemma 3 at "
                "integer b")


# ----------------------------------------------------------------------------- Lemma 4
@PAPER.claim("fedlrgd.lemma4", "Lemma 4 (Appendix D)",
             "|sin((1/3) arcsin(1 - t^2) + 2pi/3) - 1/2 - t/sqrt(6)| <= 5 t^2/9 for t in [0, 1].",
             regime="t on a uniform grid of 1e5 points of (0, 1] (both sides are smooth; the largest ratio is 0.10, far "
                    "from 1); no tolerance")
def _lemma4(full: bool, seed):
    t = np.linspace(0, 1, 100001)[1:]
    gap, b = lemma4_gap(t)
    sharp = float(np.max(gap / t ** 2))  # the smallest constant c with gap <= c t^2 on the grid
    return decide.bound(gap / b, 1.0, what="grid of 1e5 points of (0, 1]: gap / (5t^2/9)", of="constant 5/9",
                        observed_value={"max_gap_over_bound": float(np.max(gap / b)), "sharp_constant": sharp},
                        bound_value={"ratio": 1.0, "printed_constant": 5 / 9},
                        regime=f"sharper reading reported: the smallest constant on the grid is {sharp:.4f} "
                               f"(vs the printed 5/9 = {5 / 9:.4f})")
