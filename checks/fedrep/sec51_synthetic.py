"""Sec. 5.1 of Collins, Hassani, Mokhtari and Shakkottai (2021), *Exploiting Shared Representations for Personalized
Federated Learning*, ICML 2021 (synthetic data): Figure 3 (FedRep against alternating gradient descent: the
ordering FedRep < 10GD-GD < GD-GD, "GD-GD and 10GD-GD do not scale properly with n", the improvement with n) and
Figure 4 (new clients). Verdicts come from :mod:`fedtheory.decide`; an experiment that the linear analogue does
not reproduce is ``not-reproduced``, with the analogue named.
"""
from __future__ import annotations

import numpy as np
from fedtheory import decide
from fedtheory.random import spawn_seeds
from fedtheory.representation import min_norm_interpolation_risk
from fedtheory.representation import experiments as ex
from ._common import HEAD_LR_GRID, PAPER_NOISE
from . import PAPER


# ----------------------------------------------------------------------------- Figure 3: the ordering
#: Head steps of the GD methods in the public code's Figure 3 cell, per n (spec fedrep.md, "Figure 3"
#: cell: 10GD-GD 0.01, 0.4, 0.25 and GD-GD 0.12, 0.75, 1 for n = 10, 100, 1000). Tuned there for summed
#: gradients and tiny heads, so untuned for this normalisation: the "paper" reading uses them as printed.
PAPER_CODE_HEAD_LR = {100: {"10GD-GD": 0.4, "GD-GD": 0.75}, 1000: {"10GD-GD": 0.25, "GD-GD": 1.0}}


HEAD_LR_READINGS = ("tuned", "paper")


#: "A converges faster than B": dist_A(t=20) at least 5% below dist_B(t=20), i.e. log(dist_B/dist_A) > margin
FASTER_MARGIN = float(np.log(1.05))


def _tuned_head_lr(n, t_eval, seed):
    """Head step of each GD method tuned on ``HEAD_LR_GRID`` (median dist at t_eval over 4 seeds of ``seed``).
    The GD methods' trajectories of :func:`~fedtheory.representation.experiments.fig3_data` (the same numbers),
    computed by ``fig3_dists`` without FedRep's runs and Theorem 1's bound, which tuning does not use."""
    scores = {"10GD-GD": {}, "GD-GD": {}}
    for lr in HEAD_LR_GRID:
        dd = ex.fig3_dists(ns=(n,), rounds=t_eval, seeds=4, head_lr=lr, seed=seed, methods=tuple(scores))[n]
        for name in scores:
            scores[name][lr] = float(np.median(dd[name][:, t_eval]))
    return {name: min(sc, key=sc.get) for name, sc in scores.items()}


#: "A and B converge equally fast": the median over paired seeds of D = log(dist_B/dist_A) at t=20 lies
#: within +-TIE_MARGIN (the two distances agree within 10%)
TIE_MARGIN = float(np.log(1.10))


def _analogue(head_lr_reading: str, lrs: dict, n: int, seeds: int) -> str:
    return (f"linear FedRep / 10GD-GD / GD-GD of fedtheory.representation (d=10, k=2, m=5, r=0.1, n={n}, noise std "
            f"1e-3, MoM init, eta = 1/(4k) on B for all methods, GD head steps 10GD-GD {lrs['10GD-GD']}, GD-GD "
            f"{lrs['GD-GD']} ({'tuned on ' + str(list(HEAD_LR_GRID)) + ' on separate seeds' if head_lr_reading == 'tuned' else 'the public code'}"
            f"), dist(B_t, B*) at t=20, {seeds} paired seeds with common random numbers)")


