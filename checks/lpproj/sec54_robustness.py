"""Sec. 5.4 (robustness) and Table 7: multi-round runs of Algorithm 1 (p = 1 ADMM, p = 2) under Byzantine attacks.

Han, Li, Lin and Zhang (2024), JMLR 25: the attacks of Sec. 4.2 (the sign-flipping multiplier of Algorithm 1, lines 8
and 12, over many rounds), Sec. 5.4 and Table 7 (App. C.5: lp-proj-2 collapses under sign-flipping at 50% and 80%
malicious clients, lp-proj-1 survives; same-value and Gaussian attacks stay bounded), and the star entries of
Table 7 in the linear analogue. Exact runs of Algorithm 1 in the linear model
(:func:`fedtheory.lpproj.robust.run_rounds`) against the multiplier theory of the same module. The one-round losses
of Theorem 30 under attacks are in :mod:`.thm30_losses`.
"""
from __future__ import annotations

import itertools
import math

import numpy as np
from fedtheory import decide
from fedtheory.lpproj import make_problem
from fedtheory.lpproj.robust import (contraction_factor, fitted_growth_rates, lpproj1_loss_bound, norm_envelope,
                                     run_rounds, signflip_log_multiplier_mean, stationary_norm_bound)
from fedtheory.montecarlo import estimate_from_samples
from fedtheory.random import as_generator, spawn_seeds
from . import PAPER  # noqa: F401

#: Sec. 5.4: "the noise variance tau is set as 100, 10, and 100" (same-value, sign-flip, Gaussian).
TAU = {"same-value": 100.0, "sign-flip": 10.0, "gaussian": 100.0}
#: Sec. 5.4: corruption levels.
LEVELS = (0.1, 0.2, 0.5, 0.8)
#: The paper's hyperparameter grid (App. C.1): local learning rate eta, lam, local rounds R.
GRID = tuple(itertools.product((0.05, 0.1, 0.5), (0.1, 1.0, 10.0), (1, 5)))
#: The run configuration of claims 1-4 (one point of that grid), b = 1.
BASE = dict(eta=0.05, lam=1.0, R=5)
N = 100
#: A run "collapses" when log||w_T|| exceeds the scale of the problem by this many nats (a factor 1e6).
DIV_NATS = math.log(1e6)


def _problem(seed):
    """N = 100 clients (so that the corruption levels are exact), d = 20, d_sub = 5, n = 50, b = sigma = 1,
    w_k ~ N(1, 0.1 I), orthonormal-row P."""
    return make_problem(N=N, d=20, d_sub=5, n=50, mu_w=1.0, heterogeneity=0.1, seed=seed)


def _scale(prob):
    return max(1.0, float(np.max(np.linalg.norm(prob.W @ prob.P.T, axis=1))))


def _rate(p, eta, lam, R, N_a, tau=TAU["sign-flip"]):
    rho = contraction_factor(eta, lam, 1.0) if p == 2 else 1.0
    return float(signflip_log_multiplier_mean(rho, R if p == 2 else 1, N, N_a, tau))


# ----------------------------------------------------------------------------- claim 1
@PAPER.claim("lpproj.robust.multiplier-identity", "Sec. 4.2 sign-flipping attack; Algorithm 1 lines 8 and 12 (multi-round)",
             "Under sign-flipping with full participation, lp-proj-2's global iterate obeys w_(t+1) = m_t w_t + v_t with "
             "the per-round multiplier m_t = 1 - beta + beta rho^R (N_b - sum_(I_a)|c_k|)/N, rho = 1 - eta lam b/(b+lam), "
             "for the realised c_k: the round-over-round ratio of the difference of two coupled exact runs equals m_t.",
             regime="linear model with Xi_k^T Xi_k = n b I, orthonormal-row P, p = 2 with exact inner solves, S = N; N = 100, "
                    "d = 20, d_sub = 5, b = 1, eta = 0.05, lam = 1, R = 5 (a point of the paper's grid), tau = 10 (Sec. 5.4), "
                    "N_a/N in {0.1, 0.2, 0.5, 0.8}, c_k redrawn per round and fixed, beta in {1, 0.7}; an identity: "
                    "|delta_(t+1) - m_t delta_t| <= 1e-12 x (1 + |m_t| + C_t/N) x the iterates' scale at every round")
