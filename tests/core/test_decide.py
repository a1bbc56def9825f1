"""The decision kit (fedtheory.decide): every template's outcome, margin, detection threshold and power
statement, each checked against an independent computation (direct binomial sums, closed-form normal
and t quantiles, numpy's least squares) rather than a copy of the kit's own formula."""
from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest
from scipy import stats

from fedtheory import decide
from fedtheory.claims import (ERRATUM, HOLDS, INCONCLUSIVE, NOT_REPRODUCED, REFUTED, VACUOUS, check_return)

LEVEL = decide.LEVEL


def est(mean, se, n=100):
    return SimpleNamespace(mean=mean, se=se, n=n)


def valid(out):
    """Every template's return passes the verdict contract."""
    return check_return(out)


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


# ============================================================================ identity
def test_identity_holds_and_refutes_with_margin_and_detects():
    v = valid(decide.identity([1.0, 2.0], [1.0, 2.0 + 1e-12], what="id", rtol=1e-9))
    assert v["status"] == HOLDS and v["margin"]["value"] <= 1 and v["margin"]["tightness"] == "exact"
    # detects: a relative change of the expected value by tol/|expected|, smallest over the entries
    assert v["detects"]["factor"] == pytest.approx(1 + 1e-9)
    v = valid(decide.identity(1.1, 1.0, what="id", rtol=0.05))
    assert v["status"] == REFUTED and v["margin"]["value"] == pytest.approx(0.1 / 0.05)
    assert "1.1" not in v["evidence"] or "0.1" in v["evidence"]
    v = decide.identity(0.0, 0.0, what="zero", atol=1e-12)
    assert v["status"] == HOLDS and v["detects"]["factor"] == math.inf  # no relative scale at 0
    v = decide.identity(1e-12, 0.0, what="zero", atol=1e-13)
    assert v["status"] == REFUTED


def test_identity_refuses_bad_input():
    with pytest.raises(ValueError, match="needs a tolerance"):
        decide.identity(1, 1, what="x", rtol=0)
    with pytest.raises(ValueError, match="`rtol` and `atol`"):
        decide.identity(1, 1, what="x", rtol=-1)
    with pytest.raises(ValueError, match="do not broadcast"):
        decide.identity([1, 2], [1, 2, 3], what="x")
    with pytest.raises(ValueError, match="empty"):
        decide.identity([], [], what="x")
    with pytest.raises(ValueError, match="non-finite"):
        decide.identity(np.nan, 1.0, what="x")
    with pytest.raises(TypeError, match="numeric"):
        decide.identity("a", 1.0, what="x")


# ============================================================================ agreement
def test_agreement_z_test_with_bonferroni_over_entries():
    crit1 = stats.t.isf(LEVEL / 2, 99)  # n = 100 replications: Student-t on 99 degrees of freedom
    v = valid(decide.agreement(est(1.0 + 0.99 * crit1, 1.0), 1.0, what="mc"))
    assert v["status"] == HOLDS
    v = valid(decide.agreement(est(1.0 + 1.01 * crit1, 1.0), 1.0, what="mc"))
    assert v["status"] == REFUTED and v["detects"]["factor"] == 1.0
    # with 10 entries the critical value is larger: the same deviation now holds
    crit10 = stats.t.isf(LEVEL / 20, 99)
    assert crit10 > 1.01 * crit1
    mean = np.full(10, 1.0)
    mean[3] += 1.01 * crit1
    v = valid(decide.agreement(est(mean, np.ones(10)), np.ones(10), what="vec"))
    assert v["status"] == HOLDS and v["observed"]["entries"] == 10
    assert v["bound"]["critical_z"] == pytest.approx(crit10)
    # two tests of the claim halve the level again
    v = decide.agreement(est(1.0 + 1.01 * crit1, 1.0), 1.0, what="mc", tests=2)
    assert v["status"] == HOLDS and "Bonferroni over 2" in v["evidence"]


def test_agreement_detects_the_smallest_relative_change_of_the_closed_form():
    # mean 10, se 0.1, closed form 10: a relative change delta fails when |10 - 10(1+delta)| > crit*0.1
    crit = stats.t.isf(LEVEL / 2, 99)
    v = decide.agreement(est(10.0, 0.1), 10.0, what="mc")
    assert v["detects"]["factor"] == pytest.approx(1 + crit * 0.1 / 10)
    assert v["observed"]["ci"] == pytest.approx([10 - crit * 0.1, 10 + crit * 0.1])
    v = decide.agreement(est(10.0, 5.0), 1.0, what="wide")  # cannot detect a 10x change: says so
    assert v["status"] == HOLDS and v["detects"]["factor"] > 10 and "cannot detect a 10x" in v["evidence"]


def test_agreement_uses_student_t_for_few_replications():
    # 12 replications: the t quantile on 11 df (about 6.0) is far above the normal one (3.9)
    t11, z = stats.t.isf(LEVEL / 2, 11), stats.norm.isf(LEVEL / 2)
    assert t11 > 1.4 * z
    assert decide.agreement(est(1.0 + 0.5 * (t11 + z), 1.0, n=12), 1.0, what="few")["status"] == HOLDS
    assert decide.agreement(est(1.0 + 1.01 * t11, 1.0, n=12), 1.0, what="few")["status"] == REFUTED
    # without n (a plain mean and se) the normal quantile is used
    nomean = SimpleNamespace(mean=1.0 + 0.5 * (t11 + z), se=1.0)
    assert decide.agreement(nomean, 1.0, what="no n")["status"] == REFUTED
    assert decide.z_critical(df=11) == pytest.approx(stats.t.isf(LEVEL, 11))
    with pytest.raises(ValueError, match="`df`"):
        decide.z_critical(df=0.5)
    # bound: an Estimate carries its degrees of freedom, a plain se takes df=
    tb = stats.t.isf(LEVEL, 11)
    assert decide.bound(est(1.0 + 0.5 * (tb + stats.norm.isf(LEVEL)) * 0.1, 0.1, n=12), 1.0,
                        what="b")["status"] == HOLDS
    assert decide.bound(1.0 + 0.5 * (tb + stats.norm.isf(LEVEL)) * 0.1, 1.0, se=0.1, what="b")["status"] == REFUTED
    assert decide.bound(1.0 + 0.5 * (tb + stats.norm.isf(LEVEL)) * 0.1, 1.0, se=0.1, df=11,
                        what="b")["status"] == HOLDS


def test_agreement_zero_se():
    assert decide.agreement(est(1.0, 0.0), 1.0, what="exact")["status"] == HOLDS
    assert decide.agreement(est(1.0 + 1e-9, 0.0), 1.0, what="exact")["status"] == REFUTED
    with pytest.raises(ValueError, match="se"):
        decide.agreement(est(1.0, -1.0), 1.0, what="x")
    with pytest.raises(ValueError, match="non-finite"):
        decide.agreement(est(np.nan, 1.0), 1.0, what="x")
    with pytest.raises(ValueError, match="do not broadcast"):
        decide.agreement(est(np.ones(3), np.ones(3)), np.ones(2), what="x")


# ============================================================================ bound
def test_deterministic_bound_margin_and_detects():
    v = valid(decide.bound([0.2, 0.5], [1.0, 1.0], what="b"))
    assert v["status"] == HOLDS and v["margin"]["value"] == 0.5 and v["detects"]["factor"] == 2.0
    assert v["margin"]["tightness"] == "tight" and v["margin"]["ci"] is None
    v = valid(decide.bound(0.001, 1.0, what="slack"))
    assert v["detects"]["factor"] == pytest.approx(1000) and v["margin"]["tightness"] == "slack"
    assert "cannot detect a 10x change of the constant" in v["evidence"]
    v = valid(decide.bound([0.5, 1.2], [1.0, 1.0], what="b"))
    assert v["status"] == REFUTED and v["margin"]["value"] == 1.2 and v["margin"]["tightness"] == "violated"
    assert "1 of 2 entries violate" in v["evidence"]
    # atol/rtol widen the bound
    assert decide.bound(1.0 + 1e-12, 1.0, what="b", atol=1e-9)["status"] == HOLDS
    assert decide.bound(1.05, 1.0, what="b", rtol=0.1)["status"] == HOLDS
    assert decide.bound(1.2, 1.0, what="b", rtol=0.1)["status"] == REFUTED
    # an observed value <= 0 under a positive bound: no scaling of the constant can fail it
    assert decide.bound(-1.0, 1.0, what="b")["detects"]["factor"] == math.inf


def test_lower_bound():
    v = valid(decide.bound(4.0, 1.0, what="lb", sense=">="))
    assert v["status"] == HOLDS and v["margin"]["value"] == 0.25 and v["detects"]["factor"] == 4.0
    assert decide.bound(0.5, 1.0, what="lb", sense=">=")["status"] == REFUTED


def test_bound_with_standard_errors_is_a_one_sided_z_test():
    crit = stats.norm.isf(LEVEL)
    # observed above the bound but within the z test's reach: not rejected
    v = valid(decide.bound(1.0 + 0.9 * crit * 0.1, 1.0, se=0.1, what="mc"))
    assert v["status"] == HOLDS and v["margin"]["value"] > 1
    v = valid(decide.bound(1.0 + 1.1 * crit * 0.1, 1.0, se=0.1, what="mc"))
    assert v["status"] == REFUTED
    v = decide.bound(0.5, 1.0, se=0.05, what="mc")
    # the bound may shrink to the upper confidence limit 0.5 + crit*0.05
    assert v["detects"]["factor"] == pytest.approx(1.0 / (0.5 + crit * 0.05))
    assert v["margin"]["ci"][1] == pytest.approx(0.5 + crit * 0.05)
    # an Estimate as observed
    v = decide.bound(SimpleNamespace(mean=0.5, se=0.05), 1.0, what="est")
    assert v["detects"]["factor"] == pytest.approx(1.0 / (0.5 + crit * 0.05))
    # Bonferroni over entries
    crit2 = stats.norm.isf(LEVEL / 2)
    v = decide.bound([0.0, 1.0 + 0.5 * (crit + crit2) * 0.1], [1.0, 1.0], se=0.1, what="two")
    assert v["status"] == HOLDS


def test_bound_refuses_bad_input():
    with pytest.raises(ValueError, match="`sense`"):
        decide.bound(1, 2, what="b", sense="<")
    with pytest.raises(ValueError, match="do not broadcast"):
        decide.bound([1, 2], [1, 2, 3], what="b")
    with pytest.raises(ValueError, match="empty"):
        decide.bound([], [], what="b")
    with pytest.raises(ValueError, match="non-finite"):
        decide.bound(np.inf, 1.0, what="b")
    with pytest.raises(ValueError, match="`rtol` and `atol`"):
        decide.bound(1, 2, what="b", rtol=-1)
    with pytest.raises(ValueError, match="`se`"):
        decide.bound(1, 2, what="b", se=-1)


def test_bound_reports_richer_values():
    v = decide.bound(0.5, 1.0, what="b", observed_value={"ratio": 0.5, "runs": 10}, bound_value={"ratio": 1})
    assert v["observed"] == {"ratio": 0.5, "runs": 10} and v["bound"] == {"ratio": 1}


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


def test_probability_template():
    v = valid(decide.probability(0, 200, 0.05, what="thm"))
    assert v["status"] == HOLDS
    lo, hi = stats.binomtest(0, 200).proportion_ci(confidence_level=1 - LEVEL, method="exact")
    assert v["observed"]["ci"] == pytest.approx([lo, hi])
    assert v["margin"]["value"] == 0 and v["margin"]["ci"][1] == pytest.approx(hi / 0.05)
    p1 = v["detects"]["smallest_rate"]
    assert _exact_power(200, 0.05, p1 * (1 + 1e-6), LEVEL) >= 0.8 > _exact_power(200, 0.05, p1 * 0.99, LEVEL)
    assert v["detects"]["factor"] == pytest.approx(p1 / 0.05)
    v = valid(decide.probability(30, 100, 0.05, what="thm"))
    pval = stats.binomtest(30, 100, 0.05, alternative="greater").pvalue
    assert pval < LEVEL and v["status"] == REFUTED
    # p_allowed = 0: one violation refutes
    assert decide.probability(1, 100, 0.0, what="never")["status"] == REFUTED
    v = decide.probability(0, 100, 0.0, what="never")
    assert v["status"] == HOLDS and v["detects"]["factor"] is None
    assert v["detects"]["smallest_rate"] == pytest.approx(1 - 0.2 ** (1 / 100), rel=1e-6)
    # Bonferroni: tests=2 halves the level
    assert decide.probability(7, 40, 0.05, what="t", tests=1)["bound"]["level"] == LEVEL
    assert decide.probability(7, 40, 0.05, what="t", tests=2)["bound"]["level"] == LEVEL / 2