def fig3_ordering(full: bool, seed, head_lr_reading: str = "tuned") -> dict:
    """Figure 3's ordering (Collins et al., 2021, Sec. 5.1) under one reading of the head steps: FedRep faster
    than 10GD-GD faster than GD-GD, each by a factor 1.05 in dist at t=20, decided by paired exact sign tests
    (:func:`fedtheory.decide.ordering`, combined); a significant reversal is ``not-reproduced`` by the linear
    analogue (:func:`fedtheory.decide.not_reproduced`).

    ``head_lr_reading="tuned"``: each GD method's head step tuned on ``HEAD_LR_GRID`` on separate
    seeds (as the paper tuned its steps); ``"paper"``: the public code's head steps for this n
    (:data:`PAPER_CODE_HEAD_LR`), used as printed. Both readings evaluate on the same paired seeds
    (same ground truths, selections and batches for the three methods; FedRep's runs coincide). The
    tie of 10GD-GD with FedRep (distances within 10%) is reported with its sign counts.
    """
    if head_lr_reading not in HEAD_LR_READINGS:
        raise ValueError(f"`head_lr_reading` must be one of {HEAD_LR_READINGS}; got {head_lr_reading!r}")
    seeds = 60 if full else 32
    n = 1000 if full else 100
    t_eval = 20
    s_tune, s_eval = spawn_seeds(seed, 2)
    lrs = _tuned_head_lr(n, t_eval, s_tune) if head_lr_reading == "tuned" else dict(PAPER_CODE_HEAD_LR[n])
    # the dist trajectories of fig3_data (the same numbers), without Theorem 1's bound and its client-diversity
    # constants, which this ordering does not use
    dd = ex.fig3_dists(ns=(n,), rounds=t_eval, seeds=seeds, head_lr=lrs, seed=s_eval)[n]
    fin = {name: np.maximum(dd[name][:, t_eval], 1e-300) for name in ("FedRep", "10GD-GD", "GD-GD")}
    f = float(np.exp(FASTER_MARGIN))
    D = np.log(fin["10GD-GD"] / fin["FedRep"])
    tie = {"within_10pct": int(np.sum(np.abs(D) < TIE_MARGIN)), "pairs": int(D.size),
           "median_log_ratio": float(np.median(D)),
           "p_inside": [decide.sign_test(int(np.sum(D < TIE_MARGIN)), int(np.sum(D >= TIE_MARGIN)))[0],
                        decide.sign_test(int(np.sum(D > -TIE_MARGIN)), int(np.sum(D <= -TIE_MARGIN)))[0]]}
    med = {m: float(np.median(v)) for m, v in fin.items()}
    params = {"d": 10, "k": 2, "m": 5, "r": 0.1, "n": n, "t_eval": t_eval, "sigma": PAPER_NOISE,
              "noise_convention": "std", "eta": 0.125, "common_random_numbers": True,
              "head_lr_reading": head_lr_reading, "head_lr": lrs, "head_lr_grid": list(HEAD_LR_GRID),
              "margin": FASTER_MARGIN, "tie_margin": TIE_MARGIN, "seeds": seeds}
    claim = decide.combine(
        [decide.ordering(f * fin["FedRep"], fin["10GD-GD"], expect="less", tests=2,
                         what="FedRep faster than 10GD-GD (1.05 dist_FedRep < dist_10GD-GD at t=20)"),
         decide.ordering(f * fin["10GD-GD"], fin["GD-GD"], expect="less", tests=2,
                         what="10GD-GD faster than GD-GD (1.05 dist_10GD-GD < dist_GD-GD at t=20)")],
        what=f"reading '{head_lr_reading}' (head steps 10GD-GD {lrs['10GD-GD']}, GD-GD {lrs['GD-GD']}), n={n}, "
             f"{seeds} paired seeds, medians of dist at t={t_eval}: FedRep {med['FedRep']:.3e}, 10GD-GD "
             f"{med['10GD-GD']:.3e}, GD-GD {med['GD-GD']:.3e}",
        observed={"median_dist_t20": med, "tie_10GD-GD_FedRep": tie, "head_lr": lrs},
        bound={"expect": "FedRep < 10GD-GD < GD-GD, each by a factor 1.05"}, params=params)
    claim["evidence"] += (f"; reported: 10GD-GD within 10% of FedRep in {tie['within_10pct']}/{tie['pairs']} seeds "
                          f"(median log ratio {tie['median_log_ratio']:.3f})")
    return decide.not_reproduced(claim, analogue=_analogue(head_lr_reading, lrs, n, seeds))


