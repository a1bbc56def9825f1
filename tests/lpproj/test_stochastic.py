"""Tests of :mod:`fedtheory.lpproj.stochastic`: the exact runner behind Theorem 9 of lp-proj (Han et al. 2024): F_k
against brute minimisation, gradients, Hessians and gradient variance, R = 1 as gradient descent on F, inexact inner
solves and minibatches, the alpha weights, delta_1^2, the A6 parametrisation and the parameter messages."""
import itertools
import math

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


def test_stochastic_edges_messages_and_a6_metric(cl):
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


def _brute_F_k(cl, w, lam):
    """F_k(w) by numerical minimisation of the raw per-sample losses (scipy BFGS)."""
    from scipy.optimize import minimize

    out = []
    for k in range(cl.N):
        def obj(x):
            return (np.mean((cl.Xi[k] @ x - cl.y[k]) ** 2) / 2 + cl.ridge / 2 * x @ x
                    + lam / 2 * np.sum((w - cl.P @ x) ** 2))
        out.append(minimize(obj, np.zeros(cl.d), method="BFGS", options=dict(gtol=1e-11)).fun)
    return np.array(out)


def test_F_k_matches_brute_minimisation(cl):
    w = np.array([0.3, -1.2])
    np.testing.assert_allclose(cl.F_k(w, 1.3), _brute_F_k(cl, w, 1.3), rtol=1e-8)


def test_gradient_hessian_and_optimum(cl):
    lam, e = 1.3, 1e-5
    w = np.array([0.7, 0.1])
    fd = np.array([(cl.F_k(w + e * u, lam) - cl.F_k(w - e * u, lam)) / (2 * e) for u in np.eye(2)]).T
    np.testing.assert_allclose(cl.grad_F_k(w, lam), fd, atol=1e-8)
    Hfd = np.array([(cl.grad_F_k(w + e * u, lam) - cl.grad_F_k(w - e * u, lam)) / (2 * e) for u in np.eye(2)])
    Hfd = np.transpose(Hfd, (1, 2, 0))
    ev = np.linalg.eigvalsh((Hfd + np.swapaxes(Hfd, 1, 2)) / 2)
    assert cl.mu_F(lam) == pytest.approx(ev[:, 0].min(), rel=1e-6)
    assert cl.L_F(lam) == pytest.approx(ev[:, -1].max(), rel=1e-6)
    assert cl.L_F(lam) <= lam
    mu_p3, L_p3 = cl.prop3_constants(lam)
    assert mu_p3 <= cl.mu_F(lam) and cl.L_F(lam) <= L_p3
    # w* against the existing independent closed form (G_k + ridge I as the Gram matrix)
    from fedtheory.lpproj import lpproj2_general_solution

    G = np.swapaxes(cl.Xi, 1, 2) @ cl.Xi / cl.n + cl.ridge * np.eye(cl.d)
    h = np.einsum("knd,kn->kd", cl.Xi, cl.y) / cl.n
    w_ref, _ = lpproj2_general_solution(G, h, cl.P, lam)
    np.testing.assert_allclose(cl.w_star(lam), w_ref, atol=1e-10)
    g = cl.grad_F_k(cl.w_star(lam), lam)
    assert cl.sigma_F1_sq(lam) == pytest.approx(np.mean(np.sum(g ** 2, -1)), rel=1e-12)
    assert cl.F_star(lam) == pytest.approx(float(np.mean(_brute_F_k(cl, cl.w_star(lam), lam))), rel=1e-8)


def test_gradient_variance_brute_force(cl):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, cl.N, cl.d))
    v = cl.gradient_variance(x)
    for r, k in itertools.product(range(3), range(cl.N)):
        per = np.array([xi * (xi @ x[r, k] - yy) + cl.ridge * x[r, k] for xi, yy in zip(cl.Xi[k], cl.y[k])])
        assert v[r, k] == pytest.approx(np.mean(np.sum((per - per.mean(0)) ** 2, 1)), rel=1e-10)
    # minibatch without replacement: exact enumeration of all subsets
    small = make_least_squares_clients(2, 6, 3, 2, ridge=0.1, seed=1)
    xs = rng.standard_normal((small.N, small.d))
    for b in (1, 2, 4, 6):
        mb = small.minibatch_variance(xs, b)
        for k in range(small.N):
            per = small.Xi[k] * (small.Xi[k] @ xs[k] - small.y[k])[:, None]
            full = per.mean(0)
            vals = [np.sum((per[list(c)].mean(0) - full) ** 2) for c in itertools.combinations(range(6), b)]
            assert mb[k] == pytest.approx(np.mean(vals), rel=1e-10, abs=1e-14)


