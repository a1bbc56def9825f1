"""Appendix B of Jadbabaie, Makur and Shah (2023), *Federated Optimization of Smooth Loss Functions*, IEEE Trans.
Inf. Theory (the proof of Proposition 2): the series representation (74) of the Erlang quantile and the two
implication chains that turn it into the bounds of Proposition 2, decided by :mod:`fedtheory.decide`. Proposition 2
itself is checked in :mod:`.sec2d_oracle_complexity`.

Referees: scipy's ``gamma.isf`` for the quantile (an independent implementation), sympy for the term identity behind
the fourth equality of (74), and mpmath (30 digits) for every evaluation.
"""
from __future__ import annotations

import math

import numpy as np
from fedtheory import decide
from . import PAPER

_DPS = 30


def _cases(full):
    bs = (1, 2, 5, 20, 60) if full else (1, 5, 20)
    qs = (2, 3, 10, 1000, 10 ** 6, 10 ** 9) if full else (2, 1000, 10 ** 6)
    return [(b, q) for b in bs for q in qs]


def _series_rhs(y, b):
    """``sum_k y^k/(k! C(k+b, b))`` (the right side of the last line of (74)), summed term by term in mpmath until
    the terms fall below 10^-(dps+5) of the sum (they decrease once k > y)."""
    import mpmath as mp
    tot, term, k = mp.mpf(0), mp.mpf(1), 0
    tiny = mp.mpf(10) ** (-mp.mp.dps - 5)
    kmin = int(mp.ceil(y))
    while True:
        tot += term
        k += 1
        term *= y / (k + b)  # y^k/(k! C(k+b,b)) = y^k b!/(k+b)!: ratio y/(k+b)
        if k > kmin and term < tot * tiny:
            return tot


def eq74_sides(y, b, q):
    """The differences ``right - left`` of the five forms of the condition in (74) at ``y`` (mpmath): D1 = F_Y(y) -
    (1 - 1/q), D2 = e^y/q - sum_{k<b} y^k/k!, D3 = sum_{k>=b} y^k/k! - (q-1) sum_{k<b}, D4 = (y^b/b!) S(y) - (q-1)
    sum_{k<b} and D5 = S(y) - b!(q-1) sum_{k<b} y^(k-b)/k!, with S the series of the last line."""
    import mpmath as mp
    y = mp.mpf(y)
    low = mp.fsum(y ** k / mp.factorial(k) for k in range(b))
    S = _series_rhs(y, b)
    F = 1 - mp.exp(-y) * low
    return [F - (1 - mp.mpf(1) / q), mp.exp(y) / q - low, (mp.exp(y) - low) - (q - 1) * low,
            y ** b / mp.factorial(b) * S - (q - 1) * low,
            S - mp.factorial(b) * (q - 1) * mp.fsum(y ** (k - b) / mp.factorial(k) for k in range(b))]


def quantile_from_74(b, q):
    """The infimum of (74)'s last line, ``inf{y > 0: D5(y) >= 0}``, in mpmath: D5 increases in y (the series grows, the
    finite sum of negative powers falls), so its root is bracketed by doubling and found by 70 bisections."""
    import mpmath as mp
    c = mp.factorial(b) * (q - 1)
    inv_fact = [1 / mp.factorial(k) for k in range(b)]

    def f(y):  # D5, the last line of (74)
        return _series_rhs(y, b) - c * mp.fsum(y ** (k - b) * w for k, w in enumerate(inv_fact))
    lo, hi = mp.mpf(0.5), mp.mpf(1)
    while f(lo) > 0:
        lo, hi = lo / 2, lo
    while f(hi) < 0:
        lo, hi = hi, 2 * hi
    for _ in range(70):  # the bracket [lo, 2 lo] shrinks to a relative width of 2^-70 ~ 1e-21
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if f(mid) >= 0 else (mid, hi)
    return hi


def chain_predicates(y, b, q):
    """The lines of the proof's two chains at ``y`` (booleans, mpmath; integer q >= 2): lower bound L0 (the (74)
    condition) -> L1 -> ... -> L4 (y >= (log b + log(q-1))/2); upper bound U5 (y >= 2b log(2b) + 2 log(q-1)) -> ... ->
    U0, for y >= 2 (``None`` below 2)."""
    import mpmath as mp
    y = mp.mpf(y)
    fb, lq, ey = mp.factorial(b), mp.log(q - 1), mp.exp(y)
    inv_fact = [1 / mp.factorial(k) for k in range(b)]
    low = mp.fsum(y ** k * c for k, c in enumerate(inv_fact))
    neg = low / y ** b  # sum_{k<b} y^(k-b)/k!
    # L0: the (74) condition, read through its third form (e^y - q sum_{k<b} y^k/k! >= 0; the forms' equivalence is
    # checked separately, see eq74_sides)
    L = [ey - q * low >= 0, fb * (q - 1) * neg <= ey, b * (q - 1) <= y * ey, mp.log(b) + lq <= mp.log(y) + y,
         (mp.log(b) + lq) / 2 <= y]
    if y < 2:  # the upper chain is asserted for y >= 2 only (log(y - 1) >= 0)
        return L, None
    eh = mp.exp(y / 2)
    U = [L[0], 2 ** b * fb * (q - 1) * neg <= eh, 2 ** b * fb * (q - 1) / y * mp.fsum(y ** (-k) for k in range(b)) <= eh,
         2 ** b * fb * (q - 1) / (y - 1) <= eh, b * mp.log(2) + mp.log(fb) + lq <= mp.log(y - 1) + y / 2,
         2 * b * mp.log(2 * b) + 2 * lq <= y]
    return L, U


