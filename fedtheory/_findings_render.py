"""The parts of :class:`fedtheory.findings.Findings` (sections, groups, items) and its renderers:
plain text, Markdown, reST and HTML.

Numbers are formatted to 4 significant figures, intervals as ``[lo, hi]``, arrays summarised and
dicts written as ``key = value`` pairs (never a raw dict). Every renderer walks the same sections
and groups (:func:`fedtheory.findings.findings`), so the formats say the same things.
"""
from __future__ import annotations

import html
import math
import re

import numpy as np
from dataclasses import dataclass, field

from .claims import ERRATUM, INCONCLUSIVE, NOT_REPRODUCED, NOT_RUN, REFUTED, VACUOUS, to_jsonable

#: background colour of each outcome (the report, the findings page and the docs use the same)
STATUS_COLORS = {"holds": "#dcf2dc", "erratum": "#fbe8bd", "refuted": "#f6cccc", "not-reproduced": "#f8dcc6",
                 "vacuous": "#dde5f3", "inconclusive": "#e6e6e6", "not-run": "#f2f2f2",
                 "error": "#ecc0f2"}
#: one line on each outcome (legends)
STATUS_MEANING = {
    "holds": "the claim holds inside its regime",
    "erratum": "typo-level: the printed form fails, a minimal correction holds (named referee)",
    "refuted": "fails inside its regime with no typo-level fix, or a proof step is invalid",
    "not-reproduced": "an experiment the named linear analogue does not reproduce",
    "vacuous": "the hypotheses admit no instance, or the claim holds trivially in its whole regime",
    "inconclusive": "the computation cannot decide; the size that would decide is stated",
    "not-run": "full mode only: quick mode cannot decide it within its budget; its full-mode cost is stated",
    "error": "the claim's computation failed (an implementation problem, not a verdict on the paper)",
}

CSS = """
.findings{font-size:.95em}
.findings .fsummary{background:#f7f9fb;border:1px solid #d8e0e8;padding:.5em .8em}
.findings .intro,.findings .note{color:#444;margin:.2em 0 .6em}
.findings .finding{border-left:6px solid #ccc;padding:.35em .7em;margin:.5em 0;background:#fcfcfc}
.findings .fhead{font-weight:bold} .findings .fhead small{font-weight:normal;color:#555}
.badge{display:inline-block;padding:0 .5em;border-radius:4px;font-weight:bold;margin-left:.4em}
.findings dl{display:grid;grid-template-columns:max-content 1fr;gap:.1em .9em;margin:.3em 0 0;font-size:.92em}
.findings dt{color:#555} .findings dd{margin:0;overflow-wrap:anywhere}
.findings .none{color:#777;font-style:italic}
.findings h4{font-size:1.1em;margin:1.3em 0 .2em} .findings h5{font-size:1em;margin:1em 0 .2em}
.findings .rc{font-size:.85em;color:#555;font-weight:normal} .findings .rc code{font-size:1em}
"""


# ============================================================================ the parts of a report
@dataclass(frozen=True)
class Item:
    """One claim in the findings: its id, reference, statement, outcome, and the lines that say
    what decided it (``(label, text)`` pairs, numbers formatted), with the verdict's decision fields
    (``fields``: margin, detects, power, root cause, referee, analogue, printed, corrected, expected)."""

    id: str
    reference: str
    statement: str
    status: str
    kind: str
    lines: tuple = ()
    fields: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return to_jsonable({"id": self.id, "reference": self.reference, "statement": self.statement,
                            "status": self.status, "kind": self.kind,
                            "lines": [{"label": a, "text": b} for a, b in self.lines], **self.fields})

    def summary(self) -> str:
        return f"{self.id} ({self.reference}): {self.status}"


@dataclass(frozen=True)
class Group:
    """Claims that belong together (one root cause, one tightness class); ``root_cause`` is the
    :class:`fedtheory.paper.RootCause` record (a dict) for errata."""

    title: str
    note: str = ""
    items: tuple = ()
    root_cause: dict | None = None

    def to_dict(self) -> dict:
        return {"title": self.title, "note": self.note, "root_cause": self.root_cause,
                "items": [i.to_dict() for i in self.items]}


