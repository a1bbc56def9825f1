"""Remaining lp-proj results and errata: Proposition 25, Sec. 5.3, Sec. 6.1, Table 3, eq. (34) (issue 14, item 7).

Also Proposition 3's tightness in the linear model (spec claim 4), the conjugate step of Proposition 3's proof
(erratum 13), the Gram matrix of Proposition 24's proof (erratum 11(b)), the byte arithmetic of Table 1 (spec
claim 49) and the text claims of App. C.7.1 recomputed from Tables 10 and 11.
"""
from __future__ import annotations

import math

import numpy as np

from fedtheory.claims import FAILS, HOLDS
from fedtheory.random import as_generator, spawn_seeds
from fedtheory.lpproj import make_problem, make_projection
from fedtheory.lpproj.extras import (block_diagonal_cost, block_diagonal_projection, layer_parameter_count,
                                     pfedme_general_solution, projected_envelope, quadratic_conjugate)
from fedtheory.linalg import blas_single_thread
from .._util import equality_verdict, erratum_verdict
from . import PAPER

# ----------------------------------------------------------------------------- tables, transcribed from the paper
#: Table 1 (= the Synthetic(0,0) and EMNIST rows of Table 5): test accuracy at the byte budget and bytes used to
#: reach the target accuracy; None = a star (budget exceeded in the first round / target never reached).
TABLE1 = {
    "Synthetic(0,0)": {"budget": 328020, "target": 0.6,
                       "acc": {"FedAvg": .625, "Sketch": .456, "lp-proj-1": .885, "lp-proj-2": .888, "LBGM": .815,
                               "QSGD": .115, "DGC": None},
                       "bytes": {"FedAvg": 597800, "Sketch": None, "lp-proj-1": 4620, "lp-proj-2": 4620,
                                 "LBGM": 12200, "QSGD": 923350, "DGC": 372000}},
    "EMNIST": {"budget": 4236900, "target": 0.7,
               "acc": {"FedAvg": None, "Sketch": None, "lp-proj-1": .906, "lp-proj-2": .906, "LBGM": None,
                       "QSGD": None, "DGC": None, "LG-FedAvg": .071},
               "bytes": {"FedAvg": 445851400, "Sketch": None, "lp-proj-1": 174720, "lp-proj-2": 196560,
                         "LBGM": 206307624, "QSGD": 173663720, "DGC": None, "LG-FedAvg": 230786010}},
}
#: lp-proj's used bytes in Tables 5 and 11 (both variants), and d (Table 3, App. C) and d_sub (App. C.2)
LPPROJ_BYTES = {"Synthetic(0,0)": (4620, 4620), "Synthetic(1,1)": (4620, 4620), "EMNIST": (174720, 196560),
                "CIFAR": (26400, 26400), "MNIST": (12000, 12000), "FASHIONMNIST": (144000, 144000),
                "Synthetic-unbalance (Table 11)": (4620, 4620)}
D_FULL = {"Synthetic": 610, "EMNIST": 94862, "CIFAR": 62006, "MNIST": 79510, "FASHIONMNIST": 678794}
D_SUB = {"Synthetic": 21, "EMNIST": 80, "CIFAR": 60, "MNIST": 50, "FASHIONMNIST": 600}
#: Table 10 (Synthetic(0,0)-unbalance): train loss, train-loss variance, test accuracy, test-accuracy variance
TABLE10 = {"Ditto": (.3860, .1027, .8576, .0230), "pFedMe": (.3875, .1213, .8587, .0257),
           "Per-FedAvg": (.6141, .2197, .7732, .0498), "FedAvg": (.7502, .3246, .7522, .0655),
           "local": (.3070, .0806, .8733, .0206), "lp-proj-1": (.1556, .0095, .9253, .0122),
           "lp-proj-2": (.1664, .0131, .9230, .0122), "RSA": (.4440, .1328, .8374, .0314)}
#: Table 11: test accuracy at the 194700-byte budget
TABLE11_ACC = {"FedAvg": .566, "Sketch": .484, "lp-proj-1": .899, "lp-proj-2": .898, "LBGM": .457, "QSGD": .587,
               "DGC": .735}
LP = ("lp-proj-1", "lp-proj-2")


def _ratio(a, b):
    """a / b (saving factors)."""
    return a / b


def _reduction(new, old):
    """Relative reduction 1 - new/old (train loss, variances)."""
    return 1.0 - new / old


def _relative_gain(new, old):
    """Relative improvement new/old - 1 (test accuracy)."""
    return new / old - 1.0


# ----------------------------------------------------------------------------- Proposition 25
def _measured_s(P):
    """The smallest s for which (5) holds for this P: max(s_max(P) - 1, 1 - s_min(P)) (from the eigenvalues of
    P P^T)."""
    ev = np.linalg.eigvalsh(P @ P.T)
    return max(math.sqrt(ev[-1]) - 1, 1 - math.sqrt(max(ev[0], 0.0)))


def _softplus_grad(A, x):
    """Gradient of f(x) = sum_i log(1 + exp(a_i^T x)) (L-smooth with L = ||A||_2^2 / 4)."""
    z = x @ A.T
    return (1.0 / (1.0 + np.exp(-z))) @ A


@PAPER.claim("lpproj.prop25.norm-bounds", "Proposition 25 (App. A.1)",
             "Under (5) with s measured from P: ||P x||^2 <= (1+s)^2 ||x||^2 for all x, ||P x||^2 >= (1-s)^2 ||x||^2 for "
             "x in col(P^T), (1-s)^2 ||y||^2 <= ||P^T y||^2 <= (1+s)^2 ||y||^2, and f(P^T .) is (1+s)^2 L-smooth when f "
             "is L-smooth.",
             regime="the paper's P (i.i.d. Gaussian entries, unit-norm rows), (d, d_sub) in {(100, 20), (200, 10), "
                    "(610, 21)}, s = max(s_max(P) - 1, 1 - s_min(P)) measured from P (the smallest s for which (5) "
                    "holds); random Gaussian x, y, x = P^T z, and the singular vectors (where the bounds are attained); "
                    "smoothness checked on a quadratic (largest eigenvalue of P H P^T against (1+s)^2 lambda_max(H)) and "
                    "on a sum of softplus losses (gradient-difference ratios at random pairs against (1+s)^2 ||A||^2/4); "
                    "a deterministic statement: any violation beyond 1e-10 relative rounding fails")
def _prop25(full: bool, seed):
    with blas_single_thread():  # small matrices: BLAS threads only contend
        return _prop25_body(full, seed)


