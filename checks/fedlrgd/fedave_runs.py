"""FedAve (Sec. III-D) as analysed by Jadbabaie, Makur and Shah (2023), *Federated Optimization of Smooth Loss
Functions*, run exactly (FedPAQ without quantisation): Lemma 3 and the constant C of (78) (Appendix D), Theorem 3
(proved in Appendix D) and Proposition 1 (proved in Appendix E) on measured oracle complexities, decided by
:mod:`fedtheory.decide`. The figure script ``fedtheory_reproductions.fedlrgd_fedave`` reuses its problem and run
functions."""
from __future__ import annotations

import math
import warnings

import numpy as np

from fedtheory import decide
from fedtheory.random import as_generator, spawn_seeds
from fedtheory.lowrank.algorithms import LogisticProblem, run_fedlrgd
from fedtheory.lowrank.fedave import fedave_gamma_to_target, lemma3_T0, lemma3_terms, run_fedave, sigma2_sup
from fedtheory.lowrank.model import sigmoid
from fedtheory.lowrank.theory import fedave_b_star_viete, fedave_bracket, theorem2_r
from . import PAPER  # noqa: F401

MU = 1.0  # strong convexity of the regularised logistic risk; L1 = p/2 + mu = 2 (p = 2), kappa = 2
S_CLIENT = 10  # samples per client


def draw_data(k: int, rng, th) -> np.ndarray:
    """``k`` soft-labelled rows ``(x, y)``, ``x ~ U[0,1]^2``, ``y = sigmoid(3 theta^T x - 1 + noise/2)`` (as
    :func:`fedtheory.lowrank.make_logistic_problem`)."""
    x = rng.uniform(0, 1, (k, th.size))
    y = sigmoid(3 * (x @ th) - 1 + 0.5 * rng.standard_normal(k))
    return np.hstack([x, y[:, None]])


def fedave_problem(m: int, seed, s: int = S_CLIENT, r_pool: int = 0, mu: float = MU):
    """Client data ``Xc`` (m, s, 3) and a pool of ``r_pool`` server rows, from one seed. Returns
    ``(client-only LogisticProblem, server pool)``; FedLRGD with rank r uses the first r rows of the pool."""
    rng = as_generator(seed)
    th = rng.uniform(-1, 1, 2)
    Xc = draw_data(m * s, rng, th).reshape(m, s, 3)
    pool = draw_data(max(r_pool, 1), rng, th)
    return LogisticProblem(X0=np.empty((0, 3)), Xc=Xc, mu=mu), pool


def _mean_se(samples):
    """Mean and standard error of the replicates along the last axis."""
    n = samples.shape[-1]
    return samples.mean(-1), samples.std(-1, ddof=1) / math.sqrt(n)


def _mean_ci(samples, tests):
    """Mean with the two-sided normal interval of :func:`fedtheory.decide.z_critical` at level LEVEL/tests."""
    mean, se = _mean_se(samples)
    z = decide.z_critical(tests, two_sided=True)
    return mean, mean - z * se, mean + z * se


# ----------------------------------------------------------------------------- Lemma 3
@PAPER.claim("fedlrgd.lemma3.runs", "Lemma 3 (Appendix D, from FedPAQ [30, Thm 1])",
             "On exact FedAve runs, for T >= T0 = 4 max{kappa, 4 + 32 kappa^2 (1-tau)/(tau(m-1)), 4m/(mu^2 b)}: E F(theta_T) - F* "
             "<= (L1/2) E||theta_T - theta*||^2 <= the four terms of Lemma 3 (e = Euler's number; also checked with the printed "
             "'epsilon' read as an accuracy -> 0, which drops terms 3-4).",
             regime="FedPAQ without quantisation on soft-label logistic regression (Appendix A; d = 3, p = 2, m = 8 clients x "
                    "s = 10 samples, mu = 1, the paper's L1 = p/2 + mu = 2, kappa = 2), single-sample stochastic gradients "
                    "(uniform with replacement), step sizes 4 mu^-1/(max(k, T0) b + 1) (our reading of [30, Thm 1], unverified: "
                    "see fedtheory.lowrank.fedave); (tau, b) in {(1, 2), (0.75, 4)} (quick) or five pairs (full); T in "
                    "{T0, 2T0, 3T0}; sigma^2 = exact max over clients of the per-sample gradient variance on a 25 x 25 grid of the "
                    "box [-0.6, 0.6]^2 widened to hold the final iterates and theta* (the runs start at 0 with small steps); E||theta_T0 - theta*||^2 by its upper CI; F* by Newton; a violation is a lower "
                    "one-sided z test (decide.bound with standard errors, level 1e-4 Bonferroni over the checkpoints) above the bound; the first inequality is checked "
                    "replicate by replicate (relative slack 1e-9)")
