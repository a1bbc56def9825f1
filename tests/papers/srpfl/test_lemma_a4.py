"""Appendix A, Lemma A.4 and its proof of Tziotis, Shen, Pedarsani, Hassani and Mokhtari, *Straggler-Resilient
Personalized Federated Learning* (TMLR 2023; arXiv Lemma A.4, eqs. (26)-(32)).

Tests of the catalogue module ``fedtheory_checks.srpfl.lemma_a4``: its helpers against independent computations and
its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS`` injects a violating
computation with monkeypatch and the quick verdict must refute the claim (the rule is ``check_fails_path`` in this
folder's conftest.py)."""
import math

import numpy as np
import pytest

import fedtheory_checks.srpfl.lemma_a4 as ps
from fedtheory import get_claim
from fedtheory.claims import ERRATUM
from fedtheory.representation import make_heads
from fedtheory_checks.srpfl import lemma_a2
from fedtheory_checks.srpfl import lemma_a4
from fedtheory_checks.srpfl import appendix_a_rounds as _ar

PROOF_STEPS = "fedtheory_checks.srpfl.lemma_a4"


@pytest.fixture(autouse=True)
def _fresh_table():
    _ar.exact_round_table.cache_clear()
    yield
    _ar.exact_round_table.cache_clear()


def test_cor_a3_and_eq32_referees():
    g = np.random.default_rng(5)
    for d, k in ((3, 3), (8, 3)):
        Bs, B = (np.linalg.qr(g.standard_normal((d, k)))[0] for _ in range(2))
        W = make_heads(g, 6, k, "sqrt_k")
        X = g.standard_normal((6, 20, d))
        Y = np.einsum("nmd,nd->nm", X, W @ Bs.T) + 0.5 * g.standard_normal((6, 20))
        printed, corrected = lemma_a2.cor_a3_residuals(X, Y, B, Bs, W)
        assert corrected < 1e-12 and printed > 1e-3
        assert (printed == math.inf) == (d != k)
    r = lemma_a4.eq32_check()
    assert r["corrected_symbolic_difference"] == "0" and r["printed_symbolic_difference"] != "0"
    assert r["eq33_fails_at"] == [(1, 2)]


def _f_eq32(mp):  # bug: the referee expands -k(12k sqrt(L) + 1)^2 (sign slip)
    orig = ps.eq32_check
    mp.setattr(f"{PROOF_STEPS}.eq32_check", lambda: {**orig(), "corrected_symbolic_difference": "-48*k**2*sqrt(L)",
                                           "corrected_max_grid_difference": 48.0})


S = "fedtheory_checks.srpfl"


def _wrap(monkeypatch, target, make):
    """Replace ``target`` ("module.attr") by ``make(original)``."""
    import importlib

    mod, attr = target.rsplit(".", 1)
    monkeypatch.setattr(target, make(getattr(importlib.import_module(mod), attr)))


def _lemA4(mp):
    # bug: the Wishart matrix built from m/16 samples instead of m
    _wrap(mp, f"{S}.lemma_a4._wishart_min_eig", lambda orig: lambda g, reps, n, m, k: orig(g, reps, n, m // 16, k))


#: the statuses of the claims on the real numbers (quick mode, seed 0)
REAL = {
    "srpfl.eq32-33.expansion": ERRATUM,
}


FAILS_PATHS = {
    "srpfl.eq32-33.expansion": _f_eq32,
    "srpfl.lemA4.concentration": _lemA4,
}


@pytest.mark.parametrize("claim_id", sorted(REAL))
def test_real_numbers(claim_id):
    out = get_claim(claim_id).func(full=False, seed=0)
    assert out["status"] == REAL[claim_id], out["evidence"]
    assert out["margin"] is not None and "detects" in out  # decided through the kit


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
