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


def test_thm15_power_statement_is_kit_computed():
    v = get_claim("lpproj.thm15.rate").evaluate(full=False)
    assert v.status == "inconclusive"
    assert v.power["needed"] > 10 ** 6 and v.power["unit"] == "rounds"
    assert v.power["statement"] == decide.power_statement(
        v.power["needed"], "rounds", current=v.power["current"], effect=v.power["effect"],
        test=v.power["test"])["statement"]


def test_thm15_no_sampling_reports_both_readings():
    v = get_claim("lpproj.thm15.rate-no-sampling").evaluate(full=False)
    assert v.status == "holds"
    assert v.observed["stricter_reading"]["outcome"] in ("holds", "inconclusive", "refuted")
    assert "-0.38" in v.regime and "stricter reading" in v.evidence


# ----------------------------------------------------------------------------- fails paths
def _frozen_schedule(fn_name, factor=1.0):
    """A broken schedule function: eta_t, nu_t and D_t stay at their t = 0 values (eta times ``factor``, batch 1),
    so the mini-batch noise never decays and E||.||^2 floors (log-log slope ~ 0)."""
    orig = getattr(sch, fn_name)

    def patched(*a, **k):
        s = orig(*a, **k)
        ones = np.ones_like(s.batch)
        return dataclasses.replace(s, eta=np.full_like(s.eta, s.eta[0] * factor),
                                   eta_tilde=np.full_like(s.eta, s.eta_tilde[0] * factor),
                                   nu=np.full_like(s.nu, s.nu[0]), batch=ones, batch_requested=ones)
    return patched


def _alpha_unnormalised(mp):
    """The law of t* without its normalisation (alpha_i = eta_i/eta_0): the 'average' grows with T."""
    mp.setattr(sch, "sampling_law", lambda eta: np.asarray(eta, float) / float(np.asarray(eta)[0]))


def _thm15_big_steps_alpha_unnormalised(mp):
    """Steps 1000x the schedule's (frozen at t = 0, so the transient ends within the run) and the unnormalised
    law of t*."""
    mp.setattr(sch, "theorem15_schedule", _frozen_schedule("theorem15_schedule", 1000.0))
    _alpha_unnormalised(mp)


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
    "lpproj.thm15.rate": ("inconclusive", ""),
}


FAILS_PATHS = {
    "lpproj.thm15.rate-no-sampling": _alpha_unnormalised,
    "lpproj.thm15.rate": _thm15_big_steps_alpha_unnormalised,
    "lpproj.eq33.sums.erratum": _eq33_corrected_is_printed,
    "lpproj.thm28.first-term.erratum": _thm28_chain_times_lam,
}


#: quick-mode verdicts of the unpatched claims
QUICK_VERDICTS = {
    "lpproj.thm15.rate-no-sampling": "holds",
    "lpproj.thm15.rate": "inconclusive",
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
