"""Tests of :mod:`fedtheory.claims`: the seven outcomes and their legacy names, the Verdict object and its text, the
verdict contract and its errors, ``Claim.evaluate`` (mode, seed, timing, regime, root causes), recorded outcomes and
the exit status."""
import json
import math
import sys

import numpy as np
import pytest

from fedtheory import decide
from fedtheory.claims import (CONTRACT_RULES, DECIDED, ERRATUM, ERROR, FAILS, HOLDS, LEGACY_STATUS, NOT_RUN, REFUTED,
                              STATUSES, Claim, Verdict)
from fedtheory.ledger import LedgerRow
from fedtheory.cli import exit_status, main


def _claim(ret, **kw):
    return Claim(id="toy.eq1.x", reference="Eq. (1)", statement="s", func=lambda full, seed: ret, **kw)


def _raises(exc):
    def f(full, seed):
        raise exc
    return Claim(id="toy.eq2.y", reference="Eq. (2)", statement="s", func=f)


# ============================================================================ taxonomy
def test_seven_outcomes_and_their_legacy_names():
    assert STATUSES == ("holds", "erratum", "refuted", "not-reproduced", "vacuous", "inconclusive", "not-run", "error")
    assert set(LEGACY_STATUS) == set(STATUSES)
    assert LEGACY_STATUS["erratum"] == "erratum-confirmed" and LEGACY_STATUS["refuted"] == "fails"
    assert set(LEGACY_STATUS.values()) <= {"holds", "fails", "erratum-confirmed", "inconclusive", "error"}
    v = _claim(dict(status="fails", observed=2, bound=1)).evaluate()  # former names still read for one release
    assert v.status == REFUTED and v.to_dict()["legacy_status"] == "fails"
    v = _claim(dict(status="erratum-confirmed", observed=2, bound=1, referee="r")).evaluate()
    assert v.status == ERRATUM and v.to_dict()["legacy_status"] == "erratum-confirmed"


def test_verdict_fields_round_trip_and_summary():
    v = _claim(decide.bound(0.5, 1.0, what="b"), regime="d >= 2k").evaluate(expected="holds")
    d = v.to_dict()
    assert d["margin"]["value"] == 0.5 and d["detects"]["factor"] == 2.0 and d["kind"] == "paper"
    assert d["expected"] == "holds" and not v.regression and v.regime == "d >= 2k"
    json.dumps(d, allow_nan=False)
    s = v.summary()
    assert "margin   : observed/bound 0.5" in s and "detects  : a change of the constant by a factor 2" in s
    v = _claim(decide.bound(0.5, 1.0, what="b")).evaluate(expected="refuted")
    assert v.regression and "regression" in v.summary()
    with pytest.raises(ValueError, match="`status`"):
        Verdict(id="a", paper="a", reference="r", statement="s", status="wrong", observed=1, bound=1)
    with pytest.raises(ValueError, match="`kind`"):
        Verdict(id="a", paper="a", reference="r", statement="s", status="holds", observed=1, bound=1, kind="x")
    with pytest.raises(ValueError, match="`kind`"):
        _claim({}, kind="theorem")


def test_consistency_kind_and_root_cause_defaults():
    c = _claim(decide.identity(1.0, 1.0, what="x"), kind="consistency")
    v = c.evaluate()
    assert v.kind == "consistency" and "[consistency check]" in str(v)
    v = _claim(decide.bound(2.0, 1.0, what="x"), root_cause="sign-slip").evaluate()
    assert v.status == REFUTED and v.root_cause == "sign-slip"
    v = _claim(decide.bound(2.0, 1.0, what="x")).evaluate()  # none named: the claim is its own root cause
    assert v.root_cause == "toy.eq1.x"
    v = _claim(decide.bound(2.0, 1.0, what="x", root_cause="from-func"), root_cause="static").evaluate()
    assert v.root_cause == "from-func"
    v = _claim(decide.ordering([2, 3.0] * 20, [1, 2.0] * 20, what="fig", empirical=True, analogue="linear"),
               analogue="static").evaluate()
    assert v.status == "not-reproduced" and v.analogue == "linear"
    v = _claim(decide.bound(0.5, 1.0, what="x"), root_cause="r").evaluate()
    assert v.root_cause == ""  # a claim that holds names no slip


# ============================================================================ the verdict contract
BAD_RETURNS = [
    ("return-type", ["holds", 1, 1]),
    ("return-type", None),
    ("required-keys", dict(status="holds", bound=1.0)),
    ("required-keys", dict(observed=1.0, bound=1.0)),
    ("known-keys", dict(status="holds", observed=1.0, bound=1.0, extra=3)),
    ("known-status", dict(status="passes", observed=1.0, bound=1.0)),
    ("known-status", dict(status="error", observed=1.0, bound=1.0)),
    ("known-status", dict(status=1, observed=1.0, bound=1.0)),
    ("finite-numbers", dict(status="holds", observed=math.nan, bound=1.0)),
    ("finite-numbers", dict(status="holds", observed=1.0, bound=math.inf)),
    ("finite-numbers", dict(status="refuted", observed={"a": [1.0, np.nan]}, bound=1.0)),
    ("finite-numbers", dict(status="vacuous", observed=np.array([1.0, np.inf]), bound=1.0, root_cause="x")),
    ("json", dict(status="holds", observed=object(), bound=1.0)),
    ("json", dict(status="holds", observed={1, 2}, bound=1.0)),
    ("json", dict(status="holds", observed=1.0, bound=1.0, evidence=3)),
    ("power", dict(status="inconclusive", observed=1.0, bound=1.0)),
    ("power", dict(status="inconclusive", observed=1.0, bound=1.0, power={"statement": "more runs"})),
    ("referee", dict(status="erratum", observed=1.0, bound=1.0)),
    ("analogue", dict(status="not-reproduced", observed=1.0, bound=1.0)),
]


