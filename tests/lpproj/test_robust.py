"""Tests of :mod:`fedtheory.lpproj.robust`: multi-round lp-proj under attack (Han et al. 2024, Sec. 5.4):
``run_rounds`` against Algorithm 1, personalised models against ADMM, the honest output and multiplier identity, E
log of shifted half-normal sums, the sign-flip collapse threshold, the lp-proj-1 loss bound and the norm envelope,
with their validation."""
import dataclasses
import math

import numpy as np
import pytest
from scipy import integrate, stats

from fedtheory.lpproj import LinearFLProblem, admm_l1_inner, benign_losses, make_problem, run_algorithm1
from fedtheory.lpproj import robust as RB
from fedtheory.lpproj.robust import (RobustRunResult, collapse_threshold, contraction_factor, fitted_growth_rates,
                                     log_abs_shifted_halfnormal_sum, lpproj1_loss_bound, norm_envelope,
                                     personalised_models, run_rounds, signflip_log_multiplier_mean, signflip_multiplier,
                                     signflip_multiplier_mean, stationary_norm_bound)
from fedtheory.random import as_generator


def _data(mu_w=0.0, seed=1):
    prob = make_problem(N=10, d=6, d_sub=3, n=20, mu_w=mu_w, seed=seed)
    Xi, y = prob.sample_data(as_generator(5))
    w_hat = np.einsum("knd,kn->kd", Xi, y) / (Xi.shape[1] * prob.b)
    return prob, Xi, y, w_hat


# ----------------------------------------------------------------------------- runner vs run_algorithm1
@pytest.mark.parametrize("p,attack,N_a,lam,eta,R,T,beta", [
    (2, "sign-flip", 3, 0.7, 0.3, 4, 6, 1.0), (2, "gaussian", 2, 0.7, 0.3, 4, 6, 1.0),
    (2, "same-value", 4, 1.0, 0.5, 3, 5, 0.6), (2, None, 0, 0.5, 0.5, 5, 5, 1.0),
    (1, "sign-flip", 2, 0.05, 0.2, 3, 2, 1.0), (1, "gaussian", 2, 0.05, 0.2, 3, 1, 1.0)])
def test_run_rounds_reproduces_run_algorithm1(p, attack, N_a, lam, eta, R, T, beta):
    # p = 1 away from the dead zone |w - P w_hat| <= lam/b, where ADMM's sign of a ~1e-11 residual is arbitrary
    prob, Xi, y, w_hat = _data(mu_w=3.0)
    r1 = run_algorithm1(prob, lam, p=p, T=T, R=R, eta=eta, beta=beta, attack=attack, N_a=N_a, tau=2.0, data=(Xi, y),
                        seed=11, nu=1e-22)
    r2 = run_rounds(prob, lam, p=p, T=T, R=R, eta=eta, beta=beta, attack=attack, N_a=N_a, tau=2.0, w_hat=w_hat, seed=11)
    assert np.max(np.abs(r1.history - r2.history[:, 0])) < 1e-12
    x2 = personalised_models(r2.history[-1, 0], w_hat, prob.P, lam, prob.b, p)
    assert np.max(np.abs(r1.x - x2)) < 1e-9


def test_personalised_models_match_admm_and_linear_solve():
    prob, Xi, y, w_hat = _data()
    G = np.swapaxes(Xi, 1, 2) @ Xi / Xi.shape[1]
    h = np.einsum("knd,kn->kd", Xi, y) / Xi.shape[1]
    w = as_generator(3).standard_normal((prob.N, prob.d_sub))
    x_admm, _ = admm_l1_inner(G, h, prob.P, w, 0.4, nu=1e-24, max_iter=20000)
    assert np.max(np.abs(personalised_models(w, w_hat, prob.P, 0.4, prob.b, 1) - x_admm)) < 1e-7
    x_lin = np.linalg.solve(G + 0.4 * prob.P.T @ prob.P, (h + 0.4 * w @ prob.P)[..., None])[..., 0]
    assert np.max(np.abs(personalised_models(w, w_hat, prob.P, 0.4, prob.b, 2) - x_lin)) < 1e-10


