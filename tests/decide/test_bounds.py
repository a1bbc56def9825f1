"""Tests of :mod:`fedtheory.decide._bounds`: the identity, agreement, bound, probability and ordering templates:
outcomes, margins, detection statements, exact output and bad-input errors."""
import math
from types import SimpleNamespace

import numpy as np
import pytest
from scipy import stats

from fedtheory import decide
from fedtheory.claims import HOLDS, REFUTED, check_return

LEVEL = decide.LEVEL


def est(mean, se, n=100):
    return SimpleNamespace(mean=mean, se=se, n=n)


def valid(out):
    """Every template's return passes the verdict contract."""
    return check_return(out)


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


@pytest.mark.parametrize("n,df", [(None, None), ("many", None), (1, None), (math.inf, None), (2, 1), (3, 2),
                                  (12.0, 11)])
def test_replications_set_the_degrees_of_freedom_of_agreement(n, df):
    # a scalar agreement reports its interval mean +- crit * se: read the critical value off it
    v = decide.agreement(SimpleNamespace(mean=0.0, se=1.0, n=n), 0.0, what="df")
    crit = stats.norm.isf(LEVEL / 2) if df is None else stats.t.isf(LEVEL / 2, df)
    assert v["observed"]["ci"] == pytest.approx([-crit, crit])


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
