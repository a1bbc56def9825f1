"""Results ledgers: every numbered result of a paper, with what checks it.

A paper plugin (:class:`fedtheory.Paper`) carries a ledger: one :class:`LedgerRow` per numbered
result of the paper (theorems, lemmas, propositions, corollaries, quantitative remarks, numbered
equations that make a claim, algorithms, figures and tables). Each row has a status:

``checked``
    claims and/or figures of the catalogue check it (their ids are listed);
``unchecked``
    it is checkable but nothing checks it yet; ``reason`` says what a check would compute;
``not-checkable``
    a proof step, wording or a definition; ``reason`` says which;
``out-of-scope``
    deep-network experiments, real data, ...; ``reason`` says what.

``fedtheory ledger [--paper KEY] [--json PATH]`` prints the ledgers; the report shows them.
"""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LedgerRow", "LEDGER_STATUSES", "KINDS", "CHECKED", "UNCHECKED", "NOT_CHECKABLE",
           "OUT_OF_SCOPE", "validate_ledger", "ledger_counts", "undecided_note"]

CHECKED = "checked"
UNCHECKED = "unchecked"
NOT_CHECKABLE = "not-checkable"
OUT_OF_SCOPE = "out-of-scope"
LEDGER_STATUSES = (CHECKED, UNCHECKED, NOT_CHECKABLE, OUT_OF_SCOPE)

KINDS = ("theorem", "lemma", "proposition", "corollary", "remark", "claim", "equation", "algorithm",
         "figure", "table", "assumption", "definition", "example", "statement")


@dataclass(frozen=True)
class LedgerRow:
    """One numbered result of a paper.

    Parameters
    ----------
    ref : str
        The paper's own number, e.g. ``"Theorem 1"``, ``"Eq. (11)"``, ``"Figure 3"``.
    kind : str
        One of :data:`KINDS`.
    summary : str
        What the result says, in one sentence.
    status : str
        One of :data:`LEDGER_STATUSES`.
    section : str, optional
        Where it is, e.g. ``"4.1"`` or ``"App. B.2"``.
    claims, figures : tuple of str
        Catalogue claim ids and figure ids that check it (``checked`` rows need at least one).
    reason : str
        Why it is not checked (required unless ``status == "checked"``), or for ``unchecked``
        what a check would compute.
    alt : str
        The same result's number in another version of the paper (e.g. ``"arXiv: Theorem 4.5"``).
    """

    ref: str
    kind: str
    summary: str
    status: str
    section: str = ""
    claims: tuple = ()
    figures: tuple = ()
    reason: str = ""
    alt: str = ""

    def __post_init__(self):
        # lists are accepted for convenience and stored as tuples (the row stays hashable)
        object.__setattr__(self, "claims", tuple(self.claims))
        object.__setattr__(self, "figures", tuple(self.figures))
        if not isinstance(self.ref, str) or not self.ref.strip():
            raise ValueError(f"ledger row: `ref` must be a non-empty string; got {self.ref!r}")
        if self.kind not in KINDS:
            raise ValueError(f"ledger row {self.ref!r}: `kind` must be one of {', '.join(KINDS)}; got {self.kind!r}")
        if self.status not in LEDGER_STATUSES:
            raise ValueError(f"ledger row {self.ref!r}: `status` must be one of {', '.join(LEDGER_STATUSES)}; "
                             f"got {self.status!r}")
        if self.status == CHECKED and not (self.claims or self.figures):
            raise ValueError(f"ledger row {self.ref!r}: status 'checked' needs at least one claim or figure id")
        if self.status != CHECKED and (self.claims or self.figures):
            raise ValueError(f"ledger row {self.ref!r}: only 'checked' rows name claims or figures "
                             f"(status is {self.status!r})")
        if self.status != CHECKED and not self.reason.strip():
            raise ValueError(f"ledger row {self.ref!r}: status {self.status!r} needs a `reason`")

    def to_dict(self) -> dict:
        return {"ref": self.ref, "kind": self.kind, "section": self.section, "summary": self.summary,
                "status": self.status, "claims": list(self.claims), "figures": list(self.figures),
                "reason": self.reason, "alt": self.alt}


