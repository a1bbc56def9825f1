"""Exact runs of FedRep and its baselines on the linear model.

FedRep, Collins et al., ICML 2021, Algorithm 2 (FedRep for linear regression)
and the comparison methods of Section 5.1 (GD-GD, 10GD-GD, FedAvg, Local Only).
Every round is vectorised over the selected clients: their batches are one
array ``X`` of shape (rn, m, d), the heads are solved by one batched ``k x k``
solve, and the representation gradient is one contraction.

Round t (indices as in the corrected Algorithm 2, t = 0..T-1):

1. the server samples ``I^t`` (rn clients, without replacement);
2. each selected client draws a fresh batch (or reuses its fixed data), solves
   ``w_i = argmin_w f_i^t(w, B^t)`` (eq. 7) exactly (or takes ``head_steps``
   gradient steps for GD-GD / 10GD-GD), and takes one gradient step on ``B``;
3. the server averages the ``B_i`` and, if ``orthonormalize``, applies QR
   (Theorem 1 is stated for the orthonormalised iterate; the printed Algorithm 2
   has no QR step).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from .._validation import guard_module as _guard_module
from .._validation import (check_alloc, check_bool, check_choice, check_finite_result, check_generator, check_instance,
                           check_int, check_iterations, check_matrix, check_real)
from ..linalg import _distance_to, _orthonormalize, _solve_spd, _try_solve_spd, batched_solve, principal_angle_distance, random_orthonormal
from ..random import BIT_GENERATORS, SeedLike, as_generator, seed_repr, spawn_seeds
from ..random import random_subsets as _subsets
from .model import DESIGNS, HEAD_NORMS, SIGMA_MAX, FedRepModel, make_model, n_selected
from .theory import population_objective

__all__ = ["FedRepResult", "FedAvgResult", "RoundResult", "fedrep_round", "fedrep_round_reduced",
           "fedrep_round_stacked", "fedrep_round_sharded", "resolve_sampler", "SAMPLERS", "mom_init", "run_fedrep", "run_altgd", "run_fedavg",
           "fit_heads", "fit_local", "test_mse", "test_mse_exact", "EVALUATIONS", "new_client_mse", "default_eta"]


# --------------------------------------------------------------------------- results
@dataclass(frozen=True, eq=False)
class FedRepResult:
    """Trajectory of one FedRep (or GD-GD) run.

    Attributes
    ----------
    dist : ndarray (rounds+1,)
        ``dist(B^t, B*)`` for t = 0..rounds (Definition 1).
    objective : ndarray (rounds+1,)
        Population objective (6) at ``(B^t, W^t)``; heads start at 0 and
        non-selected clients keep their last head.
    batch_loss : ndarray (rounds,)
        Mean over the selected clients of the batch loss (7) after the head update.
    B : ndarray (d, k)
        Final representation.
    W : ndarray (n, k)
        Final heads.
    B0 : ndarray (d, k)
        Initial representation.
    eval_mse : float
        Test MSE on fresh data after every client re-fits its head on the final
        ``B`` from ``m`` fresh samples (NaN when ``m_test=0``).
    eta : float
        Step size used on ``B``.
    params : dict
        All run parameters (for provenance).
    model : FedRepModel
        The ground truth.
    """

    dist: np.ndarray
    objective: np.ndarray
    batch_loss: np.ndarray
    B: np.ndarray
    W: np.ndarray
    B0: np.ndarray
    eval_mse: float
    eta: float
    params: dict
    model: FedRepModel = field(repr=False)

    @property
    def E0(self) -> float:
        """``1 - dist(B^0, B*)^2`` (Theorem 1)."""
        return 1.0 - float(self.dist[0]) ** 2

    def summary(self) -> str:
        p = self.params
        return (f"{p.get('algorithm', 'FedRep')} run: d={p['d']}, k={p['k']}, n={p['n']}, "
                f"m={p['m']}, r={p['r']}, rounds={p['rounds']}, eta={self.eta:.4g}; "
                f"dist {self.dist[0]:.3g} -> {self.dist[-1]:.3g}, eval MSE {self.eval_mse:.3g}")

    def __repr__(self) -> str:
        return f"FedRepResult({self.summary()})"


@dataclass(frozen=True, eq=False)
class FedAvgResult:
    """Trajectory of one FedAvg run on the single-model objective (4).

    ``dist`` tracks ``dist(B^t, B*)``, ``objective`` the population objective (4)
    ``(1/2n) sum_i ||B w - B* w_i*||^2 + sigma^2/2``; ``eval_mse`` is the test MSE
    after per-client head fine-tuning on the learned ``B`` (FedAvg+FT, as in
    FedRep Sec. 5.1, Figure 4).
    """

    dist: np.ndarray
    objective: np.ndarray
    B: np.ndarray
    w: np.ndarray
    eval_mse: float
    params: dict
    model: FedRepModel = field(repr=False)

    def summary(self) -> str:
        return (f"FedAvg run: objective {self.objective[0]:.3g} -> {self.objective[-1]:.3g}, "
                f"dist(B, B*) {self.dist[-1]:.3g}, eval MSE (+FT) {self.eval_mse:.3g}")

    def __repr__(self) -> str:
        return f"FedAvgResult({self.summary()})"


# --------------------------------------------------------------------------- pieces
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


def _fit_heads(A, y, ridge=0.0):
    """:func:`fit_heads` without the input validation (the runs validate once, up front)."""
    G = np.matmul(np.swapaxes(A, -1, -2), A)
    if ridge > 0:
        G = G + ridge * np.eye(A.shape[-1])
    rhs = np.einsum("cmk,cm->ck", A, y)
    w = _try_solve_spd(G, rhs)  # certified and finite (the usual case): no further checks needed
    if w is not None:
        return w
    _overflow_check([G, rhs], "the head solve", "A", "y", "ridge")
    return _solve_spd(G, rhs, what="head solve (B^T X^T X B)")


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


def _check_predictors(model, theta_hat, clients, noiseless):
    """Validated ``(clients, theta_hat, noiseless)`` of :func:`test_mse` and :func:`test_mse_exact`:
    ``theta_hat`` has one row of length d per client in ``clients`` (default all)."""
    clients = np.arange(model.n) if clients is None else _check_clients(clients, model.n)
    theta_hat = check_matrix(theta_hat, "theta_hat")
    if theta_hat.shape != (clients.size, model.d):
        raise ValueError(f"`theta_hat` must have one row of length d={model.d} per client in `clients` "
                         f"({clients.size} clients): shape {(clients.size, model.d)}; got {theta_hat.shape}")
    return clients, theta_hat, check_bool(noiseless, "noiseless")


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
    err = float(np.mean(np.sum((model.theta_star[clients] - theta_hat) ** 2, axis=1)))
    return check_finite_result(err + (0.0 if noiseless else model.sigma ** 2), "the test MSE", "theta_hat")


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
    W = fit_heads(X @ B, y, ridge=1e-10 if m >= model.k else 1e-5)
    if evaluation == "exact":
        return test_mse_exact(model, W @ B.T)
    return test_mse(model, W @ B.T, rng, m_test)


def _check_run_size(d, k, n, m, n_sel, rounds, m_test, fresh_batches, *, init="random", m_init=None,
                    head_steps=None, shards=1, sampler="full", local_steps=None, evaluation="sampled"):
    """Refuse, before anything is drawn, a run whose arrays exceed the memory guard or whose loops
    would not finish; the messages name the sizes."""
    sizes = dict(d=d, k=k, n=n)
    check_alloc(max(n * d, d * k, n * k), "the ground truth (the n x d thetas B* w_i*)", **sizes)
    check_alloc(rounds + 1, "the trajectory (rounds + 1 entries)", rounds=rounds)
    if init == "mom":
        check_alloc(max(d * d, min(n, 4096) * (m_init or m) * d), "the method of moments (d x d, and a chunk of "
                    "clients' m_init x d batches; m_init defaults to m)", d=d, m=m, m_init=m_init or m, n=n)
    if sampler != "reduced":
        check_alloc(n_sel * m * d, "one round's batch (rn x m x d)", m=m, d=d, n=n)
    if not fresh_batches:
        check_alloc(n * m * d, "the fixed dataset (n x m x d)", n=n, m=m, d=d)
    if m_test and evaluation == "exact":
        check_alloc(n * m * d, "the evaluation (n x m x d refit samples)", n=n, m=m, d=d)
    elif m_test:
        check_alloc(n * max(m, m_test) * d, "the evaluation (n x m x d training and n x m_test x d test samples)",
                    n=n, m=m, m_test=m_test, d=d)
    check_alloc(shards, "the shard streams", itemsize=400, shards=shards)
    steps = rounds * (head_steps or 1) * (local_steps or 1)
    check_iterations(steps, "the run", rounds=rounds, **({"head_steps": head_steps} if head_steps else {}),
                     **({"local_steps": local_steps} if local_steps else {}))


def _validate_common(d, k, n, m, r, rounds, sigma):
    d = check_int(d, "d", 1)
    k = check_int(k, "k", 1, d, why=f"k must not exceed d={d}")
    n = check_int(n, "n", 1)
    n_sel = n_selected(n, r)
    rounds = check_int(rounds, "rounds", 0)
    check_real(sigma, "sigma", 0, SIGMA_MAX, why="noise standard deviation")
    m = check_int(m, "m", 1)
    return d, k, n, m, n_sel, rounds


class _OverflowNames:
    """Context manager: an overflow ``ValueError`` raised inside is re-raised naming the caller's inputs."""

    def __init__(self, *names: str):
        self.names = names

    def __enter__(self):
        return self

    def __exit__(self, typ, exc, tb):
        if typ is not None and issubclass(typ, ValueError) and "overflows float64" in str(exc):
            raise ValueError(f"{exc} (inputs of this call: {', '.join(f'`{n}`' for n in self.names)})") from None
        return False


