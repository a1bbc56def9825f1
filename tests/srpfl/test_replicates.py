"""Replicate-batched FedRep-SRPFL runs (``run_srpfl(..., replicates=R)``).

Referees: single runs (replicate j must draw the same numbers as the single run with seed
``spawn_seeds(seed, R)[j]``, so the comparison is exact, bitwise), the same batch chunked one replicate
at a time, and independent single runs at other seeds (two-sample KS and z-tests: equality in law).

False-alarm rate of the statistical test here: it makes its decisions at a family level of 1e-4
(Bonferroni over the rounds and tests: 3 rounds x 2 tests, each at 1e-4 / 6), so a correct
implementation fails a run of this file with probability below 1e-4; the seeds are fixed, so a run
either always passes or always fails.
"""
import numpy as np
import pytest
from scipy import stats

from fedtheory.random import spawn_seeds
from fedtheory.representation import make_model
from fedtheory.srpfl import SRPFLResult, make_speed_model, run_srpfl
from fedtheory.srpfl import replicates as rep_mod

SMALL = dict(d=12, k=2, M=16, N=12, n0=3, m=6, rounds=14, stage_lengths=4)
OPTIONS = [
    dict(),
    dict(sampler="reduced"),
    dict(sampler="reduced", sigma=0.0, speeds="iid", resample="round"),
    dict(init="random", carry="pre_qr", eval_every=3),
    dict(schedule="all", speeds="dynamic", comm_cost=2.0, lam=2.0),
    dict(speeds="mixture", stage_lengths=[2, 5], eval_every=5, sigma=0.2),
    dict(design="rademacher", speeds="dynamic", speed_variant="arxiv"),
    dict(N=16, n0=2, head_norm="unit", eta=0.01),
]
FIELDS = ("dist", "wall_clock", "participants", "stage", "a", "bound", "mse")


def _ids(o):
    return ",".join(f"{k}={v}" for k, v in o.items()) or "defaults"


@pytest.mark.parametrize("opts", OPTIONS, ids=_ids)
def test_replicate_j_is_the_single_run_with_the_jth_child_seed(opts):
    R = 3
    kw = {**SMALL, **opts}
    res = run_srpfl(**kw, replicates=R, seed=11)
    T = kw["rounds"]
    assert len(res) == R and res.dist.shape == (R, T + 1) and res.a.shape == (R, T)
    for j, child in enumerate(spawn_seeds(11, R)):
        one = run_srpfl(**kw, seed=child)
        got = res[j]
        assert isinstance(got, SRPFLResult)
        for f in FIELDS:
            np.testing.assert_array_equal(getattr(got, f), getattr(one, f), err_msg=f)
        assert got.E0 == one.E0 and got.eta == one.eta
        assert got.model.theta_star.tobytes() == one.model.theta_star.tobytes()
        params = dict(got.params)
        assert params.pop("replicate") == j
        assert params == one.params


def test_replicates_share_a_given_model_and_speed_model():
    model = make_model(12, 2, 16, sigma=0.1, seed=4)
    sp = make_speed_model("fixed", 16, 12, seed=5)
    kw = dict(SMALL, model=model, speeds=sp)
    res = run_srpfl(**kw, replicates=3, seed=2)
    assert all(mod is model for mod in res.models) and all(s is sp for s in res.speed_models)
    one = run_srpfl(**kw, seed=spawn_seeds(2, 3)[1])
    for f in FIELDS:
        np.testing.assert_array_equal(getattr(res[1], f), getattr(one, f), err_msg=f)


@pytest.mark.parametrize("opts", [dict(), dict(sampler="reduced", eval_every=4), dict(carry="pre_qr", speeds="iid")],
                         ids=_ids)
def test_numbers_do_not_depend_on_the_memory_chunks(monkeypatch, opts):
    whole = run_srpfl(**SMALL, **opts, replicates=5, seed=3)
    assert whole.params["chunk"] == 5
    monkeypatch.setattr(rep_mod, "CHUNK_BYTES", 1)  # one replicate per chunk
    split = run_srpfl(**SMALL, **opts, replicates=5, seed=3)
    assert split.params["chunk"] == 1
    for f in FIELDS + ("E0", "eta"):
        np.testing.assert_array_equal(getattr(split, f), getattr(whole, f), err_msg=f)


