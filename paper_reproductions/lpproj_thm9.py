"""lp-proj Theorem 9 figures: bound (17) against the observed suboptimality over T."""
from __future__ import annotations

import math
from functools import partial

import numpy as np  # noqa: E402

# fedtheory.plotting picks Agg when headless and keeps a backend the user chose (ipympl in Jupyter)
from fedtheory.plotting import plt  # noqa: E402

from fedtheory.lpproj.stochastic import run_algorithm1_sgd, theorem9_eta_hat  # noqa: E402
from fedtheory.plotting import label_log_axes, save_figure, style, tex_number, tex_params  # noqa: E402
from fedtheory.parallel import cached_map  # noqa: E402
from fedtheory.random import spawn_seeds  # noqa: E402
from fedtheory_checks.lpproj import PAPER  # noqa: E402
from fedtheory_checks.lpproj._common import LAM, SETUP, _GammaTracker, make_clients  # noqa: E402
from fedtheory_checks.lpproj.thm9 import paper_constants, quad_gap, rhs17, round_fixed_point  # noqa: E402

#: configurations of the left panel: (label, R, S, beta, batch, nu)
CONFIGS = (("exact solves, $S=3$ of 6 ($C_1=0$)", 2, 3, 4.0, None, None),
           ("$|\\tilde D|=2$, $\\nu=10^{-2}$, $S=6$", 1, 6, 24.0, 2, 1e-2),
           ("exact solves, $S=N=6$ ($C_1=C_2=0$)", 3, 6, 4.0, None, None))
COLORS = ("tab:blue", "tab:orange", "tab:green")
#: a half-width below this fraction of the mean gap is the rounding spread of identical replicates (the
#: configuration S = N with exact solves is deterministic: its spread is 1e-15 of the mean, and another BLAS
#: changes it), written as 0; a sampled configuration's spread is above 1e-3 of the mean
SPREAD_NOISE = 1e-9


def w_bar_all_T(history, mu_F, eta_t):
    """Theorem 9's w_bar_T for every T = 1..T_max from one history (replicates, T_max + 1, d_sub)."""
    T_max = history.shape[1] - 1
    q = 1 - eta_t * mu_F / 2
    a = q ** (T_max - 1 - np.arange(T_max))  # alpha_t / alpha_{T_max - 1}
    num = np.cumsum(a[None, :, None] * history[:, :T_max], axis=1)
    return num / np.cumsum(a)[None, :, None]


def thm9_config(task, cl, full, reps):
    """One left-panel configuration of the Theorem 9 figure (a :func:`fedtheory.parallel.cached_map` task):
    ``task = ((label, R, S, beta, batch, nu), seed)``; ``reps`` replicates of Algorithm 1 at eta~ = eta_hat_1 for
    4 (8 when ``full``) T_min rounds. Returns the mean gap of w_bar_T and its 99% half-width against T, the right
    side of (17), T_min, eta~ and the constants C1, C2, C3, delta1^2."""
    from scipy import stats

    (label, R, S, beta, batch, nu), s = task
    mu_F, L_F = cl.prop3_constants(LAM, mu=cl.mu_sample)
    eta_t = theorem9_eta_hat(L_F, mu_F, beta)
    T_min = int(math.ceil(2 / (eta_t * mu_F)))
    T_max = (8 if full else 4) * T_min
    tr = _GammaTracker(cl, LAM) if batch is not None else None
    res = run_algorithm1_sgd(cl, LAM, T=T_max, R=R, S=S, beta=beta, eta=eta_t / (beta * R), batch=batch, nu=nu,
                             replicates=reps, seed=s, on_local_step=tr)
    k = paper_constants(cl, LAM, beta=beta, S=S, batch=batch, nu=nu, gamma_f_sq=tr.value if tr else 0.0)
    wb = w_bar_all_T(res.history, k["mu_F"], eta_t)  # (reps, T_max, d_sub)
    gaps = quad_gap(cl, LAM, wb)  # (reps, T_max)
    Ts = np.arange(1, T_max + 1)
    h = stats.t.ppf(0.995, reps - 1) * gaps.std(0, ddof=1) / math.sqrt(reps)
    h[h <= SPREAD_NOISE * np.abs(gaps.mean(0))] = 0.0  # identical replicates (exact solves, S = N): rounding only
    rhs = np.array([rhs17(k, eta_t, T, beta)["total"] for T in Ts])
    return {"T": Ts, "mean": gaps.mean(0), "ci99_halfwidth": h, "rhs17": rhs, "T_min": T_min, "eta_tilde": eta_t,
            **{c: k[c] for c in ("C1", "C2", "C3", "delta1_sq")}}


