"""Sec. 4.1 of Collins, Hassani, Mokhtari and Shakkottai (2021), *Exploiting Shared Representations for Personalized
Federated Learning*, ICML 2021: Algorithm 2 (FedRep for linear regression), the head update (7), the
method-of-moments initialisation, and Algorithm 2 as printed (no QR step) against the orthonormalised iterate that
Theorem 1 analyses. Verdicts come from :mod:`fedtheory.decide`.
"""
from __future__ import annotations

import math
from functools import partial

import numpy as np
from fedtheory import decide
from fedtheory.linalg import orthonormalize, principal_angle_distance
from fedtheory.montecarlo import mc_mean
from fedtheory.parallel import cached_map
from fedtheory.random import as_generator, spawn_seeds
from fedtheory.representation import (client_diversity, fit_heads, make_model, mom_expectation, mom_init, n_selected,
                                      run_fedrep, theorem1_max_eta, theorem1_probability)
from fedtheory.representation.structure import basis_at_distance, population_fedrep_round
from ._common import bound10_violations
from . import PAPER


@PAPER.claim("fedrep.alg2.head-least-squares", "Algorithm 2 (client head update), eq. (7)",
             "The head update argmin_w f_i^t(w, B) is (B^T X^T X B)^{-1} B^T X^T y; gradient descent "
             "on (7) converges to it linearly (log(1/eps) steps).",
             regime="50 (quick) / 200 (full) random clients (m=8, d=12, k=3, orthonormal B) plus one exact sympy "
                    "case (m=3, k=2): the closed form must match lstsq and sympy to 1e-8, and GD with step "
                    "1/lambda_max must stay below (1 - 1/cond)^t ||w_0 - w*|| at every step (to 1e-6); "
                    "a violation is `refuted`")
def _head_ls(full: bool, seed):
    import sympy as sp

    rng = as_generator(seed)
    c, m, d, k = (200 if full else 50), 8, 12, 3
    B = orthonormalize(rng.standard_normal((d, k)))
    X = rng.standard_normal((c, m, d))
    y = rng.standard_normal((c, m))
    A = X @ B
    w = fit_heads(A, y)
    brute = np.array([np.linalg.lstsq(A[i], y[i], rcond=None)[0] for i in range(c)])
    d_brute = float(np.max(np.abs(w - brute)))
    # sympy: the stationarity condition of (7) in w, solved symbolically for m=3, k=2
    ws = sp.symbols("w0:2")
    As = sp.Matrix(3, 2, lambda i, j: sp.Rational(int(rng.integers(-5, 6)), int(rng.integers(1, 4))))
    ys = sp.Matrix(3, 1, lambda i, j: sp.Rational(int(rng.integers(-5, 6)), 1))
    f = sum(((ys - As * sp.Matrix(ws))[i]) ** 2 for i in range(3)) / (2 * 3)
    sol = sp.solve([sp.diff(f, wi) for wi in ws], ws, dict=True)[0]
    sym_w = np.array([float(sol[wi]) for wi in ws])
    num_w = fit_heads(np.array(As.tolist(), dtype=float)[None], np.array(ys.tolist(), dtype=float).T)[0]
    d_sympy = float(np.max(np.abs(sym_w - num_w)))
    # gradient descent on (7) with step 1/lambda_max: ||w_T - w*|| <= (1 - 1/cond)^T ||w_0 - w*||
    H = np.swapaxes(A, 1, 2) @ A / m
    lam = np.linalg.eigvalsh(H)
    step = 1.0 / lam[:, -1]
    rate = 1 - lam[:, 0] / lam[:, -1]  # per-client contraction factor of GD on a quadratic
    steps = int(min(20000, math.ceil(math.log(1e-13) / math.log(float(rate.max())))))
    wg = np.zeros((c, k))
    e0 = np.linalg.norm(w, axis=1)
    worst_ratio = 0.0
    for t in range(1, steps + 1):
        g = np.einsum("ckl,cl->ck", H, wg) - np.einsum("cmk,cm->ck", A, y) / m
        wg = wg - step[:, None] * g
        err = np.linalg.norm(wg - w, axis=1)
        live = rate ** t > 1e-11  # compare only above the float64 floor
        if np.any(live):
            worst_ratio = max(worst_ratio, float(np.max(err[live] / (rate[live] ** t * e0[live]))))
    d_gd = float(np.max(np.linalg.norm(wg - w, axis=1) / e0))
    what = f"{c} clients (m={m}, d={d}, k={k})"
    return decide.combine(
        [decide.identity(w, brute, atol=1e-8, what=f"{what}: closed-form head vs lstsq"),
         decide.identity(num_w, sym_w, atol=1e-8, what="closed-form head vs sympy's exact solution"),
         decide.bound(d_gd, 1e-8, what="GD's final relative error"),
         decide.bound(worst_ratio, 1.0, rtol=1e-6, of="linear rate",
                      what="GD error over the linear bound (1-1/cond)^t ||w_0 - w*||, worst step")],
        what=what,
        observed={"vs_lstsq": d_brute, "vs_sympy": d_sympy, "gd_rel_error_final": d_gd,
                          "gd_steps": steps, "max_error_over_linear_bound": worst_ratio},
        bound={"tolerance": 1e-8, "linear_bound_ratio": 1.0, "worst_rate_1-1/cond": float(rate.max())},
        params={"clients": c, "m": m, "d": d, "k": k, "gd_steps": steps})