def term_identity_residual() -> float:
    """sympy: ``y^(k+b)/(k+b)! - (y^b/b!) y^k/(k! C(k+b, b))`` simplifies to 0 (the fourth equality of (74))."""
    import sympy as sp
    y, k, b = sp.symbols("y k b", positive=True, integer=True)
    e = y ** (k + b) / sp.factorial(k + b) - y ** b / sp.factorial(b) * y ** k / (sp.factorial(k) * sp.binomial(k + b, b))
    return float(abs(sp.simplify(sp.combsimp(e))))


@PAPER.claim("fedlrgd.eq74.quantile-representation", "Appendix B, eq. (74) and the proof of Proposition 2",
             "(74): F_Y^{-1}(1 - 1/q) = inf{y > 0: b!(q-1) sum_{k<b} y^(k-b)/k! <= sum_k y^k/(k! C(k+b,b))}, through four "
             "equivalent forms; and the proof's steps: the lower-bound chain (74) => b!(q-1) sum y^(k-b)/k! <= e^y => "
             "b(q-1) <= y e^y => log b + log(q-1) <= log y + y => y >= (log b + log(q-1))/2, the upper-bound chain "
             "y >= 2b log(2b) + 2 log(q-1) => ... => (74) for y >= 2, and (q-1) b >= 55 >= e^4 => F_Y^{-1} >= 2.",
             regime="Y ~ Erlang(b, 1), b in {1, 5, 20} and integer q in {2, 1e3, 1e6} (quick); b in {1, 2, 5, 20, 60} "
                    "and q in {2, 3, 10, 1e3, 1e6, 1e9} (full); mpmath at 30 digits, the series of (74) summed term by term; the quantile "
                    "against scipy.stats.gamma.isf (relative 1e-9); the forms D1..D5 of (74) as positive multiples "
                    "D2 = e^y D1, D3 = q D2, D4 = D3, D5 = (b!/y^b) D4 (relative 1e-20) at 6 (quick) or 12 y per (b, q); each "
                    "implication on 60 (quick) or 120 y per (b, q) spanning both bounds (the upper chain in the direction the proof "
                    "uses, each line implied by the next, for y >= 2); the term identity in sympy")
def _eq74(full: bool, seed):
    import mpmath as mp
    from scipy import stats
    rel_q, rel_forms, imp_bad, conv_fail, n_imp, ge2 = [], [], 0, 0, 0, []
    with mp.workdps(_DPS):
        for b, q in _cases(full):
            y74 = quantile_from_74(b, q)
            ref = float(stats.gamma.isf(1.0 / q, b))
            rel_q.append(abs(float(y74) - ref) / ref)
            if (q - 1) * b >= 55:
                ge2.append(float(y74))
            hi = 2 * b * math.log(2 * b) + 2 * math.log(q - 1)
            for y in np.linspace(0.05, 1.5 * max(hi, float(y74)), 12 if full else 6):
                D = eq74_sides(y, b, q)
                ratios = [(D[1], mp.exp(y) * D[0]), (D[2], q * D[1]), (D[3], D[2]),
                          (D[4], mp.factorial(b) / mp.mpf(y) ** b * D[3])]
                rel_forms += [float(abs(a - c) / (abs(c) + mp.mpf(10) ** -25)) for a, c in ratios]
            for y in np.linspace(0.02, 1.5 * max(hi, float(y74)), 120 if full else 60):
                L, U = chain_predicates(y, b, q)
                n_imp += 1
                imp_bad += sum(1 for j in range(4) if L[j] and not L[j + 1])
                if U is not None:
                    imp_bad += sum(1 for j in range(5) if U[j + 1] and not U[j])
                    conv_fail += sum(1 for j in range(5) if U[j] and not U[j + 1])
    sym = term_identity_residual()
    e4 = float(mp.e ** 4)
    return decide.combine(
        [decide.identity(sym, 0.0, atol=1e-12, what="sympy: y^(k+b)/(k+b)! = (y^b/b!) y^k/(k! C(k+b,b))"),
         decide.bound(rel_q, 1e-9, of="tolerance", what="(74)'s infimum (mpmath bisection) vs scipy gamma.isf (relative)"),
         decide.bound(rel_forms, 1e-20, of="tolerance", what="the five forms of (74) as positive multiples (relative)"),
         decide.bound(imp_bad, 0, of="failed implications", what=f"implications of both chains at {n_imp} (y, b, q)"),
         decide.bound([e4] + [2.0] * len(ge2), [55.0] + ge2, of="threshold",
                      what="55 >= e^4 and F_Y^{-1}(1 - 1/q) >= 2 where (q-1) b >= 55")],
        what=f"{len(_cases(full))} (b, q) pairs: quantile from (74) vs scipy max relative {max(rel_q):.1e}; forms of (74) "
             f"max relative {max(rel_forms):.1e}; {imp_bad} failed implications; the upper chain is one-directional "
             f"(its converse fails at {conv_fail} (y, step) pairs, so the extracted text's equivalence arrows read as "
             f"implications); e^4 = {e4:.3f} <= 55",
        observed={"max_rel_quantile": max(rel_q), "max_rel_forms": max(rel_forms), "failed_implications": imp_bad,
                  "upper_chain_converse_failures": conv_fail, "sympy_residual": sym},
        bound={"tolerance_quantile": 1e-9, "tolerance_forms": 1e-20}, params={"cases": _cases(full), "dps": _DPS})
