"""Theorem 2's hypotheses against each other, and assumption (46) on Appendix A's loss, in extended precision.

Jadbabaie, Makur and Shah, "Federated Optimization of Smooth Loss Functions", IEEE Trans. Inf. Theory 2023,
Sections II-B and III-C.

The conditioning floor. For any ``g`` of the ``(eta, L2)``-Hoelder class (6) and any rank ``r``, Lemma 1 at the
scale ``q' = ((r - 1)/(d! D))^{1/d} - 1`` (``D = C(l + d, d)``, ``l = ceil(eta) - 1``) gives an approximant whose
matrix has rank ``<= D |N_{q'}| <= d! D (q' + 1)^d = r - 1`` ((51), volumetric bound) and entrywise error
``<= L2/(l! q'^eta)`` ((50)). By Eckart-Young, ``sigma_min(G) <= ||G - P'||_op <= r L2/(l! q'^eta)``, so every
node matrix (7) satisfies

    ||G^{-1}||_op >= l! q'^eta / (r L2)                                   (:func:`inverse_norm_floor`).

Lemma (proved in the docstring of :func:`conditioning_at_theorem2_rank`): at every integer ``r`` meeting the two
requirements of the proof of Theorem 2 (Sec. V), (i) ``r >= e sqrt(d) 2^d (eta + d)^d`` and (ii) ``L2 r^{2 alpha + 2}
/ (l! (x/2)^eta) <= delta <= 1/2`` with ``x = r^{1/d}/(e^{1/d} d^{1/(2d)} (eta + d))``, the floor is
``>= r^{2 alpha + 1} > r^alpha``: (8) fails at the very r that (47) prescribes, and at every larger r.

Assumption (46). ``P^(i)_{jk} = P_{q,l}(x^(0,j); vartheta^(k))`` factors as ``Phi^T Psi`` with ``Phi`` of (45) and
``Psi_{(I,v),k} = [V_I(vartheta^(k))]_v`` (55)-(56). For Appendix A's soft-label logistic gradient (d = 2, data
``(x, y)``, p = 1, class (2, 1), l = 1), ``d g / d y = -x`` does not depend on theta, so the coefficient rows
``(I, y)`` of ``Psi`` are constants and, with the remaining rows, span at most ``1 + 2 n_x`` functions of theta
(``n_x`` the number of distinct x-coordinates of the cell centres): ``rank P <= 1 + 2 n_x < 3 |S| = r`` whenever the
cover has two or more cells (:func:`logistic_eq46_rank_bound`).
"""
from __future__ import annotations

import math

import numpy as np

from .._validation import check_finite_array, check_int, check_real
from .._validation import guard_module as _guard_module

__all__ = ["inverse_norm_floor", "theorem2_rank_mp", "theorem2_delta_mp", "proof_requirements_mp",
           "conditioning_at_theorem2_rank", "logistic_eq46_matrices_mp", "logistic_eq46_rank_bound",
           "singular_values_mp", "certified_sigma_min_upper"]


def _mp():
    import mpmath as mp
    return mp


def inverse_norm_floor(r, d: int, eta: float, L2: float = 1.0, dps: int = 50):
    """``l! q'^eta / (r L2)`` with ``q' = ((r - 1)/(d! C(l + d, d)))^{1/d} - 1`` (an mpmath number).

    A lower bound on ``||G^{-1}||_op`` for every node matrix of every ``g`` in the ``(eta, L2)`` class (6)
    (module docstring: Lemma 1, (50)-(51) and Eckart-Young). ``r`` may be an mpmath integer beyond float64;
    ``q' > 0`` is required (``r > d! D + 1``), else a ``ValueError``."""
    mp = _mp()
    d = check_int(d, "d", 1)
    eta = check_real(eta, "eta", 0, low_open=True)
    L2 = check_real(L2, "L2", 0, low_open=True)
    dps = check_int(dps, "dps", 15, 10000)
    l = math.ceil(eta) - 1
    D = math.comb(l + d, d)
    with mp.workdps(dps):
        r = mp.mpf(r)
        qp = ((r - 1) / (math.factorial(d) * D)) ** (mp.mpf(1) / d) - 1
        if not qp > 0:
            raise ValueError(f"`r` must exceed d! C(l + d, d) + 1 = {math.factorial(d) * D + 1} so that q' > 0; got r={r}")
        return mp.factorial(l) * qp ** mp.mpf(eta) / (r * mp.mpf(L2))


