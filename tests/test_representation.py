import itertools
import math

import numpy as np
import pytest
from scipy import stats

from fedtheory import IllConditionedWarning, mc_mean, principal_angle_distance
from fedtheory.representation import (client_diversity, default_eta, fedavg_global_error,
                                      federation_helps_interval, fit_heads, fit_local, make_model,
                                      min_norm_interpolation_risk, mom_expectation, noise_std,
                                      ols_excess_risk, run_altgd, run_fedavg, run_fedrep,
                                      sample_complexity, theorem1_bound, theorem1_max_eta,
                                      theorem1_probability, theorem1_rate)


def test_public_example_from_the_issue():
    res = run_fedrep(d=20, k=2, n=100, m=10, r=0.1, rounds=200, seed=0)
    assert isinstance(res.dist, np.ndarray) and res.dist.shape == (201,)
    assert res.dist[-1] < 1e-6 < res.dist[0]
    # dist is recomputed independently from the returned final B
    assert res.dist[-1] == pytest.approx(
        np.sin(__import__("scipy").linalg.subspace_angles(res.B, res.model.B_star).max()), abs=1e-12)
    assert "FedRep run" in repr(res)


def test_same_seed_same_run_and_different_seed_differs():
    a = run_fedrep(d=10, k=2, n=20, m=8, r=0.5, rounds=20, seed=3)
    b = run_fedrep(d=10, k=2, n=20, m=8, r=0.5, rounds=20, seed=3)
    c = run_fedrep(d=10, k=2, n=20, m=8, r=0.5, rounds=20, seed=4)
    np.testing.assert_array_equal(a.dist, b.dist)
    assert not np.array_equal(a.dist, c.dist)


def test_round_matches_per_client_reference_algebra():
    """One vectorised round equals a per-client loop with lstsq heads (brute force)."""
    model = make_model(8, 2, 6, sigma=0.1, seed=1)
    res = run_fedrep(8, 2, 6, 5, 1.0, 1, model=model, init="random", eta=0.3, m_test=0,
                     orthonormalize_B=False, seed=2)
    # replay the same random streams
    from fedtheory.random import as_generator, spawn_seeds
    from fedtheory.linalg import random_orthonormal
    _, s_init, s_run, _ = spawn_seeds(2, 4)
    B = random_orthonormal(as_generator(s_init), 8, 2)
    rng = as_generator(s_run)
    sel = np.arange(6)  # r = 1: every client, nothing drawn (fedtheory.random.random_subset)
    X, y = model.sample(rng, sel, 5)
    grad = np.zeros_like(B)
    for i in range(6):
        w = np.linalg.lstsq(X[i] @ B, y[i], rcond=None)[0]
        grad += X[i].T @ (X[i] @ B @ w - y[i])[:, None] @ w[None, :] / 5
    B_ref = B - 0.3 * grad / 6
    np.testing.assert_allclose(res.B, B_ref, atol=1e-12)


def test_theorem1_contraction_on_exact_runs():
    """(10) holds at every round on noiseless runs in a large-m regime, with the exact sigma_min."""
    model = make_model(12, 2, 10, seed=5)
    dv = client_diversity(model.W_star, 5)
    assert dv.exact
    for s in range(5):
        res = run_fedrep(12, 2, 10, 60, 0.5, 40, model=model, m_test=0, seed=s)
        bound = theorem1_bound(np.arange(41), res.dist[0], res.eta, res.E0, dv.sigma_min)
        assert np.all(res.dist <= bound * (1 + 1e-12))
    assert res.eta <= theorem1_max_eta(dv.sigma_max)


def test_heads_and_local_fit_against_lstsq():
    rng = np.random.default_rng(0)
    A = rng.standard_normal((4, 9, 3))
    y = rng.standard_normal((4, 9))
    np.testing.assert_allclose(fit_heads(A, y), [np.linalg.lstsq(a, b, rcond=None)[0]
                                                 for a, b in zip(A, y)], atol=1e-12)
    X = rng.standard_normal((3, 4, 10))  # m < d: dual form, close to the minimum-norm solution
    yy = rng.standard_normal((3, 4))
    np.testing.assert_allclose(fit_local(X, yy, ridge=1e-12),
                               [np.linalg.pinv(x) @ t for x, t in zip(X, yy)], atol=1e-8)


def test_rank_deficient_head_warns_and_stays_finite():
    A = np.zeros((1, 3, 2))
    A[0, :, 0] = 1.0  # second feature identically zero
    with pytest.warns(IllConditionedWarning):
        w = fit_heads(A, np.ones((1, 3)))
    assert np.all(np.isfinite(w))


