"""Sec. 6.1 (block-diagonal projection): the storage and time of a block-diagonal P (erratum) (Han, Li, Lin and
Zhang, *A Random Projection Approach to Personalized Federated Learning*, JMLR 25 (2024)).

Tests of the catalogue module ``fedtheory_checks.lpproj.sec61_block_diagonal``: its helpers against independent
computations and its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS``
injects a violating computation with monkeypatch and the quick verdict must refute the claim (the rule is
``check_fails_path`` in this folder's conftest.py)."""
import pytest

from fedtheory import get_claim
from fedtheory.lpproj import make_projection

REMAINING = "fedtheory_checks.lpproj.sec61_block_diagonal"


def _block_diagonal_dense(mp):
    # the "block-diagonal" projection filled in everywhere: storage no longer d_sub d / k
    mp.setattr(f"{REMAINING}.block_diagonal_projection",
               lambda d_sub, d, k, *, seed=0: make_projection(d_sub, d, orthonormal=False, seed=seed))


FAILS_PATHS = {
    "lpproj.sec61.block-diagonal-cost.erratum": _block_diagonal_dense,
}


#: quick-mode verdicts of the unpatched claims (lpproj.sec53.savings: the 79x matches no ratio of Table 1, no typo-level fix)
QUICK_VERDICTS = {
    "lpproj.sec61.block-diagonal-cost.erratum": "erratum",
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])


@pytest.mark.parametrize("claim_id", sorted(QUICK_VERDICTS))
def test_claim_quick_verdict(claim_id, serial_uncached):
    v = get_claim(claim_id).evaluate(full=False)
    assert v.status == QUICK_VERDICTS[claim_id], v.summary()
