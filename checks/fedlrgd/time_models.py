"""Sec. II-D and Appendix B of FedLRGD: running-time models, (18)-(19), (22)-(23), Proposition 2."""
from __future__ import annotations

import math
import numpy as np
from scipy import stats
from fedtheory.claims import FAILS, HOLDS, INCONCLUSIVE
from fedtheory.random import spawn_seeds
from fedtheory.lowrank import (erlang_max_approximation, erlang_max_mc, erlang_quantile_bounds, mm1_departure_times)
from .._util import CLAIM_LEVEL
from . import PAPER


# ----------------------------------------------------------------------------- time models
@PAPER.claim("fedlrgd.prop2.erlang-quantile", "Proposition 2 (Appendix B)",
             "For Y ~ Erlang(b, 1) and integer q with (q-1) b >= 55: (1/2) log(q-1) + (1/2) log b <= F^{-1}(1 - 1/q) <= "
             "2 log(q-1) + 2 b log(2b) (checked against scipy.stats.gamma quantiles).",
             regime="integer b in [1, 300] and integer q in [2, 1e6] (log grids of 40 and 60 values) with (q-1) b >= 55, "
                    "the proposition's hypothesis; quantiles from scipy.stats.gamma.isf; both bounds at every point, no "
                    "tolerance (points outside the hypothesis are reported, not judged)")
def _prop2(full: bool, seed):
    bs = np.unique(np.round(np.logspace(0, math.log10(300), 40)).astype(int))
    qs = np.unique(np.round(np.logspace(math.log10(2), 6, 60)).astype(int))
    B, Q = np.meshgrid(bs, qs)
    quant = stats.gamma.isf(1 / Q, a=B)
    lo, hi = erlang_quantile_bounds(B, Q)
    inside = (lo <= quant) & (quant <= hi)
    cond = (Q - 1) * B >= 55
    v = int(np.sum(cond & ~inside))
    outside_cond_ok = float(np.mean(inside[~cond])) if np.any(~cond) else 1.0
    return dict(status=HOLDS if v == 0 else FAILS,
                observed={"violations_under_condition": v, "points": int(cond.sum()),
                          "fraction_holding_without_condition": outside_cond_ok},
                bound={"violations": 0},
                evidence=f"{int(cond.sum())} (b, q) points with (q-1)b >= 55, b <= 300, q <= 1e6: {v} violations; the "
                         f"bounds also hold at {100 * outside_cond_ok:.0f}% of the {int((~cond).sum())} points outside the condition",
                params={"b_max": 300, "q_max": 1e6})


_EQ19_CASES = ((1, 100), (5, 100), (20, 1000), (50, 1000))


@PAPER.claim("fedlrgd.eq19.erlang-max", "Section II-D, approximations (18)-(19)",
             "b + E[max of k Erlang(b, 1)] ~ log(k) + 2b is an order-of-magnitude approximation (within a factor 2), not a "
             "bound: the Monte Carlo value exceeds it by an amount growing with b.",
             regime="the paper's '~' read as: the expected epoch time lies within a factor 2 of log(k) + 2b, at (b, k) in "
                    "{(1, 100), (5, 100), (20, 1000), (50, 1000)} (k = tau m clients); Monte Carlo with 3000 (quick) or 8000 "
                    "replications per point, normal confidence intervals at level 1e-4 Bonferroni over the 4 points: holds if "
                    "every interval lies inside [approx/2, 2 approx], fails if one lies outside it")
def _eq19(full: bool, seed):
    rows = []
    z = stats.norm.ppf(1 - CLAIM_LEVEL / (2 * len(_EQ19_CASES)))
    for (b, k), s in zip(_EQ19_CASES, spawn_seeds(seed, 4)):
        e = erlang_max_mc(b, k, 8000 if full else 3000, seed=s)
        rows.append((b, k, e.mean, e.ci_low, e.ci_high, erlang_max_approximation(b, k), float(e.se), e.n))
    ratio = [r[2] / r[5] for r in rows]
    exceeds = [r[3] > r[5] for r in rows]
    band = [(float(m - z * se) / a, float(m + z * se) / a) for _, _, m, _, _, a, se, _ in rows]
    inside = [0.5 <= lo and hi <= 2 for lo, hi in band]
    outside = [hi < 0.5 or lo > 2 for lo, hi in band]
    status = FAILS if any(outside) else HOLDS if all(inside) else INCONCLUSIVE
    evidence = "; ".join(f"b={b}, k={k}: MC {m:.2f} [{lo:.2f}, {hi:.2f}] vs log k + 2b = {a:.2f}"
                         for b, k, m, lo, hi, a, _, _ in rows)
    evidence += (f"; level-{CLAIM_LEVEL:g} (Bonferroni x4) intervals of MC/approx: "
                 + ", ".join(f"[{lo:.3f}, {hi:.3f}]" for lo, hi in band) + " vs [0.5, 2]")
    if status == INCONCLUSIVE:  # replications that would shrink each straddling interval inside or outside the band
        need = max(math.ceil(n * (z * se / min(abs(m - 0.5 * a), abs(m - 2 * a))) ** 2) + 1
                   for (_, _, m, _, _, a, se, n), ok, out in zip(rows, inside, outside) if not (ok or out))
        evidence += f"; about {need} replications per point would decide it"
    return dict(status=status, observed={"mc_over_approx": ratio, "mc_exceeds_approx": exceeds,
                                         "ci_over_approx": band},
                bound={"factor": [0.5, 2]}, evidence=evidence, params={"cases": [list(c) for c in _EQ19_CASES]})


_EQ23_CASES = ((10, 1.5), (50, 2.0), (100, 5.0))


@PAPER.claim("fedlrgd.eq23.mm1-queue", "Section II-D, eqs. (22)-(23) (Burke's theorem)",
             "In a stationary M/M/1 upload queue (arrival rate 1, service rate nu > 1) the time until tau m departures is "
             "Erlang(tau m, 1), with mean tau m (simulation vs a Kolmogorov-Smirnov test).",
             regime="stationary start (geometric initial queue), nu > 1: (tau m, nu) in {(10, 1.5), (50, 2), (100, 5)}, "
                    "1500 (quick) or 4000 replications each, simulated event by event; one-sample Kolmogorov-Smirnov test "
                    "against Erlang(tau m, 1) at level 1e-4, Bonferroni over the 3 cases")
def _mm1(full: bool, seed):
    rows = []
    pvals = []
    for (n_dep, nu), s in zip(_EQ23_CASES, spawn_seeds(seed, 3)):
        t = mm1_departure_times(n_dep, nu, reps=4000 if full else 1500, seed=s)
        p = stats.kstest(t, stats.gamma(a=n_dep).cdf).pvalue
        pvals.append(p)
        rows.append(f"tau m={n_dep}, nu={nu}: mean {t.mean():.2f} (Erlang mean {n_dep}), KS p = {p:.3f}")
    crit = CLAIM_LEVEL / len(_EQ23_CASES)  # Bonferroni over the three tests
    ok = min(pvals) > crit
    return dict(status=HOLDS if ok else FAILS, observed={"ks_pvalues": pvals}, bound={"min_pvalue": crit},
                evidence="; ".join(rows) + f"; smallest p {min(pvals):.3g} {'>' if ok else '<='} {crit:.3g}", params={})
