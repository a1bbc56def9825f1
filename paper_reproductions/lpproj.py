"""lp-proj figures (linear model of Sec. 4.2 / App. B), Han et al., JMLR 2024.

* ``lpproj_fig1``: Figure 1, benign-average test loss against lambda under the same-value attack
  (n=200, N=100, N_a=20, d=100, d_sub=10, b=1, sigma=1, Sigma_1=0.1, tau=100), closed forms with
  Monte Carlo points;
* ``lpproj_fairness``: V against lambda per method, and the accuracy-fairness trade-off;
* ``lpproj_dsub``: Remark 17, the role of d_sub;
* ``lpproj_attacks``: loss against the fraction of malicious clients, per attack and method.
"""
from __future__ import annotations

from functools import partial

import numpy as np

from fedtheory.lpproj import (fairness_V, make_problem, mc_test_loss, minimal_loss, optimal_lambda,
                              proposition16_threshold, test_loss, test_loss_general)
from fedtheory.parallel import cached_map
from fedtheory.plotting import label_log_axes, plt, save_figure, style, tex_number, tex_params
from fedtheory.random import spawn_seeds
from fedtheory_checks.lpproj import PAPER

COL = {"local": "#7f7f7f", "fedavg": "#d62728", "pfedme": "#1f77b4", "ditto": "#1f77b4",
       "lp-proj-2": "#2ca02c"}
LABEL = {"local": "Local", "fedavg": "FedAvg", "pfedme": "pFedMe = Ditto", "ditto": "Ditto",
         "lp-proj-2": "lp-proj-2"}
#: line style and Monte Carlo marker per method (with COL: methods differ in colour, line and marker)
LSTYLE = {"local": (0, (5, 2)), "fedavg": "-", "pfedme": "-", "ditto": "-", "lp-proj-2": (0, (1, 1.2))}
MARK = {"local": "s", "fedavg": "o", "pfedme": "o", "ditto": "o", "lp-proj-2": "^"}
FIG1 = dict(N=100, n=200, d=100, d_sub=10, b=1.0, sigma=1.0, Sigma=0.1, attack="same-value",
            N_a=20, tau=100.0)


def mc_point(task, prob):
    """One Monte Carlo point ``(mean, ci_low, ci_high)`` of the benign-average test loss (a
    :func:`fedtheory.parallel.cached_map` task): ``task = (method, lam, options, seed)``, ``options`` the
    keyword arguments of :func:`fedtheory.lpproj.mc_test_loss` other than the seed."""
    method, lam, opts, s = task
    e = mc_test_loss(method, prob, float(lam), seed=s, **opts)
    return np.array([e.mean, e.ci_low, e.ci_high])


