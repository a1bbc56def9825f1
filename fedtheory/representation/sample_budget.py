"""FedRep's sample complexity: exact-in-law runs in ``O(k)`` coordinates, closed-form risks, searches.

Source: Collins, Hassani, Mokhtari, Shakkottai, "Exploiting Shared Representations for Personalized
Federated Learning", ICML 2021: Theorem 1 (the condition ``m >= c(kappa^4 k^3 log(rn)/E0^2 +
kappa^4 k^2 d/(E0^2 rn))``), eq. (11) and Sec. 4.2 "When and whom does federation help?".

* :func:`tight_frame_heads` - ground-truth heads with ``W*^T W* = n I_k`` and ``||w_i*|| = sqrt(k)``
  (Assumptions 2-3 with ``kappa = 1`` for ``r = 1``);
* :func:`angle_start`, :func:`haar_start` - the coordinates of ``B^0`` at a given distance from ``B*``
  (all principal angles equal) or Haar-random;
* :func:`run_fedrep_coords` - Algorithm 2 (exact heads, one gradient step on ``B``, averaging, QR) with
  fresh isotropic Gaussian batches, simulated in ``3k`` coordinates: exact in law for every ``d >= 3k``,
  at a cost that does not depend on ``d`` (derivation in its docstring);
* :func:`refit_excess_risk` - the expected excess test risk of a client that re-fits its head on
  ``m`` fresh samples on a learned orthonormal ``B`` (closed form, ours);
* :func:`local_samples_to_reach` - the samples Local least squares needs for a given excess risk;
* :func:`smallest_passing` - the monotone search (doubling, then bisection) for a threshold ``m``.

Derivations marked "ours" are not in the paper. (Not named ``sample_complexity.py``: importing such a
submodule would rebind ``fedtheory.representation.sample_complexity``, the closed form of
:mod:`fedtheory.representation.theory`, to the module.)
"""
from __future__ import annotations

from typing import Callable, NamedTuple

import numpy as np

from .._validation import (check_callable, check_finite_array, check_generator, check_int, check_matrix,
                           check_real)

__all__ = ["tight_frame_heads", "angle_start", "haar_start", "run_fedrep_coords", "CoordRun",
           "refit_excess_risk", "local_samples_to_reach", "smallest_passing"]


