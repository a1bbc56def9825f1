"""Multi-round robustness of Algorithm 1 in lp-proj's linear model (Sec. 5.2 and Table 7).

Han, Li, Lin & Zhang, "A Random Projection Approach to Personalized Federated Learning",
JMLR 25 (2024): Algorithm 1 (lines 7, 8, 12), the three Byzantine attacks of Sec. 4.2 / App. B.3
(the server divides by N, losses over benign clients), and the robustness experiments of
Sec. 5.4 (Table 7: lp-proj-2 collapses under sign-flipping at 50% and 80% malicious clients,
lp-proj-1 survives; tau = 10 for sign-flip, 100 for same-value and Gaussian).

The one-round theory of App. B.3 cannot show divergence. Here Algorithm 1 runs for many rounds
on the linear model with ``Xi_k^T Xi_k = n b I``, where ``f_k(x) = (b/2)||x - w_hat_k||^2 + const``
and, for an orthonormal-row ``P``, both inner problems (line 7, eq. (3)) have exact closed forms:

* p = 2: ``P x = (b P w_hat_k + lam w)/(b + lam)`` and ``(I - P^T P) x = (I - P^T P) w_hat_k``;
  the local step (6) is ``w <- w - eta lam b/(b+lam) (w - P w_hat_k)``, so after R steps
  ``w_R = rho^R w + (1 - rho^R) P w_hat_k`` with ``rho = 1 - eta lam b/(b+lam)``.
* p = 1: the problem separates per coordinate of ``u = P x``:
  ``P x = P w_hat_k + clip(w - P w_hat_k, -lam/b, lam/b)`` (soft-thresholding), so
  ``w - P x = soft(w - P w_hat_k, lam/b)`` and the step ``w <- w - eta lam sign(w - P x)`` moves
  each coordinate by ``eta lam`` towards ``P w_hat_k`` until it is within ``lam/b`` (then it stops).

Sign-flip (malicious ``k`` sends ``-|c_k|`` times its honest message) with full participation:
``w_{t+1} = m_t w_t + v_t`` with the multiplier ``m_t = 1 - beta + beta rho^R (N_b - C_t)/N``,
``C_t = sum_{I_a} |c_k|`` (lp-proj-2; lp-proj-1 has the same law with ``rho^R`` replaced by 1,
because its local steps move ``w`` by at most ``R eta lam`` per coordinate).
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from scipy import integrate, special

from .._validation import guard_module as _guard_module
from .._validation import (check_alloc, check_choice, check_finite_array, check_finite_result, check_instance, check_int,
                           check_iterations, check_matrix, check_real)
from ..random import SeedLike, as_generator
from .algorithms import _attack_messages
from .model import LinearFLProblem

__all__ = ["C_DRAWS", "RobustRunResult", "run_rounds", "personalised_models", "contraction_factor",
           "signflip_multiplier", "signflip_multiplier_mean", "log_abs_shifted_halfnormal_sum",
           "signflip_log_multiplier_mean", "collapse_threshold", "fitted_growth_rates", "lpproj1_loss_bound",
           "norm_envelope", "stationary_norm_bound"]

#: How a malicious client's attack draw is refreshed: a new draw every round (what
#: ``run_algorithm1`` does and what "each round, a Byzantine client sends" reads as) or one draw kept
#: for the whole run.
C_DRAWS = ("per-round", "fixed")
_ATTACKS = (None, "same-value", "sign-flip", "gaussian")


# ----------------------------------------------------------------------------- closed forms
def contraction_factor(eta, lam, b=1.0):
    """Per-local-step contraction of lp-proj-2 in the linear model, ``rho = 1 - eta lam b/(b + lam)``.

    Han et al. (2024), Algorithm 1 line 8 / eq. (6) with the exact inner solve of (3) when
    ``Xi_k^T Xi_k = n b I`` and ``P`` has orthonormal rows: ``w - P x = b (w - P w_hat_k)/(b + lam)``.
    Broadcasts; ``eta > 0``, ``lam >= 0``, ``b > 0``.
    """
    eta = check_finite_array(eta, "eta", 0, low_open=True)
    lam = check_finite_array(lam, "lam", 0)
    b = check_finite_array(b, "b", 0, low_open=True)
    return check_finite_result(_out(1 - eta * lam * b / (b + lam)), "rho", "eta", "lam", "b")


def _out(x):
    x = np.asarray(x, dtype=float)
    return float(x) if x.ndim == 0 else x


def _check_rho(rho):
    return check_finite_array(rho, "rho", 0, 1, low_open=True,
                              why="rho = 1 - eta lam b/(b+lam) must lie in (0, 1], i.e. eta lam b/(b+lam) < 1; "
                                  "use rho = 1 for lp-proj-1's global multiplier")


def _check_counts(N, N_a):
    N = check_finite_array(N, "N", 2, integer=True)
    N_a = check_finite_array(N_a, "N_a", 0, integer=True)
    if np.any(np.broadcast_to(N_a, np.broadcast_shapes(N.shape, N_a.shape))
              >= np.broadcast_to(N, np.broadcast_shapes(N.shape, N_a.shape))):
        raise ValueError(f"`N_a` must be in [0, N - 1] (at least one benign client); got N_a={N_a!r}, N={N!r}")
    return N, N_a


#: domain of the quadrature of :func:`log_abs_shifted_halfnormal_sum` (accurate to ~1e-10 inside it, checked against
#: direct integration; beyond |a| ~ 1e4 tau the oscillatory head integral loses accuracy, below tau ~ 1e-155 the
#: integration range overflows, and QUADPACK's Fourier integral crashes for |a| near the float64 underflow)
_ELOG_MAX_RATIO = 1000.0
_ELOG_MAX_TAU = 1e12
_ELOG_MIN_TAU = 1e-150
_ELOG_MIN_ABS_A = 1e-300
_ELOG_MAX_N = 10 ** 9


def _check_elog_domain(a, tau, n, who):
    """Refuse inputs outside the domain where the quadrature of ``E log|a - tau S|`` is accurate."""
    a, tau, n = np.broadcast_arrays(a, tau, n)
    if not np.all(np.isfinite(a)):
        raise ValueError(f"the shift a = N_b + N (1 - beta)/(beta rho^R) is not finite in float64: {who} too extreme")
    if np.any((tau > _ELOG_MAX_TAU) | ((tau > 0) & (tau < _ELOG_MIN_TAU))):
        raise ValueError(f"`tau` must be 0 or in [{_ELOG_MIN_TAU:g}, {_ELOG_MAX_TAU:g}] (quadrature domain); got "
                         f"tau in [{float(tau.min())!r}, {float(tau.max())!r}]")
    tiny = (a != 0) & (np.abs(a) < _ELOG_MIN_ABS_A)
    if np.any(tiny):
        raise ValueError(f"|a| must be 0 or >= {_ELOG_MIN_ABS_A:g} (quadrature domain); got a={float(a[tiny][0])!r} "
                         f"({who})")
    if np.any(n > _ELOG_MAX_N):
        raise ValueError(f"the number of malicious clients `n` must be <= {_ELOG_MAX_N} (quadrature domain); "
                         f"got {int(n.max())} ({who})")
    bad = (tau > 0) & (n > 0) & (np.abs(a) > _ELOG_MAX_RATIO * tau)
    if np.any(bad):
        i = np.unravel_index(int(np.argmax(bad)), bad.shape)
        raise ValueError(f"|a| must be <= {_ELOG_MAX_RATIO:g} tau where the quadrature is accurate; got "
                         f"a={float(a[i])!r}, `tau`={float(tau[i])!r} ({who})")


def signflip_multiplier(C, rho, R, N, N_a, beta=1.0):
    """Per-round multiplier of the global iterate under sign-flipping, given the realised
    ``C = sum_{k in I_a} |c_k|``: ``m = 1 - beta + beta rho^R (N_b - C)/N``, ``N_b = N - N_a``.

    Han et al. (2024), Algorithm 1 line 12 with the sign-flip attack of Sec. 4.2 and the honest local
    output ``rho^R w_t + (1 - rho^R) P w_hat_k`` (spec sec. 4.6, implementer note). ``C >= 0``,
    ``rho`` in (0, 1], ``R >= 1``, ``N >= 2``, ``0 <= N_a < N``, ``beta`` in (0, 1]. Broadcasts.
    """
    C = check_finite_array(C, "C", 0)
    rho = _check_rho(rho)
    R = check_finite_array(R, "R", 1, integer=True)
    N, N_a = _check_counts(N, N_a)
    beta = check_finite_array(beta, "beta", 0, 1, low_open=True)
    return check_finite_result(_out(1 - beta + beta * rho ** R * (N - N_a - C) / N), "the multiplier",
                               "C", "rho", "R", "N", "N_a", "beta")


def signflip_multiplier_mean(rho, R, N, N_a, tau, beta=1.0):
    """``E m = 1 - beta + beta rho^R (N_b - N_a tau sqrt(2/pi))/N`` (``E|c| = tau sqrt(2/pi)`` for
    ``c ~ N(0, tau^2)``, Sec. 4.2). Same domains as :func:`signflip_multiplier`, ``tau >= 0``."""
    rho = _check_rho(rho)
    R = check_finite_array(R, "R", 1, integer=True)
    N, N_a = _check_counts(N, N_a)
    tau = check_finite_array(tau, "tau", 0)
    beta = check_finite_array(beta, "beta", 0, 1, low_open=True)
    return check_finite_result(_out(1 - beta + beta * rho ** R * (N - N_a - N_a * tau * math.sqrt(2 / math.pi)) / N),
                               "the mean multiplier", "rho", "R", "N", "N_a", "tau", "beta")


@functools.lru_cache(maxsize=4096)
def _elog_scalar(a: float, tau: float, n: int) -> float:
    if n == 0 or tau == 0:
        return math.log(abs(a)) if a != 0 else -math.inf
    a_abs = abs(a)

    def psi(t):  # E exp(-i t tau S) = conj(phi(tau t))^n, phi the half-normal characteristic function
        u = tau * t
        phi = np.exp(-u * u / 2) + 1j * (2 / math.sqrt(math.pi)) * special.dawsn(u / math.sqrt(2))
        return np.conj(phi) ** n

    def f(t):
        if t == 0:
            return 0.0
        return (math.exp(-t) - float(np.real(np.exp(1j * a_abs * t) * psi(t)))) / t

    A = 60.0 / tau
    edges = np.linspace(0.0, A, 21)
    head = sum(integrate.quad(f, lo, hi, limit=500, epsabs=1e-13, epsrel=1e-12)[0]
               for lo, hi in zip(edges[:-1], edges[1:]))
    re_part = lambda t: float(np.real(psi(t))) / t  # noqa: E731
    im_part = lambda t: float(np.imag(psi(t))) / t  # noqa: E731
    if a_abs > 0:
        tail_c = integrate.quad(re_part, A, np.inf, weight="cos", wvar=a_abs, limlst=200)[0]
        tail_s = integrate.quad(im_part, A, np.inf, weight="sin", wvar=a_abs, limlst=200)[0]
    else:
        tail_c, tail_s = integrate.quad(re_part, A, np.inf, limit=500)[0], 0.0
    return head + float(special.exp1(A)) - (tail_c - tail_s)


def log_abs_shifted_halfnormal_sum(a, tau, n):
    """``E log|a - tau S|`` with ``S = sum_{i<=n} |z_i|``, ``z_i`` iid ``N(0, 1)``.

    Exact up to quadrature error (about 1e-10): by Frullani's integral
    ``log|y| = int_0^inf (e^{-t} - cos(y t))/t dt``, so
    ``E log|Y| = int_0^inf (e^{-t} - Re E e^{i t Y})/t dt``, with the half-normal characteristic
    function ``E e^{i u |z|} = e^{-u^2/2} + i (2/sqrt(pi)) D(u/sqrt(2))`` (``D`` = Dawson's integral,
    ``scipy.special.dawsn``); the tail beyond ``t = 60/tau`` is integrated with QAWF
    (Fourier weights). Used for the almost-sure growth rate of the sign-flip multiplier
    (Han et al. 2024, Sec. 4.2 attack with ``c_k ~ N(0, tau^2)`` redrawn each round).

    ``a`` real, ``tau >= 0``, integer ``n >= 0``; broadcasts (one quadrature per distinct point).
    At ``a = 0`` exactly (not reached by the sign-flip rates, where ``a >= N_b >= 1``) the integrand's
    log singularity at the origin of the law costs accuracy: about 1e-4 absolute at ``n = 2``.
    """
    a = check_finite_array(a, "a")
    tau = check_finite_array(tau, "tau", 0)
    n = check_finite_array(n, "n", 0, integer=True)
    _check_elog_domain(a, tau, n, "`a`, `tau`, `n`")
    A, Tau, Nn = np.broadcast_arrays(a, tau, n)
    check_alloc(A.size, "the quadrature points", size=A.size)
    out = np.array([_elog_scalar(float(x), float(s), int(k)) for x, s, k in zip(A.ravel(), Tau.ravel(), Nn.ravel())])
    return _out(out.reshape(A.shape))


def signflip_log_multiplier_mean(rho, R, N, N_a, tau, beta=1.0):
    """Almost-sure per-round growth rate of the global iterate under sign-flipping with ``c_k`` redrawn
    every round: ``E log|m|``, ``m = 1 - beta + beta rho^R (N_b - C)/N``, ``C = tau sum_{I_a}|z_k|``.

    For a product of i.i.d. multipliers, ``(1/T) log|m_1 ... m_T| -> E log|m|`` almost surely, so
    the iterate diverges geometrically (a.s.) when this is > 0 and the affine recursion
    ``w_{t+1} = m_t w_t + v_t`` is stable when it is < 0 (Kesten). Computed as
    ``log(beta rho^R/N) + E log|a - tau S|`` with ``a = N_b + N(1 - beta)/(beta rho^R)``
    (:func:`log_abs_shifted_halfnormal_sum`). Han et al. (2024), Sec. 4.2 / 5.4 (Table 7).
    Same domains as :func:`signflip_multiplier_mean`; ``rho = 1`` gives lp-proj-1's rate.
    """
    rho = _check_rho(rho)
    R = check_finite_array(R, "R", 1, integer=True)
    N, N_a = _check_counts(N, N_a)
    tau = check_finite_array(tau, "tau", 0)
    beta = check_finite_array(beta, "beta", 0, 1, low_open=True)
    scale = beta * rho ** R
    a = N - N_a + N * (1 - beta) / scale
    _check_elog_domain(np.where(scale > 0, a, np.inf), tau, N_a, "`rho`, `R`, `N`, `N_a`, `beta`")
    return check_finite_result(_out(np.log(scale / N) + log_abs_shifted_halfnormal_sum(a, tau, N_a)), "the growth rate",
                               "rho", "R", "N", "N_a", "tau", "beta")


def collapse_threshold(rho, R, N, tau, beta=1.0):
    """Smallest number of malicious clients ``N_a`` in ``1..N-1`` whose sign-flip growth rate
    :func:`signflip_log_multiplier_mean` is > 0 (the global iterate diverges a.s.), or ``N`` if none.
    Scalars only: ``rho`` in (0, 1], ``R >= 1``, ``N >= 2``, ``tau >= 0``, ``beta`` in (0, 1]."""
    rho = float(_check_rho(check_real(rho, "rho")))
    R = check_int(R, "R", 1)
    N = check_int(N, "N", 2, 10_000, why="one quadrature per candidate N_a in 1..N-1")
    tau = check_real(tau, "tau", 0)
    beta = check_real(beta, "beta", 0, 1, low_open=True)
    rates = signflip_log_multiplier_mean(rho, R, N, np.arange(1, N), tau, beta)
    hit = np.nonzero(np.atleast_1d(rates) > 0)[0]
    return int(hit[0] + 1) if hit.size else N


def lpproj1_loss_bound(w_hat, W, lam, b, sigma, d_sub: int, N_a: int = 0):
    """Bound on lp-proj-1's benign test loss that holds for every global model ``w`` (any attack).

    With orthonormal-row ``P``, the exact inner solution of (3) with p = 1 satisfies
    ``P x_k = P w_hat_k + clip(w - P w_hat_k, -lam/b, lam/b)`` and ``(I - P^T P)(x_k - w_hat_k) = 0``,
    so ``||x_k - w_hat_k|| <= sqrt(d_sub) lam/b`` and the benign-average loss (eq. (35), test noise
    averaged) is at most ``sigma^2/2 + (b/2) mean_{k benign} (||w_hat_k - w_k|| + sqrt(d_sub) lam/b)^2``.

    ``w_hat`` (..., N, d), ``W`` (N, d) finite, ``lam >= 0``, ``b > 0``, ``sigma >= 0``, ``d_sub >= 1``,
    ``0 <= N_a < N``. Returns one bound per leading index of ``w_hat``.
    """
    W = check_matrix(W, "W", (None, None))
    w_hat = check_matrix(w_hat, "w_hat")
    if w_hat.shape[-2:] != W.shape:
        raise ValueError(f"`w_hat` must have shape (..., N, d) = (..., {W.shape[0]}, {W.shape[1]}); "
                         f"got {w_hat.shape}")
    lam = check_real(lam, "lam", 0)
    b = check_real(b, "b", 0, low_open=True)
    sigma = check_real(sigma, "sigma", 0)
    d_sub = check_int(d_sub, "d_sub", 1, W.shape[1], why=f"d_sub <= d, d={W.shape[1]}")
    N = W.shape[0]
    N_a = check_int(N_a, "N_a", 0, N - 1, why=f"0 <= N_a < N, N={N}")
    err = np.linalg.norm(w_hat[..., : N - N_a, :] - W[: N - N_a], axis=-1)
    return check_finite_result(_out(sigma ** 2 / 2 + b / 2 * np.mean((err + math.sqrt(d_sub) * lam / b) ** 2, axis=-1)),
                               "the loss bound", "w_hat", "W", lam=lam, b=b, sigma=sigma)


def norm_envelope(w0_norm, q, drift, attack_norms, beta, N):
    """Pathwise envelope ``B_0 = ||w_0||``, ``B_{t+1} = q B_t + beta (drift + ||A_t||)/N`` of
    ``||w_t||`` under same-value or Gaussian attacks (messages independent of the iterate).

    With ``A_t`` the sum of the malicious messages of round t, full participation and ``S = N``:
    lp-proj-2: ``q = |1 - beta + beta rho^R N_b/N|``, ``drift = (1 - rho^R)||sum_{I_b} P w_hat_k||``;
    lp-proj-1: ``q = |1 - beta + beta N_b/N|``, ``drift = N_b R eta lam sqrt(d_sub)`` (each local step
    moves every coordinate by at most ``eta lam``). Han et al. (2024), Algorithm 1 line 12.

    ``w0_norm`` (...), ``attack_norms`` (T, ...) finite >= 0; ``q >= 0``, ``drift >= 0``,
    ``beta`` in (0, 1], ``N >= 1``. Returns ``B`` of shape (T+1, ...).
    """
    w0_norm = check_finite_array(w0_norm, "w0_norm", 0)
    attack_norms = check_finite_array(attack_norms, "attack_norms", 0)
    if attack_norms.ndim < 1:
        raise ValueError(f"`attack_norms` must have shape (T, ...); got shape {attack_norms.shape}")
    q = check_finite_array(q, "q", 0)
    drift = check_finite_array(drift, "drift", 0)
    beta = check_real(beta, "beta", 0, 1, low_open=True)
    N = check_int(N, "N", 1)
    shape = np.broadcast_shapes(w0_norm.shape, attack_norms.shape[1:], q.shape, drift.shape)
    out = np.empty((attack_norms.shape[0] + 1,) + shape)
    out[0] = w0_norm
    for t in range(attack_norms.shape[0]):
        out[t + 1] = q * out[t] + beta * (drift + attack_norms[t]) / N
    return check_finite_result(out, "the norm envelope", "attack_norms", q=q, drift=drift)


def stationary_norm_bound(q, drift, tau, N_a, d_sub, beta, N):
    """Bound on ``limsup_t E||w_t||`` under same-value or Gaussian attacks:
    ``beta (drift + tau sqrt(N_a d_sub))/(N (1 - q))``, using
    ``E||A_t|| <= sqrt(E||A_t||^2) = tau sqrt(N_a d_sub)`` for both attacks (same-value:
    ``A_t = (sum c_k) 1``; Gaussian: ``A_t ~ N(0, N_a tau^2 I)``), Sec. 4.2. ``q`` in [0, 1),
    other arguments as in :func:`norm_envelope`. Broadcasts."""
    q = check_finite_array(q, "q", 0, 1, high_open=True, why="the envelope contracts only for q < 1")
    drift = check_finite_array(drift, "drift", 0)
    tau = check_finite_array(tau, "tau", 0)
    N_a = check_finite_array(N_a, "N_a", 0, integer=True)
    d_sub = check_finite_array(d_sub, "d_sub", 1, integer=True)
    beta = check_finite_array(beta, "beta", 0, 1, low_open=True)
    N = check_finite_array(N, "N", 1, integer=True)
    return check_finite_result(_out(beta * (drift + tau * np.sqrt(N_a * d_sub)) / (N * (1 - q))), "the bound",
                               "q", "drift", "tau", "N_a", "d_sub", "beta", "N")


def fitted_growth_rates(history, t0: int):
    """Per-replicate growth rate ``(log||w_T|| - log||w_{t0}||)/(T - t0)`` of a history (T+1, reps, d)
    (or (T+1, d)); ``0 <= t0 < T``. Non-positive norms give ``-inf``."""
    history = check_matrix(history, "history")
    if history.ndim < 2:
        raise ValueError(f"`history` must have shape (T+1, ..., d); got shape {history.shape}")
    T = history.shape[0] - 1
    t0 = check_int(t0, "t0", 0, T - 1, why=f"t0 < T, T={T} rounds in `history`")
    with np.errstate(divide="ignore"):
        lg = np.log(np.linalg.norm(history, axis=-1))
    return _out((lg[T] - lg[t0]) / (T - t0))


# ----------------------------------------------------------------------------- exact runner
def personalised_models(w, w_hat, P, lam, b, p: int = 2):
    """Exact inner solutions ``x_k`` of (3) at the global model ``w`` in the linear model
    (``f_k(x) = (b/2)||x - w_hat_k||^2 + const``, orthonormal-row ``P``).

    p = 2: ``x_k = w_hat_k + P^T(lam (w - P w_hat_k)/(b + lam))``;
    p = 1: ``x_k = w_hat_k + P^T clip(w - P w_hat_k, -lam/b, lam/b)`` (soft-thresholding).
    ``w`` (..., d_sub) or (..., N, d_sub), ``w_hat`` (..., N, d), ``P`` (d_sub, d) with orthonormal rows,
    ``lam >= 0`` (> 0 for p = 1), ``b > 0``. Han et al. (2024), eq. (3) and App. B.1.
    """
    check_choice(p, "p", (1, 2))
    w_hat = check_matrix(w_hat, "w_hat")
    if w_hat.ndim < 2:
        raise ValueError(f"`w_hat` must have shape (..., N, d); got shape {w_hat.shape}")
    P = check_matrix(P, "P", (None, None))
    if P.shape[1] != w_hat.shape[-1]:
        raise ValueError(f"`P` (d_sub, d) and `w_hat` (..., N, d) must agree in d; got shapes {P.shape} and "
                         f"{w_hat.shape}")
    P = _check_orthonormal(P)
    w = check_matrix(w, "w")
    if w.ndim < 1 or w.shape[-1] != P.shape[0]:
        raise ValueError(f"`w` must have last dimension d_sub={P.shape[0]}; got shape {w.shape}")
    lam = check_real(lam, "lam", 0, low_open=(p == 1))
    b = check_real(b, "b", 0, low_open=True)
    if w.ndim == 1 or w.shape[-2] != w_hat.shape[-2] or w.ndim < w_hat.ndim:
        w = w[..., None, :]
    a = _matmul(w_hat, P.T)
    shift = _proj_shift(w, a, lam, b, p)
    return check_finite_result(w_hat + _matmul(shift, P), "the personalised models", "w", "w_hat", lam=lam, b=b)


def _proj_shift(w, a, lam, b, p):
    """``P x - P w_hat`` at global ``w`` for projected estimates ``a = P w_hat``."""
    if p == 2:
        return lam * (w - a) / (b + lam)
    return np.clip(w - a, -lam / b, lam / b)


def _matmul(a, M):
    return (a.reshape(-1, a.shape[-1]) @ M).reshape(a.shape[:-1] + (M.shape[1],))


def _check_orthonormal(P):
    if not np.allclose(P @ P.T, np.eye(P.shape[0]), atol=1e-10):
        raise ValueError("`P` must have orthonormal rows (P P^T = I), as in Sec. 4.2 of the paper")
    return P


@dataclass(frozen=True, eq=False)
class RobustRunResult:
    """Output of :func:`run_rounds`, vectorised over ``reps`` replicates.

    ``history`` (T+1, reps, d_sub): global iterates ``w_t``; ``losses`` (T+1, reps): benign-average
    test loss (eq. (35), test noise averaged) of the exact personalised models at ``w_t``;
    ``attack_scale`` (T, reps): the realised ``C_t = sum_{I_a}|c_k|`` (sign-flip; NaN otherwise);
    ``attack_norm`` (T, reps): ``||A_t||``, the norm of the summed malicious messages (0 without attack);
    ``params``: the run's settings (including ``rho``)."""

    history: np.ndarray
    losses: np.ndarray
    attack_scale: np.ndarray
    attack_norm: np.ndarray
    params: dict

    def multipliers(self) -> np.ndarray:
        """Predicted sign-flip multipliers ``m_t`` (T, reps) from the realised ``C_t``
        (lp-proj-2: ``rho^R``; lp-proj-1: 1)."""
        q = self.params
        if q["attack"] != "sign-flip" or not q["N_a"]:
            raise ValueError("`multipliers` needs a sign-flip run with N_a >= 1")
        rho = q["rho"] if q["p"] == 2 else 1.0
        return 1 - q["beta"] + q["beta"] * rho ** q["R"] * (q["N"] - q["N_a"] - self.attack_scale) / q["N"]

    def summary(self) -> str:
        q = self.params
        fin = self.losses[-1]
        return (f"RobustRunResult(p={q['p']}, attack={q['attack']}, N_a={q['N_a']}/{q['N']}, tau={q['tau']:g}, "
                f"T={q['T']}, R={q['R']}, eta={q['eta']:g}, lam={q['lam']:g}, rho={q['rho']:.4g}, reps={q['reps']}, "
                f"c_draw={q['c_draw']}; final benign loss median {np.median(fin):.4g}, max {np.max(fin):.4g})")

    __repr__ = summary