@PAPER.figure("lpproj.fig1", reference="Figure 1 (loss vs lambda, same-value attack)")
def figure1(outdir="figures", full=False, seed=0):
    """Figure 1: closed forms (Theorem 30) with Monte Carlo points. Left: the whole lambda range (sufficient-statistics
    sampler, 1e5 replications per point). Right: the excess over local training near lambda_1^*, where the dips are
    6e-5 (pFedMe) and 6e-6 (lp-proj-2): sufficient-statistics sampler with the local control variate, 1e6 (quick) or
    4e6 (full) replications per point, 99% CIs (see lpproj.fig1.mc-near-optimum)."""
    from fedtheory_checks.lpproj._common import isotropic_problem

    p = dict(FIG1)
    lams = np.logspace(-6, 1, 300)
    ls = optimal_lambda(**p)
    thr = proposition16_threshold(ls, p["b"])
    curves = {m: test_loss(m, lams, **p) for m in ("pfedme", "lp-proj-2")}
    lev = {m: test_loss(m, **p) for m in ("local", "fedavg")}
    prob = isotropic_problem(p["N"], p["d"], p["d_sub"], p["n"], p["b"], p["sigma"], p["Sigma"],
                             N_a=p["N_a"], seed=seed)  # satisfies (37) with Sigma_1 = 0.1 exactly
    att = dict(attack="same-value", N_a=p["N_a"], tau=p["tau"])
    mc_l = np.logspace(-6, 0, 13)
    zoom_l = ls * np.array([0.05, 0.25, 0.5, 1.0, 1.5, 1.9, 2.2])
    reps, reps_zoom = 100_000, (4_000_000 if full else 1_000_000)
    tasks = []  # one cached Monte Carlo point per task: an interrupted run resumes point by point
    for m, sm in zip(("pfedme", "lp-proj-2"), spawn_seeds(seed, 2)):
        s_wide, s_zoom = spawn_seeds(sm, 2)
        tasks += [(m, float(lam), dict(att, n_samples=reps, sampler="sufficient"), s)
                  for lam, s in zip(mc_l, spawn_seeds(s_wide, mc_l.size))]
        tasks += [(m, float(lam), dict(att, n_samples=reps_zoom, sampler="sufficient", control="local"), s)
                  for lam, s in zip(zoom_l, spawn_seeds(s_zoom, zoom_l.size))]
    rows = cached_map(partial(mc_point, prob=prob), tasks, namespace="lpproj.fig1.mc",
                      params={**p, "problem": "isotropic_problem", "problem_seed": seed})
    mc, mcz, k = {}, {}, mc_l.size + zoom_l.size
    for j, m in enumerate(("pfedme", "lp-proj-2")):
        mc[m] = np.array(rows[j * k:j * k + mc_l.size])
        mcz[m] = np.array(rows[j * k + mc_l.size:(j + 1) * k])
    with style():
        fig = draw_figure1(p, lams, curves, lev, ls, thr, mc_l, mc, zoom_l, mcz, reps_zoom)
        return save_figure(fig, outdir, "lpproj_fig1",
                           {"lambda": lams, **{f"{k}_closed_form": v for k, v in curves.items()},
                            "mc_lambda": mc_l, **{f"{k}_mc_[mean,lo,hi]": v for k, v in mc.items()},
                            "zoom_lambda": zoom_l, **{f"{k}_zoom_mc_[mean,lo,hi]": v for k, v in mcz.items()},
                            **{f"{k}_zoom_closed_form": test_loss(k, zoom_l, **p) for k in mcz},
                            "local": lev["local"], "fedavg": lev["fedavg"], "lambda_1_star": ls,
                            "threshold": thr},
                           {**p, "mc_reps": reps, "mc_reps_zoom": reps_zoom,
                            "sampler": "sufficient statistics (exact in law); zoom: local control variate"},
                           {"reference": "Sec. 4.2, Figure 1; Theorem 30; Prop. 16",
                            "note": "the text quotes lambda_1^* ~ 4.9e-4; these parameters give 2.46e-4 "
                                    "(4.9e-4 is the threshold)"})


