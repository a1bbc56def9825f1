"""Tests of :mod:`fedtheory.srpfl.theory`: SRPFL's closed forms (Tziotis et al. 2023): expected order statistics and
harmonic numbers, the floor recursion and switching points of Lemma B.1, Lemma B.2's bound, Lemma B.3 and Theorem
4.9's ratio, the idealised wall clock against round-by-round loops, the round decomposition of Appendix A, and the
validation of each."""
import math
from fractions import Fraction

import numpy as np
import pytest

from fedtheory import mc_mean
from fedtheory.representation.model import make_model
from fedtheory.srpfl.theory import (contraction_bound, expected_order_statistic, fedrep_rounds_exact, floor_recursion,
                                    harmonic, idealised_times, idealised_wallclock, lemma_b2_bound, lemma_b3_bound,
                                    noise_floor, order_statistic_mean_stable, phase2_rounds_exact, progress_ratio,
                                    stage_rounds, switch_point, target_error, theorem47_m_condition,
                                    theorem47_probability, theorem49_ratio_bound, vacuous_ratio)


# --------------------------------------------------------------------------- Lemma B.2
@pytest.mark.parametrize("N, a, c_hat, lam, c, base, expected", [
    # natural log: log N = 2, log(1/(c_hat-1)) = 1, log(1/(1-a)) = 1: 2 (6 + 4) = 20
    (math.exp(2), 1 - math.exp(-1), 1 + math.exp(-1), 1.0, 0.0, math.e, 20.0),
    # log N = 3, log(1/(c_hat-1)) = 2, log(1/(1-a)) = 2, c = 1, lam = 2: 3 (12 + 8) / 2 / 2 = 15
    (math.exp(3), 1 - math.exp(-2), 1 + math.exp(-2), 2.0, 1.0, math.e, 15.0),
    # base 2: log2 8 = 3, log2(1/0.5) = 1, log2(1/0.5) = 1, c = 0.5: 3 (9 + 4) = 39
    (8.0, 0.5, 1.5, 1.0, 0.5, 2.0, 39.0),
    # base 2, lam = 0.5: log2 16 = 4, log2(1/0.25) = 2, log2(1/(1-0.75)) = 2, c = 2: 4 (18 + 8) / 2 / 0.5 = 104
    (16.0, 0.75, 1.25, 0.5, 2.0, 2.0, 104.0),
])
def test_lemma_b2_bound_hand_evaluated(N, a, c_hat, lam, c, base, expected):
    assert lemma_b2_bound(N, a, c_hat, lam, c, log_base=base) == pytest.approx(expected, rel=1e-12)


def test_lemma_b2_bound_is_above_the_idealised_wallclock():
    worst = 0.0
    for N in (64, 1024):
        for a in (0.02, 0.2):
            for c in (0.0, 10.0):
                for c_hat in (1.05, 1.3):
                    for lam in (1.0, 4.0):
                        t, _, _ = idealised_wallclock(N, 4, a, c_hat, lam, c)
                        b = lemma_b2_bound(N, a, c_hat, lam, c)
                        worst = max(worst, t / b)
    assert worst <= 1.0
    assert worst > 0.25  # the bound is within a small factor of the time it bounds (not vacuous)


def _order_stat_mean(j, N, lam=1.0):
    """E[T_(j:N)] of Exp(lam) times by Renyi's representation, as a plain sum."""
    return sum(1.0 / (N - i) for i in range(j)) / lam


def test_harmonic_and_order_statistics_against_plain_sums():
    for n in (0, 1, 2, 7, 100):
        assert harmonic(n) == pytest.approx(sum(1 / i for i in range(1, n + 1)), rel=1e-13, abs=1e-15)
    np.testing.assert_allclose(harmonic(np.array([0, 3])), [0.0, 1 + 1 / 2 + 1 / 3], rtol=1e-13)
    with pytest.raises(ValueError):
        harmonic(-1)
    for j, N, lam in [(1, 1, 1.0), (1, 8, 2.0), (5, 8, 0.5), (8, 8, 1.0), (3, 64, 3.0)]:
        assert expected_order_statistic(j, N, lam) == pytest.approx(_order_stat_mean(j, N, lam), rel=1e-12)
    out = expected_order_statistic(np.array([1, 2]), 4)
    assert isinstance(out, np.ndarray) and out == pytest.approx([0.25, 0.25 + 1 / 3])
    for bad in (dict(lam=0.0), dict(j=0), dict(j=9), dict(j=1.5), dict(N=8.5)):
        with pytest.raises(ValueError):
            expected_order_statistic(**{**dict(j=2, N=8, lam=1.0), **bad})


