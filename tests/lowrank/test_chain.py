"""Tests of :mod:`fedtheory.lowrank.chain`: the proof chain (53)-(64) of Theorem 2 of FedLRGD (Jadbabaie et al.
2023) on instrumented runs: the kernel problems, monomial matrices, the cover lattice, explicit weights, eqs.
(59)-(60) and the chain on kernel and logistic runs."""
import math
import warnings
from fractions import Fraction

import numpy as np
import pytest

from fedtheory.lowrank import chain as ch
from fedtheory.lowrank.algorithms import l1_cover, run_fedlrgd
from fedtheory.lowrank.chain import (KernelProblem, PolyTanhKernel, cover_lattice, eq59_rhs, eq60_steps,
                                     explicit_weights, fedlrgd_chain, make_kernel_problem, monomial_exponents,
                                     monomial_matrix)
from fedtheory.lowrank.model import SoftLabelLogistic


# ----------------------------------------------------------------------------- the kernel instance
@pytest.mark.parametrize("l", [1, 2, 3])
def test_kernel_matches_sympy_and_its_holder_class(l):
    import sympy as sp

    k = ch.PolyTanhKernel.of(l, 0.05, beta=4.0, mu=0.3, amp=2.0)
    assert k.eta == l + 1 and k.l == l and k.L2 == pytest.approx(0.05 * math.factorial(l + 1))
    x, t = sp.symbols("x t", real=True)
    expr = k.sympy_expr((x,), (t,))
    rng = np.random.default_rng(l)
    X = rng.uniform(0, 1, (7, 1))
    T = rng.uniform(-2, 2, (5, 1))
    f = sp.lambdify((x, t), expr, "numpy")
    assert np.allclose(k.matrix(X, T), f(X[:, :1], T[:, 0][None, :]), atol=1e-13)
    # Hoelder class (eta, L2) = (l+1, lam (l+1)!): the l-th x-derivative is L2-Lipschitz (sympy derivative, grid of pairs)
    dl = sp.lambdify((x, t), sp.diff(expr, x, l), "numpy")
    xs = np.linspace(0, 1, 41)
    for th in np.linspace(-3, 3, 13):
        v = np.asarray(dl(xs, th), float) * np.ones_like(xs)
        lip = np.max(np.abs(np.diff(v)) / np.diff(xs))
        assert lip <= k.L2 * (1 + 1e-9)
    # strong convexity and L1: d g/d theta in [mu, L1], and it is the derivative of matrix (finite differences)
    D = k.dmatrix(X, T)
    assert D.min() >= k.mu - 1e-12 and D.max() <= k.L1
    h = 1e-6
    fd = (k.matrix(X, T + h) - k.matrix(X, T - h)) / (2 * h)
    assert np.allclose(fd, D, rtol=1e-6, atol=1e-6)
    fd_loss = (k.loss_matrix(X, T + h) - k.loss_matrix(X, T - h)) / (2 * h)
    assert np.allclose(fd_loss, k.matrix(X, T), rtol=1e-6, atol=1e-6)
    # (9) on [0, 1] x [-R, R]
    R = 2.0
    assert np.abs(k.matrix(rng.uniform(0, 1, (200, 1)), rng.uniform(-R, R, (50, 1)))).max() <= k.bound(R)


def test_kernel_problem_runs_unchanged_through_run_fedlrgd():
    prob = ch.make_kernel_problem(2, 1e-3, m=6, s=5, amp=10.0, beta=6.0, mu=0.5, seed=3)
    assert prob.p == 1 and prob.d == 1 and prob.X0.shape == (3, 1)
    # one server sample per stratum [j/r, (j+1)/r)
    assert np.all(np.floor(prob.X0[:, 0] * 3) == np.arange(3))
    th, F = prob.minimise()
    grid = np.linspace(th[0] - 0.05, th[0] + 0.05, 2001)
    brute = min(prob.loss(np.array([g])) for g in grid)  # brute-force minimisation
    assert F <= brute + 1e-12
    assert abs(float(prob.grad(th)[0])) < 1e-10
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = run_fedlrgd(prob, S=10, seed=7)
    assert res.counters["server_grads"] == 9 + 30 and res.node_err < 1e-10


