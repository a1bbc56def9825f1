"""Tests of :mod:`fedtheory.lowrank.fedave`: FedAve as analysed by FedLRGD (Jadbabaie et al. 2023, Sec. V, Lemma 3):
exact runs against a naive loop, F*, counters and Gamma, sampling without replacement, the FedPAQ schedule, the
gradient noise variance and the target search."""
import math
from fractions import Fraction

import numpy as np
import pytest

from fedtheory.lowrank.algorithms import LogisticProblem, make_logistic_problem
from fedtheory.lowrank.fedave import (fedave_gamma_to_target, fedave_steps, gradient_noise_variance, lemma3_T0,
                                      lemma3_terms, run_fedave, sigma2_sup, target_floor)


def _prob(m=5, s=6, mu=1.0, seed=3, r=0):
    base = make_logistic_problem(d=3, r=max(r, 1), m=m, s=s, mu=mu, seed=seed)
    X0 = base.X0[:r] if r else np.empty((0, 3))
    return LogisticProblem(X0=X0, Xc=base.Xc, mu=mu)


# ----------------------------------------------------------------------------- the run itself
def test_run_matches_naive_loop_when_deterministic():
    """s = 1 and tau = 1: every stochastic gradient is the client's exact gradient, so the run is deterministic;
    referee: a plain loop over clients and steps."""
    prob = _prob(m=4, s=1)
    T, b = 7, 3
    res = run_fedave(prob, T, b, reps=3, steps=0.05, seed=1)
    th = np.zeros(2)
    for _ in range(T):
        models = []
        for c in range(4):
            w = th.copy()
            x, y = prob.Xc[c, 0, :-1], prob.Xc[c, 0, -1]
            for _ in range(b):
                w = w - 0.05 * ((1 / (1 + math.exp(-w @ x)) - y) * x + prob.mu * w)
            models.append(w)
        th = np.mean(models, axis=0)
    np.testing.assert_allclose(res.theta, np.tile(th, (3, 1)), rtol=0, atol=1e-13)


def test_F_star_against_scipy():
    from scipy.optimize import minimize

    prob = _prob(r=3)
    res = run_fedave(prob, 2, 1, reps=2, seed=0)
    ref = minimize(prob.loss, np.zeros(2), jac=prob.grad, method="BFGS", options={"gtol": 1e-12})
    assert res.F_star <= ref.fun + 1e-14
    assert abs(res.F_star - ref.fun) < 1e-12
    # the recorded gaps are F(theta) - F* computed independently by LogisticProblem.loss
    np.testing.assert_allclose(res.gap[-1], [prob.loss(t) - res.F_star for t in res.theta], atol=1e-14)


def test_counters_and_gamma_by_explicit_count():
    prob = _prob(m=10)
    T, b, tau, phi = 9, 4, 0.3, 7.5
    res = run_fedave(prob, T, b, tau=tau, phi=phi, reps=5, seed=2)
    k = 3  # round(0.3 * 10)
    c = res.counters
    assert c["active_per_epoch"] == k
    assert np.all(c["uploads"].sum(axis=1) == T * k)
    assert np.all(c["client_grads"].sum(axis=1) == T * k * b)
    assert np.all(c["uploads"] <= T)  # without replacement: at most one upload per epoch per client
    assert c["epoch_types"] == ["A"] * T and c["server_grads"] == 0
    total = sum(bt + phi * k for bt in c["b_t"])
    assert res.gamma == pytest.approx(total, rel=0, abs=1e-9)
    assert res.gamma == pytest.approx(T * (b + phi * tau * 10), abs=1e-9)


def test_clients_sampled_uniformly_without_replacement():
    prob = _prob(m=6)
    res = run_fedave(prob, 200, 1, tau=0.5, reps=20, seed=4)
    frac = res.counters["uploads"].sum(axis=0) / (200 * 20)
    np.testing.assert_allclose(frac, 0.5, atol=0.05)


def test_trace_prefix_equals_shorter_horizon():
    """The fedpaq schedule does not depend on T, so the traced run truncated at T is the run with horizon T
    (the premise of the monotone search)."""
    prob = _prob()
    long = run_fedave(prob, 30, 2, reps=4, trace=True, seed=7)
    short = run_fedave(prob, 12, 2, reps=4, seed=7)
    np.testing.assert_allclose(long.gap[12], short.gap[-1], rtol=0, atol=1e-15)


def test_fedpaq_schedule():
    eta = fedave_steps("fedpaq", 6, 2, 0.5, 3.2)
    assert eta[0] == pytest.approx(4 / 0.5 / (4 * 2 + 1))  # warm-up held at k = ceil(T0) = 4
    assert eta[5] == pytest.approx(4 / 0.5 / (5 * 2 + 1))
    assert np.all(np.diff(eta) <= 0)


