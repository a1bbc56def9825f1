"""Appendix C, Figure 8 of Tziotis, Shen, Pedarsani, Hassani and Mokhtari, *Straggler-Resilient Personalized
Federated Learning* (TMLR 2023; absent from the arXiv version), on its linear analogues.

* ``srpfl.fig8.imbalanced`` - the speedup under mild and strong imbalance of the local datasets;
* ``srpfl.fig8.stragglers-means`` and ``srpfl.fig8.stragglers-rates`` - the straggler-percentage column under both
  readings of its printed lambdas (the latter is the erratum against Section 4.1's rate convention);
* ``srpfl.fig8.correlated`` - correlated data and system heterogeneity.

The settings (:data:`FIG8_IMB`, :func:`fig8_straggler_cfg`, :func:`fig8_correlated_cfg`, over
:data:`~._appendix_c.FIG_BASE`) are shared with the figure script ``fedtheory_reproductions.srpfl_fig78``; the
imbalanced and correlated runs are :func:`~._appendix_c.independent_hits` (one ground truth, compute times and
batch-size allocation per replicate, each schedule one call of the batched engine).
"""
from __future__ import annotations

from functools import partial

import numpy as np

from fedtheory import decide
from fedtheory.parallel import cached_map
from fedtheory.random import spawn_seeds
from fedtheory.srpfl import run_srpfl

from . import PAPER
from ._appendix_c import (ANALOGUE, CLOCK, FIG_BASE, decide_all, independent_setting, log_speedup, logdiff,
                          mixture_means, setting_times, sign_rule)
from ._wallclock import first_hit_round, order_statistic_means
from .root_causes import FIG8_LAMBDA

#: Fig. 8's imbalanced columns (cfg overrides of FIG_BASE)
FIG8_IMB = {"uniform": dict(imbalance="uniform", rounds=200), "lognormal": dict(imbalance="lognormal", rounds=200)}

#: straggler fractions and correlations of the figure (the claims use the extremes)
FIG8_FRACTIONS = (0.1, 0.3, 0.5)
FIG8_RHO = (0.0, 0.5, 1.0)

#: independent replicates (own ground truth each) of the imbalanced and correlated claims (quick, full)
REPLICATES = {False: 20, True: 48}
#: independent replicates of the straggler claims (quick, full), one batch of the replicate engine per schedule
STRAGGLER_REPLICATES = {False: 24, True: 96}


def fig8_straggler_cfg(fraction: float, lambda_reading: str) -> dict:
    """Fig. 8's straggler-percentage setting under a reading of its printed lambdas (see
    :func:`~._appendix_c.mixture_means`)."""
    mixture_means(lambda_reading)
    return dict(speeds="mixture", straggler_fraction=float(fraction), lambda_reading=lambda_reading)


def fig8_correlated_cfg(rho: float) -> dict:
    """Fig. 8's correlated heterogeneity: k=3 head groups matched to the 3 speed terciles w.p. ``rho``."""
    return dict(heads="correlated", k=3, rho=float(rho))


def _replicates_text() -> str:
    return f"{REPLICATES[False]} (quick) or {REPLICATES[True]} (full) independent replicates"


@PAPER.claim("srpfl.fig8.imbalanced", "Figure 8 [arXiv: absent] (App. C, imbalanced datasets; linear analogue)",
             "With mildly imbalanced local datasets (FEMNIST, 100 + U[0,50] samples) the doubling scheme's benefit "
             "is prevalent; with strongly imbalanced ones (Sent140, log-normal) the speedup diminishes.",
             regime="linear analogue of Fig. 8's two left columns: per-client batch sizes m_i = m (100 + U[0,50])/125 "
                    "(mild) or m exp(N(0,1) - 1/2) (log-normal), m=20, clipped to [k+1, 4m]; FedRep-SRPFL and FedRep with "
                    "exact heads on m_i samples, each client's step on its own loss (1/2m_i)||.||^2, equal-weight "
                    "averaging and QR (run_srpfl with per-client m, reduced sampler: exact in law), d=20, k=2, N=M=64, "
                    "n0=4, sigma=0.1, fixed Exp(1) speeds, target dist <= 0.1 within 200 rounds; "
                    + CLOCK + "; the same replicate seeds (ground truth, speeds) for both levels; "
                    + sign_rule(_replicates_text() + " (own ground truth, speeds and allocation each)")
                    + ", Bonferroni over 2: speedup > 1 under mild imbalance, and log-speedup(mild) - "
                    "log-speedup(log-normal) > 0")