def _step(dist, a, ratio):
    """One round of the recursion of (10): sqrt(1-a) dist + a/sqrt(ratio (1-a))."""
    return math.sqrt(1 - a) * dist + a / math.sqrt(ratio * (1 - a))


def test_recursion_floor_and_vacuous_ratio_by_iteration():
    for a, ratio in [(0.05, 1.0), (0.2, 4.0), (0.25, 16.0)]:
        assert contraction_bound(0.7, a, ratio) == pytest.approx(_step(0.7, a, ratio), rel=1e-14)
        d = 0.9
        traj = [d]
        for _ in range(3000):
            d = _step(d, a, ratio)
            traj.append(d)
        assert noise_floor(a, ratio) == pytest.approx(d, rel=1e-10)  # the fixed point
        for t in (0, 1, 5, 17):
            assert floor_recursion(0.9, a, ratio, t) == pytest.approx(traj[t], rel=1e-12)
        # at n/n0 = vacuous_ratio(a) the floor is exactly 1
        assert noise_floor(a, vacuous_ratio(a)) == pytest.approx(1.0, rel=1e-12)
        assert target_error(a, 8 * ratio, 8, 1.2) == pytest.approx(1.2 * noise_floor(a, ratio), rel=1e-14)
    assert vacuous_ratio(0.25) == pytest.approx(4.64, abs=0.01)
    for bad_a in (0.0, 1.0, -0.1):
        with pytest.raises(ValueError):
            noise_floor(bad_a, 2.0)
    for bad_c in (1.0, math.sqrt(2), 1.5):
        with pytest.raises(ValueError):
            target_error(0.1, 64, 4, bad_c)


@pytest.mark.parametrize("r, N, n0, lam, c", [(0, 64, 4, 1.0, 0.0), (2, 64, 4, 2.0, 3.0), (1, 32, 2, 0.5, 10.0)])
def test_progress_ratio_is_one_round_decrease_over_round_cost(r, N, n0, lam, c):
    a, dist = 0.1, 0.8
    decrease = dist - _step(dist, a, 2.0 ** r)
    cost = _order_stat_mean(min(N, n0 * 2 ** r), N, lam) + c / lam
    assert progress_ratio(dist, a, r, N, n0, lam, c) == pytest.approx(decrease / cost, rel=1e-12)
    # Lemma B.1: at X_{r+1} stages r and r+1 make the same progress per unit time
    X = switch_point(r, a, N, n0, lam, c)
    assert progress_ratio(X, a, r, N, n0, lam, c) == pytest.approx(progress_ratio(X, a, r + 1, N, n0, lam, c),
                                                                  rel=1e-10)
    if r >= 1:  # the stage-r recursion from X_r lands on X_{r+1} after t^r rounds
        t = stage_rounds(r, a, N, n0, lam)
        assert floor_recursion(switch_point(r - 1, a, N, n0, lam, c), a, 2.0 ** r, t) == pytest.approx(X, rel=1e-10)


def test_rounds_to_target_land_on_the_target():
    a, N, n0, c_hat = 0.1, 64, 4, 1.2
    eps = target_error(a, N, n0, c_hat)
    R = 4
    for lam, c in ((1.0, 0.0), (2.0, 5.0)):
        t2 = phase2_rounds_exact(a, N, n0, c_hat, lam, c)
        X_R = switch_point(R - 1, a, N, n0, lam, c)
        assert floor_recursion(X_R, a, 2.0 ** R, t2) == pytest.approx(eps, rel=1e-10)
    for d0 in (1.0, 0.9):  # above the target 1.2 D = 0.62
        tf = fedrep_rounds_exact(a, N, n0, c_hat, d0)
        assert floor_recursion(d0, a, N / n0, tf) == pytest.approx(eps, rel=1e-10)


