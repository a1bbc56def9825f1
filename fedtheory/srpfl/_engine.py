"""The exact FedRep-SRPFL engine: R runs on simulated clocks, batched; a single run is R = 1.

SRPFL (Tziotis, Shen, Pedarsani, Hassani and Mokhtari, TMLR), Algorithm 2 [arXiv: "SRPFL in Linear
Representation"]: stages r = 0, 1, ...; in stage r the server samples N of the M clients (once per stage,
Remark 3.2, or every round), waits for the ``n_r = min(N, 2^r n0)`` fastest, and runs one FedRep round on
them (fresh batch, exact head, one gradient step on B, average, QR; Collins et al., ICML 2021,
Algorithm 2). A round costs the n_r-th smallest of the N sampled compute times plus ``C = c / lam``.

Each replicate draws its clients, compute times and batches from its own streams in a Python loop, in
the order of a single run, on its own ground truth ``(B*, W*)`` and compute-time model (stacked as (R, d, k) and
(R, M, k): one shared model or one per replicate); the algebra of all R rounds is one call of FedRep's batched
kernels (:mod:`fedtheory.representation._kernels`; with per-client batch sizes, Appendix C's imbalanced datasets,
the zero-padded rounds of :mod:`fedtheory.srpfl._batch_sizes`), with stacked principal-angle distances (Definition 1) and
stacked ``sigma_min(W*_I / sqrt(n))`` for Theorem 4.7's ``a_t``. Replicates run in memory chunks
(:func:`fedtheory.srpfl.replicates._chunk_size`), which do not change the numbers. The engine takes the
validated inputs of :func:`fedtheory.srpfl.run_srpfl`; inside the rounds nothing is validated again.
"""
from __future__ import annotations

import math

import numpy as np

from ..linalg import _distance_to, _orthonormalize
from ..random import as_generator
from ..representation._kernels import _DistanceLog, _fit_heads, _reduced_from_draws, _round_from_features, _sample
from ..representation.results import RoundResult
from . import _batch_sizes
from . import replicates as _replicates  # CHUNK_BYTES and the chunk size, looked up at call time
from .theory import stage_rounds

_KEYS = ("dist", "wall_clock", "participants", "stage", "a", "bound", "mse", "E0", "rounds_run")


class _Stages:
    """The stage schedule of Algorithm 2: stage r aggregates ``sizes[r]`` clients; a non-final stage ends
    after ``lengths[r]`` rounds or, with Lemma B.1's schedule (``a_stage`` given), stage 0 once
    ``dist <= switch`` (eq. (206)) and stage r >= 1 after ``ceil(t^r)`` rounds (eq. (203)), evaluated once
    per stage. The last stage runs to the end."""

    def __init__(self, sizes, lengths=None, *, switch=None, a_stage=None, N=None, n0=None, lam=None):
        self.sizes, self.lengths, self.switch = list(sizes), lengths, switch
        self._lemma = (a_stage, N, n0, lam)
        self._limits: dict = {}

    def done(self, r: int, in_stage: int, dist) -> bool:
        """Whether stage r ends before the next round (``dist``: the distances before it; one replicate
        where the stage ends on the distance)."""
        if r == len(self.sizes) - 1:
            return False
        if self.lengths is not None:
            return in_stage >= self.lengths[r]
        if r == 0:
            return bool(dist[0] <= self.switch)
        if r not in self._limits:
            self._limits[r] = math.ceil(stage_rounds(r, *self._lemma))
        return in_stage >= self._limits[r]


def _exact_mse(model, B, m, rng, theta=None) -> float:
    """All M clients fit heads on ``B`` from ``m`` fresh samples; the exact expected test MSE
    ``mean_i ||B w_i - theta_i||^2 + sigma^2`` (isotropic x), given ``theta = W* B*^T`` if known."""
    theta = model.theta_star if theta is None else theta
    X, y = _sample(model, theta, rng, np.arange(model.n), m)
    W = _fit_heads(X @ B, y, ridge=1e-12)
    return float(np.mean(np.sum((W @ B.T - theta) ** 2, axis=1))) + model.sigma ** 2


