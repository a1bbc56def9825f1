"""One shared matplotlib style, log axes read at a glance, and figure output with a JSON sidecar.

Every figure is written as ``NAME.png`` (for viewing), ``NAME.pdf`` (for papers)
and ``NAME.json`` (the plotted data, rounded to 12 significant digits, and the parameters
that produced them). :func:`save_figure` leaves the three files untouched when the sidecar
there describes the same figure (same sources, params, seed and mode; every number within a
relative 1e-6, far above the last-bit differences of another BLAS): tracked figures stay
byte for byte on every machine (:func:`sidecar_difference`). Every base-10 log axis gets
labelled ticks inside its range (:func:`label_log_axes`).
"""
from __future__ import annotations

import contextlib
import contextvars
import json
import math
import os
from typing import NamedTuple

import matplotlib
import numpy as np


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
from matplotlib.ticker import LogFormatter, LogFormatterSciNotation, LogLocator, NullFormatter  # noqa: E402

from .claims import to_jsonable  # noqa: E402

__all__ = ["STYLE", "style", "save_figure", "band", "METHOD_COLORS", "label_log_axes", "readable_log_ticks",
           "sidecar_difference", "figure_outcomes", "FigureOutcome", "RTOL", "SIGNIFICANT_DIGITS", "tex_number",
           "tex_params"]

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


# ----------------------------------------------------------------------------- log axes read at a glance
#: a base-10 log axis showing fewer decade ticks than this also labels ticks between the decades
DECADES_ENOUGH = 4
#: the most labelled ticks :func:`readable_log_ticks` puts on an axis (unless the sparsest choice has more)
MAX_LOG_LABELS = 7
#: the least distance between two labelled ticks, as a fraction of the decades an axis shows (the 0.09
#: and 0.1 of a 1-9 series on a 0.8-decade axis would touch)
MIN_LOG_GAP = 0.08
#: tick multipliers per decade, densest first: 1-9, then 1-2-3-5, 1-2-5, 1-3 and the decades alone
_LOG_SUBS = ((1, 2, 3, 4, 5, 6, 7, 8, 9), (1, 2, 3, 5), (1, 2, 5), (1, 3), (1,))


def _log_candidates(lo: float, hi: float, subs) -> list[float]:
    """The values ``s * 10**k`` (``s`` in ``subs``) inside ``[lo, hi]``, ascending."""
    k0, k1 = math.floor(math.log10(lo)) - 1, math.ceil(math.log10(hi)) + 1
    slack = 1e-9 * (hi - lo)
    return [float(f"{s * 10.0 ** k:.12g}") for k in range(k0, k1 + 1) for s in subs
            if lo - slack <= s * 10.0 ** k <= hi + slack]


def _linear_ticks(lo: float, hi: float) -> list[float]:
    """Three to six round values inside ``[lo, hi]`` (a range too narrow for any ``s * 10**k``)."""
    from matplotlib.ticker import MaxNLocator

    t = MaxNLocator(nbins=5, steps=[1, 2, 5, 10]).tick_values(lo, hi)
    return [float(f"{v:.12g}") for v in t if lo <= v <= hi]


def readable_log_ticks(lo: float, hi: float) -> list[float] | None:
    """The labelled ticks of a base-10 log axis that shows ``[lo, hi]``, or ``None`` for matplotlib's decades.

    A range holding at least :data:`DECADES_ENOUGH` powers of ten keeps the decades (``None``). A shorter
    one gets the densest of the 1-9, 1-2-3-5, 1-2-5, 1-3 and 1 series per decade with at most
    :data:`MAX_LOG_LABELS` ticks inside the range, no two closer than :data:`MIN_LOG_GAP` of the range
    (in decades), and at least three where such a series has three (a range under a decade gets 0.3,
    0.4, ...); a range too narrow for three such values gets round linear steps (1, 1.5, 2). Every
    returned tick lies inside ``[lo, hi]``.

    Parameters
    ----------
    lo, hi : float
        The axis' view limits (either order); not positive or not finite: ``None``.

    Returns
    -------
    list of float or None

    Examples
    --------
    >>> readable_log_ticks(0.22, 13.0)
    [0.3, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0]
    >>> readable_log_ticks(0.25, 0.95)
    [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]
    >>> readable_log_ticks(1e-6, 10.0) is None
    True
    """
    lo, hi = sorted((float(lo), float(hi)))
    if not (math.isfinite(lo) and math.isfinite(hi) and 0 < lo < hi):
        return None
    if len(_log_candidates(lo, hi, (1,))) >= DECADES_ENOUGH:
        return None
    gap = MIN_LOG_GAP * math.log10(hi / lo)
    options = [t for t in (_log_candidates(lo, hi, subs) for subs in _LOG_SUBS)
               if all(math.log10(b / a) >= gap for a, b in zip(t, t[1:]))]
    ticks = next((t for t in options if len(t) <= MAX_LOG_LABELS), options[-1])
    if len(ticks) < 3:
        ticks = next((t for t in reversed(options) if len(t) >= 3), None) or _linear_ticks(lo, hi)
    return ticks


