"""Sec. IV of FedLRGD: Algorithm 1, assumption (8), Lemma 2 / (53), Theorem 2 (47)-(48) and the abstract's exponent."""
from __future__ import annotations

import math
import warnings
import numpy as np
from fedtheory.claims import FAILS, HOLDS, INCONCLUSIVE
from fedtheory.random import as_generator, spawn_seeds
from fedtheory.lowrank import fedlrgd_gamma, run_fedlrgd, theorem2_r, theorem2_S
from .._util import erratum_verdict
from ._common import _problem
from . import PAPER


@PAPER.claim("fedlrgd.alg1.counters", "Algorithm 1; Theorem 2 (Gamma); Definition 1",
             "Instrumented counts of an exact FedLRGD run: r^2 + rS server gradients, rs per client, r uploads per client, "
             "T = r + 2 epochs, Gamma = r^2 + rs + rS + phi m r; the estimated gradient is exact at the r nodes.")
def _counters(full: bool, seed):
    rows, bad = [], []
    for r in ((3, 6, 10, 14) if full else (4, 8, 12)):
        prob = _problem(seed, r)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = run_fedlrgd(prob, S=30, phi=7.0, seed=seed)
        m, s, S = 40, 15, 30
        c = res.counters
        checks = {"server": c["server_grads"] == r * r + r * S, "client": all(v == r * s for v in c["client_grads"]),
                  "uploads": all(v == r for v in c["uploads"]), "epochs": c["epochs"] == r + 2,
                  "gamma": abs(res.gamma - fedlrgd_gamma(r, s, S, m, 7.0)) < 1e-9}
        if not all(checks.values()):
            bad.append((r, checks))
        rows.append((r, res.node_err, res.gamma))
    node = max(x[1] for x in rows)
    ok = not bad and node < 1e-10
    return dict(status=HOLDS if ok else FAILS,
                observed={"mismatches": bad, "max_node_error": node, "gamma": {str(r): g for r, _, g in rows}},
                bound={"gamma_formula": "r^2 + r s + r S + phi m r", "node_error": 1e-10},
                evidence=f"r in {[x[0] for x in rows]} (m=40, s=15, S=30, phi=7): all counters equal the formulas "
                         f"({len(bad)} mismatches); gradient error at the nodes <= {node:.1e}",
                params={"m": 40, "s": 15, "S": 30, "phi": 7.0})


@PAPER.claim("fedlrgd.eq53.lemma2", "Eq. (53); Lemma 2 ([5, Lemma 2.1]) on the actual error sequence",
             "On exact FedLRGD runs: |d_i F(theta) - grad_hat_i(theta)| <= max_j |g_i(x_j; theta) - sum_k w_jk g_i(x_0k; theta)| "
             "at random theta (53), and every iterate satisfies Lemma 2: F(theta_S) - F* <= (1 - 1/kappa)^S (F(theta_0) - F*) "
             "+ (1/(2 L1)) sum_gamma (1 - 1/kappa)^{S - gamma} ||e_gamma||^2.")
def _eq53(full: bool, seed):
    viol53, viol_l2, n53 = 0, 0, 0
    for r, s in zip((4, 8, 12), spawn_seeds(seed, 3)):
        prob = _problem(s, r)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = run_fedlrgd(prob, S=40, seed=s)
        kappa = res.L1 / res.mu
        rho = 1 - 1 / kappa
        e2 = np.sum(res.grad_err ** 2, axis=1)
        for S_ in range(1, res.gap.size):
            rhs = rho ** S_ * res.gap[0] + sum(rho ** (S_ - g) * e2[g - 1] for g in range(1, S_ + 1)) / (2 * res.L1)
            viol_l2 += res.gap[S_] > rhs * (1 + 1e-9) + 1e-15
        # (53): weights w_j = [g_i(x_j; nodes)] G^{-1} for every non-server sample
        rng = as_generator(s)
        nodes = rng.uniform(-1, 1, (r, prob.p))
        G = prob.grads(prob.X0, nodes, prob.mu)
        Xo = prob.Xc.reshape(-1, prob.d)
        Go = prob.grads(Xo, nodes, prob.mu)
        for th in rng.uniform(-1, 1, (5, prob.p)):
            g0 = prob.grads(prob.X0, th[None], prob.mu)[:, 0]  # (r, p)
            go = prob.grads(Xo, th[None], prob.mu)[:, 0]
            for i in range(prob.p):
                W = np.linalg.lstsq(G[:, :, i].T, Go[:, :, i].T, rcond=None)[0].T  # w_j G = row_j
                gh = (g0[:, i].sum() + (W @ g0[:, i]).sum()) / prob.n
                lhs = abs(prob.grad(th)[i] - gh)
                rhs = np.max(np.abs(go[:, i] - W @ g0[:, i]))
                viol53 += lhs > rhs * (1 + 1e-9) + 1e-14
                n53 += 1
    ok = viol53 == 0 and viol_l2 == 0
    return dict(status=HOLDS if ok else FAILS, observed={"eq53_violations": viol53, "eq53_checks": n53,
                                                         "lemma2_violations": viol_l2},
                bound={"violations": 0},
                evidence=f"r in (4, 8, 12): (53) violated in {viol53} of {n53} (theta, i) checks; Lemma 2 violated at "
                         f"{viol_l2} iterates (kappa = L1/mu with the paper's L1 = (d-1)/2 + mu)",
                params={"r": [4, 8, 12], "S": 40})


