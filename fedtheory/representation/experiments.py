"""Multi-seed experiments behind FedRep's figures and the empirical claims.

Each function returns plain arrays (replications along axis 0) so that the
claim catalogue (``checks/fedrep``) and the figure scripts
(``paper_reproductions/fedrep.py``) share one computation. The runs over seeds are
replicate batches (``run_fedrep(..., replicates=R)``), each on its own spawned stream; a
figure's computation is one cached task, so every backend gives the same numbers.
"""
from __future__ import annotations

from functools import partial

import numpy as np

from ..parallel import cached_map
from ..random import SeedLike, as_generator, as_seed_sequence, spawn_seeds
from .algorithms import fit_local, new_client_mse, run_altgd, run_fedavg, run_fedrep, test_mse_exact
from .model import client_diversity, make_model, n_selected
from .theory import theorem1_bound

__all__ = ["fig1_data", "fig3_data", "fig3_dists", "fig4_data", "local_updates_data", "smallest_m", "theorem1_runs"]


def _models(d, k, n, sigma, head_norm, ss, seeds):
    """One ground truth per seed: ``make_model(..., seed=spawn_seeds(ss, seeds)[j])``."""
    return [make_model(d, k, n, sigma=sigma, head_norm=head_norm, seed=s) for s in spawn_seeds(ss, seeds)]


def _cached_batch(func, seed, namespace, params, backend):
    """The whole replicate-batched computation as one cached task (key: namespace, params, seed)."""
    return cached_map(func, [as_seed_sequence(seed)], namespace=namespace, params=params, backend=backend)[0]


def _fig1_all(ss, d, k, n, ms, r, rounds, sigma, head_norm, eta_fedavg, seeds, federated_ms=None):
    s_model, s_runs = spawn_seeds(ss, 2)
    models = _models(d, k, n, sigma, head_norm, s_model, seeds)
    out = {key: np.full((seeds, len(ms)), np.nan) for key in ("FedRep", "FedAvg", "Local")}
    for i, (m, sm) in enumerate(zip(ms, spawn_seeds(s_runs, len(ms)))):
        a, b, c = spawn_seeds(sm, 3)
        if federated_ms is None or m in federated_ms:
            out["FedRep"][:, i] = run_fedrep(d, k, n, m, r, rounds, model=models, replicates=seeds, seed=a).eval_mse
            out["FedAvg"][:, i] = run_fedavg(d, k, n, m, r, rounds, eta=eta_fedavg, model=models, replicates=seeds,
                                             seed=b).eval_mse
        for j, (model, cj) in enumerate(zip(models, spawn_seeds(c, seeds))):
            X, y = model.sample(as_generator(cj), np.arange(n), m)
            out["Local"][j, i] = test_mse_exact(model, fit_local(X, y))
    return out


def fig1_data(ms=(5, 10, 20), *, d=20, k=2, n=100, r=1.0, rounds=200, sigma=1e-3,
              head_norm="sqrt_k", eta_fedavg=0.05, seeds=5, seed: SeedLike = 0,
              backend=None, federated_ms=None) -> dict:
    """Local test MSE of FedRep, FedAvg(+FT) and Local Only against ``m`` (FedRep Fig. 1).

    Every method is evaluated exactly (population risk of the fitted predictors, :func:`test_mse_exact`)
    on ``seeds`` ground truths; the runs of each method at each ``m`` are one replicate batch.
    ``federated_ms`` (default: every ``m``) restricts the FedRep and FedAvg runs to those ``m`` (NaN
    elsewhere; each ``m`` has its own streams, so the numbers computed do not change).
    Returns ``{method: array (seeds, len(ms))}``.
    """
    kw = dict(d=d, k=k, n=n, ms=list(ms), r=r, rounds=rounds, sigma=sigma, head_norm=head_norm,
              eta_fedavg=eta_fedavg, seeds=seeds)
    if federated_ms is not None:  # (the cache key of the default stays what it was)
        kw["federated_ms"] = sorted(federated_ms)
    task = partial(_fig1_all, **kw)
    return _cached_batch(task, seed, "fedrep.fig1", task.keywords, backend)


