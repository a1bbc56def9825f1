"""Claims and verdicts (fedtheory.claims): the outcome taxonomy, the verdict contract that every claim
function's return must meet, recorded outcomes and the exit status of ``verify``."""
from __future__ import annotations

import json
import math
import sys

import numpy as np
import pytest

from fedtheory import decide
from fedtheory.claims import (CONTRACT_RULES, DECIDED, ERRATUM, ERROR, HOLDS, LEGACY_STATUS, REFUTED, STATUSES,
                              Claim, Verdict)
from fedtheory.cli import exit_status, main


def _claim(ret, **kw):
    return Claim(id="toy.eq1.x", reference="Eq. (1)", statement="s", func=lambda full, seed: ret, **kw)


def _raises(exc):
    def f(full, seed):
        raise exc
    return Claim(id="toy.eq2.y", reference="Eq. (2)", statement="s", func=f)


# ============================================================================ taxonomy
def test_seven_outcomes_and_their_legacy_names():
    assert STATUSES == ("holds", "erratum", "refuted", "not-reproduced", "vacuous", "inconclusive", "error")
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
    assert set(DECIDED) == set(STATUSES) - {"inconclusive", "error"}


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
