"""App. A.1, Propositions 20, 22 and 23: the cited tools, on the paper's instances.

Han, Li, Lin and Zhang (2024), JMLR 25, App. A.1. Proposition 20 (Nesterov 2018, Thms 2.1.5 and 2.1.10) on the
quadratic F_k of the Theorem 9 instance and of the linear model of Sec. 4.2, decided over all pairs (w, w') through the
quadratic forms; Proposition 22 (Hiriart-Urruty and Lemarechal 1993) on a least-squares f_k and a logistic-ridge
f (the GLM example of Assumption 6), with the conjugates computed by numerical maximisation; Proposition 23 (Vershynin
2012, Thm 5.58) for A = sqrt(d) P, the matrix the proof of Proposition 24 applies it to, with its open constants read as
the Gaussian ones (C = 1, c = 1/2; Vershynin 2012, Cor. 5.35). Proposition 21 (Cauchy-Schwarz) has no instance-specific
content and is not run.
"""
from __future__ import annotations

import math

import numpy as np

from fedtheory import decide
from fedtheory.linalg import blas_single_thread
from fedtheory.lpproj import make_projection
from fedtheory.lpproj.stochastic import LeastSquaresClients
from fedtheory.random import as_generator, spawn_seeds

from ._common import make_clients
from . import appendix_a2_thm9_steps as _steps
from . import PAPER


# ----------------------------------------------------------------------------- Proposition 20
def sup_form_ratio(Q_lhs, Q_rhs) -> float:
    """sup over e != 0 of e^T Q_lhs e / e^T Q_rhs e (largest generalised eigenvalue; ``Q_rhs`` positive definite)."""
    from scipy.linalg import eigh

    return float(eigh(Q_lhs, Q_rhs, eigvals_only=True)[-1])


def prop20_forms(cl, lam, w):
    """Quadratic forms in e = w' - w (base point ``w``) of ||grad F_k(w') - grad F_k(w)||^2, of the Bregman gap
    F_k(w') - F_k(w) - <grad F_k(w), w' - w> and of ||w' - w||^2, for every client k, from exact values of F_k and
    grad F_k (Han et al. 2024, Prop. 3): the (3, N, d, d) blocks and the largest linear/constant part relative to the
    quadratic part (0 for exact quadratics)."""
    g0, f0, N = cl.grad_F_k(w, lam), cl.F_k(w, lam), cl.N

    def f(e):
        dg = cl.grad_F_k(w + e, lam) - g0
        return np.concatenate([np.sum(dg ** 2, -1), cl.F_k(w + e, lam) - f0 - g0 @ e, np.full(N, e @ e)])

    M = _steps.quadratic_forms(f, cl.d_sub).reshape(3, N, cl.d_sub + 1, cl.d_sub + 1)
    d = cl.d_sub
    return M[..., :d, :d], float(np.max(np.abs(M[..., d, :])) / np.max(np.abs(M[..., :d, :d])))


def linear_model_clients(N, n, d, d_sub, b, seed) -> LeastSquaresClients:
    """Clients of the linear model of Sec. 4.2 (App. B): Xi_k = sqrt(n b) Q_k with orthonormal columns (Xi_k^T Xi_k =
    n b I), orthonormal-row P, no ridge; then F_k(w) = lam b/(2(b + lam)) ||w - P w_hat_k||^2 + const (spec item 4)."""
    g = as_generator(seed)
    Xi = np.array([math.sqrt(n * b) * np.linalg.qr(g.standard_normal((n, d)))[0] for _ in range(N)])
    y = np.einsum("knd,kd->kn", Xi, g.standard_normal((N, d))) + g.standard_normal((N, n))
    return LeastSquaresClients(Xi=Xi, y=y, P=make_projection(d_sub, d, orthonormal=True, seed=g), ridge=0.0)


@PAPER.claim("lpproj.prop20.nesterov-instances", "Proposition 20 (App. A.1; Nesterov 2018, Thms 2.1.5, 2.1.10)",
             "||grad F_k(w') - grad F_k(w)||^2/(2 L_F) <= F_k(w') - F_k(w) - <grad F_k(w), w' - w> for L_F-smooth "
             "(convex) F_k, and ||grad F_k(w') - grad F_k(w)|| >= mu_F ||w' - w|| for mu_F-strongly convex F_k.",
             regime="read with F_k convex (the sentence before it: 'property of strongly convex functions'; Nesterov's "
                    "Thm 2.1.5 assumes it; without it F = -L||w||^2/2 violates the first inequality); the F_k of the "
                    "Theorem 9 least squares (lam in {0.1, 1, 10}) and of the Sec. 4.2 linear model (orthonormal P, "
                    "Xi^T Xi = n b I); L_F read as Prop. 3's lam, Prop. 3's lam L/((1-s)^2 lam + L) and the true "
                    "largest Hessian eigenvalue, mu_F as Prop. 3's lam mu/((1+s)^2 lam + mu) and the true smallest; "
                    "every client, over all pairs (w, w') through the quadratic forms built from exact F_k values: "
                    "sup of left/right <= 1 + 1e-9 (and = 1 to 1e-9 with the true constants)")
