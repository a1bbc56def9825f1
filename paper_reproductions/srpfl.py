"""SRPFL figures (linear analogues), Tziotis et al., TMLR (arXiv numbers in brackets).

The papers' figures are deep-network experiments; these are the linear analogues the
toolkit can compute exactly:

* ``srpfl_wallclock_dist`` / ``srpfl_wallclock_mse``: dist and exact test MSE against
  simulated wall-clock time, FedRep vs FedRep-SRPFL, communication time per round C ("C.T." in the
  papers) in {0, 10, 100} (rows), fixed vs
  dynamic speeds and full (N = M) vs partial (N = M/5) participation (columns);
* ``srpfl_speedup``: E[T_SRPFL]/E[T_FedRep] against N: idealised, simulated, real runs,
  and the explicit Theorem 4.9 bound;
* ``srpfl_stages``: one run's dist against round with the floors D_r, the per-round
  Theorem 4.7 bound and the Lemma B.1 switching points X_r.
"""
from __future__ import annotations

import math

import numpy as np

from functools import partial

from fedtheory.parallel import cached_map
from fedtheory.plotting import label_log_axes, plt, save_figure, style, tex_number, tex_params
from fedtheory.random import spawn_seeds
from types import SimpleNamespace

from fedtheory.srpfl import (fedavg_wallclock, idealised_wallclock, noise_floor, run_srpfl, switch_point,
                             theorem49_ratio_bound)
from fedtheory_checks.srpfl import PAPER

COLORS = {"SRPFL": "#1f77b4", "FedRep": "#d62728", "FedAvg": "#7f7f7f"}
LABELS = {"SRPFL": "FedRep-SRPFL", "FedRep": "FedRep", "FedAvg": "FedAvg (single model)"}


def comm_label(c) -> str:
    """Panel label for the fixed communication time per round, ``C = c/lambda`` (the papers' "C.T.")."""
    return f"communication time $C={float(c):g}$"


def _on_grid(res_list, grid, attr):
    """Each run's metric as a step function of wall-clock time, sampled on ``grid``."""
    out = []
    for res in res_list:
        v = getattr(res, attr)
        t = res.wall_clock
        keep = np.isfinite(v)
        idx = np.searchsorted(t[keep], grid, side="right") - 1
        vals = v[keep][np.clip(idx, 0, None)]
        vals[idx < 0] = np.nan
        out.append(vals)
    return np.array(out)


def wallclock_cell(task, p):
    """One panel of the wall-clock figures (a :func:`fedtheory.parallel.cached_map` task).

    ``task = (c, speeds, N, seed)``: FedRep-SRPFL, FedRep and FedAvg at communication time ``c``, compute
    speeds ``speeds`` and ``N`` sampled clients, ``p["seeds"]`` replicates (replicate j is the single run
    with seed ``spawn_seeds(seed, seeds)[j]``). Returns ``{"time": grid, "<method>_<metric>": (seeds, 200)}``:
    each run's dist and MSE as step functions of wall-clock time on a grid over the window both FedRep
    methods cover.
    """
    c, speeds, N, seed = task
    kw = dict(d=p["d"], k=p["k"], M=p["M"], N=N, n0=p["n0"], m=p["m"],
              sigma=p["sigma"], speeds=speeds, comm_cost=c, rounds=p["rounds"],
              eval_every=p["eval_every"], replicates=p["seeds"], seed=seed)
    runs = {"SRPFL": list(run_srpfl(**kw, stage_lengths=p["stage_lengths"])),
            "FedRep": list(run_srpfl(**kw, schedule="all")), "FedAvg": []}
    for s in spawn_seeds(seed, p["seeds"]):
        t_fa, d_fa, mse_fa = fedavg_wallclock(d=p["d"], k=p["k"], M=p["M"], N=N, m=p["m"], sigma=p["sigma"],
                                              speeds=speeds, comm_cost=c, rounds=p["rounds"], seed=s)
        runs["FedAvg"].append(SimpleNamespace(wall_clock=t_fa, dist=d_fa, mse=mse_fa))
    tmax = min(max(r.wall_clock[-1] for r in runs["SRPFL"]),
               max(r.wall_clock[-1] for r in runs["FedRep"]))  # FedAvg shown over the same window
    grid = np.linspace(0, tmax, 200)
    out = {"time": grid}
    for name, lst in runs.items():
        for metric in ("dist", "mse"):
            out[f"{name}_{metric}"] = _on_grid(lst, grid, metric)
    return out