@PAPER.claim("fedrep.alg2.mom-expectation", "Algorithm 2, initialisation (method of moments)",
             "E[(1/n) sum_i Z_i] = (mean||theta_i||^2 + sigma^2) I + (2/n) sum_i theta_i theta_i^T for "
             "Gaussian x (minus 2 diag(mean theta_i^2) for Rademacher x), and its top-k eigenspace is "
             "col(B*) [our derivation; the paper states only the procedure].",
             regime="d=6, k=2, n=5, sigma=0.5, one ground truth; Monte Carlo of y^2 x x^T (upper triangle, "
                    "Gaussian and Rademacher x; 4e5 (quick) / 2e6 (full) samples) against the closed form "
                    "(two-sided z tests at the claim level, Bonferroni over the 42 entries); the top-k "
                    "eigenspace of the closed form must be col(B*) to 1e-10")
def _mom_expect(full: bool, seed):
    s_model, s_mc = spawn_seeds(seed, 2)
    d, k, n, sigma = 6, 2, 5, 0.5
    model = make_model(d, k, n, sigma=sigma, seed=s_model)
    theta = model.theta_star
    iu = np.triu_indices(d)

    def sampler(g, size):
        i = g.integers(0, n, size)
        out = []
        for design in ("gaussian", "rademacher"):
            x = (g.standard_normal((size, d)) if design == "gaussian"
                 else g.integers(0, 2, (size, d)).astype(float) * 2 - 1)
            y = np.einsum("sd,sd->s", x, theta[i]) + sigma * g.standard_normal(size)
            Z = (y ** 2)[:, None, None] * x[:, :, None] * x[:, None, :]
            out.append(Z[:, iu[0], iu[1]])
        return np.concatenate(out, axis=1)

    nsamp = 2_000_000 if full else 400_000
    est = mc_mean(sampler, nsamp, s_mc, chunk=50_000)
    closed = np.concatenate([mom_expectation(model.B_star, model.W_star, sigma, g)[iu]
                             for g in ("gaussian", "rademacher")])
    M = mom_expectation(model.B_star, model.W_star, sigma, "gaussian")
    top = np.linalg.eigh(M)[1][:, -k:]
    dtop = principal_angle_distance(top, model.B_star)
    mc = decide.agreement(est, closed, what="MC of y^2 x x^T (upper triangle, both designs)")
    return decide.combine(
        [mc, decide.bound(dtop, 1e-10, what=f"dist(top-{k} eigvecs of the closed form, B*)")],
        what="method-of-moments expectation", observed={**mc["observed"], "eigenspace_dist": dtop},
        bound={"closed_form_entries": int(closed.size), "eigenspace_dist": 0.0},
        params={"d": d, "k": k, "n": n, "sigma": sigma, "n_samples": nsamp})


def _mom_log_dists(task, d, k, reps):
    """log dist(B_0, B*) of the method-of-moments start for ``reps`` seeds at ``task = (nm, seed)`` (n = 100
    clients, m = nm / n): a :func:`fedtheory.parallel.cached_map` task."""
    nm, s = task
    n = 100
    m = nm // n
    out = []
    for ss in spawn_seeds(s, reps):
        a, b = spawn_seeds(ss, 2)
        model = make_model(d, k, n, seed=a)
        B0 = mom_init(model, m, as_generator(b))
        out.append(math.log(principal_angle_distance(B0, model.B_star)))
    return np.array(out)


@PAPER.claim("fedrep.alg2.mom-consistency", "Algorithm 2 initialisation; Remark on initialization",
             "The method-of-moments B^0 approaches col(B*) as n*m grows (dist_0 -> 0), so E0 is "
             "bounded away from 0 (we fit the log-log slope; the sqrt(n m) rate, slope -1/2, is the "
             "standard CLT rate, not stated in the paper).",
             regime="d=20, k=2, n=100, nm in {400, ..., 25600} (quick) / {400, ..., 102400} (full), 8 / 20 "
                    "seeds each. 'dist_0 -> 0 as nm grows' read on this finite range as dist_0 = "
                    "O((nm)^(-1/4)), i.e. the OLS slope of log dist_0 on log(nm) is <= -1/4 (half the CLT "
                    "exponent): OLS of log dist_0 on log(nm) (decide.rate, log-log): a slope significantly above "
                    "-1/4 (one-sided t interval at 1e-4) is `refuted`; not above it and resolved to +-1/4 is "
                    "`holds`. The sharper CLT reading (slope -1/2, two-sided) is reported beside it")
