"""The claim table in other formats: CSV for a spreadsheet, LaTeX for a paper, JSON for a program.

``fedtheory verify --format {table,json,csv,latex}`` prints the verdicts with these functions; they
also take the ``verdicts`` list of a ``verify --json`` file, so a table can be made again from
saved results::

    import json
    from fedtheory.export import to_latex
    verdicts = json.load(open("verify.json"))["verdicts"]
    open("claims.tex", "w").write(to_latex(verdicts))

Each claim gives one row: paper, claim id, reference, status, the key numbers of the computed
value and of the theory (:func:`key_numbers`: at most three scalar entries, four significant
digits), the confidence interval(s) found in the computed value (:func:`confidence_intervals`),
the margin and detection threshold of the decision (:mod:`fedtheory.decide`), the root cause, the
claim's kind (paper or consistency) and the statement. The LaTeX table needs ``\\usepackage{booktabs,longtable,array}``.
"""
from __future__ import annotations

import csv
import io
import json
import math
import re

from .claims import to_jsonable

__all__ = ["FORMATS", "CSV_COLUMNS", "LONGTABLE_ROWS", "Range", "key_numbers", "confidence_intervals", "claim_rows",
           "format_number", "latex_escape", "to_json", "to_csv", "to_latex"]

#: the formats of ``fedtheory verify --format``
FORMATS = ("table", "json", "csv", "latex")

#: the columns of :func:`to_csv`, in order
CSV_COLUMNS = ("paper", "id", "reference", "status", "computed", "theory", "ci", "margin", "detects", "root_cause",
               "kind", "statement", "evidence")

# a key naming a confidence interval: "ci", "ci99", "slope_ci", "c_cell_ci95" (not "decision", "CIFAR")
_CI_KEY = re.compile(r"(?:^|_)ci(?:\d+)?(?:$|_)")

_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "#": r"\#",
                  "%": r"\%", "_": r"\_", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
                  "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}"}

#: rows above which :func:`to_latex` writes a ``longtable`` (which breaks across pages)
LONGTABLE_ROWS = 25


def _as_dict(v) -> dict:
    """A verdict as the dict of ``Verdict.to_dict`` (a dict is taken as it is)."""
    if isinstance(v, dict):
        return v
    if hasattr(v, "to_dict"):
        return v.to_dict()
    raise TypeError(f"`verdicts` must hold Verdict objects or dicts; got {type(v).__name__}")


def _is_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _scalar(x) -> bool:
    return x is None or isinstance(x, (bool, int, float)) or (isinstance(x, str) and len(x) <= 80)


class Range(tuple):
    """A long list of numbers summarised: ``Range((n, lo, hi))`` (how many, smallest, largest)."""

    def __repr__(self) -> str:
        return f"Range(n={self[0]}, lo={self[1]!r}, hi={self[2]!r})"


def _summary(v):
    """A list as a key number: itself (up to four scalars), a :class:`Range` (more numbers) or
    ``None`` (anything else: it is left out)."""
    if not isinstance(v, list) or not v:
        return None
    if len(v) <= 4 and all(_scalar(e) for e in v):
        return v
    nums = [e for e in v if _is_number(e)]
    if nums and all(_is_number(e) or e is None or e in ("inf", "-inf") for e in v):
        return Range((len(v), min(nums), max(nums)))
    return None


def _is_ci(key: str, value) -> bool:
    return (bool(_CI_KEY.search(str(key))) and isinstance(value, list) and len(value) == 2
            and all(_is_number(v) or v in ("inf", "-inf") for v in value))


