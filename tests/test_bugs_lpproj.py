"""Tests that catch realistic silent bugs in fedtheory.lpproj.

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
    assert est.se < 0.02 * hand  # not a variance blow-up hiding a wrong mean
    for method in ("pfedme", "lp-proj-2", "fedavg"):
        est = mc_test_loss(method, prob, 0.5, n_samples=20000, seed=2)
        exact = exact_loss(method, 0.5, prob)
        assert abs(est.mean - exact) < 4.5 * est.se, (method, b, est, exact)
        assert est.se < 0.02 * exact


def test_fedavg_loss_hand_case_b_not_one():
    """N = 2 clients, d = 1, W = (0, 2), b = 4, n = 8, sigma = 1: the server average m = (w1 + w2)/2 + noise
    of variance sigma^2/(b n)/2; loss = sigma^2/2 + (b/2) (Var m + mean_k (E m - w_k)^2) = 1/2 + 2 (1/64 + 1)."""
    prob = LinearFLProblem(W=np.array([[0.0], [2.0]]), n=8, b=4.0, sigma=1.0, P=np.eye(1))
    assert exact_loss("fedavg", 0.0, prob) == pytest.approx(0.5 + 2 * (1 / 64 + 1), rel=1e-12)
    est = mc_test_loss("fedavg", prob, 0.0, n_samples=40000, seed=0)
    assert abs(est.mean - (0.5 + 2 * (1 / 64 + 1))) < 4.5 * est.se


# --------------------------------------------------------------------------- closed forms of theory.py
from fedtheory.lpproj.algorithms import closed_form_models  # noqa: E402
from fedtheory.lpproj.theory import (effective_heterogeneity, expected_fairness_V, fairness_V,  # noqa: E402
                                     lemma29_argmin, loss_derivative_lpproj, minimal_loss, optimal_lambda,
                                     per_client_test_loss, proposition16_threshold, signflip_moments)
from fedtheory.lpproj.theory import test_loss as uniform_loss  # noqa: E402


@pytest.mark.parametrize("method", ["local", "fedavg", "pfedme", "lp-proj-2"])
def test_per_client_losses_and_fairness_against_monte_carlo(method):
    prob = make_problem(N=4, d=5, d_sub=2, n=10, b=2.0, sigma=0.8, heterogeneity=0.5, seed=8)
    lam = 1.5
    rng = np.random.default_rng(2)
    wh = prob.sample_w_hat(rng, 60000)
    x = closed_form_models(method, wh, lam, prob.b, prob.P)
    per = prob.sigma ** 2 / 2 + prob.b / 2 * np.sum((x - prob.W) ** 2, axis=-1)  # (reps, N)
    mean, se = per.mean(axis=0), per.std(axis=0, ddof=1) / math.sqrt(per.shape[0])
    exact = per_client_test_loss(method, lam, prob.W, n=prob.n, b=prob.b, sigma=prob.sigma, P=prob.P)
    assert exact.shape == (4,)
    assert np.all(np.abs(exact - mean) < 4.5 * se), (exact, mean, se)
    # Theorem 32's V is the across-client (population) variance of these losses
    assert fairness_V(method, lam, prob.W, b=prob.b, P=prob.P) == pytest.approx(np.var(exact), rel=1e-10, abs=1e-14)
    V = fairness_V(method, np.array([0.5, lam]), prob.W, b=prob.b, P=prob.P)
    assert isinstance(V, np.ndarray) and V[1] == pytest.approx(np.var(exact), rel=1e-10, abs=1e-14)


def test_fairness_requires_P_for_lpproj_and_expected_V_hand_values():
    W = np.eye(3)
    for f in (lambda: per_client_test_loss("lp-proj-2", 1.0, W, n=5), lambda: fairness_V("lp-proj-2", 1.0, W),
              lambda: expected_fairness_V("lp-proj-2", 1.0, N=3, Sigma_w=np.eye(3))):
        with pytest.raises(ValueError, match="`P`"):
            f()
    # E var = 2 (N-1)(N-2)/N^2 tr(Sigma^2): N = 4, Sigma = diag(1, 2): 2*3*2/16 * 5 = 3.75
    S = np.diag([1.0, 2.0])
    assert expected_fairness_V("fedavg", 0.0, N=4, Sigma_w=S, b=2.0) == pytest.approx(3.75, rel=1e-12)
    assert expected_fairness_V("fedavg", 0.0, N=4, Sigma_w=S, b=2.0, variant="printed") == pytest.approx(7.5)
    assert expected_fairness_V("local", 1.0, N=4, Sigma_w=S) == 0.0
    # pfedme: b^2 lam^4/(4 (b+lam)^4) E var with b = 1, lam = 1: (1/64) * 3.75
    assert expected_fairness_V("pfedme", 1.0, N=4, Sigma_w=S) == pytest.approx(3.75 / 64, rel=1e-12)
    P = np.array([[0.0, 1.0]])  # keeps the second coordinate: tr = 4, E var = 0.75 * 4 = 3
    assert expected_fairness_V("lp-proj-2", 1.0, N=4, Sigma_w=S, P=P) == pytest.approx(3 / 64, rel=1e-12)
    assert fairness_V("local", [1.0, 2.0], W).tolist() == [0.0, 0.0]


def test_signflip_moments_against_monte_carlo():
    w, tau, sigma, b, n = np.array([1.0, -2.0]), 1.5, 0.7, 4.0, 3
    rng = np.random.default_rng(0)
    reps = 200_000
    wh = w + sigma / math.sqrt(b * n) * rng.standard_normal((reps, 2))
    msg = -np.abs(tau * rng.standard_normal((reps, 1))) * wh
    mean, cov = signflip_moments(w, tau, sigma, b, n)
    se = msg.std(axis=0) / math.sqrt(reps)
    assert np.all(np.abs(msg.mean(axis=0) - mean) < 4.5 * se)
    emp = np.cov(msg.T)
    np.testing.assert_allclose(emp, cov, atol=0.03 * np.max(np.abs(cov)))


def test_lemma29_argmin_against_numerical_minimisation():
    from scipy.optimize import minimize_scalar

    for A, B, C, b in [(1.0, 0.5, 2.0, 1.0), (2.0, -1.0, 1.0, 0.5), (0.3, 0.1, 0.5, 2.0)]:
        f = lambda lam: (A * lam ** 2 + B * lam + C) / (lam + b) ** 2  # noqa: E731
        best = minimize_scalar(f, bounds=(0, 1e4), method="bounded", options={"xatol": 1e-10}).x
        assert lemma29_argmin(A, B, C, b) == pytest.approx(best, rel=1e-5)
    assert math.isnan(lemma29_argmin(0.1, 1.0, 1.0, 1.0))  # 2Ab - B < 0
    assert math.isnan(lemma29_argmin(1.0, 0.5, 0.25, 1.0))  # Bb - 2C = 0
    out = lemma29_argmin(np.array([1.0, 0.1]), 0.5, 2.0, 1.0)
    assert isinstance(out, np.ndarray) and math.isnan(out[1])


@pytest.mark.parametrize("attack, N_a, tau, M0", [(None, 0, 0.0, None), ("same-value", 3, 0.4, None),
                                                  ("gaussian", 2, 0.2, None), ("sign-flip", 3, 0.0, 0.3)])
def test_optimal_lambda_minimises_the_loss(attack, N_a, tau, M0):
    from scipy.optimize import minimize_scalar

    kw = dict(N=12, n=20, d=6, d_sub=2, b=2.0, sigma=0.9, Sigma=0.05, attack=attack, N_a=N_a, tau=tau, M0=M0)
    lam_star = optimal_lambda(**kw)
    for method in ("pfedme", "lp-proj-2"):
        best = minimize_scalar(lambda lam: uniform_loss(method, lam, **kw), bounds=(0, 1e3), method="bounded",
                               options={"xatol": 1e-10}).x
        assert lam_star == pytest.approx(best, rel=1e-4)
        assert minimal_loss(method, **kw) == pytest.approx(uniform_loss(method, lam_star, **kw), rel=1e-14)
        assert minimal_loss(method, **kw) <= uniform_loss(method, 1.1 * lam_star, **kw)
    # (1 - 1/N) sigma^2/n / D with D the effective heterogeneity
    D = effective_heterogeneity(0.05, 12, 20, 2.0, 0.9, attack, N_a, tau, M0)
    assert lam_star == pytest.approx((1 - 1 / 12) * 0.81 / 20 / D, rel=1e-12)


def test_effective_heterogeneity_hand_values_and_lambda_inf():
    assert effective_heterogeneity(0.1, 10, 20, 2.0, 1.0) == 0.1
    assert effective_heterogeneity(0.1, 10, 20, 2.0, 1.0, "same-value", 0, 0.5) == 0.1
    # D = 0.1 + 2/100 (0.25 - 1/40)
    assert effective_heterogeneity(0.1, 10, 20, 2.0, 1.0, "gaussian", 2, 0.5) == pytest.approx(0.1045, rel=1e-12)
    assert effective_heterogeneity(0.1, 10, 20, 2.0, 1.0, "sign-flip", 2, 9.0, M0=0.5) == pytest.approx(
        0.1 + 0.02 * (0.5 - 0.025), rel=1e-12)
    np.testing.assert_allclose(effective_heterogeneity(np.array([0.1, 0.2]), 10, 20, 2.0, 1.0), [0.1, 0.2])
    # D <= 0: the loss decreases in lambda, lambda* = inf
    assert optimal_lambda(N=10, n=20, d=4, d_sub=2, Sigma=0.0) == math.inf
    assert optimal_lambda(N=10, n=20, d=4, d_sub=2, Sigma=np.array([0.0, 0.1]))[0] == math.inf


def test_uniform_loss_validation_and_printed_variant():
    base = dict(N=10, n=20, d=4, d_sub=2, b=1.0, sigma=1.0, Sigma=0.1)
    bads = [dict(lam=-0.1), dict(Sigma=-0.1), dict(attack="sign-flip", N_a=2), dict(attack=None, N_a=1),
            dict(attack="same-value", N_a=10), dict(attack="same-value", N_a=2, tau=-1.0), dict(N=1),
            dict(d_sub=5), dict(b=0.0), dict(sigma=-1.0), dict(variant="typo"), dict(attack="flip", N_a=1),
            dict(variant="printed", attack="same-value", N_a=2, tau=0.1)]
    for bad in bads:
        kw = {**base, **bad}
        lam = kw.pop("lam", 1.0)
        with pytest.raises(ValueError):
            uniform_loss("pfedme", lam, **kw)
    # printed: bias divided by an extra N, lp-proj-2's variance with lam^2/N^2
    lam = 2.0
    clean = uniform_loss("pfedme", lam, **base)
    printed = uniform_loss("pfedme", lam, variant="printed", **base)
    bias = 1 * lam ** 2 * 4 * 0.1 / (2 * (1 + lam) ** 2)
    assert clean - printed == pytest.approx(bias * (1 - 1 / 10), rel=1e-12)
    lp_c = uniform_loss("lp-proj-2", lam, **base)
    lp_p = uniform_loss("lp-proj-2", lam, variant="printed", **base)
    var_diff = 2 / 2 * ((lam ** 2 / 10 - lam ** 2 / 100) * 1 / 20) / (1 + lam) ** 2  # (b dim/2)(...)s2/(bn)
    assert lp_c - lp_p == pytest.approx(var_diff + 1 * lam ** 2 * 2 * 0.1 / (2 * (1 + lam) ** 2) * 0.9, rel=1e-12)
    assert uniform_loss("local", np.array([1.0, 2.0]), **base).tolist() == [0.5 + 4 / 40] * 2


def test_proposition16_threshold_and_derivative():
    assert proposition16_threshold(0.5, 2.0) == pytest.approx(2 * 0.5 / 0.75)
    assert proposition16_threshold(2.0, 2.0) == math.inf and proposition16_threshold(3.0, 2.0) == math.inf
    np.testing.assert_allclose(proposition16_threshold(np.array([0.5, 3.0]), 2.0), [4 / 3, np.inf])
    kw = dict(N=12, n=20, b=2.0, sigma=0.9, Sigma=0.05, N_a=3, tau=0.4)
    for lam in (0.1, 1.0, 5.0):
        h = 1e-6 * max(lam, 1)
        L = lambda x: uniform_loss("lp-proj-2", x, d=6, d_sub=2, attack="same-value", **kw)  # noqa: E731
        fd = (L(lam + h) - L(lam - h)) / (2 * h)
        assert loss_derivative_lpproj(lam, d_sub=2, **kw) == pytest.approx(fd, rel=1e-5, abs=1e-9)
    # defaults b = 1, sigma = 1, no attack, Sigma = 0.1
    L0 = lambda x: uniform_loss("lp-proj-2", x, N=10, n=20, d=6, d_sub=3)  # noqa: E731
    assert loss_derivative_lpproj(0.7, d_sub=3, N=10, n=20) == pytest.approx((L0(0.7 + 1e-6) - L0(0.7 - 1e-6)) / 2e-6,
                                                                            rel=1e-5)


# --------------------------------------------------------------------------- algorithms.py, more paths
from fedtheory.lpproj.algorithms import (admm_l1_inner, attack_messages, benign_losses,  # noqa: E402
                                         lpproj2_general_solution)


def _data(seed=0, N=5, d=4, d_sub=2, n=9, b=1.5):
    prob = make_problem(N=N, d=d, d_sub=d_sub, n=n, b=b, sigma=0.6, heterogeneity=0.4, seed=seed)
    Xi, y = prob.sample_data(np.random.default_rng(seed + 1))
    return prob, Xi, y


@pytest.mark.parametrize("method", ["fedavg", "ditto"])
def test_algorithm1_fedavg_and_ditto_against_plain_loops(method):
    prob, Xi, y = _data()
    N, n, d = Xi.shape
    lam, eta, R, T, beta = 0.8, 0.3, 4, 3, 0.7
    w0 = np.array([0.1, -0.2, 0.3, 0.0])
    res = run_algorithm1(prob, lam, method=method, T=T, R=R, beta=beta, eta=eta, w0=w0, data=(Xi, y))
    w = w0.copy()
    for _ in range(T):
        msgs = []
        for k in range(N):
            wk = w.copy()
            for _ in range(R):  # GD on f_k(x) = ||Xi_k x - y_k||^2/(2n)
                wk = wk - eta * (Xi[k].T @ (Xi[k] @ wk - y[k]) / n)
            msgs.append(wk)
        w = (1 - beta) * w + beta * np.mean(msgs, axis=0)
    np.testing.assert_allclose(res.w, w, atol=1e-12)
    assert res.history.shape == (T + 1, d) and np.array_equal(res.history[0], w0)
    for k in range(N):
        if method == "fedavg":
            np.testing.assert_allclose(res.x[k], w, atol=1e-12)
        else:  # the exact prox step argmin f_k(x) + (lam/2)||x - w||^2
            A = Xi[k].T @ Xi[k] / n + lam * np.eye(d)
            np.testing.assert_allclose(res.x[k], np.linalg.solve(A, Xi[k].T @ y[k] / n + lam * w), atol=1e-12)
    assert res.params["method"] == method and res.params["beta"] == beta


def test_algorithm1_attack_replaces_the_last_clients_and_server_divides_by_S():
    prob, Xi, y = _data(seed=2)
    lam, eta, R = 0.5, 0.4, 2
    P = prob.P
    res = run_algorithm1(prob, lam, T=1, R=R, eta=eta, attack="same-value", N_a=2, tau=0.0, data=(Xi, y))
    msgs = _client_messages(Xi, y, P, lam, eta, R, np.zeros(P.shape[0]))
    msgs[-2:] = 0.0  # same-value with tau = 0: the two malicious clients send 0
    np.testing.assert_allclose(res.w, msgs.mean(axis=0), atol=1e-12)
    # the personalised models at the final global model: the exact inner solve of (3)
    for k in range(prob.N):
        A = Xi[k].T @ Xi[k] / Xi.shape[1] + lam * P.T @ P
        np.testing.assert_allclose(res.x[k], np.linalg.solve(A, Xi[k].T @ y[k] / Xi.shape[1] + lam * P.T @ res.w),
                                   atol=1e-12)
    with pytest.raises(ValueError):
        run_algorithm1(prob, lam, attack="same-value", N_a=prob.N, data=(Xi, y))


def test_admm_l1_inner_is_optimal():
    from scipy.optimize import minimize

    prob, Xi, y = _data(seed=4)
    n = Xi.shape[1]
    G = np.swapaxes(Xi, 1, 2) @ Xi / n
    h = np.einsum("knd,kn->kd", Xi, y) / n
    w = np.array([[0.3, -0.1]] * prob.N)
    lam = 0.7
    x, iters = admm_l1_inner(G, h, prob.P, w, lam, nu=1e-14)
    assert 1 <= iters < 10_000
    for k in range(prob.N):
        f = lambda z: 0.5 * z @ G[k] @ z - h[k] @ z + lam * np.sum(np.abs(w[k] - prob.P @ z))  # noqa: E731
        best = minimize(f, np.zeros(prob.d), method="Powell", options={"xtol": 1e-10, "ftol": 1e-14}).x
        assert f(x[k]) <= f(best) + 1e-9
        rng = np.random.default_rng(k)
        assert all(f(x[k]) <= f(x[k] + 1e-4 * rng.standard_normal(prob.d)) + 1e-12 for _ in range(50))
    # max_iter bounds the iterations
    assert admm_l1_inner(G, h, prob.P, w, lam, nu=0.0, max_iter=3)[1] == 3


def test_lpproj2_general_solution_against_the_joint_normal_equations():
    """Minimise sum_k [x_k^T G_k x_k/2 - h_k^T x_k + (lam/2)||P x_k - w||^2] over (w, x_1..x_N) jointly."""
    prob, Xi, y = _data(seed=6)
    N, n, d = Xi.shape
    P = np.random.default_rng(0).standard_normal((2, d))  # any full-row-rank P
    lam = 0.9
    G = np.swapaxes(Xi, 1, 2) @ Xi / n
    h = np.einsum("knd,kn->kd", Xi, y) / n
    q = P.shape[0]
    dim = q + N * d
    H = np.zeros((dim, dim))
    g = np.zeros(dim)
    H[:q, :q] = N * lam * np.eye(q)
    for k in range(N):
        s = slice(q + k * d, q + (k + 1) * d)
        H[s, s] = G[k] + lam * P.T @ P
        H[s, :q] = -lam * P.T
        H[:q, s] = -lam * P
        g[s] = h[k]
    z = np.linalg.solve(H, g)
    w, x = lpproj2_general_solution(G, h, P, lam)
    np.testing.assert_allclose(w, z[:q], atol=1e-10)
    np.testing.assert_allclose(x, z[q:].reshape(N, d), atol=1e-10)


def test_attack_messages_laws():
    rng = np.random.default_rng(0)
    honest = np.array([[1.0, -2.0, 0.5]] * 4)  # (N_a = 4, dim 3)
    reps, tau = 20000, 1.5
    sv = attack_messages(rng, "same-value", np.broadcast_to(honest, (reps, 4, 3)), tau)
    assert np.all(sv == sv[..., :1])  # one value per client
    assert np.var(sv[..., 0]) == pytest.approx(tau ** 2, rel=0.03) and abs(sv.mean()) < 0.03
    ga = attack_messages(rng, "gaussian", np.broadcast_to(honest, (reps, 4, 3)), tau)
    assert np.var(ga) == pytest.approx(tau ** 2, rel=0.03) and abs(np.corrcoef(ga[:, 0, 0], ga[:, 0, 1])[0, 1]) < 0.03
    sf = attack_messages(rng, "sign-flip", np.broadcast_to(honest, (reps, 4, 3)), tau)
    ratio = sf / honest
    np.testing.assert_allclose(ratio, np.broadcast_to(ratio[..., :1], ratio.shape), atol=1e-12)
    assert np.all(ratio <= 0)
    assert np.mean(-ratio[..., 0]) == pytest.approx(tau * math.sqrt(2 / math.pi), rel=0.02)
    with pytest.raises(ValueError, match="`attack`"):
        attack_messages(rng, "flood", honest, tau)


def test_benign_losses_hand_case():
    W = np.array([[0.0, 0.0], [1.0, 1.0], [5.0, 5.0]])
    x = np.array([[1.0, 0.0], [1.0, 2.0], [0.0, 0.0]])
    # benign = first two: ||x - w||^2 = 1 and 1; sigma^2/2 + (b/2) * mean = 0.5 * 0.25 + 1.5 * 1
    assert benign_losses(x, W, 3.0, 0.5, N_a=1) == pytest.approx(0.125 + 1.5)
    assert benign_losses(x, W, 3.0, 0.5) == pytest.approx(0.125 + 1.5 * (1 + 1 + 50) / 3)
    stack = benign_losses(np.stack([x, W]), W, 3.0, 0.5, N_a=1)
    assert stack.shape == (2,) and stack[1] == pytest.approx(0.125)


# --------------------------------------------------------------------------- reduced sampler: mean AND spread
@pytest.mark.parametrize("attack, N_a, d_sub", [(None, 0, 3), ("same-value", 3, 3), ("sign-flip", 2, 3),
                                                ("gaussian", 2, 7), ("same-value", 0, 2)])
def test_reduced_sampler_equals_the_full_sampler_in_mean_and_spread(attack, N_a, d_sub):
    """Equal in law: the same mean (the exact loss) and the same per-replication spread as the full sampler.
    (A z-score alone can be fooled by a mutant that inflates the variance.)"""
    prob = make_problem(N=10, d=7, d_sub=d_sub, n=30, b=0.5, sigma=1.3, seed=5)
    kw = dict(attack=attack, N_a=N_a, tau=1.5, n_samples=30_000)
    exact = exact_loss("lp-proj-2", 0.6, prob, attack=attack, N_a=N_a, tau=1.5)
    r = mc_test_loss("lp-proj-2", prob, 0.6, sampler="reduced", seed=1, **kw)
    f = mc_test_loss("lp-proj-2", prob, 0.6, seed=2, **kw)
    for est in (r, f):
        assert abs(est.mean - exact) < 4.5 * est.se, (est, exact)
    assert 0.85 < r.se / f.se < 1.15, (r.se, f.se)
    assert r.se < 0.02 * exact


def test_algorithm1_p1_against_a_loop_and_parameters():
    prob, Xi, y = _data(seed=7)
    N, n, d = Xi.shape
    G = np.swapaxes(Xi, 1, 2) @ Xi / n
    h = np.einsum("knd,kn->kd", Xi, y) / n
    lam, eta, R = 0.6, 0.2, 3
    res = run_algorithm1(prob, lam, p=1, T=1, R=R, eta=eta, nu=1e-14, data=(Xi, y))
    wk = np.zeros((N, prob.d_sub))
    for _ in range(R):  # line 8 with p = 1: a sign step after the inner l1 solve, sign(0) = 0 where w = P x exactly
        x = admm_l1_inner(G, h, prob.P, wk, lam, nu=1e-14)[0]
        diff = wk - x @ prob.P.T
        diff[np.abs(diff) < 1e-6] = 0.0  # the solver's residual there has arbitrary sign
        wk = wk - eta * lam * np.sign(diff)
    np.testing.assert_allclose(res.w, wk.mean(axis=0), atol=1e-9)
    loose = run_algorithm1(prob, lam, p=1, T=1, R=R, eta=eta, nu=1e-2, data=(Xi, y))
    assert not np.allclose(loose.x, res.x, atol=1e-10, rtol=0)  # nu reaches the inner solver
    # the inner solver's default accuracy is tight
    w = np.zeros((N, prob.d_sub))
    np.testing.assert_allclose(admm_l1_inner(G, h, prob.P, w, lam)[0], admm_l1_inner(G, h, prob.P, w, lam, nu=1e-16)[0],
                               atol=1e-4)
    att = run_algorithm1(prob, lam, T=1, R=1, eta=eta, attack="gaussian", N_a=1, tau=0.3, S=N - 1, data=(Xi, y))
    assert att.params == dict(method="lp-proj", p=2, lam=lam, T=1, R=1, S=N - 1, beta=1.0, eta=eta, attack="gaussian",
                              N_a=1, tau=0.3, nu=1e-10)
    assert run_algorithm1(prob, lam, T=1, R=1, S=1, data=(Xi, y)).params["S"] == 1  # S = 1 is allowed
    for bad, name in ((dict(S=N + 1), "S"), (dict(S=0), "S"), (dict(T=0), "T"), (dict(R=0), "R"), (dict(p=3), "p"),
                      (dict(lam=-1.0), "lam"), (dict(method="prox"), "method")):
        kw = {**dict(lam=lam, data=(Xi, y)), **bad}
        lam_ = kw.pop("lam")
        with pytest.raises(ValueError, match=f"`{name}`"):
            run_algorithm1(prob, lam_, **kw)
    with pytest.raises(ValueError, match="`method`"):
        closed_form_models("prox", np.zeros((2, 3)), 1.0, 1.0)
    with pytest.raises(ValueError, match="`lam`"):
        mc_test_loss("pfedme", prob, -1.0)


def test_closed_form_models_of_malicious_clients_use_their_own_estimates():
    """With attack, the server average includes the malicious messages (divided by N), but every client's
    personalised model uses its own w_hat (plain loop; same-value attack with tau = 0 sends zeros)."""
    prob = make_problem(N=5, d=4, d_sub=2, n=10, b=2.0, seed=9)
    wh = prob.sample_w_hat(np.random.default_rng(0), 1)[0]
    P, lam, b = prob.P, 0.7, 2.0
    x = closed_form_models("lp-proj-2", wh, lam, b, P, attack="same-value", N_a=2, tau=0.0,
                           rng=np.random.default_rng(1))
    msgs = [P @ wh[k] for k in range(3)] + [np.zeros(2)] * 2
    m = sum(msgs) / 5
    for k in range(5):
        ref = P.T @ ((b * P @ wh[k] + lam * m) / (b + lam)) + (np.eye(4) - P.T @ P) @ wh[k]
        np.testing.assert_allclose(x[k], ref, atol=1e-12)
    with pytest.raises(ValueError, match="`attack`"):
        closed_form_models("pfedme", wh, lam, b, attack="flood", N_a=1)
    with pytest.raises(ValueError, match=r"`N_a`.*0 <= N_a < N, N=5"):
        closed_form_models("pfedme", wh, lam, b, attack="gaussian", N_a=5, tau=1.0)


def test_uniform_loss_edges_lam_zero_and_projection_term():
    base = dict(N=10, n=20, d_sub=2, b=1.5, sigma=0.7, Sigma=0.1)
    for method in ("local", "fedavg"):
        assert np.isfinite(uniform_loss(method, 0.0, d=6, **base))  # no 0/0 at lam = 0
    # lp-proj-2's extra term (d - d_sub) sigma^2/(2n): two dimensions more add 2 * 0.49/40
    assert uniform_loss("lp-proj-2", 0.3, d=6, **base) - uniform_loss("lp-proj-2", 0.3, d=4, **base) == \
        pytest.approx(2 * 0.49 / 40, rel=1e-12)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert math.isnan(lemma29_argmin(0.25, 0.5, 1.0, 1.0))  # 2Ab - B = 0, quietly NaN
        assert optimal_lambda(N=10, n=20, d=4, d_sub=2, Sigma=0.0) == math.inf


# --------------------------------------------------------------------------- theory.py: messages and defaults
# Survivors of the mutation run (see .ci/mutation-triage.md): each error names the offending parameter in
# backticks (the project's message convention), the documented defaults, and quiet D <= 0 edges.
@pytest.mark.parametrize("bad, name", [(dict(n=0), "n"), (dict(d=0, d_sub=1), "d"), (dict(sigma=-1.0), "sigma"),
                                       (dict(Sigma=float("nan")), "Sigma"),
                                       (dict(attack="same-value", N_a=-1, tau=0.1), "N_a"),
                                       (dict(N=1), "N"), (dict(Sigma=-0.1), "Sigma"),
                                       (dict(attack=None, N_a=-1), "N_a")])
def test_uniform_loss_errors_name_the_parameter(bad, name):
    """The validation names the parameter it rejects: `n` (not `N`), `d` = 0 (not the d_sub range that
    follows from it), a negative N_a without attack (not accepted as N_b = N + 1 clients)."""
    kw = {**dict(N=10, n=20, d=4, d_sub=2, b=1.0, sigma=1.0, Sigma=0.1), **bad}
    with pytest.raises(ValueError, match=f"^`{name}` "):
        uniform_loss("pfedme", 1.0, **kw)
    with pytest.raises(ValueError, match=f"^`{name}` "):
        optimal_lambda(**kw)


def test_signflip_without_M0_message_starts_with_M0():
    with pytest.raises(ValueError, match=r"^`M0` \(eq\. 41, the mean trace per dimension of the sign-flip message "
                                         r"covariance\) is required for attack='sign-flip'$"):
        uniform_loss("pfedme", 1.0, N=10, n=20, d=4, d_sub=2, attack="sign-flip", N_a=2)


def test_other_theory_errors_name_the_parameter():
    with pytest.raises(ValueError, match="^`C` "):
        lemma29_argmin(1.0, 0.5, float("nan"), 1.0)
    with pytest.raises(ValueError, match="^`method` must be one of"):
        fairness_V("prox", 1.0, np.eye(3))
    # a float64 overflow of the loss names the inputs with their values (Sigma*d*b/2 = 3.5e308 > max float)
    with np.errstate(over="ignore"), pytest.raises(ValueError, match=r"overflows float64.*`d`=7, .*`Sigma`="):
        uniform_loss("fedavg", 0.0, N=10, n=20, d=7, d_sub=2, Sigma=1e308)


def test_uniform_loss_documented_defaults_hand_values():
    """Defaults N=100, n=200, d=100, d_sub=10, b=1, sigma=1, Sigma=0.1, lam=1, evaluated by hand:
    local 1/2 + 100/400; fedavg 1/2 + (100/20000)(100/200) + 100*0.1/2;
    pfedme 1/2 + 50 (1 + 2/100 + 100/10^4)/200/4 + 100*0.1/8;
    lp-proj-2 1/2 + 5 * 1.03/200/4 + 10*0.1/8 + 90/400."""
    assert uniform_loss("local") == pytest.approx(0.75, rel=1e-14)
    assert uniform_loss("fedavg") == pytest.approx(5.5025, rel=1e-14)
    assert uniform_loss("pfedme") == pytest.approx(1.814375, rel=1e-14)
    assert uniform_loss("lp-proj-2") == pytest.approx(0.8564375, rel=1e-14)


def test_optimal_lambda_is_quiet_at_zero_over_zero():
    """sigma = 0 and Sigma = 0: lambda* = 0/0 in the closed form, but D = 0 so the documented answer is inf,
    returned without a RuntimeWarning."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert optimal_lambda(N=10, n=20, d=4, d_sub=2, sigma=0.0, Sigma=0.0) == math.inf
        out = optimal_lambda(N=10, n=20, d=4, d_sub=2, sigma=0.0, Sigma=np.array([0.0, 0.2]))
    assert out[0] == math.inf and out[1] == 0.0


