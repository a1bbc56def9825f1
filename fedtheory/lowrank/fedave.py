"""FedAve as analysed by Jadbabaie, Makur and Shah (IEEE Trans. Inf. Theory 2023, Sec. III-D, Appendix D), run exactly.

The paper's FedAve is FedPAQ (Reisizadeh, Mokhtari, Hassani, Jadbabaie and Pedarsani, AISTATS 2020, Algorithm 1)
without quantisation: in every epoch the server samples ``tau m`` clients uniformly without replacement and
broadcasts its model; every sampled client runs ``b`` local SGD steps on its local empirical risk
``(1/s) sum_j f(x^(c,j); theta)``; the server averages the returned models. Every epoch is of type A
(Definition 1), so ``Gamma = T (b + phi tau m)``.

Stochastic gradients: each local step draws ``batch`` indices uniformly **with replacement** from the client's
``s`` samples (``batch = 1``, a single sample, by default) and averages their gradients; this is unbiased for the
local risk's gradient, with variance ``V_c(theta)/batch`` where ``V_c`` is the client's per-sample gradient variance
(computed exactly by :func:`gradient_noise_variance`).

Step sizes. Lemma 3 cites [30, Theorem 1] without restating its step sizes. The default schedule
``steps="fedpaq"`` is our reading of FedPAQ's strongly convex theorem: ``eta_k = 4 mu^{-1}/(k b + 1)`` in epoch
``k`` (constant over the epoch's ``b`` local steps), used for ``k >= T0`` (Lemma 3's range); for the warm-up epochs
``k < T0`` (on which Lemma 3 is silent: it only involves ``E||theta^(T0) - theta*||^2``) the step is held at its
first value ``4 mu^{-1}/(T0 b + 1)``. We could not retrieve FedPAQ's Theorem 1 text to confirm the schedule, so it
is a named parameter: ``steps`` may also be a positive float (constant step) or a length-``T`` array of positive
per-epoch steps.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.special import expit

from .._validation import guard_module as _guard_module
from .._validation import (check_alloc, check_choice, check_finite_array, check_finite_result, check_instance,
                           check_int, check_iterations, check_real)
from ..montecarlo import Estimate, estimate_from_samples
from ..random import SeedLike, as_generator
from .algorithms import LogisticProblem
from .model import sigmoid

__all__ = ["FedAveResult", "run_fedave", "fedave_steps", "lemma3_T0", "lemma3_terms", "gradient_noise_variance",
           "sigma2_sup", "fedave_gamma_to_target", "target_floor"]


def lemma3_T0(kappa, tau, m, mu, b) -> float:
    """Lemma 3's threshold ``T0 = 4 max{kappa, 4 + 32 kappa^2 (1 - tau)/(tau (m - 1)), 4 m/(mu^2 b)}``
    (Jadbabaie, Makur and Shah 2023, Appendix D, from FedPAQ [30, Thm 1]); the middle term is 4 when ``m = 1``
    (then ``tau = 1``). ``kappa >= 1``, ``tau`` in (0, 1], ``m >= 1``, ``mu > 0``, ``b >= 1``."""
    kappa = check_real(kappa, "kappa", 1)
    tau = check_real(tau, "tau", 0, 1, low_open=True)
    m = check_int(m, "m", 1)
    mu = check_real(mu, "mu", 0, low_open=True)
    b = check_int(b, "b", 1)
    if mu ** 2 * b == 0:  # mu^2 underflows float64: the third term is +inf
        raise ValueError(f"`mu` must be large enough that mu^2 b does not underflow float64; got mu={mu!r}, b={b}")
    mid = 4.0 if m == 1 else 4 + 32 * kappa ** 2 * (1 - tau) / (tau * (m - 1))
    return check_finite_result(4 * max(kappa, mid, 4 * m / (mu ** 2 * b)), "Lemma 3's T0", kappa=kappa, tau=tau, m=m,
                               mu=mu, b=b)


def lemma3_terms(T, b, m, tau, L1, mu, sigma2, dist2_T0, T0, e: float = math.e) -> np.ndarray:
    """The four terms of Lemma 3's right-hand side (Appendix D), broadcasting over ``T``:

    ``L1 (T0 b + 1)^2/(2 (T b + 1)^2) E||theta^(T0) - theta*||^2``,
    ``(8 kappa sigma^2/(mu m)) (1 + 8 (1 - tau) m/(tau (m - 1))) b/(T b + 1)``,
    ``(8 e L1 kappa^2 sigma^2/m) (b - 1)^2/(T b + 1)`` and
    ``(128 e kappa^3 sigma^2/mu) (1 + 8 (1 - tau)/(tau (m - 1))) (b - 1)/(T b + 1)^2``, with ``kappa = L1/mu``.
    ``e`` is the constant printed as epsilon in terms 3-4 (erratum 7): Euler's number by default, or any value
    ``>= 0`` (e.g. the target accuracy, the printed reading). The ``(1 - tau)/(tau (m - 1))`` factors are 0 for
    ``m = 1``. Returns an array of shape ``(4,) + shape(T)``."""
    T = check_finite_array(T, "T", 0)
    b = check_int(b, "b", 1)
    m = check_int(m, "m", 1)
    tau = check_real(tau, "tau", 0, 1, low_open=True)
    L1 = check_real(L1, "L1", 0, low_open=True)
    mu = check_real(mu, "mu", 0, L1, low_open=True, why="strong convexity mu <= smoothness L1, so kappa = L1/mu >= 1")
    sigma2 = check_real(sigma2, "sigma2", 0)
    dist2_T0 = check_real(dist2_T0, "dist2_T0", 0)
    T0 = check_real(T0, "T0", 0)
    e = check_real(e, "e", 0)
    kappa = L1 / mu
    het = 0.0 if m == 1 else (1 - tau) / (tau * (m - 1))
    Tb1 = T * b + 1
    t1 = L1 * (T0 * b + 1) ** 2 / (2 * Tb1 ** 2) * dist2_T0
    t2 = 8 * kappa * sigma2 / (mu * m) * (1 + 8 * het * m) * b / Tb1
    t3 = 8 * e * L1 * kappa ** 2 * sigma2 / m * (b - 1) ** 2 / Tb1
    t4 = 128 * e * kappa ** 3 * sigma2 / mu * (1 + 8 * het) * (b - 1) / Tb1 ** 2
    out = np.array([t1, t2, t3, t4])
    return check_finite_result(out, "Lemma 3's terms", "T", b=b, m=m, tau=tau, L1=L1, mu=mu, sigma2=sigma2,
                               dist2_T0=dist2_T0, T0=T0, e=e)


def gradient_noise_variance(problem: LogisticProblem, Theta, batch: int = 1) -> np.ndarray:
    """Exact variance ``E||g~_c(theta) - grad F_c(theta)||^2`` of a client's stochastic gradient (``batch`` indices
    drawn uniformly with replacement from its ``s`` samples) for every client ``c`` and every row of ``Theta``:
    ``(1/batch) (1/s) sum_j ||grad f(x^(c,j); theta) - (1/s) sum_j' grad f(x^(c,j'); theta)||^2`` (Theorem 3,
    assumption 3). Returns shape ``(m, len(Theta))``."""
    check_instance(problem, "problem", LogisticProblem)
    batch = check_int(batch, "batch", 1)
    Theta = np.atleast_2d(check_finite_array(Theta, "Theta"))
    if Theta.shape[-1] != problem.p:
        raise ValueError(f"`Theta` must have {problem.p} columns (p); got shape {Theta.shape}")
    m, s, d = problem.Xc.shape
    check_alloc(m * s * Theta.shape[0] * problem.p, "the per-sample gradients", m=m, s=s, n_theta=Theta.shape[0])
    # the mu theta part is common to all samples and cancels in the variance
    x, y = problem.Xc[..., :-1], problem.Xc[..., -1]
    res = sigmoid(np.einsum("msp,kp->msk", x, Theta)) - y[..., None]  # (m, s, k)
    g = res[..., None] * x[:, :, None, :]  # (m, s, k, p)
    dev = g - g.mean(axis=1, keepdims=True)
    return (dev ** 2).sum(-1).mean(axis=1) / batch


def sigma2_sup(problem: LogisticProblem, lo, hi, batch: int = 1, grid: int = 41) -> float:
    """``max_c max_theta`` of :func:`gradient_noise_variance` over the box ``[lo, hi]^p`` (a ``grid^p`` grid, ``p <= 3``):
    the variance bound sigma^2 of Theorem 3's assumption 3 on the region the iterates visit."""
    check_instance(problem, "problem", LogisticProblem)
    lo, hi = check_real(lo, "lo"), check_real(hi, "hi")
    if not hi > lo:
        raise ValueError(f"`hi` must exceed `lo`; got lo={lo}, hi={hi}")
    grid = check_int(grid, "grid", 2)
    p = problem.p
    if p > 3:
        raise ValueError(f"a grid over [lo, hi]^p is implemented for p <= 3; got p={p}")
    check_alloc(float(grid) ** p * p, "the grid over [lo, hi]^p (grid^p x p)", grid=grid, p=p)
    axes = [np.linspace(lo, hi, grid)] * p
    Theta = np.stack(np.meshgrid(*axes, indexing="ij"), -1).reshape(-1, p)
    return float(gradient_noise_variance(problem, Theta, batch).max())