def test_honest_output_after_R_steps_and_multiplier():
    # one round without attack: w_1 = mean_k rho^R w_0 + (1 - rho^R) P w_hat_k (the steps are the referee)
    prob, _, _, w_hat = _data()
    w0 = np.array([1.0, -2.0, 0.5])
    res = run_rounds(prob, 0.8, p=2, T=1, R=7, eta=0.4, w_hat=w_hat, w0=w0)
    rho = contraction_factor(0.4, 0.8, prob.b)
    expect = rho ** 7 * w0 + (1 - rho ** 7) * (w_hat @ prob.P.T).mean(0)
    assert np.allclose(res.history[1, 0], expect, atol=1e-13)
    # sign-flip multiplier from two coupled runs
    ra = run_rounds(prob, 0.8, p=2, T=4, R=3, eta=0.4, attack="sign-flip", N_a=4, tau=2.0, w_hat=w_hat, seed=2)
    rb = run_rounds(prob, 0.8, p=2, T=4, R=3, eta=0.4, attack="sign-flip", N_a=4, tau=2.0, w_hat=w_hat, seed=2, w0=w0)
    d = rb.history - ra.history
    m = signflip_multiplier(ra.attack_scale, rho, 3, prob.N, 4)
    assert np.allclose(d[1:], m[..., None] * d[:-1], atol=1e-12)
    assert np.allclose(ra.multipliers(), m)


def test_fixed_c_draw_is_constant():
    prob, _, _, w_hat = _data()
    r = run_rounds(prob, 0.8, T=5, attack="sign-flip", N_a=3, tau=2.0, c_draw="fixed", w_hat=w_hat, seed=4)
    assert np.all(r.attack_scale == r.attack_scale[0])
    r2 = run_rounds(prob, 0.8, T=5, attack="gaussian", N_a=3, tau=2.0, c_draw="fixed", w_hat=w_hat, seed=4)
    assert np.all(r2.attack_norm == r2.attack_norm[0])


# ----------------------------------------------------------------------------- closed forms vs referees
@pytest.mark.parametrize("a,tau", [(1.0, 1.0), (90.0, 10.0), (0.5, 1.0), (20.0, 3.0)])
def test_elog_n1_matches_density_quadrature(a, tau):
    g = lambda z: 2 * stats.norm.pdf(z) * np.log(abs(a - tau * z))  # noqa: E731
    direct = integrate.quad(g, 0, a / tau, limit=500)[0] + integrate.quad(g, a / tau, np.inf, limit=500)[0]
    assert log_abs_shifted_halfnormal_sum(a, tau, 1) == pytest.approx(direct, abs=1e-9)


def test_elog_and_mean_match_monte_carlo():
    rng = as_generator(7)
    for N_a, rho, R in ((20, 0.97, 5), (50, 0.9, 1), (3, 1.0, 1)):
        C = 10.0 * np.abs(rng.standard_normal((400_000, N_a))).sum(1)
        m = rho ** R * (100 - N_a - C) / 100
        lg = np.log(np.abs(m))
        assert abs(signflip_log_multiplier_mean(rho, R, 100, N_a, 10.0) - lg.mean()) < 5 * lg.std() / math.sqrt(lg.size)
        assert abs(signflip_multiplier_mean(rho, R, 100, N_a, 10.0) - m.mean()) < 5 * m.std() / math.sqrt(m.size)
    # beta < 1: m = 1 - beta + beta rho^R (N_b - C)/N
    C = 10.0 * np.abs(rng.standard_normal((400_000, 30))).sum(1)
    lg = np.log(np.abs(1 - 0.6 + 0.6 * 0.9 * (70 - C) / 100))
    assert abs(signflip_log_multiplier_mean(0.9, 1, 100, 30, 10.0, beta=0.6) - lg.mean()) < 5 * lg.std() / math.sqrt(lg.size)


def test_elog_broadcasts():
    out = signflip_log_multiplier_mean(0.9, [1, 5], 100, [[10], [50]], 10.0)
    assert out.shape == (2, 2)
    assert out[1, 0] == pytest.approx(signflip_log_multiplier_mean(0.9, 1, 100, 50, 10.0))


