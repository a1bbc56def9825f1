"""Explorers driven programmatically on the Agg backend: moving a slider changes the plotted data
to the closed-form values for the new parameters."""
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
