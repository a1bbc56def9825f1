"""Appendix A, eqs. (13)-(19) of Tziotis, Shen, Pedarsani, Hassani and Mokhtari, *Straggler-Resilient Personalized
Federated Learning* (TMLR 2023; arXiv eqs. (12)-(18)): one FedRep-SRPFL round in closed form.

* ``srpfl.eqs13-15.gradients`` - (14)-(15) are the gradients of the loss (13) (central finite differences);
* ``srpfl.eqs16-19.closed-form`` - the round (16)-(19) against numpy lstsq, the clients' own gradient steps and the
  vectorised engine round.
"""
from __future__ import annotations

import numpy as np

from fedtheory.random import as_generator, spawn_seeds
from fedtheory.representation import make_model
from fedtheory.representation.algorithms import fedrep_round
from fedtheory.srpfl import srpfl_default_eta
from fedtheory.srpfl.meta import closed_form_round, grad_B_LN, grad_W_LN, loss_LN

from . import PAPER
from ._common import relative_identity

#: relative tolerance of identities computed in float64 (finite differences: see _fd_tol)
IDENT_TOL = 1e-9


# ----------------------------------------------------------------------------- (13)-(15)
def central_differences(f, x: np.ndarray, h: float) -> np.ndarray:
    """Central finite differences ``(f(x + h e_j) - f(x - h e_j)) / (2h)`` of a scalar function over
    every entry of ``x`` (the referee of (14)-(15))."""
    x = np.asarray(x, float)
    g = np.empty_like(x)
    for j in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[j] = h
        g[j] = (f(x + e) - f(x - e)) / (2 * h)
    return g


def decide_relative(errors: dict, tol: float, what: str, params=None) -> dict:
    """Every relative error in ``errors`` (name -> value) at most ``tol``: the kit's identity through
    :func:`relative_identity`."""
    out = relative_identity(list(errors.values()), tol, what=f"{what} ({', '.join(errors)})", params=params)
    return {**out, "observed": {k: float(e) for k, e in errors.items()}, "bound": {"tolerance": tol}}


def _rel(a, b):
    return float(np.max(np.abs(np.asarray(a) - np.asarray(b))) / max(1.0, float(np.max(np.abs(b)))))


@PAPER.claim("srpfl.eqs13-15.gradients", "Eqs. (13)-(15) [arXiv: eqs. (12)-(14)]",
             "(14) (1/(mn)) sum_i X_i^T (X_i B w_i - Y_i) w_i^T and (15) (1/(mn)) B^T X_i^T (X_i B w_i - Y_i) are the "
             "gradients of L_N(B, W) = (1/(2mn)) sum_i ||Y_i - X_i B w_i||^2 (13) in B and in w_i.",
             regime="(13) read with a squared norm and X_i of shape m x d (printed d x m); random instances "
                    "(d=7, k=3, n=5, m=9, Gaussian X, Y, B, W; 3 seeds in quick, 10 in full); referee: central "
                    "finite differences of (13) with step 1e-5, whose truncation error is 0 for a quadratic and whose "
                    "rounding error is below 1e-8 relative; holds iff every entry of (14) and (15) agrees to 1e-7 "
                    "relative (a sign slip, a missing factor 2 or n, or a transpose fails by O(1))")
def _eqs13_15(full: bool, seed):
    errs = {"eq14_grad_B": 0.0, "eq15_grad_W": 0.0}
    for s in spawn_seeds(seed, 10 if full else 3):
        g = as_generator(s)
        d, k, n, m = 7, 3, 5, 9
        X, Y = g.standard_normal((n, m, d)), g.standard_normal((n, m))
        B, W = g.standard_normal((d, k)), g.standard_normal((n, k))
        fdB = central_differences(lambda b: loss_LN(b, W, X, Y), B, 1e-5)
        fdW = central_differences(lambda w: loss_LN(B, w, X, Y), W, 1e-5)
        errs["eq14_grad_B"] = max(errs["eq14_grad_B"], _rel(grad_B_LN(B, W, X, Y), fdB))
        errs["eq15_grad_W"] = max(errs["eq15_grad_W"], _rel(grad_W_LN(B, W, X, Y), fdW))
    return decide_relative(errs, 1e-7, "(14)-(15) vs central differences of (13), relative",
                           params={"d": 7, "k": 3, "n": 5, "m": 9, "h": 1e-5})


