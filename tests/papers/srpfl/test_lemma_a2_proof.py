"""Appendix A, the proof of Lemma A.2 of Tziotis, Shen, Pedarsani, Hassani and Mokhtari, *Straggler-Resilient
Personalized Federated Learning* (TMLR 2023; arXiv eqs. (20)-(22)).

Tests of ``fedtheory_checks.srpfl.lemma_a2_proof``: its helpers against independent computations, and every claim can
fail (``FAILS_PATHS``: a violating computation injected with monkeypatch must be refuted in quick mode)."""
import math

import numpy as np
import pytest

from fedtheory import get_claim
from fedtheory_checks.srpfl import lemma_a2_proof as M

S = "fedtheory_checks.srpfl.lemma_a2_proof"


def test_principal_pair_distance_and_perp():
    B, Bs, Bp = M.principal_pair(7, 2, 0.4)
    perp = np.linalg.qr(Bs, mode="complete")[0][:, 2:]
    assert math.isclose(np.linalg.norm(perp.T @ B, 2), 0.4, rel_tol=1e-12)
    assert np.allclose((B @ B.T - np.eye(7)) @ Bs, 0.4 * Bp) and np.allclose(B.T @ Bp, 0)


def test_expansion_lines_match_least_squares():
    r = M.exact_rounds(np.random.default_rng(3), 2, m=9, d=6, n=3, dist=0.3, sigma=0.7)
    ref = np.stack([[np.linalg.lstsq(r.X[a, i] @ r.B, r.Y[a, i], rcond=None)[0] for i in range(3)] for a in range(2)])
    for val in M.expansion_lines(r).values():
        assert np.allclose(val, ref, atol=1e-12)


def _drop_noise(mp):  # bug: line (22) without its noise term
    orig = M.expansion_lines
    mp.setattr(f"{S}.expansion_lines", lambda r: {**orig(r), "(22)": orig(r)["(22)"] - r.rq.G})


FAILS_PATHS = {"srpfl.lemA2.proof-steps": _drop_noise}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])


def test_real_numbers_hold():
    assert get_claim("srpfl.lemA2.proof-steps").func(full=False, seed=0)["status"] == "holds"
