"""Sec. 5.1 and Figure 1 of FedRep: the synthetic experiments (Figures 1, 3 and 4) as claims."""
from __future__ import annotations

import numpy as np
from scipy import stats
from fedtheory.claims import FAILS, HOLDS, INCONCLUSIVE
from fedtheory.random import spawn_seeds
from fedtheory.representation import min_norm_interpolation_risk
from fedtheory.representation import experiments as ex
from .._util import CLAIM_LEVEL, binomial_trials_needed, erratum_verdict
from ._common import PAPER_NOISE, HEAD_LR_GRID, se_sample_size
from . import PAPER


@PAPER.claim("fedrep.fig1.local-mse", "Sec. 1, Figure 1 (caption)",
             "For m in {5, 10, 20} (d=20, k=2, n=100): FedRep has small local test MSE in all cases (below "
             "Local Only and FedAvg+FT at every m); Local Only suffers at small m; FedAvg cannot overcome "
             "heterogeneity even at the largest m.",
             regime="linear analogue of Figure 1: d=20, k=2, n=100, r=1, noise std 1e-3, m in {5, 10, 20}, 100 "
                    "(quick) / 200 (full) rounds, medians over 2 / 5 seeds. Read as: FedRep's median MSE below "
                    "Local's and FedAvg+FT's at every m and below 1% of E y^2 = k ('small'); Local's at m=5 "
                    "above 25% of E y^2 and 10x its value at m=20 ('suffers'); FedAvg+FT's at m=20 above 25% "
                    "of E y^2 ('cannot overcome heterogeneity'). Any one failing is `fails`")
def _fig1(full: bool, seed):
    seeds = 5 if full else 2
    ms = (5, 10, 20)
    data = ex.fig1_data(ms, seeds=seeds, rounds=200 if full else 100, seed=seed)
    med = {k_: np.median(v, axis=0) for k_, v in data.items()}
    signal = 2.0  # E y^2 = ||w*||^2 = k (Assumption 3)
    beats = bool(np.all(med["FedRep"] < med["Local"]) and np.all(med["FedRep"] < med["FedAvg"]))
    fedrep_small = bool(np.all(med["FedRep"] < 1e-2 * signal))
    local_suffers = bool(med["Local"][0] > 0.25 * signal and med["Local"][0] > 10 * med["Local"][-1])
    fedavg_stuck = bool(med["FedAvg"][-1] > 0.25 * signal)
    ok = beats and fedrep_small and local_suffers and fedavg_stuck
    return dict(status=HOLDS if ok else FAILS,
                observed={k_: v.tolist() for k_, v in med.items()},
                bound={"FedRep_max": 1e-2 * signal, "Local_at_m5_min": 0.25 * signal,
                       "FedAvg_at_m20_min": 0.25 * signal},
                evidence="median test MSE at m=" + str(list(ms)) + ": " +
                         "; ".join(f"{k_} " + ", ".join(f"{x:.2e}" for x in v) for k_, v in med.items())
                         + f" (signal E y^2 = {signal:g}). Note: Local Only is not the worst method at "
                         "m=5 here (FedAvg+FT is); the paper's caption does not claim it is",
                params={"ms": list(ms), "d": 20, "k": 2, "n": 100, "r": 1.0, "seeds": seeds,
                        "sigma": PAPER_NOISE, "fedavg_eta": 0.05, "fedavg_eval": "head fine-tuning"})


def paired_worse_verdict(logr: dict, level: float = CLAIM_LEVEL):
    """Decide "every paired effect is positive" from per-seed paired log ratios ``logr[name]`` (same
    ground truth per seed), e.g. ``log(MSE_Local / MSE_name)`` for "Local Only is worse than each other
    method", positive meaning "as stated".

    Paired t tests, one-sided each way at ``level/(2 * len(logr))`` (Bonferroni over comparisons and
    sides): some mean log ratio significantly below 0 (L better than that method) is ``fails``; all
    significantly above 0 is ``holds``; otherwise ``inconclusive``. Returns ``(status, per-comparison
    dict with mean, se, one-sided CI bounds and p-values, level)``.
    """
    lev = level / (2 * len(logr))
    out = {}
    for name, x in logr.items():
        x = np.asarray(x, dtype=float)
        N = x.size
        mean, se = float(np.mean(x)), float(np.std(x, ddof=1) / np.sqrt(N))
        q = float(stats.t.ppf(1 - lev, N - 1))
        if se > 0:
            tstat = mean / se
            p_gt, p_lt = float(stats.t.sf(tstat, N - 1)), float(stats.t.cdf(tstat, N - 1))
        else:
            p_gt, p_lt = (0.0, 1.0) if mean > 0 else ((1.0, 0.0) if mean < 0 else (1.0, 1.0))
        out[name] = dict(mean=mean, se=se, ci=[mean - q * se, mean + q * se], p_greater=p_gt, p_less=p_lt, N=N)
    if any(v["p_less"] < lev for v in out.values()):
        return FAILS, out, lev
    if all(v["p_greater"] < lev for v in out.values()):
        return HOLDS, out, lev
    return INCONCLUSIVE, out, lev


@PAPER.claim("fedrep.fig1.local-worst-small-m", "Sec. 1, Figure 1 (spec claim 19)",
             "ERRATUM (of spec claim 19's reading of Figure 1; the paper's caption itself says only that Local "
             "Only 'suffers in small-training data regimes', which fedrep.fig1.local-mse checks). Printed: Local "
             "Only is the worst method at small m, i.e. at m = 0.25 d = 5 (d=20, k=2, n=100) its local test MSE "
             "exceeds both FedRep's and FedAvg+FT's. Corrected: at m = 5 FedAvg+FT is the worst method (its MSE "
             "exceeds Local Only's) and Local Only is worse than FedRep, i.e. MSE_FedRep < MSE_Local < "
             "MSE_FedAvg+FT.",
             regime="linear analogue of Figure 1: d=20, k=2, n=100, r=1, noise std 1e-3, m=5, FedAvg step 0.05 "
                    "with per-client head fine-tuning on the final B (FedAvg+FT), 50 (quick) / 200 (full) "
                    "rounds, 6 / 12 paired seeds (same ground truth for the three methods), exact population "
                    "MSE averaged over the 100 clients. Paired t tests on per-seed log MSE ratios, one-sided each "
                    "way, Bonferroni over the 8 one-sided tests of the claim (1e-4/8 each). Printed: log(MSE_Local/"
                    "MSE_FedRep) and log(MSE_Local/MSE_FedAvg+FT) both > 0; some ratio significantly < 0 is "
                    "printed-fails, both significantly > 0 printed-holds. Corrected: log(MSE_FedAvg+FT/MSE_Local) "
                    "and log(MSE_Local/MSE_FedRep) both > 0, decided the same way. Printed fails and corrected "
                    "holds is `erratum-confirmed`; corrected failing is `fails`; an undecided test is inconclusive "
                    "with a seed count")
