"""lp-proj multi-round robustness figure: test loss over rounds per attack level and method.

Linear analogue of Table 7's star entries (Han et al., JMLR 2024, Sec. 5.4): exact runs of Algorithm 1
(:func:`fedtheory.lpproj.robust.run_rounds`) under sign-flipping with tau = 10 at the corruption levels
{0.1, 0.2, 0.5, 0.8}, lp-proj-1 against lp-proj-2, and the measured per-round growth rate of the global
iterate against the predicted E log|m|.
"""
from __future__ import annotations

import math
from functools import partial

import numpy as np

from fedtheory.lpproj.robust import (collapse_threshold, contraction_factor, fitted_growth_rates, lpproj1_loss_bound,
                                     run_rounds, signflip_log_multiplier_mean)
from fedtheory.montecarlo import estimate_from_samples
from fedtheory.parallel import cached_map
from fedtheory.plotting import label_log_axes, plt, save_figure, style, tex_params
from fedtheory.random import as_generator, spawn_seeds
from fedtheory_checks.lpproj import PAPER

LEVEL_COL = {0.1: "#1f77b4", 0.2: "#2ca02c", 0.5: "#ff7f0e", 0.8: "#d62728"}


def robust_curve(task, prob, lam, T, R, eta, tau, reps):
    """Loss quantiles (10%, 50%, 90%) over ``reps`` sign-flip runs of lp-proj-``p`` at one corruption level (a
    :func:`fedtheory.parallel.cached_map` task, ``task = (p, level, seed)``), and for p = 1 the largest
    lp-proj-1 loss bound over the replicates' w_hat (NaN for p = 2)."""
    from fedtheory_checks.lpproj.sec54_robustness import N

    p, level, s = task
    w_hat = prob.sample_w_hat(as_generator(s), reps)
    res = run_rounds(prob, lam, p=p, T=T, R=R, eta=eta, attack="sign-flip", N_a=int(level * N), tau=tau,
                     reps=reps, w_hat=w_hat, seed=s)
    bound = (float(np.max(lpproj1_loss_bound(w_hat, prob.W, lam, prob.b, prob.sigma, prob.d_sub, int(level * N))))
             if p == 1 else math.nan)
    return {"quantiles": np.quantile(res.losses, (0.1, 0.5, 0.9), axis=1), "bound": bound}


def robust_scan(task, prob, lam, T, R, eta, tau, reps, t0):
    """Measured growth rates ``(mean, ci_low, ci_high)`` (99%) at ``k`` sign-flip attackers (a
    :func:`fedtheory.parallel.cached_map` task, ``task = (k, run_lp1, seed)``): lp-proj-2 from w_hat = 0 (the
    Lyapunov exponent of the run), lp-proj-1 from ordinary runs when ``run_lp1`` (else NaN)."""
    from fedtheory_checks.lpproj.sec54_robustness import N

    k, run_lp1, s = task
    s2, s1 = spawn_seeds(s, 2)
    r2 = run_rounds(prob, lam, p=2, T=T, R=R, eta=eta, attack="sign-flip", N_a=int(k), tau=tau, reps=reps,
                    w_hat=np.zeros((reps, N, prob.d)), w0=np.eye(prob.d_sub)[0], seed=s2)
    e = estimate_from_samples(fitted_growth_rates(r2.history, 0), confidence=0.99)
    out = {"lp2": np.array([e.mean, e.ci_low, e.ci_high]), "lp1": np.full(3, np.nan)}
    if run_lp1:
        r1 = run_rounds(prob, lam, p=1, T=T, R=R, eta=eta, attack="sign-flip", N_a=int(k), tau=tau, reps=reps,
                        seed=s1)
        e = estimate_from_samples(fitted_growth_rates(r1.history, t0), confidence=0.99)
        out["lp1"] = np.array([e.mean, e.ci_low, e.ci_high])
    return out