def test_cover_logistic_problem_places_D_unisolvent_samples_per_cell():
    for q in (1, 2, 3):
        prob = ch.make_cover_logistic_problem(q, m=3, s=4, seed=q)
        assert prob.X0.shape == (3 * q * q, 2)
        cell, centres = l1_cover(float(q), 2)
        counts = np.bincount(cell(prob.X0), minlength=centres.shape[0])
        assert np.all(counts == 3)
        for c in range(q * q):
            P = prob.X0[cell(prob.X0) == c]
            assert abs(np.linalg.det(np.hstack([np.ones((3, 1)), P]))) > 0  # not collinear


# ----------------------------------------------------------------------------- monomials, cover
@pytest.mark.parametrize("l,d", [(0, 1), (2, 1), (1, 2), (3, 2), (2, 3)])
def test_monomial_exponents_count_and_content(l, d):
    import itertools
    exps = ch.monomial_exponents(l, d)
    brute = {v for v in itertools.product(range(l + 1), repeat=d) if sum(v) <= l}
    assert set(exps) == brute and len(exps) == len(brute) == math.comb(l + d, d)


def test_monomial_matrix_block_structure_and_singularity():
    q, l = 2.0, 1
    X = np.array([[0.1, 0.2], [0.4, 0.1], [0.3, 0.45], [0.9, 0.9], [0.6, 0.7], [0.8, 0.55],
                  [0.1, 0.7], [0.3, 0.9], [0.45, 0.6], [0.7, 0.1], [0.9, 0.3], [0.6, 0.4]])
    Phi = ch.monomial_matrix(X, q, l)
    assert Phi.shape == (12, 12)
    cell, _ = l1_cover(q, 2)
    idx = cell(X)
    for j, x in enumerate(X):  # phi_w(x_j) = 1{x_j in I} x_j^v, w <-> (I, v), graded order (1, x2, x1)
        col = np.zeros(12)
        col[idx[j] * 3:(idx[j] + 1) * 3] = [1.0, x[1], x[0]]
        assert np.allclose(Phi[:, j], col)
    assert np.linalg.matrix_rank(Phi) == 12
    X2 = X.copy()
    X2[0] = [0.9, 0.95]  # one cell now holds 2 samples, another 4: Phi is singular
    assert np.linalg.matrix_rank(ch.monomial_matrix(X2, q, l)) < 12


def test_cover_lattice_is_an_integer_step_function():
    q = np.linspace(1, 9, 161)
    cells, r = ch.cover_lattice(1, 2, q)
    assert np.array_equal(cells, np.ceil(q / 2).astype(int))  # independent closed form of the d = 1 cover
    assert np.array_equal(r, 3 * cells)
    cells2, r2 = ch.cover_lattice(2, 1, q)
    assert np.array_equal(cells2, np.ceil(q).astype(int) ** 2) and np.all(r2 % 3 == 0)


# ----------------------------------------------------------------------------- weights and bounds
def test_explicit_weights_against_the_inverse():
    rng = np.random.default_rng(0)
    G = rng.standard_normal((5, 5)) + 3 * np.eye(5)
    Gc = rng.standard_normal((9, 5))
    W = ch.explicit_weights(G, Gc)
    assert np.allclose(W, Gc @ np.linalg.inv(G), atol=1e-12)
    assert np.allclose(W @ G, Gc, atol=1e-12)
    S = np.ones((3, 3))  # singular: least squares, as the run does
    assert np.all(np.isfinite(ch.explicit_weights(S, np.ones((2, 3)))))