def test_bitwise_reproducible_and_seed_dependent():
    a = run_srpfl(**SMALL, replicates=4, seed=5)
    b = run_srpfl(**SMALL, replicates=4, seed=5)
    c = run_srpfl(**SMALL, replicates=4, seed=6)
    for f in FIELDS:
        assert getattr(a, f).tobytes() == getattr(b, f).tobytes(), f
    assert not np.array_equal(a.dist, c.dist)
    # the first replicates of a larger batch are the same runs
    np.testing.assert_array_equal(run_srpfl(**SMALL, replicates=6, seed=5).dist[:4], a.dist)
    assert run_srpfl(**SMALL, replicates=1, seed=5).dist.shape == (1, SMALL["rounds"] + 1)


def test_equal_in_law_to_independent_single_runs():
    """KS and z-tests at rounds 1, 6 and 14 between 150 replicates and 150 independent single runs
    (other seeds) of dist(B^t, B*). Bonferroni over 3 rounds x 2 tests at family level 1e-4."""
    kw = dict(SMALL, speeds="iid", sigma=0.3)
    R = 150
    batch = run_srpfl(**kw, replicates=R, seed=100)
    single = [run_srpfl(**kw, seed=s) for s in spawn_seeds(200, R)]
    level = 1e-4 / 6
    for t in (1, 6, 14):
        a, b = batch.dist[:, t], np.array([s.dist[t] for s in single])
        assert stats.ks_2samp(a, b).pvalue > level, t
        z = (a.mean() - b.mean()) / np.sqrt(a.var(ddof=1) / R + b.var(ddof=1) / R)
        assert 2 * stats.norm.sf(abs(z)) > level, (t, z)


@pytest.mark.parametrize("bad, exc, match", [
    (dict(replicates=0), ValueError, "`replicates`"),
    (dict(replicates=2.5), TypeError, "`replicates`"),
    (dict(replicates=True), TypeError, "`replicates`"),
    (dict(replicates="3"), TypeError, "`replicates`"),
    (dict(replicates=2, stage_lengths="lemma_b1", a_stage=0.1), ValueError, "`replicates`.*`stage_lengths`"),
    (dict(replicates=2, record_identities=True), ValueError, "`replicates`.*`record_identities`"),
    (dict(replicates=10 ** 12), ValueError, "`replicates`=1000000000000"),
    (dict(replicates=2, model=make_model(12, 2, 15, seed=0)), ValueError, "`model`"),
    (dict(replicates=2, eta=100.0), ValueError, "`eta`=100 .*replicate 0 of `replicates`"),
])
def test_bad_replicate_input(bad, exc, match):
    with pytest.raises(exc, match=match):
        run_srpfl(**{**SMALL, **bad})


def test_replicate_result_indexing_and_summary():
    res = run_srpfl(**SMALL, replicates=3, seed=1)
    assert res[-1].params["replicate"] == 2 and res[0].params["seed"] == {"entropy": 1, "spawn_key": [0]}
    with pytest.raises(IndexError):
        res[3]
    assert [r.dist[-1] for r in res] == list(res.dist[:, -1])
    assert "3 replicates" in res.summary() and "SRPFLReplicates" in repr(res)
    assert res.E0.shape == res.eta.shape == (3,)
    np.testing.assert_array_equal(res.bound_violations, [r.bound_violations.size for r in res])
    np.testing.assert_array_equal(res.time_to(0.5), [r.time_to(0.5) for r in res])
    assert res.participants.shape == res.stage.shape == (3, SMALL["rounds"])


# ----------------------------------------------------------------------------- run-until-target
TARGET_OPTIONS = [
    dict(),
    dict(sampler="reduced"),
    dict(sampler="reduced", speeds="iid", resample="round", eval_every=2),
    dict(carry="pre_qr", eval_every=3),
    dict(schedule="all", speeds="dynamic", comm_cost=2.0, lam=2.0),
    dict(design="rademacher", speeds="mixture", stage_lengths=[2, 5]),
]


