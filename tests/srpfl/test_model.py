"""Tests of :mod:`fedtheory.srpfl.model`: the dynamic client-speed variants."""
import numpy as np

from fedtheory.srpfl import make_speed_model


def test_dynamic_speed_variants():
    t = make_speed_model("dynamic", 100, 20, variant="tmlr", seed=0)
    a = make_speed_model("dynamic", 100, 20, variant="arxiv", seed=0)
    assert t.rates.min() >= 1 / 100 and a.rates.min() >= 1 / 20
    mix = make_speed_model("mixture", 50, 50, straggler_fraction=0.2, seed=0)
    assert np.sum(mix.rates == 0.1) == 10  # stragglers: mean 10
