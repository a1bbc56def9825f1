"""Sec. 5.3 (communication efficiency): the text's numbers recomputed from Table 1 (rows of Table 5) (Han, Li, Lin
and Zhang, *A Random Projection Approach to Personalized Federated Learning*, JMLR 25 (2024)).

Tests of the catalogue module ``fedtheory_checks.lpproj.sec53_communication``: its helpers against independent
computations and its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS``
injects a violating computation with monkeypatch and the quick verdict must refute the claim (the rule is
``check_fails_path`` in this folder's conftest.py)."""
import pytest

from fedtheory import get_claim


#: the Sec. 5.3 / App. C.7.1 table-text claims (moved out of remaining.py)
TABLES = "fedtheory_checks.lpproj.sec53_communication"


def _ratio_inverted(mp):
    # saving factors computed upside down (lp-proj bytes over the competitor's)
    mp.setattr(f"{TABLES}._ratio", lambda a, b: b / a)


FAILS_PATHS = {
    "lpproj.sec53.savings": _ratio_inverted,
    "lpproj.table1.byte-accounting": _ratio_inverted,
}


#: quick-mode verdicts of the unpatched claims (lpproj.sec53.savings: the 79x matches no ratio of Table 1, no typo-level fix)
QUICK_VERDICTS = {
    "lpproj.sec53.savings": "refuted",
    "lpproj.table1.byte-accounting": "holds",
}


#: claims whose outcome or kind changed in the re-grade: id -> (quick outcome, root cause or "")
RELABELS = {
    "lpproj.sec53.savings": ("refuted", "sec53-79x-no-ratio"),
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])


@pytest.mark.parametrize("claim_id", sorted(QUICK_VERDICTS))
def test_claim_quick_verdict(claim_id, serial_uncached):
    v = get_claim(claim_id).evaluate(full=False)
    assert v.status == QUICK_VERDICTS[claim_id], v.summary()


@pytest.mark.parametrize("cid", sorted(RELABELS))
def test_relabel_pinned(cid, serial_uncached):
    outcome, rc = RELABELS[cid]
    if cid == "lpproj.thm30.bullets":
        from fedtheory_checks.lpproj import thm30_losses

        mp = pytest.MonkeyPatch()
        mp.setattr(thm30_losses, "BULLETS_DRAWS", (150, 150))
    try:
        v = get_claim(cid).evaluate(full=False)
    finally:
        if cid == "lpproj.thm30.bullets":
            mp.undo()
    assert v.status == outcome, v.summary()
    assert v.root_cause == rc
    assert v.margin is not None and v.detects is not None