_ORDER_REGIME = ("Figure 3's setting d=10, k=2, m=5, r=0.1, noise std 1e-3, MoM init, n=100 (quick) / 1000 "
                 "(full), eta = 1/(4k) on B for all methods, {reading}; 32 / 60 paired seeds (common random "
                 "numbers: same ground truth, selections and batches for the three methods). 'A converges faster "
                 "than B' read as: dist_A(t=20) at least 5% below dist_B(t=20) per seed, exact sign tests "
                 "(decide.ordering, paired, Bonferroni over the 2 comparisons at 1e-4). Both as stated is "
                 "`holds`; either significantly reversed is `not-reproduced` (the paper's Figure 3 is a run of its "
                 "own code with step sizes it does not print; this is the linear analogue with the tool's step "
                 "sizes); otherwise inconclusive with the number of pairs that would decide. Whether 10GD-GD ties "
                 "FedRep (distances within 10%) is reported")


@PAPER.claim("fedrep.fig3.ordering", "Sec. 5.1, Figure 3",
             "FedRep (exact head) converges faster than 10GD-GD, which converges faster than GD-GD (d=10, k=2, "
             "m=5, r=0.1; same eta on B; each GD method's head step tuned on separate seeds, as the paper tuned "
             "its step sizes).",
             regime=_ORDER_REGIME.format(reading="head steps of the GD methods tuned on {0.05, 0.1, 0.2, 0.4} "
                                                 "(median dist at t=20 over 4 separate seeds) -- reading "
                                                 "head_lr_reading='tuned'"),
             root_cause="fig3-ordering-linear-analogue",
             analogue="linear FedRep / 10GD-GD / GD-GD, Figure 3's setting, GD head steps tuned on {0.05, 0.1, 0.2, 0.4}")
def _fig3_order(full: bool, seed):
    return fig3_ordering(full, seed, head_lr_reading="tuned")


@PAPER.claim("fedrep.fig3.ordering-paper-steps", "Sec. 5.1, Figure 3",
             "FedRep (exact head) converges faster than 10GD-GD, which converges faster than GD-GD, with the head "
             "steps of the paper's public code (d=10, k=2, m=5, r=0.1).",
             regime=_ORDER_REGIME.format(reading="head steps of the GD methods as in the public code's Figure 3 "
                                                 "cell for this n (n=100: 10GD-GD 0.4, GD-GD 0.75; n=1000: 0.25, "
                                                 "1.0), not retuned for this normalisation (the paper prints no "
                                                 "step sizes) -- reading head_lr_reading='paper'"),
             root_cause="fig3-ordering-linear-analogue",
             analogue="linear FedRep / 10GD-GD / GD-GD, Figure 3's setting, the public code's GD head steps")
def _fig3_order_paper(full: bool, seed):
    return fig3_ordering(full, seed, head_lr_reading="paper")


# --------------------------------------------------------------------- Figure 3: GD-GD and 10GD-GD do not scale with n
def per_run_log_slopes(dist: np.ndarray, t_max: int) -> np.ndarray:
    """Per-run OLS slope of ``log dist_t`` on ``t`` over rounds ``0..t_max`` (the per-round log-rate of
    FedRep Figure 3's curves). ``dist`` has shape (runs, rounds+1); returns (runs,)."""
    dist = np.asarray(dist, dtype=float)
    if dist.ndim != 2 or not 1 <= t_max < dist.shape[1]:
        raise ValueError(f"`t_max` must lie in [1, {dist.shape[1] - 1}] for `dist` of shape {dist.shape}")
    t = np.arange(t_max + 1, dtype=float)
    y = np.log(np.maximum(dist[:, :t_max + 1], 1e-300))
    tc = t - t.mean()
    return (y - y.mean(axis=1, keepdims=True)) @ tc / (tc @ tc)


#: "Does not scale properly": a GD method's rate improvement is less than this fraction of FedRep's
SCALING_FRACTION = 0.5