def _A(B, p, mu, F0_gap):
    mp = _mp()
    return mp.mpf(F0_gap) + 9 * (mp.mpf(B) + 3) ** 4 * p / (2 * mp.mpf(mu))


def theorem2_rank_mp(d: int, eta: float, *, alpha: float = 1.0, kappa: float = 2.0, eps: float = 0.01,
                     B: float = 1.0, mu: float = 0.1, p: int = 1, L2: float = 1.0, F0_gap: float = 1.0, dps: int = 50):
    """r of (47), corrected (the exponent on the second term only), in mpmath: ``ceil(max{e sqrt(d) 2^d (eta+d)^d,
    (K1 (kappa A/((kappa - 1) eps))^{d/2})^{1/(eta - (2 alpha + 2) d)}})``, ``A = F(theta0) - F* + 9 (B+3)^4 p/(2 mu)``,
    ``K1 = L2^d eta^d e^{eta(d+1)} d^{eta/2} (2 eta + 2d)^{eta d}/(eta - 1)^{eta d}``. Needs ``eta > (2 alpha + 2) d``,
    ``alpha >= 1``, ``kappa > 1``, ``eta > 1``; an exact mpmath integer (no float64 overflow)."""
    mp = _mp()
    d = check_int(d, "d", 1)
    alpha = check_real(alpha, "alpha", 1)
    eta = check_real(eta, "eta", 1, low_open=True)
    if eta <= (2 * alpha + 2) * d:
        raise ValueError(f"`eta` must exceed (2 alpha + 2) d = {(2 * alpha + 2) * d:g}; got eta={eta}")
    kappa = check_real(kappa, "kappa", 1, low_open=True)
    eps = check_real(eps, "eps", 0, low_open=True)
    p = check_int(p, "p", 1)
    with mp.workdps(dps):
        e, et, dd = mp.e, mp.mpf(eta), mp.mpf(d)
        first = e * mp.sqrt(dd) * 2 ** dd * (et + dd) ** dd
        K1 = (mp.mpf(L2) ** dd * et ** dd * mp.exp(et * (dd + 1)) * dd ** (et / 2) * (2 * et + 2 * dd) ** (et * dd)
              / (et - 1) ** (et * dd))
        A = _A(B, p, mu, F0_gap)
        second = (K1 * (mp.mpf(kappa) * A / ((mp.mpf(kappa) - 1) * mp.mpf(eps))) ** (dd / 2)) ** (
            1 / (et - (2 * mp.mpf(alpha) + 2) * dd))
        return mp.ceil(max(first, second))


def theorem2_delta_mp(*, kappa: float = 2.0, eps: float = 0.01, B: float = 1.0, mu: float = 0.1, p: int = 1,
                      F0_gap: float = 1.0, dps: int = 50):
    """``delta = (1 - 1/kappa)^{S/2}`` (64) with ``S`` of (48), in mpmath; ``(S, delta)``."""
    mp = _mp()
    kappa = check_real(kappa, "kappa", 1, low_open=True)
    eps = check_real(eps, "eps", 0, low_open=True)
    with mp.workdps(dps):
        k = mp.mpf(kappa)
        S = mp.ceil(mp.log(_A(B, p, mu, F0_gap) / mp.mpf(eps)) / mp.log(k / (k - 1)))
        return S, (1 - 1 / k) ** (S / 2)


def proof_requirements_mp(r, d: int, eta: float, alpha: float, delta, L2: float = 1.0, dps: int = 50):
    """The two requirements of the proof of Theorem 2 at rank ``r`` as ratios (>= 1 iff met):
    (i) ``r / (e sqrt(d) 2^d (eta + d)^d)`` and (ii) ``delta l! (x/2)^eta / (L2 r^{2 alpha + 2})`` with
    ``x = r^{1/d} / (e^{1/d} d^{1/(2d)} (eta + d))`` and the exact ``l!``."""
    mp = _mp()
    d = check_int(d, "d", 1)
    l = math.ceil(check_real(eta, "eta", 0, low_open=True)) - 1
    with mp.workdps(dps):
        r, et, dd = mp.mpf(r), mp.mpf(eta), mp.mpf(d)
        req1 = r / (mp.e * mp.sqrt(dd) * 2 ** dd * (et + dd) ** dd)
        x = r ** (1 / dd) / (mp.e ** (1 / dd) * dd ** (1 / (2 * dd)) * (et + dd))
        req2 = mp.mpf(delta) * mp.factorial(l) * (x / 2) ** et / (mp.mpf(L2) * r ** (2 * mp.mpf(alpha) + 2))
        return req1, req2


