"""SRPFL Section 3 and App. A one-round formulas, Remark 4.8, Contribution 2's sample complexity, and the
linear analogues of Figures 7 and 8 (Tziotis et al., TMLR; arXiv numbers in brackets).

* ``srpfl.eqs13-15.gradients`` - (14)-(15) are the gradients of (13) (central finite differences);
* ``srpfl.eqs16-19.closed-form`` - (16)-(19) vs lstsq and the vectorised engine round;
* ``srpfl.alg1.meta`` - Algorithm 1 on the linear model reduces to Algorithm 2 (exact head, tau_phi = 1, QR);
* ``srpfl.rem4.8.fairness`` - never-participants lose nothing against the B* oracle;
* ``srpfl.contrib2.sample-complexity`` - the smallest batch m of exact runs: d/N or d/n0;
* ``srpfl.fig7.homogeneous`` and ``srpfl.fig8.*`` - SRPFL's wall-clock advantage in the App. C regimes.

The decisions are small pure functions (``decide_*``) that feed the measured numbers to the decision kit
:mod:`fedtheory.decide`, so their ``refuted`` paths are tested on violating numbers.
"""
from __future__ import annotations

import math

import numpy as np
from types import SimpleNamespace

from fedtheory import decide
from fedtheory.linalg import principal_angle_distance
from fedtheory.random import as_generator, spawn_seeds
from fedtheory.representation import make_model
from fedtheory.representation.algorithms import fedrep_round
from fedtheory.srpfl import make_speed_model, run_srpfl, srpfl_default_eta
from fedtheory.srpfl.meta import (closed_form_round, grad_B_LN, grad_W_LN, head_excess_risk, loss_LN,
                                  run_meta_srpfl, run_srpfl_imbalanced)

from . import PAPER
from ._common import relative_identity
from .root_causes import FIG8_LAMBDA

#: relative tolerance of identities computed in float64 (finite differences: see _fd_tol)
IDENT_TOL = 1e-9


# ---------------------------------------------------------------------------------------------- (13)-(15)
def central_differences(f, x: np.ndarray, h: float) -> np.ndarray:
    """Central finite differences ``(f(x + h e_j) - f(x - h e_j)) / (2h)`` of a scalar function over
    every entry of ``x`` (the referee of (14)-(15))."""
    x = np.asarray(x, float)
    g = np.empty_like(x)
    for j in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[j] = h
        g[j] = (f(x + e) - f(x - e)) / (2 * h)
    return g


def decide_relative(errors: dict, tol: float, what: str, params=None) -> dict:
    """Every relative error in ``errors`` (name -> value) at most ``tol``: the kit's identity through
    :func:`relative_identity`."""
    out = relative_identity(list(errors.values()), tol, what=f"{what} ({', '.join(errors)})", params=params)
    return {**out, "observed": {k: float(e) for k, e in errors.items()}, "bound": {"tolerance": tol}}


def _rel(a, b):
    return float(np.max(np.abs(np.asarray(a) - np.asarray(b))) / max(1.0, float(np.max(np.abs(b)))))


@PAPER.claim("srpfl.eqs13-15.gradients", "Eqs. (13)-(15) [arXiv: eqs. (12)-(14)]",
             "(14) (1/(mn)) sum_i X_i^T (X_i B w_i - Y_i) w_i^T and (15) (1/(mn)) B^T X_i^T (X_i B w_i - Y_i) are the "
             "gradients of L_N(B, W) = (1/(2mn)) sum_i ||Y_i - X_i B w_i||^2 (13) in B and in w_i.",
             regime="(13) read with a squared norm and X_i of shape m x d (printed d x m); random instances "
                    "(d=7, k=3, n=5, m=9, Gaussian X, Y, B, W; 3 seeds in quick, 10 in full); referee: central "
                    "finite differences of (13) with step 1e-5, whose truncation error is 0 for a quadratic and whose "
                    "rounding error is below 1e-8 relative; holds iff every entry of (14) and (15) agrees to 1e-7 "
                    "relative (a sign slip, a missing factor 2 or n, or a transpose fails by O(1))")
def _eqs13_15(full: bool, seed):
    errs = {"eq14_grad_B": 0.0, "eq15_grad_W": 0.0}
    for s in spawn_seeds(seed, 10 if full else 3):
        g = as_generator(s)
        d, k, n, m = 7, 3, 5, 9
        X, Y = g.standard_normal((n, m, d)), g.standard_normal((n, m))
        B, W = g.standard_normal((d, k)), g.standard_normal((n, k))
        fdB = central_differences(lambda b: loss_LN(b, W, X, Y), B, 1e-5)
        fdW = central_differences(lambda w: loss_LN(B, w, X, Y), W, 1e-5)
        errs["eq14_grad_B"] = max(errs["eq14_grad_B"], _rel(grad_B_LN(B, W, X, Y), fdB))
        errs["eq15_grad_W"] = max(errs["eq15_grad_W"], _rel(grad_W_LN(B, W, X, Y), fdW))
    return decide_relative(errs, 1e-7, "(14)-(15) vs central differences of (13), relative",
                           params={"d": 7, "k": 3, "n": 5, "m": 9, "h": 1e-5})


@PAPER.claim("srpfl.eqs16-19.closed-form", "Eqs. (16)-(19) [arXiv: eqs. (15)-(18)]",
             "One round in closed form: w_i+ = ((1/m) B^T X_i^T X_i B)^{-1} (1/m) B^T X_i^T Y_i (16)-(17) is the "
             "least-squares head, B+ = B - (eta/(mn)) sum_i X_i^T (X_i B w_i+ - Y_i) w_i+^T (18) is the average of "
             "the clients' gradient steps, and (B_hat+, R+) = QR(B+) (19) gives an orthonormal B_hat+ with "
             "B+ = B_hat+ R+.",
             regime="random linear-model rounds (d=20, k=3, n=8, m=12, sigma=0.5, B_hat orthonormal, eta = "
                     "1/(8 max ||w_i*||^2); 3 seeds quick, 10 full); referees: numpy lstsq for (17), the client-by-client "
                     "gradient steps of Algorithm 2 lines 11-13 averaged, and the vectorised engine round "
                     "(fedtheory.representation.fedrep_round) for (18)-(19); holds iff all agree to 1e-9 relative and "
                     "||B_hat+^T B_hat+ - I|| <= 1e-9")
