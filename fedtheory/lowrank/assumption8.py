"""Assumptions (7)-(8) of FedLRGD: invertibility and conditioning of the node matrix ``G^(i)``.

Jadbabaie, Makur and Shah, "Federated Optimization of Smooth Loss Functions", IEEE Trans. Inf. Theory 2023,
Section II-B, assumptions 4) and 5): ``G^(i)_{jk} = g_i(y^(j); vartheta^(k))`` (7) is invertible and
``||(G^(i))^{-1}||_op <= r^alpha`` (8) for an absolute ``alpha >= 1``.

Two instances are provided.

``brownian_*``: a loss built so that (8) holds with a fixed alpha. Data ``x in [0, 1]`` (d = 1), one
parameter ``theta in [0, 1]`` (p = 1, compact, as in Appendix A)::

    f(x; theta) = int_0^theta min(x, t) dt + mu theta^2 / 2,    g(x; theta) = min(x, theta) + mu theta.

It is an instance of Section II-B: ``d g / d theta = 1{theta < x} + mu`` lies in ``[mu, 1 + mu]``, so ``f`` is
``mu``-strongly convex (5) with ``L1 = 1 + mu`` (4); ``g(.; theta)`` is 1-Lipschitz in ``x``, i.e. of Hoelder class
``(eta, L2) = (1, 1)`` (6) with ``l = 0``; ``|g| <= 1 + mu`` (9). With the server's parameters equal to its data
(``vartheta^(k) = x^(0,k)``, allowed: "the server arbitrarily chooses r parameter values", Sec. III-B), the node
matrix is ``G = M + mu 1 x^T`` with the Brownian covariance ``M_jk = min(x_j, x_k)``. For sorted ``x`` with gaps
``h_j = x_j - x_{j-1}`` (``x_0 = 0``), ``M^{-1} = Q`` is tridiagonal (``Q_jj = 1/h_j + 1/h_{j+1}``, ``Q_rr = 1/h_r``,
``Q_{j,j+1} = -1/h_{j+1}``), ``Q x = e_r`` and ``Q 1 = e_1 / x_1``, so Sherman-Morrison gives the closed form

    G^{-1} = Q - mu / ((1 + mu) x_1) e_1 e_r^T,   ||G^{-1}|| <= 4 / min_j h_j + mu / ((1 + mu) x_1)

(Gershgorin for ``Q``). Nodes separated by ``c / r`` give ``||G^{-1}|| <= C r``: (8) with a fixed alpha.

``logistic_*``: the Appendix A soft-label logistic gradient ``g_i(x, y; theta) = (sigmoid(theta^T x) - y) x_i +
mu theta_i``, analytic in ``(x, y)`` and ``theta``. Its ``sigma_min(G)`` falls below double precision at small
``r``; :func:`logistic_inverse_norm` switches to mpmath there.

The fits (:func:`alpha_fit`) take ``log ||G^{-1}||`` on a grid of ``r`` for independent replicates and return
Student-t intervals across replicates for the log-log slope, the trend of the local exponent, and the
coefficient ``b`` of ``r^(1/k)`` in ``log N = a + c log r + b r^(1/k)`` (``b > 0``: growth faster than every power).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .._validation import (check_alloc, check_finite_array, check_finite_result, check_generator, check_int,
                           check_real)
from .._validation import guard_module as _guard_module

__all__ = ["brownian_loss", "brownian_gradient", "brownian_node_matrix", "brownian_inverse_closed_form",
           "brownian_inverse_bound", "separated_nodes", "inverse_norm", "logistic_node_matrix",
           "logistic_inverse_norm", "InverseNorm", "alpha_fit", "AlphaFit"]


# ----------------------------------------------------------------------------- the Brownian loss
def _unit(x, name):
    return check_finite_array(x, name, 0.0, 1.0, why="data and parameters live in [0, 1]")


def brownian_loss(x, theta, mu: float = 0.1):
    """``f(x; theta) = int_0^theta min(x, t) dt + mu theta^2 / 2`` (broadcasts).

    Closed form: ``theta^2/2`` for ``theta <= x`` and ``x theta - x^2/2`` otherwise, plus ``mu theta^2/2``.
    An instance of Jadbabaie, Makur and Shah (2023), Sec. II-B, with ``L1 = 1 + mu`` and strong convexity ``mu``.
    """
    x, theta = _unit(x, "x"), _unit(theta, "theta")
    mu = check_real(mu, "mu", 0, low_open=True, why="strong convexity (5) needs mu > 0")
    base = np.where(theta <= x, theta ** 2 / 2, x * theta - x ** 2 / 2)
    return base + mu * theta ** 2 / 2


def brownian_gradient(x, theta, mu: float = 0.1):
    """``g(x; theta) = d f / d theta = min(x, theta) + mu theta`` (broadcasts); Hoelder class (1, 1) in ``x`` (6)."""
    x, theta = _unit(x, "x"), _unit(theta, "theta")
    mu = check_real(mu, "mu", 0, low_open=True, why="strong convexity (5) needs mu > 0")
    return np.minimum(x, theta) + mu * theta


def brownian_node_matrix(x, theta=None, mu: float = 0.1):
    """``G_jk = g(x_j; theta_k)`` (7) for the Brownian loss; ``x``, ``theta`` of shape (..., r); ``theta=None``
    means ``theta = x`` (the server's parameters equal its data). Returns shape (..., r, r)."""
    x = _unit(x, "x")
    theta = x if theta is None else _unit(theta, "theta")
    if x.ndim < 1 or x.shape != theta.shape:
        raise ValueError(f"`theta` must have the shape of `x` {x.shape}; got {theta.shape}")
    check_alloc(x.size * x.shape[-1], "the node matrices (... x r x r)", r=x.shape[-1])
    return brownian_gradient(x[..., :, None], theta[..., None, :], mu)


def _sorted_gaps(x):
    x = _unit(x, "x")
    if x.ndim < 1 or x.shape[-1] < 1:
        raise ValueError(f"`x` must have shape (..., r) with r >= 1; got shape {x.shape}")
    xs = np.sort(x, axis=-1)
    h = np.diff(np.concatenate([np.zeros(x.shape[:-1] + (1,)), xs], axis=-1), axis=-1)
    if np.any(h <= 0):
        raise ValueError("`x` must hold distinct points in (0, 1] (assumption 4 needs distinct samples); got a zero gap")
    return xs, h


def brownian_inverse_closed_form(x, mu: float = 0.1):
    """Closed-form ``G^{-1}`` for ``theta = x`` (module docstring): ``Q - mu/((1+mu) x_1) e_1 e_r^T``.

    ``x`` must be sorted ascending, distinct and in (0, 1] (shape (..., r)); returns shape (..., r, r).
    The referee for :func:`brownian_node_matrix` + SVD: it never forms ``G``.
    """
    x = _unit(x, "x")
    mu = check_real(mu, "mu", 0, low_open=True, why="strong convexity (5) needs mu > 0")
    xs, h = _sorted_gaps(x)
    if not np.array_equal(xs, x):
        raise ValueError("`x` must be sorted ascending")
    r = x.shape[-1]
    check_alloc(x.size * r, "the inverse matrices (... x r x r)", r=r)
    inv_h = 1.0 / h
    Q = np.zeros(x.shape + (r,))
    idx = np.arange(r)
    diag = inv_h.copy()
    diag[..., :-1] += inv_h[..., 1:]
    Q[..., idx, idx] = diag
    Q[..., idx[:-1], idx[1:]] = -inv_h[..., 1:]
    Q[..., idx[1:], idx[:-1]] = -inv_h[..., 1:]
    Q[..., 0, r - 1] -= mu / ((1 + mu) * x[..., 0])
    return Q


def brownian_inverse_bound(x, mu: float = 0.1):
    """Provable bound ``||G^{-1}||_op <= 4 / min_j h_j + mu / ((1 + mu) x_(1))`` for ``theta = x`` (Gershgorin on
    the tridiagonal ``Q`` plus the rank-one term), with gaps ``h`` of the sorted ``x`` (``x_0 = 0``)."""
    mu = check_real(mu, "mu", 0, low_open=True, why="strong convexity (5) needs mu > 0")
    xs, h = _sorted_gaps(x)
    return 4.0 / h.min(axis=-1) + mu / ((1 + mu) * xs[..., 0])


def separated_nodes(r: int, reps: int, rng: np.random.Generator, jitter: float = 0.5):
    """Quasi-uniform server data ``x_j = (j - 1/2 + jitter (U_j - 1/2)) / r``, ``U_j ~ U(0,1)`` iid, sorted,
    shape (reps, r): gaps ``>= (1 - jitter)/r`` and ``x_1 >= (1 - jitter)/(2r)``. ``0 <= jitter < 1``."""
    r = check_int(r, "r", 1)
    reps = check_int(reps, "reps", 1)
    rng = check_generator(rng, "rng")
    jitter = check_real(jitter, "jitter", 0, 1, high_open=True, why="jitter >= 1 lets nodes coincide")
    check_alloc(reps * r, "the nodes (reps x r)", reps=reps, r=r)
    j = np.arange(1, r + 1)
    return (j - 0.5 + jitter * (rng.uniform(0, 1, (reps, r)) - 0.5)) / r


# ----------------------------------------------------------------------------- inverse norms
@dataclass(frozen=True)
class InverseNorm:
    """``||G^{-1}||_op`` of one node matrix (max over the coordinates ``i``), with how it was computed.

    ``precision`` is ``"double"`` or the mpmath digits used; ``check_digits`` the digits of the referee run (0 if
    none) and ``rel_change`` the relative change of ``||G^{-1}||`` between the two precisions."""

    value: float
    sigma_max: float
    precision: str
    check_digits: int = 0
    rel_change: float = 0.0

    @property
    def sigma_min(self) -> float:
        return 1.0 / self.value

    def summary(self) -> str:
        ref = f", referee at {self.check_digits} digits changes it by {self.rel_change:.1e}" if self.check_digits else ""
        return (f"||G^-1|| = {self.value:.4e} (sigma_min = {self.sigma_min:.3e}, sigma_max = {self.sigma_max:.3e}), "
                f"precision {self.precision}{ref}")


def inverse_norm(G) -> np.ndarray:
    """``||G^{-1}||_op = 1 / sigma_min(G)`` in double precision for a stack of square matrices (..., r, r); ``inf``
    for a matrix singular in double precision (``sigma_min = 0``), as :func:`logistic_inverse_norm` reports it."""
    G = check_finite_array(G, "G")
    if G.ndim < 2 or G.shape[-1] != G.shape[-2]:
        raise ValueError(f"`G` must be a stack of square matrices (..., r, r); got shape {G.shape}")
    sv = np.linalg.svd(G, compute_uv=False)
    with np.errstate(divide="ignore"):
        return 1.0 / sv[..., -1]


def logistic_node_matrix(X0, nodes, mu: float = 0.1):
    """``G^(i)_{jk} = g_i(x^(0,j), y_j; vartheta^(k))`` for every ``i`` (Appendix A, (66)); shape (p, r, r).

    ``X0`` (r, d): rows ``(x, y)`` in ``[0,1]^(d-1) x [0,1]``; ``nodes`` (r, p) in ``[-1,1]^p``, ``p = d - 1``."""
    X0, nodes = _logistic_inputs(X0, nodes)
    mu = check_real(mu, "mu", 0)
    from .algorithms import LogisticProblem
    return np.moveaxis(LogisticProblem.grads(X0, nodes, mu), 2, 0)


def _logistic_inputs(X0, nodes):
    X0 = check_finite_array(X0, "X0", 0.0, 1.0, ndim=2)
    nodes = check_finite_array(nodes, "nodes", -1.0, 1.0, ndim=2)
    r, d = X0.shape
    if d < 2 or nodes.shape != (r, d - 1):
        raise ValueError(f"`nodes` must have shape (r, d - 1) = ({r}, {d - 1}) for X0 of shape {X0.shape}; "
                         f"got {nodes.shape}")
    return X0, nodes


def _gauss_jordan_inverse(A):
    """Inverse of a square list-of-lists of mpf by Gauss-Jordan elimination with partial pivoting (at the current
    mpmath precision); ``None`` if a pivot is exactly zero. Plain lists: several times faster than ``mp.inverse``."""
    n = len(A)
    M = [list(row) + [1 if i == j else 0 for j in range(n)] for i, row in enumerate(A)]
    for c in range(n):
        p = max(range(c, n), key=lambda i: abs(M[i][c]))
        if M[p][c] == 0:
            return None
        M[c], M[p] = M[p], M[c]
        piv = M[c]
        inv = 1 / piv[c]
        piv[c:] = [v * inv for v in piv[c:]]
        for i in range(n):
            if i != c:
                f = M[i][c]
                if f:
                    row = M[i]
                    row[c:] = [a - f * b for a, b in zip(row[c:], piv[c:])]
    return [row[n:] for row in M]


def _logistic_inverse_mp(X0, nodes, mu, dps):
    """``max_i ||G^(i)^{-1}||`` with ``G`` built and inverted in mpmath at ``dps`` digits (inputs taken as exact)."""
    import mpmath as mp
    r, d = X0.shape
    out = 0.0
    with mp.workdps(dps):
        xs = [[mp.mpf(float(v)) for v in row[:-1]] for row in X0]
        ys = [mp.mpf(float(row[-1])) for row in X0]
        ts = [[mp.mpf(float(v)) for v in row] for row in nodes]
        sig = [[1 / (1 + mp.exp(-mp.fsum(a * b for a, b in zip(xs[j], ts[k])))) - ys[j] for k in range(r)]
               for j in range(r)]
        mmu = mp.mpf(mu)
        for i in range(d - 1):
            Ginv = _gauss_jordan_inverse([[sig[j][k] * xs[j][i] + mmu * ts[k][i] for k in range(r)] for j in range(r)])
            if Ginv is None:
                return math.inf
            A = np.array([[float(v) for v in row] for row in Ginv])
            if not np.all(np.isfinite(A)):
                return math.inf
            out = max(out, float(np.linalg.norm(A, 2)))
    return out


def logistic_inverse_norm(X0, nodes, mu: float = 0.1, *, switch: float = 1e-12, check: bool = False,
                          start_dps: int = 30, max_dps: int = 400) -> InverseNorm:
    """``max_i ||(G^(i))^{-1}||_op`` for the Appendix A gradient, in extended precision where needed.

    Double precision SVD is used when ``sigma_min / sigma_max >= switch``. Otherwise ``G`` is rebuilt and inverted in
    mpmath (inputs read as exact binary numbers) by Gauss-Jordan elimination, starting at ``start_dps`` digits (or
    ``log10`` of the double-precision condition number + 25, if more) and raising the digits until they exceed
    ``log10(cond) + 25``; the inverse is rounded to double and its 2-norm taken (entrywise relative error 1e-16).
    ``check=True`` repeats the mpmath run with 20 more digits (the referee) and records the relative change.
    A matrix singular in exact arithmetic gives ``value = inf`` or a value that keeps growing with the digits.
    """
    X0, nodes = _logistic_inputs(X0, nodes)
    mu = check_real(mu, "mu", 0)
    switch = check_real(switch, "switch", 0, 1)
    max_dps = check_int(max_dps, "max_dps", 30, 5000)
    dps = check_int(start_dps, "start_dps", 30, max_dps)
    G = logistic_node_matrix(X0, nodes, mu)
    sv = np.linalg.svd(G, compute_uv=False)
    smax = float(sv[:, 0].max())
    if np.all(sv[:, -1] >= switch * sv[:, 0]) and not check:
        return InverseNorm(float((1.0 / sv[:, -1]).max()), smax, "double")
    with np.errstate(divide="ignore"):  # the double estimate of cond is a floor for the digits needed
        cond = float(np.max(sv[:, 0] / sv[:, -1]))
    dps = min(max_dps, max(dps, int(math.ceil(math.log10(min(cond, 1e300)))) + 25))
    while True:
        val = _logistic_inverse_mp(X0, nodes, mu, dps)
        need = (math.log10(val * smax) if math.isfinite(val) else dps) + 25
        if need <= dps or dps >= max_dps:
            break
        dps = min(max_dps, max(int(math.ceil(need)), 2 * dps))
    if not check:
        return InverseNorm(val, smax, str(dps))
    ref = _logistic_inverse_mp(X0, nodes, mu, dps + 20)
    rel = abs(ref - val) / ref if math.isfinite(ref) and math.isfinite(val) else math.inf
    return InverseNorm(ref, smax, str(dps), dps + 20, rel)


# ----------------------------------------------------------------------------- the alpha fits
def _tci(samples, level):
    from scipy import stats
    s = np.asarray(samples, float)
    n = s.shape[0]
    m = s.mean(axis=0)
    if n < 2:
        return m, np.full_like(m, -np.inf), np.full_like(m, np.inf)
    se = s.std(axis=0, ddof=1) / math.sqrt(n)
    t = stats.t.ppf(1 - level / 2, n - 1)
    if not np.isfinite(t):  # 1 - level/2 rounds to 1 for level below ~2e-16: the upper tail directly
        t = stats.t.isf(level / 2, n - 1)
    return m, m - t * se, m + t * se


@dataclass(frozen=True)
class AlphaFit:
    """Fits of ``N(r) = ||G^{-1}||`` over replicates (Student-t intervals at ``1 - level`` across replicates).

    ``slope``: log-log slope (a fitted alpha of ``N ~ C r^alpha``); ``alpha_needed``: ``max log N / log r`` over
    all matrices (the smallest alpha for which (8), without a constant, holds on every one); ``local_alpha``: mean
    local exponent ``d log N / d log r`` per interval of the r grid; ``trend``: slope of the local exponent against
    ``log r``; ``exp_coef``: ``b`` in ``log N = a + c log r + b r^(1/k)`` (``b > 0`` is growth faster than every power
    of r); ``ssr_power``, ``ssr_exp``: pooled residual sums of squares of ``a + alpha log r`` and ``a + b r^(1/k)``.
    """

    r: tuple
    k: int
    level: float
    n_reps: int
    slope: tuple
    alpha_needed: float
    alpha_by_r: tuple
    local_alpha: tuple
    trend: tuple
    exp_coef: tuple
    ssr_power: float
    ssr_exp: float
    log_n_mean: tuple = field(repr=False, default=())

    def summary(self) -> str:
        f = lambda t: f"{t[0]:.3g} [{t[1]:.3g}, {t[2]:.3g}]"
        return (f"r = {self.r[0]}..{self.r[-1]} ({self.n_reps} reps, level {self.level:g}): log-log slope {f(self.slope)}; "
                f"alpha needed {self.alpha_needed:.2f}; local alpha {self.local_alpha[0]:.2f} -> {self.local_alpha[-1]:.2f}, "
                f"trend {f(self.trend)} per unit log r; b (r^(1/{self.k})) {f(self.exp_coef)}; SSR power/exp = "
                f"{self.ssr_power:.3g}/{self.ssr_exp:.3g}")


def alpha_fit(r, inv_norm, *, k: int = 1, level: float = 1e-4) -> AlphaFit:
    """Fit ``||G^{-1}||`` against ``r`` (Assumption (8)); ``inv_norm`` of shape (reps, len(r)), reps iid.

    Per replicate: least squares of ``log N`` on ``[1, log r]`` (slope), of the local exponents on ``log r`` (trend),
    and of ``log N`` on ``[1, log r, r^(1/k)]`` (``exp_coef``); intervals are Student-t across replicates at
    two-sided level ``level``. ``k`` is the dimension that sets the exponential rate (for an analytic kernel,
    ``sigma_min`` decays like ``exp(-b r^(1/k))`` with ``k`` the smaller of the data and parameter dimensions).
    Needs at least 4 values of ``r`` (all > 1, increasing) and 2 replicates.
    """
    r = check_finite_array(r, "r", 1, low_open=True, ndim=1)
    if r.size < 4 or np.any(np.diff(r) <= 0):
        raise ValueError(f"`r` must hold at least 4 increasing values > 1; got r={r.tolist()}")
    N = check_finite_array(inv_norm, "inv_norm", 0, low_open=True, ndim=2)
    if N.shape[1] != r.size or N.shape[0] < 2:
        raise ValueError(f"`inv_norm` must have shape (reps >= 2, {r.size}); got {N.shape}")
    k = check_int(k, "k", 1)
    level = check_real(level, "level", 0, 1, low_open=True, high_open=True)
    lr, lN = np.log(r), np.log(N)
    A1 = np.column_stack([np.ones_like(lr), lr])
    slopes = np.linalg.lstsq(A1, lN.T, rcond=None)[0][1]
    loc = np.diff(lN, axis=1) / np.diff(lr)
    mid = 0.5 * (lr[1:] + lr[:-1])
    Am = np.column_stack([np.ones_like(mid), mid])
    trends = np.linalg.lstsq(Am, loc.T, rcond=None)[0][1] if mid.size >= 2 else np.zeros(N.shape[0])
    rk = r ** (1.0 / k)
    A3 = np.column_stack([np.ones_like(lr), lr, rk])
    bs = np.linalg.lstsq(A3, lN.T, rcond=None)[0][2]
    Ae = np.column_stack([np.ones_like(lr), rk])
    ssr = lambda A: float(np.sum((lN.T - A @ np.linalg.lstsq(A, lN.T, rcond=None)[0]) ** 2))
    with np.errstate(divide="ignore", invalid="ignore"):
        a_r = lN / lr
    tup = lambda x: tuple(float(v) for v in x)
    check_finite_result([_tci(slopes, level), _tci(trends, level), _tci(bs, level)],
                        "the Student-t intervals of the fits", "r", "inv_norm", k=k, level=level)
    return AlphaFit(r=tuple(r.tolist()), k=k, level=level, n_reps=N.shape[0], slope=tup(_tci(slopes, level)),
                    alpha_needed=float(a_r.max()), alpha_by_r=tup(a_r.max(axis=0)),
                    local_alpha=tup(loc.mean(axis=0)), trend=tup(_tci(trends, level)), exp_coef=tup(_tci(bs, level)),
                    ssr_power=ssr(A1), ssr_exp=ssr(Ae), log_n_mean=tup(lN.mean(axis=0)))


_guard_module(globals(), __all__)
