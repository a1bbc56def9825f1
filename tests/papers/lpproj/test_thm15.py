"""Theorem 15 (Sec. 4.1.3) and its formal version Theorem 28 with the proof (App. A.6): the rates, the sums after
(33) and the first term of Theorem 28 (Han, Li, Lin and Zhang, *A Random Projection Approach to Personalized
Federated Learning*, JMLR 25 (2024)).

Tests of the catalogue module ``fedtheory_checks.lpproj.thm15``: its helpers against independent computations and
its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS`` injects a violating
computation with monkeypatch and the quick verdict must refute the claim (the rule is ``check_fails_path`` in this
folder's conftest.py)."""
import dataclasses

import numpy as np
import pytest

from fedtheory import decide, get_claim
from fedtheory.lpproj import schedules as sch


def test_thm15_rate_decided_by_the_exact_recursion():
    """S < N: decided (holds) in quick mode in the asymptotic regime, for both admissible inner solvers, with the
    Monte Carlo referee agreeing; the stricter reading is reported beside."""
    v = get_claim("lpproj.thm15.rate").evaluate(full=False)
    assert v.status == "holds", v.summary()
    for solver in sch.THEOREM15_SOLVERS:
        o = v.observed[f"w~_0 = 0, {solver}"]
        assert -0.51 < o["slope"] < -0.45 and o["stated_reading"] == "holds"
    assert v.observed["T"][0] >= 4.5e6  # h sum eta~ >= 5 from here
    assert "runs of Algorithm 1" in v.evidence and "stricter reading" in v.evidence


def test_thm15_no_sampling_reports_both_readings():
    v = get_claim("lpproj.thm15.rate-no-sampling").evaluate(full=False)
    assert v.status == "holds"
    o = v.observed["w~_0 = w~*, saturating"]
    assert o["stated_reading"] == "holds" and o["stricter_reading"] == "refuted"
    assert "-2/3 + 1/ln T_lo + 0.1" in v.regime and "stricter reading" in v.evidence


def test_thm15_strict_reading_fails_only_through_the_log_factor():
    """The stricter reading is refuted by the saturating solver from w~*, whose E||grad F||^2 T^(2/3) grows like
    ln T (equal increments per decade of T), while the exact solver's slope is -2/3."""
    from fedtheory_checks.lpproj import thm15

    cl, theta = thm15.thm15_instance(0)
    Ts = np.array([10 ** 3, 10 ** 4, 10 ** 5])
    r = thm15.thm15_moments(Ts, no_sampling=True, theta=theta, w0=float(theta.mean()))
    scaled = r.Y * Ts ** (2 / 3)
    inc = np.diff(scaled[1])
    assert np.all(inc > 0) and inc[1] == pytest.approx(inc[0], rel=0.15)  # ~ A ln T
    assert abs(np.diff(np.log(scaled[0]))).max() < 0.01  # exact solver: pure T^(-2/3)


# ----------------------------------------------------------------------------- fails paths
def _frozen_rounds(mp):
    """A broken schedule in the recursion: eta~_t, nu_t and D_t stay at their t = 0 values, so the sampling and
    mini-batch noise never decay and E||grad F||^2 floors (log-log slope ~ 0)."""
    orig = sch._theorem15_rounds

    def patched(t0, t1, **k):
        et, sq, b = orig(0, 1, **k)
        return np.full(t1 - t0, et[0]), np.full(t1 - t0, sq[0]), np.full(t1 - t0, b[0])
    mp.setattr(sch, "_theorem15_rounds", patched)


def _no_log_factor(mp):
    """The saturating solver's Y replaced by the exact solver's (no bias): the stricter reading would hold."""
    orig = sch.theorem15_exact_moments

    def patched(*a, **k):
        r = orig(*a, **k)
        return dataclasses.replace(r, Y=np.stack([r.Y[0], r.Y[0]]))
    mp.setattr(sch, "theorem15_exact_moments", patched)


def _log_factor_slack(mp):
    """Every solver's Y decays like T^-0.72 (faster than T^-2/3): the ln T of the bound would be slack."""
    orig = sch.theorem15_exact_moments

    def patched(Ts, *a, **k):
        r = orig(Ts, *a, **k)
        T = np.asarray(Ts, dtype=float)
        return dataclasses.replace(r, Y=np.stack([r.Y[0], r.Y[0] * (T / T[0]) ** -0.05]))
    mp.setattr(sch, "theorem15_exact_moments", patched)


def test_thm15_log_factor_is_not_attained_without_the_bias(monkeypatch, serial_uncached):
    _no_log_factor(monkeypatch)
    v = get_claim("lpproj.thm15.log-factor-attained").evaluate(full=False)
    assert v.status == "inconclusive" and v.power["needed"] > 1, v.summary()  # exactly T^-2/3: not attained


def _eq33_corrected_is_printed(mp):
    orig = sch.theorem28_sums

    def patched(*a, **k):
        r = orig(*a, **k)
        return dataclasses.replace(r, corrected={5: r.bounds[5]} if r.no_sampling else {})
    mp.setattr(sch, "theorem28_sums", patched)


def _thm28_chain_times_lam(mp):
    """The chain computed with an extra factor L_F = lam."""
    orig = sch.theorem28_first_term

    def patched(T, *, lam, **k):
        chain, b = orig(T, lam=lam, **k)
        return chain * lam, b
    mp.setattr(sch, "theorem28_first_term", patched)


#: claims whose outcome or kind changed in the re-grade: id -> (quick outcome, root cause or "")
RELABELS = {
    "lpproj.thm15.rate": ("holds", ""),
    "lpproj.thm15.log-factor-attained": ("holds", ""),
}


FAILS_PATHS = {
    "lpproj.thm15.rate-no-sampling": _frozen_rounds,
    "lpproj.thm15.rate": _frozen_rounds,
    "lpproj.thm15.log-factor-attained": _log_factor_slack,
    "lpproj.eq33.sums.erratum": _eq33_corrected_is_printed,
    "lpproj.thm28.first-term.erratum": _thm28_chain_times_lam,
}


#: quick-mode verdicts of the unpatched claims
QUICK_VERDICTS = {
    "lpproj.thm15.rate-no-sampling": "holds",
    "lpproj.thm15.rate": "holds",
    "lpproj.thm15.log-factor-attained": "holds",
    "lpproj.eq33.sums.erratum": "erratum",
    "lpproj.thm28.first-term.erratum": "erratum",
}


@pytest.mark.parametrize("cid", sorted(RELABELS))
def test_relabel_pinned(cid, serial_uncached):
    outcome, rc = RELABELS[cid]
    if cid == "lpproj.thm30.bullets":
        from fedtheory_checks.lpproj import thm30_losses

        mp = pytest.MonkeyPatch()
        mp.setattr(thm30_losses, "BULLETS_DRAWS", (150, 150))
    try:
        v = get_claim(cid).evaluate(full=False)
    finally:
        if cid == "lpproj.thm30.bullets":
            mp.undo()
    assert v.status == outcome, v.summary()
    assert v.root_cause == rc
    assert v.margin is not None and v.detects is not None


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])


@pytest.mark.parametrize("claim_id", sorted(QUICK_VERDICTS))
def test_claim_quick_verdict(claim_id, serial_uncached):
    v = get_claim(claim_id).evaluate(full=False)
    assert v.status == QUICK_VERDICTS[claim_id], v.summary()
