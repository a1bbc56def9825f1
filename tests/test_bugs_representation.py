"""Tests that catch realistic silent bugs in fedtheory.representation.

Every check compares against an independent computation (a plain per-client loop, Monte Carlo
with a confidence interval, or a hand-derived small case), never a re-typed copy of the formula.
"""
import itertools
import math

import numpy as np
import pytest

from fedtheory.linalg import principal_angle_distance, random_orthonormal
from fedtheory.random import as_generator, random_subset, spawn_seeds
from fedtheory.representation import make_model, population_objective, run_fedavg
from fedtheory.representation.model import FedRepModel


# --------------------------------------------------------------------------- FedAvg, r < 1
def _fedavg_reference(model, m, eta, local_steps, selections, seed):
    """FedAvg written as a plain loop over the selected clients and over their samples.

    The random streams are reproduced from the documented seeding (model, init, run, eval
    children of ``seed``) so that the reference sees the same B^0 and the same batches; the
    selected clients come from ``selection_log``. The arithmetic is independent of the library:
    per-sample gradients of ``(1/2m) sum_j (w^T B^T x_j - y_j)^2`` and the server's average over
    the clients that actually took part.
    """
    _, ss_init, ss_run, _ = spawn_seeds(seed, 4)
    B = random_orthonormal(as_generator(ss_init), model.d, model.k)
    w = np.zeros(model.k)
    rng = as_generator(ss_run)
    traj = []
    for sel in selections:
        random_subset(rng, model.n, len(sel))  # the draw of the selection itself
        X, y = model.sample(rng, sel, m)
        Bs, ws = [], []
        for c in range(len(sel)):
            Bc, wc = B.copy(), w.copy()
            for _ in range(local_steps):
                gB = np.zeros_like(Bc)
                gw = np.zeros_like(wc)
                for j in range(m):
                    x = X[c, j]
                    res = float(wc @ (Bc.T @ x)) - y[c, j]
                    gB += res * np.outer(x, wc) / m
                    gw += res * (Bc.T @ x) / m
                Bc, wc = Bc - eta * gB, wc - eta * gw
            Bs.append(Bc)
            ws.append(wc)
        B = sum(Bs) / len(sel)  # the server divides by the number of participants
        w = sum(ws) / len(sel)
        traj.append((B.copy(), w.copy()))
    return traj


@pytest.mark.parametrize("r, local_steps", [(0.5, 1), (0.25, 3)])
def test_fedavg_partial_participation_matches_plain_loop(r, local_steps):
    d, k, n, m, rounds, eta = 6, 2, 8, 5, 4, 0.05
    model = make_model(d, k, n, seed=11)
    log = []
    res = run_fedavg(d, k, n, m, r, rounds, eta=eta, model=model, local_steps=local_steps, m_test=0,
                     selection_log=log, seed=3)
    assert all(len(s) == round(r * n) for s in log)
    assert all(len(set(s.tolist())) == len(s) for s in log)  # without replacement
    traj = _fedavg_reference(model, m, eta, local_steps, log, seed=3)
    np.testing.assert_allclose(res.B, traj[-1][0], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(res.w, traj[-1][1], rtol=1e-10, atol=1e-12)
    # the recorded trajectory: dist of every round, objective (4) against a Monte Carlo-free
    # evaluation (plain loop over clients of (1/2)||B w - theta_i||^2)
    for t, (B, w) in enumerate(traj, start=1):
        assert res.dist[t] == pytest.approx(principal_angle_distance(B, model.B_star), abs=1e-10)
        obj = sum(0.5 * float(np.sum((B @ w - model.theta_star[i]) ** 2)) for i in range(n)) / n
        assert res.objective[t] == pytest.approx(obj, rel=1e-10)


def test_fedavg_one_round_hand_case():
    """One client of two (r = 1/2), one sample: the server's model is that client's model, not half of it."""
    d, k, n = 2, 1, 2
    model = FedRepModel(B_star=np.array([[1.0], [0.0]]), W_star=np.array([[1.0], [-1.0]]), sigma=0.0)
    log = []
    res = run_fedavg(d, k, n, 1, 0.5, 1, eta=0.5, model=model, m_test=0, selection_log=log, seed=0)
    _, ss_init, ss_run, _ = spawn_seeds(0, 4)
    B0 = random_orthonormal(as_generator(ss_init), d, k)
    rng = as_generator(ss_run)
    sel = random_subset(rng, n, 1)
    X, y = model.sample(rng, sel, 1)
    x, yy = X[0, 0], y[0, 0]
    # w^0 = 0, so the residual is -y, the B-gradient is 0 and the w-gradient is -y B^T x
    assert np.array_equal(sel, log[0])
    np.testing.assert_allclose(res.B, B0, atol=1e-15)
    np.testing.assert_allclose(res.w, 0.5 * yy * (B0.T @ x), rtol=1e-12)


# --------------------------------------------------------------------------- objective (6)
def test_population_objective_hand_case():
    """d = k = n = 1, B = B* = 1, w = 0, w* = 1: F = (1/2) E[(x + sigma z)^2] = (1 + sigma^2)/2."""
    one = np.ones((1, 1))
    assert population_objective(one, 0 * one, one, one) == pytest.approx(0.5, abs=1e-15)
    assert population_objective(one, 0 * one, one, one, sigma=2.0) == pytest.approx(2.5, abs=1e-15)
    # perfect fit leaves only the noise term sigma^2 / 2
    assert population_objective(one, one, one, one, sigma=0.3) == pytest.approx(0.045, abs=1e-15)


def test_population_objective_against_monte_carlo():
    """(1/2n) sum_i E[(y_i - w_i^T B^T x)^2] by sampling x ~ N(0, I) and the label noise."""
    d, k, n, sigma = 5, 2, 4, 0.7
    rng = np.random.default_rng(0)
    model = make_model(d, k, n, seed=1)
    B = random_orthonormal(rng, d, k)
    W = rng.standard_normal((n, k))
    reps = 100_000
    per_rep = np.zeros(reps)
    for i in range(n):
        x = rng.standard_normal((reps, d))
        y = x @ model.theta_star[i] + sigma * rng.standard_normal(reps)
        per_rep += 0.5 * (y - x @ (B @ W[i])) ** 2 / n
    mean, se = per_rep.mean(), per_rep.std(ddof=1) / math.sqrt(reps)
    F = population_objective(B, W, model.B_star, model.W_star, sigma)
    assert abs(F - mean) < 4.5 * se, (F, mean, se)


# --------------------------------------------------------------------------- closed forms of theory.py
from fedtheory.representation import (federation_helps_interval, fedavg_global_error,  # noqa: E402
                                      min_norm_interpolation_risk, mom_expectation, ols_excess_risk,
                                      sample_complexity, theorem1_bound, theorem1_max_eta,
                                      theorem1_probability, theorem1_rate)
from fedtheory.representation.theory import fedavg_minimiser, theorem1_rounds_to_eps  # noqa: E402


def _quiet():
    import warnings
    ctx = warnings.catch_warnings()
    ctx.__enter__()
    warnings.simplefilter("error")
    return ctx


def test_fedavg_minimiser_and_global_error_hand_case():
    B_star = np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]])
    W_star = np.array([[1.0, 2.0], [3.0, 4.0], [2.0, 0.0]])
    v = fedavg_minimiser(B_star, W_star)
    np.testing.assert_allclose(v, [2.0, 2.0, 0.0])
    # v minimises (1/2n) sum_i ||v - theta_i||^2: gradient zero, value = the printed minimum of (4)
    from scipy.optimize import minimize
    theta = W_star @ B_star.T
    f = lambda u: 0.5 * np.mean(np.sum((u - theta) ** 2, axis=1))  # noqa: E731
    np.testing.assert_allclose(minimize(f, np.zeros(3), tol=1e-12).x, v, atol=1e-6)
    # deviations (-1, 0), (1, 2), (0, -2): (1/2)(1 + 5 + 4)/3 = 5/3
    assert fedavg_global_error(B_star, W_star) == pytest.approx(5 / 3, rel=1e-12)
    assert fedavg_global_error(B_star, W_star[:, :1] * np.ones((1, 2))) == pytest.approx(
        0.5 * (1 + 1 + 0) * 2 / 3, rel=1e-12)


