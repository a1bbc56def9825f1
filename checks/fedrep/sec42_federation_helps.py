"""Sec. 4.2 of Collins, Hassani, Mokhtari and Shakkottai (2021), *Exploiting Shared Representations for Personalized
Federated Learning*, ICML 2021: the sample complexity (11) that follows Theorem 1 and the paragraph "When and whom
does federation help?". Theorem 1's batch-size condition is measured as a one-round contraction threshold m*(d,
rn); "federation helps" is decided on the closed forms and as per-client total samples against Local least
squares. Verdicts come from :mod:`fedtheory.decide`.

The measured claims run FedRep exactly in law in 3k coordinates
(:func:`fedtheory.representation.sample_budget.run_fedrep_coords`, checked against the d-dimensional round in the
representation tests), so d = 65536 costs what d = 32 costs.
"""
from __future__ import annotations

import functools
import math

import numpy as np
from fedtheory import decide
from fedtheory.parallel import cached_map
from fedtheory.random import as_generator, spawn_seeds
from fedtheory.representation import federation_helps_interval, theorem1_rate
from fedtheory.representation.sample_budget import (angle_start, haar_start, local_samples_to_reach,
                                                    refit_excess_risk, run_fedrep_coords, smallest_passing,
                                                    tight_frame_heads)
from . import PAPER


# ----------------------------------------------------------------------------- eq. (11): m*(d, rn)
K = 2


SC_DIST0 = 0.5          # dist(B^0, B*): E0 = 0.75, fixed (all principal angles equal)


SC_ETA = 0.25           # 1/(4 sigma_max,*^2) with tight-frame heads (sigma_min,* = sigma_max,* = 1)


SC_DELTA = 0.1          # m* = smallest m with P(one-round contraction) >= 1 - delta


SC_DECISION_LEVEL = 0.05  # each bisection step: Clopper-Pearson upper bound (95%) of the violation rate <= delta


SC_MAX_HALFWIDTH = 0.25  # 'decided': the slope CI is at most +-0.25 wide


SC_DOMINANCE = 16.0      # fit only where d/(rn) >= 16 log(rn) (k^2 d/(rn) >= 8 k^3 log(rn)) and m* >= 4k


SC_GRIDS = {False: 2, True: 2}  # replicated grids (independent seeds) per mode


def _sc_grid(full: bool):
    """(d, rn) grid and replicates per m. Every rn is crossed with every d, so that log(d/(rn)) is not confounded
    with d^-1/2 or rn log(rn)/d; each grid is run ``SC_GRIDS[full]`` times with independent seeds."""
    if full:
        rns = (4, 8, 16, 32, 64)
        ds = (512, 1024, 2048, 4096, 8192)
        return [(d, rn) for rn in rns for d in ds] * SC_GRIDS[True], 120
    return [(d, rn) for rn in (4, 8, 16) for d in (512, 1024, 2048)] * SC_GRIDS[False], 60


def _one_round_mstar(task, R):
    """m*(d, rn) for one grid point: the smallest m (doubling, then bisection) at which the one-round
    contraction dist_1 <= rho dist_0 fails in at most a fraction delta of R replicates (Clopper-Pearson)."""
    d, rn, ss = task
    W = tight_frame_heads(rn, K)
    rho = float(theorem1_rate(SC_ETA, 1 - SC_DIST0 ** 2, 1.0))
    start = angle_start(K, SC_DIST0, R)
    counts = {}

    def passes(m):
        rng = as_generator(np.random.SeedSequence(ss.entropy, spawn_key=tuple(ss.spawn_key) + (m,)))
        res = run_fedrep_coords(W, d, m, SC_ETA, 1, start, rng=rng)
        v = int(np.sum(res.dist[:, 1] > rho * SC_DIST0))
        hi = decide.clopper_pearson(v, R, 1 - SC_DECISION_LEVEL)[1]
        counts[m] = v
        return hi <= SC_DELTA

    m_star, _ = smallest_passing(passes, K, 1 << 16)
    return {"m_star": -1 if m_star is None else m_star, "violations_at_m_star": counts.get(m_star, -1),
            "violations_at_m_star_minus_1": counts.get((m_star or 0) - 1, -1)}


