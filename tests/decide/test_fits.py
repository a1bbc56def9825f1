"""Tests of :mod:`fedtheory.decide._fits`: the line fits and the rate and regression-rate templates: numpy
least-squares referees, interval, margin, detection, the designs needed and exact output."""
import math

import numpy as np
import pytest
from scipy import stats

from fedtheory import decide
from fedtheory.claims import HOLDS, INCONCLUSIVE, NOT_REPRODUCED, REFUTED, check_return

LEVEL = decide.LEVEL


def valid(out):
    """Every template's return passes the verdict contract."""
    return check_return(out)


# ============================================================================ probability
def _exact_power(n, p0, p1, level):
    """Independent: the rejection region of the exact one-sided test from direct binomial tail sums."""
    pmf0 = stats.binom.pmf(np.arange(n + 1), n, p0)
    tail0 = np.cumsum(pmf0[::-1])[::-1]  # P(X >= k)
    k = int(np.argmax(tail0 <= level)) if np.any(tail0 <= level) else n + 1
    return float(stats.binom.pmf(np.arange(k, n + 1), n, p1).sum())


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
    # the size: at R sweeps (3R points) the half-width, F-pivoted on the current df 1, resolves 0.1 with power 0.8
    q = lambda r: stats.t.isf(LEVEL / 2, 3 * r - 2) * se * math.sqrt(stats.f.ppf(0.8, 3 * r - 2, 1)) / math.sqrt(r)
    assert q(R) <= 0.1 < q(R - 1)
    assert v["power"]["unit"] == "replicated sweeps" and str(R) in v["power"]["statement"]
    with pytest.raises(ValueError, match="`alternative`"):
        decide.rate(x, y, claimed=-1, what="r", alternative="both")
    with pytest.raises(ValueError, match="`claimed`"):
        decide.rate(x, y, claimed=np.nan, what="r")
    with pytest.raises(ValueError, match="`resolution`"):
        decide.rate(x, y, claimed=-1, what="r", resolution=0)


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
    q = lambda r: stats.t.isf(LEVEL / 2, 3 * r - 2) * se * math.sqrt(stats.f.ppf(0.8, 3 * r - 2, df)) / math.sqrt(r)
    assert q(R) <= 0.5 < q(R - 1)
    assert v["power"]["effect"] == "the exponent to +-0.5" and v["power"]["current"] == 1
    assert v["power"]["test"].startswith("t interval of the fitted slope; the standard error's own uncertainty "
                                         "from its 1 degrees of freedom") and v["power"]["level"] == LEVEL
    assert f"{R} sweeps (now 1) would resolve the exponent to +-0.5 with power 0.8" in v["power"]["statement"]
    # a claimed value farther than the resolution from the fit (inside the wide interval): loose
    v = decide.rate(x, y, claimed=b + 0.5 * half, what="r", resolution=0.1)
    assert v["status"] == INCONCLUSIVE and v["margin"]["tightness"] == "loose"
    v = decide.rate(x, y, claimed=b + 0.05, what="r", resolution=0.1)
    assert v["status"] == INCONCLUSIVE and v["margin"]["tightness"] == "tight"
    # one-sided: the size search is one-sided too
    v = decide.rate(x, y, claimed=-1.0, what="r", alternative="less", resolution=0.1)
    R = v["power"]["needed"]
    q = lambda r: stats.t.isf(LEVEL, 3 * r - 2) * se * math.sqrt(stats.f.ppf(0.8, 3 * r - 2, df)) / math.sqrt(r)
    assert q(R) <= 0.1 < q(R - 1)
    # tests=2: each decision at LEVEL / 2
    v = decide.rate(x, y, claimed=-1.0, what="r", resolution=0.1, tests=2)
    R = v["power"]["needed"]
    q = lambda r: stats.t.isf(LEVEL / 4, 3 * r - 2) * se * math.sqrt(stats.f.ppf(0.8, 3 * r - 2, df)) / math.sqrt(r)
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