@pytest.mark.parametrize("rule,ret", BAD_RETURNS, ids=[f"{r}-{i}" for i, (r, _) in enumerate(BAD_RETURNS)])
def test_contract_violations_become_errors_naming_claim_and_rule(rule, ret):
    v = _claim(ret).evaluate()
    assert v.status == ERROR and v.observed is None
    assert v.evidence.startswith("claim toy.eq1.x: ") and f"rule {rule!r}" in v.evidence
    assert CONTRACT_RULES[rule] in v.evidence


def test_contract_allows_what_is_documented():
    # an inconclusive with NaN (undecided) and a failing printed form that is infinite are allowed
    assert _claim(dict(status="inconclusive", observed=math.nan, bound=1.0,
                       power={"needed": 3})).evaluate().status == "inconclusive"
    v = _claim(dict(status="erratum", observed={"printed": math.inf, "corrected": 1.0}, bound=2.0,
                    referee="exact run")).evaluate()
    assert v.status == ERRATUM
    assert _claim(dict(status="holds", observed=np.float32(1.0), bound=np.arange(3))).evaluate().status == HOLDS


def test_system_exit_becomes_an_error_and_keyboard_interrupt_interrupts():
    for code in (0, 1, "bye"):
        v = _raises(SystemExit(code)).evaluate()
        assert v.status == ERROR and "rule 'system-exit'" in v.evidence and repr(code) in v.evidence
    v = _raises(ZeroDivisionError("boom")).evaluate()
    assert v.status == ERROR and "ZeroDivisionError: boom" in v.evidence and "claim toy.eq2.y" in v.evidence
    with pytest.raises(KeyboardInterrupt):
        _raises(KeyboardInterrupt()).evaluate()
    with pytest.raises(TypeError, match="`full`"):
        _claim({}).evaluate(full="no")


# ============================================================================ verify: exit status and misbehaving plugins
def _verdict(status, expected=None, **kw):
    extra = dict(power={"needed": 2}) if status == "inconclusive" else {}
    return Verdict(id="p.x", paper="p", reference="r", statement="s", status=status, observed=1, bound=1,
                   expected=expected, **extra, **kw)


def test_exit_status_rule():
    # a paper that is wrong as recorded does not fail the run; a regression or an error does
    assert exit_status([_verdict("refuted", "refuted"), _verdict("vacuous", "vacuous")]) == 0
    assert exit_status([_verdict("holds", "refuted")]) == 1
    assert exit_status([_verdict("refuted", "holds")]) == 1
    assert exit_status([_verdict("error", "error")]) == 1
    # no recorded outcome: today's rule (refuted or error -> 1)
    assert exit_status([_verdict("refuted")]) == 1
    assert exit_status([_verdict(s) for s in ("holds", "erratum", "inconclusive", "vacuous")]) == 0


def _misbehaving_paper():
    from fedtheory import Paper

    paper = Paper(key="zzbad", title="Misbehaving claims", authors=["A. Author"], year=2025, venue="arXiv")
    returns = {
        "nan-holds": lambda: dict(status="holds", observed=float("nan"), bound=1.0),
        "inf-holds": lambda: dict(status="holds", observed=float("inf"), bound=1.0),
        "exits": lambda: sys.exit(0),
        "no-observed": lambda: dict(status="holds", bound=1.0),
        "extra-key": lambda: dict(status="holds", observed=1.0, bound=1.0, confidence=0.99),
        "good": lambda: decide.bound(0.5, 1.0, what="fine"),
    }
    for name, f in returns.items():
        paper.claim(f"zzbad.{name}", "Eq. (1)", name)(lambda full, seed, f=f: f())
    return paper


@pytest.fixture
def bad_paper():
    from fedtheory import register_paper, unregister_paper

    paper = register_paper(_misbehaving_paper())
    yield paper
    unregister_paper(paper.key)


def test_verify_reports_each_misbehaving_claim_as_an_error_and_runs_the_rest(bad_paper, capsys, tmp_path):
    out_json = tmp_path / "v.json"
    code = main(["verify", "--paper", "zzbad", "--no-cache", "--json", str(out_json)])
    out = capsys.readouterr().out
    assert code == 1
    assert "summary: 1 holds, 5 error" in out
    verdicts = {v["id"]: v for v in json.loads(out_json.read_text())["verdicts"]}
    assert verdicts["zzbad.good"]["status"] == "holds"
    rules = {"nan-holds": "finite-numbers", "inf-holds": "finite-numbers", "exits": "system-exit",
             "no-observed": "required-keys", "extra-key": "known-keys"}
    for name, rule in rules.items():
        v = verdicts[f"zzbad.{name}"]
        assert v["status"] == "error" and f"claim zzbad.{name}" in v["evidence"] and f"'{rule}'" in v["evidence"]


