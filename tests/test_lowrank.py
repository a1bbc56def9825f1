import math
import warnings

import numpy as np
import pytest
from scipy import stats

from fedtheory import IllConditionedWarning
from fedtheory.lowrank import (Cosine, L1Power, PowerSum, SoftLabelLogistic, approximate_rank,
                               erlang_quantile_bounds, fedave_b_star_viete, fedave_gamma_numeric,
                               fedlrgd_gamma, l1_cover, lemma1_bound, make_logistic_problem,
                               mm1_departure_times, run_fedlrgd, svd_tail, taylor_matrix,
                               theorem1_bound, theorem1_min_rank, theorem2_r, theorem2_S)


def test_public_names_from_the_issue():
    b = theorem1_bound(np.array([139.0, 200.0, 400.0]), d=2, eta=2.0, L2=1.0)
    assert b.shape == (3,) and np.all(np.diff(b) < 0)
    assert isinstance(theorem1_min_rank(d=2, eta=2.0), float)
    assert theorem1_min_rank(2, 2.0) == pytest.approx(math.e * math.sqrt(2) * 4 * 9)
    lo, hi = erlang_quantile_bounds(20, 1e4)
    assert lo <= stats.gamma.isf(1e-4, a=20) <= hi
    assert math.isnan(theorem1_bound(10.0, d=2, eta=2.0))  # below r*


def test_theorem1_bound_at_r_star_is_lemma1_squared():
    for d, eta in ((1, 0.5), (2, 2.0), (3, 3.5)):
        l = math.ceil(eta) - 1
        assert theorem1_bound(theorem1_min_rank(d, eta), d, eta, 2.0) == pytest.approx(4.0 / math.factorial(l) ** 2)


def test_svd_tail_is_eckart_young():
    rng = np.random.default_rng(0)
    M = rng.standard_normal((30, 20))
    tail = svd_tail(M)
    U, s, Vt = np.linalg.svd(M, full_matrices=False)
    for r in (0, 3, 10, 20):
        Mr = (U[:, :r] * s[:r]) @ Vt[:r]
        assert tail[r] == pytest.approx(np.sum((M - Mr) ** 2) / 600, abs=1e-12)


@pytest.mark.parametrize("fn", [L1Power(eta=0.7, L2=1.3, d=1, p=1), PowerSum(eta=1.5, L2=1.0, d=2, p=2),
                                Cosine(eta=2.0, L2=0.5, d=2, p=2)])
def test_lemma1_sup_error_below_bound(fn):
    rng = np.random.default_rng(1)
    X = rng.uniform(0, 1, (3000, fn.d))
    Th = fn.sample_theta(rng, 3)
    for q in (3, 10):
        N, used, ncell = taylor_matrix(fn, X, Th, q)
        assert np.max(np.abs(N - fn.matrix(X, Th))) <= lemma1_bound(q, fn.eta, fn.L2) * (1 + 1e-12)


def test_cover_is_an_l1_cover():
    rng = np.random.default_rng(2)
    for d, q in ((1, 5.0), (2, 3.5)):
        cell, centres = l1_cover(q, d)
        X = rng.uniform(0, 1, (5000, d))
        assert np.max(np.abs(X - centres[cell(X)]).sum(1)) <= 1 / q + 1e-12


def test_approximate_rank():
    M = np.diag([3.0, 1.0, 0.1])
    assert approximate_rank(M, 0.89) == 1  # 9 of 10.01
    assert approximate_rank(M, 0.9) == 2   # 0.9 * 10.01 > 9
    assert approximate_rank(M, 0.9995) == 3


def test_fedlrgd_counters_and_exact_nodes():
    prob = make_logistic_problem(d=3, r=6, m=10, s=8, seed=3)
    res = run_fedlrgd(prob, S=25, phi=3.0, seed=1)
    assert res.counters["server_grads"] == 6 * 6 + 6 * 25
    assert res.counters["client_grads"] == [48] * 10 and res.counters["uploads"] == [6] * 10
    assert res.counters["epochs"] == 8
    assert res.gamma == fedlrgd_gamma(6, 8, 25, 10, 3.0)
    assert res.node_err < 1e-10
    assert res.gap[-1] < res.gap[0]


def test_fedlrgd_singular_G_warns_and_falls_back():
    prob = make_logistic_problem(d=3, r=40, m=5, s=4, seed=0)
    with pytest.warns(IllConditionedWarning, match="numerically singular"):
        res = run_fedlrgd(prob, S=5, seed=0)
    assert np.all(np.isfinite(res.theta))


def test_theorem2_and_fedave():
    assert theorem2_r(1, 50.0, eps=0.01) == 278
    assert theorem2_r(1, 50.0, eps=0.01, variant="printed") == 25
    S = theorem2_S(kappa=2.0, eps=0.01)
    A = 1 + 9 * 4 ** 4 / 0.2
    assert (0.5 ** S) * A <= 0.01 < (0.5 ** (S - 1)) * A
    G, b, T = fedave_gamma_numeric(100, 100.0, 1.0, 0.01, 1.0)
    base = 100 * 100 * (1 / 0.01) ** 0.75
    assert 0.75 * base <= G <= 8 * base
    assert 15.8 <= fedave_b_star_viete(100, 100.0, 1.0, 0.01, 1.0) <= 63.3


def test_mm1_departures_are_erlang():
    t = mm1_departure_times(20, 3.0, reps=3000, seed=5)
    assert stats.kstest(t, stats.gamma(a=20).cdf).pvalue > 0.001


@pytest.mark.parametrize("call, match", [
    (lambda: theorem1_bound(200.0, d=2, eta=0.0), r"`eta` must be in \(0"),
    (lambda: theorem1_bound(200.0, d=0, eta=2.0), r"`d` must be in \[1"),
    (lambda: theorem1_bound(0.0, d=2, eta=2.0), r"`r` must be >= 1"),
    (lambda: erlang_quantile_bounds(5, 1), r"`q` must be >= 2"),
    (lambda: theorem2_S(kappa=1.0), r"`kappa` must be in \(1"),
    (lambda: theorem2_r(1, 50.0, eps=1e6), r"`epsilon` must be in \(0"),
    (lambda: theorem2_r(2, 3.0), r"`eta` must exceed"),
])
def test_validation(call, match):
    with pytest.raises(ValueError, match=match):
        call()
