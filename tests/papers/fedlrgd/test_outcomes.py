"""The FedLRGD plugin as a whole (Jadbabaie, Makur and Shah, *Federated Optimization of Smooth Loss Functions*, IEEE
Trans. Inf. Theory (2023)): each relabel pinned (outcome, root cause, kind), renamed claims keep their former ids,
root causes registered, recorded outcomes complete, no verdict rule in the catalogue; exactly one fails path per
claim among the section files."""
import os
import re

import pytest

from fedtheory import get_claim, get_paper

CHECKS = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, os.pardir, "checks", "fedlrgd")


#: claim id -> (quick outcome, root cause or "", kind)
RELABELS = {
    "fedlrgd.eq6.exponent": ("holds", "extraction-glyphs", "paper"),
    "fedlrgd.abstract.exponent": ("holds", "extraction-glyphs", "paper"),
    "fedlrgd.eq45.lattice-unisolvence": ("refuted", "thm2-r-lattice", "paper"),
    "fedlrgd.appD.T-ge-T0": ("refuted", "appd-t-ge-t0", "paper"),
    "fedlrgd.asm8.eta-ceiling": ("vacuous", "thm2-hypotheses-empty", "paper"),
    "fedlrgd.asm8.logistic-violates": ("vacuous", "thm2-hypotheses-empty", "paper"),
    "fedlrgd.thm2.hypotheses-vacuous": ("vacuous", "thm2-hypotheses-empty", "paper"),
    "fedlrgd.eq46.logistic-singular": ("vacuous", "eq46-theta-free-coefficients", "paper"),
    "fedlrgd.thm2.weight-l1-bound": ("holds", "", "consistency"),
    "fedlrgd.thm1.bound-shape": ("holds", "", "consistency"),
    "fedlrgd.thm2.S-and-delta": ("holds", "", "consistency"),
    "fedlrgd.alg1.line10.erratum": ("erratum", "alg1-line10-v1", "paper"),
    "fedlrgd.eq47.bracket.erratum": ("erratum", "eq47-exponent-placement", "paper"),
    "fedlrgd.eq60.step-iv.erratum": ("erratum", "eq60-step-iv-grouping", "paper"),
    "fedlrgd.appE.first-term.erratum": ("erratum", "appe-missing-exponent-d", "paper"),
}


@pytest.mark.parametrize("cid", sorted(RELABELS))
def test_relabel_is_pinned(cid, serial_uncached):
    outcome, root, kind = RELABELS[cid]
    v = get_claim(cid).evaluate(full=False)
    assert v.status == outcome, v.summary()
    assert v.kind == kind
    if root:
        assert v.root_cause == root, v.summary()
        assert root in get_paper("fedlrgd").root_causes()
    assert v.margin is not None and v.detects is not None, "every decided verdict carries margin and detects"
    if outcome == "erratum":
        assert len(v.referee) >= 15


@pytest.mark.parametrize("old, new", [("fedlrgd.eq6.exponent.erratum", "fedlrgd.eq6.exponent"),
                                      ("fedlrgd.abstract.exponent.erratum", "fedlrgd.abstract.exponent"),
                                      ("fedlrgd.eq45.lattice-unisolvence.erratum", "fedlrgd.eq45.lattice-unisolvence"),
                                      ("fedlrgd.appD.T-ge-T0.erratum", "fedlrgd.appD.T-ge-T0")])
def test_renamed_claims_keep_their_former_ids_as_aliases(old, new):
    assert get_claim(old).id == new


def test_root_causes_registered_with_kinds_and_details():
    rcs = get_paper("fedlrgd").root_causes()
    assert set(rcs) == {r for _, r, _ in RELABELS.values() if r}
    assert rcs["thm2-hypotheses-empty"].kind == "hypotheses"
    assert rcs["extraction-glyphs"].kind == "reading"
    assert {rcs[r].kind for r in ("thm2-r-lattice", "appd-t-ge-t0")} == {"proof"}
    for rc in rcs.values():
        assert rc.detail and rc.references


def test_every_claim_has_a_recorded_outcome():
    paper = get_paper("fedlrgd")
    table = paper.expected_outcomes()
    assert set(table) == {c.id for c in paper.claims()}
    assert all(set(v) == {"quick", "full"} for v in table.values())
    for cid, (outcome, _, _) in RELABELS.items():
        assert table[cid]["quick"] == outcome


def test_no_verdict_rule_left_in_the_catalogue():
    """Numbers become verdicts only in fedtheory.decide: no status literal, no outcome constant, no _util helper."""
    bad = re.compile(r"status\s*=|from fedtheory\.claims import|\b(HOLDS|FAILS|ERRATUM|INCONCLUSIVE|REFUTED|VACUOUS)\b"
                     r"|_util\b|CLAIM_LEVEL|erratum_verdict|agreement_verdict|equality_verdict|binomial_verdict")
    hits = []
    for name in sorted(os.listdir(CHECKS)):
        if name.endswith(".py"):
            for i, line in enumerate(open(os.path.join(CHECKS, name)), 1):
                if bad.search(line):
                    hits.append(f"{name}:{i}: {line.strip()}")
    assert not hits, "\n".join(hits)
    for name in ("sec2c_descent_lemma", "sec2d_oracle_complexity", "lemma1", "thm1", "alg1", "thm2", "sec3d_fedave",
                 "sec5_thm2_proof", "assumption8", "fedave_runs", "appendix_a", "appendix_c", "appendix_d",
                 "appendix_e"):
        assert "from fedtheory import decide" in open(os.path.join(CHECKS, name + ".py")).read(), name


def test_every_claim_has_a_fails_path(fails_path_ids):
    """The ``FAILS_PATHS`` tables of this folder's section files cover exactly the claims of the paper."""
    from fedtheory import get_paper

    assert {cid for cid, _ in fails_path_ids("fedlrgd")} == {c.id for c in get_paper("fedlrgd").claims()}


def test_no_claim_has_two_fails_paths(fails_path_ids):
    seen = {}
    for cid, where in fails_path_ids("fedlrgd"):
        assert cid not in seen, f"{cid}: a fails path in {seen.get(cid)} and in {where}"
        seen[cid] = where