def test_report_and_findings_survive_a_misbehaving_claim(bad_paper, tmp_path):
    from fedtheory.report import collect_verdicts

    verdicts, source = collect_verdicts([bad_paper], full=False, seed=None)
    assert [v.status for v in verdicts].count("error") == 5 and source["fresh"] == 6


def test_recorded_outcomes_drive_the_exit_status(bad_paper, capsys):
    from fedtheory import Paper, register_paper, unregister_paper

    paper = Paper(key="zzrec", title="Recorded", authors=["A. Author"], year=2025, venue="arXiv")
    paper.claim("zzrec.thm1.wrong", "Theorem 1", "a bound the paper gets wrong")(
        lambda full, seed: decide.bound(2.0, 1.0, what="ratio", root_cause="slip"))
    paper.root_cause("slip", "Theorem 1 drops a factor 2", kind="typo")
    register_paper(paper)
    try:
        assert main(["verify", "--paper", "zzrec", "--no-cache"]) == 1  # refuted, nothing recorded
        paper.set_expected_outcomes({"zzrec.thm1.wrong": "refuted"})
        assert main(["verify", "--paper", "zzrec", "--no-cache"]) == 0  # refuted as recorded
        paper.set_expected_outcomes({"zzrec.thm1.wrong": "holds"})
        assert main(["verify", "--paper", "zzrec", "--no-cache"]) == 1  # regression
        out = capsys.readouterr().out
        assert "regression: zzrec.thm1.wrong is refuted, recorded holds" in out
        assert paper.root_causes()["slip"].title == "Theorem 1 drops a factor 2"
    finally:
        unregister_paper("zzrec")


def test_recorded_outcomes_are_validated(tmp_path):
    from fedtheory import Paper

    paper = Paper(key="zzval", title="Validated", authors=["A. Author"], year=2025, venue="arXiv")
    paper.claim("zzval.eq1.a", "Eq. (1)", "a")(lambda full, seed: decide.bound(0.5, 1.0, what="a"))
    paper.set_expected_outcomes({"zzval.eq1.missing": "holds"})
    with pytest.raises(ValueError, match="unknown claim 'zzval.eq1.missing'"):
        paper.expected_outcomes()
    paper.set_expected_outcomes({"zzval.eq1.a": "fails"})
    with pytest.raises(ValueError, match="recorded outcome"):
        paper.expected_outcomes()
    paper.set_expected_outcomes({"zzval.eq1.a": {"slow": "holds"}})
    with pytest.raises(ValueError, match="modes are quick/full"):
        paper.expected_outcomes()
    csv = tmp_path / "outcomes.csv"
    csv.write_text("# recorded outcomes\nclaim,quick,full\nzzval.eq1.a,holds,\n")
    paper.set_expected_outcomes(str(csv))
    assert paper.expected("zzval.eq1.a", False) == "holds" and paper.expected("zzval.eq1.a", True) is None
    csv.write_text("claim,fast,full\n")
    paper.set_expected_outcomes(str(csv))
    with pytest.raises(ValueError, match="header claim,quick,full"):
        paper.expected_outcomes()
    csv.write_text("claim,quick,full\nzzval.eq1.a,holds,holds\nzzval.eq1.a,holds,holds\n")
    paper.set_expected_outcomes(str(csv))
    with pytest.raises(ValueError, match="recorded twice"):
        paper.expected_outcomes()
    with pytest.raises(ValueError, match="root cause `id`"):
        paper.root_cause("Bad Id", "t")
    with pytest.raises(ValueError, match="`kind`"):
        paper.root_cause("ok", "t", kind="oops")
    paper.root_cause("ok", "t")
    with pytest.raises(ValueError, match="registered twice"):
        paper.root_cause("ok", "another title")


def test_decided_outcomes_constant():
    assert set(DECIDED) == set(STATUSES) - {"inconclusive", "not-run", "error"}


def test_a_tampered_verdict_cache_entry_is_recomputed_and_counted(tmp_path):
    import glob

    from fedtheory import Paper, register_paper, unregister_paper
    from fedtheory.cache import _CACHE, configure_cache
    from fedtheory.report import collect_verdicts

    paper = Paper(key="zztamper", title="Tamper", authors=["A. Author"], year=2025, venue="arXiv")
    paper.claim("zztamper.thm1.a", "Theorem 1", "a")(lambda full, seed: decide.bound(2.0, 1.0, what="a"))
    register_paper(paper)
    saved = _CACHE.get("cache")
    configure_cache(str(tmp_path / "cache"))
    try:
        v1, src = collect_verdicts([paper], full=False, seed=None)
        assert v1[0].status == REFUTED and src == {"cache": 0, "fresh": 1, "tampered": 0}
        v2, src = collect_verdicts([paper], full=False, seed=None)
        assert v2[0].status == REFUTED and src["cache"] == 1
        (entry,) = glob.glob(str(tmp_path / "cache" / "verdicts" / "*.json"))
        rec = json.loads(open(entry).read())
        rec["verdict"]["status"] = "holds"  # edited by hand
        open(entry, "w").write(json.dumps(rec))
        v3, src = collect_verdicts([paper], full=False, seed=None)
        assert v3[0].status == REFUTED and src == {"cache": 0, "fresh": 1, "tampered": 1}
    finally:
        _CACHE["cache"] = saved
        unregister_paper("zztamper")


