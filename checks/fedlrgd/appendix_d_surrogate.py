"""Appendix D of Jadbabaie, Makur and Shah (2023), *Federated Optimization of Smooth Loss Functions*, IEEE Trans.
Inf. Theory (proof of Theorem 3): the surrogate g(b) = (C1 b + C2/b)(b + C3) built from (82)-(84) -- its expansion,
derivative, convexity, the unique positive stationary point (Descartes), the value of min g after substituting
(82)-(84), and the chain of bounds on min g that leads from (89) to Gamma(FedAve) in [3/4, 8] phi tau m (C/eps~)^(3/4),
decided by :mod:`fedtheory.decide`. Referees: sympy for the algebra; an independent numerical minimisation of g
(:func:`.appendix_d._g_min_ref`) for min g.
"""
from __future__ import annotations

import itertools
import math

from fedtheory import decide
from .appendix_d import _g_min_ref
from . import PAPER


def surrogate_algebra() -> dict:
    """sympy, with positive symbols: the residuals (0 when right) of g's expansion, of g', of (86) = b^2 g', of min g
    after (82)-(84), and whether g'' > 0 and (86) has one sign change."""
    import sympy as sp
    C1, C2, C3, b, C, m, e, ph, tau = sp.symbols("C1 C2 C3 b C m epsilon phi tau", positive=True)
    g = (C1 * b + C2 / b) * (b + C3)
    exp = sp.simplify(g - (C1 * b ** 2 + C1 * C3 * b + C2 * C3 / b + C2))
    der = sp.simplify(sp.diff(g, b) - (2 * C1 * b + C1 * C3 - C2 * C3 / b ** 2))
    st = sp.simplify(sp.expand(b ** 2 * sp.diff(g, b)) - (2 * C1 * b ** 3 + C1 * C3 * b ** 2 - C2 * C3))
    sub = {C1: C / (2 * m * e), C2: m * sp.sqrt(C / e), C3: ph * tau * m}
    ming = sp.simplify(g.subs(sub) - (C / (2 * m * e) * b ** 2 + C * ph * tau / (2 * e) * b
                                      + m ** 2 * ph * tau / b * sp.sqrt(C / e) + m * sp.sqrt(C / e)))
    convex = bool(sp.simplify(sp.diff(g, b, 2)).is_positive)
    coeffs = [2 * C1, C1 * C3, 0, -C2 * C3]
    signs = [sp.sign(c) for c in coeffs if c != 0]
    changes = sum(1 for a, c in zip(signs, signs[1:]) if a != c)
    return {"residuals": [float(abs(x)) for x in (exp, der, st, ming)], "convex": convex, "sign_changes": changes}


def _grid(full):
    ms, phis = ((10, 1000, 10 ** 5), (1.0, 10.0, 1e4)) if full else ((10, 1000), (1.0, 1e4))
    taus, eps, Cs = ((0.1, 1.0), (1.0, 1e-2, 1e-6), (0.01, 1.0, 100.0)) if full else ((0.5,), (1.0, 1e-4), (0.01, 100.0))
    return [(m, max(phi, 40 / (C ** 0.25 * tau)), tau, e, C)  # (88): phi >= 40/(C^(1/4) tau), eps~ in (0, 1]
            for m, phi, tau, e, C in itertools.product(ms, phis, taus, eps, Cs)]


@PAPER.claim("fedlrgd.eq82-84.surrogate", "Appendix D, eqs. (82)-(84) and the bounds on min g before (85)-(89)",
             "With C1 = C/(2 m eps~) (82), C2 = m sqrt(C/eps~) (83), C3 = phi tau m (84): g(b) = (C1 b + C2/b)(b + C3) = "
             "C1 b^2 + C1 C3 b + C2 C3/b + C2 is convex on b > 0 with g' = 2 C1 b + C1 C3 - C2 C3/b^2, (86) has one "
             "positive root (Descartes), min g = C/(2m eps~) b*^2 + C phi tau/(2 eps~) b* + m^2 phi tau sqrt(C/eps~)/b* + "
             "m sqrt(C/eps~), and under (88) 3 phi tau m x^3/4 <= 9 m x^2/8 + 3 phi tau m x^3/4 <= min g <= 3 m x^2 + "
             "3 phi tau m x^3 <= 4 phi tau m x^3, x = (C/eps~)^(1/4).",
             regime="algebra in sympy with positive symbols; the bound chain on a grid meeting (88) and eps~ in (0, 1] "
                    "(quick: m in {10, 1e3}, phi in {1, 1e4} raised to 40/(C^(1/4) tau), tau = 0.5, eps~ in {1, 1e-4}, "
                    "C in {0.01, 100}: 16 points; full: 162 points), min g by an independent numerical minimisation "
                    "(grid + bounded Brent in log b); relative slack 1e-9 for the minimiser's round-off")
def _surrogate(full: bool, seed):
    alg = surrogate_algebra()
    steps = []
    for m, phi, tau, e, C in _grid(full):
        x = (C / e) ** 0.25
        gmin = _g_min_ref(m, phi, tau, e, C)[0]
        chain = [3 * phi * tau * m * x ** 3 / 4, 9 * m * x ** 2 / 8 + 3 * phi * tau * m * x ** 3 / 4, gmin,
                 3 * m * x ** 2 + 3 * phi * tau * m * x ** 3, 4 * phi * tau * m * x ** 3]
        steps += [a / c for a, c in zip(chain, chain[1:])]
    return decide.combine(
        [decide.identity(alg["residuals"], 0.0, atol=1e-12, what="sympy: g's expansion, g', (86) = b^2 g', min g after "
                                                                 "(82)-(84)"),
         decide.identity([float(alg["convex"]), float(alg["sign_changes"])], [1.0, 1.0], atol=1e-12,
                         what="sympy: g'' > 0 (1 = yes) and one sign change of (86)'s coefficients"),
         decide.bound(steps, 1.0, rtol=1e-9, of="chain step",
                      what=f"each step of the min g chain (left / right) at {len(steps) // 4} points meeting (88)")],
        what=f"g of (82)-(84): algebra in sympy; min g chain at {len(steps) // 4} points, largest step ratio "
             f"{max(steps):.4f}",
        observed={"sympy": alg, "max_step_ratio": max(steps)}, bound={"step_ratio": 1.0},
        params={"points": len(steps) // 4})
