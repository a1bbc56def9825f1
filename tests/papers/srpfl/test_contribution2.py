"""Section 1, Contribution 2 (sample complexity) of Tziotis, Shen, Pedarsani, Hassani and Mokhtari,
*Straggler-Resilient Personalized Federated Learning* (TMLR 2023; arXiv: Sec. 1, contribution 2).

Tests of the catalogue module ``fedtheory_checks.srpfl.contribution2``: its helpers against independent computations
and its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS`` injects a
violating computation with monkeypatch and the quick verdict must refute the claim (the rule is ``check_fails_path``
in this folder's conftest.py)."""
import math

import numpy as np
import pytest

from fedtheory.claims import FAILS, HOLDS, INCONCLUSIVE
from fedtheory_checks.srpfl import contribution2

S = "fedtheory_checks.srpfl"


SEC3_FIGS = f"{S}.contribution2"


# ----------------------------------------------------------------------------- Contribution 2
def _contrib2(mp):
    # violating numbers (no runs): the small-n0 runs never reach the target while the large-n0 and N/4 runs always
    # do (the runs follow d/n0), on the claim's paired replicates
    class _Res:
        def __init__(self, ok, R):
            self._t = np.full(R, 1.0 if ok else math.inf)

        def time_to(self, target):
            return self._t

    def fake(*, M, N, n0, replicates, **kw):
        return _Res(not (N == 32 and n0 == 2), replicates)

    mp.setattr(f"{SEC3_FIGS}.run_srpfl", fake)


def test_sample_complexity_fails_paths():
    ones, zeros = np.ones(64), np.zeros(64)
    few = np.r_[np.ones(2), np.zeros(62)]
    assert contribution2.decide_sample_complexity(few, ones, zeros)["status"] == FAILS   # small n0 needs more: d/n0
    assert contribution2.decide_sample_complexity(ones, ones, few)["status"] == HOLDS    # n0 irrelevant, N matters: d/N
    v = contribution2.decide_sample_complexity(np.ones(8), np.ones(8), np.r_[np.ones(5), np.zeros(3)])
    assert v["status"] == INCONCLUSIVE and v["power"]["needed"] > 8 and "untied pairs" in v["power"]["unit"]


FAILS_PATHS = {
    "srpfl.contrib2.sample-complexity": _contrib2,
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path, monkeypatch):
    from fedtheory import get_claim

    claim = get_claim(claim_id)
    if claim.full_only is None:
        check_fails_path(claim_id, FAILS_PATHS[claim_id])
        return
    # a full-mode-only claim: quick mode does not run it, so its fails path is evaluated in full mode (no runs)
    assert claim.evaluate(full=False).status == "not-run"
    FAILS_PATHS[claim_id](monkeypatch)
    v = claim.evaluate(full=True)
    assert v.status == "refuted", v.summary()
