"""lp-proj Theorems 14 and 15 figures: decay under the paper's schedules with fitted slopes.

Han, Li, Lin & Zhang (2024), JMLR 25, Sec. 4.1.3 (Theorems 14, 15; formal Theorems 27, 28). Left: E||w~_T - w~*||^2
against zeta + T under Theorem 14's schedules (S < N and S = N); right: E||grad F(w~_{t*})||^2 (t* drawn with
alpha_i = eta_i/sum eta) against T under Theorem 15's schedules, computed by the exact moment recursion of the
claims (``fedtheory.lpproj.schedules.theorem15_exact_moments``) for the exact and the saturating inner solver. The problems
and settings are those of the claims ``lpproj.thm14.rate`` and ``lpproj.thm15.rate*``; bands are 99% t intervals
over replicates, lines least-squares fits on the fitting range, dashed lines the stated slopes.
"""
from __future__ import annotations

import math
from functools import partial

import numpy as np
from scipy import stats

from fedtheory import decide
from fedtheory.lpproj import schedules as sch
from fedtheory.parallel import cached_map
from fedtheory.plotting import label_log_axes, plt, save_figure, style, tex_params
from fedtheory.random import spawn_seeds
from fedtheory_checks.lpproj import PAPER


def _mean_ci(Y):
    m = Y.mean(0)
    if Y.shape[0] < 2:
        return m, m, m
    se = Y.std(0, ddof=1) / math.sqrt(Y.shape[0])
    q = stats.t.ppf(0.995, Y.shape[0] - 1)
    return m, np.maximum(m - q * se, m * 1e-3), m + q * se


def thm14_distances(task, cl, T14, ws):
    """||w~_t - w~*||^2 of Theorem 14's runs (a :func:`fedtheory.parallel.cached_map` task): ``task = (no_sampling,
    D0, reps, seed)``; returns an array (reps, T14 + 1)."""
    from fedtheory_checks.lpproj import thm14 as C14

    no_s, D0, reps, s_run = task
    schedule = C14._thm14_schedule(cl, T14, no_s, D0)
    res = C14._thm14_run(cl, schedule, no_sampling=no_s, reps=reps, seed=s_run, warm_start=False, exact=no_s)
    return np.sum((res.history - ws) ** 2, -1)