@pytest.mark.parametrize("kw,match", [(dict(violations=3, trials=0, p_allowed=0.1), "`trials`"),
                                      (dict(violations=5, trials=4, p_allowed=0.1), "`violations`"),
                                      (dict(violations=-1, trials=4, p_allowed=0.1), "`violations`"),
                                      (dict(violations=1.5, trials=4, p_allowed=0.1), "`violations`"),
                                      (dict(violations=1, trials=4, p_allowed=1.0), "`p_allowed`"),
                                      (dict(violations=1, trials=4, p_allowed=-0.1), "`p_allowed`")])
def test_probability_refuses_bad_input(kw, match):
    with pytest.raises(ValueError, match=match):
        decide.probability(what="x", **kw)


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


def test_rate_outcomes():
    x = np.array([1, 2, 4, 8, 16, 32.0])
    rng = np.random.default_rng(1)
    y = x ** -1.0 * np.exp(rng.normal(0, 0.01, x.size))
    v = valid(decide.rate(x, y, claimed=-1.0, what="rate"))
    assert v["status"] == HOLDS and abs(v["margin"]["value"]) < 0.05
    lo, hi = v["observed"]["ci"]
    assert v["detects"]["absolute"] == pytest.approx(min(hi + 1, -1 - lo))
    assert v["detects"]["factor"] == pytest.approx(1 + min(hi + 1, -1 - lo))
    v = valid(decide.rate(x, y, claimed=-0.5, what="rate"))
    assert v["status"] == REFUTED and v["margin"]["value"] == pytest.approx(v["observed"]["slope"] + 0.5)
    # one-sided: slope <= claimed (at least as fast)
    assert decide.rate(x, y, claimed=-0.5, what="r", alternative="less")["status"] == HOLDS
    assert decide.rate(x, y, claimed=-2.0, what="r", alternative="less")["status"] == REFUTED
    assert decide.rate(x, y, claimed=-2.0, what="r", alternative="greater")["status"] == HOLDS
    assert decide.rate(x, y, claimed=-0.5, what="r", alternative="greater")["status"] == REFUTED


def test_rate_inconclusive_power_statement_is_computed():
    x = np.array([1, 2, 4.0])
    y = x ** -1.0 * np.array([1.3, 0.8, 1.2])  # 3 noisy points, 1 degree of freedom
    v = valid(decide.rate(x, y, claimed=-1.0, what="rate", resolution=0.1))
    assert v["status"] == INCONCLUSIVE
    se, R = v["params"]["fit"]["slope_se"], v["power"]["needed"]
    # independent check of the size: at R sweeps (3R points) the t quantiles resolve 0.1, at R-1 they do not
    q = lambda r: (stats.t.isf(LEVEL / 2, 3 * r - 2) + stats.t.ppf(0.8, 3 * r - 2)) * se / math.sqrt(r)
    assert q(R) <= 0.1 < q(R - 1)
    assert v["power"]["unit"] == "replicated sweeps" and str(R) in v["power"]["statement"]
    with pytest.raises(ValueError, match="`alternative`"):
        decide.rate(x, y, claimed=-1, what="r", alternative="both")
    with pytest.raises(ValueError, match="`claimed`"):
        decide.rate(x, y, claimed=np.nan, what="r")
    with pytest.raises(ValueError, match="`resolution`"):
        decide.rate(x, y, claimed=-1, what="r", resolution=0)


def test_sweeps_needed_edges():
    assert decide.sweeps_needed(0.0, 0.1, points=4) == 1
    assert decide.sweeps_needed(0.1, 0.0, points=4) == 10_000
    assert decide.sweeps_needed(np.inf, 0.1, points=4) == 10_000
    R = decide.sweeps_needed(0.2, 0.25, points=4, level=0.05)
    q = lambda r, a: (stats.t.isf(a, 4 * r - 2) + stats.t.ppf(0.8, 4 * r - 2)) * 0.2 / math.sqrt(r)
    assert q(R, 0.025) <= 0.25 < q(R - 1, 0.025)
    R1 = decide.sweeps_needed(0.2, 0.25, points=4, level=0.05, two_sided=False)
    assert q(R1, 0.05) <= 0.25 and R1 <= R


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


def test_ordering_paired_outcomes():
    a, b = np.arange(30.0), np.arange(30.0) + 1
    v = valid(decide.ordering(a, b, what="ord"))
    assert v["status"] == HOLDS and v["observed"]["in_claimed_order"] == 30
    assert decide.ordering(b, a, what="ord", expect="greater")["status"] == HOLDS
    v = valid(decide.ordering(b, a, what="ord"))
    assert v["status"] == REFUTED
    v = valid(decide.ordering(b, a, what="ord", empirical=True, analogue="linear FedRep, eta=0.1"))
    assert v["status"] == NOT_REPRODUCED and v["analogue"] == "linear FedRep, eta=0.1"
    # ties are dropped
    v = decide.ordering(np.r_[a, np.zeros(5)], np.r_[b, np.zeros(5)], what="ord")
    assert v["observed"]["ties"] == 5 and v["observed"]["pairs"] == 35
    with pytest.raises(ValueError, match="equal lengths"):
        decide.ordering([1, 2], [1, 2, 3], what="x")
    with pytest.raises(ValueError, match="analogue"):
        decide.ordering(a, b, what="x", empirical=True)
    with pytest.raises(ValueError, match="`expect`"):
        decide.ordering(a, b, what="x", expect="below")


def test_ordering_inconclusive_carries_the_pairs_needed():
    v = valid(decide.ordering([1, 2, 3.0], [2, 3, 4.0], what="ord"))
    assert v["status"] == INCONCLUSIVE
    need = v["power"]["needed"]
    assert _exact_power(need, 0.5, 0.95, LEVEL / 2) >= 0.8
    assert v["power"]["unit"] == "untied pairs" and v["power"]["current"] == 3


def test_ordering_unpaired():
    rng = np.random.default_rng(2)
    a, b = rng.normal(0, 1, 40), rng.normal(3, 1, 40)
    assert decide.ordering(a, b, what="mw", paired=False)["status"] == HOLDS
    assert decide.ordering(b, a, what="mw", paired=False)["status"] == REFUTED
    v = valid(decide.ordering(a[:3], b[:3], what="mw", paired=False))
    assert v["status"] == INCONCLUSIVE and v["power"]["unit"] == "runs per method"


# ============================================================================ erratum and the rest
def test_erratum_outcomes_and_referee():
    printed = decide.bound(3.0, 1.0, what="printed")
    corrected = decide.bound(0.5, 1.0, what="corrected")
    v = valid(decide.erratum(printed, corrected, referee="Monte Carlo", root_cause="half-lost", what="(49)"))
    assert v["status"] == ERRATUM and v["root_cause"] == "half-lost" and v["referee"] == "Monte Carlo"
    assert v["margin"]["value"] == 0.5 and v["margin"]["printed"]["value"] == 3.0
    assert v["detects"] == corrected["detects"]
    assert v["printed"] == 3.0 and v["corrected"] == 0.5
    v = decide.erratum(corrected, corrected, referee="x", root_cause="y", what="fine")
    assert v["status"] == HOLDS and "root_cause" not in v
    v = decide.erratum(printed, printed, referee="x", root_cause="y", what="both fail")
    assert v["status"] == REFUTED and v["root_cause"] == "y"
    v = decide.erratum(False, True, referee="sympy", root_cause="sign", what="bools", printed_value=-1,
                       corrected_value=1)
    assert v["status"] == ERRATUM and v["observed"]["printed"] == -1
    with pytest.raises(ValueError, match="referee"):
        decide.erratum(False, True, referee="", root_cause="x", what="w")
    with pytest.raises(ValueError, match="root_cause"):
        decide.erratum(False, True, referee="r", root_cause=" ", what="w")
    with pytest.raises(ValueError, match="decided"):
        decide.erratum({"status": INCONCLUSIVE}, True, referee="r", root_cause="x", what="w")
    with pytest.raises(TypeError, match="`printed`"):
        decide.erratum(1.0, True, referee="r", root_cause="x", what="w")


def test_vacuous_not_reproduced_inconclusive():
    v = valid(decide.vacuous({"eta_max": 3.0}, {"eta_needed": 7.0}, what="Thm 2", reason="no instance",
                             root_cause="thm2-hypotheses"))
    assert v["status"] == VACUOUS and v["root_cause"] == "thm2-hypotheses" and "no instance" in v["evidence"]
    with pytest.raises(ValueError, match="reason"):
        decide.vacuous(1, 2, what="x", reason="", root_cause="y")
    refuted = decide.bound(2.0, 1.0, what="fig")
    v = valid(decide.not_reproduced(refuted, analogue="linear model, d=20", what="Fig. 3"))
    assert v["status"] == NOT_REPRODUCED and v["evidence"].startswith("Fig. 3: ")
    held = decide.bound(0.5, 1.0, what="fig")
    assert decide.not_reproduced(held, analogue="a") == held
    with pytest.raises(ValueError, match="analogue"):
        decide.not_reproduced(refuted, analogue="")
    with pytest.raises(TypeError, match="decision"):
        decide.not_reproduced(3, analogue="a")
    v = valid(decide.inconclusive(1, 2, what="x", needed=40, unit="runs", current=10, effect="a gap of 0.1",
                                  test="z test"))
    assert v["status"] == INCONCLUSIVE and v["power"]["needed"] == 40 and "40 runs (now 10)" in v["evidence"]


def test_combine():
    h1 = decide.bound(0.5, 1.0, what="a")
    h2 = decide.bound(0.01, 1.0, what="b")
    r = decide.bound(2.0, 1.0, what="c")
    i = decide.rate([1, 2, 4.0], [1, 0.4, 0.3], claimed=-1.0, what="d", resolution=0.01)
    v = valid(decide.combine([h1, h2], what="both"))
    assert v["status"] == HOLDS and v["detects"]["factor"] == pytest.approx(100)  # the weakest part
    v = valid(decide.combine([h1, r, i], what="mix"))
    assert v["status"] == REFUTED and v["margin"]["value"] == 2.0
    v = valid(decide.combine([h1, i], what="mix"))
    assert v["status"] == INCONCLUSIVE and v["power"] == i["power"]
    with pytest.raises(ValueError, match="empty"):
        decide.combine([], what="x")
    with pytest.raises(ValueError, match="combine takes"):
        decide.combine([decide.vacuous(1, 2, what="x", reason="r", root_cause="c")], what="x")


def test_power_statement_fields():
    p = decide.power_statement(12, "runs", current=4, effect="a shift of 1", test="t test")
    assert p["needed"] == 12 and p["current"] == 4 and p["power"] == decide.POWER
    assert p["statement"].startswith("12 runs (now 4) would detect a shift of 1 with power 0.8")


# ============================================================================ compound templates
def _ols_reference(y, cols):
    """Independent OLS: numpy's least squares, the residual variance and (X^T X)^-1 for the standard errors."""
    X = np.column_stack([np.ones(len(y))] + [np.asarray(c, float) for c in cols])
    beta, *_ = np.linalg.lstsq(X, y, rcond=None)
    resid = y - X @ beta
    df = len(y) - X.shape[1]
    s2 = resid @ resid / df
    se = np.sqrt(np.diag(s2 * np.linalg.inv(X.T @ X)))
    return beta, se, df


def _regression_design(noise=0.01, seed=3):
    x = np.repeat([1.0, 2.0, 3.0, 4.0, 5.0], 2)
    z = np.tile([0.0, 1.0], 5)
    y = 1 + 2 * x + 0.3 * z + np.random.default_rng(seed).normal(0, noise, x.size)
    return x, z, y


