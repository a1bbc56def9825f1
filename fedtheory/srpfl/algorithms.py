"""Exact runs of FedRep-SRPFL (Algorithm 2) with a simulated wall clock: the public entry of one engine.

SRPFL (Tziotis, Shen, Pedarsani, Hassani and Mokhtari, TMLR), Algorithm 2 [arXiv: "SRPFL in Linear
Representation"]: stages r = 0, 1, ...; in stage r the server samples N of the M clients, waits for
the ``n_r = min(N, 2^r n0)`` fastest, and runs one FedRep round on them (fresh batch, exact head, one
gradient step on B, average, QR; FedRep's round, Collins et al., ICML 2021, Algorithm 2).

A round costs the n_r-th smallest of the N sampled compute times plus ``C = c/lam``
(Sec. 4.2, App. B). ``schedule="all"`` is the straggler-prone FedRep baseline: all N
sampled clients every round, so the slowest one sets the pace.

:func:`run_srpfl` validates its arguments once, draws each replicate's ground truth, speed model and
initial representation, and runs the rounds in the engine of :mod:`fedtheory.srpfl._engine`, a single
run being the batch with R = 1 (its seed being ``seed`` itself).
"""
from __future__ import annotations

import dataclasses
import math
import numbers
from typing import Sequence

import numpy as np

from .._validation import guard_module as _guard_module
from .._validation import (check_alloc, check_bool, check_choice, check_instance, check_int, check_iterations,
                           check_matrix, check_real)
from ..linalg import random_orthonormal
from ..random import SeedLike, as_generator, seed_repr, spawn_seeds
from ..representation.baselines import run_fedavg
from ..representation.fitting import mom_init
from ..representation.model import DESIGNS, HEAD_NORMS, SIGMA_MAX, FedRepModel, make_model
from ..representation.rounds import resolve_sampler
from . import _engine
from ._engine import _exact_mse, _Stages  # noqa: F401 - _exact_mse: former private name, re-exported
from .model import SPEEDS, SpeedModel, make_speed_model
from .replicates import SRPFLReplicates
from .results import SRPFLResult
from .theory import round_decomposition, switch_point

__all__ = ["SRPFLResult", "run_srpfl", "srpfl_default_eta", "fedavg_wallclock"]


def srpfl_default_eta(W_star: np.ndarray) -> float:
    """``1/(8 max_i ||w_i*||^2)``, which satisfies Theorem 4.7's ``eta <= 1/(8 sigma_max,*^2)``
    for every subset (as :func:`fedtheory.representation.default_eta`; Tziotis et al., TMLR).
    ``W_star`` is a finite n x k matrix with a nonzero row."""
    W = check_matrix(W_star, "W_star", (None, None))
    top = float(np.max(np.sum(W ** 2, axis=1))) if W.size else 0.0
    if not top > 0:
        raise ValueError("`W_star` must have a nonzero row (the step 1/(8 max ||w_i*||^2) is infinite otherwise)")
    return 1.0 / (8.0 * top)


