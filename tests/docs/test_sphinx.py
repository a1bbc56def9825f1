"""The documentation site's generators (docs/_ext/fedtheory_docs.py), without a Sphinx build.

CI builds the site itself (``python3 -m sphinx -W --keep-going -b html docs docs/_build/html``);
these tests check what the generators write: every public name of every fedtheory module is in
the API reference, and the paper pages carry the ledger, claims, errata, figures and BibTeX of any
plugin, built-in or third-party.
"""
from __future__ import annotations

import importlib
import json
import os
import re
import sys
import types

import pytest

import fedtheory

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "docs", "_ext"))
docs = pytest.importorskip("fedtheory_docs", reason="docs/_ext is missing")


def _all_modules() -> list[str]:
    """Every public module, found independently of the generator (from the package's files)."""
    base = os.path.dirname(fedtheory.__file__)
    names = ["fedtheory"]
    for folder, _, files in os.walk(base):
        rel = os.path.relpath(folder, base)
        pkg = "fedtheory" if rel == "." else "fedtheory." + rel.replace(os.sep, ".")
        if not os.path.exists(os.path.join(folder, "__init__.py")) or "__pycache__" in pkg:
            continue
        if pkg != "fedtheory":
            names.append(pkg)
        names += [f"{pkg}.{f[:-3]}" for f in files if f.endswith(".py") and f != "__init__.py"]
    return sorted(n for n in names if not any(p.startswith("_") for p in n.split(".")))


@pytest.fixture(scope="module")
def api():
    return docs.api_pages()


def _documented(pages) -> set:
    """Full names with an autosummary entry (so a page of their own)."""
    out = set()
    for name, text in pages.items():
        if name == "index.rst":
            continue
        mod = name[:-4]
        out |= {f"{mod}.{n}" for n in docs._autosummary_names(text)}
    return out


def test_every_public_name_is_in_the_api_reference(api):
    documented = _documented(api)
    missing = []
    for modname in _all_modules():
        mod = importlib.import_module(modname)
        page = api.get(f"{modname}.rst")
        if page is None:
            missing.append(f"{modname} (no page)")
            continue
        linked = dict(re.findall(r":py:obj:`(\w+) <([\w.]+)>`", page))
        subs = set(re.findall(r":mod:`(\w+) <[\w.]+>`", page))
        # identifiers only: under pytest (which rewrites the plugin's modules) a package whose
        # __all__ is built from dir() also lists "@py_builtins" and "@pytest_ar"
        for name in [n for n in getattr(mod, "__all__", []) if n.isidentifier()]:
            obj = getattr(mod, name)
            if isinstance(obj, types.ModuleType):
                ok = name in subs
            elif f"{modname}.{name}" in documented:
                ok = True
            else:  # re-exported: linked to the page where it is documented, and the same object
                target = linked.get(name)
                ok = target in documented and obj is _resolve(target)
            if not ok:
                missing.append(f"{modname}.{name}")
    assert not missing, f"public names missing from the API reference: {missing}"


def _resolve(full: str):
    mod, _, name = full.rpartition(".")
    return getattr(importlib.import_module(mod), name)


def test_each_name_is_documented_once_and_the_index_lists_every_module(api):
    documented = _documented(api)
    objs = {}
    for full in documented:
        obj = _resolve(full)
        if isinstance(obj, (types.FunctionType, type)):
            assert id(obj) not in objs, f"{full} and {objs.get(id(obj))} document the same object"
            objs[id(obj)] = full
    toc = set(re.findall(r"^   (fedtheory[\w.]*)$", api["index.rst"], re.M))
    assert toc == {p[:-4] for p in api if p != "index.rst"}
    assert len(documented) > 300  # hundreds of public names


def test_api_reference_follows_all(monkeypatch):
    """A name added to a module's ``__all__`` appears without touching the docs."""
    import fedtheory.linalg as linalg

    def brand_new_helper():
        """A function added to ``__all__`` after the docs were written."""

    brand_new_helper.__module__ = "fedtheory.linalg"
    monkeypatch.setattr(linalg, "brand_new_helper", brand_new_helper, raising=False)
    monkeypatch.setattr(linalg, "__all__", [*linalg.__all__, "brand_new_helper"])
    pages = docs.api_pages()
    assert "fedtheory.linalg.brand_new_helper" in _documented(pages)


