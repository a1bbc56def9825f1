"""Tests of :mod:`fedtheory.lpproj.theory`: the closed forms of lp-proj (Han et al. 2024): the test losses of App.
B.2-B.3 and Theorem 30 under each attack, the optimal lambda of Lemma 29, Proposition 16's threshold, the effective
heterogeneity, the fairness of Theorem 32 / Proposition 18 and identity (49), with their hand values and messages."""
import math

import numpy as np
import pytest

from fedtheory.lpproj import make_problem, make_projection, test_loss
from fedtheory.lpproj.algorithms import mc_fairness_ratio
from fedtheory.lpproj.theory import (effective_heterogeneity, eq49_pair_sum, expected_fairness_V,
                                     fairness_dimension_ratio, fairness_V, lemma29_argmin, loss_derivative_lpproj,
                                     minimal_loss, optimal_lambda, per_client_test_loss, proposition16_threshold,
                                     signflip_moments)
from fedtheory.lpproj.theory import test_loss as uniform_loss


def test_fairness_requires_P_for_lpproj_and_expected_V_hand_values():
    W = np.eye(3)
    for f in (lambda: per_client_test_loss("lp-proj-2", 1.0, W, n=5), lambda: fairness_V("lp-proj-2", 1.0, W),
              lambda: expected_fairness_V("lp-proj-2", 1.0, N=3, Sigma_w=np.eye(3))):
        with pytest.raises(ValueError, match="`P`"):
            f()
    # E var = 2 (N-1)(N-2)/N^2 tr(Sigma^2): N = 4, Sigma = diag(1, 2): 2*3*2/16 * 5 = 3.75
    S = np.diag([1.0, 2.0])
    assert expected_fairness_V("fedavg", 0.0, N=4, Sigma_w=S, b=2.0) == pytest.approx(3.75, rel=1e-12)
    assert expected_fairness_V("fedavg", 0.0, N=4, Sigma_w=S, b=2.0, variant="printed") == pytest.approx(7.5)
    assert expected_fairness_V("local", 1.0, N=4, Sigma_w=S) == 0.0
    # pfedme: b^2 lam^4/(4 (b+lam)^4) E var with b = 1, lam = 1: (1/64) * 3.75
    assert expected_fairness_V("pfedme", 1.0, N=4, Sigma_w=S) == pytest.approx(3.75 / 64, rel=1e-12)
    P = np.array([[0.0, 1.0]])  # keeps the second coordinate: tr = 4, E var = 0.75 * 4 = 3
    assert expected_fairness_V("lp-proj-2", 1.0, N=4, Sigma_w=S, P=P) == pytest.approx(3 / 64, rel=1e-12)
    assert fairness_V("local", [1.0, 2.0], W).tolist() == [0.0, 0.0]


def test_signflip_moments_against_monte_carlo():
    w, tau, sigma, b, n = np.array([1.0, -2.0]), 1.5, 0.7, 4.0, 3
    rng = np.random.default_rng(0)
    reps = 200_000
    wh = w + sigma / math.sqrt(b * n) * rng.standard_normal((reps, 2))
    msg = -np.abs(tau * rng.standard_normal((reps, 1))) * wh
    mean, cov = signflip_moments(w, tau, sigma, b, n)
    se = msg.std(axis=0) / math.sqrt(reps)
    assert np.all(np.abs(msg.mean(axis=0) - mean) < 4.5 * se)
    emp = np.cov(msg.T)
    np.testing.assert_allclose(emp, cov, atol=0.03 * np.max(np.abs(cov)))


def test_lemma29_argmin_against_numerical_minimisation():
    from scipy.optimize import minimize_scalar

    for A, B, C, b in [(1.0, 0.5, 2.0, 1.0), (2.0, -1.0, 1.0, 0.5), (0.3, 0.1, 0.5, 2.0)]:
        f = lambda lam: (A * lam ** 2 + B * lam + C) / (lam + b) ** 2  # noqa: E731
        best = minimize_scalar(f, bounds=(0, 1e4), method="bounded", options={"xatol": 1e-10}).x
        assert lemma29_argmin(A, B, C, b) == pytest.approx(best, rel=1e-5)
    assert math.isnan(lemma29_argmin(0.1, 1.0, 1.0, 1.0))  # 2Ab - B < 0
    assert math.isnan(lemma29_argmin(1.0, 0.5, 0.25, 1.0))  # Bb - 2C = 0
    out = lemma29_argmin(np.array([1.0, 0.1]), 0.5, 2.0, 1.0)
    assert isinstance(out, np.ndarray) and math.isnan(out[1])


@pytest.mark.parametrize("attack, N_a, tau, M0", [(None, 0, 0.0, None), ("same-value", 3, 0.4, None),
                                                  ("gaussian", 2, 0.2, None), ("sign-flip", 3, 0.0, 0.3)])
