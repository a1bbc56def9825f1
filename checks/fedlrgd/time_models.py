"""Sec. II-D and Appendix B of Jadbabaie, Makur and Shah (2023): running-time models, (18)-(19), (22)-(23) and
Proposition 2, decided by :mod:`fedtheory.decide`."""
from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
from scipy import stats
from fedtheory import decide
from fedtheory.montecarlo import estimate_from_samples
from fedtheory.random import spawn_seeds
from fedtheory.lowrank import (erlang_max_approximation, erlang_max_mc, erlang_quantile_bounds, mm1_departure_times)
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
    outside_cond_ok = float(np.mean(inside[~cond])) if np.any(~cond) else 1.0
    # each bound as a ratio <= 1 at every point under the hypothesis
    ratios = np.concatenate([(lo / quant)[cond], (quant / hi)[cond]])
    return decide.bound(ratios, 1.0, what=f"{int(cond.sum())} (b, q) points with (q-1)b >= 55, b <= 300, q <= 1e6: "
                        f"lower/quantile and quantile/upper", of="bounds",
                        observed_value={"worst_lower_over_quantile": float(np.max((lo / quant)[cond])),
                                        "worst_quantile_over_upper": float(np.max((quant / hi)[cond])),
                                        "points": int(cond.sum()),
                                        "fraction_holding_without_condition": outside_cond_ok},
                        bound_value={"ratio": 1.0},
                        params={"b_max": 300, "q_max": 1e6,
                                "note": f"the bounds also hold at {100 * outside_cond_ok:.0f}% of the "
                                        f"{int((~cond).sum())} points outside the condition (not judged)"})


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
    for (b, k), s in zip(_EQ19_CASES, spawn_seeds(seed, 4)):
        e = erlang_max_mc(b, k, 8000 if full else 3000, seed=s)
        rows.append((b, k, float(e.mean), float(e.se), erlang_max_approximation(b, k), e.n))
    ratio = np.array([m / a for _, _, m, _, a, _ in rows])
    se = np.array([s_ / a for _, _, _, s_, a, _ in rows])
    where = "; ".join(f"b={b}, k={k}: MC {m:.2f} (se {s_:.2g}) vs log k + 2b = {a:.2f}" for b, k, m, s_, a, _ in rows)
    kw = dict(se=se, tests=2, of="factor 2 of the approximation")
    return decide.combine([decide.bound(ratio, 2.0, what="MC/approx <= 2", **kw),
                           decide.bound(ratio, 0.5, sense=">=", what="MC/approx >= 1/2", **kw)],
                          what=where, observed={"mc_over_approx": ratio, "se": se,
                                                "mc_exceeds_approx": [bool(r > 1) for r in ratio]},
                          bound={"factor": [0.5, 2]}, params={"cases": [list(c) for c in _EQ19_CASES]})


_EQ23_CASES = ((10, 1.5), (50, 2.0), (100, 5.0))


@PAPER.claim("fedlrgd.eq23.mm1-queue", "Section II-D, eqs. (22)-(23) (Burke's theorem)",
             "In a stationary M/M/1 upload queue (arrival rate 1, service rate nu > 1) the time until tau m departures is "
             "Erlang(tau m, 1), with mean tau m (simulation vs a Kolmogorov-Smirnov test).",
             regime="stationary start (geometric initial queue), nu > 1: (tau m, nu) in {(10, 1.5), (50, 2), (100, 5)}, "
                    "1500 (quick) or 4000 replications each, simulated event by event; one-sample Kolmogorov-Smirnov test "
                    "against Erlang(tau m, 1) at level 1e-4, Bonferroni over the 3 cases")
def _mm1(full: bool, seed):
    rows, samples, laws, means = [], [], [], []
    for (n_dep, nu), s in zip(_EQ23_CASES, spawn_seeds(seed, 3)):
        t = mm1_departure_times(n_dep, nu, reps=4000 if full else 1500, seed=s)
        samples.append(t)
        laws.append(stats.gamma(a=n_dep).cdf)
        means.append(estimate_from_samples(t / n_dep))
        rows.append(f"tau m={n_dep}, nu={nu}: mean {t.mean():.2f} (Erlang mean {n_dep})")
    est = SimpleNamespace(mean=np.array([float(m.mean) for m in means]), se=np.array([float(m.se) for m in means]),
                          n=min(m.n for m in means))  # the three estimates as one vector for decide.agreement
    return decide.combine(
        [decide.agreement(est, np.ones(len(means)), what="E[S]/(tau m) = 1 (23)", tests=2),
         decide.distribution(samples, laws, tests=2,
                             what="departure times against Erlang(tau m, 1) (22), Bonferroni over the cases")],
        what="; ".join(rows), params={"cases": [list(c) for c in _EQ23_CASES]})
