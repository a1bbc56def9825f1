"""Tests of :mod:`fedtheory.linalg`: the principal-angle distance (Definition 1 of FedRep), orthonormalisation,
orthogonal complements, Haar draws, batched and SPD solves with their Cholesky certificate and least-squares
fallback, input errors and BLAS thread limits."""
import os
import warnings

import numpy as np
import pytest
import scipy.linalg
from hypothesis import given, settings
from hypothesis import strategies as st

from fedtheory import linalg
from fedtheory._warnings import IllConditionedWarning
from fedtheory.linalg import (_ill_conditioned, _solve_spd, _spd_certified, batched_solve, blas_single_thread,
                              orthogonal_complement, orthonormalize, principal_angle_distance,
                              principal_angle_distance_def1, random_orthonormal)


# --------------------------------------------------------------------------- input checks
def test_input_errors_name_the_argument():
    with pytest.raises(ValueError, match=r"`B1` must be a matrix or a stack of matrices \(ndim >= 2\)"):
        principal_angle_distance(np.ones(3), np.ones((3, 1)))
    with pytest.raises(ValueError, match="`B2` must be tall"):
        principal_angle_distance(np.ones((3, 1)), np.ones((3, 4)))
    with pytest.raises(ValueError, match="`B` must be finite"):
        orthonormalize(np.array([[1.0], [np.nan]]))
    with pytest.raises(ValueError, match="`B` must be tall"):
        orthogonal_complement(np.ones((2, 3)))
    with pytest.raises(ValueError, match="same number of rows"):
        principal_angle_distance(np.ones((3, 1)), np.ones((4, 1)))


def test_wide_stack_is_rejected_and_square_is_allowed():
    with pytest.raises(ValueError, match="`B` must be tall"):
        orthonormalize(np.ones((4, 2, 3)))  # a stack of 2 x 3 (wide) matrices
    np.testing.assert_allclose(orthonormalize(2 * np.eye(3)), np.eye(3))  # k = d is allowed


# --------------------------------------------------------------------------- QR conventions
def test_orthonormalize_zero_column_keeps_unit_norm_and_positive_diagonal():
    B = np.array([[1.0, 0.0], [2.0, 0.0], [0.0, 0.0]])  # rank 1: R[1, 1] = 0 exactly
    Q = orthonormalize(B)
    np.testing.assert_allclose(Q.T @ Q, np.eye(2), atol=1e-14)
    R = Q.T @ B
    assert np.all(np.diag(R) >= -1e-14)
    np.testing.assert_allclose(Q @ R, B, atol=1e-14)


def test_orthonormalize_stack_matches_loop_of_numpy_qr_with_positive_diagonal():
    rng = np.random.default_rng(0)
    B = rng.standard_normal((2, 3, 5, 2))
    Q = orthonormalize(B)
    for i in range(2):
        for j in range(3):
            q, r = np.linalg.qr(B[i, j])
            sg = np.sign(np.diag(r))
            np.testing.assert_allclose(Q[i, j], q * sg, atol=1e-13)


def test_orthogonal_complement_of_a_stack():
    rng = np.random.default_rng(1)
    B = rng.standard_normal((3, 5, 2))
    C = orthogonal_complement(B)
    assert C.shape == (3, 5, 3)
    for i in range(3):
        np.testing.assert_allclose(C[i].T @ C[i], np.eye(3), atol=1e-13)
        np.testing.assert_allclose(C[i].T @ B[i], 0, atol=1e-13)


def test_distance_is_a_float_and_never_above_one():
    e1 = np.array([[1.0], [0.0], [0.0]])
    v = np.array([[0.0], [1.0], [22.0]])  # normalised v has 2-norm 1 + 2.2e-16 in floating point
    out = principal_angle_distance(e1, v)
    assert type(out) is float and out == 1.0
    B1, B2 = np.eye(4)[:, :2], np.eye(4)[:, 1:3]
    assert principal_angle_distance(B1, B2) == pytest.approx(1.0)
    # Definition 1 with k = 2: the spectral norm (the Frobenius norm would be sqrt(2))
    B2 = np.eye(4)[:, 2:]
    assert principal_angle_distance_def1(B1, B2) == pytest.approx(1.0, abs=1e-14)
    a = np.array([[1.0, 0], [0, 1], [0, 1], [0, 0]])
    assert principal_angle_distance_def1(np.eye(4)[:, :2], a) == pytest.approx(np.sqrt(0.5), abs=1e-14)


