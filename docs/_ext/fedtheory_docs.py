"""Page generators of fedtheory's documentation site (a small Sphinx extension).

Everything here is generated at build time (``config-inited``, before Sphinx lists the sources), so
the pages can never fall behind the code:

* the **API reference** (``docs/api/``): one page per public ``fedtheory`` module, listing every
  name of the module's ``__all__``. A name is documented once, on the page of the module that
  defines it (autosummary, ``:toctree: generated``); the other modules that re-export it link
  to that page. :func:`api_pages` returns the pages as text (``tests/test_docs.py`` checks that
  every public name appears).
* one **page per paper** (``docs/papers/``), from the plugin alone (the public
  :class:`fedtheory.Paper` API, so a third-party plugin gets a page too): citation and BibTeX,
  the findings (:mod:`fedtheory.findings`, first), the results ledger with its counts, the claims
  grouped by section, the errata and the
  figures of the tracked ``figures/`` folder. With ``FEDTHEORY_VERIFY_JSON`` pointing to a
  ``fedtheory verify --json`` file, each claim shows its verdict. :func:`paper_pages`.
* ``docs/_generated/references.bib``: every plugin's citations, cited with sphinxcontrib-bibtex.
* ``docs/notebooks/``: a copy of ``examples/*.ipynb`` with an index page (myst-nb renders them).
"""
from __future__ import annotations

import importlib
import json
import math
import os
import re
import types

DOCS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(DOCS)

#: core modules first (in this order), then the subject packages and their modules
CORE_ORDER = ("fedtheory", "fedtheory.claims", "fedtheory.paper", "fedtheory.plugins", "fedtheory.ledger",
              "fedtheory.testing", "fedtheory.montecarlo", "fedtheory.linalg", "fedtheory.random",
              "fedtheory.plotting", "fedtheory.explore", "fedtheory.cache", "fedtheory.parallel",
              "fedtheory.provenance", "fedtheory.findings", "fedtheory.report", "fedtheory.cli")
#: the subject packages (each paper's linear model, algorithms and closed forms)
SUBJECTS = ("representation", "srpfl", "lpproj", "lowrank")
#: modules that are not part of the API (entry points of the console script)
SKIP = ("fedtheory.__main__",)

#: outcome -> its role (colour) on the paper pages: the seven outcomes of fedtheory.claims.STATUSES
STATUS_ROLE = {"holds": "st-holds", "erratum": "st-erratum", "refuted": "st-refuted",
               "not-reproduced": "st-notreproduced", "vacuous": "st-vacuous", "inconclusive": "st-inconclusive",
               "error": "st-error"}
LEDGER_ROLE = {"checked": "ld-checked", "unchecked": "ld-unchecked", "not-checkable": "ld-notcheckable",
               "out-of-scope": "ld-outofscope"}


# ============================================================================ small helpers
def rst_escape(text) -> str:
    """Text made safe for reST inline context: one line, inline markup characters escaped.

    Examples
    --------
    >>> rst_escape("dist(B*, B^t) <= |x|_2  and `a`")
    'dist(B\\\\*, B^t) <= \\\\|x\\\\|\\\\_2  and \\\\`a\\\\`'
    """
    s = " ".join(str(text).split())
    s = re.sub(r"([\\`*_|])", r"\\\1", s)
    if re.match(r"^([-+#]|\d+[.)]|\(\d+\))(\s|$)", s):  # would start a list
        s = "\\ " + s
    return s


def heading(text: str, char: str, over: bool = False) -> str:
    """A reST section title underlined (and overlined) with ``char``."""
    line = char * max(len(text), 3)
    return (f"{line}\n{text}\n{line}\n" if over else f"{text}\n{line}\n")


def fmt_value(x, digits: int = 4, width: int = 160) -> str:
    """A compact human form of a verdict value: floats to ``digits`` significant digits, nested
    dicts and lists shortened, cut at ``width`` characters.

    Examples
    --------
    >>> fmt_value({"printed": 0.123456789, "corrected": [1e-30, 2.0, 3, 4, 5, 6]})
    'printed 0.1235; corrected [1e-30, 2, 3, 4, 5, ...]'
    """
    def f(v, depth=0):
        if isinstance(v, bool) or v is None:
            return str(v)
        if isinstance(v, float):
            if math.isnan(v) or math.isinf(v):
                return str(v)
            return f"{v:.{digits}g}"
        if isinstance(v, int):
            return str(v)
        if isinstance(v, dict):
            sep = "; " if depth == 0 else ", "
            return ("" if depth == 0 else "{") + sep.join(f"{k} {f(w, depth + 1)}" for k, w in v.items()) + \
                ("" if depth == 0 else "}")
        if isinstance(v, (list, tuple)):
            return "[" + ", ".join(f(w, depth + 1) for w in v[:5]) + (", ..." if len(v) > 5 else "") + "]"
        return str(v)

    s = f(x)
    return s if len(s) <= width else s[: width - 3] + "..."