def _mom_consistency(full: bool, seed):
    d, k = 20, 2
    nms = [400, 1600, 6400, 25600, 102400] if full else [400, 1600, 6400, 25600]
    reps = 20 if full else 8
    xs, ys = [], []
    # one cached task per nm (its reps seeds)
    for nm, y in zip(nms, cached_map(partial(_mom_log_dists, d=d, k=k, reps=reps), list(zip(nms, spawn_seeds(seed, len(nms)))),
                                     namespace="fedrep.alg2.mom-consistency", params={"d": d, "k": k, "reps": reps})):
        xs += [math.log(nm)] * reps
        ys += [float(v) for v in np.atleast_1d(y)]
    x = np.exp(np.array(xs))
    what = f"log dist_0 on log(nm), nm in {nms}, {reps} seeds each (d={d}, k={k}, n=100)"
    claim = decide.rate(x, np.exp(np.array(ys)), claimed=-0.25, alternative="less", resolution=0.25, what=what,
                        params={"d": d, "k": k, "n": 100, "nm": nms, "reps": reps})
    # the sharper reading: the CLT exponent -1/2 itself (reported, not part of the claim)
    clt = decide.rate(x, np.exp(np.array(ys)), claimed=-0.5, resolution=0.25, what=f"{what} (CLT exponent -1/2)")
    claim["observed"]["clt_reading"] = {"outcome": clt["status"], "margin": clt["margin"], "ci": clt["observed"]["ci"]}
    claim["evidence"] += f"; sharper reading slope = -1/2 (the CLT rate): {clt['status']}"
    return claim


# ------------------------------------------ the QR step: Algorithm 2 as printed vs Theorem 1's orthonormalised iterate
def _qr_setting(full):
    return dict(d=20, k=2, n=16, r=0.5, m=80, rounds=60 if full else 25, chunks=5 if full else 1,
                runs_per_chunk=20 if full else 6)


def _qr_task(ss, *, d, k, n, r, m, rounds, runs, eta, qr, model_seed):
    """One cached chunk of runs (replicate batch with seed ``ss``) of one variant; the ground truth is
    ``make_model(d, k, n, seed=model_seed)`` so both variants and all chunks share it."""
    model = make_model(d, k, n, seed=model_seed)
    res = run_fedrep(d, k, n, m, r, rounds, eta=eta, model=model, orthonormalize_B=qr, m_test=0,
                     replicates=runs, seed=ss)
    return {"dist": np.asarray(res.dist), "B": np.asarray(res.B)}


@PAPER.claim("fedrep.alg2.qr-step", "Algorithm 2 (no QR step printed) vs Theorem 1 (orthonormalised B^T)",
             "Spec erratum T10: Algorithm 2 as printed has no QR step while Theorem 1 is stated for the "
             "orthonormalised iterate and the step condition eta <= 1/(4 sigma_max,*^2) presumes orthonormal "
             "B^t. Decided by exact runs with and without QR on the same data: whether bound (10) holds for "
             "each.",
             regime="noiseless Algorithm 2 (MoM init, fresh batches, full sampler so that both variants see "
                    "identical batches and client selections), d=20, k=2, n=16, r=0.5, m=80, the LARGEST "
                    "admissible step eta = 1/(4 sigma_max,*^2) (sigma's exact over all C(16,8) subsets), "
                    "T=25 / 60 rounds, 6 (quick) / 100 (full) paired runs. 'Theorem 1 holds for a variant' "
                    "read as: (10) at every round with the paper's probability (one-sided exact binomial "
                    "test per variant at level 1e-4/2, decide.probability). Printed (no QR) fails and QR holds: "
                    "`erratum`; both hold: `holds` (a convention, not an erratum); QR fails: `refuted`",
             root_cause="alg2-qr-omitted")
