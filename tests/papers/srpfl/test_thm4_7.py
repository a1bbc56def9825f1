"""Section 4.1, Theorem 4.7 (arXiv Theorem 4.5) of Tziotis, Shen, Pedarsani, Hassani and Mokhtari,
*Straggler-Resilient Personalized Federated Learning* (TMLR 2023), with Corollary A.11 (198) and the target (12).

Tests of the catalogue module ``fedtheory_checks.srpfl.thm4_7``: its helpers against independent computations and
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


def _stepsize(mp):
    # bug: the diversity constants computed from W*_I instead of W*_I / sqrt(n)
    _wrap(mp, f"{S}.thm4_7.client_diversity", lambda orig: lambda W, n, **k: orig(W * math.sqrt(n), n, **k))


def _contraction(mp):
    # bug: the bound of (10) without its additive term a / sqrt((n/n0)(1-a)); one run at m = 120
    mp.setattr(f"{S}.thm4_7.CONTRACTION_GRID", {False: ((120,), 1), True: ((120,), 1)})
    mp.setattr(f"{S}.thm4_7.contraction_bound", lambda dist, a, r: np.asarray(dist) * np.sqrt(1 - np.asarray(a)))


def _noise_floor(mp):
    # bug: the floor D without the (1 - a) under the square root
    mp.setattr(f"{S}.thm4_7.noise_floor",
               lambda a, r: np.asarray(a) / (np.sqrt(np.asarray(r, float)) * (1 - np.sqrt(1 - np.asarray(a)))))


def _floor_pred(mp):
    # bug: the noiseless runs silently use the default noise level (sigma dropped); one run
    _wrap(mp, f"{S}.thm4_7._runs",
          lambda orig: lambda full, seed, **kw: orig(full, seed, **{**kw, "sigma": 0.5, "seeds": 1}))


FAILS_PATHS = {
    "srpfl.thm4.7.stepsize": _stepsize,
    "srpfl.thm4.7.contraction": _contraction,
    "srpfl.corA11.noise-floor": _noise_floor,
    "srpfl.thm4.7.floor-not-prediction": _floor_pred,
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])


def test_c0_readings_threshold_and_c0_one():
    # the m condition is linear in c0: a violating run with m/m_0(c0=1) = 0.02 is in the regime for every c0 <= 0.02,
    # so the claim holds on these runs exactly for c0 > 0.02; at c0 = 1 only runs with m >= m_0(1) count
    from fedtheory_checks.srpfl.thm4_7 import c0_readings

    rows = [dict(m=30, m0_1=1500.0, violations=2), dict(m=60, m0_1=6000.0, violations=1),
            dict(m=120, m0_1=100.0, violations=0)]
    out = c0_readings(rows)
    assert out["c0_star"] == pytest.approx(0.02) and out["in_regime_at_c0_1"] == 1
    assert out["smallest_m0_at_c0_1"] == 100.0 and "every c0 > 0.02" in out["c0_readings"]
    assert c0_readings([dict(m=30, m0_1=1e4, violations=0)])["c0_star"] == 0.0