def _exact_mse_reduced(B, B_star, theta, sigma, m, rngs) -> np.ndarray:
    """:func:`_exact_mse` of R replicates drawn from its exact law (isotropic Gaussian rows, ``d >= 2k``): client
    i's refit uses its features only through ``a_i = X_i U`` (``U`` an orthonormal basis of ``span[B, B*]``, so
    ``X_i B = a_i U^T B`` and ``X_i theta_i = a_i U^T theta_i``), ``m x 2k`` standard normals instead of ``m x d``
    (the reduction of :func:`fedtheory.representation.fedrep_round_reduced`). ``B``, ``B_star`` (R, d, k),
    ``theta`` (R, M, d); replicate j draws its ``a`` (M, m, 2k), then its noise (M, m), from ``rngs[j]``; the
    heads of all replicates are one batched solve (ridge 1e-12, as :func:`_exact_mse`). Returns (R,)."""
    R, M = theta.shape[:2]
    k = B.shape[-1]
    U, _ = np.linalg.qr(np.concatenate([B, B_star], axis=-1))
    Ut_ = np.swapaxes(U, -1, -2)
    a = np.empty((R, M, m, 2 * k))
    y = np.empty((R, M, m))
    for j, g in enumerate(rngs):
        g.standard_normal(out=a[j])
        y[j] = np.einsum("cmq,cq->cm", a[j], theta[j] @ U[j])
        if sigma > 0:
            y[j] += sigma * g.standard_normal((M, m))
    A = a @ (Ut_ @ B)[:, None, :, :]
    W = _fit_heads(A.reshape(-1, m, k), y.reshape(-1, m), ridge=1e-12).reshape(R, M, k)
    return np.mean(np.sum((W @ np.swapaxes(B, -1, -2) - theta) ** 2, axis=-1), axis=-1) + sigma ** 2


def _evaluate(models, B, B_star, theta, m, rngs, sampler) -> np.ndarray:
    """The exact test MSE of every replicate (:func:`_exact_mse`, or its reduced law with the reduced sampler)."""
    if sampler == "reduced":
        return _exact_mse_reduced(B, B_star, theta, models[0].sigma, m, rngs)
    return np.array([_exact_mse(mod, B[j], m, rngs[j], theta[j]) for j, mod in enumerate(models)])


def _run_batch(models, sps, B0, children, etas, *, M, N, n0, m, C, stages, rounds, resample, carry, eval_every,
               sampler, target=None, on_round=None, in_batch=True, m_i=None, target_metric="dist") -> dict:
    """The rounds of R FedRep-SRPFL runs (``R = len(models)``).

    ``sps`` are the replicates' compute-time models, ``B0`` (R, d, k) their initial representations,
    ``children[j]`` replicate j's six seeds (model, speed, init, run, time, evaluation; the last three are
    used here), ``etas`` (R,) the steps and ``stages`` a :class:`_Stages`. ``on_round(B, X, y, sel, rnd)``
    is called after every round of a single run (R = 1, full sampler) with its input ``B``, batch, selected
    clients and :class:`~fedtheory.representation.results.RoundResult`. ``in_batch`` names the replicate in
    the messages. ``m_i`` (R, M), optional, holds per-client batch sizes (then ``m`` is their maximum; no
    ``on_round`` nor ``eval_every``); ``target_metric`` (``"dist"`` or ``"mse"``) is what ``target`` stops on.
    Returns the padded arrays of :class:`~fedtheory.srpfl.replicates.SRPFLReplicates`
    (``dist`` ... ``rounds_run``) and ``chunk``.
    """
    R = len(models)
    d, k = models[0].d, models[0].k
    chunk = _replicates._chunk_size(R, M=M, N=N, m=m, d=d, k=k, sampler=sampler)
    parts = []
    for start in range(0, R, chunk):
        part = slice(start, min(R, start + chunk))
        parts.append(_run_chunk(models[part], sps[part], B0[part], children[part], etas[part], M=M, N=N, n0=n0,
                                m=m, C=C, stages=stages, rounds=rounds, resample=resample, carry=carry,
                                eval_every=eval_every, sampler=sampler, target=target, on_round=on_round,
                                first=start if in_batch else None, m_i=None if m_i is None else m_i[part],
                                target_metric=target_metric))
    out = {key: parts[0][key] if len(parts) == 1 else np.concatenate([p[key] for p in parts]) for key in _KEYS}
    out["chunk"] = chunk
    return out


