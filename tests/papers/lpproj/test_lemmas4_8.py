"""Lemmas 4-8 (Sec. 4.1.1; proofs of Lemmas 4, 5 and 7 in App. A.4) (Han, Li, Lin and Zhang, *A Random Projection
Approach to Personalized Federated Learning*, JMLR 25 (2024)).

Tests of the catalogue module ``fedtheory_checks.lpproj.lemmas4_8``: its helpers against independent computations
and its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS`` injects a
violating computation with monkeypatch and the quick verdict must refute the claim (the rule is ``check_fails_path``
in this folder's conftest.py)."""
import pytest

from fedtheory import get_claim
from fedtheory.lpproj.stochastic import LeastSquaresClients


# ----------------------------------------------------------------------------- every claim can fail
THM9_GRID = "fedtheory_checks.lpproj.lemmas4_8"


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


def _gamma_too_small(mp):
    # Assumption 2's variance underestimated 1000x (delta_1^2 too small)
    _method(mp, "gradient_variance", lambda orig: (lambda self, x: orig(self, x) / 1000))


def _inexact_inner(mp):
    # the "exact" inner solves stop at ||grad h~||^2 <= 1e-2
    _wrap(mp, "fedtheory_checks.lpproj.lemmas4_8.run_algorithm1_sgd", _kw(nu=1e-2))


def _sigma_zero(mp):
    # sigma_F1^2 computed as 0 (gradients at w~* dropped)
    _method(mp, "sigma_F1_sq", lambda orig: (lambda self, lam: 0.0))


def _mu_F_too_large(mp):
    # strong convexity of F_k overstated 10x
    _method(mp, "mu_F", lambda orig: (lambda self, lam: 10 * orig(self, lam)))


def _grad_F_k_scaled(mp):
    # grad F_k off by a factor 100
    _method(mp, "grad_F_k", lambda orig: (lambda self, w, lam: orig(self, w, lam) / 100))


class _WithReplacement:
    """A generator whose ``choice`` ignores ``replace=False`` (client sampling with replacement)."""

    def __init__(self, g):
        self._g = g

    def choice(self, a, size=None, replace=True, p=None):
        return self._g.choice(a, size=size, replace=True, p=p)

    def __getattr__(self, name):
        return getattr(self._g, name)


def _sampling_with_replacement(mp):
    _wrap(mp, "fedtheory.lpproj.algorithms.as_generator", lambda orig: (lambda seed: _WithReplacement(orig(seed))))


FAILS_PATHS = {
    "lpproj.lemma4.inexact-gradient": _gamma_too_small,
    "lpproj.alg1.exact-gradient": _inexact_inner,
    "lpproj.lemma5.diversity": _sigma_zero,
    "lpproj.lemma6.one-step": _mu_F_too_large,
    "lpproj.lemma7.drift": _grad_F_k_scaled,
    "lpproj.lemma8.sampling": _sampling_with_replacement,
}


#: quick-mode verdicts of the unpatched claims
QUICK_VERDICTS = {
    "lpproj.lemma4.inexact-gradient": "holds",
    "lpproj.alg1.exact-gradient": "holds",
    "lpproj.lemma5.diversity": "holds",
    "lpproj.lemma6.one-step": "holds",
    "lpproj.lemma7.drift": "holds",
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])


@pytest.mark.parametrize("claim_id", sorted(QUICK_VERDICTS))
def test_claim_quick_verdict(claim_id, serial_uncached):
    v = get_claim(claim_id).evaluate(full=False)
    assert v.status == QUICK_VERDICTS[claim_id], v.summary()