@dataclass(frozen=True)
class Section:
    """One part of the referee report: ``key`` (``major``, ``errata``, ``holds``, ``not-reproduced``,
    ``undecided``), its title, an introductory sentence and its groups."""

    key: str
    title: str
    intro: str
    groups: tuple = ()

    @property
    def count(self) -> int:
        return sum(len(g.items) for g in self.groups)

    def to_dict(self) -> dict:
        return {"key": self.key, "title": self.title, "intro": self.intro, "count": self.count,
                "groups": [g.to_dict() for g in self.groups]}


# ============================================================================ numbers and values
def format_number(x) -> str:
    """One number as text: integers exactly, floats to 4 significant figures (``1.235e-4``),
    infinities as ``inf``, ``None``/NaN as ``n/a``, booleans as yes/no.

    >>> format_number(0.000123456), format_number(3), format_number(2.0/3), format_number("inf")
    ('1.235e-4', '3', '0.6667', 'inf')
    """
    if isinstance(x, str):
        return x
    if x is None or isinstance(x, float) and math.isnan(x):
        return "n/a"
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, int):
        return str(x)
    x = float(x)
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x != 0 and not 1e-3 <= abs(x) < 1e5:
        mant, exp = f"{x:.3e}".split("e")
        return f"{mant.rstrip('0').rstrip('.')}e{int(exp)}"
    return f"{x:.4g}"


def _num(x) -> float | None:
    """A float from a number or a JSON infinity (``"inf"``); ``None`` otherwise."""
    if isinstance(x, str):
        return {"inf": math.inf, "-inf": -math.inf}.get(x)
    if isinstance(x, bool) or not isinstance(x, (int, float, np.integer, np.floating)):
        return None
    x = float(x)
    return None if math.isnan(x) else x


def detection_factor(v) -> float | None:
    """The verdict's detection factor (``detects["factor"]``; infinite when nothing detects), or ``None``."""
    return _num((v.detects or {}).get("factor"))


def _is_num(x) -> bool:
    return (isinstance(x, (int, float)) and not isinstance(x, bool)) or x in ("inf", "-inf") or x is None


def _flat(x):
    if isinstance(x, list):
        for v in x:
            yield from _flat(v)
    else:
        yield x


def _cut(s: str, width: int) -> str:
    s = " ".join(str(s).split())
    return s if len(s) <= width else s[: width - 3].rstrip() + "..."


def format_value(x, width: int = 200, depth: int = 0) -> str:
    """An observed value or bound as text: numbers formatted, short lists in full, long ones
    summarised, dicts as ``key = value`` pairs; cut at ``width`` characters.

    >>> format_value({"printed": 0.123456, "ci": [1e-30, 2.0], "curve": list(range(40))})
    'printed = 0.1235; ci = [1e-30, 2]; curve = 40 values from 0 to 39'
    """
    x = to_jsonable(x)
    if _is_num(x) or isinstance(x, bool):
        s = format_number(x)
    elif isinstance(x, str):
        s = x
    elif isinstance(x, list):
        flat = list(_flat(x))
        nums = [v for v in flat if isinstance(v, (int, float)) and not isinstance(v, bool)]
        if not x:
            s = "[]"
        elif all(_is_num(v) for v in x) and len(x) <= 6:
            s = "[" + ", ".join(format_number(v) for v in x) + "]"
        elif all(_is_num(v) for v in x):
            s = f"{len(x)} values" + (f" from {format_number(min(nums))} to {format_number(max(nums))}" if nums else "")
        elif all(_is_num(v) for v in flat):
            shape, y = [], x
            while isinstance(y, list) and y:
                shape.append(str(len(y)))
                y = y[0]
            s = "x".join(shape) + " array" + (f" in [{format_number(min(nums))}, {format_number(max(nums))}]"
                                              if nums else "")
        elif depth >= 2:
            s = f"{len(x)} items"
        else:
            s = "[" + ", ".join(format_value(v, width, depth + 1) for v in x[:4]) + (", ..." if len(x) > 4 else "") + "]"
    elif isinstance(x, dict):
        if not x:
            s = "(none)"
        elif depth >= 2:
            s = f"({len(x)} entries)"
        else:
            body = ("; " if depth == 0 else ", ").join(f"{k} = {format_value(v, width, depth + 1)}" for k, v in x.items())
            s = body if depth == 0 else f"({body})"
    else:
        s = str(x)
    return _cut(s, width)