def _check_model_memory(model: FedRepModel) -> None:
    """``model.sample`` forms the n x d matrix of thetas: refuse it above the memory guard."""
    check_alloc(model.n * model.d, "the n x d thetas B* w_i* of the model", n=model.n, d=model.d)


def _check_clients(clients, n: int) -> np.ndarray:
    """``clients`` as a 1-D integer array of indices in ``[0, n)``."""
    c = check_matrix(clients, "clients", (None,))
    if c.size and (np.any(c != np.round(c)) or c.min() < 0 or c.max() >= n):
        raise ValueError(f"`clients` must hold integer client indices in [0, {n - 1}]; got {clients!r}")
    return c.astype(np.int64)


def _overflow_check(arrays, what: str, *names: str) -> None:
    """A ``ValueError`` naming the inputs if an intermediate of ``what`` overflowed float64."""
    for a in arrays:
        check_finite_result(a, what, *names)


def _check_round(B, model, clients, m, eta, w_init, head_steps, head_lr):
    """Validate the arguments of the fresh-batch round variants; returns ``(B, clients, m, eta, w_init,
    head_steps, head_lr)``."""
    check_instance(model, "model", FedRepModel)
    B = check_matrix(B, "B", (model.d, None))
    if B.shape[1] < 1 or B.shape[1] > model.d:
        raise ValueError(f"`B` must be d x k with 1 <= k <= d={model.d}; got shape {B.shape}")
    clients = _check_clients(clients, model.n)
    if clients.size < 1:
        raise ValueError("`clients` must name at least one client")
    m = check_int(m, "m", 1)
    eta = check_real(eta, "eta", 0)
    w_init, head_steps, head_lr = _check_heads(w_init, head_steps, head_lr, clients.size, B.shape[1], m)
    _check_model_memory(model)
    check_alloc(clients.size * m * (model.d + 2 * B.shape[1]), "the round's batch (clients x m x d)",
                m=m, d=model.d, clients=clients.size)
    return B, clients, m, eta, w_init, head_steps, head_lr


def _check_heads(w_init, head_steps, head_lr, c, k, m):
    head_lr = check_real(head_lr, "head_lr", 0, low_open=True)
    if head_steps is None:
        if m < k:
            raise ValueError(f"`m` must be >= k={k} for the exact head solve; got m={m}")
    else:
        head_steps = check_int(head_steps, "head_steps", 1)
        check_iterations(head_steps, "the head's gradient steps", head_steps=head_steps)
    if w_init is not None:
        w_init = check_matrix(w_init, "w_init", (c, k))
    return w_init, head_steps, head_lr


def _check_result(rnd: "RoundResult", *names: str) -> "RoundResult":
    check_finite_result(rnd.B_next, "the round's representation", *names)
    check_finite_result(rnd.w, "the round's heads", *names)
    return rnd


# --------------------------------------------------------------------------- FedRep
class RoundResult(NamedTuple):
    """One FedRep round: ``B_next`` (QR factor, or ``B_bar`` if QR is off), the averaged
    pre-QR ``B_bar``, the triangular factor ``R`` (``B_bar = B_next R``; identity if QR is
    off), the heads ``w`` (c, k) and the residuals ``X_i B w_i - y_i`` (c, m)."""

    B_next: np.ndarray
    B_bar: np.ndarray
    R: np.ndarray
    w: np.ndarray
    resid: np.ndarray


