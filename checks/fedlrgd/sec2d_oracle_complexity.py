"""Sec. II-D of Jadbabaie, Makur and Shah (2023), *Federated Optimization of Smooth Loss Functions*, IEEE Trans. Inf.
Theory (federated oracle complexity): the running-time models behind Definition 1, the auxiliary function (16),
the Gumbel limit (17), the quantile approximation (18) and Proposition 2 of Appendix B that bounds it, the Erlang
maximum (19), the server epoch (20), the M/M/1 queue (22)-(23) and the epoch times (25). Verdicts come from
:mod:`fedtheory.decide`.
"""
from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
from scipy import stats
from fedtheory import decide
from fedtheory.lowrank import erlang_max_approximation, erlang_max_mc, erlang_quantile_bounds, mm1_departure_times
from fedtheory.montecarlo import estimate_from_samples, mc_mean
from fedtheory.random import as_generator, spawn_seeds
from . import PAPER


# ----------------------------------------------------------------------------- (16): auxiliary function
def eq16_aux(x, b):
    """(16): a(x) = sum_{k<b} (b-1)!/(b-k-1)! x^{-k} (printed closed form)."""
    x = np.asarray(x, float)
    return sum(math.exp(math.lgamma(b) - math.lgamma(b - k)) * x ** (-k) for k in range(b))


@PAPER.claim("fedlrgd.eq16.auxiliary-function", "Eq. (16)",
             "The printed a(x) = sum_{k<b} (b-1)!/(b-k-1)! x^{-k} equals (1 - F_Y(x))/f_Y(x) for Y ~ Erlang(b, 1) "
             "(the auxiliary function of the von Mises representation), and a(x) = 1 + (b-1)/x + O(x^{-2}).",
             regime="b in {1, 2, 5, 20, 60}, 400 log-spaced x in [0.1, 1000]; referee scipy.stats.gamma "
                    "sf/pdf (relative 1e-10, points where scipy underflows skipped); the expansion: x^2 (a - 1 - "
                    "(b-1)/x) at x = 1e5 b within 2e-5 relative of (b-1)(b-2)")
def eq16_von_mises(full: bool, seed):
    bs = (1, 2, 5, 20, 60)
    x = np.logspace(-1, 3, 400)
    dev, expan, a_vals, ref_vals = 0.0, [], [], []
    for b in bs:
        with np.errstate(divide="ignore", invalid="ignore", under="ignore"):
            ref = stats.gamma.sf(x, b) / stats.gamma.pdf(x, b)  # (1 - F)/f: the auxiliary function of a von Mises CDF
        ok = np.isfinite(ref) & (ref > 0)
        dev = max(dev, float(np.max(np.abs(eq16_aux(x[ok], b) / ref[ok] - 1))))
        a_vals += eq16_aux(x[ok], b).tolist()
        ref_vals += ref[ok].tolist()
        # expansion 1 + (b-1)/x + O(x^-2): x^2 (a - 1 - (b-1)/x) = (b-1)(b-2) (1 + O(b/x)); at x = 1e5 b the
        # relative deviation is below 2b/x = 2e-5 (0 exactly for b <= 2)
        xl = 1e5 * b
        rem = xl ** 2 * (float(eq16_aux(xl, b)) - 1 - (b - 1) / xl)
        expan.append((b, rem, (b - 1) * (b - 2)))
    exp_dev = max(abs(r - t) / max(1.0, t) for _, r, t in expan)
    return decide.combine(
        [decide.identity(np.array(a_vals), np.array(ref_vals), rtol=1e-10,
                         what=f"(16) a(x) vs scipy (1-F)/f on {len(bs)} b x 400 x in [0.1, 1000]"),
         decide.identity(np.array([r for _, r, _ in expan]), np.array([t for _, _, t in expan], float), rtol=2e-5,
                         atol=2e-5, what="x^2 (a - 1 - (b-1)/x) at x = 1e5 b vs (b-1)(b-2)")],
        what="(16)", observed={"max_rel_dev_closed_form": dev, "expansion": expan, "expansion_rel_dev": exp_dev},
        bound={"closed_form_rel_tol": 1e-10, "expansion_rel_tol": 2e-5}, params={"b": list(bs)})