def test_theorem1_rate_bound_and_max_eta_hand_values_and_domain():
    # a = eta E0 s^2 / 2 = 0.5 * 1 * 1 / 2 = 0.25: rate sqrt(0.75)
    assert theorem1_rate(0.5, 1.0, 1.0) == pytest.approx(math.sqrt(0.75), rel=1e-15)
    assert theorem1_rate(0.5, 0.0, 1.0) == 1.0  # E0 = 0 is allowed: no contraction
    assert theorem1_rate(2.0, 1.0, 1.0) == 0.0  # inside = 0 exactly
    ctx = _quiet()
    try:
        assert math.isnan(theorem1_rate(5.0, 1.0, 1.0))  # outside the step-size condition, no warning
        assert theorem1_max_eta(0.0) == math.inf
    finally:
        ctx.__exit__(None, None, None)
    np.testing.assert_allclose(theorem1_rate([0.5, 2.0], [1.0, 0.5], 1.0), [math.sqrt(0.75), math.sqrt(0.5)])
    assert theorem1_bound(2, 0.5, 0.5, 1.0, 1.0) == pytest.approx(0.375, rel=1e-14)
    assert theorem1_bound(0, 1.0, 0.5, 1.0, 1.0) == 1.0 and theorem1_bound(3, 0.0, 0.5, 1.0, 1.0) == 0.0
    b = theorem1_bound(np.array([0, 2, 4]), 0.8, 0.5, 1.0, 1.0)
    assert isinstance(b, np.ndarray) and b == pytest.approx([0.8, 0.6, 0.45])
    assert theorem1_max_eta(2.0) == 0.0625 and isinstance(theorem1_max_eta(2.0), float)
    np.testing.assert_allclose(theorem1_max_eta([0.5, 1.0]), [1.0, 0.25])
    for bad in (dict(eta=-0.1), dict(eta=np.nan), dict(eta=np.inf), dict(E0=-0.01), dict(E0=1.01),
                dict(sigma_min=-1.0), dict(sigma_min=np.nan)):
        with pytest.raises(ValueError, match=f"`{list(bad)[0]}`"):
            theorem1_rate(**{**dict(eta=0.1, E0=0.5, sigma_min=1.0), **bad})
    for bad in (dict(dist0=-0.1), dict(dist0=1.1), dict(T=-1)):
        with pytest.raises(ValueError, match=f"`{list(bad)[0]}`"):
            theorem1_bound(**{**dict(T=1, dist0=0.5, eta=0.1, E0=0.5, sigma_min=1.0), **bad})
    with pytest.raises(ValueError, match="`sigma_max`"):
        theorem1_max_eta(-1.0)
    # integer input is computed in floating point (an int64 square would overflow here)
    assert theorem1_max_eta(4_000_000_000) == pytest.approx(1 / (4 * 1.6e19), rel=1e-12, abs=0)
    assert theorem1_rate(1, 1, 1) == pytest.approx(math.sqrt(0.5))
    assert theorem1_rate(0.1, 1.0, 0.0) == 1.0  # the boundaries 0 are allowed


def test_theorem1_rounds_to_eps_against_a_brute_force_loop():
    for eta, E0, s, d0, eps in [(0.5, 1.0, 1.0, 1.0, 1e-3), (0.1, 0.7, 0.9, 0.8, 0.05), (0.3, 0.5, 2.0, 0.5, 0.49),
                                (0.25, 0.9, 1.5, 0.3, 1e-6)]:
        rate = math.sqrt(1 - eta * E0 * s * s / 2)
        T, val = 0, d0
        while val > eps:
            T += 1
            val = d0 * rate ** T
        assert theorem1_rounds_to_eps(eps, d0, eta, E0, s) == T
    assert theorem1_rounds_to_eps(0.5, 0.5, 0.1, 0.5, 1.0) == 0.0  # already there
    assert theorem1_rounds_to_eps(0.1, 0.5, 0.0, 0.5, 1.0) == math.inf  # no contraction
    out = theorem1_rounds_to_eps(np.array([0.5, 1e-3]), 1.0, 0.5, 1.0, 1.0)
    assert isinstance(out, np.ndarray) and out[1] == theorem1_rounds_to_eps(1e-3, 1.0, 0.5, 1.0, 1.0)


def test_theorem1_probability_hand_values_and_domain():
    # min(k^2 log rn, d) with rn = e^0.01, k = 1: exponent 100 * 0.01 = 1
    assert theorem1_probability(0.5, 1, math.exp(0.01), 10) == pytest.approx(1 - 0.5 / math.e, rel=1e-12)
    assert theorem1_probability(10, 1, math.exp(0.01), 10) == 0.0  # 1 - 10/e < 0: clipped at 0
    # the d branch of the min: d = 1 < k^2 log rn = 2, exponent 100
    assert theorem1_probability(0.5 * math.exp(100), 1, math.exp(2), 1) == pytest.approx(0.5, rel=1e-12)
    # k^2: k = 2 and rn = e^0.0025: 4 * 0.0025 * 100 = 1
    assert theorem1_probability(0.5, 2, math.exp(0.0025), 10) == pytest.approx(1 - 0.5 / math.e, rel=1e-12)
    # log base 2: log2(rn) = 0.01 at rn = 2^0.01
    assert theorem1_probability(0.5, 1, 2 ** 0.01, 10, log_base=2) == pytest.approx(1 - 0.5 / math.e, rel=1e-12)
    assert theorem1_probability(0, 1, 1, 1) == 1.0  # T = 0, rn = 1, k = 1, d = 1 are allowed
    out = theorem1_probability(np.array([0.5, 1.0]), 1, math.exp(0.01), 10)
    assert isinstance(out, np.ndarray) and out == pytest.approx([1 - 0.5 / math.e, 1 - 1 / math.e])
    for bad in (dict(T=-1), dict(k=0.5), dict(rn=0.9), dict(d=0.5)):
        with pytest.raises(ValueError):
            theorem1_probability(**{**dict(T=1, k=1, rn=2, d=2), **bad})


