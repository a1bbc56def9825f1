"""Tests of ``fedtheory_reproductions.srpfl``: titles spell out the communication time, and the stage legend and
stage names sit on no curve."""
import ast
import os

import numpy as np

import fedtheory_reproductions as repro
from fedtheory.plotting import style
from fedtheory_reproductions import srpfl as S


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
    assert S.comm_label(10.0) == "communication time $C=10$"
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


def test_srpfl_stages_legend_and_stage_names_sit_on_no_curve(figure_geometry):
    res = _Run()
    p = dict(d=30, k=2, M=64, N=64, n0=4, m=30, sigma=0.3)
    with style():
        fig = S.draw_stages(res, 1.85e-2, p, [0.75, 1.2, 1.8, 2.6])
    figure_geometry.no_legend_on_data(fig)
    ax = fig.axes[0]
    r = figure_geometry.render(fig)
    curves = [ln for ln in ax.get_lines() if ln.get_label().startswith(("$\\mathrm{dist}", "Theorem 4.7"))]
    assert len(curves) == 2
    labels = [t for t in ax.texts if t.get_text().startswith("stage")]
    assert len(labels) == 4
    for t in labels:
        box = t.get_window_extent(r)
        for ln in curves:
            assert not figure_geometry.path_in_display(ln).intersects_bbox(box, filled=False), t.get_text()