def test_regression_rate_coefficient_interval_margin_and_detects():
    x, z, y = _regression_design()
    beta, se, df = _ols_reference(y, [x, z])
    t = stats.t.isf(LEVEL / 2, df)
    lo, hi = beta[1] - t * se[1], beta[1] + t * se[1]
    v = valid(decide.regression_rate(y, {"x": x, "z": z}, slope_of="x", claimed=2.0, what="toy"))
    assert v["status"] == HOLDS and df == 7
    assert v["observed"]["slope"] == pytest.approx(beta[1]) and v["observed"]["se"] == pytest.approx(se[1])
    assert v["observed"]["ci"] == pytest.approx([lo, hi]) and v["observed"]["df"] == 7
    assert v["bound"] == {"claimed": 2.0}
    assert v["margin"]["kind"] == "fitted - claimed exponent"
    assert v["margin"]["value"] == pytest.approx(beta[1] - 2.0)
    assert v["margin"]["ci"] == pytest.approx([lo - 2.0, hi - 2.0]) and v["margin"]["tightness"] == "tight"
    room = min(hi - 2.0, 2.0 - lo)
    assert v["detects"]["factor"] == pytest.approx(1 + room / 2.0)
    assert v["detects"]["absolute"] == pytest.approx(room) and v["detects"]["of"] == "exponent"
    fit = v["params"]["fit"]
    assert fit["coefficients"] == pytest.approx({"const": beta[0], "x": beta[1], "z": beta[2]})
    assert fit["standard_errors"] == pytest.approx({"const": se[0], "x": se[1], "z": se[2]})
    assert fit["slope_of"] == "x" and fit["slope"] == pytest.approx(beta[1]) and fit["slope_se"] == pytest.approx(se[1])
    assert fit["ci"] == pytest.approx([lo, hi]) and fit["df"] == 7 and fit["n"] == 10
    assert fit["model"] == "OLS of y on x, z and an intercept (t interval)"
    assert v["evidence"] == (f"toy: coefficient of x {beta[1]:.4g} (CI [{lo:.4g}, {hi:.4g}] at level 0.0001, 10 points, "
                             f"df 7, regressors x, z) vs claimed 2")
    # the coefficient of the other regressor, and params kept next to the fit
    v = decide.regression_rate(y, {"x": x, "z": z}, slope_of="z", claimed=0.3, what="z", params={"m": 5})
    assert v["observed"]["slope"] == pytest.approx(beta[2]) and v["params"]["m"] == 5
    assert v["status"] == HOLDS and "coefficient of z" in v["evidence"]


def test_regression_rate_refuted_loose_and_bonferroni():
    x, z, y = _regression_design()
    beta, se, df = _ols_reference(y, [x, z])
    v = valid(decide.regression_rate(y, {"x": x, "z": z}, slope_of="x", claimed=2.5, what="toy"))
    assert v["status"] == REFUTED and v["margin"]["tightness"] == "violated"
    assert v["detects"]["absolute"] == 0.0 and v["detects"]["factor"] == pytest.approx(1 + abs(beta[1] + 
        stats.t.isf(LEVEL / 2, df) * se[1] - 2.5) / 2.5)
    # just outside the interval at one test, inside at two (the level halves, the interval widens)
    t1, t2 = stats.t.isf(LEVEL / 2, df), stats.t.isf(LEVEL / 4, df)
    c = beta[1] + 0.5 * (t1 + t2) * se[1]
    assert decide.regression_rate(y, {"x": x, "z": z}, slope_of="x", claimed=c, what="t")["status"] == REFUTED
    v = decide.regression_rate(y, {"x": x, "z": z}, slope_of="x", claimed=c, what="t", tests=2)
    assert v["status"] == HOLDS and v["observed"]["ci"][1] == pytest.approx(beta[1] + t2 * se[1])
    assert "at level 5e-05" in v["evidence"]
    # loose: inside the interval (undecided) but farther than the resolution from the fitted value
    half = stats.t.isf(LEVEL / 2, df) * se[1]
    v = decide.regression_rate(y, {"x": x, "z": z}, slope_of="x", claimed=beta[1] + 0.8 * half, what="l",
                               resolution=0.7 * half)
    assert v["status"] == INCONCLUSIVE and v["margin"]["tightness"] == "loose"
    v = decide.regression_rate(y, {"x": x, "z": z}, slope_of="x", claimed=beta[1] + 0.6 * half, what="l",
                               resolution=0.7 * half)
    assert v["status"] == INCONCLUSIVE and v["margin"]["tightness"] == "tight"


def test_regression_rate_inconclusive_designs_needed():
    x, z, y = _regression_design()
    beta, se, df = _ols_reference(y, [x, z])
    v = valid(decide.regression_rate(y, {"x": x, "z": z}, slope_of="x", claimed=2.0, what="toy", resolution=0.001))
    assert v["status"] == INCONCLUSIVE
    R = v["power"]["needed"]
    # independent: R replicated designs have 10 R points, 10 R - 3 residual degrees of freedom, se / sqrt(R)
    q = lambda r: (stats.t.isf(LEVEL / 2, 10 * r - 3) + stats.t.ppf(0.8, 10 * r - 3)) * se[1] / math.sqrt(r)
    assert q(R) <= 0.001 < q(R - 1)
    p = v["power"]
    assert p["unit"] == "replicated designs" and p["current"] == 1 and p["level"] == LEVEL
    assert p["effect"] == "an exponent error of 0.001" and p["test"] == "t interval of the regression coefficient"
    half = stats.t.isf(LEVEL / 2, df) * se[1]
    assert f"the interval's half-width {half:.3g} does not resolve 0.001; {p['statement']}" in v["evidence"]
    assert abs(beta[1] - 2.0) > 0.001 and v["margin"]["tightness"] == "loose"  # farther than the resolution
    v = decide.regression_rate(y, {"x": x, "z": z}, slope_of="x", claimed=2.0, what="toy", resolution=0.001,
                               unit="designs")
    assert v["power"]["unit"] == "designs"
    # the default resolution is |claimed|/2 (0.5 for a claimed 0): the slope of a pure-noise column
    w = np.array([0.0, 1, 0, 1, 0, 1, 0, 1, 0, 1])
    yy = 1 + 2 * x + np.random.default_rng(5).normal(0, 0.05, x.size)
    b, s, d = _ols_reference(yy, [x, w])
    assert stats.t.isf(LEVEL / 2, d) * s[2] < 0.5
    v = decide.regression_rate(yy, {"x": x, "w": w}, slope_of="w", claimed=0.0, what="zero")
    assert v["status"] == HOLDS and v["detects"]["factor"] is None
    assert v["detects"]["absolute"] == pytest.approx(min(b[2] + stats.t.isf(LEVEL / 2, d) * s[2],
                                                         stats.t.isf(LEVEL / 2, d) * s[2] - b[2]))
    half = stats.t.isf(LEVEL / 2, d) * s[2]
    assert decide.regression_rate(yy, {"x": x, "w": w}, slope_of="w", claimed=0.0, what="zero",
                                  resolution=0.9 * half)["status"] == INCONCLUSIVE
    # claimed 2: default resolution 1, which a half-width of ~0.03 resolves; claimed 0.02 (resolution 0.01) not
    assert decide.regression_rate(y, {"x": x, "z": z}, slope_of="x", claimed=2.0, what="d")["status"] == HOLDS
    v = decide.regression_rate(y - 1.98 * x, {"x": x, "z": z}, slope_of="x", claimed=0.02, what="d")
    assert v["status"] == INCONCLUSIVE and v["power"]["effect"] == "an exponent error of 0.01"


def test_regression_rate_slack_note_and_search_cap():
    x, z, y = _regression_design()
    # a claimed exponent of 0.001 with an interval of +-0.03: detects only a change by a factor ~30
    v = decide.regression_rate(y - 1.999 * x, {"x": x, "z": z}, slope_of="x", claimed=0.001, what="s",
                               resolution=0.1)
    assert v["status"] == HOLDS and v["detects"]["factor"] > 10 and "cannot detect a 10x change of the exponent" in v["evidence"]
    # a resolution far below what 10 000 designs reach: the search stops at its cap
    v = decide.regression_rate(y, {"x": x, "z": z}, slope_of="x", claimed=2.0, what="cap", resolution=1e-7)
    assert v["power"]["needed"] == 10_000


@pytest.mark.parametrize("kw,exc,match", [
    (dict(columns=[1, 2, 3], slope_of="x"), ValueError, "`columns` must be a dict of regressors containing `slope_of`='x'"),
    (dict(slope_of="q"), ValueError, "containing `slope_of`='q'"),
    (dict(claimed=np.inf), ValueError, "`claimed` must be finite; got inf"),
    (dict(y=np.ones(4)), ValueError, r"every regressor must have the length of `y` \(4\)"),
    (dict(y=np.r_[np.ones(9), np.nan]), ValueError, "w: non-finite number in `y` or a regressor"),
    (dict(columns={"x": np.r_[np.ones(9), np.inf], "z": np.zeros(10)}), ValueError, "non-finite number"),
    (dict(resolution=0.0), ValueError, "`resolution` must be > 0; got 0.0"),
    (dict(resolution=-1.0), ValueError, "`resolution` must be > 0"),
    (dict(columns={"x": ["a"] * 10, "z": np.zeros(10)}), TypeError, "`x` must be numeric"),
])
def test_regression_rate_refuses_bad_input(kw, exc, match):
    x, z, y = _regression_design()
    args = dict(y=y, columns={"x": x, "z": z}, slope_of="x", claimed=2.0, what="w")
    args.update(kw)
    with pytest.raises(exc, match=match):
        decide.regression_rate(**args)


def test_regression_rate_needs_a_residual_degree_of_freedom():
    x = np.array([1.0, 2.0, 3.0])
    z = np.array([0.0, 1.0, 0.0])
    with pytest.raises(ValueError, match=r"few: 3 points cannot fit 3 parameters with a residual degree of freedom"):
        decide.regression_rate(2 * x + z, {"x": x, "z": z}, slope_of="x", claimed=2.0, what="few")
    # 4 points, 3 parameters: one residual degree of freedom is enough
    x4, z4 = np.array([1.0, 2.0, 3.0, 4.0]), np.array([0.0, 1.0, 0.0, 1.0])
    v = decide.regression_rate(2 * x4 + z4 + np.array([0.01, -0.01, -0.01, 0.01]), {"x": x4, "z": z4},
                               slope_of="x", claimed=2.0, what="one df")
    assert v["observed"]["df"] == 1


def test_vacuous_given_all_links_hold():
    l1 = decide.bound(0.5, 1.0, what="chain")
    l2 = decide.bound(0.01, 1.0, what="contradiction")
    v = valid(decide.vacuous_given([l1, l2], what="Thm 3", reason="no instance", root_cause="thm3-hyp",
                                   params={"d": 4}))
    assert v["status"] == VACUOUS and v["root_cause"] == "thm3-hyp" and v["params"] == {"d": 4}
    # the weakest link (detection factor 100) carries the margin, relabelled vacuous
    assert v["detects"] == l2["detects"] and v["margin"]["value"] == 0.01
    assert v["margin"]["kind"] == "observed/bound" and v["margin"]["tightness"] == "vacuous"
    assert v["evidence"] == f"Thm 3: no instance; links: Thm 3: {l1['evidence']}; {l2['evidence']}"
    assert v["observed"] == [l1["observed"], l2["observed"]] and v["bound"] == [1.0, 1.0]
    v = decide.vacuous_given([l1], what="w", reason="r", root_cause="rc", observed={"eta": 3}, bound={"eta": 7})
    assert v["observed"] == {"eta": 3} and v["bound"] == {"eta": 7}
    # a link without a margin: the vacuity margin
    bare = dict(l1, margin=None)
    v = decide.vacuous_given([bare], what="w", reason="r", root_cause="rc")
    assert v["margin"] == {"kind": "vacuity", "value": None, "ci": None, "tightness": "vacuous"}


