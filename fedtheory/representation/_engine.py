"""The exact FedRep engine: R runs batched over replicates and clients, a single run being R = 1.

FedRep, Collins, Hassani, Mokhtari and Shakkottai, ICML 2021, Algorithm 2 (FedRep for linear
regression) and GD-GD / 10GD-GD (Sec. 5.1). Round t of every replicate (indices of the corrected
Algorithm 2, t = 0..T-1):

1. the server samples ``I^t`` (rn clients, without replacement) from the replicate's run stream;
2. each selected client draws a fresh batch (or reuses its fixed data), solves
   ``w_i = argmin_w f_i^t(w, B^t)`` (eq. 7) exactly (or takes ``head_steps`` gradient steps on the head),
   and takes one gradient step on ``B``;
3. the server averages the ``B_i`` and, if ``orthonormalize_B``, applies QR (Theorem 1 is stated for the
   orthonormalised iterate; the printed Algorithm 2 has no QR step).

Each replicate draws from its own streams in a Python loop, in the order of a single run; the algebra of
all R rounds is one call of the batched kernels of :mod:`fedtheory.representation._kernels`. Replicates
run in memory chunks (:func:`fedtheory.representation.replicates._chunk_size`), which do not change the
numbers. The engine takes the validated inputs of :func:`fedtheory.representation.run_fedrep` and checks
nothing but the finiteness of every round (a float64 overflow is reported as divergence).
"""
from __future__ import annotations

import numpy as np

from ..linalg import _distance_to, _orthonormalize
from ..random import as_generator, random_subsets
from . import replicates as _replicates  # CHUNK_BYTES and the chunk size, looked up at call time
from ._kernels import (_DistanceLog, _objective_direct, _objective_orthonormal, _reduced_from_draws,
                       _round_from_features)
from .results import RoundResult
from .rounds import _round_sharded

_KEYS = ("dist", "objective", "batch_loss", "B", "W")


def _run_batch(models, B0, run_seeds, etas, *, n_sel, m, rounds, fresh_batches, orthonormalize_B, head_steps,
               head_lr, sampler, bit_generator="pcg64", shard_rngs=None, workers=1, where="") -> dict:
    """The rounds of R FedRep runs (``R = len(models)``).

    Parameters
    ----------
    models : list of FedRepModel
        Replicate j's ground truth (all of the same d, k, n, design and sigma).
    B0 : ndarray (R, d, k)
        Initial representations.
    run_seeds : list of SeedSequence
        Replicate j's run stream (selections and batches, or its fixed dataset first).
    etas : ndarray (R,)
        Step sizes on ``B``.
    n_sel, m, rounds, fresh_batches, orthonormalize_B, head_steps, head_lr, sampler, bit_generator
        As in :func:`~fedtheory.representation.run_fedrep` (validated; ``sampler`` resolved).
    shard_rngs : list of Generator, optional
        Shard streams of a sharded single run (R = 1), processed by ``workers`` threads.
    where : str
        Inserted in the divergence message (``" in a replicate"`` for batches).

    Returns
    -------
    dict
        ``dist`` and ``objective`` (R, rounds+1), ``batch_loss`` (R, rounds), ``B`` (R, d, k),
        ``W`` (R, n, k) and ``chunk`` (replicates per memory chunk).
    """
    R = len(models)
    mod = models[0]
    chunk = _replicates._chunk_size(R, n=mod.n, n_sel=n_sel, m=m, d=mod.d, k=mod.k, fresh_batches=fresh_batches,
                                    sampler=sampler)
    parts = []
    for start in range(0, R, chunk):
        part = slice(start, min(R, start + chunk))
        rngs = [as_generator(s, bit_generator) for s in run_seeds[part]]
        parts.append(_run_chunk(models[part], B0[part], rngs, etas[part], n_sel=n_sel, m=m, rounds=rounds,
                                fresh_batches=fresh_batches, orthonormalize_B=orthonormalize_B,
                                head_steps=head_steps, head_lr=head_lr, sampler=sampler, shard_rngs=shard_rngs,
                                workers=workers, where=where))
    out = {key: parts[0][key] if len(parts) == 1 else np.concatenate([p[key] for p in parts]) for key in _KEYS}
    out["chunk"] = chunk
    return out


def _run_chunk(models, B0, rngs, etas, *, n_sel, m, rounds, fresh_batches, orthonormalize_B, head_steps, head_lr,
               sampler, shard_rngs, workers, where) -> dict:
    """The rounds of one chunk of replicates (the arrays of :func:`_run_batch`, chunk rows)."""
    Rc = len(models)
    k, n, sigma = models[0].k, models[0].n, models[0].sigma
    B_star = np.stack([mod.B_star for mod in models])
    W_star = np.stack([mod.W_star for mod in models])
    theta = np.stack([mod.theta_star for mod in models])
    kw = dict(head_steps=head_steps, head_lr=head_lr, orthonormalize_B=orthonormalize_B)
    if shard_rngs is not None:
        step = _sharded_step(models[0], etas, m, shard_rngs, workers, kw)
    elif sampler == "reduced":
        step = _reduced_step(B_star, theta, rngs, etas, n_sel, m, sigma, kw)
    elif fresh_batches:
        step = _stacked_step(models, B_star, W_star, rngs, etas, n_sel, m, sigma, kw)
    else:  # the fixed datasets come first in the run streams
        step = _fixed_step(models, rngs, etas, n_sel, m, kw)

    def objective(B, W):  # O((n + d) k^2) while B is orthonormal (after QR, and at B^0 from either init)
        if orthonormalize_B:
            return _objective_orthonormal(B, W, B_star, W_star, float(sigma))
        return _objective_direct(B, W, theta, sigma)

    B = np.array(B0)
    rows = np.arange(Rc)[:, None]
    W = np.zeros((Rc, n, k))
    dist = np.empty((Rc, rounds + 1))
    obj = np.empty((Rc, rounds + 1))
    batch_loss = np.empty((Rc, rounds))
    Q_star = _orthonormalize(B_star)  # once, not every round (the same bits as the public distance)
    dist[:, 0] = _distance_to(Q_star, B)
    obj[:, 0] = objective(B, W)
    distances = _DistanceLog(Q_star, dist, rounds)
    for t in range(rounds):
        sel = random_subsets(rngs, n, n_sel)
        rnd = step(B, sel, W[rows, sel])
        B = rnd.B_next
        W[rows, sel] = rnd.w
        batch_loss[:, t] = 0.5 * np.mean(rnd.resid.reshape(Rc, -1) ** 2, axis=1)
        obj[:, t + 1] = objective(B, W)
        _check_converging(batch_loss[:, t], obj[:, t + 1], etas, head_lr, sigma, t, where)
        distances.add(B)
    distances.flush()
    return dict(dist=dist, objective=obj, batch_loss=batch_loss, B=B, W=W)


