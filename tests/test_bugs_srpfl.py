"""Tests that catch realistic silent bugs in fedtheory.srpfl.

The referees are independent: hand-evaluated values of the paper's printed formulas, exact
enumeration of subsets, the compute times a recording speed model saw, and plain sorting.
"""
import itertools
import math
from dataclasses import dataclass, field

import numpy as np
import pytest

from fedtheory.srpfl import run_srpfl
from fedtheory.srpfl.algorithms import srpfl_default_eta
from fedtheory.srpfl.model import SpeedModel
from fedtheory.srpfl.theory import idealised_wallclock, lemma_b2_bound
from fedtheory.representation.model import FedRepModel, make_model


@dataclass(frozen=True, eq=False)
class RecordingSpeeds(SpeedModel):
    """A speed model that records, per round, the sampled clients and the compute times it drew."""

    log: list = field(default_factory=list)

    def draw(self, rng, clients):
        times = super().draw(rng, clients)
        self.log.append((np.array(clients), np.array(times)))
        return times


def _lambda_min_2x2(G):
    """Smallest eigenvalue of a symmetric 2 x 2 matrix by the quadratic formula."""
    tr, det = G[0, 0] + G[1, 1], G[0, 0] * G[1, 1] - G[0, 1] * G[1, 0]
    return (tr - math.sqrt(max(tr * tr - 4 * det, 0.0))) / 2


def _run_recorded(**kw):
    sp = RecordingSpeeds(kind="iid", lam=kw.pop("lam_speeds", 1.0), M=kw["M"])
    res = run_srpfl(speeds=sp, **kw)
    assert len(sp.log) == res.participants.size
    return res, sp.log


# --------------------------------------------------------------------------- a_t from the participants
def test_a_t_recomputed_from_the_actual_participants_each_round():
    kw = dict(d=8, k=2, M=24, N=16, n0=2, m=8, sigma=0.2, stage_lengths=3, rounds=14,
              resample="round", seed=5)
    res, log = _run_recorded(**kw)
    W = res.model.W_star
    sizes = [2, 4, 8, 16]
    assert res.E0 == pytest.approx(1 - res.dist[0] ** 2, abs=1e-15)
    for t, ((active, times), n, r) in enumerate(zip(log, res.participants, res.stage)):
        assert n == sizes[r]
        assert active.size == 16 and np.unique(active).size == 16  # N of M, without replacement
        # the participants: the n clients with the smallest compute times (exact enumeration)
        fastest = [c for c, tm in zip(active, times) if np.sum(times < tm) < n]
        assert len(fastest) == n
        G = sum(np.outer(W[c], W[c]) for c in fastest) / n  # (W_I / sqrt n)^T (W_I / sqrt n)
        a_t = 0.5 * res.eta * res.E0 * _lambda_min_2x2(G)
        assert res.a[t] == pytest.approx(a_t, rel=1e-10, abs=1e-15), t
        # Theorem 4.7's right side with this a_t, from the paper's eq. (10)
        bound = res.dist[t] * math.sqrt(1 - a_t) + a_t / math.sqrt((n / 2) * (1 - a_t))
        assert res.bound[t] == pytest.approx(bound, rel=1e-10)


# --------------------------------------------------------------------------- round time
@pytest.mark.parametrize("schedule", ["doubling", "all"])
def test_round_time_is_nth_smallest_sampled_time_plus_C(schedule):
    lam, c = 2.0, 0.6  # C = c / lam = 0.3
    res, log = _run_recorded(d=6, k=2, M=20, N=16, n0=2, m=6, schedule=schedule, comm_cost=c, lam=lam,
                             lam_speeds=lam, stage_lengths=2, rounds=10, resample="round", seed=2)
    assert res.wall_clock[0] == 0.0
    for t, ((_, times), n) in enumerate(zip(log, res.participants)):
        assert n == (16 if schedule == "all" else min(16, 2 * 2 ** res.stage[t]))
        srt = sorted(times.tolist())
        expected = srt[n - 1] + 0.3
        assert res.wall_clock[t + 1] - res.wall_clock[t] == pytest.approx(expected, rel=1e-12), t
    if schedule == "all":
        assert np.allclose(np.diff(res.wall_clock), [max(tm) + 0.3 for _, tm in log], rtol=1e-12)