# ============================================================================ JSON conversion, rendering, contract details
def test_to_jsonable_converts_numpy_values_and_non_finite_numbers():
    from fedtheory.claims import to_jsonable

    x = {1: (np.int64(3), np.float32(0.5), np.bool_(True)), "a": np.array([[1.0, np.nan], [np.inf, -np.inf]]),
         "s": "txt", "n": None, "f": float("-inf"), "g": math.inf, "h": np.float64(-2.5), "i": 7}
    out = to_jsonable(x)
    assert out == {"1": [3, 0.5, True], "a": [[1.0, None], ["inf", "-inf"]], "s": "txt", "n": None, "f": "-inf",
                   "g": "inf", "h": -2.5, "i": 7}
    assert [type(v) for v in out["1"]] == [int, float, bool] and type(out["h"]) is float
    assert json.loads(json.dumps(out, allow_nan=False)) == out
    assert to_jsonable(np.float64(np.nan)) is None and to_jsonable(np.inf) == "inf"
    assert to_jsonable(np.array([np.inf, -np.inf, 1])) == ["inf", "-inf", 1.0]
    thing = object()
    assert to_jsonable(thing) is thing


def _full_verdict(**kw):
    base = dict(id="p.eq1.a", paper="p", reference="Eq. (1)", statement="s", status="holds", observed=1, bound=1)
    base.update(kw)
    return Verdict(**base)


def test_verdict_to_dict_lists_every_field_as_json():
    v = _full_verdict(status="vacuous", observed=np.float64(0.5), bound=(1, np.inf), evidence="e",
                      params={"n": np.int64(3)}, seed=7, mode="full", seconds=1.23456, regime="r", referee="f",
                      margin={"kind": "ratio"}, detects={"factor": 2.0}, root_cause="rc", expected="vacuous",
                      printed=np.nan, corrected=[1.0])
    expected = {"id": "p.eq1.a", "paper": "p", "reference": "Eq. (1)", "statement": "s", "status": "vacuous",
                "legacy_status": "fails", "observed": 0.5, "bound": [1, "inf"], "evidence": "e", "params": {"n": 3},
                "seed": 7, "mode": "full", "seconds": 1.235, "regime": "r", "referee": "f",
                "margin": {"kind": "ratio"}, "detects": {"factor": 2.0}, "power": None, "root_cause": "rc",
                "analogue": "", "kind": "paper", "expected": "vacuous", "printed": None, "corrected": [1.0]}
    assert v.to_dict() == expected
    assert json.loads(json.dumps(v.to_dict(), allow_nan=False)) == expected
    assert not v.regression and v.ok


def test_verdict_properties_legacy_names_ok_and_unpacking():
    legacy = {"holds": "holds", "erratum": "erratum-confirmed", "refuted": "fails", "not-reproduced": "fails",
              "vacuous": "fails", "inconclusive": "inconclusive", "error": "error"}
    for status, old in legacy.items():
        v = _full_verdict(status=status)
        assert v.legacy_status == old and v.ok == (status not in ("refuted", "error"))
        assert not v.regression  # nothing recorded
    assert _full_verdict(status="fails").status == "refuted"  # former names are read as the new outcome
    assert _full_verdict(status="erratum-confirmed").status == "erratum"
    assert _full_verdict(expected="holds").regression is False
    assert _full_verdict(expected="vacuous").regression is True
    observed, bound = _full_verdict(observed=[1, 2], bound="b")
    assert observed == [1, 2] and bound == "b"
    assert repr(_full_verdict(observed=np.float64(0.5), bound=(1, np.inf))) == (
        "Verdict(id='p.eq1.a', status='holds', observed=0.5, bound=[1, inf])")


def test_verdict_rejects_unknown_status_or_kind_with_the_choices():
    import re

    with pytest.raises(ValueError, match=re.escape(
            "`status` must be one of: holds, erratum, refuted, not-reproduced, vacuous, inconclusive, not-run, error; "
            "got 'wrong'")):
        _full_verdict(status="wrong")
    with pytest.raises(ValueError, match=re.escape("`kind` must be one of: paper, consistency; got 'x'")):
        _full_verdict(kind="x")
    with pytest.raises(ValueError, match=re.escape(
            "claim 'toy.eq1.x': `kind` must be one of paper, consistency; got 'theorem'")):
        _claim({}, kind="theorem")


def test_verdict_text_shows_every_section():
    v = _full_verdict(status="refuted", observed=[1.0, 2, "abcdefghijklmnop", 0.123456789, 5.0],
                      bound={"c": 2.5, "name": "x" * 20}, evidence="ev",
                      margin={"kind": "ratio", "value": "v" * 34, "ci": [0.25, "w" * 35], "tightness": "tight"},
                      detects={"factor": 2.0}, power={"needed": 40}, regime="d >= 2", referee="exact",
                      root_cause="slip", analogue="lin", kind="consistency", expected="holds")
    expected = "\n".join([
        "[refuted] p.eq1.a (Eq. (1)) [consistency check]",
        "  computed : [1, 2, abcdefg..., 0.1235, ...]",
        "  theory   : c=2.5, name=xxxxxxxxx...",
        "  evidence : ev",
        "  margin   : ratio " + "v" * 34 + " [0.25, " + "w" * 31 + "...] (tight)",
        "  detects  : a change of the claim by a factor 2",
        "  power    : needed=40",
        "  regime   : d >= 2",
        "  referee  : exact",
        "  root cause: slip",
        "  analogue : lin",
        "  expected : holds (recorded outcome differs: regression)",
    ])
    assert str(v) == expected and v.summary() == expected