@PAPER.claim("fedlrgd.asm8.conditioning", "Assumption (8): ||(G^(i))^{-1}|| <= r^alpha (not claimed for Appendix A's example)",
             "The conditioning exponent alpha_hat(r) = log||G^{-1}|| / log r on the soft-label logistic example, against r. "
             "The paper does not claim (8) for this analytic example; the measurement shows whether a fixed alpha exists.")
def _alpha(full: bool, seed):
    rows = []
    for r in (2, 4, 6, 8, 10, 14, 18):
        prob = _problem(seed, r)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            res = run_fedlrgd(prob, S=5, seed=seed)
        a = float(np.max(np.log(res.G_inv_norm)) / math.log(r)) if r > 1 else math.nan
        rows.append((r, a, len(caught)))
    alphas = [a for _, a, _ in rows]
    slope = float(np.polyfit([r for r, _, _ in rows], alphas, 1)[0])
    return dict(status=INCONCLUSIVE,
                observed={"alpha_hat_by_r": {str(r): a for r, a, _ in rows},
                          "singular_warnings_by_r": {str(r): w for r, _, w in rows}},
                bound={"assumption": "alpha fixed, >= 1"},
                evidence="alpha_hat(r) = " + ", ".join(f"{a:.2f} (r={r})" for r, a, _ in rows) +
                         f"; linear trend {slope:+.2f} per unit of r (an analytic kernel has exponentially small sigma_min, so no fixed "
                         "alpha fits it in floating point); numerically singular G triggers the lstsq fallback with a "
                         "warning. Not a claim of the paper, hence inconclusive rather than fails",
                params={"r": [r for r, _, _ in rows]})


@PAPER.claim("fedlrgd.alg1.line10.erratum", "Algorithm 1, line 10",
             "Printed: in epochs 3..r+1 each client uploads v_1 again; corrected: v_{t-1}. With the printed uploads the "
             "server's gradient is no longer exact at the interpolation nodes and inexact GD stalls.")
def _line10(full: bool, seed):
    prob = _problem(seed, 8)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        co = run_fedlrgd(prob, S=60, seed=seed)
        pr = run_fedlrgd(prob, S=60, seed=seed, line10="printed")
    return erratum_verdict(pr.node_err < 1e-8, co.node_err < 1e-8,
                           printed={"node_error": pr.node_err, "final_gap": float(pr.gap[-1])},
                           corrected={"node_error": co.node_err, "final_gap": float(co.gap[-1])},
                           evidence=f"r = 8: gradient error at the nodes {pr.node_err:.2e} (printed) vs {co.node_err:.1e} "
                                    f"(corrected); F(theta_60) - F* = {pr.gap[-1]:.2e} vs {co.gap[-1]:.2e}",
                           params={"r": 8, "S": 60})


# ----------------------------------------------------------------------------- Theorems 2, 3, Prop 1
@PAPER.claim("fedlrgd.eq47.bracket.erratum", "Theorem 2, eq. (47)",
             "Printed: the exponent 1/(eta - (2 alpha + 2) d) applies to the max of both terms; corrected: to the second "
             "term only. The proof needs r >= e sqrt(d) 2^d (eta + d)^d (q >= 1); the printed form can violate it.")
