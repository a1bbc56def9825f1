"""Tests written for the surviving mutants of lp-proj modules (mutation testing with
``.ci/mutation.sh``; triage in ``.ci/mutation-triage.md``).

Each test checks behaviour against an independent referee (hand evaluation with Python floats or
fractions, brute-force loops, finite differences, a second run with other arguments), or the parameter
name (in backticks) of a validation message. Must run in well under 60 s."""
import math
from fractions import Fraction

import numpy as np
import pytest

from fedtheory.lpproj.stochastic import (LeastSquaresClients, make_least_squares_clients, run_algorithm1_sgd,
                                          theorem9_eta_hat)


# ============================================================================= stochastic.py
@pytest.fixture(scope="module")
def cl():
    return make_least_squares_clients(5, 12, 4, 2, ridge=0.5, heterogeneity=1.0, seed=3)


def test_stochastic_validation_names_the_parameter(cl):
    with pytest.raises(ValueError, match="`L_F`"):
        theorem9_eta_hat(0.0, 1.0, 1.0)
    with pytest.raises(ValueError, match="`n`"):
        make_least_squares_clients(2, 0, 3, 2)
    with pytest.raises(ValueError, match="`feature_scale`"):
        make_least_squares_clients(2, 5, 3, 2, feature_scale=0.0)
    with pytest.raises(ValueError, match="`mu`"):
        cl.prop3_constants(1.0, mu=-1.0)
    with pytest.raises(ValueError, match="`replicates`"):
        run_algorithm1_sgd(cl, 1.0, T=1, R=1, eta=0.1, replicates=0)
    with pytest.raises(ValueError, match="`w0`"):
        run_algorithm1_sgd(cl, 1.0, T=1, R=1, eta=0.1, w0=np.zeros(3))
    with pytest.raises(ValueError, match="`P` must have full row rank"):
        LeastSquaresClients(Xi=cl.Xi, y=cl.y, P=np.ones((2, 4)), ridge=0.5)


def test_stochastic_size_guards_name_their_sizes(cl):
    # the mini-batch guard names n (make) and batch (run); the record guard counts T R (not T/R) rounds
    with pytest.raises(ValueError, match="`n`=10000000000"):
        make_least_squares_clients(2, 10 ** 10, 3, 2)
    with pytest.raises(ValueError, match="`batch`=3"):
        run_algorithm1_sgd(cl, 1.0, T=1, R=1, eta=0.1, batch=3, replicates=10 ** 8)
    with pytest.raises(ValueError, match="recorded gradients"):
        run_algorithm1_sgd(cl, 1.0, T=5000, R=5000, eta=0.1, record=True)


def test_a6_flag_is_stored_as_bool():
    rng = np.random.default_rng(0)
    P = np.eye(4)[:2]
    Xi = rng.standard_normal((2, 6, 2)) @ P
    c = LeastSquaresClients(Xi=Xi, y=rng.standard_normal((2, 6)), P=P, ridge=0.2, a6=1)
    assert c.a6 is True


def test_grad_F_is_the_finite_difference_gradient_of_F(cl):
    lam, e = 1.3, 1e-6
    w = np.array([0.4, -0.9])
    fd = np.array([(cl.F(w + e * u, lam) - cl.F(w - e * u, lam)) / (2 * e) for u in np.eye(2)])
    np.testing.assert_allclose(cl.grad_F(w, lam), fd, atol=1e-7)


def test_delta1_sq_by_hand():
    # orthonormal-row P: s = 0, so delta_1^2 = 2/mu^2 (gamma_f^2/batch + nu) (Lemma 4)
    c = make_least_squares_clients(3, 10, 4, 2, ridge=0.5, orthonormal_P=True, seed=1)
    assert c.s == pytest.approx(0.0, abs=1e-12)
    assert c.delta1_sq(3.0, batch=4, nu=0.25, mu=0.8) == pytest.approx(2 / 0.64 * (0.75 + 0.25), rel=1e-12)
    assert c.delta1_sq(3.0, batch=4, nu=0.25) == pytest.approx(2 / 0.25 * (0.75 + 0.25), rel=1e-12)  # mu = ridge
    flat = make_least_squares_clients(3, 10, 4, 2, ridge=0.0, orthonormal_P=True, seed=1)
    with pytest.raises(ValueError, match="`mu` must be > 0"):
        flat.delta1_sq(1.0)


def test_alpha_weights_and_w_bar_by_hand(cl):
    lam, eta, beta, R, T = 1.0, 0.05, 1.5, 2, 6
    r = run_algorithm1_sgd(cl, lam, T=T, R=R, beta=beta, eta=eta, replicates=2)
    mu_F = 0.3
    q = 1 - eta * beta * R * mu_F / 2
    raw = [q ** -(t + 1) for t in range(T)]
    ref = [v / sum(raw) for v in raw]
    np.testing.assert_allclose(r.alpha_weights(mu_F), ref, rtol=1e-12)
    raw4 = raw[:4]
    np.testing.assert_allclose(r.alpha_weights(mu_F, 4), [v / sum(raw4) for v in raw4], rtol=1e-12)
    wb = sum(a * r.history[:, t] for t, a in enumerate(ref))
    np.testing.assert_allclose(r.w_bar(mu_F), wb, rtol=1e-12)
    with pytest.raises(ValueError, match="`T`"):
        r.alpha_weights(mu_F, T + 1)
    with pytest.raises(ValueError, match="outside"):
        r.alpha_weights(1e6)
    s = run_algorithm1_sgd(cl, lam, T=2, R=1, eta=0.1, nu=1e-6, batch=5).summary()
    assert "nu=1e-06" in s and "batch=5" in s and "T=2" in s


