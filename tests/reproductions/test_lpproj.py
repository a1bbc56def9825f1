"""Tests of ``fedtheory_reproductions.lpproj``: the Figure 1 legend and zoom and the attacks figure's axes."""
import numpy as np

from fedtheory.plotting import style
from fedtheory_reproductions import lpproj as L


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


def test_lpproj_fig1_legend_does_not_cross_the_fedavg_line(figure_geometry):
    with style():
        fig = L.draw_figure1(*_fig1_inputs())
    boxes, _ = figure_geometry.legend_boxes(fig)
    fedavg = [ln for ln in fig.axes[0].get_lines() if ln.get_label().startswith("FedAvg")]
    assert len(fedavg) == 1
    for box in boxes:
        assert not figure_geometry.path_in_display(fedavg[0]).intersects_bbox(box, filled=False)
    figure_geometry.no_legend_on_data(fig)


def test_lpproj_fig1_zoom_shows_every_error_bar_whole(figure_geometry):
    with style():
        fig = L.draw_figure1(*_fig1_inputs())
    ax2 = fig.axes[1]
    figure_geometry.render(fig)
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


def test_lpproj_attacks_personalised_methods_on_their_own_readable_axis(figure_geometry):
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
    figure_geometry.no_legend_on_data(fig)
