"""Sec. 5.4 (robustness) and Table 7: multi-round runs of Algorithm 1 (p = 1 ADMM, p = 2) under Byzantine attacks
(Han, Li, Lin and Zhang, *A Random Projection Approach to Personalized Federated Learning*, JMLR 25 (2024)).

Tests of the catalogue module ``fedtheory_checks.lpproj.sec54_robustness``: its helpers against independent
computations and its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS``
injects a violating computation with monkeypatch and the quick verdict must refute the claim (the rule is
``check_fails_path`` in this folder's conftest.py)."""
import dataclasses

import numpy as np
import pytest

from fedtheory import get_claim

ROBUST_ROUNDS = "fedtheory_checks.lpproj.sec54_robustness"


def _wrap(monkeypatch, target, make):
    """Replace ``target`` ("module.attr") by ``make(original)``."""
    import importlib

    mod, attr = target.rsplit(".", 1)
    monkeypatch.setattr(target, make(getattr(importlib.import_module(mod), attr)))


def _one_extra_local_step(mp):
    # the run takes R + 1 local steps while the multiplier formula uses rho^R
    def make(orig):
        def bad(*a, **k):
            res = orig(*a, **{**k, "R": k["R"] + 1})
            return dataclasses.replace(res, params={**res.params, "R": k["R"]})
        return bad
    _wrap(mp, f"{ROBUST_ROUNDS}.run_rounds", make)


def _rate_without_contraction(mp):
    # the criterion forgets the local contraction rho^R
    _wrap(mp, f"{ROBUST_ROUNDS}.signflip_log_multiplier_mean",
          lambda orig: (lambda rho, R, N, N_a, tau, beta=1.0: orig(1.0, R, N, N_a, tau, beta)))


def _clip_bound_without_sqrt_dsub(mp):
    _wrap(mp, f"{ROBUST_ROUNDS}.lpproj1_loss_bound",
          lambda orig: (lambda w_hat, W, lam, b, sigma, d_sub, N_a=0: orig(w_hat, W, lam, b, sigma, 1, N_a)))


def _envelope_without_drift(mp):
    _wrap(mp, f"{ROBUST_ROUNDS}.norm_envelope",
          lambda orig: (lambda w0, q, drift, A, beta, N: orig(w0, q, 0.0 * np.asarray(drift), A, beta, N)))


def _lpproj1_runs_with_p2(mp):
    _wrap(mp, f"{ROBUST_ROUNDS}.run_rounds", lambda orig: (lambda *a, **k: orig(*a, **{**k, "p": 2})))


FAILS_PATHS = {
    "lpproj.robust.multiplier-identity": _one_extra_local_step,
    "lpproj.robust.signflip-collapse": _rate_without_contraction,
    "lpproj.robust.lpproj1-bounded": _clip_bound_without_sqrt_dsub,
    "lpproj.robust.other-attacks-bounded": _envelope_without_drift,
    "lpproj.robust.table7-linear": _lpproj1_runs_with_p2,
}


#: quick-mode verdicts of the unpatched claims
QUICK_VERDICTS = {
    "lpproj.robust.multiplier-identity": "holds",
    "lpproj.robust.signflip-collapse": "holds",
    "lpproj.robust.lpproj1-bounded": "holds",
    "lpproj.robust.other-attacks-bounded": "holds",
    "lpproj.robust.table7-linear": "holds",
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])


@pytest.mark.parametrize("claim_id", sorted(QUICK_VERDICTS))
def test_claim_quick_verdict(claim_id, serial_uncached):
    v = get_claim(claim_id).evaluate(full=False)
    assert v.status == QUICK_VERDICTS[claim_id], v.summary()
