"""Appendix A, proof of Theorem 4.7, the chain from (177) to (196) of Tziotis, Shen, Pedarsani, Hassani and Mokhtari,
*Straggler-Resilient Personalized Federated Learning* (TMLR 2023; arXiv (173)-(188)): R2, R3, their combination
(191)-(193) and the assembly (194)-(196), link by link on the exact rounds of
:func:`.thm4_7_proof_chain_107_139.chain_round_table`.

* ``srpfl.eq177-184.R2-links`` - (177)-(181), (183) in every round and the algebra (182) -> (185) under (107);
* ``srpfl.eq186-188.R3-links`` - (187) prints 2 eta^2/n^2 for 2 eta/n (root cause ``eq187-eta-square``); (188) holds;
* ``srpfl.eq191-192.sigma-free-term`` - (191) -> (192) folds the sigma-free 6 eta c k sqrt(d/(mn)) of (176) into
  sigma^2 terms: false for small sigma (root cause ``eq192-sigma-free-term``); with (1 + sigma^2) it holds, and so
  does (193) with (1 + sigma^2), the form the side condition of (196) already uses;
* ``srpfl.eq194-196.assembly`` - (194)-(196) hold given their side condition, which the batch condition of Theorem 4.7
  implies only with c0 >= 22500 c^2 (1 + sigma^2)/sigma_max,*^4 (root cause ``thm47-m-sigma-square``).

The substitutions of E2, E4, E5 ((182), (184), (189)) restate Lemmas A.8-A.10, decided at the lemmas and at (185),
(190) (the sigma^2 slip enters the R2 chain at (182) and the R3 chain at (189)).
"""
from __future__ import annotations

import math

import numpy as np

from fedtheory import decide

from . import PAPER
from ._common import relative_identity
from .thm4_7_proof_chain_107_139 import CHAIN_REGIME, M_SIGMA, _table, chain_params
from .thm4_7_proof_chain_150_174 import _DET, _le

EQ187 = "eq187-eta-square"
EQ192 = "eq192-sigma-free-term"

PAPER.root_cause(
    EQ187, "(187) writes 2 eta^2/n^2 for 2 eta/n", kind="typo",
    detail="R3 = (eta/n) lambda_max(B^T E + E^T B) = (2 eta/n) max_p p^T B^T E p; printed (2 eta^2/n^2). (188) continues "
           "with the correct 2 eta/n.",
    references=("(187)",))
PAPER.root_cause(
    EQ192, "(191) -> (192) folds the sigma-free term 6 eta c k sqrt(d/(mn)) of (176) into terms carrying sigma^2",
    kind="typo",
    detail="The step needs 6k + 9 eta k^{3/2} sigma^2 + 3 sqrt(k) sigma^2 <= 14 k^{3/2} sigma^2 (c and sqrt(d/(mn)) "
           "cancel), false for sigma^2 < 6k/(14 k^{3/2} - 9 eta k^{3/2} - 3 sqrt k) (k = 2, eta = 1/16: sigma < 0.60), "
           "in particular at sigma = 0. With (1 + sigma^2) in place of sigma^2 in (192)-(193) every step holds, and the "
           "side condition of (196) already carries (1 + sigma^2). (193) itself holds in exact rounds only because "
           "sigma_min(R+) >= 1 (exact least-squares heads).",
    references=("(191)", "(192)", "(193)"))


# ----------------------------------------------------------------------------- (177)-(184)
def r2_factors(k, x, dist=1.0):
    """The c-free factors of the algebra (182) -> (185) of Tziotis et al. (TMLR 2023), x = delta_hat sigma^2: the
    first term's 2 (dist k + sqrt(k) x + x^2)(sqrt k + x) / k^{3/2} (<= 3 in (183)) and the second term's
    2 (2 sqrt k + x)^2 (sqrt k + x) / k^{3/2} (<= 9 in (185), with E4's factor sqrt k + x kept)."""
    k, x = np.asarray(k, float), np.asarray(x, float)
    rk = np.sqrt(k)
    return (2 * (dist * k + rk * x + x ** 2) * (rk + x) / k ** 1.5, 2 * (2 * rk + x) ** 2 * (rk + x) / k ** 1.5)


