"""The findings view and the census (fedtheory.findings), on synthetic verdicts of a toy paper."""
import json
import re

import pytest

from fedtheory import Paper
from fedtheory.claims import STATUSES, Verdict
from fedtheory.findings import as_verdict, census, findings, format_number, format_value, rate

KEY = "zzfind"


def _v(name, status, *, factor=None, mvalue=None, tight=None, kind="paper", **kw):
    det = None if factor is None else {"factor": factor, "of": "constant", "relative": factor - 1}
    margin = None if mvalue is None and tight is None else {"kind": "observed/bound", "value": mvalue, "ci": None,
                                                            "tightness": tight}
    base = dict(id=f"{KEY}.{name}", paper=KEY, reference=f"Eq. ({name})", statement=f"claim {name} with x_i <= 1",
                status=status, observed=kw.pop("observed", 0.5), bound=kw.pop("bound", 1.0), detects=det,
                margin=margin, kind=kind, evidence=f"evidence of {name}")
    base.update(kw)
    return Verdict(**base)


def _paper():
    paper = Paper(key=KEY, title="A toy paper for the findings", authors=["A. Author"], year=2025, venue="arXiv")
    names = ["tight", "exact", "loose", "slack", "unrated", "ref", "vac", "err1", "err2", "err3", "nrep", "inc",
             "cons", "broken"]
    for n in names:
        paper.claim(f"{KEY}.{n}", reference=f"Eq. ({n})", statement=f"claim {n}",
                    kind="consistency" if n == "cons" else "paper")(
            lambda full, seed, n=n: dict(status="holds", observed=1, bound=1))
    paper.root_cause("sigma-for-sigma2", "sigma printed where sigma^2 is meant", kind="typo",
                     detail="printed sigma, corrected sigma^2 (a factor 4 at sigma = 2)", references=["Lemma 2"])
    paper.root_cause("wrong-step", "Step (12) drops a factor 2", kind="proof", detail="the bound is off by 2")
    return paper


def _verdicts():
    return [
        _v("tight", "holds", factor=1.5, mvalue=0.67, tight="tight"),
        _v("exact", "holds", factor=1 + 1e-9, mvalue=0.1, tight="exact"),
        _v("loose", "holds", factor=5.0, mvalue=0.2, tight="loose"),
        _v("slack", "holds", factor=40.0, mvalue=0.025, tight="slack"),
        _v("unrated", "holds"),
        _v("ref", "refuted", factor=1.2, mvalue=1.37, tight="violated", root_cause="wrong-step",
           observed={"ratio": 1.3712345, "curve": list(range(30))}, bound=1.0),
        _v("vac", "vacuous", mvalue=None, tight="vacuous", root_cause="no-instance", observed=0.0, bound=0.0),
        _v("err1", "erratum", factor=2.0, root_cause="sigma-for-sigma2", referee="Monte Carlo, 1e5 draws",
           printed=0.123456789, corrected=0.4938271),
        _v("err2", "erratum", factor=3.0, root_cause="sigma-for-sigma2", referee="sympy",
           observed={"printed": 2.0, "corrected": 8.0}, bound={"printed_holds": False, "corrected_holds": True}),
        _v("err3", "erratum", factor=3.0, root_cause="wrong-step", referee="exact run", printed=1, corrected=2),
        _v("nrep", "not-reproduced", factor=2.0, analogue="linear regression, d=20, k=2"),
        _v("inc", "inconclusive", power={"needed": 4000, "unit": "replicates", "statement":
                                         "4000 replicates (now 200) would detect a 10% gap with power 0.8"}),
        _v("cons", "holds", factor=1.0, mvalue=0.0, tight="exact", kind="consistency"),
        _v("broken", "error", observed=None, bound=None, expected="holds"),
    ]


@pytest.fixture
def toy():
    return _paper()


