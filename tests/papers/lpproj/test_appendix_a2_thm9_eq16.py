"""App. A.2, the weighted telescoped bound (16) of the proof of Theorem 9 (Han, Li, Lin and Zhang, *A Random
Projection Approach to Personalized Federated Learning*, JMLR 25 (2024)).

Tests of the catalogue module ``fedtheory_checks.lpproj.appendix_a2_thm9_eq16``: the exact moment recursion against a
brute-force enumeration of subset sequences, the weights of (16) against direct summation, and the verdict; and the
claim can fail: its entry in ``FAILS_PATHS`` injects a violating computation with monkeypatch and the quick verdict must
refute the claim (the rule is ``check_fails_path`` in this folder's conftest.py)."""
import itertools
import math

import numpy as np
import pytest

from fedtheory import get_claim

M = "fedtheory_checks.lpproj.appendix_a2_thm9_eq16"


# ----------------------------------------------------------------------------- helpers
def test_error_moments_match_enumeration_of_subset_sequences():
    from fedtheory_checks.lpproj.appendix_a2_thm9_eq16 import error_moments

    rng = np.random.default_rng(2)
    A, b, e0 = rng.standard_normal((4, 2, 2)) * 0.5, rng.standard_normal((4, 2)), rng.standard_normal(2)
    m, V = error_moments(A, b, e0, 3)
    es = []
    for seq in itertools.product(range(4), repeat=3):  # every sequence of sampled sets, equally likely
        e = e0
        for i in seq:
            e = A[i] @ e + b[i]
        es.append(e)
    es = np.array(es)
    np.testing.assert_allclose(m[3], es.mean(0), rtol=1e-12)
    np.testing.assert_allclose(V[3], es.T @ es / len(es), rtol=1e-12)


def test_eq16_sides_use_the_paper_weights():
    """With V = 0 after t = 0 the weighted gap is the t = 0 term alone: alpha_0/A_T by direct summation."""
    from fedtheory.random import spawn_seeds
    from fedtheory_checks.lpproj._common import LAM, make_clients
    from fedtheory_checks.lpproj.appendix_a2_thm9_eq16 import eq16_sides
    from fedtheory_checks.lpproj.thm9 import paper_constants

    cl = make_clients(spawn_seeds(0, 1)[0])
    k = paper_constants(cl, LAM, beta=4.0, S=2)
    T, eta_t = 50, k["eta_hat"]
    V = np.zeros((T + 1, cl.d_sub, cl.d_sub))
    V[0] = np.eye(cl.d_sub)
    o = eq16_sides(cl, LAM, k, V, eta_t=eta_t, T=T, beta=4.0)
    q = 1 - eta_t * k["mu_F"] / 2
    alpha = q ** -(np.arange(T) + 1.0)
    gap0 = 0.5 * np.trace(cl.hessian_F_k(LAM).mean(0))
    assert o["wgap"] == pytest.approx(alpha[0] / alpha.sum() * gap0, rel=1e-12)
    rest = eta_t ** 2 * k["C3"] / 16 + eta_t * k["C2"] + k["C1"]
    assert o["tel_rhs"] == pytest.approx(cl.d_sub / (eta_t * alpha.sum()) + rest, rel=1e-12)
    assert o["rhs16"] == pytest.approx(k["mu_F"] * math.exp(-eta_t * k["mu_F"] * T / 2) * k["Delta0"] + rest, rel=1e-12)


# ----------------------------------------------------------------------------- the claim can fail
def _moments_from_the_optimum(mp):
    # the exact moment recursion starts at w~_0 = w~* instead of the runs' w~_0 = 0: the Monte Carlo referee disagrees
    from fedtheory_checks.lpproj import appendix_a2_thm9_eq16 as mod

    orig = mod.error_moments
    mp.setattr(f"{M}.error_moments", lambda A, b, e0, T: orig(A, b, 0 * e0, T))


FAILS_PATHS = {
    "lpproj.eq16.telescoped": _moments_from_the_optimum,
}

#: quick-mode verdicts of the unpatched claims
QUICK_VERDICTS = {"lpproj.eq16.telescoped": "holds"}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])


@pytest.mark.parametrize("claim_id", sorted(QUICK_VERDICTS))
def test_claim_quick_verdict(claim_id, serial_uncached):
    v = get_claim(claim_id).evaluate(full=False)
    assert v.status == QUICK_VERDICTS[claim_id], v.summary()
