"""Exact computations for FedLRGD (Jadbabaie, Makur and Shah, IEEE Trans. Inf. Theory 2023).

* Lemma 1: piecewise Taylor approximants on an explicit l1 cover (d = 1 and d = 2), with the
  derivatives taken symbolically by sympy;
* Theorem 1: truncated-SVD tails of latent-variable matrices;
* Algorithm 1 (FedLRGD) on soft-label logistic regression with instrumented oracle and
  communication counters, and inexact GD (Lemma 2);
* the time models of Section II-D (Erlang maxima, an M/M/1 upload queue);
* the Appendix C procedure (approximate ranks of gradient slices) on a linear analogue.
"""
from __future__ import annotations

import itertools
import math
import warnings
from dataclasses import dataclass, field

import numpy as np

from .._validation import guard_module as _guard_module
from .._validation import (check_alloc, check_choice, check_finite_result, check_instance, check_int,
                           check_iterations, check_matrix, check_real)
from .._warnings import IllConditionedWarning
from ..montecarlo import Estimate, mc_mean
from ..random import SeedLike, as_generator, spawn_seeds
from ._kernels import _cover_cells, _rank_from_sv2, _slice_ranks
from .model import HolderFunction, SoftLabelLogistic, sigmoid

__all__ = ["l1_cover", "taylor_matrix", "svd_tail", "approximate_rank", "LogisticProblem",
           "FedLRGDResult", "run_fedlrgd", "erlang_max_mc", "mm1_departure_times",
           "appendix_c_ranks", "make_logistic_problem"]


# ----------------------------------------------------------------------------- Lemma 1
def l1_cover(q: float, d: int):
    """An explicit (not minimal) cover of [0,1]^d by l1 balls of radius 1/q, as a partition.

    d = 1: cells ``[2(j-1)/q, 2j/q]`` with centres ``(2j-1)/q`` (clamped to [0,1]), ``ceil(q/2)``
    cells. d = 2: squares of side 1/q (each inside the l1 ball of radius 1/q around its centre),
    ``ceil(q)^2`` cells. Returns ``(cell_of(X) -> index array, centres)``.
    """
    q = check_real(q, "q", 0, low_open=True)
    d = check_int(d, "d", 1, 2, why="explicit covers are implemented for d = 1 and d = 2")
    check_alloc(_cover_cells(q, d) * d, "the cover's cell centres", q=q, d=d)
    if d == 1:
        n = math.ceil(q / 2)
        centres = np.minimum((2 * np.arange(1, n + 1) - 1) / q, 1.0)[:, None]
        return (lambda X: np.minimum((X[:, 0] * q / 2).astype(int), n - 1)), centres
    n = math.ceil(q)
    c1 = np.minimum((np.arange(n) + 0.5) / q, 1.0)
    centres = np.array(list(itertools.product(c1, c1)))

    def cell(X):
        i = np.minimum((X * q).astype(int), n - 1)
        return i[:, 0] * n + i[:, 1]

    return cell, centres


def _taylor_terms(fn: HolderFunction):
    """sympy derivatives of g in x of every order <= l, lambdified: list of (multi-index s, s!, f)."""
    import sympy as sp

    xs = sp.symbols(f"x0:{fn.d}", real=True)
    ts = sp.symbols(f"t0:{fn.p}", real=True)
    g = fn.sympy_expr(xs, ts)
    terms = []
    for s in itertools.product(range(fn.l + 1), repeat=fn.d):
        if sum(s) > fn.l:
            continue
        expr = g
        for x, k in zip(xs, s):
            if k:
                expr = sp.diff(expr, x, k)
        f = sp.lambdify((xs, ts), expr, modules=["numpy", {"sign": np.sign}])
        terms.append((s, math.prod(math.factorial(k) for k in s), f))
    return terms


