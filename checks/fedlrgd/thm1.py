"""Sec. III and Appendix A of FedLRGD: smoothness (6), Lemma 1, Theorem 1 and the Hoelder class of Appendix A."""
from __future__ import annotations

import math
import numpy as np
from fedtheory.claims import FAILS, HOLDS
from fedtheory.random import as_generator
from fedtheory.lowrank import (L1Power, holder_l, inequality52, lemma1_bound, svd_tail, taylor_matrix,
    theorem1_bound, theorem1_min_rank)
from .._util import erratum_verdict
from ._common import _test_functions, _grid, _latent_cases
from . import PAPER


@PAPER.claim("fedlrgd.eq6.exponent.erratum", "Eq. (6) (smoothness in data) vs the proof of Lemma 1",
             "Printed: |nabla^s g(y1) - nabla^s g(y2)| <= L2 ||y1 - y2||_1^{eta - 1} for |s| = l; corrected exponent eta - l. "
             "For eta = 2.5 (l = 2) and g = |x - theta|^2.5 the printed quotient is unbounded as y2 -> y1 (exponent 1.5 > 1 "
             "admits only polynomials), the corrected one is bounded by its Hoelder constant 3.75.")
def _eq6(full: bool, seed):
    eta = 2.5
    g2 = lambda t: 2.5 * 1.5 * np.abs(t) ** 0.5  # second derivative of |t|^2.5  # noqa: E731
    deltas = np.logspace(-8, -1, 15)
    ratio_p, ratio_c = [], []
    for h in deltas:
        a = np.linspace(-1, 1, 4001)
        diff = np.abs(g2(a + h) - g2(a))
        ratio_p.append(float(np.max(diff / h ** (eta - 1))))
        ratio_c.append(float(np.max(diff / h ** (eta - 2))))
    grows = ratio_p[0] / ratio_p[-1]
    p_ok = grows < 10  # bounded quotient
    c_ok = max(ratio_c) <= 3.75 + 1e-9
    return erratum_verdict(p_ok, c_ok, printed={"sup_quotient_small_h": ratio_p[0], "sup_quotient_large_h": ratio_p[-1]},
                           corrected={"max_quotient": max(ratio_c), "holder_constant": 3.75},
                           evidence=f"g = |x - theta|^2.5 (d = 1, l = 2): sup |g''(y+h) - g''(y)| / h^1.5 grows from "
                                    f"{ratio_p[-1]:.3g} (h = 0.1) to {ratio_p[0]:.3g} (h = 1e-8); with exponent eta - l = 0.5 "
                                    f"the quotient stays <= {max(ratio_c):.3f} <= 3.75",
                           params={"eta": eta, "h": [1e-8, 1e-1]})


@PAPER.claim("fedlrgd.lemma1.taylor", "Lemma 1 and eq. (49); rank bound (51)",
             "The piecewise degree-l Taylor approximant on an l1 cover of radius 1/q (sympy derivatives, d = 1 and 2) "
             "has sup error <= L2/(l! q^eta), and the piecewise-polynomial matrix N has rank <= |cover| * C(l+d, d).")
def _lemma1(full: bool, seed):
    rng = as_generator(seed)
    worst, rank_bad, rows = 0.0, 0, []
    qs = (2, 4, 8, 16) if full else (3, 8, 16)
    for d in (1, 2):
        for fn in _test_functions(d):
            Th = fn.sample_theta(rng, 4)
            X = _grid(d)
            for q in qs:
                N, used, ncell = taylor_matrix(fn, X, Th, q)
                err = float(np.max(np.abs(fn.matrix(X, Th) - N)))
                bnd = lemma1_bound(q, fn.eta, fn.L2)
                worst = max(worst, err / bnd)
                rows.append((type(fn).__name__, fn.eta, d, q, err, bnd))
            # rank of N for random data and many parameters
            Xr = rng.uniform(0, 1, (300, d))
            Tr = fn.sample_theta(rng, 300)
            Nr, used, _ = taylor_matrix(fn, Xr, Tr, 4)
            sv = np.linalg.svd(Nr, compute_uv=False)
            rank = int(np.sum(sv > sv[0] * 1e-10))
            cap = used * math.comb(fn.l + d, d)
            rank_bad += rank > cap
    ok = worst <= 1 + 1e-12 and rank_bad == 0
    return dict(status=HOLDS if ok else FAILS,
                observed={"max_error_over_bound": worst, "rank_violations": rank_bad,
                          "examples": [f"{r[0]}(eta={r[1]}) d={r[2]} q={r[3]}: {r[4]:.3g} <= {r[5]:.3g}" for r in rows[:6]]},
                bound={"error_over_bound": 1.0},
                evidence=f"{len(rows)} (function, d, q) cases on fine grids: largest sup-error / (L2/(l! q^eta)) = "
                         f"{worst:.3f}; rank(N) <= cells x C(l+d, d) in every case ({rank_bad} violations)",
                params={"q": list(qs), "functions": ["L1Power(0.5)", "L1Power(1)", "PowerSum(1.5)", "Cosine(2)"]})


