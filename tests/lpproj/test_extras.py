"""Tests of :mod:`fedtheory.lpproj.extras`: the projected envelope, quadratic conjugates, pFedMe's general solution
(eq. (34) of Han et al. 2024), the block-diagonal projection of Sec. 6.1 and the layer parameter counts of Table 3."""
import math

import numpy as np
import pytest

from fedtheory.lpproj import make_projection
from fedtheory.lpproj import extras as EX
from fedtheory.lpproj.extras import (BlockDiagonalCost, block_diagonal_cost, block_diagonal_projection,
                                     layer_parameter_count, pfedme_general_solution, projected_envelope,
                                     quadratic_conjugate)


# ----------------------------------------------------------------------------- library functions
def _quad(rng, d):
    A = rng.standard_normal((d, d))
    return A @ A.T + 0.5 * np.eye(d), rng.standard_normal(d)


def test_projected_envelope_matches_brute_force_minimisation():
    from scipy.optimize import minimize

    rng = np.random.default_rng(0)
    H, g = _quad(rng, 5)
    P = make_projection(2, 5, orthonormal=False, seed=1)
    lam = 1.7
    w = rng.standard_normal((3, 2))
    F, x = projected_envelope(H, g, P, lam, w)
    assert F.shape == (3,) and x.shape == (3, 5)
    for i in range(3):
        obj = lambda z: 0.5 * z @ H @ z - g @ z + lam / 2 * np.sum((w[i] - P @ z) ** 2)  # noqa: E731
        res = minimize(obj, np.zeros(5), method="BFGS", options={"gtol": 1e-10})
        assert F[i] == pytest.approx(res.fun, rel=1e-8, abs=1e-10)
        np.testing.assert_allclose(x[i], res.x, atol=1e-5)


def test_quadratic_conjugate_matches_numerical_sup():
    from scipy.optimize import minimize

    rng = np.random.default_rng(1)
    H, g = _quad(rng, 4)
    u = rng.standard_normal(4)
    res = minimize(lambda x: -(u @ x - 0.5 * x @ H @ x + g @ x), np.zeros(4), method="BFGS",
                   options={"gtol": 1e-10})
    assert float(quadratic_conjugate(H, g, u)) == pytest.approx(-res.fun, rel=1e-8)
    assert quadratic_conjugate(H, g, np.zeros((2, 3, 4))).shape == (2, 3)


def test_pfedme_general_solution_is_a_stationary_point_of_the_joint_objective():
    rng = np.random.default_rng(2)
    N, n, d, lam = 4, 9, 3, 0.8
    Xi = rng.standard_normal((N, n, d))
    y = rng.standard_normal((N, n))
    w, x = pfedme_general_solution(Xi, y, lam)
    # gradient of (1/N) sum_k [||Xi_k x_k - y_k||^2/(2n) + lam/2 ||w - x_k||^2] vanishes at (w, x)
    gx = np.einsum("kni,kn->ki", Xi, np.einsum("kni,ki->kn", Xi, x) - y) / n - lam * (w - x)
    gw = lam * np.sum(w - x, 0)
    assert np.max(np.abs(gx)) < 1e-12 and np.max(np.abs(gw)) < 1e-12
    # orthogonal designs with Xi^T Xi = n b I: the simple average of the local least-squares estimates
    Q = np.linalg.qr(rng.standard_normal((N, n, d)))[0] * math.sqrt(n * 2.0)
    w2, _ = pfedme_general_solution(Q, y, lam)
    w_hat = np.stack([np.linalg.lstsq(Q[k], y[k], rcond=None)[0] for k in range(N)])
    np.testing.assert_allclose(w2, w_hat.mean(0), atol=1e-12)


