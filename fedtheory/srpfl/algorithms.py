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


def run_srpfl(d: int = 50, k: int = 3, M: int = 64, N: int = 64, n0: int = 4, m: int | Sequence[int] = 30,
              sigma: float = 0.5, speeds: str | SpeedModel | Sequence[SpeedModel] = "fixed",
              comm_cost: float = 0.0, *,
              lam: float = 1.0, schedule: str = "doubling",
              stage_lengths: int | Sequence[int] | str = 20, a_stage: float | None = None,
              rounds: int | None = None, target: float | None = None, eta: float | None = None,
              head_norm: str = "sqrt_k", design: str = "gaussian", init: str = "mom",
              resample: str = "stage", carry: str = "qr", speed_variant: str = "tmlr",
              straggler_fraction: float = 0.2, eval_every: int = 0,
              record_identities: bool = False, model: FedRepModel | Sequence[FedRepModel] | None = None,
              sampler: str = "full", seed: SeedLike = 0, replicates: int | None = None,
              target_metric: str = "dist") -> SRPFLResult:
    """Run FedRep-SRPFL (Algorithm 2) or the FedRep baseline, exactly, with a simulated clock.

    Parameters
    ----------
    d, k : int
        Dimension and representation rank (``k <= d``).
    M, N, n0 : int
        Clients in total, clients sampled per stage (``N <= M``), initial participants
        (``k <= n0 <= N``). Stage r aggregates the ``min(N, 2^r n0)`` fastest.
    m : int, or array of int of shape (M,) or (R, M)
        Fresh samples per participant per round (``m >= k``). An array gives each client its own batch
        size ``m_i >= k`` (the imbalanced local datasets of App. C, Fig. 8): client i fits its exact head on
        ``m_i`` samples, steps on its own loss ``(1/2m_i) ||.||^2`` and the server averages the steps with
        equal weights, ``B_bar = B - (eta/n) sum_i X_i^T r_i w_i^T / m_i`` (:mod:`fedtheory.srpfl._batch_sizes`);
        the method of moments uses ``min_i m_i`` samples per client. Shape (R, M): replicate j's sizes are row
        j (R = the replicates). Not with ``eval_every`` or ``record_identities``.
    sigma : float
        Label-noise standard deviation.
    speeds : str, SpeedModel, or sequence of R SpeedModel
        ``"fixed"``, ``"dynamic"``, ``"iid"`` or ``"mixture"`` (see :mod:`fedtheory.srpfl.model`), drawn per
        replicate; one SpeedModel shared by every replicate; or one per replicate (R = its length).
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
        Stop once ``dist <= target`` (run-until-target; ``target_metric="mse"``: once the evaluated test MSE is).
    eta : float, optional
        Step size; default :func:`srpfl_default_eta`.
    resample : {"stage", "round"}
        Draw the N active clients once per stage (Remark 3.2) or every round.
    carry : {"qr", "pre_qr"}
        Carry the orthonormal factor into the next stage (corrected), or the pre-QR average
        ``B_bar`` as printed in Algorithm 2, line 16.
    eval_every : int
        Every that many rounds, compute the exact test MSE with re-fitted heads (0: never): every client fits
        its head on ``B^t`` from ``m`` fresh samples, ``mean_i ||B^t w_i - B* w_i*||^2 + sigma^2``; with the
        reduced sampler the refit samples are drawn from their exact law in ``span[B^t, B*]`` (``m x 2k``
        normals per client instead of ``m x d``).
    record_identities : bool
        Record the Appendix A identities and inequalities every round (needs ``sampler="full"``).
    model : FedRepModel, or sequence of R FedRepModel, optional
        The ground truth ``(B*, W*)`` of Sec. 4.1 (``y = w_i*^T B*^T x + z``) for M clients. Default: each
        replicate draws its own (:func:`fedtheory.representation.make_model` with ``sigma``, ``head_norm``,
        ``design``). One model: shared by every replicate (and the single run). A sequence: replicate j runs on
        ``model[j]`` (R = its length), for replicates whose ground truths follow a law of the caller's, e.g. App.
        C's heads around one direction or tied to the clients' speeds; the engine stacks them, B* as (R, d, k)
        and W* as (R, M, k). The models must share ``(d, k, M)`` with the run and one ``sigma`` and ``design``
        (the noise of all replicates is one draw); ``sigma``, ``head_norm`` and ``design`` are then not used.
    sampler : {"full", "reduced", "auto"}
        As in :func:`fedtheory.representation.run_fedrep`: ``"reduced"`` draws each round from its
        exact law without forming the batches (isotropic Gaussian designs, d >= 2k).
    seed : int, SeedSequence or Generator
    replicates : int, optional
        Run this many independent replicates in one vectorised pass and return a
        :class:`~fedtheory.srpfl.replicates.SRPFLReplicates` (arrays with a leading replicate axis).
        Replicate j equals, bitwise, the single run with seed ``spawn_seeds(seed, replicates)[j]``
        (its own ground truth and speed model unless ``model`` / a ``SpeedModel`` is given; with sequences,
        the single run with ``model[j]``, ``speeds[j]`` and ``m[j]``), and the
        numbers do not depend on how the replicates are chunked for memory. With ``target`` each
        replicate stops at its own round and the arrays are NaN-padded after it (``rounds_run`` gives
        each replicate's rounds; ``res[j]`` is unpadded). Not with ``stage_lengths="lemma_b1"`` or
        ``record_identities`` (their replicates would switch stages at their own rounds or need the
        batches). Defaults to R when a sequence of models or speed models, or an (R, M) ``m``, is given (which
        must then agree with it); the result is then a batch, of one replicate for R = 1.

    target_metric : {"dist", "mse"}
        What ``target`` stops on: ``dist(B^t, B*)``, or the test MSE of ``eval_every`` (then required), checked
        before each round that follows an evaluation.

    Returns
    -------
    SRPFLResult (SRPFLReplicates with ``replicates`` or per-replicate sequences)

    Raises
    ------
    TypeError
        ``model`` not a FedRepModel or a sequence of them, ``speeds`` not a string, SpeedModel or sequence of
        SpeedModels, ``m`` not an integer or an integer array (each naming the parameter).
    ValueError
        An empty sequence, sequences of different lengths or disagreeing with ``replicates``, models of another
        ``(d, k, M)`` or of different ``sigma``/``design``, speed models for another M, ``m`` of a shape other
        than (M,) or (R, M) or with an entry below k, and the ranges of the other parameters.
    """
    d = check_int(d, "d", 1)
    k = check_int(k, "k", 1, d, why=f"k must not exceed d={d}")
    M = check_int(M, "M", 1)
    N = check_int(N, "N", 1, M, why=f"N must not exceed M={M}")
    n0 = check_int(n0, "n0", k, N, why=f"k={k} <= n0 <= N={N}")
    m, m_i = _batch_sizes_arg(m, k, M)
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
    model_seq = _per_replicate(model, "model", FedRepModel)
    speed_seq = _per_replicate(speeds, "speeds", SpeedModel, allow=str)
    for j, sp in enumerate(speed_seq or ([speeds] if isinstance(speeds, SpeedModel) else [])):
        if sp.M != M:
            raise ValueError(f"`speeds{'' if speed_seq is None else f'[{j}]'}` is a SpeedModel for M={sp.M} clients; "
                             f"the run has M={M}")
    if speed_seq is None and not isinstance(speeds, SpeedModel):
        check_choice(speeds, "speeds", SPEEDS)
    replicates = _replicate_count(replicates, model=model_seq, speeds=speed_seq,
                                  m=None if m_i is None or m_i.ndim == 1 else m_i)
    if eta is not None:
        eta = check_real(eta, "eta", 0, low_open=True)
    check_choice(speed_variant, "speed_variant", ("tmlr", "arxiv"))
    check_real(straggler_fraction, "straggler_fraction", 0, 1)
    record_identities = check_bool(record_identities, "record_identities")
    if a_stage is not None:
        a_stage = check_real(a_stage, "a_stage", 0, 1, True, True)
    eval_every = check_int(eval_every, "eval_every", 0)
    check_choice(target_metric, "target_metric", ("dist", "mse"))
    if target_metric == "mse" and not eval_every:
        raise ValueError("`target_metric`='mse' needs `eval_every` >= 1 (the MSE the target is read on)")
    if m_i is not None and (eval_every or record_identities):
        raise ValueError(f"per-client batch sizes `m` cannot be combined with `eval_every`={eval_every!r} or "
                         f"`record_identities`={record_identities!r} (the evaluation and the Appendix A identities "
                         "are for one m)")
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
        kept = 8 * (rounds + 1) + 4 + M + (0 if isinstance(model, FedRepModel) else M * (d + 2 * k) + d * k)
        check_alloc(replicates * kept, "the results of the replicates (R x (trajectories, ground truths and speed "
                    "models))", replicates=replicates, rounds=rounds, M=M, d=d, k=k)
        check_iterations(replicates * (rounds + 1), "the replicate rounds", replicates=replicates, rounds=rounds)
    _check_models(model_seq or ([model] if model is not None else []), model_seq is not None, d, k, M)
    # one engine: a single run is the batch of R = 1 replicate whose seed is `seed` itself
    seeds = [seed] if replicates is None else spawn_seeds(seed, replicates)
    children = [spawn_seeds(s, 6) for s in seeds]  # model, speed, init, run, time and evaluation streams
    models = [model_seq[j] if model_seq is not None else model if model is not None else make_model(
        d, k, M, sigma=sigma, head_norm=head_norm, design=design, seed=ch[0]) for j, ch in enumerate(children)]
    sps = [speed_seq[j] if speed_seq is not None else speeds if isinstance(speeds, SpeedModel) else make_speed_model(
        speeds, M, N, lam=lam, variant=speed_variant, straggler_fraction=straggler_fraction, seed=ch[1])
        for j, ch in enumerate(children)]
    if m_i is not None:
        m_i = np.broadcast_to(m_i, (len(models), M))
    etas = np.array([srpfl_default_eta(mod.W_star) if eta is None else eta for mod in models])
    sampler = resolve_sampler(sampler, models[0])
    if sampler == "reduced" and record_identities:
        raise ValueError("`record_identities` needs the batches; use sampler='full'")
    B0 = np.stack([_initial_representation(mod, init, M, N, m if m_i is None else int(m_i[j].min()),
                                           as_generator(ch[2])) for j, (mod, ch) in enumerate(zip(models, children))])
    if isinstance(stage_lengths, str):
        X_sw = [switch_point(r, a_stage, N, n0, lam, c) for r in range(len(sizes) - 1)]
        stages = _Stages(sizes, switch=X_sw[0] if X_sw else None, a_stage=a_stage, N=N, n0=n0, lam=lam)
    else:
        stages = _Stages(sizes, stage_lengths)
    ident: dict[str, list] = {}
    on_round = _identity_recorder(models[0], float(etas[0]), ident) if record_identities and carry == "qr" else None
    out = _engine._run_batch(models, sps, B0, children, etas, M=M, N=N, n0=n0, m=m, C=c / lam, stages=stages,
                             rounds=rounds, resample=resample, carry=carry, eval_every=eval_every, sampler=sampler,
                             target=target, on_round=on_round, in_batch=replicates is not None, m_i=m_i,
                             target_metric=target_metric)
    if not np.all(np.isfinite(out["wall_clock"][np.arange(len(models)), out["rounds_run"]])):
        raise ValueError(f"the simulated clock overflows float64: `lam`={lam!r} too small or `comm_cost`={c!r} "
                         f"too large (or the `speeds` model's times)")
    params = dict(schedule="SRPFL" if schedule == "doubling" else "FedRep", d=d, k=k, M=M, N=N,
                  n0=n0, m=m if m_i is None else (m_i[0] if replicates is None else m_i).tolist(), sigma=models[0].sigma, speeds=sps[0].kind, speed_params=sps[0].params, lam=lam,
                  comm_cost=c, stage_lengths=stage_lengths if isinstance(stage_lengths, str) else list(stage_lengths),
                  a_stage=a_stage, rounds=rounds, target=target, eta=eta, head_norm=models[0].head_norm, init=init,
                  resample=resample, carry=carry, sampler=sampler, target_metric=target_metric)
    arrays = {key: out[key] for key in _engine._KEYS}
    batch = SRPFLReplicates(**arrays, eta=etas, params={**params, "seed": None}, models=tuple(models),
                            speed_models=tuple(sps), seeds=tuple(seeds))
    if replicates is None:  # the unpadded replicate 0, with the single run's identities and parameters
        return dataclasses.replace(batch[0], identities={k_: np.array(v) for k_, v in ident.items()},
                                   params={**params, "eta": float(etas[0]), "seed": seed_repr(seed)})
    return dataclasses.replace(batch, params={**params, "seed": None, "replicates": replicates,
                                              "replicate_seed": seed_repr(seed), "chunk": out["chunk"]})


