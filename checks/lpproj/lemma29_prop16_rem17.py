"""Lemma 29 (App. B.2), Proposition 16 and Remark 17 (Sec. 4.2; formal: Theorem 30 and Remark 31, App. B.3).

Han, Li, Lin and Zhang (2024), JMLR 25: the optimal lambda of Lemma 29 (lambda^*, lambda_1^*, lambda_2^*), the
threshold of Proposition 16 above which lp-proj-2 beats pFedMe and Ditto under same-value attacks, the comparisons
of App. B.2 and Theorem 30's bullets over random instances, and the role of d_sub (Remark 17 / Remark 31). The
numbers of Figure 1 are in :mod:`.fig1`, the test losses of Theorem 30 in :mod:`.thm30_losses`.
"""
from __future__ import annotations

import math
import numpy as np
from scipy.optimize import minimize_scalar
from fedtheory import decide
from fedtheory.parallel import cached_map
from fedtheory.random import as_generator, as_seed_sequence
from fedtheory.lpproj import (lambda_star_symbolic, lemma29_argmin, loss_derivative_lpproj, make_problem, minimal_loss,
    optimal_lambda, proposition16_threshold, run_algorithm1, test_loss, test_loss_general)
from ._common import FIG1, ATTACK_CASES
from . import PAPER


# ----------------------------------------------------------------------------- optimal lambda
@PAPER.claim("lpproj.lemma29.optimal-lambda", "Lemma 29; App. B.2; Theorem 30 (lambda_1^*), B.3.3 (lambda_2^*)",
             "The sympy-derived stationary point of L^Me (and L^l2) equals Lemma 29's (2C - Bb)/(2Ab - B) and "
             "(1-1/N) sigma^2/n / D, is the numerical minimiser, and the minimal losses have the closed forms "
             "of App. B.2.",
             regime="random (N, n, d_sub, b, sigma, Sigma, N_a, tau) with d = 40 and the same-value attack when N_a > 0; "
                    "Lemma 29's hypotheses 2Ab - B > 0 and Bb - 2C < 0 (draws where they fail, or lambda* is infinite, "
                    "are outside the regime and not compared); sympy's root vs Lemma 29 to 1e-10, vs Brent's numerical "
                    "minimiser of the pFedMe and lp-proj-2 losses to 1e-4, minimal loss closed form to 1e-12 (relative)")
def _lemma29(full: bool, seed):
    rng = as_generator(seed)
    expr, _ = lambda_star_symbolic()
    worst_lemma, worst_num, worst_min = 0.0, 0.0, 0.0
    for _ in range(60 if full else 20):
        kw = dict(N=int(rng.integers(2, 200)), n=int(rng.integers(1, 500)), d=40,
                  d_sub=int(rng.integers(1, 41)), b=float(rng.uniform(0.2, 3)), sigma=float(rng.uniform(0.2, 2)),
                  Sigma=float(10 ** rng.uniform(-3, 0)))
        N_a = int(rng.integers(0, kw["N"]))
        att = dict(attack="same-value", N_a=N_a, tau=float(rng.uniform(0, 3))) if N_a else {}
        ls = optimal_lambda(**kw, **att)
        N, n, b, s2 = kw["N"], kw["n"], kw["b"], kw["sigma"] ** 2
        N_b = N - N_a
        t2 = att.get("tau", 0.0) ** 2
        A = s2 * N_b / (b * N ** 2 * n) + N_a * t2 / N ** 2 + kw["Sigma"]
        l29 = lemma29_argmin(A, 2 * s2 / (N * n), s2 * b / n, b)
        if not np.isfinite(ls) or not np.isfinite(l29):
            continue
        worst_lemma = max(worst_lemma, abs(ls - l29) / l29)
        for method in ("pfedme", "lp-proj-2"):
            f = lambda u: test_loss(method, math.exp(u), **kw, **att)  # noqa: E731
            r = minimize_scalar(f, bracket=(math.log(ls) - 2, math.log(ls) + 2), tol=1e-12)
            worst_num = max(worst_num, abs(math.exp(r.x) - ls) / ls)
        if not N_a:
            closed_me = kw["sigma"] ** 2 / 2 + s2 * kw["d"] / (2 * n) * (1 - (1 - 1 / N) * ls / (b + ls))
            worst_min = max(worst_min, abs(minimal_loss("pfedme", **kw) - closed_me) / closed_me)
    return decide.combine([decide.bound(worst_lemma, 1e-10, what="sympy root vs Lemma 29 (relative)"),
                           decide.bound(worst_num, 1e-4, what="sympy root vs Brent's minimiser (relative)"),
                           decide.bound(worst_min, 1e-12, what="minimal loss closed form (relative)")],
                observed={"sympy_vs_lemma29": worst_lemma, "sympy_vs_numeric_argmin": worst_num,
                          "minimal_loss_closed_form": worst_min},
                bound={"tolerances": [1e-10, 1e-4, 1e-12]},
                what=f"sympy root: lambda* = {expr}; vs Lemma 29 {worst_lemma:.1e}, vs Brent minimisation "
                         f"{worst_num:.1e} (relative), minimal loss closed form {worst_min:.1e}",
                params={"draws": 60 if full else 20})


