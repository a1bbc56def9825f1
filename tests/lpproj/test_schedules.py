"""Tests of :mod:`fedtheory.lpproj.schedules`: the decaying step-size schedules of Theorems 14, 15, 27 and 28 of
lp-proj (Han et al. 2024), recursion (32), the App. A.5 / A.6 sums, the regime checks and the log-log slope fit, by
hand and against brute force."""
import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import special

from fedtheory.lpproj import schedules as sch
from fedtheory.lpproj import schedules as SCH


# ----------------------------------------------------------------------------- schedules
def test_theorem14_product_telescopes_like_gamma_ratio():
    """prod_{s=t+1}^{T-1} (1 - mu_F eta~_s/2) = Gamma ratio (App. A.5's telescoping), for the library's eta~."""
    s = sch.theorem14_schedule(300, mu_F=0.3, L_F=0.45, beta=7.0, R=3, D=2.0)
    z = s.params["zeta"]
    T = 300
    for t in (0, 17, 150, 296, 299):
        prod = np.prod(1 - 0.3 * s.eta_tilde[t + 1:] / 2)
        ref = math.exp(special.gammaln(z + T - 4) + special.gammaln(z + t + 1)
                       - special.gammaln(z + t - 3) - special.gammaln(z + T))
        assert prod == pytest.approx(ref, rel=1e-10)
    assert np.allclose(s.eta * 7.0 * 3, s.eta_tilde, rtol=1e-14)


def test_theorem14_step_conditions_of_the_proof():
    """eta~_t <= 1/(9 L_F (1 + 7 kappa_F/beta)) <= beta/(5 L_F) and <= 1/mu_F, as the proof of Theorem 27 uses."""
    for mu_F, L_F, beta in ((0.04, 0.05, 50.0), (1.0, 10.0, 1.0), (0.2, 0.2, 3.0)):
        s = sch.theorem14_schedule(50, mu_F=mu_F, L_F=L_F, beta=beta, R=2, D=1.0)
        kappa = L_F / mu_F
        assert s.eta_tilde.max() <= 1 / (9 * L_F * (1 + 7 * kappa / beta)) * (1 + 1e-12)
        assert s.eta_tilde.max() <= min(1 / mu_F, beta / (5 * L_F))


@pytest.mark.parametrize("no_sampling", [False, True])
def test_delta_t_bounded_by_C0_eta(no_sampling):
    """Lemma 4's delta_t^2 = 2(1+s)^2/mu^2 (gamma^2/D_t + nu_t) with the schedule's ceil(D_t) is <= C_0 eta~_t (S < N)
    or <= C~_0 eta~_t^2/beta^2 (S = N), the proof's substitutions."""
    mu, s_, gamma, D, beta = 0.5, 0.3, 7.0, 0.9, 4.0
    mu_F, L_F = 0.04, 0.05
    sc = sch.theorem14_schedule(400, mu_F=mu_F, L_F=L_F, beta=beta, R=2, D=D, no_sampling=no_sampling)
    C = sch.recursion32_constants(lam=L_F, mu=mu, mu_F=mu_F, s=s_, gamma_f_sq=gamma, sigma_F1_sq=1.0, N=8, S=3, D=D)
    delta = 2 * (1 + s_) ** 2 / mu ** 2 * (gamma / sc.batch_requested + sc.nu)
    rhs = C.C0_no_sampling * sc.eta_tilde ** 2 / beta ** 2 if no_sampling else C.C0 * sc.eta_tilde
    assert np.all(delta <= rhs * (1 + 1e-12))


def test_batch_cap_and_flag():
    s = sch.theorem14_schedule(200, mu_F=0.5, L_F=1.0, beta=2.0, R=1, D=5.76, n=110)  # zeta = 1152, D_t 100..117
    assert np.all(s.batch <= 110) and np.all(s.batch == np.minimum(s.batch_requested, 110))
    assert np.array_equal(s.capped, s.batch_requested > 110) and s.capped.any() and not s.capped.all()
    assert "capped at n" in s.summary()


def test_theorem15_schedules_and_sampling_law():
    lam = sch.theorem15_lambda_min(0.3)
    assert lam == pytest.approx(math.sqrt(1.9))
    s = sch.theorem15_schedule(100, lam=lam, beta=1.0, R=2, D=10.0)
    # eta~_t sqrt(t+1) is constant; nu_t = eta~_t; D_t ~ 1/nu_t
    assert np.allclose(s.eta_tilde * np.sqrt(np.arange(1, 101)), s.eta_tilde[0], rtol=1e-13)
    assert np.allclose(s.nu, s.eta_tilde) and np.all(np.diff(s.batch_requested) >= 0)
    sn = sch.theorem15_schedule(100, lam=lam, beta=8.0, R=2, D=10.0, no_sampling=True)
    assert sn.eta_tilde[0] == pytest.approx(8 ** (2 / 3) * s.eta_tilde[0])  # beta^{2/3}/(c (t+1)^{1/3})
    assert sn.eta_tilde[7] == pytest.approx(sn.eta_tilde[0] / 2)  # (t+1)^{1/3} = 2 at t = 7
    a = sch.sampling_law(s.eta)
    # Monte Carlo referee of the law of t*
    rng = np.random.default_rng(0)
    draws = rng.choice(100, size=200_000, p=a)
    assert abs(np.mean(draws) - np.sum(a * np.arange(100))) < 5 * np.std(draws) / math.sqrt(2e5)
    assert a.sum() == pytest.approx(1) and np.all(np.diff(a) < 0)