def test_theorem47_probability_and_m_condition_hand_values():
    # 1 - T exp(-90 min(d, k^2 log N)): the d branch (d = 1 < 2), then the k^2 log N branch (0.5 and 4 * 0.25)
    assert theorem47_probability(0.5 * math.exp(90), 1, 1, math.exp(2)) == pytest.approx(0.5, rel=1e-12)
    assert theorem47_probability(0.5 * math.exp(45), 10, 1, math.exp(0.5)) == pytest.approx(0.5, rel=1e-12)
    assert theorem47_probability(0.25 * math.exp(90), 10, 2, math.exp(0.25)) == pytest.approx(0.75, rel=1e-12)
    assert theorem47_probability(10 * math.exp(90), 1, 1, math.exp(2)) == 0.0
    # m >= c0 (1 + sigma^2) k^3 kappa^4 / E0^2 max(log N, d/n0)
    assert theorem47_m_condition(2, 40, math.exp(3), 4, 2.0, 0.5, 1.0, c0=0.5) == pytest.approx(
        0.5 * 2 * 8 * 16 / 0.25 * 10, rel=1e-12)
    assert theorem47_m_condition(2, 8, math.exp(3), 4, 1.0, 1.0, 0.0) == pytest.approx(8 * 3, rel=1e-12)


@pytest.mark.parametrize("N, c_hat, base", [(math.exp(4), 1 + math.exp(-1), math.e), (16.0, 1.25, 2.0)])
def test_lemma_b3_and_theorem49_hand_values(N, c_hat, base):
    # natural: log N = 4, L = 1; base 2: log2 16 = 4, L = log2 4 = 2; a with log(1/(1-a)) = 1
    L = 1.0 if base == math.e else 2.0
    a = 1 - 1 / base
    assert lemma_b3_bound(N, a, c_hat, 2.0, log_base=base) == pytest.approx(4 * (4 + 2 * L) / 2, rel=1e-12)
    for c in (0.0, 1.5):
        ratio = theorem49_ratio_bound(N, c_hat, c, log_base=base)
        assert ratio == pytest.approx((6 * (c + 1) + 4 * L) / (4 + 2 * L), rel=1e-12)
        # Theorem 4.9 is Lemma B.2 over Lemma B.3
        assert ratio == pytest.approx(lemma_b2_bound(N, a, c_hat, 2.0, c, log_base=base)
                                      / lemma_b3_bound(N, a, c_hat, 2.0, log_base=base), rel=1e-12)


def _wallclock_loop(N, n0, a, c_hat, lam, c, schedule):
    """The idealised run round by round (no closed-form jumps), with plain-sum order statistics."""
    R = int(round(math.log2(N / n0)))
    eps = target_error(a, N, n0, c_hat)
    X = [switch_point(q, a, N, n0, lam, c) for q in range(R)]
    d, time, rounds, r = 1.0, 0.0, 0, (0 if schedule == "srpfl" else R)
    per = [0] * (R + 1)
    while d > eps:
        while schedule == "srpfl" and r < R and d <= X[r]:
            r += 1
        d = _step(d, a, 2.0 ** r)
        time += _order_stat_mean(min(N, n0 * 2 ** r), N, lam) + c / lam
        rounds += 1
        per[r] += 1
    return time, rounds, per


@pytest.mark.parametrize("schedule", ["srpfl", "fedrep"])
@pytest.mark.parametrize("N, n0, a, c_hat, lam, c", [(64, 4, 0.1, 1.2, 1.0, 0.0), (128, 2, 0.05, 1.1, 2.0, 3.0)])
def test_idealised_wallclock_against_a_round_by_round_loop(schedule, N, n0, a, c_hat, lam, c):
    t, rounds, per = idealised_wallclock(N, n0, a, c_hat, lam, c, schedule=schedule)
    t2, rounds2, per2 = _wallclock_loop(N, n0, a, c_hat, lam, c, schedule)
    assert (rounds, list(per)) == (rounds2, per2)
    assert t == pytest.approx(t2, rel=1e-10)


def test_idealised_wallclock_rejects_bad_input():
    for bad in (dict(N=1), dict(n0=0), dict(n0=128), dict(N=48), dict(c_hat=1.0), dict(lam=0.0), dict(c=-1.0),
                dict(a=0.0)):
        with pytest.raises(ValueError):
            idealised_wallclock(**{**dict(N=64, n0=4, a=0.1, c_hat=1.2, lam=1.0, c=0.0), **bad})
    with pytest.raises(ValueError, match="max_rounds"):
        idealised_wallclock(64, 4, 0.1, 1.2, max_rounds=5)


