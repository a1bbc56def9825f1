"""SRPFL Appendix A proof steps (``fedtheory_checks.srpfl.proof_steps``): the decision helpers, the
exact-round quantities against independent computations, the ``holds`` / ``erratum`` paths on the real numbers,
and a ``fails`` path for every claim of the module (a violating computation injected with monkeypatch).

The claim functions are called directly (``module._name(full=False, seed=0)``), so the tests do not depend on
the results ledger."""
import math

import numpy as np
import pytest

from fedtheory.claims import ERRATUM, FAILS, HOLDS, INCONCLUSIVE, REFUTED
from fedtheory.linalg import principal_angle_distance
from fedtheory.representation import client_diversity, fedrep_round, make_heads

import fedtheory_checks.srpfl.proof_steps as ps

M = "fedtheory_checks.srpfl.proof_steps"


@pytest.fixture(autouse=True)
def _fresh_table():
    ps.exact_round_table.cache_clear()
    yield
    ps.exact_round_table.cache_clear()


# ----------------------------------------------------------------------------- helpers
def test_scaling_bounds_directions_use_the_kit():
    # a slope significantly above the bound's exponent for d -> infinity is refuted; below is fine
    (d,) = ps.scaling_bounds({"d": (0.9, 0.05)}, {"d": 0.5}, 1)
    assert d["status"] == REFUTED and d["margin"]["tightness"] == "violated"
    assert ps.scaling_bounds({"d": (0.2, 0.05)}, {"d": 0.5}, 1)[0]["status"] == HOLDS
    # sigma -> 0: a slope significantly below the exponent is refuted (sigma^1 term vs a sigma^2 bound)
    assert ps.scaling_bounds({"sigma->0": (1.0, 0.01)}, {"sigma->0": 2}, 1)[0]["status"] == REFUTED
    assert ps.scaling_bounds({"sigma->0": (1.0, 0.01)}, {"sigma->0": 1}, 1)[0]["status"] == HOLDS


def test_trend_decision_is_the_kits_direction_test():
    assert ps.trend_decision(-0.5, 0.05)["status"] == HOLDS
    assert ps.trend_decision(0.3, 0.05)["status"] == REFUTED
    v = ps.trend_decision(-0.1, 0.05, n=40)
    assert v["status"] == INCONCLUSIVE and v["power"]["needed"] >= 2 and "power 0.8" in v["power"]["statement"]
    with pytest.raises(ValueError):
        ps.trend_decision(-0.5, 0.0)


def test_t_claim_fails_when_the_endpoint_ratio_grows_with_m(monkeypatch):
    # T2 + T3 and ||F||, ||G|| growing with m (so (171) still holds): no m reaches the regime -> fails
    _patch_table(monkeypatch, lambda T: T.update(T23=T["T23"] * T["m"] ** 2, F_fro=T["F_fro"] * T["m"],
                                                 G_fro=T["G_fro"] * T["m"]))
    out = ps._t23(full=False, seed=0)
    assert out["status"] == REFUTED and out["observed"]["endpoint_ratio_slope_in_log_m"][0] > 0
    assert out["observed"]["violations_(171)"] == 0


def test_within_m_slope_equals_statsmodels_with_group_dummies():
    import statsmodels.api as sm

    g = np.random.default_rng(7)
    T = {"d": np.repeat([8.0, 16.0], 20), "n": np.tile(np.repeat([4.0, 8.0], 10), 2), "sigma": np.zeros(40),
         "dist": np.full(40, 0.5), "m": np.tile([50.0, 100.0, 200.0, 400.0, 800.0], 8)}
    y = -0.5 * np.log(T["m"]) + np.log(T["d"]) + 0.3 * g.standard_normal(40)
    b, se = ps._within_m_slope(T, y, np.ones(40, bool))
    grp = (T["d"] == 16) * 2 + (T["n"] == 8)
    X = sm.add_constant(np.column_stack([np.log(T["m"])] + [(grp == j).astype(float) for j in (1, 2, 3)]))
    fit = sm.OLS(y, X).fit(cov_type="HC1")
    assert b == pytest.approx(fit.params[1], rel=1e-10)
    assert se == pytest.approx(fit.bse[1], rel=1e-6)


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
    assert max(ps.expansion_residuals(B, q["_S"][0], q["_E"][0], Bbar, eta, n)) < 1e-12
    stale = fedrep_round(B, X[0], q["_Y"][0], 1.01 * eta).B_bar  # a 1% stale step size
    assert ps.expansion_residuals(B, q["_S"][0], q["_E"][0], stale, eta, n)[1] > 1e-6


