"""Assertions for researchers' own tests (and a pytest plugin).

* :func:`assert_bound` - an observed value respects a bound;
* :func:`assert_agrees` - a Monte Carlo estimate agrees with a closed form within its CI;
* :func:`assert_holds_with_probability` - an exact binomial test that an event holds with
  probability at least ``p``;
* :func:`assert_claim` - run a catalogue claim and fail unless it holds (or is a confirmed
  erratum, i.e. the corrected form holds).

The pytest plugin (entry point ``fedtheory`` in ``pyproject.toml``) adds ``--fedtheory-full``
(catalogue claims in full mode) and the ``claim`` marker: ``@pytest.mark.claim("fedrep.thm1.contraction")``
runs that claim before the test and fails it unless the claim holds.
"""
from __future__ import annotations

from typing import Callable

import numpy as np
from scipy import stats

from .claims import ERRATUM, HOLDS
from .plugins import get_claim
from .montecarlo import Estimate, estimate_from_samples
from .random import SeedLike, as_generator, spawn_seeds

__all__ = ["assert_bound", "assert_agrees", "assert_holds_with_probability", "assert_claim"]

_FULL = {"full": False}


def assert_bound(observed, bound, *, rtol: float = 0.0, atol: float = 0.0, what: str = "bound") -> None:
    """Fail unless ``observed <= bound * (1 + rtol) + atol`` elementwise.

    The message names ``what`` and shows both numbers (the worst element for arrays).
    """
    o = np.asarray(observed, float)
    b = np.asarray(bound, float)
    lim = b * (1 + rtol) + atol
    bad = ~(o <= lim)
    if np.any(bad):
        idx = np.unravel_index(int(np.argmax(np.where(bad, o - lim, -np.inf))), np.broadcast(o, lim).shape) \
            if np.ndim(bad) else ()
        ob = np.broadcast_to(o, bad.shape)[idx] if np.ndim(bad) else float(o)
        bb = np.broadcast_to(b, bad.shape)[idx] if np.ndim(bad) else float(b)
        idx = tuple(int(i) for i in idx)
        where = f" at index {idx}" if idx else ""
        raise AssertionError(f"{what} violated{where}: observed {ob:.6g} > bound {bb:.6g} "
                             f"(rtol={rtol:g}, atol={atol:g}; {int(np.sum(bad))} of {bad.size} elements)")


def assert_agrees(estimate, value, *, confidence: float = 0.99, what: str = "closed form") -> None:
    """Fail unless a Monte Carlo estimate agrees with ``value`` within its confidence interval.

    ``estimate`` is an :class:`~fedtheory.montecarlo.Estimate` or an array of replications
    (axis 0). Vector estimates use a Bonferroni correction over their entries.
    """
    est = estimate if isinstance(estimate, Estimate) else estimate_from_samples(np.asarray(estimate), confidence)
    z = np.atleast_1d(np.abs(est.z_score(value)))
    crit = stats.norm.ppf(1 - (1 - confidence) / (2 * z.size))
    if np.max(z) > crit:
        i = int(np.argmax(z))
        m = np.atleast_1d(np.asarray(est.mean))[i]
        se = np.atleast_1d(np.asarray(est.se))[i]
        v = np.atleast_1d(np.asarray(value, float))[i if np.size(value) > 1 else 0]
        raise AssertionError(f"Monte Carlo disagrees with the {what}: estimate {m:.6g} (se {se:.3g}, n={est.n}) vs "
                             f"{v:.6g}, |z| = {z[i]:.2f} > {crit:.2f} ({100 * confidence:g}% level"
                             f"{', Bonferroni over %d' % z.size if z.size > 1 else ''})")


def assert_holds_with_probability(trial: Callable[[np.random.Generator], bool], p: float, *, n_trials: int = 200,
                                  confidence: float = 0.99, seed: SeedLike = 0, what: str = "event") -> None:
    """Exact binomial test that ``trial(rng)`` is True with probability at least ``p``.

    Runs ``n_trials`` independent trials (spawned streams of ``seed``) and fails if the one-sided
    exact test of H0: P(event) >= p rejects at level ``1 - confidence``
    (``scipy.stats.binomtest(..., alternative="less")``).
    """
    ok = sum(bool(trial(as_generator(s))) for s in spawn_seeds(seed, n_trials))
    res = stats.binomtest(ok, n_trials, p, alternative="less")
    if res.pvalue < 1 - confidence:
        lo, hi = res.proportion_ci(confidence, method="exact")
        raise AssertionError(f"{what} held in {ok}/{n_trials} trials (p_hat={ok / n_trials:.4g}, exact CI "
                             f"[{lo:.4g}, {hi:.4g}]); P >= {p:g} rejected (p-value {res.pvalue:.3g})")


def assert_claim(claim_id: str, *, full: bool | None = None, seed=None):
    """Run a catalogue claim; fail unless its status is ``holds`` or ``erratum-confirmed``.

    Returns the :class:`~fedtheory.claims.Verdict`. ``full`` defaults to ``--fedtheory-full``.
    """
    full = _FULL["full"] if full is None else full
    v = get_claim(claim_id).evaluate(full=full, seed=seed)
    if v.status not in (HOLDS, ERRATUM):
        raise AssertionError(f"claim {claim_id} is {v.status!r}:\n{v.summary()}")
    return v


# ----------------------------------------------------------------------------- pytest plugin
def pytest_addoption(parser):
    parser.addoption("--fedtheory-full", action="store_true", default=False,
                     help="run fedtheory catalogue claims in full mode")


def pytest_configure(config):
    config.addinivalue_line("markers", "claim(id): run a fedtheory catalogue claim before the test; fail unless it holds")
    _FULL["full"] = bool(config.getoption("--fedtheory-full", default=False))


def pytest_runtest_setup(item):
    for mark in item.iter_markers(name="claim"):
        for cid in mark.args:
            assert_claim(cid)