def _per_replicate(value, name: str, cls: type, allow: type | None = None):
    """``value`` as a tuple when it is a sequence (list or tuple) of ``cls`` instances, one per replicate, else
    None (a single ``cls``, ``None`` or an ``allow`` instance, checked by the caller); TypeError naming
    ``name[j]`` for an element of another type, ValueError for an empty sequence."""
    if value is None or isinstance(value, cls) or (allow is not None and isinstance(value, allow)):
        return None
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"`{name}` must be a {cls.__name__}, a list or tuple of them (one per replicate)"
                        + (f" or a {allow.__name__}" if allow else "") + f"; got {type(value).__name__}")
    if not value:
        raise ValueError(f"`{name}` is an empty sequence: give one {cls.__name__} per replicate")
    for j, v in enumerate(value):
        check_instance(v, f"{name}[{j}]", cls)
    return tuple(value)


def _batch_sizes_arg(m, k: int, M: int):
    """``(m_max, None)`` for an integer ``m >= k``; ``(m_max, m_i)`` for per-client batch sizes, an integer array
    of shape (M,) or (R, M) with entries ``>= k``."""
    if isinstance(m, (numbers.Integral, np.integer, float, np.floating)) and np.ndim(m) == 0:
        return check_int(m, "m", k, why=f"the exact head needs m >= k={k}"), None
    if isinstance(m, (str, bytes, dict)) or m is None or isinstance(m, bool):
        raise TypeError(f"`m` must be an integer or an integer array of shape (M,)=({M},) or (R, M); got {m!r}")
    arr = np.asarray(m)
    if arr.dtype == bool or not (np.issubdtype(arr.dtype, np.integer) or (
            np.issubdtype(arr.dtype, np.floating) and np.all(np.isfinite(arr)) and np.all(arr == np.round(arr)))):
        raise TypeError(f"`m` must be an integer or an integer array of shape (M,)=({M},) or (R, M); got dtype "
                        f"{arr.dtype}")
    if arr.ndim not in (1, 2) or arr.shape[-1] != M or arr.size == 0:
        raise ValueError(f"`m` as per-client batch sizes must have shape (M,)=({M},) or (R, M)=(R, {M}); got shape "
                         f"{arr.shape}")
    arr = arr.astype(np.int64)
    if arr.min() < k:
        raise ValueError(f"every per-client batch size in `m` must be >= k={k} (the exact head); got min {arr.min()}")
    return int(arr.max()), arr


