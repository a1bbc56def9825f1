import numpy as np
import pytest
from scipy import stats

from fedtheory import mc_mean, proportion_estimate
from fedtheory.claims import ERRATUM, FAILS, HOLDS, Verdict
from fedtheory.montecarlo import estimate_from_samples
from fedtheory.parallel import map_tasks, parallel_map
from fedtheory.random import as_generator, spawn_seeds


def test_same_seed_same_numbers():
    a = as_generator(7).standard_normal(5)
    b = as_generator(7).standard_normal(5)
    np.testing.assert_array_equal(a, b)
    c1 = [as_generator(s).random() for s in spawn_seeds(3, 4)]
    c2 = [as_generator(s).random() for s in spawn_seeds(3, 4)]
    assert c1 == c2 and len(set(c1)) == 4


def test_seed_none_is_refused():
    with pytest.raises(ValueError, match="seed"):
        as_generator(None)


def _draw(ss):
    return float(as_generator(ss).standard_normal())


def test_backends_give_identical_results():
    serial = parallel_map(_draw, 11, 6, backend="serial")
    threads = parallel_map(_draw, 11, 6, backend="threads", workers=2)
    procs = parallel_map(_draw, 11, 6, backend="processes", workers=2)
    assert serial == threads == procs


def test_backend_validation():
    with pytest.raises(ValueError, match="backend"):
        map_tasks(_draw, [1], backend="gpu")


def test_mc_mean_against_exponential_mean():
    est = mc_mean(lambda g, n: g.exponential(2.0, n), 200_000, seed=5, chunk=30_000)
    assert est.covers(2.0)
    assert est.se == pytest.approx(2.0 / np.sqrt(200_000), rel=0.05)  # std of Exp(scale 2) is 2
    again = mc_mean(lambda g, n: g.exponential(2.0, n), 200_000, seed=5, chunk=30_000)
    assert again.mean == est.mean


def test_mc_mean_vector_and_summary():
    est = mc_mean(lambda g, n: g.standard_normal((n, 3)) + np.arange(3), 50_000, seed=1)
    assert np.all(est.covers(np.arange(3)))
    assert "vector estimate" in est.summary()
    m, se = est
    assert m.shape == (3,)


def test_estimate_from_samples_matches_scipy_t_interval():
    x = np.random.default_rng(0).standard_normal(40)
    est = estimate_from_samples(x, 0.95)
    lo, hi = stats.t.interval(0.95, 39, loc=x.mean(), scale=stats.sem(x))
    assert est.ci_low == pytest.approx(lo) and est.ci_high == pytest.approx(hi)


def test_proportion_estimate_is_clopper_pearson():
    pe = proportion_estimate(7, 20, 0.95)
    ci = stats.binomtest(7, 20).proportion_ci(0.95, method="exact")
    assert pe.ci_low == pytest.approx(ci.low) and pe.ci_high == pytest.approx(ci.high)
    with pytest.raises(ValueError, match="successes"):
        proportion_estimate(21, 20)


def test_verdict_object():
    v = Verdict(id="fedrep.x", paper="fedrep", reference="r", statement="s", status=HOLDS,
                observed=np.float64(0.5), bound=1.0)
    observed, bound = v
    assert observed == 0.5 and bound == 1.0
    assert v.to_dict()["observed"] == 0.5
    assert "[holds]" in v.summary() and v.ok
    with pytest.raises(ValueError, match="status"):
        Verdict(id="a", paper="p", reference="r", statement="s", status="maybe", observed=0, bound=0)
    assert not Verdict(id="a", paper="p", reference="r", statement="s", status=FAILS,
                       observed=0, bound=0).ok
    assert Verdict(id="a", paper="p", reference="r", statement="s", status=ERRATUM,
                   observed=0, bound=0).ok


def test_dask_backend_matches_serial():
    pytest.importorskip("dask.distributed")
    serial = parallel_map(_draw, 11, 4, backend="serial")
    dask = parallel_map(_draw, 11, 4, backend="dask", workers=2)
    assert serial == dask


def test_mc_chunk_size_never_changes_the_result():
    f = lambda g, n: g.standard_normal((n, 3)).sum(axis=1)  # noqa: E731
    a = mc_mean(f, 20_000, seed=4, chunk=1000)
    b = mc_mean(f, 20_000, seed=4, chunk=7777)
    c = mc_mean(f, 20_000, seed=4)
    assert a.mean == b.mean == c.mean and a.se == b.se


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
