"""Tests that catch realistic silent bugs in fedtheory.representation (issue 11).

Every check compares against an independent computation (a plain per-client loop, Monte Carlo
with a confidence interval, or a hand-derived small case), never a re-typed copy of the formula.
"""
import math

import numpy as np
import pytest

from fedtheory.linalg import principal_angle_distance, random_orthonormal
from fedtheory.random import as_generator, spawn_seeds
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
        rng.choice(model.n, size=len(sel), replace=False)  # the draw of the selection itself
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
    sel = rng.choice(n, size=1, replace=False)
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
