"""Per-round quantities of SRPFL's proof of Theorem 4.7 (Appendix A), as pure functions.

Source: Tziotis, Shen, Pedarsani, Hassani and Mokhtari, *Straggler-Resilient Personalized
Federated Learning*, TMLR 2023, Appendix A, eqs. (13)-(106) (the arXiv version, 2206.02078,
shifts the appendix equation numbers down by 1 to 8). Notation follows the TMLR text: one round
of FedRep on the ``n`` participating clients, each with a batch ``X_i`` (m x d; the paper writes
d x m but uses m x d), labels ``Y_i = X_i B* w_i* + Z_i``, an orthonormal current representation
``B_hat`` (d x k), the true orthonormal ``B*`` (d x k) and the participants' true heads ``W*``
(n x k, rows ``w_i*``).

Every function accepts optional leading batch axes (e.g. a replicate axis): ``X`` of shape
``(..., n, m, d)``, ``Y`` ``(..., n, m)``, ``B_hat``/``B_star`` ``(..., d, k)``, ``W_star``
``(..., n, k)``; the leading axes broadcast against each other. Nothing here draws random numbers
or depends on a constant the paper leaves unspecified except through an explicit ``c``.

Quantities (per client ``i``)
-----------------------------
``gram``      ``(1/m) B_hat^T X_i^T X_i B_hat``                         (16), Lemma A.4
``H``         ``(1/m) B_hat^T X_i^T X_i (B_hat B_hat^T - I_d) B*``          Lemma A.5
``F``         ``gram^{-1} ((1/m) B_hat^T X_i^T X_i B* - gram B_hat^T B*) w_i* = -gram^{-1} H_i w_i*``  (24)
``G``         ``gram^{-1} (1/m) B_hat^T X_i^T Z_i``                      (25)
``w_plus``    ``gram^{-1} (1/m) B_hat^T X_i^T Y_i = B_hat^T B* w_i* + F_i + G_i``  (17), (20)
``q``         ``B_hat w_i^+ - B* w_i*``                                   Lemma A.8
``S``         ``sum_i (1/m) X_i^T X_i q_i w_i^{+T}``  (d x k)              (140)
``E``         ``sum_i (1/m) X_i^T Z_i w_i^{+T}``      (d x k)              (141); Lemma A.9 bounds ``E/n``
``A10``       ``(1/n) sum_i ((1/m) X_i^T X_i q_i - q_i) w_i^{+T}`` (d x k)  Lemma A.10, (95)

Bounds (the printed right-hand sides, with the unspecified absolute constant ``c`` explicit and
``sigma_power`` = 2 as printed or 1 for the sigma-corrected reading; see
``checks/srpfl/lemmas.py`` for the Monte Carlo that decides between them):
:func:`delta`, :func:`lemma_a5_bound`, :func:`lemma_a6_bound`, :func:`lemma_a8_bounds`,
:func:`lemma_a10_bound`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._validation import check_finite_array, check_finite_result, check_int, check_real
from .._validation import guard_module as _guard_module

__all__ = ["RoundQuantities", "round_quantities", "client_gram", "h_matrices", "f_terms", "g_terms",
           "head_update", "q_vectors", "s_matrix", "e_matrix", "lemma_a10_matrix", "delta", "delta_hat",
           "lemma_a5_bound", "lemma_a6_bound", "lemma_a8_bounds", "lemma_a10_bound"]


# ----------------------------------------------------------------------------- validation
def _arr(x, name, min_ndim):
    a = check_finite_array(x, name)
    if a.ndim < min_ndim:
        raise ValueError(f"`{name}` must have at least {min_ndim} dimensions; got shape {a.shape}")
    return a


def _check_round(X, B_hat, B_star=None, W_star=None, Y=None):
    """Validate the shapes of one round's inputs; returns (X, B_hat, B_star, W_star, Y) as arrays."""
    X = _arr(X, "X", 3)
    n, m, d = X.shape[-3:]
    B_hat = _arr(B_hat, "B_hat", 2)
    if B_hat.shape[-2] != d:
        raise ValueError(f"`B_hat` must have d={d} rows (the last axis of `X`); got shape {B_hat.shape}")
    k = B_hat.shape[-1]
    if not 1 <= k <= d:
        raise ValueError(f"`B_hat` must have 1 <= k <= d={d} columns; got k={k}")
    if m < k:
        raise ValueError(f"the batch size m (axis -2 of `X`) must be >= k={k} for the head update (16) to be "
                         f"defined; got m={m}")
    if B_star is not None:
        B_star = _arr(B_star, "B_star", 2)
        if B_star.shape[-2:] != (d, k):
            raise ValueError(f"`B_star` must be d x k = {d} x {k} (as `B_hat`); got shape {B_star.shape}")
    if W_star is not None:
        W_star = _arr(W_star, "W_star", 2)
        if W_star.shape[-2:] != (n, k):
            raise ValueError(f"`W_star` must be n x k = {n} x {k} (one true head per client of `X`); got "
                             f"shape {W_star.shape}")
    if Y is not None:
        Y = _arr(Y, "Y", 2)
        if Y.shape[-2:] != (n, m):
            raise ValueError(f"`Y` must be n x m = {n} x {m} (labels of `X`); got shape {Y.shape}")
    return X, B_hat, B_star, W_star, Y