def _sc_points(full: bool, seed):
    grid, R = _sc_grid(full)
    tasks = [(d, rn, s) for (d, rn), s in zip(grid, spawn_seeds(seed, len(grid)))]  # a fresh seed per replicate
    out = cached_map(functools.partial(_one_round_mstar, R=R), tasks, namespace="fedrep.sc.mstar",
                     params={"k": K, "dist0": SC_DIST0, "eta": SC_ETA, "delta": SC_DELTA, "R": R,
                             "level": SC_DECISION_LEVEL})
    return [(d, rn, int(o["m_star"])) for (d, rn, _), o in zip(tasks, out)], R


def in_fit_regime(d, rn, m_star, k: int = K) -> bool:
    """The points the slope is fitted on: the d-term of Theorem 1's condition dominates its log term by
    8x (k^2 d/(rn) >= 8 k^3 log(rn), i.e. d/(rn) >= 16 log(rn) at k = 2) and m* >= 4k (away from the m >= k
    floor of the exact head solve)."""
    return d / rn >= SC_DOMINANCE * math.log(rn) and m_star >= 4 * k


def mstar_decision(points, correction: bool = True, what: str = "m*(d, rn)") -> dict:
    """Theorem 1's d/(rn) scaling of m* (Collins et al., 2021, Theorem 1 and eq. (11)) decided by
    :func:`fedtheory.decide.regression_rate`: OLS of log m* on log(d/(rn)), rn log(rn)/d and, with
    ``correction``, d^(-1/2) (the finite-d tail term, see the claim's regime); the coefficient of
    log(d/(rn)) against 1, resolved to +-``SC_MAX_HALFWIDTH``. The regressor rn log(rn)/d is Theorem 1's own
    log term relative to its d-term: log(k^3 log(rn) + k^2 d/(rn)) = log(k^2 d/(rn)) + log(1 + k rn log(rn)/d)."""
    d, rn, ms = (np.asarray(x, float) for x in zip(*points))
    cols = {"log(d/rn)": np.log(d / rn), "rn log(rn)/d": rn * np.log(rn) / d}
    if correction:
        cols["d^-1/2"] = d ** -0.5
    return decide.regression_rate(np.log(ms), cols, slope_of="log(d/rn)", claimed=1.0, resolution=SC_MAX_HALFWIDTH,
                                  what=what + (" with the d^-1/2 tail term" if correction else " without the d^-1/2 "
                                               "tail term"), unit="replicated grids")


