"""The findings view and the census: a paper's verdicts read as a referee report.

:func:`census` counts a set of verdicts (any papers): outcomes, with the paper's claims and the
consistency checks apart; claims per root cause; how tight the decided checks are and how many
could not detect a 10x error; the spread of margins and detection factors; regressions against
the recorded outcomes. :func:`findings` orders one paper's verdicts as a referee report:

1. **major findings**: every ``refuted`` and ``vacuous`` claim, with its decisive numbers;
2. **errata**, grouped by root cause (:meth:`fedtheory.Paper.root_causes`), with the printed and
   the corrected values and the referee;
3. **what holds**, grouped by tightness (tight, loose, slack), and the consistency checks apart
   (true by construction, not counted as evidence);
4. **what the linear analogue does not reproduce** (``not-reproduced``);
5. **undecided**: ``inconclusive`` claims with their power statements, ``not-run`` (full mode
   only) claims with their full-mode cost, and ``error`` verdicts.

Both work for any plugin through the :class:`fedtheory.Paper` API and
:class:`fedtheory.claims.Verdict` objects (or their ``to_dict()`` records, as a
``fedtheory verify --json`` file holds them). The outcomes are those of :mod:`fedtheory.claims`;
margins and detection factors are those of :mod:`fedtheory.decide`. The renderers (text,
Markdown, reST, HTML, JSON) live in :mod:`fedtheory._findings_render`.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Iterable

import numpy as np

from . import _findings_render as _render
from ._findings_render import Group, Item, Section, _num, detection_factor
from .claims import (DECIDED, ERRATUM, ERROR, HOLDS, INCONCLUSIVE, NOT_REPRODUCED, NOT_RUN, REFUTED, STATUSES,
                     VACUOUS, Verdict, to_jsonable)
from .decide import SLACK, tightness as _tightness_of_factor

__all__ = ["Quantiles", "Census", "Item", "Group", "Section", "Findings", "census", "findings", "as_verdict",
           "rate", "detection_factor", "format_number", "format_value"]

#: tightness labels a decided verdict is rated with (:func:`rate`)
RATINGS = ("exact", "tight", "loose", "slack", "unknown")
format_number = _render.format_number
format_value = _render.format_value


# ============================================================================ verdicts
def as_verdict(v) -> Verdict:
    """A :class:`~fedtheory.claims.Verdict` from a verdict or from its ``to_dict()`` record.

    Every field of the record that a verdict has is kept (margins, detection factors, root causes
    included); the ``legacy_status`` field and unknown fields are dropped.

    >>> as_verdict({"id": "p.c", "paper": "p", "reference": "Eq. (1)", "statement": "s",
    ...             "status": "fails", "observed": 2, "bound": 1}).status
    'refuted'
    """
    if isinstance(v, Verdict):
        return v
    if not isinstance(v, dict):
        raise TypeError(f"a verdict must be a Verdict or its to_dict() record; got {type(v).__name__}")
    names = {f.name for f in dataclasses.fields(Verdict)}
    kw = {k: val for k, val in v.items() if k in names}
    for k in ("evidence", "regime", "referee", "root_cause", "analogue"):
        kw[k] = kw.get(k) or ""
    kw["params"] = kw.get("params") or {}
    kw["seconds"] = float(kw.get("seconds") or 0.0)
    kw["kind"] = kw.get("kind") or "paper"
    return Verdict(**kw)


def rate(v: Verdict) -> str:
    """How tight a decided check is: ``exact``, ``tight`` (a 2x change of the claimed constant or
    exponent would fail), ``loose`` (a 10x change would), ``slack`` (a 10x change would not) or
    ``unknown``; from the detection factor (:func:`fedtheory.decide.tightness`), else from the margin's
    own label."""
    f = detection_factor(v)
    if f is not None:
        return _tightness_of_factor(f)
    label = (v.margin or {}).get("tightness")
    return label if label in RATINGS else "unknown"


def cannot_detect_10x(v: Verdict) -> bool:
    """True if the check would not turn a 10x error of the claimed constant into a failure (its
    detection factor exceeds 10, or is unknown)."""
    f = detection_factor(v)
    return f is None or f > SLACK


def _ordered(paper, verdicts: Iterable) -> list[Verdict]:
    """The paper's verdicts in the order its claims were registered (others after, as given)."""
    vs = [as_verdict(v) for v in verdicts]
    vs = [v for v in vs if v.paper == paper.key]
    order = {c.id: i for i, c in enumerate(paper.claims())}
    return sorted(vs, key=lambda v: order.get(v.id, len(order)))


