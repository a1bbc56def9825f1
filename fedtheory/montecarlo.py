"""Monte Carlo estimates with standard errors and confidence intervals.

Estimates are vectorised across replications: a *sampler* draws a whole block of
replications at once (``BLOCK`` = 4096 by default), which bounds the memory. Block ``j``
draws from child ``j`` of one ``SeedSequence``, so the same seed reproduces the same numbers
on every machine, and the memory chunk size never changes them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np
from scipy import stats

from ._validation import check_int, check_real
from .random import SeedLike, as_generator, spawn_seeds

__all__ = ["Estimate", "ProportionEstimate", "mc_mean", "estimate_from_samples",
           "proportion_estimate"]


@dataclass(frozen=True)
class Estimate:
    """A Monte Carlo mean with its uncertainty.

    Attributes
    ----------
    mean : ndarray or float
        Sample mean (elementwise for vector-valued replications).
    se : ndarray or float
        Standard error of the mean, ``std(ddof=1)/sqrt(n)``.
    ci_low, ci_high : ndarray or float
        Two-sided Student-t confidence interval at ``confidence``.
    n : int
        Number of replications.
    confidence : float
        Confidence level of the interval.

    Unpacks as ``mean, se = estimate``.
    """

    mean: np.ndarray | float
    se: np.ndarray | float
    ci_low: np.ndarray | float
    ci_high: np.ndarray | float
    n: int
    confidence: float = 0.99

    def __iter__(self):
        return iter((self.mean, self.se))

    def covers(self, value, atol: float = 0.0) -> np.ndarray | bool:
        """Whether ``value`` lies inside the interval (widened by ``atol``)."""
        value = np.asarray(value, dtype=float)
        out = (self.ci_low - atol <= value) & (value <= self.ci_high + atol)
        return bool(out) if np.ndim(out) == 0 else out

    def z_score(self, value) -> np.ndarray | float:
        """``(mean - value) / se``; 0 where both the difference and ``se`` vanish."""
        diff = np.asarray(self.mean, dtype=float) - np.asarray(value, dtype=float)
        se = np.asarray(self.se, dtype=float)
        with np.errstate(divide="ignore", invalid="ignore"):
            z = np.where(se > 0, diff / np.where(se > 0, se, 1.0),
                         np.where(diff == 0, 0.0, np.inf * np.sign(diff)))
        return float(z) if z.ndim == 0 else z

    def summary(self) -> str:
        m = np.asarray(self.mean)
        if m.ndim == 0:
            return (f"estimate {float(self.mean):.6g} (se {float(self.se):.3g}), "
                    f"{100 * self.confidence:g}% CI [{float(self.ci_low):.6g}, "
                    f"{float(self.ci_high):.6g}], n={self.n}")
        return (f"vector estimate of shape {m.shape}, max se {np.max(self.se):.3g}, "
                f"n={self.n}, {100 * self.confidence:g}% CIs")

    def __repr__(self) -> str:
        return f"Estimate({self.summary()})"


def estimate_from_samples(samples: np.ndarray, confidence: float = 0.99) -> Estimate:
    """Build an :class:`Estimate` from replications along axis 0."""
    x = np.asarray(samples, dtype=float)
    n = x.shape[0]
    if n < 2:
        raise ValueError(f"`samples` must hold at least 2 replications; got {n}")
    mean = x.mean(axis=0)
    se = x.std(axis=0, ddof=1) / np.sqrt(n)
    q = stats.t.ppf(0.5 + confidence / 2, df=n - 1)
    lo, hi = mean - q * se, mean + q * se
    if mean.ndim == 0:
        mean, se, lo, hi = float(mean), float(se), float(lo), float(hi)
    return Estimate(mean=mean, se=se, ci_low=lo, ci_high=hi, n=n, confidence=confidence)


BLOCK = 4096  #: replications per vectorised sampler call; each block has its own stream


def mc_mean(sampler: Callable[[np.random.Generator, int], np.ndarray], n_samples: int,
            seed: SeedLike, chunk: int | None = None, confidence: float = 0.99,
            block: int = BLOCK) -> Estimate:
    """Monte Carlo mean of ``sampler`` over ``n_samples`` replications.

    Parameters
    ----------
    sampler : callable ``(rng, size) -> ndarray`` of shape ``(size, ...)``
        Draws ``size`` independent replications at once (vectorised).
    n_samples : int
        Number of replications, >= 2.
    seed : int, SeedSequence or Generator
        Base seed; replication block ``j`` (replications ``j*block .. (j+1)*block - 1``) draws from
        child ``j`` of ``SeedSequence.spawn``.
    chunk : int, optional
        Accepted for compatibility and validated; the memory of one sampler call is bounded by
        ``block`` replications, and the numbers never depend on ``chunk``.
    confidence : float
        Level of the Student-t confidence interval.
    block : int
        Replications per sampler call and per random stream (default 4096). The numbers depend on
        ``(seed, n_samples, block)`` only.

    Returns
    -------
    Estimate
        Computed from per-block sums folded in block order (no replication array is kept).
    """
    n_samples = check_int(n_samples, "n_samples", 2)
    block = check_int(block, "block", 1)
    if chunk is not None:
        check_int(chunk, "chunk", 1)
    confidence = check_real(confidence, "confidence", 0, 1, True, True)
    n_blocks = -(-n_samples // block)
    s1 = s2 = shift = None
    for j, ss in enumerate(spawn_seeds(seed, n_blocks)):
        size = min(block, n_samples - j * block)
        x = np.asarray(sampler(as_generator(ss), size), dtype=float)
        if x.shape[0] != size:
            raise ValueError(f"`sampler` must return {size} replications along axis 0; "
                             f"got shape {x.shape}")
        if shift is None:
            shift = x[0].copy()  # shifted sums for numerical stability
            s1 = np.zeros_like(shift)
            s2 = np.zeros_like(shift)
        y = x - shift
        s1 = s1 + y.sum(axis=0)
        s2 = s2 + (y * y).sum(axis=0)
    n = n_samples
    mean_y = s1 / n
    var = np.maximum((s2 - n * mean_y ** 2) / (n - 1), 0.0)
    mean = mean_y + shift
    se = np.sqrt(var / n)
    q = stats.t.ppf(0.5 + confidence / 2, df=n - 1)
    lo, hi = mean - q * se, mean + q * se
    if np.ndim(mean) == 0:
        mean, se, lo, hi = float(mean), float(se), float(lo), float(hi)
    return Estimate(mean=mean, se=se, ci_low=lo, ci_high=hi, n=n, confidence=confidence)


@dataclass(frozen=True)
class ProportionEstimate:
    """A binomial proportion with an exact (Clopper-Pearson) or Wilson interval.

    Unpacks as ``p_hat, (ci_low, ci_high) = estimate``.
    """

    successes: int
    n: int
    p_hat: float
    ci_low: float
    ci_high: float
    confidence: float
    method: str = "beta"

    def __iter__(self):
        return iter((self.p_hat, (self.ci_low, self.ci_high)))

    def summary(self) -> str:
        name = {"beta": "Clopper-Pearson", "wilson": "Wilson"}.get(self.method, self.method)
        return (f"{self.successes}/{self.n} = {self.p_hat:.4g}, {100 * self.confidence:g}% "
                f"{name} CI [{self.ci_low:.4g}, {self.ci_high:.4g}]")

    def __repr__(self) -> str:
        return f"ProportionEstimate({self.summary()})"


def proportion_estimate(successes: int, n: int, confidence: float = 0.99,
                        method: str = "beta") -> ProportionEstimate:
    """Proportion ``successes/n`` with a statsmodels ``proportion_confint`` interval.

    ``method="beta"`` is the exact Clopper-Pearson interval, ``"wilson"`` the
    Wilson score interval.
    """
    from statsmodels.stats.proportion import proportion_confint

    n = check_int(n, "n", 1)
    successes = check_int(successes, "successes", 0, n)
    confidence = check_real(confidence, "confidence", 0, 1, True, True)
    if method not in ("beta", "wilson"):
        raise ValueError(f"`method` must be one of: 'beta', 'wilson'; got {method!r}")
    lo, hi = proportion_confint(successes, n, alpha=1 - confidence, method=method)
    return ProportionEstimate(successes=successes, n=n, p_hat=successes / n,
                              ci_low=float(lo), ci_high=float(hi), confidence=confidence,
                              method=method)