# --------------------------------------------------------------------------- defaults, more hand values
def test_documented_defaults_of_the_closed_forms():
    a, N, n0, c_hat = 0.1, 64, 4, 1.2
    assert progress_ratio(0.8, a, 1, N, n0) == progress_ratio(0.8, a, 1, N, n0, 1.0, 0.0)
    assert stage_rounds(2, a, N, n0) == stage_rounds(2, a, N, n0, 1.0)
    assert phase2_rounds_exact(a, N, n0, c_hat) == phase2_rounds_exact(a, N, n0, c_hat, 1.0, 0.0)
    assert fedrep_rounds_exact(a, N, n0, c_hat) == fedrep_rounds_exact(a, N, n0, c_hat, 1.0)
    assert lemma_b2_bound(N, a, c_hat) == lemma_b2_bound(N, a, c_hat, 1.0, 0.0, math.e)
    assert lemma_b3_bound(N, a, c_hat) == lemma_b3_bound(N, a, c_hat, 1.0, math.e)
    assert theorem49_ratio_bound(N, c_hat) == theorem49_ratio_bound(N, c_hat, 0.0, math.e)
    assert theorem47_m_condition(2, 8, 64, 4, 1.0, 1.0, 0.0) == theorem47_m_condition(2, 8, 64, 4, 1.0, 1.0, 0.0, 1.0)
    # sigma enters as 1 + sigma^2: sigma = 2 gives 5x the noiseless value
    assert theorem47_m_condition(2, 8, math.exp(3), 4, 1.0, 1.0, 2.0) == pytest.approx(5 * 8 * 3, rel=1e-12)
    # log(1/(1-a)) = 2 halves Lemma B.3's bound
    e = math.exp(1)
    assert lemma_b3_bound(e ** 4, 1 - e ** -2, 1 + 1 / e, 1.0) == pytest.approx(4 * (4 + 2) / 2, rel=1e-12)


def _appendix_a_by_loops(B, X, y, B_star, Ws, eta, B_bar, R, w):
    """Appendix A quantities from their definitions, client by client and sample by sample."""
    n, m, d = X.shape
    k = B.shape[1]
    S = np.zeros((d, k))
    E = np.zeros((d, k))
    for i in range(n):
        th = B_star @ Ws[i]
        q = B @ w[i] - th
        for j in range(m):
            x = X[i, j]
            S += np.outer(x * (x @ q), w[i]) / m  # (1/m) X^T X (B w - B* w*) w^T
            E += np.outer(x * (y[i, j] - x @ th), w[i]) / m  # (1/m) X^T z w^T
    Qs, _ = np.linalg.qr(B_star, mode="complete")
    perp = Qs[:, k:]
    WW = w.T @ w
    dist = np.linalg.norm(perp.T @ B, 2)
    A1 = dist * np.linalg.norm(np.eye(k) - eta / n * WW, 2)
    A2 = np.linalg.norm(eta / n * perp.T @ E, 2)
    XtXq = np.zeros((n, d))
    for i in range(n):
        XtXq[i] = sum(X[i, j] * (X[i, j] @ (B @ w[i] - B_star @ Ws[i])) for j in range(m)) / m
    t3 = -eta / n * perp.T @ ((XtXq - (w @ B.T - Ws @ B_star.T)).T @ w)
    A3 = np.linalg.norm(t3, 2)
    rhs116 = (A1 + A2 + A3) * np.linalg.norm(np.linalg.inv(R), 2)
    lam_max = lambda M: max(np.linalg.eigvalsh((M + M.T) / 2))  # noqa: E731
    R1 = eta / n * lam_max(B.T @ S + S.T @ B)
    R2 = (eta / n) ** 2 * lam_max(E.T @ S + S.T @ E)
    R3p = eta / n * lam_max(B.T @ E + E.T @ B)
    R3c = eta / n * lam_max(-(B.T @ E + E.T @ B))
    smin2 = min(np.linalg.svd(R, compute_uv=False)) ** 2
    return dict(eq116_rhs=rhs116, eq149_lhs=smin2, eq149_rhs_printed=1 - R1 - R2 - R3p,
                eq149_rhs_corrected=1 - R1 - R2 - R3c, S=S, E=E)


