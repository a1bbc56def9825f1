"""Tests of :mod:`fedtheory.lpproj.a6`: the A6 (low-dimensional) setting of lp-proj (Han et al. 2024, Sec. 4.1.2):
F_k against brute-force minimisation, gradients and Hessians against finite differences, L_s, gamma_f^2 and
sigma_F^2 against explicit computations, the reduced runner, the closed forms of Proposition 10, Lemmas 11, 12 and
26 and Theorem 13's step rule, and the parameter messages."""
import math

import numpy as np
import pytest

from fedtheory.lpproj import make_projection
from fedtheory.lpproj import a6 as A6


def _small(seed=0, N=3, d=30, d_sub=2, indefinite=False):
    rng = np.random.default_rng(seed)
    P = make_projection(d_sub, d, orthonormal=False, seed=rng)
    B = rng.standard_normal((N, d_sub, d_sub))
    A = (B + np.swapaxes(B, 1, 2)) / 2
    if not indefinite:
        A = B @ np.swapaxes(B, 1, 2) / d_sub
    return A6.a6_quadratics(P, A, rng.standard_normal((N, d_sub)))


# ----------------------------------------------------------------------------- exact quantities
def test_F_k_matches_bruteforce_minimisation_over_R_d():
    cl = _small(1)
    lam = 4.5 * cl.L
    w = np.array([0.7, -1.1])
    P = cl.P
    for k in range(cl.N):
        # minimise f_k(x) + lam/2 ||w - P x||^2 over all of R^d (singular Hessian: least-norm solution)
        H = P.T @ (cl.A[k] + lam * np.eye(2)) @ P
        x = np.linalg.lstsq(H, P.T @ (cl.a[k] + lam * w), rcond=None)[0]
        Px = P @ x
        val = 0.5 * Px @ cl.A[k] @ Px - cl.a[k] @ Px + lam / 2 * np.sum((w - Px) ** 2)
        assert cl.F_k(w, lam)[k] == pytest.approx(val, rel=1e-9, abs=1e-12)
        assert np.allclose(cl.u_hat(w, lam)[k], Px, atol=1e-9)


def test_gradient_and_hessian_match_finite_differences_indefinite():
    cl = _small(2, indefinite=True)
    lam = 4.2 * cl.L
    w = np.array([0.3, 0.4])
    h = 1e-6
    fd = np.stack([(cl.F_k(w + h * e, lam) - cl.F_k(w - h * e, lam)) / (2 * h) for e in np.eye(2)], -1)
    assert np.allclose(fd, cl.grad_F_k(w, lam), rtol=1e-6, atol=1e-7)
    h2 = 1e-3
    fdH = np.stack([(cl.grad_F_k(w + h2 * e, lam) - cl.grad_F_k(w - h2 * e, lam)) / (2 * h2) for e in np.eye(2)], -1)
    assert np.allclose(fdH, cl.hess_F_k(lam), atol=1e-8)
    assert np.max(np.abs(np.linalg.eigvalsh(cl.hess_F_k(lam)))) <= lam  # Proposition 10


def test_L_s_and_inner_hessian_against_dense_d_by_d():
    cl = _small(3, d=25, indefinite=True)
    Hs = cl.P.T @ cl.A @ cl.P                               # (N, d, d) dense
    assert cl.L == pytest.approx(float(np.max(np.abs(np.linalg.eigvalsh(Hs)))), rel=1e-10)
    sv = np.linalg.svd(cl.P, compute_uv=False)
    assert cl.s == pytest.approx(max(sv[0] - 1, 1 - sv[-1]), abs=1e-12)
    lam = 4.5 * cl.L
    # y-Hessian of f_k(P^T y) + lam/2 ||w - P P^T y||^2, by second differences of that function
    y0 = np.array([0.2, -0.5])
    k = 0

    def phi(y):
        x = cl.P.T @ y
        Px = cl.P @ x
        return 0.5 * Px @ cl.A[k] @ Px - cl.a[k] @ Px + lam / 2 * np.sum((0.3 - Px) ** 2)

    e, h = np.eye(2), 1e-3
    Hfd = np.array([[(phi(y0 + h * e[i] + h * e[j]) - phi(y0 + h * e[i] - h * e[j]) - phi(y0 - h * e[i] + h * e[j])
                      + phi(y0 - h * e[i] - h * e[j])) / (4 * h * h) for j in range(2)] for i in range(2)])
    assert np.allclose(Hfd, cl.inner_y_hessian(lam)[k], rtol=1e-6, atol=1e-6)
    if cl.s < A6.S_MAX:
        assert np.linalg.eigvalsh(cl.inner_y_hessian(lam))[:, 0].min() >= A6.inner_strong_convexity(lam, cl.L, cl.s)


