"""Closed forms of lp-proj's linear analysis (Section 4.2 and Appendix B).

Source: Han, Li, Lin, Zhang, "A Random Projection Approach to Personalized Federated
Learning", JMLR 25 (2024).

Model (App. B): client k has ``y_k = Xi_k w_k + z_k``, ``z_k ~ N(0, sigma^2 I_n)``, fixed design
with ``Xi_k^T Xi_k = n b I_d``; so ``w_hat_k ~ N(w_k, sigma^2/(b n) I_d)`` and the test loss of
a personalised model ``x_k`` is ``sigma^2/2 + (b/2) E||x_k - w_k||^2`` (eq. 35). One round,
infinitely many local steps, full participation, beta = 1 (Sec. 4.2 "Our Setting").
Byzantine clients (``N_a`` of ``N``) replace their messages; the server divides by ``N`` and
losses are averaged over the ``N_b = N - N_a`` benign clients.

Printed forms that we believe wrong are available through ``variant="printed"``
(see the claims ``lpproj.*.erratum``).

All loss functions broadcast over ``lam`` (and the other numeric arguments) like
``scipy.special``.
"""
from __future__ import annotations

import functools
import math

import numpy as np

from .._validation import guard_module as _guard_module
from .._validation import (check_alloc, check_choice, check_finite_array, check_finite_result, check_int, check_matrix,
                           check_real)

__all__ = ["METHODS", "ATTACKS", "effective_heterogeneity", "test_loss", "optimal_lambda",
           "lemma29_argmin", "minimal_loss", "proposition16_threshold", "fairness_V",
           "expected_fairness_V", "signflip_moments", "loss_derivative_lpproj",
           "lambda_star_symbolic", "per_client_test_loss", "fairness_dimension_ratio", "eq49_pair_sum"]

METHODS = ("local", "fedavg", "pfedme", "ditto", "lp-proj-2")
ATTACKS = (None, "same-value", "sign-flip", "gaussian")


def _out(x):
    x = np.asarray(x, dtype=float)
    return float(x) if x.ndim == 0 else x


def _fin(x, what, *names, **params):
    """``_out(x)`` after checking it is finite (a float64 overflow raises a ValueError naming the inputs)."""
    if type(x) in (float, np.float64) and math.isfinite(x):  # the scalar case, without the generic check
        return float(x)
    return _out(check_finite_result(x, what, *names, **params))


def _plain(x, low=0.0, open_low=False):
    """``x`` is a plain finite Python or numpy float (or int, not bool) with ``x >= low`` (``> low`` if
    ``open_low``): the inputs :func:`_validate` accepts without its generic checks."""
    return type(x) in (float, int, np.float64) and math.isfinite(x) and (x > low if open_low else x >= low)


def _validate(N, n, d, d_sub, b, sigma, Sigma, attack, N_a, tau, M0):
    # fast path for plain scalars that satisfy every condition below (same return; anything else, including
    # every invalid input, goes through the generic checks and their messages)
    if (type(N) is int and type(n) is int and type(d) is int and type(d_sub) is int and N >= 2 and n >= 1
            and 1 <= d_sub <= d and _plain(b, open_low=True) and _plain(sigma) and _plain(Sigma) and _plain(tau)
            and (M0 is None or _plain(M0))):
        if attack is None and (N_a is None or (type(N_a) is int and N_a == 0)):
            return N, n, d, d_sub, 0
        if (type(attack) is str and attack in ATTACKS and type(N_a) is int and 0 <= N_a <= N - 1
                and not (attack == "sign-flip" and M0 is None)):
            return N, n, d, d_sub, N_a
    N = check_int(N, "N", 2)
    n = check_int(n, "n", 1)
    d = check_int(d, "d", 1)
    d_sub = check_int(d_sub, "d_sub", 1, d, why=f"d_sub <= d, d={d}")
    check_real(b, "b", 0, low_open=True)
    check_real(sigma, "sigma", 0)
    if np.any(check_finite_array(Sigma, "Sigma") < 0):
        raise ValueError(f"`Sigma` must be >= 0 (a heterogeneity, a variance per dimension); got {Sigma!r}")
    check_choice(attack, "attack", ATTACKS)
    check_real(tau, "tau", 0, why="attack standard deviation")
    if M0 is not None:
        check_real(M0, "M0", 0)
    if attack is None:
        N_a = 0 if N_a is None else check_int(N_a, "N_a", 0, 0, why="no attack: N_a must be 0")
    else:
        N_a = check_int(N_a, "N_a", 0, N - 1, why=f"0 <= N_a < N, N={N}")
        if attack == "sign-flip" and M0 is None:
            raise ValueError("`M0` (eq. 41, the mean trace per dimension of the sign-flip "
                             "message covariance) is required for attack='sign-flip'")
    return N, n, d, d_sub, N_a


