"""Tests of :mod:`fedtheory.lowrank.algorithms`: FedLRGD (Jadbabaie et al. 2023, Algorithm 1): the l1 cover, the
Taylor approximant of Lemma 1, SVD tails, approximate ranks, the logistic problem, run counters and line 10, Erlang
maxima and M/M/1 departures, the ranks of Appendix C and the parameter messages."""
import math
from dataclasses import dataclass

import numpy as np
import pytest
from scipy import integrate, special, stats

from fedtheory import IllConditionedWarning
from fedtheory.lowrank import Cosine, L1Power, fedlrgd_gamma, lemma1_bound
from fedtheory.lowrank.algorithms import (appendix_c_ranks, approximate_rank, erlang_max_mc, l1_cover,
                                          make_logistic_problem, mm1_departure_times, run_fedlrgd, svd_tail,
                                          taylor_matrix)
from fedtheory.lowrank.model import HolderFunction, PowerSum


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


# ------------------------------------------------------------------------- algorithms.py: messages and edges
def test_logistic_minimise_reaches_the_stationary_point_with_saturated_labels():
    """d = 20 and mu = 0: the soft labels reach sigmoid(+-10), where Newton needs the exact Hessian
    sigma (1 - sigma) to converge within its 100 iterations. Referee: the independent gradient of the loss."""
    prob = make_logistic_problem(d=20, r=5, m=10, s=20, mu=0.0, seed=0)
    th, F = prob.minimise()
    loss, grad = _loss_and_grad(prob.all_data, 0.0)
    assert np.max(np.abs(grad(th))) < 1e-12
    assert F == pytest.approx(loss(th), rel=1e-12)


def test_algorithms_overflow_and_size_messages_name_the_inputs():
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


def test_svd_tail_is_eckart_young():
    rng = np.random.default_rng(0)
    M = rng.standard_normal((30, 20))
    tail = svd_tail(M)
    U, s, Vt = np.linalg.svd(M, full_matrices=False)
    for r in (0, 3, 10, 20):
        Mr = (U[:, :r] * s[:r]) @ Vt[:r]
        assert tail[r] == pytest.approx(np.sum((M - Mr) ** 2) / 600, abs=1e-12)


@pytest.mark.parametrize("fn", [L1Power(eta=0.7, L2=1.3, d=1, p=1), PowerSum(eta=1.5, L2=1.0, d=2, p=2),
                                Cosine(eta=2.0, L2=0.5, d=2, p=2)])
def test_lemma1_sup_error_below_bound(fn):
    rng = np.random.default_rng(1)
    X = rng.uniform(0, 1, (3000, fn.d))
    Th = fn.sample_theta(rng, 3)
    for q in (3, 10):
        N, used, ncell = taylor_matrix(fn, X, Th, q)
        assert np.max(np.abs(N - fn.matrix(X, Th))) <= lemma1_bound(q, fn.eta, fn.L2) * (1 + 1e-12)


def test_cover_is_an_l1_cover():
    rng = np.random.default_rng(2)
    for d, q in ((1, 5.0), (2, 3.5)):
        cell, centres = l1_cover(q, d)
        X = rng.uniform(0, 1, (5000, d))
        assert np.max(np.abs(X - centres[cell(X)]).sum(1)) <= 1 / q + 1e-12


def test_approximate_rank():
    M = np.diag([3.0, 1.0, 0.1])
    assert approximate_rank(M, 0.89) == 1  # 9 of 10.01
    assert approximate_rank(M, 0.9) == 2   # 0.9 * 10.01 > 9
    assert approximate_rank(M, 0.9995) == 3


def test_fedlrgd_counters_and_exact_nodes():
    prob = make_logistic_problem(d=3, r=6, m=10, s=8, seed=3)
    res = run_fedlrgd(prob, S=25, phi=3.0, seed=1)
    assert res.counters["server_grads"] == 6 * 6 + 6 * 25
    assert res.counters["client_grads"] == [48] * 10 and res.counters["uploads"] == [6] * 10
    assert res.counters["epochs"] == 8
    assert res.gamma == fedlrgd_gamma(6, 8, 25, 10, 3.0)
    assert res.node_err < 1e-10
    assert res.gap[-1] < res.gap[0]


def test_fedlrgd_singular_G_warns_and_falls_back():
    prob = make_logistic_problem(d=3, r=40, m=5, s=4, seed=0)
    with pytest.warns(IllConditionedWarning, match="numerically singular"):
        res = run_fedlrgd(prob, S=5, seed=0)
    assert np.all(np.isfinite(res.theta))


def test_mm1_departure_times_pass_a_ks_test_against_erlang():
    t = mm1_departure_times(20, 3.0, reps=3000, seed=5)
    assert stats.kstest(t, stats.gamma(a=20).cdf).pvalue > 0.001


# ---- validation once at the public entry
"""Approximate ranks of Appendix C (fedtheory.lowrank.algorithms; Jadbabaie, Makur and Shah, IEEE Trans. Inf. Theory
2023, eq. (77)): :func:`appendix_c_ranks` validates its gradient slices once, as a stack, and computes every rank with
the kernel of :func:`approximate_rank`; the ranks and messages are those of the slice-by-slice public calls."""

import warnings

import pytest

from fedtheory.lowrank._kernels import _slice_ranks


from fedtheory.testing import count_validation_calls as _count_checks  # noqa: E402


def test_appendix_c_validation_calls_do_not_grow_with_the_slices(monkeypatch):
    counts = _count_checks(monkeypatch)
    per_d = []
    for d in (2, 6):
        counts.clear()
        ranks, p, kept = appendix_c_ranks(k=6, d=d, classes=2, n_train=50, min_weight=0.0)
        assert kept == p == 2 * d
        per_d.append(dict(counts))
    assert per_d[0] == per_d[1]


@pytest.mark.parametrize("threshold", [0.5, 0.9, 0.999, 1.0])
def test_slice_ranks_equal_approximate_rank_of_each_slice(threshold):
    g = np.random.default_rng(3)
    M = g.standard_normal((7, 7, 9)) * np.logspace(-3, 3, 7)[None, :, None]
    M[:, :, 4] = 0.0  # a zero slice has rank 0
    keep = np.array([0, 2, 3, 4, 8])
    ranks, refused = _slice_ranks(M, keep, threshold)
    assert refused is None
    assert ranks == [approximate_rank(M[:, :, q], threshold) for q in keep]
    assert _slice_ranks(M, keep[:0], threshold) == ([], None)


@pytest.mark.parametrize("bad, first", [
    ({3: np.inf}, 3),                    # a non-finite entry
    ({8: np.nan, 2: 1e200}, 2),          # squared singular values that overflow, before a later non-finite slice
    ({2: np.inf, 3: 1e200}, 2),
])
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_slice_ranks_report_the_first_slice_approximate_rank_refuses(bad, first):
    M = np.random.default_rng(1).standard_normal((5, 5, 9))
    for q, v in bad.items():
        M[0, 0, q] = v if not np.isfinite(v) else 0.0
        if np.isfinite(v):
            M[:, :, q] = v
    keep = np.array([0, 2, 3, 8])
    assert _slice_ranks(M, keep, 0.9) == ([], first)


def test_appendix_c_ranks_raise_approximate_rank_message():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match="the squared singular values overflows float64"):
            appendix_c_ranks(k=6, d=3, classes=2, n_train=50, mu=4.0)
        ranks, p, kept = appendix_c_ranks(k=6, d=3, classes=2, n_train=50, mu=10.0)  # theta NaN: nothing kept
    assert kept == 0 and ranks.dtype == float and ranks.shape == (0,)