def _eq47(full: bool, seed):
    cases = [(1, 50.0), (1, 20.0), (2, 30.0)]
    rows, p_ok, c_ok = [], True, True
    for d, eta in cases:
        need = math.e * math.sqrt(d) * 2 ** d * (eta + d) ** d
        rc = theorem2_r(d, eta, eps=0.01)
        rp = theorem2_r(d, eta, eps=0.01, variant="printed")
        rows.append((d, eta, need, rc, rp))
        p_ok &= rp >= need
        c_ok &= rc >= need
    return erratum_verdict(p_ok, c_ok, printed={"r": [r[4] for r in rows]}, corrected={"r": [r[3] for r in rows]},
                           evidence="; ".join(f"d={d}, eta={eta:g}: requirement {need:.1f}, corrected r = {rc}, printed r = {rp}"
                                              for d, eta, need, rc, rp in rows) + " (alpha=1, kappa=2, B=1, mu=0.1, p=1, eps=0.01)",
                           params={"cases": cases})


@PAPER.claim("fedlrgd.thm2.S-and-delta", "Theorem 2, eqs. (48), (61)-(65)",
             "S from (48) gives (1 - 1/kappa)^S A <= eps; under eps <= 9(B+3)^4 p/(8 mu), delta = (1 - 1/kappa)^{S/2} <= 1/2; and "
             "delta (2 + B + delta)^2 (1/(1 - delta) + 1) <= 3 (B+3)^2 delta for delta in (0, 1/2], B > 0.")
def _thm2(full: bool, seed):
    bad = 0
    for kappa in (1.1, 2.0, 10.0, 100.0):
        for B in (0.1, 1.0, 5.0):
            for mu in (0.01, 0.1, 1.0):
                emax = 9 * (B + 3) ** 4 / (8 * mu)
                for eps in (1e-6, 1e-2, emax):
                    S = theorem2_S(kappa=kappa, eps=eps, B=B, mu=mu, p=1, F0_gap=1.0)
                    A = 1.0 + 9 * (B + 3) ** 4 / (2 * mu)
                    bad += (1 - 1 / kappa) ** S * A > eps * (1 + 1e-12)
                    bad += (1 - 1 / kappa) ** (S / 2) > 0.5 + 1e-12
    deltas = np.linspace(1e-6, 0.5, 2000)
    for B in (0.01, 1.0, 10.0, 100.0):
        lhs = deltas * (2 + B + deltas) ** 2 * (1 / (1 - deltas) + 1)
        bad += int(np.sum(lhs > 3 * (B + 3) ** 2 * deltas * (1 + 1e-12)))
    return dict(status=HOLDS if bad == 0 else FAILS, observed={"violations": int(bad)}, bound={"violations": 0},
                evidence=f"108 (kappa, B, mu, eps) points for (48)/(65) and a delta grid for (62): {bad} violations",
                params={})


@PAPER.claim("fedlrgd.abstract.exponent.erratum", "Abstract vs Sections I-B and VI",
             "Printed (abstract): Gamma(FedLRGD) ~ phi m (p/eps)^{Theta(d/n)}; corrected: Theta(d/eta). The exponent of p/eps in "
             "r from (47) does not depend on n and scales like d/eta.")
def _abstract(full: bool, seed):
    def exponent(d, eta):  # p/eps large enough that the accuracy term of (47) dominates the max
        e1, e2 = 1e40, 1e60
        r1 = theorem2_r(d, eta, alpha=1.0, eps=1 / e1, B=1.0, mu=0.1, p=1)
        r2 = theorem2_r(d, eta, alpha=1.0, eps=1 / e2, B=1.0, mu=0.1, p=1)
        return math.log(r2 / r1) / math.log(e2 / e1)

    rows = [(d, eta, exponent(d, eta)) for d, eta in ((1, 8.0), (1, 16.0), (2, 16.0), (2, 32.0))]
    scaled = [x * eta / d for d, eta, x in rows]
    # n does not enter (47) at all, so the exponent cannot scale like d/n
    p_ok = False
    c_ok = max(scaled) / min(scaled) < 3
    return erratum_verdict(p_ok, c_ok, printed={"depends_on_n": False},
                           corrected={"exponent_times_eta_over_d": scaled},
                           evidence="; ".join(f"d={d}, eta={eta:g}: exponent {x:.4f}" for d, eta, x in rows) +
                                    f" (p/eps from 1e40 to 1e60, where the accuracy term of (47) is the max); exponent x eta/d = {[round(s, 3) for s in scaled]}, "
                                    "roughly constant; n appears nowhere in (47)-(48)",
                           params={})