def _eqs16_19(full: bool, seed):
    errs = {"eq17_vs_lstsq": 0.0, "eq18_vs_client_steps": 0.0, "eq18_vs_engine": 0.0, "eq19_vs_engine": 0.0,
            "eq19_orthonormality": 0.0, "eq19_BhatR": 0.0}
    d, k, n, m = 20, 3, 8, 12
    for s in spawn_seeds(seed, 10 if full else 3):
        g = as_generator(s)
        model = make_model(d, k, n, sigma=0.5, seed=g)
        B = np.linalg.qr(g.standard_normal((d, k)))[0]
        X, Y = model.sample(g, np.arange(n), m)
        eta = srpfl_default_eta(model.W_star)
        W, Bp, Bh, Rp = closed_form_round(B, X, Y, eta)
        W_ls = np.stack([np.linalg.lstsq(X[i] @ B, Y[i], rcond=None)[0] for i in range(n)])
        steps = np.mean([B - eta * np.outer(X[i].T @ (X[i] @ B @ W_ls[i] - Y[i]), W_ls[i]) / m
                         for i in range(n)], axis=0)
        eng = fedrep_round(B, X, Y, eta)
        errs["eq17_vs_lstsq"] = max(errs["eq17_vs_lstsq"], _rel(W, W_ls))
        errs["eq18_vs_client_steps"] = max(errs["eq18_vs_client_steps"], _rel(Bp, steps))
        errs["eq18_vs_engine"] = max(errs["eq18_vs_engine"], _rel(Bp, eng.B_bar), _rel(W, eng.w))
        errs["eq19_vs_engine"] = max(errs["eq19_vs_engine"], _rel(Bh, eng.B_next), _rel(Rp, eng.R))
        errs["eq19_orthonormality"] = max(errs["eq19_orthonormality"], float(np.linalg.norm(Bh.T @ Bh - np.eye(k), 2)))
        errs["eq19_BhatR"] = max(errs["eq19_BhatR"], _rel(Bh @ Rp, Bp))
    return decide_relative(errs, IDENT_TOL, "(16)-(19) vs lstsq, client steps and the engine round",
                           params={"d": d, "k": k, "n": n, "m": m, "sigma": 0.5})


# ---------------------------------------------------------------------------------------------- Algorithm 1
def decide_alg1(reduction_err: float, gd_errs: dict, frozen, tol: float = 1e-10, gd_tol: float = 1e-8) -> dict:
    """Algorithm 1 as kit bounds: the exact-head / tau_phi = 1 / QR trajectory equals Algorithm 2's to ``tol``; the
    GD-head discrepancy falls with tau_h (each value at most the previous one, until the float floor 1e-12) and is
    <= ``gd_tol`` at the largest tau_h; non-participants' heads are frozen (line 13): ``frozen`` is the largest
    change of a non-participant's head (0 when frozen; ``True``/``False`` read as 0/1)."""
    taus = sorted(gd_errs)
    vals = np.array([gd_errs[t] for t in taus], float)
    steps = np.where(vals[1:] <= 1e-12, 0.0, vals[1:] / np.maximum(vals[:-1], 1e-300))  # next/previous
    change = float(0.0 if frozen is True else 1.0 if frozen is False else frozen)
    return decide.combine(
        [relative_identity(reduction_err, tol, what=f"exact head, tau_phi=1, QR: max |dist_meta - dist_Alg2| = "
                                                    f"{reduction_err:.2g}"),
         decide.bound(steps if steps.size else [0.0], 1.0, of="previous discrepancy",
                      what="tau_h GD head steps: max |dist diff| = " + ", ".join(f"{v:.2g} (tau_h={t})"
                                                                               for t, v in zip(taus, vals))),
         decide.bound(vals[-1], gd_tol, of="tolerance", what=f"GD-head discrepancy at tau_h={taus[-1]}"),
         relative_identity(change, 1e-12, what=f"largest change of a non-participant's head {change:.2g}")],
        what="Algorithm 1 reduces to Algorithm 2",
        observed={"alg2_reduction_max_dist_diff": reduction_err,
                  "gd_head_max_dist_diff": {str(t): float(v) for t, v in gd_errs.items()},
                  "gd_discrepancy_decreasing": bool(np.all(steps <= 1)), "frozen_heads": change == 0.0},
        bound={"reduction_tol": tol, "gd_tol_at_largest_tau_h": gd_tol})


@PAPER.claim("srpfl.alg1.meta", "Algorithm 1 [arXiv: Algorithm 1]",
             "The SRPFL meta-algorithm on the linear model (tau_h head steps, tau_phi representation steps, server "
             "averaging, doubling stages, frozen heads for non-participants) with tau_h -> infinity (exact head), "
             "tau_phi = 1 and Algorithm 2's QR step is Algorithm 2 (FedRep-SRPFL).",
             regime="linear model d=20, k=2, M=48 > N=32 (so some clients are never sampled), n0=4, m=20, sigma=0.3, "
                    "fixed Exp(1) speeds, 5 rounds per stage, 25 rounds, MoM init, eta = 1/(8 max ||w_i*||^2); "
                    "Algorithm 1 implemented client by client (fedtheory.srpfl.meta) on the same random streams as "
                    "the engine run_srpfl (sampler='full'); head GD step 0.8 (< 2/L for the whitened k x k head "
                    "problem); holds iff the exact-head trajectory equals Algorithm 2's to 1e-10, the GD-head "
                    "discrepancy falls with tau_h in {3, 10, 30, 100} (full; 3, 100 quick) down to <= 1e-8, and clients outside the "
                    "participating sets keep their heads (line 13). The paper's Algorithm 1 has no QR step; the run "
                    "without it is reported, not judged")
