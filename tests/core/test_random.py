"""Tests of :mod:`fedtheory.random`: the same seed gives the same numbers and a missing seed is refused."""
import numpy as np
import pytest

from fedtheory.random import as_generator, spawn_seeds


def test_same_seed_same_numbers():
    a = as_generator(7).standard_normal(5)
    b = as_generator(7).standard_normal(5)
    np.testing.assert_array_equal(a, b)
    c1 = [as_generator(s).random() for s in spawn_seeds(3, 4)]
    c2 = [as_generator(s).random() for s in spawn_seeds(3, 4)]
    assert c1 == c2 and len(set(c1)) == 4


def test_seed_none_is_refused():
    with pytest.raises(ValueError, match="seed"):
        as_generator(None)