@PAPER.claim("fedrep.eq11.sample-complexity", "Theorem 1 (m condition), eq. (11), Sec. 4.2 'When and whom "
             "does federation help?'",
             "Theorem 1's batch-size condition m >= c kappa^4 (k^3 log(rn) + k^2 d/(rn))/E0^2: where its d-term "
             "dominates, the smallest m at which one FedRep round contracts dist by Theorem 1's rho (with "
             "probability >= 1 - delta) scales like d/(rn) (log-log slope 1).",
             aliases=("fedrep.eq11.sample-complexity-forms",),
             regime="k = 2, r = 1 (rn = n clients, every one per round), tight-frame heads (||w_i*|| = sqrt(k), "
                    "W*^T W* = n I: kappa = 1 for every rn), eta = 1/(4 sigma_max,*^2) = 1/4, noiseless, fresh "
                    "Gaussian batches, QR; B^0 at dist 0.5 from B* with all principal angles equal (E0 = 0.75 "
                    "fixed, not MoM). rho read as Theorem 1's own rate sqrt(1 - eta E0 sigma_min,*^2/2) = "
                    "0.952; delta = 0.1. m*(d, rn) = the smallest m (doubling from k, then bisection) at which the exact 95% "
                    "Clopper-Pearson upper bound of P(dist_1 > rho dist_0) over R = 60 (quick) / 120 (full) "
                    "replicates is <= delta. Grid: every rn crossed with every d, rn in {4, 8, 16} x d in {512, "
                    "1024, 2048} (quick) / rn in {4, ..., 64} x d in {512, ..., 8192} (full, doublings; exact in law "
                    "in 3k coordinates), 2 replicated grids (independent seeds). Fitted on the points where "
                    "k^2 d/(rn) >= 8 k^3 log(rn) and m* >= 4k: OLS of log m* on log(d/(rn)), rn log(rn)/d (Theorem "
                    "1's own log term relative to its d-term: log(k^3 log(rn) + k^2 d/(rn)) = log(k^2 d/(rn)) + "
                    "log(1 + k rn log(rn)/d)) and d^-1/2 (the finite-d tail: the (1 - delta)-quantile of the d x k "
                    "gradient noise exceeds its mean by O(sqrt(d)), so m* = (a d + b sqrt(d))/(rn), a term of lower "
                    "order than d/(rn) that eq. (11)'s Theta allows). Both fits are reported: the verdict is the one "
                    "with the d^-1/2 term; the plain fit (without it) reads Theta as an exact power law at finite d, "
                    "which eq. (11) does not state, so its failing is not a typo of the paper and not a "
                    "refutation (at full size its slope CI lies below 1 while the d^-1/2 coefficient is positive, "
                    "the bend that term predicts). The unknown c is not tested: c is read as the measured a "
                    "(reported as m* rn/d at the largest d); the verdict is on the exponent "
                    "(decide.regression_rate). Slope CI (level 1e-4) excluding 1 is `refuted`; containing 1 and at "
                    "most +-0.25 wide is `holds`; otherwise inconclusive with the number of replicated grids "
                    "(computed by the kit: the half-width with the standard error's own uncertainty, F pivot) "
                    "that would decide. A grid point with no contracting m <= 65536 is `refuted`")
def _sc_empirical(full: bool, seed):
    pts, R = _sc_points(full, seed)
    missing = [(d, rn) for d, rn, ms in pts if ms < 0]
    fit_pts = [p for p in pts if p[2] > 0 and in_fit_regime(*p)]
    params = {"k": K, "r": 1.0, "dist0": SC_DIST0, "E0": 1 - SC_DIST0 ** 2, "eta": SC_ETA, "delta": SC_DELTA,
              "replicates": R, "rho": float(theorem1_rate(SC_ETA, 1 - SC_DIST0 ** 2, 1.0)),
              "grid": [(d, rn) for d, rn, _ in pts], "level": decide.LEVEL}
    table = {f"d={d},rn={rn}": ms for d, rn, ms in pts}
    what = f"m*(d, rn) at {len(fit_pts)} grid points where the d-term dominates ({R} replicates per m)"
    main = mstar_decision(fit_pts, True, what)
    plain = mstar_decision(fit_pts, False, what)
    big = max(p[0] for p in fit_pts)
    a_read = [ms * rn / d for d, rn, ms in fit_pts if d == big]
    out = decide.combine(
        [decide.bound(len(missing), 0, of="grid points without m*",
                      what=f"grid points where no m <= 65536 contracts with probability >= {1 - SC_DELTA}"), main],
        what=f"m*(d, rn): " + ", ".join(f"({d},{rn})->{ms}" for d, rn, ms in pts),
        observed={"m_star": table, "slope": main["observed"]["slope"], "slope_ci": main["observed"]["ci"],
                  "slope_se": main["observed"]["se"], "fit": main["params"]["fit"],
                  "plain_fit": {"outcome": plain["status"], "slope": plain["observed"]["slope"],
                                "ci": plain["observed"]["ci"], "power": plain.get("power")},
                  "fit_points": len(fit_pts), "a_read_m_star_rn_over_d": a_read, "no_m_star_at": missing},
        bound={"slope": 1.0, "max_halfwidth": SC_MAX_HALFWIDTH}, params=params)
    tail = main["params"]["fit"]["coefficients"].get("d^-1/2", math.nan)
    out["evidence"] += (f". Without the d^-1/2 tail term: {plain['status']} (slope {plain['observed']['slope']:.3f}, "
                        f"CI [{plain['observed']['ci'][0]:.3f}, {plain['observed']['ci'][1]:.3f}]); the d^-1/2 "
                        f"coefficient of the main fit is {tail:.3g}. c read as "
                        f"a = m* rn/d at d={big}: " + ", ".join(f"{a:.3g}" for a in a_read))
    return out


