"""The paper plugin API: :class:`Paper`, with its claims, figures, results ledger and calculator.

A paper is a :class:`Paper` object exposed through the ``fedtheory.papers`` entry-point group.
The four built-in papers are plugins of exactly this kind. A third-party package registers a
paper like this::

    # toypkg/__init__.py
    from fedtheory import Paper
    PAPER = Paper(key="toy", title="A toy paper", authors=["A. Author"], year=2025, venue="arXiv")

    @PAPER.claim("toy.eq1.identity", reference="Eq. (1)", statement="1 + 1 = 2")
    def _eq1(full: bool, seed) -> dict:
        return dict(status="holds", observed=2, bound=2, evidence="arithmetic")

and in its ``pyproject.toml``::

    [project.entry-points."fedtheory.papers"]
    toy = "toypkg:PAPER"

Then ``fedtheory list|verify|report|ledger|cite --paper toy`` and the pytest ``claim`` marker work
for ``toy`` as for the built-in papers.

The layering is one-way: a :class:`Paper` holds :class:`~fedtheory.claims.Claim` objects, and a
claim never looks its paper up (``fedtheory.claims`` does not import this module).
"""
from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from .claims import CLAIM_KINDS, ERROR, NOT_RUN, STATUSES, Claim, check_full_only
from .ledger import LedgerRow, validate_ledger

__all__ = ["Citation", "Paper", "Figure", "Calculator", "RootCause", "ROOT_CAUSE_KINDS", "KEY_PATTERN",
           "read_outcomes_csv"]

#: what kind of slip a root cause is: ``typo`` (a symbol, factor or sign, a minimal correction holds),
#: ``statement`` (the statement is false as stated), ``proof`` (a proof step is invalid), ``hypotheses``
#: (no instance satisfies them), ``experiment`` (a reported experiment the linear analogue does not
#: reproduce), ``reading`` (an ambiguity of the text, read one way and checked)
ROOT_CAUSE_KINDS = ("typo", "statement", "proof", "hypotheses", "experiment", "reading")

#: paper keys: lower-case letters, digits, ``_`` and ``-``, starting with a letter
KEY_PATTERN = re.compile(r"^[a-z][a-z0-9_\-]*$")


def _latex_escape(s: str) -> str:
    return s.replace("&", r"\&").replace("%", r"\%").replace("#", r"\#").replace("_", r"\_")


def _last_name(author: str) -> str:
    """``"A. Author"`` -> ``"Author"``; ``"Author, A."`` -> ``"Author"``."""
    author = author.strip()
    if "," in author:
        return author.split(",", 1)[0].strip()
    return author.split()[-1] if author else ""