def _solve(Gm, rhs, what):
    try:
        return np.linalg.solve(Gm, rhs[..., None])[..., 0]
    except np.linalg.LinAlgError as exc:
        raise ValueError(f"{what}: a client's Gram matrix (1/m) B_hat^T X_i^T X_i B_hat is singular ({exc}); "
                         "`X` must have rank >= k per client (m >= k and B_hat of full column rank)") from None


# ----------------------------------------------------------------------------- per-client quantities
def client_gram(X, B_hat):
    """``(1/m) B_hat^T X_i^T X_i B_hat`` for every client (Tziotis et al., TMLR 2023, (16), Lemma A.4).

    Parameters
    ----------
    X : array (..., n, m, d)
        The round's batches, one m x d block per client.
    B_hat : array (..., d, k)
        The round's (orthonormal) representation.

    Returns
    -------
    ndarray (..., n, k, k)
    """
    X, B_hat, *_ = _check_round(X, B_hat)
    A = X @ B_hat[..., None, :, :]
    return np.swapaxes(A, -1, -2) @ A / X.shape[-2]


def h_matrices(X, B_hat, B_star):
    """``H_i = (1/m) B_hat^T X_i^T X_i (B_hat B_hat^T - I_d) B*`` (Tziotis et al., TMLR 2023, Lemma A.5).

    ``F_i = -gram_i^{-1} H_i w_i*`` (24). Lemma A.5 bounds ``||H_i||_2 <= dist(B_hat, B*) sqrt(C k^2 log N / m)``
    (46) and ``sum_i ||H_i w_i*||^2 <= delta^2 ||W*||_2^2 dist^2`` (36).

    Parameters
    ----------
    X : array (..., n, m, d)
    B_hat, B_star : arrays (..., d, k)

    Returns
    -------
    ndarray (..., n, k, k)
    """
    X, B_hat, B_star, *_ = _check_round(X, B_hat, B_star)
    m = X.shape[-2]
    A = X @ B_hat[..., None, :, :]
    perp = B_hat @ (np.swapaxes(B_hat, -1, -2) @ B_star) - B_star  # (B_hat B_hat^T - I) B*
    U = X @ perp[..., None, :, :]
    return np.swapaxes(A, -1, -2) @ U / m


def f_terms(X, B_hat, B_star, W_star):
    """``F_i`` of (24) (Tziotis et al., TMLR 2023, Lemma A.2), rows of an (..., n, k) array.

    ``F_i = gram_i^{-1} ((1/m) B_hat^T X_i^T X_i B* - gram_i B_hat^T B*) w_i*``, which equals
    ``-gram_i^{-1} H_i w_i*``. Lemma A.6 (51): ``||F_i|| <= delta/(1 - delta) dist ||w_i*||``.
    """
    X, B_hat, B_star, W_star, _ = _check_round(X, B_hat, B_star, W_star)
    H = h_matrices(X, B_hat, B_star)
    Gm = client_gram(X, B_hat)
    return -_solve(Gm, np.einsum("...nkl,...nl->...nk", H, W_star), "F_i of (24)")


