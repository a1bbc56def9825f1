"""The SRPFL plugin as a whole (Tziotis, Shen, Pedarsani, Hassani and Mokhtari, *Straggler-Resilient Personalized
Federated Learning*, TMLR 2023): no verdict rule outside :mod:`fedtheory.decide`, relabels, root causes, consistency
checks and the recorded outcomes of every claim; every claim has exactly one fails path among the section files."""
import ast
import pathlib

import pytest

from fedtheory_checks.srpfl import appendix_a_rounds as _appendix_a_rounds
from fedtheory import get_claim, get_paper
from fedtheory.claims import ERRATUM
from fedtheory.paper import read_outcomes_csv
from fedtheory_checks.srpfl import thm4_7_proof_116_137

SRC = pathlib.Path(__file__).resolve().parents[3] / "checks" / "srpfl"


STATUS_NAMES = {"HOLDS", "FAILS", "ERRATUM", "INCONCLUSIVE", "REFUTED", "VACUOUS", "NOT_REPRODUCED"}


@pytest.mark.parametrize("path", sorted(SRC.glob("*.py")), ids=lambda p: p.name)
def test_no_verdict_rule_in_the_plugin(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            assert node.module not in ("_util",) and not (node.level == 2 and node.module == "_util"), path.name
            assert not {a.name for a in node.names} & STATUS_NAMES, f"{path.name} imports a status constant"
        if isinstance(node, ast.keyword) and node.arg == "status":
            pytest.fail(f"{path.name}:{node.lineno} builds a status by hand")
        if isinstance(node, ast.Dict):
            keys = [k.value for k in node.keys if isinstance(k, ast.Constant)]
            assert "status" not in keys, f"{path.name}:{node.lineno} builds a status by hand"


def test_common_keeps_no_statistics_helpers():
    import fedtheory_checks.srpfl._common as C

    for name in ("z_crit", "sign_test", "mann_whitney", "mw_size_needed"):
        assert not hasattr(C, name), f"_common.{name} is replaced by the kit"


@pytest.mark.parametrize("cid,outcome,root", [
    ("srpfl.lemB3.lower-bound", "refuted", "lemb3-not-lower-bound"),
    ("srpfl.lemA10.zero-mean", "refuted", "lema10-dependent-mean"),
    ("srpfl.eq233-237.phase2", "refuted", "phase2-drops-c"),
    ("srpfl.eq241-244.phase2-cost", "refuted", "phase2-drops-c"),
    ("srpfl.eq224.erratum", "erratum", "eq224-constant"),
    ("srpfl.alg2.line16", "erratum", "alg2-line16-pre-qr"),
])
def test_relabels_and_root_causes(cid, outcome, root, serial_uncached):
    v = get_claim(cid).evaluate(full=False)
    assert v.status == outcome and v.root_cause == root, v.summary()
    assert v.margin is not None and v.detects is not None
    assert root in get_paper("srpfl").root_causes()


def test_consistency_check_and_c0_reading():
    assert get_claim("srpfl.thm4.9.per-round-time").kind == "consistency"
    for cid in ("srpfl.thm4.7.contraction", "srpfl.thm4.7.one-step-contraction", "srpfl.thm4.7.E0-trajectory"):
        assert "c0 read as 0.001" in get_claim(cid).regime, cid


def test_recorded_outcomes_cover_every_claim():
    table = read_outcomes_csv(str(SRC / "outcomes.csv"))
    assert set(table) == {c.id for c in get_paper("srpfl").claims()}
    assert all(row.get("quick") for row in table.values())


@pytest.fixture(autouse=True)
def _fresh_table():
    _appendix_a_rounds.exact_round_table.cache_clear()
    yield
    _appendix_a_rounds.exact_round_table.cache_clear()


def test_sigma_errata_share_one_root_cause():
    from fedtheory import get_claim

    ids = ("srpfl.eq137.A2-sigma", "srpfl.eq185.R2-sigma", "srpfl.eq190.R3-sigma", "srpfl.lemA7-A9.sigma-scaling",
           "srpfl.lemA8-A10.sigma-scaling")
    assert {get_claim(i).root_cause for i in ids} == {"sigma-for-sigma2"}
    out = thm4_7_proof_116_137._a2(full=False, seed=0)
    assert out["status"] == ERRATUM and out["root_cause"] == "sigma-for-sigma2" and out["referee"]


def test_every_claim_has_a_fails_path(fails_path_ids):
    """The ``FAILS_PATHS`` tables of this folder's section files cover exactly the claims of the paper."""
    from fedtheory import get_paper

    assert {cid for cid, _ in fails_path_ids("srpfl")} == {c.id for c in get_paper("srpfl").claims()}


def test_no_claim_has_two_fails_paths(fails_path_ids):
    seen = {}
    for cid, where in fails_path_ids("srpfl"):
        assert cid not in seen, f"{cid}: a fails path in {seen.get(cid)} and in {where}"
        seen[cid] = where