def test_sample_complexity_hand_values_for_every_variant():
    k, d, n, r, kappa, E0 = 2.0, 8.0, 16.0, 0.5, 2.0, 0.5  # rn = 8
    L8, L16 = math.log(8), math.log(16)
    theorem = 16 * 8 * L8 / 0.25 + 16 * 4 * 8 / (0.25 * 8)
    assert sample_complexity(k, d, n, r, kappa, E0) == pytest.approx(theorem, rel=1e-14)
    assert sample_complexity(k, d, n, r, kappa, E0, c=3.0) == pytest.approx(3 * theorem, rel=1e-14)
    assert sample_complexity(k, d, n, r, kappa, E0, eps=0.1) == pytest.approx(theorem * math.log(10), rel=1e-14)
    intro = 4 * 8 * (L16 + 4 * 2 * 8 / 16)
    assert sample_complexity(k, d, n, r, kappa, E0, variant="intro") == pytest.approx(intro, rel=1e-14)
    eq11 = 16 * 8 * (L8 + 16 * 2 * 8 / 8) * math.log(4)
    assert sample_complexity(k, d, n, r, kappa, E0, variant="eq11", eps=0.25) == pytest.approx(eq11, rel=1e-14)
    # the boundaries of the domain are allowed: r = 1, r n = 1, kappa = 1, E0 = 1, d = k
    assert sample_complexity(1, 1, 1, 1.0, 1.0, 1.0) == pytest.approx(1.0)  # 0 + 1*1*1/(1*1)
    out = sample_complexity(k, np.array([8.0, 16.0]), n, r, kappa, E0)
    assert isinstance(out, np.ndarray) and out[0] == pytest.approx(theorem)
    bads = [dict(k=0.5), dict(d=1.0), dict(r=0.0), dict(r=1.5), dict(n=1.0), dict(kappa=0.9), dict(E0=0.0),
            dict(E0=1.5), dict(eps=0.0), dict(eps=1.0), dict(c=0.0), dict(variant="paper")]
    for bad in bads:
        with pytest.raises(ValueError):
            sample_complexity(**{**dict(k=k, d=d, n=n, r=r, kappa=kappa, E0=E0), **bad})


def test_mom_expectation_rademacher_by_exact_enumeration():
    """E[y^2 x x^T] over all 2^d sign vectors x and the noise (exact), against the closed form."""
    rng = np.random.default_rng(3)
    B_star = np.linalg.qr(rng.standard_normal((3, 2)))[0]
    W_star = rng.standard_normal((4, 2))
    sigma = 0.7
    theta = W_star @ B_star.T
    exact = np.zeros((3, 3))
    xs = list(itertools.product([-1.0, 1.0], repeat=3))
    for th in theta:
        for x in xs:
            x = np.array(x)
            exact += ((th @ x) ** 2 + sigma ** 2) * np.outer(x, x) / (len(xs) * len(theta))
    np.testing.assert_allclose(mom_expectation(B_star, W_star, sigma, "rademacher"), exact, atol=1e-12)
    # Gaussian x: E[(th.x)^2 x x^T] = ||th||^2 I + 2 th th^T (Isserlis), by Gauss-Hermite quadrature in 3-d
    gx, gw = np.polynomial.hermite_e.hermegauss(6)
    gw = gw / gw.sum()
    exact_g = np.zeros((3, 3))
    for i, j, l in itertools.product(range(6), repeat=3):
        x = np.array([gx[i], gx[j], gx[l]])
        wgt = gw[i] * gw[j] * gw[l]
        for th in theta:
            exact_g += wgt * ((th @ x) ** 2 + sigma ** 2) * np.outer(x, x) / len(theta)
    np.testing.assert_allclose(mom_expectation(B_star, W_star, sigma), exact_g, atol=1e-10)
    with pytest.raises(ValueError, match="`sigma`"):
        mom_expectation(B_star, W_star, -1.0)
    with pytest.raises(ValueError, match="`design`"):
        mom_expectation(B_star, W_star, 0.0, "uniform")
    # defaults: noiseless Gaussian design, (||theta||^2) I + 2 theta theta^T averaged
    expect = np.mean([th @ th * np.eye(3) + 2 * np.outer(th, th) for th in theta], axis=0)
    np.testing.assert_allclose(mom_expectation(B_star, W_star), expect, atol=1e-12)


def test_federation_helps_interval_roots_and_empty_set():
    for d, C in [(20.0, 1.0), (30.0, 2.5), (8.0, 0.5), (100.0, 1.0)]:
        lo, hi = federation_helps_interval(d, C)
        for n in (lo, hi):
            assert C * (math.log(n) + d / n) == pytest.approx(d, rel=1e-9)
        assert lo < d / C < hi or lo < d < hi
        assert C * (math.log(math.sqrt(lo * hi)) + d / math.sqrt(lo * hi)) < d
    # empty: C (1 + log d) >= d
    assert all(math.isnan(v) for v in federation_helps_interval(1.0, 1.0))
    assert all(math.isnan(v) for v in federation_helps_interval(20.0, 10.0))
    assert all(math.isnan(v) for v in federation_helps_interval(0.5, 2.0))  # d in (0, 1] is allowed
    for bad in (dict(d=0.0), dict(d=-1.0), dict(C=0.0), dict(C=-1.0)):
        with pytest.raises(ValueError, match=f"`{list(bad)[0]}`"):
            federation_helps_interval(**{**dict(d=20.0, C=1.0), **bad})


def test_min_norm_and_ols_risk_hand_values():
    assert min_norm_interpolation_risk(12, 5, 3.0) == pytest.approx(7 / 12 * 3)
    assert min_norm_interpolation_risk(12, 12, 3.0) == 0.0 and min_norm_interpolation_risk(12, 20, 3.0) == 0.0
    out = min_norm_interpolation_risk(np.array([4, 8]), 2, 1.0)
    assert isinstance(out, np.ndarray) and out == pytest.approx([0.5, 0.75])
    assert ols_excess_risk(3, 12, 0.5) == pytest.approx(0.25 * 3 / 8)
    ctx = _quiet()
    try:
        assert math.isnan(ols_excess_risk(3, 4, 0.5)) and math.isnan(ols_excess_risk(3, 2, 0.5))
        assert math.isnan(ols_excess_risk(3, 4, 0.0))  # 0/0 at m = p + 1, quietly NaN
    finally:
        ctx.__exit__(None, None, None)
    assert ols_excess_risk(3, 5, 1.0) == pytest.approx(3.0)