def _multiplier_identity(full: bool, seed):
    reps, T = (100, 30) if full else (20, 12)
    s_prob, *s_runs = spawn_seeds(seed, 1 + 2 * 2 * len(LEVELS))
    prob = _problem(s_prob)
    u = np.zeros(prob.d_sub)
    u[0] = 1.0
    worst, worst_ratio, n_checked = 0.0, 0.0, 0
    cases = list(itertools.product(LEVELS, ("per-round", "fixed"), (1.0, 0.7)))
    for (level, c_draw, beta), s in zip(cases, s_runs):
        kw = dict(p=2, T=T, R=BASE["R"], eta=BASE["eta"], beta=beta, attack="sign-flip", N_a=int(level * N),
                  tau=TAU["sign-flip"], c_draw=c_draw, reps=reps, seed=s)
        ra = run_rounds(prob, BASE["lam"], **kw)
        rb = run_rounds(prob, BASE["lam"], w0=u, **kw)  # same seed: same w_hat and the same attack draws
        m = ra.multipliers()                             # rho^R (N_b - C_t)/N from the realised C_t
        ha, hb = ra.history, rb.history
        delta = hb - ha
        size = np.maximum(np.linalg.norm(ha, axis=-1), np.linalg.norm(hb, axis=-1))
        scale = (1 + np.abs(m) + ra.attack_scale / N) * np.maximum(np.maximum(size[:-1], size[1:]), 1.0)
        disc = np.max(np.abs(delta[1:] - m[..., None] * delta[:-1]), axis=-1) / scale
        worst = max(worst, float(np.max(disc)))
        ok = np.abs(delta[:-1, :, 0]) > 1e-6 * size[:-1]   # the ratio is resolvable in floating point
        ratio = delta[1:, :, 0][ok] / delta[:-1, :, 0][ok]
        if ratio.size:
            worst_ratio = max(worst_ratio, float(np.max(np.abs(ratio - m[ok]) / np.maximum(np.abs(m[ok]), 1e-3))))
        n_checked += int(ok.sum())
    tol = 1e-12
    return decide.bound(worst, tol, of="tolerance",
                observed_value={"max_scaled_discrepancy": worst, "max_ratio_rel_error": worst_ratio,
                                "resolvable_ratios": n_checked},
                bound_value={"tolerance": tol},
                what=f"coupled exact runs (w0 = 0 and e_1, same data and attack draws), N=100, tau=10, "
                         f"N_a/N in {LEVELS}, c per-round and fixed, beta in (1, 0.7), {reps} reps x {T} rounds: "
                         f"|delta_(t+1) - m_t delta_t| / scale <= {worst:.2g} (tolerance {tol:g}); round-over-round "
                         f"ratio along e_1 vs m_t: max relative error {worst_ratio:.2g} over {n_checked} resolvable ratios",
                params=dict(reps=reps, T=T, **BASE, tau=TAU["sign-flip"]))


# ----------------------------------------------------------------------------- claim 2
def _classify(history, scale):
    """Per replicate: True when log||w_T|| exceeds log(scale) by DIV_NATS."""
    return np.log(np.linalg.norm(history[-1], axis=-1)) - math.log(scale) > DIV_NATS


@PAPER.claim("lpproj.robust.signflip-collapse", "Sec. 5.4 and Table 7 (lp-proj-2 collapses under sign-flipping)",
             "lp-proj-2's global iterate diverges exactly when the collapse criterion holds: E log|m| > 0 for c_k redrawn "
             "every round (the almost-sure growth rate of a product of i.i.d. multipliers), |m| > 1 for fixed c_k; "
             "divergent runs grow at the predicted rate E log|m|.",
             regime="linear model as in lpproj.robust.multiplier-identity (eta = 0.05, lam = 1, R = 5, rho^R = 0.881, "
                    "tau = 10, N = 100, beta = 1); collapse = log||w_T|| above log(scale) + ln(1e6); configurations "
                    "(or fixed-c replicates) with |predicted rate| x T < 2 ln(1e6) are undecidable in T rounds and "
                    "excluded; any mismatch is refuted (exact binomial, allowed rate 0); rates fitted over rounds "
                    "t0..T per replicate, z test against the quadrature at level 1e-4 (Bonferroni)")
