"""One engine for FedRep-SRPFL's single runs and replicate batches (fedtheory.srpfl._engine).

SRPFL (Tziotis, Shen, Pedarsani, Hassani and Mokhtari, TMLR), Algorithm 2: a single run is the batched
engine with R = 1. Referees: the replicate batch itself (the single run with seed s and the batch of one
replicate whose seed is s agree bitwise), the same run with the distances computed round by round
(a never-reached ``target`` keeps them inside the rounds; without one they are computed in blocks and
Theorem 4.7's bounds after the last round: the same bits), a call profile (no input validator inside the
rounds) and the module-level names that the catalogue looks up at call time.
"""
from __future__ import annotations

import sys
from collections import Counter

import numpy as np
import pytest

from fedtheory.random import spawn_seeds
from fedtheory.representation import _kernels
from fedtheory.srpfl import _engine, run_srpfl
from fedtheory.srpfl import algorithms as alg

SMALL = dict(d=12, k=2, M=16, N=12, n0=3, m=6, rounds=14, stage_lengths=4)
OPTIONS = [
    dict(),
    dict(sampler="reduced"),
    dict(sampler="reduced", sigma=0.0, speeds="iid", resample="round"),
    dict(init="random", carry="pre_qr", eval_every=3),
    dict(schedule="all", speeds="dynamic", comm_cost=2.0, lam=2.0),
    dict(speeds="mixture", stage_lengths=[2, 5], eval_every=5, sigma=0.2),
    dict(design="rademacher", speeds="dynamic", speed_variant="arxiv"),
    dict(target=0.5, rounds=40),
]
FIELDS = ("dist", "wall_clock", "participants", "stage", "a", "bound", "mse")


def _ids(o):
    return ",".join(f"{k}={v}" for k, v in o.items()) or "defaults"


@pytest.mark.parametrize("opts", OPTIONS, ids=_ids)
def test_single_run_is_the_batch_of_one_replicate(opts):
    kw = {**SMALL, **opts}
    batch = run_srpfl(**kw, replicates=1, seed=5)
    one = run_srpfl(**kw, seed=spawn_seeds(5, 1)[0])
    got = batch[0]
    for f in FIELDS:
        np.testing.assert_array_equal(getattr(got, f), getattr(one, f), err_msg=f)
        assert getattr(got, f).dtype == getattr(one, f).dtype, f
    assert got.E0 == one.E0 and got.eta == one.eta and batch.params["chunk"] == 1
    assert isinstance(one.E0, float) and isinstance(one.eta, float)


@pytest.mark.parametrize("opts", [dict(), dict(sampler="reduced", eval_every=4), dict(carry="pre_qr"),
                                  dict(stage_lengths=[2, 5], schedule="doubling")], ids=_ids)
def test_distances_in_blocks_equal_the_distances_of_every_round(monkeypatch, opts):
    """Without a target the distances are computed in blocks and the bounds after the last round; a
    target that is never reached keeps both inside the rounds. Both give the same bits, whatever the
    block."""
    kw = dict(SMALL, rounds=30, **opts)
    blocked = run_srpfl(**kw, seed=3)
    per_round = run_srpfl(**kw, target=1e-300, seed=3)
    assert per_round.dist.size == blocked.dist.size == 31
    for f in FIELDS:
        np.testing.assert_array_equal(getattr(per_round, f), getattr(blocked, f), err_msg=f)
    monkeypatch.setattr(_kernels, "DISTANCE_BLOCK_BYTES", 8 * kw["d"] * kw["k"] * 4)  # blocks of 4 rounds
    again = run_srpfl(**kw, seed=3)
    for f in ("dist", "bound"):
        np.testing.assert_array_equal(getattr(again, f), getattr(blocked, f), err_msg=f)


