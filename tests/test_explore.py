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