def taylor_matrix(fn: HolderFunction, X: np.ndarray, Theta: np.ndarray, q: float):
    """``N_ij = P_{q,l}(x_i; theta_j)``: Lemma 1's piecewise degree-l Taylor approximant (49) at the
    centre of each point's cell of :func:`l1_cover`. Returns ``(N, number_of_cells_used, n_cells)``.

    ``fn`` is a :class:`HolderFunction` with a symbolic form; ``X`` (n, fn.d) in [0, 1]; ``Theta`` (k, fn.p)."""
    check_instance(fn, "fn", HolderFunction)
    X = check_matrix(X, "X", (None, fn.d))
    if np.any((X < 0) | (X > 1)):
        raise ValueError("`X` must lie in [0, 1]^d (the cover's domain)")
    Theta = check_matrix(Theta, "Theta", (None, fn.p))
    check_alloc(X.shape[0] * Theta.shape[0], "the n x k approximant", X=X.shape, Theta=Theta.shape)
    cell, centres = l1_cover(q, fn.d)
    idx = cell(X)
    Z = centres[idx]  # (n, d) expansion points
    N = np.zeros((X.shape[0], Theta.shape[0]))
    for s, sfact, f in _taylor_terms(fn):
        mono = np.prod((X - Z) ** np.array(s), axis=1)  # (y - z)^s
        vals = np.array([np.broadcast_to(f(tuple(Z.T), tuple(t)), (X.shape[0],)) for t in Theta]).T
        N += vals * (mono / sfact)[:, None]
    check_finite_result(N, "the Taylor approximant", "Theta", "fn")
    return N, int(np.unique(idx).size), int(centres.shape[0])


def svd_tail(M: np.ndarray) -> np.ndarray:
    """``tail[r] = (1/(n k)) sum_{i > r} sigma_i(M)^2`` for r = 0..min(n, k) (Theorem 1's left side;
    Eckart-Young-Mirsky: ``||M - M_r||_F^2 = sum_{i>r} sigma_i^2``). ``M`` is a finite n x k matrix."""
    M = check_matrix(M, "M", (None, None))
    if M.size == 0:
        raise ValueError(f"`M` must not be empty; got shape {M.shape}")
    return check_finite_result(_svd_tail(M), "the SVD tail", "M")


def _svd_tail(M):
    n, k = M.shape
    sv = np.linalg.svd(M, compute_uv=False)
    sq = sv[::-1] ** 2
    tail = np.concatenate([np.cumsum(sq)[::-1], [0.0]])
    return tail / (n * k)


def approximate_rank(M: np.ndarray, threshold: float = 0.9) -> int:
    """Appendix C, eq. (77): smallest J with ``sum_{i<=J} sigma_i^2 >= threshold ||M||_F^2``.

    ``M`` is a finite matrix and ``threshold`` in (0, 1]."""
    M = check_matrix(M, "M", (None, None))
    threshold = check_real(threshold, "threshold", 0, 1, low_open=True)
    sv2 = np.linalg.svd(M, compute_uv=False) ** 2
    check_finite_result(sv2, "the squared singular values", "M")
    return _rank_from_sv2(sv2, threshold)


