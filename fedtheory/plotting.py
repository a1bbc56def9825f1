"""One shared matplotlib style, and figure output with a JSON sidecar.

Every figure is written as ``NAME.png`` (for viewing), ``NAME.pdf`` (for papers)
and ``NAME.json`` (the plotted data and the parameters that produced it).
"""
from __future__ import annotations

import contextlib
import json
import os

import matplotlib


#: non-interactive builtin backends: they work without a display, so a user's choice of one is kept
_HEADLESS_OK = {"agg", "cairo", "pdf", "pgf", "ps", "svg", "template"}


def _keep_backend() -> bool:
    """True when the user chose a backend that works without a display: ``MPLBACKEND``, or
    ``matplotlib.use``/matplotlibrc naming a ``module://`` backend (ipympl's ``%matplotlib widget``,
    inline) or a non-interactive one. A GUI backend from matplotlibrc is still replaced by Agg."""
    if os.environ.get("MPLBACKEND"):
        return True
    try:
        name = matplotlib.rcParams._get_backend_or_none()
    except AttributeError:  # pragma: no cover - a matplotlib without the helper
        return False
    return bool(name) and (name.lower().startswith("module://") or name.lower() in _HEADLESS_OK)


if not os.environ.get("DISPLAY") and not _keep_backend() and "ipykernel" not in __import__("sys").modules:
    matplotlib.use("Agg")  # headless: files only (an interactive session keeps its own backend)
import matplotlib.pyplot as plt  # noqa: E402

from .claims import to_jsonable  # noqa: E402

__all__ = ["STYLE", "style", "save_figure", "band", "METHOD_COLORS"]

STYLE = {
    "figure.figsize": (6.4, 4.2),
    "figure.dpi": 110,
    "savefig.dpi": 150,
    "savefig.bbox": "tight",
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "legend.fontsize": 8.5,
    "legend.frameon": False,
    "lines.linewidth": 1.8,
    "font.family": "DejaVu Sans",
}

#: one colour per method, used by every figure
METHOD_COLORS = {
    "FedRep": "#1f77b4",
    "10GD-GD": "#ff7f0e",
    "GD-GD": "#2ca02c",
    "FedAvg": "#d62728",
    "Local": "#7f7f7f",
    "bound": "#000000",
}


@contextlib.contextmanager
def style():
    """Context manager applying the fedtheory style."""
    with plt.rc_context(STYLE):
        yield


def band(ax, x, runs, color, label, q=(0.1, 0.9), **kw):
    """Plot the median of ``runs`` (replications along axis 0) with a quantile band."""
    import numpy as np

    runs = np.asarray(runs, dtype=float)
    med = np.nanmedian(runs, axis=0)
    lo, hi = np.nanquantile(runs, q, axis=0)
    ax.plot(x, med, color=color, label=f"{label} (median)", **kw)
    ax.fill_between(x, lo, hi, color=color, alpha=0.18, linewidth=0,
                    label=f"{label} ({int(100 * q[0])}-{int(100 * q[1])}% band)")
    return med, lo, hi


#: PDF metadata written by :func:`save_figure`: no creation or modification date, so that the
#: same figure gives the same bytes at every run (matplotlib's PDF writes no ``/ID``, and its PNG
#: metadata holds only the software version)
_PDF_METADATA = {"CreationDate": None, "ModDate": None}


def _paper_of(figure_id):
    """The paper a figure id belongs to, or ``None`` (no id, or an unknown paper key)."""
    from .plugins import PluginError, paper_of

    try:
        return paper_of(figure_id) if figure_id else None
    except PluginError:
        return None


def save_figure(fig, outdir: str, name: str, data: dict, params: dict,
                meta: dict | None = None) -> dict:
    """Write ``name.png``, ``name.pdf`` and ``name.json`` under ``outdir``; close ``fig``.

    The JSON sidecar holds the plotted ``data``, the ``params``, ``meta`` and, when called
    inside :func:`fedtheory.reproduce`, the figure id, its reference, the paper's citation and
    the provenance of the figure (:func:`fedtheory.provenance.figure_provenance`: the fedtheory,
    numpy, scipy, matplotlib and Python versions, the platform, a fingerprint of the sources of
    fedtheory and of the paper plugin, the seed and the mode).

    The three files are byte-reproducible: the same code, libraries, seed and mode write the
    same bytes whenever they run. The PDF carries no ``/CreationDate`` or ``/ModDate``, and the
    sidecar no date or git commit (so tracked figures stay clean after ``fedtheory reproduce``
    and after commits that leave the sources unchanged); the run's date and commit are in
    ``fedtheory verify --json`` and in the report.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure; it is closed once written.
    outdir : str
        Output folder, created if missing.
    name : str
        File name without extension.
    data, params : dict
        The plotted data and the parameters that produced them (numpy values allowed).
    meta : dict, optional
        More top-level keys for the sidecar.

    Returns
    -------
    dict
        ``{"png": path, "pdf": path, "json": path}``.
    """
    from .provenance import current_figure_context, figure_provenance

    os.makedirs(outdir, exist_ok=True)
    paths = {ext: os.path.join(outdir, f"{name}.{ext}") for ext in ("png", "pdf", "json")}
    fig.savefig(paths["png"])
    fig.savefig(paths["pdf"], metadata=_PDF_METADATA)
    ctx = dict(current_figure_context() or {})
    source = {k: ctx.pop(k) for k in ("figure_id", "reference", "paper") if k in ctx}
    prov = figure_provenance(seed=ctx.get("seed"), mode=ctx.get("mode"), paper=_paper_of(source.get("figure_id")))
    text = json.dumps(to_jsonable({"figure": name, **source, "params": params, "data": data, **(meta or {}),
                                   "provenance": prov}), indent=1)
    with open(paths["json"], "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text + "\n")
    plt.close(fig)
    return paths
