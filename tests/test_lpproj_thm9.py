"""the stochastic Algorithm 1 runner (fedtheory.lpproj.stochastic), Theorem 9 over a grid,
Lemmas 4-8 and eqs. (8)-(10), (26). Referees are independent computations (scipy minimisation, brute-force
enumeration, the existing exact run_algorithm1, finite differences)."""
import itertools
import math

import numpy as np
import pytest

from fedtheory.lpproj.stochastic import (LeastSquaresClients, make_least_squares_clients, run_algorithm1_sgd,
                                          theorem9_eta_hat)


@pytest.fixture(scope="module")
def cl():
    return make_least_squares_clients(5, 12, 4, 2, ridge=0.5, heterogeneity=1.0, seed=3)


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


def test_run_algorithm1_rejects_nonpositive_nu():
    from fedtheory.lpproj import make_problem, run_algorithm1

    prob = make_problem(N=3, d=4, d_sub=2, n=10, seed=0)
    for bad in (0.0, -1e-3):
        with pytest.raises(ValueError, match="`nu`"):
            run_algorithm1(prob, 1.0, T=1, R=1, nu=bad)


# ----------------------------------------------------------------------------- every claim can fail
M = "fedtheory_checks.lpproj.thm9_grid"


def _wrap(mp, target, make):
    mod, _, name = target.rpartition(".")
    import importlib

    orig = getattr(importlib.import_module(mod), name)
    mp.setattr(target, make(orig))


def _kw(**over):
    return lambda orig: (lambda *a, **k: orig(*a, **{**k, **over}))


def _method(mp, name, make):
    orig = getattr(LeastSquaresClients, name)
    mp.setattr(LeastSquaresClients, name, make(orig))


def _wrong_start(mp):
    # the runs start far from the w~_0 = 0 that Delta_0 assumes
    _wrap(mp, f"{M}.run_algorithm1_sgd", _kw(w0=np.full(3, 5.0)))


def _gamma_too_small(mp):
    # Assumption 2's variance underestimated 1000x (delta_1^2 too small)
    _method(mp, "gradient_variance", lambda orig: (lambda self, x: orig(self, x) / 1000))


def _inexact_inner(mp):
    # the "exact" inner solves stop at ||grad h~||^2 <= 1e-2
    _wrap(mp, f"{M}.run_algorithm1_sgd", _kw(nu=1e-2))


def _sigma_zero(mp):
    # sigma_F1^2 computed as 0 (gradients at w~* dropped)
    _method(mp, "sigma_F1_sq", lambda orig: (lambda self, lam: 0.0))


def _mu_F_too_large(mp):
    # strong convexity of F_k overstated 10x
    _method(mp, "mu_F", lambda orig: (lambda self, lam: 10 * orig(self, lam)))


def _grad_F_k_scaled(mp):
    # grad F_k off by a factor 100
    _method(mp, "grad_F_k", lambda orig: (lambda self, w, lam: orig(self, w, lam) / 100))


def _two_local_steps(mp):
    # every round runs at least 2 local steps (R = 1 is no longer GD on F)
    _wrap(mp, f"{M}.run_algorithm1_sgd", lambda orig: (lambda *a, **k: orig(*a, **{**k, "R": max(k.get("R", 1), 2)})))


def _shifted_personal_models(mp):
    import dataclasses

    _wrap(mp, f"{M}.run_algorithm1_sgd",
          lambda orig: (lambda *a, **k: dataclasses.replace(orig(*a, **k), x=orig(*a, **k).x + 5.0)))


def _A_T_undercounted(mp):
    # the referee's direct summation loses 60% of A_T
    _wrap(mp, f"{M}._A_T_exact", lambda orig: (lambda x, T: orig(x, T) * 0.4))


def _A_T_way_off(mp):
    _wrap(mp, f"{M}._A_T_exact", lambda orig: (lambda x, T: orig(x, T) * 0.01))


FAILS_PATHS_THM9 = {
    "lpproj.thm9.grid-bound17": _wrong_start,
    "lpproj.lemma4.inexact-gradient": _gamma_too_small,
    "lpproj.alg1.exact-gradient": _inexact_inner,
    "lpproj.lemma5.diversity": _sigma_zero,
    "lpproj.lemma6.one-step": _mu_F_too_large,
    "lpproj.lemma7.drift": _grad_F_k_scaled,
    "lpproj.thm9.drift-floor": _two_local_steps,
    "lpproj.thm9.beta-speedup": _sigma_zero,
    "lpproj.thm9.personalised-bound10": _shifted_personal_models,
    "lpproj.thm9.step-rule": _wrong_start,
    "lpproj.thm9.AT-step.erratum": _A_T_undercounted,
    "lpproj.thm9.exp-T.erratum": _A_T_way_off,
}


def test_fails_paths_cover_the_module():
    from fedtheory import get_paper

    ids = {c.id for c in get_paper("lpproj").claims() if c.func.__module__ == M}
    assert ids == set(FAILS_PATHS_THM9)


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS_THM9))
def test_claim_can_fail(claim_id, monkeypatch, serial_uncached):
    from fedtheory import get_claim

    FAILS_PATHS_THM9[claim_id](monkeypatch)
    v = get_claim(claim_id).evaluate(full=False)
    assert v.status == "refuted", v.summary()
    if claim_id.endswith(".erratum"):
        assert v.bound["corrected_holds"] is False and v.referee, v.summary()


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS_THM9))
def test_claim_quick_verdict(claim_id, serial_uncached):
    from fedtheory import get_claim

    v = get_claim(claim_id).evaluate(full=False)
    assert v.status == ("erratum" if claim_id.endswith(".erratum") else "holds"), v.summary()