def test_theory_defaults_and_admissible_edges():
    """Documented defaults and edge values the validation must accept, evaluated by hand."""
    # N_a=None without attack means no malicious client: the defaults' pfedme loss (hand value above)
    assert uniform_loss("pfedme", N_a=None) == pytest.approx(1.814375, rel=1e-14)
    # N_a = 1: D = 0.1 + (1/100)(0.25 - 1/40) = 0.10225 (not the clean Sigma)
    assert effective_heterogeneity(0.1, 10, 20, 2.0, 1.0, "gaussian", 1, 0.5) == pytest.approx(0.10225, rel=1e-12)
    # default d_sub = 10 is allowed for d = 10; lambda* = (1 - 1/N) sigma^2/n / Sigma = 0.9/20/0.1
    assert optimal_lambda(N=10, n=20, d=10) == pytest.approx(0.45, rel=1e-12)
    # N_a = N - 1 malicious clients is allowed: derivative against a central difference of the loss
    kw = dict(N=4, n=20, b=2.0, sigma=0.9, Sigma=0.05, N_a=3, tau=0.4)
    L = lambda x: uniform_loss("lp-proj-2", x, d=6, d_sub=2, attack="same-value", **kw)  # noqa: E731
    assert loss_derivative_lpproj(0.8, d_sub=2, **kw) == pytest.approx((L(0.8 + 1e-6) - L(0.8 - 1e-6)) / 2e-6,
                                                                       rel=1e-5)
    # n = 1 is allowed; w = (1, 0), tau = sigma = b = n = 1: the message is -|c|(w + z), c, z independent, so
    # Cov = E[c^2] E[(w + z)(w + z)^T] - (E|c|)^2 w w^T = diag(2 - 2/pi, 1), mean = -sqrt(2/pi) w
    mean, cov = signflip_moments(np.array([1.0, 0.0]), 1.0, 1.0, 1.0, 1)
    np.testing.assert_allclose(mean, [-math.sqrt(2 / math.pi), 0.0], rtol=1e-14, atol=0)
    np.testing.assert_allclose(cov, [[2 - 2 / math.pi, 0.0], [0.0, 1.0]], rtol=1e-14, atol=1e-15)