# ============================================================================ the lines of one claim
def _margin_text(m: dict | None) -> str:
    if not m:
        return ""
    parts = []
    val = m.get("value")
    kind = m.get("kind") or "margin"
    parts.append(f"{kind} = {format_number(val)}" if val is not None else kind)
    ci = m.get("ci")
    extra = []
    if isinstance(ci, (list, tuple)) and len(ci) == 2:
        lo, hi = ci
        if lo is None and hi is not None:
            extra.append(f"confidence limit {format_number(hi)}")
        elif hi is None and lo is not None:
            extra.append(f"confidence limit {format_number(lo)}")
        elif lo is not None:
            extra.append(f"CI [{format_number(lo)}, {format_number(hi)}]")
    if m.get("tightness"):
        extra.append(str(m["tightness"]))
    pm = m.get("printed")
    if isinstance(pm, dict) and pm.get("value") is not None:
        extra.append(f"printed form: {pm.get('kind') or 'margin'} = {format_number(pm['value'])}")
    return parts[0] + (f" ({'; '.join(extra)})" if extra else "")


def _detects_text(v) -> str:
    det = v.detects or {}
    of = det.get("of") or "claimed constant"
    f = detection_factor(v)
    if f is None:
        return "not reported: the check is not shown to detect a 10x error"
    if f <= 1 + 1e-6 and v.status in (REFUTED, NOT_REPRODUCED, VACUOUS):
        return f"the claimed {of} itself fails (factor 1)"
    if f <= 1 + 1e-6:
        return (f"exact: a relative change of the {of} by {format_number(f - 1)} would fail" if f > 1 else
                f"exact: any change of the {of} would fail")
    if math.isinf(f):
        return f"no change of the {of} would fail: cannot detect a 10x error"
    return (f"a change of the {of} by a factor {format_number(f)} would fail"
            + ("; cannot detect a 10x error" if f > 10 else ""))


def _printed_corrected(v):
    ob = v.observed if isinstance(v.observed, dict) else {}
    p = v.printed if v.printed is not None else ob.get("printed")
    c = v.corrected if v.corrected is not None else ob.get("corrected")
    return p, c


def item_lines(v, root_causes: dict, *, extra=()) -> list:
    """``(label, text)`` pairs saying what decided the verdict ``v`` (numbers formatted)."""
    lines = [("statement", _cut(v.statement, 400))]
    if v.status == ERRATUM:
        p, c = _printed_corrected(v)
        lines.append(("printed vs corrected", f"printed {format_value(p, 160)}; corrected {format_value(c, 160)}"))
    elif v.observed is not None or v.bound is not None:
        lines.append(("computed", format_value(v.observed, 200)))
        lines.append(("claimed", format_value(v.bound, 200)))
    if v.margin and (v.margin.get("value") is not None or v.margin.get("tightness") not in (None, "unknown")):
        lines.append(("margin", _margin_text(v.margin)))
    if v.status not in (INCONCLUSIVE, NOT_RUN, "error"):
        lines.append(("detects", _detects_text(v)))
    if v.root_cause and v.status in (REFUTED, VACUOUS):
        rc = root_causes.get(v.root_cause)
        lines.append(("root cause", f"{rc.title} [{rc.kind}]" + (f": {rc.detail}" if rc.detail else "")
                      if rc is not None else v.root_cause))
    if v.status == NOT_REPRODUCED and v.analogue:
        lines.append(("linear analogue", v.analogue))
    if v.power:
        lines.append(("power", v.power.get("statement") or format_value(v.power)))
    if v.referee:
        lines.append(("referee", v.referee))
    if v.evidence:
        lines.append(("evidence", _cut(v.evidence, 400)))
    if v.regime:
        lines.append(("regime", _cut(v.regime, 300)))
    if v.regression:
        lines.append(("regression", f"recorded outcome {v.expected}, now {v.status}"))
    lines.extend(extra)
    return lines