#: GD head steps of the scaling claim: per-n tuning on HEAD_LR_GRID (median dist at t=20, 4 seeds) chose
#: these at each of n = 100, 1000, 10000 (measured in full mode), so they are fixed here
SCALING_HEAD_LR = {"10GD-GD": 0.2, "GD-GD": 0.4}


@PAPER.claim("fedrep.sec5.gd-n-scaling", "Sec. 5.1 (GD-GD does not scale with n), Figure 3",
             "Replacing FedRep's exact head minimisation by 1 or 10 GD steps (GD-GD, 10GD-GD) gives methods that "
             "'do not scale properly with n': FedRep's per-round convergence rate improves with n and theirs does "
             "not (each GD method's rate improvement less than half of FedRep's; d=10, k=2, m=5, r=0.1).",
             regime="Figure 3's setting d=10, k=2, m=5, r=0.1, noise std 1e-3, MoM init, eta = 1/(4k) on B for all "
                    "methods (the paper tunes its steps per n; here only the GD head steps are tuned), n in {100, "
                    "1000} (quick) / {100, 1000, 10000} (full); GD head steps 10GD-GD 0.2, GD-GD 0.4 (the values "
                    "that per-n tuning on {0.05, 0.1, 0.2, 0.4} chose at every n); 16 / 32 paired seeds per n "
                    "(common random numbers within n; the dist trajectories of fig3_data, computed by fig3_dists). "
                    "Rate = per-run OLS slope of log dist on t over t = 0..30; improvement Delta = slope(smallest "
                    "n) - slope(largest n). Per seed x = s_FedRep/2 - s_GD at the smallest and the largest n; "
                    "'does not scale properly' read as G = Delta_FedRep/2 - Delta_GD > 0, i.e. x at the largest n "
                    "below x at the smallest n, decided by Mann-Whitney tests across n (decide.ordering, unpaired, "
                    "Bonferroni over the 2 GD methods at 1e-4). Both as stated is `holds`; either significantly "
                    "reversed is `not-reproduced` (the paper's Figure 3 is a run of its own code with step sizes it "
                    "does not print); otherwise inconclusive with the runs per n that would decide. The mean "
                    "slopes and improvements are reported",
             root_cause="gd-n-scaling-linear-analogue",
             analogue="linear FedRep / 10GD-GD / GD-GD, Figure 3's setting, GD head steps 10GD-GD 0.2, GD-GD 0.4")
def _gd_n_scaling(full: bool, seed):
    seeds = 32 if full else 16
    ns = (100, 1000, 10000) if full else (100, 1000)
    t_max = 30
    methods = ("FedRep", "10GD-GD", "GD-GD")
    slopes, lrs = {}, {}
    for n, se_ in zip(ns, spawn_seeds(spawn_seeds(seed, 2)[1], len(ns))):
        lrs[n] = dict(SCALING_HEAD_LR)
        dd = ex.fig3_dists(ns=(n,), rounds=t_max, seeds=seeds, head_lr=lrs[n], seed=se_)[n]
        slopes[n] = {name: per_run_log_slopes(dd[name], t_max) for name in methods}
    lo, hi = ns[0], ns[-1]
    f = SCALING_FRACTION
    mean_slope = {str(n): {k_: float(np.mean(v)) for k_, v in slopes[n].items()} for n in ns}
    improvement = {k_: float(np.mean(slopes[lo][k_]) - np.mean(slopes[hi][k_])) for k_ in methods}
    params = {"d": 10, "k": 2, "m": 5, "r": 0.1, "ns": list(ns), "seeds": seeds, "t_max": t_max,
              "eta": 0.125, "sigma": PAPER_NOISE, "head_lr": dict(SCALING_HEAD_LR), "fraction": SCALING_FRACTION}
    parts = [decide.ordering(f * slopes[hi]["FedRep"] - slopes[hi][name], f * slopes[lo]["FedRep"] - slopes[lo][name],
                             expect="less", paired=False, tests=2,
                             what=f"{name}: s_FedRep/2 - s_{name} at n={hi} below its value at n={lo} "
                                  f"(G = Delta_FedRep/2 - Delta_{name} > 0)")
             for name in ("10GD-GD", "GD-GD")]
    claim = decide.combine(
        parts, what=("mean per-round log-slope of dist over t=0..30 (" + f"{seeds} seeds per n): " +
                     "; ".join(f"n={n}: " + ", ".join(f"{k_} {mean_slope[str(n)][k_]:.4f}" for k_ in methods)
                               for n in ns)
                     + f"; improvement Delta n={lo}->{hi}: " + ", ".join(f"{k_} {v:.4f}" for k_, v in improvement.items())),
        observed={"mean_slope": mean_slope, "improvement_n_lo_to_hi": improvement,
                  "G_half_FedRep_minus_GD": {k_: f * improvement["FedRep"] - improvement[k_]
                                             for k_ in ("10GD-GD", "GD-GD")}},
        bound={"expect": "G = Delta_FedRep/2 - Delta_GD > 0 for both GD methods"}, params=params)
    return decide.not_reproduced(
        claim, analogue=(f"linear FedRep / 10GD-GD / GD-GD of fedtheory.representation (d=10, k=2, m=5, r=0.1, "
                         f"n in {list(ns)}, noise std 1e-3, MoM init, eta = 1/(4k) on B, GD head steps "
                         f"{SCALING_HEAD_LR} at every n, per-run OLS log-rates over t=0..30, {seeds} seeds per n)"))


