"""Replicate-batched exact FedRep-SRPFL runs: ``run_srpfl(..., replicates=R)``.

R independent runs of FedRep-SRPFL (Algorithm 2 of Tziotis et al., TMLR; or the FedRep baseline,
``schedule="all"``) advance together. The stage schedule (participants per round, stage switches)
is deterministic for integer or list ``stage_lengths``, so every replicate aggregates the same number
of clients in the same round; what differs is drawn from each replicate's own streams in a Python
loop (client sampling, compute times, batches), and the algebra of all R rounds is done at once
(one stacked ``X B`` matmul, one batched k x k head solve, one stacked gradient matmul, one stacked
QR, stacked principal-angle distances and stacked ``sigma_min(W*_I)`` for ``a_t``).

Streams. Replicate j uses the seed ``spawn_seeds(seed, R)[j]`` exactly as a single run does (ground
truth, speed model, initialisation, rounds, compute times and evaluation from its six children, with
the same draws in the same order and shapes), so replicate j equals
``run_srpfl(..., seed=spawn_seeds(seed, R)[j])`` bitwise: the stacked BLAS and LAPACK calls work
slice by slice with the single run's shapes, the labels ``X_i theta_i`` are formed per replicate with
the single run's contraction, and the scalar steps of ``a_t`` and ``E0`` are evaluated as in the single
run. Hence each replicate is exact in law, a given ``(seed, R)`` is bitwise reproducible, and the
numbers do not depend on how the replicates are chunked for memory.

Memory. Replicates run in chunks whose round arrays stay below :data:`CHUNK_BYTES`; results that could
not fit are refused up front (``check_alloc``, naming ``replicates``).

Run-until-target (``target``). Each replicate stops at its own round, exactly as the single run's
loop does (before round t when ``dist_t <= target``), while the others go on; the batch ends when every
replicate has stopped or after ``rounds``. A stopped replicate's streams are not touched any more (the
single run has ended) and it costs nothing: each round works on the still-running replicates only (the
state is compacted when replicates stop). Results are ragged: the arrays keep the full width (R, T+1) /
(R, T) and hold NaN after each replicate's stop (``participants`` 0 and ``stage`` -1, integers), and
``rounds_run`` (R,) gives each replicate's number of rounds; ``res[j]`` is the single run's unpadded
result.

Not supported (needing per-replicate stage schedules or per-round batches): ``stage_lengths="lemma_b1"``
(stage 0 ends when each replicate's own ``dist`` crosses X_1) and ``record_identities``;
:func:`~fedtheory.srpfl.run_srpfl` refuses them with ``replicates``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .._validation import check_alloc, check_iterations
from ..linalg import principal_angle_distance, random_orthonormal
from ..random import SeedLike, as_generator, seed_repr, spawn_seeds
from ..representation.algorithms import _reduced_from_draws, _round_from_features, mom_init, resolve_sampler
from ..representation.model import FedRepModel, make_model
from ..representation.replicates import ReplicateSequence
from .model import SpeedModel, make_speed_model
from .theory import contraction_bound

__all__ = ["SRPFLReplicates", "CHUNK_BYTES"]

#: bytes of round arrays (batches, features, residuals, gradients) one chunk of replicates may hold
CHUNK_BYTES = 256 * 2 ** 20


@dataclass(frozen=True, eq=False)
class SRPFLReplicates(ReplicateSequence):
    """R independent FedRep-SRPFL runs (``run_srpfl(..., replicates=R)``).

    Attributes are those of :class:`~fedtheory.srpfl.algorithms.SRPFLResult` with a leading
    replicate axis: ``dist``, ``wall_clock`` and ``mse`` (R, T+1); ``participants``, ``stage``, ``a``
    and ``bound`` (R, T); ``E0`` and ``eta`` (R,). ``rounds_run`` (R,) is the number of rounds each
    replicate ran (T unless it stopped at ``target``); after it the float arrays hold NaN,
    ``participants`` 0 and ``stage`` -1. ``models`` holds each replicate's ground truth,
    ``speed_models`` its compute-time model, ``seeds`` its seed sequence. ``res[j]`` is replicate j as
    an ``SRPFLResult`` (equal to the single run with seed ``seeds[j]``, unpadded); ``len(res)`` is R
    and iterating yields the replicates.
    """

    dist: np.ndarray
    wall_clock: np.ndarray
    participants: np.ndarray
    stage: np.ndarray
    a: np.ndarray
    bound: np.ndarray
    mse: np.ndarray
    E0: np.ndarray
    eta: np.ndarray
    rounds_run: np.ndarray
    params: dict
    models: tuple = field(repr=False)
    speed_models: tuple = field(repr=False)
    seeds: tuple = field(repr=False)

    def __getitem__(self, j):
        from .algorithms import SRPFLResult

        j = range(len(self))[j]  # IndexError for out of range, negative indices from the end
        params = {**self.params, "eta": float(self.eta[j]), "seed": seed_repr(self.seeds[j]), "replicate": j}
        params.pop("replicates", None)
        params.pop("replicate_seed", None)
        params.pop("chunk", None)
        T = int(self.rounds_run[j])
        # a single run without rounds holds np.array([]) (float) for its per-round integer records
        parts, stage = (self.participants[j, :T], self.stage[j, :T]) if T else (np.array([]), np.array([]))
        return SRPFLResult(dist=self.dist[j, :T + 1], wall_clock=self.wall_clock[j, :T + 1], participants=parts,
                           stage=stage, a=self.a[j, :T], bound=self.bound[j, :T], mse=self.mse[j, :T + 1],
                           identities={}, E0=float(self.E0[j]), eta=float(self.eta[j]), params=params,
                           model=self.models[j])

    @property
    def bound_violations(self) -> np.ndarray:
        """Number of rounds per replicate where ``dist_{t+1}`` exceeds Theorem 4.7's bound, shape (R,)."""
        return np.sum(self.dist[:, 1:] > self.bound * (1 + 1e-12), axis=1)

    def time_to(self, eps: float) -> np.ndarray:
        """Simulated time at which each replicate's ``dist`` first drops to ``eps`` (inf if never), (R,)."""
        hit = self.dist <= eps
        first = np.argmax(hit, axis=1)
        return np.where(hit.any(axis=1), self.wall_clock[np.arange(len(self)), first], math.inf)

    def summary(self) -> str:
        p = self.params
        rows = np.arange(len(self))
        last = self.dist[rows, self.rounds_run]
        T = self.dist.shape[1] - 1
        lo, hi = int(self.rounds_run.min()), int(self.rounds_run.max())
        ran = f"{T} rounds" if lo == hi == T else f"{lo} to {hi} of {T} rounds (target {p.get('target')!r})"
        return (f"{p['schedule']} x {len(self)} replicates: d={p['d']}, k={p['k']}, M={p['M']}, N={p['N']}, "
                f"n0={p['n0']}, m={p['m']}, speeds={p['speeds']!r}; {ran}, final dist "
                f"median {np.median(last):.3g} (min {last.min():.3g}, max {last.max():.3g}), median time "
                f"{np.median(self.wall_clock[rows, self.rounds_run]):.4g}, "
                f"{int(self.bound_violations.sum())} bound violations")

    def __repr__(self) -> str:
        return f"SRPFLReplicates({self.summary()})"