def log_tick_label(value: float, plain: bool) -> str:
    """The text of a log-axis tick: ``0.05`` when ``plain``, else ``$5\\times10^{-2}$`` (``$10^{-2}$`` for a decade).

    Examples
    --------
    >>> log_tick_label(0.05, True), log_tick_label(0.05, False), log_tick_label(1e-6, False)
    ('0.05', '$5\\\\times10^{-2}$', '$10^{-6}$')
    """
    if plain:
        return f"{value:g}"
    mantissa, exponent = f"{value:.3e}".split("e")
    m, e = float(mantissa), int(exponent)
    return f"$10^{{{e}}}$" if m == 1 else f"${m:g}\\times10^{{{e}}}$"


def plain_labels(ticks) -> bool:
    """Whether ticks read best as plain numbers: all between 0.001 and 100000."""
    return all(1e-3 <= abs(t) < 1e5 for t in ticks)


class ReadableLogLocator(LogLocator):
    """Base-10 log ticks from :func:`readable_log_ticks` (matplotlib's decades on a long range)."""

    def __init__(self):
        super().__init__(base=10.0)

    def tick_values(self, vmin, vmax):
        ticks = readable_log_ticks(vmin, vmax)
        return super().tick_values(vmin, vmax) if ticks is None else np.asarray(ticks, dtype=float)


class ReadableLogFormatter(LogFormatterSciNotation):
    """Labels for :class:`ReadableLogLocator`: plain numbers or ``m x 10^e`` (:func:`log_tick_label`);
    matplotlib's ``10^e`` on a long range."""

    def __init__(self):
        super().__init__(base=10.0, labelOnlyBase=False)

    def __call__(self, x, pos=None):
        ticks = readable_log_ticks(*self.axis.get_view_interval()) if self.axis is not None else None
        if ticks is None:
            return super().__call__(x, pos)
        return log_tick_label(x, plain_labels(ticks))


def label_log_axes(fig) -> int:
    """Give every base-10 log axis of ``fig`` labelled ticks inside its range; returns how many it changed.

    An axis with matplotlib's own log ticks gets :class:`ReadableLogLocator` and
    :class:`ReadableLogFormatter` (the minor ticks stay, unlabelled); axes whose ticks a script set
    (a fixed locator), symlog axes and other bases are left alone. :func:`save_figure` calls it;
    a script that lays its figure out (``tight_layout``) calls it first, so the layout sees the labels.
    Calling it again changes nothing.
    """
    changed = 0
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            loc = axis.get_major_locator()
            if (axis.get_scale() != "log" or type(loc) is not LogLocator or getattr(loc, "_base", 10.0) != 10
                    or not isinstance(axis.get_major_formatter(), LogFormatter)):
                continue
            axis.set_major_locator(ReadableLogLocator())
            axis.set_major_formatter(ReadableLogFormatter())
            axis.set_minor_formatter(NullFormatter())
            changed += 1
    return changed


def log_axis_labels(ax) -> dict:
    """``{"x": [...], "y": [...]}``: the labelled tick values inside each log axis' view (an audit helper)."""
    out = {}
    for name, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
        if axis.get_scale() != "log":
            continue
        lo, hi = sorted(axis.get_view_interval())
        fmt = axis.get_major_formatter()
        locs = [v for v in axis.get_majorticklocs() if lo <= v <= hi]
        fmt.set_locs(locs)
        out[name] = [v for i, v in enumerate(locs) if fmt(v, i)]
    return out


