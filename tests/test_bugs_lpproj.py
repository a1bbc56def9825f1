"""Tests that catch realistic silent bugs in fedtheory.lpproj (issue 11).

Referees: a plain-loop Algorithm 1 (per client, per local step) with exact enumeration of the
server's possible client subsets; hand-built full-data sampling (fixed design and OLS) with
chi-square confidence intervals for variances; closed forms evaluated by hand.
"""
import itertools
import math

import numpy as np
import pytest
from scipy import stats

from fedtheory.lpproj import make_problem, mc_test_loss, run_algorithm1
from fedtheory.lpproj.algorithms import test_loss_general as exact_loss
from fedtheory.lpproj.model import LinearFLProblem


# --------------------------------------------------------------------------- Algorithm 1, S < N
def _client_messages(Xi, y, P, lam, eta, R, w):
    """Plain-loop clients of Algorithm 1 (p = 2): R local steps w_k <- w_k - eta lam (w_k - P x_k(w_k)),
    x_k(w) = argmin_x ||Xi_k x - y_k||^2/(2n) + (lam/2)||P x - w||^2 (normal equations, one client at a time)."""
    N, n, d = Xi.shape
    out = []
    for k in range(N):
        A = Xi[k].T @ Xi[k] / n + lam * P.T @ P
        wk = w.copy()
        for _ in range(R):
            x = np.linalg.solve(A, Xi[k].T @ y[k] / n + lam * P.T @ wk)
            wk = wk - eta * lam * (wk - P @ x)
        out.append(wk)
    return np.array(out)


@pytest.mark.parametrize("method", ["lp-proj", "pfedme"])
def test_algorithm1_partial_participation_is_a_subset_mean(method):
    """Each server step equals (1 - beta) w + beta mean_{k in I} w_k for one S-subset I of the clients:
    checked by enumerating all C(N, S) subsets; over seeds, every round's subset has S distinct clients."""
    N, S, lam, eta, R, beta, T = 6, 3, 0.7, 0.5, 3, 0.8, 3
    prob = make_problem(N=N, d=4, d_sub=2, n=10, b=2.0, sigma=0.5, seed=1)
    rng = np.random.default_rng(0)
    Xi, y = prob.sample_data(rng)
    P = prob.P if method == "lp-proj" else np.eye(prob.d)
    subsets = list(itertools.combinations(range(N), S))
    seen = set()
    for seed in range(12):
        res = run_algorithm1(prob, lam, method=method, T=T, R=R, S=S, beta=beta, eta=eta, data=(Xi, y), seed=seed)
        assert res.history.shape == (T + 1, P.shape[0])
        for t in range(T):
            w = res.history[t]
            msgs = _client_messages(Xi, y, P, lam, eta, R, w)
            cands = np.array([(1 - beta) * w + beta * msgs[list(I)].mean(axis=0) for I in subsets])
            err = np.max(np.abs(cands - res.history[t + 1]), axis=1)
            assert err.min() < 1e-10, (seed, t, err.min())
            seen.add(subsets[int(np.argmin(err))])
    assert len(seen) >= 10  # the subsets vary from round to round (C(6, 3) = 20 possible)


def test_algorithm1_server_step_is_unbiased_for_the_full_mean():
    """Sampling S of N without replacement: E[mean_I w_k] = mean_k w_k and
    Var = (1/S)(1 - (S-1)/(N-1)) s^2 per coordinate (finite-population correction), by Monte Carlo over seeds."""
    N, S, lam = 8, 2, 1.0
    prob = make_problem(N=N, d=3, d_sub=3, n=8, sigma=1.0, heterogeneity=1.0, seed=4)
    rng = np.random.default_rng(1)
    Xi, y = prob.sample_data(rng)
    msgs = _client_messages(Xi, y, prob.P, lam, 1.0, 1, np.zeros(3))
    mu = msgs.mean(axis=0)
    s2 = msgs.var(axis=0)  # population variance (1/N)
    var_wor = (1 / S) * (1 - (S - 1) / (N - 1)) * s2
    reps = 600
    ws = np.array([run_algorithm1(prob, lam, T=1, R=1, S=S, eta=1.0, data=(Xi, y), seed=s).w for s in range(reps)])
    z = (ws.mean(axis=0) - mu) / np.sqrt(var_wor / reps)
    assert np.all(np.abs(z) < 4.5), z
    # the sample variance against the without-replacement variance (chi-square interval, conservative 4x width)
    ratio = ws.var(axis=0, ddof=1) / var_wor
    assert np.all((ratio > 0.75) & (ratio < 1.3)), ratio


