"""The paper pages, source pages and developer page of the documentation site
(docs/_ext/fedtheory_docs.py and its modules fedtheory_docs_papers, fedtheory_docs_claims,
fedtheory_docs_developer, fedtheory_docs_text), without a Sphinx build.

A paper page prints to a few pages: every claim is one line (typeset statement, outcome, margin,
link to its code) and its detail is inside a ``<details>`` element that print keeps closed; errata
show the printed and corrected values; the developer page draws the import graph.
"""
from __future__ import annotations

import functools
import html
import json
import os
import re
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "docs", "_ext"))
docs = pytest.importorskip("fedtheory_docs", reason="docs/_ext is missing")
claims_html = pytest.importorskip("fedtheory_docs_claims")
developer = pytest.importorskip("fedtheory_docs_developer")
papers_mod = pytest.importorskip("fedtheory_docs_papers")
pytest.importorskip("latex2mathml")

EVIDENCE = "the evidence sentence that only the detail shows"


def _toy_statement(i: int) -> str:
    return f"||w_{i} - P x||_1 <= sigma_min,*^2 + eta~ L_F for every client k <= N (toy claim {i})"


@pytest.fixture
def toy_paper():
    from fedtheory import LedgerRow, Paper, register_paper, unregister_paper

    paper = Paper(key="toyprint", title="A toy paper for printing", authors=["A. Author"], year=2025,
                  venue="arXiv", arxiv="2501.00002", description="Toy plugin for the docs tests.")
    paper.root_cause("five-for-four", "Theorem 2 prints 5 for 4", kind="typo", references=("Eq. (2)",))

    def _holds(full, seed):
        return dict(status="holds", observed=1.0, bound=2.0)

    for i in range(30):
        paper.claim(f"toyprint.eq{i}.bound", reference=f"Eq. ({i})", statement=_toy_statement(i),
                    regime="integers")(_holds)

    @paper.claim("toyprint.thm2.printed", reference="Theorem 2", statement="printed 2 + 2 = 5",
                 root_cause="five-for-four")
    def _thm2(full, seed):
        return dict(status="erratum", observed={"printed": 4, "corrected": 4}, bound={"printed": 5, "corrected": 4})

    paper.set_ledger([LedgerRow(f"Eq. ({i})", "equation", "a bound", "checked", section="2",
                                claims=(f"toyprint.eq{i}.bound",)) for i in range(30)]
                     + [LedgerRow("Theorem 2", "theorem", "2 + 2 = 4", "checked", section="3",
                                  claims=("toyprint.thm2.printed",))])
    register_paper(paper)
    yield paper
    unregister_paper("toyprint")


def _records(paper) -> list[dict]:
    out = []
    for c in paper.claims():
        rec = {"id": c.id, "paper": paper.key, "reference": c.reference, "statement": c.statement,
               "status": "holds", "observed": {"max_ratio": 0.000123456, "curve": list(range(50))},
               "bound": {"ratio": 1.0}, "evidence": EVIDENCE, "mode": "quick", "seconds": 0.5,
               "regime": c.regime, "margin": {"kind": "observed/bound", "value": 0.5, "ci": None, "tightness": "tight"},
               "detects": {"factor": 2.0, "of": "constant", "relative": 1.0}, "kind": "paper"}
        if c.id == "toyprint.thm2.printed":
            rec.update(status="erratum", observed={"printed": {"gap": 1234.5678}, "corrected": {"gap": 0.00012345}},
                       bound={"printed_holds": False, "corrected_holds": True}, root_cause="five-for-four",
                       printed={"gap": 1234.5678}, corrected={"gap": 0.00012345}, referee="integer arithmetic",
                       margin={"kind": "observed/bound", "value": 0.01, "tightness": "slack",
                               "printed": {"kind": "observed/bound", "value": 123.4, "tightness": "violated"}})
        out.append(rec)
    return out


@pytest.fixture
def toy_page(toy_paper, tmp_path):
    path = tmp_path / "verify.json"
    path.write_text(json.dumps({"provenance": {"fedtheory": "9.9", "mode": "quick"},
                                "verdicts": _records(toy_paper)}))
    verdicts, prov = docs.load_verdicts(str(path))
    return docs.paper_page(toy_paper, verdicts, prov, {}, "../../figures")


