"""Claims and verdicts: the unit of the claim catalogue.

A :class:`Claim` is a quantitative statement from a paper, with an id
(``"fedrep.thm1.contraction"``), the key of the paper it comes from, the exact
reference (theorem, lemma or equation number), the statement, and an
``evaluate(full, seed)`` function that computes the numbers and returns a
:class:`Verdict`. Claims are registered on a :class:`fedtheory.Paper`
(``@PAPER.claim(...)``); this module knows no paper (a claim never looks its
paper up), and the registry lives in :mod:`fedtheory.plugins`. The numbers
become an outcome in one place, the decision kit :mod:`fedtheory.decide`.

Outcomes
--------
``holds``
    the computed value satisfies the claim inside its regime (with its
    confidence interval where the value is a Monte Carlo estimate);
``erratum``
    a typo-level erratum: the printed form fails, a minimal correction holds,
    and an independent referee decided both;
``refuted``
    the statement fails inside its regime and no typo-level correction is
    claimed, or a proof step is invalid;
``not-reproduced``
    an empirical statement about an experiment (a deep network, a real data
    set) that the named linear analogue does not reproduce;
``vacuous``
    the hypotheses admit no instance, or the statement is trivially satisfied
    in its whole regime;
``inconclusive``
    the computation cannot decide; the verdict carries a computed power
    statement (the size that would decide at power 0.8);
``not-run``
    quick mode only: the claim is marked *full mode only* (its quick-mode size
    could not decide it within the quick budget), so quick mode does not run
    it; the verdict states its full-mode cost. A claim function never returns
    it, and it is not counted as evidence either way;
``error``
    the claim's computation raised, or its return broke the verdict contract
    (:data:`CONTRACT_RULES`); the evidence names the rule. ``verify`` goes on
    with the other claims and exits 1.

Every ``erratum`` and ``refuted`` verdict names a root-cause id
(:attr:`Verdict.root_cause`); several claims may share one.

Former outcome names
--------------------
Earlier releases (up to 0.2.0) had the outcomes ``holds``, ``fails``,
``erratum-confirmed``, ``inconclusive`` and ``error``. For one release a claim
function may still return ``fails`` (read as ``refuted``) or
``erratum-confirmed`` (read as ``erratum``), and every JSON record carries a
``legacy_status`` field mapped by :data:`LEGACY_STATUS`.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

__all__ = ["HOLDS", "ERRATUM", "REFUTED", "NOT_REPRODUCED", "VACUOUS", "INCONCLUSIVE", "NOT_RUN", "ERROR", "FAILS",
           "STATUSES", "RETURNABLE", "UNDECIDED", "DECIDED", "PAPER_WRONG", "BAD_STATUSES", "LEGACY_STATUS", "CLAIM_KINDS", "CONTRACT_RULES",
           "Verdict", "Claim", "to_jsonable", "dump_json"]

HOLDS = "holds"
ERRATUM = "erratum"
REFUTED = "refuted"
NOT_REPRODUCED = "not-reproduced"
VACUOUS = "vacuous"
INCONCLUSIVE = "inconclusive"
NOT_RUN = "not-run"
ERROR = "error"
#: former name of ``refuted`` (kept for one release)
FAILS = REFUTED
STATUSES = (HOLDS, ERRATUM, REFUTED, NOT_REPRODUCED, VACUOUS, INCONCLUSIVE, NOT_RUN, ERROR)
#: outcomes a claim function may return (``not-run`` and ``error`` are given by :meth:`Claim.evaluate`)
RETURNABLE = (HOLDS, ERRATUM, REFUTED, NOT_REPRODUCED, VACUOUS, INCONCLUSIVE)
#: outcomes that leave the claim undecided in the mode that was run
UNDECIDED = (INCONCLUSIVE, NOT_RUN, ERROR)
#: outcomes that decide the claim (they carry a margin and a detection threshold)
DECIDED = (HOLDS, ERRATUM, REFUTED, NOT_REPRODUCED, VACUOUS)
#: outcomes that say the paper got something wrong
PAPER_WRONG = (ERRATUM, REFUTED, NOT_REPRODUCED, VACUOUS)
#: outcomes that make ``verify`` exit 1 for a claim with no recorded expected outcome
BAD_STATUSES = (REFUTED, ERROR)
#: outcome -> the status an old (0.2.0) JSON reader knows
LEGACY_STATUS = {HOLDS: "holds", ERRATUM: "erratum-confirmed", REFUTED: "fails", NOT_REPRODUCED: "fails",
                 VACUOUS: "fails", INCONCLUSIVE: "inconclusive", NOT_RUN: "inconclusive", ERROR: "error"}
#: status names a claim function may still return (read as the new outcome) for one release
_LEGACY_INPUT = {"fails": REFUTED, "erratum-confirmed": ERRATUM}
#: ``paper``: evidence for or against the paper; ``consistency``: true by construction (a check of
#: the implementation, not counted as evidence for the paper)
CLAIM_KINDS = ("paper", "consistency")

#: the keys a claim function may return
_ALLOWED_KEYS = frozenset({"status", "observed", "bound", "evidence", "params", "referee", "regime", "margin",
                           "detects", "power", "root_cause", "analogue", "printed", "corrected"})
_REQUIRED_KEYS = ("status", "observed", "bound")

#: the verdict contract: rule id -> what it requires of a claim function's return
CONTRACT_RULES = {
    "return-type": "a claim function returns a dict",
    "required-keys": "the dict has the keys status, observed and bound",
    "known-keys": "every key is one of: " + ", ".join(sorted(_ALLOWED_KEYS)),
    "known-status": "the status is one of: " + ", ".join(RETURNABLE),
    "finite-numbers": "a decided outcome has only finite numbers in observed and bound (except under a "
                      "`printed` key: a printed form that fails may be NaN or inf)",
    "json": "every value is JSON-serialisable (numbers, strings, booleans, None, lists, dicts, numpy arrays)",
    "power": "an inconclusive verdict carries a power statement (a dict with the size `needed` to decide)",
    "referee": "an erratum names the independent referee that decided it",
    "analogue": "a not-reproduced verdict names the linear analogue and its choices",
    "system-exit": "a claim does not exit the interpreter",
    "exception": "a claim's computation does not raise",
}


class ContractError(Exception):
    """A claim function's return broke a rule of :data:`CONTRACT_RULES`."""

    def __init__(self, rule: str, detail: str):
        super().__init__(f"verdict contract rule {rule!r} broken: {detail}")
        self.rule = rule


