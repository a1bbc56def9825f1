"""Levels, statistics, sizes and power of the decision kit (:mod:`fedtheory.decide`)."""
from __future__ import annotations

import math
import warnings

import numpy as np

from ..claims import to_jsonable

#: significance level of the decisions of one claim (before the Bonferroni split over its ``tests``)
LEVEL = 1e-4
#: power at which an ``inconclusive`` verdict states the size that would decide
POWER = 0.8
#: a margin within this factor of the bound is ``tight``
TIGHT = 2.0
#: a check whose detection factor exceeds this cannot detect an error of this size (``slack``)
SLACK = 10.0


def _check_level(level: float, tests: int) -> None:
    if isinstance(tests, bool) or not isinstance(tests, (int, np.integer)) or tests < 1:
        raise ValueError(f"`tests` must be an integer >= 1; got {tests!r}")
    if not (isinstance(level, (int, float, np.floating)) and 0 < level < 1):
        raise ValueError(f"`level` must be in (0, 1); got {level!r}")


def corrected_level(tests: int = 1, level: float = LEVEL) -> float:
    """The level of each of ``tests`` decisions of one claim: ``level / tests`` (Bonferroni).

    >>> corrected_level(4)
    2.5e-05
    """
    _check_level(level, tests)
    return level / int(tests)


def z_critical(tests: int = 1, *, two_sided: bool = False, level: float = LEVEL, df: float | None = None) -> float:
    """Critical value at ``level / tests`` (halved again when ``two_sided``): the normal quantile, or the
    Student-t quantile with ``df`` degrees of freedom (a mean of ``df + 1`` replications whose standard
    error is estimated from them)."""
    from scipy import stats

    a = corrected_level(tests, level) / (2 if two_sided else 1)
    if df is None or not np.isfinite(df):
        return float(stats.norm.isf(a))
    if df < 1:
        raise ValueError(f"`df` must be >= 1; got {df!r}")
    return float(stats.t.isf(a, df))


def _df_of(estimate) -> float | None:
    """Degrees of freedom of an estimate's standard error: ``n - 1`` for an estimate with ``n`` replications."""
    n = getattr(estimate, "n", None)
    try:
        n = float(n)
    except (TypeError, ValueError):
        return None
    return n - 1 if np.isfinite(n) and n >= 2 else None


def tightness(factor: float | None) -> str:
    """``"tight"`` (within :data:`TIGHT`), ``"loose"`` (within :data:`SLACK`) or ``"slack"`` for a
    detection factor; ``"exact"`` for an identity (``factor`` 1 up to rounding); ``"unknown"`` for ``None``."""
    if factor is None or not np.isfinite(factor):
        return "slack" if factor is not None else "unknown"
    if factor <= 1 + 1e-6:
        return "exact"
    return "tight" if factor <= TIGHT else "loose" if factor <= SLACK else "slack"


def _finite(x) -> bool:
    return bool(np.all(np.isfinite(np.asarray(x, dtype=float))))


def _arr(x, name: str) -> np.ndarray:
    try:
        a = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"`{name}` must be numeric; got {type(x).__name__}") from None
    if a.size == 0:
        raise ValueError(f"`{name}` is empty: a decision needs at least one number")
    return a


def _detects(factor: float | None, of: str, **extra) -> dict:
    f = None if factor is None else (float(factor) if np.isfinite(factor) else math.inf)
    return {"factor": f, "of": of, "relative": None if f is None else (f - 1.0 if np.isfinite(f) else math.inf),
            **extra}


def _slack_note(det: dict) -> str:
    f = det.get("factor")
    if f is not None and (not np.isfinite(f) or f > SLACK):
        return f"; cannot detect a {SLACK:g}x change of the {det['of']} (detects x{f:.3g})"
    return ""


def _result(status, observed, bound, evidence, *, margin=None, detects=None, params=None, **extra) -> dict:
    out = dict(status=status, observed=to_jsonable(observed), bound=to_jsonable(bound), evidence=evidence,
               params=params or {}, margin=margin, detects=detects)
    out.update({k: v for k, v in extra.items() if v is not None})
    return out


def clopper_pearson(k: int, n: int, confidence: float) -> tuple[float, float]:
    """Exact (Clopper-Pearson) two-sided interval of a binomial rate ``k/n``."""
    from scipy import stats

    ci = stats.binomtest(int(k), int(n)).proportion_ci(confidence_level=confidence, method="exact")
    return float(ci.low), float(ci.high)


