"""Appendix B of Jadbabaie, Makur and Shah (2023), *Federated Optimization of Smooth Loss Functions*: the series
representation (74) of the Erlang quantile and the implication chains of the proof of Proposition 2.

Tests of the catalogue module ``fedtheory_checks.fedlrgd.appendix_b``: its helpers against scipy, and every claim can
fail (``FAILS_PATHS``, the rule ``check_fails_path`` of this folder's conftest.py)."""
import mpmath as mp
import pytest
from scipy import stats

M = "fedtheory_checks.fedlrgd.appendix_b."


def test_the_series_of_74_is_the_erlang_tail_and_its_infimum_the_quantile():
    from fedtheory_checks.fedlrgd.appendix_b import _series_rhs, quantile_from_74
    with mp.workdps(30):
        y, b = mp.mpf(7.5), 4
        tail = mp.exp(y) - mp.fsum(y ** k / mp.factorial(k) for k in range(b))
        assert abs(y ** b / mp.factorial(b) * _series_rhs(y, b) / tail - 1) < 1e-25
        assert abs(float(quantile_from_74(3, 100)) / stats.gamma.isf(0.01, 3) - 1) < 1e-12


def test_the_upper_chain_needs_y_at_least_2():
    from fedtheory_checks.fedlrgd.appendix_b import chain_predicates
    with mp.workdps(30):
        assert chain_predicates(1.5, 3, 10)[1] is None
        L, U = chain_predicates(80.0, 3, 10)
        assert all(L) and all(U)


def _eq74(mp_):  # the binomial dropped from the series of (74) (sum y^k/k! = e^y)
    def wrong(y, b):
        return mp.exp(mp.mpf(y))
    mp_.setattr(M + "_series_rhs", wrong)


FAILS_PATHS = {"fedlrgd.eq74.quantile-representation": _eq74}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
