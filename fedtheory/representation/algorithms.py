"""Exact runs of FedRep and GD-GD on the linear model: the public entry of one batched engine.

FedRep, Collins, Hassani, Mokhtari and Shakkottai, ICML 2021, Algorithm 2 (FedRep for linear
regression) and the comparison methods of Section 5.1 (GD-GD and 10GD-GD here; FedAvg in
:mod:`fedtheory.representation.baselines`, Local Only in :mod:`fedtheory.representation.fitting`).

:func:`run_fedrep` validates its arguments once, draws each replicate's ground truth and initial
representation from the replicate's streams, and hands validated arrays to the engine
(:mod:`fedtheory.representation._engine`), which runs the rounds of R replicates at once, vectorised
over the replicates and the selected clients. A single run is the engine with R = 1 (its seed being
``seed`` itself), so a single run and replicate j of a batch (seed ``spawn_seeds(seed, R)[j]``) are the
same computation and agree bitwise.

The pieces of a run live in their own modules and are re-exported here under their former names:
:mod:`~fedtheory.representation.rounds` (one validated round), :mod:`~fedtheory.representation.fitting`
(step, initialisation, heads, test errors), :mod:`~fedtheory.representation.results` and
:mod:`~fedtheory.representation.replicates` (the results).
"""
from __future__ import annotations

import numpy as np

from .._validation import guard_module as _guard_module
from .._validation import check_bool, check_choice, check_instance, check_int, check_real
from ..linalg import random_orthonormal
from ..random import BIT_GENERATORS, SeedLike, as_generator, seed_repr, spawn_seeds
from . import _engine
from ._checks import _check_replicates, _check_run_size, _validate_common
from ._kernels import _fit_heads, _objective_orthonormal  # noqa: F401 - former private names, re-exported
from .baselines import run_fedavg
from .fitting import (EVALUATIONS, _eval_with_refit, default_eta, fit_heads, fit_local, mom_init, new_client_mse,
                      test_mse, test_mse_exact)
from .model import DESIGNS, HEAD_NORMS, FedRepModel
from .replicates import FedRepReplicates, _replicate_models
from .results import FedAvgResult, FedRepResult, RoundResult
from .rounds import (PARALLEL_MIN_NORMALS, SAMPLERS, _round_given_batch, _round_reduced,  # noqa: F401
                     _round_stacked, fedrep_round, fedrep_round_reduced, fedrep_round_sharded, fedrep_round_stacked,
                     resolve_sampler)

__all__ = ["FedRepResult", "FedAvgResult", "RoundResult", "fedrep_round", "fedrep_round_reduced",
           "fedrep_round_stacked", "fedrep_round_sharded", "resolve_sampler", "SAMPLERS", "mom_init", "run_fedrep",
           "run_altgd", "run_fedavg", "fit_heads", "fit_local", "test_mse", "test_mse_exact", "EVALUATIONS",
           "new_client_mse", "default_eta"]


