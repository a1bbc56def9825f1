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


@pytest.mark.parametrize("kappa, eps, B, mu, p, F0_gap, A", [
    (2.0, 0.01, 1.0, 0.1, 1, 1.0, 11521.0),  # A = 1 + 9 * 4^4 / 0.2 (the defaults)
    (1.5, 1e-3, 0.0, 0.5, 2, 0.5, 1458.5),  # A = 0.5 + 9 * 3^4 * 2 / 1
    (4.0, 0.2, 2.0, 2.0, 3, 0.0, 4218.75)])  # A = 9 * 5^4 * 3 / 4
def test_S_of_48_is_the_first_iteration_count_that_reaches_eps(kappa, eps, B, mu, p, F0_gap, A):
    """(48): S is the least integer with A (1 - 1/kappa)^S <= eps (brute force over S, A evaluated by hand);
    delta (64) = (1 - 1/kappa)^{S/2}."""
    S = 0
    while A * (1 - 1 / kappa) ** S > eps:
        S += 1
    got_S, delta = theorem2_delta_mp(kappa=kappa, eps=eps, B=B, mu=mu, p=p, F0_gap=F0_gap)
    assert int(got_S) == S and float(delta) == pytest.approx((1 - 1 / kappa) ** (S / 2), rel=1e-14)
    if (B, mu, p, F0_gap) == (1.0, 0.1, 1, 1.0):
        assert theorem2_delta_mp(kappa=kappa, eps=eps) == (got_S, delta)


@pytest.mark.parametrize("d, eta, kw", [(1, 6.5, dict(alpha=2.0)),
                                        (1, 6.5, dict(alpha=2.0, B=4.0, mu=0.3, p=2, F0_gap=0.5, L2=3.0)),
                                        (2, 13.0, dict(alpha=2.0, B=2.0, kappa=3.0, eps=1e-4))])
def test_rank_47_where_its_second_term_decides_matches_the_log_space_library(d, eta, kw):
    """alpha = 2 and eta just above (2 alpha + 2) d: the second term of (47) (exponent 1/(eta - (2 alpha + 2) d))
    decides r; the float library computes it independently in log space."""
    r = theorem2_rank_mp(d, eta, **kw)
    assert float(mp.log10(r)) == pytest.approx(math.log10(theorem2_r(d, eta, **kw)), rel=1e-12)
    assert r > 1e20  # far above the first term e sqrt(d) 2^d (eta + d)^d
    o = conditioning_at_theorem2_rank(d, eta, **kw)
    assert o["log10_r"] == pytest.approx(math.log10(theorem2_r(d, eta, **kw)), rel=1e-12)


def test_conditioning_report_divides_the_floor_by_r_to_2alpha_plus_1_and_to_alpha():
    o = conditioning_at_theorem2_rank(1, 6.5, alpha=2.0)  # 2 alpha + 1 = 5
    with mp.workdps(50):
        r = mp.mpf(10) ** o["log10_r"]
        floor = float(mp.log10(inverse_norm_floor(mp.nint(r), 1, 6.5)))
    assert o["log10_floor"] == pytest.approx(floor, rel=1e-12)
    assert o["log10_floor_over_r_2a1"] == pytest.approx(o["log10_floor"] - 5 * o["log10_r"], rel=1e-12)
    assert o["log10_floor_over_r_a"] == pytest.approx(o["log10_floor"] - 2 * o["log10_r"], rel=1e-12)
    # alpha defaults to 1 (the paper's choice): at eta = 8.01, d = 2 only alpha < 1.0025 is admissible
    assert conditioning_at_theorem2_rank(2, 8.01, L2=1e6, kappa=1.01, eps=1e-12) == conditioning_at_theorem2_rank(
        2, 8.01, alpha=1.0, L2=1e6, kappa=1.01, eps=1e-12)