def test_collapse_threshold_sign_by_monte_carlo():
    rho = contraction_factor(0.05, 1.0, 1.0)
    k = collapse_threshold(rho, 5, 100, 10.0)
    assert 20 < k < 50  # Table 7: collapse between 20% and 50%
    rng = as_generator(9)
    for N_a, sign in ((k, 1), (k - 2, -1)):
        C = 10.0 * np.abs(rng.standard_normal((400_000, N_a))).sum(1)
        lg = np.log(np.abs(rho ** 5 * (100 - N_a - C) / 100))
        assert sign * lg.mean() > 0


def test_norm_envelope_geometric_sum():
    A = np.full((12, 3), 2.0)
    B = norm_envelope(np.array([1.0, 0.0, 5.0]), 0.6, 0.5, A, 1.0, 4)
    t = np.arange(13)[:, None]
    c = (0.5 + 2.0) / 4
    assert np.allclose(B, 0.6 ** t * np.array([1.0, 0.0, 5.0]) + c * (1 - 0.6 ** t) / 0.4)
    assert stationary_norm_bound(0.6, 0.5, 1.0, 4, 1, 1.0, 4) == pytest.approx((0.5 + 2.0) / 4 / 0.4)


def test_lpproj1_loss_bound_holds_for_any_global_model():
    prob, _, _, w_hat = _data()
    rng = as_generator(2)
    bound = lpproj1_loss_bound(w_hat, prob.W, 0.3, prob.b, prob.sigma, prob.d_sub, 2)
    for scale in (0.1, 10.0, 1e8):
        w = scale * rng.standard_normal(prob.d_sub)
        x = personalised_models(w, w_hat, prob.P, 0.3, prob.b, 1)
        assert benign_losses(x, prob.W, prob.b, prob.sigma, 2) <= bound + 1e-12
    # tight: w far away in every projected coordinate, one client
    W1 = prob.W[:1]
    P1 = LinearFLProblem(W=W1 + 0.0, n=20, b=1.0, sigma=1.0, P=prob.P)
    wh = W1 + 0.0  # w_hat = w: the bound is sigma^2/2 + (b/2) d_sub lam^2/b^2
    assert lpproj1_loss_bound(wh, P1.W, 0.3, 1.0, 1.0, 3) == pytest.approx(0.5 + 0.5 * 3 * 0.09)


def test_fitted_growth_rates_exact_on_geometric_history():
    h = np.exp(0.7 * np.arange(11))[:, None, None] * np.ones((11, 4, 2))
    assert np.allclose(fitted_growth_rates(h, 3), 0.7)


def test_result_is_frozen_with_summary():
    prob, _, _, w_hat = _data()
    r = run_rounds(prob, 0.5, T=2, w_hat=w_hat)
    assert isinstance(r, RobustRunResult) and "RobustRunResult(p=2" in r.summary()
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.history = None
    with pytest.raises(ValueError, match="sign-flip run"):
        r.multipliers()
    assert r.history.shape == (3, 1, 3) and r.losses.shape == (3, 1)