def test_exact_run_matches_existing_run_algorithm1():
    from fedtheory.lpproj import LinearFLProblem, run_algorithm1

    cl0 = make_least_squares_clients(4, 15, 4, 2, ridge=0.0, seed=2)
    prob = LinearFLProblem(W=np.zeros((4, 4)), n=15, b=1.0, sigma=1.0, P=cl0.P)
    ref = run_algorithm1(prob, 0.8, T=6, R=3, beta=1.5, eta=0.2, data=(cl0.Xi, cl0.y))
    ours = run_algorithm1_sgd(cl0, 0.8, T=6, R=3, beta=1.5, eta=0.2, replicates=2)
    np.testing.assert_allclose(ours.history[0], ref.history, atol=1e-12)
    np.testing.assert_allclose(ours.x[1], ref.x, atol=1e-12)


def test_R1_is_gradient_descent_on_F(cl):
    lam, eta, beta = 1.0, 0.3, 2.0
    r = run_algorithm1_sgd(cl, lam, T=5, R=1, beta=beta, eta=eta)
    w = np.zeros(cl.d_sub)
    for t in range(5):  # referee: finite-difference gradient of F
        e = 1e-6
        g = np.array([(cl.F(w + e * u, lam) - cl.F(w - e * u, lam)) / (2 * e) for u in np.eye(cl.d_sub)])
        w = w - eta * beta * g
        np.testing.assert_allclose(r.history[0, t + 1], w, atol=1e-7)


def test_inexact_inner_and_minibatch(cl):
    lam = 1.0
    kw = dict(T=4, R=2, S=3, beta=1.0, eta=0.2, batch=5, replicates=6, seed=11, record=True)
    a = run_algorithm1_sgd(cl, lam, nu=1e-6, **kw)
    b = run_algorithm1_sgd(cl, lam, nu=1e-6, **kw)
    np.testing.assert_array_equal(a.history, b.history)  # bitwise reproducible
    assert not np.array_equal(a.history, run_algorithm1_sgd(cl, lam, nu=1e-6, **{**kw, "seed": 12}).history)
    e = run_algorithm1_sgd(cl, lam, nu=None, **kw)  # same batches and sampling; exact inner solves
    assert np.max(np.abs(a.history - e.history)) < 1e-2
    assert a.inner_iterations > 0 and e.inner_iterations == 0
    # the sampled sets are S distinct clients
    sam = a.record["sampled"]
    assert sam.shape == (6, 4, 3) and all(len(set(s)) == 3 for s in sam.reshape(-1, 3))
    # record: g = grad F_k exactly with exact full-batch solves (spec claim 7)
    f = run_algorithm1_sgd(cl, lam, T=3, R=2, eta=0.2, record=True)
    np.testing.assert_allclose(f.record["g"], f.record["grad_local"], atol=1e-12)
    # schedules
    s = run_algorithm1_sgd(cl, lam, T=3, R=1, eta=[0.1, 0.05, 0.02], nu=[1e-3, 1e-4, 1e-5], batch=[2, 4, 8])
    assert s.history.shape == (1, 4, 2)


def test_inner_tolerance_is_met(cl):
    from fedtheory.lpproj.stochastic import _inner_gd

    rng = np.random.default_rng(1)
    A = rng.standard_normal((7, 4, 4))
    H = A @ np.swapaxes(A, 1, 2) + 0.3 * np.eye(4)
    rhs = rng.standard_normal((7, 4))
    z, its = _inner_gd(np.zeros((7, 4)), H, rhs, None, 1e-8, 10_000)
    g = np.einsum("kij,kj->ki", H, z) - rhs
    assert np.all(np.sum(g ** 2, 1) <= 1e-8) and its > 0