def _ragged_target(res):
    """A target at which one replicate stops at round 0, one at round 1 and one never stops (from the
    untargeted trajectories, which the targeted run follows up to each stop)."""
    D = res.dist
    for t in sorted(set(D[:, 0]) | set(D[:, 1])):
        if (D[:, 0] <= t).any() and ((D[:, 0] > t) & (D[:, 1] <= t)).any() and (D.min(axis=1) > t).any():
            return float(t)
    raise AssertionError("no ragged target for this seed")


def _assert_same_run(got, one):
    for f in FIELDS:
        x, y = getattr(got, f), getattr(one, f)
        assert x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes(), f
    assert got.E0 == one.E0 and got.eta == one.eta


@pytest.mark.parametrize("opts", TARGET_OPTIONS, ids=_ids)
def test_target_replicate_j_is_the_single_run_with_the_jth_child_seed(opts):
    R, T = 8, SMALL["rounds"]
    kw = {**SMALL, **opts}
    free = run_srpfl(**kw, replicates=R, seed=2)
    target = _ragged_target(free)  # a dist value itself: stops on equality, as dist <= target
    res = run_srpfl(**kw, target=target, replicates=R, seed=2)
    assert res.params["target"] == target and res.rounds_run.dtype.kind == "i"
    assert {0, 1, T} <= set(res.rounds_run.tolist())
    assert res.dist.shape == res.wall_clock.shape == res.mse.shape == (R, T + 1)
    assert res.a.shape == res.bound.shape == res.participants.shape == res.stage.shape == (R, T)
    for j, child in enumerate(spawn_seeds(2, R)):
        one = run_srpfl(**kw, target=target, seed=child)
        got = res[j]
        _assert_same_run(got, one)
        params = dict(got.params)
        assert params.pop("replicate") == j and params == one.params
        n = int(res.rounds_run[j])
        assert n == one.dist.size - 1
        # stopped at the first round whose dist reaches the target, or never reached it
        hit = np.flatnonzero(free.dist[j] <= target)
        assert n == (hit[0] if hit.size else T)
        # padding after the stop; the run up to it is the untargeted one (stopping draws nothing more)
        assert np.isnan(res.dist[j, n + 1:]).all() and np.isnan(res.wall_clock[j, n + 1:]).all()
        assert np.isnan(res.mse[j, n + 1:]).all()
        assert np.isnan(res.a[j, n:]).all() and np.isnan(res.bound[j, n:]).all()
        assert (res.participants[j, n:] == 0).all() and (res.stage[j, n:] == -1).all()
        assert res.dist[j, : n + 1].tobytes() == free.dist[j, : n + 1].tobytes()
        assert res.a[j, :n].tobytes() == free.a[j, :n].tobytes()
        assert not np.isnan(res.dist[j, : n + 1]).any() and not np.isnan(res.wall_clock[j, : n + 1]).any()
    np.testing.assert_array_equal(res.time_to(target), [r.time_to(target) for r in res])
    np.testing.assert_array_equal(res.bound_violations, [r.bound_violations.size for r in res])
    assert f"0 to {T} of {T} rounds" in res.summary()


@pytest.mark.parametrize("opts", [dict(), dict(sampler="reduced", eval_every=2), dict(carry="pre_qr")], ids=_ids)
def test_target_numbers_do_not_depend_on_the_memory_chunks(monkeypatch, opts):
    kw = {**SMALL, **opts}
    target = _ragged_target(run_srpfl(**kw, replicates=8, seed=2))
    whole = run_srpfl(**kw, target=target, replicates=8, seed=2)
    assert whole.params["chunk"] == 8
    for size in (1, 3):  # one replicate per chunk, then chunks of 3, 3 and 2
        monkeypatch.setattr(rep_mod, "_chunk_size", lambda R, size=size, **_: min(R, size))
        split = run_srpfl(**kw, target=target, replicates=8, seed=2)
        assert split.params["chunk"] == size
        for f in FIELDS + ("E0", "eta", "rounds_run"):
            a, b = getattr(split, f), getattr(whole, f)
            assert a.dtype == b.dtype and a.tobytes() == b.tobytes(), (size, f)


