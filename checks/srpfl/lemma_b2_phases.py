"""The phase costs in the proof of Lemma B.2 of SRPFL (Tziotis, Shen, Pedarsani, Hassani and Mokhtari, TMLR 2023,
Appendix B, eqs. (218)-(244) and the parenthesisation of D in (231), (233)-(238), (251)): phase 1 (the stages below
N clients) and phase 2 (the last stage), each line against an exact referee (order-statistic means, the scalar
recursion iterated round by round, the idealised run).
"""
from __future__ import annotations

import functools
import math

import numpy as np
from fedtheory import decide
from fedtheory.srpfl import harmonic, stage_rounds, switch_point
from fedtheory.srpfl.theory import idealised_times, noise_floor, order_statistic_mean_stable, phase2_rounds_exact
from . import PAPER
from ._common import relative_identity
from .root_causes import EQ229, EQD, PHASE2

#: grid of the Appendix B phase-cost claims (n0 = 4, lambda = 1)
PHASE_GRIDS = {False: dict(N=(64, 1024, 4096), a=(0.05, 0.2), c=(0.0, 10.0, 100.0), c_hat=(1.05, 1.2, 1.35)),
               True: dict(N=(64, 256, 1024, 4096, 2 ** 16), a=(0.01, 0.05, 0.2), c=(0.0, 10.0, 100.0),
                          c_hat=(1.05, 1.2, 1.35))}
PHASE_N0 = 4
#: the grid text of the regimes
GRID_TEXT = ("N in {64, 1024, 4096} x a in {0.05, 0.2} (full: N in {64, 256, 1024, 4096, 2^16} x a in {0.01, 0.05, "
             "0.2}) x c in {0, 10, 100} x c_hat in {1.05, 1.2, 1.35}")


def _phase_grid(full=False):
    g = PHASE_GRIDS[bool(full)]
    return [(N, a, c, ch) for N in g["N"] for a in g["a"] for c in g["c"] for ch in g["c_hat"]]


def _grid_params(full):
    return {**{k: list(x) for k, x in PHASE_GRIDS[bool(full)].items()}, "n0": PHASE_N0}


@functools.lru_cache(maxsize=None)
def _E(n: int, N: int) -> float:
    """Exact ``E[T_(n:N)]`` (lambda = 1), memoised (the phase claims evaluate the same means many times)."""
    return order_statistic_mean_stable(n, N)