def fedrep_round(B: np.ndarray, X: np.ndarray, y: np.ndarray, eta: float, *,
                 w_init: np.ndarray | None = None, head_steps: int | None = None,
                 head_lr: float = 0.5, orthonormalize_B: bool = True) -> RoundResult:
    """One round of FedRep for linear regression on the participating clients' batches.

    FedRep, Collins et al., ICML 2021, Algorithm 2 (client update, server average), plus
    the QR step of the analysed version; identical to SRPFL Appendix A eqs. (16)-(19)
    (Tziotis et al., TMLR). With ``X`` of shape (c, m, d) and ``y`` of shape (c, m):

    ``w_i = (B^T X_i^T X_i B)^{-1} B^T X_i^T y_i`` (or ``head_steps`` GD steps from ``w_init``),
    ``B_bar = B - (eta / (c m)) sum_i X_i^T (X_i B w_i - y_i) w_i^T``, ``B_next, R = QR(B_bar)``.

    Vectorised over the clients: one batched matmul, one batched k x k solve, one contraction.

    ``B`` (d x k), ``X`` (c, m, d) and ``y`` (c, m) are finite; ``eta >= 0``; ``w_init`` (c, k) or None;
    ``head_steps`` None (exact head, needs ``m >= k``) or >= 1; ``head_lr > 0``. Raises a ``ValueError``
    if the round overflows float64 (e.g. a huge ``eta``).
    """
    X = check_matrix(X, "X", (None, None, None))
    c, m, d = X.shape
    B = check_matrix(B, "B", (d, None))
    y = check_matrix(y, "y", (c, m))
    eta = check_real(eta, "eta", 0)
    w_init, head_steps, head_lr = _check_heads(w_init, head_steps, head_lr, c, B.shape[1], m)
    orthonormalize_B = check_bool(orthonormalize_B, "orthonormalize_B")
    with _OverflowNames("B", "X", "y", "eta", "w_init", "head_lr"):
        return _check_result(_round_given_batch(B, X, y, eta, w_init=w_init, head_steps=head_steps, head_lr=head_lr,
                                                orthonormalize_B=orthonormalize_B), "B", "X", "y", "eta")


def _round_given_batch(B, X, y, eta, *, w_init=None, head_steps=None, head_lr=0.5, orthonormalize_B=True):
    """:func:`fedrep_round` without the input validation (the runs validate once, up front)."""
    c, m, d = X.shape
    Xf = X.reshape(c * m, d)
    return _round_from_features(B, Xf, (Xf @ B).reshape(c, m, -1), y, eta, w_init=w_init,
                                head_steps=head_steps, head_lr=head_lr, orthonormalize_B=orthonormalize_B)


def _client_heads(A, y, head_steps=None, head_lr=0.5, w_init=None):
    """Client head update of Algorithm 2 for a stack of clients: the exact least-squares head, or
    ``head_steps`` gradient steps of size ``head_lr`` from ``w_init`` (GD-GD); returns ``(w, resid)``
    with ``resid = A w - y``. ``A`` is (c, m, k), ``y`` (c, m)."""
    c, m, k = A.shape
    if head_steps is None:
        w = _fit_heads(A, y)
    else:
        w = np.zeros((c, k)) if w_init is None else np.array(w_init, dtype=float)
        for _ in range(head_steps):
            w = w - head_lr * np.einsum("cmk,cm->ck", A, np.einsum("cmk,ck->cm", A, w) - y) / m
    return w, np.einsum("cmk,ck->cm", A, w) - y


def _finish_round(B_bar, w, resid, orthonormalize_B: bool) -> RoundResult:
    """Server step after averaging: QR with ``diag(R) >= 0`` (unique factor), or keep ``B_bar``.
    ``B_bar`` may carry leading replicate axes (..., d, k)."""
    if orthonormalize_B:
        Q, R = np.linalg.qr(B_bar)
        sg = np.sign(np.diagonal(R, axis1=-2, axis2=-1)).copy()
        sg[sg == 0] = 1.0
        return RoundResult(Q * sg[..., None, :], B_bar, sg[..., :, None] * R, w, resid)
    k = B_bar.shape[-1]
    return RoundResult(B_bar, B_bar, np.broadcast_to(np.eye(k), B_bar.shape[:-2] + (k, k)), w, resid)


def _round_from_features(B, Xf, A, y, eta, *, w_init=None, head_steps=None, head_lr=0.5,
                         orthonormalize_B=True) -> RoundResult:
    """The round given the stacked batch ``Xf`` (c m x d) and its features ``A = X B`` (c, m, k).

    The representation gradient is one tall matmul ``Xf^T (r * w_rows)`` (w_i repeated over the
    client's m rows), so a round touches X only through two tall matmuls (``X [B|B*]`` upstream
    and this one) besides drawing it. Every array may carry the same leading replicate axes
    (``B`` (..., d, k), ``Xf`` (..., c m, d), ``A`` (..., c, m, k), ``y`` (..., c, m), ``w_init``
    (..., c, k)); ``eta`` is a scalar or has the leading shape.
    """
    *lead, c, m, k = A.shape
    w, resid = _client_heads(A.reshape(-1, m, k), y.reshape(-1, m), head_steps, head_lr,
                             None if w_init is None else np.reshape(w_init, (-1, k)))
    w, resid = w.reshape(*lead, c, k), resid.reshape(*lead, c, m)
    Rw = (resid[..., None] * w[..., None, :]).reshape(*lead, c * m, k)
    # (1/c) sum_i (1/m) X_i^T r_i w_i^T
    B_bar = B - np.asarray(eta)[..., None, None] * (np.swapaxes(Xf, -1, -2) @ Rw) / (c * m)
    check_finite_result(B_bar, "the round's averaged representation", "B", "eta", "head_lr")
    return _finish_round(B_bar, w, resid, orthonormalize_B)


def _draw_stacked(B, model, clients, m, rng, out=None):
    """Draw the clients' batch as one tall matrix ``Xf`` (c m x d), with one ``X [B | B*]`` matmul giving
    the features ``A = X B`` (c, m, k) and the labels ``y = (X B*) w* + noise`` (c, m). ``out``
    (c m x d, Gaussian designs) is a buffer the batch is drawn into (the same numbers as a fresh
    array: a run reuses one buffer across rounds instead of faulting in new pages every round)."""
    c, k = clients.size, B.shape[1]
    if out is not None and model.design == "gaussian":
        Xf = rng.standard_normal(out=out)
    else:
        Xf = model.draw_x(rng, (c * m,))
    P = Xf @ np.hstack([B, model.B_star])
    y = np.einsum("cmk,ck->cm", P[:, k:].reshape(c, m, -1), model.W_star[clients])
    if model.sigma > 0:
        y += model.sigma * rng.standard_normal((c, m))
    return Xf, P[:, :k].reshape(c, m, k), y


def _shard_part(B, model, clients, m, rng, head_steps, head_lr, w_init):
    """One shard's share of a round: draw its batch, heads, residuals and its gradient sum."""
    Xf, A, y = _draw_stacked(B, model, clients, m, rng)
    c, k = clients.size, B.shape[1]
    w, resid = _client_heads(A, y, head_steps, head_lr, w_init)
    return Xf.T @ (resid[:, :, None] * w[:, None, :]).reshape(c * m, k), w, resid


#: below this many normals per round, shards run one after the other (threads cost more than they save)
PARALLEL_MIN_NORMALS = 2_000_000