def run_fedrep(d: int = 20, k: int = 2, n: int = 100, m: int = 10, r: float = 0.1,
               rounds: int = 100, *, eta: float | None = None, sigma: float = 0.0,
               head_norm: str = "sqrt_k", design: str = "gaussian", init: str = "mom",
               fresh_batches: bool = True, orthonormalize_B: bool = True,
               head_steps: int | None = None, head_lr: float = 0.5, m_init: int | None = None,
               m_test: int = 100, model: FedRepModel | None = None, sampler: str = "full",
               shards: int = 1, workers: int = 1, evaluation: str = "exact", replicates: int | None = None,
               bit_generator: str = "pcg64", seed: SeedLike = 0) -> FedRepResult:
    """Run FedRep for linear regression (Algorithm 2) exactly, vectorised over clients.

    FedRep, Collins et al., ICML 2021, Algorithm 2 and eq. (7); Theorem 1 is
    about this run with ``orthonormalize_B=True`` and ``sigma=0``.

    Parameters
    ----------
    d, k, n : int
        Data dimension, representation dimension (``1 <= k <= d``), number of clients.
    m : int
        Samples per selected client per round; the exact head needs ``m >= k``.
    r : float
        Participation rate in (0, 1] with ``r*n >= 1``; ``round(r*n)`` clients per round.
    rounds : int
        Number of rounds T >= 0.
    eta : float, optional
        Step size on ``B`` (> 0). Default :func:`default_eta`, which satisfies
        Theorem 1's condition ``eta <= 1/(4 sigma_max,*^2)``.
    sigma : float
        Label-noise standard deviation (>= 0). Theorem 1 is noiseless.
    head_norm, design : str
        See :mod:`fedtheory.representation.model`.
    init : {"mom", "random"}
        Method of moments (Algorithm 2) or a Haar-random orthonormal ``B^0``.
    fresh_batches : bool
        Fresh batch every round (Algorithm 2, the theory) or one fixed dataset of
        ``m`` samples per client reused every round (the public code).
    orthonormalize_B : bool
        QR after averaging (default True, see the module docstring).
    head_steps : int, optional
        ``None`` for the exact head (FedRep); an integer for that many gradient
        steps of size ``head_lr`` on the head, warm-started from the client's last
        head (GD-GD: 1, 10GD-GD: 10).
    m_init : int, optional
        Samples per client for the method of moments (default ``m``).
    m_test : int
        Test samples per client for ``eval_mse`` with ``evaluation="sampled"``; 0 skips the
        evaluation (``eval_mse`` NaN) whatever ``evaluation`` is.
    model : FedRepModel, optional
        Ground truth to use; by default one is drawn from ``seed``.
    evaluation : {"exact", "sampled"}
        ``eval_mse`` after every client re-fits its head on the final ``B`` from ``m`` fresh
        samples: the refitted predictors' population risk in closed form (``"exact"``, default:
        isotropic unit-variance designs, :func:`test_mse_exact`), or their MSE on ``m_test`` fresh
        test samples per client (``"sampled"``, :func:`test_mse`).
    replicates : int, optional
        Run this many independent replicates in one vectorised pass and return a
        :class:`~fedtheory.representation.replicates.FedRepReplicates` (arrays with a leading
        replicate axis; ``res[j]`` is replicate j as a ``FedRepResult``). Replicate j is the run
        with seed ``spawn_seeds(seed, replicates)[j]`` (its own ground truth unless ``model`` is
        given; ``model`` may also be a sequence of R models, one per replicate): the same random draws
        as ``run_fedrep(..., seed=that child, model=its model)``, so it is exact in law,
        and the numbers do not depend on how the replicates are chunked for memory. Not with
        ``shards > 1`` or ``workers > 1``.
    sampler : {"full", "reduced", "auto"}
        ``"full"`` draws every batch (bitwise reproducible, default); ``"reduced"`` draws each round
        from its exact law with ``O(c m k + d k)`` normals (:func:`fedrep_round_reduced`; isotropic
        Gaussian designs with ``d >= 2k`` only); ``"auto"`` uses reduced where it applies.
    shards, workers : int
        With ``shards > 1`` each fresh-batch round draws the selected clients' batches from
        ``shards`` independent streams (:func:`fedrep_round_sharded`), which ``workers`` threads may
        process in parallel. The numbers depend on ``shards`` only, never on ``workers``.
    bit_generator : {"pcg64", "sfc64"}
        Bit generator of the initialisation, round and evaluation streams (the ground truth is
        drawn with PCG64 either way, so both readings share it). ``"pcg64"`` (numpy's default) is
        the reference stream of every catalogue number; ``"sfc64"`` draws the same law about 20%
        faster (``fedtheory bench``), with other numbers.
    seed : int, SeedSequence or Generator
        Seed; the ground truth, the initialisation, the rounds and the evaluation
        use four spawned child streams.

    Returns
    -------
    FedRepResult

    Examples
    --------
    >>> from fedtheory.representation import run_fedrep
    >>> res = run_fedrep(d=20, k=2, n=100, m=10, r=0.1, rounds=200, seed=0)
    >>> res.dist.shape
    (201,)
    >>> bool(res.dist[-1] < 1e-6)
    True
    """
    d, k, n, m, n_sel, rounds = _validate_common(d, k, n, m, r, rounds, sigma)
    check_choice(init, "init", ("mom", "random"))
    check_choice(head_norm, "head_norm", HEAD_NORMS)
    check_choice(design, "design", DESIGNS)
    fresh_batches = check_bool(fresh_batches, "fresh_batches")
    orthonormalize_B = check_bool(orthonormalize_B, "orthonormalize_B")
    if head_steps is None and m < k:
        raise ValueError(f"`m` must be >= k={k} for the exact head solve; got m={m}")
    head_lr = check_real(head_lr, "head_lr", 0, low_open=True)
    if head_steps is not None:
        head_steps = check_int(head_steps, "head_steps", 1)
    m_init = m if m_init is None else check_int(m_init, "m_init", 1)
    m_test = check_int(m_test, "m_test", 0)
    if eta is not None:
        eta = check_real(eta, "eta", 0, low_open=True)
    if model is not None and not (replicates is not None and isinstance(model, (list, tuple))):
        check_instance(model, "model", FedRepModel)
    check_choice(sampler, "sampler", SAMPLERS)
    shards = check_int(shards, "shards", 1, n_sel, why=f"at most one shard per selected client, rn={n_sel}")
    workers = check_int(workers, "workers", 1)
    check_choice(evaluation, "evaluation", EVALUATIONS)
    check_choice(bit_generator, "bit_generator", tuple(BIT_GENERATORS))
    _check_run_size(d, k, n, m, n_sel, rounds, m_test, fresh_batches, init=init, m_init=m_init,
                    head_steps=head_steps, shards=shards, sampler=sampler, evaluation=evaluation)
    if replicates is not None:
        replicates = check_int(replicates, "replicates", 1)
        for name, val in (("shards", shards), ("workers", workers)):
            if val != 1:
                raise ValueError(f"`replicates` cannot be combined with `{name}`={val}: replicate batches run "
                                 f"in one process with one stream per replicate; use {name}=1")
        _check_replicates(replicates, (n * k + 2 * d * k + 3 * (rounds + 1)) + n * (d + k) + d * k,
                          "R x (heads, B, B0, trajectories and ground truths)", n=n, d=d, k=k, rounds=rounds)
    # one engine: a single run is the batch of R = 1 replicate whose seed is `seed` itself
    seeds = [seed] if replicates is None else spawn_seeds(seed, replicates)
    children = [spawn_seeds(s, 4) for s in seeds]  # model, init, run and evaluation streams
    if model is not None and not isinstance(model, (list, tuple)) and (model.d, model.k, model.n) != (d, k, n):
        raise ValueError(f"`model` has (d, k, n)={(model.d, model.k, model.n)} but the run "
                         f"asks for {(d, k, n)}")
    models = _replicate_models(model, children, d=d, k=k, n=n, sigma=sigma, head_norm=head_norm, design=design)
    etas = np.array([default_eta(mod.W_star) if eta is None else eta for mod in models])
    sampler = {resolve_sampler(sampler, mod, fresh_batches) for mod in models}.pop()
    shard_rngs = _shard_streams(children[0][2], shards, bit_generator) if shards > 1 else None
    B0 = np.stack([_initial_representation(mod, init, m_init, as_generator(ch[1], bit_generator))
                   for mod, ch in zip(models, children)])
    out = _engine._run_batch(models, B0, [ch[2] for ch in children], etas, n_sel=n_sel, m=m, rounds=rounds,
                             fresh_batches=fresh_batches, orthonormalize_B=orthonormalize_B, head_steps=head_steps,
                             head_lr=head_lr, sampler=sampler, bit_generator=bit_generator, shard_rngs=shard_rngs,
                             workers=workers, where="" if replicates is None else " in a replicate")
    eval_mse = [_eval_with_refit(mod, out["B"][j], m, m_test, as_generator(ch[3], bit_generator), evaluation)
                for j, (mod, ch) in enumerate(zip(models, children))]
    params = dict(algorithm="FedRep" if head_steps is None else f"{head_steps}GD-GD",
                  d=d, k=k, n=n, m=m, r=r, n_sel=n_sel, rounds=rounds, eta=eta, sigma=sigma,
                  head_norm=models[0].head_norm, design=models[0].design, init=init,
                  fresh_batches=fresh_batches, orthonormalize_B=orthonormalize_B,
                  head_steps=head_steps, head_lr=head_lr if head_steps else None,
                  m_init=m_init, m_test=m_test, evaluation=evaluation, sampler=sampler, shards=shards,
                  bit_generator=bit_generator)
    arrays = {key: out[key] for key in ("dist", "objective", "batch_loss", "B", "W")}
    if replicates is None:
        params.update(eta=float(etas[0]), seed=seed_repr(seed))
        return FedRepResult(**{key: v[0] for key, v in arrays.items()}, B0=B0[0], eval_mse=eval_mse[0],
                            eta=params["eta"], params=params, model=models[0])
    params.update(replicates=replicates, replicate_seed=seed_repr(seed), chunk=out["chunk"])
    return FedRepReplicates(**arrays, B0=B0, eval_mse=np.array(eval_mse), eta=etas, params=params,
                            models=tuple(models), seeds=tuple(seeds))


