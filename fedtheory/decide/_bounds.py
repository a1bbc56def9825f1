"""Identity, agreement, bound and probability templates of the decision kit (:mod:`fedtheory.decide`)."""
from __future__ import annotations

import math

import numpy as np

from ..claims import HOLDS, REFUTED
from ._stats import (LEVEL, POWER, _arr, _detects, _df_of, _finite, _result, _slack_note, binomial_power,
                     clopper_pearson, corrected_level, tightness, z_critical)


def identity(observed, expected, *, what: str, rtol: float = 1e-9, atol: float = 0.0, params=None,
             **extra) -> dict:
    """An identity to a tolerance: ``|observed - expected| <= atol + rtol |expected|`` entrywise.

    ``holds`` or ``refuted``. The margin is the largest discrepancy over its tolerance; ``detects`` is
    the smallest relative change of the expected value that would fail (``1 + tol/|expected|``).

    >>> identity(2.0, 2.0, what="1 + 1 = 2")["status"]
    'holds'
    """
    o, e = _arr(observed, "observed"), _arr(expected, "expected")
    try:
        o, e = np.broadcast_arrays(o, e)
    except ValueError:
        raise ValueError(f"`observed` {o.shape} and `expected` {e.shape} do not broadcast") from None
    if rtol < 0 or atol < 0 or not (np.isfinite(rtol) and np.isfinite(atol)):
        raise ValueError(f"`rtol` and `atol` must be finite and >= 0; got rtol={rtol}, atol={atol}")
    if rtol == 0 and atol == 0:
        raise ValueError("an identity needs a tolerance: `rtol` or `atol` > 0")
    if not (_finite(o) and _finite(e)):
        raise ValueError(f"{what}: non-finite numbers in `observed` or `expected`")
    tol = atol + rtol * np.abs(e)
    disc = np.abs(o - e)
    ratio = float(np.max(disc / tol))
    status = HOLDS if ratio <= 1 else REFUTED
    scale = np.abs(e)
    rel = float(np.min(np.where(scale > 0, tol / np.where(scale > 0, scale, 1), np.inf)))
    det = _detects(1 + rel, "value", tolerance=float(np.max(tol)))
    return _result(status, observed, expected,
                   f"{what}: largest discrepancy {float(np.max(disc)):.3g} {'<=' if status == HOLDS else '>'} "
                   f"tolerance (atol {atol:.2g}, rtol {rtol:.2g}) over {disc.size} entr{'y' if disc.size == 1 else 'ies'}",
                   margin={"kind": "discrepancy/tolerance", "value": ratio, "ci": None,
                           "tightness": "exact" if status == HOLDS else "violated"},
                   detects=det, params=params, **extra)


def agreement(estimate, value, *, what: str, tests: int = 1, params=None, **extra) -> dict:
    """A Monte Carlo estimate against a closed form: two-sided test of every entry at
    ``LEVEL / (tests * entries)`` (Bonferroni over the claim's tests and the vector's entries), with the
    Student-t quantile on ``n - 1`` degrees of freedom (the standard error is estimated from the ``n``
    replications; for large ``n`` this is the normal quantile).

    ``estimate`` has ``mean``, ``se`` and ``n`` (:class:`fedtheory.montecarlo.Estimate`). ``holds`` if
    every ``|z|`` is below the critical value, ``refuted`` otherwise. ``detects`` is the smallest relative
    change of the closed form that would be rejected given the data.
    """
    mean, se = _arr(estimate.mean, "estimate.mean"), _arr(estimate.se, "estimate.se")
    v = _arr(value, "value")
    try:
        mean, se, v = np.broadcast_arrays(mean, se, v)
    except ValueError:
        raise ValueError(f"estimate {mean.shape} and closed form {v.shape} do not broadcast") from None
    if np.any(se < 0):
        raise ValueError("`estimate.se` must be >= 0")
    if not (_finite(mean) and _finite(se) and _finite(v)):
        raise ValueError(f"{what}: non-finite number in the estimate or the closed form")
    entries = mean.size
    crit = z_critical(tests * entries, two_sided=True, df=_df_of(estimate))
    dev = np.abs(mean - v)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(se > 0, dev / np.where(se > 0, se, 1), np.where(dev > 0, np.inf, 0.0))
        room = np.where(np.abs(v) > 0, np.maximum(crit * se - dev, 0) / np.where(np.abs(v) > 0, np.abs(v), 1), np.inf)
    zmax = float(np.max(z))
    status = HOLDS if zmax <= crit else REFUTED
    rel = float(np.min(room)) if status == HOLDS else 0.0
    det = _detects(1 + rel, "closed form")
    n_rep = getattr(estimate, "n", None)
    try:
        n_rep = int(n_rep) if n_rep is not None else None
    except (TypeError, ValueError, OverflowError):  # not a finite count: reported as none (normal quantile)
        n_rep = None
    observed = ({"estimate": float(mean), "se": float(se), "n": n_rep,
                 "ci": [float(mean - crit * se), float(mean + crit * se)]} if entries == 1 else
                {"max_abs_z": zmax, "n": n_rep, "entries": entries})
    bound = float(v) if entries == 1 else {"closed_form_entries": entries, "critical_z": crit}
    return _result(status, observed, bound,
                   f"{what}: max |z| = {zmax:.2f} vs critical {crit:.2f} (level {LEVEL:g}, Bonferroni over "
                   f"{tests * entries}), n={n_rep}" + _slack_note(det),
                   margin={"kind": "max |z| / critical", "value": zmax / crit, "ci": None,
                           "tightness": tightness(1 + rel) if status == HOLDS else "violated"},
                   detects=det, params=params, **extra)