def key_numbers(value, limit: int = 3) -> list[tuple[str, object]]:
    """The key numbers of a computed value or a bound, as ``(name, value)`` pairs.

    A scalar gives one pair with an empty name. A dict gives its scalar entries (numbers,
    booleans, strings up to 80 characters), its lists of at most four scalars and its longer
    lists of numbers (as a :class:`Range`), in the dict's order, looking two levels into nested
    dicts (names joined with ``.``); confidence intervals are left out (see
    :func:`confidence_intervals`), and so are lists of dicts. At most ``limit`` pairs; a last
    pair ``("...", None)`` says that more were left out.

    Parameters
    ----------
    value : Any
        A verdict's ``observed`` or ``bound`` (numpy values allowed).
    limit : int
        The most pairs to return, an integer >= 1.

    Returns
    -------
    list of (str, Any)

    Raises
    ------
    ValueError
        If ``limit`` is not an integer >= 1.

    Examples
    --------
    >>> key_numbers(0.5)
    [('', 0.5)]
    >>> key_numbers({"ratio": 0.91, "ci": [0.88, 0.94], "runs": 200})
    [('ratio', 0.91), ('runs', 200)]
    >>> key_numbers({"printed": {"max": 2.0}, "corrected": {"max": 0.5}, "n": 3, "k": 4}, limit=2)
    [('printed.max', 2.0), ('corrected.max', 0.5), ('...', None)]
    >>> key_numbers({"ratio": [15.7, 3.8, 0.91, 0.22, 0.054]})
    [('ratio', Range(n=5, lo=0.054, hi=15.7))]
    """
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise ValueError(f"`limit` must be an integer >= 1; got {limit!r}")
    value = to_jsonable(value)
    if _scalar(value):
        return [("", value)]
    pairs: list[tuple[str, object]] = []

    def walk(x, prefix: str, depth: int) -> None:
        for k, v in x.items():
            name = f"{prefix}{k}"
            if _is_ci(k, v):
                continue
            if _scalar(v):
                pairs.append((name, v))
            elif isinstance(v, list) and _summary(v) is not None:
                pairs.append((name, _summary(v)))
            elif isinstance(v, dict) and depth < 2:
                walk(v, name + ".", depth + 1)

    if isinstance(value, dict):
        walk(value, "", 0)
    elif _summary(value) is not None:
        pairs.append(("", _summary(value)))
    if len(pairs) > limit:
        return pairs[:limit] + [("...", None)]
    return pairs


def confidence_intervals(value, limit: int = 2) -> list[tuple[str, list]]:
    """The confidence intervals in a computed value: entries named ``ci``, ``ci99``, ``*_ci``,
    ``*_ci95`` ... holding two numbers, searched depth first, at most ``limit``.

    Examples
    --------
    >>> confidence_intervals({"mean": 1.0, "ci99": [0.9, 1.1], "fit": {"slope_ci": [-1.1, -0.9]}})
    [('ci99', [0.9, 1.1]), ('fit.slope_ci', [-1.1, -0.9])]
    >>> confidence_intervals({"decision": "printed", "CIFAR": [1, 2]})
    []
    """
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise ValueError(f"`limit` must be an integer >= 1; got {limit!r}")
    out: list[tuple[str, list]] = []

    def walk(x, prefix: str) -> None:
        if isinstance(x, dict):
            for k, v in x.items():
                if _is_ci(k, v):
                    out.append((f"{prefix}{k}", v))
                else:
                    walk(v, f"{prefix}{k}.")
        elif isinstance(x, list):
            for i, v in enumerate(x[:50]):
                walk(v, f"{prefix}{i}.")

    walk(to_jsonable(value), "")
    return out[:limit]


def format_number(x, digits: int = 4, latex: bool = False) -> str:
    """One value as text: integers exactly, floats to ``digits`` significant digits, booleans as
    ``yes``/``no``, ``None`` (a NaN in JSON) as ``nan``; with ``latex=True`` powers of ten and
    infinities as LaTeX mathematics and strings escaped.

    Examples
    --------
    >>> format_number(0.000123456), format_number(3), format_number(True), format_number(2.0)
    ('0.0001235', '3', 'yes', '2')
    >>> format_number(1.5e-12, latex=True), format_number("inf", latex=True)
    ('$1.5\\\\times 10^{-12}$', '$\\\\infty$')
    """
    if isinstance(digits, bool) or not isinstance(digits, int) or digits < 1:
        raise ValueError(f"`digits` must be an integer >= 1; got {digits!r}")
    if isinstance(x, str) and x in ("inf", "-inf"):
        x = float(x)
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "nan"
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, str):
        return latex_escape(x) if latex else x
    if isinstance(x, int):
        return str(x)
    if isinstance(x, float):
        if math.isinf(x):
            return ("$\\infty$" if x > 0 else "$-\\infty$") if latex else ("inf" if x > 0 else "-inf")
        s = f"{x:.{digits}g}"
        if latex and "e" in s:
            mant, exp = s.split("e")
            return f"${'' if mant == '1' else mant + chr(92) + 'times '}10^{{{int(exp)}}}$"
        return s
    return latex_escape(str(x)) if latex else str(x)