def printed_text(rst: str) -> str:
    """What print shows of a generated page: the text outside closed ``<details>`` bodies, without
    markup (the summary of a ``<details>`` stays)."""
    s = re.sub(r"<dl class='cl-detail'>.*?</dl>", "", rst, flags=re.S)
    # blocks between a raw "<details ...><summary>..</summary>" and the raw "</details>"
    s = re.sub(r"(<details class='(?:bibtex|figure|ledger)'><summary>.*?</summary>).*?</details>", r"\1", s,
               flags=re.S)
    s = re.sub(r"<annotation[^>]*>.*?</annotation>", "", s, flags=re.S)
    s = re.sub(r"<[^>]+>", "", s)
    return html.unescape(s)


# ============================================================================ paper pages
def test_statements_are_typeset_offline(toy_page):
    """Statements are MathML written at build time (no script, no network when read)."""
    assert toy_page.count("<math") >= 30 and "<msub>" in toy_page
    assert "mathjax" not in toy_page.lower() and "<script" not in toy_page
    assert "sigma_min,*^2" not in printed_text(toy_page)  # typeset, not ASCII


def test_each_claim_is_one_line_with_its_detail_collapsed(toy_paper, toy_page):
    for c in toy_paper.claims():
        assert f".. _claim-{c.id}:" in toy_page
    assert toy_page.count("<details class='claim") == len(toy_paper.claims())
    # the detail is in the page, but not in what print shows
    assert EVIDENCE in toy_page and EVIDENCE not in printed_text(toy_page)
    # outcome badge and margin at a glance on the line itself
    line = re.search(r"<summary>.*?toyprint\.eq3\.bound.*?</summary>", toy_page).group(0)
    assert "st-holds" in line and "observed/bound 0.5 (tight)" in line and "2× change of the constant" in line


def test_numbers_are_formatted_not_dumped(toy_page):
    assert "1.235×10<sup>−4</sup>" in toy_page  # 0.000123456, 4 significant digits
    assert "50 values" in toy_page  # a long array is summarised
    assert "{'max_ratio'" not in toy_page and "0.000123456" not in toy_page


def test_errata_show_printed_and_corrected_values(toy_page):
    errata = toy_page[toy_page.index("Errata\n"):toy_page.index("Claims\n")]
    assert "<table class='errata'>" in errata
    assert "gap = 1235" in errata and "gap = 1.234×10<sup>−4</sup>" in errata
    assert "123.4</b> (violated)" in errata and "0.01</b> (slack)" in errata  # margins of both forms
    assert "Theorem 2 prints 5 for 4" in errata  # the root cause's title
    assert "printed_holds" not in printed_text(toy_page)


def test_each_claim_links_to_the_code_that_registers_it(toy_paper, toy_page):
    loc = claims_html.code_location(toy_paper.get_claim("toyprint.thm2.printed").func)
    assert loc["module"] == __name__ and loc["path"].endswith("test_fedtheory_docs.py") and loc["line"] > 0
    assert f"href='code/{loc['module']}.html#L-{loc['line']}'" in toy_page
    pages = docs.source_pages([toy_paper])
    page = pages[f"{loc['module']}.rst"]
    assert page.startswith(":orphan:") and f'id="L-{loc["line"]}"' in page
    assert ":ref:`toyprint.thm2.printed <claim-toyprint.thm2.printed>`" in page


def test_code_location_follows_the_live_function_when_modules_are_renamed():
    def f(full, seed):
        return {}

    f.__module__ = "fedtheory_checks.renamed.module"
    assert claims_html.code_location(f)["module"] == "fedtheory_checks.renamed.module"
    assert claims_html.code_location(lambda full, seed: {})["line"] > 0
    assert claims_html.code_location(functools.partial(f, True))["qualname"].endswith(".f")
    # no source (a builtin): the module without a line, so no link; never an error
    assert claims_html.code_location(len) == {"module": "builtins", "qualname": "len", "path": None, "line": None}


def test_findings_errata_and_claims_link_to_the_claim_anchors(toy_page):
    anchor = claims_html.anchor_id("toyprint.thm2.printed")
    assert anchor == "claim-toyprint-thm2-printed"
    assert toy_page.count(f"href='#{anchor}'") >= 2  # findings and the errata table
    assert toy_page.index("Findings\n") < toy_page.index("Errata\n") < toy_page.index("Claims\n")


def test_figures_bibtex_and_ledger_are_collapsed(toy_page):
    for cls in ("bibtex", "ledger"):
        assert f"<details class='{cls}'>" in toy_page
    assert ".. _ledger-toyprint:" in toy_page and "list-table" in toy_page