# ----------------------------------------------------------------------------- census
def test_census_counts():
    c = census(_verdicts())
    assert c.total == 14 and c.paper_claims == 13 and c.consistency_checks == 1
    assert set(c.outcomes) == set(STATUSES)
    assert c.outcomes == {"holds": 5, "erratum": 3, "refuted": 1, "not-reproduced": 1, "vacuous": 1,
                          "inconclusive": 1, "not-run": 0, "error": 1}
    assert c.consistency_outcomes["holds"] == 1 and sum(c.consistency_outcomes.values()) == 1
    assert c.root_causes == {"wrong-step": 2, "no-instance": 1, "sigma-for-sigma2": 2}
    assert c.decided == 11  # holds 5, erratum 3, refuted, not-reproduced, vacuous
    # tight: tight, exact, ref (1.2), err1 (2.0), nrep (2.0); loose: loose, err2, err3; slack: slack
    assert (c.tight, c.loose, c.slack) == (5, 3, 1)
    assert c.tightness["unknown"] == 2  # unrated, vac
    assert c.cannot_detect_10x == 3  # slack, unrated, vac
    assert c.margins.n == 5 and c.margins.min == pytest.approx(0.025) and c.margins.max == pytest.approx(1.37)
    assert c.detection.n == 9 and c.detection.max == 40.0 and c.detection.median == pytest.approx(2.0)
    assert c.regressions == (f"{KEY}.broken",) and c.modes == ("quick",) and c.mode == "quick"
    d = json.loads(json.dumps(c.to_dict()))
    assert d["margins"]["median"] == pytest.approx(c.margins.median) and d["regressions"] == [f"{KEY}.broken"]
    assert "5 tight (within 2x), 3 loose, 1 slack; 3 of 11 decided claims cannot detect a 10x error" in c.summary()


def test_census_of_records_and_ratings():
    recs = [v.to_dict() for v in _verdicts()]
    assert census(recs).to_dict() == census(_verdicts()).to_dict()
    assert as_verdict(recs[5]).margin["value"] == pytest.approx(1.37)
    inf = _v("inf", "holds", factor=float("inf"))
    assert rate(inf) == "slack" and rate(as_verdict(inf.to_dict())) == "slack"  # JSON writes inf as "inf"
    assert census([]).mode == "no" and census([]).margins is None


# ----------------------------------------------------------------------------- findings
def test_sections_in_referee_order(toy):
    f = findings(toy, _verdicts())
    assert [s.key for s in f.sections] == ["major", "errata", "holds", "not-reproduced", "undecided"]
    major = [i.id for g in f.section("major").groups for i in g.items]
    assert major == [f"{KEY}.ref", f"{KEY}.vac"]
    nrep = f.section("not-reproduced").groups[0].items[0]
    assert nrep.id == f"{KEY}.nrep" and dict(nrep.lines)["linear analogue"] == "linear regression, d=20, k=2"
    inc = f.section("undecided").groups[0].items[0]
    assert "4000 replicates" in dict(inc.lines)["power"]
    assert [g.title for g in f.section("undecided").groups] == ["Inconclusive", "Errors"]


def test_errata_grouped_by_root_cause(toy):
    errata = findings(toy, _verdicts()).section("errata")
    assert [g.root_cause["id"] for g in errata.groups] == ["sigma-for-sigma2", "wrong-step"]  # registration order
    g = errata.groups[0]
    assert g.title == "sigma printed where sigma^2 is meant" and "factor 4" in g.note and "Lemma 2" in g.note
    assert [i.id for i in g.items] == [f"{KEY}.err1", f"{KEY}.err2"]
    lines = dict(g.items[0].lines)
    assert lines["printed vs corrected"] == "printed 0.1235; corrected 0.4938"
    assert lines["referee"] == "Monte Carlo, 1e5 draws"
    assert dict(g.items[1].lines)["printed vs corrected"] == "printed 2; corrected 8"  # from observed


def test_holds_by_tightness_and_consistency_apart(toy):
    holds = findings(toy, _verdicts()).section("holds")
    groups = {g.title.split(":")[0].split(" (")[0]: [i.id.split(".")[1] for i in g.items] for g in holds.groups}
    assert groups == {"Tight": ["tight", "exact"], "Loose": ["loose"], "Slack": ["slack"], "Not rated": ["unrated"],
                      "Consistency checks": ["cons"]}
    slack = next(g for g in holds.groups if g.title.startswith("Slack"))
    assert "cannot detect a 10x error" in slack.title
    assert "cannot detect a 10x error" in dict(slack.items[0].lines)["detects"]
    cons = holds.groups[-1]
    assert "not counted as evidence" in cons.title
    # consistency checks are not evidence: nowhere else, and not in the paper's counts
    f = findings(toy, _verdicts())
    assert f.census.paper_claims == 13 and "1 consistency checks not counted" in f.summary()


