"""Tests of :mod:`fedtheory.representation.structure`: the structural quantities of FedRep's Sec. 2.1 and 4.2
(Collins et al. 2021): alternating least squares and its envelope, the population round, bases at a given distance,
row incoherence, rank-1 isometry ranges and matrix-sensing residuals, with their validation."""
import math

import numpy as np
import pytest

from fedtheory.linalg import principal_angle_distance
from fedtheory.representation import fedrep_round, make_model
from fedtheory.representation.structure import (alternating_least_squares, basis_at_distance, population_fedrep_round,
                                                rank1_isometry_range, row_incoherence, sensing_residuals)


# ============================================================================ structure.py
def _truth(d=6, k=2, n=5, seed=0):
    g = np.random.default_rng(seed)
    Bs = np.linalg.qr(g.standard_normal((d, k)))[0]
    Ws = g.standard_normal((n, k))
    return Bs, Ws, g


def test_als_objective_hand_computed_and_default_iterations():
    """B* = e1, w* = (1, 2), B0 = (1, 1): the optimal heads leave residuals (1/2, -1/2) and (1, -1), so
    F = (1/(2*2)) (1/2 + 2) = 0.625 by hand; one sweep with k = 1 recovers col(B*) (F = 0)."""
    Bs = np.array([[1.0], [0.0]])
    Ws = np.array([[1.0], [2.0]])
    B0 = np.array([[1.0], [1.0]])
    B, W, obj = alternating_least_squares(Bs, Ws, B0, iters=1)
    assert obj.shape == (2,)
    assert obj[0] == pytest.approx(0.625, rel=1e-14)
    assert obj[1] < 1e-28
    np.testing.assert_allclose(W @ B.T, Ws @ Bs.T, atol=1e-14)
    # default number of sweeps: 200 (objective before the first sweep and after each one)
    assert alternating_least_squares(Bs, Ws, B0)[2].shape == (201,)


def test_als_objective_is_the_envelope_and_monotone():
    """Referee: F(B) = (1/2n) sum_i ||(I - P_B) theta_i||^2 from an explicit projector, re-evaluated at
    every returned iterate; alternating exact minimisation never increases F."""
    Bs, Ws, g = _truth(d=7, k=2, n=9, seed=3)
    B0 = g.standard_normal((7, 2))
    theta = Ws @ Bs.T
    P0 = B0 @ np.linalg.pinv(B0)
    F0 = 0.5 * np.sum(((np.eye(7) - P0) @ theta.T) ** 2) / 9
    B, W, obj = alternating_least_squares(Bs, Ws, B0, iters=3)
    assert obj[0] == pytest.approx(F0, rel=1e-10)
    assert np.all(np.diff(obj) <= 1e-15)
    P = B @ np.linalg.pinv(B)
    assert obj[-1] == pytest.approx(0.5 * np.sum(((np.eye(7) - P) @ theta.T) ** 2) / 9, rel=1e-8, abs=1e-30)
    # the returned heads are the optimal heads for the returned B
    for i in range(9):
        np.testing.assert_allclose(W[i], np.linalg.lstsq(B, theta[i], rcond=None)[0], atol=1e-10)


def test_als_stalls_at_a_hand_computed_value_from_an_orthogonal_start():
    """B* = (e1, e2), heads e1 and e2 (theta_1 = e1, theta_2 = e2), start B0 = (e1, e3): the heads for B0
    are (1, 0) and (0, 0), so the B step (minimum-norm least squares) gives B = (e1, 0), of rank 1; from
    then on col(B) = span(e1) and theta_2 = e2 is never fitted: F = (1/(2 * 2)) * 1 = 1/4 before and after
    every sweep (alternating minimisation cannot leave a start orthogonal to part of col(B*))."""
    e = np.eye(3)
    B, W, obj = alternating_least_squares(e[:, :2], np.eye(2), np.stack([e[0], e[2]], axis=1), iters=3)
    np.testing.assert_allclose(obj, [0.25, 0.25, 0.25, 0.25], rtol=1e-14)
    np.testing.assert_allclose(B, [[1.0, 0.0], [0.0, 0.0], [0.0, 0.0]], atol=1e-14)