@PAPER.figure("lpproj.thm9", reference="Theorem 9, bound (17); drift floor (spec claims 10, 13)")
def thm9(outdir="figures", full=False, seed=0):
    """Left: E F(w_bar_T) - F* (mean of replicates, 99% t intervals) against T with the right side of (17), for three
    grid configurations at eta~ = eta_hat_1. Right: S = N with exact solves, the last iterate's gap against T for R = 4
    at two steps and for R = 1, with the exact client-drift floors (fixed points of the round map) and the drift term
    eta~^2 C_3/beta^2 of (17)."""
    s_data, s_runs = spawn_seeds(seed, 2)
    cl = make_clients(s_data)
    reps = 48 if full else 16
    data, left = {}, []
    # one cached task per configuration (an interrupted run resumes configuration by configuration)
    runs = cached_map(partial(thm9_config, cl=cl, full=full, reps=reps), list(zip(CONFIGS, spawn_seeds(s_runs, len(CONFIGS)))),
                      namespace="lpproj.thm9.config", params={"data_seed": s_data, "full": full, "reps": reps})
    for (label, R, S, beta, batch, nu), r in zip(CONFIGS, runs):
        Ts, m, h, rhs, T_min, eta_t = r["T"], r["mean"], r["ci99_halfwidth"], r["rhs17"], int(r["T_min"]), r["eta_tilde"]
        left.append((label, Ts, m, h, rhs, T_min))
        data[f"cfg{len(left)}"] = {"label": label, "T": Ts, "mean": m, "ci99_halfwidth": h, "rhs17": rhs,
                                  "T_min": T_min, "eta_tilde": eta_t, "R": R, "S": S, "beta": beta, "batch": batch,
                                  "nu": nu, "C": {c: r[c] for c in ("C1", "C2", "C3", "delta1_sq")}}
    # right panel: drift floor with S = N, exact solves
    beta, R = 2.0, 4
    k = paper_constants(cl, LAM, beta=beta, S=cl.N)
    right = []
    T_r = 6000 if full else 4000
    for frac, ls in ((1.0, "-"), (0.5, "--")):
        eta_t = frac * k["eta_hat"]
        res = run_algorithm1_sgd(cl, LAM, T=T_r, R=R, beta=beta, eta=eta_t / (beta * R))
        g = quad_gap(cl, LAM, res.history[0])
        w_fp, _ = round_fixed_point(cl, LAM, R=R, beta=beta, eta_t=eta_t)
        right.append((f"$R={R}$, $\\tilde\\eta={frac:g}\\hat\\eta_1$", g, float(quad_gap(cl, LAM, w_fp)),
                      eta_t ** 2 * k["C3"] / beta ** 2, ls))
    eta1 = k["eta_hat"]
    g1 = quad_gap(cl, LAM, run_algorithm1_sgd(cl, LAM, T=T_r, R=1, beta=beta, eta=eta1 / beta).history[0])
    data["drift"] = {"T": np.arange(T_r + 1), "R": R, "beta": beta,
                     **{f"gap_{i}": r[1] for i, r in enumerate(right)}, "gap_R1": g1,
                     "floors": [r[2] for r in right], "eta2C3_over_beta2": [r[3] for r in right]}
    with style():
        fig, (ax, ax2) = plt.subplots(1, 2, figsize=(13, 5.2))
        for (label, Ts, m, h, rhs, T_min), c in zip(left, COLORS):
            ax.plot(Ts, m, color=c, label=f"observed: {label}")
            ax.fill_between(Ts, np.maximum(m - h, 1e-300), m + h, color=c, alpha=0.25, lw=0)
            valid = Ts >= T_min
            ax.plot(Ts[valid], rhs[valid], color=c, ls="--", label="RHS of (17)" if c == COLORS[0] else None)
            ax.plot(Ts[~valid], rhs[~valid], color=c, ls=":", lw=1)
            ax.axvline(T_min, color=c, lw=0.8, alpha=0.5)
        ax.set_yscale("log")
        ax.set_xlabel("rounds $T$")
        ax.set_ylabel(r"$\mathbb{E}\,F(\bar w_T) - F^*$")
        ax.set_title(r"Bound (17) (dashed; dotted below $T_{\min}=2/(\tilde\eta\mu_F)$, thin lines) vs observed, "
                     r"$\tilde\eta=\hat\eta_1$", fontsize=10)
        ax.legend(fontsize=8, loc="upper right")
        cols = ("tab:purple", "tab:red")
        Tr = np.arange(T_r + 1)
        for (lab, g, fl, b, ls), c in zip(right, cols):
            ax2.plot(Tr, np.maximum(g, 1e-32), color=c, ls=ls, label=f"observed $F(w_T)-F^*$, {lab}")
            ax2.axhline(fl, color=c, ls=":", lw=1.2, label=f"exact drift floor ${tex_number(fl, 2)}$")
            ax2.axhline(b, color=c, ls=ls, lw=2.5, alpha=0.4,
                        label=rf"$\tilde\eta^2C_3/\beta^2={tex_number(b, 2)}$")
        ax2.plot(Tr, np.maximum(g1, 1e-32), color="k", lw=1, label=r"$R=1$ (GD on $F$, no floor)")
        ax2.set_yscale("log")
        ax2.set_ylim(1e-32, 1)
        ax2.set_xlabel("rounds $T$")
        ax2.set_ylabel(r"$F(\tilde w_T) - F^*$ ($S=N$, exact full-batch solves)")
        ax2.set_title(rf"Client-drift floor, $S=N={cl.N}$, $\beta={beta:g}$: floor $\ll\tilde\eta^2C_3/\beta^2$",
                      fontsize=10)
        ax2.legend(fontsize=7, loc="lower left")
        fig.suptitle("lp-proj Theorem 9 on least squares: "
                     + tex_params({"N": cl.N, "n": cl.n, "d": cl.d, "d_{sub}": cl.d_sub}) + f", ridge {cl.ridge:g}, "
                     + tex_params({r"\lambda": LAM, "s": cl.s}) + f"; {reps} replicates, 99% CIs", fontsize=10)
        label_log_axes(fig)
        fig.tight_layout()
        return save_figure(fig, outdir, "lpproj_thm9", data, {**SETUP, "lam": LAM, "replicates": reps},
                           {"reference": "Theorem 9, eq. (17); spec claims 10 and 13"})