def sign_test(below: int, above: int) -> tuple[float, float]:
    """Exact one-sided sign-test p-values ``(p_below, p_above)`` of H0: P(below) = 1/2 (ties dropped
    before the call): ``p_below`` is small when significantly more outcomes fall below."""
    from scipy import stats

    below, above = int(below), int(above)
    if below < 0 or above < 0:
        raise ValueError(f"counts must be >= 0; got below={below}, above={above}")
    n = below + above
    if n == 0:
        return 1.0, 1.0
    return (float(stats.binomtest(below, n, 0.5, alternative="greater").pvalue),
            float(stats.binomtest(above, n, 0.5, alternative="greater").pvalue))


def mann_whitney(x, y) -> tuple[float, float, float]:
    """One-sided Mann-Whitney p-values ``(p_less, p_greater, auc)`` of ``x`` against ``y`` (exact without
    ties, the normal approximation with its tie correction otherwise); ``auc = P(X < Y) + P(X = Y)/2``."""
    from scipy import stats

    x, y = np.asarray(x, float).ravel(), np.asarray(y, float).ravel()
    if x.size == 0 or y.size == 0:
        return 1.0, 1.0, 0.5
    ties = np.unique(np.concatenate([x, y])).size < x.size + y.size
    method = "asymptotic" if ties else "exact"
    lo = float(stats.mannwhitneyu(x, y, alternative="less", method=method).pvalue)
    hi = float(stats.mannwhitneyu(x, y, alternative="greater", method=method).pvalue)
    auc = float(np.mean((x[:, None] < y[None, :]) + 0.5 * (x[:, None] == y[None, :])))
    return lo, hi, auc


def _search(ok, start: int, n_max: int) -> int:
    """Smallest integer ``n >= start`` with ``ok(n)`` (doubling, then bisection; ``ok`` monotone)."""
    n = max(int(start), 1)
    if ok(n):
        return n
    lo = n
    while not ok(n):
        lo, n = n, n * 2
        if n > n_max:
            return n_max
    hi = n
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if ok(mid) else (mid, hi)
    return hi


def binomial_power(n: int, p0: float, p1: float, level: float = LEVEL) -> float:
    """Power of the one-sided exact binomial test of H0: P <= ``p0`` at ``level`` with ``n`` trials
    when the true rate is ``p1``."""
    from scipy import stats

    n = int(n)
    if p0 <= 0:
        return float(1 - (1 - p1) ** n)  # any violation rejects
    k = int(stats.binom.isf(level, n, p0)) + 1  # smallest k with P(X >= k | p0) <= level
    while k > 0 and stats.binom.sf(k - 2, n, p0) <= level:
        k -= 1
    return float(stats.binom.sf(k - 1, n, p1))


def binomial_trials_needed(p0: float, p1: float, level: float = LEVEL, power: float = POWER,
                           n_max: int = 10 ** 7) -> int:
    """Smallest number of trials at which the one-sided exact binomial test of H0: P <= ``p0`` at
    ``level`` rejects with probability >= ``power`` when the true rate is ``p1 > p0``.

    The exact power is not monotone in ``n`` (the lattice of the binomial); the search returns the
    first ``n`` of a doubling-then-bisection search, which reaches the power.
    """
    if not 0 <= p0 < p1 <= 1:
        raise ValueError(f"need 0 <= p0 < p1 <= 1; got p0={p0}, p1={p1}")
    return _search(lambda n: binomial_power(n, p0, p1, level) >= power, 1, n_max)


