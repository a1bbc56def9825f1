"""Tests of :mod:`fedtheory.plotting`: a headless backend chosen by the user is kept; log axes read at a
glance; the papers' symbols; figures that stay current.

A figure written by :func:`fedtheory.plotting.save_figure` is left untouched (byte for byte, not
rewritten) when it is recomputed with the same sources, params, seed and mode and numbers that differ
only in their last bits, as another machine's BLAS kernels make them; a difference above the stated
tolerance, another seed or mode, a missing file or ``force`` rewrites all three files. CPU time of this
file: about 20 s.
"""
from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest

from fedtheory import plotting as P
from fedtheory.plotting import (RTOL, SIGNIFICANT_DIGITS, figure_outcomes, label_log_axes, log_tick_label,
                                readable_log_ticks, round_numbers, save_figure, sidecar_difference, tex_number,
                                tex_params)
from fedtheory.provenance import figure_context

EXTS = ("png", "pdf", "json")


# ----------------------------------------------------------------------------- backend
@pytest.mark.parametrize("chosen, expected", [
    ("module://ipympl.backend_nbagg", "module://ipympl.backend_nbagg"),  # %matplotlib widget outside a kernel
    ("svg", "svg"),                                                      # a headless backend the user picked
    ("TkAgg", "agg"),                                                    # a GUI backend without a display
    (None, "agg"),                                                       # nothing chosen, no display
])
def test_plotting_keeps_a_chosen_headless_backend(chosen, expected):
    use = f"matplotlib.use({chosen!r}); " if chosen else ""
    env = {k: v for k, v in os.environ.items() if k not in ("MPLBACKEND", "DISPLAY")}
    r = subprocess.run([sys.executable, "-c", f"import matplotlib; {use}import fedtheory.plotting; "
                        "print(matplotlib.get_backend())"], capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip().lower() == expected.lower()


# ----------------------------------------------------------------------------- log axes
@pytest.mark.parametrize("lo, hi", [(0.22, 13.0), (0.25, 0.95), (0.009, 0.45), (1.0, 2.1), (0.61, 0.69),
                                    (8e-6, 6e-4), (0.01, 2.2), (3e3, 1e5), (0.95, 13.0), (1.0, 40.0)])
def test_short_log_ranges_get_three_to_seven_labels_inside(lo, hi):
    ticks = readable_log_ticks(lo, hi)
    assert ticks is not None and 3 <= len(ticks) <= P.MAX_LOG_LABELS, ticks
    assert all(lo <= t <= hi for t in ticks) and ticks == sorted(ticks)


def test_speedup_range_labels_the_curves_between_a_quarter_and_one():
    """SRPFL's speedup figure: curves between 0.25 and 1 and bounds up to 11 once had labels at 1 and 10 only."""
    ticks = readable_log_ticks(0.22, 13.0)
    assert [t for t in ticks if t < 1] == [0.3, 0.5]


def test_long_log_ranges_keep_matplotlibs_decades():
    assert readable_log_ticks(1e-6, 10.0) is None and readable_log_ticks(1e-32, 1.0) is None
    assert readable_log_ticks(0.0, 1.0) is None and readable_log_ticks(1.0, math.inf) is None


def test_tick_labels_plain_or_scientific():
    assert log_tick_label(0.5, True) == "0.5" and log_tick_label(200.0, True) == "200"
    assert log_tick_label(2e-5, False) == r"$2\times10^{-5}$" and log_tick_label(1e-5, False) == "$10^{-5}$"
    assert P.plain_labels([0.001, 0.5, 10.0]) and not P.plain_labels([1e-5, 1e-4])


def _figure(y, scale="log"):
    fig, ax = P.plt.subplots()
    ax.plot([1, 2, 3], y)
    ax.set_yscale(scale)
    return fig, ax


def _labels(ax):
    fig = ax.figure
    fig.canvas.draw()
    lo, hi = sorted(ax.get_ylim())
    return [(t.get_loc(), t.label1.get_text()) for t in ax.yaxis.get_major_ticks()
            if t.label1.get_visible() and t.label1.get_text() and lo <= t.get_loc() <= hi]


def test_label_log_axes_labels_ticks_inside_a_range_under_two_decades():
    fig, ax = _figure([0.25, 0.5, 1.0])
    assert label_log_axes(fig) == 1 and label_log_axes(fig) == 0  # a second call changes nothing
    labels = _labels(ax)
    assert len(labels) >= 3 and all(t.replace(".", "").isdigit() for _, t in labels), labels
    P.plt.close(fig)


def test_label_log_axes_leaves_set_ticks_symlog_and_linear_axes():
    fig, ax = _figure([0.25, 0.5, 1.0])
    ax.set_yticks([0.3, 1.0], ["a", "b"])
    fig2, ax2 = _figure([0.0, 0.5, 1.0], "symlog")
    fig3, ax3 = _figure([0.0, 0.5, 1.0], "linear")
    assert label_log_axes(fig) == label_log_axes(fig2) == label_log_axes(fig3) == 0
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a", "b"]
    for f in (fig, fig2, fig3):
        P.plt.close(f)


def test_long_log_axis_keeps_decade_labels():
    fig, ax = _figure([1e-8, 1e-3, 1e2])
    label_log_axes(fig)
    labels = [t for _, t in _labels(ax)]
    assert len(labels) >= 4 and all("10^{" in t for t in labels), labels
    P.plt.close(fig)


# ----------------------------------------------------------------------------- symbols
def test_tex_number_and_params():
    assert tex_number(0.05) == "0.05" and tex_number(20) == "20" and tex_number(np.int64(64)) == "64"
    assert tex_number(7.6e-13, 2) == r"7.6\times10^{-13}" and tex_number(1e6) == "10^{6}"
    assert tex_params({"d": 20, r"\hat c": 1.2, r"\lambda": 1}) == r"$d=20$, $\hat c=1.2$, $\lambda=1$"
    assert tex_params({"s": "m"}) == "$s=m$"


# ----------------------------------------------------------------------------- sidecar numbers
def test_round_numbers_to_twelve_digits():
    assert SIGNIFICANT_DIGITS == 12
    x = round_numbers({"a": [1 / 3, [2, 1e-300 / 3]], "b": "text", "c": None, "d": True})
    assert x == {"a": [0.333333333333, [2, 3.33333333333e-301]], "b": "text", "c": None, "d": True}
    assert isinstance(x["a"][1][0], int) and x["d"] is True


PROV = {"fedtheory": "0.2.0", "source_fingerprint": "f" * 64, "seed": 0, "mode": "quick", "python": "3.11",
        "numpy": "2.0", "scipy": "1.14", "matplotlib": "3.9", "platform": "Linux-x86_64"}


def _side(y, **prov):
    return {"figure": "f", "params": {"n": 3, "eta": 0.1}, "data": {"y": y}, "provenance": {**PROV, **prov}}


def test_difference_ignores_the_machine_and_last_bits():
    a = _side([1.0, 0.5, 1e-17])
    b = _side([1.0 + 4e-16, 0.5 * (1 + 1e-13), 3e-17], python="3.12", numpy="2.1", scipy="1.15", matplotlib="3.10",
              platform="Darwin-arm64")
    assert sidecar_difference(a, b) is None


@pytest.mark.parametrize("change, where", [
    (dict(y=[1.0, 0.5 * (1 + 10 * RTOL), 1e-17]), "data.y[1]"),
    (dict(prov={"seed": 1}), "provenance seed"),
    (dict(prov={"mode": "full"}), "provenance mode"),
    (dict(prov={"source_fingerprint": "e" * 64}), "provenance source_fingerprint"),
    (dict(prov={"fedtheory": "0.3.0"}), "provenance fedtheory"),
    (dict(params={"n": 4, "eta": 0.1}), "params.n"),
    (dict(y=[1.0, 0.5]), "data.y: length"),
    (dict(y=[1.0, None, 1e-17]), "data.y[1]"),
    (dict(y=[1.0, "inf", 1e-17]), "data.y[1]"),
    (dict(extra=True), "sidecar: keys differ (+note)"),
])
def test_difference_names_what_matters(change, where):
    a = _side([1.0, 0.5, 1e-17])
    b = _side(change.get("y", [1.0, 0.5, 1e-17]), **change.get("prov", {}))
    if "params" in change:
        b["params"] = change["params"]
    if "extra" in change:
        b["note"] = "x"
    diff = sidecar_difference(a, b)
    assert diff is not None and diff.startswith(where), diff


def test_difference_of_a_damaged_sidecar():
    assert sidecar_difference(None, _side([1.0])) == "no readable sidecar"
    assert sidecar_difference({"data": {}}, _side([1.0])) == "no readable sidecar"


def test_integers_compare_exactly_and_the_tolerance_is_stated():
    assert sidecar_difference(_side([3]), _side([4])) == "data.y[0]: 3 -> 4"
    p = P.precision_statement(1e-3)
    assert p["rtol"] == 1e-3 and p["significant_digits"] == 12 and "atol_per_array" in p


# ----------------------------------------------------------------------------- save_figure: current or written
DATA = {"curve": np.linspace(0.25, 1.0, 50) ** 3, "grid": np.arange(50), "tiny": np.array([1.0, 1e-17, -3e-18]),
        "table": [[0.1, 0.2], [0.3, 1 / 3]]}


def _save(outdir, data=DATA, *, params=None, seed=0, mode="quick", **kw):
    fig, ax = P.plt.subplots()
    ax.plot(data["grid"], data["curve"])
    ax.set_yscale("log")
    with figure_context(figure_id="fedrep.fig4", reference="Figure 4", paper="cite", seed=seed, mode=mode):
        return save_figure(fig, str(outdir), "fig", data, params or {"n": 50, "eta": 0.1}, {"note": "x"}, **kw)


def _state(folder):
    """Bytes and modification times (ns) of the three files."""
    paths = {e: os.path.join(folder, f"fig.{e}") for e in EXTS}
    return {e: (open(p, "rb").read(), os.stat(p).st_mtime_ns) for e, p in paths.items()}


def _age(folder):
    """Set the three files' modification times one hour back (a rewrite then shows in st_mtime_ns)."""
    for e in EXTS:
        p = os.path.join(folder, f"fig.{e}")
        st = os.stat(p)
        os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns - 3_600_000_000_000))


