"""lp-proj's decaying schedules (Theorems 14, 15, 27, 28), recursion (32) and the App. A.5 sums.

Unit tests of :mod:`fedtheory.lpproj.schedules` against independent computations (Gamma-function products, brute-force
loops, exact rationals, synthetic power laws), bad-input errors, and the fails paths of the claims in
``checks/lpproj/schedules.py``.
"""
from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import special

from fedtheory import get_claim
from fedtheory.lpproj import schedules as sch
from fedtheory.lpproj import stochastic as sto


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


# ----------------------------------------------------------------------------- fails paths
def _frozen_schedule(fn_name, factor=1.0):
    """A broken schedule function: eta_t, nu_t and D_t stay at their t = 0 values (eta times ``factor``, batch 1),
    so the mini-batch noise never decays and E||.||^2 floors (log-log slope ~ 0)."""
    orig = getattr(sch, fn_name)

    def patched(*a, **k):
        s = orig(*a, **k)
        ones = np.ones_like(s.batch)
        return dataclasses.replace(s, eta=np.full_like(s.eta, s.eta[0] * factor),
                                   eta_tilde=np.full_like(s.eta, s.eta_tilde[0] * factor),
                                   nu=np.full_like(s.nu, s.nu[0]), batch=ones, batch_requested=ones)
    return patched


def _thm14_schedule_frozen(mp):
    mp.setattr(sch, "theorem14_schedule", _frozen_schedule("theorem14_schedule"))


def _eq32_sign_slip(mp):
    """The additive terms of (32) subtracted instead of added."""
    orig = sch.recursion32_rhs

    def patched(E, h, C, **k):
        base = (1 - C.params["mu_F"] * np.asarray(h) / 2) * np.asarray(E)
        return base - (orig(E, h, C, **k) - base)
    mp.setattr(sch, "recursion32_rhs", patched)


def _thm27_final_solve_shifted(mp):
    """The final personalised solve returns x + 5 (a broken last inner solve)."""
    orig = sto.run_algorithm1_sgd

    def patched(*a, **k):
        r = orig(*a, **k)
        return dataclasses.replace(r, x=r.x + 5.0)
    mp.setattr(sto, "run_algorithm1_sgd", patched)


def _alpha_unnormalised(mp):
    """The law of t* without its normalisation (alpha_i = eta_i/eta_0): the 'average' grows with T."""
    mp.setattr(sch, "sampling_law", lambda eta: np.asarray(eta, float) / float(np.asarray(eta)[0]))


def _thm15_big_steps_alpha_unnormalised(mp):
    """Steps 1000x the schedule's (frozen at t = 0, so the transient ends within the run) and the unnormalised
    law of t*."""
    mp.setattr(sch, "theorem15_schedule", _frozen_schedule("theorem15_schedule", 1000.0))
    _alpha_unnormalised(mp)


def _a5_corrected_is_printed(mp):
    orig = sch.a5_sums
    mp.setattr(sch, "a5_sums", lambda *a, **k: dataclasses.replace(orig(*a, **k), corrected=orig(*a, **k).printed))


def _eq33_corrected_is_printed(mp):
    orig = sch.theorem28_sums

    def patched(*a, **k):
        r = orig(*a, **k)
        return dataclasses.replace(r, corrected={5: r.bounds[5]} if r.no_sampling else {})
    mp.setattr(sch, "theorem28_sums", patched)


def _thm28_chain_times_lam(mp):
    """The chain computed with an extra factor L_F = lam."""
    orig = sch.theorem28_first_term

    def patched(T, *, lam, **k):
        chain, b = orig(T, lam=lam, **k)
        return chain * lam, b
    mp.setattr(sch, "theorem28_first_term", patched)


FAILS_PATHS_SCHEDULES = {
    "lpproj.thm14.rate": _thm14_schedule_frozen,
    "lpproj.eq32.recursion": _eq32_sign_slip,
    "lpproj.thm27.personalised": _thm27_final_solve_shifted,
    "lpproj.thm15.rate-no-sampling": _alpha_unnormalised,
    "lpproj.thm15.rate": _thm15_big_steps_alpha_unnormalised,
    "lpproj.a5.sums.erratum": _a5_corrected_is_printed,
    "lpproj.eq33.sums.erratum": _eq33_corrected_is_printed,
    "lpproj.thm28.first-term.erratum": _thm28_chain_times_lam,
}


def test_every_schedules_claim_has_a_fails_path():
    from fedtheory import get_paper

    ids = {c.id for c in get_paper("lpproj").claims() if c.func.__module__.endswith("lpproj.schedules")}
    assert ids == set(FAILS_PATHS_SCHEDULES)


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS_SCHEDULES))
def test_schedules_claim_can_fail(claim_id, monkeypatch, serial_uncached):
    FAILS_PATHS_SCHEDULES[claim_id](monkeypatch)
    v = get_claim(claim_id).evaluate(full=False)
    assert v.status == "refuted", v.summary()
    if claim_id.endswith(".erratum"):
        assert v.bound["corrected_holds"] is False and v.referee, v.summary()


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS_SCHEDULES))
def test_schedules_claim_quick_verdict(claim_id, serial_uncached):
    v = get_claim(claim_id).evaluate(full=False)
    expected = {"lpproj.thm15.rate": "inconclusive"}.get(claim_id,
                                                         "erratum" if claim_id.endswith(".erratum") else "holds")
    assert v.status == expected, v.summary()
