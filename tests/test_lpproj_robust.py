"""multi-round robustness of Algorithm 1 (fedtheory.lpproj.robust and the claims
lpproj.robust.*). Each referee is an independent computation: run_algorithm1 (full linear solves / ADMM),
Monte Carlo, scipy quadrature of the half-normal density, or a geometric sum."""
import dataclasses
import math

import numpy as np
import pytest
from scipy import integrate, stats

from fedtheory import get_claim
from fedtheory.lpproj import LinearFLProblem, admm_l1_inner, benign_losses, make_problem, run_algorithm1
from fedtheory.lpproj.robust import (RobustRunResult, collapse_threshold, contraction_factor, fitted_growth_rates,
                                     log_abs_shifted_halfnormal_sum, lpproj1_loss_bound, norm_envelope,
                                     personalised_models, run_rounds, signflip_log_multiplier_mean,
                                     signflip_multiplier, signflip_multiplier_mean, stationary_norm_bound)
from fedtheory.random import as_generator

M = "fedtheory_checks.lpproj.robust_rounds"


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


# ----------------------------------------------------------------------------- every claim can fail
def _wrap(monkeypatch, target, make):
    mod, _, name = target.rpartition(".")
    import importlib

    monkeypatch.setattr(target, make(getattr(importlib.import_module(mod), name)))


def _one_extra_local_step(mp):
    # the run takes R + 1 local steps while the multiplier formula uses rho^R
    def make(orig):
        def bad(*a, **k):
            res = orig(*a, **{**k, "R": k["R"] + 1})
            return dataclasses.replace(res, params={**res.params, "R": k["R"]})
        return bad
    _wrap(mp, f"{M}.run_rounds", make)


def _rate_without_contraction(mp):
    # the criterion forgets the local contraction rho^R
    _wrap(mp, f"{M}.signflip_log_multiplier_mean",
          lambda orig: (lambda rho, R, N, N_a, tau, beta=1.0: orig(1.0, R, N, N_a, tau, beta)))


def _clip_bound_without_sqrt_dsub(mp):
    _wrap(mp, f"{M}.lpproj1_loss_bound",
          lambda orig: (lambda w_hat, W, lam, b, sigma, d_sub, N_a=0: orig(w_hat, W, lam, b, sigma, 1, N_a)))


def _envelope_without_drift(mp):
    _wrap(mp, f"{M}.norm_envelope",
          lambda orig: (lambda w0, q, drift, A, beta, N: orig(w0, q, 0.0 * np.asarray(drift), A, beta, N)))


def _lpproj1_runs_with_p2(mp):
    _wrap(mp, f"{M}.run_rounds", lambda orig: (lambda *a, **k: orig(*a, **{**k, "p": 2})))


FAILS_PATHS_ROBUST = {
    "lpproj.robust.multiplier-identity": _one_extra_local_step,
    "lpproj.robust.signflip-collapse": _rate_without_contraction,
    "lpproj.robust.lpproj1-bounded": _clip_bound_without_sqrt_dsub,
    "lpproj.robust.other-attacks-bounded": _envelope_without_drift,
    "lpproj.robust.table7-linear": _lpproj1_runs_with_p2,
}


def test_every_robust_claim_has_a_fails_path():
    from fedtheory import get_paper

    ids = {c.id for c in get_paper("lpproj").claims() if c.id.startswith("lpproj.robust.")}
    assert ids == set(FAILS_PATHS_ROBUST)


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS_ROBUST))
def test_robust_claim_can_fail(claim_id, monkeypatch, serial_uncached):
    FAILS_PATHS_ROBUST[claim_id](monkeypatch)
    v = get_claim(claim_id).evaluate(full=False)
    assert v.status == "refuted", v.summary()


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS_ROBUST))
def test_robust_claim_holds_unpatched(claim_id, serial_uncached):
    v = get_claim(claim_id).evaluate(full=False)
    assert v.status == "holds", v.summary()