# ----------------------------------------------------------------------------- recursion (32)
def test_recursion32_unrolled_equals_iterated():
    """Applying (32) with equality T times equals the unrolled sum of products the proof writes."""
    C = sch.recursion32_constants(lam=0.05, mu=0.5, mu_F=0.04, s=0.4, gamma_f_sq=10.0, sigma_F1_sq=0.3, N=8, S=3, D=2.0)
    s = sch.theorem14_schedule(80, mu_F=0.04, L_F=0.05, beta=50.0, R=2, D=2.0)
    h, beta, mu_F, E0 = s.eta_tilde, 50.0, 0.04, 3.0
    E = E0
    for t in range(80):
        E = sch.recursion32_rhs(E, h[t], C, beta=beta)
    a = 1 - mu_F * h / 2
    tail = np.array([np.prod(a[t + 1:]) for t in range(80)])
    unrolled = (np.prod(a) * E0 + (C.C0 * C.C1 + C.C2) * np.sum(h ** 2 * tail) + C.C3 / beta ** 2 * np.sum(h ** 3 * tail)
                + C.C0 * C.C4 / beta ** 2 * np.sum(h ** 4 * tail))
    assert E == pytest.approx(unrolled, rel=1e-12)
    # S = N form: the additive part is eta~^3 (C~0 C1 + C3)/beta^2 + eta~^4 C~0 C4/(9 L_F beta^4)
    add_ns = sch.recursion32_rhs(0.0, h, C, beta=beta, no_sampling=True)
    assert np.all(add_ns > 0) and np.all(np.diff(add_ns) < 0)


# ----------------------------------------------------------------------------- App. A.5 and (33) sums
def test_a5_sums_exact_against_float_brute_force():
    T, z = 40, 81
    r = sch.a5_sums(T, zeta=z, mu_F=Fraction(1, 2))
    h = 8 / (0.5 * (z + np.arange(T)))
    for k, val in zip((2, 3, 4), r.sums):
        brute = sum(h[t] ** k * np.prod(1 - 0.5 * h[t + 1:] / 2) for t in range(T))
        assert val == pytest.approx(brute, rel=1e-12)
    assert r.params["exact"] and all(s > p for s, p in zip(r.sums, r.printed))
    assert all(s <= c for s, c in zip(r.sums, r.corrected))
    rf = sch.a5_sums(T, zeta=81.0, mu_F=0.5)
    assert np.allclose(rf.sums, r.sums, rtol=1e-12) and not rf.params["exact"]


def test_theorem28_sums_against_brute_force():
    for ns, beta in ((False, 1.0), (True, 30.0)):
        r = sch.theorem28_sums(57, lam=1.5, beta=beta, no_sampling=ns)
        c = 90 * 1.5 ** 3
        t1 = np.arange(1, 58, dtype=float)
        eta = 1 / (c * np.sqrt(t1)) if not ns else beta ** (2 / 3) / (c * t1 ** (1 / 3))
        for k, v in r.sums.items():
            assert v == pytest.approx(np.sum(eta ** k), rel=1e-12)
        ra = sch.theorem28_sums(np.array([3, 57]), lam=1.5, beta=beta, no_sampling=ns)
        for k in r.sums:
            assert ra.sums[k][1] == pytest.approx(r.sums[k], rel=1e-12)
    h = sch.theorem28_sums(np.arange(1, 10), lam=1.0, beta=1.0, no_sampling=True).holds()
    assert list(h[5]) == [True, True, True] + [False] * 6  # sum_{i<=T} i^{-5/3} > 3/2 from T = 4


def test_theorem28_first_term_chain():
    chain, bound = sch.theorem28_first_term(1000, lam=2.0, Delta_F=3.0)
    c = 90 * 8.0
    assert chain == pytest.approx(4 * 3.0 / np.sum(1 / (c * np.sqrt(np.arange(1, 1001)))), rel=1e-12)
    assert chain <= bound


def test_loglog_slope_recovers_power_law():
    rng = np.random.default_rng(3)
    x = np.geomspace(10, 1000, 8)
    Y = 5 * x ** -1.5 * rng.exponential(1.0, (400, 8))
    f = sch.loglog_slope(x, Y, seed=1)
    assert f.ci[0] <= -1.5 <= f.ci[1] and f.ci[1] - f.ci[0] < 0.2
    assert "slope" in f.summary()