def _pairs_text(pairs, latex: bool = False) -> str:
    parts = []
    for name, v in pairs:
        if name == "...":
            parts.append("\\dots" if latex else "...")
            continue
        if isinstance(v, Range):
            lo, hi = (format_number(e, latex=latex) for e in v[1:])
            val = f"{v[0]} values, all {lo}" if lo == hi else f"{v[0]} values in [{lo}, {hi}]"
        elif isinstance(v, list):
            val = "[" + ", ".join(format_number(e, latex=latex) for e in v) + "]"
        else:
            val = format_number(v, latex=latex)
        parts.append(val if not name else f"{latex_escape(name) if latex else name} = {val}")
    return "; ".join(parts)


def _ci_text(observed, latex: bool = False) -> str:
    """The confidence intervals of ``observed`` as text (a plain ``ci`` without its name)."""
    return _pairs_text([("" if n == "ci" else n, v) for n, v in confidence_intervals(observed)], latex=latex)


def _margin_text(m) -> str:
    """``"observed/bound 0.5 (tight)"`` from a verdict's ``margin`` dict (empty without one)."""
    if not isinstance(m, dict) or m.get("value") is None:
        return "" if not isinstance(m, dict) else str(m.get("tightness") or "")
    v = m["value"]
    return f"{m.get('kind', '')} {v:.4g}" + (f" ({m['tightness']})" if m.get("tightness") else "") \
        if isinstance(v, (int, float)) else str(v)


def _detects_text(d) -> str:
    """``"x2 of the constant"`` from a verdict's ``detects`` dict (empty without a factor)."""
    if not isinstance(d, dict) or d.get("factor") is None:
        return ""
    f = d["factor"]
    return f"x{f:.3g} of the {d.get('of', 'claim')}" if isinstance(f, (int, float)) else f"x{f} of the {d.get('of')}"


def claim_rows(verdicts) -> list[dict]:
    """One dict per verdict with the columns of :data:`CSV_COLUMNS` (numbers formatted as text).

    Parameters
    ----------
    verdicts : list of Verdict or dict
        Verdicts, or the ``verdicts`` list of a ``verify --json`` file.
    """
    rows = []
    for v in map(_as_dict, verdicts):
        rows.append({"paper": v.get("paper", ""), "id": v.get("id", ""), "reference": v.get("reference", ""),
                     "status": v.get("status", ""), "computed": _pairs_text(key_numbers(v.get("observed"))),
                     "theory": _pairs_text(key_numbers(v.get("bound"))),
                     "ci": _ci_text(v.get("observed")),
                     "margin": _margin_text(v.get("margin")), "detects": _detects_text(v.get("detects")),
                     "root_cause": v.get("root_cause") or "", "kind": v.get("kind") or "paper",
                     "statement": " ".join(str(v.get("statement", "")).split()),
                     "evidence": " ".join(str(v.get("evidence", "")).split())})
    return rows


def to_json(verdicts, header: dict | None = None) -> str:
    """``{**header, "verdicts": [...]}`` as the JSON text that ``verify --json`` writes."""
    return json.dumps(to_jsonable({**(header or {}), "verdicts": [_as_dict(v) for v in verdicts]}), indent=2)


def to_csv(verdicts) -> str:
    """The claim table as CSV (:data:`CSV_COLUMNS`, a header row, one row per claim).

    Examples
    --------
    >>> from fedtheory.claims import Verdict
    >>> v = Verdict(id="toy.eq1", paper="toy", reference="Eq. (1)", statement="a, b", status="holds",
    ...             observed={"mean": 0.25, "ci": [0.2, 0.3]}, bound=1)
    >>> print(to_csv([v]).splitlines()[1])
    toy,toy.eq1,Eq. (1),holds,mean = 0.25,1,"[0.2, 0.3]",,,,paper,"a, b",
    """
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(CSV_COLUMNS), lineterminator="\n")
    w.writeheader()
    w.writerows(claim_rows(verdicts))
    return buf.getvalue()


def latex_escape(text) -> str:
    r"""``text`` with every LaTeX special character escaped (``\ { } $ & # % _ ~ ^ < > |``).

    Examples
    --------
    >>> print(latex_escape("50% of a_1 & {b} ~ $x^2$"))
    50\% of a\_1 \& \{b\} \textasciitilde{} \$x\textasciicircum{}2\$
    >>> print(latex_escape("#3 \\ |y| < 1"))
    \#3 \textbackslash{} \textbar{}y\textbar{} \textless{} 1
    """
    return "".join(_LATEX_SPECIAL.get(c, c) for c in str(text))


