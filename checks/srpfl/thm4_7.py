"""Section 4.1, Theorem 4.7 (arXiv Theorem 4.5) of Tziotis, Shen, Pedarsani, Hassani and Mokhtari,
*Straggler-Resilient Personalized Federated Learning* (TMLR 2023), with Corollary A.11 (198) and the target (12).

* ``srpfl.thm4.7.stepsize`` - the definitions (8)-(9) under Assumption 4.6: the step size and a = eta E0
  sigma_min,*^2/2 are admissible;
* ``srpfl.thm4.7.contraction`` - (10) in every round of exact runs that meet the theorem's m condition;
* ``srpfl.corA11.noise-floor`` - the closed forms of the recursion (10)/(198), its floors D_r and the target (12);
* ``srpfl.thm4.7.floor-not-prediction`` - the additive floor of (10) (from A3 in (138)) is not a prediction.

(10) round by round in noiseless runs is in :mod:`.thm4_7_one_step`; the proof's steps are in
:mod:`.thm4_7_proof_116_137` and :mod:`.thm4_7_proof_143_193`.
"""
from __future__ import annotations

import math
import numpy as np
from fedtheory import decide
from fedtheory.linalg import blas_single_thread
from fedtheory.random import as_generator, spawn_seeds
from fedtheory.representation import client_diversity, make_heads
from fedtheory.srpfl import (contraction_bound, floor_recursion, noise_floor, run_srpfl,
    target_error, theorem47_m_condition, theorem47_probability, vacuous_ratio)
from ._common import _runs
from . import PAPER


@PAPER.claim("srpfl.thm4.7.stepsize", "Theorem 4.7, definitions (8)-(9), Assumption 4.6",
             "Under Assumption 4.6, sigma_min,* <= 1 <= sigma_max,* <= sqrt(k) over all subsets with "
             "n0 <= |I| <= N, so eta = 1/(8k) satisfies eta <= 1/(8 sigma_max,*^2) and a = eta E0 "
             "sigma_min,*^2/2 <= E0/(16 kappa^2) <= 1/16 (exact enumeration over subsets).",
             regime="Assumption 4.6 (||w_i*|| = sqrt k): heads drawn with exact sqrt(k) norms, k=3, N=12, n0=3; "
                    "sigma_min,* and sigma_max,* by exact enumeration of every subset of size 3..12 (no sampling, "
                    "no constant); E0 = 1, the largest possible; any violated inequality in any draw is a failure "
                    "(floating-point slack 1e-12)")
def _stepsize(full: bool, seed):
    trials = 20 if full else 6
    rows = []
    for s in spawn_seeds(seed, trials):
        k, N, n0 = 3, 12, 3
        W = make_heads(as_generator(s), N, k, "sqrt_k")
        divs = [client_diversity(W, n) for n in range(n0, N + 1)]
        smin = min(dv.sigma_min for dv in divs)
        smax = max(dv.sigma_max for dv in divs)
        kappa = smax / smin
        eta = 1 / (8 * k)
        a = 0.5 * eta * 1.0 * smin ** 2  # E0 = 1, the largest possible
        rows.append((smin, smax, a, kappa, eta))
    r = np.array(rows)
    smin, smax, a, kappa, eta = r.T
    # every inequality as lhs/rhs <= 1: sigma_min <= 1, 1 <= sigma_max, sigma_max <= sqrt k,
    # eta <= 1/(8 sigma_max^2), a <= 1/(16 kappa^2) and 1/(16 kappa^2) <= 1/16
    ratios = np.concatenate([smin, 1 / smax, smax / math.sqrt(3), eta * 8 * smax ** 2, a * 16 * kappa ** 2,
                             1 / kappa ** 2])
    return decide.bound(ratios, 1.0, rtol=1e-12, of="constant",
                        what=f"{trials} draws of N=12 sqrt(k)-normalised heads (k=3), all subsets of size 3..12 "
                             f"enumerated: the six inequalities of (8)-(9) and Assumption 4.6 as lhs/rhs; max a = "
                             f"{a.max():.4f} <= 1/16",
                        observed_value={"sigma_min_range": [float(smin.min()), float(smin.max())],
                                        "sigma_max_range": [float(smax.min()), float(smax.max())],
                                        "max_a": float(a.max()), "max_lhs_over_rhs": float(ratios.max())},
                        bound_value={"sigma_max_upper": math.sqrt(3), "a_upper": 1 / 16, "lhs_over_rhs": 1.0},
                        params={"k": 3, "N": 12, "n0": 3, "trials": trials})


