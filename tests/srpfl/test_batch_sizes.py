"""FedRep-SRPFL with per-client batch sizes (fedtheory.srpfl._batch_sizes; ``run_srpfl(m=array)``).

Tziotis, Shen, Pedarsani, Hassani and Mokhtari (TMLR 2023), Algorithm 2 on App. C's imbalanced local datasets
(Fig. 8). Referees: :func:`fedtheory.srpfl.meta.imbalanced_round` (the unbatched round, written independently with
one einsum per client axis) on the same padded batch; single runs (replicate j of an (R, M) ``m`` is the single run
with row j, bit for bit); :func:`fedtheory.srpfl.meta.run_srpfl_imbalanced` (the full-batch meta engine) in law,
against both samplers of the batched engine. The equal-``m`` array gives FedRep's round.

False-alarm rate of the statistical test: KS and z tests at 4 rounds x 2 samplers x 2 tests, each at 1e-4 / 16.
"""
import numpy as np
import pytest
from scipy import stats

from fedtheory.linalg import random_orthonormal
from fedtheory.random import spawn_seeds
from fedtheory.representation import make_model
from fedtheory.srpfl import _batch_sizes as bs
from fedtheory.srpfl import make_speed_model, run_srpfl, srpfl_default_eta
from fedtheory.srpfl.meta import imbalanced_round, run_srpfl_imbalanced

SMALL = dict(d=12, k=2, M=16, N=12, n0=3, rounds=14, stage_lengths=4, sigma=0.1)
FIELDS = ("dist", "wall_clock", "participants", "stage", "a", "bound")


def _padded_batch(seed=1, d=10, k=2, n=5, m_max=9):
    g = np.random.default_rng(seed)
    m_i = g.integers(k, m_max + 1, n)
    m_i[0] = m_max
    X, Y = g.standard_normal((n, m_max, d)), g.standard_normal((n, m_max))
    mask = bs.row_masks(m_i, m_max)
    return random_orthonormal(g, d, k), X * mask[..., None], Y * mask, m_i


def test_weighted_round_is_the_unbatched_imbalanced_round():
    B, X, Y, m_i = _padded_batch()
    n, m_max, d = X.shape
    ref = imbalanced_round(B, X, Y, m_i, 0.1)
    got = bs.weighted_round(B[None], X.reshape(1, n * m_max, d), (X @ B).reshape(1, n, m_max, 2), Y[None], m_i[None],
                            np.array([0.1]))
    np.testing.assert_allclose(got.B_next[0], ref[0], rtol=0, atol=1e-13)
    np.testing.assert_allclose(got.B_bar[0], ref[1], rtol=0, atol=1e-13)
    np.testing.assert_allclose(got.w[0], ref[2], rtol=0, atol=1e-12)
    assert np.all(got.resid[0][~bs.row_masks(m_i, m_max)] == 0)  # padded rows: no residual


def test_equal_batch_sizes_give_fedreps_round():
    """With every m_i = m the weighted round is FedRep's (the representation step over the n m rows)."""
    from fedtheory.representation._kernels import _round_from_features

    g = np.random.default_rng(4)
    B = random_orthonormal(g, 10, 2)
    X, Y = g.standard_normal((1, 6 * 7, 10)), g.standard_normal((1, 6, 7))
    A = (X @ B).reshape(1, 6, 7, 2)
    ref = _round_from_features(B[None], X, A, Y, np.array([0.2]))
    got = bs.weighted_round(B[None], X, A, Y, np.full((1, 6), 7), np.array([0.2]))
    np.testing.assert_allclose(got.B_next, ref.B_next, rtol=0, atol=1e-13)


def test_draw_padded_fills_the_mask_rows_in_order():
    mask = bs.row_masks(np.array([2, 0, 3]), 4)
    out = np.full((3, 4, 2), 7.0)
    bs.draw_padded(np.random.default_rng(5), mask, out)
    ref = np.random.default_rng(5).standard_normal((5, 2))
    np.testing.assert_array_equal(out[mask], ref)
    assert np.all(out[~mask] == 0)


@pytest.mark.parametrize("opts", [dict(), dict(sampler="reduced"), dict(sampler="reduced", target=0.5, rounds=40),
                                  dict(design="rademacher"), dict(schedule="all", sigma=0.0)],
                         ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults")
def test_replicate_j_with_its_batch_sizes_is_the_single_run_bitwise(opts):
    m = np.random.default_rng(0).integers(4, 12, (3, 16))
    kw = {**SMALL, **opts}
    batch = run_srpfl(**kw, m=m, seed=7)
    assert len(batch) == 3
    for j, s in enumerate(spawn_seeds(7, 3)):
        one = run_srpfl(**kw, m=m[j], seed=s)
        for f in FIELDS:
            np.testing.assert_array_equal(getattr(batch[j], f), getattr(one, f), err_msg=f)
        assert batch[j].params["m"] == one.params["m"] == m[j].tolist()
    assert f"per-client {m.min()}..{m.max()}" in batch.summary()


def test_equal_per_client_sizes_follow_the_equal_m_run_in_law_exactly():
    """An (M,) array of equal sizes takes the padded path, whose law is the equal-m run's: at a fixed seed the
    reduced runs agree to rounding (the same draws: a, noise, Np in the same order)."""
    kw = dict(SMALL, sampler="reduced", seed=3, replicates=3)
    a = run_srpfl(**kw, m=6)
    b = run_srpfl(**kw, m=np.full(16, 6))
    np.testing.assert_allclose(a.dist, b.dist, rtol=0, atol=1e-10)


def test_per_client_sizes_have_the_law_of_the_meta_engine():
    """dist(B^t, B*) of the batched engine (full and reduced samplers) against ``run_srpfl_imbalanced`` over 200
    replicates each, one ground truth and compute times, batch sizes 10..39: KS and z tests at rounds 1, 5, 15, 25
    (family level 1e-4)."""
    M, R = 24, 200
    mod = make_model(16, 2, M, sigma=0.1, seed=3)
    sp = make_speed_model("fixed", M, M, seed=4)
    m_i = np.random.default_rng(1).integers(10, 40, M)
    eta = srpfl_default_eta(mod.W_star)
    kw = dict(d=16, k=2, M=M, N=M, n0=3, stage_lengths=5, rounds=25, model=mod, speeds=sp, eta=eta, m=m_i)
    ref = np.array([run_srpfl_imbalanced(mod, sp, M, 3, m_i, eta=eta, stage_lengths=5, rounds=25, seed=s)[1]
                    for s in spawn_seeds(3, R)])
    level = 1e-4 / 16
    for sampler, seed in (("full", 1), ("reduced", 2)):
        got = run_srpfl(**kw, sampler=sampler, replicates=R, seed=seed).dist
        for t in (1, 5, 15, 25):
            assert stats.ks_2samp(got[:, t], ref[:, t]).pvalue > level, (sampler, t)
            z = (got[:, t].mean() - ref[:, t].mean()) / np.sqrt(got[:, t].var(ddof=1) / R + ref[:, t].var(ddof=1) / R)
            assert 2 * stats.norm.sf(abs(z)) > level, (sampler, t, z)