def test_effective_heterogeneity_ignores_tau_without_malicious_clients():
    """N_a = 0: D = Sigma whatever tau (here so large that tau^2 overflows; with N_a = 1 that is an error
    naming `tau` with its value)."""
    assert effective_heterogeneity(0.1, 10, 20, 2.0, 1.0, "gaussian", 0, 1e200) == 0.1
    with np.errstate(over="ignore"), pytest.raises(ValueError, match=r"^D overflows float64.*`tau`=1e\+200"):
        effective_heterogeneity(0.1, 10, 20, 2.0, 1.0, "gaussian", 1, 1e200)


@pytest.mark.parametrize("call, name", [
    (lambda: lemma29_argmin(1.0, float("nan"), 1.0, 1.0), "B"),
    (lambda: minimal_loss("prox", N=10, n=20, d=4, d_sub=2), "method"),
    (lambda: proposition16_threshold(-0.5, 2.0), "lam_star"),
    (lambda: loss_derivative_lpproj(1.0, d_sub=2, N=1, n=20), "N"),
    (lambda: loss_derivative_lpproj(1.0, d_sub=2, N=10, n=20, b=0.0), "b"),
    (lambda: loss_derivative_lpproj(1.0, d_sub=2, N=10, n=20, Sigma=-0.1), "Sigma"),
    (lambda: loss_derivative_lpproj(-1.0, d_sub=2, N=10, n=20), "lam"),
    (lambda: per_client_test_loss("fedavg", 1.0, np.zeros(3), n=5), "W"),
    (lambda: per_client_test_loss("pfedme", -0.5, np.eye(3), n=5), "lam"),
    (lambda: per_client_test_loss("pfedme", 1.0, np.eye(3), n=5, b=0.0), "b"),
    (lambda: per_client_test_loss("pfedme", 1.0, np.eye(3), n=5, sigma=-1.0), "sigma"),
    (lambda: fairness_V("fedavg", 1.0, np.zeros(3)), "W"),
    (lambda: fairness_V("fedavg", 1.0, np.zeros((2, 3, 4))), "W"),
    (lambda: fairness_V("fedavg", 1.0, np.eye(3), b=0.0), "b"),
    (lambda: fairness_V("lp-proj-2", 1.0, np.eye(3), P=np.ones((1, 2))), "P"),
    (lambda: expected_fairness_V("fedavg", 0.0, N=4, Sigma_w=np.eye(2), variant="typo"), "variant"),
    (lambda: expected_fairness_V("fedavg", 0.0, N=4, Sigma_w=np.ones(2)), "Sigma_w"),
    (lambda: loss_derivative_lpproj(1.0, d_sub=2, N=10, n=0), "n"),
    (lambda: loss_derivative_lpproj(1.0, d_sub=2, N=10, n=20, sigma=-1.0), "sigma"),
    (lambda: signflip_moments(np.eye(2), 1.0, 1.0, 1.0, 1), "w"),
    (lambda: signflip_moments(np.ones(2), -1.0, 1.0, 1.0, 1), "tau"),
    (lambda: signflip_moments(np.ones(2), 1.0, 1.0, 1.0, 0), "n"),
    (lambda: expected_fairness_V("fedavg", 0.0, N=4, Sigma_w=np.ones((2, 3))), "Sigma_w"),
    (lambda: expected_fairness_V("lp-proj-2", 0.0, N=4, Sigma_w=np.eye(2), P=np.ones((1, 3))), "P"),
])
def test_more_theory_errors_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=f"^`{name}` "):
        call()


