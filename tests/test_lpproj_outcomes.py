"""lp-proj (Han, Li, Lin and Zhang 2024, JMLR 25) graded through the decision kit: the relabels, root causes,
recorded outcomes and sharpened readings are pinned here, and every verdict is shown to come from
:mod:`fedtheory.decide` (no module of the plugin defines a verdict rule)."""
from __future__ import annotations

import ast
import csv
import os

import numpy as np
import pytest

from fedtheory import decide, get_claim, get_paper

PKG = os.path.join(os.path.dirname(__file__), os.pardir, "checks", "lpproj")
#: claims whose outcome or kind changed in the re-grade: id -> (quick outcome, root cause or "")
RELABELS = {
    "lpproj.thm30.bullets": ("holds", ""),  # extraction artifact: the minus signs are in the paper
    "lpproj.sec53.savings": ("refuted", "sec53-79x-no-ratio"),
    "lpproj.thm15.rate": ("inconclusive", ""),
}
CONSISTENCY = ("lpproj.eq19.gt-bound", "lpproj.thm30.effective-heterogeneity", "lpproj.mc.sufficient-sampler",
               "lpproj.alg1.exact-gradient")


def _modules():
    return [os.path.join(PKG, f) for f in sorted(os.listdir(PKG)) if f.endswith(".py")]


def test_no_verdict_rule_in_the_plugin():
    """No module imports the old helpers or the outcome constants, and none writes a status literal."""
    for path in _modules():
        tree = ast.parse(open(path).read())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert not (node.module or "").endswith("_util"), path
                assert node.module != "fedtheory.claims", path
            if isinstance(node, ast.keyword):
                assert node.arg != "status", f"{path}: a status= keyword"
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                assert node.value not in ("fails", "erratum-confirmed"), path


def test_common_keeps_no_statistics():
    from fedtheory_checks.lpproj import _common

    for name in ("se_sample_size", "_sweeps_needed", "mw_size_needed", "normal_quantile", "z_crit", "CLAIM_LEVEL"):
        assert not hasattr(_common, name)


@pytest.mark.parametrize("cid", sorted(RELABELS))
def test_relabel_pinned(cid, serial_uncached):
    outcome, rc = RELABELS[cid]
    if cid == "lpproj.thm30.bullets":
        from fedtheory_checks.lpproj import thm30_losses

        mp = pytest.MonkeyPatch()
        mp.setattr(thm30_losses, "BULLETS_DRAWS", (150, 150))
    try:
        v = get_claim(cid).evaluate(full=False)
    finally:
        if cid == "lpproj.thm30.bullets":
            mp.undo()
    assert v.status == outcome, v.summary()
    assert v.root_cause == rc
    assert v.margin is not None and v.detects is not None


def test_bullets_alias_and_artifact_reading():
    c = get_claim("lpproj.thm30.bullets.erratum")
    assert c.id == "lpproj.thm30.bullets"
    assert "text-extraction artifact" in c.regime
    assert get_claim("lpproj.sec53.savings.erratum").id == "lpproj.sec53.savings"


def test_thm15_power_statement_is_kit_computed():
    v = get_claim("lpproj.thm15.rate").evaluate(full=False)
    assert v.status == "inconclusive"
    assert v.power["needed"] > 10 ** 6 and v.power["unit"] == "rounds"
    assert v.power["statement"] == decide.power_statement(
        v.power["needed"], "rounds", current=v.power["current"], effect=v.power["effect"],
        test=v.power["test"])["statement"]


def test_eq32_reports_the_sharper_reading():
    v = get_claim("lpproj.eq32.recursion").evaluate(full=False)
    assert v.status == "holds"
    assert v.observed["printed"]["value"] < 0.01  # the printed (32) has > 100x slack
    assert v.observed["sharper"]["value"] > v.observed["printed"]["value"]  # the sharper reading is tighter
    assert "sharper reading" in v.evidence and "600x" in v.regime


def test_thm15_no_sampling_reports_both_readings():
    v = get_claim("lpproj.thm15.rate-no-sampling").evaluate(full=False)
    assert v.status == "holds"
    assert v.observed["stricter_reading"]["outcome"] in ("holds", "inconclusive", "refuted")
    assert "-0.38" in v.regime and "stricter reading" in v.evidence


@pytest.mark.parametrize("cid", CONSISTENCY)
def test_consistency_checks(cid):
    assert get_claim(cid).kind == "consistency"


def test_root_causes_registered_and_named():
    paper = get_paper("lpproj")
    rcs = paper.root_causes()
    named = {}
    for c in paper.claims():
        if c.root_cause:
            assert c.root_cause in rcs, c.id
            named.setdefault(c.root_cause, []).append(c.id)
        if c.id.endswith(".erratum"):
            assert c.root_cause, f"{c.id} names no root cause"
    assert set(named) == set(rcs)  # every registered root cause is used
    assert sorted(named["eq49d-lost-half"]) == ["lpproj.eq49d.identity.erratum",
                                                 "lpproj.thm32.fairness-constant.erratum"]
    assert rcs["sec53-79x-no-ratio"].kind == "statement"


def test_outcomes_csv_covers_every_claim():
    paper = get_paper("lpproj")
    with open(os.path.join(PKG, "outcomes.csv")) as fh:
        rows = list(csv.DictReader(fh))
    assert {r["claim"] for r in rows} == {c.id for c in paper.claims()}
    assert paper.expected("lpproj.sec53.savings", False) == "refuted"
    assert paper.expected("lpproj.thm30.bullets", True) == "holds"


def test_patched_violation_is_refuted_by_the_kit(monkeypatch, serial_uncached):
    """(17)'s right side shrunk a million-fold: the kit's one-sided test refutes the grid claim."""
    from fedtheory_checks.lpproj import thm9_grid

    orig = thm9_grid.rhs17

    def tiny(*a, **k):
        out = orig(*a, **k)
        return {key: val * 1e-6 for key, val in out.items()}

    monkeypatch.setattr(thm9_grid, "rhs17", tiny)
    v = get_claim("lpproj.thm9.grid-bound17").evaluate(full=False)
    assert v.status == "refuted", v.summary()
    assert v.margin["tightness"] == "violated"


def test_erratum_printed_holding_is_not_an_erratum(monkeypatch):
    """The kit's erratum template: when the referee finds the printed form true, the claim holds."""
    from fedtheory_checks.lpproj import sec53_tables

    monkeypatch.setattr(sec53_tables, "_relative_gain", lambda new, old: 2 * (new / old - 1))
    v = get_claim("lpproj.appC71.table11-text.erratum").evaluate(full=False)
    assert v.status == "holds" and v.root_cause == ""
    assert np.isfinite(v.detects["factor"])