def test_cor_a3_and_eq32_referees():
    g = np.random.default_rng(5)
    for d, k in ((3, 3), (8, 3)):
        Bs, B = (np.linalg.qr(g.standard_normal((d, k)))[0] for _ in range(2))
        W = make_heads(g, 6, k, "sqrt_k")
        X = g.standard_normal((6, 20, d))
        Y = np.einsum("nmd,nd->nm", X, W @ Bs.T) + 0.5 * g.standard_normal((6, 20))
        printed, corrected = ps.cor_a3_residuals(X, Y, B, Bs, W)
        assert corrected < 1e-12 and printed > 1e-3
        assert (printed == math.inf) == (d != k)
    r = ps.eq32_check()
    assert r["corrected_symbolic_difference"] == "0" and r["printed_symbolic_difference"] != "0"
    assert r["eq33_fails_at"] == [(1, 2)]


def test_mom_init_dist_validates_and_concentrates():
    with pytest.raises(ValueError, match="d >= k"):
        ps.mom_init_dist(np.random.default_rng(0), 2, 3, 8, 8, 0.5, 2)
    D = ps.mom_init_dist(np.random.default_rng(0), 8, 2, 64, 16, 0.5, 20)
    assert D.shape == (20,) and np.all((D >= 0) & (D < 0.9))


# ----------------------------------------------------------------------------- holds / erratum on the real numbers
REAL = {"_wplus": HOLDS, "_a1": HOLDS, "_a2": ERRATUM, "_r2": ERRATUM, "_r3": ERRATUM, "_expansion": HOLDS,
        "_t1": HOLDS, "_t23": HOLDS, "_r1": HOLDS, "_r193": HOLDS, "_cor_a3": ERRATUM, "_eq32": ERRATUM,
        "_remb4": HOLDS}


@pytest.mark.parametrize("name", sorted(REAL))
def test_real_numbers(name):
    out = getattr(ps, name)(full=False, seed=0)
    assert out["status"] == REAL[name], out["evidence"]
    assert out["margin"] is not None and "detects" in out  # decided through the kit


# ----------------------------------------------------------------------------- fails paths
def _patch_table(mp, edit):
    orig = ps.exact_round_table.__wrapped__

    def patched(full, seed):
        T = dict(orig(full, seed))
        edit(T)
        return T

    mp.setattr(f"{M}.exact_round_table", patched)


def _f_wplus(mp):  # bug: heads not divided by sqrt(n) somewhere upstream: ||W+||^2 n times too large
    _patch_table(mp, lambda T: T.update(Wp_norm2=T["Wp_norm2"] * T["n"] * 10))


def _f_a1(mp):  # bug: A1 without its dist factor
    _patch_table(mp, lambda T: T.update(A1=T["A1"] / T["dist"]))


def _f_a2(mp):  # bug: the noise entering as sqrt(sigma): even the corrected sigma-form fails
    _patch_table(mp, lambda T: T.update(A2=T["A2"] / np.sqrt(np.where(T["sigma"] > 0, T["sigma"], 1))))


def _f_r2(mp):
    _patch_table(mp, lambda T: T.update(R2_abs=T["R2_abs"] / np.sqrt(np.where(T["sigma"] > 0, T["sigma"], 1))))


def _f_r3(mp):
    _patch_table(mp, lambda T: T.update(R3_abs=T["R3_abs"] / np.where(T["sigma"] > 0, T["sigma"], 1)))


def _f_expansion(mp):  # bug: the library round runs with a 1% stale step size
    import fedtheory.representation as rep

    orig = rep.fedrep_round
    mp.setattr(rep, "fedrep_round", lambda B, X, y, eta, **kw: orig(B, X, y, 1.01 * eta, **kw))