def _fig1_local_worst(full: bool, seed):
    seeds = 12 if full else 6
    rounds = 200 if full else 50
    data = ex.fig1_data((5,), seeds=seeds, rounds=rounds, seed=seed)
    mse = {k_: v[:, 0] for k_, v in data.items()}
    printed_lr = {f"Local worse than {name}": np.log(mse["Local"] / mse[name]) for name in ("FedRep", "FedAvg")}
    corrected_lr = {"FedAvg worse than Local": np.log(mse["FedAvg"] / mse["Local"]),
                    "Local worse than FedRep": np.log(mse["Local"] / mse["FedRep"])}
    p_status, p_res, lev = paired_worse_verdict(printed_lr, level=CLAIM_LEVEL / 2)
    c_status, c_res, _ = paired_worse_verdict(corrected_lr, level=CLAIM_LEVEL / 2)
    med = {k_: float(np.median(v)) for k_, v in mse.items()}

    def fmt(res):
        return "; ".join(f"{k_}: mean log ratio {v['mean']:.3f} (one-sided CIs [{v['ci'][0]:.3f}, {v['ci'][1]:.3f}], "
                         f"p_greater {v['p_greater']:.3g}, p_less {v['p_less']:.3g})" for k_, v in res.items())

    evidence = (f"m=5, {seeds} paired seeds, median MSE: FedRep {med['FedRep']:.3g}, FedAvg+FT {med['FedAvg']:.3g}, "
                f"Local {med['Local']:.3g} (signal E y^2 = 2). Printed (Local worst): " + fmt(p_res)
                + f" -> {p_status}. Corrected (FedRep < Local < FedAvg+FT): " + fmt(c_res) + f" -> {c_status}; level "
                f"{lev:g} per one-sided test. Why: Local's noiseless min-norm risk is (1 - m/d)||theta||^2 = 1.5, "
                "while a k-dim head fitted on FedAvg's single-direction B has excess about b^2 (m-1)/(m-k-1) = 2 b^2 "
                "with b^2 = ||(I - P_B) theta||^2 (fedrep.newclient.misspecified), up to 2||theta||^2 = 4")
    printed = {"mean_log_ratio": {k_: [v["mean"], *v["ci"]] for k_, v in p_res.items()}, "decision": p_status}
    corrected = {"mean_log_ratio": {k_: [v["mean"], *v["ci"]] for k_, v in c_res.items()}, "decision": c_status,
                 "median_mse_m5": med}
    params = {"m": 5, "d": 20, "k": 2, "n": 100, "r": 1.0, "rounds": rounds, "seeds": seeds,
              "sigma": PAPER_NOISE, "fedavg_eta": 0.05, "fedavg_eval": "head fine-tuning", "level_per_test": lev}
    referee = ("exact runs of the three methods on paired seeds (run_fedrep, run_fedavg + head fine-tuning, "
               "fit_local), each scored by its exact population MSE (test_mse_exact), decide both orderings")
    if c_status != FAILS and INCONCLUSIVE in (p_status, c_status):
        parts = [f"{k_}: about {se_sample_size(v['N'], v['se'], v['mean'], lev, df=lambda N: N - 1)} seeds"
                 for st, res in ((p_status, p_res), (c_status, c_res)) if st == INCONCLUSIVE
                 for k_, v in res.items() if v["p_greater"] >= lev and v["p_less"] >= lev]
        return dict(status=INCONCLUSIVE, observed={"printed": printed, "corrected": corrected},
                    bound={"printed_holds": None, "corrected_holds": None},
                    evidence=evidence + "; undecided: " + ", ".join(parts)
                    + " would make the mean log ratio significant with power 0.8", params=params, referee=referee)
    return erratum_verdict(p_status == HOLDS, c_status == HOLDS, printed, corrected, evidence, params,
                           referee=referee)


#: Head steps of the GD methods in the public code's Figure 3 cell, per n (spec fedrep.md, "Figure 3"
#: cell: 10GD-GD 0.01, 0.4, 0.25 and GD-GD 0.12, 0.75, 1 for n = 10, 100, 1000). Tuned there for summed
#: gradients and tiny heads, so untuned for this normalisation: the "paper" reading uses them as printed.
PAPER_CODE_HEAD_LR = {100: {"10GD-GD": 0.4, "GD-GD": 0.75}, 1000: {"10GD-GD": 0.25, "GD-GD": 1.0}}
HEAD_LR_READINGS = ("tuned", "paper")
#: "A converges faster than B": dist_A(t=20) at least 5% below dist_B(t=20), i.e. log(dist_B/dist_A) > margin
FASTER_MARGIN = float(np.log(1.05))


