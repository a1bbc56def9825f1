"""The SRPFL tests (Tziotis, Shen, Pedarsani, Hassani and Mokhtari, TMLR 2023): one file per catalogue module
(checks/srpfl/<module>.py -> test_<module>.py), and the rule each section file's fails paths are checked by."""
import pytest

from fedtheory import get_claim

#: the App. C experiments (deep networks in the paper) are checked on a linear analogue: against them, the
#: analogue does not reproduce the statement
EMPIRICAL = {"srpfl.fig7.homogeneous", "srpfl.fig8.imbalanced", "srpfl.fig8.stragglers-means", "srpfl.fig8.correlated"}


@pytest.fixture
def check_fails_path(monkeypatch, serial_uncached):
    """``check_fails_path(claim_id, path)``: apply the fails path ``path(monkeypatch)`` (a violating computation
    injected into a function the claim calls) and evaluate the claim in quick mode: ``refuted``; an App. C
    experiment (:data:`EMPIRICAL`) is ``not-reproduced`` on its linear analogue instead."""

    def check(claim_id, path):
        path(monkeypatch)
        v = get_claim(claim_id).evaluate(full=False)
        if claim_id in EMPIRICAL:
            assert v.status == "not-reproduced" and "linear model" in v.analogue, v.summary()
        else:
            assert v.status == "refuted", v.summary()

    return check