def _prop25_body(full: bool, seed):
    draws = 12 if full else 4
    cells = ((100, 20), (200, 10), (610, 21))
    worst = {"Px_upper": 0.0, "Px_lower_colPT": 0.0, "PTy_upper": 0.0, "PTy_lower": 0.0, "quad_smooth": 0.0,
             "softplus_smooth": 0.0}
    tight = {"Px_upper": 0.0, "PTy_lower": 0.0}
    s_seen = []
    n_vec = 200 if full else 50
    for (d, ds), cs in zip(cells, spawn_seeds(seed, len(cells))):
        g = as_generator(cs)
        for _ in range(draws):
            P = make_projection(ds, d, orthonormal=False, seed=g)
            U, sv, Vt = np.linalg.svd(P, full_matrices=False)
            s = _measured_s(P)
            s_seen.append(s)
            up, lo = (1 + s) ** 2, (1 - s) ** 2
            X = np.vstack([g.standard_normal((n_vec, d)), Vt])  # random and singular directions
            r = np.sum((X @ P.T) ** 2, 1) / np.sum(X ** 2, 1)
            worst["Px_upper"] = max(worst["Px_upper"], float(np.max(r / up)) - 1)
            tight["Px_upper"] = max(tight["Px_upper"], float(np.max(r / up)))
            Z = np.vstack([g.standard_normal((n_vec, ds)), U.T])
            Xc = Z @ P  # x = P^T z in col(P^T)
            rc = np.sum((Xc @ P.T) ** 2, 1) / np.sum(Xc ** 2, 1)
            worst["Px_lower_colPT"] = max(worst["Px_lower_colPT"], float(np.max(lo / rc)) - 1)
            ry = np.sum(Xc ** 2, 1) / np.sum(Z ** 2, 1)  # ||P^T y||^2 / ||y||^2
            worst["PTy_upper"] = max(worst["PTy_upper"], float(np.max(ry / up)) - 1)
            worst["PTy_lower"] = max(worst["PTy_lower"], float(np.max(lo / ry)) - 1)
            tight["PTy_lower"] = max(tight["PTy_lower"], float(np.max(lo / ry)))
            # smoothness of f(P^T .): a quadratic and a softplus sum
            A = g.standard_normal((d, 30)) / math.sqrt(d)  # H = A A^T + 0.1 I (eigenvalues via the 30 x 30 A^T A)
            L = float(np.linalg.eigvalsh(A.T @ A)[-1]) + 0.1
            PA = P @ A
            Lc = float(np.linalg.eigvalsh(PA @ PA.T + 0.1 * P @ P.T)[-1])  # lambda_max of P H P^T
            worst["quad_smooth"] = max(worst["quad_smooth"], Lc / (up * L) - 1)
            B = g.standard_normal((40, d))
            Ls = float(np.linalg.norm(B, 2) ** 2 / 4)
            Y1, Y2 = g.standard_normal((n_vec, ds)), g.standard_normal((n_vec, ds))
            dg = _softplus_grad(B, Y1 @ P) @ P.T - _softplus_grad(B, Y2 @ P) @ P.T
            rs = np.linalg.norm(dg, axis=1) / np.linalg.norm(Y1 - Y2, axis=1)
            worst["softplus_smooth"] = max(worst["softplus_smooth"], float(np.max(rs)) / (up * Ls) - 1)
    excess = max(worst.values())
    out = equality_verdict(max(excess, 0.0), 1e-10,
                           f"{len(s_seen)} draws of P over (d, d_sub) in {cells} (s from {min(s_seen):.3f} to "
                           f"{max(s_seen):.3f}); largest relative excess over the six bounds",
                           observed={"largest_relative_excess": worst, "max_attained_fraction_upper": tight["Px_upper"],
                                     "max_attained_fraction_lower": tight["PTy_lower"],
                                     "s_range": [float(min(s_seen)), float(max(s_seen))]},
                           bound={"tolerance": 1e-10}, params={"draws_per_cell": draws, "vectors": n_vec})
    out["evidence"] += (f"; the bounds are attained at the singular vectors (largest ratio/bound "
                        f"{tight['Px_upper']:.12f} upper, {tight['PTy_lower']:.12f} lower)")
    return out


# ----------------------------------------------------------------------------- Proposition 3 in the linear model
def _symbolic_linear_envelope():
    """sympy: min over x in R^2 of (b/2)||x - a||^2 + (lam/2)(w - x_1)^2 (P = (1, 0), orthonormal) minus
    lam b/(2(b + lam)) (w - a_1)^2; returns the simplified difference (0 when spec claim 4 holds)."""
    import sympy as sp

    b, lam = sp.symbols("b lam", positive=True)
    w, a1, a2, x1, x2 = sp.symbols("w a1 a2 x1 x2", real=True)
    obj = b / 2 * ((x1 - a1) ** 2 + (x2 - a2) ** 2) + lam / 2 * (w - x1) ** 2
    (sol,) = sp.linsolve([sp.diff(obj, x1), sp.diff(obj, x2)], [x1, x2])
    return sp.cancel(sp.expand(obj.subs({x1: sol[0], x2: sol[1]}) - lam * b / (2 * (b + lam)) * (w - a1) ** 2))


@PAPER.claim("lpproj.prop3.linear-model-tight", "Proposition 3 in the linear model of Sec. 4.2 / App. B (spec claim 4)",
             "With orthonormal P and Xi_k^T Xi_k = n b I, F_k(w~) = (lam b/(2(b + lam))) ||w~ - P w_hat_k||^2 + const, so "
             "mu_F = L_F = lam b/(b + lam): Proposition 3's bounds lam mu/((1+s)^2 lam + mu) and lam L/((1-s)^2 lam + L) "
             "(mu = L = b, s = 0) are both attained.",
             regime="p = 2, f_k(x) = ||Xi_k x - y_k||^2/(2n) with the fixed designs Xi_k = sqrt(n b) Q_k of App. B, "
                    "orthonormal P (so s_max = s_min = 1, s = 0), w_hat_k the least-squares estimate; F_k by exact inner "
                    "minimisation at random w~ (d = 8, d_sub = 3, n = 20, b in {0.5, 2}, lam in {0.1, 1, 10}); the "
                    "Hessian of F_k by exact second differences (F_k is quadratic); sympy for the symbolic "
                    "envelope; identities to 1e-8 relative")
def _prop3_linear(full: bool, seed):
    with blas_single_thread():  # small matrices: BLAS threads only contend
        return _prop3_linear_body(full, seed)


