"""Theorem 1, eq. (11) and Introduction (ii) of Collins, Hassani, Mokhtari and Shakkottai (2021), *Exploiting Shared
Representations for Personalized Federated Learning*, ICML 2021: the k- and kappa-exponents of the sample complexity.

Tests of the catalogue module ``fedtheory_checks.fedrep.thm1_sample_complexity``: the head constructions against
independent SVDs, the decisions on synthetic thresholds, and every claim can fail: its entry in ``FAILS_PATHS``
injects a violating threshold sweep with monkeypatch and the quick verdict must refute the claim (the rule is
``check_fails_path`` in this folder's conftest.py)."""
import numpy as np
import pytest

from fedtheory.claims import FAILS, HOLDS

M = "fedtheory_checks.fedrep.thm1_sample_complexity"


@pytest.mark.parametrize("k", range(1, 9))
def test_unit_norm_frame_is_a_tight_frame(k):
    from fedtheory_checks.fedrep.thm1_sample_complexity import unit_norm_frame

    W = unit_norm_frame(12, k)
    assert np.allclose(np.linalg.norm(W, axis=1), np.sqrt(k), atol=1e-12)
    assert np.allclose(np.linalg.svd(W / np.sqrt(12), compute_uv=False), 1.0, atol=1e-12)   # kappa = 1


@pytest.mark.parametrize("kappa", [1.0, 1.5, 3.0, 8.0])
def test_conditioned_heads_have_the_condition_number(kappa):
    from fedtheory_checks.fedrep.thm1_sample_complexity import conditioned_heads

    W = conditioned_heads(12, kappa)
    assert np.allclose(np.linalg.norm(W, axis=1), np.sqrt(2), atol=1e-12)       # Assumption 3
    assert np.linalg.cond(W) == pytest.approx(kappa, rel=1e-10)                # independent SVD
    with pytest.raises(ValueError):
        conditioned_heads(10, kappa)


def _fake_sweeps(k_exp, kappa_exp):
    def sweeps(full, seed):
        rng = np.random.default_rng(0)
        ks, kappas = (1, 2, 3, 4, 6), (1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0)
        noise = lambda: float(np.exp(0.02 * rng.standard_normal()))
        return {"k": [(k, int(round(30 * k ** k_exp * noise()))) for k in ks],
                "kappa": [(c, int(round(60 * c ** kappa_exp * noise()))) for c in kappas],
                "ks": ks, "kappas": kappas, "d": 2048, "rn": 12, "grids": 1}
    return sweeps


def test_sufficient_reading_decisions(monkeypatch):
    from fedtheory import get_claim

    monkeypatch.setattr(f"{M}.exponent_sweeps", _fake_sweeps(1.0, 0.0))
    out = get_claim("fedrep.thm1.sample-complexity-exponents").func(False, 0)
    assert out["status"] == HOLDS
    table = out["observed"]["printed_forms"]
    assert table["Theorem 1"]["k_theta"] == FAILS and table["eq. (11)"]["kappa_theta"] == FAILS
    monkeypatch.setattr(f"{M}.exponent_sweeps", _fake_sweeps(4.0, 8.0))     # the printed eq. (11) exponents
    out = get_claim("fedrep.eq11.theta-exponents").func(False, 0)
    assert out["status"] == HOLDS


def k_grows_like_k_cubed(mp):  # injected: m* ~ k^3 (above Theorem 1's k^2)
    mp.setattr(f"{M}.exponent_sweeps", _fake_sweeps(3.0, 0.0))


def eq11_exponents_measured(mp):  # the real sweep: k^1, kappa^~0 (eq. (11) prints k^4 kappa^8)
    pass


FAILS_PATHS = {
    "fedrep.thm1.sample-complexity-exponents": k_grows_like_k_cubed,
    "fedrep.eq11.theta-exponents": eq11_exponents_measured,
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_every_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
