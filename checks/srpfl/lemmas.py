"""SRPFL proof of Theorem 4.7 along the trajectory and Lemmas A.5, A.6, A.8, A.10.

* ``srpfl.thm4.7.one-step-contraction``: dist_{t+1}/dist_t against sqrt(1 - a_t) in every round (spec claim 30);
* ``srpfl.thm4.7.E0-trajectory``: the proof's use of E0 <= sigma_min^2(B*^T B_hat^t) at every round (errata item 10);
* ``srpfl.lemA5-A6-A10.scaling``: Monte Carlo of the lemma norms over (m, d, n, dist) against their printed bounds;
* ``srpfl.lemA8-A10.sigma-scaling``: the sigma-vs-sigma^2 slip of A.7/A.9 inherited by A.8 (71) and A.10 (95).

The per-round proof quantities come from :mod:`fedtheory.srpfl.proof_quantities`.
"""
from __future__ import annotations

import math
from functools import partial

import numpy as np
from fedtheory import decide
from fedtheory.parallel import cached_map
from fedtheory.random import as_generator, spawn_seeds
from fedtheory.srpfl import run_srpfl, theorem47_m_condition, theorem47_probability
from fedtheory.srpfl import proof_quantities as pq
from .thm4_7 import C0, _participating_svals
from . import PAPER
from .root_causes import LEMA10_MEAN, SIGMA

#: a round is judged only while dist_t exceeds this (below it the ratio dist_{t+1}/dist_t is rounding noise)
DIST_FLOOR = 1e-9


# ----------------------------------------------------------------------------- exact runs
def exact_batch(seed, *, cfg: dict, runs: int) -> dict:
    """One replicate batch of exact FedRep-SRPFL runs (reduced sampler: exact in law for the Gaussian design with
    fresh batches and d >= 2k, which is all dist_t and a_t need), as flat arrays for the task cache: per run the
    trajectory ``dist`` (runs, T+1), ``a`` (runs, T), ``E0``, kappa over the aggregated sets and Theorem 4.7's
    ``m0`` with c0 = :data:`checks.srpfl.thm4_7.C0` (the reading of ``srpfl.thm4.7.contraction``)."""
    p = dict(cfg)
    batch = run_srpfl(**p, speeds="fixed", sampler="reduced", replicates=runs, seed=seed)
    E0s, m0s, kappas = [], [], []
    for res, sp in zip(batch, batch.speed_models):
        sv = _participating_svals(res.model.W_star, sp.fixed_times, sorted(set(res.participants.tolist())))
        a = np.array([0.5 * res.eta * res.E0 * sv[n][-1] ** 2 for n in res.participants])
        if not np.allclose(a, res.a, rtol=1e-9, atol=0):
            raise RuntimeError("participating sets reconstructed from the fixed speeds do not match the run")
        kappa = max(v[0] for v in sv.values()) / min(v[-1] for v in sv.values())
        m0 = (float(theorem47_m_condition(p["k"], p["d"], p["N"], p["n0"], kappa, res.E0, p["sigma"], c0=C0))
              if res.E0 > 0 else math.inf)
        E0s.append(float(res.E0))
        m0s.append(m0)
        kappas.append(float(kappa))
    return {"dist": np.asarray(batch.dist, float), "a": np.asarray(batch.a, float), "E0": np.array(E0s),
            "m0": np.array(m0s), "kappa": np.array(kappas)}


def _exact_runs(cfg: dict, runs: int, seed) -> list[dict]:
    """:func:`exact_batch` through the task cache (an interrupted full run resumes), split into one dict per run
    with ``in_regime = m >= m0``."""
    out = cached_map(partial(exact_batch, cfg=dict(cfg), runs=runs), [seed], namespace="srpfl.lemmas.exact-runs",
                     params={**cfg, "runs": runs, "c0": C0})[0]
    return [dict(dist=out["dist"][j], a=out["a"][j], E0=float(out["E0"][j]), m0=float(out["m0"][j]),
                 in_regime=bool(cfg["m"] >= out["m0"][j]), m=cfg["m"], sigma=cfg["sigma"])
            for j in range(runs)]


def contraction_counts(dist, a, floor: float = DIST_FLOOR) -> tuple[int, int, np.ndarray]:
    """Rounds of one run violating ``dist_{t+1} <= sqrt(1 - a_t) dist_t`` (relative slack 1e-12), rounds judged
    (those with ``dist_t > floor``), and the per-round ratios ``(dist_{t+1}/dist_t) / sqrt(1 - a_t)``."""
    dist, a = np.asarray(dist, float), np.asarray(a, float)
    if dist.shape != (a.size + 1,):
        raise ValueError(f"`dist` must have one more entry than `a`; got {dist.shape} and {a.shape}")
    ok = dist[:-1] > floor
    r = dist[1:][ok] / (dist[:-1][ok] * np.sqrt(1 - a[ok]))
    return int(np.sum(r > 1 + 1e-12)), int(ok.sum()), r


