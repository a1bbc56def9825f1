"""Helpers shared by the srpfl claim modules."""
from __future__ import annotations

import numpy as np
from fedtheory.random import spawn_seeds
from fedtheory.srpfl import run_srpfl

POW2 = [2 ** p for p in range(3, 17)]  # N = 8 .. 65536


def _runs(full, seed, *, sigma=0.5, record=False, seeds=None, **kw):
    seeds = seeds or (6 if full else 2)
    p = dict(d=50, k=3, M=64, N=64, n0=4, m=30, sigma=sigma, speeds="fixed", stage_lengths=25,
             rounds=150)
    p.update(kw)
    return [run_srpfl(**p, record_identities=record, seed=s) for s in spawn_seeds(seed, seeds)], p


def _wishart_min_eig(g, reps, n, m, k):
    """sigma_min((1/m) G^T G), G (m x k) Gaussian, via the Bartlett decomposition (exact in law)."""
    L = np.zeros((reps, n, k, k))
    idx = np.arange(k)
    L[..., idx, idx] = np.sqrt(g.chisquare(m - idx, size=(reps, n, k)))
    low = np.tril_indices(k, -1)
    L[..., low[0], low[1]] = g.standard_normal((reps, n, low[0].size))
    return np.linalg.eigvalsh(L @ np.swapaxes(L, -1, -2) / m)[..., 0]


def _grid():
    return [(N, a, c, ch) for N in (64, 256, 1024, 4096) for a in (0.01, 0.05, 0.2)
            for c in (0.0, 10.0, 100.0) for ch in (1.05, 1.2, 1.35)]
