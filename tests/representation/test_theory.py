"""Tests of :mod:`fedtheory.representation.theory`: the closed forms of FedRep (Collins et al. 2021): Theorem 1's
rate, probability, rounds and sample complexity (11), the method-of-moments expectation, FedAvg's minimiser (4) and
the population objective (5)-(6), the federation-helps interval and the min-norm / OLS risks, by hand, by simulation
and by their errors."""
import itertools
import math

import numpy as np
import pytest
from scipy import stats

from fedtheory import mc_mean
from fedtheory.linalg import random_orthonormal
from fedtheory.representation import (client_diversity, fedavg_global_error, federation_helps_interval, make_model,
                                      min_norm_interpolation_risk, mom_expectation, ols_excess_risk,
                                      population_objective, run_fedrep, sample_complexity, theorem1_bound,
                                      theorem1_max_eta, theorem1_probability, theorem1_rate)
from fedtheory.representation.theory import fedavg_minimiser, theorem1_rounds_to_eps


# --------------------------------------------------------------------------- objective (6)
def test_population_objective_hand_case():
    """d = k = n = 1, B = B* = 1, w = 0, w* = 1: F = (1/2) E[(x + sigma z)^2] = (1 + sigma^2)/2."""
    one = np.ones((1, 1))
    assert population_objective(one, 0 * one, one, one) == pytest.approx(0.5, abs=1e-15)
    assert population_objective(one, 0 * one, one, one, sigma=2.0) == pytest.approx(2.5, abs=1e-15)
    # perfect fit leaves only the noise term sigma^2 / 2
    assert population_objective(one, one, one, one, sigma=0.3) == pytest.approx(0.045, abs=1e-15)


def test_population_objective_against_monte_carlo():
    """(1/2n) sum_i E[(y_i - w_i^T B^T x)^2] by sampling x ~ N(0, I) and the label noise."""
    d, k, n, sigma = 5, 2, 4, 0.7
    rng = np.random.default_rng(0)
    model = make_model(d, k, n, seed=1)
    B = random_orthonormal(rng, d, k)
    W = rng.standard_normal((n, k))
    reps = 100_000
    per_rep = np.zeros(reps)
    for i in range(n):
        x = rng.standard_normal((reps, d))
        y = x @ model.theta_star[i] + sigma * rng.standard_normal(reps)
        per_rep += 0.5 * (y - x @ (B @ W[i])) ** 2 / n
    mean, se = per_rep.mean(), per_rep.std(ddof=1) / math.sqrt(reps)
    F = population_objective(B, W, model.B_star, model.W_star, sigma)
    assert abs(F - mean) < 4.5 * se, (F, mean, se)


def _quiet():
    import warnings
    ctx = warnings.catch_warnings()
    ctx.__enter__()
    warnings.simplefilter("error")
    return ctx


def test_fedavg_minimiser_and_global_error_hand_case():
    B_star = np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]])
    W_star = np.array([[1.0, 2.0], [3.0, 4.0], [2.0, 0.0]])
    v = fedavg_minimiser(B_star, W_star)
    np.testing.assert_allclose(v, [2.0, 2.0, 0.0])
    # v minimises (1/2n) sum_i ||v - theta_i||^2: gradient zero, value = the printed minimum of (4)
    from scipy.optimize import minimize
    theta = W_star @ B_star.T
    f = lambda u: 0.5 * np.mean(np.sum((u - theta) ** 2, axis=1))  # noqa: E731
    np.testing.assert_allclose(minimize(f, np.zeros(3), tol=1e-12).x, v, atol=1e-6)
    # deviations (-1, 0), (1, 2), (0, -2): (1/2)(1 + 5 + 4)/3 = 5/3
    assert fedavg_global_error(B_star, W_star) == pytest.approx(5 / 3, rel=1e-12)
    assert fedavg_global_error(B_star, W_star[:, :1] * np.ones((1, 2))) == pytest.approx(
        0.5 * (1 + 1 + 0) * 2 / 3, rel=1e-12)


