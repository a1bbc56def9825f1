"""The linear analogues of Appendix C's experiments (Figures 7 and 8) of Tziotis, Shen, Pedarsani, Hassani and
Mokhtari, *Straggler-Resilient Personalized Federated Learning* (TMLR 2023; absent from the arXiv version): their
settings, exact runs and sign decisions, shared by :mod:`.fig7`, :mod:`.fig8` and the figure script
``fedtheory_reproductions.srpfl_fig78``.

A setting (:data:`FIG_BASE` plus overrides) fixes the data model (heads around one direction, random, or tied to the
speed terciles), the fixed compute times (Exp(1), or Fig. 8's two-type mixture) and the batch sizes (equal, or
Fig. 8's imbalanced allocations). The claims run :func:`independent_hits`: R independent replicates, each with its
own ground truth ``(B*, W*)``, compute times and batch sizes, as two calls of the batched engine
(:func:`fedtheory.srpfl.run_srpfl` with one model, speed model and batch-size row per replicate), one per schedule
(FedRep-SRPFL and FedRep, paired: replicate j of both shares its seed, hence its MoM initialisation). The figures
run :func:`run_setting`: groups of paired runs sharing one ground truth, for their curves.
"""
from __future__ import annotations

import math
from functools import partial

import numpy as np

from fedtheory import decide
from fedtheory.linalg import random_orthonormal
from fedtheory.parallel import cached_map
from fedtheory.random import as_generator, spawn_seeds
from fedtheory.representation import FedRepModel
from fedtheory.srpfl import SpeedModel, run_srpfl

from ._wallclock import expected_time_to, first_hit_round, order_statistic_means, round_sizes  # noqa: F401 (re-exported)

#: the linear-analogue setting shared by the Fig. 7 / Fig. 8 experiments (App. C: fixed speeds, full participation)
FIG_BASE = dict(d=20, k=2, M=64, N=64, n0=4, m=20, sigma=0.1, stage_lengths=10, rounds=240, comm_cost=0.0,
                metric="dist", target=0.1, heads="random", heterogeneity=None, rho=None, speeds="exp",
                straggler_fraction=None, lambda_reading=None, imbalance=None, replicates=4,
                eval_every=5)

#: Fig. 8's two categories, as printed: "lambda = 0.1" (fast) and "lambda = 10" (stragglers)
FIG8_LAMBDAS = (0.1, 10.0)


def mixture_means(lambda_reading: str) -> tuple[float, float]:
    """Mean compute times (fast, straggler) of Fig. 8's two categories under a reading of the printed
    "lambda = 0.1" (fast) and "lambda = 10" (stragglers): ``"mean"`` (the printed values are the mean
    times: 0.1 and 10) or ``"rate"`` (Exp rates, the convention of Theorem 4.9: means 10 and 0.1, so the
    "stragglers" are the fast clients)."""
    if lambda_reading == "mean":
        return FIG8_LAMBDAS
    if lambda_reading == "rate":
        return 1.0 / FIG8_LAMBDAS[0], 1.0 / FIG8_LAMBDAS[1]
    raise ValueError(f"`lambda_reading` must be 'mean' or 'rate'; got {lambda_reading!r}")


def _heads(cfg, rng, times):
    """Ground-truth heads of a Fig. 7/8 setting (rows scaled to norm sqrt(k), Assumption 4.6)."""
    M, k = cfg["M"], cfg["k"]
    if cfg["heads"] == "random":
        W = rng.standard_normal((M, k))
    elif cfg["heads"] == "homogeneous":  # common direction u plus heterogeneity h times an isotropic part
        u = rng.standard_normal(k)
        W = u / np.linalg.norm(u) + cfg["heterogeneity"] * rng.standard_normal((M, k)) / math.sqrt(k)
    elif cfg["heads"] == "correlated":  # 3 label groups (head directions) matched to 3 speed groups w.p. rho
        tercile = np.empty(M, int)
        tercile[np.argsort(times, kind="stable")] = np.arange(M) * 3 // M
        grp = np.where(rng.random(M) < cfg["rho"], tercile, rng.integers(0, 3, M))
        W = np.eye(k)[grp % k] + 0.3 * rng.standard_normal((M, k)) / math.sqrt(k)
    else:
        raise ValueError(f"unknown heads {cfg['heads']!r}")
    return W / np.linalg.norm(W, axis=1, keepdims=True) * math.sqrt(k)