def test_a6_parametrisation():
    ca = make_least_squares_clients(3, 10, 12, 2, ridge=0.2, a6=True, seed=4)
    # with ridge > 0 the x-problem is strongly convex; its minimiser lies in row(P) and equals P^T y_hat
    lam = 2.0
    w = np.array([[0.5, -0.3]] * 3)
    H = np.swapaxes(ca.Xi, 1, 2) @ ca.Xi / ca.n + ca.ridge * np.eye(12) + lam * ca.P.T @ ca.P
    rhs = np.einsum("knd,kn->kd", ca.Xi, ca.y) / ca.n + lam * w @ ca.P
    np.testing.assert_allclose(ca.x_hat(w, lam), np.linalg.solve(H, rhs[..., None])[..., 0], atol=1e-10)
    r = run_algorithm1_sgd(ca, lam, T=3, R=2, eta=0.1, nu=1e-10, replicates=2)
    assert np.all(np.isfinite(r.x))
    with pytest.raises(ValueError, match="row"):
        LeastSquaresClients(Xi=np.ones((1, 3, 4)), y=np.ones((1, 3)), P=np.eye(4)[:2], ridge=0.1, a6=True)


@pytest.mark.parametrize("kw, msg", [
    (dict(nu=0.0), "`nu`"), (dict(nu=-1.0), "`nu`"), (dict(batch=13), "`batch`"), (dict(batch=0), "`batch`"),
    (dict(eta=0.0), "`eta`"), (dict(eta=-0.1), "`eta`"), (dict(S=0), "`S`"), (dict(S=6), "`S`"),
    (dict(beta=0.5, regime="theorem9"), "`beta` must be >= 1"),
    (dict(eta=1.0, regime="theorem9"), "eta beta R"), (dict(regime="theorem99"), "`regime`"),
    (dict(eta=[0.1, 0.2]), "length T"), (dict(nu=[1e-3, 0.0, 1e-3]), "`nu`"),
])
def test_bad_input(cl, kw, msg):
    args = dict(T=3, R=1, eta=0.1)
    args.update(kw)
    with pytest.raises(ValueError, match=msg):
        run_algorithm1_sgd(cl, 1.0, **args)


def test_theorem9_regime_message_and_a6_s(cl):
    mu_F, L_F = cl.prop3_constants(1.0)
    eh = theorem9_eta_hat(L_F, mu_F, 2.0)
    T = math.ceil(2 / (eh * mu_F))
    run_algorithm1_sgd(cl, 1.0, T=T, R=2, beta=2.0, eta=eh / 4, regime="theorem9")  # inside: no error
    with pytest.raises(ValueError, match=r"eta_hat_1 = 1/\(18 L_F"):
        run_algorithm1_sgd(cl, 1.0, T=T, R=2, beta=2.0, eta=eh, regime="theorem9")
    with pytest.raises(ValueError, match="`T`"):
        run_algorithm1_sgd(cl, 1.0, T=2, R=2, beta=2.0, eta=eh / 4, regime="theorem9")
    ca = make_least_squares_clients(2, 5, 20, 5, ridge=0.1, a6=True, seed=0)
    assert ca.s >= 1 / 30
    with pytest.raises(ValueError, match="s < 1/30"):
        run_algorithm1_sgd(ca, 1.0, T=2, R=1, eta=0.1, regime="theorem13")


# ---- validation once at the public entry
"""Runs of Algorithm 1 with mini-batches and inexact inner solves (fedtheory.lpproj.stochastic; Han, Li, Lin and
Zhang, JMLR 2024, Algorithm 1): the arguments are validated once, at the public entry, and never inside the loop
over the rounds and local steps; schedules are checked as a whole with the messages a constant would get."""


import pytest

from fedtheory.lpproj.a6 import make_a6_least_squares, to_stochastic_clients


from fedtheory.testing import count_validation_calls as _count_checks  # noqa: E402


@pytest.fixture(scope="module")
def cl_small():
    return make_least_squares_clients(4, 12, 5, 2, seed=2)


@pytest.fixture(scope="module")
def cl6():
    return to_stochastic_clients(make_a6_least_squares(N=4, n=10, d=30, d_sub=2, seed=3))