def test_rst_escape_survives_docutils():
    """Statements full of reST markup characters render as the same text, with no system message."""
    from docutils.core import publish_doctree

    for text in ["dist(B*, B^t) <= |x|_2 and `a` * b", "- a leading dash", "1. numbered", "x_i_ and [1]_",
                 "|z_1| + ... + |z_n|", "a \\ backslash", "**bold?** and *e*"]:
        tree = publish_doctree(docs.rst_escape(text), settings_overrides={"report_level": 1, "halt_level": 5})
        msgs = [n for n in tree.findall() if n.tagname == "system_message"]
        assert not msgs, (text, [m.astext() for m in msgs])
        assert tree.astext() == " ".join(text.split()), text


@pytest.fixture
def toy_paper():
    from fedtheory import LedgerRow, Paper, register_paper, unregister_paper

    paper = Paper(key="toydocs", title="A toy paper with *stars* and |bars|", authors=["A. Author", "B. Writer"],
                  year=2025, venue="arXiv", arxiv="2501.00001", description="Toy plugin for the docs tests.")

    @paper.claim("toydocs.eq1.identity", reference="Eq. (1)", statement="1 + 1 = 2 for x_i",
                 regime="integers", aliases=("toydocs.old-identity",))
    def _eq1(full, seed):
        return dict(status="holds", observed=2, bound=2)

    @paper.claim("toydocs.eq2.printed", reference="Eq. (2)", statement="printed 2 + 2 = 5")
    def _eq2(full, seed):
        return dict(status="erratum", observed={"printed": 4, "corrected": 4}, bound={"printed": 5, "corrected": 4},
                    referee="integer arithmetic", root_cause="five-for-four")

    @paper.figure("toydocs.fig1", reference="Figure 1", caption="A line")
    def _fig1(outdir, full, seed):
        return {}

    paper.set_ledger([
        LedgerRow("Eq. (1)", "equation", "1 + 1 = 2", "checked", section="2.1", claims=("toydocs.eq1.identity",),
                  figures=("toydocs.fig1",)),
        LedgerRow("Eq. (1')", "equation", "the same, by its former id", "checked", section="2.1",
                  claims=("toydocs.old-identity",)),
        LedgerRow("Eq. (2)", "equation", "2 + 2 = 4", "checked", section="App. A", claims=("toydocs.eq2.printed",)),
        LedgerRow("Lemma 3", "lemma", "a proof step", "not-checkable", section="2.1", reason="proof step"),
    ])
    register_paper(paper)
    yield paper
    unregister_paper("toydocs")


