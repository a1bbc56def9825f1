"""Appendix B, Lemma B.2 (the expected wall-clock time of SRPFL) of Tziotis, Shen, Pedarsani, Hassani and Mokhtari,
*Straggler-Resilient Personalized Federated Learning* (TMLR 2023; arXiv Lemma B.2, eqs. (209)-(220)), with the order
statistics of exponential times its proof uses.

Tests of the catalogue module ``fedtheory_checks.srpfl.lemma_b2``: its helpers against independent computations and
its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS`` injects a violating
computation with monkeypatch and the quick verdict must refute the claim (the rule is ``check_fails_path`` in this
folder's conftest.py)."""
import math

import numpy as np
import pytest

S = "fedtheory_checks.srpfl"


def _wrap(monkeypatch, target, make):
    """Replace ``target`` ("module.attr") by ``make(original)``."""
    import importlib

    mod, attr = target.rsplit(".", 1)
    monkeypatch.setattr(target, make(getattr(importlib.import_module(mod), attr)))


# ----------------------------------------------------------------------------- Appendix B
def _off_by_one(orig):
    return lambda j, N, lam=1.0: orig(np.maximum(np.asarray(j) - 1, 1), N, lam)


def _ordstat(mp):
    # bug: E[T_(j:N)] computed as the (j-1)-th order statistic
    _wrap(mp, f"{S}.lemma_b2.expected_order_statistic", _off_by_one)


def _ord_bounds(mp):
    # bug: harmonic numbers replaced by their asymptotic approximation ln n + gamma
    mp.setattr(f"{S}.lemma_b2.harmonic", lambda n: np.log(np.maximum(np.asarray(n, float), 1)) + 0.5772156649)


def _eq224(mp):
    # a wrong correction (1/6.25 instead of 1/7): the Monte Carlo referee rejects it
    mp.setattr(f"{S}.lemma_b2.EQ224_CORRECTED", 1 / 6.25)
    mp.setattr(f"{S}.lemma_b2.EQ224_REPS", {False: 2000, True: 2000})


def _lemB2(mp):
    # bug: the bound (217) without its log N factor (on the first 12 grid points)
    _wrap(mp, f"{S}.lemma_b2._grid", lambda orig: lambda: orig()[:12])
    _wrap(mp, f"{S}.lemma_b2.lemma_b2_bound", lambda orig: lambda N, *a, **k: orig(N, *a, **k) / math.log(N))


FAILS_PATHS = {
    "srpfl.ordstat.mean": _ordstat,
    "srpfl.eq221-228.ordstat-bounds": _ord_bounds,
    "srpfl.eq224.erratum": _eq224,
    "srpfl.lemB2.upper-bound": _lemB2,
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
