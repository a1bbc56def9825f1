"""Theorem 9 (Sec. 4.1.1): the step rule (9), the personalised bound (10), the remark after (9) and the drift floor
(Han, Li, Lin and Zhang, *A Random Projection Approach to Personalized Federated Learning*, JMLR 25 (2024)).

Tests of the catalogue module ``fedtheory_checks.lpproj.thm9``: its helpers against independent computations and its
verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS`` injects a violating
computation with monkeypatch and the quick verdict must refute the claim (the rule is ``check_fails_path`` in this
folder's conftest.py)."""
import numpy as np
import pytest

from fedtheory import get_claim
from fedtheory.lpproj.stochastic import LeastSquaresClients


# ----------------------------------------------------------------------------- every claim can fail
THM9_GRID = "fedtheory_checks.lpproj.thm9"


def _wrap(monkeypatch, target, make):
    """Replace ``target`` ("module.attr") by ``make(original)``."""
    import importlib

    mod, attr = target.rsplit(".", 1)
    monkeypatch.setattr(target, make(getattr(importlib.import_module(mod), attr)))


def _kw(**over):
    """A wrapper factory that calls the original with some keyword arguments overridden."""
    return lambda orig: (lambda *a, **k: orig(*a, **{**k, **over}))


def _method(mp, name, make):
    orig = getattr(LeastSquaresClients, name)
    mp.setattr(LeastSquaresClients, name, make(orig))


def _wrong_start(mp):
    # the runs start far from the w~_0 = 0 that Delta_0 assumes
    _wrap(mp, f"{THM9_GRID}.run_algorithm1_sgd", _kw(w0=np.full(3, 5.0)))


def _sigma_zero(mp):
    # sigma_F1^2 computed as 0 (gradients at w~* dropped)
    _method(mp, "sigma_F1_sq", lambda orig: (lambda self, lam: 0.0))


def _two_local_steps(mp):
    # every round runs at least 2 local steps (R = 1 is no longer GD on F)
    _wrap(mp, f"{THM9_GRID}.run_algorithm1_sgd", lambda orig: (lambda *a, **k: orig(*a, **{**k, "R": max(k.get("R", 1), 2)})))


def _shifted_personal_models(mp):
    import dataclasses

    _wrap(mp, f"{THM9_GRID}.run_algorithm1_sgd",
          lambda orig: (lambda *a, **k: dataclasses.replace(orig(*a, **k), x=orig(*a, **k).x + 5.0)))


FAILS_PATHS = {
    "lpproj.thm9.drift-floor": _two_local_steps,
    "lpproj.thm9.beta-speedup": _sigma_zero,
    "lpproj.thm9.personalised-bound10": _shifted_personal_models,
    "lpproj.thm9.step-rule": _wrong_start,
}


#: quick-mode verdicts of the unpatched claims
QUICK_VERDICTS = {
    "lpproj.thm9.drift-floor": "holds",
    "lpproj.thm9.beta-speedup": "holds",
    "lpproj.thm9.personalised-bound10": "holds",
    "lpproj.thm9.step-rule": "holds",
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])


@pytest.mark.parametrize("claim_id", sorted(QUICK_VERDICTS))
def test_claim_quick_verdict(claim_id, serial_uncached):
    v = get_claim(claim_id).evaluate(full=False)
    assert v.status == QUICK_VERDICTS[claim_id], v.summary()


def test_gamma_tracker_batches_equal_the_per_step_maximum():
    """_GammaTracker buffers the visited points and evaluates them in batches: the same maximum as evaluating
    the per-sample gradient variance at x_hat_k(w~_{k,r}^t) after every local step."""
    from fedtheory_checks.lpproj._common import LAM, _GammaTracker, make_clients

    cl = make_clients(2)
    rng = np.random.default_rng(0)
    tr = _GammaTracker(cl, LAM)
    tr.BATCH = 3
    expect = 0.0
    for t in range(8):
        w = rng.standard_normal((4, cl.N, cl.d_sub))
        tr(t, 0, w, None)
        x = cl.x_hat(w, LAM)
        expect = max(expect, float(np.max(cl.gradient_variance(x))))
        assert tr.value == pytest.approx(expect, rel=1e-12)