def _alg1(full: bool, seed):
    ss_model, ss_speed, ss_run = spawn_seeds(seed, 3)
    M, N, d, k = 48, 32, 20, 2
    model = make_model(d, k, M, sigma=0.3, seed=ss_model)
    sp = make_speed_model("fixed", M, N, seed=ss_speed)
    kw = dict(stage_lengths=5, rounds=25, seed=ss_run)
    alg2 = run_srpfl(d=d, k=k, M=M, N=N, n0=4, m=20, sigma=0.3, speeds=sp, model=model, sampler="full", **kw)
    meta = run_meta_srpfl(model, sp, N, 4, 20, eta=alg2.eta, **kw)
    red = float(np.max(np.abs(meta.dist - alg2.dist)))
    gd = {}
    frozen = True
    for th in ((3, 10, 30, 100) if full else (3, 100)):
        r = run_meta_srpfl(model, sp, N, 4, 20, eta=alg2.eta, tau_h=th, eta_head=0.8, **kw)
        gd[th] = float(np.max(np.abs(r.dist - alg2.dist)))
        frozen &= bool(np.all(r.heads[~r.ever] == 0.0)) and bool(np.all(np.any(r.heads[r.ever] != 0, axis=1)))
    frozen = 0.0 if frozen else 1.0  # 1: a non-participant's head changed (or a participant's never did)
    v = decide_alg1(red, gd, frozen)
    v["observed"].update({"final_dist_alg2": float(alg2.dist[-1]), "never_participants": int((~meta.ever).sum())})
    v["evidence"] += f"; {int((~meta.ever).sum())} of {M} clients never participate"
    if full:  # reported, not judged: Algorithm 1 as printed (no QR) and several local representation steps
        noqr = run_meta_srpfl(model, sp, N, 4, 20, eta=alg2.eta, orthonormalise=False, **kw)
        tphi = run_meta_srpfl(model, sp, N, 4, 20, eta=alg2.eta, tau_phi=5, **kw)
        v["observed"].update({"final_dist_no_qr": float(noqr.dist[-1]), "final_dist_tau_phi5": float(tphi.dist[-1])})
        v["evidence"] += (f"; final dist: Algorithm 2 {alg2.dist[-1]:.4f}, Algorithm 1 without QR "
                          f"{noqr.dist[-1]:.4f}, tau_phi=5 {tphi.dist[-1]:.4f}")
    v["params"] = dict(d=d, k=k, M=M, N=N, n0=4, m=20, sigma=0.3, stage_lengths=5, rounds=25, eta_head=0.8)
    v["referee"] = "the vectorised engine run_srpfl (Algorithm 2) on the same streams"
    return v


# ---------------------------------------------------------------------------------------------- Remark 4.8
def decide_fairness(loss: np.ndarray, gap: np.ndarray, mc_minus_cf: np.ndarray, margin: float = 0.05) -> dict:
    """Remark 4.8 from per-run numbers, through the kit: ``loss`` (never-participants' test MSE over the B*
    oracle's, minus 1) <= ``margin``; ``gap`` (never-participants minus participants, relative to the oracle MSE)
    within [-margin, margin]; the referee ``mc_minus_cf`` (Monte Carlo minus closed-form excess risk of the
    never-participants) agrees with 0. One-sided z tests of the run means with their standard errors
    (Bonferroni over the 4 decisions), combined."""
    def est(x):
        x = np.asarray(x, float)
        return SimpleNamespace(mean=float(np.mean(x)), se=float(np.std(x, ddof=1) / math.sqrt(x.size)), n=int(x.size))

    L, G, D = est(loss), est(gap), est(mc_minus_cf)
    return decide.combine(
        [decide.bound(L, margin, tests=4, of="margin", what=f"never-participants' test MSE / oracle MSE - 1 = "
                                                            f"{L.mean:.4f} (se {L.se:.2g}) <= {margin:g}"),
         decide.bound(G, margin, tests=4, of="margin", what=f"minus participants' (relative) {G.mean:+.4f} "
                                                            f"(se {G.se:.2g}) <= {margin:g}"),
         decide.bound(G, -margin, sense=">=", tests=4, of="margin", what=f"the same >= {-margin:g}"),
         decide.agreement(D, 0.0, tests=4, what=f"Monte Carlo minus closed-form excess risk {D.mean:+.2e} "
                                                f"(se {D.se:.2g}) vs 0")],
        what=f"Remark 4.8 over {np.size(loss)} runs",
        observed={"loss_vs_oracle": {"mean": L.mean, "se": L.se}, "gap_vs_participants": {"mean": G.mean, "se": G.se},
                  "mc_minus_closed_form": {"mean": D.mean, "se": D.se}, "runs": int(np.size(loss))},
        bound={"margin": margin, "level": decide.LEVEL})


def srpfl_partial(model, fixed_times: np.ndarray, n0: int, m: int, stage_lengths, eta: float, rng):
    """FedRep-SRPFL (Algorithm 2, N = M, fixed speeds) run through the stages with ``min(M, 2^r n0)`` fastest
    clients for ``stage_lengths[r]`` rounds each, with the MoM initialisation and rounds drawn from their exact
    law (reduced sampler). Returns the final orthonormal B and the mask of clients that ever participated."""
    from fedtheory.representation import fedrep_round_reduced
    from fedtheory.representation.algorithms import mom_init

    order = np.argsort(fixed_times, kind="stable")
    B = mom_init(model, m, rng)
    ever = np.zeros(model.n, bool)
    for r, T in enumerate(stage_lengths):
        sel = order[: min(model.n, n0 * 2 ** r)]
        ever[sel] = True
        for _ in range(T):
            B = fedrep_round_reduced(B, model, sel, m, eta, rng).B_next
    return B, ever


FAIR = dict(d=20, k=2, M=64, n0=4, m=50, sigma=0.5, stage_lengths=(5, 5, 5, 30), m_new=20, mc_fits=40)