def write_if_changed(path: str, text: str) -> bool:
    """Write ``text`` to ``path`` unless it already holds exactly that (keeps incremental builds
    incremental); returns whether the file was written."""
    if os.path.exists(path):
        with open(path, encoding="utf-8") as fh:
            if fh.read() == text:
                return False
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    return True


def sync_dir(folder: str, files: dict, keep=()) -> None:
    """Make ``folder`` hold exactly ``files`` (name -> text) plus the entries in ``keep``."""
    os.makedirs(folder, exist_ok=True)
    for name, text in files.items():
        write_if_changed(os.path.join(folder, name), text)
    for name in os.listdir(folder):
        if name not in files and name not in keep and os.path.isfile(os.path.join(folder, name)):
            os.remove(os.path.join(folder, name))


# ============================================================================ API reference
def public_modules() -> list[str]:
    """Every public ``fedtheory`` module (no component starting with ``_``), core first."""
    import fedtheory

    names = ["fedtheory"] + [n for n in _submodules(fedtheory.__path__[0], "fedtheory")
                             if not any(part.startswith("_") for part in n.split("."))]
    names = [n for n in names if n not in SKIP]
    core = [n for n in CORE_ORDER if n in names] + sorted(n for n in names if n not in CORE_ORDER
                                                         and not _is_subject(n))
    return core + sorted(n for n in names if n not in core)


def _is_subject(modname: str) -> bool:
    """Whether a module belongs to a subject package (the linear models of the papers)."""
    return modname.split(".")[:2][-1] in SUBJECTS and modname != "fedtheory"


def _submodules(folder: str, prefix: str) -> list[str]:
    """Dotted names of the modules and packages under a package folder, from the file system
    (``pkgutil.walk_packages`` also reports names that import hooks such as pytest's add)."""
    out = []
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if name.endswith(".py") and name != "__init__.py" and name[:-3].isidentifier():
            out.append(f"{prefix}.{name[:-3]}")
        elif os.path.isfile(os.path.join(path, "__init__.py")) and name.isidentifier():
            out.append(f"{prefix}.{name}")
            out += _submodules(path, f"{prefix}.{name}")
    return out


def _assigned_names(modname: str) -> set:
    """Names a module's source assigns at top level (where its data constants are defined)."""
    import ast

    mod = importlib.import_module(modname)
    try:
        with open(mod.__file__, encoding="utf-8") as fh:
            tree = ast.parse(fh.read())
    except (OSError, TypeError, SyntaxError):
        return set()
    out = set()
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else []
        for t in targets:
            for e in (t.elts if isinstance(t, ast.Tuple) else [t]):
                if isinstance(e, ast.Name):
                    out.add(e.id)
    return out


def _home(m: str, n: str, obj, alls: dict, assigned: dict) -> str:
    """The public module whose page documents ``obj``, listed as ``n`` in ``m.__all__``.

    A function or class: the module that defines it (``__module__``) when that module is public
    and lists it. A data constant: ``m`` itself when its source assigns ``n``. Otherwise the
    deepest public module listing the same object (and, first, one that assigns it).
    """
    mod = getattr(obj, "__module__", None)
    if isinstance(obj, (types.FunctionType, type)):
        if mod in alls and n in alls[mod] and getattr(importlib.import_module(mod), n, None) is obj:
            return mod
    elif n in assigned[m]:
        return m
    same = [k for k, names in alls.items() if n in names and getattr(importlib.import_module(k), n, None) is obj]
    assigning = [k for k in same if n in assigned[k]]
    pool = assigning or same or [m]
    return max(pool, key=lambda k: k.count("."))