# --------------------------------------------------------------------------- default step, Theorem 4.7
def _sigma_max_star_sq(W, n0, N):
    """max over subsets I with n0 <= |I| <= N of sigma_max(W_I / sqrt|I|)^2, by enumeration."""
    best = 0.0
    for size in range(n0, N + 1):
        for I in itertools.combinations(range(W.shape[0]), size):
            WI = W[list(I)]
            best = max(best, float(np.linalg.eigvalsh(WI.T @ WI / size)[-1]))
    return best


def test_default_step_meets_theorem_4_7_and_is_tight_on_equal_heads():
    # tight instance: every head equal (up to sign), so sigma_max(W_I/sqrt n)^2 = ||w||^2 for every I
    w = np.array([1.5, -0.5])
    W = np.array([w, -w, w, w, -w, w])
    smax2 = _sigma_max_star_sq(W, 2, 6)
    assert smax2 == pytest.approx(float(w @ w), rel=1e-12)
    assert srpfl_default_eta(W) == pytest.approx(1 / (8 * smax2), rel=1e-12)
    # heterogeneous norms: the condition eta <= 1/(8 sigma_max,*^2) still holds
    rng = np.random.default_rng(0)
    for _ in range(5):
        W = rng.standard_normal((6, 2)) * rng.uniform(0.2, 3.0, (6, 1))
        assert srpfl_default_eta(W) <= 1 / (8 * _sigma_max_star_sq(W, 2, 6)) * (1 + 1e-12)
    # and it is the step run_srpfl uses when none is given
    B_star = np.linalg.qr(rng.standard_normal((5, 2)))[0]
    model = FedRepModel(B_star=B_star, W_star=np.array([w, -w, w, w, -w, w]), sigma=0.0)
    res = run_srpfl(d=5, k=2, M=6, N=6, n0=2, m=5, sigma=0.0, model=model, rounds=2, seed=0)
    assert res.eta == pytest.approx(1 / (8 * float(w @ w)), rel=1e-12)
    res2 = run_srpfl(d=5, k=2, M=6, N=6, n0=2, m=5, model=make_model(5, 2, 6, seed=1), rounds=1, seed=0)
    assert res2.eta <= 1 / (8 * _sigma_max_star_sq(res2.model.W_star, 2, 6)) * (1 + 1e-12)


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


# --------------------------------------------------------------------------- closed forms of theory.py
from fedtheory.srpfl.theory import (contraction_bound, expected_order_statistic, fedrep_rounds_exact,  # noqa: E402
                                    floor_recursion, harmonic, lemma_b3_bound, noise_floor,
                                    phase2_rounds_exact, progress_ratio, stage_rounds, switch_point,
                                    target_error, theorem47_m_condition, theorem47_probability,
                                    theorem49_ratio_bound, vacuous_ratio)


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


# --------------------------------------------------------------------------- run_srpfl options
def test_resample_per_stage_keeps_the_active_set_within_a_stage():
    res, log = _run_recorded(d=6, k=2, M=30, N=8, n0=2, m=6, stage_lengths=3, rounds=10, resample="stage", seed=1)
    for t in range(1, len(log)):
        same = np.array_equal(log[t][0], log[t - 1][0])
        assert same == (res.stage[t] == res.stage[t - 1]), t  # redrawn exactly at a stage change
    res2, log2 = _run_recorded(d=6, k=2, M=30, N=8, n0=2, m=6, stage_lengths=3, rounds=4, resample="round", seed=1)
    assert not np.array_equal(log2[0][0], log2[1][0])


def test_stage_lengths_list_and_last_stage_runs_on():
    res = run_srpfl(d=6, k=2, M=16, N=16, n0=2, m=6, stage_lengths=[1, 2, 3], rounds=12, seed=0)
    assert res.stage.tolist() == [0, 1, 1, 2, 2, 2] + [3] * 6
    assert res.participants.tolist() == [2, 4, 4, 8, 8, 8] + [16] * 6
    assert res.params["stage_lengths"] == [1, 2, 3]
    res = run_srpfl(d=6, k=2, M=16, N=16, n0=2, m=6, stage_lengths=2, seed=0)  # default budget: 2 x 4 stages
    assert res.stage.tolist() == [0, 0, 1, 1, 2, 2, 3, 3]
    fr = run_srpfl(d=6, k=2, M=16, N=16, n0=2, m=6, schedule="all", stage_lengths=2, seed=0)
    assert fr.participants.tolist() == [16, 16] and fr.params["schedule"] == "FedRep"


