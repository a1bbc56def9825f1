"""Tests that catch realistic silent bugs in fedtheory.lowrank (FedLRGD).

Every test function shipped with the library has eta <= 2, so l = ceil(eta) - 1 <= 1 and l! = 1:
a wrong factorial is invisible there. Here we add Hoelder test functions with eta in (2, 4]
(l = 2 and l = 3) whose sup Taylor error is derived by hand, and check Lemma 1 and Theorem 1's
constants against hand-evaluated values. FedLRGD's inexact GD is compared with an independent GD
on the exact loss, and the Erlang-maximum Monte Carlo with the exact CDF integrated by quadrature.
"""
import math
from dataclasses import dataclass

import numpy as np
import pytest
from scipy import integrate, special, stats

from fedtheory.lowrank import lemma1_bound, theorem1_bound
from fedtheory.lowrank.algorithms import (erlang_max_mc, make_logistic_problem, run_fedlrgd, svd_tail,
                                          taylor_matrix)
from fedtheory.lowrank.model import HolderFunction


@dataclass(frozen=True)
class AbsPower(HolderFunction):
    """``g(x; theta) = c |x - theta|^eta`` on [0, 1] (d = p = 1), eta in (2, 4), in class (eta, L2).

    ``g^(l)(u) = c eta (eta-1)...(eta-l+1) sign(u)^l |u|^beta`` with ``beta = eta - l``; ``|u|^beta`` is
    beta-Hoelder with constant 1 and ``sign(u)|u|^beta`` with constant ``2^(1-beta)``, so
    ``c = L2 / (eta (eta-1)...(eta-l+1) h)`` with ``h = 1`` (l even) or ``2^(1-beta)`` (l odd).
    At a cell centre ``z = theta`` every derivative of order <= l vanishes, so ``P = 0`` and the error
    is exactly ``c |x - z|^eta``.
    """

    @property
    def c(self) -> float:
        l = self.l
        beta = self.eta - l
        fall = math.prod(self.eta - j for j in range(l))
        return self.L2 / (fall * (1.0 if l % 2 == 0 else 2.0 ** (1 - beta)))

    def matrix(self, X, Theta):
        return self.c * np.abs(X[:, None, 0] - Theta[None, :, 0]) ** self.eta

    def sympy_expr(self, xs, ts):
        import sympy as sp
        u = xs[0] - ts[0]
        e = sp.nsimplify(self.eta)
        c = sp.nsimplify(self.c)
        return sp.Piecewise((c * u ** e, u >= 0), (c * (-u) ** e, True))


@dataclass(frozen=True)
class CosineSmooth(HolderFunction):
    """``L2 cos(theta^T x)``, ||theta||_inf <= 1, d = p = 2: class (3, L2) w.r.t. the l1 norm, since
    ``|d_i d_j g(x) - d_i d_j g(y)| <= L2 |theta_i theta_j| |theta^T (x - y)| <= L2 ||x - y||_1`` (l = 2,
    with a mixed second derivative, so the multi-index factorial s! = 1 for s = (1, 1) matters)."""

    def matrix(self, X, Theta):
        return self.L2 * np.cos(X @ Theta.T)

    def sympy_expr(self, xs, ts):
        import sympy as sp
        return self.L2 * sp.cos(sum(x * t for x, t in zip(xs, ts)))


# --------------------------------------------------------------------------- Lemma 1, l >= 2
@pytest.mark.parametrize("eta, l, lfact", [(2.5, 2, 2), (3.0, 2, 2), (3.5, 3, 6), (4.0, 3, 6)])
def test_lemma1_bound_hand_values_for_l_at_least_2(eta, l, lfact):
    fn = AbsPower(eta=eta, L2=3.0, d=1, p=1)
    assert fn.l == l
    for q in (2.0, 5.0):
        assert lemma1_bound(q, eta, 3.0) == pytest.approx(3.0 / (lfact * q ** eta), rel=1e-12)


@pytest.mark.parametrize("eta", [2.5, 3.5])
@pytest.mark.parametrize("q", [4.0, 8.0])
def test_lemma1_taylor_error_with_l_at_least_2(eta, q):
    fn = AbsPower(eta=eta, L2=1.0, d=1, p=1)
    n_cells = math.ceil(q / 2)
    centres = np.minimum((2 * np.arange(1, n_cells + 1) - 1) / q, 1.0)
    # points: a fine grid plus every cell edge (distance exactly 1/q from the nearest centre)
    X = np.unique(np.concatenate([np.linspace(0, 1, 401), 2 * np.arange(n_cells + 1) / q]))
    X = X[X <= 1.0][:, None]
    Theta = np.concatenate([centres, np.random.default_rng(0).uniform(0, 1, 6)])[:, None]
    with np.errstate(invalid="ignore"):  # the Piecewise branches are evaluated on both sides
        N, _, _ = taylor_matrix(fn, X, Theta, q)
    err = np.abs(fn.matrix(X, Theta) - N)
    bound = lemma1_bound(q, eta, 1.0)
    assert np.all(err <= bound * (1 + 1e-9))
    # theta at a centre: P = 0, so the sup error is c / q^eta exactly (attained at the cell edges)
    at_centre = err[:, : centres.size]
    assert np.max(at_centre) == pytest.approx(fn.c / q ** eta, rel=1e-9)
    assert fn.c / q ** eta > 0.3 * bound  # within a factor ~3 of the bound: l! matters


@pytest.mark.parametrize("q", [6.0, 12.0])
def test_lemma1_taylor_error_mixed_derivatives_d2(q):
    fn = CosineSmooth(eta=3.0, L2=2.0, d=2, p=2)
    rng = np.random.default_rng(1)
    X = rng.uniform(0, 1, (300, 2))
    Theta = rng.uniform(-1, 1, (8, 2))
    N, _, _ = taylor_matrix(fn, X, Theta, q)
    err = np.abs(fn.matrix(X, Theta) - N)
    assert np.max(err) <= lemma1_bound(q, 3.0, 2.0)
    # the degree-2 approximant is exact up to third order: error <= L2 ||x - z||_1^3 / 3! <= L2/(6 q^3)
    assert np.max(err) <= 2.0 / (6 * q ** 3) * (1 + 1e-9)


def test_theorem1_constants_for_l_at_least_2():
    # d = 1, eta = 2.5 (l = 2), L2 = 1: e^5 * 1 * 4^2.5 * 3^5 / (2!)^2 = 1944 e^5; r* = 6e
    assert theorem1_bound(100.0, d=1, eta=2.5, L2=1.0) == pytest.approx(1944 * math.exp(5) * 1e-10, rel=1e-12)
    assert math.isnan(theorem1_bound(16.0, d=1, eta=2.5))  # 16 < 6e = 16.31
    assert not math.isnan(theorem1_bound(16.4, d=1, eta=2.5))
    # d = 2, eta = 3.5 (l = 3), L2 = 2: 4 e^3.5 2^1.75 4^3.5 5^7 / (3!)^2 at r = 1000 (r* = 100 sqrt(2) e)
    expected = 4 * math.exp(3.5) * 2 ** 1.75 * 128 * 78125 / 36 * 1000.0 ** -3.5
    assert theorem1_bound(1000.0, d=2, eta=3.5, L2=2.0) == pytest.approx(expected, rel=1e-12)
    # and it bounds the SVD tail of an l = 2 latent-variable matrix (Theorem 1)
    fn = AbsPower(eta=2.5, L2=1.0, d=1, p=1)
    rng = np.random.default_rng(2)
    M = fn.matrix(rng.uniform(0, 1, (120, 1)), rng.uniform(0, 1, (120, 1)))
    tail = svd_tail(M)
    r = np.arange(17, 120)
    assert np.all(tail[r] <= theorem1_bound(r, d=1, eta=2.5, L2=1.0))


