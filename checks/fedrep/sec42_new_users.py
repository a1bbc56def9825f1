"""Sec. 4.2 of Collins, Hassani, Mokhtari and Shakkottai (2021), *Exploiting Shared Representations for
Personalized Federated Learning*, ICML 2021, "New users and dimensionality reduction", with Benefit (III) of
Sec. 1 (a new client's sample complexity Theta(k log(1/eps)), an erratum) and the new clients of Figure 4
(Sec. 5.1): a new client that fits only a k-dimensional head on a given representation.

Exact law (derived here, checked by simulation). Let ``x ~ N(0, I_d)``, ``y = theta^T x + eps`` with
``eps ~ N(0, sigma^2)``, ``B_hat`` a d x k matrix with orthonormal columns, and the head
``w_hat = argmin_w sum_j (y_j - w^T B_hat^T x_j)^2`` fitted by ordinary least squares on ``m_new``
samples. Write ``P = I - B_hat B_hat^T`` and ``b^2 = ||P theta||^2``. The features ``a = B_hat^T x ~
N(0, I_k)`` and the misspecification term ``u = (P theta)^T x ~ N(0, b^2)`` are independent
(``Cov(a, u) = B_hat^T P theta = 0``), so the fit sees Gaussian noise of variance ``sigma^2 + b^2``;
by Pythagoras and ``E (A^T A)^{-1} = I_k/(m_new - k - 1)`` (inverse Wishart),

    E ||theta - B_hat w_hat||^2 = b^2 + (sigma^2 + b^2) k / (m_new - k - 1)
                                = b^2 (m_new - 1)/(m_new - k - 1) + sigma^2 k/(m_new - k - 1).

With ``B_hat = B*`` (b = 0) this is the OLS law ``sigma^2 k/(m_new - k - 1)`` (and
``sigma^2 d/(m_new - d - 1)`` for Local Only, the d-dimensional fit); with equal principal angles
``dist(B_hat, B*) = delta`` and ``theta = B* w``, ``b^2 = delta^2 ||w||^2``.
"""
from __future__ import annotations

import numpy as np
from fedtheory import decide
from fedtheory.linalg import orthogonal_complement, orthonormalize, principal_angle_distance
from fedtheory.montecarlo import Estimate, estimate_from_samples
from fedtheory.random import as_generator, spawn_seeds
from fedtheory.representation import fit_heads, make_model, ols_excess_risk, run_fedrep
from fedtheory.representation.model import make_heads
from . import PAPER

_CHUNK = 4096  # replications per vectorised block (memory: chunk x m_new x d doubles)


# ----------------------------------------------------------------------------- closed form
def ols_head_excess_risk(m_new, k: int, sigma: float, bias2=0.0):
    """Expected excess risk of a new client's least-squares head on a fixed representation.

    Collins, Hassani, Mokhtari and Shakkottai (2021), FedRep, Sec. 4.2 ("New users": excess risk
    O(k/m_new) on a new task, citing Tripuraneni et al. 2020 and Du et al. 2020) and Figure 4. For an
    isotropic Gaussian design, label noise ``N(0, sigma^2)`` and an orthonormal representation
    ``B_hat`` with misspecification ``bias2 = ||(I - B_hat B_hat^T) theta||^2``::

        E ||theta - B_hat w_hat||^2 = bias2 + (sigma^2 + bias2) k / (m_new - k - 1)

    (exact; ``bias2 = 0`` gives the OLS law ``sigma^2 k/(m_new - k - 1)`` of
    :func:`fedtheory.representation.ols_excess_risk`; ``k = d`` with ``bias2 = 0`` gives Local Only's
    ``sigma^2 d/(m_new - d - 1)``). Derivation in the module docstring.

    Parameters
    ----------
    m_new : int or array of int
        Samples of the new client, each ``>= k + 2`` (the inverse-Wishart mean is finite only there).
    k : int
        Dimension of the fitted head, ``>= 1``.
    sigma : float
        Label-noise standard deviation, ``>= 0``.
    bias2 : float or array
        ``||(I - B_hat B_hat^T) theta||^2 >= 0`` (broadcast against ``m_new``).

    Returns
    -------
    float or ndarray
    """
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise ValueError(f"`k` must be an integer >= 1; got {k!r}")
    m = np.asarray(m_new)
    if m.size == 0 or not np.issubdtype(m.dtype, np.integer) or np.any(m < k + 2):
        raise ValueError(f"`m_new` must be integer(s) >= k + 2 = {k + 2}; got {m_new!r}")
    if not np.isfinite(sigma) or sigma < 0:
        raise ValueError(f"`sigma` must be a finite number >= 0; got {sigma!r}")
    b2 = np.asarray(bias2, dtype=float)
    if not np.all(np.isfinite(b2)) or np.any(b2 < 0):
        raise ValueError(f"`bias2` must be finite and >= 0; got {bias2!r}")
    # the misspecification acts as extra Gaussian noise: b^2 + ols_excess_risk(k, m, sqrt(sigma^2 + b^2))
    out = np.asarray(b2 + ols_excess_risk(k, m, np.sqrt(sigma ** 2 + b2)), dtype=float)
    return float(out) if out.ndim == 0 else out