# ============================================================================ census
@dataclass(frozen=True)
class Quantiles:
    """Five-number summary of a sample: ``n``, ``min``, ``q25``, ``median``, ``q75``, ``max``."""

    n: int
    min: float
    q25: float
    median: float
    q75: float
    max: float

    @classmethod
    def of(cls, values) -> "Quantiles | None":
        """The summary of the finite values, or ``None`` when there is none."""
        a = np.asarray([x for x in values if x is not None and math.isfinite(x)], dtype=float)
        if a.size == 0:
            return None
        q = np.percentile(a, [0, 25, 50, 75, 100])
        return cls(int(a.size), *(float(x) for x in q))

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    def summary(self) -> str:
        """``median 0.5 (quartiles 0.3 to 0.7, range 0.1 to 0.9; 12 values)``."""
        f = format_number
        return (f"median {f(self.median)} (quartiles {f(self.q25)} to {f(self.q75)}, range {f(self.min)} to "
                f"{f(self.max)}; {self.n} value{'s' if self.n != 1 else ''})")


@dataclass(frozen=True)
class Census:
    """Counts over a set of verdicts (see :func:`census`).

    Attributes
    ----------
    total, paper_claims, consistency_checks : int
        Verdicts in all, of ``kind="paper"`` and of ``kind="consistency"``.
    outcomes, consistency_outcomes : dict
        Outcome -> count, for the paper's claims and for the consistency checks (every outcome of
        :data:`fedtheory.claims.STATUSES`, zeros included).
    root_causes : dict
        Root-cause id -> number of claims naming it.
    decided : int
        Paper claims with a decided outcome (:data:`fedtheory.claims.DECIDED`).
    tightness : dict
        Rating (:func:`rate`) -> count over the decided paper claims.
    tight, loose, slack : int
        Decided paper claims within 2x (``exact`` included), within 10x, beyond 10x.
    cannot_detect_10x : int
        Decided paper claims whose check would not detect a 10x error (factor > 10 or unknown).
    margins, detection : Quantiles or None
        Margin values and finite detection factors of the decided paper claims.
    margins_by_kind : dict
        Margin kind (``"observed/bound"``, ...) -> :class:`Quantiles`.
    regressions : tuple of str
        Claim ids whose verdict differs from the recorded outcome.
    modes : tuple of str
        The modes of the verdicts (``"quick"``, ``"full"``).
    """

    total: int
    paper_claims: int
    consistency_checks: int
    outcomes: dict
    consistency_outcomes: dict
    root_causes: dict
    decided: int
    tightness: dict
    tight: int
    loose: int
    slack: int
    cannot_detect_10x: int
    margins: Quantiles | None
    detection: Quantiles | None
    margins_by_kind: dict = field(default_factory=dict)
    regressions: tuple = ()
    modes: tuple = ()

    @property
    def mode(self) -> str:
        """``"quick"``, ``"full"``, ``"quick and full"`` or ``"no"`` (no verdicts)."""
        return " and ".join(self.modes) or "no"

    def to_dict(self) -> dict:
        d = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        d["margins"] = self.margins.to_dict() if self.margins else None
        d["detection"] = self.detection.to_dict() if self.detection else None
        d["margins_by_kind"] = {k: q.to_dict() for k, q in self.margins_by_kind.items()}
        d["regressions"], d["modes"] = list(self.regressions), list(self.modes)
        return to_jsonable(d)

    def line(self) -> str:
        """One line: tight / loose / slack counts and how many checks cannot detect a 10x error."""
        return (f"census: {self.tight} tight (within 2x), {self.loose} loose, {self.slack} slack; "
                f"{self.cannot_detect_10x} of {self.decided} decided claims cannot detect a 10x error"
                + (f"; {len(self.regressions)} regressions" if self.regressions else ""))

    def summary(self) -> str:
        """A few lines: outcomes, root causes, tightness, margins, detection factors, regressions, mode."""
        out = [f"{self.total} verdicts ({self.mode} mode): {self.paper_claims} paper claims, "
               f"{self.consistency_checks} consistency checks (not counted as evidence)",
               "paper claims: " + (", ".join(f"{n} {s}" for s, n in self.outcomes.items() if n) or "none")]
        if self.consistency_checks:
            out.append("consistency checks: " + ", ".join(f"{n} {s}" for s, n in self.consistency_outcomes.items()
                                                          if n))
        if self.root_causes:
            shown = list(self.root_causes.items())[:8]
            out.append(f"{len(self.root_causes)} root causes: " + ", ".join(
                f"{k} ({n} claim{'s' if n != 1 else ''})" for k, n in shown)
                + (", ..." if len(self.root_causes) > len(shown) else ""))
        out.append(self.line())
        if self.margins:
            out.append("margins: " + self.margins.summary())
        if self.detection:
            out.append("detection factors: " + self.detection.summary())
        out.append(f"{len(self.regressions)} differ from the recorded outcome"
                   + (": " + ", ".join(self.regressions) if self.regressions else ""))
        return "\n".join(out)


