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
    S, se = rate.speedup_and_se([1.0, 1.0, 1.0], [2.0, 2.0, 2.0])
    assert S == 2.0 and se == 0.0
    # pilot constants recovered from geometric trajectories d_t = D + (x0 - D) s^t
    t = np.arange(201)
    dist = np.array([0.01 + (0.9 - 0.01) * 0.95 ** t, 0.01 + (0.8 - 0.01) * 0.95 ** t])
    c = rate.pilot_constants(dist, 30)
    assert c["s"] == pytest.approx(0.95, rel=1e-3) and c["D_N"] == pytest.approx(0.01, rel=1e-2)  # tail not yet flat
    assert c["x0"] == pytest.approx(0.85)


def test_lemma_b1_schedule_against_the_theorys_stage_rounds():
    # with s = sqrt(1-a) and the floors of (10) (D_N sqrt(N/n0) = D_0 = noise_floor(a, 1)), the stages r >= 1 of the
    # schedule run ceil(t^r) rounds, t^r of eq. (203) (fedtheory.srpfl.stage_rounds, an independent implementation)
    from fedtheory.srpfl import expected_order_statistic, noise_floor, stage_rounds

    rate = _mod("thm4_9_rate")
    a, N, n0 = 0.05, 256, 4
    mu = expected_order_statistic(np.arange(1, N + 1), N)
    D_N = float(noise_floor(a, N / n0))
    # a start above every switch point (the floors of (10) exceed 1 at a = 0.05 for few clients)
    sched = rate.lemma_b1_schedule(math.sqrt(1 - a), D_N, 1e3, N, n0, 0.0, mu)
    assert len(sched) == 6
    for r in range(1, 6):
        assert sched[r] == math.ceil(float(stage_rounds(r, a, N, n0)) - 1e-9), (r, sched)
    # a larger communication cost moves the first switch point up: stage 0 ends earlier
    assert rate.lemma_b1_schedule(math.sqrt(1 - a), D_N, 1e3, N, n0, 100.0, mu)[0] < sched[0]


def test_weighted_slope_against_statsmodels():
    import statsmodels.api as sm

    rate = _mod("thm4_9_rate")
    x, y, se = np.log([16.0, 64.0, 256.0, 1024.0]), np.array([1.0, 1.3, 1.35, 1.7]), np.array([0.1, 0.05, 0.04, 0.2])
    f = rate.weighted_slope(x, y, se, 15)
    ref = sm.WLS(y, sm.add_constant(x), weights=1 / se ** 2).fit(cov_type="fixed scale")
    assert f["slope"] == pytest.approx(ref.params[1]) and f["se"] == pytest.approx(ref.bse[1])
    assert f["intercept"] == pytest.approx(ref.params[0]) and f["chi2_df"] == 2
    assert 15 <= f["df"] <= 4 * 15  # Welch-Satterthwaite: between one and all of the terms' df


# ----------------------------------------------------------------------------- claim-level fails paths
_CH = "fedtheory_checks.srpfl"


def _fp_rate(mp):  # violating numbers: an idealised SRPFL time proportional to FedRep's (ratio 0.9 at every N)
    mp.setattr(f"{_CH}.thm4_9_rate.idealised_times",
               lambda N, *a, **k: {"T_srpfl": 0.9 * math.log(N), "T_fedrep": math.log(N)})


def _fp_rate_exact(mp):  # violating numbers: both methods meet the target at the same round at every N
    rate = _mod("thm4_9_rate")

    def fake(task, reps=2, **kw):
        N, _ = task
        out = {"constants": np.array([0.01, 0.9, 0.95]), "targets": np.full(reps, 0.013),
               "h_FedRep": np.full(reps, 150) + np.arange(reps) % 3}
        for i, c in enumerate(rate.C_VALUES):
            sched = [1] * max(0, math.ceil(math.log2(N / 4)))
            out[f"schedule_{i}"] = np.array(sched)
            out[f"h_SRPFL_{i}"] = out["h_FedRep"] + len(sched)  # SRPFL pays every FedRep round and more
        return out

    mp.setattr(rate, "exact_runs", fake)


FAILS_PATHS = {
    "srpfl.thm4.9.rate": _fp_rate,
    "srpfl.thm4.9.rate-exact": _fp_rate_exact,
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path, monkeypatch):
    from fedtheory import get_claim

    claim = get_claim(claim_id)
    if claim.full_only is None:
        check_fails_path(claim_id, FAILS_PATHS[claim_id])
        return
    # a full-mode-only claim: quick mode does not run it, so its fails path is evaluated in full mode (no runs)
    assert claim.evaluate(full=False).status == "not-run"
    FAILS_PATHS[claim_id](monkeypatch)
    v = claim.evaluate(full=True)
    assert v.status == "refuted", v.summary()
