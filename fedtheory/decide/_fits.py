"""Rate and ordering templates of the decision kit (:mod:`fedtheory.decide`)."""
from __future__ import annotations

import numpy as np

from ..claims import HOLDS, INCONCLUSIVE, NOT_REPRODUCED, REFUTED
from ._bounds import _bisect_rate
from ._stats import (POWER, _arr, _detects, _finite, _result, _slack_note, binomial_power, corrected_level,
                     fit_line, mann_whitney, mann_whitney_size_needed, pairs_needed, power_statement, sign_test,
                     sweeps_needed)

def rate(x, y, *, claimed: float, what: str, model: str = "loglog", se=None, alternative: str = "two-sided",
         resolution: float | None = None, tests: int = 1, unit: str = "replicated sweeps", params=None,
         **extra) -> dict:
    """An exponent or rate fit: the slope of :func:`fit_line` against the ``claimed`` one.

    ``alternative="two-sided"``: the slope equals ``claimed``; ``"less"``: the slope is at most
    ``claimed`` (a rate at least as fast, for decreasing curves); ``"greater"``: at least. The slope's t
    interval at ``1 - LEVEL/tests`` decides: ``claimed`` outside it on the violating side -> ``refuted``;
    otherwise ``holds`` when the interval resolves ``resolution`` (default ``|claimed|/2``, or 0.5 for
    a claimed 0), and ``inconclusive`` with the number of replicated sweeps that would, when it does not.
    The margin is the fitted minus the claimed slope with its interval; ``detects`` the smallest change of
    the claimed exponent that the interval would exclude.
    """
    if alternative not in ("two-sided", "less", "greater"):
        raise ValueError(f"`alternative` must be 'two-sided', 'less' or 'greater'; got {alternative!r}")
    if not np.isfinite(claimed):
        raise ValueError(f"`claimed` must be finite; got {claimed!r}")
    lev = corrected_level(tests)
    conf = 1 - (lev if alternative == "two-sided" else 2 * lev)
    fit = fit_line(x, y, se=se, model=model, confidence=conf)
    lo, hi = fit["ci"]
    b = fit["slope"]
    res = resolution if resolution is not None else (abs(claimed) / 2 if claimed != 0 else 0.5)
    if res <= 0:
        raise ValueError(f"`resolution` must be > 0; got {res}")
    if alternative == "two-sided":
        violated = not lo <= claimed <= hi
        room = min(hi - claimed, claimed - lo)
        width = (hi - lo) / 2
    elif alternative == "less":  # slope <= claimed
        violated = lo > claimed
        room, width = claimed - lo, hi - b
    else:
        violated = hi < claimed
        room, width = hi - claimed, b - lo
    gap = b - claimed
    margin = {"kind": "fitted - claimed exponent", "value": gap, "ci": [lo - claimed, hi - claimed],
              "tightness": "violated" if violated else "tight" if abs(gap) <= res else "loose"}
    rel = abs(room) / abs(claimed) if claimed != 0 else None
    det = _detects(1 + rel if rel is not None else None, "exponent", absolute=float(max(room, 0.0)))
    ev = (f"{what}: fitted slope {b:.4g} (CI [{lo:.4g}, {hi:.4g}], {fit['model']}, {fit['n']} points, "
          f"df {fit['df']}) vs claimed {claimed:.4g} ({alternative})")
    params = {**(params or {}), "fit": fit}
    if violated:
        return _result(REFUTED, {"slope": b, "ci": [lo, hi]}, {"claimed": claimed}, ev, margin=margin,
                       detects=det, params=params, **extra)
    if width > res:
        need = sweeps_needed(fit["slope_se"], res, points=fit["n"], level=lev, two_sided=alternative == "two-sided",
                             df=fit["df"])
        pw = power_statement(need, unit, current=1, effect=f"the exponent to +-{res:.3g}", verb="resolve",
                             test=f"t interval of the fitted slope; the standard error's own uncertainty from its "
                                  f"{fit['df']} degrees of freedom by the F pivot", level=lev)
        return _result(INCONCLUSIVE, {"slope": b, "ci": [lo, hi]}, {"claimed": claimed},
                       ev + f"; the interval's half-width {width:.3g} does not resolve {res:.3g}", margin=margin,
                       detects=det, power=pw, params=params, **extra)
    return _result(HOLDS, {"slope": b, "ci": [lo, hi]}, {"claimed": claimed}, ev + _slack_note(det),
                   margin=margin, detects=det, params=params, **extra)


