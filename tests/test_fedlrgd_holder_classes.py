"""FedLRGD: Lemma 1 / Theorem 1 with l >= 2, the remaining partial claims, the time-model rows and
errata (checks/fedlrgd/remaining.py, fedtheory/lowrank/holder_classes.py). Unit tests of the library functions against
independent computations, bad input, and FAILS_PATHS_REMAINING: one injected bug per claim, under which the claim must
report ``refuted`` (for the erratum claim: the corrected form fails its referee)."""
import math
import warnings

import numpy as np
import pytest
from scipy import integrate, special

from fedtheory import get_claim
from fedtheory.lowrank import l1_cover, lemma1_bound, taylor_matrix
from fedtheory.lowrank.holder_classes import ExtremalPowerSum, lemma1_extremal_ratio

M = "fedtheory_checks.fedlrgd.remaining"


def _orig(path):
    mod, name = path.rsplit(".", 1)
    return getattr(__import__(mod, fromlist=[name]), name)


def _patch(monkeypatch, path, make):
    monkeypatch.setattr(path, make(_orig(path)))


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


# ----------------------------------------------------------------------------- check helpers against referees
def test_eq16_aux_matches_scipy():
    from scipy import stats
    from fedtheory_checks.fedlrgd.remaining import eq16_aux
    x = np.array([0.5, 3.0, 40.0])
    for b in (1, 3, 10):
        np.testing.assert_allclose(eq16_aux(x, b), stats.gamma.sf(x, b) / stats.gamma.pdf(x, b), rtol=1e-10)


def test_eq69_closed_forms_match_finite_differences():
    from fedtheory_checks.fedlrgd.remaining import _eq69_vec
    rng = np.random.default_rng(3)
    p, h = 3, 1e-6
    x, y, th = rng.uniform(0, 1, (1, p)), rng.uniform(0, 1, 1), rng.uniform(-1, 1, (1, p))

    def g(x, y, i):
        z = (x * th).sum(1)
        return (1 / (1 + np.exp(-z)) - y) * x[:, i] + 0.1 * th[:, i]
    for i in range(p):
        for j in range(p + 1):
            if j == p:
                fd = (g(x, y + h, i) - g(x, y - h, i)) / (2 * h)
            else:
                e = np.zeros((1, p))
                e[0, j] = h
                fd = (g(x + e, y, i) - g(x - e, y, i)) / (2 * h)
            np.testing.assert_allclose(_eq69_vec(x, y, th, i, j), fd, atol=1e-8)


# ----------------------------------------------------------------------------- fails paths
def _drop_lfact(mp):  # Lemma 1's bound without l!: loose by l! (the bug the issue names)
    from fedtheory.lowrank import holder_l
    _patch(mp, M + ".lemma1_bound", lambda f: lambda q, eta, L2=1.0: f(q, eta, L2) * math.factorial(holder_l(eta)))


def _taylor_no_sfact(mp):  # Taylor coefficients without 1/s! (l! dropped in the approximant (49))
    path = "fedtheory.lowrank.algorithms._taylor_terms"
    _patch(mp, path, lambda f: lambda fn: [(s, 1, g) for s, _, g in f(fn)])


def _monomials_off_by_one(mp):  # D = C(l+d-1, d): monomials of degree < l
    mp.setattr(M + "._monomials", lambda l, d: math.comb(l + d - 1, d))


def _server_no_unit(mp):  # each gradient costs Exp(1) instead of 1 + Exp(1)
    mp.setattr(M + "._server_epoch", lambda b: lambda g, size: g.exponential(1.0, (size, b)).sum(axis=1))


def _eq47_printed(mp):  # the printed bracket of (47)
    _patch(mp, M + ".theorem2_r", lambda f: lambda *a, **k: f(*a, **{**k, "variant": "printed"}))


def _S_plus_one(mp):  # (48) with one iteration too many
    _patch(mp, M + ".theorem2_S", lambda f: lambda **k: f(**k) + 1)


def _descent_big_step(mp):  # GD step 10/L1 instead of 1/L1
    _patch(mp, M + "._descent_gaps", lambda f: lambda pb, th, L1: f(pb, th, L1 / 10))