# ----------------------------------------------------------------------------- FedLRGD
@dataclass(frozen=True, eq=False)
class LogisticProblem:
    """Soft-label logistic regression (Appendix A, eq. (66)): server data ``X0`` (r, d), client data
    ``Xc`` (m, s, d); each row is ``(x, y)`` with ``x in [0,1]^(d-1)``, ``y in [0,1]``; ``p = d - 1``."""

    X0: np.ndarray
    Xc: np.ndarray
    mu: float

    @property
    def d(self) -> int:
        return self.X0.shape[1]

    @property
    def p(self) -> int:
        return self.d - 1

    @property
    def n(self) -> int:
        return self.X0.shape[0] + self.Xc.shape[0] * self.Xc.shape[1]

    @property
    def all_data(self) -> np.ndarray:
        return np.vstack([self.X0, self.Xc.reshape(-1, self.d)])

    @property
    def L1(self) -> float:
        """(68): ``(d - 1)/2 + mu`` (the paper's constant; valid though loose by 2 on the data term)."""
        return self.p / 2 + self.mu

    @staticmethod
    def grads(X: np.ndarray, Theta: np.ndarray, mu: float) -> np.ndarray:
        """Per-sample gradients ``(sigmoid(theta^T x) - y) x + mu theta``: shape (len(X), len(Theta), p)."""
        x, y = X[:, :-1], X[:, -1]
        res = sigmoid(x @ Theta.T) - y[:, None]
        return res[:, :, None] * x[:, None, :] + mu * Theta[None, :, :]

    def loss(self, theta: np.ndarray) -> float:
        X = self.all_data
        z = X[:, :-1] @ theta
        y = X[:, -1]
        return float(np.mean(y * np.logaddexp(0, -z) + (1 - y) * np.logaddexp(0, z)) + self.mu / 2 * theta @ theta)

    def grad(self, theta: np.ndarray) -> np.ndarray:
        return self.grads(self.all_data, theta[None], self.mu)[:, 0].mean(axis=0)

    def minimise(self) -> tuple[np.ndarray, float]:
        """``theta*`` and ``F*`` by Newton's method to machine precision."""
        X = self.all_data
        x = X[:, :-1]
        th = np.zeros(self.p)
        for _ in range(100):
            sgm = sigmoid(x @ th)
            H = (x * (sgm * (1 - sgm))[:, None]).T @ x / X.shape[0] + self.mu * np.eye(self.p)
            step = np.linalg.solve(H, self.grad(th))
            th = th - step
            if np.linalg.norm(step) < 1e-15:
                break
        return th, self.loss(th)


def make_logistic_problem(d: int = 3, r: int = 10, m: int = 50, s: int = 20, mu: float = 0.1,
                          seed: SeedLike = 0) -> LogisticProblem:
    """Data uniform in [0,1]^(d-1) with soft labels ``y = sigmoid(theta_true^T x + noise)`` in [0, 1].

    ``d >= 2`` (data dimension, ``p = d - 1`` parameters), ``r, m, s >= 1``, ``mu >= 0``."""
    d = check_int(d, "d", 2)
    r = check_int(r, "r", 1)
    m = check_int(m, "m", 1)
    s = check_int(s, "s", 1)
    mu = check_real(mu, "mu", 0)
    check_alloc(max(r, m * s) * d, "the data (m x s x d)", m=m, s=s, d=d, r=r)
    rng = as_generator(seed)
    th = rng.uniform(-1, 1, d - 1)

    def draw(k):
        x = rng.uniform(0, 1, (k, d - 1))
        y = sigmoid(3 * (x @ th) - 1 + 0.5 * rng.standard_normal(k))
        return np.hstack([x, y[:, None]])

    return LogisticProblem(X0=draw(r), Xc=draw(m * s).reshape(m, s, d), mu=mu)


@dataclass
class _Counters:
    server_grads: int = 0
    client_grads: np.ndarray | None = None
    uploads: np.ndarray | None = None
    epochs: list = field(default_factory=list)  # (type, b_t, clients_communicate)


@dataclass(frozen=True, eq=False)
class FedLRGDResult:
    """FedLRGD run: iterates, optimality gaps, gradient errors, the nodes' exactness, and the
    instrumented counters (``server_grads``, ``client_grads`` per client, ``uploads`` per client,
    ``epochs`` as (type, b_t, clients communicate), ``gamma`` = Definition 1 summed over epochs)."""

    theta: np.ndarray
    gap: np.ndarray
    grad_err: np.ndarray
    node_err: float
    G_inv_norm: np.ndarray
    counters: dict
    gamma: float
    params: dict
    L1: float
    mu: float

    def summary(self) -> str:
        return (f"FedLRGD(r={self.params['r']}, S={self.params['S']}): gap {self.gap[0]:.3g} -> {self.gap[-1]:.3g}, "
                f"node error {self.node_err:.2g}, Gamma={self.gamma:g}")

    __repr__ = summary