@PAPER.claim("srpfl.eq177-184.R2-links", "Proof of Theorem 4.7, eqs. (177)-(184) [arXiv: (173)-(178)]",
             "R2 = (eta^2/n^2) lambda_max(E^T S + S^T E) = (2 eta^2/n^2) max_p p^T S^T E p (177)-(178) <= the sum of the "
             "maxima over S = S1 + S2 (179) <= 2 eta^2 ||S1/n|| ||E/n|| + (2 eta^2/n) ||S2|| ||E/n|| (180), ||S2|| <= "
             "sum_i ||q_i|| ||w_i+|| (183), and under E2, E4, E5 and (107) the algebra (182) -> (185) holds.",
             regime=_DET + "; (177)-(178) an identity (relative residual <= 1e-10; referee: the trigonometric maximum, "
                           "k = 2); the algebra (182) -> (185) is c-free once each event bound is written with delta_hat "
                           "sigma^2 = x <= 1/20 ((107)) and dist <= 1: its two factors are maximised over k in [1, 1e4] "
                           "(log grid) and x in [0, 1/20] (both increase in x and dist); the event substitutions restate "
                           "Lemmas A.8-A.10 (decided there)")
def _eq177_184(full: bool, seed):
    T = _table(full, seed)
    eta, n = T["eta"], T["n"]
    scale = np.max(np.abs(T["R2"])) + 1e-300
    kk, xx = np.meshgrid(np.logspace(0, 4, 400), np.linspace(0, 0.05, 51))
    f1, f2 = r2_factors(kk, xx)
    decs = [relative_identity(np.abs(T["R2"] - T["R2_trig"]) / scale, 1e-10, what="(177)-(178)"),
            _le(T["R2_trig"], T["R2_split1"] + T["R2_split2"], "(179)", 6),
            _le(T["R2_split1"], 2 * eta ** 2 * T["S1n"] * T["En"], "(180) first term", 6),
            _le(T["R2_split2"], 2 * eta ** 2 / n * T["S2_spec"] * T["En"], "(180) second term", 6),
            _le(T["S2_spec"], T["qw_sum"], "(183) ||sum q_i w_i+^T|| <= sum ||q_i|| ||w_i+||", 6),
            _le(np.array([f1.max() / 3, f2.max() / 9]), 1.0, "(182) -> (185) algebra, largest factors / (3, 9)", 6)]
    out = decide.combine(decs, what="(177)-(184)", params=chain_params(T),
                         observed={"max_first_factor": float(f1.max()), "max_second_factor": float(f2.max()),
                                   "max_(179)_ratio": float(np.max(T["R2_trig"] / np.maximum(T["R2_split1"] + T["R2_split2"], 1e-300))),
                                   "rounds": int(T["R2"].size)},
                         bound={"first_factor": 3, "second_factor": 9})
    out["evidence"] += (f"; algebra (182) -> (185): first factor <= {f1.max():.4f} (<= 3), second <= {f2.max():.4f} "
                        "(<= 9, at k = 1, x = 1/20), so (185) holds although (183) drops E4's delta_hat sigma^2 from "
                        "the second term (a factor 1 + x/sqrt k <= 1.05 that the 9 absorbs)")
    return out


# ----------------------------------------------------------------------------- (186)-(188)
@PAPER.claim("srpfl.eq186-188.R3-links", "Proof of Theorem 4.7, eqs. (186)-(188) [arXiv: (180)-(182)]",
             "R3 = (eta/n) lambda_max(E^T B + B^T E) (186) = (2 eta/n) max_p p^T B^T E p (printed (187): 2 eta^2/n^2) "
             "<= (2 eta/n) ||B|| ||sum_i (1/m) X_i^T Z_i w_i+^T|| (188).",
             root_cause=EQ187,
             regime=_DET + "; (187) an identity (relative residual <= 1e-10 of R3's scale; referee: the trigonometric "
                           "maximum over the unit circle, k = 2, against numpy's eigvalsh), in rounds with sigma > 0")