@PAPER.claim("srpfl.rem4.8.fairness", "Remark 4.8 [arXiv: absent (TMLR only)]",
             "Clients never selected in the representation learning fit their k-dimensional head locally on the "
             "learned representation with a few samples and lose nothing (against the ground-truth representation, "
             "and against the clients that did participate).",
             regime="FedRep-SRPFL (Algorithm 2) with N=M=64 clients, fixed Exp(1) speeds, d=20, k=2, n0=4, m=50, "
                    "sigma=0.5, stages n=4, 8, 16, 32 of 5, 5, 5, 30 rounds, stopped before the last stage, so the 32 "
                    "slowest clients never participate; every client then fits its head by least squares on m_new=20 "
                    "fresh samples on the learned B; 'lose nothing' read as: the never-participants' expected test "
                    "MSE is within 5% of the oracle's (B = B*, sigma^2 (1 + k/(m_new-k-1))) and within 5% of the "
                    "participants'; per-run exact expectations (misspecified-OLS closed form) refereed by a Monte "
                    "Carlo of 40 head fits per client; t CIs over 6 runs (quick) or 40 (full), Bonferroni over 3 at "
                    "the claim level")
def _fairness(full: bool, seed):
    p = FAIR
    R = 40 if full else 6
    loss, gap, diff, dists = [], [], [], []
    k, s2, mn = p["k"], p["sigma"] ** 2, p["m_new"]
    e_or = s2 * k / (mn - k - 1)
    for s in spawn_seeds(seed, R):
        sm, ssp, sr, se = spawn_seeds(s, 4)
        model = make_model(p["d"], k, p["M"], sigma=p["sigma"], seed=sm)
        times = make_speed_model("fixed", p["M"], p["M"], seed=ssp).fixed_times
        B, ever = srpfl_partial(model, times, p["n0"], p["m"], p["stage_lengths"], srpfl_default_eta(model.W_star),
                                as_generator(sr))
        dists.append(float(principal_angle_distance(B, model.B_star)))
        e = head_excess_risk(B, model.theta_star, mn, p["sigma"])
        never = np.flatnonzero(~ever)
        loss.append((e[never].mean() - e_or) / (s2 + e_or))
        gap.append((e[never].mean() - e[ever].mean()) / (s2 + e_or))
        g = as_generator(se)
        X, y = model.sample(g, np.repeat(never, p["mc_fits"]), mn)
        A = X @ B
        W = np.linalg.solve(np.swapaxes(A, 1, 2) @ A, np.einsum("cmk,cm->ck", A, y)[..., None])[..., 0]
        mc = np.sum((W @ B.T - model.theta_star[np.repeat(never, p["mc_fits"])]) ** 2, axis=1)
        diff.append(mc.mean() - e[never].mean())
    v = decide_fairness(np.array(loss), np.array(gap), np.array(diff))
    v["observed"]["final_dist_median"] = float(np.median(dists))
    v["evidence"] += f"; learned dist(B, B*) median {np.median(dists):.3f}"
    v["params"] = {**p, "runs": R}
    v["referee"] = "Monte Carlo of least-squares head fits on fresh samples vs the misspecified-OLS closed form"
    return v


# ---------------------------------------------------------------------------------------------- Contribution 2
def decide_sample_complexity(small, large, n_small) -> dict:
    """Contribution 2 from per-replicate successes (paired seeds) at one batch size m: ``small`` (N, small n0),
    ``large`` (N, large n0), ``n_small`` (N/4, the small n0).

    Under Theorem 4.7's reading (m ~ d/n0) the small-n0 runs need n0_large/n0_small times the batch of the
    large-n0 runs; under Contribution 2's (m ~ d/N + log N) n0 does not matter and a smaller N needs more. Kit
    decisions, Bonferroni over 3: the success rate lost by the small n0 is not significantly positive (a bound on
    the paired difference with its standard error), the small-n0 success rate is not significantly below 1/2, and
    the N/4 runs succeed less often than the N runs (paired exact sign test, :func:`fedtheory.decide.ordering`)."""
    small, large, n_small = (np.asarray(x, float) for x in (small, large, n_small))
    R = small.size
    diff = large - small
    se_d = max(float(np.std(diff, ddof=1)) / math.sqrt(R), 0.5 / R) if R > 1 else 1.0
    se_s = max(float(np.std(small, ddof=1)) / math.sqrt(R), 0.5 / R) if R > 1 else 1.0
    rates = [float(small.mean()), float(large.mean()), float(n_small.mean())]
    return decide.combine(
        [decide.bound(float(diff.mean()), 0.0, se=se_d, tests=3, of="success rate",
                      what=f"success lost by the small n0: {rates[1]:.2f} - {rates[0]:.2f}"),
         decide.bound(rates[0], 0.5, sense=">=", se=se_s, tests=3, of="success rate",
                      what=f"small-n0 success rate {rates[0]:.2f} >= 1/2"),
         decide.ordering(n_small, small, expect="less", paired=True, tests=3,
                         what=f"N/4 clients succeed less often ({rates[2]:.2f} vs {rates[0]:.2f})")],
        what=f"success rates at the same m over {R} paired replicates",
        observed={"success_small_n0": rates[0], "success_large_n0": rates[1], "success_N_over_4": rates[2],
                  "replicates": R}, bound={"level": decide.LEVEL})


SAMPLE = dict(d=64, k=2, N=32, n0_small=2, n0_large=16, N_small=8, m=12, sigma=0.0, target=0.1, rounds=120,
              stage_lengths=5, speeds="iid", sampler="reduced")


