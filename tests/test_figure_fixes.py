"""Figure fixes: each test draws the figure from small synthetic data through the figure's
drawing function (no sweep runs, nothing saved) and checks the property in display coordinates."""
from __future__ import annotations

import ast
import os

import numpy as np
import pytest

import fedtheory_reproductions as repro
from fedtheory.plotting import plt, style
from fedtheory_reproductions import fedlrgd as F
from fedtheory_reproductions import fedrep as R
from fedtheory_reproductions import lpproj as L
from fedtheory_reproductions import srpfl as S


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _render(fig):
    fig.canvas.draw()
    return fig.canvas.get_renderer()


def _legend_boxes(fig):
    r = _render(fig)
    legends = list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend() is not None]
    return [lg.get_window_extent(r) for lg in legends], legends


def _data_lines(fig):
    return [ln for ax in fig.axes for ln in ax.get_lines() if len(ln.get_xdata()) > 1 and ln.get_visible()]


def _path_in_display(line):
    return line.get_transform().transform_path(line.get_path())


def _no_legend_on_data(fig):
    """No legend box meets any drawn line (the legend's own sample lines are not in ax.get_lines())."""
    boxes, _ = _legend_boxes(fig)
    assert boxes, "the figure has no legend"
    for box in boxes:
        for ln in _data_lines(fig):
            assert not _path_in_display(ln).intersects_bbox(box, filled=False), (ln.get_label(), box)
            xy = _path_in_display(ln).vertices
            inside = (xy[:, 0] > box.x0) & (xy[:, 0] < box.x1) & (xy[:, 1] > box.y0) & (xy[:, 1] < box.y1)
            assert not inside.any(), ln.get_label()


# --- FedRep Fig. 3 -----------------------------------------------------------------------------------

def _fig3_inputs():
    p = dict(ns=[10, 100, 1000], d=10, k=2, m=5, r=0.1, rounds=20, sigma=1e-3, eta=0.125,
             head_lr={"10GD-GD": 0.2, "GD-GD": 0.4})
    rng = np.random.default_rng(0)
    t = np.arange(p["rounds"] + 1)
    data = {n: {name: 0.9 ** (t * s) * (1 + 0.05 * rng.random((3, t.size)))
                for name, s in (("GD-GD", 1), ("10GD-GD", 2), ("FedRep", 3), ("bound", 0.1))}
            for n in p["ns"]}
    return data, p


def test_fedrep_fig3_legend_names_theorem1_bound_once_and_covers_no_data():
    data, p = _fig3_inputs()
    with style():
        fig = R.draw_figure3(data, p)
    _, legends = _legend_boxes(fig)
    texts = [t.get_text() for lg in legends for t in lg.get_texts()]
    assert sum("Theorem 1" in t for t in texts) == 1, texts
    for name in ("GD-GD", "10GD-GD", "FedRep"):
        assert f"{name} (median)" in texts
    _no_legend_on_data(fig)
    # n=10 has rn = 1 < k: that panel draws no bound, the others do
    n_bound = [sum("Theorem 1" in ln.get_label() for ln in ax.get_lines()) for ax in fig.axes]
    assert n_bound == [0, 1, 1]


# --- lp-proj Fig. 1 ----------------------------------------------------------------------------------

def _fig1_inputs(reps_zoom=1_000_000):
    p = dict(L.FIG1)
    ls = L.optimal_lambda(**p)
    thr = L.proposition16_threshold(ls, p["b"])
    lams = np.logspace(-6, 1, 60)
    curves = {m: L.test_loss(m, lams, **p) for m in ("pfedme", "lp-proj-2")}
    lev = {m: L.test_loss(m, **p) for m in ("local", "fedavg")}
    mc_l = np.logspace(-6, 0, 7)
    zoom_l = ls * np.array([0.05, 0.25, 0.5, 1.0, 1.5, 1.9, 2.2])

    def rows(m, x, half):  # closed form with a CI of half-width `half`
        y = L.test_loss(m, x, **p)
        return np.column_stack([y, y - half, y + half])

    mc = {m: rows(m, mc_l, 1e-3) for m in curves}
    mcz = {m: rows(m, zoom_l, 3e-6) for m in curves}  # 0.3 on the zoom's 1e5 scale: wider than the dips' gaps
    return p, lams, curves, lev, ls, thr, mc_l, mc, zoom_l, mcz, reps_zoom