def bound(observed, bound, *, what: str, sense: str = "<=", se=None, rtol: float = 0.0, atol: float = 0.0,
          tests: int = 1, of: str = "constant", df: float | None = None, params=None, observed_value=None,
          bound_value=None, **extra) -> dict:
    """A one-sided bound ``observed <= bound`` (``sense="<="``) or ``>=``, entrywise.

    Deterministic (``se=None``): ``holds`` if every entry is within ``atol + rtol |bound|`` of the
    right side, ``refuted`` otherwise. With standard errors (or an ``Estimate`` as ``observed``): the
    one-sided test of H0 (the bound holds) at ``LEVEL / (tests * entries)``, with the Student-t
    quantile on ``df`` degrees of freedom (an ``Estimate`` of ``n`` replications: ``n - 1``) or the
    normal quantile when ``df`` is ``None``; rejected -> ``refuted``, otherwise ``holds``.

    The margin is the worst entry's observed/bound (``"<="``) or bound/observed (``">="``), with its
    one-sided confidence limit; ``detects`` is the factor by which the claimed constant (a scale of the
    bound) would have to change for the check to fail.

    >>> v = bound(0.5, 1.0, what="E dist <= bound")
    >>> v["status"], v["margin"]["value"], v["detects"]["factor"]
    ('holds', 0.5, 2.0)
    """
    if sense not in ("<=", ">="):
        raise ValueError(f"`sense` must be '<=' or '>='; got {sense!r}")
    if hasattr(observed, "mean") and hasattr(observed, "se") and se is None:
        df = _df_of(observed) if df is None else df
        se, observed = observed.se, observed.mean
    o, b = _arr(observed, "observed"), _arr(bound, "bound")
    s = np.zeros(1) if se is None else _arr(se, "se")
    try:
        o, b, s = np.broadcast_arrays(o, b, s)
    except ValueError:
        raise ValueError(f"`observed` {np.shape(observed)} and `bound` {np.shape(bound)} do not broadcast") from None
    if rtol < 0 or atol < 0:
        raise ValueError(f"`rtol` and `atol` must be >= 0; got rtol={rtol}, atol={atol}")
    if np.any(s < 0):
        raise ValueError("`se` must be >= 0")
    if not (_finite(o) and _finite(b) and _finite(s)):
        raise ValueError(f"{what}: non-finite number in `observed`, `bound` or `se`")
    sign = 1.0 if sense == "<=" else -1.0
    crit = z_critical(tests * o.size, df=df) if se is not None else 0.0
    slack = atol + rtol * np.abs(b)
    excess = sign * (o - b) - slack  # > 0: the entry violates
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(s > 0, excess / np.where(s > 0, s, 1), np.where(excess > 0, np.inf, -np.inf))
    violated = bool(np.any(z > crit)) if se is not None else bool(np.any(excess > 0))
    status = REFUTED if violated else HOLDS
    # worst ratio and its one-sided confidence limit (entries with a positive right side)
    lim = o + sign * crit * s  # the confidence limit on the side of a violation
    pos = b > 0
    safe_b = np.where(pos, b, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        if sense == "<=":
            ratio = np.where(pos, o / safe_b, np.nan)
            ratio_lim = np.where(pos, lim / safe_b, np.nan)
            fac = np.where(pos, np.where(lim > 0, safe_b / np.where(lim > 0, lim, 1.0), np.inf), np.nan)
        else:
            ratio = np.where(pos & (o > 0), safe_b / np.where(o > 0, o, 1.0), np.nan)
            ratio_lim = np.where(pos & (lim > 0), safe_b / np.where(lim > 0, lim, 1.0), np.nan)
            fac = np.where(pos, np.maximum(lim, 0.0) / safe_b, np.nan)
    finite_r = ratio[np.isfinite(ratio)]
    worst = int(np.argmax(np.where(np.isfinite(ratio), ratio, -np.inf))) if finite_r.size else 0
    usable = fac[~np.isnan(fac)]
    factor = float(np.min(usable)) if usable.size else None
    if factor is not None and factor < 1:
        factor = 1.0
    det = _detects(factor, of)
    mval = float(ratio.ravel()[worst]) if finite_r.size else None
    margin = {"kind": "observed/bound" if sense == "<=" else "bound/observed", "value": mval,
              "ci": None if se is None else [None, float(ratio_lim.ravel()[worst])],
              "tightness": "violated" if violated else tightness(factor)}
    n_viol = int(np.sum(z > crit)) if se is not None else int(np.sum(excess > 0))
    ev = (f"{what}: {n_viol} of {o.size} entr{'y' if o.size == 1 else 'ies'} violate{'s' if n_viol == 1 else ''} "
          f"{sense}" + (f" (one-sided {'t' if df is not None else 'z'} test at level "
                        f"{corrected_level(tests * o.size):.3g}, critical {crit:.2f})"
                        if se is not None else "")
          + (f"; worst observed/bound {mval:.4g}" if mval is not None and sense == "<=" else
             f"; worst bound/observed {mval:.4g}" if mval is not None else "") + _slack_note(det))
    return _result(status, observed if observed_value is None else observed_value,
                   bound if bound_value is None else bound_value, ev, margin=margin, detects=det, params=params,
                   **extra)


def probability(violations: int, trials: int, p_allowed: float, *, what: str, tests: int = 1, params=None,
                observed=None, bound=None, **extra) -> dict:
    """A probability bound: "the event fails with probability at most ``p_allowed``" from ``violations``
    failures in ``trials`` independent trials.

    One-sided exact binomial test of H0: P(violation) <= ``p_allowed`` (``scipy.stats.binomtest``) at
    ``LEVEL / tests``: rejected -> ``refuted``; otherwise ``holds``. The margin is the rate over
    ``p_allowed`` with its exact (Clopper-Pearson) upper limit; ``detects`` is the smallest violation
    rate that these trials detect with power :data:`POWER`, as a factor of ``p_allowed``.
    """
    from scipy import stats

    if isinstance(trials, bool) or int(trials) != trials or trials < 1:
        raise ValueError(f"`trials` must be an integer >= 1; got {trials!r}")
    if isinstance(violations, bool) or int(violations) != violations or not 0 <= violations <= trials:
        raise ValueError(f"`violations` must be an integer in [0, trials={trials}]; got {violations!r}")
    if not 0 <= p_allowed < 1:
        raise ValueError(f"`p_allowed` must be in [0, 1); got {p_allowed!r}")
    k, n = int(violations), int(trials)
    lev = corrected_level(tests)
    pval = float(stats.binomtest(k, n, p_allowed, alternative="greater").pvalue) if p_allowed > 0 else \
        (0.0 if k > 0 else 1.0)
    lo, hi = clopper_pearson(k, n, 1 - lev)
    status = REFUTED if pval < lev else HOLDS
    # smallest rate these trials detect with power POWER
    p1 = _bisect_rate(lambda p: binomial_power(n, p_allowed, p, lev) >= POWER, p_allowed)
    factor = (p1 / p_allowed) if p_allowed > 0 else None
    det = _detects(factor, "failure probability", smallest_rate=p1)
    margin = {"kind": "rate/allowed", "value": (k / n) / p_allowed if p_allowed > 0 else None,
              "ci": [lo / p_allowed if p_allowed > 0 else lo, hi / p_allowed if p_allowed > 0 else hi],
              "tightness": "violated" if status == REFUTED else tightness(factor) if factor else "unknown"}
    ev = (f"{what}: {k}/{n} violations (exact {100 * (1 - lev):.4g}% CI [{lo:.3g}, {hi:.3g}]) vs allowed rate "
          f"{p_allowed:.3g}; one-sided exact binomial p-value {pval:.3g} {'<' if status == REFUTED else '>='} "
          f"{lev:.3g}; these trials detect a rate of {p1:.3g} with power {POWER:g}")
    return _result(status, observed if observed is not None else
                   {"violations": k, "trials": n, "rate": k / n, "ci": [lo, hi]},
                   bound if bound is not None else {"p_allowed": p_allowed, "level": lev}, ev,
                   margin=margin, detects=det, params=params, **extra)


def _bisect_rate(ok, p0: float) -> float:
    lo, hi = p0, 1.0
    if not ok(hi):
        return 1.0
    for _ in range(50):
        mid = 0.5 * (lo + hi)
        lo, hi = (lo, mid) if ok(mid) else (mid, hi)
    return hi


def distribution(samples, cdf, *, what: str, tests: int = 1, params=None, **extra) -> dict:
    """Samples against a claimed law: the one-sample Kolmogorov-Smirnov test (``scipy.stats.kstest``) of each
    sample against its claimed ``cdf``, at ``LEVEL / (tests * samples)`` (Bonferroni over the claim's tests and
    its samples).

    ``samples`` is one 1-d sample or a list of them, ``cdf`` one callable or a list of the same length.
    ``holds`` when no test rejects, ``refuted`` otherwise. The margin is the largest Kolmogorov distance over
    its critical value (the exact ``scipy.stats.kstwo`` quantile at the sample's size); ``detects`` is the
    smallest Kolmogorov distance a sample of that size detects with power :data:`POWER` (the critical value
    plus ``z_POWER * 0.5 / sqrt(n)``, the largest spread of the empirical cdf; ``of`` a law, no factor: a
    distance, not a constant).

    >>> import numpy as np
    >>> from scipy import stats
    >>> x = np.random.default_rng(0).standard_normal(500)
    >>> distribution(x, stats.norm.cdf, what="N(0,1)")["status"], distribution(x + 0.5, stats.norm.cdf, what="shifted")["status"]
    ('holds', 'refuted')
    """
    from scipy import stats

    many = isinstance(samples, (list, tuple))
    xs = [np.asarray(s, dtype=float).ravel() for s in (samples if many else [samples])]
    cdfs = list(cdf) if isinstance(cdf, (list, tuple)) else [cdf] * len(xs)
    if len(cdfs) != len(xs):
        raise ValueError(f"`cdf` must be one callable or one per sample; got {len(cdfs)} for {len(xs)} samples")
    if not all(callable(c) for c in cdfs):
        raise TypeError("`cdf` must be callable (a cumulative distribution function)")
    for x in xs:
        if x.size < 2:
            raise ValueError(f"{what}: every sample needs at least 2 values; got {x.size}")
        if not _finite(x):
            raise ValueError(f"{what}: non-finite value in a sample")
    lev = corrected_level(tests * len(xs))
    res = [stats.kstest(x, c) for x, c in zip(xs, cdfs)]
    dists = [float(r.statistic) for r in res]
    pvals = [float(r.pvalue) for r in res]
    crit = [float(stats.kstwo.isf(lev, x.size)) for x in xs]
    # the distance detected with power POWER: at a true distance delta, D_n = delta + O(1/sqrt(n)) with a spread
    # of at most sqrt(F(1 - F)/n) <= 0.5/sqrt(n) (the empirical cdf at the point of largest distance), so
    # delta = critical + z_POWER * 0.5/sqrt(n) is rejected with probability about POWER
    smallest = max(c + float(stats.norm.ppf(POWER)) * 0.5 / math.sqrt(x.size) for c, x in zip(crit, xs))
    status = REFUTED if min(pvals) < lev else HOLDS
    ratio = max(d / c for d, c in zip(dists, crit))
    margin = {"kind": "Kolmogorov distance / critical", "value": ratio, "ci": None,
              "tightness": "violated" if status == REFUTED else "unknown"}
    ev = (f"{what}: one-sample Kolmogorov-Smirnov test of {len(xs)} sample(s) (sizes "
          f"{', '.join(str(x.size) for x in xs)}) at level {lev:.3g}: largest distance {max(dists):.3g}, smallest "
          f"p-value {min(pvals):.3g}; these sizes detect a distance of {smallest:.3g} with power {POWER:g}")
    return _result(status, {"ks_distance": dists, "p_value": pvals, "n": [int(x.size) for x in xs]},
                   {"critical_distance": crit, "level": lev}, ev, margin=margin,
                   detects=_detects(None, "law", smallest_distance=smallest), params=params, **extra)
