"""Closed forms of FedRep's linear analysis.

Source: Collins, Hassani, Mokhtari, Shakkottai, "Exploiting Shared
Representations for Personalized Federated Learning", ICML 2021. Equation and
theorem numbers are the paper's. The text we work from holds the main text only
(no appendix), so every constant here is one the main text states; derivations
that are ours say so.

All functions broadcast over array arguments like ``scipy.special`` and return
a Python float for scalar input.
"""
from __future__ import annotations

import math

import numpy as np

from .._validation import guard_module as _guard_module
from .._validation import (check_alloc, check_choice, check_finite_array, check_finite_result, check_matrix,
                           check_real)

__all__ = [
    "population_objective", "fedavg_minimiser", "fedavg_global_error",
    "theorem1_rate", "theorem1_bound", "theorem1_max_eta", "theorem1_probability",
    "theorem1_rounds_to_eps", "sample_complexity", "SAMPLE_COMPLEXITY_VARIANTS",
    "mom_expectation", "federation_helps_interval", "min_norm_interpolation_risk",
    "ols_excess_risk",
]


def _out(x):
    x = np.asarray(x, dtype=float)
    return float(x) if x.ndim == 0 else x


def _nonneg(x, name):
    a = check_finite_array(x, name)
    if np.any(a < 0):
        raise ValueError(f"`{name}` must be finite and >= 0; got {name}={x!r}")
    return a


def _ground_truth(B_star, W_star, names=("B_star", "W_star")):
    """``B*`` (d x k) and ``W*`` (n x k) as finite float matrices sharing k."""
    Bs = check_matrix(B_star, names[0], (None, None))
    Ws = check_matrix(W_star, names[1], (None, None))
    if Bs.shape[1] != Ws.shape[1]:
        raise ValueError(f"`{names[0]}` (d x k) and `{names[1]}` (n x k) must share k; got shapes "
                         f"{Bs.shape} and {Ws.shape}")
    return Bs, Ws


def population_objective(B, W, B_star, W_star, sigma: float = 0.0) -> float:
    """Population objective (6) under Assumption 1.

    ``F(B, W) = (1/2n) sum_i E[(y_i - w_i^T B^T x_i)^2]
    = (1/2n) sum_i ||B w_i - B* w_i*||^2 + sigma^2/2`` for isotropic ``x``
    (FedRep eqs. (3), (5), (6), Collins et al., ICML 2021; the ``sigma^2/2``
    noise term is ours: the paper's model is noiseless).

    ``B`` (d x k), ``W`` (n x k), ``B_star`` (d x k*), ``W_star`` (n x k*): finite matrices; ``sigma >= 0``.
    """
    Bs, Ws = _ground_truth(B_star, W_star)
    B, W = _ground_truth(B, W, ("B", "W"))
    if B.shape[0] != Bs.shape[0] or W.shape[0] != Ws.shape[0]:
        raise ValueError(f"`B` and `W` must have the rows of `B_star` and `W_star` (d={Bs.shape[0]}, "
                         f"n={Ws.shape[0]}); got shapes {B.shape} and {W.shape}")
    sigma = check_real(sigma, "sigma", 0, why="noise standard deviation")
    check_alloc(Ws.shape[0] * Bs.shape[0], "the n x d matrix W B^T", n=Ws.shape[0], d=Bs.shape[0])
    diff = W @ B.T - Ws @ Bs.T
    out = 0.5 * float(np.mean(np.sum(diff ** 2, axis=1))) + 0.5 * float(sigma) ** 2
    return check_finite_result(out, "the population objective (6)", "B", "W", "B_star", "W_star",
                               sigma=sigma)


def fedavg_minimiser(B_star, W_star) -> np.ndarray:
    """The product ``B w`` at every global minimiser of (4): ``B* (1/n) sum_i w_i*``.

    FedRep Sec. 2.1 (Collins et al., ICML 2021): ``(B, w)`` minimises (4) iff
    ``B w = B* mean_i(w_i*)``. ``B_star`` (d x k) and ``W_star`` (n x k) are finite.
    """
    Bs, Ws = _ground_truth(B_star, W_star)
    return check_finite_result(Bs @ Ws.mean(axis=0), "B* mean(W*)", "B_star", "W_star")


def fedavg_global_error(B_star, W_star) -> float:
    """Minimum of (4): ``(1/2n) sum_i ||(1/n) B* sum_i' (w_i'* - w_i*)||^2``.

    FedRep Sec. 2.1, the sentence after (4) (Collins et al., ICML 2021), written
    exactly as printed (double sum).
    """
    Bs, Ws = _ground_truth(B_star, W_star)
    check_alloc(Ws.shape[0] * Bs.shape[0], "the n x d matrix of differences", n=Ws.shape[0], d=Bs.shape[0])
    n = Ws.shape[0]
    inner = (Ws.sum(axis=0)[None, :] - n * Ws) / n  # (1/n) sum_i' (w_i' - w_i)
    out = 0.5 * float(np.mean(np.sum((inner @ Bs.T) ** 2, axis=1)))
    return check_finite_result(out, "the minimum of (4)", "B_star", "W_star")


