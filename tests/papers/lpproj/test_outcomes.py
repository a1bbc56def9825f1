"""The lp-proj plugin as a whole (Han, Li, Lin and Zhang, *A Random Projection Approach to Personalized Federated
Learning*, JMLR 25 (2024)): no verdict rule outside :mod:`fedtheory.decide`, aliases, consistency checks, root
causes and the recorded outcomes; exactly one fails path per claim among the section files."""
import ast
import csv
import os

import pytest

from fedtheory import get_claim, get_paper

PKG = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, os.pardir, "checks", "lpproj")


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


def test_bullets_alias_and_artifact_reading():
    c = get_claim("lpproj.thm30.bullets.erratum")
    assert c.id == "lpproj.thm30.bullets"
    assert "text-extraction artifact" in c.regime
    assert get_claim("lpproj.sec53.savings.erratum").id == "lpproj.sec53.savings"


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


def test_every_claim_has_a_fails_path(fails_path_ids):
    """The ``FAILS_PATHS`` tables of this folder's section files cover exactly the claims of the paper."""
    from fedtheory import get_paper

    assert {cid for cid, _ in fails_path_ids("lpproj")} == {c.id for c in get_paper("lpproj").claims()}


def test_no_claim_has_two_fails_paths(fails_path_ids):
    seen = {}
    for cid, where in fails_path_ids("lpproj"):
        assert cid not in seen, f"{cid}: a fails path in {seen.get(cid)} and in {where}"
        seen[cid] = where