def run_fedlrgd(problem: LogisticProblem, r: int | None = None, S: int = 50, *, phi: float = 10.0,
                line10: str = "corrected", rcond: float = 1e-13, seed: SeedLike = 0) -> FedLRGDResult:
    """Run FedLRGD (Algorithm 1, tau = 1) exactly, counting every gradient call and upload.

    Epoch 1 (type B): the server draws ``r`` nodes ``vartheta^(k)`` in ``[-1,1]^p`` and evaluates
    ``r^2`` gradients to form ``G^(i)_{jk} = g_i(x^(0,j); vartheta^(k))`` (34). Epoch 2 (type A):
    each client evaluates ``r s`` gradients and forms ``v^(i,c) = (sum_j [g_i(x^(c,j); vartheta^(k))]_k)
    (G^(i))^{-1}`` (35) by a solve that warns and falls back to least squares when ``G^(i)`` is
    numerically singular; it uploads ``v_1``. Epochs 3..r+1 (type C): uploads ``v_{t-1}``
    (``line10="printed"`` uploads ``v_1`` every time, as typeset). Epoch r+2 (type B): S steps of
    inexact GD (41)-(42) with step ``1/L1``, r server gradients each.
    """
    check_choice(line10, "line10", ("corrected", "printed"))
    check_instance(problem, "problem", LogisticProblem)
    phi = check_real(phi, "phi", 0)
    rcond = check_real(rcond, "rcond", 0)
    r = problem.X0.shape[0] if r is None else check_int(r, "r", 1)
    if r != problem.X0.shape[0]:
        raise ValueError(f"`r` must equal the number of server samples ({problem.X0.shape[0]}); got r={r}")
    S = check_int(S, "S", 1)
    check_iterations(S, "inexact GD", S=S)
    m, s, d = problem.Xc.shape
    check_alloc(max(m * s * r * (d - 1), r * r * (d - 1), (S + 1) * (d - 1)),
                "the gradients (m x s x r x p) and the iterates", m=m, s=s, r=r, S=S)
    p = problem.p
    rng = as_generator(seed)
    cnt = _Counters(client_grads=np.zeros(m, int), uploads=np.zeros(m, int))
    # epoch 1
    nodes = rng.uniform(-1, 1, (r, p))
    G = problem.grads(problem.X0, nodes, problem.mu)  # (r_j, r_k, p)
    cnt.server_grads += r * r
    cnt.epochs.append(("B", r * r, False))
    Gi = np.moveaxis(G, 2, 0)  # (p, j, k)
    sv = np.linalg.svd(Gi, compute_uv=False)
    G_inv_norm = 1.0 / sv[:, -1]
    # epoch 2: clients
    Gc = problem.grads(problem.Xc.reshape(-1, d), nodes, problem.mu).reshape(m, s, r, p)
    cnt.client_grads += r * s
    rows = Gc.sum(axis=1)  # (m, k, p): sum_j g_i(x^(c,j); vartheta^(k))
    bad = sv[:, -1] / sv[:, 0] < rcond
    V = np.empty((m, r, p))
    for i in range(p):  # p small k x k systems shared by all clients: solve v G = row for all clients
        if bad[i]:  # stacklevel 3: the caller, past the validation wrapper around run_fedlrgd
            warnings.warn(f"G^({i}) is numerically singular (sigma_min/sigma_max = {sv[i, -1] / sv[i, 0]:.1e} "
                          f"< {rcond:g}); using lstsq", IllConditionedWarning, stacklevel=3)
            V[:, :, i] = np.linalg.lstsq(Gi[i].T, rows[:, :, i].T, rcond=None)[0].T
        else:
            V[:, :, i] = np.linalg.solve(Gi[i].T, rows[:, :, i].T).T
    cnt.epochs.append(("A", r * s, True))
    received = np.zeros((r, p))
    for t in range(1, r + 1):  # uploads: epoch t+1 carries v_t (v_1 in every epoch if printed)
        k = t - 1 if line10 == "corrected" or t == 1 else 0
        received[t - 1] = V[:, k, :].sum(axis=0)
        cnt.uploads += 1
        if t >= 2:
            cnt.epochs.append(("C", 0, True))
    omega = 1.0 + received  # (r, p)
    n = problem.n

    def grad_hat(th):
        return (problem.grads(problem.X0, th[None], problem.mu)[:, 0, :] * omega).sum(axis=0) / n

    node_err = max(float(np.max(np.abs(grad_hat(nodes[k]) - problem.grad(nodes[k])))) for k in range(r))
    theta_star, F_star = problem.minimise()
    th = np.zeros(p)
    thetas, gaps, errs = [th.copy()], [problem.loss(th) - F_star], []
    for _ in range(S):
        gh = grad_hat(th)
        cnt.server_grads += r
        errs.append(gh - problem.grad(th))
        th = th - gh / problem.L1
        thetas.append(th.copy())
        gaps.append(problem.loss(th) - F_star)
    cnt.epochs.append(("B", r * S, False))
    gamma = float(sum(b + (phi * m if comm else 0) for _, b, comm in cnt.epochs))
    return FedLRGDResult(theta=np.array(thetas), gap=np.array(gaps), grad_err=np.array(errs), node_err=node_err,
                         G_inv_norm=G_inv_norm,
                         counters={"server_grads": cnt.server_grads, "client_grads": cnt.client_grads.tolist(),
                                   "uploads": cnt.uploads.tolist(), "epochs": len(cnt.epochs),
                                   "epoch_types": [e[0] for e in cnt.epochs]},
                         gamma=gamma, params=dict(r=r, S=S, m=m, s=s, d=d, p=p, phi=phi, line10=line10),
                         L1=problem.L1, mu=problem.mu)