@PAPER.figure("srpfl.wallclock", reference="Figs. 3-6 (linear analogue: dist and MSE vs wall-clock)")
def wallclock(outdir="figures", full=False, seed=0):
    p = dict(d=20, k=2, M=100, m=20, sigma=0.1, n0=4, rounds=160, stage_lengths=15,
             comm=[0.0, 10.0, 100.0], seeds=8 if full else 3, eval_every=4, seed=seed,
             speed_variant="tmlr")
    cols = [("fixed", 1.0), ("fixed", 0.2), ("dynamic", 1.0), ("dynamic", 0.2)]
    # one cached task per panel (C, speeds, N): an interrupted run resumes panel by panel
    tasks = [(c, speeds, int(p["M"] * frac), seed) for c in p["comm"] for speeds, frac in cols]
    cells = dict(zip([t[:3] for t in tasks], cached_map(partial(wallclock_cell, p=p), tasks,
                                                        namespace="srpfl.wallclock", params=p)))
    data = {}
    figs = {}
    with style():
        for metric, ylabel in (("dist", r"$\mathrm{dist}(B^t,B^*)$"), ("mse", "test MSE (exact, heads re-fit)")):
            figs[metric] = plt.subplots(3, 4, figsize=(15, 10.5), sharey=True)
        for i, c in enumerate(p["comm"]):
            for j, (speeds, frac) in enumerate(cols):
                N = int(p["M"] * frac)
                cell = cells[(c, speeds, N)]
                grid = cell["time"]
                runs = dict.fromkeys(("SRPFL", "FedRep", "FedAvg"))
                key = f"C={c:g}|{speeds}|N={N}"
                data[key] = {"time": grid}
                for metric in ("dist", "mse"):
                    fig, axes = figs[metric]
                    ax = axes[i, j]
                    for name, lst in runs.items():
                        v = cell[f"{name}_{metric}"]
                        med = np.nanmedian(v, axis=0)
                        lo, hi = np.nanquantile(v, [0.1, 0.9], axis=0)
                        ax.plot(grid, med, color=COLORS[name], label=f"{LABELS[name]} (median)")
                        ax.fill_between(grid, lo, hi, color=COLORS[name], alpha=0.2, linewidth=0)
                        data[key][f"{name}_{metric}_median"] = med
                    ax.set_yscale("log")
                    part = "full ($N=M$)" if frac == 1 else "partial ($N=M/5$)"
                    ax.set_title(f"{comm_label(c)}\n{speeds} speeds, {part}", fontsize=9)  # 2 lines: no overlap
                    if i == 2:
                        ax.set_xlabel(r"simulated wall-clock time (units of $1/\lambda$)")
        paths = []
        for metric, name in (("dist", "srpfl_wallclock_dist"), ("mse", "srpfl_wallclock_mse")):
            fig, axes = figs[metric]
            for ax in axes[:, 0]:
                ax.set_ylabel(r"$\mathrm{dist}(B^t,B^*)$" if metric == "dist" else "test MSE (exact)")
            handles, labels = axes[0, 0].get_legend_handles_labels()  # outside the panels: it covers no data
            fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize=9, bbox_to_anchor=(0.5, 0.0))
            fig.suptitle("FedRep vs FedRep-SRPFL (and FedAvg) on wall-clock time (linear analogue): "
                         + tex_params({"d": p["d"], "k": p["k"], "M": p["M"], "m": p["m"], r"\sigma": p["sigma"],
                                       "n_0": p["n0"]})
                         + f", {p['stage_lengths']} rounds/stage; median and 10-90% band over {p['seeds']} seeds",
                         fontsize=10)
            label_log_axes(fig)
            fig.tight_layout(rect=(0, 0.035, 1, 1))
            paths.append(save_figure(fig, outdir, name, data if metric == "dist" else
                                     {k_: {kk: vv for kk, vv in v.items() if "mse" in kk or kk == "time"}
                                      for k_, v in data.items()}, p,
                                     {"reference": "Figs. 3-6 (linear analogue)"}))
    return paths


def speedup_simulated(p):
    """The simulated wall-clock ratios of the speedup figure (a :func:`fedtheory.parallel.cached_map` task; ``p``
    holds the seed): for each communication time c and N, ``mc_reps`` draws of every stage's Exp(1) order
    statistic from one stream (c, then N, in order). Returns ``{"c<c>": ratios over N}``."""
    rng = np.random.default_rng(p["seed"])
    out = {}
    for c in p["comm"]:
        sim = []
        for N in np.array(p["N"]):
            _, _, per_s = idealised_wallclock(int(N), p["n0"], p["a"], p["c_hat"], 1.0, c)
            _, rf, _ = idealised_wallclock(int(N), p["n0"], p["a"], p["c_hat"], 1.0, c, schedule="fedrep")
            sizes = [min(N, p["n0"] * 2 ** r) for r in range(len(per_s))]
            tot_s = sum(t * (np.sort(rng.exponential(1.0, (p["mc_reps"], N)), axis=1)[:, n - 1] + c)
                        for t, n in zip(per_s, sizes) if t)
            tot_f = rf * (np.sort(rng.exponential(1.0, (p["mc_reps"], N)), axis=1)[:, -1] + c)
            sim.append(float(np.mean(tot_s) / np.mean(tot_f)))
        out[f"c{c:g}"] = np.array(sim)
    return out