def test_verdict_text_of_a_plain_verdict_and_long_values():
    v = _full_verdict(observed=3, bound=None, expected="holds", margin={"kind": "ratio", "value": 0.5},
                      detects={"factor": None, "of": "constant"},
                      power={"needed": 4, "statement": "4 runs would decide"})
    assert str(v) == ("[holds] p.eq1.a (Eq. (1))\n  computed : 3\n  theory   : None\n  evidence : \n"
                      "  margin   : ratio 0.5\n  power    : 4 runs would decide")
    v = _full_verdict(observed="o" * 200, bound="b" * 201, power={"needed": 4, "statement": ""},
                      margin={"kind": "rate", "value": -0.25, "ci": [-0.5, 0.0], "tightness": ""})
    assert str(v) == ("[holds] p.eq1.a (Eq. (1))\n  computed : " + "o" * 200 + "\n  theory   : " + "b" * 197
                      + "...\n  evidence : \n  margin   : rate -0.25 [-0.5, 0]\n  power    : needed=4, statement=")
    v = _full_verdict(observed=(1, 2, 3, 4), bound=[], detects={"factor": 3, "of": "exponent"})
    assert str(v) == ("[holds] p.eq1.a (Eq. (1))\n  computed : [1, 2, 3, 4]\n  theory   : []\n  evidence : \n"
                      "  detects  : a change of the exponent by a factor 3")
    v = _full_verdict(power={"needed": 40, "unit": "runs per method", "current": 10})
    assert str(v).endswith("\n  power    : needed=40, unit=runs per ..., current=10")
    v = _full_verdict(observed="o" * 201, bound="b" * 200, power={"k" * 199: 1})  # 201 characters each
    assert str(v) == ("[holds] p.eq1.a (Eq. (1))\n  computed : " + "o" * 197 + "...\n  theory   : " + "b" * 200
                      + "\n  evidence : \n  power    : " + "k" * 197 + "...")


@pytest.mark.parametrize("factor,shown", [(1.005, "1 + 0.005"), (np.float64(1.0004), "1 + 0.0004"), (1.01, "1.01"),
                                          (1.0, "1"), (1, "1"), (2, "2"), (0.995, "0.995"), ("x", "x")])
def test_verdict_text_shows_a_detection_factor_near_one_as_an_increment(factor, shown):
    v = _full_verdict(detects={"factor": factor, "of": "constant"})
    assert str(v).splitlines()[-1] == f"  detects  : a change of the constant by a factor {shown}"


def _contract_error(ret):
    from fedtheory.claims import ContractError, check_return

    with pytest.raises(ContractError) as info:
        check_return(ret)
    return info.value.rule, str(info.value)


def test_contract_errors_say_what_is_wrong():
    assert _contract_error([1]) == ("return-type", "verdict contract rule 'return-type' broken: got list")
    assert _contract_error(dict(bound=1)) == ("required-keys",
                                              "verdict contract rule 'required-keys' broken: missing status, observed")
    assert _contract_error(dict(status="holds", observed=1, bound=1, zeta=1, alpha=2)) == (
        "known-keys", "verdict contract rule 'known-keys' broken: unknown key(s) alpha, zeta")
    assert _contract_error(dict(status="passes", observed=1, bound=1)) == (
        "known-status", "verdict contract rule 'known-status' broken: got 'passes'")
    rule, msg = _contract_error(dict(status="holds", observed={1, 2}, bound=1))
    assert rule == "json" and msg.endswith("broken: Object of type set is not JSON serializable")
    assert _contract_error(dict(status="inconclusive", observed=1, bound=1, power=["needed"])) == (
        "power", "verdict contract rule 'power' broken: an inconclusive verdict without a computed power statement")
    assert _contract_error(dict(status="erratum", observed=1, bound=1, referee="  ")) == (
        "referee", "verdict contract rule 'referee' broken: an erratum without a named referee")
    assert _contract_error(dict(status="not-reproduced", observed=1, bound=1, analogue=" ")) == (
        "analogue", "verdict contract rule 'analogue' broken: a not-reproduced verdict without its linear analogue")
    for key in ("evidence", "referee", "regime", "root_cause", "analogue"):
        assert _contract_error(dict(status="holds", observed=1, bound=1, **{key: 5})) == (
            "json", f"verdict contract rule 'json' broken: `{key}` must be a string; got int")


@pytest.mark.parametrize("observed,where", [
    (math.nan, "value"),
    ([1.0, [2.0, math.inf]], "[1][1]"),
    ({"a": {"b": [1.0, math.nan]}}, "a.b[1]"),
    ([{"x": -math.inf}], "[0].x"),
    ({1: math.nan}, "1"),
    ({"a": np.array([1.0, np.nan])}, "a"),
    (np.array([1.0, None, np.inf], dtype=object), "[2]"),
    ({"printed": 1.0, "c": np.array([[0j, complex(np.inf, 0)]])}, "c"),
    (np.float32(np.inf), "value"),
    (np.array([[1.0], [np.inf]]), "value"),
    ({"a": np.array([1.0, np.inf], dtype=object)}, "a[1]"),
    (complex(0, np.nan), "value"),
])
def test_contract_names_the_path_of_a_non_finite_number(observed, where):
    assert _contract_error(dict(status="holds", observed=observed, bound=1.0)) == (
        "finite-numbers", f"verdict contract rule 'finite-numbers' broken: 'holds' with a non-finite number in "
                          f"observed ({where})")
    assert _contract_error(dict(status="refuted", observed=1.0, bound=observed)) == (
        "finite-numbers", f"verdict contract rule 'finite-numbers' broken: 'refuted' with a non-finite number in "
                          f"bound ({where})")