def test_als_validation_edges():
    Bs, Ws, g = _truth()
    with pytest.raises(ValueError, match="`B0` must have full column rank"):
        alternating_least_squares(Bs, Ws, np.ones((6, 2)))          # rank 1 < k = 2
    alternating_least_squares(Bs, Ws, g.standard_normal((6, 2)), iters=1)   # iters = 1 allowed
    with pytest.raises(ValueError, match=r"`B0` must have shape \(6, 2\)"):
        alternating_least_squares(Bs, Ws, g.standard_normal((5, 2)))
    with pytest.raises(ValueError, match=r"`iters` must be in \[1, inf\)"):
        alternating_least_squares(Bs, Ws, g.standard_normal((6, 2)), iters=0)
    with pytest.raises(ValueError, match="`B_star` .* and `W_star` .* must share k"):
        alternating_least_squares(Bs, Ws[:, :1], g.standard_normal((6, 2)))


def _envelope_gradient(B, theta_i, h=1e-6):
    """Central finite differences of phi(B) = min_w (1/2)||B w - theta_i||^2 (residual of lstsq)."""
    def phi(Bm):
        w = np.linalg.lstsq(Bm, theta_i, rcond=None)[0]
        return 0.5 * float(np.sum((Bm @ w - theta_i) ** 2))
    G = np.zeros_like(B)
    for idx in np.ndindex(B.shape):
        E = np.zeros_like(B)
        E[idx] = h
        G[idx] = (phi(B + E) - phi(B - E)) / (2 * h)
    return G


@pytest.mark.parametrize("clients", [None, [0, 3], [4]])
def test_population_round_is_a_gradient_step_on_the_envelope(clients):
    """Referee: the averaged server step equals B - eta * mean_i grad phi_i(B), with phi_i the exact
    population loss after the head step (envelope theorem), differentiated numerically."""
    Bs, Ws, g = _truth(d=6, k=2, n=5, seed=7)
    B = np.linalg.qr(Bs + 0.5 * g.standard_normal((6, 2)))[0] * np.array([1.5, 0.7])   # not orthonormal
    eta = 0.3
    sel = range(5) if clients is None else clients
    grad = sum(_envelope_gradient(B, Bs @ Ws[i]) for i in sel) / len(list(sel))
    expect = B - eta * grad
    got = population_fedrep_round(B, Bs, Ws, eta, clients=clients, orthonormalize_B=False)
    np.testing.assert_allclose(got, expect, atol=1e-7)
    # default: the Q factor of that step (orthonormal, same column space, positive diag of R)
    Q = population_fedrep_round(B, Bs, Ws, eta, clients=clients)
    np.testing.assert_allclose(Q.T @ Q, np.eye(2), atol=1e-13)
    R = Q.T @ expect
    assert np.all(np.diag(R) > 0)
    np.testing.assert_allclose(Q @ R, expect, atol=1e-7)
    # a stack of two representations is the same as one at a time
    st = population_fedrep_round(np.stack([B, 2 * B]), Bs, Ws, eta, clients=clients, orthonormalize_B=False)
    np.testing.assert_allclose(st[0], got, atol=1e-12)
    np.testing.assert_allclose(st[1], population_fedrep_round(2 * B, Bs, Ws, eta, clients=clients,
                                                             orthonormalize_B=False), atol=1e-12)


def test_population_round_validation_edges():
    Bs, Ws, g = _truth(d=6, k=2, n=5)
    B = np.linalg.qr(g.standard_normal((6, 2)))[0]
    # the edge indices 0 and n - 1 are valid clients; -1, n, empty, 2-D or float indices are not
    population_fedrep_round(B, Bs, Ws, 0.1, clients=[0])
    population_fedrep_round(B, Bs, Ws, 0.1, clients=np.array([4], dtype=np.int32))
    for bad in ([5], [-1], [], [[0, 1]], [0.0, 1.0]):
        with pytest.raises(ValueError, match=r"`clients` must be a non-empty 1-D array of indices in \[0, 4\]"):
            population_fedrep_round(B, Bs, Ws, 0.1, clients=bad)
    for bad_B in (B[None, None], B[:5], np.where(np.eye(6, 2) > 0, np.nan, B), B[:, :1]):
        with pytest.raises(ValueError, match=r"`B` must be a finite \(6, 2\) matrix or a stack of them"):
            population_fedrep_round(bad_B, Bs, Ws, 0.1)
    with pytest.raises(ValueError, match="`eta`"):
        population_fedrep_round(B, Bs, Ws, 0.0)
    with pytest.raises(TypeError, match="`orthonormalize_B`"):
        population_fedrep_round(B, Bs, Ws, 0.1, orthonormalize_B="yes")
    # rank test is relative: a tiny but well-conditioned B is fine, two parallel columns are not
    population_fedrep_round(1e-120 * B, Bs, Ws, 0.1)
    with pytest.raises(ValueError, match="`B` must have full column rank k"):
        population_fedrep_round(np.stack([B, np.repeat(B[:, :1], 2, axis=1)]), Bs, Ws, 0.1)


