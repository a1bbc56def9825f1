"""Appendix C of Jadbabaie, Makur and Shah (2023): approximate low rank of gradient slices (the paper's MNIST and
CIFAR-10 networks, Figs. 1-2), checked on its linear analogue."""
from __future__ import annotations

import numpy as np
from fedtheory import decide
from fedtheory.lowrank import appendix_c_ranks
from . import PAPER


@PAPER.claim("fedlrgd.appC.approximate-rank", "Appendix C, eqs. (75)-(77) (linear analogue)",
             "Gradient slices M_q[i, j] = d f/d theta_q (x_i; theta_j) of multinomial logistic regression around a trained "
             "theta*, with perturbation (75), have approximate rank (threshold 0.9) at most 10 for almost all non-trivial "
             "weights, as the paper reports for its networks.",
             regime="the linear analogue only (multinomial logistic regression, d = 20 features, 10 classes, p = 200, "
                    "synthetic data with the seed): all non-trivial weights (|theta*_q| >= 0.005), perturbation (75), "
                    "k in {30, 60, 90}, approximate rank (77) at threshold 0.9; 'almost all' read as: at least 90% of the "
                    "slices have approximate rank <= 10 at every k (the whole population of slices of the instance, not a "
                    "sample, so the fraction is exact)",
             analogue="multinomial logistic regression (d = 20 features, 10 classes, p = 200, synthetic data from the "
                      "seed) in place of the MNIST/CIFAR-10 networks; perturbation (75), k in {30, 60, 90}, threshold 0.9")
def _appC(full: bool, seed):
    rows = {}
    for k in (30, 60, 90):
        ranks, p, nk = appendix_c_ranks(k=k, seed=seed)
        rows[k] = (float(np.mean(ranks <= 6)), float(np.mean(ranks <= 10)), int(np.median(ranks)), nk)
    frac = np.array([v[1] for v in rows.values()])
    return decide.not_reproduced(decide.bound(
        frac, 0.9, sense=">=", of="fraction",
        what="; ".join(f"k={k}: {100 * v[0]:.1f}% <= 6, {100 * v[1]:.1f}% <= 10 (median {v[2]}, {v[3]} slices)"
                       for k, v in rows.items()) + " (d=20 features, 10 classes, p=200)",
        observed_value={str(k): {"frac_le_6": v[0], "frac_le_10": v[1], "median_rank": v[2], "slices": v[3]}
                        for k, v in rows.items()},
        bound_value={"frac_le_10": 0.9}, params={"k": [30, 60, 90], "threshold": 0.9}),
        analogue="multinomial logistic regression, d = 20 features, 10 classes, p = 200, synthetic data; k in "
                 "{30, 60, 90}, perturbation (75), approximate rank (77) at 0.9")