def test_lemma_b1_stage_lengths_are_evaluated_once_per_stage(monkeypatch):
    """Lemma B.1's stage lengths (eq. (203)) are computed when a stage is first tested, not every round."""
    calls = []
    orig = _engine.stage_rounds
    monkeypatch.setattr(_engine, "stage_rounds", lambda *a: calls.append(a[0]) or orig(*a))
    res = run_srpfl(d=12, k=2, M=32, N=32, n0=4, m=8, sigma=0.1, stage_lengths="lemma_b1", a_stage=0.2,
                    rounds=80, seed=1)
    assert res.stage.max() >= 2  # stage 1 was tested and ended
    assert sorted(calls) == sorted(set(calls)) and 1 in calls


def _validator_calls(func, **kw) -> Counter:
    """Calls of the input validators of fedtheory._validation (``check_*`` except ``check_finite_result``)."""
    counts: Counter = Counter()

    def prof(frame, event, arg):
        if event == "call":
            code = frame.f_code
            if code.co_filename.endswith("_validation.py") and code.co_name.startswith("check_") \
                    and code.co_name != "check_finite_result":
                counts[code.co_name] += 1

    sys.setprofile(prof)
    try:
        func(**kw)
    finally:
        sys.setprofile(None)
    return counts


@pytest.mark.parametrize("opts", [dict(), dict(eval_every=1), dict(sampler="reduced"), dict(target=1e-300),
                                  dict(replicates=3, eval_every=2), dict(carry="pre_qr", init="random")], ids=_ids)
def test_inputs_are_validated_once_not_every_round(opts):
    """The validators run as often for 2 rounds as for 12 (the former single run re-validated its
    distance, Theorem 4.7's bound and the evaluation's heads every round). With ``record_identities``
    every round calls the public :func:`~fedtheory.srpfl.theory.round_decomposition`, which validates
    its own inputs; that is the recording, not the run."""
    few = _validator_calls(run_srpfl, **{**SMALL, **opts, "rounds": 2})
    many = _validator_calls(run_srpfl, **{**SMALL, **opts, "rounds": 12})
    assert sum(few.values()) > 0 and few == many


def test_identities_use_the_round_decomposition_looked_up_in_algorithms(monkeypatch):
    """``fedtheory.srpfl.algorithms.round_decomposition`` is resolved at call time, once per round."""
    calls = []
    orig = alg.round_decomposition
    monkeypatch.setattr(alg, "round_decomposition", lambda *a: calls.append(a[5]) or orig(*a))
    res = run_srpfl(**SMALL, record_identities=True, seed=2)
    assert len(calls) == res.participants.size == 14 and all(eta == res.eta for eta in calls)
    assert all(np.shape(v) == (14,) for v in res.identities.values()) and res.identities


def test_round_kernels_receive_the_stacked_inputs_of_every_round(monkeypatch):
    """The engine calls the FedRep round kernels by the names ``_round_from_features`` and
    ``_reduced_from_draws`` of :mod:`fedtheory.srpfl._engine`, once per round, with ``B_hat`` stacked
    (R, d, k): what a tracer of the rounds' inputs wraps."""
    seen = []
    for name in ("_round_from_features", "_reduced_from_draws"):
        orig = getattr(_engine, name)
        monkeypatch.setattr(_engine, name, lambda B, *a, _f=orig, **k: seen.append(np.shape(B)) or _f(B, *a, **k))
    one = run_srpfl(**SMALL, seed=1)
    red = run_srpfl(**SMALL, sampler="reduced", replicates=2, seed=1)
    assert seen == [(1, 12, 2)] * one.participants.size + [(2, 12, 2)] * (red.dist.shape[1] - 1)


def test_former_private_names_stay_importable():
    from fedtheory.srpfl.algorithms import _exact_mse  # noqa: F401
    from fedtheory.srpfl.replicates import CHUNK_BYTES, _chunk_size  # noqa: F401

    assert CHUNK_BYTES > 0


# ----------------------------------------------------------------------------- one ground truth per replicate
def _truths(R, d=12, k=2, M=16, sigma=0.1):
    from fedtheory.representation import make_model
    from fedtheory.srpfl import make_speed_model

    models = [make_model(d, k, M, sigma=sigma, head_norm="unit" if j % 2 else "sqrt_k", seed=40 + j) for j in range(R)]
    speeds = [make_speed_model("fixed" if j % 2 else "mixture", M, 12, seed=60 + j) for j in range(R)]
    return models, speeds