def _shard_streams(ss_run: np.random.SeedSequence, shards: int, bit_generator: str) -> list:
    """The ``shards`` streams of a sharded run: children of a key derived from the run stream, fixed by
    ``shards`` only (never by ``workers``)."""
    ss_shards = np.random.SeedSequence(ss_run.entropy, spawn_key=tuple(ss_run.spawn_key) + (7,))
    return [as_generator(x, bit_generator) for x in ss_shards.spawn(shards)]


def _initial_representation(model: FedRepModel, init: str, m_init: int, rng: np.random.Generator) -> np.ndarray:
    """``B^0``: the method of moments of Algorithm 2 (:func:`mom_init`, looked up here at call time) or a
    Haar-random orthonormal d x k matrix."""
    if init == "mom":
        return mom_init(model, m_init, rng)
    return random_orthonormal(rng, model.d, model.k)


def run_altgd(*args, head_steps: int = 1, head_lr: float = 0.5, **kwargs) -> FedRepResult:
    """Alternating gradient descent (GD-GD for ``head_steps=1``, 10GD-GD for 10).

    FedRep Sec. 5.1 / Figure 3 (Collins et al., ICML 2021): FedRep with the exact
    head minimisation replaced by ``head_steps`` gradient steps on the head.
    """
    return run_fedrep(*args, head_steps=head_steps, head_lr=head_lr, **kwargs)


# every public function turns float64 overflows, linear-algebra failures and broadcasting errors
# into ValueErrors naming its parameters (fedtheory._validation.guard_numeric_errors)
_guard_module(globals(), __all__)