#: c0 of Theorem 4.7's m condition, read as a fixed number from a pilot study (160 exact runs, reduced sampler, d=50, k=3,
#: N=M=64, n0=4, sigma=0.5, m in {15, 30, 60, 120}, 40 runs each, seeds spawned from 2024 + m): the largest
#: c0_run = m / (m condition at c0 = 1) of a run with a violated round was 4.5e-5 (no violation in the 95 runs
#: with c0_run >= 1e-4); 1e-3 leaves a factor 20. The claim's own seeds are fresh (out of sample).
C0 = 1e-3
#: batch sizes m and runs per m (quick, full)
CONTRACTION_GRID = {False: ((30, 60, 120, 240), 2), True: ((30, 60, 120, 240, 480), 6)}


def _participating_svals(W_star, fixed_times, sizes):
    """Singular values of W*_I / sqrt(n) for the participating sets (fixed speeds with N = M: the n fastest)."""
    order = np.argsort(fixed_times, kind="stable")
    return {n: np.linalg.svd(W_star[order[:n]] / math.sqrt(n), compute_uv=False) for n in sizes}


def c0_readings(rows: list) -> dict:
    """Theorem 4.7's m condition under other readings of its unspecified c0 (Tziotis et al., TMLR 2023, Theorem
    4.7), from per-run ``m``, ``m0_1`` (the condition at c0 = 1; it is linear in c0) and ``violations``:

    * ``c0 = 1``: the runs in the regime (m >= m0_1) and the smallest m0_1 (the batch that would put a run there);
    * the computed threshold ``c0_star = max m/m0_1`` over the runs with a violating round (0 if none): under every
      c0 > c0_star no violating run is in the regime (the claim holds on these runs), under c0 <= c0_star it fails.
    """
    viol = [r["m"] / r["m0_1"] for r in rows if r["violations"]]
    c0_star = max(viol, default=0.0)
    in1 = sum(r["m"] >= r["m0_1"] for r in rows)
    smallest = min(r["m0_1"] for r in rows)
    return {"c0_readings": (f"c0 = 1: {in1} of {len(rows)} runs meet m >= m_0 (smallest m_0 {smallest:.3g}, largest m "
                            f"{max(r['m'] for r in rows)}: untestable at these m); computed threshold: the claim holds "
                            f"on these runs for every c0 > {c0_star:.3g} (the largest m/m_0(c0=1) of a violating run)"),
            "c0_star": c0_star, "in_regime_at_c0_1": int(in1), "smallest_m0_at_c0_1": float(smallest)}


@PAPER.claim("srpfl.thm4.7.contraction", "Theorem 4.7, eq. (10) [arXiv: Theorem 4.5, (9)]",
             "On exact FedRep-SRPFL runs that meet the theorem's m condition, every round satisfies "
             "dist+ <= dist sqrt(1-a) + a/sqrt((n/n0)(1-a)), with a = eta E0 sigma_min^2(W*_I/sqrt n)/2 from the "
             "actual participating set I, with probability >= 1 - T exp(-90 min(d, k^2 log N)).",
             regime=f"Assumptions 4.3-4.6 (Gaussian design, sqrt(k)-normalised heads), eta = 1/(8 max ||w_i*||^2) "
                    f"<= 1/(8 sigma_max,*^2), n >= n0; exact runs (rounds drawn from their exact law, sampler='reduced'), "
                    f"d=50, k=3, N=M=64, n0=4, sigma=0.5, fixed speeds, 25 rounds per stage, T=150; a run is in the regime when m >= m_0 = c0 (1+sigma^2) k^3 kappa^4/E0^2 "
                    f"max(log N, d/n0) with its own E0 and kappa (over the sets it aggregates) and c0 read as {C0:g} "
                    f"(fixed from a pilot of 160 runs: largest c0 of a violating run 4.5e-5; reported too: the reading "
                    f"c0 = 1, whose m_0 exceeds every m of the grid, and the computed threshold c0* = the largest "
                    f"m/m_0(c0=1) of a violating run, above which the claim holds on these runs); m on the grid "
                    f"{{30, 60, 120, 240}} (full: also 480), m_0 of every run reported; (10) must hold in every round of "
                    f"every in-regime run: one-sided exact binomial test of the violating runs against the theorem's "
                    f"failure probability T exp(-90 min(d, k^2 log N)) at the claim level")
