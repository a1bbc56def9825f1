"""Appendix A of SRPFL (proof of Theorem 4.7): Lemmas A.2, A.4, A.7-A.9 and the inequalities (116) and (149)."""
from __future__ import annotations

import math
import numpy as np
import statsmodels.api as sm
from fedtheory import decide
from fedtheory.random import as_generator, spawn_seeds
from fedtheory.representation import make_heads
from ._common import ORTHO_TOL, _runs, _wishart_min_eig, orthonormality_precondition, relative_identity
from . import PAPER
from .root_causes import EQ149_SIGN, SIGMA


# ----------------------------------------------------------------------------- Appendix A
def _ids(runs, key) -> np.ndarray:
    """One Appendix A identity of every traced run, concatenated (empty when the runs stopped at a broken
    precondition before recording it)."""
    parts = [np.ravel(r.identities[key]) for r in runs if key in r.identities]
    return np.concatenate(parts) if parts else np.empty(0)


_ROUND_REGIME = ("one exact round of Appendix A, (16)-(19), given an orthonormal B_hat: checked in every round "
                 "(||B_hat^T B_hat - I|| <= 1e-10 is part of the decided bound: a round that breaks it refutes the claim); exact FedRep-SRPFL runs (d=50, k=3, "
                 "N=M=64, n0=4, m=30, sigma=0.5, fixed speeds, 25 rounds per stage)")


@PAPER.claim("srpfl.lemA2.identities", "Lemma A.2 (20), (24)-(25); eqs. (142) and (111) [arXiv: shifted]",
             "Every exact round satisfies w_i+ = B^T B* w_i* + F_i + G_i, B+ = B - (eta/n) S + (eta/n) E, and "
             "identity (111) for B*_perp^T B+ to machine precision.",
             regime=_ROUND_REGIME + "; exact algebraic identities (no probability, no constant): every residual "
                                    "<= 1e-10 in every round")
def _lemA2(full: bool, seed):
    runs, p, defects = _runs(full, seed, record=True, rounds=100, trace=True)
    pre_o, pre_b, pre = orthonormality_precondition(defects)
    res = {key: float(np.max(_ids(runs, key), initial=0.0))
           for key in ("lemmaA2_residual", "eq142_residual", "eq111_residual")}
    out = relative_identity(np.r_[list(res.values()), pre_o], 1e-10, params={**p, "seeds": len(runs)},
                            what=f"{len(runs)} runs x 100 rounds (d=50,k=3,N=64,sigma=0.5): the relative residuals of "
                                 f"Lemma A.2, (142), (111) and the orthonormality defect of every round's B_hat "
                                 f"(precondition, {pre['rounds_not_orthonormal']} of {pre['rounds']} rounds broken), "
                                 f"each <= 1e-10 (= ORTHO_TOL)")
    return {**out, "observed": {**res, **pre}, "bound": {"tolerance": 1e-10}}


@PAPER.claim("srpfl.eq116.inequality", "Proof of Theorem 4.7, eq. (116)",
             "dist(B+hat, B*) <= (A1 + A2 + A3) ||(R+)^{-1}|| holds deterministically in every round.",
             regime=_ROUND_REGIME + "; a deterministic inequality (no probability, no constant): any round with "
                                    "lhs > rhs (1 + 1e-12) is a violation")
def _eq116(full: bool, seed):
    runs, p, defects = _runs(full, seed, record=True, rounds=100, trace=True)
    pre_o, pre_b, pre = orthonormality_precondition(defects)
    lhs, rhs = _ids(runs, "eq116_lhs"), _ids(runs, "eq116_rhs")
    fails = int(np.sum(lhs > rhs * (1 + 1e-12)))
    worst = float(np.max(lhs / rhs, initial=0.0))
    return decide.bound(np.r_[lhs, pre_o], np.r_[rhs, pre_b], rtol=1e-12, of="right side of (116)",
                        what=f"{fails} of {lhs.size} rounds violate (116); max lhs/rhs {worst:.4f}; "
                             f"B_hat orthonormal in {pre['rounds'] - pre['rounds_not_orthonormal']} of "
                             f"{pre['rounds']} rounds (precondition)",
                        observed_value={"violations": fails, "rounds": int(lhs.size),
                                        "max_lhs_over_rhs": worst, **pre},
                        bound_value={"lhs_over_rhs": 1.0}, params={**p, "seeds": len(runs)})


