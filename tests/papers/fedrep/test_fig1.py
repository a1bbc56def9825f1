"""Figure 1 of Collins, Hassani, Mokhtari and Shakkottai (2021), *Exploiting Shared Representations for Personalized
Federated Learning*, ICML 2021 (Sec. 1): local test MSE of Local Only, FedAvg and FedRep, its caption's orderings,
and the erratum of its y-axis scale (the plotted errors carry an extra factor 1/m_test), with the figure that shows
the printed and the corrected scale.

Tests of the catalogue module ``fedtheory_checks.fedrep.fig1``: its helpers against independent computations and its
verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS`` injects a violating
computation with monkeypatch and the quick verdict must refute the claim (the rule is ``check_fails_path`` in this
folder's conftest.py)."""
import numpy as np
import pytest

from fedtheory.claims import ERRATUM, FAILS, HOLDS
from fedtheory_checks.fedrep import fig1 as _fig1
from fedtheory_checks.fedrep import fig1 as F1
from fedtheory_checks.fedrep import fig1

M = "fedtheory_checks.fedrep"


def _wrap(monkeypatch, target, make):
    """Replace ``target`` ("module.attr") by ``make(original)``."""
    import importlib

    mod, attr = target.rsplit(".", 1)
    monkeypatch.setattr(target, make(getattr(importlib.import_module(mod), attr)))


def notebook_forgotten_half(mp):  # the notebook error without its 1/2
    _wrap(mp, f"{M}.fig1.notebook_fig1_error",
          lambda f: lambda *a, **k: tuple(2 * x for x in f(*a, **k)))


def test_mtest_verdict_paths():
    c = {"printed": {}, "corrected": {}}
    assert F1.mtest_verdict(np.array([1e3]), np.array([0.5]), c)["status"] == ERRATUM
    assert F1.mtest_verdict(np.array([1e3]), np.array([50.0]), c)["status"] == FAILS
    assert F1.mtest_verdict(np.array([0.3]), np.array([0.5]), c)["status"] == HOLDS


EX = "fedtheory.representation.experiments"


@pytest.fixture
def s5():
    from fedtheory_checks.fedrep import fig1
    return fig1


NOT_REPRODUCED = "not-reproduced"


# ----------------------------------------------------------------------------- Figure 1 sub-claim
def fig1_local_worst_swapped(mp):
    """Injected: Local Only's and FedRep's columns swapped (Local Only no longer suffers at m = 5)."""
    from fedtheory.representation import experiments as ex

    orig = ex.fig1_data

    def g(*a, **k):
        out = {key: v.copy() for key, v in orig(*a, **{**k, "rounds": 20}).items()}
        out["Local"][:, 0], out["FedRep"][:, 0] = out["FedRep"][:, 0], out["Local"][:, 0].copy()  # at m = 5
        return out
    mp.setattr(f"{EX}.fig1_data", g)


def test_fig1_local_worst_holds_under_the_caption(s5):
    """Relabelled: the caption says Local Only 'suffers in small-training data regimes' (holds); the spec's
    'Local is the worst method' is reported as context only (FedAvg+FT is worse here)."""
    out = fig1._fig1_local_worst(False, 0)
    assert out["status"] == HOLDS, out["evidence"]
    med = out["observed"]["median_mse_m5"]
    assert med["FedRep"] < med["Local"] < med["FedAvg"]
    assert out["observed"]["spec_reading_local_worst_at_m5"] is False


def test_fig1_local_worst_can_fail(s5, serial_uncached, monkeypatch):
    fig1_local_worst_swapped(monkeypatch)  # Local beats FedRep at m = 5
    assert fig1._fig1_local_worst(False, 0)["status"] == FAILS


# ----------------------------------------------------------------------------- Sec. 5.1
def _swap(key_a, key_b, rounds):
    def make(f):
        def g(*a, **k):
            out = dict(f(*a, **{**k, "rounds": rounds}))  # fewer rounds: the swap decides anyway
            out[key_a], out[key_b] = out[key_b], out[key_a]
            return out
        return g
    return make


def fig1_labels_swapped(mp):  # FedRep and FedAvg columns swapped
    _wrap(mp, f"{EX}.fig1_data", _swap("FedRep", "FedAvg", 20))


FAILS_PATHS = {
    "fedrep.fig1.mtest-scaling": notebook_forgotten_half,
    "fedrep.fig1.local-worst-small-m": fig1_local_worst_swapped,  # Local beats FedRep at m = 5
    "fedrep.fig1.local-mse": fig1_labels_swapped,
}


FUNCS = {
    "fedrep.fig1.mtest-scaling": _fig1._mtest_scaling,
}


# the statuses the claims reach on the real numbers (quick mode, default seed 0)
EXPECTED = {
    "fedrep.fig1.mtest-scaling": ERRATUM,
}


#: the root cause each erratum of this file names (typo-level slips, checked against the paper text)
ROOT_CAUSES = {
    "fedrep.fig1.mtest-scaling": "fig1-extra-mtest-scaling",
}


#: the same paths with the legacy status names, and Figure 3's ordering under the tuned head step
#: (fig3_tuned_order_reversed, the twin of fig3_order_reversed)
SEC5_PATHS = {
    "fedrep.fig1.local-worst-small-m": fig1_local_worst_swapped,
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


@pytest.mark.parametrize("claim_id", sorted(SEC5_PATHS))
def test_fails_paths_make_the_claim_fail(claim_id, monkeypatch, serial_uncached):
    from fedtheory import get_claim

    SEC5_PATHS[claim_id](monkeypatch)
    v = get_claim(claim_id).evaluate(full=False)
    experiment = {"fedrep.fig3.ordering", "fedrep.fig3.ordering-paper-steps", "fedrep.sec5.gd-n-scaling",
                  "fedrep.benefit1.local-updates"}
    assert v.status == (NOT_REPRODUCED if claim_id in experiment else FAILS), v.summary()
