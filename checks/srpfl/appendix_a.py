"""Appendix A of SRPFL (proof of Theorem 4.7): Lemmas A.2, A.4, A.7-A.9 and the inequalities (116) and (149)."""
from __future__ import annotations

import math
import numpy as np
import statsmodels.api as sm
from fedtheory.claims import FAILS, HOLDS, INCONCLUSIVE
from fedtheory.random import as_generator, spawn_seeds
from fedtheory.representation import make_heads
from .._util import equality_verdict, erratum_verdict
from ._common import _runs, _wishart_min_eig
from . import PAPER


# ----------------------------------------------------------------------------- Appendix A
@PAPER.claim("srpfl.lemA2.identities", "Lemma A.2 (20), (24)-(25); eqs. (142) and (111) [arXiv: shifted]",
             "Every exact round satisfies w_i+ = B^T B* w_i* + F_i + G_i, B+ = B - (eta/n) S + (eta/n) E, and "
             "identity (111) for B*_perp^T B+ to machine precision.")
def _lemA2(full: bool, seed):
    runs, p = _runs(full, seed, record=True, rounds=100)
    res = {key: float(max(np.max(r.identities[key]) for r in runs))
           for key in ("lemmaA2_residual", "eq142_residual", "eq111_residual")}
    worst = max(res.values())
    return equality_verdict(worst, 1e-10, f"{len(runs)} runs x 100 rounds (d=50,k=3,N=64,sigma=0.5)",
                            observed=res, params={**p, "seeds": len(runs)})


@PAPER.claim("srpfl.eq116.inequality", "Proof of Theorem 4.7, eq. (116)",
             "dist(B+hat, B*) <= (A1 + A2 + A3) ||(R+)^{-1}|| holds deterministically in every round.")
def _eq116(full: bool, seed):
    runs, p = _runs(full, seed, record=True, rounds=100)
    lhs = np.concatenate([r.identities["eq116_lhs"] for r in runs])
    rhs = np.concatenate([r.identities["eq116_rhs"] for r in runs])
    fails = int(np.sum(lhs > rhs * (1 + 1e-12)))
    return dict(status=HOLDS if fails == 0 else FAILS,
                observed={"violations": fails, "rounds": int(lhs.size),
                          "max_lhs_over_rhs": float(np.max(lhs / rhs))},
                bound={"lhs_over_rhs": 1.0},
                evidence=f"{fails} of {lhs.size} rounds violate (116); max lhs/rhs {np.max(lhs / rhs):.4f}",
                params={**p, "seeds": len(runs)})


@PAPER.claim("srpfl.eq149.inequality", "Proof of Theorem 4.7, eq. (149) (Weyl)",
             "sigma_min^2(R+) >= 1 - R1 - R2 - R3. Printed R3 = (eta/n) lambda_max(B^T E + E^T B); the "
             "expansion of B+^T B+ contains +(eta/n)(B^T E + E^T B), so the valid term is (eta/n) "
             "lambda_max(-(B^T E + E^T B)).")
def _eq149(full: bool, seed):
    runs, p = _runs(full, seed, record=True, rounds=100, seeds=20 if full else 8)
    lhs = np.concatenate([r.identities["eq149_lhs"] for r in runs])
    rp = np.concatenate([r.identities["eq149_rhs_printed"] for r in runs])
    rc = np.concatenate([r.identities["eq149_rhs_corrected"] for r in runs])
    fp, fc = int(np.sum(lhs < rp - 1e-12)), int(np.sum(lhs < rc - 1e-12))
    return erratum_verdict(fp == 0, fc == 0, printed={"violations": fp, "rounds": int(lhs.size)},
                           corrected={"violations": fc, "rounds": int(lhs.size)},
                           evidence=f"{len(runs)} noisy runs x 100 rounds: the printed R3 violates "
                                    f"(149) in {fp} of {lhs.size} rounds, the sign-corrected R3 in {fc} "
                                    "(the proof's later bound (190) on |R3| is unaffected)",
                           params={**p, "seeds": len(runs)})


@PAPER.claim("srpfl.lemA4.concentration", "Lemma A.4 (27)-(28)",
             "max_i (1 - sigma_min((1/m) B^T X_i^T X_i B)) <= delta = c k^{3/2} sqrt(log N)/sqrt(m) with high "
             "probability for one absolute constant c: the fitted c (99% quantile over replications) stays "
             "below the m-free Davidson-Szarek envelope 2(sqrt k + sqrt(2 log(200 N)))/(k^{3/2} sqrt(log N)) "
             "and converges as m grows.")