def test_lemma_b1_stage_lengths_follow_switch_points_and_t_r():
    N, n0, a_stage, lam, c = 16, 2, 0.05, 1.0, 0.5
    res = run_srpfl(d=8, k=2, M=16, N=N, n0=n0, m=12, sigma=0.05, stage_lengths="lemma_b1", a_stage=a_stage,
                    rounds=60, comm_cost=c, lam=lam, seed=3)
    X0 = switch_point(0, a_stage, N, n0, lam, c)
    t0 = next(t for t in range(len(res.stage)) if res.dist[t] <= X0)
    assert np.all(res.stage[:t0] == 0) and res.stage[t0] == 1
    # stage 1 runs ceil(t^1) rounds (t^r does not depend on c), then stage 2 starts
    n1 = math.ceil(stage_rounds(1, a_stage, N, n0, lam))
    assert np.sum(res.stage == 1) == n1 and res.stage[t0 + n1] == 2
    with pytest.raises(ValueError, match="`a_stage`"):
        run_srpfl(d=8, k=2, M=16, N=N, n0=n0, m=12, stage_lengths="lemma_b1", rounds=2)


def test_target_stops_the_run_and_time_to():
    full = run_srpfl(d=8, k=2, M=16, N=16, n0=4, m=20, sigma=0.0, stage_lengths=3, rounds=40, seed=2)
    target = float(full.dist[5]) * 1.0000001
    res = run_srpfl(d=8, k=2, M=16, N=16, n0=4, m=20, sigma=0.0, stage_lengths=3, rounds=40, target=target, seed=2)
    first = int(np.flatnonzero(full.dist <= target)[0])
    assert res.dist.size == first + 1 and res.dist[-1] <= target and np.all(res.dist[:-1] > target)
    assert res.time_to(target) == res.wall_clock[-1] == full.wall_clock[first]
    assert res.time_to(-1.0) == math.inf
    assert res.params["target"] == target
    assert "bound violations" in res.summary() and repr(res).startswith("SRPFLResult(SRPFL run")


def test_eval_every_records_the_exact_mse_on_schedule():
    res = run_srpfl(d=6, k=2, M=8, N=8, n0=2, m=8, sigma=0.3, stage_lengths=2, rounds=6, eval_every=2, seed=0)
    assert np.isfinite(res.mse[[0, 2, 4, 6]]).all() and np.isnan(res.mse[[1, 3, 5]]).all()
    assert np.all(res.mse[[0, 2, 4, 6]] >= 0.09)  # at least the noise sigma^2
    none = run_srpfl(d=6, k=2, M=8, N=8, n0=2, m=8, sigma=0.3, stage_lengths=2, rounds=3, seed=0)
    assert np.isnan(none.mse).all()


def test_exact_mse_against_monte_carlo():
    """_exact_mse: every client fits its head on B from m fresh samples; the expected test MSE of that fit."""
    from fedtheory.srpfl.algorithms import _exact_mse

    model = make_model(5, 2, 3, sigma=0.4, seed=0)
    B = np.linalg.qr(np.random.default_rng(1).standard_normal((5, 2)))[0]
    rng = np.random.default_rng(2)
    val = _exact_mse(model, B, 10, np.random.default_rng(2))
    X, y = model.sample(rng, np.arange(3), 10)  # the same draws as inside
    W = np.array([np.linalg.lstsq(X[i] @ B, y[i], rcond=None)[0] for i in range(3)])
    theta_hat = W @ B.T
    x = np.random.default_rng(9).standard_normal((200_000, 5))
    errs = [np.mean((x @ (model.theta_star[i] - theta_hat[i]) + 0.4 * np.random.default_rng(i).standard_normal(
        200_000)) ** 2) for i in range(3)]
    assert val == pytest.approx(np.mean(errs), rel=0.02)


def test_carry_pre_qr_uses_the_unnormalised_average_after_a_switch():
    kw = dict(d=8, k=2, M=8, N=8, n0=4, m=10, sigma=0.1, stage_lengths=2, rounds=4, seed=5)
    qr = run_srpfl(**kw, carry="qr")
    pre = run_srpfl(**kw, carry="pre_qr")
    np.testing.assert_array_equal(qr.dist[:3], pre.dist[:3])  # identical until the switch
    assert pre.params["carry"] == "pre_qr"
    # dist depends on the column space only, and B_bar = B_next R spans the same space: still identical here,
    # but the next round starts from a non-orthonormal B and so takes a different step
    assert not np.allclose(qr.dist[3:], pre.dist[3:])


