"""Appendix A, proof of Theorem 4.7, the chain (107)-(139) of Tziotis, Shen, Pedarsani, Hassani and Mokhtari,
*Straggler-Resilient Personalized Federated Learning* (TMLR 2023).

Tests of the catalogue module ``fedtheory_checks.srpfl.thm4_7_proof_chain_107_139``: its helpers against independent
computations, its verdicts on the real numbers, and every claim can fail: its entry in ``FAILS_PATHS`` injects a
violating computation with monkeypatch and the quick verdict must refute the claim (``check_fails_path`` in this
folder's conftest.py)."""
import math

import numpy as np
import pytest

import fedtheory_checks.srpfl.thm4_7_proof_chain_107_139 as ch
from fedtheory import get_claim
from fedtheory.claims import ERRATUM, HOLDS

MOD = "fedtheory_checks.srpfl.thm4_7_proof_chain_107_139"


@pytest.fixture(autouse=True)
def _fresh_table():
    ch.chain_round_table.cache_clear()
    yield
    ch.chain_round_table.cache_clear()


def test_quad_max_is_the_largest_eigenvalue_and_attained():
    M = np.random.default_rng(3).standard_normal((50, 2, 2))
    ev = np.linalg.eigvalsh(0.5 * (M + np.swapaxes(M, -1, -2)))[:, -1]
    assert np.allclose(ch.quad_max(M), ev, rtol=1e-12, atol=1e-12)
    p = ch.quad_argmax(M)
    assert np.allclose(np.einsum("ri,rij,rj->r", p, M, p), ev, atol=1e-12)
    t = np.linspace(0, np.pi, 20001)
    brute = np.max(np.einsum("it,rij,jt->rt", np.stack([np.cos(t), np.sin(t)]), M, np.stack([np.cos(t), np.sin(t)])), 1)
    assert np.allclose(brute, ev, atol=1e-7)
    with pytest.raises(ValueError):
        ch.quad_max(np.eye(3))


@pytest.mark.parametrize("q", [1, 2])
def test_c0_needed_matches_a_numeric_bisection(q):
    expr, lim = ch.c0_needed(q)
    import sympy as sp

    sig, c = sp.Symbol("sigma", positive=True), sp.Symbol("c", positive=True)
    k, kap, E0, L, cc = 2.0, 1.7, 0.6, math.log(64), 0.9
    for s in (0.0, 1.0, 4.0):
        def ok(c0):
            m = c0 * (1 + s * s) ** q * k ** 3 * kap ** 4 * L / E0 ** 2
            return 2 * cc * k ** 1.5 * math.sqrt(L / m) <= E0 / (20 * kap ** 2 * (1 + s * s))
        lo, hi = 1e-6, 1e9
        for _ in range(200):
            mid = math.sqrt(lo * hi)
            lo, hi = (lo, mid) if ok(mid) else (mid, hi)
        assert float(expr.subs({sig: s, c: cc})) == pytest.approx(hi, rel=1e-6)
    assert (lim.is_finite is True) == (q == 2)


def test_rhs_139_at_the_needed_constant_meets_the_left_side():
    T = ch.chain_round_table(False, 0)
    _, c139 = ch.c_needed_139(T)
    pos = c139 > 0
    assert np.allclose(ch.rhs_139(T, c139)[pos], T["dist_plus"][pos], rtol=1e-10)
    assert np.all(ch.rhs_139(T, c139)[~pos] >= T["dist_plus"][~pos])


REAL = {"srpfl.eq107.c0-threshold": ERRATUM, "srpfl.eq108-110.update-identities": HOLDS,
        "srpfl.eq112-115.triangle": HOLDS, "srpfl.eq139.combination": HOLDS}


def _patch_table(mp, edit):
    orig = ch.chain_round_table.__wrapped__

    def patched(full, seed):
        T = dict(orig(full, seed))
        edit(T)
        return T

    mp.setattr(f"{MOD}.chain_round_table", patched)


def _f107(mp):  # bug: the batch condition's power of (1 + sigma^2) is ignored, so no form has an absolute c0
    orig = ch.c0_needed
    mp.setattr(f"{MOD}.c0_needed", lambda q=1: orig(1))


def _f108(mp):  # bug: the library round runs with a 1% stale step size
    import fedtheory.representation as rep

    orig = rep.fedrep_round
    mp.setattr(rep, "fedrep_round", lambda B, X, y, eta, **kw: orig(B, X, y, 1.01 * eta, **kw))


def _f112(mp):  # bug: dist(B_hat+, B*) measured against the wrong basis, 10% too large
    _patch_table(mp, lambda T: T.update(dist_plus=T["dist_plus"] * 1.1))


def _f139(mp):  # bug: ||(R+)^{-1}|| read as sigma_min(B+) instead of its inverse
    _patch_table(mp, lambda T: T.update(Rinv=1 / T["Rinv"] * 0.9))


FAILS_PATHS = {"srpfl.eq107.c0-threshold": _f107, "srpfl.eq108-110.update-identities": _f108,
               "srpfl.eq112-115.triangle": _f112, "srpfl.eq139.combination": _f139}


@pytest.mark.parametrize("claim_id", sorted(REAL))
def test_real_numbers(claim_id):
    out = get_claim(claim_id).func(full=False, seed=0)
    assert out["status"] == REAL[claim_id], out["evidence"]
    assert out["margin"] is not None and "detects" in out


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