def to_jsonable(x: Any) -> Any:
    """Convert numpy scalars/arrays (nested in dicts, lists, tuples) to JSON types.

    NaN becomes ``None`` and infinities the strings ``"inf"``/``"-inf"``; other objects are returned
    unchanged (``json.dumps`` then refuses them).
    """
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


def _non_finite(x: Any, path: str = "") -> str | None:
    """The path of the first NaN or infinite number in ``x`` (nested dicts, lists, arrays), or ``None``.

    Values under a ``printed*`` key are skipped: a printed form that fails may evaluate to NaN or inf.
    """
    if isinstance(x, dict):
        for k, v in x.items():
            if str(k).startswith("printed"):
                continue
            bad = _non_finite(v, f"{path}.{k}" if path else str(k))
            if bad is not None:
                return bad
        return None
    if isinstance(x, (list, tuple)):
        for i, v in enumerate(x):
            bad = _non_finite(v, f"{path}[{i}]")
            if bad is not None:
                return bad
        return None
    if isinstance(x, np.ndarray):
        if x.dtype.kind in "fc" and not np.all(np.isfinite(x)):
            return path or "value"
        if x.dtype == object:
            return _non_finite(x.tolist(), path)
        return None
    if isinstance(x, (float, np.floating, complex, np.complexfloating)) and not np.isfinite(x):
        return path or "value"
    return None


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
        The outcome, one of :data:`STATUSES`.
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
        The hypotheses under which the claim is tested and how any open
        constant is read.
    referee : str
        For ``erratum`` (and any verdict that decides between a printed and a
        corrected form): the independent computation that decided it.
    margin : dict or None
        Tightness: ``{"kind", "value", "ci", "tightness"}``; for a bound
        ``value`` is observed/bound, for a rate the fitted minus the claimed
        exponent (see :mod:`fedtheory.decide`).
    detects : dict or None
        Sensitivity: ``{"factor", "of", "relative"}``, the smallest change of
        the claimed constant or exponent (as a factor) that this check would
        turn into a failure at its level.
    power : dict or None
        For ``inconclusive``: the size that would decide at power 0.8.
    root_cause : str
        For ``erratum``/``refuted`` (and ``vacuous``): the id of the slip; several
        claims may share one.
    analogue : str
        For ``not-reproduced``: the linear analogue and its choices.
    kind : str
        ``"paper"`` or ``"consistency"`` (true by construction, not evidence
        for the paper).
    expected : str or None
        The outcome the maintainers recorded for this claim and mode (never an
        input to the computation); ``None`` when none is recorded.

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
    margin: dict | None = None
    detects: dict | None = None
    power: dict | None = None
    root_cause: str = ""
    analogue: str = ""
    kind: str = "paper"
    expected: str | None = None
    printed: Any = None
    corrected: Any = None

    def __post_init__(self):
        if self.status in _LEGACY_INPUT:
            object.__setattr__(self, "status", _LEGACY_INPUT[self.status])
        if self.status not in STATUSES:
            raise ValueError(f"`status` must be one of: {', '.join(STATUSES)}; got {self.status!r}")
        if self.kind not in CLAIM_KINDS:
            raise ValueError(f"`kind` must be one of: {', '.join(CLAIM_KINDS)}; got {self.kind!r}")

    def __iter__(self):
        return iter((self.observed, self.bound))

    @property
    def ok(self) -> bool:
        """True unless the outcome is ``refuted`` or ``error``."""
        return self.status not in BAD_STATUSES

    @property
    def regression(self) -> bool:
        """True if an outcome was recorded for this claim and mode and this verdict differs from it."""
        return self.expected is not None and self.status != self.expected

    @property
    def legacy_status(self) -> str:
        """The status an old (0.2.0) reader knows (:data:`LEGACY_STATUS`)."""
        return LEGACY_STATUS[self.status]

    def to_dict(self) -> dict:
        return to_jsonable({
            "id": self.id, "paper": self.paper, "reference": self.reference,
            "statement": self.statement, "status": self.status, "legacy_status": self.legacy_status,
            "observed": self.observed, "bound": self.bound, "evidence": self.evidence, "params": self.params,
            "seed": self.seed, "mode": self.mode, "seconds": round(self.seconds, 3),
            "regime": self.regime, "referee": self.referee, "margin": self.margin, "detects": self.detects,
            "power": self.power, "root_cause": self.root_cause, "analogue": self.analogue, "kind": self.kind,
            "expected": self.expected, "printed": self.printed, "corrected": self.corrected,
        })

    def __str__(self) -> str:
        lines = [f"[{self.status}] {self.id} ({self.reference})" + (" [consistency check]"
                                                                  if self.kind == "consistency" else ""),
                 f"  computed : {_short(to_jsonable(self.observed), 200)}",
                 f"  theory   : {_short(to_jsonable(self.bound), 200)}",
                 f"  evidence : {self.evidence}"]
        if self.margin:
            ci = self.margin.get("ci")
            lines.append(f"  margin   : {self.margin.get('kind')} {_short(self.margin.get('value'))}"
                         + (f" [{_short(ci[0])}, {_short(ci[1])}]" if ci else "")
                         + (f" ({self.margin['tightness']})" if self.margin.get("tightness") else ""))
        if self.detects and self.detects.get("factor") is not None:
            f = self.detects["factor"]
            shown = (f"1 + {f - 1:.2g}" if isinstance(f, (int, float)) and 1 < f < 1.01 else _short(f))
            lines.append(f"  detects  : a change of the {self.detects.get('of', 'claim')} by a factor {shown}")
        if self.power:
            lines.append(f"  power    : {self.power.get('statement') or _short(self.power, 200)}")
        for name in ("regime", "referee", "root_cause", "analogue"):
            if getattr(self, name):
                lines.append(f"  {name.replace('_', ' '):<9}: {getattr(self, name)}")
        if self.expected is not None and self.regression:
            lines.append(f"  expected : {self.expected} (recorded outcome differs: regression)")
        return "\n".join(lines)

    def summary(self) -> str:
        """PEPit-style paired lines: the computed value next to the theoretical one, then the margin."""
        return str(self)

    def __repr__(self) -> str:
        return (f"Verdict(id={self.id!r}, status={self.status!r}, "
                f"observed={_short(to_jsonable(self.observed))}, "
                f"bound={_short(to_jsonable(self.bound))})")