def test_run_srpfl_validation_more():
    base = dict(d=6, k=2, M=8, N=8, n0=2, m=6, rounds=2)
    bads = [dict(k=7), dict(N=9), dict(n0=1), dict(n0=9), dict(m=1), dict(sigma=-1.0), dict(lam=0.0),
            dict(comm_cost=-1.0), dict(schedule="fast"), dict(resample="never"), dict(carry="none"),
            dict(init="zero"), dict(eval_every=-1), dict(stage_lengths="lemma"), dict(stage_lengths=0),
            dict(rounds=-1), dict(target=0.0), dict(eta=0.0),
            dict(model=make_model(6, 2, 7, seed=0)), dict(record_identities=True, sampler="reduced")]
    for bad in bads:
        with pytest.raises(ValueError):
            run_srpfl(**{**base, **bad})


def test_fedavg_wallclock_charges_the_slowest_selected_client():
    from fedtheory.srpfl import fedavg_wallclock

    sp = RecordingSpeeds(kind="iid", lam=2.0, M=12)
    t, dist, mse = fedavg_wallclock(d=6, k=2, M=12, N=6, m=5, sigma=0.2, speeds=sp, comm_cost=1.0, lam=2.0,
                                    rounds=5, eta=0.05, seed=1)
    assert len(sp.log) == 5 and all(c.size == 6 for c, _ in sp.log)
    np.testing.assert_allclose(np.diff(t), [max(tm) + 0.5 for _, tm in sp.log], rtol=1e-12)
    assert t[0] == 0.0 and dist.shape == (6,) and mse.shape == (6,)
    assert np.all(mse >= 0.04)  # twice objective (4), noise included


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


# --------------------------------------------------------------------------- documented defaults of the runs
def test_fedavg_wallclock_defaults_and_its_parts():
    from fedtheory.random import spawn_seeds
    from fedtheory.representation import run_fedavg
    from fedtheory.srpfl import fedavg_wallclock
    from fedtheory.srpfl.model import make_speed_model

    t0, d0, m0 = fedavg_wallclock()
    t1, d1, m1 = fedavg_wallclock(d=50, k=3, M=64, N=64, m=30, sigma=0.5, speeds="fixed", comm_cost=0.0, lam=1.0,
                                  rounds=100, eta=0.05, speed_variant="tmlr", straggler_fraction=0.2, seed=0)
    np.testing.assert_array_equal(t0, t1)
    np.testing.assert_array_equal(d0, d1)
    # the parts: the model and the speeds drawn from the documented child streams, FedAvg run on its stream
    kw = dict(d=6, k=2, M=12, N=6, m=5, sigma=0.3, comm_cost=1.0, lam=2.0, rounds=4, eta=0.07, seed=3)
    ss_model, ss_speed, ss_run, ss_time = spawn_seeds(3, 4)
    model = make_model(6, 2, 12, sigma=0.3, seed=ss_model)
    sp = make_speed_model("mixture", 12, 6, lam=2.0, variant="arxiv", straggler_fraction=0.5, seed=ss_speed)
    t, dist, mse = fedavg_wallclock(**kw, speeds="mixture", speed_variant="arxiv", straggler_fraction=0.5)
    t2, dist2, mse2 = fedavg_wallclock(**kw, speeds=sp, model=model)
    np.testing.assert_array_equal(t, t2)
    np.testing.assert_array_equal(dist, dist2)
    ref = run_fedavg(6, 2, 12, 5, 0.5, 4, eta=0.07, model=model, m_test=0, seed=ss_run)
    np.testing.assert_array_equal(dist, ref.dist)
    np.testing.assert_allclose(mse, 2 * ref.objective)


