"""SRPFL Theorem 4.9 as a rate, its errata and the Appendix B phase rows: the decision functions on violating
numbers (``refuted``), the holds path on the real numbers where cheap, and the new library functions."""
import math
from fractions import Fraction

import numpy as np
import pytest

from fedtheory.claims import ERRATUM, FAILS, HOLDS, INCONCLUSIVE, REFUTED
from fedtheory.srpfl import idealised_wallclock
from fedtheory.srpfl.theory import idealised_times, order_statistic_mean_stable

S = "fedtheory_checks.srpfl"


def _mod(name):
    import importlib

    return importlib.import_module(f"{S}.{name}")


# ----------------------------------------------------------------------------- library functions
@pytest.mark.parametrize("j,N", [(1, 8), (8, 8), (3, 100), (100, 100), (70, 100), (5, 2 ** 20), (2 ** 20, 2 ** 20)])
def test_order_statistic_mean_stable_exact(j, N):
    exact = float(sum(Fraction(1, N - i) for i in range(min(j, 2000)))) if j <= 2000 else None
    if exact is None:  # H_N for N = 2^20: digamma + gamma is accurate there
        exact = float(np.sum(1.0 / np.arange(1, N + 1)[::-1][:j][::-1]))
    assert order_statistic_mean_stable(j, N) == pytest.approx(exact, rel=1e-13)


