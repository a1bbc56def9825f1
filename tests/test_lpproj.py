import math

import numpy as np
import pytest

from fedtheory.lpproj import (METHODS, LinearFLProblem, closed_form_models, effective_heterogeneity,
                              expected_fairness_V, fairness_V, lpproj2_general_solution, make_problem,
                              make_projection, mc_test_loss, optimal_lambda, proposition16_threshold,
                              run_algorithm1, test_loss, test_loss_general)

FIG1 = dict(N=100, n=200, d=100, d_sub=10, b=1.0, sigma=1.0, Sigma=0.1, attack="same-value", N_a=20,
            tau=100.0)


def test_public_example_from_the_issue():
    lam = np.array([1e-4, 1e-3, 1e-2])
    L = test_loss("lp-proj-2", lam, **FIG1)
    assert L.shape == (3,)
    ls = optimal_lambda(**FIG1)
    assert ls == pytest.approx(0.99 / 200 / (0.1 + 20 / 100 ** 2 * (100.0 ** 2 - 1 / 200)), rel=1e-12)
    assert isinstance(test_loss("pfedme", 1e-3, **FIG1), float)


def test_monte_carlo_agrees_with_general_forms_under_each_attack():
    prob = make_problem(N=10, d=5, d_sub=2, n=30, seed=4)
    for attack, N_a in ((None, 0), ("same-value", 3), ("sign-flip", 3), ("gaussian", 3)):
        for method in METHODS:
            e = mc_test_loss(method, prob, 0.3, attack=attack, N_a=N_a, tau=2.0, n_samples=20_000, seed=1)
            v = test_loss_general(method, 0.3, prob, attack=attack, N_a=N_a, tau=2.0)
            assert abs(e.z_score(v)) < 4.5, (method, attack)


def test_full_data_estimates_match_the_reduced_sampler():
    """Sampling (Xi, y) then least squares gives the same w_hat law as the direct sampler."""
    prob = make_problem(N=4, d=3, d_sub=1, n=12, sigma=0.5, seed=2)
    rng = np.random.default_rng(0)
    Xi = prob.design(rng)
    np.testing.assert_allclose(np.swapaxes(Xi, 1, 2) @ Xi, prob.n * prob.b * np.broadcast_to(np.eye(3), (4, 3, 3)),
                               atol=1e-10)
    wh = []
    for _ in range(4000):
        _, y = prob.sample_data(rng, Xi)
        wh.append(np.einsum("knd,kn->kd", Xi, y) / (prob.n * prob.b))
    wh = np.array(wh)
    assert np.allclose(wh.mean(0), prob.W, atol=5 * 0.5 / math.sqrt(12 * 4000))
    assert np.allclose(wh.var(0), 0.25 / 12, rtol=0.1)


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


def test_fairness_expectation_corrected_constant_by_monte_carlo():
    rng = np.random.default_rng(0)
    N, d = 10, 3
    S = np.diag([1.0, 0.5, 0.2])
    v = []
    for _ in range(20000):
        W = rng.multivariate_normal(np.zeros(d), S, size=N)
        v.append(np.var(np.sum((W - W.mean(0)) ** 2, axis=1)))
    est, se = np.mean(v), np.std(v) / math.sqrt(len(v))
    EV = expected_fairness_V("fedavg", 1.0, N=N, Sigma_w=S, b=2.0)
    assert abs(est * 4 / 4 - EV / (2.0 ** 2 / 4)) < 4 * se  # corrected constant 2
    printed = expected_fairness_V("fedavg", 1.0, N=N, Sigma_w=S, b=2.0, variant="printed")
    assert abs(est - printed / (2.0 ** 2 / 4)) > 10 * se


def test_effective_heterogeneity_and_threshold():
    kw = dict(N=50, n=100, d=30, d_sub=5, b=1.0, sigma=1.0)
    D = effective_heterogeneity(0.1, 50, 100, 1.0, 1.0, "same-value", 5, 2.0)
    assert test_loss("pfedme", 0.3, Sigma=0.1, attack="same-value", N_a=5, tau=2.0, **kw) == \
        pytest.approx(test_loss("pfedme", 0.3, Sigma=D, **kw))
    ls = optimal_lambda(Sigma=0.1, **kw)
    thr = proposition16_threshold(ls, 1.0)
    assert test_loss("lp-proj-2", thr * 1.01, Sigma=0.1, **kw) < test_loss("pfedme", thr * 1.01, Sigma=0.1, **kw)
    assert test_loss("lp-proj-2", thr * 0.99, Sigma=0.1, **kw) > test_loss("pfedme", thr * 0.99, Sigma=0.1, **kw)


def test_fairness_V_increases_with_lambda():
    prob = make_problem(N=10, d=4, d_sub=2, seed=1)
    V = fairness_V("pfedme", np.logspace(-2, 2, 20), prob.W)
    assert np.all(np.diff(V) > 0)
    assert fairness_V("local", 1.0, prob.W) == 0.0


@pytest.mark.parametrize("kwargs, match", [
    (dict(d_sub=200), r"`d_sub` must be in \[1, 100\]"),
    (dict(N_a=100, attack="same-value"), r"`N_a` must be in \[0, 99\]"),
    (dict(b=0.0), r"`b` must be in \(0"),
    (dict(attack="flood"), r"`attack` must be one of"),
    (dict(attack="sign-flip", N_a=3), r"`M0`"),
])
def test_test_loss_validation(kwargs, match):
    base = dict(N=100, n=200, d=100, d_sub=10, b=1.0, sigma=1.0, Sigma=0.1)
    with pytest.raises(ValueError, match=match):
        test_loss("lp-proj-2", 0.1, **{**base, **kwargs})


def test_lambda_and_method_validation():
    with pytest.raises(ValueError, match=r"`lam` must be >= 0"):
        test_loss("pfedme", -1.0)
    with pytest.raises(ValueError, match=r"`method` must be one of: 'local', 'fedavg', 'pfedme', 'ditto', 'lp-proj-2'"):
        test_loss("fedprox", 0.1)


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
