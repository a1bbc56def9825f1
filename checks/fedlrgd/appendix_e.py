"""Appendix E of Jadbabaie, Makur and Shah (2023), *Federated Optimization of Smooth Loss Functions*, IEEE Trans.
Inf. Theory (proof of Proposition 1): the erratum of its estimate of the first term of r in (47). Proposition 1
itself is in :mod:`.sec3d_fedave` and, on measured runs, in :mod:`.fedave_runs`. Verdicts come from
:mod:`fedtheory.decide`.
"""
from __future__ import annotations

import numpy as np
from fedtheory import decide
from . import PAPER


# ----------------------------------------------------------------------------- the first-term estimate
def _appE_bounds(d, c2, alpha):
    """Printed and corrected right sides of Appendix E's first-term estimate, divided by e d^(d+1/2) (exact)."""
    from fractions import Fraction
    return Fraction(2 * c2 + 4 * alpha + 6), Fraction(2 * c2 + 4 * alpha + 6) ** d


@PAPER.claim("fedlrgd.appE.first-term.erratum", "Appendix E, first-term estimate (spec erratum 13)",
             "Printed: e sqrt(d) 2^d (eta+d)^d <= e (2c2+4alpha+6) d^{d+1/2}; corrected: e (2c2+4alpha+6)^d "
             "d^{d+1/2}, for eta <= (c2+2alpha+2)d.",
             regime="Proposition 1's range (c1+2alpha+2)d <= eta <= (c2+2alpha+2)d, 5 equally spaced eta per "
                    "(d, alpha, c1, c2), d = 1..5 (quick) or 1..8, alpha in {1, 2}, (c1, c2) in {(4, 5), (6, 10)}; "
                    "both sides divided by e d^{d+1/2} and compared as exact rationals (the corrected bound holds "
                    "with equality at the top of the range)",
             root_cause="appe-missing-exponent-d")
def appE_first_term(full: bool, seed):
    from fractions import Fraction
    rows, p_rat, c_rat, n = [], [], [], 0
    for d in range(1, 9 if full else 6):
        for alpha in (1, 2):
            for c1, c2 in ((4, 5), (6, 10)):
                for t in np.linspace(0, 1, 5):
                    eta = Fraction(c1 + 2 * alpha + 2) * d + Fraction(t).limit_denominator(1000) * (c2 - c1) * d
                    # exact referee: e sqrt(d) 2^d (eta+d)^d / (e sqrt(d) d^d) as a rational, both sides divided by e d^(d+1/2)
                    lhs = 2 ** d * (eta + d) ** d / Fraction(d) ** d
                    printed, corrected = _appE_bounds(d, c2, alpha)
                    n += 1
                    p_rat.append(float(lhs / printed))
                    c_rat.append(float(lhs / corrected))
                    if t == 1 and alpha == 1 and c2 == 5:
                        rows.append(f"d={d}: LHS/(e d^(d+1/2)) = {float(lhs):.4g}, printed {float(printed):g}, corrected "
                                    f"{float(corrected):.4g}")
    return decide.erratum(
        decide.bound(p_rat, 1.0, of="printed factor", what="printed (2c2+4alpha+6) d^(d+1/2): LHS / RHS"),
        decide.bound(c_rat, 1.0, of="corrected factor", what="corrected (2c2+4alpha+6)^d d^(d+1/2): LHS / RHS"),
        what=f"e sqrt(d) 2^d (eta+d)^d <= e (2c2+4alpha+6)^? d^(d+1/2) for eta in [(c1+2alpha+2)d, (c2+2alpha+2)d] "
             f"(Prop. 1's range), {n} points, exact rationals; " + "; ".join(rows[:4]),
        params={"d_max": 8 if full else 5}, root_cause="appe-missing-exponent-d",
        referee="exact rational evaluation of e sqrt(d) 2^d (eta+d)^d / (e d^(d+1/2)) at every point of the range")
