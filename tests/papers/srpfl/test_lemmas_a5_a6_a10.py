"""Appendix A, Lemmas A.5, A.6 and A.10 of Tziotis, Shen, Pedarsani, Hassani and Mokhtari, *Straggler-Resilient
Personalized Federated Learning* (TMLR 2023; arXiv Lemmas A.5, A.6, A.10), by Monte Carlo of exact rounds.

Tests of the catalogue module ``fedtheory_checks.srpfl.lemmas_a5_a6_a10``: its helpers against independent
computations and its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS``
injects a violating computation with monkeypatch and the quick verdict must refute the claim (the rule is
``check_fails_path`` in this folder's conftest.py)."""
import dataclasses
import math

import numpy as np
import pytest

from fedtheory import get_claim
from fedtheory.claims import FAILS, HOLDS, REFUTED
from fedtheory_checks.srpfl import lemmas_a5_a6_a10 as _lemmas_a5_a6_a10
from fedtheory_checks.srpfl import lemmas_a5_a6_a10 as L


def test_lemma_draws_have_the_requested_distance():
    rq, W = _lemmas_a5_a6_a10.lemma_draws(np.random.default_rng(0), 3, 20, 8, 4, 0.3, 0.0)
    assert np.allclose(rq.dist, 0.3, atol=1e-12)
    assert np.allclose(np.linalg.norm(W, axis=-1), math.sqrt(_lemmas_a5_a6_a10.LEM_K))
    rq0, _ = _lemmas_a5_a6_a10.lemma_draws(np.random.default_rng(0), 3, 20, 8, 4, 0.0, 0.0)
    assert np.max(np.abs(rq0.A10)) < 1e-12  # noiseless at B_hat = B*: a fixed point


# ----------------------------------------------------------------------------- Lemma scaling and errata
def _statuses(parts):
    return [d["status"] for d in parts]


def test_scaling_decisions_use_the_kit():
    parts = _lemmas_a5_a6_a10.scaling_decisions({"A5": {"m": (0.3, 0.05), "dist": (0.0, 0.05)}}, 4)
    assert _statuses(parts) == [REFUTED, HOLDS] and "log m" in parts[0]["evidence"]
    assert _statuses(_lemmas_a5_a6_a10.scaling_decisions({"A6": {"dist": (-0.3, 0.05)}}, 4)) == [REFUTED]  # grows as dist -> 0
    assert _statuses(_lemmas_a5_a6_a10.scaling_decisions({"A6": {"m": (-0.3, 0.05), "dist": (0.3, 0.05)}}, 4)) == [HOLDS, HOLDS]
    assert all(d["margin"] is not None for d in parts)


def test_fit_log_ratio_recovers_a_slope():
    g = np.random.default_rng(0)
    rows = [({"n": n}, n ** 0.5 * np.exp(0.01 * g.standard_normal(50))) for n in (8, 64, 512)]
    b, se = _lemmas_a5_a6_a10.fit_log_ratio(rows, ("n",))["n"]
    assert abs(b - 0.5) < 5 * se and se < 0.01


def test_terminal_exponent_and_zero_mean_decision():
    g = np.random.default_rng(2)
    lo, hi = np.exp(0.05 * g.standard_normal(400)), 4 ** -0.5 * np.exp(0.05 * g.standard_normal(400))
    b, se = _lemmas_a5_a6_a10.terminal_exponent(lo, hi, 512, 2048)
    assert abs(b + 0.5) < 5 * se
    assert _statuses(_lemmas_a5_a6_a10.zero_mean_decisions(b, se)) == [HOLDS, HOLDS]  # decays like n^-1/2: both forms hold
    assert _statuses(_lemmas_a5_a6_a10.zero_mean_decisions(-0.05, 0.01)) == [REFUTED, HOLDS]  # plateau: printed fails
    assert _statuses(_lemmas_a5_a6_a10.zero_mean_decisions(0.2, 0.01)) == [REFUTED, REFUTED]  # growing: corrected fails too
    rows = [(dict(_lemmas_a5_a6_a10.SCALING_BASE, m=m), np.full(5, 1.0) * (m / 100) ** 0.3 + 1e-3 * np.arange(5))
            for m in _lemmas_a5_a6_a10.SCALING_LEVELS["m"]]
    parts = _lemmas_a5_a6_a10.scaling_decisions({"A6": _lemmas_a5_a6_a10.terminal_slopes(rows, ("m",))}, 4)
    assert _statuses(parts) == [REFUTED]  # ratio growing like m^0.3: the printed m^-1/2 is wrong


def test_scaling_claim_holds_on_real_numbers():
    out = _lemmas_a5_a6_a10._scaling(False, 0)
    assert out["status"] == HOLDS, out["evidence"]


def test_a10_zero_mean_claim_is_refuted_and_names_its_root_cause(monkeypatch):
    # (101)'s zero-mean step is invalid (q_i, w_i^+ depend on X_i): the printed (95) is refuted, not a typo; the
    # bound with the extra term c k dist/m holds and is reported
    out = _lemmas_a5_a6_a10._a10_zero_mean(False, 0)
    assert out["status"] == REFUTED and out["observed"]["corrected"]["decision"] == HOLDS
    v = get_claim("srpfl.lemA10.zero-mean").evaluate(full=False)
    assert v.status == REFUTED and v.root_cause == "lema10-dependent-mean"
    import dataclasses

    orig = _lemmas_a5_a6_a10.lemma_draws

    def summed(g, reps, m, d, n, dist, sigma, k=_lemmas_a5_a6_a10.LEM_K):  # bug: sum over the clients instead of the average
        rq, W = orig(g, reps, m, d, n, dist, sigma, k)
        return dataclasses.replace(rq, A10=rq.A10 * n), W

    monkeypatch.setattr(L, "lemma_draws", summed)
    out = _lemmas_a5_a6_a10._a10_zero_mean(False, 0)
    assert out["status"] == FAILS, out["evidence"]


S = "fedtheory_checks.srpfl"


LEMMAS = f"{S}.lemmas_a5_a6_a10"


def _wrap(monkeypatch, target, make):
    """Replace ``target`` ("module.attr") by ``make(original)``."""
    import importlib

    mod, attr = target.rsplit(".", 1)
    monkeypatch.setattr(target, make(getattr(importlib.import_module(mod), attr)))


# ----------------------------------------------------------------------------- Lemmas A.5, A.6, A.8, A.10
def _scaling(mp):
    # bug: the per-client bound (51) of Lemma A.6 with dist^2 (copied from (36)) instead of dist: norm/bound grows
    # like 1/dist as dist shrinks
    def make(orig):
        def ratios(rq, W, m, d, n, dist):
            out = orig(rq, W, m, d, n, dist)
            return {**out, "A6": out["A6"] / dist}
        return ratios

    _wrap(mp, f"{LEMMAS}.lemma_ratios", make)


def _a10_zero_mean(mp):
    # bug: the Lemma A.10 matrix summed over the n clients instead of averaged (the 1/n forgotten): its norm grows
    # like n, so even the corrected bound (95) + c k dist/m fails
    def make(orig):
        def draws(g, reps, m, d, n, dist, sigma, *a, **k):
            rq, W = orig(g, reps, m, d, n, dist, sigma, *a, **k)
            return dataclasses.replace(rq, A10=rq.A10 * n), W
        return draws

    _wrap(mp, f"{LEMMAS}.lemma_draws", make)


FAILS_PATHS = {
    "srpfl.lemA5-A6.scaling": _scaling,
    "srpfl.lemA10.zero-mean": _a10_zero_mean,
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
