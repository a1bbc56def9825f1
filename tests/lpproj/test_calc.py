"""``fedtheory calc lpproj`` (fedtheory.lpproj.calc; Han, Li, Lin and Zhang, JMLR 2024, Theorem 30, Lemma 29,
Proposition 16): the losses over the ``--lam`` grid are one vectorised call per method, so the arguments are
validated once per method, whatever the size of the grid; the values and messages are those of the lam-by-lam
evaluation."""
from __future__ import annotations

import argparse
import contextlib
import io

import numpy as np
import pytest

from fedtheory.lpproj import METHODS, calc, test_loss


from fedtheory.testing import count_validation_calls as _count_checks  # noqa: E402


def _run(*argv) -> str:
    parser = argparse.ArgumentParser()
    calc.arguments(parser)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert calc.run(parser.parse_args(list(argv))) == 0
    return out.getvalue()


def test_validation_calls_do_not_grow_with_the_lam_grid(monkeypatch):
    counts = _count_checks(monkeypatch)
    per_grid = []
    for k in (2, 12):
        counts.clear()
        _run("--lam", *(repr(0.01 * (i + 1)) for i in range(k)))
        per_grid.append(dict(counts))
    assert per_grid[0] == per_grid[1]


KW = [dict(N=100, n=200, d=100, d_sub=10, b=1.0, sigma=1.0, Sigma=0.1, attack=None, N_a=0, tau=100.0, M0=None),
      dict(N=7, n=3, d=9, d_sub=2, b=0.37, sigma=2.5, Sigma=1e-3, attack="gaussian", N_a=5, tau=2.0, M0=None),
      dict(N=50, n=1000, d=20, d_sub=20, b=3.0, sigma=0.01, Sigma=5.0, attack="sign-flip", N_a=6, tau=100.0, M0=0.3)]


@pytest.mark.parametrize("kw", KW)
@pytest.mark.parametrize("method", METHODS)
def test_losses_equal_lam_by_lam_bitwise(method, kw):
    lams = list(np.concatenate([[0.0, 1e-4, 0.1, 1.0, 1e5], 10 ** np.random.default_rng(0).uniform(-8, 8, 30)]))
    assert np.array_equal(calc._losses(method, lams, kw), [test_loss(method, lam, **kw) for lam in lams])


@pytest.mark.parametrize("argv, msg", [
    (("--lam", "0.1", "nan", "0.2"), "`lam` must be finite; got nan"),
    (("--lam", "0.1", "inf"), "`lam` must be finite; got inf"),
    (("--lam", "0.1", "1e300"), "the test loss overflows float64 (not finite) for these inputs; they are too large in "
                                "magnitude: `lam`=array(1.e+300)"),
    (("--d-sub", "200", "--lam", "0.1", "nan"), "`d_sub` must be in [1, 100] (d_sub <= d, d=100); got d_sub=200"),
])
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_messages_name_the_offending_value_alone(argv, msg):
    with pytest.raises(ValueError) as info:
        _run(*argv)
    assert str(info.value).startswith(msg)
    assert info.value.__context__ is None  # raised alone, not while handling the vectorised call's error


def test_table_lists_every_method_and_lam():
    out = _run("--attack", "gaussian", "--method", "lp-proj-2", "--N-a", "5", "--tau", "2", "--lam", "1", "2", "3")
    row = [line for line in out.splitlines() if line.strip().startswith("lp-proj-2")]
    assert len(row) == 1 and len(row[0].split()) == 4
