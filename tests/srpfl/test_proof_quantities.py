"""Tests of :mod:`fedtheory.srpfl.proof_quantities`: the quantities of the proof of Theorem 4.7 of SRPFL (Tziotis et
al. 2023, Appendix A): round quantities against the algorithm's round, the head update and Lemma A.2 terms, the H,
S, E and A.10 matrices, the printed bounds of Lemmas A.5-A.10, and their validation and overflow messages."""
import math
import warnings

import numpy as np
import pytest

from fedtheory.linalg import principal_angle_distance
from fedtheory.srpfl import proof_quantities as pq


def _pq_round(seed=0, n=4, m=9, d=6, k=2, sigma=0.3, orth=True):
    g = np.random.default_rng(seed)
    Bs = np.linalg.qr(g.standard_normal((d, k)))[0]
    B = Bs + 0.5 * g.standard_normal((d, k))
    if orth:
        B = np.linalg.qr(B)[0]
    W = g.standard_normal((n, k))
    X = g.standard_normal((n, m, d))
    Y = np.einsum("nmd,nd->nm", X, W @ Bs.T) + sigma * g.standard_normal((n, m))
    return X, Y, B, Bs, W


def test_head_update_and_lemma_a2_terms_against_per_client_least_squares():
    """Referees: w_i^+ is the least-squares fit of Y_i on X_i B_hat (lstsq, client by client); F_i is
    that fit on the noiseless labels minus B_hat^T B* w_i* (Lemma A.2 with Z = 0); G_i is the fit of the
    noise alone. Also for a non-orthonormal B_hat with check=False ((20) is exact algebra)."""
    for orth in (True, False):
        X, Y, B, Bs, W = _pq_round(seed=5, orth=orth)
        Y0 = np.stack([X[i] @ Bs @ W[i] for i in range(4)])        # noiseless labels, client by client
        Z = Y - Y0
        fit = lambda lab: np.stack([np.linalg.lstsq(X[i] @ B, lab[i], rcond=None)[0] for i in range(4)])  # noqa
        rq = pq.round_quantities(X, Y, B, Bs, W, check=orth)
        np.testing.assert_allclose(rq.w_plus, fit(Y), atol=1e-10)
        np.testing.assert_allclose(pq.head_update(X, Y, B), fit(Y), atol=1e-10)
        F_ref = fit(Y0) - W @ (B.T @ Bs).T
        np.testing.assert_allclose(rq.F, F_ref, atol=1e-10)
        np.testing.assert_allclose(pq.f_terms(X, B, Bs, W), F_ref, atol=1e-10)
        np.testing.assert_allclose(rq.G, fit(Z), atol=1e-10)
        np.testing.assert_allclose(pq.g_terms(X, Y, B, Bs, W), fit(Z), atol=1e-10)
        np.testing.assert_allclose(rq.Z, Z, atol=1e-12)
        # gram: the Gram matrix of the features X_i B_hat divided by m, via per-sample outer products
        gram = np.stack([sum(np.outer(X[i, j] @ B, X[i, j] @ B) for j in range(9)) / 9 for i in range(4)])
        np.testing.assert_allclose(rq.gram, gram, atol=1e-12)
        np.testing.assert_allclose(pq.client_gram(X, B), gram, atol=1e-12)
        # H_i w_i* = -gram_i F_i (24)
        HW = np.einsum("nkl,nl->nk", pq.h_matrices(X, B, Bs), W)
        np.testing.assert_allclose(HW, -np.einsum("nkl,nl->nk", gram, F_ref), atol=1e-10)
        np.testing.assert_allclose(np.einsum("nkl,nl->nk", rq.H, W), HW, atol=1e-12)


