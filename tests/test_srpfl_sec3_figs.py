"""SRPFL Sec. 3 and ledger rows: Algorithm 1, eqs. (13)-(19), Remark 4.8, Contribution 2's sample
complexity and Figures 7-8 (linear analogues): library functions, the decisions' fails paths, holds paths."""
import math

import numpy as np
import pytest

from fedtheory.claims import ERRATUM, FAILS, HOLDS, INCONCLUSIVE
from fedtheory.representation import make_model
from fedtheory.representation.algorithms import fedrep_round
from fedtheory.srpfl import make_speed_model, run_srpfl
from fedtheory.srpfl.meta import (closed_form_round, grad_B_LN, grad_W_LN, head_excess_risk, imbalanced_round,
                                  loss_LN, meta_round, run_meta_srpfl, run_srpfl_imbalanced)
from fedtheory_checks.srpfl import sec3_figs as sf


def _batch(seed=0, d=8, k=2, n=4, m=7):
    g = np.random.default_rng(seed)
    return g.standard_normal((d, k)), g.standard_normal((n, k)), g.standard_normal((n, m, d)), g.standard_normal((n, m))


# ------------------------------------------------------------------ library: fedtheory.srpfl.meta
def test_gradients_match_finite_differences():
    B, W, X, Y = _batch()
    fdB = sf.central_differences(lambda b: loss_LN(b, W, X, Y), B, 1e-5)
    fdW = sf.central_differences(lambda w: loss_LN(B, w, X, Y), W, 1e-5)
    assert np.allclose(grad_B_LN(B, W, X, Y), fdB, atol=1e-8)
    assert np.allclose(grad_W_LN(B, W, X, Y), fdW, atol=1e-8)


def test_closed_form_round_equals_engine_round():
    model = make_model(12, 3, 6, sigma=0.4, seed=1)
    g = np.random.default_rng(2)
    B = np.linalg.qr(g.standard_normal((12, 3)))[0]
    X, Y = model.sample(g, np.arange(6), 9)
    W, Bp, Bh, R = closed_form_round(B, X, Y, 0.05)
    eng = fedrep_round(B, X, Y, 0.05)
    assert np.allclose(W, eng.w) and np.allclose(Bp, eng.B_bar) and np.allclose(Bh, eng.B_next)
    assert np.allclose(Bh @ R, Bp)


def test_meta_round_exact_head_is_lstsq_and_gd_converges():
    B, _, X, Y = _batch(3)
    H = np.zeros((X.shape[0], B.shape[1]))
    _, H_exact = meta_round(B, H, X, Y, 0.01, None, 1)
    ls = np.stack([np.linalg.lstsq(X[i] @ B, Y[i], rcond=None)[0] for i in range(X.shape[0])])
    assert np.allclose(H_exact, ls)
    G = max(np.linalg.eigvalsh((X[i] @ B).T @ (X[i] @ B) / X.shape[1]).max() for i in range(X.shape[0]))
    _, H_gd = meta_round(B, H, X, Y, 0.01, 3000, 1, eta_head=1.0 / G)
    assert np.allclose(H_gd, ls, atol=1e-8)


def test_imbalanced_round_equals_meta_round():
    g = np.random.default_rng(0)
    d, k, n, mm = 10, 2, 5, 9
    mi = np.array([3, 9, 5, 7, 4])
    X, Y = g.standard_normal((n, mm, d)), g.standard_normal((n, mm))
    mask = np.arange(mm)[None, :] < mi[:, None]
    X, Y = X * mask[..., None], Y * mask
    B = np.linalg.qr(g.standard_normal((d, k)))[0]
    _, B_bar, W = imbalanced_round(B, X, Y, mi, 0.1)
    B_bar2, W2 = meta_round(B, np.zeros((n, k)), [X[i, :mi[i]] for i in range(n)], [Y[i, :mi[i]] for i in range(n)],
                            0.1, None, 1)
    assert np.allclose(B_bar, B_bar2, atol=1e-14) and np.allclose(W, W2, atol=1e-12)