def speedup_real_ratios(task, real_seeds):
    """``T_SRPFL / T_FedRep`` to dist <= 0.05 of ``real_seeds`` paired exact runs at ``task = (N, seed)`` (a
    :func:`fedtheory.parallel.cached_map` task): one replicate batch per method, each replicate stopping at
    the target; replicate j is the single run with seed ``spawn_seeds(seed, real_seeds)[j]`` (bitwise)."""
    N, sN = task
    kw = dict(d=20, k=2, M=N, N=N, n0=4, m=20, sigma=0.05, speeds="iid", target=0.05,
              rounds=600, init="random", replicates=real_seeds, seed=sN)
    ts = run_srpfl(**kw, stage_lengths=10).time_to(0.05)
    tf = run_srpfl(**kw, schedule="all").time_to(0.05)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(ts / tf, dtype=float)


@PAPER.figure("srpfl.speedup", reference="Theorem 4.9 (speedup vs N)")
def speedup(outdir="figures", full=False, seed=0):
    p = dict(a=0.05, c_hat=1.2, n0=4, comm=[0.0, 10.0], N=[32, 64, 256, 1024, 4096],
             real_N=[16, 64, 256, 1024] if full else [16, 64, 256], real_seeds=6 if full else 3,
             mc_reps=400, seed=seed)
    Ns = np.array(p["N"])
    data = {"N": Ns}
    with style():
        fig, ax = plt.subplots(figsize=(10, 4.6))
        sims = cached_map(speedup_simulated, [p], namespace="srpfl.speedup.simulated", params={})[0]  # one task
        for c, ls in zip(p["comm"], ("-", "--")):
            ideal, sim = [], [float(v) for v in np.atleast_1d(sims[f"c{c:g}"])]
            for N in Ns:
                ts, _, per_s = idealised_wallclock(int(N), p["n0"], p["a"], p["c_hat"], 1.0, c)
                tf, rf, _ = idealised_wallclock(int(N), p["n0"], p["a"], p["c_hat"], 1.0, c, schedule="fedrep")
                ideal.append(ts / tf)
            ax.plot(Ns, ideal, "o" + ls, color="#1f77b4", label=f"idealised (exact order-statistic means), $c={c:g}$")
            ax.plot(Ns, sim, "x", color="#2ca02c", ms=9,
                    label=f"simulated (random Exp(1) times per stage), $c={c:g}$")
            ax.plot(Ns, theorem49_ratio_bound(Ns, p["c_hat"], c), ls, color="k",
                    label=f"Theorem 4.9 explicit bound (256), $c={c:g}$")
            data[f"idealised_c{c:g}"] = ideal
            data[f"simulated_c{c:g}"] = sim
            data[f"thm49_bound_c{c:g}"] = theorem49_ratio_bound(Ns, p["c_hat"], c)
        # one cached task per N (an interrupted run resumes N by N)
        real = [np.atleast_1d(r).tolist() for r in
                cached_map(partial(speedup_real_ratios, real_seeds=p["real_seeds"]),
                           list(zip(p["real_N"], spawn_seeds(seed, len(p["real_N"])))),
                           namespace="srpfl.speedup.real", params={"real_seeds": p["real_seeds"]})]
        med = [np.median(r) for r in real]
        ax.errorbar(p["real_N"], med, yerr=[[m_ - min(r) for m_, r in zip(med, real)],
                                            [max(r) - m_ for m_, r in zip(med, real)]],
                    fmt="s", color="#d62728", capsize=3,
                    label=r"real exact runs (random init), time to $\mathrm{dist}\leq 0.05$ (median, min-max), $c=0$")
        data["real_N"] = p["real_N"]
        data["real_ratios"] = real
        ax.axhline(1, color="0.5", lw=0.8)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("number of sampled clients $N$ (log2 scale)")
        ax.set_ylabel(r"$E[T_{SRPFL}] / E[T_{FedRep}]$")
        ax.set_title("Wall-clock ratio vs $N$ ("
                     + tex_params({"a": p["a"], r"\hat c": p["c_hat"], "n_0": p["n0"], r"\lambda": 1}) + ")")
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
        return [save_figure(fig, outdir, "srpfl_speedup", data, p,
                            {"reference": "Theorem 4.9, Lemmas B.2-B.3"})]


