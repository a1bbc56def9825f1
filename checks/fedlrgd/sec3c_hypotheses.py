"""Sec. III-C of Jadbabaie, Makur and Shah (2023), *Federated Optimization of Smooth Loss Functions*, IEEE Trans.
Inf. Theory: Theorem 2 inside its own hypotheses, and the non-singularity assumption (46) on the paper's worked
example (Appendix A), decided by :mod:`fedtheory.decide` from extended-precision computations
(:mod:`fedtheory.lowrank.hypotheses`).

Theorem 2. (6) and Lemma 1 put a floor under every node matrix: ``||G^{-1}|| >= l! q'^eta/(r L2)`` (Eckart-Young at
the scale q' whose approximant has rank <= r - 1). At the r of (47) -- more precisely at every r meeting the two
requirements the proof of Theorem 2 derives, q >= 1 and (61) -- the floor is >= r^(2 alpha + 1) (a lemma proved in
:func:`fedtheory.lowrank.hypotheses.conditioning_at_theorem2_rank`), so (8) fails at the theorem's own r and at every
larger one: no loss satisfies the hypotheses, and an instance to run the theorem on cannot exist.

(46). ``P = Phi^T Psi``; on Appendix A's gradient d g/d y = -x is theta-free, so Psi's (I, y) rows are constants and
P is singular on every cover with two or more cells, for every server data set and every parameter sequence.
"""
from __future__ import annotations

import math

import numpy as np
from fedtheory import decide
from fedtheory.linalg import blas_single_thread
from fedtheory.lowrank import SoftLabelLogistic, taylor_matrix
from fedtheory.lowrank.chain import make_cover_logistic_problem
from fedtheory.lowrank.hypotheses import (certified_sigma_min_upper, conditioning_at_theorem2_rank, inverse_norm_floor,
                                          logistic_eq46_matrices_mp, logistic_eq46_rank_bound, singular_values_mp,
                                          theorem2_rank_mp)
from fedtheory.random import as_generator, spawn_seeds
from . import PAPER

def lemma_identities() -> list:
    """The three algebraic steps of the conditioning lemma, simplified by sympy (each must be 0): q' >= (x/2)(1 - 2/r)
    from x >= 2; the proof's condition before (47) equals (61) at q = x/2; Bernoulli's derivative."""
    import sympy as sp
    x, r, eta, d, L2, lf, al, u = sp.symbols("x r eta d L2 lf alpha u", positive=True)
    X = r ** (1 / d) / (sp.E ** (1 / d) * d ** (1 / (2 * d)) * (eta + d))
    e1 = x * (1 - 1 / r) - 1 - (x / 2 * (1 - 2 / r) + (x - 2) / 2)
    lhs = L2 * 2 ** eta * sp.E ** (eta / d) * d ** (eta / (2 * d)) * (eta + d) ** eta / (lf * r ** (eta / d - 2 * al - 2))
    e2 = sp.expand_log(sp.log(lhs) - sp.log(L2 * r ** (2 * al + 2) / (lf * (X / 2) ** eta)), force=True)
    e3 = sp.diff((1 - u) ** eta - 1 + eta * u, u) - eta * (1 - (1 - u) ** (eta - 1))
    return [float(abs(sp.simplify(e))) for e in (e1, e2, e3)]


def _grid(full):
    """(d, alpha, eta, L2, kappa, eps) points of Theorem 2's regime (eta = f (2 alpha + 2) d, f > 1)."""
    ds, alphas = ((1, 2, 3, 5), (1.0, 1.5, 3.0)) if full else ((1, 2, 3), (1.0, 3.0))
    fs, L2s = ((1.001, 1.1, 2.0, 10.0), (1e-6, 1.0, 1e6)) if full else ((1.001, 2.0, 10.0), (1e-6, 1e6))
    ks, es = ((1.01, 2.0, 100.0), (1e-12, 1e-3, None)) if full else ((1.01, 100.0), (1e-12, None))
    return [(d, a, f * (2 * a + 2) * d, L2, k, e) for d in ds for a in alphas for f in fs for L2 in L2s for k in ks
            for e in es]