def test_run_params_default_seed_and_minibatch_noise(cl):
    kw = dict(T=3, R=2, eta=0.2, batch=3, replicates=4)
    r = run_algorithm1_sgd(cl, 1.0, **kw)
    assert r.params["replicates"] == 4 and r.params["batch"] == 3
    np.testing.assert_array_equal(r.history, run_algorithm1_sgd(cl, 1.0, seed=0, **kw).history)  # default seed 0
    # every local step draws its own mini-batch: replicates (same data, S = N) spread; full batches do not
    assert np.ptp(r.history[:, 1], axis=0).max() > 1e-3
    full = run_algorithm1_sgd(cl, 1.0, T=3, R=2, eta=0.2, replicates=4)
    assert np.ptp(full.history[:, 1], axis=0).max() == 0
    # R = 2 local steps of a round with batches: the first step's batch already matters
    one = run_algorithm1_sgd(cl, 1.0, T=1, R=1, eta=0.2, batch=3, replicates=4)
    assert np.ptp(one.history[:, 1], axis=0).max() > 1e-3



def test_stochastic_more_parameter_names_and_reasons(cl):
    w = np.zeros((cl.N, cl.d_sub))
    with pytest.raises(ValueError, match="`w`"):
        cl.grad_F_k_at(np.full_like(w, np.nan), 1.0)
    with pytest.raises(ValueError, match=r"`w` must have shape \(\.\.\., N, d_sub\)"):
        cl.grad_F_k_at(np.zeros(2), 1.0)
    with pytest.raises(ValueError, match=r"`lam` must be in \(0"):
        cl.F_k(np.zeros(2), 0.0)
    with pytest.raises(ValueError, match="`batch`"):
        cl.delta1_sq(1.0, batch=0)
    with pytest.raises(ValueError, match="`noise`"):
        make_least_squares_clients(2, 5, 3, 2, noise=-1.0)
    with pytest.raises(ValueError, match="`d`=3"):
        make_least_squares_clients(2, 10 ** 10, 3, 2)
    with np.errstate(all="ignore"), pytest.raises(ValueError, match=r"`feature_scale`=1\.0, `ridge`=0\.5"):
        make_least_squares_clients(3, 10, 4, 2, noise=1e170)
    from fedtheory.lpproj.stochastic import regime_checks

    kw = dict(T=2, R=1, beta=1.0, eta_max=0.1)
    with pytest.raises(ValueError, match=r"`lam` must be in \(0"):
        regime_checks(cl, 0.0, None, **kw)
    with pytest.raises(ValueError, match="`R`"):
        regime_checks(cl, 1.0, None, **{**kw, "R": 0})
    with pytest.raises(ValueError, match="`eta_max`.*largest local step size"):
        regime_checks(cl, 1.0, None, **{**kw, "eta_max": 0.0})
    with pytest.raises(ValueError, match="local step size must be positive"):
        run_algorithm1_sgd(cl, 1.0, T=2, R=1, eta=[0.1, 0.0])
    with pytest.raises(ValueError, match="`R`=5000"):
        run_algorithm1_sgd(cl, 1.0, T=5000, R=5000, eta=0.1, record=True)
    with pytest.raises(TypeError, match="`on_local_step`"):
        run_algorithm1_sgd(cl, 1.0, T=1, R=1, eta=0.1, on_local_step=3)


def test_theorem9_T_boundary_and_float_return(cl):
    from fedtheory.lpproj.stochastic import regime_checks

    assert isinstance(theorem9_eta_hat(1.0, 0.5, 2.0), float)
    assert theorem9_eta_hat(1.0, 0.5, 2.0) == pytest.approx(1 / (18 * (1 + 10 * 2.0 / 2.0)), rel=1e-14)
    assert np.shape(theorem9_eta_hat([1.0, 2.0], 0.5, 2.0)) == (2,)
    # eta beta R T exactly 2/mu_F (up to rounding) is inside Theorem 9's range
    lam, beta, R = 1.0, 2.0, 2
    mu_F, L_F = cl.prop3_constants(lam)
    T = math.ceil(2 / (theorem9_eta_hat(L_F, mu_F, beta) * mu_F)) + 3
    eta = 2 / (mu_F * beta * R * T)
    regime_checks(cl, lam, "theorem9", T=T, R=R, beta=beta, eta_max=eta)
    with pytest.raises(ValueError, match="`T`"):
        regime_checks(cl, lam, "theorem9", T=T, R=R, beta=beta, eta_max=eta * (1 - 1e-9))


def test_alpha_weights_reject_q_rounding_to_one(cl):
    r = run_algorithm1_sgd(cl, 1.0, T=3, R=1, eta=0.1)
    with pytest.raises(ValueError, match="outside"):
        r.alpha_weights(1e-300)  # 1 - eta beta R mu_F/2 rounds to 1.0


def test_run_record_callback_and_inexact_inner_solution(cl):
    lam = 1.0
    r = run_algorithm1_sgd(cl, lam, T=2, R=3, eta=0.2)
    assert r.record is None
    seen = []
    rec = run_algorithm1_sgd(cl, lam, T=2, R=3, eta=0.2, record=True, replicates=2,
                             on_local_step=lambda t, k, w, g: seen.append((t, k, w.shape, g.shape)))
    assert seen == [(t, k, (2, cl.N, cl.d_sub), (2, cl.N, cl.d_sub)) for t in range(2) for k in range(3)]
    # drift_sq is ||w_{k,r} - w_t||^2, from the recorded local iterates and the history
    ref = np.sum((rec.record["w_local"] - rec.history[:, :2, None, None, :]) ** 2, -1)
    np.testing.assert_allclose(rec.record["drift_sq"], ref, rtol=1e-12, atol=1e-15)
    # the gradient-descent inner solver on the full batch reaches the exact solution's run
    gd = run_algorithm1_sgd(cl, lam, T=3, R=2, eta=0.2, nu=1e-20)
    ex = run_algorithm1_sgd(cl, lam, T=3, R=2, eta=0.2)
    np.testing.assert_allclose(gd.history, ex.history, atol=1e-8)
    # and on a mini-batch of all n samples it equals the exact solve (same objective, other code path)
    mb = run_algorithm1_sgd(cl, lam, T=3, R=2, eta=0.2, batch=cl.n - 1, nu=None, seed=5)
    mb_gd = run_algorithm1_sgd(cl, lam, T=3, R=2, eta=0.2, batch=cl.n - 1, nu=1e-20, seed=5)
    np.testing.assert_allclose(mb.history, mb_gd.history, atol=1e-8)


