"""HTML fragments of the paper pages: one claim (a one-line summary that opens onto its detail),
the errata table (printed and corrected values side by side) and the findings at a glance.

Statements are typeset as MathML with the converter of the HTML report (:mod:`fedtheory._asciimath`:
offline, no script and no network when a page is viewed), a long expression in pieces so that the
line can wrap. Values are formatted by
:func:`fedtheory.report.format_value` (significant digits, intervals, small key/value tables, long
arrays summarised); margins, detection factors and power statements come from the lines of
:mod:`fedtheory.findings`. The fragments go into ``.. raw:: html`` blocks of the generated reST.
"""
from __future__ import annotations

import html
import inspect
import math
import os
import re

from docutils.nodes import make_id

from fedtheory_docs_text import html_text

#: outcome -> CSS class of its badge (the same classes as the reST roles of the pages)
STATUS_CLASS = {"holds": "st-holds", "erratum": "st-erratum", "refuted": "st-refuted",
                "not-reproduced": "st-notreproduced", "vacuous": "st-vacuous", "inconclusive": "st-inconclusive",
                "not-run": "st-inconclusive", "error": "st-error"}
#: lines of a findings item shown in a claim's detail, in this order (label on the page)
DETAIL_LINES = (("margin", "margin"), ("detects", "detects"), ("power", "power"), ("root cause", "root cause"),
                ("linear analogue", "linear analogue"), ("referee", "referee"), ("regression", "regression"))


def anchor_id(claim_id: str) -> str:
    """The HTML id of a claim's entry: docutils' id of the label ``claim-<claim id>``."""
    return make_id(f"claim-{claim_id}")


def status_of(v: dict | None):
    """The outcome of a verdict record (former names ``fails``, ``erratum-confirmed`` read as the new ones)."""
    s = (v or {}).get("status")
    return {"fails": "refuted", "erratum-confirmed": "erratum"}.get(s, s)


def badge(status) -> str:
    """An outcome as a coloured badge (``not run`` when the build has no verdict for the claim)."""
    if not status:
        return "<span class='st-none'>not run</span>"
    return f"<span class='{STATUS_CLASS.get(status, 'st-error')}'>{html.escape(status)}</span>"


def code_location(func) -> dict | None:
    """Where a claim's function is defined, from the live object: ``{"module", "qualname", "path",
    "line"}`` (``path`` and ``line`` may be ``None``); ``None`` when ``func`` names no module."""
    f = inspect.unwrap(func) if callable(func) else func
    f = getattr(f, "func", f)  # functools.partial
    module = getattr(f, "__module__", None)
    if not module:
        return None
    try:
        path, line = inspect.getsourcefile(f), inspect.getsourcelines(f)[1]
        path = os.path.realpath(path) if path else None
    except (TypeError, OSError):
        path, line = None, None
    return {"module": module, "qualname": getattr(f, "__qualname__", getattr(f, "__name__", "")),
            "path": path, "line": line}


#: a typeset fragment longer than this is cut at its relations and sums (MathML does not wrap inside an
#: expression)
MATH_BREAK = 30
_RELATION = re.compile(r"^(<=|>=|!=|<<|>>|->|=|<|>|~|in)$")


def _brackets(stack: list, tok: str) -> None:
    """Update the open brackets with one token: each is ``True`` when it groups (opens a token or
    follows another bracket) and ``False`` when it holds a function's or a script's argument."""
    for i, ch in enumerate(tok):
        if ch in "([{":
            stack.append(i == 0 or tok[i - 1] in "([{)]}")
        elif ch in ")]}" and stack:
            stack.pop()


def _math_pieces(expr: str) -> list[str]:
    """An ASCII expression cut before a relation, ``+`` or ``-`` and after a comma, outside norms and
    function or script arguments, once the piece so far is longer than :data:`MATH_BREAK` characters
    (twice that inside grouping brackets). MathML does not wrap inside an expression: the pieces are
    where a line may wrap.

    Examples
    --------
    >>> _math_pieces("a_1 + a_2 + a_3 + a_4 + a_5 + a_6 + a_7 <= ||b_1 + b_2 + b_3 + b_4 + b_5 + b_6|| + c")
    ['a_1 + a_2 + a_3 + a_4 + a_5 + a_6', '+ a_7 <= ||b_1 + b_2 + b_3 + b_4 + b_5 + b_6||', '+ c']
    """
    out, cur, stack, norms = [], [], [], 0
    for tok in expr.split(" "):
        cut = _RELATION.match(tok) or tok in ("+", "-") or (cur and cur[-1][-1:] in ",;")
        limit = MATH_BREAK if not stack else 2 * MATH_BREAK
        if cut and all(stack) and norms % 2 == 0 and len(" ".join(cur)) > limit:
            out.append(" ".join(cur))
            cur = []
        cur.append(tok)
        _brackets(stack, tok)
        norms += tok.count("||")
    return out + ([" ".join(cur)] if cur else [])


