"""Appendix A of Tziotis, Shen, Pedarsani, Hassani and Mokhtari, *Straggler-Resilient Personalized Federated
Learning*, TMLR 2023: the exact rounds behind the quantities of the proof of Theorem 4.7.

Tests of the helpers of ``fedtheory_checks.srpfl.appendix_a_rounds`` (scaling bounds, fitted constants, exact
diversity, bases at a distance, round quantities) against independent computations."""
import numpy as np
import pytest

import fedtheory_checks.srpfl.appendix_a_rounds as ps
from fedtheory.claims import HOLDS, REFUTED
from fedtheory.linalg import principal_angle_distance
from fedtheory.representation import client_diversity, fedrep_round, make_heads
from fedtheory_checks.srpfl import thm4_7_proof_143_193
from fedtheory_checks.srpfl import appendix_a_rounds as _ar

PROOF_STEPS = "fedtheory_checks.srpfl.appendix_a_rounds"


@pytest.fixture(autouse=True)
def _fresh_table():
    _ar.exact_round_table.cache_clear()
    yield
    _ar.exact_round_table.cache_clear()


# ----------------------------------------------------------------------------- helpers
def test_scaling_bounds_directions_use_the_kit():
    # a slope significantly above the bound's exponent for d -> infinity is refuted; below is fine
    (d,) = ps.scaling_bounds({"d": (0.9, 0.05)}, {"d": 0.5}, 1)
    assert d["status"] == REFUTED and d["margin"]["tightness"] == "violated"
    assert ps.scaling_bounds({"d": (0.2, 0.05)}, {"d": 0.5}, 1)[0]["status"] == HOLDS
    # sigma -> 0: a slope significantly below the exponent is refuted (sigma^1 term vs a sigma^2 bound)
    assert ps.scaling_bounds({"sigma->0": (1.0, 0.01)}, {"sigma->0": 2}, 1)[0]["status"] == REFUTED
    assert ps.scaling_bounds({"sigma->0": (1.0, 0.01)}, {"sigma->0": 1}, 1)[0]["status"] == HOLDS


def test_t_claim_fails_when_the_endpoint_ratio_grows_with_m(monkeypatch):
    # T2 + T3 and ||F||, ||G|| growing with m (so (171) still holds): no m reaches the regime -> fails
    _patch_table(monkeypatch, lambda T: T.update(T23=T["T23"] * T["m"] ** 2, F_fro=T["F_fro"] * T["m"],
                                                 G_fro=T["G_fro"] * T["m"]))
    out = thm4_7_proof_143_193._t23(full=False, seed=0)
    assert out["status"] == REFUTED and out["observed"]["endpoint_ratio_slope_in_log_m"][0] > 0
    assert out["observed"]["violations_(171)"] == 0


def test_fitted_constant_and_validation():
    out = ps.fitted_constant([1.0, 2.0, 3.0, 10.0], [0, 0, 1, 1])
    assert out["c_max"] == 10.0 and out["c_cell_mean"] == 6.5
    with pytest.raises(ValueError):
        ps.fitted_constant([1.0], [0, 1])


def test_exact_diversity_matches_client_diversity():
    W = make_heads(np.random.default_rng(3), 9, 2, "sqrt_k")
    smin, smax = ps.exact_diversity(W, 3)
    divs = [client_diversity(W, s) for s in range(3, 10)]
    assert smin == pytest.approx(min(d.sigma_min for d in divs), rel=1e-10)
    assert smax == pytest.approx(max(d.sigma_max for d in divs), rel=1e-10)
    W3 = make_heads(np.random.default_rng(4), 7, 3, "sqrt_k")  # k = 3: the eigvalsh branch
    divs3 = [client_diversity(W3, s) for s in range(3, 8)]
    assert ps.exact_diversity(W3, 3)[0] == pytest.approx(min(d.sigma_min for d in divs3), rel=1e-10)
    with pytest.raises(ValueError, match="n0"):
        ps.exact_diversity(W, 1)
    with pytest.raises(ValueError, match="W"):
        ps.exact_diversity(np.ones((25, 2)), 3)


def test_basis_at_distance():
    g = np.random.default_rng(0)
    Bs = np.linalg.qr(g.standard_normal((10, 3)))[0]
    for dist in (0.0, 0.3, 0.9):
        B = ps.basis_at_distance(Bs, dist, g)
        assert np.allclose(B.T @ B, np.eye(3), atol=1e-12)
        assert principal_angle_distance(B, Bs) == pytest.approx(dist, abs=1e-10)
    with pytest.raises(ValueError):
        ps.basis_at_distance(Bs, 1.5, g)


def test_round_quantities_against_library_round():
    g = np.random.default_rng(1)
    d, k, n, m, eta = 12, 2, 5, 30, 0.06
    Bs = np.linalg.qr(g.standard_normal((d, k)))[0]
    B = ps.basis_at_distance(Bs, 0.4, g)
    W = make_heads(g, n, k, "sqrt_k")
    X, Z = g.standard_normal((2, n, m, d)), 0.3 * g.standard_normal((2, n, m))
    q = ps.round_quantities(B, Bs, W, X, Z, eta)
    for r in range(2):
        rnd = fedrep_round(B, X[r], q["_Y"][r], eta)
        assert np.allclose(q["_w"][r], rnd.w, atol=1e-10)
        assert np.allclose(q["_Bp"][r], rnd.B_bar, atol=1e-12)
        # sigma_min(R+) >= 1: B+^T B+ = I + (eta/n)^2 (S - E)^T (S - E) (normal equations)
        assert np.linalg.svd(rnd.R, compute_uv=False)[-1] >= 1 - 1e-12
        assert q["R1"][r] == pytest.approx(q["R3_printed"][r], abs=1e-14)


def test_expansion_residuals_detect_a_wrong_b_plus():
    g = np.random.default_rng(2)
    d, k, n, m, eta = 10, 2, 4, 25, 0.06
    Bs = np.linalg.qr(g.standard_normal((d, k)))[0]
    B = ps.basis_at_distance(Bs, 0.5, g)
    W = make_heads(g, n, k, "sqrt_k")
    X, Z = g.standard_normal((1, n, m, d)), 0.5 * g.standard_normal((1, n, m))
    q = ps.round_quantities(B, Bs, W, X, Z, eta)
    Bbar = fedrep_round(B, X[0], q["_Y"][0], eta).B_bar
    assert max(thm4_7_proof_143_193.expansion_residuals(B, q["_S"][0], q["_E"][0], Bbar, eta, n)) < 1e-12
    stale = fedrep_round(B, X[0], q["_Y"][0], 1.01 * eta).B_bar  # a 1% stale step size
    assert thm4_7_proof_143_193.expansion_residuals(B, q["_S"][0], q["_E"][0], stale, eta, n)[1] > 1e-6


# ----------------------------------------------------------------------------- fails paths
def _patch_table(mp, edit):
    orig = _ar.exact_round_table.__wrapped__

    def patched(full, seed):
        T = dict(orig(full, seed))
        edit(T)
        return T

    mp.setattr("fedtheory_checks.srpfl.appendix_a_rounds.exact_round_table", patched)
