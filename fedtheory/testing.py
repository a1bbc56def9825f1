"""Assertions for researchers' own tests (and a pytest plugin).

* :func:`assert_bound` - an observed value respects a bound;
* :func:`assert_agrees` - a Monte Carlo estimate agrees with a closed form within its CI;
* :func:`assert_holds_with_probability` - an exact binomial test that an event holds with
  probability at least ``p``;
* :func:`assert_claim` - run a catalogue claim and fail unless its outcome is the one its paper
  records (as pytest's strict xfail); a claim with no recorded outcome must hold (or be a
  typo-level erratum, i.e. the corrected form holds).

The pytest plugin (entry point ``fedtheory`` in ``pyproject.toml``) adds ``--fedtheory-full``
(catalogue claims in full mode) and the ``claim`` marker: ``@pytest.mark.claim("fedrep.thm1.contraction")``
runs that claim before the test and fails it unless its outcome matches the recorded one.
"""
from __future__ import annotations

from typing import Callable

import numpy as np
from scipy import stats

from .claims import DECIDED, ERRATUM, HOLDS, NOT_RUN
from .plugins import get_claim, get_paper
from .montecarlo import Estimate, estimate_from_samples
from .random import SeedLike, as_generator, spawn_seeds

__all__ = ["assert_bound", "assert_agrees", "assert_holds_with_probability", "assert_claim", "count_validation_calls"]

_FULL = {"full": False}


def _as_numeric(x, what: str, role: str) -> np.ndarray:
    """``x`` as a float array; an ``AssertionError`` naming ``role`` if it is not numeric or holds NaN/inf."""
    __tracebackhide__ = True
    try:
        a = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise AssertionError(f"{what}: the {role} is not numeric: {x!r}") from None
    bad = ~np.isfinite(a)
    if np.any(bad):
        if a.ndim:
            idx = tuple(int(i) for i in np.argwhere(bad)[0])
            where = f" ({int(bad.sum())} of {a.size} entries; first {float(a[idx])!r} at index {idx})"
        else:
            where = f" ({float(a)!r})"
        raise AssertionError(f"{what}: the {role} is not finite{where}; a NaN or inf cannot satisfy "
                             f"or contradict a bound, so it fails")
    return a


