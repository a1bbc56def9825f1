"""Appendix B, Lemma B.3 (the expected wall-clock time of FedRep) of Tziotis, Shen, Pedarsani, Hassani and Mokhtari,
*Straggler-Resilient Personalized Federated Learning* (TMLR 2023; arXiv Lemma B.3, eqs. (240)-(247)).

Tests of the catalogue module ``fedtheory_checks.srpfl.lemma_b3``: its helpers against independent computations and
its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS`` injects a violating
computation with monkeypatch and the quick verdict must refute the claim (the rule is ``check_fails_path`` in this
folder's conftest.py)."""
import math

import pytest

from fedtheory.claims import FAILS, HOLDS

S = "fedtheory_checks.srpfl"


def _mod(name):
    import importlib

    return importlib.import_module(f"{S}.{name}")


# ----------------------------------------------------------------------------- item 2
def test_tfr_mismatch_decision():
    thm = _mod("lemma_b3")
    assert not thm.tfr_mismatch(10.3, 11)
    assert thm.tfr_mismatch(10.3, 10)
    assert not thm.tfr_mismatch(10.0 + 1e-12, 10) and not thm.tfr_mismatch(10.0 - 1e-12, 11)
    assert thm.tfr_mismatch(math.nan, 3)


def test_tfr_claim_fails_with_off_by_one(monkeypatch):
    _fp_tfr(monkeypatch)
    assert _mod("lemma_b3")._tfr(False, 0)["status"] == FAILS


def test_tfr_claim_holds():
    out = _mod("lemma_b3")._tfr(False, 0)
    assert out["status"] == HOLDS, out["evidence"]


def _fp_tfr(mp):  # bug: the closed-form t_FR off by one round
    thm = _mod("lemma_b3")
    mp.setattr(thm, "tfr_closed_form", lambda a, N, n0, ch: float(thm.fedrep_rounds_exact(a, N, n0, ch)) + 1)


def _wrap(monkeypatch, target, make):
    """Replace ``target`` ("module.attr") by ``make(original)``."""
    import importlib

    mod, attr = target.rsplit(".", 1)
    monkeypatch.setattr(target, make(getattr(importlib.import_module(mod), attr)))


def _lemB3(mp):
    # bug: the corrected count uses the floor of stage log2(N) (n0 dropped): too many rounds, so the
    # corrected form exceeds the simulated FedRep time
    mp.setattr(f"{S}.lemma_b3.LEMB3_REPS", {False: 50, True: 50})
    _wrap(mp, f"{S}.lemma_b3._grid", lambda orig: lambda: orig()[:12])
    _wrap(mp, f"{S}.lemma_b3.fedrep_rounds_exact",
          lambda orig: lambda a, N, n0, c_hat, d0=1.0: orig(a, N, 1, c_hat, d0))


def test_lemb3_refutation_is_a_kit_decision_on_the_printed_bound(monkeypatch, serial_uncached):
    # with (248) patched to the valid bound t_FR (H_N + c)/lambda, the kit's bound holds: the refutation comes
    # from the numbers, not from a label
    import fedtheory_checks.srpfl.lemma_b3 as B

    monkeypatch.setattr(B, "LEMB3_REPS", {False: 50, True: 50})
    monkeypatch.setattr(B, "_grid", lambda: [(64, 0.05, 0.0, 1.2), (256, 0.2, 10.0, 1.05), (1024, 0.05, 0.0, 1.35)])
    monkeypatch.setattr(B, "lemma_b3_bound", lambda N, a, ch, lam: 0.5 * B.fedrep_rounds_exact(a, N, 4, ch)
                        * B.expected_order_statistic(N, N))
    assert B._lemB3(False, 0)["status"] == "holds"


FAILS_PATHS = {
    "srpfl.thm4.9.tFR-count": _fp_tfr,
    "srpfl.lemB3.lower-bound": _lemB3,
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