# --------------------------------------------------------------------------- Erlang maximum
@pytest.mark.parametrize("b, k", [(1, 1), (1, 6), (3, 4), (6, 12)])
def test_erlang_max_mc_against_exact_cdf(b, k):
    """E[max of k i.i.d. Erlang(b, 1)] = int_0^inf (1 - F(x)^k) dx with F the gamma(b) CDF."""
    F = stats.gamma(b).cdf
    upper = stats.gamma(b).ppf(1 - 1e-13 / k)
    m1 = integrate.quad(lambda x: 1 - F(x) ** k, 0, upper, limit=200)[0]
    m2 = integrate.quad(lambda x: 2 * x * (1 - F(x) ** k), 0, upper, limit=200)[0]
    sd = math.sqrt(m2 - m1 ** 2)
    est = erlang_max_mc(b, k, n_samples=20000, seed=3)
    assert abs(est.mean - (b + m1)) < 4.5 * sd / math.sqrt(est.n), (est, b + m1)
    assert est.se == pytest.approx(sd / math.sqrt(est.n), rel=0.08)
    if (b, k) == (1, 1):
        assert b + m1 == pytest.approx(2.0, rel=1e-9)  # b + E[Exp(1)]


# --------------------------------------------------------------------------- FedLRGD inexact GD
def _loss_and_grad(X, mu):
    x, y = X[:, :-1], X[:, -1]

    def loss(th):
        z = x @ th
        return float(np.mean(y * np.log1p(np.exp(-z)) + (1 - y) * np.log1p(np.exp(z))) + mu / 2 * th @ th)

    def grad(th):
        return ((special.expit(x @ th) - y)[:, None] * x).mean(axis=0) + mu * th

    return loss, grad


def test_fedlrgd_inexact_gd_follows_exact_gd_with_step_one_over_L1():
    prob = make_logistic_problem(d=3, r=10, m=20, s=10, mu=0.1, seed=0)
    S = 15
    res = run_fedlrgd(prob, S=S, seed=1)
    loss, grad = _loss_and_grad(np.vstack([prob.X0, prob.Xc.reshape(-1, 3)]), 0.1)
    th0 = np.array([0.3, -0.2])
    fd = np.array([(loss(th0 + h) - loss(th0 - h)) / 2e-6 for h in 1e-6 * np.eye(2)])
    np.testing.assert_allclose(grad(th0), fd, atol=1e-8)  # the referee's gradient is right
    L1 = (3 - 1) / 2 + 0.1  # (68): (d - 1)/2 + mu
    assert res.L1 == pytest.approx(L1)
    assert np.max(np.abs(res.grad_err)) < 1e-4  # FedLRGD's gradients are accurate here
    th = np.zeros(2)
    assert np.array_equal(res.theta[0], th)
    for s in range(S):
        # one step of the inexact GD against an exact GD step from the same point
        np.testing.assert_allclose(res.theta[s + 1], res.theta[s] - grad(res.theta[s]) / L1, atol=2e-4)
        th = th - grad(th) / L1
    np.testing.assert_allclose(res.theta[-1], th, atol=3e-3)
    # the optimality gaps are those of the iterates (independent loss), decreasing, and >= 0
    assert np.all(np.diff(res.gap) <= 1e-12) and res.gap[-1] >= -1e-12
    np.testing.assert_allclose(res.gap - res.gap[-1], [loss(t) - loss(res.theta[-1]) for t in res.theta],
                               atol=1e-12)


# --------------------------------------------------------------------------- closed forms of theory.py
from fedtheory.lowrank.theory import (erlang_max_approximation, erlang_quantile_bounds,  # noqa: E402
                                      fedave_b_star_viete, fedave_bracket, fedave_constraint_T,
                                      fedave_gamma_numeric, fedlrgd_gamma, holder_l, inequality52, lemma4_gap,
                                      proposition1_ratio, theorem1_min_rank, theorem2_K1, theorem2_r, theorem2_S)


def test_holder_l_min_rank_and_inequality52_hand_values():
    assert [holder_l(e) for e in (0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5)] == [0, 0, 1, 1, 2, 2, 3]
    for bad in (0.0, -1.0):
        with pytest.raises(ValueError):
            holder_l(bad)
    # e sqrt(d) 2^d (l + d)^d: d = 1, eta = 2.5 (l = 2): 6e; d = 3, eta = 1 (l = 0): e sqrt(3) 8 27
    assert theorem1_min_rank(1, 2.5) == pytest.approx(6 * math.e)
    assert theorem1_min_rank(3, 1.0) == pytest.approx(math.e * math.sqrt(3) * 8 * 27)
    for d, l in [(1, 0), (2, 1), (3, 2), (4, 5)]:
        lhs, rhs = inequality52(d, l)
        assert lhs == pytest.approx(math.factorial(d) * math.comb(l + d, d), rel=1e-10)
        assert rhs == pytest.approx(math.e * math.sqrt(d) * (l + d) ** d, rel=1e-12)
        assert lhs <= rhs
    lhs, rhs = inequality52(np.array([1, 2]), 1)
    assert lhs.tolist() == pytest.approx([2.0, 6.0])


def test_erlang_quantile_bounds_contain_the_exact_quantile():
    for b, q in [(1, 56), (5, 12), (20, 1e4), (55, 2)]:
        lo, hi = erlang_quantile_bounds(b, q)
        assert lo == pytest.approx(0.5 * math.log(q - 1) + 0.5 * math.log(b), rel=1e-12)
        assert hi == pytest.approx(2 * math.log(q - 1) + 2 * b * math.log(2 * b), rel=1e-12)
        assert lo <= stats.gamma(b).ppf(1 - 1 / q) <= hi
    lo, hi = erlang_quantile_bounds(np.array([5, 20]), 12)
    assert lo.shape == (2,)
    for bad in (dict(b=0.5, q=10), dict(b=2, q=1.5)):
        with pytest.raises(ValueError):
            erlang_quantile_bounds(**bad)
    assert erlang_quantile_bounds(1, 2) == pytest.approx((0.0, 2 * math.log(2)))  # the domain edges
    assert erlang_max_approximation(3, math.e ** 2) == pytest.approx(8.0)
    np.testing.assert_allclose(erlang_max_approximation(np.array([1, 2]), 1), [2.0, 4.0])