def test_target_reached_by_all_at_round_0_and_by_none():
    R = 3
    kw = dict(SMALL, target=2.0)  # dist <= 1 always: every replicate stops before its first round
    res = run_srpfl(**kw, replicates=R, seed=4)
    np.testing.assert_array_equal(res.rounds_run, [0] * R)
    assert np.isnan(res.dist[:, 1:]).all() and np.isnan(res.a).all() and (res.stage == -1).all()
    for j, child in enumerate(spawn_seeds(4, R)):
        _assert_same_run(res[j], run_srpfl(**kw, seed=child))
    # never reached: the untargeted batch, bitwise, with rounds_run = rounds
    free = run_srpfl(**SMALL, replicates=R, seed=4)
    never = run_srpfl(**SMALL, target=1e-9, replicates=R, seed=4)
    np.testing.assert_array_equal(never.rounds_run, [SMALL["rounds"]] * R)
    np.testing.assert_array_equal(free.rounds_run, [SMALL["rounds"]] * R)
    for f in FIELDS:
        assert getattr(never, f).tobytes() == getattr(free, f).tobytes(), f
    # the default budget with a target (200 rounds), as a single run
    short = dict(d=6, k=2, M=8, N=8, n0=2, m=20, sigma=0.0, stage_lengths=3, target=0.2)
    res = run_srpfl(**short, replicates=2, seed=9)
    assert res.dist.shape == (2, 201) and (res.rounds_run < 200).all()
    for j, child in enumerate(spawn_seeds(9, 2)):
        _assert_same_run(res[j], run_srpfl(**short, seed=child))


# ----------------------------------------------------------------------------- re-measured 120-sample
# of replicates.py: k = 3 (a_t uses the smallest of three singular values), the summary of ragged
# batches, the size-guard message and the chunk size at hand-computed boundaries.
def test_replicate_j_is_the_single_run_with_k3():
    kw = dict(SMALL, k=3, n0=3)
    res = run_srpfl(**kw, replicates=2, seed=5)
    for j, child in enumerate(spawn_seeds(5, 2)):
        one = run_srpfl(**kw, seed=child)
        for f in FIELDS:
            np.testing.assert_array_equal(getattr(res[j], f), getattr(one, f), err_msg=f)


def test_ragged_summary_names_the_target():
    res = run_srpfl(**SMALL, replicates=3, seed=1)
    target = _ragged_target(res)
    tres = run_srpfl(**SMALL, replicates=3, seed=1, target=target)
    lo, hi = int(tres.rounds_run.min()), int(tres.rounds_run.max())
    assert f"{lo} to {hi} of {SMALL['rounds']} rounds (target {target!r})" in tres.summary()


def test_replicate_size_guard_names_the_sizes():
    with pytest.raises(ValueError, match=r"^the results of the replicates .*`replicates`=1000000000, `rounds`=14, "
                                         r"`M`=16, `d`=12, `k`=2"):
        run_srpfl(**SMALL, replicates=10 ** 9)


@pytest.mark.parametrize("opts, per", [
    # N = 12 clients of m = 6 rows, d = 12, k = 2, M = 16: ground truths M (d + 2k) = 256, clients and times
    # N (k + 4) = 72 floats
    (dict(), 12 * 6 * (12 + 6 + 5) + 6 * 12 * 2 + 256 + 72),  # batch, features, labels, noise, residuals, rows
    (dict(sampler="reduced"), 12 * 6 * (3 * 2 + 5) + 10 * 12 * 2 + 256 + 72),  # the 2k normals, features, ...
])
def test_chunk_size_at_its_boundaries(monkeypatch, opts, per):
    kw = dict(SMALL, rounds=1, **opts)
    for limit in (2 * 8 * per, 3 * 8 * per - 1):  # two replicates fit exactly / three miss by a byte
        monkeypatch.setattr(rep_mod, "CHUNK_BYTES", limit)
        assert run_srpfl(**kw, replicates=5, seed=3).params["chunk"] == 2, limit
