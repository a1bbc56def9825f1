import math

import numpy as np
import pytest
from scipy import stats

from fedtheory import mc_mean, principal_angle_distance
from fedtheory.representation import fedrep_round
from fedtheory.srpfl import (contraction_bound, expected_order_statistic, floor_recursion,
                             harmonic, idealised_wallclock, lemma_b2_bound, make_speed_model,
                             noise_floor, run_srpfl, stage_rounds, switch_point, target_error,
                             theorem49_ratio_bound)


def test_public_example_from_the_issue():
    res = run_srpfl(d=50, k=3, M=64, N=64, n0=4, m=30, sigma=0.5, speeds="fixed", comm_cost=0.0,
                    seed=0)
    T = res.participants.size
    assert res.dist.shape == res.wall_clock.shape == (T + 1,)
    assert np.all(np.diff(res.wall_clock) > 0)
    assert set(res.participants) == {4, 8, 16, 32, 64}
    assert np.all(np.diff(res.participants) >= 0)
    assert res.dist[-1] < res.dist[0]


def test_expected_order_statistic_broadcasts_and_matches_monte_carlo():
    j = np.array([1, 3, 10])
    closed = expected_order_statistic(j, 10, 0.5)
    assert closed.shape == (3,)
    est = mc_mean(lambda g, n: np.sort(g.exponential(2.0, (n, 10)), axis=1)[:, j - 1], 200_000, seed=3)
    assert np.all(np.abs(est.z_score(closed)) < 4)
    assert expected_order_statistic(10, 10, 1.0) == pytest.approx(sum(1 / i for i in range(1, 11)))
    assert harmonic(0) == 0.0 and harmonic(4) == pytest.approx(25 / 12)


def test_round_time_is_the_nth_order_statistic_plus_C():
    """With i.i.d. Exp(1) times, the mean per-round cost of a stage equals E[T_(n:N)] + C."""
    sp = make_speed_model("iid", 32, 32, seed=0)
    rng = np.random.default_rng(1)
    n, c = 8, 2.5
    costs = [np.sort(sp.draw(rng, np.arange(32)))[n - 1] + c for _ in range(20000)]
    se = np.std(costs) / math.sqrt(len(costs))
    assert abs(np.mean(costs) - (expected_order_statistic(n, 32) + c)) < 4 * se
    res = run_srpfl(d=10, k=2, M=32, N=32, n0=4, m=10, speeds="iid", comm_cost=c, rounds=30,
                    stage_lengths=10, seed=2)
    assert np.all(np.diff(res.wall_clock) >= c)


def test_fedrep_baseline_pays_the_slowest_client():
    kw = dict(d=10, k=2, M=16, N=16, n0=4, m=10, speeds="fixed", rounds=20, seed=3)
    fr = run_srpfl(**kw, schedule="all")
    sr = run_srpfl(**kw, stage_lengths=5)
    slowest = fr.wall_clock[1]
    assert np.allclose(np.diff(fr.wall_clock), slowest)  # fixed speeds, all N: the same max time
    assert np.all(np.diff(sr.wall_clock) <= slowest + 1e-12)
    assert np.all(fr.participants == 16)


def test_round_decomposition_identities_on_a_run():
    res = run_srpfl(d=20, k=2, M=16, N=16, n0=2, m=15, sigma=0.3, rounds=20, stage_lengths=5,
                    record_identities=True, seed=4)
    I = res.identities
    assert max(I["lemmaA2_residual"].max(), I["eq111_residual"].max(), I["eq142_residual"].max()) < 1e-10
    assert np.all(I["eq116_lhs"] <= I["eq116_rhs"] * (1 + 1e-12))
    assert np.all(I["eq149_lhs"] >= I["eq149_rhs_corrected"] - 1e-12)


def test_srpfl_reuses_the_fedrep_round():
    """A single-stage SRPFL round equals fedrep_round on the same batch (replayed streams)."""
    from fedtheory.random import as_generator, spawn_seeds
    res = run_srpfl(d=8, k=2, M=6, N=6, n0=6, m=7, sigma=0.1, rounds=1, init="random",
                    speeds="fixed", seed=11)
    ss_model, ss_speed, ss_init, ss_run, ss_time, _ = spawn_seeds(11, 6)
    from fedtheory.linalg import random_orthonormal
    B0 = random_orthonormal(as_generator(ss_init), 8, 2)
    rng = as_generator(ss_run)
    active = rng.choice(6, size=6, replace=False)
    sp = make_speed_model("fixed", 6, 6, seed=ss_speed)
    order = np.argsort(sp.draw(as_generator(ss_time), active), kind="stable")
    X, y = res.model.sample(rng, active[order], 7)
    B1 = fedrep_round(B0, X, y, res.eta).B_next
    assert principal_angle_distance(B1, res.model.B_star) == pytest.approx(res.dist[1], abs=1e-12)