def _signflip_collapse(full: bool, seed):
    reps, T, t0 = (400, 80, 20) if full else (40, 40, 10)
    s_prob, *s_runs = spawn_seeds(seed, 1 + 2 * len(LEVELS))
    prob = _problem(s_prob)
    sc = _scale(prob)
    mism, trials, undecided = 0, 0, 0
    rates, preds, per_level = [], [], {}
    for (level, c_draw), s in zip(itertools.product(LEVELS, ("per-round", "fixed")), s_runs):
        N_a = int(level * N)
        res = run_rounds(prob, BASE["lam"], p=2, T=T, R=BASE["R"], eta=BASE["eta"], attack="sign-flip", N_a=N_a,
                         tau=TAU["sign-flip"], c_draw=c_draw, reps=reps, seed=s)
        observed = _classify(res.history, sc)
        if c_draw == "per-round":
            pred_rate = _rate(2, BASE["eta"], BASE["lam"], BASE["R"], N_a)
            decidable = np.full(reps, abs(pred_rate) * T >= 2 * DIV_NATS)
            predicted = np.full(reps, pred_rate > 0)
            if pred_rate > 0:
                rates.append(fitted_growth_rates(res.history, t0))
                preds.append(pred_rate)
            per_level[level] = dict(predicted_rate=pred_rate, diverged=int(observed.sum()), reps=reps)
        else:  # fixed c: the multiplier is a constant per replicate, |m| > 1 <=> divergence
            lm = np.log(np.abs(res.multipliers()[0]))
            decidable = np.abs(lm) * T >= 2 * DIV_NATS
            predicted = lm > 0
        undecided += int((~decidable).sum())
        mism += int(np.sum(decidable & (observed != predicted)))
        trials += int(decidable.sum())
    v = decide.probability(mism, trials, 0.0, tests=2,
                           what="sign-flip runs whose collapse (||w_T|| > 1e6 x scale) contradicts the criterion "
                                "E log|m| > 0 (per-round c) / |m| > 1 (fixed c)")
    est = estimate_from_samples(np.column_stack(rates), confidence=1 - decide.LEVEL)
    a = decide.agreement(est, np.array(preds), tests=2, what=f"fitted growth rate of log||w_t|| over rounds {t0}..{T} "
                                                             "vs E log|m| (Frullani/Dawson quadrature)")
    fitted = {lvl: [float(m), float(lo), float(hi)] for lvl, m, lo, hi in
              zip([lv for lv in LEVELS if per_level[lv]["predicted_rate"] > 0], np.atleast_1d(est.mean),
                  np.atleast_1d(est.ci_low), np.atleast_1d(est.ci_high))}
    return decide.combine([v, a],
                observed={"mismatches": v["observed"], "fitted_rates": fitted, "per_level": per_level,
                          "undecided_reps": undecided, "rate_agreement": a["observed"]},
                bound={"predicted_rates": dict(zip([lv for lv in LEVELS if per_level[lv]["predicted_rate"] > 0],
                                                   preds))},
                what=f"predicted rates "
                         f"{ {lv: round(per_level[lv]['predicted_rate'], 4) for lv in LEVELS} }, fitted "
                         f"{ {k: round(x[0], 4) for k, x in fitted.items()} }; {undecided} fixed-c reps with |log|m|| T < "
                         f"{2 * DIV_NATS:.1f} left undecided",
                params=dict(reps=reps, T=T, t0=t0, N=N, **BASE, tau=TAU["sign-flip"],
                            rho=contraction_factor(BASE["eta"], BASE["lam"], 1.0)))


# ----------------------------------------------------------------------------- claim 3
@PAPER.claim("lpproj.robust.lpproj1-bounded", "Sec. 5.4 and Table 7 (lp-proj-1 survives sign-flipping)",
             "Under sign-flipping at every corruption level, lp-proj-1's benign test loss stays below "
             "sigma^2/2 + (b/2) mean_b (||w_hat_k - w_k|| + sqrt(d_sub) lam/b)^2 at every round, because the exact "
             "l1 inner solution is P x_k = P w_hat_k + clip(w - P w_hat_k, +-lam/b) whatever the global model; the global "
             "iterate itself is not bounded: it diverges at rate E log|(N_b - C)/N| (rho^R replaced by 1).",
             regime="linear model as in lpproj.robust.signflip-collapse with p = 1 and the exact (soft-thresholding) inner "
                    "solve that the ADMM solver reaches; the loss bound is deterministic (violation above 1e-12 relative "
                    "is refuted); the global rate is tested where it is positive and T x rate >= 2 ln(1e6), z test at 1e-4")
