"""One engine for FedRep's single runs and replicate batches (fedtheory.representation._engine).

FedRep (Collins, Hassani, Mokhtari and Shakkottai, ICML 2021, Algorithm 2) and FedAvg (eq. (4), Sec. 5.1):
a single run is the batched engine with R = 1. Referees: the replicate batch itself (the single run with
seed s and the batch of one replicate whose seed is s run the same computation, so they agree bitwise),
the per-round distance (the blocked distances of :class:`~fedtheory.representation._kernels._DistanceLog`
give the same bits whatever the block), a call profile (no input validator runs inside the rounds) and
the import graph (no cycle among the modules).
"""
from __future__ import annotations

import sys
from collections import Counter

import numpy as np
import pytest

from fedtheory.random import spawn_seeds
from fedtheory.representation import _engine, _kernels, make_model, run_fedavg, run_fedrep
from fedtheory.representation import algorithms as alg

SMALL = dict(d=12, k=2, n=20, m=6, rounds=15, m_test=8)
OPTIONS = [
    dict(r=0.3),
    dict(r=0.3, sigma=0.3, evaluation="sampled"),
    dict(r=1.0, sigma=0.2, sampler="reduced"),
    dict(r=0.5, sampler="reduced", head_steps=2),
    dict(r=0.5, init="random", fresh_batches=False),
    dict(r=0.25, head_steps=1, head_lr=0.3, sigma=0.1),
    dict(r=0.5, design="rademacher"),
    dict(r=0.4, orthonormalize_B=False, eta=0.02),
    dict(r=0.3, bit_generator="sfc64"),
]
FIELDS = ("dist", "objective", "batch_loss", "B", "W", "B0")


def _ids(o):
    return ",".join(f"{k}={v}" for k, v in o.items())


@pytest.mark.parametrize("opts", OPTIONS, ids=_ids)
def test_single_run_is_the_batch_of_one_replicate(opts):
    """``run_fedrep(seed=s)`` and replicate 0 of ``replicates=1`` with that replicate's seed are one
    computation of the engine: every array, the evaluation and the step agree bitwise."""
    batch = run_fedrep(**SMALL, **opts, replicates=1, seed=4)
    one = run_fedrep(**SMALL, **opts, seed=spawn_seeds(4, 1)[0])
    assert batch.params["chunk"] == 1 and len(batch) == 1
    for f in FIELDS:
        np.testing.assert_array_equal(getattr(batch, f)[0], getattr(one, f), err_msg=f)
        assert getattr(one, f).shape == getattr(batch, f).shape[1:]
    assert batch.eval_mse[0] == one.eval_mse and batch.eta[0] == one.eta
    assert isinstance(one.eval_mse, float) and isinstance(one.eta, float)


@pytest.mark.parametrize("opts", [dict(r=0.3, sigma=0.2), dict(r=0.5, sampler="reduced"),
                                  dict(r=0.5, orthonormalize_B=False, eta=0.02), dict(r=0.5, shards=2)],
                         ids=_ids)
def test_blocked_distances_do_not_change_the_numbers(monkeypatch, opts):
    """The distances computed one round at a time (block 1), in blocks of 7 rounds and in one block
    (the default at this size) are the same bits, and equal the public distance of the final B."""
    from fedtheory.linalg import principal_angle_distance

    kw = dict(SMALL, rounds=40, **opts)
    whole = run_fedrep(**kw, seed=2)
    d, k = kw["d"], kw["k"]
    for limit in (1, 8 * d * k * 7):
        monkeypatch.setattr(_kernels, "DISTANCE_BLOCK_BYTES", limit)
        np.testing.assert_array_equal(run_fedrep(**kw, seed=2).dist, whole.dist)
    assert whole.dist[-1] == principal_angle_distance(whole.B, whole.model.B_star)


def test_blocked_distances_of_fedavg_and_of_replicates(monkeypatch):
    fa = dict(d=10, k=2, n=20, m=5, r=0.3, rounds=25, m_test=0, eta=0.1)
    rep = dict(SMALL, r=0.3, rounds=25)
    ref_fa, ref_rep = run_fedavg(**fa, seed=1), run_fedrep(**rep, replicates=3, seed=1)
    monkeypatch.setattr(_kernels, "DISTANCE_BLOCK_BYTES", 1)
    np.testing.assert_array_equal(run_fedavg(**fa, seed=1).dist, ref_fa.dist)
    np.testing.assert_array_equal(run_fedrep(**rep, replicates=3, seed=1).dist, ref_rep.dist)