def _cos_instance(x, t):
    """g(x; theta) = cos(theta x) + 2 theta on [0, 1] x [-1, 1]: class (eta, 1) for every integer eta (the l-th
    x-derivative theta^l cos(theta x + l pi/2) is |theta|^(l+1) <= 1 Lipschitz), d g/d theta = 2 - x sin(theta x) in
    [1, 3] (mu = 1, L1 = 3), |g| <= 3 = B."""
    import mpmath as mp
    return mp.cos(t * x) + 2 * t


def instance_certificates(cases, seed) -> list:
    """Per (eta, alpha): r of (47) for the cosine instance (B = 3, mu = 1, kappa = 3, L2 = 1, F(theta0) - F* <= 6,
    eps = 0.01), and the certified lower bound ``||v|| / ||G v||`` (mpmath, v the last right singular vector of a
    double-precision SVD) on ``||G^{-1}||`` at random server data and nodes, against r^alpha and r^(2 alpha + 1)."""
    rows = []
    for (eta, alpha), child in zip(cases, spawn_seeds(seed, len(cases))):
        rng = as_generator(child)
        r = int(theorem2_rank_mp(1, eta, alpha=alpha, kappa=3.0, eps=0.01, B=3.0, mu=1.0, p=1, L2=1.0, F0_gap=6.0))
        x, th = rng.uniform(0, 1, r), rng.uniform(-1, 1, r)
        with blas_single_thread():
            v = np.linalg.svd(np.cos(np.outer(x, th)) + 2 * th[None, :])[2][-1]
        s_up = certified_sigma_min_upper(_cos_instance, x, th, v, dps=30)
        rows.append({"eta": eta, "alpha": alpha, "r": r, "log10_cert": -float(math.log10(s_up)),
                     "log10_floor": float(math.log10(inverse_norm_floor(r, 1, eta, 1.0)))})
    return rows


@PAPER.claim("fedlrgd.thm2.hypotheses-vacuous", "Theorem 2 (hypotheses (6), (8), eta > (2 alpha + 2) d; r of (47))",
             "Theorem 2's hypotheses admit no instance: for every loss of class (eta, L2) (6), at the r of (47) (and at "
             "every larger r) every node matrix has ||G^{-1}||_op >= l! q'^eta/(r L2) >= r^(2 alpha + 1) > r^alpha, so "
             "(8) fails at the theorem's own rank; an instance satisfying all of Theorem 2's hypotheses cannot be "
             "exhibited and the theorem is vacuous.",
             root_cause="thm2-hypotheses-empty",
             regime="(8) read as the paper states it (every large r; the argument also covers the single r of (47)); "
                    "(47) in its corrected form (exponent on the second term). Links: (a) the lemma's three algebraic "
                    "steps simplify to 0 in sympy; (b) at r = r(47) computed in 50-digit mpmath, over a grid of "
                    "Theorem 2's regime (d in {1,2,3} (quick) or {1,2,3,5}, alpha in {1, 3} or {1, 1.5, 3}, eta = f (2 "
                    "alpha + 2) d with f from 1.001 to 10, L2 in {1e-6, (1,) 1e6}, kappa from 1.01 to 100, eps from "
                    "1e-12 to the theorem's largest 9(B+3)^4 p/(8 mu); B = 1, mu = 0.1, p = 1, F(theta0) - F* = 1; "
                    "quick 144 points, full 1296 at r(47) and 10^6 r(47)), the proof's requirements (i) q >= 1 and (ii) "
                    "(61) hold and the floor / r^(2 alpha + 1) >= 1; (c) referee on an instance, g = cos(theta x) + 2 theta "
                    "(class (eta, 1), mu = 1, B = 3) at its r of (47): ||G^{-1}|| >= ||v||/||G v|| (mpmath, a certified "
                    "bound independent of Lemma 1) exceeds r^(2 alpha + 1), for (eta, alpha) = (20, 1) (quick; r = 115) "
                    "and also (20, 2), (50, 1) (full; r = 115, 278)")
