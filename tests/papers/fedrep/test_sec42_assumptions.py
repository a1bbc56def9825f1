"""Sec. 4.2 of Collins, Hassani, Mokhtari and Shakkottai (2021), *Exploiting Shared Representations for Personalized
Federated Learning*, ICML 2021, the text after Assumptions 2 and 3: Assumption 2 (client diversity) is necessary,
Assumption 3 (client normalisation) can be relaxed to ||w_i*|| <= O(sqrt(k)), and the erratum of the row-incoherence
sentence ("Assumption 2 ensures ... row-wise incoherent", which is Assumption 3's doing). Library code:
:mod:`fedtheory.representation.structure`. Verdicts come from ``fedtheory.decide``.

Tests of the catalogue module ``fedtheory_checks.fedrep.sec42_assumptions``: its helpers against independent
computations and its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS``
injects a violating computation with monkeypatch and the quick verdict must refute the claim (the rule is
``check_fails_path`` in this folder's conftest.py)."""
import pytest

from fedtheory.claims import ERRATUM, HOLDS
from fedtheory_checks.fedrep import alg2 as A2
from fedtheory_checks.fedrep import fig1 as F1
from fedtheory_checks.fedrep import sec21_comparison as C21
from fedtheory_checks.fedrep import sec42_assumptions as AS
from fedtheory_checks.fedrep import sec42_eq8_invariance as IV
from fedtheory_checks.fedrep import sec42_matrix_sensing as MS
from fedtheory_checks.fedrep import sec42_remark_init as RI
from fedtheory_checks.fedrep import sec52_real_data as RD
from fedtheory_checks.fedrep import thm1 as T1

M = "fedtheory_checks.fedrep"


def _wrap(monkeypatch, target, make):
    """Replace ``target`` ("module.attr") by ``make(original)``."""
    import importlib

    mod, attr = target.rsplit(".", 1)
    monkeypatch.setattr(target, make(getattr(importlib.import_module(mod), attr)))


def incoherence_wrong_norm(mp):  # the ratio computed with the max row norm squared
    _wrap(mp, f"{M}.sec42_assumptions.row_incoherence", lambda f: lambda W, B: f(W, B) ** 2 * 3)


def reduced_sampler_leaks_truth(mp):  # the reduced sampler draws in B*'s frame: the data law sees B*
    _wrap(mp, f"{M}.sec42_assumptions.run_fedrep", lambda f: lambda *a, sampler="full", **k: f(*a, sampler="reduced", **k))


def relaxed_violations(mp):  # violating numbers: 2 runs break (10)
    mp.setattr(f"{M}.sec42_assumptions.bound10_violations", lambda dist, eta, s: (2, 1.3))


FAILS_PATHS = {
    "fedrep.asm3.row-incoherence": incoherence_wrong_norm,
    "fedrep.sec4.asm2-necessity": reduced_sampler_leaks_truth,
    "fedrep.sec4.relaxed-normalisation": relaxed_violations,
}


FUNCS = {
    "fedrep.asm3.row-incoherence": AS._row_incoherence,
    "fedrep.sec4.asm2-necessity": AS._asm2,
    "fedrep.sec4.relaxed-normalisation": AS._relaxed,
}


# the statuses the claims reach on the real numbers (quick mode, default seed 0)
EXPECTED = {
    "fedrep.asm3.row-incoherence": ERRATUM,
    "fedrep.sec4.asm2-necessity": HOLDS,
    "fedrep.sec4.relaxed-normalisation": HOLDS,
}


#: the root cause each erratum of this file names (typo-level slips, checked against the paper text)
ROOT_CAUSES = {
    "fedrep.asm3.row-incoherence": "asm2-named-for-asm3",
}


def test_tables_cover_the_same_claims():
    assert set(FUNCS) == set(EXPECTED) and set(FUNCS) <= set(FAILS_PATHS)


def test_claims_are_registered_with_these_functions():
    from fedtheory_checks.fedrep import PAPER

    for cid, func in FUNCS.items():
        claim = PAPER._claims[cid]   # registered on import; the ledger is not needed for this
        assert claim.func is func, cid
        assert len(claim.regime) >= 20


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])


@pytest.mark.parametrize("claim_id", sorted(EXPECTED))
def test_claim_on_real_numbers(claim_id, serial_uncached):
    out = FUNCS[claim_id](full=False, seed=0)
    assert out["status"] == EXPECTED[claim_id], out["evidence"]
    assert out["margin"] is not None and out["detects"] is not None   # decided by fedtheory.decide
    if out["status"] == ERRATUM:
        assert out["referee"]
        from fedtheory_checks.fedrep import PAPER
        assert out["root_cause"] in PAPER.root_causes()


@pytest.mark.parametrize("claim_id", sorted(ROOT_CAUSES))
def test_errata_name_their_root_cause(claim_id):
    from fedtheory_checks.fedrep import PAPER

    assert PAPER._claims[claim_id].root_cause == ROOT_CAUSES[claim_id]
