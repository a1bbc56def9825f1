"""Tests that catch realistic silent bugs in fedtheory.montecarlo (issue 11).

Referees: scipy.stats.t with n - 1 degrees of freedom, numpy's mean/std on the very replications the
sampler returned, and the empirical coverage of the interval over many small-n experiments (the
Student-t interval is exact for normal data, a z interval or the wrong dof is not).
"""
import math

import numpy as np
import pytest
from scipy import stats

from fedtheory.montecarlo import estimate_from_samples, mc_mean


class Recorder:
    """A sampler that returns prescribed values block after block and records the calls."""

    def __init__(self, values):
        self.values = np.asarray(values, float)
        self.pos = 0
        self.sizes = []

    def __call__(self, rng, size):
        self.sizes.append(size)
        out = self.values[self.pos:self.pos + size]
        self.pos += size
        return out


@pytest.mark.parametrize("n", [2, 3, 5])
@pytest.mark.parametrize("confidence", [0.9, 0.99])
def test_mc_mean_interval_uses_student_t_with_n_minus_1_dof(n, confidence):
    x = np.array([1.0, 4.0, 2.5, -3.0, 10.0])[:n]
    est = mc_mean(Recorder(x), n, seed=0, confidence=confidence)
    se = np.std(x, ddof=1) / math.sqrt(n)
    q = stats.t(df=n - 1).ppf(1 - (1 - confidence) / 2)
    assert est.n == n and est.confidence == confidence
    assert est.mean == pytest.approx(x.mean(), rel=1e-13)
    assert est.se == pytest.approx(se, rel=1e-12)
    assert est.ci_high - est.mean == pytest.approx(q * se, rel=1e-12)
    assert est.mean - est.ci_low == pytest.approx(q * se, rel=1e-12)
    est2 = estimate_from_samples(x, confidence=confidence)
    assert (est2.mean, est2.se, est2.ci_low, est2.ci_high) == pytest.approx(
        (est.mean, est.se, est.ci_low, est.ci_high), rel=1e-12)


def test_mc_mean_interval_covers_at_its_level_for_n_3():
    """1000 experiments of 3 normal replications each: the 90% t interval covers the true mean about
    90% of the time (a z interval would cover 76%, t with n dof about 86%)."""
    hits = hits2 = 0
    reps = 1000
    for s in range(reps):
        est = mc_mean(lambda g, size: 5.0 + 2.0 * g.standard_normal(size), 3, seed=s, confidence=0.9)
        hits += est.covers(5.0)
        hits2 += estimate_from_samples(5.0 + 2.0 * np.random.default_rng(10_000 + s).standard_normal(3),
                                       confidence=0.9).covers(5.0)
    lo, hi = stats.binom(reps, 0.9).ppf([0.0005, 0.9995]) / reps
    assert lo <= hits / reps <= hi, hits
    assert lo <= hits2 / reps <= hi, hits2


@pytest.mark.parametrize("block, n", [(2, 7), (3, 3), (4, 16), (5, 1)])
def test_mc_mean_blocks_fold_to_the_plain_mean_and_variance(block, n):
    n = max(n, 2)
    rng = np.random.default_rng(block)
    x = 1e6 + rng.standard_normal((n, 2))  # a large offset: the shifted sums must stay accurate
    rec = Recorder(x)
    est = mc_mean(rec, n, seed=1, block=block)
    assert rec.sizes == [min(block, n - j) for j in range(0, n, block)]
    np.testing.assert_allclose(est.mean, x.mean(axis=0), rtol=1e-14)
    np.testing.assert_allclose(est.se, x.std(axis=0, ddof=1) / math.sqrt(n), rtol=1e-7)
    q = stats.t(df=n - 1).ppf(0.995)
    np.testing.assert_allclose(est.ci_high - est.ci_low, 2 * q * x.std(axis=0, ddof=1) / math.sqrt(n), rtol=1e-7)


def test_mc_mean_streams_are_independent_of_chunk_and_distinct_per_block():
    f = lambda g, size: g.standard_normal(size)  # noqa: E731
    a = mc_mean(f, 50, seed=3, block=10)
    b = mc_mean(f, 50, seed=3, block=10, chunk=7)
    assert (a.mean, a.se) == (b.mean, b.se)
    blocks = []
    mc_mean(lambda g, size: blocks.append(g.standard_normal(size)) or blocks[-1], 30, seed=3, block=10)
    assert len(blocks) == 3 and not np.allclose(blocks[0], blocks[1])
