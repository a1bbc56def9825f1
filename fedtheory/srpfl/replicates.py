"""Replicate batches of exact FedRep-SRPFL runs (``run_srpfl(..., replicates=R)``): results and memory chunks.

R independent runs of FedRep-SRPFL (Algorithm 2 of Tziotis et al., TMLR; or the FedRep baseline,
``schedule="all"``) advance together. The stage schedule (participants per round, stage switches)
is deterministic for integer or list ``stage_lengths``, so every replicate aggregates the same number
of clients in the same round; what differs is drawn from each replicate's own streams in a Python
loop (client sampling, compute times, batches), and the algebra of all R rounds is done at once (one
stacked ``X B`` matmul, one batched k x k head solve, one stacked gradient matmul, one stacked QR,
stacked principal-angle distances and stacked ``sigma_min(W*_I)`` for ``a_t``) by the engine of
:mod:`fedtheory.srpfl._engine`, whose single run is the batch with R = 1.

Streams. Replicate j uses the seed ``spawn_seeds(seed, R)[j]`` exactly as a single run does (ground
truth, speed model, initialisation, rounds, compute times and evaluation from its six children, with
the same draws in the same order and shapes), so replicate j equals
``run_srpfl(..., seed=spawn_seeds(seed, R)[j])`` bitwise: both are the same engine, whose stacked BLAS
and LAPACK calls work slice by slice, whose labels ``X_i theta_i`` are formed per replicate and whose
scalar steps of ``a_t`` and ``E0`` are evaluated per replicate. Hence each replicate is exact in law, a
given ``(seed, R)`` is bitwise reproducible, and the numbers do not depend on how the replicates are
chunked for memory.

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

from ..random import seed_repr
from ..representation.replicates import ReplicateSequence
from .results import SRPFLResult, batch_size_text

__all__ = ["SRPFLReplicates", "CHUNK_BYTES"]

#: bytes of round arrays (batches, features, residuals, gradients) one chunk of replicates may hold
CHUNK_BYTES = 256 * 2 ** 20


@dataclass(frozen=True, eq=False)
class SRPFLReplicates(ReplicateSequence):
    """R independent FedRep-SRPFL runs (``run_srpfl(..., replicates=R)``).

    Attributes are those of :class:`~fedtheory.srpfl.results.SRPFLResult` with a leading
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

    def __getitem__(self, j) -> SRPFLResult:
        j = range(len(self))[j]  # IndexError for out of range, negative indices from the end
        params = {**self.params, "eta": float(self.eta[j]), "seed": seed_repr(self.seeds[j]), "replicate": j}
        params.pop("replicates", None)
        params.pop("replicate_seed", None)
        params.pop("chunk", None)
        if isinstance(params.get("m"), list) and params["m"] and isinstance(params["m"][0], list):
            params["m"] = params["m"][j]  # per-client batch sizes, one row per replicate
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
                f"n0={p['n0']}, m={batch_size_text(p['m'])}, speeds={p['speeds']!r}; {ran}, final dist "
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