def test_gamma_f_sq_against_explicit_per_sample_gradients():
    cl = A6.make_a6_least_squares(N=3, n=12, d=40, d_sub=2, seed=4)
    u = np.random.default_rng(0).standard_normal((3, 2))
    got = cl.gamma_f_sq(u)
    for k in range(3):
        x = np.linalg.lstsq(cl.P, u[k], rcond=None)[0]        # any x with P x = u
        Xi = cl.C[k] @ cl.P                                   # (n, d) data vectors in row(P)
        gi = Xi * (Xi @ x - cl.Y[k])[:, None]
        assert got[k] == pytest.approx(float(np.mean(np.sum((gi - gi.mean(0)) ** 2, 1))), rel=1e-9)


def test_sigma_f_sq_is_the_sup_of_the_diversity():
    cl = A6.make_a6_least_squares(N=4, n=20, d=50, d_sub=2, seed=5)
    assert cl.shared_hessian
    rng = np.random.default_rng(1)
    Xi = cl.C @ cl.P
    for _ in range(5):
        x = rng.standard_normal(50) * 10
        g = np.einsum("knd,kn->kd", Xi, np.einsum("knd,d->kn", Xi, x) - cl.Y) / 20
        assert float(np.mean(np.sum((g - g.mean(0)) ** 2, 1))) == pytest.approx(cl.sigma_f_sq, rel=1e-9)
    het = A6.make_a6_least_squares(N=4, n=20, d=50, d_sub=2, shared_design=False, seed=5)
    assert het.sigma_f_sq == math.inf


def test_w_star_is_stationary():
    cl = A6.make_a6_least_squares(N=5, n=20, d=60, d_sub=3, seed=6)
    lam = 5 * cl.L
    assert np.allclose(cl.grad_F(cl.w_star(lam), lam), 0, atol=1e-12)


def test_reduced_runner_clients_equal_full_d_and_the_runner_agrees():
    from fedtheory.lpproj.stochastic import run_algorithm1_sgd

    cl = A6.make_a6_least_squares(N=4, n=15, d=200, d_sub=2, seed=7)
    lam = 4.5 * cl.L
    red, full = A6.to_stochastic_clients(cl), A6.to_stochastic_clients(cl, reduce=False)
    assert red.s == pytest.approx(cl.s, abs=1e-12)
    w = np.array([[0.4, -0.3], [1.0, 2.0]])
    assert np.allclose(red.F(w, lam), cl.F(w, lam), rtol=1e-11)
    assert np.allclose(full.grad_F_k(w, lam), cl.grad_F_k(w, lam), rtol=1e-9, atol=1e-12)
    kw = dict(T=3, R=2, S=2, beta=2.0, eta=0.02, batch=3, nu=1e-3, w0=np.array([1.0, -1.0]), replicates=20, seed=3,
              record=True)
    r1, r2 = run_algorithm1_sgd(red, lam, **kw), run_algorithm1_sgd(full, lam, **kw)
    assert np.allclose(r1.history, r2.history, atol=1e-12)
    # exact full-batch GD on F when R = 1, exact solves, S = N: w_{t+1} = w_t - eta grad F(w_t)
    r = run_algorithm1_sgd(red, lam, T=4, R=1, eta=0.1, w0=np.array([1.0, -1.0]))
    w = np.array([1.0, -1.0])
    for _ in range(4):
        w = w - 0.1 * cl.grad_F(w, lam)
    assert np.allclose(r.history[0, -1], w, atol=1e-12)