def lemma3_runs(full: bool, seed):
    """Lemma 3 term by term on exact FedAve runs (plain function; decorated below)."""
    m = 8
    reps = 400 if full else 80
    configs = [(1.0, 1), (1.0, 4), (0.5, 2), (0.75, 8), (1.0, 8)] if full else [(1.0, 2), (0.75, 4)]
    seeds = spawn_seeds(seed, len(configs) + 1)
    prob, _ = fedave_problem(m, seeds[0])
    checkpoints = (1, 2, 3)  # T = k T0
    n_tests = len(configs) * len(checkpoints)
    rows, smooth, table = [], [], []
    h_m, h_s, g_m, g_s, bounds, bounds0 = ([] for _ in range(6))
    for (tau, b), sd in zip(configs, seeds[1:]):
        T0f = lemma3_T0(prob.L1 / prob.mu, tau, m, prob.mu, b)
        T0 = math.ceil(T0f)
        Tmax = checkpoints[-1] * T0
        res = run_fedave(prob, Tmax, b, tau=tau, reps=reps, trace=True, seed=sd)
        L1, mu = res.params["L1"], res.params["mu"]
        # first inequality of Lemma 3, replicate by replicate (exact: F - F* <= L1/2 ||theta - theta*||^2)
        smooth.append(float(np.max(res.gap / (L1 / 2 * res.dist2 * (1 + 1e-9) + 1e-15))))
        d_mean, d_lo, d_hi = _mean_ci(res.dist2[T0], n_tests)
        lo_box = float(min(res.theta.min(), res.theta_star.min(), -0.5)) - 0.1
        hi_box = float(max(res.theta.max(), res.theta_star.max(), 0.5)) + 0.1
        sig2 = sigma2_sup(prob, lo_box, hi_box, grid=25)
        for c in checkpoints:
            T = c * T0
            terms = lemma3_terms(T, b, m, tau, L1, mu, sig2, d_hi, T0)
            bound = float(terms.sum())
            bound_eps0 = float(terms[:2].sum())  # the printed reading with eps -> 0 drops terms 3-4
            g_mean, g_se = _mean_se(res.gap[T])
            h_mean, h_se = _mean_se(L1 / 2 * res.dist2[T])
            h_m.append(h_mean), h_s.append(h_se), g_m.append(g_mean), g_s.append(g_se)
            bounds.append(bound), bounds0.append(bound_eps0)
            _, g_lo, g_hi = _mean_ci(res.gap[T], n_tests)
            table.append(dict(tau=tau, b=b, T0=T0f, T=T, gap=g_mean, gap_ci=[g_lo, g_hi], half_L1_dist2=h_mean,
                              terms=terms.tolist(), sigma2=sig2, dist2_T0_upper=d_hi))
        rows.append(f"tau={tau:g}, b={b}: T0={T0f:.0f}, sigma^2={sig2:.3g}, E gap at T0/2T0/3T0 = "
                    + "/".join(f"{t['gap']:.2g}" for t in table[-3:])
                    + f" vs bound {table[-3]['terms'][0] + sum(table[-3]['terms'][1:]):.2g}/"
                      f"{sum(table[-2]['terms']):.2g}/{sum(table[-1]['terms']):.2g} (terms at 3T0: "
                    + ", ".join(f"{x:.2g}" for x in table[-1]["terms"]) + ")")
    kw = dict(tests=2, of="Lemma 3 bound")
    dec_h = decide.bound(np.array(h_m), np.array(bounds), se=np.array(h_s), what="E[L1/2 ||theta_T - theta*||^2] <= "
                         "the four terms", **kw)
    dec_g = decide.bound(np.array(g_m), np.array(bounds), se=np.array(g_s), what="E gap <= the four terms", **kw)
    eps0 = decide.bound(np.array(h_m), np.array(bounds0), se=np.array(h_s), what="terms 1-2 only", **kw)
    reading = ("both readings hold: the bound holds with e = 2.718 and also with terms 3-4 at eps = 0 (the printed "
               "'epsilon' read as an accuracy), so the runs cannot discriminate; e is read as Euler's number from the "
               "source FedPAQ and the proof's O(1) treatment, not from these runs" if eps0["margin"]["tightness"] != "violated" else
               "only the Euler-e reading holds: with terms 3-4 dropped (printed epsilon -> 0) the bound is violated")
    return decide.combine(
        [dec_h, dec_g, decide.bound(smooth, 1.0, of="L1/2", what="first inequality replicate by replicate")],
        what=f"m={m}, p=2, mu={MU}, L1=2, reps={reps}, T in {{T0, 2T0, 3T0}} (T >= T0 checked); {reading}. "
             + "; ".join(rows),
        observed={"max_mean_over_bound": float(np.max(np.array(h_m) / np.array(bounds))),
                  "smoothness_max_ratio": max(smooth), "eps_reading_holds": eps0["margin"]["tightness"] != "violated", "table": table},
        bound={"lemma3": "sum of the four terms, e = Euler's number", "level": decide.LEVEL},
        params={"m": m, "reps": reps, "configs": configs, "mu": MU, "s": S_CLIENT})


