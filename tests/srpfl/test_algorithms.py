"""Tests of :mod:`fedtheory.srpfl.algorithms`: SRPFL runs (Tziotis et al. 2023, Algorithm 2): the doubling client
sets, round times as order statistics, the FedRep and FedAvg wall-clock baselines, stage lengths of Lemma B.1,
targets and evaluation, the exact MSE and the run's validation."""
import itertools
import math
from dataclasses import dataclass, field

import numpy as np
import pytest
from scipy import stats

from fedtheory import principal_angle_distance
from fedtheory.random import spawn_seeds
from fedtheory.representation import fedrep_round
from fedtheory.representation.model import FedRepModel, make_model
from fedtheory.srpfl import expected_order_statistic, make_speed_model, run_srpfl
from fedtheory.srpfl.algorithms import srpfl_default_eta
from fedtheory.srpfl.model import SpeedModel
from fedtheory.srpfl.theory import stage_rounds, switch_point


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


def test_public_example_run_srpfl_doubles_the_clients():
    res = run_srpfl(d=50, k=3, M=64, N=64, n0=4, m=30, sigma=0.5, speeds="fixed", comm_cost=0.0,
                    seed=0)
    T = res.participants.size
    assert res.dist.shape == res.wall_clock.shape == (T + 1,)
    assert np.all(np.diff(res.wall_clock) > 0)
    assert set(res.participants) == {4, 8, 16, 32, 64}
    assert np.all(np.diff(res.participants) >= 0)
    assert res.dist[-1] < res.dist[0]


def test_round_time_is_the_nth_order_statistic_plus_C():
    """With i.i.d. Exp(1) times, the mean per-round cost of a stage equals E[T_(n:N)] + C."""
    sp = make_speed_model("iid", 32, 32, seed=0)
    rng = np.random.default_rng(1)
    n, c = 8, 2.5
    costs = [np.sort(sp.draw(rng, np.arange(32)))[n - 1] + c for _ in range(20000)]
    se = np.std(costs) / math.sqrt(len(costs))
    assert abs(np.mean(costs) - (expected_order_statistic(n, 32) + c)) < 4 * se
    res = run_srpfl(d=10, k=2, M=32, N=32, n0=4, m=10, speeds="iid", comm_cost=c, rounds=30,
                    stage_lengths=10, seed=2)
    assert np.all(np.diff(res.wall_clock) >= c)


def test_fedrep_baseline_pays_the_slowest_client():
    kw = dict(d=10, k=2, M=16, N=16, n0=4, m=10, speeds="fixed", rounds=20, seed=3)
    fr = run_srpfl(**kw, schedule="all")
    sr = run_srpfl(**kw, stage_lengths=5)
    slowest = fr.wall_clock[1]
    assert np.allclose(np.diff(fr.wall_clock), slowest)  # fixed speeds, all N: the same max time
    assert np.all(np.diff(sr.wall_clock) <= slowest + 1e-12)
    assert np.all(fr.participants == 16)


def test_round_decomposition_identities_on_a_run():
    res = run_srpfl(d=20, k=2, M=16, N=16, n0=2, m=15, sigma=0.3, rounds=20, stage_lengths=5,
                    record_identities=True, seed=4)
    I = res.identities
    assert max(I["lemmaA2_residual"].max(), I["eq111_residual"].max(), I["eq142_residual"].max()) < 1e-10
    assert np.all(I["eq116_lhs"] <= I["eq116_rhs"] * (1 + 1e-12))
    assert np.all(I["eq149_lhs"] >= I["eq149_rhs_corrected"] - 1e-12)


