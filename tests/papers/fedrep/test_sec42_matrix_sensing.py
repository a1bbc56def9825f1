"""Sec. 4.2 of Collins, Hassani, Mokhtari and Shakkottai (2021), *Exploiting Shared Representations for Personalized
Federated Learning*, ICML 2021, "Connection to matrix sensing": problem (6) as an instance of matrix sensing, and
its challenge (i), no restricted isometry property for the row-wise sparse measurements. Library code:
:mod:`fedtheory.representation.structure`. Verdicts come from ``fedtheory.decide``.

Tests of the catalogue module ``fedtheory_checks.fedrep.sec42_matrix_sensing``: its helpers against independent
computations and its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS``
injects a violating computation with monkeypatch and the quick verdict must refute the claim (the rule is
``check_fails_path`` in this folder's conftest.py)."""
import numpy as np
import pytest

from fedtheory.claims import ERRATUM, HOLDS
from fedtheory_checks.fedrep import sec42_matrix_sensing as _sec42_matrix_sensing

M = "fedtheory_checks.fedrep"


def sensing_wrong_row(mp):  # A_ij = e_0 x_ij^T for every client
    def bad(X, W, B, Ws, Bs):
        D = Ws @ Bs.T - W @ B.T
        return np.einsum("imd,d->im", X, D[0])
    mp.setattr(f"{M}.sec42_matrix_sensing.sensing_residuals", bad)


def isometry_all_ones(mp):  # eigenvalues reported as 1 (e.g. normalised by the wrong m)
    mp.setattr(f"{M}.sec42_matrix_sensing.rank1_isometry_range", lambda X: (np.ones(X.shape[0]), np.ones(X.shape[0])))


def test_strict_decrease_is_a_consistency_check():
    """Arithmetic on the right side of (10) itself: reported apart, not evidence for the paper."""
    from fedtheory_checks.fedrep import PAPER

    for cid in ("fedrep.sec4.strict-decrease", "fedrep.sec4.matrix-sensing"):
        assert PAPER._claims[cid].kind == "consistency"


FAILS_PATHS = {
    "fedrep.sec4.matrix-sensing": sensing_wrong_row,
    "fedrep.sec4.no-rip": isometry_all_ones,
}


FUNCS = {
    "fedrep.sec4.matrix-sensing": _sec42_matrix_sensing._sensing,
    "fedrep.sec4.no-rip": _sec42_matrix_sensing._no_rip,
}


# the statuses the claims reach on the real numbers (quick mode, default seed 0)
EXPECTED = {
    "fedrep.sec4.matrix-sensing": HOLDS,
    "fedrep.sec4.no-rip": HOLDS,
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
