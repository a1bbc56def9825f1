"""`fedtheory verify --format {table,json,csv,latex}` and fedtheory.export.

A toy paper registered in-process gives verdicts of several outcomes (holds, refuted, erratum)
with statements full of CSV and LaTeX special characters, so the formats are checked without
running a real claim.
"""
from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys

import pytest

from fedtheory.cli import main
from fedtheory.export import (CSV_COLUMNS, LONGTABLE_ROWS, Range, claim_rows, confidence_intervals, format_number,
                              key_numbers, latex_escape, to_csv, to_latex)

SPECIALS = "\\{}$&#%_~^<>|"
NASTY = 'Rate 50% & more: a_1 ~ $x^2$, {set} #3 \\ |y| < 1 > 0, "quoted", two\nlines'


def _toy(key="zzexp", fail=True):
    from fedtheory import Paper

    paper = Paper(key=key, title="Export test", authors=["A. Author"], year=2025, venue="arXiv")

    @paper.claim(f"{key}.eq1.nasty_id", "Eq. (1) & 50%", NASTY)
    def _eq1(full, seed):
        print("chatter from a claim")  # must not reach stdout with --format csv/json/latex
        return dict(status="holds", observed={"ratio": 0.123456, "ci99": [0.1, 0.15], "runs": 200},
                    bound={"tolerance": 1e-9})

    @paper.claim(f"{key}.thm2.false", "Theorem 2", "a statement, with a comma")
    def _thm2(full, seed):
        return dict(status="refuted" if fail else "holds", observed=2.5, bound=1.0, evidence="2.5 > 1")

    @paper.claim(f"{key}.eq3.erratum", "Eq. (3)", "printed vs corrected")
    def _eq3(full, seed):
        return dict(status="erratum", observed={"printed": {"max": 3.0}, "corrected": {"max": 0.5}},
                    bound={"printed_holds": False, "corrected_holds": True}, referee="brute force")

    return paper


@pytest.fixture
def toy():
    from fedtheory import register_paper, unregister_paper

    paper = register_paper(_toy())
    try:
        yield paper
    finally:
        unregister_paper(paper.key)


def _verify(capsys, *extra):
    code = main(["verify", "--paper", "zzexp", "--no-cache", *extra])
    out, err = capsys.readouterr()
    return code, out, err


# ----------------------------------------------------------------------------- CLI
def test_csv_parses_back_one_row_per_claim(toy, capsys):
    code, out, err = _verify(capsys, "--format", "csv")
    assert code == 1  # a claim is refuted (no recorded outcome): exit status as with the table
    rows = list(csv.DictReader(io.StringIO(out)))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert [(r["paper"], r["id"], r["status"]) for r in rows] == [
        ("zzexp", "zzexp.eq1.nasty_id", "holds"), ("zzexp", "zzexp.thm2.false", "refuted"),
        ("zzexp", "zzexp.eq3.erratum", "erratum")]
    first = rows[0]
    assert first["reference"] == "Eq. (1) & 50%" and first["statement"] == " ".join(NASTY.split())
    assert first["computed"] == "ratio = 0.1235; runs = 200" and first["ci"] == "ci99 = [0.1, 0.15]"
    assert first["theory"] == "tolerance = 1e-09"
    assert rows[1]["computed"] == "2.5" and rows[1]["evidence"] == "2.5 > 1"
    assert rows[2]["computed"] == "printed.max = 3; corrected.max = 0.5"
    assert rows[2]["theory"] == "printed_holds = no; corrected_holds = yes"
    # stdout is the table only: progress, the summary and a claim's own prints went to stderr
    assert "summary:" not in out and "chatter" not in out and "fedtheory verify" not in out
    assert "summary: 1 holds, 1 erratum, 1 refuted, 0 error" in err and "chatter from a claim" in err


def test_json_to_stdout_is_what_json_writes(toy, capsys, tmp_path):
    path = tmp_path / "v.json"
    code, out, err = _verify(capsys, "--format", "json", "--json", str(path))
    assert code == 1
    printed = json.loads(out)
    assert printed == json.loads(path.read_text())
    assert [v["id"] for v in printed["verdicts"]] == ["zzexp.eq1.nasty_id", "zzexp.thm2.false", "zzexp.eq3.erratum"]
    assert printed["provenance"]["mode"] == "quick" and "zzexp" in printed["papers"]
    assert f"wrote {path}" in err and "wrote" not in out


def test_latex_to_stdout_and_table_default(toy, capsys):
    code, out, err = _verify(capsys, "--format", "latex")
    assert code == 1 and out.count(r"\begin{tabular}") == 1 and "summary:" in err
    assert _check_latex(out) == 3
    code, out, err = _verify(capsys)  # default: today's table on stdout
    assert code == 1 and "summary: 1 holds, 1 erratum, 1 refuted" in out and "zzexp.thm2.false" in out and err == ""