def test_basis_at_distance_edges():
    """d = 2k is enough room; dist = 1 gives a basis orthogonal to col(B*); B* need not be orthonormal."""
    Bs, _, g = _truth(d=4, k=2)
    B = basis_at_distance(3 * Bs, 1.0, g)
    np.testing.assert_allclose(Bs.T @ B, 0, atol=1e-13)
    np.testing.assert_allclose(B.T @ B, np.eye(2), atol=1e-13)
    B = basis_at_distance(3 * Bs @ np.array([[1.0, 2.0], [0.0, 1.0]]), 0.5, g)
    np.testing.assert_allclose(B.T @ B, np.eye(2), atol=1e-13)
    # every principal angle is arcsin(dist): the singular values of B*^T B are all cos = sqrt(3)/2
    np.testing.assert_allclose(np.linalg.svd(Bs.T @ B, compute_uv=False), math.sqrt(3) / 2, atol=1e-13)
    with pytest.raises(ValueError, match="`B_star` must have d >= 2k rows"):
        basis_at_distance(Bs[:3], 0.5, g)
    with pytest.raises(TypeError, match="`rng`"):
        basis_at_distance(Bs, 0.5, None)


def test_row_incoherence_hand_value_and_validation():
    """M = diag(1, 2): row norms 1 and 2, ||M||_F = sqrt(5), mu = 2 sqrt(2) / sqrt(5)."""
    W = np.array([[1.0, 0.0], [0.0, 2.0]])
    assert row_incoherence(W, np.eye(2)) == pytest.approx(2 * math.sqrt(2) / math.sqrt(5), rel=1e-14)
    # n = 4 rows, d = 3 columns: one row (0, 0, 3) and three zero rows -> mu = 3 * 2 / 3 = sqrt(n) = 2
    W = np.zeros((4, 1))
    W[2, 0] = 3.0
    assert row_incoherence(W, np.array([[0.0], [0.0], [1.0]])) == pytest.approx(2.0, rel=1e-14)
    with pytest.raises(ValueError, match=r"`B_star` must have shape \(any, 2\)"):
        row_incoherence(np.ones((3, 2)), np.ones((4, 3)))
    with pytest.raises(ValueError, match="`W_star`"):
        row_incoherence(np.array([[1.0, np.nan]]), np.ones((4, 2)))
    with pytest.raises(ValueError, match="`W_star` B_star\\^T must be nonzero"):
        row_incoherence(np.ones((3, 2)), np.zeros((4, 2)))


def test_rank1_isometry_range_hand_value_and_rayleigh_quotients():
    """X_1 = diag(3, 1) (m = d = 2): X^T X / m = diag(4.5, 0.5). For random clients every Rayleigh
    quotient ||X_i v||^2 / (m ||v||^2) of 2000 random v lies in the range and its extremes approach it."""
    lo, hi = rank1_isometry_range(np.array([[[3.0, 0.0], [0.0, 1.0]]]))
    np.testing.assert_allclose([lo[0], hi[0]], [0.5, 4.5], rtol=1e-14)
    g = np.random.default_rng(11)
    X = g.standard_normal((3, 7, 2))
    lo, hi = rank1_isometry_range(X)
    ang = np.linspace(0, np.pi, 2001)
    V = np.stack([np.cos(ang), np.sin(ang)])                     # unit vectors in R^2
    for i in range(3):
        rq = np.sum((X[i] @ V) ** 2, axis=0) / 7
        assert rq.min() >= lo[i] - 1e-12 and rq.max() <= hi[i] + 1e-12
        assert rq.min() == pytest.approx(lo[i], rel=1e-5) and rq.max() == pytest.approx(hi[i], rel=1e-5)
    # m = 1 is admissible (lambda_max = ||x||^2, lambda_min = 0 for d >= 2)
    x = np.array([[[1.0, 2.0, 2.0]]])
    lo, hi = rank1_isometry_range(x)
    assert hi[0] == pytest.approx(9.0) and abs(lo[0]) < 1e-12
    for bad in (np.ones((2, 3)), np.ones((0, 2, 2)), np.full((1, 2, 2), np.inf)):
        with pytest.raises(ValueError, match=r"`X` must be a finite \(n, m, d\) array"):
            rank1_isometry_range(bad)


