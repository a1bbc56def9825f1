"""the per-round proof quantities (fedtheory.srpfl.proof_quantities) and the claims of
checks/srpfl/lemmas.py (one-step contraction, E0 along the trajectory, Lemmas A.5, A.6, A.8, A.10).

Every decision is a small pure function: the ``fails`` path feeds it violating numbers; the ``holds`` /
``erratum`` paths run the cheap claims on their real numbers (calling the claim functions directly)."""
import math

import numpy as np
import pytest

from fedtheory import get_claim
from fedtheory.claims import ERRATUM, FAILS, HOLDS, INCONCLUSIVE, REFUTED
from fedtheory.srpfl import proof_quantities as pq
from fedtheory_checks.srpfl import lemmas as L


# ----------------------------------------------------------------------------- proof_quantities
def _round(seed=0, n=6, m=30, d=12, k=2, sigma=0.5, reps=None):
    g = np.random.default_rng(seed)
    Bs = np.linalg.qr(g.standard_normal((d, k)))[0]
    B = np.linalg.qr(Bs + 0.4 * g.standard_normal((d, k)))[0]
    W = g.standard_normal((n, k))
    shape = (n, m, d) if reps is None else (reps, n, m, d)
    X = g.standard_normal(shape)
    Y = np.einsum("...nmd,nd->...nm", X, W @ Bs.T) + sigma * g.standard_normal(shape[:-1])
    return X, Y, B, Bs, W


def test_round_quantities_match_the_algorithm_round():
    from fedtheory.representation.algorithms import _round_given_batch

    X, Y, B, Bs, W = _round()
    rq = pq.round_quantities(X, Y, B, Bs, W)
    eta, n = 0.05, X.shape[0]
    rnd = _round_given_batch(B, X, Y, eta)
    assert np.allclose(rnd.w, rq.w_plus, atol=1e-12)  # (17)
    assert np.allclose(rnd.B_bar, B - eta / n * rq.S + eta / n * rq.E, atol=1e-12)  # (142)
    # Lemma A.2 (20) and F_i = -gram^{-1} H_i w_i*
    assert np.allclose(rq.w_plus, W @ (B.T @ Bs).T + rq.F + rq.G, atol=1e-12)
    assert np.allclose(rq.F, pq.f_terms(X, B, Bs, W), atol=1e-12)
    assert np.allclose(rq.G, pq.g_terms(X, Y, B, Bs, W), atol=1e-12)
    assert np.allclose(rq.w_plus, pq.head_update(X, Y, B), atol=1e-12)
    # A10 from its definition, client by client
    m = X.shape[1]
    direct = sum(((X[i].T @ X[i] @ rq.q[i]) / m - rq.q[i])[:, None] * rq.w_plus[i][None, :] for i in range(n)) / n
    assert np.allclose(direct, rq.A10, atol=1e-12)
    assert np.allclose(pq.lemma_a10_matrix(X, rq.q, rq.w_plus), rq.A10, atol=1e-12)
    # dist and sigma_min^2 = 1 - dist^2
    from fedtheory.linalg import principal_angle_distance

    assert abs(float(rq.dist) - principal_angle_distance(B, Bs)) < 1e-10


def test_round_quantities_batch_axis_equals_single_rounds():
    X, Y, B, Bs, W = _round(reps=3)
    rq = pq.round_quantities(X, Y, B, Bs, W)
    for j in range(3):
        one = pq.round_quantities(X[j], Y[j], B, Bs, W)
        assert np.allclose(one.A10, rq.A10[j], atol=1e-12) and np.allclose(one.H, rq.H[j], atol=1e-12)


def test_proof_quantities_validation():
    X, Y, B, Bs, W = _round()
    with pytest.raises(ValueError, match="B_hat"):
        pq.round_quantities(X, Y, B[:-1], Bs, W)
    with pytest.raises(ValueError, match="W_star"):
        pq.round_quantities(X, Y, B, Bs, W[:-1])
    with pytest.raises(ValueError, match="Y"):
        pq.round_quantities(X, Y[:, :-1], B, Bs, W)
    with pytest.raises(ValueError, match="m"):
        pq.round_quantities(X[:, :1], Y[:, :1], B, Bs, W)
    with pytest.raises(ValueError, match="orthonormal"):
        pq.round_quantities(X, Y, 3 * B, Bs, W)
    with pytest.raises(ValueError, match="N"):
        pq.delta(100, 2, 1)
    with pytest.raises(ValueError, match="delta"):
        pq.delta_hat(4, 2, 64)
    with pytest.raises(ValueError, match="sigma"):
        pq.lemma_a8_bounds(0.1, 2, 0.3, -1.0)
    with pytest.raises(ValueError, match="sigma_power"):
        pq.lemma_a10_bound(0.1, 20, 2, 100, 8, 0.3, 0.5, sigma_power=0)
    with pytest.raises(ValueError, match="overflows"):
        pq.lemma_a10_bound(1e300, 20, 2, 100, 8, 1e300, 1e300)


