"""Appendix B, Lemma B.1 (when to double the participating clients) of Tziotis, Shen, Pedarsani, Hassani and
Mokhtari, *Straggler-Resilient Personalized Federated Learning* (TMLR 2023; arXiv Lemma B.1, eqs. (192)-(206)).

Tests of the catalogue module ``fedtheory_checks.srpfl.lemma_b1``: its helpers against independent computations and
its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS`` injects a violating
computation with monkeypatch and the quick verdict must refute the claim (the rule is ``check_fails_path`` in this
folder's conftest.py)."""
import math

import pytest

S = "fedtheory_checks.srpfl"


def _wrap(monkeypatch, target, make):
    """Replace ``target`` ("module.attr") by ``make(original)``."""
    import importlib

    mod, attr = target.rsplit(".", 1)
    monkeypatch.setattr(target, make(getattr(importlib.import_module(mod), attr)))


def _lemB1(mp):
    # bug: the rounds per stage without the sqrt2 inside the log (the slip of (212))
    _wrap(mp, f"{S}.lemma_b1.stage_rounds",
          lambda orig: lambda r, a, N, n0, lam=1.0: orig(r, a, N, n0, lam) - math.log(2) / math.log(1 / (1 - a)))


FAILS_PATHS = {
    "srpfl.lemB1.switching": _lemB1,
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