def test_theorem2_constants_hand_values():
    # K1 = L2^d eta^d e^{eta(d+1)} d^{eta/2} (2 eta + 2d)^{eta d} / (eta - 1)^{eta d}; d = 1, eta = 5, L2 = 2:
    # 2 * 5 * e^10 * 1 * 12^5 / 4^5 = 10 e^10 3^5
    assert theorem2_K1(1, 5.0, 2.0) == pytest.approx(2430 * math.exp(10), rel=1e-12)
    assert theorem2_K1(2, 400.0) == math.inf  # overflow is reported as inf
    # S = ceil(log(A/eps)/log(kappa/(kappa-1))), A = F0_gap + 9 (B+3)^4 p/(2 mu)
    A = 1.0 + 9 * 4 ** 4 * 1 / (2 * 0.1)
    assert theorem2_S(kappa=2.0, eps=0.01) == math.ceil(math.log(A / 0.01) / math.log(2))
    A2 = 0.5 + 9 * 5 ** 4 * 3 / (2 * 0.2)
    assert theorem2_S(kappa=3.0, eps=0.1, B=2.0, mu=0.2, p=3, F0_gap=0.5) == math.ceil(
        math.log(A2 / 0.1) / math.log(1.5))
    # r: ceil(max(e sqrt(d) 2^d (eta + d)^d, (K1 (kappa A/((kappa-1) eps))^{d/2})^{1/(eta - (2 alpha + 2) d)}))
    d, eta, kappa, eps = 1, 50.0, 2.0, 0.01
    K1 = math.exp(math.log(50) + 50 * 2 + 50 * (math.log(102) - math.log(49)))
    second = (K1 * (kappa * A / ((kappa - 1) * eps)) ** 0.5) ** (1 / (eta - 4))
    first = math.e * 2 * 51
    assert theorem2_r(d, eta, kappa=kappa, eps=eps) == math.ceil(max(first, second))
    printed = max(first, K1 * (kappa * A / ((kappa - 1) * eps)) ** 0.5) ** (1 / (eta - 4))
    assert theorem2_r(d, eta, kappa=kappa, eps=eps, variant="printed") == math.ceil(printed)
    assert theorem2_r(d, 8.0, eps=eps) > 2 * math.e * 9  # here the second term wins
    bads = [dict(eta=4.0), dict(eta=3.9, alpha=1.0), dict(kappa=1.0), dict(mu=0.0), dict(B=0.0), dict(eps=0.0),
            dict(eps=1e9), dict(alpha=0.5), dict(p=0), dict(variant="typo")]
    for bad in bads:
        with pytest.raises(ValueError):
            theorem2_r(**{**dict(d=1, eta=50.0), **bad})
    for bad in (dict(kappa=1.0), dict(eps=0.0)):
        with pytest.raises(ValueError):
            theorem2_S(**bad)


def test_fedave_time_constraint_and_minimisation():
    b, m, eps_t, C = 3.0, 10, 0.01, 2.0
    T = fedave_constraint_T(b, m, eps_t, C)
    # T is the positive root of T^2 - (b C/(m eps_t)) T - C m^2/(eps_t b^2) = 0 (80)
    assert T * T - b * C / (m * eps_t) * T - C * m ** 2 / (eps_t * b * b) == pytest.approx(0.0, abs=1e-6 * T * T)
    assert T > 0
    np.testing.assert_allclose(fedave_constraint_T(np.array([b, 2 * b]), m, eps_t, C)[0], T)
    m, phi, tau = 100, 100.0, 1.0
    G, b_star, T_star = fedave_gamma_numeric(m, phi, tau, eps_t, 1.0)
    grid = np.exp(np.linspace(-5, 15, 200001))
    vals = fedave_constraint_T(grid, m, eps_t, 1.0) * (grid + phi * tau * m)
    assert G == pytest.approx(vals.min(), rel=1e-8)
    assert b_star == pytest.approx(grid[np.argmin(vals)], rel=1e-3)
    assert T_star == pytest.approx(fedave_constraint_T(b_star, m, eps_t, 1.0), rel=1e-12)
    # Viete's root is the stationary point of g(b) = (C1 b + C2/b)(b + C3)
    C1, C2, C3 = 1.0 / (2 * m * eps_t), m * math.sqrt(1.0 / eps_t), phi * tau * m
    bv = fedave_b_star_viete(m, phi, tau, eps_t, 1.0)
    dg = (C1 - C2 / bv ** 2) * (bv + C3) + (C1 * bv + C2 / bv)
    assert dg == pytest.approx(0.0, abs=1e-9 * (C1 * bv + C2 / bv))
    with pytest.raises(ValueError, match="Viete"):
        fedave_b_star_viete(100, 0.01, 1.0, eps_t, 1.0)
    (lo, hi), (blo, bhi) = fedave_bracket(m, phi, tau, eps_t, 1.0)
    base = phi * tau * m * 100 ** 0.75
    assert (lo, hi) == pytest.approx((0.75 * base, 8 * base)) and (blo, bhi) == pytest.approx((50 * 0.1 ** 0.5 / 1,
                                                                                             200 * 0.1 ** 0.5))
    assert lo <= G <= hi


def test_lemma4_gap_and_gamma_hand_values():
    gap, bound = lemma4_gap(0.0)
    assert gap == pytest.approx(0.0, abs=1e-15) and bound == 0.0
    t = np.array([0.05, 0.2, 0.5])
    gap, bound = lemma4_gap(t)
    exact = np.abs(np.sin(np.arcsin(1 - t ** 2) / 3 + 2 * np.pi / 3) - 0.5 - t / math.sqrt(6))
    np.testing.assert_allclose(gap, exact, rtol=1e-12)
    np.testing.assert_allclose(bound, 5 * t ** 2 / 9)
    assert np.all(gap <= bound)
    # r^2 + r s + r S + phi tau m r
    assert fedlrgd_gamma(3, 4, 5, 6, 2.0, tau=0.5) == 9 + 12 + 15 + 18
    ratio = proposition1_ratio([100.0, 1e4], m=50, phi=10.0)
    eta = 8.0
    for pe, rr in zip([100.0, 1e4], ratio):
        r = theorem2_r(1, eta, eps=1 / pe)
        S = theorem2_S(eps=1 / pe)
        assert rr == pytest.approx((r * r + r * 50 + r * S + 10.0 * 50 * r) / (8 * 10.0 * 50 * pe ** 0.75), rel=1e-12)


# --------------------------------------------------------------------------- algorithms.py: covers, ranks, counters
from fedtheory.lowrank.algorithms import appendix_c_ranks, approximate_rank, l1_cover, mm1_departure_times  # noqa: E402


@pytest.mark.parametrize("q", [1.0, 3.0, 4.5, 8.0])
def test_l1_cover_cells_and_radius(q):
    rng = np.random.default_rng(int(q * 10))
    X1 = np.concatenate([rng.uniform(0, 1, (500, 1)), [[0.0], [1.0]]])
    cell, centres = l1_cover(q, 1)
    assert centres.shape == (math.ceil(q / 2), 1) and np.all(centres <= 1.0)
    idx = cell(X1)
    assert idx.min() >= 0 and idx.max() < centres.shape[0]
    assert np.all(np.abs(X1 - centres[idx]).sum(axis=1) <= 1 / q + 1e-12)
    X2 = np.concatenate([rng.uniform(0, 1, (500, 2)), [[0.0, 0.0], [1.0, 1.0], [1.0, 0.0]]])
    cell2, centres2 = l1_cover(q, 2)
    assert centres2.shape == (math.ceil(q) ** 2, 2)
    idx2 = cell2(X2)
    assert np.all(np.abs(X2 - centres2[idx2]).sum(axis=1) <= 1 / q + 1e-12)
    for bad in (dict(q=0.0, d=1), dict(q=2.0, d=3), dict(q=2.0, d=0)):
        with pytest.raises(ValueError):
            l1_cover(**bad)


