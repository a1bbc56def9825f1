"""Tests of :mod:`fedtheory.lowrank.assumption8`: assumption (8) of FedLRGD (Jadbabaie et al. 2023): the Brownian
kernel and its closed-form inverse, separated nodes, the logistic node matrix and its inverse norm in double and
extended precision, Gauss-Jordan pivoting and the alpha fit."""
import math

import mpmath as mp
import numpy as np
import pytest

from fedtheory.lowrank.algorithms import make_logistic_problem
from fedtheory.lowrank.algorithms import make_logistic_problem as _mlp
from fedtheory.lowrank.assumption8 import (_gauss_jordan_inverse, alpha_fit, brownian_gradient, brownian_inverse_bound,
                                           brownian_inverse_closed_form, brownian_loss, brownian_node_matrix,
                                           inverse_norm, logistic_inverse_norm, logistic_node_matrix, separated_nodes)


# ----------------------------------------------------------------------------- the Brownian loss
def test_brownian_gradient_is_the_derivative_of_the_loss():
    rng = np.random.default_rng(1)
    x, th = rng.uniform(0.05, 0.95, 200), rng.uniform(0.05, 0.95, 200)
    h = 1e-6
    keep = np.abs(x - th) > 1e-3  # the kink of g is at theta = x; f is C^1 there, central differences are exact away
    fd = (brownian_loss(x, th + h) - brownian_loss(x, th - h)) / (2 * h)
    assert np.allclose(fd[keep], brownian_gradient(x, th)[keep], atol=1e-8)


def test_brownian_loss_is_strongly_convex_smooth_and_hoelder():
    mu = 0.1
    x = np.linspace(0, 1, 41)[:, None]
    th = np.linspace(0, 1, 401)[None, :]
    g = brownian_gradient(x, th, mu)
    slopes = np.diff(g, axis=1) / np.diff(th, axis=1)
    assert slopes.min() >= mu - 1e-9 and slopes.max() <= 1 + mu + 1e-9  # (5) with mu, (4) with L1 = 1 + mu
    gx = brownian_gradient(np.linspace(0, 1, 401)[:, None], np.linspace(0, 1, 41)[None, :], mu)
    assert np.max(np.abs(np.diff(gx, axis=0)) / (1 / 400)) <= 1 + 1e-9  # (6) with (eta, L2) = (1, 1)
    assert np.max(np.abs(g)) <= 1 + mu  # (9) with B = 1 + mu


def test_closed_form_inverse_is_the_inverse():
    rng = np.random.default_rng(2)
    x = separated_nodes(40, 3, rng)
    G = brownian_node_matrix(x, mu=0.3)
    C = brownian_inverse_closed_form(x, 0.3)
    assert np.allclose(C @ G, np.eye(40), atol=1e-9)
    assert np.allclose(C, np.linalg.inv(G), rtol=1e-8, atol=1e-8)
    N = inverse_norm(G)
    assert np.allclose(N, np.linalg.norm(np.linalg.inv(G), 2, axis=(1, 2)), rtol=1e-10)
    assert np.all(N <= brownian_inverse_bound(x, 0.3))


def test_separated_nodes_gaps_and_linear_growth():
    rng = np.random.default_rng(3)
    for r in (10, 100, 400):
        x = separated_nodes(r, 5, rng)
        h = np.diff(np.concatenate([np.zeros((5, 1)), x], axis=1), axis=1)
        assert h[:, 1:].min() >= 0.5 / r - 1e-12 and h[:, 0].min() >= 0.25 / r - 1e-12
        assert np.all(brownian_inverse_bound(x) <= 16 * r + 4 * r)  # 4/h_min + mu/((1+mu) x_1) with the gaps above


def test_node_matrix_theta_none_means_theta_equals_x():
    x = np.array([0.2, 0.5, 0.9])
    assert np.array_equal(brownian_node_matrix(x), brownian_node_matrix(x, x))
    assert brownian_node_matrix(x)[0, 2] == pytest.approx(0.2 + 0.1 * 0.9)


# ----------------------------------------------------------------------------- the logistic example
def test_logistic_node_matrix_matches_finite_differences_of_the_loss():
    prob = make_logistic_problem(d=3, r=5, m=1, s=1, seed=4)
    nodes = np.random.default_rng(4).uniform(-1, 1, (5, 2))
    G = logistic_node_matrix(prob.X0, nodes, 0.1)

    def f(xy, th):  # (66), written from the paper
        x, y = xy[:-1], xy[-1]
        z = x @ th
        return y * math.log1p(math.exp(-z)) + (1 - y) * math.log1p(math.exp(z)) + 0.05 * th @ th

    h = 1e-6
    for i in range(2):
        e = np.eye(2)[i] * h
        fd = np.array([[(f(xy, t + e) - f(xy, t - e)) / (2 * h) for t in nodes] for xy in prob.X0])
        assert np.allclose(fd, G[i], atol=1e-8)


