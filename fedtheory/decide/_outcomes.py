"""Erratum, vacuous, not-reproduced, inconclusive and combined outcomes of the decision kit (:mod:`fedtheory.decide`)."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from ..claims import ERRATUM, HOLDS, INCONCLUSIVE, NOT_REPRODUCED, REFUTED, VACUOUS
from ._stats import _detects, _result, power_statement

def _decision_holds(d: Any, name: str) -> bool:
    if isinstance(d, (bool, np.bool_)):
        return bool(d)
    if isinstance(d, dict) and "status" in d:
        if d["status"] not in (HOLDS, REFUTED):
            raise ValueError(f"`{name}` must be decided (holds or refuted); got {d['status']!r}")
        return d["status"] == HOLDS
    raise TypeError(f"`{name}` must be a bool or a decision of this kit; got {type(d).__name__}")


def erratum(printed, corrected, *, referee: str, root_cause: str, what: str, printed_value=None,
            corrected_value=None, referee_value=None, evidence: str = "", params=None, **extra) -> dict:
    """A printed form against a corrected form, each decided by the named independent ``referee``.

    ``printed`` and ``corrected`` are decisions of this kit (or booleans from the referee). Printed fails
    and corrected holds -> ``erratum`` (typo-level, naming ``root_cause``); printed holds -> ``holds``
    (the printed form is fine after all); both fail -> ``refuted`` (no typo-level correction holds).
    Margin and detection threshold are those of the corrected form's decision; the printed form's margin
    is kept in ``observed``, with the referee's own number(s) ``referee_value`` when given.
    """
    if not isinstance(referee, str) or not referee.strip():
        raise ValueError("`referee` must name the independent computation (Monte Carlo, brute force, sympy, "
                         "an exact run)")
    if not isinstance(root_cause, str) or not root_cause.strip():
        raise ValueError("`root_cause` must be a non-empty id")
    p_ok, c_ok = _decision_holds(printed, "printed"), _decision_holds(corrected, "corrected")
    status = HOLDS if p_ok else ERRATUM if c_ok else REFUTED
    pm = printed.get("margin") if isinstance(printed, dict) else None
    cm = corrected.get("margin") if isinstance(corrected, dict) else None
    cd = corrected.get("detects") if isinstance(corrected, dict) else None
    pv = printed_value if printed_value is not None else (printed.get("observed") if isinstance(printed, dict)
                                                          else None)
    cv = corrected_value if corrected_value is not None else (corrected.get("observed")
                                                              if isinstance(corrected, dict) else None)
    parts = [evidence or what]
    for label, d in (("printed", printed), ("corrected", corrected)):
        if isinstance(d, dict) and d.get("evidence"):
            parts.append(f"{label}: {d['evidence']}")
    margin = dict(cm) if cm else {"kind": "printed vs corrected", "value": None, "ci": None,
                                  "tightness": "unknown"}
    margin["printed"] = pm
    observed = {"printed": pv, "corrected": cv, "printed_holds": p_ok, "corrected_holds": c_ok}
    if referee_value is not None:
        observed["referee"] = referee_value
    return _result(status, observed,
                   {"printed_holds": p_ok, "corrected_holds": c_ok}, "; ".join(parts), margin=margin,
                   detects=cd if cd else _detects(None, "corrected form"), params=params, referee=referee,
                   root_cause=root_cause if status != HOLDS else None, printed=pv, corrected=cv, **extra)


def vacuous(observed, bound, *, what: str, reason: str, root_cause: str, params=None, margin=None,
            detects=None, **extra) -> dict:
    """The hypotheses admit no instance, or the statement is trivially satisfied in its whole regime:
    ``observed`` and ``bound`` are the decisive numbers, ``reason`` the argument."""
    if not reason or not root_cause:
        raise ValueError("a vacuous outcome needs its `reason` and `root_cause`")
    return _result(VACUOUS, observed, bound, f"{what}: {reason}",
                   margin=margin or {"kind": "vacuity", "value": None, "ci": None, "tightness": "vacuous"},
                   detects=detects or _detects(None, "hypotheses"), params=params, root_cause=root_cause,
                   **extra)


def not_reproduced(decision: dict, *, analogue: str, what: str = "") -> dict:
    """An empirical statement about an experiment that the named linear ``analogue`` does not reproduce:
    a ``refuted`` decision of this kit relabelled; any other decision is returned unchanged."""
    if not analogue:
        raise ValueError("`analogue` must name the linear analogue and its choices")
    if not isinstance(decision, dict) or "status" not in decision:
        raise TypeError("`decision` must be a decision of this kit")
    if decision["status"] != REFUTED:
        return dict(decision)
    out = dict(decision, status=NOT_REPRODUCED, analogue=analogue)
    if what:
        out["evidence"] = f"{what}: {out.get('evidence', '')}"
    out.pop("root_cause", None)
    return out


def inconclusive(observed, bound, *, what: str, needed: int, unit: str, current: int, effect: str, test: str,
                 params=None, **extra) -> dict:
    """An undecided comparison with its power statement (:func:`power_statement`), for a test whose
    size search is done by the caller with one of this kit's size functions."""
    pw = power_statement(needed, unit, current=current, effect=effect, test=test)
    return _result(INCONCLUSIVE, observed, bound, f"{what}; {pw['statement']}",
                   margin={"kind": "undecided", "value": None, "ci": None, "tightness": "unknown"},
                   detects=_detects(None, "claim"), power=pw, params=params, **extra)


_SEVERITY = {REFUTED: 4, INCONCLUSIVE: 3, HOLDS: 0}


def combine(decisions: Sequence[dict], *, what: str, params=None, observed=None, bound=None, **extra) -> dict:
    """A claim made of several decisions of this kit (each already at ``LEVEL / tests``): ``refuted`` if
    any is refuted, else ``inconclusive`` if any is (with the largest size needed), else ``holds``.
    The margin and detection threshold are the weakest part's (the largest detection factor)."""
    decisions = list(decisions)
    if not decisions:
        raise ValueError("`decisions` is empty: combine needs at least one decision")
    for d in decisions:
        if not isinstance(d, dict) or d.get("status") not in _SEVERITY:
            raise ValueError(f"combine takes holds/refuted/inconclusive decisions; got "
                             f"{d.get('status') if isinstance(d, dict) else type(d).__name__!r}")
    worst = max(decisions, key=lambda d: _SEVERITY[d["status"]])
    status = worst["status"]
    decided = [d for d in decisions if d.get("detects")]
    weakest = max(decided, key=lambda d: (d["detects"].get("factor") is None,
                                          d["detects"].get("factor") or 0.0), default=worst)
    margin = (worst if status != HOLDS else weakest).get("margin")
    detects = weakest.get("detects")
    power = None
    if status == INCONCLUSIVE:
        power = max((d["power"] for d in decisions if d["status"] == INCONCLUSIVE), key=lambda p: p["needed"])
    ev = f"{what}: " + "; ".join(d.get("evidence", "") for d in decisions)
    return _result(status, observed if observed is not None else [d.get("observed") for d in decisions],
                   bound if bound is not None else [d.get("bound") for d in decisions], ev, margin=margin,
                   detects=detects, power=power, params=params, **extra)
