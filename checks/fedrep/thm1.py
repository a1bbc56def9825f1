"""Sec. 4.2 of Collins, Hassani, Mokhtari and Shakkottai (2021), *Exploiting Shared Representations for Personalized
Federated Learning*, ICML 2021: Definition 1 (the principal angle distance (9)), the constants of Assumptions 2-3
that Theorem 1 uses, Theorem 1 (the contraction (10), its probability, its rate, the definition of kappa and its
erratum) and the strict decrease of (10) stated after it. Verdicts come from :mod:`fedtheory.decide`.
"""
from __future__ import annotations

import itertools
import math

import numpy as np
import scipy.linalg
import statsmodels.api as sm
from fedtheory import decide
from fedtheory.linalg import orthonormalize, principal_angle_distance, principal_angle_distance_def1
from fedtheory.montecarlo import estimate_from_samples
from fedtheory.random import as_generator, spawn_seeds
from fedtheory.representation import (client_diversity, default_eta, make_heads, make_model, n_selected,
                                      theorem1_max_eta, theorem1_probability, theorem1_rate)
from fedtheory.representation import experiments as ex
from ._common import _contraction_batch, _thm1_setting
from . import PAPER


# ----------------------------------------------------------------------------- Definition 1
@PAPER.claim("fedrep.def1.dist-identities", "Definition 1, eq. (9)",
             "dist(B1,B2) = ||B1perp^T B2hat||_2 equals sin of the largest principal angle and "
             "sqrt(1 - sigma_min^2(B1hat^T B2hat)), lies in [0,1], is symmetric and invariant to "
             "B -> B Q for invertible Q.",
             regime="exact identities on 100 (quick) / 400 (full) random non-orthonormal pairs, d=12, k=3, "
                    "R = N(0,1) + 3 I; every form must agree to 1e-10 (floating point), else `refuted`")
def _dist_identities(full: bool, seed):
    rng = as_generator(seed)
    pairs = 400 if full else 100
    d, k = 12, 3
    B1 = rng.standard_normal((pairs, d, k))
    B2 = rng.standard_normal((pairs, d, k))
    fast = principal_angle_distance(B1, B2)
    Q1, Q2 = orthonormalize(B1), orthonormalize(B2)
    svmin = np.linalg.svd(np.swapaxes(Q1, 1, 2) @ Q2, compute_uv=False)[:, -1]
    alt = np.sqrt(np.clip(1 - svmin ** 2, 0, 1))
    def1 = np.array([principal_angle_distance_def1(B1[i], B2[i]) for i in range(pairs)])
    scipy_sin = np.array([np.sin(scipy.linalg.subspace_angles(B1[i], B2[i]).max())
                          for i in range(pairs)])
    R = rng.standard_normal((pairs, k, k)) + 3 * np.eye(k)
    inv = principal_angle_distance(B1 @ R, B2 @ np.swapaxes(R, 1, 2))
    sym = principal_angle_distance(B2, B1)
    disc = {"def1_vs_fast": float(np.max(np.abs(def1 - fast))),
            "scipy_vs_fast": float(np.max(np.abs(scipy_sin - fast))),
            "sigma_min_form": float(np.max(np.abs(alt - fast))),
            "invariance_BQ": float(np.max(np.abs(inv - fast))),
            "symmetry": float(np.max(np.abs(sym - fast))),
            "range_violation": float(max(0.0, -fast.min(), fast.max() - 1))}
    return decide.identity(np.array(list(disc.values())), 0.0, atol=1e-10,
                           what=f"{pairs} random non-orthonormal pairs (d={d}, k={k}): {', '.join(disc)}",
                           params={"pairs": pairs, "d": d, "k": k, "discrepancies": disc})