# ============================================================================= schedules.py
from fedtheory.lpproj import schedules as SCH  # noqa: E402


def test_schedules_validation_names_and_reasons():
    kw14 = dict(mu_F=0.5, L_F=2.0, beta=2.0, R=3, D=1.0)
    with pytest.raises(ValueError, match="`R`"):
        SCH.theorem14_schedule(5, **{**kw14, "R": 0})
    with pytest.raises(ValueError, match="Proposition 3"):
        SCH.theorem14_schedule(5, **{**kw14, "mu_F": 0.0})
    with pytest.raises(ValueError, match="smoothness of the F_k"):
        SCH.theorem14_schedule(5, **{**kw14, "L_F": 0.25})
    with pytest.raises(ValueError, match="`beta`"):
        SCH.theorem14_zeta(2.0, 0.5)
    with pytest.raises(ValueError, match="assume beta >= 1"):
        SCH.check_schedule_regime("theorem15", [0.01], beta=0.5, L_F=1.0, no_sampling=True)
    with pytest.raises(ValueError, match="`lam`"):
        SCH.recursion32_constants(lam=0.0, mu=1.0, mu_F=0.5, s=0.0, gamma_f_sq=1.0, sigma_F1_sq=1.0, N=4, S=2, D=1.0)
    c = SCH.recursion32_constants(lam=1.0, mu=1.0, mu_F=0.5, s=0.0, gamma_f_sq=1.0, sigma_F1_sq=1.0, N=4, S=2, D=1.0)
    with pytest.raises(ValueError, match="`eta_tilde`"):
        SCH.recursion32_rhs(1.0, 0.0, c, beta=1.0)
    with pytest.raises(ValueError, match="assume beta >= 1"):
        SCH.recursion32_rhs(1.0, 0.1, c, beta=0.5)
    with pytest.raises(ValueError, match="`T`"):
        SCH.a5_sums(0, zeta=10)
    with pytest.raises(ValueError, match="`T`"):
        SCH.theorem28_first_term(0, lam=1.0)


def test_schedule_params_and_summary():
    s = SCH.theorem14_schedule(5, mu_F=0.5, L_F=2.0, beta=2.0, R=3, D=1.0, no_sampling=True, n=7)
    assert s.params["mu_F"] == 0.5 and s.params["L_F"] == 2.0 and s.params["kappa_F"] == 4.0 and s.params["n"] == 7
    assert "(S = N)" in s.summary()
    t = SCH.theorem15_schedule(4, lam=5.0, beta=1.0, R=2, D=1.0, L=1.0)
    assert t.params["L_F"] == 5.0 and t.params["L"] == 1.0


def test_check_schedule_regime_theorem15_caps():
    # S = N: the cap is beta/(5 L_F) = 0.1 (L_F = 2, beta = 1); round 1 exceeds it
    with pytest.raises(ValueError, match=r"eta~_1 .*beta/\(5 L_F\)"):
        SCH.check_schedule_regime("theorem15", [0.05, 0.2], beta=1.0, L_F=2.0, no_sampling=True)
    # S < N, lam = 0.3, L_F = 1: 1/(90 lam^2 L_F) = 0.1235 < beta/(5 L_F) = 0.2, so the cap is 0.1235
    with pytest.raises(ValueError, match=r"1/\(90 lam\^2 L_F\)"):
        SCH.check_schedule_regime("theorem15", [0.15], beta=1.0, L_F=1.0, lam=0.3)
    SCH.check_schedule_regime("theorem15", [0.12], beta=1.0, L_F=1.0, lam=0.3)


def test_recursion32_constants_hand_values():
    c = SCH.recursion32_constants(lam=2.0, mu=0.5, mu_F=0.25, L_F=3.0, s=0.1, gamma_f_sq=2.0, sigma_F1_sq=1.5,
                                  N=10, S=4, D=3.0)
    # hand evaluation: 1 + D g/8 = 1.75, (1+s)^2 = 1.21, kappa = 12
    assert c.C0 == pytest.approx(2 * 1.21 / 0.25 * 1.75, rel=1e-12)     # 16.94
    assert c.C1 == pytest.approx(10 * 4 / 0.25, rel=1e-12)              # 160
    assert c.C3 == pytest.approx(280 * 12 * 3 * 1.5, rel=1e-12)         # 15120
    assert c.C0 == pytest.approx(16.94, rel=1e-12) and c.C3 == pytest.approx(15120.0, rel=1e-12)
    assert c.params["gamma_f_sq"] == 2.0


def test_a5_sums_printed_and_corrected_bounds_by_hand():
    a = SCH.a5_sums(1, zeta=10, mu_F=1)
    # T = 1: zeta + T - j = 10, 9, 8, 7
    assert a.printed[2] == pytest.approx(256 / 5040, rel=1e-12)
    assert a.corrected == pytest.approx((64 / 30, 256 / 90, 4096 / 5040), rel=1e-12)
    # the corrected constants are 4, 8 and 16 times the printed ones
    b = SCH.a5_sums(7, zeta=Fraction(21, 2), mu_F=Fraction(1, 2))
    assert [c / p for c, p in zip(b.corrected, b.printed)] == pytest.approx([4, 8, 16], rel=1e-12)
    assert "eta~^2" in b.summary() and "corrected" in b.summary()