def run_srpfl(d: int = 50, k: int = 3, M: int = 64, N: int = 64, n0: int = 4, m: int = 30,
              sigma: float = 0.5, speeds: str | SpeedModel = "fixed", comm_cost: float = 0.0, *,
              lam: float = 1.0, schedule: str = "doubling",
              stage_lengths: int | Sequence[int] | str = 20, a_stage: float | None = None,
              rounds: int | None = None, target: float | None = None, eta: float | None = None,
              head_norm: str = "sqrt_k", design: str = "gaussian", init: str = "mom",
              resample: str = "stage", carry: str = "qr", speed_variant: str = "tmlr",
              straggler_fraction: float = 0.2, eval_every: int = 0,
              record_identities: bool = False, model: FedRepModel | None = None,
              sampler: str = "full", seed: SeedLike = 0, replicates: int | None = None) -> SRPFLResult:
    """Run FedRep-SRPFL (Algorithm 2) or the FedRep baseline, exactly, with a simulated clock.

    Parameters
    ----------
    d, k : int
        Dimension and representation rank (``k <= d``).
    M, N, n0 : int
        Clients in total, clients sampled per stage (``N <= M``), initial participants
        (``k <= n0 <= N``). Stage r aggregates the ``min(N, 2^r n0)`` fastest.
    m : int
        Fresh samples per participant per round (``m >= k``).
    sigma : float
        Label-noise standard deviation.
    speeds : str or SpeedModel
        ``"fixed"``, ``"dynamic"``, ``"iid"`` or ``"mixture"`` (see :mod:`fedtheory.srpfl.model`).
    comm_cost : float
        ``c`` in the per-round communication cost ``C = c/lam``.
    schedule : {"doubling", "all"}
        SRPFL's doubling, or FedRep with all N sampled clients every round.
    stage_lengths : int, sequence of int, or "lemma_b1"
        Rounds per non-final stage. ``"lemma_b1"``: stage 0 runs until ``dist <= X_1`` and
        stage r >= 1 runs ``ceil(t^r)`` rounds (Lemma B.1, eqs. (203), (206)) with
        ``a = a_stage`` (required). The final stage (n = N) runs until ``target`` or the
        ``rounds`` budget.
    rounds : int, optional
        Total round budget (default ``stage_lengths`` times the number of stages, or 200).
    target : float, optional
        Stop once ``dist <= target`` (run-until-target).
    eta : float, optional
        Step size; default :func:`srpfl_default_eta`.
    resample : {"stage", "round"}
        Draw the N active clients once per stage (Remark 3.2) or every round.
    carry : {"qr", "pre_qr"}
        Carry the orthonormal factor into the next stage (corrected), or the pre-QR average
        ``B_bar`` as printed in Algorithm 2, line 16.
    eval_every : int
        Every that many rounds, compute the exact test MSE with re-fitted heads (0: never).
    record_identities : bool
        Record the Appendix A identities and inequalities every round (needs ``sampler="full"``).
    sampler : {"full", "reduced", "auto"}
        As in :func:`fedtheory.representation.run_fedrep`: ``"reduced"`` draws each round from its
        exact law without forming the batches (isotropic Gaussian designs, d >= 2k).
    seed : int, SeedSequence or Generator
    replicates : int, optional
        Run this many independent replicates in one vectorised pass and return a
        :class:`~fedtheory.srpfl.replicates.SRPFLReplicates` (arrays with a leading replicate axis).
        Replicate j equals, bitwise, the single run with seed ``spawn_seeds(seed, replicates)[j]``
        (its own ground truth and speed model unless ``model`` / a ``SpeedModel`` is given), and the
        numbers do not depend on how the replicates are chunked for memory. With ``target`` each
        replicate stops at its own round and the arrays are NaN-padded after it (``rounds_run`` gives
        each replicate's rounds; ``res[j]`` is unpadded). Not with ``stage_lengths="lemma_b1"`` or
        ``record_identities`` (their replicates would switch stages at their own rounds or need the
        batches).

    Returns
    -------
    SRPFLResult (SRPFLReplicates with ``replicates``)
    """
    d = check_int(d, "d", 1)
    k = check_int(k, "k", 1, d, why=f"k must not exceed d={d}")
    M = check_int(M, "M", 1)
    N = check_int(N, "N", 1, M, why=f"N must not exceed M={M}")
    n0 = check_int(n0, "n0", k, N, why=f"k={k} <= n0 <= N={N}")
    m = check_int(m, "m", k, why=f"the exact head needs m >= k={k}")
    check_real(sigma, "sigma", 0, SIGMA_MAX, why="noise standard deviation")
    lam = check_real(lam, "lam", 0, low_open=True, why="exponential rate")
    c = check_real(comm_cost, "comm_cost", 0)
    check_choice(schedule, "schedule", ("doubling", "all"))
    check_choice(resample, "resample", ("stage", "round"))
    check_choice(carry, "carry", ("qr", "pre_qr"))
    check_choice(init, "init", ("mom", "random"))
    check_choice(head_norm, "head_norm", HEAD_NORMS)
    check_choice(design, "design", DESIGNS)
    check_choice(sampler, "sampler", ("full", "reduced", "auto"))
    if isinstance(speeds, SpeedModel):
        if speeds.M != M:
            raise ValueError(f"`speeds` is a SpeedModel for M={speeds.M} clients; the run has M={M}")
    else:
        check_choice(speeds, "speeds", SPEEDS)
    if model is not None:
        check_instance(model, "model", FedRepModel)
    if eta is not None:
        eta = check_real(eta, "eta", 0, low_open=True)
    check_choice(speed_variant, "speed_variant", ("tmlr", "arxiv"))
    check_real(straggler_fraction, "straggler_fraction", 0, 1)
    record_identities = check_bool(record_identities, "record_identities")
    if a_stage is not None:
        a_stage = check_real(a_stage, "a_stage", 0, 1, True, True)
    eval_every = check_int(eval_every, "eval_every", 0)
    R = max(0, math.ceil(math.log2(N / n0)))
    sizes = [min(N, n0 * 2 ** r) for r in range(R + 1)] if schedule == "doubling" else [N]
    if isinstance(stage_lengths, str):
        check_choice(stage_lengths, "stage_lengths", ("lemma_b1",))
        if a_stage is None:
            raise ValueError("`a_stage` in (0, 1) is required with stage_lengths='lemma_b1'")
    elif isinstance(stage_lengths, (numbers.Real, np.number)):
        stage_lengths = [check_int(stage_lengths, "stage_lengths", 1)] * len(sizes)
    elif isinstance(stage_lengths, (list, tuple, np.ndarray)):
        stage_lengths = [check_int(v, "stage_lengths", 1) for v in np.ravel(stage_lengths).tolist()]
        if len(stage_lengths) < len(sizes) - 1:
            raise ValueError(f"`stage_lengths` needs {len(sizes) - 1} entries; got {len(stage_lengths)}")
    else:
        raise TypeError(f"`stage_lengths` must be an int, a sequence of ints or 'lemma_b1'; got {stage_lengths!r}")
    if rounds is None:
        rounds = 200 if isinstance(stage_lengths, str) or target is not None else sum(
            list(stage_lengths)[: len(sizes)])
    rounds = check_int(rounds, "rounds", 0)
    if target is not None:
        target = check_real(target, "target", 0, low_open=True)
    check_alloc(rounds + 1, "the trajectory (rounds + 1 entries per record)", itemsize=8 * 8, rounds=rounds)
    check_iterations(rounds, "the run", rounds=rounds)
    check_alloc(max(M * d, d * d, N * m * d, (M * m * d) if eval_every else 0),
                "the run's largest array (M x d thetas, d x d moments, N x m x d batch, M x m x d evaluation)",
                d=d, M=M, N=N, m=m)
    if replicates is not None:
        replicates = check_int(replicates, "replicates", 1)
        for name, val, bad in (("stage_lengths", stage_lengths, isinstance(stage_lengths, str)),
                               ("record_identities", record_identities, record_identities)):
            if bad:
                raise ValueError(f"`replicates` cannot be combined with `{name}`={val!r}: the replicates would "
                                 "switch stages at their own rounds, or need every round's batch; "
                                 "run single runs over spawn_seeds(seed, replicates) instead")
        kept = 8 * (rounds + 1) + 4 + M + (0 if model is not None else M * (d + 2 * k) + d * k)
        check_alloc(replicates * kept, "the results of the replicates (R x (trajectories, ground truths and speed "
                    "models))", replicates=replicates, rounds=rounds, M=M, d=d, k=k)
        check_iterations(replicates * (rounds + 1), "the replicate rounds", replicates=replicates, rounds=rounds)
    if model is not None and (model.d, model.k, model.n) != (d, k, M):
        raise ValueError(f"`model` has (d, k, M)={(model.d, model.k, model.n)} but the run asks "
                         f"for {(d, k, M)}")
    # one engine: a single run is the batch of R = 1 replicate whose seed is `seed` itself
    seeds = [seed] if replicates is None else spawn_seeds(seed, replicates)
    children = [spawn_seeds(s, 6) for s in seeds]  # model, speed, init, run, time and evaluation streams
    models = [model if model is not None else make_model(d, k, M, sigma=sigma, head_norm=head_norm, design=design,
                                                         seed=ch[0]) for ch in children]
    sps = [speeds if isinstance(speeds, SpeedModel) else make_speed_model(
        speeds, M, N, lam=lam, variant=speed_variant, straggler_fraction=straggler_fraction, seed=ch[1])
        for ch in children]
    etas = np.array([srpfl_default_eta(mod.W_star) if eta is None else eta for mod in models])
    sampler = resolve_sampler(sampler, models[0])
    if sampler == "reduced" and record_identities:
        raise ValueError("`record_identities` needs the batches; use sampler='full'")
    B0 = np.stack([_initial_representation(mod, init, M, N, m, as_generator(ch[2]))
                   for mod, ch in zip(models, children)])
    if isinstance(stage_lengths, str):
        X_sw = [switch_point(r, a_stage, N, n0, lam, c) for r in range(len(sizes) - 1)]
        stages = _Stages(sizes, switch=X_sw[0] if X_sw else None, a_stage=a_stage, N=N, n0=n0, lam=lam)
    else:
        stages = _Stages(sizes, stage_lengths)
    ident: dict[str, list] = {}
    on_round = _identity_recorder(models[0], float(etas[0]), ident) if record_identities and carry == "qr" else None
    out = _engine._run_batch(models, sps, B0, children, etas, M=M, N=N, n0=n0, m=m, C=c / lam, stages=stages,
                             rounds=rounds, resample=resample, carry=carry, eval_every=eval_every, sampler=sampler,
                             target=target, on_round=on_round, in_batch=replicates is not None)
    if not np.all(np.isfinite(out["wall_clock"][np.arange(len(models)), out["rounds_run"]])):
        raise ValueError(f"the simulated clock overflows float64: `lam`={lam!r} too small or `comm_cost`={c!r} "
                         f"too large (or the `speeds` model's times)")
    params = dict(schedule="SRPFL" if schedule == "doubling" else "FedRep", d=d, k=k, M=M, N=N,
                  n0=n0, m=m, sigma=models[0].sigma, speeds=sps[0].kind, speed_params=sps[0].params, lam=lam,
                  comm_cost=c, stage_lengths=stage_lengths if isinstance(stage_lengths, str) else list(stage_lengths),
                  a_stage=a_stage, rounds=rounds, target=target, eta=eta, head_norm=models[0].head_norm, init=init,
                  resample=resample, carry=carry, sampler=sampler)
    arrays = {key: out[key] for key in _engine._KEYS}
    batch = SRPFLReplicates(**arrays, eta=etas, params={**params, "seed": None}, models=tuple(models),
                            speed_models=tuple(sps), seeds=tuple(seeds))
    if replicates is None:  # the unpadded replicate 0, with the single run's identities and parameters
        return dataclasses.replace(batch[0], identities={k_: np.array(v) for k_, v in ident.items()},
                                   params={**params, "eta": float(etas[0]), "seed": seed_repr(seed)})
    return dataclasses.replace(batch, params={**params, "seed": None, "replicates": replicates,
                                              "replicate_seed": seed_repr(seed), "chunk": out["chunk"]})