def test_vacuous_given_a_failed_link_is_returned_combined():
    ok, bad = decide.bound(0.5, 1.0, what="a"), decide.bound(2.0, 1.0, what="b")
    v = valid(decide.vacuous_given([ok, bad], what="w", reason="r", root_cause="rc", params={"k": 1}))
    assert v["status"] == REFUTED and v["root_cause"] == "rc" and v["margin"]["value"] == 2.0
    assert v["params"] == {"k": 1} and v["evidence"].startswith("w: ")
    undecided = decide.inconclusive(None, None, what="u", needed=9, unit="runs", current=1, effect="e", test="t")
    v = decide.vacuous_given([ok, undecided], what="w", reason="r", root_cause="rc")
    assert v["status"] == INCONCLUSIVE and v["power"]["needed"] == 9
    for reason, rc in (("", "rc"), ("r", ""), (None, "rc")):
        with pytest.raises(ValueError, match="a vacuity argument needs its `reason` and `root_cause`"):
            decide.vacuous_given([ok], what="w", reason=reason, root_cause=rc)


def test_premised_with_and_without_the_premise():
    inner = decide.bound(0.5, 1.0, what="x")
    assert decide.premised(lambda: inner, held=2, trials=6, what="p") is inner
    assert decide.premised(lambda: inner, held=6, trials=6, what="p") is inner
    v = valid(decide.premised(lambda: inner, held=0, trials=6, what="toy", params={"a": 1}))
    assert v["status"] == INCONCLUSIVE and v["params"] == {"a": 1}
    # independent: the rate r that 6 trials meet at least once with probability 0.8 solves 1 - (1 - r)^6 = 0.8;
    # half of it, p1, needs the smallest n with 1 - (1 - p1)^n >= 0.8
    r = 1 - 0.2 ** (1 / 6)
    p1 = r / 2
    n = math.ceil(math.log(0.2) / math.log(1 - p1))
    assert 1 - (1 - p1) ** n >= 0.8 > 1 - (1 - p1) ** (n - 1)
    p = v["power"]
    assert p["needed"] == n == 13 and p["current"] == 6 and p["unit"] == "runs"
    assert p["effect"] == f"at least one instance of the premise at a rate {p1:.3g}"
    assert p["test"] == "P(at least one) = 1 - (1 - rate)^n"
    assert v["observed"] == {"premise_held": 0, "trials": 6} and v["bound"] is None
    assert v["evidence"].startswith("toy: the premise held in none of 6 runs; 13 runs (now 6)")
    v = decide.premised(lambda: inner, held=0, trials=50, what="t", unit="instances")
    p1 = (1 - 0.2 ** (1 / 50)) / 2
    assert v["power"]["needed"] == math.ceil(math.log(0.2) / math.log(1 - p1))
    assert "none of 50 instances" in v["evidence"] and v["power"]["unit"] == "instances"


@pytest.mark.parametrize("held,trials", [(True, 3), (-1, 3), (1.5, 3), (0, 0), (4, 3), (1, 2.5)])
def test_premised_refuses_bad_counts(held, trials):
    with pytest.raises(ValueError, match=r"need integers 0 <= held <= trials, trials >= 1; got held="):
        decide.premised(lambda: None, held=held, trials=trials, what="p")


def test_direction_outcomes_against_normal_tails():
    lev = LEVEL / 2
    zc = stats.norm.isf(lev)
    v = valid(decide.direction(-1.01 * zc * 0.1, 0.1, what="slope"))
    assert v["status"] == HOLDS and v["margin"]["value"] == pytest.approx(1.01 * zc)
    assert v["margin"]["kind"] == "z in the expected direction" and v["margin"]["tightness"] == "unknown"
    assert v["observed"]["p_expected"] == pytest.approx(stats.norm.sf(1.01 * zc))
    assert v["observed"]["p_against"] == pytest.approx(stats.norm.cdf(1.01 * zc))
    assert v["observed"]["estimate"] == pytest.approx(-1.01 * zc * 0.1) and v["observed"]["se"] == 0.1
    assert v["bound"] == {"expect": "negative", "level": lev}
    smallest = (zc + stats.norm.ppf(0.8)) * 0.1
    assert v["detects"]["smallest_effect"] == pytest.approx(smallest) and v["detects"]["factor"] is None
    assert v["detects"]["of"] == "effect"
    assert v["evidence"] == (f"slope: estimate {-1.01 * zc * 0.1:.4g} (se 0.1), expected negative; one-sided p = "
                             f"{stats.norm.sf(1.01 * zc):.3g} (expected), {stats.norm.cdf(1.01 * zc):.3g} (against) "
                             f"at level 5e-05; these data detect an effect of {smallest:.3g} with power 0.8")
    # just inside the critical value: undecided; the same estimate positive: refuted
    assert decide.direction(-0.99 * zc * 0.1, 0.1, what="s")["status"] == INCONCLUSIVE
    v = valid(decide.direction(1.01 * zc * 0.1, 0.1, what="s"))
    assert v["status"] == REFUTED and v["margin"]["tightness"] == "violated" and v["margin"]["value"] < 0
    assert decide.direction(1.01 * zc * 0.1, 0.1, what="s", expect="positive")["status"] == HOLDS
    assert decide.direction(-1.01 * zc * 0.1, 0.1, what="s", expect="positive")["status"] == REFUTED
    # two tests halve the level again: the same estimate is no longer significant
    zc2 = stats.norm.isf(LEVEL / 4)
    v = decide.direction(-0.5 * (zc + zc2) * 0.1, 0.1, what="s", tests=2)
    assert v["status"] == INCONCLUSIVE and v["bound"]["level"] == LEVEL / 4
    assert decide.direction(-0.5 * (zc + zc2) * 0.1, 0.1, what="s")["status"] == HOLDS


def test_direction_inconclusive_replications_needed():
    v = valid(decide.direction(-0.05, 0.1, what="slope", n=4))
    assert v["status"] == INCONCLUSIVE
    lev = LEVEL / 2
    need = v["power"]["needed"]
    # independent: the one-sided t test's power (noncentral t) for the default effect max(|estimate|, se) = 0.1;
    # with n = 4 replications giving se 0.1, one replication has sd 0.2: Cohen's d = 0.5
    pw = lambda N: stats.nct.sf(stats.t.isf(lev, N - 1), N - 1, 0.5 * math.sqrt(N))
    assert pw(need) >= 0.8 > pw(need - 1)
    p = v["power"]
    assert p["current"] == 4 and p["unit"] == "replications" and p["effect"] == "an effect of 0.1"
    assert p["test"] == "one-sided t test of the estimate" and p["level"] == lev
    assert v["evidence"].endswith("; " + p["statement"])
    # an explicit effect (its sign ignored), a larger estimate as the default effect
    v = decide.direction(-0.05, 0.1, what="s", n=4, effect=-0.2, unit="seeds")
    pw = lambda N: stats.nct.sf(stats.t.isf(lev, N - 1), N - 1, 1.0 * math.sqrt(N))
    assert pw(v["power"]["needed"]) >= 0.8 > pw(v["power"]["needed"] - 1)
    assert v["power"]["effect"] == "an effect of 0.2" and v["power"]["unit"] == "seeds"
    v = decide.direction(0.3, 1.0, what="s", n=9)
    pw = lambda N: stats.nct.sf(stats.t.isf(lev, N - 1), N - 1, (1.0 / 3.0) * math.sqrt(N))
    assert v["power"]["effect"] == "an effect of 1" and pw(v["power"]["needed"]) >= 0.8 > pw(v["power"]["needed"] - 1)
    v = decide.direction(-3.0, 10.0, what="s", n=1)
    assert v["power"]["effect"] == "an effect of 10" and v["power"]["current"] == 1


@pytest.mark.parametrize("est_,se,kw,match", [(1.0, 0.1, dict(expect="down"), "`expect` must be 'negative' or 'positive'; got 'down'"),
                                             (1.0, 0.0, {}, r"w: need a finite estimate and a finite se > 0; got 1.0, 0.0"),
                                             (1.0, -0.1, {}, "finite se > 0"),
                                             (np.nan, 0.1, {}, "finite se > 0"),
                                             (1.0, np.inf, {}, "finite se > 0")])
def test_direction_refuses_bad_input(est_, se, kw, match):
    with pytest.raises(ValueError, match=match):
        decide.direction(est_, se, what="w", **kw)


def test_erratum_if_decided():
    printed, corrected = decide.bound(3.0, 1.0, what="p"), decide.bound(0.5, 1.0, what="c")
    v = decide.erratum_if_decided(printed, corrected, referee="MC", root_cause="rc", what="w")
    assert v["status"] == ERRATUM and v["referee"] == "MC" and v["root_cause"] == "rc"
    u1 = decide.inconclusive({"o": 1}, None, what="u1", needed=9, unit="runs", current=1, effect="e", test="t")
    u2 = decide.inconclusive({"o": 2}, None, what="u2", needed=40, unit="runs", current=1, effect="e", test="t")
    v = valid(decide.erratum_if_decided(u1, corrected, referee="MC", root_cause="rc", what="(49)", params={"d": 3},
                                        evidence="printed (49) vs corrected"))
    assert v["status"] == INCONCLUSIVE and v["power"]["needed"] == 9 and v["referee"] == "MC"
    assert v["params"] == {"d": 3} and "root_cause" not in v
    assert v["observed"] == {"printed": {"o": 1}, "corrected": corrected["observed"]}
    assert v["evidence"] == f"printed (49) vs corrected; (49): {u1['evidence']}"
    v = decide.erratum_if_decided(u1, u2, referee="MC", root_cause="rc")
    assert v["power"]["needed"] == 40 and v["evidence"].startswith("printed vs corrected: ")
    assert v["params"] == {}
    v = decide.erratum_if_decided(False, u2, referee="r", root_cause="rc", what="b")
    assert v["status"] == INCONCLUSIVE and v["observed"] == {"printed": False, "corrected": {"o": 2}}
    v = decide.erratum_if_decided(printed, u2, root_cause="rc", what="b")
    assert "referee" not in v and v["evidence"] == f"b: {u2['evidence']}"


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


@pytest.mark.parametrize("n,df", [(None, None), ("many", None), (1, None), (math.inf, None), (2, 1), (3, 2),
                                  (12.0, 11)])
def test_replications_set_the_degrees_of_freedom_of_agreement(n, df):
    # a scalar agreement reports its interval mean +- crit * se: read the critical value off it
    v = decide.agreement(SimpleNamespace(mean=0.0, se=1.0, n=n), 0.0, what="df")
    crit = stats.norm.isf(LEVEL / 2) if df is None else stats.t.isf(LEVEL / 2, df)
    assert v["observed"]["ci"] == pytest.approx([-crit, crit])


@pytest.mark.parametrize("factor,label", [(1 + 1e-6, "exact"), (1 + 2e-6, "tight"), (math.nan, "slack"),
                                          (-math.inf, "slack"), (0.5, "exact")])
def test_tightness_edges(factor, label):
    assert decide.tightness(factor) == label


def test_detection_relative_change_and_slack_note():
    assert decide.bound(0.5, 1.0, what="b")["detects"] == {"factor": 2.0, "of": "constant", "relative": 1.0}
    assert decide.bound(-1.0, 1.0, what="b", of="step")["detects"] == {"factor": math.inf, "of": "step",
                                                                          "relative": math.inf}
    v = decide.bound(0.001, 1.0, what="b")
    assert v["evidence"].endswith("; worst observed/bound 0.001; cannot detect a 10x change of the constant "
                                  "(detects x1e+03)")
    # a factor of exactly 10 still detects a 10x change; just above it does not
    assert "cannot detect" not in decide.bound(0.1, 1.0, what="b")["evidence"]
    assert "cannot detect a 10x change of the constant (detects x10)" in decide.bound(0.0999, 1.0, what="b")["evidence"]
    assert decide.bound(-1.0, 1.0, what="b")["evidence"].endswith("(detects xinf)")


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
    q = lambda r, pts, a, pw: (stats.t.isf(a, r * pts - 2) + stats.t.ppf(pw, r * pts - 2)) * 0.2 / math.sqrt(r)
    R = decide.sweeps_needed(0.2, 0.1, points=6, level=0.01, power=0.9)
    assert q(R, 6, 0.005, 0.9) <= 0.1 < q(R - 1, 6, 0.005, 0.9)
    R = decide.sweeps_needed(0.2, -0.1, points=3, level=0.01, two_sided=False)
    assert q(R, 3, 0.01, 0.8) <= 0.1 < q(R - 1, 3, 0.01, 0.8)
    assert decide.sweeps_needed(0.2, 0.1, points=3, r_max=5) == 5
    assert decide.sweeps_needed(0.2, np.nan, points=3, r_max=7) == 7
    assert decide.sweeps_needed(-1.0, 0.1, points=3) == 1


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