def test_theory_messages_start_with_their_subject():
    """Anchored messages: the parameter (or the quantity that overflows) first, with the inputs named."""
    with pytest.raises(ValueError, match=r"^`P` is required for lp-proj-2$"):
        expected_fairness_V("lp-proj-2", 1.0, N=3, Sigma_w=np.eye(3))
    with pytest.raises(ValueError, match=r"got Sigma=0\.0, tau=0\.0, M0=None, N_a=0$"):
        minimal_loss("pfedme", N=10, n=20, d=4, d_sub=2, Sigma=0.0)
    with pytest.raises(ValueError, match="^the d x d covariance would need"):
        signflip_moments(np.zeros(10 ** 6), 1.0, 1.0, 1.0, 1)
    with np.errstate(all="ignore"):
        # sigma^2 d/(2n) = 1e308 * 100/2 overflows
        with pytest.raises(ValueError, match=r"^the test loss overflows float64.*`N`=10, `n`=1, `d`=100, `d_sub`=2, "
                                             r"`b`=1\.0, `sigma`=1e\+154"):
            uniform_loss("local", 0.0, N=10, n=1, d=100, d_sub=2, sigma=1e154)
        big = np.array([[1e200], [-1e200]])
        with pytest.raises(ValueError, match=r"^the per-client losses overflows float64.*`W`, `P`, `lam`="):
            per_client_test_loss("fedavg", 1.0, big, n=5)
        with pytest.raises(ValueError, match=r"^V overflows float64.*`W`, `P`, `lam`=array\(1\.\), `b`=1\.0$"):
            fairness_V("fedavg", 1.0, big)
        with pytest.raises(ValueError, match=r"^E V overflows float64.*`Sigma_w`, `P`, `lam`="):
            expected_fairness_V("pfedme", 1.0, N=4, Sigma_w=np.array([[1e200]]))
        with pytest.raises(ValueError, match=r"^the sign-flip moments overflows float64.*`w`, `tau`=1\.5, "):
            signflip_moments(np.array([1e200]), 1.5, 1.0, 1.0, 1)


