"""ASCII mathematics in claim statements, rendered as MathML (offline, through latex2mathml).

Claim statements are prose with ASCII mathematics: ``grad^2 F_k``, ``||w - P x||_1``, ``lam``,
``sigma_min,*^2``, ``eta~ <= beta/(5 L_F)``. :func:`math_html` finds the mathematical fragments
(identifiers with ``_``/``^`` indices, Greek names, norms, relations, function calls, the operands
of an operator) and renders each as inline MathML; the prose around them is HTML-escaped text.
A fragment that cannot be converted is left as text (never an error).
"""
from __future__ import annotations

import html
import re

__all__ = ["math_html", "to_latex", "find_math"]

GREEK = {"alpha": r"\alpha", "beta": r"\beta", "gamma": r"\gamma", "delta": r"\delta", "eps": r"\varepsilon",
         "epsilon": r"\varepsilon", "zeta": r"\zeta", "eta": r"\eta", "theta": r"\theta", "vartheta": r"\vartheta",
         "iota": r"\iota", "kappa": r"\kappa", "lam": r"\lambda", "lambda": r"\lambda", "mu": r"\mu", "nu": r"\nu",
         "xi": r"\xi", "pi": r"\pi", "rho": r"\rho", "sigma": r"\sigma", "tau": r"\tau", "phi": r"\phi",
         "varphi": r"\varphi", "chi": r"\chi", "psi": r"\psi", "omega": r"\omega", "Gamma": r"\Gamma",
         "Delta": r"\Delta", "Theta": r"\Theta", "Lambda": r"\Lambda", "Xi": r"\Xi", "Pi": r"\Pi",
         "Sigma": r"\Sigma", "Phi": r"\Phi", "Psi": r"\Psi", "Omega": r"\Omega"}
#: names written upright with a LaTeX command of their own
FUNCS = {"log": r"\log", "ln": r"\ln", "exp": r"\exp", "min": r"\min", "max": r"\max", "sup": r"\sup",
         "inf": r"\inf", "det": r"\det", "lim": r"\lim", "sin": r"\sin", "cos": r"\cos", "sum": r"\sum",
         "prod": r"\prod"}
#: names written upright with \operatorname
OPNAMES = {"dist", "grad", "argmin", "argmax", "col", "var", "Var", "Cov", "tr", "rank", "diag", "sign", "mean",
           "erfc", "erf", "poly", "span", "lambda_max", "lambda_min", "sigma_min", "sigma_max"}
ACCENTS = {"hat": r"\hat", "bar": r"\bar", "tilde": r"\tilde"}
RELATIONS = {"<=": r"\le", ">=": r"\ge", "!=": r"\ne", "<<": r"\ll", ">>": r"\gg", "->": r"\to", "<-": r"\gets",
             "=": "=", "<": "<", ">": ">", "~": r"\sim", "in": r"\in", "+-": r"\pm"}
BINOPS = {"+", "-", "*", "/"}

_WORD = re.compile(r"[A-Za-z]+")


# ----------------------------------------------------------------------------- finding fragments
def _core(chunk: str) -> str:
    """A whitespace-separated chunk without the punctuation that ends a sentence or clause."""
    return chunk.lstrip("(['\"").rstrip(",.;:)]}'\"")


def _kind(chunk: str) -> str:
    """``strong`` (certainly mathematics), ``op`` (an operator or relation on its own), ``weak`` (a
    function name, mathematics only next to other mathematics), ``neutral`` (numbers, single letters,
    indexed letters) or ``prose``."""
    core = _core(chunk)
    if not core:
        return "neutral" if chunk.strip() in ("(", ")", "[", "]") else "prose"
    if core in RELATIONS or core in BINOPS or core in ("||", "|", "+-"):
        return "op" if core != "in" else "in"
    if any(s in core for s in ("_", "^", "|", "<=", ">=", "!=", "->")):
        return "strong"
    words = _WORD.findall(core)
    if any(w in GREEK for w in words) and all(w in GREEK or w in FUNCS or w in OPNAMES or len(w) <= 2
                                               for w in words):
        return "strong"
    if re.fullmatch(r"(sqrt|log|ln|exp|min|max|dist|O|E|P|sup|inf)\(.*", core) or core.startswith("sqrt"):
        return "strong"
    if re.search(r"[A-Za-z0-9)\]]\s*[=<>/*+]|[/*+=<>]\s*[A-Za-z0-9(]", core):
        return "strong"
    if core in FUNCS or core in OPNAMES:
        return "weak"
    if re.fullmatch(r"[A-Za-z][0-9]*[*~'+]*|[0-9.]+|\(?[0-9.,\s\-]+\)?[\])]?|[A-Z][A-Za-z]?[0-9]*", core):
        return "neutral" if not re.fullmatch(r"[A-Za-z][*~']+", core) else "strong"
    if re.fullmatch(r"[A-Za-z]+\(.*", core) and "(" in core and not core.endswith("("):
        return "strong"  # a function call: Erlang(b, 1), min(n,k)
    return "prose"