def test_order_statistic_mean_stable_large_N():
    # j << N at N = 2^60: the sum is 4/N (1 + 6/(4N) + ...): relative accuracy, where H_N - H_{N-j} has none
    N = 2 ** 60
    assert order_statistic_mean_stable(4, N) * N / 4 == pytest.approx(1.0, rel=1e-15)
    assert order_statistic_mean_stable(N // 2, N) == pytest.approx(math.log(2), rel=1e-15)
    assert order_statistic_mean_stable(3, 7, lam=2.0) == pytest.approx((1 / 7 + 1 / 6 + 1 / 5) / 2, rel=1e-15)


@pytest.mark.parametrize("kw,name", [(dict(j=0, N=5), "j"), (dict(j=6, N=5), "j"), (dict(j=1, N=0), "N"),
                                     (dict(j=1, N=5, lam=0.0), "lam")])
def test_order_statistic_mean_stable_validation(kw, name):
    with pytest.raises(ValueError, match=name):
        order_statistic_mean_stable(**kw)


@pytest.mark.parametrize("N,c", [(64, 0.0), (256, 10.0), (4096, 100.0), (1024, 0.0)])
def test_idealised_times_matches_idealised_wallclock(N, c):
    r = idealised_times(N, 4, 0.05, 1.2, 1.0, c)
    s = idealised_wallclock(N, 4, 0.05, 1.2, 1.0, c)
    f = idealised_wallclock(N, 4, 0.05, 1.2, 1.0, c, schedule="fedrep")
    assert r["T_srpfl"] == pytest.approx(s[0], rel=1e-12) and r["rounds_srpfl"] == s[2]
    assert r["T_fedrep"] == pytest.approx(f[0], rel=1e-12) and r["rounds_fedrep"] == f[1]


@pytest.mark.parametrize("kw,name", [(dict(N=48, n0=4), "N"), (dict(N=64, n0=64), "n0"), (dict(c_hat=1.5), "c_hat"),
                                     (dict(a=1.0), "a"), (dict(c=-1.0), "c")])
def test_idealised_times_validation(kw, name):
    args = dict(N=64, n0=4, a=0.05, c_hat=1.2)
    args.update(kw)
    with pytest.raises(ValueError, match=name):
        idealised_times(**args)


# ----------------------------------------------------------------------------- the rate (item 1)
def test_theorem49_constant_and_validation():
    rate = _mod("rate")
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
    assert _mod("rate")._rate(False, 0)["status"] == FAILS


def test_rate_claim_holds():
    out = _mod("rate")._rate(False, 0)
    assert out["status"] == HOLDS, out["evidence"]


def test_exact_rate_helpers():
    rate = _mod("rate")
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
    out = _mod("rate")._rate_exact(False, 0)
    assert out["status"] == FAILS, out["evidence"]


# ----------------------------------------------------------------------------- item 2
def test_tfr_mismatch_decision():
    thm = _mod("thm4_9")
    assert not thm.tfr_mismatch(10.3, 11)
    assert thm.tfr_mismatch(10.3, 10)
    assert not thm.tfr_mismatch(10.0 + 1e-12, 10) and not thm.tfr_mismatch(10.0 - 1e-12, 11)
    assert thm.tfr_mismatch(math.nan, 3)


def test_tfr_claim_fails_with_off_by_one(monkeypatch):
    _fp_tfr(monkeypatch)
    assert _mod("thm4_9")._tfr(False, 0)["status"] == FAILS


def test_tfr_claim_holds():
    out = _mod("thm4_9")._tfr(False, 0)
    assert out["status"] == HOLDS, out["evidence"]


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


# ----------------------------------------------------------------------------- Appendix B rows and errata
def test_chain_violations():
    B = _mod("appendix_b")
    rows = {(1,): {"x": 1.0, "y": 2.0}, (2,): {"x": 3.0, "y": 2.0}}
    assert B.chain_violations(rows, [("x", "y")]) == {"x<=y": [(2,)]}


@pytest.mark.parametrize("fn,status", [("_eq218_220", HOLDS), ("_eq225_226", HOLDS), ("_eq229", ERRATUM),
                                       ("_eq233_237", REFUTED), ("_eq241_244", REFUTED), ("_eqD", ERRATUM)])
def test_appendix_b_claims_real_numbers(fn, status):
    out = getattr(_mod("lemma_b2_phases"), fn)(False, 0)
    assert out["status"] == status, out["evidence"]
    assert out["margin"] is not None and out["detects"] is not None


@pytest.mark.parametrize("cid,status,root", [("srpfl.eq233-237.phase2", REFUTED, "phase2-drops-c"),
                                             ("srpfl.eq241-244.phase2-cost", REFUTED, "phase2-drops-c"),
                                             ("srpfl.eq229.erratum", ERRATUM, "eq229-c-plus-1"),
                                             ("srpfl.eqD.parenthesisation-erratum", ERRATUM, "eqd-parenthesisation")])
def test_phase_relabels_and_root_causes(cid, status, root):
    # (236)-(237) and (241)-(244) drop c through invalid steps (refuted, one root cause for both); (229) and D are
    # typo-level errata refereed by exact computations
    from fedtheory import get_claim, get_paper

    v = get_claim(cid).evaluate(full=False)
    assert v.status == status and v.root_cause == root, v.summary()
    assert root in get_paper("srpfl").root_causes()


def test_eq218_220_fails_on_a_wrong_stage_count(monkeypatch):
    _fp_eq218(monkeypatch)  # the stage lengths t^i of (203) halved (on a private cache)
    assert _mod("lemma_b2_phases")._eq218_220(False, 0)["status"] == FAILS


def test_eq229_fails_when_corrected_form_fails(monkeypatch):
    _fp_eq229(monkeypatch)
    assert _mod("lemma_b2_phases")._eq229(False, 0)["status"] == FAILS


def test_eq233_237_fails_when_corrected_form_fails(monkeypatch):
    _fp_eq233(monkeypatch)
    assert _mod("lemma_b2_phases")._eq233_237(False, 0)["status"] == FAILS


def test_eq241_244_fails_when_corrected_form_fails(monkeypatch):
    _fp_eq241(monkeypatch)
    assert _mod("lemma_b2_phases")._eq241_244(False, 0)["status"] == FAILS


def test_eqD_fails_when_corrected_form_fails(monkeypatch):
    _fp_eqD(monkeypatch)
    assert _mod("lemma_b2_phases")._eqD(False, 0)["status"] == FAILS


# ----------------------------------------------------------------------------- claim-level fails paths
# merged into tests/test_fails_srpfl.py's FAILS_PATHS (the catalogue contract runs them through get_claim)
_CH = "fedtheory_checks.srpfl"


def _fp_rate(mp):  # violating numbers: an idealised SRPFL time proportional to FedRep's (ratio 0.9 at every N)
    mp.setattr(f"{_CH}.rate.idealised_times",
               lambda N, *a, **k: {"T_srpfl": 0.9 * math.log(N), "T_fedrep": math.log(N)})


def _fp_rate_exact(mp):  # violating numbers: both methods reach the target at the same time at every N
    rate = _mod("rate")
    mp.setattr(rate, "EXACT_GRID", {False: ((16, 32, 64, 128), 3, (("fixed", 1),), 100)})

    def fake(task, reps=2, final_rounds=100, **kw):
        g = np.random.default_rng(task[2])
        T = 300
        dist = np.exp(-np.linspace(0, 6, T + 1))[None, :].repeat(reps, 0)
        clock = np.cumsum(np.r_[0, np.ones(T)])[None, :].repeat(reps, 0) * (1 + 0.01 * g.random((reps, 1)))
        return {"dist_s": dist, "clock_s": clock, "dist_f": dist, "clock_f": clock * (1 + 1e-3)}

    mp.setattr(rate, "exact_pair", fake)


def _fp_tfr(mp):  # bug: the closed-form t_FR off by one round
    thm = _mod("thm4_9")
    mp.setattr(thm, "tfr_closed_form", lambda a, N, n0, ch: float(thm.fedrep_rounds_exact(a, N, n0, ch)) + 1)


def _fp_per_round(mp):  # bug: SRPFL charged the slowest of all N clients in every round (FedRep's time)
    thm = _mod("thm4_9")
    orig = thm.per_round_check
    mp.setattr(thm, "per_round_check", lambda srpfl, fedrep, times, sizes, c: orig(fedrep, fedrep, times, sizes, c))


def _fp_eq218(mp):  # violating numbers: the stage lengths t^i of (203) halved
    B = _mod("lemma_b2_phases")
    import functools

    from fedtheory.srpfl import stage_rounds
    mp.setattr(B, "stage_rounds", lambda *a, **k: 0.5 * stage_rounds(*a, **k))
    # a fresh cache while patched: the module's cached phase-1 terms stay untouched
    mp.setattr(B, "phase1_terms", functools.lru_cache(maxsize=None)(B.phase1_terms.__wrapped__))


def _fp_eq225(mp):  # violating numbers: (226) reported at half of (225)
    B = _mod("lemma_b2_phases")
    orig = B.phase1_terms
    mp.setattr(B, "phase1_terms", lambda N, a, c, n0=4: {**orig(N, a, c, n0), "eq226": 0.5 * orig(N, a, c, n0)["eq225"]})


def _fp_eq229(mp):
    B = _mod("lemma_b2_phases")
    orig = B.phase1_terms
    mp.setattr(B, "phase1_terms", lambda N, a, c, n0=4: {**orig(N, a, c, n0),
                                                         "eq229_corrected": 0.5 * orig(N, a, c, n0)["eq226"]})


def _fp_eq233(mp):
    B = _mod("lemma_b2_phases")
    orig = B.phase2_forms
    mp.setattr(B, "phase2_forms", lambda *a, **k: {**orig(*a, **k), "eq236_corrected": 0.5 * orig(*a, **k)["eq236_corrected"]})


def _fp_eq241(mp):
    B = _mod("lemma_b2_phases")
    orig = B.phase2_costs
    mp.setattr(B, "phase2_costs", lambda *a, **k: {**orig(*a, **k), "eq243_corrected": 0.0})


def _fp_eqD(mp):  # violating numbers: a "corrected" floor without the (1 - a) under the root
    B = _mod("lemma_b2_phases")
    orig = B.floor_forms
    mp.setattr(B, "floor_forms", lambda a, N, n0=4: (orig(a, N, n0)[0], orig(a, N, n0)[1] * math.sqrt(1 - a)))


FAILS_PATHS = {
    "srpfl.thm4.9.rate": _fp_rate,
    "srpfl.thm4.9.rate-exact": _fp_rate_exact,
    "srpfl.thm4.9.tFR-count": _fp_tfr,
    "srpfl.thm4.9.per-round-time": _fp_per_round,
    "srpfl.eq218-220.phase1": _fp_eq218,
    "srpfl.eq225-226.phase1": _fp_eq225,
    "srpfl.eq229.erratum": _fp_eq229,
    "srpfl.eq233-237.phase2": _fp_eq233,
    "srpfl.eq241-244.phase2-cost": _fp_eq241,
    "srpfl.eqD.parenthesisation-erratum": _fp_eqD,
}


def test_per_round_and_eq225_claims_fail_on_their_paths(monkeypatch):
    _fp_per_round(monkeypatch)
    assert _mod("thm4_9")._per_round(False, 0)["status"] == FAILS
    _fp_eq225(monkeypatch)
    assert _mod("lemma_b2_phases")._eq225_226(False, 0)["status"] == FAILS
