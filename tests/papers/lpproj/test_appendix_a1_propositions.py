"""App. A.1, Propositions 20, 22 and 23 on the paper's instances (Han, Li, Lin and Zhang, *A Random Projection Approach
to Personalized Federated Learning*, JMLR 25 (2024)).

Tests of the catalogue module ``fedtheory_checks.lpproj.appendix_a1_propositions``: its helpers against independent
computations (closed-form conjugates, exact moments of the sphere marginal) and its verdicts; and every claim of the
section can fail: its entry in ``FAILS_PATHS`` injects a violating computation with monkeypatch and the quick verdict
must refute the claim (the rule is ``check_fails_path`` in this folder's conftest.py)."""
import math

import numpy as np
import pytest

from fedtheory import get_claim

M = "fedtheory_checks.lpproj.appendix_a1_propositions"


# ----------------------------------------------------------------------------- helpers
def test_conjugate_of_a_quadratic_matches_its_closed_form():
    from fedtheory_checks.lpproj.appendix_a1_propositions import Quadratic, biconjugate, conjugate

    rng = np.random.default_rng(0)
    A = rng.standard_normal((4, 4))
    f = Quadratic(A @ A.T + np.eye(4), rng.standard_normal(4), 0.7)
    u = rng.standard_normal((10, 4)) * 5
    val, x = conjugate(f, u)
    Hinv = np.linalg.inv(f.H)
    closed = 0.5 * np.einsum("pi,ij,pj->p", u + f.h, Hinv, u + f.h) - f.c  # f*(u) = (u+h)^T H^-1 (u+h)/2 - c
    np.testing.assert_allclose(val, closed, rtol=1e-12)
    np.testing.assert_allclose(x, (u + f.h) @ Hinv, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(biconjugate(f, u), f.value(u), rtol=1e-10)


def test_logistic_conjugate_by_a_generic_optimiser():
    from scipy.optimize import minimize

    from fedtheory_checks.lpproj.appendix_a1_propositions import LogisticRidge, conjugate

    rng = np.random.default_rng(1)
    Xi = rng.standard_normal((30, 5))
    f = LogisticRidge(Xi, np.sign(rng.standard_normal(30)), 0.3)
    u = rng.standard_normal((3, 5))
    val, _ = conjugate(f, u)
    for i in range(3):
        r = minimize(lambda x: f.value(x) - u[i] @ x, np.zeros(5), jac=lambda x: f.grad(x) - u[i], method="BFGS",
                     options={"gtol": 1e-12})
        assert val[i] == pytest.approx(-r.fun, rel=1e-9)


def test_sphere_marginal_psi2_limits():
    from fedtheory_checks.lpproj.appendix_a1_propositions import sphere_marginal_psi2

    assert sphere_marginal_psi2(1) == pytest.approx(1.0, rel=1e-12)  # X = +-1
    assert sphere_marginal_psi2(3) == pytest.approx(math.sqrt(3) / 2, rel=1e-9)  # X = sqrt(3) U, U uniform: E|X|
    assert sphere_marginal_psi2(10 ** 6) == pytest.approx(math.sqrt(2 / math.pi), rel=1e-5)  # Gaussian limit


def test_prop20_forms_are_those_of_the_hessian():
    from fedtheory.random import spawn_seeds
    from fedtheory_checks.lpproj._common import make_clients
    from fedtheory_checks.lpproj.appendix_a1_propositions import prop20_forms

    cl = make_clients(spawn_seeds(0, 1)[0])
    H = cl.hessian_F_k(1.0)
    Q, lin = prop20_forms(cl, 1.0, cl.w_star(1.0) + 0.3)
    np.testing.assert_allclose(Q[0], H @ H, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(Q[1], H / 2, rtol=1e-9, atol=1e-12)
    assert lin < 1e-10


# ----------------------------------------------------------------------------- every claim can fail
def _prop3_constants_too_good(mp):
    # Proposition 3's constants replaced by L_F/3 and 3 mu_F: both inequalities of Proposition 20 fail
    from fedtheory.lpproj.stochastic import LeastSquaresClients

    orig = LeastSquaresClients.prop3_constants
    mp.setattr(LeastSquaresClients, "prop3_constants", lambda self, lam, mu=None: (
        3 * orig(self, lam, mu)[0], orig(self, lam, mu)[1] / 3))


def _logistic_smoothness_understated(mp):
    # the logistic-ridge f read as rho-smooth (L = mu): its conjugate is not 1/rho-strongly convex
    from fedtheory_checks.lpproj import appendix_a1_propositions as mod

    orig = mod.LogisticRidge.__init__

    def init(self, *a, **k):
        orig(self, *a, **k)
        self.L = self.mu

    mp.setattr(mod.LogisticRidge, "__init__", init)


def _columns_normalised(mp):
    # P normalised by columns instead of rows: the rows of sqrt(d) P are not of norm sqrt(d)
    from fedtheory.random import as_generator

    def bad(d_sub, d, *, orthonormal=True, seed=0):
        P = as_generator(seed).standard_normal((d_sub, d))
        return P / np.linalg.norm(P, axis=0, keepdims=True)

    mp.setattr(f"{M}.make_projection", bad)


FAILS_PATHS = {
    "lpproj.prop20.nesterov-instances": _prop3_constants_too_good,
    "lpproj.prop22.conjugate-instances": _logistic_smoothness_understated,
    "lpproj.prop23.vershynin-constants": _columns_normalised,
}

#: quick-mode verdicts of the unpatched claims
QUICK_VERDICTS = {cid: "holds" for cid in FAILS_PATHS}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])


@pytest.mark.parametrize("claim_id", sorted(QUICK_VERDICTS))
def test_claim_quick_verdict(claim_id, serial_uncached):
    v = get_claim(claim_id).evaluate(full=False)
    assert v.status == QUICK_VERDICTS[claim_id], v.summary()
