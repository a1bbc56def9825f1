"""Appendix A, the proof of Lemma A.5 of Tziotis, Shen, Pedarsani, Hassani and Mokhtari, *Straggler-Resilient
Personalized Federated Learning* (TMLR 2023; arXiv eqs. (36)-(49)).

Tests of ``fedtheory_checks.srpfl.lemma_a5_proof``: the explicit net, the exact laws against Monte Carlo, the verdicts
on the real numbers, and every claim can fail (``FAILS_PATHS``)."""
import math

import numpy as np
import pytest

from fedtheory import get_claim
from fedtheory_checks.srpfl import lemma_a5_proof as M

S = "fedtheory_checks.srpfl.lemma_a5_proof"


def test_circle_net_is_a_quarter_net():
    net = M.circle_net()
    a = np.linspace(0, 2 * math.pi, 20001)
    pts = np.column_stack([np.cos(a), np.sin(a)])
    assert np.max(np.min(np.linalg.norm(pts[:, None] - net[None], axis=-1), axis=1)) <= 0.25
    assert len(net) <= 9 ** 2


def test_product_sum_tail_against_monte_carlo():
    g = np.random.default_rng(1)
    x = (g.standard_normal((100000, 9)) * g.standard_normal((100000, 9))).sum(1)
    for t in (1.0, 5.0):
        assert abs(M.product_sum_tail(t, 9)[0] - np.mean(x >= t)) < 5 * math.sqrt(0.25 / 100000)


def test_exact_h_matches_direct_draws():
    g = np.random.default_rng(2)
    a = np.linalg.norm(M.exact_h(g, 20000, 25, 0.5)[:, 0], 2, axis=(-2, -1))
    G, Gp = g.standard_normal((2, 20000, 25, 2))
    b = np.linalg.norm(0.5 / 25 * np.swapaxes(G, -1, -2) @ Gp, 2, axis=(-2, -1))
    assert abs(a.mean() - b.mean()) < 5 * math.hypot(a.std(), b.std()) / math.sqrt(20000)


def test_substitution_ratios():
    r = M.substitution_check()
    assert r["ratios"]["(44)"] == "1/(4*m)" and r["ratios"]["(63)"] == "1/4" and r["ratios"]["(89)"] == "1/64"


def _f37(mp):  # bug: a 'net' of one point, far from a 1/4-net
    mp.setattr(f"{S}.circle_net", lambda eps=0.25: np.array([[1.0, 0.0]]))


def _f40(mp):  # bug: the exact tail computed for 4 m summands (4 times the variance)
    orig = M.product_sum_tail
    mp.setattr(f"{S}.product_sum_tail", lambda t, m, points=4001: orig(np.asarray(t) / 4, m, points))


def _f_sub(mp):  # bug: the referee substitutes (88)'s s without its 1/8, so the corrected (89) misses 1/64 -> 1/256
    orig = M.substitution_check
    mp.setattr(f"{S}.substitution_check", lambda: {**orig(), "corrected_min_on_grid": {**orig()["corrected_min_on_grid"],
                                                                                      "(89)": 0.25}})


def _f_steps(mp):  # bug: H_i drawn with dist/sqrt(m) instead of dist/m (the net summand's scale)
    orig = M.exact_h
    mp.setattr(f"{S}.exact_h", lambda g, reps, m, dist, n=1, k=2: orig(g, reps, m, dist * math.sqrt(m), n, k))


FAILS_PATHS = {"srpfl.eq37.net-normalisation": _f37, "srpfl.eq40.bernstein": _f40,
               "srpfl.eq44-91.substitution": _f_sub, "srpfl.lemA5.proof-steps": _f_steps}
REAL = {"srpfl.eq37.net-normalisation": "erratum", "srpfl.eq40.bernstein": "erratum",
        "srpfl.eq44-91.substitution": "erratum", "srpfl.lemA5.proof-steps": "holds"}


@pytest.mark.parametrize("claim_id", sorted(REAL))
def test_real_numbers(claim_id):
    out = get_claim(claim_id).func(full=False, seed=0)
    assert out["status"] == REAL[claim_id], out["evidence"]


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