def test_eq59_rhs_exact_and_premise():
    eps, r, Ginv, B = 0.01, 4, 2.0, 3.0
    Fe, Fg, FB = Fraction(1, 100), Fraction(2), Fraction(3)
    exact = Fe * 2 * Fg + Fe * 8 * (FB + Fe) * Fg ** 2 / (1 - Fg * r * Fe)  # sqrt(4) = 2, 4^{3/2} = 8
    assert ch.eq59_rhs(eps, r, Ginv, B) == pytest.approx(float(exact), rel=1e-14)
    assert ch.eq59_rhs(0.2, 4, 2.0, 1.0) == math.inf  # ||G^-1|| r eps = 1.6 >= 1


def test_eq60_steps_groupings():
    kw = dict(eps=1e-3, r=3, B=2.0, Lw=5.0, Pn=4.0, res53=0.01, resP=0.02, resA=0.02, dist_aw=1e-3)
    Ginv = 9.0
    alpha = math.log(Ginv) / math.log(3)  # = 2: r^alpha = ||G^-1|| exactly
    c = ch.eq60_steps(Ginv=Ginv, alpha=alpha, **kw)
    p = ch.eq60_steps(Ginv=Ginv, alpha=alpha, grouping="printed", **kw)
    assert c["(vi)"] == pytest.approx(c["(vii)"], rel=1e-12)  # corrected (vi) = (vii) when r^alpha = ||G^-1||
    assert p["(vi)"] > c["(vii)"] * 1.5  # printed (vi) exceeds (vii): the step (vi) <= (vii) breaks
    # exact (viii) of (60): L2 r^{2a+2}/(l!q^eta) (2 + B + eps)^2 (1/(1 - eps r^{a+1}) + 1) with Fractions
    e = Fraction(1, 1000)
    R1, R2 = Fraction(3) ** 3, Fraction(3) ** 6
    viii = e * R2 * (2 + 2 + e) ** 2 * (1 / (1 - e * R1) + 1)
    assert c["(viii)"] == pytest.approx(float(viii), rel=1e-12)


# ----------------------------------------------------------------------------- the instrumented chain
def test_chain_on_a_kernel_run_is_consistent():
    prob = ch.make_kernel_problem(1, 1e-2, m=8, s=6, amp=10.0, beta=6.0, mu=0.5, seed=11)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c = ch.fedlrgd_chain(prob, prob.kernel, 2.0, S=15, seed=11)
    s = c.scalars
    assert s["r"] == 2 and s["D"] == 2 and s["n_cells"] == 1
    assert s["eps"] == pytest.approx(prob.kernel.L2 / (1 * 2.0 ** 2))
    assert np.all(c.err <= c.res53 * (1 + 1e-9) + 1e-15)  # (53) on the run's own error
    assert s["sup_err"] <= s["eps"] and s["interp57"] < 1e-12 and s["a_route_gap"] < 1e-10
    assert s["l1_max"] <= s["l1_bound"]
    # referee for Ginv: explicit inverse of G at the re-drawn nodes
    from fedtheory.random import as_generator
    nodes = as_generator(11).uniform(-1, 1, (2, 1))
    G = prob.kernel.matrix(prob.X0, nodes)
    assert s["Ginv"] == pytest.approx(np.linalg.norm(np.linalg.inv(G), 2), rel=1e-10)
    assert "chain(r=2" in c.summary()


