"""FedLRGD figures (Jadbabaie, Makur and Shah, IEEE Trans. Inf. Theory 2023): Theorem 1 bound vs SVD tails, the Appendix C
analogue histograms, Gamma of FedLRGD and FedAve against p/eps, Erlang quantiles with the
Proposition 2 bounds."""
from __future__ import annotations

import math
import re
from functools import partial

import numpy as np
from scipy import stats

from fedtheory.lowrank import (Cosine, L1Power, PowerSum, SoftLabelLogistic, appendix_c_ranks,
                               erlang_quantile_bounds, fedave_gamma_numeric, fedlrgd_gamma,
                               svd_tail, theorem1_bound, theorem1_min_rank, theorem2_r, theorem2_S)
from fedtheory.parallel import cached_map
from fedtheory.plotting import label_log_axes, plt, save_figure, style, tex_params
from fedtheory.random import as_generator
from fedtheory_checks.fedlrgd import PAPER


def theorem1_tail(task, fns, size):
    """The SVD tail (ranks 1..size) of function ``j``'s ``size x size`` matrix (a
    :func:`fedtheory.parallel.cached_map` task, ``task = (j, seed)``). The functions draw their data and
    parameters from one stream in turn, so the draws of functions ``0..j-1`` are replayed (cheap) first:
    the numbers are those of one sequential pass."""
    j, seed = task
    rng = as_generator(seed)
    for fn in fns[:j]:
        rng.uniform(0, 1, (size, fn.d))
        fn.sample_theta(rng, size)
    fn = fns[j]
    return svd_tail(fn.matrix(rng.uniform(0, 1, (size, fn.d)), fn.sample_theta(rng, size)))[1:]


def appendix_c_task(task):
    """The approximate ranks of Appendix C's analogue at ``k`` perturbations (a :func:`fedtheory.parallel.cached_map`
    task, ``task = (k, seed)``)."""
    k, seed = task
    return appendix_c_ranks(k=k, seed=seed)[0]


@PAPER.figure("fedlrgd.theorem1", reference="Theorem 1 (SVD tail vs bound)")
def theorem1(outdir="figures", full=False, seed=0):
    size = 600 if full else 400
    fns = [L1Power(eta=0.5, L2=1.0, d=2, p=2), L1Power(eta=1.0, L2=1.0, d=2, p=2),
           PowerSum(eta=1.5, L2=1.0, d=2, p=2), Cosine(eta=2.0, L2=1.0, d=2, p=2),
           SoftLabelLogistic(eta=2.0, L2=1.0, d=2, p=1, i=0, mu=0.1)]
    names = ["L1 power, eta=0.5", "L1 power, eta=1", "power sum, eta=1.5", "cosine, eta=2", "soft-label logistic, eta=2 (p=1)"]
    data = {}
    r = np.arange(1, size + 1)
    tails = cached_map(partial(theorem1_tail, fns=fns, size=size), [(j, seed) for j in range(len(fns))],
                       namespace="fedlrgd.theorem1", params={"size": size, "functions": [repr(fn) for fn in fns]})
    for fn, nm, tail in zip(fns, names, tails):  # one cached task per function
        b = theorem1_bound(r.astype(float), fn.d, fn.eta, fn.L2)
        data[nm] = {"tail": tail, "bound": b}
    min_ranks = {nm: theorem1_min_rank(fn.d, fn.eta) for fn, nm in zip(fns, names)}
    with style():
        fig = draw_theorem1(r, data, min_ranks, size)
        return save_figure(fig, outdir, "fedlrgd_theorem1", {"r": r, **data}, {"size": size, "d": 2},
                           {"reference": "Theorem 1"})


#: one (colour, line style, marker) per Theorem 1 curve: pairwise distinct in colour and in line style
THM1_STYLES = (("#1f77b4", (0, (6, 2)), "o"), ("#d62728", (0, (1, 1.5)), "s"), ("#2ca02c", "-.", "^"),
               ("#ff7f0e", (0, (3, 1.5, 1, 1.5, 1, 1.5)), "D"), ("#9467bd", (0, (10, 3)), "v"))


#: the paper's symbol of a parameter named in a function's name
TEX_SYMBOL = {"eta": r"\eta"}


def tex_name(name: str) -> str:
    """A Theorem 1 function's name with its parameters in the paper's symbols: ``eta=0.5`` -> ``$\\eta=0.5$``."""
    return re.sub(r"\b(eta|p|d)=([0-9.]+)", lambda m: "$" + TEX_SYMBOL.get(m[1], m[1]) + f"={m[2]}$", name)