def _prop3_linear_body(full: bool, seed):
    s_prob, s_data, s_w = spawn_seeds(seed, 3)
    worst_val, worst_eig = 0.0, 0.0
    rows = []
    for b in (0.5, 2.0):
        prob = make_problem(N=3, d=8, d_sub=3, n=20, b=b, heterogeneity=1.0, orthonormal_P=True, seed=s_prob)
        Xi, y = prob.sample_data(as_generator(s_data))
        P = prob.P
        gw = as_generator(s_w)
        for lam in (0.1, 1.0, 10.0):
            for k in range(prob.N):
                H, gk = Xi[k].T @ Xi[k] / prob.n, Xi[k].T @ y[k] / prob.n
                w_hat = np.linalg.lstsq(Xi[k], y[k], rcond=None)[0]
                c = lam * b / (b + lam)
                Wt = gw.standard_normal((40 if full else 10, prob.d_sub)) * 3
                F, _ = projected_envelope(H, gk, P, lam, Wt)
                F0, _ = projected_envelope(H, gk, P, lam, P @ w_hat)
                pred = c / 2 * np.sum((Wt - P @ w_hat) ** 2, 1)
                worst_val = max(worst_val, float(np.max(np.abs((F - F0) - pred)) / np.max(np.abs(pred))))
                E = np.eye(prob.d_sub)
                w0 = gw.standard_normal(prob.d_sub)
                pts = w0 + E[:, None, :] + E[None, :, :]
                Fij, _ = projected_envelope(H, gk, P, lam, pts)
                Fi, _ = projected_envelope(H, gk, P, lam, w0 + E)
                Fw, _ = projected_envelope(H, gk, P, lam, w0)
                Hess = Fij - Fi[:, None] - Fi[None, :] + Fw
                ev = np.linalg.eigvalsh((Hess + Hess.T) / 2)
                s = _measured_s(P)  # 0 up to rounding for orthonormal P
                ev_h = np.linalg.eigvalsh(H)  # mu = L = b for Xi^T Xi = n b I
                mu_F = lam * ev_h[0] / ((1 + s) ** 2 * lam + ev_h[0])  # Proposition 3
                L_F = lam * ev_h[-1] / ((1 - s) ** 2 * lam + ev_h[-1])  # its improved smoothness constant
                worst_eig = max(worst_eig, abs(ev[0] - mu_F) / mu_F, abs(ev[-1] - L_F) / L_F)
                rows.append((b, lam, float(ev[0]), float(ev[-1]), mu_F))
    sym = _symbolic_linear_envelope()
    sym_ok = sym == 0
    disc = max(worst_val, worst_eig) if sym_ok else math.inf
    out = equality_verdict(disc, 1e-8, "F_k(w~) - F_k(P w_hat_k) vs lam b/(2(b+lam))||w~ - P w_hat_k||^2 and the "
                                       "Hessian eigenvalues vs mu_F = L_F = lam b/(b+lam) (Proposition 3 at s = 0)",
                           observed={"envelope_rel_error": worst_val, "eigenvalue_rel_error": worst_eig,
                                     "sympy_difference": str(sym),
                                     "examples_(b,lam,eig_min,eig_max,lam_b/(b+lam))": rows[::3]},
                           bound={"tolerance": 1e-8}, params={"d": 8, "d_sub": 3, "n": 20})
    out["evidence"] += (f"; sympy: min_x (b/2)||x - a||^2 + (lam/2)(w - x_1)^2 - lam b (w - a_1)^2/(2(b+lam)) "
                        f"simplifies to {sym}; e.g. b={rows[0][0]}, lam={rows[0][1]}: eigenvalues "
                        f"[{rows[0][2]:.10f}, {rows[0][3]:.10f}] = {rows[0][4]:.10f}; L_F = lam is not attained")
    return out


# ----------------------------------------------------------------------------- erratum 13 (proof of Proposition 3)
def _numerical_sup(fun_grad, dim, n_starts=1):
    """sup_x phi(x) for a smooth concave phi given as (value, gradient) of -phi, by BFGS (scipy)."""
    from scipy.optimize import minimize

    res = minimize(fun_grad, np.zeros(dim), jac=True, method="BFGS", options={"gtol": 1e-11, "maxiter": 2000})
    return -float(res.fun)


@PAPER.claim("lpproj.prop3.proof-conjugate.erratum", "Proof of Proposition 3 (App. A.4), erratum 13 of the spec",
             "F_k^*(u) = f_k^*(P^T u) + ||u||^2/(2 lam); the strong-convexity step of the proof, printed as "
             "a f_k^*(P^T u_1) + (1-a) f_k^*(P^T u_2) >= f(P^T(a u_1 + (1-a) u_2)) + a(1-a)/(2L) ||P^T(u_1 - u_2)||^2, "
             "holds only with f_k^* in place of f.",
             regime="f_k(x) = x^T H x/2 - g^T x with spectrum of H in [1, 10] (mu = 1, L = 10), d = 6, row-normalised "
                    "Gaussian P with d_sub = 3, lam = 2; referee: the conjugates F_k^* and f_k^* computed by direct "
                    "numerical maximisation (BFGS) of <u, w~> - F_k(w~) (F_k by exact inner solves) and <v, x> - f_k(x); "
                    "random u_1, u_2 ~ N(0, 4 I), a ~ U(0, 1); the printed step fails if it is violated at some draw, "
                    "the corrected step holds if it is never violated beyond 1e-7 relative")
def _prop3_conjugate(full: bool, seed):
    with blas_single_thread():  # small matrices: BLAS threads only contend
        return _prop3_conjugate_body(full, seed)


def _prop3_conjugate_body(full: bool, seed):
    s_f, s_u = spawn_seeds(seed, 2)
    g0 = as_generator(s_f)
    d, ds, lam = 6, 3, 2.0
    Q, _ = np.linalg.qr(g0.standard_normal((d, d)))
    H = (Q * np.linspace(1.0, 10.0, d)) @ Q.T
    gvec = g0.standard_normal(d)
    L = 10.0
    P = make_projection(ds, d, orthonormal=False, seed=g0)

    def f(x):
        return 0.5 * x @ H @ x - gvec @ x

    def f_star_num(v):
        return _numerical_sup(lambda x: (-(v @ x - f(x)), -(v - (H @ x - gvec))), d)

    def F_star_num(u):
        def negphi(w):
            Fw, x = projected_envelope(H, gvec, P, lam, w)
            return -(u @ w - float(Fw)), -(u - lam * (w - P @ x))
        return _numerical_sup(negphi, ds)

    gu = as_generator(s_u)
    draws = 30 if full else 10
    id_err, cf_err, printed_viol, corrected_viol, worst_gap = 0.0, 0.0, 0, 0, -math.inf
    for _ in range(draws):
        u1, u2 = 2 * gu.standard_normal(ds), 2 * gu.standard_normal(ds)
        a = float(gu.uniform())
        ubar = a * u1 + (1 - a) * u2
        Fs = F_star_num(u1)
        fs1, fs2, fsb = f_star_num(P.T @ u1), f_star_num(P.T @ u2), f_star_num(P.T @ ubar)
        id_err = max(id_err, abs(Fs - (fs1 + u1 @ u1 / (2 * lam))) / max(1.0, abs(Fs)))
        cf_err = max(cf_err, abs(fs1 - float(quadratic_conjugate(H, gvec, P.T @ u1))) / max(1.0, abs(fs1)))
        lhs = a * fs1 + (1 - a) * fs2
        quad = a * (1 - a) / (2 * L) * float(np.sum((P.T @ (u1 - u2)) ** 2))
        printed_viol += int(lhs < f(P.T @ ubar) + quad - 1e-7 * max(1.0, abs(lhs)))
        gap = (fsb + quad) - lhs
        worst_gap = max(worst_gap, gap / max(1.0, abs(lhs)))
        corrected_viol += int(gap > 1e-7 * max(1.0, abs(lhs)))
    identity_ok = id_err <= 1e-6 and cf_err <= 1e-6
    return erratum_verdict(
        printed_holds=bool(printed_viol == 0), corrected_holds=bool(identity_ok and corrected_viol == 0),
        printed={"violations": printed_viol, "draws": draws},
        corrected={"violations": corrected_viol, "draws": draws, "worst_relative_gap": worst_gap,
                   "identity_rel_error": id_err, "closed_form_conjugate_rel_error": cf_err},
        evidence=f"numerical conjugates (BFGS) at {draws} random (u_1, u_2, a): F*(u) = f*(P^T u) + ||u||^2/(2 lam) to "
                 f"{id_err:.1e}; printed step (f on the right) violated at {printed_viol}/{draws} draws; corrected "
                 f"step (f_k^*) violated at {corrected_viol}/{draws} (largest relative excess of the right side "
                 f"over the left {worst_gap:.2g}; negative = slack)",
        params={"d": d, "d_sub": ds, "lam": lam, "mu": 1.0, "L": L, "draws": draws},
        referee="numerical suprema (scipy BFGS) defining the conjugates F_k^* and f_k^*")