def test_contract_accepts_finite_values_and_printed_forms_and_returns_a_normalised_copy():
    from fedtheory.claims import check_return

    ok = [np.arange(3), np.array([True, False]), np.array([1, None], dtype=object), {"printed": math.inf},
          {"printed_form": math.nan, "corrected": 1.0}, [1, "x", None, True], (0.5, np.float64(2.0))]
    for value in ok:
        check_return(dict(status="holds", observed=value, bound=value))
    ret = dict(status="fails", observed=np.array([1.0, 2.0]), bound=1.0, evidence=None)
    out = check_return(ret)
    assert out is not ret and ret["status"] == "fails" and out["status"] == "refuted"
    assert isinstance(out["observed"], np.ndarray) and out["evidence"] is None
    assert check_return(dict(status="erratum-confirmed", observed=1, bound=1, referee="r"))["status"] == "erratum"
    # undecided outcomes may carry non-finite numbers
    out = check_return(dict(status="inconclusive", observed=math.inf, bound=-math.inf, power={"needed": 3}))
    assert out["observed"] == math.inf and out["bound"] == -math.inf


def test_evaluate_passes_mode_and_seed_and_records_them():
    calls = []

    def f(full, seed):
        calls.append((type(full), full, seed))
        return dict(status="holds", observed=1.0, bound=1.0)

    c = Claim(id="toy.eq3.z", reference="Eq. (3)", statement="st", func=f, default_seed=11)
    assert c.paper == "toy"
    assert Claim(id="toy.eq3.z", reference="r", statement="s", func=f, paper="other").paper == "other"
    v = c.evaluate()
    assert (v.mode, v.seed, v.id, v.paper, v.reference, v.statement) == ("quick", 11, "toy.eq3.z", "toy", "Eq. (3)",
                                                                         "st")
    v = c.evaluate(np.bool_(True), seed=5, expected="refuted")
    assert (v.mode, v.seed, v.expected, v.regression) == ("full", 5, "refuted", True)
    assert c.evaluate(seed=0).seed == 0  # an explicit seed 0 is not the default
    assert calls == [(bool, False, 11), (bool, True, 5), (bool, False, 0)]
    assert c.evaluate(full=True).to_dict()["mode"] == "full"
    with pytest.raises(TypeError, match="`full` must be a bool; got int"):
        c.evaluate(full=1)


def test_evaluate_times_the_computation():
    import time

    inner = []

    def f(full, seed):
        t = time.perf_counter()
        time.sleep(0.002)
        inner.append(time.perf_counter() - t)
        return dict(status="holds", observed=1.0, bound=1.0)

    t0 = time.perf_counter()
    v = Claim(id="toy.eq5.t", reference="r", statement="s", func=f).evaluate()
    elapsed = time.perf_counter() - t0
    assert 0.002 <= inner[0] <= v.seconds <= elapsed


def test_evaluate_joins_the_claim_regime_with_the_run_regime():
    ret = dict(status="holds", observed=1.0, bound=1.0, regime="n = 40")
    assert _claim(ret, regime="d >= 2").evaluate().regime == "d >= 2; n = 40"
    assert _claim(ret).evaluate().regime == "n = 40"
    assert _claim(dict(ret, regime=None), regime="d >= 2").evaluate().regime == "d >= 2"
    assert _claim(dict(status="holds", observed=1.0, bound=1.0)).evaluate().regime == ""


def test_evaluate_reads_missing_texts_as_empty():
    v = _claim(dict(status="holds", observed=1.0, bound=1.0, evidence=None, referee=None, root_cause=None,
                    analogue=None)).evaluate()
    assert (v.evidence, v.referee, v.root_cause, v.analogue) == ("", "", "", "")
    assert v.to_dict()["evidence"] == "" and v.to_dict()["referee"] == ""


def test_evaluate_root_cause_defaults_per_outcome():
    vac = dict(status="vacuous", observed=1.0, bound=1.0)
    assert _claim(vac).evaluate().root_cause == ""  # a vacuous claim is not its own slip
    assert _claim(vac, root_cause="empty-regime").evaluate().root_cause == "empty-regime"
    err = dict(status="erratum", observed=1.0, bound=1.0, referee="exact run")
    assert _claim(err).evaluate().root_cause == "toy.eq1.x"
    assert _claim(dict(err, root_cause=None), root_cause="typo").evaluate().root_cause == "typo"
    assert _claim(dict(status="inconclusive", observed=1.0, bound=1.0, power={"needed": 9}),
                  root_cause="typo").evaluate().root_cause == ""