def tight_frame_heads(n: int, k: int) -> np.ndarray:
    """Harmonic tight-frame heads: ``n`` rows in ``R^k`` with ``||w_i|| = sqrt(k)`` and ``W^T W = n I_k``.

    Row ``i`` is ``sqrt(2) (cos(2 pi i f / n), sin(2 pi i f / n))_{f = 1..k/2}``. They satisfy
    Assumption 3 of FedRep (Collins et al., ICML 2021: ``||w_i*|| = sqrt(k)``) and make the
    diversity constants of Theorem 1 for ``r = 1`` exactly ``sigma_min,* = sigma_max,* = 1``
    (``kappa = 1``), so that sweeps over ``n`` do not mix in a changing ``kappa``.

    Parameters
    ----------
    n : int
        Number of clients, ``n > k`` (then the frequencies ``1..k/2`` are below ``n/2``).
    k : int
        Representation dimension, even and >= 2.

    Returns
    -------
    ndarray (n, k)
    """
    k = check_int(k, "k", 2)
    if k % 2:
        raise ValueError(f"`k` must be even (pairs of cos/sin columns); got k={k}")
    n = check_int(n, "n", k + 1, why=f"the harmonic frame needs n > k = {k}")
    i = np.arange(n)[:, None]
    f = np.arange(1, k // 2 + 1)[None, :]
    ang = 2 * np.pi * i * f / n
    W = np.empty((n, k))
    W[:, 0::2] = np.sqrt(2) * np.cos(ang)
    W[:, 1::2] = np.sqrt(2) * np.sin(ang)
    return W


def angle_start(k: int, dist: float, replicates: int = 1) -> np.ndarray:
    """Coordinates ``[[cos(theta) I_k], [sin(theta) I_k]]`` of ``B^0 = B* cos(theta) + E sin(theta)``.

    ``E`` is any orthonormal ``d x k`` block orthogonal to ``B*``; all ``k`` principal angles between
    ``B^0`` and ``B*`` equal ``theta = arcsin(dist)``, so ``dist(B^0, B*) = dist`` (FedRep Definition 1)
    and ``E0 = 1 - dist^2`` (Theorem 1) are fixed, not random.

    ``k >= 1``, ``dist`` in [0, 1], ``replicates >= 1``. Returns ``(replicates, 2k, k)``.
    """
    k = check_int(k, "k", 1)
    dist = check_real(dist, "dist", 0, 1)
    replicates = check_int(replicates, "replicates", 1)
    C = np.concatenate([np.sqrt(1 - dist ** 2) * np.eye(k), dist * np.eye(k)], axis=0)
    return np.broadcast_to(C, (replicates, 2 * k, k)).copy()


def _bartlett(rng, R, k, dof):
    """Upper-triangular ``T`` (R, k, k) with ``T^T T ~ Wishart_k(dof, I)`` (Bartlett decomposition):
    for a ``dof x k`` standard normal ``N = V T`` (thin QR), ``V`` Haar and independent of ``T``."""
    T = np.triu(rng.standard_normal((R, k, k)), 1)
    i = np.arange(k)
    T[:, i, i] = np.sqrt(rng.chisquare(dof - i, size=(R, k)))
    return T


def haar_start(d: int, k: int, rng: np.random.Generator, replicates: int = 1) -> np.ndarray:
    """Coordinates (in ``[B*, E]``) of a Haar-random orthonormal ``B^0`` (``init="random"``).

    A Haar basis is the Q factor of a ``d x k`` standard normal ``G``; ``B*^T G`` is a ``k x k``
    standard normal and ``(I - B* B*^T) G = E T`` with ``T^T T ~ Wishart_k(d - k, I)`` (Bartlett),
    independent. Requires ``d >= 2k``. Returns ``(replicates, 2k, k)`` with orthonormal columns.
    """
    k = check_int(k, "k", 1)
    d = check_int(d, "d", 2 * k, why=f"the coordinates need d >= 2k = {2 * k}")
    check_generator(rng, "rng")
    replicates = check_int(replicates, "replicates", 1)
    G = np.concatenate([rng.standard_normal((replicates, k, k)), _bartlett(rng, replicates, k, d - k)], axis=1)
    Q, _ = np.linalg.qr(G)
    return Q


class CoordRun(NamedTuple):
    """Result of :func:`run_fedrep_coords`: ``dist`` (R, T+1) = ``dist(B^t, B*)``; ``proj_err`` (R, T+1)
    = ``(1/n) sum_i ||(I - B^t B^t^T) B* w_i*||^2`` over all ``n`` clients; ``C`` (R, 2k, k) the final
    coordinates."""

    dist: np.ndarray
    proj_err: np.ndarray
    C: np.ndarray


def _dist_and_proj(C, k, M_half):
    C1 = C[:, :k, :]
    dist = np.linalg.norm(C[:, k:, :], ord=2, axis=(1, 2))
    D = -C @ np.swapaxes(C1, 1, 2)  # (I - C C^T) [I; 0]
    D[:, np.arange(k), np.arange(k)] += 1.0
    proj = np.sum((D @ M_half) ** 2, axis=(1, 2))
    return np.minimum(dist, 1.0), proj


def run_fedrep_coords(W_star: np.ndarray, d: int, m: int, eta: float, rounds: int, start: np.ndarray, *,
                      n_sel: int | None = None, sigma: float = 0.0,
                      rng: np.random.Generator) -> CoordRun:
    """FedRep (Algorithm 2 with QR, exact heads, fresh Gaussian batches) run exactly in law in ``3k``
    coordinates, vectorised over replicates.

    FedRep, Collins et al., ICML 2021, Algorithm 2 and Theorem 1. Derivation (ours; it extends the
    reduced sampler :func:`~fedtheory.representation.fedrep_round_reduced` by one more step):
    write ``B^t = B* C1 + E C2`` with ``E`` orthonormal and orthogonal to ``B*`` and ``U = [B*, E]``.
    A row ``x ~ N(0, I_d)`` is ``U a + U_perp z`` with ``a ~ N(0, I_2k)``; the features ``a^T C``, the
    labels ``a_{1:k}^T w_i* + noise``, the heads ``w_i``, the residuals ``r_i`` and ``U^T G`` depend on
    ``a`` only. ``U_perp^T G`` has ``d - 2k`` i.i.d. ``N(0, S)`` rows, ``S = sum_i ||r_i||^2 w_i w_i^T/(cm)^2``,
    i.e. it is ``N L^T`` (``L L^T = S``) with ``N`` a ``(d-2k) x k`` standard normal, and ``U_perp N = V T``
    with ``V`` orthonormal (orthogonal to ``U``) and ``T`` the Bartlett factor (``T^T T ~ Wishart_k(d-2k,
    I)``). So ``B_bar = [B*, E, V] [[C - eta U^T G], [-eta T L^T]]``; the QR step and one more thin QR
    of the rows below ``B*`` give the next ``(C1, C2)``. All laws are rotation invariant in the
    complement of ``col(B*)``, so the sequence of ``(C1, C2)`` (hence ``dist`` and every client's risk)
    has exactly the law of the ``d``-dimensional run; the cost is ``O(R (c m k + k^3))`` per round
    whatever ``d``.

    Parameters
    ----------
    W_star : ndarray (n, k)
        Ground-truth heads (rows), finite.
    d : int
        Data dimension, ``d >= 3k``.
    m : int
        Fresh samples per selected client per round, ``m >= k`` (exact head solve).
    eta : float
        Step on ``B``, > 0.
    rounds : int
        Rounds ``T >= 0``.
    start : ndarray (R, 2k, k)
        Orthonormal coordinates of ``B^0`` in ``[B*, E]`` (:func:`angle_start`, :func:`haar_start`);
        ``R`` is the number of replicates.
    n_sel : int, optional
        Clients per round (``rn``), drawn without replacement per replicate and round; default all ``n``.
    sigma : float
        Label-noise standard deviation, >= 0 (Theorem 1: 0).
    rng : numpy.random.Generator

    Returns
    -------
    CoordRun
    """
    W = check_matrix(W_star, "W_star", (None, None))
    n, k = W.shape
    if n < 1 or k < 1:
        raise ValueError(f"`W_star` must be a non-empty n x k matrix; got shape {W.shape}")
    d = check_int(d, "d", 3 * k, why=f"the coordinates need d >= 3k = {3 * k}")
    m = check_int(m, "m", k, why=f"the exact head solve needs m >= k = {k}")
    eta = check_real(eta, "eta", 0, low_open=True)
    rounds = check_int(rounds, "rounds", 0)
    start = check_finite_array(start, "start")
    if start.ndim != 3 or start.shape[1:] != (2 * k, k):
        raise ValueError(f"`start` must have shape (R, {2 * k}, {k}); got {start.shape}")
    if np.max(np.abs(np.swapaxes(start, 1, 2) @ start - np.eye(k))) > 1e-8:
        raise ValueError("`start` must have orthonormal columns (coordinates of an orthonormal B^0)")
    n_sel = n if n_sel is None else check_int(n_sel, "n_sel", 1, n)
    sigma = check_real(sigma, "sigma", 0)
    check_generator(rng, "rng")
    R = start.shape[0]
    M = W.T @ W / n
    ev, vec = np.linalg.eigh(M)
    M_half = vec * np.sqrt(np.maximum(ev, 0.0))  # M_half M_half^T = M
    C = np.array(start, dtype=float)
    dist = np.empty((R, rounds + 1))
    proj = np.empty((R, rounds + 1))
    dist[:, 0], proj[:, 0] = _dist_and_proj(C, k, M_half)
    c = n_sel
    for t in range(rounds):
        if n_sel < n:
            idx = np.argsort(rng.random((R, n)), axis=1)[:, :n_sel]
            Wsel = W[idx]  # (R, c, k)
        else:
            Wsel = np.broadcast_to(W, (R, n, k))
        a = rng.standard_normal((R, c, m, 2 * k))
        y = np.einsum("rcmk,rck->rcm", a[..., :k], Wsel)
        if sigma > 0:
            y = y + sigma * rng.standard_normal((R, c, m))
        A = a @ C[:, None, :, :]  # (R, c, m, k)
        w = np.linalg.solve(np.swapaxes(A, -1, -2) @ A, np.einsum("rcmk,rcm->rck", A, y)[..., None])[..., 0]
        resid = np.einsum("rcmk,rck->rcm", A, w) - y
        g = np.einsum("rcmq,rcm->rcq", a, resid)
        G_U = np.einsum("rcq,rck->rqk", g, w) / (c * m)
        S = np.einsum("rc,rck,rcl->rkl", np.sum(resid ** 2, axis=-1), w, w) / (c * m) ** 2
        sev, svec = np.linalg.eigh(S)
        L = svec * np.sqrt(np.maximum(sev, 0.0))[:, None, :]
        T = _bartlett(rng, R, k, d - 2 * k)
        full = np.concatenate([C - eta * G_U, -eta * T @ np.swapaxes(L, 1, 2)], axis=1)  # (R, 3k, k)
        if not np.all(np.isfinite(full)):
            raise ValueError(f"the run overflowed float64 at round {t + 1}: `eta`={eta:g} is too large")
        Q, _ = np.linalg.qr(full)
        _, Rp = np.linalg.qr(Q[:, k:, :])  # (R, k, k): the rows below B* in a new orthonormal E
        C = np.concatenate([Q[:, :k, :], Rp], axis=1)
        dist[:, t + 1], proj[:, t + 1] = _dist_and_proj(C, k, M_half)
    return CoordRun(dist=dist, proj_err=proj, C=C)


def refit_excess_risk(proj_err, sigma, k: int, m: int):
    """Expected excess test risk of clients that re-fit their heads by least squares on ``m`` fresh
    samples on a learned orthonormal representation ``B_hat``.

    With ``a_i = ||(I - B_hat B_hat^T) theta_i*||^2`` (``theta_i* = B* w_i*``), isotropic Gaussian ``x``
    and label noise of variance ``sigma^2``: the features ``B_hat^T x`` are ``N(0, I_k)`` and the
    unexplained part ``x^T (I - B_hat B_hat^T) theta_i* + noise`` is independent of them with variance
    ``sigma^2 + a_i``, so the OLS head has ``E||w - B_hat^T theta_i*||^2 = (sigma^2 + a_i) k/(m - k - 1)``
    and the excess risk ``E||B_hat w - theta_i*||^2 = a_i + (sigma^2 + a_i) k / (m - k - 1)`` (ours; the
    test risk of FedRep's personalised models, Collins et al., ICML 2021, eq. (5), minus ``sigma^2``).
    Linear in ``a_i``, so ``proj_err`` may be the client average.

    ``proj_err >= 0`` (array), ``sigma >= 0``, ``k >= 1``, ``m > k + 1``.
    """
    a = check_finite_array(proj_err, "proj_err", 0)
    sigma = check_real(sigma, "sigma", 0)
    k = check_int(k, "k", 1)
    m = check_int(m, "m", k + 2, why=f"the OLS risk is finite only for m > k + 1 = {k + 1}")
    out = a + (sigma ** 2 + a) * k / (m - k - 1)
    return float(out) if np.ndim(out) == 0 else out


def local_samples_to_reach(eps: float, d: int, sigma: float) -> int:
    """Smallest ``m`` with ``sigma^2 d / (m - d - 1) <= eps``: the samples Local least squares needs
    for excess risk ``eps`` with an isotropic Gaussian design in ``d`` dimensions (the inverse-Wishart
    mean; :func:`~fedtheory.representation.ols_excess_risk`). FedRep, Collins et al., ICML 2021,
    Sec. 4.2 compares FedRep's per-client samples with this ``Theta(d)``.

    ``eps > 0``, ``d >= 1``, ``sigma > 0``.
    """
    eps = check_real(eps, "eps", 0, low_open=True)
    d = check_int(d, "d", 1)
    sigma = check_real(sigma, "sigma", 0, low_open=True)
    m = d + 2 + int(np.floor(sigma ** 2 * d / eps))
    while m - 1 > d + 1 and sigma ** 2 * d / (m - 1 - d - 1) <= eps:  # floor rounding guard
        m -= 1
    while sigma ** 2 * d / (m - d - 1) > eps:
        m += 1
    return m


def smallest_passing(passes: Callable[[int], bool], lo: int, hi_max: int) -> tuple[int | None, dict]:
    """Smallest integer ``m`` in ``[lo, hi_max]`` with ``passes(m)`` for a monotone (non-decreasing in
    ``m``) decision: doubling from ``lo`` until the first pass, then bisection between the last fail and
    that pass. Each ``m`` is evaluated at most once. Returns ``(m_star, {m: passed})``; ``m_star`` is None
    if ``passes(hi_max)`` is False.

    ``passes`` callable; ``1 <= lo <= hi_max``.
    """
    check_callable(passes, "passes")
    lo = check_int(lo, "lo", 1)
    hi_max = check_int(hi_max, "hi_max", lo)
    seen: dict = {}

    def ev(m):
        if m not in seen:
            seen[m] = bool(passes(m))
        return seen[m]

    if ev(lo):
        return lo, seen
    fail, m = lo, lo
    while True:
        m = min(2 * m, hi_max)
        if ev(m):
            break
        if m == hi_max:
            return None, seen
        fail = m
    ok = m
    while ok - fail > 1:
        mid = (ok + fail) // 2
        if ev(mid):
            ok = mid
        else:
            fail = mid
    return ok, seen