@pytest.mark.parametrize("d, eta, alpha, L2", [(1, 20.0, 1.0, 1.0), (2, 30.0, 1.5, 2.0), (3, 12.5, 1.0, 0.5)])
def test_requirement_ii_is_requirement_i_to_the_power_eta_over_d(d, eta, alpha, L2):
    """x^d = r/(e sqrt(d) (eta + d)^d), so (x/2)^d is requirement (i): (ii) = delta l! (i)^{eta/d}/(L2 r^{2 alpha + 2}),
    l = ceil(eta) - 1."""
    r, delta = mp.mpf(10) ** 9 + 7, mp.mpf("0.01")
    req1, req2 = proof_requirements_mp(r, d, eta, alpha, delta, L2)
    with mp.workdps(50):
        lhs = mp.log(req2)
        rhs = (mp.log(delta) + mp.log(mp.factorial(math.ceil(eta) - 1)) + mp.mpf(eta) / d * mp.log(req1) - mp.log(L2)
               - (2 * alpha + 2) * mp.log(r))
        assert abs(lhs - rhs) < mp.mpf(10) ** -40
    assert (req1, req2) == proof_requirements_mp(r, d, eta, alpha, delta, L2, dps=50)  # 50 digits by default


def test_rank_47_rejects_an_eta_that_is_not_a_number():
    with pytest.raises(ValueError, match="`eta`"):
        theorem2_rank_mp(1, float("nan"))
    with pytest.raises(ValueError, match="`eta`"):
        proof_requirements_mp(100, 1, -1.0, 1.0, 0.1)


def test_arguments_are_checked_and_named():
    X0 = np.array([[0.1, 0.2], [0.3, 0.9]])
    with pytest.raises(ValueError, match="`dps`"):
        inverse_norm_floor(11, 1, 2.0, dps=5)
    with pytest.raises(ValueError, match="`dps`"):
        logistic_eq46_matrices_mp(X0, np.array([[0.1]]), 1.0, dps=5)
    for dps in (5, 2001):
        with pytest.raises(ValueError, match="`dps`"):
            singular_values_mp(mp.matrix([[1, 0], [0, 2]]), dps)
    assert singular_values_mp(mp.matrix([[1, 0], [0, 2]]), 2000) == [2, 1]
    with pytest.raises(ValueError, match="`X0`"):
        logistic_eq46_rank_bound(X0.ravel(), 1.0)
    with pytest.raises(ValueError, match="`X0`"):
        logistic_eq46_rank_bound(np.array([[0.1, 0.2], [1.5, 0.3]]), 1.0)  # outside [0, 1]^2
    with pytest.raises(ValueError, match="`q`"):
        logistic_eq46_rank_bound(X0, 0.5)
    x, th = np.array([0.0, 1.0]), np.array([0.0, 1.0])
    fn = lambda a, t: 1 if a == t else 0  # noqa: E731
    with pytest.raises(ValueError, match="`Theta`"):
        certified_sigma_min_upper(fn, x, np.array([0.0, np.nan]), np.array([0.6, 0.8]))
    with pytest.raises(ValueError, match="`Theta`"):
        certified_sigma_min_upper(fn, x, th[None, :], np.array([0.6, 0.8]))
    with pytest.raises(ValueError, match="`v`"):
        certified_sigma_min_upper(fn, x, th, np.array([0.6, np.inf]))
    with pytest.raises(ValueError, match="`dps`"):
        certified_sigma_min_upper(fn, x, th, np.array([0.6, 0.8]), dps=10)


def test_rank_47_where_its_first_term_decides_in_three_dimensions():
    """d = 3, eta = 40: the first term e sqrt(3) 2^3 43^3 ~ 2.99e6 decides (the float library agrees exactly)."""
    assert int(theorem2_rank_mp(3, 40.0)) == theorem2_r(3, 40.0) == math.ceil(math.e * math.sqrt(3) * 8 * 43 ** 3)


def test_rank_47_messages_name_the_argument_and_the_threshold():
    with pytest.raises(ValueError) as e:
        theorem2_rank_mp(1, 1.0)
    assert str(e.value) == "`eta` must be in (1, inf); got eta=1.0"
    with pytest.raises(ValueError) as e:
        theorem2_rank_mp(1, 1.5)
    assert str(e.value) == "`eta` must exceed (2 alpha + 2) d = 4; got eta=1.5"
    with pytest.raises(ValueError) as e:
        theorem2_rank_mp(2, 9.9, alpha=1.5)  # (2 * 1.5 + 2) * 2 = 10
    assert str(e.value) == "`eta` must exceed (2 alpha + 2) d = 10; got eta=9.9"