# ----------------------------------------------------------------------------- Theorem 1
@PAPER.claim("fedrep.asm3.diversity-constants", "Assumptions 2-3; Theorem 1 (definitions)",
             "Under Assumption 3, sigma_max,*^2 >= 1 >= sigma_min,*^2, sigma_max,*^2 <= k, kappa >= 1, so "
             "eta = 1/(4k) always satisfies eta <= 1/(4 sigma_max,*^2); Assumption 2 needs rn >= k "
             "(sigma_min,* = 0 otherwise) and the probability 1 - T e^{-100 min(k^2 log rn, d)} is "
             "vacuous at rn = 1.",
             regime="exact enumeration of all rn-subsets (n=12, k=3, rn in {2, 3, 4, 6}) for 6 (quick) / 20 "
                    "(full) draws of sqrt(k)-normalised heads; each inequality to 1e-12, any violation is "
                    "`refuted`")
def _diversity(full: bool, seed):
    trials = 20 if full else 6
    k = 3
    smax2, smin2, kappas, etas, eta_max, below_k = [], [], [], [], [], []
    for s in spawn_seeds(seed, trials):
        W = make_heads(as_generator(s), 12, k, "sqrt_k")
        for rn in (k - 1, k, 4, 6):
            dv = client_diversity(W, rn)  # exact: C(12, 6) = 924 subsets
            if rn < k:
                below_k.append(dv.sigma_min)
                continue
            smax2.append(dv.sigma_max ** 2)
            smin2.append(dv.sigma_min ** 2)
            kappas.append(dv.kappa)
            etas.append(default_eta(W))
            eta_max.append(float(theorem1_max_eta(dv.sigma_max)))
    smax2, smin2 = np.array(smax2), np.array(smin2)
    p1 = float(theorem1_probability(10, 2, 1, 10))
    what = f"exact enumeration over all rn-subsets of n=12 sqrt(k)-normalised heads (k=3), {trials} draws"
    return decide.combine(
        [decide.bound(smax2, 1.0, sense=">=", atol=1e-12, what="sigma_max,*^2 >= 1"),
         decide.bound(smin2, 1.0, atol=1e-12, what="sigma_min,*^2 <= 1"),
         decide.bound(smax2, float(k), atol=1e-12, what="sigma_max,*^2 <= k"),
         decide.bound(np.array(kappas), 1.0, sense=">=", what="kappa >= 1"),
         decide.bound(np.array(etas), np.array(eta_max), atol=1e-15, what="eta = 1/(4k) <= 1/(4 sigma_max,*^2)"),
         decide.bound(np.abs(below_k), 0.0, what="sigma_min,* = 0 when rn < k"),
         decide.bound(abs(p1), 0.0, what="the probability 1 - T e^{-100 min(k^2 log rn, d)} at rn=1, T=10 "
                                          "(max(1 - T, 0) = 0)")],
        what=what,
        observed={"min_sigma_max_sq": float(smax2.min()), "max_sigma_max_sq": float(smax2.max()),
                  "max_sigma_min_sq": float(smin2.max()), "min_sigma_min_sq": float(smin2.min()),
                  "probability_rn1_T10": p1},
        bound={"sigma_max_sq_range": [1, k], "sigma_min_sq_max": 1},
        params={"n": 12, "k": k, "trials": trials})


@PAPER.claim("fedrep.thm1.kappa-typo", "Theorem 1 (definition of kappa); Introduction (ii)",
             "kappa is the condition number of the ground-truth heads; printed kappa := "
             "sigma_max,*/sigma_max,* (= 1 always), corrected kappa := sigma_max,*/sigma_min,*.",
             regime="r = 1 (rn = n = 8, k = 2), where the only subset is all clients, so kappa must equal "
                    "the condition number of W* (Introduction: 'kappa the condition number of the "
                    "ground-truth heads'); each form must match it to 1e-10 relative (decide.identity), "
                    "decided by an independent SVD of W*",
             root_cause="kappa-sigma-max-over-sigma-max")