def test_approximate_rank_hand_values():
    M = np.diag([3.0, 2.0, 1.0])  # sigma^2 = 9, 4, 1 of 14
    assert approximate_rank(M) == 2  # 9 < 12.6 <= 13
    assert approximate_rank(M, 0.5) == 1 and approximate_rank(M, 9 / 14) == 1 and approximate_rank(M, 0.99) == 3
    assert approximate_rank(np.zeros((3, 3))) == 0
    U = np.linalg.qr(np.random.default_rng(0).standard_normal((5, 5)))[0]
    assert approximate_rank(U @ np.diag([5.0, 1.0, 0.1, 0, 0]) @ U.T, 0.95) == 1


def test_logistic_problem_minimiser_and_shapes():
    prob = make_logistic_problem(d=3, r=6, m=4, s=5, mu=0.2, seed=1)
    assert (prob.d, prob.p, prob.n) == (3, 2, 6 + 20)
    assert prob.all_data.shape == (26, 3) and np.all((prob.all_data >= 0) & (prob.all_data <= 1))
    assert prob.L1 == pytest.approx(1.0 + 0.2)
    loss, grad = _loss_and_grad(prob.all_data, 0.2)
    th, F = prob.minimise()
    np.testing.assert_allclose(grad(th), 0.0, atol=1e-12)
    assert F == pytest.approx(loss(th), rel=1e-12)
    np.testing.assert_allclose(prob.grad(np.array([0.4, -1.0])), grad(np.array([0.4, -1.0])), atol=1e-14)
    assert prob.loss(np.array([0.4, -1.0])) == pytest.approx(loss(np.array([0.4, -1.0])), rel=1e-12)


@pytest.mark.parametrize("line10", ["corrected", "printed"])
def test_fedlrgd_counters_gamma_and_line10(line10):
    prob = make_logistic_problem(d=3, r=7, m=5, s=4, mu=0.1, seed=2)
    r, s, m, S, phi = 7, 4, 5, 6, 3.0
    res = run_fedlrgd(prob, S=S, phi=phi, line10=line10, seed=0)
    c = res.counters
    assert c["server_grads"] == r * r + r * S
    assert c["client_grads"] == [r * s] * m and c["uploads"] == [r] * m
    assert c["epoch_types"] == ["B", "A"] + ["C"] * (r - 1) + ["B"] and c["epochs"] == r + 2
    assert res.gamma == r * r + (r * s + phi * m) + (r - 1) * phi * m + r * S
    assert res.theta.shape == (S + 1, 2) and res.grad_err.shape == (S, 2) and res.gap.shape == (S + 1,)
    assert res.G_inv_norm.shape == (2,) and np.all(res.G_inv_norm > 0)
    assert res.params == dict(r=r, S=S, m=m, s=s, d=3, p=2, phi=phi, line10=line10)
    assert res.summary().startswith(f"FedLRGD(r={r}, S={S}): gap")
    if line10 == "corrected":
        assert res.node_err < 1e-8  # exact at the nodes
    else:
        assert res.node_err > 1e-4  # every epoch uploads v_1 as printed: wrong weights
    with pytest.raises(ValueError, match="`r`"):
        run_fedlrgd(prob, r=6)


def test_mm1_departures_are_erlang():
    t = mm1_departure_times(5, 2.0, reps=4000, seed=0)
    assert t.shape == (4000,)
    se = t.std(ddof=1) / math.sqrt(t.size)
    assert abs(t.mean() - 5.0) < 4.5 * se  # Erlang(5, 1): mean 5, variance 5 (Burke)
    assert t.var(ddof=1) == pytest.approx(5.0, rel=0.1)
    assert stats.kstest(t, stats.gamma(5).cdf).pvalue > 1e-3
    with pytest.raises(ValueError, match="`nu`"):
        mm1_departure_times(5, 1.0)
    with pytest.raises(ValueError, match="`n_dep`"):
        mm1_departure_times(0, 2.0)


def test_appendix_c_ranks_shapes():
    ranks, p, kept = appendix_c_ranks(k=12, d=4, classes=3, n_train=200, seed=0)
    assert p == 12 and ranks.shape == (kept,) and 0 < kept <= p
    assert np.all((ranks >= 1) & (ranks <= 12))


def test_lowrank_defaults_types_and_names():
    a = make_logistic_problem()
    b = make_logistic_problem(d=3, r=10, m=50, s=20, mu=0.1, seed=0)
    np.testing.assert_array_equal(a.X0, b.X0) and np.testing.assert_array_equal(a.Xc, b.Xc)
    assert a.X0.shape == (10, 3) and a.Xc.shape == (50, 20, 3)
    res = run_fedlrgd(make_logistic_problem(d=3, r=5, m=3, s=2, seed=1), S=2)
    assert all(type(v) is int for v in res.counters["client_grads"] + res.counters["uploads"])
    r1, p1, k1 = appendix_c_ranks(k=12, d=4, classes=3, n_train=200, seed=0)
    r2, p2, k2 = appendix_c_ranks(k=12, d=4, classes=3, n_train=200, mu=1e-3, threshold=0.9, min_weight=0.005, seed=0)
    np.testing.assert_array_equal(r1, r2)
    for bad, name in ((dict(q=0.0, d=1), "q"), (dict(q=2.0, d=3), "d")):
        with pytest.raises(ValueError, match=f"`{name}`"):
            l1_cover(**bad)
    with pytest.raises(ValueError, match="`S`"):
        run_fedlrgd(make_logistic_problem(d=3, r=5, m=3, s=2, seed=1), S=0)


def test_theorem1_bound_printed_variant_and_domain_edges():
    # printed (l)^2 in the denominator: l = 3 (eta = 3.5) gives 9 where the proof has (3!)^2 = 36
    corr = theorem1_bound(1000.0, d=2, eta=3.5, L2=2.0)
    assert theorem1_bound(1000.0, d=2, eta=3.5, L2=2.0, variant="printed") == pytest.approx(4 * corr, rel=1e-12)
    assert theorem1_bound(10.0, d=1, eta=0.5, variant="printed") == math.inf  # l = 0: (l)^2 = 0
    assert math.isnan(theorem1_bound(1.0, d=1, eta=0.5))  # r = 1 is allowed (below r* = 2e: NaN)
    with pytest.raises(ValueError, match="`L2`"):
        theorem1_bound(10.0, d=1, eta=0.5, L2=0.0)
    assert theorem1_min_rank(2) == theorem1_min_rank(2, 2.0)


# --------------------------------------------------------------------------- survivors of the mutation run
def test_theorem2_r_log_space_fallback_against_mpmath():
    """Where K_1 overflows float64, theorem2_r recomputes log K_1 itself; the referee evaluates (47)
    directly in 60-digit arithmetic (no logarithms). eta close to (2 alpha + 2) d makes the second
    term of the max win, so every factor of K_1 shows in r."""
    import mpmath

    with mpmath.workdps(60):
        _check_theorem2_r_fallback(mpmath)