# ----------------------------------------------------------------------------- (78)
def _form(T, b, m, p=2):
    return m ** 2 * p / (T ** 2 * b ** 2) + b * p / (m * T)


@PAPER.claim("fedlrgd.eq78.constant", "Eq. (78) (proof of Theorem 3)",
             "On exact FedAve runs, E F(theta_T) - F* <= C (m^2 p/(T^2 b^2) + b p/(m T)) for T >= T0 with a constant C: fitted "
             "as the largest ratio over a (T, b, m) grid; a constant C exists only if the gap decays at least like 1/T.",
             regime="the runs of fedlrgd.lemma3.runs (tau = 1) on a grid m in {4, 8} x b in {1, 4} (quick; full m in {4, 8, 16} x "
                    "b in {1, 2, 4, 8}) x T in {1, 2, 4} T0; E gap with simultaneous t intervals (level 1e-4 Bonferroni over "
                    "the points); C = max ratio with the max of the lower/upper CIs as its interval; refuted if the fitted T "
                    "exponent of log E gap = c + a_T log T + a_b log b + a_m log m (statsmodels OLS) is significantly "
                    "above -1 (one-sided t test of decide.bound with its standard error and the fit's residual degrees of "
                    "freedom, level 1e-4) "
                    "(the gap decays slower than the form's 1/T term, so no constant C); also reports the fit of log E gap on "
                    "log(form) and the residuals")