def test_lemma3_T0_and_terms():
    assert lemma3_T0(2.0, 1.0, 8, 1.0, 2) == 64.0
    assert lemma3_T0(2.0, 0.5, 8, 1.0, 2) == pytest.approx(4 * (4 + 32 * 4 * 0.5 / (0.5 * 7)))
    # exact rational referee for one case: L1 = 2, mu = 1/2 (kappa = 4), tau = 1/2, m = 3, b = 3, T = 5, T0 = 2
    L1, mu, tau, m, b, T, T0, s2, d2, e = (Fraction(2), Fraction(1, 2), Fraction(1, 2), 3, 3, 5, 2, Fraction(3, 10),
                                           Fraction(7, 10), Fraction(27, 10))
    kap = L1 / mu
    het = (1 - tau) / (tau * (m - 1))
    ref = [L1 * (T0 * b + 1) ** 2 / (2 * (T * b + 1) ** 2) * d2,
           8 * kap * s2 / (mu * m) * (1 + 8 * het * m) * b / (T * b + 1),
           8 * e * L1 * kap ** 2 * s2 / m * (b - 1) ** 2 / (T * b + 1),
           128 * e * kap ** 3 * s2 / mu * (1 + 8 * het) * (b - 1) / (T * b + 1) ** 2]
    got = lemma3_terms(T, b, m, float(tau), float(L1), float(mu), float(s2), float(d2), T0, e=float(e))
    np.testing.assert_allclose(got, [float(x) for x in ref], rtol=1e-14)
    # b = 1: the drift terms vanish; broadcasting over T
    assert np.all(lemma3_terms(np.array([5.0, 9.0]), 1, 4, 1.0, 2.0, 1.0, 0.1, 1.0, 3)[2:] == 0)


def test_gradient_noise_variance_brute_force_and_monte_carlo():
    prob = _prob(m=3, s=7)
    Theta = np.array([[0.3, -0.2], [1.0, 0.5]])
    V = gradient_noise_variance(prob, Theta)
    for c in range(3):
        for k, th in enumerate(Theta):
            g = LogisticProblem.grads(prob.Xc[c], th[None], prob.mu)[:, 0, :]
            assert V[c, k] == pytest.approx(np.sum(np.var(g, axis=0)), rel=1e-12)
    # Monte Carlo of a batch-2 stochastic gradient (uniform with replacement)
    rng = np.random.default_rng(0)
    g = LogisticProblem.grads(prob.Xc[1], Theta[:1], prob.mu)[:, 0, :]
    j = rng.integers(0, 7, (200_000, 2))
    est = np.mean(np.sum((g[j].mean(1) - g.mean(0)) ** 2, axis=1))
    assert est == pytest.approx(gradient_noise_variance(prob, Theta[:1], batch=2)[1, 0], rel=0.02)
    assert sigma2_sup(prob, -1, 1, grid=5) >= V[:, 0].max() - 1e-15


def test_gamma_to_target_monotone_search():
    prob = _prob(m=4, s=5)
    T, G, res = fedave_gamma_to_target(prob, 2e-4, 2, T_max=120, phi=3.0, reps=16, confidence=0.9, seed=1)
    assert T is not None and G == T * (2 + 3.0 * 4)
    from scipy import stats
    up = res.gap.mean(1) + stats.t.ppf(0.95, 15) * res.gap.std(1, ddof=1) / 4
    assert np.all(up[T:] <= 2e-4) and up[T - 1] > 2e-4
    T2, G2, _ = fedave_gamma_to_target(prob, 1e-12, 2, T_max=5, reps=4, seed=1)
    assert T2 is None and G2 == math.inf


# ----------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("kw, match", [
    (dict(tau=0.0), "`tau` must be in"), (dict(tau=1.5), "`tau` must be in"), (dict(b=0), "`b` must be in"),
    (dict(steps=-0.1), "`steps` must be in"), (dict(steps=0.0), "`steps` must be in"),
    (dict(steps=np.array([0.1, 0.0, 0.1])), "`steps` must be positive"), (dict(T=0), "`T` must be in"),
    (dict(steps="constant"), "`steps` must be one of"), (dict(tau=float("nan")), "`tau` must be finite"),
])
def test_bad_input(kw, match):
    args = dict(T=3, b=2)
    args.update(kw)
    with pytest.raises(ValueError, match=match):
        run_fedave(_prob(), args.pop("T"), args.pop("b"), **args)


