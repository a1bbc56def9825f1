"""Theorem 14 (Sec. 4.1.3) and its formal version Theorem 27 with the proof (App. A.5): recursion (32) and the sums
after it (Han, Li, Lin and Zhang, *A Random Projection Approach to Personalized Federated Learning*, JMLR 25
(2024)).

Tests of the catalogue module ``fedtheory_checks.lpproj.thm14``: its helpers against independent computations and
its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS`` injects a violating
computation with monkeypatch and the quick verdict must refute the claim (the rule is ``check_fails_path`` in this
folder's conftest.py)."""
import dataclasses

import numpy as np
import pytest

from fedtheory import get_claim
from fedtheory.lpproj import schedules as sch
from fedtheory.lpproj import stochastic as sto


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


def _thm14_schedule_frozen(mp):
    mp.setattr(sch, "theorem14_schedule", _frozen_schedule("theorem14_schedule"))


def _eq32_sign_slip(mp):
    """The additive terms of (32) subtracted instead of added."""
    orig = sch.recursion32_rhs

    def patched(E, h, C, **k):
        base = (1 - C.params["mu_F"] * np.asarray(h) / 2) * np.asarray(E)
        return base - (orig(E, h, C, **k) - base)
    mp.setattr(sch, "recursion32_rhs", patched)


def _thm27_final_solve_shifted(mp):
    """The final personalised solve returns x + 5 (a broken last inner solve)."""
    orig = sto.run_algorithm1_sgd

    def patched(*a, **k):
        r = orig(*a, **k)
        return dataclasses.replace(r, x=r.x + 5.0)
    mp.setattr(sto, "run_algorithm1_sgd", patched)


def _a5_corrected_is_printed(mp):
    orig = sch.a5_sums
    mp.setattr(sch, "a5_sums", lambda *a, **k: dataclasses.replace(orig(*a, **k), corrected=orig(*a, **k).printed))


def test_eq32_reports_the_sharper_reading():
    v = get_claim("lpproj.eq32.recursion").evaluate(full=False)
    assert v.status == "holds"
    assert v.observed["printed"]["value"] < 0.01  # the printed (32) has > 100x slack
    assert v.observed["sharper"]["value"] > v.observed["printed"]["value"]  # the sharper reading is tighter
    assert "sharper reading" in v.evidence and "600x" in v.regime


FAILS_PATHS = {
    "lpproj.thm14.rate": _thm14_schedule_frozen,
    "lpproj.eq32.recursion": _eq32_sign_slip,
    "lpproj.thm27.personalised": _thm27_final_solve_shifted,
    "lpproj.a5.sums.erratum": _a5_corrected_is_printed,
}


#: quick-mode verdicts of the unpatched claims
QUICK_VERDICTS = {
    "lpproj.thm14.rate": "holds",
    "lpproj.eq32.recursion": "holds",
    "lpproj.thm27.personalised": "holds",
    "lpproj.a5.sums.erratum": "erratum",
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])


@pytest.mark.parametrize("claim_id", sorted(QUICK_VERDICTS))
def test_claim_quick_verdict(claim_id, serial_uncached):
    v = get_claim(claim_id).evaluate(full=False)
    assert v.status == QUICK_VERDICTS[claim_id], v.summary()