def _fig8_imb(full: bool, seed):
    R = REPLICATES[bool(full)]
    u = independent_setting(FIG8_IMB["uniform"], R, seed, "srpfl.fig8.imb.ind")
    ln = independent_setting(FIG8_IMB["lognormal"], R, seed, "srpfl.fig8.imb.ind")
    su, sl = log_speedup(FIG8_IMB["uniform"], u), log_speedup(FIG8_IMB["lognormal"], ln)
    with np.errstate(invalid="ignore"):
        diff = su - sl
    return decide_all({"log speed-up, mild imbalance": su, "log speed-up mild minus log-normal": diff},
                      params={**FIG8_IMB, "replicates": R}, analogue=ANALOGUE["fig8.imbalanced"])


def straggler_hits(seed, R: int) -> dict:
    """Hitting rounds of ``R`` independent paired FedRep-SRPFL / FedRep runs of the straggler setting (random
    sqrt(k)-normalised heads, own ground truth each; replicate j of both schedules shares its seed, so its ground
    truth and MoM initialisation). Their law does not depend on the compute times (heads independent of the times,
    selection by rank), so one batch serves every straggler fraction and reading of lambda."""
    c = FIG_BASE
    kw = dict(d=c["d"], k=c["k"], M=c["M"], N=c["N"], n0=c["n0"], m=c["m"], sigma=c["sigma"], speeds="fixed",
              comm_cost=0.0, stage_lengths=c["stage_lengths"], rounds=c["rounds"], sampler="reduced",
              target=c["target"], replicates=R, seed=seed)
    return {name: first_hit_round(run_srpfl(**kw, schedule=sched).dist, c["target"])
            for name, sched in (("h_SRPFL", "doubling"), ("h_FedRep", "all"))}


def straggler_mu(fraction: float, reading: str) -> np.ndarray:
    """Order-statistic means of Fig. 8's mixture: ``round(f M)`` stragglers among M = 64 fixed Exp times."""
    fast, slow = mixture_means(reading)
    M = FIG_BASE["M"]
    return order_statistic_means(M, int(round(fraction * M)), fast, slow)


