"""assumptions (7) and (8) of FedLRGD (fedtheory.lowrank.assumption8 and checks/fedlrgd/assumption8.py).

Referees: finite differences of the loss (gradient, strong convexity, Hoelder constant), the matrix product and numpy's
inverse (closed-form G^-1), mpmath's SVD (extended-precision inverse norms), synthetic curves with known exponents (fits).
"""
import math

import mpmath as mp
import numpy as np
import pytest

from fedtheory import get_claim
from fedtheory.lowrank.algorithms import make_logistic_problem
from fedtheory.lowrank.assumption8 import (alpha_fit, brownian_gradient, brownian_inverse_bound,
                                           brownian_inverse_closed_form, brownian_loss, brownian_node_matrix,
                                           inverse_norm, logistic_inverse_norm, logistic_node_matrix, separated_nodes)

M = "fedtheory_checks.fedlrgd.assumption8."


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


def test_closed_form_taylor_matches_the_sympy_approximant_and_the_eta_chain():
    from fedtheory.lowrank.algorithms import taylor_matrix
    from fedtheory.lowrank.model import Cosine
    from fedtheory_checks.fedlrgd._common import AbsPowerSum
    from fedtheory_checks.fedlrgd.assumption8 import _rank_below_r_scale, eta_ceiling_rows, piecewise_taylor
    rng = np.random.default_rng(9)
    for fn in (Cosine(eta=2.0, L2=1.0, d=1, p=1), AbsPowerSum(eta=2.5, L2=1.0, d=1, p=1)):
        X, Th = rng.uniform(0, 1, (25, 1)), fn.sample_theta(rng, 25)
        with np.errstate(invalid="ignore"):
            assert np.allclose(piecewise_taylor(fn, X, Th, 8), taylor_matrix(fn, X, Th, 8)[0], atol=1e-12)
    assert _rank_below_r_scale(9, 1) == 8 and _rank_below_r_scale(13, 2) == 8  # (l+1) ceil(q/2) = r - 1
    rows = eta_ceiling_rows([(Cosine(eta=2.0, L2=1.0, d=1, p=1), (17, 33))], 0)
    for row in rows:
        assert row["rank_P"] <= row["r"] - 1 and row["sigma_min"] <= row["err_op"] <= row["bound"]


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


# ----------------------------------------------------------------------------- every claim can fail
def _good_kernel(mp_):  # the node matrix built with max instead of min (a one-character bug)
    def bad(x, theta=None, mu=0.1):
        theta = x if theta is None else theta
        return np.maximum(x[..., :, None], theta[..., None, :]) + mu * theta[..., None, :]
    mp_.setattr(M + "brownian_node_matrix", bad)


def _logistic(mp_):  # the wrong end of the spectrum: 1/sigma_max instead of 1/sigma_min (a fixed alpha then fits)
    def wrong_end(X0, nodes, mu=0.1, **kw):
        from fedtheory.lowrank.assumption8 import InverseNorm
        smax = float(np.linalg.svd(logistic_node_matrix(X0, nodes, mu), compute_uv=False)[:, 0].max())
        return InverseNorm(1.0 / smax, smax, "double")
    mp_.setattr(M + "logistic_inverse_norm", wrong_end)


def _invertible(mp_):  # the data generator repeats a server sample: G singular in exact arithmetic
    orig = make_logistic_problem

    def dup(*a, **k):
        prob = orig(*a, **k)
        X0 = prob.X0.copy()
        X0[3] = X0[2]
        return type(prob)(X0=X0, Xc=prob.Xc, mu=prob.mu)
    mp_.setattr(M + "make_logistic_problem", dup)


def _eta_ceiling(mp_):  # Lemma 1's approximant one degree short (the top Taylor term dropped)
    from fedtheory_checks.fedlrgd import assumption8 as A
    orig = A._x_derivatives
    mp_.setattr(M + "_x_derivatives", lambda fn: orig(fn)[:-1])


FAILS_PATHS_ASSUMPTION8 = {
    "fedlrgd.asm8.eta-ceiling": _eta_ceiling,
    "fedlrgd.asm8.good-kernel": _good_kernel,
    "fedlrgd.asm8.logistic-violates": _logistic,
    "fedlrgd.asm7.invertible": _invertible,
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS_ASSUMPTION8))
def test_claim_can_fail(claim_id, monkeypatch, serial_uncached):
    FAILS_PATHS_ASSUMPTION8[claim_id](monkeypatch)
    v = get_claim(claim_id).evaluate(full=False)
    assert v.status == "refuted", v.summary()
