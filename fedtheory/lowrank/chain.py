"""Theorem 2's proof chain (53)-(64) on instrumented FedLRGD runs.

Jadbabaie, Makur and Shah, "Federated Optimization of Smooth Loss Functions", IEEE Trans. Inf. Theory 2023, Sec. V
(proof of Theorem 2). Every quantity of the chain is formed explicitly along an exact run of
:func:`fedtheory.lowrank.algorithms.run_fedlrgd` (whose code is not modified):

* the interpolation weights ``w_j = [g_i(x^(j); vartheta^(k))]_k (G^(i))^{-1}`` (38) one client sample at a time,
  and ``v^(i,c) = sum_j w^(i,c)_j`` (39) against the algorithm's single solve (35);
* the auxiliary bound ``max_j sum_k |w_jk| <= ||G^{-1}||_op B r`` (step (vi) of (60));
* Lemma 1's approximant ``P_{q,l}`` (the library's :func:`taylor_matrix`) on an explicit cover with
  ``r = D |S_{d,q}|`` and ``D`` unisolvent server samples per cell, the monomial matrix ``Phi`` (45), the exact
  interpolation coefficients ``a_j`` by both routes of the proof, ``phi(x_j) Phi^{-T}`` and (58);
* (59), every step of (60), the ``delta`` of (61), (62), (63) and (64), each with its premise.

Two instances are provided: the paper's soft-label logistic regression (Appendix A; d = 2, p = 1, class (2, 1)) with
server data placed on the cover, and :class:`PolyTanhKernel`, a strongly convex loss on d = 1 data built so that
``G`` is well conditioned and the chain's premises can hold.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from .._validation import guard_module as _guard_module
from .._validation import (check_alloc, check_choice, check_finite_array, check_finite_result, check_instance,
                           check_int, check_iterations, check_matrix, check_real)
from ..random import SeedLike, as_generator
from ._kernels import _cover_cells, _eq60
from .algorithms import LogisticProblem, l1_cover, run_fedlrgd, taylor_matrix
from .model import HolderFunction, sigmoid

__all__ = ["PolyTanhKernel", "KernelProblem", "make_kernel_problem", "make_cover_logistic_problem",
           "monomial_exponents", "monomial_matrix", "cover_lattice", "explicit_weights", "ChainResult",
           "fedlrgd_chain", "eq60_steps", "eq59_rhs"]


# ----------------------------------------------------------------------------- instances
@dataclass(frozen=True)
class PolyTanhKernel(HolderFunction):
    """``g(x; theta) = mu theta + sum_{v=0}^{l} x^v tanh(beta (theta - t_v)) + lam x^{l+1} tanh(theta)`` on
    ``x in [0, 1]`` (d = 1), ``theta in R`` (p = 1), knots ``t_v = -1 + (2v + 1)/(l + 1)``.

    Class (eta, L2) = (l + 1, lam (l + 1)!) w.r.t. l1 (eq. (6), exponent eta - l = 1): the l-th x-derivative is
    ``l! tanh(beta (theta - t_l)) + lam (l+1)! x tanh(theta)``, Lipschitz in x with constant
    ``lam (l+1)! |tanh(theta)| <= L2`` for every theta. It is the theta-gradient of the loss
    ``f = mu theta^2/2 + sum_v x^v logcosh(beta(theta - t_v))/beta + lam x^{l+1} logcosh(theta)``, which is
    mu-strongly convex (x^v >= 0 and tanh is increasing) with ``L1 = mu + (l + 1) beta + lam``. Build it with
    :func:`make_kernel_problem` or ``PolyTanhKernel.of(l, lam, beta, mu)``.
    """

    lam: float = 0.01
    beta: float = 3.0
    mu: float = 0.1
    amp: float = 1.0

    @classmethod
    def of(cls, l: int, lam: float, beta: float = 3.0, mu: float = 0.1, amp: float = 1.0) -> "PolyTanhKernel":
        l = check_int(l, "l", 1, 6)
        lam = check_real(lam, "lam", 0, low_open=True)
        beta = check_real(beta, "beta", 0, low_open=True)
        mu = check_real(mu, "mu", 0, low_open=True)
        amp = check_real(amp, "amp", 0, low_open=True)
        return cls(eta=float(l + 1), L2=lam * math.factorial(l + 1), d=1, p=1, lam=lam, beta=beta, mu=mu, amp=amp)

    @property
    def knots(self) -> np.ndarray:
        return -1 + (2 * np.arange(self.l + 1) + 1) / (self.l + 1)

    def matrix(self, X, Theta):
        x = np.asarray(X, float)[:, 0][:, None]
        th = np.asarray(Theta, float)[:, 0][None, :]
        out = self.mu * th + self.lam * x ** (self.l + 1) * np.tanh(th)
        for v, t in enumerate(self.knots):
            out = out + self.amp * x ** v * np.tanh(self.beta * (th - t))
        return out

    def loss_matrix(self, X, Theta):
        """``f(x_i; theta_j)`` (the antiderivative in theta of :meth:`matrix`)."""
        x = np.asarray(X, float)[:, 0][:, None]
        th = np.asarray(Theta, float)[:, 0][None, :]

        def logcosh(z):
            return np.logaddexp(z, -z) - math.log(2)
        out = self.mu * th ** 2 / 2 + self.lam * x ** (self.l + 1) * logcosh(th)
        for v, t in enumerate(self.knots):
            out = out + self.amp * x ** v * logcosh(self.beta * (th - t)) / self.beta
        return out

    def dmatrix(self, X, Theta):
        """``d g / d theta`` (the loss's second derivative)."""
        x = np.asarray(X, float)[:, 0][:, None]
        th = np.asarray(Theta, float)[:, 0][None, :]
        out = self.mu + self.lam * x ** (self.l + 1) / np.cosh(th) ** 2
        for v, t in enumerate(self.knots):
            out = out + self.amp * x ** v * self.beta / np.cosh(self.beta * (th - t)) ** 2
        return out

    @property
    def L1(self) -> float:
        return self.mu + self.amp * (self.l + 1) * self.beta + self.lam

    def bound(self, R: float) -> float:
        """(9) on ``[0, 1] x [-R, R]``: ``|g| <= mu R + amp (l + 1) + lam``."""
        return self.mu * R + self.amp * (self.l + 1) + self.lam

    def sample_theta(self, rng, k):
        return rng.uniform(-1, 1, (k, 1))

    def sympy_expr(self, xs, ts):
        import sympy as sp
        x, t = xs[0], ts[0]
        expr = self.mu * t + self.lam * x ** (self.l + 1) * sp.tanh(t)
        for v, kn in enumerate(self.knots):
            expr = expr + self.amp * x ** v * sp.tanh(self.beta * (t - float(kn)))
        return expr


@dataclass(frozen=True, eq=False)
class KernelProblem(LogisticProblem):
    """ERM problem (3) for :class:`PolyTanhKernel`: server data ``X0`` (r, 1), client data ``Xc`` (m, s, 1),
    p = 1. A :class:`LogisticProblem` subclass so that :func:`run_fedlrgd` runs it unchanged."""

    kernel: PolyTanhKernel = None

    @property
    def p(self) -> int:
        return 1

    @property
    def L1(self) -> float:
        return self.kernel.L1

    def grads(self, X, Theta, mu=None):
        return self.kernel.matrix(X, Theta)[:, :, None]

    def loss(self, theta) -> float:
        return float(np.mean(self.kernel.loss_matrix(self.all_data, np.atleast_1d(theta)[None])))

    def minimise(self):
        X = self.all_data
        th = np.zeros(1)
        for _ in range(60):  # Newton on a strongly convex smooth 1-d objective: quadratic convergence
            g = float(np.mean(self.kernel.matrix(X, th[None])))
            h = float(np.mean(self.kernel.dmatrix(X, th[None])))
            step = g / h
            th = th - step
            if abs(step) <= 1e-14 * (1 + abs(th[0])):
                break
        return th, self.loss(th)


def make_kernel_problem(l: int = 2, lam: float = 0.01, *, m: int = 20, s: int = 10, beta: float = 3.0,
                        mu: float = 0.1, amp: float = 1.0, seed: SeedLike = 0) -> KernelProblem:
    """:class:`KernelProblem` with ``r = l + 1`` server samples, one per stratum ``[j/r, (j+1)/r)`` (so the r = D
    samples of the single cell of the cover with q = 2 are distinct, i.e. unisolvent, and (45) holds), and
    ``m x s`` client samples uniform on [0, 1]. ``l`` in [1, 6], ``lam, beta, mu > 0``, ``m, s >= 1``."""
    kernel = PolyTanhKernel.of(l, lam, beta, mu, amp)
    m = check_int(m, "m", 1)
    s = check_int(s, "s", 1)
    check_alloc(m * s, "the client data (m x s)", m=m, s=s)
    rng = as_generator(seed)
    r = kernel.l + 1
    X0 = ((np.arange(r) + rng.uniform(0, 1, r)) / r)[:, None]
    Xc = rng.uniform(0, 1, (m, s, 1))
    return KernelProblem(X0=X0, Xc=Xc, mu=kernel.mu, kernel=kernel)


def make_cover_logistic_problem(q: int = 1, *, m: int = 20, s: int = 10, mu: float = 0.1,
                                seed: SeedLike = 0) -> LogisticProblem:
    """The Appendix A logistic problem with d = 2 (data (x, y), p = 1), class (eta, L2) = (2, 1), l = 1,
    ``D = C(l + d, d) = 3``, and server data placed on the cover :func:`l1_cover` (q integer, ``q^2`` squares):
    3 points uniform in each cell, re-drawn until not collinear (unisolvent for degree-1 polynomials), so
    ``r = 3 q^2 = D |S_{2,q}|``. Clients: x uniform, soft labels ``sigmoid(3 theta0 x - 1 + noise/2)``."""
    q = check_int(q, "q", 1, 4)
    m = check_int(m, "m", 1)
    s = check_int(s, "s", 1)
    mu = check_real(mu, "mu", 0)
    check_alloc(m * s * 2, "the client data (m x s x 2)", m=m, s=s)
    rng = as_generator(seed)
    pts = []
    for a, b in itertools.product(range(q), range(q)):
        while True:
            P = (np.array([a, b]) + rng.uniform(0, 1, (3, 2))) / q
            M = np.hstack([np.ones((3, 1)), P])
            if abs(np.linalg.det(M)) > 1e-3 / q ** 2:
                break
        pts.append(P)
    X0 = np.vstack(pts)
    th = rng.uniform(-1, 1)
    x = rng.uniform(0, 1, m * s)
    y = sigmoid(3 * th * x - 1 + 0.5 * rng.standard_normal(m * s))
    Xc = np.stack([x, y], axis=1).reshape(m, s, 2)
    return LogisticProblem(X0=X0, Xc=Xc, mu=mu)


# ----------------------------------------------------------------------------- cover, monomials
def monomial_exponents(l: int, d: int) -> list:
    """The multi-indices ``v in Z_+^d`` with ``|v| <= l``, graded order; there are ``D = C(l + d, d)``."""
    l = check_int(l, "l", 0)
    d = check_int(d, "d", 1)
    # the enumeration visits sum_k (k + 1)^d <= (l + 1)^(d + 1) tuples of length d
    work = (l + 1) ** (d + 1) * d if (d + 1) * math.log2(l + 1) < 64 else math.inf
    check_iterations(work, "the multi-index enumeration ((l + 1)^(d + 1) d)", l=l, d=d)
    return [v for k in range(l + 1) for v in itertools.product(range(k + 1), repeat=d) if sum(v) == k]


def monomial_matrix(X: np.ndarray, q: float, l: int) -> np.ndarray:
    """``phi_w(x_j)`` for the enumeration w <-> (I, v) of (55)-(56): ``Phi[w, j] = 1{x_j in I} x_j^v`` for the
    cells I of :func:`l1_cover` (q, d) and ``|v| <= l``. Shape ``(|S_{d,q}| D, len(X))``; (45) is this matrix at the
    server data. ``X`` (n, d) in [0, 1]^d with d = 1 or 2, ``q > 0``, ``l >= 0``."""
    X = check_finite_array(X, "X", 0.0, 1.0, why="the cover's domain is [0, 1]^d", ndim=2)
    if X.shape[1] not in (1, 2):
        raise ValueError(f"`X` must have d = 1 or 2 columns (explicit covers); got shape {X.shape}")
    l = check_int(l, "l", 0)
    cell, centres = l1_cover(q, X.shape[1])
    exps = monomial_exponents(l, X.shape[1])
    D = len(exps)
    check_alloc(centres.shape[0] * D * X.shape[0], "Phi (|S_(d,q)| D x n)", q=q, l=l, n=X.shape[0])
    idx = cell(X)
    out = np.zeros((centres.shape[0] * D, X.shape[0]))
    mono = np.stack([np.prod(X ** np.array(v), axis=1) for v in exps])  # (D, n)
    for k in range(D):
        out[idx * D + k, np.arange(X.shape[0])] = mono[k]
    return out


def cover_lattice(d: int, l: int, q_grid) -> tuple[np.ndarray, np.ndarray]:
    """Erratum 10: ``|S_{d,q}|`` of the explicit cover :func:`l1_cover` on ``q_grid`` and the ranks
    ``r = D |S_{d,q}|`` it can produce (``D = C(l + d, d)``). Returns ``(cells, r)`` arrays."""
    d = check_int(d, "d", 1, 2)
    l = check_int(l, "l", 0)
    q_grid = check_finite_array(q_grid, "q_grid", 0, low_open=True, why="cover radii 1/q")
    if q_grid.ndim > 1:
        raise ValueError(f"`q_grid` must be a 1-d array of q values; got shape {q_grid.shape}")
    q_grid = np.atleast_1d(q_grid)
    q_top = float(q_grid.max()) if q_grid.size else 1.0
    check_alloc(_cover_cells(q_top, d) * d, "the cover's cell centres (largest q of q_grid)", q_grid=q_top, d=d)
    check_iterations(q_grid.size, "the covers (one per q of q_grid)", q_grid=q_grid.size)
    D = math.comb(l + d, d)
    cells = np.array([_cover_cells(float(q), d) for q in q_grid], dtype=np.int64)  # l1_cover's cells, validated above
    if D * (int(cells.max()) if cells.size else 1) >= 2 ** 63:
        raise ValueError(f"`l` is too large: r = C(l + d, d) |S_(d,q)| exceeds int64; got l={l}, d={d}")
    return cells, D * cells


# ----------------------------------------------------------------------------- weights
def explicit_weights(G: np.ndarray, Gc: np.ndarray) -> np.ndarray:
    """(37)-(38): ``w_j`` with ``w_j G = [g_i(x^(j); vartheta^(k))]_k`` for every row j of ``Gc`` (n_c x r), formed
    one sample at a time: returns ``Gc G^{-1}`` (n_c x r) by a solve with ``G^T`` (least squares if ``G`` is
    exactly singular in floating point, as the run itself does). ``G`` is a finite r x r matrix, ``Gc`` finite
    (n_c, r)."""
    G = check_matrix(G, "G", (None, None))
    if G.shape[0] != G.shape[1] or G.shape[0] < 1:
        raise ValueError(f"`G` must be a square r x r matrix with r >= 1; got shape {G.shape}")
    Gc = check_matrix(Gc, "Gc", (None, G.shape[0]))
    return check_finite_result(_row_solve(G, Gc), "the weights Gc G^-1", "G", "Gc")


def _row_solve(M, Rows):
    """``Rows M^{-1}`` (solve with ``M^T``), least squares when ``M`` is singular in floating point."""
    try:
        return np.linalg.solve(M.T, Rows.T).T
    except np.linalg.LinAlgError:
        return np.linalg.lstsq(M.T, Rows.T, rcond=None)[0].T


def eq59_rhs(eps: float, r: int, Ginv: float, B: float) -> float:
    """(59)'s right side with ``eps = L2/(l! q^eta)``: ``eps sqrt(r) ||G^{-1}|| + eps r^{3/2} (B + eps)
    ||G^{-1}||^2 / (1 - ||G^{-1}|| r eps)``; ``inf`` when the premise ``||G^{-1}|| r eps < 1`` fails (also for
    ``Ginv = inf``, a singular ``G``). ``eps, B >= 0`` finite, ``r >= 1`` an integer, ``Ginv >= 0`` (``+inf``
    allowed)."""
    eps = check_real(eps, "eps", 0)
    r = check_int(r, "r", 1)
    Ginv = check_real(Ginv, "Ginv", 0, allow_inf=True, why="an operator norm; inf for a singular G")
    B = check_real(B, "B", 0)
    x = Ginv * r * eps
    if not x < 1:  # also 0 * inf = nan (eps = 0 with a singular G): the premise does not hold
        return math.inf
    out = eps * math.sqrt(r) * Ginv + eps * r ** 1.5 * (B + eps) * Ginv ** 2 / (1 - x)
    return check_finite_result(out, "(59)'s right side", eps=eps, r=r, Ginv=Ginv, B=B)


def eq60_steps(*, eps, r, Ginv, B, alpha, Lw, Pn, res53, resP, resA, dist_aw, grouping="corrected") -> dict:
    """The right sides of steps (i)-(viii) of (60) at one theta, from measured quantities.

    ``eps = L2/(l! q^eta)``, ``Lw = max_j sum_k |w_jk|``, ``Pn = ||[P(x^(k); theta)]_k||_2`` (server samples),
    ``res53`` (53)'s right side, ``resP = max_j |P(x_j) - sum_k P(x_k) w_jk|``, ``resA = max_j |sum_k (a_jk - w_jk)
    P(x_k)|``, ``dist_aw = max_j ||a_j - w_j||_2``, ``alpha`` of (8) (``||G^{-1}|| <= r^alpha``).
    ``grouping="printed"`` puts the factor ``||G^{-1}||^2/(1 - .)`` of (59) on both summands in steps (iv)-(vi), as
    typeset; ``"corrected"`` on the second only, as (59) gives. Returns a dict of the step values (``(53)``,
    ``(i)`` ... ``(viii)``); ``(viii)`` is (60)'s right side.

    Every input is finite and ``>= 0``, ``r >= 1`` an integer, ``alpha >= 1`` (assumption (8)); the premises
    ``||G^{-1}|| r eps < 1`` of (59) and ``eps r^(alpha + 1) < 1`` of (60) must hold (a ``ValueError`` otherwise)."""
    eps = check_real(eps, "eps", 0)
    r = check_int(r, "r", 1)
    Ginv = check_real(Ginv, "Ginv", 0)
    B = check_real(B, "B", 0)
    alpha = check_real(alpha, "alpha", 1, why="assumption (8) has alpha >= 1")
    Lw, Pn = check_real(Lw, "Lw", 0), check_real(Pn, "Pn", 0)
    res53, resP, resA = check_real(res53, "res53", 0), check_real(resP, "resP", 0), check_real(resA, "resA", 0)
    dist_aw = check_real(dist_aw, "dist_aw", 0)
    grouping = check_choice(grouping, "grouping", ("corrected", "printed"))
    if not Ginv * r * eps < 1:
        raise ValueError(f"`eps`, `Ginv` and `r` must satisfy the premise of (59), Ginv r eps < 1; got eps={eps!r}, "
                         f"Ginv={Ginv!r}, r={r}")
    try:
        R1 = r ** (alpha + 1)
    except OverflowError:
        R1 = math.inf
    if not eps * R1 < 1:
        raise ValueError(f"`eps`, `r` and `alpha` must satisfy the premise of (60), eps r^(alpha + 1) < 1 (finite in "
                         f"float64); got eps={eps!r}, r={r}, alpha={alpha!r}")
    try:
        out = _eq60(eps, r, Ginv, B, alpha, Lw, Pn, res53, resP, resA, dist_aw, grouping)
    except OverflowError:
        out = {"(viii)": math.inf}
    return check_finite_result(out, "(60)'s steps", eps=eps, r=r, Ginv=Ginv, B=B, alpha=alpha, Lw=Lw, Pn=Pn,
                               res53=res53, resP=resP, resA=resA, dist_aw=dist_aw)


def _eq60_series(kw, cols, grouping):
    """:func:`eq60_steps` at every iterate, as arrays over the iterates, validated once: the public entry checks the
    shared inputs ``kw`` and the premises at the first iterate, then one vectorised kernel evaluation covers all
    (the same float64 operations elementwise); the first later iterate whose inputs ``cols`` (arrays) or steps the
    entry refuses is passed to it, which raises that iterate's message."""
    eq60_steps(grouping=grouping, **kw, **{k: v[0] for k, v in cols.items()})
    with np.errstate(all="ignore"):
        out = _eq60(**{k: int(v) if k == "r" else float(v) for k, v in kw.items()}, **cols, grouping=grouping)
    out = {k: np.array(np.broadcast_to(v, cols["Pn"].shape), dtype=float) for k, v in out.items()}
    ok = np.logical_and.reduce([np.isfinite(c) & (c >= 0) for c in cols.values()]
                               + [np.isfinite(v) for v in out.values()])
    if not ok.all():
        eq60_steps(grouping=grouping, **kw, **{k: v[int(np.argmin(ok))] for k, v in cols.items()})
    return out


# ----------------------------------------------------------------------------- the instrumented run
@dataclass(frozen=True, eq=False)
class ChainResult:
    """Per-run and per-iterate quantities of Theorem 2's proof chain (p = 1 coordinate ``i = 0``).

    Scalars: ``r, q, l, eta, L2, B, eps = L2/(l! q^eta)``, ``Ginv = ||G^{-1}||_op``, ``alpha = max(1,
    log Ginv/log r)``, ``delta = L2 r^{2 alpha + 2}/(l! q^eta)`` (61), ``kappa = L1/mu``, weight checks
    (``w_residual`` of (37), ``v_discrepancy`` of (39) vs (35), ``path_discrepancy`` of the run's estimate vs the
    explicit weights, ``cond_G``), ``l1_max = max_j sum_k |w_jk|``, ``l1_bound = Ginv B r``, Lemma 1 / (57)-(58)
    checks (``sup_err`` vs ``eps``, ``a_route_gap``, ``interp57``, ``cond_Phi``, ``cond_P``), (59)
    (``dist_aw``, ``rhs59``, ``premise59``). Per iterate gamma = 1..S (arrays): ``err`` = ``|d F - grad_hat F|`` of the
    run, ``res53``, ``steps`` (dict of arrays, corrected grouping), ``steps_printed``, ``gap`` = F(theta_gamma) - F*."""

    scalars: dict
    err: np.ndarray
    res53: np.ndarray
    steps: dict
    steps_printed: dict
    gap: np.ndarray
    F0_gap: float

    def summary(self) -> str:
        s = self.scalars
        return (f"chain(r={s['r']}, q={s['q']:g}, l={s['l']}): ||G^-1||={s['Ginv']:.3g}, delta={s['delta']:.3g}, "
                f"premise (59) {'holds' if s['premise59'] else 'fails'}, max|err|={self.err.max():.3g}")

    __repr__ = summary


def fedlrgd_chain(problem: LogisticProblem, fn: HolderFunction, q: float, *, S: int = 40,
                  seed: SeedLike = 0) -> ChainResult:
    """Run FedLRGD (:func:`run_fedlrgd`, tau = 1) and instrument Theorem 2's proof chain along it.

    ``problem`` is a :class:`LogisticProblem` (or :class:`KernelProblem`) with p = 1 whose per-sample gradient is
    ``fn`` (a :class:`HolderFunction` with symbolic form, class (fn.eta, fn.L2)); ``q`` the cover parameter with
    ``r = C(l + d, d) |S_{d,q}|`` (checked); ``seed`` an int or SeedSequence (the nodes are re-drawn from it exactly
    as the run draws them, and checked against the run's ``||G^{-1}||``). B of (9) is taken as the sup of ``|g|`` over
    [0,1]^d x [-R, R], R covering the nodes and the path (``fn.bound(R)`` for the kernel; ``1 + mu R`` for the
    logistic gradient)."""
    check_instance(problem, "problem", LogisticProblem)
    check_instance(fn, "fn", HolderFunction)
    if problem.p != 1 or fn.p != 1:
        raise ValueError(f"`problem` must have p = 1 (one gradient coordinate); got p={problem.p}")
    q = check_real(q, "q", 1)
    S = check_int(S, "S", 1)
    if isinstance(seed, np.random.Generator):
        raise ValueError("`seed` must be an int or SeedSequence (the nodes are re-drawn from it)")
    d, l = fn.d, fn.l
    D = math.comb(l + d, d)
    n_cells = l1_cover(q, d)[1].shape[0]
    r = problem.X0.shape[0]
    if r != D * n_cells:
        raise ValueError(f"`q` must give r = D |S_(d,q)|: r = {r}, D = {D}, |S| = {n_cells} (q={q})")
    res = run_fedlrgd(problem, S=S, seed=seed)
    nodes = as_generator(seed).uniform(-1, 1, (r, 1))
    X0 = problem.X0
    Xc = problem.Xc.reshape(-1, problem.Xc.shape[-1])
    G = problem.grads(X0, nodes, problem.mu)[:, :, 0]
    Gc = problem.grads(Xc, nodes, problem.mu)[:, :, 0]
    sv = np.linalg.svd(G, compute_uv=False)
    Ginv = 1 / sv[-1] if sv[-1] > 0 else math.inf
    if not (Ginv == res.G_inv_norm[0] or abs(Ginv - res.G_inv_norm[0]) <= 1e-6 * Ginv):
        raise RuntimeError("the re-drawn nodes differ from the run's (seed must be an int or SeedSequence)")
    cond_G = sv[0] * Ginv
    # (37)-(39)
    W = explicit_weights(G, Gc)
    w_residual = float(np.max(np.abs(W @ G - Gc)) / np.max(np.abs(Gc)))
    m, s = problem.Xc.shape[:2]
    v_explicit = W.reshape(m, s, r).sum(axis=1)
    v_alg = _row_solve(G, Gc.reshape(m, s, r).sum(axis=1))  # (35): one solve per client
    v_disc = float(np.max(np.abs(v_explicit - v_alg)) / max(1.0, np.max(np.abs(v_alg))))
    thetas = res.theta[:-1]  # theta^(gamma - 1), gamma = 1..S
    g0 = problem.grads(X0, thetas, problem.mu)[:, :, 0]  # (r, S)
    gc = problem.grads(Xc, thetas, problem.mu)[:, :, 0]  # (n_c, S)
    n = problem.n
    grad_true = (g0.sum(axis=0) + gc.sum(axis=0)) / n
    est_explicit = (g0 * (1 + W.sum(axis=0))[:, None]).sum(axis=0) / n
    est_run = res.grad_err[:, 0] + grad_true
    scale = np.max(np.abs(g0)) * (1 + np.max(np.abs(W.sum(axis=0))))
    path_disc = float(np.max(np.abs(est_run - est_explicit)) / scale)
    err = np.abs(res.grad_err[:, 0])
    res53 = np.max(np.abs(gc - W @ g0), axis=0)
    # (9) and the approximant
    R = max(1.0, float(np.max(np.abs(nodes))), float(np.max(np.abs(res.theta))))
    B = fn.bound(R) if hasattr(fn, "bound") else 1.0 + problem.mu * R
    eps = fn.L2 / (math.factorial(l) * q ** fn.eta)
    Xall = np.vstack([X0, Xc])
    Tall = np.vstack([nodes, thetas])
    Pm, _, _ = taylor_matrix(fn, Xall, Tall, q)
    Gm = np.vstack([np.hstack([G, g0]), np.hstack([Gc, gc])])
    sup_err = float(np.max(np.abs(Gm - Pm)))
    P = Pm[:r, :r]  # (46)
    Pc = Pm[r:, :r]
    P0path, Pcpath = Pm[:r, r:], Pm[r:, r:]
    Phi = monomial_matrix(X0, q, l)  # (45)
    phic = monomial_matrix(Xc, q, l)
    a_phi = _row_solve(Phi.T, phic.T)  # a_j = phi(x_j)^T Phi^{-T}
    a_58 = _row_solve(P, Pc)  # (58)
    svF = np.linalg.svd(Phi, compute_uv=False)
    cond_Phi = float(svF[0] / svF[-1]) if svF[-1] > 0 else math.inf
    svP = np.linalg.svd(P, compute_uv=False)
    cond_P = float(svP[0] / svP[-1]) if svP[-1] > 0 else math.inf
    a_route_gap = float(np.max(np.abs(a_phi - a_58)) / max(1.0, np.max(np.abs(a_phi))))
    interp57 = float(np.max(np.abs(Pcpath - a_phi @ P0path)) / max(1.0, np.max(np.abs(Pcpath))))
    a = a_phi
    dist = np.linalg.norm(a - W, axis=1)
    dist_aw = float(dist.max())
    premise59 = bool(Ginv * r * eps < 1)
    rhs59 = eq59_rhs(eps, r, Ginv, B)
    alpha = max(1.0, math.log(Ginv) / math.log(r)) if r > 1 else 1.0
    delta = fn.L2 * r ** (2 * alpha + 2) / (math.factorial(l) * q ** fn.eta)
    Lw = float(np.max(np.abs(W).sum(axis=1)))
    Pn = np.linalg.norm(P0path, axis=0)
    resP = np.max(np.abs(Pcpath - W @ P0path), axis=0)
    resA = np.max(np.abs((a - W) @ P0path), axis=0)
    kw = dict(eps=eps, r=r, Ginv=Ginv, B=B, alpha=alpha, Lw=Lw, dist_aw=dist_aw)
    premise60 = bool(fn.L2 * r ** (alpha + 1) < math.factorial(l) * q ** fn.eta) and premise59
    cols = dict(Pn=Pn, res53=res53, resP=resP, resA=resA)  # (60) at every iterate, validated once
    steps, steps_p = (_eq60_series(kw, cols, g) if premise60 else {} for g in ("corrected", "printed"))
    gap = res.gap[1:]
    scal = dict(r=r, q=q, l=l, d=d, eta=fn.eta, L2=fn.L2, D=D, n_cells=n_cells, B=B, R=R, eps=eps, Ginv=Ginv,
                cond_G=cond_G, alpha=alpha, delta=delta, kappa=problem.L1 / problem.mu, L1=problem.L1,
                mu=problem.mu, p=1, w_residual=w_residual, v_discrepancy=v_disc, path_discrepancy=path_disc,
                l1_max=Lw, l1_bound=Ginv * B * r, sup_err=sup_err, cond_Phi=cond_Phi, cond_P=cond_P,
                a_route_gap=a_route_gap, interp57=interp57, dist_aw=dist_aw, rhs59=rhs59, premise59=premise59,
                premise60=premise60, premise61=bool(delta <= 0.5))
    return ChainResult(scalars=scal, err=err, res53=res53, steps=steps, steps_printed=steps_p, gap=gap,
                       F0_gap=float(res.gap[0]))


# every public function turns float64 overflows, linear-algebra failures and broadcasting errors
# into ValueErrors naming its parameters (fedtheory._validation.guard_numeric_errors)
_guard_module(globals(), __all__)
