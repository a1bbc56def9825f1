"""Section 4.1, Theorem 4.9 (arXiv Theorem 4.6) of Tziotis, Shen, Pedarsani, Hassani and Mokhtari,
*Straggler-Resilient Personalized Federated Learning* (TMLR 2023): the wall-clock speedup of SRPFL over FedRep, with
the wall-clock model of Section 4.1 and the linear analogue of the experiments of Section 5 (Figures 3-6).

Tests of the catalogue module ``fedtheory_checks.srpfl.thm4_9``: its helpers against independent computations and
its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS`` injects a violating
computation with monkeypatch and the quick verdict must refute the claim (the rule is ``check_fails_path`` in this
folder's conftest.py)."""
import numpy as np
import pytest

from fedtheory.claims import FAILS, HOLDS, REFUTED

S = "fedtheory_checks.srpfl"


def _mod(name):
    import importlib

    return importlib.import_module(f"{S}.{name}")


def test_per_round_decision():
    thm = _mod("thm4_9")
    times = np.array([0.1, 0.2, 0.5, 0.9])
    sizes = np.array([1, 2, 4, 4])
    good = thm.per_round_check(times[sizes - 1] + 1.0, np.full(4, 1.9), times, sizes, 1.0)
    assert thm.per_round_decision(good)["status"] == HOLDS
    # violating numbers: SRPFL charged the slowest participant in a non-final stage
    bad = thm.per_round_check(np.r_[1.9, times[sizes[1:] - 1] + 1.0], np.full(4, 1.9), times, sizes, 1.0)
    assert thm.per_round_decision(bad)["status"] == REFUTED


def test_per_round_claim_holds_and_is_a_consistency_check():
    out = _mod("thm4_9")._per_round(False, 0)
    assert out["status"] == HOLDS, out["evidence"]
    from fedtheory import get_claim

    # n_r-th smallest < largest of one draw: true by construction, not evidence for the paper
    assert get_claim("srpfl.thm4.9.per-round-time").kind == "consistency"


def _fp_per_round(mp):  # bug: SRPFL charged the slowest of all N clients in every round (FedRep's time)
    thm = _mod("thm4_9")
    orig = thm.per_round_check
    mp.setattr(thm, "per_round_check", lambda srpfl, fedrep, times, sizes, c: orig(fedrep, fedrep, times, sizes, c))


def _fp_eq225(mp):  # violating numbers: (226) reported at half of (225)
    B = _mod("lemma_b2_phases")
    orig = B.phase1_terms
    mp.setattr(B, "phase1_terms", lambda N, a, c, n0=4: {**orig(N, a, c, n0), "eq226": 0.5 * orig(N, a, c, n0)["eq225"]})


def test_per_round_and_eq225_claims_fail_on_their_paths(monkeypatch):
    _fp_per_round(monkeypatch)
    assert _mod("thm4_9")._per_round(False, 0)["status"] == FAILS
    _fp_eq225(monkeypatch)
    assert _mod("lemma_b2_phases")._eq225_226(False, 0)["status"] == FAILS


def _wrap(monkeypatch, target, make):
    """Replace ``target`` ("module.attr") by ``make(original)``."""
    import importlib

    mod, attr = target.rsplit(".", 1)
    monkeypatch.setattr(target, make(getattr(importlib.import_module(mod), attr)))


# ----------------------------------------------------------------------------- Theorem 4.9
def _thm49_ratio(mp):
    # bug: the FedRep baseline computed with SRPFL's schedule (the `schedule` argument dropped)
    _wrap(mp, f"{S}.thm4_9.idealised_wallclock",
          lambda orig: lambda *a, schedule="srpfl", **k: orig(*a, **k))


def _thm49_simulated(mp):
    # bug: the closed form charges the (n-1)-th order statistic instead of the n-th
    mp.setattr(f"{S}.thm4_9.SIM_REPS", {False: 300, True: 300})
    _wrap(mp, f"{S}.thm4_9.expected_order_statistic",
          lambda orig: lambda j, N, lam=1.0: orig(np.maximum(np.asarray(j) - 1, 1), N, lam))


def _thm49_real(mp):
    # violating numbers: SRPFL 25% slower than FedRep on every seed (no runs, to stay fast)
    mp.setattr(f"{S}.thm4_9.time_ratios", lambda N, seed, seeds, target: np.full(seeds, 1.25))


FAILS_PATHS = {
    "srpfl.thm4.9.per-round-time": _fp_per_round,
    "srpfl.thm4.9.ratio": _thm49_ratio,
    "srpfl.thm4.9.simulated": _thm49_simulated,
    "srpfl.thm4.9.real-runs": _thm49_real,
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