def _eq186_188(full: bool, seed):
    T = _table(full, seed)
    eta, n = T["eta"], T["n"]
    keep = T["sigma"] > 0
    scale = np.max(np.abs(T["R3"][keep]))
    link188 = _le(T["R3"], 2 * eta * T["En"], "(188)", 2)
    printed = decide.combine([relative_identity(np.abs(T["R3"] - 2 * eta ** 2 / n ** 2 * T["BtE_max"])[keep] / scale,
                                                1e-10, what="(187) as printed, 2 eta^2/n^2"), link188],
                             what="(186)-(188) printed")
    corrected = decide.combine([relative_identity(np.abs(T["R3"] - T["R3_trig"])[keep] / scale, 1e-10,
                                                  what="(187) with 2 eta/n"), link188], what="(186)-(188) corrected")
    ratio = T["R3"][keep] / (2 * eta ** 2 / n[keep] ** 2 * T["BtE_max"][keep])
    return decide.erratum(printed, corrected, what="(186)-(188)", root_cause=EQ187,
                          printed_value={"R3_over_printed_(187)_range": [float(ratio.min()), float(ratio.max())]},
                          corrected_value={"max_residual": float(np.max(np.abs(T["R3"] - T["R3_trig"])[keep]) / scale)},
                          evidence=f"R3 / printed (187) = n/eta, from {ratio.min():.4g} to {ratio.max():.4g}",
                          params=chain_params(T),
                          referee="exact rounds: R3 by numpy's eigvalsh, the maximum over unit p by its trigonometric "
                                  "closed form")


# ----------------------------------------------------------------------------- (191)-(192)
def eq192_sides(k, eta, sigma):
    """The sides of (191) -> (192) after dividing by eta c sqrt(d/(mn)) (Tziotis et al., TMLR 2023): the coefficient
    6k + 9 eta k^{3/2} sigma^2 + 3 sqrt(k) sigma^2 from (176), (185), (190); the printed 14 k^{3/2} sigma^2; the
    corrected 14 k^{3/2} (1 + sigma^2)."""
    s2 = np.asarray(sigma, float) ** 2
    return (6 * k + 9 * eta * k ** 1.5 * s2 + 3 * math.sqrt(k) * s2, 14 * k ** 1.5 * s2, 14 * k ** 1.5 * (1 + s2))


@PAPER.claim("srpfl.eq191-192.sigma-free-term", "Proof of Theorem 4.7, eqs. (191)-(193) [arXiv: (184)-(185)]",
             "(191) -> (192): 6 eta c k s + 9 eta^2 c k^{3/2} sigma^2 s + 3 eta c sqrt(k) sigma^2 s <= 14 eta c k^{3/2} "
             "sigma^2 s (s = sqrt(d/(mn))) drops the sigma-free term of (176): false for small sigma; with (1 + sigma^2) "
             "in place of sigma^2 in (192)-(193) the steps hold (and (192) -> (193) needs 3 eta c s <= 1, given by "
             "sqrt(mn) >= c sqrt(d)).",
             root_cause=EQ192,
             regime=CHAIN_REGIME + "; c-free: c > 0 and s > 0 cancel from the step, which is compared in every round (its "
                                   "k, eta, sigma; deterministic, slack 1e-12) and solved for sigma^2")
def _eq191_192(full: bool, seed):
    T = _table(full, seed)
    k, eta = T["k"], T["eta"]
    lhs, hp, hc = eq192_sides(k, eta, T["sigma"])
    den = 14 * k ** 1.5 - 9 * eta * k ** 1.5 - 3 * math.sqrt(k)
    thr = 6 * k / den if den > 0 else math.inf  # the sigma^2 where both sides meet (none if den <= 0)
    step193 = _le(np.full(1, 3 * eta), 1.0, "(192) -> (193): 3 eta c sqrt(d/(mn)) <= 3 eta <= 1", 3)
    printed = decide.combine([_le(lhs, hp, "(191) -> (192) as printed", 3), step193], what="(191)-(193) printed")
    corrected = decide.combine([_le(lhs, hc, "(191) -> (192) with 1 + sigma^2", 3), step193],
                               what="(191)-(193) corrected")
    bad = lhs > hp * (1 + 1e-12)
    return decide.erratum(
        printed, corrected, what="(191)-(192)", root_cause=EQ192,
        printed_value={"violating_rounds": int(bad.sum()), "rounds": int(lhs.size),
                       "violating_sigmas": sorted({float(x) for x in T["sigma"][bad]}),
                       "sigma2_threshold": thr, "sigma_threshold": math.sqrt(thr)},
        corrected_value={"max_ratio": float(np.max(lhs / hc))},
        evidence=f"(191) -> (192) fails in {int(bad.sum())} of {lhs.size} rounds (sigma in "
                 f"{sorted({float(x) for x in T['sigma'][bad]})}); it needs sigma^2 >= 6k/(14 k^1.5 - 9 eta k^1.5 - 3 sqrt k) = "
                 f"{thr:.4f} (sigma >= {math.sqrt(thr):.3f}) at k = {k}, eta = 1/(8k); with 1 + sigma^2 the ratio is <= "
                 f"{np.max(lhs / hc):.3f}",
        params=chain_params(T),
        referee="the c-free coefficient inequality (linear in sigma^2) solved in closed form and evaluated at each exact "
                "round's (k, eta, sigma)")