def equal_angle_representation(B_star: np.ndarray, delta: float, rng: np.random.Generator) -> np.ndarray:
    """An orthonormal d x k ``B_hat`` whose k principal angles with ``B_star`` all equal ``arcsin(delta)``.

    ``B_hat = B_star cos(phi) + C sin(phi)`` with ``C`` a Haar-random orthonormal d x k matrix in
    ``col(B_star)^perp``, so ``dist(B_hat, B_star) = delta`` (FedRep Definition 1, the sine of the
    largest principal angle) and ``||(I - B_hat B_hat^T) B_star w||^2 = delta^2 ||w||^2`` for every w.

    Parameters
    ----------
    B_star : ndarray (d, k)
        Orthonormal columns, ``d >= 2k``.
    delta : float
        Target distance in ``[0, 1]``.
    rng : numpy.random.Generator
    """
    B_star = np.asarray(B_star, dtype=float)
    if B_star.ndim != 2 or B_star.shape[0] < 2 * B_star.shape[1]:
        raise ValueError(f"`B_star` must be a d x k matrix with d >= 2k; got shape {B_star.shape}")
    if not np.isfinite(delta) or not 0 <= delta <= 1:
        raise ValueError(f"`delta` must lie in [0, 1]; got {delta!r}")
    d, k = B_star.shape
    perp = orthogonal_complement(B_star)
    Q, _ = np.linalg.qr(rng.standard_normal((d - k, k)))
    C = perp @ Q
    return np.sqrt(1 - delta ** 2) * B_star + delta * C


# ----------------------------------------------------------------------------- simulation (the referee)
def simulate_excess(B_hat, thetas: np.ndarray, m_new: int, sigma: float, seed) -> np.ndarray:
    """Exact excess risk ``||theta - B_hat w_hat||^2`` of one simulated new client per row of ``thetas``.

    Each client draws ``m_new`` samples ``x ~ N(0, I_d)``, ``y = theta^T x + N(0, sigma^2)``, and fits
    its head by least squares on the features ``X B_hat`` (:func:`fedtheory.representation.fit_heads`,
    FedRep Algorithm 2's exact head, no ridge); ``B_hat=None`` is Local Only (the d-dimensional
    least-squares fit). The population excess risk of the fitted predictor is computed exactly.
    Blocks of 4096 clients draw from their own spawned streams of ``seed``.

    With a representation the design is drawn in the reduced form, exact in law for ``x ~ N(0, I_d)``:
    for each client, ``Q`` is an orthonormal basis of ``span(B_hat, theta)`` (k+1 columns) and the
    sample is ``x = Q z`` restricted to what the fit sees, i.e. the features ``X B_hat = Z Q^T B_hat``
    and labels ``X theta = Z Q^T theta`` with ``Z`` an ``m_new x (k+1)`` standard Gaussian matrix
    (the projections of an isotropic Gaussian on orthonormal directions are i.i.d. N(0, 1)). The
    least-squares fit and the excess risk are then computed as for the full design.
    """
    thetas = np.asarray(thetas, dtype=float)
    R, d = thetas.shape
    B = np.eye(d) if B_hat is None else orthonormalize(np.asarray(B_hat, dtype=float))
    if m_new < B.shape[1]:
        raise ValueError(f"`m_new` must be >= the head dimension {B.shape[1]}; got {m_new}")
    out = np.empty(R)
    starts = range(0, R, _CHUNK)
    for s0, ss in zip(starts, spawn_seeds(seed, len(starts))):
        rng = as_generator(ss)
        th = thetas[s0:s0 + _CHUNK]
        if B_hat is None:
            X = rng.standard_normal((len(th), m_new, d))
            A, signal = X, np.einsum("cmd,cd->cm", X, th)
        else:  # reduced design, exact in law: Q = basis of span(B_hat, theta_c) per client
            Q = np.linalg.qr(np.concatenate([np.broadcast_to(B, (len(th),) + B.shape), th[:, :, None]],
                                            axis=2))[0]
            Z = rng.standard_normal((len(th), m_new, Q.shape[2]))
            QtB = np.swapaxes(Q, 1, 2) @ B
            A, signal = Z @ QtB, np.einsum("cmj,cj->cm", Z, np.einsum("cdj,cd->cj", Q, th))
        y = signal + sigma * rng.standard_normal((len(th), m_new))
        w = fit_heads(A, y)
        out[s0:s0 + _CHUNK] = np.sum((th - w @ B.T) ** 2, axis=1)
    return out