def validate_ledger(rows, *, key: str, claim_ids, figure_ids, aliases=()) -> tuple:
    """Check a paper's ledger against its catalogue; return the rows as a tuple.

    Raises ``ValueError`` (one line, naming the paper) if a row is not a :class:`LedgerRow`, a
    reference appears twice, a row names an unknown claim or figure id, or a claim or figure of
    the paper appears in no row.
    """
    rows = tuple(rows)
    claim_ids, figure_ids = set(claim_ids), set(figure_ids)
    known_claims = claim_ids | set(aliases)
    seen = set()
    for r in rows:
        if not isinstance(r, LedgerRow):
            raise ValueError(f"paper {key!r}: malformed ledger: every row must be a fedtheory.LedgerRow; "
                             f"got {type(r).__name__}")
        if r.ref in seen:
            raise ValueError(f"paper {key!r}: malformed ledger: reference {r.ref!r} appears twice")
        seen.add(r.ref)
        bad = [c for c in r.claims if c not in known_claims]
        if bad:
            raise ValueError(f"paper {key!r}: malformed ledger: row {r.ref!r} names unknown claim id(s) "
                             f"{', '.join(bad)}")
        bad = [f for f in r.figures if f not in figure_ids]
        if bad:
            raise ValueError(f"paper {key!r}: malformed ledger: row {r.ref!r} names unknown figure id(s) "
                             f"{', '.join(bad)}")
    if rows:
        covered_c = {c for r in rows for c in r.claims}
        covered_f = {f for r in rows for f in r.figures}
        missing = sorted(claim_ids - covered_c) + sorted(figure_ids - covered_f)
        if missing:
            raise ValueError(f"paper {key!r}: malformed ledger: {', '.join(missing)} appear(s) in no ledger row")
    return rows


def ledger_counts(rows) -> dict:
    """Number of rows per status (every status present, in :data:`LEDGER_STATUSES` order)."""
    return {s: sum(r.status == s for r in rows) for s in LEDGER_STATUSES}


def undecided_note(row: LedgerRow, statuses, mode: str) -> str:
    """What a checked row's claims leave open in one mode: ``""`` when at least one decides.

    Parameters
    ----------
    row : LedgerRow
        A ledger row.
    statuses : Mapping[str, str]
        Claim id -> the outcome of its verdict in this mode (claims with no verdict are ignored).
    mode : {"quick", "full"}
        The mode the verdicts were computed in.

    Returns
    -------
    str
        For a ``checked`` row with no figure whose claims with a verdict are all undecided
        (``inconclusive``, ``not-run`` or ``error``): ``"undecided in quick mode: ..."`` naming each
        claim's outcome; otherwise ``""`` (a figure, or one decided claim, checks the row).

    >>> row = LedgerRow("Eq. (1)", "equation", "s", "checked", claims=("p.a", "p.b"))
    >>> undecided_note(row, {"p.a": "not-run", "p.b": "inconclusive"}, "quick")
    'undecided in quick mode: p.a not-run (full mode only), p.b inconclusive'
    >>> undecided_note(row, {"p.a": "holds", "p.b": "inconclusive"}, "quick")
    ''
    """
    if mode not in ("quick", "full"):
        raise ValueError(f"`mode` must be 'quick' or 'full'; got {mode!r}")
    if row.status != CHECKED or row.figures:
        return ""
    seen = [(c, statuses[c]) for c in row.claims if c in statuses]
    if not seen or any(st not in ("inconclusive", "not-run", "error") for _, st in seen):
        return ""
    return f"undecided in {mode} mode: " + ", ".join(
        f"{c} {st}" + (" (full mode only)" if st == "not-run" else "") for c, st in seen)
