"""Theorems 14, 15, 27, 28: decaying schedules, recursion (32) and the App. A.5 sums.

Han, Li, Lin & Zhang (2024), JMLR 25, Sec. 4.1.3 and App. A.5-A.6. Runs use the shared stochastic runner
:func:`fedtheory.lpproj.stochastic.run_algorithm1_sgd` (Algorithm 1, p = 2, mini-batch inner problems solved by
gradient descent to ``||grad h~_k||^2 <= nu_t``) with the schedules of :mod:`fedtheory.lpproj.schedules`.
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from fedtheory import decide
from fedtheory.lpproj import schedules as sch
from fedtheory.lpproj import stochastic as sto
from fedtheory.lpproj.model import make_projection
from fedtheory.random import as_generator, spawn_seeds
from fedtheory.montecarlo import estimate_from_samples
from . import PAPER


# ----------------------------------------------------------------------------- configurations
#: Theorem 14 problem: least squares, the paper's P (Gaussian, unit-norm rows), ridge = Assumption 1's mu
THM14 = dict(N=8, n=60, d=6, d_sub=3, ridge=0.5, heterogeneity=1.0, lam=0.05, beta=50.0, R=2, S=3)
#: Theorem 14 rounds as multiples of zeta (quick, full) and replicates (quick, full) per case
THM14_TMAX = (4.0, 16.0)
THM14_REPS = ((32, 2), (48, 2))
#: first batch D_0 of the S = N schedule (quick, full): the full batch n = 60, so the run is deterministic and the
#: O(1/(beta^2 T^2)) drift term is visible (with D_0 = 8 the early mini-batch noise leaves a transient that decays
#: like (zeta+T)^-12 and still dominates at T = 16 zeta: slope -12.7, consistent with but not showing the rate)
THM14_D0_NO_SAMPLING = (60, 60)
#: allowance on the stated slope for the finite-T curvature of the fitted curve (the verdict threshold is
#: stated slope + this)
SLOPE_TOL = 0.1
#: Theorem 15 problem: Assumption 6 (data in row(P)), orthonormal P (s = 0 < 1/30), ridge 0, per-sample
#: smoothness L0 (all rows of norm sqrt(L0)), lam = max(sqrt(10 L0^2 + 1), 4 L0)
THM15 = dict(N=8, n=60, d=6, d_sub=2, L0=0.3, noise=0.3, heterogeneity=1.0, R=2)
THM15_BETA_NO_SAMPLING = 2000.0
#: "asymptotic regime" of Theorem 15's fits: mu_F sum_{t < T_min} eta~_t >= this (transient below e^-10)
THM15_HT = 5.0


def _thm14_problem(seed):
    p = THM14
    return sto.make_least_squares_clients(p["N"], p["n"], p["d"], p["d_sub"], ridge=p["ridge"],
                                          heterogeneity=p["heterogeneity"], orthonormal_P=False, seed=seed)


def _thm14_constants(cl):
    lam = THM14["lam"]
    mu_F, L_F = cl.prop3_constants(lam, mu=cl.mu_sample)  # Proposition 3 with Assumption 1's mu, L_F = lam
    return lam, mu_F, L_F


def _thm14_schedule(cl, T, no_sampling, D0):
    """Theorem 14's schedule with D chosen so that the first batch is D0 samples."""
    p = THM14
    lam, mu_F, L_F = _thm14_constants(cl)
    zeta = sch.theorem14_zeta(L_F / mu_F, p["beta"])
    D = (mu_F * p["beta"] ** 2 * zeta ** 2 if no_sampling else mu_F * zeta) / D0
    return sch.theorem14_schedule(T, mu_F=mu_F, L_F=L_F, beta=p["beta"], R=p["R"], D=D, no_sampling=no_sampling,
                                  n=cl.n)


def _thm14_run(cl, schedule, *, no_sampling, reps, seed, w0=None, record=False, warm_start=True, exact=False):
    p = THM14
    lam = p["lam"]
    return sto.run_algorithm1_sgd(cl, lam, T=schedule.eta.size, R=p["R"], S=cl.N if no_sampling else p["S"],
                                  beta=p["beta"], eta=schedule.eta, batch=schedule.batch,
                                  nu=None if exact else schedule.nu, replicates=reps, seed=seed, w0=cl.w_star(lam) if w0 is None else w0,
                                  regime="theorem14", record=record, warm_start=warm_start)


