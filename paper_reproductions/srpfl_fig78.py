"""SRPFL Figures 7 and 8 (linear analogues), Tziotis et al., TMLR, App. C (absent from arXiv).

The paper's figures are deep-network experiments (CIFAR10, EMNIST, Sent140, FEMNIST); these are linear
analogues computed exactly (FedRep-SRPFL vs FedRep on the shared-representation model, fixed compute
speeds, full participation):

* ``srpfl_fig7``: the homogeneous setting (heads concentrated around one direction) next to the usual
  heterogeneous one: exact test MSE against wall-clock time, and the time-to-target speed-up per group;
* ``srpfl_fig8``: the four regimes of Fig. 8 - mildly (100 + U[0,50]) and strongly (log-normal) imbalanced
  local datasets, the percentage of stragglers under both readings of the printed lambdas (mean times and
  exponential rates), and correlated data/system heterogeneity.

The experiments are those of the claims ``srpfl.fig7.homogeneous`` and ``srpfl.fig8.*``
(:mod:`fedtheory_checks.srpfl.fig7`, :mod:`fedtheory_checks.srpfl.fig8`), on the same settings and engine
(:mod:`fedtheory_checks.srpfl._appendix_c`): groups of paired runs sharing a ground truth, for the curves.
"""
from __future__ import annotations

import numpy as np

from fedtheory.plotting import label_log_axes, plt, save_figure, style, tex_params
from fedtheory_checks.srpfl import PAPER
from fedtheory_checks.srpfl import _appendix_c as sf
from fedtheory_checks.srpfl.fig7 import FIG7
from fedtheory_checks.srpfl.fig8 import FIG8_FRACTIONS, FIG8_IMB, FIG8_RHO, fig8_correlated_cfg, fig8_straggler_cfg

COLORS = {"SRPFL": "#1f77b4", "FedRep": "#d62728"}
LABELS = {"SRPFL": "FedRep-SRPFL", "FedRep": "FedRep"}


def _groups(full):
    return (8, 2) if full else (3, 2)


def _on_grid(groups, name, grid):
    """Each group's first-replicate curve as a step function of wall-clock time on ``grid`` (a run that stopped
    at its target keeps its last value afterwards)."""
    out = []
    for g in groups:
        t, v = np.asarray(g[f"clock_{name}"]), np.asarray(g[f"curve_{name}"])
        idx = np.searchsorted(t, grid, side="right") - 1
        vals = v[np.clip(idx, 0, None)].astype(float)
        vals[idx < 0] = np.nan
        out.append(vals)
    return np.array(out)


def _curves(ax, groups, metric_label, target, title):
    tmax = float(np.median([g["clock_FedRep"][-1] for g in groups]))
    grid = np.linspace(0, tmax, 300)
    data = {"time": grid}
    for name in ("SRPFL", "FedRep"):
        v = _on_grid(groups, name, grid)
        with np.errstate(all="ignore"):
            med = np.nanmedian(v, axis=0)
        for row in v:
            ax.plot(grid, row, color=COLORS[name], lw=0.5, alpha=0.35)
        ax.plot(grid, med, color=COLORS[name], lw=2, label=f"{LABELS[name]} (median; thin: groups)")
        data[f"{name}_median"] = med
    ax.axhline(target, color="0.3", ls=":", lw=1, label=f"target ${target:g}$")
    ax.set_yscale("log")
    ax.set_xscale("symlog", linthresh=1.0)
    ax.set_xlim(left=0)
    ax.set_xlabel("simulated wall-clock time (symlog)")
    ax.set_ylabel(metric_label)
    ax.set_title(title, fontsize=9)
    return data


def _base_text(k_note: str = "") -> str:
    """The shared settings in the paper's symbols: ``$N=M=64$, $d=20$, $k=2$, ...``, ``k_note`` after ``k``."""
    b = sf.FIG_BASE
    return (tex_params({"N=M": b["M"], "d": b["d"], "k": b["k"]}) + k_note + ", "
            + tex_params({"m": b["m"], r"\sigma": b["sigma"], "n_0": b["n0"]}))


def _factors(groups):
    return np.exp(sf.log_speedups(groups))


