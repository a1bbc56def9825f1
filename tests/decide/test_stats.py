"""Tests of :mod:`fedtheory.decide._stats`: the statistics under the decision kit: the corrected level and critical
values, Student-t degrees of freedom, binomial and Clopper-Pearson sizes and power, sign and Mann-Whitney tests and
their sizes, replication and sweep counts, power statements and the search."""
import math

import numpy as np
import pytest
from scipy import stats

from fedtheory import decide

LEVEL = decide.LEVEL


# ============================================================================ levels
def test_corrected_level_and_critical_values():
    assert decide.corrected_level(1) == LEVEL and decide.corrected_level(4) == LEVEL / 4
    assert decide.corrected_level(2, level=0.1) == 0.05
    assert decide.z_critical() == pytest.approx(stats.norm.ppf(1 - LEVEL))
    assert decide.z_critical(5) == pytest.approx(stats.norm.ppf(1 - LEVEL / 5))
    assert decide.z_critical(5, two_sided=True) == pytest.approx(stats.norm.ppf(1 - LEVEL / 10))
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="`tests`"):
            decide.corrected_level(bad)
    for bad in (0, 1, -0.1, 2):
        with pytest.raises(ValueError, match="`level`"):
            decide.corrected_level(1, level=bad)


@pytest.mark.parametrize("factor,label", [(None, "unknown"), (1.0, "exact"), (1.0 + 1e-7, "exact"), (1.5, "tight"),
                                          (2.0, "tight"), (2.01, "loose"), (10.0, "loose"), (10.5, "slack"),
                                          (math.inf, "slack")])
def test_tightness_labels(factor, label):
    assert decide.tightness(factor) == label


# ============================================================================ probability
def _exact_power(n, p0, p1, level):
    """Independent: the rejection region of the exact one-sided test from direct binomial tail sums."""
    pmf0 = stats.binom.pmf(np.arange(n + 1), n, p0)
    tail0 = np.cumsum(pmf0[::-1])[::-1]  # P(X >= k)
    k = int(np.argmax(tail0 <= level)) if np.any(tail0 <= level) else n + 1
    return float(stats.binom.pmf(np.arange(k, n + 1), n, p1).sum())


@pytest.mark.parametrize("n,p0,p1", [(50, 0.05, 0.3), (200, 0.1, 0.2), (30, 0.01, 0.5), (10, 0.2, 0.9)])
def test_binomial_power_matches_direct_sums(n, p0, p1):
    assert decide.binomial_power(n, p0, p1, 1e-3) == pytest.approx(_exact_power(n, p0, p1, 1e-3), abs=1e-12)