# --------------------------------------------------------------------------- algorithms.py: messages and edges
def _small_stack(N=3, d=2):
    G = np.broadcast_to(np.diag([2.0, 1.0])[:d, :d], (N, d, d)).copy()
    h = np.arange(N * d, dtype=float).reshape(N, d) / 4
    return G, h, np.eye(d)[:1]


@pytest.mark.parametrize("call, name", [
    (lambda: attack_messages(np.random.default_rng(0), "gaussian", np.zeros((2, 3)), -1.0), "tau"),
    (lambda: closed_form_models("pfedme", np.full((3, 2), np.nan), 1.0, 1.0), "w_hat"),
    (lambda: closed_form_models("lp-proj-2", np.zeros((3, 2)), 1.0, 1.0), "P"),
    (lambda: benign_losses(np.zeros((3, 2)), np.zeros((3, 2)), 0.0, 0.5), "b"),
    (lambda: benign_losses(np.zeros((3, 2)), np.zeros((3, 2)), 1.0, -0.5), "sigma"),
    (lambda: benign_losses(np.zeros((3, 2)), np.zeros((3, 2)), 1.0, 0.5, N_a=3), "N_a"),
    (lambda: mc_test_loss("pfedme", make_problem(N=3, d=2, d_sub=1, n=5), 1.0, n_samples=1, sampler="reduced"),
     "n_samples"),
    (lambda: mc_test_loss("pfedme", make_problem(N=3, d=2, d_sub=1, n=5), 1.0, n_samples=10, chunk=0), "chunk"),
    (lambda: exact_loss("pfedme", -1.0, make_problem(N=3, d=2, d_sub=1, n=5)), "lam"),
    (lambda: lpproj2_general_solution(*_small_stack()[:1], np.zeros((3, 3)), np.eye(2)[:1], 1.0), "h"),
    (lambda: lpproj2_general_solution(*_small_stack()[:2], np.eye(3)[:1], 1.0), "P"),
    (lambda: admm_l1_inner(np.full((3, 2, 2), np.nan), *_small_stack()[1:], np.zeros((3, 1)), 1.0), "G"),
    (lambda: admm_l1_inner(_small_stack()[0], np.zeros((3, 3)), np.eye(2)[:1], np.zeros((3, 1)), 1.0), "h"),
    (lambda: admm_l1_inner(*_small_stack()[:2], np.eye(3)[:1], np.zeros((3, 1)), 1.0), "P"),
    (lambda: admm_l1_inner(*_small_stack(), np.zeros((3, 1)), 1.0, rho=0.0), "rho"),
    (lambda: admm_l1_inner(*_small_stack(), np.zeros((3, 1)), 1.0, nu=-1.0), "nu"),
    (lambda: admm_l1_inner(*_small_stack(), np.zeros((3, 1)), 1.0, max_iter=0), "max_iter"),
    (lambda: run_algorithm1(make_problem(N=3, d=2, d_sub=1, n=5), 1.0, eta=0.0), "eta"),
    (lambda: run_algorithm1(make_problem(N=3, d=2, d_sub=1, n=5), 1.0, beta=-0.5), "beta"),
    (lambda: closed_form_models("pfedme", np.zeros((3, 2)), 1.0, 1.0, attack="gaussian", N_a=-1), "N_a"),
    (lambda: closed_form_models("pfedme", np.zeros((3, 2)), 1.0, 0.0), "b"),
    (lambda: closed_form_models("lp-proj-2", np.zeros((3, 2)), 1.0, 1.0, np.ones((1, 3))), "P"),
    (lambda: attack_messages(np.random.default_rng(0), "gaussian", np.full((2, 3), np.nan), 1.0), "honest"),
    (lambda: benign_losses(np.zeros((3, 2)), np.full((3, 2), np.nan), 1.0, 0.5), "W"),
    (lambda: admm_l1_inner(np.eye(2), *_small_stack()[1:], np.zeros((3, 1)), 1.0), "G"),
])
def test_algorithms_errors_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=f"^`{name}` "):
        call()


