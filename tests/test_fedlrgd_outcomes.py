"""The fedlrgd claims (Jadbabaie, Makur and Shah, 2023) decided through :mod:`fedtheory.decide`: each relabel pinned
(outcome, root cause, kind), the root causes registered, the recorded outcomes complete, no verdict rule left in
``checks/fedlrgd``, and the kit's templates seen at work (a patched-in violation gives ``refuted``)."""
import dataclasses
import os
import re

import pytest

from fedtheory import decide, get_claim, get_paper

M = "fedtheory_checks.fedlrgd."
CHECKS = os.path.join(os.path.dirname(__file__), os.pardir, "checks", "fedlrgd")

#: claim id -> (quick outcome, root cause or "", kind)
RELABELS = {
    "fedlrgd.eq6.exponent": ("holds", "extraction-glyphs", "paper"),
    "fedlrgd.abstract.exponent": ("holds", "extraction-glyphs", "paper"),
    "fedlrgd.eq45.lattice-unisolvence": ("refuted", "thm2-r-lattice", "paper"),
    "fedlrgd.appD.T-ge-T0": ("refuted", "appd-t-ge-t0", "paper"),
    "fedlrgd.asm8.eta-ceiling": ("vacuous", "thm2-hypotheses-empty", "paper"),
    "fedlrgd.asm8.logistic-violates": ("vacuous", "thm2-hypotheses-empty", "paper"),
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
    for name in ("time_models", "thm1", "thm2_fedlrgd", "thm2_chain", "assumption8", "thm3_fedave", "fedave_runs",
                 "appendix_d", "appendix_c", "remaining"):
        assert "from fedtheory import decide" in open(os.path.join(CHECKS, name + ".py")).read(), name


# ----------------------------------------------------------------------------- the kit at work
def test_T0_note_holds_when_T0_is_small(monkeypatch, serial_uncached):
    """decide.combine over the printed note and its repair: with Lemma 3's T0 a thousand times smaller the printed
    note holds everywhere and the verdict is holds (the refutation is the numbers', not a hard-coded label)."""
    from fedtheory_checks.fedlrgd import appendix_d as A
    orig = A.lemma3_T0
    monkeypatch.setattr(M + "appendix_d.lemma3_T0", lambda *a: orig(*a) / 1000)
    v = get_claim("fedlrgd.appD.T-ge-T0").evaluate(full=False)
    assert v.status == "holds", v.summary()


def test_eta_ceiling_breaks_into_refuted_when_a_link_fails(monkeypatch, serial_uncached):
    """decide.vacuous_given: a Lemma 1 bound ten times too small breaks link (a), so the vacuity is not claimed."""
    from fedtheory_checks.fedlrgd import assumption8 as A
    orig = A.eta_ceiling_rows

    def rows(cases, seed):
        return [dict(r, bound=r["bound"] / 10) for r in orig(cases, seed)]
    monkeypatch.setattr(M + "assumption8.eta_ceiling_rows", rows)
    v = get_claim("fedlrgd.asm8.eta-ceiling").evaluate(full=False)
    assert v.status == "refuted", v.summary()


def test_eta_ceiling_onsets_are_small_and_grow_with_L2():
    from fedtheory_checks.fedlrgd.assumption8 import contradiction_onset
    assert contradiction_onset(6.0) <= 9 and contradiction_onset(6.0, 100.0) >= contradiction_onset(6.0)
    # a huge L2 pushes the onset beyond a short scan: the function reports r_max + 1 (not established there)
    assert contradiction_onset(6.0, 1e30, r_max=50) == 51


def test_premise_never_met_is_inconclusive_with_a_computed_size(monkeypatch, serial_uncached):
    """decide.premised: if (59)'s premise held on no run, the claim is inconclusive with the runs that would meet it."""
    from fedtheory_checks.fedlrgd import thm2_chain as T
    orig = T._runs
    monkeypatch.setattr(M + "thm2_chain._runs", lambda full, seed: [
        (lab, dataclasses.replace(c, scalars={**c.scalars, "premise59": False})) for lab, c in orig(full, seed)])
    v = get_claim("fedlrgd.eq59.coefficient-distance").evaluate(full=False)
    assert v.status == "inconclusive", v.summary()
    assert v.power["needed"] > v.power["current"]


def test_kit_additions_vacuous_given_and_premised():
    ok = decide.bound(0.5, 1.0, what="link")
    v = decide.vacuous_given([ok], what="toy", reason="no instance", root_cause="rc")
    assert v["status"] == "vacuous" and v["root_cause"] == "rc" and v["margin"]["tightness"] == "vacuous"
    assert decide.vacuous_given([decide.bound(2.0, 1.0, what="l")], what="t", reason="r",
                                root_cause="rc")["status"] == "refuted"
    assert decide.premised(lambda: ok, held=1, trials=3, what="t") is ok
    inc = decide.premised(lambda: 1 / 0, held=0, trials=10, what="t")
    assert inc["status"] == "inconclusive" and inc["power"]["needed"] > 10
    with pytest.raises(ValueError):
        decide.premised(lambda: ok, held=4, trials=3, what="t")