def _lpproj1_bounded(full: bool, seed):
    reps, T, t0 = (200, 80, 20) if full else (40, 40, 10)
    s_prob, *s_runs = spawn_seeds(seed, 1 + 2 * len(LEVELS))
    prob = _problem(s_prob)
    worst_excess, max_loss1, max_loss2 = -np.inf, 0.0, 0.0
    rates, preds, div_levels = [], [], []
    for level, s, s2 in zip(LEVELS, s_runs[::2], s_runs[1::2]):
        N_a = int(level * N)
        kw = dict(T=T, R=BASE["R"], eta=BASE["eta"], attack="sign-flip", N_a=N_a, tau=TAU["sign-flip"], reps=reps)
        w_hat = prob.sample_w_hat(as_generator(s), reps)
        r1 = run_rounds(prob, BASE["lam"], p=1, w_hat=w_hat, seed=s, **kw)
        bound = lpproj1_loss_bound(w_hat, prob.W, BASE["lam"], prob.b, prob.sigma, prob.d_sub, N_a)
        worst_excess = max(worst_excess, float(np.max((r1.losses - bound) / bound)))
        max_loss1 = max(max_loss1, float(np.max(r1.losses)))
        pred = _rate(1, BASE["eta"], BASE["lam"], BASE["R"], N_a)
        if pred * T >= 2 * DIV_NATS:
            rates.append(fitted_growth_rates(r1.history, t0))
            preds.append(pred)
            div_levels.append(level)
        r2 = run_rounds(prob, BASE["lam"], p=2, seed=s2, **kw)
        max_loss2 = max(max_loss2, float(np.max(r2.losses)))
    tol = 1e-12
    est = estimate_from_samples(np.column_stack(rates), confidence=1 - decide.LEVEL)
    a = decide.agreement(est, np.array(preds), tests=2, what="lp-proj-1 global iterate: fitted growth rate vs "
                                                             "E log|(N_b - C)/N| (rho^R replaced by 1)")
    return decide.combine([decide.bound(1 + worst_excess, 1.0, atol=tol, of="clip bound",
                                        what="benign loss / clip bound, every run and round"), a],
                observed={"max_relative_excess_over_bound": worst_excess, "max_benign_loss_lpproj1": max_loss1,
                          "max_benign_loss_lpproj2": max_loss2,
                          "global_rates": {lv: [float(m), float(lo), float(hi)] for lv, m, lo, hi in
                                           zip(div_levels, np.atleast_1d(est.mean), np.atleast_1d(est.ci_low),
                                               np.atleast_1d(est.ci_high))}},
                bound={"loss_bound": "sigma^2/2 + (b/2) mean_b (||w_hat_k - w_k|| + sqrt(d_sub) lam/b)^2",
                       "tolerance": tol, "predicted_global_rates": dict(zip(div_levels, preds))},
                what=f"lp-proj-1 under sign-flip (tau=10, N_a/N in {LEVELS}, {reps} reps x {T} rounds): benign loss "
                         f"<= clip bound at every round (max relative excess {worst_excess:.2g}, max loss "
                         f"{max_loss1:.4g}; lp-proj-2 reaches {max_loss2:.3g}); its global iterate itself diverges",
                params=dict(reps=reps, T=T, t0=t0, N=N, **BASE, tau=TAU["sign-flip"]))


# ----------------------------------------------------------------------------- claim 4
@PAPER.claim("lpproj.robust.other-attacks-bounded", "Sec. 5.4 (same-value and Gaussian attacks)",
             "Under same-value and Gaussian attacks (messages independent of the iterate) both lp-proj-1 and lp-proj-2 "
             "stay bounded: ||w_t|| <= B_t with B_(t+1) = q B_t + beta (drift + ||A_t||)/N pathwise (lp-proj-2: "
             "q = rho^R N_b/N, drift = (1 - rho^R)||sum_b P w_hat_k||; lp-proj-1: q = N_b/N, drift = N_b R eta lam "
             "sqrt(d_sub)) and E||w_T|| <= beta (drift + tau sqrt(N_a d_sub))/(N (1 - q)).",
             regime="linear model as in lpproj.robust.multiplier-identity, tau = 100 (Sec. 5.4), N_a/N in {0.1, 0.2, 0.5, "
                    "0.8}, p in {1, 2}, w_0 = 0, beta = 1; pathwise envelope: any excess above 1e-9 relative is refuted; the "
                    "expectation bound: one-sided z test of mean(||w_T|| - bound) > 0 at 1e-4, Bonferroni over 16 cases")