def draw_figure1(p, lams, curves, lev, ls, thr, mc_l, mc, zoom_l, mcz, reps_zoom):
    """Draw lp-proj Figure 1 from its computed parts; returns the Figure (call inside ``style()``).

    ``curves`` maps method -> closed form on ``lams``; ``lev`` the Local and FedAvg levels; ``ls`` and
    ``thr`` are lambda_1^* and the Proposition 16 threshold; ``mc``/``mcz`` map method -> rows
    ``(mean, ci_low, ci_high)`` at ``mc_l``/``zoom_l``. The legend sits under both panels (no line
    crosses it); the zoom's limits are set from its error bars, so none is clipped.
    """
    lo_x, hi_x = zoom_l[0] / 1.6, zoom_l[-1] * 1.3  # margins in log space around the outer points
    zl = np.logspace(np.log10(lo_x), np.log10(hi_x), 300)
    zc = {m: test_loss(m, zl, **p) - lev["local"] for m in ("pfedme", "lp-proj-2")}
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(12, 5.4))
    for m in ("pfedme", "lp-proj-2"):
        ax.plot(lams, curves[m], color=COL[m], label=f"{LABEL[m]}: closed form (Thm 30)")
        r = mc[m]
        ax.errorbar(mc_l, r[:, 0], yerr=[r[:, 0] - r[:, 1], r[:, 2] - r[:, 0]], fmt="o", ms=3.5, color=COL[m],
                    mfc="white", capsize=2, label=f"{LABEL[m]}: Monte Carlo, 99% CI")
        ax2.plot(zl, 1e5 * zc[m], color=COL[m])
        r = 1e5 * (mcz[m] - lev["local"])
        ax2.errorbar(zoom_l, r[:, 0], yerr=[r[:, 0] - r[:, 1], r[:, 2] - r[:, 0]], fmt="o", ms=3.5,
                     color=COL[m], mfc="white", capsize=2)
    ax.axhline(lev["local"], color=COL["local"], ls="--", label=f"Local {lev['local']:.4f}")
    ax.axhline(lev["fedavg"], color=COL["fedavg"], ls="--", label=f"FedAvg {lev['fedavg']:.1f}")
    ax2.axhline(0.0, color=COL["local"], ls="--")
    for a in (ax, ax2):
        a.axvline(ls, color="k", lw=0.8, ls=":", label=f"$\\lambda_1^*={tex_number(ls)}$" if a is ax else None)
        a.axvline(thr, color="#9467bd", lw=1.0, ls="-.",
                  label=f"threshold $2\\lambda_1^*/(1-\\lambda_1^*/b)={tex_number(thr)}$" if a is ax else None)
        a.set_xscale("log")
        a.set_xlabel(r"personalisation strength $\lambda$")
    ax.set_yscale("log")
    ax.set_ylim(top=3 * lev["fedavg"])  # room above the FedAvg level
    ax.set_title("lp-proj Figure 1 (same-value attack)")
    ax.set_ylabel("benign-average test loss $L(\\lambda)$")
    ax2.set_title(f"zoom: excess over local near $\\lambda_1^*$ (MC: ${tex_number(reps_zoom)}$ draws/point)")
    ax2.set_ylabel(r"$10^5\,(L(\lambda) - L^{loc})$")
    ax2.set_xlim(lo_x, hi_x)
    ends = 1e5 * (np.concatenate([mcz[m][:, 1:] for m in mcz]) - lev["local"])  # every CI end, scaled
    span = ends.max() - min(ends.min(), 0.0)
    ax2.set_ylim(min(ends.min(), 0.0) - 0.08 * span, ends.max() + 0.08 * span)
    y_me, y_l2 = (1e5 * (float(test_loss(m, ls, **p)) - lev["local"]) for m in ("pfedme", "lp-proj-2"))
    gap1 = (y_l2 - y_me) / 1e5
    ax2.annotate("", xy=(ls * 0.93, y_me), xytext=(ls * 0.93, y_l2),
                 arrowprops=dict(arrowstyle="<->", lw=0.8, shrinkA=0, shrinkB=0))
    ax2.text(lo_x * 1.15, 0.6 * y_me, f"largest gap $L^{{l2}} - L^{{Me}}$\nbelow the threshold:\n${tex_number(gap1)}$ "
             f"at $\\lambda_1^*$ (arrow)\n(${tex_number(gap1 / float(test_loss('pfedme', ls, **p)), 2)}$ of the loss)",
             fontsize=8, ha="left", va="center")
    handles, labels = ax.get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=4, fontsize=8.5, frameon=False)
    fig.suptitle(tex_params({"n": p["n"], "N": p["N"], "N_a": p["N_a"], "d": p["d"], "d_{sub}": p["d_sub"], "b": p["b"],
                             r"\sigma": p["sigma"], r"\Sigma_1": p["Sigma"], r"\tau": p["tau"]}), fontsize=9)
    label_log_axes(fig)
    fig.tight_layout(rect=(0, 0.12, 0.99, 1))
    return fig


@PAPER.figure("lpproj.fairness", reference="Theorem 32 / Prop. 18 (fairness, trade-off)")
def fairness(outdir="figures", full=False, seed=0):
    p = dict(N=50, d=20, d_sub=5, n=100, b=1.0, sigma=1.0, heterogeneity=0.2)
    prob = make_problem(seed=seed, **p)
    lams = np.logspace(-3, 3, 200)
    V = {m: np.broadcast_to(fairness_V(m, lams, prob.W, b=prob.b, P=prob.P), lams.shape)
         for m in ("local", "fedavg", "pfedme", "lp-proj-2")}
    L = {m: np.broadcast_to(test_loss_general(m, lams, prob), lams.shape) for m in V}
    with style():
        fig, (a1, a2) = plt.subplots(1, 2, figsize=(12, 4.4))
        for m in V:
            a1.plot(lams, V[m] + (1e-12 if m == "local" else 0), color=COL[m],
                    label=LABEL[m] + (r" ($V=0$, drawn at $10^{-12}$)" if m == "local" else ""))
            a2.plot(V[m], L[m], color=COL[m], marker="o" if m in ("local", "fedavg") else None,
                    ms=6, label=LABEL[m])
        for m, off in (("pfedme", (-6, 8)), ("lp-proj-2", (6, -12))):  # one method above, the other below
            for lam in (0.1, 1, 10):
                i = np.argmin(np.abs(lams - lam))
                a2.plot(V[m][i], L[m][i], "o", ms=3.5, color=COL[m])
                a2.annotate(f"$\\lambda$={lam:g}", (V[m][i], L[m][i]), xytext=off, textcoords="offset points",
                            fontsize=7.5, color=COL[m], ha="right" if off[0] < 0 else "left")
        a1.set_xscale("log"); a1.set_yscale("log")
        a1.set_xlabel(r"$\lambda$"); a1.set_ylabel("$V$: variance of test loss across clients (Thm 32)")
        a1.set_title(r"Fairness against $\lambda$ (smaller $V$ is fairer)")
        a1.legend(fontsize=8)
        a2.set_xscale("symlog", linthresh=1e-6)
        a2.margins(y=0.1)  # room for the labels under the lp-proj-2 curve
        a2.set_xlabel("$V$ (variance across clients)"); a2.set_ylabel("mean test loss")
        a2.set_title(r"Accuracy-fairness trade-off (curves: $\lambda$ from $10^{-3}$ to $10^{3}$)")
        a2.legend(fontsize=8)
        fig.suptitle("lp-proj linear model: "
                     + tex_params({"N": p["N"], "d": p["d"], "d_{sub}": p["d_sub"], "n": p["n"]})
                     + f", $w_k\\sim\\mathcal{{N}}(0, {p['heterogeneity']}\\,I)$, fixed draw", fontsize=9)
        label_log_axes(fig)
        fig.tight_layout()
        return save_figure(fig, outdir, "lpproj_fairness", {"lambda": lams, **{f"V_{k}": v for k, v in V.items()},
                                                            **{f"L_{k}": v for k, v in L.items()}}, p,
                           {"reference": "Theorem 32, Proposition 18"})