def test_optimal_lambda_minimises_the_loss(attack, N_a, tau, M0):
    from scipy.optimize import minimize_scalar

    kw = dict(N=12, n=20, d=6, d_sub=2, b=2.0, sigma=0.9, Sigma=0.05, attack=attack, N_a=N_a, tau=tau, M0=M0)
    lam_star = optimal_lambda(**kw)
    for method in ("pfedme", "lp-proj-2"):
        best = minimize_scalar(lambda lam: uniform_loss(method, lam, **kw), bounds=(0, 1e3), method="bounded",
                               options={"xatol": 1e-10}).x
        assert lam_star == pytest.approx(best, rel=1e-4)
        assert minimal_loss(method, **kw) == pytest.approx(uniform_loss(method, lam_star, **kw), rel=1e-14)
        assert minimal_loss(method, **kw) <= uniform_loss(method, 1.1 * lam_star, **kw)
    # (1 - 1/N) sigma^2/n / D with D the effective heterogeneity
    D = effective_heterogeneity(0.05, 12, 20, 2.0, 0.9, attack, N_a, tau, M0)
    assert lam_star == pytest.approx((1 - 1 / 12) * 0.81 / 20 / D, rel=1e-12)


def test_effective_heterogeneity_hand_values_and_lambda_inf():
    assert effective_heterogeneity(0.1, 10, 20, 2.0, 1.0) == 0.1
    assert effective_heterogeneity(0.1, 10, 20, 2.0, 1.0, "same-value", 0, 0.5) == 0.1
    # D = 0.1 + 2/100 (0.25 - 1/40)
    assert effective_heterogeneity(0.1, 10, 20, 2.0, 1.0, "gaussian", 2, 0.5) == pytest.approx(0.1045, rel=1e-12)
    assert effective_heterogeneity(0.1, 10, 20, 2.0, 1.0, "sign-flip", 2, 9.0, M0=0.5) == pytest.approx(
        0.1 + 0.02 * (0.5 - 0.025), rel=1e-12)
    np.testing.assert_allclose(effective_heterogeneity(np.array([0.1, 0.2]), 10, 20, 2.0, 1.0), [0.1, 0.2])
    # D <= 0: the loss decreases in lambda, lambda* = inf
    assert optimal_lambda(N=10, n=20, d=4, d_sub=2, Sigma=0.0) == math.inf
    assert optimal_lambda(N=10, n=20, d=4, d_sub=2, Sigma=np.array([0.0, 0.1]))[0] == math.inf


def test_uniform_loss_validation_and_printed_variant():
    base = dict(N=10, n=20, d=4, d_sub=2, b=1.0, sigma=1.0, Sigma=0.1)
    bads = [dict(lam=-0.1), dict(Sigma=-0.1), dict(attack="sign-flip", N_a=2), dict(attack=None, N_a=1),
            dict(attack="same-value", N_a=10), dict(attack="same-value", N_a=2, tau=-1.0), dict(N=1),
            dict(d_sub=5), dict(b=0.0), dict(sigma=-1.0), dict(variant="typo"), dict(attack="flip", N_a=1),
            dict(variant="printed", attack="same-value", N_a=2, tau=0.1)]
    for bad in bads:
        kw = {**base, **bad}
        lam = kw.pop("lam", 1.0)
        with pytest.raises(ValueError):
            uniform_loss("pfedme", lam, **kw)
    # printed: bias divided by an extra N, lp-proj-2's variance with lam^2/N^2
    lam = 2.0
    clean = uniform_loss("pfedme", lam, **base)
    printed = uniform_loss("pfedme", lam, variant="printed", **base)
    bias = 1 * lam ** 2 * 4 * 0.1 / (2 * (1 + lam) ** 2)
    assert clean - printed == pytest.approx(bias * (1 - 1 / 10), rel=1e-12)
    lp_c = uniform_loss("lp-proj-2", lam, **base)
    lp_p = uniform_loss("lp-proj-2", lam, variant="printed", **base)
    var_diff = 2 / 2 * ((lam ** 2 / 10 - lam ** 2 / 100) * 1 / 20) / (1 + lam) ** 2  # (b dim/2)(...)s2/(bn)
    assert lp_c - lp_p == pytest.approx(var_diff + 1 * lam ** 2 * 2 * 0.1 / (2 * (1 + lam) ** 2) * 0.9, rel=1e-12)
    assert uniform_loss("local", np.array([1.0, 2.0]), **base).tolist() == [0.5 + 4 / 40] * 2


