"""Exact solutions, Monte Carlo and exact runs of Algorithm 1 in lp-proj's linear model.

Han et al., JMLR 2024: solutions App. B.1; attacks Sec. 4.2 / App. B.3 (the server
divides by N; losses over benign clients); Algorithm 1 (lines 7, 8 and 12; eqs. (3), (4), (6)).
Everything is vectorised over clients and Monte Carlo replications.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._validation import guard_module as _guard_module
from .._validation import (check_alloc, check_choice, check_finite_array, check_finite_result, check_generator, check_instance,
                           check_int, check_iterations, check_matrix, check_real)
from ..linalg import batched_solve
from ..montecarlo import Estimate, mc_mean
from ..random import SeedLike, as_generator
from .model import LinearFLProblem
from .theory import ATTACKS, METHODS

__all__ = ["attack_messages", "closed_form_models", "benign_losses", "mc_test_loss", "benign_loss_draws",
           "FairnessRatioEstimate", "mc_fairness_ratio",
           "test_loss_general", "lpproj2_general_solution", "Algorithm1Result", "run_algorithm1",
           "admm_l1_inner"]


def _check_attack(attack, N_a, N, tau=0.0, source="problem"):
    check_choice(attack, "attack", ATTACKS)
    check_real(tau, "tau", 0, why="attack standard deviation")
    N_a = check_int(N_a, "N_a", 0, N - 1, why=f"0 <= N_a < N, N={N} clients in `{source}`")
    return 0 if attack is None else N_a


def _check_problem(problem) -> LinearFLProblem:
    check_instance(problem, "problem", LinearFLProblem)
    return problem


def attack_messages(rng: np.random.Generator, attack: str, honest: np.ndarray, tau: float) -> np.ndarray:
    """Byzantine messages replacing ``honest`` (shape (..., N_a, m)), Sec. 4.2:
    same-value ``c 1`` and sign-flip ``-|c| honest`` with ``c ~ N(0, tau^2)`` per client,
    Gaussian ``N(0, tau^2 I)``."""
    check_generator(rng, "rng")
    check_choice(attack, "attack", ("same-value", "sign-flip", "gaussian"))
    honest = check_matrix(honest, "honest")
    tau = check_real(tau, "tau", 0, why="attack standard deviation")
    if honest.ndim < 1:
        raise ValueError(f"`honest` must have shape (..., N_a, m); got shape {honest.shape}")
    return _attack_messages(rng, attack, honest, tau)


def _attack_messages(rng, attack, honest, tau):
    shape = honest.shape
    if attack == "same-value":
        return tau * rng.standard_normal(shape[:-1] + (1,)) * np.ones(shape)
    if attack == "gaussian":
        return tau * rng.standard_normal(shape)
    if attack == "sign-flip":
        return -np.abs(tau * rng.standard_normal(shape[:-1] + (1,))) * honest
    raise ValueError(f"`attack` must be one of: 'same-value', 'sign-flip', 'gaussian'; got {attack!r}")


def closed_form_models(method: str, w_hat: np.ndarray, lam: float, b: float, P: np.ndarray | None = None,
                       *, attack: str | None = None, N_a: int = 0, tau: float = 0.0,
                       rng: np.random.Generator | None = None) -> np.ndarray:
    """Personalised models ``x_k`` of each method from the estimates ``w_hat`` (..., N, d).

    App. B.1 with ``b_k = b`` and orthonormal-row ``P``: fedavg ``x_k = m``; pfedme = ditto
    ``x_k = (b w_hat_k + lam m)/(b+lam)`` with ``m`` the server average; lp-proj-2
    ``x_k = P^T (b P w_hat_k + lam m)/(b+lam) + (I - P^T P) w_hat_k`` with ``m`` the average of the
    ``P w_hat_k``. Malicious clients (the last ``N_a``) send :func:`attack_messages`; the server
    divides by N (Sec. 4.2).
    """
    check_choice(method, "method", METHODS)
    w_hat = check_matrix(w_hat, "w_hat")
    if w_hat.ndim < 2:
        raise ValueError(f"`w_hat` must have shape (..., N, d); got shape {w_hat.shape}")
    lam = check_real(lam, "lam", 0)
    b = check_real(b, "b", 0, low_open=True)
    N = w_hat.shape[-2]
    N_a = _check_attack(attack, N_a, N, tau, source="w_hat")
    if method == "lp-proj-2":
        if P is None:
            raise ValueError("`P` (d_sub x d) is required for method='lp-proj-2'")
        P = check_matrix(P, "P", (None, w_hat.shape[-1]))
    if N_a:
        check_generator(rng, "rng")
    out = _closed_form_models(method, w_hat, lam, b, P, attack, N_a, tau, rng)
    return check_finite_result(out, "the personalised models", "w_hat", "P", lam=lam, b=b, tau=tau)


def _closed_form_models(method, w_hat, lam, b, P, attack, N_a, tau, rng):
    N = w_hat.shape[-2]
    if method == "local":
        return w_hat
    proj = method == "lp-proj-2"
    msgs = _matmul2d(w_hat, P.T) if proj else w_hat
    if N_a:
        msgs = msgs.copy()
        msgs[..., N - N_a:, :] = _attack_messages(rng, attack, msgs[..., N - N_a:, :], tau)
    m = msgs.sum(axis=-2, keepdims=True) / N
    if method == "fedavg":
        return np.broadcast_to(m, w_hat.shape)
    if not proj:
        return (b * w_hat + lam * m) / (b + lam)
    Pw = msgs if not N_a else _matmul2d(w_hat, P.T)
    return _matmul2d((b * Pw + lam * m) / (b + lam) - Pw, P) + w_hat


def _matmul2d(a: np.ndarray, M: np.ndarray) -> np.ndarray:
    """``a @ M`` for a stack ``a`` (..., p) as one 2-D GEMM (numpy's stacked matmul is slow for
    many tiny matrices)."""
    return (a.reshape(-1, a.shape[-1]) @ M).reshape(a.shape[:-1] + (M.shape[1],))


def benign_losses(x: np.ndarray, W: np.ndarray, b: float, sigma: float, N_a: int = 0) -> np.ndarray:
    """Benign-average test loss per replication: ``sigma^2/2 + (b/2) mean_{k benign} ||x_k - w_k||^2``
    (eq. (35), test noise averaged exactly). ``x`` (..., N, d), ``W`` (N, d), ``b > 0``, ``sigma >= 0``,
    ``0 <= N_a < N``."""
    W = check_matrix(W, "W", (None, None))
    x = check_matrix(x, "x")
    if x.shape[-2:] != W.shape:
        raise ValueError(f"`x` must have shape (..., N, d) = (..., {W.shape[0]}, {W.shape[1]}); got {x.shape}")
    b = check_real(b, "b", 0, low_open=True)
    sigma = check_real(sigma, "sigma", 0)
    N_a = check_int(N_a, "N_a", 0, W.shape[0] - 1, why=f"0 <= N_a < N, N={W.shape[0]}")
    return check_finite_result(_benign_losses(x, W, b, sigma, N_a), "the benign losses", "x", "W", b=b,
                               sigma=sigma)


def _benign_losses(x, W, b, sigma, N_a=0):
    N = W.shape[0]
    diff = x[..., : N - N_a, :] - W[: N - N_a]
    sq = np.einsum("...kd,...kd->...", diff, diff)
    return sigma ** 2 / 2 + b / 2 * sq / (N - N_a)


def mc_test_loss(method: str, problem: LinearFLProblem, lam: float, *, attack: str | None = None,
                 N_a: int = 0, tau: float = 0.0, n_samples: int = 20_000, chunk: int | None = None,
                 seed: SeedLike = 0, confidence: float = 0.99, sampler: str = "full",
                 control: str | None = None) -> Estimate:
    """Monte Carlo estimate of the benign-average test loss, vectorised over replications
    (training noise drawn as ``w_hat ~ N(w_k, sigma^2/(b n) I)``, exact in law; attack noise fresh).

    ``sampler="reduced"`` (lp-proj-2 with orthonormal-row ``P`` only) draws, per client, only
    ``P w_hat_k = P w_k + s P z_k`` (``P z_k ~ N(0, I_dsub)``) and the complement's squared norm
    ``||(I - P^T P)(w_hat_k - w_k)||^2 = s^2 chi^2_{d - d_sub}``, which is all the loss depends on:
    exact in law with ``d_sub + 1`` variates per client instead of ``d``.

    ``sampler="sufficient"`` (pfedme, ditto, and lp-proj-2 with orthonormal-row ``P``; our
    derivation, exact in law): with ``s^2 = sigma^2/(b n)``, benign ``w_hat_k = w_k + s z_k`` and
    ``e_k = mu - w_k`` (``mu = sum_benign w_j / N``), the benign-average loss of App. B.1's
    ``x_k = (b w_hat_k + lam m)/(b + lam)`` is a function of ``Zs = sum_k z_k ~ N(0, N_b I)``, the
    attack sum ``A`` of the malicious messages, ``G = sum_k <z_k - z_bar, e_k - e_bar> ~ N(0, sum_k
    ||e_k - e_bar||^2)`` and ``Q = sum_k ||z_k - z_bar||^2 = G^2/||e - e_bar||^2 + chi^2_{(N_b-1)m-1}``
    (independent of ``Zs``). ``Zs`` and ``A`` are drawn in the span ``U`` of ``e_bar``, ``1`` and (sign-flip)
    the malicious ``w_a``, plus a chi-square and one normal for the orthogonal rest. lp-proj-2 is
    the same in the projected coordinates (``m = d_sub``) plus ``s^2 chi^2_{N_b (d - d_sub)}`` for the
    complement. About ``2 r + 6`` variates per replication (``r = dim U <= N_a + 2``), whatever
    ``N`` and ``d``.

    ``control="local"``: a control variate. Each replication returns ``L - L_loc + E L_loc``, with
    ``L_loc`` the benign-average loss of local training on the same draw and ``E L_loc = sigma^2/2 +
    sigma^2 d/(2n)`` (the mean of ``(b/2) s^2 chi^2_d``); same mean, far smaller variance where ``x_k``
    is close to ``w_hat_k`` (small ``lam``).

    ``n_samples`` replications are drawn in blocks of 4096; sizes whose block array (4096 x N x d)
    or list of block streams would exceed the memory guard raise a ``ValueError`` naming them.
    """
    check_choice(method, "method", METHODS)
    _check_problem(problem)
    lam = check_real(lam, "lam", 0)
    check_choice(sampler, "sampler", ("full", "reduced", "sufficient"))
    N_a = _check_attack(attack, N_a, problem.N, tau)
    n_samples = check_int(n_samples, "n_samples", 2)
    from ..montecarlo import BLOCK, _SEED_BYTES

    check_alloc(-(-n_samples // BLOCK), "the per-block random streams of the Monte Carlo", itemsize=_SEED_BYTES,
                n_samples=n_samples)
    check_alloc(min(BLOCK, n_samples) * problem.N * problem.d, "one block of replications (4096 x N x d)",
                n_samples=n_samples, N=problem.N, d=problem.d)
    control = check_choice(control, "control", (None, "local"))
    p = problem
    orth = np.allclose(p.P @ p.P.T, np.eye(p.d_sub), atol=1e-10)
    loc_mean = p.sigma ** 2 / 2 + p.sigma ** 2 * p.d / (2 * p.n)  # E of the local loss: sigma^2/2 + (b/2) s^2 chi^2_d
    if sampler == "sufficient":
        if method not in ("pfedme", "ditto", "lp-proj-2") or (method == "lp-proj-2" and not orth):
            raise ValueError(f"`sampler`={sampler!r} applies to method in ('pfedme', 'ditto') and to 'lp-proj-2' with "
                             f"orthonormal-row P only; got method={method!r}")
        prep = _suffstat_prepare(p, method, attack, N_a)

        def draw(g, size):
            L, Lloc = _suffstat_losses(g, size, prep, lam, attack, N_a, tau)
            return L if control is None else L - Lloc + loc_mean

        return _mc(draw, n_samples, seed, chunk, confidence, block=_SUFF_BLOCK, lam=lam, tau=tau, problem=p)
    if sampler == "reduced":
        if method != "lp-proj-2" or not orth:
            raise ValueError("`sampler`='reduced' applies to method='lp-proj-2' with orthonormal-row P only (for "
                             "pfedme and ditto use sampler='sufficient')")

        def draw(g, size):
            L, Lloc = _lpproj2_reduced_losses(g, size, p, lam, attack, N_a, tau, with_local=True)
            return L if control is None else L - Lloc + loc_mean

        return _mc(draw, n_samples, seed, chunk, confidence, lam=lam, tau=tau, problem=p)

    def draw(g, size):
        wh = p.sample_w_hat(g, size)
        x = _closed_form_models(method, wh, lam, p.b, p.P, attack, N_a, tau, g)
        L = _benign_losses(x, p.W, p.b, p.sigma, N_a)
        return L if control is None else L - _benign_losses(wh, p.W, p.b, p.sigma, N_a) + loc_mean

    return _mc(draw, n_samples, seed, chunk, confidence, lam=lam, tau=tau, problem=p)


def _mc(sampler, n_samples, seed, chunk, confidence, block=None, **params):
    """``mc_mean``; replications that overflow float64 raise a ValueError naming ``params``."""
    from ..montecarlo import BLOCK

    try:
        with np.errstate(over="ignore", invalid="ignore"):
            return mc_mean(sampler, n_samples, seed, chunk=chunk, confidence=confidence, block=block or BLOCK)
    except ValueError as exc:
        if "`sampler` returned" not in str(exc):
            raise
        shown = ", ".join(f"`{k}`={v!r}" for k, v in params.items())
        raise ValueError(f"the replicated losses overflow float64; inputs too large in magnitude: {shown}") from None


def _lpproj2_reduced_losses(g, size, p: LinearFLProblem, lam, attack, N_a, tau, with_local=False):
    N, b = p.N, p.b
    sd = p.sigma / np.sqrt(b * p.n)
    PW = p.W @ p.P.T  # (N, d_sub)
    Pw = g.standard_normal((size, N, p.d_sub))
    Pw *= sd
    Pw += PW
    comp = sd ** 2 * g.chisquare(p.d - p.d_sub, (size, N)) if p.d > p.d_sub else np.zeros((size, N))
    msgs = Pw
    if attack is not None and N_a:
        msgs = Pw.copy()
        msgs[:, N - N_a:, :] = _attack_messages(g, attack, Pw[:, N - N_a:, :], tau)
    m = msgs.sum(axis=1, keepdims=True) / N
    Nb = N - (N_a if attack else 0)
    diff = (b * Pw[:, :Nb] + lam * m) / (b + lam) - PW[:Nb]
    sq = np.einsum("skd,skd->s", diff, diff) + comp[:, :Nb].sum(axis=1)
    L = p.sigma ** 2 / 2 + b / 2 * sq / Nb
    if not with_local:
        return L
    dl = Pw[:, :Nb] - PW[:Nb]
    return L, p.sigma ** 2 / 2 + b / 2 * (np.einsum("skd,skd->s", dl, dl) + comp[:, :Nb].sum(axis=1)) / Nb


def benign_loss_draws(method: str, problem: LinearFLProblem, lam: float, size: int, *, attack: str | None = None,
                      N_a: int = 0, tau: float = 0.0, sampler: str = "full", seed: SeedLike = 0) -> np.ndarray:
    """``size`` independent replications of the benign-average test loss (the variates that
    :func:`mc_test_loss` averages), from the ``"full"`` or the ``"sufficient"`` sampler; for comparing the
    two laws (e.g. a two-sample Kolmogorov-Smirnov test). ``size`` <= 2^20."""
    check_choice(method, "method", ("pfedme", "ditto", "lp-proj-2"))
    p = _check_problem(problem)
    lam = check_real(lam, "lam", 0)
    check_choice(sampler, "sampler", ("full", "sufficient"))
    N_a = _check_attack(attack, N_a, p.N, tau)
    size = check_int(size, "size", 1, 1 << 20)
    g = as_generator(seed)
    with np.errstate(over="ignore", invalid="ignore"):
        if sampler == "sufficient":
            if method == "lp-proj-2" and not np.allclose(p.P @ p.P.T, np.eye(p.d_sub), atol=1e-10):
                raise ValueError("`sampler`='sufficient' applies to 'lp-proj-2' with orthonormal-row P only")
            out = _suffstat_losses(g, size, _suffstat_prepare(p, method, attack, N_a), lam, attack, N_a, tau)[0]
        else:
            check_alloc(size * p.N * p.d, "the replications (size x N x d)", size=size, N=p.N, d=p.d)
            x = _closed_form_models(method, p.sample_w_hat(g, size), lam, p.b, p.P, attack, N_a, tau, g)
            out = _benign_losses(x, p.W, p.b, p.sigma, N_a)
    return check_finite_result(out, "the replicated losses", "problem", lam=lam, tau=tau)


@dataclass(frozen=True)
class FairnessRatioEstimate:
    """Monte Carlo estimate of ``E V^l2 / E V^Me`` (Proposition 18) with a delta-method CI.

    ``V_me``, ``V_l2``: the estimates of ``E V^Me(lam)`` and ``E V^l2(lam)``; ``ratio`` their quotient
    with standard error ``se`` and ``confidence`` interval ``[ci_low, ci_high]``; ``n`` replications."""

    ratio: float
    se: float
    ci_low: float
    ci_high: float
    V_me: Estimate
    V_l2: Estimate
    n: int
    confidence: float

    def summary(self) -> str:
        return (f"E V^l2/E V^Me = {self.ratio:.6g} (se {self.se:.3g}), {100 * self.confidence:g}% CI "
                f"[{self.ci_low:.6g}, {self.ci_high:.6g}], n={self.n}")

    __repr__ = summary


def mc_fairness_ratio(Sigma_w, P, *, N: int, mu_w=0.0, lam: float = 1.0, b: float = 1.0,
                      n_samples: int = 20_000, seed: SeedLike = 0, confidence: float = 0.99) -> FairnessRatioEstimate:
    """Monte Carlo of ``E V^Me(lam)``, ``E V^l2(lam)`` and their ratio for ``w_k ~ N(mu_w, Sigma_w)`` i.i.d.

    Han et al., JMLR 2024, Proposition 18 / Theorem 32: each replication draws the N true parameters
    (vectorised over clients and replications) and computes ``V = b^2 lam^4/(4(b+lam)^4)`` times the
    population variance (44) across clients of ``||w_bar - w_k||^2`` (pFedMe) or ``||P(w_bar - w_k)||^2``
    (lp-proj-2, orthonormal-row ``P``). ``Sigma_w`` may be singular (factored by ``eigh``). The ratio's
    interval is the delta method on the joint sample moments.
    """
    S = check_matrix(Sigma_w, "Sigma_w", (None, None))
    if S.shape[0] != S.shape[1]:
        raise ValueError(f"`Sigma_w` must be a square (d x d) covariance; got shape {S.shape}")
    d = S.shape[0]
    P = check_matrix(P, "P", (None, d))
    N = check_int(N, "N", 3, why="N >= 3 (E V = 0 for N <= 2)")
    check_alloc(N * d, "one replication's parameters (N x d)", N=N, d=d)
    mu = check_finite_array(mu_w, "mu_w")
    if mu.ndim > 1 or mu.size not in (1, d):
        raise ValueError(f"`mu_w` must be a scalar or a vector of length d={d}; got shape {mu.shape}")
    lam = check_real(lam, "lam", 0, low_open=True)
    b = check_real(b, "b", 0, low_open=True)
    n_samples = check_int(n_samples, "n_samples", 2)
    confidence = check_real(confidence, "confidence", 0, 1, True, True)
    ev, evec = np.linalg.eigh((S + S.T) / 2)
    if ev.min() < -1e-10 * max(abs(ev).max(), 1e-300):
        raise ValueError("`Sigma_w` must be positive semi-definite")
    L = evec * np.sqrt(np.maximum(ev, 0.0))
    from ..montecarlo import BLOCK

    blk = max(1, min(BLOCK, (1 << 22) // max(N * d, 1)))
    coef = b ** 2 * lam ** 4 / (4 * (b + lam) ** 4)

    def draw(g, size):
        W = g.standard_normal((size, N, d)) @ L.T + mu
        dev = W - W.mean(axis=1, keepdims=True)
        v1 = coef * np.var(np.einsum("skd,skd->sk", dev, dev), axis=1)
        dp = dev @ P.T
        v2 = coef * np.var(np.einsum("skd,skd->sk", dp, dp), axis=1)
        return np.stack([v1, v2, v1 * v1, v2 * v2, v1 * v2], axis=1)

    est = _mc(draw, n_samples, seed, None, confidence, block=blk, Sigma_w="(matrix)", P="(matrix)", mu_w=mu_w, lam=lam,
              b=b)
    m1, m2, q11, q22, q12 = (float(x) for x in est.mean)
    n = est.n
    c11, c22, c12 = q11 - m1 ** 2, q22 - m2 ** 2, q12 - m1 * m2
    if not m1 * m1 > 0:
        raise ValueError("E V^Me estimated as 0 (or so small that its square underflows float64): `Sigma_w` has no "
                         "variance (or `mu_w` is too large in magnitude for float64 to resolve it, or `lam`, `b` so "
                         "extreme that the factor b^2 lam^4/(4 (b+lam)^4) underflows)")
    R = m2 / m1
    se = math.sqrt(max(c22 - 2 * R * c12 + R ** 2 * c11, 0.0) / (n * m1 ** 2))
    from scipy import stats

    q = float(stats.t.ppf(0.5 + confidence / 2, df=n - 1))

    def sub(i):
        return Estimate(mean=float(est.mean[i]), se=float(est.se[i]), ci_low=float(est.ci_low[i]),
                        ci_high=float(est.ci_high[i]), n=n, confidence=confidence)

    return FairnessRatioEstimate(ratio=R, se=se, ci_low=R - q * se, ci_high=R + q * se, V_me=sub(0), V_l2=sub(1),
                                 n=n, confidence=confidence)


#: replications per sampler call of the sufficient-statistics sampler (O(r) floats each)
_SUFF_BLOCK = 1 << 16


def _suffstat_prepare(p: LinearFLProblem, method, attack, N_a):
    """Fixed quantities of the sufficient-statistics sampler (see :func:`mc_test_loss`)."""
    proj = method == "lp-proj-2"
    Wm = p.W @ p.P.T if proj else p.W
    N, m = Wm.shape
    Nb = N - N_a
    mu = Wm[:Nb].sum(axis=0) / N
    e = mu - Wm[:Nb]
    ebar = e.mean(axis=0)
    Ec = float(np.sum((e - ebar) ** 2))
    cols = [ebar]
    if attack == "same-value" and N_a:
        cols.append(np.ones(m))
    if attack == "sign-flip" and N_a:
        cols.extend(Wm[Nb:])
    B = np.array(cols).T  # (m, c)
    U, sv, _ = np.linalg.svd(B, full_matrices=False)
    U = U[:, sv > 1e-12 * max(float(sv.max(initial=0.0)), 1e-300)] if sv.size else U[:, :0]
    return dict(m=m, Nb=Nb, N=N, U=U, r=U.shape[1], eU=U.T @ ebar, oneU=U.T @ np.ones(m), WaU=Wm[Nb:] @ U,
                Ec=Ec, sum_e2=float(np.sum(e ** 2)), s=p.sigma / math.sqrt(p.b * p.n), b=p.b, sigma=p.sigma,
                comp_dof=Nb * (p.d - p.d_sub) if proj else 0)


def _chi2(g, dof, size):
    return g.chisquare(dof, size) if dof > 0 else np.zeros(size)


def _suffstat_losses(g, size, q, lam, attack, N_a, tau):
    """Benign-average losses of pfedme/ditto (or lp-proj-2 in projected coordinates) and of local
    training on the same draw, from sufficient statistics; exact in law (see :func:`mc_test_loss`)."""
    m, Nb, N, r, s, b = q["m"], q["Nb"], q["N"], q["r"], q["s"], q["b"]
    # benign noise sum Zs = sqrt(Nb) (U g + R), ||R||^2 ~ chi^2_{m - r}
    gz = g.standard_normal((size, r))
    R2 = _chi2(g, m - r, size)
    # attack sum A = U a + kappa h, h ~ N(0, I_m) = U gh + H; <R, H> = ||R|| eta, ||H||^2 = eta^2 + chi^2_{m-r-1}
    a = np.zeros((size, r))
    kappa = np.zeros(size)
    if attack == "same-value" and N_a:
        a = tau * math.sqrt(N_a) * g.standard_normal((size, 1)) * q["oneU"]
    elif attack == "gaussian" and N_a:
        kappa = np.full(size, tau * math.sqrt(N_a))
    elif attack == "sign-flip" and N_a:
        c = np.abs(tau * g.standard_normal((size, N_a)))
        a = -c @ q["WaU"]
        kappa = s * np.sqrt(np.sum(c ** 2, axis=1))
    if np.any(kappa):
        gh = g.standard_normal((size, r))
        eta = g.standard_normal(size) if m > r else np.zeros(size)
        H2 = eta ** 2 + _chi2(g, m - r - 1, size)
    else:
        gh, eta, H2 = np.zeros((size, r)), np.zeros(size), np.zeros(size)
    R = np.sqrt(R2)
    RH = R * eta
    sq = math.sqrt(Nb)
    # v = (s Zs + A)/N: in-span part vU, rest part (s sqrt(Nb) R + kappa H)/N
    vU = (s * sq * gz + a + kappa[:, None] * gh) / N
    v_rest2 = (s ** 2 * Nb * R2 + 2 * s * sq * kappa * RH + kappa ** 2 * H2) / N ** 2
    Zs2 = Nb * (np.sum(gz ** 2, axis=1) + R2)
    Zs_e = sq * gz @ q["eU"]
    Zs_v = sq * (np.sum(gz * vU, axis=1) + (s * sq * R2 + kappa * RH) / N)
    v_e = vU @ q["eU"]
    v2 = np.sum(vU ** 2, axis=1) + v_rest2
    # centred part: G ~ N(0, Ec), Q = G^2/Ec + chi^2_{(Nb-1)m-1}
    if q["Ec"] > 0:
        G = math.sqrt(q["Ec"]) * g.standard_normal(size)
        Q = G ** 2 / q["Ec"] + _chi2(g, (Nb - 1) * m - 1, size)
    else:
        G = np.zeros(size)
        Q = _chi2(g, (Nb - 1) * m, size)
    z2 = Zs2 / Nb + Q  # sum_k ||z_k||^2
    S = (b ** 2 * s ** 2 * z2 + lam ** 2 * (q["sum_e2"] + 2 * Nb * v_e + Nb * v2)
         + 2 * b * s * lam * (G + Zs_e + Zs_v))
    comp = s ** 2 * _chi2(g, q["comp_dof"], size)
    base = q["sigma"] ** 2 / 2
    L = base + b / (2 * Nb) * (S / (b + lam) ** 2 + comp)
    Lloc = base + b / (2 * Nb) * (s ** 2 * z2 + comp)
    return L, Lloc


def test_loss_general(method: str, lam, problem: LinearFLProblem, *, attack: str | None = None,
                      N_a: int = 0, tau: float = 0.0):
    """Exact benign-average test loss for the given true ``W`` (no uniformity assumption; App. B.3).

    With ``m`` the expected aggregate, ``V_a`` the summed trace of the malicious messages'
    covariances and ``B = (1/N_b) sum_{benign} ||m - w_k||^2`` (``P``-projected for lp-proj-2):
    fedavg ``sigma^2/2 + (b/(2N^2))(N_b sigma^2 d/(b n) + V_a) + (b/2) B``; pfedme/ditto
    ``sigma^2/2 + b/(2(b+lam)^2) [d (b^2 + 2 b lam/N + N_b lam^2/N^2) sigma^2/(b n) + lam^2 V_a/N^2 + lam^2 B]``;
    lp-proj-2 the same in ``d_sub`` plus ``(d - d_sub) sigma^2/(2n)``. Malicious = the last N_a.
    """
    check_choice(method, "method", METHODS)
    p = _check_problem(problem)
    N_a = _check_attack(attack, N_a, p.N, tau)
    lam = check_finite_array(lam, "lam", 0)
    out = _test_loss_general(method, lam, p, attack, N_a, tau)
    return check_finite_result(out, "the test loss", "problem", lam=lam, tau=tau)


def _test_loss_general(method, lam, p, attack, N_a, tau):
    N, d, d_sub, b, s2 = p.N, p.d, p.d_sub, p.b, p.sigma ** 2
    N_b = N - N_a
    if method == "local":
        return float(s2 / 2 + s2 * d / (2 * p.n)) + 0 * lam
    proj = method == "lp-proj-2"
    Wm = p.W @ p.P.T if proj else p.W
    dim = d_sub if proj else d
    ben, mal = Wm[:N_b], Wm[N_b:]
    if attack == "sign-flip":
        mvec = (ben.sum(0) - math.sqrt(2 / math.pi) * tau * mal.sum(0)) / N
        V_a = float(np.sum((math.pi - 2) / math.pi * tau ** 2 * np.sum(mal ** 2, axis=1)
                           + tau ** 2 * s2 * dim / (b * p.n)))
    else:
        mvec = ben.sum(0) / N
        V_a = N_a * tau ** 2 * dim
    B = float(np.mean(np.sum((mvec - ben) ** 2, axis=1)))
    if method == "fedavg":
        return s2 / 2 + b / (2 * N ** 2) * (N_b * s2 * d / (b * p.n) + V_a) + b / 2 * B + 0 * lam
    out = s2 / 2 + b / (2 * (b + lam) ** 2) * (dim * (b ** 2 + 2 * b * lam / N + N_b * lam ** 2 / N ** 2)
                                              * s2 / (b * p.n) + lam ** 2 * V_a / N ** 2 + lam ** 2 * B)
    if proj:
        out = out + (d - d_sub) * s2 / (2 * p.n)
    return out


def lpproj2_general_solution(G: np.ndarray, h: np.ndarray, P: np.ndarray, lam: float):
    """lp-proj-2's global and personalised solutions for general designs and any full-row-rank ``P``
    (our closed form from ``sum_k grad F_k = 0``, App. B.1): with ``M_k = G_k + lam P^T P``
    (``G_k = Xi_k^T Xi_k / n``, ``h_k = Xi_k^T y_k / n``),
    ``w = [sum_k (I - lam P M_k^{-1} P^T)]^{-1} sum_k P M_k^{-1} h_k`` and ``x_k = M_k^{-1}(h_k + lam P^T w)``.

    ``G`` (N, d, d), ``h`` (N, d), ``P`` (d_sub, d) finite, ``lam >= 0``; singular systems raise a ``ValueError``."""
    G = check_matrix(G, "G", (None, None, None))
    N, d = G.shape[0], G.shape[1]
    if G.shape[2] != d:
        raise ValueError(f"`G` must be a stack of square matrices (N, d, d); got shape {G.shape}")
    h = check_matrix(h, "h", (N, d))
    P = check_matrix(P, "P", (None, d))
    lam = check_real(lam, "lam", 0)
    try:
        w, x = _lpproj2_general_solution(G, h, P, lam)
    except np.linalg.LinAlgError as exc:
        raise ValueError(f"singular system ({exc}): G_k + lam P^T P must be invertible (`G`, `P`, `lam`)") from None
    return check_finite_result((w, x), "the lp-proj-2 solution", "G", "h", "P", lam=lam)


def _lpproj2_general_solution(G, h, P, lam):
    M = G + lam * P.T @ P
    Minv_PT = np.linalg.solve(M, np.broadcast_to(P.T, M.shape[:-2] + P.T.shape))  # (N, d, d_sub)
    Minv_h = np.linalg.solve(M, h[..., None])[..., 0]
    A = np.sum(np.eye(P.shape[0]) - lam * P @ Minv_PT, axis=0)
    w = np.linalg.solve(A, np.sum(Minv_h @ P.T, axis=0))
    x = np.linalg.solve(M, (h + lam * w @ P)[..., None])[..., 0]
    return w, x


def admm_l1_inner(G, h, P, w, lam, *, rho: float | None = None, nu: float = 1e-10,
                  max_iter: int = 10_000):
    """Inner solve of lp-proj-1 (p = 1), vectorised over clients:
    ``min_x (1/2) x^T G_k x - h_k^T x + lam ||w_k - P x||_1`` by ADMM on ``z = w_k - P x``.

    The paper leaves the p = 1 inner solver open (Algorithm 1, line 7 with a nonsmooth
    objective). We use scaled ADMM with penalty ``rho`` (default ``lam``) and stop when the
    squared primal and dual residuals are both <= ``nu`` (the paper's accuracy parameter).
    Returns ``(x, iterations)``. ``lam > 0``, ``rho > 0``, ``nu >= 0``, ``max_iter >= 1``.
    """
    G = check_matrix(G, "G", (None, None, None))
    Nc, d = G.shape[0], G.shape[1]
    if G.shape[2] != d:
        raise ValueError(f"`G` must be a stack of square matrices (N, d, d); got shape {G.shape}")
    h = check_matrix(h, "h", (Nc, d))
    P = check_matrix(P, "P", (None, d))
    w = check_matrix(w, "w", (Nc, P.shape[0]))
    lam = check_real(lam, "lam", 0, low_open=True)
    rho = lam if rho is None else check_real(rho, "rho", 0, low_open=True)
    nu = check_real(nu, "nu", 0)
    max_iter = check_int(max_iter, "max_iter", 1)
    check_iterations(max_iter, "the ADMM iterations", max_iter=max_iter)
    try:
        x, it = _admm_l1_inner(G, h, P, w, lam, rho, nu, max_iter)
    except np.linalg.LinAlgError as exc:
        raise ValueError(f"singular system ({exc}): G_k + rho P^T P must be invertible (`G`, `P`, `rho`, which "
                         f"defaults to `lam`)") from None
    return check_finite_result(x, "the ADMM solution", "G", "h", "P", "w", lam=lam, rho=rho), it


def _admm_l1_inner(G, h, P, w, lam, rho, nu, max_iter):
    x, _, it = _admm_l1_split(G, h, P, w, lam, rho, nu, max_iter)
    return x, it


def _admm_l1_split(G, h, P, w, lam, rho, nu, max_iter):
    """:func:`admm_l1_inner` returning also the split variable ``z``, ADMM's estimate of ``w - P x``: it is
    a soft-thresholded vector, exactly zero in the coordinates where the l1 term is not active."""
    Nc, d = h.shape
    K = G + rho * P.T @ P
    x = np.zeros((Nc, d))
    z = w - x @ P.T
    u = np.zeros_like(z)
    for it in range(1, max_iter + 1):
        x = np.linalg.solve(K, (h + rho * (w - z + u) @ P)[..., None])[..., 0]
        Px = x @ P.T
        z_old = z
        v = w - Px + u
        z = np.sign(v) * np.maximum(np.abs(v) - lam / rho, 0.0)
        r = w - Px - z
        u = u + r
        s = rho * (z - z_old) @ P
        if np.max(np.sum(r ** 2, -1)) <= nu and np.max(np.sum(s ** 2, -1)) <= nu:
            break
    return x, z, it


@dataclass(frozen=True, eq=False)
class Algorithm1Result:
    """Output of :func:`run_algorithm1`: the global ``w`` (d_sub, or d for pfedme/fedavg), the
    personalised ``x`` (N, d), and the per-round global iterates ``history`` (T+1, ...)."""

    w: np.ndarray
    x: np.ndarray
    history: np.ndarray
    params: dict

    def summary(self) -> str:
        return f"Algorithm1Result({self.params})"

    __repr__ = summary


def run_algorithm1(problem: LinearFLProblem, lam: float, *, method: str = "lp-proj", p: int = 2,
                   T: int = 1, R: int = 300, S: int | None = None, beta: float = 1.0,
                   eta: float = 1.0, attack: str | None = None, N_a: int = 0, tau: float = 0.0,
                   data=None, nu: float = 1e-10, w0=None, seed: SeedLike = 0) -> Algorithm1Result:
    """Run Algorithm 1 exactly on the linear-regression losses ``f_k(x) = ||Xi_k x - y_k||^2/(2n)``.

    Han et al., JMLR 2024, Algorithm 1. Each round every client takes ``R`` local steps
    (line 8; p = 2: ``w <- w - eta lam (w - P x)``; p = 1: ``w <- w - eta lam sign(w - P x)``),
    each after an inner solve of (3) (p = 2 exact linear solve; p = 1 :func:`admm_l1_inner` to
    accuracy ``nu``); the server samples ``S`` clients without replacement and sets
    ``w <- (1 - beta) w + beta mean`` (line 12). Malicious clients (the last ``N_a``) replace their
    message. Finally each client solves the inner problem at the final ``w``.

    ``method="pfedme"`` is lp-proj-2 with ``P = I``; ``method="fedavg"`` runs ``R`` gradient steps
    of size ``eta`` on ``f_k`` from the global model and averages (``x_k`` = global);
    ``method="ditto"`` is fedavg's global followed by the exact prox step ``x_k`` of pfedme.
    ``data=(Xi, y)`` by default is drawn from ``problem`` with ``seed``.
    """
    check_choice(method, "method", ("lp-proj", "pfedme", "fedavg", "ditto"))
    check_choice(p, "p", (1, 2))
    _check_problem(problem)
    lam = check_real(lam, "lam", 0)
    if p == 1 and method in ("lp-proj", "pfedme") and lam == 0:
        raise ValueError("`lam` must be > 0 for p=1 (the ADMM penalty rho = lam)")
    T = check_int(T, "T", 1)
    R = check_int(R, "R", 1)
    N = problem.N
    S = N if S is None else check_int(S, "S", 1, N)
    N_a = _check_attack(attack, N_a, N, tau)
    beta = check_real(beta, "beta", 0)
    eta = check_real(eta, "eta", 0, low_open=True)
    nu = check_real(nu, "nu", 0, low_open=True, why="the inner-solve tolerance ||grad h~_k||^2 <= nu must be positive")
    check_iterations(T * R, "Algorithm 1 (T rounds of R local steps)", T=T, R=R)
    check_alloc(T + 1, "the history of global iterates", itemsize=8 * problem.d, T=T)
    d = problem.d
    if data is None:
        check_alloc(N * problem.n * d, "the designs (N x n x d)", N=N, n=problem.n, d=d)
    else:
        if not isinstance(data, (tuple, list)) or len(data) != 2:
            raise TypeError(f"`data` must be a pair (Xi, y) of arrays; got {data!r}")
        Xi_ = check_matrix(data[0], "data", (N, None, d))
        data = (Xi_, check_matrix(data[1], "data", Xi_.shape[:2]))
    if w0 is not None:
        w0 = check_matrix(w0, "w0", ((problem.d_sub if method == "lp-proj" else d),))
    rng = as_generator(seed)
    Xi, y = problem.sample_data(rng) if data is None else data
    n = Xi.shape[1]
    G = np.swapaxes(Xi, 1, 2) @ Xi / n
    h = np.einsum("knd,kn->kd", Xi, y) / n
    d = problem.d
    P = problem.P if method == "lp-proj" else np.eye(d)
    dim = P.shape[0]
    w = np.zeros(dim) if w0 is None else np.asarray(w0, float).copy()
    hist = [w.copy()]
    M = G + lam * P.T @ P

    def inner(wk):  # wk: (N, dim)
        if p == 2 or method == "fedavg":
            return np.linalg.solve(M, (h + lam * wk @ P)[..., None])[..., 0]
        return _admm_l1_inner(G, h, P, wk, lam, lam, nu, 10_000)[0]

    for _ in range(T):
        if not np.all(np.isfinite(w)):
            raise ValueError(f"Algorithm 1 overflowed float64 (diverged): the steps `eta`={eta!r}, `lam`={lam!r} "
                             f"or `beta`={beta!r} are too large for this problem")
        wk = np.broadcast_to(w, (N, dim)).copy()
        for _ in range(R):
            if method in ("fedavg", "ditto"):
                wk = wk - eta * (np.einsum("kij,kj->ki", G, wk) - h)  # GD on f_k
            elif p == 2:
                wk = wk - eta * lam * (wk - inner(wk) @ P.T)
            else:
                # the subgradient sign(w - P x) from ADMM's split variable z (its estimate of w - P x): z is
                # exactly 0 where the exact inner solution has w = P x, while w - P x itself carries the
                # solver's residual there, whose sign is arbitrary and would jitter w by +-eta lam per step
                z = _admm_l1_split(G, h, P, wk, lam, lam, nu, 10_000)[1]
                wk = wk - eta * lam * np.sign(z)
        if N_a:
            wk[N - N_a:] = _attack_messages(rng, attack, wk[N - N_a:], tau)
        sel = rng.choice(N, size=S, replace=False) if S < N else np.arange(N)
        w = (1 - beta) * w + beta * wk[sel].mean(axis=0)
        hist.append(w.copy())
    if method == "fedavg":
        x = np.broadcast_to(w, (N, d)).copy()
    elif method == "ditto":
        x = np.linalg.solve(G + lam * np.eye(d), (h + lam * w)[..., None])[..., 0]
    else:
        x = inner(np.broadcast_to(w, (N, dim)))
    if not (np.all(np.isfinite(w)) and np.all(np.isfinite(x))):
        raise ValueError(f"Algorithm 1 overflowed float64 (diverged): the steps `eta`={eta!r}, `lam`={lam!r} "
                         f"or `beta`={beta!r} are too large for this problem")
    return Algorithm1Result(w=w, x=x, history=np.array(hist),
                            params=dict(method=method, p=p, lam=lam, T=T, R=R, S=S, beta=beta,
                                        eta=eta, attack=attack, N_a=N_a, tau=tau, nu=nu))

test_loss_general.__test__ = False  # type: ignore[attr-defined]  (not a pytest test)


# every public function turns float64 overflows, linear-algebra failures and broadcasting errors
# into ValueErrors naming its parameters (fedtheory._validation.guard_numeric_errors)
_guard_module(globals(), __all__)
