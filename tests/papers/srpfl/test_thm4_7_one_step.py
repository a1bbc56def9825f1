"""Section 4.1, Theorem 4.7 (arXiv Theorem 4.5) of Tziotis, Shen, Pedarsani, Hassani and Mokhtari,
*Straggler-Resilient Personalized Federated Learning* (TMLR 2023), round by round on exact FedRep-SRPFL runs.

Tests of the catalogue module ``fedtheory_checks.srpfl.thm4_7_one_step``: its helpers against independent
computations and its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS``
injects a violating computation with monkeypatch and the quick verdict must refute the claim (the rule is
``check_fails_path`` in this folder's conftest.py)."""
import numpy as np
import pytest

from fedtheory.claims import FAILS, HOLDS, INCONCLUSIVE
from fedtheory_checks.srpfl import thm4_7_proof_116_137 as P1
from fedtheory_checks.srpfl import thm4_7_one_step as T1


# ----------------------------------------------------------------------------- one-step contraction, E0
def test_contraction_counts_and_fails_path():
    a = np.full(4, 0.19)  # sqrt(1 - a) = 0.9
    good = np.array([1.0, 0.8, 0.7, 0.6, 0.5])
    bad = np.array([1.0, 0.8, 0.79, 0.6, 0.5])  # 0.79/0.8 > 0.9
    assert T1.contraction_counts(good, a)[:2] == (0, 4)
    assert T1.contraction_counts(bad, a)[:2] == (1, 4)
    assert T1.contraction_counts(np.array([1.0, 1e-12, 1e-12, 1e-12, 1e-12]), a)[1] == 1  # rounding floor
    with pytest.raises(ValueError):
        T1.contraction_counts(good[:-1], a)
    v = T1.run_level_verdict(1, 40, 0.0, what="x", extra={}, desc="d", params={})
    assert v["status"] == FAILS
    assert T1.run_level_verdict(0, 40, 0.0, what="x", extra={}, desc="d", params={})["status"] == HOLDS
    v = T1.run_level_verdict(0, 0, 0.0, what="x", extra={}, desc="d", params={})
    assert v["status"] == INCONCLUSIVE and "would detect" in v["evidence"]


def test_one_step_contraction_claim_holds_on_real_numbers():
    out = T1._one_step(False, 0)
    assert out["status"] == HOLDS, out["evidence"]
    assert out["observed"]["in_regime_runs"] > 0


def test_e0_claim_fails_when_a_run_drifts_up(monkeypatch):
    orig = P1._exact_runs

    def drifting(cfg, runs, seed):
        rows = orig(cfg, runs, seed)
        rows[0]["dist"] = rows[0]["dist"].copy()
        rows[0]["dist"][5] = min(0.999, rows[0]["dist"][0] * 1.5 + 0.01)  # one round worse than the start
        rows[0]["in_regime"] = True
        return rows

    monkeypatch.setattr(P1, "_exact_runs", drifting)
    assert P1._e0(False, 0)["status"] == FAILS


S = "fedtheory_checks.srpfl"


LEMMAS = f"{S}.thm4_7_one_step"


def _wrap(monkeypatch, target, make):
    """Replace ``target`` ("module.attr") by ``make(original)``."""
    import importlib

    mod, attr = target.rsplit(".", 1)
    monkeypatch.setattr(target, make(getattr(importlib.import_module(mod), attr)))


# ----------------------------------------------------------------------------- Theorem 4.7 along the trajectory
def _one_step(mp):
    # bug: a_t = eta E0 sigma_min^2 / 2 computed with eta = 1/max ||w_i*||^2 (the 1/8 of the step size forgotten),
    # so the claimed per-round contraction sqrt(1 - a_t) is far faster than the runs' (a_t 8 times too large)
    def make(orig):
        def batch(seed, *, cfg, runs):
            out = orig(seed, cfg=cfg, runs=runs)
            return {**out, "a": 8 * out["a"]}
        return batch

    _wrap(mp, f"{LEMMAS}.exact_batch", make)


FAILS_PATHS = {
    "srpfl.thm4.7.one-step-contraction": _one_step,
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