def test_theorem28_sums_bounds_and_corrected_by_hand():
    T, lam = 8, 1.0
    c = 90.0
    r = SCH.theorem28_sums(T, lam=lam)
    assert set(r.bounds) == {1, 2, 3, 4}
    assert r.bounds[2] == pytest.approx((math.log(8) + 1) / c ** 2, rel=1e-12)
    s = SCH.theorem28_sums(T, lam=lam, no_sampling=True)
    brute5 = sum(i ** (-5 / 3) for i in range(1, T + 1))  # a plain loop
    assert s.sums[5] == pytest.approx(brute5 / c ** 5, rel=1e-12)
    # T = 8: 1 + 1.5 (1 - 8^(-2/3)) = 2.125; it bounds the sum and stays below 5/2
    assert s.corrected[5] == pytest.approx(2.125 / c ** 5, rel=1e-12)
    assert s.sums[5] <= s.corrected[5] < 2.5 / c ** 5
    assert "sum eta~^5 = 2.98668e-10" in s.summary()


def test_theorem28_first_term_by_hand():
    chain, bound = SCH.theorem28_first_term(3, lam=2.0, Delta_F=1.5)
    c = 90 * 4 * 2.0
    assert bound == pytest.approx(180 * 4 * 2.0 * 1.5 / 1.0, rel=1e-12)  # sqrt(T + 1) - 1 = 1
    assert chain == pytest.approx(4 * 1.5 * c / (1 + 2 ** -0.5 + 3 ** -0.5), rel=1e-12)
    assert SCH.theorem28_first_term(8, lam=2.0, Delta_F=1.5)[1] == pytest.approx(2160.0 / 2, rel=1e-12)  # sqrt(9) - 1
    with pytest.raises(ValueError, match="`T`=10000000000"):
        SCH.theorem28_first_term(10 ** 10, lam=1.0)


def test_schedules_round2_names_edges_and_hand_values():
    kw14 = dict(mu_F=0.5, L_F=2.0, beta=2.0, R=3, D=1.0)
    with pytest.raises(ValueError, match="`T`=10000000000"):
        SCH.theorem14_schedule(10 ** 10, **kw14)
    one = SCH.theorem14_schedule(4, n=1, **kw14)  # n = 1 sample per client is admissible: every batch is 1
    assert np.all(one.batch == 1) and np.all(one.capped)
    with pytest.raises(ValueError, match="`kappa_F`"):
        SCH.theorem14_zeta(0.5, 1.0)
    z = SCH.theorem14_zeta(2.0, 4.0)
    assert isinstance(z, float) and z == pytest.approx(72 * 2 * (1 + 7 * 2 / 4), rel=1e-14)  # 648
    with pytest.raises(TypeError, match="`no_sampling`"):
        SCH.theorem15_schedule(3, lam=5.0, beta=1.0, R=2, D=1.0, no_sampling="yes")
    t = SCH.theorem15_schedule(4, lam=5.0, beta=1.0, R=2, D=1.0, n=3)
    assert np.all(t.batch == 3) and np.all(t.capped) and np.all(t.batch_requested > 3)  # c = 11250 samples asked
    for call in (lambda: SCH.theorem28_sums(3, lam=1e30), lambda: SCH.theorem15_schedule(2, lam=1e30, beta=1.0, R=1, D=1.0)):
        with pytest.raises(ValueError, match="c = 90 lam\\^2 L_F"):  # c = 9e61 > 1e60
            call()
    with pytest.raises(ValueError, match="> 1/\\(90 lam\\^2 L_F\\) ="):
        SCH.check_schedule_regime("theorem15", [0.15], beta=1.0, L_F=1.0, lam=0.3)
    ckw = dict(lam=1.0, mu=1.0, mu_F=0.5, s=0.0, gamma_f_sq=1.0, sigma_F1_sq=1.0, N=4, D=1.0)
    with pytest.raises(ValueError, match="1 <= S <= N = 4"):
        SCH.recursion32_constants(S=5, **ckw)
    c = SCH.recursion32_constants(lam=3.0, mu=0.4, mu_F=0.5, L_F=1.5, s=0.0, gamma_f_sq=0.0, sigma_F1_sq=1.5,
                                  N=10, S=4, D=1.0)
    assert c.C0 == pytest.approx(2 / 0.16, rel=1e-12)                     # 12.5
    assert c.C2 == pytest.approx(6 * 1.5 * 1.5 / 9, rel=1e-12)            # 1.5
    assert c.C4 == pytest.approx(200 * 3 * 1.5 * 9, rel=1e-12)            # kappa = 3: 8100
    assert c.C0_no_sampling == pytest.approx(0.5 / (4 * 0.16), rel=1e-12)  # 0.78125
    with pytest.raises(ValueError, match="`E_delta`"):
        SCH.recursion32_rhs(-1.0, 0.1, c, beta=1.0)
    # S = N form by hand: (1 - mu_F h/2) E + h^3 (C0~ C1 + C3)/beta^2 + h^4 C0~ C4/(9 L_F beta^4), h = 0.1, beta = 2
    ref = ((1 - 0.5 * 0.1 / 2) * 2.0 + 0.1 ** 3 * (c.C0_no_sampling * c.C1 + c.C3) / 4
           + 0.1 ** 4 * c.C0_no_sampling * c.C4 / (9 * 1.5 * 16))
    assert SCH.recursion32_rhs(2.0, 0.1, c, beta=2.0, no_sampling=True) == pytest.approx(ref, rel=1e-12)
    with pytest.raises(ValueError, match="`mu_F`"):
        SCH.a5_sums(3, zeta=10, mu_F=0)
    assert SCH.a5_sums(3, zeta=10, mu_F=2).params["mu_F"] == 2.0
    with pytest.raises(ValueError, match="assume beta >= 1"):
        SCH.theorem28_sums(3, lam=1.0, beta=0.5)
    r = SCH.theorem28_sums(8, lam=2.0)
    assert r.bounds[1] == pytest.approx(2 / 360, rel=1e-12) and r.params["lam"] == 2.0  # (sqrt 9 - 1)/(45 * 4 * 2)
    assert ">= " in r.summary().split(";")[0]
    ns = SCH.theorem28_sums(7, lam=1.0, no_sampling=True)
    assert ns.bounds[1] == pytest.approx(3 / 60, rel=1e-12)  # (8^(2/3) - 1)/60