def test_round_decomposition_against_loops_from_the_definitions():
    from fedtheory.representation.algorithms import fedrep_round
    from fedtheory.srpfl.theory import round_decomposition

    model = make_model(7, 3, 5, sigma=0.4, seed=3)
    rng = np.random.default_rng(4)
    B = np.linalg.qr(model.B_star + 0.4 * rng.standard_normal((7, 3)))[0]
    X, y = model.sample(rng, np.arange(5), 9)
    eta = 0.05
    rnd = fedrep_round(B, X, y, eta)
    got = round_decomposition(B, X, y, model.B_star, model.W_star, eta, rnd.B_bar, rnd.R, rnd.w, rnd.B_next)
    ref = _appendix_a_by_loops(B, X, y, model.B_star, model.W_star, eta, rnd.B_bar, rnd.R, rnd.w)
    for key in ("eq116_rhs", "eq149_lhs", "eq149_rhs_printed", "eq149_rhs_corrected"):
        assert got[key] == pytest.approx(ref[key], rel=1e-9, abs=1e-12), key
    # (142): B^+ = B_hat - (eta/n) S + (eta/n) E, exactly
    np.testing.assert_allclose(rnd.B_bar, B - eta / 5 * ref["S"] + eta / 5 * ref["E"], atol=1e-12)
    assert got["eq142_residual"] < 1e-12 and got["lemmaA2_residual"] < 1e-10 and got["eq111_residual"] < 1e-12
    # the inequalities: (116), and (149) in the corrected form
    assert got["eq116_lhs"] <= got["eq116_rhs"] and got["eq149_lhs"] >= got["eq149_rhs_corrected"]


def test_idealised_wallclock_edges_and_validation_messages():
    N, n0, a, c_hat = 64, 4, 0.1, 1.2
    eps = target_error(a, N, n0, c_hat)
    # one round to go (a jump of exactly one round), against the loop
    for sched in ("srpfl", "fedrep"):
        t, rounds, per = idealised_wallclock(N, n0, a, c_hat, d0=eps * 1.001, schedule=sched)
        assert (rounds, per) == _wallclock_loop_from(N, n0, a, c_hat, 1.0, 0.0, sched, eps * 1.001)[1:]
        assert rounds == 1 and t == pytest.approx(_order_stat_mean(N, N))
    total = idealised_wallclock(N, n0, a, c_hat)[1]
    assert idealised_wallclock(N, n0, a, c_hat, max_rounds=total)[1] == total  # the budget is inclusive
    with pytest.raises(ValueError, match=r"^idealised run exceeded `max_rounds`$"):
        idealised_wallclock(N, n0, a, c_hat, max_rounds=total - 1)
    assert idealised_wallclock(N, n0, a, c_hat) == idealised_wallclock(N, n0, a, c_hat, 1.0, 0.0, 1.0, "srpfl")
    assert idealised_wallclock(2, 1, 0.3, 1.2)[1] >= 0  # the smallest N and n0 allowed
    for bad, name in ((dict(N=1), "N"), (dict(n0=0), "n0"), (dict(n0=128), "n0"), (dict(c_hat=1.0), "c_hat"),
                      (dict(c_hat=1.42), "c_hat"), (dict(lam=0.0), "lam"), (dict(c=-1.0), "c")):
        with pytest.raises(ValueError, match=f"`{name}`"):
            idealised_wallclock(**{**dict(N=N, n0=n0, a=a, c_hat=c_hat), **bad})
    with pytest.raises(ValueError, match="`N`/`n0` must be a power of 2"):
        idealised_wallclock(48, 4, a, c_hat)
    assert switch_point(1, a, N, n0) == switch_point(1, a, N, n0, 1.0, 0.0)


def _wallclock_loop_from(N, n0, a, c_hat, lam, c, schedule, d0):
    R = int(round(math.log2(N / n0)))
    eps = target_error(a, N, n0, c_hat)
    X = [switch_point(q, a, N, n0, lam, c) for q in range(R)]
    d, time, rounds, r = d0, 0.0, 0, (0 if schedule == "srpfl" else R)
    per = [0] * (R + 1)
    while d > eps:
        while schedule == "srpfl" and r < R and d <= X[r]:
            r += 1
        d = _step(d, a, 2.0 ** r)
        time += _order_stat_mean(min(N, n0 * 2 ** r), N, lam) + c / lam
        rounds += 1
        per[r] += 1
    return time, rounds, per


def test_theory_messages_and_float_results():
    assert type(harmonic(3)) is float and type(expected_order_statistic(2, 5)) is float
    with pytest.raises(ValueError, match=r"^`n` must be >= 0"):
        harmonic(-2)
    with pytest.raises(ValueError, match=r"^`j` and `N` must be integers with 1 <= j <= N$"):
        expected_order_statistic(0, 5)
    with pytest.raises(ValueError, match=r"^`a` must be in \(0, 1\)"):
        noise_floor(1.5, 2.0)
    with pytest.raises(ValueError, match=r"^`lam` must be > 0"):
        expected_order_statistic(1, 5, 0.0)