def replicates_needed(se: float, n: int, effect: float, *, level: float = LEVEL, power: float = POWER,
                      n_max: int = 10 ** 7) -> int:
    """Replications at which a one-sided one-sample t test at ``level`` detects a mean shift ``effect``
    with ``power``, when ``n`` replications give the standard error ``se``
    (``statsmodels.stats.power.TTestPower``, Cohen's d = effect / (se sqrt(n))).

    >>> replicates_needed(1.0, 4, 1.0, level=0.05)   # d = 0.5
    27
    """
    from statsmodels.stats.power import TTestPower

    if not (np.isfinite(se) and np.isfinite(effect)) or effect == 0:
        return n_max
    if se <= 0:
        return int(n)
    d = abs(effect) / (se * math.sqrt(n))
    with warnings.catch_warnings():  # a solver that does not converge is handled below
        warnings.simplefilter("ignore")
        need = TTestPower().solve_power(effect_size=d, alpha=level, power=power, alternative="larger")
    need = float(np.atleast_1d(need)[0])
    if np.isfinite(need):
        return int(min(n_max, max(2, math.ceil(need))))
    # the solver does not converge for a large effect (a few replications): search the exact power of the
    # one-sided t test (noncentral t) instead
    from scipy import stats

    return _search(lambda N: stats.nct.sf(stats.t.isf(level, N - 1), N - 1, d * math.sqrt(N)) >= power, 2, n_max)


def sweeps_needed(se: float, gap: float, *, points: int, level: float = LEVEL, power: float = POWER,
                  two_sided: bool = True, r_max: int = 10_000, parameters: int = 2, df: float | None = None) -> int:
    """Replicated sweeps (designs) after which a fitted coefficient's t interval resolves ``gap``: its
    half-width is at most ``|gap|`` with probability ``power``.

    One sweep of ``points`` points gave the standard error ``se``, estimated from ``df`` residual degrees of
    freedom (default ``points - parameters``; ``numpy.inf`` for a known ``se``). ``R`` replicated sweeps
    have ``df_R = R*points - parameters`` degrees of freedom and a true standard error ``1/sqrt(R)`` times
    the current true one. The half-width ``t_crit(df_R) s_R c / sqrt(R)`` (``s_R`` the residual standard
    deviation of the R sweeps, ``c`` the design factor) over the current ``se = s c`` is
    ``t_crit(df_R) sqrt(F) / sqrt(R)`` with ``F = s_R^2 / s^2 ~ F(df_R, df)``, a pivot whatever the noise
    level (``chi2(df_R)/df_R`` for a known ``se``). So the criterion is
    ``t_crit(df_R) se sqrt(F_power(df_R, df)) / sqrt(R) <= |gap|``. Plugging in the current ``se`` as if
    it were exact (``(t_crit + t_power) se / sqrt(R)``) understates the size when ``df`` is small: with one
    residual degree of freedom the standard error is off by a factor ~4 at the 80% quantile.

    >>> sweeps_needed(0.1, 0.25, points=5, parameters=4) > sweeps_needed(0.1, 0.25, points=5, df=np.inf)
    True
    """
    from scipy import stats

    if gap == 0 or not np.isfinite(se) or not np.isfinite(gap):
        return r_max
    if se <= 0:
        return 1
    points, parameters = int(points), int(parameters)
    if points < 1 or parameters < 0:
        raise ValueError(f"need points >= 1 and parameters >= 0; got points={points}, parameters={parameters}")
    df_now = points - parameters if df is None else df
    if not df_now > 0:
        raise ValueError(f"the current standard error needs df > 0 residual degrees of freedom; got {df_now!r}")
    a = level / 2 if two_sided else level

    def ok(R):
        df_r = max(R * points - parameters, 1)
        q = (stats.chi2.ppf(power, df_r) / df_r if not np.isfinite(df_now)
             else stats.f.ppf(power, df_r, df_now))
        return stats.t.isf(a, df_r) * se * math.sqrt(q) / math.sqrt(R) <= abs(gap)

    return _search(ok, 1, r_max)


def pairs_needed(p_success: float, *, level: float = LEVEL, power: float = POWER, n_max: int = 10 ** 7) -> int:
    """Untied pairs at which the exact one-sided sign test at ``level`` detects a success probability
    ``p_success > 1/2`` with ``power``."""
    if not 0.5 < p_success <= 1:
        raise ValueError(f"`p_success` must be in (0.5, 1]; got {p_success}")
    return binomial_trials_needed(0.5, p_success, level, power, n_max)