# ----------------------------------------------------------------------------- bad input
def test_bad_inputs():
    prob, _, _, w_hat = _data()
    with pytest.raises(ValueError, match=r"`rho` must be in \(0, 1\]"):
        signflip_log_multiplier_mean(1.2, 1, 100, 10, 10.0)
    with pytest.raises(ValueError, match=r"`N_a` must be in \[0, N - 1\]"):
        signflip_multiplier_mean(0.9, 1, 10, 10, 1.0)
    with pytest.raises(ValueError, match=r"`tau` must be in \[0"):
        signflip_multiplier_mean(0.9, 1, 10, 2, -1.0)
    with pytest.raises(ValueError, match=r"`beta` must be in \(0, 1\]"):
        signflip_multiplier(1.0, 0.9, 1, 10, 2, beta=1.5)
    with pytest.raises(ValueError, match="`eta` must be in"):
        contraction_factor(0.0, 1.0)
    with pytest.raises(ValueError, match="`eta` must be finite"):
        contraction_factor(np.nan, 1.0)
    with pytest.raises(ValueError, match="`c_draw` must be one of"):
        run_rounds(prob, 0.5, c_draw="sometimes")
    with pytest.raises(ValueError, match="`N_a` must be in"):
        run_rounds(prob, 0.5, attack="sign-flip", N_a=10)
    with pytest.raises(ValueError, match="`lam` must be in"):
        run_rounds(prob, 0.0)
    with pytest.raises(ValueError, match=r"`w_hat` must have shape \(reps, N, d\)"):
        run_rounds(prob, 0.5, w_hat=w_hat[:, :2])
    with pytest.raises(ValueError, match="`w0` must have shape"):
        run_rounds(prob, 0.5, w_hat=w_hat, w0=np.ones(5))
    bad = LinearFLProblem(W=prob.W, n=prob.n, b=prob.b, sigma=prob.sigma, P=2 * prob.P)
    with pytest.raises(ValueError, match="orthonormal rows"):
        run_rounds(bad, 0.5)
    with pytest.raises(ValueError, match="overflowed float64"):
        run_rounds(make_problem(N=10, d=4, d_sub=2, mu_w=1.0), 1.0, T=400, R=1, eta=0.01, attack="sign-flip", N_a=8,
                   tau=10.0)
    with pytest.raises(ValueError, match=r"`q` must be in \[0, 1\)"):
        stationary_norm_bound(1.0, 0.0, 1.0, 1, 1, 1.0, 10)
    with pytest.raises(ValueError, match=r"`t0` must be in"):
        fitted_growth_rates(np.ones((3, 2)), 2)
    with pytest.raises(ValueError, match="`p` must be one of"):
        personalised_models(np.zeros(3), w_hat, prob.P, 0.5, 1.0, p=3)


@pytest.fixture(scope="module")
def rprob():
    return make_problem(N=4, d=3, d_sub=2, n=20, seed=0)


def test_robust_closed_forms_validation_names():
    with pytest.raises(ValueError, match="`b`"):
        RB.contraction_factor(0.1, 1.0, 0.0)
    with pytest.raises(ValueError, match="`N`"):
        RB.signflip_multiplier(0.0, 0.5, 1, 1, 0)
    with pytest.raises(ValueError, match="`C`"):
        RB.signflip_multiplier(-1.0, 0.5, 1, 4, 1)
    with pytest.raises(ValueError, match="`R`"):
        RB.signflip_multiplier_mean(0.5, 0, 4, 1, 1.0)
    with pytest.raises(ValueError, match="`beta`"):
        RB.signflip_multiplier_mean(0.5, 1, 4, 1, 1.0, beta=1.5)
    with pytest.raises(ValueError, match="`drift`"):
        RB.norm_envelope(1.0, 0.5, -1.0, np.ones(3), 1.0, 4)
    with pytest.raises(ValueError, match="`N_a`"):
        RB.stationary_norm_bound(0.5, 0.0, 1.0, -1, 2, 1.0, 4)
    W = np.zeros((4, 3))
    with pytest.raises(ValueError, match="`lam`"):
        RB.lpproj1_loss_bound(W, W, -1.0, 1.0, 1.0, 2)
    with pytest.raises(ValueError, match="`b`"):
        RB.lpproj1_loss_bound(W, W, 1.0, 0.0, 1.0, 2)
    with pytest.raises(ValueError, match="`N_a`"):
        RB.lpproj1_loss_bound(W, W, 1.0, 1.0, 1.0, 2, N_a=5)


def test_lpproj1_loss_bound_brute_force_with_N_not_d():
    rng = np.random.default_rng(2)
    W = rng.standard_normal((4, 3))
    w_hat = W + rng.standard_normal((4, 3))
    lam, b, sigma, ds = 0.7, 2.0, 1.1, 2
    for N_a in (1, 3):  # N_a = 3 < N = 4 is allowed even though d = 3
        ref = sigma ** 2 / 2 + b / 2 * np.mean([(np.linalg.norm(w_hat[k] - W[k]) + math.sqrt(ds) * lam / b) ** 2
                                                for k in range(4 - N_a)])
        assert RB.lpproj1_loss_bound(w_hat, W, lam, b, sigma, ds, N_a=N_a) == pytest.approx(ref, rel=1e-12)