def sign_margin_verdict(D: dict, margin: float, level: float = CLAIM_LEVEL):
    """Decide "A faster than B" for each comparison from paired log ratios ``D[name] = log(dist_B/dist_A)``.

    Per comparison, W = #(D > margin) out of N paired seeds; exact binomial (sign) tests of the median
    of D against ``margin``, one-sided each way at ``level/(2 * len(D))`` (Bonferroni over comparisons
    and sides). ``holds``: every median significantly above the margin; ``fails``: some median
    significantly below it (A is not faster by the margin: a tie or B faster); otherwise
    ``inconclusive``. Returns ``(status, per-comparison dict)``.
    """
    lev = level / (2 * len(D))
    out = {}
    for name, d in D.items():
        d = np.asarray(d, dtype=float)
        N, W = d.size, int(np.sum(d > margin))
        ci = stats.binomtest(W, N).proportion_ci(confidence_level=1 - 2 * lev, method="exact")
        out[name] = dict(wins=W, N=N, rate=W / N, ci=[float(ci.low), float(ci.high)],
                         median_log_ratio=float(np.median(d)),
                         p_greater=float(stats.binomtest(W, N, 0.5, alternative="greater").pvalue),
                         p_less=float(stats.binomtest(W, N, 0.5, alternative="less").pvalue))
    if any(v["p_less"] < lev for v in out.values()):
        return FAILS, out, lev
    if all(v["p_greater"] < lev for v in out.values()):
        return HOLDS, out, lev
    return INCONCLUSIVE, out, lev


def _tuned_head_lr(n, t_eval, seed):
    """Head step of each GD method tuned on ``HEAD_LR_GRID`` (median dist at t_eval over 4 seeds of ``seed``).
    The GD methods' trajectories of :func:`~fedtheory.representation.experiments.fig3_data` (the same numbers),
    computed by ``fig3_dists`` without FedRep's runs and Theorem 1's bound, which tuning does not use."""
    scores = {"10GD-GD": {}, "GD-GD": {}}
    for lr in HEAD_LR_GRID:
        dd = ex.fig3_dists(ns=(n,), rounds=t_eval, seeds=4, head_lr=lr, seed=seed, methods=tuple(scores))[n]
        for name in scores:
            scores[name][lr] = float(np.median(dd[name][:, t_eval]))
    return {name: min(sc, key=sc.get) for name, sc in scores.items()}


#: "A and B converge equally fast": the median over paired seeds of D = log(dist_B/dist_A) at t=20 lies
#: within +-TIE_MARGIN (the two distances agree within 10%)
TIE_MARGIN = float(np.log(1.10))


def sign_tie_verdict(d, margin: float, level: float):
    """Decide "the median of the paired log ratios ``d`` lies in (-margin, margin)" by exact sign tests
    (two one-sided tests, TOST), each one-sided at ``level``: #(d < margin) and #(d > -margin) both
    significantly above N/2 is ``holds``; #(d > margin) or #(d < -margin) significantly above N/2 (the
    median outside the margin) is ``fails``; otherwise ``inconclusive``. Returns ``(status, dict)``."""
    d = np.asarray(d, dtype=float)
    N = d.size
    cnt = {"below_upper": int(np.sum(d < margin)), "above_lower": int(np.sum(d > -margin)),
           "above_upper": int(np.sum(d > margin)), "below_lower": int(np.sum(d < -margin))}
    p = {k_: float(stats.binomtest(c, N, 0.5, alternative="greater").pvalue) for k_, c in cnt.items()}
    if p["below_upper"] < level and p["above_lower"] < level:
        status = HOLDS
    elif p["above_upper"] < level or p["below_lower"] < level:
        status = FAILS
    else:
        status = INCONCLUSIVE
    return status, dict(N=N, counts=cnt, p=p, median_log_ratio=float(np.median(d)))