def test_theorem1_rate_bound_and_max_eta_hand_values_and_domain():
    # a = eta E0 s^2 / 2 = 0.5 * 1 * 1 / 2 = 0.25: rate sqrt(0.75)
    assert theorem1_rate(0.5, 1.0, 1.0) == pytest.approx(math.sqrt(0.75), rel=1e-15)
    assert theorem1_rate(0.5, 0.0, 1.0) == 1.0  # E0 = 0 is allowed: no contraction
    assert theorem1_rate(2.0, 1.0, 1.0) == 0.0  # inside = 0 exactly
    ctx = _quiet()
    try:
        assert math.isnan(theorem1_rate(5.0, 1.0, 1.0))  # outside the step-size condition, no warning
        assert theorem1_max_eta(0.0) == math.inf
    finally:
        ctx.__exit__(None, None, None)
    np.testing.assert_allclose(theorem1_rate([0.5, 2.0], [1.0, 0.5], 1.0), [math.sqrt(0.75), math.sqrt(0.5)])
    assert theorem1_bound(2, 0.5, 0.5, 1.0, 1.0) == pytest.approx(0.375, rel=1e-14)
    assert theorem1_bound(0, 1.0, 0.5, 1.0, 1.0) == 1.0 and theorem1_bound(3, 0.0, 0.5, 1.0, 1.0) == 0.0
    b = theorem1_bound(np.array([0, 2, 4]), 0.8, 0.5, 1.0, 1.0)
    assert isinstance(b, np.ndarray) and b == pytest.approx([0.8, 0.6, 0.45])
    assert theorem1_max_eta(2.0) == 0.0625 and isinstance(theorem1_max_eta(2.0), float)
    np.testing.assert_allclose(theorem1_max_eta([0.5, 1.0]), [1.0, 0.25])
    for bad in (dict(eta=-0.1), dict(eta=np.nan), dict(eta=np.inf), dict(E0=-0.01), dict(E0=1.01),
                dict(sigma_min=-1.0), dict(sigma_min=np.nan)):
        with pytest.raises(ValueError, match=f"`{list(bad)[0]}`"):
            theorem1_rate(**{**dict(eta=0.1, E0=0.5, sigma_min=1.0), **bad})
    for bad in (dict(dist0=-0.1), dict(dist0=1.1), dict(T=-1)):
        with pytest.raises(ValueError, match=f"`{list(bad)[0]}`"):
            theorem1_bound(**{**dict(T=1, dist0=0.5, eta=0.1, E0=0.5, sigma_min=1.0), **bad})
    with pytest.raises(ValueError, match="`sigma_max`"):
        theorem1_max_eta(-1.0)
    # integer input is computed in floating point (an int64 square would overflow here)
    assert theorem1_max_eta(4_000_000_000) == pytest.approx(1 / (4 * 1.6e19), rel=1e-12, abs=0)
    assert theorem1_rate(1, 1, 1) == pytest.approx(math.sqrt(0.5))
    assert theorem1_rate(0.1, 1.0, 0.0) == 1.0  # the boundaries 0 are allowed


def test_theorem1_rounds_to_eps_against_a_brute_force_loop():
    for eta, E0, s, d0, eps in [(0.5, 1.0, 1.0, 1.0, 1e-3), (0.1, 0.7, 0.9, 0.8, 0.05), (0.3, 0.5, 2.0, 0.5, 0.49),
                                (0.25, 0.9, 1.5, 0.3, 1e-6)]:
        rate = math.sqrt(1 - eta * E0 * s * s / 2)
        T, val = 0, d0
        while val > eps:
            T += 1
            val = d0 * rate ** T
        assert theorem1_rounds_to_eps(eps, d0, eta, E0, s) == T
    assert theorem1_rounds_to_eps(0.5, 0.5, 0.1, 0.5, 1.0) == 0.0  # already there
    assert theorem1_rounds_to_eps(0.1, 0.5, 0.0, 0.5, 1.0) == math.inf  # no contraction
    out = theorem1_rounds_to_eps(np.array([0.5, 1e-3]), 1.0, 0.5, 1.0, 1.0)
    assert isinstance(out, np.ndarray) and out[1] == theorem1_rounds_to_eps(1e-3, 1.0, 0.5, 1.0, 1.0)