# ============================================================================ identity, agreement, bound, probability: exact outputs
def test_identity_exact_output():
    v = valid(decide.identity(4.1, 4.0, what="id", atol=0.2, rtol=0.0, params={"d": 3}, regime="d = 3"))
    assert v["status"] == HOLDS and v["params"] == {"d": 3} and v["regime"] == "d = 3"
    assert v["observed"] == 4.1 and v["bound"] == 4.0
    assert v["evidence"] == "id: largest discrepancy 0.1 <= tolerance (atol 0.2, rtol 0) over 1 entry"
    assert v["margin"] == {"kind": "discrepancy/tolerance", "value": pytest.approx(0.5), "ci": None,
                           "tightness": "exact"}
    # detects: the tolerance over |expected| (0.2 / 4) as a relative change of the expected value
    assert v["detects"] == {"factor": pytest.approx(1.05), "of": "value", "relative": pytest.approx(0.05),
                            "tolerance": pytest.approx(0.2)}
    v = valid(decide.identity([1.0, 2.5], [1.0, 2.0], what="vec", atol=0.1, rtol=0.1))
    assert v["status"] == REFUTED
    assert v["evidence"] == "vec: largest discrepancy 0.5 > tolerance (atol 0.1, rtol 0.1) over 2 entries"
    assert v["margin"] == {"kind": "discrepancy/tolerance", "value": pytest.approx(0.5 / 0.3), "ci": None,
                           "tightness": "violated"}
    assert v["detects"]["factor"] == pytest.approx(1 + min(0.2 / 1.0, 0.3 / 2.0))
    assert v["detects"]["tolerance"] == pytest.approx(0.3)
    # an expected value below 1 in magnitude: the tolerance over the value itself
    assert decide.identity(0.5, 0.5, what="s", atol=0.1)["detects"]["factor"] == pytest.approx(1.2)
    assert decide.identity(-0.5, -0.5, what="s", atol=0.1, rtol=0.0)["detects"]["factor"] == pytest.approx(1.2)
    with pytest.raises(TypeError, match="`expected` must be numeric; got str"):
        decide.identity(1.0, "a", what="x")
    with pytest.raises(ValueError, match="`expected` is empty"):
        decide.identity(1.0, [], what="x")
    with pytest.raises(ValueError, match=r"`rtol` and `atol` must be finite and >= 0; got rtol=1e-09, atol=inf"):
        decide.identity(1.0, 1.0, what="x", atol=np.inf)
    with pytest.raises(ValueError, match=r"`rtol` and `atol` must be finite and >= 0; got rtol=nan"):
        decide.identity(1.0, 1.0, what="x", rtol=np.nan)
    with pytest.raises(ValueError, match=r"`observed` \(2,\) and `expected` \(3,\) do not broadcast"):
        decide.identity([1, 2], [1, 2, 3], what="x")
    with pytest.raises(ValueError, match=r"^bad: non-finite numbers in `observed` or `expected`$"):
        decide.identity(1.0, np.inf, what="bad")
    # exactly at the tolerance holds
    assert decide.identity(1.5, 1.0, what="edge", atol=0.5, rtol=0.0)["status"] == HOLDS


def test_agreement_exact_output_scalar():
    crit = stats.t.isf(LEVEL / 2, 99)
    v = valid(decide.agreement(est(10.2, 0.1), 10.0, what="mc", params={"k": 1}, regime="r"))
    assert v["status"] == HOLDS and v["params"] == {"k": 1} and v["regime"] == "r"
    assert v["observed"] == {"estimate": 10.2, "se": 0.1, "n": 100,
                             "ci": pytest.approx([10.2 - crit * 0.1, 10.2 + crit * 0.1])}
    assert v["bound"] == 10.0 and isinstance(v["bound"], float)
    rel = (crit * 0.1 - 0.2) / 10.0
    assert v["margin"] == {"kind": "max |z| / critical", "value": pytest.approx(2.0 / crit), "ci": None,
                           "tightness": "tight"}
    assert v["detects"] == {"factor": pytest.approx(1 + rel), "of": "closed form", "relative": pytest.approx(rel)}
    assert v["evidence"] == f"mc: max |z| = 2.00 vs critical {crit:.2f} (level 0.0001, Bonferroni over 1), n=100"
    v = valid(decide.agreement(est(11.0, 0.1), 10.0, what="mc"))
    assert v["status"] == REFUTED and v["margin"]["tightness"] == "violated"
    assert v["detects"] == {"factor": 1.0, "of": "closed form", "relative": 0.0}
    # no replication count: the normal quantile, n=None in the evidence
    v = decide.agreement(SimpleNamespace(mean=1.0, se=0.5), 1.0, what="plain")
    assert v["observed"]["n"] is None and v["evidence"].endswith("n=None")


def test_agreement_exact_output_vector_and_zero_closed_form():
    crit = stats.t.isf(LEVEL / 4, 49)
    v = valid(decide.agreement(est(np.array([1.0, 2.3]), np.array([0.1, 0.1]), n=50), np.array([1.0, 2.0]), what="v"))
    assert v["status"] == HOLDS
    assert v["observed"] == {"max_abs_z": pytest.approx(3.0), "n": 50, "entries": 2}
    assert v["bound"] == {"closed_form_entries": 2, "critical_z": pytest.approx(crit)}
    rel = min(crit * 0.1 / 1.0, (crit * 0.1 - 0.3) / 2.0)
    assert v["detects"]["factor"] == pytest.approx(1 + rel)
    assert v["margin"]["value"] == pytest.approx(3.0 / crit)
    assert v["evidence"] == f"v: max |z| = 3.00 vs critical {crit:.2f} (level 0.0001, Bonferroni over 2), n=50"
    # a closed form of 0 has no relative scale: that entry cannot limit the detection factor
    v = decide.agreement(est(0.05, 0.1), 0.0, what="zero")
    assert v["status"] == HOLDS and v["detects"]["factor"] == math.inf and v["detects"]["relative"] == math.inf
    crit2 = stats.t.isf(LEVEL / 4, 99)
    v = decide.agreement(est(np.array([0.0, 1.0]), np.array([0.1, 0.1])), np.array([0.0, 1.0]), what="mixed")
    assert v["detects"]["factor"] == pytest.approx(1 + crit2 * 0.1)
    with pytest.raises(TypeError, match="`estimate.mean` must be numeric"):
        decide.agreement(est("a", 1.0), 1.0, what="x")
    with pytest.raises(TypeError, match="`estimate.se` must be numeric"):
        decide.agreement(est(1.0, "a"), 1.0, what="x")
    with pytest.raises(TypeError, match="`value` must be numeric"):
        decide.agreement(est(1.0, 1.0), "a", what="x")
    with pytest.raises(ValueError, match=r"^`estimate.se` must be >= 0$"):
        decide.agreement(est(1.0, -1.0), 1.0, what="x")
    with pytest.raises(ValueError, match=r"estimate \(3,\) and closed form \(2,\) do not broadcast"):
        decide.agreement(est(np.ones(3), np.ones(3)), np.ones(2), what="x")
    with pytest.raises(ValueError, match=r"^nf: non-finite number in the estimate or the closed form$"):
        decide.agreement(est(1.0, 1.0), np.inf, what="nf")


def test_bound_exact_output_deterministic():
    v = valid(decide.bound([0.2, 0.5], [1.0, 1.0], what="b", params={"m": 2}, regime="r"))
    assert v["params"] == {"m": 2} and v["regime"] == "r" and v["observed"] == [0.2, 0.5]
    assert v["evidence"] == "b: 0 of 2 entries violate <=; worst observed/bound 0.5"
    assert v["margin"] == {"kind": "observed/bound", "value": 0.5, "ci": None, "tightness": "tight"}
    v = valid(decide.bound(1.2, 1.0, what="b"))
    assert v["status"] == REFUTED and v["evidence"] == "b: 1 of 1 entry violates <=; worst observed/bound 1.2"
    assert v["detects"] == {"factor": 1.0, "of": "constant", "relative": 0.0}
    v = decide.bound([1.2, 1.5, 0.5], 1.0, what="b")
    assert v["evidence"].startswith("b: 2 of 3 entries violate <=;") and v["margin"]["value"] == 1.5
    v = valid(decide.bound(4.0, 1.0, what="lb", sense=">="))
    assert v["evidence"] == "lb: 0 of 1 entry violate >=; worst bound/observed 0.25"
    assert v["margin"] == {"kind": "bound/observed", "value": 0.25, "ci": None, "tightness": "loose"}
    # an observed 0 under a lower bound: no ratio, refuted, the bound would have to shrink to 0
    v = valid(decide.bound(0.0, 1.0, what="lb", sense=">="))
    assert v["status"] == REFUTED and v["margin"]["value"] is None and v["evidence"] == "lb: 1 of 1 entry violates >="
    assert v["detects"]["factor"] == 1.0
    # a bound <= 0: no ratio either; the margin names no value
    v = decide.bound(-2.0, -1.0, what="neg")
    assert v["status"] == HOLDS and v["margin"]["value"] is None and v["detects"]["factor"] is None
    assert v["margin"]["tightness"] == "unknown"
    for kw, name in ((dict(observed="a", bound=1.0), "observed"), (dict(observed=1.0, bound="a"), "bound"),
                     (dict(observed=1.0, bound=1.0, se="a"), "se")):
        with pytest.raises(TypeError, match=f"`{name}` must be numeric; got str"):
            decide.bound(what="x", **kw)
    with pytest.raises(ValueError, match=r"`rtol` and `atol` must be >= 0; got rtol=0.0, atol=-1"):
        decide.bound(1.0, 1.0, what="x", atol=-1)
    with pytest.raises(ValueError, match=r"^x: non-finite number in `observed`, `bound` or `se`$"):
        decide.bound(1.0, 1.0, what="x", se=np.nan)
    with pytest.raises(ValueError, match=r"`sense` must be '<=' or '>='; got '=='"):
        decide.bound(1.0, 1.0, what="x", sense="==")
    with pytest.raises(ValueError, match=r"`observed` \(2,\) and `bound` \(3,\) do not broadcast"):
        decide.bound([1, 2], [1, 2, 3], what="x")


def test_bound_exact_output_with_standard_errors():
    crit = stats.norm.isf(LEVEL / 4)  # two entries, two tests
    v = valid(decide.bound([0.5, 0.6], [1.0, 1.0], se=0.05, tests=2, what="mc"))
    assert v["evidence"] == (f"mc: 0 of 2 entries violate <= (one-sided z test at level 2.5e-05, critical {crit:.2f}); "
                             f"worst observed/bound 0.6")
    assert v["margin"]["ci"] == [None, pytest.approx(0.6 + crit * 0.05)]
    assert v["detects"]["factor"] == pytest.approx(1 / (0.6 + crit * 0.05))
    tcrit = stats.t.isf(LEVEL, 5)
    v = decide.bound(0.5, 1.0, se=0.05, df=5, what="t")
    assert f"(one-sided t test at level 0.0001, critical {tcrit:.2f})" in v["evidence"]
    # an entry with se 0 is decided deterministically: any excess refutes it
    v = decide.bound([0.5, 1.5], [1.0, 1.0], se=[0.1, 0.0], what="z0")
    assert v["status"] == REFUTED and v["evidence"].startswith("z0: 1 of 2 entries violates <=")
    v = decide.bound([0.5, 1.001], [1.0, 1.0], se=[0.1, 0.0], what="z0")
    assert v["status"] == REFUTED
    v = decide.bound([0.5, 0.9], [1.0, 1.0], se=[0.1, 0.0], what="z0")
    assert v["status"] == HOLDS
    # a lower bound with standard errors: the lower confidence limit, bound / limit
    c1 = stats.norm.isf(LEVEL)
    v = valid(decide.bound(0.8, 0.5, se=0.01, sense=">=", what="lb"))
    lim = 0.8 - c1 * 0.01
    assert v["status"] == HOLDS and v["margin"]["ci"] == [None, pytest.approx(0.5 / lim)]
    assert v["detects"]["factor"] == pytest.approx(lim / 0.5) and v["margin"]["value"] == pytest.approx(0.625)
    v = decide.bound(0.1, 0.05, se=0.1, sense=">=", what="lb")  # the limit 0.1 - 0.37 is negative
    assert v["status"] == HOLDS and v["margin"]["ci"][0] is None and math.isnan(v["margin"]["ci"][1])
    assert v["detects"]["factor"] == 1.0
    assert decide.bound(0.5, 1.0, se=0.1, sense=">=", what="lb")["status"] == REFUTED