def check_return(out: Any) -> dict:
    """Validate a claim function's return against :data:`CONTRACT_RULES`; returns a normalised copy.

    Raises
    ------
    ContractError
        Naming the rule that was broken.
    """
    if not isinstance(out, dict):
        raise ContractError("return-type", f"got {type(out).__name__}")
    missing = [k for k in _REQUIRED_KEYS if k not in out]
    if missing:
        raise ContractError("required-keys", f"missing {', '.join(missing)}")
    extra = sorted(str(k) for k in out if k not in _ALLOWED_KEYS)
    if extra:
        raise ContractError("known-keys", f"unknown key(s) {', '.join(extra)}")
    out = dict(out)
    status = out["status"]
    if not isinstance(status, str) or status not in RETURNABLE and status not in _LEGACY_INPUT:
        raise ContractError("known-status", f"got {status!r}")
    status = out["status"] = _LEGACY_INPUT.get(status, status)
    if status in DECIDED:
        for key in ("observed", "bound"):
            bad = _non_finite(out[key])
            if bad is not None:
                raise ContractError("finite-numbers", f"{status!r} with a non-finite number in {key} ({bad})")
    try:
        json.dumps(to_jsonable(out), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ContractError("json", str(exc)) from None
    if status == INCONCLUSIVE and not (isinstance(out.get("power"), dict) and "needed" in out["power"]):
        raise ContractError("power", "an inconclusive verdict without a computed power statement")
    if status == ERRATUM and not str(out.get("referee") or "").strip():
        raise ContractError("referee", "an erratum without a named referee")
    if status == NOT_REPRODUCED and not str(out.get("analogue") or "").strip():
        raise ContractError("analogue", "a not-reproduced verdict without its linear analogue")
    for key in ("evidence", "referee", "regime", "root_cause", "analogue"):
        if key in out and out[key] is not None and not isinstance(out[key], str):
            raise ContractError("json", f"`{key}` must be a string; got {type(out[key]).__name__}")
    return out


@dataclass(frozen=True)
class Claim:
    """A checkable claim of a paper.

    ``func(full: bool, seed) -> dict`` returns the keyword arguments of a
    :class:`Verdict` other than the ones the claim supplies: ``status``,
    ``observed``, ``bound`` and optionally ``evidence``, ``params``, ``referee``,
    ``regime`` (run-time details appended to the claim's own ``regime``),
    ``margin``, ``detects``, ``power``, ``root_cause``, ``analogue``, ``printed``
    and ``corrected``. The templates of :mod:`fedtheory.decide` return exactly
    such dicts. :meth:`evaluate` validates the return (:data:`CONTRACT_RULES`).

    Parameters
    ----------
    kind : {"paper", "consistency"}
        ``"consistency"`` marks a check that is true by construction (arithmetic
        on the formula itself); it is reported apart and not counted as evidence
        for the paper.
    root_cause : str
        The root-cause id an ``erratum``/``refuted``/``vacuous`` verdict of this
        claim names when the claim function does not name one.
    analogue : str
        The linear analogue of an experiment (for ``not-reproduced``).
    full_only : float or None
        ``None`` (the default) for a claim that quick mode decides. A number marks the claim
        *full mode only*: its quick-mode size cannot decide it within the quick budget, so quick
        mode does not run it and gives it the outcome ``not-run``; the number is its measured
        full-mode cost in seconds on one core, which that verdict states.

    Examples
    --------
    A claim is usually registered with ``@PAPER.claim(...)``; built directly:

    >>> from fedtheory.claims import Claim
    >>> from fedtheory import decide
    >>> claim = Claim(id="toy.eq1.identity", reference="Eq. (1)", statement="1 + 1 = 2",
    ...               func=lambda full, seed: decide.identity(1 + 1, 2, what="arithmetic"))
    >>> verdict = claim.evaluate()
    >>> verdict
    Verdict(id='toy.eq1.identity', status='holds', observed=2, bound=2)
    >>> observed, bound = verdict
    """

    id: str
    reference: str
    statement: str
    func: Callable[..., dict]
    default_seed: int = 0
    paper: str = ""
    regime: str = ""
    kind: str = "paper"
    root_cause: str = ""
    analogue: str = ""
    full_only: float | None = None

    def __post_init__(self):
        check_full_only(self.full_only, self.id)
        if not self.paper:  # the key is the id's first component
            object.__setattr__(self, "paper", self.id.split(".", 1)[0])
        if self.kind not in CLAIM_KINDS:
            raise ValueError(f"claim {self.id!r}: `kind` must be one of {', '.join(CLAIM_KINDS)}; got {self.kind!r}")

    def evaluate(self, full: bool = False, seed: Any = None, *, expected: str | None = None) -> Verdict:
        """Run the claim and validate its return.

        A computation that raises (``SystemExit`` included), or a return that breaks the verdict
        contract (:data:`CONTRACT_RULES`), gives a verdict with status ``error`` whose evidence names
        the claim and the rule; ``KeyboardInterrupt`` still interrupts. ``expected`` (the recorded
        outcome, :meth:`fedtheory.Paper.expected`) is attached to the verdict after the computation
        and never passed to it.
        """
        if not isinstance(full, (bool, np.bool_)):
            raise TypeError(f"`full` must be a bool; got {type(full).__name__}")
        seed = self.default_seed if seed is None else seed
        if self.full_only is not None and not full:
            return Verdict(id=self.id, paper=self.paper, reference=self.reference, statement=self.statement,
                           status=NOT_RUN, observed=None, bound=None, evidence=not_run_evidence(self),
                           params={"full_cost_s": self.full_only}, seed=seed, mode="quick", regime=self.regime,
                           kind=self.kind, expected=expected)
        t0 = time.perf_counter()
        try:
            try:
                ret = self.func(full=bool(full), seed=seed)
            except SystemExit as exc:
                raise ContractError("system-exit", f"the claim called sys.exit({exc.code!r})") from None
            if isinstance(ret, dict) and isinstance(ret.get("status"), str) and ret["status"] == NOT_REPRODUCED:
                named = ret.get("analogue")
                if named is None or isinstance(named, str) and named == "":  # the claim's own analogue names it
                    ret = {**ret, "analogue": self.analogue}
            out = check_return(ret)
        except ContractError as exc:
            out = dict(status=ERROR, observed=None, bound=None,
                       evidence=f"claim {self.id}: {exc} ({CONTRACT_RULES[exc.rule]})")
        except Exception as exc:  # noqa: BLE001 - reported as a verdict, so later claims still run
            import traceback

            where = traceback.extract_tb(exc.__traceback__)[-1]
            out = dict(status=ERROR, observed=None, bound=None,
                       evidence=f"claim {self.id}: {type(exc).__name__}: {exc} (at "
                                f"{where.filename.rsplit('/', 1)[-1]}:{where.lineno} in {where.name}); "
                                f"verdict contract rule 'exception'")
        secs = time.perf_counter() - t0
        extra = out.pop("regime", "") or ""
        regime = "; ".join(r for r in (self.regime, extra) if r)
        if out["status"] in (ERRATUM, REFUTED, VACUOUS) and not out.get("root_cause"):
            out["root_cause"] = self.root_cause or (self.id if out["status"] != VACUOUS else "")
        for key in ("evidence", "referee", "root_cause", "analogue"):
            if out.get(key) is None:
                out.pop(key, None)
        return Verdict(id=self.id, paper=self.paper, reference=self.reference, statement=self.statement,
                       seed=seed, mode="full" if full else "quick", seconds=secs, regime=regime,
                       kind=self.kind, expected=expected, **out)


def check_full_only(full_only, claim_id: str = "") -> None:
    """Validate a claim's ``full_only`` cost: ``None`` or a finite number of seconds > 0."""
    if full_only is None:
        return
    if isinstance(full_only, (bool, np.bool_)) or not isinstance(full_only, (int, float, np.integer, np.floating)):
        raise TypeError(f"claim {claim_id!r}: `full_only` must be None or a number of seconds; "
                        f"got {type(full_only).__name__}")
    if not np.isfinite(full_only) or full_only <= 0:
        raise ValueError(f"claim {claim_id!r}: `full_only` must be None or a finite number of seconds > 0 "
                         f"(the measured full-mode cost); got {full_only!r}")


def not_run_evidence(claim: "Claim") -> str:
    """The evidence line of a full-mode-only claim in quick mode: why it is not run, and its full cost."""
    return (f"full mode only: quick mode cannot decide it within its budget, so it is not run here; "
            f"full mode decides it in about {_seconds(claim.full_only)} on one core "
            f"(`fedtheory verify --full --claim {claim.id}`)")


def _seconds(s: float) -> str:
    return f"{s:.0f} s" if s < 120 else f"{s / 60:.1f} min"


def dump_json(verdicts: list[Verdict], path: str, *, header: dict | None = None) -> None:
    """Write ``{**header, "verdicts": [...]}`` as JSON (the header carries provenance and citations)."""
    with open(path, "w") as fh:
        json.dump(to_jsonable({**(header or {}), "verdicts": [v.to_dict() for v in verdicts]}), fh, indent=2)