def effective_heterogeneity(Sigma, N, n, b, sigma, attack=None, N_a=0, tau=0.0, M0=None):
    """``D = Sigma + (N_a/N^2)(tau^2 - sigma^2/(b n))`` (``M0`` in place of ``tau^2`` for sign-flip).

    Our reformulation of Theorem 30 / App. B.3 (Han et al., JMLR 2024): every attacked
    benign-average loss equals the clean formula with ``Sigma -> D``. ``D = Sigma`` without attack.
    The arguments are validated as in :func:`test_loss` (``D`` itself may be negative).
    """
    N, n, _, _, N_a = _validate(N, n, 1, 1, b, sigma, Sigma, attack, N_a, tau, M0)
    if attack is None or N_a == 0:
        return _out(Sigma)
    t2 = M0 if attack == "sign-flip" else np.asarray(tau, float) ** 2
    return _fin(np.asarray(Sigma, float) + N_a / N ** 2 * (t2 - sigma ** 2 / (b * n)), "D", "Sigma",
                tau=tau, M0=M0, sigma=sigma)


def test_loss(method: str, lam=1.0, *, N: int = 100, n: int = 200, d: int = 100, d_sub: int = 10,
              b: float = 1.0, sigma: float = 1.0, Sigma=0.1, attack: str | None = None,
              N_a: int = 0, tau: float = 0.0, M0: float | None = None, variant: str = "corrected"):
    """Benign-average test loss of a method in the linear model (uniform-heterogeneity form).

    Han et al., JMLR 2024: clean losses App. B.2 (uniformity (36)); same-value and
    Gaussian attacks Theorem 30, eq. (39) (uniformity (37), ``Sigma`` = Sigma_1); sign-flip
    App. B.3.3 (uniformity (40)-(41), ``Sigma`` = Sigma_2, ``M0`` of (41)). With
    ``N_b = N - N_a`` and ``t2 = tau^2`` (``M0`` for sign-flip):

    * local: ``sigma^2/2 + sigma^2 d/(2n)``;
    * fedavg: ``sigma^2/2 + (b d/(2N^2))(N_b sigma^2/(b n) + N_a t2) + b d Sigma/2``;
    * pfedme = ditto: ``sigma^2/2 + (b d/2)[(b^2 + 2b lam/N + N_b lam^2/N^2) sigma^2/(b n)
      + N_a lam^2 t2/N^2]/(b+lam)^2 + b lam^2 d Sigma/(2(b+lam)^2)``;
    * lp-proj-2: the pfedme expression with ``d -> d_sub``, plus ``(d - d_sub) sigma^2/(2n)``.

    ``variant="printed"`` reproduces the paper's typeset forms: the bias term of pfedme and
    lp-proj-2 divided by an extra ``N`` (App. B.2, last lines of L^Me and L^l2) and, for
    lp-proj-2, ``lam^2/N^2`` in place of ``lam^2/N`` in the variance (App. B.2, distribution of
    x_k^l2); both only for the clean case.

    Parameters
    ----------
    method : {"local", "fedavg", "pfedme", "ditto", "lp-proj-2"}
    lam : array_like
        Personalisation strength lambda >= 0 (broadcasts).
    N, n, d, d_sub : int
        Clients, samples per client, dimension, projected dimension (``d_sub <= d``).
    b : float
        Design scale (``Xi^T Xi = n b I``), > 0.
    sigma : float
        Label-noise standard deviation.
    Sigma : float or array_like
        Heterogeneity per dimension (Sigma, Sigma_1 or Sigma_2 as the attack needs).
    attack : {None, "same-value", "sign-flip", "gaussian"}
    N_a : int
        Malicious clients, ``0 <= N_a < N``.
    tau : float
        Attack standard deviation (same-value, Gaussian).
    M0 : float
        Sign-flip message covariance trace per dimension, eq. (41).
    """
    if not (type(method) is str and method in METHODS):
        check_choice(method, "method", METHODS)
    if not (type(variant) is str and variant in ("corrected", "printed")):
        check_choice(variant, "variant", ("corrected", "printed"))
    N, n, d, d_sub, N_a = _validate(N, n, d, d_sub, b, sigma, Sigma, attack, N_a, tau, M0)
    if _plain(lam):
        lam = np.asarray(lam, float)
    else:
        lam = check_finite_array(lam, "lam")
        if np.any(lam < 0):
            raise ValueError(f"`lam` must be >= 0; got lam={lam!r}")
    Sigma = np.asarray(Sigma, float)
    N_b = N - N_a
    t2 = 0.0 if N_a == 0 else (M0 if attack == "sign-flip" else tau ** 2)
    s2 = sigma ** 2
    base = s2 / 2
    names = dict(lam=lam, N=N, n=n, d=d, d_sub=d_sub, b=b, sigma=sigma, Sigma=Sigma, tau=tau, M0=M0)
    if method == "local":
        return _fin(base + s2 * d / (2 * n) + 0 * lam, "the test loss", **names)
    if method == "fedavg":
        return _fin(base + b * d / (2 * N ** 2) * (N_b * s2 / (b * n) + N_a * t2) + b * d * Sigma / 2 + 0 * lam,
                    "the test loss", **names)
    dim = d if method in ("pfedme", "ditto") else d_sub
    var_coef = b ** 2 + 2 * b * lam / N + N_b * lam ** 2 / N ** 2
    bias_div = 1.0
    if variant == "printed":
        if N_a:
            raise ValueError("`variant`='printed' is defined for the clean losses only")
        bias_div = N
        if method == "lp-proj-2":
            var_coef = b ** 2 + 2 * b * lam / N + lam ** 2 / N ** 2
    out = base + b * dim / 2 * (var_coef * s2 / (b * n) + N_a * lam ** 2 * t2 / N ** 2) / (b + lam) ** 2 \
        + b * lam ** 2 * dim * Sigma / (2 * bias_div * (b + lam) ** 2)
    if method == "lp-proj-2":
        out = out + (d - d_sub) * s2 / (2 * n)
    return _fin(out, "the test loss", **names)