# ------------------------------------------------------------- 'When and whom does federation help?': the closed forms
@PAPER.claim("fedrep.sec4.federation-helps", "Sec. 4.2, 'When and whom does federation help?'",
             "log(n) + d/n << d holds for 1 << n << e^Theta(d): the set {n : log n + d/n < d} is an "
             "interval whose upper end grows like e^d.",
             regime="Theta's constant read as C = 1 (log n + d/n < d), d in {10, 20, 40, 80}; root-finding "
                    "must agree with a brute-force grid to its spacing and log(n_hi)/d must lie in (0.9, 1] "
                    "for d >= 20 (e^Theta(d)), else `refuted`. A consistency check: arithmetic on the "
                    "inequality log n + d/n < d itself, true by construction once C = 1 is fixed",
             kind="consistency")
def _fed_helps(full: bool, seed):
    ds = [10.0, 20.0, 40.0, 80.0]
    rows, rels, spacing = [], [], []
    for d in ds:
        lo, hi = federation_helps_interval(d)
        grid = np.exp(np.linspace(-2, d + 2, 4001))
        inside = np.log(grid) + d / grid < d
        brute_lo, brute_hi = grid[inside].min(), grid[inside].max()
        rel = max(abs(math.log(brute_lo / lo)), abs(math.log(brute_hi / hi)))
        rels.append(rel)
        spacing.append((d + 4) / 4000 * 1.01)  # grid spacing in log n
        rows.append({"d": d, "n_lo": lo, "log_n_hi": math.log(hi), "log_n_hi_over_d": math.log(hi) / d})
    growth = [r["log_n_hi_over_d"] for r in rows]
    n_lo_txt = ", ".join("%.3g" % r["n_lo"] for r in rows)
    return decide.combine(
        [decide.bound(np.array(rels), np.array(spacing), what=f"root-finding vs a brute-force grid for d={ds}"),
         decide.bound(np.array(growth[1:]), 1.0, what="log(n_hi)/d <= 1 for d >= 20"),
         decide.bound(np.array(growth[1:]), 0.9, sense=">=", rtol=0.0, atol=0.0, of="growth exponent",
                      what="log(n_hi)/d > 0.9 for d >= 20 (e^Theta(d))")],
        what=f"log(n_hi)/d = {', '.join(f'{g:.4f}' for g in growth)}; n_lo = {n_lo_txt} (so '1 << n')",
        observed=rows, bound={"log_n_hi_over_d": [0.9, 1.0]}, params={"d": ds, "C": 1.0})


# ------------------------------------------------------------------- 'When and whom does federation help?': in samples
FH_D = 1024


FH_SIGMA = 0.1


FH_EPS = FH_SIGMA ** 2   # target excess test risk: the noise variance


FH_MS = (6, 12, 24, 48, 96, 192)


FH_TMAX = 200


FH_BLOCK = 10


