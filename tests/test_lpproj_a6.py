"""the A6 (low-dimensional) setting of lp-proj (Han et al. 2024): Proposition 10, Lemmas 11, 12
and 26, eq. (11), Theorem 13. Unit tests of fedtheory.lpproj.a6 against independent computations (brute-force
d-dimensional minimisation, finite differences, explicit per-sample gradients, the shared runner), its bad-input
errors, and a fails path for every claim of checks/lpproj/a6_smooth.py."""
import math

import numpy as np
import pytest

from fedtheory import get_claim
from fedtheory.lpproj import a6 as A6
from fedtheory.lpproj import make_projection

M = "fedtheory_checks.lpproj.a6_smooth"


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


# ----------------------------------------------------------------------------- fails paths
def _wrap(monkeypatch, target, make):
    mod, _, name = target.rpartition(".")
    import importlib

    orig = getattr(importlib.import_module(mod), name)
    monkeypatch.setattr(target, make(orig))


def _fresh_caches(mp):
    mp.setattr(M + "._THM13_CACHE", {})
    mp.setattr(M + "._EQ11_CACHE", {})


def _u_hat_lam_slip(mp):
    # the prox point solved with lam/2 for lam: grad F_k no longer matches finite differences of F_k
    orig = A6.A6Clients.u_hat
    mp.setattr(A6.A6Clients, "u_hat", lambda self, w, lam, per_client=False: orig(self, w, lam / 2, per_client))


def _delta2_lam_twice(mp):
    # delta_2^2 divided by lam^2 once more (the 1/lam^2 of Lemma 11's left side applied twice)
    _wrap(mp, "fedtheory.lpproj.a6.delta2_sq", lambda orig: lambda g, b, nu, lam, L, s: orig(g, b, nu, lam, L, s) / lam ** 2)


def _sigma_F2_inverted(mp):
    # sigma_F2^2 = sigma_f^2 (lam^2 - 10 L^2)/lam^2: the factor inverted
    mp.setattr("fedtheory.lpproj.a6.sigma_F2_sq", lambda sf, lam, L: sf * (lam ** 2 - 10 * L ** 2) / lam ** 2)


def _lemma26_lam_dropped(mp):
    # Lemma 26's right side with delta_2^2 where lam^2 delta_2^2 is meant
    mp.setattr("fedtheory.lpproj.a6.lemma26_rhs",
               lambda lam, d2, e, beta, g: 2 * d2 + 4 * lam ** 2 * e ** 2 / beta ** 2 * (7 * g + 10 * d2))


def _local_steps_uphill(mp):
    # the local step taken with the wrong sign (w~ <- w~ + eta g): the messages move uphill
    _fresh_caches(mp)

    def make(orig):
        def run(*a, **k):
            res = orig(*a, **k)
            w0 = res["w_local"][:, :, 0]
            res["w_R"] = 2 * w0 - res["w_R"]
            return res
        return run
    _wrap(mp, M + "._run", make)


def _g_t_summed_over_r(mp):
    # g_t summed over the R local steps instead of averaged (E||g_t||^2 scaled by R^2)
    _fresh_caches(mp)

    def make(orig):
        def enum(cl, lam, w_t, res, beta, S):
            EF, Eg2, samp, subsets = orig(cl, lam, w_t, res, beta, S)
            return EF, Eg2 * res["g"].shape[2] ** 2, samp, subsets
        return enum
    _wrap(mp, M + "._enumerate_round", make)


def _sampling_term_eta_cubed(mp):
    # the corrected last term of (11) with eta~^3 for eta~^2: then it cannot cover the sampling variance
    _wrap(mp, "fedtheory.lpproj.a6.eq11_rhs", lambda orig: lambda e, LF, g, dr, sa: orig(e, LF, g, dr, np.asarray(sa) * e))


def _prox_drops_lam_w(mp):
    # u_hat = (A_k + lam I)^{-1} a_k: the lam w~ term of the prox point dropped, so grad F_k is wrong
    _fresh_caches(mp)
    orig = A6.A6Clients.u_hat

    def u_hat(self, w, lam, per_client=False):
        return orig(self, np.zeros_like(np.asarray(w, float)), lam, per_client)
    mp.setattr(A6.A6Clients, "u_hat", u_hat)


def _personalised_lam4(mp):
    # the personalised bound divided by lam^2 (units slip: lam^4 in the denominators)
    _fresh_caches(mp)
    _wrap(mp, "fedtheory.lpproj.a6.personalised_bound_13",
          lambda orig: lambda g, lam, L, d2, sF: np.asarray(orig(g, lam, L, d2, sF)) / lam ** 2)


FAILS_PATHS_A6 = {
    "lpproj.prop10.a6-smoothness": _u_hat_lam_slip,
    "lpproj.lemma11.delta2": _delta2_lam_twice,
    "lpproj.lemma12.diversity": _sigma_F2_inverted,
    "lpproj.lemma26.drift": _lemma26_lam_dropped,
    "lpproj.eq11.one-step": _local_steps_uphill,
    "lpproj.eq19.gt-bound": _g_t_summed_over_r,
    "lpproj.eq11.erratum": _sampling_term_eta_cubed,
    "lpproj.thm13.bound20": _prox_drops_lam_w,
    "lpproj.thm13.personalised": _personalised_lam4,
}


def test_every_a6_claim_has_a_fails_path():
    from fedtheory import get_paper

    ours = {c.id for c in get_paper("lpproj").claims() if c.func.__module__ == M}
    assert ours == set(FAILS_PATHS_A6)


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS_A6))
def test_a6_claim_can_fail(claim_id, monkeypatch, serial_uncached):
    FAILS_PATHS_A6[claim_id](monkeypatch)
    v = get_claim(claim_id).evaluate(full=False)
    assert v.status == "refuted", v.summary()
    if claim_id.endswith(".erratum"):
        assert v.bound["corrected_holds"] is False and v.referee, v.summary()