def test_theorem1_probability_hand_values_and_domain():
    # min(k^2 log rn, d) with rn = e^0.01, k = 1: exponent 100 * 0.01 = 1
    assert theorem1_probability(0.5, 1, math.exp(0.01), 10) == pytest.approx(1 - 0.5 / math.e, rel=1e-12)
    assert theorem1_probability(10, 1, math.exp(0.01), 10) == 0.0  # 1 - 10/e < 0: clipped at 0
    # the d branch of the min: d = 1 < k^2 log rn = 2, exponent 100
    assert theorem1_probability(0.5 * math.exp(100), 1, math.exp(2), 1) == pytest.approx(0.5, rel=1e-12)
    # k^2: k = 2 and rn = e^0.0025: 4 * 0.0025 * 100 = 1
    assert theorem1_probability(0.5, 2, math.exp(0.0025), 10) == pytest.approx(1 - 0.5 / math.e, rel=1e-12)
    # log base 2: log2(rn) = 0.01 at rn = 2^0.01
    assert theorem1_probability(0.5, 1, 2 ** 0.01, 10, log_base=2) == pytest.approx(1 - 0.5 / math.e, rel=1e-12)
    assert theorem1_probability(0, 1, 1, 1) == 1.0  # T = 0, rn = 1, k = 1, d = 1 are allowed
    out = theorem1_probability(np.array([0.5, 1.0]), 1, math.exp(0.01), 10)
    assert isinstance(out, np.ndarray) and out == pytest.approx([1 - 0.5 / math.e, 1 - 1 / math.e])
    for bad in (dict(T=-1), dict(k=0.5), dict(rn=0.9), dict(d=0.5)):
        with pytest.raises(ValueError):
            theorem1_probability(**{**dict(T=1, k=1, rn=2, d=2), **bad})


def test_sample_complexity_hand_values_for_every_variant():
    k, d, n, r, kappa, E0 = 2.0, 8.0, 16.0, 0.5, 2.0, 0.5  # rn = 8
    L8, L16 = math.log(8), math.log(16)
    theorem = 16 * 8 * L8 / 0.25 + 16 * 4 * 8 / (0.25 * 8)
    assert sample_complexity(k, d, n, r, kappa, E0) == pytest.approx(theorem, rel=1e-14)
    assert sample_complexity(k, d, n, r, kappa, E0, c=3.0) == pytest.approx(3 * theorem, rel=1e-14)
    assert sample_complexity(k, d, n, r, kappa, E0, eps=0.1) == pytest.approx(theorem * math.log(10), rel=1e-14)
    intro = 4 * 8 * (L16 + 4 * 2 * 8 / 16)
    assert sample_complexity(k, d, n, r, kappa, E0, variant="intro") == pytest.approx(intro, rel=1e-14)
    eq11 = 16 * 8 * (L8 + 16 * 2 * 8 / 8) * math.log(4)
    assert sample_complexity(k, d, n, r, kappa, E0, variant="eq11", eps=0.25) == pytest.approx(eq11, rel=1e-14)
    # the boundaries of the domain are allowed: r = 1, r n = 1, kappa = 1, E0 = 1, d = k
    assert sample_complexity(1, 1, 1, 1.0, 1.0, 1.0) == pytest.approx(1.0)  # 0 + 1*1*1/(1*1)
    out = sample_complexity(k, np.array([8.0, 16.0]), n, r, kappa, E0)
    assert isinstance(out, np.ndarray) and out[0] == pytest.approx(theorem)
    bads = [dict(k=0.5), dict(d=1.0), dict(r=0.0), dict(r=1.5), dict(n=1.0), dict(kappa=0.9), dict(E0=0.0),
            dict(E0=1.5), dict(eps=0.0), dict(eps=1.0), dict(c=0.0), dict(variant="paper")]
    for bad in bads:
        with pytest.raises(ValueError):
            sample_complexity(**{**dict(k=k, d=d, n=n, r=r, kappa=kappa, E0=E0), **bad})


