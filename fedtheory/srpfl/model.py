"""Data and compute-time models of SRPFL.

The data model is FedRep's (:class:`fedtheory.representation.FedRepModel`, with M
clients): SRPFL (Tziotis et al., TMLR) Sec. 4.1, ``y = w_i*^T B*^T x + z``,
``z ~ N(0, sigma^2)``.

Compute times (Sec. 5 and App. C of Tziotis et al., TMLR; Thm 4.9's model):

``"fixed"``
    one Exp(lam) time per client, drawn once and kept (the papers' "fixed" speeds);
``"dynamic"``
    per-client rates ``lam_i ~ U[1/M, 1]`` (TMLR, ``variant="tmlr"``) or ``U[1/N, 1]``
    (arXiv, ``variant="arxiv"``) drawn once, then a fresh Exp(lam_i) time every round;
``"iid"``
    a fresh Exp(lam) time for every client every round (Theorem 4.9's model);
``"mixture"``
    a fraction ``straggler_fraction`` of the clients are stragglers; every round each
    client draws a fresh exponential time with mean ``fast_mean`` (0.1) or ``slow_mean``
    (10). The TMLR Fig. 8 text gives "lambda = 0.1" for fast and "lambda = 10" for
    stragglers, which under the rate convention used elsewhere would make the
    stragglers faster; we read them as means (documented erratum).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .._validation import check_alloc, check_choice, check_int, check_real
from .._validation import guard_module as _guard_module
from ..random import SeedLike, as_generator

__all__ = ["SPEEDS", "SpeedModel", "make_speed_model"]

SPEEDS = ("fixed", "dynamic", "iid", "mixture")


@dataclass(frozen=True, eq=False)
class SpeedModel:
    """Per-client compute-time model; ``draw(rng, clients)`` gives this round's times."""

    kind: str
    lam: float
    M: int
    params: dict = field(default_factory=dict)
    fixed_times: np.ndarray | None = field(default=None, repr=False)
    rates: np.ndarray | None = field(default=None, repr=False)

    def draw(self, rng: np.random.Generator, clients: np.ndarray) -> np.ndarray:
        if self.kind == "fixed":
            return self.fixed_times[clients]
        if self.kind == "iid":
            return rng.exponential(1.0 / self.lam, size=clients.size)
        return rng.exponential(1.0, size=clients.size) / self.rates[clients]

    def summary(self) -> str:
        return f"SpeedModel(kind={self.kind!r}, lam={self.lam:g}, M={self.M}, {self.params})"

    __repr__ = summary


def make_speed_model(kind: str, M: int, N: int, *, lam: float = 1.0, variant: str = "tmlr",
                     straggler_fraction: float = 0.2, fast_mean: float = 0.1,
                     slow_mean: float = 10.0, seed: SeedLike = 0) -> SpeedModel:
    """Build a :class:`SpeedModel` (see the module docstring for the kinds).

    Parameters
    ----------
    kind : {"fixed", "dynamic", "iid", "mixture"}
    M, N : int
        Clients in total and sampled per stage, ``1 <= N <= M``.
    lam : float
        Exponential rate, > 0.
    variant : {"tmlr", "arxiv"}
        Range of the dynamic rates.
    straggler_fraction : float
        In [0, 1] (mixture).
    fast_mean, slow_mean : float
        Mean times of the mixture, > 0.
    seed : int, SeedSequence or Generator
    """
    check_choice(kind, "kind", SPEEDS)
    M = check_int(M, "M", 1)
    N = check_int(N, "N", 1, M, why=f"N <= M, M={M}")
    lam = check_real(lam, "lam", 0, low_open=True, why="exponential rate")
    if not math.isfinite(1.0 / lam):
        raise ValueError(f"`lam` too small: the mean time 1/lam overflows float64; got lam={lam!r}")
    check_choice(variant, "variant", ("tmlr", "arxiv"))
    f = check_real(straggler_fraction, "straggler_fraction", 0, 1)
    check_real(fast_mean, "fast_mean", 0, low_open=True)
    check_real(slow_mean, "slow_mean", 0, low_open=True)
    check_alloc(M, "the per-client times or rates", M=M)
    rng = as_generator(seed)
    if kind == "fixed":
        return SpeedModel(kind, lam, M, {}, fixed_times=rng.exponential(1.0 / lam, size=M))
    if kind == "iid":
        return SpeedModel(kind, lam, M, {})
    if kind == "dynamic":
        low = 1.0 / (M if variant == "tmlr" else N)
        return SpeedModel(kind, lam, M, {"variant": variant, "rate_low": low},
                          rates=rng.uniform(low, 1.0, size=M))
    n_slow = int(round(f * M))
    slow = np.zeros(M, bool)
    slow[rng.choice(M, size=n_slow, replace=False)] = True
    rates = np.where(slow, 1.0 / slow_mean, 1.0 / fast_mean)
    return SpeedModel(kind, lam, M, {"straggler_fraction": f, "fast_mean": fast_mean,
                                     "slow_mean": slow_mean}, rates=rates)


# every public function turns float64 overflows, linear-algebra failures and broadcasting errors
# into ValueErrors naming its parameters (fedtheory._validation.guard_numeric_errors)
_guard_module(globals(), __all__)