# ----------------------------------------------------------------------------- erratum 11(b) (proof of Prop. 24)
def _exact_gram_ranks(P):
    """Exact ranks of P^T P and P P^T: P's float entries are converted exactly to rationals (sympy) and the
    products are formed in rational arithmetic, so no rounding can lift a singular product to full rank."""
    import sympy as sp

    Pq = sp.Matrix([[sp.Rational(float(v)) for v in row] for row in P])
    return (Pq.T * Pq).rank(simplify=False), (Pq * Pq.T).rank(simplify=False)


@PAPER.claim("lpproj.prop24.gram-matrix.erratum", "Proof of Proposition 24 (App. A.1), erratum 11(b) of the spec",
             "Under (5), rank P = d_sub and the d_sub x d_sub matrix P P^T is invertible (with eigenvalues in "
             "[(1-s)^2, (1+s)^2]); the printed 'the d_sub x d_sub matrix P^T P is invertible' is false: P^T P is d x d "
             "of rank d_sub < d.",
             regime="the paper's P (Gaussian, unit-norm rows) with (d, d_sub) in {(6, 2), (7, 3)} (small enough for "
                    "exact rational arithmetic; more draws in full mode), s measured from P; referee: exact ranks of "
                    "P^T P and P P^T in rational arithmetic (sympy), each float entry converted exactly")
def _prop24_gram(full: bool, seed):
    with blas_single_thread():  # small matrices: BLAS threads only contend
        return _prop24_gram_body(full, seed)


def _prop24_gram_body(full: bool, seed):
    cells = ((6, 2), (7, 3))
    draws = 4 if full else 1
    rows, printed_ok, corrected_ok = [], True, True
    for (d, ds), cs in zip(cells, spawn_seeds(seed, len(cells))):
        g = as_generator(cs)
        for _ in range(draws):
            P = make_projection(ds, d, orthonormal=False, seed=g)
            PTP, PPT = P.T @ P, P @ P.T
            r_ptp, r_ppt = _exact_gram_ranks(P)
            s = _measured_s(P)
            ev = np.linalg.eigvalsh(PPT)
            printed_ok &= r_ptp == PTP.shape[0]  # "... P^T P is invertible" (its shape, d x d, is reported)
            corrected_ok &= (r_ppt == ds and PPT.shape == (ds, ds) and ev[0] >= (1 - s) ** 2 * (1 - 1e-12)
                             and ev[-1] <= (1 + s) ** 2 * (1 + 1e-12))
            rows.append({"d": d, "d_sub": ds, "PTP_shape": list(PTP.shape), "rank_PTP": int(r_ptp),
                         "PPT_shape": list(PPT.shape), "rank_PPT": int(r_ppt), "s": float(s),
                         "eig_PPT": [float(ev[0]), float(ev[-1])]})
    r0 = rows[0]
    return erratum_verdict(
        printed_holds=bool(printed_ok), corrected_holds=bool(corrected_ok),
        printed={"PTP": [(r["PTP_shape"], r["rank_PTP"]) for r in rows]},
        corrected={"PPT": [(r["PPT_shape"], r["rank_PPT"], r["eig_PPT"]) for r in rows]},
        evidence=f"exact rational ranks: P^T P is {r0['PTP_shape'][0]}x{r0['PTP_shape'][1]} of rank {r0['rank_PTP']} "
                 f"({'singular' if r0['rank_PTP'] < r0['PTP_shape'][0] else 'invertible'}) while P P^T is {r0['d_sub']}x{r0['d_sub']} of rank {r0['rank_PPT']} with eigenvalues "
                 f"[{r0['eig_PPT'][0]:.3f}, {r0['eig_PPT'][1]:.3f}] inside [(1-s)^2, (1+s)^2] (s = {r0['s']:.3f}); "
                 f"{len(rows)} draws",
        params={"cells": [list(c) for c in cells], "draws_per_cell": draws},
        referee="exact rank in rational arithmetic (sympy)")


# ----------------------------------------------------------------------------- eq. (34)
def _joint_minimiser(Xi, y, lam):
    """Referee for eq. (34): minimise (1/N) sum_k [||Xi_k x_k - y_k||^2/(2n) + (lam/2)||w - x_k||^2] jointly over
    (w, x_1, ..., x_N) by one linear solve of its normal equations (a strictly convex quadratic)."""
    N, n, d = Xi.shape
    dim = d * (N + 1)
    Hm = np.zeros((dim, dim))
    r = np.zeros(dim)
    Hm[:d, :d] = N * lam * np.eye(d)  # (N times the objective) curvature in w
    for k in range(N):
        sl = slice(d * (k + 1), d * (k + 2))
        Hm[sl, sl] = Xi[k].T @ Xi[k] / n + lam * np.eye(d)
        Hm[:d, sl] = Hm[sl, :d] = -lam * np.eye(d)
        r[sl] = Xi[k].T @ y[k] / n
    z = np.linalg.solve(Hm, r)
    return z[:d], z[d:].reshape(N, d)


@PAPER.claim("lpproj.eq34.pfedme-general-design", "Eq. (34) and the pFedMe solution that follows it (App. B.1)",
             "For general designs, w^Me solves (1/2) sum_k [(A_k + lam I)^{-1} A_k + A_k (A_k + lam I)^{-1}] w = "
             "sum_k (A_k + lam I)^{-1} Xi_k^T y_k/n (A_k = Xi_k^T Xi_k/n), i.e. w^Me = [sum_k (A_k + lam I)^{-1} A_k]^{-1} "
             "sum_k (A_k + lam I)^{-1} A_k w_hat_k, and x_k^Me = (A_k + lam I)^{-1}(A_k w_hat_k + lam w^Me).",
             regime="non-orthogonal Gaussian designs Xi_k (n = 12 > d = 4, columns scaled by factors in [0.3, 3], "
                    "so A_k is not a multiple of I), N = 5 clients, lam in {0.05, 1, 20}; referee: the joint minimiser "
                    "over (w, x_1..x_N) of the bilevel objective (1/N) sum_k [f_k(x_k) + (lam/2)||w - x_k||^2] by one "
                    "linear solve; also the Sherman-Morrison-Woodbury form of the weights; identities to 1e-9 relative")
