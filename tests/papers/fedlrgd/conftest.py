"""The FedLRGD tests (Jadbabaie, Makur and Shah, IEEE Trans. Inf. Theory 2023): the rule each section file's
fails paths are checked by."""
import pytest

from fedtheory import get_claim


@pytest.fixture
def check_fails_path(monkeypatch, serial_uncached):
    """``check_fails_path(claim_id, path)``: apply the fails path ``path(monkeypatch)`` (a violating computation
    injected into a function the claim calls) and evaluate the claim in quick mode: ``refuted``; the Appendix C
    row is an experiment on the paper's networks, so its linear analogue failing is ``not-reproduced``."""

    def check(claim_id, path):
        path(monkeypatch)
        v = get_claim(claim_id).evaluate(full=False)
        expected = "not-reproduced" if claim_id == "fedlrgd.appC.approximate-rank" else "refuted"
        assert v.status == expected, v.summary()

    return check