def theorem1_rate(eta, E0, sigma_min):
    """Per-round contraction factor of dist in Theorem 1: ``(1 - eta E0 sigma_min^2 / 2)^(1/2)``.

    FedRep Theorem 1, eq. (10) (Collins et al., ICML 2021): ``dist_T <= rate^T dist_0``.
    Returns NaN where ``1 - eta E0 sigma_min^2/2 < 0`` (outside the step-size condition).
    """
    eta = _nonneg(eta, "eta")
    E0 = check_finite_array(E0, "E0")
    if np.any((E0 < 0) | (E0 > 1)):
        raise ValueError(f"`E0` must be in [0, 1] (E0 = 1 - dist0^2); got E0={E0!r}")
    s = _nonneg(sigma_min, "sigma_min")
    inside = 1.0 - eta * E0 * s ** 2 / 2.0
    with np.errstate(invalid="ignore"):
        return _out(np.where(inside >= 0, np.sqrt(np.maximum(inside, 0)), np.nan))


def theorem1_bound(T, dist0, eta, E0, sigma_min):
    """Right side of (10): ``(1 - eta E0 sigma_min^2/2)^(T/2) dist0`` (Theorem 1).

    Examples
    --------
    Rounds 0..3 from ``dist0 = 0.8`` (so ``E0 = 1 - 0.8^2 = 0.36``) with step ``eta = 0.25``:

    >>> import numpy as np
    >>> from fedtheory.representation import theorem1_bound, theorem1_rate
    >>> theorem1_bound(np.arange(4), 0.8, 0.25, 0.36, 1.0)
    array([0.8       , 0.78179281, 0.764     , 0.74661213])
    >>> round(theorem1_rate(0.25, 0.36, 1.0) ** 2 * 0.8, 6)
    0.764
    """
    T = _nonneg(T, "T")
    d0 = check_finite_array(dist0, "dist0")
    if np.any((d0 < 0) | (d0 > 1)):
        raise ValueError(f"`dist0` must be in [0, 1]; got dist0={dist0!r}")
    return _out(np.asarray(theorem1_rate(eta, E0, sigma_min)) ** T * d0)


def theorem1_max_eta(sigma_max):
    """Largest step of Theorem 1: ``1 / (4 sigma_max,*^2)`` (Collins et al., ICML 2021)."""
    s = _nonneg(sigma_max, "sigma_max")
    with np.errstate(divide="ignore"):
        return _out(1.0 / (4.0 * s ** 2))


def theorem1_probability(T, k, rn, d, log_base: float = math.e):
    """Success probability of Theorem 1: ``1 - T exp(-100 min(k^2 log(rn), d))``.

    FedRep Theorem 1 (Collins et al., ICML 2021). The paper does not name the
    base of ``log``; ``log_base`` makes the choice explicit (default natural
    log). The value is clipped below at 0 (the bound is vacuous at ``rn = 1``,
    where it equals ``1 - T``).
    """
    T, k, rn, d = (check_finite_array(a, name) for a, name in ((T, "T"), (k, "k"), (rn, "rn"), (d, "d")))
    log_base = check_real(log_base, "log_base", 0, low_open=True)
    if log_base == 1:
        raise ValueError("`log_base` must be > 0 and != 1; got log_base=1.0")
    if np.any(rn < 1) or np.any(k < 1) or np.any(d < 1) or np.any(T < 0):
        raise ValueError("`T` >= 0, `k` >= 1, `rn` >= 1 and `d` >= 1 are required")
    expo = 100.0 * np.minimum(k ** 2 * np.log(rn) / math.log(log_base), d)
    return _out(np.maximum(1.0 - T * np.exp(-expo), 0.0))


