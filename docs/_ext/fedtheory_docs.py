"""Page generators of fedtheory's documentation site (a small Sphinx extension).

Everything here is generated at build time (``config-inited``, before Sphinx lists the sources), so
the pages can never fall behind the code:

* the **API reference** (``docs/api/``): one page per public ``fedtheory`` module, listing every
  name of the module's ``__all__``. A name is documented once, on the page of the module that
  defines it (autosummary, ``:toctree: generated``); the other modules that re-export it link
  to that page. :func:`api_pages` returns the pages as text (the docs tests check that
  every public name appears).
* one **page per paper** (``docs/papers/``), from the plugin alone (the public
  :class:`fedtheory.Paper` API, so a third-party plugin gets a page too), written to be read and
  printed: the findings (:mod:`fedtheory.findings`), the errata with their printed and corrected
  values, every claim as one line with its typeset statement (offline MathML, as in the HTML
  report), its outcome and a link to its code, the detail behind a click. With
  ``FEDTHEORY_VERIFY_JSON`` pointing to a ``fedtheory verify --json`` file, each claim shows its
  verdict. The source pages of the modules that register claims go to ``docs/papers/code/``.
  :func:`paper_pages`, :func:`source_pages` (module :mod:`fedtheory_docs_papers`).
* ``docs/_generated/references.bib``: every plugin's citations, cited with sphinxcontrib-bibtex.
* ``docs/_generated/architecture.svg``, ``architecture_rules.rst`` and ``tree.txt``: the import
  graph in layers, the house rules measured on this checkout and the folder tree, shown by
  ``docs/developer.rst`` (module :mod:`fedtheory_docs_developer`).
* ``docs/notebooks/``: a copy of ``examples/*.ipynb`` with an index page (myst-nb renders them).
"""
from __future__ import annotations

import importlib
import os
import re
import types

from fedtheory_docs_papers import (LEDGER_ROLE, STATUS_ROLE, figure_files, gallery_scripts, load_verdicts,
                                   paper_page, paper_pages, references_bib, source_pages)
from fedtheory_docs_text import GENERATED, fmt_value, heading, rst_escape, sync_dir, write_if_changed

#: the generators, with the helpers of the sibling modules they re-export
__all__ = ["api_pages", "collect_api", "public_modules", "paper_pages", "paper_page", "source_pages",
           "references_bib", "load_verdicts", "figure_files", "gallery_scripts", "notebook_pages", "generate",
           "setup", "rst_escape", "heading", "fmt_value", "write_if_changed", "sync_dir", "STATUS_ROLE",
           "LEDGER_ROLE"]

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
    idx = [f".. {GENERATED}", "",
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
        lines = [f".. {GENERATED}", "",
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


# ============================================================================ notebooks
def notebook_pages(examples=None) -> dict:
    """``{file name under docs/notebooks: bytes or text}``: the example notebooks and an index."""
    examples = os.path.join(ROOT, "examples") if examples is None else examples
    nbs = sorted(n for n in os.listdir(examples) if n.endswith(".ipynb")) if os.path.isdir(examples) else []
    out = {}
    for n in nbs:
        with open(os.path.join(examples, n), encoding="utf-8") as fh:
            out[n] = fh.read()
    idx = [f".. {GENERATED}", "",
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
    from fedtheory.plugins import get_paper, paper_keys

    from fedtheory_docs_developer import developer_files

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
    sync_dir(os.path.join(src, "papers", "code"), source_pages([get_paper(k) for k in paper_keys()]))
    write_if_changed(os.path.join(src, "_generated", "references.bib"), bib)
    for name, data in developer_files(ROOT).items():
        write_if_changed(os.path.join(src, "_generated", name), data)
    sync_dir(os.path.join(src, "notebooks"), notebook_pages())


def setup(app):
    app.connect("config-inited", generate)
    app.add_css_file("fedtheory.css")
    app.add_js_file("fedtheory.js")
    return {"version": "2", "parallel_read_safe": True, "parallel_write_safe": True}