def statement_html(text: str) -> str:
    """A statement with its mathematics typeset as MathML (:mod:`fedtheory._asciimath`, the converter
    of the HTML report); a long expression is typeset in pieces cut at its relations, so that the
    line can wrap there."""
    from latex2mathml.converter import convert

    from fedtheory._asciimath import find_math, to_latex

    out = []
    for piece, is_math in find_math(text):
        if not is_math:
            out.append(html.escape(piece))
            continue
        parts = []
        for sub in _math_pieces(piece):
            try:
                parts.append(convert(to_latex(sub)).replace(' xmlns="http://www.w3.org/1998/Math/MathML"', ""))
            except Exception:  # noqa: BLE001 - an expression latex2mathml cannot read stays text
                parts.append(html.escape(sub))
        out.append(" ".join(parts))
    return "".join(out)


def _value(x) -> str:
    from fedtheory.report import format_value

    return "–" if x is None else format_value(x)


def _num(x):
    if isinstance(x, str):
        return {"inf": math.inf, "-inf": -math.inf}.get(x)
    return None if isinstance(x, bool) or not isinstance(x, (int, float)) else float(x)


def glance(v: dict | None) -> str:
    """A few words on how the verdict was decided: the margin and how large an error it detects.

    Examples
    --------
    >>> glance({"margin": {"kind": "observed/bound", "value": 0.5, "tightness": "tight"},
    ...         "detects": {"factor": 2.0, "of": "constant"}})
    'observed/bound 0.5 (tight) · detects a 2× change of the constant'
    """
    from fedtheory.findings import format_number

    if not v:
        return ""
    parts = []
    m = v.get("margin") or {}
    if m.get("value") is not None:
        parts.append(f"{m.get('kind') or 'margin'} {format_number(m['value'])}"
                     + (f" ({m['tightness']})" if m.get("tightness") not in (None, "", "unknown") else ""))
    det = v.get("detects") or {}
    f = _num(det.get("factor"))
    of = det.get("of") or "claimed constant"
    if f is not None and status_of(v) not in ("inconclusive", "not-run", "error"):
        if math.isinf(f):
            parts.append(f"no change of the {of} would fail")
        elif f <= 1 + 1e-6:
            parts.append(f"exact in the {of}")
        else:
            parts.append(f"detects a {format_number(f)}× change of the {of}")
    if (v.get("power") or {}).get("needed") is not None:
        p = v["power"]
        parts.append(f"{format_number(p['needed'])} {p.get('unit') or ''} would decide".replace("  ", " "))
    return html_text(" · ".join(parts))


def code_link(loc: dict | None, href: str | None, short: bool = False) -> str:
    """The one-click link to a claim's code: ``module:line`` (``file.py:line`` when ``short``)
    pointing at the module's source page."""
    if not loc:
        return ""
    name = os.path.basename(loc["path"]) if short and loc.get("path") else loc["module"]
    label = name + (f":{loc['line']}" if loc.get("line") else "")
    title = html.escape(f"{loc['module']}.{loc['qualname']}")
    if href:
        return f"<a class='code' href='{html.escape(href)}' title='{title}'><code>{html.escape(label)}</code></a>"
    return f"<code class='code' title='{title}'>{html.escape(label)}</code>"


def claim_html(claim, v: dict | None, item=None, code_href: str | None = None) -> str:
    """A claim as ``<details>``: the summary is one row (id, reference, outcome, code link, typeset
    statement, margin at a glance), the body the evidence, the computed and theoretical values, the
    printed and corrected values of an erratum, margin, detection, power, referee and regime.

    Parameters
    ----------
    claim : fedtheory.claims.Claim
    v : dict or None
        Its verdict record (``Verdict.to_dict()``), ``None`` when the build has no verdict for it.
    item : fedtheory.findings.Item, optional
        Its findings item (the formatted margin, detection and power lines).
    code_href : str, optional
        Relative URL of the claim's source (``code_location`` gives the text).
    """
    st = status_of(v)
    loc = code_location(claim.func)
    kind = "<span class='kind'>consistency check</span>" if getattr(claim, "kind", "paper") == "consistency" else ""
    head = (f"<summary><span class='cl-left'><code class='cl-id'>{html.escape(claim.id)}</code>"
            f"<span class='cl-ref'>{html.escape(claim.reference)}</span> {badge(st)}{kind}"
            f"{code_link(loc, code_href, short=True)}</span>"
            f"<span class='cl-stmt'>{statement_html(claim.statement)}"
            + (f"<span class='cl-glance'>{glance(v)}</span>" if v and glance(v) else "")
            + "</span></summary>")
    rows = []
    if v:
        if st == "erratum" or v.get("printed") is not None or v.get("corrected") is not None:
            ob = v.get("observed") if isinstance(v.get("observed"), dict) else {}
            p = v.get("printed") if v.get("printed") is not None else ob.get("printed")
            c = v.get("corrected") if v.get("corrected") is not None else ob.get("corrected")
            if p is not None or c is not None:
                rows += [("printed form", _value(p)), ("corrected form", _value(c))]
        rows += [("computed", _value(v.get("observed"))), ("theory", _value(v.get("bound")))]
        lines = dict(item.lines) if item is not None else {}
        rows += [(label, html_text(lines[key])) for key, label in DETAIL_LINES if lines.get(key)]
        if v.get("evidence"):
            rows.append(("evidence", html_text(v["evidence"])))
        run = f"{v.get('mode', 'quick')} mode, {float(v.get('seconds') or 0):.2g} s"
        rows.append(("run", html.escape(run)))
    regime = (v or {}).get("regime") or claim.regime
    if regime:
        rows.append(("regime", html_text(regime)))
    if loc:
        where = f"{loc['module']}.{loc['qualname']}" + (f", line {loc['line']}" if loc.get("line") else "")
        rows.append(("code", code_link(loc, code_href) + f" <span class='where'>{html.escape(where)}</span>"))
    if not v:
        rows.insert(0, ("verdict", "not in the verify run this page was built with"))
    body = "".join(f"<dt>{html.escape(k)}</dt><dd>{val}</dd>" for k, val in rows)
    cls = STATUS_CLASS.get(st, "st-none")
    return f"<details class='claim {cls}'>{head}<dl class='cl-detail'>{body}</dl></details>"


