"""Theorem 30 (formal version of Proposition 16; Sec. 4.2, App. B.2-B.3): the test losses, clean and attacked.

Han, Li, Lin and Zhang (2024), JMLR 25: the benign-average test losses of App. B.2 (clean, eq. (36)) and App. B.3
(same-value, sign-flipping and Gaussian attacks, eqs. (37)-(43)) in their general and uniform forms, Theorem 30's
statements and bullets, and the errata of App. B.2 (the bias term and the covariance of x_k^{l2}). Lemma 29,
Proposition 16 and Remark 17 are in :mod:`.lemma29_prop16_rem17`, Figure 1 in :mod:`.fig1`.
"""
from __future__ import annotations

import math
from functools import partial

import numpy as np
from scipy.optimize import minimize_scalar
from fedtheory import decide
from fedtheory.montecarlo import Estimate, estimate_from_samples, mc_mean
from fedtheory.parallel import cached_map
from fedtheory.random import as_generator, as_seed_sequence, spawn_seeds
from fedtheory.lpproj import (METHODS, closed_form_models, effective_heterogeneity, make_problem, mc_test_loss, optimal_lambda,
    signflip_moments, test_loss, test_loss_general)
from ._common import (ATTACK_CASES, brute_force_argmin, exact_benign_loss_function, exact_benign_losses,
                      isotropic_problem)
from . import PAPER


# ----------------------------------------------------------------------------- losses vs MC
def _mc_task(task, prob):
    """One :func:`fedtheory.lpproj.mc_test_loss` estimate (a :func:`fedtheory.parallel.cached_map` task, ``task =
    (method, lam, options, seed)``) as ``[mean, se, ci_low, ci_high, n, confidence]``."""
    method, lam, opts, s = task
    e = mc_test_loss(method, prob, lam, seed=s, **opts)
    return np.array([e.mean, e.se, e.ci_low, e.ci_high, e.n, e.confidence], dtype=float)


def cached_mc_estimates(prob, tasks, namespace, params):
    """:func:`fedtheory.lpproj.mc_test_loss` for each ``(method, lam, options, seed)`` of ``tasks`` through the task
    cache (``params`` must identify ``prob``, e.g. by its seed); returns the estimates in order."""
    from fedtheory.montecarlo import Estimate

    rows = cached_map(partial(_mc_task, prob=prob), tasks, namespace=namespace, params=params)
    return [Estimate(mean=float(r[0]), se=float(r[1]), ci_low=float(r[2]), ci_high=float(r[3]), n=int(r[4]),
                     confidence=float(r[5])) for r in rows]


@PAPER.claim("lpproj.thm30.general-losses-mc", "App. B.2 (clean) and B.3 (attacks), general forms (no uniformity)",
             "For fixed true w_k, the benign-average test loss of every method (local, FedAvg, pFedMe, Ditto, "
             "lp-proj-2), clean and under same-value, sign-flip and Gaussian attacks, equals the general closed "
             "form (Monte Carlo within its confidence interval).",
             regime="fixed true w_k (N = 20, d = 8, d_sub = 3, n = 50, b = 1), orthonormal-row P, lam = 0.5, N_a = 4 "
                    "malicious clients (the last ones) with tau = 3, the server dividing by N and losses averaged over "
                    "benign clients (Sec. 4.2); each (method, attack) Monte Carlo mean against the general closed form "
                    "by a z test at the claim level (Bonferroni over the 20 pairs)")