# ----------------------------------------------------------------------------- closed forms
def test_closed_forms_values_and_broadcasting():
    lam, L, s = np.array([5.0, 6.0]), 1.0, 0.01
    m = (1 - s) ** 4 * lam - (1 + s) ** 2 * L
    assert np.allclose(A6.inner_strong_convexity(lam, L, s), m)
    d2 = A6.delta2_sq([0.5, 1.0], 4, 1e-2, lam, L, s)
    assert np.allclose(d2, 2 * (1 + s) ** 6 * (np.array([0.5, 1.0]) / 4 + 1e-2) / m ** 2)
    assert A6.sigma_F2_sq(2.0, 5.0, 1.0) == pytest.approx(25 * 2 / 15)
    assert A6.eta_hat_2(3.0) == pytest.approx(1 / (90 * 9 * 3))
    k = A6.theorem13_constants(lam=5.0, L=1.0, s=0.0, sigma_f_sq=2.0, delta2_sq=0.1, N=6, S=6)
    sF = 25 * 2 / 15
    assert k.C5 == 0 and k.C6 == pytest.approx(2 * 25 * 0.1)
    assert k.C4 == pytest.approx(4 * 25 * (21 * sF + 10 * 25 * 0.1))
    assert "C4=" in k.summary()
    k2 = A6.theorem13_constants(lam=5.0, L=1.0, s=0.0, sigma_f_sq=2.0, delta2_sq=0.1, N=6, S=3)
    assert k2.C5 == pytest.approx(5 * 5 * sF * (2 - 1) / 5)
    assert A6.eq20_rhs(1.0, 1e-3, 10, 2.0, 4.0, 3.0, 0.5) == pytest.approx(1 / 1e-2 + 1e-6 * 4 / 4 + 3e-3 + 0.5)
    assert np.shape(A6.eq20_rhs(np.ones(3), 1e-3, 10, 1.0, 1, 1, 1)) == (3,)
    assert A6.eq11_rhs(0.1, 1.0, 2.0, 1.0, 0.5) == pytest.approx(-0.1 * 0.7 / 2 * 2 + 0.1 * 1.3 / 2 + 0.03 / 2 * 0.5)
    assert A6.personalised_bound_13(1.0, 5.0, 1.0, 0.1, 2.0) == pytest.approx(2 / 15 + 0.2 + 12 / 25)
    assert A6.lemma26_rhs(5.0, 0.1, 0.04, 1.0, 2.0) == pytest.approx(2 * 25 * 0.1 + 4 * 25 * 0.04 ** 2 * (14 + 25))


def test_theorem13_step_rule_cases():
    lam = 5.0
    eh = A6.eta_hat_2(lam)
    # case 2 (eta_hat_2 small against both candidates): eta_hat_2
    assert A6.theorem13_step(1.0, 100, 1.0, 1.0, 1.0, lam) == eh
    # case 1: huge T makes a candidate smaller than eta_hat_2; the rule takes the smaller candidate
    T = 1e15
    a, b = (1.0 / (T * 10.0)) ** (1 / 3), (1.0 / (T * 2.0)) ** 0.5
    assert A6.theorem13_step(1.0, T, 1.0, 10.0, 2.0, lam) == pytest.approx(min(a, b))
    assert min(a, b) <= eh
    assert A6.theorem13_step(1.0, T, 1.0, 10.0, 0.0, lam) == pytest.approx(a)   # C5 = 0 (S = N)


# ----------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("result", A6.A6_RESULTS)
def test_regime_rejects_large_s(result):
    with pytest.raises(ValueError, match=r"`s` must be in \[0, 1/30\)"):
        A6.check_a6_regime(1 / 30, 10.0, 1.0, result)


@pytest.mark.parametrize("result, lam, text", [("proposition10", 4.0, "lam > 4L"), ("lemma11", 3.9, "lam > 4L"),
                                               ("lemma12", 3.16, r"lam > sqrt\(10\) L"),
                                               ("theorem13", 3.99, r"lam >= max\(sqrt\(10 L\^2 \+ 1\), 4L\)"),
                                               ("theorem13", 0.9, r"lam >= max")])
