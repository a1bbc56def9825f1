"""Sec. IV of FedLRGD: Algorithm 1, Lemma 2 / (53), Theorem 2 (47)-(48) and the abstract's exponent.

Assumption (8) (||G^{-1}|| <= r^alpha), which the paper asserts for no instance, is decided in
:mod:`.assumption8` (a loss that satisfies it, the Appendix A logistic example that violates it, and the
ceiling alpha >= eta/d - 1 that Lemma 1 imposes); the proof chain (59)-(64) is in :mod:`.thm2_chain`.
"""
from __future__ import annotations

import math
import warnings
import numpy as np
from fedtheory.claims import FAILS, HOLDS
from fedtheory.random import as_generator, spawn_seeds
from fedtheory.lowrank import fedlrgd_gamma, run_fedlrgd, theorem2_r, theorem2_S
from .._util import erratum_verdict
from ._common import _problem, chain_log_r_min, log_gamma_fedlrgd, thm2_chain
from . import PAPER


@PAPER.claim("fedlrgd.alg1.counters", "Algorithm 1; Theorem 2 (Gamma); Definition 1",
             "Instrumented counts of an exact FedLRGD run: r^2 + rS server gradients, rs per client, r uploads per client, "
             "T = r + 2 epochs, Gamma = r^2 + rs + rS + phi m r; the estimated gradient is exact at the r nodes.",
             regime="exact runs of Algorithm 1 (tau = 1) on soft-label logistic regression (d = 3, p = 2, m = 40, s = 15, "
                    "S = 30, phi = 7) for r in {4, 8, 12} (quick) or {3, 6, 10, 14}; every count must equal its formula "
                    "exactly (Gamma to 1e-9), and the gradient estimate must equal grad F at the r nodes to 1e-10 "
                    "(double precision; G is invertible at these r)")
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
                evidence=f"r in {[x[0] for x in rows]} (m=40, s=15, S=30, phi=7): "
                         f"{'all counters equal the formulas' if not bad else 'counters differ from the formulas'} "
                         f"({len(bad)} mismatches); gradient error at the nodes <= {node:.1e}",
                params={"m": 40, "s": 15, "S": 30, "phi": 7.0})


def _lemma2_violations(res) -> int:
    """Iterates S = 1..len - 1 at which Lemma 2's bound fails (relative slack 1e-9 for round-off)."""
    kappa = res.L1 / res.mu
    rho = 1 - 1 / kappa
    e2 = np.sum(res.grad_err ** 2, axis=1)
    viol = 0
    for S_ in range(1, res.gap.size):
        rhs = rho ** S_ * res.gap[0] + sum(rho ** (S_ - g) * e2[g - 1] for g in range(1, S_ + 1)) / (2 * res.L1)
        viol += res.gap[S_] > rhs * (1 + 1e-9) + 1e-15
    return int(viol)


@PAPER.claim("fedlrgd.eq53.lemma2", "Eq. (53); Lemma 2 ([5, Lemma 2.1]) on the actual error sequence",
             "On exact FedLRGD runs: |d_i F(theta) - grad_hat_i(theta)| <= max_j |g_i(x_j; theta) - sum_k w_jk g_i(x_0k; theta)| "
             "at random theta (53), and every iterate satisfies Lemma 2: F(theta_S) - F* <= (1 - 1/kappa)^S (F(theta_0) - F*) "
             "+ (1/(2 L1)) sum_gamma (1 - 1/kappa)^{S - gamma} ||e_gamma||^2.",
             regime="exact runs of Algorithm 1 on soft-label logistic regression (d = 3, m = 40, s = 15) with r in "
                    "{4, 8, 12}, S = 40, the paper's L1 = (d-1)/2 + mu and kappa = L1/mu, F* by Newton's method to machine "
                    "precision; Lemma 2 at every iterate and (53) at 5 random theta in [-1, 1]^p per run and every "
                    "coordinate, relative slack 1e-9 (absolute 1e-15 / 1e-14) for round-off")
def _eq53(full: bool, seed):
    viol53, viol_l2, n53 = 0, 0, 0
    for r, s in zip((4, 8, 12), spawn_seeds(seed, 3)):
        prob = _problem(s, r)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = run_fedlrgd(prob, S=40, seed=s)
        viol_l2 += _lemma2_violations(res)
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


@PAPER.claim("fedlrgd.alg1.line10.erratum", "Algorithm 1, line 10",
             "Printed: in epochs 3..r+1 each client uploads v_1 again; corrected: v_{t-1}. With the printed uploads the "
             "server's gradient is no longer exact at the interpolation nodes and inexact GD stalls.",
             regime="one exact run of each upload rule on soft-label logistic regression (d = 3, m = 40, s = 15, r = 8, "
                    "S = 60); a rule is right iff the server's gradient estimate (41) equals grad F at the r interpolation "
                    "nodes to 1e-8, the exactness (37)-(39) the algorithm is built on")
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
                           params={"r": 8, "S": 60},
                           referee="exact run of Algorithm 1 with each upload rule (run_fedlrgd, line10='printed' / "
                                   "'corrected'): the server's gradient estimate against the exact gradient of F at the "
                                   "interpolation nodes, and the optimality gap after 60 inexact GD steps")