def _general_mc(full: bool, seed):
    prob = make_problem(N=20, d=8, d_sub=3, n=50, seed=seed)
    n_samples = 100_000 if full else 20_000
    ests, vals = [], []
    rows = {}
    tasks = [(method, 0.5, dict(attack=attack, N_a=N_a, tau=tau, n_samples=n_samples, chunk=5000), sm)
             for (attack, N_a, tau), s in zip(ATTACK_CASES, spawn_seeds(seed, len(ATTACK_CASES)))
             for method, sm in zip(METHODS, spawn_seeds(s, len(METHODS)))]
    cached = iter(cached_mc_estimates(prob, tasks, "lpproj.thm30.general-mc", {"problem_seed": seed}))
    for (attack, N_a, tau), s in zip(ATTACK_CASES, spawn_seeds(seed, len(ATTACK_CASES))):
        for method, sm in zip(METHODS, spawn_seeds(s, len(METHODS))):
            e = next(cached)  # one cached task per (attack, method)
            v = test_loss_general(method, 0.5, prob, attack=attack, N_a=N_a, tau=tau)
            ests.append(e)
            vals.append(float(v))
            rows[f"{method}|{attack}"] = [float(e.mean), float(v), float(e.z_score(v))]
    comb = Estimate(mean=np.array([e.mean for e in ests]), se=np.array([e.se for e in ests]),
                    ci_low=np.array([e.ci_low for e in ests]), ci_high=np.array([e.ci_high for e in ests]),
                    n=n_samples, confidence=0.99)
    out = decide.agreement(comb, np.array(vals), what=f"{len(vals)} (method, attack) pairs, lam=0.5, N=20, "
                           "N_a=4, tau=3, d=8, d_sub=3", params={"n_samples": n_samples, "lam": 0.5})
    out["observed"]["by_case_[mc, closed, z]"] = rows
    return out


@PAPER.claim("lpproj.appB2.uniform-forms", "App. B.2 eq. (36); Theorem 30 eq. (37)-(39); App. B.3.3 (40)-(41)",
             "Under the uniformity assumptions the uniform-heterogeneity loss formulas (test_loss) equal the "
             "general forms exactly, for every method, clean and under attack.",
             regime="true w_k built to satisfy the uniformity assumptions (36)/(37) exactly (isotropic deviations about "
                    "the benign centre (sum_benign w_k)/N), N = 20, d = 8, d_sub = 3, b = 1.3, sigma = 0.8; clean, "
                    "same-value and Gaussian attacks (N_a = 4, tau = 3), 5 methods, lam in {0.01, 0.5, 5}: an "
                    "identity to 1e-12 relative (sign-flip's (40)-(41) constrain the malicious w_i too and are "
                    "left to the general-form claims)")
def _uniform(full: bool, seed):
    worst = 0.0
    cases = 0
    for (attack, N_a, tau), s in zip(ATTACK_CASES, spawn_seeds(seed, 4)):
        prob = isotropic_problem(20, 8, 3, 50, 1.3, 0.8, 0.07, N_a=N_a, seed=s)
        N_b = 20 - N_a
        m = prob.W[:N_b].sum(0) / 20
        Sigma1 = float(np.mean(np.sum((m - prob.W[:N_b]) ** 2, 1)) / 8)
        kw = dict(N=20, n=50, d=8, d_sub=3, b=1.3, sigma=0.8, attack=attack, N_a=N_a)
        if attack == "sign-flip":
            mal = prob.W[N_b:]
            M0 = float(np.mean((math.pi - 2) / math.pi * tau ** 2 * np.sum(mal ** 2, 1) / 8
                               + tau ** 2 * 0.8 ** 2 / (1.3 * 50)))
            # (40)-(41) need the projected and full forms to agree: true for the M0 trace only if
            # ||P w_i||^2/d_sub = ||w_i||^2/d for the malicious i, which a random P does not give.
            continue
        for method in METHODS:
            for lam in (0.01, 0.5, 5.0):
                a = test_loss(method, lam, Sigma=Sigma1, tau=tau, **kw)
                g = test_loss_general(method, lam, prob, attack=attack, N_a=N_a, tau=tau)
                worst = max(worst, abs(a - g) / g)
                cases += 1
    return decide.bound(worst, 1e-12, of="tolerance", what=f"{cases} cases (clean, same-value, Gaussian; 5 methods; "
                        "lam in {0.01, 0.5, 5}) with isotropic deviations about the benign centre (sign-flip's (41) "
                        "needs an extra condition on the malicious w_i and is checked through the general form): "
                        "largest relative difference of the uniform forms to the general ones",
                        observed_value={"max_rel_diff": worst, "cases": cases}, bound_value={"tolerance": 1e-12})