def _noise(X, Y, B_star, W_star):
    theta = W_star @ np.swapaxes(B_star, -1, -2)  # (..., n, d)
    return Y - np.einsum("...nmd,...nd->...nm", X, theta)


def g_terms(X, Y, B_hat, B_star, W_star):
    """``G_i = gram_i^{-1} (1/m) B_hat^T X_i^T Z_i`` of (25), with ``Z_i = Y_i - X_i B* w_i*``
    (Tziotis et al., TMLR 2023, Lemma A.2); rows of an (..., n, k) array. Lemma A.7 (58) prints
    ``||G_i|| <= delta/(1 - delta) sigma^2``; its true scale is sigma (errata item 6)."""
    X, B_hat, B_star, W_star, Y = _check_round(X, B_hat, B_star, W_star, Y)
    Z = _noise(X, Y, B_star, W_star)
    A = X @ B_hat[..., None, :, :]
    rhs = np.einsum("...nmk,...nm->...nk", A, Z) / X.shape[-2]
    return _solve(client_gram(X, B_hat), rhs, "G_i of (25)")


def head_update(X, Y, B_hat):
    """The exact head update (17): ``w_i^+ = gram_i^{-1} (1/m) B_hat^T X_i^T Y_i`` (least squares of
    ``Y_i`` on ``X_i B_hat``; Tziotis et al., TMLR 2023, (16)-(17)); rows of an (..., n, k) array."""
    X, B_hat, _, _, Y = _check_round(X, B_hat, Y=Y)
    A = X @ B_hat[..., None, :, :]
    rhs = np.einsum("...nmk,...nm->...nk", A, Y) / X.shape[-2]
    return _solve(client_gram(X, B_hat), rhs, "the head update (17)")


def q_vectors(B_hat, B_star, W_star, w_plus):
    """``q_i = B_hat w_i^+ - B* w_i*`` (Tziotis et al., TMLR 2023, Lemma A.8, (71)); rows of an
    (..., n, d) array. Lemma A.8 prints ``||q_i|| <= 2 sqrt(k) dist + sigma^2 delta_hat``."""
    B_hat = _arr(B_hat, "B_hat", 2)
    d, k = B_hat.shape[-2:]
    B_star = _arr(B_star, "B_star", 2)
    if B_star.shape[-2:] != (d, k):
        raise ValueError(f"`B_star` must be d x k = {d} x {k} (as `B_hat`); got shape {B_star.shape}")
    W_star = _arr(W_star, "W_star", 2)
    w_plus = _arr(w_plus, "w_plus", 2)
    if W_star.shape[-1] != k or w_plus.shape[-1] != k or W_star.shape[-2] != w_plus.shape[-2]:
        raise ValueError(f"`W_star` and `w_plus` must both be n x k (k={k}); got shapes {W_star.shape} and "
                         f"{w_plus.shape}")
    return w_plus @ np.swapaxes(B_hat, -1, -2) - W_star @ np.swapaxes(B_star, -1, -2)


def s_matrix(X, q, w_plus):
    """``S = sum_i (1/m) X_i^T X_i q_i w_i^{+T}`` (d x k; Tziotis et al., TMLR 2023, (140)), so that the
    pre-QR update is ``B^+ = B_hat - (eta/n) S + (eta/n) E`` (142)."""
    X = _arr(X, "X", 3)
    n, m, d = X.shape[-3:]
    q, w_plus = _arr(q, "q", 2), _arr(w_plus, "w_plus", 2)
    if q.shape[-2:] != (n, d) or w_plus.shape[-2] != n:
        raise ValueError(f"`q` must be n x d = {n} x {d} and `w_plus` n x k; got {q.shape}, {w_plus.shape}")
    XtXq = np.einsum("...nmd,...nm->...nd", X, np.einsum("...nmd,...nd->...nm", X, q)) / m
    return np.swapaxes(XtXq, -1, -2) @ w_plus