def conditioning_at_theorem2_rank(d: int, eta: float, *, alpha: float = 1.0, kappa: float = 2.0, eps: float = 0.01,
                                  B: float = 1.0, mu: float = 0.1, p: int = 1, L2: float = 1.0,
                                  F0_gap: float = 1.0, scale=1, dps: int = 50) -> dict:
    """At ``r = scale x r(47)``: the requirements (i), (ii) of the proof and ``log10`` of the floor
    :func:`inverse_norm_floor` over ``r^{2 alpha + 1}`` (the lemma's conclusion) and over ``r^alpha`` ((8)).

    Lemma. If (i) and (ii) hold at r, then ``l! q'^eta/(r L2) >= r^{2 alpha + 1}``. Proof: by (52),
    ``q' + 1 >= ((r - 1)/(e sqrt(d) (l + d)^d))^{1/d} >= x (1 - 1/r)^{1/d} (eta + d)/(l + d) >= x (1 - 1/r)``, so
    with ``x >= 2`` (i.e. (i)) ``q' >= x (1 - 1/r) - 1 = (x/2)(1 - 2/r) + (x - 2)/2 >= (x/2)(1 - 2/r)``; Bernoulli
    gives ``(1 - 2/r)^eta >= 1 - 2 eta/r >= 1/2`` because (i) forces ``r >= 2 e (eta + 1) > 4 eta``; hence ``l! q'^eta
    >= l! (x/2)^eta / 2 >= L2 r^{2 alpha + 2}/(2 delta) >= L2 r^{2 alpha + 2}`` by (ii) and ``delta <= 1/2``. Both
    requirements are monotone in r, so the conclusion holds at every ``r >= r(47)``."""
    mp = _mp()
    with mp.workdps(dps):
        r = theorem2_rank_mp(d, eta, alpha=alpha, kappa=kappa, eps=eps, B=B, mu=mu, p=p, L2=L2, F0_gap=F0_gap,
                             dps=dps) * mp.mpf(scale)
        S, delta = theorem2_delta_mp(kappa=kappa, eps=eps, B=B, mu=mu, p=p, F0_gap=F0_gap, dps=dps)
        req1, req2 = proof_requirements_mp(r, d, eta, alpha, delta, L2, dps)
        floor = inverse_norm_floor(r, d, eta, L2, dps)
        a = mp.mpf(alpha)
        return {"log10_r": float(mp.log10(r)), "S": int(S), "delta": float(delta), "req_i": float(mp.log10(req1)),
                "req_ii": float(mp.log10(req2)), "log10_floor": float(mp.log10(floor)),
                "log10_floor_over_r_2a1": float(mp.log10(floor) - (2 * a + 1) * mp.log10(r)),
                "log10_floor_over_r_a": float(mp.log10(floor) - a * mp.log10(r))}


# ----------------------------------------------------------------------------- (46) on Appendix A's loss
def _cells(X0, q):
    from .algorithms import l1_cover
    cell, centres = l1_cover(q, 2)
    return cell(X0), centres