def _fig3_all(task, d, k, m, r, rounds, sigma, head_norm, eta, head_lr, seeds):
    n, ss = task
    s_model, a = spawn_seeds(ss, 2)
    models = _models(d, k, n, sigma, head_norm, s_model, seeds)
    lr = head_lr if isinstance(head_lr, dict) else {"10GD-GD": head_lr, "GD-GD": head_lr}
    kw = dict(eta=eta, model=models, m_test=0, replicates=seeds, seed=a)  # common random numbers across methods
    runs = {
        "FedRep": run_fedrep(d, k, n, m, r, rounds, **kw),
        "10GD-GD": run_altgd(d, k, n, m, r, rounds, head_steps=10, head_lr=lr["10GD-GD"], **kw),
        "GD-GD": run_altgd(d, k, n, m, r, rounds, head_steps=1, head_lr=lr["GD-GD"], **kw),
    }
    n_sel = n_selected(n, r)
    sig = np.array([client_diversity(mod.W_star, n_sel, seed=s).sigma_min
                    for mod, s in zip(models, spawn_seeds(s_model, seeds))])
    fr = runs["FedRep"]
    out = {key: v.dist for key, v in runs.items()}
    out["objective_FedRep"] = fr.objective
    out["bound"] = theorem1_bound(np.arange(rounds + 1)[None, :], fr.dist[:, :1], fr.eta[:, None],
                                  fr.E0[:, None], sig[:, None])
    out["sigma_min"] = sig
    return out


def fig3_data(ns=(10, 100, 1000, 10000), *, d=10, k=2, m=5, r=0.1, rounds=100, sigma=1e-3,
              head_norm="sqrt_k", eta=None, head_lr=0.5, seeds=5, seed: SeedLike = 0,
              backend=None) -> dict:
    """dist trajectories of FedRep, 10GD-GD and GD-GD for each ``n`` (FedRep Fig. 3).

    Returns ``{n: {method: array (seeds, rounds+1), "bound": ..., "sigma_min": ...}}``.
    ``eta`` defaults to ``1/(4k)`` (Theorem 1's admissible step under Assumption 3)
    for every method; the head step of the GD methods is ``head_lr`` (a float, or a dict
    ``{"10GD-GD": ..., "GD-GD": ...}``). The three methods share each seed's ground truth, client
    selections and batches (common random numbers); each method's ``seeds`` runs are one replicate batch.
    """
    eta = 1.0 / (4 * k) if eta is None else eta
    task = partial(_fig3_all, d=d, k=k, m=m, r=r, rounds=rounds, sigma=sigma, head_norm=head_norm, eta=eta,
                   head_lr=head_lr, seeds=seeds)
    # one task per n (a replicate batch over the seeds): the n values run in parallel on the backend
    tasks = list(zip(ns, spawn_seeds(seed, len(ns))))
    res = cached_map(task, tasks, namespace="fedrep.fig3", params=task.keywords, backend=backend)
    return dict(zip(ns, res))


def _fig3_method_dist(task, d, k, m, r, rounds, sigma, head_norm, eta, method, head_lr, seeds):
    """One method's dist trajectories of :func:`_fig3_all` (same models, seeds and streams), nothing else."""
    n, ss = task
    s_model, a = spawn_seeds(ss, 2)
    models = _models(d, k, n, sigma, head_norm, s_model, seeds)
    kw = dict(eta=eta, model=models, m_test=0, replicates=seeds, seed=a)
    if method == "FedRep":
        return run_fedrep(d, k, n, m, r, rounds, **kw).dist
    return run_altgd(d, k, n, m, r, rounds, head_steps=10 if method == "10GD-GD" else 1, head_lr=head_lr,
                     **kw).dist


def fig3_dists(ns=(10, 100, 1000, 10000), *, d=10, k=2, m=5, r=0.1, rounds=100, sigma=1e-3,
               head_norm="sqrt_k", eta=None, head_lr=0.5, seeds=5, seed: SeedLike = 0,
               methods=("FedRep", "10GD-GD", "GD-GD"), backend=None) -> dict:
    """The dist trajectories of :func:`fig3_data` alone (the same numbers: same ground truths, seeds and
    streams per ``n``), without Theorem 1's bound and the client-diversity constants that
    :func:`fig3_data` also computes (most of its cost at large ``n``).

    Each (method, n) is its own cached task, keyed by the method and only its own head step (FedRep's
    runs do not depend on ``head_lr``), so calls that differ only in the GD head steps reuse FedRep's
    runs, and a GD method's runs at an unchanged step. Returns ``{n: {method: array (seeds, rounds+1)}}``.
    """
    eta = 1.0 / (4 * k) if eta is None else eta
    lr = head_lr if isinstance(head_lr, dict) else {"10GD-GD": head_lr, "GD-GD": head_lr}
    unknown = set(methods) - {"FedRep", "10GD-GD", "GD-GD"}
    if unknown or not methods:
        raise ValueError(f"`methods` must be a non-empty subset of FedRep, 10GD-GD, GD-GD; got {methods!r}")
    tasks = list(zip(ns, spawn_seeds(seed, len(ns))))
    out = {n: {} for n in ns}
    for method in methods:
        task = partial(_fig3_method_dist, d=d, k=k, m=m, r=r, rounds=rounds, sigma=sigma, head_norm=head_norm,
                       eta=eta, method=method, head_lr=None if method == "FedRep" else float(lr[method]),
                       seeds=seeds)
        res = cached_map(task, tasks, namespace="fedrep.fig3-dist", params=task.keywords, backend=backend)
        for n, v in zip(ns, res):
            out[n][method] = v
    return out