def _other_attacks_bounded(full: bool, seed):
    reps, T = (200, 80) if full else (20, 30)
    cases = list(itertools.product(("same-value", "gaussian"), (1, 2), LEVELS))
    s_prob, *s_runs = spawn_seeds(seed, 1 + len(cases))
    prob = _problem(s_prob)
    eta, lam, R, beta = BASE["eta"], BASE["lam"], BASE["R"], 1.0
    rho = contraction_factor(eta, lam, prob.b)
    worst_env, max_loss = -np.inf, {}
    stat_rows, stat_decisions = [], []
    for (attack, p, level), s in zip(cases, s_runs):
        N_a, N_b = int(level * N), N - int(level * N)
        w_hat = prob.sample_w_hat(as_generator(s), reps)
        res = run_rounds(prob, lam, p=p, T=T, R=R, eta=eta, beta=beta, attack=attack, N_a=N_a, tau=TAU[attack],
                         reps=reps, w_hat=w_hat, seed=s)
        if p == 2:
            q = abs(1 - beta + beta * rho ** R * N_b / N)
            drift = (1 - rho ** R) * np.linalg.norm((w_hat[:, :N_b] @ prob.P.T).sum(axis=1), axis=-1)
        else:
            q = abs(1 - beta + beta * N_b / N)
            drift = np.full(reps, N_b * R * eta * lam * math.sqrt(prob.d_sub))
        env = norm_envelope(np.linalg.norm(res.history[0], axis=-1), q, drift, res.attack_norm, beta, N)
        norms = np.linalg.norm(res.history, axis=-1)
        worst_env = max(worst_env, float(np.max((norms - env) / np.maximum(env, 1e-300))))
        stat = stationary_norm_bound(q, drift, TAU[attack], N_a, prob.d_sub, beta, N)  # per replicate
        # E||w_T|| <= bound (+ q^T ||w_0|| = 0): per replicate ||w_T|| - bound, scaled by the mean bound
        est = estimate_from_samples((norms[-1] - stat) / float(np.mean(stat)) + 1.0)
        stat_decisions.append(decide.bound(est, 1.0, tests=len(cases) + 1, what=f"{attack}, p={p}, {level}"))
        stat_rows.append(dict(attack=attack, p=p, level=level, mean_norm=float(norms[-1].mean()),
                              bound=float(np.mean(stat))))
        max_loss[f"{attack}/p={p}/{level}"] = float(np.max(res.losses))
    tol = 1e-9
    worst = max(stat_rows, key=lambda r: r["mean_norm"] / r["bound"])
    env_decision = decide.bound(1 + worst_env, 1.0, atol=tol, of="envelope", what="||w_t|| / pathwise envelope")
    return decide.combine([env_decision] + stat_decisions,
                observed={"max_relative_envelope_excess": worst_env, "stationary": stat_rows,
                          "max_benign_loss": max_loss},
                bound={"envelope": "B_{t+1} = q B_t + beta (drift + ||A_t||)/N", "tolerance": tol,
                       "stationary": "beta (drift + tau sqrt(N_a d_sub))/(N (1 - q))"},
                what=f"same-value and Gaussian (tau=100), p=1 and 2, N_a/N in {LEVELS}, {reps} reps x {T} rounds: "
                         f"||w_t|| <= pathwise envelope everywhere (max relative excess {worst_env:.2g}); E||w_T|| <= "
                         f"stationary bound in all {len(cases)} cases (tightest: "
                         f"{worst['attack']}, p={worst['p']}, {worst['level']}: {worst['mean_norm']:.4g} vs "
                         f"{worst['bound']:.4g}); max benign loss {max(max_loss.values()):.4g}",
                params=dict(reps=reps, T=T, N=N, **BASE, tau=100.0))


# ----------------------------------------------------------------------------- claim 5
PAPER_STAR = (False, False, True, True)  # Table 7: lp-proj-2 is * at 50% and 80%, not at 10% and 20%