@PAPER.claim("lpproj.thm30.gaussian-equals-same-value", "Sec. 4.2 attacks; Theorem 30",
             "The Gaussian attack gives exactly the same benign test losses as the same-value attack (the loss "
             "depends on the attack covariance only through its trace).",
             regime="fixed true w_k (N = 20, d = 8, d_sub = 3), N_a = 4, tau = 3, lam = 0.5, 5 methods: the general closed "
                    "forms must be identical, and independent Monte Carlo runs of the two attacks must agree: z test "
                    "of each difference at the claim level (Bonferroni over the 5 methods)")
def _gauss_same(full: bool, seed):
    prob = make_problem(N=20, d=8, d_sub=3, n=50, seed=seed)
    n_samples = 100_000 if full else 30_000
    worst_cf = 0.0
    diffs, ses = [], []
    tasks = [(method, 0.5, dict(attack=att, N_a=4, tau=3.0, n_samples=n_samples), s12)
             for method, s in zip(METHODS, spawn_seeds(seed, len(METHODS)))
             for att, s12 in zip(("same-value", "gaussian"), spawn_seeds(s, 2))]
    cached = iter(cached_mc_estimates(prob, tasks, "lpproj.thm30.gauss-same", {"problem_seed": seed}))
    for method in METHODS:
        a = test_loss_general(method, 0.5, prob, attack="same-value", N_a=4, tau=3.0)
        g = test_loss_general(method, 0.5, prob, attack="gaussian", N_a=4, tau=3.0)
        worst_cf = max(worst_cf, abs(a - g))
        e1, e2 = next(cached), next(cached)  # one cached task per (method, attack)
        diffs.append(float(e1.mean - e2.mean))
        ses.append(math.hypot(e1.se, e2.se))
    diff = Estimate(mean=np.array(diffs), se=np.array(ses), ci_low=np.array(diffs), ci_high=np.array(diffs),
                    n=n_samples, confidence=0.99)
    return decide.combine([decide.identity(worst_cf, 0.0, atol=1e-15, what="closed forms (same-value vs Gaussian)"),
                           decide.agreement(diff, 0.0, tests=2, what=f"independent MC of both attacks ({n_samples} "
                                                                     "each, 5 methods): the differences vs 0")],
                          what="Gaussian vs same-value attack", params={"N": 20, "N_a": 4, "tau": 3.0, "lam": 0.5})


@PAPER.claim("lpproj.eq42-43.signflip-moments", "App. B.3.3, eqs. (42)-(43)",
             "A sign-flip message -|c| w_hat_k has mean -sqrt(2/pi) tau w_k and covariance "
             "((pi-2)/pi) tau^2 w_k w_k^T + tau^2 sigma^2/(b n) I (and the P-projected analogue (43)).",
             regime="w_k fixed (d = 4), tau = 2, sigma = 0.7, b = 1, n = 20, c ~ N(0, tau^2) independent of w_hat_k ~ "
                    "N(w_k, sigma^2/(b n) I) (tau a standard deviation, Sec. 5.4); the 4 mean and 10 covariance entries "
                    "against Monte Carlo, z test at the claim level (Bonferroni over 14); (43) is (42) for P w_hat_k")
def _signflip(full: bool, seed):
    d, tau, sigma, b, n = 4, 2.0, 0.7, 1.0, 20
    w = np.array([1.0, -0.5, 0.3, 2.0])
    mean, cov = signflip_moments(w, tau, sigma, b, n)
    iu = np.triu_indices(d)

    def sampler(g, size):
        wh = w + sigma / math.sqrt(b * n) * g.standard_normal((size, d))
        msg = -np.abs(tau * g.standard_normal((size, 1))) * wh
        outer = (msg - mean)[:, :, None] * (msg - mean)[:, None, :]
        return np.concatenate([msg, outer[:, iu[0], iu[1]]], axis=1)

    est = mc_mean(sampler, 1_000_000 if full else 300_000, seed, chunk=100_000)
    closed = np.concatenate([mean, cov[iu]])
    return decide.agreement(est, closed, what="MC of the message mean (4) and covariance entries (10)",
                            params={"d": d, "tau": tau, "sigma": sigma, "b": b, "n": n})