def _fig4_all(ss, d, k, n, m, r, rounds, sigma, head_norm, m_news, n_new, eta_fedavg, seeds):
    s_model, a, b, c = spawn_seeds(ss, 4)
    models = _models(d, k, n, sigma, head_norm, s_model, seeds)
    fr = run_fedrep(d, k, n, m, r, rounds, model=models, m_test=0, replicates=seeds, seed=a)
    fa = run_fedavg(d, k, n, m, r, rounds, eta=eta_fedavg, model=models, m_test=0, replicates=seeds, seed=b)
    out = {key: np.empty((seeds, len(m_news))) for key in ("FedRep", "FedAvg", "Local", "Oracle")}
    for j, (model, cj) in enumerate(zip(models, spawn_seeds(c, seeds))):
        for i, (m_new, sm) in enumerate(zip(m_news, spawn_seeds(cj, len(m_news)))):
            kw = dict(d=d, k=k, n_new=n_new, sigma=sigma, head_norm=head_norm, B_star=model.B_star, seed=sm)
            # the same seed for each method: the same new clients and samples
            out["FedRep"][j, i] = new_client_mse(fr.B[j], m_new, **kw).mean()
            out["FedAvg"][j, i] = new_client_mse(fa.B[j], m_new, **kw).mean()
            out["Local"][j, i] = new_client_mse(None, m_new, **kw).mean()
            out["Oracle"][j, i] = new_client_mse(model.B_star, m_new, **kw).mean()
    out["dist_FedRep"] = fr.dist[:, -1]
    out["dist_FedAvg"] = fa.dist[:, -1]
    return out


def fig4_data(m_news=(1, 2, 3, 5, 10, 20, 40), *, d=20, k=2, n=100, m=10, r=0.1, rounds=200,
              sigma=1e-3, head_norm="sqrt_k", n_new=100, eta_fedavg=0.05, seeds=5,
              seed: SeedLike = 0, backend=None) -> dict:
    """New-client MSE after head fitting on ``m_new`` samples (FedRep Fig. 4).

    Methods: FedRep's learned ``B``, FedAvg's learned ``B``, Local Only (``d``-dim
    ridge), and the oracle ``B*``. Returns ``{method: array (seeds, len(m_news))}``; the training
    runs of each method are one replicate batch.
    """
    task = partial(_fig4_all, d=d, k=k, n=n, m=m, r=r, rounds=rounds, sigma=sigma, head_norm=head_norm,
                   m_news=list(m_news), n_new=n_new, eta_fedavg=eta_fedavg, seeds=seeds)
    return _cached_batch(task, seed, "fedrep.fig4", task.keywords, backend)


def _local_updates_all(ss, d, k, n, m, r, taus, rounds_fedavg, rounds_fedrep, sigma, head_norm, eta_fedavg,
                       head_lr, seeds):
    s_model, a, b = spawn_seeds(ss, 3)
    models = _models(d, k, n, sigma, head_norm, s_model, seeds)
    out = {key: np.empty((seeds, len(taus))) for key in ("FedAvg_mse", "FedAvg_excess4", "FedAvg_dist",
                                                          "FedRep_dist")}
    theta_bar = np.stack([mod.theta_star.mean(axis=0) for mod in models])
    for i, tau in enumerate(taus):
        # the same seed for every tau: the same initialisations, selections and batch streams
        fa = run_fedavg(d, k, n, m, r, rounds_fedavg, eta=eta_fedavg, local_steps=tau, model=models,
                        replicates=seeds, seed=a)
        out["FedAvg_mse"][:, i] = fa.eval_mse
        out["FedAvg_dist"][:, i] = fa.dist[:, -1]
        out["FedAvg_excess4"][:, i] = 0.5 * np.sum((np.einsum("rdk,rk->rd", fa.B, fa.w) - theta_bar) ** 2, axis=1)
        fr = run_altgd(d, k, n, m, r, rounds_fedrep, head_steps=tau, head_lr=head_lr, model=models, m_test=0,
                       replicates=seeds, seed=b)
        out["FedRep_dist"][:, i] = fr.dist[:, -1]
    return out