# ----------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("kw, msg", [
    (dict(D=0.0), "`D` must be in"),
    (dict(D=-1.0), "`D` must be in"),
    (dict(beta=0.5), "`beta` must be in"),
    (dict(mu_F=0.0), "`mu_F` must be in"),
    (dict(mu_F=-1.0), "`mu_F` must be in"),
    (dict(L_F=0.01), "`L_F` must be in"),
    (dict(n=0), "`n` must be in"),
    (dict(T=0), "`T` must be in"),
    (dict(D=float("nan")), "`D` must be finite"),
])
def test_theorem14_bad_input(kw, msg):
    args = dict(T=10, mu_F=0.1, L_F=0.2, beta=2.0, R=2, D=1.0)
    args.update(kw)
    T = args.pop("T")
    with pytest.raises(ValueError, match=msg):
        sch.theorem14_schedule(T, **args)


@pytest.mark.parametrize("kw, msg", [
    (dict(lam=0.0), "`lam` must be in"),
    (dict(lam=1.0, L=0.3), r"`lam` must be >= max\(sqrt\(10 L\^2 \+ 1\), 4 L\)"),
    (dict(D=0.0), "`D` must be in"),
    (dict(beta=0.9), "`beta` must be in"),
    (dict(L_F=-2.0), "`L_F` must be in"),
])
def test_theorem15_bad_input(kw, msg):
    args = dict(lam=2.0, beta=1.0, R=1, D=1.0)
    args.update(kw)
    with pytest.raises(ValueError, match=msg):
        sch.theorem15_schedule(10, **args)


def test_check_schedule_regime():
    s = sch.theorem14_schedule(50, mu_F=0.04, L_F=0.05, beta=50.0, R=2, D=1.0)
    assert np.array_equal(sch.check_schedule_regime("theorem14", s.eta_tilde, beta=50.0, L_F=0.05, mu_F=0.04),
                          s.eta_tilde)
    with pytest.raises(ValueError, match=r"outside theorem14's range: eta~_0 = .* > 1/\(9 L_F"):
        sch.check_schedule_regime("theorem14", s.eta_tilde * 1.01, beta=50.0, L_F=0.05, mu_F=0.04)
    lam = 1.4
    s15 = sch.theorem15_schedule(50, lam=lam, beta=1.0, R=2, D=1.0)
    sch.check_schedule_regime("theorem15", s15.eta_tilde, beta=1.0, L_F=lam, lam=lam)
    with pytest.raises(ValueError, match=r"1/\(90 lam\^2 L_F\)"):
        sch.check_schedule_regime("theorem15", s15.eta_tilde * 2, beta=1.0, L_F=lam, lam=lam)
    sn = sch.theorem15_schedule(50, lam=lam, beta=2000.0, R=2, D=1.0, no_sampling=True)
    sch.check_schedule_regime("theorem15", sn.eta_tilde, beta=2000.0, L_F=lam, no_sampling=True)
    with pytest.raises(ValueError, match="`theorem` must be"):
        sch.check_schedule_regime("theorem9", s.eta_tilde, beta=1.0, L_F=1.0)


def test_other_bad_input():
    with pytest.raises(ValueError, match="`eta` must be in"):
        sch.sampling_law(np.array([0.1, 0.0]))
    with pytest.raises(ValueError, match="`zeta` must be in"):
        sch.a5_sums(5, zeta=3, mu_F=1)
    with pytest.raises(ValueError, match="`gamma_f_sq` must be in"):
        sch.recursion32_constants(lam=1.0, mu=1.0, mu_F=0.5, s=0.1, gamma_f_sq=-1.0, sigma_F1_sq=0.1, N=4, S=2, D=1.0)
    with pytest.raises(ValueError, match="`S` must be in"):
        sch.recursion32_constants(lam=1.0, mu=1.0, mu_F=0.5, s=0.1, gamma_f_sq=1.0, sigma_F1_sq=0.1, N=4, S=5, D=1.0)
    with pytest.raises(ValueError, match="`T` must be"):
        sch.theorem28_sums(np.array([0, 3]), lam=1.0)


def test_schedules_validation_names_and_reasons():
    kw14 = dict(mu_F=0.5, L_F=2.0, beta=2.0, R=3, D=1.0)
    with pytest.raises(ValueError, match="`R`"):
        SCH.theorem14_schedule(5, **{**kw14, "R": 0})
    with pytest.raises(ValueError, match="Proposition 3"):
        SCH.theorem14_schedule(5, **{**kw14, "mu_F": 0.0})
    with pytest.raises(ValueError, match="smoothness of the F_k"):
        SCH.theorem14_schedule(5, **{**kw14, "L_F": 0.25})
    with pytest.raises(ValueError, match="`beta`"):
        SCH.theorem14_zeta(2.0, 0.5)
    with pytest.raises(ValueError, match="assume beta >= 1"):
        SCH.check_schedule_regime("theorem15", [0.01], beta=0.5, L_F=1.0, no_sampling=True)
    with pytest.raises(ValueError, match="`lam`"):
        SCH.recursion32_constants(lam=0.0, mu=1.0, mu_F=0.5, s=0.0, gamma_f_sq=1.0, sigma_F1_sq=1.0, N=4, S=2, D=1.0)
    c = SCH.recursion32_constants(lam=1.0, mu=1.0, mu_F=0.5, s=0.0, gamma_f_sq=1.0, sigma_F1_sq=1.0, N=4, S=2, D=1.0)
    with pytest.raises(ValueError, match="`eta_tilde`"):
        SCH.recursion32_rhs(1.0, 0.0, c, beta=1.0)
    with pytest.raises(ValueError, match="assume beta >= 1"):
        SCH.recursion32_rhs(1.0, 0.1, c, beta=0.5)
    with pytest.raises(ValueError, match="`T`"):
        SCH.a5_sums(0, zeta=10)
    with pytest.raises(ValueError, match="`T`"):
        SCH.theorem28_first_term(0, lam=1.0)