# --------------------------------------------------------------------------- algorithms.py: rounds and fits
import copy  # noqa: E402

from fedtheory.representation import algorithms as alg  # noqa: E402


def _round_loop(B, X, y, eta, head_steps=None, head_lr=0.5, w_init=None, qr=True):
    """FedRep round as a per-client loop: exact (lstsq) or GD heads, mean of per-client B-gradients, QR."""
    c, m, _ = X.shape
    W, R_ = [], []
    grad = np.zeros_like(B)
    for i in range(c):
        A = X[i] @ B
        if head_steps is None:
            w = np.linalg.lstsq(A, y[i], rcond=None)[0]
        else:
            w = np.zeros(B.shape[1]) if w_init is None else w_init[i].copy()
            for _ in range(head_steps):
                w = w - head_lr * A.T @ (A @ w - y[i]) / m
        r = A @ w - y[i]
        grad += np.outer(X[i].T @ r, w) / m
        W.append(w)
        R_.append(r)
    B_bar = B - eta * grad / c
    if not qr:
        return B_bar, B_bar, np.eye(B.shape[1]), np.array(W), np.array(R_)
    Q, R = np.linalg.qr(B_bar)
    s = np.sign(np.diag(R))
    return Q * s, B_bar, s[:, None] * R, np.array(W), np.array(R_)


@pytest.mark.parametrize("head_steps, qr", [(None, True), (3, True), (2, False)])
def test_fedrep_round_against_a_per_client_loop(head_steps, qr):
    rng = np.random.default_rng(0)
    model = make_model(7, 2, 5, sigma=0.2, seed=4)
    B = random_orthonormal(rng, 7, 2)
    X, y = model.sample(rng, np.arange(5), 6)
    w_init = rng.standard_normal((5, 2))
    out = alg.fedrep_round(B, X, y, 0.4, w_init=w_init, head_steps=head_steps, head_lr=0.3, orthonormalize_B=qr)
    ref = _round_loop(B, X, y, 0.4, head_steps, 0.3, w_init, qr)
    for a, b in zip(out, ref):
        np.testing.assert_allclose(a, b, atol=1e-12)
    assert np.all(np.diag(out.R) >= 0)
    np.testing.assert_allclose(out.B_next @ out.R, out.B_bar, atol=1e-12)


def test_stacked_and_sharded_rounds_draw_like_model_sample(monkeypatch):
    model = make_model(6, 2, 8, sigma=0.3, seed=2)
    B = random_orthonormal(np.random.default_rng(1), 6, 2)
    clients = np.array([5, 1, 7, 2, 0])
    g = np.random.default_rng(3)
    out = alg.fedrep_round_stacked(B, model, clients, 4, 0.2, copy.deepcopy(g))
    X, y = model.sample(copy.deepcopy(g), clients, 4)
    for a, b in zip(out, _round_loop(B, X, y, 0.2)):
        np.testing.assert_allclose(a, b, atol=1e-12)
    # shards: each part of the clients drawn from its own stream; results do not depend on workers
    gens = [np.random.default_rng(s) for s in (10, 11)]
    parts = np.array_split(np.arange(clients.size), 2)
    Xs, ys = zip(*[model.sample(copy.deepcopy(gg), clients[p], 4) for p, gg in zip(parts, gens)])
    ref = _round_loop(B, np.concatenate(Xs), np.concatenate(ys), 0.2)
    one = alg.fedrep_round_sharded(B, model, clients, 4, 0.2, [copy.deepcopy(x) for x in gens], workers=1)
    monkeypatch.setattr(alg, "PARALLEL_MIN_NORMALS", 0)
    two = alg.fedrep_round_sharded(B, model, clients, 4, 0.2, [copy.deepcopy(x) for x in gens], workers=2)
    for a, b, c in zip(one, two, ref):
        np.testing.assert_allclose(a, c, atol=1e-12)
        np.testing.assert_array_equal(a, b)
    # GD heads warm-started per shard
    w0 = np.arange(10.0).reshape(5, 2) / 10
    sh = alg.fedrep_round_sharded(B, model, clients, 4, 0.2, [copy.deepcopy(x) for x in gens], w_init=w0,
                                  head_steps=2, head_lr=0.25, orthonormalize_B=False)
    ref = _round_loop(B, np.concatenate(Xs), np.concatenate(ys), 0.2, 2, 0.25, w0, qr=False)
    for a, b in zip(sh, ref):
        np.testing.assert_allclose(a, b, atol=1e-12)


def test_run_fedrep_shards_and_workers_give_the_same_numbers(monkeypatch):
    kw = dict(d=6, k=2, n=8, m=5, r=0.5, rounds=3, m_test=0, shards=2, seed=1)
    a = alg.run_fedrep(**kw)
    monkeypatch.setattr(alg, "PARALLEL_MIN_NORMALS", 0)
    b = alg.run_fedrep(**kw, workers=2)
    np.testing.assert_array_equal(a.dist, b.dist)
    assert a.params["shards"] == 2
    c = alg.run_fedrep(**{**kw, "shards": 1})
    assert not np.array_equal(a.dist[1:], c.dist[1:])  # other streams, other numbers


def test_fits_against_direct_solves():
    rng = np.random.default_rng(5)
    X = rng.standard_normal((3, 4, 6))  # m = 4 < d = 6: the dual form
    y = rng.standard_normal((3, 4))
    for ridge in (1e-5, 0.7):
        th = alg.fit_local(X, y, ridge=ridge)
        for i in range(3):
            np.testing.assert_allclose(th[i], np.linalg.solve(X[i].T @ X[i] + ridge * np.eye(6), X[i].T @ y[i]),
                                       rtol=1e-8, atol=1e-10)
    X2 = rng.standard_normal((2, 9, 3))  # m >= d: the primal form
    y2 = rng.standard_normal((2, 9))
    th2 = alg.fit_local(X2, y2, ridge=0.3)
    for i in range(2):
        np.testing.assert_allclose(th2[i], np.linalg.solve(X2[i].T @ X2[i] + 0.3 * np.eye(3), X2[i].T @ y2[i]),
                                   atol=1e-12)
    np.testing.assert_allclose(alg.fit_local(X2, y2)[0], np.linalg.solve(X2[0].T @ X2[0] + 1e-5 * np.eye(3),
                                                                         X2[0].T @ y2[0]), atol=1e-12)
    A = rng.standard_normal((2, 5, 2))
    w = alg.fit_heads(A, y2[:, :5], ridge=0.4)
    for i in range(2):
        np.testing.assert_allclose(w[i], np.linalg.solve(A[i].T @ A[i] + 0.4 * np.eye(2), A[i].T @ y2[i, :5]),
                                   atol=1e-12)