# ----------------------------------------------------------------------------- time models
def erlang_max_mc(b: int, k: int, n_samples: int = 20_000, seed: SeedLike = 0) -> Estimate:
    """Monte Carlo of ``b + max_{i<=k} Y_i``, ``Y_i ~ Erlang(b, 1)`` (the epoch computation time of
    Section II-D; the paper's (19) approximates it by ``log k + 2b``). ``b > 0`` (an integer for
    Erlang), ``k >= 1``, ``n_samples >= 2``."""
    check_real(b, "b", 0, low_open=True, why="Erlang shape")
    k = check_int(k, "k", 1)
    n_samples = check_int(n_samples, "n_samples", 2)
    check_alloc(min(n_samples, 4096) * k, "one block of replications (block x k)", k=k, n_samples=n_samples)
    try:
        return mc_mean(lambda g, size: b + g.gamma(b, 1.0, (size, k)).max(axis=1), n_samples, seed, chunk=2000)
    except ValueError as exc:
        if "`sampler` returned" not in str(exc):
            raise
        raise ValueError(f"the replications overflow float64 for `b`={b!r}, `k`={k}") from None


def mm1_departure_times(n_dep: int, nu: float, reps: int = 2000, seed: SeedLike = 0) -> np.ndarray:
    """Time until ``n_dep`` departures of a stationary M/M/1 queue (arrival rate 1, service rate
    ``nu > 1``), simulated event by event, vectorised over ``reps`` replications (Section II-D;
    by Burke's theorem the departures are Poisson(1), so this is Erlang(n_dep, 1))."""
    n_dep = check_int(n_dep, "n_dep", 1)
    nu = check_real(nu, "nu", 1, low_open=True, why="a stable queue needs nu > 1")
    reps = check_int(reps, "reps", 1)
    check_alloc(reps, "the replications", reps=reps)
    check_iterations(4 * n_dep, "the event-by-event simulation (about 2 events per departure)", n_dep=n_dep)
    rng = as_generator(seed)
    rho = 1 / nu
    queue = rng.geometric(1 - rho, reps) - 1  # stationary P(Q = k) = (1 - rho) rho^k
    t = np.zeros(reps)
    deps = np.zeros(reps, int)
    while np.any(deps < n_dep):
        act = deps < n_dep
        rate = 1.0 + np.where(queue > 0, nu, 0.0)
        dt = rng.exponential(1.0, reps) / rate
        is_dep = (queue > 0) & (rng.uniform(size=reps) < nu / rate)
        t = np.where(act, t + dt, t)
        queue = np.where(act, queue + np.where(is_dep, -1, 1), queue)
        deps = np.where(act & is_dep, deps + 1, deps)
    return t