def e_matrix(X, Z, w_plus):
    """``E = sum_i (1/m) X_i^T Z_i w_i^{+T}`` (d x k; Tziotis et al., TMLR 2023, (141)). Lemma A.9 (82)
    bounds ``||E/n||_2`` (printed with sigma^2; the true scale is sigma, errata item 6)."""
    X = _arr(X, "X", 3)
    n, m, d = X.shape[-3:]
    Z, w_plus = _arr(Z, "Z", 2), _arr(w_plus, "w_plus", 2)
    if Z.shape[-2:] != (n, m) or w_plus.shape[-2] != n:
        raise ValueError(f"`Z` must be n x m = {n} x {m} and `w_plus` n x k; got {Z.shape}, {w_plus.shape}")
    XtZ = np.einsum("...nmd,...nm->...nd", X, Z) / m
    return np.swapaxes(XtZ, -1, -2) @ w_plus


def lemma_a10_matrix(X, q, w_plus):
    """``(1/n) sum_i ((1/m) X_i^T X_i q_i - q_i) w_i^{+T}`` (d x k), the matrix bounded by Lemma A.10,
    (95) (Tziotis et al., TMLR 2023); equals ``(S - sum_i q_i w_i^{+T}) / n``."""
    X = _arr(X, "X", 3)
    n = X.shape[-3]
    q, w_plus = _arr(q, "q", 2), _arr(w_plus, "w_plus", 2)
    S = s_matrix(X, q, w_plus)
    return (S - np.swapaxes(q, -1, -2) @ w_plus) / n


@dataclass(frozen=True)
class RoundQuantities:
    """Appendix A quantities of one round (arrays keep any leading batch axes); see the module docstring.

    ``dist`` is ``dist(B_hat, B*) = ||(I - B* B*^T) B_hat||_2`` (TMLR 2023, Sec. 4; principal-angle
    distance), ``sigma_min2`` is ``sigma_min^2(B*^T B_hat) = 1 - dist^2`` (the quantity the proof compares
    with ``E_0`` at (134)-(135), errata item 10)."""

    gram: np.ndarray
    H: np.ndarray
    F: np.ndarray
    G: np.ndarray
    w_plus: np.ndarray
    q: np.ndarray
    Z: np.ndarray
    S: np.ndarray
    E: np.ndarray
    A10: np.ndarray
    dist: np.ndarray
    sigma_min2: np.ndarray


def round_quantities(X, Y, B_hat, B_star, W_star, *, check: bool = True) -> RoundQuantities:
    """All Appendix A quantities of one FedRep round (Tziotis et al., TMLR 2023, (16)-(25), Lemmas A.4-A.10,
    (140)-(141)), from the round's data alone.

    Parameters
    ----------
    X : array (..., n, m, d)
        Batches of the n participating clients (m >= k samples each).
    Y : array (..., n, m)
        Labels ``Y_i = X_i B* w_i* + Z_i``.
    B_hat : array (..., d, k)
        The round's representation; Appendix A assumes it is orthonormal.
    B_star : array (..., d, k)
        The true orthonormal representation.
    W_star : array (..., n, k)
        The participants' true heads (rows ``w_i*``).
    check : bool
        Raise ``ValueError`` unless ``B_hat`` and ``B_star`` are orthonormal to 1e-8 (Appendix A's setting;
        ``H_i`` and ``dist`` use it). Lemma A.2's identity ``w_i^+ = B_hat^T B* w_i* + F_i + G_i`` (20) is exact
        algebra for any full-rank ``B_hat``.

    Returns
    -------
    RoundQuantities
    """
    X, B_hat, B_star, W_star, Y = _check_round(X, B_hat, B_star, W_star, Y)
    if check:
        eye = np.eye(B_hat.shape[-1])
        for M_, name in ((B_hat, "B_hat"), (B_star, "B_star")):
            defect = float(np.max(np.abs(np.swapaxes(M_, -1, -2) @ M_ - eye)))
            if defect > 1e-8:
                raise ValueError(f"`{name}` must be orthonormal (Appendix A, (16)-(19)): max |{name}^T {name} - I| = "
                                 f"{defect:.3g} > 1e-8 (pass check=False to compute the quantities anyway)")
    m = X.shape[-2]
    A = X @ B_hat[..., None, :, :]
    Gm = np.swapaxes(A, -1, -2) @ A / m
    perp = B_hat @ (np.swapaxes(B_hat, -1, -2) @ B_star) - B_star
    H = np.swapaxes(A, -1, -2) @ (X @ perp[..., None, :, :]) / m
    Z = _noise(X, Y, B_star, W_star)
    F = -_solve(Gm, np.einsum("...nkl,...nl->...nk", H, W_star), "F_i of (24)")
    G = _solve(Gm, np.einsum("...nmk,...nm->...nk", A, Z) / m, "G_i of (25)")
    w_plus = _solve(Gm, np.einsum("...nmk,...nm->...nk", A, Y) / m, "the head update (17)")
    q = q_vectors(B_hat, B_star, W_star, w_plus)
    S = s_matrix(X, q, w_plus)
    E = e_matrix(X, Z, w_plus)
    A10 = (S - np.swapaxes(q, -1, -2) @ w_plus) / X.shape[-3]
    s = np.linalg.svd(np.swapaxes(B_star, -1, -2) @ B_hat, compute_uv=False)[..., -1]
    smin2 = np.clip(s ** 2, 0.0, 1.0)
    out = RoundQuantities(gram=Gm, H=H, F=F, G=G, w_plus=w_plus, q=q, Z=Z, S=S, E=E, A10=A10,
                          dist=np.sqrt(1.0 - smin2), sigma_min2=smin2)
    check_finite_result(out.A10, "the Appendix A quantities", "X", "Y", "B_hat", "B_star", "W_star")
    return out


