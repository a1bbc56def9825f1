"""Sec. III-C of Jadbabaie, Makur and Shah (2023), *Federated Optimization of Smooth Loss Functions*: Theorem 2
inside its own hypotheses and assumption (46) on Appendix A's example.

Tests of the catalogue module ``fedtheory_checks.fedlrgd.sec3c_hypotheses``: its helpers against independent
computations, and every claim of the section can fail: its entry in ``FAILS_PATHS`` injects a violating computation
with monkeypatch and the quick verdict must be ``refuted`` (the rule is ``check_fails_path`` in this folder's
conftest.py)."""
import math

import numpy as np
import pytest

M = "fedtheory_checks.fedlrgd.sec3c_hypotheses."


def test_the_lemma_algebra_simplifies_to_zero():
    from fedtheory_checks.fedlrgd.sec3c_hypotheses import lemma_identities
    assert lemma_identities() == [0.0, 0.0, 0.0]


def test_the_cosine_certificate_bounds_the_true_sigma_min_and_beats_alpha():
    """At a small r the certificate ||G v||/||v|| is >= sigma_min (any v), and at the theorem's r = 115 (eta = 20,
    alpha = 1) it certifies ||G^-1|| far above r^(2 alpha + 1)."""
    from fedtheory_checks.fedlrgd.sec3c_hypotheses import _cos_instance, instance_certificates
    from fedtheory.lowrank.hypotheses import certified_sigma_min_upper
    rng = np.random.default_rng(3)
    x, th = rng.uniform(0, 1, 6), rng.uniform(-1, 1, 6)
    G = np.cos(np.outer(x, th)) + 2 * th[None, :]
    smin = np.linalg.svd(G, compute_uv=False)[-1]
    for v in (rng.standard_normal(6), np.linalg.svd(G)[2][-1]):
        assert float(certified_sigma_min_upper(_cos_instance, x, th, v)) >= smin * (1 - 1e-12)
    row = instance_certificates([(20.0, 1.0)], 0)[0]
    assert row["r"] == 115 and row["log10_cert"] > 3 * math.log10(115) + 5


def test_eq46_rank_drops_exactly_on_two_or_more_cells():
    from fedtheory_checks.fedlrgd.sec3c_hypotheses import eq46_rows
    one, two = eq46_rows([(1, 1), (2, 1)], 4)
    assert one[50]["rank"] == one[100]["rank"] == 3 == one["r"]
    assert two[50]["rank"] == two[100]["rank"] == two["predicted_rank"] == 5 < two["r"] == 12
    assert two["lib_gap"] < 1e-12


# ----------------------------------------------------------------------------- every claim can fail
def _vacuous(mp_):  # the certificate vector taken as all ones instead of the smallest singular vector
    from fedtheory.lowrank.hypotheses import certified_sigma_min_upper as orig
    mp_.setattr(M + "certified_sigma_min_upper", lambda fn, X, T, v, dps=30: orig(fn, X, T, np.ones_like(v), dps))


def _eq46(mp_):  # the y-coefficient of the Taylor polynomial made theta-dependent (a wrong derivative d g/d y)
    from fedtheory.lowrank import hypotheses as H
    orig = H.logistic_eq46_matrices_mp

    def wrong(X0, nodes, q, mu=0.1, dps=50):
        import mpmath as mp
        P, Phi, Psi = orig(X0, nodes, q, mu, dps)
        with mp.workdps(dps):
            for j in range(P.rows):
                for k in range(P.cols):
                    P[j, k] += mp.mpf(float(X0[j, 1])) * mp.sin(mp.mpf(float(nodes[k, 0])))
        return P, Phi, Psi
    mp_.setattr(M + "logistic_eq46_matrices_mp", wrong)


FAILS_PATHS = {
    "fedlrgd.thm2.hypotheses-vacuous": _vacuous,
    "fedlrgd.eq46.logistic-singular": _eq46,
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
