"""Helpers shared by the lp-proj claim modules (Han, Li, Lin and Zhang, 2024, JMLR 25).

* the linear model of Sec. 4.2 and App. B: Figure 1's parameters, the attack cases, problems that satisfy the
  uniformity assumptions (36)/(37), exact per-client and benign-average test losses and a brute-force argmin in
  lambda (:mod:`.thm30_losses`, :mod:`.lemma29_prop16_rem17`, :mod:`.fig1`, :mod:`.thm32`);
* ``s`` of Assumption 3 (eq. (5)) measured on a drawn ``P`` (:mod:`.prop3`, :mod:`.prop24_25`);
* the least-squares instance of Lemmas 4-7 and Theorem 9 of Sec. 4.1.1 (:mod:`.lemmas4_8`, :mod:`.thm9`,
  :mod:`.appendix_a2_thm9_proof`; its constants are read as :mod:`.thm9` states);
* the Assumption 6 instances and runs of Sec. 4.1.2 (:mod:`.prop10_lemmas11_12`, :mod:`.thm13`);
* the slope allowance of the rate fits of Theorems 14 and 15 (Sec. 4.1.3; :mod:`.thm14`, :mod:`.thm15`).
"""
from __future__ import annotations

import math
import numpy as np
from fedtheory.random import as_generator
from fedtheory.lpproj import LinearFLProblem, make_projection
from fedtheory.lpproj.algorithms import _closed_form_models
from fedtheory.lpproj import a6 as A6
from fedtheory.lpproj.stochastic import LeastSquaresClients, make_least_squares_clients


# ----------------------------------------------------------------------------- Sec. 4.2 and App. B: the linear model
FIG1 = dict(N=100, n=200, d=100, d_sub=10, b=1.0, sigma=1.0, Sigma=0.1, attack="same-value",
            N_a=20, tau=100.0)
ATTACK_CASES = [(None, 0, 0.0), ("same-value", 4, 3.0), ("gaussian", 4, 3.0), ("sign-flip", 4, 3.0)]


def isotropic_problem(N, d, d_sub, n, b, sigma, Sigma, N_a=0, seed=0) -> LinearFLProblem:
    """True parameters satisfying the uniformity assumptions (36)/(37) exactly.

    ``P`` is a random orthonormal-row projection, completed to an orthogonal ``Q`` (first rows
    ``P``). The benign deviations ``e_k`` from the centre ``m = (sum_benign w_k)/N`` are ``E0 Q``
    with the columns of ``E0`` of equal squared norm ``N_b Sigma``, so that
    ``(1/(d N_b)) sum ||e_k||^2 = (1/(d_sub N_b)) sum ||P e_k||^2 = Sigma``."""
    rng = as_generator(seed)
    N_b = N - N_a
    P = make_projection(d_sub, d, seed=rng)
    Qc, _ = np.linalg.qr(np.hstack([P.T, rng.standard_normal((d, d - d_sub))]))
    Q = Qc.T
    Q[:d_sub] = P
    E0 = rng.standard_normal((N_b, d))
    if N_a == 0:
        E0 -= E0.mean(axis=0)
    E0 *= math.sqrt(N_b * Sigma) / np.linalg.norm(E0, axis=0)
    E = E0 @ Q
    if N_a == 0:
        W = 1.0 + E
    else:
        m = E.sum(axis=0) / N_a  # then (sum_benign w_k)/N = m
        W = np.vstack([m + E, rng.standard_normal((N_a, d))])
    return LinearFLProblem(W=W, n=n, b=b, sigma=sigma, P=P)


# ----------------------------------------------------------------------------- fairness
def closed_form_models(method, w_hat, lam, b, P=None):
    """App. B.1's personalised models without attack (:func:`fedtheory.lpproj.closed_form_models`) on the referees'
    own inputs (finite probe directions and true parameters): the library's kernel without the per-call validation
    of the public function, which costs more than the map itself on the probe stacks."""
    return _closed_form_models(method, np.asarray(w_hat, float), float(lam), float(b), P, None, 0, 0.0, None)