@PAPER.claim("fedlrgd.thm1.svd-tail", "Theorem 1 (with the (l!)^2 of its proof)",
             "For an (eta, L2)-Hoelder latent function, (1/(nk)) sum_{i>r} sigma_i(M)^2 <= L2^2 e^{2eta/d} d^{eta/d} 4^eta "
             "(l+d)^{2eta}/(l!)^2 r^{-2eta/d} for every r in [r*, min(n,k)], r* = e sqrt(d) 2^d (l+d)^d.")
def _thm1(full: bool, seed):
    size = 500 if full else 300
    worst, rows = 0.0, []
    for fn, M in _latent_cases(seed, size):
        tail = svd_tail(M)
        rs = np.arange(math.ceil(theorem1_min_rank(fn.d, fn.eta)), min(M.shape) + 1)
        if rs.size == 0:
            continue
        b = theorem1_bound(rs, fn.d, fn.eta, fn.L2)
        ratio = tail[rs] / b
        worst = max(worst, float(ratio.max()))
        rows.append(f"{type(fn).__name__}(eta={fn.eta:g}, d={fn.d}): r*={theorem1_min_rank(fn.d, fn.eta):.1f}, "
                    f"tail/bound <= {ratio.max():.2e}")
    return dict(status=HOLDS if worst <= 1 else FAILS, observed={"max_tail_over_bound": worst, "cases": rows},
                bound={"tail_over_bound": 1.0},
                evidence=f"{len(rows)} latent matrices ({size} x {size}; L1Power 0.5 and 1, PowerSum 1.5, Cosine 2, "
                         f"soft-label logistic (2,1)), every r in [r*, {size}]: largest tail/bound {worst:.2e} "
                         "(the bound is very loose)", params={"size": size})


@PAPER.claim("fedlrgd.thm1.bound-shape", "Theorem 1; inequality (52)",
             "At r* the Theorem 1 bound equals L2^2/(l!)^2 and it strictly decreases in r; d! C(l+d, d) <= e sqrt(d) (l+d)^d "
             "for all d, l (checked for d, l <= 30).")
def _shape(full: bool, seed):
    errs = []
    mono = True
    for d in (1, 2, 3, 4):
        for eta in (0.5, 1.0, 1.5, 2.0, 3.5, 5.0):
            rs = theorem1_min_rank(d, eta)
            l = holder_l(eta)
            errs.append(abs(theorem1_bound(rs, d, eta, 1.7) / (1.7 ** 2 / math.factorial(l) ** 2) - 1))
            v = theorem1_bound(rs * np.linspace(1, 50, 200), d, eta, 1.7)
            mono &= bool(np.all(np.diff(v) < 0))
    D, L = np.meshgrid(np.arange(1, 31), np.arange(0, 31))
    lhs, rhs = inequality52(D, L)
    v52 = int(np.sum(lhs > rhs * (1 + 1e-12)))
    worst = max(errs)
    ok = worst < 1e-12 and mono and v52 == 0
    return dict(status=HOLDS if ok else FAILS,
                observed={"max_rel_error_at_r_star": worst, "strictly_decreasing": mono, "eq52_violations": v52,
                          "eq52_max_ratio": float(np.max(lhs / rhs))},
                bound={"tolerance": 1e-12},
                evidence=f"bound(r*) = L2^2/(l!)^2 to {worst:.1e} (d 1-4, eta 0.5-5); strictly decreasing: {mono}; (52) "
                         f"on d, l <= 30: {v52} violations, max lhs/rhs {np.max(lhs / rhs):.3f}",
                params={"d": [1, 2, 3, 4], "eta": [0.5, 1, 1.5, 2, 3.5, 5]})


@PAPER.claim("fedlrgd.thm1.denominator.erratum", "Theorem 1 statement vs the last line of its proof",
             "Printed: the denominator is (l)^2; corrected: (l!)^2 (the proof). At r* the bound must equal L2^2/(l!)^2, "
             "the squared Lemma 1 error at q = 1; the printed form is infinite for eta <= 1 (l = 0) and off by (l!/l)^2 "
             "for l >= 3.")