def test_algorithms_messages_start_with_their_subject():
    """Anchored messages of the size guards and overflow checks, naming the inputs with their values."""
    prob = make_problem(N=5, d=4, d_sub=2, n=10, b=2.0, seed=9)
    with pytest.raises(ValueError, match=r"N=5 clients in `problem`\)"):
        exact_loss("pfedme", 1.0, prob, attack="gaussian", N_a=5, tau=1.0)
    with pytest.raises(ValueError, match=r"N=3 clients in `w_hat`\)"):
        closed_form_models("pfedme", np.zeros((3, 2)), 1.0, 1.0, attack="gaussian", N_a=3, tau=1.0)
    with pytest.raises(ValueError, match="^the per-block random streams of the Monte Carlo would need"):
        mc_test_loss("pfedme", prob, 1.0, n_samples=10 ** 18)
    wide = LinearFLProblem(W=np.zeros((1000, 200)), n=10, b=1.0, sigma=1.0, P=np.eye(200)[:1])
    with pytest.raises(ValueError, match=r"^one block of replications .*`n_samples`=20000, `N`=1000, `d`=200$"):
        mc_test_loss("pfedme", wide, 1.0)
    tall = LinearFLProblem(W=np.zeros((2, 1)), n=10 ** 9, b=1.0, sigma=1.0, P=np.eye(1))
    with pytest.raises(ValueError, match=r"^the designs \(N x n x d\) would need .*`N`=2, `n`=1000000000, `d`=1$"):
        run_algorithm1(tall, 1.0)
    with pytest.raises(ValueError, match=r"^Algorithm 1 \(T rounds of R local steps\) would run .*"
                                         r"got `T`=1000000, `R`=1000000$"):
        run_algorithm1(prob, 1.0, T=10 ** 6, R=10 ** 6)
    with pytest.raises(ValueError, match="^the ADMM iterations would run"):
        admm_l1_inner(*_small_stack(), np.zeros((3, 1)), 1.0, max_iter=10 ** 12)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the replicated overflow is reported as one ValueError, no RuntimeWarning
        with pytest.raises(ValueError, match=r"^the replicated losses overflow float64; inputs too large in "
                                             r"magnitude: `lam`=0\.6, `tau`=1e\+308, `problem`="):
            # tau * N(0, 1) itself overflows for |N(0, 1)| > 1.8 (a float64 overflow warning inside the sampler)
            mc_test_loss("lp-proj-2", prob, 0.6, attack="gaussian", N_a=2, tau=1e308, n_samples=50, sampler="reduced")
    N, d = 3, 2
    with np.errstate(all="ignore"):
        with pytest.raises(ValueError, match=r"^the test loss overflows float64"):
            exact_loss("pfedme", 1e300, prob)
        with pytest.raises(ValueError, match=r"^the lp-proj-2 solution overflows float64.*: `G`, `h`, `P`, `lam`="):
            lpproj2_general_solution(np.broadcast_to(1e-300 * np.eye(d), (N, d, d)), 1e10 * np.ones((N, d)),
                                     np.eye(d)[:1], 0.0)
        with pytest.raises(ValueError, match=r"^the ADMM solution overflows float64.*: `G`, `h`, `P`, `w`, `lam`="):
            admm_l1_inner(np.broadcast_to(1e-10 * np.eye(d), (N, d, d)), 1e300 * np.ones((N, d)), np.eye(d)[:1],
                          np.zeros((N, 1)), 1.0, max_iter=2)
        with pytest.raises(ValueError, match=r"^the personalised models overflows float64.*: `w_hat`, `P`, `lam`="):
            closed_form_models("pfedme", np.full((3, 2), 1e308), 1.0, 2.0)
        with pytest.raises(ValueError, match=r"^the benign losses overflows float64.*: `x`, `W`, `b`=3\.0, "
                                             r"`sigma`=0\.5$"):
            benign_losses(np.full((3, 2), 1e200), np.zeros((3, 2)), 3.0, 0.5)