@PAPER.claim("srpfl.eq149.inequality", "Proof of Theorem 4.7, eq. (149) (Weyl)",
             "sigma_min^2(R+) >= 1 - R1 - R2 - R3. Printed R3 = (eta/n) lambda_max(B^T E + E^T B); the "
             "expansion of B+^T B+ contains +(eta/n)(B^T E + E^T B), so the valid term is (eta/n) "
             "lambda_max(-(B^T E + E^T B)).",
             root_cause=EQ149_SIGN,
             regime=_ROUND_REGIME + "; a deterministic inequality (no probability, no constant): a form fails if "
                                    "any round has sigma_min^2(R+) < its right side - 1e-12")
def _eq149(full: bool, seed):
    runs, p, defects = _runs(full, seed, record=True, rounds=100, seeds=40 if full else 30, trace=True)
    pre_o, pre_b, pre = orthonormality_precondition(defects)
    lhs, rp, rc = (_ids(runs, k) for k in ("eq149_lhs", "eq149_rhs_printed", "eq149_rhs_corrected"))
    fp, fc = int(np.sum(lhs < rp - 1e-12)), int(np.sum(lhs < rc - 1e-12))

    def form(rhs, name):  # rhs <= sigma_min^2(R+) in every round, with the precondition's entries
        return decide.bound(np.r_[rhs, pre_o], np.r_[lhs, pre_b], atol=1e-12, of="sigma_min^2(R+)",
                            what=f"{name} 1 - R1 - R2 - R3 <= sigma_min^2(R+) (and B_hat orthonormal)")

    return decide.erratum(
        form(rp, "printed"), form(rc, "sign-corrected"), what="(149)", root_cause=EQ149_SIGN,
        printed_value={"violations": fp, "rounds": int(lhs.size)},
        corrected_value={"violations": fc, "rounds": int(lhs.size), **pre},
        evidence=f"{len(runs)} noisy runs x 100 rounds: the printed R3 violates (149) in {fp} of {lhs.size} rounds, "
                 f"the sign-corrected R3 in {fc} (the proof's later bound (190) on |R3| is unaffected)",
        params={**p, "seeds": len(runs)},
        referee="exact FedRep-SRPFL rounds: sigma_min^2(R+) from the SVD of each round's actual QR factor R+ "
                "(orthonormal B_hat checked), compared with 1 - R1 - R2 - R3 for each sign of R3 in every round")


@PAPER.claim("srpfl.lemA4.concentration", "Lemma A.4 (27)-(28)",
             "max_i (1 - sigma_min((1/m) B^T X_i^T X_i B)) <= delta = c k^{3/2} sqrt(log N)/sqrt(m) with high "
             "probability for one absolute constant c: with c read as the m-free Davidson-Szarek envelope "
             "c_DS(k, N) = 2(sqrt k + sqrt(2 log(200 N)))/(k^{3/2} sqrt(log N)) (at most 6.03 on the grid), the "
             "bound fails in at most 1 of 200 draws of the N clients; the fitted c (99% quantile over "
             "replications) is reported by m.",
             regime="Gaussian design (Assumption 4.3), B orthonormal, so (1/m) B^T X_i^T X_i B is a k x k Wishart "
                    "matrix (drawn exactly by the Bartlett decomposition); m in {100, 400, 1600} (1 - sigma_min well "
                    "below its cap of 1), k in {1, 2, 4}, N in {16, 64, 256}; c read as c_DS(k, N), for which "
                    "Davidson-Szarek and a union bound over the N clients give a failure probability <= 1/200 per "
                    "draw; one-sided exact binomial test of the pooled exceedance rate against 1/200 at the claim level")
