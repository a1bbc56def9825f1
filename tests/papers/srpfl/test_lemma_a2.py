"""Appendix A, Lemma A.2 and Corollary A.3 of Tziotis, Shen, Pedarsani, Hassani and Mokhtari, *Straggler-Resilient
Personalized Federated Learning* (TMLR 2023; arXiv numbers shifted).

Tests of the catalogue module ``fedtheory_checks.srpfl.lemma_a2``: its helpers against independent computations and
its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS`` injects a violating
computation with monkeypatch and the quick verdict must refute the claim (the rule is ``check_fails_path`` in this
folder's conftest.py)."""
import pytest

import fedtheory_checks.srpfl.lemma_a2 as ps
from fedtheory import get_claim
from fedtheory.claims import ERRATUM
from fedtheory_checks.srpfl import appendix_a_rounds as _ar

PROOF_STEPS = "fedtheory_checks.srpfl.lemma_a2"


@pytest.fixture(autouse=True)
def _fresh_table():
    _ar.exact_round_table.cache_clear()
    yield
    _ar.exact_round_table.cache_clear()


def _f_cor_a3(mp):  # bug: the corrected form evaluated without G
    mp.setattr(f"{PROOF_STEPS}.cor_a3_residuals", lambda *a: (0.5, 0.05))


S = "fedtheory_checks.srpfl"


def _wrap(monkeypatch, target, make):
    """Replace ``target`` ("module.attr") by ``make(original)``."""
    import importlib

    mod, attr = target.rsplit(".", 1)
    monkeypatch.setattr(target, make(getattr(importlib.import_module(mod), attr)))


# ----------------------------------------------------------------------------- Appendix A
def _lemA2(mp):
    # bug: the decomposition uses a stale step size (1% off), so (142) no longer closes; one run
    _wrap(mp, f"{S}.lemma_a2._runs", lambda orig: lambda full, seed, **kw: orig(full, seed, **{**kw, "seeds": 1}))
    _wrap(mp, "fedtheory.srpfl.algorithms.round_decomposition",
          lambda orig: lambda B, X, y, Bs, W, eta, *a: orig(B, X, y, Bs, W, 1.01 * eta, *a))


#: the statuses of the claims on the real numbers (quick mode, seed 0)
REAL = {
    "srpfl.corA3.transpose": ERRATUM,
}


FAILS_PATHS = {
    "srpfl.corA3.transpose": _f_cor_a3,
    "srpfl.lemA2.identities": _lemA2,
}


@pytest.mark.parametrize("claim_id", sorted(REAL))
def test_real_numbers(claim_id):
    out = get_claim(claim_id).func(full=False, seed=0)
    assert out["status"] == REAL[claim_id], out["evidence"]
    assert out["margin"] is not None and "detects" in out  # decided through the kit


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