# --------------------------------------------------------------------------- re-measured 120-sample of
# srpfl/theory.py (current file): parameter names and lower bounds of the validators.
def test_srpfl_theory_current_sample_names_and_bounds():
    from fedtheory.representation.algorithms import fedrep_round
    from fedtheory.srpfl import theory as th

    def raises(pattern, f, *a, **kw):
        with np.errstate(all="ignore"), pytest.raises(ValueError, match=pattern):
            f(*a, **kw)

    raises(r"^`a` must be finite", th.contraction_bound, 0.5, np.nan, 2.0)
    raises(r"^`n_over_n0` must be", th.contraction_bound, 0.5, 0.2, -1.0)
    raises(r"^`n_over_n0` must be finite", th.noise_floor, 0.2, np.nan)
    raises(r"^`N` must be", th.stage_rounds, 1, 0.2, 0, 1)
    raises(r"^`lam` must be", th.stage_rounds, 1, 0.2, 8, 1, lam=0.0)
    raises(r"^`r` must satisfy 1 <= r < log2\(N/n0\)", th.stage_rounds, 3, 0.2, 8, 1)  # n0 2^3 = N
    raises(r"^`c` must be finite", th.progress_ratio, 0.5, 0.2, 1, 8, 1, c=np.nan)
    raises(r"^`T` must be", th.theorem47_probability, -1, 10, 2, 8)
    raises(r"^`d` must be finite", th.theorem47_m_condition, 2, np.nan, 8, 2, 1.0, 0.5, 0.1)
    raises(r"^`n0` must be", th.theorem47_m_condition, 2, 10, 8, 0, 1.0, 0.5, 0.1)
    raises(r"^`lam` must be in \(0, inf\); got lam=0.0$", th.phase2_rounds_exact, 0.2, 8, 1, 1.2, lam=0.0)
    raises(r"^`d0` must be finite", th.fedrep_rounds_exact, 0.2, 8, 1, 2.0, d0=np.nan)
    raises(r"^`max_rounds` must be", th.idealised_wallclock, 8, 1, 0.2, 1.2, max_rounds=0)
    raises(r"^`lam` must be", th.lemma_b2_bound, 8, 0.2, 2.0, lam=0.0)
    model = make_model(7, 3, 5, sigma=0.4, seed=3)
    rng = np.random.default_rng(4)
    B = np.linalg.qr(model.B_star + 0.4 * rng.standard_normal((7, 3)))[0]
    X, y = model.sample(rng, np.arange(5), 9)
    rnd = fedrep_round(B, X, y, 0.05)
    args = dict(B_hat=B, X=X, y=y, B_star=model.B_star, W_star_sel=model.W_star, eta=0.05, B_bar=rnd.B_bar,
                R=rnd.R, w=rnd.w, B_next=rnd.B_next)
    for name, bad, pattern in [("y", y[:, :3], r"^`y`"), ("B_star", model.B_star[:4], r"^`B_star`"),
                               ("eta", -1.0, r"^`eta` must be"), ("R", rnd.R[:2], r"^`R`"),
                               ("w", rnd.w[:2], r"^`w`")]:
        raises(pattern, th.round_decomposition, **{**args, name: bad})


# ----------------------------------------------------------------------------- library functions
@pytest.mark.parametrize("j,N", [(1, 8), (8, 8), (3, 100), (100, 100), (70, 100), (5, 2 ** 20), (2 ** 20, 2 ** 20)])
def test_order_statistic_mean_stable_exact(j, N):
    exact = float(sum(Fraction(1, N - i) for i in range(min(j, 2000)))) if j <= 2000 else None
    if exact is None:  # H_N for N = 2^20: digamma + gamma is accurate there
        exact = float(np.sum(1.0 / np.arange(1, N + 1)[::-1][:j][::-1]))
    assert order_statistic_mean_stable(j, N) == pytest.approx(exact, rel=1e-13)