def fig3_ordering(full: bool, seed, head_lr_reading: str = "tuned") -> dict:
    """Figure 3's ordering under one reading of the head steps: printed FedRep < 10GD-GD < GD-GD (faster
    first) against the corrected "10GD-GD ties FedRep, both ahead of GD-GD".

    ``head_lr_reading="tuned"``: each GD method's head step tuned on ``HEAD_LR_GRID`` on separate
    seeds (as the paper tuned its steps); ``"paper"``: the public code's head steps for this n
    (:data:`PAPER_CODE_HEAD_LR`), used as printed. Both readings evaluate on the same paired seeds
    (same ground truths, selections and batches for the three methods; FedRep's runs coincide).
    """
    if head_lr_reading not in HEAD_LR_READINGS:
        raise ValueError(f"`head_lr_reading` must be one of {HEAD_LR_READINGS}; got {head_lr_reading!r}")
    seeds = 60 if full else 32
    n = 1000 if full else 100
    t_eval = 20
    s_tune, s_eval = spawn_seeds(seed, 2)
    lrs = _tuned_head_lr(n, t_eval, s_tune) if head_lr_reading == "tuned" else dict(PAPER_CODE_HEAD_LR[n])
    dd = ex.fig3_data(ns=(n,), rounds=t_eval, seeds=seeds, head_lr=lrs, seed=s_eval)[n]
    fin = {name: dd[name][:, t_eval] for name in ("FedRep", "10GD-GD", "GD-GD")}

    def logratio(b_, a_):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.nan_to_num(np.log(fin[b_] / fin[a_]), nan=0.0, posinf=50.0, neginf=-50.0)

    D_printed = {"FedRep faster than 10GD-GD": logratio("10GD-GD", "FedRep"),
                 "10GD-GD faster than GD-GD": logratio("GD-GD", "10GD-GD")}
    D_faster = {"FedRep faster than GD-GD": logratio("GD-GD", "FedRep"),
                "10GD-GD faster than GD-GD": logratio("GD-GD", "10GD-GD")}
    # printed: CLAIM_LEVEL/2 over its 4 one-sided tests; corrected: CLAIM_LEVEL/2 over its 8
    p_status, p_res, lev_p = sign_margin_verdict(D_printed, FASTER_MARGIN, level=CLAIM_LEVEL / 2)
    lev_c = CLAIM_LEVEL / 2 / 8
    f_status, f_res, _ = sign_margin_verdict(D_faster, FASTER_MARGIN, level=lev_c * 4)
    t_status, t_res = sign_tie_verdict(D_printed["FedRep faster than 10GD-GD"], TIE_MARGIN, lev_c)
    c_status = (FAILS if FAILS in (f_status, t_status) else HOLDS if f_status == t_status == HOLDS
                else INCONCLUSIVE)
    med = {m: float(np.median(v)) for m, v in fin.items()}

    def fmt(res):
        return "; ".join(f"{k_}: median D {v['median_log_ratio']:.3f}, D > margin in {v['wins']}/{v['N']} (exact "
                         f"CI [{v['ci'][0]:.3f}, {v['ci'][1]:.3f}], sign-test p_greater {v['p_greater']:.3g}, p_less "
                         f"{v['p_less']:.3g})" for k_, v in res.items())

    tc = t_res["counts"]
    evidence = (f"reading '{head_lr_reading}' (head steps 10GD-GD {lrs['10GD-GD']}, GD-GD {lrs['GD-GD']}), n={n}, "
                f"{seeds} paired seeds, dist at t={t_eval}: medians FedRep {med['FedRep']:.3e}, 10GD-GD "
                f"{med['10GD-GD']:.3e}, GD-GD {med['GD-GD']:.3e}; D = log(dist_B/dist_A). Printed (FedRep faster "
                f"than 10GD-GD faster than GD-GD, margin log 1.05 = {FASTER_MARGIN:.3f}): " + fmt(p_res)
                + f"; level {lev_p:g} per one-sided test -> {p_status}. Corrected: 10GD-GD ties FedRep (median D "
                f"{t_res['median_log_ratio']:.3f} within +-log 1.1 = {TIE_MARGIN:.3f}: D < margin in "
                f"{tc['below_upper']}/{t_res['N']} (p {t_res['p']['below_upper']:.3g}), D > -margin in "
                f"{tc['above_lower']}/{t_res['N']} (p {t_res['p']['above_lower']:.3g}) -> {t_status}) and both "
                "ahead of GD-GD by log 1.05: " + fmt(f_res) + f" -> {f_status}; level {lev_c:g} per one-sided test")
    printed = {"P(D > margin)": {k_: [v["rate"], *v["ci"]] for k_, v in p_res.items()},
               "median_log_ratio": {k_: v["median_log_ratio"] for k_, v in p_res.items()}, "decision": p_status}
    corrected = {"tie_10GD-GD_FedRep": t_res, "tie_decision": t_status,
                 "P(D > margin)": {k_: [v["rate"], *v["ci"]] for k_, v in f_res.items()},
                 "median_log_ratio": {k_: v["median_log_ratio"] for k_, v in f_res.items()},
                 "faster_decision": f_status, "decision": c_status, "median_dist_t20": med, "head_lr": lrs}
    params = {"d": 10, "k": 2, "m": 5, "r": 0.1, "n": n, "t_eval": t_eval, "sigma": PAPER_NOISE,
              "noise_convention": "std", "eta": 0.125, "common_random_numbers": True,
              "head_lr_reading": head_lr_reading, "head_lr": lrs, "head_lr_grid": list(HEAD_LR_GRID),
              "margin": FASTER_MARGIN, "tie_margin": TIE_MARGIN, "seeds": seeds}
    referee = ("exact runs of FedRep, 10GD-GD and GD-GD on common random numbers (run_fedrep, run_altgd), "
               "dist(B_t, B*) at t=20 by principal angles, decide both orderings by exact sign tests")
    if c_status != FAILS and INCONCLUSIVE in (p_status, c_status):
        parts = []
        for st, res, lv in ((p_status, p_res, lev_p), (f_status, f_res, lev_c)):
            if st != INCONCLUSIVE:
                continue
            for k_, v in res.items():
                if v["p_greater"] >= lv and v["p_less"] >= lv:
                    p1 = max(v["rate"], 1 - v["rate"], 0.6)
                    parts.append(f"{k_}: {binomial_trials_needed(0.5, p1, lv)} paired seeds would detect a "
                                 f"rate {p1:.3g} (or {1 - p1:.3g}) of D > margin against 1/2 with power 0.8")
        if t_status == INCONCLUSIVE:
            p1 = max(min(tc["below_upper"], tc["above_lower"]) / t_res["N"], 0.6)
            parts.append(f"tie: {binomial_trials_needed(0.5, min(p1, 0.999), lev_c)} paired seeds would show a "
                         f"rate {p1:.3g} of D inside each side of the margin against 1/2 with power 0.8")
        return dict(status=INCONCLUSIVE, observed={"printed": printed, "corrected": corrected},
                    bound={"printed_holds": None, "corrected_holds": None},
                    evidence=evidence + "; undecided: " + "; ".join(parts), params=params, referee=referee)
    return erratum_verdict(p_status == HOLDS, c_status == HOLDS, printed, corrected, evidence, params,
                           referee=referee)


_ORDER_REGIME = ("Figure 3's setting d=10, k=2, m=5, r=0.1, noise std 1e-3, MoM init, n=100 (quick) / 1000 "
                 "(full), eta = 1/(4k) on B for all methods, {reading}; 32 / 60 paired seeds (common random "
                 "numbers: same ground truth, selections and batches for the three methods). D = log(dist_B/"
                 "dist_A) at t=20 per seed. 'A converges faster than B': the median of D exceeds log 1.05 (A's "
                 "distance at least 5% smaller); 'A and B tie': the median of D lies within +-log 1.1 (distances "
                 "within 10%). Exact sign tests of the median against the margins. Printed (FedRep faster than "
                 "10GD-GD, 10GD-GD faster than GD-GD): one-sided each way at 1e-4/8; some median significantly "
                 "below the margin is printed-fails, both significantly above printed-holds. Corrected (10GD-GD "
                 "ties FedRep, TOST by two sign tests; FedRep and 10GD-GD each faster than GD-GD): 8 one-sided tests "
                 "at 1e-4/16; all as stated is corrected-holds, the tie's median significantly outside +-log 1.1 or a "
                 "'faster' median significantly below log 1.05 is corrected-fails. Printed fails and corrected "
                 "holds is `erratum-confirmed`; corrected failing is `fails`; otherwise inconclusive with the "
                 "number of paired seeds that would decide")


