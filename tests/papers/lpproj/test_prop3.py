"""Proposition 3 (Sec. 4.1) and its proof (App. A.4) (Han, Li, Lin and Zhang, *A Random Projection Approach to
Personalized Federated Learning*, JMLR 25 (2024)).

Tests of the catalogue module ``fedtheory_checks.lpproj.prop3``: its helpers against independent computations and
its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS`` injects a violating
computation with monkeypatch and the quick verdict must refute the claim (the rule is ``check_fails_path`` in this
folder's conftest.py)."""
import numpy as np
import pytest

from fedtheory import get_claim

REMAINING = "fedtheory_checks.lpproj.prop3"


def _wrap(monkeypatch, target, make):
    """Replace ``target`` ("module.attr") by ``make(original)``."""
    import importlib

    mod, attr = target.rsplit(".", 1)
    monkeypatch.setattr(target, make(getattr(importlib.import_module(mod), attr)))


def _envelope_penalty_without_half(mp):
    # the envelope's penalty evaluated as lam ||w~ - P x||^2 (the 1/2 dropped): the curvature changes
    def make(orig):
        def bad(H, g, P, lam, w):
            F, x = orig(H, g, P, lam, w)
            r = np.asarray(w, float) - x @ np.asarray(P).T
            return F + 0.5 * lam * np.sum(r * r, -1), x
        return bad

    _wrap(mp, f"{REMAINING}.projected_envelope", make)


def _envelope_lam_halved(mp):
    # the envelope computed with lam/2 in the inner problem: F^*(u) != f^*(P^T u) + ||u||^2/(2 lam)
    _wrap(mp, f"{REMAINING}.projected_envelope", lambda orig: (lambda H, g, P, lam, w: orig(H, g, P, lam / 2, w)))


M = "fedtheory_checks.lpproj"


def _prop3_swapped_singular_values(mp):
    # s_min used where Proposition 3 has s_max (and vice versa)
    _wrap(mp, f"{M}.prop3.prop3_bounds",
          lambda orig: (lambda lam, mu, L, s_max, s_min: orig(lam, mu, L, s_min, s_max)))


FAILS_PATHS = {
    "lpproj.prop3.linear-model-tight": _envelope_penalty_without_half,
    "lpproj.prop3.proof-conjugate.erratum": _envelope_lam_halved,
    "lpproj.prop3.hessian-bounds": _prop3_swapped_singular_values,
}


#: quick-mode verdicts of the unpatched claims (lpproj.sec53.savings: the 79x matches no ratio of Table 1, no typo-level fix)
QUICK_VERDICTS = {
    "lpproj.prop3.linear-model-tight": "holds",
    "lpproj.prop3.proof-conjugate.erratum": "erratum",
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])


@pytest.mark.parametrize("claim_id", sorted(QUICK_VERDICTS))
def test_claim_quick_verdict(claim_id, serial_uncached):
    v = get_claim(claim_id).evaluate(full=False)
    assert v.status == QUICK_VERDICTS[claim_id], v.summary()
