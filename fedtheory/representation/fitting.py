"""Estimators and evaluations of FedRep's linear model: steps, initialisation, heads, test errors.

FedRep, Collins, Hassani, Mokhtari and Shakkottai, ICML 2021:

* :func:`default_eta` - a step admissible for Theorem 1 for every participating set;
* :func:`mom_init` - the method-of-moments initialisation of Algorithm 2;
* :func:`fit_heads` - the exact least-squares heads of Algorithm 2 (eq. (7));
* :func:`fit_local` - Local Only (per-client ridge regression, Sec. 5.1);
* :func:`test_mse`, :func:`test_mse_exact` - test error of per-client predictors (sampled, closed form);
* :func:`new_client_mse` - a new client fitting its head on a learned representation (Figure 4).
"""
from __future__ import annotations

import math

import numpy as np

from .._validation import guard_module as _guard_module
from .._validation import (check_alloc, check_choice, check_finite_result, check_generator, check_instance,
                           check_int, check_matrix, check_real)
from ..linalg import batched_solve, blas_single_thread
from ..random import SeedLike, as_generator
from ._checks import _check_model_memory, _check_predictors, _OverflowNames, _overflow_check
from ._kernels import _fit_heads
from .model import HEAD_NORMS, SIGMA_MAX, FedRepModel, make_heads

__all__ = ["default_eta", "mom_init", "fit_heads", "fit_local", "test_mse", "test_mse_exact", "EVALUATIONS",
           "new_client_mse"]


def default_eta(W_star: np.ndarray) -> float:
    """``1 / (4 max_i ||w_i*||^2)``: always admissible for Theorem 1.

    Since ``sigma_max(W_I / sqrt(rn))^2 <= ||W_I||_F^2 / rn <= max_i ||w_i*||^2`` for
    every subset I, this step satisfies ``eta <= 1/(4 sigma_max,*^2)`` (FedRep
    Theorem 1, Collins et al., ICML 2021) without computing ``sigma_max,*``. Under
    Assumption 3 it equals ``1/(4k)``. ``W_star`` is a finite n x k matrix with a nonzero row.
    """
    W = check_matrix(W_star, "W_star", (None, None))
    top = float(np.max(np.sum(W ** 2, axis=1))) if W.size else 0.0
    if not top > 0:
        raise ValueError("`W_star` must have a nonzero row (the step 1/(4 max ||w_i*||^2) is infinite otherwise)")
    return 1.0 / (4.0 * top)


def mom_init(model: FedRepModel, m: int, rng: np.random.Generator, chunk: int = 4096
             ) -> np.ndarray:
    """Method-of-moments initialisation (FedRep Algorithm 2, initialisation step).

    Every client draws ``m`` samples and sends ``Z_i = (1/m) sum_j y_ij^2 x_ij x_ij^T``;
    the server returns the top-``k`` eigenvectors of ``(1/n) sum_i Z_i``. Clients
    are processed in chunks to bound the memory.
    """
    check_instance(model, "model", FedRepModel)
    m = check_int(m, "m", 1)
    check_generator(rng, "rng")
    chunk = check_int(chunk, "chunk", 1)
    _check_model_memory(model)
    check_alloc(max(model.d ** 2, min(chunk, model.n) * m * model.d), "the method of moments (d x d, and a chunk "
                "of clients' m x d batches)", d=model.d, m=m, chunk=chunk)
    d, n = model.d, model.n
    acc = np.zeros((d, d))
    with blas_single_thread():  # a thin (n m) x d Gram matrix: BLAS threads only contend
        for start in range(0, n, chunk):
            clients = np.arange(start, min(n, start + chunk))
            X, y = model.sample(rng, clients, m)
            Xf = X.reshape(-1, d)
            acc += (Xf * (y.reshape(-1) ** 2)[:, None]).T @ Xf
    Zbar = acc / (n * m)
    _, vec = np.linalg.eigh(Zbar)
    return vec[:, ::-1][:, : model.k].copy()


def fit_heads(A: np.ndarray, y: np.ndarray, ridge: float = 0.0) -> np.ndarray:
    """Least-squares heads ``argmin_w ||A_c w - y_c||^2 (+ ridge ||w||^2)`` for a stack.

    ``A`` has shape (c, m, k) (features ``X_c B``), ``y`` shape (c, m). This is
    the exact head of FedRep Algorithm 2: ``w = (B^T X^T X B)^{-1} B^T X^T y``.
    Ill-conditioned systems fall back to least squares with a warning. ``ridge >= 0``.
    """
    A = check_matrix(A, "A", (None, None, None))
    y = check_matrix(y, "y", A.shape[:2])
    ridge = check_real(ridge, "ridge", 0)
    return _fit_heads(A, y, ridge)