@pytest.mark.parametrize("kw, name", [(dict(d=0), "d"), (dict(alpha=0.5), "alpha"), (dict(kappa=1.0), "kappa"),
                                      (dict(eps=0.0), "eps"), (dict(p=0), "p"), (dict(d=1.5), "d"),
                                      (dict(p=1.5), "p"), (dict(alpha=np.nan), "alpha"), (dict(kappa=np.nan), "kappa"),
                                      (dict(eps=np.nan), "eps")])
def test_rank_47_refuses_each_argument_outside_its_range(kw, name):
    args = dict(d=1, eta=50.0) | kw
    with pytest.raises((ValueError, TypeError), match=f"^`{name}` "):
        theorem2_rank_mp(args.pop("d"), args.pop("eta"), **args)


def test_conditioning_report_passes_every_parameter_on():
    """S and delta of (48), (64) for the caller's kappa, eps, B, mu, p, F0 gap (brute force, A = 1000 + 9 3^4 2/1),
    requirement (ii) from (i) (as in the identity test), and r scaling with ``scale``."""
    kw = dict(alpha=2.0, kappa=20.0, eps=1e-3, B=0.0, mu=0.5, p=2, F0_gap=1000.0, L2=3.0)
    o = conditioning_at_theorem2_rank(1, 6.5, **kw)
    S = 0
    while 2458.0 * (1 - 1 / 20) ** S > 1e-3:
        S += 1
    assert o["S"] == S and o["delta"] == pytest.approx((1 - 1 / 20) ** (S / 2), rel=1e-13)
    # (ii) = delta l! (i)^{eta/d} / (L2 r^{2 alpha + 2}), l = 6, in log10
    want = (math.log10(o["delta"]) + math.log10(720) + 6.5 * o["req_i"] - math.log10(3.0) - 6 * o["log10_r"])
    assert o["req_ii"] == pytest.approx(want, abs=1e-10)
    o1000 = conditioning_at_theorem2_rank(1, 6.5, scale=1000, **kw)
    assert o1000["log10_r"] == pytest.approx(o["log10_r"] + 3, abs=1e-12)


def test_eq46_factorisation_over_several_cells_with_fewer_nodes_than_samples():
    X0 = np.array([[0.1, 0.1], [0.2, 0.7], [0.9, 0.3], [0.7, 0.8], [0.6, 0.1]])  # q = 2: several cells
    nodes = np.array([[-0.5], [0.3], [0.9]])
    P, Phi, Psi = logistic_eq46_matrices_mp(X0, nodes, 2.0, dps=30)
    assert (P.rows, P.cols) == (5, 3) and Phi.cols == 5 and Psi.cols == 3 and Phi.rows == Psi.rows
    with mp.workdps(30):
        assert max(abs(v) for v in (P - Phi.T * Psi)) < mp.mpf(10) ** -25
    P15, _, _ = logistic_eq46_matrices_mp(X0, nodes, 2.0, dps=15)
    assert float(P15[0, 0]) == pytest.approx(float(P[0, 0]), rel=1e-13)  # 15 digits is an admissible precision


@pytest.mark.parametrize("args, name", [
    ((np.array([[0.1, -0.1]]), [[0.1]], 1.0), "X0"), ((np.array([[0.1, 1.5]]), [[0.1]], 1.0), "X0"),
    ((np.array([0.1, 0.2]), [[0.1]], 1.0), "X0"), ((np.array([[0.1, 0.2]]), [[np.nan]], 1.0), "nodes"),
    ((np.array([[0.1, 0.2]]), [0.1], 1.0), "nodes"), ((np.array([[0.1, 0.2]]), [[0.1]], 0.5), "q"),
    ((np.array([[0.1, 0.2]]), [[0.1]], 1.0, 0.1, 2001), "dps"),
    ((np.array([[0.1, 0.2]]), [[0.1]], 1.0, 0.1, 14), "dps")])