def test_lpproj_fig1_legend_does_not_cross_the_fedavg_line():
    with style():
        fig = L.draw_figure1(*_fig1_inputs())
    boxes, _ = _legend_boxes(fig)
    fedavg = [ln for ln in fig.axes[0].get_lines() if ln.get_label().startswith("FedAvg")]
    assert len(fedavg) == 1
    for box in boxes:
        assert not _path_in_display(fedavg[0]).intersects_bbox(box, filled=False)
    _no_legend_on_data(fig)


def test_lpproj_fig1_zoom_shows_every_error_bar_whole():
    with style():
        fig = L.draw_figure1(*_fig1_inputs())
    ax2 = fig.axes[1]
    _render(fig)
    (x0, x1), (y0, y1) = ax2.get_xlim(), ax2.get_ylim()
    bars = [c for c in ax2.containers if hasattr(c, "has_yerr") and c.has_yerr]
    assert len(bars) == 2
    for c in bars:
        for seg in c[2][0].get_segments():  # the vertical bar of each point, data coordinates
            (xa, ya), (xb, yb) = seg
            assert x0 < xa < x1 and x0 < xb < x1
            assert y0 < min(ya, yb) and max(ya, yb) < y1, (seg, (y0, y1))
    # and the axes themselves lie inside the saved canvas
    fb = fig.bbox
    ab = ax2.get_window_extent()
    assert fb.x0 <= ab.x0 and ab.x1 <= fb.x1


# --- FedLRGD Theorem 1 -------------------------------------------------------------------------------

def _thm1_inputs():
    size = 200  # > r* = 138 of eta = 1.5 and 2: every bound applies somewhere
    r = np.arange(1, size + 1)
    etas = {"L1 power, eta=0.5": 0.5, "L1 power, eta=1": 1.0, "power sum, eta=1.5": 1.5, "cosine, eta=2": 2.0,
            "soft-label logistic, eta=2 (p=1)": 2.0}
    data = {nm: {"tail": np.exp(-r * e / 10), "bound": F.theorem1_bound(r.astype(float), 2, e, 1.0)}
            for nm, e in etas.items()}
    return r, data, {nm: F.theorem1_min_rank(2, e) for nm, e in etas.items()}, size


def test_fedlrgd_theorem1_five_bounds_are_distinguishable():
    with style():
        fig = F.draw_theorem1(*_thm1_inputs())
    ax = fig.axes[0]
    bounds = [ln for ln in ax.get_lines() if "Theorem 1 bound" in ln.get_label()]
    assert len(bounds) == 5
    styles = [(ln.get_color(), str(ln.get_linestyle()), str(ln.get_dashes() if hasattr(ln, "get_dashes") else ""),
               ln.get_marker()) for ln in bounds]
    colors = {s[0] for s in styles}
    dash_patterns = {tuple(np.round(ln._unscaled_dash_pattern[1] or (), 3)) for ln in bounds}
    markers = {s[3] for s in styles}
    assert len(colors) == 5 and len(dash_patterns) == 5 and len(markers) == 5, styles
    assert all(ln.get_linestyle() != "-" for ln in bounds)  # the tails are solid, the bounds are not
    # the legend names each bound
    _, legends = _legend_boxes(fig)
    texts = [t.get_text() for lg in legends for t in lg.get_texts()]
    for nm in _thm1_inputs()[1]:
        assert f"{nm}: SVD tail" in texts
        assert any(t.startswith(f"{nm}: Theorem 1 bound") for t in texts)
    # log-log like the theorem's power law; the second panel draws the five bounds
    for a in fig.axes:
        assert a.get_xscale() == "log" and a.get_yscale() == "log"
    assert len([ln for ln in fig.axes[1].get_lines() if len(ln.get_xdata()) > 1]) == 5
    # equal bounds (cosine and soft-label logistic share eta = 2) are named together at their end
    notes = [t.get_text() for t in fig.axes[1].texts]
    assert any("cosine" in t and "soft-label" in t for t in notes), notes
    _no_legend_on_data(fig)


# --- lp-proj attacks ---------------------------------------------------------------------------------