@pytest.mark.parametrize("chunk", [4096, 2])
def test_mom_init_is_the_top_eigenspace_of_the_moment_matrix(chunk):
    model = make_model(5, 2, 5, sigma=0.1, seed=6)
    g = np.random.default_rng(7)
    B = alg.mom_init(model, 4, copy.deepcopy(g), chunk=chunk)
    ref = copy.deepcopy(g)
    Z = np.zeros((5, 5))
    for start in range(0, 5, chunk):
        X, y = model.sample(ref, np.arange(start, min(5, start + chunk)), 4)
        for i in range(X.shape[0]):
            for j in range(4):
                Z += y[i, j] ** 2 * np.outer(X[i, j], X[i, j]) / 20
    ev, vec = np.linalg.eigh(Z)
    assert B.shape == (5, 2)
    assert principal_angle_distance(B, vec[:, -2:]) < 1e-10
    np.testing.assert_allclose(B.T @ B, np.eye(2), atol=1e-12)


def test_test_mse_and_eval_refit_by_hand():
    model = make_model(4, 2, 3, sigma=0.5, seed=8)
    theta_hat = np.random.default_rng(0).standard_normal((3, 4))
    g = np.random.default_rng(9)
    val = alg.test_mse(model, theta_hat, copy.deepcopy(g), 7)
    ref = copy.deepcopy(g)
    X = ref.standard_normal((3, 7, 4))
    noise = ref.standard_normal((3, 7))
    errs = [(X[i, j] @ model.theta_star[i] + 0.5 * noise[i, j] - X[i, j] @ theta_hat[i]) ** 2
            for i in range(3) for j in range(7)]
    assert val == pytest.approx(np.mean(errs), rel=1e-12)
    quiet = alg.test_mse(model, theta_hat[[2, 0]], copy.deepcopy(g), 7, clients=np.array([2, 0]), noiseless=True)
    X = copy.deepcopy(g).standard_normal((2, 7, 4))
    ref_q = np.mean([(X[a, j] @ (model.theta_star[c] - theta_hat[c])) ** 2 for a, c in enumerate([2, 0])
                     for j in range(7)])
    assert quiet == pytest.approx(ref_q, rel=1e-12)
    assert math.isnan(alg._eval_with_refit(model, np.eye(4)[:, :2], 5, 0, g))


def test_new_client_mse_against_ols_risk():
    """A new client fits its head by OLS on the true B*: E||w_hat - w||^2 = sigma^2 k/(m - k - 1)."""
    from fedtheory.representation import ols_excess_risk
    model = make_model(6, 2, 2, seed=0)
    mse = alg.new_client_mse(model.B_star, 8, d=6, k=2, n_new=4000, sigma=0.5, B_star=model.B_star, ridge=0.0,
                             m_test=200, seed=1)
    assert mse.shape == (4000,)
    se = mse.std(ddof=1) / math.sqrt(mse.size)
    assert abs(mse.mean() - ols_excess_risk(2, 8, 0.5)) < 4.5 * se + 0.01 * ols_excess_risk(2, 8, 0.5)
    loc = alg.new_client_mse(None, 8, d=6, k=2, n_new=2000, sigma=0.5, B_star=model.B_star, ridge=0.0, seed=2)
    assert abs(loc.mean() - ols_excess_risk(6, 8, 0.5)) < 0.25 * ols_excess_risk(6, 8, 0.5)


def test_default_eta_results_and_samplers():
    W = np.array([[1.0, 1.0], [0.0, 3.0], [2.0, 0.0]])
    assert alg.default_eta(W) == pytest.approx(1 / 36)
    res = alg.run_fedrep(6, 2, 4, 5, 0.5, 2, m_test=0, seed=0)
    assert res.E0 == pytest.approx(1 - res.dist[0] ** 2)
    assert res.eta == alg.default_eta(res.model.W_star) and res.params["algorithm"] == "FedRep"
    assert "FedRep run: d=6, k=2, n=4" in res.summary() and repr(res).startswith("FedRepResult(")
    gd = alg.run_altgd(6, 2, 4, 5, 0.5, 2, m_test=0, head_steps=10, seed=0)
    assert gd.params["algorithm"] == "10GD-GD" and gd.params["head_lr"] == 0.5
    fa = alg.run_fedavg(6, 2, 4, 5, 0.5, 2, m_test=0, seed=0)
    assert fa.summary().startswith("FedAvg run: objective") and repr(fa).startswith("FedAvgResult(")
    assert math.isnan(fa.eval_mse) and math.isnan(res.eval_mse)
    m = make_model(6, 2, 4, seed=0)
    assert alg.resolve_sampler("auto", m, fresh_batches=False) == "full"
    assert alg.resolve_sampler("auto", m) == "reduced"
    with pytest.raises(ValueError, match="fresh batches"):
        alg.resolve_sampler("reduced", m, fresh_batches=False)
    with pytest.raises(ValueError, match="`model`"):
        alg.run_fedrep(6, 2, 5, 5, 0.5, 1, model=m)
    with pytest.raises(ValueError, match="`m`"):
        alg.run_fedrep(6, 2, 4, 1, 0.5, 1)


# --------------------------------------------------------------------------- run_fedrep / run_fedavg bookkeeping
def test_run_fedrep_batch_loss_heads_and_objective_after_one_round():
    model = make_model(8, 2, 6, sigma=0.1, seed=1)
    for head_steps in (None, 2):
        kw = dict(model=model, init="random", eta=0.3, m_test=0, seed=2)
        if head_steps:
            kw.update(head_steps=2, head_lr=0.3)
        res = alg.run_fedrep(8, 2, 6, 5, 1.0, 1, **kw)
        _, s_init, s_run, _ = spawn_seeds(2, 4)
        B = random_orthonormal(as_generator(s_init), 8, 2)
        rng = as_generator(s_run)
        sel = np.arange(6)  # r = 1: every client, nothing drawn
        X, y = model.sample(rng, sel, 5)
        B1, _, _, W, resid = _round_loop(B, X, y, 0.3, head_steps, 0.3, np.zeros((6, 2)))
        assert res.batch_loss.shape == (1,)
        assert res.batch_loss[0] == pytest.approx(0.5 * np.mean(resid ** 2), rel=1e-10)
        np.testing.assert_allclose(res.W[sel], W, atol=1e-12)
        np.testing.assert_allclose(res.B, B1, atol=1e-12)
        obj = 0.5 * np.mean([np.sum((B1 @ res.W[i] - model.theta_star[i]) ** 2) for i in range(6)]) + 0.005
        assert res.objective[1] == pytest.approx(obj, rel=1e-10)
        assert res.params["orthonormalize_B"] is True and res.params["head_lr"] == (0.3 if head_steps else None)