def test_mom_expectation_against_monte_carlo():
    model = make_model(4, 2, 3, sigma=0.3, seed=2)
    theta = model.theta_star

    for design in ("gaussian", "rademacher"):
        def sampler(g, n):
            i = g.integers(0, 3, n)
            x = (g.standard_normal((n, 4)) if design == "gaussian"
                 else g.integers(0, 2, (n, 4)) * 2.0 - 1)
            y = np.einsum("nd,nd->n", x, theta[i]) + 0.3 * g.standard_normal(n)
            return ((y ** 2)[:, None, None] * x[:, :, None] * x[:, None, :]).reshape(n, 16)

        est = mc_mean(sampler, 300_000, seed=9, chunk=100_000)
        closed = mom_expectation(model.B_star, model.W_star, 0.3, design).ravel()
        z = np.abs(est.z_score(closed))
        assert z.max() < stats.norm.ppf(1 - 0.001 / 32), design


def test_fedavg_error_formula_against_direct_minimisation():
    model = make_model(6, 2, 7, seed=3)
    theta = model.theta_star
    v = theta.mean(axis=0)  # minimiser of (1/2n) sum ||v - theta_i||^2 over v in R^d
    direct = 0.5 * np.mean(np.sum((v - theta) ** 2, axis=1))
    assert fedavg_global_error(model.B_star, model.W_star) == pytest.approx(direct, rel=1e-12)


def test_fedavg_run_reaches_eq4_minimum_but_not_col_Bstar():
    res = run_fedavg(d=10, k=2, n=20, m=30, r=1.0, rounds=300, eta=0.1, m_test=0, seed=1)
    opt = fedavg_global_error(res.model.B_star, res.model.W_star)
    assert res.objective[-1] == pytest.approx(opt, rel=0.05)
    assert res.dist[-1] > 0.1


def test_altgd_variants_run_and_exact_head_is_not_slower_than_gd_gd():
    kw = dict(d=10, k=2, n=100, m=5, r=0.1, rounds=40, m_test=0, seed=0)
    fedrep = run_fedrep(**kw).dist[-1]
    gdgd = run_altgd(head_steps=1, head_lr=0.4, **kw).dist[-1]
    assert fedrep < gdgd


def test_fixed_batches_and_rademacher_design_converge():
    res = run_fedrep(d=10, k=2, n=40, m=20, r=0.5, rounds=100, fresh_batches=False,
                     design="rademacher", seed=1)
    assert res.dist[-1] < 1e-2 * res.dist[0]


def test_noise_floor_with_label_noise():
    res = run_fedrep(d=10, k=2, n=50, m=10, r=0.2, rounds=150, sigma=0.1, seed=0)
    assert 1e-4 < np.median(res.dist[-20:]) < 0.1


# ------------------------------------------------------------------ theory closed forms
def test_theorem1_rate_broadcasts_and_matches_algebra():
    eta = np.array([0.05, 0.1, 0.125])
    rate = theorem1_rate(eta, 0.8, 0.9)
    np.testing.assert_allclose(rate, np.sqrt(1 - eta * 0.8 * 0.81 / 2))
    assert isinstance(theorem1_rate(0.1, 0.5, 1.0), float)
    b = theorem1_bound(np.arange(5), 0.5, 0.1, 0.8, 0.9)
    assert np.all(np.diff(b) < 0) and b[0] == 0.5
    # at eta = 1/(4 sigma_max^2): rho^2 = 1 - E0/(8 kappa^2)
    smax, smin, E0 = 1.3, 0.6, 0.7
    assert theorem1_rate(theorem1_max_eta(smax), E0, smin) ** 2 == pytest.approx(
        1 - E0 / (8 * (smax / smin) ** 2))


def test_theorem1_probability_values_and_log_base():
    assert theorem1_probability(10, 2, 1, 10) == 0.0  # vacuous at rn = 1
    p = theorem1_probability(100, 1, 2, 50)
    assert p == pytest.approx(1 - 100 * math.exp(-100 * math.log(2)))
    p2 = theorem1_probability(100, 1, 2, 50, log_base=2)
    assert p2 == pytest.approx(1 - 100 * math.exp(-100))