def _contraction(full: bool, seed):
    d, k, M, N, n0, sigma, T = 50, 3, 64, 64, 4, 0.5, 150
    ms, per_m = CONTRACTION_GRID[bool(full)]
    rows = []
    for m, sm in zip(ms, spawn_seeds(seed, len(ms))):
        # one replicate batch per m: replicate j is the single run with seed spawn_seeds(sm, per_m)[j], with its
        # own ground truth and its own fixed-speed model (the same model as make_speed_model("fixed", M, N));
        # one BLAS thread: the d x d eigenproblems of the MoM initialisation only contend with more
        with blas_single_thread():
            batch = run_srpfl(d=d, k=k, M=M, N=N, n0=n0, m=m, sigma=sigma, speeds="fixed", stage_lengths=25,
                              rounds=T, sampler="reduced", replicates=per_m, seed=sm)
        for res, sp in zip(batch, batch.speed_models):
            sv = _participating_svals(res.model.W_star, sp.fixed_times, sorted(set(res.participants.tolist())))
            a = np.array([0.5 * res.eta * res.E0 * sv[n][-1] ** 2 for n in res.participants])
            if not np.allclose(a, res.a, rtol=1e-9, atol=0):  # the sets are the ones the run aggregated
                raise RuntimeError("participating sets reconstructed from the fixed speeds do not match the run")
            kappa = max(v[0] for v in sv.values()) / min(v[-1] for v in sv.values())
            m0 = float(theorem47_m_condition(k, d, N, n0, kappa, res.E0, sigma, c0=C0)) if res.E0 > 0 else math.inf
            bound = contraction_bound(res.dist[:-1], a, res.participants / n0)
            bad = np.flatnonzero(res.dist[1:] > bound * (1 + 1e-12))
            m0_1 = m0 / C0  # the m condition at c0 = 1 (linear in c0)
            rows.append(dict(m=m, E0=float(res.E0), kappa=float(kappa), m0=m0, m0_1=m0_1, in_regime=bool(m >= m0),
                             violations=int(bad.size), at_n=sorted({int(res.participants[t]) for t in bad}),
                             median_ratio=float(np.median(res.dist[1:] / bound)), median_a=float(np.median(a))))
    inside = [r for r in rows if r["in_regime"]]
    outside = [r for r in rows if not r["in_regime"]]
    p_allowed = 1.0 - float(theorem47_probability(T, d, k, N))
    viol_in = sum(r["violations"] > 0 for r in inside)
    m0s = [r["m0"] for r in rows]
    observed = {"runs": len(rows), "in_regime_runs": len(inside), "in_regime_violating_runs": viol_in,
                "in_regime_violating_rounds": sum(r["violations"] for r in inside),
                "out_of_regime_runs": len(outside),
                "out_of_regime_violating_runs": sum(r["violations"] > 0 for r in outside),
                "out_of_regime_violations_at_n": sorted({n for r in outside for n in r["at_n"]}),
                "m0_by_run": {f"m={m}": [round(r["m0"], 1) for r in rows if r["m"] == m] for m in ms},
                "c0_of_violating_runs": [r["m"] / r["m0"] * C0 for r in rows if r["violations"]],
                **c0_readings(rows),
                "median_ratio_to_bound": float(np.median([r["median_ratio"] for r in rows])),
                "median_a": float(np.median([r["median_a"] for r in rows]))}
    what = (f"exact runs meeting the m condition (c0={C0:g}) with a round violating (10)")
    desc = (f"{len(rows)} runs (m in {list(ms)}, {per_m} per m) x {T} rounds: {len(inside)} in the regime "
            f"(m >= m_0; m_0 per run from {min(m0s):.3g} to {max(m0s):.3g}), {viol_in} of them violate (10); out of "
            f"the regime {observed['out_of_regime_violating_runs']} of {len(outside)} runs violate"
            + (f" (at n = {observed['out_of_regime_violations_at_n']})" if observed['out_of_regime_violations_at_n'] else "")
            + f"; median dist+/bound {observed['median_ratio_to_bound']:.4f}, median a_t {observed['median_a']:.2e}"
            + f"; other readings of c0: {observed['c0_readings']}")
    params = {"d": d, "k": k, "M": M, "N": N, "n0": n0, "sigma": sigma, "rounds": T, "stage_lengths": 25,
              "m": list(ms), "runs_per_m": per_m, "c0": C0}
    regime = f"m_0 per run {', '.join(f'{x:.3g}' for x in m0s)}"
    # decided on the runs that meet the m condition; with none, the kit's premised gives the size that would test it
    out = decide.premised(lambda: decide.probability(viol_in, len(inside), p_allowed, what=what, params=params),
                          held=len(inside), trials=len(rows), what=f"{what} (largest m_0 seen {max(m0s):.3g})",
                          unit="runs meeting the m condition", params=params, regime=regime)
    out["regime"] = regime
    return {**out, "observed": {**observed, **(out["observed"] or {})}, "bound": {**(out["bound"] or {}), "c0": C0},
            "evidence": desc + "; " + out["evidence"]}


