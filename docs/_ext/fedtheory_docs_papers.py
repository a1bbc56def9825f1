"""One documentation page per paper plugin (``docs/papers/<key>.rst``), the source pages of the
modules that register the claims (``docs/papers/code/<module>.rst``) and ``references.bib``.

A paper page is written to be read on screen and printed: the citation, the findings
(:mod:`fedtheory.findings`) as lists of links, what is verified and the run, the errata with their
printed and corrected values, then every claim as one line (identifier, reference, outcome, typeset
statement, margin, link to its code) grouped by section, the figures and the results ledger. The
detail of a claim (evidence, computed values, margins, referee, regime), the figures, the BibTeX and
the results ledger open on a click (HTML ``<details>``) and stay closed in print. Everything comes
from the public :class:`fedtheory.Paper` API and the live claim objects (a claim's code is found from
its function, never from a module name), so a third-party plugin gets the same page.
"""
from __future__ import annotations

import json
import os
import re

from fedtheory_docs_claims import (STATUS_CLASS, claim_html, code_location, errata_html,
                                   findings_html, status_of)
from fedtheory_docs_text import GENERATED, heading, raw_html, rst_escape

DOCS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(DOCS)

#: outcome -> its role (colour) on the paper pages: the seven outcomes of fedtheory.claims.STATUSES
STATUS_ROLE = dict(STATUS_CLASS)
LEDGER_ROLE = {"checked": "ld-checked", "unchecked": "ld-unchecked", "not-checkable": "ld-notcheckable",
               "out-of-scope": "ld-outofscope"}
#: the folder (under docs/papers) of the claim modules' source pages
CODE_DIR = "code"


# ============================================================================ inputs
def _bibkey(citation) -> str:
    bib = citation.to_bibtex()
    m = re.match(r"\s*@\w+\s*\{\s*([^,\s]+)\s*,", bib)
    return m.group(1) if m else citation.bibkey()


def references_bib(papers) -> str:
    """BibTeX of every citation of ``papers`` (each version once)."""
    seen, out = set(), []
    for p in papers:
        for c in p.citations():
            k = _bibkey(c)
            if k not in seen:
                seen.add(k)
                out.append(c.to_bibtex())
    return "\n\n".join(out) + "\n"


def load_verdicts(path) -> tuple[dict, dict]:
    """``(verdicts by claim id, provenance)`` from a ``fedtheory verify --json`` file (empty
    without a path)."""
    if not path:
        return {}, {}
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    return {v["id"]: v for v in data.get("verdicts", [])}, data.get("provenance", {})


def figure_files(figdir: str) -> dict:
    """``figure id -> [png paths]`` from the sidecar JSON files of a figures folder."""
    out = {}
    if not os.path.isdir(figdir):
        return out
    for name in sorted(os.listdir(figdir)):
        if not name.endswith(".json"):
            continue
        png = os.path.join(figdir, name[:-5] + ".png")
        try:
            with open(os.path.join(figdir, name), encoding="utf-8") as fh:
                meta = json.load(fh)
        except (OSError, ValueError):
            continue
        fid = meta.get("figure_id") if isinstance(meta, dict) else None
        if fid and os.path.exists(png):
            out.setdefault(fid, []).append(png)
    return out


def gallery_scripts(folder=None) -> dict:
    """``figure stem -> gallery script file name``: ``plot_[NN_]<stem>.py`` in ``docs/gallery``, where
    the stem is the figure id with ``.`` and ``-`` as ``_`` (``fedrep.fig1-mtest`` ->
    ``plot_1_fedrep_fig1_mtest.py``)."""
    folder = os.path.join(DOCS, "gallery") if folder is None else folder
    out = {}
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        m = re.fullmatch(r"plot_(?:\d+_)?(\w+)\.py", name)
        if m:
            out.setdefault(m.group(1), name)
    return out


def claim_sections(paper) -> list[tuple[str, list]]:
    """The paper's claims grouped by the section of the first ledger row naming them (ledger
    order), then the claims no row names."""
    claims = paper.claims()
    by_id = {c.id: c for c in claims}
    aliases = paper.aliases()
    groups, placed = {}, set()
    for row in paper.ledger():
        for cid in row.claims:
            cid = aliases.get(cid, cid)
            if cid in by_id and cid not in placed:
                groups.setdefault(row.section or "Other", []).append(by_id[cid])
                placed.add(cid)
    rest = [c for c in claims if c.id not in placed]
    if rest:
        groups.setdefault("Other", []).extend(rest)
    return list(groups.items())


def section_title(section: str) -> str:
    """``"4.1"`` -> ``"Section 4.1"``; named sections as they are; ``"Other"`` -> ``"Other claims"``."""
    s = section.strip()
    if not s or s == "Other":
        return "Other claims"
    if re.match(r"^(\d|[IVX]+(-|\.|$))", s):  # "4.1", "II-B"
        return f"Section {s}"
    return s