def test_h_matrices_special_points():
    """B_hat = B*: (B_hat B_hat^T - I) B* = 0, so H = 0. B_hat orthogonal to B*: H_i = -(1/m) B_hat^T X_i^T
    X_i B*, checked per sample."""
    g = np.random.default_rng(1)
    Q = np.linalg.qr(g.standard_normal((5, 4)))[0]
    Bs, B = Q[:, :2], Q[:, 2:]
    X = g.standard_normal((3, 4, 5))
    assert np.max(np.abs(pq.h_matrices(X, Bs, Bs))) < 1e-14
    H = pq.h_matrices(X, B, Bs)
    for i in range(3):
        ref = -sum(np.outer(B.T @ X[i, j], Bs.T @ X[i, j]) for j in range(4)) / 4
        np.testing.assert_allclose(H[i], ref, atol=1e-12)


def test_s_e_and_a10_matrices_per_sample_sums():
    """Referees: S = sum_ij (1/m) x_ij (x_ij . q_i) w_i^+T, E = sum_ij (1/m) x_ij z_ij w_i^+T, and
    A10 = (1/n) sum_i ((1/m) X_i^T X_i q_i - q_i) w_i^+T, each by explicit loops over clients and samples;
    q_i = B_hat w_i^+ - B* w_i* per client."""
    X, Y, B, Bs, W = _pq_round(seed=2, n=3, m=5, d=4)
    rq = pq.round_quantities(X, Y, B, Bs, W)
    q = np.stack([B @ rq.w_plus[i] - Bs @ W[i] for i in range(3)])
    np.testing.assert_allclose(rq.q, q, atol=1e-12)
    np.testing.assert_allclose(pq.q_vectors(B, Bs, W, rq.w_plus), q, atol=1e-12)
    S = sum(np.outer(X[i, j] * (X[i, j] @ q[i]), rq.w_plus[i]) for i in range(3) for j in range(5)) / 5
    E = sum(np.outer(X[i, j] * rq.Z[i, j], rq.w_plus[i]) for i in range(3) for j in range(5)) / 5
    A10 = sum(np.outer(sum(X[i, j] * (X[i, j] @ q[i]) for j in range(5)) / 5 - q[i], rq.w_plus[i])
              for i in range(3)) / 3
    np.testing.assert_allclose(rq.S, S, atol=1e-12)
    np.testing.assert_allclose(pq.s_matrix(X, q, rq.w_plus), S, atol=1e-12)
    np.testing.assert_allclose(rq.E, E, atol=1e-12)
    np.testing.assert_allclose(pq.e_matrix(X, rq.Z, rq.w_plus), E, atol=1e-12)
    np.testing.assert_allclose(rq.A10, A10, atol=1e-12)
    np.testing.assert_allclose(pq.lemma_a10_matrix(X, q, rq.w_plus), A10, atol=1e-12)


def test_round_quantities_distance_hand_value():
    """B* = (e1, e2), B_hat = (cos t e1 + sin t e3, e2): principal angles (t, 0), dist = sin t and
    sigma_min^2 = cos^2 t; at B_hat = B* dist = 0."""
    t = 0.4
    e = np.eye(5)
    Bs = e[:, :2]
    B = np.stack([math.cos(t) * e[0] + math.sin(t) * e[2], e[1]], axis=1)
    g = np.random.default_rng(0)
    X = g.standard_normal((2, 4, 5))
    W = g.standard_normal((2, 2))
    Y = g.standard_normal((2, 4))
    rq = pq.round_quantities(X, Y, B, Bs, W)
    assert float(rq.dist) == pytest.approx(math.sin(t), rel=1e-12)
    assert float(rq.sigma_min2) == pytest.approx(math.cos(t) ** 2, rel=1e-12)
    assert float(pq.round_quantities(X, Y, Bs, Bs, W).dist) == pytest.approx(0.0, abs=1e-7)