def _denom(full: bool, seed):
    etas = (0.5, 1.0, 2.0, 3.0, 4.5)
    pr, co = [], []
    for eta in etas:
        l = holder_l(eta)
        target = 1.0 / math.factorial(l) ** 2
        rs = theorem1_min_rank(2, eta)
        with np.errstate(divide="ignore"):
            p = theorem1_bound(rs, 2, eta, 1.0, variant="printed")
        c = theorem1_bound(rs, 2, eta, 1.0)
        pr.append(p)
        co.append(c)
    target = [1.0 / math.factorial(holder_l(e)) ** 2 for e in etas]
    p_ok = all(np.isfinite(p) and abs(p / t - 1) < 1e-9 for p, t in zip(pr, target))
    c_ok = all(abs(c / t - 1) < 1e-9 for c, t in zip(co, target))
    # the corrected bound also holds on an l = 0 example where the printed one is vacuous
    fn = L1Power(eta=0.5, L2=1.0, d=2, p=2)
    rng = as_generator(seed)
    M = fn.matrix(rng.uniform(0, 1, (200, 2)), fn.sample_theta(rng, 200))
    rs = np.arange(62, 201)
    c_ok &= bool(np.all(svd_tail(M)[rs] <= theorem1_bound(rs, 2, 0.5, 1.0)))
    return erratum_verdict(p_ok, c_ok, printed={"bound_at_r_star": [float(x) for x in pr]},
                           corrected={"bound_at_r_star": [float(x) for x in co]},
                           evidence=f"eta = {etas} (l = {[holder_l(e) for e in etas]}), d = 2: L2^2/(l!)^2 = "
                                    f"{[round(t, 4) for t in target]}; printed gives {[float(x) for x in pr]}; corrected "
                                    "matches exactly and bounds the SVD tail of L1Power(0.5) for r in [62, 200]",
                           params={"d": 2, "eta": list(etas)})


@PAPER.claim("fedlrgd.appA.holder-class", "Appendix A, eqs. (66)-(72)",
             "For the soft-label logistic loss on [0,1]^{d-1} x [0,1] with theta in [-1,1]^{d-1}: each g_i is (2, 1)-Hoelder "
             "w.r.t. l1 in the data (sympy derivatives (69) on random pairs), ||grad^2_theta f|| <= L1 = (d-1)/2 + mu and "
             "lambda_min >= mu.")
def _appA(full: bool, seed):
    import sympy as sp

    d = 4
    p = d - 1
    mu = 0.1
    xs = sp.symbols(f"x0:{p}", real=True)
    y = sp.Symbol("y", real=True)
    ts = sp.symbols(f"t0:{p}", real=True)
    z = sum(a * b for a, b in zip(xs, ts))
    rng = as_generator(seed)
    worst = 0.0
    for i in range(p):
        g = (1 / (1 + sp.exp(-z)) - y) * xs[i] + mu * ts[i]
        grads = [sp.lambdify((xs, y, ts), sp.diff(g, v), "numpy") for v in (*xs, y)]
        for _ in range(300 if full else 100):
            th = rng.uniform(-1, 1, p)
            u, v = rng.uniform(0, 1, p + 1), rng.uniform(0, 1, p + 1)
            dist = float(np.sum(np.abs(u - v)))
            for gr in grads:
                diff = abs(gr(tuple(u[:p]), u[p], tuple(th)) - gr(tuple(v[:p]), v[p], tuple(th)))
                worst = max(worst, diff / dist)
    Hmax, Hmin = 0.0, math.inf
    for _ in range(200):
        th = rng.uniform(-1, 1, p)
        x = rng.uniform(0, 1, p)
        sg = 1 / (1 + math.exp(-x @ th))
        H = sg * (1 - sg) * np.outer(x, x) + mu * np.eye(p)
        ev = np.linalg.eigvalsh(H)
        Hmax, Hmin = max(Hmax, ev[-1]), min(Hmin, ev[0])
    L1 = p / 2 + mu
    ok = worst <= 1 + 1e-12 and Hmax <= L1 and Hmin >= mu - 1e-12
    return dict(status=HOLDS if ok else FAILS,
                observed={"max_holder_quotient": worst, "max_hessian_eig": Hmax, "min_hessian_eig": Hmin},
                bound={"L2": 1.0, "L1": L1, "mu": mu},
                evidence=f"d={d}: largest |Delta nabla g_i| / ||Delta(x,y)||_1 = {worst:.3f} <= 1; Hessian eigenvalues in "
                         f"[{Hmin:.3f}, {Hmax:.3f}] within [mu, L1] = [{mu}, {L1}] (L1 is loose: the data term is <= (d-1)/4)",
                params={"d": d, "mu": mu})