# ----------------------------------------------------------------------------- decisions
def stacked_estimate(means, ses, n: int) -> Estimate:
    """Monte Carlo means and standard errors of several points (``n`` replications each) as one vector
    estimate for :func:`fedtheory.decide.agreement`."""
    means, ses = np.asarray(means, float), np.asarray(ses, float)
    return Estimate(mean=means, se=ses, ci_low=means - 2 * ses, ci_high=means + 2 * ses, n=int(n))


def law_decision(means, ses, n: int, closed, fit_x, *, slope_true: float, tests: int = 1, what: str = "") -> dict:
    """"Monte Carlo means agree with the closed form": every point's mean against the closed form
    (:func:`fedtheory.decide.agreement`, Bonferroni over the points), and the weighted fit (WLS, weights
    1/se^2) of the means on ``fit_x`` whose slope must match ``slope_true`` (:func:`fedtheory.decide.rate`,
    affine model, two-sided). Returns the combined decision."""
    means, ses = np.asarray(means, float), np.asarray(ses, float)
    return decide.combine(
        [decide.agreement(stacked_estimate(means, ses, n), np.asarray(closed, float), tests=2 * tests,
                          what=f"{what}: Monte Carlo means vs the closed form"),
         decide.rate(np.asarray(fit_x, float), means, se=ses, claimed=slope_true, model="affine", tests=2 * tests,
                     what=f"{what}: WLS slope of the means on 1/(m_new - k - 1)")], what=what)


def _random_thetas(B_star, k, R, rng):
    """R new clients' parameters theta = B* w, w uniform on the sphere of radius sqrt(k) (Assumption 3)."""
    return make_heads(rng, R, k, "sqrt_k") @ B_star.T


# ----------------------------------------------------------------------------- claims
@PAPER.claim("fedrep.newclient.ols-law", "Sec. 4.2 (new users); Sec. 1 Benefit (III); Figure 4",
             "A new client that fits only a k-dimensional head on the ground-truth representation has "
             "excess risk O(k/m_new): exactly sigma^2 k/(m_new - k - 1) for a Gaussian design (vs "
             "sigma^2 d/(m_new - d - 1) for Local Only's d-dimensional fit).",
             regime="x ~ N(0, I_d), label noise N(0, sigma^2), d=20, k=2, sigma=0.5, B_hat = B*, heads "
                    "uniform on the sphere of radius sqrt(k) (Assumption 3), least-squares head without "
                    "ridge; m_new in {7, 8, 12, 20, 40, 80} (m_new >= k+5 so the excess risk has a finite "
                    "variance) and Local Only at m_new in {25, 30, 40}; 4,000 (quick) / 40,000 (full) "
                    "simulated clients per point (a quarter of that for Local Only), excess risk computed exactly. The paper cites the O(k/m_new) "
                    "rate without constants; the exact Gaussian-design law is the reading tested. Holds iff "
                    "every point's Monte Carlo mean agrees with the law (t tests, Bonferroni) and the WLS fit "
                    "of the means on 1/(m_new - k - 1) has intercept CI containing 0 and slope CI containing "
                    "sigma^2 k (decide.agreement and decide.rate, Bonferroni over the 4 decisions); anything else "
                    "is `refuted`")