def _attacks_inputs():
    fr = np.arange(0, 0.81, 0.05)
    fr_mc = fr[::4]
    level = {"local": 0.6, "fedavg": 1.0, "pfedme": 0.59, "lp-proj-2": 0.595}
    slope = {"local": 0.0, "fedavg": 80.0, "pfedme": 0.2, "lp-proj-2": 0.05}
    data = {}
    for a in L.ATTACKS:
        for m in level:
            y = level[m] + slope[m] * fr ** 2
            ym = level[m] + slope[m] * fr_mc ** 2
            data[f"{a}|{m}"] = {"closed_form": list(y), "mc": np.column_stack([ym, ym - 2e-3, ym + 2e-3])}
    return fr, fr_mc, data, dict(N=50, d=20, d_sub=5, n=100, lam=0.05, tau=3.0)


def test_lpproj_attacks_personalised_methods_on_their_own_readable_axis():
    fr, fr_mc, data, p = _attacks_inputs()
    with style():
        fig = L.draw_attacks(fr, fr_mc, data, p)
    top, bottom = fig.axes[:3], fig.axes[3:]
    assert len(bottom) == 3
    fedavg_max = max(max(data[f"{a}|fedavg"]["closed_form"]) for a in L.ATTACKS)
    for ax in top:  # the attacked baseline is shown whole
        assert ax.get_ylim()[1] >= fedavg_max
    pers = [data[f"{a}|{m}"] for a in L.ATTACKS for m in L.PERSONALISED]
    lo = min(min(d["mc"][:, 1].min(), min(d["closed_form"])) for d in pers)
    hi = max(max(d["mc"][:, 2].max(), max(d["closed_form"])) for d in pers)
    for ax in bottom:
        assert ax.get_yscale() == "linear"
        y0, y1 = ax.get_ylim()
        assert y0 <= lo and hi <= y1 and (y1 - y0) < 1.5 * (hi - lo)  # fitted to the personalised methods
        labels = {ln.get_label() for ln in ax.get_lines()}
        assert not any(lab.startswith("FedAvg") for lab in labels)
        bars = [c for c in ax.containers if getattr(c, "has_yerr", False)]
        assert len(bars) == len(L.PERSONALISED)  # with error bars
    # the three personalised methods differ in colour, line style and marker
    sig = {(L.COL[m], str(L.LSTYLE[m]), L.MARK[m]) for m in L.PERSONALISED}
    assert len({s[0] for s in sig}) == 3 and len({s[1] for s in sig}) == 3 and len({s[2] for s in sig}) == 3
    _no_legend_on_data(fig)


# --- SRPFL -------------------------------------------------------------------------------------------

def _plotted_strings(path):
    """Every string constant passed to a title, label, text or legend call in the module at ``path``."""
    tree = ast.parse(open(path).read())
    names = {"set_title", "suptitle", "set_xlabel", "set_ylabel", "text", "annotate", "legend", "plot",
             "errorbar", "hlines", "axhline", "axvline", "fill_between", "scatter"}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in names:
            for sub in ast.walk(node):
                if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                    out.append(sub.value)
    return out


def test_srpfl_titles_spell_out_communication_time():
    assert S.comm_label(10.0) == "communication time C=10"
    folder = os.path.dirname(repro.__file__)
    for name in ("srpfl.py", "srpfl_fig78.py"):
        strings = _plotted_strings(os.path.join(folder, name))
        assert strings, name
        assert not [s for s in strings if "C.T." in s], name


class _Run:
    """A stand-in for an SRPFL run with four doubling stages."""

    def __init__(self, rounds=200):
        t = np.arange(rounds + 1)
        self.stage = np.minimum(t // 50, 3) + 1
        self.participants = 4 * 2 ** self.stage
        self.dist = 0.5 * np.exp(-t / 20) + 0.01 * (1 + 0.2 * np.sin(t))
        self.bound = 1.5 * self.dist[1:]


def test_srpfl_stages_legend_and_stage_names_sit_on_no_curve():
    res = _Run()
    p = dict(d=30, k=2, M=64, N=64, n0=4, m=30, sigma=0.3)
    with style():
        fig = S.draw_stages(res, 1.85e-2, p, [0.75, 1.2, 1.8, 2.6])
    _no_legend_on_data(fig)
    ax = fig.axes[0]
    r = _render(fig)
    curves = [ln for ln in ax.get_lines() if ln.get_label().startswith(("$\\mathrm{dist}", "Theorem 4.7"))]
    assert len(curves) == 2
    labels = [t for t in ax.texts if t.get_text().startswith("stage")]
    assert len(labels) == 4
    for t in labels:
        box = t.get_window_extent(r)
        for ln in curves:
            assert not _path_in_display(ln).intersects_bbox(box, filled=False), t.get_text()