def _check_converging(batch_loss, obj, etas, head_lr, sigma, t, where) -> None:
    """A ``ValueError`` naming the step if round ``t`` overflowed float64 in some replicate."""
    if np.isfinite(batch_loss).all() and np.isfinite(obj).all():
        return
    bad = int(np.flatnonzero(~np.isfinite(obj) | ~np.isfinite(batch_loss))[0])
    raise ValueError(f"the run overflowed float64 at round {t + 1} (diverged){where}: the step `eta`={etas[bad]:g} "
                     f"or `head_lr`={head_lr:g} is too large for this problem (noise `sigma`={sigma:g})")


# --------------------------------------------------------------------------- one round of every replicate
# Each maker returns ``step(B, sel, w_init) -> RoundResult`` (leading replicate axis) for the selections
# ``sel`` (R, c) and the selected clients' last heads ``w_init`` (R, c, k); buffers are allocated once.

def _stacked_step(models, B_star, W_star, rngs, etas, c, m, sigma, kw):
    """Fresh full batches: replicate j draws its batch ``X`` (c m x d) and label noise in the order of
    :meth:`~fedtheory.representation.model.FedRepModel.sample`; one ``X [B | B*]`` matmul gives the
    features ``X B`` and the labels ``(X B*) w_i* + noise``."""
    Rc, d, k = B_star.shape
    rows = np.arange(Rc)[:, None]
    Xf = np.empty((Rc, c * m, d))
    noise = np.empty((Rc, c, m)) if sigma > 0 else None
    gaussian = models[0].design == "gaussian"

    def step(B, sel, w_init):
        for j, (mod, g) in enumerate(zip(models, rngs)):
            if gaussian:
                g.standard_normal(out=Xf[j])
            else:
                Xf[j] = mod.draw_x(g, (c * m,))
            if noise is not None:
                g.standard_normal(out=noise[j])
        P = Xf @ np.concatenate([B, B_star], axis=-1)
        y = np.einsum("rcmk,rck->rcm", P[..., k:].reshape(Rc, c, m, k), W_star[rows, sel])
        if noise is not None:
            y += sigma * noise
        return _round_from_features(B, Xf, P[..., :k].reshape(Rc, c, m, k), y, etas, w_init=w_init, **kw)

    return step


def _reduced_step(B_star, theta, rngs, etas, c, m, sigma, kw):
    """Each round drawn from its exact law (:func:`~fedtheory.representation.fedrep_round_reduced`):
    replicate j draws ``a`` (c, m, 2k), the label noise and ``N'`` (d, k), in this order."""
    Rc, d, k = B_star.shape
    rows = np.arange(Rc)[:, None]
    a = np.empty((Rc, c, m, 2 * k))
    noise = np.empty((Rc, c, m)) if sigma > 0 else None
    Np = np.empty((Rc, d, k))

    def step(B, sel, w_init):
        for j, g in enumerate(rngs):
            g.standard_normal(out=a[j])
            if noise is not None:
                g.standard_normal(out=noise[j])
            g.standard_normal(out=Np[j])
        return _reduced_from_draws(B, B_star, theta[rows, sel], sigma, a, noise, Np, etas, w_init=w_init, **kw)

    return step


def _fixed_step(models, rngs, etas, c, m, kw):
    """One fixed dataset of ``m`` samples per client, drawn now (first in each run stream) and reused every
    round (the public code's reading)."""
    Rc, n, d, k = len(models), models[0].n, models[0].d, models[0].k
    rows = np.arange(Rc)[:, None]
    data = [mod.sample(g, np.arange(n), m) for mod, g in zip(models, rngs)]
    X_all = np.stack([x for x, _ in data])
    y_all = np.stack([y for _, y in data])
    del data

    def step(B, sel, w_init):
        Xs = X_all[rows, sel].reshape(Rc, c * m, d)
        return _round_from_features(B, Xs, (Xs @ B).reshape(Rc, c, m, k), y_all[rows, sel], etas, w_init=w_init,
                                    **kw)

    return step


def _sharded_step(model, etas, m, shard_rngs, workers, kw):
    """Fresh batches drawn from one stream per client shard (a single run, R = 1), the shards processed by
    ``workers`` threads (:func:`~fedtheory.representation.fedrep_round_sharded`)."""
    eta = float(etas[0])

    def step(B, sel, w_init):
        rnd = _round_sharded(B[0], model, sel[0], m, eta, shard_rngs, workers=workers, w_init=w_init[0], **kw)
        return RoundResult(*(np.asarray(f)[None] for f in rnd))

    return step