# ----------------------------------------------------------------------------- the papers' symbols in text
def tex_number(value, digits: int = 3) -> str:
    """``value`` as mathtext (without dollars): plain between 0.001 and 100000, else ``m\\times10^{e}``.

    Examples
    --------
    >>> tex_number(0.05), tex_number(20), tex_number(7.6e-13, 2), tex_number(1e6)
    ('0.05', '20', '7.6\\\\times10^{-13}', '10^{6}')
    """
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool) and abs(value) < 1e5:
        return str(int(value))
    v = float(value)
    if v == 0 or not math.isfinite(v) or 1e-3 <= abs(v) < 1e5:
        return f"{v:.{digits}g}"
    mantissa, exponent = f"{v:.{digits - 1}e}".split("e")
    m = float(mantissa)
    return f"10^{{{int(exponent)}}}" if m == 1 else f"{m:g}\\times10^{{{int(exponent)}}}"


def tex_params(pairs: dict, digits: int = 3) -> str:
    """``"$d=20$, $\\sigma=0.1$"`` from ``{"d": 20, r"\\sigma": 0.1}``: parameters in the paper's symbols
    (keys are mathtext symbols, values numbers or text).

    Examples
    --------
    >>> tex_params({"d": 20, r"\\hat c": 1.2, "n_0": 4})
    '$d=20$, $\\\\hat c=1.2$, $n_0=4$'
    """
    parts = []
    for sym, v in pairs.items():
        text = v if isinstance(v, str) else tex_number(v, digits)
        parts.append(f"${sym}={text}$")
    return ", ".join(parts)


# ----------------------------------------------------------------------------- sidecar numbers
#: significant digits of every number written into a sidecar
SIGNIFICANT_DIGITS = 12
#: relative tolerance under which a recomputed number equals the tracked one: far above the last-bit
#: differences of another BLAS kernel (measured up to 3e-8 relative after hundreds of iterations or an
#: ill-conditioned solve), far below what a figure shows
RTOL = 1e-6
#: absolute tolerance, relative to the largest magnitude of the number's array (values at the noise floor)
ARRAY_ATOL = 1e-9
#: the provenance entries a figure's content depends on; the others (versions, platform) describe the machine
CONTENT_PROVENANCE = ("fedtheory", "source_fingerprint", "seed", "mode")


def precision_statement(rtol: float = RTOL) -> dict:
    """The sidecar's statement of the precision of its numbers and of when its figure is current."""
    return {"significant_digits": SIGNIFICANT_DIGITS, "rtol": rtol, "atol_per_array": ARRAY_ATOL,
            "current_if": "same fedtheory version, source fingerprint, seed, mode, params and text; every number "
                          "|new - old| <= rtol * max(|new|, |old|) + atol_per_array * (largest |value| of its array)"}


def round_numbers(x, digits: int = SIGNIFICANT_DIGITS):
    """``x`` (JSON types: dicts, lists, numbers, strings) with every float rounded to ``digits`` significant digits.

    Examples
    --------
    >>> round_numbers({"a": [1 / 3, 2, "inf"], "b": 0.1 + 0.2})
    {'a': [0.333333333333, 2, 'inf'], 'b': 0.3}
    """
    if isinstance(x, dict):
        return {k: round_numbers(v, digits) for k, v in x.items()}
    if isinstance(x, list):
        return [round_numbers(v, digits) for v in x]
    if isinstance(x, float) and math.isfinite(x):
        return float(f"{x:.{digits}g}")
    return x


def _is_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _array_scale(x) -> float | None:
    """The largest finite magnitude in a list of numbers (nested lists; ``None`` and strings allowed), or
    ``None`` when ``x`` holds a dict (then it is a record, not an array)."""
    stack, scale = [x], 0.0
    while stack:
        v = stack.pop()
        if isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, dict):
            return None
        elif _is_number(v) and math.isfinite(v):
            scale = max(scale, abs(float(v)))
    return scale