# ----------------------------------------------------------------------------- Figure 3: FedRep improves with n
def crossing_times(dist: np.ndarray, target: float) -> np.ndarray:
    """Per run, the round at which ``dist_t`` first falls below ``target``, interpolated linearly in
    ``log dist`` between the rounds around the crossing (a continuous time, so rank tests see no ties);
    ``dist.shape[1]`` for a run that never crosses. ``dist`` has shape (runs, rounds+1)."""
    dist = np.maximum(np.asarray(dist, dtype=float), 1e-300)
    below = dist < target
    t = below.argmax(axis=1)
    rows = np.arange(dist.shape[0])
    prev, cur = np.log(dist[rows, np.maximum(t - 1, 0)]), np.log(dist[rows, t])
    frac = np.where((t > 0) & (prev > cur), (prev - np.log(target)) / np.where(prev > cur, prev - cur, 1.0), 1.0)
    return np.where(below.any(axis=1), np.maximum(t - 1 + frac, 0.0), float(dist.shape[1]))


@PAPER.claim("fedrep.fig3.n-scaling", "Sec. 5.1, Figure 3",
             "Increasing the number of clients n makes FedRep converge faster (d=10, k=2, m=5, r=0.1).",
             regime="Figure 3's setting d=10, k=2, m=5, r=0.1, noise std 1e-3, n in {100, 1000} (quick) / {100, "
                    "1000, 10000} (full), 10 / 12 seeds, 80 rounds (n=10 excluded: rn=1 < k violates Assumption "
                    "2). 'Faster' read through the time to reach dist < 0.05 (interpolated in log dist; 81 if "
                    "never): Mann-Whitney tests (decide.ordering, unpaired) that each larger n reaches it sooner "
                    "than the next smaller one, Bonferroni over the consecutive pairs at 1e-4. All as stated is "
                    "`holds`; a consecutive pair significantly slower is `refuted`; otherwise inconclusive with "
                    "the runs per n that would decide")
def _fig3_n(full: bool, seed):
    seeds = 12 if full else 10
    ns = (100, 1000, 10000) if full else (100, 1000)
    data = ex.fig3_dists(ns=ns, rounds=80, seeds=seeds, seed=seed, methods=("FedRep",))
    target = 0.05
    times = {n: crossing_times(data[n]["FedRep"], target) for n in ns}
    pairs = [(ns[i], ns[i + 1]) for i in range(len(ns) - 1)]
    return decide.combine(
        [decide.ordering(times[b_], times[a_], expect="less", paired=False, tests=len(pairs),
                         what=f"FedRep reaches dist < {target} sooner at n={b_} than at n={a_}") for a_, b_ in pairs],
        what=f"median rounds for FedRep to reach dist < {target}: "
             + ", ".join(f"n={n}: {float(np.median(times[n])):.3g}" for n in ns)
             + f" ({seeds} seeds; n=10 is excluded: rn=1 < k violates Assumption 2)",
        observed={"median_rounds_to_dist_0.05": {str(n): float(np.median(times[n])) for n in ns}},
        bound={"monotone": "decreasing in n"},
        params={"ns": list(ns), "d": 10, "k": 2, "m": 5, "r": 0.1, "seeds": seeds, "sigma": PAPER_NOISE})


