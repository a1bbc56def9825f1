"""Claims and verdicts: the unit of the claim catalogue.

A :class:`Claim` is a quantitative statement from a paper, with an id
(``"fedrep.thm1.contraction"``), the key of the paper it comes from, the exact
reference (theorem, lemma or equation number), the statement, and an
``evaluate(full, seed)`` function that computes the numbers and returns a
:class:`Verdict`. Claims are registered on a :class:`fedtheory.Paper`
(``@PAPER.claim(...)``); this module knows no paper (a claim never looks its
paper up), and the registry lives in :mod:`fedtheory.plugins`.

Status values
-------------
``holds``
    the computed value satisfies the claim (with its confidence interval where
    the value is a Monte Carlo estimate);
``fails``
    the computed value contradicts the claim;
``erratum-confirmed``
    the claim as printed fails numerically and the corrected form holds (both
    numbers are in the verdict);
``inconclusive``
    the computation cannot decide (e.g. an interval straddles the bound); the
    evidence says what size or how many runs would decide it;
``error``
    the claim's computation raised; the exception is in the evidence. ``verify``
    goes on with the other claims and exits 1.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

__all__ = ["HOLDS", "FAILS", "ERRATUM", "INCONCLUSIVE", "ERROR", "STATUSES", "BAD_STATUSES", "Verdict", "Claim",
           "to_jsonable", "dump_json"]

HOLDS = "holds"
FAILS = "fails"
ERRATUM = "erratum-confirmed"
INCONCLUSIVE = "inconclusive"
ERROR = "error"
STATUSES = (HOLDS, FAILS, ERRATUM, INCONCLUSIVE, ERROR)
#: statuses that make ``verify`` exit 1
BAD_STATUSES = (FAILS, ERROR)

def to_jsonable(x: Any) -> Any:
    """Convert numpy scalars/arrays (nested in dicts, lists, tuples) to JSON types."""
    if isinstance(x, dict):
        return {str(k): to_jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [to_jsonable(v) for v in x]
    if isinstance(x, np.ndarray):
        return to_jsonable(x.tolist())
    if isinstance(x, (np.bool_, bool)):
        return bool(x)
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (np.floating, float)):
        v = float(x)
        if np.isnan(v):
            return None
        if np.isinf(v):
            return "inf" if v > 0 else "-inf"
        return v
    return x


def _short(x: Any, width: int = 34) -> str:
    if isinstance(x, float):
        s = f"{x:.4g}"
    elif isinstance(x, dict):
        s = ", ".join(f"{k}={_short(v, 12)}" for k, v in x.items())
    elif isinstance(x, (list, tuple)):
        s = "[" + ", ".join(_short(v, 10) for v in x[:4]) + (", ..." if len(x) > 4 else "") + "]"
    else:
        s = str(x)
    return s if len(s) <= width else s[: width - 3] + "..."


@dataclass(frozen=True, kw_only=True)
class Verdict:
    """The outcome of evaluating one claim.

    Attributes
    ----------
    id, paper, reference, statement : str
        Copied from the :class:`Claim`.
    status : str
        One of ``holds``, ``fails``, ``erratum-confirmed``, ``inconclusive``.
    observed : Any
        The computed value(s) (JSON-friendly: float, list or dict).
    bound : Any
        The closed-form value or bound it is compared with (for errata, a dict
        ``{"printed": ..., "corrected": ...}``).
    evidence : str
        A short human-readable explanation of the comparison.
    params : dict
        The parameters of the computation.
    seed : Any
        The base seed.
    mode : str
        ``"quick"`` or ``"full"``.
    seconds : float
        Wall time of the evaluation.
    regime : str
        The hypotheses under which the claim is tested and how any unspecified
        constant is read (from the :class:`Claim`, plus run-time details such as a
        measured threshold).
    referee : str
        For ``erratum-confirmed`` (and any verdict that decides between a printed
        and a corrected form): the independent computation that decided it
        (Monte Carlo, brute force, exact arithmetic, sympy, an exact run).

    Unpacks as ``observed, bound = verdict``.
    """

    id: str
    paper: str
    reference: str
    statement: str
    status: str
    observed: Any
    bound: Any
    evidence: str = ""
    params: dict = field(default_factory=dict)
    seed: Any = None
    mode: str = "quick"
    seconds: float = 0.0
    regime: str = ""
    referee: str = ""

    def __post_init__(self):
        if self.status not in STATUSES:
            raise ValueError(f"`status` must be one of: {', '.join(STATUSES)}; got {self.status!r}")

    def __iter__(self):
        return iter((self.observed, self.bound))

    @property
    def ok(self) -> bool:
        """True unless the status is ``fails`` or ``error``."""
        return self.status not in BAD_STATUSES

    def to_dict(self) -> dict:
        return to_jsonable({
            "id": self.id, "paper": self.paper, "reference": self.reference,
            "statement": self.statement, "status": self.status, "observed": self.observed,
            "bound": self.bound, "evidence": self.evidence, "params": self.params,
            "seed": self.seed, "mode": self.mode, "seconds": round(self.seconds, 3),
            "regime": self.regime, "referee": self.referee,
        })

    def __str__(self) -> str:
        return (f"[{self.status}] {self.id} ({self.reference})\n"
                f"  computed : {_short(to_jsonable(self.observed), 200)}\n"
                f"  theory   : {_short(to_jsonable(self.bound), 200)}\n"
                f"  evidence : {self.evidence}"
                + (f"\n  regime   : {self.regime}" if self.regime else "")
                + (f"\n  referee  : {self.referee}" if self.referee else ""))

    def summary(self) -> str:
        """PEPit-style paired lines: the computed value next to the theoretical one."""
        return str(self)

    def __repr__(self) -> str:
        return (f"Verdict(id={self.id!r}, status={self.status!r}, "
                f"observed={_short(to_jsonable(self.observed))}, "
                f"bound={_short(to_jsonable(self.bound))})")


@dataclass(frozen=True)
class Claim:
    """A checkable claim of a paper.

    ``func(full: bool, seed) -> dict`` returns the keyword arguments of a
    :class:`Verdict` other than the ones the claim supplies: ``status``,
    ``observed``, ``bound`` and optionally ``evidence``, ``params``, ``referee``
    and ``regime`` (run-time details appended to the claim's own ``regime``).

    Examples
    --------
    A claim is usually registered with ``@PAPER.claim(...)``; built directly:

    >>> from fedtheory.claims import Claim
    >>> claim = Claim(id="toy.eq1.identity", reference="Eq. (1)", statement="1 + 1 = 2",
    ...               func=lambda full, seed: dict(status="holds", observed=2, bound=2, evidence="arithmetic"))
    >>> verdict = claim.evaluate()
    >>> verdict
    Verdict(id='toy.eq1.identity', status='holds', observed=2, bound=2)
    >>> observed, bound = verdict
    >>> print(verdict.summary())
    [holds] toy.eq1.identity (Eq. (1))
      computed : 2
      theory   : 2
      evidence : arithmetic
    """

    id: str
    reference: str
    statement: str
    func: Callable[..., dict]
    default_seed: int = 0
    paper: str = ""
    regime: str = ""

    def __post_init__(self):
        if not self.paper:  # the key is the id's first component
            object.__setattr__(self, "paper", self.id.split(".", 1)[0])

    def evaluate(self, full: bool = False, seed: Any = None) -> Verdict:
        """Run the claim; a computation that raises gives a verdict with status ``error``."""
        seed = self.default_seed if seed is None else seed
        t0 = time.perf_counter()
        try:
            out = self.func(full=full, seed=seed)
            if not isinstance(out, dict) or "status" not in out:
                raise TypeError(f"a claim function must return a dict with a `status`; got {type(out).__name__}")
            if out["status"] not in STATUSES or out["status"] == ERROR:
                raise ValueError(f"a claim function returned the status {out['status']!r}; allowed: "
                                 f"{', '.join(s for s in STATUSES if s != ERROR)}")
        except Exception as exc:  # noqa: BLE001 - reported as a verdict, so later claims still run
            import traceback

            where = traceback.extract_tb(exc.__traceback__)[-1]
            out = dict(status=ERROR, observed=None, bound=None,
                       evidence=f"{type(exc).__name__}: {exc} (at {where.filename.rsplit('/', 1)[-1]}:"
                                f"{where.lineno} in {where.name})")
        secs = time.perf_counter() - t0
        extra = out.pop("regime", "") if isinstance(out, dict) else ""
        regime = "; ".join(r for r in (self.regime, extra) if r)
        return Verdict(id=self.id, paper=self.paper,
                       reference=self.reference,
                       statement=self.statement, seed=seed, mode="full" if full else "quick",
                       seconds=secs, regime=regime, **out)


def dump_json(verdicts: list[Verdict], path: str, *, header: dict | None = None) -> None:
    """Write ``{**header, "verdicts": [...]}`` as JSON (the header carries provenance and citations)."""
    with open(path, "w") as fh:
        json.dump(to_jsonable({**(header or {}), "verdicts": [v.to_dict() for v in verdicts]}), fh, indent=2)