@PAPER.figure("lpproj.dsub", reference="Remark 17 (d_sub sweep)")
def dsub(outdir="figures", full=False, seed=0):
    p = dict(FIG1)
    p.pop("d_sub")
    ds = np.arange(1, 101)
    opt = np.array([minimal_loss("lp-proj-2", d_sub=int(s), **p) for s in ds])
    lams = np.logspace(-6, 1, 200)
    with style():
        fig, (a1, a2) = plt.subplots(1, 2, figsize=(12, 4.4))
        loc = float(test_loss("local", d_sub=10, **p))  # plotted as 1e5 x (loss - Local): no offset label
        a1.plot(ds, 1e5 * (opt - loc), color=COL["lp-proj-2"], label=r"$L^{l2}_*$ at $\lambda_1^*$ (closed form)")
        a1.axhline(1e5 * (minimal_loss("pfedme", d_sub=10, **p) - loc), color=COL["pfedme"], ls="--",
                   label="pFedMe optimum")
        a1.axhline(0.0, color=COL["local"], ls="--", label=f"Local ({loc:.4f})")
        a1.set_xlabel(r"$d_{sub}$")
        a1.set_ylabel(r"$10^5\,(L_* - L^{loc})$, optimal loss minus Local")
        a1.set_title("Remark 17: optimal loss is affine in $d_{sub}$ (negative slope)")
        a1.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=3, frameon=False)
        for s, c in zip((1, 10, 30, 100), ("#a6dba0", "#5aae61", "#1b7837", "#00441b")):
            a2.plot(lams, test_loss("lp-proj-2", lams, d_sub=s, **p), color=c, label=f"lp-proj-2, $d_{{sub}}={s}$")
        a2.set_xscale("log"); a2.set_yscale("log")
        a2.set_xlabel(r"$\lambda$"); a2.set_ylabel("benign-average test loss")
        a2.set_title(r"smaller $d_{sub}$: flatter loss in $\lambda$ (robust tuning)")
        a2.legend(fontsize=8)
        fig.suptitle("Figure-1 parameters with $d_{sub}$ varied (same-value attack)", fontsize=9)
        label_log_axes(fig)
        fig.tight_layout()
        return save_figure(fig, outdir, "lpproj_dsub", {"d_sub": ds, "optimal_loss": opt}, p,
                           {"reference": "Remark 17 / Remark 31"})


ATTACKS = ("same-value", "sign-flip", "gaussian")
PERSONALISED = ("local", "pfedme", "lp-proj-2")