def test_printed_bounds_closed_forms():
    dl = pq.delta(100, 2, 64)
    assert dl == pytest.approx(2 ** 1.5 * math.sqrt(math.log(64)) / 10)
    assert pq.delta_hat(400, 2, 64) == pytest.approx(pq.delta(400, 2, 64) / (1 - pq.delta(400, 2, 64)))
    w, q = pq.lemma_a8_bounds(0.1, 4, 0.5, 2.0)
    assert (w, q) == (pytest.approx(4 + 0.4), pytest.approx(2 + 0.4))
    assert pq.lemma_a8_bounds(0.1, 4, 0.5, 2.0, sigma_power=1)[1] == pytest.approx(2 + 0.2)
    assert pq.lemma_a10_bound(0.1, 16, 4, 4, 4, 0.5, 1.0) == pytest.approx(4 * (2 + 2 * 0.1 + 0.01) / 4)
    assert pq.lemma_a5_bound(0.5, 2.0, 0.5) == pytest.approx(0.25)
    assert pq.lemma_a6_bound(0.5, 0.5, 2.0) == pytest.approx(0.5)


def test_lemma_draws_have_the_requested_distance():
    rq, W = L.lemma_draws(np.random.default_rng(0), 3, 20, 8, 4, 0.3, 0.0)
    assert np.allclose(rq.dist, 0.3, atol=1e-12)
    assert np.allclose(np.linalg.norm(W, axis=-1), math.sqrt(L.LEM_K))
    rq0, _ = L.lemma_draws(np.random.default_rng(0), 3, 20, 8, 4, 0.0, 0.0)
    assert np.max(np.abs(rq0.A10)) < 1e-12  # noiseless at B_hat = B*: a fixed point


# ----------------------------------------------------------------------------- one-step contraction, E0
def test_contraction_counts_and_fails_path():
    a = np.full(4, 0.19)  # sqrt(1 - a) = 0.9
    good = np.array([1.0, 0.8, 0.7, 0.6, 0.5])
    bad = np.array([1.0, 0.8, 0.79, 0.6, 0.5])  # 0.79/0.8 > 0.9
    assert L.contraction_counts(good, a)[:2] == (0, 4)
    assert L.contraction_counts(bad, a)[:2] == (1, 4)
    assert L.contraction_counts(np.array([1.0, 1e-12, 1e-12, 1e-12, 1e-12]), a)[1] == 1  # rounding floor
    with pytest.raises(ValueError):
        L.contraction_counts(good[:-1], a)
    v = L.run_level_verdict(1, 40, 0.0, what="x", extra={}, desc="d", params={})
    assert v["status"] == FAILS
    assert L.run_level_verdict(0, 40, 0.0, what="x", extra={}, desc="d", params={})["status"] == HOLDS
    v = L.run_level_verdict(0, 0, 0.0, what="x", extra={}, desc="d", params={})
    assert v["status"] == INCONCLUSIVE and "would detect" in v["evidence"]


def test_e0_margin_fails_path():
    mg = L.e0_margin(np.array([0.5, 0.4, 0.6, 0.3]))  # dist rises above dist_0 at t = 2
    assert mg[0] > 0 and mg[1] < 0 and mg[2] > 0
    assert mg[1] == pytest.approx(math.log((1 - 0.36) / 0.75))


def test_one_step_contraction_claim_holds_on_real_numbers():
    out = L._one_step(False, 0)
    assert out["status"] == HOLDS, out["evidence"]
    assert out["observed"]["in_regime_runs"] > 0


def test_e0_claim_fails_when_a_run_drifts_up(monkeypatch):
    orig = L._exact_runs

    def drifting(cfg, runs, seed):
        rows = orig(cfg, runs, seed)
        rows[0]["dist"] = rows[0]["dist"].copy()
        rows[0]["dist"][5] = min(0.999, rows[0]["dist"][0] * 1.5 + 0.01)  # one round worse than the start
        rows[0]["in_regime"] = True
        return rows

    monkeypatch.setattr(L, "_exact_runs", drifting)
    assert L._e0(False, 0)["status"] == FAILS


# ----------------------------------------------------------------------------- Lemma scaling and errata
def _statuses(parts):
    return [d["status"] for d in parts]