def test_mom_expectation_rademacher_by_exact_enumeration():
    """E[y^2 x x^T] over all 2^d sign vectors x and the noise (exact), against the closed form."""
    rng = np.random.default_rng(3)
    B_star = np.linalg.qr(rng.standard_normal((3, 2)))[0]
    W_star = rng.standard_normal((4, 2))
    sigma = 0.7
    theta = W_star @ B_star.T
    exact = np.zeros((3, 3))
    xs = list(itertools.product([-1.0, 1.0], repeat=3))
    for th in theta:
        for x in xs:
            x = np.array(x)
            exact += ((th @ x) ** 2 + sigma ** 2) * np.outer(x, x) / (len(xs) * len(theta))
    np.testing.assert_allclose(mom_expectation(B_star, W_star, sigma, "rademacher"), exact, atol=1e-12)
    # Gaussian x: E[(th.x)^2 x x^T] = ||th||^2 I + 2 th th^T (Isserlis), by Gauss-Hermite quadrature in 3-d
    gx, gw = np.polynomial.hermite_e.hermegauss(6)
    gw = gw / gw.sum()
    exact_g = np.zeros((3, 3))
    for i, j, l in itertools.product(range(6), repeat=3):
        x = np.array([gx[i], gx[j], gx[l]])
        wgt = gw[i] * gw[j] * gw[l]
        for th in theta:
            exact_g += wgt * ((th @ x) ** 2 + sigma ** 2) * np.outer(x, x) / len(theta)
    np.testing.assert_allclose(mom_expectation(B_star, W_star, sigma), exact_g, atol=1e-10)
    with pytest.raises(ValueError, match="`sigma`"):
        mom_expectation(B_star, W_star, -1.0)
    with pytest.raises(ValueError, match="`design`"):
        mom_expectation(B_star, W_star, 0.0, "uniform")
    # defaults: noiseless Gaussian design, (||theta||^2) I + 2 theta theta^T averaged
    expect = np.mean([th @ th * np.eye(3) + 2 * np.outer(th, th) for th in theta], axis=0)
    np.testing.assert_allclose(mom_expectation(B_star, W_star), expect, atol=1e-12)


def test_federation_helps_interval_roots_and_empty_set():
    for d, C in [(20.0, 1.0), (30.0, 2.5), (8.0, 0.5), (100.0, 1.0)]:
        lo, hi = federation_helps_interval(d, C)
        for n in (lo, hi):
            assert C * (math.log(n) + d / n) == pytest.approx(d, rel=1e-9)
        assert lo < d / C < hi or lo < d < hi
        assert C * (math.log(math.sqrt(lo * hi)) + d / math.sqrt(lo * hi)) < d
    # empty: C (1 + log d) >= d
    assert all(math.isnan(v) for v in federation_helps_interval(1.0, 1.0))
    assert all(math.isnan(v) for v in federation_helps_interval(20.0, 10.0))
    assert all(math.isnan(v) for v in federation_helps_interval(0.5, 2.0))  # d in (0, 1] is allowed
    for bad in (dict(d=0.0), dict(d=-1.0), dict(C=0.0), dict(C=-1.0)):
        with pytest.raises(ValueError, match=f"`{list(bad)[0]}`"):
            federation_helps_interval(**{**dict(d=20.0, C=1.0), **bad})


def test_min_norm_and_ols_risk_hand_values():
    assert min_norm_interpolation_risk(12, 5, 3.0) == pytest.approx(7 / 12 * 3)
    assert min_norm_interpolation_risk(12, 12, 3.0) == 0.0 and min_norm_interpolation_risk(12, 20, 3.0) == 0.0
    out = min_norm_interpolation_risk(np.array([4, 8]), 2, 1.0)
    assert isinstance(out, np.ndarray) and out == pytest.approx([0.5, 0.75])
    assert ols_excess_risk(3, 12, 0.5) == pytest.approx(0.25 * 3 / 8)
    ctx = _quiet()
    try:
        assert math.isnan(ols_excess_risk(3, 4, 0.5)) and math.isnan(ols_excess_risk(3, 2, 0.5))
        assert math.isnan(ols_excess_risk(3, 4, 0.0))  # 0/0 at m = p + 1, quietly NaN
    finally:
        ctx.__exit__(None, None, None)
    assert ols_excess_risk(3, 5, 1.0) == pytest.approx(3.0)