def collect_api() -> dict:
    """``module -> {"doc": [...], "links": [(name, target)], "submodules": [...]}``.

    ``doc`` are the names documented on the module's page; ``links`` the names of its
    ``__all__`` documented on another module's page (``target`` is the full name there);
    ``submodules`` the names of ``__all__`` that are modules.
    """
    mods = public_modules()
    alls = {}
    for m in mods:
        mod = importlib.import_module(m)
        # identifiers only: under pytest a package whose __all__ is built from dir() also lists
        # the assertion rewriter's "@py_builtins" and "@pytest_ar"
        alls[m] = [n for n in dict.fromkeys(getattr(mod, "__all__", [])) if n.isidentifier()]
    assigned = {m: _assigned_names(m) for m in mods}
    out = {m: {"doc": [], "links": [], "submodules": []} for m in mods}
    for m in mods:
        mod = importlib.import_module(m)
        for n in alls[m]:
            obj = getattr(mod, n)
            if isinstance(obj, types.ModuleType):
                out[m]["submodules"].append(n)
                continue
            h = _home(m, n, obj, alls, assigned)
            if h == m:
                out[m]["doc"].append(n)
            else:
                out[m]["links"].append((n, f"{h}.{n}"))
    return out


def _first_line(mod) -> str:
    doc = (mod.__doc__ or "").strip().splitlines()
    return doc[0].rstrip(".") if doc else ""


def api_pages() -> dict:
    """The API reference as ``{relative path under docs/api: reST text}``.

    ``index.rst`` lists the modules; ``<module>.rst`` documents the module's names with
    autosummary (``:toctree: generated``) and links the names it re-exports.
    """
    api = collect_api()
    pages = {}
    core = [m for m in api if not _is_subject(m)]
    subj = [m for m in api if _is_subject(m)]
    n_names = len({f"{m}.{n}" for m, d in api.items() for n in d["doc"]})
    idx = [".. This file is generated by docs/_ext/fedtheory_docs.py; do not edit.", "",
           heading("API reference", "="),
           "Every public name of fedtheory: the ``__all__`` of each module, generated at build time "
           f"({n_names} documented names in {len(api)} modules). A name re-exported by a package "
           "(``from fedtheory.representation import run_fedrep``) is documented once, on the page of "
           "the module that defines it, and linked from the package's page.", "",
           heading("Core", "-"), ".. toctree::", "   :maxdepth: 1", ""]
    idx += [f"   {m}" for m in core]
    idx += ["", heading("Subjects (the linear models of the papers)", "-"), ".. toctree::", "   :maxdepth: 1", ""]
    idx += [f"   {m}" for m in subj]
    pages["index.rst"] = "\n".join(idx) + "\n"
    for m, d in api.items():
        lines = [".. This file is generated by docs/_ext/fedtheory_docs.py; do not edit.", "",
                 heading(f"``{m}``", "="), f".. automodule:: {m}", "   :no-members:", "",
                 f".. currentmodule:: {m}", ""]
        if d["submodules"]:
            lines += [heading("Submodules", "-")]
            for s in d["submodules"]:
                sub = f"{m}.{s}"
                desc = _first_line(importlib.import_module(sub))
                lines.append(f"- :mod:`{s} <{sub}>`" + (f": {desc}" if desc else ""))  # reST already
            lines.append("")
        if d["doc"]:
            lines += [heading("Defined here", "-"), ".. autosummary::", "   :toctree: generated",
                      "   :nosignatures:", ""]
            lines += [f"   {n}" for n in d["doc"]]
            lines.append("")
        if d["links"]:
            lines += [heading("Re-exported", "-"),
                      f"Also importable from ``{m}``; documented where they are defined.", ""]
            for n, target in d["links"]:
                lines.append(f"- :py:obj:`{n} <{target}>` (``{target}``)")
            lines.append("")
        if not (d["doc"] or d["links"] or d["submodules"]):
            lines += ["This module exports no names.", ""]
        pages[f"{m}.rst"] = "\n".join(lines)
    return pages


# ============================================================================ papers
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


def _claim_sections(paper) -> list[tuple[str, list]]:
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


def _section_title(section: str) -> str:
    s = section.strip()
    if not s or s == "Other":
        return "Other claims"
    if re.match(r"^(\d|[IVX]+(-|\.|$))", s):  # "4.1", "II-B"
        return f"Section {s}"
    return s


def _status(v: dict):
    """The outcome of a verdict record, former names (``fails``, ``erratum-confirmed``) read as the new ones."""
    s = v.get("status")
    return {"fails": "refuted", "erratum-confirmed": "erratum"}.get(s, s)


