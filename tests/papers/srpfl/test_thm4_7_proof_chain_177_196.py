"""Appendix A, proof of Theorem 4.7, the chain (177)-(196) of Tziotis, Shen, Pedarsani, Hassani and Mokhtari,
*Straggler-Resilient Personalized Federated Learning* (TMLR 2023).

Tests of the catalogue module ``fedtheory_checks.srpfl.thm4_7_proof_chain_177_196``: its helpers, its verdicts on
the real numbers, and every claim can fail (``FAILS_PATHS``, the rule ``check_fails_path`` of this folder's
conftest.py)."""
import math

import numpy as np
import pytest

import fedtheory_checks.srpfl.thm4_7_proof_chain_107_139 as ch
import fedtheory_checks.srpfl.thm4_7_proof_chain_177_196 as cc
from fedtheory import get_claim
from fedtheory.claims import ERRATUM, HOLDS

MOD = "fedtheory_checks.srpfl.thm4_7_proof_chain_107_139"


@pytest.fixture(autouse=True)
def _fresh_table():
    ch.chain_round_table.cache_clear()
    yield
    ch.chain_round_table.cache_clear()


def test_r2_factors_worst_case_is_k1_x_one_twentieth():
    f1, f2 = cc.r2_factors(1.0, 0.05)
    assert f1 == pytest.approx(2 * 1.0525 * 1.05) and f2 == pytest.approx(2 * 2.05 ** 2 * 1.05)
    g1, g2 = cc.r2_factors(np.logspace(0, 3, 50), 0.05)
    assert np.all(g1 <= f1 + 1e-12) and np.all(g2 <= f2 + 1e-12) and f2 < 9


def test_eq192_threshold_is_where_the_sides_meet():
    k, eta = 2, 1 / 16
    thr = 6 * k / (14 * k ** 1.5 - 9 * eta * k ** 1.5 - 3 * math.sqrt(k))
    lhs, hp, hc = cc.eq192_sides(k, eta, np.sqrt([thr * 0.99, thr, thr * 1.01]))
    assert lhs[0] > hp[0] and lhs[1] == pytest.approx(hp[1]) and lhs[2] < hp[2] and np.all(lhs <= hc)


def test_assembly_slacks_hold_at_the_side_condition_and_fail_beyond():
    sl = cc.assembly_slacks(1.0, 0.0, 1.0, 0.2)
    assert all(float(s) >= 0 for s in sl)
    # beyond the side condition (t 100x larger) step (iii) fails: recompute by hand
    a, k, t = 0.2, 1.0, 100 * 0.2 / 150
    assert math.sqrt(1 / 4) * a - (math.sqrt(k) + 1) * t < 0


def test_c0_needed_196_is_bounded_only_with_the_square():
    e1, l1 = cc.c0_needed_196(1)
    e2, l2 = cc.c0_needed_196(2)
    assert not l1.is_finite and l2.is_finite


REAL = {"srpfl.eq177-184.R2-links": HOLDS, "srpfl.eq186-188.R3-links": ERRATUM,
        "srpfl.eq191-192.sigma-free-term": ERRATUM, "srpfl.eq194-196.assembly": ERRATUM}


def _patch_table(mp, edit):
    orig = ch.chain_round_table.__wrapped__

    def patched(full, seed):
        T = dict(orig(full, seed))
        edit(T)
        return T

    mp.setattr(f"{MOD}.chain_round_table", patched)


def _f177(mp):  # bug: R2 with a stale E, off by 1e-3
    _patch_table(mp, lambda T: T.update(R2_trig=T["R2_trig"] + 1e-3))


def _f186(mp):  # bug: the trigonometric maximum over an unnormalised p
    _patch_table(mp, lambda T: T.update(R3_trig=T["R3_trig"] * 1.01))


def _f191(mp):  # bug: the step size read as 2 instead of 1/(8k)
    _patch_table(mp, lambda T: T.update(eta=2.0))


def _f194(mp):  # bug: ||(R+)^{-1}|| from sigma_min of the input B_hat scaled by 1.5
    _patch_table(mp, lambda T: T.update(Rinv=T["Rinv"] * 1.5))


FAILS_PATHS = {"srpfl.eq177-184.R2-links": _f177, "srpfl.eq186-188.R3-links": _f186,
               "srpfl.eq191-192.sigma-free-term": _f191, "srpfl.eq194-196.assembly": _f194}


@pytest.mark.parametrize("claim_id", sorted(REAL))
def test_real_numbers(claim_id):
    out = get_claim(claim_id).func(full=False, seed=0)
    assert out["status"] == REAL[claim_id], out["evidence"]
    assert out["margin"] is not None and "detects" in out


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
