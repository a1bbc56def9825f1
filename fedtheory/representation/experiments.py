"""Multi-seed experiments behind FedRep's figures and the empirical claims.

Each function returns plain arrays (replications along axis 0) so that the
claim catalogue (``checks/fedrep.py``) and the figure scripts
(``paper_reproductions/fedrep.py``) share one computation. Runs for different
seeds are independent tasks on spawned streams, so any backend gives the same
numbers.
"""
from __future__ import annotations

from functools import partial

import numpy as np

from ..parallel import cached_map
from ..random import SeedLike, as_generator, spawn_seeds
from .algorithms import (fit_local, new_client_mse, run_altgd, run_fedavg, run_fedrep,
                         test_mse)
from .model import client_diversity, make_model, n_selected
from .theory import theorem1_bound

__all__ = ["fig1_data", "fig3_data", "fig4_data", "smallest_m", "theorem1_runs"]


def _fig1_task(ss, d, k, n, ms, r, rounds, sigma, head_norm, eta_fedavg):
    s_model, s_runs = spawn_seeds(ss, 2)
    out = {"FedRep": [], "FedAvg": [], "Local": []}
    model = make_model(d, k, n, sigma=sigma, head_norm=head_norm, seed=s_model)
    for m, sm in zip(ms, spawn_seeds(s_runs, len(ms))):
        a, b, c = spawn_seeds(sm, 3)
        out["FedRep"].append(run_fedrep(d, k, n, m, r, rounds, model=model, seed=a).eval_mse)
        out["FedAvg"].append(run_fedavg(d, k, n, m, r, rounds, eta=eta_fedavg, model=model,
                                        seed=b).eval_mse)
        rng = as_generator(c)
        X, y = model.sample(rng, np.arange(n), m)
        out["Local"].append(test_mse(model, fit_local(X, y), rng, 100))
    return out


def fig1_data(ms=(5, 10, 20), *, d=20, k=2, n=100, r=1.0, rounds=200, sigma=1e-3,
              head_norm="sqrt_k", eta_fedavg=0.05, seeds=5, seed: SeedLike = 0,
              backend=None) -> dict:
    """Local test MSE of FedRep, FedAvg(+FT) and Local Only against ``m`` (FedRep Fig. 1).

    Returns ``{method: array (seeds, len(ms))}``.
    """
    task = partial(_fig1_task, d=d, k=k, n=n, ms=list(ms), r=r, rounds=rounds, sigma=sigma,
                   head_norm=head_norm, eta_fedavg=eta_fedavg)
    res = cached_map(task, spawn_seeds(seed, seeds), namespace="fedrep.fig1_task", params=task.keywords,
                     backend=backend)
    return {key: np.array([x[key] for x in res]) for key in res[0]}


def _fig3_task(ss, d, k, n, m, r, rounds, sigma, head_norm, eta, head_lr):
    s_model, a = spawn_seeds(ss, 2)
    b = c = a  # common random numbers: the same selections and batches for every method
    model = make_model(d, k, n, sigma=sigma, head_norm=head_norm, seed=s_model)
    lr = head_lr if isinstance(head_lr, dict) else {"10GD-GD": head_lr, "GD-GD": head_lr}
    runs = {
        "FedRep": run_fedrep(d, k, n, m, r, rounds, eta=eta, model=model, m_test=0, seed=a),
        "10GD-GD": run_altgd(d, k, n, m, r, rounds, eta=eta, head_steps=10, head_lr=lr["10GD-GD"],
                             model=model, m_test=0, seed=b),
        "GD-GD": run_altgd(d, k, n, m, r, rounds, eta=eta, head_steps=1, head_lr=lr["GD-GD"],
                           model=model, m_test=0, seed=c),
    }
    n_sel = n_selected(n, r)
    div = client_diversity(model.W_star, n_sel, seed=s_model)
    fr = runs["FedRep"]
    bound = theorem1_bound(np.arange(rounds + 1), fr.dist[0], fr.eta, fr.E0, div.sigma_min)
    out = {key: v.dist for key, v in runs.items()}
    out["objective_FedRep"] = fr.objective
    out["bound"] = bound
    out["sigma_min"] = div.sigma_min
    return out


