"""The FedRep tests (Collins, Hassani, Mokhtari and Shakkottai, ICML 2021): the rule each section file's fails
paths are checked by."""
import pytest

from fedtheory import get_claim

#: claims about an experiment of the paper: a violation in the linear analogue is ``not-reproduced``
NOT_REPRODUCED = {"fedrep.fig3.ordering", "fedrep.fig3.ordering-paper-steps", "fedrep.sec5.gd-n-scaling",
                  "fedrep.benefit1.local-updates"}


@pytest.fixture
def check_fails_path(monkeypatch, serial_uncached):
    """``check_fails_path(claim_id, path)``: apply the fails path ``path(monkeypatch)`` (a violating computation
    injected into a function the claim calls) and evaluate the claim in quick mode: ``refuted``
    (``not-reproduced`` for an experiment of the paper, :data:`NOT_REPRODUCED`, with the analogue named),
    decided through :mod:`fedtheory.decide` (margin and detection statement present)."""

    def check(claim_id, path):
        path(monkeypatch)
        v = get_claim(claim_id).evaluate(full=False)
        assert v.status == ("not-reproduced" if claim_id in NOT_REPRODUCED else "refuted"), v.summary()
        assert v.margin is not None and v.detects is not None  # decided through fedtheory.decide
        if v.status == "not-reproduced":
            assert v.analogue

    return check