def _lemA4(full: bool, seed):
    reps = 400 if full else 150
    # m large enough that 1 - sigma_min stays well below its trivial cap of 1 (the lemma's regime)
    ms, ks, Ns = (100, 400, 1600), (1, 2, 4), (16, 64, 256)
    grid = [(m, k, N) for m in ms for k in ks for N in Ns]
    rows, exceed = [], 0
    for (m, k, N), s in zip(grid, spawn_seeds(seed, len(grid))):
        dev = 1 - _wishart_min_eig(as_generator(s), reps, N, m, k).min(axis=1)
        scale = k ** 1.5 * math.sqrt(math.log(N) / m)
        envelope = 2 * (math.sqrt(k) + math.sqrt(2 * math.log(200 * N))) / (k ** 1.5 * math.sqrt(math.log(N)))
        rows.append((m, k, N, float(np.quantile(dev, 0.99) / scale), envelope))
        exceed += int(np.sum(dev > envelope * scale))
    arr = np.array(rows)
    fit = sm.OLS(np.log(arr[:, 3]), sm.add_constant(np.log(arr[:, :3]))).fit()
    under = bool(np.all(arr[:, 3] <= arr[:, 4]))
    c_m = {m: float(arr[arr[:, 0] == m, 3].max()) for m in ms}
    trials = reps * len(grid)
    out = decide.probability(exceed, trials, 1 / 200,
                             what="draws with max_i (1 - sigma_min) > c_DS k^1.5 sqrt(log N/m)",
                             params={"reps": reps, "m": ms, "k": ks, "N": Ns})
    return {**out,
            "observed": {"c_fit_max": float(arr[:, 3].max()), "c_fit_max_by_m": c_m,
                         "loglog_slopes_m_k_N": fit.params[1:].tolist(),
                         "c_fit_over_envelope_max": float(np.max(arr[:, 3] / arr[:, 4])), **out["observed"]},
            "bound": {"envelope_min": float(arr[:, 4].min()), "all_below_envelope": under, **out["bound"]},
            "evidence": out["evidence"] + f"; c_hat = q99 / (k^1.5 sqrt(log N / m)), m in {ms}, k in {ks}, N in "
                        f"{Ns}, {reps} replications: c_hat <= {arr[:, 3].max():.3f} (max over the grid; by m "
                        f"{', '.join(f'{v:.3f}' for v in c_m.values())}); below the Davidson-Szarek envelope "
                        f"everywhere: {under} (largest c_hat / c_DS {np.max(arr[:, 3] / arr[:, 4]):.3f}); log-log "
                        f"slopes (m, k, N) {', '.join(f'{v:.2f}' for v in fit.params[1:])}: c_hat approaches its "
                        "limit from below in m and falls in k (the k^1.5 factor is loose)"}


def noise_terms(g, sigma, reps, B, W, d, m, n):
    """Monte Carlo draws of the two noise terms at noise level ``sigma``: ``max_i ||G_i||`` (Lemma A.7,
    G_i = (B^T X_i^T X_i B / m)^{-1} B^T X_i^T Z_i / m) and ``||(1/(mn)) sum_i X_i^T Z_i w_i^T||`` (Lemma A.9,
    with the true heads), one value of each per replication."""
    a7, a9 = np.empty(reps), np.empty(reps)
    for r in range(reps):
        X = g.standard_normal((n, m, d))
        Z = sigma * g.standard_normal((n, m))
        A = X @ B
        Gm = np.swapaxes(A, 1, 2) @ A / m
        Gi = np.linalg.solve(Gm, (np.einsum("nmk,nm->nk", A, Z) / m)[..., None])[..., 0]
        a7[r] = np.max(np.linalg.norm(Gi, axis=1))
        a9[r] = np.linalg.norm((np.einsum("nmd,nm->nd", X, Z)).T @ W / (m * n), 2)
    return a7, a9


def _sigma_exponent(samples, sigmas):
    """Weighted least-squares slope of log E[term] on log sigma, with its Monte Carlo standard error
    (delta method: se(log mean) = sd / (sqrt(reps) mean))."""
    y = np.array([math.log(np.mean(v)) for v in samples])
    se = np.array([np.std(v, ddof=1) / (math.sqrt(len(v)) * np.mean(v)) for v in samples])
    x = np.log(sigmas)
    w = 1 / se ** 2
    xb = np.sum(w * x) / np.sum(w)
    sxx = np.sum(w * (x - xb) ** 2)
    slope = float(np.sum(w * (x - xb) * (y - np.sum(w * y) / np.sum(w))) / sxx)
    return slope, float(math.sqrt(1 / sxx))