def fit_local(X: np.ndarray, y: np.ndarray, ridge: float = 1e-5) -> np.ndarray:
    """Per-client ridge regression in ``R^d`` (Local Only), batched over clients.

    Uses the dual form ``X^T (X X^T + ridge I)^{-1} y`` when ``m < d``. ``ridge``
    defaults to the public code's ``1e-5`` (the problem is underdetermined for
    ``m < d``; as ``ridge -> 0`` this is the minimum-norm interpolant). ``ridge >= 0``.
    """
    X = check_matrix(X, "X", (None, None, None))
    y = check_matrix(y, "y", X.shape[:2])
    ridge = check_real(ridge, "ridge", 0)
    c, m, d = X.shape
    check_alloc(c * min(m, d) ** 2, "the local Gram matrices", X=X.shape)
    Xt = np.swapaxes(X, -1, -2)
    if m < d:
        K = X @ Xt + ridge * np.eye(m)
        _overflow_check([K, y], "the local ridge solve", "X", "y", "ridge")
        alpha = batched_solve(K, y, what="local ridge (dual)", symmetric=True)
        return check_finite_result(np.einsum("cmd,cm->cd", X, alpha), "the local ridge fit", "X", "y")
    G = Xt @ X + ridge * np.eye(d)
    rhs = np.einsum("cmd,cm->cd", X, y)
    _overflow_check([G, rhs], "the local ridge solve", "X", "y", "ridge")
    return batched_solve(G, rhs, what="local ridge", symmetric=True)


def test_mse(model: FedRepModel, theta_hat: np.ndarray, rng: np.random.Generator, m_test: int,
             clients: np.ndarray | None = None, noiseless: bool = False) -> float:
    """Mean squared prediction error of per-client linear predictors on fresh data.

    ``theta_hat`` has one row per client (the predictor ``x -> theta_hat_i . x``); ``m_test >= 1``.
    """
    check_instance(model, "model", FedRepModel)
    check_generator(rng, "rng")
    m_test = check_int(m_test, "m_test", 1)
    clients, theta_hat, noiseless = _check_predictors(model, theta_hat, clients, noiseless)
    _check_model_memory(model)
    check_alloc(clients.size * m_test * model.d, "the test covariates (clients x m_test x d)", m_test=m_test,
                d=model.d, clients=clients.size)
    return _test_mse(model, theta_hat, rng, m_test, clients, noiseless)


def _test_mse(model, theta_hat, rng, m_test, clients, noiseless=False) -> float:
    """:func:`test_mse` without the input validation (``clients`` an index array)."""
    X = model.draw_x(rng, (clients.size, m_test))
    y = np.einsum("cmd,cd->cm", X, model.theta_star[clients])
    if model.sigma > 0 and not noiseless:
        y = y + model.sigma * rng.standard_normal(y.shape)
    pred = np.einsum("cmd,cd->cm", X, theta_hat)
    return check_finite_result(float(np.mean((y - pred) ** 2)), "the test MSE", "theta_hat")


def test_mse_exact(model: FedRepModel, theta_hat: np.ndarray, clients: np.ndarray | None = None,
                   noiseless: bool = False) -> float:
    """Expected squared prediction error of per-client linear predictors, in closed form.

    For an isotropic design with unit variance (``E x x^T = I``: the Gaussian and Rademacher designs
    of :mod:`fedtheory.representation.model`) and label noise of variance ``sigma^2`` independent of ``x``,
    ``E (y_i - x^T theta_hat_i)^2 = ||theta_i* - theta_hat_i||^2 + sigma^2`` (FedRep, Collins et al.,
    ICML 2021, eqs. (3), (5): the population risk of client i). Returns the mean over ``clients``
    (default all): the limit of :func:`test_mse` as ``m_test -> infinity``, without sampling.
    """
    check_instance(model, "model", FedRepModel)
    clients, theta_hat, noiseless = _check_predictors(model, theta_hat, clients, noiseless)
    return _test_mse_exact(model, theta_hat, clients, noiseless)


def _test_mse_exact(model, theta_hat, clients, noiseless=False) -> float:
    """:func:`test_mse_exact` without the input validation (``clients`` an index array)."""
    err = float(np.mean(np.sum((model.theta_star[clients] - theta_hat) ** 2, axis=1)))
    return check_finite_result(err + (0.0 if noiseless else model.sigma ** 2), "the test MSE", "theta_hat")