# ----------------------------------------------------------------------------- Theorem 14 / 27 rates
@PAPER.claim("lpproj.thm14.rate", "Theorem 14 (formal: Theorem 27), both schedules",
             "Under Theorem 14's schedules (eta_t = 8/(beta R mu_F (zeta+t)), nu_t = 8/(mu_F (zeta+t)), D_t = "
             "ceil(mu_F (zeta+t)/D)) E||w~_T - w~*||^2 = O(1/T); with S = N and nu_t, D_t ~ (zeta+t)^2 it is "
             "O(1/(beta^2 T^2)): the log-log slope of E||w~_T - w~*||^2 is <= -1 (S < N) and <= -2 (S = N).",
             regime="Assumptions 1-3: least squares f_k (N=8, n=60, d=6, d_sub=3, ridge 0.5 = Assumption 1's "
                    "per-sample mu, heterogeneous clients), the paper's Gaussian unit-row P (s read from P), "
                    "lam = 0.05, beta = 50, R = 2; mu_F from Proposition 3 with that mu, L_F = lam, kappa_F = "
                    "L_F/mu_F, zeta = 72 kappa_F (1 + 7 kappa_F/beta) ~ 100; D chosen so that D_0 = 2 (S = 3 < N; "
                    "inner GD restarted from 0 each local step and stopped at ||grad h~||^2 <= nu_t, so the "
                    "nu_t-bias is exercised) or D_0 = 60 = n (full batches, a deterministic run) with S = N, where the inner problems are solved exactly (||grad h~||^2 = 0 <= nu_t; with a GD "
                    "solver the error sits anywhere inside the O(nu_t) envelope in a sawtooth whose period in "
                    "zeta+T is a factor ~2, which a fit over [zeta/2, 4 zeta] cannot average); D_t "
                    "capped at n (full batch) where the schedule asks for more; w~_0 = w~* so that the initialisation term (which decays like (zeta/(zeta+T))^4 or "
                    "faster) does not mask the terms that carry the rate. O(1/T) for all T >= 1 is read as "
                    "E Delta_T <= C/(zeta+T) (zeta is a constant): the slope is fitted against log(zeta+T) on 7 "
                    "geometric T in [zeta/2, T_max] (T_max = 4 zeta quick, 16 zeta full), least squares on the "
                    "log of every replicate's Delta_T (S < N) or of the deterministic run (S = N), OLS with its t interval (decide.rate with alternative 'less', Bonferroni "
                    "over the 2 cases); the claimed exponent is read as the stated slope + 0.1 (finite-T curvature "
                    "allowance): refuted if the interval lies entirely above it. The slope against T itself and "
                    "the bootstrap interval over replicates are reported too")
def _thm14_rate(full: bool, seed):
    s_prob, s_a, s_b, s_boot = spawn_seeds(seed, 4)
    cl = _thm14_problem(s_prob)
    lam, mu_F, L_F = _thm14_constants(cl)
    ws = cl.w_star(lam)
    out_obs, decisions = {}, []
    for no_sampling, s_run, stated, reps, D0 in ((False, s_a, -1.0, THM14_REPS[bool(full)][0], 2),
                                                 (True, s_b, -2.0, THM14_REPS[bool(full)][1],
                                                  THM14_D0_NO_SAMPLING[bool(full)])):
        zeta = sch.theorem14_zeta(L_F / mu_F, THM14["beta"])
        T = int(math.ceil(THM14_TMAX[bool(full)] * zeta))
        schedule = _thm14_schedule(cl, T, no_sampling, D0)
        res = _thm14_run(cl, schedule, no_sampling=no_sampling, reps=reps, seed=s_run, warm_start=False,
                         exact=no_sampling)
        Ts = np.unique(np.round(np.geomspace(zeta / 2, T, 7)).astype(int))
        Y = np.sum((res.history[:, Ts] - ws) ** 2, -1)
        fit = sch.loglog_slope(zeta + Ts, Y, seed=s_boot)
        fit_T = sch.loglog_slope(Ts, Y, seed=s_boot)
        case = "S=N" if no_sampling else "S<N"
        # S < N: every replicate's Delta_T is a point of the fit; S = N: a deterministic run, the means
        x, y = (zeta + Ts, fit.mean) if no_sampling else (np.tile(zeta + Ts, reps), Y.ravel())
        decisions.append(decide.rate(x, y, claimed=stated + SLOPE_TOL, alternative="less", tests=2,
                                     what=f"{case} (vs T: {fit_T.slope:.2f}; bootstrap 99% CI [{fit.ci[0]:.3f}, "
                                          f"{fit.ci[1]:.3f}]; {reps} replicates; T up to {T}; "
                                          f"{int(schedule.capped.sum())} of {T} rounds at the full batch)"))
        out_obs[case] = {"slope_vs_zeta_plus_T": fit.slope, "ci99_bootstrap": list(fit.ci), "slope_vs_T": fit_T.slope,
                         "ci99_vs_T": list(fit_T.ci), "T": Ts.tolist(), "E_Delta_T": fit.mean.tolist(),
                         "replicates": reps, "rounds_capped_at_n": int(schedule.capped.sum())}
    return decide.combine(decisions, observed=out_obs, bound={"stated_slope": {"S<N": -1.0, "S=N": -2.0},
                                                              "tolerance": SLOPE_TOL},
                what=f"zeta = {zeta:.1f}, mu_F = {mu_F:.4g}, kappa_F = {L_F / mu_F:.3f}",
                params={**THM14, "zeta": zeta, "mu_F": mu_F, "T_max_over_zeta": THM14_TMAX[bool(full)]})


# ----------------------------------------------------------------------------- recursion (32)
def _local_points(res, schedule, R):
    """w~_{k,r}^t reconstructed from the recorded g: w~_t - eta_t sum_{r'<r} g_{k,r'} -> (reps, T, R, N, d_sub)."""
    g = res.record["g"]  # (reps, T, R, N, ds)
    w = res.history[:, :-1]  # (reps, T, ds)
    cum = np.concatenate([np.zeros_like(g[:, :, :1]), np.cumsum(g, axis=2)[:, :, :-1]], axis=2)
    return w[:, :, None, None, :] - schedule.eta[None, :, None, None, None] * cum


#: rounds and replicates of the recursion check (quick, full)
EQ32_T = (40, 200)
EQ32_REPS = (24, 200)
#: the sharper reading of (32) reported beside the printed one: additive terms divided by this
EQ32_SHARPER = 1000.0


