"""Tests that catch realistic silent bugs in fedtheory.srpfl (issue 11).

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