@PAPER.claim("srpfl.contrib2.sample-complexity", "Contribution 2 (sample complexity) [arXiv: Sec. 1, contribution 2]",
             "SRPFL keeps the per-client sample complexity m = O(d/N + log N) (while Theorem 4.7 assumes "
             "m >= c0 (1+sigma^2) k^3 kappa^4 max{log N, d/n0}/E0^2, i.e. d/n0): which one do exact runs follow?",
             regime="exact FedRep-SRPFL runs (Algorithm 2, MoM init, reduced sampler, exact in law), sigma=0 (no floor), "
                    "k=2, d=64, N=M=32, Exp(1) speeds redrawn each round, 5 rounds per non-final stage, success = "
                    "dist <= 0.1 within 120 rounds, batch m=12 (between d/N=2 and d/n0=32 for n0=2); paired seeds over "
                    "n0=2, n0=16 and N=8 (n0=2); 'follows d/N' read as: n0 does not change the success rate (one-sided "
                    "bound on the paired difference, and the n0=2 rate not below 0.5) while N/4 clients do lower it (one-sided "
                    "sign test), through the decision kit, Bonferroni over 3 at the claim level; 8 paired replicates quick (inconclusive by design), 64 full. The unknown c0 "
                    "is not read: the contrast is the 8-fold change of d/n0 at fixed N and m")
def _contrib2(full: bool, seed):
    p = SAMPLE
    R = 64 if full else 8
    base = dict(d=p["d"], k=p["k"], m=p["m"], sigma=p["sigma"], target=p["target"], rounds=p["rounds"],
                stage_lengths=p["stage_lengths"], speeds=p["speeds"], sampler=p["sampler"], replicates=R, seed=seed)
    succ = {}
    for key, N, n0 in (("small", p["N"], p["n0_small"]), ("large", p["N"], p["n0_large"]),
                       ("Nsmall", p["N_small"], p["n0_small"])):
        res = run_srpfl(M=N, N=N, n0=n0, **base)
        succ[key] = np.isfinite(res.time_to(p["target"])).astype(float)
    v = decide_sample_complexity(succ["small"], succ["large"], succ["Nsmall"])
    v["params"] = {**p, "replicates": R}
    v["referee"] = "exact runs of Algorithm 2 (run_srpfl replicates, paired seeds)"
    return v


# ---------------------------------------------------------------------------------------------- Figs. 7 and 8
#: the linear-analogue setting shared by the Fig. 7 / Fig. 8 experiments (App. C: fixed speeds, full participation)
FIG_BASE = dict(d=20, k=2, M=64, N=64, n0=4, m=20, sigma=0.1, stage_lengths=10, rounds=240, comm_cost=0.0,
                metric="dist", target=0.1, heads="random", heterogeneity=None, rho=None, speeds="exp",
                straggler_fraction=None, lambda_reading=None, imbalance=None, replicates=4,
                eval_every=5)

#: Fig. 8's two categories, as printed: "lambda = 0.1" (fast) and "lambda = 10" (stragglers)
FIG8_LAMBDAS = (0.1, 10.0)


def mixture_means(lambda_reading: str) -> tuple[float, float]:
    """Mean compute times (fast, straggler) of Fig. 8's two categories under a reading of the printed
    "lambda = 0.1" (fast) and "lambda = 10" (stragglers): ``"mean"`` (the printed values are the mean
    times: 0.1 and 10) or ``"rate"`` (Exp rates, the convention of Theorem 4.9: means 10 and 0.1, so the
    "stragglers" are the fast clients)."""
    if lambda_reading == "mean":
        return FIG8_LAMBDAS
    if lambda_reading == "rate":
        return 1.0 / FIG8_LAMBDAS[0], 1.0 / FIG8_LAMBDAS[1]
    raise ValueError(f"`lambda_reading` must be 'mean' or 'rate'; got {lambda_reading!r}")


def _heads(cfg, rng, times):
    """Ground-truth heads of a Fig. 7/8 setting (rows scaled to norm sqrt(k), Assumption 4.6)."""
    M, k = cfg["M"], cfg["k"]
    if cfg["heads"] == "random":
        W = rng.standard_normal((M, k))
    elif cfg["heads"] == "homogeneous":  # common direction u plus heterogeneity h times an isotropic part
        u = rng.standard_normal(k)
        W = u / np.linalg.norm(u) + cfg["heterogeneity"] * rng.standard_normal((M, k)) / math.sqrt(k)
    elif cfg["heads"] == "correlated":  # 3 label groups (head directions) matched to 3 speed groups w.p. rho
        tercile = np.empty(M, int)
        tercile[np.argsort(times, kind="stable")] = np.arange(M) * 3 // M
        grp = np.where(rng.random(M) < cfg["rho"], tercile, rng.integers(0, 3, M))
        W = np.eye(k)[grp % k] + 0.3 * rng.standard_normal((M, k)) / math.sqrt(k)
    else:
        raise ValueError(f"unknown heads {cfg['heads']!r}")
    return W / np.linalg.norm(W, axis=1, keepdims=True) * math.sqrt(k)


def _times(cfg, rng):
    M = cfg["M"]
    if cfg["speeds"] == "exp":
        return rng.exponential(1.0, M)
    fast, slow = mixture_means(cfg["lambda_reading"])
    is_slow = np.zeros(M, bool)
    is_slow[rng.choice(M, int(round(cfg["straggler_fraction"] * M)), replace=False)] = True
    return rng.exponential(1.0, M) * np.where(is_slow, slow, fast)


def _first_hit(values: np.ndarray, clock: np.ndarray, target: float) -> float:
    hit = np.flatnonzero(np.asarray(values) <= target)
    return float(clock[hit[0]]) if hit.size else math.inf