def test_theory_messages_defaults_and_more_hand_values():
    import re
    with pytest.raises(ValueError, match=re.escape("`T` >= 0, `k` >= 1, `rn` >= 1 and `d` >= 1 are required")):
        theorem1_probability(-1, 1, 2, 2)
    base = dict(k=2, d=8, n=16, r=0.5, kappa=2.0, E0=0.5)
    for bad, msg in ((dict(k=0.5), "`k` >= 1 and `d` >= k are required"), (dict(r=1.5), "`r` must be in (0, 1] with r*n >= 1"),
                     (dict(E0=0.0), "`E0` must be in (0, 1]"), (dict(variant="eq11"), "`eps` in (0, 1) is required for "
                                                                  "variant='eq11'"),
                     (dict(eps=1.0), "`eps` must be in (0, 1)"), (dict(variant="x"), "`variant`"), (dict(c=0.0), "`c`")):
        with pytest.raises(ValueError, match=re.escape(msg)):
            sample_complexity(**{**base, **bad})
    with pytest.raises(ValueError, match=re.escape("`r` must be in (0, 1]")):
        sample_complexity(2, 8, -16, -1.0)  # r <= 0 even where r*n >= 1
    assert sample_complexity(2, 8, 16) == sample_complexity(2, 8, 16, 1.0, 1.0, 1.0)  # defaults r, kappa, E0
    # kappa = 3, E0 = 0.8 (kappa^4 = 81, E0^2 = 0.64), rn = 8
    assert sample_complexity(2, 8, 16, 0.5, 3.0, 0.8) == pytest.approx(
        81 * 8 * math.log(8) / 0.64 + 81 * 4 * 8 / (0.64 * 8), rel=1e-14)
    assert sample_complexity(2, 8, 16, 0.5, 3.0, 0.8, variant="intro") == pytest.approx(
        9 * 8 * (math.log(16) + 9 * 2 * 8 / 16), rel=1e-14)
    with pytest.raises(ValueError, match="noise standard deviation"):
        mom_expectation(np.eye(3)[:, :1], np.ones((2, 1)), -1.0)
    ctx = _quiet()
    try:  # no numpy warnings on the edges: rate 1 (log 0), and d0 = eps with rate 1 (0/0)
        assert theorem1_rounds_to_eps(0.1, 0.5, 0.0, 0.5, 1.0) == math.inf
        assert theorem1_rounds_to_eps(0.5, 0.5, 0.0, 0.5, 1.0) == 0.0  # d0 = eps: already there
        assert theorem1_rounds_to_eps(0.9, 0.5, 0.1, 0.5, 1.0) == 0.0  # d0 < eps
    finally:
        ctx.__exit__(None, None, None)