#: readings of ``eval_mse`` in :func:`~fedtheory.representation.run_fedrep` and
#: :func:`~fedtheory.representation.run_fedavg`: closed form or fresh test samples
EVALUATIONS = ("exact", "sampled")


def _eval_with_refit(model: FedRepModel, B: np.ndarray, m: int, m_test: int,
                     rng: np.random.Generator, evaluation: str = "exact") -> float:
    """Every client fits its head on ``B`` from ``m`` fresh samples; the test MSE of the refitted
    predictors in closed form (``"exact"``, :func:`test_mse_exact`) or on ``m_test`` fresh test
    samples per client (``"sampled"``, :func:`test_mse`). ``m_test = 0`` skips the evaluation."""
    if m_test == 0:
        return math.nan
    clients = np.arange(model.n)
    X, y = model.sample(rng, clients, m)
    W = _fit_heads(X @ B, y, ridge=1e-10 if m >= model.k else 1e-5)
    if evaluation == "exact":
        return _test_mse_exact(model, W @ B.T, clients)
    return _test_mse(model, W @ B.T, rng, m_test, clients)


def new_client_mse(B_hat: np.ndarray | None, m_new: int, *, d: int, k: int, n_new: int = 100,
                   sigma: float = 1e-3, head_norm: str = "sqrt_k", B_star: np.ndarray,
                   m_test: int = 50, ridge: float = 1e-5, seed: SeedLike = 0) -> np.ndarray:
    """Per-new-client test MSE after fitting a head on ``m_new`` samples.

    FedRep Sec. 5.1, Figure 4 (Collins et al., ICML 2021): a new client uses the
    learned representation ``B_hat`` and fits its head by (ridge ``1e-5``, as in the
    public code) least squares on ``m_new`` noisy samples; ``B_hat=None`` means
    Local Only (a ``d``-dimensional ridge fit). The test data are noiseless, so the
    MSE is the excess risk. Returns an array of ``n_new`` MSEs.
    """
    d = check_int(d, "d", 1)
    k = check_int(k, "k", 1, d, why=f"k <= d, d={d}")
    m_new = check_int(m_new, "m_new", 1)
    n_new = check_int(n_new, "n_new", 1)
    m_test = check_int(m_test, "m_test", 1)
    check_real(sigma, "sigma", 0, SIGMA_MAX, why="noise standard deviation")
    ridge = check_real(ridge, "ridge", 0)
    check_choice(head_norm, "head_norm", HEAD_NORMS)
    B_star = check_matrix(B_star, "B_star")
    if B_star.shape != (d, k):
        raise ValueError(f"`B_star` must be d x k with `d`={d}, `k`={k}; got shape {B_star.shape}")
    if B_hat is not None:
        B_hat = check_matrix(B_hat, "B_hat")
        if B_hat.ndim != 2 or B_hat.shape[0] != d:
            raise ValueError(f"`B_hat` must be d x k' with `d`={d}; got shape {B_hat.shape}")
    check_alloc(n_new * max(m_new, m_test) * d, "the new clients' samples (n_new x m_new x d, n_new x m_test x d)",
                n_new=n_new, m_new=m_new, m_test=m_test, d=d)
    rng = as_generator(seed)
    W = make_heads(rng, n_new, k, head_norm)
    model = FedRepModel(B_star=B_star, W_star=W, sigma=sigma, head_norm=head_norm)
    with _OverflowNames("B_hat", "B_star", "sigma", "ridge"):
        return _new_client_mse(B_hat, model, rng, n_new, m_new, m_test, ridge)


def _new_client_mse(B_hat, model, rng, n_new, m_new, m_test, ridge):
    X, y = model.sample(rng, np.arange(n_new), m_new)
    if B_hat is None:
        theta_hat = fit_local(X, y, ridge=ridge)
    else:
        Wh = fit_heads(X @ B_hat, y, ridge=ridge)
        theta_hat = Wh @ B_hat.T
    Xt = model.draw_x(rng, (n_new, m_test))
    err = np.einsum("cmd,cd->cm", Xt, model.theta_star - theta_hat)
    return check_finite_result(np.mean(err ** 2, axis=1), "the new clients' MSE", "B_hat", "B_star")


# every public function turns float64 overflows, linear-algebra failures and broadcasting errors
# into ValueErrors naming its parameters (fedtheory._validation.guard_numeric_errors)
_guard_module(globals(), __all__)
