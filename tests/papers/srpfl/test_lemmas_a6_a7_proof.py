"""Appendix A, the proofs of Lemmas A.6 and A.7 of Tziotis, Shen, Pedarsani, Hassani and Mokhtari, *Straggler-Resilient
Personalized Federated Learning* (TMLR 2023; arXiv eqs. (52)-(68)).

Tests of ``fedtheory_checks.srpfl.lemmas_a6_a7_proof``: the exact law of the noise sum against Monte Carlo, the
verdicts on the real numbers, and every claim can fail (``FAILS_PATHS``)."""
import math

import numpy as np
import pytest

from fedtheory import get_claim
from fedtheory_checks.srpfl import lemmas_a6_a7_proof as M

S = "fedtheory_checks.srpfl.lemmas_a6_a7_proof"


def test_chi_product_tail_against_monte_carlo():
    g = np.random.default_rng(4)
    x = np.sqrt(g.chisquare(12, 100000) * g.chisquare(2, 100000))
    for a in (3.0, 8.0):
        assert abs(M.chi_product_tail([a], 12, 2)[0] - np.mean(x >= a)) < 5 * math.sqrt(0.25 / 100000)


def test_eq65_rows_are_consistent():
    rows = M.eq65_check(cases=((1, 16, 16, 1000, 20.0),))
    logT, logfail, b65, b66 = rows[0]
    assert logT < b65 - math.log(16) and logfail < b65 < 0 and b66 > b65


def _f_a6(mp):  # bug: F_i doubled (as if gram^{-1} were applied twice at a gram near 1/2)
    orig = M.a6_ratios
    mp.setattr(f"{S}.a6_ratios", lambda r: {**orig(r), "(53)": 4 * orig(r)["(53)"]})


def _f55(mp):  # bug: the referee's ||F||_F^2 counts the clients twice
    orig = M.eq55_ratios
    mp.setattr(f"{S}.eq55_ratios", lambda r: tuple(3 * v for v in orig(r)))


def _f_a7(mp):  # bug: (69) evaluated with sqrt(n) in place of n
    orig = M.a7_ratios
    mp.setattr(f"{S}.a7_ratios", lambda r: {**orig(r), "(69)": orig(r)["(69)"] * math.sqrt(r.n) * 2})


def _f61(mp):  # bug: the noise sum's law taken as (sigma/sqrt(m)) chi_m chi_k (thresholds in units sqrt(m) too small)
    orig = M.chi_product_tail
    mp.setattr(f"{S}.chi_product_tail", lambda a, m, k, points=4001: orig(np.asarray(a) / math.sqrt(m), m, k, points))


def _f65(mp):  # bug: the single-client tail taken as 1 (threshold read as 0): the premise (64) fails for both forms
    orig = M.eq65_check
    mp.setattr(f"{S}.eq65_check", lambda: [(0.0, 0.0, r[2], r[3]) for r in orig()])


FAILS_PATHS = {"srpfl.lemA6.proof-steps": _f_a6, "srpfl.eq55.sum-range": _f55, "srpfl.lemA7.proof-steps": _f_a7,
               "srpfl.eq61-62.sigma": _f61, "srpfl.eq65.direction": _f65}
REAL = {"srpfl.lemA6.proof-steps": "holds", "srpfl.eq55.sum-range": "erratum", "srpfl.lemA7.proof-steps": "holds",
        "srpfl.eq61-62.sigma": "erratum", "srpfl.eq65.direction": "erratum"}


@pytest.mark.parametrize("claim_id", sorted(REAL))
def test_real_numbers(claim_id):
    out = get_claim(claim_id).func(full=False, seed=0)
    assert out["status"] == REAL[claim_id], out["evidence"]


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