def test_logistic_inverse_norm_double_and_mpmath_agree_and_match_mpmath_svd():
    prob = make_logistic_problem(d=2, r=9, m=1, s=1, seed=5)
    nodes = np.random.default_rng(5).uniform(-1, 1, (9, 1))
    small = logistic_inverse_norm(prob.X0[:4], nodes[:4])
    forced = logistic_inverse_norm(prob.X0[:4], nodes[:4], check=True)
    assert small.precision == "double" and forced.precision != "double"
    assert forced.value == pytest.approx(small.value, rel=1e-9)
    big = logistic_inverse_norm(prob.X0, nodes, check=True)
    assert big.precision != "double" and big.rel_change <= 1e-10
    with mp.workdps(80):  # independent route: mpmath SVD of G built from the model's formula
        G = mp.matrix([[(1 / (1 + mp.exp(-mp.mpf(float(xy[0])) * mp.mpf(float(t[0]))))
                         - mp.mpf(float(xy[1]))) * mp.mpf(float(xy[0])) + mp.mpf(0.1) * mp.mpf(float(t[0]))
                        for t in nodes] for xy in prob.X0])
        s = mp.svd_r(G, compute_uv=False)
        smin = min(s[i] for i in range(9))
    assert big.value == pytest.approx(float(1 / smin), rel=1e-8)
    assert big.value > 1e16  # beyond double precision: a plain SVD cannot give it
    assert "precision" in big.summary()


def test_singular_logistic_matrix_is_infinite():
    prob = make_logistic_problem(d=2, r=4, m=1, s=1, seed=6)
    X0 = prob.X0.copy()
    X0[1] = X0[0]
    res = logistic_inverse_norm(X0, np.array([[0.1], [0.2], [0.3], [0.4]]), max_dps=60)
    assert not math.isfinite(res.value) or res.value > 1e40


# ----------------------------------------------------------------------------- the fits
def test_alpha_fit_recovers_a_power_law_without_trend():
    rng = np.random.default_rng(7)
    r = np.array([4, 8, 16, 32, 64, 128.0])
    N = 3 * r ** 1.5 * np.exp(0.05 * rng.standard_normal((30, r.size)))
    f = alpha_fit(r, N, level=1e-3)
    assert f.slope[1] < 1.5 < f.slope[2]
    assert f.trend[1] < 0 < f.trend[2]
    assert f.alpha_needed == pytest.approx(np.max(np.log(N) / np.log(r)))
    assert f.ssr_power < f.ssr_exp
    assert "log-log slope" in f.summary()


def test_alpha_fit_detects_exponential_growth():
    rng = np.random.default_rng(8)
    r = np.arange(2, 14.0)
    N = np.exp(2.0 * r + 0.2 * rng.standard_normal((10, r.size)))
    f = alpha_fit(r, N, k=1, level=1e-3)
    assert f.trend[1] > 0 and f.exp_coef[1] > 1.5 and f.exp_coef[2] < 2.5
    assert f.ssr_exp < f.ssr_power
    assert f.local_alpha[-1] > f.local_alpha[0]


# ----------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("call, match", [
    (lambda: brownian_gradient(0.5, 0.5, mu=0.0), "`mu` must be"),
    (lambda: brownian_loss(1.5, 0.5), "`x` must be"),
    (lambda: brownian_gradient(0.5, -0.1), "`theta` must be"),
    (lambda: brownian_gradient(np.nan, 0.5), "`x` must be finite"),
    (lambda: brownian_node_matrix([0.1, 0.2], [0.1]), "`theta` must have the shape"),
    (lambda: brownian_inverse_closed_form([0.2, 0.2, 0.5]), "distinct"),
    (lambda: brownian_inverse_closed_form([0.5, 0.2]), "sorted"),
    (lambda: brownian_inverse_closed_form([0.0, 0.2]), "distinct"),
    (lambda: brownian_inverse_bound([0.1, 0.3], mu=-1), "`mu` must be"),
    (lambda: separated_nodes(0, 2, np.random.default_rng()), "`r` must be"),
    (lambda: separated_nodes(5, 2, np.random.default_rng(), jitter=1.0), "`jitter` must be"),
    (lambda: inverse_norm(np.ones((2, 3))), "square"),
    (lambda: logistic_node_matrix(np.full((3, 2), 0.5), np.zeros((3, 2))), "`nodes` must have shape"),
    (lambda: logistic_node_matrix(np.full((3, 2), 1.5), np.zeros((3, 1))), "`X0` must be"),
    (lambda: logistic_node_matrix(np.full((3, 2), 0.5), np.full((3, 1), 2.0)), "`nodes` must be"),
    (lambda: logistic_inverse_norm(np.full((2, 2), 0.5), np.zeros((2, 1)), switch=2.0), "`switch` must be"),
    (lambda: logistic_inverse_norm(np.full((2, 2), 0.5), np.zeros((2, 1)), start_dps=10), "`start_dps` must be"),
    (lambda: alpha_fit([2, 3, 4], np.ones((3, 3))), "at least 4 increasing"),
    (lambda: alpha_fit([2, 4, 3, 5], np.ones((3, 4))), "at least 4 increasing"),
    (lambda: alpha_fit([2, 3, 4, 5], np.ones((1, 4))), "`inv_norm` must have shape"),
    (lambda: alpha_fit([2, 3, 4, 5], np.zeros((3, 4))), "`inv_norm` must be"),
    (lambda: alpha_fit([2, 3, 4, 5], np.ones((3, 4)), level=0), "`level` must be"),
    (lambda: alpha_fit([2, 3, 4, 5], np.ones((3, 4)), k=0), "`k` must be"),
])
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def _logistic_nodes():
    X0 = _mlp(d=3, r=4, m=2, s=2, mu=1.0, seed=0).X0
    nodes = np.random.default_rng(0).uniform(-1, 1, (4, 2))
    return X0, nodes