def ordering(a, b, *, what: str, expect: str = "less", paired: bool = True, tests: int = 1,
             empirical: bool = False, analogue: str = "", params=None, **extra) -> dict:
    """A comparison of two methods: ``a`` below ``b`` (``expect="less"``) or above (``"greater"``).

    Paired (``a[i]`` and ``b[i]`` share a seed): exact sign test, ties dropped. Unpaired: Mann-Whitney.
    Significant in the claimed direction -> ``holds``; significant the other way -> ``refuted``
    (``not-reproduced`` with ``empirical=True``, for a paper's experiment whose ``analogue`` is
    named); neither -> ``inconclusive`` with the number of pairs (or per-group size) that would decide.
    All tests one-sided at ``LEVEL / (2 tests)`` (two directions are tested).
    """
    if expect not in ("less", "greater"):
        raise ValueError(f"`expect` must be 'less' or 'greater'; got {expect!r}")
    if empirical and not analogue:
        raise ValueError("an empirical ordering needs its `analogue` (the linear stand-in and its choices)")
    x, y = _arr(a, "a").ravel(), _arr(b, "b").ravel()
    if paired and x.shape != y.shape:
        raise ValueError(f"paired samples need equal lengths; got {x.size} and {y.size}")
    if not (_finite(x) and _finite(y)):
        raise ValueError(f"{what}: non-finite number in `a` or `b`")
    lev = corrected_level(2 * tests)
    if expect == "greater":
        x, y = y, x
    if paired:
        below, above = int(np.sum(x < y)), int(np.sum(x > y))
        p_good, p_bad = sign_test(below, above)
        n = below + above
        share = below / n if n else 0.5
        obs = {"pairs": int(x.size), "ties": int(x.size - n), "in_claimed_order": below, "against": above,
               "share": share, "p_claimed": p_good, "p_against": p_bad}
        test = "exact sign test, ties dropped"
        eff = share
    else:
        p_good, p_bad, auc = mann_whitney(x, y)
        obs = {"sizes": [int(x.size), int(y.size)], "auc": auc, "p_claimed": p_good, "p_against": p_bad}
        test = "Mann-Whitney"
        eff = auc
    margin = {"kind": "share in the claimed order" if paired else "AUC", "value": eff, "ci": None,
              "tightness": None}
    if p_good < lev:
        status = HOLDS
    elif p_bad < lev:
        status = NOT_REPRODUCED if empirical else REFUTED
    else:
        status = INCONCLUSIVE
    margin["tightness"] = "violated" if status in (REFUTED, NOT_REPRODUCED) else "unknown"
    # the smallest effect these sizes detect with power POWER
    if paired:
        n_eff = max(n, 1)
        p1 = _bisect_rate(lambda p: binomial_power(n_eff, 0.5, p, lev) >= POWER, 0.5)
        det = _detects(None, "ordering", smallest_share=p1)
    else:
        det = _detects(None, "ordering")
    ev = (f"{what}: {test}, {'share' if paired else 'AUC'} in the claimed order {eff:.3g}; p = {p_good:.3g} "
          f"(claimed order), {p_bad:.3g} (against), level {lev:.3g}")
    if status == INCONCLUSIVE:
        target = min(max(eff, 1 - eff, 0.75), 0.95)
        need = pairs_needed(min(target, 1.0), level=lev) if paired else mann_whitney_size_needed(target, level=lev)
        pw = power_statement(need, "untied pairs" if paired else "runs per method", current=n if paired else x.size,
                             effect=f"{'a share' if paired else 'an AUC'} of {target:.3g}", test=test, level=lev)
        return _result(status, obs, {"expect": f"a {expect} than b"}, ev, margin=margin, detects=det, power=pw,
                       params=params, **extra)
    return _result(status, obs, {"expect": f"a {expect} than b"}, ev, margin=margin, detects=det, params=params,
                   analogue=analogue if status == NOT_REPRODUCED else None, **extra)