RUNS = {
    "constant eta": lambda cl_small, cl6, T: dict(clients=cl_small, eta=0.05),
    "record, S < N, batch, nu": lambda cl_small, cl6, T: dict(clients=cl_small, eta=0.05, record=True, S=3, batch=6, nu=1e-6,
                                                        replicates=2),
    "schedules": lambda cl_small, cl6, T: dict(clients=cl_small, eta=0.05 / np.arange(1, T + 1), nu=1e-5 / np.arange(1, T + 1),
                                         batch=np.full(T, 6)),
    "A6, theorem13, record": lambda cl_small, cl6, T: dict(clients=cl6, eta=1e-6, regime="theorem13", record=True),
}


@pytest.mark.parametrize("run", sorted(RUNS))
def test_validation_calls_do_not_grow_with_rounds(run, cl_small, cl6, monkeypatch):
    counts = _count_checks(monkeypatch)
    per_T = []
    for T in (2, 7):
        counts.clear()
        kw = RUNS[run](cl_small, cl6, T)
        run_algorithm1_sgd(kw.pop("clients"), 1.0, T=T, R=3, **kw)
        per_T.append(dict(counts))
    assert per_T[0] == per_T[1]
    assert sum(per_T[0].values()) <= 30


@pytest.mark.parametrize("kw, exc, msg", [
    # finite first (the whole schedule), then positive: the first offending entry, as a constant would be named
    (dict(eta=[0.05, -1.0, np.nan, 0.02]), ValueError, "`eta` must be finite; got nan"),
    (dict(eta=[0.05, 0.04, -1.0, 0.0]), ValueError, "`eta` must be in (0, inf) (the local step size must be positive); "
                                                    "got eta=-1.0"),
    (dict(eta=-1.0), ValueError, "`eta` must be in (0, inf) (the local step size must be positive); got eta=-1.0"),
    (dict(eta=np.array([True, False, True, True])), ValueError, "got eta=0.0"),
    (dict(eta=[0.1, None, 0.1, 0.1]), TypeError, "float() argument must be"),
    (dict(eta=np.ones(3)), ValueError, "`eta` must be a scalar or an array of length T=4; got shape (3,)"),
    (dict(eta=None), ValueError, "`eta` is required"),
    (dict(eta=0.05, nu=[1e-5, 1e-5, -1e-5, np.inf]), ValueError, "`nu` must be finite; got inf"),
    (dict(eta=[0.05, 0.05, np.nan, 0.05], nu=[np.nan] * 4), ValueError, "`eta` must be finite; got nan"),
    (dict(eta=0.05, batch=[6, 7, 13, 0]), ValueError, "`batch` must be in [1, 12] (1 <= batch <= n = 12 samples per "
                                                      "client); got batch=13"),
    (dict(eta=0.05, batch=[6.0, 7.5, 8.0, 9.0]), TypeError, "`batch` must be an integer; got 7.5"),
    (dict(eta=0.05, batch=np.ones(4, bool)), TypeError, "`batch` must be an integer"),
    (dict(eta=0.05, batch=[6, 7]), ValueError, "`batch` must be a scalar or an array of length T=4; got shape (2,)"),
])
def test_schedules_name_their_first_offending_entry(cl_small, kw, exc, msg):
    with pytest.raises(exc) as info:
        run_algorithm1_sgd(cl_small, 1.0, T=4, R=2, **kw)
    assert msg in str(info.value)


def test_schedules_accept_what_a_constant_accepts(cl_small):
    """Integer-valued float batches, strings of numbers, float32 and integer arrays pass as before, entry by entry
    where the vectorised test cannot decide."""
    ref = run_algorithm1_sgd(cl_small, 1.0, T=4, R=2, eta=[0.05, 0.04, 0.03, 0.02], batch=[6, 7, 8, 9], seed=1)
    for eta, batch in ((["0.05", "0.04", "0.03", "0.02"], [6.0, 7.0, 8.0, 9.0]),
                       (np.array([0.05, 0.04, 0.03, 0.02]), np.array([6, 7, 8, 9], np.uint16))):
        res = run_algorithm1_sgd(cl_small, 1.0, T=4, R=2, eta=eta, batch=batch, seed=1)
        assert np.array_equal(res.history, ref.history) and np.array_equal(res.x, ref.x)
        assert np.array_equal(res.params["eta"], ref.params["eta"]) and res.params["batch"].dtype == np.int64
    const = run_algorithm1_sgd(cl_small, 1.0, T=4, R=2, eta=0.05, seed=1)
    assert const.params["eta"] == 0.05 and type(const.params["eta"]) is float