@dataclass(frozen=True)
class Citation:
    """How to cite one version of a paper.

    Parameters
    ----------
    title, authors, year, venue
        Bibliographic fields; ``authors`` is a sequence of names (``"Liam Collins"``).
    url, arxiv, doi : str, optional
        Where to find it (``arxiv`` is the identifier, e.g. ``"2102.07078"``).
    version : str, optional
        Which version this is (``"TMLR"``, ``"arXiv"``), for papers cited in several versions.
    bibtex : str, optional
        A BibTeX entry to use verbatim; generated from the fields when not given.
    entry_type : str, optional
        BibTeX entry type; guessed from ``venue`` when not given (``article`` for journals and
        transactions, ``misc`` for arXiv, ``inproceedings`` otherwise).
    """

    title: str
    authors: tuple
    year: int
    venue: str
    url: str | None = None
    arxiv: str | None = None
    doi: str | None = None
    version: str | None = None
    bibtex: str | None = None
    entry_type: str | None = None

    def __post_init__(self):
        if isinstance(self.authors, str):
            object.__setattr__(self, "authors", (self.authors,))
        object.__setattr__(self, "authors", tuple(self.authors))
        if not isinstance(self.title, str) or not self.title.strip():
            raise ValueError(f"`title` must be a non-empty string; got {self.title!r}")
        if not self.authors or not all(isinstance(a, str) and a.strip() for a in self.authors):
            raise ValueError(f"`authors` must be a non-empty list of names; got {self.authors!r}")
        if isinstance(self.year, bool) or not isinstance(self.year, int) or not 1000 <= self.year <= 9999:
            raise ValueError(f"`year` must be a four-digit integer; got {self.year!r}")
        if not isinstance(self.venue, str) or not self.venue.strip():
            raise ValueError(f"`venue` must be a non-empty string; got {self.venue!r}")

    # ------------------------------------------------------------------ text forms
    def author_text(self) -> str:
        """``"Collins, Hassani, Mokhtari and Shakkottai"`` (``"X et al."`` beyond four authors)."""
        names = [_last_name(a) for a in self.authors]
        if len(names) > 4:
            return f"{names[0]} et al."
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

    def short(self) -> str:
        """Authors and year: ``"Collins, Hassani, Mokhtari and Shakkottai (2021)"``."""
        return f"{self.author_text()} ({self.year})"

    def text(self) -> str:
        """One-line reference: authors (year), title, venue[, version]."""
        ver = f" [{self.version}]" if self.version else ""
        where = f", arXiv:{self.arxiv}" if self.arxiv and "arxiv" not in self.venue.lower() else ""
        return f"{self.short()}. {self.title}. {self.venue}{where}{ver}."

    def bibkey(self) -> str:
        word = next((w for w in re.findall(r"[A-Za-z]+", self.title) if w.lower() not in
                     {"a", "an", "the", "on", "of", "in", "for", "to", "and", "with"}), "paper")
        suffix = re.sub(r"[^a-z0-9]", "", (self.version or "").lower())
        return (re.sub(r"[^a-z]", "", _last_name(self.authors[0]).lower()) + str(self.year) + word.lower()
                + (f"-{suffix}" if suffix else ""))

    def to_bibtex(self) -> str:
        """The BibTeX entry (``bibtex`` verbatim if it was given)."""
        if self.bibtex:
            return self.bibtex.strip()
        venue_l = self.venue.lower()
        etype = self.entry_type or ("misc" if venue_l.startswith("arxiv") else
                                    "article" if any(w in venue_l for w in ("journal", "transactions", "letters"))
                                    else "inproceedings")
        fields = [("title", "{" + _latex_escape(self.title) + "}"), ("author", " and ".join(self.authors)),
                  ("year", str(self.year))]
        if etype == "article":
            fields.append(("journal", _latex_escape(self.venue)))
        elif etype == "inproceedings":
            fields.append(("booktitle", _latex_escape(self.venue)))
        else:
            fields.append(("howpublished", _latex_escape(self.venue)))
        if self.arxiv:
            fields += [("eprint", self.arxiv), ("archivePrefix", "arXiv")]
        if self.doi:
            fields.append(("doi", self.doi))
        if self.url:
            fields.append(("url", self.url))
        if self.version:
            fields.append(("note", f"{_latex_escape(self.version)} version"))
        body = ",\n".join(f"  {k} = {{{v}}}" for k, v in fields)
        return f"@{etype}{{{self.bibkey()},\n{body}\n}}"

    def to_dict(self) -> dict:
        return {"title": self.title, "authors": list(self.authors), "year": self.year, "venue": self.venue,
                "url": self.url, "arxiv": self.arxiv, "doi": self.doi, "version": self.version,
                "text": self.text()}


@dataclass(frozen=True)
class RootCause:
    """One slip of a paper, which several claims may share (the findings group errata by it).

    Parameters
    ----------
    id : str
        Short id, unique within the paper (``"sigma-for-sigma2"``).
    title : str
        One line: what is wrong and where.
    kind : str
        One of :data:`ROOT_CAUSE_KINDS`.
    detail : str, optional
        The printed and the corrected form, and the decisive numbers.
    references : sequence of str, optional
        Where the slip appears (``"Lemma A.5"``, ``"(101)"``).
    """

    id: str
    title: str
    kind: str = "typo"
    detail: str = ""
    references: tuple = ()

    def __post_init__(self):
        if not isinstance(self.id, str) or not re.match(r"^[a-z0-9][a-z0-9._\-]*$", self.id):
            raise ValueError(f"root cause `id` must be lower-case letters, digits, '.', '_' and '-'; got {self.id!r}")
        if not isinstance(self.title, str) or not self.title.strip():
            raise ValueError(f"root cause {self.id!r}: `title` must be a non-empty string")
        if self.kind not in ROOT_CAUSE_KINDS:
            raise ValueError(f"root cause {self.id!r}: `kind` must be one of {', '.join(ROOT_CAUSE_KINDS)}; "
                             f"got {self.kind!r}")
        object.__setattr__(self, "references", tuple([self.references] if isinstance(self.references, str)
                                                     else self.references))

    def to_dict(self) -> dict:
        return {"id": self.id, "title": self.title, "kind": self.kind, "detail": self.detail,
                "references": list(self.references)}


