"""The SRPFL plugin decides through the decision kit (``fedtheory.decide``): no module under ``checks/srpfl``
defines a verdict rule, every relabel of Tziotis et al. (TMLR 2023) is pinned with its root cause, and the
recorded outcomes cover every claim."""
import ast
import pathlib

import pytest

from fedtheory import get_claim, get_paper
from fedtheory.paper import read_outcomes_csv

SRC = pathlib.Path(__file__).resolve().parents[1] / "checks" / "srpfl"
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


def test_lemb3_refutation_is_a_kit_decision_on_the_printed_bound(monkeypatch, serial_uncached):
    # with (248) patched to the valid bound t_FR (H_N + c)/lambda, the kit's bound holds: the refutation comes
    # from the numbers, not from a label
    import fedtheory_checks.srpfl.appendix_b as B

    monkeypatch.setattr(B, "LEMB3_REPS", {False: 50, True: 50})
    monkeypatch.setattr(B, "_grid", lambda: [(64, 0.05, 0.0, 1.2), (256, 0.2, 10.0, 1.05), (1024, 0.05, 0.0, 1.35)])
    monkeypatch.setattr(B, "lemma_b3_bound", lambda N, a, ch, lam: 0.5 * B.fedrep_rounds_exact(a, N, 4, ch)
                        * B.expected_order_statistic(N, N))
    assert B._lemB3(False, 0)["status"] == "holds"


def test_consistency_check_and_c0_reading():
    assert get_claim("srpfl.thm4.9.per-round-time").kind == "consistency"
    for cid in ("srpfl.thm4.7.contraction", "srpfl.thm4.7.one-step-contraction", "srpfl.thm4.7.E0-trajectory"):
        assert "c0 read as 0.001" in get_claim(cid).regime, cid


def test_recorded_outcomes_cover_every_claim():
    table = read_outcomes_csv(str(SRC / "outcomes.csv"))
    assert set(table) == {c.id for c in get_paper("srpfl").claims()}
    assert all(row.get("quick") for row in table.values())