@PAPER.figure("lpproj.schedules", reference="Theorems 14 and 15 (formal: 27, 28): rates under decaying schedules")
def schedules_figure(outdir="figures", full=False, seed=0):
    from fedtheory_checks.lpproj import thm14 as C14, thm15 as C15

    s14a, s14b, s15a, s15b, s_prob14, s_prob15, s_boot = spawn_seeds(seed, 7)
    data, fits = {}, {}
    # ------------------------------------------------------------------ Theorem 14
    cl = C14._thm14_problem(s_prob14)
    lam, mu_F, L_F = C14._thm14_constants(cl)
    ws = cl.w_star(lam)
    zeta = sch.theorem14_zeta(L_F / mu_F, C14.THM14["beta"])
    T14 = int(math.ceil((16 if full else 8) * zeta))
    cases14 = []
    for no_s, s_run, reps, D0, stated in ((False, s14a, 64 if full else 24, 2, -1.0),
                                          (True, s14b, 2, 60, -2.0)):
        Dl = cached_map(partial(thm14_distances, cl=cl, T14=T14, ws=ws), [(no_s, D0, reps, s_run)],  # (reps, T+1)
                        namespace="lpproj.schedules.thm14", params={"problem_seed": s_prob14, "T14": T14})[0]
        Ts = np.unique(np.round(np.geomspace(zeta / 2, T14, 9)).astype(int))
        fit = sch.loglog_slope(zeta + Ts, Dl[:, Ts], seed=s_boot)
        key = "S=N" if no_s else "S<N"
        fits[f"thm14 {key}"] = {"slope": fit.slope, "ci99": list(fit.ci), "stated": stated, "T": Ts.tolist(),
                                "replicates": reps}
        data[f"thm14 {key}"] = {"T": np.arange(T14 + 1), "mean_ci": np.array(_mean_ci(Dl))}
        cases14.append((key, Dl, Ts, fit, stated))
    # ------------------------------------------------------------------ Theorem 15 (the claims' exact recursion)
    cl15, theta = C15.thm15_instance(s_prob15)
    h = float(cl15.hessian_F_k(C15._setup(False)[0])[0, 0, 0])
    cases15 = []
    for no_s, stated in ((True, -2 / 3), (False, -0.5)):
        lam15, c, S, beta, D = C15._setup(no_s)
        T_max = C15.THM15_T_MAX[no_s][bool(full)]
        Ts = C15._fit_grid(T_max, h, c, beta, no_s)
        Tgrid = np.unique(np.round(np.geomspace(1, T_max, 80)).astype(np.int64))
        Y = C15.thm15_moments(Tgrid, no_sampling=no_s, theta=theta, w0=0.0).Y  # (solver, T)
        Yfit = C15.thm15_moments(Ts, no_sampling=no_s, theta=theta, w0=0.0).Y
        key = "S=N" if no_s else "S<N"
        for i, solver in enumerate(sch.THEOREM15_SOLVERS):
            fit = decide.fit_line(Ts, Yfit[i], confidence=0.99)
            fits[f"thm15 {key} {solver}"] = {"slope": fit["slope"], "ci99": fit["ci"], "stated": stated,
                                             "T": Ts.tolist(), "beta": beta, "S": S}
        data[f"thm15 {key}"] = {"T": Tgrid, "Y": Y}
        cases15.append((key, Tgrid, Y, Ts, Yfit, stated, beta, S))
    # ------------------------------------------------------------------ plot
    col = {"S<N": "#1f77b4", "S=N": "#d62728"}
    with style():
        fig, (a1, a2) = plt.subplots(1, 2, figsize=(12.5, 5.6))
        x = zeta + np.arange(T14 + 1)
        for key, Dl, Ts, fit, stated in cases14:
            m, lo, hi = _mean_ci(Dl)
            a1.plot(x[1:], m[1:], color=col[key], lw=1.2,
                    label=f"${key}$: fit slope {fit.slope:.2f} (99% CI [{fit.ci[0]:.2f}, {fit.ci[1]:.2f}]), "
                          f"stated $\\leq {stated:g}$")
            a1.fill_between(x[1:], lo[1:], hi[1:], color=col[key], alpha=0.2, lw=0)
            xf = zeta + Ts
            a1.plot(xf, np.exp(fit.intercept) * xf ** fit.slope, color=col[key], ls="-", lw=2.6, alpha=0.5)
            ref = fit.mean[0] * (xf / xf[0]) ** stated
            a1.plot(xf, ref, color="k", ls="--", lw=1.0)
            a1.annotate(f"stated slope {stated:g}", (xf[-1], ref[-1]), xytext=(0, 4), textcoords="offset points",
                        fontsize=8, ha="right", va="bottom")  # above the stated line: the fits lie below it
        a1.set_xscale("log")
        a1.set_yscale("log")
        a1.set_xlabel(r"$\zeta + T$  ($\zeta = 72\kappa_F(1 + 7\kappa_F/\beta)$ = %.0f)" % zeta)
        a1.set_ylabel(r"$E\|\tilde w_T - \tilde w^*\|^2$ (from $\tilde w_0 = \tilde w^*$)")
        t14 = C14.THM14
        a1.set_title("Theorem 14: " + tex_params({"N": t14["N"], r"\beta": t14["beta"], "R": t14["R"]})
                     + " (thick: fit, dashed: stated)")
        a1.legend(fontsize=7.5, loc="center left")
        for key, Tgrid, Y, Ts, Yfit, stated, beta, S in cases15:
            for i, (solver, ls) in enumerate(zip(sch.THEOREM15_SOLVERS, ("-", "-."))):
                f = fits[f"thm15 {key} {solver}"]
                a2.plot(Tgrid, Y[i], color=col[key], lw=1.2, ls=ls,
                        label=f"${key}$ ($S={S}$, $\\beta={beta:g}$), {solver} inner solver: fit slope "
                              f"{f['slope']:.3f} (99% CI [{f['ci99'][0]:.3f}, {f['ci99'][1]:.3f}])")
            ref = Yfit[0, 0] * (Ts / Ts[0]).astype(float) ** stated
            a2.plot(Ts, ref, color="k", ls="--", lw=1.0)
            a2.annotate(f"stated slope {stated:.3g}", (Ts[-1], ref[-1]), xytext=(4, 0), textcoords="offset points",
                        fontsize=8, ha="left", va="center")
            a2.axvline(Ts[0], color=col[key], ls=":", lw=0.8)
        a2.set_xscale("log")
        a2.set_yscale("log")
        a2.set_xlabel("$T$ (rounds)")
        a2.set_ylabel(r"$E\|\nabla F(\tilde w_{t^*})\|^2$, $P(t^*=i) = \eta_i/\sum_{j<T}\eta_j$")
        a2.set_title(f"Theorem 15: exact moment recursion, $\\lambda={C15._setup(False)[0]:.3f}$ (dotted: start of fit)")
        a2.legend(fontsize=7.5, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=1, frameon=False)
        fig.suptitle("lp-proj decaying schedules: left, Monte Carlo with 99% t bands over replicates; right, exact "
                     "expectations", fontsize=9)
        label_log_axes(fig)
        fig.tight_layout()
        return save_figure(fig, outdir, "lpproj_schedules", data,
                           {"thm14": {**C14.THM14, "zeta": zeta, "T_max": T14}, "thm15": {
                               **C15.THM15, "lam": C15._setup(False)[0],
                               "T_max": {"S<N": C15.THM15_T_MAX[False][bool(full)],
                                         "S=N": C15.THM15_T_MAX[True][bool(full)]}}},
                           {"reference": "Theorems 14, 15, 27, 28 (Sec. 4.1.3, App. A.5-A.6)", "fitted_slopes": fits})
