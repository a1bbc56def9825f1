"""Tests of :mod:`fedtheory.report`: the HTML report's files and claims JSON, its rendering in Chromium (images,
links, readability), a report from a verify JSON, stale JSON refused, and the number formatting."""
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars"]


def _need_browser():
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("CI must install Debian's chromium for the browser test (see .ci/run)")
        pytest.skip("chromium not installed")


def _render(index, profile):
    """Load the page, let its script run, return (self-check text, console error lines)."""
    r = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "--virtual-time-budget=5000",
                        "--enable-logging=stderr", "--v=0", "--dump-dom", f"file://{index}"],
                       capture_output=True, text=True, timeout=120)
    m = re.search(r'<div id="fedtheory-selfcheck"([^>]*)>', r.stdout)
    attrs = dict(re.findall(r'data-([a-z-]+)="(\d+)"', m.group(1))) if m else None
    errors = [ln for ln in r.stderr.splitlines() if "CONSOLE" in ln and ("Uncaught" in ln or "Error" in ln)]
    return (attrs if attrs and attrs.get("done") == "1" else None), errors, r.stdout


def _n_figures():
    from fedtheory import get_paper

    n = len(get_paper("fedlrgd").figures())
    assert n >= 6  # Theorem 1, App. C, complexity, Erlang, FedAve measured, alpha of (8)
    return n


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    r = subprocess.run([sys.executable, "-m", "fedtheory.cli", "report", "--paper", "fedlrgd", "--out", str(out),
                        "--quiet", "--no-cache"], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    return out


def test_report_files_and_claims_json(report):
    out = json.loads((report / "claims.json").read_text())
    records = out["verdicts"]
    assert out["provenance"]["mode"] == "quick" and out["papers"]["fedlrgd"]["year"] == 2023
    assert len(records) >= 18
    for rec in records:
        for key in ("id", "paper", "reference", "statement", "status", "observed", "bound"):
            assert key in rec
    page = (report / "index.html").read_text()
    assert "erratum" in page and "Errata (printed form fails" in page
    assert page.count("data:image/png;base64,") == _n_figures()  # every figure of the paper, inlined
    # the paper is cited (no file names), and its results ledger is shown
    assert "Jadbabaie, Makur and Shah (2023). Federated Optimization of Smooth Loss Functions" in page
    assert "Results ledger" in page and "numbered results" in page and "Theorem 3" in page
    assert not re.search(r"\d{3}_[0-9a-f]{16}", page)


def test_report_renders_in_chromium_with_every_image_loaded(report, tmp_path):
    _need_browser()
    m, errors, dom = _render(report / "index.html", tmp_path / "profile")
    assert m is not None, "the page's self-check did not run"
    assert int(m["images"]) == _n_figures() and int(m["broken"]) == 0
    assert int(m["math"]) >= 18  # statements render as MathML (one or more formulas per claim)
    assert int(m["links"]) >= 5 and int(m["dead-links"]) == 0  # table of contents and ledger links resolve
    assert errors == []
    text = re.sub(r"<[^>]+>", " ", re.sub(r"(?s)<(script|style)\b.*?</\1>", " ", dom))  # what a reader sees
    assert "images=" not in text and "broken=" not in text and "pending" not in text  # no debug text
    assert "<nav class=\"toc\">" in dom and "Contents" in dom
    shot = tmp_path / "report.png"
    subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile2'}", "--window-size=1280,1600",
                    f"--screenshot={shot}", f"file://{report / 'index.html'}"], capture_output=True, timeout=120)
    assert shot.stat().st_size > 10_000


def test_browser_check_catches_a_broken_image(report, tmp_path):
    """Negative control: the same check fails when one embedded image is corrupted."""
    _need_browser()
    page = (report / "index.html").read_text()
    broken = page.replace("data:image/png;base64,iVBOR", "data:image/png;base64,AAAAA", 1)
    bad = tmp_path / "broken.html"
    bad.write_text(broken)
    m, _, _ = _render(bad, tmp_path / "profile")
    assert m is not None and int(m["broken"]) == 1


