"""Mutation-testing follow-up for ``fedtheory.srpfl.meta`` (SRPFL Sec. 3 library): every
validated parameter is named in its ``ValueError``/``TypeError``, and a run's ``params`` record what was
run. Mutants that renamed a parameter in a message, dropped a bound, or dropped a ``params`` entry
survived the behavioural tests of ``tests/test_srpfl_sec3_figs.py``."""
import numpy as np
import pytest

from fedtheory.representation import make_model
from fedtheory.srpfl import make_speed_model
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


# ------------------------------------------------------------------ fedtheory.representation.sample_budget
from fedtheory.representation import sample_budget as sb  # noqa: E402


def test_local_samples_to_reach_is_the_smallest_m_by_brute_force():
    """Referee: scan m = d+2, d+3, ... for the first m with sigma^2 d/(m - d - 1) <= eps (exact fractions
    where the boundary is hit exactly, e.g. sigma=1, d=4, eps=1/2 -> m = 13)."""
    from fractions import Fraction

    assert sb.local_samples_to_reach(0.5, 4, 1.0) == 13
    for eps in (0.03, 0.1, 0.25, 0.5, 1.0, 2.0, 7.0):
        for d in (1, 2, 5, 17):
            for sigma in (0.3, 1.0, 2.5):
                m = d + 2
                while Fraction(sigma) ** 2 * d / (m - d - 1) > Fraction(eps):
                    m += 1
                assert sb.local_samples_to_reach(eps, d, sigma) == m, (eps, d, sigma)


def test_coords_run_draws_the_perpendicular_wishart_with_d_minus_2k_dof(monkeypatch):
    """The derivation's U_perp N = V T needs T^T T ~ Wishart_k(d - 2k, I) (d - 2k perpendicular
    coordinates); the law test at k = 2 cannot tell d - 2k from nearby values in 800 replicates."""
    seen = []
    orig = sb._bartlett

    def spy(rng, R, k, dof):
        seen.append((k, dof))
        return orig(rng, R, k, dof)

    monkeypatch.setattr(sb, "_bartlett", spy)
    W = sb.tight_frame_heads(6, 2)
    sb.run_fedrep_coords(W, 11, 5, 0.2, 2, sb.angle_start(2, 0.5, 4), rng=np.random.default_rng(0))
    assert seen and all(s == (2, 11 - 4) for s in seen)


def test_bartlett_factor_has_the_wishart_mean():
    """E[T^T T] = dof I for T^T T ~ Wishart_k(dof, I): z test per entry (Bonferroni over 9 entries)."""
    R, k, dof = 40_000, 3, 5
    T = sb._bartlett(np.random.default_rng(1), R, k, dof)
    S = np.swapaxes(T, 1, 2) @ T
    mean, se = S.mean(0), S.std(0, ddof=1) / np.sqrt(R)
    z = np.abs(mean - dof * np.eye(k)) / se
    assert np.all(z < 4.4), z


def test_coords_run_label_noise_enters_at_any_positive_sigma():
    """sigma = 0.5 (below 1) changes the run: the noise is drawn and added for every sigma > 0."""
    W = sb.tight_frame_heads(6, 2)
    runs = [sb.run_fedrep_coords(W, 10, 5, 0.2, 2, sb.angle_start(2, 0.5, 8), sigma=s,
                                 rng=np.random.default_rng(3)).dist for s in (0.0, 0.5)]
    assert not np.allclose(runs[0][:, -1], runs[1][:, -1])


def test_sample_budget_messages_name_the_parameter():
    g = np.random.default_rng(0)
    W = sb.tight_frame_heads(6, 2)
    cases = [(lambda: sb.angle_start(0, 0.5), "k"),
             (lambda: sb.haar_start(3, 2, g), "d"),
             (lambda: sb.run_fedrep_coords(W, 10, 5, 0.2, 1, sb.angle_start(2, 0.5), n_sel=7, rng=g), "n_sel"),
             (lambda: sb.run_fedrep_coords(W, 10, 5, 0.2, 1, sb.angle_start(2, 0.5), rng=0), "rng"),
             (lambda: sb.smallest_passing(3, 1, 5), "passes"),
             (lambda: sb.smallest_passing(lambda m: True, 0, 5), "lo")]
    for call, name in cases:
        with pytest.raises((ValueError, TypeError)) as e:
            call()
        _named(e, name)
    with pytest.raises(ValueError, match=r"d >= 2k = 4"):
        sb.haar_start(3, 2, g)


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
