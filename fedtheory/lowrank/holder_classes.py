"""Test functions with l = ceil(eta) - 1 >= 2 and an exactly known (eta, L2) Hoelder class (w.r.t. l1, eq. (6)).

Jadbabaie, Makur and Shah, "Federated Optimization of Smooth Loss Functions", IEEE Trans. Inf. Theory 2023, eq. (6)
(exponent eta - l, corrected), Lemma 1 and Theorem 1. Every test function of :mod:`fedtheory.lowrank.model` has eta <= 2, so
``l! = 1`` there; the family below reaches l = 2 and l = 3 (eta in (2, 4]), where ``l! = 2`` and ``6``.

``ExtremalPowerSum(eta)``
    ``g(x; theta) = c sum_j psi(x_j - theta_j)`` with ``psi(t) = |t|^eta`` for even l and ``sign(t) |t|^eta`` for odd l,
    and ``c = L2 Gamma(eta - l + 1) / Gamma(eta + 1)``.

    Class (our derivation): ``psi^(l)(t) = (Gamma(eta+1)/Gamma(eta-l+1)) |t|^beta`` with ``beta = eta - l in (0, 1]``
    (the sign is chosen so that the l-th derivative is even), so ``d_j^l g = L2 |t_j|^beta`` and every mixed partial
    of order l vanishes. ``t -> |t|^beta`` is beta-Hoelder with constant exactly 1 (attained at t2 = 0), hence
    ``|d^s g(y1) - d^s g(y2)| <= L2 |t1_j - t2_j|^beta <= L2 ||y1 - y2||_1^(eta - l)`` for ``|s| = l``, with L2 sharp.

    Lemma 1 is attained up to an explicit constant on it: with theta at a cell centre z (so every Taylor coefficient
    of order <= l vanishes at z) the error at distance t is ``c |t|^eta``, and on a d = 1 cell of half-width 1/q

    ``sup |g - P_{q,l}| / (L2 / (l! q^eta)) = l! Gamma(eta - l + 1) / Gamma(eta + 1)``

    (:func:`lemma1_extremal_ratio`; 0.533 for eta = 2.5, 0.457 for eta = 3.5). This value is also the worst case over
    the whole (eta, L2) class in d = 1 (the integral form of the Taylor remainder,
    ``int_0^t L2 s^beta (t - s)^(l-1)/(l-1)! ds = L2 Gamma(beta+1) t^eta / Gamma(eta+1)``), so a bound smaller than
    Lemma 1's by more than that factor is false, and a bound that drops l! is loose by exactly l!.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.special import gammaln

from .._validation import check_finite_array, check_real
from .._validation import guard_module as _guard_module
from .model import HolderFunction

__all__ = ["ExtremalPowerSum", "lemma1_extremal_ratio"]

#: range of eta the family is documented for (l = 2 and l = 3)
ETA_RANGE = (2.0, 4.0)


def lemma1_extremal_ratio(eta):
    """``l! Gamma(eta - l + 1) / Gamma(eta + 1)``, ``l = ceil(eta) - 1``: the exact ratio of Lemma 1's sup error to its
    bound ``L2 / (l! q^eta)`` on :class:`ExtremalPowerSum` (theta at the centre of a d = 1 cell of half-width 1/q), and
    the supremum of that ratio over the (eta, L2) class in d = 1 (Jadbabaie, Makur and Shah 2023, Lemma 1 and its
    Taylor-remainder proof).

    Parameters
    ----------
    eta : float or array_like, in (0, 2^52)
        Hoelder smoothness; broadcasts.

    Returns
    -------
    float or ndarray in (0, 1]
    """
    eta = check_finite_array(eta, "eta", 0, low_open=True, why="Hoelder smoothness eta > 0")
    if np.any(eta >= 2.0 ** 52):
        raise ValueError(f"`eta` must be < 2^52 (l = ceil(eta) - 1 and eta - l in (0, 1] must be exact in float64); "
                         f"got eta={float(np.max(eta))!r}")
    l = np.ceil(eta) - 1
    out = np.exp(gammaln(l + 1) + gammaln(eta - l + 1) - gammaln(eta + 1))
    return float(out) if out.ndim == 0 else out


@dataclass(frozen=True)
class ExtremalPowerSum(HolderFunction):
    """``c sum_j psi(x_j - theta_j)``, ``psi(t) = sign(t)^l |t|^eta`` (l-th derivative ``L2 |t|^(eta-l)``), class
    (eta, L2) w.r.t. l1 with L2 sharp, for ``2 < eta <= 4`` (l = 2 or 3). See the module docstring for the
    derivation. ``p = d``; theta is drawn in [0, 1]^d."""

    def __post_init__(self):
        check_real(self.eta, "eta", ETA_RANGE[0], ETA_RANGE[1], low_open=True,
                   why="ExtremalPowerSum is documented for l = 2, 3, i.e. 2 < eta <= 4")
        check_real(self.L2, "L2", 0, low_open=True)
        if self.p != self.d:
            raise ValueError(f"`p` must equal `d` for ExtremalPowerSum; got d={self.d}, p={self.p}")

    @property
    def c(self) -> float:
        """``L2 Gamma(eta - l + 1) / Gamma(eta + 1) = L2 / (eta (eta - 1) ... (eta - l + 1))``."""
        return self.L2 / math.prod(self.eta - i for i in range(self.l))

    def matrix(self, X, Theta):
        T = X[:, None, :] - Theta[None, :, :]
        psi = np.abs(T) ** self.eta
        if self.l % 2:
            psi = np.sign(T) * psi
        return self.c * psi.sum(-1)

    def sympy_expr(self, xs, ts):
        """Piecewise form (no Abs or sign, so that sympy's derivatives carry no DiracDelta)."""
        import sympy as sp
        e = sp.nsimplify(self.eta)
        neg = -1 if self.l % 2 else 1
        c = sp.nsimplify(self.L2) / sp.Mul(*(e - i for i in range(self.l)))
        return c * sum(sp.Piecewise((u ** e, u >= 0), (neg * (-u) ** e, True))
                                          for u in (x - t for x, t in zip(xs, ts)))


_guard_module(globals(), __all__)
