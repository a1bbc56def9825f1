"""Tests of :mod:`fedtheory.lowrank.holder_classes`: the Hoelder classes of FedLRGD's Appendix A (Jadbabaie et al.
2023): derivatives, the sympy form, the extremal ratio as the Taylor remainder and Lemma 1 attained at a cell
centre."""
import math
import warnings

import numpy as np
import pytest
from scipy import integrate, special

from fedtheory.lowrank import l1_cover, lemma1_bound, taylor_matrix
from fedtheory.lowrank.holder_classes import ExtremalPowerSum, lemma1_extremal_ratio


# ----------------------------------------------------------------------------- ExtremalPowerSum
@pytest.mark.parametrize("eta", [2.5, 3.0, 3.5, 4.0])
def test_lth_derivative_is_L2_abs_power(eta):
    """Finite differences of order l of the numpy matrix (independent of the sympy form) give L2 |t|^(eta - l)."""
    L2 = 1.7
    fn = ExtremalPowerSum(eta=eta, L2=L2, d=1, p=1)
    l, h = fn.l, 1e-3
    t = np.array([-0.4, -0.2, 0.15, 0.3])
    th = np.array([[0.5]])
    # central finite difference of order l (binomial stencil), step h
    k = np.arange(l + 1)
    w = (-1.0) ** (l - k) * np.array([math.comb(l, int(j)) for j in k])
    pts = (0.5 + t[:, None] + (k - l / 2) * h)
    vals = fn.matrix(pts.reshape(-1, 1), th).reshape(pts.shape)
    deriv = (vals * w).sum(axis=1) / h ** l
    np.testing.assert_allclose(deriv, L2 * np.abs(t) ** (eta - l), rtol=2e-3)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # lambdify evaluates both Piecewise branches
@pytest.mark.parametrize("eta", [2.5, 3.5])
def test_sympy_form_matches_matrix(eta):
    import sympy as sp
    fn = ExtremalPowerSum(eta=eta, L2=1.3, d=2, p=2)
    xs, ts = sp.symbols("x0:2", real=True), sp.symbols("t0:2", real=True)
    f = sp.lambdify((xs, ts), fn.sympy_expr(xs, ts), "numpy")
    rng = np.random.default_rng(1)
    X, Th = rng.uniform(0, 1, (5, 2)), rng.uniform(0, 1, (4, 2))
    ref = np.array([[float(f(tuple(x), tuple(t))) for t in Th] for x in X])
    np.testing.assert_allclose(fn.matrix(X, Th), ref, rtol=1e-12)


@pytest.mark.parametrize("eta", [2.2, 2.5, 3.0, 3.5, 3.9, 4.0])
def test_extremal_ratio_is_the_taylor_remainder_integral(eta):
    """Referee: the integral form of the Taylor remainder, int_0^1 s^beta (1 - s)^(l-1)/(l-1)! ds, by quadrature."""
    l = math.ceil(eta) - 1
    beta = eta - l
    val, _ = integrate.quad(lambda s: s ** beta * (1 - s) ** (l - 1) / math.factorial(l - 1), 0, 1)
    assert lemma1_extremal_ratio(eta) == pytest.approx(math.factorial(l) * val, rel=1e-10)
    assert lemma1_extremal_ratio(eta) == pytest.approx(
        math.factorial(l) * special.beta(beta + 1, l) / math.factorial(l - 1), rel=1e-12)


def test_extremal_ratio_broadcasts_and_is_one_at_integers_below_two():
    out = lemma1_extremal_ratio([0.5, 1.0, 2.5])
    assert out.shape == (3,)
    np.testing.assert_allclose(out[:2], [1.0, 1.0])  # l = 0: the bound is attained exactly


@pytest.mark.parametrize("eta", [2.5, 3.5])
def test_lemma1_attained_at_cell_centre(eta):
    fn = ExtremalPowerSum(eta=eta, L2=1.0, d=1, p=1)
    X = np.linspace(0, 1, 801)[:, None]
    q = 4
    Th = l1_cover(q, 1)[1][:1]
    with warnings.catch_warnings(), np.errstate(invalid="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        N, _, _ = taylor_matrix(fn, X, Th, q)
    err = np.abs(fn.matrix(X, Th) - N).max()
    assert err / lemma1_bound(q, eta) == pytest.approx(lemma1_extremal_ratio(eta), rel=1e-9)


def test_bad_input():
    with pytest.raises(ValueError, match="eta"):
        ExtremalPowerSum(eta=2.0, L2=1.0, d=1, p=1)
    with pytest.raises(ValueError, match="eta"):
        ExtremalPowerSum(eta=4.5, L2=1.0, d=1, p=1)
    with pytest.raises(ValueError, match="L2"):
        ExtremalPowerSum(eta=3.0, L2=0.0, d=1, p=1)
    with pytest.raises(ValueError, match="`p` must equal `d`"):
        ExtremalPowerSum(eta=3.0, L2=1.0, d=2, p=1)
    with pytest.raises(ValueError, match="eta"):
        lemma1_extremal_ratio(-1.0)
    with pytest.raises(ValueError, match="eta"):
        lemma1_extremal_ratio(float("nan"))


# ----------------------------------------------------------------------------- holder_classes
def test_extremal_ratio_validation_messages():
    """eta = 0 is outside (0, inf) (the lower end is open); eta >= 2^52 is refused by name."""
    with pytest.raises(ValueError, match=r"`eta` must be in \(0, inf\) \(Hoelder smoothness eta > 0\)"):
        lemma1_extremal_ratio(0.0)
    with pytest.raises(ValueError, match=r"`eta` must be < 2\^52"):
        lemma1_extremal_ratio(2.0 ** 52)
    with pytest.raises(ValueError, match=r"`eta` must be < 2\^52"):
        lemma1_extremal_ratio([1.0, 2.0 ** 53])


def test_extremal_power_sum_validation_messages():
    with pytest.raises(ValueError, match=r"`eta` must be in \(2\.0, 4\.0\] \(ExtremalPowerSum is documented for "
                                         r"l = 2, 3, i\.e\. 2 < eta <= 4\)"):
        ExtremalPowerSum(eta=1.5, L2=1.0, d=1, p=1)
    with pytest.raises(ValueError, match=r"`L2` must be in \(0, inf\)"):
        ExtremalPowerSum(eta=2.5, L2=0.0, d=1, p=1)
