"""Appendix B, Remark B.4 (the method-of-moments initialisation of Algorithm 2, lines 2-3) of Tziotis, Shen, Pedarsani,
Hassani and Mokhtari, *Straggler-Resilient Personalized Federated Learning* (TMLR 2023; arXiv Remark B.4).

* ``srpfl.remB4.mom-init`` - the initialisation gives dist(B^0, B*) < 1 - c with overwhelming probability once mN >=
  64 d (c read as 0.1).
"""
from __future__ import annotations

import numpy as np

from fedtheory import decide
from fedtheory.random import as_generator, spawn_seeds

from . import PAPER
from .appendix_a_rounds import K, ols_slopes


def mom_init_dist(g: np.random.Generator, d: int, k: int, N: int, m: int, sigma: float, reps: int) -> np.ndarray:
    """Algorithm 2, lines 2-3 (Tziotis et al., TMLR 2023; the method of moments of Tripuraneni et al. 2021 /
    Collins et al. 2021, Theorem 3), ``reps`` independent times for one ground truth: every client i of N
    draws m Gaussian samples and sends P_i = (1/m) sum_j y_ij^2 x_ij x_ij^T; the server takes the top-k
    eigenvectors of (1/N) sum_i P_i. Returns ``dist(B^0, B*)`` per replicate (Definition 4.1).

    Parameters
    ----------
    g : numpy Generator; d >= k >= 1, N >= 1, m >= 1 integers; sigma >= 0; reps >= 1.
    """
    from fedtheory.representation import make_heads

    if not (k >= 1 and d >= k and N >= 1 and m >= 1 and reps >= 1 and sigma >= 0):
        raise ValueError(f"need d >= k >= 1, N, m, reps >= 1, sigma >= 0; got d={d}, k={k}, N={N}, m={m}, "
                         f"reps={reps}, sigma={sigma}")
    B_star = np.linalg.qr(g.standard_normal((d, k)))[0]
    W = make_heads(g, N, k, "sqrt_k")
    theta = np.repeat(W @ B_star.T, m, axis=0)  # (N m, d): client i's rows repeated m times
    chunk = max(1, 2 ** 22 // (N * m * d))  # replicates per pass: at most ~4M samples of x in memory
    out = []
    for start in range(0, reps, chunk):
        r = min(chunk, reps - start)
        X = g.standard_normal((r, N * m, d))
        y = np.einsum("rjd,jd->rj", X, theta) + sigma * g.standard_normal((r, N * m))
        P = np.einsum("rjd,rje->rde", X * (y ** 2)[..., None], X, optimize=True) / (N * m)
        U = np.linalg.eigh(P)[1][..., ::-1][..., :k]
        out.append(np.linalg.norm(U - B_star @ (B_star.T @ U), 2, axis=(1, 2)))
    return np.concatenate(out)


def _mom_cell(seed, *, d, N, m, reps):
    """One Remark B.4 cell (a picklable task for :func:`fedtheory.parallel.cached_map`)."""
    return mom_init_dist(as_generator(seed), d, K, N, m, 0.5, reps)


#: Remark B.4 cells (d, N, m) inside the regime reading mN >= 64 d, and outside it (reported only)
REMB4_CELLS = {False: [(16, 64, 16), (16, 128, 16)],
               True: [(16, 64, 16), (32, 64, 32), (16, 128, 16), (16, 256, 16)]}


REMB4_OUTSIDE = [(16, 32, 20), (16, 16, 16)]


REMB4_C = 0.1


@PAPER.claim("srpfl.remB4.mom-init", "Remark B.4 [arXiv: Remark B.4 (<= 1 - c)]",
             "The method-of-moments initialisation (Algorithm 2, lines 2-3) gives dist(B^0, B*) < 1 - c with "
             "probability >= 1 - O((mN)^{-100}): with c read as 0.1 no draw has dist(B^0, B*) >= 0.9 when mN >= 64 d.",
             regime="Algorithm 2 lines 2-3 run exactly (Gaussian x, sigma = 0.5, k = 2, sqrt(k)-normalised heads); c read "
                    "as 0.1 (the event dist(B^0, B*) < 0.9); 'without increasing the sample complexity' read as mN >= 64 d "
                    "(the paper gives no constant); the allowed failure probability (mN)^{-100} (O-constant read as 1) "
                    "is below 1e-180, so any failing draw is a failure (one-sided exact binomial test at the claim level); "
                    "cells with mN < 64 d are reported, not decided")
def _remb4(full: bool, seed):
    reps = 300 if full else 60
    cells = REMB4_CELLS[bool(full)]
    seeds = spawn_seeds(seed, len(cells) + len(REMB4_OUTSIDE))
    dists, rows = [], []
    from functools import partial

    from fedtheory.parallel import cached_map

    for (d, N, m), s in zip(cells + REMB4_OUTSIDE, seeds):
        r = reps if (d, N, m) in cells else max(reps // 2, 50)
        D = np.asarray(cached_map(partial(_mom_cell, d=d, N=N, m=m, reps=r), [s], namespace="srpfl.remark_b4.mom",
                                  params={"d": d, "N": N, "m": m, "reps": r, "k": K, "sigma": 0.5})[0], float)
        rows.append({"d": d, "N": N, "m": m, "mN/d": m * N / d, "mean_dist": float(D.mean()), "max_dist": float(D.max()),
                     "failures": int(np.sum(D >= 1 - REMB4_C)), "draws": int(D.size), "inside": (d, N, m) in cells})
        if (d, N, m) in cells:
            dists.append(D)
    D = np.concatenate(dists)
    viol = int(np.sum(D >= 1 - REMB4_C))
    p_allowed = max(min(float(m * N) ** -100.0 for (_, N, m) in cells), 1e-300)
    out = decide.probability(viol, D.size, p_allowed, what=f"draws with dist(B^0, B*) >= {1 - REMB4_C:g} (mN >= 64 d)",
                             params={"reps": reps, "cells(d,N,m)": cells, "outside": REMB4_OUTSIDE, "c": REMB4_C,
                                     "sigma": 0.5, "k": K})
    inside = [r for r in rows if r["inside"]]
    sl = (ols_slopes(np.log([r["mean_dist"] for r in inside]), np.log([[r["mN/d"]] for r in inside]), ["mN/d"])
          if len(inside) > 2 else {"mN/d": (None, None)})  # too few cells in quick mode: not reported
    out["observed"].update(c_hat=float(1 - D.max()), cells=rows, mean_dist_slope_in_log_mN_over_d=list(sl["mN/d"]))
    out["evidence"] += (f"; the largest dist over the {D.size} in-regime draws is {D.max():.3f} (so any c <= "
                        f"{1 - D.max():.3f} works: the sharper reading c = {1 - D.max():.3f} also holds on these "
                        f"draws); mean dist falls like (mN/d)^{sl['mN/d'][0]} (None in quick mode); outside the "
                        "reading (reported): "
                        + ", ".join(f"mN/d={r['mN/d']:g}: {r['failures']}/{r['draws']} draws >= {1 - REMB4_C:g} "
                                    f"(max {r['max_dist']:.3f})" for r in rows if not r["inside"]))
    return out