def test_closed_form_pfedme_needs_no_P_and_is_the_prox_point():
    """pfedme/ditto without P: x_k minimises (b/2)||x - w_hat_k||^2 + (lam/2)||x - m||^2, m = mean_k w_hat_k,
    i.e. the gradient b (x_k - w_hat_k) + lam (x_k - m) vanishes."""
    wh = np.random.default_rng(3).standard_normal((4, 3))
    b, lam = 1.5, 0.7
    x = closed_form_models("pfedme", wh, lam, b)
    m = wh.mean(axis=0)
    np.testing.assert_allclose(b * (x - wh) + lam * (x - m), 0.0, atol=1e-13)


def test_admm_stops_at_an_exact_fixed_point_and_uses_rho():
    """min_x x^2/2 + |0 - x| has x = 0; ADMM started at x = z = u = 0 is already there: both residuals are exactly
    0 after one iteration, so it stops even with nu = 0. A given rho changes the path, not the solution."""
    one = np.ones((1, 1, 1))
    x, it = admm_l1_inner(one, np.zeros((1, 1)), np.eye(1), np.zeros((1, 1)), 1.0, nu=0.0)
    assert it == 1 and x[0, 0] == 0.0
    G, h, P = _small_stack()
    w = np.array([[0.3], [-0.1], [2.0]])
    x1, it1 = admm_l1_inner(G, h, P, w, 0.5, nu=1e-20)
    x2, it2 = admm_l1_inner(G, h, P, w, 0.5, rho=5.0, nu=1e-20)
    np.testing.assert_allclose(x1, x2, atol=1e-8)
    assert it1 != it2


