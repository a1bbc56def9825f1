"""Tests of :mod:`fedtheory.representation.algorithms`: FedRep (Collins et al. 2021, Algorithm 1 and its linear
case, Algorithm 2), FedAvg and the alternating-GD baselines against per-client reference loops and direct solves,
the method-of-moments initialisation, the reduced and sharded samplers, default step sizes and every parameter's
error message."""
import copy
import math

import numpy as np
import pytest
from scipy import stats

from fedtheory import IllConditionedWarning
from fedtheory.linalg import _solve_spd, principal_angle_distance, random_orthonormal
from fedtheory.random import as_generator, random_subset, spawn_seeds
from fedtheory.representation import (client_diversity, default_eta, fedavg_global_error, fit_heads, fit_local,
                                      make_model, run_altgd, run_fedavg, run_fedrep, theorem1_max_eta)
from fedtheory.representation import algorithms as alg
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
    monkeypatch.setattr("fedtheory.representation.rounds.PARALLEL_MIN_NORMALS", 0)
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
    monkeypatch.setattr("fedtheory.representation.rounds.PARALLEL_MIN_NORMALS", 0)
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


def test_public_example_run_fedrep_converges():
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


def test_default_eta_is_admissible():
    model = make_model(10, 3, 9, seed=0)
    dv = client_diversity(model.W_star, 4)
    assert default_eta(model.W_star) == pytest.approx(1 / 12)
    assert default_eta(model.W_star) <= theorem1_max_eta(dv.sigma_max)


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


RUNS, ALPHA, ROUNDS = 300, 1e-3, (1, 5, 10)


def _trajectories(sampler, seed, eta=None):
    model = make_model(12, 2, 10, sigma=0.2, seed=1)
    return np.array([run_fedrep(12, 2, 10, 8, 0.5, 10, model=model, m_test=0, sampler=sampler, eta=eta,
                                seed=s).dist for s in spawn_seeds(seed, RUNS)])


def _same_law(a, b):
    out = []
    for t in ROUNDS:
        out.append(stats.ks_2samp(a[:, t], b[:, t]).pvalue)
        z = (a[:, t].mean() - b[:, t].mean()) / np.hypot(a[:, t].std(ddof=1), b[:, t].std(ddof=1)) * np.sqrt(RUNS)
        out.append(2 * stats.norm.sf(abs(z)))
    return min(out)


@pytest.mark.slow
def test_reduced_sampler_equal_in_law_fedrep():
    full = _trajectories("full", 11)
    red = _trajectories("reduced", 12)
    assert _same_law(full, red) > ALPHA
    # power: the same tests detect a modest change of law
    other = _trajectories("full", 13, eta=0.125 * 1.6)
    assert _same_law(full, other) < ALPHA


def test_reduced_sampler_validation():
    with pytest.raises(ValueError, match="sampler.*reduced.*gaussian"):
        run_fedrep(d=10, k=2, n=10, m=5, r=0.5, rounds=2, design="rademacher", sampler="reduced")
    with pytest.raises(ValueError, match="d >= 2k"):
        run_fedrep(d=3, k=2, n=10, m=5, r=0.5, rounds=2, sampler="reduced")
    res = run_fedrep(d=3, k=2, n=10, m=5, r=0.5, rounds=2, sampler="auto")
    assert res.params["sampler"] == "full"
    assert run_fedrep(d=10, k=2, n=10, m=5, r=0.5, rounds=2, sampler="auto").params["sampler"] == "reduced"
    with pytest.raises(ValueError, match="`sampler` must be one of"):
        run_fedrep(d=10, k=2, n=10, m=5, r=0.5, rounds=2, sampler="fast")


def _spd_stack(g, s, p):
    Q = np.linalg.qr(g.standard_normal((s, p, p)))[0]
    ev = g.uniform(0.5, 2.0, (s, p))
    G = (Q * ev[:, None, :]) @ np.swapaxes(Q, -1, -2)
    return 0.5 * (G + np.swapaxes(G, -1, -2))


def test_try_solve_spd_fast_path_and_refusals():
    """The fast path returns the very bits of ``numpy.linalg.solve`` when every system is certified and
    the solution is finite, and ``None`` otherwise: one uncertified system (singular), or an overflowing
    solution (so the caller's validation reports it); the head fit then names its inputs."""
    from fedtheory.linalg import _try_solve_spd
    from fedtheory.representation.algorithms import _fit_heads

    g = np.random.default_rng(4)
    G = _spd_stack(g, 4, 3)
    b = g.standard_normal((4, 3))
    x = _try_solve_spd(G, b)
    assert x is not None and np.array_equal(x, np.linalg.solve(G, b[..., None])[..., 0])
    assert np.array_equal(x, _solve_spd(G, b, "head system"))
    G[2] = np.ones((3, 3))
    assert _try_solve_spd(G, b) is None
    assert _try_solve_spd(np.array([[1e-300]]), np.array([1e300])) is None
    assert _try_solve_spd(np.diag([1.0, 1e-9]), np.array([1.0, 1.0])) is not None
    assert _try_solve_spd(np.diag([1.0, 1e-9]), np.array([1.0, 1.0]), rcond=1e-8) is None
    A = np.zeros((1, 3, 1))
    A[0, :, 0] = 1e-150  # G = 3e-300, rhs = 3e50: the head 1e350 overflows
    with pytest.raises(ValueError, match="head solve"):
        _fit_heads(A, np.full((1, 3), 1e200))
