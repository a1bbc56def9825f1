"""Section 4.1, Remark 4.8 (fairness towards clients that never participate) of Tziotis, Shen, Pedarsani, Hassani
and Mokhtari, *Straggler-Resilient Personalized Federated Learning* (TMLR 2023; absent from the arXiv version).

Tests of the catalogue module ``fedtheory_checks.srpfl.remark4_8``: its helpers against independent computations and
its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS`` injects a violating
computation with monkeypatch and the quick verdict must refute the claim (the rule is ``check_fails_path`` in this
folder's conftest.py)."""
import numpy as np
import pytest

from fedtheory.claims import FAILS, HOLDS
from fedtheory_checks.srpfl import remark4_8

S = "fedtheory_checks.srpfl"


SEC3_FIGS = f"{S}.remark4_8"


def _wrap(monkeypatch, target, make):
    """Replace ``target`` ("module.attr") by ``make(original)``."""
    import importlib

    mod, attr = target.rsplit(".", 1)
    monkeypatch.setattr(target, make(getattr(importlib.import_module(mod), attr)))


def _fairness(mp):
    # bug: the misspecified-OLS closed form called with the noise variance where it takes the std (sigma^2 for
    # sigma): its noise term sigma^2 k/(m_new-k-1) shrinks 4-fold and the Monte Carlo head fits (the referee)
    # reject it
    _wrap(mp, f"{SEC3_FIGS}.head_excess_risk", lambda orig: lambda B, theta, m_new, sigma: orig(B, theta, m_new, sigma ** 2))


def test_fairness_fails_paths():
    g = np.random.default_rng(0)
    small = 0.005 + 0.002 * g.standard_normal(20)
    ok_ref = 1e-4 * g.standard_normal(20)
    assert remark4_8.decide_fairness(small, small / 5, ok_ref)["status"] == HOLDS
    assert remark4_8.decide_fairness(0.2 + small, small / 5, ok_ref)["status"] == FAILS      # loses 20% vs the oracle
    assert remark4_8.decide_fairness(small, 0.2 + small, ok_ref)["status"] == FAILS          # unfair vs participants
    assert remark4_8.decide_fairness(small, small / 5, 0.01 + ok_ref)["status"] == FAILS     # referee disagrees
    v = remark4_8.decide_fairness(small, small / 5, ok_ref)
    assert v["margin"] is not None and v["detects"] is not None                       # decided by the kit


FAILS_PATHS = {
    "srpfl.rem4.8.fairness": _fairness,
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