def _check_theorem2_r_fallback(mpmath):
    for d, eta, kw in [(10, 45.0, dict(kappa=3.0, eps=0.05, B=2.0, mu=0.2, p=2, L2=2.0, F0_gap=0.5)),
                       (1, 400.0, dict(L2=0.5)), (4, 200.0, dict(alpha=2.0, L2=3.0))]:
        assert theorem2_K1(d, eta, kw.get("L2", 1.0)) == math.inf  # the fallback is what is tested
        kappa, eps, B, mu, p = (mpmath.mpf(kw.get(k, v)) for k, v in
                                (("kappa", 2.0), ("eps", 0.01), ("B", 1.0), ("mu", 0.1), ("p", 1)))
        L2, F0, alpha = (mpmath.mpf(kw.get(k, v)) for k, v in (("L2", 1.0), ("F0_gap", 1.0), ("alpha", 1.0)))
        D, E = mpmath.mpf(d), mpmath.mpf(eta)
        K1 = (L2 ** D * E ** D * mpmath.e ** (E * (D + 1)) * D ** (E / 2)
              * (2 * E + 2 * D) ** (E * D) / (E - 1) ** (E * D))
        A = F0 + 9 * (B + 3) ** 4 * p / (2 * mu)
        inner = K1 * (kappa * A / ((kappa - 1) * eps)) ** (D / 2)
        expo = 1 / (E - (2 * alpha + 2) * D)
        first = mpmath.e * mpmath.sqrt(D) * 2 ** D * (E + D) ** D
        corrected = mpmath.ceil(max(first, inner ** expo))
        printed = mpmath.ceil(max(first, inner) ** expo)
        assert theorem2_r(d, eta, **kw) == pytest.approx(float(corrected), rel=1e-9)
        assert theorem2_r(d, eta, **kw, variant="printed") == pytest.approx(float(printed), rel=1e-9)
        if d == 10:
            assert inner ** expo > 1e10 * first  # the second term wins: K_1 matters


def test_theorem2_validation_names_the_parameter():
    with pytest.raises(ValueError, match="`d`"):
        theorem2_r(d=0, eta=50.0, L2=0.0)  # d first, not the later L2
    for eta in (-1.0, 0.0):  # eta > 0 is checked before kappa
        with pytest.raises(ValueError, match="`eta`"):
            theorem2_r(d=1, eta=eta, kappa=1.0)
    # 0 < eta <= (2 alpha + 2) d: the message states Theorem 2's condition
    with pytest.raises(ValueError, match=r"`eta` must exceed \(2 alpha \+ 2\) d = 4"):
        theorem2_r(d=1, eta=0.5)
    with pytest.raises(ValueError, match="`mu`"):
        theorem2_r(d=1, eta=50.0, mu=0.0)
    with pytest.raises(ValueError, match="`variant`"):
        theorem2_r(d=1, eta=50.0, variant="typo")
    with pytest.raises(ValueError, match=r"needs kappa > 1"):
        theorem2_S(kappa=1.0)
    with pytest.raises(ValueError, match="`eta`"):
        theorem2_K1(1, 1.0)  # eta = 1: (eta - 1) in a denominator
    with pytest.raises(ValueError, match="`d`"):
        theorem1_min_rank(0)
    with pytest.raises(ValueError, match="eta <= 171"):
        theorem1_bound(10.0, d=1, eta=200.0)  # l = 199: l! overflows float64


def test_theorem2_hand_values_at_defaults_and_eta_below_2():
    # S at the documented defaults: A = 1 + 9 * 4^4 / 0.2 = 11521, log2(11521 / 0.01) = 20.14
    assert theorem2_S() == 21
    # K_1 for d = 1, eta = 1.5 (eta in (1, 2] is allowed), L2 = 1: 1.5 e^3 (5 / 0.5)^1.5
    assert theorem2_K1(1, 1.5) == pytest.approx(1.5 * math.exp(3) * 10 ** 1.5, rel=1e-12)


def test_fedave_b_star_viete_is_quiet_for_phi_zero():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # C3 = 0: 1/0 inside, but no RuntimeWarning escapes
        with pytest.raises(ValueError, match="Viete"):
            fedave_b_star_viete(10, 0.0, 1.0, 0.01, 1.0)


def test_run_fedlrgd_and_appendix_c_validation_names():
    prob = make_logistic_problem(d=3, r=5, m=3, s=2, seed=1)
    with pytest.raises(ValueError, match="`phi`"):
        run_fedlrgd(prob, phi=-1.0, S=2)
    small = dict(k=2, d=2, classes=2, n_train=5)
    for bad, name in ((dict(n_train=0), "n_train"), (dict(mu=-1.0), "mu"), (dict(threshold=0.0), "threshold"),
                      (dict(threshold=1.5), "threshold")):
        with pytest.raises(ValueError, match=f"`{name}`"):
            # min_weight huge: no slice is kept, so only the up-front validation can refuse the input
            appendix_c_ranks(**{**small, "min_weight": 1e9, **bad})


def test_appendix_c_ranks_documented_defaults():
    ranks, p, kept = appendix_c_ranks(d=2, n_train=50)
    assert p == 10 * 2  # classes = 10 by default: p = classes * d
    ranks2, p2, kept2 = appendix_c_ranks(60, d=2, classes=10, n_train=50, seed=0)  # k = 60 by default
    np.testing.assert_array_equal(ranks, ranks2)
    assert (p, kept) == (p2, kept2)


def test_theory_validation_and_overflow_messages_name_the_parameters():
    cases = [
        (lambda: lemma1_bound(2.0, 1.5, L2=0.0), "`L2`"),
        (lambda: inequality52(0, 1), "`d`"),
        (lambda: inequality52(1, -0.5), "`l`"),
        (lambda: theorem2_r(1, 50.0, B=0.0), "`B`"),
        (lambda: theorem2_S(eps=0.0), "the accuracy `eps`"),
        (lambda: theorem2_S(p=0), "`p`"),
        (lambda: fedlrgd_gamma(1, -1, 1, 1, 1), "`s`"),
        (lambda: fedlrgd_gamma(1, 1, 1, 1, -1), "`phi`"),
        (lambda: fedlrgd_gamma(1, 1, 1, 1, 1, tau=-1.0), "`tau`"),
        (lambda: fedlrgd_gamma(1e200, 1, 1, 1, 1), "^Gamma overflows"),
        (lambda: fedave_constraint_T(1.0, 0.0, 0.01, 1.0), r"`m` must be in \(0"),
        (lambda: fedave_constraint_T(1.0, 1.0, 0.01, 0.0), "`C`"),
        (lambda: fedave_gamma_numeric(1e-14, 1.0, 1.0, 0.01, 1.0), "`m` must exceed"),
        (lambda: lemma4_gap(-0.1), "`t`"),
        (lambda: lemma4_gap(1.5), "`t`"),  # t^2 > 2: arcsin(1 - t^2) undefined
        (lambda: proposition1_ratio(100.0, m=50, phi=10.0, C=0.0), "`C`"),
        (lambda: proposition1_ratio(100.0, m=50, phi=10.0, d=2, c1=1e-300), "`c1`"),  # eta rounds to 4 d
        (lambda: theorem1_bound(10.0, d=1, eta=0.5, L2=1e200), "constant of Theorem 1 overflows"),
        (lambda: erlang_quantile_bounds(1e308, 3), r"`b`=1e\+308"),
        (lambda: erlang_max_approximation(1e308, 3), r"`b`=array\(1\.e\+308\)"),
        # phi tau m overflows while T stays finite: the minimum itself is not finite
        (lambda: fedave_gamma_numeric(10, 1e300, 1e10, 0.01, 1.0),
         r"^Gamma_min overflows.*`phi`=1e\+300.*`C`=1\.0"),
    ]
    for call, pattern in cases:
        with pytest.raises(ValueError, match=pattern), np.errstate(over="ignore"):
            call()


