"""Sec. 4.2 of Collins, Hassani, Mokhtari and Shakkottai (2021), *Exploiting Shared Representations for Personalized
Federated Learning*, ICML 2021, "Remark on initialization": the erratum of its condition (printed dist(B^0, B*) > c;
corrected E0 = 1 - dist^2(B^0, B*) >= c, what Theorem 1 uses), and the method of moments of Algorithm 2 reaching
that E0 at the per-client sample budget. Referees: the population (m -> infinity) iteration of Algorithm 2 and exact
runs. Verdicts come from ``fedtheory.decide``.

Tests of the catalogue module ``fedtheory_checks.fedrep.sec42_remark_init``: its helpers against independent
computations and its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS``
injects a violating computation with monkeypatch and the quick verdict must refute the claim (the rule is
``check_fails_path`` in this folder's conftest.py)."""
import math

import numpy as np
import pytest

from fedtheory.claims import ERRATUM, FAILS, HOLDS, INCONCLUSIVE
from fedtheory.representation.structure import basis_at_distance
from fedtheory_checks.fedrep import sec42_remark_init as _sec42_remark_init
from fedtheory_checks.fedrep import sec42_remark_init as RI

M = "fedtheory_checks.fedrep"


def _wrap(monkeypatch, target, make):
    """Replace ``target`` ("module.attr") by ``make(original)``."""
    import importlib

    mod, attr = target.rsplit(".", 1)
    monkeypatch.setattr(target, make(getattr(importlib.import_module(mod), attr)))


def population_step_too_small(mp):  # the population round with a tenth of the step
    _wrap(mp, f"{M}.sec42_remark_init.population_fedrep_round", lambda f: lambda B, Bs, Ws, eta, **k: f(B, Bs, Ws, eta / 10, **k))


def mom_degrading_with_n(mp):  # violating numbers: an initialisation whose dist_0 grows with n
    # (a fixed TOTAL budget split over the clients is not such a bug: MoM's accuracy depends on n m)
    mp.setattr(f"{M}.sec42_remark_init.mom_init", lambda model, m, rng: basis_at_distance(
        model.B_star, min(1.0, 0.2 + 0.12 * math.log(model.n)), rng))


def test_mom_budget_verdict_paths():
    rng = np.random.default_rng(0)
    up = {n: np.clip(0.2 * math.log(n) - 0.3 + 0.02 * rng.standard_normal(10), 0, 1) for n in (25, 100, 400)}
    down = {n: np.clip(1.2 - 0.2 * math.log(n) + 0.02 * rng.standard_normal(10), 0, 1) for n in (25, 100, 400)}
    flat = {n: 0.5 + 0.2 * rng.standard_normal(10) for n in (25, 100, 400)}
    assert RI.mom_budget_verdict(up)["status"] == HOLDS
    assert RI.mom_budget_verdict(down)["status"] == FAILS
    out = RI.mom_budget_verdict(flat)
    assert out["status"] in (INCONCLUSIVE, HOLDS, FAILS)
    if out["status"] == INCONCLUSIVE:
        assert out["power"]["needed"] > 1 and "would resolve the exponent" in out["power"]["statement"]


FAILS_PATHS = {
    "fedrep.remark-init.e0-reading": population_step_too_small,
    "fedrep.alg2.mom-e0-budget": mom_degrading_with_n,
}


FUNCS = {
    "fedrep.remark-init.e0-reading": _sec42_remark_init._e0_reading,
    "fedrep.alg2.mom-e0-budget": _sec42_remark_init._mom_budget,
}


# the statuses the claims reach on the real numbers (quick mode, default seed 0)
EXPECTED = {
    "fedrep.remark-init.e0-reading": ERRATUM,
    "fedrep.alg2.mom-e0-budget": HOLDS,
}


#: the root cause each erratum of this file names (typo-level slips, checked against the paper text)
ROOT_CAUSES = {
    "fedrep.remark-init.e0-reading": "init-dist-larger-than-c",
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
