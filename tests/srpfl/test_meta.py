"""Tests of :mod:`fedtheory.srpfl.meta`: the meta-learning form of SRPFL's Sec. 3 (Tziotis et al. 2023, Algorithm 1,
eqs. (13)-(19)): batch gradients, the closed-form and meta rounds against the engine round, imbalanced clients, head
excess risk against Monte Carlo, and the parameter messages."""
import math

import numpy as np
import pytest

from fedtheory.representation import make_model
from fedtheory.representation.algorithms import fedrep_round
from fedtheory.srpfl import make_speed_model, run_srpfl
from fedtheory.srpfl.meta import (closed_form_round, grad_B_LN, head_excess_risk, imbalanced_round, meta_round,
                                  run_meta_srpfl, run_srpfl_imbalanced)


def _batch(seed=0, d=8, k=2, n=4, m=7):
    g = np.random.default_rng(seed)
    return g.standard_normal((d, k)), g.standard_normal((n, k)), g.standard_normal((n, m, d)), g.standard_normal((n, m))


def _named(exc, name):
    """The exception text names the parameter in backticks, exactly as the user spelled it."""
    assert f"`{name}`" in str(exc.value), str(exc.value)


@pytest.mark.parametrize("which", ["B", "X", "Y", "W"])
def test_batch_functions_name_the_bad_argument(which):
    B, W, X, Y = _batch()
    args = dict(B=B, W=W, X=X, Y=Y)
    args[which] = np.full_like(args[which], np.nan) if which != "B" else np.ones(3)
    with pytest.raises((ValueError, TypeError)) as e:
        grad_B_LN(args["B"], args["W"], args["X"], args["Y"])
    _named(e, which)


def test_closed_form_round_and_meta_round_name_B_and_H():
    B, W, X, Y = _batch()
    with pytest.raises((ValueError, TypeError)) as e:
        closed_form_round(np.ones(3), X, Y, 0.1)
    _named(e, "B")
    with pytest.raises((ValueError, TypeError)) as e:
        meta_round(np.ones(3), W, X, Y, 0.1, None, 1)
    _named(e, "B")
    with pytest.raises((ValueError, TypeError)) as e:
        meta_round(B, np.ones((W.shape[0], W.shape[1] + 1)), X, Y, 0.1, None, 1)
    _named(e, "H")


def test_head_excess_risk_names_theta():
    B = np.linalg.qr(np.random.default_rng(0).standard_normal((6, 2)))[0]
    with pytest.raises((ValueError, TypeError)) as e:
        head_excess_risk(B, np.ones((3, 5)), 10, 0.5)
    _named(e, "theta")


def test_imbalanced_round_rejects_non_positive_eta():
    B, _, X, Y = _batch()
    m_i = np.full(X.shape[0], X.shape[1])
    for eta in (0.0, -0.1):
        with pytest.raises(ValueError) as e:
            imbalanced_round(B, X, Y, m_i, eta)
        _named(e, "eta")


def test_imbalanced_round_solves_each_clients_head_on_its_own_rows():
    """Referee: the head of client i is the least-squares fit on its first m_i rows (numpy.linalg.lstsq)."""
    B, _, X, Y = _batch(5, m=9)
    B = np.linalg.qr(B)[0]
    m_i = np.array([3, 9, 5, 7])
    Xm, Ym = X.copy(), Y.copy()
    for i, mi in enumerate(m_i):
        Xm[i, mi:] = 0.0
        Ym[i, mi:] = 0.0
    out = imbalanced_round(B, Xm, Ym, m_i, 0.05)
    W = out[2]  # (B_next, B_bar, W)
    for i, mi in enumerate(m_i):
        ref = np.linalg.lstsq(X[i, :mi] @ B, Y[i, :mi], rcond=None)[0]
        np.testing.assert_allclose(W[i], ref, rtol=1e-9, atol=1e-12)


@pytest.fixture(scope="module")
def world():
    model = make_model(10, 2, 16, sigma=0.2, seed=3)
    speeds = make_speed_model("iid", 16, 16, seed=4)
    return model, speeds


def test_run_meta_srpfl_names_its_parameters(world):
    model, speeds = world
    with pytest.raises(ValueError) as e:
        run_meta_srpfl(model, speeds, 8, 2, [5, 1] * 8, eta=0.1)
    _named(e, "m")
    with pytest.raises(ValueError) as e:
        run_meta_srpfl(model, speeds, 8, 2, 6, eta=0.1, stage_lengths=[3, 0, 2])
    _named(e, "stage_lengths")


def test_run_meta_srpfl_params_record_the_run(world):
    model, speeds = world
    res = run_meta_srpfl(model, speeds, 8, 2, 6, eta=0.07, tau_h=3, tau_phi=2, eta_head=0.2, stage_lengths=[2, 3],
                         rounds=6, comm_cost=0.5, seed=1)
    p = res.params
    assert p["N"] == 8 and p["n0"] == 2 and p["m"] == 6 and p["eta"] == 0.07
    assert p["tau_h"] == 3 and p["tau_phi"] == 2 and p["eta_head"] == 0.2
    assert list(p["stage_lengths"]) == [2, 3] and p["rounds"] == 6 and p["comm_cost"] == 0.5
    assert p["orthonormalise"] is True and p["init"] == "mom"


def test_run_srpfl_imbalanced_names_its_parameters(world):
    model, speeds = world
    m_i = [6] * 16
    cases = [(dict(N=17), "N"), (dict(comm_cost=-1.0), "comm_cost"), (dict(stage_lengths=0), "stage_lengths"),
             (dict(rounds=-1), "rounds"), (dict(target=0.0), "target"), (dict(target=-1.0), "target")]
    for over, name in cases:
        kw = dict(N=8, eta=0.1)
        kw.update(over)
        N = kw.pop("N")
        with pytest.raises(ValueError) as e:
            run_srpfl_imbalanced(model, speeds, N, 2, m_i, **kw)
        _named(e, name)


def test_run_srpfl_imbalanced_uses_exactly_m_i_rows_and_stops_at_the_target(world, monkeypatch):
    """Client i contributes its first m_i rows only (the rest zero-padded), and run-until-target stops at
    the first round whose distance is <= target (not one round later)."""
    from fedtheory.srpfl import meta

    model, speeds = world
    m_i = np.array([3, 9, 4, 7] * 4)
    seen = []
    orig = meta.imbalanced_round

    def spy(B, X, Y, mi, eta):
        seen.append((X.copy(), Y.copy(), np.asarray(mi).copy()))
        return orig(B, X, Y, mi, eta)

    monkeypatch.setattr(meta, "imbalanced_round", spy)
    clock, dist = run_srpfl_imbalanced(model, speeds, 8, 2, m_i, eta=0.1, stage_lengths=2, rounds=4, seed=0)
    assert seen
    for X, Y, mi in seen:
        for i, m in enumerate(mi):
            assert np.all(X[i, m:] == 0) and np.all(Y[i, m:] == 0)
            assert np.all(np.any(X[i, :m] != 0, axis=1))
    m_big = np.array([8, 30, 12, 20] * 4)
    _, dist = run_srpfl_imbalanced(model, speeds, 8, 2, m_big, eta=0.6, stage_lengths=2, rounds=6, seed=0)
    assert np.all(np.diff(dist) < 0)  # monotone here, so the target dist[3] is first reached at round 3
    target = float(dist[3])
    _, d2 = run_srpfl_imbalanced(model, speeds, 8, 2, m_big, eta=0.6, stage_lengths=2, rounds=6, target=target,
                                 seed=0)
    assert d2.size == 4 and d2[-1] <= target and np.all(d2[:-1] > target)


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