@functools.lru_cache(maxsize=None)
def lambda_star_symbolic():
    """Derive the optimal lambda with sympy from the pfedme / lp-proj-2 loss (Lemma 29).

    Builds ``L(lam)`` of :func:`test_loss` (attacked, general ``t2``) symbolically, solves
    ``dL/dlam = 0`` and returns ``(expression, lambdified function of (N, n, b, sigma, Sigma,
    N_a, t2))``. The same root comes out for lp-proj-2 (``d`` factors out), and it equals
    Lemma 29's ``(2C - Bb)/(2Ab - B)`` (App. B.2; Theorem 30).
    """
    import sympy as sp

    lam, N, n, b, sg, Sg, Na, t2, dim = sp.symbols("lam N n b sigma Sigma N_a t2 dim", positive=True)
    Nb = N - Na
    L = sg ** 2 / 2 + b * dim / 2 * ((b ** 2 + 2 * b * lam / N + Nb * lam ** 2 / N ** 2) * sg ** 2 / (b * n)
                                     + Na * lam ** 2 * t2 / N ** 2) / (b + lam) ** 2 \
        + b * lam ** 2 * dim * Sg / (2 * (b + lam) ** 2)
    num = sp.factor(sp.together(sp.diff(L, lam)))
    roots = sp.solve(sp.numer(num), lam)
    roots = [r for r in roots if r != 0]
    if len(roots) != 1:
        raise RuntimeError(f"unexpected stationary points {roots}")
    expr = sp.simplify(roots[0])
    f = sp.lambdify((N, n, b, sg, Sg, Na, t2), expr, "numpy")
    return expr, f


