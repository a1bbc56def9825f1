"""Compound templates of the decision kit (:mod:`fedtheory.decide`): a coefficient of a multiple regression, a
vacuity argument resting on computed links, a premised check, the sign of an effect, and an erratum decided
once both forms are."""
from __future__ import annotations

from typing import Sequence

import numpy as np

from ..claims import HOLDS, INCONCLUSIVE, REFUTED
from ._outcomes import combine, erratum, inconclusive, vacuous
from ._stats import (POWER, _arr, _detects, _finite, _result, _slack_note, binomial_trials_needed,
                     corrected_level, power_statement, replicates_needed, sweeps_needed)


def regression_rate(y, columns: dict, *, slope_of: str, claimed: float, what: str, resolution: float | None = None,
                    tests: int = 1, unit: str = "replicated designs", params=None, **extra) -> dict:
    """An exponent read off a multiple regression: the coefficient of one named regressor of an OLS fit
    (``statsmodels``) of ``y`` on the regressors ``columns`` (name -> values, an intercept added) against
    the ``claimed`` value, two-sided, as :func:`rate` decides a single slope.

    For a scaling law with nuisance terms (``log m = a + b log x + c log log z + e x^-1/2``) the exponent
    ``b`` is the coefficient of ``slope_of``. ``claimed`` outside its t interval at ``1 - LEVEL/tests``
    (residual degrees of freedom ``points - parameters``) -> ``refuted``; inside it and the half-width at
    most ``resolution`` (default ``|claimed|/2``, 0.5 for a claimed 0) -> ``holds``; otherwise
    ``inconclusive`` with the number ``R`` of replicated designs (each adding the same points: the
    coefficient's standard error shrinks like ``1/sqrt(R)``, ``R*points - parameters`` degrees of
    freedom) at which the interval's half-width is at most ``resolution`` with probability
    :data:`POWER` (:func:`sweeps_needed`: the current standard error's own uncertainty, from its
    ``points - parameters`` degrees of freedom, enters by the F pivot). The margin is the fitted minus
    the claimed coefficient with its interval; ``detects`` the smallest change of the claimed exponent
    that the interval would exclude.

    >>> x = np.repeat([1.0, 2.0, 3.0, 4.0], 2); z = np.tile([0.0, 1.0], 4)
    >>> regression_rate(2 * x + 0.3 * z + 1e-3 * np.sin(7 * x * (z + 1)), {"x": x, "z": z}, slope_of="x",
    ...                 claimed=2.0, what="toy")["status"]
    'holds'
    """
    import statsmodels.api as sm

    if not isinstance(columns, dict) or slope_of not in columns:
        raise ValueError(f"`columns` must be a dict of regressors containing `slope_of`={slope_of!r}")
    if not np.isfinite(claimed):
        raise ValueError(f"`claimed` must be finite; got {claimed!r}")
    Y = _arr(y, "y").ravel()
    names = list(columns)
    X = np.column_stack([_arr(columns[c], c).ravel() for c in names])
    if X.shape[0] != Y.size:
        raise ValueError(f"every regressor must have the length of `y` ({Y.size})")
    if not (_finite(X) and _finite(Y)):
        raise ValueError(f"{what}: non-finite number in `y` or a regressor")
    p = len(names) + 1
    if Y.size <= p:
        raise ValueError(f"{what}: {Y.size} points cannot fit {p} parameters with a residual degree of freedom")
    res = sm.OLS(Y, sm.add_constant(X, has_constant="add")).fit()
    j = names.index(slope_of) + 1
    lev = corrected_level(tests)
    lo, hi = (float(v) for v in res.conf_int(alpha=lev)[j])
    b, se, df = float(res.params[j]), float(res.bse[j]), int(res.df_resid)
    rsl = resolution if resolution is not None else (abs(claimed) / 2 if claimed != 0 else 0.5)
    if rsl <= 0:
        raise ValueError(f"`resolution` must be > 0; got {rsl}")
    violated = not lo <= claimed <= hi
    width = (hi - lo) / 2
    room = min(hi - claimed, claimed - lo)
    margin = {"kind": "fitted - claimed exponent", "value": b - claimed, "ci": [lo - claimed, hi - claimed],
              "tightness": "violated" if violated else "tight" if abs(b - claimed) <= rsl else "loose"}
    rel = abs(room) / abs(claimed) if claimed != 0 else None
    det = _detects(1 + rel if rel is not None else None, "exponent", absolute=float(max(room, 0.0)))
    fit = {"coefficients": dict(zip(["const"] + names, (float(v) for v in res.params))),
           "standard_errors": dict(zip(["const"] + names, (float(v) for v in res.bse))),
           "slope_of": slope_of, "slope": b, "slope_se": se, "ci": [lo, hi], "df": df, "n": int(Y.size),
           "model": f"OLS of y on {', '.join(names)} and an intercept (t interval)"}
    ev = (f"{what}: coefficient of {slope_of} {b:.4g} (CI [{lo:.4g}, {hi:.4g}] at level {lev:.3g}, {Y.size} points, "
          f"df {df}, regressors {', '.join(names)}) vs claimed {claimed:.4g}")
    params = {**(params or {}), "fit": fit}
    obs = {"slope": b, "ci": [lo, hi], "se": se, "df": df}
    if violated:
        return _result(REFUTED, obs, {"claimed": claimed}, ev, margin=margin, detects=det, params=params, **extra)
    if width > rsl:
        need = sweeps_needed(se, rsl, points=Y.size, parameters=p, df=df, level=lev)
        pw = power_statement(need, unit, current=1, effect=f"the exponent to +-{rsl:.3g}", verb="resolve",
                             test=f"t interval of the regression coefficient; the standard error's own uncertainty "
                                  f"from its {df} degrees of freedom by the F pivot", level=lev)
        return _result(INCONCLUSIVE, obs, {"claimed": claimed},
                       ev + f"; the interval's half-width {width:.3g} does not resolve {rsl:.3g}; "
                       + pw["statement"], margin=margin, detects=det, power=pw, params=params, **extra)
    return _result(HOLDS, obs, {"claimed": claimed}, ev + _slack_note(det), margin=margin, detects=det,
                   params=params, **extra)