def test_a_not_reproduced_verdict_takes_the_claims_analogue_when_its_function_names_none():
    nr = dict(status="not-reproduced", observed=1.0, bound=2.0)
    for ret in (nr, dict(nr, analogue=None), dict(nr, analogue="")):
        v = _claim(ret, analogue="linear model, d = 20").evaluate()
        assert v.status == "not-reproduced" and v.analogue == "linear model, d = 20"
        assert v.to_dict()["analogue"] == "linear model, d = 20"
        v = _claim(ret).evaluate()  # named nowhere: the contract's rule
        assert v.status == ERROR and "rule 'analogue'" in v.evidence
    v = _claim(dict(nr, analogue="own"), analogue="static").evaluate()
    assert v.analogue == "own"
    v = _claim(dict(nr, analogue="  "), analogue="static").evaluate()  # a blank name is not a name
    assert v.status == ERROR and "rule 'analogue'" in v.evidence
    v = _claim(dict(nr, analogue=5), analogue="static").evaluate()
    assert v.status == ERROR and "rule 'json'" in v.evidence and "`analogue` must be a string" in v.evidence
    v = _claim(dict(status=np.array([1, 2]), observed=1.0, bound=1.0), analogue="static").evaluate()
    assert v.status == ERROR and "rule 'known-status'" in v.evidence


def _explode():
    raise ZeroDivisionError("boom")


def test_error_evidence_names_claim_exception_place_and_rule():
    def f(full, seed):
        _explode()

    v = Claim(id="toy.eq4.w", reference="r", statement="s", func=f).evaluate()
    line = _explode.__code__.co_firstlineno + 1
    assert v.evidence == (f"claim toy.eq4.w: ZeroDivisionError: boom (at test_claims.py:{line} in _explode); "
                          f"verdict contract rule 'exception'")
    assert (v.status, v.observed, v.bound, v.root_cause) == (ERROR, None, None, "")
    ns = {}
    exec(compile("def g(full, seed):\n    raise KeyError('k')\n", "<generated>", "exec"), ns)  # no directory
    v = Claim(id="toy.eq4.w", reference="r", statement="s", func=ns["g"]).evaluate()
    assert v.evidence == "claim toy.eq4.w: KeyError: 'k' (at <generated>:2 in g); verdict contract rule 'exception'"
    v = _raises(SystemExit(3)).evaluate()
    assert v.evidence == ("claim toy.eq2.y: verdict contract rule 'system-exit' broken: the claim called "
                          "sys.exit(3) (a claim does not exit the interpreter)")
    v = _claim(dict(status="erratum", observed=1.0, bound=1.0)).evaluate()
    assert v.evidence == ("claim toy.eq1.x: verdict contract rule 'referee' broken: an erratum without a named "
                          "referee (an erratum names the independent referee that decided it)")


def test_dump_json_writes_the_header_and_the_verdicts(tmp_path):
    from fedtheory.claims import dump_json

    v = _full_verdict(observed=np.float64(0.5), bound=np.inf)
    path = tmp_path / "v.json"
    dump_json([v], str(path))
    assert json.loads(path.read_text()) == {"verdicts": [v.to_dict()]}
    assert json.loads(path.read_text())["verdicts"][0]["bound"] == "inf"
    dump_json([v, v], str(path), header={"tool": "fedtheory", "n": np.int64(2)})
    assert json.loads(path.read_text()) == {"tool": "fedtheory", "n": 2, "verdicts": [v.to_dict(), v.to_dict()]}
    dump_json([], str(path), header={"a": 1})
    assert path.read_text() == '{\n  "a": 1,\n  "verdicts": []\n}'  # indented two spaces


def test_verdict_object():
    v = Verdict(id="fedrep.x", paper="fedrep", reference="r", statement="s", status=HOLDS,
                observed=np.float64(0.5), bound=1.0)
    observed, bound = v
    assert observed == 0.5 and bound == 1.0
    assert v.to_dict()["observed"] == 0.5
    assert "[holds]" in v.summary() and v.ok
    with pytest.raises(ValueError, match="status"):
        Verdict(id="a", paper="p", reference="r", statement="s", status="maybe", observed=0, bound=0)
    assert not Verdict(id="a", paper="p", reference="r", statement="s", status=FAILS,
                       observed=0, bound=0).ok
    assert Verdict(id="a", paper="p", reference="r", statement="s", status=ERRATUM,
                   observed=0, bound=0).ok


# ----------------------------------------------------------------------------- full mode only
def _slow_paper(key="zzslow"):
    from fedtheory import Paper

    paper = Paper(key=key, title="Slow", authors=["A. Author"], year=2025, venue="arXiv")
    calls = []

    def slow(full, seed):
        calls.append(full)
        return decide.bound(0.5, 1.0, what="slow ratio")

    paper.claim(f"{key}.thm1.slow", "Theorem 1", "a slow claim", full_only=42.0)(slow)
    paper.claim(f"{key}.eq1.fast", "Eq. (1)", "a fast claim")(lambda full, seed: decide.bound(0.5, 1.0, what="r"))
    paper.set_ledger([LedgerRow("Theorem 1", "theorem", "slow", "checked", claims=(f"{key}.thm1.slow",)),
                      LedgerRow("Eq. (1)", "equation", "fast", "checked", claims=(f"{key}.eq1.fast",))])
    return paper, calls


