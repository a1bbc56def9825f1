"""fedtheory.lowrank.hypotheses: the conditioning floor that (6) and Lemma 1 put under every node matrix, Theorem 2's
rank (47) in mpmath, the proof's requirements, and assumption (46) on Appendix A's gradient (Jadbabaie, Makur and
Shah, IEEE Trans. Inf. Theory 2023)."""
import math

import mpmath as mp
import numpy as np
import pytest

from fedtheory.lowrank import theorem2_r
from fedtheory.lowrank.hypotheses import (certified_sigma_min_upper, conditioning_at_theorem2_rank, inverse_norm_floor,
                                          logistic_eq46_matrices_mp, logistic_eq46_rank_bound, proof_requirements_mp,
                                          singular_values_mp, theorem2_delta_mp, theorem2_rank_mp)


def test_the_floor_bounds_the_inverse_norm_of_actual_node_matrices():
    """Independent check of the floor: 1/sigma_min(G) by SVD for cos(theta x) (class (2, 1)) at r = 33."""
    rng = np.random.default_rng(1)
    for r in (17, 33):
        x, th = rng.uniform(0, 1, r), rng.uniform(-1, 1, r)
        inv = 1 / np.linalg.svd(np.cos(np.outer(x, th)), compute_uv=False)[-1]
        assert float(inverse_norm_floor(r, 1, 2.0, 1.0)) <= inv


def test_the_floor_is_the_closed_form_and_needs_a_positive_scale():
    # d = 1, eta = 2: l = 1, D = 2, q' = (r - 1)/2 - 1
    assert float(inverse_norm_floor(11, 1, 2.0, 2.0)) == pytest.approx(1 * 4.0 ** 2 / (11 * 2.0), rel=1e-15)
    with pytest.raises(ValueError, match="q' > 0"):
        inverse_norm_floor(3, 1, 2.0)


def test_rank_47_matches_the_float_library_and_meets_the_requirements():
    for d, eta, alpha in ((1, 50.0, 1.0), (1, 20.0, 1.0), (2, 30.0, 1.5)):
        r = theorem2_rank_mp(d, eta, alpha=alpha)
        assert int(r) == theorem2_r(d, eta, alpha=alpha)
        S, delta = theorem2_delta_mp()
        req1, req2 = proof_requirements_mp(r, d, eta, alpha, delta)
        assert req1 >= 1 and req2 >= 1 and delta <= 0.5
    with pytest.raises(ValueError, match="exceed"):
        theorem2_rank_mp(1, 4.0, alpha=1.0)


def test_the_floor_exceeds_r_to_the_2alpha_plus_1_at_the_theorems_rank_and_beyond():
    for scale in (1, 1000):
        o = conditioning_at_theorem2_rank(2, 8.01, alpha=1.0, L2=1e6, kappa=1.01, eps=1e-12, scale=scale)
        assert o["req_i"] >= 0 and o["req_ii"] >= 0 and o["log10_floor_over_r_2a1"] > 0


def test_eq46_factorisation_and_rank_bound():
    X0 = np.array([[0.1, 0.2], [0.3, 0.9], [0.8, 0.4], [0.15, 0.6], [0.2, 0.1], [0.45, 0.3]])  # 6 samples, q = 1
    nodes = np.linspace(-0.9, 0.8, 6)[:, None]
    P, Phi, Psi = logistic_eq46_matrices_mp(X0, nodes, 1.0, dps=40)
    with mp.workdps(40):
        assert max(abs(v) for v in (P - Phi.T * Psi)) < mp.mpf(10) ** -35
        sv = singular_values_mp(P, 40)
    assert logistic_eq46_rank_bound(X0, 1.0) == 3 and sv[2] > 1e-12 and sv[3] < 1e-30  # one cell: rank 3 = D
    X2 = np.array([[0.1, 0.1], [0.2, 0.7], [0.9, 0.3], [0.7, 0.8]])
    assert logistic_eq46_rank_bound(X2, 2.0) == 4  # r = 4 < 1 + 2 n_x = 5


def test_certificate_is_an_upper_bound_and_rejects_zero():
    x, th = np.array([0.0, 1.0]), np.array([0.0, 1.0])
    fn = lambda a, t: 1 if a == t else 0  # noqa: E731  the identity matrix: sigma_min = 1
    assert float(certified_sigma_min_upper(fn, x, th, np.array([0.6, 0.8]))) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="nonzero"):
        certified_sigma_min_upper(fn, x, th, np.zeros(2))
    assert math.isfinite(float(certified_sigma_min_upper(fn, x, th, np.array([1.0, 0.0]))))