def census(verdicts) -> Census:
    """Count a set of verdicts (of one paper or several).

    Parameters
    ----------
    verdicts : iterable of Verdict or dict
        Verdicts, or their ``to_dict()`` records.

    Returns
    -------
    Census
        Consistency checks are counted apart; tightness, detection and margins cover the decided
        claims of ``kind="paper"`` only.

    Examples
    --------
    >>> from fedtheory.claims import Verdict
    >>> v = Verdict(id="p.a", paper="p", reference="", statement="", status="holds", observed=1, bound=2,
    ...             detects={"factor": 2.0, "of": "constant", "relative": 1.0})
    >>> census([v]).tight
    1
    """
    vs = [as_verdict(v) for v in verdicts]
    paper = [v for v in vs if v.kind == "paper"]
    cons = [v for v in vs if v.kind == "consistency"]
    decided = [v for v in paper if v.status in DECIDED]
    ratings = {r: 0 for r in RATINGS}
    for v in decided:
        ratings[rate(v)] += 1
    root: dict = {}
    for v in vs:
        if v.root_cause:
            root[v.root_cause] = root.get(v.root_cause, 0) + 1
    margin_vals, by_kind = [], {}
    for v in decided:
        x = _num((v.margin or {}).get("value"))
        if x is not None:
            margin_vals.append(x)
            by_kind.setdefault(str(v.margin.get("kind") or "margin"), []).append(x)
    return Census(
        total=len(vs), paper_claims=len(paper), consistency_checks=len(cons),
        outcomes={s: sum(v.status == s for v in paper) for s in STATUSES},
        consistency_outcomes={s: sum(v.status == s for v in cons) for s in STATUSES},
        root_causes=root, decided=len(decided), tightness=ratings,
        tight=ratings["exact"] + ratings["tight"], loose=ratings["loose"], slack=ratings["slack"],
        cannot_detect_10x=sum(cannot_detect_10x(v) for v in decided),
        margins=Quantiles.of(margin_vals),
        detection=Quantiles.of([detection_factor(v) for v in decided]),
        margins_by_kind={k: Quantiles.of(x) for k, x in by_kind.items()},
        regressions=tuple(v.id for v in vs if v.regression),
        modes=tuple(m for m in ("quick", "full") if any(v.mode == m for v in vs)))