def test_schedule_params_and_summary():
    s = SCH.theorem14_schedule(5, mu_F=0.5, L_F=2.0, beta=2.0, R=3, D=1.0, no_sampling=True, n=7)
    assert s.params["mu_F"] == 0.5 and s.params["L_F"] == 2.0 and s.params["kappa_F"] == 4.0 and s.params["n"] == 7
    assert "(S = N)" in s.summary()
    t = SCH.theorem15_schedule(4, lam=5.0, beta=1.0, R=2, D=1.0, L=1.0)
    assert t.params["L_F"] == 5.0 and t.params["L"] == 1.0


def test_check_schedule_regime_theorem15_caps():
    # S = N: the cap is beta/(5 L_F) = 0.1 (L_F = 2, beta = 1); round 1 exceeds it
    with pytest.raises(ValueError, match=r"eta~_1 .*beta/\(5 L_F\)"):
        SCH.check_schedule_regime("theorem15", [0.05, 0.2], beta=1.0, L_F=2.0, no_sampling=True)
    # S < N, lam = 0.3, L_F = 1: 1/(90 lam^2 L_F) = 0.1235 < beta/(5 L_F) = 0.2, so the cap is 0.1235
    with pytest.raises(ValueError, match=r"1/\(90 lam\^2 L_F\)"):
        SCH.check_schedule_regime("theorem15", [0.15], beta=1.0, L_F=1.0, lam=0.3)
    SCH.check_schedule_regime("theorem15", [0.12], beta=1.0, L_F=1.0, lam=0.3)


def test_recursion32_constants_hand_values():
    c = SCH.recursion32_constants(lam=2.0, mu=0.5, mu_F=0.25, L_F=3.0, s=0.1, gamma_f_sq=2.0, sigma_F1_sq=1.5,
                                  N=10, S=4, D=3.0)
    # hand evaluation: 1 + D g/8 = 1.75, (1+s)^2 = 1.21, kappa = 12
    assert c.C0 == pytest.approx(2 * 1.21 / 0.25 * 1.75, rel=1e-12)     # 16.94
    assert c.C1 == pytest.approx(10 * 4 / 0.25, rel=1e-12)              # 160
    assert c.C3 == pytest.approx(280 * 12 * 3 * 1.5, rel=1e-12)         # 15120
    assert c.C0 == pytest.approx(16.94, rel=1e-12) and c.C3 == pytest.approx(15120.0, rel=1e-12)
    assert c.params["gamma_f_sq"] == 2.0


def test_a5_sums_printed_and_corrected_bounds_by_hand():
    a = SCH.a5_sums(1, zeta=10, mu_F=1)
    # T = 1: zeta + T - j = 10, 9, 8, 7
    assert a.printed[2] == pytest.approx(256 / 5040, rel=1e-12)
    assert a.corrected == pytest.approx((64 / 30, 256 / 90, 4096 / 5040), rel=1e-12)
    # the corrected constants are 4, 8 and 16 times the printed ones
    b = SCH.a5_sums(7, zeta=Fraction(21, 2), mu_F=Fraction(1, 2))
    assert [c / p for c, p in zip(b.corrected, b.printed)] == pytest.approx([4, 8, 16], rel=1e-12)
    assert "eta~^2" in b.summary() and "corrected" in b.summary()


def test_theorem28_sums_bounds_and_corrected_by_hand():
    T, lam = 8, 1.0
    c = 90.0
    r = SCH.theorem28_sums(T, lam=lam)
    assert set(r.bounds) == {1, 2, 3, 4}
    assert r.bounds[2] == pytest.approx((math.log(8) + 1) / c ** 2, rel=1e-12)
    s = SCH.theorem28_sums(T, lam=lam, no_sampling=True)
    brute5 = sum(i ** (-5 / 3) for i in range(1, T + 1))  # a plain loop
    assert s.sums[5] == pytest.approx(brute5 / c ** 5, rel=1e-12)
    # T = 8: 1 + 1.5 (1 - 8^(-2/3)) = 2.125; it bounds the sum and stays below 5/2
    assert s.corrected[5] == pytest.approx(2.125 / c ** 5, rel=1e-12)
    assert s.sums[5] <= s.corrected[5] < 2.5 / c ** 5
    assert "sum eta~^5 = 2.98668e-10" in s.summary()


