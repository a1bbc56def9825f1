"""Appendix D of Jadbabaie, Makur and Shah (2023), *Federated Optimization of Smooth Loss Functions*: the surrogate
g of (82)-(84) and the chain of bounds on its minimum.

Tests of the catalogue module ``fedtheory_checks.fedlrgd.appendix_d_surrogate``: its sympy algebra, and every claim
can fail (``FAILS_PATHS``, the rule ``check_fails_path`` of this folder's conftest.py)."""
import pytest

M = "fedtheory_checks.fedlrgd.appendix_d_surrogate."


def test_the_algebra_of_g_is_exact():
    from fedtheory_checks.fedlrgd.appendix_d_surrogate import surrogate_algebra
    assert surrogate_algebra() == {"residuals": [0.0] * 4, "convex": True, "sign_changes": 1}


def _surrogate(mp_):  # min g taken at a fixed b = m instead of minimised (a value above the chain's upper end)
    def at_m(m, phi, tau, eps_t, C):
        C1, C2, C3 = C / (2 * m * eps_t), m * (C / eps_t) ** 0.5, phi * tau * m
        return (C1 * m + C2 / m) * (m + C3), float(m)
    mp_.setattr(M + "_g_min_ref", at_m)


FAILS_PATHS = {"fedlrgd.eq82-84.surrogate": _surrogate}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
