"""Section 3, Algorithm 1 (the SRPFL meta-algorithm) of Tziotis, Shen, Pedarsani, Hassani and Mokhtari,
*Straggler-Resilient Personalized Federated Learning* (TMLR 2023; arXiv: Algorithm 1).

Tests of the catalogue module ``fedtheory_checks.srpfl.alg1``: its helpers against independent computations and its
verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS`` injects a violating
computation with monkeypatch and the quick verdict must refute the claim (the rule is ``check_fails_path`` in this
folder's conftest.py)."""
import pytest

from fedtheory.claims import FAILS, HOLDS
from fedtheory_checks.srpfl import alg1


def test_alg1_fails_paths():
    good = {3: 1e-3, 30: 1e-7, 100: 1e-13}
    assert alg1.decide_alg1(1e-16, good, True)["status"] == HOLDS
    assert alg1.decide_alg1(1e-3, good, True)["status"] == FAILS            # does not reduce to Algorithm 2
    assert alg1.decide_alg1(1e-16, {3: 1e-3, 30: 1e-2, 100: 1e-13}, True)["status"] == FAILS  # not decreasing
    assert alg1.decide_alg1(1e-16, {3: 1e-3, 100: 1e-5}, True)["status"] == FAILS   # GD never gets there
    assert alg1.decide_alg1(1e-16, good, False)["status"] == FAILS          # heads not frozen


def test_alg1_claim_holds():
    from fedtheory import get_claim
    assert get_claim("srpfl.alg1.meta").evaluate(full=False).status == HOLDS


S = "fedtheory_checks.srpfl"


SEC3_FIGS = f"{S}.alg1"


def _wrap(monkeypatch, target, make):
    """Replace ``target`` ("module.attr") by ``make(original)``."""
    import importlib

    mod, attr = target.rsplit(".", 1)
    monkeypatch.setattr(target, make(getattr(importlib.import_module(mod), attr)))


def _alg1(mp):
    # bug: Algorithm 1 takes two local representation steps (tau_phi = 2) where Algorithm 2 takes one
    _wrap(mp, f"{SEC3_FIGS}.run_meta_srpfl", lambda orig: lambda *a, **k: orig(*a, **{**k, "tau_phi": 2}))


FAILS_PATHS = {
    "srpfl.alg1.meta": _alg1,
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
