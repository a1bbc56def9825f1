"""Tests of :mod:`fedtheory.explore`: the sliders of every paper's explorer follow the closed forms, keep their
parameters admissible at the edges, and work on the ipympl backend."""
import numpy as np
import pytest

from fedtheory import explore
from fedtheory.lpproj import test_loss as lp_loss
from fedtheory.plotting import plt


def test_lpproj_robustness_slider_updates_to_closed_form():
    fig = explore.lpproj_robustness()
    s = fig.fedtheory_sliders
    before = fig.fedtheory_lines["lp-proj-2"].get_ydata().copy()
    s["d_sub"].set_val(30)
    s["N_a"].set_val(5)
    kw = dict(N=100, n=200, d=100, d_sub=30, b=1.0, sigma=1.0, Sigma=0.1, attack="same-value", N_a=5, tau=100.0)
    after = fig.fedtheory_lines["lp-proj-2"].get_ydata()
    np.testing.assert_allclose(after, lp_loss("lp-proj-2", fig.fedtheory_lambda, **kw), rtol=1e-12)
    assert not np.allclose(before, after)
    plt.close(fig)


def test_srpfl_wallclock_slider_updates_to_closed_form():
    from fedtheory.srpfl import idealised_wallclock

    fig = explore.srpfl_wallclock()
    fig.fedtheory_sliders["c"].set_val(10.0)
    ts, tf = fig.fedtheory_times
    exp = [idealised_wallclock(int(N), 4, 0.05, 1.2, 1.0, 10.0)[0] for N in fig.fedtheory_N]
    np.testing.assert_allclose(ts, exp)
    np.testing.assert_allclose(fig.fedtheory_lines["srpfl"].get_ydata(), exp)
    plt.close(fig)


def test_fedrep_contraction_slider_reruns_and_bound_matches():
    from fedtheory.representation import client_diversity, n_selected, theorem1_bound

    fig = explore.fedrep_contraction(rounds=15)
    fig.fedtheory_sliders["m"].set_val(40)
    res = fig.fedtheory_result
    assert res.params["m"] == 40
    np.testing.assert_allclose(fig.fedtheory_lines["run"].get_ydata(), np.maximum(res.dist, 1e-16))
    dv = client_diversity(res.model.W_star, n_selected(res.params["n"], res.params["r"]), max_exact=20_000)
    np.testing.assert_allclose(fig.fedtheory_lines["bound"].get_ydata(),
                               theorem1_bound(np.arange(16), res.dist[0], res.eta, res.E0, dv.sigma_min))
    plt.close(fig)


def test_lowrank_theorem1_slider_switches_function_and_bound():
    from fedtheory.lowrank import theorem1_bound

    fig = explore.lowrank_theorem1(size=80)
    fig.fedtheory_sliders["eta"].set_val(0.5)
    assert type(fig.fedtheory_function).__name__ == "L1Power"
    r, b = fig.fedtheory_lines["bound"].get_data()
    np.testing.assert_allclose(b, theorem1_bound(np.asarray(r, float), 2, 0.5, 1.0))
    plt.close(fig)


# ----------------------------------------------------------------------------- dependent sliders stay valid
def test_lpproj_sliders_keep_n_a_below_n_and_d_sub_at_most_d():
    fig = explore.lpproj_robustness()
    s = fig.fedtheory_sliders
    s["N_a"].set_val(200)  # beyond N - 1 = 99: moved back to 99
    assert s["N_a"].val == 99 and fig.fedtheory_params["N_a"] == 99
    s["N"].set_val(10)  # N at its lower edge: N_a follows, and cannot be dragged above N - 1
    assert s["N_a"].val == 9 and s["N_a"].valmax == 9
    assert fig.fedtheory_params["N"] == 10 and fig.fedtheory_params["N_a"] == 9
    assert s["N_a"]._value_in_bounds(150) == 9  # what a mouse drag to 150 gives
    kw = dict(N=10, n=200, d=100, d_sub=10, b=1.0, sigma=1.0, Sigma=0.1, attack="same-value", N_a=9, tau=100.0)
    np.testing.assert_allclose(fig.fedtheory_lines["lp-proj-2"].get_ydata(),
                               lp_loss("lp-proj-2", fig.fedtheory_lambda, **kw), rtol=1e-12)
    s["N"].set_val(500)  # the range widens again; the value stays
    assert s["N_a"].valmax == 200 and s["N_a"].val == 9
    s["N_a"].set_val(0)
    s["d_sub"].set_val(100)  # d_sub = d is allowed
    assert fig.fedtheory_params["d_sub"] == 100 <= fig.fedtheory_params["d"] and fig.fedtheory_params["N_a"] == 0
    plt.close(fig)