def fedrep_round_sharded(B: np.ndarray, model: FedRepModel, clients: np.ndarray, m: int, eta: float,
                         rngs: list, *, workers: int = 1, w_init=None, head_steps=None, head_lr=0.5,
                         orthonormalize_B: bool = True) -> RoundResult:
    """Fresh-batch round split into ``len(rngs)`` client shards, each drawn from its own stream.

    The numbers depend on the shards (and their streams) only, never on ``workers``: with
    ``workers >= 2`` the shards run in threads with BLAS pinned to one thread each (numpy's
    generators and matmuls release the GIL), otherwise one after the other. Below
    ``PARALLEL_MIN_NORMALS`` normals per round the threads are not used, since they would be slower.
    ``rngs`` is a non-empty list of generators (at most one per client).
    """
    B, clients, m, eta, w_init, head_steps, head_lr = _check_round(B, model, clients, m, eta, w_init,
                                                                   head_steps, head_lr)
    if not isinstance(rngs, (list, tuple)) or not rngs:
        raise TypeError(f"`rngs` must be a non-empty list of numpy.random.Generator; got {rngs!r}")
    for g in rngs:
        check_generator(g, "rngs")
    if len(rngs) > clients.size:
        raise ValueError(f"`rngs` must hold at most one stream per client ({clients.size}); got {len(rngs)}")
    workers = check_int(workers, "workers", 1)
    orthonormalize_B = check_bool(orthonormalize_B, "orthonormalize_B")
    with _OverflowNames("B", "model", "eta", "w_init", "head_lr"):
        return _check_result(_round_sharded(B, model, clients, m, eta, rngs, workers=workers, w_init=w_init,
                                        head_steps=head_steps, head_lr=head_lr,
                                        orthonormalize_B=orthonormalize_B), "B", "eta", "model")


def _round_sharded(B, model, clients, m, eta, rngs, *, workers=1, w_init=None, head_steps=None, head_lr=0.5,
                   orthonormalize_B=True) -> RoundResult:
    """:func:`fedrep_round_sharded` without the input validation."""
    parts = np.array_split(np.arange(clients.size), len(rngs))
    wi = [None if w_init is None else w_init[p] for p in parts]
    jobs = [(B, model, clients[p], m, g, head_steps, head_lr, w) for p, g, w in zip(parts, rngs, wi)]
    from ..linalg import blas_single_thread

    # BLAS is pinned to one thread in both branches, so the floating-point summation order (and hence
    # every bit of the result) is the same whatever `workers` is
    with blas_single_thread():
        if workers >= 2 and clients.size * m * model.d >= PARALLEL_MIN_NORMALS and len(jobs) > 1:
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(max_workers=workers) as ex:
                outs = list(ex.map(lambda j: _shard_part(*j), jobs))
        else:
            outs = [_shard_part(*j) for j in jobs]
    G = sum(o[0] for o in outs)
    w = np.concatenate([o[1] for o in outs])
    resid = np.concatenate([o[2] for o in outs])
    B_bar = B - eta * G / (clients.size * m)
    check_finite_result(B_bar, "the round's averaged representation", "B", "eta", "head_lr")
    return _finish_round(B_bar, w, resid, orthonormalize_B)


def fedrep_round_stacked(B: np.ndarray, model: FedRepModel, clients: np.ndarray, m: int, eta: float,
                         rng: np.random.Generator, **kw) -> RoundResult:
    """Fresh-batch round with the batch drawn and used as one tall matrix (the library's fast path).

    Draws ``X`` (c m x d) and the label noise exactly as :meth:`FedRepModel.sample` does (same
    stream, same order), computes ``X [B | B*]`` in one matmul, the labels ``y_i = (X_i B*) w_i* +
    noise`` from it, and then :func:`_round_from_features`.
    """
    unknown = set(kw) - {"w_init", "head_steps", "head_lr", "orthonormalize_B"}
    if unknown:
        raise TypeError(f"unexpected keyword argument(s): {', '.join(sorted(unknown))}")
    check_generator(rng, "rng")
    B, clients, m, eta, w_init, head_steps, head_lr = _check_round(
        B, model, clients, m, eta, kw.get("w_init"), kw.get("head_steps"), kw.get("head_lr", 0.5))
    kw = {**kw, "w_init": w_init, "head_steps": head_steps, "head_lr": head_lr,
          "orthonormalize_B": check_bool(kw.get("orthonormalize_B", True), "orthonormalize_B")}
    with _OverflowNames("B", "model", "eta", "w_init", "head_lr"):
        return _check_result(_round_stacked(B, model, clients, m, eta, rng, **kw), "B", "eta", "model")


def _round_stacked(B, model, clients, m, eta, rng, out=None, **kw) -> RoundResult:
    """:func:`fedrep_round_stacked` without the input validation (``out``: see :func:`_draw_stacked`)."""
    Xf, A, y = _draw_stacked(B, model, clients, m, rng, out)
    return _round_from_features(B, Xf, A, y, eta, **kw)


SAMPLERS = ("full", "reduced", "auto")


def resolve_sampler(sampler: str, model: FedRepModel, fresh_batches: bool = True) -> str:
    """Validate ``sampler`` and resolve ``"auto"``: the reduced sampler needs an isotropic Gaussian
    design, ``d >= 2k`` and fresh batches; ``"auto"`` falls back to ``"full"`` elsewhere."""
    check_choice(sampler, "sampler", SAMPLERS)
    check_instance(model, "model", FedRepModel)
    fresh_batches = check_bool(fresh_batches, "fresh_batches")
    ok = model.design == "gaussian" and model.d >= 2 * model.k and fresh_batches
    if sampler == "reduced" and not ok:
        raise ValueError("`sampler`='reduced' needs design='gaussian', d >= 2k and fresh batches "
                         f"(got design={model.design!r}, d={model.d}, k={model.k}, "
                         f"fresh_batches={fresh_batches}); use sampler='full' or 'auto'")
    if sampler == "auto":
        return "reduced" if ok else "full"
    return sampler


