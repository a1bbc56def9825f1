"""One shared matplotlib style, and figure output with a JSON sidecar.

Every figure is written as ``NAME.png`` (for viewing), ``NAME.pdf`` (for papers)
and ``NAME.json`` (the plotted data and the parameters that produced it).
"""
from __future__ import annotations

import contextlib
import json
import os

import matplotlib

if not os.environ.get("DISPLAY") and not os.environ.get("MPLBACKEND") and "ipykernel" not in __import__("sys").modules:
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


def save_figure(fig, outdir: str, name: str, data: dict, params: dict,
                meta: dict | None = None) -> dict:
    """Write ``name.png``, ``name.pdf`` and ``name.json`` under ``outdir``.

    The JSON sidecar holds the plotted ``data``, the ``params``, ``meta`` and, when called
    inside :func:`fedtheory.reproduce`, the figure id, its reference, the paper's citation and
    the run's provenance (fedtheory, numpy, scipy and Python versions, git commit, platform,
    date, seed, mode). Returns a dict with the three paths.
    """
    from .provenance import current_figure_context, provenance

    os.makedirs(outdir, exist_ok=True)
    paths = {ext: os.path.join(outdir, f"{name}.{ext}") for ext in ("png", "pdf", "json")}
    fig.savefig(paths["png"])
    fig.savefig(paths["pdf"])
    with open(paths["json"], "w") as fh:
        ctx = dict(current_figure_context() or {})
        source = {k: ctx.pop(k) for k in ("figure_id", "reference", "paper") if k in ctx}
        json.dump(to_jsonable({"figure": name, **source, "params": params, "data": data, **(meta or {}),
                               "provenance": provenance(**ctx)}), fh, indent=1)
    plt.close(fig)
    return paths
