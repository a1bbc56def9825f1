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

from ._validation import guard_module as _guard_module
from ._validation import (check_alloc, check_callable, check_choice, check_finite_array, check_int,
                          check_real)
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
    """Build an :class:`Estimate` from replications along axis 0.

    Parameters
    ----------
    samples : array_like, shape (n, ...)
        Finite replications along axis 0, ``n >= 2``.
    confidence : float
        Level of the Student-t interval, in (0, 1).

    Raises
    ------
    ValueError
        A NaN or inf sample, fewer than 2 replications, or ``confidence`` outside (0, 1).
    """
    x = check_finite_array(samples, "samples")
    confidence = check_real(confidence, "confidence", 0, 1, True, True)
    n = x.shape[0] if x.ndim else 1
    if n < 2:
        raise ValueError(f"`samples` must hold at least 2 replications; got {n}")
    mean = x.mean(axis=0)
    se = x.std(axis=0, ddof=1) / np.sqrt(n)
    q = stats.t.ppf(0.5 + confidence / 2, df=n - 1)
    lo, hi = mean - q * se, mean + q * se
    if not (np.all(np.isfinite(se)) and np.all(np.isfinite(lo)) and np.all(np.isfinite(hi))):
        raise ValueError("the estimate of `samples` overflows float64 (their spread is too large in magnitude)")
    if mean.ndim == 0:
        mean, se, lo, hi = float(mean), float(se), float(lo), float(hi)
    return Estimate(mean=mean, se=se, ci_low=lo, ci_high=hi, n=n, confidence=confidence)


BLOCK = 4096  #: replications per vectorised sampler call; each block has its own stream
#: bytes of one spawned ``SeedSequence`` in the list of block streams (measured: about 380)
_SEED_BYTES = 400


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

    Raises
    ------
    ValueError
        ``n_samples < 2``; a number of blocks whose list of random streams would exceed the memory
        guard (:data:`fedtheory._validation.MAX_ARRAY_BYTES`), or a ``block`` whose one sampler call
        would; a sampler that returns the wrong number of replications or a NaN/inf.
    TypeError
        ``sampler`` is not callable.

    Examples
    --------
    ``E z^2 = 1`` for a standard normal ``z``, from 100 000 replications:

    >>> from fedtheory.montecarlo import mc_mean
    >>> est = mc_mean(lambda rng, size: rng.standard_normal(size) ** 2, 100_000, seed=0)
    >>> est
    Estimate(estimate 1.00279 (se 0.00449), 99% CI [0.991232, 1.01435], n=100000)
    >>> est.covers(1.0)
    True
    """
    check_callable(sampler, "sampler")
    n_samples = check_int(n_samples, "n_samples", 2)
    block = check_int(block, "block", 1)
    if chunk is not None:
        check_int(chunk, "chunk", 1)
    confidence = check_real(confidence, "confidence", 0, 1, True, True)
    n_blocks = -(-n_samples // block)
    check_alloc(n_blocks, f"the {n_blocks} per-block random streams", itemsize=_SEED_BYTES,
                n_samples=n_samples, block=block)
    check_alloc(min(block, n_samples), "one sampler call (at least 8 bytes per replication)",
                n_samples=n_samples, block=block)
    s1 = s2 = shift = None
    for j, ss in enumerate(spawn_seeds(seed, n_blocks)):
        size = min(block, n_samples - j * block)
        try:
            x = np.asarray(sampler(as_generator(ss), size), dtype=float)
        except (TypeError, ValueError) as exc:
            if "sampler" in str(exc):
                raise
            raise (TypeError if isinstance(exc, TypeError) else ValueError)(
                f"`sampler` raised {type(exc).__name__}: {exc}") from exc
        if x.ndim == 0 or x.shape[0] != size:
            raise ValueError(f"`sampler` must return {size} replications along axis 0; "
                             f"got shape {x.shape}")
        if not np.all(np.isfinite(x)):
            raise ValueError(f"`sampler` returned a NaN or inf in block {j} ({int(np.sum(~np.isfinite(x)))} "
                             f"entries); a Monte Carlo mean of non-finite replications is meaningless")
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
    if not (np.all(np.isfinite(mean)) and np.all(np.isfinite(se)) and np.all(np.isfinite(lo))
            and np.all(np.isfinite(hi))):
        raise ValueError("`sampler` returned replications whose mean or variance overflows float64 "
                         "(values too large in magnitude)")
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

    Examples
    --------
    >>> from fedtheory.montecarlo import proportion_estimate
    >>> proportion_estimate(3, 100)
    ProportionEstimate(3/100 = 0.03, 99% Clopper-Pearson CI [0.003407, 0.1055])
    """
    from statsmodels.stats.proportion import proportion_confint

    n = check_int(n, "n", 1)
    successes = check_int(successes, "successes", 0, n, why=f"at most `n`={n}")
    confidence = check_real(confidence, "confidence", 0, 1, True, True)
    check_choice(method, "method", ("beta", "wilson"))
    with np.errstate(all="ignore"):
        lo, hi = proportion_confint(successes, n, alpha=1 - confidence, method=method)
    if not (np.isfinite(lo) and np.isfinite(hi)):
        raise ValueError(f"the {method} interval is not finite for `successes`={successes}, `n`={n} "
                         f"(too large for float64)")
    return ProportionEstimate(successes=successes, n=n, p_hat=successes / n,
                              ci_low=float(lo), ci_high=float(hi), confidence=confidence,
                              method=method)


# every public function turns float64 overflows, linear-algebra failures and broadcasting errors
# into ValueErrors naming its parameters (fedtheory._validation.guard_numeric_errors)
_guard_module(globals(), __all__)