# ----------------------------------------------------------------------------- (17): Gumbel limit
def _erlang_quantile(k, b):
    """u_k = F_Y^{-1}(1 - 1/k) for Y ~ Erlang(b, 1) (scipy.stats.gamma.isf)."""
    return stats.gamma.isf(1 / np.asarray(k, float), b)


def _normalised_max_cdf(xs, b, k):
    """Exact law of (max of k Erlang(b,1) - u_k)/a(u_k), u_k = F^{-1}(1 - 1/k): F(u + a x)^k."""
    u = _erlang_quantile(k, b)
    a = eq16_aux(u, b)
    return np.exp(k * np.log1p(-stats.gamma.sf(u + a * xs, b))), u, a


@PAPER.claim("fedlrgd.eq17.gumbel-limit", "Eq. (17) (Gumbel limit)",
             "(max of k Erlang(b,1) - F^{-1}(1-1/k))/a(F^{-1}(1-1/k)) converges in law to the Gumbel law "
             "exp(-e^{-x}) as k -> infinity.",
             regime="b in {1, 5, 20}, k = 10^1..10^12: the exact Kolmogorov distance sup_x |F(u_k + a_k x)^k "
                    "- exp(-e^{-x})| over 2001 x in [-3, 8] must decrease strictly in k and fall below a third of "
                    "its k = 10 value by k = 1e12 (a limit: no finite-k threshold is claimed); the normalisation is "
                    "refereed by simulated maxima ((b, k) in {(1, 1000), (5, 300), (20, 100)}, 1000 (quick) or 4000 "
                    "each) KS-tested against the exact law F^k at level 1e-4 Bonferroni x3")
def eq17_gumbel(full: bool, seed):
    xs = np.linspace(-3, 8, 2001)
    gum = np.exp(-np.exp(-xs))
    ks = [10 ** j for j in range(1, 13)]
    dist = {}
    for b in (1, 5, 20):
        dk = []
        for k in ks:
            with np.errstate(divide="ignore"):
                cdf, _, _ = _normalised_max_cdf(np.maximum(xs, -1e9), b, k)
            dk.append(float(np.max(np.abs(cdf - gum))))
        dist[b] = dk
    mono = all(all(np.diff(v) < 0) for v in dist.values())
    shrink = all(v[-1] <= v[0] / 3 for v in dist.values())
    # simulated normalised maxima against their exact law F^k (KS), the referee of the normalisation
    samples, laws = [], []
    n = 4000 if full else 1000
    for (b, k), s in zip(((1, 1000), (5, 300), (20, 100)), spawn_seeds(seed, 3)):
        g = as_generator(s)
        mx = g.gamma(b, 1.0, (n, k)).max(axis=1)
        u = _erlang_quantile(k, b)
        a = eq16_aux(u, b)
        z = (mx - u) / a
        samples.append(z)
        laws.append(lambda t, b=b, k=k: _normalised_max_cdf(np.asarray(t), b, k)[0])
    steps = [x for v in dist.values() for x in np.array(v[1:]) / np.array(v[:-1])]
    return decide.combine(
        [decide.bound(steps, 1.0, of="step", what="successive Kolmogorov distances (strict decrease)"),
         decide.bound([v[-1] / v[0] for v in dist.values()], 1 / 3, of="factor 3", what="distance at 1e12 / at 10"),
         decide.distribution(samples, laws, what="simulated maxima vs the exact law F^k")],
        what="exact Kolmogorov distance of the normalised maximum (17) to Gumbel, k = 10 .. 1e12: " + "; ".join(
            f"b={b}: {v[0]:.3f} -> {v[5]:.3f} (k=1e6) -> {v[-1]:.4f}" for b, v in dist.items()) + " (slow, ~1/log k, for "
        "b > 1)", observed={"kolmogorov_distance_to_gumbel": {str(b): v for b, v in dist.items()}},
        bound={"monotone_decrease": True},
        params={"k": [ks[0], ks[-1]], "n_sim": n})


