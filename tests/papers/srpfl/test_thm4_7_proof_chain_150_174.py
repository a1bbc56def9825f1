"""Appendix A, proof of Theorem 4.7, the chain (150)-(174) of Tziotis, Shen, Pedarsani, Hassani and Mokhtari,
*Straggler-Resilient Personalized Federated Learning* (TMLR 2023).

Tests of the catalogue module ``fedtheory_checks.srpfl.thm4_7_proof_chain_150_174``: its helpers, its verdicts on
the real numbers, and every claim can fail (``FAILS_PATHS``, the rule ``check_fails_path`` of this folder's
conftest.py)."""
import math

import numpy as np
import pytest

import fedtheory_checks.srpfl.thm4_7_proof_chain_107_139 as ch
import fedtheory_checks.srpfl.thm4_7_proof_chain_150_174 as cb
from fedtheory import get_claim
from fedtheory.claims import ERRATUM, HOLDS

MOD = "fedtheory_checks.srpfl.thm4_7_proof_chain_107_139"


@pytest.fixture(autouse=True)
def _fresh_table():
    ch.chain_round_table.cache_clear()
    yield
    ch.chain_round_table.cache_clear()


def test_eq153_sides_fail_exactly_below_the_closed_form_threshold():
    for k in (1, 2, 3, 4, 9):
        d = np.linspace(0, 1, 1001)
        lo, hp, hc = cb.eq153_sides(d, k)
        assert np.array_equal(lo > hp, d * k + math.sqrt(k) < 2)
        assert np.all(lo <= hc + 1e-12)


def test_delta_hat_107_is_the_largest_admissible():
    T = {"E0": np.array([0.75]), "kappa": 2.0, "sigma": np.array([1.0])}
    assert cb.delta_hat_107(T)[0] == pytest.approx(0.75 / (20 * 4 * 2))


REAL = {"srpfl.eq150-151.max-split": ERRATUM, "srpfl.eq152-153.E5-step": ERRATUM,
        "srpfl.eq154-168.trace-identities": HOLDS, "srpfl.eq163-171.trace-bounds": HOLDS,
        "srpfl.eq172-173.cross-term": ERRATUM}


def _patch_table(mp, edit):
    orig = ch.chain_round_table.__wrapped__

    def patched(full, seed):
        T = dict(orig(full, seed))
        edit(T)
        return T

    mp.setattr(f"{MOD}.chain_round_table", patched)


def _f151(mp):  # bug: the second maximum of (151) taken over a stale p, below the true one
    _patch_table(mp, lambda T: T.update(R1_split2=T["R1_split2"] - 0.5 * np.abs(T["R1_trig"]) - 1e-3))


def _f153(mp):  # bug: ||S1/n|| computed without the 1/n, then divided by n twice
    _patch_table(mp, lambda T: T.update(S1n=T["S1n"] * 1e-3))


def _f154(mp):  # bug: one term of (161) dropped
    _patch_table(mp, lambda T: T.update(t161=T["t161"] + 1e-6 * T["ident_scale"]))


def _f163(mp):  # bug: T2 + T3 from the unsymmetrised form counted three times
    _patch_table(mp, lambda T: T.update(T23max=T["T23max"] * 3))


def _f172(mp):  # bug: sigma_max,* over the participants of one stage only, far below the true one
    _patch_table(mp, lambda T: T.update(smax_star=0.5 * T["smax_star"]))


FAILS_PATHS = {"srpfl.eq150-151.max-split": _f151, "srpfl.eq152-153.E5-step": _f153,
               "srpfl.eq154-168.trace-identities": _f154, "srpfl.eq163-171.trace-bounds": _f163,
               "srpfl.eq172-173.cross-term": _f172}


@pytest.mark.parametrize("claim_id", sorted(REAL))
def test_real_numbers(claim_id):
    out = get_claim(claim_id).func(full=False, seed=0)
    assert out["status"] == REAL[claim_id], out["evidence"]
    assert out["margin"] is not None and "detects" in out


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