def e0_margin(dist) -> np.ndarray:
    """``log(sigma_min^2(B*^T B_hat^t) / E0)`` for t = 1..T, with ``sigma_min^2 = 1 - dist_t^2`` (spec claim 1) and
    ``E0 = 1 - dist_0^2`` (7); the proof's step (134)-(135) needs
    it >= 0 in every round. ``-inf`` where sigma_min = 0; ``+inf`` if E0 = 0 and sigma_min > 0."""
    dist = np.asarray(dist, float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.log((1 - dist[1:] ** 2) / (1 - dist[0] ** 2))


def run_level_verdict(viol_runs: int, runs_in: int, p_allowed: float, *, what: str, extra: dict,
                      desc: str, params: dict) -> dict:
    """The run-level decision of Theorem 4.7's probability statement (Tziotis et al., TMLR 2023): the kit's
    one-sided exact binomial test of the in-regime runs with a violating round against the failure probability
    ``p_allowed``; with no run in the regime, the kit's ``premised`` (``inconclusive`` with the size needed)."""
    out = decide.premised(lambda: decide.probability(viol_runs, runs_in, p_allowed, what=what, params=params),
                          held=runs_in, trials=max(runs_in, int(extra.get("runs", runs_in)) or 1),
                          what=f"{what} (runs meeting the m condition)", unit="runs meeting the m condition",
                          params=params)
    return {**out, "observed": {**extra, **(out["observed"] or {})}, "bound": {**(out["bound"] or {}), "c0": C0},
            "evidence": desc + "; " + out["evidence"]}


def _cp(k: int, n: int) -> list[float]:  # exact (Clopper-Pearson) interval at the claim level, reported only
    return [0.0, 1.0] if n == 0 else list(decide.clopper_pearson(k, n, 1 - decide.LEVEL))


#: exact-run configurations (quick, full); each entry: (config, runs)
_BASE = dict(d=20, k=2, M=32, N=32, n0=4, stage_lengths=15, rounds=60)
_BIG = dict(d=50, k=3, M=64, N=64, n0=4, stage_lengths=25, rounds=150)
CONTRACTION_RUNS = {
    False: [(dict(_BASE, m=40, stage_lengths=10, rounds=40), 5)],
    True: [(dict(_BASE, m=m), 40) for m in (40, 80, 160)] + [(dict(_BIG, m=m), 12) for m in (30, 60, 120)],
}
E0_RUNS = {
    False: [(dict(_BASE, m=40, sigma=1.0, stage_lengths=10, rounds=40), 5)],
    True: [(dict(_BASE, m=m, sigma=s), 30) for s in (0.5, 1.0, 2.0) for m in (40, 160)]
    + [(dict(_BIG, m=m, sigma=0.5), 12) for m in (30, 120)],
}


def _describe(cfgs) -> str:
    return "; ".join(f"d={c['d']},k={c['k']},N=M={c['N']},n0={c['n0']},m={c['m']}"
                     + (f",sigma={c['sigma']}" if "sigma" in c else "") + f",{c['rounds']} rounds x {r} runs"
                     for c, r in cfgs)


_RUN_REGIME = ("Assumptions 4.3-4.6 (Gaussian design, sqrt(k)-normalised heads), eta = 1/(8 max ||w_i*||^2) <= "
               "1/(8 sigma_max,*^2), MoM initialisation (E0 = 1 - dist_0^2 of the run), fixed speeds, doubling "
               "stages from n0; exact runs (sampler='reduced', exact in law); a_t = eta E0 sigma_min^2(W*_I/sqrt n)/2 "
               "from the aggregated set I; a run is in the theorem's regime when m >= m_0 = c0 (1+sigma^2) k^3 "
               f"kappa^4/E0^2 max(log N, d/n0) with its own E0 and kappa and c0 read as {C0:g} (the reading of "
               "srpfl.thm4.7.contraction); the run-level violation rate is tested against Theorem 4.7's failure "
               "probability T exp(-90 min(d, k^2 log N)) by a one-sided exact binomial test at the claim level")


@PAPER.claim("srpfl.thm4.7.one-step-contraction", "Theorem 4.7, eq. (10), spec claim 30 [arXiv: Theorem 4.5, (9)]",
             "In noiseless exact runs inside the theorem's regime, every round contracts at least as fast as the "
             "homogeneous part of (10): dist_{t+1}/dist_t <= sqrt(1 - a_t), and typically well below it.",
             regime=_RUN_REGIME + "; sigma = 0, where the additive term of (10) is an artefact of the proof "
                                  "(errata item 7: A3 in (138) bounds sqrt(k) delta sigma^2 + (delta sigma^2)^2 by "
                                  "sqrt(k) + 1) and B* is a fixed point, so (10) with the artefact removed is the "
                                  "pure contraction; every round with dist_t > 1e-9 is judged (relative slack 1e-12); "
                                  "a run violates if any round does. Noisy rounds (sigma = 0.5) are reported (per-"
                                  "round rate with exact CI), not decided: there (10) allows dist_{t+1}/dist_t up "
                                  "to sqrt(1-a) + a/(sqrt((n/n0)(1-a)) dist_t)")
def _one_step(full: bool, seed):
    cfgs = CONTRACTION_RUNS[bool(full)]
    rows = []
    for (cfg, runs), s in zip(cfgs, spawn_seeds(seed, len(cfgs) + 1)):
        rows += _exact_runs(dict(cfg, sigma=0.0), runs, s)
    per = [(r, *contraction_counts(r["dist"], r["a"])) for r in rows]
    inside = [x for x in per if x[0]["in_regime"]]
    viol_runs = sum(x[1] > 0 for x in inside)
    viol_rounds, judged = sum(x[1] for x in inside), sum(x[2] for x in inside)
    ratios = np.concatenate([x[3] for x in inside]) if inside else np.array([np.nan])
    # log(dist+/dist) / log sqrt(1-a) = log r' / log s with r' = ratio * s, s = sqrt(1-a): how many times faster
    # than the bound's rate the run contracts (a > 0 in the regime, since m_0 is finite only for E0 > 0)
    rate = np.concatenate([1 + np.log(x[3]) / np.log(np.sqrt(1 - x[0]["a"][x[0]["dist"][:-1] > DIST_FLOOR]))
                           for x in inside]) if inside else np.array([np.nan])
    outside = [x for x in per if not x[0]["in_regime"]]
    extra = {"runs": len(rows), "in_regime_runs": len(inside), "in_regime_violating_runs": viol_runs,
             "in_regime_rounds": judged, "in_regime_violating_rounds": viol_rounds,
             "round_violation_ci": _cp(viol_rounds, judged),
             "ratio_to_sqrt_1_minus_a_quantiles": {q: float(np.nanquantile(ratios, q))
                                                   for q in (0.5, 0.9, 0.99, 1.0)},
             "contraction_rate_over_bound_rate_median": float(np.nanmedian(rate)),
             "out_of_regime_runs": len(outside), "out_of_regime_violating_runs": sum(x[1] > 0 for x in outside)}
    noisy_note = ""
    if full:
        noisy = []
        for (cfg, runs), s in zip(cfgs[:3], spawn_seeds(spawn_seeds(seed, len(cfgs) + 1)[-1], 3)):
            noisy += _exact_runs(dict(cfg, sigma=0.5), runs, s)
        nv = [contraction_counts(r["dist"], r["a"]) for r in noisy if r["in_regime"]]
        k_, n_ = sum(v[0] for v in nv), sum(v[1] for v in nv)
        extra["noisy_sigma_0.5_round_violations"] = [k_, n_]
        extra["noisy_sigma_0.5_round_violation_ci"] = _cp(k_, n_)
        noisy_note = (f"; noisy runs (sigma = 0.5, reported only): {k_}/{n_} in-regime rounds exceed sqrt(1-a_t) "
                      f"(exact CI [{extra['noisy_sigma_0.5_round_violation_ci'][0]:.3g}, "
                      f"{extra['noisy_sigma_0.5_round_violation_ci'][1]:.3g}]), as (10)'s additive term allows")
    p_allowed = max(1.0 - float(theorem47_probability(c["rounds"], c["d"], c["k"], c["N"])) for c, _ in cfgs)
    q = extra["ratio_to_sqrt_1_minus_a_quantiles"]
    desc = (f"noiseless exact runs ({_describe(cfgs)}): {len(inside)} of {len(rows)} runs in the regime; "
            f"{viol_rounds}/{judged} of their rounds exceed sqrt(1-a_t) (exact {100 * (1 - decide.LEVEL):g}% CI "
            f"[{extra['round_violation_ci'][0]:.3g}, {extra['round_violation_ci'][1]:.3g}]); (dist+/dist)/sqrt(1-a) "
            f"median {q[0.5]:.4f}, 99% quantile {q[0.99]:.4f}, max {q[1.0]:.4f}; per-round contraction "
            f"log(dist+/dist)/log sqrt(1-a) median {extra['contraction_rate_over_bound_rate_median']:.1f} (the runs "
            f"contract that many times faster than the bound's rate); out of the regime "
            f"{extra['out_of_regime_violating_runs']} of {len(outside)} runs violate" + noisy_note)
    params = {"configs": [dict(c, runs=r) for c, r in cfgs], "c0": C0, "dist_floor": DIST_FLOOR}
    return run_level_verdict(viol_runs, len(inside), p_allowed,
                             what="noiseless in-regime runs with a round where dist_{t+1} > sqrt(1-a_t) dist_t",
                             extra=extra, desc=desc, params=params)


@PAPER.claim("srpfl.thm4.7.E0-trajectory", "Proof of Theorem 4.7, (134)-(135) (E0 <= sigma_min^2(B*^T B_hat)); "
             "spec errata item 10",
             "The proof bounds ||I - (eta/n) W+^T W+|| using E0 = 1 - dist^2(B^0, B*) <= sigma_min^2(B*^T B_hat^t) in "
             "every round t; on noisy exact runs inside the theorem's regime this holds along the whole trajectory "
             "(log sigma_min^2(B*^T B_hat^t) - log E0 >= 0 in every round).",
             regime=_RUN_REGIME + "; sigma in {0.5, 1, 2} (quick: 1); sigma_min^2(B*^T B_hat^t) = 1 - dist_t^2 "
                                  "(exact identity, principal angles); a run violates if any round has "
                                  "sigma_min^2 < E0 (relative slack 1e-12), i.e. dist_t > dist_0")
def _e0(full: bool, seed):
    cfgs = E0_RUNS[bool(full)]
    rows = []
    for (cfg, runs), s in zip(cfgs, spawn_seeds(seed, len(cfgs))):
        rows += _exact_runs(cfg, runs, s)
    margins = [e0_margin(r["dist"]) for r in rows]
    viol = [bool(np.any(mg < -1e-12)) for mg in margins]
    inside = [j for j, r in enumerate(rows) if r["in_regime"]]
    outside = [j for j, r in enumerate(rows) if not r["in_regime"]]
    v_in = sum(viol[j] for j in inside)
    min_in = float(min(np.min(margins[j]) for j in inside)) if inside else math.nan
    by_sigma = {}
    for s in sorted({r["sigma"] for r in rows}):
        js = [j for j in inside if rows[j]["sigma"] == s]
        by_sigma[f"sigma={s}"] = {"runs": len(js), "violating": sum(viol[j] for j in js),
                                  "min_log_margin": float(min(np.min(margins[j]) for j in js)) if js else None,
                                  "median_E0": float(np.median([rows[j]["E0"] for j in js])) if js else None}
    extra = {"runs": len(rows), "in_regime_runs": len(inside), "in_regime_violating_runs": v_in,
             "min_log_margin_in_regime": min_in, "by_sigma": by_sigma,
             "out_of_regime_runs": len(outside), "out_of_regime_violating_runs": sum(viol[j] for j in outside),
             "out_of_regime_E0_of_violators": [rows[j]["E0"] for j in outside if viol[j]]}
    p_allowed = max(1.0 - float(theorem47_probability(c["rounds"], c["d"], c["k"], c["N"])) for c, _ in cfgs)
    desc = (f"noisy exact runs ({_describe(cfgs)}): {len(inside)} of {len(rows)} runs in the regime, {v_in} of them "
            f"with a round where sigma_min^2(B*^T B_hat^t) < E0; smallest log(sigma_min^2/E0) over their rounds "
            f"{min_in:.3g}; by sigma: " + ", ".join(f"{k}: {v['violating']}/{v['runs']} (min margin "
                                                    f"{v['min_log_margin'] if v['min_log_margin'] is None else round(v['min_log_margin'], 3)})"
                                                    for k, v in by_sigma.items())
            + f"; out of the regime {extra['out_of_regime_violating_runs']} of {len(outside)} runs violate (their E0: "
              f"{', '.join(f'{e:.2g}' for e in extra['out_of_regime_E0_of_violators']) or 'none'})")
    params = {"configs": [dict(c, runs=r) for c, r in cfgs], "c0": C0}
    return run_level_verdict(v_in, len(inside), p_allowed,
                             what="noisy in-regime runs with a round where sigma_min^2(B*^T B_hat^t) < E0",
                             extra=extra, desc=desc, params=params)


# ----------------------------------------------------------------------------- Lemmas A.5, A.6, A.8, A.10
#: rank and N (inside delta = c k^1.5 sqrt(log N)/sqrt(m)) of the lemma Monte Carlo
LEM_K, LEM_N = 2, 64


def lemma_draws(g, reps: int, m: int, d: int, n: int, dist: float, sigma: float, k: int = LEM_K):
    """``reps`` independent rounds of Appendix A's setting, as :class:`~fedtheory.srpfl.proof_quantities.RoundQuantities`
    with a leading replicate axis, and the heads ``W*`` (reps, n, k).

    B* = the first k coordinate vectors and B_hat = cos(theta) B* + sin(theta) (the next k coordinate vectors), so all k
    principal angles equal theta = arcsin(dist) and dist(B_hat, B*) = dist (exact in law for the isotropic Gaussian
    design, which is rotation invariant; needs d >= 2k); fresh sqrt(k)-normalised heads (Assumption 4.6) and Gaussian
    X_i (m x d), Z_i ~ N(0, sigma^2) per replicate."""
    th = math.asin(dist)
    Bs = np.zeros((d, k))
    Bs[:k, :k] = np.eye(k)
    B = np.zeros((d, k))
    B[:k, :k] = math.cos(th) * np.eye(k)
    B[k:2 * k, :k] = math.sin(th) * np.eye(k)
    W = g.standard_normal((reps, n, k))
    W *= math.sqrt(k) / np.linalg.norm(W, axis=-1, keepdims=True)
    X = g.standard_normal((reps, n, m, d))
    Y = np.einsum("rnmd,rnd->rnm", X, W @ Bs.T) + sigma * g.standard_normal((reps, n, m))
    return pq.round_quantities(X, Y, B, Bs, W), W


def _spec(M):
    return np.linalg.norm(M, ord=2, axis=(-2, -1))


def lemma_ratios(rq, W, m: int, d: int, n: int, dist: float) -> dict:
    """Per replicate, each lemma norm divided by its printed bound with c = 1 and delta at leading order
    (delta_hat = delta/(1-delta) -> delta as m grows; the exponents are delta's):

    ``A5``  sum_i ||H_i w_i*||^2 / (delta^2 (||W*||_F^2/k) dist^2)            (36), stricter: ||W*||_F^2/k <= ||W*||_2^2
    ``A6``  mean_i ||F_i|| / (delta dist ||w_i*||)                             (51), per client
    ``A6F`` ||F||_F / (delta dist ||W*||_F/sqrt(k))                            (52), stricter likewise

    ``||W*||_2`` is replaced by its lower bound ``||W*||_F/sqrt(k)`` (= sqrt(n) under Assumption 4.6): a fixed c that
    works for the stricter form works for the printed one, and ``||W*||_2^2/n`` drifts down to 1 with n (finite-n
    anisotropy of the heads), which would otherwise show as a spurious, saturating trend in n.
    ``A10`` ||A10 matrix|| / (sqrt(d) dist k / sqrt(m n))                      (95) at sigma = 0
    """
    dl = pq.delta(m, LEM_K, LEM_N)
    Wn = np.linalg.norm(W, axis=(-2, -1)) / math.sqrt(LEM_K)
    return {"A5": np.sum(np.linalg.norm(np.einsum("rnkl,rnl->rnk", rq.H, W), axis=-1) ** 2, axis=-1)
            / (dl ** 2 * Wn ** 2 * dist ** 2),
            "A6": np.mean(np.linalg.norm(rq.F, axis=-1) / np.linalg.norm(W, axis=-1), axis=-1) / (dl * dist),
            "A6F": np.linalg.norm(rq.F, axis=(-2, -1)) / (dl * dist * Wn),
            "A10": _spec(rq.A10) / (math.sqrt(d) * dist * LEM_K / math.sqrt(m * n))}


#: printed exponents of each bound in (m, d, n, dist) (||W*||_F^2/k = n for A5; A6F's ||W*||_F/sqrt(k) = sqrt n)
PRINTED_EXPONENTS = {"A5": {"m": -1, "d": 0, "n": 1, "dist": 2}, "A6": {"m": -0.5, "d": 0, "n": 0, "dist": 1},
                     "A6F": {"m": -0.5, "d": 0, "n": 0.5, "dist": 1}, "A10": {"m": -0.5, "d": 0.5, "n": -0.5, "dist": 1}}
#: growing variables (a fixed-c bound needs the ratio's slope <= 0) and shrinking ones (slope >= 0)
GROWING, SHRINKING = ("m", "d", "n"), ("dist",)
SCALING_BASE = dict(m=100, d=20, n=8, dist=0.3)
SCALING_LEVELS = dict(m=(50, 100, 200, 400), d=(10, 20, 40, 80), n=(4, 8, 16, 32), dist=(0.01, 0.03, 0.1, 0.3))
#: variables fitted per quantity: A.10's n-direction is the subject of srpfl.lemA10.zero-mean
FIT_VARS = {"A5": ("m", "d", "n", "dist"), "A6": ("m", "d", "n", "dist"), "A6F": ("m", "d", "n", "dist"),
            "A10": ("m", "d", "dist")}


def scaling_grid():
    """One-factor-at-a-time design around :data:`SCALING_BASE` (13 points)."""
    pts = [dict(SCALING_BASE)]
    for v, levels in SCALING_LEVELS.items():
        pts += [dict(SCALING_BASE, **{v: x}) for x in levels if x != SCALING_BASE[v]]
    return pts


def fit_log_ratio(rows: list[tuple[dict, np.ndarray]], variables) -> dict:
    """OLS (statsmodels, HC3 standard errors) of log(norm/bound) per replicate on the logs of ``variables``;
    returns ``{var: (slope, se)}``."""
    import statsmodels.api as sm

    y = np.concatenate([np.log(r) for _, r in rows])
    X = np.concatenate([np.tile([math.log(p[v]) for v in variables], (len(r), 1)) for p, r in rows])
    fit = sm.OLS(y, sm.add_constant(X)).fit(cov_type="HC3")
    return {v: (float(fit.params[i + 1]), float(fit.bse[i + 1])) for i, v in enumerate(variables)}


def terminal_exponent(lo, hi, x_lo: float, x_hi: float) -> tuple[float, float]:
    """Local log-log slope of the Monte Carlo mean between two adjacent levels ``x_lo < x_hi`` (samples ``lo`` at
    ``x_lo``, ``hi`` at ``x_hi``), with its standard error (delta method: se(log mean) = sd/(sqrt(reps) mean)).

    Used at the end of each variable's range (the two largest m, d, n; the two smallest dist), where the
    asymptotic exponent decides whether a fixed-c bound can hold: a saturating, bounded trend (e.g. a factor
    cos(theta) -> 1, or a mean-of-log Jensen gap) flattens there, a power-law mismatch does not."""
    lo, hi = np.asarray(lo, float), np.asarray(hi, float)
    se = [np.std(v, ddof=1) / (math.sqrt(v.size) * np.mean(v)) for v in (lo, hi)]
    span = math.log(x_hi) - math.log(x_lo)
    return (float((math.log(np.mean(hi)) - math.log(np.mean(lo))) / span),
            float(math.sqrt(se[0] ** 2 + se[1] ** 2) / abs(span)))


def terminal_slopes(rows: list[tuple[dict, np.ndarray]], variables) -> dict:
    """:func:`terminal_exponent` of norm/bound for each variable of a one-factor-at-a-time design: between the
    two largest levels of m, d, n (growing) and the two smallest of dist (shrinking), the others at the base."""
    out = {}
    for v in variables:
        pts = sorted(((p[v], r) for p, r in rows if all(p[u] == SCALING_BASE[u] for u in SCALING_BASE if u != v)),
                     key=lambda t: t[0])
        (x1, r1), (x2, r2) = (pts[-2], pts[-1]) if v in GROWING else (pts[0], pts[1])
        out[v] = terminal_exponent(r1, r2, x1, x2)
    return out


def scaling_decisions(fits: dict, tests: int) -> list:
    """A printed bound with a fixed constant can hold over the regime only if norm/bound does not grow as the
    growing variables (m, d, n) grow or as the shrinking ones (dist) shrink: one kit bound per slope of
    log(norm/bound) (``<= 0`` in a growing variable, ``>= 0`` in a shrinking one, one-sided z test with the
    slope's standard error, Bonferroni over ``tests``)."""
    return [decide.bound(b, 0.0, sense="<=" if v in GROWING else ">=", se=se, tests=tests, of="exponent",
                         what=f"{q}: slope of log(norm/bound) in log {v} {b:+.3f} (se {se:.2g})")
            for q, f in fits.items() for v, (b, se) in f.items()]


@PAPER.claim("srpfl.lemA5-A6.scaling", "Lemmas A.5 (36), A.6 (51)-(52), A.10 (95) (sigma = 0; m, d, dist)",
             "The Appendix A norms sum_i ||H_i w_i*||^2 (A.5), ||F_i|| and ||F||_F (A.6) and the Lemma A.10 matrix "
             "(at sigma = 0) divided by their printed bounds do not grow over the regime (m, d, n up, dist down): "
             "each bound holds with one fixed constant c; the norms' fitted exponents are reported against the "
             "printed ones (A.5, A.6 carry no sigma, so no sigma slip is possible there).",
             regime="Gaussian design, orthonormal B_hat and B* with all k principal angles equal (dist = sin theta), "
                    f"sqrt(k)-normalised heads (Assumptions 4.3-4.6); k = {LEM_K}, N = {LEM_N} in delta = c k^1.5 "
                    "sqrt(log N)/sqrt(m), c = 1 (the constant is fitted: the largest 99% quantile of norm/bound is "
                    "reported), delta_hat read at leading order delta; one-factor-at-a-time grid around m=100, d=20, "
                    "n=8, dist=0.3 (m in {50..400}, d in {10..80}, n in {4..32}, dist in {0.01..0.3}; m n >= d, "
                    "m >= k^2 log N); ||W*||_2 in (36), (52) replaced by its lower bound ||W*||_F/sqrt(k) = sqrt(n) (stricter); the "
                    "exponents are reported from an OLS of log(norm/bound) per replicate on log m, log d, log n, log dist "
                    "(HC3 standard errors); the decision uses the terminal slope of log(mean norm/bound) at the end of "
                    "each range (two largest m, d, n; two smallest dist; delta-method standard errors): a slope > 0 in "
                    "m, d or n, or < 0 in dist, by more than the one-sided normal critical value (claim level, "
                    "Bonferroni over all slopes) is a violation, since that bound then fails for every fixed c; A.10's "
                    "n-direction is decided by srpfl.lemA10.zero-mean")
def _scaling(full: bool, seed):
    reps = 150 if full else 8
    grid = scaling_grid()
    rows = {q: [] for q in PRINTED_EXPONENTS}
    for p, s in zip(grid, spawn_seeds(seed, len(grid))):
        rq, W = lemma_draws(as_generator(s), reps, p["m"], p["d"], p["n"], p["dist"], 0.0)
        for q, r in lemma_ratios(rq, W, **p).items():
            rows[q].append((p, r))
    fits = {q: fit_log_ratio(rows[q], FIT_VARS[q]) for q in rows}
    term = {q: terminal_slopes(rows[q], FIT_VARS[q]) for q in rows}
    n_tests = sum(len(v) for v in FIT_VARS.values())
    zc = decide.z_critical(n_tests)
    parts = scaling_decisions(term, n_tests)
    c_fit = {q: float(max(np.quantile(r, 0.99) for _, r in rows[q]) ** (0.5 if q == "A5" else 1.0)) for q in rows}
    expo = {q: {v: [round(PRINTED_EXPONENTS[q][v] + b, 3), round(se, 3)] for v, (b, se) in f.items()}
            for q, f in fits.items()}
    txt = "; ".join(f"{q}: " + ", ".join(f"{v} {PRINTED_EXPONENTS[q][v] + b:+.2f}+-{zc * se:.2f} (printed "
                                            f"{PRINTED_EXPONENTS[q][v]:+g})" for v, (b, se) in f.items())
                    for q, f in fits.items())
    out = decide.combine(
        parts, what=f"terminal slopes of log(mean norm/bound), one-sided at level {decide.corrected_level(n_tests):.2g}",
        observed={"norm_exponents_and_se": expo, "c_fit": c_fit,
                  "terminal_ratio_slopes_and_se": {q: {v: [round(b, 4), round(se, 4)] for v, (b, se) in f.items()}
                                                   for q, f in term.items()}},
        bound={"printed_exponents": {q: {v: PRINTED_EXPONENTS[q][v] for v in FIT_VARS[q]} for q in PRINTED_EXPONENTS},
               "z_crit": zc},
        params={"reps": reps, "k": LEM_K, "N": LEM_N, "base": SCALING_BASE,
                "levels": {k_: list(v) for k_, v in SCALING_LEVELS.items()}})
    out["evidence"] = (f"{len(grid)} grid points x {reps} replications (k={LEM_K}, N={LEM_N}, c=1): OLS norm "
                       f"exponents over the grid (+- {zc:.2f} se) {txt}; decided on the terminal slopes of "
                       f"log(mean norm/bound) (largest |slope/se| in the wrong direction: "
                       f"{max((1 if v in GROWING else -1) * b / se for f in term.values() for v, (b, se) in f.items()):.2f}"
                       f" vs critical {zc:.2f}); fitted constants (99% quantile of norm/bound, A5 as c) "
                       + ", ".join(f"{q} {v:.3g}" for q, v in c_fit.items())
                       + "; " + out["evidence"])
    return out


# --- Lemma A.10: (101) claims E[<x,q><p,x><w+,y> - <p,q><w+,y>] = 0, but q_i and w_i^+ are functions of X_i
ZERO_MEAN_CFG = dict(m=20, d=8, dist=0.3)
ZERO_MEAN_NS = {False: (8, 64, 512), True: (8, 32, 128, 512, 2048)}


def lemma_a10_bias_scale(m: int, dist: float, k: int = LEM_K) -> float:
    """The extra term of the corrected Lemma A.10 at sigma = 0: ``k dist / m`` (derived: with B_hat^T X_i^T X_i q_i = 0
    at sigma = 0 and X_i(I - B_hat B_hat^T) independent of X_i B_hat, E[(I - B_hat B_hat^T)((1/m) X_i^T X_i q_i - q_i)]
    = (k/m) (I - B_hat B_hat^T) B* w_i*, which does not average out over the n clients)."""
    return k * dist / m


def zero_mean_decisions(b: float, se: float) -> tuple[dict, dict]:
    """The printed and the corrected Lemma A.10 bound against the norm's terminal exponent ``b`` in n (standard
    error ``se``), as kit bounds: the printed (95) decays like n^{-1/2}, so a fixed c needs b <= -1/2; the corrected
    bound has a constant term k dist/m, so it needs b <= 0 (one-sided z tests, Bonferroni over the 2 forms)."""
    return (decide.bound(b, -0.5, se=se, tests=2, of="exponent in n",
                         what=f"printed (95): exponent in n {b:.3f} (se {se:.2g}) <= -1/2"),
            decide.bound(b, 0.0, se=se, tests=2, of="exponent in n",
                         what=f"corrected (95) + c k dist/m: exponent in n {b:.3f} (se {se:.2g}) <= 0"))


@PAPER.claim("srpfl.lemA10.zero-mean", "Lemma A.10, eqs. (95), (101)",
             "Printed: (101) says the summands of the Lemma A.10 matrix have mean zero, giving (95) "
             "||.|| <= c sqrt(d)(dist k + ...)/sqrt(mn), which vanishes as n grows. But q_i and w_i^+ are functions of "
             "X_i: at sigma = 0 the matrix has mean (k/m)(I - B_hat B_hat^T) B* (1/n) sum_i w_i* w_i^{+T} (norm ~ k "
             "dist/m), so the norm plateaus and the printed bound fails for n >> m d; corrected: (95) plus c k dist/m.",
             root_cause=LEMA10_MEAN,
             regime="Gaussian design, orthonormal B_hat and B* with equal principal angles, sqrt(k)-normalised heads, "
                    f"sigma = 0 (the dist k term of (95)); k = {LEM_K}, m = 20, d = 8, dist = 0.3, n on a log grid "
                    "(quick 8..512, full 8..2048; N >= n only enters delta, which the dist k term does not carry); a "
                    "bound with a fixed c holds as n grows only if the norm's exponent in n at the end of the range "
                    "(local log-log slope of the Monte Carlo mean between the two largest n, delta-method standard "
                    "error) is at most the bound's: -1/2 printed, 0 corrected; a form fails when the exponent exceeds "
                    "its limit by more than the one-sided normal critical value (claim level, Bonferroni over the 2 "
                    "forms); the OLS slopes of log(norm/bound) over the whole grid are reported")
def _a10_zero_mean(full: bool, seed):
    ns = ZERO_MEAN_NS[bool(full)]
    reps = 60 if full else 8
    m, d, dist = ZERO_MEAN_CFG["m"], ZERO_MEAN_CFG["d"], ZERO_MEAN_CFG["dist"]
    pr, co, mean_norm, bias_norm, norms = [], [], [], [], []
    for n, s in zip(ns, spawn_seeds(seed, len(ns))):
        rq, W = lemma_draws(as_generator(s), reps, m, d, n, dist, 0.0)
        a10 = _spec(rq.A10)
        printed = math.sqrt(d) * dist * LEM_K / math.sqrt(m * n)
        corrected = printed + lemma_a10_bias_scale(m, dist)
        norms.append(a10)
        pr.append(({"n": n}, a10 / printed))
        co.append(({"n": n}, a10 / corrected))
        mean_norm.append(float(np.mean(a10)))
        bias_norm.append(float(_spec(np.mean(rq.A10, axis=0))))
    fp, fc = fit_log_ratio(pr, ("n",))["n"], fit_log_ratio(co, ("n",))["n"]
    b, se = terminal_exponent(norms[-2], norms[-1], ns[-2], ns[-1])
    zc = decide.z_critical(2)
    printed, corrected = zero_mean_decisions(b, se)
    # the printed bound rests on the invalid zero-mean step (101): the outcome is the printed form's decision (refuted
    # when it fails); the corrected form needs a new term, not a typo-level change, and is reported alongside
    out = decide.combine(
        [printed], what="Lemma A.10 (95) as printed",
        observed={"printed": {"terminal_exponent": b, "se": se, "needs": -0.5, "slope_log_ratio_vs_log_n": fp[0],
                              "ols_se": fp[1], "mean_ratio_by_n": {n: float(np.mean(r)) for (p, r), n in zip(pr, ns)}},
                  "corrected": {"terminal_exponent": b, "se": se, "needs": 0.0, "slope_log_ratio_vs_log_n": fc[0],
                                "ols_se": fc[1], "mean_ratio_by_n": {n: float(np.mean(r)) for (p, r), n in zip(co, ns)},
                                "decision": corrected["status"]}},
        bound={"printed_exponent_max": -0.5, "corrected_exponent_max": 0.0, "critical_z": zc},
        params={"m": m, "d": d, "k": LEM_K, "dist": dist, "n": list(ns), "reps": reps, "sigma": 0.0},
        referee="Monte Carlo of the Lemma A.10 matrix (1/n) sum_i ((1/m) X_i^T X_i q_i - q_i) w_i^{+T} from exact "
                "rounds (q_i, w_i^+ computed from each client's own X_i, as in the algorithm): the norm's exponent in n "
                "at the end of the range decides which form a fixed c can carry as n grows")
    out["evidence"] = (
        f"sigma = 0, m={m}, d={d}, k={LEM_K}, dist={dist}, {reps} replications per n in {list(ns)}: mean "
        f"||A10|| {', '.join(f'{v:.3g}' for v in mean_norm)} plateaus at the norm of its Monte Carlo mean "
        f"{', '.join(f'{v:.3g}' for v in bias_norm)} (k dist/m = {lemma_a10_bias_scale(m, dist):.3g}); "
        f"the norm's exponent in n between n = {ns[-2]} and {ns[-1]} is {b:.3f} (se {se:.2g}): printed "
        f"(95) needs <= -0.5 ({(b + 0.5) / se:.1f} se above), the bound with the extra term c k dist/m needs <= 0 "
        f"({b / se:.1f} se; {corrected['status']}); critical {zc:.2f} se; over the whole grid log(norm/printed "
        f"bound) rises with OLS slope {fp[0]:.3f} (se {fp[1]:.2g}) in log n and log(norm/corrected bound) with "
        f"{fc[0]:.3f} (se {fc[1]:.2g}), saturating at a constant; " + printed["evidence"])
    return out


# --- the sigma-vs-sigma^2 slip (errata item 6) in Lemma A.8 (71) and Lemma A.10 (95)
SIGMAS = (1e-3, 1e-2, 1e-1, 1.0)
SIGMA_CFG = dict(m=100, d=20, n=8)


def sigma_exponent(samples, sigmas) -> tuple[float, float]:
    """Weighted least-squares slope of log E[term] on log sigma, with its Monte Carlo standard error (delta method:
    se(log mean) = sd / (sqrt(reps) mean)); the same estimator as ``srpfl.lemA7-A9.sigma-scaling``."""
    import statsmodels.api as sm

    y = np.array([math.log(np.mean(v)) for v in samples])
    se = np.array([np.std(v, ddof=1) / (math.sqrt(len(v)) * np.mean(v)) for v in samples])
    fit = sm.WLS(y, sm.add_constant(np.log(np.asarray(sigmas, float))), weights=1 / se ** 2).fit()
    # WLS with known variances: the parameter covariance is (X^T W X)^{-1}, not rescaled by the residual variance
    cov = np.linalg.inv(fit.model.wexog.T @ fit.model.wexog)
    return float(fit.params[1]), float(math.sqrt(cov[1, 1]))


def sigma_decision(exponents: dict, p: float, tests: int = 4) -> dict:
    """A bound c sigma^p with fixed c can hold as sigma -> 0 only if every term's sigma-exponent is >= p: the kit's
    one-sided bound per term (``exponents``: name -> (slope, se)), combined."""
    return decide.combine([decide.bound(b, p, sense=">=", se=se, tests=tests, of="sigma-exponent",
                                        what=f"{name}: sigma-exponent {b:.4f} (se {se:.2g}) >= {p}")
                           for name, (b, se) in exponents.items()], what=f"sigma^{p} form")


@PAPER.claim("srpfl.lemA8-A10.sigma-scaling", "Lemma A.8 (71) and Lemma A.10 (95)",
             "Printed: ||q_i|| <= 2 sqrt(k) dist + sigma^2 delta_hat (71) and ||A10|| <= c sqrt(d)(dist k + sqrt(k) "
             "delta_hat sigma^2 + (delta_hat sigma^2)^2)/sqrt(mn) (95). Both inherit the sigma^2 slip of Lemma A.7: at "
             "B_hat = B* the terms are linear in sigma (q_i = B_hat G_i), so the printed bounds fail as sigma -> 0 for "
             "any fixed c; with sigma in place of sigma^2 they hold.",
             root_cause=SIGMA,
             regime="Gaussian design and noise, sqrt(k)-normalised heads (Assumptions 4.3-4.6), B_hat = B* (dist = 0, "
                    f"where the sigma terms are the whole bound; the lemmas hold for any orthonormal B_hat); k = {LEM_K}, "
                    "m = 100, d = 20, n = 8; sigma in {1e-3, 1e-2, 0.1, 1}; the sigma-exponent is the weighted "
                    "log-log slope of the Monte Carlo mean of max_i ||q_i|| and of ||A10||, and a form fails when a "
                    "slope is below its p (2 printed, 1 corrected) by more than the one-sided normal critical value "
                    "(claim level, Bonferroni over the 2 terms x 2 forms); the (70) bound on ||w_i^+|| keeps its 2 "
                    "sqrt(k) slack and is reported only")
def _sigma(full: bool, seed):
    reps = 200 if full else 25
    m, d, n = SIGMA_CFG["m"], SIGMA_CFG["d"], SIGMA_CFG["n"]
    qs, a10s, ws = [], [], []
    for s_, ss in zip(SIGMAS, spawn_seeds(seed, len(SIGMAS))):
        rq, W = lemma_draws(as_generator(ss), reps, m, d, n, 0.0, s_)
        qs.append(np.max(np.linalg.norm(rq.q, axis=-1), axis=-1))
        a10s.append(_spec(rq.A10))
        ws.append(np.max(np.linalg.norm(rq.w_plus, axis=-1), axis=-1))
    ex = {"A8_q": sigma_exponent(qs, SIGMAS), "A10": sigma_exponent(a10s, SIGMAS)}
    zc = decide.z_critical(4)
    dh = pq.delta(m, LEM_K, LEM_N)  # leading order of delta_hat (c = 1)
    sig = np.array(SIGMAS)
    q99 = np.array([np.quantile(v, 0.99) for v in qs])
    a99 = np.array([np.quantile(v, 0.99) for v in a10s])
    w_max = float(max(np.max(v) for v in ws))
    rt = math.sqrt(d) / math.sqrt(m * n)
    ratios = {p: {"A8_q": (q99 / (sig ** p * dh)).tolist(),
                  "A10": (a99 / (rt * (math.sqrt(LEM_K) * dh * sig ** p + (dh * sig ** p) ** 2))).tolist()}
              for p in (2, 1)}
    spread = {p: {k_: float(max(v) / min(v)) for k_, v in r.items()} for p, r in ratios.items()}
    return decide.erratum(
        sigma_decision(ex, 2), sigma_decision(ex, 1), what="Lemmas A.8/A.10 noise terms", root_cause=SIGMA,
        printed_value={"ratios_c1": ratios[2], "needs_exponent": 2},
        corrected_value={"ratios_c1": ratios[1], "needs_exponent": 1},
        evidence=f"B_hat = B*, m={m}, d={d}, n={n}, k={LEM_K}, {reps} replications per sigma in {list(SIGMAS)}: "
                 f"sigma-exponents {ex['A8_q'][0]:.4f} (se {ex['A8_q'][1]:.2g}) for max_i ||q_i|| and "
                 f"{ex['A10'][0]:.4f} (se {ex['A10'][1]:.2g}) for ||A10||; 99% quantile / printed sigma^2 bound "
                 f"(c = 1) grows {spread[2]['A8_q']:.0f}x and {spread[2]['A10']:.0f}x as sigma falls 1 -> 1e-3 (no "
                 f"fixed c works), with sigma it varies {spread[1]['A8_q']:.2f}x and {spread[1]['A10']:.2f}x; "
                 f"critical {zc:.2f} se; (70): max ||w_i^+|| = {w_max:.3f} <= 2 sqrt(k) = {2 * math.sqrt(LEM_K):.3f} "
                 "at every sigma (no slip visible there)",
        params={"m": m, "d": d, "n": n, "k": LEM_K, "N": LEM_N, "sigmas": list(SIGMAS), "reps": reps, "c": 1.0},
        referee="Monte Carlo of max_i ||q_i|| (Lemma A.8) and of the Lemma A.10 matrix from exact rounds at four noise "
                "levels: their sigma-exponent (log-log slope of the mean, with its Monte Carlo standard error) decides "
                "which power of sigma a fixed-c bound can carry as sigma -> 0")