@PAPER.claim("lpproj.thm30.effective-heterogeneity", "Theorem 30; App. B.3 (our reformulation)",
             "Every attacked benign-average loss equals the clean formula with Sigma replaced by the effective "
             "heterogeneity D_1 = Sigma_1 + (N_a/N^2)(tau^2 - sigma^2/(b n)) (D_2 with M0 for sign-flip).",
             kind="consistency",
             regime="the uniform-heterogeneity losses (39) and App. B.3.3 at random (N, n, d_sub, b, sigma, Sigma, N_a >= 1, "
                    "tau, M0, lam) with D >= 0 (for D < 0 the clean formula is not defined and the draw is not "
                    "compared): an identity to 1e-12 relative, 3 attacks x 5 methods")
def _eff(full: bool, seed):
    rng = as_generator(seed)
    worst = 0.0
    for _ in range(300 if full else 100):
        N = int(rng.integers(3, 200))
        kw = dict(N=N, n=int(rng.integers(1, 500)), d=50, d_sub=int(rng.integers(1, 51)),
                  b=float(rng.uniform(0.1, 3)), sigma=float(rng.uniform(0.1, 2)))
        N_a = int(rng.integers(1, N))
        Sig = float(rng.uniform(0.001, 1))
        tau = float(rng.uniform(0, 5))
        M0 = float(rng.uniform(0, 5))
        lam = float(10 ** rng.uniform(-4, 2))
        for attack in ("same-value", "gaussian", "sign-flip"):
            D = effective_heterogeneity(Sig, kw["N"], kw["n"], kw["b"], kw["sigma"], attack, N_a, tau, M0)
            for method in METHODS:
                a = test_loss(method, lam, Sigma=Sig, attack=attack, N_a=N_a, tau=tau, M0=M0, **kw)
                c = test_loss(method, lam, Sigma=D, **kw) if D >= 0 else a
                worst = max(worst, abs(a - c) / abs(a))
    return decide.bound(worst, 1e-12, of="tolerance", what="random parameters, 3 attacks x 5 methods: largest relative "
                        "difference of the attacked loss to the clean formula at D", observed_value={"max_rel_diff": worst},
                        bound_value={"tolerance": 1e-12})


# ----------------------------------------------------------------------------- printed-formula errata
@PAPER.claim("lpproj.appB2.bias-over-N.erratum", "App. B.2, final lines of L^Me and L^l2; Lemma 29's A",
             "Printed: the bias term is b lam^2 d Sigma/(2N(b+lam)^2) (extra 1/N; Lemma 29's A also carries it, giving "
             "argmin (N-1) sigma^2/(n Sigma)). Corrected: b lam^2 d Sigma/(2(b+lam)^2) and lambda* = (1-1/N) sigma^2/(n Sigma). "
             "Monte Carlo decides.",
             root_cause="appb2-bias-extra-1-over-n",
             regime="clean, uniformity (36) built exactly (N = 20, d = 8, d_sub = 3, n = 50, b = sigma = 1, Sigma = 0.05); "
                    "referees: Monte Carlo of the pFedMe and lp-proj-2 test losses at lam = 2 (a form holds if both |z| "
                    "are below the two-sided critical value at the claim level, Bonferroni over 2), and the minimiser of "
                    "the brute-force exact pFedMe loss (solution map probed on every noise direction) over lam in "
                    "[1e-3, 1e3], which a lambda* must match to 1e-4 relative")
