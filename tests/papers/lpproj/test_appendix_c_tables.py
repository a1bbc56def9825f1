"""App. C (experimental details): the parameter counts of Table 3 and the data-volume-skew text of App. C.7.1 (Han,
Li, Lin and Zhang, *A Random Projection Approach to Personalized Federated Learning*, JMLR 25 (2024)).

Tests of the catalogue module ``fedtheory_checks.lpproj.appendix_c_tables``: its helpers against independent
computations and its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS``
injects a violating computation with monkeypatch and the quick verdict must refute the claim (the rule is
``check_fails_path`` in this folder's conftest.py)."""
import numpy as np
import pytest

from fedtheory import get_claim

REMAINING = "fedtheory_checks.lpproj.appendix_c_tables"


#: the Sec. 5.3 / App. C.7.1 table-text claims (moved out of remaining.py)
TABLES = "fedtheory_checks.lpproj.appendix_c_tables"


def _wrap(monkeypatch, target, make):
    """Replace ``target`` ("module.attr") by ``make(original)``."""
    import importlib

    mod, attr = target.rsplit(".", 1)
    monkeypatch.setattr(target, make(getattr(importlib.import_module(mod), attr)))


def _conv_without_bias(mp):
    # the per-layer formula drops conv biases: 678090 etc. instead of the printed counts
    _wrap(mp, f"{REMAINING}.layer_parameter_count",
          lambda orig: (lambda kind, i, o, k=1, **kw: orig(kind, i, o, k, bias=kind != "conv")))


def _relative_gain_doubled(mp):
    # the relative gain halved: neither the printed 32% nor the corrected 22% survives (with it doubled the
    # printed form would hold, which the kit reports as holds)
    mp.setattr(f"{TABLES}._relative_gain", lambda new, old: (new / old - 1) / 2)


def _reduction_as_ratio(mp):
    # "reduction" computed as new/old instead of 1 - new/old
    mp.setattr(f"{TABLES}._reduction", lambda new, old: new / old)


def test_erratum_printed_holding_is_not_an_erratum(monkeypatch):
    """The kit's erratum template: when the referee finds the printed form true, the claim holds."""
    from fedtheory_checks.lpproj import appendix_c_tables

    monkeypatch.setattr(appendix_c_tables, "_relative_gain", lambda new, old: 2 * (new / old - 1))
    v = get_claim("lpproj.appC71.table11-text.erratum").evaluate(full=False)
    assert v.status == "holds" and v.root_cause == ""
    assert np.isfinite(v.detects["factor"])


FAILS_PATHS = {
    "lpproj.table3.parameter-counts": _conv_without_bias,
    "lpproj.appC71.table10-text": _reduction_as_ratio,
    "lpproj.appC71.table11-text.erratum": _relative_gain_doubled,
}


#: quick-mode verdicts of the unpatched claims (lpproj.sec53.savings: the 79x matches no ratio of Table 1, no typo-level fix)
QUICK_VERDICTS = {
    "lpproj.table3.parameter-counts": "holds",
    "lpproj.appC71.table10-text": "holds",
    "lpproj.appC71.table11-text.erratum": "erratum",
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])


@pytest.mark.parametrize("claim_id", sorted(QUICK_VERDICTS))
def test_claim_quick_verdict(claim_id, serial_uncached):
    v = get_claim(claim_id).evaluate(full=False)
    assert v.status == QUICK_VERDICTS[claim_id], v.summary()