def test_chain_on_the_logistic_cover():
    prob = ch.make_cover_logistic_problem(1, m=5, s=4, seed=2)
    fn = SoftLabelLogistic(eta=2.0, L2=1.0, d=2, p=1, i=0, mu=0.1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c = ch.fedlrgd_chain(prob, fn, 1.0, S=5, seed=2)
    assert c.scalars["B"] == pytest.approx(1 + 0.1 * c.scalars["R"])
    assert not c.scalars["premise59"] and c.steps == {}


def test_bad_input():
    with pytest.raises(ValueError, match=r"`l` must be in \[1, 6\]"):
        ch.PolyTanhKernel.of(0, 0.1)
    with pytest.raises(ValueError, match="`lam` must be in"):
        ch.make_kernel_problem(2, 0.0)
    with pytest.raises(ValueError, match="`lam` must be finite"):
        ch.make_kernel_problem(2, float("nan"))
    with pytest.raises(ValueError, match="`m` must be in"):
        ch.make_kernel_problem(2, 0.1, m=0)
    with pytest.raises(ValueError, match=r"`q` must be in \[1, 4\]"):
        ch.make_cover_logistic_problem(0)
    with pytest.raises(ValueError, match="`d` must be in"):
        ch.cover_lattice(3, 1, [1.0])
    prob = ch.make_kernel_problem(2, 0.01, m=3, s=2, seed=0)
    with pytest.raises(ValueError, match="`q` must give r = D"):
        ch.fedlrgd_chain(prob, prob.kernel, 4.0, S=3, seed=0)
    with pytest.raises(ValueError, match="`q` must be in"):
        ch.fedlrgd_chain(prob, prob.kernel, 0.5, S=3, seed=0)
    with pytest.raises(ValueError, match="`S` must be in"):
        ch.fedlrgd_chain(prob, prob.kernel, 2.0, S=0, seed=0)
    with pytest.raises(ValueError, match="`seed` must be an int or SeedSequence"):
        ch.fedlrgd_chain(prob, prob.kernel, 2.0, S=3, seed=np.random.default_rng(0))
    lp = ch.make_cover_logistic_problem(1, m=2, s=2)
    with pytest.raises(ValueError, match="p = 1"):
        ch.fedlrgd_chain(lp, SoftLabelLogistic(eta=2.0, L2=1.0, d=3, p=2, i=0), 1.0, S=2, seed=0)


def test_poly_tanh_kernel_of_keeps_mu_and_defaults():
    k = PolyTanhKernel.of(2, 0.01, beta=3.0, mu=0.5)
    assert k.mu == 0.5
    assert k.L1 == pytest.approx(0.5 + 3 * 3.0 + 0.01, abs=1e-12)  # mu + (l + 1) beta + lam, by hand
    prob = make_kernel_problem(mu=0.7, amp=2.0, seed=0)
    assert prob.kernel.mu == 0.7 and prob.mu == 0.7 and prob.kernel.amp == 2.0
    assert make_kernel_problem(seed=0).Xc.shape == (20, 10, 1)  # documented defaults m = 20, s = 10


def test_monomial_exponents_names_d():
    with pytest.raises(ValueError, match="`d` must be in"):
        monomial_exponents(1, 0)


def test_allocation_guards_use_the_true_sizes(monkeypatch):
    """With the array limit lowered to 1000 floats: Phi of 100 points, one cell, D = 21 (2100 entries) is refused;
    the d = 2, q = 10 cover (100 centres x 2 = 200 entries) is not."""
    import fedtheory._validation as V

    monkeypatch.setattr(V, "MAX_ARRAY_BYTES", 8 * 1000)
    with pytest.raises(ValueError, match=r"Phi .* would need"):
        monomial_matrix(np.linspace(0, 1, 100)[:, None], 2.0, 20)
    cells, r = cover_lattice(2, 1, [10.0])
    assert cells.tolist() == [100] and r.tolist() == [300]


def test_explicit_weights_one_by_one():
    """r = 1: w_j = g_j / G by hand."""
    np.testing.assert_allclose(explicit_weights(np.array([[2.0]]), np.array([[4.0], [1.0]])), [[2.0], [0.5]],
                               rtol=0, atol=0)


def test_eq59_eq60_validation_messages():
    with pytest.raises(ValueError, match=r"`Ginv` must be in .* \(an operator norm; inf for a singular G\)"):
        eq59_rhs(0.1, 2, -1.0, 1.0)
    kw = dict(eps=0.01, r=2, Ginv=1.0, B=1.0, alpha=1.0, Lw=0.0, Pn=0.0, res53=0.0, resP=0.0, resA=0.0, dist_aw=0.0)
    with pytest.raises(ValueError, match="`Lw` must be in"):
        eq60_steps(**{**kw, "Lw": -1.0})


def test_eq60_printed_step_vi_by_hand():
    """eps = 0.01, r = 2, ||G^-1|| = 1, B = 1: Fct = 1/(1 - 0.02) = 50/49,
    (vi) printed = 0.01 (1 + 2) + 1.01 (0.02 + 0.04 * 1.01) 50/49 = 0.03 + 1.01 * 0.0604 * 50/49."""
    kw = dict(eps=0.01, r=2, Ginv=1.0, B=1.0, alpha=1.0, Lw=0.0, Pn=0.0, res53=0.0, resP=0.0, resA=0.0, dist_aw=0.0)
    out = eq60_steps(grouping="printed", **kw)
    assert out["(vi)"] == pytest.approx(0.03 + 1.01 * 0.0604 * 50 / 49, rel=1e-12)
    # corrected grouping: 0.03 + 1.01 (0.02 + 0.0404 * 50/49)
    assert eq60_steps(**kw)["(vi)"] == pytest.approx(0.03 + 1.01 * (0.02 + 0.0404 * 50 / 49), rel=1e-12)


def test_chain_path_discrepancy_and_gap_alignment():
    prob = make_kernel_problem(seed=0)
    c = fedlrgd_chain(prob, prob.kernel, 2.0, S=10, seed=1)
    assert c.scalars["path_discrepancy"] < 1e-10
    assert c.gap.shape == (10,) and c.err.shape == (10,)
    run = run_fedlrgd(prob, S=10, seed=1)  # gap[gamma - 1] is F(theta_gamma) - F*, gamma = 1..S
    np.testing.assert_array_equal(c.gap, run.gap[1:])
    assert c.F0_gap == run.gap[0]


def test_chain_with_a_single_server_sample():
    """r = 1 (l = 0, one cell): alpha = 1 by definition (log r = 0 cannot be divided by)."""
    import warnings

    k = PolyTanhKernel(eta=1.0, L2=0.01, d=1, p=1, lam=0.01, beta=3.0, mu=0.1)
    Xc = np.random.default_rng(0).uniform(0, 1, (4, 3, 1))
    prob = KernelProblem(X0=np.array([[0.5]]), Xc=Xc, mu=0.1, kernel=k)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        c = fedlrgd_chain(prob, k, 1.0, S=5, seed=1)
    assert c.scalars["r"] == 1 and c.scalars["alpha"] == 1.0


# ---- validation once at the public entry
"""Theorem 2's proof chain on instrumented FedLRGD runs (fedtheory.lowrank.chain; Jadbabaie, Makur and Shah, IEEE
Trans. Inf. Theory 2023, Sec. V): (60) is evaluated at every iterate by one vectorised kernel call after the public
entry has validated the shared inputs once, and the covers of :func:`cover_lattice` are counted without
re-validating each ``q``; the values and messages are those of the iterate-by-iterate evaluation."""


import pytest



from fedtheory.testing import count_validation_calls as _count_checks  # noqa: E402


@pytest.fixture(scope="module")
def kernel_problem():
    return ch.make_kernel_problem(1, 1e-2, m=8, s=6, amp=10.0, beta=6.0, mu=0.5, seed=11)


def _chain(prob, S):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ch.fedlrgd_chain(prob, prob.kernel, 2.0, S=S, seed=11)


def test_chain_validation_calls_do_not_grow_with_the_iterates(kernel_problem, monkeypatch):
    counts = _count_checks(monkeypatch)
    per_S = []
    for S in (3, 12):
        counts.clear()
        res = _chain(kernel_problem, S)
        assert res.scalars["premise60"] and res.steps["(viii)"].shape == (S,)
        per_S.append(dict(counts))
    assert per_S[0] == per_S[1]


def test_chain_steps_equal_eq60_steps_at_every_iterate(kernel_problem, monkeypatch):
    seen = []
    series = ch._eq60_series
    monkeypatch.setattr(ch, "_eq60_series", lambda kw, cols, g: seen.append((kw, cols, g)) or series(kw, cols, g))
    res = _chain(kernel_problem, 15)
    assert [g for *_, g in seen] == ["corrected", "printed"]
    assert np.array_equal(res.steps["(53)"], res.res53) and res.steps["(53)"] is not res.res53
    for (kw, cols, grouping), steps in zip(seen, (res.steps, res.steps_printed)):
        for t in range(15):
            one = ch.eq60_steps(grouping=grouping, **kw, **{k: v[t] for k, v in cols.items()})
            assert one == {k: v[t] for k, v in steps.items()}


KW = dict(eps=1e-3, r=3, Ginv=5.0, B=50.0, alpha=1.2, Lw=1.5, dist_aw=0.1)  # Pn = 1e308 overflows step (iv)


def _cols(n=8, seed=0):
    g = np.random.default_rng(seed)
    return {k: g.uniform(0.0, 1.0, n) for k in ("Pn", "res53", "resP", "resA")}


@pytest.mark.parametrize("grouping", ["corrected", "printed"])
def test_eq60_series_is_eq60_steps_bitwise(grouping):
    cols = _cols()
    out = ch._eq60_series(KW, cols, grouping)
    for t in range(8):
        one = ch.eq60_steps(grouping=grouping, **KW, **{k: v[t] for k, v in cols.items()})
        assert {k: v[t] for k, v in out.items()} == one


@pytest.mark.parametrize("bad, t_first", [
    ({("Pn", 3): np.nan, ("resA", 5): -1.0}, 3),      # the first refused input
    ({("resP", 6): -1.0, ("Pn", 2): 1e308}, 2),       # a step that overflows comes before a later refused input
    ({("res53", 1): np.inf}, 1),
])
def test_eq60_series_raises_the_message_of_the_first_refused_iterate(bad, t_first):
    cols = _cols()
    for (k, t), v in bad.items():
        cols[k][t] = v
    with pytest.raises(ValueError) as expected:
        ch.eq60_steps(**KW, **{k: v[t_first] for k, v in cols.items()})
    with pytest.raises(ValueError) as got:
        ch._eq60_series(KW, cols, "corrected")
    assert str(got.value) == str(expected.value)


def test_eq60_series_checks_the_shared_inputs_once_at_the_entry():
    with pytest.raises(ValueError, match=r"premise of \(59\)"):
        ch._eq60_series(dict(KW, Ginv=500.0), _cols(), "corrected")
    with pytest.raises(ValueError, match="`Pn` must be in"):  # the first iterate's own inputs come before dist_aw
        ch._eq60_series(dict(KW, dist_aw=np.inf), dict(_cols(), Pn=-np.ones(8)), "corrected")


def test_cover_lattice_validation_calls_do_not_grow_with_the_grid(monkeypatch):
    counts = _count_checks(monkeypatch)
    per_grid = []
    for n in (3, 40):
        counts.clear()
        ch.cover_lattice(2, 1, np.linspace(0.5, 9.0, n))
        per_grid.append(dict(counts))
    assert per_grid[0] == per_grid[1]


@pytest.mark.parametrize("d", [1, 2])
def test_cover_lattice_counts_the_cells_of_l1_cover(d):
    q_grid = np.concatenate([np.linspace(0.1, 12.0, 37), [1.0, 2.0, 3.0, 4.0]])
    cells, r = ch.cover_lattice(d, 2, q_grid)
    assert cells.dtype == np.int64
    assert cells.tolist() == [l1_cover(float(q), d)[1].shape[0] for q in q_grid]
    assert np.array_equal(r, (3 if d == 1 else 6) * cells)
