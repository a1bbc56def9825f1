"""The phase costs in the proof of Lemma B.2 of SRPFL (Tziotis, Shen, Pedarsani, Hassani and Mokhtari, TMLR 2023,
Appendix B, eqs. (218)-(244) and the parenthesisation of D in (231), (233)-(238), (251)): phase 1 (the stages below
N clients) and phase 2 (the last stage), each line against an exact referee (order-statistic means, the scalar
recursion iterated round by round, the idealised run).

Tests of the catalogue module ``fedtheory_checks.srpfl.lemma_b2_phases``: its helpers against independent
computations and its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS``
injects a violating computation with monkeypatch and the quick verdict must refute the claim (the rule is
``check_fails_path`` in this folder's conftest.py)."""
import math

import pytest

from fedtheory.claims import ERRATUM, FAILS, HOLDS, REFUTED

S = "fedtheory_checks.srpfl"


def _mod(name):
    import importlib

    return importlib.import_module(f"{S}.{name}")


# ----------------------------------------------------------------------------- Appendix B rows and errata
def test_chain_violations():
    B = _mod("lemma_b2_phases")
    rows = {(1,): {"x": 1.0, "y": 2.0}, (2,): {"x": 3.0, "y": 2.0}}
    assert B.chain_violations(rows, [("x", "y")]) == {"x<=y": [(2,)]}


@pytest.mark.parametrize("fn,status", [("_eq218_220", HOLDS), ("_eq225_226", HOLDS), ("_eq229", ERRATUM),
                                       ("_eq233_237", REFUTED), ("_eq241_244", REFUTED), ("_eqD", ERRATUM)])
def test_appendix_b_claims_real_numbers(fn, status):
    out = getattr(_mod("lemma_b2_phases"), fn)(False, 0)
    assert out["status"] == status, out["evidence"]
    assert out["margin"] is not None and out["detects"] is not None


@pytest.mark.parametrize("cid,status,root", [("srpfl.eq233-237.phase2", REFUTED, "phase2-drops-c"),
                                             ("srpfl.eq241-244.phase2-cost", REFUTED, "phase2-drops-c"),
                                             ("srpfl.eq229.erratum", ERRATUM, "eq229-c-plus-1"),
                                             ("srpfl.eqD.parenthesisation-erratum", ERRATUM, "eqd-parenthesisation")])
def test_phase_relabels_and_root_causes(cid, status, root):
    # (236)-(237) and (241)-(244) drop c through invalid steps (refuted, one root cause for both); (229) and D are
    # typo-level errata refereed by exact computations
    from fedtheory import get_claim, get_paper

    v = get_claim(cid).evaluate(full=False)
    assert v.status == status and v.root_cause == root, v.summary()
    assert root in get_paper("srpfl").root_causes()


def test_eq218_220_fails_on_a_wrong_stage_count(monkeypatch):
    _fp_eq218(monkeypatch)  # the stage lengths t^i of (203) halved (on a private cache)
    assert _mod("lemma_b2_phases")._eq218_220(False, 0)["status"] == FAILS


def test_eq229_fails_when_corrected_form_fails(monkeypatch):
    _fp_eq229(monkeypatch)
    assert _mod("lemma_b2_phases")._eq229(False, 0)["status"] == FAILS


def test_eq233_237_fails_when_corrected_form_fails(monkeypatch):
    _fp_eq233(monkeypatch)
    assert _mod("lemma_b2_phases")._eq233_237(False, 0)["status"] == FAILS


def test_eq241_244_fails_when_corrected_form_fails(monkeypatch):
    _fp_eq241(monkeypatch)
    assert _mod("lemma_b2_phases")._eq241_244(False, 0)["status"] == FAILS


def test_eqD_fails_when_corrected_form_fails(monkeypatch):
    _fp_eqD(monkeypatch)
    assert _mod("lemma_b2_phases")._eqD(False, 0)["status"] == FAILS


def _fp_eq218(mp):  # violating numbers: the stage lengths t^i of (203) halved
    B = _mod("lemma_b2_phases")
    import functools

    from fedtheory.srpfl import stage_rounds
    mp.setattr(B, "stage_rounds", lambda *a, **k: 0.5 * stage_rounds(*a, **k))
    # a fresh cache while patched: the module's cached phase-1 terms stay untouched
    mp.setattr(B, "phase1_terms", functools.lru_cache(maxsize=None)(B.phase1_terms.__wrapped__))


def _fp_eq225(mp):  # violating numbers: (226) reported at half of (225)
    B = _mod("lemma_b2_phases")
    orig = B.phase1_terms
    mp.setattr(B, "phase1_terms", lambda N, a, c, n0=4: {**orig(N, a, c, n0), "eq226": 0.5 * orig(N, a, c, n0)["eq225"]})


def _fp_eq229(mp):
    B = _mod("lemma_b2_phases")
    orig = B.phase1_terms
    mp.setattr(B, "phase1_terms", lambda N, a, c, n0=4: {**orig(N, a, c, n0),
                                                         "eq229_corrected": 0.5 * orig(N, a, c, n0)["eq226"]})


def _fp_eq233(mp):
    B = _mod("lemma_b2_phases")
    orig = B.phase2_forms
    mp.setattr(B, "phase2_forms", lambda *a, **k: {**orig(*a, **k), "eq236_corrected": 0.5 * orig(*a, **k)["eq236_corrected"]})


def _fp_eq241(mp):
    B = _mod("lemma_b2_phases")
    orig = B.phase2_costs
    mp.setattr(B, "phase2_costs", lambda *a, **k: {**orig(*a, **k), "eq243_corrected": 0.0})


def _fp_eqD(mp):  # violating numbers: a "corrected" floor without the (1 - a) under the root
    B = _mod("lemma_b2_phases")
    orig = B.floor_forms
    mp.setattr(B, "floor_forms", lambda a, N, n0=4: (orig(a, N, n0)[0], orig(a, N, n0)[1] * math.sqrt(1 - a)))


FAILS_PATHS = {
    "srpfl.eq218-220.phase1": _fp_eq218,
    "srpfl.eq225-226.phase1": _fp_eq225,
    "srpfl.eq229.erratum": _fp_eq229,
    "srpfl.eq233-237.phase2": _fp_eq233,
    "srpfl.eq241-244.phase2-cost": _fp_eq241,
    "srpfl.eqD.parenthesisation-erratum": _fp_eqD,
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