def test_lpproj_initial_values_out_of_range_are_clamped():
    fig = explore.lpproj_robustness(N=20, N_a=50)
    assert fig.fedtheory_sliders["N_a"].val == 19 and fig.fedtheory_params["N_a"] == 19
    plt.close(fig)


def test_fedrep_sliders_keep_k_at_most_d_m_at_least_k_and_r_n_at_least_1():
    fig = explore.fedrep_contraction(rounds=3, d=4, k=5)  # k > d at start: clamped
    s = fig.fedtheory_sliders
    assert s["k"].val == 4 and fig.fedtheory_params["k"] == 4
    s["d"].set_val(60)
    s["k"].set_val(5)
    assert fig.fedtheory_params["k"] == 5
    s["m"].set_val(2)  # below k: moved up to k
    assert s["m"].val == 5 and s["m"].valmin == 5 and fig.fedtheory_params["m"] == 5
    s["d"].set_val(4)  # d at its lower edge: k follows (and m's lower end with it)
    assert s["k"].val == 4 and s["k"].valmax == 4 and s["m"].valmin == 4
    assert s["k"]._value_in_bounds(5) == 4
    s["n"].set_val(4)
    s["r"].set_val(0.05)  # r n = 0.2 < 1: moved up to 1/n
    assert s["r"].val == pytest.approx(0.25) and s["r"].valmin == pytest.approx(0.25)
    res = fig.fedtheory_result
    p = fig.fedtheory_params
    assert (p["d"], p["k"], p["n"]) == (4, 4, 4) and p["k"] <= p["d"] and p["m"] >= p["k"] and p["r"] * p["n"] >= 1
    assert res.params["m"] == p["m"] and res.params["n"] == 4
    assert np.all(np.isfinite(fig.fedtheory_lines["run"].get_ydata()))
    plt.close(fig)


def test_srpfl_and_lowrank_sliders_at_their_edges_give_valid_models():
    fig = explore.srpfl_wallclock()
    s = fig.fedtheory_sliders
    for name in ("log2N", "c", "c_hat", "lam"):
        for v in (s[name].valmin, s[name].valmax):
            s[name].set_val(v)
            ts, tf = fig.fedtheory_times
            assert np.all(np.isfinite(ts)) and np.all(np.isfinite(tf))
    plt.close(fig)
    fig = explore.lowrank_theorem1(size=50)
    s = fig.fedtheory_sliders
    for eta in (s["eta"].valmin, 1.0, s["eta"]._value_in_bounds(1.0), s["eta"]._value_in_bounds(1.97),
                s["eta"].valmax):
        s["eta"].set_val(eta)  # a dragged value on the 0.1 grid may carry rounding (2.0000000000000004)
        p = fig.fedtheory_params
        fn = type(fig.fedtheory_function).__name__
        assert fn == ("L1Power" if p["eta"] <= 1 else "PowerSum" if p["eta"] < 2 else "Cosine")
    for d in (1, 2):
        s["d"].set_val(d)
        assert fig.fedtheory_params["d"] == d
    plt.close(fig)