def test_theorem28_first_term_by_hand():
    chain, bound = SCH.theorem28_first_term(3, lam=2.0, Delta_F=1.5)
    c = 90 * 4 * 2.0
    assert bound == pytest.approx(180 * 4 * 2.0 * 1.5 / 1.0, rel=1e-12)  # sqrt(T + 1) - 1 = 1
    assert chain == pytest.approx(4 * 1.5 * c / (1 + 2 ** -0.5 + 3 ** -0.5), rel=1e-12)
    assert SCH.theorem28_first_term(8, lam=2.0, Delta_F=1.5)[1] == pytest.approx(2160.0 / 2, rel=1e-12)  # sqrt(9) - 1
    with pytest.raises(ValueError, match="`T`=10000000000"):
        SCH.theorem28_first_term(10 ** 10, lam=1.0)


def test_schedules_names_edges_and_hand_values():
    kw14 = dict(mu_F=0.5, L_F=2.0, beta=2.0, R=3, D=1.0)
    with pytest.raises(ValueError, match="`T`=10000000000"):
        SCH.theorem14_schedule(10 ** 10, **kw14)
    one = SCH.theorem14_schedule(4, n=1, **kw14)  # n = 1 sample per client is admissible: every batch is 1
    assert np.all(one.batch == 1) and np.all(one.capped)
    with pytest.raises(ValueError, match="`kappa_F`"):
        SCH.theorem14_zeta(0.5, 1.0)
    z = SCH.theorem14_zeta(2.0, 4.0)
    assert isinstance(z, float) and z == pytest.approx(72 * 2 * (1 + 7 * 2 / 4), rel=1e-14)  # 648
    with pytest.raises(TypeError, match="`no_sampling`"):
        SCH.theorem15_schedule(3, lam=5.0, beta=1.0, R=2, D=1.0, no_sampling="yes")
    t = SCH.theorem15_schedule(4, lam=5.0, beta=1.0, R=2, D=1.0, n=3)
    assert np.all(t.batch == 3) and np.all(t.capped) and np.all(t.batch_requested > 3)  # c = 11250 samples asked
    for call in (lambda: SCH.theorem28_sums(3, lam=1e30), lambda: SCH.theorem15_schedule(2, lam=1e30, beta=1.0, R=1, D=1.0)):
        with pytest.raises(ValueError, match="c = 90 lam\\^2 L_F"):  # c = 9e61 > 1e60
            call()
    with pytest.raises(ValueError, match="> 1/\\(90 lam\\^2 L_F\\) ="):
        SCH.check_schedule_regime("theorem15", [0.15], beta=1.0, L_F=1.0, lam=0.3)
    ckw = dict(lam=1.0, mu=1.0, mu_F=0.5, s=0.0, gamma_f_sq=1.0, sigma_F1_sq=1.0, N=4, D=1.0)
    with pytest.raises(ValueError, match="1 <= S <= N = 4"):
        SCH.recursion32_constants(S=5, **ckw)
    c = SCH.recursion32_constants(lam=3.0, mu=0.4, mu_F=0.5, L_F=1.5, s=0.0, gamma_f_sq=0.0, sigma_F1_sq=1.5,
                                  N=10, S=4, D=1.0)
    assert c.C0 == pytest.approx(2 / 0.16, rel=1e-12)                     # 12.5
    assert c.C2 == pytest.approx(6 * 1.5 * 1.5 / 9, rel=1e-12)            # 1.5
    assert c.C4 == pytest.approx(200 * 3 * 1.5 * 9, rel=1e-12)            # kappa = 3: 8100
    assert c.C0_no_sampling == pytest.approx(0.5 / (4 * 0.16), rel=1e-12)  # 0.78125
    with pytest.raises(ValueError, match="`E_delta`"):
        SCH.recursion32_rhs(-1.0, 0.1, c, beta=1.0)
    # S = N form by hand: (1 - mu_F h/2) E + h^3 (C0~ C1 + C3)/beta^2 + h^4 C0~ C4/(9 L_F beta^4), h = 0.1, beta = 2
    ref = ((1 - 0.5 * 0.1 / 2) * 2.0 + 0.1 ** 3 * (c.C0_no_sampling * c.C1 + c.C3) / 4
           + 0.1 ** 4 * c.C0_no_sampling * c.C4 / (9 * 1.5 * 16))
    assert SCH.recursion32_rhs(2.0, 0.1, c, beta=2.0, no_sampling=True) == pytest.approx(ref, rel=1e-12)
    with pytest.raises(ValueError, match="`mu_F`"):
        SCH.a5_sums(3, zeta=10, mu_F=0)
    assert SCH.a5_sums(3, zeta=10, mu_F=2).params["mu_F"] == 2.0
    with pytest.raises(ValueError, match="assume beta >= 1"):
        SCH.theorem28_sums(3, lam=1.0, beta=0.5)
    r = SCH.theorem28_sums(8, lam=2.0)
    assert r.bounds[1] == pytest.approx(2 / 360, rel=1e-12) and r.params["lam"] == 2.0  # (sqrt 9 - 1)/(45 * 4 * 2)
    assert ">= " in r.summary().split(";")[0]
    ns = SCH.theorem28_sums(7, lam=1.0, no_sampling=True)
    assert ns.bounds[1] == pytest.approx(3 / 60, rel=1e-12)  # (8^(2/3) - 1)/60