def _margin_html(m: dict) -> str:
    """``observed/bound 1.002 (violated)``: a form's margin, or nothing."""
    from fedtheory.findings import format_number

    if not isinstance(m, dict) or m.get("value") is None:
        return ""
    t = f" ({m['tightness']})" if m.get("tightness") else ""
    return (f"<div class='em'>{html.escape(m.get('kind') or 'margin')} "
            f"<b>{html_text(format_number(m['value']))}</b>{html.escape(t)}</div>")


def _short(x, width: int = 220) -> str:
    """A value as one compact line (``key = value; ...``, 4 significant digits, powers of ten)."""
    from fedtheory.findings import format_value

    return "–" if x is None else html_text(format_value(x, width))


def errata_html(entries) -> str:
    """The errata as one table: claim, printed form, corrected form (each with its margin, then its
    values on one line) and root cause. ``entries`` are ``(claim, verdict record, root cause title or
    "")`` triples; the full values are in each claim's detail."""
    out = ["<table class='errata'><thead><tr><th>claim</th><th>printed form</th><th>corrected form</th>"
           "<th>root cause</th></tr></thead><tbody>"]
    for claim, v, rc_title in entries:
        ob = v.get("observed") if isinstance(v.get("observed"), dict) else {}
        p = v.get("printed") if v.get("printed") is not None else ob.get("printed")
        c = v.get("corrected") if v.get("corrected") is not None else ob.get("corrected")
        m = v.get("margin") or {}
        rc = v.get("root_cause") or ""
        out.append(f"<tr><td><a href='#{anchor_id(claim.id)}'><code>{html.escape(claim.id)}</code></a>"
                   f"<div class='ref'>{html.escape(claim.reference)}</div></td>"
                   f"<td>{_margin_html(m.get('printed'))}<div class='ev'>{_short(p)}</div></td>"
                   f"<td>{_margin_html(m)}<div class='ev'>{_short(c)}</div></td>"
                   f"<td>{html.escape(rc_title or rc)}" + (f"<div class='ref'><code>{html.escape(rc)}</code></div>"
                                                          if rc and rc_title and rc_title != rc else "")
                   + "</td></tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _links(items) -> str:
    return ", ".join(f"<a href='#{anchor_id(it.id)}'><code>{html.escape(it.id)}</code></a>" for it in items)


def findings_html(f) -> str:
    """The findings of :func:`fedtheory.findings.findings` at a glance: each section with its count;
    major findings, non-reproductions and undecided claims one line each (root cause, analogue,
    power), errata and what holds as links grouped by root cause and by tightness."""
    out = [f"<p class='fsummary'>{html_text(f.summary())}</p>", "<ol class='fsections'>"]
    for s in f.sections:
        out.append(f"<li><span class='ftitle'>{html.escape(s.title)} ({s.count})</span>")
        if not s.groups:
            out.append(" <span class='none'>none</span></li>")
            continue
        if s.key in ("errata", "holds"):
            out.append("<ul>")
            for g in s.groups:
                title = html.escape(g.title) if g.title else "other"
                out.append(f"<li><span class='gtitle'>{title}</span> ({len(g.items)}): {_links(g.items)}</li>")
            out.append("</ul></li>")
            continue
        out.append("<ul>")
        for g in s.groups:
            for it in g.items:
                lines = dict(it.lines)
                why = next((lines[k] for k in ("root cause", "linear analogue", "power", "evidence")
                            if lines.get(k)), "")
                out.append(f"<li>{_links([it])} ({html.escape(it.reference)}) {badge(it.status)}"
                           + (f": {html_text(why)}" if why else "") + "</li>")
        out.append("</ul></li>")
    out.append("</ol>")
    return "".join(out)