def _findings_lines(paper, mine: dict) -> list[str]:
    """The findings of the paper (fedtheory.findings) from the verify run's records, or a sentence
    saying that no verdicts were supplied."""
    from fedtheory.findings import findings

    if not mine:
        return [heading("Findings", "-"), "No verdicts were supplied to this build, so there are no findings "
                "to show: build with ``FEDTHEORY_VERIFY_JSON=out.json`` after ``fedtheory verify --json out.json`` "
                f"(or run ``fedtheory findings --paper {paper.key}``). :doc:`/tutorials/reading_findings` "
                "explains the findings.", ""]
    f = findings(paper, [{**v, "status": _status(v)} for v in mine.values()])
    return [f.to_rst("-~", roles=STATUS_ROLE, ref=lambda i: f"claim-{i}"),
            ":doc:`/tutorials/reading_findings` explains the sections, margins and detection factors.", ""]


def _verdict_lines(v: dict) -> list[str]:
    role = STATUS_ROLE.get(_status(v), "st-error")
    lines = [f":Verdict: :{role}:`{_status(v)}` ({v.get('mode', 'quick')} mode, "
             f"{float(v.get('seconds') or 0):.2g} s)"]
    lines.append(f":Computed: ``{fmt_value(v.get('observed'))}``" if v.get("observed") is not None
                 else ":Computed: --")
    lines.append(f":Theory: ``{fmt_value(v.get('bound'))}``" if v.get("bound") is not None else ":Theory: --")
    if v.get("evidence"):
        lines.append(f":Evidence: {rst_escape(v['evidence'])}")
    if v.get("referee"):
        lines.append(f":Referee: {rst_escape(v['referee'])}")
    return [ln.replace("````", "``--``") for ln in lines]