def test_slope_fit_interval_intercept_and_messages():
    x = np.array([1.0, 2.0, 4.0])
    Y = np.vstack([3 / x, 3 / x, 3.3 / x])
    fit = SCH.loglog_slope(x, Y, n_boot=200)
    assert fit.intercept == pytest.approx(math.log(3.1), rel=1e-12) and fit.slope == pytest.approx(-1.0, abs=1e-12)
    lo, hi = fit.interval(0.95)
    assert lo == pytest.approx(fit.slope - 1.959963984540054 * fit.se, abs=1e-12)
    assert hi == pytest.approx(fit.slope + 1.959963984540054 * fit.se, abs=1e-12)
    with pytest.raises(ValueError, match="`x` must be 1-d"):
        SCH.loglog_slope(x, Y[:, :2])
    with pytest.raises(ValueError, match="positive column means"):
        SCH.loglog_slope(x, np.vstack([3 / x, 3 / x]) * np.array([1.0, 0.0, 1.0]))


def test_loglog_slope_validation_and_bootstrap_by_enumeration():
    x = np.array([1.0, 2.0, 4.0, 8.0])
    Y = np.vstack([x ** -1.0, x ** -2.0])
    for bad in (dict(level=0.0), dict(level=1.0)):
        with pytest.raises(ValueError, match="`level`"):
            SCH.loglog_slope(x, Y, **bad)
    with pytest.raises(ValueError, match="`n_boot`"):
        SCH.loglog_slope(x, Y, n_boot=5)
    with pytest.raises(ValueError, match="`x`"):
        SCH.loglog_slope(np.array([0.0, 1.0, 2.0, 4.0]), Y)
    fit = SCH.loglog_slope(x, Y, level=0.99, n_boot=2000, seed=1)
    np.testing.assert_array_equal(fit.x, x)
    # two replicates: a resample is both of row 0 (slope -1, prob 1/4), both of row 1 (slope -2, 1/4) or mixed;
    # the 99% percentile interval therefore runs exactly from -2 to -1
    assert fit.ci[0] == pytest.approx(-2.0, abs=1e-9) and fit.ci[1] == pytest.approx(-1.0, abs=1e-9)


def test_schedules_broadcasting_sampling_law_and_regime_caps():
    np.testing.assert_allclose(SCH.theorem14_zeta([2.0, 3.0], 4.0), [648.0, 72 * 3 * (1 + 21 / 4)], rtol=1e-14)
    with pytest.raises(ValueError, match=r"\(smoothness of the f_k \(Assumption 4\)\); got"):
        SCH.theorem15_schedule(3, lam=5.0, beta=1.0, R=2, D=1.0, L=0.0)
    assert SCH.theorem15_schedule(3, lam=5.0, beta=1.0, R=2, D=1.0).params["R"] == 2
    np.testing.assert_allclose(SCH.sampling_law([1.0, 3.0]), [0.25, 0.75], rtol=1e-15)
    with pytest.raises(ValueError, match="non-empty 1-d"):
        SCH.sampling_law(np.ones((2, 2)))
    with pytest.raises(ValueError, match="`lam`"):
        SCH.check_schedule_regime("theorem15", [0.01], beta=1.0, L_F=1.0, lam=0.0)
    # lam = 1/12, beta = 8, L_F = 1: 1/(90 lam^2 L_F) = beta/(5 L_F) = 1.6 exactly; the cap keeps its first form
    with pytest.raises(ValueError, match=r"> beta/\(5 L_F\) = 1.6"):
        SCH.check_schedule_regime("theorem15", [1.7], beta=8.0, L_F=1.0, lam=1 / 12)
    kw = dict(lam=1.0, mu=1.0, mu_F=0.5, s=0.0, gamma_f_sq=1.0, N=4, S=2, D=1.0)
    with pytest.raises(ValueError, match="`sigma_F1_sq`"):
        SCH.recursion32_constants(sigma_F1_sq=-1.0, **kw)
    with np.errstate(all="ignore"), pytest.raises(ValueError, match=r"^recursion \(32\)'s constants overflow"):
        SCH.recursion32_constants(sigma_F1_sq=1.0, **{**kw, "lam": 1e150})
    c = SCH.recursion32_constants(sigma_F1_sq=1.0, **kw)
    with np.errstate(all="ignore"), pytest.raises(ValueError, match="`E_delta`, `eta_tilde`, `consts`"):
        SCH.recursion32_rhs(1e308, 1e60, c, beta=1.0)  # (1 - mu_F h/2) E_delta overflows
    with pytest.raises(ValueError, match=r"the A\.5 sums"):
        SCH.a5_sums(10 ** 9, zeta=10)
    r = SCH.theorem28_sums(8, lam=1.0, L_F=2.0)
    assert r.bounds[1] == pytest.approx(2 / 90, rel=1e-12)  # (sqrt 9 - 1)/(45 lam^2 L_F)
    r1 = SCH.theorem28_sums(8, lam=1.0)
    assert r1.bounds[3] == pytest.approx(3 / 90 ** 3, rel=1e-12)
    ns = SCH.theorem28_sums(8, lam=1.0, beta=2.0, no_sampling=True)
    assert ns.bounds[3] == pytest.approx(4 * (math.log(8) + 1) / 90 ** 3, rel=1e-12)
    assert ns.corrected[5] == pytest.approx(2.125 * 2 ** (10 / 3) / 90 ** 5, rel=1e-12)
    with pytest.raises(ValueError, match="`beta`"):
        SCH.theorem28_sums(8, lam=1.0, beta=0.5)
    with pytest.raises(ValueError, match=r"^the power sum \(T terms\) would need"):
        SCH.theorem28_first_term(10 ** 10, lam=1.0)
    with pytest.raises(ValueError, match="`Delta_F`"):
        SCH.theorem28_first_term(3, lam=1.0, Delta_F=-1.0)