@PAPER.figure("srpfl.fig7", reference="Figure 7 (homogeneous setting; linear analogue)")
def figure7(outdir="figures", full=False, seed=0):
    """Fig. 7: homogeneous vs heterogeneous heads; exact test MSE vs wall-clock and speed-ups."""
    G, r = _groups(full)
    p = dict(base=sf.FIG_BASE, settings=FIG7, groups=G, replicates=r, seed=seed)
    runs = {name: sf.run_setting({**cfg, "replicates": r}, G, seed, "srpfl.fig7.homogeneous")
            for name, cfg in FIG7.items()}
    data = {}
    with style():
        fig, axes = plt.subplots(1, 3, figsize=(15, 4.4))
        for ax, (name, groups) in zip(axes[:2], runs.items()):
            cfg = FIG7[name]
            data[name] = _curves(ax, groups, "exact test MSE (heads re-fit)", cfg["target"],
                                 f"{name} heads" + (f" (heterogeneity {cfg['heterogeneity']})" if name == "homogeneous"
                                                    else " (isotropic)"))
        ax = axes[2]
        for j, (name, groups) in enumerate(runs.items()):
            f = _factors(groups)
            ax.scatter(np.full(f.size, j) + np.linspace(-0.15, 0.15, f.size), f, color="#1f77b4", s=18)
            ax.hlines(np.median(f), j - 0.25, j + 0.25, color="k", lw=2)
            data[name]["speedup_factors"] = f
        ax.axhline(1, color="0.5", lw=0.8)
        ax.set_yscale("log")
        ax.set_xticks(range(len(runs)), list(runs))
        ax.set_ylabel(r"$T_{FedRep} / T_{SRPFL}$ to the target (per group)")
        ax.set_title("time-to-target speed-up (dots: groups, bar: median)", fontsize=9)
        handles, labels = axes[0].get_legend_handles_labels()  # under the panels: it covers no data
        fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize=8.5, frameon=False)
        fig.suptitle("Fig. 7 linear analogue: " + _base_text() + f", fixed Exp(1) speeds, communication time $C=0$; "
                     f"{G} groups x {r} paired replicates", fontsize=10)
        label_log_axes(fig)
        fig.tight_layout(rect=(0, 0.07, 1, 1))
        return [save_figure(fig, outdir, "srpfl_fig7", data, p, {"reference": "Figure 7 (linear analogue)"})]