def fedave_steps(steps, T: int, b: int, mu: float, T0: float) -> np.ndarray:
    """Per-epoch local step sizes for :func:`run_fedave`: ``"fedpaq"`` (``4 mu^{-1}/(max(k, T0) b + 1)`` for epoch
    ``k = 0..T-1``, our reading of FedPAQ [30, Thm 1] with the warm-up held at the first value), a positive float
    (constant), or a length-``T`` array of positive steps."""
    T = check_int(T, "T", 1)
    b = check_int(b, "b", 1)
    mu = check_real(mu, "mu", 0, low_open=True)
    T0 = check_real(T0, "T0", 0)
    check_alloc(T, "the per-epoch steps", T=T)
    if isinstance(steps, str):
        check_choice(steps, "steps", ("fedpaq",))
        c0 = math.ceil(T0)
        # an int64 epoch index while exact; a float beyond (T0 from a tiny tau or mu), where k b + 1 is a float anyway
        k = np.maximum(np.arange(T), c0 if c0 < 2 ** 53 else float(c0))
        return check_finite_result(4.0 / (mu * (k * b + 1.0)), "the FedPAQ steps 4/(mu (k b + 1))", T=T, b=b, mu=mu,
                                   T0=T0)
    if np.ndim(steps) == 0:
        eta = check_real(steps, "steps", 0, low_open=True, why="step sizes must be positive")
        return np.full(T, eta)
    arr = check_finite_array(steps, "steps")
    if arr.shape != (T,):
        raise ValueError(f"`steps` must be 'fedpaq', a positive float or an array of shape ({T},); got shape {arr.shape}")
    if np.any(arr <= 0):
        raise ValueError(f"`steps` must be positive (step sizes must be positive); got min {arr.min()!r}")
    return arr