def test_run_srpfl_defaults():
    a = run_srpfl()
    b = run_srpfl(d=50, k=3, M=64, N=64, n0=4, m=30, sigma=0.5, speeds="fixed", comm_cost=0.0, lam=1.0,
                  schedule="doubling", stage_lengths=20, head_norm="sqrt_k", design="gaussian", init="mom",
                  resample="stage", carry="qr", speed_variant="tmlr", straggler_fraction=0.2, eval_every=0,
                  sampler="full", seed=0)
    np.testing.assert_array_equal(a.dist, b.dist)
    np.testing.assert_array_equal(a.wall_clock, b.wall_clock)
    assert a.dist.size == 5 * 20 + 1 and a.params["speeds"] == "fixed" and a.params["resample"] == "stage"


def test_result_summary_and_time_to_at_the_boundary():
    res = run_srpfl(d=6, k=2, M=8, N=8, n0=2, m=6, stage_lengths=2, rounds=6, comm_cost=0.5, seed=4)
    p = res.params
    expect = (f"SRPFL run: d=6, k=2, M=8, N=8, n0=2, m=6, speeds='fixed'; 6 rounds, dist "
              f"{res.dist[0]:.3g} -> {res.dist[-1]:.3g}, time {res.wall_clock[-1]:.4g}, "
              f"{res.bound_violations.size} bound violations")
    assert res.summary() == expect and p["m"] == 6 and p["M"] == 8
    for t in range(7):
        first = min(i for i in range(7) if res.dist[i] <= res.dist[t])  # dist == eps counts as reached
        assert res.time_to(float(res.dist[t])) == res.wall_clock[first]


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


def test_run_srpfl_more_paths_params_and_names():
    from fedtheory.random import spawn_seeds
    from fedtheory.srpfl import fedavg_wallclock
    from fedtheory.srpfl.model import make_speed_model

    base = dict(d=6, k=2, M=8, N=8, n0=2, m=6, seed=0)
    tgt = run_srpfl(**base, stage_lengths=2, target=1e-9, sigma=0.5)
    assert tgt.params["rounds"] == 200  # a target makes the default budget 200 rounds
    rad = run_srpfl(**base, rounds=1, design="rademacher")
    assert rad.model.design == "rademacher"
    two = run_srpfl(d=6, k=2, M=8, N=8, n0=4, m=6, stage_lengths="lemma_b1", a_stage=0.05, rounds=3, seed=0)
    assert two.participants.size == 3  # two stages: one switch point
    red = run_srpfl(**base, rounds=2, sampler="reduced")
    full = run_srpfl(**base, rounds=2, sampler="full")
    assert red.params["sampler"] == "reduced" and not np.allclose(red.dist[1:], full.dist[1:])
    # zero heads: sigma_min(W_I) = 0 exactly, so a_t = 0 and the bound is vacuous (inf)
    flat = FedRepModel(B_star=np.linalg.qr(np.random.default_rng(0).standard_normal((6, 2)))[0],
                       W_star=np.zeros((8, 2)), sigma=0.1)
    res = run_srpfl(**base, model=flat, rounds=2, eta=0.1)
    assert np.all(res.a == 0) and np.all(np.isinf(res.bound))
    p = run_srpfl(**base, rounds=1, stage_lengths=[1, 1], init="random", carry="pre_qr", resample="round").params
    assert (p["seed"], p["head_norm"], p["init"], p["resample"], p["carry"]) == (0, "sqrt_k", "random", "round",
                                                                                   "pre_qr")
    assert p["stage_lengths"] == [1, 1] and run_srpfl(**base, rounds=1).params["stage_lengths"] == [20, 20, 20]
    for bad, name in ((dict(d=0), "d"), (dict(k=7), "k"), (dict(N=9), "N must not exceed M=8"),
                      (dict(carry="x"), "carry"), (dict(stage_lengths="x"), "stage_lengths"),
                      (dict(stage_lengths="lemma_b1", a_stage=1.0), "a_stage"),
                      (dict(stage_lengths="lemma_b1", a_stage=0.0), "a_stage")):
        with pytest.raises(ValueError, match=name if " " in name else f"`{name}`"):
            run_srpfl(**{**base, "rounds": 1, **bad})
    ss = spawn_seeds(2, 4)
    t1 = fedavg_wallclock(d=6, k=2, M=12, N=6, m=5, speeds="dynamic", speed_variant="arxiv", rounds=3, seed=2)[0]
    sp = make_speed_model("dynamic", 12, 6, variant="arxiv", seed=ss[1])
    t2 = fedavg_wallclock(d=6, k=2, M=12, N=6, m=5, speeds=sp, rounds=3, seed=2)[0]
    np.testing.assert_array_equal(t1, t2)