# --------------------------------------------------------------------------- sampler variance, b != 1
def _full_data_w_hat(prob, rng, reps):
    """OLS estimates from full fixed-design data built by hand: Xi_k = sqrt(n b) Q_k (orthonormal columns)."""
    out = np.empty((reps, prob.N, prob.d))
    for r in range(reps):
        for k in range(prob.N):
            Q, _ = np.linalg.qr(rng.standard_normal((prob.n, prob.d)))
            X = math.sqrt(prob.n * prob.b) * Q
            yk = X @ prob.W[k] + prob.sigma * rng.standard_normal(prob.n)
            out[r, k] = np.linalg.lstsq(X, yk, rcond=None)[0]
    return out


@pytest.mark.parametrize("b", [0.25, 4.0])
def test_w_hat_sampler_variance_is_sigma2_over_bn(b):
    prob = make_problem(N=3, d=4, d_sub=2, n=6, b=b, sigma=0.8, seed=0)
    target = prob.sigma ** 2 / (b * prob.n)
    rng = np.random.default_rng(7)
    wh_full = _full_data_w_hat(prob, rng, 800) - prob.W
    wh_mc = prob.sample_w_hat(rng, 20000) - prob.W
    for sample in (wh_full, wh_mc):
        flat = sample.reshape(sample.shape[0], -1)  # all coordinates: independent, same variance
        dof = flat.size
        s2 = float(np.sum(flat ** 2)) / dof  # known mean 0
        lo, hi = stats.chi2.ppf([0.0005, 0.9995], dof) / dof
        assert lo < s2 / target < hi, (b, s2, target)
        C = flat.T @ flat / flat.shape[0]  # covariance ~ target I: off-diagonals near 0
        assert np.max(np.abs(C - np.diag(np.diag(C)))) < 6 * target / math.sqrt(flat.shape[0])


@pytest.mark.parametrize("b", [0.25, 4.0])
def test_mc_test_loss_at_b_not_one(b):
    prob = make_problem(N=5, d=6, d_sub=2, n=12, b=b, sigma=0.9, seed=3)
    # Local training only: sigma^2/2 + (b/2) d sigma^2/(b n) = sigma^2/2 (1 + d/n), independent of b
    est = mc_test_loss("local", prob, 0.0, n_samples=20000, seed=1)
    hand = 0.81 / 2 * (1 + 6 / 12)
    assert abs(est.mean - hand) < 4.5 * est.se, (est, hand)
    for method in ("pfedme", "lp-proj-2", "fedavg"):
        est = mc_test_loss(method, prob, 0.5, n_samples=20000, seed=2)
        exact = exact_loss(method, 0.5, prob)
        assert abs(est.mean - exact) < 4.5 * est.se, (method, b, est, exact)


def test_fedavg_loss_hand_case_b_not_one():
    """N = 2 clients, d = 1, W = (0, 2), b = 4, n = 8, sigma = 1: the server average m = (w1 + w2)/2 + noise
    of variance sigma^2/(b n)/2; loss = sigma^2/2 + (b/2) (Var m + mean_k (E m - w_k)^2) = 1/2 + 2 (1/64 + 1)."""
    prob = LinearFLProblem(W=np.array([[0.0], [2.0]]), n=8, b=4.0, sigma=1.0, P=np.eye(1))
    assert exact_loss("fedavg", 0.0, prob) == pytest.approx(0.5 + 2 * (1 / 64 + 1), rel=1e-12)
    est = mc_test_loss("fedavg", prob, 0.0, n_samples=40000, seed=0)
    assert abs(est.mean - (0.5 + 2 * (1 / 64 + 1))) < 4.5 * est.se
