"""SRPFL's generic meta-algorithm (Algorithm 1) on the linear model, and Appendix A's one-round
formulas (13)-(19), written literally, client by client.

Tziotis, Shen, Pedarsani, Hassani and Mokhtari, *Straggler-Resilient Personalized Federated
Learning*, TMLR 2023 (arXiv 2206.02078 numbers in brackets):

* :func:`loss_LN`, :func:`grad_B_LN`, :func:`grad_W_LN` - the empirical loss (13) [(12)] and its
  gradients (14)-(15) [(13)-(14)];
* :func:`closed_form_round` - one FedRep-SRPFL round in closed form, (16)-(19) [(15)-(18)];
* :func:`meta_round` - one round of Algorithm 1 with ``tau_h`` head and ``tau_phi`` representation
  gradient steps per participating client and server averaging (lines 6-15);
* :func:`run_meta_srpfl` - Algorithm 1 with stages of ``min(N, 2^r n0)`` fastest clients, frozen
  heads for non-participants, a simulated clock, and optionally Algorithm 2's QR step.

These are deliberately plain per-client loops, independent of the vectorised engine
(:func:`fedtheory.srpfl.run_srpfl`, :func:`fedtheory.representation.fedrep_round`), so that they can
referee it: with an exact head (``tau_h=None``), ``tau_phi=1`` and the QR step, Algorithm 1 is
Algorithm 2, and :func:`run_meta_srpfl` consumes the same random streams as ``run_srpfl(...,
sampler="full")``, so the two trajectories can be compared round by round.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from .._validation import check_bool, check_choice, check_instance, check_int, check_matrix, check_real
from .._validation import guard_module as _guard_module
from ..linalg import principal_angle_distance, random_orthonormal
from ..random import SeedLike, as_generator, spawn_seeds
from ..representation.algorithms import mom_init
from ..representation.model import FedRepModel
from .model import SpeedModel

__all__ = ["loss_LN", "grad_B_LN", "grad_W_LN", "closed_form_round", "meta_round", "MetaResult",
           "run_meta_srpfl", "head_excess_risk", "imbalanced_round", "run_srpfl_imbalanced"]


def _batch(B, W, X, Y):
    B = check_matrix(B, "B", (None, None))
    d, k = B.shape
    X = check_matrix(X, "X", (None, None, d))
    n, m, _ = X.shape
    Y = check_matrix(Y, "Y", (n, m))
    W = check_matrix(W, "W", (n, k))
    if n < 1 or m < 1:
        raise ValueError(f"`X` must hold n >= 1 clients with m >= 1 samples each; got shape {X.shape}")
    return B, W, X, Y, n, m


def loss_LN(B, W, X, Y) -> float:
    """Empirical loss (13): ``L_N(B, W) = (1/(2mn)) sum_i ||Y_i - X_i B w_i||^2``.

    Tziotis et al. (2023), Appendix A, eq. (13) [arXiv (12)], read with a squared norm and
    ``X_i`` of shape m x d (the paper states d x m).

    Parameters
    ----------
    B : ndarray (d, k)
    W : ndarray (n, k)
        Heads, one row per client.
    X : ndarray (n, m, d)
    Y : ndarray (n, m)

    Returns
    -------
    float
    """
    B, W, X, Y, n, m = _batch(B, W, X, Y)
    r = np.einsum("imd,dk,ik->im", X, B, W) - Y
    return float(np.sum(r ** 2) / (2 * m * n))


def grad_B_LN(B, W, X, Y) -> np.ndarray:
    """Gradient (14) of (13) in B: ``(1/(mn)) sum_i X_i^T (X_i B w_i - Y_i) w_i^T`` (d x k).

    Tziotis et al. (2023), Appendix A, eq. (14) [arXiv (13)]. Shapes as :func:`loss_LN`.
    """
    B, W, X, Y, n, m = _batch(B, W, X, Y)
    G = np.zeros_like(B)
    for i in range(n):
        G += np.outer(X[i].T @ (X[i] @ B @ W[i] - Y[i]), W[i])
    return G / (m * n)


def grad_W_LN(B, W, X, Y) -> np.ndarray:
    """Gradients (15) of (13) in the heads: row i is ``(1/(mn)) B^T X_i^T (X_i B w_i - Y_i)`` (n x k).

    Tziotis et al. (2023), Appendix A, eq. (15) [arXiv (14)]. Shapes as :func:`loss_LN`.
    """
    B, W, X, Y, n, m = _batch(B, W, X, Y)
    return np.stack([B.T @ X[i].T @ (X[i] @ B @ W[i] - Y[i]) for i in range(n)]) / (m * n)


def _qr_pos(B):
    Q, R = np.linalg.qr(B)
    s = np.sign(np.diag(R))
    s[s == 0] = 1.0
    return Q * s, s[:, None] * R


def closed_form_round(B, X, Y, eta):
    """One FedRep-SRPFL round in closed form, eqs. (16)-(19) [arXiv (15)-(18)] of Tziotis et al. (2023).

    ``w_i+ = ((1/m) B^T X_i^T X_i B)^{-1} (1/m) B^T X_i^T Y_i`` (16)-(17) (explicit inverse, as printed);
    ``B+ = B - (eta/(mn)) sum_i X_i^T (X_i B w_i+ - Y_i) w_i+^T`` (18); ``(B_hat+, R+) = QR(B+)`` (19)
    with ``diag(R+) >= 0``.

    Parameters
    ----------
    B : ndarray (d, k)
    X : ndarray (n, m, d), m >= k
    Y : ndarray (n, m)
    eta : float > 0

    Returns
    -------
    W_plus : ndarray (n, k)
    B_plus : ndarray (d, k)
    B_hat : ndarray (d, k)
    R_plus : ndarray (k, k)
    """
    B = check_matrix(B, "B", (None, None))
    k = B.shape[1]
    B, _, X, Y, n, m = _batch(B, np.zeros((np.shape(X)[0] if np.ndim(X) == 3 else 0, k)), X, Y)
    if m < k:
        raise ValueError(f"`X` needs m >= k={k} samples per client for the inverse in (17); got m={m}")
    eta = check_real(eta, "eta", 0, low_open=True)
    W = np.stack([np.linalg.inv(B.T @ X[i].T @ X[i] @ B / m) @ (B.T @ X[i].T @ Y[i] / m) for i in range(n)])
    B_plus = B - eta / (m * n) * sum(np.outer(X[i].T @ (X[i] @ B @ W[i] - Y[i]), W[i]) for i in range(n))
    B_hat, R = _qr_pos(B_plus)
    return W, B_plus, B_hat, R


def meta_round(B, H, X, Y, eta, tau_h, tau_phi, *, eta_head=None):
    """One round of Algorithm 1 (lines 6-15) on the linear model, client by client.

    Tziotis et al. (2023), Algorithm 1 [arXiv Algorithm 1] with ``f_i(w, B) = (1/(2m)) ||Y_i - X_i B w||^2``:
    client i starts from its previous head ``H_i`` and runs ``tau_h`` gradient steps of size
    ``eta_head`` on it with B fixed (line 8; ``tau_h=None``: the exact minimiser, the limit
    ``tau_h -> infinity``), then starts from ``B`` and runs ``tau_phi`` gradient steps of size ``eta`` on
    its copy of the representation with the new head fixed (line 9); the server averages the copies
    (line 15).

    Parameters
    ----------
    B : ndarray (d, k)
        Representation sent by the server.
    H : ndarray (n, k)
        The participating clients' previous heads.
    X : sequence of ndarray (m_i, d), or ndarray (n, m, d)
        Batches (client sizes may differ).
    Y : sequence of ndarray (m_i,), or ndarray (n, m)
    eta : float > 0
        Representation step.
    tau_h : int >= 0 or None
        Head steps (None: exact least squares).
    tau_phi : int >= 1
        Representation steps.
    eta_head : float > 0, optional
        Head step (default ``eta``, as Algorithm 1 uses one step size).

    Returns
    -------
    B_avg : ndarray (d, k)
        The average of the clients' representations (line 15; no QR).
    H_new : ndarray (n, k)
        The clients' new heads.
    """
    B = check_matrix(B, "B", (None, None))
    d, k = B.shape
    n = len(X)
    H = check_matrix(H, "H", (n, k))
    if len(Y) != n or n < 1:
        raise ValueError(f"`X` and `Y` must hold the same number n >= 1 of clients; got {len(X)} and {len(Y)}")
    eta = check_real(eta, "eta", 0, low_open=True)
    eta_head = eta if eta_head is None else check_real(eta_head, "eta_head", 0, low_open=True)
    if tau_h is not None:
        tau_h = check_int(tau_h, "tau_h", 0)
    tau_phi = check_int(tau_phi, "tau_phi", 1)
    acc = np.zeros((d, k))
    H_new = np.empty((n, k))
    for i in range(n):
        Xi = check_matrix(X[i], "X[i]", (None, d))
        yi = check_matrix(Y[i], "Y[i]", (Xi.shape[0],))
        m = Xi.shape[0]
        A = Xi @ B
        if tau_h is None:
            if m < k:
                raise ValueError(f"the exact head needs m_i >= k={k}; client {i} has m_i={m}")
            h = np.linalg.lstsq(A, yi, rcond=None)[0]
        else:
            h = H[i].copy()
            G, b = A.T @ A / m, A.T @ yi / m  # grad_h f_i(h, B) = (1/m) A^T (A h - y_i) = G h - b
            for _ in range(tau_h):
                h = h - eta_head * (G @ h - b)
        phi = B.copy()
        for _ in range(tau_phi):
            phi = phi - eta * np.outer(Xi.T @ (Xi @ phi @ h - yi), h) / m
        acc += phi
        H_new[i] = h
    return acc / n, H_new


@dataclass(frozen=True, eq=False)
class MetaResult:
    """Trajectory of :func:`run_meta_srpfl`.

    Attributes
    ----------
    dist : ndarray (T+1,)
        ``dist(B^t, B*)``.
    wall_clock : ndarray (T+1,)
    participants : list of ndarray
        The participating clients of every round.
    stage : ndarray (T,)
    heads : ndarray (M, k)
        Final heads (never-participants keep their initial heads, line 13).
    B : ndarray (d, k)
        Final representation (orthonormal if ``orthonormalise``).
    ever : ndarray (M,) of bool
        Whether each client participated in some round.
    params : dict
    """

    dist: np.ndarray
    wall_clock: np.ndarray
    participants: list
    stage: np.ndarray
    heads: np.ndarray
    B: np.ndarray
    ever: np.ndarray
    params: dict = field(default_factory=dict)


def run_meta_srpfl(model: FedRepModel, speeds: SpeedModel, N: int, n0: int, m, *, eta: float,
                   tau_h: int | None = None, tau_phi: int = 1, eta_head: float | None = None,
                   stage_lengths: int | Sequence[int] = 20, rounds: int | None = None, comm_cost: float = 0.0,
                   orthonormalise: bool = True, init: str = "mom", seed: SeedLike = 0) -> MetaResult:
    """Algorithm 1 (SRPFL meta-algorithm) on the linear model with a simulated clock.

    Tziotis et al. (2023), Algorithm 1: stage r aggregates the ``n_r = min(N, 2^r n0)`` fastest of the N
    sampled clients for ``stage_lengths[r]`` rounds (the last stage until ``rounds``), each round being
    :func:`meta_round`; non-participants keep their heads (line 13). ``orthonormalise=True`` adds
    Algorithm 2's QR step after the average (lines 13-14 of Algorithm 2), carried into the next stage.

    Streams: the seed is split as in :func:`fedtheory.srpfl.run_srpfl` (``spawn_seeds(seed, 6)``; the
    model and speed children are unused since ``model`` and ``speeds`` are given) and the initialisation,
    client sampling (once per stage), compute times and batches are drawn in ``run_srpfl``'s order and
    shapes (``sampler="full"``) when ``m`` is an int. So with ``tau_h=None``, ``tau_phi=1`` and
    ``orthonormalise=True`` the run must reproduce ``run_srpfl(..., model=model, speeds=speeds,
    seed=seed)`` round by round (Algorithm 2). A per-client sequence ``m`` (imbalanced data, App. C)
    draws each client's batch separately.

    Parameters
    ----------
    model : FedRepModel
        Ground truth with M clients.
    speeds : SpeedModel
        Compute-time model for the M clients.
    N, n0 : int
        Sampled clients per stage (``N <= M``) and initial participants (``k <= n0 <= N``).
    m : int or sequence of int
        Fresh samples per participant per round (or per client, length M), each >= k.
    eta : float > 0
    tau_h, tau_phi, eta_head
        As in :func:`meta_round`.
    stage_lengths : int or sequence of int
        Rounds per non-final stage.
    rounds : int, optional
        Total rounds (default: the stage lengths summed over all stages).
    comm_cost : float >= 0
        ``c`` of the per-round cost ``C = c/lam``.
    orthonormalise : bool
    init : {"mom", "random"}
    seed : int, SeedSequence or Generator

    Returns
    -------
    MetaResult
    """
    check_instance(model, "model", FedRepModel)
    check_instance(speeds, "speeds", SpeedModel)
    M, d, k = model.n, model.d, model.k
    if speeds.M != M:
        raise ValueError(f"`speeds` is for M={speeds.M} clients; `model` has M={M}")
    N = check_int(N, "N", 1, M, why=f"N <= M={M}")
    n0 = check_int(n0, "n0", k, N, why=f"k={k} <= n0 <= N={N}")
    if np.ndim(m) == 0:
        m = check_int(m, "m", k, why=f"the head needs m >= k={k}")
        m_arr = None
    else:
        m_arr = np.array([check_int(v, "m", k, why=f"each m_i >= k={k}") for v in np.ravel(m)])
        if m_arr.size != M:
            raise ValueError(f"a per-client `m` needs M={M} entries; got {m_arr.size}")
    eta = check_real(eta, "eta", 0, low_open=True)
    c = check_real(comm_cost, "comm_cost", 0)
    orthonormalise = check_bool(orthonormalise, "orthonormalise")
    check_choice(init, "init", ("mom", "random"))
    R_st = max(0, math.ceil(math.log2(N / n0)))
    sizes = [min(N, n0 * 2 ** r) for r in range(R_st + 1)]
    if np.ndim(stage_lengths) == 0:
        stage_lengths = [check_int(stage_lengths, "stage_lengths", 1)] * len(sizes)
    else:
        stage_lengths = [check_int(v, "stage_lengths", 1) for v in np.ravel(stage_lengths)]
        if len(stage_lengths) < len(sizes) - 1:
            raise ValueError(f"`stage_lengths` needs {len(sizes) - 1} entries; got {len(stage_lengths)}")
    rounds = sum(stage_lengths[: len(sizes)]) if rounds is None else check_int(rounds, "rounds", 0)
    _, _, ss_init, ss_run, ss_time, _ = spawn_seeds(seed, 6)
    rng_init = as_generator(ss_init)
    m_init = m if m_arr is None else int(np.min(m_arr))
    if init == "mom":
        sub = FedRepModel(B_star=model.B_star, W_star=model.W_star[rng_init.choice(M, N, replace=False)],
                          sigma=model.sigma, design=model.design)
        B = mom_init(sub, m_init, rng_init)
    else:
        B = random_orthonormal(rng_init, d, k)
    rng, rng_t = as_generator(ss_run), as_generator(ss_time)
    H = np.zeros((M, k))
    ever = np.zeros(M, bool)
    C = c / speeds.lam
    dist, clock, parts, stages = [principal_angle_distance(B, model.B_star)], [0.0], [], []
    for r, sel, t_round in _schedule(rounds, sizes, stage_lengths, speeds, M, N, rng, rng_t):
        if m_arr is None:
            X, Y = model.sample(rng, sel, m)
        else:
            X, Y = [], []
            for i in sel:
                Xi, yi = model.sample(rng, np.array([i]), int(m_arr[i]))
                X.append(Xi[0])
                Y.append(yi[0])
        B_bar, H[sel] = meta_round(B, H[sel], X, Y, eta, tau_h, tau_phi, eta_head=eta_head)
        B = _qr_pos(B_bar)[0] if orthonormalise else B_bar
        ever[sel] = True
        dist.append(principal_angle_distance(B, model.B_star))
        clock.append(clock[-1] + t_round + C)
        parts.append(sel)
        stages.append(r)
    params = dict(N=N, n0=n0, m=m if m_arr is None else m_arr.tolist(), eta=eta, tau_h=tau_h, tau_phi=tau_phi,
                  eta_head=eta_head, stage_lengths=stage_lengths, rounds=rounds, comm_cost=c,
                  orthonormalise=orthonormalise, init=init)
    return MetaResult(dist=np.array(dist), wall_clock=np.array(clock), participants=parts,
                      stage=np.array(stages), heads=H, B=B, ever=ever, params=params)


def head_excess_risk(B, theta, m_new: int, sigma: float) -> np.ndarray:
    """Expected excess risk of a head fitted by least squares on ``m_new`` fresh Gaussian samples
    on a fixed representation: ``E||B w_hat - theta||^2 = b (m_new - 1)/(m_new - k - 1) +
    sigma^2 k/(m_new - k - 1)``, ``b = ||(I - P_B) theta||^2`` (isotropic Gaussian x, orthonormal B).

    The fairness reading of Remark 4.8 of Tziotis et al. (2023) (TMLR only): a client that never took
    part fits its k-dimensional head on the shared B; with ``B = B*`` the excess risk is the oracle
    ``sigma^2 k/(m_new - k - 1)``. (The bias part is the standard misspecified-OLS risk: the residual
    ``(I - P_B) theta`` acts as extra noise of variance b independent of the features ``B^T x``.)

    Parameters
    ----------
    B : ndarray (d, k), orthonormal columns
    theta : ndarray (c, d)
        Clients' true regressors.
    m_new : int, >= k + 2
    sigma : float >= 0

    Returns
    -------
    ndarray (c,)
    """
    B = check_matrix(B, "B", (None, None))
    d, k = B.shape
    theta = check_matrix(theta, "theta", (None, d))
    m_new = check_int(m_new, "m_new", k + 2, why=f"the OLS risk is finite for m_new >= k + 2 = {k + 2}")
    sigma = check_real(sigma, "sigma", 0)
    if np.max(np.abs(B.T @ B - np.eye(k))) > 1e-8:
        raise ValueError("`B` must have orthonormal columns (||B^T B - I|| <= 1e-8)")
    b = np.sum((theta - theta @ B @ B.T) ** 2, axis=1)
    return b * (m_new - 1) / (m_new - k - 1) + sigma ** 2 * k / (m_new - k - 1)


def imbalanced_round(B, X, Y, m_i, eta):
    """One Algorithm 2 round (exact heads, one representation step, equal-weight average, QR) for clients
    with different batch sizes, vectorised with zero padding.

    Client i's batch is the first ``m_i[i]`` rows of ``X[i]`` (m_max x d), the rest zeros (zero rows change
    neither ``X_i^T X_i`` nor ``X_i^T Y_i``); its step is ``B - (eta/m_i) X_i^T (X_i B w_i - Y_i) w_i^T`` and
    the server averages the n steps with equal weights (Algorithm 1, line 15) and orthonormalises (Algorithm 2,
    lines 13-14; Tziotis et al. 2023). Equals :func:`meta_round` with ``tau_h=None``, ``tau_phi=1`` on the
    unpadded batches, followed by the QR step.

    Parameters
    ----------
    B : ndarray (d, k)
    X : ndarray (n, m_max, d), zero beyond each client's m_i rows
    Y : ndarray (n, m_max), zero beyond each client's m_i entries
    m_i : ndarray (n,) of int, k <= m_i <= m_max
    eta : float > 0

    Returns
    -------
    B_next : ndarray (d, k), orthonormal
    B_bar : ndarray (d, k)
    W : ndarray (n, k)
    """
    B = check_matrix(B, "B", (None, None))
    d, k = B.shape
    X = check_matrix(X, "X", (None, None, d))
    n, mmax, _ = X.shape
    Y = check_matrix(Y, "Y", (n, mmax))
    m_i = np.asarray(m_i)
    if m_i.shape != (n,) or np.any(m_i < k) or np.any(m_i > mmax):
        raise ValueError(f"`m_i` must hold n={n} batch sizes in [k={k}, m_max={mmax}]; got {m_i!r}")
    eta = check_real(eta, "eta", 0, low_open=True)
    A = X @ B
    G = np.swapaxes(A, 1, 2) @ A
    W = np.linalg.solve(G, np.einsum("cmk,cm->ck", A, Y)[..., None])[..., 0]
    r = np.einsum("cmk,ck->cm", A, W) - Y
    grad = np.einsum("cmd,cm,ck->dk", X, r / m_i[:, None], W) / n
    B_bar = B - eta * grad
    return _qr_pos(B_bar)[0], B_bar, W


def run_srpfl_imbalanced(model: FedRepModel, speeds: SpeedModel, N: int, n0: int, m_i, *, eta: float,
                         stage_lengths: int | Sequence[int] = 20, rounds: int | None = None,
                         comm_cost: float = 0.0, target: float | None = None, seed: SeedLike = 0):
    """FedRep-SRPFL (Algorithm 2) with per-client batch sizes (Fig. 8's imbalanced datasets, App. C of
    Tziotis et al. 2023), vectorised: stage r aggregates the ``min(N, 2^r n0)`` fastest of N sampled clients
    (sampled once per stage), each round is :func:`imbalanced_round` on fresh Gaussian batches of ``m_i``
    samples; MoM initialisation on ``min(m_i)`` samples per client.

    Parameters
    ----------
    model : FedRepModel (M clients, Gaussian design)
    speeds : SpeedModel for M clients
    N, n0 : int, ``k <= n0 <= N <= M``
    m_i : sequence of M ints >= k
    eta : float > 0
    stage_lengths, rounds, comm_cost, seed : as in :func:`run_meta_srpfl`
    target : float > 0, optional
        Stop once ``dist <= target`` (run-until-target).

    Returns
    -------
    wall_clock, dist : ndarray (T+1,)
    """
    check_instance(model, "model", FedRepModel)
    check_instance(speeds, "speeds", SpeedModel)
    M, k = model.n, model.k
    if speeds.M != M:
        raise ValueError(f"`speeds` is for M={speeds.M} clients; `model` has M={M}")
    N = check_int(N, "N", 1, M, why=f"N <= M={M}")
    n0 = check_int(n0, "n0", k, N, why=f"k={k} <= n0 <= N={N}")
    m_arr = np.array([check_int(v, "m_i", k, why=f"each m_i >= k={k}") for v in np.ravel(m_i)])
    if m_arr.size != M:
        raise ValueError(f"`m_i` needs M={M} entries; got {m_arr.size}")
    eta = check_real(eta, "eta", 0, low_open=True)
    c = check_real(comm_cost, "comm_cost", 0)
    R_st = max(0, math.ceil(math.log2(N / n0)))
    sizes = [min(N, n0 * 2 ** r) for r in range(R_st + 1)]
    if np.ndim(stage_lengths) == 0:
        stage_lengths = [check_int(stage_lengths, "stage_lengths", 1)] * len(sizes)
    else:
        stage_lengths = [check_int(v, "stage_lengths", 1) for v in np.ravel(stage_lengths)]
    rounds = sum(stage_lengths[: len(sizes)]) if rounds is None else check_int(rounds, "rounds", 0)
    if target is not None:
        target = check_real(target, "target", 0, low_open=True)
    ss_init, ss_run, ss_time = spawn_seeds(seed, 3)
    rng_init, rng, rng_t = as_generator(ss_init), as_generator(ss_run), as_generator(ss_time)
    B = mom_init(FedRepModel(B_star=model.B_star, W_star=model.W_star[rng_init.choice(M, N, replace=False)],
                             sigma=model.sigma), int(m_arr.min()), rng_init)
    mmax = int(m_arr.max())
    dist, clock = [principal_angle_distance(B, model.B_star)], [0.0]
    for r, sel, t_round in _schedule(rounds, sizes, stage_lengths, speeds, M, N, rng, rng_t,
                                     stop=lambda: target is not None and dist[-1] <= target):
        X, Y = model.sample(rng, sel, mmax)
        mask = np.arange(mmax)[None, :] < m_arr[sel][:, None]
        X, Y = X * mask[..., None], Y * mask
        B = imbalanced_round(B, X, Y, m_arr[sel], eta)[0]
        dist.append(principal_angle_distance(B, model.B_star))
        clock.append(clock[-1] + t_round + c / speeds.lam)
    return np.array(clock), np.array(dist)


def _schedule(rounds, sizes, stage_lengths, speeds, M, N, rng, rng_t, stop=None):
    """Algorithm 2's participation schedule, round by round, with the stream order of ``run_srpfl``: a
    fresh draw of N of the M clients at each stage start (``rng``), their compute times every round
    (``rng_t``), and the ``sizes[r]`` fastest of them. Yields ``(stage r, participants, the round's
    compute time = the slowest participant's)``; ``stop()`` (checked before each round) ends it early."""
    r, in_stage, active = 0, 0, None
    for _ in range(rounds):
        if stop is not None and stop():
            return
        if r < len(sizes) - 1 and in_stage >= stage_lengths[r]:
            r, in_stage, active = r + 1, 0, None
        if active is None:
            active = rng.choice(M, size=N, replace=False)
        times = speeds.draw(rng_t, active)
        n = sizes[r]
        order = np.argsort(times, kind="stable")
        yield r, active[order[:n]], float(times[order[n - 1]])
        in_stage += 1


_guard_module(globals(), __all__)