def _kappa(full: bool, seed):
    trials = 50 if full else 10
    printed, corrected, cond = [], [], []
    for s in spawn_seeds(seed, trials):
        W = make_heads(as_generator(s), 8, 2, "sqrt_k")
        dv = client_diversity(W, 8)  # r = 1: the only subset is all clients
        printed.append(dv.sigma_max / dv.sigma_max)
        corrected.append(dv.kappa)
        cond.append(float(np.linalg.cond(W)))
    printed, corrected, cond = map(np.array, (printed, corrected, cond))
    p_err = float(np.max(np.abs(printed - cond) / cond))
    c_err = float(np.max(np.abs(corrected - cond) / cond))
    return decide.erratum(
        decide.identity(printed, cond, rtol=1e-10, what="printed sigma_max/sigma_max vs cond(W*)"),
        decide.identity(corrected, cond, rtol=1e-10, what="corrected sigma_max/sigma_min vs cond(W*)"),
        what="kappa of Theorem 1 at r = 1",
        printed_value={"kappa": printed[:5].tolist(), "max_rel_error_vs_cond": p_err},
        corrected_value={"kappa": corrected[:5].tolist(), "max_rel_error_vs_cond": c_err},
        root_cause="kappa-sigma-max-over-sigma-max",
        evidence=f"with r=1 (rn=n=8, k=2) kappa should equal cond(W*) "
                 f"(median {np.median(cond):.3g}); printed sigma_max/sigma_max = 1 misses it by up "
                 f"to {p_err:.3g} (relative); corrected sigma_max/sigma_min matches to {c_err:.1e}",
        params={"trials": trials, "n": 8, "k": 2, "r": 1},
        referee="numpy.linalg.cond(W*) (SVD of W*, computed independently of client_diversity's subset "
                "enumeration) decides which definition gives the condition number")


#: batch sizes of the contraction claim (doubling, m >= k); quick mode uses the first three
CONTRACTION_GRID = (20, 40, 80, 160, 320)


#: in-regime runs: c_run = m E0^2 / K >= CONTRACTION_SAFETY * (largest c_run of a violating calibration run)
CONTRACTION_SAFETY = 2.0


def regime_constant(m, E0, k, d, rn, kappa):
    """The constant a run realises in Theorem 1's condition: ``c_run = m E0^2 / (kappa^4 (k^3 log(rn) + k^2
    d/(rn))))``; the run is inside the theorem's regime for every reading ``c <= c_run``."""
    K = kappa ** 4 * (k ** 3 * math.log(rn) + k ** 2 * d / rn)
    return np.asarray(m, float) * np.asarray(E0, float) ** 2 / K


def contraction_verdict(c_cal_viol, c_chk, broken_chk, p_allowed, safety: float = CONTRACTION_SAFETY,
                        m_0_top=None, m_top=None):
    """Decision of Theorem 1's (10) under the regime rule (Collins et al., 2021, Theorem 1), through
    :mod:`fedtheory.decide`.

    ``c_cal_viol``: the c_run of the calibration runs that broke (10); the reading of c is
    ``c_0 = safety * max(c_cal_viol)`` (0 if none broke). ``c_chk``, ``broken_chk``: the fresh check runs.
    The runs with ``c_chk >= c_0`` are inside the stated regime. Three decisions, combined: (10) holds in
    them with the stated probability (:func:`fedtheory.decide.probability` against ``p_allowed``); at least
    one check run is inside the regime (:func:`fedtheory.decide.bound`); the measured threshold
    ``m_0_top = c_0 K / E0^2`` at the median E0 of the largest grid m is at most that m ``m_top`` (the
    regime is reached on the grid). Returns (decision dict, c_0, in-regime mask)."""
    c_chk = np.asarray(c_chk, float)
    broken_chk = np.asarray(broken_chk, bool)
    c0 = safety * float(np.max(c_cal_viol)) if len(c_cal_viol) else 0.0
    inside = c_chk >= c0
    n_in = int(inside.sum())
    parts = [decide.bound(n_in, 1, sense=">=", of="in-regime run count",
                          what=f"check runs inside the regime c_run >= c_0 = {c0:.3g}"),
             decide.probability(int(broken_chk[inside].sum()), max(n_in, 1), p_allowed,
                                what="check runs inside the regime breaking (10)")]
    if m_0_top is not None and m_top is not None:
        parts.append(decide.bound(float(m_0_top), float(m_top), of="batch-size threshold",
                                  what="measured threshold m_0 = c_0 K/E0^2 at the median E0 of the largest grid m"))
    out = decide.combine(parts, what="Theorem 1, (10) inside the regime",
                         observed={"in_regime_runs": n_in, "violations_in_regime": int(broken_chk[inside].sum()),
                                   "m_0_top": m_0_top},
                         bound={"c_0": c0, "p_allowed": p_allowed, "m_top": m_top})
    return out, c0, inside


