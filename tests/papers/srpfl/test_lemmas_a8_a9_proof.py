"""Appendix A, the proofs of Lemmas A.8 and A.9 of Tziotis, Shen, Pedarsani, Hassani and Mokhtari, *Straggler-Resilient
Personalized Federated Learning* (TMLR 2023; arXiv eqs. (71)-(92)).

Tests of ``fedtheory_checks.srpfl.lemmas_a8_a9_proof``: the derived mean of the Lemma A.9 matrix, the verdicts on the
real numbers, and every claim can fail (``FAILS_PATHS``)."""
import numpy as np
import pytest

from fedtheory import get_claim
from fedtheory_checks.srpfl import lemma_a2_proof as R
from fedtheory_checks.srpfl import lemmas_a8_a9_proof as M

S = "fedtheory_checks.srpfl.lemmas_a8_a9_proof"


def test_lemma_a9_matrix_has_mean_sigma2_over_m_b():
    r = R.exact_rounds(np.random.default_rng(6), 400, m=6, d=3, n=32, dist=0.3, sigma=1.0, k=1)
    mean = (r.rq.E / r.n).mean(axis=0)
    se = (r.rq.E / r.n).std(axis=0, ddof=1) / np.sqrt(400)
    assert np.all(np.abs(mean - r.B / 6) < 5 * se)
    r0 = R.exact_rounds(np.random.default_rng(6), 400, m=6, d=3, n=32, dist=0.3, sigma=0.0, k=1)
    assert np.max(np.abs(r0.rq.E)) == 0.0


def _f_a8(mp):  # bug: ||w_i^+|| bounded without the G_i term in (72)
    orig = M.a8_ratios
    mp.setattr(f"{S}.a8_ratios", lambda r: {**orig(r), "(72)": orig(r)["(72)"] * 1.5})


def _f_a9(mp):  # bug: the maximum over the net shrunk to 40% (as a net far coarser than 1/4 would give)
    orig = M.net_max
    mp.setattr(f"{S}.net_max", lambda M_, p, y: 0.4 * orig(M_, p, y))


def _independent_heads(mp):
    """The heads w_i^+ re-fitted on fresh noise (independent of the Z_i in X_i^T Z_i): the summands of (87) are then
    zero-mean, as the proof assumes."""
    import dataclasses

    orig = R.exact_rounds

    def fake(g, reps, **kw):
        r = orig(g, reps, **kw)
        Y2 = r.Y - r.Z + r.sigma * np.random.default_rng(1).standard_normal(r.Z.shape)
        w = R.lstsq_heads(r.X, Y2, r.B)
        E = np.swapaxes(np.einsum("rnmd,rnm->rnd", r.X, r.Z), -1, -2) @ w / r.m
        r.rq = dataclasses.replace(r.rq, E=E)
        return r

    mp.setattr("fedtheory_checks.srpfl.lemma_a2_proof.exact_rounds", fake)


def test_with_independent_heads_the_printed_rate_holds(monkeypatch):
    _independent_heads(monkeypatch)
    out = M._a9_zero_mean(False, 0)
    assert out["status"] == "holds", out["evidence"]


def _f_zero_mean(mp):  # bug: the Lemma A.9 matrix summed over the clients (the 1/n forgotten): it grows like n
    import dataclasses

    orig = R.exact_rounds

    def fake(g, reps, **kw):
        r = orig(g, reps, **kw)
        r.rq = dataclasses.replace(r.rq, E=r.rq.E * r.n)
        return r

    mp.setattr("fedtheory_checks.srpfl.lemma_a2_proof.exact_rounds", fake)


FAILS_PATHS = {"srpfl.lemA8.proof-steps": _f_a8, "srpfl.lemA9.proof-steps": _f_a9,
               "srpfl.lemA9.zero-mean": _f_zero_mean}
REAL = {"srpfl.lemA8.proof-steps": "holds", "srpfl.lemA9.proof-steps": "holds", "srpfl.lemA9.zero-mean": "refuted"}


@pytest.mark.parametrize("claim_id", sorted(REAL))
def test_real_numbers(claim_id):
    out = get_claim(claim_id).func(full=False, seed=0)
    assert out["status"] == REAL[claim_id], out["evidence"]


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
