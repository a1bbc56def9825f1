"""Tests of :mod:`fedtheory.plugins`: papers found through the entry point group ``fedtheory.papers`` (a toy plugin
through list, verify, report, ledger, cite and its pytest marker), broken or duplicate plugins as one-line errors,
the paper API in process, and the built-in claims against their recorded outcomes."""
import json
import os
import subprocess
import sys
import textwrap

import pytest

from fedtheory import get_claim, registry
from fedtheory.claims import STATUSES

TOY_INIT = '''
from fedtheory import LedgerRow, Paper

PAPER = Paper(key="toy", title="A toy paper", authors=["A. Author", "B. Writer"], year=2025, venue="arXiv",
              arxiv="2501.00001")


@PAPER.claim("toy.eq1.identity", reference="Eq. (1)", statement="1 + 1 = 2", aliases=("toy.old-eq1",))
def _eq1(full: bool, seed) -> dict:
    return dict(status="holds", observed=2, bound=2, evidence="arithmetic")


@PAPER.claim("toy.thm2.false", reference="Theorem 2", statement="2 + 2 = 5")
def _thm2(full: bool, seed) -> dict:
    return dict(status="fails", observed=4, bound=5, evidence="4 != 5")  # the former name, read as refuted


@PAPER.figure("toy.fig1", reference="Figure 1")
def _fig1(outdir, full, seed):
    from fedtheory.plotting import plt, save_figure, style
    with style():
        fig, ax = plt.subplots()
        ax.plot([0, 1], [0, 1], label="y = x")
        ax.set_xlabel("x")
        ax.set_ylabel("y")
        ax.legend()
        return save_figure(fig, outdir, "toy_fig1", {"x": [0, 1]}, {"seed": seed})


PAPER.set_ledger([
    LedgerRow("Eq. (1)", "equation", "1 + 1 = 2", "checked", claims=("toy.eq1.identity",)),
    LedgerRow("Theorem 2", "theorem", "2 + 2 = 5", "checked", claims=("toy.thm2.false",), figures=("toy.fig1",)),
    LedgerRow("Lemma 3", "lemma", "a proof step", "not-checkable", reason="proof step of Theorem 2"),
])
'''


TOY_PYPROJECT = '''
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "toypkg"
version = "0.1"
dependencies = []

[project.entry-points."fedtheory.papers"]
toy = "toypkg:PAPER"

[tool.setuptools]
packages = ["toypkg"]
'''


def _fake_dist(site, name, entry_points: str, modules: dict):
    """A hand-made installed distribution: ``NAME-0.1.dist-info`` plus module files."""
    info = site / f"{name}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[fedtheory.papers]\n" + entry_points + "\n")
    for fname, text in modules.items():
        (site / fname).write_text(textwrap.dedent(text))


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    root = tmp_path_factory.mktemp("plugins")
    src = root / "toypkg-src"
    (src / "toypkg").mkdir(parents=True)
    (src / "toypkg" / "__init__.py").write_text(TOY_INIT)
    (src / "pyproject.toml").write_text(TOY_PYPROJECT)
    toy = root / "site-toy"
    r = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                        "--target", str(toy), str(src)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert (toy / "toypkg" / "__init__.py").exists()
    broken = root / "site-broken"
    _fake_dist(broken, "brokenpkg", "broken = brokenpkg:PAPER",
               {"brokenpkg.py": "import a_module_that_does_not_exist\n"})
    dup = root / "site-dup"
    _fake_dist(dup, "duppkg", "toy = duppkg:PAPER",
               {"duppkg.py": """
                from fedtheory import Paper
                PAPER = Paper(key="toy", title="Another toy", authors=["C. Other"], year=2024, venue="arXiv")
                """})
    badid = root / "site-badid"
    _fake_dist(badid, "badidpkg", "badid = badidpkg:PAPER",
               {"badidpkg.py": """
                from fedtheory import Paper
                PAPER = Paper(key="badid", title="Bad ids", authors=["D. Author"], year=2024, venue="arXiv")

                @PAPER.claim("other.eq1", reference="Eq. (1)", statement="an id with the wrong prefix")
                def _c(full, seed):
                    return dict(status="holds", observed=1, bound=1)
                """})
    badledger = root / "site-badledger"
    _fake_dist(badledger, "badledgerpkg", "badledger = badledgerpkg:PAPER",
               {"badledgerpkg.py": """
                from fedtheory import LedgerRow, Paper
                PAPER = Paper(key="badledger", title="Bad ledger", authors=["E. Author"], year=2024, venue="arXiv")

                @PAPER.claim("badledger.eq1", reference="Eq. (1)", statement="holds")
                def _c(full, seed):
                    return dict(status="holds", observed=1, bound=1)

                PAPER.set_ledger([LedgerRow("Eq. (1)", "equation", "x", "checked", claims=("badledger.eq9",))])
                """})
    return {"root": root, "toy": toy, "broken": broken, "dup": dup, "badid": badid, "badledger": badledger}