@PAPER.claim("lpproj.robust.table7-linear", "Table 7, star entries (linear analogue)",
             "Linear analogue of Table 7's stars: with the paper's tau = 10 and corruption levels, lp-proj-2's benign loss "
             "collapses exactly where E log|m| > 0, which is at 50% and 80% but not at 10% and 20% on 16 of the 18 points "
             "of the paper's (eta, lam, R) grid, while lp-proj-1's benign loss stays below its clip bound in every run.",
             analogue="linear model of Sec. 4.2 (N = 100, d = 20, d_sub = 5, b = 1, Xi^T Xi = n b I, orthonormal-row "
                      "P, exact inner solves), sign-flip attack with tau = 10, N_a/N in {0.1, 0.2, 0.5, 0.8}, T = 80 "
                      "rounds, the paper grid eta in {0.05, 0.1, 0.5}, lam in {0.1, 1, 10}, R in {1, 5}, seeds "
                      "spawned from the claim seed",
             regime="linear model as in lpproj.robust.multiplier-identity, b = 1, N = 100, T = 80; grid eta in {0.05, "
                    "0.1, 0.5}, lam in {0.1, 1, 10}, R in {1, 5} (App. C.1; quick mode runs 3 grid points, full mode all "
                    "18); collapse = benign loss up by 1e12 over T rounds; runs with |rate| T < 2 ln(1e6) undecidable; any "
                    "mismatch is refuted (exact binomial, allowed rate 0)")
def _table7_linear(full: bool, seed):
    reps, T = (50, 80) if full else (8, 80)
    grid = GRID if full else ((0.05, 1.0, 5), (0.5, 1.0, 5), (0.5, 10.0, 5))
    pred = {g: tuple(_rate(2, *g, int(lv * N)) for lv in LEVELS) for g in GRID}
    n_star = sum(tuple(r > 0 for r in pred[g]) == PAPER_STAR for g in GRID)
    runs = list(itertools.product(grid, LEVELS))
    s_prob, *s_runs = spawn_seeds(seed, 1 + 2 * len(runs))
    prob = _problem(s_prob)
    mism, trials, undecided, worst_excess = 0, 0, 0, -np.inf
    observed_pattern = {}
    for ((g, level), s1, s2) in zip(runs, s_runs[::2], s_runs[1::2]):
        eta, lam, R = g
        N_a = int(level * N)
        r2 = run_rounds(prob, lam, p=2, T=T, R=R, eta=eta, attack="sign-flip", N_a=N_a, tau=TAU["sign-flip"],
                        reps=reps, seed=s1)
        rate = pred[g][LEVELS.index(level)]
        collapsed = np.log(r2.losses[-1] / r2.losses[0]) > 2 * DIV_NATS   # benign loss up by a factor 1e12
        if abs(rate) * T >= 2 * DIV_NATS:
            mism += int(np.sum(collapsed != (rate > 0)))
            trials += reps
        else:
            undecided += 1
        observed_pattern.setdefault(g, []).append(float(collapsed.mean()))
        w_hat = prob.sample_w_hat(as_generator(s2), reps)
        r1 = run_rounds(prob, lam, p=1, T=T, R=R, eta=eta, attack="sign-flip", N_a=N_a, tau=TAU["sign-flip"],
                        reps=reps, w_hat=w_hat, seed=s2)
        bound = lpproj1_loss_bound(w_hat, prob.W, lam, prob.b, prob.sigma, prob.d_sub, N_a)
        worst_excess = max(worst_excess, float(np.max((r1.losses - bound) / bound)))
    v = decide.probability(mism, trials, 0.0, what="lp-proj-2 runs whose benign-loss collapse (x1e12) contradicts "
                                                   "E log|m| > 0")
    star_points = [g for g in GRID if tuple(r > 0 for r in pred[g]) == PAPER_STAR]
    other = {str(g): [lv for lv, r in zip(LEVELS, pred[g]) if r > 0] for g in GRID if g not in star_points}
    return decide.combine([v, decide.bound(1 + worst_excess, 1.0, atol=1e-12, of="clip bound",
                                           what="lp-proj-1 benign loss / clip bound")],
                observed={"mismatches": v["observed"], "collapse_fraction": {str(g): x for g, x in observed_pattern.items()},
                          "grid_points_with_paper_pattern": n_star, "other_patterns": other,
                          "lpproj1_max_relative_excess": worst_excess, "undecided_runs": undecided},
                bound={"predicted_rates": {str(g): [round(r, 4) for r in pred[g]] for g in GRID}},
                what=f"the criterion predicts Table 7's pattern (lp-proj-2 * at 50% and 80% only) "
                         f"at {n_star}/{len(GRID)} points of the paper's (eta, lam, R) grid (others: {other}); "
                         f"lp-proj-1's benign loss stays below its clip bound in every run (max relative excess "
                         f"{worst_excess:.2g}); {len(grid)} grid points run, {reps} reps x {T} rounds",
                params=dict(reps=reps, T=T, N=N, tau=TAU["sign-flip"], grid=[list(g) for g in grid]))
