"""Tests of ``fedtheory_reproductions.fedlrgd``: the five bounds of the Theorem 1 figure are distinguishable."""
import numpy as np

from fedtheory.plotting import style
from fedtheory_reproductions import fedlrgd as F


def _thm1_inputs():
    size = 200  # > r* = 138 of eta = 1.5 and 2: every bound applies somewhere
    r = np.arange(1, size + 1)
    etas = {"L1 power, eta=0.5": 0.5, "L1 power, eta=1": 1.0, "power sum, eta=1.5": 1.5, "cosine, eta=2": 2.0,
            "soft-label logistic, eta=2 (p=1)": 2.0}
    data = {nm: {"tail": np.exp(-r * e / 10), "bound": F.theorem1_bound(r.astype(float), 2, e, 1.0)}
            for nm, e in etas.items()}
    return r, data, {nm: F.theorem1_min_rank(2, e) for nm, e in etas.items()}, size


def test_fedlrgd_theorem1_five_bounds_are_distinguishable(figure_geometry):
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
    _, legends = figure_geometry.legend_boxes(fig)
    texts = [t.get_text() for lg in legends for t in lg.get_texts()]
    for nm in _thm1_inputs()[1]:
        assert f"{F.tex_name(nm)}: SVD tail" in texts
        assert any(t.startswith(f"{F.tex_name(nm)}: Theorem 1 bound") for t in texts)
    # log-log like the theorem's power law; the second panel draws the five bounds
    for a in fig.axes:
        assert a.get_xscale() == "log" and a.get_yscale() == "log"
    assert len([ln for ln in fig.axes[1].get_lines() if len(ln.get_xdata()) > 1]) == 5
    # equal bounds (cosine and soft-label logistic share eta = 2) are named together at their end
    notes = [t.get_text() for t in fig.axes[1].texts]
    assert any("cosine" in t and "soft-label" in t for t in notes), notes
    figure_geometry.no_legend_on_data(fig)