def _initial_representation(model: FedRepModel, init: str, M: int, N: int, m: int, rng: np.random.Generator):
    """``B^0`` of Algorithm 2: the method of moments from N sampled clients (lines 2-3; N = M uses all)
    or a Haar-random orthonormal d x k matrix."""
    if init == "mom":
        sub = FedRepModel(B_star=model.B_star, W_star=model.W_star[rng.choice(M, N, replace=False)],
                          sigma=model.sigma, design=model.design)
        return mom_init(sub, m, rng)
    return random_orthonormal(rng, model.d, model.k)


def _identity_recorder(model: FedRepModel, eta: float, ident: dict):
    """``on_round`` of the engine recording the Appendix A identities and inequality sides of every round
    (:func:`~fedtheory.srpfl.theory.round_decomposition`, looked up here at call time) into ``ident``."""
    def record(B_in, X, y, sel, rnd):
        for key, val in round_decomposition(B_in, X, y, model.B_star, model.W_star[sel], eta, rnd.B_bar, rnd.R,
                                            rnd.w, rnd.B_next).items():
            ident.setdefault(key, []).append(val)
    return record


def fedavg_wallclock(d: int = 50, k: int = 3, M: int = 64, N: int = 64, m: int = 30, sigma: float = 0.5,
                     speeds: str | SpeedModel = "fixed", comm_cost: float = 0.0, *, lam: float = 1.0,
                     rounds: int = 100, eta: float = 0.05, speed_variant: str = "tmlr",
                     straggler_fraction: float = 0.2, model: FedRepModel | None = None, seed: SeedLike = 0):
    """FedAvg (single model, Sec. 5 baselines) on the same simulated clock as :func:`run_srpfl`.

    Runs :func:`fedtheory.representation.run_fedavg` with ``N`` of the ``M`` clients per round and
    charges each round the slowest selected client's time plus ``C = c/lam`` (straggler-prone, like
    FedRep). Returns ``(wall_clock, dist, mse)`` arrays over rounds 0..T, where ``mse`` is the exact
    population test MSE of the single model, ``2 x`` objective (4) including the noise.
    """
    M = check_int(M, "M", 1)
    N = check_int(N, "N", 1, M, why=f"N must not exceed M={M}")
    lam = check_real(lam, "lam", 0, low_open=True, why="exponential rate")
    comm_cost = check_real(comm_cost, "comm_cost", 0)
    if isinstance(speeds, SpeedModel):
        if speeds.M != M:
            raise ValueError(f"`speeds` is a SpeedModel for M={speeds.M} clients; the run has M={M}")
    else:
        check_choice(speeds, "speeds", SPEEDS)
    check_choice(speed_variant, "speed_variant", ("tmlr", "arxiv"))
    check_real(straggler_fraction, "straggler_fraction", 0, 1)
    if model is not None:
        check_instance(model, "model", FedRepModel)
    ss_model, ss_speed, ss_run, ss_time = spawn_seeds(seed, 4)
    if model is None:
        d = check_int(d, "d", 1)
        k = check_int(k, "k", 1, d, why=f"k must not exceed d={d}")
        check_real(sigma, "sigma", 0, SIGMA_MAX, why="noise standard deviation")
        check_alloc(max(M * d, N * m * d if isinstance(m, int) else 0), "the run's largest array", d=d, M=M, m=m)
        model = make_model(d, k, M, sigma=sigma, seed=ss_model)
    sp = speeds if isinstance(speeds, SpeedModel) else make_speed_model(
        speeds, M, N, lam=lam, variant=speed_variant, straggler_fraction=straggler_fraction, seed=ss_speed)
    log: list = []
    res = run_fedavg(d, k, M, m, N / M, rounds, eta=eta, model=model, m_test=0, selection_log=log, seed=ss_run)
    rng_t = as_generator(ss_time)
    C = comm_cost / lam
    times = np.array([float(np.max(sp.draw(rng_t, sel))) + C for sel in log])
    clock = np.concatenate([[0.0], np.cumsum(times)])
    if not np.all(np.isfinite(clock)):
        raise ValueError(f"the simulated clock overflows float64: `lam`={lam!r} too small or `comm_cost`={comm_cost!r} "
                         f"too large (or the `speeds` model's times)")
    return clock, res.dist, 2 * res.objective


# every public function turns float64 overflows, linear-algebra failures and broadcasting errors
# into ValueErrors naming its parameters (fedtheory._validation.guard_numeric_errors)
_guard_module(globals(), __all__)
