"""Sec. 4.2 of Collins, Hassani, Mokhtari and Shakkottai (2021), *Exploiting Shared Representations for Personalized
Federated Learning*, ICML 2021, "Connection to matrix sensing": problem (6) as an instance of matrix sensing, and
its challenge (i), no restricted isometry property for the row-wise sparse measurements. Library code:
:mod:`fedtheory.representation.structure`. Verdicts come from :mod:`fedtheory.decide`.
"""
from __future__ import annotations

import math

import numpy as np
from fedtheory import decide
from fedtheory.random import as_generator, spawn_seeds
from fedtheory.representation import make_model, sample_complexity
from fedtheory.representation.structure import rank1_isometry_range, sensing_residuals
from . import PAPER


U = np.finfo(float).eps / 2


# ----------------------------------------------------------------------------- problem (6) as matrix sensing
@PAPER.claim("fedrep.sec4.matrix-sensing", "Sec. 4.2, 'Connection to matrix sensing'",
             "Problem (6) is matrix sensing with rank-1, row-wise sparse measurements: y_i^j = <e_i x_i^j^T, "
             "W* B*^T>_F, and the batch objective (8) equals (1/2mn) sum_ij <A_ij, W* B*^T - W B^T>_F^2.",
             regime="20 (quick) / 200 (full) random instances, n=6, m=5, d=8, k=2, arbitrary (W, B); explicit "
                    "A_ij = e_i x_ij^T (each checked rank 1 with one nonzero row); the identities must hold "
                    "to 64 u times the sum of the absolute products (a rounding bound), else `refuted`. A "
                    "consistency check: y_ij = <e_i x_ij^T, W* B*^T>_F is the definition of the Frobenius inner "
                    "product, so the identity is true by construction; it checks the sensing operator's code",
             kind="consistency")
def _sensing(full: bool, seed):
    n, m, d, k = 6, 5, 8, 2
    trials = 200 if full else 20
    worst_y, worst_8, shape_ok = 0.0, 0.0, True
    for s in spawn_seeds(seed, trials):
        rng = as_generator(s)
        model = make_model(d, k, n, seed=s)
        X = rng.standard_normal((n, m, d))
        W, B = rng.standard_normal((n, k)), rng.standard_normal((d, k))
        y = np.einsum("imd,id->im", X, model.theta_star)
        scale = 64 * U * np.einsum("imd,id->im", np.abs(X), np.abs(model.theta_star) + np.abs(W @ B.T))
        y_sense = sensing_residuals(X, np.zeros((n, k)), np.zeros((d, k)), model.W_star, model.B_star)
        worst_y = max(worst_y, float(np.max(np.abs(y_sense - y) / scale)))
        r_direct = y - np.einsum("imd,dk,ik->im", X, B, W)
        r_sense = sensing_residuals(X, W, B, model.W_star, model.B_star)
        f_direct, f_sense = np.sum(r_direct ** 2) / (2 * m * n), np.sum(r_sense ** 2) / (2 * m * n)
        tol8 = 4 * np.sum(np.abs(r_direct) * scale) / (m * n) + 1e-300
        worst_8 = max(worst_8, float(np.max(np.abs(r_sense - r_direct) / scale)), float(abs(f_sense - f_direct) / tol8))
        A = np.zeros((n, d))
        A[2] = X[2, 0]
        shape_ok &= np.linalg.matrix_rank(A) == 1 and np.count_nonzero(np.any(A != 0, axis=1)) == 1
    return decide.combine(
        [decide.bound([worst_y, worst_8], 1.0, of="rounding bound",
                      what=f"{trials} instances: |<A_ij, W*B*^T> - y_ij| and the residuals / objective (8) via the "
                           "A_ij, over the rounding bound"),
         decide.bound(int(not shape_ok), 0, what="instances whose A_ij is not rank 1 with one nonzero row")],
        what="matrix-sensing form of (6) and (8)",
        observed={"labels_over_tol": worst_y, "objective8_over_tol": worst_8, "rank1_row_sparse": bool(shape_ok)},
        bound={"ratio_to_rounding_bound": 1.0}, params={"n": n, "m": m, "d": d, "k": k, "trials": trials})