# --------------------------------------------------------------------------- re-measured 120-sample of
# representation/theory.py (current file): names, bounds and messages; hand values at admissible edges.
def test_theory_current_sample_names_bounds_and_edges():
    from fedtheory.representation import theory as th

    def raises(pattern, f, *a, **kw):
        with np.errstate(all="ignore"), pytest.raises(ValueError, match=pattern):
            f(*a, **kw)

    B = np.eye(3)[:, :1]
    W = np.ones((2, 1))
    raises(r"^`sigma` must be", th.population_objective, B, W, B, W, sigma=-1.0)
    big_B, big_W = np.ones((2 ** 15, 1)), np.ones((2 ** 15, 1))  # n d = 2^30 floats > 4 GiB
    raises(r"^the n x d matrix W B\^T would need .*`n`=32768, `d`=32768", th.population_objective, big_B, big_W,
           big_B, big_W)
    raises(r"^the population objective \(6\) overflows .*: `B`, `W`, `B_star`, `W_star`, `sigma`=",
           th.population_objective, B, 1e200 * W, B, W)
    raises(r"^the minimum of \(4\) overflows .*: `B_star`, `W_star`$", th.fedavg_global_error, B,
           np.array([[1e200], [-1e200]]))
    raises(r"^E\[Z\] overflows .*: `B_star`, `W_star`, `sigma`=0.5", th.mom_expectation, B, 1e200 * W, sigma=0.5)
    raises(r"^`T` must be finite", th.theorem1_probability, np.nan, 1, 2, 3)
    raises(r"^`d` must be finite", th.theorem1_probability, 1, 1, 2, np.nan)
    raises(r"^`dist0`", th.theorem1_rounds_to_eps, 0.1, 1.5, 0.1, 0.5, 1.0)
    raises(r"^`eps` in \(0, 1\) is required for variant='eq11'$", th.sample_complexity, 2, 10, 5, variant="eq11")
    raises(r"^`eps` must be finite", th.sample_complexity, 2, 10, 5, variant="eq11", eps=np.nan)
    raises(r"^`d` must be finite", th.min_norm_interpolation_risk, np.nan, 1, 1)
    raises(r"^`signal_sq` must be", th.min_norm_interpolation_risk, 2, 1, -1.0)
    raises(r"^`m` must be finite", th.ols_excess_risk, 2, np.nan, 1.0)
    raises(r"^`sigma` must be finite", th.ols_excess_risk, 2, 5, np.nan)
    # admissible edges, hand values: (1 - m/d) s
    assert th.min_norm_interpolation_risk(0.5, 0, 1.0) == 1.0  # d in (0, 1) is admissible
    assert th.min_norm_interpolation_risk(4, 0, 0.5) == 0.5  # m = 0 and signal_sq < 1 are admissible
    assert th.min_norm_interpolation_risk(4, 1, 0.5) == 0.375
    # OLS: sigma^2 p / (m - p - 1), NaN (a float) where m <= p + 1
    assert th.ols_excess_risk(2, 6, 1.0) == pytest.approx(2 / 3)
    out = th.ols_excess_risk(2, 3, 1.0)
    assert isinstance(out, float) and math.isnan(out)


def test_federation_helps_interval_clamps_a_lower_root_below_its_bracket():
    """d = 1e-30: log n + d/n = d has its lower root near n = 1e-32 (log n ~ -73), below the search
    bracket [-50, log d]; the lower end is then the bracket's end e^-50, and the upper root is near
    n = 1 (log n = d - d/n ~ 0)."""
    from fedtheory.representation import theory as th

    lo, hi = th.federation_helps_interval(1e-30)
    assert lo == math.exp(-50.0) and lo < hi and hi == pytest.approx(1.0, rel=1e-9)


def test_theorem1_contraction_on_exact_runs():
    """(10) holds at every round on noiseless runs in a large-m regime, with the exact sigma_min."""
    model = make_model(12, 2, 10, seed=5)
    dv = client_diversity(model.W_star, 5)
    assert dv.exact
    for s in range(5):
        res = run_fedrep(12, 2, 10, 60, 0.5, 40, model=model, m_test=0, seed=s)
        bound = theorem1_bound(np.arange(41), res.dist[0], res.eta, res.E0, dv.sigma_min)
        assert np.all(res.dist <= bound * (1 + 1e-12))
    assert res.eta <= theorem1_max_eta(dv.sigma_max)


def test_mom_expectation_against_monte_carlo():
    model = make_model(4, 2, 3, sigma=0.3, seed=2)
    theta = model.theta_star

    for design in ("gaussian", "rademacher"):
        def sampler(g, n):
            i = g.integers(0, 3, n)
            x = (g.standard_normal((n, 4)) if design == "gaussian"
                 else g.integers(0, 2, (n, 4)) * 2.0 - 1)
            y = np.einsum("nd,nd->n", x, theta[i]) + 0.3 * g.standard_normal(n)
            return ((y ** 2)[:, None, None] * x[:, :, None] * x[:, None, :]).reshape(n, 16)

        est = mc_mean(sampler, 300_000, seed=9, chunk=100_000)
        closed = mom_expectation(model.B_star, model.W_star, 0.3, design).ravel()
        z = np.abs(est.z_score(closed))
        assert z.max() < stats.norm.ppf(1 - 0.001 / 32), design


def test_fedavg_error_formula_against_direct_minimisation():
    model = make_model(6, 2, 7, seed=3)
    theta = model.theta_star
    v = theta.mean(axis=0)  # minimiser of (1/2n) sum ||v - theta_i||^2 over v in R^d
    direct = 0.5 * np.mean(np.sum((v - theta) ** 2, axis=1))
    assert fedavg_global_error(model.B_star, model.W_star) == pytest.approx(direct, rel=1e-12)