def test_browser_check_catches_a_dead_link(report, tmp_path):
    """Negative control: a table-of-contents link to a missing section is counted."""
    _need_browser()
    page = (report / "index.html").read_text()
    bad = tmp_path / "deadlink.html"
    bad.write_text(page.replace("href='#fedlrgd-ledger'", "href='#nowhere'", 1))
    m, _, _ = _render(bad, tmp_path / "profile")
    assert m is not None and int(m["dead-links"]) == 1


def test_report_page_is_readable(report):
    """Formatted numbers, MathML statements, a table of contents, the provenance header, the
    ledger with its counts; no raw JSON cut off with '...' and no debug line."""
    page = (report / "index.html").read_text()
    assert "<nav class='toc'>" in page and "href='#fedlrgd-ledger'" in page and "id='fedlrgd-ledger'" in page
    assert page.count("<math") >= 18 and 'display="inline"' in page
    for label in ("fedtheory</dt>", "git commit</dt>", "date (UTC)</dt>", "platform</dt>", "mode</dt>",
                  "seed</dt>", "verdicts</dt>"):
        assert label in page
    assert "numbered results: " in page and " checked</span>" in page
    assert "images=" not in page and "pending" not in page
    assert not re.search(r'\{"[a-z_]+": ', page)  # no raw JSON objects
    assert re.search(r"\d\.\d{1,3}×10<sup>−\d+</sup>", page)  # small numbers in scientific form, 4 digits
    assert "click to enlarge" in page and "id='lightbox'" in page


# ----------------------------------------------------------------------------- saved results (cheap: a toy paper)
CALLS = {"n": 0}


def _toy_paper(key="zzrep"):
    from fedtheory import Paper

    paper = Paper(key=key, title="A toy paper for the report", authors=["A. Author"], year=2025, venue="arXiv")

    @paper.claim(f"{key}.eq1", "Eq. (1)", "lam <= mu and ||w - P x||_1 <= sigma^2 for the toy model")
    def _eq1(full, seed):
        CALLS["n"] += 1
        return dict(status="holds", observed={"gap": 0.000123456, "ci": [0.1234567, 0.2], "runs": 12,
                                              "time_s": 2.5},
                    bound={"tolerance": 1e-12, "curve": list(range(40))}, evidence="arithmetic")

    @paper.claim(f"{key}.eq2", "Eq. (2)", "the printed constant 2 should be 3")
    def _eq2(full, seed):
        CALLS["n"] += 1
        return dict(status="erratum", observed={"printed": 2.0, "corrected": 3.0}, bound=3.0,
                    evidence="printed 2, corrected 3", referee="exact arithmetic")

    return paper


@pytest.fixture
def toy(tmp_path):
    from fedtheory import register_paper, unregister_paper
    from fedtheory.cache import configure_cache

    paper = register_paper(_toy_paper())
    CALLS["n"] = 0
    yield paper
    unregister_paper(paper.key)
    configure_cache(None)


def _cli(*argv):
    from fedtheory.cli import main

    return main([str(a) for a in argv])


def test_report_from_json_runs_no_claim(toy, tmp_path, capsys):
    js = tmp_path / "v.json"
    assert _cli("verify", "--paper", "zzrep", "--no-cache", "--json", js, "-q", "--workers", 1) == 0
    assert CALLS["n"] == 2
    assert set(json.loads(js.read_text())["fingerprints"]) == {"zzrep"}
    assert _cli("report", "--paper", "zzrep", "--no-cache", "--from-json", js, "--out", tmp_path / "r", "-q") == 0
    assert CALLS["n"] == 2
    page = (tmp_path / "r" / "index.html").read_text()
    assert "from <code>" in page and "v.json" in page and "erratum" in page