def test_brownian_closed_form_default_mu_and_mu_zero():
    x = np.array([0.1, 0.35, 0.6, 0.9])
    # referee: numpy's inverse of the node matrix built with mu = 0.1 (the documented default)
    np.testing.assert_allclose(brownian_inverse_closed_form(x), np.linalg.inv(brownian_node_matrix(x, mu=0.1)),
                               rtol=1e-10, atol=1e-10)
    with pytest.raises(ValueError, match=r"`mu` must be in \(0, inf\)"):
        brownian_inverse_closed_form(x, mu=0.0)


def test_gauss_jordan_needs_pivoting():
    """Identity and a permutation: the last row has a zero in the pivot column, so only partial pivoting works;
    referee mpmath's own inverse."""
    import mpmath as mp

    eye = [[mp.mpf(1), mp.mpf(0)], [mp.mpf(0), mp.mpf(1)]]
    assert _gauss_jordan_inverse(eye) == [[1, 0], [0, 1]]
    A = [[mp.mpf(v) for v in row] for row in [[0, 2, 1], [1, 0, 0], [3, 0, 1]]]
    ref = mp.inverse(mp.matrix(A))
    got = _gauss_jordan_inverse(A)
    assert got is not None
    for i in range(3):
        for j in range(3):
            assert abs(got[i][j] - ref[i, j]) < 1e-25


def test_logistic_inverse_norm_sigma_max_switch_and_names():
    X0, nodes = _logistic_nodes()
    G = logistic_node_matrix(X0, nodes, 1.0)
    smax = max(np.linalg.norm(g, 2) for g in G)  # referee: numpy's operator 2-norm
    smin = min(np.linalg.svd(g, compute_uv=False)[-1] for g in G)
    assert smax > 1.5  # the switch test below needs sigma_max > 1
    out = logistic_inverse_norm(X0, nodes, 1.0)
    assert out.precision == "double" and out.sigma_max == pytest.approx(smax, rel=1e-12)
    assert out.value == pytest.approx(1 / smin, rel=1e-10)
    # sigma_min / sigma_max is about 1.1e-4 here: with switch = 2e-4 the run must go to mpmath
    mp_out = logistic_inverse_norm(X0, nodes, 1.0, switch=2e-4, start_dps=30, max_dps=30)
    assert mp_out.precision == "30"
    assert mp_out.value == pytest.approx(1 / smin, rel=1e-8)
    with pytest.raises(ValueError, match="`mu` must be in"):
        logistic_inverse_norm(X0, nodes, -1.0)


def test_alpha_fit_intervals_against_scipy():
    """Referee: per-replicate slopes by np.polyfit, Student-t interval by scipy."""
    from scipy import stats

    r = np.array([2.0, 4.0, 8.0, 16.0, 32.0])
    rng = np.random.default_rng(5)
    N = np.exp(rng.normal(0, 0.3, (6, 5))) * r ** np.array([[1.0], [1.5], [2.0], [1.2], [1.8], [1.1]])
    fit = alpha_fit(r, N, level=0.05)
    slopes = np.array([np.polyfit(np.log(r), np.log(n), 1)[0] for n in N])
    lo, hi = stats.t.interval(0.95, 5, loc=slopes.mean(), scale=stats.sem(slopes))
    assert fit.slope == pytest.approx((slopes.mean(), lo, hi), rel=1e-9)
    assert f"log-log slope {slopes.mean():.3g} [{lo:.3g}, {hi:.3g}]" in fit.summary()


def test_alpha_fit_validation_messages():
    import warnings

    N = np.array([[1.0, 2.0, 1.0, 3.0], [3.0, 1.0, 2.0, 1.0]])
    with pytest.raises(ValueError, match=r"`r` must be in \(1, inf\)"):
        alpha_fit([1.0, 2.0, 3.0, 4.0], N)
    # r values 1e-7 apart: slopes ~1e7 apart, and the t quantile at level 1e-300 (df 1) ~6e299 overflows
    r = np.array([1.0000001, 1.0000002, 1.0000003, 1.0000004])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        with pytest.raises(ValueError, match=r"the Student-t intervals of the fits overflows.*`level`=1e-300"):
            alpha_fit(r, N, level=1e-300)