def pair_times(seed, cfg: dict) -> dict:
    """One group of a Fig. 7/8 setting: a ground truth and fixed compute times drawn from ``seed``, then
    ``cfg['replicates']`` paired runs of FedRep-SRPFL and FedRep (replicate j of both methods has the same
    seed: MoM initialisation and stream). Returns the wall-clock times to the target (inf if missed) and the
    runs' metric trajectories on their clocks (first replicate), for the figures."""
    from fedtheory.representation import FedRepModel
    from fedtheory.srpfl import SpeedModel
    from fedtheory.linalg import random_orthonormal

    cfg = {**FIG_BASE, **cfg}
    s_model, s_speed, s_run = spawn_seeds(seed, 3)
    rs = as_generator(s_speed)
    times = _times(cfg, rs)
    rm = as_generator(s_model)
    B = random_orthonormal(rm, cfg["d"], cfg["k"])
    model = FedRepModel(B_star=B, W_star=_heads(cfg, rm, times), sigma=cfg["sigma"])
    sp = SpeedModel("fixed", 1.0, cfg["M"], {"setting": "fig78"}, fixed_times=times)
    out = {}
    R = cfg["replicates"]
    for name, sched in (("SRPFL", "doubling"), ("FedRep", "all")):
        if cfg["imbalance"] is None:
            kw = dict(d=cfg["d"], k=cfg["k"], M=cfg["M"], N=cfg["N"], n0=cfg["n0"], m=cfg["m"], sigma=cfg["sigma"],
                      speeds=sp, model=model, comm_cost=cfg["comm_cost"], schedule=sched,
                      stage_lengths=cfg["stage_lengths"], rounds=cfg["rounds"], sampler="reduced", replicates=R,
                      seed=s_run)
            if cfg["metric"] == "dist":
                res = run_srpfl(**kw, target=cfg["target"])
                t = res.time_to(cfg["target"])
                curves = (res[0].wall_clock, res[0].dist)
            else:
                res = run_srpfl(**kw, eval_every=cfg["eval_every"])
                t = np.array([_first_hit(res.mse[j], res.wall_clock[j], cfg["target"]) for j in range(R)])
                keep = np.isfinite(res.mse[0])
                curves = (res.wall_clock[0][keep], res.mse[0][keep])
        else:  # per-client batch sizes (fedtheory.srpfl.meta.run_srpfl_imbalanced; full sampler, padded)
            mi = _imbalanced_m(cfg, as_generator(spawn_seeds(s_model, 1)[0]))
            t, curves = [], None
            eta = srpfl_default_eta(model.W_star)
            for sj in spawn_seeds(s_run, R):
                clk, dst = run_srpfl_imbalanced(model, sp, cfg["N"], cfg["n0"] if sched == "doubling" else cfg["N"],
                                                mi, eta=eta, stage_lengths=cfg["stage_lengths"],
                                                rounds=cfg["rounds"], comm_cost=cfg["comm_cost"],
                                                target=cfg["target"], seed=sj)
                t.append(_first_hit(dst, clk, cfg["target"]))
                curves = curves or (clk, dst)
            t = np.array(t)
        out[f"t_{name}"] = np.asarray(t, float)
        out[f"clock_{name}"], out[f"curve_{name}"] = np.asarray(curves[0]), np.asarray(curves[1])
    return out


def _imbalanced_m(cfg, rng) -> np.ndarray:
    """Per-client batch sizes of Fig. 8's imbalanced columns, scaled to mean about ``m``: ``"uniform"`` reads
    FEMNIST's 100 + U[0, 50] samples as ``m (100 + U[0,50])/125``; ``"lognormal"`` reads Sent140's log-normal
    allocation as ``m exp(N(0, 1) - 1/2)``; both clipped to [k + 1, 4 m] (the exact head needs m_i >= k)."""
    M, m, k = cfg["M"], cfg["m"], cfg["k"]
    if cfg["imbalance"] == "uniform":
        x = m * (100 + rng.uniform(0, 50, M)) / 125
    elif cfg["imbalance"] == "lognormal":
        x = m * np.exp(rng.standard_normal(M) - 0.5)
    else:
        raise ValueError(f"unknown imbalance {cfg['imbalance']!r}")
    return np.clip(np.round(x), k + 1, 4 * m).astype(int)


def log_speedups(groups: list) -> np.ndarray:
    """Per-group mean of ``log(T_FedRep / T_SRPFL)`` over the paired replicates (inf/NaN when a run missed the
    target: a missed SRPFL target counts as -inf, a missed FedRep target as +inf)."""
    out = []
    for g in groups:
        with np.errstate(divide="ignore", invalid="ignore"):
            out.append(float(np.mean(np.log(g["t_FedRep"]) - np.log(g["t_SRPFL"]))))
    return np.array(out)


def run_setting(cfg: dict, groups: int, seed, namespace: str) -> list:
    """``groups`` independent groups of a setting through the task cache (an interrupted full run resumes)."""
    from functools import partial

    from fedtheory.parallel import cached_map

    full_cfg = {**FIG_BASE, **cfg}
    return cached_map(partial(pair_times, cfg=full_cfg), list(spawn_seeds(seed, groups)), namespace=namespace,
                      params=full_cfg)


def sign_decision(x: np.ndarray, what: str, tests: int = 1) -> dict:
    """The kit's exact sign test (:func:`fedtheory.decide.ordering`, paired) on independent per-group values ``x``
    (positive = the paper's direction; +inf counts as positive, -inf as negative, NaN - both methods missed the
    target - is a tie and dropped)."""
    sgn = np.nan_to_num(np.sign(np.asarray(x, float)), nan=0.0)
    return decide.ordering(np.zeros_like(sgn), sgn, expect="less", paired=True, tests=tests, what=what)