def test_a_full_mode_only_claim_is_not_run_in_quick_mode_and_states_its_cost():
    paper, calls = _slow_paper()
    claim = paper.get_claim("zzslow.thm1.slow")
    v = claim.evaluate(full=False)
    assert calls == [] and v.status == NOT_RUN and v.mode == "quick"
    assert "full mode only" in v.evidence and "about 42 s on one core" in v.evidence
    assert "fedtheory verify --full --claim zzslow.thm1.slow" in v.evidence
    assert v.params == {"full_cost_s": 42.0} and v.observed is None and v.ok and not v.regression
    assert v.legacy_status == "inconclusive" and NOT_RUN not in DECIDED
    v = claim.evaluate(full=True)
    assert calls == [True] and v.status == HOLDS and v.mode == "full"


@pytest.mark.parametrize("bad, exc, match", [
    ("60", TypeError, "`full_only` must be None or a number of seconds; got str"),
    (True, TypeError, "got bool"),
    (0, ValueError, r"finite number of seconds > 0 .*got 0"),
    (-5.0, ValueError, "got -5.0"),
    (float("nan"), ValueError, "got nan"),
    (float("inf"), ValueError, "got inf"),
])
def test_full_only_is_validated_naming_the_parameter(bad, exc, match):
    from fedtheory import Paper
    from fedtheory.claims import Claim

    with pytest.raises(exc, match=match):
        Claim(id="zz.a.b", reference="r", statement="s", func=lambda full, seed: {}, full_only=bad)
    paper = Paper(key="zzfo", title="T", authors=["A. Author"], year=2025, venue="arXiv")
    with pytest.raises(exc, match=match):
        paper.claim("zzfo.a.b", "r", "s", full_only=bad)


def test_a_claim_function_cannot_return_not_run():
    from fedtheory.claims import Claim

    v = Claim(id="zz.a.b", reference="r", statement="s",
              func=lambda full, seed: dict(status=NOT_RUN, observed=None, bound=None)).evaluate()
    assert v.status == ERROR and "'known-status'" in v.evidence and "not-run" not in CONTRACT_RULES["known-status"]


def test_not_run_is_recorded_only_as_the_quick_outcome_of_a_full_mode_only_claim():
    paper, _ = _slow_paper("zzslowrec")
    paper.set_expected_outcomes({"zzslowrec.thm1.slow": {"quick": "not-run", "full": "holds"},
                                 "zzslowrec.eq1.fast": "holds"})
    assert paper.expected("zzslowrec.thm1.slow", False) == "not-run"
    for bad in ({"zzslowrec.thm1.slow": {"quick": "holds"}}, {"zzslowrec.thm1.slow": {"full": "not-run"}},
                {"zzslowrec.eq1.fast": {"quick": "not-run"}}):
        paper.set_expected_outcomes(bad)
        with pytest.raises(ValueError, match="'not-run' is the quick-mode outcome of a full-mode-only claim"):
            paper.expected_outcomes()


def test_verify_lists_full_mode_only_claims_with_their_cost_and_does_not_count_them_inconclusive(capsys, tmp_path):
    from fedtheory import register_paper, unregister_paper

    paper, calls = _slow_paper("zzslowcli")
    paper.set_expected_outcomes({"zzslowcli.thm1.slow": {"quick": "not-run", "full": "holds"},
                                 "zzslowcli.eq1.fast": "holds"})
    register_paper(paper)
    try:
        out_json = tmp_path / "v.json"
        assert main(["verify", "--paper", "zzslowcli", "--no-cache", "--json", str(out_json)]) == 0
        out = capsys.readouterr().out
        assert "summary: 1 holds, 1 not-run, 0 error" in out and "inconclusive" not in out.split("summary:")[1]
        assert ("full mode only, not run in quick mode: 1 claim(s), about 42 s together in full mode on one core: "
                "zzslowcli.thm1.slow (42 s)") in out
        rec = {v["id"]: v for v in json.loads(out_json.read_text())["verdicts"]}["zzslowcli.thm1.slow"]
        assert rec["status"] == "not-run" and rec["params"] == {"full_cost_s": 42.0}
        assert calls == []
        assert main(["verify", "--paper", "zzslowcli", "--no-cache", "--full", "--workers", "1"]) == 0
        out = capsys.readouterr().out
        assert "full mode only" not in out and "summary: 2 holds, 0 error" in out and calls == [True]
        assert main(["ledger", "--paper", "zzslowcli"]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert any("zzslowcli.thm1.slow (full mode only: quick mode does not run them)" in ln for ln in lines)
        assert not any("zzslowcli.eq1.fast (full mode only" in ln for ln in lines)
    finally:
        unregister_paper("zzslowcli")


def test_findings_and_report_put_full_mode_only_claims_under_undecided(tmp_path):
    from fedtheory.findings import findings
    from fedtheory.report import _ledger_html

    paper, _ = _slow_paper("zzslowfind")
    vs = [c.evaluate(full=False) for c in paper.claims()]
    f = findings(paper, vs)
    group = next(g for g in f.section("undecided").groups if g.title.startswith("Full mode only"))
    assert [i.id for i in group.items] == ["zzslowfind.thm1.slow"]
    assert "1 full mode only (not run)" in f.summary() and "0 inconclusive" in f.summary()
    assert all(i.id != "zzslowfind.thm1.slow" for s in f.sections if s.key != "undecided"
               for g in s.groups for i in g.items)
    html = _ledger_html(paper.ledger(), {v.id for v in vs}, {v.id: v.status for v in vs}, "quick")
    assert html.count("undecided in quick mode") == 1
    assert "undecided in quick mode: zzslowfind.thm1.slow not-run (full mode only)" in html