def test_slope_fit_interval_intercept_and_messages():
    x = np.array([1.0, 2.0, 4.0])
    Y = np.vstack([3 / x, 3 / x, 3.3 / x])
    fit = SCH.loglog_slope(x, Y, n_boot=200)
    assert fit.intercept == pytest.approx(math.log(3.1), rel=1e-12) and fit.slope == pytest.approx(-1.0, abs=1e-12)
    lo, hi = fit.interval(0.95)
    assert lo == pytest.approx(fit.slope - 1.959963984540054 * fit.se, abs=1e-12)
    assert hi == pytest.approx(fit.slope + 1.959963984540054 * fit.se, abs=1e-12)
    with pytest.raises(ValueError, match="`x` must be 1-d"):
        SCH.loglog_slope(x, Y[:, :2])
    with pytest.raises(ValueError, match="positive column means"):
        SCH.loglog_slope(x, np.vstack([3 / x, 3 / x]) * np.array([1.0, 0.0, 1.0]))


def test_loglog_slope_validation_and_bootstrap_by_enumeration():
    x = np.array([1.0, 2.0, 4.0, 8.0])
    Y = np.vstack([x ** -1.0, x ** -2.0])
    for bad in (dict(level=0.0), dict(level=1.0)):
        with pytest.raises(ValueError, match="`level`"):
            SCH.loglog_slope(x, Y, **bad)
    with pytest.raises(ValueError, match="`n_boot`"):
        SCH.loglog_slope(x, Y, n_boot=5)
    with pytest.raises(ValueError, match="`x`"):
        SCH.loglog_slope(np.array([0.0, 1.0, 2.0, 4.0]), Y)
    fit = SCH.loglog_slope(x, Y, level=0.99, n_boot=2000, seed=1)
    np.testing.assert_array_equal(fit.x, x)
    # two replicates: a resample is both of row 0 (slope -1, prob 1/4), both of row 1 (slope -2, 1/4) or mixed;
    # the 99% percentile interval therefore runs exactly from -2 to -1
    assert fit.ci[0] == pytest.approx(-2.0, abs=1e-9) and fit.ci[1] == pytest.approx(-1.0, abs=1e-9)


# ============================================================================= robust.py
from fedtheory.lpproj import make_problem  # noqa: E402
from fedtheory.lpproj import robust as RB  # noqa: E402


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


# ============================================================================= extras.py
from fedtheory.lpproj import extras as EX  # noqa: E402


@pytest.mark.parametrize("call, match", [
    (lambda: EX.projected_envelope(np.ones((2, 3)), np.zeros(3), np.eye(3)[:2], 1.0, np.zeros(2)), "`H` must be a square"),
    (lambda: EX.quadratic_conjugate(np.stack([np.eye(2)] * 2), np.zeros(2), np.zeros(2)), "`H` must be a d x d matrix"),
    (lambda: EX.quadratic_conjugate(np.eye(2), np.zeros(3), np.zeros(2)), "`g`"),
    (lambda: EX.pfedme_general_solution(np.ones((3, 2)), np.ones((3, 2)), 1.0), "`Xi`"),
    (lambda: EX.pfedme_general_solution(np.ones((2, 3, 2)), np.zeros((2, 3)), 0.0), "`lam`"),
    (lambda: EX.block_diagonal_projection(2, 0, 1), "`d`"),
    (lambda: EX.block_diagonal_projection(13, 12, 1), r"d_sub <= d"),
    (lambda: EX.block_diagonal_projection(2, 12, 4), r"k <= d_sub"),
    (lambda: EX.block_diagonal_projection(10 ** 5, 10 ** 5, 1), r"the d_sub x d projection .*`d_sub`=100000"),
    (lambda: EX.block_diagonal_cost(0, 4, 1), "`d_sub`"),
    (lambda: EX.block_diagonal_cost(4, 4, 0), "`k`"),
    (lambda: EX.layer_parameter_count("linear", 3, 0), "`n_out`"),
    (lambda: EX.layer_parameter_count("conv", 3, 4, 0), "`kernel`"),
])
def test_extras_validation_names_the_parameter(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_quadratic_conjugate_on_a_stack_of_points_against_numerical_sup():
    from scipy.optimize import minimize

    H = np.array([[2.0, 0.3], [0.3, 1.0]])
    g = np.array([0.5, -1.0])
    u = np.random.default_rng(0).standard_normal((3, 2, 2))
    out = EX.quadratic_conjugate(H, g, u)
    assert out.shape == (3, 2)
    for i in range(3):
        for j in range(2):
            ref = -minimize(lambda x: -(u[i, j] @ x - (x @ H @ x / 2 - g @ x)), np.zeros(2), tol=1e-12).fun
            assert out[i, j] == pytest.approx(ref, rel=1e-7)


def test_block_diagonal_cost_edges_and_dense_count():
    c = EX.block_diagonal_cost(6, 12, 3)
    assert c.dense_entries == np.zeros((6, 12)).size == 72
    one = EX.block_diagonal_cost(1, 4, 1)  # d_sub = 1 is admissible
    assert one.stored_entries == np.count_nonzero(EX.block_diagonal_projection(1, 4, 1)) == 4


def test_layer_parameter_count_linear_ignores_the_kernel():
    assert EX.layer_parameter_count("linear", 4, 5, 3) == np.zeros((5, 4)).size + 5


# ============================================================================= theory.py / algorithms.py
from scipy import stats  # noqa: E402

from fedtheory.lpproj import make_projection  # noqa: E402
from fedtheory.lpproj.algorithms import benign_loss_draws, mc_fairness_ratio  # noqa: E402
from fedtheory.lpproj.theory import eq49_pair_sum, expected_fairness_V, fairness_dimension_ratio  # noqa: E402


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


def test_fairness_dimension_ratio_brute_force_traces_and_messages():
    rng = np.random.default_rng(4)
    d, ds = 5, 2
    A = rng.standard_normal((d, d))
    S = A @ A.T
    P = make_projection(ds, d, seed=1)
    PS = P @ S @ P.T
    num = sum(PS[i, j] * PS[j, i] for i in range(ds) for j in range(ds))  # tr((P S P^T)^2) by loops
    den = sum(S[i, j] * S[j, i] for i in range(d) for j in range(d))
    assert fairness_dimension_ratio(S, P) == pytest.approx(num / den, rel=1e-12)
    with pytest.raises(ValueError, match="symmetric"):
        fairness_dimension_ratio(S + np.triu(np.full((d, d), 1e-9), 1), P)
    with np.errstate(all="ignore"), pytest.raises(ValueError, match="the ratio"):
        fairness_dimension_ratio(np.eye(d) * 1e300, P)


def test_eq49_pair_sum_guard_and_single_batch():
    with pytest.raises(ValueError, match="pairwise differences"):
        eq49_pair_sum(np.zeros((5000, 5000)))
    W = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0]])
    # hand value: ||w_bar - w_k||^2 for w_bar = (1/3, 2/3): 5/9, 8/9, 17/9; their population variance
    v = np.var([5 / 9, 8 / 9, 17 / 9])
    assert eq49_pair_sum(W) == pytest.approx(v, rel=1e-12)
    assert isinstance(eq49_pair_sum(W), float)


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