def test_norm_envelope_loop_broadcasting_and_overflow_message():
    an = np.array([0.5, 1.0, 0.25])
    q = np.array([0.5, 0.9])
    out = RB.norm_envelope(1.0, q, 0.2, an, 0.8, 1)  # N = 1 is allowed
    for j, qq in enumerate(q):
        B = 1.0
        for t in range(3):
            B = qq * B + 0.8 * (0.2 + an[t]) / 1
            assert out[t + 1, j] == pytest.approx(B, rel=1e-12)
    with np.errstate(all="ignore"), pytest.raises(ValueError, match="the norm envelope overflows"):
        RB.norm_envelope(1.0, 2.0, 0.0, np.full(3, 1e308), 1.0, 1)


def test_personalised_models_messages_and_grid_of_global_models():
    P = np.eye(3)[:2]
    w_hat = np.arange(12.0).reshape(4, 3) / 10
    with pytest.raises(ValueError, match="`w_hat` must have shape"):
        RB.personalised_models(np.zeros(2), np.zeros(3), P, 1.0, 1.0)
    with pytest.raises(ValueError, match="d_sub=2"):
        RB.personalised_models(np.zeros(3), w_hat, P, 1.0, 1.0)
    with pytest.raises(ValueError, match="`b`"):
        RB.personalised_models(np.zeros(2), w_hat, P, 1.0, 0.0)
    with np.errstate(all="ignore"), pytest.raises(ValueError, match="`w_hat`"):
        RB.personalised_models(np.array([-1.5e308, 0]), np.array([[1.5e308, 0.0, 0.0]] * 2), P, 1.0, 1.0)
    # a (5, 3) grid of global models against one (N, d) set of estimates: one call per grid point as referee
    w = np.random.default_rng(1).standard_normal((5, 3, 2))
    out = RB.personalised_models(w, w_hat, P, 0.6, 1.5)
    assert out.shape == (5, 3, 4, 3)
    for i in range(5):
        for j in range(3):
            np.testing.assert_allclose(out[i, j], RB.personalised_models(w[i, j], w_hat, P, 0.6, 1.5), rtol=1e-13)
    # rows at inner product 2e-9: not orthonormal at the absolute tolerance 1e-10 (off-diagonal entries)
    with pytest.raises(ValueError, match="orthonormal rows"):
        RB.personalised_models(np.zeros(2), w_hat, np.array([[1.0, 0, 0], [2e-9, 1.0, 0]]), 1.0, 1.0)


def test_run_rounds_validation_defaults_and_params(rprob):
    for kw, msg in ((dict(R=0), "`R`"), (dict(eta=0.0), "`eta`")):
        with pytest.raises(ValueError, match=msg):
            RB.run_rounds(rprob, 1.0, T=2, **kw)
    with pytest.raises(ValueError, match=r"Algorithm 1 \(T rounds of R local steps\).*`R`=10000"):
        RB.run_rounds(rprob, 1.0, T=10 ** 5, R=10 ** 4)
    with pytest.raises(ValueError, match="`reps`=1000000000"):
        RB.run_rounds(rprob, 1.0, T=2, reps=10 ** 9)
    r = RB.run_rounds(rprob, 0.5, T=3, seed=4)
    assert r.params["T"] == 3 and r.params["R"] == 5
    np.testing.assert_array_equal(r.history, RB.run_rounds(rprob, 0.5, T=3, R=5, seed=4).history)


def test_run_rounds_p1_dead_zone_stays_put(rprob):
    # p = 1 with lam/b larger than every |w0 - P w_hat_k|: the inner solution has w = P x (soft-thresholding
    # to 0), the subgradient sign is 0 and no local step moves; without attack the global model stays at w0
    w_hat = np.full((4, 3), 0.1)
    r = RB.run_rounds(rprob, 50.0, p=1, T=4, R=3, eta=0.1, w_hat=w_hat, w0=np.array([0.2, -0.3]))
    np.testing.assert_array_equal(r.history, np.broadcast_to([0.2, -0.3], r.history.shape))


