"""FedAvg on the single-model objective (4): the baseline of FedRep's Section 5.1, exact and batched.

FedRep, Collins, Hassani, Mokhtari and Shakkottai, ICML 2021, eq. (4) and Sec. 5.1 (FedAvg and
FedAvg+FT, Figure 4): the two-layer model ``x -> w^T B^T x`` shared by every client. R runs advance
together (a single run is R = 1): each replicate draws its selections and batches from its own streams,
and the local steps of all replicates and selected clients are batched einsums. The other baseline,
Local Only, is :func:`~fedtheory.representation.fitting.fit_local`.
"""
from __future__ import annotations

import numpy as np

from .._validation import guard_module as _guard_module
from .._validation import check_alloc, check_bool, check_choice, check_instance, check_int, check_real
from ..linalg import _distance_to, _orthonormalize, random_orthonormal
from ..random import SeedLike, as_generator, seed_repr, spawn_seeds
from ..random import random_subsets as _subsets
from . import replicates as _replicates  # CHUNK_BYTES and the chunk size, looked up at call time
from ._checks import _check_replicates, _check_run_size, _validate_common
from ._kernels import _DistanceLog, _sample
from .fitting import EVALUATIONS, _eval_with_refit
from .model import DESIGNS, HEAD_NORMS, FedRepModel
from .replicates import FedAvgReplicates, _replicate_models
from .results import FedAvgResult

__all__ = ["run_fedavg"]


def run_fedavg(d: int = 20, k: int = 2, n: int = 100, m: int = 10, r: float = 0.1,
               rounds: int = 100, *, eta: float = 0.1, sigma: float = 0.0,
               head_norm: str = "sqrt_k", design: str = "gaussian", local_steps: int = 1,
               fresh_batches: bool = True, m_test: int = 100, model: FedRepModel | None = None,
               selection_log: list | None = None, evaluation: str = "exact", replicates: int | None = None,
               seed: SeedLike = 0) -> FedAvgResult:
    """FedAvg on the single-model objective (4) with the two-layer model ``x -> w^T B^T x``.

    FedRep, Collins et al., ICML 2021, eq. (4) and Sec. 5.1. Each selected client
    takes ``local_steps`` gradient steps on its batch loss in ``(B, w)`` from the
    shared model; the server averages. ``local_steps=1`` is FedSGD, as in the public
    code. ``B^0`` is Haar-random orthonormal and ``w^0 = 0``. If ``selection_log`` is a list, each
    round's selected clients are appended to it (used to attach a simulated clock).
    ``evaluation`` and ``m_test``: as in :func:`~fedtheory.representation.run_fedrep` (after per-client
    head fine-tuning on the final ``B``). ``replicates=R`` runs R independent runs in one vectorised pass, replicate j being
    the run with seed ``spawn_seeds(seed, R)[j]`` (its own ground truth unless ``model`` is given),
    and returns a :class:`~fedtheory.representation.replicates.FedAvgReplicates`; not with
    ``selection_log``.
    """
    d, k, n, m, n_sel, rounds = _validate_common(d, k, n, m, r, rounds, sigma)
    check_choice(evaluation, "evaluation", EVALUATIONS)
    eta = check_real(eta, "eta", 0, low_open=True)
    local_steps = check_int(local_steps, "local_steps", 1)
    m_test = check_int(m_test, "m_test", 0)
    check_choice(head_norm, "head_norm", HEAD_NORMS)
    check_choice(design, "design", DESIGNS)
    fresh_batches = check_bool(fresh_batches, "fresh_batches")
    if selection_log is not None:
        check_instance(selection_log, "selection_log", list)
    _check_run_size(d, k, n, m, n_sel, rounds, m_test, fresh_batches, local_steps=local_steps,
                    evaluation=evaluation)
    check_alloc(n_sel * m * d + n_sel * d * k, "one round's batch and per-client copies of B", m=m, d=d, k=k, n=n)
    if model is not None and not (replicates is not None and isinstance(model, (list, tuple))):
        check_instance(model, "model", FedRepModel)
        if (model.d, model.k, model.n) != (d, k, n):
            raise ValueError(f"`model` has (d, k, n)={(model.d, model.k, model.n)} but the run "
                             f"asks for {(d, k, n)}")
    if replicates is not None:
        replicates = check_int(replicates, "replicates", 1)
        if selection_log is not None:
            raise ValueError("`replicates` cannot be combined with `selection_log`: the log records one run's "
                             "selections; run single replicates to log them")
        _check_replicates(replicates, d * k + k + 2 * (rounds + 1) + n * (d + k) + d * k,
                          "R x (B, w, trajectories and ground truths)", n=n, d=d, k=k, rounds=rounds)
    R = 1 if replicates is None else replicates
    seeds = [seed] if replicates is None else spawn_seeds(seed, R)
    children = [spawn_seeds(s, 4) for s in seeds]  # model, init, run, eval
    models = _replicate_models(model, children, d=d, k=k, n=n, sigma=sigma, head_norm=head_norm, design=design)
    chunk = _replicates._fedavg_chunk_size(R, n=n, n_sel=n_sel, m=m, d=d, k=k, fresh_batches=fresh_batches)
    parts = [_fedavg_core(models[a:a + chunk], children[a:a + chunk], n_sel=n_sel, m=m, rounds=rounds, eta=eta,
                          local_steps=local_steps, fresh_batches=fresh_batches, selection_log=selection_log)
             for a in range(0, R, chunk)]
    out = {key: parts[0][key] if len(parts) == 1 else np.concatenate([p[key] for p in parts])
           for key in ("dist", "objective", "B", "w")}
    eval_mse = [_eval_with_refit(mod, out["B"][j], m, m_test, as_generator(ch[3]), evaluation)
                for j, (mod, ch) in enumerate(zip(models, children))]
    params = dict(algorithm="FedAvg", d=d, k=k, n=n, m=m, r=r, n_sel=n_sel, rounds=rounds, eta=eta, sigma=sigma,
                  local_steps=local_steps, head_norm=models[0].head_norm, fresh_batches=fresh_batches,
                  m_test=m_test, evaluation=evaluation)
    if replicates is None:
        return FedAvgResult(dist=out["dist"][0], objective=out["objective"][0], B=out["B"][0], w=out["w"][0],
                            eval_mse=eval_mse[0], params={**params, "seed": seed_repr(seed)}, model=models[0])
    params.update(replicates=R, replicate_seed=seed_repr(seed), chunk=chunk)
    return FedAvgReplicates(eval_mse=np.array(eval_mse), params=params, models=tuple(models), seeds=tuple(seeds),
                            **out)