def test_floor_recursion_and_switching():
    a = 0.05
    d = 0.8
    for t in range(50):
        d = contraction_bound(d, a, 4)
    assert floor_recursion(0.8, a, 4, 50) == pytest.approx(d, rel=1e-12)
    assert noise_floor(a, 8) * math.sqrt(2) == pytest.approx(noise_floor(a, 4))
    X1, X2 = switch_point(1, a, 256, 4), switch_point(2, a, 256, 4)
    assert floor_recursion(X1, a, 4, stage_rounds(2, a, 256, 4)) == pytest.approx(X2, rel=1e-10)
    assert stage_rounds(2, a, 256, 4, lam=1.0) == pytest.approx(stage_rounds(2, a, 256, 4, lam=7.0))


def test_idealised_wallclock_speedup_grows_with_N_and_b2_bound_holds():
    ratios = []
    for N in (64, 256, 1024):
        ts = idealised_wallclock(N, 4, 0.05, 1.2)[0]
        tf = idealised_wallclock(N, 4, 0.05, 1.2, schedule="fedrep")[0]
        ratios.append(ts / tf)
        assert ts <= lemma_b2_bound(N, 0.05, 1.2)
        assert ts / tf <= theorem49_ratio_bound(N, 1.2)
    assert ratios[0] > ratios[1] > ratios[2]


@pytest.mark.parametrize("kwargs, match", [
    (dict(n0=1, k=2), r"`n0` must be in \[2, 64\]"),
    (dict(n0=100), r"`n0` must be in"),
    (dict(N=100, M=64), r"`N` must be in \[1, 64\]"),
    (dict(lam=0.0), r"`lam` must be in \(0"),
    (dict(lam=-1.0), r"`lam` must be in \(0"),
    (dict(speeds="mixture", straggler_fraction=1.5), r"`straggler_fraction` must be in \[0"),
    (dict(speeds="warp"), r"`speeds` must be one of"),
    (dict(m=1, k=2), r"`m` must be in \[2"),
])
def test_run_srpfl_validation(kwargs, match):
    base = dict(d=10, k=2, M=64, N=64, n0=4, m=10, rounds=2, seed=0)
    with pytest.raises(ValueError, match=match):
        run_srpfl(**{**base, **kwargs})


def test_closed_form_validation():
    with pytest.raises(ValueError, match="c_hat"):
        target_error(0.05, 64, 4, 1.5)
    with pytest.raises(ValueError, match="c_hat"):
        idealised_wallclock(64, 4, 0.05, 1.0)
    with pytest.raises(ValueError, match="lam"):
        expected_order_statistic(1, 4, 0.0)
    with pytest.raises(ValueError, match="j"):
        expected_order_statistic(5, 4, 1.0)


def test_dynamic_speed_variants():
    t = make_speed_model("dynamic", 100, 20, variant="tmlr", seed=0)
    a = make_speed_model("dynamic", 100, 20, variant="arxiv", seed=0)
    assert t.rates.min() >= 1 / 100 and a.rates.min() >= 1 / 20
    mix = make_speed_model("mixture", 50, 50, straggler_fraction=0.2, seed=0)
    assert np.sum(mix.rates == 0.1) == 10  # stragglers: mean 10


def test_fedavg_wallclock_pays_the_slowest_selected_client():
    from fedtheory.srpfl import fedavg_wallclock

    t, dist, mse = fedavg_wallclock(d=10, k=2, M=16, N=16, m=10, sigma=0.1, speeds="fixed", comm_cost=2.0,
                                    rounds=5, seed=3)
    sr = run_srpfl(d=10, k=2, M=16, N=16, n0=4, m=10, sigma=0.1, speeds="fixed", comm_cost=2.0, rounds=5,
                   schedule="all", seed=3)
    # all N = M clients every round with fixed speeds: the same per-round time as the FedRep baseline
    np.testing.assert_allclose(np.diff(t), np.diff(sr.wall_clock))
    assert dist.shape == mse.shape == (6,) and np.all(mse > 0.1 ** 2)


def test_run_srpfl_rejects_too_few_stage_lengths():
    """A list of stage lengths shorter than the number of stage switches is refused up front
    (it used to end in an IndexError, or pass silently with few rounds)."""
    import pytest

    from fedtheory.srpfl import run_srpfl

    with pytest.raises(ValueError, match="`stage_lengths` needs 2 entries; got 1"):
        run_srpfl(d=6, k=2, M=8, N=8, n0=2, m=6, stage_lengths=[2], rounds=6)
    with pytest.raises(ValueError, match="stage_lengths"):
        run_srpfl(d=6, k=2, M=8, N=8, n0=2, m=6, stage_lengths=[2], rounds=2)