def test_robust_quadrature_domain_and_messages():
    with pytest.raises(ValueError, match="`tau` must be 0 or in"):
        RB.log_abs_shifted_halfnormal_sum(1.0, 1e13, 2)  # too large alone (not also too small)
    with pytest.raises(ValueError, match=r"\|a\| must be <= 1000 tau"):
        RB.log_abs_shifted_halfnormal_sum(5000.0, 1.0, 2)
    with pytest.raises(ValueError, match=r"\(`a`, `tau`, `n`\)$"):
        RB.log_abs_shifted_halfnormal_sum(1e-310, 1.0, 1)
    with pytest.raises(ValueError, match="`beta`"):
        RB.collapse_threshold(1.0, 1, 6, 2.0, beta=2.0)
    with pytest.raises(ValueError, match="`d_sub`"):
        RB.lpproj1_loss_bound(np.zeros((4, 3)), np.zeros((4, 3)), 1.0, 1.0, 1.0, 0)
    with pytest.raises(ValueError, match="`attack_norms` must have shape"):
        RB.norm_envelope(1.0, 0.5, 0.0, 3.0, 1.0, 4)
    with pytest.raises(ValueError, match="`beta`"):
        RB.norm_envelope(1.0, 0.5, 0.0, np.ones(2), 0.0, 4)
    with np.errstate(all="ignore"), pytest.raises(ValueError, match="`attack_norms`, `q`"):
        RB.norm_envelope(1.0, 2.0, 0.0, np.full(3, 1e308), 1.0, 1)
    for kw, name in ((dict(N_a=1.5), "`N_a`"), (dict(d_sub=1.5), "`d_sub`"), (dict(beta=0.0), "`beta`"),
                     (dict(N=0), "`N`")):
        args = dict(q=0.5, drift=0.0, tau=1.0, N_a=1, d_sub=1, beta=1.0, N=4)
        args.update(kw)
        with pytest.raises(ValueError, match=name):
            RB.stationary_norm_bound(**args)
    with np.errstate(all="ignore"), pytest.raises(ValueError, match="`q`, `drift`, `tau`"):
        RB.stationary_norm_bound(0.5, 1e308, 1.0, 1, 1, 1.0, 1)
    with pytest.raises(ValueError, match=r"`P` must have shape \(any, any\)"):
        RB.personalised_models(np.zeros(2), np.zeros((4, 3)), np.ones(3), 1.0, 1.0)
    with pytest.raises(ValueError, match="`w`"):
        RB.personalised_models(np.full(2, np.nan), np.zeros((4, 3)), np.eye(3)[:2], 1.0, 1.0)


def test_collapse_threshold_uses_beta():
    # referee: the first N_a whose growth rate (evaluated one at a time) is > 0
    for beta in (0.3, 1.0):
        rates = [RB.signflip_log_multiplier_mean(1.0, 1, 6, k, 2.0, beta) for k in range(1, 6)]
        ref = next((k for k, r in zip(range(1, 6), rates) if r > 0), 6)
        assert RB.collapse_threshold(1.0, 1, 6, 2.0, beta) == ref
    assert RB.collapse_threshold(1.0, 1, 6, 2.0, 0.3) == 6 and RB.collapse_threshold(1.0, 1, 6, 2.0, 1.0) == 5


def test_run_rounds_validation_benign_clients_and_initial_loss(rprob):
    for kw, msg in ((dict(T=0), "`T`"), (dict(beta=1.5), "`beta`"), (dict(w_hat=np.full((4, 3), np.nan)), "`w_hat`")):
        with pytest.raises(ValueError, match=msg):
            RB.run_rounds(rprob, 1.0, **kw)
    # without an attack N_a is ignored: every client is benign
    a = RB.run_rounds(rprob, 0.5, T=3, seed=1, N_a=2)
    b = RB.run_rounds(rprob, 0.5, T=3, seed=1)
    np.testing.assert_array_equal(a.losses, b.losses)
    assert a.params["N_a"] == 0 and a.params["d_sub"] == 2
    # the loss at w_0 from the exact personalised models (an independent function) and eq. (35)
    w_hat = np.random.default_rng(3).standard_normal((4, 3))
    r = RB.run_rounds(rprob, 0.5, T=1, w_hat=w_hat)
    x = RB.personalised_models(np.zeros(2), w_hat, rprob.P, 0.5, rprob.b)
    ref = rprob.sigma ** 2 / 2 + rprob.b / 2 * np.mean(np.sum((x - rprob.W) ** 2, -1))
    assert r.losses[0, 0] == pytest.approx(ref, rel=1e-12)