def test_random_orthonormal_is_haar_with_positive_qr_convention():
    rng = np.random.default_rng(5)
    ref = np.random.default_rng(5)
    B = random_orthonormal(rng, 4, 2, size=(3,))
    assert B.shape == (3, 4, 2)
    G = ref.standard_normal((3, 4, 2))
    for i in range(3):
        q, r = np.linalg.qr(G[i])
        np.testing.assert_allclose(B[i], q * np.sign(np.diag(r)), atol=1e-13)
    # Haar: every entry has mean 0 and variance 1/d
    X = random_orthonormal(np.random.default_rng(0), 5, 2, size=(4000,))
    assert abs(X[:, 0, 0].mean()) < 4 * np.sqrt(0.2 / 4000)
    assert np.mean(X[:, 2, 1] ** 2) == pytest.approx(0.2, abs=4 * 0.2 * np.sqrt(2 / 4000))


# --------------------------------------------------------------------------- batched_solve
def _no_warnings():
    ctx = warnings.catch_warnings()
    ctx.__enter__()
    warnings.simplefilter("error")
    return ctx


def test_batched_solve_well_conditioned_systems_do_not_warn():
    ctx = _no_warnings()
    try:
        # non-symmetric, well conditioned (its symmetrised lower triangle [[1,1],[1,1]] is singular)
        A = np.array([[1.0, 0.0], [1.0, 1.0]])
        np.testing.assert_allclose(batched_solve(A, np.array([1.0, 3.0])), [1.0, 2.0], atol=1e-15)
        # scale must not matter: 1e-12 I is perfectly conditioned, next to I, with one and two batch axes
        A = np.stack([1e-12 * np.eye(3), np.eye(3)])
        for sym in (False, True):
            x = batched_solve(A, np.ones((2, 3)), symmetric=sym)
            np.testing.assert_allclose(x, [[1e12] * 3, [1.0] * 3], rtol=1e-12)
        A2 = np.stack([np.stack([s * np.eye(2) for s in (1e-12, 1.0, 1e12)])] * 2)  # (2, 3, 2, 2)
        for sym in (False, True):
            x = batched_solve(A2, np.ones((2, 3, 2)), symmetric=sym)
            np.testing.assert_allclose(x[1], [[1e12] * 2, [1.0] * 2, [1e-12] * 2], rtol=1e-12)
    finally:
        ctx.__exit__(None, None, None)


def _solve_loop(A, b):
    """Reference: per system, numpy.linalg.solve if sigma_min/sigma_max > 1e-10, else minimum-norm lstsq."""
    sv = np.linalg.svd(A, compute_uv=False)
    if sv[0] > 0 and sv[-1] / sv[0] > 1e-10:
        return np.linalg.solve(A, b)
    return np.linalg.lstsq(A, b, rcond=None)[0]


@pytest.mark.parametrize("sym", [False, True])
def test_batched_solve_ill_conditioned_stack_falls_back_to_lstsq(sym):
    rng = np.random.default_rng(3)
    good = rng.standard_normal((3, 3))
    good = good @ good.T + np.eye(3)
    A = np.stack([good, np.diag([1.0, 1e-11, 1e-11]), np.diag([1.0, 1.0, 1e-11]), np.zeros((3, 3)),
                  np.diag([1.0, 0.5, 0.5])])
    # two batch axes, matrix right-hand side with q != p, and a vector right-hand side broadcast over A
    AA = np.stack([A, A[::-1]])  # (2, 5, 3, 3)
    bm = rng.standard_normal((2, 5, 3, 2))
    with pytest.warns(IllConditionedWarning) as rec:
        x = batched_solve(AA, bm, symmetric=sym)
    assert x.shape == (2, 5, 3, 2)
    for i in range(2):
        for j in range(5):
            np.testing.assert_allclose(x[i, j], _solve_loop(AA[i, j], bm[i, j]), atol=1e-12)
    msg = str(rec[0].message)
    assert msg.startswith("6 ill-conditioned linear system(s) (sigma_min/sigma_max <= 1e-10)")
    assert msg.endswith("solved by least squares (minimum-norm) instead")
    # stacklevel=2: attributed to the caller (this file; one wrapper frame around batched_solve, a validation
    # decorator in fedtheory/_validation.py or mutmut's trampoline, shifts it to the wrapper), never to
    # linalg.py or to pytest's internals
    assert os.path.basename(rec[0].filename) in ("test_linalg.py", "_validation.py", "trampoline.py"), \
        rec[0].filename
    bv = rng.standard_normal((1, 3))  # one right-hand side broadcast over the stack
    with pytest.warns(IllConditionedWarning, match="3 ill-conditioned head solve"):
        xv = batched_solve(A, bv, what="head solve", symmetric=sym)
    assert xv.shape == (5, 3)
    for j in range(5):
        np.testing.assert_allclose(xv[j], _solve_loop(A[j], bv[0]), atol=1e-12)
    # one ill-conditioned system, a stack of right-hand sides (5, p, q): the result broadcasts over b
    bst = rng.standard_normal((5, 3, 2))
    with pytest.warns(IllConditionedWarning):
        xst = batched_solve(A[1], bst, symmetric=sym)
    assert xst.shape == (5, 3, 2)
    for j in range(5):
        np.testing.assert_allclose(xst[j], np.linalg.lstsq(A[1], bst[j], rcond=None)[0], atol=1e-12)
    # one system, a matrix of right-hand sides (p x q)
    bs = rng.standard_normal((3, 4))
    with pytest.warns(IllConditionedWarning):
        xs = batched_solve(A[1], bs, symmetric=sym)
    np.testing.assert_allclose(xs, np.linalg.lstsq(A[1], bs, rcond=None)[0], atol=1e-12)