# ----------------------------------------------------------------------------- printed bounds
def delta(m, k, N, c=1.0):
    """``delta = c k^{3/2} sqrt(log N) / sqrt(m)`` (Tziotis et al., TMLR 2023, Lemmas A.4-A.10).

    Parameters
    ----------
    m : int or array, >= 1
    k : int, >= 1
    N : int, >= 2 (so that log N > 0)
    c : float, > 0
        The unspecified absolute constant (the paper's "some absolute constant c").
    """
    m = check_finite_array(m, "m", 1, why="batch size")
    k = check_int(k, "k", 1)
    N = check_int(N, "N", 2, why="log N must be positive")
    c = check_real(c, "c", 0, low_open=True, why="absolute constant")
    out = c * k ** 1.5 * math.sqrt(math.log(N)) / np.sqrt(m)
    return float(out) if np.ndim(out) == 0 else out


def delta_hat(m, k, N, c=1.0):
    """``delta_hat = delta / (1 - delta)`` (TMLR 2023, Lemma A.8); ``ValueError`` if ``delta >= 1``
    (the lemmas are then vacuous: ``(28)`` gives no bound on the inverse Gram matrix)."""
    dl = np.asarray(delta(m, k, N, c), float)
    if np.any(dl >= 1):
        raise ValueError(f"delta = c k^1.5 sqrt(log N)/sqrt(m) must be < 1 for delta_hat; got max "
                         f"{float(np.max(dl)):.3g} (`m` too small or `c`={c} too large)")
    out = dl / (1 - dl)
    return float(out) if out.ndim == 0 else out


def _nonneg(x, name):
    return check_finite_array(x, name, 0)


def _ret(out, what, **params):
    """``out`` as a float (0-d) or array, after checking it is finite (a float64 overflow raises ValueError)."""
    with np.errstate(over="ignore", invalid="ignore"):
        out = np.asarray(out, float)
    check_finite_result(out, what, **params)
    return float(out) if out.ndim == 0 else out


def lemma_a5_bound(dlt, W_star_norm2, dist):
    """Right side of (36): ``delta^2 ||W*||_2^2 dist^2`` (Tziotis et al., TMLR 2023, Lemma A.5), the bound on
    ``sum_i ||H_i w_i*||_2^2``. ``dlt`` from :func:`delta`, ``W_star_norm2`` the spectral norm ``||W*||_2``
    of the participants' heads, ``dist = dist(B_hat, B*)``; all >= 0, broadcast."""
    dlt, W, dist = _nonneg(dlt, "dlt"), _nonneg(W_star_norm2, "W_star_norm2"), _nonneg(dist, "dist")
    with np.errstate(over="ignore", invalid="ignore"):
        out = dlt ** 2 * W ** 2 * dist ** 2
    return _ret(out, "the bound (36)", dlt=dlt, W_star_norm2=W, dist=dist)