def test_eq46_matrices_refuse_bad_arguments(args, name):
    with pytest.raises((ValueError, TypeError), match=f"^`{name}` "):
        logistic_eq46_matrices_mp(*args)


def test_eq46_matrices_need_two_columns_of_data_and_one_of_nodes():
    for X0, nodes in ((np.array([[0.1, 0.2, 0.3]]), np.array([[0.1]])),
                      (np.array([[0.1, 0.2]]), np.array([[0.1, 0.2]]))):
        with pytest.raises(ValueError) as e:
            logistic_eq46_matrices_mp(X0, nodes, 1.0)
        assert str(e.value) == f"`X0` must be (r, 2) and `nodes` (k, 1); got {X0.shape} and {nodes.shape}"
    with pytest.raises(ValueError, match="^`X0` "):
        logistic_eq46_rank_bound(np.array([[0.1, -0.2]]), 1.0)


def test_certificate_divides_by_the_norm_of_v_and_checks_its_arguments():
    x, th = np.array([0.0, 1.0]), np.array([0.0, 1.0])
    fn = lambda a, t: 1 if a == t else 0  # noqa: E731  the identity matrix: ||G v|| / ||v|| = 1 for any v
    assert float(certified_sigma_min_upper(fn, x, th, np.array([3.0, 4.0]))) == pytest.approx(1.0, rel=1e-14)
    assert float(certified_sigma_min_upper(fn, x, th, np.array([3.0, 4.0]), dps=15)) == pytest.approx(1.0)
    assert float(certified_sigma_min_upper(fn, x, th, np.array([3.0, 4.0]), dps=2000)) == pytest.approx(1.0)
    for kw, name in ((dict(X=x[None, :]), "X"), (dict(X=np.array([np.nan, 1.0])), "X"),
                     (dict(v=np.array([[0.6, 0.8]])), "v"), (dict(dps=2001), "dps")):
        args = dict(X=x, Theta=th, v=np.array([0.6, 0.8])) | kw
        with pytest.raises((ValueError, TypeError), match=f"^`{name}` "):
            certified_sigma_min_upper(fn, **args)
    assert singular_values_mp(mp.matrix([[3, 0], [0, 2]]), 15) == [3, 2]


def test_S_at_the_default_parameters():
    """kappa = 2, eps = 0.01, B = 1, mu = 0.1, p = 1, F(theta0) - F* = 1: A = 11521 and S = ceil(log2(A/eps)) = 21;
    with eps between 11521/2^21 and 11522/2^21 the unit gap F(theta0) - F* decides S (21, not 22)."""
    S, delta = theorem2_delta_mp()
    assert S == 21 and float(delta) == pytest.approx(0.5 ** 10.5, rel=1e-15)
    assert (S, delta) == theorem2_delta_mp(dps=50)  # 50 digits by default
    assert int(theorem2_delta_mp(eps=11521.5 / 2 ** 21)[0]) == 21
    assert int(theorem2_delta_mp(eps=11521.5 / 2 ** 21, F0_gap=2.0)[0]) == 22


def test_floor_closed_form_in_two_dimensions_and_below_one():
    # d = 2, eta = 2: l = 1, D = C(3, 2) = 3, q' = sqrt((r - 1)/6) - 1; r = 55: q' = 2, floor = 2^2/55
    assert float(inverse_norm_floor(55, 2, 2.0)) == pytest.approx(4 / 55, rel=1e-15)
    assert inverse_norm_floor(55, 2, 2.0) == inverse_norm_floor(55, 2, 2.0, dps=50)  # 50 digits by default
    # d = 1, eta = 2, r = 4: q' = 1/2 (any q' > 0 is admissible): floor = (1/2)^2/4
    assert float(inverse_norm_floor(4, 1, 2.0)) == pytest.approx(1 / 16, rel=1e-15)
    # eta = 1/2: l = 0, D = 1, q' = r - 2; r = 11: floor = 0! 9^(1/2)/11
    assert float(inverse_norm_floor(11, 1, 0.5)) == pytest.approx(3 / 11, rel=1e-15)
    assert float(inverse_norm_floor(11, 1, 0.5, dps=15)) == float(inverse_norm_floor(11, 1, 0.5, dps=10000))
    with pytest.raises(ValueError) as e:
        inverse_norm_floor(7, 2, 2.0)
    assert str(e.value) == "`r` must exceed d! C(l + d, d) + 1 = 7 so that q' > 0; got r=7.0"