def test_batched_solve_threshold_is_strict_and_zero_matrix_does_not_divide_by_zero():
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        with pytest.warns(IllConditionedWarning, match="1 ill-conditioned"):
            x = batched_solve(np.diag([1.0, 0.5]), np.array([1.0, 1.0]), rcond=0.5)  # ratio == rcond: bad
        np.testing.assert_allclose(x, [1.0, 2.0])
        with pytest.warns(IllConditionedWarning):
            z = batched_solve(np.zeros((2, 2)), np.array([1.0, 1.0]))
        np.testing.assert_array_equal(z, [0.0, 0.0])


def test_blas_single_thread_limits_blas_only(monkeypatch):
    from threadpoolctl import threadpool_info, threadpool_limits

    monkeypatch.setattr(linalg, "_CONTROLLER", None)
    with threadpool_limits(limits=2):
        before = {(i["user_api"], i["filepath"]): i["num_threads"] for i in threadpool_info()}
        with blas_single_thread():
            inside = threadpool_info()
        assert linalg._CONTROLLER is not None
    blas = [i for i in inside if i["user_api"] == "blas"]
    assert all(i["num_threads"] == 1 for i in blas)
    for i in inside:
        if i["user_api"] != "blas":
            assert i["num_threads"] == before[(i["user_api"], i["filepath"])]


# --------------------------------------------------------------------------- re-measured 120-sample of
# linalg.py (current file): parameter names and whole messages of the validators.
def test_linalg_current_sample_messages():
    from fedtheory.linalg import principal_angle_distance_def1, random_orthonormal

    e = np.eye(3)[:, :1]
    with pytest.raises(ValueError, match=r"^`B2`"):
        principal_angle_distance_def1(e, np.full((3, 1), np.nan))
    with pytest.raises(ValueError, match=r"^`B1` and `B2` must be single matrices"):
        principal_angle_distance_def1(e, np.ones((3, 3, 1)))  # B1 a matrix, B2 a stack of as many matrices as d
    rng = np.random.default_rng(0)
    with pytest.raises(TypeError, match=r"^`rng`"):
        random_orthonormal("rng", 3, 1)
    with pytest.raises(ValueError, match=r"^`k` must be in \[1, 3\]"):
        random_orthonormal(rng, 3, 5)
    with pytest.raises(ValueError, match=r"^`size` must be"):
        random_orthonormal(rng, 3, 1, size=(-1,))
    with pytest.raises(ValueError, match=r"^the d x k Gaussian matrices would need .*`size`=\(1000000,\)"):
        random_orthonormal(rng, 1000, 1, size=(10 ** 6,))  # 1e9 floats > 4 GiB
    with pytest.raises(ValueError, match=r"^`b` must be finite"):
        batched_solve(np.eye(2), np.array([1.0, np.nan]))
    with pytest.raises(ValueError, match=r"^`rcond` must be"):
        batched_solve(np.eye(2), np.ones(2), rcond=-1.0)
    with pytest.raises(TypeError, match=r"^`symmetric` must be"):
        batched_solve(np.eye(2), np.ones(2), symmetric="yes")
    with pytest.raises(ValueError, match=r"^`A` must be a square matrix or a stack of them \(\.\.\., p, p\); "
                                         r"got shape \(2, 3\)$"):
        batched_solve(np.ones((2, 3)), np.ones(2))
    with pytest.raises(ValueError, match=r"^`b` must have shape \(\.\.\., 3\) or \(\.\.\., 3, q\) to match `A` "
                                         r"\(3, 3\); got \(2,\)$"):
        batched_solve(np.eye(3), np.ones(2))
    # x = 1e10 / 1e-300 overflows
    with pytest.raises(ValueError, match=r"^the solution of the tiny system overflowed float64: the entries of "
                                         r"`A` or `b` are too large in magnitude$"):
        with np.errstate(all="ignore"):
            batched_solve(np.array([[1e-300]]), np.array([1e10]), rcond=0.0, what="tiny system")


