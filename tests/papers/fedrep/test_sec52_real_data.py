"""Sec. 5.2 of Collins, Hassani, Mokhtari and Shakkottai (2021), *Exploiting Shared Representations for Personalized
Federated Learning*, ICML 2021 (real data), on its linear analogue or on the printed numbers: "Benefit of more local
updates" (Benefit (1) of Sec. 1, Figure 5) and "Robustness to varying levels of heterogeneity" (Table 1). Verdicts
come from ``fedtheory.decide``; an experiment that the linear analogue does not reproduce is ``not-reproduced``,
with the analogue named.

Tests of the catalogue module ``fedtheory_checks.fedrep.sec52_real_data``: its helpers against independent
computations and its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS``
injects a violating computation with monkeypatch and the quick verdict must refute the claim (the rule is
``check_fails_path`` in this folder's conftest.py)."""
import pytest

from fedtheory.claims import ERRATUM, FAILS, HOLDS
from fedtheory_checks.fedrep import sec52_real_data as _sec52_real_data
from fedtheory_checks.fedrep import sec52_real_data as RD
from fedtheory_checks.fedrep import sec52_real_data

M = "fedtheory_checks.fedrep"


def table_typo(mp):  # FedRep's CIFAR10 (100,2) entry mistyped as 80.70
    t = dict(RD.TABLE1)
    t["FedRep"] = (80.70,) + t["FedRep"][1:]
    mp.setattr(f"{M}.sec52_real_data.TABLE1", t)


EX = "fedtheory.representation.experiments"


@pytest.fixture
def s5():
    from fedtheory_checks.fedrep import sec52_real_data
    return sec52_real_data


NOT_REPRODUCED = "not-reproduced"


# ----------------------------------------------------------------------------- Benefit (1)
def benefit1_reversed(mp):
    """Injected: the tau columns reversed (more local updates help FedAvg's objective, hurt FedRep)."""
    from fedtheory.representation import experiments as ex

    orig = ex.local_updates_data

    def g(*a, **k):
        out = orig(*a, **{**k, "rounds_fedavg": 20, "rounds_fedrep": 10, "seeds": 24})
        return {key: v[:, ::-1] for key, v in out.items()}
    mp.setattr(f"{EX}.local_updates_data", g)


def test_benefit1_can_fail(s5, serial_uncached, monkeypatch):
    benefit1_reversed(monkeypatch)
    assert sec52_real_data._benefit1(False, 0)["status"] == NOT_REPRODUCED


FAILS_PATHS = {
    "fedrep.sec5.table1-robustness": table_typo,
    "fedrep.benefit1.local-updates": benefit1_reversed,
}


FUNCS = {
    "fedrep.sec5.table1-robustness": _sec52_real_data._table1,
}


# the statuses the claims reach on the real numbers (quick mode, default seed 0)
EXPECTED = {
    "fedrep.sec5.table1-robustness": HOLDS,
}


#: the same paths with the legacy status names, and Figure 3's ordering under the tuned head step
#: (fig3_tuned_order_reversed, the twin of fig3_order_reversed)
SEC5_PATHS = {
    "fedrep.benefit1.local-updates": benefit1_reversed,
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


@pytest.mark.parametrize("claim_id", sorted(SEC5_PATHS))
def test_fails_paths_make_the_claim_fail(claim_id, monkeypatch, serial_uncached):
    from fedtheory import get_claim

    SEC5_PATHS[claim_id](monkeypatch)
    v = get_claim(claim_id).evaluate(full=False)
    experiment = {"fedrep.fig3.ordering", "fedrep.fig3.ordering-paper-steps", "fedrep.sec5.gd-n-scaling",
                  "fedrep.benefit1.local-updates"}
    assert v.status == (NOT_REPRODUCED if claim_id in experiment else FAILS), v.summary()