def test_proposition16_threshold_and_derivative():
    assert proposition16_threshold(0.5, 2.0) == pytest.approx(2 * 0.5 / 0.75)
    assert proposition16_threshold(2.0, 2.0) == math.inf and proposition16_threshold(3.0, 2.0) == math.inf
    np.testing.assert_allclose(proposition16_threshold(np.array([0.5, 3.0]), 2.0), [4 / 3, np.inf])
    kw = dict(N=12, n=20, b=2.0, sigma=0.9, Sigma=0.05, N_a=3, tau=0.4)
    for lam in (0.1, 1.0, 5.0):
        h = 1e-6 * max(lam, 1)
        L = lambda x: uniform_loss("lp-proj-2", x, d=6, d_sub=2, attack="same-value", **kw)  # noqa: E731
        fd = (L(lam + h) - L(lam - h)) / (2 * h)
        assert loss_derivative_lpproj(lam, d_sub=2, **kw) == pytest.approx(fd, rel=1e-5, abs=1e-9)
    # defaults b = 1, sigma = 1, no attack, Sigma = 0.1
    L0 = lambda x: uniform_loss("lp-proj-2", x, N=10, n=20, d=6, d_sub=3)  # noqa: E731
    assert loss_derivative_lpproj(0.7, d_sub=3, N=10, n=20) == pytest.approx((L0(0.7 + 1e-6) - L0(0.7 - 1e-6)) / 2e-6,
                                                                            rel=1e-5)


def test_uniform_loss_edges_lam_zero_and_projection_term():
    base = dict(N=10, n=20, d_sub=2, b=1.5, sigma=0.7, Sigma=0.1)
    for method in ("local", "fedavg"):
        assert np.isfinite(uniform_loss(method, 0.0, d=6, **base))  # no 0/0 at lam = 0
    # lp-proj-2's extra term (d - d_sub) sigma^2/(2n): two dimensions more add 2 * 0.49/40
    assert uniform_loss("lp-proj-2", 0.3, d=6, **base) - uniform_loss("lp-proj-2", 0.3, d=4, **base) == \
        pytest.approx(2 * 0.49 / 40, rel=1e-12)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert math.isnan(lemma29_argmin(0.25, 0.5, 1.0, 1.0))  # 2Ab - B = 0, quietly NaN
        assert optimal_lambda(N=10, n=20, d=4, d_sub=2, Sigma=0.0) == math.inf


# --------------------------------------------------------------------------- theory.py: messages and defaults
# Each error names the offending parameter in
# backticks (the project's message convention), the documented defaults, and quiet D <= 0 edges.
@pytest.mark.parametrize("bad, name", [(dict(n=0), "n"), (dict(d=0, d_sub=1), "d"), (dict(sigma=-1.0), "sigma"),
                                       (dict(Sigma=float("nan")), "Sigma"),
                                       (dict(attack="same-value", N_a=-1, tau=0.1), "N_a"),
                                       (dict(N=1), "N"), (dict(Sigma=-0.1), "Sigma"),
                                       (dict(attack=None, N_a=-1), "N_a")])
def test_uniform_loss_errors_name_the_parameter(bad, name):
    """The validation names the parameter it rejects: `n` (not `N`), `d` = 0 (not the d_sub range that
    follows from it), a negative N_a without attack (not accepted as N_b = N + 1 clients)."""
    kw = {**dict(N=10, n=20, d=4, d_sub=2, b=1.0, sigma=1.0, Sigma=0.1), **bad}
    with pytest.raises(ValueError, match=f"^`{name}` "):
        uniform_loss("pfedme", 1.0, **kw)
    with pytest.raises(ValueError, match=f"^`{name}` "):
        optimal_lambda(**kw)


def test_signflip_without_M0_message_starts_with_M0():
    with pytest.raises(ValueError, match=r"^`M0` \(eq\. 41, the mean trace per dimension of the sign-flip message "
                                         r"covariance\) is required for attack='sign-flip'$"):
        uniform_loss("pfedme", 1.0, N=10, n=20, d=4, d_sub=2, attack="sign-flip", N_a=2)


def test_other_theory_errors_name_the_parameter():
    with pytest.raises(ValueError, match="^`C` "):
        lemma29_argmin(1.0, 0.5, float("nan"), 1.0)
    with pytest.raises(ValueError, match="^`method` must be one of"):
        fairness_V("prox", 1.0, np.eye(3))
    # a float64 overflow of the loss names the inputs with their values (Sigma*d*b/2 = 3.5e308 > max float)
    with np.errstate(over="ignore"), pytest.raises(ValueError, match=r"overflows float64.*`d`=7, .*`Sigma`="):
        uniform_loss("fedavg", 0.0, N=10, n=20, d=7, d_sub=2, Sigma=1e308)


