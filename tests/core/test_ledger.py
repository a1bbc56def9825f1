"""Results ledgers: the built-in papers' ledgers (complete, consistent with the catalogue, explained), and rows,
validation, counts and the undecided note on hand-written rows (fedtheory.ledger)."""
import pytest

from fedtheory import get_paper
from fedtheory.ledger import (CHECKED, LEDGER_STATUSES, LedgerRow, ledger_counts, undecided_note,
                              validate_ledger)

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


# ----------------------------------------------------------------------------- LedgerRow, written by hand
def test_row_stores_lists_as_tuples_and_stays_hashable():
    row = LedgerRow("Theorem 1", "theorem", "s", "checked", claims=["p.a", "p.b"], figures=["p.fig1"])
    assert row.claims == ("p.a", "p.b") and row.figures == ("p.fig1",)
    assert len({row, LedgerRow("Theorem 1", "theorem", "s", "checked", claims=("p.a", "p.b"),
                               figures=("p.fig1",))}) == 1


def test_row_to_dict_is_every_field_with_lists():
    row = LedgerRow("Lemma 2", "lemma", "a bound", "checked", section="App. B.2", claims=("p.a",),
                    figures=("p.f",), reason="r", alt="arXiv: Lemma 3")
    assert row.to_dict() == {"ref": "Lemma 2", "kind": "lemma", "section": "App. B.2", "summary": "a bound",
                             "status": "checked", "claims": ["p.a"], "figures": ["p.f"], "reason": "r",
                             "alt": "arXiv: Lemma 3"}
    bare = LedgerRow("Eq. (3)", "equation", "x", "not-checkable", reason="a definition")
    assert bare.to_dict() == {"ref": "Eq. (3)", "kind": "equation", "section": "", "summary": "x",
                              "status": "not-checkable", "claims": [], "figures": [], "reason": "a definition",
                              "alt": ""}


@pytest.mark.parametrize("kind", ["theorem", "lemma", "proposition", "corollary", "remark", "claim", "equation",
                                  "algorithm", "figure", "table", "assumption", "definition", "example",
                                  "statement"])
def test_every_documented_kind_is_accepted(kind):
    assert LedgerRow("R 1", kind, "s", "out-of-scope", reason="real data").kind == kind


@pytest.mark.parametrize("status", ["unchecked", "not-checkable", "out-of-scope"])
def test_every_status_but_checked_needs_a_reason_and_no_ids(status):
    assert LedgerRow("R 1", "remark", "s", status, reason="why").status == status
    for blank in ("", "   "):
        with pytest.raises(ValueError) as e:
            LedgerRow("R 1", "remark", "s", status, reason=blank)
        assert str(e.value) == f"ledger row 'R 1': status {status!r} needs a `reason`"
    with pytest.raises(ValueError) as e:
        LedgerRow("R 1", "remark", "s", status, figures=("p.f",), reason="why")
    assert str(e.value) == f"ledger row 'R 1': only 'checked' rows name claims or figures (status is {status!r})"


def test_checked_row_needs_a_claim_or_a_figure_and_no_reason():
    assert LedgerRow("R 1", "figure", "s", "checked", figures=("p.f",)).figures == ("p.f",)
    assert LedgerRow("R 1", "remark", "s", "checked", claims=("p.a",)).reason == ""
    with pytest.raises(ValueError) as e:
        LedgerRow("R 1", "remark", "s", "checked")
    assert str(e.value) == "ledger row 'R 1': status 'checked' needs at least one claim or figure id"


@pytest.mark.parametrize("ref", ["", "  ", None, 3])
def test_row_rejects_a_missing_reference(ref):
    with pytest.raises(ValueError) as e:
        LedgerRow(ref, "remark", "s", "unchecked", reason="why")
    assert str(e.value) == f"ledger row: `ref` must be a non-empty string; got {ref!r}"


def test_row_rejects_an_unknown_kind_or_status_naming_the_choices():
    with pytest.raises(ValueError) as e:
        LedgerRow("R 1", "Theorem", "s", "unchecked", reason="why")
    assert str(e.value) == ("ledger row 'R 1': `kind` must be one of theorem, lemma, proposition, corollary, remark, "
                            "claim, equation, algorithm, figure, table, assumption, definition, example, statement; "
                            "got 'Theorem'")
    with pytest.raises(ValueError) as e:
        LedgerRow("R 1", "remark", "s", "done", reason="why")
    assert str(e.value) == ("ledger row 'R 1': `status` must be one of checked, unchecked, not-checkable, "
                            "out-of-scope; got 'done'")


# ----------------------------------------------------------------------------- validate_ledger, ledger_counts
def _rows():
    return [LedgerRow("Theorem 1", "theorem", "s", "checked", claims=["p.a", "p.old"]),
            LedgerRow("Figure 1", "figure", "s", "checked", figures=["p.f"]),
            LedgerRow("Eq. (2)", "equation", "s", "not-checkable", reason="a definition")]


def test_validate_ledger_returns_the_rows_as_a_tuple_and_accepts_aliases():
    rows = _rows()
    out = validate_ledger(iter(rows), key="p", claim_ids=["p.a"], figure_ids=["p.f"], aliases=["p.old"])
    assert out == tuple(rows)
    assert validate_ledger([], key="p", claim_ids=["p.a"], figure_ids=["p.f"]) == ()  # a paper with no ledger yet