def read_outcomes_csv(path: str) -> dict:
    """Recorded outcomes from a CSV file with the columns ``claim,quick,full`` (``#`` starts a comment
    line): ``{claim id: {"quick": outcome, "full": outcome}}``; an empty cell records nothing."""
    import csv

    out = {}
    with open(path, newline="") as fh:
        rows = [r for r in csv.reader(line for line in fh if line.strip() and not line.lstrip().startswith("#"))]
    if not rows or [c.strip() for c in rows[0][:3]] != ["claim", "quick", "full"]:
        raise ValueError(f"{path}: the first row must be the header claim,quick,full")
    for i, r in enumerate(rows[1:], start=2):
        if len(r) < 3:
            raise ValueError(f"{path}: row {i} has {len(r)} cells, expected 3 (claim,quick,full)")
        cid = r[0].strip()
        if cid in out:
            raise ValueError(f"{path}: row {i}: claim {cid!r} recorded twice")
        out[cid] = {m: v.strip() for m, v in (("quick", r[1]), ("full", r[2])) if v.strip()}
    return out


@dataclass(frozen=True)
class Figure:
    """A registered figure: ``func(outdir, full, seed)`` writes files and returns their paths.

    ``func`` returns a dict of paths (``{"png": ..., "pdf": ..., "json": ...}``, as
    :func:`fedtheory.plotting.save_figure` returns) or a list of such dicts.
    """

    id: str
    paper: str
    reference: str
    func: Callable[..., Any]
    caption: str = ""


@dataclass(frozen=True)
class Calculator:
    """A paper's command-line calculator (``fedtheory calc KEY ...``).

    ``arguments(parser)`` adds options to an :class:`argparse.ArgumentParser`; ``run(args)``
    prints and returns an exit code.
    """

    paper: str
    run: Callable[[Any], int]
    arguments: Callable[[Any], None]
    help: str = ""