def test_regime_rejects_small_lam(result, lam, text):
    L = 1.0 if lam > 1 else 0.01
    with pytest.raises(ValueError, match=r"`lam` must satisfy " + text):
        A6.check_a6_regime(0.0, lam, L, result)
    A6.check_a6_regime(0.0, 4.2 if L == 1.0 else 1.01, L, result)


def test_bad_inputs_name_the_parameter():
    with pytest.raises(ValueError, match="`s`"):
        A6.delta2_sq(1.0, 4, 0.0, 5.0, 1.0, 0.05)
    with pytest.raises(ValueError, match="`lam`"):
        A6.delta2_sq(1.0, 4, 0.0, 3.0, 1.0, 0.0)
    with pytest.raises(ValueError, match="`nu`"):
        A6.delta2_sq(1.0, 4, -1.0, 5.0, 1.0, 0.0)
    with pytest.raises(ValueError, match="`batch`"):
        A6.delta2_sq(1.0, 0, 0.0, 5.0, 1.0, 0.0)
    with pytest.raises(ValueError, match="`gamma_f_sq` must be finite"):
        A6.delta2_sq(np.nan, 4, 0.0, 5.0, 1.0, 0.0)
    with pytest.raises(ValueError, match="`lam`"):
        A6.sigma_F2_sq(1.0, 3.0, 1.0)
    with pytest.raises(ValueError, match="`lam`"):
        A6.theorem13_constants(lam=3.9, L=1.0, s=0.0, sigma_f_sq=1.0, delta2_sq=0.1, N=4, S=2)
    with pytest.raises(ValueError, match="`s`"):
        A6.theorem13_constants(lam=5.0, L=1.0, s=0.04, sigma_f_sq=1.0, delta2_sq=0.1, N=4, S=2)
    with pytest.raises(ValueError, match="`S`"):
        A6.theorem13_constants(lam=5.0, L=1.0, s=0.0, sigma_f_sq=1.0, delta2_sq=0.1, N=4, S=5)
    with pytest.raises(ValueError, match="`eta_tilde`"):
        A6.check_theorem13_steps(0.0, 5.0, 1.0, 1.1 * A6.eta_hat_2(5.0), 1.0)
    with pytest.raises(ValueError, match="`beta`"):
        A6.check_theorem13_steps(0.0, 5.0, 1.0, 1e-5, 0.5)
    with pytest.raises(ValueError, match="`s`"):
        A6.check_theorem13_steps(0.05, 5.0, 1.0, 1e-5, 1.0)
    with pytest.raises(ValueError, match="`eta_tilde`"):
        A6.lemma26_rhs(5.0, 0.1, 0.1, 1.0, 1.0)             # eta~ > beta/(5 lam)
    with pytest.raises(ValueError, match="`beta`"):
        A6.eq20_rhs(1.0, 1e-3, 10, 0.5, 1, 1, 1)
    with pytest.raises(ValueError, match="`Delta_F`"):
        A6.theorem13_step(0.0, 10, 1.0, 1.0, 1.0, 5.0)
    with pytest.raises(ValueError, match="`d_sub`"):
        A6.make_a6_least_squares(d=3, d_sub=4)
    with pytest.raises(ValueError, match="`heterogeneity`"):
        A6.make_a6_least_squares(heterogeneity=-1.0)
    with pytest.raises(ValueError, match="`A` must hold symmetric"):
        A6.a6_quadratics(np.eye(2, 5), np.array([[[1.0, 2.0], [0.0, 1.0]]]), np.zeros((1, 2)))
    with pytest.raises(ValueError, match="`P` must have full row rank"):
        A6.a6_quadratics(np.zeros((2, 5)), np.eye(2)[None], np.zeros((1, 2)))
    with pytest.raises(ValueError, match="`gamma_f_sq` needs sample data"):
        _small().gamma_f_sq(np.zeros((3, 2)))
    with pytest.raises(ValueError, match="`w` must have shape"):
        _small().grad_F_k(np.zeros(3), 5.0)
    with pytest.raises(TypeError, match="`clients`"):
        A6.to_stochastic_clients("no")


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