def _balanced(text: str) -> bool:
    depth = {"(": 0, "[": 0, "{": 0}
    close = {")": "(", "]": "[", "}": "{"}
    for ch in text:
        if ch in depth:
            depth[ch] += 1
        elif ch in close:
            depth[close[ch]] -= 1
            if depth[close[ch]] < 0:
                return False
    return all(v == 0 for v in depth.values())


def find_math(text: str) -> list[tuple[str, bool]]:
    """Split ``text`` into ``(piece, is_math)`` pieces whose concatenation is ``text``.

    >>> find_math("the step eta <= 1/(4 L) is small")
    [('the step ', False), ('eta <= 1/(4 L)', True), (' is small', False)]
    """
    parts = re.split(r"(\s+)", text)
    chunks = parts[0::2]
    kinds = [_kind(c) for c in chunks]
    n = len(chunks)
    math = [k in ("strong", "op") for k in kinds]
    # operators pull in their operands; weak words and neutral pieces join neighbouring mathematics
    for _ in range(3):
        for i, k in enumerate(kinds):
            if math[i]:
                continue
            left = math[i - 1] if i > 0 else False
            right = math[i + 1] if i + 1 < n else False
            left_op = i > 0 and kinds[i - 1] in ("op", "in") and math[i - 1]
            right_op = i + 1 < n and kinds[i + 1] in ("op",)
            ends = chunks[i] != chunks[i].rstrip(")]},.;:")  # closes a bracket or ends a clause
            right_ok = right or (i + 1 < n and kinds[i + 1] == "neutral") or ends
            if k == "neutral" and (left_op or right_op or (left and right_ok)):
                math[i] = True
            elif k == "weak" and (right or left_op):
                math[i] = True
            elif k == "in" and left and right and kinds[i - 1] != "prose":
                math[i] = True
    # an operator needs a mathematical operand on at least one side
    for i, k in enumerate(kinds):
        if k == "op" and math[i]:
            left = i > 0 and math[i - 1] and kinds[i - 1] != "op"
            right = i + 1 < n and math[i + 1] and kinds[i + 1] != "op"
            if not (left or right):
                math[i] = False
    # spans of consecutive math chunks; sentence punctuation and unbalanced brackets go back to the text
    out: list[tuple[str, bool]] = []

    def emit(piece: str, is_math: bool):
        if not piece:
            return
        if out and out[-1][1] == is_math:
            out[-1] = (out[-1][0] + piece, is_math)
        else:
            out.append((piece, is_math))

    i = 0
    while i < n:
        if not math[i]:
            emit(chunks[i] + (parts[2 * i + 1] if 2 * i + 1 < len(parts) else ""), False)
            i += 1
            continue
        j = i
        while j + 1 < n and math[j + 1]:
            j += 1
        span = "".join(chunks[t] + (parts[2 * t + 1] if t < j else "") for t in range(i, j + 1))
        if not any(kinds[t] == "strong" or (kinds[t] == "op" and _core(chunks[t]) in RELATIONS and t > i and t < j)
                   for t in range(i, j + 1)):  # e.g. "4.1 /": no mathematics of its own
            emit(span + (parts[2 * j + 1] if 2 * j + 1 < len(parts) else ""), False)
            i = j + 1
            continue
        tail_ws = parts[2 * j + 1] if 2 * j + 1 < len(parts) else ""
        lead, body, trail = _trim(span)
        emit(lead, False)
        if body:
            emit(body, True)
        emit(trail + tail_ws, False)
        i = j + 1
    return out