@PAPER.claim("lpproj.eq32.recursion", "App. A.5, recursion (32) (proof of Theorem 27)",
             "With Theorem 14's schedules, E Delta_{t+1} <= (1 - mu_F eta~_t/2) E Delta_t + eta~_t^2 (C_0 C_1 + C_2) + "
             "eta~_t^3 C_3/beta^2 + eta~_t^4 C_0 C_4/beta^2 at every round t, with C_0 = 2(1+s)^2/mu^2 (1 + D gamma_f^2/8), "
             "C_1 = 10 lam^2/mu_F, C_2 = 6 sigma_F1^2 (N/S-1)/(N-1), C_3 = 280 kappa_F L_F sigma_F1^2, "
             "C_4 = 200 kappa_F L_F lam^2.",
             regime="the Theorem 14 problem of lpproj.thm14.rate (S = 3 of N = 8, D_0 = 2, w~_0 = 0 so the "
                    "contraction is exercised); mu = Assumption 1's per-sample mu (= ridge), s read from P, "
                    "sigma_F1^2 exact, gamma_f^2 the largest per-sample gradient variance at the exact inner "
                    "solutions x_hat_k(w~^t_{k,r}) visited by the runs (least squares has no global gamma_f); per "
                    "round, X_t = Delta_{t+1} - (1 - mu_F eta~_t/2) Delta_t over replicates; (32) is refuted if "
                    "E X_t significantly exceeds the additive terms at some t (decide.bound, one-sided z, "
                    "Bonferroni over rounds and the 2 readings). The printed (32) holds with E Delta_(t+1)/RHS <= "
                    "0.0016 (about 600x slack) and cannot detect a constant off by 100x; a sharper reading is "
                    "decided beside it: contraction 1 - mu_F eta~_t (twice the printed rate) with the additive "
                    "terms divided by 1000")
def _eq32(full: bool, seed):
    s_prob, s_run = spawn_seeds(seed, 2)
    cl = _thm14_problem(s_prob)
    lam, mu_F, L_F = _thm14_constants(cl)
    p = THM14
    T, reps = EQ32_T[bool(full)], EQ32_REPS[bool(full)]
    schedule = _thm14_schedule(cl, T, False, 2)
    res = _thm14_run(cl, schedule, no_sampling=False, reps=reps, seed=s_run, w0=np.zeros(cl.d_sub), record=True)
    pts = _local_points(res, schedule, p["R"])
    gamma = cl.gamma_f_sq(cl.x_hat(pts.reshape(-1, cl.N, cl.d_sub), lam))
    C = sch.recursion32_constants(lam=lam, mu=cl.mu_sample, mu_F=mu_F, L_F=L_F, s=cl.s, gamma_f_sq=gamma,
                                  sigma_F1_sq=cl.sigma_F1_sq(lam), N=cl.N, S=p["S"], D=schedule.params["D"])
    ws = cl.w_star(lam)
    Dl = np.sum((res.history - ws) ** 2, -1)  # (reps, T+1)
    h = schedule.eta_tilde
    X = Dl[:, 1:] - (1 - mu_F * h / 2) * Dl[:, :-1]
    add = sch.recursion32_rhs(0.0, h, C, beta=p["beta"])  # the additive terms (E Delta = 0)
    est = estimate_from_samples(X)
    EDn = Dl.mean(0)
    ratio = EDn[1:] / sch.recursion32_rhs(EDn[:-1], h, C, beta=p["beta"])
    printed = decide.bound(est, add, of="additive constants C_0..C_4", tests=2,
                           what="(32) as printed: E[Delta_(t+1) - (1 - mu_F eta~_t/2) Delta_t] <= additive terms, "
                                f"every round (Bonferroni over {T})")
    # a sharper reading, reported beside: the contraction of one round is at least 1 - mu_F eta~_t (twice the printed
    # rate) and the additive terms are needed only at a thousandth of their printed size
    X2 = Dl[:, 1:] - (1 - mu_F * h) * Dl[:, :-1]
    sharp = decide.bound(estimate_from_samples(X2), add / EQ32_SHARPER, of="additive constants", tests=2,
                         what=f"sharper reading: contraction 1 - mu_F eta~_t and additive terms / {EQ32_SHARPER:g}")
    return decide.combine([printed, sharp], what=f"{T} rounds x {reps} replicates, {C.summary()}, gamma_f^2 = {gamma:.3g}; "
                          f"E Delta_(t+1)/RHS(32) <= {ratio.max():.3g}",
                          observed={"max_ratio_E_Delta_next_over_rhs": float(ratio.max()),
                                    "max_E_X_over_additive": float(np.max(est.mean / add)),
                                    "printed": printed["margin"], "sharper": sharp["margin"],
                                    "gamma_f_sq": gamma, "replicates": reps, "T": T},
                          bound={"C0": C.C0, "C1": C.C1, "C2": C.C2, "C3": C.C3, "C4": C.C4},
                          params={**p, "T": T, "replicates": reps, "D": schedule.params["D"]})


# ----------------------------------------------------------------------------- Theorem 27 personalised bound
THM27_T = (60, 200)
THM27_REPS = (32, 128)