def test_round_quantities_validation_edges():
    X, Y, B, Bs, W = _pq_round()
    with pytest.raises(ValueError, match="`X` must have at least 3 dimensions"):
        pq.round_quantities(X[0], Y, B, Bs, W)
    with pytest.raises(ValueError, match="`B_hat` must have at least 2 dimensions"):
        pq.round_quantities(X, Y, B[:, 0], Bs, W)
    with pytest.raises(ValueError, match="`B_hat` must have d=6 rows"):
        pq.round_quantities(X, Y, np.vstack([B, B]), Bs, W)
    with pytest.raises(ValueError, match="`B_hat` must have 1 <= k <= d=6 columns; got k=7"):
        pq.client_gram(np.ones((2, 9, 6)), np.ones((6, 7)))
    with pytest.raises(ValueError, match="`B_hat` must have 1 <= k <= d=6 columns; got k=0"):
        pq.client_gram(np.ones((2, 9, 6)), np.ones((6, 0)))
    with pytest.raises(ValueError, match="the batch size m .* must be >= k=2"):
        pq.round_quantities(X[:, :1], Y[:, :1], B, Bs, W)
    with pytest.raises(ValueError, match="`B_star` must be d x k = 6 x 2"):
        pq.round_quantities(X, Y, B, Bs[:, :1], W)
    with pytest.raises(ValueError, match="`W_star` must be n x k = 4 x 2"):
        pq.round_quantities(X, Y, B, Bs, W[:3])
    with pytest.raises(ValueError, match="`Y` must be n x m = 4 x 9"):
        pq.round_quantities(X, Y[:, :8], B, Bs, W)
    # edges that are allowed: k = d, m = k
    g = np.random.default_rng(0)
    Q = np.linalg.qr(g.standard_normal((3, 3)))[0]
    gram = pq.client_gram(g.standard_normal((2, 3, 3)), Q)
    assert gram.shape == (2, 3, 3)
    # orthonormality check: 1e-9 off passes, 1e-7 off does not; B_star is checked too; check=False skips
    pq.round_quantities(X, Y, B * (1 + 1e-9), Bs, W)
    with pytest.raises(ValueError, match=r"`B_hat` must be orthonormal .*max \|B_hat\^T B_hat - I\|"):
        pq.round_quantities(X, Y, B * (1 + 1e-7), Bs, W)
    with pytest.raises(ValueError, match=r"`B_star` must be orthonormal .*max \|B_star\^T B_star - I\|"):
        pq.round_quantities(X, Y, B, 2 * Bs, W)
    pq.round_quantities(X, Y, 2 * B, 2 * Bs, W, check=False)


@pytest.mark.parametrize("fn, what", [
    (lambda X, Y, B, Bs, W: pq.round_quantities(X, Y, B, Bs, W), "F_i of \\(24\\)"),
    (lambda X, Y, B, Bs, W: pq.f_terms(X, B, Bs, W), "F_i of \\(24\\)"),
    (lambda X, Y, B, Bs, W: pq.g_terms(X, Y, B, Bs, W), "G_i of \\(25\\)"),
    (lambda X, Y, B, Bs, W: pq.head_update(X, Y, B), "the head update \\(17\\)"),
])
def test_singular_gram_is_a_value_error_naming_the_term(fn, what):
    X, Y, B, Bs, W = _pq_round()
    X = X.copy()
    X[1] = 0.0                                     # client 1 has an all-zero batch: its Gram matrix is 0
    with pytest.raises(ValueError, match=what + ": a client's Gram matrix .* is singular"):
        fn(X, Y, B, Bs, W)


def test_q_s_e_a10_validation():
    X, Y, B, Bs, W = _pq_round(n=3, m=5, d=4)
    w = np.ones((3, 2))
    q = np.ones((3, 4))
    with pytest.raises(ValueError, match="`B_star` must be d x k = 4 x 2"):
        pq.q_vectors(B, Bs[:3], W, w)
    for Wb, wb in ((W[:, :1], w), (W, w[:, :1]), (W[:2], w)):
        with pytest.raises(ValueError, match="`W_star` and `w_plus` must both be n x k"):
            pq.q_vectors(B, Bs, Wb, wb)
    with pytest.raises(ValueError, match="`w_plus` must have at least 2 dimensions"):
        pq.q_vectors(B, Bs, W, w[0])
    for qb, wb in ((q[:2], w), (q[:, :3], w), (q, w[:2])):
        with pytest.raises(ValueError, match="`q` must be n x d = 3 x 4 and `w_plus` n x k"):
            pq.s_matrix(X, qb, wb)
    Z = np.ones((3, 5))
    for Zb, wb in ((Z[:2], w), (Z[:, :4], w), (Z, w[:2])):
        with pytest.raises(ValueError, match="`Z` must be n x m = 3 x 5 and `w_plus` n x k"):
            pq.e_matrix(X, Zb, wb)
    with pytest.raises(ValueError, match="`q` must have at least 2 dimensions"):
        pq.lemma_a10_matrix(X, q[0], w)
    with pytest.raises(ValueError, match="`X` must have at least 3 dimensions"):
        pq.lemma_a10_matrix(X[0], q, w)