def code_page_name(module: str) -> str:
    """The source page of a module, relative to ``docs/papers`` without suffix."""
    return f"{CODE_DIR}/{module}"


# ============================================================================ parts of a page
def _details(summary_html: str, body: list[str], cls: str = "") -> list[str]:
    """reST body lines between the opening and closing tags of a ``<details>`` element."""
    c = f" class='{cls}'" if cls else ""
    return (raw_html(f"<details{c}><summary>{summary_html}</summary>") + body
            + raw_html("</details>"))


def _header(paper) -> list[str]:
    key, cit = paper.key, paper.citation
    L = [f".. {GENERATED}", "", f".. _paper-{key}:", "", heading(rst_escape(cit.title), "=")]
    for r in (*STATUS_ROLE.values(), *LEDGER_ROLE.values()):
        L.append(f".. role:: {r}")
    L += ["", f"**{rst_escape(cit.author_text())} ({cit.year})**, {rst_escape(cit.venue)}. Paper key ``{key}``. "
          f"{rst_escape(paper.description)}".rstrip(), ""]
    L.append(f"**Cite:** {rst_escape(cit.text())} :cite:p:`{_bibkey(cit)}`")
    for other in paper.versions:
        L.append(f"\n**Also cited:** {rst_escape(other.text())} :cite:p:`{_bibkey(other)}`")
    links = [f"`arXiv:{cit.arxiv} <https://arxiv.org/abs/{cit.arxiv}>`__" if cit.arxiv else "",
             f"`publisher page <{cit.url}>`__" if cit.url else "",
             f"`doi:{cit.doi} <https://doi.org/{cit.doi}>`__" if cit.doi else ""]
    links = [x for x in links if x]
    if links:
        L.append("\n**Links:** " + ", ".join(links))
    L.append("")
    bib = [".. code-block:: bibtex", ""] + ["   " + ln for ln in paper.cite().splitlines()] + [""]
    return L + _details(f"BibTeX (also <code>fedtheory cite {key}</code>)", bib, "bibtex")


def _glance(paper, claims, rows, mine, prov) -> list[str]:
    from fedtheory.ledger import ledger_counts

    key = paper.key
    n_sec = len(claim_sections(paper))
    L = [heading("What is verified", "-"),
         f"{len(claims)} claims in {n_sec} sections (:ref:`below <claims-{key}>`), {len(paper.figures())} figures "
         f"and a :ref:`results ledger <ledger-{key}>` of {len(rows)} numbered results of the paper"
         + (": " + ", ".join(f"{n} {s}" for s, n in ledger_counts(rows).items() if n) if rows else "") + ".", ""]
    if mine:
        counts = {}
        for v in mine.values():
            counts[status_of(v)] = counts.get(status_of(v), 0) + 1
        L.append("Verdicts of the run shown here: " + ", ".join(
            f":{STATUS_ROLE[s]}:`{counts.get(s, 0)} {s}`" for s in STATUS_ROLE) + ".")
        if len(mine) < len(claims):
            L.append(f" {len(claims) - len(mine)} claims of the catalogue were not in that run.")
        pv = ", ".join(f"{k} {prov[k]}" for k in ("fedtheory", "git_commit", "date", "mode", "platform")
                       if prov.get(k))
        L += ["", f"The run: {rst_escape(pv)}." if pv else "", ""]
    else:
        L += ["Verdicts come from ``fedtheory verify`` (``fedtheory verify --paper "
              f"{key} -v`` prints them). This build was made without a verify run; build with "
              "``FEDTHEORY_VERIFY_JSON=out.json`` after ``fedtheory verify --json out.json`` to show them "
              "here. :doc:`/building` says how.", ""]
    L += ["Each claim below is one line: its identifier, the result of the paper it checks, its outcome, "
          "the statement, how tightly it was decided and a link to the code that checks it. Click a line "
          "for the evidence, the computed and theoretical values and the regime.", ""]
    return L


def _findings(paper, mine: dict):
    """``(reST lines, findings or None)``."""
    from fedtheory.findings import findings

    L = [heading("Findings", "-")]
    if not mine:
        return L + ["No verdicts were supplied to this build, so there are no findings "
                    "to show: build with ``FEDTHEORY_VERIFY_JSON=out.json`` after ``fedtheory verify --json out.json`` "
                    f"(or run ``fedtheory findings --paper {paper.key}``). :doc:`/tutorials/reading_findings` "
                    "explains the findings.", ""], None
    f = findings(paper, [{**v, "status": status_of(v)} for v in mine.values()])
    L += raw_html(findings_html(f), "findings")
    L += [":doc:`/tutorials/reading_findings` explains the sections, margins and detection factors.", ""]
    return L, f