def fit_C(full: bool, seed):
    """Fit C of (78) across (T, b, m) (plain function; decorated below)."""
    ms = (4, 8, 16) if full else (4, 8)
    bs = (1, 2, 4, 8) if full else (1, 4)
    mults = (1, 2, 4)
    reps = 256 if full else 64
    seeds = spawn_seeds(seed, len(ms))
    pts = []
    for m, sd in zip(ms, seeds):
        prob, _ = fedave_problem(m, sd)
        for b, sdb in zip(bs, spawn_seeds(sd, len(bs))):
            T0 = math.ceil(lemma3_T0(prob.L1 / prob.mu, 1.0, m, prob.mu, b))
            res = run_fedave(prob, mults[-1] * T0, b, reps=reps, trace=True, seed=sdb)
            for c in mults:
                pts.append((m, b, c * T0, res.gap[c * T0]))
    form = np.array([_form(T, b, m) for m, b, T, _ in pts])
    means, los, his = map(np.array, zip(*(_mean_ci(g, len(pts)) for *_, g in pts)))
    ratio, ratio_lo, ratio_hi = means / form, los / form, his / form
    C_hat, C_lo, C_hi = float(ratio.max()), float(ratio_lo.max()), float(ratio_hi.max())
    gfit = decide.fit_line(form, means, model="loglog")
    # free exponents: log gap = c + a_T log T + a_b log b + a_m log m (statsmodels OLS)
    import statsmodels.api as sm
    X = np.array([[math.log(T), math.log(b), math.log(m)] for m, b, T, _ in pts])
    res = sm.OLS(np.log(means), sm.add_constant(X, has_constant="add")).fit()
    coef, se_T = res.params, float(res.bse[1])
    resid = res.resid
    resid_form = np.log(means) - (gfit["slope"] * np.log(form) + gfit["intercept"])
    # (78) asserts E gap <= C (form) with a constant C for all T >= T0: as T -> infinity the form decays like
    # b p/(m T), so the gap must decay at least like 1/T: the T exponent must be <= -1
    return decide.bound(
        float(coef[1]), -1.0, se=se_T, df=int(res.df_resid), of="T exponent",
        what=f"{len(pts)} grid points (m in {ms}, b in {bs}, T in {{1,2,4}} x T0, reps={reps}, p=2, mu={MU}): C = max_grid "
             f"E gap/(m^2 p/(T^2 b^2) + b p/(m T)) = {C_hat:.3g} [{C_lo:.3g}, {C_hi:.3g}]; log E gap = c + gamma "
             f"log(form): gamma = {gfit['slope']:.3f} CI [{gfit['ci'][0]:.3f}, {gfit['ci'][1]:.3f}]; free fit log E gap "
             f"= c + a_T log T + a_b log b + a_m log m: a_T = {coef[1]:.2f} (se {se_T:.2g}; <= -1 needed: the form decays "
             f"like 1/T), a_b = {coef[2]:.2f}, a_m = {coef[3]:.2f}, rms residual {np.sqrt(np.mean(resid ** 2)):.2f}: the "
             f"runs follow sigma^2/(mu m T b) (the variance of averaged SGD); C is an upper envelope, not a fit of the form",
        observed_value={"C_hat": C_hat, "C_ci": [C_lo, C_hi], "gamma": gfit["slope"], "gamma_ci": gfit["ci"],
                        "free_exponents": {"T": float(coef[1]), "b": float(coef[2]), "m": float(coef[3])},
                        "T_exponent_se": se_T, "rms_log_residual_free": float(np.sqrt(np.mean(resid ** 2))),
                        "rms_log_residual_form": float(np.sqrt(np.mean(resid_form ** 2))),
                        "points": [dict(m=m, b=b, T=T, gap=float(mu_), form=float(f))
                                   for (m, b, T, _), mu_, f in zip(pts, means, form)]},
        bound_value={"T_exponent_max": -1.0}, params={"ms": ms, "bs": bs, "reps": reps, "mu": MU, "s": S_CLIENT})


# ----------------------------------------------------------------------------- Theorem 3 on the runs
PHI = 200.0  # >= 40/(C^{1/4} tau) of (88) for the fitted C (about 0.01 -> 126)


def _ratio_C(res, b, m, T0, tests, mults):
    """Upper (and point) estimates of max_T E gap(T)/form(T, b, m) over T = c T0, c in ``mults``."""
    out = []
    for c in mults:
        T = int(c * T0)
        if T < res.trace_epochs.size:
            mean, lo, hi = _mean_ci(res.gap[T], tests)
            f = _form(T, b, m)
            out.append((mean / f, lo / f, hi / f))
    return out