def _chunk_size(R, *, M, N, m, d, k, sampler) -> int:
    """Replicates per chunk: the arrays one chunk holds during a round (the batch or the reduced draws,
    features, labels, noise, residuals and weighted rows, B and its QR, the stacked ground truths, the
    sampled clients and their times) stay below :data:`CHUNK_BYTES`."""
    if sampler == "reduced":
        per = N * m * (2 * k + k + 5) + 10 * d * k
    else:
        per = N * m * (d + 3 * k + 5) + 6 * d * k
    per += M * (d + 2 * k) + N * (k + 4)
    return max(1, min(R, CHUNK_BYTES // (8 * per)))


def _run_replicates(R, *, d, k, M, N, n0, m, sigma, speeds, lam, comm_cost, schedule, sizes, stage_lengths,
                    rounds, eta, head_norm, design, init, resample, carry, speed_variant, straggler_fraction,
                    eval_every, model, sampler, seed: SeedLike, a_stage, target) -> SRPFLReplicates:
    """``run_srpfl(..., replicates=R)`` after its validation (see there)."""
    kept = 8 * (rounds + 1) + 4 + M + (0 if model is not None else M * (d + 2 * k) + d * k)
    check_alloc(R * kept, "the results of the replicates (R x (trajectories, ground truths and speed models))",
                replicates=R, rounds=rounds, M=M, d=d, k=k)
    check_iterations(R * (rounds + 1), "the replicate rounds", replicates=R, rounds=rounds)
    if model is not None and (model.d, model.k, model.n) != (d, k, M):
        raise ValueError(f"`model` has (d, k, M)={(model.d, model.k, model.n)} but the run asks for {(d, k, M)}")
    seeds = spawn_seeds(seed, R)
    children = [spawn_seeds(s, 6) for s in seeds]  # model, speed, init, run, time, eval, as in a single run
    models, sps = [], []
    for ch in children:
        mod = model if model is not None else make_model(d, k, M, sigma=sigma, head_norm=head_norm, design=design,
                                                         seed=ch[0])
        sp = speeds if isinstance(speeds, SpeedModel) else make_speed_model(
            speeds, M, N, lam=lam, variant=speed_variant, straggler_fraction=straggler_fraction, seed=ch[1])
        models.append(mod)
        sps.append(sp)
    from .algorithms import srpfl_default_eta

    etas = np.array([srpfl_default_eta(mod.W_star) if eta is None else eta for mod in models])
    sampler = resolve_sampler(sampler, models[0])
    chunk = _chunk_size(R, M=M, N=N, m=m, d=d, k=k, sampler=sampler)
    keys = ("dist", "wall_clock", "a", "bound", "mse", "E0", "rounds_run")
    out = {key: [] for key in keys}
    for start in range(0, R, chunk):
        idx = range(start, min(R, start + chunk))
        part = _run_chunk([models[j] for j in idx], [sps[j] for j in idx], [children[j] for j in idx],
                          etas[start:start + len(idx)], M=M, N=N, n0=n0, m=m, C=comm_cost / lam, sizes=sizes,
                          stage_lengths=stage_lengths, rounds=rounds, init=init, resample=resample, carry=carry,
                          eval_every=eval_every, sampler=sampler, target=target, first=start)
        for key in keys:
            out[key].append(part[key])
    out = {key: np.concatenate(v) for key, v in out.items()}
    rounds_run = out["rounds_run"]
    if not np.all(np.isfinite(out["wall_clock"][np.arange(R), rounds_run])):
        raise ValueError(f"the simulated clock overflows float64: `lam`={lam!r} too small or `comm_cost`={comm_cost!r} "
                         f"too large (or the `speeds` model's times)")
    parts, stages = _schedule(sizes, stage_lengths, rounds)
    sp0 = sps[0]
    params = dict(schedule="SRPFL" if schedule == "doubling" else "FedRep", d=d, k=k, M=M, N=N,
                  n0=n0, m=m, sigma=models[0].sigma, speeds=sp0.kind, speed_params=sp0.params, lam=lam,
                  comm_cost=comm_cost, stage_lengths=list(stage_lengths), a_stage=a_stage, rounds=rounds,
                  target=target, eta=eta, head_norm=models[0].head_norm, init=init, resample=resample,
                  carry=carry, sampler=sampler, seed=None, replicates=R, replicate_seed=seed_repr(seed), chunk=chunk)
    ran = np.arange(rounds) < rounds_run[:, None]  # the schedule is common; padded after each stop
    return SRPFLReplicates(dist=out["dist"], wall_clock=out["wall_clock"],
                           participants=np.where(ran, parts, 0), stage=np.where(ran, stages, -1), a=out["a"],
                           bound=out["bound"], mse=out["mse"], E0=out["E0"], eta=etas, rounds_run=rounds_run,
                           params=params, models=tuple(models), speed_models=tuple(sps), seeds=tuple(seeds))


def _schedule(sizes, stage_lengths, rounds):
    """Participants and stage index of every round (the single run's stage switching)."""
    parts, stages = np.empty(rounds, dtype=int), np.empty(rounds, dtype=int)
    r, in_stage = 0, 0
    for t in range(rounds):
        if r != len(sizes) - 1 and in_stage >= stage_lengths[r]:
            r, in_stage = r + 1, 0
        parts[t], stages[t] = sizes[r], r
        in_stage += 1
    return parts, stages


def _exact_mse_one(model, B, m, rng):
    from .algorithms import _exact_mse

    return _exact_mse(model, B, m, rng)


def _run_chunk(models, sps, children, etas, *, M, N, n0, m, C, sizes, stage_lengths, rounds, init, resample, carry,
               eval_every, sampler, target=None, first=0) -> dict:
    """Rounds of one chunk of replicates (the arrays of an :class:`SRPFLReplicates`, chunk rows).

    With ``target`` a replicate stops before round t once ``dist_t <= target`` (the single run's test);
    the running replicates' state (iterates, ground truths, steps, streams, sampled clients) is kept
    compacted to the running ones, ``live`` mapping its rows to chunk rows. ``first`` is the chunk's
    first replicate (for messages)."""
    Rc = len(models)
    d, k = models[0].d, models[0].k
    sigma = models[0].sigma
    B_star = np.stack([mod.B_star for mod in models])
    W_star = np.stack([mod.W_star for mod in models])
    theta = np.stack([mod.theta_star for mod in models])
    Bs = []
    for mod, ch in zip(models, children):
        g = as_generator(ch[2])
        if init == "mom":  # the N sampled clients send P_i (Alg. 2, lines 2-3), as in run_srpfl
            sub = FedRepModel(B_star=mod.B_star, W_star=mod.W_star[g.choice(M, N, replace=False)],
                              sigma=mod.sigma, design=mod.design)
            Bs.append(mom_init(sub, m, g))
        else:
            Bs.append(random_orthonormal(g, d, k))
    B = np.stack(Bs)
    del Bs
    rngs = [as_generator(ch[3]) for ch in children]
    rngs_t = [as_generator(ch[4]) for ch in children]
    rngs_e = [as_generator(ch[5]) for ch in children]
    dist = np.full((Rc, rounds + 1), math.nan)
    clock = np.full((Rc, rounds + 1), math.nan)
    clock[:, 0] = 0.0
    mse = np.full((Rc, rounds + 1), math.nan)
    a_arr = np.full((Rc, rounds), math.nan)
    bound = np.full((Rc, rounds), math.nan)
    rounds_run = np.full(Rc, rounds, dtype=int)
    dist[:, 0] = principal_angle_distance(B, B_star)
    E0_full = np.array([1.0 - float(v) ** 2 for v in dist[:, 0]])  # the single run's scalar arithmetic
    E0 = E0_full
    if eval_every:
        mse[:, 0] = [_exact_mse_one(mod, B[j], m, rngs_e[j]) for j, mod in enumerate(models)]
    gaussian = models[0].design == "gaussian"
    live = np.arange(Rc)  # chunk rows of the running replicates (the rows of the compacted state)
    rows = live[:, None]
    bufs: dict = {}
    r, in_stage, active, B_bar_prev = 0, 0, None, None
    for t in range(rounds):
        if target is not None:
            stop = dist[live, t] <= target  # the single run's test, before the round
            if stop.any():
                rounds_run[live[stop]] = t
                keep = ~stop
                live = live[keep]
                if live.size == 0:
                    break
                # compact the running state (only when replicates stop: other rounds pay nothing)
                B, B_star, W_star, theta = B[keep], B_star[keep], W_star[keep], theta[keep]
                etas, E0 = etas[keep], E0[keep]
                if B_bar_prev is not None:
                    B_bar_prev = B_bar_prev[keep]
                if active is not None:
                    active = active[keep]
                kept = np.flatnonzero(keep).tolist()
                models, sps = [models[j] for j in kept], [sps[j] for j in kept]
                rngs, rngs_t, rngs_e = [rngs[j] for j in kept], [rngs_t[j] for j in kept], [rngs_e[j] for j in kept]
                rows = np.arange(live.size)[:, None]
                bufs.clear()
        Rl = live.size
        if r != len(sizes) - 1 and in_stage >= stage_lengths[r]:  # stage switching
            r, in_stage, active = r + 1, 0, None
            if carry == "pre_qr":
                B = B_bar_prev  # Algorithm 2, line 16 as printed: U <- B_bar (not orthonormal)
        if active is None or resample == "round":
            active = np.stack([g.choice(M, size=N, replace=False) for g in rngs])
        times = np.stack([sp.draw(g, active[j]) for j, (sp, g) in enumerate(zip(sps, rngs_t))])
        n = sizes[r]
        order = np.argsort(times, axis=1, kind="stable")
        sel = np.take_along_axis(active, order[:, :n], axis=1)
        round_time = times[rows[:, 0], order[:, n - 1]] + C
        if n not in bufs:
            bufs.clear()
            if sampler == "reduced":
                bufs[n] = (np.empty((Rl, n, m, 2 * k)), np.empty((Rl, n, m)) if sigma > 0 else None,
                           np.empty((Rl, d, k)))
            else:
                bufs[n] = (np.empty((Rl, n * m, d)), np.empty((Rl, n, m)), np.empty((Rl, n, m)) if sigma > 0 else None)
        if sampler == "reduced":
            a, noise, Np = bufs[n]
            for j, g in enumerate(rngs):  # the stream order of _draw_reduced
                g.standard_normal(out=a[j])
                if noise is not None:
                    g.standard_normal(out=noise[j])
                g.standard_normal(out=Np[j])
            rnd = _reduced_from_draws(B, B_star, theta[rows, sel], sigma, a, noise, Np, etas)
        else:
            X, y, noise = bufs[n]
            for j, (mod, g) in enumerate(zip(models, rngs)):  # the stream order of FedRepModel.sample
                if gaussian:
                    g.standard_normal(out=X[j])
                else:
                    X[j] = mod.draw_x(g, (n * m,))
                y[j] = np.einsum("cmd,cd->cm", X[j].reshape(n, m, d), theta[j][sel[j]])
                if noise is not None:
                    g.standard_normal(out=noise[j])
            if noise is not None:
                y += sigma * noise
            rnd = _round_from_features(B, X, (X @ B).reshape(Rl, n, m, k), y, etas)
        B, B_bar_prev = rnd.B_next, rnd.B_bar
        sv = np.linalg.svd(W_star[rows, sel] / math.sqrt(n), compute_uv=False)
        s2 = np.array([v ** 2 for v in sv[:, -1]]) if n >= k else np.zeros(Rl)  # numpy scalar power, as single
        a_t = 0.5 * etas * E0 * s2
        if np.any(a_t >= 1):
            j = int(np.flatnonzero(a_t >= 1)[0])
            raise ValueError(f"the step `eta`={etas[j]:g} gives a_t = eta E0 sigma_min^2/2 = {a_t[j]:.4g} >= 1 at round "
                             f"{t} (replicate {first + int(live[j])} of `replicates`); Theorem 4.7 needs "
                             "eta <= 1/(8 sigma_max,*^2) (the default)")
        a_arr[live, t] = a_t
        pos = a_t > 0
        bnd = np.full(Rl, math.inf)
        if np.any(pos):
            bnd[pos] = contraction_bound(dist[live[pos], t], a_t[pos], n / n0)
        bound[live, t] = bnd
        dist[live, t + 1] = principal_angle_distance(B, B_star)
        clock[live, t + 1] = clock[live, t] + round_time
        if eval_every and (t + 1) % eval_every == 0:
            mse[live, t + 1] = [_exact_mse_one(mod, B[j], m, rngs_e[j]) for j, mod in enumerate(models)]
        in_stage += 1
    return dict(dist=dist, wall_clock=clock, a=a_arr, bound=bound, mse=mse, E0=E0_full, rounds_run=rounds_run)