def _bias(full: bool, seed):
    N, d, d_sub, n, b, sigma, Sig = 20, 8, 3, 50, 1.0, 1.0, 0.05
    prob = isotropic_problem(N, d, d_sub, n, b, sigma, Sig, seed=seed)
    kw = dict(N=N, n=n, d=d, d_sub=d_sub, b=b, sigma=sigma, Sigma=Sig)
    ests, v_p, v_c, rows = [], [], [], []
    n_mc = 200_000 if full else 60_000
    for method, s in zip(("pfedme", "lp-proj-2"), spawn_seeds(seed, 2)):
        e = mc_test_loss(method, prob, 2.0, n_samples=n_mc, chunk=10_000, seed=s)
        c = test_loss(method, 2.0, **kw)
        pr = test_loss(method, 2.0, variant="printed", **kw) if method == "pfedme" else \
            c - (b * 4.0 * d_sub * Sig / (2 * 9.0)) * (1 - 1 / N)
        ests.append(e)
        v_c.append(float(c))
        v_p.append(float(pr))
        rows.append(f"{method}: MC {e.mean:.5f} [{e.ci_low:.5f}, {e.ci_high:.5f}], corrected {c:.5f}, printed {pr:.5f}")
    ls_c = optimal_lambda(**kw)
    ls_p = (N - 1) * sigma ** 2 / (n * Sig)
    true_min = brute_force_argmin(exact_benign_loss_function("pfedme", prob, excess=True), 1e-3, 1e3)
    mc = Estimate(mean=np.array([e.mean for e in ests]), se=np.array([e.se for e in ests]),
                  ci_low=np.array([e.ci_low for e in ests]), ci_high=np.array([e.ci_high for e in ests]), n=n_mc,
                  confidence=0.99)

    def form(values, ls, label):
        return decide.combine([decide.agreement(mc, np.array(values), tests=2, what=f"{label} losses vs MC"),
                               decide.identity(true_min, ls, rtol=1e-4, what=f"{label} lambda* vs brute-force argmin")],
                              what=label)

    return decide.erratum(form(v_p, ls_p, "printed"), form(v_c, ls_c, "corrected"), root_cause="appb2-bias-extra-1-over-n",
                          what="App. B.2 bias term and Lemma 29's A",
                          printed_value={"losses": v_p, "lambda_star": ls_p},
                          corrected_value={"losses": v_c, "lambda_star": ls_c, "brute_force_argmin": true_min},
                          evidence="; ".join(rows) + f"; argmin of the brute-force exact loss "
                                   f"{true_min:.6g} = corrected {ls_c:.6g}, not printed {ls_p:.4g}",
                          params={**kw, "lam": 2.0, "n_samples": n_mc},
                          referee=f"Monte Carlo of the test losses ({n_mc} draws per method) and the minimiser of the "
                                  "brute-force exact pFedMe loss")


@PAPER.claim("lpproj.appB2.covariance.erratum", "App. B.2, distribution of x_k^{l2}",
             "Per-coordinate variance of x_k^{l2} on the projected coordinates: printed (b^2 + 2b lam/N + lam^2/N^2) "
             "sigma^2/(b n)/(b+lam)^2; corrected lam^2/N in place of lam^2/N^2 (as for pFedMe).",
             root_cause="appb2-l2-covariance-lambda2-over-n2",
             regime="N = 10, d = 6, d_sub = 3, n = 20, b = sigma = 1, lam = 5, orthonormal-row P; the referee is a Monte "
                    "Carlo of P x_k^{l2} of client 0 from the exact solution map (itself checked against exact runs of "
                    "Algorithm 1); a form holds if it lies in every coordinate's chi-square interval at the claim level "
                    "(Bonferroni over the 3 coordinates)")