# ============================================================================ text and Markdown
def _count(s) -> str:
    return f" ({s.count})" if s.count else ""


def _named(g) -> bool:
    """A group of errata whose root cause has a title of its own (not just its id)."""
    return bool(g.root_cause) and g.root_cause.get("title") != g.root_cause.get("id")


def to_text(f) -> str:
    out = [f"Findings: {f.paper}, {f.citation}", f"{f.mode} mode", "", f.summary(), ""]
    for n, s in enumerate(f.sections, 1):
        out += [f"{n}. {s.title}{_count(s)}", "   " + s.intro]
        if not s.groups:
            out.append("   None.")
        for g in s.groups:
            if g.title:
                out.append("")
                out.append(f"   {g.title}" + (f"  [root cause {g.root_cause['id']}]" if _named(g) else ""))
                if g.note:
                    out.append(f"     {g.note}")
            for it in g.items:
                out.append(f"   - {it.id} ({it.reference}): {it.status}")
                out += [f"       {label}: {text}" for label, text in it.lines]
        out.append("")
    return "\n".join(out).rstrip() + "\n"


_MD = re.compile(r"([\\`*_])|(<)(?=[A-Za-z/!?])|(\])(?=[(\[])")


def md_escape(text) -> str:
    """Text safe for Markdown inline context (one line): emphasis, code, HTML tags and links escaped.

    >>> md_escape("x_i <= 1 and [a](b)")
    'x\\\\_i <= 1 and [a\\\\](b)'
    """
    return _MD.sub(lambda m: "\\" + m.group(0), " ".join(str(text).split()))


def to_markdown(f) -> str:
    out = [f"## Findings: {md_escape(f.paper)}", "", f"*{md_escape(f.citation)}* ({f.mode} mode)", "",
           f"> {md_escape(f.summary())}", ""]
    for n, s in enumerate(f.sections, 1):
        out += [f"### {n}. {md_escape(s.title)}{_count(s)}", "", md_escape(s.intro), ""]
        if not s.groups:
            out += ["None.", ""]
        for g in s.groups:
            if g.title:
                rc = f" (root cause `{g.root_cause['id']}`)" if _named(g) else ""
                out += [f"#### {md_escape(g.title)}{rc}", ""]
                if g.note:
                    out += [md_escape(g.note), ""]
            for it in g.items:
                out.append(f"- **`{it.id}`** ({md_escape(it.reference)}): *{it.status}*")
                out += [f"  - *{label}:* {md_escape(text)}" for label, text in it.lines]
            out.append("")
    return "\n".join(out).rstrip() + "\n"


# ============================================================================ reST
def rst_escape(text) -> str:
    """Text safe for reST inline context (one line, inline markup characters escaped)."""
    s = re.sub(r"([\\`*_|])", r"\\\1", " ".join(str(text).split()))
    return "\\ " + s if re.match(r"^([-+#]|\d+[.)]|\(\d+\))(\s|$)", s) else s


def _rst_heading(text: str, char: str) -> list:
    return [text, char * max(len(text), 3), ""]


def to_rst(f, chars: str = "-~^", roles=None, ref=None) -> str:
    """reST of the findings: ``roles`` maps an outcome to a role name (else the outcome is literal),
    ``ref(claim_id)`` gives the label a claim id links to (else it is literal)."""
    def status(s):
        return f":{roles[s]}:`{s}`" if roles and s in roles else f"``{s}``"

    def cid(i):
        return f":ref:`{i} <{ref(i)}>`" if ref else f"``{i}``"

    out = _rst_heading("Findings", chars[0])
    out += [rst_escape(f.summary()) + f" Mode: {f.mode}.", ""]
    for n, s in enumerate(f.sections, 1):
        out += _rst_heading(f"{n}. {s.title}{_count(s)}", chars[1]) + [rst_escape(s.intro), ""]
        if not s.groups:
            out += ["None.", ""]
        for g in s.groups:
            if g.title:
                out += [f".. rubric:: {rst_escape(g.title)}" + (f" (root cause ``{g.root_cause['id']}``)"
                                                                 if _named(g) else ""), ""]
                if g.note:
                    out += [rst_escape(g.note), ""]
            for it in g.items:
                out += [f"- {cid(it.id)} ({rst_escape(it.reference)}): {status(it.status)}", ""]
                out += [f"  - *{label}:* {rst_escape(text)}" for label, text in it.lines]
                out.append("")
    return "\n".join(out).rstrip() + "\n"