def mann_whitney_size_needed(auc: float, *, level: float = LEVEL, power: float = POWER,
                             n_max: int = 10 ** 7) -> int:
    """Per-group size at which a one-sided Mann-Whitney test at ``level`` detects ``auc`` with ``power``.

    The AUC is mapped to a normal shift d = sqrt(2) Phi^-1(auc) (binormal model); the two-sample z
    test's size (``statsmodels.stats.power.NormalIndPower``) is divided by the Mann-Whitney test's
    asymptotic relative efficiency 3/pi under normality.
    """
    from scipy import stats
    from statsmodels.stats.power import NormalIndPower

    eff = abs(auc - 0.5)
    if eff == 0 or not np.isfinite(auc):
        return n_max
    d = math.sqrt(2) * float(stats.norm.ppf(0.5 + min(eff, 0.5 - 1e-12)))
    with warnings.catch_warnings():  # a solver that does not converge is handled below
        warnings.simplefilter("ignore")
        n = float(np.atleast_1d(NormalIndPower().solve_power(effect_size=d, alpha=level, power=power, ratio=1.0,
                                                             alternative="larger"))[0])
    if not np.isfinite(n):  # the solver does not converge below ~2 per group (an AUC near 0 or 1): the closed form
        n = 2 * (float(stats.norm.isf(level)) + float(stats.norm.ppf(power))) ** 2 / d ** 2
    return int(min(n_max, math.ceil(n * math.pi / 3)))


def power_statement(needed: int, unit: str, *, current: int, effect: str, test: str,
                    level: float = LEVEL, power: float = POWER, verb: str = "detect") -> dict:
    """The power statement of an ``inconclusive`` verdict (a dict with ``needed`` and a sentence);
    ``verb``: what the size would do to ``effect`` ("detect" an effect, "resolve" an exponent to +-w)."""
    needed = int(needed)
    return {"needed": needed, "unit": unit, "current": int(current), "power": power, "level": level,
            "effect": effect, "test": test,
            "statement": f"{needed} {unit} (now {int(current)}) would {verb} {effect} with power {power:g} "
                         f"at level {level:.3g} ({test})"}


def fit_line(x, y, *, se=None, model: str = "loglog", confidence: float = 1 - LEVEL) -> dict:
    """Least-squares line ``Y = a + b X`` (``statsmodels`` OLS, or WLS with weights ``1/se_Y^2`` when the
    standard errors of ``y`` are known). ``model="loglog"`` fits ``log y`` on ``log x`` (the standard
    errors mapped by the delta method, ``se/y``); ``"affine"`` fits ``y`` on ``x``; ``"semilog"`` fits
    ``log y`` on ``x``. Returns slope, intercept, their standard errors, the slope's t interval at
    ``confidence``, the residual degrees of freedom and the model's name."""
    import statsmodels.api as sm

    x, y = _arr(x, "x").ravel(), _arr(y, "y").ravel()
    if x.shape != y.shape:
        raise ValueError(f"`x` and `y` must have the same length; got {x.size} and {y.size}")
    if model not in ("loglog", "affine", "semilog"):
        raise ValueError(f"`model` must be 'loglog', 'affine' or 'semilog'; got {model!r}")
    if x.size < 3 or np.unique(x).size < 2:
        raise ValueError(f"a line fit needs >= 3 points at >= 2 distinct x; got {x.size} points")
    s = None if se is None else _arr(se, "se").ravel()
    if s is not None and s.shape != y.shape:
        raise ValueError(f"`se` must have the length of `y`; got {s.size} and {y.size}")
    if model in ("loglog", "semilog") and np.any(y <= 0) or model == "loglog" and np.any(x <= 0):
        raise ValueError("a log fit needs positive values")
    X = np.log(x) if model == "loglog" else x
    Y = np.log(y) if model in ("loglog", "semilog") else y
    if s is not None:
        s = s / y if model in ("loglog", "semilog") else s
        if np.any(s <= 0) or not _finite(s):
            raise ValueError("`se` must be positive and finite")
    design = sm.add_constant(X, has_constant="add")
    res = (sm.WLS(Y, design, weights=1.0 / s ** 2) if s is not None else sm.OLS(Y, design)).fit()
    lo, hi = res.conf_int(alpha=1 - confidence)[1]
    name = {"loglog": "log y = a + b log x", "affine": "y = a + b x", "semilog": "log y = a + b x"}[model]
    return {"slope": float(res.params[1]), "intercept": float(res.params[0]), "slope_se": float(res.bse[1]),
            "intercept_se": float(res.bse[0]), "ci": [float(lo), float(hi)], "df": int(res.df_resid),
            "confidence": confidence, "n": int(x.size),
            "model": f"{name} ({'WLS, weights 1/se^2' if s is not None else 'OLS'}, t interval)"}