@dataclass(frozen=True, eq=False)
class FedAveResult:
    """A batch of ``reps`` independent FedAve runs on one problem.

    ``gap[k]`` (shape (reps,)) is ``F(theta^(k)) - F*`` after ``k`` epochs for ``k`` in ``trace_epochs`` (all
    epochs 0..T when traced, else only 0 and T); ``dist2`` likewise ``||theta^(k) - theta*||^2``; ``theta`` the final
    models (reps, p); ``counters``: client gradient evaluations and uploads per client summed over the runs (arrays
    (reps, m)), the server's averaging operations, the epoch types and ``b_t``; ``gamma`` is Definition 1 summed over
    the epochs of one run."""

    theta: np.ndarray
    trace_epochs: np.ndarray
    gap: np.ndarray
    dist2: np.ndarray
    theta_star: np.ndarray
    F_star: float
    steps: np.ndarray
    counters: dict
    gamma: float
    params: dict

    def gap_estimate(self, k: int | None = None, confidence: float = 0.99) -> Estimate:
        """Student-t estimate of ``E F(theta^(k)) - F*`` over the replicates (``k = T`` by default)."""
        i = -1 if k is None else int(np.searchsorted(self.trace_epochs, k))
        if k is not None and (i >= self.trace_epochs.size or self.trace_epochs[i] != k):
            raise ValueError(f"`k` must be a traced epoch; got k={k}")
        return estimate_from_samples(self.gap[i], confidence)

    def summary(self) -> str:
        est = self.gap_estimate()
        return (f"FedAve(T={self.params['T']}, b={self.params['b']}, m={self.params['m']}, tau={self.params['tau']}, "
                f"reps={self.params['reps']}): E gap {est.mean:.3g} [{est.ci_low:.3g}, {est.ci_high:.3g}], "
                f"Gamma={self.gamma:g}")

    __repr__ = summary