# ----------------------------------------------------------------------------- Theorem 4.7 closed forms
@PAPER.claim("srpfl.corA11.noise-floor", "Theorem 4.7 (10), Corollary A.11 (198), eq. (12) [arXiv: (9)-(11)]",
             "The recursion d+ = sqrt(1-a) d + a/sqrt((n/n0)(1-a)) has d_t = D + (d0 - D)(1-a)^{t/2} with "
             "D_r = a/(sqrt(2^r(1-a))(1-sqrt(1-a))); D_{r+1} = D_r/sqrt2; D_r -> 2/sqrt(2^r) as a -> 0; the "
             "bound is vacuous (D >= 1) for n/n0 <= a^2/((1-a)(1-sqrt(1-a))^2) (about 4); the target (12) "
             "with 1 < c_hat < sqrt2 lies below D_{log(N/(2 n0))}.",
             regime="closed forms and their defining recursions in floating point (no probability, no constant): a "
                    "in {1e-4, 0.01, 0.1, 0.25}, r = 0..5, 200 iterations; identities to 1e-12, the small-a limit at "
                    "a = 1e-8 to 1e-6, the vacuity threshold against a scan of n/n0 on a grid of step 1e-4 (to "
                    "2e-4); target at N=1024, n0=4, a=0.05, c_hat in {1.01, 1.2, 1.41}")