def test_robust_offending_entries_replicates_and_envelope_guards(rprob):
    with pytest.raises(ValueError, match="got a=5000.0"):
        RB.log_abs_shifted_halfnormal_sum([1.0, 5000.0], 1.0, 2)  # the offending entry, not the first
    W = np.zeros((4, 3))
    with pytest.raises(ValueError, match="`w_hat`"):
        RB.lpproj1_loss_bound(np.full((4, 3), np.nan), W, 1.0, 1.0, 1.0, 2)
    with pytest.raises(ValueError, match=r"= \(\.\.\., 4, 3\)"):
        RB.lpproj1_loss_bound(np.zeros((3, 3)), W, 1.0, 1.0, 1.0, 2)
    w_hat = np.stack([np.zeros((4, 3)), np.ones((4, 3))])  # two replicates: one bound each
    out = RB.lpproj1_loss_bound(w_hat, W, 0.0, 2.0, 1.0, 2)
    np.testing.assert_allclose(out, [0.5, 0.5 + 1.0 * 3], rtol=1e-12)  # sigma^2/2 + (b/2) ||(1,1,1)||^2
    with pytest.raises(ValueError, match="`attack_norms`"):
        RB.norm_envelope(1.0, 0.5, 0.0, -np.ones(2), 1.0, 4)
    with pytest.raises(ValueError, match="`q`"):
        RB.norm_envelope(1.0, -0.5, 0.0, np.ones(2), 1.0, 4)
    assert RB.stationary_norm_bound(0.5, 0.5, 1.0, 0, 2, 1.0, 4) == pytest.approx(0.25, rel=1e-14)  # N_a = 0
    with pytest.raises(ValueError, match="`beta`"):
        RB.stationary_norm_bound(0.5, 0.5, 1.0, 1, 2, 1.5, 4)
    with np.errstate(all="ignore"), pytest.raises(ValueError, match="`q`, `drift`, `tau`, `N_a`, `d_sub`"):
        RB.stationary_norm_bound(0.5, 1e308, 1.0, 1, 1, 1.0, 1)
    with pytest.raises(TypeError, match="`problem`"):
        RB.run_rounds("problem", 1.0)
    with pytest.raises(ValueError, match="`N_a`"):
        RB.run_rounds(rprob, 1.0, T=2, attack="gaussian", N_a=-1, tau=1.0)
    # ||A_t|| per replicate: independent Gaussian attacks give different norms in different replicates
    r = RB.run_rounds(rprob, 1.0, T=2, attack="gaussian", N_a=2, tau=1.0, reps=3, seed=1)
    assert np.ptp(r.attack_norm[0]) > 1e-6


@pytest.mark.parametrize("lam,eta,R,T", [(0.8, 0.1, 5, 6), (2.0, 0.05, 3, 8)])
def test_lpproj1_inside_the_dead_zone_matches_the_exact_run(lam, eta, R, T, monkeypatch):
    prob, Xi, y, w_hat = _data(mu_w=0.0)
    r1 = run_algorithm1(prob, lam, p=1, T=T, R=R, eta=eta, data=(Xi, y), seed=11, nu=1e-22)
    r2 = run_rounds(prob, lam, p=1, T=T, R=R, eta=eta, w_hat=w_hat, seed=11)
    ref = r2.history[:, 0]
    assert np.max(np.abs(r1.history - ref)) < 1e-9
    # power: the dead zone is really visited, since the sign of the residual w - P x (the old step) drifts away
    from fedtheory.lpproj import algorithms as A

    split = A._admm_l1_split

    def residual_sign(G, h, P, w, lam_, rho, nu, max_iter):
        x, _, it = split(G, h, P, w, lam_, rho, nu, max_iter)
        return x, w - x @ P.T, it

    monkeypatch.setattr(A, "_admm_l1_split", residual_sign)
    old = run_algorithm1(prob, lam, p=1, T=T, R=R, eta=eta, data=(Xi, y), seed=11, nu=1e-22)
    assert np.max(np.abs(old.history - ref)) > 1e-3