def _fedrep_total_samples(task, R, ms, t_max, z):
    """For one n: per m on the grid, the first round t at which the mean excess risk (over R replicates,
    exact refit formula) is confidently below eps (upper z-bound, t_hi) and not confidently above it
    (lower z-bound, t_lo); per-client samples m (t + 1) (t rounds + the final head fit). Runs stop early
    once m (t + 1) cannot beat the best upper count."""
    n, ss = task
    W = tight_frame_heads(n, K)
    best_hi, best_lo = math.inf, math.inf
    rows = {}
    for m, sm_ in zip(ms, spawn_seeds(ss, len(ms))):
        rng = as_generator(sm_)
        C = haar_start(FH_D, K, rng, R)
        t_lo = t_hi = None
        mean_last = math.nan
        t = 0
        e0 = refit_excess_risk(run_fedrep_coords(W, FH_D, m, SC_ETA, 0, C, sigma=FH_SIGMA, rng=rng).proj_err,
                               FH_SIGMA, K, m)
        traj = [e0[:, 0]]
        while t < t_max and m * (t + 1) < best_hi:
            step = min(FH_BLOCK, t_max - t)
            res = run_fedrep_coords(W, FH_D, m, SC_ETA, step, C, sigma=FH_SIGMA, rng=rng)
            C = res.C
            traj.extend(refit_excess_risk(res.proj_err[:, 1:], FH_SIGMA, K, m).T)
            t += step
            e = np.array(traj)  # (t+1, R)
            mu, se = e.mean(1), e.std(1, ddof=1) / math.sqrt(R)
            mean_last = float(mu[-1])
            lo_hit = np.nonzero(mu - z * se <= FH_EPS)[0]
            hi_hit = np.nonzero(mu + z * se <= FH_EPS)[0]
            t_lo = int(lo_hit[0]) if lo_hit.size else None
            t_hi = int(hi_hit[0]) if hi_hit.size else None
            if t_hi is not None:
                break
        if t_lo is not None:
            best_lo = min(best_lo, m * (t_lo + 1))
        if t_hi is not None:
            best_hi = min(best_hi, m * (t_hi + 1))
        rows[m] = (t_lo if t_lo is not None else -1, t_hi if t_hi is not None else -1, mean_last, t)
    return {"N_lo": best_lo if math.isfinite(best_lo) else -1.0, "N_hi": best_hi if math.isfinite(best_hi) else -1.0,
            "ms": np.array(list(rows)), "t_lo": np.array([r[0] for r in rows.values()]),
            "t_hi": np.array([r[1] for r in rows.values()]), "rounds_run": np.array([r[3] for r in rows.values()])}


def federation_decision(N_lo, N_hi, m_local, ns=None) -> dict:
    """Decision of "federation helps" (Collins et al., 2021, Sec. 4.2) from FedRep's per-client sample
    counts over n (ascending), through :func:`fedtheory.decide.bound`.

    ``N_lo[i]``/``N_hi[i]``: the lower and upper confidence bounds of FedRep's samples at the i-th n (-1: not
    reached / not excluded within the round cap); ``m_local``: Local least squares' samples. At the largest n
    FedRep's lower confidence bound must stay below ``m_local`` (a bound never reached within the cap counts
    as 10 ``m_local``): confidently costlier there is ``refuted``. Whether FedRep is confidently cheaper
    (``N_hi < m_local``) and the crossover (the first n from which it is confidently cheaper at every larger
    n) are reported in ``observed``."""
    N_lo, N_hi = np.asarray(N_lo, float), np.asarray(N_hi, float)
    ns = list(range(len(N_lo))) if ns is None else list(ns)
    cheaper = (N_hi > 0) & (N_hi < m_local)
    tail = np.flip(np.cumprod(np.flip(cheaper))).astype(bool)  # cheaper at this and every larger n
    cross = ns[int(np.argmax(tail))] if tail.any() else None
    lo_last = float(np.where(N_lo[-1] > 0, N_lo[-1], 10.0 * m_local))
    return decide.bound(lo_last, float(m_local), of="per-client sample count",
                        what=f"FedRep's lower confidence bound on per-client samples at n={ns[-1]} vs Local's "
                             f"{m_local}",
                        observed_value={"N_lo_at_largest_n": float(N_lo[-1]), "N_hi_at_largest_n": float(N_hi[-1]),
                                        "confidently_cheaper": bool(cheaper[-1]), "crossover_n": cross},
                        bound_value={"local_samples": float(m_local)})