@PAPER.claim("fedlrgd.thm3.runs", "Theorem 3; (79)-(89) on measured runs",
             "The measured federated oracle complexity of FedAve to reach E F(theta_T) - F* <= eps, min over b of T(b + phi tau m) "
             "with T the smallest epoch count that reaches eps, is at most 8 phi tau m (C/eps~)^{3/4} with C fitted on the same "
             "runs; reported against the bracket's lower end 3/4 phi tau m (C/eps~)^{3/4} and the Viete root b*.",
             regime="the FedAve of fedlrgd.lemma3.runs with m = 8, tau = 1, phi = 200 (>= 40/(C^{1/4} tau) of (88) for the fitted "
                    "C), eps = 2e-5 (eps~ = eps/p = 1e-5), b in {2, 4, 8} (quick) or {1, 2, 4, 8} (full), b <= m reading "
                    "b = O(m) with constant 1; T from a monotone search on one traced run per b (the smallest T whose upper "
                    "t-CI, level 1e-4 Bonferroni, is <= eps at T and at every later epoch up to 4 T0); C = the largest ratio "
                    "E gap/(m^2 p/(T^2 b^2) + b p/(m T)) over T in {1..4} T0, its upper CI used in the bound; inconclusive if "
                    "no b reaches eps by 4 T0")
def theorem3_runs(full: bool, seed):
    """Theorem 3 empirically (plain function; decorated below)."""
    m, tau, eps = 8, 1.0, 2e-5
    p = 2
    eps_t = eps / p
    bs = (1, 2, 4, 8) if full else (2, 4, 8)  # b <= m: b = O(m) (assumption 4) read with constant 1
    reps = 192 if full else 48
    mults = (1, 2, 3, 4)
    seeds = spawn_seeds(seed, len(bs) + 1)
    prob, _ = fedave_problem(m, seeds[0])
    tests = 2 * len(bs) * len(mults)  # Bonferroni over the C points and the searches
    conf = 1 - decide.corrected_level(tests)
    gam, Ts, ratios, T0s = {}, {}, [], {}
    for b, sd in zip(bs, seeds[1:]):
        T0 = math.ceil(lemma3_T0(prob.L1 / prob.mu, tau, m, prob.mu, b))
        T, G, res = fedave_gamma_to_target(prob, eps, b, T_max=mults[-1] * T0, tau=tau, phi=PHI, reps=reps,
                                           confidence=conf, seed=sd)
        gam[b], Ts[b] = G, T
        T0s[b] = T0
        ratios += _ratio_C(res, b, m, T0, tests, mults)
    C_hat = max(r[0] for r in ratios)
    C_hi = max(r[2] for r in ratios)
    b_emp = min(gam, key=gam.get)
    G_emp = gam[b_emp]
    (lo_b, hi_b), (blo, bhi) = fedave_bracket(m, PHI, tau, eps_t, C_hi)
    (lo_p, hi_p), _ = fedave_bracket(m, PHI, tau, eps_t, C_hat)
    try:
        b_viete = fedave_b_star_viete(m, PHI, tau, eps_t, C_hi)
    except ValueError:
        b_viete = math.nan
    phi_ok = PHI >= 40 / (C_hi ** 0.25 * tau)
    reached = math.isfinite(G_emp)
    where = ("below" if G_emp < lo_b else "inside" if G_emp <= hi_b else "above")
    what = (f"m={m}, tau={tau:g}, phi={PHI:g}, p=2, eps={eps:g} (eps~={eps_t:g}), reps={reps}: smallest T with upper "
            f"{100 * conf:.6g}% CI of E gap <= eps (and at all later T <= {mults[-1]} T0) per b: "
            + ", ".join(f"b={b}: T={Ts[b]}, Gamma={gam[b]:.4g}" for b in bs)
            + f"; empirical min Gamma = {G_emp:.4g} at b={b_emp}; C fitted on these runs (T in {{1..4}} T0) {C_hat:.3g}, "
              f"upper {C_hi:.3g}; Theorem 3 bracket [3/4, 8] phi tau m (C/eps~)^{{3/4}} = [{lo_b:.4g}, {hi_b:.4g}] with "
              f"the upper C ([{lo_p:.4g}, {hi_p:.4g}] with C_hat): the measured minimum is {where} it (the theorem's "
              f"assertion is the upper end); Viete b* = {b_viete:.3g} (bracket (89) [{blo:.3g}, {bhi:.3g}]) vs empirical "
              f"b = {b_emp}; (88) phi >= 40/(C^1/4 tau): {phi_ok}; Lemma 3's range T >= T0 at every b: "
              f"{all(Ts[b] is not None and Ts[b] >= T0s[b] for b in bs)}")
    return decide.premised(
        lambda: decide.bound(G_emp, hi_b, of="constant 8", what=what,
                             observed_value={"gamma_by_b": {str(b): g for b, g in gam.items()},
                                             "T_by_b": {str(b): t for b, t in Ts.items()}, "b_emp": b_emp,
                                             "gamma_emp": G_emp, "C_hat": C_hat, "C_upper": C_hi, "b_viete": b_viete,
                                             "bracket": [lo_b, hi_b], "bracket_C_hat": [lo_p, hi_p],
                                             "b_bracket_89": [blo, bhi], "gamma_over_lower_end": G_emp / lo_b},
                             bound_value={"gamma_upper": hi_b, "phi_condition_88": bool(phi_ok)},
                             regime="sharper reading reported: the measured Gamma against the bracket's lower end "
                                    "3/4 phi tau m (C/eps~)^{3/4} (gamma_over_lower_end)",
                             params={"m": m, "tau": tau, "phi": PHI, "eps": eps, "bs": bs, "reps": reps, "mu": MU,
                                     "s": S_CLIENT}),
        held=int(reached), trials=1, what=f"no b in {bs} reached E gap <= eps by {mults[-1]} T0", unit="target searches")