PER_REPLICATE = [
    dict(),
    dict(sampler="reduced"),
    dict(sampler="reduced", target=0.4, rounds=40),
    dict(eval_every=3),
    dict(sampler="reduced", eval_every=2, target=0.3, target_metric="mse", rounds=30),
    dict(schedule="all", resample="round", carry="pre_qr"),
]


@pytest.mark.parametrize("opts", PER_REPLICATE, ids=_ids)
def test_per_replicate_models_equal_separate_single_runs_bitwise(opts):
    """``model`` and ``speeds`` given as sequences: replicate j is, bit for bit, the single run on ``model[j]`` and
    ``speeds[j]`` with seed ``spawn_seeds(seed, R)[j]`` (the engine stacks B* (R, d, k) and W* (R, M, k))."""
    models, speeds = _truths(4)
    kw = {**SMALL, **opts}
    batch = run_srpfl(**kw, model=models, speeds=speeds, seed=9)
    assert len(batch) == 4 and batch.models == tuple(models) and batch.speed_models == tuple(speeds)
    for j, s in enumerate(spawn_seeds(9, 4)):
        one = run_srpfl(**kw, model=models[j], speeds=speeds[j], seed=s)
        for f in FIELDS:
            np.testing.assert_array_equal(getattr(batch[j], f), getattr(one, f), err_msg=f"{f}, replicate {j}")
        assert batch[j].E0 == one.E0 and batch[j].eta == one.eta and batch[j].model is models[j]


def test_a_sequence_of_one_model_is_the_batch_of_one():
    models, speeds = _truths(1)
    batch = run_srpfl(**SMALL, model=models, speeds=speeds[0], seed=3)
    one = run_srpfl(**SMALL, model=models[0], speeds=speeds[0], seed=spawn_seeds(3, 1)[0])
    assert len(batch) == 1 and batch.params["replicates"] == 1
    for f in FIELDS:
        np.testing.assert_array_equal(getattr(batch[0], f), getattr(one, f), err_msg=f)


def test_per_replicate_numbers_do_not_depend_on_the_memory_chunks(monkeypatch):
    from fedtheory.srpfl import replicates as rep_mod

    models, speeds = _truths(5)
    kw = dict(SMALL, sampler="reduced", target=0.4, rounds=40, model=models, speeds=speeds, seed=2)
    whole = run_srpfl(**kw)
    monkeypatch.setattr(rep_mod, "CHUNK_BYTES", 1)
    split = run_srpfl(**kw)
    assert split.params["chunk"] == 1
    for f in FIELDS:
        np.testing.assert_array_equal(getattr(whole, f), getattr(split, f), err_msg=f)


def test_per_replicate_models_follow_the_law_of_their_own_ground_truths():
    """The batch over R models drawn by ``make_model`` from the replicate seeds' model streams (``children[0]``)
    is, bit for bit, the batch that draws them itself (``model=None``): the same law, the same numbers."""
    from fedtheory.representation import make_model

    R = 6
    own = run_srpfl(**SMALL, sampler="reduced", sigma=0.2, replicates=R, seed=11)
    models = [make_model(SMALL["d"], SMALL["k"], SMALL["M"], sigma=0.2, seed=spawn_seeds(s, 6)[0])
              for s in spawn_seeds(11, R)]
    given = run_srpfl(**SMALL, sampler="reduced", model=models, speeds=list(own.speed_models), seed=11)
    for f in FIELDS:
        np.testing.assert_array_equal(getattr(own, f), getattr(given, f), err_msg=f)


def test_mse_target_stops_at_the_first_evaluation_meeting_it():
    res = run_srpfl(**dict(SMALL, rounds=60), sampler="reduced", eval_every=4, target=0.3, target_metric="mse",
                    replicates=4, seed=1)
    for j in range(4):
        r = res[j]
        hit = np.flatnonzero(r.mse <= 0.3)
        T = int(res.rounds_run[j])
        assert (hit.size and T == hit[0]) or (not hit.size and T == 60), (j, T, hit)
        assert np.all(np.isnan(res.mse[j, T + 1:]))