def fedrep_round_reduced(B: np.ndarray, model: FedRepModel, clients: np.ndarray, m: int,
                         eta: float, rng: np.random.Generator, *, w_init: np.ndarray | None = None,
                         head_steps: int | None = None, head_lr: float = 0.5,
                         orthonormalize_B: bool = True) -> RoundResult:
    """One FedRep round drawn from the exact law of :func:`fedrep_round` with Gaussian rows,
    using ``c m 2k + d k`` normals instead of ``c m d``.

    **Derivation.** Let ``U`` (d x 2k) be an orthonormal basis containing ``col(B)`` and
    ``col(B*)`` (QR of ``[B, B*]``; it has orthonormal columns even if the two spans
    intersect) and ``U_perp`` its complement. For a row ``x ~ N(0, I_d)`` write ``x = U a + U_perp z``
    with ``a ~ N(0, I_2k)`` and ``z ~ N(0, I_{d-2k})`` independent. The features ``x^T B = a^T U^T B``,
    the labels ``y = a^T U^T theta_i + noise``, hence the head ``w_i``, the residuals ``r_i`` (m) and
    ``U^T X_i^T r_i = a_i^T r_i`` depend on ``a`` and the noise only. The remaining part of the
    gradient is ``U_perp^T G = (1/(c m)) sum_i (Z_i^T r_i) w_i^T`` with ``Z_i`` (m x (d-2k)) independent
    of everything else; conditionally ``Z_i^T r_i ~ N(0, ||r_i||^2 I)``, independently over ``i``. So each
    of the ``d - 2k`` rows of ``U_perp^T G`` is ``N(0, S)`` with ``S = sum_i ||r_i||^2 w_i w_i^T / (c m)^2``,
    independently: ``U_perp^T G = N L^T`` with ``N`` standard normal and ``L L^T = S``. Finally
    ``U_perp N ~ (I - U U^T) N'`` for a d x k standard normal ``N'``, so ``U_perp`` is never formed.
    The result equals :func:`fedrep_round`'s in distribution (not sample path by sample path).
    """
    check_generator(rng, "rng")
    B, clients, m, eta, w_init, head_steps, head_lr = _check_round(B, model, clients, m, eta, w_init,
                                                                   head_steps, head_lr)
    if model.d < 2 * B.shape[1]:
        raise ValueError(f"the reduced round needs d >= 2k; got `B` of shape {B.shape}")
    orthonormalize_B = check_bool(orthonormalize_B, "orthonormalize_B")
    with _OverflowNames("B", "model", "eta", "w_init", "head_lr"):
        return _check_result(_round_reduced(B, model, clients, m, eta, rng, w_init=w_init, head_steps=head_steps,
                                        head_lr=head_lr, orthonormalize_B=orthonormalize_B), "B", "eta", "model")


def _round_reduced(B, model, clients, m, eta, rng, *, w_init=None, head_steps=None, head_lr=0.5,
                   orthonormalize_B=True) -> RoundResult:
    """:func:`fedrep_round_reduced` without the input validation."""
    draws = _draw_reduced(rng, clients.size, m, B.shape[0], B.shape[1], model.sigma)
    return _reduced_from_draws(B, model.B_star, model.theta_star[clients], model.sigma, *draws, eta,
                               w_init=w_init, head_steps=head_steps, head_lr=head_lr,
                               orthonormalize_B=orthonormalize_B)


def _draw_reduced(rng, c, m, d, k, sigma):
    """The normals of one reduced round, in stream order: ``a`` (c, m, 2k), the label noise (c, m)
    when ``sigma > 0`` (else None) and ``N'`` (d, k)."""
    a = rng.standard_normal((c, m, 2 * k))
    noise = rng.standard_normal((c, m)) if sigma > 0 else None
    return a, noise, rng.standard_normal((d, k))


def _reduced_from_draws(B, B_star, theta, sigma, a, noise, Np, eta, *, w_init=None, head_steps=None,
                        head_lr=0.5, orthonormalize_B=True) -> RoundResult:
    """The reduced round given its normals (:func:`_draw_reduced`); every array may carry the same
    leading replicate axes (``B``, ``B_star`` (..., d, k), ``theta`` (..., c, d) the selected
    clients' ``B* w_i*``, ``a`` (..., c, m, 2k), ``noise`` (..., c, m), ``Np`` (..., d, k))."""
    *lead, c, m, q = a.shape
    k = B.shape[-1]
    U, _ = np.linalg.qr(np.concatenate([B, B_star], axis=-1))  # d x 2k, orthonormal
    Ut_ = np.swapaxes(U, -1, -2)
    y = np.einsum("...cmq,...cq->...cm", a, theta @ U)
    if sigma > 0:
        y = y + sigma * noise
    A = a @ (Ut_ @ B)[..., None, :, :]
    w, resid = _client_heads(A.reshape(-1, m, k), y.reshape(-1, m), head_steps, head_lr,
                             None if w_init is None else np.reshape(w_init, (-1, k)))
    w, resid = w.reshape(*lead, c, k), resid.reshape(*lead, c, m)
    G_U = np.swapaxes(np.einsum("...cmq,...cm->...cq", a, resid), -1, -2) @ w / (c * m)  # U^T G, (2k, k)
    S = np.swapaxes(w * np.sum(resid ** 2, axis=-1)[..., None], -1, -2) @ w / (c * m) ** 2
    check_finite_result(S, "the round's gradient covariance", "B", "eta", "head_lr")
    ev, vec = np.linalg.eigh(S)
    L = vec * np.sqrt(np.maximum(ev, 0.0))[..., None, :]  # L L^T = S
    G = U @ G_U + (Np - U @ (Ut_ @ Np)) @ np.swapaxes(L, -1, -2)
    B_bar = B - np.asarray(eta)[..., None, None] * G
    check_finite_result(B_bar, "the round's averaged representation", "B", "eta", "head_lr")
    return _finish_round(B_bar, w, resid, orthonormalize_B)


def _objective(B, W, theta_star, sigma) -> float:
    """:func:`~fedtheory.representation.theory.population_objective` (FedRep, Collins et al., ICML 2021,
    eq. (6)) without the input validation, given ``theta_star = W* B*^T`` (the same operations, hence
    the same bits)."""
    diff = W @ B.T - theta_star
    return 0.5 * float(np.mean(np.sum(diff ** 2, axis=1))) + 0.5 * float(sigma) ** 2


def _objective_orthonormal(B, W, B_star, W_star, sigma):
    """The population objective (6) of FedRep (Collins, Hassani, Mokhtari and Shakkottai, ICML 2021,
    eqs. (5)-(6)) for an orthonormal ``B`` in ``O((n + d) k^2)`` instead of ``O(n d k)``; every array
    may carry the same leading replicate axes.

    With ``B^T B = I``, ``theta_i = B* w_i*`` splits into ``B (B^T theta_i)`` and
    ``(I - B B^T) theta_i = P w_i*``, ``P = B* - B C``, ``C = B^T B*``, so
    ``||B w_i - theta_i||^2 = ||w_i - C w_i*||^2 + w_i*^T (P^T P) w_i*``. ``P`` is formed directly
    (not as ``I - C^T C``), so there is no cancellation: the rounding error is
    ``O(eps ||w|| sqrt(F))``, the order of the direct formula's (the departure of the computed ``B``
    from orthonormality, ``O(eps)``, enters as a cross term ``eps ||w|| sqrt(F)``; tested against a
    50-digit evaluation of (6) down to ``F ~ 1e-20``).
    """
    C = np.swapaxes(B, -1, -2) @ B_star
    P = B_star - B @ C
    M = np.swapaxes(P, -1, -2) @ P
    head = W - W_star @ np.swapaxes(C, -1, -2)
    perp = np.sum((W_star @ M) * W_star, axis=-1)
    return 0.5 * np.mean(np.sum(head ** 2, axis=-1) + perp, axis=-1) + 0.5 * sigma ** 2