# ----------------------------------------------------------------------------- challenge (i): no RIP
@PAPER.claim("fedrep.sec4.no-rip", "Sec. 4.2, 'Connection to matrix sensing' (challenge (i))",
             "Because the measurements are row-wise sparse, the sensing operator does not satisfy RIP within an "
             "efficient number of samples: on the rank-1 matrices e_i v^T its isometry constant is >= 1 for every "
             "m < d samples per client, and a constant 1/2 needs m >= d per client, whereas Theorem 1's per-client "
             "m grows like log(rn) + d/(rn).",
             regime="n=50 clients, Gaussian x, d in {10, 20} (quick) / {10, 20, 40} (full), m in {d/2, d-1, d, "
                    "2d, ..., 64d}; the rank-1 RIP constant max_i max(1 - lambda_min, lambda_max - 1) of X_i^T X_i/m "
                    "computed exactly. Holds if its lower side max_i (1 - lambda_min) is >= 1 - 1e-10 at every m < d, "
                    "the smallest grid m with constant <= 1/2 (m_RIP) is >= d for each d, and m_RIP/d does not "
                    "halve from one d to the next (m_RIP = Omega(d)); otherwise `refuted`")
def _no_rip(full: bool, seed):
    n = 50
    ds = (10, 20, 40) if full else (10, 20)
    rows, lower = {}, {}
    rng = as_generator(seed)
    for d in ds:
        grid = [d // 2, d - 1, d, 2 * d, 4 * d, 8 * d, 16 * d, 32 * d, 64 * d]
        rows[d], lower[d] = {}, {}
        for m in grid:
            lo, hi = rank1_isometry_range(rng.standard_normal((n, m, d)))
            rows[d][m] = float(max(np.max(1 - lo), np.max(hi - 1)))
            lower[d][m] = float(np.max(1 - lo))
    thm = {d: float(sample_complexity(2, d, 1000, 0.1, 1.0, 1.0, c=1.0)) for d in ds}
    return rip_verdict(rows, lower, thm, params={"n": n, "d": list(ds), "delta": 0.5})


def rip_verdict(rows: dict, lower: dict, thm_m: dict | None = None, delta: float = 0.5, params=None) -> dict:
    """Decision of ``fedrep.sec4.no-rip`` from ``{d: {m: RIP constant}}`` and ``{d: {m: max_i (1 -
    lambda_min,i)}}`` (the lower-side deviation, exactly 1 when m < d)."""
    below = min((v for d, r in lower.items() for m, v in r.items() if m < d), default=1.0)
    cap = 2 * max(m for r in rows.values() for m in r)  # 'no grid m reaches delta' reads as beyond the grid
    m_rip = {d: min((m for m, v in r.items() if v <= delta), default=cap) for d, r in rows.items()}
    ratios = [m_rip[d] / d for d in sorted(rows)]
    steps = [r2 / (r1 / 2) for r1, r2 in zip(ratios, ratios[1:])] or [2.0]
    mp = (1 / (math.sqrt(1 + delta) - 1)) ** 2  # Marchenko-Pastur: (1 + sqrt(d/m))^2 - 1 <= delta
    ev = ("max_i (1 - lambda_min) at every m < d (lambda_min = 0: no RIP on e_i v^T); smallest grid m with "
          f"constant <= {delta}: " + ", ".join(f"d={d}: m={m_rip[d]} ({m_rip[d] / d:g} d)" for d in rows) +
          f" (Marchenko-Pastur edge for one client: {mp:.1f} d)" +
          ("; Theorem 1's per-round m for comparison (c=1, k=2, n=1000, r=0.1, kappa=E0=1): " +
           ", ".join(f"d={d}: {v:.3g}" for d, v in thm_m.items()) if thm_m else ""))
    return decide.combine(
        [decide.bound(below, 1 - 1e-10, sense=">=", of="isometry constant",
                      what="lower-side deviation max_i (1 - lambda_min) at every m < d"),
         decide.bound(np.array(ratios), 1.0, sense=">=", of="sample threshold", what="m_RIP / d"),
         decide.bound(np.array(steps), 1.0, sense=">=", of="growth", what="m_RIP/d does not halve from one d to the next")],
        what=ev + f"; sharper reading m_RIP >= {mp / 2:.1f} d (half the Marchenko-Pastur edge): "
                  + str(bool(min(ratios) >= mp / 2)),
        observed={"min_lower_deviation_below_d": below, "m_rip": {str(d): m for d, m in m_rip.items()},
                  "sharper_reading_m_rip_over_half_MP_edge": bool(min(ratios) >= mp / 2),
                           "constants": {str(d): {str(m): v for m, v in r.items()} for d, r in rows.items()}},
        bound={"lower_deviation_below_d_min": 1.0, "m_rip_min_over_d": 1.0}, params=params or {})