def test_binomial_trials_needed_reaches_the_power():
    n = decide.binomial_trials_needed(0.05, 0.2, 1e-3)
    assert _exact_power(n, 0.05, 0.2, 1e-3) >= 0.8
    assert _exact_power(n - 1, 0.05, 0.2, 1e-3) < 0.8 or _exact_power(n // 2, 0.05, 0.2, 1e-3) < 0.8
    assert decide.binomial_power(5, 0.0, 0.5) == pytest.approx(1 - 0.5 ** 5)
    with pytest.raises(ValueError, match="p0 < p1"):
        decide.binomial_trials_needed(0.5, 0.2)


# ============================================================================ rate
def test_fit_line_matches_numpy_least_squares():
    rng = np.random.default_rng(0)
    x = np.array([1, 2, 4, 8, 16, 32.0])
    y = 3 * x ** -0.5 * np.exp(rng.normal(0, 0.05, x.size))
    fit = decide.fit_line(x, y)
    b, a = np.polyfit(np.log(x), np.log(y), 1)
    assert fit["slope"] == pytest.approx(b) and fit["intercept"] == pytest.approx(a)
    resid = np.log(y) - (a + b * np.log(x))
    s2 = resid @ resid / (x.size - 2)
    se = math.sqrt(s2 / np.sum((np.log(x) - np.log(x).mean()) ** 2))
    assert fit["slope_se"] == pytest.approx(se)
    t = stats.t.isf((1 - fit["confidence"]) / 2, x.size - 2)
    assert fit["ci"] == pytest.approx([b - t * se, b + t * se])
    assert "OLS" in fit["model"] and fit["df"] == 4
    # WLS with known standard errors: weights 1/se^2 (independent: weighted normal equations)
    se_y = 0.05 * y * (1 + np.arange(x.size))
    fit = decide.fit_line(x, y, se=se_y)
    w = 1 / (se_y / y) ** 2
    X = np.column_stack([np.ones(x.size), np.log(x)])
    beta = np.linalg.solve(X.T @ (w[:, None] * X), X.T @ (w * np.log(y)))
    assert fit["slope"] == pytest.approx(beta[1]) and "WLS" in fit["model"]
    # affine and semilog
    fit = decide.fit_line([0, 1, 2, 3.0], [1, 3, 5, 7.0], model="affine")
    assert fit["slope"] == pytest.approx(2) and fit["model"].startswith("y = a + b x")
    fit = decide.fit_line([0, 1, 2, 3.0], np.exp([1, 0.5, 0, -0.5]), model="semilog")
    assert fit["slope"] == pytest.approx(-0.5)


@pytest.mark.parametrize("kw,match", [(dict(x=[1, 2], y=[1, 2]), ">= 3 points"), (dict(x=[1, 1, 1], y=[1, 2, 3]), ">= 3 points"),
                                      (dict(x=[1, 2, 3], y=[1, 2]), "same length"),
                                      (dict(x=[1, 2, 3], y=[1, -2, 3]), "positive"),
                                      (dict(x=[1, 2, 3], y=[1, 2, 3], model="cubic"), "`model`"),
                                      (dict(x=[1, 2, 3], y=[1, 2, 3], se=[1, 1]), "`se`"),
                                      (dict(x=[1, 2, 3], y=[1, 2, 3], se=[1, 0, 1]), "`se`")])
def test_fit_line_refuses_bad_input(kw, match):
    with pytest.raises(ValueError, match=match):
        decide.fit_line(**kw)


def test_sweeps_needed_edges():
    assert decide.sweeps_needed(0.0, 0.1, points=4) == 1
    assert decide.sweeps_needed(0.1, 0.0, points=4) == 10_000
    assert decide.sweeps_needed(np.inf, 0.1, points=4) == 10_000
    R = decide.sweeps_needed(0.2, 0.25, points=4, level=0.05)
    q = lambda r, a: stats.t.isf(a, 4 * r - 2) * 0.2 * math.sqrt(stats.f.ppf(0.8, 4 * r - 2, 2)) / math.sqrt(r)
    assert q(R, 0.025) <= 0.25 < q(R - 1, 0.025)
    R1 = decide.sweeps_needed(0.2, 0.25, points=4, level=0.05, two_sided=False)
    assert q(R1, 0.05) <= 0.25 and R1 <= R
    # a known se (df = inf): the future residual sd's 80% quantile alone, chi2(df_R)/df_R
    Rk = decide.sweeps_needed(0.2, 0.25, points=4, level=0.05, df=np.inf)
    qk = lambda r: stats.t.isf(0.025, 4 * r - 2) * 0.2 * math.sqrt(stats.chi2.ppf(0.8, 4 * r - 2) / (4 * r - 2)) / math.sqrt(r)
    assert qk(Rk) <= 0.25 < qk(Rk - 1) and Rk < R
    with pytest.raises(ValueError, match="df > 0"):
        decide.sweeps_needed(0.2, 0.25, points=2, parameters=2)


def test_replicates_needed_matches_the_t_test_power():
    n = decide.replicates_needed(1.0, 4, 1.0, level=0.05)  # d = 0.5
    # independent: the one-sided one-sample t test's power from the noncentral t distribution
    pw = lambda N: stats.nct.sf(stats.t.isf(0.05, N - 1), N - 1, 0.5 * math.sqrt(N))
    assert pw(n) >= 0.8 > pw(n - 1)
    assert decide.replicates_needed(0.0, 7, 1.0) == 7
    assert decide.replicates_needed(1.0, 4, 0.0) == 10 ** 7


def test_pairs_and_mann_whitney_sizes():
    n = decide.pairs_needed(0.9, level=1e-3)
    assert _exact_power(n, 0.5, 0.9, 1e-3) >= 0.8
    with pytest.raises(ValueError, match="p_success"):
        decide.pairs_needed(0.5)
    m = decide.mann_whitney_size_needed(0.8, level=0.05)
    # independent: normal-approximation size of the two-sample z test at d = sqrt(2) Phi^-1(0.8), / (3/pi)
    d = math.sqrt(2) * stats.norm.ppf(0.8)
    z = (stats.norm.isf(0.05) + stats.norm.isf(0.2)) ** 2 * 2 / d ** 2
    assert m == math.ceil(z * math.pi / 3) or abs(m - z * math.pi / 3) < 2
    assert decide.mann_whitney_size_needed(0.5) == 10 ** 7


# ============================================================================ ordering
def test_sign_test_and_mann_whitney_statistics():
    assert decide.sign_test(0, 0) == (1.0, 1.0)
    pb, pa = decide.sign_test(9, 1)
    assert pb == pytest.approx(stats.binom.sf(8, 10, 0.5)) and pa == pytest.approx(stats.binom.sf(0, 10, 0.5))
    with pytest.raises(ValueError, match="counts"):
        decide.sign_test(-1, 3)
    lo, hi, auc = decide.mann_whitney([1, 2, 3], [4, 5, 6])
    assert auc == 1.0 and lo == pytest.approx(1 / 20) and hi == pytest.approx(1.0)
    assert decide.mann_whitney([], [1]) == (1.0, 1.0, 0.5)
    _, _, auc = decide.mann_whitney([1, 2, 2], [2, 3, 4])  # ties count one half: (3 + 2.5 + 2.5) / 9
    assert auc == pytest.approx(8 / 9)


def test_power_statement_fields():
    p = decide.power_statement(12, "runs", current=4, effect="a shift of 1", test="t test")
    assert p["needed"] == 12 and p["current"] == 4 and p["power"] == decide.POWER
    assert p["statement"].startswith("12 runs (now 4) would detect a shift of 1 with power 0.8")


# ============================================================================ levels, labels and helpers: exact values
def test_level_validation_names_the_argument_and_accepts_numpy_scalars():
    assert decide.corrected_level(np.int64(4)) == LEVEL / 4
    assert decide.corrected_level(2, level=np.float64(0.1)) == 0.05
    with pytest.raises(ValueError, match=r"`tests` must be an integer >= 1; got 0"):
        decide.corrected_level(0)
    with pytest.raises(ValueError, match=r"`tests` must be an integer >= 1; got 2.0"):
        decide.corrected_level(2.0)
    with pytest.raises(ValueError, match=r"`level` must be in \(0, 1\); got '0.1'"):
        decide.corrected_level(1, level="0.1")
    with pytest.raises(ValueError, match=r"`level` must be in \(0, 1\); got 1.5"):
        decide.corrected_level(1, level=1.5)


def test_z_critical_student_t_degrees_of_freedom():
    assert decide.z_critical(df=1) == pytest.approx(stats.t.isf(LEVEL, 1))
    assert decide.z_critical(df=1.5) == pytest.approx(stats.t.isf(LEVEL, 1.5))
    assert decide.z_critical(4, two_sided=True, df=7) == pytest.approx(stats.t.isf(LEVEL / 8, 7))
    assert decide.z_critical(df=math.inf) == pytest.approx(stats.norm.isf(LEVEL))
    assert decide.z_critical(level=0.05) == pytest.approx(1.6448536269514722)
    with pytest.raises(ValueError, match=r"`df` must be >= 1; got 0.99"):
        decide.z_critical(df=0.99)


@pytest.mark.parametrize("factor,label", [(1 + 1e-6, "exact"), (1 + 2e-6, "tight"), (math.nan, "slack"),
                                          (-math.inf, "slack"), (0.5, "exact")])
def test_tightness_edges(factor, label):
    assert decide.tightness(factor) == label


def test_clopper_pearson_against_beta_quantiles():
    # independent: the exact interval's limits are Beta quantiles
    for k, n in ((3, 20), (0, 10), (10, 10), (7, 7 * 13)):
        lo, hi = decide.clopper_pearson(k, n, 0.95)
        assert lo == pytest.approx(stats.beta.ppf(0.025, k, n - k + 1) if k > 0 else 0.0, abs=1e-12)
        assert hi == pytest.approx(stats.beta.isf(0.025, k + 1, n - k) if k < n else 1.0, abs=1e-12)


def test_sign_test_one_sided_tails_and_message():
    pb, pa = decide.sign_test(2, 8)
    assert pb == pytest.approx(sum(math.comb(10, j) for j in range(2, 11)) / 2 ** 10)
    assert pa == pytest.approx(sum(math.comb(10, j) for j in range(8, 11)) / 2 ** 10)
    assert decide.sign_test(0, 3) == pytest.approx((1.0, 1 / 8))
    with pytest.raises(ValueError, match=r"counts must be >= 0; got below=2, above=-1"):
        decide.sign_test(2, -1)


def test_mann_whitney_exact_without_ties_and_tie_corrected_normal_with_ties():
    # no ties: the exact null distribution of U by enumerating the 20 splits of 6 ranks into 3 + 3
    from itertools import combinations
    x, y = [1.0, 2.5, 4.0], [2.0, 3.0, 5.0]
    u_obs = sum(a > b for a in x for b in y)  # U of x: 2
    us = [sum(a > b for a in c for b in set(range(6)) - set(c)) for c in combinations(range(6), 3)]
    lo, hi, auc = decide.mann_whitney(x, y)
    assert lo == pytest.approx(np.mean([u <= u_obs for u in us]))
    assert hi == pytest.approx(np.mean([u >= u_obs for u in us]))
    assert auc == pytest.approx(1 - u_obs / 9)
    # ties (the value 2 thrice): the normal approximation with the tie-corrected variance and continuity
    x, y = [1.0, 2.0, 2.0], [2.0, 3.0, 4.0, 5.0]
    u = 0.5 + 0.5  # x > y counts, ties one half: 1 beats none of y; each 2 ties the 2 of y once
    n1, n2, N = 3, 4, 7
    var = n1 * n2 / 12 * ((N + 1) - (3 ** 3 - 3) / (N * (N - 1)))
    lo, hi, auc = decide.mann_whitney(x, y)
    assert lo == pytest.approx(stats.norm.cdf((u - n1 * n2 / 2 + 0.5) / math.sqrt(var)))
    assert hi == pytest.approx(stats.norm.sf((u - n1 * n2 / 2 - 0.5) / math.sqrt(var)))
    assert auc == pytest.approx(1 - u / 12)
    # ties with the larger sample first
    lo2, hi2, _ = decide.mann_whitney(y, x)
    assert lo2 == pytest.approx(hi) and hi2 == pytest.approx(lo)


def test_search_doubling_then_bisection():
    from fedtheory.decide._stats import _search

    assert _search(lambda n: n >= 37, 1, 1000) == 37
    assert _search(lambda n: n >= 64, 1, 1000) == 64
    assert _search(lambda n: n >= 5, 10, 100) == 10
    assert _search(lambda n: n >= 1, 0, 100) == 1
    assert _search(lambda n: n >= 3, -4, 100) == 3
    assert _search(lambda n: False, 1, 100) == 100
    # the doubling reaches 128: allowed when n_max is 128, capped when it is 127
    assert _search(lambda n: n >= 100, 1, 128) == 100
    assert _search(lambda n: n >= 100, 1, 127) == 127


def test_binomial_sizes_edges_and_messages():
    # p1 = 1: all n trials fail; the test rejects once P(X >= n | 1/2) = 2^-n <= level: n = 14 at 1e-4
    assert 0.5 ** 14 <= LEVEL < 0.5 ** 13
    assert decide.binomial_trials_needed(0.5, 1.0) == 14 == decide.pairs_needed(1.0)
    assert decide.binomial_trials_needed(0.05, 0.051, n_max=100) == 100
    n = decide.binomial_trials_needed(0.05, 0.2, 1e-3, power=0.5)
    assert _exact_power(n, 0.05, 0.2, 1e-3) >= 0.5 > _exact_power(n - 1, 0.05, 0.2, 1e-3)
    assert n < decide.binomial_trials_needed(0.05, 0.2, 1e-3)
    for p0, p1 in ((0.5, 0.2), (-0.1, 0.2), (0.1, 1.5), (0.2, 0.2)):
        with pytest.raises(ValueError, match=rf"need 0 <= p0 < p1 <= 1; got p0={p0}, p1={p1}"):
            decide.binomial_trials_needed(p0, p1)
    # p0 = 0: one violation rejects, power 1 - (1 - p1)^n at any level
    assert decide.binomial_power(7, 0.0, 0.3, level=0.5) == pytest.approx(1 - 0.7 ** 7)
    assert decide.binomial_power(40, 0.1, 0.3) == pytest.approx(_exact_power(40, 0.1, 0.3, LEVEL), abs=1e-12)


def test_pairs_needed_is_the_first_size_reaching_the_power():
    for p, lev in ((0.9, 1e-3), (0.75, LEVEL), (0.8, 0.05)):
        n = decide.pairs_needed(p, level=lev)
        # the bisection ends between a size below the power and one above it
        assert _exact_power(n, 0.5, p, lev) >= 0.8 > _exact_power(n - 1, 0.5, p, lev)
    n = decide.pairs_needed(0.9, level=1e-3, power=0.5)
    assert _exact_power(n, 0.5, 0.9, 1e-3) >= 0.5 > _exact_power(n - 1, 0.5, 0.9, 1e-3)
    assert decide.pairs_needed(0.6, n_max=30) == 30
    for bad in (0.5, 1.01, 0.2):
        with pytest.raises(ValueError, match=rf"`p_success` must be in \(0.5, 1\]; got {bad}"):
            decide.pairs_needed(bad)


def test_replicates_needed_edges():
    nct_power = lambda N, d, a: stats.nct.sf(stats.t.isf(a, N - 1), N - 1, d * math.sqrt(N))
    for se, n, eff, lev, pw in ((0.5, 9, -0.5, 1e-3, 0.8), (2.0, 16, 1.0, LEVEL, 0.8), (1.0, 4, 1.0, 0.05, 0.5)):
        d = abs(eff) / (se * math.sqrt(n))
        need = decide.replicates_needed(se, n, eff, level=lev, power=pw)
        assert nct_power(need, d, lev) >= pw > nct_power(need - 1, d, lev)
    assert decide.replicates_needed(np.nan, 4, 1.0) == 10 ** 7
    assert decide.replicates_needed(1.0, 4, np.inf, n_max=99) == 99
    assert decide.replicates_needed(-1.0, 7, 1.0) == 7
    assert decide.replicates_needed(1.0, 4, 1e-3, n_max=50) == 50
    # a huge effect (statsmodels' solver does not converge there): the exact t test needs 2 replications at
    # level 0.3, and at level 0.05 the smallest N whose noncentral-t power reaches 0.8
    assert decide.replicates_needed(1.0, 1, 1e3, level=0.3) == 2
    for d in (20.0, 50.0):
        need = decide.replicates_needed(1.0, 1, d, level=1e-3)
        assert nct_power(need, d, 1e-3) >= 0.8 > nct_power(need - 1, d, 1e-3) and need < 10
    # a moderate effect at level 0.05: the solver's root, rounded up, at least 2
    assert decide.replicates_needed(1.0, 1, 5.0, level=0.05) == 3


def test_sweeps_needed_points_power_and_cap():
    q = lambda r, pts, a, pw: (stats.t.isf(a, r * pts - 2) * 0.2 * math.sqrt(stats.f.ppf(pw, r * pts - 2, pts - 2))
                               / math.sqrt(r))
    R = decide.sweeps_needed(0.2, 0.1, points=6, level=0.01, power=0.9)
    assert q(R, 6, 0.005, 0.9) <= 0.1 < q(R - 1, 6, 0.005, 0.9)
    R = decide.sweeps_needed(0.2, -0.1, points=3, level=0.01, two_sided=False)
    assert q(R, 3, 0.01, 0.8) <= 0.1 < q(R - 1, 3, 0.01, 0.8)
    assert decide.sweeps_needed(0.2, 0.1, points=3, r_max=5) == 5
    assert decide.sweeps_needed(0.2, np.nan, points=3, r_max=7) == 7
    assert decide.sweeps_needed(-1.0, 0.1, points=3) == 1


def _half_width(R, se, points, parameters, df_now, a, power):
    """The docstring's criterion at R sweeps: t_crit(df_R) se sqrt(F_power(df_R, df)) / sqrt(R), df_R = R points - p."""
    df_r = R * points - parameters
    q = stats.chi2.ppf(power, df_r) / df_r if not np.isfinite(df_now) else stats.f.ppf(power, df_r, df_now)
    return stats.t.isf(a, df_r) * se * math.sqrt(q) / math.sqrt(R)


@pytest.mark.parametrize("se, gap, points, parameters, df", [
    (0.2, 5.0, 3, 2, None),  # one residual df now, and one per sweep at R = 1
    (0.2, 1.0, 1, 0, None),  # a one-point design with no fitted parameter (the smallest valid one)
    (0.2, 1.2, 3, 0, None),  # one sweep already resolves the gap
    (0.2, 0.3, 3, 0, None),
    (0.5, -0.4, 5, 3, np.inf),  # a known se: the chi2 pivot
    (0.2, 0.1, 4, 1, 7.0)])  # df given explicitly
def test_sweeps_needed_is_the_first_R_whose_half_width_is_at_most_the_gap(se, gap, points, parameters, df):
    """Brute force over R = 1, 2, ... of the criterion (the smallest R, not only a bracket)."""
    df_now = points - parameters if df is None else df
    R = 1
    while _half_width(R, se, points, parameters, df_now, 0.025, 0.8) > abs(gap):
        R += 1
    assert decide.sweeps_needed(se, gap, points=points, parameters=parameters, df=df, level=0.05) == R


def test_sweeps_needed_gap_equal_to_the_half_width_is_resolved():
    """At most |gap|, inclusive: a gap equal to the half-width at R = 2 needs exactly 2 sweeps."""
    gap = _half_width(2, 0.2, 3, 2, 1, 0.025, 0.8)
    assert decide.sweeps_needed(0.2, gap, points=3, level=0.05) == 2
    assert decide.sweeps_needed(0.2, gap * (1 - 1e-12), points=3, level=0.05) == 3


def test_sweeps_needed_zero_gap_or_infinite_se_is_never_resolved_and_bad_designs_are_refused():
    # a zero gap: the cap, even where the standard error is zero (the gap test comes first)
    assert decide.sweeps_needed(0.0, 0.0, points=4, r_max=9) == 9
    assert decide.sweeps_needed(-1.0, 0.0, points=4, r_max=9) == 9
    # a non-finite standard error of either sign (a failed fit): the cap, not the one sweep of an exact fit
    for se in (np.inf, -np.inf, np.nan):
        assert decide.sweeps_needed(se, 0.1, points=4, r_max=9) == 9
    for points, parameters in ((0, 2), (0, 0), (4, -1), (-3, -1)):
        with pytest.raises(ValueError) as e:
            decide.sweeps_needed(0.2, 0.25, points=points, parameters=parameters, df=np.inf)
        assert str(e.value) == (f"need points >= 1 and parameters >= 0; got points={points}, "
                                f"parameters={parameters}")


def test_mann_whitney_size_needed_against_the_normal_closed_form():
    # the two-sample one-sided z test's size per group, 2 (z_a + z_b)^2 / d^2, over the efficiency 3/pi
    def closed(auc, lev, pw=0.8):
        d = math.sqrt(2) * stats.norm.ppf(0.5 + abs(auc - 0.5))
        return math.ceil(2 * (stats.norm.isf(lev) + stats.norm.ppf(pw)) ** 2 / d ** 2 * math.pi / 3)
    for auc, lev in ((0.8, 0.05), (0.8, LEVEL), (0.95, LEVEL), (0.6, LEVEL), (0.3, 1e-3)):
        assert decide.mann_whitney_size_needed(auc, level=lev) == closed(auc, lev)
    assert decide.mann_whitney_size_needed(0.7, level=0.01, power=0.9) == closed(0.7, 0.01, 0.9)
    assert decide.mann_whitney_size_needed(0.2) == decide.mann_whitney_size_needed(0.8)
    assert decide.mann_whitney_size_needed(0.55, n_max=20) == 20
    assert decide.mann_whitney_size_needed(np.nan) == 10 ** 7
    # an AUC of (almost) 1: a finite size (the closed form where the solver does not converge)
    d1 = math.sqrt(2) * stats.norm.isf(1e-12)
    assert decide.mann_whitney_size_needed(1.0) == math.ceil(2 * (stats.norm.isf(LEVEL) + stats.norm.ppf(0.8)) ** 2
                                                            / d1 ** 2 * math.pi / 3) == 1
    assert decide.mann_whitney_size_needed(0.0) == 1
    assert decide.mann_whitney_size_needed(0.9999) == closed(0.9999, LEVEL) == 2


def test_power_statement_all_fields():
    p = decide.power_statement(12.0, "runs", current=4.0, effect="a shift of 1", test="t test", level=0.05,
                               power=0.9)
    assert p == {"needed": 12, "unit": "runs", "current": 4, "power": 0.9, "level": 0.05, "effect": "a shift of 1",
                 "test": "t test",
                 "statement": "12 runs (now 4) would detect a shift of 1 with power 0.9 at level 0.05 (t test)"}
    p = decide.power_statement(3, "pairs", current=1, effect="e", test="sign test")
    assert p["level"] == LEVEL and p["statement"].endswith("with power 0.8 at level 0.0001 (sign test)")


def test_fit_line_fields_and_models():
    x = np.array([1.0, 2.0, 4.0, 8.0, 16.0])
    y = np.array([2.0, 1.3, 0.9, 0.55, 0.4])
    for model, X, Y, name in (("loglog", np.log(x), np.log(y), "log y = a + b log x"),
                              ("affine", x, y, "y = a + b x"), ("semilog", x, np.log(y), "log y = a + b x")):
        fit = decide.fit_line(x, y, model=model, confidence=0.95)
        A = np.column_stack([np.ones(x.size), X])
        beta, *_ = np.linalg.lstsq(A, Y, rcond=None)
        r = Y - A @ beta
        cov = r @ r / 3 * np.linalg.inv(A.T @ A)
        t = stats.t.isf(0.025, 3)
        assert fit["slope"] == pytest.approx(beta[1]) and fit["intercept"] == pytest.approx(beta[0])
        assert fit["slope_se"] == pytest.approx(math.sqrt(cov[1, 1]))
        assert fit["intercept_se"] == pytest.approx(math.sqrt(cov[0, 0]))
        assert fit["ci"] == pytest.approx([beta[1] - t * math.sqrt(cov[1, 1]), beta[1] + t * math.sqrt(cov[1, 1])])
        assert fit["df"] == 3 and fit["n"] == 5 and fit["confidence"] == 0.95
        assert fit["model"] == f"{name} (OLS, t interval)"
    # known standard errors: weights 1/se^2 on the fitted scale (se/y for a log scale)
    se = np.array([0.1, 0.05, 0.05, 0.02, 0.03])
    for model, X, Y, s in (("semilog", x, np.log(y), se / y), ("affine", x, y, se), ("loglog", np.log(x), np.log(y), se / y)):
        fit = decide.fit_line(x, y, se=se, model=model)
        A = np.column_stack([np.ones(x.size), X])
        w = 1 / s ** 2
        beta = np.linalg.solve(A.T @ (w[:, None] * A), A.T @ (w * Y))
        assert fit["slope"] == pytest.approx(beta[1]) and fit["intercept"] == pytest.approx(beta[0])
        assert fit["model"].endswith("(WLS, weights 1/se^2, t interval)")
    # the default confidence is 1 - LEVEL; a semilog fit takes x <= 0
    assert decide.fit_line(x, y)["confidence"] == 1 - LEVEL
    fit = decide.fit_line([-1.0, 0.0, 1.0], [1.0, 2.0, 4.0], model="semilog")
    assert fit["slope"] == pytest.approx(math.log(2))


@pytest.mark.parametrize("kw,exc,match", [
    (dict(x="abc", y=[1, 2, 3]), TypeError, "`x` must be numeric; got str"),
    (dict(x=[1, 2, 3], y=["a", "b", "c"]), TypeError, "`y` must be numeric; got list"),
    (dict(x=[1, 2, 3], y=[1, 2, 3], se="abc"), TypeError, "`se` must be numeric; got str"),
    (dict(x=[1, 2, 3], y=[1, 2], model="affine"), ValueError, r"`x` and `y` must have the same length; got 3 and 2"),
    (dict(x=[1, 2, 3], y=[1, 2, 3], model="cubic"), ValueError, r"`model` must be 'loglog', 'affine' or 'semilog'; got 'cubic'"),
    (dict(x=[1, 2], y=[1, 2]), ValueError, r"a line fit needs >= 3 points at >= 2 distinct x; got 2 points"),
    (dict(x=[2, 2, 2], y=[1, 2, 3]), ValueError, r"got 3 points"),
    (dict(x=[1, 2, 3], y=[1, 2, 3], se=[1, 1]), ValueError, r"`se` must have the length of `y`; got 2 and 3"),
    (dict(x=[1, 2, 3], y=[1, 0, 3], model="semilog"), ValueError, r"^a log fit needs positive values$"),
    (dict(x=[0, 2, 3], y=[1, 2, 3]), ValueError, r"^a log fit needs positive values$"),
    (dict(x=[1, 2, 3], y=[1, 2, 3], se=[1, np.nan, 1]), ValueError, "`se` must be positive and finite"),
    (dict(x=[1, 2, 3], y=[1, 2, 3], se=[1, -1, 1], model="affine"), ValueError, "`se` must be positive and finite"),
])
def test_fit_line_messages(kw, exc, match):
    with pytest.raises(exc, match=match):
        decide.fit_line(**kw)


def test_fit_line_affine_takes_nonpositive_values():
    fit = decide.fit_line([0.0, 1.0, 2.0, 3.0], [-1.0, 1.0, 3.1, 4.9], model="affine")
    assert fit["slope"] == pytest.approx(np.polyfit([0, 1, 2, 3], [-1, 1, 3.1, 4.9], 1)[0])
