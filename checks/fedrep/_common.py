"""Helpers shared by the fedrep claim modules."""
from __future__ import annotations

import hashlib
import math
from functools import partial

import numpy as np

from fedtheory.parallel import cached_map
from fedtheory.representation import noise_std, run_fedrep, theorem1_bound

PAPER_NOISE = noise_std(1e-3, "std")  # Sec. 5.1 "N(., 10^-3)", read as std like the public code


def _thm1_setting(full: bool):
    return dict(d=20, k=2, n=16, r=0.5, m=20, rounds=60, runs=300 if full else 60)


# ----------------------------------------------------------------------------- figures
HEAD_LR_GRID = (0.05, 0.1, 0.2, 0.4)


# ----------------------------------------------------------------------------- power statements
def normal_quantile(p: float) -> float:
    from scipy import stats

    return float(stats.norm.ppf(p))


def se_sample_size(n: int, se: float, gap: float, level: float, power: float = 0.8, df=None,
                   n_max: int = 10 ** 7) -> int:
    """Replications needed for a one-sided test at ``level`` to detect an effect of size ``gap``
    with ``power``, when ``n`` replications give the standard error ``se`` (se ~ 1/sqrt(n)):
    the smallest ``N > n`` with ``(q_{1-level} + q_power) se sqrt(n/N) <= |gap|``, where ``q`` are
    normal quantiles, or Student-t quantiles with ``df(N)`` degrees of freedom if ``df`` is given."""
    import math

    from scipy import stats

    if gap == 0 or not math.isfinite(gap) or not math.isfinite(se):
        return n_max
    if se == 0:
        return n + 1

    def ok(N):
        if df is None:
            q = normal_quantile(1 - level) + normal_quantile(power)
        else:
            q = float(stats.t.ppf(1 - level, df(N)) + stats.t.ppf(power, df(N)))
        return q * se * math.sqrt(n / N) <= abs(gap)

    N = n + 1
    while not ok(N):
        N *= 2
        if N > n_max:
            return n_max
    lo, hi = N // 2, N
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if ok(mid) else (mid, hi)
    return max(hi, n + 1)


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


def _sweeps_needed(se: float, gap: float, level: float, df0: int = 2, points: int = 4, power: float = 0.8,
                   r_max: int = 10_000) -> int:
    """Replicated sweeps (each adding ``points`` points to the log-log fit) after which a one-sided
    t test at ``level`` detects a slope gap ``gap`` with ``power``, when one sweep gives the
    standard error ``se`` with ``df0`` residual degrees of freedom (se shrinks like 1/sqrt(R))."""
    from scipy import stats

    if gap == 0 or not np.isfinite(se) or se <= 0:
        return 1 if se == 0 and gap != 0 else r_max
    for R in range(1, r_max + 1):
        df = R * points - 2
        if (stats.t.ppf(1 - level, df) + stats.t.ppf(power, df)) * se / math.sqrt(R) <= abs(gap):
            return R
    return r_max