# ----------------------------------------------------------------------------- Proposition 1 on the runs
C_EPS = 2e-4  # eps = C_EPS n^{-1/2} (beta = 1/2)
R_MAX = 12


def fedlrgd_min_gamma(prob_c: LogisticProblem, pool, eps, phi, S_max=60, seed=0):
    """Smallest measured FedLRGD Gamma reaching F(theta_S) - F* <= eps over r = 2..len(pool) (S the first iterate
    that reaches eps, then a counted run with that S); returns ``(Gamma, r, S)`` (``inf`` if none reaches). The
    search stops once ``phi m r`` alone exceeds the best Gamma (Gamma >= phi m r)."""
    best = (math.inf, None, None)
    m, s = prob_c.Xc.shape[:2]
    for r in range(2, pool.shape[0] + 1):
        if phi * m * r >= best[0]:
            break
        prob = LogisticProblem(X0=pool[:r], Xc=prob_c.Xc, mu=prob_c.mu)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = run_fedlrgd(prob, S=S_max, phi=phi, seed=seed)
        hit = np.flatnonzero(res.gap[1:] <= eps)
        if hit.size == 0:
            continue
        S = int(hit[0]) + 1
        if r * r + r * s + r * S + phi * m * r >= best[0]:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = run_fedlrgd(prob, S=S, phi=phi, seed=seed)  # the counted run
        if res.gap[-1] <= eps:
            best = (res.gamma, r, S)
    return best