def test_spd_certificate_hand_values():
    """det(A) / trace(A)^p by hand, against the documented threshold 2 rcond (strict):
    diag(1, r) has bound r / (1 + r)^2: 0.5/2.25 = 0.222 > 0.2 (certified at rcond 0.1), 0.3/1.69 = 0.178
    < 0.2 (not certified, although its exact ratio 0.3 passes: the certificate is only sufficient);
    a 1 x 1 system has bound exactly 1: certified for rcond < 0.5, not at 0.5; rcond = 0 certifies
    every positive-definite system."""
    A = np.stack([np.diag([1.0, 0.5]), np.diag([1.0, 0.3]), np.diag([4.0, 2.0])])
    cert = _spd_certified(A, 0.1)
    assert cert.dtype == bool and cert.shape == (3,)
    np.testing.assert_array_equal(cert, [True, False, True])
    assert _spd_certified(np.array([[1.0]]), 0.49) and not _spd_certified(np.array([[1.0]]), 0.5)
    assert _spd_certified(np.diag([1.0, 1e-300]), 0.0)
    assert np.all(_spd_certified(np.stack([np.eye(3), np.diag([1.0, 1e-12, 1.0])]), 0.0))
    # not positive definite: an all-False mask of the stack's shape (a matrix: a 0-d mask)
    m = _spd_certified(np.diag([1.0, -1.0]), 1e-10)
    assert m.dtype == bool and m.shape == () and not m
    # a 3 x 3 example: diag(1, 1, 0.1), bound 0.1 / 2.1^3 = 0.0108 > 2 * 0.005 but < 2 * 0.006
    assert _spd_certified(np.diag([1.0, 1.0, 0.1]), 0.005) and not _spd_certified(np.diag([1.0, 1.0, 0.1]), 0.006)


def test_ill_conditioned_single_matrix_and_indefinite():
    """A single symmetric matrix that the certificate cannot pass goes to the exact test and yields a 0-d
    mask; |eigenvalues| are compared, so an indefinite but well-conditioned matrix is fine."""
    for symmetric in (True, False):
        m = _ill_conditioned(np.diag([1.0, 0.0]), 1e-10, symmetric)
        assert np.shape(m) == () and bool(m)
        m = _ill_conditioned(np.diag([2.0, -1.0]), 0.4, symmetric)          # |ev| ratio 0.5 > 0.4
        assert np.shape(m) == () and not bool(m)
        assert bool(_ill_conditioned(np.diag([2.0, -1.0]), 0.5, symmetric))  # strict: 0.5 is not above 0.5
        assert bool(_ill_conditioned(np.zeros((2, 2)), 0.0, symmetric))     # zero matrix: ratio 0
    # uncertified 2-D system through batched_solve: minimum-norm solution and a warning
    from fedtheory.linalg import batched_solve
    with pytest.warns(IllConditionedWarning, match="1 ill-conditioned"):
        x = batched_solve(np.diag([1.0, 0.0]), np.array([2.0, 3.0]), symmetric=True)
    np.testing.assert_allclose(x, [2.0, 0.0], atol=1e-14)


def _spd_stack(g, s, p):
    Q = np.linalg.qr(g.standard_normal((s, p, p)))[0]
    ev = g.uniform(0.5, 2.0, (s, p))
    G = (Q * ev[:, None, :]) @ np.swapaxes(Q, -1, -2)
    return 0.5 * (G + np.swapaxes(G, -1, -2))