def test_block_diagonal_projection_structure_and_cost():
    P = block_diagonal_projection(6, 12, 3, seed=4)
    assert P.shape == (6, 12)
    np.testing.assert_allclose(np.linalg.norm(P, axis=1), 1.0)
    mask = np.kron(np.eye(3), np.ones((2, 4))).astype(bool)
    assert np.all(P[~mask] == 0) and np.all(P[mask] != 0)
    c = block_diagonal_cost(6, 12, 3)
    assert isinstance(c, BlockDiagonalCost)
    assert c.stored_entries == np.count_nonzero(P) == 24 and c.multiply_adds == 24 and c.printed_storage == 8
    assert "24 stored entries" in c.summary()
    np.testing.assert_allclose(block_diagonal_projection(6, 12, 1, seed=0),
                               make_projection(6, 12, orthonormal=False, seed=0))


def test_layer_parameter_count_against_array_sizes():
    rng = np.random.default_rng(0)
    assert layer_parameter_count("linear", 784, 100) == rng.standard_normal((100, 784)).size + 100
    assert layer_parameter_count("conv", 3, 6, 5) == np.zeros((6, 3, 5, 5)).size + 6
    assert layer_parameter_count("conv", 3, 6, 5, bias=False) == 450
    assert layer_parameter_count("batchnorm", 64, 64) == 128


