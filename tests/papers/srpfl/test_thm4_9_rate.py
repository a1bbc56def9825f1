"""Section 4.1, Theorem 4.9 (arXiv Theorem 4.6) of Tziotis, Shen, Pedarsani, Hassani and Mokhtari,
*Straggler-Resilient Personalized Federated Learning* (TMLR 2023) as a rate: the O(log N) wall-clock speedup of
(256), fitted by OLS.

Tests of the catalogue module ``fedtheory_checks.srpfl.thm4_9_rate``: its helpers against independent computations
and its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS`` injects a
violating computation with monkeypatch and the quick verdict must refute the claim (the rule is ``check_fails_path``
in this folder's conftest.py)."""
import math

import numpy as np
import pytest

from fedtheory.claims import FAILS, HOLDS, INCONCLUSIVE, REFUTED

S = "fedtheory_checks.srpfl"


def _mod(name):
    import importlib

    return importlib.import_module(f"{S}.{name}")


# ----------------------------------------------------------------------------- the rate (item 1)
def test_theorem49_constant_and_validation():
    rate = _mod("thm4_9_rate")
    assert rate.theorem49_constant(0.0, 1.2) == pytest.approx(6 + 4 * math.log(5))
    with pytest.raises(ValueError, match="c_hat"):
        rate.theorem49_constant(0.0, 1.5)
    with pytest.raises(ValueError, match="`c`"):
        rate.theorem49_constant(-1.0, 1.2)


def test_rate_decisions_use_the_kits_rate_template():
    # the speedup slope in ln N against 1/K_c, one-sided (beta >= 1/K_c), as the claims decide it
    from fedtheory import decide

    x = np.log(2.0 ** np.arange(6, 30, 2))
    slow = decide.rate(x, 1.0 + 0.03 * x, claimed=0.1, model="affine", alternative="greater", what="x")
    assert slow["status"] == REFUTED  # speedup grows too slowly
    fast = decide.rate(x, 1.0 + 0.25 * x + 1e-4 * np.sin(7 * x), claimed=0.1, model="affine", alternative="greater",
                       what="x")
    assert fast["status"] == HOLDS and fast["margin"]["kind"] == "fitted - claimed exponent"
    g = np.random.default_rng(0)
    noisy = decide.rate(x[:3], 1.0 + 0.1 * x[:3] + 0.05 * g.standard_normal(3), claimed=0.1, model="affine",
                        alternative="greater", what="x")
    assert noisy["status"] == INCONCLUSIVE and noisy["power"]["needed"] > 1  # kit-computed sweeps


def test_rate_claim_fails_when_ratio_does_not_decay(monkeypatch):
    _fp_rate(monkeypatch)  # violating numbers: SRPFL's idealised time proportional to FedRep's
    assert _mod("thm4_9_rate")._rate(False, 0)["status"] == FAILS


def test_rate_claim_holds():
    out = _mod("thm4_9_rate")._rate(False, 0)
    assert out["status"] == HOLDS, out["evidence"]


def test_exact_rate_helpers():
    rate = _mod("thm4_9_rate")
    dist = np.array([[1.0, 0.5, 0.1, 0.05], [1.0, 0.9, 0.8, 0.7]])
    clock = np.array([[0.0, 1.0, 2.0, 3.0], [0.0, 2.0, 4.0, 6.0]])
    t = rate.hit_times(dist, clock, np.array([0.2, 0.75]), c=10.0)
    assert t[0] == 2.0 + 20.0 and t[1] == 6.0 + 30.0
    assert rate.hit_times(dist, clock, 0.01, 0.0).tolist() == [math.inf, math.inf]
    S, se = rate.speedup_and_se([1.0, 1.0, 1.0], [2.0, 2.0, 2.0])
    assert S == 2.0 and se == 0.0
    fl = rate.replicate_floors(dist, dist, 2)
    assert fl.tolist() == [0.075, 0.75]


def test_exact_rate_claim_fails_on_flat_speedups(monkeypatch):
    _fp_rate_exact(monkeypatch)  # violating numbers: speedup 1 at every N
    out = _mod("thm4_9_rate")._rate_exact(False, 0)
    assert out["status"] == FAILS, out["evidence"]


# ----------------------------------------------------------------------------- claim-level fails paths
_CH = "fedtheory_checks.srpfl"


def _fp_rate(mp):  # violating numbers: an idealised SRPFL time proportional to FedRep's (ratio 0.9 at every N)
    mp.setattr(f"{_CH}.thm4_9_rate.idealised_times",
               lambda N, *a, **k: {"T_srpfl": 0.9 * math.log(N), "T_fedrep": math.log(N)})


def _fp_rate_exact(mp):  # violating numbers: both methods reach the target at the same time at every N
    rate = _mod("thm4_9_rate")
    mp.setattr(rate, "EXACT_GRID", {False: ((16, 32, 64, 128), 3, (("fixed", 1),), 100)})

    def fake(task, reps=2, final_rounds=100, **kw):
        g = np.random.default_rng(task[2])
        T = 300
        dist = np.exp(-np.linspace(0, 6, T + 1))[None, :].repeat(reps, 0)
        clock = np.cumsum(np.r_[0, np.ones(T)])[None, :].repeat(reps, 0) * (1 + 0.01 * g.random((reps, 1)))
        return {"dist_s": dist, "clock_s": clock, "dist_f": dist, "clock_f": clock * (1 + 1e-3)}

    mp.setattr(rate, "exact_pair", fake)


FAILS_PATHS = {
    "srpfl.thm4.9.rate": _fp_rate,
    "srpfl.thm4.9.rate-exact": _fp_rate_exact,
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