def test_srpfl_reuses_the_fedrep_round():
    """A single-stage SRPFL round equals fedrep_round on the same batch (replayed streams)."""
    from fedtheory.random import as_generator, spawn_seeds
    res = run_srpfl(d=8, k=2, M=6, N=6, n0=6, m=7, sigma=0.1, rounds=1, init="random",
                    speeds="fixed", seed=11)
    ss_model, ss_speed, ss_init, ss_run, ss_time, _ = spawn_seeds(11, 6)
    from fedtheory.linalg import random_orthonormal
    B0 = random_orthonormal(as_generator(ss_init), 8, 2)
    rng = as_generator(ss_run)
    active = rng.choice(6, size=6, replace=False)
    sp = make_speed_model("fixed", 6, 6, seed=ss_speed)
    order = np.argsort(sp.draw(as_generator(ss_time), active), kind="stable")
    X, y = res.model.sample(rng, active[order], 7)
    B1 = fedrep_round(B0, X, y, res.eta).B_next
    assert principal_angle_distance(B1, res.model.B_star) == pytest.approx(res.dist[1], abs=1e-12)


@pytest.mark.parametrize("kwargs, match", [
    (dict(n0=1, k=2), r"`n0` must be in \[2, 64\]"),
    (dict(n0=100), r"`n0` must be in"),
    (dict(N=100, M=64), r"`N` must be in \[1, 64\]"),
    (dict(lam=0.0), r"`lam` must be in \(0"),
    (dict(lam=-1.0), r"`lam` must be in \(0"),
    (dict(speeds="mixture", straggler_fraction=1.5), r"`straggler_fraction` must be in \[0"),
    (dict(speeds="warp"), r"`speeds` must be one of"),
    (dict(m=1, k=2), r"`m` must be in \[2"),
])
def test_run_srpfl_validation(kwargs, match):
    base = dict(d=10, k=2, M=64, N=64, n0=4, m=10, rounds=2, seed=0)
    with pytest.raises(ValueError, match=match):
        run_srpfl(**{**base, **kwargs})


def test_fedavg_wallclock_pays_the_slowest_selected_client():
    from fedtheory.srpfl import fedavg_wallclock

    t, dist, mse = fedavg_wallclock(d=10, k=2, M=16, N=16, m=10, sigma=0.1, speeds="fixed", comm_cost=2.0,
                                    rounds=5, seed=3)
    sr = run_srpfl(d=10, k=2, M=16, N=16, n0=4, m=10, sigma=0.1, speeds="fixed", comm_cost=2.0, rounds=5,
                   schedule="all", seed=3)
    # all N = M clients every round with fixed speeds: the same per-round time as the FedRep baseline
    np.testing.assert_allclose(np.diff(t), np.diff(sr.wall_clock))
    assert dist.shape == mse.shape == (6,) and np.all(mse > 0.1 ** 2)


def test_run_srpfl_rejects_too_few_stage_lengths():
    """A list of stage lengths shorter than the number of stage switches is refused up front
    (it used to end in an IndexError, or pass silently with few rounds)."""
    import pytest

    from fedtheory.srpfl import run_srpfl

    with pytest.raises(ValueError, match="`stage_lengths` needs 2 entries; got 1"):
        run_srpfl(d=6, k=2, M=8, N=8, n0=2, m=6, stage_lengths=[2], rounds=6)
    with pytest.raises(ValueError, match="stage_lengths"):
        run_srpfl(d=6, k=2, M=8, N=8, n0=2, m=6, stage_lengths=[2], rounds=2)


RUNS, ALPHA, ROUNDS = 300, 1e-3, (1, 5, 10)


def test_reduced_sampler_srpfl_matches_in_mean():
    kw = dict(d=16, k=2, M=16, N=16, n0=2, m=10, sigma=0.3, speeds="fixed", stage_lengths=4, rounds=12)
    a = np.array([run_srpfl(**kw, seed=s).dist[-1] for s in spawn_seeds(3, 120)])
    b = np.array([run_srpfl(**kw, sampler="reduced", seed=s).dist[-1] for s in spawn_seeds(4, 120)])
    assert stats.ks_2samp(a, b).pvalue > ALPHA