def test_a_page_without_verdicts_says_where_they_come_from(toy_paper):
    page = docs.paper_page(toy_paper, {}, {}, {}, "../../figures")
    assert "No verdicts were supplied" in page and "not run" in page and "<math" in page


def test_printed_length_of_the_builtin_pages():
    """The text a printout of each built-in page shows stays short: on average under 700 characters a
    claim (about 460 now; the one-line pages before showed about 1,000 a claim without verdicts and
    2,000-2,700 with them), the rest behind a click."""
    import fedtheory

    pages, _ = docs.paper_pages(None)
    for key in ("fedrep", "srpfl", "lpproj", "fedlrgd"):
        n = len(fedtheory.get_paper(key).claims())
        visible = printed_text(pages[f"{key}.rst"])
        assert len(visible) / n < 700, (key, len(visible), n)


def test_long_formulas_are_cut_where_a_line_may_wrap():
    expr = "a_1 + a_2 + a_3 + a_4 + a_5 + a_6 + a_7 <= sqrt(b_1 + b_2 + b_3 + b_4 + b_5) + c"
    pieces = claims_html._math_pieces(expr)
    assert all(p.count("(") == p.count(")") for p in pieces) and len(pieces) >= 2
    assert "sqrt(b_1 + b_2 + b_3 + b_4 + b_5)" in " ".join(pieces)
    html_ = claims_html.statement_html("the bound " + " + ".join(f"x_{i}" for i in range(30)) + " <= y holds")
    assert html_.count("<math") >= 2 and html_.startswith("the bound ") and html_.endswith(" holds")


def test_glance_and_text_helpers():
    assert claims_html.glance(None) == ""
    assert "exact in the gap" in claims_html.glance({"status": "holds", "detects": {"factor": 1.0, "of": "gap"}})
    assert "7 replicates would decide" in claims_html.glance(
        {"status": "inconclusive", "power": {"needed": 7, "unit": "replicates"}})
    assert docs.fmt_value({"a": [1.0, 2.5e-9]}) == "a [1, 2.5e-09]"
    from fedtheory_docs_text import html_text, raw_html

    assert html_text("x < 2e-05") == "x &lt; 2×10<sup>−5</sup>"
    assert raw_html("<b>x</b>", "c")[:3] == [".. raw:: html", "   :class: c", ""]


# ============================================================================ print stylesheet and script
def test_print_stylesheet_hides_navigation_and_keeps_details_closed():
    with open(os.path.join(ROOT, "docs", "_static", "fedtheory.css"), encoding="utf-8") as fh:
        css = fh.read()
    body = css[css.index("@media print"):]
    assert "size: A4" in body and ".bd-sidebar-primary" in body and ".bd-header" in body
    assert "details:not([open]) > :not(summary)" in body
    assert os.path.exists(os.path.join(ROOT, "docs", "_static", "fedtheory.js"))


def test_setup_adds_the_stylesheet_and_the_script():
    class App:
        def __init__(self):
            self.css, self.js, self.events = [], [], []

        def connect(self, event, fn):
            self.events.append(event)

        def add_css_file(self, name):
            self.css.append(name)

        def add_js_file(self, name):
            self.js.append(name)

    app = App()
    docs.setup(app)
    assert app.css == ["fedtheory.css"] and app.js == ["fedtheory.js"] and "config-inited" in app.events


# ============================================================================ developer page
def test_developer_page_exists_and_is_linked_from_the_index():
    with open(os.path.join(ROOT, "docs", "developer.rst"), encoding="utf-8") as fh:
        dev = fh.read()
    with open(os.path.join(ROOT, "docs", "index.rst"), encoding="utf-8") as fh:
        index = fh.read()
    assert re.search(r"^   developer$", index, re.M) and ":doc:`developer`" in index
    for part in ("_generated/architecture.svg", "_generated/architecture_rules.rst", "_generated/tree.txt",
                 ".ci/mutation.sh", ".ci/run", "fedtheory.papers", "tests/papers/<paper>/test_<section>.py"):
        assert part in dev, part


def test_import_graph_picture_is_written():
    arch = developer.architecture(ROOT)
    svg = developer.architecture_svg(arch)
    text = svg.decode("utf-8")
    assert text.lstrip().startswith("<?xml") and "<svg" in text
    for box in ("fedtheory.decide", "fedtheory.srpfl", "fedtheory_reproductions"):
        assert box in text, box
    assert svg == developer.architecture_svg(arch)  # deterministic: incremental builds stay incremental
    assert "Import cycles:" in developer.rules_rst(arch)
    tree = developer.folder_tree(ROOT)
    assert "fedtheory/" in tree and "checks/" in tree and "_build" not in tree


