"""Tests of :mod:`fedtheory.lpproj.model`: the full-data estimates and the w_hat sampler."""
import math

import numpy as np
import pytest
from scipy import stats

from fedtheory.lpproj import make_problem


# --------------------------------------------------------------------------- sampler variance, b != 1
def _full_data_w_hat(prob, rng, reps):
    """OLS estimates from full fixed-design data built by hand: Xi_k = sqrt(n b) Q_k (orthonormal columns)."""
    out = np.empty((reps, prob.N, prob.d))
    for r in range(reps):
        for k in range(prob.N):
            Q, _ = np.linalg.qr(rng.standard_normal((prob.n, prob.d)))
            X = math.sqrt(prob.n * prob.b) * Q
            yk = X @ prob.W[k] + prob.sigma * rng.standard_normal(prob.n)
            out[r, k] = np.linalg.lstsq(X, yk, rcond=None)[0]
    return out


@pytest.mark.parametrize("b", [0.25, 4.0])
def test_w_hat_sampler_variance_is_sigma2_over_bn(b):
    prob = make_problem(N=3, d=4, d_sub=2, n=6, b=b, sigma=0.8, seed=0)
    target = prob.sigma ** 2 / (b * prob.n)
    rng = np.random.default_rng(7)
    wh_full = _full_data_w_hat(prob, rng, 800) - prob.W
    wh_mc = prob.sample_w_hat(rng, 20000) - prob.W
    for sample in (wh_full, wh_mc):
        flat = sample.reshape(sample.shape[0], -1)  # all coordinates: independent, same variance
        dof = flat.size
        s2 = float(np.sum(flat ** 2)) / dof  # known mean 0
        lo, hi = stats.chi2.ppf([0.0005, 0.9995], dof) / dof
        assert lo < s2 / target < hi, (b, s2, target)
        C = flat.T @ flat / flat.shape[0]  # covariance ~ target I: off-diagonals near 0
        assert np.max(np.abs(C - np.diag(np.diag(C)))) < 6 * target / math.sqrt(flat.shape[0])


def test_full_data_estimates_match_the_reduced_sampler():
    """Sampling (Xi, y) then least squares gives the same w_hat law as the direct sampler."""
    prob = make_problem(N=4, d=3, d_sub=1, n=12, sigma=0.5, seed=2)
    rng = np.random.default_rng(0)
    Xi = prob.design(rng)
    np.testing.assert_allclose(np.swapaxes(Xi, 1, 2) @ Xi, prob.n * prob.b * np.broadcast_to(np.eye(3), (4, 3, 3)),
                               atol=1e-10)
    wh = []
    for _ in range(4000):
        _, y = prob.sample_data(rng, Xi)
        wh.append(np.einsum("knd,kn->kd", Xi, y) / (prob.n * prob.b))
    wh = np.array(wh)
    assert np.allclose(wh.mean(0), prob.W, atol=5 * 0.5 / math.sqrt(12 * 4000))
    assert np.allclose(wh.var(0), 0.25 / 12, rtol=0.1)