# ----------------------------------------------------------------------------- Appendix C analogue
def appendix_c_ranks(k: int = 60, *, d: int = 20, classes: int = 10, n_train: int = 2000, mu: float = 1e-3,
                     threshold: float = 0.9, min_weight: float = 0.005, seed: SeedLike = 0):
    """Approximate ranks (77) of gradient slices for multinomial logistic regression (linear analogue
    of Appendix C): train ``theta*`` by gradient descent on synthetic data in [0,1]^d with one-hot
    labels, perturb ``theta^(j) = theta* + (||theta*||_1 / p) g_j`` (75), and for each non-trivial
    weight q (``|theta*_q| >= min_weight``) compute the approximate rank of the k x k slice
    ``M_q[i, j] = d f / d theta_q (x_i; theta^(j))``. ``k, d >= 1``, ``classes >= 2``, ``n_train >= 1``,
    ``mu >= 0``, ``threshold`` in (0, 1], ``min_weight >= 0``."""
    k = check_int(k, "k", 1)
    d = check_int(d, "d", 1)
    classes = check_int(classes, "classes", 2)
    n_train = check_int(n_train, "n_train", 1)
    mu = check_real(mu, "mu", 0)
    threshold = check_real(threshold, "threshold", 0, 1, low_open=True)
    min_weight = check_real(min_weight, "min_weight", 0)
    check_alloc(max(k * k * classes * d, (n_train + k) * max(d, classes)),
                "the gradient slices (k x k x classes x d) and the data", k=k, classes=classes, d=d, n_train=n_train)
    rng = as_generator(seed)
    means = rng.uniform(0.2, 0.8, (classes, d))
    lab = rng.integers(0, classes, n_train + k)
    X = np.clip(means[lab] + 0.15 * rng.standard_normal((n_train + k, d)), 0, 1)
    Y = np.eye(classes)[lab]
    Xtr, Ytr = X[:n_train], Y[:n_train]
    W = np.zeros((classes, d))
    for _ in range(500):
        Z = Xtr @ W.T
        P = np.exp(Z - Z.max(1, keepdims=True))
        P /= P.sum(1, keepdims=True)
        W -= 1.0 * ((P - Ytr).T @ Xtr / n_train + mu * W)
    theta = W.ravel()
    p = theta.size
    Thetas = theta + np.abs(theta).sum() / p * rng.standard_normal((k, p))
    Xs, Ys = X[n_train:], Y[n_train:]
    Ws = Thetas.reshape(k, classes, d)
    Z = np.einsum("id,jcd->ijc", Xs, Ws)
    P = np.exp(Z - Z.max(-1, keepdims=True))
    P /= P.sum(-1, keepdims=True)
    R = P - Ys[:, None, :]  # (i, j, c)
    grads = np.einsum("ijc,id->ijcd", R, Xs) + mu * Ws[None]  # (i, j, c, d)
    M = grads.reshape(k, k, p)
    keep = np.flatnonzero(np.abs(theta) >= min_weight)
    ranks, refused = _slice_ranks(M, keep, threshold)  # the slices are validated once, as a stack
    if refused is not None:  # the first slice approximate_rank refuses: its public entry raises that message
        approximate_rank(M[:, :, refused], threshold)
    return np.array(ranks), p, keep.size


# every public function turns float64 overflows, linear-algebra failures and broadcasting errors
# into ValueErrors naming its parameters (fedtheory._validation.guard_numeric_errors)
_guard_module(globals(), __all__)