# ---------------------------------------------------------------------------- printed bounds of proof_quantities
def _overflow_message(call, what, names):
    """The overflow error names the bound and every parameter with its value (never a missing value)."""
    with pytest.raises(ValueError, match=re_escape(what) + " overflows float64") as ei:
        call()
    msg = str(ei.value)
    for nm in names:
        assert f"`{nm}`=" in msg, (nm, msg)
        assert f"`{nm}`=None" not in msg, (nm, msg)
    return msg


def re_escape(s):
    import re
    return re.escape(s)


def test_delta_and_delta_hat_values_and_messages():
    """delta = c k^1.5 sqrt(log N) / sqrt(m) by hand: k = 4, N = e^4 (log N = 4), m = 64: c * 8 * 2 / 8 = 2c."""
    N = round(math.exp(4))                                   # 55: log 55 = 4.007...
    expect = lambda c, m: c * 8 * math.sqrt(math.log(N)) / math.sqrt(m)  # noqa: E731
    assert pq.delta(64, 4, N, c=0.1) == pytest.approx(expect(0.1, 64), rel=1e-14)
    arr = pq.delta(np.array([64.0, 256.0]), 4, N, c=0.1)
    assert isinstance(arr, np.ndarray)
    np.testing.assert_allclose(arr, [expect(0.1, 64), expect(0.1, 256)], rtol=1e-14)
    assert isinstance(pq.delta(64, 4, N), float)
    # delta_hat = delta / (1 - delta), with the given c, for scalars (float) and arrays
    dl = expect(0.1, 64)
    assert pq.delta_hat(64, 4, N, c=0.1) == pytest.approx(dl / (1 - dl), rel=1e-14)
    # scalars come back as Python floats (not numpy scalars, whose repr differs in numpy 2)
    assert type(pq.delta_hat(64, 4, N, c=0.1)) is float and type(pq.delta(64, 4, N)) is float
    dh = pq.delta_hat(np.array([64.0, 256.0]), 4, N, c=0.1)
    assert isinstance(dh, np.ndarray)
    np.testing.assert_allclose(dh, [dl / (1 - dl), expect(0.1, 256) / (1 - expect(0.1, 256))], rtol=1e-14)
    with pytest.raises(ValueError, match=r"delta = c k\^1.5 sqrt\(log N\)/sqrt\(m\) must be < 1 for delta_hat"):
        pq.delta_hat(64, 4, N, c=1.0)                          # delta = 2.0
    for call, msg in [
        (lambda: pq.delta(0.5, 2, 4), r"`m` must be in \[1, inf\) \(batch size\)"),
        (lambda: pq.delta(4, 0, 4), r"`k` must be in \[1, inf\)"),
        (lambda: pq.delta(4, 2, 1), r"`N` must be in \[2, inf\) \(log N must be positive\)"),
        (lambda: pq.delta(4, 2, 4, c=0.0), r"`c` must be in \(0, inf\) \(absolute constant\)"),
    ]:
        with pytest.raises(ValueError, match=msg):
            call()