# ----------------------------------------------------------------------------- (18): quantile table
@PAPER.claim("fedlrgd.eq18.quantile-table", "Eq. (18)",
             "F_Y^{-1}(1 - 1/k) ~ log k + b for Y ~ Erlang(b, 1), read as an order-of-magnitude approximation "
             "(within a factor 2).",
             regime="the paper's '~' read as a ratio within [1/2, 2], as for (19); b in {1, ..., 1000} (9 "
                    "values), k in {10, ..., 1e12} (7 values); exact quantiles from scipy.stats.gamma.isf; no "
                    "tolerance")
def eq18_table(full: bool, seed):
    bs = np.array([1, 2, 5, 10, 20, 50, 100, 300, 1000])
    ks = np.array([10, 100, 1e3, 1e4, 1e6, 1e9, 1e12])
    B, K = np.meshgrid(bs, ks)
    q = _erlang_quantile(K, B)
    ratio = q / (np.log(K) + B)
    add_err = q - (np.log(K) + B)
    i20 = list(bs).index(20)
    j4 = list(ks).index(1e4)
    kw = dict(of="factor 2")
    return decide.combine(
        [decide.bound(ratio, 2.0, what="F^-1(1-1/k)/(log k + b) <= 2", **kw),
         decide.bound(ratio, 0.5, sense=">=", what="F^-1(1-1/k)/(log k + b) >= 1/2", **kw)],
        what=f"F^-1(1-1/k)/(log k + b) for b in 1..1000, k in 10..1e12 (scipy.stats.gamma.isf): range "
             f"[{ratio.min():.3f}, {ratio.max():.3f}]; b=20, k=1e4: {q[j4, i20]:.1f} vs {math.log(1e4) + 20:.1f}; the "
             f"additive error F^-1 - (log k + b) reaches {add_err.max():.0f} (b = 1000, k = 1e12): a ratio "
             "approximation, not an additive one",
        observed={"ratio_table": {f"b={b}": [float(x) for x in ratio[:, i]] for i, b in enumerate(bs)},
                  "k": ks.tolist(), "max_ratio": float(ratio.max()), "min_ratio": float(ratio.min()),
                  "max_additive_error": float(add_err.max())},
        bound={"factor": [0.5, 2]}, params={"b": bs.tolist(), "k": ks.tolist()})


# ----------------------------------------------------------- Proposition 2 (Appendix B): bounds on the Erlang quantile
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


# ----------------------------------------------------------------------------- (18)-(19): the Erlang maximum
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


# ----------------------------------------------------------------------------- (20): server alone, 2b
def _server_epoch(b):
    """Sampler of the server's epoch computation time: b gradients, each costing 1 + Exp(1) (Sec. II-D)."""
    return lambda g, size: (1.0 + g.exponential(1.0, (size, b))).sum(axis=1)


_EQ20_B = (1, 5, 20, 100)


@PAPER.claim("fedlrgd.eq20.server-2b", "Eq. (20) (and the server case of (21), (25))",
             "When only the server computes b gradients, each costing 1 + Exp(1), the expected computation time is b "
             "+ E[Y] = 2b exactly, Y ~ Erlang(b, 1).",
             regime="b in {1, 5, 20, 100}; Monte Carlo of the sum of b costs 1 + Exp(1) (not of an Erlang "
                    "draw), 8000 (quick) or 40000 replications each; z test at level 1e-4, Bonferroni over the 4 "
                    "values of b; exact: b + scipy.stats.gamma(b).mean() = 2b to 1e-12")
def eq20_server(full: bool, seed):
    n = 40_000 if full else 8_000
    est, exact = [], []
    for b, s in zip(_EQ20_B, spawn_seeds(seed, len(_EQ20_B))):
        est.append(mc_mean(_server_epoch(b), n, s))
        exact.append(b + stats.gamma(a=b).mean())
    mean = np.array([e.mean for e in est])
    se = np.array([e.se for e in est])
    vec = SimpleNamespace(mean=mean, se=se, n=n)  # the four estimates as one vector for decide.agreement
    two_b = 2.0 * np.array(_EQ20_B)
    return decide.combine(
        [decide.agreement(vec, two_b, what="b + sum of b (1 + Exp(1)) costs vs 2b", tests=2),
         decide.identity(np.array(exact), two_b, atol=1e-12, what="scipy b + Erlang(b,1).mean() = 2b")],
        what="MC means " + ", ".join(f"b={b}: {m:.3f} +/- {s_:.3f} (2b = {2 * b})" for b, m, s_ in zip(_EQ20_B, mean, se)),
        observed={"mc_means": mean.tolist(), "se": se.tolist(), "scipy_b_plus_mean": exact,
                  "max_abs_z": float(np.max(np.abs((mean - two_b) / se)))},
        bound={"2b": two_b.tolist()}, params={"b": list(_EQ20_B), "n": n})


