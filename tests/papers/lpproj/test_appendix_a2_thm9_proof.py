"""App. A.2, the proof of Theorem 9: the explicit bound (17) and the errata of (16)-(17) (Han, Li, Lin and Zhang, *A
Random Projection Approach to Personalized Federated Learning*, JMLR 25 (2024)).

Tests of the catalogue module ``fedtheory_checks.lpproj.appendix_a2_thm9_proof``: its helpers against independent
computations and its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS``
injects a violating computation with monkeypatch and the quick verdict must refute the claim (the rule is
``check_fails_path`` in this folder's conftest.py)."""
import numpy as np
import pytest

from fedtheory import get_claim


# ----------------------------------------------------------------------------- every claim can fail
THM9_GRID = "fedtheory_checks.lpproj.appendix_a2_thm9_proof"


def _wrap(monkeypatch, target, make):
    """Replace ``target`` ("module.attr") by ``make(original)``."""
    import importlib

    mod, attr = target.rsplit(".", 1)
    monkeypatch.setattr(target, make(getattr(importlib.import_module(mod), attr)))


def _kw(**over):
    """A wrapper factory that calls the original with some keyword arguments overridden."""
    return lambda orig: (lambda *a, **k: orig(*a, **{**k, **over}))


def _wrong_start(mp):
    # the runs start far from the w~_0 = 0 that Delta_0 assumes
    _wrap(mp, "fedtheory_checks.lpproj.thm9.run_algorithm1_sgd", _kw(w0=np.full(3, 5.0)))


def _A_T_undercounted(mp):
    # the referee's direct summation loses 60% of A_T
    _wrap(mp, f"{THM9_GRID}._A_T_exact", lambda orig: (lambda x, T: orig(x, T) * 0.4))


def _A_T_way_off(mp):
    _wrap(mp, f"{THM9_GRID}._A_T_exact", lambda orig: (lambda x, T: orig(x, T) * 0.01))


M = "fedtheory_checks.lpproj"


def _thm9_started_elsewhere(mp):
    # Delta_0 computed for w_0 = 0 while Algorithm 1 starts at w_0 = 10 * 1
    _wrap(mp, f"{M}.appendix_a2_thm9_proof.run_algorithm1", _kw(w0=np.full(3, 10.0)))
    mp.setattr(f"{M}.appendix_a2_thm9_proof.THM9_RUNS", (4, 4))  # shrink what runs


def test_patched_violation_is_refuted_by_the_kit(monkeypatch, serial_uncached):
    """(17)'s right side shrunk a million-fold: the kit's one-sided test refutes the grid claim."""
    from fedtheory_checks.lpproj import thm9

    orig = thm9.rhs17

    def tiny(*a, **k):
        out = orig(*a, **k)
        return {key: val * 1e-6 for key, val in out.items()}

    monkeypatch.setattr(thm9, "rhs17", tiny)
    v = get_claim("lpproj.thm9.grid-bound17").evaluate(full=False)
    assert v.status == "refuted", v.summary()
    assert v.margin["tightness"] == "violated"


FAILS_PATHS = {
    "lpproj.thm9.grid-bound17": _wrong_start,
    "lpproj.thm9.AT-step.erratum": _A_T_undercounted,
    "lpproj.thm9.exp-T.erratum": _A_T_way_off,
    "lpproj.thm9.bound17": _thm9_started_elsewhere,
}


#: quick-mode verdicts of the unpatched claims
QUICK_VERDICTS = {
    "lpproj.thm9.grid-bound17": "holds",
    "lpproj.thm9.AT-step.erratum": "erratum",
    "lpproj.thm9.exp-T.erratum": "erratum",
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])


@pytest.mark.parametrize("claim_id", sorted(QUICK_VERDICTS))
def test_claim_quick_verdict(claim_id, serial_uncached):
    v = get_claim(claim_id).evaluate(full=False)
    assert v.status == QUICK_VERDICTS[claim_id], v.summary()