def _trim(span: str) -> tuple[str, str, str]:
    """``(leading text, mathematics, trailing text)``: punctuation and unbalanced brackets at the ends
    are text."""
    lead, body, trail = "", span, ""
    for _ in range(8):
        changed = False
        m = re.search(r"[,.;:]+$", body)
        if m:
            trail, body, changed = m.group(0) + trail, body[: m.start()], True
        if body.endswith((")", "]")) and not _balanced(body):
            trail, body, changed = body[-1] + trail, body[:-1], True
        if body.startswith(("(", "[")) and not _balanced(body):
            lead, body, changed = lead + body[0], body[1:], True
        if not changed:
            break
    if body[:1] in "'\"":
        lead, body = lead + body[0], body[1:]
    if not _balanced(body) or not re.search(r"[A-Za-z0-9]", body):
        return lead + body + trail, "", ""
    return lead, body, trail


# ----------------------------------------------------------------------------- ASCII -> LaTeX
_TOKEN = re.compile(r"\|\||<=|>=|!=|<<|>>|->|\+-|[A-Za-z]+[0-9]*|[0-9]+(?:\.[0-9]+)?|\s+|.")


def _group(tokens, i, open_, close):
    """Index just after the bracket closing the one at ``tokens[i]``."""
    depth = 0
    for j in range(i, len(tokens)):
        if tokens[j] == open_:
            depth += 1
        elif tokens[j] == close:
            depth -= 1
            if depth == 0:
                return j + 1
    return len(tokens)


def _ident(word: str) -> str:
    """LaTeX of a bare identifier: Greek, a function, an indexed letter, letters or an upright name."""
    if word in GREEK:
        return GREEK[word]
    if word in FUNCS:
        return FUNCS[word]
    if word in OPNAMES:
        return r"\operatorname{%s}" % word
    m = re.fullmatch(r"([A-Za-z]+?)([0-9]+)", word)
    if m and (len(m.group(1)) == 1 or m.group(1) in GREEK):
        if m.group(1) == "sqrt":
            return r"\sqrt{%s}" % m.group(2)
        return f"{_ident(m.group(1))}_{{{m.group(2)}}}"
    if m and m.group(1) == "sqrt":
        return r"\sqrt{%s}" % m.group(2)
    if len(word) == 1:
        return word
    if len(word) == 2 or (len(word) == 3 and word.islower()):
        return " ".join(word)  # juxtaposed letters: mn, nk
    return r"\mathrm{%s}" % word


def _script(tokens, i):
    """``(latex, next index)`` of the index after ``_`` or ``^`` at ``tokens[i - 1]``."""
    t = tokens[i] if i < len(tokens) else ""
    if t == "{":
        j = _group(tokens, i, "{", "}")
        return _convert(tokens[i + 1: j - 1]), j
    if t == "(":
        j = _group(tokens, i, "(", ")")
        return "(" + _convert(tokens[i + 1: j - 1]) + ")", j
    if t == "-" and i + 1 < len(tokens) and re.fullmatch(r"[0-9A-Za-z]+", tokens[i + 1]):
        return "-" + _script(tokens, i + 1)[0], i + 2
    if t in ACCENTS:
        return None, i + 1
    if t in ("*", "+", "T", "'") or re.fullmatch(r"[0-9]+", t or "x"):
        return {"*": "*", "+": "+", "'": r"\prime"}.get(t, t), i + 1
    if re.fullmatch(r"[A-Za-z]+[0-9]*", t or ""):
        j = i + 1
        if t in ("min", "max") and j + 1 < len(tokens) and tokens[j] == "," and tokens[j + 1] == "*":
            return r"\min,*" if t == "min" else r"\max,*", j + 2
        if t == "perp":
            return r"\perp", j
        lat = t if len(t) == 1 else (GREEK.get(t) or FUNCS.get(t) or r"\mathrm{%s}" % t)
        if j < len(tokens) and tokens[j] == "(" and t in GREEK:  # e^Theta(d)
            k = _group(tokens, j, "(", ")")
            return lat + "(" + _convert(tokens[j + 1: k - 1]) + ")", k
        return lat, j
    return "", i