def _vacuous(full: bool, seed):
    ids = lemma_identities()
    pts = []
    for d, a, eta, L2, k, e in _grid(full):
        eps = 9 * 4 ** 4 / (8 * 0.1) if e is None else e
        for scale in ((1, 10 ** 6) if full else (1,)):
            o = conditioning_at_theorem2_rank(d, eta, alpha=a, kappa=k, eps=eps, L2=L2, scale=scale)
            pts.append(((d, a, round(eta, 4), L2, k, eps, scale), o))
    req = [min(o["req_i"], o["req_ii"]) for _, o in pts]
    lem = [o["log10_floor_over_r_2a1"] for _, o in pts]
    worst = min(pts, key=lambda t: t[1]["log10_floor_over_r_2a1"])
    certs = instance_certificates([(20.0, 1.0)] + ([(20.0, 2.0), (50.0, 1.0)] if full else []), seed)
    cert_margin = [c["log10_cert"] - (2 * c["alpha"] + 1) * math.log10(c["r"]) for c in certs]
    return decide.vacuous_given(
        [decide.identity(ids, 0.0, atol=1e-12, what="(a) sympy: the lemma's three steps simplify to 0"),
         decide.bound(req, 0.0, sense=">=", of="log10 requirement",
                      what=f"(b) log10 of the proof's requirements (i) q >= 1 and (ii) (61) at r(47), {len(pts)} points"),
         decide.bound(lem, 0.0, sense=">=", of="log10 floor/r^(2alpha+1)",
                      what="(b) log10 of l! q'^eta/(r L2) / r^(2 alpha + 1) at the same points"),
         decide.bound(cert_margin, 0.0, sense=">=", of="log10 certificate/r^(2alpha+1)",
                      what="(c) log10 of the certified ||v||/||G v|| over r^(2 alpha + 1) on the cosine instance")],
        what="Theorem 2's regime against (8): "
             + f"{len(pts)} grid points, smallest log10 floor/r^(2 alpha + 1) = {worst[1]['log10_floor_over_r_2a1']:.2f} at "
               f"(d, alpha, eta, L2, kappa, eps, scale) = {worst[0]} (log10 r = {worst[1]['log10_r']:.1f}); cosine "
               "instance: " + "; ".join(f"eta={c['eta']:g}, alpha={c['alpha']:g}, r(47) = {c['r']}: ||G^-1|| >= "
                                        f"10^{c['log10_cert']:.1f} (certified), Lemma 1 floor 10^{c['log10_floor']:.1f}, "
                                        f"(8) allows 10^{c['alpha'] * math.log10(c['r']):.1f}" for c in certs),
        root_cause="thm2-hypotheses-empty",
        reason="at every r meeting the requirements (q >= 1 and (61)) that the proof of Theorem 2 derives and (47) "
               "secures, Lemma 1 with Eckart-Young forces ||G^{-1}|| >= r^(2 alpha + 1) for every loss of class (eta, L2), "
               "against (8)'s r^alpha: no loss satisfies Theorem 2's hypotheses (analytic lemma in "
               "fedtheory.lowrank.hypotheses.conditioning_at_theorem2_rank, its algebra in sympy, its numbers in mpmath)",
        observed={"points": len(pts), "min_log10_floor_over_r_2a1": worst[1]["log10_floor_over_r_2a1"],
                  "worst_point": list(worst[0]), "min_log10_requirement": min(req), "sympy_residuals": ids,
                  "instance": certs},
        bound={"theorem2_requires": "||G^-1|| <= r^alpha (8)", "forced": "||G^-1|| >= r^(2 alpha + 1)"},
        params={"grid_points": len(pts), "dps": 50})