def test_major_findings_give_the_decisive_numbers(toy):
    item = findings(toy, _verdicts()).section("major").groups[0].items[0]
    lines = dict(item.lines)
    assert lines["computed"] == "ratio = 1.371; curve = 30 values from 0 to 29" and lines["claimed"] == "1"
    assert lines["margin"] == "observed/bound = 1.37 (violated)"
    assert lines["root cause"] == "Step (12) drops a factor 2 [proof]: the bound is off by 2"
    vac = dict(findings(toy, _verdicts()).section("major").groups[0].items[1].lines)
    assert vac["root cause"] == "no-instance"  # not registered: the id


def test_other_papers_and_order(toy):
    other = _v("x", "refuted").__dict__ | {"paper": "another", "id": "another.x"}
    f = findings(toy, [Verdict(**other), *reversed(_verdicts())])
    assert f.census.total == 14
    assert [i.id for i in f.section("holds").groups[0].items] == [f"{KEY}.tight", f"{KEY}.exact"]


def test_formatting():
    assert format_number(0.000123456) == "1.235e-4" and format_number(123456.7) == "1.235e5"
    assert format_number(None) == "n/a" and format_number(float("inf")) == "inf" and format_number(7) == "7"
    assert format_value([0.1234567, 0.2]) == "[0.1235, 0.2]"
    assert format_value([[1.0, 2.0], [3.0, 4.5]]) == "2x2 array in [1, 4.5]"
    assert format_value({"a": {"b": {"c": 1}}}) == "a = (b = (1 entries))"


@pytest.mark.parametrize("fmt", ["to_text", "to_markdown", "to_rst", "to_html"])
def test_renderers_say_everything_without_raw_dicts(toy, fmt):
    out = getattr(findings(toy, _verdicts()), fmt)()
    assert not re.search(r"\{'|\{\"|': |\": ", out.replace("{font", "").replace("{display", ""))  # no raw dicts
    for cid in ("ref", "vac", "err1", "err2", "err3", "tight", "slack", "cons", "nrep", "inc", "broken"):
        assert f"{KEY}.{cid}" in out, cid
    for text in ("Major findings", "Errata", "What holds", "not reproduce", "Undecided", "quick mode",
                 "not counted as evidence", "cannot detect a 10x error", "linear regression, d=20, k=2"):
        assert text.lower() in out.lower(), text
    positions = [out.index(t) for t in ("Major findings", "Errata", "What holds", "does not reproduce", "Undecided")]
    assert positions == sorted(positions)
    assert "0.123456789" not in out and "0.1235" in out  # 4 significant figures


def test_markdown_and_rst_escape_markup(toy):
    f = findings(toy, _verdicts())
    assert "x\\_i <= 1" in f.to_rst() and "x\\_i <= 1" in f.to_markdown()
    rst = f.to_rst(roles={"refuted": "st-refuted"}, ref=lambda i: f"claim-{i}")
    assert f":ref:`{KEY}.ref <claim-{KEY}.ref>`" in rst and ":st-refuted:`refuted`" in rst


def test_to_dict_is_json(toy):
    d = json.loads(json.dumps(findings(toy, _verdicts()).to_dict()))
    assert d["paper"] == KEY and d["mode"] == "quick" and d["census"]["total"] == 14
    assert [s["key"] for s in d["sections"]] == ["major", "errata", "holds", "not-reproduced", "undecided"]
    err = d["sections"][1]["groups"][0]
    assert err["root_cause"]["kind"] == "typo" and err["items"][0]["printed"] == pytest.approx(0.123456789)


def test_html_page_and_fragment(toy):
    f = findings(toy, _verdicts())
    page = f.to_html(standalone=True)
    assert page.startswith("<!DOCTYPE html>") and "</html>" in page
    assert all(s in page for s in STATUSES)  # the legend names every outcome
    frag = f.to_html(anchor=lambda i: "claim-" + i)
    assert frag.startswith("<div class='findings'") and f"href='#claim-{KEY}.ref'" in frag
    assert "<math" in frag  # statements as MathML