def _ols_law(full: bool, seed):
    d, k, sigma = 20, 2, 0.5
    R = 40_000 if full else 4_000
    ms, ms_local = (7, 8, 12, 20, 40, 80), (25, 30, 40)
    s_model, s_heads, s_runs = spawn_seeds(seed, 3)
    B_star = make_model(d, k, 1, seed=s_model).B_star
    thetas = _random_thetas(B_star, k, R, as_generator(s_heads))
    runs = spawn_seeds(s_runs, len(ms) + len(ms_local))
    est = [estimate_from_samples(simulate_excess(B_star, thetas, m, sigma, s)) for m, s in zip(ms, runs)]
    est_l = [estimate_from_samples(simulate_excess(None, thetas[:R // 4], m, sigma, s))
             for m, s in zip(ms_local, runs[len(ms):])]
    closed = ols_head_excess_risk(np.array(ms), k, sigma)
    closed_l = ols_head_excess_risk(np.array(ms_local), d, sigma)
    means = np.array([e.mean for e in est + est_l])
    ses = np.array([e.se for e in est + est_l])
    head = law_decision(means[:len(ms)], ses[:len(ms)], R, closed, 1.0 / (np.array(ms) - k - 1.0),
                        slope_true=sigma ** 2 * k, tests=2, what="head on B*")
    local = decide.agreement(stacked_estimate(means[len(ms):], ses[len(ms):], R // 4), closed_l, tests=2,
                             what="Local Only vs sigma^2 d/(m_new - d - 1)")
    return decide.combine(
        [head, local],
        what=f"{R} simulated new clients per point, exact excess risk: head on B* "
             + ", ".join(f"m={m}: {e.mean:.4g}+-{e.se:.2g} (law {c:.4g})" for m, e, c in zip(ms, est, closed))
             + "; Local Only " + ", ".join(f"m={m}: {e.mean:.4g}+-{e.se:.2g} (law {c:.4g})"
                                          for m, e, c in zip(ms_local, est_l, closed_l))
             + ". To reach excess risk eps the head needs m_new = k + 1 + sigma^2 k/eps samples: Theta(k/eps) "
               "under label noise, not the Theta(k log(1/eps)) of Benefit (III) (which holds trivially without "
               "noise: m_new = k recovers theta exactly)",
        observed={"m_new": list(ms), "mc_mean": means[:len(ms)].tolist(), "mc_se": ses[:len(ms)].tolist(),
                  "local_m_new": list(ms_local), "local_mc_mean": means[len(ms):].tolist(),
                  "local_mc_se": ses[len(ms):].tolist()},
        bound={"sigma2_k_over_m_minus_k_minus_1": closed.tolist(),
               "local_sigma2_d_over_m_minus_d_minus_1": closed_l.tolist(), "sigma2_k": sigma ** 2 * k},
        params={"d": d, "k": k, "sigma": sigma, "replications": R, "local_replications": R // 4, "m_new": list(ms),
                "local_m_new": list(ms_local), "ridge": 0.0, "design": "gaussian"})


@PAPER.claim("fedrep.newclient.misspecified", "Sec. 4.2 (new users); Figure 4",
             "With a learned representation B_hat at distance dist(B_hat, B*) the new client's excess risk "
             "is b^2 (m_new - 1)/(m_new - k - 1) + sigma^2 k/(m_new - k - 1), b^2 = ||(I - B_hat B_hat^T) "
             "theta||^2 (derived here; the cited O(C(Phi)/(nm) + k/m_new) bound): the representation error "
             "enters as a floor b^2 inflated by (m_new - 1)/(m_new - k - 1) and as extra noise.",
             regime="x ~ N(0, I_d), label noise N(0, sigma^2), d=20, k=2, sigma=0.5, least-squares head "
                    "without ridge, heads uniform on the sphere of radius sqrt(k); (a) B_hat with all principal "
                    "angles equal, dist in {0.02, 0.1, 0.3, 0.6} (b^2 = dist^2 k exactly), m_new in {7, 12, "
                    "40}; (b) FedRep's learned B_hat (Algorithm 2: MoM init, exact heads, n=100, m=10, r=0.1, "
                    "training noise sigma, 30 (quick) / 150 (full) rounds, 2 / 4 trainings), m_new in {7, 12, "
                    "40}, formula conditional on each client's theta. 4,000 / 40,000 simulated clients per "
                    "point. Holds iff every point agrees with the derived formula (t tests, Bonferroni over all "
                    "points); any disagreement is `fails`. The printed law sigma^2 k/(m_new - k - 1) (B_hat = "
                    "B*) is reported at the same points to show the representation error")
def _misspecified(full: bool, seed):
    d, k, sigma = 20, 2, 0.5
    R = 40_000 if full else 4_000
    deltas, ms = (0.02, 0.1, 0.3, 0.6), (7, 12, 40)
    trainings, rounds = (4, 150) if full else (2, 30)
    s_model, s_heads, s_basis, s_runs, s_train, s_fr = spawn_seeds(seed, 6)
    model = make_model(d, k, 100, sigma=sigma, seed=s_model)
    thetas = _random_thetas(model.B_star, k, R, as_generator(s_heads))
    rows, z_all = [], []
    basis_rngs = [as_generator(s) for s in spawn_seeds(s_basis, len(deltas))]
    run_seeds = spawn_seeds(s_runs, len(deltas) * len(ms))
    for i, (delta, g) in enumerate(zip(deltas, basis_rngs)):
        B_hat = equal_angle_representation(model.B_star, delta, g)
        b2 = np.sum((thetas - (thetas @ B_hat) @ B_hat.T) ** 2, axis=1)
        for j, m in enumerate(ms):
            x = simulate_excess(B_hat, thetas, m, sigma, run_seeds[i * len(ms) + j])
            e = estimate_from_samples(x - ols_head_excess_risk(m, k, sigma, b2))  # paired with each theta
            mean = estimate_from_samples(x)
            printed = ols_head_excess_risk(m, k, sigma)
            rows.append(dict(B_hat=f"equal angles, dist {delta:g}", dist=float(principal_angle_distance(B_hat, model.B_star)),
                             m_new=m, mc_mean=mean.mean, mc_se=mean.se, formula=float(mean.mean - e.mean),
                             printed_law=printed, z=float(e.z_score(0.0)),
                             z_printed=float(mean.z_score(printed)), diff=float(e.mean), diff_se=float(e.se)))
            z_all.append(rows[-1]["z"])
    fr = run_fedrep(d, k, 100, 10, 0.1, rounds, model=model, m_test=0, replicates=trainings, seed=s_train)
    fr_seeds = spawn_seeds(s_fr, trainings * len(ms))
    for t in range(trainings):
        B_hat = orthonormalize(fr.B[t])
        b2 = np.sum((thetas - (thetas @ B_hat) @ B_hat.T) ** 2, axis=1)
        for j, m in enumerate(ms):
            x = simulate_excess(B_hat, thetas, m, sigma, fr_seeds[t * len(ms) + j])
            e = estimate_from_samples(x - ols_head_excess_risk(m, k, sigma, b2))
            mean = estimate_from_samples(x)
            printed = ols_head_excess_risk(m, k, sigma)
            rows.append(dict(B_hat=f"FedRep training {t}", dist=float(fr.dist[t, -1]), m_new=m, mc_mean=mean.mean,
                             mc_se=mean.se, formula=float(mean.mean - e.mean), printed_law=printed,
                             z=float(e.z_score(0.0)), z_printed=float(mean.z_score(printed)),
                             diff=float(e.mean), diff_se=float(e.se)))
            z_all.append(rows[-1]["z"])
    worst = max(rows, key=lambda r_: abs(r_["z"]))
    out = decide.agreement(stacked_estimate([r_["diff"] for r_ in rows], [r_["diff_se"] for r_ in rows], R), 0.0,
                           what=f"{R} simulated new clients per point, exact excess risk minus the derived formula "
                                f"b^2 + (sigma^2 + b^2) k/(m_new-k-1) (paired per theta), {len(rows)} points",
                           params={"d": d, "k": k, "sigma": sigma, "replications": R, "deltas": list(deltas),
                                   "m_new": list(ms), "fedrep_training": {"n": 100, "m": 10, "r": 0.1, "rounds": rounds,
                                                                          "trainings": trainings}})
    out["observed"] = {**out["observed"], "points": rows}
    out["evidence"] += (f" (worst: {worst['B_hat']}, m_new={worst['m_new']}). "
                         + "; ".join(f"{r_['B_hat']} (dist {r_['dist']:.3g}), m={r_['m_new']}: MC {r_['mc_mean']:.4g}"
                                     f"+-{r_['mc_se']:.2g}, formula {r_['formula']:.4g}, printed law "
                                     f"{r_['printed_law']:.4g} (z {r_['z_printed']:.1f})" for r_ in rows)
                         + ". The printed k/m_new law holds only while b^2 (m_new-1)/(m_new-k-1) << sigma^2 k/"
                           "(m_new-k-1); beyond that the excess risk plateaus at about dist^2 ||theta||^2")
    return out


#: Equivalence margin of the noisy law's elasticity d log m / d log(1/eps) (absolute), reported
ELASTICITY_MARGIN = 0.05


def law_elasticity(m_new, k: int) -> float:
    """Elasticity ``log(m2/m1) / log(eps1/eps2)`` that the OLS law ``eps = sigma^2 k/(m - k - 1)`` predicts
    between ``m_new = (m1, m2)``: ``log(m2/m1) / log((m2 - k - 1)/(m1 - k - 1))`` (free of sigma)."""
    m1, m2 = (float(v) for v in m_new)
    if not k + 1 < m1 < m2:
        raise ValueError(f"need k + 1 < m1 < m2; got m_new={m_new!r}, k={k}")
    return float(np.log(m2 / m1) / np.log((m2 - k - 1) / (m1 - k - 1)))


def elasticity(m_new, eps, eps_se) -> tuple[float, float, float]:
    """Elasticity ``e = log(m2/m1) / log(eps1/eps2)`` of the samples against 1/eps between two points of a
    sweep, its delta-method standard error from the Monte Carlo ``eps_se``, and the largest elasticity
    ``e_max = 1/log(1/eps1)`` that any ``m = C k log(1/eps)`` allows between them (mean value theorem; the
    logarithm is concave). Returns ``(e, se, e_max)``."""
    m_new, eps, eps_se = (np.asarray(v, dtype=float) for v in (m_new, eps, eps_se))
    if m_new.shape != (2,) or eps.shape != (2,) or eps_se.shape != (2,) or not m_new[0] < m_new[1]:
        raise ValueError("`m_new`, `eps`, `eps_se` must each hold 2 values with m_new[0] < m_new[1]")
    if not (0 < eps[1] < eps[0] < 1) or np.any(eps_se < 0):
        raise ValueError(f"need 0 < eps[1] < eps[0] < 1 and eps_se >= 0; got eps={eps}, eps_se={eps_se}")
    L = np.log(eps[0] / eps[1])
    e = float(np.log(m_new[1] / m_new[0]) / L)
    return e, float(e / L * np.sqrt(np.sum((eps_se / eps) ** 2))), float(1.0 / np.log(1.0 / eps[0]))


@PAPER.claim("fedrep.newclient.k-log-eps", "Sec. 1 Benefit (III); Sec. 4.2 (new client k log(1/eps))",
             "A new client with the ready-made representation needs only Theta(k log(1/eps)) samples to reach "
             "error eps.",
             regime="x ~ N(0, I_d), label noise N(0, sigma^2) with sigma=0.5, d=20, k=2, B_hat = B* (the best case), "
                    "least-squares head; eps read as the expected excess risk (the paper does not define the "
                    "'error in accuracy' of a regression), measured by simulation (8,000 (quick) / 40,000 (full) "
                    "clients) at m_new in {20, 160} (quick) / {20, 40, 80, 160} (full), i.e. eps from about 0.03 "
                    "down to 0.003. Elasticity e = log(m2/m1)/log(eps1/eps2) between m_new = 20 and 160, "
                    "delta-method se from the Monte Carlo. Theta(k log(1/eps)) with any constant allows e <= "
                    "1/log(1/eps1); e significantly above that (one-sided z test at 1e-4, decide.bound) is "
                    "`refuted`. Reported beside it: the noisy law m_eps = k + 1 + sigma^2 k/eps = Theta(k/eps) "
                    "(its elasticity 0.935 at these points, with the measured interval) and the noiseless case "
                    "(m_new = k recovers theta exactly, no eps dependence)",
             root_cause="new-client-k-log-eps")
def _k_log_eps(full: bool, seed):
    d, k, sigma = 20, 2, 0.5
    R = 40_000 if full else 8_000
    ms = (20, 40, 80, 160) if full else (20, 160)
    s_model, s_heads, s_runs, s_exact = spawn_seeds(seed, 4)
    B_star = make_model(d, k, 1, seed=s_model).B_star
    thetas = _random_thetas(B_star, k, R, as_generator(s_heads))
    est = [estimate_from_samples(simulate_excess(B_star, thetas, m, sigma, s))
           for m, s in zip(ms, spawn_seeds(s_runs, len(ms)))]
    eps = np.array([x.mean for x in est])
    eps_se = np.array([x.se for x in est])
    ends = [0, len(ms) - 1]
    m_ends = np.array(ms)[ends]
    e, e_se, e_max = elasticity(m_ends, eps[ends], eps_se[ends])
    e_law = law_elasticity(m_ends, k)
    z = decide.z_critical(two_sided=True)
    ci = [e - z * e_se, e + z * e_se]
    exact = simulate_excess(B_star, thetas[:min(R, 4000)], k, 0.0, s_exact)
    exact_rel = float(np.max(exact / np.sum(thetas[:len(exact)] ** 2, axis=1)))
    law = k + 1 + sigma ** 2 * k / eps
    out = decide.bound(e, e_max, se=e_se, of="elasticity",
                       what=f"elasticity d log m / d log(1/eps) between m_new={ms[0]} and {ms[-1]} vs the largest "
                            f"any C k log(1/eps) allows, 1/log(1/eps1) = {e_max:.3f}",
                       observed_value={"elasticity": e, "se": e_se, "ci": ci},
                       bound_value={"max_elasticity_of_k_log(1/eps)": e_max},
                       params={"d": d, "k": k, "sigma": sigma, "replications": R, "m_new": list(ms),
                               "elasticity_margin": ELASTICITY_MARGIN})
    out["observed"].update(noisy_law={"law_elasticity": e_law, "margin": ELASTICITY_MARGIN,
                                      "ci_inside_margin": bool(e_law - ELASTICITY_MARGIN < ci[0]
                                                               and ci[1] < e_law + ELASTICITY_MARGIN),
                                      "m_eps_law": law.tolist()},
                           noiseless_m_eq_k_max_rel_excess=exact_rel)
    out["evidence"] = (f"simulated expected excess risk eps at m_new = {list(ms)} ({R} clients each): "
                       + ", ".join(f"{x.mean:.4g}+-{x.se:.2g}" for x in est)
                       + f"; elasticity {e:.3f} +- {e_se:.3f} (CI [{ci[0]:.3f}, {ci[1]:.3f}]). " + out["evidence"]
                       + f". Reported: the noisy law m_eps = k + 1 + sigma^2 k/eps has elasticity {e_law:.3f} here "
                       f"(m_eps = " + ", ".join(f"{x:.1f}" for x in law) + f"); noiseless, m_new = k = {k}: largest "
                       f"relative excess risk over {len(exact)} clients {exact_rel:.2g}. Theta(k log(1/eps)) is the "
                       "iteration count of gradient descent on the strongly convex head problem (Sec. 4.1), not a "
                       "sample complexity")
    return out