# ----------------------------------------------------------------------------- (46) on Appendix A's example
def eq46_rows(cases, seed, dps=(50, 100)) -> list:
    """Per (q, draw): server data on the cover (make_cover_logistic_problem, (45) holds), nodes uniform in [-1, 1]; P,
    Phi, Psi of (46), (45), (56) in mpmath at each precision of ``dps``; the numerical rank of P (singular values
    above 10^-(dps/2) sigma_max), the factorisation gap max|P - Phi^T Psi|, sigma_min(Phi), and the predicted rank."""
    import mpmath as mp
    rows = []
    for q, child in [(q, c) for (q, n), cs in zip(cases, spawn_seeds(seed, len(cases))) for c in spawn_seeds(cs, n)]:
        rng = as_generator(child)
        X0 = make_cover_logistic_problem(q, m=1, s=1, mu=0.1, seed=int(rng.integers(2 ** 31))).X0
        nodes = rng.uniform(-1, 1, (X0.shape[0], 1))
        row = {"q": q, "r": X0.shape[0], "cells": q * q, "predicted_rank": logistic_eq46_rank_bound(X0, q)}
        with np.errstate(invalid="ignore"):  # referee for the closed form: the library's sympy-derivative approximant
            P_lib = taylor_matrix(SoftLabelLogistic(eta=2.0, L2=1.0, d=2, p=1, i=0, mu=0.1), X0, nodes, float(q))[0]
        for p in dps:
            P, Phi, Psi = logistic_eq46_matrices_mp(X0, nodes, q, dps=p)
            with mp.workdps(p):
                sv = singular_values_mp(P, p)
                gap = max(abs(v) for v in (P - Phi.T * Psi))
                svf = singular_values_mp(Phi, p)
                row["lib_gap"] = float(max(abs(float(P[a, c]) - P_lib[a, c]) for a in range(P.rows) for c in range(P.cols)))
                rank = sum(1 for s in sv if s > mp.mpf(10) ** (-p // 2) * sv[0])
                row[p] = {"rank": rank, "log10_sv": [float(mp.log10(s + mp.mpf(10) ** (-3 * p))) for s in sv],
                          "log10_factor_gap": float(mp.log10(gap + mp.mpf(10) ** (-3 * p))),
                          "log10_sigma_min_Phi": float(mp.log10(svf[-1]))}
        rows.append(row)
    return rows


@PAPER.claim("fedlrgd.eq46.logistic-singular", "Eq. (46) (Sec. III-C, non-singularity of approximation); Appendix A",
             "Theorem 2 says nothing about the paper's worked example: on Appendix A's soft-label logistic gradient, "
             "P^(i) of (46) is singular for every cover with two or more cells (every r = D|S| >= 6, so every r "
             "Theorem 2 admits), for every server data set and every parameter sequence, even where (45) holds: "
             "P = Phi^T Psi and d g/d y = -x is theta-free, so rank P <= 1 + 2 n_x < r. (46) holds only with one cell "
             "(r = 3). The paper asserts (4)-(6) only for the example, so this is a finding about the hypotheses.",
             root_cause="eq46-theta-free-coefficients",
             regime="d = 2 (data (x, y)), p = 1, i = 0, mu = 0.1, class (2, 1), l = 1, D = 3; the explicit cover l1_cover "
                    "(q^2 squares) with 3 unisolvent server samples per cell (make_cover_logistic_problem, so Phi of "
                    "(45) is invertible), nodes uniform in [-1, 1]; P, Phi, Psi built from the closed-form derivatives "
                    "in mpmath at 50 and 100 digits; numerical rank = singular values above 10^(-dps/2) sigma_max; "
                    "q = 2 (2 draws) and 3 (1 draw) quick, q = 2, 3, 4 (3 draws each) full; q = 1 (r = 3) reported as "
                    "the contrast. Links: the closed-form P equals the library's sympy-derivative approximant to 1e-12; P = Phi^T Psi to 10^(5-dps); sigma_min(Phi) >= 1e-6 ((45) holds); the rank "
                    "at both precisions equals the predicted 1 + 2 n_x < r, with the singular values beyond it falling "
                    "by >= 40 orders when the digits double (exact zeros) and those within it unchanged")
def _eq46(full: bool, seed):
    cases = [(2, 3), (3, 3), (4, 3)] if full else [(2, 2), (3, 1)]
    rows = eq46_rows(cases, seed)
    one = eq46_rows([(1, 1)], spawn_seeds(seed, 2)[1])[0]
    fact = [max(r_[p]["log10_factor_gap"] + p for p in (50, 100)) for r_ in rows]
    phi = [min(r_[p]["log10_sigma_min_Phi"] for p in (50, 100)) for r_ in rows]
    ranks = [[r_[50]["rank"], r_[100]["rank"]] for r_ in rows]
    pred = [[r_["predicted_rank"]] * 2 for r_ in rows]
    drop = [min((a - b for a, b in zip(r_[50]["log10_sv"][r_["predicted_rank"]:], r_[100]["log10_sv"][r_["predicted_rank"]:])),
                default=0.0) for r_ in rows]
    stay = [max(abs(a - b) for a, b in zip(r_[50]["log10_sv"][:r_["predicted_rank"]], r_[100]["log10_sv"][:r_["predicted_rank"]]))
            for r_ in rows]
    return decide.vacuous_given(
        [decide.bound([r_["lib_gap"] for r_ in rows], 1e-12, of="tolerance",
                      what="mpmath closed-form P vs the library's sympy-derivative Taylor approximant (taylor_matrix)"),
         decide.bound(fact, 5.0, of="log10 gap + dps", what="P = Phi^T Psi ((55)-(56)): log10 max|P - Phi^T Psi| + dps"),
         decide.bound(phi, -6.0, sense=">=", of="log10 sigma_min(Phi)", what="(45) holds: log10 sigma_min(Phi)"),
         decide.identity(np.array(ranks, float), np.array(pred, float), atol=0.5,
                         what="rank of P at 50 and 100 digits = predicted 1 + 2 n_x"),
         decide.bound(drop, 40.0, sense=">=", of="orders of magnitude",
                      what="singular values beyond the predicted rank fall by >= 40 orders from 50 to 100 digits"),
         decide.bound(stay, 1e-6, of="log10 change", what="singular values within the predicted rank unchanged")],
        what="(46) on Appendix A's gradient: " + "; ".join(
            f"q={r_['q']} (r={r_['r']}, {r_['cells']} cells): rank P = {r_[100]['rank']} (predicted {r_['predicted_rank']}), "
            f"smallest nonzero sigma 10^{r_[100]['log10_sv'][r_['predicted_rank'] - 1]:.1f}, next 10^"
            f"{r_[50]['log10_sv'][r_['predicted_rank']]:.0f} at 50 digits -> 10^{r_[100]['log10_sv'][r_['predicted_rank']]:.0f} "
            f"at 100" for r_ in rows[::max(1, len(rows) // 3)])
        + f"; contrast q=1 (r=3, one cell): rank {one[100]['rank']}, sigma_min 10^{one[100]['log10_sv'][-1]:.2f} at both "
          f"precisions (invertible)",
        root_cause="eq46-theta-free-coefficients",
        reason="d g/d y = -x is theta-free, so the (I, y) rows of Psi are constants and P = Phi^T Psi has rank <= 1 + 2 "
               "n_x < 3|S| = r on every cover with >= 2 cells, for all server data and parameters: the example never "
               "satisfies (46) at an r Theorem 2 admits (r >= e sqrt(2) 2^2 (2 + 2)^2 = 246 for d = 2, eta = 2)",
        observed={"rows": rows, "q1_contrast": one},
        bound={"(46)": "rank P = r"}, params={"cases": cases, "dps": [50, 100], "mu": 0.1})