def test_exit_status_zero_when_nothing_is_refuted(capsys):
    from fedtheory import register_paper, unregister_paper

    register_paper(_toy("zzexpok", fail=False))
    try:
        assert main(["verify", "--paper", "zzexpok", "--no-cache", "--format", "csv"]) == 0
        assert len(list(csv.DictReader(io.StringIO(capsys.readouterr().out)))) == 3
    finally:
        unregister_paper("zzexpok")


def test_bad_format_is_one_line_exit_2():
    r = subprocess.run([sys.executable, "-m", "fedtheory", "verify", "--format", "xml"], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 2 and r.stdout == "" and "Traceback" not in r.stderr
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("fedtheory: error: ")
    assert "--format" in r.stderr and "latex" in r.stderr


def test_help_names_the_formats(capsys):
    with pytest.raises(SystemExit):
        main(["verify", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--format {table,json,csv,latex}" in text and "stderr" in text


# ----------------------------------------------------------------------------- LaTeX
_UNESCAPE = {r"\textbackslash{}": "\\", r"\textasciitilde{}": "~", r"\textasciicircum{}": "^",
             r"\textless{}": "<", r"\textgreater{}": ">", r"\textbar{}": "|", r"\{": "{", r"\}": "}", r"\$": "$",
             r"\&": "&", r"\#": "#", r"\%": "%", r"\_": "_"}


def _unescape(tex: str) -> str:
    pat = re.compile("|".join(re.escape(k) for k in sorted(_UNESCAPE, key=len, reverse=True)))
    return pat.sub(lambda m: _UNESCAPE[m.group(0)], tex)


def _strip_escapes(tex: str) -> str:
    """``tex`` without its escape sequences (so every remaining special character is structural)."""
    pat = re.compile("|".join(re.escape(k) for k in sorted(_UNESCAPE, key=len, reverse=True)))
    return pat.sub("", tex)


_MATH_NUMBER = re.compile(r"\$(-?\d+(\.\d+)?\\times )?10\^\{-?\d+\}\$|\$-?\\infty\$")


def _check_latex(tex: str) -> int:
    """Balanced braces and environments, 5 cells in every row; returns the number of claim rows."""
    bare = _strip_escapes(tex.replace("\\\\", "")).replace(r"\newline", "")
    depth = 0
    for ch in bare:
        depth += {"{": 1, "}": -1}.get(ch, 0)
        assert depth >= 0, "a closing brace without its opening one"
    assert depth == 0, "unbalanced braces"
    envs = re.findall(r"\\(begin|end)\{(\w+)\}", tex)
    stack = []
    for kind, name in envs:
        if kind == "begin":
            stack.append(name)
        else:
            assert stack and stack.pop() == name, envs
    assert not stack
    rows = [ln for ln in tex.splitlines() if ln.startswith(r"\texttt{")]
    for ln in rows + [ln for ln in tex.splitlines() if ln.startswith(r"\caption{")]:
        text = _MATH_NUMBER.sub("", _strip_escapes(ln))  # mathematics only for numbers
        for ch in "$#%_^~<>|":  # no special character left bare in the text
            assert ch not in text, (ch, ln)
    for ln in rows:
        assert _strip_escapes(ln).count("&") == 4, ln
        assert ln.endswith(r"\\")
    return len(rows)


def test_latex_escape_every_special_character_and_round_trips():
    for ch in SPECIALS:
        esc = latex_escape(ch)
        assert esc != ch and esc.startswith("\\") and _unescape(esc) == ch
    text = "".join(SPECIALS) + " plain text 1.5 (a, b) [c] -- x = y/2 + z*3"
    assert _unescape(latex_escape(text)) == text
    assert not set(_strip_escapes(latex_escape(text))) & set(SPECIALS)
    assert latex_escape("no specials (1, 2) = 3.5") == "no specials (1, 2) = 3.5"


def test_latex_table_structure_escaping_and_longtable():
    from fedtheory import register_paper, unregister_paper
    from fedtheory.plugins import get_paper

    register_paper(_toy("zzlatex"))
    try:
        verdicts = [c.evaluate() for c in get_paper("zzlatex").claims()]
    finally:
        unregister_paper("zzlatex")
    tex = to_latex(verdicts)
    assert tex.count(r"\begin{tabular}") == 1 and "longtable" not in tex.split("\n", 1)[1]
    assert _check_latex(tex) == 3
    assert tex.count(r"\toprule") == tex.count(r"\midrule") == tex.count(r"\bottomrule") == 1
    assert r"\textbf{refuted}" in tex and "& erratum &" in tex and "Eq. (1) \\& 50\\%" in tex
    row = [ln for ln in tex.splitlines() if "nasty" in ln][0]
    statement = row.rsplit(" & ", 1)[1][:-2].strip()
    assert _unescape(statement) == " ".join(NASTY.split())
    assert r"\texttt{zzlatex.\allowbreak{}eq1.\allowbreak{}nasty\_id}" in row
    assert "CI ci99 = [0.1, 0.15]" in row and r"tolerance = $10^{-9}$" in row

    long = to_latex(verdicts * (LONGTABLE_ROWS // 3 + 1))
    assert long.count(r"\begin{longtable}") == 1 and r"\endhead" in long and r"\endfirsthead" in long
    assert r"\caption{" in long and _check_latex(long) == 3 * (LONGTABLE_ROWS // 3 + 1)
    assert to_latex(verdicts, longtable=True).count(r"\begin{longtable}") == 1
    assert to_latex([v.to_dict() for v in verdicts]) == tex  # verify --json records give the same table


# ----------------------------------------------------------------------------- key numbers
def test_key_numbers_and_confidence_intervals():
    assert key_numbers(0.5) == [("", 0.5)] and key_numbers(None) == [("", None)]
    obs = {"mean": 1.0, "ci": [0.9, 1.1], "n": 10, "fit": {"slope": -1.0, "slope_ci": [-1.2, -0.8]},
           "rows": [{"a": 1}], "curve": list(range(10)), "decision": "printed"}
    assert key_numbers(obs, limit=10) == [("mean", 1.0), ("n", 10), ("fit.slope", -1.0),
                                          ("curve", Range((10, 0, 9))), ("decision", "printed")]
    assert key_numbers(obs, limit=2) == [("mean", 1.0), ("n", 10), ("...", None)]
    assert claim_rows([{"observed": obs, "bound": {"k": [1.0] * 5}}])[0]["computed"] == \
        "mean = 1; n = 10; fit.slope = -1; ..."
    assert claim_rows([{"observed": {"curve": list(range(10))}, "bound": {"k": [1.0] * 5}}])[0] == {
        **dict.fromkeys(CSV_COLUMNS, ""), "computed": "curve = 10 values in [0, 9]", "theory": "k = 5 values, all 1",
        "kind": "paper"}
    assert confidence_intervals(obs) == [("ci", [0.9, 1.1]), ("fit.slope_ci", [-1.2, -0.8])]
    assert confidence_intervals(obs, limit=1) == [("ci", [0.9, 1.1])]
    assert confidence_intervals({"CIFAR": [1, 2], "decision": [1, 2], "ci": [1, 2, 3]}) == []
    import numpy as np

    assert key_numbers({"x": np.float64(0.25), "v": np.arange(3)}) == [("x", 0.25), ("v", [0, 1, 2])]
    for bad in (0, -1, 1.5, True, "3"):
        with pytest.raises(ValueError, match="`limit` must be an integer >= 1"):
            key_numbers(obs, limit=bad)
        with pytest.raises(ValueError, match="`limit`"):
            confidence_intervals(obs, limit=bad)
        with pytest.raises(ValueError, match="`digits` must be an integer >= 1"):
            format_number(1.0, digits=bad)


def test_format_number():
    assert format_number(0.000123456) == "0.0001235" and format_number(123456.0) == "1.235e+05"
    assert format_number(123456.0, latex=True) == r"$1.235\times 10^{5}$"
    assert format_number(1e-7, latex=True) == "$10^{-7}$"
    assert format_number(float("inf")) == "inf" and format_number("-inf", latex=True) == r"$-\infty$"
    assert format_number(None) == "nan" and format_number(float("nan")) == "nan"
    assert format_number(False) == "no" and format_number(7) == "7" and format_number(2.0) == "2"
    assert format_number("a_b", latex=True) == r"a\_b" and format_number(0.123456, digits=2) == "0.12"


def test_claim_rows_accept_dicts_and_reject_other_things():
    row = {"id": "p.x", "paper": "p", "reference": "R", "statement": "s", "status": "holds",
           "observed": {"ci": [1, 2]}, "bound": 3}
    assert claim_rows([row])[0] == {"paper": "p", "id": "p.x", "reference": "R", "status": "holds",
                                    "computed": "", "theory": "3", "ci": "[1, 2]", "statement": "s", "evidence": "",
                                    "margin": "", "detects": "", "root_cause": "", "kind": "paper"}
    assert to_csv([]) == ",".join(CSV_COLUMNS) + "\n"
    with pytest.raises(TypeError, match="`verdicts` must hold Verdict objects or dicts"):
        claim_rows([42])