# ----------------------------------------------------------------------------- Jupyter: %matplotlib widget (ipympl)
_IPYMPL_SCRIPT = r'''
import json, sys
import matplotlib
matplotlib.use("module://ipympl.backend_nbagg")   # what %matplotlib widget selects
import numpy as np
import fedtheory
from fedtheory import explore

# loading every paper's figure code must not switch the backend away (it once forced Agg)
for key in fedtheory.paper_keys():
    fedtheory.get_paper(key).figures()

DRIVE = {"lpproj-robustness": ("N_a", "lp-proj-2"), "fedrep-contraction": ("m", "run"),
         "srpfl-wallclock": ("c", "srpfl"), "lowrank-theorem1": ("eta", "bound")}
out = {"backend": matplotlib.get_backend()}
for name, (slider, line) in DRIVE.items():
    fig = explore.EXPLORERS[name](**({"rounds": 10} if name == "fedrep-contraction" else {}))
    c = fig.canvas
    sent = []
    c.send = lambda content, buffers=None, _s=sent: _s.append((json.loads(content["data"])["type"], bool(buffers)))
    c._handle_message(c, {"type": "initialized"}, [])       # the browser view is there
    sl, ln = fig.fedtheory_sliders[slider], fig.fedtheory_lines[line]
    before, v0 = np.array(ln.get_ydata(), float), sl.val
    bb = sl.ax.get_window_extent()
    x, y = bb.x0 + 0.9 * bb.width, c.get_renderer().height - (bb.y0 + bb.height / 2)  # JS: y from the top
    del sent[:]
    for typ, buttons in (("button_press", 1), ("motion_notify", 1), ("button_release", 0)):  # a click on the track
        c._handle_message(c, {"type": typ, "x": x, "y": y, "button": 0, "buttons": buttons, "modifiers": []}, [])
    asked_redraw = [t for t, _ in sent]
    c._handle_message(c, {"type": "draw"}, [])               # the browser asks for the new frame
    after = np.array(ln.get_ydata(), float)
    changed = before.shape != after.shape or not np.allclose(before, after, equal_nan=True)
    out[name] = dict(canvas=type(c).__module__ + "." + type(c).__name__, before=float(v0), after=float(sl.val),
                     track=[float(v) for v in sl.ax.get_xlim()], lo=float(sl.valmin), hi=float(sl.valmax),
                     changed=bool(changed), asked_redraw=asked_redraw,
                     frames=[t for t, b in sent if b], params=fig.fedtheory_params)
print(json.dumps(out, default=float))
'''


def test_explorers_work_on_the_ipympl_backend(tmp_path):
    """``%matplotlib widget``: each explorer is an ipympl canvas; a click on a slider's track, sent as the
    browser sends it, moves the slider, recomputes the plotted data and pushes a new frame."""
    import importlib.util
    import json
    import os
    import subprocess
    import sys

    missing = [m for m in ("ipympl", "ipywidgets") if importlib.util.find_spec(m) is None]
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"{', '.join(missing)} missing in CI (install the jupyter extra)")
        pytest.skip(f"needs {', '.join(missing)} (the jupyter extra)")
    env = {k: v for k, v in os.environ.items() if k not in ("MPLBACKEND", "DISPLAY")}
    r = subprocess.run([sys.executable, "-c", _IPYMPL_SCRIPT], capture_output=True, text=True, timeout=600,
                       cwd=tmp_path, env=env)
    assert r.returncode == 0, r.stderr[-3000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["backend"] == "module://ipympl.backend_nbagg"
    for name in explore.EXPLORERS:
        o = out[name]
        assert o["canvas"] == "ipympl.backend_nbagg.Canvas", (name, o)
        t0, t1 = o["track"]  # the click lands at 9/10 of the track, within the slider's current range
        expect = min(max(t0 + 0.9 * (t1 - t0), o["lo"]), o["hi"])
        assert o["after"] != o["before"] and abs(o["after"] - expect) <= 0.02 * (t1 - t0) + 1, (name, o)
        assert o["changed"], f"{name}: the slider moved but the plotted data did not change"
        assert "draw" in o["asked_redraw"], f"{name}: no redraw requested from the browser: {o}"
        assert o["frames"], f"{name}: no new frame sent to the browser: {o}"
    assert out["lpproj-robustness"]["params"]["N_a"] == round(out["lpproj-robustness"]["after"])
    assert out["fedrep-contraction"]["params"]["m"] == round(out["fedrep-contraction"]["after"])
    assert out["lowrank-theorem1"]["params"]["eta"] == pytest.approx(out["lowrank-theorem1"]["after"], abs=1e-6)