def _latex_id(cid: str) -> str:
    """A claim id in typewriter type, breakable after its dots and hyphens."""
    return r"\texttt{" + "".join(latex_escape(c) + (r"\allowbreak{}" if c in ".-" else "") for c in cid) + "}"


def to_latex(verdicts, *, longtable: bool | None = None, caption: str | None = None) -> str:
    r"""The claim table as a booktabs LaTeX table (needs ``\usepackage{booktabs,longtable,array}``).

    Columns: claim id and reference, status, computed key numbers (with the confidence interval),
    theory key numbers, statement. Every text is escaped (:func:`latex_escape`); numbers have four
    significant digits.

    Parameters
    ----------
    verdicts : list of Verdict or dict
        Verdicts, or the ``verdicts`` list of a ``verify --json`` file.
    longtable : bool or None
        ``True``: a ``longtable`` (breaks across pages); ``False``: a ``tabular``; ``None``
        (default): a ``longtable`` above :data:`LONGTABLE_ROWS` rows.
    caption : str or None
        A caption (escaped); ``None``: a caption naming the papers and the mode. Only a
        ``longtable`` carries it (wrap a ``tabular`` in your own ``table``).

    Examples
    --------
    >>> from fedtheory.claims import Verdict
    >>> v = Verdict(id="toy.eq1", paper="toy", reference="Eq. (1)", statement="x_1 <= 5%",
    ...             status="refuted", observed=1.5e-12, bound=0)
    >>> tex = to_latex([v])
    >>> tex.count(r"\begin{tabular}"), r"x\_1 \textless{}= 5\%" in tex, r"$1.5\times 10^{-12}$" in tex
    (1, True, True)
    """
    rows = [_as_dict(v) for v in verdicts]
    if longtable is None:
        longtable = len(rows) > LONGTABLE_ROWS
    papers = list(dict.fromkeys(r.get("paper", "") for r in rows))
    modes = sorted({str(r.get("mode", "")) for r in rows if r.get("mode")})
    if caption is None:
        caption = (f"Claims checked by fedtheory ({', '.join(papers) or 'no paper'}; "
                   f"{'/'.join(modes) or 'quick'} mode)")
    cols = (r"@{}>{\raggedright\arraybackslash}p{0.21\linewidth}>{\raggedright\arraybackslash}p{0.09\linewidth}"
            r">{\raggedright\arraybackslash}p{0.2\linewidth}>{\raggedright\arraybackslash}p{0.14\linewidth}"
            r">{\raggedright\arraybackslash}p{0.24\linewidth}@{}")
    head = r"Claim & Status & Computed & Theory & Statement \\"
    env = "longtable" if longtable else "tabular"
    out = [f"% fedtheory claim table: {len(rows)} claims; needs \\usepackage{{booktabs,longtable,array}}",
           r"{\footnotesize", f"\\begin{{{env}}}{{{cols}}}"]
    if longtable:
        out += [f"\\caption{{{latex_escape(caption)}}}\\\\", r"\toprule", head, r"\midrule", r"\endfirsthead",
                r"\toprule", head, r"\midrule", r"\endhead", r"\bottomrule", r"\endfoot"]
    else:
        out += [r"\toprule", head, r"\midrule"]
    for r in rows:
        computed = _pairs_text(key_numbers(r.get("observed")), latex=True)
        ci = _ci_text(r.get("observed"), latex=True)
        if ci:
            computed += ("; " if computed else "") + "CI " + ci
        status = latex_escape(r.get("status", ""))
        if r.get("status") in ("refuted", "error"):
            status = r"\textbf{" + status + "}"
        out.append(f"{_latex_id(str(r.get('id', '')))}\\newline {latex_escape(r.get('reference', ''))} & {status} & "
                   f"{computed} & {_pairs_text(key_numbers(r.get('bound')), latex=True)} & "
                   f"{latex_escape(' '.join(str(r.get('statement', '')).split()))} \\\\")
    if not longtable:
        out.append(r"\bottomrule")
    out += [f"\\end{{{env}}}", "}"]
    return "\n".join(out) + "\n"
