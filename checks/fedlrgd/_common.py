"""Helpers shared by the fedlrgd claim modules."""
from __future__ import annotations

import numpy as np
from fedtheory.random import as_generator
from fedtheory.lowrank import Cosine, L1Power, PowerSum, SoftLabelLogistic, make_logistic_problem


def _test_functions(d):
    return [L1Power(eta=0.5, L2=1.0, d=d, p=d), L1Power(eta=1.0, L2=1.0, d=d, p=d),
            PowerSum(eta=1.5, L2=1.0, d=d, p=d), Cosine(eta=2.0, L2=1.0, d=d, p=d)]


def _grid(d, n1=2001, n2=161):
    if d == 1:
        return np.linspace(0, 1, n1)[:, None]
    g = np.linspace(0, 1, n2)
    return np.array(np.meshgrid(g, g)).reshape(2, -1).T


def _latent_cases(seed, size):
    rng = as_generator(seed)
    out = []
    for d in (1, 2):
        for fn in _test_functions(d):
            X = rng.uniform(0, 1, (size, d))
            out.append((fn, fn.matrix(X, fn.sample_theta(rng, size))))
    lg = SoftLabelLogistic(eta=2.0, L2=1.0, d=2, p=1, i=0, mu=0.1)
    X = rng.uniform(0, 1, (size, 2))
    out.append((lg, lg.matrix(X, lg.sample_theta(rng, size))))
    return out


# ----------------------------------------------------------------------------- FedLRGD runs
def _problem(seed, r=10):
    return make_logistic_problem(d=3, r=r, m=40, s=15, mu=0.1, seed=seed)