@pytest.mark.parametrize("call, match", [
    (lambda: block_diagonal_projection(6, 12, 4), "`k` must divide both d_sub and d"),
    (lambda: block_diagonal_projection(6, 12, 0), "`k` must"),
    (lambda: block_diagonal_projection(13, 12, 1), "`d_sub` must"),
    (lambda: block_diagonal_cost(5, 12, 5), "`k` must divide"),
    (lambda: layer_parameter_count("pool", 1, 1), "`kind`"),
    (lambda: layer_parameter_count("linear", 0, 3), "`n_in` must"),
    (lambda: projected_envelope(np.eye(3), np.zeros(3), np.eye(3)[:2], 0.0, np.zeros(2)), "`lam` must"),
    (lambda: projected_envelope(np.eye(3), np.zeros(3), np.eye(3)[:2], 1.0, np.zeros(3)), "`w` must have last"),
    (lambda: projected_envelope(np.eye(3), np.zeros(2), np.eye(3)[:2], 1.0, np.zeros(2)), "`g` must have shape"),
    (lambda: quadratic_conjugate(np.eye(3), np.zeros(3), np.full(3, np.nan)), "`u` must be finite"),
    (lambda: quadratic_conjugate(np.ones((2, 3)), np.zeros(3), np.zeros(3)), "`H` must be a square"),
    (lambda: pfedme_general_solution(np.zeros((2, 3, 2)), np.zeros((2, 4)), 1.0), "`y` must have shape"),
    (lambda: pfedme_general_solution(np.ones((2, 3, 2)), np.zeros((2, 3)), -1.0), "`lam` must"),
])
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize("call, match", [
    (lambda: EX.projected_envelope(np.ones((2, 3)), np.zeros(3), np.eye(3)[:2], 1.0, np.zeros(2)), "`H` must be a square"),
    (lambda: EX.quadratic_conjugate(np.stack([np.eye(2)] * 2), np.zeros(2), np.zeros(2)), "`H` must be a d x d matrix"),
    (lambda: EX.quadratic_conjugate(np.eye(2), np.zeros(3), np.zeros(2)), "`g`"),
    (lambda: EX.pfedme_general_solution(np.ones((3, 2)), np.ones((3, 2)), 1.0), "`Xi`"),
    (lambda: EX.pfedme_general_solution(np.ones((2, 3, 2)), np.zeros((2, 3)), 0.0), "`lam`"),
    (lambda: EX.block_diagonal_projection(2, 0, 1), "`d`"),
    (lambda: EX.block_diagonal_projection(13, 12, 1), r"d_sub <= d"),
    (lambda: EX.block_diagonal_projection(2, 12, 4), r"k <= d_sub"),
    (lambda: EX.block_diagonal_projection(10 ** 5, 10 ** 5, 1), r"the d_sub x d projection .*`d_sub`=100000"),
    (lambda: EX.block_diagonal_cost(0, 4, 1), "`d_sub`"),
    (lambda: EX.block_diagonal_cost(4, 4, 0), "`k`"),
    (lambda: EX.layer_parameter_count("linear", 3, 0), "`n_out`"),
    (lambda: EX.layer_parameter_count("conv", 3, 4, 0), "`kernel`"),
])
def test_extras_validation_names_the_parameter(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_quadratic_conjugate_on_a_stack_of_points_against_numerical_sup():
    from scipy.optimize import minimize

    H = np.array([[2.0, 0.3], [0.3, 1.0]])
    g = np.array([0.5, -1.0])
    u = np.random.default_rng(0).standard_normal((3, 2, 2))
    out = EX.quadratic_conjugate(H, g, u)
    assert out.shape == (3, 2)
    for i in range(3):
        for j in range(2):
            ref = -minimize(lambda x: -(u[i, j] @ x - (x @ H @ x / 2 - g @ x)), np.zeros(2), tol=1e-12).fun
            assert out[i, j] == pytest.approx(ref, rel=1e-7)


def test_block_diagonal_cost_edges_and_dense_count():
    c = EX.block_diagonal_cost(6, 12, 3)
    assert c.dense_entries == np.zeros((6, 12)).size == 72
    one = EX.block_diagonal_cost(1, 4, 1)  # d_sub = 1 is admissible
    assert one.stored_entries == np.count_nonzero(EX.block_diagonal_projection(1, 4, 1)) == 4


def test_layer_parameter_count_linear_ignores_the_kernel():
    assert EX.layer_parameter_count("linear", 4, 5, 3) == np.zeros((5, 4)).size + 5


def test_extras_overflow_messages_defaults_and_edges():
    with np.errstate(all="ignore"):
        with pytest.raises(ValueError, match=r"^the envelope overflows.*`H`, `g`, `P`, `w`, `lam`=1.0$"):
            EX.projected_envelope(np.eye(2), np.full(2, 1e300), np.eye(2), 1.0, np.zeros(2))
        with pytest.raises(ValueError, match=r"^the conjugate overflows.*`H`, `g`, `u`$"):
            EX.quadratic_conjugate(1e-300 * np.eye(2), np.zeros(2), np.full(2, 1e300))
        with pytest.raises(ValueError, match=r"^the pFedMe solution overflows.*`Xi`, `y`, `lam`=1.0$"):
            EX.pfedme_general_solution(np.ones((2, 3, 2)) + np.arange(6).reshape(1, 3, 2), np.full((2, 3), 1.7e308), 1.0)
    with pytest.raises(ValueError, match=r"`P` must have shape \(any, 2\)"):
        EX.projected_envelope(np.eye(2), np.zeros(2), np.ones(3), 1.0, np.zeros(1))
    with pytest.raises(ValueError, match="`w` must be finite"):
        EX.projected_envelope(np.eye(2), np.zeros(2), np.eye(2), 1.0, np.full(2, np.nan))
    np.testing.assert_array_equal(EX.block_diagonal_projection(4, 8, 2), EX.block_diagonal_projection(4, 8, 2, seed=0))
    with pytest.raises(ValueError, match="`d_sub`"):
        EX.block_diagonal_projection(0, 8, 1)
    with pytest.raises(ValueError, match=r"`d_sub` must be in \[1, 4\] \(d_sub <= d"):
        EX.block_diagonal_cost(5, 4, 1)
    with pytest.raises(ValueError, match=r"k <= d_sub, d_sub=4"):
        EX.block_diagonal_cost(4, 4, 5)
    assert EX.layer_parameter_count("linear", 1, 2) == np.zeros((2, 1)).size + 2  # n_in = 1 is admissible
    assert EX.block_diagonal_cost(6, 12, 3).summary().startswith("k=3 blocks of 2x4:")