def _cov(full: bool, seed):
    N, d, d_sub, n, b, sigma, lam = 10, 6, 3, 20, 1.0, 1.0, 5.0
    prob = make_problem(N=N, d=d, d_sub=d_sub, n=n, b=b, sigma=sigma, seed=seed)

    def sampler(g, size):
        wh = prob.sample_w_hat(g, size)
        x = closed_form_models("lp-proj-2", wh, lam, b, prob.P)
        return (x[:, 0, :] @ prob.P.T)  # projected coordinates of client 0

    blocks = 10 if full else 4
    draws = np.concatenate([sampler(as_generator(s), 20000) for s in spawn_seeds(seed, blocks)])
    n_rep = blocks * 20000
    sq = estimate_from_samples((draws - draws.mean(0)) ** 2 * n_rep / (n_rep - 1))  # unbiased variance, with its se
    corr = (b ** 2 + 2 * b * lam / N + lam ** 2 / N) * sigma ** 2 / (b * n) / (b + lam) ** 2
    printed = (b ** 2 + 2 * b * lam / N + lam ** 2 / N ** 2) * sigma ** 2 / (b * n) / (b + lam) ** 2
    return decide.erratum(decide.agreement(sq, printed, what="printed variance vs MC"),
                          decide.agreement(sq, corr, what="corrected variance vs MC"),
                          root_cause="appb2-l2-covariance-lambda2-over-n2", what="App. B.2, covariance of x_k^{l2}",
                          printed_value={"variance": printed}, corrected_value={"variance": corr},
                          evidence=f"MC variances of the {sq.mean.size} projected coordinates ({n_rep} draws): "
                                   f"{', '.join(f'{v:.5f}' for v in sq.mean)} (se {float(np.max(sq.se)):.2g}); "
                                   f"corrected {corr:.5f}, printed {printed:.5f}",
                          params={"N": N, "d": d, "d_sub": d_sub, "n": n, "lam": lam},
                          referee=f"Monte Carlo of the personalised lp-proj-2 model ({n_rep} draws of w_hat)")


#: random settings of the Theorem 30 bullets claim (quick, full)
BULLETS_DRAWS = (1000, 4000)


@PAPER.claim("lpproj.thm30.bullets", "Theorem 30, comparison bullets (eq. (39) and the bullets after it)",
             "L^loc <= L^Avg iff Sigma_1 + (N_a/N^2)(tau^2 - sigma^2/(b n)) >= ((N-1)/N) sigma^2/(b n); L^Me <= L^Avg "
             "iff lam >= (lambda_1^* - b)/2. (The extracted text shows tau^2 sigma^2/(b n) and lambda_1^* b/2: the "
             "minus signs were lost in text extraction, as the same expression in bullet 2 and after the bullets "
             "shows; formerly lpproj.thm30.bullets.erratum.)",
             aliases=("lpproj.thm30.bullets.erratum",),
             regime="the bullets read with their minus signs (tau^2 - sigma^2/(b n), (lambda_1^* - b)/2): the lost "
                    "minus signs are a text-extraction artifact, not an erratum of the paper, so the claim holds "
                    "under the correct reading; same-value attack, random (N in 5..199, n, b, sigma, Sigma_1, N_a >= "
                    "1, tau, lam); the referee builds for each draw an instance satisfying (37) exactly (d = 2: the "
                    "bullets do not involve d) and decides each comparison with the brute-force exact benign losses "
                    "(solution maps probed on every noise direction, no loss formula); comparisons within 1e-9 "
                    "relative of a tie are outside the regime; any disagreement refutes (decide.probability with "
                    "allowed rate 0); the literal extracted reading is reported beside it")
def _bullets(full: bool, seed):
    draws = BULLETS_DRAWS[bool(full)]
    # one cached task per chunk of BULLETS_CHUNK settings (one stream: each chunk replays the earlier draws)
    counts = cached_map(_bullets_chunk, [(a, min(a + BULLETS_CHUNK, draws), draws, as_seed_sequence(seed))
                                         for a in range(0, draws, BULLETS_CHUNK)],
                        namespace="lpproj.thm30.bullets", params={})
    mis_p1, mis_c1, mis_p3, mis_c3, ties = (int(v) for v in np.sum(counts, axis=0))
    return _bullets_verdict(draws, mis_p1, mis_c1, mis_p3, mis_c3, ties)


BULLETS_CHUNK = 200


def _bullet_draw(rng):
    """One random attacked setting of :func:`_bullets`: ``(kw, lam)``."""
    N = int(rng.integers(5, 200))
    kw = dict(N=N, n=int(rng.integers(5, 500)), d=50, d_sub=10, b=float(rng.uniform(0.2, 3)),
              sigma=float(rng.uniform(0.2, 2)), Sigma=float(10 ** rng.uniform(-4, 0)),
              attack="same-value", N_a=int(rng.integers(1, N)), tau=float(10 ** rng.uniform(-2, 1)))
    return kw, float(10 ** rng.uniform(-4, 2))