def test_theory_messages_and_guards():
    from fedtheory.lpproj.theory import signflip_moments

    with pytest.raises(ValueError, match="orthonormal rows"):
        fairness_dimension_ratio(np.eye(3), 1.2 * np.eye(3)[:1])  # P P^T = 1.44
    with np.errstate(all="ignore"), pytest.raises(ValueError, match="the ratio overflows.*`Sigma_w`, `P`$"):
        fairness_dimension_ratio(np.eye(5) * 1e300, make_projection(2, 5, seed=1))
    with pytest.raises(ValueError, match="`N`=300, `d`=7"):
        eq49_pair_sum(np.zeros((1000, 300, 7)))
    with np.errstate(all="ignore"), pytest.raises(ValueError, match="the pair sum overflows"):
        eq49_pair_sum(np.array([[1e200, 0], [0, 1e200], [0, 0.0]]))
    # the d x d covariance guard counts d^2 entries: d = 1000 (8 MB) is fine
    mean, cov = signflip_moments(np.ones(1000), 1.0, 1.0, 1.0, 10)
    assert cov.shape == (1000, 1000)
    with np.errstate(all="ignore"), pytest.raises(ValueError, match="`sigma`=1.0"):
        signflip_moments(np.full(3, 1e300), 10.0, 1.0, 1.0, 10)


def test_robust_round2_quadrature_domain_and_messages():
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


def test_run_rounds_round2(rprob):
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


def test_extras_round2_messages_defaults_and_edges():
    with np.errstate(all="ignore"):
        with pytest.raises(ValueError, match=r"^the envelope overflows.*`H`, `g`, `P`, `w`, `lam`=1.0$"):
            EX.projected_envelope(np.eye(2), np.full(2, 1e300), np.eye(2), 1.0, np.zeros(2))
        with pytest.raises(ValueError, match=r"^the conjugate overflows.*`H`, `g`, `u`$"):
            EX.quadratic_conjugate(1e-300 * np.eye(2), np.zeros(2), np.full(2, 1e300))
        with pytest.raises(ValueError, match=r"^the pFedMe solution overflows.*`Xi`, `y`, `lam`=1.0$"):
            EX.pfedme_general_solution(np.ones((2, 3, 2)) + np.arange(6).reshape(1, 3, 2), np.full((2, 3), 1.7e308), 1.0)
    with pytest.raises(ValueError, match=r"`P` must have shape \(any, 2\)"):
        EX.projected_envelope(np.eye(2), np.zeros(2), np.ones(3), 1.0, np.zeros(1))
    with pytest.raises(ValueError, match="`w` must be finite"):
        EX.projected_envelope(np.eye(2), np.zeros(2), np.eye(2), 1.0, np.full(2, np.nan))
    np.testing.assert_array_equal(EX.block_diagonal_projection(4, 8, 2), EX.block_diagonal_projection(4, 8, 2, seed=0))
    with pytest.raises(ValueError, match="`d_sub`"):
        EX.block_diagonal_projection(0, 8, 1)
    with pytest.raises(ValueError, match=r"`d_sub` must be in \[1, 4\] \(d_sub <= d"):
        EX.block_diagonal_cost(5, 4, 1)
    with pytest.raises(ValueError, match=r"k <= d_sub, d_sub=4"):
        EX.block_diagonal_cost(4, 4, 5)
    assert EX.layer_parameter_count("linear", 1, 2) == np.zeros((2, 1)).size + 2  # n_in = 1 is admissible
    assert EX.block_diagonal_cost(6, 12, 3).summary().startswith("k=3 blocks of 2x4:")


def test_algorithms_round2_names_and_params():
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


# ============================================================================= a6.py
from fedtheory.lpproj import a6 as A6  # noqa: E402