def _lemA4(full: bool, seed):
    reps = 400 if full else 150
    # m large enough that 1 - sigma_min stays well below its trivial cap of 1 (the lemma's regime)
    ms, ks, Ns = (100, 400, 1600), (1, 2, 4), (16, 64, 256)
    grid = [(m, k, N) for m in ms for k in ks for N in Ns]
    rows = []
    for (m, k, N), s in zip(grid, spawn_seeds(seed, len(grid))):
        dev = 1 - _wishart_min_eig(as_generator(s), reps, N, m, k).min(axis=1)
        scale = k ** 1.5 * math.sqrt(math.log(N) / m)
        envelope = 2 * (math.sqrt(k) + math.sqrt(2 * math.log(200 * N))) / (k ** 1.5 * math.sqrt(math.log(N)))
        rows.append((m, k, N, float(np.quantile(dev, 0.99) / scale), envelope))
    arr = np.array(rows)
    fit = sm.OLS(np.log(arr[:, 3]), sm.add_constant(np.log(arr[:, :3]))).fit()
    under = bool(np.all(arr[:, 3] <= arr[:, 4]))
    c_m = {m: float(arr[arr[:, 0] == m, 3].max()) for m in ms}
    converging = abs(c_m[ms[-1]] / c_m[ms[-2]] - 1) < 0.1
    status = HOLDS if under and converging else (FAILS if not under else INCONCLUSIVE)
    return dict(status=status,
                observed={"c_fit_max": float(arr[:, 3].max()), "c_fit_max_by_m": c_m,
                          "loglog_slopes_m_k_N": fit.params[1:].tolist()},
                bound={"envelope_min": float(arr[:, 4].min()), "all_below_envelope": under},
                evidence=f"c_hat = q99 / (k^1.5 sqrt(log N / m)), m in {ms}, k in {ks}, N in {Ns}, {reps} "
                         f"replications: c_hat <= {arr[:, 3].max():.3f} (max over the grid; by m "
                         f"{', '.join(f'{v:.3f}' for v in c_m.values())}); below the Davidson-Szarek "
                         f"envelope everywhere: {under}; log-log slopes (m, k, N) "
                         f"{', '.join(f'{v:.2f}' for v in fit.params[1:])}: c_hat approaches its limit from "
                         "below in m and falls in k (the k^1.5 factor is loose)",
                params={"reps": reps, "m": ms, "k": ks, "N": Ns})


@PAPER.claim("srpfl.lemA7-A9.sigma-scaling", "Lemma A.7 (58) and Lemma A.9 (82)",
             "Printed: ||G_i|| <= (delta/(1-delta)) sigma^2 and ||(1/(mn)) sum X_i^T Z_i w_i^T|| <= c sigma^2 "
             "(sqrt k + delta_hat sigma^2) sqrt(d)/sqrt(mn). Both noise terms scale like sigma, so the "
             "ratio to the printed sigma^2 bound blows up as sigma -> 0; the bounds with sigma in place of "
             "sigma^2 have a stable ratio.")
def _sigma_scaling(full: bool, seed):
    d, k, m, n, N = 20, 2, 50, 16, 16
    reps = 300 if full else 100
    sigmas = np.array([1e-3, 1e-2, 1e-1, 1.0])
    delta = k ** 1.5 * math.sqrt(math.log(N)) / math.sqrt(m)  # c = 1
    dh = delta / (1 - delta)
    g = as_generator(seed)
    B = np.linalg.qr(g.standard_normal((d, k)))[0]
    W = make_heads(g, n, k, "sqrt_k")
    q7, q9 = [], []
    for s in sigmas:
        a7, a9 = [], []
        for _ in range(reps):
            X = g.standard_normal((n, m, d))
            Z = s * g.standard_normal((n, m))
            A = X @ B
            Gm = np.swapaxes(A, 1, 2) @ A / m
            Gi = np.linalg.solve(Gm, (np.einsum("nmk,nm->nk", A, Z) / m)[..., None])[..., 0]
            a7.append(np.max(np.linalg.norm(Gi, axis=1)))
            a9.append(np.linalg.norm((np.einsum("nmd,nm->nd", X, Z)).T @ W / (m * n), 2))
        q7.append(np.quantile(a7, 0.99))
        q9.append(np.quantile(a9, 0.99))
    q7, q9 = np.array(q7), np.array(q9)
    p7 = q7 / (dh * sigmas ** 2)
    c7 = q7 / (dh * sigmas)
    rt = math.sqrt(d) / math.sqrt(m * n)
    p9 = q9 / (sigmas ** 2 * (math.sqrt(k) + dh * sigmas ** 2) * rt)
    c9 = q9 / (sigmas * (math.sqrt(k) + dh * sigmas) * rt)
    spread = lambda v: float(v.max() / v.min())  # noqa: E731
    printed_ok = spread(p7) < 10 and spread(p9) < 10
    corr_ok = spread(c7) < 10 and spread(c9) < 10
    return erratum_verdict(
        printed_ok, corr_ok,
        printed={"A7_ratio": p7.tolist(), "A9_ratio": p9.tolist()},
        corrected={"A7_ratio": c7.tolist(), "A9_ratio": c9.tolist()},
        evidence=f"99% quantiles over {reps} replications (d={d},k={k},m={m},n={n}), sigma = "
                 f"{sigmas.tolist()}: ratio to the printed sigma^2 bounds grows by {spread(p7):.0f}x (A.7) and "
                 f"{spread(p9):.0f}x (A.9) as sigma falls 1 -> 1e-3 (any fixed c fails); with sigma the "
                 f"ratios vary by {spread(c7):.2f}x and {spread(c9):.2f}x",
        params={"d": d, "k": k, "m": m, "n": n, "N": N, "sigmas": sigmas.tolist(), "c": 1.0})