def run_rounds(problem: LinearFLProblem, lam: float, *, p: int = 2, T: int = 50, R: int = 5, eta: float = 0.1,
               beta: float = 1.0, attack: str | None = None, N_a: int = 0, tau: float = 0.0,
               c_draw: str = "per-round", reps: int = 1, w_hat=None, w0=None,
               seed: SeedLike = 0) -> RobustRunResult:
    """Run Algorithm 1 for ``T`` rounds exactly in the linear model, vectorised over clients and replicates.

    Han et al. (2024), Algorithm 1 with full participation (S = N), exact inner solves of (3)
    (:func:`personalised_models`; p = 1 by soft-thresholding, which the ADMM solver
    ``admm_l1_inner`` reaches), ``R`` local steps (line 8), ``w <- (1 - beta) w + beta (sum of the N
    messages)/N`` (line 12). The last ``N_a`` clients are malicious and replace their message as in
    Sec. 4.2 (``_attack_messages``: same-value ``c 1``, sign-flip ``-|c|`` times the honest
    message, Gaussian ``N(0, tau^2 I)``); ``c_draw="per-round"`` draws the attack afresh every round
    (as ``run_algorithm1``), ``"fixed"`` draws it once. For the same inputs (``w_hat = h/b`` of the same
    data, the same ``seed``, S = N) the numbers equal ``run_algorithm1``'s, up to rounding and the
    exact (rather than ADMM) inner solve for p = 1.

    ``w_hat`` (reps, N, d) or (N, d) (default: drawn from ``problem`` with ``seed``, exact in law),
    ``w0`` (d_sub,) or (reps, d_sub) (default 0). ``lam > 0``, ``eta > 0``, ``beta`` in (0, 1],
    ``T, R, reps >= 1``, ``0 <= N_a < N``, ``tau >= 0``; ``P`` must have orthonormal rows.
    Raises a ``ValueError`` if the iterate overflows float64 (reduce ``T``).
    """
    check_instance(problem, "problem", LinearFLProblem)
    check_choice(p, "p", (1, 2))
    lam = check_real(lam, "lam", 0, low_open=True)
    T = check_int(T, "T", 1)
    R = check_int(R, "R", 1)
    eta = check_real(eta, "eta", 0, low_open=True)
    beta = check_real(beta, "beta", 0, 1, low_open=True)
    check_choice(attack, "attack", _ATTACKS)
    N, d, d_sub, b = problem.N, problem.d, problem.d_sub, problem.b
    N_a = check_int(N_a, "N_a", 0, N - 1, why=f"0 <= N_a < N, N={N} clients in `problem`")
    N_a = 0 if attack is None else N_a
    tau = check_real(tau, "tau", 0, why="attack standard deviation")
    check_choice(c_draw, "c_draw", C_DRAWS)
    reps = check_int(reps, "reps", 1)
    P = _check_orthonormal(problem.P)
    check_iterations(T * R, "Algorithm 1 (T rounds of R local steps)", T=T, R=R)
    rng = as_generator(seed)
    if w_hat is None:
        check_alloc(reps * N * d, "the estimates (reps x N x d)", reps=reps, N=N, d=d)
        w_hat = problem.sample_w_hat(rng, reps)
    else:
        w_hat = check_matrix(w_hat, "w_hat")
        if w_hat.ndim == 2:
            w_hat = w_hat[None]
        if w_hat.shape != (reps, N, d):
            raise ValueError(f"`w_hat` must have shape (reps, N, d) = ({reps}, {N}, {d}) or (N, d); "
                             f"got shape {w_hat.shape}")
    check_alloc((T + 1) * reps * d_sub, "the history (T+1 x reps x d_sub)", T=T, reps=reps, d_sub=d_sub)
    w = np.zeros((reps, d_sub))
    if w0 is not None:
        w0 = check_matrix(w0, "w0")
        if w0.shape not in ((d_sub,), (reps, d_sub)):
            raise ValueError(f"`w0` must have shape (d_sub,) = ({d_sub},) or (reps, d_sub); got shape {w0.shape}")
        w = w + w0
    a = _matmul(w_hat, P.T)                                   # P w_hat_k, (reps, N, d_sub)
    PW = problem.W @ P.T
    err = w_hat - problem.W
    comp = np.einsum("snd,snd->sn", err, err) - np.einsum("snd,snd->sn", a - PW, a - PW)  # complement part
    N_b = N - N_a
    rho = 1 - eta * lam * b / (b + lam)
    hist = np.empty((T + 1, reps, d_sub))
    losses = np.empty((T + 1, reps))
    C = np.full((T, reps), np.nan)
    A_norm = np.zeros((T, reps))
    sigma2 = problem.sigma ** 2

    a_b = a[:, :N_b]
    err_b = a_b - PW[:N_b]                                    # P w_hat_k - P w_k of the benign clients
    comp_b = comp[:, :N_b].sum(1)

    def loss(wt):
        diff = err_b + _proj_shift(wt[:, None, :], a_b, lam, b, p)
        return sigma2 / 2 + b / 2 * (np.einsum("skd,skd->s", diff, diff) + comp_b) / N_b

    hist[0], losses[0] = w, loss(w)
    with np.errstate(over="ignore", invalid="ignore"):
        _rounds(T, R, N, N_a, N_b, p, eta, lam, b, beta, attack, tau, c_draw, rng, a, w, hist, losses, C, A_norm, loss)
    if not np.all(np.isfinite(losses)):
        raise ValueError(f"the benign losses overflow float64 (the iterate diverges): reduce `T`={T} (eta={eta!r}, "
                         f"lam={lam!r}, beta={beta!r}, tau={tau!r}, w_hat, w0)")
    return RobustRunResult(history=hist, losses=losses, attack_scale=C, attack_norm=A_norm,
                           params=dict(p=p, lam=lam, T=T, R=R, eta=eta, beta=beta, attack=attack, N_a=N_a, tau=tau,
                                       c_draw=c_draw, reps=reps, N=N, d=d, d_sub=d_sub, b=b, rho=rho))