def _eq34(full: bool, seed):
    with blas_single_thread():  # small matrices: BLAS threads only contend
        return _eq34_body(full, seed)


def _eq34_body(full: bool, seed):
    reps = 10 if full else 3
    worst = {"w": 0.0, "x": 0.0, "eq34_residual": 0.0, "smw": 0.0, "what_form": 0.0}
    gap_avg = []
    for cs in spawn_seeds(seed, reps):
        g = as_generator(cs)
        N, n, d = 5, 12, 4
        Xi = g.standard_normal((N, n, d)) * g.uniform(0.3, 3.0, (N, 1, d))
        Wk = g.standard_normal((N, d))
        y = np.einsum("knd,kd->kn", Xi, Wk) + 0.5 * g.standard_normal((N, n))
        for lam in (0.05, 1.0, 20.0):
            w_ref, x_ref = _joint_minimiser(Xi, y, lam)
            w, x = pfedme_general_solution(Xi, y, lam)
            sc = max(1.0, float(np.max(np.abs(w_ref))))
            worst["w"] = max(worst["w"], float(np.max(np.abs(w - w_ref))) / sc)
            worst["x"] = max(worst["x"], float(np.max(np.abs(x - x_ref))) / sc)
            A = np.einsum("kni,knj->kij", Xi, Xi) / n
            h = np.einsum("kni,kn->ki", Xi, y) / n
            Minv = np.linalg.inv(A + lam * np.eye(d))
            lhs = 0.5 * np.sum(Minv @ A + A @ Minv, 0) @ w_ref
            rhs = np.sum(Minv @ h[..., None], 0)[:, 0]
            res34 = float(np.max(np.abs(lhs - rhs))) / max(1.0, float(np.max(np.abs(rhs))))
            worst["eq34_residual"] = max(worst["eq34_residual"], res34)
            smw = np.stack([Xi[k].T / lam @ np.linalg.solve(n * np.eye(n) + Xi[k] @ Xi[k].T / lam, Xi[k])
                            for k in range(N)])
            worst["smw"] = max(worst["smw"], float(np.max(np.abs(smw - Minv @ A))))
            w_hat = np.stack([np.linalg.lstsq(Xi[k], y[k], rcond=None)[0] for k in range(N)])
            Wt = Minv @ A
            w_form = np.linalg.solve(Wt.sum(0), np.einsum("kij,kj->i", Wt, w_hat))
            worst["what_form"] = max(worst["what_form"], float(np.max(np.abs(w_form - w_ref))) / sc)
            gap_avg.append(float(np.max(np.abs(w_ref - w_hat.mean(0)))))
    disc = max(worst.values())
    out = equality_verdict(disc, 1e-9, f"{reps} draws x 3 lam of non-orthogonal designs: (34)'s solution and x_k^Me "
                                       f"vs the joint minimiser of the bilevel objective",
                           observed={"max_rel_discrepancy": worst,
                                     "max_|w_Me - mean w_hat|": max(gap_avg)},
                           bound={"tolerance": 1e-9}, params={"N": 5, "n": 12, "d": 4, "reps": reps})
    out["evidence"] += (f"; (34) residual at the referee {worst['eq34_residual']:.1e}; the simple average of w_hat_k "
                        f"(the orthogonal-design answer) is off by up to {max(gap_avg):.3f}, so the check is not vacuous")
    return out


# ----------------------------------------------------------------------------- Sec. 6.1 block-diagonal cost
def _blockwise_projection_count(P, k, x):
    """Brute force: P x computed block by block from the stored diagonal blocks only, counting multiply-adds;
    returns (result, multiply_adds, stored_entries)."""
    ds, d = P.shape
    r, c = ds // k, d // k
    out = np.zeros(ds)
    madds = stored = 0
    for i in range(k):
        blk = P[i * r:(i + 1) * r, i * c:(i + 1) * c]
        nz = np.count_nonzero(blk)
        stored += nz
        out[i * r:(i + 1) * r] = blk @ x[i * c:(i + 1) * c]
        madds += blk.shape[0] * blk.shape[1]
    return out, madds, stored


@PAPER.claim("lpproj.sec61.block-diagonal-cost.erratum", "Sec. 6.1, block-diagonal projection (erratum 25 of the spec)",
             "A k-fold block-diagonal P (k diagonal blocks of size (d_sub/k) x (d/k)) stores d_sub d/k entries and a "
             "product P x costs d_sub d/k multiply-adds: both scale as 1/k, so the printed storage O(d_sub d/k^2) "
             "(improvement 'proportional to the square of the number of blocks') is wrong; the printed time "
             "O(d_sub d/k) is right.",
             regime="(d_sub, d) = (60, 1200) and (24, 480), every k dividing both; referee: brute-force count of the "
                    "non-zero entries of the built matrix (np.count_nonzero) and of the multiply-adds of a blockwise "
                    "product that must equal the dense P x; the printed order holds if log(stored) against log(k) "
                    "has slope -2 (within 0.1), the corrected if the slope is -1 and stored = d_sub d/k exactly")
def _sec61(full: bool, seed):
    with blas_single_thread():  # small matrices: BLAS threads only contend
        return _sec61_body(full, seed)