def lemma29_argmin(A, B, C, b):
    """Lemma 29: the minimiser over lam >= 0 of ``(A lam^2 + B lam + C)/(lam + b)^2`` is
    ``(2C - Bb)/(2Ab - B)`` when ``2Ab - B > 0`` and ``Bb - 2C < 0`` (NaN otherwise)."""
    A, B, C, b = (check_finite_array(x, name) for x, name in ((A, "A"), (B, "B"), (C, "C"), (b, "b")))
    ok = (2 * A * b - B > 0) & (B * b - 2 * C < 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return _out(np.where(ok, (2 * C - B * b) / (2 * A * b - B), np.nan))


def optimal_lambda(*, N: int = 100, n: int = 200, d: int = 100, d_sub: int = 10, b: float = 1.0,
                   sigma: float = 1.0, Sigma=0.1, attack: str | None = None, N_a: int = 0,
                   tau: float = 0.0, M0: float | None = None):
    """Optimal lambda of pfedme/ditto and lp-proj-2 (the same for both).

    ``lambda^* = (1 - 1/N) sigma^2/n / Sigma`` clean (App. B.2), ``lambda_1^*`` under same-value /
    Gaussian attacks (Theorem 30) and ``lambda_2^*`` under sign-flip (App. B.3.3):
    ``(1 - 1/N) sigma^2/n / D`` with ``D`` the :func:`effective_heterogeneity`. Evaluated from
    the sympy derivation :func:`lambda_star_symbolic`, not typed in. Returns inf when D <= 0
    (the loss is then decreasing in lam).

    Examples
    --------
    The clean optimum ``(1 - 1/N) sigma^2/n / Sigma`` and the loss there, below Local Only's:

    >>> from fedtheory.lpproj.theory import optimal_lambda, test_loss
    >>> lam = optimal_lambda(N=100, n=200, Sigma=0.1)
    >>> round(float(lam), 6)
    0.0495
    >>> round(float(test_loss("pfedme", lam, N=100, n=200)), 4), float(test_loss("local", N=100, n=200))
    (0.7383, 0.75)
    """
    N, n, d, d_sub, N_a = _validate(N, n, d, d_sub, b, sigma, Sigma, attack, N_a, tau, M0)
    t2 = 0.0 if N_a == 0 else (M0 if attack == "sign-flip" else tau ** 2)
    _, f = lambda_star_symbolic()
    D = np.asarray(effective_heterogeneity(Sigma, N, n, b, sigma, attack, N_a, tau, M0))
    with np.errstate(divide="ignore", invalid="ignore"):
        val = np.asarray(f(N, n, b, sigma, np.asarray(Sigma, float), N_a, t2), float)
    return _out(np.where(D > 0, val, np.inf))


def minimal_loss(method: str, **kw):
    """Loss at the optimal lambda (App. B.2 minimal losses; (38) under attack).

    ``kw`` are the keyword arguments of :func:`test_loss` (besides ``lam``). Raises a
    ``ValueError`` where the optimal lambda is infinite (effective heterogeneity ``D <= 0``, see
    :func:`optimal_lambda`): the loss then has no minimiser.
    """
    check_choice(method, "method", METHODS)
    lam = optimal_lambda(**{k: v for k, v in kw.items() if k != "variant"})
    if not np.all(np.isfinite(lam)):
        raise ValueError("the optimal lambda is infinite (effective heterogeneity D <= 0: the loss decreases in "
                         f"lambda and has no minimiser); got Sigma={kw.get('Sigma', 0.1)!r}, "
                         f"tau={kw.get('tau', 0.0)!r}, M0={kw.get('M0')!r}, N_a={kw.get('N_a', 0)!r}")
    return test_loss(method, lam, **kw)


def proposition16_threshold(lam_star, b):
    """Proposition 16 (ii): lp-proj-2 beats pfedme iff ``lam >= 2 lam*/(1 - lam*/b)`` when
    ``lam* < b`` (inf otherwise: then lp-proj-2 never beats pfedme).

    ``lam_star >= 0`` may be ``+inf`` (what :func:`optimal_lambda` returns when ``D <= 0``); ``b > 0``."""
    ls = check_finite_array(lam_star, "lam_star", 0, allow_inf=True)
    b = check_finite_array(b, "b", 0, low_open=True)
    with np.errstate(divide="ignore"):
        return _out(np.where(ls < b, 2 * ls / (1 - ls / b), np.inf))


def loss_derivative_lpproj(lam, *, d_sub, **kw):
    """Remark 17/31 (corrected parenthesisation): ``dL^{l2,att1}/dlam = (d_sub/d) dL^{Me,att1}/dlam``,
    ``= (b d_sub sigma^2/n)((1/N - 1) b + (N_b/N - 1) lam/N)/(b+lam)^3 + b^2 lam d_sub
    (N_a tau^2/N^2 + Sigma_1)/(b+lam)^3``."""
    for key in ("N", "n"):
        if key not in kw:
            raise TypeError(f"`{key}` is required")
    N, n, b, sigma = kw["N"], kw["n"], kw.get("b", 1.0), kw.get("sigma", 1.0)
    N_a, tau, Sigma = kw.get("N_a", 0), kw.get("tau", 0.0), kw.get("Sigma", 0.1)
    N = check_int(N, "N", 2)
    n = check_int(n, "n", 1)
    d_sub = check_int(d_sub, "d_sub", 1)
    check_real(b, "b", 0, low_open=True)
    check_real(sigma, "sigma", 0)
    N_a = check_int(N_a, "N_a", 0, N - 1, why=f"0 <= N_a < N, N={N}")
    check_real(tau, "tau", 0)
    Sigma = check_finite_array(Sigma, "Sigma", 0)
    lam = check_finite_array(lam, "lam", 0)
    N_b = N - N_a
    return _fin(b * d_sub * sigma ** 2 / n * ((1 / N - 1) * b + (N_b / N - 1) * lam / N) / (b + lam) ** 3
                + b ** 2 * lam * d_sub * (N_a * tau ** 2 / N ** 2 + Sigma) / (b + lam) ** 3, "the derivative",
                lam=lam, N=N, n=n, b=b, sigma=sigma, N_a=N_a, tau=tau, Sigma=Sigma, d_sub=d_sub)


def per_client_test_loss(method: str, lam, W, *, n: int, b: float = 1.0, sigma: float = 1.0, P=None):
    """Per-client noise-averaged test losses (App. B.4, the losses behind Theorem 32), shape (N,).

    local ``sigma^2/2 + sigma^2 d/(2n)``; fedavg ``sigma^2/2 + sigma^2 d/(2Nn) + (b/2)||w_bar - w_k||^2``;
    pfedme = ditto ``sigma^2/2 + c(lam) sigma^2 d/(2n) + b lam^2/(2(b+lam)^2) ||w_bar - w_k||^2`` with
    ``c = (b^2 + 2b lam/N + lam^2/N)/(b+lam)^2``; lp-proj-2 the same on ``P`` plus
    ``sigma^2 (d - d_sub)/(2n)`` (orthonormal-row ``P``).
    """
    check_choice(method, "method", METHODS)
    W = check_matrix(W, "W", (None, None))
    N, d = W.shape
    lam = check_real(lam, "lam", 0)
    n = check_int(n, "n", 1)
    b = check_real(b, "b", 0, low_open=True)
    sigma = check_real(sigma, "sigma", 0)
    if method == "lp-proj-2" and P is not None:
        P = check_matrix(P, "P", (None, d))
    out = _per_client_test_loss(method, lam, W, n, b, sigma, P)
    return check_finite_result(out, "the per-client losses", "W", "P", lam=lam, b=b, sigma=sigma)


def _per_client_test_loss(method, lam, W, n, b, sigma, P):
    N, d = W.shape
    s2 = sigma ** 2
    dev = W.mean(axis=0) - W
    if method == "local":
        return np.full(N, s2 / 2 + s2 * d / (2 * n))
    if method == "fedavg":
        return s2 / 2 + s2 * d / (2 * N * n) + b / 2 * np.sum(dev ** 2, axis=1)
    c = (b ** 2 + 2 * b * lam / N + lam ** 2 / N) / (b + lam) ** 2
    if method in ("pfedme", "ditto"):
        return s2 / 2 + c * s2 * d / (2 * n) + b * lam ** 2 / (2 * (b + lam) ** 2) * np.sum(dev ** 2, axis=1)
    if P is None:
        raise ValueError("`P` is required for lp-proj-2")
    P = np.asarray(P, float)
    d_sub = P.shape[0]
    return (s2 / 2 + c * s2 * d_sub / (2 * n) + s2 * (d - d_sub) / (2 * n)
            + b * lam ** 2 / (2 * (b + lam) ** 2) * np.sum((dev @ P.T) ** 2, axis=1))


def _tvar(a):
    """Population variance across clients, eq. (44): (1/N) sum a_k^2 - ((1/N) sum a_k)^2."""
    a = np.asarray(a, float)
    return a.var(axis=-1)


def fairness_V(method: str, lam, W, *, b: float = 1.0, P=None):
    """Across-client variance of the noise-averaged test losses (Theorem 32, eq. (45)).

    ``W`` holds the true ``w_k`` as rows (N, d). ``V^loc = 0``, ``V^Avg = (b^2/4) var(||w_bar - w_k||^2)``,
    ``V^Me = V^Di = b^2 lam^4/(4(b+lam)^4) var(||w_bar - w_k||^2)``, ``V^l2`` the same with
    ``||P(w_bar - w_k)||^2`` (orthonormal-row ``P``).
    """
    check_choice(method, "method", METHODS)
    W = check_matrix(W, "W", (None, None))
    lam = check_finite_array(lam, "lam", 0)
    b = check_real(b, "b", 0, low_open=True)
    if method == "lp-proj-2":
        if P is None:
            raise ValueError("`P` (d_sub x d, orthonormal rows) is required for lp-proj-2")
        P = check_matrix(P, "P", (None, W.shape[1]))
    return _fin(_fairness_V(method, lam, W, b, P), "V", "W", "P", lam=lam, b=b)


def _fairness_V(method, lam, W, b, P):
    """:func:`fairness_V` of validated inputs, for a stack of parameter sets ``W`` (..., N, d) and a scalar
    ``lam`` (or one set (N, d) and any ``lam``): eq. (45) of each set, vectorised over the leading axes."""
    if method == "local":
        return _out(0 * lam) if W.ndim == 2 else np.zeros(W.shape[:-2])
    dev = W - W.mean(axis=-2, keepdims=True)
    if method == "lp-proj-2":
        dev = dev @ P.T
    v = _tvar(np.sum(dev ** 2, axis=-1))
    if method == "fedavg":
        return b ** 2 / 4 * v + 0 * lam
    return b ** 2 * lam ** 4 / (4 * (b + lam) ** 4) * v


def expected_fairness_V(method: str, lam, *, N: int, Sigma_w, b: float = 1.0, P=None,
                        variant: str = "corrected"):
    """``E V`` for ``w_k ~ N(mu_w, Sigma_w)`` i.i.d. (Proposition 18, Theorem 32, eqs. (46)-(48)).

    Corrected: ``E var(||w_bar - w_k||^2) = 2(N-1)(N-2)/N^2 tr(Sigma_w^2)``; the paper prints
    ``4(N-1)(N-2)/N^2`` (``variant="printed"``; factor 1/2 lost in (49)(d)). For lp-proj-2 the
    trace is ``tr((P Sigma_w P^T)^2)``.
    """
    check_choice(method, "method", METHODS)
    check_choice(variant, "variant", ("corrected", "printed"))
    N = check_int(N, "N", 1)
    b = check_real(b, "b", 0, low_open=True)
    S = check_matrix(Sigma_w, "Sigma_w", (None, None))
    if S.shape[0] != S.shape[1]:
        raise ValueError(f"`Sigma_w` must be a square (d x d) covariance; got shape {S.shape}")
    if method == "lp-proj-2":
        if P is None:
            raise ValueError("`P` is required for lp-proj-2")
        P = check_matrix(P, "P", (None, S.shape[0]))
        S = P @ S @ P.T
    const = (2.0 if variant == "corrected" else 4.0) * (N - 1) * (N - 2) / N ** 2
    ev = const * float(np.sum(S * S))
    lam = check_finite_array(lam, "lam", 0)
    if method == "local":
        return _out(0 * lam)
    if method == "fedavg":
        return _fin(b ** 2 / 4 * ev + 0 * lam, "E V", "Sigma_w", "P", lam=lam, b=b)
    return _fin(b ** 2 * lam ** 4 / (4 * (b + lam) ** 4) * ev, "E V", "Sigma_w", "P", lam=lam, b=b)


def fairness_dimension_ratio(Sigma_w, P):
    """``E V^l2(lam) / E V^Me(lam) = tr((P Sigma_w P^T)^2) / tr(Sigma_w^2)`` for ``w_k ~ N(mu_w, Sigma_w)``.

    Ratio of the lp-proj-2 and pFedMe expectations of Theorem 32 (Han et al., JMLR 2024, eqs.
    (47)-(48), with the general orthonormal-row ``P`` in place of the first ``d_sub`` coordinates); it
    does not depend on ``lam``, ``b``, ``N`` (the factor ``(N-1)(N-2)/N^2`` and the constant cancel, so
    the 1/2 erratum of (49)(d) does not matter here) nor on ``mu_w``. Examples: ``Sigma_w = s^2 I`` gives
    ``d_sub/d``; ``Sigma_w = s^2 1 1^T`` gives ``||P 1||^4/d^2``, which is ``(d_sub/d)^2`` for ``P = P_0``
    (the first ``d_sub`` coordinates), 0 for rows orthogonal to ``1`` and 1 when a row is ``1/sqrt(d)``.

    Parameters
    ----------
    Sigma_w : (d, d) array_like
        Symmetric covariance, not zero.
    P : (d_sub, d) array_like
        Projection with orthonormal rows (Sec. 4.2).
    """
    S = check_matrix(Sigma_w, "Sigma_w", (None, None))
    if S.shape[0] != S.shape[1] or not np.allclose(S, S.T, rtol=1e-10, atol=1e-12 * float(np.max(np.abs(S), initial=0))):
        raise ValueError(f"`Sigma_w` must be a symmetric (d x d) covariance; got shape {S.shape}")
    P = check_matrix(P, "P", (None, S.shape[0]))
    if not np.allclose(P @ P.T, np.eye(P.shape[0]), atol=1e-8):
        raise ValueError("`P` must have orthonormal rows (P P^T = I), as Sec. 4.2 assumes")
    with np.errstate(over="ignore", invalid="ignore"):
        den = float(np.sum(S * S))
        if den == 0:
            raise ValueError("`Sigma_w` must not be zero (then E V^Me = 0 and the ratio is undefined)")
        PS = P @ S @ P.T
        return _fin(float(np.sum(PS * PS)) / den, "the ratio", "Sigma_w", "P")


def eq49_pair_sum(W, variant: str = "corrected"):
    """Right-hand side of step (d) of eq. (49) (proof of Theorem 32, Han et al., JMLR 2024):
    ``c/N^2 sum_{k != l} <w_k - w_l, w_k + w_l - 2 w_bar>^2`` over all ordered pairs, computed pair by pair.

    ``c = 1/2`` (``variant="corrected"``) makes it equal to the population variance (44) of
    ``||w_bar - w_k||^2``; the paper prints ``c = 1`` (``variant="printed"``), twice the variance.
    ``W`` has shape (..., N, d) with ``N >= 2``; broadcasts over the leading axes.
    """
    check_choice(variant, "variant", ("corrected", "printed"))
    W = check_matrix(W, "W")
    if W.ndim < 2 or W.shape[-2] < 2:
        raise ValueError(f"`W` must have shape (..., N, d) with N >= 2 clients; got shape {W.shape}")
    check_alloc(W.size * W.shape[-2], "the pairwise differences (N x N x d per batch)", N=W.shape[-2], d=W.shape[-1])
    N = W.shape[-2]
    wbar = W.mean(axis=-2, keepdims=True)
    diff = W[..., :, None, :] - W[..., None, :, :]
    summ = W[..., :, None, :] + W[..., None, :, :] - 2 * wbar[..., None, :]
    c = 0.5 if variant == "corrected" else 1.0
    with np.errstate(over="ignore", invalid="ignore"):
        ip = np.einsum("...kld,...kld->...kl", diff, summ)
        return _fin(c / N ** 2 * np.sum(ip ** 2, axis=(-2, -1)), "the pair sum", "W")


def signflip_moments(w, tau, sigma, b, n):
    """Mean and covariance of a sign-flip message ``-|c| w_hat``, ``c ~ N(0, tau^2)``,
    ``w_hat ~ N(w, sigma^2/(b n) I)`` (eqs. (42)-(43)): mean ``-sqrt(2/pi) tau w``, covariance
    ``((pi-2)/pi) tau^2 w w^T + tau^2 sigma^2/(b n) I``."""
    w = check_matrix(w, "w", (None,))
    tau = check_real(tau, "tau", 0)
    sigma = check_real(sigma, "sigma", 0)
    b = check_real(b, "b", 0, low_open=True)
    n = check_int(n, "n", 1)
    check_alloc(w.size ** 2, "the d x d covariance", d=w.size)
    mean = -math.sqrt(2 / math.pi) * tau * w
    cov = (math.pi - 2) / math.pi * tau ** 2 * np.outer(w, w) + tau ** 2 * sigma ** 2 / (b * n) * np.eye(w.size)
    return check_finite_result((mean, cov), "the sign-flip moments", "w", tau=tau, sigma=sigma, b=b, n=n)

# ``test_loss`` is a public name fixed by the API; keep pytest from collecting it (or any
# re-export of it) as a test function in users' test modules.
test_loss.__test__ = False  # type: ignore[attr-defined]


# every public function turns float64 overflows, linear-algebra failures and broadcasting errors
# into ValueErrors naming its parameters (fedtheory._validation.guard_numeric_errors)
_guard_module(globals(), __all__)