def _perturbed(data, rng, how):
    """``data`` with every float array changed in its last bits: times (1 + k eps) for random k in
    [-64, 64], or one ulp (np.nextafter) up or down."""
    out = {}
    for k, v in data.items():
        a = np.asarray(v)
        if a.dtype.kind != "f":
            out[k] = v
        elif how == "eps":
            out[k] = a * (1 + rng.integers(-64, 65, a.shape) * np.finfo(float).eps)
        else:
            out[k] = np.nextafter(a, np.where(rng.random(a.shape) < 0.5, -np.inf, np.inf))
    return out


def test_written_sidecar_states_its_precision_and_rounds_the_data(tmp_path):
    paths = _save(tmp_path)
    side = json.loads(open(paths["json"]).read())
    assert side["precision"]["significant_digits"] == 12 and side["precision"]["rtol"] == RTOL
    assert side["data"]["table"][1][1] == 0.333333333333 and side["data"]["grid"][3] == 3
    assert side["provenance"]["seed"] == 0 and side["figure_id"] == "fedrep.fig4"


@pytest.mark.parametrize("how", ["eps", "nextafter"])
@pytest.mark.parametrize("trial", range(3))
def test_last_bit_changes_leave_the_files_untouched(tmp_path, how, trial):
    _save(tmp_path)
    _age(tmp_path)
    before = _state(tmp_path)
    rng = np.random.default_rng(trial)
    with figure_outcomes() as log:
        _save(tmp_path, _perturbed(DATA, rng, how))
    assert _state(tmp_path) == before  # same bytes, not rewritten
    assert [(o.written, o.reason) for o in log] == [(False, "current")]