@pytest.mark.parametrize("fn, args, names", [
    (pq.lemma_a5_bound, (0.5, 2.0, 0.5), ("dlt", "W_star_norm2", "dist")),
    (pq.lemma_a6_bound, (0.5, 0.5, 2.0), ("dlt_hat", "dist", "w_star_norm")),
])
def test_lemma_a5_a6_bounds_negative_inputs_name_the_parameter(fn, args, names):
    for j, nm in enumerate(names):
        bad = list(args)
        bad[j] = -0.1
        with pytest.raises(ValueError, match=rf"`{nm}` must be in \[0, inf\)"):
            fn(*bad)


def test_lemma_a5_a6_bounds_values_broadcast_and_overflow():
    # (36): delta^2 ||W*||^2 dist^2; (51): delta_hat dist ||w*||, by hand
    assert pq.lemma_a5_bound(0.5, 3.0, 0.2) == pytest.approx(0.25 * 9 * 0.04, rel=1e-14)
    assert pq.lemma_a6_bound(0.5, 0.2, 3.0) == pytest.approx(0.3, rel=1e-14)
    a5 = pq.lemma_a5_bound(np.array([0.5, 1.0]), 3.0, np.array([[0.2], [0.1]]))
    assert a5.shape == (2, 2)
    np.testing.assert_allclose(a5, [[0.09, 0.36], [0.0225, 0.09]], rtol=1e-14)
    a6 = pq.lemma_a6_bound(np.array([0.5, 1.0]), 0.2, 3.0)
    np.testing.assert_allclose(a6, [0.3, 0.6], rtol=1e-14)
    _overflow_message(lambda: pq.lemma_a5_bound(1e200, 1e100, 1.0), "the bound (36)", ("dlt", "W_star_norm2", "dist"))
    _overflow_message(lambda: pq.lemma_a6_bound(1e200, 1e200, 1.0), "the bound (51)",
                      ("dlt_hat", "dist", "w_star_norm"))


def test_lemma_a8_bounds_values_messages_and_overflow():
    """(70), (71) by hand: k = 9, dist = 0.5, sigma = 3, delta_hat = 0.1: noise sigma^2 delta_hat = 0.9
    (printed) or sigma delta_hat = 0.3 (corrected): (6.9, 3.9) and (6.3, 3.3)."""
    w, q = pq.lemma_a8_bounds(0.1, 9, 0.5, 3.0)
    assert (w, q) == (pytest.approx(6.9, rel=1e-14), pytest.approx(3.9, rel=1e-14))
    w, q = pq.lemma_a8_bounds(0.1, 9, 0.5, 3.0, sigma_power=1)
    assert (w, q) == (pytest.approx(6.3, rel=1e-14), pytest.approx(3.3, rel=1e-14))
    assert isinstance(w, float) and isinstance(q, float)
    w, q = pq.lemma_a8_bounds(np.array([0.1, 0.2]), 9, 0.5, 3.0)
    np.testing.assert_allclose(w, [6.9, 7.8], rtol=1e-14)
    np.testing.assert_allclose(q, [3.9, 4.8], rtol=1e-14)
    for j, nm in ((0, "dlt_hat"), (2, "dist"), (3, "sigma")):
        bad = [0.1, 9, 0.5, 3.0]
        bad[j] = -1.0
        with pytest.raises(ValueError, match=rf"`{nm}` must be in \[0, inf\)"):
            pq.lemma_a8_bounds(*bad)
    with pytest.raises(ValueError, match=r"`k` must be in \[1, inf\)"):
        pq.lemma_a8_bounds(0.1, 0, 0.5, 3.0)
    with pytest.raises(ValueError, match=r"`sigma_power` must be in \(0, inf\) \(2 as printed, 1 sigma-corrected\)"):
        pq.lemma_a8_bounds(0.1, 9, 0.5, 3.0, sigma_power=-1)
    _overflow_message(lambda: pq.lemma_a8_bounds(1e300, 4, 0.5, 1e10), "the bound (70)",
                      ("dlt_hat", "sigma", "sigma_power"))
    _overflow_message(lambda: pq.lemma_a8_bounds(0.1, 4, 1e308, 1.0), "the bound (71)",
                      ("dlt_hat", "dist", "sigma", "sigma_power"))