# ============================================================================ probability: exact outputs
def test_probability_exact_output():
    lev = LEVEL
    v = valid(decide.probability(3, 100, 0.05, what="thm", params={"n": 3}, regime="r"))
    pval = sum(math.comb(100, j) * 0.05 ** j * 0.95 ** (100 - j) for j in range(3, 101))
    lo, hi = stats.beta.ppf(lev / 2, 3, 98), stats.beta.isf(lev / 2, 4, 97)
    assert v["status"] == HOLDS and v["params"] == {"n": 3} and v["regime"] == "r"
    assert v["observed"] == {"violations": 3, "trials": 100, "rate": 0.03, "ci": pytest.approx([lo, hi])}
    assert v["bound"] == {"p_allowed": 0.05, "level": lev}
    p1 = v["detects"]["smallest_rate"]
    assert _exact_power(100, 0.05, p1 * (1 + 1e-6), lev) >= 0.8 > _exact_power(100, 0.05, p1 * 0.999, lev)
    f = p1 / 0.05
    assert v["detects"] == {"factor": pytest.approx(f), "of": "failure probability", "relative": pytest.approx(f - 1),
                            "smallest_rate": p1}
    label = "tight" if f <= 2 else "loose" if f <= 10 else "slack"
    assert v["margin"] == {"kind": "rate/allowed", "value": pytest.approx(0.6),
                           "ci": pytest.approx([lo / 0.05, hi / 0.05]), "tightness": label}
    assert v["evidence"] == (f"thm: 3/100 violations (exact 99.99% CI [{lo:.3g}, {hi:.3g}]) vs allowed rate 0.05; "
                             f"one-sided exact binomial p-value {pval:.3g} >= 0.0001; these trials detect a rate of "
                             f"{p1:.3g} with power 0.8")
    v = valid(decide.probability(30, 100, 0.05, what="thm", tests=4))
    pval = sum(math.comb(100, j) * 0.05 ** j * 0.95 ** (100 - j) for j in range(30, 101))
    assert v["status"] == REFUTED and v["margin"]["tightness"] == "violated"
    assert f"p-value {pval:.3g} < 2.5e-05" in v["evidence"] and "(exact 100% CI" in v["evidence"]
    # p_allowed = 0: no ratio; the interval unscaled
    v = valid(decide.probability(0, 50, 0.0, what="never"))
    lo, hi = 0.0, stats.beta.isf(lev / 2, 1, 50)
    assert v["margin"] == {"kind": "rate/allowed", "value": None, "ci": pytest.approx([lo, hi]), "tightness": "unknown"}
    assert "p-value 1 >= 0.0001" in v["evidence"]
    v = decide.probability(2, 50, 0.0, what="never")
    assert v["status"] == REFUTED and "p-value 0 < 0.0001" in v["evidence"]
    # three trials cannot reject p <= 1/2 at 1e-4 whatever the rate: detects only a rate of 1
    v = decide.probability(0, 3, 0.5, what="few")
    assert v["detects"]["smallest_rate"] == 1.0 and v["detects"]["factor"] == 2.0
    assert v["observed"]["rate"] == 0.0
    # custom observed and bound
    v = decide.probability(0, 3, 0.5, what="few", observed={"runs": 3}, bound={"p": 0.5})
    assert v["observed"] == {"runs": 3} and v["bound"] == {"p": 0.5}
    with pytest.raises(ValueError, match=r"`trials` must be an integer >= 1; got True"):
        decide.probability(0, True, 0.1, what="x")
    with pytest.raises(ValueError, match=r"`violations` must be an integer in \[0, trials=4\]; got False"):
        decide.probability(False, 4, 0.1, what="x")
    with pytest.raises(ValueError, match=r"`trials` must be an integer >= 1; got 2.5"):
        decide.probability(0, 2.5, 0.1, what="x")
    with pytest.raises(ValueError, match=r"`p_allowed` must be in \[0, 1\); got 1.0"):
        decide.probability(0, 4, 1.0, what="x")


# ============================================================================ rate and ordering: exact outputs
def _loglog_reference(x, y):
    """Independent OLS of log y on log x: slope, its standard error and the residual degrees of freedom."""
    X, Y = np.log(x), np.log(y)
    b, a = np.polyfit(X, Y, 1)
    r = Y - (a + b * X)
    df = x.size - 2
    return b, math.sqrt(r @ r / df / np.sum((X - X.mean()) ** 2)), df


def _rate_data():
    x = np.array([1, 2, 4, 8, 16, 32.0])
    return x, x ** -1.0 * np.exp(np.random.default_rng(1).normal(0, 0.01, x.size))


def test_rate_two_sided_exact_output():
    x, y = _rate_data()
    b, se, df = _loglog_reference(x, y)
    t = stats.t.isf(LEVEL / 2, df)
    lo, hi = b - t * se, b + t * se
    v = valid(decide.rate(x, y, claimed=-1.0, what="r", params={"p": 1}, regime="g"))
    assert v["status"] == HOLDS and v["params"]["p"] == 1 and v["regime"] == "g" and "fit" in v["params"]
    assert v["observed"] == {"slope": pytest.approx(b), "ci": pytest.approx([lo, hi])}
    assert v["bound"] == {"claimed": -1.0}
    assert v["margin"] == {"kind": "fitted - claimed exponent", "value": pytest.approx(b + 1),
                           "ci": pytest.approx([lo + 1, hi + 1]), "tightness": "tight"}
    room = min(hi + 1, -1 - lo)
    assert v["detects"] == {"factor": pytest.approx(1 + room), "of": "exponent", "relative": pytest.approx(room),
                            "absolute": pytest.approx(room)}
    assert v["evidence"] == (f"r: fitted slope {b:.4g} (CI [{lo:.4g}, {hi:.4g}], log y = a + b log x (OLS, t interval), "
                             f"6 points, df 4) vs claimed -1 (two-sided)")
    # claimed -2: the relative change is room / |claimed|
    v = decide.rate(x, y * x ** -1.0, claimed=-2.0, what="r")
    b2, se2, _ = _loglog_reference(x, y * x ** -1.0)
    lo2, hi2 = b2 - t * se2, b2 + t * se2
    assert v["status"] == HOLDS and v["detects"]["factor"] == pytest.approx(1 + min(hi2 + 2, -2 - lo2) / 2)
    # a claimed value above the interval (two-sided): refuted, with the evidence
    v = valid(decide.rate(x, y, claimed=-0.5, what="r"))
    assert v["status"] == REFUTED and v["margin"]["tightness"] == "violated"
    assert v["evidence"].startswith(f"r: fitted slope {b:.4g}") and v["evidence"].endswith("vs claimed -0.5 (two-sided)")
    assert v["detects"]["absolute"] == 0.0 and v["params"]["fit"]["n"] == 6
    assert decide.rate(x, y, claimed=-1.5, what="r")["status"] == REFUTED
    # the interval is [lo, hi] itself: just inside it holds
    assert decide.rate(x, y, claimed=lo + 1e-6, what="r")["status"] == HOLDS
    assert decide.rate(x, y, claimed=hi - 1e-6, what="r")["status"] == HOLDS
    assert decide.rate(x, y, claimed=hi + 1e-6, what="r")["status"] == REFUTED


def test_rate_one_sided_exact_output():
    x, y = _rate_data()
    b, se, df = _loglog_reference(x, y)
    t1 = stats.t.isf(LEVEL, df)  # one-sided at LEVEL: the 1 - 2 LEVEL two-sided interval's ends
    v = decide.rate(x, y, claimed=-0.9, what="r", alternative="less")
    assert v["status"] == HOLDS and v["observed"]["ci"] == pytest.approx([b - t1 * se, b + t1 * se])
    assert v["detects"]["absolute"] == pytest.approx(-0.9 - (b - t1 * se))
    assert v["detects"]["factor"] == pytest.approx(1 + (-0.9 - (b - t1 * se)) / 0.9)
    assert v["evidence"].endswith("vs claimed -0.9 (less)")
    v = decide.rate(x, y, claimed=-1.1, what="r", alternative="greater")
    assert v["status"] == HOLDS and v["detects"]["absolute"] == pytest.approx(b + t1 * se + 1.1)
    # just beyond the one-sided limit: refuted; the two-sided interval would still hold it
    c = b - 0.5 * (t1 + stats.t.isf(LEVEL / 2, df)) * se
    assert decide.rate(x, y, claimed=c, what="r", alternative="less")["status"] == REFUTED
    assert decide.rate(x, y, claimed=c, what="r")["status"] == HOLDS
    c = b + 0.5 * (t1 + stats.t.isf(LEVEL / 2, df)) * se
    assert decide.rate(x, y, claimed=c, what="r", alternative="greater")["status"] == REFUTED
    # a claimed exponent 0: no relative change, the default resolution 0.5
    flat = np.exp(np.random.default_rng(2).normal(0, 0.01, x.size))
    v = decide.rate(x, flat, claimed=0.0, what="flat")
    assert v["status"] == HOLDS and v["detects"]["factor"] is None and v["detects"]["relative"] is None


def test_rate_inconclusive_exact_output():
    x = np.array([1, 2, 4.0])
    y = x ** -1.0 * np.array([1.3, 0.8, 1.2])
    b, se, df = _loglog_reference(x, y)
    half = stats.t.isf(LEVEL / 2, df) * se
    # default resolution |claimed| / 2 = 0.5 (the interval's half-width is far wider)
    v = valid(decide.rate(x, y, claimed=-1.0, what="r", params={"k": 2}, unit="sweeps"))
    assert v["status"] == INCONCLUSIVE and v["params"]["k"] == 2 and v["power"]["unit"] == "sweeps"
    assert v["evidence"].endswith(f"(two-sided); the interval's half-width {half:.3g} does not resolve 0.5")
    assert v["margin"]["kind"] == "fitted - claimed exponent" and v["margin"]["value"] == pytest.approx(b + 1)
    assert v["margin"]["tightness"] == ("tight" if abs(b + 1) <= 0.5 else "loose")
    R = v["power"]["needed"]
    q = lambda r: (stats.t.isf(LEVEL / 2, 3 * r - 2) + stats.t.ppf(0.8, 3 * r - 2)) * se / math.sqrt(r)
    assert q(R) <= 0.5 < q(R - 1)
    assert v["power"]["effect"] == "an exponent error of 0.5" and v["power"]["current"] == 1
    assert v["power"]["test"] == "t interval of the fitted slope" and v["power"]["level"] == LEVEL
    # a claimed value farther than the resolution from the fit (inside the wide interval): loose
    v = decide.rate(x, y, claimed=b + 0.5 * half, what="r", resolution=0.1)
    assert v["status"] == INCONCLUSIVE and v["margin"]["tightness"] == "loose"
    v = decide.rate(x, y, claimed=b + 0.05, what="r", resolution=0.1)
    assert v["status"] == INCONCLUSIVE and v["margin"]["tightness"] == "tight"
    # one-sided: the size search is one-sided too
    v = decide.rate(x, y, claimed=-1.0, what="r", alternative="less", resolution=0.1)
    R = v["power"]["needed"]
    q = lambda r: (stats.t.isf(LEVEL, 3 * r - 2) + stats.t.ppf(0.8, 3 * r - 2)) * se / math.sqrt(r)
    assert q(R) <= 0.1 < q(R - 1)
    # tests=2: each decision at LEVEL / 2
    v = decide.rate(x, y, claimed=-1.0, what="r", resolution=0.1, tests=2)
    R = v["power"]["needed"]
    q = lambda r: (stats.t.isf(LEVEL / 4, 3 * r - 2) + stats.t.ppf(0.8, 3 * r - 2)) * se / math.sqrt(r)
    assert q(R) <= 0.1 < q(R - 1) and v["power"]["level"] == LEVEL / 2