def _validator_calls(func, **kw) -> Counter:
    """Calls of the input validators of fedtheory._validation (``check_*``, except the result check
    ``check_finite_result``) made by ``func(**kw)``."""
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


@pytest.mark.parametrize("opts", [
    dict(r=0.3, sigma=0.2), dict(r=0.5, sampler="reduced"), dict(r=0.5, init="random", fresh_batches=False),
    dict(r=0.5, head_steps=2), dict(r=0.5, shards=2), dict(r=0.5, replicates=3), dict(r=0.5, evaluation="sampled"),
], ids=_ids)
def test_inputs_are_validated_once_not_every_round(opts):
    """The validators run as often for 2 rounds as for 12: none of them inside the round loop."""
    few = _validator_calls(run_fedrep, **{**SMALL, **opts, "rounds": 2})
    many = _validator_calls(run_fedrep, **{**SMALL, **opts, "rounds": 12})
    assert sum(few.values()) > 0 and few == many


def test_fedavg_inputs_are_validated_once_not_every_round():
    kw = dict(d=10, k=2, n=20, m=5, r=0.3, m_test=4, eta=0.1)
    assert _validator_calls(run_fedavg, **kw, rounds=2) == _validator_calls(run_fedavg, **kw, rounds=12)


def test_the_run_uses_the_method_of_moments_looked_up_in_algorithms(monkeypatch):
    """``fedtheory.representation.algorithms.mom_init`` is resolved at call time (patching it changes
    the initialisation of single runs and of every replicate)."""
    seen = []

    def fake(model, m, rng, chunk=4096):
        seen.append(m)
        return np.eye(model.d)[:, : model.k]

    monkeypatch.setattr(alg, "mom_init", fake)
    one = run_fedrep(**SMALL, r=0.5, m_init=7, seed=1)
    batch = run_fedrep(**SMALL, r=0.5, m_init=7, replicates=2, seed=1)
    assert seen == [7, 7, 7]
    np.testing.assert_array_equal(one.B0, np.eye(12)[:, :2])
    np.testing.assert_array_equal(batch.B0, np.broadcast_to(np.eye(12)[:, :2], (2, 12, 2)))


def test_former_private_names_stay_importable():
    from fedtheory.representation.algorithms import (PARALLEL_MIN_NORMALS, _eval_with_refit,  # noqa: F401
                                                     _fit_heads, _objective_orthonormal, _round_given_batch,
                                                     _round_reduced, _round_stacked)

    assert PARALLEL_MIN_NORMALS > 0


def test_engine_takes_validated_arrays_and_returns_stacks():
    """The engine's own contract: R models, (R, d, k) initial B, R run streams and R steps in; stacked
    trajectories out, one memory chunk here."""
    models = [make_model(12, 2, 20, seed=s) for s in (1, 2)]
    B0 = np.stack([m.B_star for m in models])
    out = _engine._run_batch(models, B0, spawn_seeds(3, 2), np.array([0.1, 0.1]), n_sel=6, m=6, rounds=4,
                             fresh_batches=True, orthonormalize_B=True, head_steps=None, head_lr=0.5,
                             sampler="full")
    assert out["dist"].shape == (2, 5) and out["B"].shape == (2, 12, 2) and out["W"].shape == (2, 20, 2)
    assert out["chunk"] == 2 and np.all(out["dist"][:, 0] < 1e-7)  # B0 = B*


def test_no_import_cycle_among_the_fedrep_and_srpfl_modules():
    import os

    import fedtheory
    from fedtheory.architecture import import_cycles, import_graph

    cycles = import_cycles(import_graph({"fedtheory": os.path.dirname(fedtheory.__file__)}))
    mine = [c for c in cycles if any(m.startswith(("fedtheory.representation", "fedtheory.srpfl")) for m in c)]
    assert mine == []
