"""Appendix B, Lemma B.1 (when to double the participating clients) of Tziotis, Shen, Pedarsani, Hassani and Mokhtari,
*Straggler-Resilient Personalized Federated Learning* (TMLR 2023; arXiv Lemma B.1, eqs. (192)-(206)).

* ``srpfl.lemB1.switching`` - (200), (201), (203), (206): the switching distance X_{r+1} equalises the progress per
  unit time of stages r and r+1, t^r rounds from X_r land on it, and t^r does not depend on the communication cost.
"""
from __future__ import annotations

import math

import numpy as np

from fedtheory.srpfl import floor_recursion, progress_ratio, stage_rounds, switch_point

from . import PAPER
from ._common import relative_identity


@PAPER.claim("srpfl.lemB1.switching", "Lemma B.1, eqs. (200), (201), (203), (206)",
             "At dist = X_{r+1} (206) the progress-per-time ratios of stages r and r+1 are equal; iterating "
             "the stage-r recursion from X_r for t^r (203) rounds lands exactly on X_{r+1}; t^r does not depend "
             "on the communication cost.",
             regime="the scalar recursion of (10) with exact order-statistic means of i.i.d. Exp(lambda) times (the "
                    "Appendix B model; no probability, no constant); N in {64, 1024}, a in {0.01, 0.1}, c in {0, 10, 100}, "
                    "n0=4, every stage r; equalities to relative 1e-9 (ratio equality at X_{r+1}, exact landing from "
                    "X_r after t^r rounds for every c, and t^r unchanged between lambda = 1 and 3)")
def _lemB1(full: bool, seed):
    worst_eq, worst_land, worst_c = 0.0, 0.0, 0.0
    for N in (64, 1024):
        for a in (0.01, 0.1):
            for c in (0.0, 10.0, 100.0):
                R = int(math.log2(N / 4))
                for r in range(R):
                    X1 = switch_point(r, a, N, 4, 1.0, c)
                    p_r = progress_ratio(X1, a, r, N, 4, 1.0, c)
                    p_r1 = progress_ratio(X1, a, r + 1, N, 4, 1.0, c)
                    worst_eq = max(worst_eq, abs(p_r - p_r1) / abs(p_r))
                    if r >= 1:
                        X0 = switch_point(r - 1, a, N, 4, 1.0, c)
                        t = stage_rounds(r, a, N, 4)
                        land = floor_recursion(X0, a, 2 ** r, t)
                        worst_land = max(worst_land, abs(land - X1) / X1)
                t1 = np.array([stage_rounds(r, a, N, 4, 1.0) for r in range(1, R)])
                t3 = np.array([stage_rounds(r, a, N, 4, 3.0) for r in range(1, R)])
                worst_c = max(worst_c, float(np.max(np.abs(t1 - t3) / np.abs(t1))))
    worst = max(worst_eq, worst_land, worst_c)
    out = relative_identity([worst_eq, worst_land, worst_c], 1e-9,
                            what="N in (64, 1024), a in (0.01, 0.1), c in (0, 10, 100): relative errors of the ratio "
                                 "equality at X_{r+1}, the landing from X_r, and t^r's dependence on lambda",
                            params={"N": [64, 1024], "a": [0.01, 0.1], "c": [0, 10, 100], "n0": 4})
    return {**out, "observed": {"ratio_equality_rel_err": worst_eq, "landing_rel_err": worst_land,
                                "t_r_dependence_on_lambda": worst_c}, "bound": {"tolerance": 1e-9}}
