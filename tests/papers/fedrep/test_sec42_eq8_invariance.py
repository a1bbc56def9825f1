"""Sec. 4.2 of Collins, Hassani, Mokhtari and Shakkottai (2021), *Exploiting Shared Representations for Personalized
Federated Learning*, ICML 2021, the text after eq. (8): objective (8) has many global minima, the pairs (W* Q^-1, B*
Q^T) for invertible Q, so the factors are not identifiable; and the erratum of the printed pair (Q^-1 W*, B* Q^T),
decided at a general point in floating point and in exact rational arithmetic. Verdicts come from
``fedtheory.decide``.

Tests of the catalogue module ``fedtheory_checks.fedrep.sec42_eq8_invariance``: its helpers against independent
computations and its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS``
injects a violating computation with monkeypatch and the quick verdict must refute the claim (the rule is
``check_fails_path`` in this folder's conftest.py)."""
import pytest

from fedtheory.claims import ERRATUM, FAILS
from fedtheory_checks.fedrep import sec42_eq8_invariance as _sec42_eq8_invariance
from fedtheory_checks.fedrep import sec42_assumptions as AS
from fedtheory_checks.fedrep import sec42_eq8_invariance as IV
from fedtheory_checks.fedrep import sec42_remark_init as RI

M = "fedtheory_checks.fedrep"


def _wrap(monkeypatch, target, make):
    """Replace ``target`` ("module.attr") by ``make(original)``."""
    import importlib

    mod, attr = target.rsplit(".", 1)
    monkeypatch.setattr(target, make(getattr(importlib.import_module(mod), attr)))


def fraction_inverse_transposed(mp):  # Q^-T where Q^-1 belongs (exact part)
    _wrap(mp, f"{M}.sec42_eq8_invariance.fraction_inverse", lambda f: lambda Q: None if f(Q) is None else f(Q).T)


def test_e0_invariance_incoherence_verdicts():
    rows = {"printed": [dict(ratio=1.7, distT=1.0)], "corrected": [dict(ratio=0.5, distT=0.1)]}
    assert RI.e0_verdict(rows)["status"] == ERRATUM
    rows["corrected"].append(dict(ratio=1.01, distT=0.2))
    assert RI.e0_verdict(rows)["status"] == FAILS
    assert IV.invariance_verdict(0.01, 1e9, [0.0], [3.0])["status"] == ERRATUM
    assert IV.invariance_verdict(2.0, 1e9, [0.0], [3.0])["status"] == FAILS
    assert IV.invariance_verdict(0.01, 1e9, [1e-30], [3.0])["status"] == FAILS   # exact means exact
    pr = [dict(scale=100.0, sigma_min=0.3, mu=3.1)]
    assert AS.incoherence_verdict(pr, [1.0, 1.0], 2.0)["status"] == ERRATUM
    assert AS.incoherence_verdict(pr, [1.0, 2.5], 2.0)["status"] == FAILS


def noisy_objective_referee(mp):  # the referee evaluates the objective with label noise sigma = 0.1
    _wrap(mp, f"{M}.sec42_eq8_invariance.population_objective",
          lambda f: lambda B, W, Bs, Ws, sigma=0.0: f(B, W, Bs, Ws, 0.1))


FAILS_PATHS = {
    "fedrep.sec4.invariance-general": fraction_inverse_transposed,
    "fedrep.sec4.non-identifiability": noisy_objective_referee,
}


FUNCS = {
    "fedrep.sec4.invariance-general": _sec42_eq8_invariance._invariance,
}


# the statuses the claims reach on the real numbers (quick mode, default seed 0)
EXPECTED = {
    "fedrep.sec4.invariance-general": ERRATUM,
}


#: the root cause each erratum of this file names (typo-level slips, checked against the paper text)
ROOT_CAUSES = {
    "fedrep.sec4.invariance-general": "q-inverse-on-the-wrong-side",
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