def stages_run(p):
    """The per-stage figure's run (a :func:`fedtheory.parallel.cached_map` task; ``p`` holds the seed): a
    pilot of 50 rounds gives the stage constant ``a`` (median of its a_t), then a 900-round run with
    Lemma B.1 stage lengths. Returns ``{"a", "dist", "bound", "stage", "participants"}``."""
    pilot = run_srpfl(**p, stage_lengths=10, rounds=50)
    a = float(np.median(pilot.a))
    res = run_srpfl(**p, stage_lengths="lemma_b1", a_stage=a, rounds=900)
    return {"a": a, "dist": res.dist, "bound": res.bound, "stage": res.stage, "participants": res.participants}


@PAPER.figure("srpfl.stages", reference="Theorem 4.7, Lemma B.1 (per-stage dist, floors, X_r)")
def stages(outdir="figures", full=False, seed=0):
    p = dict(d=30, k=2, M=64, N=64, n0=4, m=30, sigma=0.3, speeds="iid", seed=seed)
    run = cached_map(stages_run, [p], namespace="srpfl.stages", params={})[0]  # one cached task: the run
    a = float(run.pop("a"))
    res = SimpleNamespace(**run)
    R = int(math.log2(p["N"] / p["n0"]))
    X = [switch_point(r, a, p["N"], p["n0"]) for r in range(R)]
    with style():
        fig = draw_stages(res, a, p, X)
        return [save_figure(fig, outdir, "srpfl_stages",
                            {"dist": res.dist, "bound": res.bound, "stage": res.stage, "a": a,
                             "floors": [noise_floor(a, 2 ** r) for r in range(R + 1)], "X": X},
                            {**p, "a_stage": a}, {"reference": "Thm 4.7, Cor A.11, Lemma B.1"})]


def draw_stages(res, a, p, X):
    """Draw the per-stage figure of one FedRep-SRPFL run ``res``; returns the Figure (call inside ``style()``).

    ``a`` is the stage constant, ``p`` the run's parameters (N, n0, ...), ``X`` the Lemma B.1 switching
    points. The legend sits under the axes and the stage names along the bottom, below every curve.
    """
    t = np.arange(res.dist.size)
    fig, ax = plt.subplots(figsize=(8, 5.4))
    ax.plot(t, res.dist, color="#1f77b4", label=r"$\mathrm{dist}(B^t,B^*)$ (exact run)")
    ax.plot(t[1:], res.bound, color="0.4", lw=1,
            label=r"Theorem 4.7 bound on $\mathrm{dist}(B^{t+1},B^*)$ ($a_t$ of the actual set)")
    starts = [0] + list(np.flatnonzero(np.diff(res.stage)) + 1)
    low = min(np.nanmin(res.dist), np.nanmin(res.bound))
    ax.set_yscale("log")
    ax.set_ylim(low / 8, 3)  # a strip under every curve for the stage names
    for r, s0 in enumerate(starts):
        s1 = starts[r + 1] if r + 1 < len(starts) else t[-1]
        ax.hlines(noise_floor(a, 2 ** res.stage[s0]), s0, s1, colors="#d62728", lw=1.5,
                  label="floor $D_r$ (Corollary A.11)" if r == 0 else None)
        ax.axvline(s0, color="0.8", lw=0.8)
        ax.text((s0 + s1) / 2, low / 4, f"stage {res.stage[s0]}\n$n={res.participants[s0]}$", fontsize=7.5,
                color="0.3", ha="center", va="center")
    for r, x in enumerate(X):
        ax.axhline(x, color="#2ca02c", lw=0.8, ls=":", label="switching points $X_{r+1}$ (206)" if r == 0 else None)
    ax.set_xlabel("round $t$")
    ax.set_ylabel(r"$\mathrm{dist}(B^t,B^*)$ (principal-angle distance)")
    ax.set_title("Stages of FedRep-SRPFL (Lemma B.1 lengths, " + tex_params({"a": tex_number(a)}) + "; "
                 + tex_params({"d": p["d"], "k": p["k"], "N": p["N"], "n_0": p["n0"], "m": p["m"],
                               r"\sigma": p["sigma"]}) + ")", fontsize=9)
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=2, frameon=False)  # below: covers no data
    label_log_axes(fig)
    fig.tight_layout()
    return fig
