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


# ----------------------------------------------------------------------------- brute-force referee
def exact_client_losses(method, lam, prob, *, attack=None, N_a=0, tau=0.0, excess=False):
    """Per-client noise-averaged test losses (N,) by brute force, from the solution map alone.

    Every method's personalised models are a linear map ``Z -> x`` of the inputs the server sees
    (``closed_form_models`` with no attack: App. B.1, itself checked against exact runs of
    Algorithm 1): benign rows ``w_hat_k ~ N(w_k, sigma^2/(b n) I)``, malicious rows their messages
    (same-value ``c 1_d``, Gaussian ``N(0, tau^2 I)``, ``c ~ N(0, tau^2)``). So ``E x = map(E Z)``
    and ``tr Cov x_k = sum over independent noise directions u of ||map(u)_k||^2`` (the map is probed
    on every noise direction: ``sqrt(sigma^2/(b n)) e_{j,e}`` for benign ``j``, ``tau 1_j`` or
    ``tau e_{j,e}`` for malicious ``j``). The loss is ``sigma^2/2 + (b/2)(||E x_k - w_k||^2 +
    tr Cov x_k)`` (eq. (35)); ``excess=True`` leaves out ``sigma^2/2``. No loss formula is used."""
    return exact_loss_function(method, prob, attack=attack, N_a=N_a, tau=tau, excess=excess)(lam)


def exact_loss_function(method, prob, *, attack=None, N_a=0, tau=0.0, excess=False):
    """``lam -> exact_client_losses(method, lam, prob, ...)`` with the noise directions built once."""
    if attack is not None and method == "lp-proj-2":
        raise ValueError("the brute-force referee models attacks in the input space (not for lp-proj-2)")
    N, d = prob.W.shape
    N_a = N_a if attack else 0
    N_b = N - N_a
    sd = prob.sigma / math.sqrt(prob.b * prob.n)
    EZ = prob.W.copy()
    EZ[N_b:] = 0.0  # the attack messages have mean 0
    n_dir = N_b * d + (N_a * d if attack == "gaussian" else N_a)
    U = np.zeros((n_dir, N, d))
    i = np.arange(N_b * d)
    U[i, i // d, i % d] = sd  # benign: sd e_{j,e}
    if N_a and attack == "gaussian":
        i = np.arange(N_a * d)
        U[N_b * d + i, N_b + i // d, i % d] = tau
    elif N_a and attack == "same-value":
        U[N_b * d + np.arange(N_a), N_b + np.arange(N_a), :] = tau
    elif N_a:
        raise ValueError(f"attack {attack!r} is not modelled by the brute-force referee")

    def losses(lam):
        mean = closed_form_models(method, EZ, lam, prob.b, prob.P)
        resp = closed_form_models(method, U, lam, prob.b, prob.P)
        tr_cov = np.einsum("mkd,mkd->k", resp, resp)
        out = prob.b / 2 * (np.sum((mean - prob.W) ** 2, axis=1) + tr_cov)
        return out if excess else prob.sigma ** 2 / 2 + out

    return losses


def exact_benign_loss(method, lam, prob, *, attack=None, N_a=0, tau=0.0, excess=False):
    """Benign-average of :func:`exact_client_losses` (the last ``N_a`` clients are malicious)."""
    return exact_benign_loss_function(method, prob, attack=attack, N_a=N_a, tau=tau, excess=excess)(lam)


def exact_benign_loss_function(method, prob, *, attack=None, N_a=0, tau=0.0, excess=False):
    """``lam -> exact_benign_loss(method, lam, prob, ...)`` with the noise directions built once."""
    f = exact_loss_function(method, prob, attack=attack, N_a=N_a, tau=tau, excess=excess)
    N_b = prob.W.shape[0] - (N_a if attack else 0)
    return lambda lam: float(np.mean(f(lam)[:N_b]))


def brute_force_argmin(f, lo, hi, points=61):
    """Minimiser over ``lam`` in [lo, hi] of ``f(lam)``: a log-spaced grid search, then Brent's method
    (scipy.optimize.minimize_scalar) on log lam inside the grid cell around the best point.
    Never consults a formula for the minimiser."""
    from scipy.optimize import minimize_scalar

    grid = np.logspace(math.log10(lo), math.log10(hi), points)
    vals = np.array([f(g) for g in grid])
    i = int(np.argmin(vals))
    if i in (0, points - 1):
        return float(grid[i])  # on the edge: no interior minimum on [lo, hi]
    u = np.log(grid)
    r = minimize_scalar(lambda x: f(math.exp(x)), bracket=(u[i - 1], u[i], u[i + 1]), tol=1e-12)
    return float(math.exp(r.x))
