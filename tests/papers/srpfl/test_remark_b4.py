"""Appendix B, Remark B.4 (the method-of-moments initialisation of Algorithm 2, lines 2-3) of Tziotis, Shen,
Pedarsani, Hassani and Mokhtari, *Straggler-Resilient Personalized Federated Learning* (TMLR 2023; arXiv Remark
B.4).

Tests of the catalogue module ``fedtheory_checks.srpfl.remark_b4``: its helpers against independent computations and
its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS`` injects a violating
computation with monkeypatch and the quick verdict must refute the claim (the rule is ``check_fails_path`` in this
folder's conftest.py)."""
import numpy as np
import pytest

import fedtheory_checks.srpfl.remark_b4 as ps
from fedtheory import get_claim
from fedtheory.claims import HOLDS
from fedtheory_checks.srpfl import remark_b4
from fedtheory_checks.srpfl import appendix_a_rounds as _ar

PROOF_STEPS = "fedtheory_checks.srpfl.remark_b4"


@pytest.fixture(autouse=True)
def _fresh_table():
    _ar.exact_round_table.cache_clear()
    yield
    _ar.exact_round_table.cache_clear()


def test_mom_init_dist_validates_and_concentrates():
    with pytest.raises(ValueError, match="d >= k"):
        remark_b4.mom_init_dist(np.random.default_rng(0), 2, 3, 8, 8, 0.5, 2)
    D = remark_b4.mom_init_dist(np.random.default_rng(0), 8, 2, 64, 16, 0.5, 20)
    assert D.shape == (20,) and np.all((D >= 0) & (D < 0.9))


def _f_remb4(mp):  # bug: the bottom-k eigenvectors instead of the top-k
    def bottom(g, d, k, N, m, sigma, reps):
        return np.ones(reps)

    mp.setattr(f"{PROOF_STEPS}.mom_init_dist", bottom)


#: the statuses of the claims on the real numbers (quick mode, seed 0)
REAL = {
    "srpfl.remB4.mom-init": HOLDS,
}


FAILS_PATHS = {
    "srpfl.remB4.mom-init": _f_remb4,
}


@pytest.mark.parametrize("claim_id", sorted(REAL))
def test_real_numbers(claim_id):
    out = get_claim(claim_id).func(full=False, seed=0)
    assert out["status"] == REAL[claim_id], out["evidence"]
    assert out["margin"] is not None and "detects" in out  # decided through the kit


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