def _run(sites, *names, args, cwd=None):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(str(sites[n]) for n in names), MPLBACKEND="Agg")
    return subprocess.run([sys.executable, "-m", "fedtheory", *args], capture_output=True, text=True, env=env,
                          cwd=cwd or sites["root"])


def test_toy_plugin_list_verify_report_ledger_cite(sites, tmp_path):
    r = _run(sites, "toy", args=["list", "--paper", "toy"])
    assert r.returncode == 0, r.stderr
    assert "toy.eq1.identity" in r.stdout and "toy.thm2.false" in r.stdout and "toy.fig1" in r.stdout
    assert "Author and Writer (2025). A toy paper. arXiv" in r.stdout
    r = _run(sites, "toy", args=["list"])  # found next to the built-in papers
    assert r.returncode == 0 and "toy.eq1.identity" in r.stdout and "fedrep.thm1.contraction" in r.stdout

    out = tmp_path / "v.json"
    r = _run(sites, "toy", args=["verify", "--paper", "toy", "--json", str(out)])
    assert r.returncode == 1, r.stdout + r.stderr  # one toy claim is refuted (no recorded outcome)
    recs = json.loads(out.read_text())
    assert [(v["id"], v["status"]) for v in recs["verdicts"]] == [("toy.eq1.identity", "holds"),
                                                                  ("toy.thm2.false", "refuted")]
    assert recs["papers"]["toy"]["citation"]["title"] == "A toy paper"
    assert set(recs["provenance"]) >= {"fedtheory", "git_commit", "numpy", "scipy", "python", "platform", "date",
                                       "seed", "mode"}
    r = _run(sites, "toy", args=["verify", "--paper", "toy", "--claim", "toy.eq1.identity"])
    assert r.returncode == 0 and "1 holds" in r.stdout
    r = _run(sites, "toy", args=["verify", "--claim", "toy.old-eq1"])  # a former id is an alias
    assert r.returncode == 0 and "toy.eq1.identity" in r.stdout

    rep = tmp_path / "report"
    r = _run(sites, "toy", args=["report", "--paper", "toy", "--out", str(rep), "--no-cache"])
    assert r.returncode == 1, r.stderr  # the failing claim makes the report exit 1 too
    page = (rep / "index.html").read_text()
    assert "A toy paper" in page and "Results ledger" in page and "Lemma 3" in page and "toy.thm2.false" in page
    assert (rep / "figures" / "toy_fig1.png").stat().st_size > 1000
    side = json.loads((rep / "figures" / "toy_fig1.json").read_text())
    assert side["figure_id"] == "toy.fig1" and "A toy paper" in side["paper"] and side["provenance"]["seed"] == 0

    r = _run(sites, "toy", args=["ledger", "--paper", "toy", "--json", str(tmp_path / "l.json")])
    assert r.returncode == 0 and "3 numbered results: 2 checked" in r.stdout and "proof step of Theorem 2" in r.stdout
    assert json.loads((tmp_path / "l.json").read_text())["papers"]["toy"]["counts"]["not-checkable"] == 1
    r = _run(sites, "toy", args=["cite", "toy"])
    assert r.returncode == 0 and r.stdout.startswith("@misc{author2025toy,") and "eprint = {2501.00001}" in r.stdout


def test_toy_plugin_pytest_marker(sites, tmp_path):
    (tmp_path / "test_uses_toy.py").write_text(textwrap.dedent('''
        import pytest

        @pytest.mark.claim("toy.eq1.identity")
        def test_identity_holds():
            pass

        @pytest.mark.claim("toy.old-eq1")
        def test_former_id_still_works():
            pass

        @pytest.mark.claim("toy.thm2.false")
        def test_false_claim_fails():
            pass
    '''))
    env = dict(os.environ, PYTHONPATH=str(sites["toy"]))
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
                       capture_output=True, text=True, env=env, cwd=tmp_path)
    assert "2 passed" in r.stdout and "1 error" in r.stdout, r.stdout[-2000:]
    assert "claim toy.thm2.false is 'refuted'" in r.stdout


def _one_line_error(r, *words):
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
    for w in words:
        assert w in r.stderr, (w, r.stderr)


def test_broken_plugin_is_one_line_and_others_still_work(sites):
    r = _run(sites, "toy", "broken", args=["list"])
    assert r.returncode == 1  # listed what it could, reported the broken one
    assert "toy.eq1.identity" in r.stdout and "fedrep.thm1.contraction" in r.stdout
    err = [ln for ln in r.stderr.splitlines() if ln]
    assert len(err) == 1 and "broken" in err[0] and "brokenpkg:PAPER" in err[0] and "ModuleNotFoundError" in err[0]
    _one_line_error(_run(sites, "toy", "broken", args=["verify", "--paper", "broken"]), "brokenpkg:PAPER")
    r = _run(sites, "toy", "broken", args=["verify", "--paper", "toy", "--claim", "toy.eq1.identity"])
    assert r.returncode == 0 and r.stderr == ""