def test_run_meta_reproduces_algorithm2():
    model = make_model(12, 2, 16, sigma=0.3, seed=4)
    sp = make_speed_model("fixed", 16, 16, seed=5)
    res = run_srpfl(d=12, k=2, M=16, N=16, n0=4, m=10, sigma=0.3, speeds=sp, model=model, stage_lengths=3, rounds=9,
                    sampler="full", seed=6)
    meta = run_meta_srpfl(model, sp, 16, 4, 10, eta=res.eta, stage_lengths=3, rounds=9, seed=6)
    assert np.max(np.abs(meta.dist - res.dist)) < 1e-12
    assert np.allclose(meta.wall_clock, res.wall_clock)


def test_run_srpfl_imbalanced_runs():
    model = make_model(10, 2, 16, sigma=0.1, seed=1)
    sp = make_speed_model("fixed", 16, 16, seed=2)
    clk, dist = run_srpfl_imbalanced(model, sp, 16, 4, np.full(16, 12), eta=0.05, stage_lengths=3, rounds=12, seed=3)
    assert clk.shape == dist.shape == (13,) and np.all(np.diff(clk) > 0) and dist[-1] < dist[0]


def test_head_excess_risk_matches_monte_carlo():
    g = np.random.default_rng(0)
    d, k, m, sigma = 6, 2, 12, 0.5
    B = np.linalg.qr(g.standard_normal((d, k)))[0]
    theta = g.standard_normal((1, d))
    reps = 20000
    X = g.standard_normal((reps, m, d))
    y = X @ theta[0] + sigma * g.standard_normal((reps, m))
    A = X @ B
    W = np.linalg.solve(np.swapaxes(A, 1, 2) @ A, np.einsum("cmk,cm->ck", A, y)[..., None])[..., 0]
    mc = np.sum((W @ B.T - theta) ** 2, axis=1)
    cf = head_excess_risk(B, theta, m, sigma)[0]
    assert abs(mc.mean() - cf) < 5 * mc.std() / math.sqrt(reps)


@pytest.mark.parametrize("call, name", [
    (lambda: loss_LN(np.ones((3, 2)), np.ones((2, 2)), np.ones((2, 4, 5)), np.ones((2, 4))), "X"),
    (lambda: meta_round(np.eye(3)[:, :2], np.zeros((1, 2)), [np.ones((4, 3))], [np.ones(4)], -1.0, None, 1), "eta"),
    (lambda: meta_round(np.eye(3)[:, :2], np.zeros((1, 2)), [np.ones((4, 3))], [np.ones(4)], 0.1, None, 0), "tau_phi"),
    (lambda: head_excess_risk(np.eye(4)[:, :2], np.ones((1, 4)), 3, 0.1), "m_new"),
    (lambda: imbalanced_round(np.eye(4)[:, :2], np.ones((2, 3, 4)), np.ones((2, 3)), np.array([1, 3]), 0.1), "m_i"),
    (lambda: sf.mixture_means("median"), "lambda_reading"),
])
def test_validation_names_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


# ------------------------------------------------------------------ decisions: fails paths
def test_relative_fails_on_large_error():
    assert sf.decide_relative({"a": 1e-12, "b": 0.5}, 1e-7, "x")["status"] == FAILS
    assert sf.decide_relative({"a": 1e-12}, 1e-7, "x")["status"] == HOLDS


def test_alg1_fails_paths():
    good = {3: 1e-3, 30: 1e-7, 100: 1e-13}
    assert sf.decide_alg1(1e-16, good, True)["status"] == HOLDS
    assert sf.decide_alg1(1e-3, good, True)["status"] == FAILS            # does not reduce to Algorithm 2
    assert sf.decide_alg1(1e-16, {3: 1e-3, 30: 1e-2, 100: 1e-13}, True)["status"] == FAILS  # not decreasing
    assert sf.decide_alg1(1e-16, {3: 1e-3, 100: 1e-5}, True)["status"] == FAILS   # GD never gets there
    assert sf.decide_alg1(1e-16, good, False)["status"] == FAILS          # heads not frozen