def test_recorded_gradients_equal_grad_F_k_at(cl_small):
    res = run_algorithm1_sgd(cl_small, 1.0, T=3, R=2, eta=0.05, record=True, S=3, batch=6, nu=1e-6, replicates=2, seed=4)
    rec = res.record
    assert np.array_equal(rec["grad_local"], cl_small.grad_F_k_at(rec["w_local"], 1.0))
    w_t = np.broadcast_to(res.history[:, :-1, None, :], rec["grad_global"].shape)
    assert np.array_equal(rec["grad_global"], cl_small.grad_F_k_at(w_t, 1.0))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_diverging_recorded_run_raises_grad_F_k_at_message(cl_small):
    """A local iterate that overflows is reported where it is recorded, with grad_F_k_at's message, as before."""
    with pytest.raises(ValueError, match=r"`w` must be finite; got inf"):
        run_algorithm1_sgd(cl_small, 1.0, T=3, R=3, eta=1e200, record=True, S=2, seed=2)
    with pytest.raises(ValueError, match="Algorithm 1 overflowed float64"):
        run_algorithm1_sgd(cl_small, 1.0, T=3, R=3, eta=1e200, S=2, seed=2)


@pytest.mark.parametrize("b", [1, 2, 4, 8, 9, 20])
def test_smallest_keys_is_the_argsort_prefix(b):
    """The mini-batch draw: the b smallest keys in key order, by argmin passes (small b) or a sort (large b)."""
    from fedtheory.lpproj.stochastic import _smallest_keys

    keys = np.random.default_rng(b).random((7, 3, 20))
    expect = np.argsort(keys, axis=-1)[..., :b]
    np.testing.assert_array_equal(_smallest_keys(keys.copy(), b), expect)


@pytest.mark.parametrize("m", [1, 2, 3, 12])
def test_matvec_is_the_stacked_product(m):
    from fedtheory.lpproj.stochastic import _matvec

    rng = np.random.default_rng(m)
    H, g = rng.standard_normal((11, m, m)), rng.standard_normal((11, m))
    np.testing.assert_allclose(_matvec(H, g), np.einsum("sij,sj->si", H, g), rtol=1e-13, atol=1e-13)


def test_gradient_variance_large_d_path_agrees(cl):
    """The direct per-sample formula (used when d^2 per client is too large to keep the quadratic) and the
    quadratic evaluation give the same variances."""
    import fedtheory.lpproj.stochastic as st

    x = np.random.default_rng(3).standard_normal((4, cl.N, cl.d))
    quad = cl.gradient_variance(x)
    old, st._OUTER_MAX = st._OUTER_MAX, 0
    try:
        direct = cl.gradient_variance(x)
    finally:
        st._OUTER_MAX = old
    np.testing.assert_allclose(quad, direct, rtol=1e-10, atol=1e-12)


def test_recorded_gradients_and_drifts_are_those_of_the_visited_points(cl):
    """grad_local, grad_global and drift_sq (computed after the run in one batch) at the recorded points."""
    res = run_algorithm1_sgd(cl, 0.3, T=3, R=2, S=2, beta=1.5, eta=0.05, batch=4, nu=1e-3, replicates=3, seed=4,
                             record=True)
    rec = res.record
    for t in range(3):
        np.testing.assert_allclose(rec["grad_global"][:, t], cl.grad_F_k(res.history[:, t], 0.3), rtol=1e-12,
                                   atol=1e-12)
        for r in range(2):
            wl = rec["w_local"][:, t, r]
            np.testing.assert_allclose(rec["grad_local"][:, t, r], cl.grad_F_k_at(wl, 0.3), rtol=1e-12, atol=1e-12)
            np.testing.assert_allclose(rec["drift_sq"][:, t, r], np.sum((wl - res.history[:, t, None]) ** 2, -1),
                                       rtol=1e-12, atol=1e-15)