def test_sensing_residuals_equal_the_direct_residuals():
    """Referee: the direct residual x_ij^T (B* w_i* - B w_i) of sample j of client i, in a loop."""
    Bs, Ws, g = _truth(d=5, k=2, n=4, seed=2)
    B, W = g.standard_normal((5, 2)), g.standard_normal((4, 2))
    X = g.standard_normal((4, 3, 5))
    r = sensing_residuals(X, W, B, Ws, Bs)
    for i in range(4):
        for j in range(3):
            assert r[i, j] == pytest.approx(X[i, j] @ (Bs @ Ws[i]) - X[i, j] @ (B @ W[i]), abs=1e-12)


def test_sensing_residuals_validation_and_size_guard():
    Bs, Ws, g = _truth(d=5, k=2, n=4)
    X = g.standard_normal((4, 3, 5))
    with pytest.raises(ValueError, match=r"`X` must be a finite \(n, m, d\) array"):
        sensing_residuals(X[0], Ws, Bs, Ws, Bs)
    with pytest.raises(ValueError, match=r"`X` must be a finite \(n, m, d\) array"):
        sensing_residuals(np.where(X > 1, np.nan, X), Ws, Bs, Ws, Bs)
    with pytest.raises(ValueError, match=r"`B` must have shape \(5, 2\)"):
        sensing_residuals(X, Ws, Bs[:4], Ws, Bs)
    with pytest.raises(ValueError, match=r"`W` must have shape \(4, 2\)"):
        sensing_residuals(X, Ws[:3], Bs, Ws, Bs)
    with pytest.raises(ValueError, match=r"`X` must be \(n, m, d\) = \(4, m, 5\)"):
        sensing_residuals(X[:3], Ws, Bs, Ws, Bs)
    with pytest.raises(ValueError, match=r"`X` must be \(n, m, d\) = \(4, m, 5\)"):
        sensing_residuals(X[..., :4], Ws, Bs, Ws, Bs)
    # n^2 m d = 5e7 exactly is allowed, one more sample per client is not
    n, d, k = 50, 100, 1
    Bs1, Ws1 = np.ones((d, k)), np.ones((n, k))
    Xb = np.zeros((n, 200, d))
    assert sensing_residuals(Xb, Ws1, Bs1, Ws1, Bs1).shape == (n, 200)
    with pytest.raises(ValueError, match="`X` too large for explicit A_ij"):
        sensing_residuals(np.zeros((n, 201, d)), Ws1, Bs1, Ws1, Bs1)


# ---------------------------------------------------------------------------- more structure.py edges
def test_structure_names_the_ground_truth_and_dist():
    Bs, Ws, g = _truth(d=6, k=2, n=5)
    B = np.linalg.qr(g.standard_normal((6, 2)))[0]
    bad = Bs.copy()
    bad[0, 0] = np.nan
    with pytest.raises(ValueError, match="`B_star` must be finite"):
        population_fedrep_round(B, bad, Ws, 0.1)
    with pytest.raises(ValueError, match="`B_star` must be finite"):
        basis_at_distance(bad, 0.5, g)
    Wb = Ws.copy()
    Wb[1, 1] = np.inf
    with pytest.raises(ValueError, match="`W_star` must be finite"):
        population_fedrep_round(B, Bs, Wb, 0.1)
    with pytest.raises(ValueError, match=r"`W_star` must have shape \(any, any\)"):
        population_fedrep_round(B, Bs, Ws[0], 0.1)
    with pytest.raises(ValueError, match=r"`dist` must be in \[0, 1\]"):
        basis_at_distance(Bs, -0.5, g)


def test_population_round_rank_test_is_per_system():
    """The full-rank test is relative to each system of a stack: a well-conditioned B of scale 1e-10
    next to one of scale 1 is accepted, and its step matches the step computed on its own."""
    Bs, Ws, g = _truth(d=6, k=2, n=5, seed=4)
    B = np.linalg.qr(g.standard_normal((6, 2)))[0]
    st = population_fedrep_round(np.stack([B, 1e-10 * B]), Bs, Ws, 0.1, orthonormalize_B=False)
    np.testing.assert_allclose(st[1], population_fedrep_round(1e-10 * B, Bs, Ws, 0.1, orthonormalize_B=False),
                               rtol=1e-12)