@PAPER.claim("fedrep.fig3.ordering", "Sec. 5.1, Figure 3",
             "ERRATUM. Printed: FedRep (exact head) converges faster than 10GD-GD, which converges faster than "
             "GD-GD (d=10, k=2, m=5, r=0.1; same eta on B; each GD method's head step tuned on separate seeds, "
             "as the paper tuned its step sizes). Corrected: with tuned head steps 10GD-GD ties FedRep (the "
             "median paired log ratio of their distances at t=20 lies within +-log 1.1) and both converge faster "
             "than GD-GD (median log ratio above log 1.05).",
             regime=_ORDER_REGIME.format(reading="head steps of the GD methods tuned on {0.05, 0.1, 0.2, 0.4} "
                                                 "(median dist at t=20 over 4 separate seeds) -- reading "
                                                 "head_lr_reading='tuned'"))
def _fig3_order(full: bool, seed):
    return fig3_ordering(full, seed, head_lr_reading="tuned")


@PAPER.claim("fedrep.fig3.ordering-paper-steps", "Sec. 5.1, Figure 3",
             "ERRATUM. Printed: FedRep (exact head) converges faster than 10GD-GD, which converges faster than "
             "GD-GD, with the head steps of the paper's public code (d=10, k=2, m=5, r=0.1). Corrected: with "
             "those head steps 10GD-GD ties FedRep (the median paired log ratio of their distances at t=20 lies "
             "within +-log 1.1) and both converge faster than GD-GD (median log ratio above log 1.05).",
             regime=_ORDER_REGIME.format(reading="head steps of the GD methods as in the public code's Figure 3 "
                                                 "cell for this n (n=100: 10GD-GD 0.4, GD-GD 0.75; n=1000: 0.25, "
                                                 "1.0), not retuned for this normalisation (the paper prints no "
                                                 "step sizes) -- reading head_lr_reading='paper'"))
def _fig3_order_paper(full: bool, seed):
    return fig3_ordering(full, seed, head_lr_reading="paper")


def per_run_log_slopes(dist: np.ndarray, t_max: int) -> np.ndarray:
    """Per-run OLS slope of ``log dist_t`` on ``t`` over rounds ``0..t_max`` (the per-round log-rate of
    FedRep Figure 3's curves). ``dist`` has shape (runs, rounds+1); returns (runs,)."""
    dist = np.asarray(dist, dtype=float)
    if dist.ndim != 2 or not 1 <= t_max < dist.shape[1]:
        raise ValueError(f"`t_max` must lie in [1, {dist.shape[1] - 1}] for `dist` of shape {dist.shape}")
    t = np.arange(t_max + 1, dtype=float)
    y = np.log(np.maximum(dist[:, :t_max + 1], 1e-300))
    tc = t - t.mean()
    return (y - y.mean(axis=1, keepdims=True)) @ tc / (tc @ tc)


def scaling_gap_verdict(gaps: dict, level: float = CLAIM_LEVEL):
    """Decide "each GD method's per-round rate improves with n by less than a fraction f of FedRep's".

    ``gaps[name] = (x_small, x_large)``: per-seed paired statistics ``x = f s_FedRep - s_name`` (slopes
    of log dist per round, same seed for the methods) at the smallest and largest n (independent seeds
    across n). ``G = mean(x_small) - mean(x_large) = f Delta_FedRep - Delta_name`` with ``Delta`` the
    slope improvement; Welch t tests one-sided each way at ``level/(2 len(gaps))``: some G significantly
    below 0 (that method scales at least f times as well as FedRep) is ``fails``; all significantly above
    0 is ``holds``; otherwise ``inconclusive``. Returns ``(status, per-method dict, level)``.
    """
    lev = level / (2 * len(gaps))
    out = {}
    for name, (xs, xl) in gaps.items():
        xs, xl = np.asarray(xs, dtype=float), np.asarray(xl, dtype=float)
        G = float(np.mean(xs) - np.mean(xl))
        vs, vl = np.var(xs, ddof=1) / xs.size, np.var(xl, ddof=1) / xl.size
        se = float(np.sqrt(vs + vl))
        df = (vs + vl) ** 2 / (vs ** 2 / (xs.size - 1) + vl ** 2 / (xl.size - 1)) if se > 0 else xs.size + xl.size - 2
        if se > 0:
            p_gt, p_lt = float(stats.t.sf(G / se, df)), float(stats.t.cdf(G / se, df))
        else:
            p_gt, p_lt = (0.0, 1.0) if G > 0 else ((1.0, 0.0) if G < 0 else (1.0, 1.0))
        q = float(stats.t.ppf(1 - lev, df))
        out[name] = dict(gap=G, se=se, ci=[G - q * se, G + q * se], p_greater=p_gt, p_less=p_lt, N=int(xs.size))
    if any(v["p_less"] < lev for v in out.values()):
        return FAILS, out, lev
    if all(v["p_greater"] < lev for v in out.values()):
        return HOLDS, out, lev
    return INCONCLUSIVE, out, lev


#: "Does not scale properly": a GD method's rate improvement is less than this fraction of FedRep's
SCALING_FRACTION = 0.5
#: GD head steps of the scaling claim: per-n tuning on HEAD_LR_GRID (median dist at t=20, 4 seeds) chose
#: these at each of n = 100, 1000, 10000 (measured in full mode, issue 13), so they are fixed here
SCALING_HEAD_LR = {"10GD-GD": 0.2, "GD-GD": 0.4}