@PAPER.figure("lpproj.robust", reference="Table 7 star entries (linear analogue); Sec. 5.4 sign-flip collapse")
def robust_figure(outdir="figures", full=False, seed=0):
    from fedtheory_checks.lpproj.sec54_robustness import BASE, DIV_NATS, LEVELS, N, TAU, _problem

    eta, lam, R = BASE["eta"], BASE["lam"], BASE["R"]
    tau = TAU["sign-flip"]
    reps, T, t0 = (200, 80, 20) if full else (40, 60, 15)
    s_prob, s_curves, s_scan = spawn_seeds(seed, 3)
    prob = _problem(s_prob)
    rho = contraction_factor(eta, lam, prob.b)
    thr2 = collapse_threshold(rho, R, N, tau)
    thr1 = collapse_threshold(1.0, 1, N, tau)
    rounds = np.arange(T + 1)
    curves, bounds = {}, {}
    kw = dict(prob=prob, lam=lam, T=T, R=R, eta=eta, tau=tau, reps=reps)
    key = {"problem_seed": s_prob, "lam": lam, "T": T, "R": R, "eta": eta, "tau": tau, "reps": reps, "t0": t0}
    grid = [(p, lv) for p in (2, 1) for lv in LEVELS]
    runs = cached_map(partial(robust_curve, **kw), [(p, lv, s) for (p, lv), s in zip(grid, spawn_seeds(s_curves, len(grid)))],
                      namespace="lpproj.robust.curve", params=key)  # one cached task per (p, level)
    for (p, level), r in zip(grid, runs):
        curves[(p, level)] = r["quantiles"]
        if p == 1:
            bounds[level] = float(r["bound"])
    # growth-rate scan: lp-proj-2 with w_hat = 0 (then w_(t+1) = m_t w_t exactly: the Lyapunov exponent of the run),
    # lp-proj-1 from ordinary runs where its predicted rate is positive
    fracs = np.arange(0.05, 0.951, 0.05)
    na = np.round(fracs * N).astype(int)
    pred2 = np.atleast_1d(signflip_log_multiplier_mean(rho, R, N, na, tau))
    pred1 = np.atleast_1d(signflip_log_multiplier_mean(1.0, 1, N, na, tau))
    meas2, meas1 = np.full((na.size, 3), np.nan), np.full((na.size, 3), np.nan)
    scan = cached_map(partial(robust_scan, **kw, t0=t0),  # one cached task per number of attackers
                      [(int(k), bool(pred1[i] * T >= 2 * DIV_NATS), s) for i, (k, s) in
                       enumerate(zip(na, spawn_seeds(s_scan, na.size)))], namespace="lpproj.robust.scan", params=key)
    for i, r in enumerate(scan):
        meas2[i], meas1[i] = r["lp2"], r["lp1"]
    with style():
        fig, axes = plt.subplots(1, 3, figsize=(16, 4.6))
        collapse_level = None
        for ax, p, name in ((axes[0], 2, "lp-proj-2"), (axes[1], 1, "lp-proj-1")):
            for level in LEVELS:
                lo, med, hi = curves[(p, level)]
                ax.plot(rounds, med, color=LEVEL_COL[level], label=f"$N_a/N$ = {level:g}")
                ax.fill_between(rounds, lo, hi, color=LEVEL_COL[level], alpha=0.2, lw=0)
            ax.set_yscale("log")
            ax.set_xlabel("round $t$")
            if p == 2:
                collapse_level = float(np.median(curves[(2, 0.1)][1][0])) * math.exp(2 * DIV_NATS)
                ax.axhline(collapse_level, color="k", ls=":", lw=1,
                           label=r"collapse level (loss $\times 10^{12}$)")
                ax.set_title(f"{name}: sign-flip, $\\tau$=10; predicted collapse for $N_a/N \\geq$ {thr2 / N:.2f}",
                             fontsize=9)
            else:
                ax.axhline(max(bounds.values()), color="k", ls="--", lw=1,
                           label=r"clip bound $\sigma^2/2+\frac{b}{2}\overline{(\|\hat w_k-w_k\|+\sqrt{d_{sub}}\lambda/b)^2}$")
                ax.set_title(f"{name}: sign-flip, $\\tau$=10 (global iterate diverges for $N_a/N \\geq$ {thr1 / N:.2f})",
                             fontsize=9)
            ax.set_ylabel("benign test loss (median, 10-90% band)")
            if p == 1:
                ax.set_ylim(0.8 * float(np.min([c[0].min() for (q, _), c in curves.items() if q == 1])),
                            3.0 * max(bounds.values()))
                ax.legend(fontsize=7, loc="upper right", ncol=2)
            else:
                ax.legend(fontsize=7, loc="upper left")
        ax = axes[2]
        ax.plot(fracs, pred2, color="#2ca02c", label=r"predicted $E\log|m|$, lp-proj-2 ($\rho^R$=%.3f)" % rho ** R)
        ax.plot(fracs, pred1, color="#9467bd", ls="--", label=r"predicted, lp-proj-1 global ($\rho^R \to 1$)")
        ax.errorbar(fracs, meas2[:, 0], yerr=[meas2[:, 0] - meas2[:, 1], meas2[:, 2] - meas2[:, 0]], fmt="o", ms=4,
                    color="#2ca02c", mfc="white", capsize=2, label="measured lp-proj-2 (99% CI)")
        ok = ~np.isnan(meas1[:, 0])
        ax.errorbar(fracs[ok], meas1[ok, 0], yerr=[meas1[ok, 0] - meas1[ok, 1], meas1[ok, 2] - meas1[ok, 0]], fmt="s",
                    ms=4, color="#9467bd", mfc="white", capsize=2, label="measured lp-proj-1 global (99% CI)")
        ax.axhline(0, color="k", lw=0.8)
        ax.axvline(thr2 / N, color="#2ca02c", ls=":", lw=1, label=f"lp-proj-2 threshold $N_a/N={thr2 / N:.2f}$")
        ax.axvline(thr1 / N, color="#9467bd", ls=":", lw=1,
                   label=f"lp-proj-1 global threshold $N_a/N={thr1 / N:.2f}$")
        for level in LEVELS:
            ax.axvline(level, color=LEVEL_COL[level], lw=4, alpha=0.12)
        ax.set_xlabel("fraction of malicious clients $N_a/N$")
        ax.set_ylabel(r"per-round growth rate of $\log\|\tilde w_t\|$")
        ax.set_title("measured vs predicted growth rate", fontsize=9)
        ax.legend(fontsize=7, loc="lower right")
        fig.suptitle("linear analogue of Table 7: "
                     + tex_params({"N": N, "d": prob.d, "d_{sub}": prob.d_sub, "b": 1, r"\eta": eta, r"\lambda": lam,
                                   "R": R, r"\tau": tau}) + f", {reps} replicates", fontsize=9)
        label_log_axes(fig)
        fig.tight_layout()
        return save_figure(fig, outdir, "lpproj_robust",
                           {"rounds": rounds,
                            **{f"loss_p{p}_level{lv}_[q10,median,q90]": v for (p, lv), v in curves.items()},
                            "lpproj1_clip_bound": bounds, "collapse_level": collapse_level,
                            "scan_fraction": fracs, "predicted_rate_lpproj2": pred2, "predicted_rate_lpproj1": pred1,
                            "measured_rate_lpproj2_[mean,lo,hi]": meas2, "measured_rate_lpproj1_[mean,lo,hi]": meas1,
                            "threshold_lpproj2": thr2 / N, "threshold_lpproj1_global": thr1 / N},
                           dict(N=N, d=prob.d, d_sub=prob.d_sub, eta=eta, lam=lam, R=R, tau=tau, reps=reps, T=T, t0=t0,
                                rho=rho, full=full, seed=seed))