def theorem1_rounds_to_eps(eps, dist0, eta, E0, sigma_min):
    """Smallest ``T`` with ``rate^T dist0 <= eps`` under Theorem 1 (our algebra).

    ``T = ceil( 2 log(dist0/eps) / (-log(1 - eta E0 sigma_min^2/2)) )``; 0 if
    ``dist0 <= eps``; inf if the rate is 1; NaN where the rate is (outside the step-size condition).
    ``eps > 0`` and ``dist0`` in [0, 1].
    """
    rate = np.asarray(theorem1_rate(eta, E0, sigma_min))
    eps = check_finite_array(eps, "eps", 0, low_open=True)
    d0 = check_finite_array(dist0, "dist0", 0, 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        T = np.ceil(np.log(eps / d0) / np.log(rate))
    T = np.where(d0 <= eps, 0.0, np.where(rate >= 1, np.inf, T))
    return _out(T)


SAMPLE_COMPLEXITY_VARIANTS = ("theorem", "intro", "eq11")
_LOG_MAX = math.log(np.finfo(float).max)


def sample_complexity(k, d, n, r=1.0, kappa=1.0, E0=1.0, *, c: float = 1.0,
                      variant: str = "theorem", eps=None):
    """The per-client sample complexity of FedRep, in the paper's three printed forms.

    Source: Collins et al., ICML 2021.

    ``variant="theorem"`` (Theorem 1's condition on the batch size ``m``)
        ``c (kappa^4 k^3 log(rn) / E0^2 + kappa^4 k^2 d / (E0^2 rn))``.
    ``variant="intro"`` (Introduction, contribution (ii); total per client)
        ``c kappa^2 k^3 (log(n) + kappa^2 k d / n)``.
    ``variant="eq11"`` (eq. (11); total per client to reach accuracy ``eps``)
        ``c kappa^4 k^3 (log(rn) + kappa^4 k d / (rn)) log(1/eps)``.

    The three disagree (``eq11``'s second term is ``kappa^8 k^4 d/(rn)``, the
    theorem's ``kappa^4 k^2 d/(E0^2 rn)``); ``c`` is the unspecified absolute
    constant. Natural logarithms. ``eps`` is required for ``eq11`` and, if given
    for ``theorem``, multiplies by ``log(1/eps)`` (the text before (11)).

    Every numeric argument must be finite (broadcasting arrays are accepted); a value that
    overflows float64 raises a ``ValueError`` naming the parameters.
    """
    check_choice(variant, "variant", SAMPLE_COMPLEXITY_VARIANTS)
    check_real(c, "c", 0, low_open=True)
    given = dict(k=k, d=d, n=n, r=r, kappa=kappa, E0=E0)
    k, d, n, r, kappa, E0 = (check_finite_array(v, name) for name, v in given.items())
    if np.any(k < 1) or np.any(d < k):
        raise ValueError("`k` >= 1 and `d` >= k are required")
    if np.any(r <= 0) or np.any(r > 1) or np.any(r * n < 1):
        raise ValueError("`r` must be in (0, 1] with r*n >= 1")
    if np.any(kappa < 1):
        raise ValueError(f"`kappa` must be >= 1; got kappa={kappa!r}")
    if np.any(E0 <= 0) or np.any(E0 > 1):
        raise ValueError(f"`E0` must be in (0, 1]; got E0={E0!r}")
    rn = r * n
    if variant == "theorem":
        out = c * (kappa ** 4 * k ** 3 * np.log(rn) / E0 ** 2 + kappa ** 4 * k ** 2 * d / (E0 ** 2 * rn))
    elif variant == "intro":
        out = c * kappa ** 2 * k ** 3 * (np.log(n) + kappa ** 2 * k * d / n)
    else:
        if eps is None:
            raise ValueError("`eps` in (0, 1) is required for variant='eq11'")
        out = c * kappa ** 4 * k ** 3 * (np.log(rn) + kappa ** 4 * k * d / rn)
    if eps is not None:
        e = check_finite_array(eps, "eps")
        if np.any(e <= 0) or np.any(e >= 1):
            raise ValueError(f"`eps` must be in (0, 1); got eps={eps!r}")
        out = out * np.log(1 / e)
    return _out(check_finite_result(out, "the sample complexity", c=c, eps=eps, **given))


def mom_expectation(B_star, W_star, sigma: float = 0.0, design: str = "gaussian") -> np.ndarray:
    """``E[(1/n) sum_i Z_i]`` for the method-of-moments statistic of Algorithm 2.

    ``Z_i = (1/m) sum_j y_ij^2 x_ij x_ij^T`` with ``y = theta_i^T x + noise``,
    ``theta_i = B* w_i*``. Our derivation (Isserlis' theorem; not in the paper):

    * Gaussian ``x``: ``E Z_i = (||theta_i||^2 + sigma^2) I + 2 theta_i theta_i^T``;
    * Rademacher ``x`` (fourth moment 1 instead of 3):
      ``E Z_i = (||theta_i||^2 + sigma^2) I + 2 theta_i theta_i^T - 2 diag(theta_i^2)``.

    Under Assumption 3 the Gaussian mean is ``(k + sigma^2) I + (2/n) B* W*^T W* B*^T``,
    whose top-``k`` eigenspace is ``col(B*)``.
    """
    check_choice(design, "design", ("gaussian", "rademacher"))
    check_real(sigma, "sigma", 0, why="noise standard deviation")
    Bs, Ws = _ground_truth(B_star, W_star)
    check_alloc(max(Bs.shape[0] ** 2, Ws.shape[0] * Bs.shape[0]), "the d x d moment matrix (and the n x d thetas)",
                d=Bs.shape[0], n=Ws.shape[0])
    theta = Ws @ Bs.T  # (n, d)
    n, d = theta.shape
    mean_norm = float(np.mean(np.sum(theta ** 2, axis=1)))
    out = (mean_norm + sigma ** 2) * np.eye(d) + 2.0 * theta.T @ theta / n
    if design == "rademacher":
        out -= 2.0 * np.diag(np.mean(theta ** 2, axis=0))
    return check_finite_result(out, "E[Z]", "B_star", "W_star", sigma=sigma)


def federation_helps_interval(d: float, C: float = 1.0) -> tuple[float, float]:
    """The range of ``n`` where ``C(log n + d/n) < d`` (FedRep Sec. 4.2, "When and whom
    does federation help?", Collins et al., ICML 2021).

    The paper states federation helps when ``log(n) + d/n << d``, e.g.
    ``1 << n << e^Theta(d)``. Returns the two roots ``(n_lo, n_hi)`` of
    ``C(log n + d/n) = d`` (natural log), found with ``scipy.optimize.brentq``;
    ``n_hi`` grows like ``e^(d/C)``. Requires ``d > C (1 + log d)`` (else the set is
    empty and ``(nan, nan)`` is returned). ``d`` and ``C`` are finite and > 0; an ``n_hi`` beyond
    float64 (``d/C`` above about 709) raises a ``ValueError``.
    """
    from scipy.optimize import brentq

    d = check_real(d, "d", 0, low_open=True)
    C = check_real(C, "C", 0, low_open=True)
    if d / C > _LOG_MAX + 10:
        raise ValueError(f"`d`/`C` too large: the upper end n_hi ~ e^(d/C) of the interval overflows float64 "
                         f"(d/C must be below about 709); got d={d!r}, C={C!r}")
    g = lambda ln_n: C * (ln_n + d * math.exp(-ln_n)) - d  # noqa: E731  (in log n)
    ln_star = math.log(d)  # minimiser of log n + d/n
    if g(ln_star) >= 0:
        return (math.nan, math.nan)
    lo = brentq(g, -50.0, ln_star) if g(-50.0) > 0 else -50.0
    hi = brentq(g, ln_star, d / C + 10.0)
    if hi > _LOG_MAX:
        raise ValueError(f"`d`/`C` too large: the upper end n_hi = e^{hi:.4g} of the interval overflows "
                         f"float64 (d/C must be below about 709); got d={d!r}, C={C!r}")
    return (math.exp(lo), math.exp(hi))


def min_norm_interpolation_risk(d, m, signal_sq):
    """Expected ``||theta_hat - theta||^2`` of the minimum-norm interpolant, noiseless.

    For ``m < d`` Gaussian samples and no noise, ``theta_hat`` is the orthogonal
    projection of ``theta`` onto a uniformly random ``m``-dimensional subspace, so
    ``E||theta_hat - theta||^2 = (1 - m/d) ||theta||^2`` (a standard fact, not from
    the paper; with ``m >= d`` it is 0). This is the Local Only error of FedRep's
    Figures 1 and 4 when labels are noiseless. ``d > 0``, ``m >= 0`` and ``signal_sq >= 0``, finite.
    """
    d = check_finite_array(d, "d", 0, low_open=True)
    m = check_finite_array(m, "m", 0)
    s = check_finite_array(signal_sq, "signal_sq", 0)
    return _out(check_finite_result(np.where(m >= d, 0.0, (1.0 - m / d) * s), "the risk",
                                    d=d, m=m, signal_sq=signal_sq))


def ols_excess_risk(p, m, sigma):
    """``E||theta_hat - theta||^2 = sigma^2 p / (m - p - 1)`` for OLS with ``m > p + 1``
    isotropic Gaussian samples in ``p`` dimensions (a standard inverse-Wishart fact,
    not from the paper). With ``p = k`` it is a new client's risk on the exact
    representation; with ``p = d``, Local Only's. NaN where ``m <= p + 1`` (documented: no finite
    risk there). ``p >= 0``, ``m`` and ``sigma >= 0`` finite.
    """
    p = check_finite_array(p, "p", 0)
    m = check_finite_array(m, "m")
    s = check_finite_array(sigma, "sigma", 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return _out(np.where(m > p + 1, s ** 2 * p / (m - p - 1), np.nan))


# every public function turns float64 overflows, linear-algebra failures and broadcasting errors
# into ValueErrors naming its parameters (fedtheory._validation.guard_numeric_errors)
_guard_module(globals(), __all__)