# --------------------------------------------------------------------------- re-measured 120-sample of
# srpfl/algorithms.py: the reason texts of the validators, admissible edges, size guards at boundaries.
def test_srpfl_algorithms_messages_and_edges():
    from fedtheory.srpfl import make_speed_model
    from fedtheory.srpfl.algorithms import fedavg_wallclock, run_srpfl

    small = dict(d=6, k=2, M=8, N=8, n0=2, m=4, rounds=2)
    for bad, pattern in [
        (dict(k=7), r"^`k` must be in .* \(k must not exceed d=6\)"),
        (dict(m=1), r"^`m` must be in .* \(the exact head needs m >= k=2\)"),
        (dict(sigma=-1.0), r"^`sigma` must be in .* \(noise standard deviation\)"),
        # above SIGMA_MAX = 1e60, checked although a given model fixes the noise (make_model is not called)
        (dict(sigma=1e61, model=make_model(6, 2, 8, seed=1)), r"^`sigma` must be in"),
        (dict(lam=0.0), r"^`lam` must be in .* \(exponential rate\)"),
        (dict(stage_lengths=0), r"^`stage_lengths` must be in"),
    ]:
        with pytest.raises(ValueError, match=pattern):
            run_srpfl(**{**small, **bad})
    # eval_every: the M x m x d evaluation batch is guarded (M = 2^16, m = 2^12, d = 16: 2^32 floats)
    with pytest.raises(ValueError, match=r"^the run's largest array .*`M`=65536"):
        run_srpfl(d=16, k=2, M=2 ** 16, N=4, n0=2, m=2 ** 12, rounds=1, eval_every=1)
    fa = dict(d=6, k=2, M=8, N=4, m=4, rounds=2)
    for bad, pattern in [
        (dict(k=7), r"^`k` must be in .* \(k must not exceed d=6\)"),
        (dict(k=0), r"^`k` must be in .* \(k must not exceed d=6\); got k=0"),  # this check, not make_model's
        (dict(sigma=-1.0), r"^`sigma` must be in .* \(noise standard deviation\)"),
        # checked although a given speed model means make_speed_model (which checks it too) is not called
        (dict(straggler_fraction=1.5, speeds=make_speed_model("fixed", 8, 4, seed=0)),
         r"^`straggler_fraction` must be in"),
        (dict(M=2 ** 27, N=1, d=8), r"^the run's largest array .*`M`=134217728"),
    ]:
        with pytest.raises(ValueError, match=pattern):
            fedavg_wallclock(**{**fa, **bad})
    # M = N = 1 is admissible: one client, every round selects it
    clock, dist, mse = fedavg_wallclock(d=4, k=1, M=1, N=1, m=3, rounds=2)
    assert clock.shape == dist.shape == mse.shape == (3,)


def test_srpfl_summary_reports_the_last_round():
    from fedtheory.srpfl.algorithms import run_srpfl

    res = run_srpfl(d=6, k=2, M=8, N=8, n0=2, m=4, rounds=6, seed=1)
    assert f"dist {res.dist[0]:.3g} -> {res.dist[-1]:.3g}," in res.summary()
    assert f"{res.dist[-2]:.3g}" != f"{res.dist[-1]:.3g}"


def test_exact_mse_heads_carry_the_tiny_ridge():
    """``_exact_mse`` fits the heads with ridge 1e-12 (a guard against singular k x k systems). With
    B = B*, sigma = 0, the ridge head is w_i = (G_i + l I)^{-1} G_i w_i*, so the error is, to first
    order in l, ||l G_i^{-1} w_i*||^2 with G_i = A_i^T A_i from the same draws (a twin stream)."""
    from fedtheory.random import as_generator
    from fedtheory.srpfl.algorithms import _exact_mse

    model = make_model(6, 2, 10, sigma=0.0, seed=3)
    got = _exact_mse(model, model.B_star, 3, as_generator(5))
    X, _ = model.sample(as_generator(5), np.arange(10), 3)
    A = X @ model.B_star
    G = np.swapaxes(A, 1, 2) @ A
    ref = np.mean([np.sum((1e-12 * np.linalg.solve(G[i], model.W_star[i])) ** 2) for i in range(10)])
    assert got == pytest.approx(ref, rel=1e-2, abs=0)


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