def _prop20(full: bool, seed):
    s_ls, s_lm, s_w = spawn_seeds(seed, 3)
    insts = [(f"least squares #{i}", make_clients(s), lam) for i, s in enumerate(spawn_seeds(s_ls, 3 if full else 1))
             for lam in (0.1, 1.0, 10.0)]
    insts += [("linear model", linear_model_clients(4, 20, 6, 3, 1.0, s_lm), lam) for lam in (0.5, 2.0)]
    rng = as_generator(s_w)
    worst, attained = dict(smooth=0.0, strong=0.0, tight=0.0, linear=0.0), []
    rows = []
    for name, cl, lam in insts:
        ev = np.linalg.eigvalsh(cl.hessian_F_k(lam))
        mu_p3, L_p3 = cl.prop3_constants(lam)
        L_ref = lam * cl.L / ((1 - cl.s) ** 2 * lam + cl.L) if cl.s < 1 else lam
        Q, lin = prop20_forms(cl, lam, cl.w_star(lam) + rng.standard_normal(cl.d_sub))
        worst["linear"] = max(worst["linear"], lin)
        for k in range(cl.N):
            sq, br = sup_form_ratio(Q[0, k], Q[1, k]), sup_form_ratio(Q[2, k], Q[0, k])
            r = {label: (sq / (2 * L_F), mu_F ** 2 * br)  # (i) and (ii) written as "<= 1"
                 for label, L_F, mu_F in (("prop3", L_p3, mu_p3), ("prop3-refined", L_ref, mu_p3),
                                          ("true", ev[k, -1], ev[k, 0]))}
            worst["smooth"] = max(worst["smooth"], *(v[0] for v in r.values()))
            worst["strong"] = max(worst["strong"], *(v[1] for v in r.values()))
            worst["tight"] = max(worst["tight"], *(abs(v - 1) for v in r["true"]))
            attained += list(r["true"])
            rows.append(dict(instance=name, lam=lam, client=k, **{key: list(v) for key, v in r.items()}))
    dec = [decide.bound(worst["smooth"], 1.0, rtol=1e-9, what="(i): sup over pairs of left/right", tests=3),
           decide.bound(worst["strong"], 1.0, rtol=1e-9, what="(ii): sup over pairs of mu_F^2||w'-w||^2/||grad "
                        "difference||^2", tests=3),
           decide.identity(np.array(attained), 1.0, rtol=1e-9, what="with the true constants both sups are attained "
                           "(= 1)", tests=3)]
    p3 = max(r["prop3"][0] for r in rows)
    return decide.combine(dec, what=f"Proposition 20 on {len(insts)} (instance, lam) cases x every client, over all "
                          f"pairs: sup ratio (i) {worst['smooth']:.6f}, (ii) {worst['strong']:.6f}; with the true "
                          f"constants attained to {worst['tight']:.1e} (the forms are exact quadratics: linear parts "
                          f"{worst['linear']:.1e} relative); with Prop. 3's L_F = lam the largest ratio of "
                          f"(i) is {p3:.4f}", observed={"cases": rows, **worst}, bound={"ratio": 1.0},
                          params={"instances": [(n, lam) for n, _, lam in insts]})


# ----------------------------------------------------------------------------- Proposition 22
class LogisticRidge:
    """f(x) = (1/n) sum_i log(1 + exp(-y_i xi_i^T x)) + rho/2 ||x||^2: rho-strongly convex and (rho + ||Xi||^2/(4n))-
    smooth (a GLM of the kind Assumption 6 allows; Han et al. 2024, Sec. 4.1.2)."""

    def __init__(self, Xi, y, rho):
        self.Xi, self.y, self.rho = Xi, y, rho
        self.mu, self.L = rho, rho + float(np.linalg.eigvalsh(Xi.T @ Xi)[-1]) / (4 * Xi.shape[0])

    def value(self, x):
        return np.mean(np.logaddexp(0, -self.y * (x @ self.Xi.T)), -1) + self.rho / 2 * np.sum(x ** 2, -1)

    def grad(self, x):
        from scipy.special import expit

        s = -self.y * expit(-self.y * (x @ self.Xi.T))
        return s @ self.Xi / self.Xi.shape[0] + self.rho * x

    def hess(self, x):
        from scipy.special import expit

        p = expit(self.y * (x @ self.Xi.T))
        return np.einsum("...i,ij,ik->...jk", p * (1 - p), self.Xi, self.Xi) / self.Xi.shape[0] + self.rho * np.eye(
            self.Xi.shape[1])


