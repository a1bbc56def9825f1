"""Code shared by the fedlrgd claim modules: the test functions and Hoelder classes of Lemma 1 and Theorem 1,
Theorem 2's analytic chain, FedLRGD problems, and the instrumented FedLRGD runs on which :mod:`.alg1` and
:mod:`.sec5_thm2_proof` check (35)-(64) (their instances are described in :mod:`.sec5_thm2_proof`).
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np
from fedtheory.lowrank import Cosine, L1Power, make_logistic_problem, PowerSum, SoftLabelLogistic
from fedtheory.lowrank import chain as _ch
from fedtheory.lowrank.model import HolderFunction
from fedtheory.random import as_generator, spawn_seeds


def _test_functions(d):
    return [L1Power(eta=0.5, L2=1.0, d=d, p=d), L1Power(eta=1.0, L2=1.0, d=d, p=d),
            PowerSum(eta=1.5, L2=1.0, d=d, p=d), Cosine(eta=2.0, L2=1.0, d=d, p=d)]


def _grid(d, n1=2001, n2=161):
    if d == 1:
        return np.linspace(0, 1, n1)[:, None]
    g = np.linspace(0, 1, n2)
    return np.array(np.meshgrid(g, g)).reshape(2, -1).T


def _latent_cases(seed, size):
    rng = as_generator(seed)
    out = []
    for d in (1, 2):
        for fn in _test_functions(d):
            X = rng.uniform(0, 1, (size, d))
            out.append((fn, fn.matrix(X, fn.sample_theta(rng, size))))
    lg = SoftLabelLogistic(eta=2.0, L2=1.0, d=2, p=1, i=0, mu=0.1)
    X = rng.uniform(0, 1, (size, 2))
    out.append((lg, lg.matrix(X, lg.sample_theta(rng, size))))
    return out


# ----------------------------------------------------------------------------- eta > 2 (l = 2)
@dataclass(frozen=True)
class AbsPowerSum(HolderFunction):
    """``c sum_j |x_j - theta_j|^eta`` with ``2 < eta <= 3`` and ``c = L2 / (eta (eta - 1))``: class (eta, L2)
    w.r.t. l1 with the exponent eta - l of (6) (corrected), l = 2.

    Derivation: the mixed second derivatives vanish and ``d_j^2 g = L2 |t_j|^(eta-2)`` (t = x - theta);
    ``t -> |t|^beta`` (beta = eta - 2 in (0, 1]) is beta-Hoelder with constant 1, so
    ``|d_j^2 g(y1) - d_j^2 g(y2)| <= L2 |t1_j - t2_j|^beta <= L2 ||y1 - y2||_1^(eta - l)``. The function is C^2 with a
    second derivative that is exactly beta-Hoelder at t = 0, so Lemma 1's bound is attained up to the constant of the
    integral remainder (error / bound = 2 B(2, eta - 1) = 0.533 for eta = 2.5 when theta sits at a cell centre).
    The symbolic form uses a Piecewise (not Abs) so that sympy's derivatives carry no DiracDelta.
    """

    def __post_init__(self):
        if not 2 < self.eta <= 3:
            raise ValueError(f"AbsPowerSum needs 2 < eta <= 3; got eta={self.eta}")

    @property
    def c(self) -> float:
        return self.L2 / (self.eta * (self.eta - 1))

    def matrix(self, X, Theta):
        return self.c * (np.abs(X[:, None, :] - Theta[None, :, :]) ** self.eta).sum(-1)

    def sympy_expr(self, xs, ts):
        import sympy as sp
        e = sp.nsimplify(self.eta)
        return sp.nsimplify(self.c) * sum(sp.Piecewise((u ** e, u >= 0), ((-u) ** e, True))
                                          for u in (x - t for x, t in zip(xs, ts)))


def _eta_gt2_functions(d):
    """Test functions with eta in (2, 3] (l = 2, l! = 2) for Lemma 1 and Theorem 1."""
    return [AbsPowerSum(eta=2.5, L2=1.0, d=d, p=d)] + ([AbsPowerSum(eta=3.0, L2=1.0, d=d, p=d)] if d == 1 else [])


@dataclass(frozen=True)
class Step(HolderFunction):
    """``L2 1{x > theta}`` on [0, 1] (d = 1): discontinuous, so in no Hoelder class with the corrected exponent
    eta - l > 0; but for eta <= 1 the printed exponent eta - 1 <= 0 of (6) admits it: on [0, 1],
    ``|Delta g| <= L2 <= L2 |y1 - y2|^(eta - 1)``."""

    def matrix(self, X, Theta):
        return self.L2 * (X[:, None, 0] > Theta[None, :, 0]).astype(float)

    def sympy_expr(self, xs, ts):
        import sympy as sp
        return self.L2 * sp.Piecewise((1, xs[0] - ts[0] > 0), (0, True))


def holder_quotients(fn: HolderFunction, theta: float, order: int, exponent: float, hs, n: int = 4001):
    """Brute-force Hoelder quotients of the ``order``-th derivative of a d = 1 function in x at one theta:
    ``max_y |g^(order)(y + h) - g^(order)(y)| / h^exponent`` for each h in ``hs`` (y on a grid of [0, 1 - h]),
    the derivative taken by sympy. Returns a list (one quotient per h)."""
    import sympy as sp

    x, t = sp.Symbol("x0", real=True), sp.Symbol("t0", real=True)
    expr = fn.sympy_expr((x,), (t,))
    if order:
        expr = sp.diff(expr, x, order)
    f = sp.lambdify((x, t), expr, modules=["numpy"])
    out = []
    with np.errstate(invalid="ignore"):
        for h in hs:
            y = np.linspace(0, 1 - h, n)
            diff = np.abs(np.broadcast_to(f(y + h, theta), y.shape) - np.broadcast_to(f(y, theta), y.shape))
            out.append(float(np.max(diff) / h ** exponent))
    return out


@dataclass(frozen=True)
class CosineSmooth(HolderFunction):
    """``L2 cos(theta x)`` on [0, 1] (d = p = 1) with theta in [-1, 1] and an integer ``eta >= 1``: class (eta, L2)
    w.r.t. l1 for every integer eta (the l-th x-derivative ``L2 theta^l cos(theta x + l pi/2)`` is Lipschitz with
    constant ``L2 |theta|^(l+1) <= L2``, and eta - l = 1). A C-infinity latent function inside Theorem 2's regime
    eta > (2 alpha + 2) d for eta > 4 (Jadbabaie, Makur and Shah, 2023, (6) and Theorem 2)."""

    def __post_init__(self):
        if self.eta != int(self.eta) or self.eta < 1 or self.d != 1 or self.p != 1:
            raise ValueError(f"CosineSmooth needs an integer eta >= 1 and d = p = 1; got eta={self.eta}, d={self.d}")

    def matrix(self, X, Theta):
        return self.L2 * np.cos(X @ Theta.T)

    def sample_theta(self, rng, k):
        return rng.uniform(-1, 1, (k, self.p))

    def x_derivative(self, k):
        """``d^k/dx^k L2 cos(t x)`` as a function of ``(x, t)``."""
        return lambda x, t: self.L2 * t ** k * np.cos(t * x + k * math.pi / 2)


# ------------------------------------------------------------------------ quiet evaluation (runtime warnings silenced)
def _quiet(f, *a, **k):
    """Call f silencing the NaN warnings of sympy Piecewise derivatives (both branches are evaluated)."""
    with warnings.catch_warnings(), np.errstate(invalid="ignore", divide="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        return f(*a, **k)


# ----------------------------------------------------------------------------- Theorem 2's proof chain
def thm2_chain(log_r, d, eta, log_inv_eps, *, alpha=1.0, kappa=2.0, B=1.0, mu=0.1, p=1, L2=1.0, F0_gap=1.0):
    """The requirement of the proof of Theorem 2 (Sec. V) at rank ``r = exp(log_r)``, evaluated in log space.

    The proof fixes q by r = D |S_{d,q}| and bounds, via (51), (52) and l <= eta,
    ``q >= x - 1`` with ``x = r^{1/d} / (e^{1/d} d^{1/(2d)} (eta + d))``; it requires ``q >= 1`` ("see Section III-A")
    and (61): ``L2 r^{2 alpha + 2} / (l! q^eta) <= delta`` with ``delta = (1 - 1/kappa)^{S/2}`` and S from (48).
    Here l! is exact (the proof then relaxes it by Stirling). Returns ``(q, log_margin)`` with
    ``log_margin = log delta - log(L2 r^{2 alpha + 2} / (l! q^eta))`` (-inf when q <= 0); the requirement holds iff
    ``q >= 1`` and ``log_margin >= 0``. ``log_inv_eps = log(1/eps)``.
    """
    l = math.ceil(eta) - 1
    log_x = log_r / d - 1 / d - math.log(d) / (2 * d) - math.log(eta + d)
    A = F0_gap + 9 * (B + 3) ** 4 * p / (2 * mu)
    S = math.ceil((math.log(A) + log_inv_eps) / math.log(kappa / (kappa - 1)))
    log_delta = S / 2 * math.log(1 - 1 / kappa)
    q = math.exp(log_x) - 1 if log_x < 700 else math.inf
    if log_x <= 0:
        return q, -math.inf
    log_q = log_x + math.log1p(-math.exp(-log_x))
    lhs = math.log(L2) + (2 * alpha + 2) * log_r - math.lgamma(l + 1) - eta * log_q
    return q, log_delta - lhs


def thm2_chain_holds(log_r, *args, **kw) -> bool:
    q, margin = thm2_chain(log_r, *args, **kw)
    return q >= 1 and margin >= 0


def chain_log_r_min(d, eta, log_inv_eps, **kw) -> float:
    """log of the smallest (real) r for which the proof's requirement :func:`thm2_chain` holds, by bisection in log r
    (the requirement is monotone in r when eta > (2 alpha + 2) d: both q and the margin of (61) increase with r)."""
    lo = d * (math.log(2) + 1 / d + math.log(d) / (2 * d) + math.log(eta + d))  # q = 1
    if thm2_chain_holds(lo, d, eta, log_inv_eps, **kw):
        return lo
    hi = lo + 1.0
    while not thm2_chain_holds(hi, d, eta, log_inv_eps, **kw):
        hi = lo + 2 * (hi - lo)
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        lo, hi = (lo, mid) if thm2_chain_holds(mid, d, eta, log_inv_eps, **kw) else (mid, hi)
    return hi


def log_gamma_fedlrgd(log_r, s, S, m, phi):
    """log of Theorem 2's count ``r^2 + r s + r S + phi m r`` (Definition 1, tau = 1) for r = exp(log_r)."""
    terms = np.array([2 * log_r, log_r + math.log(s), log_r + math.log(S), log_r + math.log(phi * m)])
    top = terms.max()
    return float(top + math.log(np.exp(terms - top).sum()))