def _convert(tokens) -> str:
    out = []
    i = 0
    n = len(tokens)
    while i < n:
        t = tokens[i]
        if t.isspace():
            out.append(" ")
            i += 1
            continue
        if t == "sqrt" and i + 1 < n:
            nxt = i + 1
            while nxt < n and tokens[nxt].isspace():
                nxt += 1
            if nxt < n and tokens[nxt] == "(":
                j = _group(tokens, nxt, "(", ")")
                out.append(r"\sqrt{%s}" % _convert(tokens[nxt + 1: j - 1]))
                i = j
            elif nxt < n and re.fullmatch(r"[A-Za-z0-9]+", tokens[nxt]):
                out.append(r"\sqrt{%s}" % _ident(tokens[nxt]))
                i = nxt + 1
            else:
                out.append(r"\sqrt{}")
                i += 1
            continue
        if t == "in":
            out.append(r" \in ")
            i += 1
            continue
        if re.fullmatch(r"[A-Za-z]+[0-9]*", t) or t in (")", "]", "||", "|", "}"):
            base = {")": ")", "]": "]", "||": r"\|", "|": "|", "}": r"\}"}.get(t) or _ident(t)
            accents, subs, sups = [], [], []
            i += 1
            while i < n:
                d = tokens[i]
                if d == "~" and t not in (")", "]", "||", "|", "}"):  # eta~, w~_t: a tilde accent
                    accents.append(r"\tilde")
                    i += 1
                elif d == "*" and i + 1 < n and tokens[i + 1] in ACCENTS:  # B*hat
                    sups.append("*")
                    accents.append(ACCENTS[tokens[i + 1]])
                    i += 2
                elif d == "*" and (i + 1 >= n or not re.fullmatch(r"[A-Za-z0-9]", tokens[i + 1][:1] or "")):
                    sups.append("*")
                    i += 1
                elif d == "'" :
                    sups.append(r"\prime")
                    i += 1
                elif d == "+" and (i + 1 >= n or tokens[i + 1] in ("^", ")", ",", "]") or
                                            tokens[i + 1].isspace()):
                    sups.append("+")
                    i += 1
                elif d in ("_", "^"):
                    lat, j = _script(tokens, i + 1)
                    if lat is None:  # _hat, _bar: an accent
                        accents.append(ACCENTS[tokens[i + 1]])
                    elif lat:
                        (subs if d == "_" else sups).append(lat)
                    else:
                        break
                    i = j
                else:
                    break
            for a in accents:
                base = f"{a}{{{base}}}"
            if subs:
                base += "_{" + ",".join(subs) + "}"
            if sups:
                base += "^{" + ",".join(sups) + "}"
            out.append(base)
            continue
        if t in RELATIONS and t != "in":
            out.append(" " + RELATIONS[t] + " ")
        elif t == "{":
            out.append(r"\{")
        elif t == "*":
            out.append(r"\ast ")
        elif t in ("#", "%", "&", "$"):
            out.append("\\" + t)
        elif t == "\\":
            out.append(r"\backslash ")
        elif t in ("_", "^"):
            lat, j = _script(tokens, i + 1)
            out.append(("_" if t == "_" else "^") + "{" + (lat or "") + "}")
            i = j
            continue
        else:
            out.append(t)
        i += 1
    return "".join(out)


def to_latex(expr: str) -> str:
    """LaTeX for one ASCII mathematical expression.

    >>> print(to_latex("||w - P x||_1 <= sigma_min,*^2"))
    \\|w - P x\\|_{1} \\le \\sigma_{\\min,*}^{2}
    """
    tokens = _TOKEN.findall(expr)
    return re.sub(r" {2,}", " ", _convert(tokens)).strip()


def math_html(text: str) -> str:
    """HTML of a statement: prose escaped, mathematical fragments as inline MathML.

    >>> html_ = math_html("with lam <= mu the gap is small")
    >>> html_.startswith("with <math") and "&#x003BB;" in html_ and html_.endswith("</math> the gap is small")
    True
    """
    from latex2mathml.converter import convert

    out = []
    for piece, is_math in find_math(text):
        if not is_math:
            out.append(html.escape(piece))
            continue
        try:
            out.append(convert(to_latex(piece)).replace(' xmlns="http://www.w3.org/1998/Math/MathML"', ""))
        except Exception:  # noqa: BLE001 - an expression latex2mathml cannot read stays text
            out.append(html.escape(piece))
    return "".join(out)