def test_a6_parameter_names_and_reasons():
    for call, match in (
            (lambda: A6.sigma_F2_sq(-1.0, 5.0, 1.0), "`sigma_f_sq`"),
            (lambda: A6.theorem13_constants(lam=5.0, L=-1.0, s=0.0, sigma_f_sq=1.0, delta2_sq=0.1, N=4, S=2), "`L`"),
            (lambda: A6.theorem13_constants(lam=5.0, L=1.0, s=0.0, sigma_f_sq=1.0, delta2_sq=-0.1, N=4, S=2),
             "`delta2_sq`"),
            (lambda: A6.theorem13_step(1.0, 2, 0.5, 1.0, 1.0, 5.0), "`beta`"),
            (lambda: A6.eq11_rhs(0.1, 1.0, -1.0, 0.0, 0.0), "`grad_sq`"),
            (lambda: A6.personalised_bound_13(0.5, 4.0, 1.0, -0.1, 0.8), "`delta2_sq`"),
            (lambda: A6.personalised_bound_13(0.5, 4.0, 1.0, 0.1, -0.8), "`sigma_F2_sq`"),
            (lambda: A6.a6_quadratics(np.ones(3), np.zeros((2, 1, 1)), np.zeros((2, 1))), r"`P` must have shape"),
            (lambda: A6.a6_quadratics(np.eye(3)[:2], np.zeros((2, 2, 2)), np.zeros((2, 3))), "`a`"),
            (lambda: A6.make_a6_least_squares(N=2, n=10 ** 10, d=10, d_sub=2), "`n`=10000000000"),
            (lambda: A6.check_theorem13_steps(0.0, 5.0, 1.0, 1e-6, 0.5), "Theorem 13 assumes beta >= 1"),
            (lambda: A6.check_a6_regime(0.0, [5.0, 1.0], [1.0, 1.0], "proposition10"), "got lam=1.0"),
    ):
        with pytest.raises(ValueError, match=match):
            call()


def test_a6_overflow_messages_name_the_inputs():
    with np.errstate(all="ignore"):
        with pytest.raises(ValueError, match=r"`sigma_f_sq`=1e\+308"):
            A6.theorem13_constants(lam=1.0, L=0.0, s=0.0, sigma_f_sq=1e308, delta2_sq=0.1, N=4, S=2)
        with pytest.raises(ValueError, match="`T`, `beta`, `C4`"):
            A6.eq20_rhs(1e308, 1e-10, 1.0, 1.0, 1.0, 1.0, 1.0)
        with pytest.raises(ValueError, match="`lam`, `delta2_sq`, `eta_tilde`, `beta`, `mean_grad_Fk_sq`"):
            A6.lemma26_rhs(1.0, 0.1, 0.1, 1.0, 1e308)
        with pytest.raises(ValueError, match="`drift`, `sampling`"):
            A6.eq11_rhs(1.0, 1e10, 0.0, 0.0, 1e308)


def test_a6_closed_forms_by_hand():
    # eq. (20): 2/(0.1 * 4) + 0.01 * 3/4 + 0.1 * 5 + 7
    assert A6.eq20_rhs(2.0, 0.1, 4, 2.0, 3.0, 5.0, 7.0) == pytest.approx(12.5075, rel=1e-13)
    # Lemma 26: 2 * 0.1 + 4 * 0.01 * (7 * 0.5 + 10 * 0.1) = 0.38; mean_grad_Fk_sq = 0.5 < 1 is admissible
    assert A6.lemma26_rhs(1.0, 0.1, 0.1, 1.0, 0.5) == pytest.approx(0.38, rel=1e-13)
    # Theorem 13's personalised bound: 2/(16 - 10) * 0.5 + 2 * 0.1 + 6 * 0.8/16
    assert A6.personalised_bound_13(0.5, 4.0, 1.0, 0.1, 0.8) == pytest.approx(1 / 6 + 0.2 + 0.3, rel=1e-13)
    # T = 1 is admissible; with C4 = C5 = 0 both candidates are infinite and the step is eta_hat_2 = 1/(90 lam^3)
    assert A6.theorem13_step(1.0, 1, 1.0, 0.0, 0.0, 2.0) == pytest.approx(1 / 720, rel=1e-13)


def test_a6_clients_per_client_gradient_and_sample_norms():
    c = A6.make_a6_least_squares(N=3, n=1, d=12, d_sub=2, scale=2.5, seed=1)  # n = 1 sample is admissible
    np.testing.assert_allclose(np.linalg.norm(c.C, axis=-1), math.sqrt(2.5), rtol=1e-12)
    c = A6.make_a6_least_squares(N=3, n=8, d=12, d_sub=2, shared_design=False, seed=2)
    w = np.random.default_rng(0).standard_normal((3, 2))
    per = c.grad_F_k(w, 5.0, per_client=True)
    for k in range(3):  # client k's gradient at its own w_k, from the common-w call
        np.testing.assert_allclose(per[k], c.grad_F_k(w[k], 5.0)[k], rtol=1e-12)


