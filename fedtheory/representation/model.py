"""Data model of FedRep's linear setting.

FedRep, Collins et al., ICML 2021, Section 4.1: client ``i`` draws
``x ~ D_x`` (isotropic, Assumption 1) and ``y = w_i*^T B*^T x + noise``, with a
shared orthonormal ``B*`` (d x k) and client heads ``w_i*`` (rows of ``W*``,
n x k).

Named choices where the paper and its public code disagree:

``head_norm``
    ``"sqrt_k"``: ``||w_i*|| = sqrt(k)`` (Assumption 3); ``"unit"``: unit rows
    (the public code's Figure 1 cell); ``"qr_cols"``: ``W*`` has orthonormal
    columns, rows of norm about ``sqrt(k/n)`` (the public code's Figure 3 cell).
``design``
    ``"gaussian"``: ``x ~ N(0, I_d)``; ``"rademacher"``: i.i.d. +-1 entries (a
    non-Gaussian ``I_d``-sub-gaussian design, Assumption 1).
``sigma``
    the standard deviation of the label noise. The paper's "N(., 10^-3)" (Sec.
    5.1) is ambiguous; :func:`noise_std` converts with an explicit convention.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from .._validation import guard_module as _guard_module
from .._validation import (check_alloc, check_choice, check_finite_result, check_generator, check_int, check_iterations, check_matrix,
                           check_real)
from ..linalg import orthonormalize, random_orthonormal
from ..random import SeedLike, as_generator, as_seed_sequence

__all__ = ["HEAD_NORMS", "DESIGNS", "FedRepModel", "make_model", "make_heads", "noise_std",
           "Diversity", "client_diversity", "n_selected"]

HEAD_NORMS = ("sqrt_k", "unit", "qr_cols")
#: largest label-noise standard deviation of the runs: the data's fourth moments (method of moments)
#: must stay within float64
SIGMA_MAX = 1e60
DESIGNS = ("gaussian", "rademacher")


def noise_std(level: float, convention: str = "std") -> float:
    """Noise standard deviation from a printed noise level.

    ``convention="std"`` reads ``N(mu, level)`` as standard deviation ``level``
    (the public FedRep code); ``"variance"`` reads it as variance ``level``
    (the usual notation), giving ``sqrt(level)``. FedRep Sec. 5.1 prints
    ``N(w*^T B*^T x, 10^-3)`` without saying which.
    """
    level = check_real(level, "level", 0)
    check_choice(convention, "convention", ("std", "variance"))
    return level if convention == "std" else math.sqrt(level)


def n_selected(n: int, r: float) -> int:
    """Number of clients sampled per round, ``rn`` (rounded to the nearest integer).

    Raises ``ValueError`` unless ``r`` is in (0, 1] and ``r*n >= 1``.
    """
    n = check_int(n, "n", 1)
    r = check_real(r, "r", 0, 1, low_open=True)
    if r * n < 1 - 1e-12:
        raise ValueError(f"`r` must satisfy r*n >= 1 (at least one client per round); "
                         f"got r={r}, n={n}, r*n={r * n:g}")
    return max(1, int(round(r * n)))


def make_heads(rng: np.random.Generator, n: int, k: int, head_norm: str = "sqrt_k") -> np.ndarray:
    """Ground-truth heads ``W*`` (n x k) under the named normalisation.

    ``rng`` is a ``numpy.random.Generator``; ``n, k >= 1`` (``n >= k`` for ``"qr_cols"``).
    """
    check_generator(rng, "rng")
    n = check_int(n, "n", 1)
    k = check_int(k, "k", 1)
    check_choice(head_norm, "head_norm", HEAD_NORMS)
    check_alloc(n * k, "the n x k heads", n=n, k=k)
    G = rng.standard_normal((n, k))
    if head_norm == "qr_cols":
        if n < k:
            raise ValueError(f"`head_norm`='qr_cols' needs n >= k; got n={n}, k={k}")
        return orthonormalize(G)
    G /= np.linalg.norm(G, axis=1, keepdims=True)
    return G * (math.sqrt(k) if head_norm == "sqrt_k" else 1.0)


@dataclass(frozen=True, eq=False)
class FedRepModel:
    """Ground truth of the linear shared-representation model.

    Attributes
    ----------
    B_star : ndarray (d, k)
        Orthonormal ground-truth representation.
    W_star : ndarray (n, k)
        Ground-truth heads, one row per client.
    sigma : float
        Label-noise standard deviation.
    design : str
        ``"gaussian"`` or ``"rademacher"``.
    head_norm : str
        How ``W_star`` was normalised (for the record).
    """

    B_star: np.ndarray
    W_star: np.ndarray
    sigma: float = 0.0
    design: str = "gaussian"
    head_norm: str = "sqrt_k"

    def __post_init__(self):
        B = check_matrix(self.B_star, "B_star")
        W = check_matrix(self.W_star, "W_star")
        if B.ndim != 2 or W.ndim != 2 or B.shape[1] != W.shape[1]:
            raise ValueError(f"`B_star` (d x k) and `W_star` (n x k) must share k; got "
                             f"{B.shape} and {W.shape}")
        check_real(self.sigma, "sigma", 0, SIGMA_MAX, why="noise standard deviation")
        check_choice(self.design, "design", DESIGNS)
        B.setflags(write=False)
        W.setflags(write=False)
        object.__setattr__(self, "B_star", B)
        object.__setattr__(self, "W_star", W)

    @property
    def d(self) -> int:
        return self.B_star.shape[0]

    @property
    def k(self) -> int:
        return self.B_star.shape[1]

    @property
    def n(self) -> int:
        return self.W_star.shape[0]

    @property
    def theta_star(self) -> np.ndarray:
        """Per-client regression vectors ``B* w_i*`` as rows, shape (n, d)."""
        return self.W_star @ self.B_star.T

    def draw_x(self, rng: np.random.Generator, shape: tuple) -> np.ndarray:
        """Covariates of the given leading shape, last axis d."""
        if self.design == "gaussian":
            return rng.standard_normal(shape + (self.d,))
        return rng.integers(0, 2, size=shape + (self.d,), dtype=np.int8).astype(float) * 2 - 1

    def sample(self, rng: np.random.Generator, clients: np.ndarray, m: int
               ) -> tuple[np.ndarray, np.ndarray]:
        """A batch of ``m`` samples for each client in ``clients``.

        Returns ``X`` of shape (len(clients), m, d) and ``y`` of shape (len(clients), m).
        """
        clients = np.asarray(clients)
        X = self.draw_x(rng, (clients.size, m))
        y = np.einsum("cmd,cd->cm", X, self.theta_star[clients])
        if self.sigma > 0:
            y += self.sigma * rng.standard_normal(y.shape)
        return X, y

    def summary(self) -> str:
        return (f"FedRepModel(d={self.d}, k={self.k}, n={self.n}, sigma={self.sigma:g}, "
                f"design={self.design!r}, head_norm={self.head_norm!r})")

    __repr__ = summary


def make_model(d: int, k: int, n: int, *, sigma: float = 0.0, head_norm: str = "sqrt_k",
               design: str = "gaussian", seed: SeedLike = 0) -> FedRepModel:
    """Draw a ground truth: Haar ``B*`` (QR of a Gaussian) and heads under ``head_norm``.

    Raises ``ValueError`` for ``k > d``, ``k < 1``, ``n < 1`` or ``sigma < 0``.
    """
    d = check_int(d, "d", 1)
    k = check_int(k, "k", 1, d, why=f"1 <= k <= d, d={d}")
    n = check_int(n, "n", 1)
    check_real(sigma, "sigma", 0, SIGMA_MAX, why="noise standard deviation")
    check_choice(head_norm, "head_norm", HEAD_NORMS)
    check_choice(design, "design", DESIGNS)
    check_alloc(max(d * k, n * d), "the ground truth (B* is d x k, the thetas B* w_i* n x d)", d=d, k=k, n=n)
    rng = as_generator(seed)
    B = random_orthonormal(rng, d, k)
    W = make_heads(rng, n, k, head_norm)
    return FedRepModel(B_star=B, W_star=W, sigma=sigma, design=design, head_norm=head_norm)


@dataclass(frozen=True)
class Diversity:
    """Client-diversity constants of FedRep Theorem 1 (Collins et al., ICML 2021).

    ``sigma_min``/``sigma_max`` are ``min``/``max`` over all ``rn``-subsets I of the
    extreme singular values of ``W*_I / sqrt(rn)``; ``kappa = sigma_max / sigma_min``
    (the paper prints ``sigma_max / sigma_max``, a typo). When ``exact`` is False the
    values come from a search over subsets: ``sigma_min`` is then an upper bound
    and ``sigma_max`` a lower bound of the true value.
    """

    sigma_min: float
    sigma_max: float
    n_sel: int
    exact: bool
    n_subsets: int

    @property
    def kappa(self) -> float:
        return self.sigma_max / self.sigma_min if self.sigma_min > 0 else math.inf

    def summary(self) -> str:
        how = "exact over" if self.exact else "estimated from"
        return (f"sigma_min={self.sigma_min:.4g}, sigma_max={self.sigma_max:.4g}, "
                f"kappa={self.kappa:.4g} ({how} {self.n_subsets} subsets of size {self.n_sel})")

    def __repr__(self) -> str:
        return f"Diversity({self.summary()})"


def _subset_eigs(W: np.ndarray, idx: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    S = W[idx]  # (C, s, k)
    G = np.einsum("csk,csl->ckl", S, S) / idx.shape[1]
    ev = np.linalg.eigvalsh(G)
    return ev[:, 0], ev[:, -1]


def client_diversity(W_star: np.ndarray, n_sel: int, *, max_exact: int = 200_000,
                     n_starts: int = 64, seed: SeedLike = 0) -> Diversity:
    """Compute (exactly, or estimate) the Assumption 2 / Theorem 1 diversity constants.

    Exact enumeration of all ``C(n, rn)`` subsets is used when there are at most
    ``max_exact`` of them. Otherwise an alternating search is run from
    ``n_starts`` random directions: for a direction ``u`` the subset extremising
    ``u^T W_I^T W_I u`` is the ``rn`` rows with the smallest (largest) ``(u.w_i)^2``,
    and ``u`` is then replaced by the subset's extreme eigenvector. The values
    found are achieved by actual subsets, so they bound the true constants from
    the safe side (see :class:`Diversity`). If ``rn < k`` every subset is rank
    deficient and ``sigma_min = 0`` exactly.
    """
    W = check_matrix(W_star, "W_star", (None, None))
    n, k = W.shape
    n_sel = check_int(n_sel, "n_sel", 1, n)
    max_exact = check_int(max_exact, "max_exact", 0)
    n_starts = check_int(n_starts, "n_starts", 1)
    as_seed_sequence(seed)  # validates `seed` even where the exact enumeration does not use it
    total = math.comb(n, n_sel)
    if total <= max_exact:
        check_alloc(total * max(n_sel, k * k), "the exact enumeration of the rn-subsets (C(n, rn) x rn)",
                    max_exact=max_exact, n=n, n_sel=n_sel)
        check_iterations(total * n_sel, "the exact enumeration of the rn-subsets", max_exact=max_exact, n=n,
                         n_sel=n_sel)
        idx = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(n), n_sel)),
                          dtype=np.int64, count=total * n_sel).reshape(total, n_sel)
        lo, hi = _subset_eigs(W, idx, k)
        check_finite_result(hi, "the subsets' singular values", "W_star")
        smin = 0.0 if n_sel < k else math.sqrt(max(float(lo.min()), 0.0))
        return Diversity(sigma_min=smin, sigma_max=math.sqrt(float(hi.max())), n_sel=n_sel,
                         exact=True, n_subsets=total)
    check_alloc(n_starts * max(n, n_sel * k), "the subset search (n_starts x n and n_starts x rn x k)",
                n_starts=n_starts, n=n, n_sel=n_sel)
    rng = as_generator(seed)
    best_lo, best_hi = math.inf, 0.0
    for sign in (+1, -1):  # +1: minimise the smallest eigenvalue, -1: maximise the largest
        U = rng.standard_normal((n_starts, k))
        U /= np.linalg.norm(U, axis=1, keepdims=True)
        for _ in range(30):
            proj = (W @ U.T) ** 2  # (n, starts)
            order = np.argsort(sign * proj, axis=0)[:n_sel].T  # (starts, s)
            S = W[order]
            G = np.einsum("csk,csl->ckl", S, S) / n_sel
            ev, vec = np.linalg.eigh(G)
            U_new = vec[:, :, 0] if sign > 0 else vec[:, :, -1]
            if sign > 0:
                best_lo = min(best_lo, float(ev[:, 0].min()))
            else:
                best_hi = max(best_hi, float(ev[:, -1].max()))
            if np.allclose(np.abs(np.einsum("ck,ck->c", U, U_new)), 1.0):
                break
            U = U_new
    check_finite_result([best_lo, best_hi], "the subsets' singular values", "W_star")
    smin = 0.0 if n_sel < k else math.sqrt(max(best_lo, 0.0))
    return Diversity(sigma_min=smin, sigma_max=math.sqrt(best_hi), n_sel=n_sel, exact=False,
                     n_subsets=2 * n_starts)


# every public function turns float64 overflows, linear-algebra failures and broadcasting errors
# into ValueErrors naming its parameters (fedtheory._validation.guard_numeric_errors)
_guard_module(globals(), __all__)
