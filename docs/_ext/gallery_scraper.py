"""sphinx-gallery scraper for the figures fedtheory writes to disk.

fedtheory's figure functions save their own PNG, PDF and JSON files (through
:func:`fedtheory.plotting.save_figure`) and close the matplotlib figure, so the stock
``"matplotlib"`` scraper sees nothing. :func:`png_scraper` finds the PNG files a gallery code
block wrote by looking at the values the block left in the example's namespace: the return value
of :func:`fedtheory.reproduce` (a list of ``{"png": ..., "pdf": ..., "json": ...}`` dicts), one
such dict, or a plain path ending in ``.png``. Each file is shown once per example, the first time
a block leaves it behind (a file rewritten later, with a new modification time, is shown again).

It is configured in ``docs/conf.py`` as::

    sphinx_gallery_conf = {..., "image_scrapers": ("matplotlib", "gallery_scraper.png_scraper")}

with ``docs/_ext`` on ``sys.path``.
"""
from __future__ import annotations

import os
import shutil

__all__ = ["png_paths", "png_scraper"]

# example source file -> {(png path, modification time in ns)} already shown for that example
_SHOWN: dict[str, set[tuple[str, int]]] = {}


def png_paths(value, depth: int = 0) -> list[str]:
    """PNG paths held by ``value``: a path, a ``{"png": path}`` dict, or a list/tuple of those.

    Parameters
    ----------
    value : object
        Any value of an example's namespace. Strings count only when they end in ``.png``;
        lists and tuples are searched two levels deep (a list of ``reproduce`` results).
    depth : int, optional
        Current nesting depth (internal).

    Returns
    -------
    list of str
        The paths, in order, duplicates removed; files that do not exist are left out.

    Examples
    --------
    >>> png_paths({"png": "/nonexistent/a.png", "pdf": "/nonexistent/a.pdf"})
    []
    >>> png_paths(42)
    []
    """
    found: list[str] = []
    if isinstance(value, (str, os.PathLike)):
        path = os.fspath(value)
        if path.lower().endswith(".png") and os.path.isfile(path):
            found.append(path)
    elif isinstance(value, dict):
        if "png" in value and isinstance(value["png"], (str, os.PathLike)):
            found.extend(png_paths(value["png"], depth + 1))
    elif isinstance(value, (list, tuple)) and depth < 2:
        for item in value:
            found.extend(png_paths(item, depth + 1))
    return list(dict.fromkeys(found))


def png_scraper(block, block_vars, gallery_conf, **kwargs) -> str:
    """Copy the PNG files a gallery block produced into sphinx-gallery's image folder.

    Parameters
    ----------
    block : tuple
        The code block sphinx-gallery just executed (unused).
    block_vars : dict
        sphinx-gallery's block variables; uses ``example_globals``, ``src_file`` and
        ``image_path_iterator``.
    gallery_conf : dict
        sphinx-gallery's configuration; uses ``src_dir``.
    **kwargs
        Ignored (sphinx-gallery's scraper signature).

    Returns
    -------
    str
        reStructuredText for the images (``sphinx_gallery.scrapers.figure_rst``, one full-width
        block per image), or ``""`` when the block left no new PNG file behind.
    """
    from sphinx_gallery.scrapers import figure_rst

    shown = _SHOWN.setdefault(str(block_vars.get("src_file", "")), set())
    new: list[str] = []
    for name, value in list(block_vars["example_globals"].items()):
        if name.startswith("__"):
            continue
        for path in png_paths(value):
            stamp = (os.path.abspath(path), os.stat(path).st_mtime_ns)
            if stamp not in shown and path not in new:
                shown.add(stamp)
                new.append(path)
    if not new:
        return ""
    rst = []
    for path, target in zip(new, block_vars["image_path_iterator"]):
        shutil.copyfile(path, target)
        # one block per image: the papers' figures are wide, and sphinx-gallery's multi-image
        # layout would put them side by side at a fraction of the page width
        rst.append(figure_rst([target], gallery_conf["src_dir"]))
    return "".join(rst)