def paper_page(paper, verdicts: dict, prov: dict, figs: dict, figdir_rel: str) -> str:
    """The reST page of one paper (see the module docstring)."""
    from fedtheory.ledger import LEDGER_STATUSES, ledger_counts

    key = paper.key
    cit = paper.citation
    L = [".. This file is generated by docs/_ext/fedtheory_docs.py; do not edit.", "",
         f".. _paper-{key}:", "", heading(rst_escape(cit.title), "=")]
    for r in (*STATUS_ROLE.values(), "ld-checked", "ld-unchecked", "ld-notcheckable", "ld-outofscope"):
        L.append(f".. role:: {r}")
    L.append("")
    L.append(f"**{rst_escape(cit.author_text())} ({cit.year})**, {rst_escape(cit.venue)}. Paper key ``{key}``. "
             f"{rst_escape(paper.description)}".rstrip())
    L.append("")
    L.append(f"**Cite:** {rst_escape(cit.text())} :cite:p:`{_bibkey(cit)}`")
    for other in paper.versions:
        L.append(f"\n**Also cited:** {rst_escape(other.text())} :cite:p:`{_bibkey(other)}`")
    links = [f"`arXiv:{cit.arxiv} <https://arxiv.org/abs/{cit.arxiv}>`__" if cit.arxiv else "",
             f"`publisher page <{cit.url}>`__" if cit.url else "",
             f"`doi:{cit.doi} <https://doi.org/{cit.doi}>`__" if cit.doi else ""]
    links = [x for x in links if x]
    if links:
        L.append("\n**Links:** " + ", ".join(links))
    L += ["", f"BibTeX (also ``fedtheory cite {key}``):", "", ".. code-block:: bibtex", ""]
    L += ["   " + ln for ln in paper.cite().splitlines()]
    L.append("")

    claims = paper.claims()
    rows = paper.ledger()
    mine = {c.id: verdicts[c.id] for c in claims if c.id in verdicts}
    # ------------------------------------------------------------------ findings (first)
    L += _findings_lines(paper, mine)
    # ------------------------------------------------------------------ summary
    L.append(heading("What is verified", "-"))
    L.append(f"{len(claims)} claims (below, grouped by section), {len(paper.figures())} figures and a "
             f":ref:`results ledger <ledger-{key}>` of {len(rows)} numbered results of the paper"
             + (": " + ", ".join(f"{n} {s}" for s, n in ledger_counts(rows).items() if n) if rows else "") + ".")
    L.append("")
    if mine:
        counts = {}
        for v in mine.values():
            counts[_status(v)] = counts.get(_status(v), 0) + 1
        order = list(STATUS_ROLE)
        L.append("Verdicts of the run shown here: " + ", ".join(
            f":{STATUS_ROLE[s]}:`{counts.get(s, 0)} {s}`" for s in order) + ".")
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

    # ------------------------------------------------------------------ errata
    L.append(heading("Errata", "-"))
    errata = [c for c in claims if _status(mine.get(c.id, {})) == "erratum"]
    if not mine:
        L += ["A claim is an erratum when its verdict is ``erratum``: the form printed in the "
              "paper fails numerically and a minimal correction holds, decided by an independent computation "
              "(the referee). The errata are listed here when the build has a verify run (see above).", ""]
    elif not errata:
        L += ["No claim of this paper was an ``erratum`` in the run shown here.", ""]
    else:
        L += [f"{len(errata)} claims were ``erratum``: the printed form fails and the corrected "
              "form holds, decided by the referee named.", ""]
        for c in errata:
            v = mine[c.id]
            ob = v.get("observed") if isinstance(v.get("observed"), dict) else {}
            printed = v.get("printed") if v.get("printed") is not None else ob.get("printed")
            corrected = v.get("corrected") if v.get("corrected") is not None else ob.get("corrected")
            L.append(f"- :ref:`{c.id} <claim-{c.id}>` ({rst_escape(c.reference)}): {rst_escape(v.get('evidence', ''))}"
                     + (f"\n\n  *Printed:* ``{fmt_value(printed)}``; *corrected:* ``{fmt_value(corrected)}``"
                        if printed is not None or corrected is not None else "")
                     + (f"\n\n  *Root cause:* ``{v['root_cause']}``" if v.get("root_cause") else "")
                     + (f"\n\n  *Referee:* {rst_escape(v['referee'])}" if v.get("referee") else ""))
        L.append("")

    # ------------------------------------------------------------------ figures
    L.append(heading("Figures", "-"))
    gallery = gallery_scripts()
    if not paper.figures():
        L += ["This paper registers no figures.", ""]
    for f in paper.figures():
        script = gallery.get(re.sub(r"[^A-Za-z0-9]", "_", f.id))
        code = (f" The :ref:`gallery page <sphx_glr_auto_gallery_{script}>` shows the code that made it."
                if script else "")
        L += [f".. _figure-{f.id}:", "", heading(rst_escape(f.reference), "~"), f"Figure id ``{f.id}``.{code}", ""]
        pngs = figs.get(f.id, [])
        if not pngs:
            L += [f"Not in the tracked ``figures/`` folder; ``fedtheory reproduce {key} --figure {f.id}`` "
                  "makes it.", ""]
        for png in pngs:
            rel = f"{figdir_rel}/{os.path.basename(png)}"
            cap = f.caption or f"{f.reference} of {cit.short()}"
            L += [f".. figure:: {rel}", "   :width: 100%", f"   :alt: {f.id}", "",
                  f"   {rst_escape(cap)} (``{os.path.basename(png)}``, made by ``fedtheory reproduce {key}``)", ""]

    # ------------------------------------------------------------------ claims
    L.append(heading("Claims", "-"))
    L += [f"Every claim of the catalogue (``fedtheory list --paper {key}``), grouped by the section of the "
          "paper it comes from. The regime states the hypotheses the claim is tested under and how it reads "
          "any unspecified constant.", ""]
    for section, cl in _claim_sections(paper):
        L.append(heading(rst_escape(_section_title(section)), "~"))
        for c in cl:
            L += [f".. _claim-{c.id}:", "", f".. rubric:: {c.id}", "   :class: claim-id", "",
                  f":Reference: {rst_escape(c.reference)}", f":Statement: {rst_escape(c.statement)}"]
            if c.regime:
                L.append(f":Regime: {rst_escape(c.regime)}")
            if c.id in mine:
                L += _verdict_lines(mine[c.id])
            L.append("")
    # ------------------------------------------------------------------ ledger
    L += [f".. _ledger-{key}:", "", heading("Results ledger", "-")]
    if rows:
        counts = ledger_counts(rows)
        L.append(f"Every numbered result of the paper ({len(rows)}) and what checks it: " + ", ".join(
            f":{LEDGER_ROLE[s]}:`{counts[s]} {s}`" for s in LEDGER_STATUSES) + ".")
        L += ["", ".. list-table::", "   :header-rows: 1", "   :widths: 14 8 12 34 32", "   :class: ledger", "",
              "   * - result", "     - section", "     - status", "     - summary", "     - checked by / reason"]
        for r in rows:
            ref = rst_escape(r.ref) + (f" ({rst_escape(r.alt)})" if r.alt else "")
            if r.status == "checked":
                what = ", ".join([f":ref:`{i} <claim-{paper.get_claim(i).id}>`" if paper.get_claim(i) else f"``{i}``"
                                  for i in r.claims]
                                 + [f":ref:`{i} <figure-{i}>`" for i in r.figures])
            else:
                what = rst_escape(r.reason)
            L += [f"   * - {ref}", f"     - {rst_escape(r.section) or '--'}",
                  f"     - :{LEDGER_ROLE[r.status]}:`{r.status}`", f"     - {rst_escape(r.summary) or '--'}",
                  f"     - {what or '--'}"]
        L.append("")
    else:
        L += ["This paper has no results ledger.", ""]

    L += [heading("References", "-"), ".. bibliography::", "   :filter: docname in docnames", ""]
    return "\n".join(L)


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
    pages = {}
    for p in papers:
        pages[f"{p.key}.rst"] = paper_page(p, verdicts, prov, figs, figdir_rel)
    idx = [".. This file is generated by docs/_ext/fedtheory_docs.py; do not edit.", "",
           heading("Papers", "="),
           "One page per paper plugin installed (``fedtheory list``): its citation, what is verified "
           "(the claims and their regimes), the results ledger with its counts, the errata and the "
           "reproduced figures.", "", ".. list-table::", "   :header-rows: 1", "", "   * - key",
           "     - paper", "     - claims", "     - ledger (checked / results)"]
    for p in papers:
        rows = p.ledger()
        checked = sum(r.status == "checked" for r in rows)
        idx += [f"   * - :doc:`{p.key} <{p.key}>`", f"     - {rst_escape(p.citation.text())}",
                f"     - {len(p.claims())}", f"     - {checked} / {len(rows)}"]
    idx += ["", ".. toctree::", "   :hidden:", ""] + [f"   {p.key}" for p in papers]
    pages["index.rst"] = "\n".join(idx) + "\n"
    return pages, references_bib(papers)