@PAPER.claim("lpproj.prop16", "Proposition 16 (formal: Theorem 30, bullet 2)",
             "(i) pFedMe and Ditto have the same loss for every lambda (closed forms, Monte Carlo and exact runs); "
             "(ii) when lambda_1^* < b, L^{l2,att1}(lam) <= L^{Me,att1}(lam) iff lam >= 2 lambda_1^*/(1 - lambda_1^*/b).",
             regime="(ii) under the proposition's hypothesis lambda_1^* < b (draws with lambda_1^* >= b are outside the "
                    "regime), same-value attack, b = 1, d = 60, at 61 lambda per draw spread over thr e^{-3} .. thr e^3 "
                    "(points within 1e-9 relative of the threshold left out): the iff must hold at every point; (i) "
                    "the pFedMe and Ditto closed forms must be equal under every attack and exact Algorithm-1 runs "
                    "(R = 400) must agree to 1e-10")
def _prop16(full: bool, seed):
    rng = as_generator(seed)
    mism, checked = 0, 0
    for _ in range(200 if full else 60):
        N = int(rng.integers(10, 200))
        kw = dict(N=N, n=int(rng.integers(10, 500)), d=60, d_sub=int(rng.integers(1, 60)), b=1.0,
                  sigma=float(rng.uniform(0.3, 2)), Sigma=float(10 ** rng.uniform(-3, 0)),
                  attack="same-value", N_a=int(rng.integers(0, N // 2)), tau=float(rng.uniform(0, 20)))
        ls = optimal_lambda(**kw)
        if not (ls < kw["b"]):
            continue
        thr = proposition16_threshold(ls, kw["b"])
        lams = thr * np.exp(np.linspace(-3, 3, 61))
        lams = lams[np.abs(np.log(lams / thr)) > 1e-9]
        better = test_loss("lp-proj-2", lams, **kw) <= test_loss("pfedme", lams, **kw)
        mism += int(np.sum(better != (lams >= thr)))
        checked += lams.size
    prob = make_problem(N=12, d=6, d_sub=2, n=40, seed=seed)
    d_cf = max(abs(test_loss_general("pfedme", l, prob, attack=a, N_a=na, tau=t) -
                   test_loss_general("ditto", l, prob, attack=a, N_a=na, tau=t))
               for l in (0.1, 1.0) for a, na, t in ATTACK_CASES)
    r1 = run_algorithm1(prob, 0.8, method="pfedme", R=400, seed=3)
    r2 = run_algorithm1(prob, 0.8, method="ditto", R=400, eta=0.5, seed=3)
    d_run = float(np.max(np.abs(r1.x - r2.x)))
    return decide.combine([decide.probability(mism, max(checked, 1), 0.0, what="(ii) the iff at every (draw, lambda)"),
                           decide.bound(d_cf, 1e-15, what="(i) pFedMe - Ditto closed forms"),
                           decide.bound(d_run, 1e-10, what="(i) pFedMe - Ditto exact runs")],
                observed={"threshold_mismatches": mism, "lambda_points": checked,
                          "pfedme_minus_ditto_closed_form": d_cf, "pfedme_minus_ditto_exact_runs": d_run},
                bound={"mismatches": 0},
                what=f"(ii) {mism} mismatches over {checked} (parameters, lambda) points with lambda_1^* < b; "
                         f"(i) pFedMe - Ditto: closed forms {d_cf:g} under every attack, exact Algorithm-1 runs "
                         f"{d_run:.1e}", params={"draws": 200 if full else 60})


#: random parameter draws of the App. B.2 comparisons claim (quick, full)
COMPARISONS_DRAWS = (4000, 20000)


@PAPER.claim("lpproj.appB2.comparisons", "App. B.2 observations; Theorem 30 bullets; regimes of App. B.2/B.3",
             "L^loc >= L^l2_* >= L^Me_*, L^Avg >= L^Me_*; L^loc <= L^Avg iff lam* <= b; L^l2_* <= L^Avg iff "
             "lam* <= b sqrt(d/(d-d_sub)); L^Me(lam) <= L^Avg iff lam >= (lam*-b)/2; L^l2(lam) <= L^Avg iff "
             "Sigma >= ((N-1)/N)(sigma^2/(b n)) (d(b+lam)^2 - d_sub lam(2b+lam))/(d(b+lam)^2 - d_sub lam^2); L^l2 - "
             "sigma^2/2 is the (d_sub/d)-convex combination of L^Me and L^loc excess losses.",
             regime="clean losses under uniformity (36) at random (N 2..299, d 2..199, d_sub < d, n, b, sigma, Sigma, lam in "
                    "[1e-4, 1e3]); orderings up to 1e-12 relative rounding; each iff must hold at every draw except "
                    "within 1e-9 relative of its boundary (outside the regime); the convex combination to 1e-10 relative")
def _comparisons(full: bool, seed):
    draws = COMPARISONS_DRAWS[bool(full)]
    # one cached task per chunk of COMPARISONS_CHUNK draws (one stream: each chunk replays the earlier draws)
    counts = cached_map(_comparisons_chunk, [(a, min(a + COMPARISONS_CHUNK, draws), as_seed_sequence(seed))
                                             for a in range(0, draws, COMPARISONS_CHUNK)],
                        namespace="lpproj.appB2.comparisons", params={})
    viol = dict(zip(_COMPARISON_KEYS, (int(v) for v in np.sum(counts, axis=0))))
    total = sum(viol.values())
    return decide.probability(total, draws * len(_COMPARISON_KEYS), 0.0,
                              what=f"{draws} random parameter draws (N 2..300, d 2..200, lam 1e-4..1e3) x "
                                   f"{len(_COMPARISON_KEYS)} statements: violations {viol}",
                              observed={"violations": viol, "draws": draws}, params={"draws": draws})


COMPARISONS_CHUNK = 1000
_COMPARISON_KEYS = ("order", "loc<=avg", "l2*<=avg", "me<=avg", "l2<=avg", "convex")


def _comparison_draw(rng):
    """One random parameter point of :func:`_comparisons`: ``(kw, lam)``."""
    N = int(rng.integers(2, 300))
    d = int(rng.integers(2, 200))
    kw = dict(N=N, n=int(rng.integers(1, 1000)), d=d, d_sub=int(rng.integers(1, d)),
              b=float(rng.uniform(0.1, 5)), sigma=float(rng.uniform(0.05, 3)),
              Sigma=float(10 ** rng.uniform(-4, 1)))
    return kw, float(10 ** rng.uniform(-4, 3))


def _comparisons_chunk(task):
    """Violation counts (in :data:`_COMPARISON_KEYS` order) of draws ``start..stop-1`` of one stream (a
    :func:`fedtheory.parallel.cached_map` task, ``task = (start, stop, seed)``)."""
    start, stop, seed = task
    rng = as_generator(seed)
    for _ in range(start):  # the earlier chunks' draws: the same numbers as one sequential pass
        _comparison_draw(rng)
    viol = dict.fromkeys(_COMPARISON_KEYS, 0)
    for _ in range(start, stop):
        kw, lam = _comparison_draw(rng)
        N, d = kw["N"], kw["d"]
        b, ds = kw["b"], kw["d_sub"]
        ls = optimal_lambda(**kw)
        Lloc, Lavg = test_loss("local", **kw), test_loss("fedavg", **kw)
        Lme_s, Ll2_s = test_loss("pfedme", ls, **kw), test_loss("lp-proj-2", ls, **kw)
        Lme, Ll2 = test_loss("pfedme", lam, **kw), test_loss("lp-proj-2", lam, **kw)
        tol = 1e-12 * max(Lloc, Lavg)
        if not (Lloc >= Ll2_s - tol and Ll2_s >= Lme_s - tol and Lavg >= Lme_s - tol):
            viol["order"] += 1
        def iff(lhs, rhs, margin):  # ignore points within rounding of the boundary
            return margin < 1e-9 or lhs == rhs
        if not iff(Lloc <= Lavg, ls <= b, abs(ls - b) / b):
            viol["loc<=avg"] += 1
        c3 = b * math.sqrt(d / (d - ds))
        if not iff(Ll2_s <= Lavg, ls <= c3, abs(ls - c3) / c3):
            viol["l2*<=avg"] += 1
        c6 = (ls - b) / 2
        if not iff(Lme <= Lavg, lam >= c6, abs(lam - c6) / max(abs(c6), 1e-300)):
            viol["me<=avg"] += 1
        frac = (d * (b + lam) ** 2 - ds * lam * (2 * b + lam)) / (d * (b + lam) ** 2 - ds * lam ** 2)
        c7 = (N - 1) / N * kw["sigma"] ** 2 / (b * kw["n"]) * frac
        if not iff(Ll2 <= Lavg, kw["Sigma"] >= c7, abs(kw["Sigma"] - c7) / c7):
            viol["l2<=avg"] += 1
        s2 = kw["sigma"] ** 2 / 2
        conv = ds / d * (Lme - s2) + (1 - ds / d) * (Lloc - s2)
        if abs((Ll2 - s2) - conv) > 1e-10 * abs(conv):
            viol["convex"] += 1
    return np.array([viol[k] for k in _COMPARISON_KEYS])


@PAPER.claim("lpproj.rem17.dsub", "Remark 17 / Remark 31 (corrected parenthesisation)",
             "The optimal lp-proj-2 loss is affine in d_sub with slope sigma^2 lam*(1/N - 1)/(2n(b+lam*)) < 0, and "
             "dL^{l2,att1}/dlam = (d_sub/d) dL^{Me,att1}/dlam.",
             regime="Figure 1's parameters (same-value attack, N = 100, N_a = 20, n = 200, d = 100, b = sigma = 1, "
                    "Sigma_1 = 0.1, tau = 100) with d_sub = 1..100: the minimal loss must be affine in d_sub (slope "
                    "spread below 1e-9 relative) with a negative slope equal to the formula to 1e-9; the derivative "
                    "formula and the d_sub/d ratio must match central differences to 1e-5 of the derivative's scale "
                    "for d_sub in {5, 10, 50} and lam in [1e-5, 10]")
def _dsub(full: bool, seed):
    kw = dict(FIG1)
    kw.pop("d_sub")
    dsubs = np.arange(1, 101)
    opt = np.array([minimal_loss("lp-proj-2", d_sub=int(s), **kw) for s in dsubs])
    slope = np.diff(opt)
    ls = optimal_lambda(d_sub=10, **kw)
    pred = kw["sigma"] ** 2 * ls * (1 / kw["N"] - 1) / (2 * kw["n"] * (kw["b"] + ls))
    # the attacked analogue: slope in d_sub of L^{l2,att1} at lam_1^*
    s_err = float(np.max(np.abs(slope - slope[0])) / abs(slope[0]))
    lams = np.logspace(-5, 1, 25)
    h = 1e-7
    der_err = 0.0
    for ds in (5, 10, 50):
        num = (test_loss("lp-proj-2", lams * (1 + h), d_sub=ds, **kw) - test_loss("lp-proj-2", lams * (1 - h), d_sub=ds, **kw)) / (2 * h * lams)
        num_me = (test_loss("pfedme", lams * (1 + h), d_sub=ds, **kw) - test_loss("pfedme", lams * (1 - h), d_sub=ds, **kw)) / (2 * h * lams)
        ana = loss_derivative_lpproj(lams, d_sub=ds, **kw)
        scale = float(np.max(np.abs(ana)))  # the derivative crosses 0 at lambda_1^*: scale-relative error
        der_err = max(der_err, float(np.max(np.abs(num - ana))) / scale,
                      float(np.max(np.abs(num - ds / 100 * num_me))) / scale)
    # the slope formula for the attacked case: (1/N - 1) sigma^2 lam1*/(2n(b+lam1*)) (Remark 31 with lam1*)
    rel = abs(slope[0] - pred) / abs(pred)
    return decide.combine([decide.bound(s_err, 1e-9, what="slope spread in d_sub (affine)"),
                           decide.bound(float(slope[0]), 0.0, what="slope < 0"),
                           decide.identity(float(slope[0]), pred, rtol=1e-9, what="slope vs Remark 31's formula"),
                           decide.bound(der_err, 1e-5, what="derivative formula and d_sub/d ratio vs finite differences")],
                observed={"slope": float(slope[0]), "slope_spread": s_err, "derivative_rel_error": der_err},
                bound={"slope_formula": pred},
                what=f"Figure-1 parameters, d_sub = 1..100: optimal loss affine (slope spread {s_err:.1e}), "
                         f"slope {slope[0]:.4e} vs formula {pred:.4e}; derivative formula and the d_sub/d ratio "
                         f"agree with finite differences to {der_err:.1e}",
                params=FIG1)
