"""Latent-variable test functions with a documented (eta, L2) Hoelder class w.r.t. the l1 norm.

Jadbabaie, Makur and Shah, IEEE Trans. Inf. Theory 2023, eq. (6) (exponent eta - l, corrected) and Theorem 1. Each function
is ``g(x; theta)`` with data ``x in [0,1]^d``; ``matrix(X, Theta)`` gives the latent-variable
matrix ``M_ij = g(x_i; theta_j)`` (29), and ``sympy_expr`` the symbolic form used to build
Taylor approximants (Lemma 1). The classes (our derivations):

``L1Power(eta <= 1)``
    ``L2 ||x - theta||_1^eta``: ``|a^eta - b^eta| <= |a - b|^eta`` and the triangle inequality.
``Cosine``
    ``L2 cos(theta^T x)`` with ``||theta||_inf <= 1``: class (2, L2), since
    ``|d_j g(x) - d_j g(y)| <= L2 |theta_j| |theta^T (x - y)| <= L2 ||x - y||_1``.
``PowerSum(1 < eta < 2)``
    ``(L2 / (2^(2-eta) eta)) sum_j |x_j - theta_j|^eta``: ``d_j g = c sign(t)|t|^(eta-1)``, and
    ``t -> sign(t)|t|^beta`` is beta-Hoelder with constant ``2^(1-beta)`` (beta = eta - 1), so class
    (eta, L2). Finite smoothness: its SVD tail decays at a polynomial rate.
``SoftLabelLogistic``
    the i-th gradient coordinate of the soft-label logistic loss (Appendix A, eq. (66)) on data
    ``(x, y) in [0,1]^(d-1) x [0,1]``, ``theta in [-1,1]^(d-1)``: class (2, 1) (eqs. (69)-(72)).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._validation import check_int, check_real

__all__ = ["HolderFunction", "L1Power", "Cosine", "PowerSum", "SoftLabelLogistic", "sigmoid"]


def sigmoid(z):
    return 0.5 * (1 + np.tanh(0.5 * np.asarray(z, float)))


@dataclass(frozen=True)
class HolderFunction:
    """Base: ``eta``, ``L2``, ``d`` (data dimension), ``p`` (parameter dimension)."""

    eta: float
    L2: float
    d: int
    p: int

    @property
    def l(self) -> int:
        return int(math.ceil(self.eta) - 1)

    def matrix(self, X: np.ndarray, Theta: np.ndarray) -> np.ndarray:
        """``M_ij = g(x_i; theta_j)`` (29); implemented by every concrete class below."""
        return self.sympy_matrix(X, Theta)

    def sample_theta(self, rng: np.random.Generator, k: int) -> np.ndarray:
        return rng.uniform(0, 1, (k, self.p))

    def sympy_expr(self, xs, ts):
        """Symbolic ``g`` (concrete classes override); the base class has none."""
        raise TypeError(f"{type(self).__name__} defines no symbolic form")

    def sympy_matrix(self, X, Theta):
        """Evaluate :meth:`sympy_expr` numerically (slow path, used only by the base class)."""
        import sympy as sp
        xs = sp.symbols(f"x0:{self.d}", real=True)
        ts = sp.symbols(f"t0:{self.p}", real=True)
        f = sp.lambdify((xs, ts), self.sympy_expr(xs, ts), "numpy")
        return np.array([[f(x, t) for t in Theta] for x in X], dtype=float)


@dataclass(frozen=True)
class L1Power(HolderFunction):
    def __post_init__(self):
        check_real(self.eta, "eta", 0, 1, low_open=True, why="L1Power needs 0 < eta <= 1")

    def matrix(self, X, Theta):
        return self.L2 * np.abs(X[:, None, :] - Theta[None, :, :]).sum(-1) ** self.eta

    def sympy_expr(self, xs, ts):
        import sympy as sp
        return self.L2 * sum(sp.Abs(x - t) for x, t in zip(xs, ts)) ** sp.nsimplify(self.eta)


@dataclass(frozen=True)
class Cosine(HolderFunction):
    def __post_init__(self):
        if self.eta != 2.0:
            raise ValueError(f"`eta` must be 2 for Cosine; got eta={self.eta}")

    def matrix(self, X, Theta):
        return self.L2 * np.cos(X @ Theta.T)

    def sample_theta(self, rng, k):
        return rng.uniform(-1, 1, (k, self.p))

    def sympy_expr(self, xs, ts):
        import sympy as sp
        return self.L2 * sp.cos(sum(x * t for x, t in zip(xs, ts)))


@dataclass(frozen=True)
class PowerSum(HolderFunction):
    def __post_init__(self):
        check_real(self.eta, "eta", 1, 2, low_open=True, high_open=True, why="PowerSum needs 1 < eta < 2")

    @property
    def c(self) -> float:
        return self.L2 / (2 ** (2 - self.eta) * self.eta)

    def matrix(self, X, Theta):
        return self.c * (np.abs(X[:, None, :] - Theta[None, :, :]) ** self.eta).sum(-1)

    def sympy_expr(self, xs, ts):
        import sympy as sp
        e = sp.nsimplify(self.eta)
        return sp.nsimplify(self.c) * sum(sp.Abs(x - t) ** e for x, t in zip(xs, ts))


@dataclass(frozen=True)
class SoftLabelLogistic(HolderFunction):
    """``g_i(x, y; theta) = (sigmoid(theta^T x) - y) x_i + mu theta_i``, data dimension d = p + 1."""

    i: int = 0
    mu: float = 0.1

    def matrix(self, X, Theta):
        x, y = X[:, :-1], X[:, -1]
        return (sigmoid(x @ Theta.T) - y[:, None]) * x[:, [self.i]] + self.mu * Theta[None, :, self.i]

    def sample_theta(self, rng, k):
        return rng.uniform(-1, 1, (k, self.p))

    def sympy_expr(self, xs, ts):
        import sympy as sp
        x, y = xs[:-1], xs[-1]
        z = sum(a * t for a, t in zip(x, ts))
        return (1 / (1 + sp.exp(-z)) - y) * x[self.i] + self.mu * ts[self.i]