def test_sample_complexity_monotone_and_variants():
    base = dict(k=2, d=50, n=100, r=0.5, kappa=2.0, E0=0.5)
    m0 = sample_complexity(**base)
    assert m0 == pytest.approx(16 * 8 * math.log(50) / 0.25 + 16 * 4 * 50 / (0.25 * 50))
    assert sample_complexity(**{**base, "d": 100}) > m0
    assert sample_complexity(**{**base, "kappa": 3.0}) > m0
    assert sample_complexity(**{**base, "E0": 0.9}) < m0
    assert sample_complexity(**{**base, "c": 2.0}) == pytest.approx(2 * m0)
    e11 = sample_complexity(**base, variant="eq11", eps=0.1)
    assert e11 == pytest.approx(16 * 8 * (math.log(50) + 16 * 2 * 50 / 50) * math.log(10))
    with pytest.raises(ValueError, match="eps"):
        sample_complexity(**base, variant="eq11")


def test_federation_helps_interval_against_grid():
    lo, hi = federation_helps_interval(20.0)
    for n in (lo * 1.01, math.sqrt(lo * hi), hi / 1.01):
        assert math.log(n) + 20 / n < 20
    for n in (lo / 1.5, hi * 1.5):
        assert math.log(n) + 20 / n > 20


def test_min_norm_and_ols_risk_against_simulation():
    rng = np.random.default_rng(0)
    d, m = 12, 5
    theta = rng.standard_normal(d)
    errs = []
    for _ in range(4000):
        X = rng.standard_normal((m, d))
        errs.append(np.sum((np.linalg.pinv(X) @ (X @ theta) - theta) ** 2))
    se = np.std(errs) / np.sqrt(len(errs))
    assert abs(np.mean(errs) - min_norm_interpolation_risk(d, m, theta @ theta)) < 4 * se
    p, mm, s = 3, 12, 0.5
    errs = []
    for _ in range(4000):
        X = rng.standard_normal((mm, p))
        errs.append(np.sum((np.linalg.lstsq(X, s * rng.standard_normal(mm), rcond=None)[0]) ** 2))
    se = np.std(errs) / np.sqrt(len(errs))
    assert abs(np.mean(errs) - ols_excess_risk(p, mm, s)) < 4 * se


def test_client_diversity_exact_against_brute_force():
    model = make_model(5, 2, 7, seed=4)
    W = model.W_star
    dv = client_diversity(W, 3)
    sv = [np.linalg.svd(W[list(I)] / math.sqrt(3), compute_uv=False)
          for I in itertools.combinations(range(7), 3)]
    assert dv.exact and dv.n_subsets == 35
    assert dv.sigma_min == pytest.approx(min(s[-1] for s in sv))
    assert dv.sigma_max == pytest.approx(max(s[0] for s in sv))
    # the search (non-exact path) is on the safe side of the exact values
    est = client_diversity(W, 3, max_exact=1)
    assert not est.exact
    assert est.sigma_min >= dv.sigma_min - 1e-12 and est.sigma_max <= dv.sigma_max + 1e-12
    assert client_diversity(W, 1).sigma_min == 0.0  # rn < k


def test_default_eta_is_admissible():
    model = make_model(10, 3, 9, seed=0)
    dv = client_diversity(model.W_star, 4)
    assert default_eta(model.W_star) == pytest.approx(1 / 12)
    assert default_eta(model.W_star) <= theorem1_max_eta(dv.sigma_max)


def test_noise_conventions():
    assert noise_std(1e-3, "std") == 1e-3
    assert noise_std(1e-3, "variance") == pytest.approx(math.sqrt(1e-3))


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize("kwargs, match", [
    (dict(d=3, k=5), r"`k` must be in \[1, 3\]"),
    (dict(n=10, r=0.05), r"r\*n >= 1"),
    (dict(m=1, k=2), r"`m` must be >= k=2"),
    (dict(sigma=-1.0), r"`sigma` must be in \[0"),
    (dict(eta=0.0), r"`eta` must be in \(0"),
    (dict(rounds=-1), r"`rounds` must be in \[0"),
    (dict(r=1.5), r"`r` must be in \(0"),
    (dict(head_norm="big"), r"`head_norm` must be one of"),
])
def test_run_fedrep_input_validation(kwargs, match):
    base = dict(d=10, k=2, n=20, m=5, r=0.5, rounds=3, seed=0)
    with pytest.raises(ValueError, match=match):
        run_fedrep(**{**base, **kwargs})


def test_closed_form_input_validation():
    with pytest.raises(ValueError, match="E0"):
        theorem1_rate(0.1, 1.5, 1.0)
    with pytest.raises(ValueError, match="eta"):
        theorem1_rate(-0.1, 0.5, 1.0)
    with pytest.raises(ValueError, match="kappa"):
        sample_complexity(2, 10, 10, kappa=0.5)
