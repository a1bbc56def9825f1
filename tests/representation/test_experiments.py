"""Tests of :mod:`fedtheory.representation.experiments`: the figure sweeps of FedRep's Sec. 5.1 give the same
numbers on serial, process and dask backends, Figure 3's distances and the local-update data's validation."""
import numpy as np
import pytest


def test_fig3_dists_match_fig3_data(serial_uncached):
    from fedtheory.representation import experiments as ex

    lr = {"10GD-GD": 0.2, "GD-GD": 0.4}
    a = ex.fig3_data(ns=(100,), rounds=5, seeds=2, head_lr=lr, seed=3)
    b = ex.fig3_dists(ns=(100,), rounds=5, seeds=2, head_lr=lr, seed=3)
    for meth in ("FedRep", "10GD-GD", "GD-GD"):
        assert np.array_equal(a[100][meth], b[100][meth])
    with pytest.raises(ValueError, match="methods"):
        ex.fig3_dists(ns=(100,), methods=("FedAvg",))


def test_local_updates_data_validates_taus():
    from fedtheory.representation.experiments import local_updates_data

    with pytest.raises(ValueError, match="taus"):
        local_updates_data((0, 5))


def test_figure_sweep_identical_on_serial_processes_and_dask():
    """A FedRep figure sweep gives identical numbers on every backend (task streams from the index)."""
    pytest.importorskip("dask.distributed")
    from fedtheory.representation.experiments import fig1_data

    kw = dict(ms=(5,), d=8, k=2, n=10, r=1.0, rounds=5, seeds=3, seed=2)
    a = fig1_data(**kw, backend="serial")
    b = fig1_data(**kw, backend="processes")
    c = fig1_data(**kw, backend="dask")
    for key in a:
        np.testing.assert_array_equal(a[key], b[key])
        np.testing.assert_array_equal(a[key], c[key])


def test_fig1_data_federated_ms_skips_runs_without_changing_the_others(serial_uncached):
    """``federated_ms`` leaves out the FedRep and FedAvg runs at the other m (NaN there); every number that is
    computed equals the full sweep's (each m has its own streams)."""
    from fedtheory.representation.experiments import fig1_data

    kw = dict(ms=(5, 8), d=8, k=2, n=10, r=1.0, rounds=4, seeds=2, seed=1)
    full = fig1_data(**kw)
    part = fig1_data(**kw, federated_ms=(5,))
    np.testing.assert_array_equal(part["Local"], full["Local"])
    for key in ("FedRep", "FedAvg"):
        np.testing.assert_array_equal(part[key][:, 0], full[key][:, 0])
        assert np.all(np.isnan(part[key][:, 1]))
