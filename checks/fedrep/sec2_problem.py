"""Sec. 2.1 of FedRep (Collins, Hassani, Mokhtari and Shakkottai, 2021, ICML): the linear problem,
FedAvg's minimiser (4), the population loss (5)-(6). Verdicts come from :mod:`fedtheory.decide`."""
from __future__ import annotations

import numpy as np
from fedtheory import decide
from fedtheory.montecarlo import mc_mean
from fedtheory.random import as_generator, spawn_seeds
from fedtheory.representation import fedavg_global_error, fedavg_minimiser, make_model, run_fedavg
from . import PAPER


@PAPER.claim("fedrep.eq4.fedavg-minimiser", "Sec. 2.1, eq. (4) and the text after it",
             "(B, w) minimises (4) iff B w = B* mean(w_i*); the minimum is "
             "(1/2n) sum_i ||(1/n) B* sum_i' (w_i'* - w_i*)||^2.",
             regime="4 (quick) / 10 (full) ground truths, d=10, k=3, n=15; the best of 3 BFGS runs (gtol 1e-12) "
                    "must reach the printed minimum to 1e-6 relative and B w must equal B* mean(w*) to 1e-6 "
                    "(identities to a tolerance; a 1e-6 relative change of the printed minimum is detected)")
def _fedavg_min(full: bool, seed):
    from scipy.optimize import minimize

    trials = 10 if full else 4
    vals, closeds, prods, targets = [], [], [], []
    for s in spawn_seeds(seed, trials):
        model = make_model(10, 3, 15, seed=s)
        d, k = model.d, model.k
        theta = model.theta_star

        def f(p):
            B, w = p[: d * k].reshape(d, k), p[d * k:]
            r = B @ w - theta
            return 0.5 * np.mean(np.sum(r ** 2, 1)), np.concatenate(
                [(np.mean(r, 0)[:, None] * w[None, :]).ravel(), B.T @ np.mean(r, 0)])

        r = as_generator(s)
        best = min((minimize(f, r.standard_normal(d * k + k), jac=True, method="BFGS",
                             options={"gtol": 1e-12, "maxiter": 5000}) for _ in range(3)),
                   key=lambda o: o.fun)
        B, w = best.x[: d * k].reshape(d, k), best.x[d * k:]
        vals.append(best.fun)
        closeds.append(fedavg_global_error(model.B_star, model.W_star))
        prods.append(B @ w)
        targets.append(fedavg_minimiser(model.B_star, model.W_star))
    vals, closeds = np.array(vals), np.array(closeds)
    prods, targets = np.array(prods), np.array(targets)
    worst_val = float(np.max(np.abs(vals - closeds) / closeds))
    worst_prod = float(np.max(np.abs(prods - targets)))
    what = f"BFGS on (4) from random starts, {trials} ground truths (d=10, k=3, n=15)"
    return decide.combine([decide.identity(vals, closeds, rtol=1e-6, what=f"{what}: minimum vs the printed value"),
                           decide.identity(prods, targets, atol=1e-6, rtol=0.0,
                                           what=f"{what}: B w vs B* mean(w*)")],
                          what=what, observed={"rel_gap_minimum": worst_val, "max_product_gap": worst_prod},
                          bound={"rtol_minimum": 1e-6, "atol_product": 1e-6},
                          params={"trials": trials, "d": 10, "k": 3, "n": 15})


# ----------------------------------------------------------------------------- Monte Carlo
@PAPER.claim("fedrep.eq6.population-loss", "Sec. 2.1 and eqs. (5)-(6) under Assumption 1",
             "f_i(w, B) = (1/2) E[(y - w^T B^T x)^2] = (1/2)||B w - B* w*||^2 (+ sigma^2/2 with label "
             "noise), for Gaussian and for Rademacher x.",
             regime="Assumption 1 (E x = 0, Cov x = I): Gaussian and Rademacher x, d=8, k=2, sigma=0.3, one "
                    "random (B, w); Monte Carlo with 2e5 (quick) / 1e6 (full) samples against the closed form "
                    "(two-sided z tests at the claim level, Bonferroni over the 2 designs)")