def draw_theorem1(r, data, min_ranks, size):
    """Draw the Theorem 1 figure; returns the Figure (call inside ``style()``).

    ``data`` maps a function name to ``{"tail": ..., "bound": ...}`` on ranks ``r``; ``min_ranks`` maps it
    to r*, the smallest rank where the bound applies. Left: SVD tails (solid) and bounds (broken lines
    with markers) on log-log axes. Right: the bounds alone where they apply, labelled at their ends;
    functions with the same (eta, L2) have the same bound, drawn with alternating markers.
    """
    fig, (ax, axb) = plt.subplots(1, 2, figsize=(13, 6.4), gridspec_kw={"width_ratios": (1.2, 1)})
    ends, tails, bounds = [], [], []
    for j, (nm, (c, ls_, mk)) in enumerate(zip(data, THM1_STYLES)):
        tail, b = data[nm]["tail"], data[nm]["bound"]
        tails.append(ax.plot(r, np.maximum(tail, 1e-32), color=c, label=f"{tex_name(nm)}: SVD tail")[0])
        ok = np.isfinite(b)
        span = int(ok.sum())
        every = (j * max(span // 25, 1), max(span // 5, 1))  # 5 markers, offset per curve
        kw = dict(color=c, ls=ls_, lw=1.6, marker=mk, ms=5, mfc="white", markevery=every)
        bounds.append(ax.plot(r[ok], b[ok], **kw,
                              label=f"{tex_name(nm)}: Theorem 1 bound ($r\\geq {min_ranks[nm]:.0f}$)")[0])
        axb.plot(r[ok], b[ok], **kw)
        if span:  # a bound that applies nowhere on r (r* > size) gets no end label
            ends.append((b[ok][-1], nm, c))
    ax.set_xscale("log"); ax.set_yscale("log")
    ax.set_ylim(1e-20, 1e2)
    ax.set_xlabel("rank $r$")
    ax.set_ylabel(r"$\frac{1}{nk}\sum_{i>r}\sigma_i^2$ and the Theorem 1 bound")
    ax.set_title(f"SVD tail vs Theorem 1 bound (${size}\\times{size}$ latent matrices, $d=2$)")
    axb.set_xscale("log"); axb.set_yscale("log")
    axb.set_xlabel(r"rank $r$ (where the bound applies, $r\geq r^*$)")
    axb.set_ylabel(r"Theorem 1 bound on $\frac{1}{nk}\|M - M_r\|_F^2$")
    axb.set_title("the five bounds (the tails are far below: left)")
    groups = {}
    for y, nm, c in ends:  # one label per distinct end value: equal bounds share it
        groups.setdefault(round(float(y), 12), []).append((nm, c))
    for y, members in groups.items():
        axb.annotate("\n= ".join(tex_name(nm) for nm, _ in members), xy=(r[-1], y), xytext=(6, 0),
                     textcoords="offset points", va="center", fontsize=8, color=members[0][1])
    axb.set_xlim(right=r[-1] * 1.02)
    ticks = sorted({int(round(v)) for v in min_ranks.values()} | {100, 200, 300, int(r[-1])})
    axb.set_xticks(ticks, [str(v) for v in ticks])
    axb.set_xticks([], minor=True)
    yt = [v for v in (0.05, 0.1, 0.2, 0.3, 0.5, 1.0, 2.0) if axb.get_ylim()[0] <= v <= axb.get_ylim()[1]]
    axb.set_yticks(yt, [f"{v:g}" for v in yt])
    axb.set_yticks([], minor=True)
    handles = tails + bounds  # two columns: tails | bounds, one row per function
    fig.legend(handles, [h.get_label() for h in handles], loc="lower center", ncol=2, fontsize=8, frameon=False)
    fig.suptitle("Theorem 1: truncated-SVD tails of smooth latent-variable matrices vs the bound", fontsize=11)
    label_log_axes(fig)
    fig.tight_layout(rect=(0, 0.2, 1, 1))
    return fig


@PAPER.figure("fedlrgd.appendix_c", reference="Appendix C (approximate-rank histograms, linear analogue)")
def appendix_c(outdir="figures", full=False, seed=0):
    data = {}
    with style():
        fig, axes = plt.subplots(1, 3, figsize=(13, 3.8), sharey=True)
        runs = cached_map(appendix_c_task, [(k, seed) for k in (30, 60, 90)], namespace="fedlrgd.appendix_c",
                          params={})  # one cached task per k
        for ax, k, ranks in zip(axes, (30, 60, 90), runs):
            ax.hist(ranks, bins=np.arange(0.5, max(ranks.max(), 12) + 1.5), color="#1f77b4", edgecolor="white")
            ax.set_title(f"$k={k}$: {100 * np.mean(ranks <= 6):.0f}% $\\leq$ 6, {100 * np.mean(ranks <= 10):.0f}% "
                         "$\\leq$ 10")
            ax.set_xlabel("approximate rank (0.9 of the squared Frobenius norm)")
            data[str(k)] = ranks
        axes[0].set_ylabel("number of weights (slices)")
        fig.suptitle("Appendix C analogue: multinomial logistic regression ($d=20$, 10 classes, $p=200$), "
                     "perturbation (75)", fontsize=9)
        fig.tight_layout()
        return save_figure(fig, outdir, "fedlrgd_appendix_c", data, {"k": [30, 60, 90], "threshold": 0.9},
                           {"reference": "Appendix C, eqs. (75)-(77)"})


@PAPER.figure("fedlrgd.complexity", reference="Theorems 2-3, Prop. 1 (Gamma vs p/eps)")
def complexity(outdir="figures", full=False, seed=0):
    pe = np.logspace(1, 14, 40)
    m, phi, tau, C, d, alpha = 1000, 100.0, 1.0, 1.0, 1, 1.0
    curves = {}
    with style():
        fig, ax = plt.subplots(figsize=(7.5, 4.8))
        for c1, col in ((3.0, "#2ca02c"), (6.0, "#1f77b4")):
            eta = (c1 + 2 * alpha + 2) * d
            g = []
            for x in pe:
                r = theorem2_r(d, eta, alpha=alpha, eps=1 / x, B=1.0, mu=0.1, p=1)
                S = theorem2_S(eps=1 / x, B=1.0, mu=0.1, p=1)
                g.append(float(fedlrgd_gamma(r, m, S, m, phi)))
            curves[f"FedLRGD_eta{eta:g}"] = g
            ax.plot(pe, g, color=col, label=fr"FedLRGD, $\eta={eta:g}$ ($d=1$): $r^2+rs+rS+\phi m r$")
        fa = [fedave_gamma_numeric(m, phi, tau, 1 / x, C)[0] for x in pe]
        curves["FedAve_numeric"] = fa
        ax.plot(pe, fa, color="#d62728", label="FedAve: numerical minimum of (79)")
        ax.fill_between(pe, 0.75 * phi * tau * m * (C * pe) ** 0.75, 8 * phi * tau * m * (C * pe) ** 0.75,
                        color="#d62728", alpha=0.12,
                        label=r"Theorem 3 bracket $[\frac{3}{4}, 8]\,\phi\tau m\,(Cp/\epsilon)^{3/4}$")
        ax.set_xscale("log"); ax.set_yscale("log")
        ax.set_xlabel(r"$p/\epsilon$")
        ax.set_ylabel(r"federated oracle complexity $\Gamma$")
        ax.set_title(r"Proposition 1: $\Gamma$ vs $p/\epsilon$ ("
                     + tex_params({"m": m, "s": "m", r"\phi": phi, r"\alpha": alpha, "C": C}) + ")")
        ax.legend(fontsize=7)
        return save_figure(fig, outdir, "fedlrgd_complexity", {"p_over_eps": pe, **curves},
                           {"m": m, "phi": phi, "tau": tau, "C": C, "d": d, "alpha": alpha},
                           {"reference": "Theorems 2-3, Proposition 1"})


@PAPER.figure("fedlrgd.erlang", reference="Proposition 2 (Erlang quantiles)")
def erlang(outdir="figures", full=False, seed=0):
    qs = np.unique(np.round(np.logspace(math.log10(2), 6, 80)).astype(int))
    data = {"q": qs}
    with style():
        fig, ax = plt.subplots(figsize=(10, 4.8))
        for b, c in ((1, "#1f77b4"), (10, "#2ca02c"), (100, "#d62728")):
            quant = stats.gamma.isf(1 / qs, a=b)
            lo, hi = erlang_quantile_bounds(b, qs)
            ax.plot(qs, quant, color=c, label=f"$b={b}$: quantile (scipy.stats.gamma)")
            ax.plot(qs, lo, color=c, ls=":", label=f"$b={b}$: Proposition 2 lower")
            ax.plot(qs, hi, color=c, ls="--", label=f"$b={b}$: Proposition 2 upper")
            valid = (qs - 1) * b >= 55
            if not valid.all():
                ax.axvline(qs[valid][0], color=c, lw=0.6, alpha=0.5)
            data[f"b{b}"] = {"quantile": quant, "lower": lo, "upper": hi}
        ax.set_xscale("log"); ax.set_yscale("log")
        ax.set_xlabel("$q$")
        ax.set_ylabel(r"$F_Y^{-1}(1-1/q)$, $Y\sim\mathrm{Erlang}(b, 1)$")
        ax.set_title(r"Proposition 2 (thin vertical lines: where $(q-1)b\geq 55$ starts)")
        ax.legend(fontsize=7, ncol=1, loc="upper left", bbox_to_anchor=(1.01, 1.0))
        return save_figure(fig, outdir, "fedlrgd_erlang", data, {"b": [1, 10, 100]},
                           {"reference": "Appendix B, Proposition 2"})