@PAPER.claim("srpfl.lemA7-A9.sigma-scaling", "Lemma A.7 (58) and Lemma A.9 (82)",
             "Printed: ||G_i|| <= (delta/(1-delta)) sigma^2 and ||(1/(mn)) sum X_i^T Z_i w_i^T|| <= c sigma^2 "
             "(sqrt k + delta_hat sigma^2) sqrt(d)/sqrt(mn). Both noise terms scale like sigma, so the "
             "ratio to the printed sigma^2 bound blows up as sigma -> 0; the bounds with sigma in place of "
             "sigma^2 have a stable ratio.",
             root_cause=SIGMA,
             regime="Gaussian design and noise, orthonormal B, sqrt(k)-normalised heads (Assumptions 4.3-4.6); "
                    "d=20, k=2, m=50, n=N=16; c = 1 in delta (the ratios are reported); a bound c sigma^p with a "
                    "fixed c can hold for all sigma -> 0 only if the term's sigma-exponent is >= p: the exponent is "
                    "the weighted log-log slope of the Monte Carlo mean over sigma in {1e-3, 1e-2, 0.1, 1}, and a form "
                    "fails when the slope is below its p (2 printed, 1 corrected) by more than the one-sided normal "
                    "critical value (claim level, Bonferroni over the 2 terms x 2 forms) times its standard error")
def _sigma_scaling(full: bool, seed):
    d, k, m, n, N = 20, 2, 50, 16, 16
    reps = 300 if full else 100
    sigmas = np.array([1e-3, 1e-2, 1e-1, 1.0])
    delta = k ** 1.5 * math.sqrt(math.log(N)) / math.sqrt(m)  # c = 1
    dh = delta / (1 - delta)
    g = as_generator(seed)
    B = np.linalg.qr(g.standard_normal((d, k)))[0]
    W = make_heads(g, n, k, "sqrt_k")
    draws = [noise_terms(g, s, reps, B, W, d, m, n) for s in sigmas]
    q7 = np.array([np.quantile(a7, 0.99) for a7, _ in draws])
    q9 = np.array([np.quantile(a9, 0.99) for _, a9 in draws])
    p7 = q7 / (dh * sigmas ** 2)
    c7 = q7 / (dh * sigmas)
    rt = math.sqrt(d) / math.sqrt(m * n)
    p9 = q9 / (sigmas ** 2 * (math.sqrt(k) + dh * sigmas ** 2) * rt)
    c9 = q9 / (sigmas * (math.sqrt(k) + dh * sigmas) * rt)
    spread = lambda v: float(v.max() / v.min())  # noqa: E731
    b7, se7 = _sigma_exponent([a7 for a7, _ in draws], sigmas)
    b9, se9 = _sigma_exponent([a9 for _, a9 in draws], sigmas)

    def form(p):  # a fixed-c bound c sigma^p needs both sigma-exponents >= p (one-sided z, Bonferroni 2 x 2)
        return decide.combine([decide.bound(b, p, sense=">=", se=se, tests=4, of="sigma-exponent",
                                            what=f"{name} sigma-exponent {b:.4f} (se {se:.2g}) >= {p}")
                               for name, b, se in (("A.7", b7, se7), ("A.9", b9, se9))],
                              what=f"sigma^{p} form")

    zc = decide.z_critical(4)
    return decide.erratum(
        form(2), form(1), what="Lemmas A.7/A.9 noise terms", root_cause=SIGMA,
        printed_value={"A7_ratio": p7.tolist(), "A9_ratio": p9.tolist(), "needs_exponent": 2},
        corrected_value={"A7_ratio": c7.tolist(), "A9_ratio": c9.tolist(), "needs_exponent": 1},
        evidence=f"99% quantiles over {reps} replications (d={d},k={k},m={m},n={n}), sigma = "
                 f"{sigmas.tolist()}: ratio to the printed sigma^2 bounds grows by {spread(p7):.0f}x (A.7) and "
                 f"{spread(p9):.0f}x (A.9) as sigma falls 1 -> 1e-3 (any fixed c fails); with sigma the "
                 f"ratios vary by {spread(c7):.2f}x and {spread(c9):.2f}x. Monte Carlo sigma-exponents "
                 f"{b7:.4f} (se {se7:.2g}) for A.7 and {b9:.4f} (se {se9:.2g}) for A.9: below 2 by "
                 f"{(2 - b7) / se7:.0f} and {(2 - b9) / se9:.0f} se, below 1 by {(1 - b7) / se7:.2f} and "
                 f"{(1 - b9) / se9:.2f} se (critical {zc:.2f})",
        params={"d": d, "k": k, "m": m, "n": n, "N": N, "sigmas": sigmas.tolist(), "c": 1.0},
        referee="Monte Carlo of the two noise terms (A.7: max_i ||G_i||; A.9: ||(1/(mn)) sum_i X_i^T Z_i w_i^T||) at "
                "four noise levels: their sigma-exponent (log-log slope of the mean, with its Monte Carlo standard "
                "error) decides which power of sigma a fixed-c bound can carry as sigma -> 0")