def _fedavg_core(models, children, *, n_sel, m, rounds, eta, local_steps, fresh_batches, selection_log=None) -> dict:
    """The rounds of R FedAvg runs at once (R = ``len(models)``; one run per model, with the init and
    run streams of ``children[j]`` = (model, init, run, eval) seeds). Per-replicate draws in stream
    order, then the algebra batched over the replicates and the selected clients. Returns ``dist``
    and ``objective`` (R, rounds+1), ``B`` (R, d, k) and ``w`` (R, k)."""
    R = len(models)
    d, k, n, sigma = models[0].d, models[0].k, models[0].n, models[0].sigma
    theta = np.stack([mod.theta_star for mod in models])
    B_star = np.stack([mod.B_star for mod in models])
    B = np.stack([random_orthonormal(as_generator(ch[1]), d, k) for ch in children])
    w = np.zeros((R, k))
    rngs = [as_generator(ch[2]) for ch in children]
    if not fresh_batches:
        data = [mod.sample(g, np.arange(n), m) for mod, g in zip(models, rngs)]
        X_all, y_all = np.stack([x for x, _ in data]), np.stack([y for _, y in data])
        del data
    rows = np.arange(R)[:, None]
    dist = np.empty((R, rounds + 1))
    obj = np.empty((R, rounds + 1))

    def objective4(B, w):  # (4): (1/2n) sum_i ||B w - theta_i||^2 + sigma^2/2
        return 0.5 * np.mean(np.sum(((B @ w[..., None])[..., None, :, 0] - theta) ** 2, axis=-1), axis=-1) \
            + 0.5 * sigma ** 2

    Q_star = _orthonormalize(B_star)  # once (the same bits as principal_angle_distance)
    dist[:, 0], obj[:, 0] = _distance_to(Q_star, B), objective4(B, w)
    distances = _DistanceLog(Q_star, dist, rounds)
    for t in range(rounds):
        sel = _subsets(rngs, n, n_sel)
        if selection_log is not None:
            selection_log.append(sel[0])
        if fresh_batches:
            draws = [_sample(mod, th, g, s_, m) for mod, th, g, s_ in zip(models, theta, rngs, sel)]
            X, y = np.stack([x for x, _ in draws]), np.stack([y_ for _, y_ in draws])
        else:
            X, y = X_all[rows, sel], y_all[rows, sel]
        Bc = np.broadcast_to(B[:, None], (R, n_sel, d, k)).copy()
        wc = np.broadcast_to(w[:, None], (R, n_sel, k)).copy()
        for _ in range(local_steps):
            A = X @ Bc
            res = np.einsum("...cmk,...ck->...cm", A, wc) - y
            gw = np.einsum("...cmk,...cm->...ck", A, res) / m
            gB = np.einsum("...cmd,...cm->...cd", X, res)[..., :, None] * wc[..., None, :] / m  # (X^T res) w^T
            wc, Bc = wc - eta * gw, Bc - eta * gB
        B, w = Bc.mean(axis=1), wc.mean(axis=1)
        if not (np.all(np.isfinite(B)) and np.all(np.isfinite(w))):
            raise ValueError(f"FedAvg overflowed float64 at round {t + 1} (diverged): the step `eta`={eta:g} "
                             f"is too large for this problem (noise `sigma`={sigma:g})")
        obj[:, t + 1] = objective4(B, w)
        if not np.all(np.isfinite(obj[:, t + 1])):
            raise ValueError(f"FedAvg overflowed float64 at round {t + 1} (diverged): the step `eta`={eta:g} "
                             f"is too large for this problem (noise `sigma`={sigma:g})")
        distances.add(B)
    distances.flush()
    return dict(dist=dist, objective=obj, B=B, w=w)


# every public function turns float64 overflows, linear-algebra failures and broadcasting errors
# into ValueErrors naming its parameters (fedtheory._validation.guard_numeric_errors)
_guard_module(globals(), __all__)