def _run_chunk(models, sps, B0, children, etas, *, M, N, n0, m, C, stages, rounds, resample, carry, eval_every,
               sampler, target, on_round, first, m_i=None, target_metric="dist") -> dict:
    """Rounds of one chunk of replicates (chunk rows of :func:`_run_batch`'s arrays).

    With ``target`` a replicate stops before round t once ``dist_t <= target`` (``target_metric="mse"``: once the
    test MSE evaluated after round t - 1 is ``<= target``); the running replicates'
    state (iterates, ground truths, steps, streams, sampled clients) is kept compacted to the running
    ones, ``live`` mapping its rows to chunk rows. ``first`` is the chunk's first replicate (None for a
    single run), for messages."""
    Rc = len(models)
    k, sigma = models[0].k, models[0].sigma
    B_star = np.stack([mod.B_star for mod in models])
    W_star = np.stack([mod.W_star for mod in models])
    theta = np.stack([mod.theta_star for mod in models])
    Q_star = _orthonormalize(B_star)  # once, not every round (the same bits as principal_angle_distance)
    B = np.array(B0)
    rngs = [as_generator(ch[3]) for ch in children]
    rngs_t = [as_generator(ch[4]) for ch in children]
    rngs_e = [as_generator(ch[5]) for ch in children]
    dist = np.full((Rc, rounds + 1), math.nan)
    clock = np.full((Rc, rounds + 1), math.nan)
    clock[:, 0] = 0.0
    mse = np.full((Rc, rounds + 1), math.nan)
    a_arr = np.full((Rc, rounds), math.nan)
    bound = np.full((Rc, rounds), math.nan)
    parts = np.zeros((Rc, rounds), dtype=int)
    stage = np.full((Rc, rounds), -1)
    rounds_run = np.full(Rc, rounds, dtype=int)
    dist[:, 0] = _distance_to(Q_star, B)
    E0_full = np.array([1.0 - float(v) ** 2 for v in dist[:, 0]])  # the scalar arithmetic of Theorem 4.7's E0
    E0 = E0_full
    if eval_every:
        mse[:, 0] = _evaluate(models, B, B_star, theta, m, rngs_e, sampler)
    # without a target or a stage ending on the distance, no decision reads dist_t inside the rounds: the
    # distances are computed in blocks of rounds, and Theorem 4.7's bounds after the last round
    distances = _DistanceLog(Q_star, dist, rounds) if target is None and stages.lengths is not None else None
    live = np.arange(Rc)  # chunk rows of the running replicates (the rows of the compacted state)
    rows = live[:, None]
    bufs: dict = {}
    r, in_stage, active, B_bar_prev = 0, 0, None, None
    for t in range(rounds):
        if target is not None:
            with np.errstate(invalid="ignore"):  # NaN: the MSE is not evaluated before every round
                stop = (dist if target_metric == "dist" else mse)[live, t] <= target  # before the round
            if stop.any():
                rounds_run[live[stop]] = t
                keep = ~stop
                live = live[keep]
                if live.size == 0:
                    break
                # compact the running state (only when replicates stop: other rounds pay nothing)
                B, B_star, Q_star, W_star, theta = B[keep], B_star[keep], Q_star[keep], W_star[keep], theta[keep]
                etas, E0 = etas[keep], E0[keep]
                if m_i is not None:
                    m_i = m_i[keep]
                if B_bar_prev is not None:
                    B_bar_prev = B_bar_prev[keep]
                if active is not None:
                    active = active[keep]
                kept = np.flatnonzero(keep).tolist()
                models, sps = [models[j] for j in kept], [sps[j] for j in kept]
                rngs, rngs_t, rngs_e = [rngs[j] for j in kept], [rngs_t[j] for j in kept], [rngs_e[j] for j in kept]
                rows = np.arange(live.size)[:, None]
                bufs.clear()
        if stages.done(r, in_stage, dist[live, t]):  # stage switching
            r, in_stage, active = r + 1, 0, None
            if carry == "pre_qr":
                B = B_bar_prev  # Algorithm 2, line 16 as printed: U <- B_bar (not orthonormal)
        if active is None or resample == "round":
            active = np.stack([g.choice(M, size=N, replace=False) for g in rngs])
        times = np.stack([sp.draw(g, active[j]) for j, (sp, g) in enumerate(zip(sps, rngs_t))])
        n = stages.sizes[r]
        order = np.argsort(times, axis=1, kind="stable")
        sel = np.take_along_axis(active, order[:, :n], axis=1)
        round_time = times[rows[:, 0], order[:, n - 1]] + C
        rnd = _round(B, B_star, theta, models, rngs, sel, etas, m=m, sigma=sigma, sampler=sampler, bufs=bufs,
                     on_round=on_round, m_sel=None if m_i is None else np.take_along_axis(m_i, sel, axis=1))
        B, B_bar_prev = rnd.B_next, rnd.B_bar
        a_t = _theorem47_a(W_star[rows, sel], n, k, etas, E0)
        if np.any(a_t >= 1):
            j = int(np.flatnonzero(a_t >= 1)[0])
            which = "" if first is None else f" (replicate {first + int(live[j])} of `replicates`)"
            raise ValueError(f"the step `eta`={etas[j]:g} gives a_t = eta E0 sigma_min^2/2 = {a_t[j]:.4g} >= 1 at "
                             f"round {t}{which}; Theorem 4.7 needs eta <= 1/(8 sigma_max,*^2) (the default)")
        a_arr[live, t] = a_t
        if distances is None:
            bound[live, t] = _contraction_bound(dist[live, t], a_t, n / n0)
            dist[live, t + 1] = _distance_to(Q_star, B)
        else:
            distances.add(B)
        clock[live, t + 1] = clock[live, t] + round_time
        parts[live, t], stage[live, t] = n, r
        if eval_every and (t + 1) % eval_every == 0:
            mse[live, t + 1] = _evaluate(models, B, B_star, theta, m, rngs_e, sampler)
        in_stage += 1
    if distances is not None:  # every replicate ran every round
        distances.flush()
        bound[:] = _contraction_bound(dist[:, :-1], a_arr, parts / n0)
    return dict(dist=dist, wall_clock=clock, participants=parts, stage=stage, a=a_arr, bound=bound, mse=mse,
                E0=E0_full, rounds_run=rounds_run)