def run_fedrep(d: int = 20, k: int = 2, n: int = 100, m: int = 10, r: float = 0.1,
               rounds: int = 100, *, eta: float | None = None, sigma: float = 0.0,
               head_norm: str = "sqrt_k", design: str = "gaussian", init: str = "mom",
               fresh_batches: bool = True, orthonormalize_B: bool = True,
               head_steps: int | None = None, head_lr: float = 0.5, m_init: int | None = None,
               m_test: int = 100, model: FedRepModel | None = None, sampler: str = "full",
               shards: int = 1, workers: int = 1, evaluation: str = "exact", replicates: int | None = None,
               bit_generator: str = "pcg64", seed: SeedLike = 0) -> FedRepResult:
    """Run FedRep for linear regression (Algorithm 2) exactly, vectorised over clients.

    FedRep, Collins et al., ICML 2021, Algorithm 2 and eq. (7); Theorem 1 is
    about this run with ``orthonormalize_B=True`` and ``sigma=0``.

    Parameters
    ----------
    d, k, n : int
        Data dimension, representation dimension (``1 <= k <= d``), number of clients.
    m : int
        Samples per selected client per round; the exact head needs ``m >= k``.
    r : float
        Participation rate in (0, 1] with ``r*n >= 1``; ``round(r*n)`` clients per round.
    rounds : int
        Number of rounds T >= 0.
    eta : float, optional
        Step size on ``B`` (> 0). Default :func:`default_eta`, which satisfies
        Theorem 1's condition ``eta <= 1/(4 sigma_max,*^2)``.
    sigma : float
        Label-noise standard deviation (>= 0). Theorem 1 is noiseless.
    head_norm, design : str
        See :mod:`fedtheory.representation.model`.
    init : {"mom", "random"}
        Method of moments (Algorithm 2) or a Haar-random orthonormal ``B^0``.
    fresh_batches : bool
        Fresh batch every round (Algorithm 2, the theory) or one fixed dataset of
        ``m`` samples per client reused every round (the public code).
    orthonormalize_B : bool
        QR after averaging (default True, see the module docstring).
    head_steps : int, optional
        ``None`` for the exact head (FedRep); an integer for that many gradient
        steps of size ``head_lr`` on the head, warm-started from the client's last
        head (GD-GD: 1, 10GD-GD: 10).
    m_init : int, optional
        Samples per client for the method of moments (default ``m``).
    m_test : int
        Test samples per client for ``eval_mse`` with ``evaluation="sampled"``; 0 skips the
        evaluation (``eval_mse`` NaN) whatever ``evaluation`` is.
    model : FedRepModel, optional
        Ground truth to use; by default one is drawn from ``seed``.
    evaluation : {"exact", "sampled"}
        ``eval_mse`` after every client re-fits its head on the final ``B`` from ``m`` fresh
        samples: the refitted predictors' population risk in closed form (``"exact"``, default:
        isotropic unit-variance designs, :func:`test_mse_exact`), or their MSE on ``m_test`` fresh
        test samples per client (``"sampled"``, :func:`test_mse`).
    replicates : int, optional
        Run this many independent replicates in one vectorised pass and return a
        :class:`~fedtheory.representation.replicates.FedRepReplicates` (arrays with a leading
        replicate axis; ``res[j]`` is replicate j as a ``FedRepResult``). Replicate j is the run
        with seed ``spawn_seeds(seed, replicates)[j]`` (its own ground truth unless ``model`` is
        given; ``model`` may also be a sequence of R models, one per replicate): the same random draws
        as ``run_fedrep(..., seed=that child, model=its model)``, so it is exact in law,
        and the numbers do not depend on how the replicates are chunked for memory. Not with
        ``shards > 1`` or ``workers > 1``.
    sampler : {"full", "reduced", "auto"}
        ``"full"`` draws every batch (bitwise reproducible, default); ``"reduced"`` draws each round
        from its exact law with ``O(c m k + d k)`` normals (:func:`fedrep_round_reduced`; isotropic
        Gaussian designs with ``d >= 2k`` only); ``"auto"`` uses reduced where it applies.
    shards, workers : int
        With ``shards > 1`` each fresh-batch round draws the selected clients' batches from
        ``shards`` independent streams (:func:`fedrep_round_sharded`), which ``workers`` threads may
        process in parallel. The numbers depend on ``shards`` only, never on ``workers``.
    bit_generator : {"pcg64", "sfc64"}
        Bit generator of the initialisation, round and evaluation streams (the ground truth is
        drawn with PCG64 either way, so both readings share it). ``"pcg64"`` (numpy's default) is
        the reference stream of every catalogue number; ``"sfc64"`` draws the same law about 20%
        faster (``fedtheory bench``), with other numbers.
    seed : int, SeedSequence or Generator
        Seed; the ground truth, the initialisation, the rounds and the evaluation
        use four spawned child streams.

    Returns
    -------
    FedRepResult

    Examples
    --------
    >>> from fedtheory.representation import run_fedrep
    >>> res = run_fedrep(d=20, k=2, n=100, m=10, r=0.1, rounds=200, seed=0)
    >>> res.dist.shape
    (201,)
    >>> bool(res.dist[-1] < 1e-6)
    True
    """
    d, k, n, m, n_sel, rounds = _validate_common(d, k, n, m, r, rounds, sigma)
    check_choice(init, "init", ("mom", "random"))
    check_choice(head_norm, "head_norm", HEAD_NORMS)
    check_choice(design, "design", DESIGNS)
    fresh_batches = check_bool(fresh_batches, "fresh_batches")
    orthonormalize_B = check_bool(orthonormalize_B, "orthonormalize_B")
    if head_steps is None and m < k:
        raise ValueError(f"`m` must be >= k={k} for the exact head solve; got m={m}")
    head_lr = check_real(head_lr, "head_lr", 0, low_open=True)
    if head_steps is not None:
        head_steps = check_int(head_steps, "head_steps", 1)
    m_init = m if m_init is None else check_int(m_init, "m_init", 1)
    m_test = check_int(m_test, "m_test", 0)
    if eta is not None:
        eta = check_real(eta, "eta", 0, low_open=True)
    if model is not None and not (replicates is not None and isinstance(model, (list, tuple))):
        check_instance(model, "model", FedRepModel)
    check_choice(sampler, "sampler", SAMPLERS)
    shards = check_int(shards, "shards", 1, n_sel, why=f"at most one shard per selected client, rn={n_sel}")
    workers = check_int(workers, "workers", 1)
    check_choice(evaluation, "evaluation", EVALUATIONS)
    check_choice(bit_generator, "bit_generator", tuple(BIT_GENERATORS))
    _check_run_size(d, k, n, m, n_sel, rounds, m_test, fresh_batches, init=init, m_init=m_init,
                    head_steps=head_steps, shards=shards, sampler=sampler, evaluation=evaluation)
    if replicates is not None:
        replicates = check_int(replicates, "replicates", 1)
        for name, val in (("shards", shards), ("workers", workers)):
            if val != 1:
                raise ValueError(f"`replicates` cannot be combined with `{name}`={val}: replicate batches run "
                                 f"in one process with one stream per replicate; use {name}=1")
        from .replicates import _run_replicates

        return _run_replicates(replicates, d=d, k=k, n=n, m=m, r=r, n_sel=n_sel, rounds=rounds, eta=eta,
                               sigma=sigma, head_norm=head_norm, design=design, init=init,
                               fresh_batches=fresh_batches, orthonormalize_B=orthonormalize_B,
                               head_steps=head_steps, head_lr=head_lr, m_init=m_init, m_test=m_test,
                               model=model, sampler=sampler, evaluation=evaluation,
                               bit_generator=bit_generator, seed=seed)
    ss_model, ss_init, ss_run, ss_eval = spawn_seeds(seed, 4)
    if model is None:
        model = make_model(d, k, n, sigma=sigma, head_norm=head_norm, design=design,
                           seed=ss_model)
    elif (model.d, model.k, model.n) != (d, k, n):
        raise ValueError(f"`model` has (d, k, n)={(model.d, model.k, model.n)} but the run "
                         f"asks for {(d, k, n)}")
    eta = default_eta(model.W_star) if eta is None else eta
    sampler = resolve_sampler(sampler, model, fresh_batches)
    # shard streams: children of a key derived from the run stream, fixed by `shards` only
    ss_shards = np.random.SeedSequence(ss_run.entropy, spawn_key=tuple(ss_run.spawn_key) + (7,))
    shard_rngs = [as_generator(x, bit_generator) for x in ss_shards.spawn(shards)] if shards > 1 else None

    rng_init = as_generator(ss_init, bit_generator)
    B = mom_init(model, m_init, rng_init) if init == "mom" else random_orthonormal(rng_init, d, k)
    B0 = B.copy()
    rng = as_generator(ss_run, bit_generator)
    if not fresh_batches:
        X_all, y_all = model.sample(rng, np.arange(n), m)

    W = np.zeros((n, k))
    dist = np.empty(rounds + 1)
    obj = np.empty(rounds + 1)
    batch_loss = np.empty(rounds)
    Q_star, theta_star = _orthonormalize(model.B_star), model.theta_star

    def objective(B, W):  # B is orthonormal after the QR step (and at B^0, from either init)
        if orthonormalize_B:
            return float(_objective_orthonormal(B, W, model.B_star, model.W_star, float(model.sigma)))
        return _objective(B, W, theta_star, model.sigma)

    dist[0] = _distance_to(Q_star, B)
    obj[0] = objective(B, W)
    buf = np.empty((n_sel * m, d)) if fresh_batches and sampler == "full" and shards == 1 and rounds else None
    for t in range(rounds):
        sel = _subsets([rng], n, n_sel)[0]
        if sampler == "reduced":
            rnd = _round_reduced(B, model, sel, m, eta, rng, w_init=W[sel], head_steps=head_steps,
                                 head_lr=head_lr, orthonormalize_B=orthonormalize_B)
        else:
            if fresh_batches and shard_rngs is not None:
                rnd = _round_sharded(B, model, sel, m, eta, shard_rngs, workers=workers, w_init=W[sel],
                                     head_steps=head_steps, head_lr=head_lr,
                                     orthonormalize_B=orthonormalize_B)
            elif fresh_batches:
                rnd = _round_stacked(B, model, sel, m, eta, rng, buf, w_init=W[sel], head_steps=head_steps,
                                     head_lr=head_lr, orthonormalize_B=orthonormalize_B)
            else:
                rnd = _round_given_batch(B, X_all[sel], y_all[sel], eta, w_init=W[sel], head_steps=head_steps,
                                         head_lr=head_lr, orthonormalize_B=orthonormalize_B)
        B = rnd.B_next
        W[sel] = rnd.w
        batch_loss[t] = 0.5 * float(np.mean(rnd.resid ** 2))
        dist[t + 1] = _distance_to(Q_star, B)
        obj[t + 1] = objective(B, W)
        if not (math.isfinite(batch_loss[t]) and math.isfinite(obj[t + 1])):
            raise ValueError(f"the run overflowed float64 at round {t + 1} (diverged): the step `eta`={eta:g} "
                             f"or `head_lr`={head_lr:g} is too large for this problem (noise `sigma`={model.sigma:g})")
    eval_mse = _eval_with_refit(model, B, m, m_test, as_generator(ss_eval, bit_generator), evaluation)
    params = dict(algorithm="FedRep" if head_steps is None else f"{head_steps}GD-GD",
                  d=d, k=k, n=n, m=m, r=r, n_sel=n_sel, rounds=rounds, eta=eta, sigma=sigma,
                  head_norm=model.head_norm, design=model.design, init=init,
                  fresh_batches=fresh_batches, orthonormalize_B=orthonormalize_B,
                  head_steps=head_steps, head_lr=head_lr if head_steps else None,
                  m_init=m_init, m_test=m_test, evaluation=evaluation, sampler=sampler, shards=shards,
                  bit_generator=bit_generator, seed=seed_repr(seed))
    return FedRepResult(dist=dist, objective=obj, batch_loss=batch_loss, B=B, W=W, B0=B0,
                        eval_mse=eval_mse, eta=eta, params=params, model=model)


