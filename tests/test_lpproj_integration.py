"""Integration tests: run_algorithm1's lp-proj-1 (p = 1) step inside the dead zone.

Han et al., JMLR 2024, Algorithm 1 line 8 with p = 1: ``w <- w - eta lam sign(w - P x)``. Where the exact
inner solution has ``w = P x`` in a coordinate, the step is 0; ADMM's ``w - P x`` carries a ~1e-11 residual of
arbitrary sign there, so the run used to jitter by +-eta lam per local step. The referee is the exact closed
form of the linear model, ``fedtheory.lpproj.robust.run_rounds`` (P x = P w_hat + clip(w - P w_hat, +-lam/b)).
"""
import numpy as np
import pytest

from fedtheory.lpproj import run_algorithm1
from fedtheory.lpproj.robust import run_rounds

from test_lpproj_robust import _data


@pytest.mark.parametrize("lam,eta,R,T", [(0.8, 0.1, 5, 6), (2.0, 0.05, 3, 8)])
def test_lpproj1_inside_the_dead_zone_matches_the_exact_run(lam, eta, R, T, monkeypatch):
    prob, Xi, y, w_hat = _data(mu_w=0.0)
    r1 = run_algorithm1(prob, lam, p=1, T=T, R=R, eta=eta, data=(Xi, y), seed=11, nu=1e-22)
    r2 = run_rounds(prob, lam, p=1, T=T, R=R, eta=eta, w_hat=w_hat, seed=11)
    ref = r2.history[:, 0]
    assert np.max(np.abs(r1.history - ref)) < 1e-9
    # power: the dead zone is really visited, since the sign of the residual w - P x (the old step) drifts away
    from fedtheory.lpproj import algorithms as A

    split = A._admm_l1_split

    def residual_sign(G, h, P, w, lam_, rho, nu, max_iter):
        x, _, it = split(G, h, P, w, lam_, rho, nu, max_iter)
        return x, w - x @ P.T, it

    monkeypatch.setattr(A, "_admm_l1_split", residual_sign)
    old = run_algorithm1(prob, lam, p=1, T=T, R=R, eta=eta, data=(Xi, y), seed=11, nu=1e-22)
    assert np.max(np.abs(old.history - ref)) > 1e-3