def test_validate_ledger_messages_name_the_paper_and_every_offending_id():
    rows = _rows()
    with pytest.raises(ValueError) as e:  # an alias is not a claim a row must cover, nor is it known without aliases
        validate_ledger(rows, key="p", claim_ids=["p.a"], figure_ids=["p.f"])
    assert str(e.value) == "paper 'p': malformed ledger: row 'Theorem 1' names unknown claim id(s) p.old"
    bad = LedgerRow("Theorem 1", "theorem", "s", "checked", claims=["p.x", "p.a", "p.y"])
    with pytest.raises(ValueError) as e:
        validate_ledger([bad], key="p", claim_ids=["p.a"], figure_ids=[])
    assert str(e.value) == "paper 'p': malformed ledger: row 'Theorem 1' names unknown claim id(s) p.x, p.y"
    badf = LedgerRow("Figure 2", "figure", "s", "checked", figures=["p.g", "p.f", "p.h"])
    with pytest.raises(ValueError) as e:
        validate_ledger([badf], key="p", claim_ids=[], figure_ids=["p.f"])
    assert str(e.value) == "paper 'p': malformed ledger: row 'Figure 2' names unknown figure id(s) p.g, p.h"
    with pytest.raises(ValueError) as e:
        validate_ledger(rows + [rows[1]], key="p", claim_ids=["p.a"], figure_ids=["p.f"], aliases=["p.old"])
    assert str(e.value) == "paper 'p': malformed ledger: reference 'Figure 1' appears twice"
    with pytest.raises(ValueError) as e:
        validate_ledger(rows + ["Figure 9"], key="p", claim_ids=["p.a"], figure_ids=["p.f"], aliases=["p.old"])
    assert str(e.value) == "paper 'p': malformed ledger: every row must be a fedtheory.LedgerRow; got str"
    with pytest.raises(ValueError) as e:  # claims first, then figures, each sorted
        validate_ledger(rows, key="p", claim_ids=["p.c", "p.a", "p.b"], figure_ids=["p.g", "p.f", "p.e"],
                        aliases=["p.old"])
    assert str(e.value) == "paper 'p': malformed ledger: p.b, p.c, p.e, p.g appear(s) in no ledger row"


def test_ledger_counts_lists_every_status_in_order():
    counts = ledger_counts(_rows() + [LedgerRow("Eq. (5)", "equation", "s", "out-of-scope", reason="real data")])
    assert list(counts.items()) == [("checked", 2), ("unchecked", 0), ("not-checkable", 1), ("out-of-scope", 1)]
    assert ledger_counts([]) == {"checked": 0, "unchecked": 0, "not-checkable": 0, "out-of-scope": 0}


# ----------------------------------------------------------------------------- undecided_note
ROW = LedgerRow("Eq. (1)", "equation", "s", "checked", claims=("p.a", "p.b"))


def test_undecided_note_names_each_undecided_claim_and_the_mode():
    assert undecided_note(ROW, {"p.a": "not-run", "p.b": "inconclusive"}, "quick") == \
        "undecided in quick mode: p.a not-run (full mode only), p.b inconclusive"
    assert undecided_note(ROW, {"p.b": "error", "p.a": "inconclusive"}, "full") == \
        "undecided in full mode: p.a inconclusive, p.b error"  # in the row's order


@pytest.mark.parametrize("st", ["inconclusive", "not-run", "error"])
def test_one_undecided_claim_alone_leaves_the_row_undecided(st):
    row = LedgerRow("Lemma 1", "lemma", "s", "checked", claims=("p.a",))
    extra = " (full mode only)" if st == "not-run" else ""
    assert undecided_note(row, {"p.a": st, "q.z": "holds"}, "quick") == f"undecided in quick mode: p.a {st}{extra}"


@pytest.mark.parametrize("st", ["holds", "erratum", "refuted", "not-reproduced", "vacuous"])
def test_one_decided_claim_checks_the_row(st):
    assert undecided_note(ROW, {"p.a": "inconclusive", "p.b": st}, "quick") == ""
    assert undecided_note(ROW, {"p.a": st, "p.b": "not-run"}, "full") == ""


def test_claims_without_a_verdict_are_ignored():
    assert undecided_note(ROW, {"p.b": "inconclusive"}, "quick") == "undecided in quick mode: p.b inconclusive"
    assert undecided_note(ROW, {}, "quick") == ""  # nothing ran: nothing to say
    assert undecided_note(ROW, {"q.z": "inconclusive"}, "quick") == ""


def test_a_figure_or_an_unchecked_status_means_no_note():
    with_fig = LedgerRow("Figure 1", "figure", "s", "checked", claims=("p.a",), figures=("p.f",))
    assert undecided_note(with_fig, {"p.a": "inconclusive"}, "quick") == ""
    unchecked = LedgerRow("Lemma 4", "lemma", "s", "unchecked", reason="a bound to compute")
    assert undecided_note(unchecked, {"p.a": "inconclusive"}, "quick") == ""


@pytest.mark.parametrize("mode", ["Quick", "fast", None, ""])
def test_undecided_note_rejects_an_unknown_mode(mode):
    with pytest.raises(ValueError) as e:
        undecided_note(ROW, {"p.a": "inconclusive"}, mode)
    assert str(e.value) == f"`mode` must be 'quick' or 'full'; got {mode!r}"
