"""Replicate-batched FedRep runs (``run_fedrep(..., replicates=R)``) and the exact evaluation.

Referees: single runs (replicate j must draw the same numbers as the single run with seed
``spawn_seeds(seed, R)[j]``, so the comparison is exact), independent single runs at other seeds
(two-sample KS and z-tests: equality in law), and Monte Carlo test sampling for the closed-form
evaluation.

False-alarm rate of the statistical tests here: each test makes its decisions at a family level of
1e-4 (Bonferroni over the rounds and statistics it tests), so a correct implementation fails a run
of this file with probability below 3e-4; the seeds are fixed, so a run either always passes or
always fails.
"""
import numpy as np
import pytest
from scipy import stats

from fedtheory.random import as_generator, random_subset, random_subsets, spawn_seeds
from fedtheory.representation import make_model, run_fedrep
from fedtheory.representation import test_mse as sampled_mse
from fedtheory.representation import test_mse_exact as exact_mse
from fedtheory.representation import replicates as rep_mod

SMALL = dict(d=12, k=2, n=20, m=6, rounds=15, m_test=8)
OPTIONS = [
    dict(r=0.3),
    dict(r=0.3, sigma=0.3),
    dict(r=1.0, sigma=0.2, sampler="reduced"),
    dict(r=0.5, sampler="reduced", head_steps=2),
    dict(r=0.5, init="random", fresh_batches=False),
    dict(r=0.25, head_steps=1, head_lr=0.3, sigma=0.1),
    dict(r=0.5, design="rademacher"),
    dict(r=0.4, orthonormalize_B=False, eta=0.02),
    dict(r=0.5, evaluation="sampled"),
]
FIELDS = ("dist", "objective", "batch_loss", "B", "W", "B0")