# ----------------------------------------------------------------------------- the command line
@pytest.fixture
def registered():
    from fedtheory import register_paper, unregister_paper
    from fedtheory.cache import configure_cache

    paper = _paper()
    for c in list(paper._claims.values()):  # canned outcomes, through the claim functions
        v = next(v for v in _verdicts() if v.id == c.id)
        if v.status == "error":
            out = None
        else:
            out = {k: getattr(v, k) for k in ("status", "observed", "bound", "evidence", "margin", "detects", "power",
                                               "root_cause", "analogue", "referee", "printed", "corrected")}
            out = {k: x for k, x in out.items() if x not in (None, "")}

        def func(full, seed, out=out):
            if out is None:
                raise RuntimeError("boom")
            return dict(out)
        object.__setattr__(c, "func", func)
    register_paper(paper)
    yield paper
    unregister_paper(KEY)
    configure_cache(None)


def _cli(*argv):
    from fedtheory.cli import main

    return main([str(a) for a in argv])


@pytest.mark.parametrize("fmt", ["text", "md", "json", "html"])
def test_cli_findings_formats(registered, capsys, fmt):
    assert _cli("findings", "--paper", KEY, "--no-cache", "--format", fmt, "-q") == 0
    out = capsys.readouterr().out
    if fmt == "json":
        d = json.loads(out)
        assert d["papers"][0]["paper"] == KEY and d["census"]["outcomes"]["refuted"] == 1
    else:
        assert "Major findings" in out and f"{KEY}.err1" in out


def test_cli_findings_from_json_and_bad_input(registered, tmp_path, capsys):
    js = tmp_path / "v.json"
    assert _cli("verify", "--paper", KEY, "--no-cache", "--json", js, "-q") == 1  # an error verdict
    out = capsys.readouterr().out
    assert "census: 5 tight (within 2x), 3 loose, 1 slack; 3 of 11 decided claims cannot detect a 10x error" in out
    assert _cli("findings", "--paper", KEY, "--no-cache", "--from-json", js) == 0  # a wrong paper is no error
    assert "Errata (3)" in capsys.readouterr().out
    assert _cli("findings", "--paper", KEY, "--no-cache", "--from-json", tmp_path / "missing.json") == 2
    err = capsys.readouterr().err
    assert err.startswith("fedtheory: error:") and "--from-json" in err and err.count("\n") == 1
    with pytest.raises(SystemExit) as exc:
        _cli("findings", "--paper", KEY, "--format", "xml")
    assert exc.value.code == 2 and "--format" in capsys.readouterr().err
    assert _cli("findings", "--paper", "nope-paper") == 2
    assert "nope-paper" in capsys.readouterr().err


def test_cli_findings_exit_1_when_a_plugin_fails_to_load(registered, monkeypatch, capsys):
    import fedtheory.cli as cli

    monkeypatch.setattr(cli, "load_papers", lambda keys=None, strict=True: ([registered], ["plugin 'x' failed"]))
    assert _cli("findings", "--no-cache", "-q") == 1
    cap = capsys.readouterr()
    assert "plugin 'x' failed" in cap.err and "Major findings" in cap.out


# ----------------------------------------------------------------------------- the report
def test_report_opens_each_paper_with_its_findings(registered, tmp_path):
    from fedtheory.report import COLORS, build_report

    assert set(COLORS) == set(STATUSES)
    res = build_report(str(tmp_path / "r"), papers=[KEY], with_figures=False)
    page = open(res["index"]).read()
    section = page[page.index(f"<h2 id='{KEY}'"):]
    assert section.index(f"id='{KEY}-findings'") < section.index(f"id='{KEY}-claims'")
    assert section.index("Major findings") < section.index(f"id='{KEY}-claims'")
    assert f"href='#{KEY}-findings'" in page  # in the table of contents
    head = page[:page.index("</header>")]
    assert "cannot detect a 10x error" in head and all(f">{s}</span>" in head for s in STATUSES)
    errata = page[page.index(f"id='{KEY}-errata'"):page.index(f"id='{KEY}-ledger'")]
    assert "0.1235" in errata and "0.4938" in errata and "sigma-for-sigma2" in errata
