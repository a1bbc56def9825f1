"""FedRep figures 1, 3 and 4 (linear analogues), Collins et al., ICML 2021.

Run ``fedtheory reproduce fedrep``.
Each figure shows seed-to-seed spread (median and a quantile band or bars) and
overlays the closed form that applies (Theorem 1's bound on Fig. 3; the
minimum-norm and OLS risks on Figs. 1 and 4).
"""
from __future__ import annotations

import numpy as np

from fedtheory.plotting import METHOD_COLORS, band, label_log_axes, plt, save_figure, style, tex_params
from fedtheory.representation import (min_norm_interpolation_risk, n_selected, noise_std,
                                      ols_excess_risk)
from fedtheory.representation import experiments as ex
from fedtheory_checks.fedrep import PAPER

SIGMA = noise_std(1e-3, "std")  # Sec. 5.1 "N(., 10^-3)"; the public code uses it as std


@PAPER.figure("fedrep.fig1", reference="Figure 1 (local MSE vs m; linear analogue)")
def figure1(outdir="figures", full=False, seed=0):
    """Fig. 1: local test MSE against m for Local Only, FedAvg(+FT) and FedRep."""
    p = dict(ms=[5, 10, 20], d=20, k=2, n=100, r=1.0, rounds=300, sigma=SIGMA,
             noise_convention="std", head_norm="sqrt_k", eta_fedavg=0.05,
             seeds=10 if full else 4, seed=seed)
    data = ex.fig1_data(p["ms"], d=p["d"], k=p["k"], n=p["n"], r=p["r"], rounds=p["rounds"],
                        sigma=p["sigma"], eta_fedavg=p["eta_fedavg"], seeds=p["seeds"], seed=seed)
    with style():
        fig, ax = plt.subplots()
        x = np.arange(len(p["ms"]))
        width = 0.26
        for j, name in enumerate(("Local", "FedAvg", "FedRep")):
            v = data[name]
            med = np.median(v, axis=0)
            lo, hi = np.quantile(v, [0.1, 0.9], axis=0)
            ax.bar(x + (j - 1) * width, med, width, color=METHOD_COLORS[name],
                   yerr=[med - lo, hi - med], capsize=3,
                   label=f"{name}{' + head FT' if name == 'FedAvg' else ''} (median, 10-90%)")
        theory = min_norm_interpolation_risk(p["d"], np.array(p["ms"]), p["k"]) + p["sigma"] ** 2
        keep = np.array(p["ms"]) < p["d"]
        ax.plot(x[keep] - width, theory[keep], "k_", markersize=22, mew=2,
                label=r"Local closed form $(1-m/d)\,k+\sigma^2$")
        ax.set_xticks(x, [f"$m={m}$" for m in p["ms"]])
        ax.set_yscale("log")
        ax.set_xlabel("training samples per client $m$")
        ax.set_ylabel("test MSE (mean squared error)")
        ax.set_title(f"Local MSE, {tex_params({'d': p['d'], 'k': p['k'], 'n': p['n']})} (FedRep Fig. 1 analogue)")
        ax.set_ylim(top=ax.get_ylim()[1] * 1e3)
        ax.legend(loc="upper center", ncol=2, fontsize=7.5)
        return save_figure(fig, outdir, "fedrep_fig1", {k: v for k, v in data.items()}, p,
                           {"reference": "Figure 1"})


@PAPER.figure("fedrep.fig3", reference="Figure 3 (dist vs rounds for several n)")
def figure3(outdir="figures", full=False, seed=0):
    """Fig. 3: dist(B^t, B*) against t for FedRep, 10GD-GD and GD-GD, one panel per n."""
    p = dict(ns=[10, 100, 1000, 10000], d=10, k=2, m=5, r=0.1, rounds=100, sigma=SIGMA,
             noise_convention="std", head_norm="sqrt_k", eta=0.125,
             head_lr={"10GD-GD": 0.2, "GD-GD": 0.4},
             seeds=10 if full else 4, seed=seed)
    data = ex.fig3_data(p["ns"], d=p["d"], k=p["k"], m=p["m"], r=p["r"], rounds=p["rounds"],
                        sigma=p["sigma"], eta=p["eta"], head_lr=p["head_lr"], seeds=p["seeds"],
                        seed=seed)
    with style():
        fig = draw_figure3(data, p)
        sidecar = {str(n): v for n, v in data.items()}
        return save_figure(fig, outdir, "fedrep_fig3", sidecar, p,
                           {"reference": "Figure 3",
                            "note": "the paper's four n values are not printed; the public code "
                                    "uses [10, 100, 1000]"})