def _qr_step(full: bool, seed):
    from functools import partial

    from fedtheory.parallel import cached_map

    p = _qr_setting(full)
    s_model, s_runs = spawn_seeds(seed, 2)
    model = make_model(p["d"], p["k"], p["n"], seed=s_model)
    n_sel = n_selected(p["n"], p["r"])
    dv = client_diversity(model.W_star, n_sel)
    eta = float(theorem1_max_eta(dv.sigma_max))
    p_allowed = max(0.0, 1.0 - float(theorem1_probability(p["rounds"], p["k"], n_sel, p["d"])))
    chunk_seeds = spawn_seeds(s_runs, p["chunks"])
    out = {}
    for name, qr in (("printed_no_qr", False), ("corrected_qr", True)):
        kw = dict(d=p["d"], k=p["k"], n=p["n"], r=p["r"], m=p["m"], rounds=p["rounds"], runs=p["runs_per_chunk"],
                  eta=eta, qr=qr, model_seed=s_model)
        parts = cached_map(partial(_qr_task, **kw), chunk_seeds, namespace="fedrep.errata.qr-step", params=kw)
        dist = np.concatenate([pt["dist"] for pt in parts])
        Bs = np.concatenate([pt["B"] for pt in parts])
        v, ratio = bound10_violations(dist, eta, dv.sigma_min)
        sv = np.linalg.svd(Bs, compute_uv=False)
        out[name] = dict(dist=dist, violations=v, max_ratio=ratio, sv_range=[float(sv.min()), float(sv.max())])
    out["printed_no_qr"]["gram_identity"] = population_gram_drift(model, eta, p["rounds"], as_generator(s_runs))
    return qr_verdict(out["printed_no_qr"], out["corrected_qr"], p_allowed,
                      params={**p, "runs": p["chunks"] * p["runs_per_chunk"], "eta": eta, "sigma_min": dv.sigma_min,
                              "sigma_max": dv.sigma_max, "n_sel": n_sel, "p_allowed": p_allowed})


def population_gram_drift(model, eta, rounds, rng) -> float:
    """Largest entry of ``|B_T^T B_T - (I + eta^2 sum_t G_t^T G_t)|`` along the population iteration of
    Algorithm 2 WITHOUT QR from an orthonormal start at distance 0.9: zero up to rounding because the
    exact head's residual is orthogonal to col(B) (``B^T G_t = 0``)."""
    B = basis_at_distance(model.B_star, 0.9, rng)
    acc = np.eye(model.k)
    worst = 0.0
    for _ in range(rounds):
        B_next = population_fedrep_round(B, model.B_star, model.W_star, eta, orthonormalize_B=False)
        D = B_next - B
        acc = acc + D.T @ D
        B = B_next
        worst = max(worst, float(np.max(np.abs(B.T @ B - acc))))
    return worst


def qr_verdict(printed: dict, corrected: dict, p_allowed: float, params=None) -> dict:
    """Erratum verdict of T10 from the two variants' runs (dicts with ``dist`` (R, T+1),
    ``violations``, ``max_ratio``, ``sv_range``): each variant is decided by :func:`fedtheory.decide.probability`
    (the exact binomial test of (10) at level ``LEVEL / 2``), the pair by :func:`fedtheory.decide.erratum`."""
    runs = len(printed["dist"])
    vp = decide.probability(printed["violations"], runs, p_allowed, what="(10) without QR", tests=2)
    vc = decide.probability(corrected["violations"], runs, p_allowed, what="(10) with QR", tests=2)
    a, b = np.asarray(printed["dist"]), np.asarray(corrected["dist"])
    live = (a > 1e-12) & (b > 1e-12)
    gap = float(np.max(np.abs(np.log(a[live] / b[live])))) if live.any() else 0.0
    summ = lambda o: {"violations": o["violations"], "runs": runs, "max_dist_over_bound": o["max_ratio"],
                      "final_dist_median": float(np.median(np.asarray(o["dist"])[:, -1])),
                      "singular_values_of_final_B": o["sv_range"]}
    ev = (f"paired exact runs ({runs}, same batches): {vp['evidence']}, max dist/bound "
          f"{printed['max_ratio']:.3f}, final B singular values in [{printed['sv_range'][0]:.4f}, "
          f"{printed['sv_range'][1]:.4f}]; {vc['evidence']}, max dist/bound {corrected['max_ratio']:.3f}; "
          f"largest |log(dist_noQR/dist_QR)| over rounds {gap:.3g}. Without QR the exact head's residual is "
          "orthogonal to col(B) in the population limit, so B^T B = I + eta^2 sum_t G_t^T G_t drifts only at "
          f"second order (population identity checked to {printed.get('gram_identity', float('nan')):.2g}): the "
          "omission is a presentation convention unless the printed form fails")
    return decide.erratum(vp, vc, what="Theorem 1's (10) for Algorithm 2 without and with QR",
                          printed_value={**summ(printed), "ci": vp["observed"]["ci"],
                                         "population_gram_identity": printed.get("gram_identity")},
                          corrected_value={**summ(corrected), "ci": vc["observed"]["ci"],
                                           "max_abs_log_ratio_noQR_vs_QR": gap},
                          evidence=ev, params=params, root_cause="alg2-qr-omitted",
                           referee="exact runs of Algorithm 2 with and without QR on identical batches; bound "
                                   "(10) evaluated on each run's own dist_0, E0 and the exact sigma_min,*")