def _pop_loss(full: bool, seed):
    s_model, s_mc = spawn_seeds(seed, 2)
    rng = as_generator(s_model)
    d, k, sigma = 8, 2, 0.3
    model = make_model(d, k, 1, sigma=sigma, seed=s_model)
    B = rng.standard_normal((d, k))
    w = rng.standard_normal(k)
    theta, v = model.theta_star[0], B @ w

    def sampler(g, size):
        xg = g.standard_normal((size, d))
        xr = g.integers(0, 2, (size, d)).astype(float) * 2 - 1
        e = sigma * g.standard_normal((size, 2))
        return np.stack([0.5 * (xg @ (theta - v) + e[:, 0]) ** 2,
                         0.5 * (xr @ (theta - v) + e[:, 1]) ** 2], axis=1)

    n = 1_000_000 if full else 200_000
    est = mc_mean(sampler, n, s_mc, chunk=50_000)
    closed = 0.5 * float(np.sum((v - theta) ** 2)) + 0.5 * sigma ** 2
    out = decide.agreement(est, np.array([closed, closed]), what="MC of (1/2)(y - w^T B^T x)^2 "
                           "(Gaussian, Rademacher) vs (1/2)||Bw - B*w*||^2 + sigma^2/2",
                           params={"d": d, "k": k, "sigma": sigma, "n_samples": n})
    out["observed"].update({"gaussian": float(est.mean[0]), "rademacher": float(est.mean[1]),
                            "se": [float(x) for x in est.se]})
    out["bound"] = closed
    return out


@PAPER.claim("fedrep.sec2.fedavg-no-recovery", "Sec. 2.1 (text after (4)); Sec. 5.1, Figure 4",
             "FedAvg reaches the minimum of (4) but its B does not recover col(B*) for k > 1 "
             "(only the direction B* mean(w*) is pinned down).",
             regime="3 (quick) / 6 (full) FedAvg runs, d=20, k=2, n=100, m=20, r=1, eta=0.1, 400 rounds. "
                    "'FedAvg reaches the minimum of (4)' read as: every run's final objective is within 5% of "
                    "(above or below) "
                    "the closed-form minimum (weak here: with heterogeneous heads the minimum is within a few % "
                    "of the objective at w = 0); 'does not recover col(B*)' as: every run's dist(B, B*) > 0.1. "
                    "Either failing is `refuted`")
def _fedavg_norec(full: bool, seed):
    runs = 6 if full else 3
    rows = []
    # one replicate batch: run j has seed spawn_seeds(seed, runs)[j] and its own ground truth
    for res in run_fedavg(d=20, k=2, n=100, m=20, r=1.0, rounds=400, eta=0.1, m_test=0, replicates=runs, seed=seed):
        opt = fedavg_global_error(res.model.B_star, res.model.W_star)
        rows.append((abs(res.objective[-1] / opt - 1), res.dist[-1]))  # below the minimum is a bug too
    gap = max(r[0] for r in rows)
    dmin = min(r[1] for r in rows)
    what = f"{runs} FedAvg runs (d=20, k=2, n=100, m=20, r=1, 400 rounds)"
    return decide.combine(
        [decide.bound(gap, 0.05, what=f"{what}: relative gap of the objective to the eq.(4) minimum"),
         decide.bound(dmin, 0.1, sense=">=", of="distance threshold",
                      what=f"{what}: smallest dist(B, B*) (col(B*) not recovered)")],
        what=what, observed={"max_rel_gap_to_eq4_minimum": gap, "min_dist_B_Bstar": dmin},
        bound={"rel_gap": 0.05, "dist_lower": 0.1},
        params={"d": 20, "k": 2, "n": 100, "m": 20, "r": 1.0, "rounds": 400, "eta": 0.1})