# ----------------------------------------------------------------------------- FedLRGD runs
def _problem(seed, r=10):
    return make_logistic_problem(d=3, r=r, m=40, s=15, mu=0.1, seed=seed)


# ----------------------------------------------------------------------------- instrumented FedLRGD runs for (35)-(64)
_LAM = {1: 1e-2, 2: 1e-3, 3: 1e-4}


_KERNEL_KW = dict(amp=10.0, beta=6.0, mu=0.5, m=20, s=10)


_S = 60


_CACHE: dict = {}


_SLACK = 1e-9  # relative slack for round-off in the inequalities


def _int_seeds(seed, n):
    return [int(ss.generate_state(1)[0]) for ss in spawn_seeds(seed, n)]


def _chain(kind, par, sd):
    """One instrumented run (cached within the process: several claims read the same runs)."""
    key = (kind, par, sd)
    if key not in _CACHE:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if kind == "kernel":
                prob = _ch.make_kernel_problem(par, _LAM[par], seed=sd, **_KERNEL_KW)
                _CACHE[key] = _ch.fedlrgd_chain(prob, prob.kernel, 2.0, S=_S, seed=sd)
            else:
                prob = _ch.make_cover_logistic_problem(par, m=20, s=10, mu=0.1, seed=sd)
                fn = SoftLabelLogistic(eta=2.0, L2=1.0, d=2, p=1, i=0, mu=0.1)
                _CACHE[key] = _ch.fedlrgd_chain(prob, fn, float(par), S=_S, seed=sd)
    return _CACHE[key]


