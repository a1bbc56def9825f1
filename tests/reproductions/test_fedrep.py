"""Tests of ``fedtheory_reproductions.fedrep``: the Figure 3 legend names Theorem 1's bound once and covers no data."""
import numpy as np

from fedtheory.plotting import style
from fedtheory_reproductions import fedrep as R


def _fig3_inputs():
    p = dict(ns=[10, 100, 1000], d=10, k=2, m=5, r=0.1, rounds=20, sigma=1e-3, eta=0.125,
             head_lr={"10GD-GD": 0.2, "GD-GD": 0.4})
    rng = np.random.default_rng(0)
    t = np.arange(p["rounds"] + 1)
    data = {n: {name: 0.9 ** (t * s) * (1 + 0.05 * rng.random((3, t.size)))
                for name, s in (("GD-GD", 1), ("10GD-GD", 2), ("FedRep", 3), ("bound", 0.1))}
            for n in p["ns"]}
    return data, p


def test_fedrep_fig3_legend_names_theorem1_bound_once_and_covers_no_data(figure_geometry):
    data, p = _fig3_inputs()
    with style():
        fig = R.draw_figure3(data, p)
    _, legends = figure_geometry.legend_boxes(fig)
    texts = [t.get_text() for lg in legends for t in lg.get_texts()]
    assert sum("Theorem 1" in t for t in texts) == 1, texts
    for name in ("GD-GD", "10GD-GD", "FedRep"):
        assert f"{name} (median)" in texts
    figure_geometry.no_legend_on_data(fig)
    # n=10 has rn = 1 < k: that panel draws no bound, the others do
    n_bound = [sum("Theorem 1" in ln.get_label() for ln in ax.get_lines()) for ax in fig.axes]
    assert n_bound == [0, 1, 1]