def test_lemma_a10_bound_values_messages_and_overflow():
    """(95) by hand: c = 2, d = 16, k = 4, m = 8, n = 2, dist = 0.5, sigma = 3, delta_hat = 0.1:
    t = 0.9 (printed) -> 2 * 4 * (2 + 1.8 + 0.81) / 4 = 9.22; sigma-corrected t = 0.3 -> 2 (2 + 0.6 + 0.09) = 5.38."""
    assert pq.lemma_a10_bound(0.1, 16, 4, 8, 2, 0.5, 3.0, c=2.0) == pytest.approx(9.22, rel=1e-14)
    assert pq.lemma_a10_bound(0.1, 16, 4, 8, 2, 0.5, 3.0, sigma_power=1, c=2.0) == pytest.approx(5.38, rel=1e-14)
    assert pq.lemma_a10_bound(0.1, 16, 4, 8, 2, 0.5, 3.0) == pytest.approx(4.61, rel=1e-14)
    v = pq.lemma_a10_bound(0.1, 16, 4, np.array([8.0, 32.0]), 2, 0.5, 3.0)
    np.testing.assert_allclose(v, [4.61, 2.305], rtol=1e-14)
    for j, nm in ((0, "dlt_hat"), (5, "dist"), (6, "sigma")):
        bad = [0.1, 16, 4, 8, 2, 0.5, 3.0]
        bad[j] = -1.0
        with pytest.raises(ValueError, match=rf"`{nm}` must be in \[0, inf\)"):
            pq.lemma_a10_bound(*bad)
    for j, nm in ((1, "d"), (2, "k"), (3, "m"), (4, "n")):
        bad = [0.1, 16, 4, 8, 2, 0.5, 3.0]
        bad[j] = 0
        with pytest.raises(ValueError, match=rf"`{nm}` must be in \[1, inf\)"):
            pq.lemma_a10_bound(*bad)
    with pytest.raises(ValueError, match=r"`c` must be in \(0, inf\)"):
        pq.lemma_a10_bound(0.1, 16, 4, 8, 2, 0.5, 3.0, c=0.0)
    _overflow_message(lambda: pq.lemma_a10_bound(1e300, 20, 2, 100, 8, 1e300, 1e300), "the bound (95)",
                      ("dlt_hat", "d", "k", "m", "n", "dist", "sigma", "sigma_power", "c"))


def test_proof_quantities_name_non_finite_and_flat_inputs():
    X, Y, B, Bs, W = _pq_round(n=3, m=5, d=4)
    Xn = np.where(X > 1, np.nan, X)
    with pytest.raises(ValueError, match="`X` must be finite"):
        pq.round_quantities(Xn, Y, B, Bs, W)
    with pytest.raises(ValueError, match="`B_hat` must be finite"):
        pq.client_gram(X, np.where(B > 0, np.inf, B))
    with pytest.raises(ValueError, match="`B_hat` must have at least 2 dimensions"):
        pq.q_vectors(B[:, 0], Bs, W, np.ones((3, 2)))
    with pytest.raises(ValueError, match="`X` must have at least 3 dimensions"):
        pq.e_matrix(X[0], np.ones((3, 5)), np.ones((3, 2)))
    with pytest.raises(ValueError, match="`X` must have at least 3 dimensions"):
        pq.s_matrix(X[0], np.ones((3, 4)), np.ones((3, 2)))


def test_round_quantities_overflow_names_every_input():
    """Heads of size 1e155 (noiseless labels): w^+ and q are finite but S = sum X^T X q w^+T overflows."""
    X, _, B, Bs, W = _pq_round(n=3, m=5, d=4)
    W = W * 1e155
    Y = np.einsum("nmd,nd->nm", X, W @ Bs.T)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        with pytest.raises(ValueError, match="the Appendix A quantities overflows float64") as ei:
            pq.round_quantities(X, Y, B, Bs, W)
    assert "`X`, `Y`, `B_hat`, `B_star`, `W_star`" in str(ei.value)


