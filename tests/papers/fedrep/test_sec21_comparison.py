"""Sec. 2.1 of Collins, Hassani, Mokhtari and Shakkottai (2021), *Exploiting Shared Representations for Personalized
Federated Learning*, ICML 2021 ("Comparison with Standard Federated Learning"): the minimisers of objective (3) and
the recovery of col(B*), FedAvg's minimiser (4) and its failure to recover the representation, and the population
loss (5)-(6) of this linear problem under Assumption 1 (stated at the opening of Sec. 4). Library code:
:mod:`fedtheory.representation` and :mod:`fedtheory.representation.structure`. Verdicts come from
``fedtheory.decide``.

Tests of the catalogue module ``fedtheory_checks.fedrep.sec21_comparison``: its helpers against independent
computations and its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS``
injects a violating computation with monkeypatch and the quick verdict must refute the claim (the rule is
``check_fails_path`` in this folder's conftest.py)."""
import numpy as np
import pytest

from fedtheory.claims import ERRATUM, FAILS, HOLDS
from fedtheory_checks.fedrep import sec21_comparison as _sec21_comparison
from fedtheory_checks.fedrep import sec42_assumptions as AS
from fedtheory_checks.fedrep import sec21_comparison as C21
from fedtheory_checks.fedrep import sec42_matrix_sensing as MS
from fedtheory_checks.fedrep import sec52_real_data as RD
from fedtheory_checks.fedrep import thm1 as T1

M = "fedtheory_checks.fedrep"


def _wrap(monkeypatch, target, make):
    """Replace ``target`` ("module.attr") by ``make(original)``."""
    import importlib

    mod, attr = target.rsplit(".", 1)
    monkeypatch.setattr(target, make(getattr(importlib.import_module(mod), attr)))


def als_perturbed(mp):  # a minimiser off by 1%
    _wrap(mp, f"{M}.sec21_comparison.alternating_least_squares",
          lambda f: lambda *a, **k: (lambda B, W, o: (B * 1.01, W, o))(*f(*a, **k)))


def als_wrong_column(mp):  # a "minimiser" whose second column is replaced
    def make(f):
        def g(*a, **k):
            B, W, o = f(*a, **k)
            B = B.copy()
            B[:, 1] = np.roll(B[:, 1], 1)
            return B, W, o
        return g
    _wrap(mp, f"{M}.sec21_comparison.alternating_least_squares", make)


def test_structure_verdicts():
    good = dict(bfgs_obj=1e-20, bfgs_gap=1e-9, als_obj=1e-30, als_gap=1e-15)
    assert C21.eq3_verdict(good)["status"] == HOLDS
    assert C21.eq3_verdict({**good, "bfgs_obj": 1e-3})["status"] == FAILS
    spans = {"bfgs": 1e-9, "als": 1e-15, "Q": 1e-15}
    assert C21.recovery_verdict(spans, 1e-32, 1.0, 1e-20, 0.9)["status"] == HOLDS
    assert C21.recovery_verdict(spans, 1e-32, 1.0, 1e-20, 0.01)["status"] == FAILS
    assert C21.recovery_verdict({**spans, "als": 0.3}, 1e-32, 1.0, 1e-20, 0.9)["status"] == FAILS
    d = np.array([[0.99, 0.98], [0.97, 0.99]])
    assert AS.asm2_verdict(0.0, d, np.array([0.01, 0.02]))["status"] == HOLDS
    assert AS.asm2_verdict(1e-3, d, np.array([0.01, 0.02]))["status"] == FAILS
    assert AS.asm2_verdict(0.0, d, np.array([0.01, 0.6, 0.7]))["status"] == FAILS
    rows = [dict(rn=2, rho2=0.9, decreasing=True), dict(rn=1, rho2=1.0, decreasing=False)]
    assert T1.strict_verdict(rows, 0.0, 2)["status"] == HOLDS
    assert T1.strict_verdict(rows + [dict(rn=4, rho2=0.8, decreasing=True)], 0.0, 2)["status"] == FAILS
    assert T1.strict_verdict(rows + [dict(rn=4, rho2=1.0, decreasing=False)], 0.0, 2)["status"] == FAILS
    rip = {10: {5: 3.0, 9: 2.0, 10: 1.5, 320: 0.4}}
    assert MS.rip_verdict(rip, {10: {5: 1.0, 9: 1.0, 10: 0.9, 320: 0.3}})["status"] == HOLDS
    assert MS.rip_verdict(rip, {10: {5: 0.7, 9: 1.0, 10: 0.9, 320: 0.3}})["status"] == FAILS
    assert MS.rip_verdict({10: {5: 0.4, 9: 2.0}}, {10: {5: 1.0, 9: 1.0}})["status"] == FAILS
    assert RD.table1_verdict(RD.TABLE1)["observed"]["top_in"] == 4


# ----------------------------------------------------------------------------- Sec. 2.1
def eq4_forgotten_half(mp):  # the printed minimum without its 1/2
    _wrap(mp, f"{M}.sec21_comparison.fedavg_global_error", lambda f: lambda *a, **k: 2 * f(*a, **k))


def eq6_forgotten_half(mp):  # the Monte Carlo loss (y - w^T B^T x)^2 without the 1/2
    _wrap(mp, f"{M}.sec21_comparison.mc_mean",
          lambda f: lambda sampler, n, seed, **k: f(lambda g, size: 2 * sampler(g, size), n, seed, **k))


def fedavg_with_personal_heads(mp):  # "FedAvg" that keeps a personal head per client (FedRep in disguise)
    from fedtheory.representation import run_fedrep

    def fake(*, d, k, n, m, r, rounds, eta, m_test, seed, replicates=None):
        return run_fedrep(d, k, n, m, r, 20, eta=eta, m_test=m_test, replicates=replicates, seed=seed)
    mp.setattr(f"{M}.sec21_comparison.run_fedavg", fake)


FAILS_PATHS = {
    "fedrep.sec2.eq3-minimisers": als_perturbed,
    "fedrep.sec2.col-recovery": als_wrong_column,
    "fedrep.eq4.fedavg-minimiser": eq4_forgotten_half,
    "fedrep.eq6.population-loss": eq6_forgotten_half,
    "fedrep.sec2.fedavg-no-recovery": fedavg_with_personal_heads,
}


FUNCS = {
    "fedrep.sec2.eq3-minimisers": _sec21_comparison._eq3_min,
    "fedrep.sec2.col-recovery": _sec21_comparison._col_recovery,
}


# the statuses the claims reach on the real numbers (quick mode, default seed 0)
EXPECTED = {
    "fedrep.sec2.eq3-minimisers": HOLDS,
    "fedrep.sec2.col-recovery": HOLDS,
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