def test_ordering_paired_exact_output():
    a, b = np.arange(30.0), np.arange(30.0) + 1
    lev = LEVEL / 2
    v = valid(decide.ordering(a, b, what="ord", params={"s": 1}, regime="r", empirical=True, analogue="lin"))
    p_good, p_bad = 0.5 ** 30, 1.0
    assert v["status"] == HOLDS and v["params"] == {"s": 1} and v["regime"] == "r" and "analogue" not in v
    assert v["observed"] == {"pairs": 30, "ties": 0, "in_claimed_order": 30, "against": 0, "share": 1.0,
                             "p_claimed": pytest.approx(p_good), "p_against": pytest.approx(p_bad)}
    assert v["bound"] == {"expect": "a less than b"}
    assert v["margin"] == {"kind": "share in the claimed order", "value": 1.0, "ci": None, "tightness": "unknown"}
    p1 = v["detects"]["smallest_share"]
    assert _exact_power(30, 0.5, p1 * (1 + 1e-6), lev) >= 0.8 > _exact_power(30, 0.5, p1 * 0.999, lev)
    assert v["detects"] == {"factor": None, "of": "ordering", "relative": None, "smallest_share": p1}
    assert v["evidence"] == (f"ord: exact sign test, ties dropped, share in the claimed order 1; p = {p_good:.3g} "
                             f"(claimed order), 1 (against), level 5e-05")
    v = valid(decide.ordering(b, a, what="ord", expect="greater", tests=3))
    assert v["status"] == HOLDS and v["bound"] == {"expect": "a greater than b"}
    assert v["evidence"].endswith("level 1.67e-05")
    v = valid(decide.ordering(b, a, what="ord", empirical=True, analogue="lin"))
    assert v["status"] == NOT_REPRODUCED and v["analogue"] == "lin" and v["margin"]["tightness"] == "violated"
    assert v["observed"]["against"] == 30 and v["observed"]["share"] == 0.0


def test_ordering_paired_inconclusive_exact_output():
    lev = LEVEL / 2
    # 3 of 4 untied pairs in the claimed order (one tie): share 0.75
    a, b = np.array([1.0, 2.0, 3.0, 5.0, 7.0]), np.array([2.0, 3.0, 4.0, 5.0, 6.0])
    v = valid(decide.ordering(a, b, what="few", params={"q": 1}, regime="r"))
    assert v["status"] == INCONCLUSIVE and v["params"] == {"q": 1} and v["regime"] == "r"
    assert v["observed"]["ties"] == 1 and v["observed"]["share"] == 0.75
    assert v["margin"] == {"kind": "share in the claimed order", "value": 0.75, "ci": None, "tightness": "unknown"}
    p = v["power"]
    assert p["current"] == 4 and p["unit"] == "untied pairs" and p["effect"] == "a share of 0.75"
    assert p["test"] == "exact sign test, ties dropped" and p["level"] == lev
    assert _exact_power(p["needed"], 0.5, 0.75, lev) >= 0.8 > _exact_power(p["needed"] - 1, 0.5, 0.75, lev)
    p_good = sum(math.comb(4, j) for j in range(3, 5)) / 16
    p_bad = sum(math.comb(4, j) for j in range(1, 5)) / 16
    assert v["evidence"] == (f"few: exact sign test, ties dropped, share in the claimed order 0.75; p = {p_good:.3g} "
                             f"(claimed order), {p_bad:.3g} (against), level 5e-05")
    assert v["bound"] == {"expect": "a less than b"}
    # every pair tied: share 1/2, effect 0.75 by default, one pair as the floor of the power search
    v = decide.ordering([1.0, 2.0], [1.0, 2.0], what="tied")
    assert v["status"] == INCONCLUSIVE and v["observed"]["share"] == 0.5 and v["power"]["current"] == 0
    p1 = v["detects"]["smallest_share"]
    assert p1 == 1.0  # one untied pair cannot reject at 5e-05
    # a share of 0.9 (9 of 10) is not significant at 5e-05: the effect asked for is 0.9
    a = np.arange(10.0)
    b = a + np.r_[np.ones(9), -1.0]
    v = decide.ordering(a, b, what="nine")
    assert v["status"] == INCONCLUSIVE and v["power"]["effect"] == "a share of 0.9"
    # a share of 1/10 against: the effect is its mirror 0.9
    v = decide.ordering(b, a, what="one")
    assert v["status"] == INCONCLUSIVE and v["power"]["effect"] == "a share of 0.9"


def test_ordering_unpaired_exact_output():
    lev = LEVEL / 2
    a, b = np.arange(9.0), np.arange(10.0, 19.0)
    v = valid(decide.ordering(a, b, what="mw", paired=False, params={"u": 1}, regime="r"))
    p_good = 1 / math.comb(18, 9)  # the one split with every a below every b
    assert p_good < lev and v["status"] == HOLDS and v["params"] == {"u": 1} and v["regime"] == "r"
    assert v["observed"] == {"sizes": [9, 9], "auc": 1.0, "p_claimed": pytest.approx(p_good), "p_against": 1.0}
    assert v["margin"] == {"kind": "AUC", "value": 1.0, "ci": None, "tightness": "unknown"}
    assert v["detects"] == {"factor": None, "of": "ordering", "relative": None}
    assert v["bound"] == {"expect": "a less than b"}
    assert v["evidence"] == (f"mw: Mann-Whitney, AUC in the claimed order 1; p = {p_good:.3g} (claimed order), "
                             f"1 (against), level 5e-05")
    v = valid(decide.ordering(b, a, what="mw", paired=False, empirical=True, analogue="lin"))
    assert v["status"] == NOT_REPRODUCED and v["margin"]["tightness"] == "violated" and v["analogue"] == "lin"
    # 8 per group: 1 / C(16, 8) = 7.8e-5 is not below 5e-05; against: refuted only below the level
    assert decide.ordering(b[:8], a[:8], what="mw", paired=False)["status"] == INCONCLUSIVE
    # inconclusive: the per-group size at the AUC asked for, from the normal closed form
    v = valid(decide.ordering([0.0, 1.0, 2.0], [3.0, 4.0, 5.0, 6.0, 7.0], what="mw3", paired=False))
    assert v["status"] == INCONCLUSIVE
    d = math.sqrt(2) * stats.norm.ppf(0.95)
    need = math.ceil(2 * (stats.norm.isf(lev) + stats.norm.ppf(0.8)) ** 2 / d ** 2 * math.pi / 3)
    assert v["power"] == {"needed": need, "unit": "runs per method", "current": 3, "power": 0.8, "level": lev,
                          "effect": "an AUC of 0.95", "test": "Mann-Whitney",
                          "statement": f"{need} runs per method (now 3) would detect an AUC of 0.95 with power 0.8 "
                                       f"at level 5e-05 (Mann-Whitney)"}
    assert v["margin"]["kind"] == "AUC" and v["bound"] == {"expect": "a less than b"}
    assert v["evidence"].startswith("mw3: Mann-Whitney, AUC in the claimed order 1; p = ")
    # an AUC of 6/9 asks for 0.75: 52 per group at the ordering's level LEVEL / 2 (48 at LEVEL)
    v = decide.ordering([0.0, 2.0, 4.0], [1.0, 3.0, 5.0], what="mw", paired=False)
    d = math.sqrt(2) * stats.norm.ppf(0.75)
    need = math.ceil(2 * (stats.norm.isf(lev) + stats.norm.ppf(0.8)) ** 2 / d ** 2 * math.pi / 3)
    assert v["observed"]["auc"] == pytest.approx(6 / 9) and v["power"]["needed"] == need == 52
    with pytest.raises(TypeError, match="`b` must be numeric"):
        decide.ordering([1.0], "x", what="w")
    with pytest.raises(TypeError, match="`a` must be numeric"):
        decide.ordering("x", [1.0], what="w")
    with pytest.raises(ValueError, match=r"^nf: non-finite number in `a` or `b`$"):
        decide.ordering([np.nan], [1.0], what="nf")
    with pytest.raises(ValueError, match=r"paired samples need equal lengths; got 2 and 3"):
        decide.ordering([1, 2], [1, 2, 3], what="x")
    with pytest.raises(ValueError, match=r"^an empirical ordering needs its `analogue` \(the linear stand-in"):
        decide.ordering([1.0], [2.0], what="x", empirical=True)
    with pytest.raises(ValueError, match=r"`expect` must be 'less' or 'greater'; got 'below'"):
        decide.ordering([1.0], [2.0], what="x", expect="below")


# ============================================================================ erratum, vacuous, not_reproduced, inconclusive, combine: exact outputs
def test_erratum_exact_output():
    printed = decide.bound(3.0, 1.0, what="printed")
    corrected = decide.bound(0.5, 1.0, what="corrected")
    v = valid(decide.erratum(printed, corrected, referee="MC", root_cause="rc", what="(49)", referee_value=0.49,
                             params={"d": 2}, regime="r"))
    assert v["observed"] == {"printed": 3.0, "corrected": 0.5, "printed_holds": False, "corrected_holds": True,
                             "referee": 0.49}
    assert v["bound"] == {"printed_holds": False, "corrected_holds": True}
    assert v["params"] == {"d": 2} and v["regime"] == "r"
    assert v["evidence"] == f"(49); printed: {printed['evidence']}; corrected: {corrected['evidence']}"
    assert v["margin"] == dict(corrected["margin"], printed=printed["margin"])
    v = decide.erratum(printed, corrected, referee="MC", root_cause="rc", what="(49)", evidence="see (49)")
    assert v["evidence"].startswith("see (49); printed: ") and "referee" not in v["observed"]
    # plain booleans: the kit's placeholder margin and detection threshold
    v = valid(decide.erratum(False, True, referee="sympy", root_cause="sign", what="w"))
    assert v["evidence"] == "w"
    assert v["margin"] == {"kind": "printed vs corrected", "value": None, "ci": None, "tightness": "unknown",
                           "printed": None}
    assert v["detects"] == {"factor": None, "of": "corrected form", "relative": None}
    assert v["observed"] == {"printed": None, "corrected": None, "printed_holds": False, "corrected_holds": True}
    assert "printed" not in v and "corrected" not in v
    assert decide.erratum(np.bool_(True), False, referee="r", root_cause="c", what="w")["status"] == HOLDS
    # a decision without evidence is not quoted
    quiet = dict(corrected, evidence="")
    assert decide.erratum(printed, quiet, referee="r", root_cause="c", what="w")["evidence"] == \
        f"w; printed: {printed['evidence']}"
    with pytest.raises(ValueError, match=r"^`referee` must name the independent computation"):
        decide.erratum(False, True, referee="  ", root_cause="x", what="w")
    with pytest.raises(ValueError, match=r"^`root_cause` must be a non-empty id$"):
        decide.erratum(False, True, referee="r", root_cause=None, what="w")
    with pytest.raises(ValueError, match=r"`corrected` must be decided \(holds or refuted\); got 'inconclusive'"):
        decide.erratum(True, {"status": INCONCLUSIVE}, referee="r", root_cause="x", what="w")
    with pytest.raises(TypeError, match=r"`corrected` must be a bool or a decision of this kit; got str"):
        decide.erratum(True, "yes", referee="r", root_cause="x", what="w")