def local_updates_data(taus=(1, 5, 20, 100), *, d=10, k=2, n=20, m=10, r=1.0, rounds_fedavg=100,
                       rounds_fedrep=50, sigma=1e-3, head_norm="sqrt_k", eta_fedavg=0.05, head_lr=0.2,
                       seeds=8, seed: SeedLike = 0, backend=None) -> dict:
    """FedAvg and FedRep against the number ``tau`` of local updates per round (FedRep Sec. 1,
    Benefit (1); Collins et al., ICML 2021, cf. Figure 5).

    FedAvg on objective (4) takes ``tau`` local GD steps on ``(B, w)`` per round (step ``eta_fedavg``);
    FedRep takes ``tau`` GD steps (step ``head_lr``) on its head, then one step on ``B`` (eta = 1/(4k)).
    Per ``tau`` and seed: FedAvg's exact local MSE after per-client head fine-tuning (FedAvg+FT),
    its excess of objective (4) over the minimum, ``(1/2)||B w - mean_i theta_i||^2``, and its final
    ``dist(B, B*)``; FedRep's final ``dist(B, B*)``. Every ``tau`` runs on the same ground truths and
    seed streams (paired). Returns ``{quantity: array (seeds, len(taus))}``; one cached task.
    """
    taus = [int(t) for t in taus]
    if not taus or min(taus) < 1:
        raise ValueError(f"`taus` must be a non-empty list of integers >= 1; got {taus!r}")
    task = partial(_local_updates_all, d=d, k=k, n=n, m=m, r=r, taus=taus, rounds_fedavg=rounds_fedavg,
                   rounds_fedrep=rounds_fedrep, sigma=sigma, head_norm=head_norm, eta_fedavg=eta_fedavg,
                   head_lr=head_lr, seeds=seeds)
    return _cached_batch(task, seed, "fedrep.local-updates", task.keywords, backend)


def _success_fraction(d, k, n, m, r, rounds, eps, seeds, seed, backend):
    """Fraction of ``seeds`` runs (one replicate batch; run j has seed ``spawn_seeds(seed, seeds)[j]``)
    that reach ``dist < eps``. ``backend`` is accepted for compatibility; the batch runs in-process."""
    res = run_fedrep(d, k, n, m, r, rounds, m_test=0, replicates=seeds, seed=seed)
    return float(np.mean(res.dist[:, -1] < eps))


def smallest_m(d: int, n: int, *, k: int = 2, r: float = 1.0, rounds: int = 150,
               eps: float = 1e-2, seeds: int = 9, level: float = 0.5, m_max: int = 4096,
               seed: SeedLike = 0, backend="serial") -> int:
    """Empirical sample complexity: the smallest batch size ``m`` at which at least
    ``level`` of ``seeds`` FedRep runs (MoM init, noiseless, default step) reach
    ``dist < eps`` within ``rounds`` rounds.

    Found by doubling then bisection over integer ``m >= k`` (assumes the success
    fraction is monotone in ``m``); every probe reuses the same seeds.
    """
    ok = lambda m: _success_fraction(d, k, n, m, r, rounds, eps, seeds, seed, backend) >= level  # noqa: E731
    lo, hi = k - 1, k
    while not ok(hi):
        lo, hi = hi, hi * 2
        if hi > m_max:
            return m_max
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return hi


def theorem1_runs(model, m: int, r: float, rounds: int, runs: int, *, seed: SeedLike = 0,
                  eta: float | None = None, backend="serial"):
    """``runs`` FedRep runs on one fixed ground truth (the probability in Theorem 1 is
    over the samples). Returns ``(dist, E0, eta)`` with ``dist`` of shape (runs, rounds+1).
    """
    res = run_fedrep(model.d, model.k, model.n, m, r, rounds, eta=eta, model=model, m_test=0,
                     replicates=runs, seed=seed)  # one batch: run j has seed spawn_seeds(seed, runs)[j]
    return res.dist, res.E0, float(res.eta[0])
