import warnings

import numpy as np
import pytest
import scipy.linalg
from hypothesis import given, settings
from hypothesis import strategies as st

from fedtheory import IllConditionedWarning, principal_angle_distance
from fedtheory.linalg import batched_solve, orthonormalize, principal_angle_distance_def1


@settings(max_examples=60, deadline=None)
@given(d=st.integers(2, 9), k=st.integers(1, 4), seed=st.integers(0, 2**31 - 1))
def test_dist_matches_scipy_subspace_angles(d, k, seed):
    k = min(k, d)
    rng = np.random.default_rng(seed)
    B1, B2 = rng.standard_normal((2, d, k))
    expected = np.sin(scipy.linalg.subspace_angles(B1, B2).max())
    assert principal_angle_distance(B1, B2) == pytest.approx(expected, abs=1e-10)
    assert principal_angle_distance_def1(B1, B2) == pytest.approx(expected, abs=1e-10)


def test_dist_stack_and_invariance():
    rng = np.random.default_rng(1)
    B1 = rng.standard_normal((5, 7, 3))
    B2 = rng.standard_normal((5, 7, 3))
    out = principal_angle_distance(B1, B2)
    assert out.shape == (5,)
    brute = [np.sin(scipy.linalg.subspace_angles(a, b).max()) for a, b in zip(B1, B2)]
    np.testing.assert_allclose(out, brute, atol=1e-12)
    Q = rng.standard_normal((3, 3)) + 3 * np.eye(3)
    np.testing.assert_allclose(principal_angle_distance(B1 @ Q, B2), out, atol=1e-12)
    # broadcasting a single B2 against a stack
    np.testing.assert_allclose(principal_angle_distance(B1, B2[0]),
                               [principal_angle_distance(b, B2[0]) for b in B1], atol=1e-14)


def test_dist_known_values():
    e = np.eye(4)
    assert principal_angle_distance(e[:, :2], e[:, :2]) == pytest.approx(0, abs=1e-15)
    assert principal_angle_distance(e[:, :2], e[:, 2:]) == pytest.approx(1)
    v = (e[:, 0] + e[:, 2])[:, None]
    assert principal_angle_distance(e[:, :1], v) == pytest.approx(np.sqrt(0.5))


def test_dist_validation():
    with pytest.raises(ValueError, match="tall"):
        principal_angle_distance(np.ones((2, 3)), np.ones((2, 3)))
    with pytest.raises(ValueError, match="same number of rows"):
        principal_angle_distance(np.ones((4, 1)), np.ones((5, 1)))


def test_orthonormalize_unique_sign():
    rng = np.random.default_rng(2)
    B = rng.standard_normal((6, 3))
    Q = orthonormalize(B)
    np.testing.assert_allclose(Q.T @ Q, np.eye(3), atol=1e-13)
    R = Q.T @ B
    assert np.all(np.diag(R) > 0)


def test_batched_solve_fallback_warns_and_is_finite():
    A = np.stack([np.eye(2), np.array([[1.0, 1.0], [1.0, 1.0]])])
    b = np.array([[1.0, 2.0], [2.0, 2.0]])
    with pytest.warns(IllConditionedWarning, match="1 ill-conditioned"):
        x = batched_solve(A, b, symmetric=True)
    assert np.all(np.isfinite(x))
    np.testing.assert_allclose(x[0], [1, 2])
    np.testing.assert_allclose(x[1], np.linalg.pinv(A[1]) @ b[1])  # minimum-norm solution
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        batched_solve(A[:1], b[:1])  # well-conditioned: no warning


def test_cholesky_certificate_is_sound_and_the_solve_unchanged():
    """``_spd_certified`` (det / trace^p bound) never certifies a system the exact eigvalsh test
    rejects, over Gram stacks with condition numbers from 1 to 1e16 and p from 1 to 12; and
    ``batched_solve``'s ill-conditioned mask equals the exact test's."""
    from fedtheory.linalg import _ill_conditioned, _spd_certified

    rng = np.random.default_rng(0)
    for p in (1, 2, 5, 12):
        Q = np.linalg.qr(rng.standard_normal((400, p, p)))[0]
        logc = rng.uniform(0, 16, size=400)
        ev = np.exp(-np.linspace(0, 1, p)[None, :] * logc[:, None] * np.log(10)) * 10.0 ** rng.uniform(-3, 3, (400, 1))
        G = (Q * ev[:, None, :]) @ np.swapaxes(Q, -1, -2)
        G = 0.5 * (G + np.swapaxes(G, -1, -2))
        exact = np.abs(np.linalg.eigvalsh(G))
        ratio = exact.min(-1) / exact.max(-1)
        for rcond in (1e-10, 1e-6, 0.0):
            cert = _spd_certified(G, rcond)
            assert not np.any(cert & ~(ratio > rcond)), (p, rcond)
            np.testing.assert_array_equal(_ill_conditioned(G, rcond, True), ~(ratio > rcond))
        if p <= 5:  # the bound is tight enough to certify the well-conditioned majority
            assert cert[ratio > 1e-3].mean() > 0.5
    # an indefinite or singular member sends the whole stack to the exact test
    G = np.stack([np.eye(3), np.diag([1.0, -1.0, 1.0]), np.zeros((3, 3))])
    assert not _spd_certified(G, 1e-10).any()
    np.testing.assert_array_equal(_ill_conditioned(G, 1e-10, True), [False, False, True])