# ----------------------------------------------------------------------------- library: structure.py
def test_basis_at_distance_is_exact():
    model = make_model(12, 3, 4, seed=1)
    rng = np.random.default_rng(2)
    for dist in (0.0, 0.3, 0.9, 1.0):
        B = basis_at_distance(model.B_star, dist, rng)
        assert np.allclose(B.T @ B, np.eye(3), atol=1e-13)
        assert abs(principal_angle_distance(B, model.B_star) - dist) < 1e-12


def test_population_round_is_the_large_batch_limit():
    """Referee: an exact finite-batch round (fedrep_round) with m = 40000 samples per client."""
    model = make_model(8, 2, 4, seed=3)
    rng = np.random.default_rng(4)
    B = basis_at_distance(model.B_star, 0.6, rng)
    m = 40_000
    X, y = model.sample(rng, np.arange(4), m)
    finite = fedrep_round(B, X, y, 0.125).B_next
    pop = population_fedrep_round(B, model.B_star, model.W_star, 0.125)
    assert np.max(np.abs(finite - pop)) < 20 / math.sqrt(m)
    # a stack is the same as one at a time; no QR keeps the column space of the QR version
    stack = population_fedrep_round(np.stack([B, B]), model.B_star, model.W_star, 0.125, orthonormalize_B=False)
    assert principal_angle_distance(stack[1], pop) < 1e-12


def test_als_and_incoherence_and_sensing():
    model = make_model(10, 2, 12, seed=5)
    B, W, obj = alternating_least_squares(model.B_star, model.W_star, np.random.default_rng(0).standard_normal((10, 2)), 5)
    assert obj[-1] < 1e-25 and principal_angle_distance(B, model.B_star) < 1e-10
    assert abs(row_incoherence(model.W_star, model.B_star) - 1) < 1e-12
    W1 = np.zeros((9, 2))
    W1[0] = 1.0
    assert abs(row_incoherence(W1, model.B_star) - 3.0) < 1e-12           # one nonzero row: sqrt(n)
    X = np.random.default_rng(1).standard_normal((12, 4, 10))
    lo, hi = rank1_isometry_range(X)
    assert np.all(np.abs(lo) < 1e-12) and np.all(hi > 1)                  # m < d: lambda_min = 0
    r = sensing_residuals(X, np.zeros((12, 2)), np.zeros((10, 2)), model.W_star, model.B_star)
    assert np.allclose(r, np.einsum("imd,id->im", X, model.theta_star), atol=1e-12)


@pytest.mark.parametrize("call, name", [
    (lambda: alternating_least_squares(np.eye(4)[:, :2], np.ones((3, 2)), np.zeros((4, 2))), "B0"),
    (lambda: alternating_least_squares(np.eye(4)[:, :2], np.ones((3, 3)), np.eye(4)[:, :2]), "W_star"),
    (lambda: alternating_least_squares(np.eye(4)[:, :2], np.ones((3, 2)), np.eye(4)[:, :2], iters=0), "iters"),
    (lambda: population_fedrep_round(np.eye(4)[:, :2], np.eye(4)[:, :2], np.ones((3, 2)), -1.0), "eta"),
    (lambda: population_fedrep_round(np.zeros((4, 2)), np.eye(4)[:, :2], np.ones((3, 2)), 0.1), "B"),
    (lambda: population_fedrep_round(np.eye(4)[:, :2], np.eye(4)[:, :2], np.ones((3, 2)), 0.1, clients=[5]),
     "clients"),
    (lambda: basis_at_distance(np.eye(3)[:, :2], 0.5, np.random.default_rng(0)), "B_star"),
    (lambda: basis_at_distance(np.eye(4)[:, :2], 1.5, np.random.default_rng(0)), "dist"),
    (lambda: row_incoherence(np.zeros((3, 2)), np.eye(4)[:, :2]), "W_star"),
    (lambda: rank1_isometry_range(np.ones((3, 4))), "X"),
    (lambda: sensing_residuals(np.ones((3, 2, 4)), np.ones((2, 2)), np.ones((4, 2)), np.ones((3, 2)),
                               np.ones((4, 2))), "W"),
])
def test_structure_validation(call, name):
    with pytest.raises(ValueError, match=f"`{name}`"):
        call()


def test_basis_at_distance_needs_a_generator():
    with pytest.raises(TypeError, match="`rng`"):
        basis_at_distance(np.eye(4)[:, :2], 0.5, 3)