def _round(B, B_star, theta, models, rngs, sel, etas, *, m, sigma, sampler, bufs, on_round=None, m_sel=None):
    """One FedRep round of every running replicate on its ``n = sel.shape[1]`` fastest clients.

    Each replicate draws, from its run stream, its batch in the order of
    :meth:`~fedtheory.representation.model.FedRepModel.sample` (full sampler; the labels ``X_i theta_i``
    formed per replicate) or the normals of the round's exact law in the order of
    :func:`~fedtheory.representation.fedrep_round_reduced` (reduced sampler), into the buffers ``bufs``
    (kept per ``n``); then one call of FedRep's batched kernel. ``on_round`` (a single run, full sampler)
    receives the round's input ``B``, batch, selected clients and result. ``m_sel`` (R, n): the participants'
    batch sizes (:func:`_padded_round`; ``m`` is then their largest)."""
    if m_sel is not None:
        return _padded_round(B, B_star, theta, models, rngs, sel, etas, m_sel, m=m, sigma=sigma, sampler=sampler,
                             bufs=bufs)
    Rl, n = sel.shape
    d, k = B.shape[-2:]
    rows = np.arange(Rl)[:, None]
    if n not in bufs:
        bufs.clear()
        if sampler == "reduced":
            bufs[n] = (np.empty((Rl, n, m, 2 * k)), np.empty((Rl, n, m)) if sigma > 0 else None,
                       np.empty((Rl, d, k)))
        else:
            bufs[n] = (np.empty((Rl, n * m, d)), np.empty((Rl, n, m)), np.empty((Rl, n, m)) if sigma > 0 else None)
    if sampler == "reduced":
        a, noise, Np = bufs[n]
        for j, g in enumerate(rngs):
            g.standard_normal(out=a[j])
            if noise is not None:
                g.standard_normal(out=noise[j])
            g.standard_normal(out=Np[j])
        return _reduced_from_draws(B, B_star, theta[rows, sel], sigma, a, noise, Np, etas)
    X, y, noise = bufs[n]
    gaussian = models[0].design == "gaussian"
    for j, (mod, g) in enumerate(zip(models, rngs)):
        if gaussian:
            g.standard_normal(out=X[j])
        else:
            X[j] = mod.draw_x(g, (n * m,))
        y[j] = np.einsum("cmd,cd->cm", X[j].reshape(n, m, d), theta[j][sel[j]])
        if noise is not None:
            g.standard_normal(out=noise[j])
    if noise is not None:
        y += sigma * noise
    rnd = _round_from_features(B, X, (X @ B).reshape(Rl, n, m, k), y, etas)
    if on_round is not None:
        on_round(B[0], X[0].reshape(n, m, d), y[0], sel[0], RoundResult(*(f[0] for f in rnd)))
    return rnd