def test_lemma1_bound_underflows_quietly_and_hand_values():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert lemma1_bound(1e300, 2.0) == 0.0  # 1 / (1! 1e600): below the smallest float64
    # K_1 for d = 2, eta = 3, L2 = 1: 3^2 e^9 2^1.5 (6 + 4)^6 / 2^6
    assert theorem2_K1(2, 3.0) == pytest.approx(9 * math.exp(9) * 2 ** 1.5 * 1e6 / 64, rel=1e-12)
    # S with F0_gap at its default 1: mu = 1152 makes 9 (B+3)^4 p/(2 mu) = 1, so A = 2; log2(2 / 0.55) = 1.86
    assert theorem2_S(mu=1152.0, eps=0.55) == 2
    # Theorem 3's bracket for m < 1: m = 0.5, phi = 2, tau = 1, C/eps_t = 100
    (lo, hi), (blo, bhi) = fedave_bracket(0.5, 2.0, 1.0, 0.01, 1.0)
    assert (lo, hi) == pytest.approx((0.75 * 10 ** 1.5, 8 * 10 ** 1.5), rel=1e-12)
    assert (blo, bhi) == pytest.approx((0.25 * 0.1 ** 0.5, 0.1 ** 0.5), rel=1e-12)


def test_fedave_gamma_numeric_tau_and_the_grid_end():
    # tau = 2 against a dense grid of b (T from (80), checked as a root of the quadratic elsewhere)
    m, phi, tau, eps_t, C = 20, 5.0, 2.0, 0.01, 1.0
    G, b_star, _ = fedave_gamma_numeric(m, phi, tau, eps_t, C)
    grid = np.exp(np.linspace(-5, 12, 200001))
    vals = fedave_constraint_T(grid, m, eps_t, C) * (grid + phi * tau * m)
    assert G == pytest.approx(vals.min(), rel=1e-8)
    assert b_star == pytest.approx(grid[np.argmin(vals)], rel=1e-3)
    # eps_t / C huge: g decreases over the whole search range [e^-10, 1e8 m], so the minimiser is its end
    m, eps_t = 10.0, 1e60
    grid = np.exp(np.linspace(-10, math.log(1e8 * m), 20001))
    vals = fedave_constraint_T(grid, m, eps_t, 1.0) * (grid + 2.0 * m)
    assert np.argmin(vals) == grid.size - 1
    G, b_star, _ = fedave_gamma_numeric(m, 2.0, 1.0, eps_t, 1.0)
    assert b_star == pytest.approx(1e8 * m, rel=1e-4)
    assert G <= vals.min() * (1 + 1e-12)


def test_proposition1_ratio_passes_kappa_mu_and_B_through():
    # Appendix E with d = 1, c1 = 4, alpha = 1: eta = 8, p = 1, eps = 1/pe; s = m by default, tau = 1, C = 1
    m, phi, kw = 30, 4.0, dict(kappa=3.0, B=2.0, mu=0.5)
    for pe in (50.0, 1e5):
        r = theorem2_r(1, 8.0, eps=1 / pe, **kw)
        S = theorem2_S(eps=1 / pe, **kw)
        assert r != theorem2_r(1, 8.0, eps=1 / pe) and S != theorem2_S(eps=1 / pe)  # the options matter here
        expected = (r * r + r * m + r * S + phi * m * r) / (8 * phi * m * pe ** 0.75)
        assert proposition1_ratio(pe, m=m, phi=phi, **kw) == pytest.approx(expected, rel=1e-12)


# ------------------------------------------------------------------------- algorithms.py: survivors of the mutation run
from fedtheory.lowrank.model import PowerSum  # noqa: E402


def test_taylor_matrix_at_theta_equal_to_a_centre_with_abs():
    """``PowerSum`` (eta = 1.5, l = 1) is built from ``Abs(x - t)``; its derivative is ``sign(u)|u|^0.5`` up to a
    constant, which vanishes at u = 0. With theta at a cell centre the approximant is exactly 0 there (g and g'
    vanish at z = theta), and everywhere within Lemma 1's bound."""
    fn = PowerSum(eta=1.5, L2=1.0, d=1, p=1)
    q = 4.0
    centres = np.array([[0.25], [0.75]])  # l1_cover(4, 1): (2j - 1)/q
    Theta = np.vstack([centres, [[0.4]]])
    X = np.linspace(0, 1, 41)[:, None]
    N, used, n_cells = taylor_matrix(fn, X, Theta, q)
    assert (used, n_cells) == (2, 2)
    assert np.all(np.isfinite(N))
    near = (X[:, 0] < 0.5)  # points whose cell centre is 0.25
    assert np.all(N[near, 0] == 0.0) and np.all(N[~near, 1] == 0.0)
    assert np.max(np.abs(fn.matrix(X, Theta) - N)) <= lemma1_bound(q, 1.5, 1.0) * (1 + 1e-9)


def test_taylor_matrix_and_svd_tail_validation():
    fn = PowerSum(eta=1.5, L2=1.0, d=1, p=1)
    X, Theta = np.array([[0.1], [0.9]]), np.array([[0.2]])
    cases = [
        (lambda: taylor_matrix(fn, np.zeros((3, 2)), Theta, 4.0), "`X` must have shape"),
        (lambda: taylor_matrix(fn, np.zeros(3), Theta, 4.0), "`X`"),
        (lambda: taylor_matrix(fn, np.array([[1.5]]), Theta, 4.0), "`X` must lie in"),
        (lambda: taylor_matrix(fn, np.array([[-0.5]]), Theta, 4.0), "`X` must lie in"),
        (lambda: taylor_matrix(fn, X, np.zeros((2, 2)), 4.0), "`Theta` must have shape"),
        (lambda: taylor_matrix(fn, X, np.zeros(2), 4.0), "`Theta`"),
        (lambda: svd_tail(np.ones(3)), "`M` must have shape"),
        (lambda: l1_cover(2.0, 3), r"\(explicit covers are implemented for d = 1 and d = 2\)"),
    ]
    for call, pattern in cases:
        with pytest.raises(ValueError, match=pattern):
            call()