@pytest.mark.parametrize("opts", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_replicate_j_is_the_single_run_with_the_jth_child_seed(opts):
    R = 3
    res = run_fedrep(**SMALL, **opts, replicates=R, seed=11)
    assert len(res) == R and res.dist.shape == (R, SMALL["rounds"] + 1) and res.W.shape == (R, 20, 2)
    for j, child in enumerate(spawn_seeds(11, R)):
        one = run_fedrep(**SMALL, **opts, seed=child)
        got = res[j]
        for f in FIELDS:
            np.testing.assert_array_equal(getattr(got, f), getattr(one, f), err_msg=f)
        assert got.eval_mse == one.eval_mse and got.eta == one.eta
        assert got.model.theta_star.tobytes() == one.model.theta_star.tobytes()


def test_replicates_share_a_given_model():
    model = make_model(12, 2, 20, sigma=0.1, seed=4)
    res = run_fedrep(**SMALL, r=0.5, model=model, replicates=3, seed=2)
    assert all(mod is model for mod in res.models)
    one = run_fedrep(**SMALL, r=0.5, model=model, seed=spawn_seeds(2, 3)[1])
    np.testing.assert_array_equal(res[1].dist, one.dist)


@pytest.mark.parametrize("opts", [dict(r=0.3), dict(r=0.5, sampler="reduced"), dict(r=0.5, fresh_batches=False)])
def test_numbers_do_not_depend_on_the_memory_chunks(monkeypatch, opts):
    whole = run_fedrep(**SMALL, **opts, replicates=5, seed=3)
    assert whole.params["chunk"] == 5
    monkeypatch.setattr(rep_mod, "CHUNK_BYTES", 1)  # one replicate per chunk
    split = run_fedrep(**SMALL, **opts, replicates=5, seed=3)
    assert split.params["chunk"] == 1
    for f in FIELDS + ("eval_mse",):
        np.testing.assert_array_equal(getattr(split, f), getattr(whole, f), err_msg=f)


def test_bitwise_reproducible_and_seed_dependent():
    a = run_fedrep(**SMALL, r=0.3, replicates=4, seed=5)
    b = run_fedrep(**SMALL, r=0.3, replicates=4, seed=5)
    c = run_fedrep(**SMALL, r=0.3, replicates=4, seed=6)
    assert a.dist.tobytes() == b.dist.tobytes()
    assert not np.array_equal(a.dist, c.dist)
    # the first replicates of a larger batch are the same runs
    np.testing.assert_array_equal(run_fedrep(**SMALL, r=0.3, replicates=6, seed=5).dist[:4], a.dist)


def test_equal_in_law_to_independent_single_runs():
    """KS and z-tests at rounds 1, 5 and 15 between 150 replicates and 150 independent single runs
    (other seeds): dist(B^t, B*) and the batch loss. Bonferroni over 3 rounds x 2 statistics x 2
    tests at family level 1e-4."""
    kw = dict(SMALL, r=0.3, sigma=0.2, m_test=0)
    R = 150
    batch = run_fedrep(**kw, replicates=R, seed=100)
    single = [run_fedrep(**kw, seed=s) for s in spawn_seeds(200, R)]
    level = 1e-4 / 12
    for t in (1, 5, 15):
        for name, a, b in (("dist", batch.dist[:, t], np.array([s.dist[t] for s in single])),
                           ("batch_loss", batch.batch_loss[:, t - 1], np.array([s.batch_loss[t - 1] for s in single]))):
            assert stats.ks_2samp(a, b).pvalue > level, (name, t)
            z = (a.mean() - b.mean()) / np.sqrt(a.var(ddof=1) / R + b.var(ddof=1) / R)
            assert 2 * stats.norm.sf(abs(z)) > level, (name, t, z)


def test_random_subset_is_uniform_and_matches_the_batched_form():
    """Exact chi-square over all C(5, 2) = 10 subsets from 20,000 draws (level 1e-4), and one
    stream gives the same subset alone or inside a stack."""
    gens = [as_generator(s) for s in spawn_seeds(9, 3)]
    twins = [as_generator(s) for s in spawn_seeds(9, 3)]
    stacked = random_subsets(gens, 50, 7)
    for j in range(3):
        np.testing.assert_array_equal(stacked[j], random_subset(twins[j], 50, 7))
    rng = as_generator(1)
    counts = {}
    for _ in range(20_000):
        key = tuple(random_subset(rng, 5, 2))
        counts[key] = counts.get(key, 0) + 1
    assert len(counts) == 10 and all(a < b for a, b in counts)
    assert stats.chisquare(list(counts.values())).pvalue > 1e-4
    np.testing.assert_array_equal(random_subset(rng, 4, 4), np.arange(4))
    with pytest.raises(ValueError, match="`size`"):
        random_subset(rng, 4, 5)


def test_exact_evaluation_agrees_with_test_sampling():
    """test_mse_exact against 400 independent test_mse draws (z-test at 1e-4), for both designs."""
    for design in ("gaussian", "rademacher"):
        model = make_model(10, 2, 8, sigma=0.4, design=design, seed=1)
        theta_hat = model.theta_star + 0.3 * as_generator(2).standard_normal(model.theta_star.shape)
        exact = exact_mse(model, theta_hat)
        draws = np.array([sampled_mse(model, theta_hat, as_generator(s), 20) for s in spawn_seeds(3, 400)])
        z = (draws.mean() - exact) / (draws.std(ddof=1) / np.sqrt(draws.size))
        assert abs(z) < stats.norm.isf(0.5e-4), (design, z)
        assert exact == pytest.approx(np.mean(np.sum((model.theta_star - theta_hat) ** 2, 1)) + 0.16)
        assert exact_mse(model, theta_hat, noiseless=True) == pytest.approx(exact - 0.16)


def test_run_evaluations_agree_in_expectation():
    """The run's exact and sampled eval_mse share the refit draws; 200 seeds, z-test at 1e-4."""
    kw = dict(d=10, k=2, n=10, m=6, r=1.0, rounds=5, sigma=0.3, m_test=10)
    ex = run_fedrep(**kw, replicates=200, seed=8).eval_mse
    sa = run_fedrep(**kw, replicates=200, seed=8, evaluation="sampled").eval_mse
    diff = sa - ex
    z = diff.mean() / (diff.std(ddof=1) / np.sqrt(diff.size))
    assert abs(z) < stats.norm.isf(0.5e-4), z
    assert np.all(np.isfinite(ex)) and np.all(ex >= 0.09)  # at least sigma^2


@pytest.mark.parametrize("bad, exc, match", [
    (dict(replicates=0), ValueError, "`replicates`"),
    (dict(replicates=2.5), TypeError, "`replicates`"),
    (dict(replicates=True), TypeError, "`replicates`"),
    (dict(replicates=2, shards=2), ValueError, "`replicates`.*`shards`"),
    (dict(replicates=2, workers=2), ValueError, "`replicates`.*`workers`"),
    (dict(replicates=10 ** 9), ValueError, "`replicates`=1000000000"),
    (dict(evaluation="mc"), ValueError, "`evaluation`"),
])
def test_bad_replicate_input(bad, exc, match):
    with pytest.raises(exc, match=match):
        run_fedrep(**SMALL, r=0.5, **bad)


def test_replicate_result_indexing_and_summary():
    res = run_fedrep(**SMALL, r=0.5, replicates=3, seed=1)
    assert res[-1].params["replicate"] == 2 and res[0].params["seed"] == {
        "entropy": 1, "spawn_key": [0]}
    with pytest.raises(IndexError):
        res[3]
    assert [r.dist[-1] for r in res] == list(res.dist[:, -1])
    assert "3 replicates" in res.summary() and res.E0.shape == (3,)


@pytest.mark.parametrize("opts", [dict(r=0.3), dict(r=1.0, local_steps=3, sigma=0.2), dict(r=0.5, fresh_batches=False),
                                  dict(r=0.5, evaluation="sampled")])
def test_fedavg_replicate_j_is_the_single_run_with_the_jth_child_seed(opts):
    from fedtheory.representation import run_fedavg

    kw = dict(d=10, k=2, n=20, m=5, rounds=12, m_test=5, eta=0.1)
    res = run_fedavg(**kw, **opts, replicates=3, seed=4)
    for j, child in enumerate(spawn_seeds(4, 3)):
        one = run_fedavg(**kw, **opts, seed=child)
        for f in ("dist", "objective", "B", "w"):
            np.testing.assert_array_equal(getattr(res[j], f), getattr(one, f), err_msg=f)
        assert res[j].eval_mse == one.eval_mse
    with pytest.raises(ValueError, match="`replicates`.*`selection_log`"):
        run_fedavg(**kw, r=0.5, replicates=2, selection_log=[])
    assert "3 replicates" in res.summary() and len(list(res)) == 3


# --------------------------------------------------------------------------- re-measured 120-sample of
# replicates.py: params against the single run, summaries against the per-replicate results, the
# memory guards and chunk sizes at hand-computed boundaries (MAX_ARRAY_BYTES = 2^32, MAX_LOOP_ITERATIONS
# = 1e8; the per-replicate float counts are the arrays the docstrings list, counted by hand below).
_SINGLE_ONLY = {"replicates", "replicate_seed", "replicate", "chunk"}


@pytest.mark.parametrize("opts", [dict(), dict(sampler="reduced", m_init=5), dict(head_steps=2, fresh_batches=False)])
def test_replicate_params_are_the_single_runs(opts):
    kw = dict(SMALL, r=0.3, rounds=2, eta=0.07, **opts)
    res = run_fedrep(**kw, replicates=2, seed=1)
    one = run_fedrep(**kw, seed=spawn_seeds(1, 2)[1])
    got = res[1].params
    assert set(got) - _SINGLE_ONLY == set(one.params) - _SINGLE_ONLY
    assert {k: v for k, v in got.items() if k not in _SINGLE_ONLY} == \
        {k: v for k, v in one.params.items() if k not in _SINGLE_ONLY}
    assert got["replicates"] == 2 and got["replicate"] == 1


def test_fedavg_replicate_params_are_the_single_runs():
    from fedtheory.representation import run_fedavg

    kw = dict(d=10, k=2, n=20, m=5, r=0.3, rounds=2, m_test=4, eta=0.1)
    res = run_fedavg(**kw, replicates=2, seed=1)
    one = run_fedavg(**kw, seed=spawn_seeds(1, 2)[0])
    got = res[0].params
    assert {k: v for k, v in got.items() if k not in _SINGLE_ONLY} == \
        {k: v for k, v in one.params.items() if k not in _SINGLE_ONLY}
    assert got["replicates"] == 2


def test_replicate_summaries_report_the_final_rounds():
    from fedtheory.representation import run_fedavg

    res = run_fedrep(**SMALL, r=0.5, replicates=3, seed=1)
    last = [r.dist[-1] for r in res]
    assert f"final dist median {np.median(last):.3g} (min {min(last):.3g}, max {max(last):.3g})" in res.summary()
    fa = run_fedavg(d=10, k=2, n=20, m=5, r=0.3, rounds=1, m_test=0, eta=0.5, replicates=3, seed=2)
    final = f"{np.median([r.objective[-1] for r in fa]):.3g}"
    assert f"final objective median {final}," in fa.summary()
    assert final != f"{np.median([r.objective[0] for r in fa]):.3g}"


def test_model_sequence_entries_are_named():
    model = make_model(12, 2, 20, seed=4)
    with pytest.raises(TypeError, match=r"`model\[1\]`"):
        run_fedrep(**SMALL, r=0.5, model=[model, "x"], replicates=2)


def test_replicate_size_guards_at_their_boundaries():
    """FedRep, n=20, d=12, k=2, rounds=999: a replicate keeps n k + 2 d k + 3 (rounds+1) + n (d+k) + d k
    = 40 + 48 + 3000 + 280 + 24 = 3392 floats, so 158275 replicates fit in 2^32 bytes and 158276 do not;
    158275 x 1000 rounds exceed 1e8 loop iterations, and 100001 x 1000 just do. A wrong-length model
    sequence is refused only after both guards."""
    from fedtheory.representation import run_fedavg

    model = make_model(12, 2, 20, seed=4)
    kw = dict(d=12, k=2, n=20, m=6, r=0.3, rounds=999, m_test=0, init="random", model=[model])
    with pytest.raises(ValueError, match=r"^the results of the replicates .*`replicates`=158276, `n`=20, `d`=12"):
        run_fedrep(**kw, replicates=158276)
    with pytest.raises(ValueError, match=r"^the replicate rounds would run"):
        run_fedrep(**kw, replicates=158275)
    with pytest.raises(ValueError, match=r"^the replicate rounds would run 1e\+08 loop iterations .*"
                                         r"`replicates`=100001"):
        run_fedrep(**kw, replicates=100001)
    # FedAvg, n=20, d=10, k=2: d k + k + 2 (rounds+1) + n (d+k) + d k = 20 + 2 + 2000 + 240 + 20 = 2282
    # floats, so 235263 replicates fit and 235264 do not
    fa = dict(d=10, k=2, n=20, m=5, r=0.3, rounds=999, m_test=0, eta=0.1, model=[make_model(10, 2, 20, seed=4)])
    with pytest.raises(ValueError, match=r"^the results of the replicates .*`replicates`=235264"):
        run_fedavg(**fa, replicates=235264)
    with pytest.raises(ValueError, match=r"^the replicate rounds would run"):
        run_fedavg(**fa, replicates=235263)
    with pytest.raises(ValueError, match=r"^the replicate rounds would run .*`replicates`=100001"):
        run_fedavg(**fa, replicates=100001)


@pytest.mark.parametrize("opts, per", [
    # c = rn = 6 clients of m = 6 rows, d = 12, k = 2, n = 20; the ground truths n (2d + 2k) = 560 floats
    (dict(), 6 * 6 * (12 + 10 + 4) + 2 * 12 * 2 + 560),  # batch, features, labels, residuals, rows; 2 B's
    (dict(fresh_batches=False, init="random"), 1544 + 20 * 6 * 13),  # plus the fixed dataset and labels
    (dict(sampler="reduced"), 6 * 6 * (3 * 2 + 4) + 6 * 12 * 2 + 560),  # the 2k normals, features, ...
])
def test_chunk_size_at_its_boundaries(monkeypatch, opts, per):
    kw = dict(SMALL, r=0.3, rounds=1, m_test=0, **opts)
    for limit in (2 * 8 * per, 3 * 8 * per - 1):  # two replicates fit exactly / three miss by a byte
        monkeypatch.setattr(rep_mod, "CHUNK_BYTES", limit)
        res = run_fedrep(**kw, replicates=5, seed=3)
        assert res.params["n_sel"] == 6 and res.params["chunk"] == 2, (limit, res.params["chunk"])


@pytest.mark.parametrize("opts, per", [
    # rn = 6 clients, m = 5, d = 10, k = 2, n = 20: batch and features, 3 copies of B per client, ground truths
    (dict(), 6 * 5 * (10 + 4 + 2) + 3 * 6 * 10 * 2 + 20 * (20 + 2)),
    (dict(fresh_batches=False), 1280 + 20 * 5 * 11),
])
def test_fedavg_chunk_size_at_its_boundaries(monkeypatch, opts, per):
    from fedtheory.representation import run_fedavg

    for limit in (2 * 8 * per, 3 * 8 * per - 1):
        monkeypatch.setattr(rep_mod, "CHUNK_BYTES", limit)
        res = run_fedavg(d=10, k=2, n=20, m=5, r=0.3, rounds=1, m_test=0, eta=0.1, **opts, replicates=5, seed=3)
        assert res.params["chunk"] == 2, (limit, res.params["chunk"])


def test_replicate_divergence_names_the_step():
    """Heads of size 1e155: the batch objective (1/2n) sum ||W B^T - theta_i||^2 overflows after round 1
    while B stays finite; the batch run reports the divergence with the replicate's step."""
    from fedtheory.representation.model import FedRepModel

    Bs = np.zeros((4, 1))
    Bs[0, 0] = 1.0
    model = FedRepModel(B_star=Bs, W_star=np.full((4, 1), 1e155), sigma=0.0)
    with np.errstate(all="ignore"):
        with pytest.raises(ValueError, match=r"^the run overflowed float64 at round 1 \(diverged\) in a replicate: "
                                             r"the step `eta`=0.001 or `head_lr`=0.5"):
            run_fedrep(d=4, k=1, n=4, m=1, r=1.0, rounds=3, eta=1e-3, init="random", m_test=0, model=model,
                       replicates=2, seed=1)


def test_replicate_params_record_the_resolved_default_step_as_the_single_run_does():
    res = run_fedrep(**SMALL, r=0.3, replicates=2, seed=1)  # eta=None: default_eta of each replicate's model
    one = run_fedrep(**SMALL, r=0.3, seed=spawn_seeds(1, 2)[1])
    assert res[1].params["eta"] == one.params["eta"] == one.eta == res.eta[1]


# --- bit_generator: the same law from another bit generator ----------------------------------------

@pytest.mark.parametrize("opts", [dict(r=0.3, sigma=0.2), dict(r=0.5, sampler="reduced"),
                                  dict(r=0.5, init="random", fresh_batches=False)])
def test_sfc64_replicate_j_is_the_sfc64_single_run(opts):
    res = run_fedrep(**SMALL, **opts, replicates=3, bit_generator="sfc64", seed=8)
    assert res.params["bit_generator"] == "sfc64"
    for j, child in enumerate(spawn_seeds(8, 3)):
        one = run_fedrep(**SMALL, **opts, bit_generator="sfc64", seed=child)
        for f in FIELDS:
            np.testing.assert_array_equal(getattr(res[j], f), getattr(one, f), err_msg=f)
        assert res[j].eval_mse == one.eval_mse


def test_sfc64_shares_the_ground_truth_but_not_the_draws():
    a = run_fedrep(**SMALL, r=0.3, seed=4)
    b = run_fedrep(**SMALL, r=0.3, bit_generator="sfc64", seed=4)
    assert a.model.theta_star.tobytes() == b.model.theta_star.tobytes()
    assert not np.array_equal(a.dist, b.dist)
    assert a.params["bit_generator"] == "pcg64"
    np.testing.assert_array_equal(run_fedrep(**SMALL, r=0.3, bit_generator="sfc64", seed=4).dist, b.dist)


def test_sfc64_runs_equal_pcg64_runs_in_law():
    """KS and z-tests at rounds 1, 5 and 15 between 300 SFC64 and 300 PCG64 replicates (other
    seeds): dist(B^t, B*) and the batch loss, Bonferroni over 12 decisions at family level 1e-4."""
    kw = dict(SMALL, r=0.3, sigma=0.2, m_test=0)
    R = 300
    a = run_fedrep(**kw, replicates=R, bit_generator="sfc64", seed=300)
    b = run_fedrep(**kw, replicates=R, seed=400)
    level = 1e-4 / 12
    for t in (1, 5, 15):
        for x, y in ((a.dist[:, t], b.dist[:, t]), (a.batch_loss[:, t - 1], b.batch_loss[:, t - 1])):
            assert stats.ks_2samp(x, y).pvalue > level, t
            z = (x.mean() - y.mean()) / np.sqrt(x.var(ddof=1) / R + y.var(ddof=1) / R)
            assert 2 * stats.norm.sf(abs(z)) > level, (t, z)


@pytest.mark.parametrize("bad", ["PCG64", "mt19937", 3, None])
def test_bad_bit_generator_is_named(bad):
    with pytest.raises(ValueError, match="bit_generator"):
        run_fedrep(**SMALL, r=0.3, bit_generator=bad)
    with pytest.raises(ValueError, match="bit_generator"):
        as_generator(1, bad)


def test_run_trajectories_are_the_public_distance_and_objective():
    """The runs' unvalidated per-round distance and objective (``B*`` orthonormalised once) give the
    same bits as the public functions on the returned ``B`` and ``W``."""
    from fedtheory.linalg import principal_angle_distance
    from fedtheory.representation.theory import population_objective

    for opts in (dict(r=0.3, sigma=0.3), dict(r=0.5, orthonormalize_B=False, eta=0.02)):
        one = run_fedrep(**SMALL, **opts, seed=2)
        mod = one.model
        assert one.dist[-1] == principal_angle_distance(one.B, mod.B_star)
        assert one.dist[0] == principal_angle_distance(one.B0, mod.B_star)
        assert one.objective[-1] == pytest.approx(population_objective(one.B, one.W, mod.B_star, mod.W_star,
                                                                        mod.sigma), rel=1e-12)
        rep = run_fedrep(**SMALL, **opts, replicates=2, seed=2)
        np.testing.assert_array_equal(rep.dist[:, -1], principal_angle_distance(rep.B, np.stack([m.B_star for m in rep.models])))


def test_orthonormal_objective_keeps_its_relative_accuracy_near_zero():
    """The runs' O((n + d) k^2) objective (orthonormal B) against a 50-digit evaluation of the direct
    formula (6) on the same floats, from F ~ 1 down to F ~ 1e-20: its error is within the same
    rounding bound ``64 eps (max|w| sqrt(F) + F)`` as the direct float64 formula's."""
    import mpmath
    from fedtheory.representation.algorithms import _objective_orthonormal
    from fedtheory.representation.theory import population_objective

    mod = run_fedrep(d=20, k=2, n=40, m=20, r=0.5, rounds=0, seed=1).model
    mpmath.mp.dps = 50
    Bs, Ws = mpmath.matrix(mod.B_star.tolist()), mpmath.matrix(mod.W_star.tolist())
    seen = []
    for rounds in (0, 30, 120, 400):
        one = run_fedrep(d=20, k=2, n=40, m=20, r=0.5, rounds=rounds, seed=1)
        D = mpmath.matrix(one.W.tolist()) * mpmath.matrix(one.B.tolist()).T - Ws * Bs.T
        exact = float(sum(D[i, j] ** 2 for i in range(D.rows) for j in range(D.cols)) / (2 * D.rows))
        fast = float(_objective_orthonormal(one.B, one.W, mod.B_star, mod.W_star, 0.0))
        direct = population_objective(one.B, one.W, mod.B_star, mod.W_star, 0.0)
        assert one.objective[-1] == fast
        # both float64 forms err by O(eps ||w|| sqrt(F)) (rounding in the residual of size sqrt(F))
        scale = 64 * np.finfo(float).eps * (np.abs(one.W).max() * np.sqrt(exact) + exact)
        assert abs(fast - exact) <= scale and abs(direct - exact) <= scale, (rounds, fast, direct, exact)
        seen.append(exact)
    assert seen[0] > 1e-2 and seen[-1] < 1e-20  # the range the claim above covers
