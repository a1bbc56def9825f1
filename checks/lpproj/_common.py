"""Helpers shared by the lpproj claim modules."""
from __future__ import annotations

import math
import numpy as np
from fedtheory.random import as_generator
from fedtheory.lpproj import LinearFLProblem, closed_form_models, make_projection

FIG1 = dict(N=100, n=200, d=100, d_sub=10, b=1.0, sigma=1.0, Sigma=0.1, attack="same-value",
            N_a=20, tau=100.0)
ATTACK_CASES = [(None, 0, 0.0), ("same-value", 4, 3.0), ("gaussian", 4, 3.0), ("sign-flip", 4, 3.0)]


def isotropic_problem(N, d, d_sub, n, b, sigma, Sigma, N_a=0, seed=0) -> LinearFLProblem:
    """True parameters satisfying the uniformity assumptions (36)/(37) exactly.

    ``P`` is a random orthonormal-row projection, completed to an orthogonal ``Q`` (first rows
    ``P``). The benign deviations ``e_k`` from the centre ``m = (sum_benign w_k)/N`` are ``E0 Q``
    with the columns of ``E0`` of equal squared norm ``N_b Sigma``, so that
    ``(1/(d N_b)) sum ||e_k||^2 = (1/(d_sub N_b)) sum ||P e_k||^2 = Sigma``."""
    rng = as_generator(seed)
    N_b = N - N_a
    P = make_projection(d_sub, d, seed=rng)
    Qc, _ = np.linalg.qr(np.hstack([P.T, rng.standard_normal((d, d - d_sub))]))
    Q = Qc.T
    Q[:d_sub] = P
    E0 = rng.standard_normal((N_b, d))
    if N_a == 0:
        E0 -= E0.mean(axis=0)
    E0 *= math.sqrt(N_b * Sigma) / np.linalg.norm(E0, axis=0)
    E = E0 @ Q
    if N_a == 0:
        W = 1.0 + E
    else:
        m = E.sum(axis=0) / N_a  # then (sum_benign w_k)/N = m
        W = np.vstack([m + E, rng.standard_normal((N_a, d))])
    return LinearFLProblem(W=W, n=n, b=b, sigma=sigma, P=P)


# ----------------------------------------------------------------------------- fairness
def _exact_client_losses(method, lam, prob):
    """Per-client noise-averaged test losses computed by brute-force linear algebra: x_k = sum_j A_kj w_hat_j,
    E x_k = sum_j A_kj w_j, Cov x_k = (sigma^2/(b n)) sum_j A_kj A_kj^T (independent of the closed forms)."""
    N, d = prob.W.shape
    rows = []
    for k in range(N):
        A = np.zeros((N, d, d))
        for j in range(N):  # response of x_k to a unit change of w_hat_j (linear map): finite basis probing
            for e in range(d):
                wh = np.zeros((N, d))
                wh[j, e] = 1.0
                A[j, :, e] = closed_form_models(method, wh, lam, prob.b, prob.P)[k]
        mean = np.einsum("jde,je->d", A, prob.W)
        cov_tr = prob.sigma ** 2 / (prob.b * prob.n) * float(np.sum(A ** 2))
        rows.append(prob.sigma ** 2 / 2 + prob.b / 2 * (cov_tr + np.sum((mean - prob.W[k]) ** 2)))
    return np.array(rows)