@PAPER.claim("fedrep.sec4.federation-helps-samples", "Sec. 4.2, 'When and whom does federation help?'; eq. (11)",
             "Per client, FedRep needs Theta((log(rn) + d/(rn)) log(1/eps)) samples (times k, kappa factors) to "
             "reach excess error eps, Local least squares Theta(d): federation helps (FedRep needs fewer samples "
             "per client) for 1 << n << e^Theta(d), with a crossover in n.",
             regime="d = 1024, k = 2, r = 1, tight-frame heads (kappa = 1), eta = 1/4, label noise sigma = 0.1, "
                    "target excess test risk eps = sigma^2 = 0.01. FedRep: Haar-random B^0 (no samples spent on "
                    "the initialisation), fresh Gaussian batches of m per round, exact heads, QR, then every "
                    "client re-fits its head on m fresh samples; its excess risk is the exact refit formula "
                    "a + (sigma^2 + a) k/(m - k - 1) (a = client-averaged ||(I - B B^T) B* w_i*||^2), checked "
                    "against Monte Carlo in the tests; per-client samples m (T + 1), minimised over m in "
                    "{6, 12, 24, 48, 96, 192} (full; {12, 24} quick) and T <= 200, with the mean excess over R = 16 (quick) / 64 (full) "
                    "replicates confidently <= eps (upper bound) or not confidently > eps (lower bound; z at "
                    "1e-4 Bonferroni over n, m and rounds). Local: sigma^2 d/(m - d - 1) <= eps (the "
                    "inverse-Wishart mean, checked against Monte Carlo in the tests), m_local = 2049. n in "
                    "{64} (quick) / {4, 16, 64, 256} (full), all << e^d. The upper end e^Theta(d) is not "
                    "reachable numerically and is not tested. FedRep confidently costlier at the largest n (its "
                    "lower confidence bound >= m_local, or eps not reached within the round cap) is `refuted` "
                    "(decide.bound); otherwise `holds`, with whether it is confidently cheaper and the crossover "
                    "(the first n from which it stays confidently cheaper) reported")
def _fed_helps_samples(full: bool, seed):
    ns = (4, 16, 64, 256) if full else (64,)
    R = 64 if full else 16
    ms = FH_MS if full else (12, 24)
    z = decide.z_critical(len(ns) * len(ms) * (FH_TMAX + 1), two_sided=True)
    m_local = local_samples_to_reach(FH_EPS, FH_D, FH_SIGMA)
    tasks = [(n, s) for n, s in zip(ns, spawn_seeds(seed, len(ns)))]
    out = cached_map(functools.partial(_fedrep_total_samples, R=R, ms=ms, t_max=FH_TMAX, z=z), tasks,
                     namespace="fedrep.sc.fedhelps",
                     params={"d": FH_D, "k": K, "sigma": FH_SIGMA, "eps": FH_EPS, "eta": SC_ETA, "R": R,
                             "ms": list(ms), "t_max": FH_TMAX, "z": z, "block": FH_BLOCK})
    N_lo = [float(o["N_lo"]) for o in out]
    N_hi = [float(o["N_hi"]) for o in out]
    out = federation_decision(N_lo, N_hi, m_local, ns)
    rows = {str(n): {"N_fedrep_ci": [lo, hi], "cheaper": 0 < hi < m_local, "costlier": lo < 0 or lo >= m_local}
            for n, lo, hi in zip(ns, N_lo, N_hi)}
    cross = out["observed"]["crossover_n"]
    below = [n for n, r in zip(ns, rows.values()) if r["costlier"]]
    out["observed"] = {"per_n": rows, "crossover_n": cross, "fedrep_costlier_at": below, **out["observed"]}
    out["evidence"] = (f"per-client samples to reach excess risk {FH_EPS:g} (d={FH_D}, sigma={FH_SIGMA}): Local "
                       f"least squares {m_local}; FedRep (CI over the m grid, {R} replicates, z={z:.2f}): "
                       + "; ".join(f"n={n}: [{lo:.0f}, {hi:.0f}]" for n, lo, hi in zip(ns, N_lo, N_hi))
                       + (f". Crossover: FedRep is confidently cheaper from n={cross} on" if cross else
                          ". FedRep is not confidently cheaper at the largest n")
                       + (f"; confidently costlier at n in {below}" if below else "") + ". " + out["evidence"])
    out["params"] = {"d": FH_D, "k": K, "sigma": FH_SIGMA, "eps": FH_EPS, "eta": SC_ETA, "n": list(ns),
                     "replicates": R, "m_grid": list(ms), "t_max": FH_TMAX, "init": "haar"}
    return out