def test_run_fedrep_fixed_batches_with_gd_heads_warm_start_from_the_last_heads():
    model = make_model(6, 2, 4, sigma=0.0, seed=3)
    res = alg.run_fedrep(6, 2, 4, 8, 1.0, 2, model=model, init="random", eta=0.2, fresh_batches=False,
                         head_steps=1, head_lr=0.4, m_test=0, seed=5)
    _, s_init, s_run, _ = spawn_seeds(5, 4)
    B = random_orthonormal(as_generator(s_init), 6, 2)
    rng = as_generator(s_run)
    X_all, y_all = model.sample(rng, np.arange(4), 8)
    W = np.zeros((4, 2))
    for _ in range(2):
        sel = np.arange(4)  # r = 1: every client, nothing drawn
        B, _, _, w, _ = _round_loop(B, X_all[sel], y_all[sel], 0.2, 1, 0.4, W[sel])
        W[sel] = w
    np.testing.assert_allclose(res.B, B, atol=1e-12)
    np.testing.assert_allclose(res.W, W, atol=1e-12)


def test_run_fedavg_and_altgd_defaults_params_and_eval():
    res = alg.run_fedavg(m_test=0)
    assert res.dist.size == 101 and res.params["n_sel"] == 10 and res.params["eta"] == 0.1
    assert alg.run_altgd(6, 2, 4, 5, 0.5, 1, m_test=0).params["head_steps"] == 1
    fa = alg.run_fedavg(6, 2, 4, 5, 0.5, 2, sigma=0.2, head_norm="unit", m_test=7, seed=1)
    assert fa.params["sigma"] == 0.2 and fa.params["m_test"] == 7 and fa.params["seed"] == 1
    assert fa.params["head_norm"] == "unit" and fa.model.head_norm == "unit"
    assert np.isfinite(fa.eval_mse) and fa.eval_mse > 0
    assert fa.summary() == (f"FedAvg run: objective {fa.objective[0]:.3g} -> {fa.objective[-1]:.3g}, "
                            f"dist(B, B*) {fa.dist[-1]:.3g}, eval MSE (+FT) {fa.eval_mse:.3g}")
    for bad, name in ((dict(local_steps=0), "local_steps"), (dict(n=0), "n"), (dict(m_test=-1), "m_test")):
        with pytest.raises(ValueError, match=f"`{name}`"):
            alg.run_fedavg(**{**dict(d=6, k=2, n=4, m=5, r=0.5, rounds=1), **bad})
    with pytest.raises(ValueError, match="`m_init`"):
        alg.run_fedrep(6, 2, 4, 5, 0.5, 1, m_init=0)
    with pytest.raises(ValueError, match="`sigma`.*noise standard deviation"):
        alg.new_client_mse(None, 5, d=6, k=2, sigma=-1.0, B_star=np.eye(6)[:, :2])


def test_fit_local_warnings_name_the_system():
    from fedtheory._warnings import IllConditionedWarning
    with pytest.warns(IllConditionedWarning, match="local ridge \\(dual\\)"):
        alg.fit_local(np.zeros((1, 2, 4)), np.zeros((1, 2)), ridge=0.0)
    with pytest.warns(IllConditionedWarning, match="local ridge"):
        alg.fit_local(np.zeros((1, 5, 3)), np.zeros((1, 5)), ridge=0.0)


def test_reduced_sampler_applies_at_d_equal_2k_and_keeps_gd_heads():
    m = make_model(4, 2, 4, seed=0)  # d = 2k: the reduced sampler applies
    assert alg.resolve_sampler("auto", m) == "reduced"
    # GD-GD on the reduced sampler: one head step of size 1e-3 from 0 keeps the heads tiny (exact heads would not)
    res = alg.run_fedrep(6, 2, 4, 10, 1.0, 1, sampler="reduced", head_steps=1, head_lr=1e-3, m_test=0, seed=1)
    assert np.max(np.abs(res.W)) < 0.05 and res.params["sampler"] == "reduced"
    exact = alg.run_fedrep(6, 2, 4, 10, 1.0, 1, sampler="reduced", m_test=0, seed=1)
    assert np.max(np.abs(exact.W)) > 0.2


def test_theory_messages_defaults_and_more_hand_values():
    import re
    with pytest.raises(ValueError, match=re.escape("`T` >= 0, `k` >= 1, `rn` >= 1 and `d` >= 1 are required")):
        theorem1_probability(-1, 1, 2, 2)
    base = dict(k=2, d=8, n=16, r=0.5, kappa=2.0, E0=0.5)
    for bad, msg in ((dict(k=0.5), "`k` >= 1 and `d` >= k are required"), (dict(r=1.5), "`r` must be in (0, 1] with r*n >= 1"),
                     (dict(E0=0.0), "`E0` must be in (0, 1]"), (dict(variant="eq11"), "`eps` in (0, 1) is required for "
                                                                  "variant='eq11'"),
                     (dict(eps=1.0), "`eps` must be in (0, 1)"), (dict(variant="x"), "`variant`"), (dict(c=0.0), "`c`")):
        with pytest.raises(ValueError, match=re.escape(msg)):
            sample_complexity(**{**base, **bad})
    with pytest.raises(ValueError, match=re.escape("`r` must be in (0, 1]")):
        sample_complexity(2, 8, -16, -1.0)  # r <= 0 even where r*n >= 1
    assert sample_complexity(2, 8, 16) == sample_complexity(2, 8, 16, 1.0, 1.0, 1.0)  # defaults r, kappa, E0
    # kappa = 3, E0 = 0.8 (kappa^4 = 81, E0^2 = 0.64), rn = 8
    assert sample_complexity(2, 8, 16, 0.5, 3.0, 0.8) == pytest.approx(
        81 * 8 * math.log(8) / 0.64 + 81 * 4 * 8 / (0.64 * 8), rel=1e-14)
    assert sample_complexity(2, 8, 16, 0.5, 3.0, 0.8, variant="intro") == pytest.approx(
        9 * 8 * (math.log(16) + 9 * 2 * 8 / 16), rel=1e-14)
    with pytest.raises(ValueError, match="noise standard deviation"):
        mom_expectation(np.eye(3)[:, :1], np.ones((2, 1)), -1.0)
    ctx = _quiet()
    try:  # no numpy warnings on the edges: rate 1 (log 0), and d0 = eps with rate 1 (0/0)
        assert theorem1_rounds_to_eps(0.1, 0.5, 0.0, 0.5, 1.0) == math.inf
        assert theorem1_rounds_to_eps(0.5, 0.5, 0.0, 0.5, 1.0) == 0.0  # d0 = eps: already there
        assert theorem1_rounds_to_eps(0.9, 0.5, 0.1, 0.5, 1.0) == 0.0  # d0 < eps
    finally:
        ctx.__exit__(None, None, None)