def draw_figure3(data, p):
    """Draw Fig. 3 from ``data`` (``{n: {method: runs, "bound": runs}}``) and the parameters ``p``.

    One panel per n; the legend sits under the panels (it covers no data) and names every
    method's median and band and the Theorem 1 bound. Returns the Figure (call inside
    :func:`fedtheory.plotting.style`).
    """
    t = np.arange(p["rounds"] + 1)
    fig, axes = plt.subplots(1, len(p["ns"]), figsize=(4.0 * len(p["ns"]), 4.3), sharey=True, squeeze=False)
    axes = axes[0]
    for ax, n in zip(axes, p["ns"]):
        dd = data[n]
        for name in ("GD-GD", "10GD-GD", "FedRep"):
            band(ax, t, dd[name], METHOD_COLORS[name], name)
        rn = n_selected(n, p["r"])
        if rn >= p["k"]:
            ax.plot(t, np.median(dd["bound"], axis=0), "--", color=METHOD_COLORS["bound"],
                    label=r"Theorem 1 bound $\rho^t\,\mathrm{dist}_0$ (median over seeds)")
            ax.set_title(f"$n={n}$ ($rn={rn}$)")
        else:
            ax.set_title(f"$n={n}$ ($rn={rn} < k$: Assumption 2 violated,\nno Theorem 1 bound)",
                         color="#b00000")
        ax.set_yscale("log")
        ax.set_xlabel("round $t$")
    axes[0].set_ylabel(r"$\mathrm{dist}(B^t, B^*)$")
    entries = {}
    for ax in axes:  # every label once, in drawing order: the bound is absent from the rn < k panel
        for h, lab in zip(*ax.get_legend_handles_labels()):
            entries.setdefault(lab, h)
    fig.legend(list(entries.values()), list(entries.keys()), loc="lower center", ncol=4, fontsize=8.5,
               frameon=False)
    fig.suptitle("FedRep Fig. 3 analogue: " + tex_params({"d": p["d"], "k": p["k"], "m": p["m"], "r": p["r"]})
                 + ", noise std " + tex_params({r"\sigma": p["sigma"]}) + ", " + tex_params({r"\eta": p["eta"]})
                 + f"; head steps 10GD-GD {p['head_lr']['10GD-GD']}, GD-GD {p['head_lr']['GD-GD']}; bound uses "
                 r"the worst-subset $\bar\sigma_{\min,*}$", fontsize=10)
    label_log_axes(fig)
    fig.tight_layout(rect=(0, 0.12, 1, 1))
    return fig


@PAPER.figure("fedrep.fig4", reference="Figure 4 (new-client MSE vs m_new)")
def figure4(outdir="figures", full=False, seed=0):
    """Fig. 4: new-client test MSE against the number of fine-tuning samples m_new."""
    p = dict(m_news=[1, 2, 3, 5, 10, 20, 40], d=20, k=2, n=100, m=10, r=0.1, rounds=300,
             sigma=SIGMA, noise_convention="std", head_norm="sqrt_k", n_new=100, eta_fedavg=0.05,
             seeds=10 if full else 4, seed=seed)
    data = ex.fig4_data(p["m_news"], d=p["d"], k=p["k"], n=p["n"], m=p["m"], r=p["r"],
                        rounds=p["rounds"], sigma=p["sigma"], n_new=p["n_new"],
                        eta_fedavg=p["eta_fedavg"], seeds=p["seeds"], seed=seed)
    x = np.array(p["m_news"])
    with style():
        fig, ax = plt.subplots()
        for name, color in (("Local", METHOD_COLORS["Local"]), ("FedAvg", METHOD_COLORS["FedAvg"]),
                            ("FedRep", METHOD_COLORS["FedRep"]), ("Oracle", "#9467bd")):
            v = data[name]
            med = np.median(v, axis=0)
            lo, hi = np.quantile(v, [0.1, 0.9], axis=0)
            lab = {"Oracle": "true $B^*$ (oracle)", "FedAvg": "FedAvg $B$ + head fit"}.get(name, name)
            ax.plot(x, med, "o-", color=color, label=f"{lab} (median)")
            ax.fill_between(x, lo, hi, color=color, alpha=0.18, linewidth=0)
        keep = x < p["d"]
        ax.plot(x[keep], min_norm_interpolation_risk(p["d"], x[keep], p["k"]), ":",
                color=METHOD_COLORS["Local"], label=r"Local closed form $(1-m/d)\,k$")
        ols = ols_excess_risk(p["k"], x, p["sigma"])
        ax.plot(x[np.isfinite(ols)], ols[np.isfinite(ols)], ":", color="#9467bd",
                label=r"oracle OLS risk $\sigma^2 k/(m-k-1)$")
        ax.axvline(p["k"], color="0.5", lw=0.8, ls="--")
        ax.text(p["k"], 0.03, r" $m_{new}=k$", color="0.4", fontsize=8, transform=ax.get_xaxis_transform())
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(r"fine-tuning samples of the new client $m_{new}$")
        ax.set_ylabel("new-client test MSE (noiseless test labels)")
        ax.set_title("New-client MSE, " + tex_params({"d": p["d"], "k": p["k"], "n": p["n"], "m": p["m"], "r": p["r"]}))
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2, fontsize=7.5)  # below: covers no data
        return save_figure(fig, outdir, "fedrep_fig4", {k: v for k, v in data.items()}, p,
                           {"reference": "Figure 4"})

