"""FedLRGD figures (Jadbabaie, Makur and Shah, IEEE Trans. Inf. Theory 2023): Theorem 1 bound vs SVD tails, the Appendix C
analogue histograms, Gamma of FedLRGD and FedAve against p/eps, Erlang quantiles with the
Proposition 2 bounds."""
from __future__ import annotations

import math

import numpy as np
from scipy import stats

from fedtheory.lowrank import (Cosine, L1Power, PowerSum, SoftLabelLogistic, appendix_c_ranks,
                               erlang_quantile_bounds, fedave_gamma_numeric, fedlrgd_gamma,
                               svd_tail, theorem1_bound, theorem1_min_rank, theorem2_r, theorem2_S)
from fedtheory.plotting import plt, save_figure, style
from fedtheory.random import as_generator
from fedtheory_checks.fedlrgd import PAPER


@PAPER.figure("fedlrgd.theorem1", reference="Theorem 1 (SVD tail vs bound)")
def theorem1(outdir="figures", full=False, seed=0):
    size = 600 if full else 400
    rng = as_generator(seed)
    fns = [L1Power(eta=0.5, L2=1.0, d=2, p=2), L1Power(eta=1.0, L2=1.0, d=2, p=2),
           PowerSum(eta=1.5, L2=1.0, d=2, p=2), Cosine(eta=2.0, L2=1.0, d=2, p=2),
           SoftLabelLogistic(eta=2.0, L2=1.0, d=2, p=1, i=0, mu=0.1)]
    names = ["L1 power, eta=0.5", "L1 power, eta=1", "power sum, eta=1.5", "cosine, eta=2", "soft-label logistic, (2,1)"]
    cols = ["#1f77b4", "#17becf", "#2ca02c", "#ff7f0e", "#9467bd"]
    data = {}
    with style():
        fig, ax = plt.subplots(figsize=(8, 5))
        r = np.arange(1, size + 1)
        for fn, nm, c in zip(fns, names, cols):
            M = fn.matrix(rng.uniform(0, 1, (size, fn.d)), fn.sample_theta(rng, size))
            tail = svd_tail(M)[1:]
            ax.plot(r, np.maximum(tail, 1e-32), color=c, label=f"{nm}: SVD tail")
            b = theorem1_bound(r.astype(float), fn.d, fn.eta, fn.L2)
            ax.plot(r, b, color=c, ls="--", lw=1.2, label=f"{nm}: Theorem 1 bound (r >= {theorem1_min_rank(fn.d, fn.eta):.0f})")
            data[nm] = {"tail": tail, "bound": b}
        ax.set_xscale("log"); ax.set_yscale("log")
        ax.set_ylim(1e-20, 1e2)
        ax.set_xlabel("rank r")
        ax.set_ylabel(r"$\frac{1}{nk}\sum_{i>r}\sigma_i^2$ and the Theorem 1 bound")
        ax.set_title(f"Theorem 1: truncated-SVD tail vs bound ({size} x {size} latent matrices, d = 2)")
        ax.legend(fontsize=7, loc="lower left", ncol=2)
        return save_figure(fig, outdir, "fedlrgd_theorem1", {"r": r, **data}, {"size": size, "d": 2},
                           {"reference": "Theorem 1"})


@PAPER.figure("fedlrgd.appendix_c", reference="Appendix C (approximate-rank histograms, linear analogue)")
def appendix_c(outdir="figures", full=False, seed=0):
    data = {}
    with style():
        fig, axes = plt.subplots(1, 3, figsize=(13, 3.8), sharey=True)
        for ax, k in zip(axes, (30, 60, 90)):
            ranks, p, nk = appendix_c_ranks(k=k, seed=seed)
            ax.hist(ranks, bins=np.arange(0.5, max(ranks.max(), 12) + 1.5), color="#1f77b4", edgecolor="white")
            ax.set_title(f"k={k}: {100 * np.mean(ranks <= 6):.0f}% <= 6, {100 * np.mean(ranks <= 10):.0f}% <= 10")
            ax.set_xlabel("approximate rank (0.9 of the squared Frobenius norm)")
            data[str(k)] = ranks
        axes[0].set_ylabel("number of weights (slices)")
        fig.suptitle("Appendix C analogue: multinomial logistic regression (d=20, 10 classes, p=200), perturbation (75)",
                     fontsize=9)
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
            ax.plot(pe, g, color=col, label=fr"FedLRGD, $\eta$={eta:g} (d=1): $r^2+rs+rS+\phi m r$")
        fa = [fedave_gamma_numeric(m, phi, tau, 1 / x, C)[0] for x in pe]
        curves["FedAve_numeric"] = fa
        ax.plot(pe, fa, color="#d62728", label="FedAve: numerical minimum of (79)")
        ax.fill_between(pe, 0.75 * phi * tau * m * (C * pe) ** 0.75, 8 * phi * tau * m * (C * pe) ** 0.75,
                        color="#d62728", alpha=0.12, label="Theorem 3 bracket [3/4, 8] phi tau m (C p/eps)^(3/4)")
        ax.set_xscale("log"); ax.set_yscale("log")
        ax.set_xlabel(r"$p/\epsilon$")
        ax.set_ylabel(r"federated oracle complexity $\Gamma$")
        ax.set_title(f"Proposition 1: Gamma vs p/eps (m={m}, s=m, phi={phi:g}, alpha=1, C=1)")
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
            ax.plot(qs, quant, color=c, label=f"b={b}: quantile (scipy.stats.gamma)")
            ax.plot(qs, lo, color=c, ls=":", label=f"b={b}: Proposition 2 lower")
            ax.plot(qs, hi, color=c, ls="--", label=f"b={b}: Proposition 2 upper")
            valid = (qs - 1) * b >= 55
            if not valid.all():
                ax.axvline(qs[valid][0], color=c, lw=0.6, alpha=0.5)
            data[f"b{b}"] = {"quantile": quant, "lower": lo, "upper": hi}
        ax.set_xscale("log"); ax.set_yscale("log")
        ax.set_xlabel("q")
        ax.set_ylabel(r"$F_Y^{-1}(1-1/q)$, $Y\sim$ Erlang(b, 1)")
        ax.set_title("Proposition 2 (thin vertical lines: where (q-1)b >= 55 starts)")
        ax.legend(fontsize=7, ncol=1, loc="upper left", bbox_to_anchor=(1.01, 1.0))
        return save_figure(fig, outdir, "fedlrgd_erlang", data, {"b": [1, 10, 100]},
                           {"reference": "Appendix B, Proposition 2"})