def _exact_client_losses(method, lam, prob):
    """Per-client noise-averaged test losses computed by brute-force linear algebra: x_k = sum_j A_kj w_hat_j,
    E x_k = sum_j A_kj w_j, Cov x_k = (sigma^2/(b n)) sum_j A_kj A_kj^T (independent of the closed forms)."""
    N, d = prob.W.shape
    rows = []
    for k in range(N):
        A = np.zeros((N, d, d))
        for j in range(N):  # response of x_k to a unit change of w_hat_j (linear map): finite basis probing
            for e in range(d):
                wh = np.zeros((N, d))
                wh[j, e] = 1.0
                A[j, :, e] = closed_form_models(method, wh, lam, prob.b, prob.P)[k]
        mean = np.einsum("jde,je->d", A, prob.W)
        cov_tr = prob.sigma ** 2 / (prob.b * prob.n) * float(np.sum(A ** 2))
        rows.append(prob.sigma ** 2 / 2 + prob.b / 2 * (cov_tr + np.sum((mean - prob.W[k]) ** 2)))
    return np.array(rows)


# ----------------------------------------------------------------------------- brute-force referee
def exact_client_losses(method, lam, prob, *, attack=None, N_a=0, tau=0.0, excess=False):
    """Per-client noise-averaged test losses (N,) by brute force, from the solution map alone.

    Every method's personalised models are a linear map ``Z -> x`` of the inputs the server sees
    (``closed_form_models`` with no attack: App. B.1, itself checked against exact runs of
    Algorithm 1): benign rows ``w_hat_k ~ N(w_k, sigma^2/(b n) I)``, malicious rows their messages
    (same-value ``c 1_d``, Gaussian ``N(0, tau^2 I)``, ``c ~ N(0, tau^2)``). So ``E x = map(E Z)``
    and ``tr Cov x_k = sum over independent noise directions u of ||map(u)_k||^2`` (the map is probed
    on every noise direction: ``sqrt(sigma^2/(b n)) e_{j,e}`` for benign ``j``, ``tau 1_j`` or
    ``tau e_{j,e}`` for malicious ``j``). The loss is ``sigma^2/2 + (b/2)(||E x_k - w_k||^2 +
    tr Cov x_k)`` (eq. (35)); ``excess=True`` leaves out ``sigma^2/2``. No loss formula is used."""
    return exact_loss_function(method, prob, attack=attack, N_a=N_a, tau=tau, excess=excess)(lam)


def exact_loss_function(method, prob, *, attack=None, N_a=0, tau=0.0, excess=False):
    """``lam -> exact_client_losses(method, lam, prob, ...)`` with the noise directions built once."""
    if attack is not None and method == "lp-proj-2":
        raise ValueError("the brute-force referee models attacks in the input space (not for lp-proj-2)")
    return _probe_directions(prob, attack=attack, N_a=N_a, tau=tau, excess=excess)(method)


def exact_benign_losses(methods, lam, prob, *, attack=None, N_a=0, tau=0.0, excess=False):
    """:func:`exact_benign_loss` of several ``methods`` at one ``lam`` (a dict), probing the solution maps on one
    set of noise directions (built once for all the methods)."""
    if attack is not None and "lp-proj-2" in methods:
        raise ValueError("the brute-force referee models attacks in the input space (not for lp-proj-2)")
    probe = _probe_directions(prob, attack=attack, N_a=N_a, tau=tau, excess=excess)
    N_b = prob.W.shape[0] - (N_a if attack else 0)
    return {m: float(np.mean(probe(m)(lam)[:N_b])) for m in methods}


