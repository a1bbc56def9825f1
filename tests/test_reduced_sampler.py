"""The reduced sampler draws FedRep / SRPFL rounds from the same law as the full sampler.

Test design: ``RUNS`` independent short trajectories per sampler on one ground truth, fixed seeds.
At rounds 1, 5 and 10 a two-sample Kolmogorov-Smirnov test and a two-sample z-test on the mean
distance are run at level ``ALPHA = 1e-3`` each; with 6 tests the family-wise false-alarm rate is
at most 0.6% (Bonferroni), and because the seeds are fixed the outcome is deterministic. A power
check shows the same tests reject a modest change of law (a 60% larger step).
"""
import numpy as np
import pytest
from scipy import stats

from fedtheory.random import spawn_seeds
from fedtheory.representation import make_model, run_fedrep
from fedtheory.srpfl import run_srpfl

RUNS, ALPHA, ROUNDS = 300, 1e-3, (1, 5, 10)


def _trajectories(sampler, seed, eta=None):
    model = make_model(12, 2, 10, sigma=0.2, seed=1)
    return np.array([run_fedrep(12, 2, 10, 8, 0.5, 10, model=model, m_test=0, sampler=sampler, eta=eta,
                                seed=s).dist for s in spawn_seeds(seed, RUNS)])


def _same_law(a, b):
    out = []
    for t in ROUNDS:
        out.append(stats.ks_2samp(a[:, t], b[:, t]).pvalue)
        z = (a[:, t].mean() - b[:, t].mean()) / np.hypot(a[:, t].std(ddof=1), b[:, t].std(ddof=1)) * np.sqrt(RUNS)
        out.append(2 * stats.norm.sf(abs(z)))
    return min(out)


@pytest.mark.slow
def test_reduced_sampler_equal_in_law_fedrep():
    full = _trajectories("full", 11)
    red = _trajectories("reduced", 12)
    assert _same_law(full, red) > ALPHA
    # power: the same tests detect a modest change of law
    other = _trajectories("full", 13, eta=0.125 * 1.6)
    assert _same_law(full, other) < ALPHA


def test_reduced_sampler_srpfl_matches_in_mean():
    kw = dict(d=16, k=2, M=16, N=16, n0=2, m=10, sigma=0.3, speeds="fixed", stage_lengths=4, rounds=12)
    a = np.array([run_srpfl(**kw, seed=s).dist[-1] for s in spawn_seeds(3, 120)])
    b = np.array([run_srpfl(**kw, sampler="reduced", seed=s).dist[-1] for s in spawn_seeds(4, 120)])
    assert stats.ks_2samp(a, b).pvalue > ALPHA


def test_reduced_sampler_validation():
    with pytest.raises(ValueError, match="sampler.*reduced.*gaussian"):
        run_fedrep(d=10, k=2, n=10, m=5, r=0.5, rounds=2, design="rademacher", sampler="reduced")
    with pytest.raises(ValueError, match="d >= 2k"):
        run_fedrep(d=3, k=2, n=10, m=5, r=0.5, rounds=2, sampler="reduced")
    res = run_fedrep(d=3, k=2, n=10, m=5, r=0.5, rounds=2, sampler="auto")
    assert res.params["sampler"] == "full"
    assert run_fedrep(d=10, k=2, n=10, m=5, r=0.5, rounds=2, sampler="auto").params["sampler"] == "reduced"
    with pytest.raises(ValueError, match="`sampler` must be one of"):
        run_fedrep(d=10, k=2, n=10, m=5, r=0.5, rounds=2, sampler="fast")
