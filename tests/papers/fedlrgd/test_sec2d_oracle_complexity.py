"""Sec. II-D of Jadbabaie, Makur and Shah (2023), *Federated Optimization of Smooth Loss Functions*, IEEE Trans.
Inf. Theory (federated oracle complexity): the running-time models behind Definition 1, the auxiliary function (16),
the Gumbel limit (17), the quantile approximation (18) and Proposition 2 of Appendix B that bounds it, the Erlang
maximum (19), the server epoch (20), the M/M/1 queue (22)-(23) and the epoch times (25). Verdicts come from
``fedtheory.decide``.

Tests of the catalogue module ``fedtheory_checks.fedlrgd.sec2d_oracle_complexity``: its helpers against independent
computations and its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS``
injects a violating computation with monkeypatch and the quick verdict must refute the claim (the rule is
``check_fails_path`` in this folder's conftest.py)."""
import math

import numpy as np
import pytest

REMAINING = "fedtheory_checks.fedlrgd.sec2d_oracle_complexity"


# ----------------------------------------------------------------------------- check helpers against referees
def test_eq16_aux_matches_scipy():
    from scipy import stats
    from fedtheory_checks.fedlrgd.sec2d_oracle_complexity import eq16_aux
    x = np.array([0.5, 3.0, 40.0])
    for b in (1, 3, 10):
        np.testing.assert_allclose(eq16_aux(x, b), stats.gamma.sf(x, b) / stats.gamma.pdf(x, b), rtol=1e-10)


def _server_no_unit(mp):  # each gradient costs Exp(1) instead of 1 + Exp(1)
    mp.setattr(REMAINING + "._server_epoch", lambda b: lambda g, size: g.exponential(1.0, (size, b)).sum(axis=1))


def _aux_off_by_one(mp):  # (b-1)!/(b-k)! instead of (b-1)!/(b-k-1)!
    mp.setattr(REMAINING + ".eq16_aux", lambda x, b: sum(math.exp(math.lgamma(b) - math.lgamma(b - k + 1))
                                                 * np.asarray(x, float) ** (-k) for k in range(b)))


def _quantile_approx(mp):  # (17) normalised with the approximation (18) log k + b instead of the true quantile
    mp.setattr(REMAINING + "._erlang_quantile", lambda k, b: np.log(np.asarray(k, float)) + b)


def _quantile_rate_half(mp):  # Erlang quantiles at rate 1/2 (scale 2)
    from scipy import stats
    mp.setattr(REMAINING + "._erlang_quantile", lambda k, b: stats.gamma.isf(1 / np.asarray(k, float), b, scale=2.0))


def _departures_at_nu(mp):  # uploads leave at the service rate nu instead of the arrival rate 1
    from fedtheory.random import as_generator
    mp.setattr(REMAINING + ".mm1_departure_times",
               lambda n_dep, nu, reps=2000, seed=0: as_generator(seed).gamma(n_dep, 1 / nu, reps))


M = "fedtheory_checks.fedlrgd."


# ----------------------------------------------------------------------------- Sec. II-D, App. B
def _prop2(mp):  # upper bound 2 log(q-1) + 2 log(2b): the factor b of 2 b log(2b) dropped
    def bounds(b, q):
        b, q = np.asarray(b, float), np.asarray(q, float)
        return 0.5 * np.log(q - 1) + 0.5 * np.log(b), 2 * np.log(q - 1) + 2 * np.log(2 * b)
    mp.setattr(M + "sec2d_oracle_complexity.erlang_quantile_bounds", bounds)


def _eq19(mp):  # epoch time simulated as b + the SUM of the k clients' Erlang times instead of their max
    from fedtheory.montecarlo import mc_mean
    mp.setattr(M + "sec2d_oracle_complexity.erlang_max_mc",
               lambda b, k, n, seed=0: mc_mean(lambda g, size: b + g.gamma(b, 1.0, (size, k)).sum(axis=1), n, seed,
                                               chunk=500))


def _eq23(mp):  # departures simulated at the service rate nu instead of the arrival rate 1
    from fedtheory.random import as_generator
    mp.setattr(M + "sec2d_oracle_complexity.mm1_departure_times",
               lambda n_dep, nu, reps=2000, seed=0: as_generator(seed).gamma(n_dep, 1 / nu, reps))


FAILS_PATHS = {
    "fedlrgd.eq20.server-2b": _server_no_unit,
    "fedlrgd.eq16.auxiliary-function": _aux_off_by_one,
    "fedlrgd.eq17.gumbel-limit": _quantile_approx,
    "fedlrgd.eq18.quantile-table": _quantile_rate_half,
    "fedlrgd.eq25.epoch-times": _departures_at_nu,
    "fedlrgd.prop2.erlang-quantile": _prop2,
    "fedlrgd.eq19.erlang-max": _eq19,
    "fedlrgd.eq23.mm1-queue": _eq23,
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