def _errata(paper, claims, mine) -> list[str]:
    L = [heading("Errata", "-")]
    errata = [c for c in claims if status_of(mine.get(c.id)) == "erratum"]
    if not mine:
        return L + ["A claim is an erratum when its verdict is ``erratum``: the form printed in the "
                    "paper fails numerically and a minimal correction holds, decided by an independent computation "
                    "(the referee). The errata are listed here when the build has a verify run (see above).", ""]
    if not errata:
        return L + ["No claim of this paper was an ``erratum`` in the run shown here.", ""]
    rcs = paper.root_causes()
    entries = [(c, mine[c.id], getattr(rcs.get(mine[c.id].get("root_cause") or ""), "title", ""))
               for c in errata]
    L += [f"{len(errata)} claims were ``erratum``: the printed form fails and the corrected form holds. "
          "The values of both forms are side by side (with their margins, observed over bound where the claim "
          "is a bound); the referee that decided each is in the claim's detail.", ""]
    return L + raw_html(errata_html(entries), "errata-table")


def _claims(paper, mine, f) -> list[str]:
    key = paper.key
    items = {it.id: it for s in (f.sections if f else ()) for g in s.groups for it in g.items}
    L = [f".. _claims-{key}:", "", heading("Claims", "-"),
         f"Every claim of the catalogue (``fedtheory list --paper {key}``), grouped by the section of the "
         "paper it comes from.", ""]
    for section, cl in claim_sections(paper):
        L.append(heading(rst_escape(section_title(section)), "~"))
        for c in cl:
            loc = code_location(c.func)
            href = None
            if loc and loc.get("path") and loc.get("line"):  # the pages source_pages writes
                href = f"{code_page_name(loc['module'])}.html#L-{loc['line']}"
            L += [f".. _claim-{c.id}:", ""]
            L += raw_html(claim_html(c, mine.get(c.id), items.get(c.id), href), "claim-entry")
    return L


def _figures(paper, figs: dict, figdir_rel: str) -> list[str]:
    key, cit = paper.key, paper.citation
    L = [heading("Figures", "-")]
    gallery = gallery_scripts()
    if not paper.figures():
        return L + ["This paper registers no figures.", ""]
    L += ["Each figure opens on a click; the gallery page shows the code that made it.", ""]
    for f in paper.figures():
        script = gallery.get(re.sub(r"[^A-Za-z0-9]", "_", f.id))
        code = (f" :ref:`Gallery page <sphx_glr_auto_gallery_{script}>`." if script else "")
        cap = f.caption or f"{f.reference} of {cit.short()}"
        L += [f".. _figure-{f.id}:", "", heading(rst_escape(f.reference), "~"),
              f"{rst_escape(cap)} (figure ``{f.id}``).{code}", ""]
        pngs = figs.get(f.id, [])
        if not pngs:
            L += [f"Not in the tracked ``figures/`` folder; ``fedtheory reproduce {key} --figure {f.id}`` "
                  "makes it.", ""]
            continue
        body = []
        for png in pngs:
            body += [f".. figure:: {figdir_rel}/{os.path.basename(png)}", "   :width: 100%", f"   :alt: {f.id}", "",
                     f"   ``{os.path.basename(png)}``, made by ``fedtheory reproduce {key}``", ""]
        L += _details("the figure" + (f" ({len(pngs)} panels)" if len(pngs) > 1 else ""), body, "figure")
    return L


def _ledger(paper, rows) -> list[str]:
    from fedtheory.ledger import LEDGER_STATUSES, ledger_counts

    key = paper.key
    L = [f".. _ledger-{key}:", "", heading("Results ledger", "-")]
    if not rows:
        return L + ["This paper has no results ledger.", ""]
    counts = ledger_counts(rows)
    L += [f"Every numbered result of the paper ({len(rows)}) and what checks it: " + ", ".join(
        f":{LEDGER_ROLE[s]}:`{counts[s]} {s}`" for s in LEDGER_STATUSES) + ".", ""]
    table = [".. list-table::", "   :header-rows: 1", "   :widths: 16 8 12 36 28", "   :class: ledger", "",
             "   * - result", "     - section", "     - status", "     - summary", "     - checked by / reason"]
    for r in rows:
        ref = rst_escape(r.ref) + (f" ({rst_escape(r.alt)})" if r.alt else "")
        if r.status == "checked":
            what = ", ".join([f":ref:`{i} <claim-{paper.get_claim(i).id}>`" if paper.get_claim(i) else f"``{i}``"
                              for i in r.claims] + [f":ref:`{i} <figure-{i}>`" for i in r.figures])
        else:
            what = rst_escape(r.reason)
        table += [f"   * - {ref}", f"     - {rst_escape(r.section) or '--'}",
                  f"     - :{LEDGER_ROLE[r.status]}:`{r.status}`", f"     - {rst_escape(r.summary) or '--'}",
                  f"     - {what or '--'}"]
    return L + _details(f"the table of the {len(rows)} results", table + [""], "ledger")


