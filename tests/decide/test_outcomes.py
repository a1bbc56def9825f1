"""Tests of :mod:`fedtheory.decide._outcomes`: the erratum, vacuous, not-reproduced, inconclusive and combined
outcomes, their referee and exact output."""
import numpy as np
import pytest

from fedtheory import decide
from fedtheory.claims import ERRATUM, HOLDS, INCONCLUSIVE, NOT_REPRODUCED, REFUTED, VACUOUS, check_return


def valid(out):
    """Every template's return passes the verdict contract."""
    return check_return(out)


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
