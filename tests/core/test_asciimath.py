"""Tests of :mod:`fedtheory._asciimath`: finding the mathematics in a statement, its LaTeX and MathML forms, and
every registered claim statement converts."""
import pytest


@pytest.mark.parametrize("text, maths", [
    ("grad^2 F_k = (P H^{-1} P^T + I/lam)^{-1}", ["grad^2 F_k = (P H^{-1} P^T + I/lam)^{-1}"]),
    ("the minimiser of ||w - P x||_1 over x, with lam fixed.", ["||w - P x||_1", "lam"]),
    ("eta <= 1/(4 sigma_max,*^2) holds in every round", ["eta <= 1/(4 sigma_max,*^2)"]),
    ("Against the methods of Table 10, both have lower loss by at least 50%.", []),
    ("(the Lemma A.9 slip carried into (137))", []),
])
def test_find_math(text, maths):
    from fedtheory._asciimath import find_math

    pieces = find_math(text)
    assert "".join(p for p, _ in pieces) == text  # nothing lost
    assert [p for p, m in pieces if m] == maths


def test_to_latex_and_mathml():
    from fedtheory._asciimath import math_html, to_latex

    assert to_latex("sigma_min,*^2") == r"\sigma_{\min,*}^{2}"
    assert to_latex("w~_t") == r"\tilde{w}_{t}"
    assert to_latex("B*_perp^T") == r"B_{\perp}^{*,T}"
    assert to_latex("c_hat") == r"\hat{c}"
    assert to_latex("sqrt(mn)") == r"\sqrt{m n}"
    assert to_latex("a <= b >= c != d") == r"a \le b \ge c \ne d"
    out = math_html("if lam <= mu & x < 1 then")
    assert out.startswith("if <math") and "&amp;" in out and "<script" not in out
    assert "&#x003BB;" in out and "&#x02264;" in out  # lambda and <=
    assert math_html("plain prose, no formula.") == "plain prose, no formula."


def test_every_statement_converts():
    """Every claim statement of the catalogue renders: mathematics found in each, none falls back."""
    from latex2mathml.converter import convert

    from fedtheory import registry
    from fedtheory._asciimath import find_math, to_latex

    n_math = 0
    for c in registry():
        for piece, is_math in find_math(c.statement):
            if is_math:
                n_math += 1
                convert(to_latex(piece))  # raises on a conversion latex2mathml cannot read
    assert n_math >= 500
