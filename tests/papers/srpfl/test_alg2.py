"""Section 4, Algorithm 2 (FedRep-SRPFL for linear representations) of Tziotis, Shen, Pedarsani, Hassani and
Mokhtari, *Straggler-Resilient Personalized Federated Learning* (TMLR 2023; arXiv Algorithm 2).

Tests of the catalogue module ``fedtheory_checks.srpfl.alg2``: its helpers against independent computations and its
verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS`` injects a violating
computation with monkeypatch and the quick verdict must refute the claim (the rule is ``check_fails_path`` in this
folder's conftest.py)."""
import pytest

S = "fedtheory_checks.srpfl"


def _wrap(monkeypatch, target, make):
    """Replace ``target`` ("module.attr") by ``make(original)``."""
    import importlib

    mod, attr = target.rsplit(".", 1)
    monkeypatch.setattr(target, make(getattr(importlib.import_module(mod), attr)))


# ----------------------------------------------------------------------------- Algorithm 2, Theorem 4.7
def _line16(mp):
    # bug: the run ignores `carry` and always hands the pre-QR average to the next stage, so the
    # corrected form (carry the QR factor) fails the referee (orthonormality on the exact run)
    _wrap(mp, f"{S}.alg2.run_srpfl", lambda orig: lambda **kw: orig(**{**kw, "carry": "pre_qr"}))


FAILS_PATHS = {
    "srpfl.alg2.line16": _line16,
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