def _short(v) -> str:
    text = f"{v:.12g}" if isinstance(v, float) else repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _difference(old, new, path: str, scale, rtol: float, atol: float) -> str | None:
    """The first place where ``new`` differs from ``old`` beyond the tolerances, or ``None``."""
    if isinstance(old, dict) and isinstance(new, dict):
        if list(old) != list(new):
            added, removed = sorted(set(new) - set(old)), sorted(set(old) - set(new))
            what = ", ".join([f"+{k}" for k in added] + [f"-{k}" for k in removed]) or "order"
            return f"{path or 'sidecar'}: keys differ ({what})"
        for k in new:
            diff = _difference(old[k], new[k], f"{path}.{k}" if path else k, None, rtol, atol)
            if diff:
                return diff
        return None
    if isinstance(old, list) and isinstance(new, list):
        if len(old) != len(new):
            return f"{path}: length {len(old)} -> {len(new)}"
        if scale is None:
            s_old, s_new = _array_scale(old), _array_scale(new)
            scale = None if s_old is None or s_new is None else max(s_old, s_new)
        for i, (a, b) in enumerate(zip(old, new)):
            diff = _difference(a, b, f"{path}[{i}]", scale, rtol, atol)
            if diff:
                return diff
        return None
    if _is_number(old) and _is_number(new) and (isinstance(old, float) or isinstance(new, float)):
        tol = rtol * max(abs(old), abs(new)) + atol * (scale or 0.0)
        return None if abs(old - new) <= tol else f"{path}: {_short(old)} -> {_short(new)}"
    if type(old) is not type(new) or old != new:
        return f"{path}: {_short(old)} -> {_short(new)}"
    return None


def sidecar_difference(old, new, *, rtol: float = RTOL, atol: float = ARRAY_ATOL) -> str | None:
    """Why the sidecar ``new`` describes another figure than ``old``, or ``None`` when the figure is current.

    Current means: the same :data:`CONTENT_PROVENANCE` (fedtheory version, source fingerprint, seed,
    mode), the same keys, texts, integers and params, and every float within
    ``|new - old| <= rtol * max(|new|, |old|) + atol * S``, where ``S`` is the largest magnitude of the
    array (nested list) the number belongs to (``S = 0`` for a number outside any list). The other
    provenance entries (the Python, numpy, scipy and matplotlib versions, the platform) describe the
    machine and are ignored.

    Parameters
    ----------
    old, new : dict
        Sidecars as read back from JSON (``old`` may be anything: a damaged file is not current).
    rtol, atol : float
        The tolerances (defaults :data:`RTOL`, :data:`ARRAY_ATOL`).

    Returns
    -------
    str or None
        The first difference (``"data.FedRep[0][2]: 0.5 -> 0.51"``), or ``None``.

    Examples
    --------
    >>> prov = {"fedtheory": "1", "source_fingerprint": "ab", "seed": 0, "mode": "quick", "numpy": "2.0"}
    >>> a = {"data": {"y": [1.0, 1e-17]}, "provenance": prov}
    >>> sidecar_difference(a, {"data": {"y": [1.0 + 1e-12, 3e-17]}, "provenance": {**prov, "numpy": "2.1"}})
    >>> sidecar_difference(a, {"data": {"y": [1.001, 1e-17]}, "provenance": prov})
    'data.y[0]: 1 -> 1.001'
    >>> sidecar_difference(a, {**a, "provenance": {**prov, "seed": 1}})
    'provenance seed: 0 -> 1'
    """
    if not isinstance(old, dict) or not isinstance(old.get("provenance"), dict):
        return "no readable sidecar"
    p_old, p_new = old["provenance"], new.get("provenance") or {}
    for k in CONTENT_PROVENANCE:
        if p_old.get(k) != p_new.get(k):
            return f"provenance {k}: {str(p_old.get(k))[:12]} -> {str(p_new.get(k))[:12]}"
    body = {k: v for k, v in old.items() if k != "provenance"}
    return _difference(body, {k: v for k, v in new.items() if k != "provenance"}, "", None, rtol, atol)


def read_sidecar(path: str):
    """The JSON sidecar at ``path``, or ``None`` when it is missing or not JSON."""
    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except (OSError, ValueError):
        return None


# ----------------------------------------------------------------------------- writing figures
class FigureOutcome(NamedTuple):
    """What :func:`save_figure` did with one figure: its ``name``, its ``paths`` (png, pdf, json),
    whether the files were ``written`` (else the files there were current and left untouched), and
    ``reason``: why they were written (the first difference), or ``"current"``."""

    name: str
    paths: dict
    written: bool
    reason: str


_SAVING: contextvars.ContextVar[dict | None] = contextvars.ContextVar("fedtheory_saving", default=None)


@contextlib.contextmanager
def figure_outcomes(*, force: bool = False):
    """Within the block, :func:`save_figure` appends a :class:`FigureOutcome` per figure to the yielded
    list, and with ``force`` rewrites current figures too (``fedtheory reproduce --force``).

    Examples
    --------
    >>> with figure_outcomes() as log:
    ...     pass
    >>> log
    []
    """
    log: list[FigureOutcome] = []
    token = _SAVING.set({"force": bool(force), "log": log})
    try:
        yield log
    finally:
        _SAVING.reset(token)


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


