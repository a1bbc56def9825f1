"""The lp-proj tests (Han, Li, Lin and Zhang, JMLR 2024): the rule each section file's fails paths are checked
by."""
import pytest

from fedtheory import get_claim


@pytest.fixture
def check_fails_path(monkeypatch, serial_uncached):
    """``check_fails_path(claim_id, path)``: apply the fails path ``path(monkeypatch)`` (a violating computation
    injected into a function the claim calls) and evaluate the claim in quick mode: ``refuted``; for an erratum
    the corrected form is what the referee refutes (``corrected_holds`` is False and the referee is named)."""

    def check(claim_id, path):
        path(monkeypatch)
        v = get_claim(claim_id).evaluate(full=False)
        assert v.status == "refuted", v.summary()
        if claim_id.endswith(".erratum"):  # the corrected form is what the referee refutes
            assert v.bound["corrected_holds"] is False and v.referee, v.summary()

    return check