@PAPER.claim("fedrep.sec5.gd-n-scaling", "Sec. 5.1 (GD-GD does not scale with n), Figure 3",
             "ERRATUM. Printed: replacing FedRep's exact head minimisation by 1 or 10 GD steps (GD-GD, 10GD-GD) "
             "gives methods that 'do not scale properly with n': FedRep's per-round convergence rate improves "
             "with n and theirs does not (each GD method's rate improvement less than half of FedRep's; d=10, "
             "k=2, m=5, r=0.1). Corrected: both GD methods scale with n too: 10GD-GD's per-round rate improves "
             "by at least half as much as FedRep's (Delta_10GD-GD > Delta_FedRep/2; measured about as much), and "
             "GD-GD's rate improves as well (Delta_GD-GD > 0).",
             regime="Figure 3's setting d=10, k=2, m=5, r=0.1, noise std 1e-3, MoM init, eta = 1/(4k) on B for all "
                    "methods (the paper tunes its steps per n; here only the GD head steps are tuned), n in {100, "
                    "1000} (quick) / {100, 1000, 10000} (full); GD head steps 10GD-GD 0.2, GD-GD 0.4 (the values "
                    "that per-n tuning on {0.05, 0.1, 0.2, 0.4} chose at every n); 16 / 32 paired seeds per n "
                    "(common random numbers within n; the dist trajectories of fig3_data, computed by fig3_dists). "
                    "Rate = per-run OLS slope of log dist on t over t = 0..30; improvement Delta = slope(smallest "
                    "n) - slope(largest n). Welch t tests across n on per-seed statistics (paired within n), "
                    "one-sided each way, Bonferroni over the 8 one-sided tests of the claim (1e-4/8 each). Printed: "
                    "G = Delta_FedRep/2 - Delta_GD > 0 for both GD methods (per seed 0.5 s_FedRep - s_GD); some G "
                    "significantly below 0 is printed-fails, both significantly above printed-holds. Corrected: "
                    "Delta_10GD-GD - Delta_FedRep/2 > 0 and Delta_GD-GD > 0, decided the same way. Printed fails "
                    "and corrected holds is `erratum-confirmed`; corrected failing is `fails`; an undecided test "
                    "is inconclusive with the seed count that would decide. Whether GD-GD's improvement reaches half "
                    "of FedRep's is reported (the printed test's GD-GD row), not claimed")
def _gd_n_scaling(full: bool, seed):
    seeds = 32 if full else 16
    ns = (100, 1000, 10000) if full else (100, 1000)
    t_max = 30
    methods = ("FedRep", "10GD-GD", "GD-GD")
    slopes, lrs = {}, {}
    for n, se_ in zip(ns, spawn_seeds(spawn_seeds(seed, 2)[1], len(ns))):
        lrs[n] = dict(SCALING_HEAD_LR)
        dd = ex.fig3_dists(ns=(n,), rounds=t_max, seeds=seeds, head_lr=lrs[n], seed=se_)[n]
        slopes[n] = {name: per_run_log_slopes(dd[name], t_max) for name in methods}
    lo, hi = ns[0], ns[-1]
    f = SCALING_FRACTION
    gaps = {name: (f * slopes[lo]["FedRep"] - slopes[lo][name], f * slopes[hi]["FedRep"] - slopes[hi][name])
            for name in ("10GD-GD", "GD-GD")}
    corr = {"10GD-GD: Delta - Delta_FedRep/2": (-gaps["10GD-GD"][0], -gaps["10GD-GD"][1]),
            "GD-GD: Delta": (slopes[lo]["GD-GD"], slopes[hi]["GD-GD"])}
    p_status, p_res, lev = scaling_gap_verdict(gaps, level=CLAIM_LEVEL / 2)
    c_status, c_res, _ = scaling_gap_verdict(corr, level=CLAIM_LEVEL / 2)
    mean_slope = {str(n): {k_: float(np.mean(v)) for k_, v in slopes[n].items()} for n in ns}
    se_slope = {str(n): {k_: float(np.std(v, ddof=1) / np.sqrt(seeds)) for k_, v in slopes[n].items()} for n in ns}
    improvement = {k_: float(np.mean(slopes[lo][k_]) - np.mean(slopes[hi][k_])) for k_ in methods}

    def fmt(res):
        return "; ".join(f"{k_} {v['gap']:.4f} (one-sided CIs [{v['ci'][0]:.4f}, {v['ci'][1]:.4f}], p_greater "
                         f"{v['p_greater']:.3g}, p_less {v['p_less']:.3g})" for k_, v in res.items())

    evidence = ("mean per-round log-slope of dist over t=0..30 (" + f"{seeds} seeds per n): " +
                "; ".join(f"n={n}: " + ", ".join(f"{k_} {mean_slope[str(n)][k_]:.4f}+-{se_slope[str(n)][k_]:.4f}"
                                                for k_ in methods) for n in ns)
                + f"; slope improvement Delta n={lo}->{hi}: " + ", ".join(f"{k_} {v:.4f}" for k_, v in improvement.items())
                + ". Printed, G = Delta_FedRep/2 - Delta_GD > 0: " + fmt(p_res) + f" -> {p_status}. Corrected: "
                + fmt(c_res) + f" (both > 0 as stated) -> {c_status}; level {lev:g} per one-sided test; head steps "
                f"{SCALING_HEAD_LR} at every n")
    printed = {"G_half_FedRep_minus_GD": {k_: [v["gap"], *v["ci"]] for k_, v in p_res.items()}, "decision": p_status}
    corrected = {"statistic": {k_: [v["gap"], *v["ci"]] for k_, v in c_res.items()}, "decision": c_status,
                 "mean_slope": mean_slope, "se_slope": se_slope, "improvement_n_lo_to_hi": improvement,
                 "head_lr": {str(n): v for n, v in lrs.items()}}
    params = {"d": 10, "k": 2, "m": 5, "r": 0.1, "ns": list(ns), "seeds": seeds, "t_max": t_max,
              "eta": 0.125, "sigma": PAPER_NOISE, "head_lr": dict(SCALING_HEAD_LR), "fraction": SCALING_FRACTION,
              "level_per_test": lev}
    referee = ("exact runs of FedRep, 10GD-GD and GD-GD on common random numbers within each n (run_fedrep, "
               "run_altgd), per-run OLS log-rates of dist(B_t, B*), decide both statements by Welch t tests")
    if c_status != FAILS and INCONCLUSIVE in (p_status, c_status):
        parts = [f"{k_}: about {se_sample_size(seeds, v['se'], v['gap'], lev, df=lambda N: 2 * N - 2)} seeds per n"
                 for st, res in ((p_status, p_res), (c_status, c_res)) if st == INCONCLUSIVE
                 for k_, v in res.items() if v["p_greater"] >= lev and v["p_less"] >= lev]
        return dict(status=INCONCLUSIVE, observed={"printed": printed, "corrected": corrected},
                    bound={"printed_holds": None, "corrected_holds": None},
                    evidence=evidence + "; undecided: " + ", ".join(parts)
                    + " would make the observed statistic significant with power 0.8", params=params, referee=referee)
    return erratum_verdict(p_status == HOLDS, c_status == HOLDS, printed, corrected, evidence, params,
                           referee=referee)