def _logdiff(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.log(np.asarray(a, float)) - np.log(np.asarray(b, float))


def decide_all(subs: dict, params=None, analogue: str = "") -> dict:
    """Sign decisions on several named per-group arrays (Bonferroni over them), combined all-of by the kit; with
    ``analogue`` (a paper's experiment checked on its linear analogue) a refutation reads ``not-reproduced``."""
    out = decide.combine([sign_decision(x, name, len(subs)) for name, x in subs.items()],
                         what="all of " + ", ".join(subs), params=params or {})
    return decide.not_reproduced(out, analogue=analogue) if analogue else out


def _median_times(groups, name) -> np.ndarray:
    return np.array([float(np.median(g[f"t_{name}"])) for g in groups])


#: Fig. 7 / Fig. 8 settings of the claims and the figures (cfg overrides of FIG_BASE)
FIG7 = {"homogeneous": dict(heads="homogeneous", heterogeneity=0.5, metric="mse", target=0.0335, rounds=300,
                            eval_every=10),
        "heterogeneous": dict(heads="random", metric="mse", target=0.0335, rounds=300, eval_every=10)}
FIG8_IMB = {"uniform": dict(imbalance="uniform", rounds=200), "lognormal": dict(imbalance="lognormal", rounds=200)}
FIG8_FRACTIONS = (0.1, 0.3, 0.5)
FIG8_RHO = (0.0, 0.5, 1.0)


def fig8_straggler_cfg(fraction: float, lambda_reading: str) -> dict:
    """Fig. 8's straggler-percentage setting under a reading of its printed lambdas (see :func:`mixture_means`)."""
    mixture_means(lambda_reading)
    return dict(speeds="mixture", straggler_fraction=float(fraction), lambda_reading=lambda_reading)


def fig8_correlated_cfg(rho: float) -> dict:
    """Fig. 8's correlated heterogeneity: k=3 head groups matched to the 3 speed terciles w.p. ``rho``."""
    return dict(heads="correlated", k=3, rho=float(rho))


#: the linear analogues of the App. C experiments (deep networks on CIFAR10/EMNIST/FEMNIST/Sent140 in the paper)
_ANALOGUE_BASE = ("exact FedRep-SRPFL vs FedRep on the linear model (d=20, k=2, N=M=64, n0=4, m=20, sigma=0.1, fixed "
                  "Exp(1) speeds, theorem's default step 1/(8 max ||w_i*||^2), MoM init, 10 rounds per non-final stage), "
                  "wall-clock time to target, groups seeded by spawn_seeds(seed, groups), 20 groups x 2 paired replicates "
                  "in full mode")
ANALOGUE = {"fig7": _ANALOGUE_BASE + "; heads around one direction (heterogeneity 0.5), target test MSE <= 0.0335",
            "fig8.imbalanced": _ANALOGUE_BASE + "; per-client batches m (100 + U[0,50])/125 vs m exp(N(0,1) - 1/2), "
                                                "target dist <= 0.1",
            "fig8.stragglers": _ANALOGUE_BASE.replace("20 groups", "120 groups") + "; straggler fractions 0.1 and 0.5 "
                                                                                  "(means 0.1 and 10), target dist <= 0.1",
            "fig8.correlated": _ANALOGUE_BASE + "; k=3 head groups matched to speed terciles w.p. rho in {0, 1}, target "
                                                "dist <= 0.1"}


def _groups(full):
    return (20, 2) if full else (1, 1)


@PAPER.claim("srpfl.fig7.homogeneous", "Figure 7 [arXiv: absent] (App. C, homogeneous setting; linear analogue)",
             "In the (data-)homogeneous setting FedRep-SRPFL keeps its edge: it reaches the target accuracy in less "
             "wall-clock time than FedRep (the doubling scheme helps even with homogeneous data).",
             regime="linear analogue: heads w_i* = sqrt(k) (u + 0.5 g_i/sqrt(k))/||.|| around a common direction u "
                    "(heterogeneity 0.5; 'homogeneous' read as low head diversity, full participation N=M=64, fixed "
                    "Exp(1) speeds, C.T.=0), d=20, k=2, n0=4, m=20, sigma=0.1, 10 rounds per non-final stage, 300 "
                    "rounds; target: exact test MSE (heads re-fit, evaluated every 10 rounds) <= 0.0335 = 3x the B* oracle's; per group (own "
                    "ground truth and speeds) the mean log(T_FedRep/T_SRPFL) over paired replicates; exact sign test "
                    "over independent groups (1 quick: inconclusive by design, 20 full) at the claim level; a run missing the target counts "
                    "against the method that missed it, a group where both missed is a tie (dropped)")
def _fig7(full: bool, seed):
    G, r = _groups(full)
    gs = run_setting({**FIG7["homogeneous"], "replicates": r}, G, seed, "srpfl.fig7.homogeneous")
    return decide_all({"log(T_FedRep/T_SRPFL), homogeneous": log_speedups(gs)},
                      params={**FIG7["homogeneous"], "groups": G, "replicates": r}, analogue=ANALOGUE["fig7"])


@PAPER.claim("srpfl.fig8.imbalanced", "Figure 8 [arXiv: absent] (App. C, imbalanced datasets; linear analogue)",
             "With mildly imbalanced local datasets (FEMNIST, 100 + U[0,50] samples) the doubling scheme's benefit "
             "is prevalent; with strongly imbalanced ones (Sent140, log-normal) the speedup diminishes.",
             regime="linear analogue of Fig. 8's two left columns: per-client batch sizes m_i = m (100 + U[0,50])/125 "
                    "(mild) or m exp(N(0,1) - 1/2) (log-normal), m=20, clipped to [k+1, 4m]; FedRep-SRPFL and FedRep with "
                    "exact heads, equal-weight averaging and QR (fedtheory.srpfl.meta.run_srpfl_imbalanced), d=20, "
                    "k=2, N=M=64, n0=4, sigma=0.1, fixed Exp(1) speeds, target dist <= 0.1 within 200 rounds; the same "
                    "group seeds (ground truth, speeds) for both levels; exact sign tests over groups (1 quick: inconclusive by design, 20 full), "
                    "Bonferroni over 2: speedup > 1 under mild imbalance, and log-speedup(mild) - log-speedup(log-normal) "
                    "> 0")
def _fig8_imb(full: bool, seed):
    G, r = _groups(full)
    u = run_setting({**FIG8_IMB["uniform"], "replicates": r}, G, seed, "srpfl.fig8.imb")
    ln = run_setting({**FIG8_IMB["lognormal"], "replicates": r}, G, seed, "srpfl.fig8.imb")
    su, sl = log_speedups(u), log_speedups(ln)
    with np.errstate(invalid="ignore"):
        diff = su - sl
    return decide_all({"log speed-up, mild imbalance": su, "log speed-up mild minus log-normal": diff},
                      params={**FIG8_IMB, "groups": G, "replicates": r}, analogue=ANALOGUE["fig8.imbalanced"])


def _stragglers(full: bool, seed, reading: str, analogue: str = ""):
    G, r = (120, 2) if full else _groups(full)
    lo, hi = FIG8_FRACTIONS[0], FIG8_FRACTIONS[-1]
    a = run_setting({**fig8_straggler_cfg(lo, reading), "replicates": r}, G, seed, "srpfl.fig8.strag")
    b = run_setting({**fig8_straggler_cfg(hi, reading), "replicates": r}, G, seed, "srpfl.fig8.strag")
    subs = {f"FedRep slower at {hi:g} than at {lo:g} stragglers": _logdiff(_median_times(b, "FedRep"),
                                                                           _median_times(a, "FedRep")),
            f"FedRep-SRPFL slower at {hi:g} than at {lo:g}": _logdiff(_median_times(b, "SRPFL"),
                                                                      _median_times(a, "SRPFL")),
            f"speed-up > 1 at {lo:g}": log_speedups(a), f"speed-up > 1 at {hi:g}": log_speedups(b)}
    fast, slow = mixture_means(reading)
    return decide_all(subs, params={"lambda_reading": reading, "fast_mean": fast, "straggler_mean": slow,
                                    "fractions": [lo, hi], "groups": G, "replicates": r}, analogue=analogue)


_STRAG_REGIME = ("linear analogue of Fig. 8's third column: a fraction f in {{0.1, 0.5}} of the N=M=64 clients are "
                 "'stragglers'; fixed speeds (one Exp time per client, App. C's fixed-speeds setting); the printed "
                 "'lambda = 0.1' (fast) and 'lambda = 10' (stragglers) read as {what}; d=20, k=2, n0=4, m=20, "
                 "sigma=0.1, target dist <= 0.1 within 240 rounds; the same group seeds at both f; exact sign tests "
                 "over groups (1 quick: inconclusive by design, 120 full), Bonferroni over 4: time to target grows with f for FedRep and for "
                 "FedRep-SRPFL ('performance degrades'), and FedRep-SRPFL is faster at both f ('mitigates')")
_STRAG_STATEMENT = ("Performance degrades as the percentage of stragglers grows, for FedRep and FedRep-SRPFL, while "
                    "the doubling scheme mitigates it (FedRep-SRPFL stays faster).")


@PAPER.claim("srpfl.fig8.stragglers-means", "Figure 8 [arXiv: absent] (App. C, % of stragglers; lambda read as means)",
             _STRAG_STATEMENT, regime=_STRAG_REGIME.format(what="MEAN times (fast mean 0.1, stragglers mean 10: "
                                                                "the reading under which stragglers are slow)"))
def _fig8_strag_mean(full: bool, seed):
    return _stragglers(full, seed, "mean", ANALOGUE["fig8.stragglers"])


@PAPER.claim("srpfl.fig8.stragglers-rates", "Figure 8 [arXiv: absent] (App. C, % of stragglers) vs Sec. 4.1's "
             "lambda convention",
             "Fig. 8's printed straggler parameters 'lambda = 0.1' (fast) and 'lambda = 10' (stragglers) cannot be "
             "exponential rates as in Sec. 4.1 / Theorem 4.9 (then the 'stragglers' are the fast clients and the "
             "stated degradation is refuted); read as mean times, the caption's statement holds (" + _STRAG_STATEMENT
             + ")",
             regime=_STRAG_REGIME.format(what="exponential RATES as in Theorem 4.9 (printed; fast mean 10, "
                                             "'stragglers' mean 0.1) and as MEAN times (corrected)")
             + "; printed reading refuted = its all-of decision `refuted`, corrected reading = the all-of decision of "
               "srpfl.fig8.stragglers-means `holds` (the kit's erratum, root cause fig8-lambda-reading); either reading "
               "undecided (quick: 1 group) is inconclusive with the kit's size",
             root_cause=FIG8_LAMBDA)
def _fig8_strag_rate(full: bool, seed):
    printed = _stragglers(full, seed, "rate")
    corrected = _stragglers(full, seed, "mean")
    params = {**printed["params"], "lambda_reading": ["rate (printed)", "mean (corrected)"]}
    return decide.erratum_if_decided(
        printed, corrected, what="Fig. 8 straggler caption under the printed (rates) and the corrected (means) "
                                 "reading of lambda", root_cause=FIG8_LAMBDA, params=params,
        referee="simulated wall-clock times to target of exact FedRep and FedRep-SRPFL runs (paired groups, exact "
                "sign tests), under each reading of lambda")


@PAPER.claim("srpfl.fig8.correlated", "Figure 8 [arXiv: absent] (App. C, correlated heterogeneity; linear analogue)",
             "When data and system heterogeneity are correlated the benefits of the doubling scheme persist, "
             "although to a lesser degree as the correlation grows.",
             regime="linear analogue of Fig. 8's right column: k=3 head groups (w_i* = sqrt(3) (e_g + 0.3 noise)/||.||, "
                    "the 'label groups') assigned to the 3 terciles of the fixed Exp(1) speeds with probability rho "
                    "(else uniformly), rho in {0, 1}; d=20, N=M=64, n0=4, m=20, sigma=0.1, target dist <= 0.1 within "
                    "240 rounds; same group seeds for both rho; exact sign tests over groups (1 quick: inconclusive by design, 20 full), "
                    "Bonferroni over 2: speed-up > 1 at rho=1 ('persist') and log-speedup(rho=0) - log-speedup(rho=1) "
                    "> 0 ('lesser degree')")
def _fig8_corr(full: bool, seed):
    G, r = _groups(full)
    a = run_setting({**fig8_correlated_cfg(0.0), "replicates": r}, G, seed, "srpfl.fig8.corr")
    b = run_setting({**fig8_correlated_cfg(1.0), "replicates": r}, G, seed, "srpfl.fig8.corr")
    with np.errstate(invalid="ignore"):
        diff = log_speedups(a) - log_speedups(b)
    return decide_all({"log speed-up at rho=1": log_speedups(b), "log speed-up rho=0 minus rho=1": diff},
                      params={"rho": [0.0, 1.0], "groups": G, "replicates": r}, analogue=ANALOGUE["fig8.correlated"])