def fedave_min_gamma(prob, eps, bs, phi, reps, level, seed, t_mult=4):
    """Smallest measured FedAve Gamma to reach E gap <= eps (upper CI at ``1 - level``) over ``bs``; also the largest
    ratio E gap/form over the traced T in {1, 2, 3, 4} T0 (point and upper), for C of (78)."""
    out, ratios = {}, []
    m = prob.Xc.shape[0]
    for b, sd in zip(bs, spawn_seeds(seed, len(bs))):
        T0 = math.ceil(lemma3_T0(prob.L1 / prob.mu, 1.0, m, prob.mu, b))
        T, G, res = fedave_gamma_to_target(prob, eps, b, T_max=2 * t_mult * T0, phi=phi, reps=reps,
                                           confidence=1 - level, seed=sd)
        out[b] = (G, T)
        ratios += _ratio_C(res, b, m, T0, round(1 / level * decide.LEVEL), range(1, t_mult + 1))
    b = min(out, key=lambda k: out[k][0])
    return out[b][0], b, out[b][1], max(r[0] for r in ratios), max(r[2] for r in ratios)


def prop1_exponent_47(c1=4.0, alpha=1.0, d=1):
    """Exponent of p/eps in the corrected (47) along Proposition 1's family, from theorem2_r in log space: the slope
    of log r between p/eps = 1e40 and 1e80 (the second term dominates; ceil negligible)."""
    eta = (c1 + 2 * alpha + 2) * d
    r1 = theorem2_r(d, eta, alpha=alpha, eps=1e-40)
    r2 = theorem2_r(d, eta, alpha=alpha, eps=1e-80)
    return (math.log(r2) - math.log(r1)) / (math.log(1e80) - math.log(1e40))


@PAPER.claim("fedlrgd.prop1.runs", "Proposition 1 (Appendix E) on measured runs",
             "Along Proposition 1's scaling (m -> infinity, s = O(phi m), eps = Theta(n^{-beta})), the measured Gamma(FedLRGD) over "
             "Gamma_+(FedAve) = Theta(phi m (p/eps)^{3/4}) decreases toward 0 (negative log-log slope in m, with CI), and the "
             "exponent of p/eps in r is below 3/4 (measured from the r used, and exactly 1/(2 c1) from (47)).",
             regime="nested path: the first m clients of one draw, m = 4 2^{k/3} up to 64 (quick, 13 points) or 512 (full, 22 points); "
                    "s = 10, d = 3, p = 2, mu = 1, phi = 200, tau = 1, beta = 1/2 with eps = 2e-4 n^{-1/2}, n = m s; FedLRGD's "
                    "Gamma measured on exact runs (run_fedlrgd, counters) with the (r, S) of smallest Gamma that reaches "
                    "F - F* <= eps, r <= 12 server samples from the same distribution ((47)-(48) are not applicable: eta = 2 "
                    "< (2 alpha + 2) d); Gamma_+ = 8 phi tau m (C p/eps)^{3/4} with C fitted on FedAve runs at m in {4, 8} "
                    "(quick) or {4, 16, 64} (full), where FedAve's measured Gamma is also reported (b in {m/4, m}); slope "
                    "and r exponent by OLS with t intervals at level 1e-4/2 each; (47)'s exponent from theorem2_r in log "
                    "space on Proposition 1's family d = 1, alpha = 1, c1 = 4")