def test_vacuous_and_inconclusive_exact_output():
    v = valid(decide.vacuous(1.0, 2.0, what="T", reason="no instance", root_cause="rc", params={"a": 1}, regime="r"))
    assert v["margin"] == {"kind": "vacuity", "value": None, "ci": None, "tightness": "vacuous"}
    assert v["detects"] == {"factor": None, "of": "hypotheses", "relative": None}
    assert v["evidence"] == "T: no instance" and v["params"] == {"a": 1} and v["regime"] == "r"
    m, d = {"kind": "k", "value": 1.0, "ci": None, "tightness": "vacuous"}, {"factor": 2.0, "of": "x", "relative": 1.0}
    v = decide.vacuous(1.0, 2.0, what="T", reason="r", root_cause="rc", margin=m, detects=d)
    assert v["margin"] == m and v["detects"] == d
    with pytest.raises(ValueError, match=r"^a vacuous outcome needs its `reason` and `root_cause`$"):
        decide.vacuous(1, 2, what="x", reason="r", root_cause="")
    v = valid(decide.inconclusive({"o": 1}, {"b": 2}, what="x", needed=40, unit="runs", current=10,
                                  effect="a gap of 0.1", test="z test", params={"p": 1}, regime="r"))
    assert v["margin"] == {"kind": "undecided", "value": None, "ci": None, "tightness": "unknown"}
    assert v["detects"] == {"factor": None, "of": "claim", "relative": None}
    assert v["params"] == {"p": 1} and v["regime"] == "r" and v["observed"] == {"o": 1} and v["bound"] == {"b": 2}
    assert v["evidence"] == "x; 40 runs (now 10) would detect a gap of 0.1 with power 0.8 at level 0.0001 (z test)"


def test_not_reproduced_exact_output():
    refuted = dict(decide.bound(2.0, 1.0, what="fig"), root_cause="rc")
    v = valid(decide.not_reproduced(refuted, analogue="lin", what="Fig. 3"))
    assert v["evidence"] == f"Fig. 3: {refuted['evidence']}" and "root_cause" not in v and v["analogue"] == "lin"
    assert refuted["status"] == REFUTED and refuted["root_cause"] == "rc"  # the input is not changed
    v = decide.not_reproduced(refuted, analogue="lin")
    assert v["evidence"] == refuted["evidence"]
    bare = {"status": REFUTED, "observed": 1, "bound": 0}
    assert decide.not_reproduced(bare, analogue="lin", what="w")["evidence"] == "w: "
    with pytest.raises(ValueError, match=r"^`analogue` must name the linear analogue and its choices$"):
        decide.not_reproduced(refuted, analogue="")
    with pytest.raises(TypeError, match=r"^`decision` must be a decision of this kit$"):
        decide.not_reproduced({"observed": 1}, analogue="a")


def test_combine_exact_output():
    u1 = decide.inconclusive(None, None, what="u1", needed=9, unit="runs", current=1, effect="e", test="t")
    u2 = decide.inconclusive(None, None, what="u2", needed=40, unit="runs", current=1, effect="e", test="t")
    h = decide.bound(0.5, 1.0, what="h")
    v = valid(decide.combine([u1, h, u2], what="c", params={"a": 1}, regime="r"))
    assert v["power"]["needed"] == 40 and v["params"] == {"a": 1} and v["regime"] == "r"
    assert v["margin"] == u1["margin"]  # the first of the worst (inconclusive) decisions
    assert v["evidence"] == f"c: {u1['evidence']}; {h['evidence']}; {u2['evidence']}"
    assert v["observed"] == [None, 0.5, None] and v["bound"] == [None, 1.0, None]
    v = decide.combine([u2, u1], what="c", observed={"o": 1}, bound={"b": 1})
    assert v["power"]["needed"] == 40 and v["observed"] == {"o": 1} and v["bound"] == {"b": 1}
    # decisions without evidence, observed or bound
    bare = {"status": HOLDS}
    v = decide.combine([bare, h], what="b")
    assert v["evidence"] == f"b: ; {h['evidence']}" and v["observed"] == [None, 0.5] and v["bound"] == [None, 1.0]
    assert v["detects"] == h["detects"] and v["margin"] == h["margin"]
    # a detection factor of None (cannot be scaled) is weaker than any number
    none = dict(h, detects={"factor": None, "of": "x", "relative": None}, margin={"kind": "none"})
    v = decide.combine([h, none], what="n")
    assert v["detects"]["factor"] is None and v["margin"] == {"kind": "none"}
    with pytest.raises(ValueError, match=r"combine takes holds/refuted/inconclusive decisions; got 'float'"):
        decide.combine([h, 3.0], what="x")
    with pytest.raises(ValueError, match=r"combine takes holds/refuted/inconclusive decisions; got 'vacuous'"):
        decide.combine([{"status": VACUOUS}], what="x")
    with pytest.raises(ValueError, match=r"combine takes holds/refuted/inconclusive decisions; got None"):
        decide.combine([{"observed": 1}], what="x")
    with pytest.raises(ValueError, match=r"^`decisions` is empty: combine needs at least one decision$"):
        decide.combine(iter([]), what="x")


def test_compound_templates_pass_extra_keys_and_bounds():
    x, z, y = _regression_design()
    cols = {"x": x, "z": z}
    for kw, status in ((dict(claimed=2.0), HOLDS), (dict(claimed=2.5), REFUTED),
                       (dict(claimed=2.0, resolution=0.001), INCONCLUSIVE)):
        v = valid(decide.regression_rate(y, cols, slope_of="x", what="r", regime="g", **kw))
        assert v["status"] == status and v["regime"] == "g" and v["bound"] == {"claimed": kw["claimed"]}
    with pytest.raises(TypeError, match="`y` must be numeric; got str"):
        decide.regression_rate("abc", cols, slope_of="x", claimed=2.0, what="r")
    ok, bad = decide.bound(0.5, 1.0, what="a"), decide.bound(2.0, 1.0, what="b")
    assert decide.vacuous_given([ok], what="w", reason="r", root_cause="rc", regime="g")["regime"] == "g"
    assert decide.vacuous_given([bad], what="w", reason="r", root_cause="rc", regime="g")["regime"] == "g"
    with pytest.raises(ValueError, match=r"^a vacuity argument needs its `reason` and `root_cause`$"):
        decide.vacuous_given([ok], what="w", reason="", root_cause="rc")
    for est_ in (-1.0, 1.0, -0.01):
        v = valid(decide.direction(est_, 0.1, what="d", regime="g", params={"p": 2}))
        assert v["regime"] == "g" and v["params"] == {"p": 2}
    v = decide.premised(lambda: ok, held=0, trials=4, what="p", regime="g")
    assert v["regime"] == "g"


# ============================================================================ distribution
def _ks_distance(x, cdf):
    """Independent: the Kolmogorov distance from the order statistics, max(i/n - F(x_(i)), F(x_(i)) - (i-1)/n)."""
    x = np.sort(np.asarray(x, float))
    n = x.size
    F = cdf(x)
    i = np.arange(1, n + 1)
    return float(max(np.max(i / n - F), np.max(F - (i - 1) / n)))


def test_distribution_exact_output():
    x = np.random.default_rng(0).standard_normal(50)
    v = valid(decide.distribution(x, stats.norm.cdf, what="N", params={"a": 1}, regime="g"))
    d = _ks_distance(x, stats.norm.cdf)
    crit = v["bound"]["critical_distance"][0]
    assert stats.kstwo.sf(crit, 50) == pytest.approx(LEVEL)  # the exact critical distance at LEVEL
    assert v["status"] == HOLDS and v["params"] == {"a": 1} and v["regime"] == "g"
    assert v["observed"]["ks_distance"] == [pytest.approx(d)] and v["observed"]["n"] == [50]
    assert v["observed"]["p_value"] == [pytest.approx(stats.kstwo.sf(d, 50))]
    assert v["bound"] == {"critical_distance": [crit], "level": LEVEL}
    assert v["margin"] == {"kind": "Kolmogorov distance / critical", "value": pytest.approx(d / crit), "ci": None,
                           "tightness": "unknown"}
    smallest = crit + stats.norm.ppf(0.8) * 0.5 / math.sqrt(50)
    assert v["detects"] == {"factor": None, "of": "law", "relative": None, "smallest_distance": pytest.approx(smallest)}
    assert v["evidence"] == (f"N: one-sample Kolmogorov-Smirnov test of 1 sample(s) (sizes 50) at level 0.0001: "
                             f"largest distance {d:.3g}, smallest p-value {stats.kstwo.sf(d, 50):.3g}; these sizes "
                             f"detect a distance of {smallest:.3g} with power 0.8")
    # two samples with their own laws: Bonferroni over both, the larger detectable distance (smaller sample)
    y = np.random.default_rng(1).exponential(size=20)
    v = valid(decide.distribution([x, y], [stats.norm.cdf, stats.expon.cdf], what="two", tests=2))
    assert v["bound"]["level"] == LEVEL / 4 and v["observed"]["n"] == [50, 20] and v["status"] == HOLDS
    c20 = v["bound"]["critical_distance"][1]
    assert stats.kstwo.sf(c20, 20) == pytest.approx(LEVEL / 4)
    assert v["detects"]["smallest_distance"] == pytest.approx(c20 + stats.norm.ppf(0.8) * 0.5 / math.sqrt(20))
    assert "test of 2 sample(s) (sizes 50, 20) at level 2.5e-05" in v["evidence"]
    # a shifted sample: refuted; a tuple of samples sharing one law
    v = valid(decide.distribution(x + 2.0, stats.norm.cdf, what="shift"))
    assert v["status"] == REFUTED and v["margin"]["tightness"] == "violated" and v["margin"]["value"] > 1
    v = decide.distribution((x, x + 2.0), stats.norm.cdf, what="pair")
    assert v["status"] == REFUTED and len(v["observed"]["ks_distance"]) == 2
    with pytest.raises(ValueError, match=r"`cdf` must be one callable or one per sample; got 1 for 2 samples"):
        decide.distribution([x, y], [stats.norm.cdf], what="w")
    with pytest.raises(TypeError, match=r"^`cdf` must be callable \(a cumulative distribution function\)$"):
        decide.distribution(x, 3.0, what="w")
    with pytest.raises(ValueError, match=r"^w: every sample needs at least 2 values; got 1$"):
        decide.distribution([1.0], stats.norm.cdf, what="w")
    with pytest.raises(ValueError, match=r"^w: non-finite value in a sample$"):
        decide.distribution(np.array([1.0, np.inf]), stats.norm.cdf, what="w")


def test_identity_and_rate_name_inputs_and_report_the_interval_in_every_outcome():
    with pytest.raises(TypeError, match="`observed` must be numeric; got str"):
        decide.identity("a", 1.0, what="x")
    x, y = _rate_data()
    b, se, df = _loglog_reference(x, y)
    t = stats.t.isf(LEVEL / 2, df)
    v = decide.rate(x, y, claimed=-0.5, what="r")
    assert v["status"] == REFUTED and v["bound"] == {"claimed": -0.5}
    assert v["observed"] == {"slope": pytest.approx(b), "ci": pytest.approx([b - t * se, b + t * se])}
    v = decide.rate(x, y, claimed=-1.0, what="r", resolution=1e-4)
    assert v["status"] == INCONCLUSIVE and v["bound"] == {"claimed": -1.0}
    assert v["observed"] == {"slope": pytest.approx(b), "ci": pytest.approx([b - t * se, b + t * se])}


def test_compound_boundaries_and_direction_margin():
    x, z, y = _regression_design()
    lo, hi = decide.regression_rate(y, {"x": x, "z": z}, slope_of="x", claimed=2.0, what="r")["observed"]["ci"]
    # a resolution equal to the interval's half-width is resolved
    v = decide.regression_rate(y, {"x": x, "z": z}, slope_of="x", claimed=2.0, what="r", resolution=(hi - lo) / 2)
    assert v["status"] == HOLDS
    inner = decide.bound(0.5, 1.0, what="x")
    assert decide.premised(lambda: inner, held=1, trials=6, what="p") is inner
    v = decide.direction(-1.0, 0.1, what="d")
    assert v["margin"] == {"kind": "z in the expected direction", "value": pytest.approx(10.0), "ci": None,
                           "tightness": "unknown"}
