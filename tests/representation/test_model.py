"""Tests of :mod:`fedtheory.representation.model`: client diversity against brute force and the noise conventions."""
import itertools
import math

import numpy as np
import pytest

from fedtheory.representation import client_diversity, make_model, noise_std


def test_client_diversity_exact_against_brute_force():
    model = make_model(5, 2, 7, seed=4)
    W = model.W_star
    dv = client_diversity(W, 3)
    sv = [np.linalg.svd(W[list(I)] / math.sqrt(3), compute_uv=False)
          for I in itertools.combinations(range(7), 3)]
    assert dv.exact and dv.n_subsets == 35
    assert dv.sigma_min == pytest.approx(min(s[-1] for s in sv))
    assert dv.sigma_max == pytest.approx(max(s[0] for s in sv))
    # the search (non-exact path) is on the safe side of the exact values
    est = client_diversity(W, 3, max_exact=1)
    assert not est.exact
    assert est.sigma_min >= dv.sigma_min - 1e-12 and est.sigma_max <= dv.sigma_max + 1e-12
    assert client_diversity(W, 1).sigma_min == 0.0  # rn < k


def test_noise_conventions():
    assert noise_std(1e-3, "std") == 1e-3
    assert noise_std(1e-3, "variance") == pytest.approx(math.sqrt(1e-3))