def test_scaling_decisions_use_the_kit():
    parts = L.scaling_decisions({"A5": {"m": (0.3, 0.05), "dist": (0.0, 0.05)}}, 4)
    assert _statuses(parts) == [REFUTED, HOLDS] and "log m" in parts[0]["evidence"]
    assert _statuses(L.scaling_decisions({"A6": {"dist": (-0.3, 0.05)}}, 4)) == [REFUTED]  # grows as dist -> 0
    assert _statuses(L.scaling_decisions({"A6": {"m": (-0.3, 0.05), "dist": (0.3, 0.05)}}, 4)) == [HOLDS, HOLDS]
    assert all(d["margin"] is not None for d in parts)


def test_fit_log_ratio_recovers_a_slope():
    g = np.random.default_rng(0)
    rows = [({"n": n}, n ** 0.5 * np.exp(0.01 * g.standard_normal(50))) for n in (8, 64, 512)]
    b, se = L.fit_log_ratio(rows, ("n",))["n"]
    assert abs(b - 0.5) < 5 * se and se < 0.01


def test_terminal_exponent_and_zero_mean_decision():
    g = np.random.default_rng(2)
    lo, hi = np.exp(0.05 * g.standard_normal(400)), 4 ** -0.5 * np.exp(0.05 * g.standard_normal(400))
    b, se = L.terminal_exponent(lo, hi, 512, 2048)
    assert abs(b + 0.5) < 5 * se
    assert _statuses(L.zero_mean_decisions(b, se)) == [HOLDS, HOLDS]  # decays like n^-1/2: both forms hold
    assert _statuses(L.zero_mean_decisions(-0.05, 0.01)) == [REFUTED, HOLDS]  # plateau: printed fails
    assert _statuses(L.zero_mean_decisions(0.2, 0.01)) == [REFUTED, REFUTED]  # growing: corrected fails too
    rows = [(dict(L.SCALING_BASE, m=m), np.full(5, 1.0) * (m / 100) ** 0.3 + 1e-3 * np.arange(5))
            for m in L.SCALING_LEVELS["m"]]
    parts = L.scaling_decisions({"A6": L.terminal_slopes(rows, ("m",))}, 4)
    assert _statuses(parts) == [REFUTED]  # ratio growing like m^0.3: the printed m^-1/2 is wrong


def test_sigma_decision_and_exponent():
    assert L.sigma_decision({"q": (1.0, 0.01)}, 2)["status"] == REFUTED
    assert L.sigma_decision({"q": (1.0, 0.01)}, 1)["status"] == HOLDS
    g = np.random.default_rng(1)
    sig = np.array(L.SIGMAS)
    samples = [s * np.exp(0.1 * g.standard_normal(200)) for s in sig]
    b, se = L.sigma_exponent(samples, sig)
    assert abs(b - 1) < 5 * se


def test_scaling_claim_holds_on_real_numbers():
    out = L._scaling(False, 0)
    assert out["status"] == HOLDS, out["evidence"]


def test_sigma_claim_is_erratum_and_fails_if_corrected_form_breaks(monkeypatch):
    out = L._sigma(False, 0)
    assert out["status"] == ERRATUM and out["root_cause"] == "sigma-for-sigma2" and out["referee"]
    # bug: the corrected form read with sigma^2 as well -> the referee rejects it -> refuted
    orig = L.sigma_decision
    monkeypatch.setattr(L, "sigma_decision", lambda ex, p, tests=4: orig(ex, 2, tests))
    assert L._sigma(False, 0)["status"] == REFUTED


def test_a10_zero_mean_claim_is_refuted_and_names_its_root_cause(monkeypatch):
    # (101)'s zero-mean step is invalid (q_i, w_i^+ depend on X_i): the printed (95) is refuted, not a typo; the
    # bound with the extra term c k dist/m holds and is reported
    out = L._a10_zero_mean(False, 0)
    assert out["status"] == REFUTED and out["observed"]["corrected"]["decision"] == HOLDS
    v = get_claim("srpfl.lemA10.zero-mean").evaluate(full=False)
    assert v.status == REFUTED and v.root_cause == "lema10-dependent-mean"
    import dataclasses

    orig = L.lemma_draws

    def summed(g, reps, m, d, n, dist, sigma, k=L.LEM_K):  # bug: sum over the clients instead of the average
        rq, W = orig(g, reps, m, d, n, dist, sigma, k)
        return dataclasses.replace(rq, A10=rq.A10 * n), W

    monkeypatch.setattr(L, "lemma_draws", summed)
    out = L._a10_zero_mean(False, 0)
    assert out["status"] == FAILS, out["evidence"]