@PAPER.figure("srpfl.fig8", reference="Figure 8 (imbalanced data, % stragglers, correlated heterogeneity; linear analogue)")
def figure8(outdir="figures", full=False, seed=0):
    """Fig. 8: imbalanced (uniform, log-normal), % of stragglers (lambda as means and as rates), correlation."""
    G, r = _groups(full)
    p = dict(base=sf.FIG_BASE, imbalanced=FIG8_IMB, fractions=FIG8_FRACTIONS, rho=FIG8_RHO,
             lambda_readings=["mean", "rate"], groups=G, replicates=r, seed=seed)
    imb = {name: sf.run_setting({**cfg, "replicates": r}, G, seed, "srpfl.fig8.imb") for name, cfg in FIG8_IMB.items()}
    strag = {(rd, f): sf.run_setting({**fig8_straggler_cfg(f, rd), "replicates": r}, G, seed, "srpfl.fig8.strag")
             for rd in ("mean", "rate") for f in FIG8_FRACTIONS}
    corr = {rho: sf.run_setting({**fig8_correlated_cfg(rho), "replicates": r}, G, seed, "srpfl.fig8.corr")
            for rho in FIG8_RHO}
    data = {}
    with style():
        fig, axes = plt.subplots(2, 4, figsize=(18, 8.2))
        for j, (name, groups) in enumerate(imb.items()):
            data[f"imbalanced_{name}"] = _curves(axes[0, j], groups, r"$\mathrm{dist}(B^t,B^*)$", sf.FIG_BASE["target"],
                                                 f"imbalanced: {name} batch sizes")
        data["stragglers_curves_mean_0.3"] = _curves(axes[0, 2], strag[("mean", 0.3)], r"$\mathrm{dist}(B^t,B^*)$",
                                                     sf.FIG_BASE["target"], r"30% stragglers ($\lambda$ read as means)")
        data["correlated_curves_rho1"] = _curves(axes[0, 3], corr[1.0], r"$\mathrm{dist}(B^t,B^*)$",
                                                 sf.FIG_BASE["target"], r"correlated heterogeneity, $\rho=1$ ($k=3$)")
        handles, labels = axes[0, 0].get_legend_handles_labels()  # above the panels: it covers no data
        fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.955), ncol=len(labels), fontsize=8.5,
                   frameon=False)
        # bottom row: speed-ups and times
        ax = axes[1, 0]
        for j, (name, groups) in enumerate(imb.items()):
            f = _factors(groups)
            ax.scatter(np.full(f.size, j) + np.linspace(-0.15, 0.15, f.size), f, color="#1f77b4", s=18)
            ax.hlines(np.median(f), j - 0.25, j + 0.25, color="k", lw=2)
            data[f"imbalanced_{name}"]["speedup_factors"] = f
        ax.set_xticks(range(len(imb)), list(imb))
        ax.set_title("imbalanced: speed-up per group", fontsize=9)
        ax.set_ylabel(r"$T_{FedRep} / T_{SRPFL}$")
        ax = axes[1, 1]
        for rd, ls in (("mean", "-"), ("rate", "--")):
            for name in ("SRPFL", "FedRep"):
                med = [float(np.median(sf.median_times(strag[(rd, f)], name))) for f in FIG8_FRACTIONS]
                ax.plot(FIG8_FRACTIONS, med, ("o" if rd == "mean" else "s") + ls, color=COLORS[name],
                        label=f"{LABELS[name]}, $\\lambda$ as {rd}s")
                data[f"stragglers_time_{rd}_{name}"] = med
        ax.set_yscale("log")
        ax.set_xlabel("fraction of 'stragglers'")
        ax.set_ylabel(r"time to $\mathrm{dist}\leq 0.1$ (median over groups)")
        ax.set_title("% stragglers: time to target, both readings", fontsize=9)
        ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, frameon=False,
                  handlelength=3.5)  # below: covers no data
        ax = axes[1, 2]
        for rd, mk in (("mean", "o"), ("rate", "s")):
            med = [float(np.median(_factors(strag[(rd, f)]))) for f in FIG8_FRACTIONS]
            ax.plot(FIG8_FRACTIONS, med, mk + "-", color="#2ca02c" if rd == "mean" else "#9467bd",
                    label=f"$\\lambda$ read as {rd}s")
            data[f"stragglers_speedup_{rd}"] = med
        ax.set_yscale("log")
        ax.set_xlabel("fraction of 'stragglers'")
        ax.set_ylabel(r"$T_{FedRep} / T_{SRPFL}$ (median)")
        ax.set_title("% stragglers: speed-up, both readings", fontsize=9)
        ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, frameon=False)  # below: covers no data
        ax = axes[1, 3]
        med = []
        for j, rho in enumerate(FIG8_RHO):
            f = _factors(corr[rho])
            ax.scatter(np.full(f.size, rho) + np.linspace(-0.04, 0.04, f.size), f, color="#1f77b4", s=18)
            med.append(float(np.median(f)))
        ax.plot(FIG8_RHO, med, "k-", lw=2, label="median")
        data["correlated_speedup_median"] = med
        ax.set_xlabel(r"$\rho$ (probability a client's head group matches its speed tercile)")
        ax.set_ylabel(r"$T_{FedRep} / T_{SRPFL}$")
        ax.set_title("correlated heterogeneity: speed-up per group", fontsize=9)
        ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, frameon=False)  # below: covers no data
        for ax in (axes[1, 0], axes[1, 3]):
            ax.axhline(1, color="0.5", lw=0.8)
            ax.set_yscale("log")
        fig.suptitle("Fig. 8 linear analogue: " + _base_text(" (3 when correlated)") + ", fixed speeds, communication "
                     "time $C=0$, target " + r"$\mathrm{dist}\leq$" + f" {sf.FIG_BASE['target']}; {G} groups x {r} paired "
                     "replicates", fontsize=10)
        label_log_axes(fig)
        fig.tight_layout(rect=(0, 0, 1, 0.94))
        return [save_figure(fig, outdir, "srpfl_fig8", data, p, {"reference": "Figure 8 (linear analogue)"})]