def draw_attacks(fr, fr_mc, data, p):
    """Draw the attacks figure; returns the Figure (call inside ``style()``).

    ``data[f"{attack}|{method}"]`` holds ``closed_form`` (on ``fr``) and ``mc`` rows ``(mean, lo, hi)`` (on
    ``fr_mc``). Top row: every method on a log axis. Bottom row: the personalised methods alone on a
    linear axis fitted to them, where they are told apart; both rows show the Monte Carlo 99% CIs.
    """
    fig, axes = plt.subplots(2, 3, figsize=(15, 8.2), sharex=True, sharey="row",
                             gridspec_kw={"height_ratios": (1, 1.15)})
    for j, attack in enumerate(ATTACKS):
        top, bot = axes[0, j], axes[1, j]
        for m in ("local", "fedavg", "pfedme", "lp-proj-2"):
            y, pts = data[f"{attack}|{m}"]["closed_form"], np.asarray(data[f"{attack}|{m}"]["mc"])
            err = [pts[:, 0] - pts[:, 1], pts[:, 2] - pts[:, 0]]
            for ax in (top, bot) if m in PERSONALISED else (top,):
                ax.plot(fr, y, color=COL[m], ls=LSTYLE[m], label=f"{LABEL[m]} (closed form)")
                ax.errorbar(fr_mc, pts[:, 0], yerr=err, fmt=MARK[m], ms=4, mfc="white", color=COL[m], capsize=2,
                            label=f"{LABEL[m]} (Monte Carlo, 99% CI)")
        top.set_yscale("log")
        top.set_title(f"{attack} attack ($\\tau={p['tau']:g}$): all methods")
        bot.set_title(f"{attack}: personalised methods only (linear axis)")
        bot.set_xlabel(r"fraction of malicious clients $N_a/N$")
    lo = min(np.min(np.asarray(data[f"{a}|{m}"]["mc"])[:, 1]) for a in ATTACKS for m in PERSONALISED)
    lo = min(lo, min(np.min(data[f"{a}|{m}"]["closed_form"]) for a in ATTACKS for m in PERSONALISED))
    hi = max(np.max(np.asarray(data[f"{a}|{m}"]["mc"])[:, 2]) for a in ATTACKS for m in PERSONALISED)
    hi = max(hi, max(np.max(data[f"{a}|{m}"]["closed_form"]) for a in ATTACKS for m in PERSONALISED))
    pad = 0.06 * (hi - lo)
    axes[1, 0].set_ylim(lo - pad, hi + pad)  # one linear scale for the bottom row, fitted to the personalised methods
    axes[0, 0].set_ylabel(f"benign-average test loss\n($\\lambda={p['lam']:g}$, log scale)")
    axes[1, 0].set_ylabel(f"benign-average test loss\n($\\lambda={p['lam']:g}$, linear scale)")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=4, fontsize=8.5, frameon=False)
    fig.suptitle("lp-proj linear model under Byzantine attacks: "
                 + tex_params({"N": p["N"], "d": p["d"], "d_{sub}": p["d_sub"], "n": p["n"]})
                 + "; points: Monte Carlo (99% CI)", fontsize=10)
    label_log_axes(fig)
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    return fig


@PAPER.figure("lpproj.attacks", reference="Sec. 4.2 / App. B.3 (loss vs fraction malicious)")
def attacks(outdir="figures", full=False, seed=0):
    p = dict(N=50, d=20, d_sub=5, n=100, b=1.0, sigma=1.0, heterogeneity=0.05, lam=0.05, tau=3.0)
    prob = make_problem(N=p["N"], d=p["d"], d_sub=p["d_sub"], n=p["n"], b=p["b"], sigma=p["sigma"],
                        heterogeneity=p["heterogeneity"], mu_w=1.0, seed=seed)
    fr = np.arange(0, 0.81, 0.05)
    Nas = np.round(fr * p["N"]).astype(int)
    reps = 2000 if full else 500
    data, tasks = {}, []
    for attack, sa in zip(ATTACKS, spawn_seeds(seed, 3)):
        for m, sm in zip(("local", "fedavg", "pfedme", "lp-proj-2"), spawn_seeds(sa, 4)):
            y = [float(test_loss_general(m, p["lam"], prob, attack=attack if na else None, N_a=int(na),
                                         tau=p["tau"])) for na in Nas]
            data[f"{attack}|{m}"] = {"closed_form": y}
            tasks += [(m, p["lam"], dict(attack=attack if na else None, N_a=int(na), tau=p["tau"], n_samples=reps,
                                         chunk=500), s) for na, s in zip(Nas[::4], spawn_seeds(sm, len(Nas[::4])))]
    pts = cached_map(partial(mc_point, prob=prob), tasks, namespace="lpproj.attacks.mc",  # one task per point
                     params={**p, "problem_seed": seed})
    for j, key in enumerate(data):
        data[key]["mc"] = np.array(pts[j * len(Nas[::4]):(j + 1) * len(Nas[::4])])
    with style():
        fig = draw_attacks(fr, fr[::4], data, p)
        return save_figure(fig, outdir, "lpproj_attacks", data, {**p, "mc_reps": reps},
                           {"reference": "Sec. 4.2, App. B.3"})