# ----------------------------------------------------------------------------- (194)-(196)
def c0_needed_196(sigma_power_m: int = 1):
    """The smallest c0 for which m >= c0 (1+sigma^2)^q k^3 kappa^4 (d/n0)/E0^2 (q = ``sigma_power_m``; Theorem 4.7
    prints q = 1) implies the side condition of (196), 15 eta c k^{3/2} (1+sigma^2) sqrt(d/(m n0)) <= (1/10) eta E0
    sigma_min,*^2 (Tziotis et al., TMLR 2023), by sympy: ``(expression, limit as sigma -> infinity)``."""
    import sympy as sp

    c, c0, s, k, smax, smin, E0, D, eta = sp.symbols("c c0 sigma k sigma_max sigma_min E0 D eta", positive=True)
    m = c0 * (1 + s ** 2) ** sigma_power_m * k ** 3 * (smax / smin) ** 4 * D / E0 ** 2  # D = d/n0
    lhs = 15 * eta * c * k ** sp.Rational(3, 2) * (1 + s ** 2) * sp.sqrt(D / m)  # scales as c0^{-1/2}
    expr = sp.factor(sp.powsimp(sp.expand(c0 * (lhs / (eta * E0 * smin ** 2 / 10)) ** 2), force=True))
    return expr, sp.limit(expr, s, sp.oo)


def assembly_slacks(k, sigma, r, a):
    """Slacks (>= 0 where the step holds) of the assembly (194) -> (196) of Tziotis et al. (TMLR 2023) at the largest
    t = eta c sqrt(d/(m n0)) that the side condition 15 k^{3/2} (1+sigma^2) t <= a/10 admits (every left side increases
    in t), r = n0/n, a = eta E0 sigma_min,*^2: (i) 1 - a/2 - (1 - 5a/6 + k sqrt(r) t); (ii) (1 - 15 k^{3/2} sigma^2
    sqrt(r) t - a/5) - (1 - a/2); (iii) sqrt(r/4) a - (sqrt k + 1)(sigma^2 + 1) sqrt(r) t."""
    k, sigma, r, a = (np.asarray(v, float) for v in (k, sigma, r, a))
    t = a / (150 * k ** 1.5 * (1 + sigma ** 2))
    return (1 - a / 2 - (1 - 5 * a / 6 + k * np.sqrt(r) * t), (1 - 15 * k ** 1.5 * sigma ** 2 * np.sqrt(r) * t - a / 5)
            - (1 - a / 2), np.sqrt(r / 4) * a - (np.sqrt(k) + 1) * (sigma ** 2 + 1) * np.sqrt(r) * t)


