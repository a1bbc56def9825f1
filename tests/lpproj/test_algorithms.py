"""Tests of :mod:`fedtheory.lpproj.algorithms`: Algorithm 1 of lp-proj (Han et al. 2024) with p = 1 and p = 2
against plain loops and the closed-form solutions of App. B.1, partial participation, the attacks of Sec. 4.2, the
ADMM inner solver, the Monte Carlo test losses and samplers (full, reduced, sufficient statistics, control variate),
per-client losses and the parameter messages."""
import itertools
import math

import numpy as np
import pytest
from scipy import stats

from fedtheory.lpproj import METHODS, make_problem, make_projection, run_algorithm1, test_loss_general
from fedtheory.lpproj.algorithms import (admm_l1_inner, attack_messages, benign_loss_draws, benign_losses,
                                         closed_form_models, lpproj2_general_solution, mc_fairness_ratio, mc_test_loss)
from fedtheory.lpproj.algorithms import test_loss_general as exact_loss
from fedtheory.lpproj.model import LinearFLProblem
from fedtheory.lpproj.theory import expected_fairness_V, fairness_V, per_client_test_loss


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
    (A z-score alone can be fooled by an implementation that inflates the variance.)"""
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


def test_monte_carlo_agrees_with_general_forms_under_each_attack():
    prob = make_problem(N=10, d=5, d_sub=2, n=30, seed=4)
    for attack, N_a in ((None, 0), ("same-value", 3), ("sign-flip", 3), ("gaussian", 3)):
        for method in METHODS:
            e = mc_test_loss(method, prob, 0.3, attack=attack, N_a=N_a, tau=2.0, n_samples=20_000, seed=1)
            v = test_loss_general(method, 0.3, prob, attack=attack, N_a=N_a, tau=2.0)
            assert abs(e.z_score(v)) < 4.5, (method, attack)


def test_algorithm1_matches_closed_form_and_general_solution():
    prob = make_problem(N=6, d=5, d_sub=2, n=20, seed=3)
    rng = np.random.default_rng(1)
    Xi, y = prob.sample_data(rng)
    wh = np.einsum("knd,kn->kd", Xi, y) / (Xi.shape[1] * prob.b)
    res = run_algorithm1(prob, 0.4, T=1, R=300, data=(Xi, y))
    np.testing.assert_allclose(res.x, closed_form_models("lp-proj-2", wh, 0.4, prob.b, prob.P), atol=1e-12)
    P = make_projection(2, 5, orthonormal=False, seed=5)
    prob2 = LinearFLProblem(W=prob.W, n=prob.n, b=prob.b, sigma=prob.sigma, P=P)
    res2 = run_algorithm1(prob2, 0.4, T=1, R=3000, data=(Xi, y))
    G = np.swapaxes(Xi, 1, 2) @ Xi / Xi.shape[1]
    h = np.einsum("knd,kn->kd", Xi, y) / Xi.shape[1]
    w, x = lpproj2_general_solution(G, h, P, 0.4)
    np.testing.assert_allclose(res2.w, w, atol=1e-10)


def test_multi_round_partial_participation_converges_to_the_optimum():
    """With exact inner solves, R = 1 and S < N, the weighted global iterate approaches w*."""
    prob = make_problem(N=8, d=4, d_sub=2, n=20, seed=6)
    rng = np.random.default_rng(2)
    Xi, y = prob.sample_data(rng)
    wh = np.einsum("knd,kn->kd", Xi, y) / (Xi.shape[1] * prob.b)
    res = run_algorithm1(prob, 1.0, T=400, R=1, S=8, eta=0.5, data=(Xi, y))
    np.testing.assert_allclose(res.w, (wh @ prob.P.T).mean(0), atol=1e-10)


def test_p1_run_and_sign_update():
    prob = make_problem(N=5, d=4, d_sub=2, n=20, seed=7)
    res = run_algorithm1(prob, 0.2, p=1, T=3, R=5, eta=0.1, seed=0)
    assert res.history.shape == (4, 2) and np.all(np.isfinite(res.x))


def test_reduced_mc_sampler_agrees_with_closed_form_and_full_sampler():
    prob = make_problem(N=12, d=7, d_sub=3, n=40, seed=8)
    v = test_loss_general("lp-proj-2", 0.4, prob, attack="same-value", N_a=3, tau=2.0)
    r = mc_test_loss("lp-proj-2", prob, 0.4, attack="same-value", N_a=3, tau=2.0, n_samples=40_000, seed=2,
                     sampler="reduced")
    f = mc_test_loss("lp-proj-2", prob, 0.4, attack="same-value", N_a=3, tau=2.0, n_samples=40_000, seed=3)
    assert abs(r.z_score(v)) < 4 and abs(f.z_score(v)) < 4
    assert abs(r.mean - f.mean) < 4 * math.hypot(r.se, f.se)
    with pytest.raises(ValueError, match="reduced"):
        mc_test_loss("pfedme", prob, 0.4, sampler="reduced")


def test_algorithm1_server_step_beta_above_one_composes_single_rounds():
    """Line 12 with beta = 20 (the step of the Theorem 9 claim): T rounds of ``run_algorithm1``
    equal T one-round runs chained by hand, w <- (1 - beta) w + beta * (one round from w, beta = 1),
    with full participation (so no sampling stream is involved)."""
    prob = make_problem(N=6, d=5, d_sub=3, n=15, seed=3)
    beta, eta, R, T = 20.0, 2e-4, 3, 4
    kw = dict(R=R, S=6, eta=eta, data=prob.sample_data(np.random.default_rng(4)))
    full = run_algorithm1(prob, 1.0, T=T, beta=beta, seed=0, **kw).history
    w = np.zeros(prob.d_sub)
    chained = [w]
    for _ in range(T):
        w = (1 - beta) * w + beta * run_algorithm1(prob, 1.0, T=1, beta=1.0, w0=w, seed=0, **kw).w
        chained.append(w)
    np.testing.assert_allclose(full, np.array(chained), rtol=1e-12, atol=1e-14)
    assert np.max(np.abs(np.diff(full, axis=0))) > 1e-6  # the rounds move


@pytest.mark.parametrize("kw, msg", [
    (dict(N=2), "N"),
    (dict(N=5, lam=0.0), "lam"),
    (dict(N=5, mu_w=np.zeros(7)), "mu_w"),
    (dict(N=5, n_samples=1), "n_samples"),
])
def test_mc_ratio_bad_input(kw, msg):
    with pytest.raises(ValueError, match=msg):
        mc_fairness_ratio(np.eye(3), np.eye(3)[:1], **kw)


def test_mc_ratio_rejects_indefinite_covariance():
    with pytest.raises(ValueError, match="positive semi-definite"):
        mc_fairness_ratio(np.diag([1.0, -1.0]), np.eye(2)[:1], N=4)


# ----------------------------------------------------------------------------- sufficient-statistics sampler
@pytest.fixture(scope="module")
def small():
    return make_problem(N=10, d=5, d_sub=2, n=15, heterogeneity=0.4, mu_w=1.0, seed=7)


@pytest.mark.parametrize("method", ["pfedme", "lp-proj-2"])
@pytest.mark.parametrize("attack", [None, "same-value", "gaussian", "sign-flip"])
def test_sufficient_sampler_law_matches_full(small, method, attack):
    att = dict(attack=attack, N_a=3 if attack else 0, tau=1.5)
    x = benign_loss_draws(method, small, 0.4, 20_000, sampler="full", seed=1, **att)
    y = benign_loss_draws(method, small, 0.4, 20_000, sampler="sufficient", seed=2, **att)
    assert stats.ks_2samp(x, y).pvalue > 1e-4
    cf = test_loss_general(method, 0.4, small, **att)
    for control in (None, "local"):
        e = mc_test_loss(method, small, 0.4, n_samples=100_000, seed=3, sampler="sufficient", control=control, **att)
        assert abs(e.z_score(cf)) < 4.5, (control, e.summary(), cf)


def test_control_variate_shrinks_the_interval_at_small_lambda(small):
    plain = mc_test_loss("pfedme", small, 1e-3, n_samples=50_000, seed=0, sampler="sufficient")
    cv = mc_test_loss("pfedme", small, 1e-3, n_samples=50_000, seed=0, sampler="sufficient", control="local")
    assert cv.se < plain.se / 20
    full_cv = mc_test_loss("pfedme", small, 1e-3, n_samples=20_000, seed=0, control="local")
    assert abs(full_cv.z_score(test_loss_general("pfedme", 1e-3, small))) < 4.5


def test_sufficient_sampler_covers_ditto_and_reduced_stays_lpproj2_only(small):
    e = mc_test_loss("ditto", small, 0.5, n_samples=50_000, seed=5, sampler="sufficient")
    assert abs(e.z_score(test_loss_general("ditto", 0.5, small))) < 4.5
    with pytest.raises(ValueError, match="use sampler='sufficient'"):
        mc_test_loss("pfedme", small, 0.5, sampler="reduced")


def test_sampler_bad_input(small):
    with pytest.raises(ValueError, match="control"):
        mc_test_loss("pfedme", small, 0.5, control="global")
    with pytest.raises(ValueError, match="sampler"):
        mc_test_loss("fedavg", small, 0.5, sampler="sufficient")
    bad = make_problem(N=10, d=5, d_sub=2, orthonormal_P=False, seed=1)
    with pytest.raises(ValueError, match="orthonormal"):
        mc_test_loss("lp-proj-2", bad, 0.5, sampler="sufficient")
    with pytest.raises(ValueError, match="orthonormal"):
        benign_loss_draws("lp-proj-2", bad, 0.5, 10, sampler="sufficient")
    with pytest.raises(ValueError, match="size"):
        benign_loss_draws("pfedme", small, 0.5, 0)
    with pytest.raises(ValueError, match="method"):
        benign_loss_draws("local", small, 0.5, 10)


def test_mc_fairness_ratio_moments_against_the_closed_forms_and_its_se_against_replication():
    d, ds, N, lam, b = 4, 2, 6, 0.7, 1.8
    A = np.random.default_rng(1).standard_normal((d, d))
    S = A @ A.T / d
    P = make_projection(ds, d, seed=3)
    est = mc_fairness_ratio(S, P, N=N, mu_w=np.arange(d) * 0.3, lam=lam, b=b, n_samples=40_000, seed=2,
                            confidence=0.999)
    # E V^Me and E V^l2 (Theorem 32, corrected constant) inside their intervals; lam and b enter through coef
    assert est.V_me.ci_low <= expected_fairness_V("pfedme", lam, N=N, Sigma_w=S, b=b) <= est.V_me.ci_high
    assert est.V_l2.ci_low <= expected_fairness_V("lp-proj-2", lam, N=N, Sigma_w=S, b=b, P=P) <= est.V_l2.ci_high
    assert est.n == 40_000 and est.confidence == 0.999
    q = stats.t.ppf(0.9995, est.n - 1)
    assert (est.ci_high - est.ci_low) / 2 == pytest.approx(q * est.se, rel=1e-9)
    assert est.ratio == pytest.approx(est.V_l2.mean / est.V_me.mean, rel=1e-12)
    # the delta-method se against the spread of independent estimates (30 seeds)
    reps = [mc_fairness_ratio(S, P, N=N, lam=lam, b=b, n_samples=1500, seed=100 + i) for i in range(30)]
    sd = np.std([r.ratio for r in reps], ddof=1)
    se = np.mean([r.se for r in reps])
    assert 0.6 < sd / se < 1.5, (sd, se)


def test_mc_fairness_ratio_input_checks():
    with pytest.raises(ValueError, match="square"):
        mc_fairness_ratio(np.ones((2, 3)), np.eye(3)[:1], N=4)
    with pytest.raises(ValueError, match="`mu_w`"):
        mc_fairness_ratio(np.eye(3), np.eye(3)[:1], N=4, mu_w=np.zeros(2))
    with pytest.raises(ValueError, match="`confidence`"):
        mc_fairness_ratio(np.eye(3), np.eye(3)[:1], N=4, confidence=1.0)
    with pytest.raises(ValueError, match="E V\\^Me estimated as 0"):
        mc_fairness_ratio(np.zeros((3, 3)), np.eye(3)[:1], N=4, n_samples=10)
    r = mc_fairness_ratio(np.eye(3), np.eye(3)[:1], N=4, mu_w=np.ones(3), n_samples=200)
    assert "E V^l2/E V^Me" in r.summary() and "n=200" in r.summary()


def test_benign_loss_draws_size_limit_and_mean():
    prob = make_problem(N=6, d=4, d_sub=2, n=15, seed=2)
    with pytest.raises(ValueError, match="`size`"):
        benign_loss_draws("pfedme", prob, 0.5, (1 << 20) + 1, sampler="sufficient")
    from fedtheory.lpproj import test_loss_general

    for method, sampler in (("ditto", "sufficient"), ("ditto", "full"), ("lp-proj-2", "full")):
        x = benign_loss_draws(method, prob, 0.5, 40_000, sampler=sampler, seed=3, attack="gaussian", N_a=2, tau=1.0)
        ref = test_loss_general(method, 0.5, prob, attack="gaussian", N_a=2, tau=1.0)
        assert abs(x.mean() - ref) < 4.5 * x.std(ddof=1) / math.sqrt(x.size), (method, sampler)


def test_algorithms_parameter_names_messages_and_params():
    from fedtheory.lpproj.algorithms import admm_l1_inner, benign_losses, run_algorithm1

    prob = make_problem(N=5, d=3, d_sub=2, n=20, seed=0)
    for kw, msg in ((dict(T=0), "`T`"), (dict(S=0), "`S`")):
        with pytest.raises(ValueError, match=msg):
            run_algorithm1(prob, 0.5, R=1, **kw)
    r = run_algorithm1(prob, 0.5, T=2, R=2, S=3, eta=0.3, attack="gaussian", N_a=1, tau=0.7)
    assert (r.params["p"], r.params["eta"], r.params["tau"]) == (2, 0.3, 0.7)
    G = np.broadcast_to(np.eye(3), (5, 3, 3))
    with pytest.raises(ValueError, match="`lam`"):
        admm_l1_inner(G, np.zeros((5, 3)), prob.P, np.zeros((5, 2)), 0.0)
    # N_a = N - 1 (one benign client) is admissible: the loss of that client alone
    x = np.ones((5, 3))
    ref = 1.0 / 2 + 2.0 / 2 * np.sum((x[0] - prob.W[0]) ** 2)
    assert benign_losses(x, prob.W, 2.0, 1.0, N_a=4) == pytest.approx(ref, rel=1e-12)
    big = make_problem(N=30, d=20, d_sub=2, seed=0)
    with pytest.raises(ValueError, match="`size`=1048576"):
        benign_loss_draws("pfedme", big, 0.5, 1 << 20)
    with np.errstate(all="ignore"), pytest.raises(ValueError, match="`mu_w`=0.5"):
        mc_fairness_ratio(1e200 * np.eye(3), np.eye(3)[:1], N=4, mu_w=0.5, n_samples=10)


def test_local_loss_at_lam_zero_and_sufficient_sampler_without_heterogeneity():
    from fedtheory.lpproj import test_loss_general
    from fedtheory.lpproj.algorithms import mc_test_loss

    prob = make_problem(N=6, d=4, d_sub=2, n=10, sigma=1.2, seed=1)
    # local training: sigma^2/2 + sigma^2 d/(2 n) whatever lam, also at lam = 0
    assert test_loss_general("local", 0.0, prob) == pytest.approx(1.44 / 2 + 1.44 * 4 / 20, rel=1e-12)
    # identical true models (e_k all equal, so the centred statistic G is 0): the sufficient sampler's other branch
    same = make_problem(N=6, d=4, d_sub=2, n=10, W=np.tile([0.3, -0.2, 0.1, 0.5], (6, 1)), seed=1)
    for method in ("pfedme", "lp-proj-2"):
        e = mc_test_loss(method, same, 0.4, n_samples=40_000, seed=2, sampler="sufficient")
        assert abs(e.z_score(test_loss_general(method, 0.4, same))) < 4.5, (method, e.summary())


def test_algorithms_shape_errors_and_recorded_params():
    from fedtheory.lpproj.algorithms import admm_l1_inner, lpproj2_general_solution, run_algorithm1

    with pytest.raises(ValueError, match="`G`"):
        lpproj2_general_solution(np.ones((2, 3)), np.zeros((2, 3)), np.eye(3)[:2], 1.0)
    P = np.eye(3)[:2]
    G = np.broadcast_to(np.eye(3), (5, 3, 3))
    with pytest.raises(ValueError, match="`w`"):
        admm_l1_inner(G, np.zeros((5, 3)), P, np.zeros((5, 3)), 1.0)
    # a non-square stack (N, 3, 4) with h, P, w sized for d = 4: rejected as non-square, whatever the other shapes
    with pytest.raises(ValueError, match="stack of square matrices"):
        admm_l1_inner(np.ones((5, 3, 4)), np.zeros((5, 4)), np.eye(4)[:2], np.zeros((5, 2)), 1.0)
    prob = make_problem(N=5, d=3, d_sub=2, n=20, seed=0)
    r = run_algorithm1(prob, 0.5, T=1, R=1, S=3, attack="gaussian", N_a=1, tau=0.7)
    assert r.params["S"] == 3 and r.params["attack"] == "gaussian"


def test_run_algorithm1_rejects_nonpositive_nu():
    from fedtheory.lpproj import make_problem, run_algorithm1

    prob = make_problem(N=3, d=4, d_sub=2, n=10, seed=0)
    for bad in (0.0, -1e-3):
        with pytest.raises(ValueError, match="`nu`"):
            run_algorithm1(prob, 1.0, T=1, R=1, nu=bad)
