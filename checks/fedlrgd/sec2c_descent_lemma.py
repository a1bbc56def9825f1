"""Sec. II-C of Jadbabaie, Makur and Shah (2023), *Federated Optimization of Smooth Loss Functions*, IEEE Trans. Inf.
Theory: the descent lemma (13) of gradient descent under the smoothness (4), on the Appendix A risk. Verdicts come
from :mod:`fedtheory.decide`.
"""
from __future__ import annotations

import numpy as np
from fedtheory import decide
from fedtheory.lowrank import make_logistic_problem
from fedtheory.random import as_generator, spawn_seeds
from . import PAPER


def _descent_gaps(problem, thetas, L1):
    """``(F(theta) - F(theta - grad F/L1), ||grad F||^2/(2 L1))`` at each theta (the first >= the second, up to
    round-off, is the descent lemma (13))."""
    dec, rhs = [], []
    for th in thetas:
        g = problem.grad(th)
        dec.append(problem.loss(th) - problem.loss(th - g / L1))
        rhs.append(g @ g / (2 * L1))
    return np.array(dec), np.array(rhs)


@PAPER.claim("fedlrgd.eq13.descent-lemma", "Eq. (13) (descent lemma)",
             "F(theta - grad F(theta)/L1) - F(theta) <= -||grad F(theta)||^2/(2 L1) for the Appendix A regularised "
             "logistic risk with L1 = (d-1)/2 + mu, and also with the tighter valid (d-1)/4 + mu.",
             regime="d in {2, 4}, mu = 0.1, a random soft-label data set of 210 points "
                    "(make_logistic_problem), theta uniform in [-1, 1]^(d-1), 100 (quick) or 400 per case; exact "
                    "evaluation of F; a gap above 1e-13 is a violation")
def eq13_descent(full: bool, seed):
    s1, s2 = spawn_seeds(seed, 2)
    rng = as_generator(s2)
    res = []
    for d in (2, 4):
        pb = make_logistic_problem(d=d, r=10, m=20, s=10, mu=0.1, seed=s1)
        th = rng.uniform(-1, 1, (400 if full else 100, d - 1))
        for name, L1 in (("(d-1)/2 + mu", (d - 1) / 2 + 0.1), ("(d-1)/4 + mu", (d - 1) / 4 + 0.1)):
            dec, rhs = _descent_gaps(pb, th, L1)
            res.append((d, name, (dec + 1e-13) / rhs, float(np.max(rhs - dec)), len(dec)))
    return decide.bound(np.concatenate([r[2] for r in res]), 1.0, sense=">=", of="1/(2 L1)",
                        what="descent lemma F(theta) - F(theta - grad F/L1) >= ||grad F||^2/(2 L1) on the Appendix A "
                             "risk at uniform theta in [-1,1]^(d-1) (round-off 1e-13): "
                             + "; ".join(f"d={a}, L1={b}: max gap {e:.2e} over {f}" for a, b, _, e, f in res),
                        observed_value={"cases": [dict(d=a, L1=b, min_ratio=float(c.min()), max_gap=e, n=f)
                                                  for a, b, c, e, f in res]},
                        bound_value={"ratio": 1.0}, params={"mu": 0.1},
                        regime="sharper reading decided too: the tighter valid L1 = (d-1)/4 + mu")