def _f_t1(mp):  # bug: T1 from the unsymmetrised matrix counted twice over
    _patch_table(mp, lambda T: T.update(T1=T["T1"] * 5))


def _f_t23(mp):
    _patch_table(mp, lambda T: T.update(T23=T["T23"] * 2.5))


def _f_r1(mp):  # bug: a noise-free offset in R1 (the sign slip of E), nonzero at sigma = 0
    _patch_table(mp, lambda T: T.update(R1=T["R1"] + 1e-3))


def _f_r193(mp):
    _patch_table(mp, lambda T: T.update(smin2_R=T["smin2_R"] - 0.05))


def _f_cor_a3(mp):  # bug: the corrected form evaluated without G
    mp.setattr(f"{M}.cor_a3_residuals", lambda *a: (0.5, 0.05))


def _f_eq32(mp):  # bug: the referee expands -k(12k sqrt(L) + 1)^2 (sign slip)
    orig = ps.eq32_check
    mp.setattr(f"{M}.eq32_check", lambda: {**orig(), "corrected_symbolic_difference": "-48*k**2*sqrt(L)",
                                           "corrected_max_grid_difference": 48.0})


def _f_remb4(mp):  # bug: the bottom-k eigenvectors instead of the top-k
    def bottom(g, d, k, N, m, sigma, reps):
        return np.ones(reps)

    mp.setattr(f"{M}.mom_init_dist", bottom)


#: fails path per claim id (the integrator may merge this into tests/test_fails_srpfl.py's FAILS_PATHS)
FAILS_PATHS_PROOF_STEPS = {
    "srpfl.eq121-125.wplus-norm": _f_wplus, "srpfl.eq136.A1": _f_a1, "srpfl.eq137.A2-sigma": _f_a2,
    "srpfl.eq185.R2-sigma": _f_r2, "srpfl.eq190.R3-sigma": _f_r3, "srpfl.eq143-144.expansion": _f_expansion,
    "srpfl.eq165.T1": _f_t1, "srpfl.eq174.T2T3": _f_t23, "srpfl.eq176.R1": _f_r1,
    "srpfl.eq193.sigma-min-R": _f_r193, "srpfl.corA3.transpose": _f_cor_a3, "srpfl.eq32-33.expansion": _f_eq32,
    "srpfl.remB4.mom-init": _f_remb4,
}
_FUNCS = {"srpfl.eq121-125.wplus-norm": "_wplus", "srpfl.eq136.A1": "_a1", "srpfl.eq137.A2-sigma": "_a2",
          "srpfl.eq185.R2-sigma": "_r2", "srpfl.eq190.R3-sigma": "_r3", "srpfl.eq143-144.expansion": "_expansion",
          "srpfl.eq165.T1": "_t1", "srpfl.eq174.T2T3": "_t23", "srpfl.eq176.R1": "_r1",
          "srpfl.eq193.sigma-min-R": "_r193", "srpfl.corA3.transpose": "_cor_a3",
          "srpfl.eq32-33.expansion": "_eq32", "srpfl.remB4.mom-init": "_remb4"}


def test_every_claim_of_the_module_has_a_fails_path():
    ids = {c.id for c in ps.PAPER._claims.values() if c.func.__module__ == ps.__name__}
    assert ids == set(FAILS_PATHS_PROOF_STEPS) == set(_FUNCS)


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS_PROOF_STEPS))
def test_fails_path(claim_id, monkeypatch):
    FAILS_PATHS_PROOF_STEPS[claim_id](monkeypatch)
    out = getattr(ps, _FUNCS[claim_id])(full=False, seed=0)
    assert out["status"] == FAILS, out["evidence"]


def test_sigma_errata_share_one_root_cause():
    from fedtheory import get_claim

    ids = ("srpfl.eq137.A2-sigma", "srpfl.eq185.R2-sigma", "srpfl.eq190.R3-sigma", "srpfl.lemA7-A9.sigma-scaling",
           "srpfl.lemA8-A10.sigma-scaling")
    assert {get_claim(i).root_cause for i in ids} == {"sigma-for-sigma2"}
    out = ps._a2(full=False, seed=0)
    assert out["status"] == ERRATUM and out["root_cause"] == "sigma-for-sigma2" and out["referee"]