def _bullets_chunk(task):
    """``[mis_p1, mis_c1, mis_p3, mis_c3, ties]`` of settings ``start..stop-1`` of :func:`_bullets` (a
    :func:`fedtheory.parallel.cached_map` task, ``task = (start, stop, draws, seed)``)."""
    start, stop, draws, seed = task
    rng = as_generator(seed)
    for _ in range(start):  # the earlier chunks' draws: the same numbers as one sequential pass
        _bullet_draw(rng)
    mis_p1 = mis_c1 = mis_p3 = mis_c3 = 0
    ties = 0
    for s_inst in spawn_seeds(spawn_seeds(seed, 1)[0], draws)[start:stop]:
        kw, lam = _bullet_draw(rng)
        N = kw["N"]
        b, s2, n, Na = kw["b"], kw["sigma"] ** 2, kw["n"], kw["N_a"]
        inst = isotropic_problem(N, 2, 1, n, b, kw["sigma"], kw["Sigma"], N_a=Na, seed=s_inst)
        att = dict(attack="same-value", N_a=Na, tau=kw["tau"])
        L = exact_benign_losses(("local", "fedavg", "pfedme"), lam, inst, **att, excess=True)
        L_loc, L_avg, L_me = L["local"], L["fedavg"], L["pfedme"]
        p1 = kw["Sigma"] + Na / N ** 2 * kw["tau"] ** 2 * s2 / (b * n) >= (N - 1) / N * s2 / (b * n)
        c1 = effective_heterogeneity(kw["Sigma"], N, n, b, kw["sigma"], "same-value", Na, kw["tau"]) >= (N - 1) / N * s2 / (b * n)
        ls = optimal_lambda(**kw)
        if abs(L_loc - L_avg) > 1e-9 * max(L_loc, L_avg):
            truth1 = L_loc <= L_avg
            mis_p1 += truth1 != p1
            mis_c1 += truth1 != c1
        else:
            ties += 1
        if abs(L_me - L_avg) > 1e-9 * max(L_me, L_avg):
            truth3 = L_me <= L_avg
            mis_p3 += truth3 != (lam >= ls * b / 2)
            mis_c3 += truth3 != (lam >= (ls - b) / 2)
        else:
            ties += 1
    return np.array([mis_p1, mis_c1, mis_p3, mis_c3, ties])


def _bullets_verdict(draws, mis_p1, mis_c1, mis_p3, mis_c3, ties):
    """Theorem 30's bullets (Han, Li, Lin and Zhang 2024, App. B.3.2) under the correct reading, with the minus
    signs that text extraction lost, against the brute-force referee (:func:`fedtheory.decide.probability` with
    allowed rate 0); the literal extracted reading is reported beside it."""
    compared = 2 * draws - ties
    return decide.probability(int(mis_c1 + mis_c3), compared, 0.0,
                              what=f"{draws} random attacked settings ({compared} comparisons, {ties} within rounding "
                                   f"of a tie left out): the bullets with tau^2 - sigma^2/(b n) and (lambda_1^* - b)/2 "
                                   f"disagree with the brute-force losses {mis_c1} (bullet 1) and {mis_c3} (bullet 3) "
                                   f"times; the extracted text without the minus signs would disagree {mis_p1} and "
                                   f"{mis_p3} times (a text-extraction artifact, not an erratum: the minus signs are "
                                   "present in the same expression in bullet 2 and in the paragraph after the bullets)",
                              observed={"bullet1_mismatches": int(mis_c1), "bullet3_mismatches": int(mis_c3),
                                        "comparisons": int(compared),
                                        "extracted_text_without_minus": {"bullet1_mismatches": int(mis_p1),
                                                                         "bullet3_mismatches": int(mis_p3)}},
                              params={"draws": draws},
                              referee="brute-force exact benign losses of local, FedAvg and pFedMe on an instance "
                                      "built for each draw (no loss formula)")