# ----------------------------------------------------------------------------- Theorem 2
_EQ47_CASES = [(1, 50.0), (1, 20.0), (2, 30.0)]


@PAPER.claim("fedlrgd.eq47.bracket.erratum", "Theorem 2, eq. (47)",
             "Printed: the exponent 1/(eta - (2 alpha + 2) d) applies to the max of both terms; corrected: to the second "
             "term only. The proof needs r >= e sqrt(d) 2^d (eta + d)^d (q >= 1); the printed form can violate it.",
             regime="(d, eta) in {(1, 50), (1, 20), (2, 30)} (eta > (2 alpha + 2) d), alpha = 1, kappa = 2, B = 1, mu = 0.1, "
                    "p = 1, L2 = 1, F(theta0) - F* = 1, eps = 0.01 (<= 9(B+3)^4 p/(8 mu)); a form is right iff at the r it "
                    "gives the proof of Theorem 2 goes through: the q the proof derives from r ((51), (52), l <= eta) is "
                    ">= 1 and (61) holds with the exact l! and delta = (1 - 1/kappa)^{S/2}, S from (48)")
def _eq47(full: bool, seed):
    rows, p_ok, c_ok = [], True, True
    for d, eta in _EQ47_CASES:
        need = math.e * math.sqrt(d) * 2 ** d * (eta + d) ** d
        rc = theorem2_r(d, eta, eps=0.01)
        rp = theorem2_r(d, eta, eps=0.01, variant="printed")
        qc, mc = thm2_chain(math.log(rc), d, eta, math.log(1 / 0.01))
        qp, mp = thm2_chain(math.log(rp), d, eta, math.log(1 / 0.01))
        rows.append((d, eta, need, rc, rp, qc, mc, qp, mp))
        p_ok &= qp >= 1 and mp >= 0
        c_ok &= qc >= 1 and mc >= 0

    def _m(x):
        return "-inf" if x == -math.inf else f"{x:.1f}"
    return erratum_verdict(p_ok, c_ok,
                           printed={"r": [r[4] for r in rows], "q": [r[7] for r in rows],
                                    "log_margin_61": [r[8] for r in rows]},
                           corrected={"r": [r[3] for r in rows], "q": [r[5] for r in rows],
                                      "log_margin_61": [r[6] for r in rows]},
                           evidence="; ".join(f"d={d}, eta={eta:g}: requirement {need:.1f}; corrected r = {rc}: q = {qc:.3f}, "
                                              f"log margin of (61) {_m(mc)}; printed r = {rp}: q = {qp:.3f}, "
                                              f"log margin {_m(mp)}"
                                              for d, eta, need, rc, rp, qc, mc, qp, mp in rows)
                                    + " (alpha=1, kappa=2, B=1, mu=0.1, p=1, eps=0.01)",
                           params={"cases": _EQ47_CASES},
                           referee="the proof of Theorem 2 evaluated at each r (log space, exact l!): the cover parameter "
                                   "q >= r^{1/d}/(e^{1/d} d^{1/(2d)} (eta+d)) - 1 the proof derives from (51)-(52) must be "
                                   ">= 1, and (61) L2 r^{2alpha+2}/(l! q^eta) <= (1 - 1/kappa)^{S/2} must hold")


@PAPER.claim("fedlrgd.thm2.S-and-delta", "Theorem 2, eqs. (48), (61)-(65)",
             "S from (48) gives (1 - 1/kappa)^S A <= eps; under eps <= 9(B+3)^4 p/(8 mu), delta = (1 - 1/kappa)^{S/2} <= 1/2; and "
             "delta (2 + B + delta)^2 (1/(1 - delta) + 1) <= 3 (B+3)^2 delta for delta in (0, 1/2], B > 0.",
             regime="kappa in {1.1, 2, 10, 100} (> 1), B in {0.1, 1, 5}, mu in {0.01, 0.1, 1}, p = 1, F(theta0) - F* = 1, "
                    "eps in {1e-6, 1e-2, 9(B+3)^4/(8 mu)} (the theorem's largest eps): 108 points for (48)/(65); (62) on "
                    "2000 delta in (0, 1/2] for B in {0.01, 1, 10, 100}; relative slack 1e-12")
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


# ----------------------------------------------------------------------------- abstract
_ABS_DETA = ((1, 8.0), (1, 16.0), (1, 32.0), (2, 16.0), (2, 32.0), (2, 64.0))
_ABS_MS = ((10, 10), (1000, 1000), (100000, 100000))
_ABS_LOG10_PE = (200.0, 300.0)
_ABS_SPREAD = 16.0