@functools.lru_cache(maxsize=None)
def phase1_terms(N, a, c, n0=PHASE_N0) -> dict:
    """The right sides of the proof of Lemma B.2, eqs. (218)-(230) (Tziotis et al., TMLR), with exact
    order-statistic means (lambda = 1, C = c): ``eq218`` (sum of t^i (E_i + C) with t^i from (203) via
    :func:`stage_rounds`), ``eq219`` (the same with (214) written out), ``eq220``, ``eq225``, ``eq226``,
    ``eq229_printed`` ((c+1) in the denominator), ``eq229_corrected`` ((c+1) multiplying), ``eq230``. Every
    log is natural except the stage counts log(N/2n0), log(N/n0) (base 2, the number of stages). Divided
    by nothing: all in units of 1/lambda, with the common factor 1/log(1/(1-a)) kept."""
    R = int(round(math.log2(N / n0)))
    A = math.log(1 / (1 - a))
    E = lambda n: _E(n, N)  # noqa: E731
    st = [n0 * 2 ** i for i in range(R + 1)]
    t = {i: stage_rounds(i, a, N, n0) for i in range(1, R)}
    eq218 = sum(t[i] * (E(st[i]) + c) for i in range(1, R))
    eq219 = sum(2 * (E(st[i]) + c) * math.log(math.sqrt(2) * (E(st[i + 1]) - E(st[i])) / (E(st[i]) - E(st[i - 1])))
                / A for i in range(1, R))
    top = math.log(math.sqrt(2) * (E(N // 2) - E(N // 4)) / (E(N // 4) - E(N // 8)))
    last = math.log(math.sqrt(2) * (E(N) - E(N // 2)) / (E(N // 2) - E(N // 4)))
    low = range(1, R - 1)  # i = 1 .. log2(N/(4 n0))
    eq220 = sum(2 * (E(st[i]) + c) * top / A for i in low) + 2 * (E(N // 2) + c) * last / A
    l3 = math.log(3 * math.sqrt(2))
    l3N = math.log(3 * math.sqrt(2) * math.log(N))
    eq225 = 2 * sum((E(st[i]) + c) * l3 / A for i in low) + 2 * (E(N // 2) + c) * l3N / A
    eq226 = 5 / A * (sum(E(st[i]) for i in low) + (R - 1) * c) + 2 * l3N / A * (E(N // 2) + c)
    eq229p = 5 / A * (c * (R - 1) + 1) + 2 * l3N / (A * (c + 1))
    eq229c = 5 / A * (c * (R - 1) + 1) + 2 * l3N * (c + 1) / A
    eq230 = R * 6 * (c + 1) / A
    return {"eq218": eq218, "eq219": eq219, "eq220": eq220, "eq225": eq225, "eq226": eq226,
            "eq229_printed": eq229p, "eq229_corrected": eq229c, "eq230": eq230}


@functools.lru_cache(maxsize=None)
def _ideal_rounds(N, n0, a, c_hat, c):
    return tuple(idealised_times(N, n0, a, c_hat, 1.0, c)["rounds_srpfl"])


@functools.lru_cache(maxsize=None)
def phase1_referee(N, a, c_hat, c, n0=PHASE_N0) -> tuple[float, float, float]:
    """The exact idealised phase-1 cost (stages 1 .. log2(N/n0)-1 of the scalar recursion with Lemma B.1's
    switching, integer rounds; :func:`fedtheory.srpfl.theory.idealised_times`), the stage-0 cost, and the cost of
    one round in each phase-1 stage (the rounding allowance against the real-valued t^i of (218))."""
    per = _ideal_rounds(N, n0, a, c_hat, c)
    R = len(per) - 1
    cost = [_E(min(N, n0 * 2 ** i), N) + c for i in range(R + 1)]
    return (sum(per[i] * cost[i] for i in range(1, R)), per[0] * cost[0], sum(cost[1:R]))


def chain_violations(rows, steps) -> dict:
    """For each named step ``(lhs, rhs)`` the grid points (tuples) where ``row[lhs] > row[rhs] (1 + 1e-12)``.

    ``rows`` maps a grid point to a dict of numbers. Pure: the decision of the Appendix B chain claims."""
    return {f"{lo}<={hi}": [p for p, r in rows.items() if r[lo] > r[hi] * (1 + 1e-12) + 1e-12] for lo, hi in steps}


@PAPER.claim("srpfl.eq218-220.phase1", "Proof of Lemma B.2, eqs. (218)-(220)",
             "The phase-1 cost of SRPFL (stages 1..log(N/2n0)) is sum_i t^i (E[T_{n0 2^i}] + C) (218) = (219) with "
             "t^i of (214), and (219) <= (220), which replaces every stage's ratio below N/2 by the one at "
             "(N/2, N/4, N/8).",
             regime="the Appendix B model with exact order-statistic means (lambda=1, C=c), n0=4, natural log, grid "
                    + GRID_TEXT + "; referee for (218): the idealised recursion's phase-1 cost (integer rounds, Lemma B.1 "
                    "switching; stages the run skips because X_{i+1} > 1 cost nothing; quick mode at c_hat=1.2 only, "
                    "phase 1 not depending on c_hat) must not exceed (218) plus one round per stage; (218) = (219) to 1e-9 relative; (219) <= (220) at every point; any violation fails. "
                    "Stage 0 (omitted by the proof, erratum 17) is reported")
def _eq218_220(full: bool, seed):
    rows, eq_err, ref_bad, stage0 = {}, 0.0, [], []
    for N, a, c, ch in _phase_grid(full):
        if ch != 1.2 and not full:
            continue  # phase 1 does not depend on c_hat (its stages end at the switch points)
        T = dict(phase1_terms(N, a, c))
        ref, s0, allowance = phase1_referee(N, a, ch, c)
        T["referee"], T["allowance"] = ref, allowance
        rows[(N, a, c, ch)] = T
        eq_err = max(eq_err, abs(T["eq218"] - T["eq219"]) / T["eq218"])
        if ref > T["eq218"] + allowance + 1e-9:
            ref_bad.append((N, a, c, ch, round(ref, 2), round(T["eq218"], 2)))
        stage0.append(s0 / max(ref + s0, 1e-300))
    v = chain_violations(rows, [("eq219", "eq220")])
    R = list(rows.values())
    return decide.combine(
        [decide.identity([r["eq218"] for r in R], [r["eq219"] for r in R], rtol=1e-9, what="(218) = (219)"),
         decide.bound([r["referee"] for r in R], [r["eq218"] + r["allowance"] + 1e-9 for r in R], of="(218)",
                      what="the idealised phase-1 cost <= (218) + one round per stage"),
         decide.bound([r["eq219"] for r in R], [r["eq220"] for r in R], rtol=1e-12, atol=1e-12, of="(220)",
                      what="(219) <= (220)")],
        what=f"{len(rows)} grid points: (218) = (219) to {eq_err:.1e}; the idealised phase-1 cost exceeds (218) + one "
             f"round per stage at {len(ref_bad)}; (219) > (220) at {len(v['eq219<=eq220'])}; stage 0 (not counted by "
             f"the proof) is up to {max(stage0):.0%} of the idealised phase-0/1 cost: X_1 > D_0 = (1+sqrt(1-a))/sqrt(1-a) "
             f"> 2 > 1 >= dist, so stage 0 never runs in this model and its omission (erratum 17) costs nothing",
        observed={"rel_err_218_219": eq_err, "referee_above_218": ref_bad[:5],
                  "violations": {k: x[:5] for k, x in v.items()}, "stage0_share_of_cost_max": max(stage0)},
        bound={"tolerance": 1e-9}, params=_grid_params(full))


@PAPER.claim("srpfl.eq225-226.phase1", "Proof of Lemma B.2, eqs. (225)-(226)",
             "(220) <= (225) (the stage ratios bounded by 3 sqrt2 and 3 sqrt2 log N via (221)-(224)) <= (226) (2 "
             "log(3 sqrt2) <= 5).",
             regime="exact order-statistic means (lambda=1, C=c), n0=4, natural log for the ratio logs (base 2 for "
                    "the stage count log(N/2n0)), the grid of srpfl.eq218-220.phase1; (225) still holds although "
                    "(224) is false (the actual ratio tends to ln(3/2)/ln(7/6) = 2.63 < 3); any grid point violating "
                    "either step fails")
def _eq225_226(full: bool, seed):
    rows = {(N, a, c, ch): phase1_terms(N, a, c) for N, a, c, ch in _phase_grid(full) if ch == 1.2}
    Ns = PHASE_GRIDS[bool(full)]["N"]
    ratio = [(_E(N // 2, N) - _E(N // 4, N)) / (_E(N // 4, N) - _E(N // 8, N)) for N in Ns]
    v = chain_violations(rows, [("eq220", "eq225"), ("eq225", "eq226")])
    R = list(rows.values())
    return decide.bound([r[lo] for lo in ("eq220", "eq225") for r in R], [r[hi] for hi in ("eq225", "eq226") for r in R],
                        rtol=1e-12, atol=1e-12, of="right sides",
                        what=f"{len(rows)} grid points (c_hat does not enter): (220) > (225) at "
                             f"{len(v['eq220<=eq225'])}, (225) > (226) at {len(v['eq225<=eq226'])}; "
                             f"(E[T_N/2]-E[T_N/4])/(E[T_N/4]-E[T_N/8]) = {min(ratio):.3f}..{max(ratio):.3f} <= 3 (so "
                             f"log(3 sqrt2) survives the false (224))",
                        observed_value={"violations": {k: x[:5] for k, x in v.items()},
                                        "ratio_N/2,N/4,N/8": dict(zip(map(str, Ns), ratio))},
                        bound_value={"ratio": 3.0}, params=_grid_params(full))


@PAPER.claim("srpfl.eq229.erratum", "Proof of Lemma B.2, eqs. (229)-(230) (errata item 17)",
             "Printed (229): (226) <= 5(c log(N/2n0) + 1)/log(1/(1-a)) + 2 log(3 sqrt2 log N)/(log(1/(1-a))(c+1)); "
             "the (c+1) belongs in the numerator. With it, (229) bounds (226) and (230) bounds (229).",
             root_cause=EQ229,
             regime="exact order-statistic means (lambda=1, C=c), n0=4, natural log (base 2 for the stage counts), the "
                    "grid of srpfl.eq218-220.phase1 at c_hat=1.2; referee: (226) evaluated exactly (harmonic numbers, "
                    "not its bounds (227)-(228)), and the idealised phase-1 cost; a form fails if (226) exceeds it at "
                    "some grid point; (230) is checked against the corrected (229) and reported")
def _eq229(full: bool, seed):
    rows = {(N, a, c): phase1_terms(N, a, c) for N, a, c, ch in _phase_grid(full) if ch == 1.2}
    bad_p = [p for p, r in rows.items() if r["eq226"] > r["eq229_printed"] * (1 + 1e-12)]
    bad_c = [p for p, r in rows.items() if r["eq226"] > r["eq229_corrected"] * (1 + 1e-12)]
    bad_230 = [p for p, r in rows.items() if r["eq229_corrected"] > r["eq230"] * (1 + 1e-12)]
    ref_p = [p for p in rows if phase1_referee(p[0], p[1], 1.2, p[2])[0] > rows[p]["eq229_printed"]]
    worst = max(r["eq226"] / r["eq229_printed"] for r in rows.values())
    R = list(rows.values())
    lhs = [r["eq226"] for r in R]
    return decide.erratum(
        decide.bound(lhs, [r["eq229_printed"] for r in R], rtol=1e-12, of="printed (229)", what="(226) <= printed (229)"),
        decide.bound(lhs, [r["eq229_corrected"] for r in R], rtol=1e-12, of="corrected (229)",
                     what="(226) <= corrected (229)"),
        what="(229)", root_cause=EQ229,
        printed_value={"violations": len(bad_p), "examples": bad_p[:4], "max_226_over_printed": worst,
                       "idealised_cost_above_printed": len(ref_p)},
        corrected_value={"violations": len(bad_c), "corrected_229_above_230": bad_230[:4], "n_above_230": len(bad_230)},
        evidence=f"{len(rows)} points: exact (226) exceeds the printed (229) at {len(bad_p)} (every c > 0; up to "
                 f"{worst:.1f}x), the corrected (229) at {len(bad_c)}; the corrected (229) exceeds (230) at "
                 f"{len(bad_230)}; the idealised phase-1 cost itself stays below the printed (229) at "
                 f"{len(rows) - len(ref_p)} points (the first term's slack hides the slip in the final bound)",
        params={**_grid_params(full), "c_hat": 1.2},
        referee="(226) evaluated with exact order-statistic means (harmonic numbers), independent of both forms of "
                "(229), plus the idealised recursion's phase-1 cost")


def phase2_distance(N, a, c, t, n0=PHASE_N0) -> np.ndarray:
    """The referee of (233)-(237): the last-stage recursion (232) iterated round by round from X_{log2(N/n0)}
    (231) (corrected D), distances after 0..t rounds (lambda = 1, C = c)."""
    R = int(round(math.log2(N / n0)))
    d = switch_point(R - 1, a, N, n0, 1.0, c)
    s, add = math.sqrt(1 - a), a / math.sqrt(N / n0 * (1 - a))
    out = [d]
    for _ in range(t):
        d = s * d + add
        out.append(d)
    return np.array(out)


def phase2_forms(N, a, c, t, n0=PHASE_N0) -> dict:
    """Right sides of (235)-(237) after 0..t rounds: printed (236) (log N, natural), printed (237) (``D + D
    (sqrt(1-a))^t``), and corrected forms: (236) with H_{N/2} for log N, and (237) with the factor
    max(1, sqrt2 + (c+1)(sqrt2-1)/H_{N/2} - 1) on ``D (sqrt(1-a))^t``; D with the parenthesisation of (12)."""
    D = noise_floor(a, N / n0)
    st = math.sqrt(1 - a) ** np.arange(t + 1)
    H = harmonic(N // 2)
    f_p = math.sqrt(2) + (c + 1) * (math.sqrt(2) - 1) / math.log(N)
    f_c = math.sqrt(2) + (c + 1) * (math.sqrt(2) - 1) / H
    return {"eq236_printed": D * (f_p * st + 1 - st), "eq237_printed": D + D * st,
            "eq236_corrected": D * (f_c * st + 1 - st), "eq237_corrected": D + D * max(1.0, f_c - 1) * st}


@PAPER.claim("srpfl.eq233-237.phase2", "Proof of Lemma B.2, eqs. (233)-(237)",
             "Printed: after t last-stage rounds from X_{log(N/n0)} the distance is at most (236) D((sqrt2 + "
             "(c+1)(sqrt2-1)/log N) s^t + 1 - s^t) <= (237) D + D s^t (s = sqrt(1-a)). Both fail when c is large "
             "against log N: (236) divides by log N where E[T_N]-E[T_N/2] = H_{N/2} < ln N is needed, and (237) "
             "needs sqrt2 + (c+1)(sqrt2-1)/log N <= 2, which is not assumed. With H_{N/2} and the factor kept, "
             "both hold.",
             root_cause=PHASE2,
             regime="the last-stage recursion (232) with equality from X_{log2(N/n0)} (231) with D as in (12) (the "
                    "parenthesisation erratum is srpfl.eqD.parenthesisation-erratum), lambda=1, C=c, natural log, "
                    "n0=4, the grid of srpfl.eq218-220.phase1 (c_hat does not enter), t = 0..400; "
                    "(237)'s printed sqrt(1-a^t) read as (sqrt(1-a))^t; referee: the recursion iterated round by round "
                    "(also checks (233)-(235): (235) with the corrected D equals it to 1e-9); a form fails if the "
                    "iterated distance exceeds it at some (point, t)")
def _eq233_237(full: bool, seed):
    T = 400
    keys = ("eq236_printed", "eq237_printed", "eq236_corrected", "eq237_corrected")
    bad = {k: [] for k in keys}
    dist, forms_all = [], {k: [] for k in keys}
    err235 = 0.0
    g = PHASE_GRIDS[bool(full)]
    for N in g["N"]:
        for a in g["a"]:
            for c in g["c"]:
                d = phase2_distance(N, a, c, T)
                forms = phase2_forms(N, a, c, T)
                D = noise_floor(a, N / PHASE_N0)
                st = math.sqrt(1 - a) ** np.arange(T + 1)
                rho = d[0] / D / math.sqrt(2) - 1  # X_R = sqrt2 D (1 + rho), (231)
                eq235 = D * (math.sqrt(2) * (1 + rho) * st + 1 - st)
                err235 = max(err235, float(np.max(np.abs(eq235 - d) / d)))
                dist.append(d)
                for k, v in forms.items():
                    forms_all[k].append(v)
                    if np.any(d > v * (1 + 1e-12)):
                        bad[k].append((N, a, c))
    n = len(g["N"]) * len(g["a"]) * len(g["c"])
    dist = np.concatenate(dist)
    line = {k: np.concatenate(v) for k, v in forms_all.items()}
    # (236) -> (237) needs (c+1)(sqrt2-1)/log N <= 2 - sqrt2, which is not assumed: the printed lines are decided
    # (refuted when the iterated distance exceeds them: an invalid step, not a typo); the restructured forms with
    # H_{N/2} and the factor kept are reported alongside
    printed = [decide.bound(dist, line[k], rtol=1e-12, of=k, what=f"iterated distance <= {k}")
               for k in ("eq236_printed", "eq237_printed")]
    corrected = [decide.bound(dist, line[k], rtol=1e-12, of=k, what=f"iterated distance <= {k}")
                 for k in ("eq236_corrected", "eq237_corrected")]
    return decide.combine(
        printed, what="(233)-(237) as printed",
        observed={"printed": {"eq236_violations": len(bad["eq236_printed"]), "eq236_examples": bad["eq236_printed"][:4],
                              "eq237_violations": len(bad["eq237_printed"]), "eq237_examples": bad["eq237_printed"][:4]},
                  "corrected": {"eq236_violations": len(bad["eq236_corrected"]),
                                "eq237_violations": len(bad["eq237_corrected"]), "eq235_rel_err": err235,
                                "decisions": [d["status"] for d in corrected]}},
        bound={"distance_over_line": 1.0}, params={**_grid_params(full), "t_max": T},
        referee="the last-stage recursion (232) iterated round by round from X_{log2(N/n0)} of (231)",
        regime=f"{n} points x t = 0..{T}; (235) with D of (12) matches the iterated distance to {err235:.1e}; the "
               f"restructured (236) (H_N/2) and (237) (factor kept) are exceeded at {len(bad['eq236_corrected'])} and "
               f"{len(bad['eq237_corrected'])} points")


def phase2_costs(N, a, c, c_hat, n0=PHASE_N0) -> dict:
    """Phase-2 cost (lambda = 1, C = c): the referee (the idealised run's last-stage rounds x (E[T_N] + C)) and
    the printed (241)-(243) ((244) equals (243)) and corrected (241') = (E[T_N] + C)(t2 + 1) with the exact phase-2
    count t2 and (243') = (ln N + 1 + c)(2 ln(max(1, f - 1)/(c_hat-1))/log(1/(1-a)) + 1), f = sqrt2 + (c+1)(sqrt2-1)/H_{N/2}."""
    A = math.log(1 / (1 - a))
    L = math.log(1 / (c_hat - 1))
    EN = _E(N, N)
    per = _ideal_rounds(N, n0, a, c_hat, c)
    f = math.sqrt(2) + (c + 1) * (math.sqrt(2) - 1) / harmonic(N // 2)
    return {"referee": per[-1] * (EN + c), "eq241_printed": (EN + c) * (2 * L / A + 1),
            "eq242_printed": (math.log(N) + 1 + c) * (2 * L / A + 1), "eq243_printed": 4 * math.log(N) * L / A,
            "eq241_corrected": (EN + c) * (phase2_rounds_exact(a, N, n0, c_hat, 1.0, c) + 1),
            "eq243_corrected": (math.log(N) + 1 + c) * (2 * math.log(max(1.0, f - 1) / (c_hat - 1)) / A + 1)}


@PAPER.claim("srpfl.eq241-244.phase2-cost", "Proof of Lemma B.2, eqs. (240)-(244)",
             "Printed: the last-stage cost is at most (E[T_N] + C)(2 log(1/(c_hat-1))/log(1/(1-a)) + 1) (241) <= "
             "(ln N + 1 + c)(...) (242) <= 4 log N log(1/(c_hat-1))/log(1/(1-a)) (243)-(244). (241) inherits (237)'s "
             "unstated condition and (243) drops c; with the exact phase-2 count and c kept, the bounds hold.",
             root_cause=PHASE2,
             regime="the Appendix B model (lambda=1, C=c, dist following (10) with equality, Lemma B.1 switching), "
                    "natural log, n0=4, the grid of srpfl.eq218-220.phase1; referee: the idealised run's last-stage "
                    "round count times E[T_N] + C; a form fails if the referee exceeds one of its lines at some grid "
                    "point")
def _eq241_244(full: bool, seed):
    keys_p = ("eq241_printed", "eq242_printed", "eq243_printed")
    keys_c = ("eq241_corrected", "eq243_corrected")
    costs = [phase2_costs(N, a, c, ch) for N, a, c, ch in _phase_grid(full)]
    ref = [r["referee"] for r in costs]
    viol = {k: int(sum(r["referee"] > r[k] * (1 + 1e-12) for r in costs)) for k in keys_p + keys_c}
    # (241) inherits (237)'s unstated condition and (243) drops c: invalid steps; the printed lines are decided, the
    # restructured ones (exact phase-2 count, c kept) reported
    corrected = [decide.bound(ref, [r[k] for r in costs], rtol=1e-12, of=k, what=f"referee <= {k}") for k in keys_c]
    return decide.combine(
        [decide.bound(ref, [r[k] for r in costs], rtol=1e-12, of=k, what=f"referee <= {k}") for k in keys_p],
        what=f"{len(costs)} points: the idealised last-stage cost vs (241)-(244) as printed",
        observed={"printed": {k: viol[k] for k in keys_p},
                  "corrected": {**{k: viol[k] for k in keys_c}, "decisions": [d["status"] for d in corrected]}},
        bound={"cost_over_line": 1.0}, params=_grid_params(full),
        referee="the idealised recursion's last-stage round count (integer rounds from X_{log2(N/n0)} to the target) "
                "times E[T_N] + C, with exact order-statistic means")


def floor_forms(a, N, n0=PHASE_N0) -> tuple[float, float]:
    """D as printed in (233)-(238), (251), ``a/sqrt((N/n0)(1-a)(1-sqrt(1-a)))``, and as in (12),
    ``a/(sqrt((N/n0)(1-a))(1-sqrt(1-a)))`` (errata item 12)."""
    s = math.sqrt(1 - a)
    return a / math.sqrt(N / n0 * (1 - a) * (1 - s)), a / (math.sqrt(N / n0 * (1 - a)) * (1 - s))


@PAPER.claim("srpfl.eqD.parenthesisation-erratum", "Eqs. (231), (233)-(238), (251) (errata item 12)",
             "Printed: D = a/sqrt((N/n0)(1-a)(1-sqrt(1-a))), with (1-sqrt(1-a)) inside the root; the fixed point of "
             "the recursion (232)/(249), and the limit of (233), is a/(sqrt((N/n0)(1-a))(1-sqrt(1-a))) as in (12).",
             root_cause=EQD,
             regime="the recursion d+ = sqrt(1-a) d + a/sqrt((N/n0)(1-a)) (no probability, no constant), n0=4, N in "
                    "{64, 1024, 2^16}, a in {0.01, 0.05, 0.2}; referee: the recursion iterated until it stops changing "
                    "(its fixed point) and the sum (233) for t = 0..50 summed term by term from X (231), compared with "
                    "(234)-(235) built on each form of D; a form holds if both agree to relative 1e-9")
def _eqD(full: bool, seed):
    worst_p, worst_c = 0.0, 0.0
    for N in (64, 1024, 2 ** 16):
        for a in (0.01, 0.05, 0.2):
            s, add = math.sqrt(1 - a), a / math.sqrt(N / PHASE_N0 * (1 - a))
            d = 1.0
            for _ in range(200_000):
                nxt = s * d + add
                if nxt == d:
                    break
                d = nxt
            Dp, Dc = floor_forms(a, N)
            # (233) summed term by term from X = sqrt2 D_c (1 + rho) (231, corrected D), t = 0..50
            X = switch_point(int(round(math.log2(N / PHASE_N0))) - 1, a, N, PHASE_N0, 1.0, 0.0)
            t = np.arange(51)
            direct = np.array([X * s ** k + math.fsum(add * s ** i for i in range(k)) for k in t])
            for D, tag in ((Dp, "p"), (Dc, "c")):
                rho = X / (math.sqrt(2) * Dc) - 1  # the bracket of (231) (the same in both readings)
                form235 = D * (math.sqrt(2) * (1 + rho) * s ** t + 1 - s ** t)
                err = max(abs(D - d) / d, float(np.max(np.abs(form235 - direct) / direct)))
                if tag == "p":
                    worst_p = max(worst_p, err)
                else:
                    worst_c = max(worst_c, err)
    return decide.erratum(
        relative_identity(worst_p, 1e-9, what="printed parenthesisation, relative error"),
        relative_identity(worst_c, 1e-9, what="the form of (12), relative error"),
        what="D in (231), (233)-(238), (251)", root_cause=EQD,
        printed_value={"max_rel_err": worst_p}, corrected_value={"max_rel_err": worst_c},
        evidence=f"N in (64, 1024, 2^16), a in (0.01, 0.05, 0.2): the printed parenthesisation misses the iterated fixed "
                 f"point and the summed (233) by up to {worst_p:.3g} (relative); the form of (12) by {worst_c:.1e}",
        params={"N": [64, 1024, 2 ** 16], "a": [0.01, 0.05, 0.2], "n0": PHASE_N0},
        referee="the recursion (232) iterated to its floating-point fixed point, and (233) summed term by term")