def test_reduced_test_mse_has_the_law_of_the_full_one():
    """``_exact_mse_reduced`` (refit samples drawn in span[B, B*]) against ``_exact_mse`` (full m x d batches) at a
    fixed B: two-sample KS and z tests over 400 draws each, at level 1e-4 / 2."""
    from scipy import stats

    from fedtheory.linalg import random_orthonormal
    from fedtheory.random import as_generator
    from fedtheory.representation import make_model

    model = make_model(10, 2, 8, sigma=0.3, seed=2)
    B = random_orthonormal(np.random.default_rng(3), 10, 2)
    full = np.array([_engine._exact_mse(model, B, 5, as_generator(s)) for s in spawn_seeds(4, 400)])
    rngs = [as_generator(s) for s in spawn_seeds(5, 400)]
    red = _engine._exact_mse_reduced(np.broadcast_to(B, (400, 10, 2)), np.broadcast_to(model.B_star, (400, 10, 2)),
                                     np.broadcast_to(model.theta_star, (400, 8, 10)), 0.3, 5, rngs)
    assert stats.ks_2samp(full, red).pvalue > 5e-5
    z = (full.mean() - red.mean()) / np.sqrt(full.var(ddof=1) / 400 + red.var(ddof=1) / 400)
    assert 2 * stats.norm.sf(abs(z)) > 5e-5, z


@pytest.mark.parametrize("bad, exc, match", [
    (dict(model=[]), ValueError, "`model` is an empty sequence"),
    (dict(model=["x"]), TypeError, r"`model\[0\]` must be a FedRepModel"),
    (dict(model={"B": 1}), TypeError, "`model` must be a FedRepModel, a list or tuple"),
    (dict(speeds=[1.0]), TypeError, r"`speeds\[0\]` must be a SpeedModel"),
    (dict(speeds=3), TypeError, "`speeds` must be a SpeedModel"),
    (dict(m=np.full((2, 16), 6), replicates=3), ValueError, "`m` has 2, not 3"),
    (dict(m=np.full(15, 6)), ValueError, r"`m` .*shape \(M,\)=\(16,\) or \(R, M\)"),
    (dict(m=np.full(16, 1)), ValueError, "`m` must be >= k=2"),
    (dict(m=np.full(16, 6.5)), TypeError, "`m` must be an integer"),
    (dict(m="6"), TypeError, "`m` must be an integer"),
    (dict(m=np.full(16, 6), eval_every=2), ValueError, "per-client batch sizes `m`.*`eval_every`"),
    (dict(target_metric="mse", target=0.1), ValueError, "`target_metric`='mse' needs `eval_every`"),
    (dict(target_metric="loss"), ValueError, "`target_metric`"),
])
def test_per_replicate_arguments_are_validated_at_entry(bad, exc, match):
    with pytest.raises(exc, match=match):
        run_srpfl(**{**SMALL, **bad})


def test_per_replicate_sequences_must_agree():
    from fedtheory.representation import make_model

    models, speeds = _truths(3)
    with pytest.raises(ValueError, match="`speeds` has 2, not 3"):
        run_srpfl(**SMALL, model=models, speeds=speeds[:2])
    with pytest.raises(ValueError, match="`model` has 3, not 2"):
        run_srpfl(**SMALL, model=models, replicates=2)
    with pytest.raises(ValueError, match=r"`model\[1\]` has \(d, k, M\)"):
        run_srpfl(**SMALL, model=[models[0], make_model(12, 2, 15, seed=1)])
    with pytest.raises(ValueError, match=r"`model\[1\]` has \(sigma, design\)"):
        run_srpfl(**SMALL, model=[models[0], make_model(12, 2, 16, sigma=0.7, seed=1)])
    with pytest.raises(ValueError, match=r"`speeds\[0\]` is a SpeedModel for M=12"):
        from fedtheory.srpfl import make_speed_model
        run_srpfl(**SMALL, speeds=[make_speed_model("fixed", 12, 12)])