def _sec61_body(full: bool, seed):
    rows = []
    cells = ((60, 1200), (24, 480)) if full else ((60, 1200),)
    for (ds, d), cs in zip(cells, spawn_seeds(seed, len(cells))):
        g = as_generator(cs)
        for k in [k for k in range(1, ds + 1) if ds % k == 0 and d % k == 0]:
            P = block_diagonal_projection(ds, d, k, seed=g)
            x = g.standard_normal(d)
            y, madds, stored_blocks = _blockwise_projection_count(P, k, x)
            stored = int(np.count_nonzero(P))
            ok_prod = np.allclose(y, P @ x, rtol=1e-12, atol=1e-12) and stored_blocks == stored
            cf = block_diagonal_cost(ds, d, k)
            rows.append((ds, d, k, stored, madds, ok_prod, cf.stored_entries == stored and cf.multiply_adds == madds))
    res = {}
    for ds, d in cells:
        sub = [r for r in rows if r[:2] == (ds, d)]
        lk = np.log([r[2] for r in sub])
        res[(ds, d)] = (float(np.polyfit(lk, np.log([r[3] for r in sub]), 1)[0]),
                        float(np.polyfit(lk, np.log([r[4] for r in sub]), 1)[0]))
    exact = all(r[3] == r[0] * r[1] // r[2] and r[4] == r[0] * r[1] // r[2] and r[5] and r[6] for r in rows)
    storage_slopes = [v[0] for v in res.values()]
    time_slopes = [v[1] for v in res.values()]
    printed = all(abs(sl + 2) <= 0.1 for sl in storage_slopes)
    corrected = exact and all(abs(sl + 1) <= 1e-9 for sl in storage_slopes + time_slopes)
    r1 = [r for r in rows if r[2] == 10][0]
    return erratum_verdict(
        printed_holds=bool(printed), corrected_holds=bool(corrected),
        printed={"storage_slope_vs_k": storage_slopes, "printed_d_sub_d/k^2_at_k=10": r1[0] * r1[1] / 100},
        corrected={"storage_slope_vs_k": storage_slopes, "time_slope_vs_k": time_slopes,
                   "stored_equals_d_sub_d/k": exact, "stored_at_k=10": r1[3], "multiply_adds_at_k=10": r1[4]},
        evidence=f"{len(rows)} block-diagonal matrices: stored entries and multiply-adds equal d_sub d/k exactly "
                 f"({exact}); log-log slope against k: storage {storage_slopes[0]:.3f}, time {time_slopes[0]:.3f} "
                 f"(printed storage needs -2); e.g. d_sub=60, d=1200, k=10: {r1[3]} stored entries vs printed "
                 f"d_sub d/k^2 = {r1[0] * r1[1] // 100}",
        params={"cells": [list(c) for c in cells]},
        referee="brute-force count of non-zero entries and of blockwise multiply-adds on the built matrices")


# ----------------------------------------------------------------------------- Table 3 parameter counts
def _conv(x, w, b, stride=1, pad=0):
    """2-D convolution (cross-correlation) of x (C, H, W) with w (O, C, k, k) and bias b (O,)."""
    from numpy.lib.stride_tricks import sliding_window_view

    x = np.pad(x, ((0, 0), (pad, pad), (pad, pad)))
    k = w.shape[-1]
    win = sliding_window_view(x, (k, k), axis=(1, 2))[:, ::stride, ::stride]  # (C, H', W', k, k)
    out = np.einsum("chwij,ocij->ohw", win, w)
    return out + (0 if b is None else b[:, None, None])


def _pool(x, k, stride, pad=0, kind="max"):
    from numpy.lib.stride_tricks import sliding_window_view

    x = np.pad(x, ((0, 0), (pad, pad), (pad, pad)), constant_values=-np.inf if kind == "max" else 0)
    win = sliding_window_view(x, (k, k), axis=(1, 2))[:, ::stride, ::stride]
    return win.max(axis=(-1, -2))


class _Net:
    """A forward pass that allocates every trainable array it uses and counts their entries (the referee)."""

    def __init__(self, g):
        self.g, self.count = g, 0

    def param(self, *shape):
        a = self.g.standard_normal(shape) * 0.1
        self.count += a.size
        return a

    def linear(self, x, n_out):
        return self.param(n_out, x.size) @ x.ravel() + self.param(n_out)

    def conv(self, x, c_out, k, stride=1, pad=0):
        return _conv(x, self.param(c_out, x.shape[0], k, k), self.param(c_out), stride, pad)

    def bn(self, x):
        gamma, beta = self.param(x.shape[0]), self.param(x.shape[0])
        m, v = x.mean(axis=(1, 2), keepdims=True), x.var(axis=(1, 2), keepdims=True)
        return gamma[:, None, None] * (x - m) / np.sqrt(v + 1e-5) + beta[:, None, None]

    def residual(self, x, c_out, stride):
        """ResNet basic residual (He et al. 2016, as in the d2l implementation): conv3x3-BN-ReLU-conv3x3-BN plus a
        1x1-conv shortcut when the shape changes."""
        yv = np.maximum(self.bn(self.conv(x, c_out, 3, stride, 1)), 0)
        yv = self.bn(self.conv(yv, c_out, 3, 1, 1))
        sc = self.conv(x, c_out, 1, stride, 0) if (c_out != x.shape[0] or stride != 1) else x
        return np.maximum(yv + sc, 0)


def _forward_count(model, g):
    """Run App. C's model on one input of the data set's shape; return (parameter count, output size)."""
    net = _Net(g)
    relu = lambda v: np.maximum(v, 0)  # noqa: E731
    if model == "Synthetic":  # multinomial logistic regression on x in R^60, 10 classes
        out = net.linear(g.standard_normal(60), 10)
    elif model in ("MNIST", "EMNIST"):  # 1 / 2 hidden layers of 100 ReLU units on 28 x 28 images
        h = g.standard_normal(784)
        for _ in range(1 if model == "MNIST" else 2):
            h = relu(net.linear(h, 100))
        out = net.linear(h, 10 if model == "MNIST" else 62)
    elif model == "CIFAR":  # conv(3->6, 5), conv(6->16, 5), each ReLU + maxpool 2/2; FC 400-120-84-10
        h = g.standard_normal((3, 32, 32))
        h = _pool(relu(net.conv(h, 6, 5)), 2, 2)
        h = _pool(relu(net.conv(h, 16, 5)), 2, 2)
        h = relu(net.linear(h, 120))
        h = relu(net.linear(h, 84))
        out = net.linear(h, 10)
    elif model == "FASHIONMNIST":  # conv 1->64 k7 s2 p3 + BN + ReLU + maxpool(3,2,1); 2 res blocks; avgpool; FC
        h = g.standard_normal((1, 28, 28))
        h = _pool(relu(net.bn(net.conv(h, 64, 7, 2, 3))), 3, 2, 1)
        for c_out, first_stride in ((64, 1), (128, 2)):
            for i in range(2):
                h = net.residual(h, c_out, first_stride if i == 0 else 1)
        out = net.linear(h.mean(axis=(1, 2)), 10)
    else:  # pragma: no cover
        raise ValueError(model)
    return net.count, out.size


def _closed_form_count(model):
    """Table 3 models' parameter counts from :func:`layer_parameter_count`."""
    lin = lambda i, o: layer_parameter_count("linear", i, o)  # noqa: E731
    conv = lambda i, o, k: layer_parameter_count("conv", i, o, k)  # noqa: E731
    bn = lambda c: layer_parameter_count("batchnorm", c, c)  # noqa: E731
    if model == "Synthetic":
        return lin(60, 10)
    if model == "MNIST":
        return lin(784, 100) + lin(100, 10)
    if model == "EMNIST":
        return lin(784, 100) + lin(100, 100) + lin(100, 62)
    if model == "CIFAR":
        return conv(3, 6, 5) + conv(6, 16, 5) + lin(400, 120) + lin(120, 84) + lin(84, 10)
    res = lambda i, o: conv(i, o, 3) + bn(o) + conv(o, o, 3) + bn(o) + (conv(i, o, 1) if i != o else 0)  # noqa: E731
    return conv(1, 64, 7) + bn(64) + 2 * res(64, 64) + res(64, 128) + res(128, 128) + lin(128, 10)


@PAPER.claim("lpproj.table3.parameter-counts", "Table 3 and App. C ('Total Number of Parameters for the Full Model')",
             "The models described in App. C have 610 (Synthetic), 79510 (MNIST), 62006 (CIFAR), 94862 (EMNIST) and "
             "678794 (FASHIONMNIST) parameters.",
             regime="PyTorch conventions: linear and conv layers with biases, batch norm with 2 trainable vectors (running "
                    "statistics not counted); App. C's FASHIONMNIST ResNet read as the d2l ResNet (basic residuals "
                    "conv3x3-BN-conv3x3-BN, a 1x1-conv shortcut without BN where channels change, stride 2 in the first "
                    "residual of block 2); referee: a numpy forward pass through each model on one input of the data "
                    "set's shape, counting the entries of every trainable array it allocates (this also checks the "
                    "shapes, e.g. CIFAR's 400 = 16 x 5 x 5 features)")
def _table3(full: bool, seed):
    with blas_single_thread():  # small matrices: BLAS threads only contend
        return _table3_body(full, seed)


def _table3_body(full: bool, seed):
    printed = {"Synthetic": 610, "MNIST": 79510, "CIFAR": 62006, "EMNIST": 94862, "FASHIONMNIST": 678794}
    g = as_generator(seed)
    got = {}
    for m in printed:
        cnt, out_size = _forward_count(m, g)
        got[m] = (cnt, _closed_form_count(m), out_size)
    bad = {m: v for m, v in got.items() if not (v[0] == v[1] == printed[m])}
    ok = not bad
    return dict(status=HOLDS if ok else FAILS,
                observed={m: {"forward_pass": v[0], "layer_formula": v[1]} for m, v in got.items()},
                bound=printed,
                evidence="forward-pass counts " + ", ".join(f"{m} {v[0]}" for m, v in got.items())
                         + (" all equal Table 3 / App. C" if ok else f"; mismatches {bad}")
                         + "; a ResNet without conv biases would have 678090 (FASHIONMNIST)",
                params={"conventions": "conv/linear biases, BN affine, d2l residuals"})


# ----------------------------------------------------------------------------- Sec. 5.3 and Table 1
def _best_competitor(accs):
    """Name of the competitor (not lp-proj) with the highest accuracy at the budget (stars excluded)."""
    cand = {m: a for m, a in accs.items() if m not in LP and a is not None}
    return max(cand, key=cand.get)


@PAPER.claim("lpproj.sec53.savings.erratum", "Sec. 5.3, communication savings (Table 1; erratum 28 of the spec)",
             "From Table 1: the '~26.3% and ~83.5% test accuracy improvement' are absolute percentage-point gains over "
             "FedAvg (Synthetic(0,0)) and LG-FedAvg (EMNIST); '1320x' is LG-FedAvg's bytes over lp-proj-1's on EMNIST; "
             "the compression d/d_sub is >= 1000 on every neural-network data set; but the printed '79x' (Synthetic(0,0)) "
             "is no ratio of Table 1's byte counts.",
             regime="Table 1's cells as printed in the paper (equal to Table 5's Synthetic(0,0) and EMNIST rows); "
                    "'improvement' read as lp-proj's better accuracy minus the competitor's, rounded to 0.1 point; a "
                    "saving factor X read as matching a ratio r of competitor bytes over lp-proj bytes if |r - X| < 1; "
                    "d from App. C and d_sub from App. C.2; referee: recomputation from the table cells")
def _sec53(full: bool, seed):
    syn, em = TABLE1["Synthetic(0,0)"], TABLE1["EMNIST"]
    lp_syn = max(syn["acc"][m] for m in LP)
    lp_em = max(em["acc"][m] for m in LP)
    gain_syn_fedavg = round(100 * (lp_syn - syn["acc"]["FedAvg"]), 1)
    gain_em_lg = round(100 * (lp_em - em["acc"]["LG-FedAvg"]), 1)
    rel_syn = 100 * _relative_gain(lp_syn, syn["acc"]["FedAvg"])
    best_syn, best_em = _best_competitor(syn["acc"]), _best_competitor(em["acc"])
    ratios_syn = {f"{m}/{l}": _ratio(bt, syn["bytes"][l]) for m, bt in syn["bytes"].items() if m not in LP and bt
                  for l in LP}
    ratio_em = _ratio(em["bytes"]["LG-FedAvg"], em["bytes"]["lp-proj-1"])
    closest79 = min(ratios_syn.items(), key=lambda kv: abs(kv[1] - 79))
    compression = {k: D_FULL[k] / D_SUB[k] for k in D_FULL}
    printed_ok = abs(closest79[1] - 79) < 1
    corrected_ok = (gain_syn_fedavg == 26.3 and gain_em_lg == 83.5 and abs(ratio_em - 1320) < 1
                    and best_em == "LG-FedAvg" and all(compression[k] >= 1000 for k in D_FULL if k != "Synthetic"))
    saving_best_syn = _ratio(syn["bytes"][best_syn], syn["bytes"]["lp-proj-2"])
    return erratum_verdict(
        printed_holds=bool(printed_ok), corrected_holds=bool(corrected_ok),
        printed={"79x_closest_ratio": closest79, "synthetic_ratios": {k: round(v, 2) for k, v in ratios_syn.items()}},
        corrected={"gain_points_vs_FedAvg_syn": gain_syn_fedavg, "gain_points_vs_LG-FedAvg_emnist": gain_em_lg,
                   "relative_gain_vs_FedAvg_syn_%": rel_syn, "emnist_LG-FedAvg_ratio": ratio_em,
                   "best_competitor_at_budget": {"Synthetic(0,0)": best_syn, "EMNIST": best_em},
                   "synthetic_saving_vs_best_competitor": saving_best_syn, "d/d_sub": compression},
        evidence=f"Table 1: {100 * lp_syn:.1f} - {100 * syn['acc']['FedAvg']:.1f} = {gain_syn_fedavg} points "
                 f"(relative {rel_syn:.1f}%), {100 * lp_em:.1f} - {100 * em['acc']['LG-FedAvg']:.1f} = {gain_em_lg} "
                 f"points; EMNIST LG-FedAvg/lp-proj-1 bytes = {ratio_em:.1f}; no Synthetic byte ratio is within 1 of "
                 f"79 (closest {closest79[0]} = {closest79[1]:.2f}; FedAvg 129.4, best competitor at the budget "
                 f"{best_syn}: {saving_best_syn:.2f}); d/d_sub = "
                 + ", ".join(f"{k} {v:.0f}" for k, v in compression.items()),
        params={"source": "Table 1 / Table 5 as printed"},
        referee="recomputation from the printed table cells")


@PAPER.claim("lpproj.table1.byte-accounting", "Table 1 / Table 5, Synthetic(0,0) bytes (spec claim 49)",
             "lp-proj reaches 0.6 test accuracy on Synthetic(0,0) with 4620 bytes against FedAvg's 597800 (about 129x); "
             "a message is d_sub = 21 floats against d = 610 (610/21 = 29x), and both byte counts are whole numbers of "
             "4-byte-float messages (4620 = 55 x 4 x 21, 597800 = 245 x 4 x 610).",
             regime="Table 1's Synthetic(0,0) cells as printed, 4-byte floats, d and d_sub from App. C; referee: exact "
                    "integer arithmetic (divisibility and the factorisation 597800/4620 = (245/55)(610/21)); the other "
                    "data sets' lp-proj byte counts are reported, not judged (they are means over 10 repeats)")
def _table1_bytes(full: bool, seed):
    syn = TABLE1["Synthetic(0,0)"]
    b_lp, b_fa = syn["bytes"]["lp-proj-1"], syn["bytes"]["FedAvg"]
    d, ds = D_FULL["Synthetic"], D_SUB["Synthetic"]
    m_lp, r_lp = divmod(b_lp, 4 * ds)
    m_fa, r_fa = divmod(b_fa, 4 * d)
    ratio = _ratio(b_fa, b_lp)
    factor = (m_fa / m_lp) * (d / ds) if m_lp else math.nan
    others = {}
    for key, pair in LPPROJ_BYTES.items():
        dsk = D_SUB["Synthetic" if key.startswith("Synthetic") else key]
        others[key] = [p / (4 * dsk) for p in pair]
    ok = (r_lp == 0 and r_fa == 0 and syn["bytes"]["lp-proj-2"] == b_lp and abs(ratio - factor) < 1e-9
          and round(ratio) == 129 and round(d / ds) == 29)
    non_integer = {k: v for k, v in others.items() if any(abs(x - round(x)) > 1e-9 for x in v)}
    return dict(status=HOLDS if ok else FAILS,
                observed={"ratio": ratio, "messages_lpproj": m_lp, "messages_FedAvg": m_fa, "d/d_sub": d / ds,
                          "lpproj_bytes_in_4d_sub_units": others},
                bound={"ratio_printed": "~129", "d/d_sub_printed": "~29"},
                evidence=f"4620 = {m_lp} x 4 x {ds} (remainder {r_lp}), 597800 = {m_fa} x 4 x {d} (remainder {r_fa}); "
                         f"597800/4620 = {ratio:.2f} = ({m_fa}/{m_lp}) x ({d}/{ds}); d/d_sub = {d / ds:.2f}; lp-proj byte "
                         f"counts not a whole number of 4 d_sub-byte messages: "
                         + (", ".join(f"{k} {v}" for k, v in non_integer.items()) or "none"),
                params={"float_bytes": 4})


# ----------------------------------------------------------------------------- App. C.7.1 text claims
def _skew_improvements(exclude):
    """Smallest improvement of lp-proj-1/2 over the best competitor per Table 10 metric (competitors minus
    ``exclude``): relative train-loss reduction, accuracy gain (relative and in points), variance reductions."""
    comp = {m: v for m, v in TABLE10.items() if m not in LP and m not in exclude}
    best = [min(v[0] for v in comp.values()), min(v[1] for v in comp.values()), max(v[2] for v in comp.values()),
            min(v[3] for v in comp.values())]
    lp = [TABLE10[m] for m in LP]
    return {"train_loss_reduction": min(_reduction(v[0], best[0]) for v in lp),
            "train_loss_var_reduction": min(_reduction(v[1], best[1]) for v in lp),
            "test_acc_gain_relative": min(_relative_gain(v[2], best[2]) for v in lp),
            "test_acc_gain_points": min(v[2] - best[2] for v in lp),
            "test_acc_var_reduction": min(_reduction(v[3], best[3]) for v in lp)}


@PAPER.claim("lpproj.appC71.table10-text", "App. C.7.1, text on Table 10 (data-volume skew)",
             "Against the state-of-the-art methods of Table 10, lp-proj-1 and lp-proj-2 have train loss lower by at "
             "least 50%, test accuracy higher by at least 6% and train-loss and test-accuracy variances lower by at "
             "least 40%.",
             regime="Table 10 as printed; 'state-of-the-art methods' read as the federated methods Ditto, pFedMe, "
                    "Per-FedAvg, FedAvg and RSA (local training is a baseline, not a SOTA method); for each metric the "
                    "best such method is the comparator and both lp-proj variants must clear the bar; the 6% holds "
                    "whether read relative or in points; referee: recomputation from the cells. With local training "
                    "included the train-loss and accuracy statements fail (reported in the evidence)")
def _table10_text(full: bool, seed):
    sota = _skew_improvements(exclude=("local",))
    with_local = _skew_improvements(exclude=())
    ok = (sota["train_loss_reduction"] >= 0.5 and min(sota["test_acc_gain_relative"], sota["test_acc_gain_points"])
          >= 0.06 and sota["train_loss_var_reduction"] >= 0.4 and sota["test_acc_var_reduction"] >= 0.4)
    def fmt(r):
        return (f"train loss -{100 * r['train_loss_reduction']:.1f}%, accuracy "
                f"+{100 * r['test_acc_gain_points']:.2f} points ({100 * r['test_acc_gain_relative']:.2f}% relative), "
                f"variances -{100 * r['train_loss_var_reduction']:.1f}% / -{100 * r['test_acc_var_reduction']:.1f}%")
    return dict(status=HOLDS if ok else FAILS, observed={"vs_sota": sota, "vs_all_incl_local": with_local},
                bound={"train_loss_reduction": 0.5, "test_acc_gain": 0.06, "variance_reduction": 0.4},
                evidence=f"worst lp-proj variant vs the best SOTA method per metric: {fmt(sota)}; with local training "
                         f"as a competitor: {fmt(with_local)} (the 50% and 6% would fail)",
                params={"comparators": "Ditto, pFedMe, Per-FedAvg, FedAvg, RSA"})


@PAPER.claim("lpproj.appC71.table11-text.erratum", "App. C.7.1, text on Table 11 (data-volume skew)",
             "At the 194700-byte budget lp-proj's test accuracy exceeds the best state-of-the-art method's by 22% "
             "(relative; 16.3 points over DGC's 0.735), not by the printed 'at least 32%'.",
             regime="Table 11 as printed; the best SOTA method = the highest accuracy at the budget among FedAvg, "
                    "Sketch, LBGM, QSGD and DGC; both lp-proj variants must clear the bar; the printed 32% is tested "
                    "both as a relative gain and in points; corrected: at least 22% relative; referee: recomputation "
                    "from the cells")
def _table11_text(full: bool, seed):
    best = _best_competitor(TABLE11_ACC)
    rel = min(_relative_gain(TABLE11_ACC[m], TABLE11_ACC[best]) for m in LP)
    pts = min(TABLE11_ACC[m] - TABLE11_ACC[best] for m in LP)
    vs_all = {m: round(100 * min(TABLE11_ACC[l] - a for l in LP), 1) for m, a in TABLE11_ACC.items() if m not in LP}
    printed_ok = rel >= 0.32 or pts >= 0.32
    corrected_ok = 0.22 <= rel < 0.23
    return erratum_verdict(
        printed_holds=bool(printed_ok), corrected_holds=bool(corrected_ok),
        printed={"claimed_min_gain": 0.32}, corrected={"best_sota": best, "relative_gain": rel, "points": pts,
                                                       "points_vs_each": vs_all},
        evidence=f"best competitor at the budget {best} ({TABLE11_ACC[best]}): lp-proj gains {100 * rel:.1f}% relative, "
                 f"{100 * pts:.1f} points; points over each method {vs_all} (32 is cleared only against FedAvg, "
                 f"Sketch and LBGM)",
        params={"budget_bytes": 194700}, referee="recomputation from the printed table cells")