@PAPER.claim("fedrep.benefit1.local-updates", "Sec. 1, Benefit (1) (more local updates); cf. Sec. 5.2, Figure 5",
             "Many local updates help FedRep (its k-dimensional heads) but not single-model FL: 'multiple local "
             "updates in a heterogeneous setting move each client away from the best averaged representation, "
             "and thus hurt performance' of FedAvg.",
             regime="linear model d=10, k=2, n=100, m=10, r=0.1, noise std 1e-3, heterogeneous heads (Assumption "
                    "3), tau local updates per round: FedAvg on objective (4) with tau GD steps on (B, w) (step 0.05, "
                    "50 (quick) / 100 (full) rounds); FedRep with tau GD head steps (step 0.2) and one step on B "
                    "(eta = 1/(4k)), 30 / 50 rounds; tau in {1, 20} (quick) / {1, 5, 20, 100} (full), 24 / 32 "
                    "paired seeds (same ground truth and streams for every tau). 'Performance' of single-model FL "
                    "read as objective (4), the global model's risk (the best averaged model is its minimiser "
                    "B w = mean_i theta_i; Figure 5 plots FedAvg's global accuracy): FedAvg's final excess "
                    "(1/2)||B w - mean theta||^2 at the largest tau above that at tau=1 ('hurts'), and FedRep's final "
                    "dist(B, B*) at the largest tau below that at tau=1 ('helps'). Paired t tests on the log ratios, "
                    "one-sided each way at 1e-4/4: either significantly in the opposite direction is `fails`; both "
                    "as stated is `holds`; otherwise inconclusive with a seed count. FedAvg+FT (head fine-tuning) is "
                    "reported, not decided. The paper shows this on CIFAR-10 (Figure 5); the linear model is the "
                    "setting of its theory")
def _benefit1(full: bool, seed):
    taus = (1, 5, 20, 100) if full else (1, 20)
    seeds = 32 if full else 24
    data = ex.local_updates_data(taus, n=100, r=0.1, rounds_fedavg=100 if full else 50,
                                 rounds_fedrep=50 if full else 30, seeds=seeds, seed=seed)
    logr = {"FedAvg drifts from the averaged optimum": np.log(data["FedAvg_excess4"][:, -1] / data["FedAvg_excess4"][:, 0]),
            "FedRep helped by more head updates": np.log(data["FedRep_dist"][:, 0] / data["FedRep_dist"][:, -1])}
    status, res, lev = paired_worse_verdict(logr)
    med = {k_: np.median(v, axis=0).tolist() for k_, v in data.items()}
    power = ""
    if status == INCONCLUSIVE:
        parts = [f"{k_}: about {se_sample_size(v['N'], v['se'], v['mean'], lev, df=lambda N: N - 1)} seeds"
                 for k_, v in res.items() if v["p_greater"] >= lev and v["p_less"] >= lev]
        power = "; undecided: " + ", ".join(parts) + " would make the mean log ratio significant with power 0.8"
    return dict(status=status,
                observed={"tau": list(taus), "median": med,
                          "mean_log_ratio": {k_: [v["mean"], *v["ci"]] for k_, v in res.items()}},
                bound={"log_ratio": 0.0, "level_per_test": lev},
                evidence=f"tau = {list(taus)}, {seeds} paired seeds, medians: FedAvg excess of (4) "
                         + ", ".join(f"{x:.3g}" for x in med["FedAvg_excess4"]) + "; FedRep dist "
                         + ", ".join(f"{x:.3g}" for x in med["FedRep_dist"]) + ". Mean log ratios (positive = as "
                         "stated): " + "; ".join(f"{k_} {v['mean']:.3f} (one-sided CIs [{v['ci'][0]:.3f}, "
                                                 f"{v['ci'][1]:.3f}], p_greater {v['p_greater']:.3g}, p_less "
                                                 f"{v['p_less']:.3g})" for k_, v in res.items())
                         + f"; level {lev:g} per test. Not decided, reported: FedAvg+FT (per-client head "
                           "fine-tuning on FedAvg's B) MSE " + ", ".join(f"{x:.3g}" for x in med["FedAvg_mse"])
                         + " and FedAvg dist(B, B*) " + ", ".join(f"{x:.3g}" for x in med["FedAvg_dist"])
                         + ": on the linear model the drift hurts the global model but the local steps fit each "
                           "theta_i, and the averaged B spans B*, so fine-tuned FedAvg improves with tau" + power,
                params={"d": 10, "k": 2, "n": 100, "m": 10, "r": 0.1, "taus": list(taus), "seeds": seeds,
                        "fedavg_eta": 0.05, "fedrep_head_lr": 0.2, "eta": 0.125, "sigma": PAPER_NOISE})


@PAPER.claim("fedrep.fig3.n-scaling", "Sec. 5.1, Figure 3",
             "Increasing the number of clients n makes FedRep converge faster (d=10, k=2, m=5, r=0.1).",
             regime="Figure 3's setting d=10, k=2, m=5, r=0.1, noise std 1e-3, n in {100, 1000} (quick) / {100, "
                    "1000, 10000} (full), 10 / 12 seeds, 80 rounds (n=10 excluded: rn=1 < k violates Assumption "
                    "2). 'Faster' read through the rounds to reach dist < 0.05 (81 if never): Welch t tests on "
                    "log rounds, one-sided, Bonferroni over the tests at the claim level. The largest n "
                    "significantly faster than the smallest, and no consecutive pair significantly slower, is "
                    "`holds`; a consecutive pair significantly slower is `fails`; otherwise inconclusive with "
                    "the number of seeds that would decide")