def test_make_logistic_problem_label_noise_is_gaussian_with_sd_one_half():
    """``y = sigmoid(3 theta^T x - 1 + 0.5 z)``, z standard normal: logit(y) is linear in x with intercept -1
    and i.i.d. N(0, 1/4) residuals. Referee: ordinary least squares on logit(y), then the residuals' sd,
    tails and a normality test."""
    prob = make_logistic_problem(d=3, r=10, m=40, s=50, seed=4)
    Z = prob.all_data
    y = special.logit(Z[:, -1])
    A = np.column_stack([np.ones(len(Z)), Z[:, :-1]])
    coef, *_ = np.linalg.lstsq(A, y, rcond=None)
    res = y - A @ coef
    n = len(res)
    assert abs(coef[0] + 1) < 0.1  # intercept -1 (se about 0.04 here)
    assert np.all(np.abs(coef[1:]) <= 3.1)  # 3 theta with theta in [-1, 1]^2
    sd = res.std(ddof=3)
    assert abs(sd - 0.5) < 4.5 * 0.5 / math.sqrt(2 * n)
    assert stats.kstest(res / 0.5, "norm").pvalue > 1e-3
    assert np.max(np.abs(res)) < 0.5 * 5  # no heavy tails


def test_make_logistic_problem_validation():
    cases = [
        (lambda: make_logistic_problem(d=1), "`d`"),
        (lambda: make_logistic_problem(r=0), "`r`"),
        (lambda: make_logistic_problem(s=0), "`s`"),
        (lambda: make_logistic_problem(m=10 ** 6, s=10 ** 6), r"`m`=1000000, `s`=1000000, `d`=3, `r`=10"),
    ]
    for call, pattern in cases:
        with pytest.raises(ValueError, match=pattern):
            call()


def test_run_fedlrgd_validation_and_one_step():
    prob = make_logistic_problem(d=3, r=5, m=3, s=2, seed=1)
    cases = [
        (lambda: run_fedlrgd(prob, rcond=-1.0, S=2), "`rcond`"),
        (lambda: run_fedlrgd(prob, r=0, S=2), "`r`"),
        (lambda: run_fedlrgd(prob, r=4, S=2), r"server samples \(5\); got r=4"),
        (lambda: run_fedlrgd(prob, S=10 ** 12), r"inexact GD would run .*`S`=1000000000000"),
    ]
    for call, pattern in cases:
        with pytest.raises(ValueError, match=pattern):
            call()
    res = run_fedlrgd(prob, S=1, phi=2.0)  # S = 1 is allowed: one inexact GD step
    assert res.counters["server_grads"] == 5 * 5 + 5 * 1
    assert res.theta.shape == (2, 2) and res.gamma == 25 + (5 * 2 + 2.0 * 3) + 4 * 2.0 * 3 + 5


def test_erlang_max_mc_and_mm1_validation():
    cases = [
        (lambda: erlang_max_mc(0, 3), "`b`"),
        (lambda: erlang_max_mc(-1.0, 3), "`b`"),
        (lambda: erlang_max_mc(1, 10 ** 10, n_samples=1), "`n_samples` must be"),  # checked before the size
        (lambda: erlang_max_mc(1, 10 ** 9), r"`k`=1000000000, `n_samples`=20000"),
        (lambda: erlang_max_mc(1e308, 2), "the replications overflow float64 for `b`"),
        (lambda: mm1_departure_times(5, 1.0), "a stable queue needs nu > 1"),
        (lambda: mm1_departure_times(5, 2.0, reps=0), "`reps`"),
        (lambda: mm1_departure_times(5, 2.0, reps=10 ** 12), "^the replications would need"),
        (lambda: mm1_departure_times(25_000_001, 2.0, reps=1), "event-by-event simulation"),  # 1e8 events
    ]
    for call, pattern in cases:
        with pytest.raises(ValueError, match=pattern), np.errstate(over="ignore"):
            call()


def test_appendix_c_ranks_validation_k_and_classes():
    small = dict(k=2, d=2, classes=2, n_train=5, min_weight=1e9)  # nothing kept: only validation can refuse
    for bad, name in ((dict(k=0), "k"), (dict(classes=1), "classes")):
        with pytest.raises(ValueError, match=f"`{name}`"):
            appendix_c_ranks(**{**small, **bad})