@PAPER.claim("fedlrgd.abstract.exponent.erratum", "Abstract vs Sections I-B and VI",
             "Printed (abstract): Gamma(FedLRGD) ~ phi m (p/eps)^{Theta(d/n)}; corrected: Theta(d/eta). The exponent of p/eps in "
             "Gamma does not depend on n and scales like d/eta.",
             regime="Gamma = r^2 + r s + r S + phi m r (Theorem 2, Definition 1) with r the smallest rank for which the proof "
                    "of Theorem 2 goes through (bisection on its requirement: q >= 1 and (61) with exact l!) and S from (48); "
                    "alpha = 1, kappa = 2, B = 1, mu = 0.1, p = 1, L2 = 1, F(theta0) - F* = 1, phi = 10; (d, eta) in {(1, 8), "
                    "(1, 16), (1, 32), (2, 16), (2, 32), (2, 64)} (eta >= 2 (2 alpha + 2) d, away from the pole of the "
                    "exponent at eta = (2 alpha + 2) d), (m, s) in {(10, 10), (1e3, 1e3), (1e5, 1e5)}, n = m s + r; exponent "
                    "= slope of log Gamma between p/eps = 1e200 and 1e300; 'Theta(h)' read as: exponent/h varies by at most "
                    "a factor 16 over the grid (and the exponent is > 0)")
def _abstract(full: bool, seed):
    L1, L2 = (x * math.log(10) for x in _ABS_LOG10_PE)
    pts = []
    for d, eta in _ABS_DETA:
        lr = [chain_log_r_min(d, eta, L) for L in (L1, L2)]
        S = [theorem2_S(kappa=2.0, eps=math.exp(-L), B=1.0, mu=0.1, p=1) for L in (L1, L2)]  # (48)
        for m, s in _ABS_MS:
            lg = [log_gamma_fedlrgd(lr[j], s, S[j], m, 10.0) for j in (0, 1)]
            expo = (lg[1] - lg[0]) / (L2 - L1)
            log_n = float(np.logaddexp(math.log(m * s), lr[0]))
            pts.append((d, eta, m, s, expo, log_n, lr[0] / math.log(10)))

    def spread(vals):
        vals = np.asarray(vals, float)
        return float(vals.max() / vals.min()) if np.all(vals > 0) else math.inf
    by_eta = [e * eta / d for d, eta, _, _, e, _, _ in pts]
    log10_by_n = [math.log10(e / d) + ln / math.log(10) if e > 0 else -math.inf for d, _, _, _, e, ln, _ in pts]
    s_eta = spread(by_eta)
    s_n = 10 ** (max(log10_by_n) - min(log10_by_n)) if all(np.isfinite(log10_by_n)) else math.inf
    p_ok, c_ok = s_n <= _ABS_SPREAD, s_eta <= _ABS_SPREAD
    rows = {}
    for d, eta, m, s, e, ln, lr in pts:
        rows.setdefault(f"d={d}, eta={eta:g}", []).append(round(e, 4))
    return erratum_verdict(p_ok, c_ok,
                           printed={"spread_of_exponent_times_n_over_d": s_n,
                                    "log10_n_range": [min(p[5] for p in pts) / math.log(10),
                                                      max(p[5] for p in pts) / math.log(10)]},
                           corrected={"spread_of_exponent_times_eta_over_d": s_eta,
                                      "exponent_times_eta_over_d": [round(x, 4) for x in by_eta]},
                           evidence="exponent of p/eps in Gamma for (m, s) = (10, 10), (1e3, 1e3), (1e5, 1e5): "
                                    + "; ".join(f"{k}: {v}" for k, v in rows.items())
                                    + f"; exponent x eta/d in [{min(by_eta):.3f}, {max(by_eta):.3f}] (spread {s_eta:.2f} <= "
                                      f"{_ABS_SPREAD:g}: Theta(d/eta)); exponent x n/d spreads by 10^"
                                      f"{max(log10_by_n) - min(log10_by_n):.1f} as n = ms + r ranges over 10^"
                                      f"{min(p[5] for p in pts) / math.log(10):.1f}..10^{max(p[5] for p in pts) / math.log(10):.1f}"
                                      " (not Theta(d/n)); (47)'s exponent d/(2 eta - (4 alpha + 4) d) does not involve n",
                           params={"d_eta": [list(x) for x in _ABS_DETA], "m_s": [list(x) for x in _ABS_MS],
                                   "log10_p_over_eps": list(_ABS_LOG10_PE), "max_spread": _ABS_SPREAD},
                           referee="bisection on the requirement of the proof of Theorem 2 (q >= 1 and (61) with exact l!, "
                                   "delta from (48)'s S) for the smallest admissible r at each p/eps, then Gamma from "
                                   "Definition 1's count; neither (47) nor the abstract's formula enters")