@dataclass(frozen=True, eq=False)
class Paper:
    """A paper plugin: citation, claims, figures, results ledger and an optional calculator.

    Parameters
    ----------
    key : str
        Short identifier (``"fedrep"``); every claim and figure id starts with ``key + "."``.
    title, authors, year, venue
        Citation fields (see :class:`Citation`).
    bibtex : str, optional
        BibTeX entry; generated from the fields when not given.
    url, arxiv, doi : str, optional
        Where to find the paper.
    version : str, optional
        Which version the claims' numbering follows (``"TMLR"``).
    versions : sequence of Citation, optional
        Other versions cited separately (SRPFL's arXiv version).
    modules : sequence of str, optional
        Modules imported the first time the paper's claims, figures or ledger are needed (a
        large catalogue registers itself lazily this way; a small plugin registers at import).
    description : str, optional
        One line on what is verified.
    """

    key: str
    title: str
    authors: Sequence[str]
    year: int
    venue: str
    bibtex: str | None = None
    url: str | None = None
    arxiv: str | None = None
    doi: str | None = None
    version: str | None = None
    versions: Sequence[Citation] = ()
    modules: Sequence[str] = ()
    description: str = ""
    _claims: dict = field(default_factory=dict, init=False, repr=False)
    _aliases: dict = field(default_factory=dict, init=False, repr=False)
    _figures: dict = field(default_factory=dict, init=False, repr=False)
    _state: dict = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self):
        if not isinstance(self.key, str) or not KEY_PATTERN.match(self.key):
            raise ValueError(f"paper `key` must match {KEY_PATTERN.pattern} (lower-case letters, digits, _ and -); "
                             f"got {self.key!r}")
        object.__setattr__(self, "authors", tuple([self.authors] if isinstance(self.authors, str) else self.authors))
        object.__setattr__(self, "versions", tuple(self.versions))
        object.__setattr__(self, "modules", tuple(self.modules))
        self.citation  # validates the citation fields  # noqa: B018
        for v in self.versions:
            if not isinstance(v, Citation):
                raise ValueError(f"paper {self.key!r}: `versions` must hold fedtheory.Citation objects; "
                                 f"got {type(v).__name__}")

    # ------------------------------------------------------------------ citation
    @property
    def citation(self) -> Citation:
        """The citation of the version the claims follow."""
        return Citation(title=self.title, authors=self.authors, year=self.year, venue=self.venue, url=self.url,
                        arxiv=self.arxiv, doi=self.doi, version=self.version, bibtex=self.bibtex)

    def citations(self) -> list[Citation]:
        """This version's citation, then the other versions'."""
        return [self.citation, *self.versions]

    def cite(self) -> str:
        """BibTeX of every version, separated by blank lines."""
        return "\n\n".join(c.to_bibtex() for c in self.citations())

    def __str__(self) -> str:
        return self.citation.text()

    def __repr__(self) -> str:
        return f"Paper(key={self.key!r}, {self.citation.short()!r})"

    # ------------------------------------------------------------------ registration
    def _check_id(self, what: str, id: str) -> None:
        if not isinstance(id, str) or not id.startswith(self.key + ".") or len(id) <= len(self.key) + 1:
            raise ValueError(f"{what} id {id!r} must start with its paper's key {self.key + '.'!r}")

    def claim(self, id: str, reference: str, statement: str, default_seed: int = 0,
              aliases: Sequence[str] = (), regime: str = "", kind: str = "paper", root_cause: str = "",
              analogue: str = "", full_only: float | None = None):
        """Decorator registering ``func(full, seed) -> dict`` as a claim of this paper.

        ``func`` returns a decision of :mod:`fedtheory.decide` (the :class:`~fedtheory.claims.Verdict`
        fields ``status``, ``observed``, ``bound`` and optionally ``evidence``, ``params``, ``referee``,
        ``regime``, ``margin``, ``detects``, ``power``, ``root_cause`` and ``analogue``).
        ``regime`` states the hypotheses the claim tests and how it reads any unspecified
        constant (a reading a violation could refute). ``kind="consistency"`` marks a check that is true
        by construction (reported apart, not evidence for the paper). ``root_cause`` is the id (see
        :meth:`root_cause`) an erratum or refutation of this claim names; ``analogue`` names the linear
        analogue of an experiment. ``full_only`` (seconds, the measured full-mode cost on one core)
        marks a claim that quick mode cannot decide within its budget: quick mode does not run it and
        reports it ``not-run`` with that cost (:class:`~fedtheory.claims.Claim`). ``aliases`` are former ids that ``verify --claim``,
        :func:`fedtheory.get_claim` and the ``claim`` marker still accept.
        """
        self._check_id("claim", id)
        for a in aliases:
            self._check_id("claim alias", a)
        if kind not in CLAIM_KINDS:
            raise ValueError(f"claim {id!r}: `kind` must be one of {', '.join(CLAIM_KINDS)}; got {kind!r}")
        check_full_only(full_only, id)

        def deco(func):
            old = self._claims.get(id)
            if old is not None and (old.func.__module__, old.func.__qualname__) != (func.__module__,
                                                                                     func.__qualname__):
                raise ValueError(f"paper {self.key!r}: duplicate claim id {id!r}")
            self._claims[id] = Claim(id=id, reference=reference, statement=statement, func=func,
                                     default_seed=default_seed, paper=self.key, regime=regime, kind=kind,
                                     root_cause=root_cause, analogue=analogue, full_only=full_only)
            for a in aliases:
                if a in self._claims or self._aliases.get(a, id) != id:
                    raise ValueError(f"paper {self.key!r}: alias {a!r} is already a claim id or another alias")
                self._aliases[a] = id
            return func

        return deco

    def figure(self, id: str, reference: str, caption: str = ""):
        """Decorator registering ``func(outdir, full, seed)`` as a figure of this paper."""
        self._check_id("figure", id)

        def deco(func):
            old = self._figures.get(id)
            if old is not None and (old.func.__module__, old.func.__qualname__) != (func.__module__,
                                                                                     func.__qualname__):
                raise ValueError(f"paper {self.key!r}: duplicate figure id {id!r}")
            self._figures[id] = Figure(id=id, paper=self.key, reference=reference, func=func, caption=caption)
            return func

        return deco

    def calculator(self, arguments: Callable[[Any], None], help: str = ""):
        """Decorator registering ``run(args) -> int`` as ``fedtheory calc KEY``; ``arguments(parser)``
        adds its options."""
        def deco(func):
            self._state["calculator"] = Calculator(paper=self.key, run=func, arguments=arguments, help=help)
            return func

        return deco

    def root_cause(self, id: str, title: str, *, kind: str = "typo", detail: str = "",
                   references: Sequence[str] = ()) -> RootCause:
        """Register a root cause (a slip several claims may share); returns it."""
        rc = RootCause(id=id, title=title, kind=kind, detail=detail, references=tuple(references))
        old = self._state.setdefault("root_causes", {}).get(id)
        if old is not None and old != rc:
            raise ValueError(f"paper {self.key!r}: root cause {id!r} registered twice with different fields")
        self._state["root_causes"][id] = rc
        return rc

    def root_causes(self) -> dict:
        """Root-cause id -> :class:`RootCause`, in registration order."""
        self.load()
        return dict(self._state.get("root_causes", {}))

    def set_expected_outcomes(self, outcomes) -> None:
        """Record the outcomes the maintainers established, as pytest's strict xfail does.

        ``outcomes`` is a mapping ``{claim id: outcome or {"quick": outcome, "full": outcome}}`` or the path
        of a CSV file with the columns ``claim,quick,full`` (:func:`read_outcomes_csv`), read on first use.
        ``verify`` exits 1 when a verdict differs from its recorded outcome (a regression) and no longer
        because a paper is wrong. The recorded outcome is never passed to a claim's computation.
        """
        self._state["expected_source"] = outcomes
        self._state.pop("expected", None)

    def expected_outcomes(self) -> dict:
        """``{claim id: {"quick": outcome, "full": outcome}}`` (validated: known claims and outcomes)."""
        if "expected" not in self._state:
            self.load()
            src = self._state.get("expected_source") or {}
            raw = read_outcomes_csv(src) if isinstance(src, str) else dict(src)
            table = {}
            for cid, val in raw.items():
                modes = {"quick": val, "full": val} if isinstance(val, str) else dict(val)
                if cid not in self._claims:
                    raise ValueError(f"paper {self.key!r}: recorded outcome for unknown claim {cid!r}")
                full_only = self._claims[cid].full_only is not None
                for m, o in modes.items():
                    if m not in ("quick", "full") or o not in STATUSES or o == ERROR:
                        raise ValueError(f"paper {self.key!r}: claim {cid!r}: recorded outcome {m}={o!r}; modes are "
                                         f"quick/full, outcomes {', '.join(x for x in STATUSES if x != ERROR)}")
                    if (o == NOT_RUN) != (m == "quick" and full_only):
                        raise ValueError(f"paper {self.key!r}: claim {cid!r}: recorded outcome {m}={o!r}; "
                                         f"'{NOT_RUN}' is the quick-mode outcome of a full-mode-only claim, and "
                                         f"only of one (this claim is {'' if full_only else 'not '}full mode only)")
                table[cid] = modes
            self._state["expected"] = table
        return self._state["expected"]

    def expected(self, claim_id: str, full: bool) -> str | None:
        """The recorded outcome of a claim in this mode, or ``None``."""
        claim = self.get_claim(claim_id)
        cid = claim.id if claim is not None else claim_id
        return self.expected_outcomes().get(cid, {}).get("full" if full else "quick")

    def set_ledger(self, rows: Sequence[LedgerRow]) -> None:
        """Attach the results ledger (validated against the claims and figures on first use)."""
        self._state["ledger_rows"] = tuple(rows)
        self._state.pop("ledger", None)

    # ------------------------------------------------------------------ access
    def load(self) -> "Paper":
        """Import the lazily registered modules (once) and validate the ledger; returns ``self``."""
        if not self._state.get("loaded"):
            for mod in self.modules:
                importlib.import_module(mod)
            self._state["loaded"] = True
            self.ledger()  # a malformed ledger is reported when the paper is loaded
        return self

    def claims(self) -> list[Claim]:
        """The paper's claims in registration order."""
        self.load()
        return list(self._claims.values())

    def figures(self) -> list[Figure]:
        """The paper's figures in registration order."""
        self.load()
        return list(self._figures.values())

    def aliases(self) -> dict:
        """Former claim id -> current claim id."""
        self.load()
        return dict(self._aliases)

    def get_claim(self, claim_id: str) -> Claim | None:
        """The claim with this id or alias, or ``None``."""
        self.load()
        return self._claims.get(self._aliases.get(claim_id, claim_id))

    def ledger(self) -> tuple:
        """The results ledger (validated: ids exist, every claim and figure is in some row)."""
        if "ledger" not in self._state:
            rows = self._state.get("ledger_rows", ())
            if not self._state.get("loaded"):
                self.load()
                return self._state["ledger"]
            self._state["ledger"] = validate_ledger(rows, key=self.key, claim_ids=self._claims,
                                                    figure_ids=self._figures, aliases=self._aliases)
        return self._state["ledger"]

    @property
    def calc(self) -> Calculator | None:
        """The paper's calculator, if it has one."""
        self.load()
        return self._state.get("calculator")