def test_bad_m_and_eps_floor():
    prob = _prob()
    empty = LogisticProblem(X0=prob.X0, Xc=np.empty((0, 6, 3)), mu=1.0)
    with pytest.raises(ValueError, match="`m`"):
        run_fedave(empty, 3, 2)
    with pytest.raises(ValueError, match="`eps` must be >= the floor"):
        fedave_gamma_to_target(prob, 0.5 * target_floor(prob), 2, T_max=10)
    with pytest.raises(ValueError, match="`eps` must be in"):
        fedave_gamma_to_target(prob, -1.0, 2, T_max=10)


# ----------------------------------------------------------------------------- fedave
def test_run_matches_naive_loop_with_mu_not_one():
    """s = 1, tau = 1: deterministic; referee a plain loop with mu = 0.5 (mu = 1 cannot tell eta mu from eta / mu)."""
    mu, T, b, eta = 0.5, 5, 3, 0.2
    prob = _prob(m=3, s=1, mu=mu)
    res = run_fedave(prob, T, b, reps=2, steps=eta, seed=1)
    th = np.zeros(2)
    for _ in range(T):
        models = []
        for c in range(3):
            w = th.copy()
            x, y = prob.Xc[c, 0, :-1], prob.Xc[c, 0, -1]
            for _ in range(b):
                w = w - eta * ((1 / (1 + math.exp(-w @ x)) - y) * x + mu * w)
            models.append(w)
        th = np.mean(models, axis=0)
    np.testing.assert_allclose(res.theta, np.tile(th, (2, 1)), rtol=0, atol=1e-13)


def test_run_params_T0_and_summary():
    """L1 = 2 (this problem), mu = 1, m = 5, tau = 1, b = 1: T0 = 4 max{2, 4, 4 * 5 / 1} = 80 by hand."""
    prob = _prob()
    assert prob.L1 == 2.0
    res = run_fedave(prob, 2, 1, reps=3, seed=0)
    assert res.params["T0"] == 80.0
    assert res.summary().startswith("FedAve(T=2, b=1, m=5, tau=1.0, reps=3)")


def test_run_fedave_validation_names():
    prob = _prob()
    with pytest.raises(ValueError, match="`b` must be in"):
        run_fedave(prob, 3, 0)
    with pytest.raises(TypeError, match="`b` must be an integer"):  # b = 0 is also refused later, by lemma3_T0
        run_fedave(prob, 3, 2.5)
    with pytest.raises(ValueError, match=r"`tau` must be in \(0, 1\]"):
        run_fedave(prob, 3, 2, tau=1e300)  # before the allocation guard, which would name reps/m/batch
    with pytest.raises(ValueError, match="`problem.mu` must be in"):
        run_fedave(LogisticProblem(X0=prob.X0, Xc=prob.Xc, mu=0.0), 3, 2)
    with pytest.raises(ValueError, match="`batch`=1000000000"):
        run_fedave(prob, 3, 2, reps=1, batch=10 ** 9)


def test_fedave_steps_arrays_and_names():
    np.testing.assert_array_equal(fedave_steps([0.5, 1.0, 0.25], 3, 2, 1.0, 4.0), [0.5, 1.0, 0.25])
    with pytest.raises(ValueError, match="`b` must be in"):
        fedave_steps("fedpaq", 3, 0, 1.0, 4.0)


def test_lemma3_terms_validation_names():
    base = dict(T=10, b=2, m=5, tau=0.5, L1=2.0, mu=1.0, sigma2=1.0, dist2_T0=1.0, T0=3.0)
    for key, bad in [("b", 0), ("sigma2", -1.0), ("dist2_T0", -1.0)]:
        with pytest.raises(ValueError, match=f"`{key}` must be in"):
            lemma3_terms(**{**base, key: bad})


def test_sigma2_sup_and_target_floor_names():
    prob = _prob()
    with pytest.raises(ValueError, match="`hi` must be finite"):
        sigma2_sup(prob, 0.0, float("nan"))
    with pytest.raises(TypeError, match="`problem`"):
        target_floor(object())


def test_gamma_to_target_validation_names():
    prob = _prob()
    # b is checked before the floor of eps (a check without the lower bound would report eps instead)
    with pytest.raises(ValueError, match="`b` must be in"):
        fedave_gamma_to_target(prob, 1e-300, 0, T_max=3)
    # confidence = 1 is excluded (an infinite t quantile)
    with pytest.raises(ValueError, match="`confidence` must be in"):
        fedave_gamma_to_target(prob, 1e-3, 1, T_max=3, reps=4, confidence=1.0)