def test_order_statistic_mean_stable_large_N():
    # j << N at N = 2^60: the sum is 4/N (1 + 6/(4N) + ...): relative accuracy, where H_N - H_{N-j} has none
    N = 2 ** 60
    assert order_statistic_mean_stable(4, N) * N / 4 == pytest.approx(1.0, rel=1e-15)
    assert order_statistic_mean_stable(N // 2, N) == pytest.approx(math.log(2), rel=1e-15)
    assert order_statistic_mean_stable(3, 7, lam=2.0) == pytest.approx((1 / 7 + 1 / 6 + 1 / 5) / 2, rel=1e-15)


@pytest.mark.parametrize("kw,name", [(dict(j=0, N=5), "j"), (dict(j=6, N=5), "j"), (dict(j=1, N=0), "N"),
                                     (dict(j=1, N=5, lam=0.0), "lam")])
def test_order_statistic_mean_stable_validation(kw, name):
    with pytest.raises(ValueError, match=name):
        order_statistic_mean_stable(**kw)


@pytest.mark.parametrize("N,c", [(64, 0.0), (256, 10.0), (4096, 100.0), (1024, 0.0)])
def test_idealised_times_matches_idealised_wallclock(N, c):
    r = idealised_times(N, 4, 0.05, 1.2, 1.0, c)
    s = idealised_wallclock(N, 4, 0.05, 1.2, 1.0, c)
    f = idealised_wallclock(N, 4, 0.05, 1.2, 1.0, c, schedule="fedrep")
    assert r["T_srpfl"] == pytest.approx(s[0], rel=1e-12) and r["rounds_srpfl"] == s[2]
    assert r["T_fedrep"] == pytest.approx(f[0], rel=1e-12) and r["rounds_fedrep"] == f[1]


@pytest.mark.parametrize("kw,name", [(dict(N=48, n0=4), "N"), (dict(N=64, n0=64), "n0"), (dict(c_hat=1.5), "c_hat"),
                                     (dict(a=1.0), "a"), (dict(c=-1.0), "c")])
def test_idealised_times_validation(kw, name):
    args = dict(N=64, n0=4, a=0.05, c_hat=1.2)
    args.update(kw)
    with pytest.raises(ValueError, match=name):
        idealised_times(**args)


def test_expected_order_statistic_broadcasts_and_matches_monte_carlo():
    j = np.array([1, 3, 10])
    closed = expected_order_statistic(j, 10, 0.5)
    assert closed.shape == (3,)
    est = mc_mean(lambda g, n: np.sort(g.exponential(2.0, (n, 10)), axis=1)[:, j - 1], 200_000, seed=3)
    assert np.all(np.abs(est.z_score(closed)) < 4)
    assert expected_order_statistic(10, 10, 1.0) == pytest.approx(sum(1 / i for i in range(1, 11)))
    assert harmonic(0) == 0.0 and harmonic(4) == pytest.approx(25 / 12)


def test_floor_recursion_and_switching():
    a = 0.05
    d = 0.8
    for t in range(50):
        d = contraction_bound(d, a, 4)
    assert floor_recursion(0.8, a, 4, 50) == pytest.approx(d, rel=1e-12)
    assert noise_floor(a, 8) * math.sqrt(2) == pytest.approx(noise_floor(a, 4))
    X1, X2 = switch_point(1, a, 256, 4), switch_point(2, a, 256, 4)
    assert floor_recursion(X1, a, 4, stage_rounds(2, a, 256, 4)) == pytest.approx(X2, rel=1e-10)
    assert stage_rounds(2, a, 256, 4, lam=1.0) == pytest.approx(stage_rounds(2, a, 256, 4, lam=7.0))


def test_idealised_wallclock_speedup_grows_with_N_and_b2_bound_holds():
    ratios = []
    for N in (64, 256, 1024):
        ts = idealised_wallclock(N, 4, 0.05, 1.2)[0]
        tf = idealised_wallclock(N, 4, 0.05, 1.2, schedule="fedrep")[0]
        ratios.append(ts / tf)
        assert ts <= lemma_b2_bound(N, 0.05, 1.2)
        assert ts / tf <= theorem49_ratio_bound(N, 1.2)
    assert ratios[0] > ratios[1] > ratios[2]


def test_closed_form_validation():
    with pytest.raises(ValueError, match="c_hat"):
        target_error(0.05, 64, 4, 1.5)
    with pytest.raises(ValueError, match="c_hat"):
        idealised_wallclock(64, 4, 0.05, 1.0)
    with pytest.raises(ValueError, match="lam"):
        expected_order_statistic(1, 4, 0.0)
    with pytest.raises(ValueError, match="j"):
        expected_order_statistic(5, 4, 1.0)