def vacuous_given(links: Sequence[dict], *, what: str, reason: str, root_cause: str, observed=None, bound=None,
                  params=None, **extra) -> dict:
    """A vacuity argument resting on computed links: ``vacuous`` when every link holds, else the links'
    :func:`combine` (``refuted`` or ``inconclusive``: the argument did not go through).

    Each link is a decision of this kit (a bound, an identity, ...) that the argument needs: for "the
    hypotheses admit no instance", e.g. the inequality chain that bounds every instance and the
    comparison showing that the bound contradicts another hypothesis. The verdict carries the weakest
    link's margin (its tightness relabelled ``vacuous``) and detection threshold, and the links' evidence
    after ``reason``.

    >>> from fedtheory.decide import bound
    >>> ok = bound(0.5, 1.0, what="link")
    >>> vacuous_given([ok], what="toy", reason="no instance", root_cause="rc")["status"]
    'vacuous'
    >>> vacuous_given([bound(2.0, 1.0, what="link")], what="toy", reason="r", root_cause="rc")["status"]
    'refuted'
    """
    if not reason or not root_cause:
        raise ValueError("a vacuity argument needs its `reason` and `root_cause`")
    c = combine(links, what=what, params=params, observed=observed, bound=bound, root_cause=root_cause, **extra)
    if c["status"] != HOLDS:
        return c
    margin = dict(c["margin"] or {"kind": "vacuity", "value": None, "ci": None})
    margin["tightness"] = "vacuous"
    return vacuous(c["observed"], c["bound"], what=what, reason=f"{reason}; links: {c['evidence']}",
                   root_cause=root_cause, params=params, margin=margin, detects=c["detects"], **extra)


def premised(decide_fn, *, held: int, trials: int, what: str, unit: str = "runs", params=None,
             **extra) -> dict:
    """A check asserted only where its premise holds (a hypothesis met by some sampled instances only).

    ``held`` of ``trials`` instances met the premise. With ``held > 0`` the decision ``decide_fn()`` (a
    callable returning a decision of this kit, evaluated on the instances that met it) is returned. With
    none, nothing was tested: ``inconclusive``, with the number of instances at which the premise occurs
    at least once with probability :data:`POWER` if its rate were half the smallest rate that ``trials``
    instances would have met with that probability (:func:`binomial_trials_needed` with ``p0 = 0``).

    >>> from fedtheory.decide import bound
    >>> premised(lambda: bound(0.5, 1.0, what="x"), held=0, trials=6, what="toy")["power"]["needed"]
    13
    """
    if isinstance(held, bool) or int(held) != held or held < 0 or int(trials) != trials or trials < max(held, 1):
        raise ValueError(f"need integers 0 <= held <= trials, trials >= 1; got held={held!r}, trials={trials!r}")
    if held > 0:
        return decide_fn()
    p1 = (1.0 - (1.0 - POWER) ** (1.0 / trials)) / 2  # half the rate these trials would have met
    need = binomial_trials_needed(0.0, p1)
    return inconclusive({"premise_held": 0, "trials": int(trials)}, None, what=f"{what}: the premise held in none "
                        f"of {trials} {unit}", needed=need, unit=unit, current=int(trials),
                        effect=f"at least one instance of the premise at a rate {p1:.3g}",
                        test="P(at least one) = 1 - (1 - rate)^n", params=params, **extra)