def paper_page(paper, verdicts: dict, prov: dict, figs: dict, figdir_rel: str) -> str:
    """The reST page of one paper (see the module docstring)."""
    claims = paper.claims()
    rows = paper.ledger()
    mine = {c.id: verdicts[c.id] for c in claims if c.id in verdicts}
    fl, f = _findings(paper, mine)
    L = _header(paper) + fl + _glance(paper, claims, rows, mine, prov) + _errata(paper, claims, mine)
    L += _claims(paper, mine, f) + _figures(paper, figs, figdir_rel) + _ledger(paper, rows)
    L += [heading("References", "-"), ".. bibliography::", "   :filter: docname in docnames", ""]
    return "\n".join(L)


# ============================================================================ source pages
def source_pages(papers) -> dict:
    """``{file name under docs/papers/code: reST}``: one page per module that registers claims, its
    source with numbered, linkable lines (``#L-<n>``; a claim's line is highlighted) and links back to
    the claims it registers."""
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import PythonLexer

    mods: dict = {}
    for p in papers:
        for c in p.claims():
            loc = code_location(c.func)
            if loc and loc.get("path") and loc.get("line"):
                entry = mods.setdefault(loc["module"], {"path": loc["path"], "claims": []})
                entry["claims"].append((p, c, loc["line"]))
    pages = {}
    for mod, d in sorted(mods.items()):
        with open(d["path"], encoding="utf-8") as fh:
            src = fh.read()
        lines = sorted({ln for _, _, ln in d["claims"]})
        code = highlight(src, PythonLexer(), HtmlFormatter(lineanchors="L", linenos="inline", anchorlinenos=True,
                                                            hl_lines=lines))
        rel = os.path.relpath(d["path"], ROOT).replace(os.sep, "/")
        rel = rel if not rel.startswith("..") else os.path.basename(d["path"])
        back = ", ".join(f":ref:`{c.id} <claim-{c.id}>` (line {ln})" for _, c, ln in d["claims"])
        papers_of = sorted({p.key for p, _, _ in d["claims"]})
        L = [":orphan:", "", f".. {GENERATED}", "", heading(rst_escape(mod), "="),
             f"Source of ``{rel}``: the claims of " + ", ".join(f":doc:`../{k}`" for k in papers_of)
             + f" it registers: {back}.", ""]
        L += raw_html(f"<div class='highlight-python notranslate codepage'>{code}</div>")
        pages[f"{mod}.rst"] = "\n".join(L)
    return pages


# ============================================================================ all pages
def paper_pages(verify_json=None, figdir=None) -> tuple[dict, str]:
    """``({file name under docs/papers: reST}, references.bib text)`` for every installed paper.

    Parameters
    ----------
    verify_json : str, optional
        A ``fedtheory verify --json`` file whose verdicts the pages show.
    figdir : str, optional
        The folder of reproduced figures (default: the repository's ``figures/``).
    """
    from fedtheory.plugins import get_paper, paper_keys

    figdir = os.path.join(ROOT, "figures") if figdir is None else figdir
    verdicts, prov = load_verdicts(verify_json)
    figs = figure_files(figdir)
    figdir_rel = os.path.relpath(figdir, os.path.join(DOCS, "papers")).replace(os.sep, "/")
    papers = [get_paper(k) for k in paper_keys()]
    pages = {f"{p.key}.rst": paper_page(p, verdicts, prov, figs, figdir_rel) for p in papers}
    idx = [f".. {GENERATED}", "", heading("Papers", "="),
           "One page per paper plugin installed (``fedtheory list``): its citation, the findings, the errata "
           "with their printed and corrected values, every claim with its outcome and a link to its code, the "
           "reproduced figures and the results ledger. Each page prints on a few pages; the detail of a claim "
           "opens on a click.", "", ".. list-table::", "   :header-rows: 1", "", "   * - key",
           "     - paper", "     - claims", "     - ledger (checked / results)"]
    for p in papers:
        rows = p.ledger()
        checked = sum(r.status == "checked" for r in rows)
        idx += [f"   * - :doc:`{p.key} <{p.key}>`", f"     - {rst_escape(p.citation.text())}",
                f"     - {len(p.claims())}", f"     - {checked} / {len(rows)}"]
    idx += ["", ".. toctree::", "   :hidden:", ""] + [f"   {p.key}" for p in papers]
    pages["index.rst"] = "\n".join(idx) + "\n"
    return pages, references_bib(papers)