def test_uniform_loss_documented_defaults_hand_values():
    """Defaults N=100, n=200, d=100, d_sub=10, b=1, sigma=1, Sigma=0.1, lam=1, evaluated by hand:
    local 1/2 + 100/400; fedavg 1/2 + (100/20000)(100/200) + 100*0.1/2;
    pfedme 1/2 + 50 (1 + 2/100 + 100/10^4)/200/4 + 100*0.1/8;
    lp-proj-2 1/2 + 5 * 1.03/200/4 + 10*0.1/8 + 90/400."""
    assert uniform_loss("local") == pytest.approx(0.75, rel=1e-14)
    assert uniform_loss("fedavg") == pytest.approx(5.5025, rel=1e-14)
    assert uniform_loss("pfedme") == pytest.approx(1.814375, rel=1e-14)
    assert uniform_loss("lp-proj-2") == pytest.approx(0.8564375, rel=1e-14)


def test_optimal_lambda_is_quiet_at_zero_over_zero():
    """sigma = 0 and Sigma = 0: lambda* = 0/0 in the closed form, but D = 0 so the documented answer is inf,
    returned without a RuntimeWarning."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert optimal_lambda(N=10, n=20, d=4, d_sub=2, sigma=0.0, Sigma=0.0) == math.inf
        out = optimal_lambda(N=10, n=20, d=4, d_sub=2, sigma=0.0, Sigma=np.array([0.0, 0.2]))
    assert out[0] == math.inf and out[1] == 0.0


def test_theory_defaults_and_admissible_edges():
    """Documented defaults and edge values the validation must accept, evaluated by hand."""
    # N_a=None without attack means no malicious client: the defaults' pfedme loss (hand value above)
    assert uniform_loss("pfedme", N_a=None) == pytest.approx(1.814375, rel=1e-14)
    # N_a = 1: D = 0.1 + (1/100)(0.25 - 1/40) = 0.10225 (not the clean Sigma)
    assert effective_heterogeneity(0.1, 10, 20, 2.0, 1.0, "gaussian", 1, 0.5) == pytest.approx(0.10225, rel=1e-12)
    # default d_sub = 10 is allowed for d = 10; lambda* = (1 - 1/N) sigma^2/n / Sigma = 0.9/20/0.1
    assert optimal_lambda(N=10, n=20, d=10) == pytest.approx(0.45, rel=1e-12)
    # N_a = N - 1 malicious clients is allowed: derivative against a central difference of the loss
    kw = dict(N=4, n=20, b=2.0, sigma=0.9, Sigma=0.05, N_a=3, tau=0.4)
    L = lambda x: uniform_loss("lp-proj-2", x, d=6, d_sub=2, attack="same-value", **kw)  # noqa: E731
    assert loss_derivative_lpproj(0.8, d_sub=2, **kw) == pytest.approx((L(0.8 + 1e-6) - L(0.8 - 1e-6)) / 2e-6,
                                                                       rel=1e-5)
    # n = 1 is allowed; w = (1, 0), tau = sigma = b = n = 1: the message is -|c|(w + z), c, z independent, so
    # Cov = E[c^2] E[(w + z)(w + z)^T] - (E|c|)^2 w w^T = diag(2 - 2/pi, 1), mean = -sqrt(2/pi) w
    mean, cov = signflip_moments(np.array([1.0, 0.0]), 1.0, 1.0, 1.0, 1)
    np.testing.assert_allclose(mean, [-math.sqrt(2 / math.pi), 0.0], rtol=1e-14, atol=0)
    np.testing.assert_allclose(cov, [[2 - 2 / math.pi, 0.0], [0.0, 1.0]], rtol=1e-14, atol=1e-15)


def test_effective_heterogeneity_ignores_tau_without_malicious_clients():
    """N_a = 0: D = Sigma whatever tau (here so large that tau^2 overflows; with N_a = 1 that is an error
    naming `tau` with its value)."""
    assert effective_heterogeneity(0.1, 10, 20, 2.0, 1.0, "gaussian", 0, 1e200) == 0.1
    with np.errstate(over="ignore"), pytest.raises(ValueError, match=r"^D overflows float64.*`tau`=1e\+200"):
        effective_heterogeneity(0.1, 10, 20, 2.0, 1.0, "gaussian", 1, 1e200)


@pytest.mark.parametrize("call, name", [
    (lambda: lemma29_argmin(1.0, float("nan"), 1.0, 1.0), "B"),
    (lambda: minimal_loss("prox", N=10, n=20, d=4, d_sub=2), "method"),
    (lambda: proposition16_threshold(-0.5, 2.0), "lam_star"),
    (lambda: loss_derivative_lpproj(1.0, d_sub=2, N=1, n=20), "N"),
    (lambda: loss_derivative_lpproj(1.0, d_sub=2, N=10, n=20, b=0.0), "b"),
    (lambda: loss_derivative_lpproj(1.0, d_sub=2, N=10, n=20, Sigma=-0.1), "Sigma"),
    (lambda: loss_derivative_lpproj(-1.0, d_sub=2, N=10, n=20), "lam"),
    (lambda: per_client_test_loss("fedavg", 1.0, np.zeros(3), n=5), "W"),
    (lambda: per_client_test_loss("pfedme", -0.5, np.eye(3), n=5), "lam"),
    (lambda: per_client_test_loss("pfedme", 1.0, np.eye(3), n=5, b=0.0), "b"),
    (lambda: per_client_test_loss("pfedme", 1.0, np.eye(3), n=5, sigma=-1.0), "sigma"),
    (lambda: fairness_V("fedavg", 1.0, np.zeros(3)), "W"),
    (lambda: fairness_V("fedavg", 1.0, np.zeros((2, 3, 4))), "W"),
    (lambda: fairness_V("fedavg", 1.0, np.eye(3), b=0.0), "b"),
    (lambda: fairness_V("lp-proj-2", 1.0, np.eye(3), P=np.ones((1, 2))), "P"),
    (lambda: expected_fairness_V("fedavg", 0.0, N=4, Sigma_w=np.eye(2), variant="typo"), "variant"),
    (lambda: expected_fairness_V("fedavg", 0.0, N=4, Sigma_w=np.ones(2)), "Sigma_w"),
    (lambda: loss_derivative_lpproj(1.0, d_sub=2, N=10, n=0), "n"),
    (lambda: loss_derivative_lpproj(1.0, d_sub=2, N=10, n=20, sigma=-1.0), "sigma"),
    (lambda: signflip_moments(np.eye(2), 1.0, 1.0, 1.0, 1), "w"),
    (lambda: signflip_moments(np.ones(2), -1.0, 1.0, 1.0, 1), "tau"),
    (lambda: signflip_moments(np.ones(2), 1.0, 1.0, 1.0, 0), "n"),
    (lambda: expected_fairness_V("fedavg", 0.0, N=4, Sigma_w=np.ones((2, 3))), "Sigma_w"),
    (lambda: expected_fairness_V("lp-proj-2", 0.0, N=4, Sigma_w=np.eye(2), P=np.ones((1, 3))), "P"),
])
def test_more_theory_errors_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=f"^`{name}` "):
        call()


def test_theory_messages_start_with_their_subject():
    """Anchored messages: the parameter (or the quantity that overflows) first, with the inputs named."""
    with pytest.raises(ValueError, match=r"^`P` is required for lp-proj-2$"):
        expected_fairness_V("lp-proj-2", 1.0, N=3, Sigma_w=np.eye(3))
    with pytest.raises(ValueError, match=r"got Sigma=0\.0, tau=0\.0, M0=None, N_a=0$"):
        minimal_loss("pfedme", N=10, n=20, d=4, d_sub=2, Sigma=0.0)
    with pytest.raises(ValueError, match="^the d x d covariance would need"):
        signflip_moments(np.zeros(10 ** 6), 1.0, 1.0, 1.0, 1)
    with np.errstate(all="ignore"):
        # sigma^2 d/(2n) = 1e308 * 100/2 overflows
        with pytest.raises(ValueError, match=r"^the test loss overflows float64.*`N`=10, `n`=1, `d`=100, `d_sub`=2, "
                                             r"`b`=1\.0, `sigma`=1e\+154"):
            uniform_loss("local", 0.0, N=10, n=1, d=100, d_sub=2, sigma=1e154)
        big = np.array([[1e200], [-1e200]])
        with pytest.raises(ValueError, match=r"^the per-client losses overflows float64.*`W`, `P`, `lam`="):
            per_client_test_loss("fedavg", 1.0, big, n=5)
        with pytest.raises(ValueError, match=r"^V overflows float64.*`W`, `P`, `lam`=array\(1\.\), `b`=1\.0$"):
            fairness_V("fedavg", 1.0, big)
        with pytest.raises(ValueError, match=r"^E V overflows float64.*`Sigma_w`, `P`, `lam`="):
            expected_fairness_V("pfedme", 1.0, N=4, Sigma_w=np.array([[1e200]]))
        with pytest.raises(ValueError, match=r"^the sign-flip moments overflows float64.*`w`, `tau`=1\.5, "):
            signflip_moments(np.array([1e200]), 1.5, 1.0, 1.0, 1)


def test_theory_messages_more_subjects_and_values():
    base = dict(N=10, n=20, d=4, d_sub=2)
    with pytest.raises(ValueError, match=r"^`N_a` .*\(no attack: N_a must be 0\)"):
        uniform_loss("pfedme", 1.0, N_a=1, **base)
    with pytest.raises(ValueError, match=r"^`variant`='printed' is defined for the clean losses only$"):
        uniform_loss("pfedme", 1.0, variant="printed", attack="same-value", N_a=2, tau=0.1, **base)
    # D = 0 + (2/100)(0 - 1/20) < 0: no minimiser; the message reports the N_a it was given
    with pytest.raises(ValueError, match=r"got Sigma=0\.0, tau=0\.0, M0=None, N_a=2$"):
        minimal_loss("pfedme", Sigma=0.0, attack="same-value", N_a=2, **base)
    # all defaults: lambda* = (1 - 1/100) * 1/200 / 0.1
    assert optimal_lambda() == pytest.approx(0.0495, rel=1e-12)
    with np.errstate(all="ignore"):
        with pytest.raises(ValueError, match=r"^the derivative overflows float64.*`N`=10, `n`=20, `b`=1\.0, "):
            loss_derivative_lpproj(1.0, d_sub=10, N=10, n=20, Sigma=1e308)
        with pytest.raises(ValueError, match=r"^E V overflows float64.*`Sigma_w`, `P`, `lam`="):
            expected_fairness_V("fedavg", 1.0, N=4, Sigma_w=np.array([[1e200]]))


FIG1 = dict(N=100, n=200, d=100, d_sub=10, b=1.0, sigma=1.0, Sigma=0.1, attack="same-value", N_a=20,
            tau=100.0)


def test_public_example_test_loss_and_optimal_lambda():
    lam = np.array([1e-4, 1e-3, 1e-2])
    L = test_loss("lp-proj-2", lam, **FIG1)
    assert L.shape == (3,)
    ls = optimal_lambda(**FIG1)
    assert ls == pytest.approx(0.99 / 200 / (0.1 + 20 / 100 ** 2 * (100.0 ** 2 - 1 / 200)), rel=1e-12)
    assert isinstance(test_loss("pfedme", 1e-3, **FIG1), float)


def test_fairness_expectation_corrected_constant_by_monte_carlo():
    rng = np.random.default_rng(0)
    N, d = 10, 3
    S = np.diag([1.0, 0.5, 0.2])
    v = []
    for _ in range(20000):
        W = rng.multivariate_normal(np.zeros(d), S, size=N)
        v.append(np.var(np.sum((W - W.mean(0)) ** 2, axis=1)))
    est, se = np.mean(v), np.std(v) / math.sqrt(len(v))
    EV = expected_fairness_V("fedavg", 1.0, N=N, Sigma_w=S, b=2.0)
    assert abs(est * 4 / 4 - EV / (2.0 ** 2 / 4)) < 4 * se  # corrected constant 2
    printed = expected_fairness_V("fedavg", 1.0, N=N, Sigma_w=S, b=2.0, variant="printed")
    assert abs(est - printed / (2.0 ** 2 / 4)) > 10 * se


def test_effective_heterogeneity_and_threshold():
    kw = dict(N=50, n=100, d=30, d_sub=5, b=1.0, sigma=1.0)
    D = effective_heterogeneity(0.1, 50, 100, 1.0, 1.0, "same-value", 5, 2.0)
    assert test_loss("pfedme", 0.3, Sigma=0.1, attack="same-value", N_a=5, tau=2.0, **kw) == \
        pytest.approx(test_loss("pfedme", 0.3, Sigma=D, **kw))
    ls = optimal_lambda(Sigma=0.1, **kw)
    thr = proposition16_threshold(ls, 1.0)
    assert test_loss("lp-proj-2", thr * 1.01, Sigma=0.1, **kw) < test_loss("pfedme", thr * 1.01, Sigma=0.1, **kw)
    assert test_loss("lp-proj-2", thr * 0.99, Sigma=0.1, **kw) > test_loss("pfedme", thr * 0.99, Sigma=0.1, **kw)


def test_fairness_V_increases_with_lambda():
    prob = make_problem(N=10, d=4, d_sub=2, seed=1)
    V = fairness_V("pfedme", np.logspace(-2, 2, 20), prob.W)
    assert np.all(np.diff(V) > 0)
    assert fairness_V("local", 1.0, prob.W) == 0.0


@pytest.mark.parametrize("kwargs, match", [
    (dict(d_sub=200), r"`d_sub` must be in \[1, 100\]"),
    (dict(N_a=100, attack="same-value"), r"`N_a` must be in \[0, 99\]"),
    (dict(b=0.0), r"`b` must be in \(0"),
    (dict(attack="flood"), r"`attack` must be one of"),
    (dict(attack="sign-flip", N_a=3), r"`M0`"),
])
def test_test_loss_validation(kwargs, match):
    base = dict(N=100, n=200, d=100, d_sub=10, b=1.0, sigma=1.0, Sigma=0.1)
    with pytest.raises(ValueError, match=match):
        test_loss("lp-proj-2", 0.1, **{**base, **kwargs})


def test_lambda_and_method_validation():
    with pytest.raises(ValueError, match=r"`lam` must be >= 0"):
        test_loss("pfedme", -1.0)
    with pytest.raises(ValueError, match=r"`method` must be one of: 'local', 'fedavg', 'pfedme', 'ditto', 'lp-proj-2'"):
        test_loss("fedprox", 0.1)


# ----------------------------------------------------------------------------- fairness_dimension_ratio
def test_ratio_known_values():
    d, ds = 12, 3
    rng = np.random.default_rng(0)
    P = make_projection(ds, d, seed=1)
    # isotropic: tr((P P^T)^2)/tr(I) = d_sub/d for any orthonormal P
    assert fairness_dimension_ratio(2.0 * np.eye(d), P) == pytest.approx(ds / d, rel=1e-12)
    J = np.ones((d, d))
    assert fairness_dimension_ratio(J, np.eye(d)[:ds]) == pytest.approx((ds / d) ** 2, rel=1e-12)
    # a P whose rows are orthogonal to 1 sees none of the dense covariance; a row 1/sqrt(d) sees all of it
    B = np.linalg.qr(np.hstack([np.ones((d, 1)), rng.standard_normal((d, ds))]))[0]
    assert fairness_dimension_ratio(J, B[:, 1:ds + 1].T) == pytest.approx(0.0, abs=1e-12)
    assert fairness_dimension_ratio(J, B[:, :ds].T) == pytest.approx(1.0, rel=1e-12)


def test_ratio_against_monte_carlo():
    d, ds = 8, 2
    A = np.random.default_rng(3).standard_normal((d, d))
    S = A @ A.T / d
    P = make_projection(ds, d, seed=2)
    est = mc_fairness_ratio(S, P, N=8, mu_w=0.5, lam=1.0, n_samples=20_000, seed=4)
    assert est.ci_low <= fairness_dimension_ratio(S, P) <= est.ci_high, est.summary()
    assert "E V^l2/E V^Me" in est.summary()


@pytest.mark.parametrize("kw, msg", [
    (dict(Sigma_w=np.array([[1.0, 2.0], [0.0, 1.0]]), P=np.eye(2)[:1]), "symmetric"),
    (dict(Sigma_w=np.eye(3), P=np.ones((1, 3))), "orthonormal rows"),
    (dict(Sigma_w=np.zeros((3, 3)), P=np.eye(3)[:1]), "must not be zero"),
    (dict(Sigma_w=np.eye(3), P=np.eye(4)[:1]), "P"),
    (dict(Sigma_w=np.full((2, 2), np.nan), P=np.eye(2)[:1]), "Sigma_w"),
])
def test_ratio_bad_input(kw, msg):
    with pytest.raises(ValueError, match=msg):
        fairness_dimension_ratio(**kw)


# ----------------------------------------------------------------------------- eq. (49)(d)
def test_eq49_corrected_is_the_variance_and_printed_twice_it():
    rng = np.random.default_rng(5)
    W = rng.standard_normal((4, 9, 3)) * 3 + 1
    var = np.var(np.sum((W - W.mean(axis=1, keepdims=True)) ** 2, axis=2), axis=1)  # (44) directly
    # a naive double loop over pairs as a second referee of the printed sum
    naive = np.array([sum(float(np.dot(w[k] - w[l], w[k] + w[l] - 2 * w.mean(0))) ** 2
                          for k in range(9) for l in range(9) if k != l) / 81 for w in W])
    np.testing.assert_allclose(eq49_pair_sum(W), var, rtol=1e-12)
    np.testing.assert_allclose(eq49_pair_sum(W, variant="printed"), naive, rtol=1e-12)
    np.testing.assert_allclose(eq49_pair_sum(W, variant="printed"), 2 * var, rtol=1e-12)


@pytest.mark.parametrize("W, kw, msg", [
    (np.ones((1, 3)), {}, "N >= 2"),
    (np.ones(3), {}, "N >= 2"),
    (np.ones((3, 2)), dict(variant="paper"), "variant"),
    (np.full((3, 2), np.inf), {}, "W"),
])
def test_eq49_bad_input(W, kw, msg):
    with pytest.raises(ValueError, match=msg):
        eq49_pair_sum(W, **kw)


def test_fairness_dimension_ratio_brute_force_traces_and_messages():
    rng = np.random.default_rng(4)
    d, ds = 5, 2
    A = rng.standard_normal((d, d))
    S = A @ A.T
    P = make_projection(ds, d, seed=1)
    PS = P @ S @ P.T
    num = sum(PS[i, j] * PS[j, i] for i in range(ds) for j in range(ds))  # tr((P S P^T)^2) by loops
    den = sum(S[i, j] * S[j, i] for i in range(d) for j in range(d))
    assert fairness_dimension_ratio(S, P) == pytest.approx(num / den, rel=1e-12)
    with pytest.raises(ValueError, match="symmetric"):
        fairness_dimension_ratio(S + np.triu(np.full((d, d), 1e-9), 1), P)
    with np.errstate(all="ignore"), pytest.raises(ValueError, match="the ratio"):
        fairness_dimension_ratio(np.eye(d) * 1e300, P)


def test_eq49_pair_sum_guard_and_single_batch():
    with pytest.raises(ValueError, match="pairwise differences"):
        eq49_pair_sum(np.zeros((5000, 5000)))
    W = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0]])
    # hand value: ||w_bar - w_k||^2 for w_bar = (1/3, 2/3): 5/9, 8/9, 17/9; their population variance
    v = np.var([5 / 9, 8 / 9, 17 / 9])
    assert eq49_pair_sum(W) == pytest.approx(v, rel=1e-12)
    assert isinstance(eq49_pair_sum(W), float)


def test_theory_messages_and_guards():
    from fedtheory.lpproj.theory import signflip_moments

    with pytest.raises(ValueError, match="orthonormal rows"):
        fairness_dimension_ratio(np.eye(3), 1.2 * np.eye(3)[:1])  # P P^T = 1.44
    with np.errstate(all="ignore"), pytest.raises(ValueError, match="the ratio overflows.*`Sigma_w`, `P`$"):
        fairness_dimension_ratio(np.eye(5) * 1e300, make_projection(2, 5, seed=1))
    with pytest.raises(ValueError, match="`N`=300, `d`=7"):
        eq49_pair_sum(np.zeros((1000, 300, 7)))
    with np.errstate(all="ignore"), pytest.raises(ValueError, match="the pair sum overflows"):
        eq49_pair_sum(np.array([[1e200, 0], [0, 1e200], [0, 0.0]]))
    # the d x d covariance guard counts d^2 entries: d = 1000 (8 MB) is fine
    mean, cov = signflip_moments(np.ones(1000), 1.0, 1.0, 1.0, 10)
    assert cov.shape == (1000, 1000)
    with np.errstate(all="ignore"), pytest.raises(ValueError, match="`sigma`=1.0"):
        signflip_moments(np.full(3, 1e300), 10.0, 1.0, 1.0, 10)


def test_scalar_fast_path_equals_the_validated_path():
    """Plain Python scalars take the fast validation path of test_loss/optimal_lambda; numpy-typed inputs take the
    generic checks: the same numbers, and invalid inputs still raise the generic messages."""
    kw = dict(N=40, n=30, d=12, d_sub=3, b=1.3, sigma=0.7, Sigma=0.05, attack="same-value", N_a=5, tau=0.4)
    slow = dict(kw, N=np.int64(40), n=np.int64(30), d=np.int64(12), d_sub=np.int64(3), N_a=np.int64(5))
    for method in ("local", "fedavg", "pfedme", "ditto", "lp-proj-2"):
        for lam in (0.0, 0.3, 7.0):
            assert test_loss(method, lam, **kw) == test_loss(method, np.array(lam), **slow)
    assert optimal_lambda(**kw) == optimal_lambda(**slow)
    for bad, match in ((dict(N=1), "`N`"), (dict(N_a=40), "`N_a`"), (dict(b=0.0), "`b`"), (dict(tau=-1.0), "`tau`"),
                       (dict(Sigma=float("nan")), "`Sigma`"), (dict(d_sub=13), "`d_sub`"), (dict(N_a=True), "`N_a`"),
                       (dict(attack="sign-flip"), "`M0`")):
        with pytest.raises((ValueError, TypeError), match=match):
            test_loss("pfedme", 0.3, **{**kw, **bad})
    with pytest.raises(ValueError, match="`lam`"):
        test_loss("pfedme", -0.1, **kw)


def test_fairness_V_of_a_stack_is_the_per_set_value():
    from fedtheory.lpproj.theory import _fairness_V

    rng = np.random.default_rng(2)
    W = rng.standard_normal((6, 9, 5))
    P = np.linalg.qr(rng.standard_normal((5, 2)))[0].T
    for method in ("local", "fedavg", "pfedme", "ditto", "lp-proj-2"):
        stack = _fairness_V(method, 0.7, W, 1.4, P)
        assert stack.shape == (6,)
        for i in range(6):
            assert stack[i] == pytest.approx(fairness_V(method, 0.7, W[i], b=1.4, P=P), rel=1e-14, abs=1e-300)
