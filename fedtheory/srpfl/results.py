"""Result of one exact FedRep-SRPFL run (Tziotis, Shen, Pedarsani, Hassani and Mokhtari, TMLR).

:class:`SRPFLResult` holds the trajectory of :func:`~fedtheory.srpfl.run_srpfl` (Algorithm 2, or the
FedRep baseline with ``schedule="all"``) on a simulated wall clock; the batched result of
``replicates=R`` runs is :class:`~fedtheory.srpfl.replicates.SRPFLReplicates`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..representation.model import FedRepModel

__all__ = ["SRPFLResult"]


def batch_size_text(m) -> str:
    """``m`` of a run's parameters for its summary: the integer, or the range of per-client batch sizes (a list,
    or a list of rows per replicate; App. C's imbalanced datasets of Tziotis et al., TMLR 2023)."""
    if isinstance(m, (list, tuple, np.ndarray)):
        arr = np.asarray(m)
        return f"per-client {int(arr.min())}..{int(arr.max())}" if arr.size else "per-client"
    return str(m)


@dataclass(frozen=True, eq=False)
class SRPFLResult:
    """Trajectory of one FedRep-SRPFL (or FedRep, ``schedule="all"``) run.

    Attributes
    ----------
    dist : ndarray (T+1,)
        ``dist(B^t, B*)``, t = 0..T.
    wall_clock : ndarray (T+1,)
        Cumulative simulated time (0 at t = 0).
    participants : ndarray (T,)
        Number of clients aggregated in each round.
    stage : ndarray (T,)
        Stage index r of each round.
    a : ndarray (T,)
        ``a_t = eta E0 sigma_min^2(W*_I / sqrt(n)) / 2`` from the actual participating set I.
    bound : ndarray (T,)
        Theorem 4.7's right side ``dist_t sqrt(1-a_t) + a_t / sqrt((n_t/n0)(1-a_t))``.
    mse : ndarray (T+1,)
        Exact expected test MSE after every client re-fits its head on ``B^t`` from ``m``
        fresh samples (NaN where not evaluated).
    identities : dict of ndarray
        Appendix A residuals and inequality sides per round (``record_identities=True``).
    E0, eta : float
    params : dict
        The run's arguments; ``m`` is an int, or a list of the M per-client batch sizes.
    model : FedRepModel
    """

    dist: np.ndarray
    wall_clock: np.ndarray
    participants: np.ndarray
    stage: np.ndarray
    a: np.ndarray
    bound: np.ndarray
    mse: np.ndarray
    identities: dict
    E0: float
    eta: float
    params: dict
    model: FedRepModel = field(repr=False)

    @property
    def bound_violations(self) -> np.ndarray:
        """Rounds t (0-based) where ``dist_{t+1}`` exceeds Theorem 4.7's bound."""
        return np.flatnonzero(self.dist[1:] > self.bound * (1 + 1e-12))

    def time_to(self, eps: float) -> float:
        """Simulated time at which ``dist`` first drops to ``eps`` (inf if never)."""
        hit = np.flatnonzero(self.dist <= eps)
        return float(self.wall_clock[hit[0]]) if hit.size else math.inf

    def summary(self) -> str:
        p = self.params
        return (f"{p['schedule']} run: d={p['d']}, k={p['k']}, M={p['M']}, N={p['N']}, n0={p['n0']}, "
                f"m={batch_size_text(p['m'])}, speeds={p['speeds']!r}; {self.dist.size - 1} rounds, dist "
                f"{self.dist[0]:.3g} -> {self.dist[-1]:.3g}, time {self.wall_clock[-1]:.4g}, "
                f"{self.bound_violations.size} bound violations")

    def __repr__(self) -> str:
        return f"SRPFLResult({self.summary()})"