def _padded_round(B, B_star, theta, models, rngs, sel, etas, m_sel, *, m, sigma, sampler, bufs):
    """One round with per-client batch sizes ``m_sel`` (R, n) of every running replicate: each replicate draws
    from its run stream, participant by participant, its ``m_i`` rows (full sampler: the features, then the
    noise; reduced: the normals ``a_i``, the noise, then ``Np``) into zero-padded buffers of ``m = max m_i`` rows,
    then one call of :mod:`fedtheory.srpfl._batch_sizes`'s weighted round."""
    Rl, n = sel.shape
    d, k = B.shape[-2:]
    rows = np.arange(Rl)[:, None]
    key = ("padded", n)
    if key not in bufs:
        bufs.clear()
        width = 2 * k if sampler == "reduced" else d
        bufs[key] = (np.empty((Rl, n, m, width)), np.zeros((Rl, n, m)), np.empty((Rl, d, k)), np.empty((Rl, n, m)))
    feats, noise, Np, y = bufs[key]
    mask = _batch_sizes.row_masks(m_sel, m)
    for j, g in enumerate(rngs):
        if sampler == "reduced" or models[j].design == "gaussian":
            _batch_sizes.draw_padded(g, mask[j], feats[j])
        else:
            feats[j].fill(0.0)
            feats[j][mask[j]] = models[j].draw_x(g, (int(np.count_nonzero(mask[j])),))
        if sigma > 0:
            _batch_sizes.draw_padded(g, mask[j], noise[j])
        if sampler == "reduced":
            g.standard_normal(out=Np[j])
    if sampler == "reduced":
        return _batch_sizes.weighted_round_reduced(B, B_star, theta[rows, sel], sigma, feats, noise, Np, m_sel, etas)
    for j in range(Rl):
        y[j] = np.einsum("cmd,cd->cm", feats[j], theta[j][sel[j]])
    yy = y + sigma * noise if sigma > 0 else y
    Xf = feats.reshape(Rl, n * m, d)
    return _batch_sizes.weighted_round(B, Xf, (Xf @ B).reshape(Rl, n, m, k), yy, m_sel, etas)


def _theorem47_a(W_sel, n, k, etas, E0):
    """``a_t = eta E0 sigma_min^2(W*_I / sqrt(n)) / 2`` of Theorem 4.7 per replicate (``W_sel`` (R, n, k) the
    participants' heads; 0 when ``n < k``), squaring each ``sigma_min`` as a numpy scalar."""
    sv = np.linalg.svd(W_sel / math.sqrt(n), compute_uv=False)
    s2 = np.array([v ** 2 for v in sv[:, -1]]) if n >= k else np.zeros(len(etas))
    return 0.5 * etas * E0 * s2


def _contraction_bound(dist, a, n_over_n0):
    """Theorem 4.7's right side ``dist sqrt(1-a) + a / sqrt((n/n0)(1-a))`` (eq. (10)) where ``a > 0``, and
    ``inf`` elsewhere: :func:`~fedtheory.srpfl.theory.contraction_bound` on validated arrays (``n_over_n0``
    a scalar or of the shape of ``a``), elementwise with its operations, hence its bits."""
    out = np.full(a.shape, math.inf)
    pos = a > 0
    if np.any(pos):
        ap, ratio = a[pos], np.broadcast_to(n_over_n0, a.shape)[pos]
        out[pos] = dist[pos] * np.sqrt(1 - ap) + ap / np.sqrt(ratio * (1 - ap))
    return out