def test_solve_spd_certified_path():
    """Referee: x = pinv(G) b per system; well-conditioned stacks give no warning."""
    g = np.random.default_rng(0)
    G = _spd_stack(g, 5, 3)
    b = g.standard_normal((5, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        x = _solve_spd(G, b, "head system")
        # default rcond 1e-10: a ratio of 1e-9 is accepted without a warning
        x1 = _solve_spd(np.diag([1.0, 1e-9]), np.array([1.0, 1.0]), "head system")
    for i in range(5):
        np.testing.assert_allclose(x[i], np.linalg.pinv(G[i]) @ b[i], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(x1, [1.0, 1e9], rtol=1e-12)


def test_solve_spd_fallback_path_warns_and_uses_least_squares():
    """A stack with one singular system: the others solved exactly, the singular one by the minimum-norm
    least-squares solution (pinv referee), one warning naming ``what``; the given rcond is the one used
    (diag(1, 1, 1e-4) is ill-conditioned at rcond 1e-3, not at the default 1e-10)."""
    g = np.random.default_rng(1)
    G = _spd_stack(g, 3, 2)
    G[1] = np.array([[1.0, 1.0], [1.0, 1.0]])
    b = g.standard_normal((3, 2))
    with pytest.warns(IllConditionedWarning, match=r"1 ill-conditioned head system\(s\)") as rec:
        x = _solve_spd(G, b, "head system")
    assert len(rec) == 1
    for i in range(3):
        np.testing.assert_allclose(x[i], np.linalg.pinv(G[i]) @ b[i], rtol=1e-10, atol=1e-12)
    A = np.diag([1.0, 1.0, 1e-4])
    msg = r"1 ill-conditioned tiny system\(s\) \(sigma_min/sigma_max <= 0.001\)"
    with pytest.warns(IllConditionedWarning, match=msg):
        x = _solve_spd(A, np.ones(3), "tiny system", rcond=1e-3)
    np.testing.assert_allclose(x, [1.0, 1.0, 1e4], rtol=1e-12)       # nonsingular: lstsq gives the solution
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_allclose(_solve_spd(A, np.ones(3), "tiny system"), [1.0, 1.0, 1e4], rtol=1e-12)


def test_solve_spd_overflow_is_a_value_error():
    """[[1e-300]] x = 1e300 has the solution 1e600, beyond float64: a ValueError naming the system."""
    msg = "the solution of the head system overflowed float64: the entries of `A` or `b`"
    with pytest.raises(ValueError, match=msg):
        _solve_spd(np.array([[1e-300]]), np.array([1e300]), "head system")


def test_spd_certificate_quiet_when_the_trace_overflows():
    """diag(1e308, 1e308) is positive definite but its trace overflows float64: the certificate declines
    (bound -inf) without a RuntimeWarning (the exact test then decides: ratio 1, well conditioned)."""
    A = np.diag([1e308, 1e308])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert not _spd_certified(A, 1e-10)
        assert not _ill_conditioned(A, 1e-10, True)


def test_principal_angle_distance_def1_names_wide_inputs():
    from fedtheory.linalg import principal_angle_distance_def1
    with pytest.raises(ValueError, match="`B1` must be tall"):
        principal_angle_distance_def1(np.ones((2, 3)), np.ones((2, 1)))
    with pytest.raises(ValueError, match="`B2` must be tall"):
        principal_angle_distance_def1(np.ones((2, 1)), np.ones((2, 3)))


def test_spd_certificate_and_exact_test_on_deeper_stacks():
    """Two leading axes (2, 3): p is the matrix size (2), not a batch size; diag(1, 0.5) has bound
    0.5 / 1.5^2 = 0.222 > 2 * 0.1 (a p of 3 would give 0.148). In the stack path of the exact test the
    threshold is strict too: |eigenvalues| (2, 1) of the indefinite diag(2, -1) have ratio exactly 0.5."""
    A = np.broadcast_to(np.diag([1.0, 0.5]), (2, 3, 2, 2))
    cert = _spd_certified(A, 0.1)
    assert cert.shape == (2, 3) and cert.all()
    m = _ill_conditioned(np.stack([np.diag([2.0, -1.0]), np.eye(2), np.diag([4.0, -1.0])]), 0.5, True)
    np.testing.assert_array_equal(m, [True, False, True])
    m = _ill_conditioned(np.stack([np.diag([2.0, -1.0]), np.diag([4.0, -3.0])]), 0.49, True)
    np.testing.assert_array_equal(m, [False, False])


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