class Quadratic:
    """f(x) = x^T H x/2 - h^T x + c (a least-squares f_k with ridge: H = G_k + ridge I)."""

    def __init__(self, H, h, c):
        self.H, self.h, self.c = H, h, c
        ev = np.linalg.eigvalsh(H)
        self.mu, self.L = float(ev[0]), float(ev[-1])

    def value(self, x):
        return 0.5 * np.einsum("...i,ij,...j->...", x, self.H, x) - x @ self.h + self.c

    def grad(self, x):
        return x @ self.H - self.h

    def hess(self, x):
        return np.broadcast_to(self.H, np.shape(x)[:-1] + self.H.shape)


def _newton(resid, jac_solve, z, scale, max_iter: int = 100):
    """Damped Newton iterations z <- z + t s, s = jac_solve(z, r), r = resid(z), with t halved until ||r|| decreases
    (vectorised over rows); stops per row at ||r|| <= 1e-13 scale."""
    r = resid(z)
    for _ in range(max_iter):
        rn = np.linalg.norm(r, axis=-1)
        live = rn > 1e-13 * scale
        if not live.any():
            break
        s, t = jac_solve(z, r), np.ones(rn.shape)
        for _ in range(60):
            zn = z + t[:, None] * s
            rnew = resid(zn)
            bad = live & (np.linalg.norm(rnew, axis=-1) > (1 - 1e-4 * t) * rn)
            if not bad.any():
                break
            t = np.where(bad, t / 2, t)
        z = np.where(live[:, None], zn, z)
        r = np.where(live[:, None], rnew, r)
    return z


def conjugate(f, u):
    """f*(u) = sup_x <u, x> - f(x) and its maximiser x(u) = grad f*(u) (Danskin), by damped Newton steps on
    grad f(x) = u (vectorised over the rows of ``u``)."""
    scale = 1 + np.linalg.norm(u, axis=-1)
    x = _newton(lambda x: u - f.grad(x), lambda x, r: np.linalg.solve(f.hess(x), r[..., None])[..., 0],
                np.zeros_like(u), scale)
    return (u * x).sum(-1) - f.value(x), x


def biconjugate(f, x):
    """f**(x) = sup_u <u, x> - f*(u) by damped Newton steps in u on x(u) = x (the Jacobian of x(u) is
    grad^2 f(x(u))^{-1}), with f* from :func:`conjugate`."""
    u = _newton(lambda u: x - conjugate(f, u)[1],
                lambda u, r: np.einsum("...ij,...j->...i", f.hess(conjugate(f, u)[1]), r), np.zeros_like(x),
                1 + np.linalg.norm(x, axis=-1))
    return (u * x).sum(-1) - conjugate(f, u)[0]


@PAPER.claim("lpproj.prop22.conjugate-instances", "Proposition 22 (App. A.1; Hiriart-Urruty and Lemarechal 1993)",
             "(a) f** = f for convex f; (b) f c-strongly convex => dom f* = R^d and f* is 1/c-smooth; (c) f convex and "
             "c-smooth => f* is 1/c-strongly convex; (d) u in df(x) <=> x in df*(u).",
             regime="a least-squares f_k of the Theorem 9 instance (H = G_k + ridge I, c = lambda_min or lambda_max "
                    "of H) and a logistic-ridge f (d = 5, n = 30, rho = 0.3; c = rho and rho + ||Xi||^2/(4n)); f* and "
                    "f** computed by Newton maximisation; (a) and (d) at random points (relative 1e-9), (b) and (c) at "
                    "random pairs u, u + du with |u| up to 1e2 and |du|/(1 + |u|) from 1e-2 to 3 (ratio to the claimed constant <= 1 + 1e-8)")