def _fig3_n(full: bool, seed):
    seeds = 12 if full else 10
    ns = (100, 1000, 10000) if full else (100, 1000)
    data = ex.fig3_dists(ns=ns, rounds=80, seeds=seeds, seed=seed, methods=("FedRep",))
    target = 0.05
    t_hit, logs = {}, {}
    for n in ns:
        dist = data[n]["FedRep"]
        hit = np.where((dist < target).any(axis=1), (dist < target).argmax(axis=1), np.inf)
        t_hit[n] = float(np.median(hit))
        logs[n] = np.log(np.where(np.isfinite(hit), np.maximum(hit, 1), dist.shape[1]))
    pairs = [(ns[i], ns[i + 1]) for i in range(len(ns) - 1)]
    tests = [("slower", a_, b_) for a_, b_ in pairs] + [("faster", ns[0], ns[-1])]
    level = CLAIM_LEVEL / len(tests)

    def welch(x, y, alternative):  # H1: mean(y) < mean(x) ("faster") or > ("slower")
        diff = float(np.mean(y) - np.mean(x))
        se = float(np.sqrt(np.var(x, ddof=1) / len(x) + np.var(y, ddof=1) / len(y)))
        if se == 0:
            return (0.0 if (diff < 0 if alternative == "faster" else diff > 0) else 1.0), diff, se
        alt = "less" if alternative == "faster" else "greater"
        return float(stats.ttest_ind(y, x, equal_var=False, alternative=alt).pvalue), diff, se

    res = {f"{kind} n={a_}->{b_}": welch(logs[a_], logs[b_], kind) for kind, a_, b_ in tests}
    slower = [k_ for k_, (p_, _, _) in res.items() if k_.startswith("slower") and p_ < level]
    faster = res[f"faster n={ns[0]}->{ns[-1]}"]
    if slower:
        status = FAILS
    elif faster[0] < level:
        status = HOLDS
    else:
        status = INCONCLUSIVE
    power = ""
    if status == INCONCLUSIVE:
        need = se_sample_size(seeds, faster[2], faster[1], level, df=lambda N: 2 * N - 2)
        power = (f"; undecided: about {need} seeds per n would make the log-rounds difference {faster[1]:.3g} "
                 f"significant at {level:g} with power 0.8")
    return dict(status=status,
                observed={"median_rounds_to_dist_0.05": {str(n): t_hit[n] for n in ns},
                          "tests": {k_: {"p": p_, "diff_log_rounds": d_, "se": se_} for k_, (p_, d_, se_) in res.items()}},
                bound={"monotone": "non-increasing in n", "level": level},
                evidence=f"median rounds for FedRep to reach dist < {target}: " +
                         ", ".join(f"n={n}: {t_hit[n]:g}" for n in ns) +
                         f" ({seeds} seeds; n=10 is excluded: rn=1 < k violates Assumption 2); Welch tests on log "
                         "rounds: " + ", ".join(f"{k_}: p={p_:.3g}" for k_, (p_, _, _) in res.items()) +
                         f" (level {level:g} each)" + power,
                params={"ns": list(ns), "d": 10, "k": 2, "m": 5, "r": 0.1, "seeds": seeds,
                        "sigma": PAPER_NOISE})


@PAPER.claim("fedrep.fig4.new-client", "Sec. 5.1, Figure 4",
             "With FedRep's learned representation a new client's MSE is small once m_new >= k, while "
             "Local Only needs m_new = Omega(d) (its noiseless risk is (1 - m/d)||theta||^2) and FedAvg's "
             "representation stays inaccurate (d=20, k=2, n=100, m=10, r=0.1).",
             regime="Figure 4's setting d=20, k=2, n=100, m=10, r=0.1, noise std 1e-3, 200 rounds, 3 (quick) / 6 "
                    "(full) trainings x 100 new clients, m_new in {1, 2, 5, 10, 20}. Read as: FedRep's mean "
                    "relative MSE < 1e-2 for m_new >= k ('small'); Local's > 0.1 for m_new <= d/2 and within "
                    "0.15 of the noiseless min-norm risk 1 - m/d for m_new < d ('needs Omega(d)'); FedAvg's > "
                    "0.1 for m_new >= k ('inaccurate'). Any one failing is `fails`")
def _fig4(full: bool, seed):
    seeds = 6 if full else 3
    m_news = (1, 2, 5, 10, 20)
    data = ex.fig4_data(m_news, seeds=seeds, n_new=100, seed=seed)
    k, d = 2, 20
    signal = float(k)  # ||theta||^2 = ||w*||^2 = k under Assumption 3
    fedrep = data["FedRep"].mean(axis=0) / signal
    local = data["Local"].mean(axis=0) / signal
    fedavg = data["FedAvg"].mean(axis=0) / signal
    theory_local = min_norm_interpolation_risk(d, np.array(m_news), 1.0)
    mk = np.array(m_news) >= k
    fedrep_small = bool(np.all(fedrep[mk] < 1e-2))
    local_large = bool(np.all(local[np.array(m_news) <= d // 2] > 0.1))
    local_match = bool(np.all(np.abs(local[np.array(m_news) < d] - theory_local[np.array(m_news) < d])
                              < 0.15))
    fedavg_large = bool(np.all(fedavg[mk] > 0.1))
    ok = fedrep_small and local_large and local_match and fedavg_large
    return dict(status=HOLDS if ok else FAILS,
                observed={"m_new": list(m_news), "FedRep_rel_mse": fedrep.tolist(),
                          "Local_rel_mse": local.tolist(), "FedAvg_rel_mse": fedavg.tolist()},
                bound={"FedRep_rel_mse_max_for_m_new>=k": 1e-2,
                       "Local_noiseless_risk_(1-m/d)": theory_local.tolist()},
                evidence=f"relative MSE (MSE/||theta||^2) over {seeds} trainings x 100 new clients: "
                         f"FedRep {', '.join(f'{v:.1e}' for v in fedrep)}; Local "
                         f"{', '.join(f'{v:.2f}' for v in local)} vs (1-m/d) "
                         f"{', '.join(f'{v:.2f}' for v in theory_local)}; FedAvg "
                         f"{', '.join(f'{v:.2f}' for v in fedavg)} (m_new = {list(m_news)})",
                params={"d": d, "k": k, "n": 100, "m": 10, "r": 0.1, "rounds": 200,
                        "sigma": PAPER_NOISE, "seeds": seeds, "m_new": list(m_news)})
