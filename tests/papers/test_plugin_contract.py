"""The contract every paper plugin meets, run over every installed plugin (built-in or third-party), as
benchopt runs one contract suite over every solver and dataset.

* claims: ids under the paper's key, a statement and a reference, a known kind;
* root causes: every root cause a claim names is registered with the paper;
* recorded outcomes: every built-in claim records its outcome in quick and full mode, and the
  recorded outcomes name known claims and outcomes;
* the decision kit is the one place where numbers become verdicts: no module of the built-in catalogue
  (``checks/``) picks a status itself;
* verdicts (from the ``verify --json`` run CI makes first, ``FEDTHEORY_VERIFY_JSON``): every decided verdict
  carries its margin and detection threshold, every inconclusive its power statement, every erratum
  and refutation a registered root cause, and no verdict differs from its recorded outcome.
"""
from __future__ import annotations

import ast
import json
import os
import pathlib

import pytest

from fedtheory.claims import CLAIM_KINDS, DECIDED, ERROR, INCONCLUSIVE, STATUSES
from fedtheory.plugins import load_papers

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILT_IN = ("fedrep", "srpfl", "lpproj", "fedlrgd")
PAPERS, _ = load_papers(strict=False)


@pytest.fixture(params=[p.key for p in PAPERS])
def paper(request):
    return next(p for p in PAPERS if p.key == request.param)


def test_claims_are_well_formed(paper):
    ids = [c.id for c in paper.claims()]
    assert len(ids) == len(set(ids)) and ids
    for c in paper.claims():
        assert c.id.startswith(paper.key + ".") and c.reference.strip() and c.statement.strip()
        assert c.kind in CLAIM_KINDS


def test_root_causes_named_by_claims_are_registered(paper):
    registered = paper.root_causes()
    for c in paper.claims():
        if c.root_cause:
            assert c.root_cause in registered, f"{c.id} names the unregistered root cause {c.root_cause!r}"
    for rc in registered.values():
        assert rc.title.strip() and rc.id


def test_recorded_outcomes_are_valid_and_complete_for_built_in_papers(paper):
    table = paper.expected_outcomes()  # validates ids and outcomes
    for cid, modes in table.items():
        assert set(modes) <= {"quick", "full"} and all(o in STATUSES and o != ERROR for o in modes.values())
    if paper.key in BUILT_IN:
        missing = [c.id for c in paper.claims() if set(table.get(c.id, {})) != {"quick", "full"}]
        assert not missing, f"claims without a recorded quick and full outcome: {missing}"


# ----------------------------------------------------------------------------- no verdict rules in checks/
_STATUS_NAMES = {"HOLDS", "FAILS", "ERRATUM", "INCONCLUSIVE", "REFUTED", "NOT_REPRODUCED", "VACUOUS", "ERROR",
                 "STATUSES", "DECIDED", "BAD_STATUSES"}
_STATUS_STRINGS = {"holds", "fails", "erratum-confirmed", "erratum", "refuted", "not-reproduced", "vacuous",
                   "inconclusive", "error"}


def _verdict_rules(path: pathlib.Path) -> list[str]:
    """Places where a catalogue module picks a status itself: a ``status`` key or keyword, or an import of
    a status constant from fedtheory.claims."""
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.endswith("claims"):
            names = {a.name for a in node.names} & _STATUS_NAMES
            if names:
                found.append(f"{path.name}:{node.lineno} imports {', '.join(sorted(names))}")
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.endswith("_util"):
            found.append(f"{path.name}:{node.lineno} imports checks._util")
        elif isinstance(node, ast.Call):
            for kw in node.keywords:
                if kw.arg == "status":
                    found.append(f"{path.name}:{node.lineno} passes status=")
        elif isinstance(node, ast.Dict):
            for k in node.keys:
                if isinstance(k, ast.Constant) and k.value == "status":
                    found.append(f"{path.name}:{node.lineno} builds a dict with a 'status' key")
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):
            if isinstance(node.slice, ast.Constant) and node.slice.value == "status":
                found.append(f"{path.name}:{node.lineno} assigns a status")
    return found


def test_no_module_under_checks_defines_a_verdict_rule():
    files = sorted((ROOT / "checks").rglob("*.py"))
    assert files, "the catalogue's sources are not in this checkout"
    offenders = [f for p in files for f in _verdict_rules(p)]
    assert not offenders, "verdict rules outside the decision kit:\n" + "\n".join(offenders)
    assert not (ROOT / "checks" / "_util.py").exists()


def test_the_scan_finds_verdict_rules(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from fedtheory.claims import HOLDS, FAILS\nfrom .._util import CLAIM_LEVEL\n"
                   "def f(x):\n    out = {'status': HOLDS}\n    out['status'] = FAILS\n    return dict(status=FAILS)\n")
    assert len(_verdict_rules(bad)) == 5


# ----------------------------------------------------------------------------- verdicts of a verify run
def _verify_json():
    path = os.environ.get("FEDTHEORY_VERIFY_JSON")
    if not path or not os.path.exists(path):
        if os.environ.get("CI"):
            pytest.fail("CI must run `fedtheory verify --json` first and export FEDTHEORY_VERIFY_JSON")
        pytest.skip("no FEDTHEORY_VERIFY_JSON (CI sets it from its verify run)")
    return json.load(open(path))


def test_verify_run_verdicts_carry_their_statistics():
    data = _verify_json()
    by_paper = {p.key: p for p in PAPERS}
    problems = []
    for v in data["verdicts"]:
        if v["status"] in DECIDED:
            if not isinstance(v.get("margin"), dict) or not isinstance(v.get("detects"), dict):
                problems.append(f"{v['id']}: {v['status']} without margin/detects")
        if v["status"] == INCONCLUSIVE and not (v.get("power") or {}).get("needed"):
            problems.append(f"{v['id']}: inconclusive without a power statement")
        if v["status"] == "not-run" and not (v["mode"] == "quick" and (v.get("params") or {}).get("full_cost_s")):
            problems.append(f"{v['id']}: not-run without its full-mode cost, or in full mode")
        if v["status"] in ("erratum", "refuted") and v["paper"] in BUILT_IN:
            if v.get("root_cause") not in by_paper[v["paper"]].root_causes():
                problems.append(f"{v['id']}: root cause {v.get('root_cause')!r} is not registered")
        if v["status"] == ERROR:
            problems.append(f"{v['id']}: error: {v['evidence'][:200]}")
        if v.get("expected") is not None and v["status"] != v["expected"]:
            problems.append(f"{v['id']}: {v['status']}, recorded {v['expected']}")
    assert not problems, "\n".join(problems)
