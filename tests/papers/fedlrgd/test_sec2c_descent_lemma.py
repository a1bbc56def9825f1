"""Sec. II-C of Jadbabaie, Makur and Shah (2023), *Federated Optimization of Smooth Loss Functions*, IEEE Trans.
Inf. Theory: the descent lemma (13) of gradient descent under the smoothness (4), on the Appendix A risk. Verdicts
come from ``fedtheory.decide``.

Tests of the catalogue module ``fedtheory_checks.fedlrgd.sec2c_descent_lemma``: its helpers against independent
computations and its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS``
injects a violating computation with monkeypatch and the quick verdict must refute the claim (the rule is
``check_fails_path`` in this folder's conftest.py)."""
import pytest

REMAINING = "fedtheory_checks.fedlrgd.sec2c_descent_lemma"


def _orig(path):
    mod, name = path.rsplit(".", 1)
    return getattr(__import__(mod, fromlist=[name]), name)


def _patch(monkeypatch, path, make):
    """monkeypatch ``path`` with ``make(original)``."""
    monkeypatch.setattr(path, make(_orig(path)))


def _descent_big_step(mp):  # GD step 10/L1 instead of 1/L1
    _patch(mp, REMAINING + "._descent_gaps", lambda f: lambda pb, th, L1: f(pb, th, L1 / 10))


FAILS_PATHS = {
    "fedlrgd.eq13.descent-lemma": _descent_big_step,
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