def test_loglog_slope_bootstrap_se_against_a_refit():
    from fedtheory.random import as_generator

    x = np.array([1.0, 2.0, 4.0, 8.0])
    Y = np.random.default_rng(5).uniform(0.5, 2.0, (6, 4)) / x
    fit = SCH.loglog_slope(x, Y, n_boot=10, seed=3)  # n_boot = 10 is the smallest admissible
    idx = as_generator(3).integers(0, 6, (10, 6))
    slopes = [np.polyfit(np.log(x), np.log(Y[i].mean(0)), 1)[0] for i in idx]
    assert fit.se == pytest.approx(np.std(slopes, ddof=1), rel=1e-9)


# ----------------------------------------------------------------------------- Theorem 15 exact moments
@pytest.mark.parametrize("no_sampling", [False, True])
def test_theorem15_rounds_match_the_schedule(no_sampling):
    """The block formulas of the moment recursion are those of theorem15_schedule (eta~_t, sqrt(nu_t), min(D_t, n))."""
    lam, beta, R, n = 1.3, (50.0 if no_sampling else 3.0), 2, 40
    c = 90 * lam ** 3
    D = c * (beta ** (2 / 3) if no_sampling else 1.0) / 3
    s = sch.theorem15_schedule(500, lam=lam, beta=beta, R=R, D=D, no_sampling=no_sampling, n=n)
    for t0, t1 in ((0, 500), (0, 7), (123, 500)):
        et, sq, b = sch._theorem15_rounds(t0, t1, c=c, beta=beta, D=D, n=n, no_sampling=no_sampling)
        assert np.allclose(et, s.eta_tilde[t0:t1], rtol=1e-13)
        assert np.allclose(sq, np.sqrt(s.nu[t0:t1]), rtol=1e-13)
        assert np.array_equal(b, s.batch[t0:t1])


def _one_round_enumerated(theta_i, w0, *, L0, lam, eta, sqrt_nu, b, S, R, beta, saturating):
    """E e_1 and E e_1^2 of one round of Algorithm 1 on the shared-curvature instance by enumerating every client
    subset and every mini-batch of every local step (brute force, independent of the recursion's formulas)."""
    import itertools

    N, n = theta_i.shape
    batches = list(itertools.combinations(range(n), b))
    w_star = theta_i.mean()
    # law of one client's w_{k,R}: enumerate the R mini-batches
    law = []
    for k in range(N):
        vals = []
        for seq in itertools.product(batches, repeat=R):
            w = w0
            for bt in seq:
                z = (L0 * theta_i[k, list(bt)].mean() + lam * w) / (L0 + lam)
                z += sqrt_nu / (L0 + lam) if saturating else 0.0
                w = w - eta * lam * (w - z)
            vals.append(w)
        law.append(np.array(vals))
    m1 = m2 = 0.0
    subsets = list(itertools.combinations(range(N), S))
    for sub in subsets:  # clients independent given the subset: E over the product law
        mean_sub = sum(law[k].mean() for k in sub) / S
        var_sub = sum(law[k].var() for k in sub) / S ** 2
        e_mean = (1 - beta) * w0 + beta * mean_sub - w_star
        m1 += e_mean
        m2 += e_mean ** 2 + beta ** 2 * var_sub
    return m1 / len(subsets), m2 / len(subsets)


