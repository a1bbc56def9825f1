"""Appendix C, Figure 7 of Tziotis, Shen, Pedarsani, Hassani and Mokhtari, *Straggler-Resilient Personalized
Federated Learning* (TMLR 2023; absent from the arXiv version), on its linear analogue.

Tests of the catalogue module ``fedtheory_checks.srpfl.fig7`` and the App. C helpers it shares with Fig. 8
(``fedtheory_checks.srpfl._appendix_c``): the sign decisions on violating and agreeing numbers, the independent
replicates (each its own ground truth: one batched engine call equals the replicates' single runs); and every claim
of the section can fail: its entry in ``FAILS_PATHS`` injects a violating computation with monkeypatch and the quick
verdict must refute the claim (the rule is ``check_fails_path`` in this folder's conftest.py)."""
import numpy as np
import pytest

from fedtheory import get_claim
from fedtheory.claims import ERRATUM, FAILS, HOLDS, INCONCLUSIVE
from fedtheory.random import spawn_seeds
from fedtheory_checks.srpfl import _appendix_c as ac
from fedtheory_checks.srpfl import fig7


def test_sign_decisions_fail_paths():
    assert ac.sign_decision(-np.ones(20), "x")["status"] == FAILS
    assert ac.sign_decision(np.ones(20), "x")["status"] == HOLDS
    assert ac.sign_decision(np.full(20, -np.inf), "x")["status"] == FAILS   # SRPFL missed the target
    v = ac.sign_decision(np.full(20, np.nan), "x")  # both missed: ties
    assert v["status"] == INCONCLUSIVE and v["power"]["current"] == 0
    assert ac.sign_decision(np.full(20, np.inf), "x")["status"] == HOLDS    # FedRep missed it
    assert ac.sign_decision(np.ones(3), "x")["status"] == INCONCLUSIVE
    v = ac.decide_all({"a": np.ones(20), "b": -np.ones(20)})
    assert v["status"] == FAILS and "b: exact sign test" in v["evidence"]
    # a paper's experiment on its linear analogue: a refutation reads not-reproduced, naming the analogue
    v = ac.decide_all({"a": np.ones(20), "b": -np.ones(20)}, analogue="toy analogue")
    assert v["status"] == "not-reproduced" and v["analogue"] == "toy analogue"
    v = ac.decide_all({"a": np.ones(1)}, analogue="toy analogue")
    assert v["status"] == INCONCLUSIVE and v["power"]["needed"] > 1  # one replicate: kit-computed size


def test_lambda_reading_is_an_erratum_once_decided():
    from fedtheory import decide

    refuted = ac.decide_all({"a": -np.ones(20)})
    held = ac.decide_all({"a": np.ones(20)})
    undecided = ac.decide_all({"a": np.ones(1)})
    kw = dict(what="x", root_cause="fig8-lambda-reading", referee="r")
    assert decide.erratum_if_decided(refuted, held, **kw)["status"] == ERRATUM
    assert decide.erratum_if_decided(refuted, undecided, **kw)["status"] == INCONCLUSIVE


def test_homogeneous_heads_lie_around_one_direction():
    model, sp, m = ac.setting_truth(fig7.FIG7["homogeneous"], 3)
    W = model.W_star
    assert np.allclose(np.linalg.norm(W, axis=1), np.sqrt(2)) and m == 20 and sp.kind == "fixed"
    u = np.linalg.svd(W, full_matrices=False)[2][0]
    assert np.mean(np.abs(W @ u) / np.sqrt(2)) > 0.85  # a common direction carries most of every head


def test_independent_replicates_are_the_single_runs_on_their_own_ground_truths():
    """``independent_hits``: replicate j's ground truth and speeds are ``setting_truth`` of the j-th truth seed, and
    its hitting rounds those of the single runs on them (one batched engine call per schedule)."""
    from fedtheory.srpfl import run_srpfl

    cfg = {**ac.FIG_BASE, **fig7.FIG7["homogeneous"], "rounds": 40, "target": 0.05}
    got = ac.independent_hits(5, cfg, 3)
    s_truth, s_run = spawn_seeds(5, 2)
    for j, (st, sr) in enumerate(zip(spawn_seeds(s_truth, 3), spawn_seeds(s_run, 3))):
        model, sp, m = ac.setting_truth(cfg, st)
        kw = ac._run_kw(cfg, model, sp, m, None, sr)
        for name, sched in (("SRPFL", "doubling"), ("FedRep", "all")):
            one = run_srpfl(**kw, schedule=sched)
            assert got[f"h_{name}"][j] == ac.first_hit_round(one.mse, cfg["target"])[0], (name, j)
    assert len({float(ac.setting_truth(cfg, s)[0].W_star[0, 0]) for s in spawn_seeds(s_truth, 3)}) == 3


S = "fedtheory_checks.srpfl"


def _fake_setting(slower_srpfl):
    """``independent_setting`` replacement with violating hitting rounds: FedRep-SRPFL first meets the target at
    round 200 (FedRep at 20) in settings where ``slower_srpfl(cfg)`` is true, the other way round elsewhere."""
    def independent_setting(cfg, R, seed, namespace):
        hs, hf = (200, 20) if slower_srpfl(cfg) else (20, 200)
        return [{"h_SRPFL": np.full(R, hs), "h_FedRep": np.full(R, hf)}]
    return independent_setting


def _fig7(mp):
    # violating numbers: FedRep-SRPFL needs ten times FedRep's rounds in every homogeneous replicate
    mp.setattr(f"{S}.fig7.independent_setting", _fake_setting(lambda cfg: True))


FAILS_PATHS = {
    "srpfl.fig7.homogeneous": _fig7,
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    assert get_claim(claim_id).full_only is None  # decided in quick mode
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