def run_altgd(*args, head_steps: int = 1, head_lr: float = 0.5, **kwargs) -> FedRepResult:
    """Alternating gradient descent (GD-GD for ``head_steps=1``, 10GD-GD for 10).

    FedRep Sec. 5.1 / Figure 3 (Collins et al., ICML 2021): FedRep with the exact
    head minimisation replaced by ``head_steps`` gradient steps on the head.
    """
    return run_fedrep(*args, head_steps=head_steps, head_lr=head_lr, **kwargs)


# --------------------------------------------------------------------------- FedAvg
def run_fedavg(d: int = 20, k: int = 2, n: int = 100, m: int = 10, r: float = 0.1,
               rounds: int = 100, *, eta: float = 0.1, sigma: float = 0.0,
               head_norm: str = "sqrt_k", design: str = "gaussian", local_steps: int = 1,
               fresh_batches: bool = True, m_test: int = 100, model: FedRepModel | None = None,
               selection_log: list | None = None, evaluation: str = "exact", replicates: int | None = None,
               seed: SeedLike = 0) -> FedAvgResult:
    """FedAvg on the single-model objective (4) with the two-layer model ``x -> w^T B^T x``.

    FedRep, Collins et al., ICML 2021, eq. (4) and Sec. 5.1. Each selected client
    takes ``local_steps`` gradient steps on its batch loss in ``(B, w)`` from the
    shared model; the server averages. ``local_steps=1`` is FedSGD, as in the public
    code. ``B^0`` is Haar-random orthonormal and ``w^0 = 0``. If ``selection_log`` is a list, each
    round's selected clients are appended to it (used to attach a simulated clock).
    ``evaluation`` and ``m_test``: as in :func:`run_fedrep` (after per-client head fine-tuning on the
    final ``B``). ``replicates=R`` runs R independent runs in one vectorised pass, replicate j being
    the run with seed ``spawn_seeds(seed, R)[j]`` (its own ground truth unless ``model`` is given),
    and returns a :class:`~fedtheory.representation.replicates.FedAvgReplicates`; not with
    ``selection_log``.
    """
    d, k, n, m, n_sel, rounds = _validate_common(d, k, n, m, r, rounds, sigma)
    check_choice(evaluation, "evaluation", EVALUATIONS)
    eta = check_real(eta, "eta", 0, low_open=True)
    local_steps = check_int(local_steps, "local_steps", 1)
    m_test = check_int(m_test, "m_test", 0)
    check_choice(head_norm, "head_norm", HEAD_NORMS)
    check_choice(design, "design", DESIGNS)
    fresh_batches = check_bool(fresh_batches, "fresh_batches")
    if selection_log is not None:
        check_instance(selection_log, "selection_log", list)
    _check_run_size(d, k, n, m, n_sel, rounds, m_test, fresh_batches, local_steps=local_steps,
                    evaluation=evaluation)
    check_alloc(n_sel * m * d + n_sel * d * k, "one round's batch and per-client copies of B", m=m, d=d, k=k, n=n)
    if model is not None and not (replicates is not None and isinstance(model, (list, tuple))):
        check_instance(model, "model", FedRepModel)
        if (model.d, model.k, model.n) != (d, k, n):
            raise ValueError(f"`model` has (d, k, n)={(model.d, model.k, model.n)} but the run "
                             f"asks for {(d, k, n)}")
    if replicates is not None:
        replicates = check_int(replicates, "replicates", 1)
        if selection_log is not None:
            raise ValueError("`replicates` cannot be combined with `selection_log`: the log records one run's "
                             "selections; run single replicates to log them")
        from .replicates import _run_fedavg_replicates

        return _run_fedavg_replicates(replicates, d=d, k=k, n=n, m=m, r=r, n_sel=n_sel, rounds=rounds, eta=eta,
                                      sigma=sigma, head_norm=head_norm, design=design, local_steps=local_steps,
                                      fresh_batches=fresh_batches, m_test=m_test, model=model,
                                      evaluation=evaluation, seed=seed)
    ss_model, ss_init, ss_run, ss_eval = spawn_seeds(seed, 4)
    if model is None:
        model = make_model(d, k, n, sigma=sigma, head_norm=head_norm, design=design,
                           seed=ss_model)
    core = _fedavg_core([model], [(ss_model, ss_init, ss_run, ss_eval)], n_sel=n_sel, m=m, rounds=rounds, eta=eta,
                        local_steps=local_steps, fresh_batches=fresh_batches, selection_log=selection_log)
    B, w = core["B"][0], core["w"][0]
    eval_mse = _eval_with_refit(model, B, m, m_test, as_generator(ss_eval), evaluation)
    params = dict(algorithm="FedAvg", d=d, k=k, n=n, m=m, r=r, n_sel=n_sel, rounds=rounds,
                  eta=eta, sigma=sigma, local_steps=local_steps, head_norm=model.head_norm,
                  fresh_batches=fresh_batches, m_test=m_test, evaluation=evaluation, seed=seed_repr(seed))
    return FedAvgResult(dist=core["dist"][0], objective=core["objective"][0], B=B, w=w, eval_mse=eval_mse,
                        params=params, model=model)