@PAPER.claim("srpfl.eq194-196.assembly", "Proof of Theorem 4.7, eqs. (194)-(196) [arXiv: (186)-(188)]",
             "||(R+)^{-1}|| <= (1 - 15 eta c k^{3/2} sigma^2 s - (1/5) eta E0 sigma_min,*^2)^{-1/2} turns (139) into (194); "
             "(195) rewrites mn = m n0 (n/n0); (196) follows from the side condition 15 eta c k^{3/2} (1+sigma^2) "
             "sqrt(d/(m n0)) <= (1/10) eta E0 sigma_min,*^2 'for our choices of m and n', which needs c0 >= 22500 c^2 (1 "
             "+ sigma^2)/sigma_max,*^4: no absolute c0; with (1 + sigma^2)^2 in the batch condition it holds.",
             root_cause=M_SIGMA,
             regime=CHAIN_REGIME + "; (194) checked per round in its strictest reading c = 0 (sigma_min^2(R+) (1 - (1/5) "
                                   "eta E0 sigma_min,*^2) >= ... i.e. ||(R+)^{-1}||^2 (1 - a/5) <= 1, a = eta E0 "
                                   "sigma_min,*^2); (196)'s three inequalities at the largest t the side condition "
                                   "admits, over k in {1, 2, 4, ..., 64}, sigma in [0, 10], n/n0 in [1, 1024], a in (0, 1/4] and at "
                                   "every round's parameters; the c0 the side condition needs by sympy (bounded in sigma "
                                   "or not)")
def _eq194_196(full: bool, seed):
    import sympy as sp

    T = _table(full, seed)
    a = T["eta"] * T["E0"] * T["smin_star"] ** 2
    link194 = _le(T["Rinv"] ** 2 * (1 - a / 5), 1.0, "(194) at c = 0: ||(R+)^{-1}||^2 (1 - a/5) <= 1", 3)
    kk, ss, rr, aa = np.meshgrid(2.0 ** np.arange(7), np.linspace(0, 10, 21), 2.0 ** -np.arange(11), np.linspace(1e-3, .25, 10))
    sl = np.array([float(np.min(x)) for x in assembly_slacks(kk, ss, rr, aa)]
                  + [float(np.min(x)) for x in assembly_slacks(T["k"], T["sigma"], 4 / T["n"], a)])  # the minima
    link196 = _le(-sl, 0.0, "(196)'s three inequalities given the side condition (slack >= 0)", 3)
    m_, n_, n0_ = sp.symbols("m n n0", positive=True)
    e195 = sp.simplify(sp.sqrt(m_ * n0_ * (n_ / n0_)) - sp.sqrt(m_ * n_))
    link195 = decide.identity(float(e195) if e195.is_number else 1.0, 0.0, atol=1e-15, what="(195): sympy "
                              "sqrt(m n0 (n/n0)) - sqrt(mn) simplifies to 0")
    links = decide.combine([link194, link195, link196], what="(194)-(196) given the side condition")
    printed_c0, lim_p = c0_needed_196(1)
    corrected_c0, lim_c = c0_needed_196(2)
    sig, c = sp.Symbol("sigma", positive=True), sp.Symbol("c", positive=True)
    smax = sp.Symbol("sigma_max", positive=True)
    by_sigma = {f"{x:g}": float(printed_c0.subs({sig: x, c: 1, smax: T["smax_star"]})) for x in (0.0, 1.0, 3.0, 10.0)}
    return decide.erratum(
        links if lim_p.is_finite else False, links if lim_c.is_finite else False, what="(194)-(196)",
        root_cause=M_SIGMA,
        printed_value={"c0_needed": str(printed_c0), "limit_sigma_inf": str(lim_p),
                       "c0_over_c2_by_sigma_at_this_sigma_max": by_sigma},
        corrected_value={"c0_needed": str(corrected_c0), "limit_sigma_inf": str(lim_c),
                         "min_assembly_slack": float(sl.min())},
        evidence=f"sympy: the side condition needs c0 >= {printed_c0} with the printed batch condition (limit sigma -> oo: "
                 f"{lim_p}; c0/c^2 by sigma at sigma_max,* = {T['smax_star']:.3f}: "
                 + ", ".join(f"{k_}: {v:.0f}" for k_, v in by_sigma.items())
                 + f"), and c0 >= {corrected_c0} with (1 + sigma^2)^2 (limit {lim_c}); the links: {links['evidence']}",
        params=chain_params(T),
        referee="sympy (the side condition at the smallest admissible m solved for c0, its limit in sigma) and the "
                "exact rounds' ||(R+)^{-1}|| = 1/sigma_min(B+) from the SVD of the algorithm's own pre-QR average")