def _straggler_batches(full: bool, seed) -> list:
    R = STRAGGLER_REPLICATES[bool(full)]
    chunks = max(1, R // 24)
    return cached_map(partial(straggler_hits, R=R // chunks), list(spawn_seeds(seed, chunks)),
                      namespace="srpfl.fig8.strag.rb", params={**FIG_BASE, "R": R // chunks})


def _stragglers(full: bool, seed, reading: str, analogue: str = "", hits=None):
    R = STRAGGLER_REPLICATES[bool(full)]
    hits = _straggler_batches(full, seed) if hits is None else hits
    lo, hi = FIG8_FRACTIONS[0], FIG8_FRACTIONS[-1]
    T = {f: setting_times({}, hits, straggler_mu(f, reading)) for f in (lo, hi)}
    subs = {f"FedRep slower at {hi:g} than at {lo:g} stragglers": logdiff(T[hi][1], T[lo][1]),
            f"FedRep-SRPFL slower at {hi:g} than at {lo:g}": logdiff(T[hi][0], T[lo][0]),
            f"speed-up > 1 at {lo:g}": logdiff(T[lo][1], T[lo][0]), f"speed-up > 1 at {hi:g}": logdiff(T[hi][1], T[hi][0])}
    fast, slow = mixture_means(reading)
    out = decide_all(subs, params={"lambda_reading": reading, "fast_mean": fast, "straggler_mean": slow,
                                   "fractions": [lo, hi], "replicates": R}, analogue=analogue)
    mu = {f: straggler_mu(f, reading) for f in (lo, hi)}
    out["evidence"] += ("; per-round means E[X_(n:64)] at n = 4, 32, 64: " + "; ".join(
        f"f={f:g}: " + ", ".join(f"{mu[f][n - 1]:.3g}" for n in (4, 32, 64)) for f in (lo, hi)))
    return out


_STRAG_REGIME = ("linear analogue of Fig. 8's third column: a fraction f in {{0.1, 0.5}} of the N=M=64 clients are "
                 "'stragglers'; fixed speeds (one Exp time per client, App. C's fixed-speeds setting); the printed "
                 "'lambda = 0.1' (fast) and 'lambda = 10' (stragglers) read as {what}; d=20, k=2, n0=4, m=20, "
                 "sigma=0.1, random heads, target dist <= 0.1 within 240 rounds; " + CLOCK.replace("{", "{{").replace("}", "}}")
                 + " (two-type exponential "
                 "order statistics, exact recursion); the same replicates for both f (common random numbers); "
                 + sign_rule("independent replicates (24 quick, 96 full)") + ", Bonferroni over 4: time to target "
                 "grows with f for FedRep and for FedRep-SRPFL ('performance degrades'), and FedRep-SRPFL is faster "
                 "at both f ('mitigates')")


_STRAG_STATEMENT = ("Performance degrades as the percentage of stragglers grows, for FedRep and FedRep-SRPFL, while "
                    "the doubling scheme mitigates it (FedRep-SRPFL stays faster).")


@PAPER.claim("srpfl.fig8.stragglers-means", "Figure 8 [arXiv: absent] (App. C, % of stragglers; lambda read as means)",
             _STRAG_STATEMENT, regime=_STRAG_REGIME.format(what="MEAN times (fast mean 0.1, stragglers mean 10: "
                                                                "the reading under which stragglers are slow)"))
def _fig8_strag_mean(full: bool, seed):
    return _stragglers(full, seed, "mean", ANALOGUE["fig8.stragglers"])


@PAPER.claim("srpfl.fig8.stragglers-rates", "Figure 8 [arXiv: absent] (App. C, % of stragglers) vs Sec. 4.1's "
             "lambda convention",
             "Fig. 8's printed straggler parameters 'lambda = 0.1' (fast) and 'lambda = 10' (stragglers) cannot be "
             "exponential rates as in Sec. 4.1 / Theorem 4.9 (then the 'stragglers' are the fast clients and the "
             "stated degradation is refuted); read as mean times, the caption's statement holds (" + _STRAG_STATEMENT
             + ")",
             regime=_STRAG_REGIME.format(what="exponential RATES as in Theorem 4.9 (printed; fast mean 10, "
                                             "'stragglers' mean 0.1) and as MEAN times (corrected)")
             + "; printed reading refuted = its all-of decision `refuted`, corrected reading = the all-of decision of "
               "srpfl.fig8.stragglers-means `holds` (the kit's erratum, root cause fig8-lambda-reading); either reading "
               "undecided is inconclusive with the kit's size",
             root_cause=FIG8_LAMBDA)
def _fig8_strag_rate(full: bool, seed):
    hits = _straggler_batches(full, seed)  # one batch of runs: their law does not depend on the compute times
    printed = _stragglers(full, seed, "rate", hits=hits)
    corrected = _stragglers(full, seed, "mean", hits=hits)
    params = {**printed["params"], "lambda_reading": ["rate (printed)", "mean (corrected)"]}
    return decide.erratum_if_decided(
        printed, corrected, what="Fig. 8 straggler caption under the printed (rates) and the corrected (means) "
                                 "reading of lambda", root_cause=FIG8_LAMBDA, params=params,
        referee="expected wall-clock times to target of exact FedRep and FedRep-SRPFL runs given their hitting rounds "
                "(exact two-type order-statistic means; paired replicates, exact sign tests), under each reading of lambda")


@PAPER.claim("srpfl.fig8.correlated", "Figure 8 [arXiv: absent] (App. C, correlated heterogeneity; linear analogue)",
             "When data and system heterogeneity are correlated the benefits of the doubling scheme persist, "
             "although to a lesser degree as the correlation grows.",
             regime="linear analogue of Fig. 8's right column: k=3 head groups (w_i* = sqrt(3) (e_g + 0.3 noise)/||.||, "
                    "the 'label groups') assigned to the 3 terciles of the fixed Exp(1) speeds with probability rho "
                    "(else uniformly), rho in {0, 1}; d=20, N=M=64, n0=4, m=20, sigma=0.1, target dist <= 0.1 within "
                    "240 rounds; " + CLOCK + "; the same replicate seeds for both rho; "
                    + sign_rule(_replicates_text() + " (own ground truth and speeds each)") + ", Bonferroni over 2: "
                    "speed-up > 1 at rho=1 ('persist') and log-speedup(rho=0) - log-speedup(rho=1) > 0 ('lesser "
                    "degree')")
def _fig8_corr(full: bool, seed):
    R = REPLICATES[bool(full)]
    a = independent_setting(fig8_correlated_cfg(0.0), R, seed, "srpfl.fig8.corr.ind")
    b = independent_setting(fig8_correlated_cfg(1.0), R, seed, "srpfl.fig8.corr.ind")
    sa, sb = log_speedup(fig8_correlated_cfg(0.0), a), log_speedup(fig8_correlated_cfg(1.0), b)
    with np.errstate(invalid="ignore"):
        diff = sa - sb
    return decide_all({"log speed-up at rho=1": sb, "log speed-up rho=0 minus rho=1": diff},
                      params={"rho": [0.0, 1.0], "replicates": R}, analogue=ANALOGUE["fig8.correlated"])
