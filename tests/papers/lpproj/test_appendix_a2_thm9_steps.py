"""App. A.2, the proof steps (13)-(15) of Theorem 9 (Han, Li, Lin and Zhang, *A Random Projection Approach to
Personalized Federated Learning*, JMLR 25 (2024)).

Tests of the catalogue module ``fedtheory_checks.lpproj.appendix_a2_thm9_steps``: its helpers against independent
computations (brute-force search, closed-form quadratics, exact rationals, subset enumeration) and its verdicts;
and every claim of the section can fail: its entry in ``FAILS_PATHS`` injects a violating computation with monkeypatch
and the quick verdict must refute the claim (the rule is ``check_fails_path`` in this folder's conftest.py)."""

import numpy as np
import pytest

from fedtheory import get_claim

M = "fedtheory_checks.lpproj.appendix_a2_thm9_steps"


# ----------------------------------------------------------------------------- helpers
def test_quadratic_forms_recover_a_quadratic_and_its_sup_ratio():
    from fedtheory_checks.lpproj.appendix_a2_thm9_steps import evaluate_form, quadratic_forms, sup_ratio

    rng = np.random.default_rng(1)
    A = rng.standard_normal((3, 3))
    Q, b, c = A @ A.T + np.eye(3), rng.standard_normal(3), 2.0
    f = lambda e: [e @ Q @ e + b @ e + c, e @ e + 1.0]  # noqa: E731
    M2 = quadratic_forms(f, 3)
    pts = rng.standard_normal((5, 3))
    np.testing.assert_allclose(evaluate_form(M2, pts), np.array([f(p) for p in pts]).T, rtol=1e-12)
    # sup over e of (e^T Q e + b^T e + c)/(|e|^2 + 1): brute force over a fine random search, never above the eigenvalue
    r = sup_ratio(M2[0], M2[1])
    z = rng.standard_normal((200000, 3)) * 10 ** rng.uniform(-2, 2, (200000, 1))
    brute = np.max((np.einsum("pi,ij,pj->p", z, Q, z) + z @ b + c) / (np.sum(z ** 2, 1) + 1))
    assert brute <= r * (1 + 1e-12) and brute >= 0.999 * r


def test_collection_identity_is_exact_and_sensitive():
    from fedtheory_checks.lpproj.appendix_a2_thm9_steps import collection_sides

    rng = np.random.default_rng(3)
    for _ in range(20):
        a, b = collection_sides(rng)
        assert a == b  # exact rationals


def test_lemma8_equality_by_enumeration():
    """(13)'s first step is an equality: the enumeration helper against the finite-population formula."""
    from fedtheory_checks.lpproj.appendix_a2_thm9_steps import _subsets

    a = np.random.default_rng(4).standard_normal((7, 2))
    dev = a - a.mean(0)
    for S in (1, 3, 6):
        lhs = np.mean(np.sum(dev[_subsets(7, S)].mean(1) ** 2, -1))
        assert lhs == pytest.approx((7 / S - 1) / 6 * np.mean(np.sum(dev ** 2, -1)), rel=1e-12)


# ----------------------------------------------------------------------------- every claim can fail
def _biased_sampler(mp):
    # the server only ever samples sets that contain client 0 (not uniform): Lemma 8's equality breaks
    from fedtheory_checks.lpproj import appendix_a2_thm9_steps as mod

    orig = mod._subsets
    mp.setattr(f"{M}._subsets", lambda N, S: np.array([c for c in orig(N, S) if 0 in c]))


def _step_past_the_edge(mp):
    # eta~ = 1.1 beta/(5 L_F): outside the hypothesis of the last step of (14) (896/900 x 1.1 > 1)
    mp.setattr(f"{M}.EQ14_CASES", ((4.0, 3, 1.1),))


def _mu_F_overstated(mp):
    # mu_F read as 10x Proposition 3's value (with the same step): the contraction 1 - eta~ mu_F/2 is overstated
    from fedtheory_checks.lpproj import thm9

    orig = thm9.paper_constants

    def k10(*a, **kw):
        out = orig(*a, **kw)
        return {**out, "mu_F": 10 * out["mu_F"]}

    mp.setattr(thm9, "paper_constants", k10)


FAILS_PATHS = {
    "lpproj.eq13.sampling-chain": _biased_sampler,
    "lpproj.eq14.drift-chain": _step_past_the_edge,
    "lpproj.eq15.recursion": _mu_F_overstated,
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
