"""Fixtures shared by the figure tests (tests/reproductions/test_<script>.py for paper_reproductions/<script>.py):
every figure is closed after its test, and ``figure_geometry`` measures where legends and drawn lines sit on a
rendered figure."""
import types

import pytest

from fedtheory.plotting import plt


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


@pytest.fixture
def figure_geometry():
    """``render(fig)`` (draw, return the renderer), ``legend_boxes(fig)`` (display boxes and legends),
    ``data_lines(fig)``, ``path_in_display(line)`` and ``no_legend_on_data(fig)`` (asserts that no legend box meets
    a drawn line)."""
    return types.SimpleNamespace(render=_render, legend_boxes=_legend_boxes, data_lines=_data_lines,
                                 path_in_display=_path_in_display, no_legend_on_data=_no_legend_on_data)