def _package(root, name, files: dict):
    os.makedirs(os.path.join(root, name), exist_ok=True)
    for fn, text in {"__init__.py": "", **files}.items():
        with open(os.path.join(root, name, fn), "w", encoding="utf-8") as fh:
            fh.write(text)


def test_architecture_groups_layers_and_flags_broken_rules(tmp_path, monkeypatch):
    """A core module importing a plugin, an import cycle and a long module are reported."""
    root = str(tmp_path)
    _package(root, "fedtheory", {"claims.py": "from fedtheory import plotting\n",
                                 "plotting.py": "import fedtheory.claims\nimport myplugin.paper\n" + "x = 1\n" * 450})
    _package(root, "fedtheory/decide", {"_bounds.py": "from fedtheory import claims\n"})
    _package(root, "fedtheory/subj", {"theory.py": "from fedtheory.claims import x\n"})
    _package(root, "myplugin", {"paper.py": "from fedtheory.subj import theory\nfrom fedtheory import decide\n"})
    with open(os.path.join(root, "pyproject.toml"), "w") as fh:
        fh.write('[tool.setuptools.package-dir]\nmyplugin = "myplugin"\n')
    monkeypatch.setattr(developer, "plugin_packages", lambda: {"myplugin"})
    arch = developer.architecture(root)
    layers = {b: d["layer"] for b, d in arch["boxes"].items()}
    assert layers == {"fedtheory": "core", "fedtheory.decide": "decision kit", "fedtheory.subj": "subjects",
                      "myplugin": "paper plugins"}
    assert arch["core_to_plugins"] == [("fedtheory.plotting", "myplugin.paper")]
    assert any({"fedtheory.claims", "fedtheory.plotting"} <= set(c) for c in arch["cycles"])
    rules = developer.rules_rst(arch)
    assert "Core imports no paper plugin: **no**" in rules and "Import cycles: **1**" in rules
    assert "fedtheory/plotting.py`` (4" in rules
    assert developer.architecture_svg(arch).startswith(b"<?xml")


def test_group_of():
    pk = {"fedtheory.decide", "fedtheory.lpproj"}
    assert developer.group_of("fedtheory.decide._stats", pk, set()) == ("decision kit", "fedtheory.decide")
    assert developer.group_of("fedtheory.lpproj.theory", pk, set()) == ("subjects", "fedtheory.lpproj")
    assert developer.group_of("fedtheory.claims", pk, set()) == ("core", "fedtheory")
    assert developer.group_of("fedtheory_checks.lpproj.alg1", pk | {"fedtheory_checks.lpproj"},
                              {"fedtheory_checks"}) == ("paper plugins", "fedtheory_checks.lpproj")
    assert developer.group_of("meanest.claims", pk, {"meanest"}) == ("paper plugins", "meanest")
    assert developer.group_of("fedtheory_reproductions.lpproj", pk, {"fedtheory_checks"})[0] == \
        "reproductions, benchmarks"


def test_conf_quick_switch(monkeypatch):
    """FEDTHEORY_DOCS_QUICK=1 skips running the gallery and the notebooks; unset, they run."""
    def conf():
        ns = {"__file__": os.path.join(ROOT, "docs", "conf.py")}
        with open(ns["__file__"]) as fh:
            exec(compile(fh.read(), ns["__file__"], "exec"), ns)
        return ns

    monkeypatch.delenv("FEDTHEORY_DOCS_QUICK", raising=False)
    c = conf()
    assert c["sphinx_gallery_conf"]["plot_gallery"] == "True" and c["nb_execution_mode"] == "auto"
    monkeypatch.setenv("FEDTHEORY_DOCS_QUICK", "1")
    c = conf()
    assert c["sphinx_gallery_conf"]["plot_gallery"] == "False" and c["nb_execution_mode"] == "off"
    assert c["html_sidebars"]["papers/code/*"] == []


@pytest.mark.parametrize("modname", ["fedtheory_docs", "fedtheory_docs_text", "fedtheory_docs_claims",
                                     "fedtheory_docs_papers", "fedtheory_docs_developer"])
def test_docstring_examples_of_the_generators(modname):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(modname))
    assert result.failed == 0