def fig3_data(ns=(10, 100, 1000, 10000), *, d=10, k=2, m=5, r=0.1, rounds=100, sigma=1e-3,
              head_norm="sqrt_k", eta=None, head_lr=0.5, seeds=5, seed: SeedLike = 0,
              backend=None) -> dict:
    """dist trajectories of FedRep, 10GD-GD and GD-GD for each ``n`` (FedRep Fig. 3).

    Returns ``{n: {method: array (seeds, rounds+1), "bound": ..., "sigma_min": ...}}``.
    ``eta`` defaults to ``1/(4k)`` (Theorem 1's admissible step under Assumption 3)
    for every method; the head step of the GD methods is ``head_lr`` (a float, or a dict
    ``{"10GD-GD": ..., "GD-GD": ...}``).
    """
    eta = 1.0 / (4 * k) if eta is None else eta
    out = {}
    for n, sn in zip(ns, spawn_seeds(seed, len(ns))):
        task = partial(_fig3_task, d=d, k=k, n=n, m=m, r=r, rounds=rounds, sigma=sigma,
                       head_norm=head_norm, eta=eta, head_lr=head_lr)
        res = cached_map(task, spawn_seeds(sn, seeds), namespace="fedrep.fig3_task", params=task.keywords,
                         backend=backend)
        out[n] = {key: np.array([x[key] for x in res]) for key in res[0]}
    return out


def _fig4_task(ss, d, k, n, m, r, rounds, sigma, head_norm, m_news, n_new, eta_fedavg):
    s_model, a, b, c = spawn_seeds(ss, 4)
    model = make_model(d, k, n, sigma=sigma, head_norm=head_norm, seed=s_model)
    fr = run_fedrep(d, k, n, m, r, rounds, model=model, m_test=0, seed=a)
    fa = run_fedavg(d, k, n, m, r, rounds, eta=eta_fedavg, model=model, m_test=0, seed=b)
    out = {"FedRep": [], "FedAvg": [], "Local": [], "Oracle": []}
    for m_new, sm in zip(m_news, spawn_seeds(c, len(m_news))):
        kw = dict(d=d, k=k, n_new=n_new, sigma=sigma, head_norm=head_norm, B_star=model.B_star,
                  seed=sm)
        # the same seed for each method: the same new clients and samples
        out["FedRep"].append(new_client_mse(fr.B, m_new, **kw).mean())
        out["FedAvg"].append(new_client_mse(fa.B, m_new, **kw).mean())
        out["Local"].append(new_client_mse(None, m_new, **kw).mean())
        out["Oracle"].append(new_client_mse(model.B_star, m_new, **kw).mean())
    out["dist_FedRep"] = fr.dist[-1]
    out["dist_FedAvg"] = fa.dist[-1]
    return out


def fig4_data(m_news=(1, 2, 3, 5, 10, 20, 40), *, d=20, k=2, n=100, m=10, r=0.1, rounds=200,
              sigma=1e-3, head_norm="sqrt_k", n_new=100, eta_fedavg=0.05, seeds=5,
              seed: SeedLike = 0, backend=None) -> dict:
    """New-client MSE after head fitting on ``m_new`` samples (FedRep Fig. 4).

    Methods: FedRep's learned ``B``, FedAvg's learned ``B``, Local Only (``d``-dim
    ridge), and the oracle ``B*``. Returns ``{method: array (seeds, len(m_news))}``.
    """
    task = partial(_fig4_task, d=d, k=k, n=n, m=m, r=r, rounds=rounds, sigma=sigma,
                   head_norm=head_norm, m_news=list(m_news), n_new=n_new, eta_fedavg=eta_fedavg)
    res = cached_map(task, spawn_seeds(seed, seeds), namespace="fedrep.fig4_task", params=task.keywords,
                     backend=backend)
    return {key: np.array([x[key] for x in res]) for key in res[0]}


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