def prop1_runs(full: bool, seed):
    """Proposition 1 along its scaling (plain function; decorated below)."""
    ms = tuple(int(round(4 * 2 ** (k / 3))) for k in range(22 if full else 13))  # 4..512 (full), 4..64
    ave_ms = (4, 16, 64) if full else (4, 8)
    reps = 96 if full else 24
    p, tau = 2, 1.0
    sd_data, sd_lr, sd_ave = spawn_seeds(seed, 3)
    big, pool = fedave_problem(ms[-1], sd_data, r_pool=R_MAX)  # nested path: the first m clients of one draw
    level_ave = decide.corrected_level(2 * len(ave_ms) * 2 * 4)
    rows, ave = [], {}
    for m in ms:
        prob = LogisticProblem(X0=np.empty((0, 3)), Xc=big.Xc[:m], mu=big.mu)
        eps = C_EPS / math.sqrt(m * S_CLIENT)
        G_lr, r, S = fedlrgd_min_gamma(prob, pool, eps, PHI, seed=sd_lr)
        if m in ave_ms:
            ave[m] = fedave_min_gamma(prob, eps, (max(1, m // 4), m), PHI, reps, level_ave, sd_ave)
        rows.append((m, eps, G_lr, r, S))
    ok_rows = [x for x in rows if math.isfinite(x[2])]
    C_hat = max(v[3] for v in ave.values())
    C_hi = max(v[4] for v in ave.values())
    G_plus = {m: 8 * PHI * tau * m * (C_hat * p / e) ** 0.75 for m, e, *_ in rows}
    ex47 = prop1_exponent_47()
    meas = {m: next(x for x in rows if x[0] == m)[2] / ave[m][0] for m in ave}
    ms_a = sorted(meas)
    with np.errstate(divide="ignore"):
        sl_meas = float((np.log(meas[ms_a[-1]]) - np.log(meas[ms_a[0]])) / (math.log(ms_a[-1]) - math.log(ms_a[0])))
    table = ", ".join(f"m={m}: eps={e:.2g}, FedLRGD Gamma={gl:.5g} (r={r}, S={S})" for m, e, gl, r, S in rows)
    atable = ", ".join(f"m={m}: FedAve Gamma={v[0]:.5g} (b={v[1]}, T={v[2]}), FedLRGD/FedAve = {meas[m]:.3g}"
                       for m, v in ave.items())

    def _decide():
        ratio = [x[2] / G_plus[x[0]] for x in ok_rows]
        kw = dict(alternative="less", tests=2, unit="path extensions")
        return decide.combine(
            [decide.rate([x[0] for x in ok_rows], ratio, claimed=0.0, what="log(Gamma_FedLRGD/Gamma_+) vs log m "
                         "(Proposition 1: -> 0, slope <= 0)", **kw),
             decide.rate([p / x[1] for x in ok_rows], [x[3] for x in ok_rows], claimed=0.75, what="exponent of p/eps in "
                         "the measured r (< 3/4)", **kw),
             decide.bound(ex47, 0.75, of="exponent 3/4", what="(47)'s exponent 1/(2 c1) along Proposition 1's family")],
            what=f"nested path m in {ms}, s={S_CLIENT} (= O(phi m)), d=3, p=2, eps = {C_EPS:g} n^(-1/2) (beta=1/2), "
                 f"phi={PHI:g}, tau=1, mu={MU}: {table}; Gamma_+ = 8 phi tau m (C p/eps)^(3/4) with C = {C_hat:.3g} "
                 f"fitted on the FedAve runs; the logistic example (eta = 2) is outside Theorem 2's regime, so the "
                 f"measured r exponent is not (47)'s; (47) along Proposition 1's family (d=1, alpha=1, c1=4, eta=8) in "
                 f"log space: {ex47:.4f} = 1/(2 c1) = {1 / 8:.4f}. Against FedAve's measured Gamma (b in {{m/4, m}}): "
                 f"{atable}; slope of the measured ratio {sl_meas:.3f} over m = {ms_a[0]}..{ms_a[-1]} (not the paper's "
                 f"claim, which compares with the upper bound Gamma_+)",
            observed={"exponent_47": ex47, "C_hat": C_hat, "C_upper": C_hi,
                      "measured_ratio": {str(m): v for m, v in meas.items()}, "measured_ratio_slope": sl_meas,
                      "fedave": {str(m): dict(gamma=v[0], b=v[1], T=v[2]) for m, v in ave.items()},
                      "rows": [dict(m=m, eps=e, gamma_fedlrgd=gl, r=r, S=S, gamma_plus=G_plus[m])
                               for m, e, gl, r, S in rows]},
            bound={"slope_max": 0.0, "exponent_max": 0.75},
            params={"ms": ms, "ave_ms": ave_ms, "reps": reps, "phi": PHI, "c_eps": C_EPS, "s": S_CLIENT,
                    "r_max": R_MAX})
    return decide.premised(_decide, held=int(len(ok_rows) >= 3), trials=1, unit="paths",
                           what=f"fewer than 3 path points where FedLRGD reached eps with r <= {R_MAX}")
