"""Results ledgers of the built-in papers: complete, consistent with the catalogue, explained."""
import pytest

from fedtheory import get_paper
from fedtheory.ledger import CHECKED, LEDGER_STATUSES, LedgerRow, ledger_counts, validate_ledger

PAPERS = ("fedrep", "srpfl", "lpproj", "fedlrgd")


@pytest.mark.parametrize("key", PAPERS)
def test_ledger_invariants(key):
    paper = get_paper(key)
    rows = paper.ledger()
    assert len(rows) >= 40  # every numbered result, not only the checked ones
    claims = {c.id for c in paper.claims()}
    figures = {f.id for f in paper.figures()}
    named_claims = {c for r in rows for c in r.claims}
    named_figures = {f for r in rows for f in r.figures}
    assert named_claims <= claims | set(paper.aliases())  # every claim id a row names exists
    assert named_figures <= figures
    assert claims <= named_claims and figures <= named_figures  # every claim and figure is in some row
    for r in rows:
        assert isinstance(r, LedgerRow) and r.status in LEDGER_STATUSES and r.summary.strip()
        if r.status != CHECKED:
            assert len(r.reason.strip()) >= 5, r  # every non-checked row has a reason ("definition" at least)
    refs = [r.ref for r in rows]
    assert len(refs) == len(set(refs))
    counts = ledger_counts(rows)
    assert sum(counts.values()) == len(rows) and counts[CHECKED] > 0


def test_ledgers_list_the_main_theorems():
    want = {"fedrep": ["Theorem 1", "Algorithm 2", "Figure 3"],
            "srpfl": ["Theorem 4.7", "Theorem 4.9", "Lemma B.2", "Algorithm 2"],
            "lpproj": ["Theorem 9", "Theorem 30", "Theorem 32", "Proposition 16", "Lemma 29", "Algorithm 1"],
            "fedlrgd": ["Theorem 1", "Theorem 2", "Theorem 3", "Lemma 1", "Proposition 2", "Algorithm 1"]}
    for key, refs in want.items():
        have = {r.ref for r in get_paper(key).ledger()}
        assert set(refs) <= have, (key, set(refs) - have)


def test_validate_ledger_rejects_malformed_rows():
    row = LedgerRow("Eq. (1)", "equation", "x", "checked", claims=("p.a",))
    with pytest.raises(ValueError, match="unknown claim"):
        validate_ledger([row], key="p", claim_ids=["p.b"], figure_ids=[])
    with pytest.raises(ValueError, match="appears twice"):
        validate_ledger([row, row], key="p", claim_ids=["p.a"], figure_ids=[])
    with pytest.raises(ValueError, match="p.c appear"):
        validate_ledger([row], key="p", claim_ids=["p.a", "p.c"], figure_ids=[])
    with pytest.raises(ValueError, match="LedgerRow"):
        validate_ledger([("Eq. (1)", "checked")], key="p", claim_ids=[], figure_ids=[])
    with pytest.raises(ValueError, match="kind"):
        LedgerRow("Eq. (1)", "equ", "x", "unchecked", reason="because")
    with pytest.raises(ValueError, match="only 'checked' rows"):
        LedgerRow("Eq. (1)", "equation", "x", "unchecked", claims=("p.a",), reason="because")