# ----------------------------------------------------------------------------- Figure 4: new clients
@PAPER.claim("fedrep.fig4.new-client", "Sec. 5.1, Figure 4",
             "With FedRep's learned representation a new client's MSE is small once m_new >= k, while "
             "Local Only needs m_new = Omega(d) (its noiseless risk is (1 - m/d)||theta||^2) and FedAvg's "
             "representation stays inaccurate (d=20, k=2, n=100, m=10, r=0.1).",
             regime="Figure 4's setting d=20, k=2, n=100, m=10, r=0.1, noise std 1e-3, 200 rounds, 3 (quick) / 6 "
                    "(full) trainings x 100 new clients, m_new in {1, 2, 5, 10, 20}. Read as: FedRep's mean "
                    "relative MSE < 1e-2 for m_new >= k ('small'); Local's > 0.1 for m_new <= d/2 and within "
                    "0.15 of the noiseless min-norm risk 1 - m/d for m_new < d ('needs Omega(d)'); FedAvg's > "
                    "0.1 for m_new >= k ('inaccurate'). Any one failing is `refuted` (decide.bound on each "
                    "reading, combined)")
def _fig4(full: bool, seed):
    seeds = 6 if full else 3
    m_news = (1, 2, 5, 10, 20)
    data = ex.fig4_data(m_news, seeds=seeds, n_new=100, seed=seed)
    k, d = 2, 20
    signal = float(k)  # ||theta||^2 = ||w*||^2 = k under Assumption 3
    fedrep = data["FedRep"].mean(axis=0) / signal
    local = data["Local"].mean(axis=0) / signal
    fedavg = data["FedAvg"].mean(axis=0) / signal
    theory_local = min_norm_interpolation_risk(d, np.array(m_news), 1.0)
    mk = np.array(m_news) >= k
    half, below_d = np.array(m_news) <= d // 2, np.array(m_news) < d
    return decide.combine(
        [decide.bound(fedrep[mk], 1e-2, of="relative MSE threshold", what="FedRep's relative MSE for m_new >= k"),
         decide.bound(local[half], 0.1, sense=">=", of="relative MSE threshold",
                      what="Local's relative MSE for m_new <= d/2"),
         decide.bound(np.abs(local[below_d] - theory_local[below_d]), 0.15, of="tolerance",
                      what="|Local - (1 - m/d)| for m_new < d"),
         decide.bound(fedavg[mk], 0.1, sense=">=", of="relative MSE threshold",
                      what="FedAvg's relative MSE for m_new >= k")],
        what=f"relative MSE (MSE/||theta||^2) over {seeds} trainings x 100 new clients: "
             f"FedRep {', '.join(f'{v:.1e}' for v in fedrep)}; Local {', '.join(f'{v:.2f}' for v in local)} vs (1-m/d) "
             f"{', '.join(f'{v:.2f}' for v in theory_local)}; FedAvg {', '.join(f'{v:.2f}' for v in fedavg)} "
             f"(m_new = {list(m_news)})",
        observed={"m_new": list(m_news), "FedRep_rel_mse": fedrep.tolist(), "Local_rel_mse": local.tolist(),
                  "FedAvg_rel_mse": fedavg.tolist()},
        bound={"FedRep_rel_mse_max_for_m_new>=k": 1e-2, "Local_noiseless_risk_(1-m/d)": theory_local.tolist()},
        params={"d": d, "k": k, "n": 100, "m": 10, "r": 0.1, "rounds": 200, "sigma": PAPER_NOISE, "seeds": seeds,
                "m_new": list(m_news)})