# ----------------------------------------------------------------------------- (16)-(19)
@PAPER.claim("srpfl.eqs16-19.closed-form", "Eqs. (16)-(19) [arXiv: eqs. (15)-(18)]",
             "One round in closed form: w_i+ = ((1/m) B^T X_i^T X_i B)^{-1} (1/m) B^T X_i^T Y_i (16)-(17) is the "
             "least-squares head, B+ = B - (eta/(mn)) sum_i X_i^T (X_i B w_i+ - Y_i) w_i+^T (18) is the average of "
             "the clients' gradient steps, and (B_hat+, R+) = QR(B+) (19) gives an orthonormal B_hat+ with "
             "B+ = B_hat+ R+.",
             regime="random linear-model rounds (d=20, k=3, n=8, m=12, sigma=0.5, B_hat orthonormal, eta = "
                     "1/(8 max ||w_i*||^2); 3 seeds quick, 10 full); referees: numpy lstsq for (17), the client-by-client "
                     "gradient steps of Algorithm 2 lines 11-13 averaged, and the vectorised engine round "
                     "(fedtheory.representation.fedrep_round) for (18)-(19); holds iff all agree to 1e-9 relative and "
                     "||B_hat+^T B_hat+ - I|| <= 1e-9")
def _eqs16_19(full: bool, seed):
    errs = {"eq17_vs_lstsq": 0.0, "eq18_vs_client_steps": 0.0, "eq18_vs_engine": 0.0, "eq19_vs_engine": 0.0,
            "eq19_orthonormality": 0.0, "eq19_BhatR": 0.0}
    d, k, n, m = 20, 3, 8, 12
    for s in spawn_seeds(seed, 10 if full else 3):
        g = as_generator(s)
        model = make_model(d, k, n, sigma=0.5, seed=g)
        B = np.linalg.qr(g.standard_normal((d, k)))[0]
        X, Y = model.sample(g, np.arange(n), m)
        eta = srpfl_default_eta(model.W_star)
        W, Bp, Bh, Rp = closed_form_round(B, X, Y, eta)
        W_ls = np.stack([np.linalg.lstsq(X[i] @ B, Y[i], rcond=None)[0] for i in range(n)])
        steps = np.mean([B - eta * np.outer(X[i].T @ (X[i] @ B @ W_ls[i] - Y[i]), W_ls[i]) / m
                         for i in range(n)], axis=0)
        eng = fedrep_round(B, X, Y, eta)
        errs["eq17_vs_lstsq"] = max(errs["eq17_vs_lstsq"], _rel(W, W_ls))
        errs["eq18_vs_client_steps"] = max(errs["eq18_vs_client_steps"], _rel(Bp, steps))
        errs["eq18_vs_engine"] = max(errs["eq18_vs_engine"], _rel(Bp, eng.B_bar), _rel(W, eng.w))
        errs["eq19_vs_engine"] = max(errs["eq19_vs_engine"], _rel(Bh, eng.B_next), _rel(Rp, eng.R))
        errs["eq19_orthonormality"] = max(errs["eq19_orthonormality"], float(np.linalg.norm(Bh.T @ Bh - np.eye(k), 2)))
        errs["eq19_BhatR"] = max(errs["eq19_BhatR"], _rel(Bh @ Rp, Bp))
    return decide_relative(errs, IDENT_TOL, "(16)-(19) vs lstsq, client steps and the engine round",
                           params={"d": d, "k": k, "n": n, "m": m, "sigma": 0.5})
