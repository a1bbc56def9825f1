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