# ------------------------------------------------------------------ theory closed forms
def test_theorem1_rate_broadcasts_and_matches_algebra():
    eta = np.array([0.05, 0.1, 0.125])
    rate = theorem1_rate(eta, 0.8, 0.9)
    np.testing.assert_allclose(rate, np.sqrt(1 - eta * 0.8 * 0.81 / 2))
    assert isinstance(theorem1_rate(0.1, 0.5, 1.0), float)
    b = theorem1_bound(np.arange(5), 0.5, 0.1, 0.8, 0.9)
    assert np.all(np.diff(b) < 0) and b[0] == 0.5
    # at eta = 1/(4 sigma_max^2): rho^2 = 1 - E0/(8 kappa^2)
    smax, smin, E0 = 1.3, 0.6, 0.7
    assert theorem1_rate(theorem1_max_eta(smax), E0, smin) ** 2 == pytest.approx(
        1 - E0 / (8 * (smax / smin) ** 2))


def test_theorem1_probability_values_and_log_base():
    assert theorem1_probability(10, 2, 1, 10) == 0.0  # vacuous at rn = 1
    p = theorem1_probability(100, 1, 2, 50)
    assert p == pytest.approx(1 - 100 * math.exp(-100 * math.log(2)))
    p2 = theorem1_probability(100, 1, 2, 50, log_base=2)
    assert p2 == pytest.approx(1 - 100 * math.exp(-100))


def test_sample_complexity_monotone_and_variants():
    base = dict(k=2, d=50, n=100, r=0.5, kappa=2.0, E0=0.5)
    m0 = sample_complexity(**base)
    assert m0 == pytest.approx(16 * 8 * math.log(50) / 0.25 + 16 * 4 * 50 / (0.25 * 50))
    assert sample_complexity(**{**base, "d": 100}) > m0
    assert sample_complexity(**{**base, "kappa": 3.0}) > m0
    assert sample_complexity(**{**base, "E0": 0.9}) < m0
    assert sample_complexity(**{**base, "c": 2.0}) == pytest.approx(2 * m0)
    e11 = sample_complexity(**base, variant="eq11", eps=0.1)
    assert e11 == pytest.approx(16 * 8 * (math.log(50) + 16 * 2 * 50 / 50) * math.log(10))
    with pytest.raises(ValueError, match="eps"):
        sample_complexity(**base, variant="eq11")


def test_federation_helps_interval_against_grid():
    lo, hi = federation_helps_interval(20.0)
    for n in (lo * 1.01, math.sqrt(lo * hi), hi / 1.01):
        assert math.log(n) + 20 / n < 20
    for n in (lo / 1.5, hi * 1.5):
        assert math.log(n) + 20 / n > 20


def test_min_norm_and_ols_risk_against_simulation():
    rng = np.random.default_rng(0)
    d, m = 12, 5
    theta = rng.standard_normal(d)
    errs = []
    for _ in range(4000):
        X = rng.standard_normal((m, d))
        errs.append(np.sum((np.linalg.pinv(X) @ (X @ theta) - theta) ** 2))
    se = np.std(errs) / np.sqrt(len(errs))
    assert abs(np.mean(errs) - min_norm_interpolation_risk(d, m, theta @ theta)) < 4 * se
    p, mm, s = 3, 12, 0.5
    errs = []
    for _ in range(4000):
        X = rng.standard_normal((mm, p))
        errs.append(np.sum((np.linalg.lstsq(X, s * rng.standard_normal(mm), rcond=None)[0]) ** 2))
    se = np.std(errs) / np.sqrt(len(errs))
    assert abs(np.mean(errs) - ols_excess_risk(p, mm, s)) < 4 * se


def test_closed_form_input_validation():
    with pytest.raises(ValueError, match="E0"):
        theorem1_rate(0.1, 1.5, 1.0)
    with pytest.raises(ValueError, match="eta"):
        theorem1_rate(-0.1, 0.5, 1.0)
    with pytest.raises(ValueError, match="kappa"):
        sample_complexity(2, 10, 10, kappa=0.5)