def test_paper_page_of_a_third_party_plugin(toy_paper, tmp_path):
    figdir = tmp_path / "figures"
    figdir.mkdir()
    (figdir / "toydocs_fig1.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (figdir / "toydocs_fig1.json").write_text(json.dumps({"figure_id": "toydocs.fig1"}))
    pages, bib = docs.paper_pages(None, figdir=str(figdir))
    page = pages["toydocs.rst"]
    assert "toydocs" in pages["index.rst"] and "   toydocs" in pages["index.rst"]
    # citation and BibTeX, cited through sphinxcontrib-bibtex
    key = re.match(r"@\w+\{([^,]+),", toy_paper.citation.to_bibtex()).group(1)
    assert f":cite:p:`{key}`" in page and key in bib and ".. bibliography::" in page
    # ledger with counts, alias rows resolved to the claim's anchor
    assert ":ld-checked:`3 checked`" in page and ":ld-notcheckable:`1 not-checkable`" in page
    assert ":ref:`toydocs.old-identity <claim-toydocs.eq1.identity>`" in page
    assert ":ref:`toydocs.fig1 <figure-toydocs.fig1>`" in page
    # claims grouped by section, with statement and regime, markup escaped
    assert page.index("Section 2.1") < page.index(".. _claim-toydocs.eq1.identity:") < page.index("App. A")
    assert "<code class='cl-id'>toydocs.eq1.identity</code>" in page
    assert "<msub><mi>x</mi><mrow><mi>i</mi></mrow></msub>" in page and "<dt>regime</dt><dd>integers</dd>" in page
    assert "A toy paper with \\*stars\\* and \\|bars\\|" in page
    # the figure from the figures folder, with its caption
    assert ".. figure:: " in page and "toydocs_fig1.png" in page and "A line" in page
    # no verify run: says where verdicts come from, lists no verdict
    assert "fedtheory verify" in page and "<span class='st-none'>not run</span>" in page
    assert "No verdicts were supplied" in page


def test_paper_page_shows_verdicts_and_errata(toy_paper, tmp_path):
    verdicts = [c.evaluate().to_dict() for c in toy_paper.claims()]
    path = tmp_path / "verify.json"
    path.write_text(json.dumps({"provenance": {"fedtheory": "9.9", "mode": "quick", "date": "2026-01-01"},
                                "verdicts": verdicts}))
    pages, _ = docs.paper_pages(str(path), figdir=str(tmp_path))
    page = pages["toydocs.rst"]
    assert "<span class='st-holds'>holds</span>" in page and "<span class='st-erratum'>erratum</span>" in page
    assert ":st-holds:`1 holds`" in page and ":st-erratum:`1 erratum`" in page
    # the findings come first, ordered as a referee report, with the erratum under its root cause
    findings = page[page.index("Findings\n"):page.index("What is verified\n")]
    assert page.index("Findings\n") < page.index("What is verified\n") < page.index("Errata\n")
    assert findings.index("Major findings") < findings.index("Errata") < findings.index("What holds")
    assert "href='#claim-toydocs-eq2-printed'" in findings and "five-for-four" in findings
    errata = page[page.index("Errata\n"):page.index("Claims\n")]
    assert "toydocs.eq2.printed" in errata and "toydocs.eq1.identity" not in errata
    assert "fedtheory 9.9" in page
    assert "<dt>theory</dt><dd><table class='kv'><tr><td class='k'>printed</td><td><span class='n'>5</span>" in page
    # the figure is not in this folder: the page says how to make it
    assert "fedtheory reproduce toydocs --figure toydocs.fig1" in page


def test_builtin_paper_pages_and_bib():
    pages, bib = docs.paper_pages(None)
    for key in ("fedrep", "srpfl", "lpproj", "fedlrgd"):
        page = pages[f"{key}.rst"]
        paper = fedtheory.get_paper(key)
        for c in paper.claims():
            assert f".. _claim-{c.id}:" in page
        for f in paper.figures():
            assert f".. _figure-{f.id}:" in page
        for cit in paper.citations():
            assert cit.to_bibtex().splitlines()[0] in bib
    # SRPFL is cited in two versions; their keys differ
    keys = re.findall(r"^@\w+\{([^,]+),", bib, re.M)
    assert len(keys) == len(set(keys)) >= 5


def test_fmt_value():
    assert docs.fmt_value(0.123456789) == "0.1235"
    assert docs.fmt_value({"a": [1.0, 2.5e-9]}) == "a [1, 2.5e-09]"
    assert docs.fmt_value("x" * 300, width=20) == "x" * 17 + "..."


def test_conf_matches_what_the_gallery_and_notebooks_rely_on():
    """docs/conf.py: the sphinx-gallery settings the gallery scripts are written for, myst-nb
    executing the notebooks, and no extension that needs the network."""
    conf = {"__file__": os.path.join(ROOT, "docs", "conf.py")}
    with open(conf["__file__"]) as fh:
        exec(compile(fh.read(), conf["__file__"], "exec"), conf)
    g = conf["sphinx_gallery_conf"]
    assert (g["examples_dirs"], g["gallery_dirs"], g["filename_pattern"]) == ("gallery", "auto_gallery", r"/plot_")
    assert g["image_scrapers"] == ("matplotlib", "gallery_scraper.png_scraper")
    assert g["download_all_examples"] is False and g["remove_config_comments"] is True
    assert conf["nb_execution_mode"] == "auto" and conf["nb_execution_raise_on_error"] is True
    assert "sphinx.ext.intersphinx" not in conf["extensions"]
    for ext in ("sphinx.ext.autosummary", "numpydoc", "sphinx_gallery.gen_gallery", "sphinxcontrib.bibtex",
                "myst_nb", "fedtheory_docs"):
        assert ext in conf["extensions"]
    assert conf["html_theme"] == "pydata_sphinx_theme"


def test_gallery_scripts_link_figures_to_their_gallery_page(tmp_path):
    (tmp_path / "plot_1_fedrep_fig1_mtest.py").write_text("")
    (tmp_path / "plot_lpproj_fig1.py").write_text("")
    (tmp_path / "helper.py").write_text("")
    assert docs.gallery_scripts(str(tmp_path)) == {"fedrep_fig1_mtest": "plot_1_fedrep_fig1_mtest.py",
                                                   "lpproj_fig1": "plot_lpproj_fig1.py"}