def _runs(full, seed):
    """(label, ChainResult) for the kernel instances (l = 1, 2, 3) and the logistic instances (q = 1, 2)."""
    nk = 12 if full else 2
    nl = 4 if full else 1
    sk = _int_seeds(seed, 3 * nk + 2 * nl)
    out = []
    for a, l in enumerate((1, 2, 3)):
        for b in range(nk if (full or l > 1) else 1):
            sd = sk[a * nk + b]
            out.append((f"kernel l={l}", _chain("kernel", l, sd)))
    for a, q in enumerate((1, 2)):
        for b in range(nl):
            sd = sk[3 * nk + a * nl + b]
            out.append((f"logistic q={q}", _chain("logistic", q, sd)))
    return out


def _regime(extra):
    return ("exact FedLRGD runs (S = 60 inexact GD steps, m = 20 clients, s = 10 samples): the PolyTanhKernel instance "
            "(d = 1, q = 2, r = D = l + 1, l in {1, 2, 3}, amp 10, beta 6, mu 0.5, lam 1e-2/1e-3/1e-4; 1 run for l = 1 "
            "and 2 for l = 2, 3 in quick mode, 12 each in full) and the Appendix A logistic instance (d = 2, class (2, 1), "
            "cover q = 1 (r = 3) and q = 2 (r = 12), 1 run each quick, 4 full); B of (9) on [0,1]^d x [-R, R] with R "
            "covering nodes and path; alpha = max(1, log||G^{-1}||/log r); relative slack 1e-9 for round-off. " + extra)