@pytest.mark.parametrize("saturating", [False, True])
@pytest.mark.parametrize("b_frac", [0.34, 0.67])
def test_theorem15_exact_moments_one_round_by_enumeration(saturating, b_frac):
    """One round from w~_0 (any w0): the recursion's mean and second moment equal brute-force enumeration over
    the client subsets and all mini-batches (N = 4, S = 2, n = 3, R = 2)."""
    rng = np.random.default_rng(5)
    theta_i = rng.standard_normal((4, 3)) + rng.standard_normal((4, 1))
    L0, lam, beta, R, n, S = 0.2, sch.theorem15_lambda_min(0.2), 1.5, 2, 3, 2
    c = 90 * lam ** 3
    D = c / (b_frac * n) * 0.999  # D_0 = ceil(c/D) = round(b_frac n)
    et, sq, b = sch._theorem15_rounds(0, 1, c=c, beta=beta, D=D, n=n, no_sampling=False)
    w0 = 0.7
    r = sch.theorem15_exact_moments(np.array([1]), curvature=L0, lam=lam, theta=theta_i.mean(1),
                                    theta_var=theta_i.var(1), n=n, S=S, R=R, beta=beta, D=D, no_sampling=False,
                                    w0=w0, record_t=[1])
    i = 1 if saturating else 0
    m1, m2 = _one_round_enumerated(theta_i, w0, L0=L0, lam=lam, eta=et[0] / (beta * R), sqrt_nu=sq[0], b=int(b[0]),
                                   S=S, R=R, beta=beta, saturating=saturating)
    assert r.mean[i, 0] == pytest.approx(m1, rel=1e-10, abs=1e-14)
    assert r.mean[i, 0] ** 2 + r.var[0] == pytest.approx(m2, rel=1e-10)
    # E||grad F(w~_t*)||^2 at T = 1 is h^2 E e_0^2
    h = lam * L0 / (lam + L0)
    assert r.Y[i, 0] == pytest.approx(h * h * (w0 - theta_i.mean()) ** 2, rel=1e-12)


@pytest.mark.parametrize("no_sampling", [False, True])
def test_theorem15_exact_moments_blocks_match_a_plain_loop(no_sampling):
    """The closed-form blocks (block = 16, crossing the mini-batch/full-batch switch) equal a plain round-by-round
    loop of the same recursion, including Y(T) = sum_t eta_t E||grad F||^2/sum_t eta_t."""
    rng = np.random.default_rng(2)
    theta, tv = rng.standard_normal(6), rng.uniform(0.1, 1, 6)
    L0, lam, R, n = 0.3, sch.theorem15_lambda_min(0.3), 3, 20
    beta, S = (30.0, 6) if no_sampling else (1.0, 2)
    c = 90 * lam ** 3
    D = c * (beta ** (2 / 3) if no_sampling else 1.0) / 2
    T = 300
    r = sch.theorem15_exact_moments(np.array([10, 77, T]), curvature=L0, lam=lam, theta=theta, theta_var=tv, n=n,
                                    S=S, R=R, beta=beta, D=D, no_sampling=no_sampling, w0=-0.4, block=16,
                                    record_t=[0, 5, 300])
    s = sch.theorem15_schedule(T, lam=lam, beta=beta, R=R, D=D, no_sampling=no_sampling, n=n)
    h = lam * L0 / (lam + L0)
    w_star = theta.mean()
    cS = (len(theta) / S - 1) / (len(theta) - 1) * np.mean((theta - w_star) ** 2)
    m = np.array([-0.4 - w_star] * 2)
    v, num, Y, M, V = 0.0, np.zeros(2), {}, {0: m.copy()}, {0: 0.0}
    for t in range(T):
        num = num + s.eta_tilde[t] * h * h * (m ** 2 + v)
        if t + 1 in (10, 77, T):
            Y[t + 1] = num / s.eta_tilde[: t + 1].sum()
        q = s.eta[t] * h
        phi = 1 - (1 - q) ** R
        a = 1 - beta * phi
        kap = sum((1 - q) ** (2 * j) for j in range(R))
        bb = s.batch[t]
        var_z = beta ** 2 * phi ** 2 * cS + (beta * q) ** 2 * kap * (n - bb) / (bb * (n - 1)) * tv.mean() / S
        bias = beta * phi * math.sqrt(s.nu[t]) * lam / ((L0 + lam) * h)
        m = a * m + np.array([0.0, bias])
        v = a * a * v + var_z
        M[t + 1], V[t + 1] = m.copy(), v
    for j, TT in enumerate((10, 77, T)):
        assert np.allclose(r.Y[:, j], Y[TT], rtol=1e-9)
    for j, tt in enumerate((0, 5, 300)):
        assert np.allclose(r.mean[:, j], M[tt], rtol=1e-9, atol=1e-15)
        assert r.var[j] == pytest.approx(V[tt], rel=1e-9, abs=1e-300)


def test_theorem15_exact_moments_rejects_bad_inputs():
    kw = dict(curvature=0.2, lam=1.2, theta=np.zeros(3), theta_var=np.ones(3), n=5, S=2, R=2, beta=1.0, D=1.0,
              no_sampling=False)
    with pytest.raises(ValueError, match="increasing"):
        sch.theorem15_exact_moments(np.array([5, 3]), **kw)
    with pytest.raises(ValueError, match="S = N"):
        sch.theorem15_exact_moments(np.array([5]), **{**kw, "no_sampling": True})
    with pytest.raises(ValueError, match="record_t"):
        sch.theorem15_exact_moments(np.array([5]), record_t=[6], **kw)