def _times(cfg, rng):
    M = cfg["M"]
    if cfg["speeds"] == "exp":
        return rng.exponential(1.0, M)
    fast, slow = mixture_means(cfg["lambda_reading"])
    is_slow = np.zeros(M, bool)
    is_slow[rng.choice(M, int(round(cfg["straggler_fraction"] * M)), replace=False)] = True
    return rng.exponential(1.0, M) * np.where(is_slow, slow, fast)


def _imbalanced_m(cfg, rng) -> np.ndarray:
    """Per-client batch sizes of Fig. 8's imbalanced columns, scaled to mean about ``m``: ``"uniform"`` reads
    FEMNIST's 100 + U[0, 50] samples as ``m (100 + U[0,50])/125``; ``"lognormal"`` reads Sent140's log-normal
    allocation as ``m exp(N(0, 1) - 1/2)``; both clipped to [k + 1, 4 m] (the exact head needs m_i >= k)."""
    M, m, k = cfg["M"], cfg["m"], cfg["k"]
    if cfg["imbalance"] == "uniform":
        x = m * (100 + rng.uniform(0, 50, M)) / 125
    elif cfg["imbalance"] == "lognormal":
        x = m * np.exp(rng.standard_normal(M) - 0.5)
    else:
        raise ValueError(f"unknown imbalance {cfg['imbalance']!r}")
    return np.clip(np.round(x), k + 1, 4 * m).astype(int)


def setting_truth(cfg: dict, seed) -> tuple:
    """One draw of a setting from ``seed``: the ground truth (a :class:`~fedtheory.representation.FedRepModel`
    with ``B*`` Haar-orthonormal and the setting's heads), the fixed compute times (a ``"fixed"``
    :class:`~fedtheory.srpfl.SpeedModel`) and the batch sizes (the int ``m``, or the M per-client sizes of an
    imbalanced setting), from the first two of ``spawn_seeds(seed, 3)`` (the third is :func:`pair_times`'s runs)."""
    cfg = {**FIG_BASE, **cfg}
    s_model, s_speed, _ = spawn_seeds(seed, 3)
    times = _times(cfg, as_generator(s_speed))
    rm = as_generator(s_model)
    B = random_orthonormal(rm, cfg["d"], cfg["k"])
    model = FedRepModel(B_star=B, W_star=_heads(cfg, rm, times), sigma=cfg["sigma"])
    sp = SpeedModel("fixed", 1.0, cfg["M"], {"setting": "fig78"}, fixed_times=times)
    m = cfg["m"] if cfg["imbalance"] is None else _imbalanced_m(cfg, as_generator(spawn_seeds(s_model, 1)[0]))
    return model, sp, m


def _run_kw(cfg, model, speeds, m, R, seed, stop=True) -> dict:
    """The engine's arguments of a setting; ``stop``: an MSE-metric run stops at its target as a dist-metric one
    does (the claims need the hitting rounds only; the figures keep the whole curves)."""
    kw = dict(d=cfg["d"], k=cfg["k"], M=cfg["M"], N=cfg["N"], n0=cfg["n0"], m=m, sigma=cfg["sigma"], speeds=speeds,
              model=model, comm_cost=cfg["comm_cost"], stage_lengths=cfg["stage_lengths"], rounds=cfg["rounds"],
              sampler="reduced", replicates=R, seed=seed)
    if cfg["metric"] == "dist":
        kw["target"] = cfg["target"]
    else:
        kw["eval_every"] = cfg["eval_every"]
        if stop:
            kw.update(target=cfg["target"], target_metric="mse")
    return kw


def _hits(res, cfg) -> np.ndarray:
    return first_hit_round(res.dist if cfg["metric"] == "dist" else res.mse, cfg["target"])


