"""Proposition 18 (Sec. 4.2; formal: Theorem 32, App. B.4): the expected fairness ordering and its dimension scaling
(Han, Li, Lin and Zhang, *A Random Projection Approach to Personalized Federated Learning*, JMLR 25 (2024)).

Tests of the catalogue module ``fedtheory_checks.lpproj.prop18``: its helpers against independent computations and
its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS`` injects a violating
computation with monkeypatch and the quick verdict must refute the claim (the rule is ``check_fails_path`` in this
folder's conftest.py)."""
import numpy as np
import pytest

from fedtheory import get_claim

M = "fedtheory_checks.lpproj"


def _ratio_first_power(mp):
    # tr(P S P^T)/tr(S) in place of the squares: d_sub/d also for the dense covariance
    mp.setattr(f"{M}.prop18.fairness_dimension_ratio",
               lambda S, P: float(np.trace(P @ S @ P.T) / np.trace(S)))


def _wrap(monkeypatch, target, make):
    """Replace ``target`` ("module.attr") by ``make(original)``."""
    import importlib

    mod, attr = target.rsplit(".", 1)
    monkeypatch.setattr(target, make(getattr(importlib.import_module(mod), attr)))


def _kw(**over):
    """A wrapper factory that calls the original with some keyword arguments overridden."""
    return lambda orig: (lambda *a, **k: orig(*a, **{**k, **over}))


def _fairness_printed_constant(mp, n_samples=5000, module="thm32"):
    _wrap(mp, f"{M}.{module}.expected_fairness_V", _kw(variant="printed"))
    _wrap(mp, f"{M}.{module}.mc_mean", lambda orig: (lambda sampler, n, seed, **k: orig(sampler, n_samples, seed, **k)))


def _prop18_printed_constant(mp):
    _fairness_printed_constant(mp, n_samples=2000, module="prop18")


FAILS_PATHS = {
    "lpproj.prop18.dimension-scaling": _ratio_first_power,
    "lpproj.prop18.expected-ordering": _prop18_printed_constant,
}


#: quick-mode verdicts of the unpatched claims
QUICK_VERDICTS = {
    "lpproj.prop18.dimension-scaling": "holds",
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])


@pytest.mark.parametrize("claim_id", sorted(QUICK_VERDICTS))
def test_claim_quick_verdict(claim_id, serial_uncached):
    v = get_claim(claim_id).evaluate(full=False)
    assert v.status == QUICK_VERDICTS[claim_id], v.summary()