def _prop22(full: bool, seed):
    s_ls, s_lg, s_pts = spawn_seeds(seed, 3)
    cl = make_clients(s_ls)
    c = cl._cache
    g = as_generator(s_lg)
    Xi = g.standard_normal((30, 5))
    fs = [("least squares f_1", Quadratic(c["H"][0], c["h"][0], c["c0"][0])),
          ("logistic ridge", LogisticRidge(Xi, np.sign(Xi @ g.standard_normal(5) + g.standard_normal(30)), 0.3))]
    rng = as_generator(s_pts)
    n = 200 if full else 40
    worst = dict(a=0.0, b=0.0, c=0.0, d=0.0)
    rows, pairs_a, pairs_d = [], [], []
    for name, f in fs:
        d = f.H.shape[0] if isinstance(f, Quadratic) else 5
        sc = 10 ** rng.uniform(-1, 1, (n, 1))
        x = rng.standard_normal((n, d)) * sc
        ffx, fx = biconjugate(f, x), f.value(x)
        a = float(np.max(np.abs(ffx - fx) / np.maximum(np.abs(fx), 1.0)))
        u = rng.standard_normal((n, d)) * 10 ** rng.uniform(-1, 2, (n, 1))
        du = rng.standard_normal((n, d)) * 10 ** rng.uniform(-2, 0.5, (n, 1)) * (1 + np.abs(u).max(-1, keepdims=True))
        fu, xu = conjugate(f, u)
        fv, xv = conjugate(f, u + du)
        nd = np.sum(du ** 2, -1)
        b = float(np.max(np.sqrt(np.sum((xv - xu) ** 2, -1) / nd) * f.mu))  # ||grad f* diff|| <= ||du||/mu
        br = fv - fu - np.sum(xu * du, -1)
        cc = float(np.max(nd / (2 * f.L) / br))  # Bregman gap >= ||du||^2/(2 L)
        xb = conjugate(f, f.grad(x))[1]
        dd = float(np.max(np.abs(xb - x)) / np.max(np.abs(x)))
        pairs_a.append((ffx, fx))
        pairs_d.append((xb.ravel(), x.ravel()))
        for key, v in zip("abcd", (a, b, cc, dd)):
            worst[key] = max(worst[key], v)
        rows.append(dict(f=name, mu=f.mu, L=f.L, a_rel=a, b_ratio=b, c_ratio=cc, d_rel=dd,
                         max_u=float(np.max(np.abs(u)))))
    dec = [decide.identity(np.concatenate([p[0] for p in pairs_a]), np.concatenate([p[1] for p in pairs_a]), rtol=1e-9,
                           atol=1e-9, what="(a) f**(x) = f(x)", tests=4),
           decide.bound(worst["b"], 1.0, rtol=1e-8, what="(b) mu ||grad f*(u') - grad f*(u)||/||u' - u||", tests=4),
           decide.bound(worst["c"], 1.0, rtol=1e-8, what="(c) (||u' - u||^2/(2L))/Bregman gap of f*", tests=4),
           decide.identity(np.concatenate([p[0] for p in pairs_d]), np.concatenate([p[1] for p in pairs_d]), rtol=1e-9,
                           atol=1e-12, what="(d) grad f*(grad f(x)) = x", tests=4)]
    return decide.combine(dec, what="Proposition 22 on " + "; ".join(
        f"{r['f']} (mu={r['mu']:.3g}, L={r['L']:.3g}): (a) {r['a_rel']:.1e}, (b) {r['b_ratio']:.4f}, (c) {r['c_ratio']:.4f}, "
        f"(d) {r['d_rel']:.1e}, f* finite up to |u| = {r['max_u']:.3g}" for r in rows), observed={"cases": rows, **worst},
        bound={"ratio": 1.0}, params={"points": n})


# ----------------------------------------------------------------------------- Proposition 23
def sphere_marginal_psi2(d: int) -> float:
    """Sub-gaussian norm sup_{p >= 1} p^{-1/2} (E|X|^p)^{1/p} (Vershynin 2012, Def. 5.7) of X = <sqrt(d) a, e_1>, a
    uniform on the unit sphere of R^d (every one-dimensional marginal of the rows of sqrt(d) P; Han et al. 2024, proof
    of Prop. 24), from the exact moments E|X|^p = d^{p/2} Gamma((p+1)/2) Gamma(d/2)/(sqrt(pi) Gamma((d+p)/2))."""
    from scipy.special import gammaln

    p = np.concatenate([np.linspace(1, 4, 301), np.linspace(4, 400, 400)])
    logm = p / 2 * math.log(d) + gammaln((p + 1) / 2) + gammaln(d / 2) - 0.5 * math.log(math.pi) - gammaln((d + p) / 2)
    return float(np.max(np.exp(logm / p) / np.sqrt(p)))