def _replicate_count(replicates, **per_replicate):
    """``replicates``, or the common length R of the per-replicate arguments (sequences or (R, M) arrays, None when
    not given), which must agree with each other and with ``replicates`` when both are given."""
    sizes = {name: len(v) for name, v in per_replicate.items() if v is not None}
    if replicates is not None:
        replicates = check_int(replicates, "replicates", 1)
    if not sizes:
        return replicates
    R = replicates if replicates is not None else next(iter(sizes.values()))
    for name, n in sizes.items():
        if n != R:
            given = ", ".join(f"`{k}` has {v}" for k, v in sizes.items())
            raise ValueError(f"per-replicate arguments must hold one entry per replicate ({given}"
                             + (f", `replicates`={replicates}" if replicates is not None else "")
                             + f"): `{name}` has {n}, not {R}")
    return R


def _check_models(models, per_replicate: bool, d: int, k: int, M: int) -> None:
    """The ground truths match the run's ``(d, k, M)`` and share one ``sigma`` and ``design`` (the engine draws the
    noise of all replicates at once)."""
    for j, mod in enumerate(models):
        name = f"`model[{j}]`" if per_replicate else "`model`"
        if (mod.d, mod.k, mod.n) != (d, k, M):
            raise ValueError(f"{name} has (d, k, M)={(mod.d, mod.k, mod.n)} but the run asks for {(d, k, M)}")
        if (mod.sigma, mod.design) != (models[0].sigma, models[0].design):
            raise ValueError(f"{name} has (sigma, design)={(mod.sigma, mod.design)} but `model[0]` has "
                             f"{(models[0].sigma, models[0].design)}: the replicates' models must share them")


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