@PAPER.claim("fedrep.thm1.contraction", "Theorem 1, eq. (10) and its probability",
             "For eta <= 1/(4 sigma_max,*^2) and m >= c kappa^4 (k^3 log(rn) + k^2 d/(rn))/E0^2, dist(B^T, B*) <= "
             "(1 - eta E0 sigma_min,*^2/2)^(T/2) dist(B^0, B*) for every T, with probability >= 1 - T e^{-100 "
             "min(k^2 log(rn), d)} (exact noiseless runs with QR on one ground truth; sigma_min,* by exact "
             "enumeration).",
             regime="Algorithm 2 as analysed (MoM initialisation on m samples per client, fresh batches, QR, "
                    "eta = 1/(4k) <= 1/(4 sigma_max,*^2), noiseless; reduced sampler, exact in law), d=20, k=2, "
                    "n=16, r=0.5, T=60, one ground truth, sigma_min,* and kappa exact. The m condition involves "
                    "the run's own E0 = 1 - dist(B^0, B*)^2, so each run realises c_run = m E0^2 / (kappa^4 "
                    "(k^3 log(rn) + k^2 d/(rn))). The unknown c is read from calibration runs at every grid m "
                    "in {20, 40, 80} (quick) / {20, ..., 320} (full): c_0 = 2 x (largest c_run of a "
                    "calibration run that breaks (10)); fresh check runs with c_run >= c_0 are inside the "
                    "regime, and (10) must hold in every round of them with the stated probability (one-sided "
                    "exact binomial test at 1e-4, decide.probability; the allowed rate is 60 e^-831, so one "
                    "violation is `refuted`). No check run inside the regime, or a measured threshold m_0 = c_0 K / "
                    "E0^2 at the median E0 of the largest grid m above that m, is `refuted` (the regime is not "
                    "reached where the MoM Remark promises a constant E0). m_0(E0) is reported. When no "
                    "calibration run breaks (10) (the observed case at seed 0), c_0 = 0: the open constant c is "
                    "calibrated to 0 and every run counts as inside the regime, i.e. (10) is tested for every m "
                    "on the grid, the strongest reading (c = 0 is not a value the theorem allows, c > 0, but "
                    "every reading c > 0 tests a subset of these runs, so a pass at c = 0 is a pass for all). "
                    "The reading c = 1 (the printed condition with the constant one) is reported beside it: "
                    "the check runs with c_run >= 1 and their violations; it needs m >= K/E0^2 (thousands at d = 20 with "
                    "the method-of-moments E0, so no grid run reaches it: untestable at these sizes, reported, "
                    "not a separate verdict)")
