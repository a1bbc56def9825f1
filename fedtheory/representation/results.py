"""Results of the exact FedRep runs and rounds (Collins, Hassani, Mokhtari and Shakkottai, ICML 2021).

* :class:`FedRepResult` - one run of FedRep (Algorithm 2) or of GD-GD / 10GD-GD (Sec. 5.1);
* :class:`FedAvgResult` - one run of FedAvg on the single-model objective (4);
* :class:`RoundResult` - one round of Algorithm 2 (the heads, residuals and the averaged and QR-factored
  representation).

The batched results of ``replicates=R`` runs are in :mod:`fedtheory.representation.replicates`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from .model import FedRepModel

__all__ = ["FedRepResult", "FedAvgResult", "RoundResult"]


@dataclass(frozen=True, eq=False)
class FedRepResult:
    """Trajectory of one FedRep (or GD-GD) run.

    Attributes
    ----------
    dist : ndarray (rounds+1,)
        ``dist(B^t, B*)`` for t = 0..rounds (Definition 1).
    objective : ndarray (rounds+1,)
        Population objective (6) at ``(B^t, W^t)``; heads start at 0 and
        non-selected clients keep their last head.
    batch_loss : ndarray (rounds,)
        Mean over the selected clients of the batch loss (7) after the head update.
    B : ndarray (d, k)
        Final representation.
    W : ndarray (n, k)
        Final heads.
    B0 : ndarray (d, k)
        Initial representation.
    eval_mse : float
        Test MSE on fresh data after every client re-fits its head on the final
        ``B`` from ``m`` fresh samples (NaN when ``m_test=0``).
    eta : float
        Step size used on ``B``.
    params : dict
        All run parameters (for provenance).
    model : FedRepModel
        The ground truth.
    """

    dist: np.ndarray
    objective: np.ndarray
    batch_loss: np.ndarray
    B: np.ndarray
    W: np.ndarray
    B0: np.ndarray
    eval_mse: float
    eta: float
    params: dict
    model: FedRepModel = field(repr=False)

    @property
    def E0(self) -> float:
        """``1 - dist(B^0, B*)^2`` (Theorem 1)."""
        return 1.0 - float(self.dist[0]) ** 2

    def summary(self) -> str:
        p = self.params
        return (f"{p.get('algorithm', 'FedRep')} run: d={p['d']}, k={p['k']}, n={p['n']}, "
                f"m={p['m']}, r={p['r']}, rounds={p['rounds']}, eta={self.eta:.4g}; "
                f"dist {self.dist[0]:.3g} -> {self.dist[-1]:.3g}, eval MSE {self.eval_mse:.3g}")

    def __repr__(self) -> str:
        return f"FedRepResult({self.summary()})"


@dataclass(frozen=True, eq=False)
class FedAvgResult:
    """Trajectory of one FedAvg run on the single-model objective (4).

    ``dist`` tracks ``dist(B^t, B*)``, ``objective`` the population objective (4)
    ``(1/2n) sum_i ||B w - B* w_i*||^2 + sigma^2/2``; ``eval_mse`` is the test MSE
    after per-client head fine-tuning on the learned ``B`` (FedAvg+FT, as in
    FedRep Sec. 5.1, Figure 4).
    """

    dist: np.ndarray
    objective: np.ndarray
    B: np.ndarray
    w: np.ndarray
    eval_mse: float
    params: dict
    model: FedRepModel = field(repr=False)

    def summary(self) -> str:
        return (f"FedAvg run: objective {self.objective[0]:.3g} -> {self.objective[-1]:.3g}, "
                f"dist(B, B*) {self.dist[-1]:.3g}, eval MSE (+FT) {self.eval_mse:.3g}")

    def __repr__(self) -> str:
        return f"FedAvgResult({self.summary()})"


class RoundResult(NamedTuple):
    """One FedRep round: ``B_next`` (QR factor, or ``B_bar`` if QR is off), the averaged
    pre-QR ``B_bar``, the triangular factor ``R`` (``B_bar = B_next R``; identity if QR is
    off), the heads ``w`` (c, k) and the residuals ``X_i B w_i - y_i`` (c, m)."""

    B_next: np.ndarray
    B_bar: np.ndarray
    R: np.ndarray
    w: np.ndarray
    resid: np.ndarray
