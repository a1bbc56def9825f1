"""Sphinx configuration of fedtheory's documentation site.

Build it (from the repository root, after ``pip install -e '.[docs,jupyter]'``)::

    python3 -m sphinx -W --keep-going -b html docs docs/_build/html

The build never needs the network (intersphinx is off). The paper pages typeset their statements
as MathML written at build time, so they need no script when read; the tutorials load MathJax from
its CDN when a reader opens them. The API reference, the paper pages and their source pages,
``references.bib``, the developer page's architecture picture and the notebook copies are generated
at build time by ``docs/_ext/fedtheory_docs.py``; set ``FEDTHEORY_VERIFY_JSON`` to a
``fedtheory verify --json`` file to show verdicts on the paper pages.

``FEDTHEORY_DOCS_QUICK=1`` builds without running the gallery scripts and the notebooks (their
pages show the code without output): for a quick look at the other pages, never for a release.
"""
import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "_ext"))
os.environ.setdefault("MPLBACKEND", "Agg")

import fedtheory  # noqa: E402

project = "fedtheory"
author = "fedtheory contributors"
copyright = "fedtheory contributors"
version = release = fedtheory.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
    "sphinxcontrib.bibtex",
    "myst_nb",
    "fedtheory_docs",  # generates docs/api, docs/papers, docs/notebooks, docs/_generated
]

templates_path = ["_templates"]
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store", "**.ipynb_checkpoints", "auto_gallery/*.ipynb",
                    "auto_gallery/*.py", "auto_gallery/*.zip", "auto_gallery/*.json", "gallery/*",
                    "_generated/*"]  # included by the pages that show them
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
root_doc = "index"
nitpicky = False
default_role = "code"

# ----------------------------------------------------------------------------- API reference
autosummary_generate = True
autosummary_imported_members = True
autodoc_typehints = "none"  # numpydoc documents types in the docstrings
autodoc_inherit_docstrings = False
numpydoc_show_class_members = False  # the class template lists members (no duplicate tables)
numpydoc_class_members_toctree = False
numpydoc_attributes_as_param_list = True
numpydoc_xref_param_type = False
# Validation: only the checks that break rendering or mislead a reader. GL08 (no docstring),
# SS/PR/RT style checks are left out: hundreds of small numeric helpers document their parameters
# in prose, and a failing style check would not make a page better.
numpydoc_validation_checks = {"GL06", "GL07", "PR10"}  # unknown section, sections out of order, "x:y" params

# ----------------------------------------------------------------------------- bibliography
bibtex_bibfiles = ["_generated/references.bib"]
bibtex_default_style = "alpha"  # labels from authors and year: unique across the paper pages
bibtex_reference_style = "author_year"

# ----------------------------------------------------------------------------- gallery
sphinx_gallery_conf = {
    "examples_dirs": "gallery",
    "gallery_dirs": "auto_gallery",
    "filename_pattern": r"/plot_",
    "image_scrapers": ("matplotlib", "gallery_scraper.png_scraper"),
    "download_all_examples": False,
    "remove_config_comments": True,
    "within_subsection_order": "FileNameSortKey",
    "show_memory": False,
    "plot_gallery": "True",
}
QUICK = os.environ.get("FEDTHEORY_DOCS_QUICK", "") not in ("", "0")
if QUICK:  # a quick look: the gallery scripts and the notebooks are not run
    sphinx_gallery_conf["plot_gallery"] = "False"

# ----------------------------------------------------------------------------- notebooks (myst-nb)
nb_execution_mode = "off" if QUICK else "auto"  # executes the notebooks stored without outputs
nb_execution_timeout = 300
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_merge_streams = True
# The explorers are ipympl widgets (%matplotlib widget). A static page has no kernel and no saved widget
# state, so a widget view would render blank (and fetch JS from a CDN): render their PNG snapshot instead.
nb_mime_priority_overrides = [("html", "application/vnd.jupyter.widget-view+json", None)]
nb_ipywidgets_js = {}  # so no page loads the ipywidgets HTML manager (and require.js) from a CDN
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence"]

# ----------------------------------------------------------------------------- HTML
html_theme = "pydata_sphinx_theme"
html_title = f"fedtheory {release}"
html_static_path = ["_static"]
html_show_sourcelink = False
html_copy_source = False
html_theme_options = {
    "navigation_depth": 2,
    "show_nav_level": 1,
    "collapse_navigation": True,
    "show_toc_level": 2,
    "navbar_align": "left",
    "header_links_before_dropdown": 7,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}
html_sidebars = {"papers/*": [], "papers/code/*": [], "api/generated/*": [], "developer": []}

# matplotlib's font cache message and the like must not become build warnings
warnings.filterwarnings("ignore", message="Matplotlib is building the font cache")
