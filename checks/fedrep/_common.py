"""Code shared by the fedrep claim modules (data settings, cached exact runs, cache keys, the violations of
Theorem 1's bound (10)); the statistics and the verdicts are in :mod:`fedtheory.decide`.
"""
from __future__ import annotations

import hashlib
from functools import partial

import numpy as np
from fedtheory.parallel import cached_map
from fedtheory.representation import noise_std, run_fedrep, theorem1_bound


PAPER_NOISE = noise_std(1e-3, "std")  # Sec. 5.1 "N(., 10^-3)", read as std like the public code


def _thm1_setting(full: bool):
    return dict(d=20, k=2, n=16, r=0.5, m=20, rounds=60, runs=300 if full else 60)


# ----------------------------------------------------------------------------- figures
HEAD_LR_GRID = (0.05, 0.1, 0.2, 0.4)


# ----------------------------------------------------------------------------- Theorem 1 helpers
def _contraction_batch(model, m, r, rounds, seed, runs, sigma_min):
    """``runs`` exact noiseless FedRep runs (MoM init, QR, eta = 1/(4k); the reduced sampler, exact in law
    for Gaussian designs with d >= 2k) at batch size ``m`` as one replicate batch (run j has seed
    ``spawn_seeds(seed, runs)[j]``). Returns per run: whether (10) breaks at some round t <= rounds, the
    largest ratio dist_t / bound_t (t >= 1), and E0. One task of the task cache, keyed by the model's digest."""
    out = cached_map(partial(_contraction_task, model=model, m=m, r=r, rounds=rounds, runs=runs, sigma_min=sigma_min),
                     [seed], namespace="fedrep.thm1.contraction-batch",
                     params={"model": object_digest(model), "m": m, "r": r, "rounds": rounds, "runs": runs,
                             "sigma_min": float(sigma_min)})[0]
    return np.asarray(out["broken"], bool), np.asarray(out["ratio"], float), np.asarray(out["E0"], float)


def object_digest(obj) -> str:
    """SHA-256 of an object's attributes (arrays by dtype, shape and bytes; other values by repr): a cache key
    for a model or problem instance passed to a cached task."""
    h = hashlib.sha256(type(obj).__qualname__.encode())
    for k, v in sorted(vars(obj).items()):
        h.update(k.encode())
        if isinstance(v, np.ndarray):
            a = np.ascontiguousarray(v)
            h.update(f"{a.dtype}{a.shape}".encode())
            h.update(a.tobytes())
        else:
            h.update(repr(v).encode())
    return h.hexdigest()


def _contraction_task(seed, model, m, r, rounds, runs, sigma_min):
    T = np.arange(rounds + 1)
    res = run_fedrep(model.d, model.k, model.n, m, r, rounds, model=model, m_test=0, replicates=runs, seed=seed,
                     sampler="reduced")
    bound = theorem1_bound(T[None, :], res.dist[:, :1], res.eta[:, None], res.E0[:, None], sigma_min)
    broken = ~np.all(res.dist <= bound * (1 + 1e-9) + 1e-15, axis=1)
    ratio = np.max(res.dist[:, 1:] / np.maximum(bound[:, 1:], 1e-300), axis=1)
    return {"broken": broken, "ratio": ratio, "E0": np.asarray(res.E0, float)}


def bound10_violations(dist, eta, sigma_min):
    """Runs (rows of ``dist``, shape (R, T+1)) that break (10) at some round, and the worst
    ratio ``dist_t / bound_t`` over t >= 1 (1e-9 relative slack for rounding)."""
    dist = np.asarray(dist, float)
    T = np.arange(dist.shape[1])
    E0 = 1.0 - dist[:, :1] ** 2
    bound = theorem1_bound(T[None, :], dist[:, :1], np.broadcast_to(eta, E0.shape), E0, sigma_min)
    broken = ~np.all(dist <= bound * (1 + 1e-9) + 1e-15, axis=1)
    ratio = float(np.max(dist[:, 1:] / np.maximum(bound[:, 1:], 1e-300)))
    return int(broken.sum()), ratio