# ============================================================================ HTML
_EXP = re.compile(r"(?<![\w.])(-?\d+(?:\.\d+)?)e(-?\d+)\b")


def _h(text) -> str:
    """Escaped text with numbers in scientific form as ×10<sup>k</sup>."""
    return _EXP.sub(lambda m: f"{m.group(1)}×10<sup>{str(int(m.group(2))).replace('-', '−')}</sup>",
                    html.escape(str(text)))


def badge(status: str) -> str:
    return (f"<span class='badge' style='background:{STATUS_COLORS.get(status, '#eee')}'>"
            f"{html.escape(status)}</span>")


def legend_html() -> str:
    """Every outcome with its colour and meaning."""
    return ("<dl class='legend'>" + "".join(f"<dt>{badge(s)}</dt><dd>{html.escape(m)}</dd>"
                                            for s, m in STATUS_MEANING.items()) + "</dl>")


def to_html(f, *, standalone: bool = False, anchor=None, level: int | None = None) -> str:
    from ._asciimath import math_html

    lv = level or (2 if standalone else 4)
    key = re.sub(r"[^A-Za-z0-9_-]", "-", f.paper)
    out = [f"<div class='findings' id='{key}-findings-body'>",
           f"<p class='fsummary'>{_h(f.summary())}</p>"]
    for n, s in enumerate(f.sections, 1):
        out.append(f"<section class='f-{s.key}'><h{lv} id='{key}-findings-{s.key}'>{n}. {html.escape(s.title)}"
                   f"{_count(s)}</h{lv}><p class='intro'>{html.escape(s.intro)}</p>")
        if not s.groups:
            out.append("<p class='none'>None.</p>")
        for g in s.groups:
            if g.title:
                rc = (f" <span class='rc'>root cause <code>{html.escape(g.root_cause['id'])}</code>"
                      f"{' (' + html.escape(g.root_cause['kind']) + ')' if g.root_cause.get('kind') else ''}</span>"
                      if _named(g) else "")
                out.append(f"<h{lv + 1}>{html.escape(g.title)}{rc}</h{lv + 1}>")
                if g.note:
                    out.append(f"<p class='note'>{_h(g.note)}</p>")
            for it in g.items:
                name = html.escape(it.id)
                name = f"<a href='#{html.escape(anchor(it.id))}'>{name}</a>" if anchor else name
                rows = "".join(f"<dt>{html.escape(label)}</dt><dd>"
                               f"{math_html(text) if label == 'statement' else _h(text)}</dd>"
                               for label, text in it.lines)
                out.append(f"<div class='finding' style='border-left-color:{STATUS_COLORS.get(it.status, '#ccc')}'>"
                           f"<div class='fhead'><code>{name}</code> <small>({html.escape(it.reference)})</small>"
                           f"{badge(it.status)}</div><dl>{rows}</dl></div>")
        out.append("</section>")
    out.append("</div>")
    frag = "\n".join(out)
    if not standalone:
        return frag
    return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            f"<title>Findings: {html.escape(f.paper)}</title>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'><style>"
            "body{font-family:'DejaVu Sans',Arial,sans-serif;max-width:1100px;margin:0 auto;padding:0 1.5em;"
            "color:#222;line-height:1.4} h1{font-size:1.5em;border-bottom:3px solid #2a5d8f;padding-bottom:.3em}"
            "h2{border-bottom:2px solid #ccc;padding-bottom:.2em;margin-top:1.6em}"
            "dl.legend{display:grid;grid-template-columns:max-content 1fr;gap:.15em .8em;font-size:.85em}"
            "dl.legend dd{margin:0}" + CSS + "</style></head><body>"
            f"<h1>Findings: {html.escape(f.title)}</h1><p>{html.escape(f.citation)} &mdash; {html.escape(f.mode)} "
            f"mode</p>{legend_html()}\n{frag}</body></html>")