def _floor(full: bool, seed):
    errs = {}
    worst = 0.0
    for a in (1e-4, 0.01, 0.1, 0.25):
        for r in range(6):
            d, s = 0.9, math.sqrt(1 - a)
            it = [d]
            for _ in range(200):
                d = contraction_bound(d, a, 2 ** r)
                it.append(d)
            cf = floor_recursion(0.9, a, 2 ** r, np.arange(201))
            worst = max(worst, float(np.max(np.abs(np.array(it) - cf))))
    errs["recursion_vs_closed_form"] = worst
    a = np.array([1e-4, 0.01, 0.1, 0.25])
    errs["D_halving"] = float(np.max(np.abs(noise_floor(a, 2) * math.sqrt(2) - noise_floor(a, 1))))
    errs["small_a_limit"] = float(abs(noise_floor(1e-8, 4) - 2 / math.sqrt(4)))
    # vacuity threshold against a brute-force scan of n/n0
    thr = vacuous_ratio(a)
    scan = np.linspace(1, 8, 70001)
    brute = np.array([scan[np.argmax(noise_floor(ai, scan) < 1)] for ai in a])
    errs["vacuous_threshold_vs_scan"] = float(np.max(np.abs(brute - thr)))
    tgt = target_error(0.05, 1024, 4, np.array([1.01, 1.2, 1.41]))
    D_R1 = noise_floor(0.05, 1024 / 8)
    names = ["recursion_vs_closed_form", "D_halving", "small_a_limit", "vacuous_threshold_vs_scan"]
    tols = [1e-12, 1e-12, 1e-6, 2e-4]
    return decide.combine(
        [decide.bound([errs[k] for k in names], tols, of="tolerance",
                      what=f"recursion vs closed form max error {worst:.1e}; D_r sqrt2 = D_(r-1) to "
                           f"{errs['D_halving']:.1e}; D vacuous for n/n0 <= {', '.join(f'{t:.3f}' for t in thr)} "
                           f"(a = 1e-4, 0.01, 0.1, 0.25), matching a scan to {errs['vacuous_threshold_vs_scan']:.1e}"),
         decide.bound(tgt, D_R1, what=f"target (12) for c_hat in (1.01, 1.2, 1.41) vs D_(R-1) = {D_R1:.4g}",
                      of="floor D_(R-1)")],
        what="Corollary A.11 closed forms",
        observed={**errs, "target_below_D_{R-1}": bool(np.all(tgt < D_R1)), "vacuous_n_over_n0": thr.tolist()},
        bound={"tolerances": dict(zip(names, tols)), "vacuous_n_over_n0_small_a": 4.0, "D_(R-1)": float(D_R1)},
        params={"a": a.tolist(), "r": list(range(6))})


@PAPER.claim("srpfl.thm4.7.floor-not-prediction", "Theorem 4.7 (10), Corollary A.11; proof step (138)",
             "The additive floor of (10) does not vanish at sigma = 0 (A3 in (138) bounds "
             "sqrt(k) delta sigma^2 + (delta sigma^2)^2 by sqrt(k) + 1): noiseless runs converge far below D_r, "
             "so the floor is an artefact of the proof, not a prediction.",
             regime="noiseless (sigma = 0) exact FedRep-SRPFL runs inside Theorem 4.7's sample regime (d=20, k=2, "
                    "N=M=64, n0=4, m=40, so m n0 = 8 d; MoM initialisation; 20 rounds per stage, 200 rounds); 'far "
                    "below' read as at least two orders of magnitude: every run must end with dist <= D_R / 100 "
                    "(D_R the floor of (10) with the last round's a_t and n = N); a run ending above that shows the "
                    "floor as a prediction and the claim fails")
def _floor_pred(full: bool, seed):
    runs, p = _runs(full, seed, sigma=0.0, d=20, k=2, m=40, rounds=200, stage_lengths=20)
    final = np.array([res.dist[-1] for res in runs])
    a_last = np.array([res.a[-1] for res in runs])
    D = noise_floor(a_last, p["N"] / p["n0"])
    ratio = final / D
    return decide.bound(ratio, 1e-2, of="factor 'far below' (1e-2)",
                        what=f"noiseless runs (d=20,k=2,N=M=64,n0=4,m=40): final dist "
                             f"{', '.join(f'{v:.1e}' for v in final)} vs floor D_R "
                             f"{', '.join(f'{v:.2f}' for v in np.atleast_1d(D))}; final/D_R <= 1e-2 ('far below'); the "
                             f"sharper reading (largest final/D_R itself) is {float(np.max(ratio)):.2g}",
                        observed_value={"final_dist": final.tolist(), "max_final_over_floor": float(np.max(ratio))},
                        bound_value={"floor_D_R": np.asarray(D).tolist(), "final_over_floor_max": 1e-2},
                        params={**p, "seeds": len(runs)})