def test_round_quantities_stack_of_representations():
    """A leading replicate axis on B_hat and B_star (orthonormal stacks, checked slice by slice): the
    quantities equal those of each slice on its own; a non-orthonormal slice is refused."""
    X, Y, B, Bs, W = _pq_round(n=3, m=6, d=5)
    g = np.random.default_rng(9)
    B2 = np.linalg.qr(g.standard_normal((5, 2)))[0]
    rq = pq.round_quantities(X, Y, np.stack([B, B2]), np.stack([Bs, Bs]), W)
    for j, Bj in enumerate((B, B2)):
        one = pq.round_quantities(X, Y, Bj, Bs, W)
        np.testing.assert_allclose(rq.w_plus[j], one.w_plus, atol=1e-12)
        np.testing.assert_allclose(rq.A10[j], one.A10, atol=1e-12)
        assert float(rq.dist[j]) == pytest.approx(principal_angle_distance(Bj, Bs), abs=1e-10)
    with pytest.raises(ValueError, match="`B_hat` must be orthonormal"):
        pq.round_quantities(X, Y, np.stack([B, 1.01 * B2]), np.stack([Bs, Bs]), W)


def test_printed_bounds_quiet_on_inf_times_zero_and_n_one():
    """delta_hat = 0 with sigma^2 overflowing: 0 * inf is NaN; the bound reports the overflow as a
    ValueError without a RuntimeWarning. n = 1 participant is admissible in (95)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match="the bound \\(95\\) overflows"):
            pq.lemma_a10_bound(0.0, 16, 4, 8, 2, 0.5, 1e300)
        with pytest.raises(ValueError, match="the bound \\(70\\) overflows"):
            pq.lemma_a8_bounds(0.0, 4, 0.5, 1e300)
        with pytest.raises(ValueError, match="the bound \\(36\\) overflows"):
            pq.lemma_a5_bound(0.0, 1e300, 1e300)
        with pytest.raises(ValueError, match="the bound \\(51\\) overflows"):
            pq.lemma_a6_bound(1e10, 1e300, 0.0)                  # (1e10 * 1e300) * 0
    # c sqrt(d) (dist k + sqrt(k) t + t^2) / sqrt(m n): m = 8, n = 1 -> 4 * 4.61 / sqrt(8)
    assert pq.lemma_a10_bound(0.1, 16, 4, 8, 1, 0.5, 3.0) == pytest.approx(4 * 4.61 / math.sqrt(8), rel=1e-14)


# ----------------------------------------------------------------------------- proof_quantities
def _round(seed=0, n=6, m=30, d=12, k=2, sigma=0.5, reps=None):
    g = np.random.default_rng(seed)
    Bs = np.linalg.qr(g.standard_normal((d, k)))[0]
    B = np.linalg.qr(Bs + 0.4 * g.standard_normal((d, k)))[0]
    W = g.standard_normal((n, k))
    shape = (n, m, d) if reps is None else (reps, n, m, d)
    X = g.standard_normal(shape)
    Y = np.einsum("...nmd,nd->...nm", X, W @ Bs.T) + sigma * g.standard_normal(shape[:-1])
    return X, Y, B, Bs, W


def test_round_quantities_match_the_algorithm_round():
    from fedtheory.representation.algorithms import _round_given_batch

    X, Y, B, Bs, W = _round()
    rq = pq.round_quantities(X, Y, B, Bs, W)
    eta, n = 0.05, X.shape[0]
    rnd = _round_given_batch(B, X, Y, eta)
    assert np.allclose(rnd.w, rq.w_plus, atol=1e-12)  # (17)
    assert np.allclose(rnd.B_bar, B - eta / n * rq.S + eta / n * rq.E, atol=1e-12)  # (142)
    # Lemma A.2 (20) and F_i = -gram^{-1} H_i w_i*
    assert np.allclose(rq.w_plus, W @ (B.T @ Bs).T + rq.F + rq.G, atol=1e-12)
    assert np.allclose(rq.F, pq.f_terms(X, B, Bs, W), atol=1e-12)
    assert np.allclose(rq.G, pq.g_terms(X, Y, B, Bs, W), atol=1e-12)
    assert np.allclose(rq.w_plus, pq.head_update(X, Y, B), atol=1e-12)
    # A10 from its definition, client by client
    m = X.shape[1]
    direct = sum(((X[i].T @ X[i] @ rq.q[i]) / m - rq.q[i])[:, None] * rq.w_plus[i][None, :] for i in range(n)) / n
    assert np.allclose(direct, rq.A10, atol=1e-12)
    assert np.allclose(pq.lemma_a10_matrix(X, rq.q, rq.w_plus), rq.A10, atol=1e-12)
    # dist and sigma_min^2 = 1 - dist^2
    from fedtheory.linalg import principal_angle_distance

    assert abs(float(rq.dist) - principal_angle_distance(B, Bs)) < 1e-10


def test_round_quantities_batch_axis_equals_single_rounds():
    X, Y, B, Bs, W = _round(reps=3)
    rq = pq.round_quantities(X, Y, B, Bs, W)
    for j in range(3):
        one = pq.round_quantities(X[j], Y[j], B, Bs, W)
        assert np.allclose(one.A10, rq.A10[j], atol=1e-12) and np.allclose(one.H, rq.H[j], atol=1e-12)


def test_proof_quantities_validation():
    X, Y, B, Bs, W = _round()
    with pytest.raises(ValueError, match="B_hat"):
        pq.round_quantities(X, Y, B[:-1], Bs, W)
    with pytest.raises(ValueError, match="W_star"):
        pq.round_quantities(X, Y, B, Bs, W[:-1])
    with pytest.raises(ValueError, match="Y"):
        pq.round_quantities(X, Y[:, :-1], B, Bs, W)
    with pytest.raises(ValueError, match="m"):
        pq.round_quantities(X[:, :1], Y[:, :1], B, Bs, W)
    with pytest.raises(ValueError, match="orthonormal"):
        pq.round_quantities(X, Y, 3 * B, Bs, W)
    with pytest.raises(ValueError, match="N"):
        pq.delta(100, 2, 1)
    with pytest.raises(ValueError, match="delta"):
        pq.delta_hat(4, 2, 64)
    with pytest.raises(ValueError, match="sigma"):
        pq.lemma_a8_bounds(0.1, 2, 0.3, -1.0)
    with pytest.raises(ValueError, match="sigma_power"):
        pq.lemma_a10_bound(0.1, 20, 2, 100, 8, 0.3, 0.5, sigma_power=0)
    with pytest.raises(ValueError, match="overflows"):
        pq.lemma_a10_bound(1e300, 20, 2, 100, 8, 1e300, 1e300)


def test_printed_bounds_closed_forms():
    dl = pq.delta(100, 2, 64)
    assert dl == pytest.approx(2 ** 1.5 * math.sqrt(math.log(64)) / 10)
    assert pq.delta_hat(400, 2, 64) == pytest.approx(pq.delta(400, 2, 64) / (1 - pq.delta(400, 2, 64)))
    w, q = pq.lemma_a8_bounds(0.1, 4, 0.5, 2.0)
    assert (w, q) == (pytest.approx(4 + 0.4), pytest.approx(2 + 0.4))
    assert pq.lemma_a8_bounds(0.1, 4, 0.5, 2.0, sigma_power=1)[1] == pytest.approx(2 + 0.2)
    assert pq.lemma_a10_bound(0.1, 16, 4, 4, 4, 0.5, 1.0) == pytest.approx(4 * (2 + 2 * 0.1 + 0.01) / 4)
    assert pq.lemma_a5_bound(0.5, 2.0, 0.5) == pytest.approx(0.25)
    assert pq.lemma_a6_bound(0.5, 0.5, 2.0) == pytest.approx(0.5)