# --------------------------------------------------------------------------- re-measured 120-sample of
# algorithms.py (replicate batching): messages naming parameters, overflow paths, documented defaults.
# Referees: hand-built inputs whose overflow is known in advance, the exact law (d = k = 1: dist is 0),
# a twin generator for stream positions, orthonormality and B_bar = B_next R of the reduced round.
def _raises(exc, pattern, f, *a, **kw):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(exc, match=pattern):
            f(*a, **kw)


def test_algorithms_messages_name_their_parameters():
    from fedtheory.representation.algorithms import (default_eta, fedrep_round, fedrep_round_reduced, fedrep_round_sharded,
                                                     fedrep_round_stacked, fit_local, new_client_mse, run_fedrep,
                                                     test_mse_exact)

    mod = make_model(6, 2, 5, sigma=0.1, seed=1)
    B = random_orthonormal(as_generator(0), 6, 2)
    small = dict(d=4, k=1, n=4, m=3, r=1.0, rounds=1, init="random", m_test=0)
    _raises(ValueError, r"^`W_star` must have a nonzero row \(the step 1/\(4 max \|\|w_i\*\|\|\^2\) is infinite "
            r"otherwise\)$", default_eta, np.zeros((3, 2)))
    _raises(ValueError, "`ridge`", fit_local, np.ones((1, 3, 2)), np.ones((1, 3)), ridge=-1.0)
    _raises(TypeError, "`noiseless`", test_mse_exact, mod, mod.theta_star, noiseless="yes")
    _raises(ValueError, "`m`", run_fedrep, **{**small, "m": 0})
    _raises(ValueError, "`m`", fedrep_round_stacked, B, mod, np.arange(2), 0, 0.1, as_generator(1))
    _raises(ValueError, "`head_steps`", fedrep_round, B, np.ones((2, 3, 6)), np.ones((2, 3)), 0.1, head_steps=0)
    _raises(ValueError, "`head_steps`", run_fedrep, **small, head_steps=0)
    _raises(TypeError, "^`orthonormalize_B`", fedrep_round_sharded, B, mod, np.arange(2), 3, 0.1,
            [as_generator(1)], orthonormalize_B="yes")
    _raises(ValueError, "`init`", run_fedrep, **{**small, "init": "pca"})
    _raises(TypeError, "^`fresh_batches`", run_fedrep, **small, fresh_batches="yes")
    _raises(ValueError, "`workers`", run_fedrep, **small, workers=0)
    _raises(ValueError, "`replicates`", run_fedavg, d=4, k=1, n=4, m=3, r=1.0, rounds=1, m_test=0, replicates=0)
    _raises(ValueError, r"the log records one run's selections; run single replicates to log them$", run_fedavg,
            d=4, k=1, n=4, m=3, r=1.0, rounds=1, m_test=0, replicates=2, selection_log=[])
    _raises(ValueError, "`m_test`", new_client_mse, B, 3, d=6, k=2, B_star=mod.B_star, m_test=0)
    _raises(ValueError, "^`B_star` must be finite", new_client_mse, B, 3, d=6, k=2, B_star=np.full((6, 2), np.nan))
    # the sampled evaluation's size guard names m_test; the exact one does not sample test points at all
    _raises(ValueError, "`m_test`=1000000000000", run_fedrep, **{**small, "m_test": 10 ** 12},
            evaluation="sampled")
    ex = run_fedrep(**{**small, "m_test": 10 ** 12}, evaluation="exact", seed=3)
    assert ex.eval_mse == run_fedrep(**{**small, "m_test": 1}, evaluation="exact", seed=3).eval_mse
    # fedrep_round_reduced is validated like the other round variants (eta, clients passed through)
    rnd = fedrep_round_reduced(B, mod, np.arange(3), 4, 0.1, as_generator(2))
    assert rnd.B_next.shape == (6, 2) and rnd.w.shape == (3, 2)
    _raises(ValueError, "`eta`", fedrep_round_reduced, B, mod, np.arange(3), 4, -1.0, as_generator(2))


def test_algorithms_overflow_messages_name_the_inputs():
    """Inputs built to overflow at a known step; the message must name that step's inputs and the
    caller's (the ``(inputs of this call: ...)`` suffix)."""
    from fedtheory.representation.algorithms import fedrep_round, fedrep_round_reduced, fit_heads, fit_local
    from fedtheory.representation.algorithms import new_client_mse, test_mse_exact

    tail = "overflows float64 \\(not finite\\) for these inputs; they are too large in magnitude: "
    # head solve: A^T A = 2e400
    _raises(ValueError, "^the head solve " + tail + "`A`, `y`, `ridge`$", fit_heads, np.full((1, 2, 1), 1e200),
            np.ones((1, 2)))
    # primal local ridge (m >= d): X^T X overflows
    _raises(ValueError, "^the local ridge solve " + tail + "`X`, `y`, `ridge`$", fit_local,
            np.full((1, 3, 2), 1e200), np.ones((1, 3)))
    # dual (m < d): orthogonal rows, K = 0.98 I, alpha = y / 0.98 = 1.53e308 is finite, the fit
    # X^T alpha = (0.7 * 2 * 1.53e308, 0, 0) = 2.14e308 is not
    X = np.array([[[0.7, 0.7, 0.0], [0.7, -0.7, 0.0]]])
    _raises(ValueError, "^the local ridge fit " + tail + "`X`, `y`$", fit_local, X, np.full((1, 2), 1.5e308),
            ridge=0.0)
    mod = make_model(6, 2, 5, sigma=0.1, seed=1)
    _raises(ValueError, "^the test MSE " + tail + "`theta_hat`$", test_mse_exact, mod,
            np.full((5, 6), 1e200))
    # fedrep_round with X = 0: the heads are 0, B_bar = B is finite, its QR is not (column norm 1.4e308)
    _raises(ValueError, r"^the round's representation " + tail + r"`B`, `X`, `y`, `eta` \(inputs of this call: "
            r"`B`, `X`, `y`, `eta`, `w_init`, `head_lr`\)$", fedrep_round, np.full((2, 1), 1e308),
            np.zeros((2, 3, 2)), np.zeros((2, 3)), 0.1)
    # reduced round: heads 1e50 after one tiny GD step, gradient ~1e100, eta 1e300
    B = random_orthonormal(as_generator(0), 6, 2)
    _raises(ValueError, r"^the round's averaged representation " + tail + r"`B`, `eta`, `head_lr` \(inputs of this "
            r"call: `B`, `model`, `eta`, `w_init`, `head_lr`\)$", fedrep_round_reduced, B, mod, np.arange(3), 4,
            1e300, as_generator(1), w_init=np.full((3, 2), 1e50), head_steps=1, head_lr=1e-3)
    _raises(ValueError, r"\(inputs of this call: `B_hat`, `B_star`, `sigma`, `ridge`\)$", new_client_mse,
            np.full((6, 2), 1e200), 3, d=6, k=2, n_new=3, B_star=mod.B_star, m_test=4)