def independent_hits(seed, cfg: dict, R: int) -> dict:
    """Hitting rounds of ``R`` independent replicates of a setting: replicate j draws its ground truth, fixed
    compute times and batch sizes from ``spawn_seeds(s_truth, R)[j]`` (:func:`setting_truth`), then FedRep-SRPFL
    and FedRep run on it, paired (the batch seed ``s_run`` for both schedules), each schedule one call of the
    batched engine with the R models. Returns ``h_SRPFL`` and ``h_FedRep`` (R,), the first round meeting the
    target (-1: never)."""
    cfg = {**FIG_BASE, **cfg}
    s_truth, s_run = spawn_seeds(seed, 2)
    truths = [setting_truth(cfg, s) for s in spawn_seeds(s_truth, R)]
    models, sps = [t[0] for t in truths], [t[1] for t in truths]
    m = cfg["m"] if cfg["imbalance"] is None else np.stack([t[2] for t in truths])
    kw = _run_kw(cfg, models, sps, m, None, s_run)
    return {f"h_{name}": _hits(run_srpfl(**kw, schedule=sched), cfg)
            for name, sched in (("SRPFL", "doubling"), ("FedRep", "all"))}


def independent_setting(cfg: dict, R: int, seed, namespace: str) -> list:
    """:func:`independent_hits` of ``R`` replicates through the task cache, in tasks of at most 32 replicates (an
    interrupted full run resumes; tasks spread over the workers); returns the tasks' outputs."""
    full_cfg = {**FIG_BASE, **cfg}
    tasks = -(-R // 32)
    sizes = [R // tasks + (i < R % tasks) for i in range(tasks)]
    seeds = spawn_seeds(seed, tasks)
    return [cached_map(partial(independent_hits, cfg=full_cfg, R=r), [s], namespace=namespace,
                       params={**full_cfg, "R": r})[0] for r, s in zip(sizes, seeds)]


def pair_times(seed, cfg: dict) -> dict:
    """One group of a Fig. 7/8 setting for the figures: a ground truth, fixed compute times and batch sizes drawn
    from ``seed`` (:func:`setting_truth`), then ``cfg['replicates']`` paired runs of FedRep-SRPFL and FedRep on it
    (replicate j of both methods has the same seed: MoM initialisation and stream). Returns the wall-clock times to
    the target (inf if missed), the hitting rounds and the first replicate's metric trajectory on its clock."""
    cfg = {**FIG_BASE, **cfg}
    model, sp, m = setting_truth(cfg, seed)
    s_run = spawn_seeds(seed, 3)[2]
    out = {}
    for name, sched in (("SRPFL", "doubling"), ("FedRep", "all")):
        res = run_srpfl(**_run_kw(cfg, model, sp, m, cfg["replicates"], s_run, stop=False), schedule=sched)
        vals = res.dist if cfg["metric"] == "dist" else res.mse
        t = np.array([_first_hit(vals[j], res.wall_clock[j], cfg["target"]) for j in range(len(res))])
        keep = np.isfinite(vals[0])
        out[f"t_{name}"], out[f"h_{name}"] = t, _hits(res, cfg)
        out[f"clock_{name}"], out[f"curve_{name}"] = res.wall_clock[0][keep], vals[0][keep]
    return out


def _first_hit(values: np.ndarray, clock: np.ndarray, target: float) -> float:
    hit = np.flatnonzero(np.asarray(values) <= target)
    return float(clock[hit[0]]) if hit.size else math.inf


def run_setting(cfg: dict, groups: int, seed, namespace: str) -> list:
    """``groups`` groups of a setting (:func:`pair_times`) through the task cache (the figures)."""
    full_cfg = {**FIG_BASE, **cfg}
    return cached_map(partial(pair_times, cfg=full_cfg), list(spawn_seeds(seed, groups)), namespace=namespace,
                      params=full_cfg)


def log_speedups(groups: list) -> np.ndarray:
    """Per-group mean of ``log(T_FedRep / T_SRPFL)`` over the paired replicates (inf/NaN when a run missed the
    target: a missed SRPFL target counts as -inf, a missed FedRep target as +inf)."""
    out = []
    for g in groups:
        with np.errstate(divide="ignore", invalid="ignore"):
            out.append(float(np.mean(np.log(g["t_FedRep"]) - np.log(g["t_SRPFL"]))))
    return np.array(out)


def median_times(groups, name) -> np.ndarray:
    """Per group of :func:`run_setting`, the median wall-clock time to target of method ``name``."""
    return np.array([float(np.median(g[f"t_{name}"])) for g in groups])


def sign_decision(x: np.ndarray, what: str, tests: int = 1) -> dict:
    """The kit's exact sign test (:func:`fedtheory.decide.ordering`, paired) on independent per-replicate values
    ``x`` (positive = the paper's direction; +inf counts as positive, -inf as negative, NaN - both methods missed
    the target - is a tie and dropped)."""
    sgn = np.nan_to_num(np.sign(np.asarray(x, float)), nan=0.0)
    return decide.ordering(np.zeros_like(sgn), sgn, expect="less", paired=True, tests=tests, what=what)


def logdiff(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``log a - log b`` elementwise (inf and NaN where a time is infinite)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.log(np.asarray(a, float)) - np.log(np.asarray(b, float))


def decide_all(subs: dict, params=None, analogue: str = "") -> dict:
    """Sign decisions on several named per-replicate arrays (Bonferroni over them), combined all-of by the kit; with
    ``analogue`` (a paper's experiment checked on its linear analogue) a refutation reads ``not-reproduced``."""
    out = decide.combine([sign_decision(x, name, len(subs)) for name, x in subs.items()],
                         what="all of " + ", ".join(subs), params=params or {})
    return decide.not_reproduced(out, analogue=analogue) if analogue else out


def setting_times(cfg: dict, groups: list, mu=None) -> tuple[np.ndarray, np.ndarray]:
    """Per replicate of ``groups`` (outputs holding ``h_SRPFL`` and ``h_FedRep``), the expected times to target of
    FedRep-SRPFL and FedRep given their hitting rounds (:func:`expected_time_to`; ``mu`` defaults to i.i.d.
    Exp(1) times)."""
    c = {**FIG_BASE, **cfg}
    mu = order_statistic_means(c["M"]) if mu is None else mu
    hs = np.concatenate([g["h_SRPFL"] for g in groups])
    hf = np.concatenate([g["h_FedRep"] for g in groups])
    C = c["comm_cost"]
    return (expected_time_to(hs, round_sizes(c, "doubling"), mu, C),
            expected_time_to(hf, round_sizes(c, "all"), mu, C))


def log_speedup(cfg, groups) -> np.ndarray:
    """Per replicate, ``log(E[T_FedRep | h] / E[T_SRPFL | h])`` (:func:`setting_times`)."""
    ts, tf = setting_times(cfg, groups)
    return logdiff(tf, ts)


#: the linear analogues of the App. C experiments (deep networks on CIFAR10/EMNIST/FEMNIST/Sent140 in the paper)
_ANALOGUE_BASE = ("exact FedRep-SRPFL vs FedRep on the linear model (d=20, k=2, N=M=64, n0=4, m=20, sigma=0.1, fixed "
                  "Exp(1) speeds, theorem's default step 1/(8 max ||w_i*||^2), MoM init, 10 rounds per non-final stage), "
                  "expected wall-clock time to target given the hitting round (exact order-statistic means), independent "
                  "replicates (own ground truth each)")

ANALOGUE = {"fig7": _ANALOGUE_BASE + "; heads around one direction (heterogeneity 0.5), target test MSE <= 0.0335",
            "fig8.imbalanced": _ANALOGUE_BASE + "; per-client batches m (100 + U[0,50])/125 vs m exp(N(0,1) - 1/2), "
                                                "target dist <= 0.1",
            "fig8.stragglers": _ANALOGUE_BASE + "; straggler fractions 0.1 and 0.5 (means 0.1 and 10), target dist <= 0.1",
            "fig8.correlated": _ANALOGUE_BASE + "; k=3 head groups matched to speed terciles w.p. rho in {0, 1}, target "
                                                "dist <= 0.1"}

#: the clock statement shared by the regimes
CLOCK = ("time to target read as its exact expectation given the run's hitting round h, E[T | h] = sum_{t<h} "
         "E[X_(n_t:64)] (order-statistic means of the setting's compute times: the trajectory of a run with heads "
         "independent of the times, or depending on their ranks only, is independent of the sorted values)")


def sign_rule(units: str) -> str:
    """The regime's sentence on the sign tests over ``units``."""
    return (f"exact sign tests over {units} (a run missing the target counts against the method that missed it, "
            f"both missing is a tie, dropped)")