def singular_deviation(d_sub: int, d: int, draws: int, g) -> np.ndarray:
    """max(s_max(A) - sqrt(d), sqrt(d) - s_min(A)) for ``draws`` independent A = sqrt(d) P (P with i.i.d. Gaussian
    entries and unit-norm rows, Han et al. 2024, Sec. 3.1), from the eigenvalues of A A^T."""
    out = np.empty(draws)
    for i in range(draws):
        A = math.sqrt(d) * make_projection(d_sub, d, orthonormal=False, seed=g)
        ev = np.linalg.eigvalsh(A @ A.T)
        out[i] = max(math.sqrt(ev[-1]) - math.sqrt(d), math.sqrt(d) - math.sqrt(max(ev[0], 0.0)))
    return out


#: (d_sub, d) cells (Prop. 23's (d, D)) and the t grid where 2 exp(-t^2/2) < 1
PROP23_CELLS = ((10, 100), (21, 610), (50, 200), (5, 1000))
PROP23_T = ((2.0, 3.0), (1.25, 1.5, 2.0, 2.5, 3.0))
PROP23_DRAWS = (250, 3000)


@PAPER.claim("lpproj.prop23.vershynin-constants", "Proposition 23 (App. A.1; Vershynin 2012, Thm 5.58) for A = sqrt(d) P",
             "For A d_sub x d with independent isotropic rows of norm sqrt(d): sqrt(d) - C sqrt(d_sub) - t <= s_min(A) <= "
             "s_max(A) <= sqrt(d) + C sqrt(d_sub) + t with probability >= 1 - 2 exp(-c t^2) for every t >= 0.",
             regime="A = sqrt(d) P with the paper's P (rows uniform on the sphere, so isotropic with norm sqrt(d), the "
                    "application in the proof of Prop. 24); the open constants read as the Gaussian ones, C = 1 and c = "
                    "1/2 (Vershynin 2012, Cor. 5.35), for which Prop. 24 follows with t = sqrt(d_sub): C_24 = 2, c_24 = "
                    "1/2; (d_sub, d) in {(10,100), (21,610)} (full: also (50,200), (5,1000)), t in {2, 3} (full: {1.25, "
                    "1.5, 2, 2.5, 3}; the bound is below 1 there); exact binomial test of the violation rate against 2 exp(-t^2/2), "
                    "Bonferroni over cells and t; the psi_2 norm K of the rows from exact moments")
def _prop23(full: bool, seed):
    with blas_single_thread():  # many small Gram matrices: BLAS threads only contend
        return _prop23_body(full, seed)


def _prop23_body(full: bool, seed):
    cells = PROP23_CELLS if full else PROP23_CELLS[:2]
    draws = PROP23_DRAWS[bool(full)]
    ts = PROP23_T[bool(full)]
    tests = len(cells) * len(ts)
    dec, rows = [], []
    for (ds, d), s in zip(cells, spawn_seeds(seed, len(cells))):
        dev = singular_deviation(ds, d, draws, as_generator(s))
        excess = dev - math.sqrt(ds)  # against C = 1
        viol = {t: int(np.sum(excess > t)) for t in ts}
        dec += [decide.probability(viol[t], draws, 2 * math.exp(-t ** 2 / 2), tests=tests,
                                   what=f"(d_sub={ds}, d={d}, t={t:g})") for t in ts]
        # the smallest C with the empirical violation rate <= 2 exp(-t^2/2) at every t of the grid (c = 1/2)
        c_star = max((np.quantile(dev, 1 - 2 * math.exp(-t ** 2 / 2)) - t) / math.sqrt(ds) for t in PROP23_T[1])
        rows.append(dict(d_sub=ds, d=d, K=sphere_marginal_psi2(d), C_star=float(c_star),
                         max_excess=float(excess.max()), violations=viol))
    return decide.combine(dec, what=f"Proposition 23 with C = 1, c = 1/2 ({draws} draws per cell): " + "; ".join(
        f"(d_sub={r['d_sub']}, d={r['d']}): psi_2 norm of the rows K = {r['K']:.4f}, largest (deviation - sqrt(d_sub)) "
        f"{r['max_excess']:.3f}, smallest C for the empirical rates {r['C_star']:.3f}, violations at t = {ts[0]:g}: "
        f"{r['violations'][ts[0]]}" for r in rows) + f"; Gaussian limit of K: {math.sqrt(2 / math.pi):.4f}",
        observed={"cells": rows}, bound={"C": 1.0, "c": 0.5}, params={"draws": draws, "t": list(ts)})