@PAPER.claim("lpproj.thm27.personalised", "Theorem 27 (proof, App. A.5): personalised-model bound",
             "E||x_k^T - x_k^*||^2 <= (4/mu^2)(gamma_f^2/D_T + nu_T) + (2 lam^2 (1+s)^2/mu^2) E||w~_T - w~*||^2 for "
             "every client k, where x_k^T solves the mini-batch inner problem at w~_T to ||grad h~_k||^2 <= nu_T and "
             "x_k^* = argmin f_k(x) + lam/2 ||w~* - P x||^2.",
             regime="the Theorem 14 problem (S = 3 of N = 8, D_0 = 2, w~_0 = 0), T = 60 (quick) / 200 (full); "
                    "x_k^T is the runner's final inner solve (batch D_{T-1} and tolerance nu_{T-1}, used in the "
                    "bound in place of D_T, nu_T); mu = Assumption 1's per-sample mu, s read from P, gamma_f^2 the "
                    "largest per-sample gradient variance at the exact solutions x_hat_k(w~_T); per client, "
                    "||x_k - x_k^*||^2 - (2 lam^2 (1+s)^2/mu^2) Delta_T over replicates; refuted if its mean "
                    "significantly exceeds (4/mu^2)(gamma_f^2/D + nu) (decide.bound, one-sided z, Bonferroni over "
                    "clients)")
def _thm27_personal(full: bool, seed):
    s_prob, s_run = spawn_seeds(seed, 2)
    cl = _thm14_problem(s_prob)
    lam, mu_F, L_F = _thm14_constants(cl)
    T, reps = THM27_T[bool(full)], THM27_REPS[bool(full)]
    schedule = _thm14_schedule(cl, T, False, 2)
    res = _thm14_run(cl, schedule, no_sampling=False, reps=reps, seed=s_run, w0=np.zeros(cl.d_sub))
    ws = cl.w_star(lam)
    x_star = cl.x_hat(np.broadcast_to(ws, (cl.N, cl.d_sub)), lam)  # (N, d)
    wT = res.history[:, -1]
    DeltaT = np.sum((wT - ws) ** 2, -1)  # (reps,)
    xhatT = cl.x_hat(np.broadcast_to(wT[:, None, :], (reps, cl.N, cl.d_sub)), lam)
    gamma = cl.gamma_f_sq(xhatT)
    mu = cl.mu_sample
    first = 4 / mu ** 2 * (gamma / schedule.batch[-1] + schedule.nu[-1])
    coef = 2 * lam ** 2 * (1 + cl.s) ** 2 / mu ** 2
    dist = np.sum((res.x - x_star) ** 2, -1)  # (reps, N)
    Z = dist - coef * DeltaT[:, None]
    Ed = dist.mean(0)
    bound = first + coef * DeltaT.mean()
    return decide.bound(estimate_from_samples(Z), first, of="the bound's first term",
                what=f"per client, E[||x_k - x_k^*||^2 - coef Delta_T] <= (4/mu^2)(gamma_f^2/D + nu) (Bonferroni over "
                     f"{cl.N} clients); T={T}, {reps} replicates: max_k E||x_k^T - x_k^*||^2 = {Ed.max():.3g} vs bound "
                     f"{bound:.3g} (= {first:.3g} + {coef:.3g} x E Delta_T {DeltaT.mean():.3g}); ratio "
                     f"<= {np.max(Ed / bound):.3g}",
                observed_value={"E_dist_sq_by_client": Ed.tolist(), "max_ratio": float(np.max(Ed / bound)),
                                "E_Delta_T": float(DeltaT.mean())},
                bound_value={"bound": float(bound), "first_term": float(first), "coef": float(coef), "gamma_f_sq": gamma},
                params={**THM14, "T": T, "replicates": reps, "D_last": int(schedule.batch[-1]),
                        "nu_last": float(schedule.nu[-1])})


# ----------------------------------------------------------------------------- Theorem 15 / 28 rates
def _thm15_problem(seed):
    """Assumption 6 clients: rows of Xi_k in row(P) with norm sqrt(L0) (per-sample smoothness L0), ridge 0."""
    p = THM15
    rng = as_generator(seed)
    P = make_projection(p["d_sub"], p["d"], orthonormal=True, seed=rng)
    Z = rng.standard_normal((p["N"], p["n"], p["d_sub"]))
    Z /= np.linalg.norm(Z, axis=-1, keepdims=True)
    Xi = math.sqrt(p["L0"]) * Z @ P
    xo = rng.standard_normal(p["d"]) + p["heterogeneity"] * rng.standard_normal((p["N"], p["d"]))
    y = np.einsum("knd,kd->kn", Xi, xo) + p["noise"] * rng.standard_normal((p["N"], p["n"]))
    return sto.LeastSquaresClients(Xi=Xi, y=y, P=P, ridge=0.0, a6=True)


