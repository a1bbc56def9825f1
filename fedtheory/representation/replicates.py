"""Replicate-batched exact FedRep runs: ``run_fedrep(..., replicates=R)``.

R independent runs of FedRep (Collins et al., ICML 2021, Algorithm 2) advance together: every round
draws each replicate's selection and batch from that replicate's own stream, then does the algebra
of all R rounds at once (one stacked matmul for ``X [B | B*]``, one batched k x k solve for the
heads, one stacked matmul for the gradient, one stacked QR).

Streams. Replicate j uses the seed ``spawn_seeds(seed, R)[j]`` exactly as a single run does (ground
truth, initialisation, rounds and evaluation from its four children, in the same order and shapes),
so replicate j draws the same numbers as ``run_fedrep(..., seed=spawn_seeds(seed, R)[j])`` and agrees
with it to floating-point rounding. Hence each replicate is exact in law, a given ``(seed, R)`` is
bitwise reproducible, and the numbers do not depend on how the replicates are chunked for memory
(stacked BLAS and LAPACK calls work slice by slice).

Memory. Replicates run in chunks whose arrays stay below :data:`CHUNK_BYTES`; a run whose single
replicate would not fit is refused by the same guards as a single run, before anything is drawn.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._validation import check_alloc, check_instance, check_iterations
from ..linalg import _distance_to, _orthonormalize, principal_angle_distance, random_orthonormal
from ..random import SeedLike, as_generator, random_subsets, seed_repr, spawn_seeds
from . import algorithms as _alg  # mom_init looked up at call time, as run_fedrep does
from .algorithms import (FedAvgResult, FedRepResult, _eval_with_refit, _fedavg_core, _reduced_from_draws,
                         _round_from_features, default_eta, resolve_sampler)
from .model import FedRepModel, make_model

__all__ = ["FedRepReplicates", "FedAvgReplicates", "CHUNK_BYTES"]

#: bytes of round arrays (batches, features, gradients) one chunk of replicates may hold
CHUNK_BYTES = 256 * 2 ** 20


class ReplicateSequence:
    """Sequence behaviour shared by the replicate results: ``len`` is R (the leading axis of
    ``dist``), iteration yields ``self[j]`` for j = 0..R-1."""

    def __len__(self) -> int:
        return self.dist.shape[0]

    def __iter__(self):
        return (self[j] for j in range(len(self)))


@dataclass(frozen=True, eq=False)
class FedRepReplicates(ReplicateSequence):
    """R independent FedRep runs (``run_fedrep(..., replicates=R)``).

    Attributes are those of :class:`~fedtheory.representation.algorithms.FedRepResult` with a
    leading replicate axis: ``dist`` and ``objective`` (R, rounds+1), ``batch_loss`` (R, rounds),
    ``B`` and ``B0`` (R, d, k), ``W`` (R, n, k), ``eval_mse`` and ``eta`` (R,). ``models`` holds each
    replicate's ground truth, ``seeds`` its seed sequence. ``res[j]`` is replicate j as a
    ``FedRepResult``; ``len(res)`` is R and iterating yields the replicates.
    """

    dist: np.ndarray
    objective: np.ndarray
    batch_loss: np.ndarray
    B: np.ndarray
    W: np.ndarray
    B0: np.ndarray
    eval_mse: np.ndarray
    eta: np.ndarray
    params: dict
    models: tuple = field(repr=False)
    seeds: tuple = field(repr=False)

    def __getitem__(self, j) -> FedRepResult:
        j = range(len(self))[j]  # IndexError for out of range, negative indices from the end
        return FedRepResult(dist=self.dist[j], objective=self.objective[j], batch_loss=self.batch_loss[j],
                            B=self.B[j], W=self.W[j], B0=self.B0[j], eval_mse=float(self.eval_mse[j]),
                            eta=float(self.eta[j]),
                            params={**self.params, "eta": float(self.eta[j]), "seed": seed_repr(self.seeds[j]),
                                    "replicate": j},
                            model=self.models[j])

    @property
    def E0(self) -> np.ndarray:
        """``1 - dist(B^0, B*)^2`` per replicate (Theorem 1)."""
        return 1.0 - self.dist[:, 0] ** 2

    def summary(self) -> str:
        p = self.params
        last = self.dist[:, -1]
        return (f"{p.get('algorithm', 'FedRep')} x {len(self)} replicates: d={p['d']}, k={p['k']}, n={p['n']}, "
                f"m={p['m']}, r={p['r']}, rounds={p['rounds']}; final dist median {np.median(last):.3g} "
                f"(min {last.min():.3g}, max {last.max():.3g})")

    def __repr__(self) -> str:
        return f"FedRepReplicates({self.summary()})"


def _replicate_models(model, children, *, d, k, n, sigma, head_norm, design) -> list:
    """One ground truth per replicate: drawn from replicate j's model stream (``model`` None), the
    given model for every replicate, or ``model[j]`` from a sequence of ``len(children)`` models."""
    if model is None:
        return [make_model(d, k, n, sigma=sigma, head_norm=head_norm, design=design, seed=ch[0]) for ch in children]
    if not isinstance(model, (list, tuple)):
        return [model] * len(children)
    if len(model) != len(children):
        raise ValueError(f"`model` as a sequence needs one FedRepModel per replicate ({len(children)}); "
                         f"got {len(model)}")
    for j, mod in enumerate(model):
        check_instance(mod, f"model[{j}]", FedRepModel)
        if (mod.d, mod.k, mod.n) != (d, k, n):
            raise ValueError(f"`model[{j}]` has (d, k, n)={(mod.d, mod.k, mod.n)} but the run asks for {(d, k, n)}")
    return list(model)


def _chunk_size(R, *, n, n_sel, m, d, k, fresh_batches, sampler) -> int:
    """Replicates per chunk: the arrays one chunk holds during a round (the batch, its features,
    labels, residuals and weighted rows, the stacked ground truths, the fixed dataset if any) stay
    below :data:`CHUNK_BYTES`."""
    c = n_sel
    if sampler == "reduced":
        per = c * m * (2 * k + k + 4) + 6 * d * k
    else:
        per = c * m * (d + 5 * k + 4) + 2 * d * k
    per += n * (2 * d + 2 * k) + (n * m * (d + 1) if not fresh_batches else 0)
    return max(1, min(R, CHUNK_BYTES // (8 * per)))


def _run_replicates(R, *, d, k, n, m, r, n_sel, rounds, eta, sigma, head_norm, design, init, fresh_batches,
                    orthonormalize_B, head_steps, head_lr, m_init, m_test, model, sampler, evaluation,
                    seed: SeedLike, bit_generator: str = "pcg64") -> FedRepReplicates:
    """``run_fedrep(..., replicates=R)`` after its validation (see there)."""
    kept = (n * k + 2 * d * k + 3 * (rounds + 1)) + n * (d + k) + d * k
    check_alloc(R * kept, "the results of the replicates (R x (heads, B, B0, trajectories and ground truths))",
                replicates=R, n=n, d=d, k=k, rounds=rounds)
    check_iterations(R * (rounds + 1), "the replicate rounds", replicates=R, rounds=rounds)
    seeds = spawn_seeds(seed, R)
    children = [spawn_seeds(s, 4) for s in seeds]  # model, init, run, eval, as in a single run
    models = _replicate_models(model, children, d=d, k=k, n=n, sigma=sigma, head_norm=head_norm, design=design)
    samplers = {resolve_sampler(sampler, mod, fresh_batches) for mod in models}
    sampler = samplers.pop()
    etas = np.array([default_eta(mod.W_star) if eta is None else eta for mod in models])
    chunk = _chunk_size(R, n=n, n_sel=n_sel, m=m, d=d, k=k, fresh_batches=fresh_batches, sampler=sampler)
    out = {key: [] for key in ("dist", "objective", "batch_loss", "B", "W", "B0")}
    for start in range(0, R, chunk):
        idx = range(start, min(R, start + chunk))
        part = _run_chunk([models[j] for j in idx], [children[j] for j in idx], etas[start:start + len(idx)],
                          n_sel=n_sel, m=m, rounds=rounds, init=init, m_init=m_init, fresh_batches=fresh_batches,
                          orthonormalize_B=orthonormalize_B, head_steps=head_steps, head_lr=head_lr,
                          sampler=sampler, bit_generator=bit_generator)
        for key in out:
            out[key].append(part[key])
    out = {key: np.concatenate(v) for key, v in out.items()}
    eval_mse = np.array([_eval_with_refit(models[j], out["B"][j], m, m_test,
                                          as_generator(children[j][3], bit_generator), evaluation)
                         for j in range(R)])
    params = dict(algorithm="FedRep" if head_steps is None else f"{head_steps}GD-GD",
                  d=d, k=k, n=n, m=m, r=r, n_sel=n_sel, rounds=rounds, eta=eta, sigma=sigma,
                  head_norm=models[0].head_norm, design=models[0].design, init=init,
                  fresh_batches=fresh_batches, orthonormalize_B=orthonormalize_B,
                  head_steps=head_steps, head_lr=head_lr if head_steps else None,
                  m_init=m_init, m_test=m_test, evaluation=evaluation, sampler=sampler, shards=1,
                  bit_generator=bit_generator, replicates=R, replicate_seed=seed_repr(seed), chunk=chunk)
    return FedRepReplicates(eval_mse=eval_mse, eta=etas, params=params, models=tuple(models), seeds=tuple(seeds),
                            **out)


def _run_chunk(models, children, etas, *, n_sel, m, rounds, init, m_init, fresh_batches, orthonormalize_B,
               head_steps, head_lr, sampler, bit_generator="pcg64") -> dict:
    """Rounds of one chunk of replicates (the arrays of a :class:`FedRepReplicates`, chunk rows)."""
    Rc = len(models)
    d, k, n, sigma = models[0].d, models[0].k, models[0].n, models[0].sigma
    c = n_sel
    B_star = np.stack([mod.B_star for mod in models])
    W_star = np.stack([mod.W_star for mod in models])
    theta = np.stack([mod.theta_star for mod in models])
    B = np.stack([_alg.mom_init(mod, m_init, as_generator(ch[1], bit_generator)) if init == "mom"
                  else random_orthonormal(as_generator(ch[1], bit_generator), d, k)
                  for mod, ch in zip(models, children)])
    B0 = B.copy()
    rngs = [as_generator(ch[2], bit_generator) for ch in children]
    if not fresh_batches:
        data = [mod.sample(g, np.arange(n), m) for mod, g in zip(models, rngs)]
        X_all = np.stack([x for x, _ in data])
        y_all = np.stack([y for _, y in data])
        del data
    rows = np.arange(Rc)[:, None]
    W = np.zeros((Rc, n, k))
    dist = np.empty((Rc, rounds + 1))
    obj = np.empty((Rc, rounds + 1))
    batch_loss = np.empty((Rc, rounds))
    gaussian = models[0].design == "gaussian"
    Xf = np.empty((Rc, c * m, d)) if fresh_batches and sampler != "reduced" else None
    noise = np.empty((Rc, c, m)) if sigma > 0 else None

    def objective(B, W):  # as in the single run: O((n + d) k^2) while B is orthonormal
        if orthonormalize_B:
            return _alg._objective_orthonormal(B, W, B_star, W_star, float(sigma))
        diff = W @ np.swapaxes(B, -1, -2) - theta
        return 0.5 * np.mean(np.sum(diff ** 2, axis=-1), axis=-1) + 0.5 * sigma ** 2

    Q_star = _orthonormalize(B_star)  # once, not every round (the same bits as the public distance)
    dist[:, 0] = _distance_to(Q_star, B)
    obj[:, 0] = objective(B, W)
    kw = dict(head_steps=head_steps, head_lr=head_lr, orthonormalize_B=orthonormalize_B)
    for t in range(rounds):
        sel = random_subsets(rngs, n, c)
        w_init = W[rows, sel]
        if sampler == "reduced":
            a = np.empty((Rc, c, m, 2 * k))
            Np = np.empty((Rc, d, k))
            for j, g in enumerate(rngs):  # the stream order of _draw_reduced
                g.standard_normal(out=a[j])
                if noise is not None:
                    g.standard_normal(out=noise[j])
                g.standard_normal(out=Np[j])
            rnd = _reduced_from_draws(B, B_star, theta[rows, sel], sigma, a, noise, Np, etas, w_init=w_init, **kw)
        elif fresh_batches:
            for j, (mod, g) in enumerate(zip(models, rngs)):  # the stream order of _draw_stacked
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
            rnd = _round_from_features(B, Xf, P[..., :k].reshape(Rc, c, m, k), y, etas, w_init=w_init, **kw)
        else:
            Xs = X_all[rows, sel].reshape(Rc, c * m, d)
            rnd = _round_from_features(B, Xs, (Xs @ B).reshape(Rc, c, m, k), y_all[rows, sel], etas,
                                       w_init=w_init, **kw)
        B = rnd.B_next
        W[rows, sel] = rnd.w
        batch_loss[:, t] = 0.5 * np.mean(rnd.resid.reshape(Rc, -1) ** 2, axis=1)
        dist[:, t + 1] = _distance_to(Q_star, B)
        obj[:, t + 1] = objective(B, W)
        if not (np.all(np.isfinite(batch_loss[:, t])) and np.all(np.isfinite(obj[:, t + 1]))):
            bad = int(np.flatnonzero(~np.isfinite(obj[:, t + 1]) | ~np.isfinite(batch_loss[:, t]))[0])
            raise ValueError(f"the run overflowed float64 at round {t + 1} (diverged) in a replicate: the step "
                             f"`eta`={etas[bad]:g} or `head_lr`={head_lr:g} is too large for this problem "
                             f"(noise `sigma`={sigma:g})")
    return dict(dist=dist, objective=obj, batch_loss=batch_loss, B=B, W=W, B0=B0)



@dataclass(frozen=True, eq=False)
class FedAvgReplicates(ReplicateSequence):
    """R independent FedAvg runs (``run_fedavg(..., replicates=R)``): the arrays of
    :class:`~fedtheory.representation.algorithms.FedAvgResult` with a leading replicate axis
    (``dist``, ``objective`` (R, rounds+1), ``B`` (R, d, k), ``w`` (R, k), ``eval_mse`` (R,));
    ``res[j]`` is replicate j as a ``FedAvgResult``."""

    dist: np.ndarray
    objective: np.ndarray
    B: np.ndarray
    w: np.ndarray
    eval_mse: np.ndarray
    params: dict
    models: tuple = field(repr=False)
    seeds: tuple = field(repr=False)

    def __getitem__(self, j) -> FedAvgResult:
        j = range(len(self))[j]
        return FedAvgResult(dist=self.dist[j], objective=self.objective[j], B=self.B[j], w=self.w[j],
                            eval_mse=float(self.eval_mse[j]),
                            params={**self.params, "seed": seed_repr(self.seeds[j]), "replicate": j},
                            model=self.models[j])

    def summary(self) -> str:
        last = self.objective[:, -1]
        return (f"FedAvg x {len(self)} replicates: final objective median {np.median(last):.3g}, "
                f"final dist(B, B*) median {np.median(self.dist[:, -1]):.3g}")

    def __repr__(self) -> str:
        return f"FedAvgReplicates({self.summary()})"


def _run_fedavg_replicates(R, *, d, k, n, m, r, n_sel, rounds, eta, sigma, head_norm, design, local_steps,
                           fresh_batches, m_test, model, evaluation, seed: SeedLike) -> FedAvgReplicates:
    """``run_fedavg(..., replicates=R)`` after its validation (see there)."""
    kept = d * k + k + 2 * (rounds + 1) + n * (d + k) + d * k
    check_alloc(R * kept, "the results of the replicates (R x (B, w, trajectories and ground truths))",
                replicates=R, n=n, d=d, k=k, rounds=rounds)
    check_iterations(R * (rounds + 1), "the replicate rounds", replicates=R, rounds=rounds)
    seeds = spawn_seeds(seed, R)
    children = [spawn_seeds(s, 4) for s in seeds]
    models = _replicate_models(model, children, d=d, k=k, n=n, sigma=sigma, head_norm=head_norm, design=design)
    # per replicate and round: the batch, its features and the per-client copies of B and their gradients
    per = n_sel * m * (d + 2 * k + 2) + 3 * n_sel * d * k + n * (2 * d + k) + (n * m * (d + 1) if not fresh_batches
                                                                                  else 0)
    chunk = max(1, min(R, CHUNK_BYTES // (8 * per)))
    parts = [_fedavg_core(models[a:a + chunk], children[a:a + chunk], n_sel=n_sel, m=m, rounds=rounds, eta=eta,
                          local_steps=local_steps, fresh_batches=fresh_batches) for a in range(0, R, chunk)]
    out = {key: np.concatenate([p_[key] for p_ in parts]) for key in ("dist", "objective", "B", "w")}
    eval_mse = np.array([_eval_with_refit(models[j], out["B"][j], m, m_test, as_generator(children[j][3]),
                                          evaluation) for j in range(R)])
    params = dict(algorithm="FedAvg", d=d, k=k, n=n, m=m, r=r, n_sel=n_sel, rounds=rounds, eta=eta, sigma=sigma,
                  local_steps=local_steps, head_norm=models[0].head_norm, fresh_batches=fresh_batches,
                  m_test=m_test, evaluation=evaluation, replicates=R, replicate_seed=seed_repr(seed), chunk=chunk)
    return FedAvgReplicates(eval_mse=eval_mse, params=params, models=tuple(models), seeds=tuple(seeds), **out)