def direction(estimate: float, se: float, *, what: str, expect: str = "negative", n: int = 1,
              effect: float | None = None, tests: int = 1, unit: str = "replications", df: float | None = None,
              params=None, **extra) -> dict:
    """The sign of an estimated effect (a slope, a mean difference) with a known standard error: the claim is
    that it is ``"negative"`` (or ``"positive"``).

    Two one-sided z tests of ``estimate/se`` at ``LEVEL / (2 tests)`` (both directions are tested, as
    :func:`ordering` does for paired samples; Student-t tests on ``df`` degrees of freedom when the standard
    error is estimated with ``df`` of them): significant in the expected direction -> ``holds``; significant
    against it -> ``refuted``; neither -> ``inconclusive`` with the number of replications (``n`` of them gave
    ``se``; the standard error shrinks like ``1/sqrt(replications)``) at which a one-sided t test detects an
    effect of size ``effect`` (default ``max(|estimate|, se)``) with power :data:`POWER`
    (:func:`replicates_needed`). The margin is the z statistic in the expected direction; ``detects`` the
    smallest effect these data detect with that power, ``(z_level + z_power) se``.

    >>> direction(-1.0, 0.1, what="slope")["status"], direction(0.05, 0.1, what="slope")["status"]
    ('holds', 'inconclusive')
    """
    from scipy import stats

    if expect not in ("negative", "positive"):
        raise ValueError(f"`expect` must be 'negative' or 'positive'; got {expect!r}")
    if not (np.isfinite(estimate) and np.isfinite(se)) or se <= 0:
        raise ValueError(f"{what}: need a finite estimate and a finite se > 0; got {estimate!r}, {se!r}")
    if df is not None and not (np.isfinite(df) and df >= 1):
        raise ValueError(f"`df` must be a finite number >= 1; got {df!r}")
    lev = corrected_level(2 * tests)
    sign = -1.0 if expect == "negative" else 1.0
    z = sign * float(estimate) / float(se)  # > 0: in the expected direction
    law = stats.norm if df is None else stats.t(float(df))
    p_good, p_bad = float(law.sf(z)), float(law.cdf(z))
    status = HOLDS if p_good < lev else REFUTED if p_bad < lev else INCONCLUSIVE
    smallest = (float(law.isf(lev)) + float(law.ppf(POWER))) * float(se)
    det = _detects(None, "effect", smallest_effect=smallest)
    margin = {"kind": "z in the expected direction", "value": z, "ci": None,
              "tightness": "violated" if status == REFUTED else "unknown"}
    obs = {"estimate": float(estimate), "se": float(se), "z": z, "p_expected": p_good, "p_against": p_bad}
    if df is not None:
        obs["df"] = float(df)
    ev = (f"{what}: estimate {estimate:.4g} (se {se:.3g}{f', t on {df:.3g} df' if df is not None else ''}), "
          f"expected {expect}; one-sided p = {p_good:.3g} "
          f"(expected), {p_bad:.3g} (against) at level {lev:.3g}; these data detect an effect of {smallest:.3g} "
          f"with power {POWER:g}")
    bnd = {"expect": expect, "level": lev}
    if status == INCONCLUSIVE:
        eff = abs(effect) if effect is not None else max(abs(float(estimate)), float(se))
        need = replicates_needed(float(se), int(n), eff, level=lev)
        pw = power_statement(need, unit, current=int(n), effect=f"an effect of {eff:.3g}",
                             test="one-sided t test of the estimate", level=lev)
        return _result(status, obs, bnd, ev + "; " + pw["statement"], margin=margin, detects=det, power=pw,
                       params=params, **extra)
    return _result(status, obs, bnd, ev, margin=margin, detects=det, params=params, **extra)


def erratum_if_decided(printed: dict, corrected: dict, **kw) -> dict:
    """:func:`erratum` once both forms are decided; while either is ``inconclusive`` (a sample too small to
    decide a printed or a corrected reading), the :func:`combine` of the undecided forms, which carries the
    largest size needed. ``kw`` are :func:`erratum`'s keywords (``referee``, ``root_cause``, ``what``, ...).

    >>> from fedtheory.decide import bound, inconclusive
    >>> undecided = inconclusive(None, None, what="x", needed=9, unit="runs", current=1, effect="e", test="t")
    >>> erratum_if_decided(undecided, bound(0.5, 1.0, what="c"), referee="r", root_cause="rc", what="w")["status"]
    'inconclusive'
    """
    undecided = [d for d in (printed, corrected) if isinstance(d, dict) and d.get("status") == INCONCLUSIVE]
    if not undecided:
        return erratum(printed, corrected, **kw)
    keep = {k: kw[k] for k in ("params", "referee") if kw.get(k) is not None}
    out = combine(undecided, what=kw.get("what", "printed vs corrected"), **keep,
                  observed={"printed": printed.get("observed") if isinstance(printed, dict) else printed,
                            "corrected": corrected.get("observed") if isinstance(corrected, dict) else corrected})
    if kw.get("evidence"):
        out["evidence"] = f"{kw['evidence']}; {out['evidence']}"
    return out