def run_fedave(problem: LogisticProblem, T: int, b: int, *, tau: float = 1.0, phi: float = 10.0, reps: int = 100,
               steps="fedpaq", batch: int = 1, theta0=None, trace: bool = False, seed: SeedLike = 0) -> FedAveResult:
    """Run FedAve (FedPAQ without quantisation, the paper's Sec. III-D / Lemma 3) exactly, ``reps`` times at once.

    Parameters
    ----------
    problem : LogisticProblem
        Soft-label logistic regression (Appendix A); FedAve trains on the client data ``Xc`` (m, s, d). The server
        samples ``X0`` (may be empty) enter ``F`` and ``F*`` but no gradient (the paper leaves them unspecified).
    T : int >= 1
        Epochs. ``b`` : int >= 1, local SGD steps per active client per epoch.
    tau : float in (0, 1]
        Fraction of active clients; ``round(tau m)`` (at least 1) clients are sampled without replacement per epoch.
    phi : float >= 0
        Communication-to-computation ratio of Definition 1.
    steps : "fedpaq", positive float, or array (T,)
        Local step sizes per epoch (see :func:`fedave_steps` and the module docstring).
    batch : int >= 1
        Samples per stochastic gradient (uniform with replacement); each costs ``batch`` gradient evaluations.
    theta0 : array (p,), optional
        Common starting model (zeros by default).
    trace : bool
        Record the gaps after every epoch (else only after epochs 0 and T).

    Returns
    -------
    FedAveResult

    Raises
    ------
    ValueError
        ``tau`` outside (0, 1], ``b < 1``, non-positive ``steps``, ``m < 1`` (no client data), ``T < 1``.
    """
    check_instance(problem, "problem", LogisticProblem)
    if problem.Xc.ndim != 3 or problem.Xc.shape[0] < 1:
        raise ValueError(f"`m` (clients in problem.Xc) must be >= 1; got Xc of shape {problem.Xc.shape}")
    m, s, d = problem.Xc.shape
    if s < 1:
        raise ValueError(f"`s` (samples per client) must be >= 1; got {s}")
    T = check_int(T, "T", 1)
    b = check_int(b, "b", 1)
    tau = check_real(tau, "tau", 0, 1, low_open=True)
    phi = check_real(phi, "phi", 0)
    reps = check_int(reps, "reps", 1)
    batch = check_int(batch, "batch", 1)
    p = problem.p
    mu = check_real(problem.mu, "problem.mu", 0, low_open=True, why="FedAve's analysis needs strong convexity")
    k_act = max(1, int(round(tau * m)))
    check_finite_result(float(T * (b * batch + phi * k_act)), "Definition 1's Gamma = T (b batch + phi tau m)",
                        T=T, b=b, batch=batch, phi=phi, tau=tau)
    check_alloc(reps * k_act * batch * d + reps * m, "one local step (reps x tau m x batch x d)", reps=reps, m=m,
                batch=batch)
    check_iterations(T * b, "FedAve's local steps", T=T, b=b)
    L1 = problem.L1
    T0 = lemma3_T0(L1 / mu, tau, m, mu, b)
    eta = fedave_steps(steps, T, b, mu, T0)
    th0 = np.zeros(p) if theta0 is None else check_finite_array(theta0, "theta0")
    if th0.shape != (p,):
        raise ValueError(f"`theta0` must have shape ({p},); got {th0.shape}")
    rng = as_generator(seed)
    theta_star, F_star = problem.minimise()
    Xall = problem.all_data
    xa, ya = Xall[:, :-1], Xall[:, -1]
    ya_mean_x = (ya[:, None] * xa).mean(axis=0)  # (1/n) sum_i y_i x_i

    def gaps(Th):  # F(theta) - F* for every replicate, exactly over the n samples
        z = xa @ Th.T  # (n, reps); y log(1 + e^-z) + (1 - y) log(1 + e^z) = log(1 + e^z) - y z
        F = np.logaddexp(0, z).mean(axis=0) - ya_mean_x @ Th.T + mu / 2 * np.sum(Th ** 2, axis=1)
        return F - F_star, np.sum((Th - theta_star) ** 2, axis=1)

    theta = np.tile(th0, (reps, 1))
    client_grads = np.zeros((reps, m), np.int64)
    uploads = np.zeros((reps, m), np.int64)
    rows = np.arange(reps)[:, None]
    epochs_rec, gap_rec, dist_rec = [0], [], []
    g0, d0 = gaps(theta)
    gap_rec.append(g0)
    dist_rec.append(d0)
    Xc = problem.Xc
    for k in range(T):
        clients = np.argsort(rng.random((reps, m)), axis=1)[:, :k_act]  # uniform without replacement
        client_grads[rows, clients] += b * batch
        uploads[rows, clients] += 1
        th = np.broadcast_to(theta[:, None, :], (reps, k_act, p)).copy()
        j = rng.integers(0, s, (b, reps, k_act, batch))
        Xe = Xc[clients[None, :, :, None], j]  # (b, reps, k_act, batch, d): the epoch's samples
        xe, ye = Xe[..., :-1], Xe[..., -1]
        shrink, step = 1.0 - eta[k] * mu, eta[k] / batch
        for t in range(b):  # theta <- theta - eta (mean_batch (sigmoid(theta^T x) - y) x + mu theta)
            x = xe[t]
            res = expit(np.einsum("rkbp,rkp->rkb", x, th)) - ye[t]  # (reps, k_act, batch)
            th *= shrink
            th -= step * np.einsum("rkb,rkbp->rkp", res, x)
        theta = th.mean(axis=1)
        if trace or k == T - 1:
            gk, dk = gaps(theta)
            epochs_rec.append(k + 1)
            gap_rec.append(gk)
            dist_rec.append(dk)
    if not np.all(np.isfinite(theta)):
        raise ValueError(f"FedAve diverged (non-finite iterates): the `steps` are too large for this problem "
                         f"(first step {eta[0]:.3g}, 1/L1 = {1 / L1:.3g})")
    b_t = b * batch
    gamma = float(T * (b_t + phi * k_act))
    counters = {"client_grads": client_grads, "uploads": uploads, "server_averages": T,
                "server_grads": 0, "epoch_types": ["A"] * T, "b_t": [b_t] * T, "active_per_epoch": k_act}
    return FedAveResult(theta=theta, trace_epochs=np.array(epochs_rec), gap=np.array(gap_rec), dist2=np.array(dist_rec),
                        theta_star=theta_star, F_star=F_star, steps=eta, counters=counters, gamma=gamma,
                        params=dict(T=T, b=b, m=m, s=s, p=p, tau=tau, phi=phi, reps=reps, batch=batch, T0=T0,
                                    k_active=k_act, L1=L1, mu=mu, steps=steps if isinstance(steps, str) else "custom"))