@pytest.mark.parametrize("call, name", [
    (lambda: inverse_norm_floor(11, 0, 2.0), "d"), (lambda: inverse_norm_floor(11, 1.5, 2.0), "d"),
    (lambda: inverse_norm_floor(11, 1, 0.0), "eta"), (lambda: inverse_norm_floor(11, 1, np.nan), "eta"),
    (lambda: inverse_norm_floor(11, 1, 2.0, 0.0), "L2"), (lambda: inverse_norm_floor(11, 1, 2.0, np.nan), "L2"),
    (lambda: inverse_norm_floor(11, 1, 2.0, dps=10001), "dps"), (lambda: inverse_norm_floor(11, 1, 2.0, dps=14), "dps"),
    (lambda: theorem2_delta_mp(kappa=1.0), "kappa"), (lambda: theorem2_delta_mp(kappa=np.nan), "kappa"),
    (lambda: theorem2_delta_mp(eps=0.0), "eps"), (lambda: theorem2_delta_mp(eps=np.nan), "eps"),
    (lambda: proof_requirements_mp(100, 0, 2.0, 1.0, 0.1), "d"),
    (lambda: proof_requirements_mp(100, 1.5, 2.0, 1.0, 0.1), "d"),
    (lambda: proof_requirements_mp(100, 1, 0.0, 1.0, 0.1), "eta")])
def test_floor_delta_and_requirements_refuse_bad_arguments(call, name):
    with pytest.raises((ValueError, TypeError), match=f"^`{name}` "):
        call()


def test_requirements_defaults_and_a_small_eta():
    r, delta = mp.mpf(10) ** 6, mp.mpf("0.1")
    assert proof_requirements_mp(r, 1, 20.0, 1.0, delta) == proof_requirements_mp(r, 1, 20.0, 1.0, delta, 1.0)
    # eta = 1/2 is admissible (l = 0): (ii) = delta (i)^{1/2} / r^4 at d = 1
    req1, req2 = proof_requirements_mp(r, 1, 0.5, 1.0, delta)
    assert float(req2) == pytest.approx(0.1 * float(req1) ** 0.5 / 1e24, rel=1e-13)


def test_eq46_polynomial_equals_the_gradient_at_a_cell_centre_with_the_default_mu():
    """At the centre (1/2, 1/2) of the single q = 1 cell the Taylor polynomial is Appendix A's gradient itself,
    (sigmoid(theta x) - y) x + mu theta with mu = 0.1 (evaluated here in float64)."""
    P, _, _ = logistic_eq46_matrices_mp(np.array([[0.5, 0.5], [0.2, 0.9]]), np.array([[0.7], [-1.3]]), 1.0)
    for k, t in enumerate((0.7, -1.3)):
        assert float(P[0, k]) == pytest.approx((1 / (1 + math.exp(-t * 0.5)) - 0.5) * 0.5 + 0.1 * t, rel=1e-14)
    P50, _, _ = logistic_eq46_matrices_mp(np.array([[0.5, 0.5], [0.2, 0.9]]), np.array([[0.7], [-1.3]]), 1.0, dps=50)
    assert P == P50  # 50 digits by default


def test_default_precisions_of_the_singular_values_and_the_certificate():
    M = mp.matrix([[1, 2], [3, 4]])
    assert singular_values_mp(M) == singular_values_mp(M, 50)
    x, th, v = np.array([0.1, 0.4, 0.9]), np.array([0.2, 0.5]), np.array([0.6, -0.8])
    fn = lambda a, t: mp.cos(a * t)  # noqa: E731
    assert certified_sigma_min_upper(fn, x, th, v) == certified_sigma_min_upper(fn, x, th, v, dps=30)
    assert certified_sigma_min_upper(fn, x, th, v) != certified_sigma_min_upper(fn, x, th, v, dps=31)