def _thm1_contraction(full: bool, seed):
    p = _thm1_setting(full)
    runs = 200 if full else 24
    grid = CONTRACTION_GRID if full else CONTRACTION_GRID[:3]
    s_model, s_runs = spawn_seeds(seed, 2)
    model = make_model(p["d"], p["k"], p["n"], seed=s_model)
    n_sel = n_selected(p["n"], p["r"])
    dv = client_diversity(model.W_star, n_sel)
    prob = float(theorem1_probability(p["rounds"], p["k"], n_sel, p["d"]))
    p_allowed = max(0.0, 1.0 - prob)
    s_cal, s_chk = spawn_seeds(s_runs, 2)
    K = dv.kappa ** 4 * (p["k"] ** 3 * math.log(n_sel) + p["k"] ** 2 * p["d"] / n_sel)
    params = {**{k_: v for k_, v in p.items() if k_ not in ("m", "runs")}, "n_sel": n_sel, "sigma": 0.0,
              "init": "mom", "sampler": "reduced", "diversity": "exact", "grid": list(grid),
              "safety": CONTRACTION_SAFETY, "runs_per_m": runs}
    cal, chk = {}, {}
    c_viol, c_all, b_all, e_all, m_all = [], [], [], [], []
    for m, sa, sb in zip(grid, spawn_seeds(s_cal, len(grid)), spawn_seeds(s_chk, len(grid))):
        broken, ratio, E0 = _contraction_batch(model, m, p["r"], p["rounds"], sa, runs, dv.sigma_min)
        c_run = regime_constant(m, E0, p["k"], p["d"], n_sel, dv.kappa)
        c_viol += list(c_run[broken])
        cal[str(m)] = {"violations": int(broken.sum()), "runs": runs,
                       "E0_of_violations": [float(e) for e in E0[broken][:5]]}
        broken, ratio, E0 = _contraction_batch(model, m, p["r"], p["rounds"], sb, runs, dv.sigma_min)
        c_all.append(regime_constant(m, E0, p["k"], p["d"], n_sel, dv.kappa))
        b_all.append(broken)
        e_all.append(E0)
        m_all.append(np.full(runs, m))
        chk[str(m)] = {"violations": int(broken.sum()), "runs": runs, "median_E0": float(np.median(E0)),
                       "max_ratio": float(ratio.max())}
    c_all, b_all, e_all, m_all = map(np.concatenate, (c_all, b_all, e_all, m_all))
    c0 = CONTRACTION_SAFETY * max(c_viol) if c_viol else 0.0
    e_top = float(np.median(e_all[m_all == grid[-1]]))
    m0_top = c0 * K / max(e_top, 1e-300) ** 2
    out, c0, inside = contraction_verdict(c_viol, c_all, b_all, p_allowed, m_0_top=m0_top, m_top=grid[-1])
    margin, detects = out["margin"], out["detects"]
    for m in grid:
        sel = m_all == m
        chk[str(m)].update(in_regime=int((inside & sel).sum()), violations_in_regime=int((inside & sel & b_all).sum()))
    E0_med = float(np.median(e_all))
    m0_med = c0 * K / E0_med ** 2
    out_regime_viol = int((b_all & ~inside).sum())
    # the stricter reading c = 1 (the printed condition with the constant one): runs with c_run >= 1
    c1 = c_all >= 1.0
    c1_reading = {"runs": int(c1.sum()), "violations": int((c1 & b_all).sum()),
                  "m_needed_at_median_E0": K / max(float(np.median(e_all)), 1e-300) ** 2}
    observed = {"calibration": cal, "check": chk, "c_0": c0, "K": K, "m_0_at_median_E0": m0_med,
                "m_0_at_median_E0_of_largest_m": m0_top,
                "median_E0": E0_med, "violations_outside_regime": out_regime_viol, "reading_c_1": c1_reading,
                **out["observed"]}
    ev = (f"calibration ({runs} runs per m): violations "
          + ", ".join(f"m={m}: {c_['violations']}" for m, c_ in cal.items())
          + f" -> c_0 = {CONTRACTION_SAFETY:g} x max c_run of a violation = {c0:.3g} (K = kappa^4(k^3 log rn + "
            f"k^2 d/rn) = {K:.4g}, kappa = {dv.kappa:.3g}); measured threshold m_0(E0) = c_0 K/E0^2 = "
            f"{m0_med:.3g} at the median E0 {E0_med:.3g}. Check runs: "
          + ", ".join(f"m={m}: {c_['violations_in_regime']} violations in {c_['in_regime']} in-regime runs "
                      f"({c_['violations']}/{c_['runs']} overall)" for m, c_ in chk.items())
          + f"; {out_regime_viol} violations outside the regime (small E0). " + out["evidence"]
          + f". Stated probability {prob:.6g} (allowed violation rate {p_allowed:.3g}). Reading c = 1: "
            f"{c1_reading['violations']} violations in {c1_reading['runs']} check runs with c_run >= 1 (m >= "
            f"{c1_reading['m_needed_at_median_E0']:.3g} at the median E0)")
    out.update(observed=observed, evidence=ev, params=params, margin=margin, detects=detects,
               bound={"probability": prob, "p_allowed": p_allowed, "eta_max": theorem1_max_eta(dv.sigma_max),
                      "sigma_min": dv.sigma_min, "kappa": dv.kappa, "c_0": c0},
               regime=f"c_0 = {c0:.3g}" + (" (no calibration run breaks (10), so the open constant c is read as 0: "
                                           "every run is inside the regime)" if c0 == 0 else "")
               + f": runs with m E0^2 >= {c0 * K:.3g} (m_0 = {m0_med:.3g} at the median E0)")
    return out


