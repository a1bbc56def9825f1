"""Appendix C of Jadbabaie, Makur and Shah (2023), *Federated Optimization of Smooth Loss Functions*, IEEE Trans.
Inf. Theory (low rank structure in neural networks): approximate low rank of gradient slices (the paper's MNIST
and CIFAR-10 networks, Figs. 1-2, eqs. (75)-(77)), checked on its linear analogue, and the parameter counts of the
stated architectures. Verdicts come from :mod:`fedtheory.decide`.
"""
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


# ----------------------------------------------------------------------------- parameter counts
def _dense(n_in, n_out):
    return n_in * n_out + n_out


def _conv(k, c_in, c_out):
    return k * k * c_in * c_out + c_out


@PAPER.claim("fedlrgd.appC.parameter-counts", "Appendix C, parameter counts",
             "The MNIST network (784-784-10, dense with biases) has p = 623,290 parameters and the CIFAR-10 CNN (two "
             "3x3 conv layers of 40 filters, 'same' padding, 2x2 max-pool, dense 150, dense 10) has p = 1,553,220; d "
             "= 794 and 3082.",
             regime="exact integer arithmetic from the architectures as the text states them (32 x 32 x 3 "
                    "input, pooling to 16 x 16 x 40)")
def appC_counts(full: bool, seed):
    mnist = _dense(784, 784) + _dense(784, 10)
    # CIFAR-10: conv 3x3 (3 -> 40), conv 3x3 (40 -> 40), 'same' padding, 2x2 max-pool stride 2: 16 x 16 x 40, dense 150, 10
    cifar = _conv(3, 3, 40) + _conv(3, 40, 40) + _dense(16 * 16 * 40, 150) + _dense(150, 10)
    d_mnist, d_cifar = 784 + 10, 32 * 32 * 3 + 10
    got = (mnist, cifar, d_mnist, d_cifar)
    printed = (623_290, 1_553_220, 794, 3082)
    return decide.identity(np.array(got, float), np.array(printed, float), atol=0.5,
                           what=f"recomputed from the stated architectures: MNIST p = {mnist:,}, CIFAR-10 p = {cifar:,}, "
                                f"d = {d_mnist}, {d_cifar} vs printed {printed} (integers: atol 1/2)")