@pytest.mark.parametrize("threshold", [0.9, 0.99])
def test_appendix_c_ranks_two_classes_come_in_equal_pairs(threshold):
    """Two classes, mu = 0: softmax probabilities sum to 1 over the classes and the labels are one-hot, so
    ``d f/d W[0, :] = -d f/d W[1, :]`` for every sample and parameter: the slice of weight (0, l) is minus the
    slice of (1, l) and has the same approximate rank. Gradient descent from W = 0 keeps W[0] = -W[1], so the
    kept weights are symmetric too: ranks = [ranks of class 0, the same again for class 1]."""
    k, d = (20, 4) if threshold == 0.9 else (30, 3)
    ranks, p, kept = appendix_c_ranks(k=k, d=d, classes=2, mu=0.0, n_train=300, threshold=threshold, seed=0)
    assert p == 2 * d and kept % 2 == 0 and kept > 0
    np.testing.assert_array_equal(ranks[: kept // 2], ranks[kept // 2:])


def test_appendix_c_ranks_theta_star_is_trained():
    """Two classes with means in [0.2, 0.8]^d and noise sd 0.15: the logistic fit's weights are of order
    |mean difference| / 0.15^2 (linear discriminant), far above 0.5, so min_weight = 0.5 keeps every weight;
    an untrained (or badly trained) theta* near 0 would keep none."""
    ranks, p, kept = appendix_c_ranks(k=5, d=4, classes=2, n_train=200, min_weight=0.5, seed=0)
    assert kept == p == 8


# --------------------------------------------------------------------------- survivors of the 250-sample of theory.py
def test_theory_messages_second_round():
    nan = math.nan
    cases = [
        (lambda: holder_l(0.0), "Hoelder smoothness"),
        (lambda: theorem1_bound(10.0, variant="typo"), "`variant`"),
        (lambda: lemma1_bound(0.0, 1.5), "`q` must be > 0"),
        (lambda: lemma1_bound(2.0, 200.0), "l! must be representable"),
        (lambda: lemma1_bound(1e-300, 2.0), "^the Lemma 1 bound overflows"),  # 1 / (1e-300)^2
        (lambda: inequality52(200, 200), r"^the left side of \(52\) overflows.*`d`=array\(200\.\)"),
        (lambda: erlang_quantile_bounds(nan, 3), "`b`"),
        (lambda: erlang_max_approximation(1, 0), "`k`"),
        (lambda: erlang_max_approximation(-1, 2), "`b`"),
        (lambda: theorem2_K1(1, 1.0), r"K_1 has \(eta - 1\) in a denominator"),
        (lambda: theorem2_r(1, 50.0, kappa=1.0), r"\(48\) needs kappa > 1"),
        (lambda: theorem2_r(1, 50.0, eps=1e9), r"Theorem 2: 0 < `eps` <= 9\(B\+3\)\^4 p/\(8 mu\)"),
        (lambda: theorem2_S(B=0.0), "`B`"),
        (lambda: theorem2_S(F0_gap=1.79e308, mu=1.15e-304), r"^A = F0_gap .*`F0_gap`=1\.79e\+308"),
        # kappa/(kappa - 1) rounds to 1: S = log(A/eps)/0
        (lambda: theorem2_S(kappa=1e20), r"^S \(48\) overflows.*`mu`=0\.1, `p`=1, `F0_gap`=1\.0"),
        (lambda: fedave_constraint_T(1.0, 1.0, 0.0, 1.0), r"`eps_t` must be in \(0"),
        (lambda: fedave_constraint_T(1e300, 1.0, 0.01, 1e10), r"^T \(80\) overflows.*`b`=array\(1\.e\+300\)"),
        (lambda: fedave_gamma_numeric(10, 1e300, 1e10, 0.01, 1.0), r"`tau`=10000000000\.0, `eps_t`=0\.01"),
        (lambda: fedave_bracket(10, -1.0, 1.0, 0.01, 1.0), "`phi`"),
        (lambda: fedave_bracket(10, 1.0, 1.0, 0.01, -1.0), "`C`"),
        (lambda: fedave_b_star_viete(10, 1e308, 10.0, 0.01, 1.0), r"^b\* overflows.*`tau`=10\.0"),
        (lambda: fedave_bracket(10, 1e308, 10.0, 0.01, 1.0), r"^the bracket overflows.*`m`=10\.0"),
        (lambda: lemma4_gap(1.5), r"needs t\^2 <= 2"),
        (lambda: proposition1_ratio(100.0, m=50, phi=10.0, d=0), "`d`"),
        (lambda: proposition1_ratio(100.0, m=50, phi=10.0, c1=0.0), "`c1` must be in"),
        (lambda: proposition1_ratio(np.array([]), m=50, phi=10.0, alpha=0.5), "`alpha`"),  # even with nothing to do
    ]
    for call, pattern in cases:
        with pytest.raises(ValueError, match=pattern), np.errstate(all="ignore"):
            call()


def test_theory_respects_the_callers_errstate():
    """The functions silence only the float64 events they handle; under ``np.errstate(all="raise")`` an
    underflow to a subnormal result or an overflow that becomes a ValueError must not turn into a
    FloatingPointError."""
    with np.errstate(all="raise"):
        assert lemma1_bound(1e150, 2.0, L2=1e-10) == pytest.approx(1e-310, rel=1e-6)  # 1e-10 / 1e300
        with pytest.raises(ValueError, match=r"T \(80\)"):
            fedave_constraint_T(1e300, 1.0, 0.01, 1e10)


def test_theorem1_bound_default_L2():
    # d = 1, eta = 2.5, L2 = 1 (the default): 1944 e^5 r^-5
    assert theorem1_bound(100.0, d=1, eta=2.5) == pytest.approx(1944 * math.exp(5) * 1e-10, rel=1e-12)


def test_fedave_gamma_numeric_minimiser_against_mpmath_and_grid_start():
    """b* to 1e-9 against a 40-digit minimisation where T is the positive root of the quadratic of (78)-(79),
    found by mpmath.polyroots (not the closed form (80)); and with phi = 0 (g increasing in b) the minimiser
    is the lower end e^-10 of the documented search range."""
    import mpmath

    m, phi, tau, eps_t, C = 100, 100.0, 1.0, 0.01, 1.0
    G, b_star, _ = fedave_gamma_numeric(m, phi, tau, eps_t, C)
    with mpmath.workdps(40):
        def g(lb):
            b = mpmath.e ** lb
            T = max(mpmath.re(x) for x in mpmath.polyroots([1, -b * C / (m * eps_t), -C * m ** 2 / (eps_t * b ** 2)]))
            return T * (b + phi * tau * m)

        lb = mpmath.findroot(lambda x: mpmath.diff(g, x), math.log(b_star))
        assert b_star == pytest.approx(float(mpmath.e ** lb), rel=1e-9)
        assert G == pytest.approx(float(g(lb)), rel=1e-12)
    G0, b0, _ = fedave_gamma_numeric(10, 0.0, 1.0, 0.01, 1.0)
    grid = np.exp(np.linspace(-10, 5, 1001))
    vals = fedave_constraint_T(grid, 10, 0.01, 1.0) * grid
    assert np.all(np.diff(vals) > 0)
    assert b0 == pytest.approx(math.exp(-10), rel=1e-4)  # the bounded search stops within its tolerance
    assert G0 == pytest.approx(vals[0], rel=1e-4)


def test_proposition1_ratio_uses_s():
    m, phi, s, pe = 30, 4.0, 7.0, 100.0
    r, S = theorem2_r(1, 8.0, eps=1 / pe), theorem2_S(eps=1 / pe)
    expected = (r * r + r * s + r * S + phi * m * r) / (8 * phi * m * pe ** 0.75)
    assert proposition1_ratio(pe, m=m, phi=phi, s=s) == pytest.approx(expected, rel=1e-12)


# ------------------------------------------------------------------------- survivors of the 250-sample of algorithms.py
def test_logistic_minimise_reaches_the_stationary_point_with_saturated_labels():
    """d = 20 and mu = 0: the soft labels reach sigmoid(+-10), where Newton needs the exact Hessian
    sigma (1 - sigma) to converge within its 100 iterations. Referee: the independent gradient of the loss."""
    prob = make_logistic_problem(d=20, r=5, m=10, s=20, mu=0.0, seed=0)
    th, F = prob.minimise()
    loss, grad = _loss_and_grad(prob.all_data, 0.0)
    assert np.max(np.abs(grad(th))) < 1e-12
    assert F == pytest.approx(loss(th), rel=1e-12)


def test_algorithms_messages_second_round():
    fn = PowerSum(eta=1.5, L2=1.0, d=1, p=1)
    small = dict(k=2, d=2, classes=2, n_train=5, min_weight=1e9)
    cases = [
        (lambda: l1_cover(1e12, 2), r"`q`=1000000000000\.0, `d`=2"),
        (lambda: taylor_matrix(fn, np.array([[0.1]]), np.array([[1e300]]), 4.0),
         r"^the Taylor approximant overflows.*`Theta`, `fn`"),
        (lambda: svd_tail(np.full((2, 2), 1e200)), r"^the SVD tail overflows.*`M`"),
        (lambda: approximate_rank(np.eye(2), 0.0), "`threshold`"),
        (lambda: approximate_rank(np.full((2, 2), 1e200)), r"^the squared singular values overflow.*`M`"),
        (lambda: make_logistic_problem(m=0), "`m`"),
        (lambda: run_fedlrgd(make_logistic_problem(d=3, r=5, m=3, s=2), line10="typo"), "`line10`"),
        (lambda: appendix_c_ranks(**{**small, "d": 0}), "`d`"),
        (lambda: appendix_c_ranks(**{**small, "min_weight": -1.0}), "`min_weight`"),
        (lambda: appendix_c_ranks(k=10 ** 6), r"`k`=1000000, `classes`=10"),
    ]
    for call, pattern in cases:
        with pytest.raises(ValueError, match=pattern), np.errstate(all="ignore"):
            call()


def test_l1_cover_size_guard_counts_ceil_q_over_2_cells_in_1d():
    cell, centres = l1_cover(1e5, 1)  # 50000 cells of length 2/q: far below the size guard
    assert centres.shape == (50000, 1)
    assert cell(np.array([[0.0], [1.0]])).tolist() == [0, 49999]


def test_appendix_c_ranks_default_d():
    ranks, p, kept = appendix_c_ranks(k=5, classes=2, n_train=50)
    assert p == 2 * 20  # d = 20 by default
