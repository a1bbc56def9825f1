"""Results of replicate batches of exact FedRep and FedAvg runs (``replicates=R``), and their memory chunks.

R independent runs of FedRep (Collins, Hassani, Mokhtari and Shakkottai, ICML 2021, Algorithm 2) or of
FedAvg advance together in the engine of :mod:`fedtheory.representation._engine` (a single run is the
batch with R = 1): every round draws each replicate's selection and batch from that replicate's own
stream, then does the algebra of all R rounds at once (one stacked matmul for ``X [B | B*]``, one
batched k x k solve for the heads, one stacked matmul for the gradient, one stacked QR).

Streams. Replicate j uses the seed ``spawn_seeds(seed, R)[j]`` exactly as a single run does (ground
truth, initialisation, rounds and evaluation from its four children, in the same order and shapes),
so replicate j equals ``run_fedrep(..., seed=spawn_seeds(seed, R)[j])`` bitwise (stacked BLAS and
LAPACK calls work slice by slice). Hence each replicate is exact in law, a given ``(seed, R)`` is
bitwise reproducible, and the numbers do not depend on how the replicates are chunked for memory.

Memory. Replicates run in chunks whose arrays stay below :data:`CHUNK_BYTES`; a run whose single
replicate would not fit is refused by the same guards as a single run, before anything is drawn.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._validation import check_instance
from ..random import seed_repr
from .model import FedRepModel, make_model
from .results import FedAvgResult, FedRepResult

__all__ = ["FedRepReplicates", "FedAvgReplicates", "CHUNK_BYTES"]

#: bytes of round arrays (batches, features, gradients) one chunk of replicates may hold
CHUNK_BYTES = 256 * 2 ** 20


class ReplicateSequence:
    """Sequence behaviour shared by the replicate results: ``len`` is R (the leading axis of
    ``dist``), iteration yields ``self[j]`` for j = 0..R-1."""

    def __len__(self) -> int:
        return self.dist.shape[0]

    def __iter__(self):
        return (self[j] for j in range(len(self)))


@dataclass(frozen=True, eq=False)
class FedRepReplicates(ReplicateSequence):
    """R independent FedRep runs (``run_fedrep(..., replicates=R)``).

    Attributes are those of :class:`~fedtheory.representation.results.FedRepResult` with a
    leading replicate axis: ``dist`` and ``objective`` (R, rounds+1), ``batch_loss`` (R, rounds),
    ``B`` and ``B0`` (R, d, k), ``W`` (R, n, k), ``eval_mse`` and ``eta`` (R,). ``models`` holds each
    replicate's ground truth, ``seeds`` its seed sequence. ``res[j]`` is replicate j as a
    ``FedRepResult``; ``len(res)`` is R and iterating yields the replicates.
    """

    dist: np.ndarray
    objective: np.ndarray
    batch_loss: np.ndarray
    B: np.ndarray
    W: np.ndarray
    B0: np.ndarray
    eval_mse: np.ndarray
    eta: np.ndarray
    params: dict
    models: tuple = field(repr=False)
    seeds: tuple = field(repr=False)

    def __getitem__(self, j) -> FedRepResult:
        j = range(len(self))[j]  # IndexError for out of range, negative indices from the end
        return FedRepResult(dist=self.dist[j], objective=self.objective[j], batch_loss=self.batch_loss[j],
                            B=self.B[j], W=self.W[j], B0=self.B0[j], eval_mse=float(self.eval_mse[j]),
                            eta=float(self.eta[j]),
                            params={**self.params, "eta": float(self.eta[j]), "seed": seed_repr(self.seeds[j]),
                                    "replicate": j},
                            model=self.models[j])

    @property
    def E0(self) -> np.ndarray:
        """``1 - dist(B^0, B*)^2`` per replicate (Theorem 1)."""
        return 1.0 - self.dist[:, 0] ** 2

    def summary(self) -> str:
        p = self.params
        last = self.dist[:, -1]
        return (f"{p.get('algorithm', 'FedRep')} x {len(self)} replicates: d={p['d']}, k={p['k']}, n={p['n']}, "
                f"m={p['m']}, r={p['r']}, rounds={p['rounds']}; final dist median {np.median(last):.3g} "
                f"(min {last.min():.3g}, max {last.max():.3g})")

    def __repr__(self) -> str:
        return f"FedRepReplicates({self.summary()})"


@dataclass(frozen=True, eq=False)
class FedAvgReplicates(ReplicateSequence):
    """R independent FedAvg runs (``run_fedavg(..., replicates=R)``): the arrays of
    :class:`~fedtheory.representation.results.FedAvgResult` with a leading replicate axis
    (``dist``, ``objective`` (R, rounds+1), ``B`` (R, d, k), ``w`` (R, k), ``eval_mse`` (R,));
    ``res[j]`` is replicate j as a ``FedAvgResult``."""

    dist: np.ndarray
    objective: np.ndarray
    B: np.ndarray
    w: np.ndarray
    eval_mse: np.ndarray
    params: dict
    models: tuple = field(repr=False)
    seeds: tuple = field(repr=False)

    def __getitem__(self, j) -> FedAvgResult:
        j = range(len(self))[j]
        return FedAvgResult(dist=self.dist[j], objective=self.objective[j], B=self.B[j], w=self.w[j],
                            eval_mse=float(self.eval_mse[j]),
                            params={**self.params, "seed": seed_repr(self.seeds[j]), "replicate": j},
                            model=self.models[j])

    def summary(self) -> str:
        last = self.objective[:, -1]
        return (f"FedAvg x {len(self)} replicates: final objective median {np.median(last):.3g}, "
                f"final dist(B, B*) median {np.median(self.dist[:, -1]):.3g}")

    def __repr__(self) -> str:
        return f"FedAvgReplicates({self.summary()})"


def _replicate_models(model, children, *, d, k, n, sigma, head_norm, design) -> list:
    """One ground truth per replicate: drawn from replicate j's model stream (``model`` None), the
    given model for every replicate, or ``model[j]`` from a sequence of ``len(children)`` models."""
    if model is None:
        return [make_model(d, k, n, sigma=sigma, head_norm=head_norm, design=design, seed=ch[0]) for ch in children]
    if not isinstance(model, (list, tuple)):
        return [model] * len(children)
    if len(model) != len(children):
        raise ValueError(f"`model` as a sequence needs one FedRepModel per replicate ({len(children)}); "
                         f"got {len(model)}")
    for j, mod in enumerate(model):
        check_instance(mod, f"model[{j}]", FedRepModel)
        if (mod.d, mod.k, mod.n) != (d, k, n):
            raise ValueError(f"`model[{j}]` has (d, k, n)={(mod.d, mod.k, mod.n)} but the run asks for {(d, k, n)}")
    return list(model)


def _chunk_size(R, *, n, n_sel, m, d, k, fresh_batches, sampler) -> int:
    """Replicates per chunk: the arrays one chunk holds during a round (the batch, its features,
    labels, residuals and weighted rows, the stacked ground truths, the fixed dataset if any) stay
    below :data:`CHUNK_BYTES`."""
    c = n_sel
    if sampler == "reduced":
        per = c * m * (2 * k + k + 4) + 6 * d * k
    else:
        per = c * m * (d + 5 * k + 4) + 2 * d * k
    per += n * (2 * d + 2 * k) + (n * m * (d + 1) if not fresh_batches else 0)
    return max(1, min(R, CHUNK_BYTES // (8 * per)))


def _fedavg_chunk_size(R, *, n, n_sel, m, d, k, fresh_batches) -> int:
    """Replicates per chunk of a FedAvg batch: per replicate and round, the batch, its features and
    the per-client copies of B and their gradients, the ground truths and the fixed dataset if any,
    below :data:`CHUNK_BYTES`."""
    per = n_sel * m * (d + 2 * k + 2) + 3 * n_sel * d * k + n * (2 * d + k) + (n * m * (d + 1) if not fresh_batches
                                                                                  else 0)
    return max(1, min(R, CHUNK_BYTES // (8 * per)))