def _probe_directions(prob, *, attack=None, N_a=0, tau=0.0, excess=False):
    """``method -> (lam -> per-client losses)`` of :func:`exact_client_losses`, the noise directions built once."""
    N, d = prob.W.shape
    N_a = N_a if attack else 0
    N_b = N - N_a
    sd = prob.sigma / math.sqrt(prob.b * prob.n)
    EZ = prob.W.copy()
    EZ[N_b:] = 0.0  # the attack messages have mean 0
    n_dir = N_b * d + (N_a * d if attack == "gaussian" else N_a)
    U = np.zeros((n_dir, N, d))
    i = np.arange(N_b * d)
    U[i, i // d, i % d] = sd  # benign: sd e_{j,e}
    if N_a and attack == "gaussian":
        i = np.arange(N_a * d)
        U[N_b * d + i, N_b + i // d, i % d] = tau
    elif N_a and attack == "same-value":
        U[N_b * d + np.arange(N_a), N_b + np.arange(N_a), :] = tau
    elif N_a:
        raise ValueError(f"attack {attack!r} is not modelled by the brute-force referee")

    def for_method(method):
        def losses(lam):
            mean = closed_form_models(method, EZ, lam, prob.b, prob.P)
            resp = closed_form_models(method, U, lam, prob.b, prob.P)
            tr_cov = np.einsum("mkd,mkd->k", resp, resp)
            out = prob.b / 2 * (np.sum((mean - prob.W) ** 2, axis=1) + tr_cov)
            return out if excess else prob.sigma ** 2 / 2 + out

        return losses

    return for_method


def exact_benign_loss(method, lam, prob, *, attack=None, N_a=0, tau=0.0, excess=False):
    """Benign-average of :func:`exact_client_losses` (the last ``N_a`` clients are malicious)."""
    return exact_benign_loss_function(method, prob, attack=attack, N_a=N_a, tau=tau, excess=excess)(lam)


def exact_benign_loss_function(method, prob, *, attack=None, N_a=0, tau=0.0, excess=False):
    """``lam -> exact_benign_loss(method, lam, prob, ...)`` with the noise directions built once."""
    f = exact_loss_function(method, prob, attack=attack, N_a=N_a, tau=tau, excess=excess)
    N_b = prob.W.shape[0] - (N_a if attack else 0)
    return lambda lam: float(np.mean(f(lam)[:N_b]))


def brute_force_argmin(f, lo, hi, points=61):
    """Minimiser over ``lam`` in [lo, hi] of ``f(lam)``: a log-spaced grid search, then Brent's method
    (scipy.optimize.minimize_scalar) on log lam inside the grid cell around the best point.
    Never consults a formula for the minimiser."""
    from scipy.optimize import minimize_scalar

    grid = np.logspace(math.log10(lo), math.log10(hi), points)
    vals = np.array([f(g) for g in grid])
    i = int(np.argmin(vals))
    if i in (0, points - 1):
        return float(grid[i])  # on the edge: no interior minimum on [lo, hi]
    u = np.log(grid)
    r = minimize_scalar(lambda x: f(math.exp(x)), bracket=(u[i - 1], u[i], u[i + 1]), tol=1e-12)
    return float(math.exp(r.x))


# ----------------------------------------------------------------------------- Assumption 3, eq. (5)
def _measured_s(P):
    """The smallest s for which (5) holds for this P: max(s_max(P) - 1, 1 - s_min(P)) (from the eigenvalues of
    P P^T)."""
    ev = np.linalg.eigvalsh(P @ P.T)
    return max(math.sqrt(ev[-1]) - 1, 1 - math.sqrt(max(ev[0], 0.0)))


# ----------------------------------------------------------------------------- Sec. 4.1.1: the Theorem 9 instance
#: the least-squares instance: N clients, n samples, d, d_sub, ridge (= Assumption 1's mu), lam
SETUP = dict(N=6, n=20, d=12, d_sub=3, ridge=1.0, heterogeneity=1.0, feature_scale=1 / math.sqrt(3), noise=0.5)
LAM = 0.1


def make_clients(seed, **over) -> LeastSquaresClients:
    kw = {**SETUP, **over}
    return make_least_squares_clients(kw.pop("N"), kw.pop("n"), kw.pop("d"), kw.pop("d_sub"), seed=seed, **kw)


class _GammaTracker:
    """``on_local_step`` hook: the largest per-sample gradient variance at x_hat_k(w~_{k,r}^t) (Lemma 4's points).

    The visited points are buffered and evaluated in batches of :attr:`BATCH` local steps (one vectorised call
    instead of one per step); :attr:`value` evaluates what is pending."""

    BATCH = 64

    def __init__(self, cl, lam):
        self.cl, self.lam, self._value, self._pending = cl, lam, 0.0, []

    def __call__(self, t, r, w_local, g):
        self._pending.append(np.array(w_local, float))
        if len(self._pending) >= self.BATCH:
            self._flush()

    def _flush(self):
        if self._pending:
            cl = self.cl
            W = np.stack(self._pending)
            self._pending = []
            x = cl._z_hat(W, self.lam, cl._quad(self.lam)) @ cl._cache["U"].T
            self._value = max(self._value, float(np.max(cl.gradient_variance(x))))

    @property
    def value(self) -> float:
        self._flush()
        return self._value


# ----------------------------------------------------------------------------- Sec. 4.1.2: Assumption 6 runs
BATCH, NU = 4, 1e-2          # mini-batch size and inner tolerance of the stochastic claims


def _lam(L, factor=1.05):
    """lam = 1.05 max(sqrt(10 L^2 + 1), 4L): inside Theorem 13's regime (hence Prop. 10 and Lemmas 11, 12)."""
    return factor * max(math.sqrt(10 * L ** 2 + 1), 4 * L)


def _ls(seed, *, orthonormal=False, N=6, d=4000, d_sub=2, n=40):
    cl = A6.make_a6_least_squares(N=N, n=n, d=d, d_sub=d_sub, heterogeneity=1.0, noise=0.5,
                                  orthonormal_P=orthonormal, seed=seed)
    return cl


# ----------------------------------------------------------------------------- one-round pieces
_STOCH: dict = {}


def _run(cl, lam, *, T, R, beta, eta_tilde, w0, reps, seed, S=None, batch=BATCH, nu=NU, warm_start=True,
         regime=None):
    """Algorithm 1 on the A6 clients with the shared runner (run_algorithm1_sgd, inner problem over x = P^T y);
    returns the recorded pieces in u = P x coordinates: history, g (reps, T, R, N, d_sub), the local iterates,
    the messages w~_{k,R}, P x_k^t of the inner solve at w~_t (r = 0) and the exact P x_hat_k at every local
    iterate (for gamma_f^2)."""
    from fedtheory.lpproj.stochastic import run_algorithm1_sgd

    if id(cl) not in _STOCH or _STOCH[id(cl)][0] is not cl:
        _STOCH.clear()
        _STOCH[id(cl)] = (cl, A6.to_stochastic_clients(cl))
    eta = eta_tilde / (beta * R)
    res = run_algorithm1_sgd(_STOCH[id(cl)][1], lam, T=T, R=R, S=S, beta=beta, eta=eta, batch=batch, nu=nu, w0=w0,
                             replicates=reps, seed=seed, regime=regime, record=True, warm_start=warm_start)
    g, wl = res.record["g"], res.record["w_local"]
    return dict(history=res.history, g=g, w_local=wl, w_R=wl[:, :, -1] - eta * g[:, :, -1],
                u_pers=res.history[:, :T, None, :] - g[:, :, 0] / lam, u_hat_loc=cl.u_hat(wl, lam, per_client=True),
                sel=res.record["sampled"])


# ----------------------------------------------------------------------------- Sec. 4.1.3: rate fits
#: allowance on the stated slope for the finite-T curvature of the fitted curve (the verdict threshold is
#: stated slope + this)
SLOPE_TOL = 0.1