def _rounds(T, R, N, N_a, N_b, p, eta, lam, b, beta, attack, tau, c_draw, rng, a, w, hist, losses, C, A_norm, loss):
    fixed = None
    rho_R = (1 - eta * lam * b / (b + lam)) ** R
    for t in range(T):
        if p == 2:  # R steps w <- w - eta lam b (w - P w_hat_k)/(b + lam) (exact inner solves): an affine recursion
            wk = a + rho_R * (w[:, None, :] - a)
        else:       # each coordinate moves by eta lam towards P w_hat_k while |w - P w_hat_k| > lam/b
            wk = np.repeat(w[:, None, :], N, axis=1)
            for _ in range(R):
                e = wk - a
                wk = wk - eta * lam * np.sign(e - np.clip(e, -lam / b, lam / b))
        total = wk[:, :N_b].sum(axis=1)
        if N_a:
            honest = wk[:, N_b:]
            if attack == "sign-flip":
                c = tau * rng.standard_normal(honest.shape[:-1] + (1,)) if (fixed is None or c_draw == "per-round") \
                    else fixed
                fixed = c
                msgs = -np.abs(c) * honest
                C[t] = np.abs(c).sum(axis=(1, 2))
            else:
                msgs = _attack_messages(rng, attack, honest, tau) if (fixed is None or c_draw == "per-round") \
                    else fixed
                fixed = msgs
            A = msgs.sum(axis=1)
            A_norm[t] = np.linalg.norm(A, axis=-1)
            total = total + A
        w = (1 - beta) * w + beta * total / N
        if not np.all(np.isfinite(w)):
            raise ValueError(f"the global iterate overflowed float64 at round {t + 1} (it diverges): reduce `T`={T} "
                             f"(attack={attack!r}, N_a={N_a}, tau={tau!r}, p={p}, eta={eta!r}, lam={lam!r}, "
                             f"beta={beta!r}; or w_hat, w0 too large)")
        hist[t + 1], losses[t + 1] = w, loss(w)


# every public function turns float64 overflows, linear-algebra failures and broadcasting errors
# into ValueErrors naming its parameters (fedtheory._validation.guard_numeric_errors)
_guard_module(globals(), __all__)