def test_theory_messages_more_subjects_and_values():
    base = dict(N=10, n=20, d=4, d_sub=2)
    with pytest.raises(ValueError, match=r"^`N_a` .*\(no attack: N_a must be 0\)"):
        uniform_loss("pfedme", 1.0, N_a=1, **base)
    with pytest.raises(ValueError, match=r"^`variant`='printed' is defined for the clean losses only$"):
        uniform_loss("pfedme", 1.0, variant="printed", attack="same-value", N_a=2, tau=0.1, **base)
    # D = 0 + (2/100)(0 - 1/20) < 0: no minimiser; the message reports the N_a it was given
    with pytest.raises(ValueError, match=r"got Sigma=0\.0, tau=0\.0, M0=None, N_a=2$"):
        minimal_loss("pfedme", Sigma=0.0, attack="same-value", N_a=2, **base)
    # all defaults: lambda* = (1 - 1/100) * 1/200 / 0.1
    assert optimal_lambda() == pytest.approx(0.0495, rel=1e-12)
    with np.errstate(all="ignore"):
        with pytest.raises(ValueError, match=r"^the derivative overflows float64.*`N`=10, `n`=20, `b`=1\.0, "):
            loss_derivative_lpproj(1.0, d_sub=10, N=10, n=20, Sigma=1e308)
        with pytest.raises(ValueError, match=r"^E V overflows float64.*`Sigma_w`, `P`, `lam`="):
            expected_fairness_V("fedavg", 1.0, N=4, Sigma_w=np.array([[1e200]]))


def test_algorithms_type_errors_edges_and_guards():
    prob = make_problem(N=3, d=2, d_sub=1, n=5)
    with pytest.raises(TypeError, match="^`problem` "):
        exact_loss("pfedme", 1.0, "problem")
    with pytest.raises(TypeError, match="^`rng` "):
        attack_messages(0, "gaussian", np.zeros((2, 3)), 1.0)
    with pytest.raises(ValueError, match=r"^`tau` must be in \[0, inf\) \(attack standard deviation\); got"):
        attack_messages(np.random.default_rng(0), "gaussian", np.zeros((2, 3)), -1.0)
    with pytest.raises(ValueError, match=r"^`lam` must be > 0 for p=1 \(the ADMM penalty rho = lam\)$"):
        run_algorithm1(prob, 0.0, method="lp-proj", p=1)
    # G_k + rho P^T P singular (G = 0, P of rank 1 < d)
    with pytest.raises(ValueError, match=r"^singular system .*\(`G`, `P`, `rho`, which defaults to `lam`\)$"):
        admm_l1_inner(np.zeros((3, 2, 2)), np.zeros((3, 2)), np.eye(2)[:1], np.zeros((3, 1)), 1.0)
    # the reduced sampler needs P P^T = I to 1e-10: rows with inner product 1e-9 are refused
    skew = LinearFLProblem(W=np.zeros((3, 3)), n=5, b=1.0, sigma=1.0, P=np.array([[1.0, 0, 0], [1e-9, 1.0, 0]]))
    with pytest.raises(ValueError, match="^`sampler`='reduced' applies to method='lp-proj-2' with orthonormal-row P"):
        mc_test_loss("lp-proj-2", skew, 1.0, n_samples=10, sampler="reduced")
    # the history of T + 1 global iterates takes 8 d bytes each: with d = 8, T = 6e7 it fits the 4 GiB guard
    # (3.84e9 bytes), so the next guard (the designs, n = 1e9) is the one that refuses the call
    tall = LinearFLProblem(W=np.zeros((2, 8)), n=10 ** 9, b=1.0, sigma=1.0, P=np.eye(8)[:1])
    with pytest.raises(ValueError, match=r"^the designs \(N x n x d\)"):
        run_algorithm1(tall, 1.0, T=60_000_000, R=1)