@PAPER.claim("fedrep.thm1.rate-fit", "Theorem 1, eq. (10) (the rate)",
             "The empirical per-round contraction of dist (OLS of log dist_t on t, statsmodels) is at "
             "least as fast as the theoretical rate (1 - eta E0 sigma_min,*^2/2)^(1/2).",
             regime="the rate of (10) on average: the mean over 20 (quick) / 60 (full) exact noiseless runs "
                    "(MoM, QR, eta = 1/(4k); d=20, k=2, n=16, r=0.5, m=20, T=60) of the OLS slope of log dist_t "
                    "(above 1e-11) on t, against log rho at the median E0 with exact sigma_min,*; a mean "
                    "slope significantly above log rho (one-sided z test at 1e-4, decide.bound on the speeds "
                    "-log rate) is `refuted`; the margin says how much faster the runs contract than (10)")
def _thm1_rate(full: bool, seed):
    p = _thm1_setting(full)
    p["runs"] = 60 if full else 20
    s_model, s_runs = spawn_seeds(seed, 2)
    model = make_model(p["d"], p["k"], p["n"], seed=s_model)
    n_sel = n_selected(p["n"], p["r"])
    dv = client_diversity(model.W_star, n_sel)
    dist, E0, eta = ex.theorem1_runs(model, p["m"], p["r"], p["rounds"], p["runs"], seed=s_runs)
    slopes = []
    for row in dist:
        keep = row > 1e-11  # before the float64 floor
        t = np.arange(row.size)[keep]
        fit = sm.OLS(np.log(row[keep]), sm.add_constant(t)).fit()
        slopes.append(fit.params[1])
    est = estimate_from_samples(np.array(slopes))
    log_rho = float(np.log(np.median(theorem1_rate(eta, E0, dv.sigma_min))))
    # contraction speeds -log(rate) > 0: the fitted speed must not fall below the theoretical one
    out = decide.bound(-float(est.mean), -log_rho, sense=">=", se=float(est.se), of="rate exponent",
                       what=f"fitted per-round contraction speed -log rate (mean of {len(slopes)} OLS slopes) vs "
                            f"Theorem 1's -log rho",
                       observed_value={"log_rate": float(est.mean), "se": float(est.se), "rate": math.exp(est.mean),
                                       "speed_over_theory": float(est.mean / log_rho)},
                       bound_value={"log_rate": log_rho, "rate": math.exp(log_rho)}, params={**p, "n_sel": n_sel})
    # the sharper reading: the runs contract at least 10x faster (in log scale) than (10) promises
    sharp = decide.bound(-float(est.mean), -10 * log_rho, sense=">=", se=float(est.se), of="rate exponent",
                         what="sharper reading: speed >= 10 x Theorem 1's -log rho")
    out["observed"]["sharper_reading_10x_rate"] = {"outcome": sharp["status"], "margin": sharp["margin"],
                                                   "detects": sharp["detects"]}
    out["evidence"] += (f"; empirical contraction is {est.mean / log_rho:.3g}x "
                        f"{'faster' if est.mean < log_rho else 'slower'} than rho in log scale; sharper reading "
                        f"(10x Theorem 1's rate exponent): {sharp['status']}")
    return out


# ----------------------------------------------------------------------- text after Theorem 1: (10) strictly decreases
def subset_sigmas_brute(W, n_sel):
    """sigma_min,*, sigma_max,* by brute force: the SVD of every rn-row submatrix of W / sqrt(rn)
    (the k-th singular value, 0 when rn < k). Independent of :func:`client_diversity`."""
    k = W.shape[1]
    lo, hi = math.inf, 0.0
    for idx in itertools.combinations(range(W.shape[0]), n_sel):
        s = np.linalg.svd(W[list(idx)] / math.sqrt(n_sel), compute_uv=False)
        lo = min(lo, float(s[k - 1]) if n_sel >= k else 0.0)
        hi = max(hi, float(s[0]))
    return lo, hi


