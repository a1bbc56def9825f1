"""Appendix A, proof of Theorem 4.7 (arXiv Theorem 4.5), eqs. (143)-(193) of Tziotis, Shen, Pedarsani, Hassani and
Mokhtari, *Straggler-Resilient Personalized Federated Learning* (TMLR 2023; arXiv (141)-(185)): the lower bound on
sigma_min^2(R+) through Weyl's inequality (149) and the terms R1 = T1 + T2 + T3, R2, R3.

Tests of the catalogue module ``fedtheory_checks.srpfl.thm4_7_proof_143_193``: its helpers against independent
computations and its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS``
injects a violating computation with monkeypatch and the quick verdict must refute the claim (the rule is
``check_fails_path`` in this folder's conftest.py)."""
import numpy as np
import pytest

import fedtheory_checks.srpfl.thm4_7_proof_143_193 as ps
from fedtheory import get_claim
from fedtheory.claims import ERRATUM, HOLDS, INCONCLUSIVE, REFUTED
from fedtheory_checks.srpfl import thm4_7_proof_143_193
from fedtheory_checks.srpfl import appendix_a_rounds as _ar

PROOF_STEPS = "fedtheory_checks.srpfl.thm4_7_proof_143_193"


@pytest.fixture(autouse=True)
def _fresh_table():
    _ar.exact_round_table.cache_clear()
    yield
    _ar.exact_round_table.cache_clear()


def test_trend_decision_is_the_kits_direction_test():
    assert thm4_7_proof_143_193.trend_decision(-0.5, 0.05)["status"] == HOLDS
    assert thm4_7_proof_143_193.trend_decision(0.3, 0.05)["status"] == REFUTED
    v = thm4_7_proof_143_193.trend_decision(-0.1, 0.05, n=40)
    assert v["status"] == INCONCLUSIVE and v["power"]["needed"] >= 2 and "power 0.8" in v["power"]["statement"]
    with pytest.raises(ValueError):
        thm4_7_proof_143_193.trend_decision(-0.5, 0.0)


def test_within_m_slope_equals_statsmodels_with_group_dummies():
    import statsmodels.api as sm

    g = np.random.default_rng(7)
    T = {"d": np.repeat([8.0, 16.0], 20), "n": np.tile(np.repeat([4.0, 8.0], 10), 2), "sigma": np.zeros(40),
         "dist": np.full(40, 0.5), "m": np.tile([50.0, 100.0, 200.0, 400.0, 800.0], 8)}
    y = -0.5 * np.log(T["m"]) + np.log(T["d"]) + 0.3 * g.standard_normal(40)
    b, se = thm4_7_proof_143_193._within_m_slope(T, y, np.ones(40, bool))
    grp = (T["d"] == 16) * 2 + (T["n"] == 8)
    X = sm.add_constant(np.column_stack([np.log(T["m"])] + [(grp == j).astype(float) for j in (1, 2, 3)]))
    fit = sm.OLS(y, X).fit(cov_type="HC1")
    assert b == pytest.approx(fit.params[1], rel=1e-10)
    assert se == pytest.approx(fit.bse[1], rel=1e-6)


# ----------------------------------------------------------------------------- fails paths
def _patch_table(mp, edit):
    orig = _ar.exact_round_table.__wrapped__

    def patched(full, seed):
        T = dict(orig(full, seed))
        edit(T)
        return T

    mp.setattr("fedtheory_checks.srpfl.appendix_a_rounds.exact_round_table", patched)


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


S = "fedtheory_checks.srpfl"


def _wrap(monkeypatch, target, make):
    """Replace ``target`` ("module.attr") by ``make(original)``."""
    import importlib

    mod, attr = target.rsplit(".", 1)
    monkeypatch.setattr(target, make(getattr(importlib.import_module(mod), attr)))


def _eq149(mp):
    # bug: SRPFL carries the pre-QR average into each new stage (Algorithm 2, line 16 as printed); the
    # Weyl step's leading 1 is B_hat^T B_hat, so the check must refuse the non-orthonormal B_hat
    _wrap(mp, f"{S}._common.run_srpfl", lambda orig: lambda **kw: orig(**{**kw, "carry": "pre_qr"}))


#: the statuses of the claims on the real numbers (quick mode, seed 0)
REAL = {
    "srpfl.eq185.R2-sigma": ERRATUM,
    "srpfl.eq190.R3-sigma": ERRATUM,
    "srpfl.eq143-144.expansion": HOLDS,
    "srpfl.eq165.T1": HOLDS,
    "srpfl.eq174.T2T3": HOLDS,
    "srpfl.eq176.R1": HOLDS,
    "srpfl.eq193.sigma-min-R": HOLDS,
}


FAILS_PATHS = {
    "srpfl.eq185.R2-sigma": _f_r2,
    "srpfl.eq190.R3-sigma": _f_r3,
    "srpfl.eq143-144.expansion": _f_expansion,
    "srpfl.eq165.T1": _f_t1,
    "srpfl.eq174.T2T3": _f_t23,
    "srpfl.eq176.R1": _f_r1,
    "srpfl.eq193.sigma-min-R": _f_r193,
    "srpfl.eq149.inequality": _eq149,
}


@pytest.mark.parametrize("claim_id", sorted(REAL))
def test_real_numbers(claim_id):
    out = get_claim(claim_id).func(full=False, seed=0)
    assert out["status"] == REAL[claim_id], out["evidence"]
    assert out["margin"] is not None and "detects" in out  # decided through the kit


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