def logistic_eq46_matrices_mp(X0, nodes, q: float, mu: float = 0.1, dps: int = 50):
    """``(P, Phi, Psi)`` of (46), (45) and (56) for Appendix A's gradient ``g(x, y; theta) = (sigmoid(theta x) - y) x +
    mu theta`` (d = 2, p = 1, l = 1) on the explicit cover :func:`l1_cover` (q, 2), in mpmath at ``dps`` digits.

    ``P_{jk} = P_I(x_j; theta_k)`` is the degree-1 Taylor polynomial of g at the centre ``z_I`` of the cell of
    ``x_j``, evaluated pointwise from the closed-form derivatives (``d_x g = sigmoid' theta x + sigmoid - y``,
    ``d_y g = -x``); ``Phi_{(I,v),j} = 1{x_j in I} x_j^v`` and ``Psi_{(I,v),k}`` the monomial coefficients of
    ``P_I(.; theta_k)`` for ``v`` in (1, y, x) (the order of :func:`fedtheory.lowrank.chain.monomial_exponents`).
    ``X0`` (r, 2) in [0, 1]^2 (inputs read as exact binary numbers), ``nodes`` (k, 1)."""
    mp = _mp()
    X0 = check_finite_array(X0, "X0", 0.0, 1.0, ndim=2)
    nodes = check_finite_array(nodes, "nodes", ndim=2)
    if X0.shape[1] != 2 or nodes.shape[1] != 1:
        raise ValueError(f"`X0` must be (r, 2) and `nodes` (k, 1); got {X0.shape} and {nodes.shape}")
    q = check_real(q, "q", 1)
    dps = check_int(dps, "dps", 15, 2000)
    idx, centres = _cells(X0, q)
    n_cells, r, k = centres.shape[0], X0.shape[0], nodes.shape[0]
    with mp.workdps(dps):
        m = mp.mpf(mu)
        Z = [(mp.mpf(float(a)), mp.mpf(float(b))) for a, b in centres]
        X = [(mp.mpf(float(a)), mp.mpf(float(b))) for a, b in X0]
        T = [mp.mpf(float(t)) for t in nodes[:, 0]]
        coef = []  # coef[I][kk] = (c_1, c_y, c_x): P_I(x, y) = c_1 + c_y y + c_x x
        for zx, zy in Z:
            row = []
            for t in T:
                s = 1 / (1 + mp.exp(-t * zx))
                g = (s - zy) * zx + m * t
                gx = s * (1 - s) * t * zx + s - zy
                gy = -zx
                row.append((g - gx * zx - gy * zy, gy, gx))
            coef.append(row)
        P = mp.matrix(r, k)
        for j, (x, y) in enumerate(X):
            zx, zy = Z[idx[j]]
            for kk, t in enumerate(T):
                s = 1 / (1 + mp.exp(-t * zx))
                P[j, kk] = (s - zy) * zx + m * t + (s * (1 - s) * t * zx + s - zy) * (x - zx) - zx * (y - zy)
        Phi = mp.matrix(3 * n_cells, r)
        for j, (x, y) in enumerate(X):
            for v, val in enumerate((mp.mpf(1), y, x)):
                Phi[3 * idx[j] + v, j] = val
        Psi = mp.matrix(3 * n_cells, k)
        for I in range(n_cells):
            for kk in range(k):
                for v in range(3):
                    Psi[3 * I + v, kk] = coef[I][kk][v]
        return P, Phi, Psi


def logistic_eq46_rank_bound(X0, q: float) -> int:
    """``min(r, 1 + 2 n_x)``: the rank bound of ``P`` (46) for Appendix A's gradient (d = 2, l = 1), ``n_x`` the
    number of distinct x-coordinates among the centres of the cells that hold server data (module docstring)."""
    X0 = check_finite_array(X0, "X0", 0.0, 1.0, ndim=2)
    idx, centres = _cells(X0, check_real(q, "q", 1))
    n_x = len({float(centres[i, 0]) for i in set(idx.tolist())})
    return min(X0.shape[0], 1 + 2 * n_x)


def singular_values_mp(M, dps: int = 50) -> list:
    """Singular values (descending, mpmath numbers) of an mpmath matrix at ``dps`` digits."""
    mp = _mp()
    with mp.workdps(check_int(dps, "dps", 15, 2000)):
        return sorted((abs(s) for s in mp.svd_r(M, compute_uv=False)), reverse=True)


def certified_sigma_min_upper(matrix_fn, X, Theta, v, dps: int = 30):
    """``||G v||_2 / ||v||_2`` with ``G_jk = matrix_fn(x_j, theta_k)`` evaluated in mpmath at ``dps`` digits (inputs
    read as exact binary numbers): a certified upper bound on ``sigma_min(G)`` for any nonzero ``v`` (float64 vector,
    e.g. the last right singular vector of a double-precision SVD). ``matrix_fn(x, t)`` takes mpmath numbers."""
    mp = _mp()
    X = check_finite_array(X, "X", ndim=1)
    Theta = check_finite_array(Theta, "Theta", ndim=1)
    v = check_finite_array(v, "v", ndim=1)
    if v.size != Theta.size or not np.any(v):
        raise ValueError(f"`v` must be a nonzero vector of length {Theta.size}; got length {v.size}")
    with mp.workdps(check_int(dps, "dps", 15, 2000)):
        vs = [mp.mpf(float(a)) for a in v]
        ts = [mp.mpf(float(t)) for t in Theta]
        tot = mp.mpf(0)
        for x in X:
            xm = mp.mpf(float(x))
            tot += mp.fsum(matrix_fn(xm, t) * a for t, a in zip(ts, vs)) ** 2
        return mp.sqrt(tot) / mp.sqrt(mp.fsum(a * a for a in vs))


_guard_module(globals(), __all__)