# ============================================================================ findings
@dataclass(frozen=True)
class Findings:
    """One paper's verdicts as a referee report (see :func:`findings`); render with
    :meth:`to_text`, :meth:`to_markdown`, :meth:`to_rst`, :meth:`to_html` or :meth:`to_dict`."""

    paper: str
    title: str
    citation: str
    census: Census
    sections: tuple = ()

    @property
    def mode(self) -> str:
        return self.census.mode

    def section(self, key: str) -> Section:
        """The section with this key."""
        return next(s for s in self.sections if s.key == key)

    def summary(self) -> str:
        """One paragraph: what the report finds, in counts."""
        c = self.census
        o = c.outcomes
        errata = self.section("errata")
        parts = [f"{o[REFUTED]} refuted", f"{o[VACUOUS]} vacuous",
                 f"{o[ERRATUM]} errata under {len(errata.groups)} root cause{'s' if len(errata.groups) != 1 else ''}",
                 f"{o[HOLDS]} hold ({c.tight} tight, {c.loose} loose, {c.slack} slack among the decided)",
                 f"{o[NOT_REPRODUCED]} not reproduced", f"{o[INCONCLUSIVE]} inconclusive"]
        if o[NOT_RUN]:
            parts.append(f"{o[NOT_RUN]} full mode only (not run)")
        if o[ERROR]:
            parts.append(f"{o[ERROR]} errors")
        return (f"{self.paper} ({c.mode} mode): {c.paper_claims} claims: " + ", ".join(parts)
                + (f"; {c.consistency_checks} consistency checks not counted" if c.consistency_checks else "")
                + f"; {c.cannot_detect_10x} of {c.decided} decided checks cannot detect a 10x error.")

    def to_dict(self) -> dict:
        """JSON-able: paper, title, citation, mode, summary, census and the sections."""
        return to_jsonable({"paper": self.paper, "title": self.title, "citation": self.citation,
                            "mode": self.mode, "summary": self.summary(), "census": self.census.to_dict(),
                            "sections": [s.to_dict() for s in self.sections]})

    def to_text(self) -> str:
        """Plain text (the ``fedtheory findings`` default)."""
        return _render.to_text(self)

    def to_markdown(self) -> str:
        """Markdown (headings from ``##``)."""
        return _render.to_markdown(self)

    def to_rst(self, chars: str = "-~^", *, roles=None, ref=None) -> str:
        """reST, section titles underlined with ``chars`` (findings, sections); ``roles`` maps an outcome
        to a role name, ``ref(claim_id)`` gives the label a claim id links to."""
        return _render.to_rst(self, chars, roles=roles, ref=ref)

    def to_html(self, *, standalone: bool = False, anchor=None) -> str:
        """An HTML fragment (a ``<div class="findings">``), or a whole page with ``standalone=True``;
        ``anchor(claim_id)``, if given, makes each claim id a link to ``#anchor``."""
        return _render.to_html(self, standalone=standalone, anchor=anchor)


def _item(v: Verdict, root_causes: dict, *, extra: Iterable = ()) -> Item:
    fields = {k: getattr(v, k) for k in ("margin", "detects", "power", "root_cause", "referee", "analogue",
                                         "printed", "corrected", "expected")}
    fields["regression"] = v.regression
    return Item(id=v.id, reference=v.reference, statement=v.statement, status=v.status, kind=v.kind,
                lines=tuple(_render.item_lines(v, root_causes, extra=extra)), fields=to_jsonable(fields))


def _root_cause_record(rc_id: str, root_causes: dict) -> dict:
    rc = root_causes.get(rc_id)
    if rc is not None:
        return rc.to_dict()
    return {"id": rc_id, "title": rc_id, "kind": "", "detail": "", "references": []}