def test_fairness_fails_paths():
    g = np.random.default_rng(0)
    small = 0.005 + 0.002 * g.standard_normal(20)
    ok_ref = 1e-4 * g.standard_normal(20)
    assert sf.decide_fairness(small, small / 5, ok_ref)["status"] == HOLDS
    assert sf.decide_fairness(0.2 + small, small / 5, ok_ref)["status"] == FAILS      # loses 20% vs the oracle
    assert sf.decide_fairness(small, 0.2 + small, ok_ref)["status"] == FAILS          # unfair vs participants
    assert sf.decide_fairness(small, small / 5, 0.01 + ok_ref)["status"] == FAILS     # referee disagrees
    v = sf.decide_fairness(small, small / 5, ok_ref)
    assert v["margin"] is not None and v["detects"] is not None                       # decided by the kit


def test_sample_complexity_fails_paths():
    ones, zeros = np.ones(64), np.zeros(64)
    few = np.r_[np.ones(2), np.zeros(62)]
    assert sf.decide_sample_complexity(few, ones, zeros)["status"] == FAILS   # small n0 needs more: d/n0
    assert sf.decide_sample_complexity(ones, ones, few)["status"] == HOLDS    # n0 irrelevant, N matters: d/N
    v = sf.decide_sample_complexity(np.ones(8), np.ones(8), np.r_[np.ones(5), np.zeros(3)])
    assert v["status"] == INCONCLUSIVE and v["power"]["needed"] > 8 and "untied pairs" in v["power"]["unit"]


def test_sign_decisions_fail_paths():
    assert sf.sign_decision(-np.ones(20), "x")["status"] == FAILS
    assert sf.sign_decision(np.ones(20), "x")["status"] == HOLDS
    assert sf.sign_decision(np.full(20, -np.inf), "x")["status"] == FAILS   # SRPFL missed the target
    v = sf.sign_decision(np.full(20, np.nan), "x")  # both missed: ties
    assert v["status"] == INCONCLUSIVE and v["power"]["current"] == 0
    assert sf.sign_decision(np.full(20, np.inf), "x")["status"] == HOLDS    # FedRep missed it
    assert sf.sign_decision(np.ones(3), "x")["status"] == INCONCLUSIVE
    v = sf.decide_all({"a": np.ones(20), "b": -np.ones(20)})
    assert v["status"] == FAILS and "b: exact sign test" in v["evidence"]
    # a paper's experiment on its linear analogue: a refutation reads not-reproduced, naming the analogue
    v = sf.decide_all({"a": np.ones(20), "b": -np.ones(20)}, analogue="toy analogue")
    assert v["status"] == "not-reproduced" and v["analogue"] == "toy analogue"
    v = sf.decide_all({"a": np.ones(1)}, analogue="toy analogue")
    assert v["status"] == INCONCLUSIVE and v["power"]["needed"] > 1  # one group: kit-computed size


def test_fig8_lambda_reading_is_an_erratum_once_decided():
    from fedtheory import decide

    refuted = sf.decide_all({"a": -np.ones(20)})
    held = sf.decide_all({"a": np.ones(20)})
    undecided = sf.decide_all({"a": np.ones(1)})
    kw = dict(what="x", root_cause="fig8-lambda-reading", referee="r")
    assert decide.erratum_if_decided(refuted, held, **kw)["status"] == ERRATUM
    assert decide.erratum_if_decided(refuted, undecided, **kw)["status"] == INCONCLUSIVE


def test_lambda_readings():
    assert sf.mixture_means("mean") == (0.1, 10.0)
    fast, slow = sf.mixture_means("rate")
    assert fast == pytest.approx(10.0) and slow == pytest.approx(0.1)   # under rates the 'stragglers' are fast


# ------------------------------------------------------------------ holds paths on the real numbers (cheap ones)
@pytest.mark.parametrize("cid", ["srpfl.eqs13-15.gradients", "srpfl.eqs16-19.closed-form"])
def test_identity_claims_hold(cid):
    from fedtheory import get_claim
    assert get_claim(cid).evaluate(full=False).status == HOLDS


def test_alg1_claim_holds():
    from fedtheory import get_claim
    assert get_claim("srpfl.alg1.meta").evaluate(full=False).status == HOLDS