def test_a_change_above_the_tolerance_rewrites_all_three(tmp_path):
    _save(tmp_path)
    _age(tmp_path)
    before = _state(tmp_path)
    data = {**DATA, "curve": DATA["curve"] * (1 + 100 * RTOL)}
    with figure_outcomes() as log:
        _save(tmp_path, data)
    after = _state(tmp_path)
    assert all(after[e][1] > before[e][1] for e in EXTS)  # all three rewritten
    assert after["json"][0] != before["json"][0]
    assert log[0].written and log[0].reason.startswith("data.curve[")


@pytest.mark.parametrize("change", ["seed", "mode", "params", "missing pdf", "damaged json", "force",
                                    "force from context"])
def test_what_rewrites_a_current_figure(tmp_path, change):
    _save(tmp_path)
    _age(tmp_path)
    before = _state(tmp_path)
    kw, ctx = {}, {}
    if change == "seed":
        kw["seed"] = 1
    elif change == "mode":
        kw["mode"] = "full"
    elif change == "params":
        kw["params"] = {"n": 50, "eta": 0.2}
    elif change == "missing pdf":
        os.remove(tmp_path / "fig.pdf")
    elif change == "damaged json":
        (tmp_path / "fig.json").write_text("{")
    elif change == "force":
        kw["force"] = True
    else:
        ctx["force"] = True
    with figure_outcomes(**ctx) as log:
        _save(tmp_path, **kw)
    after = _state(tmp_path)
    assert all(after[e][1] > before[e][1] for e in EXTS if e in after), change
    assert log[0].written and log[0].reason != "current"


def test_a_sidecar_from_another_machine_is_kept_with_its_environment(tmp_path):
    """Only the content matters: the tracked sidecar keeps the versions and platform of the machine
    that made it (they are not rewritten by a machine whose numbers agree)."""
    _save(tmp_path)
    side = json.loads((tmp_path / "fig.json").read_text())
    side["provenance"].update(python="3.99", numpy="9.9", scipy="9.9", matplotlib="9.9", platform="Other-cpu")
    (tmp_path / "fig.json").write_text(json.dumps(side, indent=1) + "\n")
    _age(tmp_path)
    before = _state(tmp_path)
    _save(tmp_path, _perturbed(DATA, np.random.default_rng(5), "eps"))
    assert _state(tmp_path) == before


def test_a_figure_may_state_a_looser_tolerance(tmp_path):
    _save(tmp_path, rtol=1e-3)
    _age(tmp_path)
    before = _state(tmp_path)
    _save(tmp_path, {**DATA, "curve": DATA["curve"] * (1 + 1e-5)}, rtol=1e-3)
    assert _state(tmp_path) == before
    assert json.loads(before["json"][0])["precision"]["rtol"] == 1e-3


def test_outcomes_are_recorded_only_inside_the_context(tmp_path):
    _save(tmp_path)
    with figure_outcomes() as log:
        _save(tmp_path)
        _save(tmp_path / "other")
    assert [(o.name, o.written, o.reason) for o in log] == [("fig", False, "current"), ("fig", True, "new")]
    assert P._SAVING.get() is None