def _aux_off_by_one(mp):  # (b-1)!/(b-k)! instead of (b-1)!/(b-k-1)!
    mp.setattr(M + ".eq16_aux", lambda x, b: sum(math.exp(math.lgamma(b) - math.lgamma(b - k + 1))
                                                 * np.asarray(x, float) ** (-k) for k in range(b)))


def _quantile_approx(mp):  # (17) normalised with the approximation (18) log k + b instead of the true quantile
    mp.setattr(M + "._erlang_quantile", lambda k, b: np.log(np.asarray(k, float)) + b)


def _quantile_rate_half(mp):  # Erlang quantiles at rate 1/2 (scale 2)
    from scipy import stats
    mp.setattr(M + "._erlang_quantile", lambda k, b: stats.gamma.isf(1 / np.asarray(k, float), b, scale=2.0))


def _departures_at_nu(mp):  # uploads leave at the service rate nu instead of the arrival rate 1
    from fedtheory.random import as_generator
    mp.setattr(M + ".mm1_departure_times",
               lambda n_dep, nu, reps=2000, seed=0: as_generator(seed).gamma(n_dep, 1 / nu, reps))


def _L1_is_mu(mp):  # the smoothness constant read as the strong-convexity constant mu
    from fedtheory.lowrank.algorithms import LogisticProblem
    mp.setattr(LogisticProblem, "L1", property(lambda self: self.mu))


def _eq69_sign(mp):  # d g_i / d y = +x_i
    _patch(mp, M + "._eq69_vec", lambda f: lambda x, y, th, i, j: -f(x, y, th, i, j) if j == th.shape[1] else
           f(x, y, th, i, j))


def _eq71_quarter(mp):  # (71) mis-derived as (1/4)||dx||_1
    from fedtheory_checks.fedlrgd import remaining
    mp.setattr(M + "._EQ70_CONST", {**remaining._EQ70_CONST, "j!=i": (0.25, 0.0)})


def _conv_no_bias(mp):  # convolution layers counted without biases
    mp.setattr(M + "._conv", lambda k, c_in, c_out: k * k * c_in * c_out)


def _appE_corrected_wrong(mp):  # corrected form with exponent d - 1
    from fractions import Fraction
    mp.setattr(M + "._appE_bounds", lambda d, c2, alpha: (Fraction(2 * c2 + 4 * alpha + 6),
                                                           Fraction(2 * c2 + 4 * alpha + 6) ** (d - 1)))


FAILS_PATHS_REMAINING = {
    "fedlrgd.lemma1.high-order": _drop_lfact,
    "fedlrgd.thm1.high-order": _taylor_no_sfact,
    "fedlrgd.eq51.volumetric": _monomials_off_by_one,
    "fedlrgd.eq20.server-2b": _server_no_unit,
    "fedlrgd.eq47.both-lower-bounds": _eq47_printed,
    "fedlrgd.secV.choice-of-r": _S_plus_one,
    "fedlrgd.eq13.descent-lemma": _descent_big_step,
    "fedlrgd.eq16.auxiliary-function": _aux_off_by_one,
    "fedlrgd.eq17.gumbel-limit": _quantile_approx,
    "fedlrgd.eq18.quantile-table": _quantile_rate_half,
    "fedlrgd.eq25.epoch-times": _departures_at_nu,
    "fedlrgd.fn11.initial-gap": _L1_is_mu,
    "fedlrgd.eq69.derivatives": _eq69_sign,
    "fedlrgd.eq70.case-constants": _eq71_quarter,
    "fedlrgd.appC.parameter-counts": _conv_no_bias,
    "fedlrgd.appE.first-term.erratum": _appE_corrected_wrong,
}


def test_every_remaining_claim_has_a_fails_path():
    from fedtheory import get_paper
    mine = {c.id for c in get_paper("fedlrgd").claims() if c.func.__module__ == M}
    assert mine == set(FAILS_PATHS_REMAINING)


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS_REMAINING))
def test_claim_can_fail(claim_id, monkeypatch, serial_uncached):
    FAILS_PATHS_REMAINING[claim_id](monkeypatch)
    v = get_claim(claim_id).evaluate(full=False)
    assert v.status == "refuted", v.summary()