def _stale_cases(js, tmp_path):
    data = json.loads(js.read_text())
    cases = {}
    d = json.loads(json.dumps(data)); d["fingerprints"]["zzrep"] = "0" * 64
    cases["stale"] = d
    d = json.loads(json.dumps(data)); d["provenance"]["fedtheory"] = "0.0.1"
    cases["fedtheory 0.0.1"] = d
    d = json.loads(json.dumps(data)); d["verdicts"] = d["verdicts"][:1]
    cases["covers 1 of 2 claims"] = d
    d = json.loads(json.dumps(data)); del d["fingerprints"]
    cases["does not cover paper"] = d
    out = {}
    for why, d in cases.items():
        p = tmp_path / f"{len(out)}.json"
        p.write_text(json.dumps(d))
        out[why] = p
    return out


def test_report_refuses_a_json_that_is_not_current(toy, tmp_path, capsys):
    js = tmp_path / "v.json"
    assert _cli("verify", "--paper", "zzrep", "--no-cache", "--json", js, "-q", "--workers", 1) == 0
    capsys.readouterr()
    for why, path in _stale_cases(js, tmp_path).items():
        assert _cli("report", "--paper", "zzrep", "--no-cache", "--from-json", path, "--out", tmp_path / "r") == 2
        err = capsys.readouterr().err
        assert err.startswith("fedtheory: error: --from-json") and err.count("\n") == 1 and why in err, (why, err)
    for extra, why in ((["--full"], "quick-mode"), (["--seed", "3"], "seed None")):
        assert _cli("report", "--paper", "zzrep", "--no-cache", "--from-json", js, "--out", tmp_path / "r",
                    *extra) == 2
        assert why in capsys.readouterr().err
    (tmp_path / "bad.json").write_text("{not json")
    assert _cli("report", "--paper", "zzrep", "--no-cache", "--from-json", tmp_path / "bad.json",
                "--out", tmp_path / "r") == 2
    assert "not JSON" in capsys.readouterr().err
    assert CALLS["n"] == 2  # a refused file never runs claims


def test_formatted_numbers_on_the_page(toy, tmp_path):
    assert _cli("report", "--paper", "zzrep", "--no-cache", "--out", tmp_path / "r", "-q") == 0
    page = (tmp_path / "r" / "index.html").read_text()
    assert "1.235×10<sup>−4</sup>" in page and "0.000123456" not in page
    assert "[0.1235, 0.2]" in page and "0.1234567" not in page  # a CI as an interval, 4 digits
    assert "2.5 s" in page  # units where the key names them
    assert "40 values: 0, 1, 2, …, 39" in page  # arrays summarised
    assert "10<sup>−12</sup>" in page
    assert page.count("<math") >= 2  # "lam <= mu" and "||w - P x||_1 <= sigma^2"
    assert "images=" not in page


# ----------------------------------------------------------------------------- formatting and mathematics
def test_format_number():
    from fedtheory.report import format_number, format_value

    assert format_number(3) == "3" and format_number(123456789) == "123456789"
    assert format_number(1234.5678) == "1235" and format_number(-0.5) == "−0.5"
    assert format_number(0.000123456) == "1.235×10<sup>−4</sup>"
    assert format_number(-3e-7) == "−3×10<sup>−7</sup>"
    assert format_number(1e-12) == "10<sup>−12</sup>" and format_number(2.5e20) == "2.5×10<sup>20</sup>"
    assert format_number(None) == "–" and format_number("inf") == "∞" and format_number("-inf") == "−∞"
    assert format_number(True) == "yes"
    assert format_value([[1.0, 2.0], [3.0, 4.0]]) == "2×2 array, range [1, 4]"
    assert format_value({"a_b": 1}) == ("<table class='kv'><tr><td class='k'>a_<wbr>b</td><td><span class='n'>1</span>"
                                        "</td></tr></table>")
    assert "<details>" in format_value({f"k{i}": i for i in range(12)})
    assert format_value("<b>") == "&lt;b&gt;"