def _fedavg_core(models, children, *, n_sel, m, rounds, eta, local_steps, fresh_batches, selection_log=None) -> dict:
    """The rounds of R FedAvg runs at once (R = ``len(models)``; one run per model, with the init and
    run streams of ``children[j]`` = (model, init, run, eval) seeds). Per-replicate draws in stream
    order, then the algebra batched over the replicates and the selected clients. Returns ``dist``
    and ``objective`` (R, rounds+1), ``B`` (R, d, k) and ``w`` (R, k)."""
    R = len(models)
    d, k, n, sigma = models[0].d, models[0].k, models[0].n, models[0].sigma
    theta = np.stack([mod.theta_star for mod in models])
    B_star = np.stack([mod.B_star for mod in models])
    B = np.stack([random_orthonormal(as_generator(ch[1]), d, k) for ch in children])
    w = np.zeros((R, k))
    rngs = [as_generator(ch[2]) for ch in children]
    if not fresh_batches:
        data = [mod.sample(g, np.arange(n), m) for mod, g in zip(models, rngs)]
        X_all, y_all = np.stack([x for x, _ in data]), np.stack([y for _, y in data])
        del data
    rows = np.arange(R)[:, None]
    dist = np.empty((R, rounds + 1))
    obj = np.empty((R, rounds + 1))

    def objective4(B, w):  # (4): (1/2n) sum_i ||B w - theta_i||^2 + sigma^2/2
        return 0.5 * np.mean(np.sum(((B @ w[..., None])[..., None, :, 0] - theta) ** 2, axis=-1), axis=-1) \
            + 0.5 * sigma ** 2

    dist[:, 0], obj[:, 0] = principal_angle_distance(B, B_star), objective4(B, w)
    for t in range(rounds):
        sel = _subsets(rngs, n, n_sel)
        if selection_log is not None:
            selection_log.append(sel[0])
        if fresh_batches:
            draws = [mod.sample(g, s_, m) for mod, g, s_ in zip(models, rngs, sel)]
            X, y = np.stack([x for x, _ in draws]), np.stack([y_ for _, y_ in draws])
        else:
            X, y = X_all[rows, sel], y_all[rows, sel]
        Bc = np.broadcast_to(B[:, None], (R, n_sel, d, k)).copy()
        wc = np.broadcast_to(w[:, None], (R, n_sel, k)).copy()
        for _ in range(local_steps):
            A = X @ Bc
            res = np.einsum("...cmk,...ck->...cm", A, wc) - y
            gw = np.einsum("...cmk,...cm->...ck", A, res) / m
            gB = np.einsum("...cmd,...cm,...ck->...cdk", X, res, wc) / m
            wc, Bc = wc - eta * gw, Bc - eta * gB
        B, w = Bc.mean(axis=1), wc.mean(axis=1)
        if not (np.all(np.isfinite(B)) and np.all(np.isfinite(w))):
            raise ValueError(f"FedAvg overflowed float64 at round {t + 1} (diverged): the step `eta`={eta:g} "
                             f"is too large for this problem (noise `sigma`={sigma:g})")
        dist[:, t + 1], obj[:, t + 1] = principal_angle_distance(B, B_star), objective4(B, w)
        if not np.all(np.isfinite(obj[:, t + 1])):
            raise ValueError(f"FedAvg overflowed float64 at round {t + 1} (diverged): the step `eta`={eta:g} "
                             f"is too large for this problem (noise `sigma`={sigma:g})")
    return dict(dist=dist, objective=obj, B=B, w=w)


# --------------------------------------------------------------------------- new clients
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
    from .model import make_heads

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