def sidecar_document(name: str, data: dict, params: dict, meta: dict | None = None, rtol: float = RTOL) -> dict:
    """The JSON sidecar of figure ``name`` as written: the figure id, reference and paper citation
    (inside :func:`fedtheory.reproduce`), ``params``, ``data``, ``meta``, the precision statement
    (:func:`precision_statement` with ``rtol``) and the provenance
    (:func:`fedtheory.provenance.figure_provenance`), with every float rounded to
    :data:`SIGNIFICANT_DIGITS` significant digits (:func:`round_numbers`)."""
    from .provenance import current_figure_context, figure_provenance

    ctx = dict(current_figure_context() or {})
    source = {k: ctx.pop(k) for k in ("figure_id", "reference", "paper") if k in ctx}
    prov = figure_provenance(seed=ctx.get("seed"), mode=ctx.get("mode"), paper=_paper_of(source.get("figure_id")))
    doc = {"figure": name, **source, "params": params, "data": data, **(meta or {}),
           "precision": precision_statement(rtol), "provenance": prov}
    return round_numbers(json.loads(json.dumps(to_jsonable(doc))))


def save_figure(fig, outdir: str, name: str, data: dict, params: dict,
                meta: dict | None = None, *, force: bool | None = None, rtol: float | None = None) -> dict:
    """Write ``name.png``, ``name.pdf`` and ``name.json`` under ``outdir`` unless they are current; close ``fig``.

    The JSON sidecar (:func:`sidecar_document`) holds the plotted ``data``, the ``params``, ``meta``,
    the precision of its numbers (12 significant digits) and, inside :func:`fedtheory.reproduce`, the
    figure id, its reference, the paper's citation and the provenance of the figure (the fedtheory,
    numpy, scipy, matplotlib and Python versions, the platform, a fingerprint of the sources of
    fedtheory and of the paper plugin, the seed and the mode).

    When the three files already exist and the sidecar there describes the same figure
    (:func:`sidecar_difference`: same sources, params, seed and mode, numbers within ``rtol``),
    they are left untouched, byte for byte: another machine, whose BLAS changes the last bits of the
    numbers, leaves tracked figures (and ``git status``) clean, and their sidecar keeps the versions
    and platform of the machine that made them. Otherwise (or with ``force``) all three are written;
    before that :func:`label_log_axes` labels the log axes. The written bytes are the same at every
    run with the same code, libraries, seed and mode: the PDF carries no ``/CreationDate`` or
    ``/ModDate``, the sidecar no date or git commit (those are in ``fedtheory verify --json``).

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure; it is closed once written (or found current).
    outdir : str
        Output folder, created if missing.
    name : str
        File name without extension.
    data, params : dict
        The plotted data and the parameters that produced them (numpy values allowed).
    meta : dict, optional
        More top-level keys for the sidecar.
    force : bool, optional
        Write even when current (default: that of the enclosing :func:`figure_outcomes`, else no).
    rtol : float, optional
        The relative tolerance of the "current" test (default :data:`RTOL`), stated in the sidecar: a
        figure whose numbers are only that accurate (an ill-conditioned solve) states it.

    Returns
    -------
    dict
        ``{"png": path, "pdf": path, "json": path}``, written or kept.
    """
    saving = _SAVING.get() or {}
    force = saving.get("force", False) if force is None else force
    os.makedirs(outdir, exist_ok=True)
    paths = {ext: os.path.join(outdir, f"{name}.{ext}") for ext in ("png", "pdf", "json")}
    rtol = RTOL if rtol is None else float(rtol)
    doc = sidecar_document(name, data, params, meta, rtol)
    if force:
        reason = "forced"
    elif not os.path.exists(paths["json"]):
        reason = "new"
    elif not (os.path.exists(paths["png"]) and os.path.exists(paths["pdf"])):
        reason = "PNG or PDF missing"
    else:
        reason = sidecar_difference(read_sidecar(paths["json"]), doc, rtol=rtol)
    if reason is not None:
        label_log_axes(fig)
        fig.savefig(paths["png"])
        fig.savefig(paths["pdf"], metadata=_PDF_METADATA)
        with open(paths["json"], "w", encoding="utf-8", newline="\n") as fh:
            fh.write(json.dumps(doc, indent=1) + "\n")
    plt.close(fig)
    if "log" in saving:
        saving["log"].append(FigureOutcome(name, paths, reason is not None, reason or "current"))
    return paths
