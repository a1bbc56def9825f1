"""Figure 1 (Sec. 4.2): same-value attack losses against lambda, and the Monte Carlo sampler behind its check (App.
B.1-B.3) (Han, Li, Lin and Zhang, *A Random Projection Approach to Personalized Federated Learning*, JMLR 25
(2024)).

Tests of the catalogue module ``fedtheory_checks.lpproj.fig1``: its helpers against independent computations and its
verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS`` injects a violating
computation with monkeypatch and the quick verdict must refute the claim (the rule is ``check_fails_path`` in this
folder's conftest.py)."""
import pytest

from fedtheory import get_claim

M = "fedtheory_checks.lpproj"


def _wrap(monkeypatch, target, make):
    """Replace ``target`` ("module.attr") by ``make(original)``."""
    import importlib

    mod, attr = target.rsplit(".", 1)
    monkeypatch.setattr(target, make(getattr(importlib.import_module(mod), attr)))


def _lambda1_quoted(mp):
    # lambda_1^* taken as the quoted 4.9e-4 (twice the true one)
    _wrap(mp, f"{M}.fig1._lam1", lambda orig: (lambda: 2 * orig()))


def _attack_tau_inflated(mp):
    _wrap(mp, "fedtheory.lpproj.algorithms._suffstat_losses",
          lambda orig: (lambda g, size, q, lam, attack, N_a, tau: orig(g, size, q, lam, attack, N_a, 1.2 * tau)))


def _bias_halved(mp):
    _wrap(mp, "fedtheory.lpproj.algorithms._suffstat_prepare",
          lambda orig: (lambda *a: {**orig(*a), "sum_e2": 0.5 * orig(*a)["sum_e2"]}))


def _kw(**over):
    """A wrapper factory that calls the original with some keyword arguments overridden."""
    return lambda orig: (lambda *a, **k: orig(*a, **{**k, **over}))


def _lambda_star_ignores_attack(mp):
    # lambda_1^* computed with the clean formula (the attack's variance left out of the denominator)
    _wrap(mp, f"{M}.fig1.optimal_lambda",
          lambda orig: (lambda **kw: orig(**{k: v for k, v in kw.items() if k not in ("attack", "N_a", "tau")})))
    _wrap(mp, f"{M}.fig1.brute_force_argmin", _kw(points=21))  # a coarser grid before Brent


FAILS_PATHS = {
    "lpproj.fig1.negligible-gap": _lambda1_quoted,
    "lpproj.fig1.mc-near-optimum": _attack_tau_inflated,
    "lpproj.mc.sufficient-sampler": _bias_halved,
    "lpproj.fig1.lambda-star.erratum": _lambda_star_ignores_attack,
}


#: quick-mode verdicts of the unpatched claims
QUICK_VERDICTS = {
    "lpproj.fig1.negligible-gap": "holds",
    "lpproj.fig1.mc-near-optimum": "holds",
    "lpproj.mc.sufficient-sampler": "holds",
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])


@pytest.mark.parametrize("claim_id", sorted(QUICK_VERDICTS))
def test_claim_quick_verdict(claim_id, serial_uncached):
    v = get_claim(claim_id).evaluate(full=False)
    assert v.status == QUICK_VERDICTS[claim_id], v.summary()