# ----------------------------------------------------------------------------- (22)-(23): M/M/1 queue
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


# ----------------------------------------------------------------------------- (25): whole epochs
_EQ25 = ((5, 20, 2.0, 3.0), (20, 50, 5.0, 1.5))  # (b, tau m, phi, nu)


def _epoch_times(b, k, phi, nu, reps, seed):
    """Simulated epoch running times of types A, B, C (Sec. II-D): computation b + max of k Erlang(b, 1) (A) or
    b + Erlang(b, 1) at the server (B), upload time phi x (time to k departures of a stationary M/M/1 queue)."""
    s1, s2, s3, s4 = spawn_seeds(seed, 4)
    comp_a = b + as_generator(s1).gamma(b, 1.0, (reps, k)).max(axis=1)
    comm_a = phi * mm1_departure_times(k, nu, reps, seed=s2)
    comp_b = (1.0 + as_generator(s3).exponential(1.0, (reps, b))).sum(axis=1)
    comm_c = phi * mm1_departure_times(k, nu, reps, seed=s4)
    return comp_a + comm_a, comp_b, comm_c


@PAPER.claim("fedlrgd.eq25.epoch-times", "Eq. (25) (epoch running times)",
             "Expected epoch running times: type A 2b + log(tau m) + phi tau m (approximation, as (19)), type B 2b "
             "(exact), type C phi tau m (exact, Burke).",
             regime="(b, tau m, phi, nu) in {(5, 20, 2, 3), (20, 50, 5, 1.5)}; whole epochs simulated (client "
                    "computations b + max of tau m Erlang(b,1), server b costs 1 + Exp(1), uploads of a stationary "
                    "M/M/1 queue event by event, scaled by phi), 800 (quick) or 3000 each; B and C: z tests at level "
                    "1e-4, Bonferroni x4; A: its level-1e-4 interval over the approximation inside [1/2, 2]")
def eq25_epochs(full: bool, seed):
    reps = 3000 if full else 800
    rows, ests, exact, ratio, rse = [], [], [], [], []
    for (b, k, phi, nu), s in zip(_EQ25, spawn_seeds(seed, len(_EQ25))):
        A, Bt, C = _epoch_times(b, k, phi, nu, reps, s)
        eA, eB, eC = (estimate_from_samples(v) for v in (A, Bt, C))
        ests += [eB, eC]
        exact += [2 * b, phi * k]
        approx = 2 * b + math.log(k) + phi * k
        ratio.append(float(eA.mean) / approx)
        rse.append(float(eA.se) / approx)
        rows.append(f"b={b}, tau m={k}, phi={phi}: A {float(eA.mean):.1f} +/- {float(eA.se):.1f} vs 2b + log(tau m) + "
                    f"phi tau m = {approx:.1f}; B {float(eB.mean):.2f} vs 2b = {2 * b}; C {float(eC.mean):.1f} vs "
                    f"phi tau m = {phi * k:g}")
    vec = SimpleNamespace(mean=np.array([float(e.mean) for e in ests]), se=np.array([float(e.se) for e in ests]),
                          n=reps)  # types B and C of both cases as one vector for decide.agreement
    kw = dict(se=np.array(rse), tests=3, of="factor 2")
    return decide.combine(
        [decide.agreement(vec, np.array(exact, float), tests=3, what="types B and C vs 2b and phi tau m (exact)"),
         decide.bound(np.array(ratio), 2.0, what="type A / approximation <= 2", **kw),
         decide.bound(np.array(ratio), 0.5, sense=">=", what="type A / approximation >= 1/2", **kw)],
        what=f"{reps} simulated epochs per type and case; " + "; ".join(rows),
        observed={"type_A_over_approx": ratio, "cases": rows}, bound={"type_A_factor": [0.5, 2]},
        params={"cases": [list(c) for c in _EQ25], "reps": reps})