def findings(paper, verdicts) -> Findings:
    """One paper's verdicts, ordered as a referee report.

    Parameters
    ----------
    paper : fedtheory.Paper
        The paper plugin (its claims' order and its root causes, :meth:`fedtheory.Paper.root_causes`).
    verdicts : iterable of Verdict or dict
        Verdicts (or ``to_dict()`` records); those of other papers are ignored.

    Returns
    -------
    Findings
        Sections ``major`` (refuted and vacuous), ``errata`` (grouped by root cause), ``holds``
        (grouped by tightness, then the consistency checks apart), ``not-reproduced`` and
        ``undecided`` (inconclusive with their power statements, full-mode-only claims not run in
        quick mode with their cost, and errors).
    """
    vs = _ordered(paper, verdicts)
    rcs = paper.root_causes()
    claims = [v for v in vs if v.kind == "paper"]
    cons = [v for v in vs if v.kind == "consistency"]

    major = tuple(_item(v, rcs) for v in claims if v.status in (REFUTED, VACUOUS))
    err_groups: dict = {}
    for v in claims:
        if v.status == ERRATUM:
            err_groups.setdefault(v.root_cause or v.id, []).append(v)
    order = {k: i for i, k in enumerate(rcs)}
    errata = []
    for rc_id in sorted(err_groups, key=lambda k: order.get(k, len(order))):
        rec = _root_cause_record(rc_id, rcs)
        note = " ".join(x for x in (rec["detail"], ("Where: " + ", ".join(rec["references"]) + ".")
                                    if rec["references"] else "") if x)
        errata.append(Group(title=rec["title"], note=note, root_cause=rec,
                            items=tuple(_item(v, rcs) for v in err_groups[rc_id])))
    holds = [v for v in claims if v.status == HOLDS]
    by_rating = {r: [v for v in holds if rate(v) == r] for r in RATINGS}
    hold_groups = [
        Group("Tight: a 2x change of the claimed constant or exponent would fail",
              "", tuple(_item(v, rcs) for v in holds if rate(v) in ("exact", "tight"))),
        Group("Loose: a 10x change would fail, a 2x change would not", "",
              tuple(_item(v, rcs) for v in by_rating["loose"])),
        Group("Slack: these checks cannot detect a 10x error", "They hold, but the claimed constant or "
              "exponent could be wrong by a factor 10 and the check would still pass.",
              tuple(_item(v, rcs) for v in by_rating["slack"])),
        Group("Not rated: the verdict reports no margin or detection factor", "",
              tuple(_item(v, rcs) for v in by_rating["unknown"])),
        Group("Consistency checks (not counted as evidence)", "True by construction: checks of the "
              "implementation, not of the paper.", tuple(_item(v, rcs) for v in cons)),
    ]
    sections = (
        Section("major", "Major findings", "Claims that fail inside their regime (refuted), and claims whose "
                "hypotheses admit no instance or that hold trivially (vacuous).", (Group("", "", major),)),
        Section("errata", "Errata", "Typo-level slips: the printed form fails and a minimal correction "
                "holds, each decided by the named referee; grouped by root cause.", tuple(errata)),
        Section("holds", "What holds", "Claims that hold inside their regime, by how tight the check is "
                "(the smallest change of the claimed constant or exponent it would catch).",
                tuple(g for g in hold_groups if g.items)),
        Section("not-reproduced", "What the linear analogue does not reproduce", "Empirical statements "
                "about experiments that the named linear analogue does not reproduce.",
                (Group("", "", tuple(_item(v, rcs) for v in claims if v.status == NOT_REPRODUCED)),)),
        Section("undecided", "Undecided", "Claims the computation could not decide, with the size that "
                "would decide them; claims not run in this mode, with their full-mode cost; and claims whose "
                "computation failed.",
                tuple(g for g in (Group("Inconclusive", "", tuple(_item(v, rcs) for v in claims
                                                                   if v.status == INCONCLUSIVE)),
                                  Group("Full mode only (not run in quick mode)", "Quick mode cannot decide "
                                        "these within its budget; `fedtheory verify --full` does, at the "
                                        "stated cost.", tuple(_item(v, rcs) for v in claims
                                                              if v.status == NOT_RUN)),
                                  Group("Errors", "", tuple(_item(v, rcs) for v in claims if v.status == ERROR)))
                      if g.items)),
    )
    sections = tuple(Section(s.key, s.title, s.intro, tuple(g for g in s.groups if g.items)) for s in sections)
    return Findings(paper=paper.key, title=paper.title, citation=paper.citation.text(), census=census(vs),
                    sections=sections)