def lemma_a6_bound(dlt_hat, dist, w_star_norm):
    """Right side of (51): ``delta_hat dist ||w_i*||`` (TMLR 2023, Lemma A.6), the bound on ``||F_i||``;
    with ``w_star_norm = ||W*||_2`` it is (52), the bound on ``||F||_F``. Inputs >= 0, broadcast."""
    dh, dist, w = _nonneg(dlt_hat, "dlt_hat"), _nonneg(dist, "dist"), _nonneg(w_star_norm, "w_star_norm")
    with np.errstate(over="ignore", invalid="ignore"):
        out = dh * dist * w
    return _ret(out, "the bound (51)", dlt_hat=dh, dist=dist, w_star_norm=w)


def _power(sigma_power):
    p = check_real(sigma_power, "sigma_power", 0, low_open=True, why="2 as printed, 1 sigma-corrected")
    return p


def lemma_a8_bounds(dlt_hat, k, dist, sigma, sigma_power=2):
    """Right sides of (70) and (71) (Tziotis et al., TMLR 2023, Lemma A.8):
    ``(2 sqrt(k) + sigma^p delta_hat, 2 sqrt(k) dist + sigma^p delta_hat)``, the bounds on ``||w_i^+||`` and
    ``||q_i||``; ``sigma_power`` p = 2 as printed, 1 for the sigma-corrected reading (errata item 6: the
    noise term G_i scales like sigma). Inputs >= 0 broadcast; returns a tuple of two floats/arrays."""
    dh, dist, s = _nonneg(dlt_hat, "dlt_hat"), _nonneg(dist, "dist"), _nonneg(sigma, "sigma")
    k = check_int(k, "k", 1)
    p = _power(sigma_power)
    with np.errstate(over="ignore", invalid="ignore"):
        noise = s ** p * dh
        w, q = 2 * math.sqrt(k) + noise, 2 * math.sqrt(k) * dist + noise
    return (_ret(w, "the bound (70)", dlt_hat=dh, sigma=s, sigma_power=p),
            _ret(q, "the bound (71)", dlt_hat=dh, dist=dist, sigma=s, sigma_power=p))


def lemma_a10_bound(dlt_hat, d, k, m, n, dist, sigma, sigma_power=2, c=1.0):
    """Right side of (95) (Tziotis et al., TMLR 2023, Lemma A.10):
    ``c sqrt(d) (dist k + sqrt(k) delta_hat sigma^p + (delta_hat sigma^p)^2) / sqrt(m n)``, the bound on
    ``||lemma_a10_matrix||_2``; ``sigma_power`` p = 2 as printed, 1 sigma-corrected. ``d, k, m, n >= 1``
    integers (m, n may be arrays), the others >= 0."""
    dh, dist, s = _nonneg(dlt_hat, "dlt_hat"), _nonneg(dist, "dist"), _nonneg(sigma, "sigma")
    d, k = check_int(d, "d", 1), check_int(k, "k", 1)
    m, n = check_finite_array(m, "m", 1), check_finite_array(n, "n", 1)
    p = _power(sigma_power)
    c = check_real(c, "c", 0, low_open=True)
    with np.errstate(over="ignore", invalid="ignore"):
        t = dh * s ** p
        out = c * math.sqrt(d) * (dist * k + math.sqrt(k) * t + t ** 2) / np.sqrt(m * n)
    return _ret(out, "the bound (95)", dlt_hat=dh, d=d, k=k, m=m, n=n, dist=dist, sigma=s, sigma_power=p, c=c)


# every public function turns float64 overflows, linear-algebra failures and broadcasting errors
# into ValueErrors naming its parameters (fedtheory._validation.guard_numeric_errors)
_guard_module(globals(), __all__)