def test_algorithms_admissible_edges_and_defaults():
    from fedtheory.representation.algorithms import fedrep_round_reduced, fedrep_round_stacked, run_fedrep, test_mse

    # d = k = 1: B = +-1 spans R^1, so dist(B, B*) = 0 in every round
    one = run_fedrep(d=1, k=1, n=4, m=3, r=1.0, rounds=3, init="random", m_test=2, seed=1)
    np.testing.assert_array_equal(one.dist, np.zeros(4))
    # k = 1 rounds are admissible
    mod = make_model(6, 1, 5, sigma=0.1, seed=1)
    assert fedrep_round_stacked(random_orthonormal(as_generator(0), 6, 1), mod, np.arange(3), 4, 0.1,
                                as_generator(2)).B_next.shape == (6, 1)
    # head_lr is an accepted keyword of the stacked round and acts on the GD heads
    mod2 = make_model(6, 2, 5, sigma=0.1, seed=1)
    B = random_orthonormal(as_generator(0), 6, 2)
    a = fedrep_round_stacked(B, mod2, np.arange(3), 4, 0.1, as_generator(2), head_steps=1, head_lr=0.3)
    b = fedrep_round_stacked(B, mod2, np.arange(3), 4, 0.1, as_generator(2), head_steps=1)
    assert not np.allclose(a.w, b.w)
    # documented default rounds=100
    assert run_fedrep(d=4, k=1, n=4, m=2, r=1.0, init="random", m_test=0).dist.shape == (101,)
    # the reduced round orthonormalises by default: B_next^T B_next = I and B_bar = B_next R
    rnd = fedrep_round_reduced(B, mod2, np.arange(3), 4, 0.5, as_generator(3))
    np.testing.assert_allclose(rnd.B_next.T @ rnd.B_next, np.eye(2), atol=1e-12)
    np.testing.assert_allclose(rnd.B_next @ rnd.R, rnd.B_bar, atol=1e-12)
    # noiseless model: test_mse draws the covariates only (a twin stream drawing the same X is then in step)
    mod0 = make_model(6, 2, 5, sigma=0.0, seed=1)
    g, twin = as_generator(7), as_generator(7)
    test_mse(mod0, mod0.theta_star, g, 3)
    mod0.draw_x(twin, (5, 3))
    assert g.random() == twin.random()


def test_run_divergence_check_reads_the_round_just_computed():
    """The overflow check after round t reads ``obj[t + 1]``: the entries after it are not written
    yet (``np.empty``). Freed NaN buffers of the trajectory's size (numpy reuses small freed buffers)
    make an unwritten entry NaN, so a check of another entry would stop this finite run."""
    junk = [np.full(41, np.nan) for _ in range(8)]
    del junk
    res = alg.run_fedrep(d=4, k=1, n=4, m=3, r=1.0, rounds=40, init="random", m_test=0, seed=2)
    assert np.all(np.isfinite(res.objective)) and np.all(np.isfinite(res.batch_loss))


# --------------------------------------------------------------------------- re-measured 120-sample of
# representation/theory.py (current file): names, bounds and messages; hand values at admissible edges.
def test_theory_current_sample_names_bounds_and_edges():
    from fedtheory.representation import theory as th

    def raises(pattern, f, *a, **kw):
        with np.errstate(all="ignore"), pytest.raises(ValueError, match=pattern):
            f(*a, **kw)

    B = np.eye(3)[:, :1]
    W = np.ones((2, 1))
    raises(r"^`sigma` must be", th.population_objective, B, W, B, W, sigma=-1.0)
    big_B, big_W = np.ones((2 ** 15, 1)), np.ones((2 ** 15, 1))  # n d = 2^30 floats > 4 GiB
    raises(r"^the n x d matrix W B\^T would need .*`n`=32768, `d`=32768", th.population_objective, big_B, big_W,
           big_B, big_W)
    raises(r"^the population objective \(6\) overflows .*: `B`, `W`, `B_star`, `W_star`, `sigma`=",
           th.population_objective, B, 1e200 * W, B, W)
    raises(r"^the minimum of \(4\) overflows .*: `B_star`, `W_star`$", th.fedavg_global_error, B,
           np.array([[1e200], [-1e200]]))
    raises(r"^E\[Z\] overflows .*: `B_star`, `W_star`, `sigma`=0.5", th.mom_expectation, B, 1e200 * W, sigma=0.5)
    raises(r"^`T` must be finite", th.theorem1_probability, np.nan, 1, 2, 3)
    raises(r"^`d` must be finite", th.theorem1_probability, 1, 1, 2, np.nan)
    raises(r"^`dist0`", th.theorem1_rounds_to_eps, 0.1, 1.5, 0.1, 0.5, 1.0)
    raises(r"^`eps` in \(0, 1\) is required for variant='eq11'$", th.sample_complexity, 2, 10, 5, variant="eq11")
    raises(r"^`eps` must be finite", th.sample_complexity, 2, 10, 5, variant="eq11", eps=np.nan)
    raises(r"^`d` must be finite", th.min_norm_interpolation_risk, np.nan, 1, 1)
    raises(r"^`signal_sq` must be", th.min_norm_interpolation_risk, 2, 1, -1.0)
    raises(r"^`m` must be finite", th.ols_excess_risk, 2, np.nan, 1.0)
    raises(r"^`sigma` must be finite", th.ols_excess_risk, 2, 5, np.nan)
    # admissible edges, hand values: (1 - m/d) s
    assert th.min_norm_interpolation_risk(0.5, 0, 1.0) == 1.0  # d in (0, 1) is admissible
    assert th.min_norm_interpolation_risk(4, 0, 0.5) == 0.5  # m = 0 and signal_sq < 1 are admissible
    assert th.min_norm_interpolation_risk(4, 1, 0.5) == 0.375
    # OLS: sigma^2 p / (m - p - 1), NaN (a float) where m <= p + 1
    assert th.ols_excess_risk(2, 6, 1.0) == pytest.approx(2 / 3)
    out = th.ols_excess_risk(2, 3, 1.0)
    assert isinstance(out, float) and math.isnan(out)


def test_federation_helps_interval_clamps_a_lower_root_below_its_bracket():
    """d = 1e-30: log n + d/n = d has its lower root near n = 1e-32 (log n ~ -73), below the search
    bracket [-50, log d]; the lower end is then the bracket's end e^-50, and the upper root is near
    n = 1 (log n = d - d/n ~ 0)."""
    from fedtheory.representation import theory as th

    lo, hi = th.federation_helps_interval(1e-30)
    assert lo == math.exp(-50.0) and lo < hi and hi == pytest.approx(1.0, rel=1e-9)