def _thm15_fit(full, seed, *, no_sampling):
    p = THM15
    s_prob, s_run, s_boot = spawn_seeds(seed, 3)
    cl = _thm15_problem(s_prob)
    L0 = p["L0"]
    lam = sch.theorem15_lambda_min(L0)
    beta = THM15_BETA_NO_SAMPLING if no_sampling else 1.0
    c = 90 * lam ** 3
    T = (600 if no_sampling else 200) if not full else (6400 if no_sampling else 3200)
    reps = (3 if no_sampling else 2) if not full else (16 if no_sampling else 8)
    D = c * beta ** (2 / 3) / 2 if no_sampling else c / 2  # D_0 = 2
    schedule = sch.theorem15_schedule(T, lam=lam, beta=beta, R=p["R"], D=D, no_sampling=no_sampling, n=cl.n, L=L0)
    res = sto.run_algorithm1_sgd(cl, lam, T=T, R=p["R"], S=cl.N if no_sampling else 3, beta=beta, eta=schedule.eta,
                                 batch=schedule.batch, nu=schedule.nu, replicates=reps, seed=s_run,
                                 w0=np.zeros(cl.d_sub), regime="theorem15")
    g2 = np.sum(cl.grad_F(res.history[:, :T], lam) ** 2, -1)  # (reps, T): ||grad F(w~_t)||^2
    # transient criterion with the true smallest curvature of F
    h_min = float(np.linalg.eigvalsh(cl.hessian_F_k(lam).mean(0))[0])
    cum = np.cumsum(schedule.eta_tilde)
    T_min_ok = int(np.searchsorted(h_min * cum, THM15_HT)) + 1  # first T with h sum_{t<T} eta~_t >= 5
    T_lo = max(T // 8, T_min_ok)
    Ts = np.unique(np.round(np.geomspace(T_lo, T, 6)).astype(int)) if T_lo < T else np.array([T // 2, T])
    # E||grad F(w~_{t*})||^2 = sum_i alpha_i E||grad F(w~_i)||^2 (exact over the law of t*)
    Y = np.stack([(g2[:, :Tq] * sch.sampling_law(schedule.eta[:Tq])).sum(1) for Tq in Ts], 1)
    fit = sch.loglog_slope(Ts, Y, seed=s_boot)
    stated = -2 / 3 if no_sampling else -0.5
    allowance = 1 / math.log(Ts[0])  # largest local slope of ln T * T^stated over the range, minus stated
    obs = {"slope": fit.slope, "ci99_bootstrap": list(fit.ci), "T": Ts.tolist(), "E_grad_sq_tstar": fit.mean.tolist(),
           "replicates": reps, "h_min": h_min, "T_end_of_transient": T_min_ok}
    bnd = {"stated_slope": stated, "log_allowance": allowance, "tolerance": SLOPE_TOL}
    head = f"A6 least squares (orthonormal P, s = {cl.s:.1e}), L0 = {L0}, lam = {lam:.4f}: "
    params = {**THM15, "lam": lam, "beta": beta, "T_max": T, "replicates": reps, "D": D}
    if T_min_ok > T // 2:
        # not in the asymptotic regime: the rounds after which (smallest curvature) x sum eta~_t >= 5
        # (eta~_t ~ 1/(c sqrt(t+1)) or beta^{2/3}/(c (t+1)^{1/3}))
        need = ((THM15_HT * c / (2 * h_min)) ** 2 if not no_sampling
                else (THM15_HT * c / (1.5 * beta ** (2 / 3) * h_min)) ** 1.5)
        obs["T_end_of_transient"] = float(need)
        return decide.inconclusive(
            obs, bnd, needed=int(math.ceil(need)), unit="rounds", current=T, test="slope fit in the asymptotic regime",
            effect=f"the transient below e^-{2 * THM15_HT:g} (min curvature x sum eta~_t >= {THM15_HT:g})", params=params,
            what=head + f"not in the asymptotic regime: min curvature {h_min:.3g} x sum_(t<T) eta~_t reaches "
                        f"{THM15_HT:g} only at T ~ {need:.2g} rounds (eta~_t = 1/(90 lam^3 sqrt(t+1)), lam = {lam:.3f}); "
                        f"at T <= {T} the alpha-weighted E||grad F||^2 is still {Y.mean(0)[-1] / g2.mean(0)[0]:.3f} "
                        f"of its initial value (slope {fit.slope:.3f}, bootstrap CI [{fit.ci[0]:.3f}, {fit.ci[1]:.3f}])")
    # the stated reading: slope <= stated + 1/ln T_min (the log factor) + SLOPE_TOL, every replicate a point
    x, y = np.tile(Ts, reps), Y.ravel()
    lenient = decide.rate(x, y, claimed=stated + allowance + SLOPE_TOL, alternative="less", tests=2,
                          what=f"stated reading, slope <= {stated:.3f} + 1/ln T_min {allowance:.3f} + {SLOPE_TOL}")
    # the stricter reading: the slope is consistent with the stated exponent itself (two-sided)
    strict = decide.rate(x, y, claimed=stated, alternative="two-sided", tests=2,
                         what=f"stricter reading, slope = {stated:.3f}")
    obs.update(stated_reading=lenient["observed"], stricter_reading={"outcome": strict["status"],
                                                                     "margin": strict["margin"]})
    return dict(lenient, observed=obs, bound=bnd, params={**params, **lenient["params"]},
                evidence=head + lenient["evidence"] + "; " + strict["evidence"]
                + (f"; stricter reading undecided: {strict['power']['statement']}" if strict.get("power") else ""))


@PAPER.claim("lpproj.thm15.rate-no-sampling", "Theorem 15 (formal: Theorem 28), S = N schedules",
             "With S = N and eta_t = 1/(90 beta^{1/3} R lam^2 L_F (t+1)^{1/3}), nu_t = 1/(90 lam^2 L_F beta^{2/3} "
             "(t+1)^{2/3}), D_t = ceil(90 lam^2 L_F beta^{2/3} (t+1)^{2/3}/D): E||grad F(w~_{t*})||^2 = "
             "O(ln T/(beta^{2/3} T^{2/3})), t* drawn with P(t* = i) = eta_i/sum eta.",
             regime="Assumptions 2-6 on least squares whose rows lie in row(P) (A6) with orthonormal P (s = 0 < 1/30), "
                    "ridge 0, rows of norm sqrt(L0), L0 = 0.3 (per-sample smoothness), lam = max(sqrt(10 L0^2 + 1), "
                    "4 L0) = 1.378, L_F = lam, beta = 2000, R = 2, D with D_0 = 2 (capped at n = 60), w~_0 = 0; "
                    "E over t* evaluated exactly from the law alpha_i; 6 geometric T from the first T at which "
                    "(smallest curvature of F) x sum eta~_t >= 5 (asymptotic regime); slope of log E||grad F||^2 "
                    "against log T fitted on every replicate's value (decide.rate, OLS t interval, Bonferroni over "
                    "2 readings). Stated reading (decides the claim): O(.) read as an upper rate, the log factor "
                    "allowed as +1/ln T_min and a finite-T allowance 0.1, i.e. any slope <= -2/3 + 0.18 + 0.1 ~ "
                    "-0.38 is accepted; refuted if the interval lies entirely above that. Stricter reading (reported "
                    "beside, in observed and evidence): the slope is consistent with -2/3 itself (two-sided)")
def _thm15_rate_nosamp(full: bool, seed):
    return _thm15_fit(full, seed, no_sampling=True)


@PAPER.claim("lpproj.thm15.rate", "Theorem 15 (formal: Theorem 28), client sampling (S < N)",
             "With eta_t = 1/(90 beta R lam^2 L_F sqrt(t+1)), nu_t = 1/(90 lam^2 L_F sqrt(t+1)), D_t = ceil(90 lam^2 "
             "L_F sqrt(t+1)/D): E||grad F(w~_{t*})||^2 = O(ln T/sqrt(T)).",
             regime="the A6 problem of lpproj.thm15.rate-no-sampling with S = 3 of N = 8, beta = 1; the rate is "
                    "decided only in the asymptotic regime (smallest curvature of F x sum eta~_t >= 5) with the "
                    "slope rule of that claim (stated -1/2 + 1/ln T_min + 0.1); before it the claim is "
                    "inconclusive, with the number of rounds that reach the asymptotic regime as the size that "
                    "would decide it (decide.inconclusive)")
def _thm15_rate(full: bool, seed):
    return _thm15_fit(full, seed, no_sampling=False)


# ----------------------------------------------------------------------------- errata: App. A.5 sums
def _a5_referee(T, zeta, mu_F):
    """sum_{t<T} eta~_t^k prod_{s=t+1}^{T-1}(1 - mu_F eta~_s/2), k = 2, 3, 4, by direct products in exact rationals."""
    h = [Fraction(8) / (mu_F * (zeta + t)) for t in range(T)]
    out = []
    for k in (2, 3, 4):
        tot = Fraction(0)
        for t in range(T):
            prod = Fraction(1)
            for s in range(t + 1, T):
                prod *= 1 - mu_F * h[s] / 2
            tot += h[t] ** k * prod
        out.append(tot)
    return out


@PAPER.claim("lpproj.a5.sums.erratum", "App. A.5, the three step-size sums after (32) (proof of Theorem 27)",
             "For eta~_t = 8/(mu_F (zeta+t)): sum_t eta~_t^2 prod_{s>t}(1 - mu_F eta~_s/2) <= 16/(3 mu_F^2 (zeta+T-1)), "
             "the eta~^3 sum <= 32/(mu_F^3 (zeta+T-1)(zeta+T-2)) and the eta~^4 sum <= 256 T/(mu_F^4 prod_{j=1}^4 "
             "(zeta+T-j)) (printed); corrected constants 64/3, 256 and 4096 (those of eta~_t = 8/...; the printed "
             "ones belong to eta~_t = 4/...).",
             root_cause="a5-sums-step-constant",
             regime="exact rational arithmetic: zeta in {73, 100, 1009/7} (and 250 in full mode; > 4, as zeta = "
                    "72 kappa_F(1 + 7 kappa_F/beta) >= 72), mu_F in {1, 1/3}, T in {1, 2, 5, 20} (and 60) by direct "
                    "products (referee) and T = 100 (and 400, 1500) by the exact recursion of fedtheory.lpproj.schedules.a5_sums (checked equal to "
                    "the direct products where both run); a bound holds if it holds at every grid point")
def _a5_sums(full: bool, seed):
    grid_z = [Fraction(73), Fraction(100), Fraction(1009, 7)] + ([Fraction(250)] if full else [])
    grid_m = [Fraction(1), Fraction(1, 3)]
    T_direct = [1, 2, 5, 20] + ([60] if full else [])
    T_long = [100] + ([400, 1500] if full else [])
    worst_p, worst_c, mism = [0.0] * 3, [0.0] * 3, 0.0
    rows = []
    for z in grid_z:
        for m in grid_m:
            for T in T_direct + T_long:
                lib = sch.a5_sums(T, zeta=z, mu_F=m)
                if T in T_direct:
                    ref = [float(v) for v in _a5_referee(T, z, m)]
                    mism = max(mism, max(abs(a - b) / b for a, b in zip(lib.sums, ref)))
                else:
                    ref = list(lib.sums)
                for k in range(3):
                    worst_p[k] = max(worst_p[k], ref[k] / lib.printed[k])
                    worst_c[k] = max(worst_c[k], ref[k] / lib.corrected[k])
                if T == T_long[-1] and z == 100 and m == 1:
                    rows.append({"T": T, "sums": ref, "printed": list(lib.printed), "corrected": list(lib.corrected)})
    ref_ok = decide.bound(mism, 1e-12, what="exact recursion vs direct products (relative)")
    printed = decide.combine([decide.bound(worst_p, 1.0, what="exact sums / printed bounds (16/3, 32, 256)"), ref_ok],
                             what="printed")
    corrected = decide.combine([decide.bound(worst_c, 1.0, what="exact sums / corrected bounds (64/3, 256, 4096)"),
                                ref_ok], what="corrected")
    return decide.erratum(printed, corrected, root_cause="a5-sums-step-constant", what="App. A.5 sums after (32)",
                          printed_value={"max_sum_over_bound": worst_p},
                          corrected_value={"max_sum_over_bound": worst_c},
                          evidence=f"exact sums / printed bounds up to {worst_p[0]:.3g}, {worst_p[1]:.3g}, {worst_p[2]:.3g} "
                                   f"(eta~^2, ^3, ^4; > 1 = violated); / corrected (64/3, 256, 4096) bounds at most "
                                   f"{worst_c[0]:.3g}, {worst_c[1]:.3g}, {worst_c[2]:.3g}; recursion vs direct products "
                                   f"{mism:.1e}; the O(1/T) rate of Theorem 27 is unaffected",
                          params={"zeta": [str(z) for z in grid_z], "mu_F": [str(m) for m in grid_m],
                                  "T": T_direct + T_long, "example": rows},
                          referee="exact rational arithmetic (fractions.Fraction), direct products")


# ----------------------------------------------------------------------------- errata: (33) sums, S = N branch
@PAPER.claim("lpproj.eq33.sums.erratum", "App. A.6, the step-size sums after (33) (proof of Theorem 28)",
             "S < N: sum eta~_t >= (sqrt(T+1)-1)/(45 lam^2 L_F), sum eta~^2 <= (ln T+1)/c^2, sum eta~^3 <= 3/c^3, "
             "sum eta~^4 <= 2/c^4 (c = 90 lam^2 L_F); S = N: sum eta~ >= beta^{2/3}((T+1)^{2/3}-1)/(60 lam^2 L_F), "
             "sum eta~^3 <= beta^2 (ln T+1)/c^3, and the printed sum eta~^5 <= (3/2) beta^{10/3}/c^5, i.e. "
             "sum_{i<=T} i^{-5/3} <= 3/2; corrected: 1 + (3/2)(1 - T^{-2/3}) < 5/2.",
             root_cause="eq33-sum-first-term",
             regime="every T in 1..2000 (quick) / 1..20000 and T = 10^6 (full), lam = 1.378, beta = 2000 (the bounds "
                    "scale exactly in lam, L_F and beta); referee: the partial sums of i^{-5/3} in 50-digit mpmath "
                    "arithmetic at T in {1, ..., 5, 60} (matched by the library's sums to 1e-12) and the Riemann zeta value zeta(5/3) = 2.12 for T -> "
                    "infinity, float compensated sums elsewhere")
def _eq33_sums(full: bool, seed):
    import mpmath

    mpmath.mp.dps = 50
    lam, beta = 1.378, 2000.0
    Tmax = 20000 if full else 2000
    Tall = np.concatenate([np.arange(1, Tmax + 1), [10 ** 6] if full else []]).astype(np.int64)
    r_s = sch.theorem28_sums(Tall, lam=lam, beta=beta, no_sampling=False)
    r_n = sch.theorem28_sums(Tall, lam=lam, beta=beta, no_sampling=True)
    hp_s, hp_n, hc_n = r_s.holds("bounds"), r_n.holds("bounds"), r_n.holds("corrected")
    bad_print = int(np.sum(~hp_n[5]))
    first_bad = int(Tall[np.argmax(~hp_n[5])]) if bad_print else None
    bad_corr = int(np.sum(~hc_n[5]))
    bad_other = int(sum(np.sum(~v) for v in hp_s.values()) + sum(np.sum(~v) for k, v in hp_n.items() if k != 5))
    # referee: high-precision partial sums of i^{-5/3}
    ref = {T: mpmath.fsum(mpmath.power(i, mpmath.mpf(-5) / 3) for i in range(1, T + 1)) for T in (1, 2, 3, 4, 5, 60)}
    lib = sch.theorem28_sums(np.array(sorted(ref)), lam=1.0, L_F=1.0 / 90, no_sampling=True)  # c = 1, beta = 1
    ref_mismatch = max(abs(float(ref[T]) - v) for T, v in zip(sorted(ref), lib.sums[5]))
    lim = mpmath.zeta(mpmath.mpf(5) / 3)
    Tref = sorted(ref)
    ref_vals = np.array([float(ref[T]) for T in Tref])
    corr_vals = np.array([float(1 + 1.5 * (1 - mpmath.power(T, mpmath.mpf(-2) / 3))) for T in Tref])
    printed = decide.combine([decide.bound(ref_vals, 1.5, what=f"mpmath partial sums of i^(-5/3) at T = {Tref} <= 3/2"),
                              decide.bound([bad_print, bad_other], 0.0, what="T values violating the printed 3/2 bound, "
                                                                            "and the other six printed bounds")],
                             what="printed")
    corrected = decide.combine([decide.bound(ref_vals, corr_vals, rtol=1e-12, what="mpmath partial sums <= 1 + (3/2)(1 - T^(-2/3))"),
                                decide.bound(float(lim), 2.5, what="zeta(5/3) <= 5/2"),
                                decide.bound([bad_corr, bad_other], 0.0, what="T values violating the corrected bound, "
                                                                             "and the other six printed bounds"),
                                decide.bound(ref_mismatch, 1e-12, what="library sums vs mpmath")], what="corrected")
    return decide.erratum(printed, corrected, root_cause="eq33-sum-first-term", what="App. A.6 sums after (33)",
                          printed_value={"T_violating_3/2": bad_print, "first_T": first_bad},
                          corrected_value={"T_violating_corrected": bad_corr, "other_bounds_violated": bad_other,
                                           "zeta(5/3)": float(lim)},
                          evidence=f"sum_(i<=T) i^(-5/3) = {float(ref[4]):.4f} > 3/2 at T = 4 (mpmath), {bad_print} of "
                                   f"{Tall.size} T values violate the printed 3/2 (first T = {first_bad}); the corrected "
                                   f"1 + (3/2)(1 - T^(-2/3)) holds at all of them, the limit zeta(5/3) = {float(lim):.4f} < 5/2; "
                                   f"{bad_other} violations among the other six printed sum bounds (S < N and S = N)",
                          params={"lam": lam, "beta": beta, "T_max": Tmax},
                          referee="mpmath 50-digit partial sums and the Riemann zeta function")


# ----------------------------------------------------------------------------- errata: Theorem 28's first term
@PAPER.claim("lpproj.thm28.first-term.erratum", "Theorem 28 (and Theorem 15), first term of the bound vs its proof (33)",
             "The statement's initialisation term is O(lam^2 L_F^2 Delta_F/sqrt(T)); the proof's chain 4 Delta_F/"
             "sum_t eta~_t <= 180 lam^2 L_F Delta_F/(sqrt(T+1)-1) gives O(lam^2 L_F Delta_F/sqrt(T)) (erratum 9).",
             root_cause="thm28-first-term-lf-power",
             regime="the proof's own first term 4 Delta_F/sum_{t<T} eta~_t with eta~_t = 1/(90 lam^2 L_F sqrt(t+1)) "
                    "evaluated exactly (compensated sums) over lam in [1.3, 1000] (L_F = lam, the paper's choice) "
                    "and T in {10, 10^3, 10^5}; a printed form 'is the proof's order' if chain/form stays within a "
                    "factor 2 as lam varies over 3 decades (O(.) hides constants, not powers of lam); the printed "
                    "L_F^2 form is still a valid but looser upper bound because L_F = lam > 1")
def _thm28_first(full: bool, seed):
    lams = np.geomspace(1.3, 1000, 25 if full else 10)
    Ts = [10, 1000, 100000]
    spread_p, spread_c, proof_ratio = 0.0, 0.0, 0.0
    for T in Ts:
        r_p, r_c = [], []
        for lam in lams:
            chain, proof_bound = sch.theorem28_first_term(T, lam=float(lam), Delta_F=1.0)
            proof_ratio = max(proof_ratio, chain / proof_bound)
            r_p.append(chain / (lam ** 2 * lam ** 2 / math.sqrt(T)))  # printed: lam^2 L_F^2 Delta_F/sqrt(T)
            r_c.append(chain / (lam ** 2 * lam / math.sqrt(T)))  # proof: lam^2 L_F Delta_F/sqrt(T)
        spread_p = max(spread_p, max(r_p) / min(r_p))
        spread_c = max(spread_c, max(r_c) / min(r_c))
    proof = decide.bound(proof_ratio, 1.0, rtol=1e-12, what="chain / the proof's 180 lam^2 L_F Delta_F/(sqrt(T+1)-1)")
    proof_ok = proof_ratio <= 1 + 1e-12
    return decide.erratum(
        decide.combine([decide.bound(spread_p, 2.0, what="spread over lam of chain/(lam^2 L_F^2/sqrt(T))"), proof],
                       what="printed"),
        decide.combine([decide.bound(spread_c, 2.0, what="spread over lam of chain/(lam^2 L_F/sqrt(T))"), proof],
                       what="corrected"),
        root_cause="thm28-first-term-lf-power", what="Theorem 28's first term",
        printed_value={"ratio_spread_over_lam": spread_p},
        corrected_value={"ratio_spread_over_lam": spread_c, "proof_bound_180_holds": bool(proof_ok)},
        evidence=f"chain 4 Delta_F/sum eta~_t divided by lam^2 L_F^2/sqrt(T) varies {spread_p:.3g}x over "
                 f"lam in [1.3, 1000] (it falls like 1/lam); divided by lam^2 L_F/sqrt(T) it varies only "
                 f"{spread_c:.3g}x (constant ~180); the proof's 180 lam^2 L_F Delta_F/(sqrt(T+1)-1) holds "
                 f"at every point: {bool(proof_ok)}. The printed form overstates the lam-dependence by a "
                 f"factor L_F = lam (still an upper bound since lam > 1)",
        params={"lam": [float(lams[0]), float(lams[-1])], "T": Ts},
        referee="exact evaluation of the proof's own chain (compensated sums of (t+1)^(-1/2))")
