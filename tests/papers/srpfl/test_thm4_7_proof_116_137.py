"""Appendix A, proof of Theorem 4.7 (arXiv Theorem 4.5), eqs. (116)-(137) of Tziotis, Shen, Pedarsani, Hassani and
Mokhtari, *Straggler-Resilient Personalized Federated Learning* (TMLR 2023; arXiv (114)-(135)): the bound
dist(B_hat+, B*) <= (A1 + A2 + A3) ||(R+)^{-1}|| and the terms A1, A2.

Tests of the catalogue module ``fedtheory_checks.srpfl.thm4_7_proof_116_137``: its helpers against independent
computations and its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS``
injects a violating computation with monkeypatch and the quick verdict must refute the claim (the rule is
``check_fails_path`` in this folder's conftest.py)."""
import functools
import math

import numpy as np
import pytest

import fedtheory_checks.srpfl.thm4_7_proof_116_137 as ps
from fedtheory import get_claim
from fedtheory.claims import ERRATUM, HOLDS
from fedtheory_checks.srpfl import thm4_7_proof_116_137 as P1
from fedtheory_checks.srpfl import appendix_a_rounds as _ar

PROOF_STEPS = "fedtheory_checks.srpfl.thm4_7_proof_116_137"


@pytest.fixture(autouse=True)
def _fresh_table():
    _ar.exact_round_table.cache_clear()
    yield
    _ar.exact_round_table.cache_clear()


# ----------------------------------------------------------------------------- fails paths
def _patch_table(mp, edit):
    orig = _ar.exact_round_table.__wrapped__

    def patched(full, seed):
        T = dict(orig(full, seed))
        edit(T)
        return T

    mp.setattr("fedtheory_checks.srpfl.appendix_a_rounds.exact_round_table", patched)


def _f_wplus(mp):  # bug: heads not divided by sqrt(n) somewhere upstream: ||W+||^2 n times too large
    _patch_table(mp, lambda T: T.update(Wp_norm2=T["Wp_norm2"] * T["n"] * 10))


def _f_a1(mp):  # bug: A1 without its dist factor
    _patch_table(mp, lambda T: T.update(A1=T["A1"] / T["dist"]))


def _f_a2(mp):  # bug: the noise entering as sqrt(sigma): even the corrected sigma-form fails
    _patch_table(mp, lambda T: T.update(A2=T["A2"] / np.sqrt(np.where(T["sigma"] > 0, T["sigma"], 1))))


def _eq116(mp):
    # bug: the server skips the QR step, so B_hat is not orthonormal (precondition of (116))
    import fedtheory.srpfl._engine as alg
    from fedtheory_checks.srpfl._common import _ROUND_FUNCS

    for name in _ROUND_FUNCS:
        if callable(getattr(alg, name, None)):
            mp.setattr(alg, name, functools.partial(getattr(alg, name), orthonormalize_B=False))


S = "fedtheory_checks.srpfl"


LEMMAS = f"{S}.thm4_7_proof_116_137"


def _e0(mp):
    # bug: sigma_min^2(B*^T B_hat^t) taken as dist_t^2 (sine instead of cosine of the largest principal angle)
    def margin(dist):
        dist = np.asarray(dist, float)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.log(dist[1:] ** 2 / (1 - dist[0] ** 2))

    mp.setattr(f"{LEMMAS}.e0_margin", margin)


def test_e0_margin_fails_path():
    mg = P1.e0_margin(np.array([0.5, 0.4, 0.6, 0.3]))  # dist rises above dist_0 at t = 2
    assert mg[0] > 0 and mg[1] < 0 and mg[2] > 0
    assert mg[1] == pytest.approx(math.log((1 - 0.36) / 0.75))


#: the statuses of the claims on the real numbers (quick mode, seed 0)
REAL = {
    "srpfl.eq121-125.wplus-norm": HOLDS,
    "srpfl.eq136.A1": HOLDS,
    "srpfl.eq137.A2-sigma": ERRATUM,
}


FAILS_PATHS = {
    "srpfl.eq121-125.wplus-norm": _f_wplus,
    "srpfl.eq136.A1": _f_a1,
    "srpfl.eq137.A2-sigma": _f_a2,
    "srpfl.eq116.inequality": _eq116,
    "srpfl.thm4.7.E0-trajectory": _e0,
}


@pytest.mark.parametrize("claim_id", sorted(REAL))
def test_real_numbers(claim_id):
    out = get_claim(claim_id).func(full=False, seed=0)
    assert out["status"] == REAL[claim_id], out["evidence"]
    assert out["margin"] is not None and "detects" in out  # decided through the kit


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