def test_duplicate_key_names_both_sources(sites):
    r = _run(sites, "toy", "dup", args=["verify", "--paper", "toy"])
    _one_line_error(r, "'toy'", "toypkg:PAPER", "duppkg:PAPER", "toypkg 0.1", "duppkg 0.1")
    r = _run(sites, "toy", "dup", args=["list", "--paper", "fedrep"])  # other papers unaffected
    assert r.returncode == 0 and "fedrep.thm1.contraction" in r.stdout


def test_bad_claim_id_and_malformed_ledger_are_one_line(sites):
    _one_line_error(_run(sites, "badid", args=["list", "--paper", "badid"]), "badidpkg:PAPER", "'other.eq1'",
                    "must start with its paper's key 'badid.'")
    _one_line_error(_run(sites, "badledger", args=["ledger", "--paper", "badledger"]), "malformed ledger",
                    "badledger.eq9")


def test_unknown_paper_and_claim_are_one_line(sites):
    _one_line_error(_run(sites, args=["verify", "--paper", "nope"]), "unknown paper 'nope'", "fedrep")
    _one_line_error(_run(sites, args=["verify", "--claim", "fedrep.nope"]), "unknown claim id 'fedrep.nope'")
    _one_line_error(_run(sites, args=["ledger", "--paper", "nope"]), "unknown paper 'nope'")
    _one_line_error(_run(sites, args=["calc", "fedrep"]), "has no calculator", "srpfl")


def test_version_and_module_entry(sites):
    from fedtheory import __version__

    r = _run(sites, args=["--version"])
    assert r.returncode == 0 and r.stdout.strip() == f"fedtheory {__version__}"
    r = _run(sites, args=["verify", "--help"])
    for opt in ("--workers", "--scheduler", "--cache", "--no-cache", "--quiet", "--paper", "--claim", "--json"):
        assert opt in r.stdout, opt


def test_paper_api_in_process():
    from fedtheory import Citation, LedgerRow, Paper, PluginError, get_claim, register_paper, unregister_paper

    p = Paper(key="inproc", title="In-process paper", authors=["X. Y"], year=2024, venue="Journal of Tests",
              versions=[Citation(title="In-process paper", authors=["X. Y"], year=2023, venue="arXiv",
                                 version="arXiv")])
    with pytest.raises(ValueError, match="must start with its paper's key"):
        p.claim("other.x", "r", "s")
    with pytest.raises(ValueError, match="key"):
        Paper(key="Bad Key", title="t", authors=["a"], year=2024, venue="v")
    with pytest.raises(ValueError, match="year"):
        Paper(key="ok", title="t", authors=["a"], year=24, venue="v")

    @p.claim("inproc.c1", "Eq. (1)", "holds", aliases=["inproc.c0"])
    def _c(full, seed):
        return dict(status="holds", observed=1, bound=1)

    with pytest.raises(ValueError, match="duplicate claim id"):
        @p.claim("inproc.c1", "Eq. (1)", "again")
        def _other(full, seed):
            return {}

    register_paper(p)
    try:
        assert get_claim("inproc.c0").id == "inproc.c1"
        assert "@article{y2024process," in p.cite() and "journal = {Journal of Tests}" in p.cite()
        assert "@misc{y2023process-arxiv," in p.cite()
        p.set_ledger([LedgerRow("Eq. (2)", "equation", "x", "unchecked", reason="a check would compute x")])
        with pytest.raises(ValueError, match="appear"):  # inproc.c1 is in no row
            p.ledger()
        with pytest.raises(PluginError):
            register_paper(Paper(key="inproc", title="t", authors=["a"], year=2024, venue="v"))
    finally:
        unregister_paper("inproc")
    with pytest.raises(ValueError, match="needs a `reason`"):
        LedgerRow("Eq. (3)", "equation", "x", "out-of-scope")
    with pytest.raises(ValueError, match="at least one claim"):
        LedgerRow("Eq. (3)", "equation", "x", "checked")


@pytest.mark.parametrize("claim_id", [c.id for c in registry()])
def test_quick_claims_match_their_recorded_outcome(claim_id):
    """Contract over the catalogue (benchopt-style): every quick claim returns the outcome its paper
    records for it (a paper that is wrong as recorded is fine; a changed outcome is a regression),
    with the required fields, and a decided outcome carries its margin and detection threshold."""
    from fedtheory.claims import DECIDED
    from fedtheory.plugins import get_paper

    claim = get_claim(claim_id)
    v = claim.evaluate(full=False, expected=get_paper(claim.paper).expected(claim.id, False))
    assert v.status in STATUSES
    assert v.expected is not None and not v.regression, str(v)
    if v.status in DECIDED:
        assert isinstance(v.margin, dict) and isinstance(v.detects, dict), str(v)
    d = v.to_dict()
    for key in ("id", "paper", "reference", "statement", "status", "observed", "bound"):
        assert key in d
    json.dumps(d)