@PAPER.claim("fedrep.sec4.strict-decrease", "Sec. 4.2, text after Theorem 1",
             "By Assumption 2 sigma_min,*^2 > 0, so the right side of (10) strictly decreases with T for an "
             "appropriate step size; it does not when rn < k (sigma_min,* = 0).",
             regime="grid: 8 (quick) / 200 (full) Assumption-3 head sets with n=8, k=2, rn in {1, 2, 4, 8} "
                    "(sigma's by brute-force SVD of every subset, cross-checked against client_diversity to "
                    "1e-12), E0 in {1e-3, 0.25, 1}, eta in {eta_max, eta_max/2} with eta_max = 1/(4 "
                    "sigma_max,*^2), dist_0 = 0.5, T = 0..200. Holds if for rn >= k every rho^2 is in [7/8, 1) "
                    "and the bound strictly decreases at every T, and for rn < k rho^2 = 1 exactly; otherwise "
                    "`refuted`. A consistency check: arithmetic on the right side of (10) itself (true by "
                    "construction once sigma_min,* > 0 and eta <= 1/(4 sigma_max,*^2)); that Algorithm 2's runs "
                    "obey (10) is exercised by fedrep.thm1.contraction and fedrep.thm1.rate-fit",
             kind="consistency")
def _strict(full: bool, seed):
    n, k = 8, 2
    sets = 200 if full else 8
    rows, cross = [], 0.0
    for s in spawn_seeds(seed, sets):
        W = make_heads(as_generator(s), n, k)
        for n_sel in (1, 2, 4, 8):
            lo, hi = subset_sigmas_brute(W, n_sel)
            dv = client_diversity(W, n_sel)
            cross = max(cross, abs(lo - dv.sigma_min), abs(hi - dv.sigma_max))
            eta_max = float(theorem1_max_eta(hi))
            for E0 in (1e-3, 0.25, 1.0):
                for eta in (eta_max, eta_max / 2):
                    rho = float(theorem1_rate(eta, E0, lo))
                    seq = 0.5 * rho ** np.arange(201)
                    rows.append(dict(rn=n_sel, rho2=float(np.nan_to_num(rho ** 2, nan=-1.0)),  # undefined rate: -1
                                     decreasing=bool(np.all(np.diff(seq) < 0))))
    return strict_verdict(rows, cross, k, params={"n": n, "k": k, "head_sets": sets, "rn": [1, 2, 4, 8]})


def strict_verdict(rows, cross, k, params=None) -> dict:
    """Decision of ``fedrep.sec4.strict-decrease`` from the grid rows (rn, rho2, decreasing), by
    :func:`fedtheory.decide.bound` and :func:`fedtheory.decide.identity`."""
    ok_rows = [r for r in rows if r["rn"] >= k]
    bad_rows = [r for r in rows if r["rn"] < k]
    rho2 = np.array([r["rho2"] for r in ok_rows])
    not_decreasing = sum(not r["decreasing"] for r in ok_rows)
    rho2_bad = np.array([r["rho2"] for r in bad_rows] or [1.0])
    return decide.combine(
        [decide.bound(rho2, 7 / 8, sense=">=", of="rate", what=f"rho^2 >= 7/8 at the {len(ok_rows)} points with rn >= k"),
         decide.bound(rho2, 1.0 - np.finfo(float).eps, what="rho^2 < 1 (strictly) with rn >= k"),
         decide.bound(not_decreasing, 0, what="grid points whose bound does not strictly decrease at every T"),
         decide.identity(rho2_bad, 1.0, atol=0.0, rtol=np.finfo(float).eps, what="rho^2 = 1 when rn < k"),
         decide.bound(float(cross), 1e-12, what="brute-force sigma's vs client_diversity")],
        what="right side of (10) over the grid",
        observed={"rho2_range_rn_ge_k": [float(rho2.min()), float(rho2.max())],
                  "rho2_rn_lt_k": sorted({r["rho2"] for r in bad_rows}), "not_strictly_decreasing": not_decreasing,
                  "brute_vs_client_diversity": cross},
        bound={"rho2_min": 7 / 8, "rho2_max_exclusive": 1.0}, params=params or {})