def test_stochastic_round3_edges_messages_and_a6_metric(cl):
    from fedtheory.lpproj.stochastic import regime_checks

    with pytest.raises(ValueError, match=r"`L_F` must be in \(0"):
        theorem9_eta_hat(0.0, 1.0, 1.0)
    with pytest.raises(ValueError, match="full row rank"):  # smallest singular value exactly 1e-12 of the largest
        LeastSquaresClients(Xi=np.eye(2)[None].repeat(3, 1)[:, :3], y=np.zeros((1, 3)), P=np.diag([1.0, 1e-12]),
                            ridge=0.5)
    with pytest.raises(ValueError, match=r"`mu` must be in \(0"):
        cl.delta1_sq(1.0, mu=0.0)
    with pytest.raises(ValueError, match=r"^the designs \(N x n x d\) would need"):
        make_least_squares_clients(2, 10 ** 10, 3, 2)
    with np.errstate(all="ignore"), pytest.raises(ValueError, match=r"`heterogeneity`=1.0, `noise`=1e\+308"):
        make_least_squares_clients(3, 10, 4, 2, noise=1e308)
    with pytest.raises(ValueError, match="`beta`"):
        regime_checks(cl, 1.0, None, T=2, R=1, beta=0.0, eta_max=0.1)
    with pytest.raises(ValueError, match="`T`=100000, `R`=10000"):
        run_algorithm1_sgd(cl, 1.0, T=10 ** 5, R=10 ** 4, eta=0.1)
    with pytest.raises(TypeError, match="`record`"):
        run_algorithm1_sgd(cl, 1.0, T=1, R=1, eta=0.1, record="yes")
    r = run_algorithm1_sgd(cl, 1.0, T=1, R=1, eta=0.1, seed=7)
    assert r.params["seed"] == 7 and isinstance(r.params["seed"], int)
    # A6 with P = 0.3 Q (Q orthonormal rows): the stopping rule is on ||grad_x h~||^2, not on the y-gradient
    rng = np.random.default_rng(0)
    Q = np.linalg.qr(rng.standard_normal((6, 2)))[0].T
    P = 0.3 * Q
    Xi = rng.standard_normal((3, 10, 2)) @ P
    y = rng.standard_normal((3, 10))
    ca = LeastSquaresClients(Xi=Xi, y=y, P=P, ridge=0.0, a6=True)
    lam, nu = 2.0, 1e-4
    res = run_algorithm1_sgd(ca, lam, T=1, R=1, eta=0.1, nu=nu, warm_start=False)
    x, w = res.x[0], res.w[0]
    G = np.swapaxes(Xi, 1, 2) @ Xi / 10
    h = np.einsum("knd,kn->kd", Xi, y) / 10
    grad = np.einsum("kij,kj->ki", G, x) - h - lam * (w - x @ P.T) @ P  # grad_x of f_k + lam/2 ||w - P x||^2
    assert np.max(np.sum(grad ** 2, -1)) <= nu * (1 + 1e-9)


def test_schedules_round3():
    np.testing.assert_allclose(SCH.theorem14_zeta([2.0, 3.0], 4.0), [648.0, 72 * 3 * (1 + 21 / 4)], rtol=1e-14)
    with pytest.raises(ValueError, match=r"\(smoothness of the f_k \(Assumption 4\)\); got"):
        SCH.theorem15_schedule(3, lam=5.0, beta=1.0, R=2, D=1.0, L=0.0)
    assert SCH.theorem15_schedule(3, lam=5.0, beta=1.0, R=2, D=1.0).params["R"] == 2
    np.testing.assert_allclose(SCH.sampling_law([1.0, 3.0]), [0.25, 0.75], rtol=1e-15)
    with pytest.raises(ValueError, match="non-empty 1-d"):
        SCH.sampling_law(np.ones((2, 2)))
    with pytest.raises(ValueError, match="`lam`"):
        SCH.check_schedule_regime("theorem15", [0.01], beta=1.0, L_F=1.0, lam=0.0)
    # lam = 1/12, beta = 8, L_F = 1: 1/(90 lam^2 L_F) = beta/(5 L_F) = 1.6 exactly; the cap keeps its first form
    with pytest.raises(ValueError, match=r"> beta/\(5 L_F\) = 1.6"):
        SCH.check_schedule_regime("theorem15", [1.7], beta=8.0, L_F=1.0, lam=1 / 12)
    kw = dict(lam=1.0, mu=1.0, mu_F=0.5, s=0.0, gamma_f_sq=1.0, N=4, S=2, D=1.0)
    with pytest.raises(ValueError, match="`sigma_F1_sq`"):
        SCH.recursion32_constants(sigma_F1_sq=-1.0, **kw)
    with np.errstate(all="ignore"), pytest.raises(ValueError, match=r"^recursion \(32\)'s constants overflow"):
        SCH.recursion32_constants(sigma_F1_sq=1.0, **{**kw, "lam": 1e150})
    c = SCH.recursion32_constants(sigma_F1_sq=1.0, **kw)
    with np.errstate(all="ignore"), pytest.raises(ValueError, match="`E_delta`, `eta_tilde`, `consts`"):
        SCH.recursion32_rhs(1e308, 1e60, c, beta=1.0)  # (1 - mu_F h/2) E_delta overflows
    with pytest.raises(ValueError, match=r"the A\.5 sums"):
        SCH.a5_sums(10 ** 9, zeta=10)
    r = SCH.theorem28_sums(8, lam=1.0, L_F=2.0)
    assert r.bounds[1] == pytest.approx(2 / 90, rel=1e-12)  # (sqrt 9 - 1)/(45 lam^2 L_F)
    r1 = SCH.theorem28_sums(8, lam=1.0)
    assert r1.bounds[3] == pytest.approx(3 / 90 ** 3, rel=1e-12)
    ns = SCH.theorem28_sums(8, lam=1.0, beta=2.0, no_sampling=True)
    assert ns.bounds[3] == pytest.approx(4 * (math.log(8) + 1) / 90 ** 3, rel=1e-12)
    assert ns.corrected[5] == pytest.approx(2.125 * 2 ** (10 / 3) / 90 ** 5, rel=1e-12)
    with pytest.raises(ValueError, match="`beta`"):
        SCH.theorem28_sums(8, lam=1.0, beta=0.5)
    with pytest.raises(ValueError, match=r"^the power sum \(T terms\) would need"):
        SCH.theorem28_first_term(10 ** 10, lam=1.0)
    with pytest.raises(ValueError, match="`Delta_F`"):
        SCH.theorem28_first_term(3, lam=1.0, Delta_F=-1.0)


def test_loglog_slope_bootstrap_se_against_a_refit():
    from fedtheory.random import as_generator

    x = np.array([1.0, 2.0, 4.0, 8.0])
    Y = np.random.default_rng(5).uniform(0.5, 2.0, (6, 4)) / x
    fit = SCH.loglog_slope(x, Y, n_boot=10, seed=3)  # n_boot = 10 is the smallest admissible
    idx = as_generator(3).integers(0, 6, (10, 6))
    slopes = [np.polyfit(np.log(x), np.log(Y[i].mean(0)), 1)[0] for i in idx]
    assert fit.se == pytest.approx(np.std(slopes, ddof=1), rel=1e-9)


def test_robust_round3(rprob):
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