def assert_bound(observed, bound, *, rtol: float = 0.0, atol: float = 0.0, what: str = "bound") -> None:
    """Fail unless ``observed <= bound * (1 + rtol) + atol`` elementwise.

    The message names ``what`` and shows both numbers (the worst element for arrays).

    Parameters
    ----------
    observed, bound : array_like
        Broadcastable numbers; any NaN or inf in either fails (never passes silently).
    rtol, atol : float
        Relative and absolute slack, finite and >= 0.
    what : str
        Name of the bound in the message.

    Raises
    ------
    AssertionError
        The bound is violated, or ``observed``/``bound`` is non-numeric or not finite.

    Examples
    --------
    >>> from fedtheory.testing import assert_bound
    >>> assert_bound([0.5, 0.2], [0.6, 0.3])            # holds: returns None
    >>> assert_bound([0.5, 0.4], [0.6, 0.3], what="toy bound")
    Traceback (most recent call last):
        ...
    AssertionError: toy bound violated at index (1,): observed 0.4 > bound 0.3 (rtol=0, atol=0; 1 of 2 elements)
    """
    __tracebackhide__ = True
    o = _as_numeric(observed, what, "observed value")
    b = _as_numeric(bound, what, "bound")
    _as_numeric([rtol, atol], what, "tolerance (rtol, atol)")
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

    Parameters
    ----------
    estimate : Estimate or array_like
        The Monte Carlo estimate, or its replications along axis 0. Any NaN or inf in the
        samples, the mean or the standard error fails.
    value : array_like
        The closed-form value(s); any NaN or inf fails (even when another entry already
        disagrees, the message reports the non-finite entry).
    confidence : float
        Level of the (Bonferroni-corrected) two-sided test, in (0, 1).
    what : str
        Name of the closed form in the message.

    Raises
    ------
    AssertionError
        Disagreement, or a non-finite sample, estimate or value.

    Examples
    --------
    >>> from fedtheory.montecarlo import mc_mean
    >>> from fedtheory.testing import assert_agrees
    >>> est = mc_mean(lambda rng, size: rng.standard_normal(size) ** 2, 100_000, seed=0)
    >>> assert_agrees(est, 1.0, what="E z^2 = 1")     # 1 is inside the 99% interval
    """
    __tracebackhide__ = True
    if not (isinstance(confidence, (int, float, np.floating)) and 0 < confidence < 1):
        raise ValueError(f"`confidence` must be in (0, 1); got {confidence!r}")
    if isinstance(estimate, Estimate):
        _as_numeric(estimate.mean, f"Monte Carlo vs the {what}", "estimate's mean")
        _as_numeric(estimate.se, f"Monte Carlo vs the {what}", "estimate's standard error")
        est = estimate
    else:
        samples = _as_numeric(estimate, f"Monte Carlo vs the {what}", "samples")
        if samples.ndim == 0 or samples.shape[0] < 2:
            raise AssertionError(f"Monte Carlo vs the {what}: need at least 2 samples along axis 0; "
                                 f"got shape {samples.shape}")
        est = estimate_from_samples(samples, confidence)
    v_arr = _as_numeric(value, f"Monte Carlo vs the {what}", "closed-form value")
    z = np.atleast_1d(np.abs(est.z_score(v_arr)))
    crit = stats.norm.ppf(1 - (1 - confidence) / (2 * z.size))
    if np.max(z) > crit:
        i = int(np.argmax(z))
        m = np.atleast_1d(np.asarray(est.mean))[i]
        se = np.atleast_1d(np.asarray(est.se))[i]
        v = np.atleast_1d(v_arr)[i if np.size(value) > 1 else 0]
        raise AssertionError(f"Monte Carlo disagrees with the {what}: estimate {m:.6g} (se {se:.3g}, n={est.n}) vs "
                             f"{v:.6g}, |z| = {z[i]:.2f} > {crit:.2f} ({100 * confidence:g}% level"
                             f"{', Bonferroni over %d' % z.size if z.size > 1 else ''})")


def assert_holds_with_probability(trial: Callable[[np.random.Generator], bool], p: float, *, n_trials: int = 200,
                                  confidence: float = 0.99, seed: SeedLike = 0, what: str = "event") -> None:
    """Exact binomial test that ``trial(rng)`` is True with probability at least ``p``.

    Runs ``n_trials`` independent trials (spawned streams of ``seed``) and fails if the one-sided
    exact test of H0: P(event) >= p rejects at level ``1 - confidence``
    (``scipy.stats.binomtest(..., alternative="less")``).

    Parameters
    ----------
    trial : callable ``(rng) -> bool``
        One trial; it must return a ``bool`` (or ``numpy.bool_``). Anything else (NaN, 1.0,
        ``None``, an array) fails, since its truth value would be a guess.
    p : float
        Claimed probability, in [0, 1].
    n_trials : int
        Number of trials, >= 1.
    confidence : float
        In (0, 1).
    seed : int, SeedSequence or Generator
    what : str
        Name of the event in the message.

    Raises
    ------
    AssertionError
        The test rejects, or a trial returned a non-bool.

    Examples
    --------
    >>> from fedtheory.testing import assert_holds_with_probability
    >>> assert_holds_with_probability(lambda rng: bool(rng.random() < 0.99), 0.9, n_trials=50, seed=1)
    """
    __tracebackhide__ = True
    from ._validation import check_callable, check_int, check_real

    check_callable(trial, "trial")
    p = check_real(p, "p", 0, 1)
    n_trials = check_int(n_trials, "n_trials", 1)
    confidence = check_real(confidence, "confidence", 0, 1, True, True)
    ok = 0
    for i, s in enumerate(spawn_seeds(seed, n_trials)):
        out = trial(as_generator(s))
        if not isinstance(out, (bool, np.bool_)):
            raise AssertionError(f"{what}: trial {i} returned {out!r} ({type(out).__name__}), not a bool; "
                                 f"a trial must return True or False (e.g. bool(np.all(...)))")
        ok += bool(out)
    res = stats.binomtest(ok, n_trials, p, alternative="less")
    if res.pvalue < 1 - confidence:
        lo, hi = res.proportion_ci(confidence, method="exact")
        raise AssertionError(f"{what} held in {ok}/{n_trials} trials (p_hat={ok / n_trials:.4g}, exact CI "
                             f"[{lo:.4g}, {hi:.4g}]); P >= {p:g} rejected (p-value {res.pvalue:.3g})")


def _nonfinite_leaves(x, path="", skip_printed=False):
    """Paths of the NaN/inf floats inside a verdict's ``observed`` or ``bound`` (dicts, lists, arrays).

    With ``skip_printed`` the entries under a ``printed*`` key are ignored: in a confirmed erratum the
    printed form is the one that fails, possibly by being infinite (e.g. a ``(l)^2 = 0`` denominator).
    """
    if isinstance(x, dict):
        for k, v in x.items():
            if skip_printed and str(k).startswith("printed"):
                continue
            yield from _nonfinite_leaves(v, f"{path}.{k}" if path else str(k), skip_printed)
    elif isinstance(x, (list, tuple)):
        for i, v in enumerate(x):
            yield from _nonfinite_leaves(v, f"{path}[{i}]", skip_printed)
    elif isinstance(x, np.ndarray) and x.dtype.kind in "fc":
        if not np.all(np.isfinite(x)):
            yield path or "value"
    elif isinstance(x, (float, np.floating)) and not np.isfinite(x):
        yield path or "value"


def assert_claim(claim_id: str, *, full: bool | None = None, seed=None):
    """Run a catalogue claim; fail unless its outcome is the recorded one.

    A claim whose paper records its outcome for this mode (:meth:`fedtheory.Paper.expected`) passes
    exactly when the verdict has that outcome, as pytest's strict xfail: a paper's recorded erratum or
    refutation passes, and a claim that starts to hold where a refutation was recorded fails (the
    finding changed). A claim with no recorded outcome passes when it ``holds`` or is an ``erratum``.
    ``error`` always fails (the message carries the exception). A decided verdict whose ``observed``
    or ``bound`` contains a NaN or inf also fails (except under a ``printed`` key: the printed form is
    the one that fails). A *full mode only* claim in quick mode is not run, and the test is skipped
    with that reason (``pytest.skip``): it neither passes nor fails without the computation.

    Returns the :class:`~fedtheory.claims.Verdict`. ``full`` defaults to ``--fedtheory-full``.
    """
    __tracebackhide__ = True
    if not isinstance(claim_id, str) or not claim_id:
        raise TypeError(f"`claim_id` must be a non-empty string; got {claim_id!r}")
    if full is not None and not isinstance(full, (bool, np.bool_)):
        raise TypeError(f"`full` must be a bool or None; got {full!r}")
    full = _FULL["full"] if full is None else bool(full)
    claim = get_claim(claim_id)
    expected = get_paper(claim.paper).expected(claim.id, full)
    v = claim.evaluate(full=full, seed=seed, expected=expected)
    if v.status == NOT_RUN:
        import pytest

        pytest.skip(f"claim {claim_id} is full mode only (run with --fedtheory-full or full=True): {v.evidence}")
    if expected is not None:
        if v.status != expected:
            raise AssertionError(f"claim {claim_id} is {v.status!r} but its recorded outcome in "
                                 f"{'full' if full else 'quick'} mode is {expected!r}:\n{v.summary()}")
    elif v.status not in (HOLDS, ERRATUM):
        raise AssertionError(f"claim {claim_id} is {v.status!r} (with no recorded outcome only 'holds' and "
                             f"'erratum' pass):\n{v.summary()}")
    if v.status in DECIDED:
        bad = [f"observed.{p}" for p in _nonfinite_leaves(v.observed, skip_printed=True)] + \
            [f"bound.{p}" for p in _nonfinite_leaves(v.bound, skip_printed=True)]
        if bad:
            raise AssertionError(f"claim {claim_id} is {v.status!r} but has non-finite numbers in "
                                 f"{', '.join(bad[:5])}:\n{v.summary()}")
    return v


# ----------------------------------------------------------------------------- pytest plugin
def pytest_addoption(parser):
    parser.addoption("--fedtheory-full", action="store_true", default=False,
                     help="run fedtheory catalogue claims in full mode")


def pytest_configure(config):
    config.addinivalue_line("markers", "claim(id): run a fedtheory catalogue claim before the test; fail unless its outcome "
                            "is the recorded one (or, with none recorded, it holds)")
    _FULL["full"] = bool(config.getoption("--fedtheory-full", default=False))


def pytest_unconfigure(config):
    _FULL["full"] = False  # an in-process run (pytester) must not leave full mode on for the outer one


def pytest_runtest_setup(item):
    for mark in item.iter_markers(name="claim"):
        for cid in mark.args:
            assert_claim(cid)


def count_validation_calls(monkeypatch):
    """Count the calls of the ``check_*`` validators of :mod:`fedtheory._validation`, wherever a loaded
    fedtheory module bound them, for the rest of the test (``monkeypatch`` undoes the wrapping).

    A public function validates its inputs once, at its entry; a test runs it at two loop sizes and
    asserts that the counts are equal (they would grow with the rounds if a loop re-validated).

    Returns
    -------
    collections.Counter
        Validator name -> number of calls so far; it keeps counting after it is returned.
    """
    import collections
    import sys

    from . import _validation as V

    counts = collections.Counter()

    def counted(name, f):
        def wrapper(*a, **k):
            counts[name] += 1
            return f(*a, **k)
        return wrapper

    for modname, mod in list(sys.modules.items()):
        if modname.startswith("fedtheory") and modname != "fedtheory._validation" and mod is not None:
            for name, f in list(vars(mod).items()):
                if name.startswith("check_") and getattr(V, name, None) is f:
                    monkeypatch.setattr(mod, name, counted(name, f))
    return counts