# ============================================================================ notebooks
def notebook_pages(examples=None) -> dict:
    """``{file name under docs/notebooks: bytes or text}``: the example notebooks and an index."""
    examples = os.path.join(ROOT, "examples") if examples is None else examples
    nbs = sorted(n for n in os.listdir(examples) if n.endswith(".ipynb")) if os.path.isdir(examples) else []
    out = {}
    for n in nbs:
        with open(os.path.join(examples, n), encoding="utf-8") as fh:
            out[n] = fh.read()
    idx = [".. This file is generated by docs/_ext/fedtheory_docs.py; do not edit.", "",
           heading("Notebooks", "="),
           "One Jupyter notebook per paper, from the repository's ``examples/`` folder, executed when "
           "the documentation is built. Each regenerates a figure, asserts a bound as a test would, "
           "and opens an explorer (interactive in Jupyter with ``%matplotlib widget``; run them with "
           "``pip install -e '.[jupyter]'`` and ``jupyter lab examples/``).", ""]
    if nbs:
        idx += [".. toctree::", "   :maxdepth: 1", ""] + [f"   {n[:-6]}" for n in nbs]
    else:
        idx.append("No notebooks in ``examples/`` yet.")
    out["index.rst"] = "\n".join(idx) + "\n"
    return out


# ============================================================================ Sphinx hooks
def _autosummary_names(text: str) -> list[str]:
    """The names listed by the autosummary directive of a generated module page."""
    m = re.search(r"\.\. autosummary::\n(?:   :.*\n)*\n((?:   \S.*\n)+)", text)
    return m.group(1).split() if m else []


def generate(app, config=None) -> None:
    """``config-inited``: write the generated pages (before Sphinx lists the source files and
    autosummary writes its stubs)."""
    src = str(app.srcdir)
    pages = api_pages()
    sync_dir(os.path.join(src, "api"), pages)
    stubs = os.path.join(src, "api", "generated")
    if os.path.isdir(stubs):  # autosummary writes the stubs; drop those of names gone from __all__
        wanted = {f"{m[:-4]}.{n.strip()}.rst" for m, text in pages.items() if m != "index.rst"
                  for n in _autosummary_names(text)}
        for name in os.listdir(stubs):
            if name.endswith(".rst") and name not in wanted:
                os.remove(os.path.join(stubs, name))
    pages, bib = paper_pages(os.environ.get("FEDTHEORY_VERIFY_JSON") or None)
    sync_dir(os.path.join(src, "papers"), pages)
    write_if_changed(os.path.join(src, "_generated", "references.bib"), bib)
    sync_dir(os.path.join(src, "notebooks"), notebook_pages())


def setup(app):
    app.connect("config-inited", generate)
    app.add_css_file("fedtheory.css")
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
