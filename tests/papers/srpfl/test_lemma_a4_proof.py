"""Appendix A, the proof of Lemma A.4 of Tziotis, Shen, Pedarsani, Hassani and Mokhtari, *Straggler-Resilient
Personalized Federated Learning* (TMLR 2023; arXiv eqs. (28)-(34)).

Tests of ``fedtheory_checks.srpfl.lemma_a4_proof``: helpers against independent computations, the verdicts on the real
numbers, and every claim can fail (``FAILS_PATHS``)."""
import math

import numpy as np
import pytest

from fedtheory import get_claim
from fedtheory_checks.srpfl import lemma_a4_proof as M

S = "fedtheory_checks.srpfl.lemma_a4_proof"


def test_vershynin_threshold_and_c1_reading():
    # Davidson-Szarek: (1 - a)^2 >= 1 - 2a >= 1 - 2 sqrt 2 (sqrt(k/m) + l/sqrt(m)) with a = sqrt(k/m) + sqrt2 l/sqrt m
    m, k, l = 400, 2, 1.3
    a = math.sqrt(k / m) + math.sqrt(2) * l / math.sqrt(m)
    assert (1 - a) ** 2 >= M.vershynin_threshold(m, k, l)


def test_l_choice_referee():
    r = M.l_choice_check()
    assert r["corrected"]["slack_delta1"] == "0" and r["corrected"]["slack_probability"] == "0"
    assert r["printed"]["ratio_delta1"] > 1 and abs(r["corrected"]["ratio_delta1"] - 1) < 1e-12


def test_eq35_ratio_is_one_over_5k3():
    assert M.eq35_ratio(k_values=(2,), N_values=(8,)) == pytest.approx(1 / 40)


def _f_steps(mp):  # bug: the Wishart matrices built from m/20 samples
    orig = M._wishart_min_eig
    mp.setattr(f"{S}._wishart_min_eig", lambda g, reps, n, m, k: orig(g, reps, n, max(k, m // 20), k))


def _f_l(mp):  # bug: the referee evaluates the corrected l with a sign slip, l = sqrt(k)(12 k sqrt L + 1)
    orig = M.l_choice_check
    mp.setattr(f"{S}.l_choice_check", lambda: {**orig(), "corrected": {**orig()["corrected"], "ratio_delta1": 1.02}})


FAILS_PATHS = {"srpfl.lemA4.proof-steps": _f_steps, "srpfl.eq31.l-choice": _f_l}
REAL = {"srpfl.lemA4.proof-steps": "holds", "srpfl.eq31.l-choice": "erratum"}


@pytest.mark.parametrize("claim_id", sorted(REAL))
def test_real_numbers(claim_id):
    out = get_claim(claim_id).func(full=False, seed=0)
    assert out["status"] == REAL[claim_id], out["evidence"]


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