def target_floor(problem: LogisticProblem) -> float:
    """The smallest accuracy a run can certify: the round-off of ``F(theta) - F*`` in float64,
    ``1e3 * eps_machine * max(1, |F*|)`` (below it a measured gap is noise)."""
    check_instance(problem, "problem", LogisticProblem)
    _, F_star = problem.minimise()
    return 1e3 * np.finfo(float).eps * max(1.0, abs(F_star))


def fedave_gamma_to_target(problem: LogisticProblem, eps, b: int, *, T_max: int, tau: float = 1.0,
                           phi: float = 10.0, reps: int = 64, steps="fedpaq", batch: int = 1, confidence: float = 0.99,
                           seed: SeedLike = 0):
    """Run FedAve until the upper ``confidence`` bound of ``E F(theta^(T)) - F*`` is ``<= eps`` at ``T`` and at every
    later traced epoch up to ``T_max`` (a monotone search on one traced run: with ``steps="fedpaq"`` the schedule
    does not depend on the horizon, so the run truncated at ``T`` is the run with horizon ``T``).

    Returns ``(T, Gamma, result)`` with ``Gamma = T (b + phi tau m)`` (Definition 1, every epoch of type A);
    ``T = None`` and ``Gamma = inf`` if ``eps`` is not reached by ``T_max``. A ``ValueError`` names ``eps`` when it is
    below :func:`target_floor` (round-off), and ``steps`` when a custom step array is given (it fixes the horizon)."""
    eps = check_real(eps, "eps", 0, low_open=True)
    T_max = check_int(T_max, "T_max", 1)
    b = check_int(b, "b", 1)
    check_iterations(T_max * b, "FedAve's local steps (T_max x b)", T_max=T_max, b=b)
    floor = target_floor(problem)
    if eps < floor:
        raise ValueError(f"`eps` must be >= the floor {floor:.3g} the run can reach (float64 round-off of F - F*); "
                         f"got eps={eps!r}")
    if not isinstance(steps, str) and np.ndim(steps) != 0:
        raise ValueError("`steps` must be 'fedpaq' or a constant for a run-until-target search (an array fixes T)")
    confidence = check_real(confidence, "confidence", 0, 1, True, True)
    res = run_fedave(problem, T_max, b, tau=tau, phi=phi, reps=reps, steps=steps, batch=batch, trace=True, seed=seed)
    from scipy import stats
    q = stats.t.ppf(0.5 + confidence / 2, df=reps - 1) if reps > 1 else np.inf
    upper = res.gap.mean(axis=1) + q * res.gap.std(axis=1, ddof=1) / math.sqrt(reps) if reps > 1 else res.gap[:, 0]
    ok = upper <= eps
    bad_after = np.flatnonzero(~ok)
    start = 0 if bad_after.size == 0 else bad_after[-1] + 1
    if start >= ok.size:
        return None, math.inf, res
    T = int(res.trace_epochs[start])
    k_act = res.params["k_active"]
    return T, float(T * (b * batch + phi * k_act)), res


# every public function turns float64 overflows, linear-algebra failures and broadcasting errors
# into ValueErrors naming its parameters (fedtheory._validation.guard_numeric_errors)
_guard_module(globals(), __all__)
