"""Sec. 4.2 of Collins, Hassani, Mokhtari and Shakkottai (2021), *Exploiting Shared Representations for Personalized
Federated Learning*, ICML 2021, "New users and dimensionality reduction", with Benefit (III) of Sec. 1 (a new
client's sample complexity Theta(k log(1/eps)), an erratum) and the new clients of Figure 4 (Sec. 5.1): a new client
that fits only a k-dimensional head on a given representation.

Tests of the catalogue module ``fedtheory_checks.fedrep.sec42_new_users``: its helpers against independent
computations and its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS``
injects a violating computation with monkeypatch and the quick verdict must refute the claim (the rule is
``check_fails_path`` in this folder's conftest.py)."""
import numpy as np
import pytest

from fedtheory.claims import FAILS, HOLDS
from fedtheory.linalg import principal_angle_distance
from fedtheory.representation import make_model
from fedtheory_checks.fedrep import fig1, sec52_real_data

NC = "fedtheory_checks.fedrep.sec42_new_users"


@pytest.fixture
def nc():
    from fedtheory_checks.fedrep import sec42_new_users
    return sec42_new_users


# ----------------------------------------------------------------------------- new client: closed form
def test_ols_law_values_and_validation(nc):
    assert nc.ols_head_excess_risk(7, 2, 0.5) == pytest.approx(0.25 * 2 / 4)
    # misspecified: b^2 (m-1)/(m-k-1) + sigma^2 k/(m-k-1)
    assert nc.ols_head_excess_risk(12, 2, 0.5, 0.3) == pytest.approx(0.3 * 11 / 9 + 0.25 * 2 / 9)
    for bad in (dict(m_new=3, k=2, sigma=0.5), dict(m_new=7, k=0, sigma=0.5), dict(m_new=7, k=2, sigma=-1.0),
                dict(m_new=7.5, k=2, sigma=0.5), dict(m_new=7, k=2, sigma=0.5, bias2=-0.1)):
        with pytest.raises(ValueError):
            nc.ols_head_excess_risk(**bad)


def test_equal_angle_representation(nc):
    B = make_model(20, 2, 1, seed=0).B_star
    rng = np.random.default_rng(1)
    for delta in (0.0, 0.1, 0.6, 1.0):
        Bh = nc.equal_angle_representation(B, delta, rng)
        assert np.allclose(Bh.T @ Bh, np.eye(2), atol=1e-12)
        assert principal_angle_distance(Bh, B) == pytest.approx(delta, abs=1e-9)
        w = rng.standard_normal(2)
        th = B @ w
        assert np.sum((th - Bh @ (Bh.T @ th)) ** 2) == pytest.approx(delta ** 2 * w @ w, abs=1e-12)
    with pytest.raises(ValueError):
        nc.equal_angle_representation(B, 1.5, rng)
    with pytest.raises(ValueError):
        nc.equal_angle_representation(B[:3], 0.1, rng)


def test_reduced_design_agrees_with_full_design(nc):
    """The reduced simulation (exact in law) and a plain full-design simulation give the same mean."""
    from fedtheory.representation import fit_heads

    B = make_model(12, 2, 1, seed=3).B_star
    Bh = nc.equal_angle_representation(B, 0.3, np.random.default_rng(0))
    R, m, sigma = 20_000, 9, 0.5
    th = nc._random_thetas(B, 2, R, np.random.default_rng(2))
    red = nc.simulate_excess(Bh, th, m, sigma, 5)
    rng = np.random.default_rng(6)
    X = rng.standard_normal((R, m, 12))
    y = np.einsum("cmd,cd->cm", X, th) + sigma * rng.standard_normal((R, m))
    w = fit_heads(X @ Bh, y)
    full = np.sum((th - w @ Bh.T) ** 2, axis=1)
    se = np.sqrt(red.var() / R + full.var() / R)
    assert abs(red.mean() - full.mean()) < 5 * se


def test_law_decision_paths(nc):
    """The closed form is decided by fedtheory.decide.agreement and decide.rate (WLS slope)."""
    ms = np.array([7, 8, 12, 20, 40, 80])
    closed = nc.ols_head_excess_risk(ms, 2, 0.5)
    ses = 0.02 * closed
    x = 1.0 / (ms - 3.0)
    out = nc.law_decision(closed, ses, 4000, closed, x, slope_true=0.5, what="exact")
    assert out["status"] == HOLDS and out["margin"] is not None
    # the printed law off by a factor (k/(m - k) instead of k/(m - k - 1)): many se away
    wrong = 0.25 * 2 / (ms - 2.0)
    assert nc.law_decision(closed, ses, 4000, wrong, x, slope_true=0.5, what="wrong")["status"] == FAILS


def _law_wrong_constant(mp):
    """Injected bug: the closed form without the '-1' of the inverse-Wishart mean, k/(m-k)."""
    from fedtheory_checks.fedrep import sec42_new_users as m_

    orig = m_.ols_head_excess_risk
    mp.setattr(f"{NC}.ols_head_excess_risk",
               lambda m_new, k, sigma, bias2=0.0: orig(m_new, k, sigma, bias2) * (np.asarray(m_new) - k - 1.0)
               / (np.asarray(m_new) - k))


def _misspecified_no_bias_inflation(mp):
    """Injected bug: the representation error as a bare floor b^2 + sigma^2 k/(m-k-1) (no inflation)."""
    from fedtheory_checks.fedrep import sec42_new_users as m_

    orig = m_.ols_head_excess_risk
    mp.setattr(f"{NC}.ols_head_excess_risk",
               lambda m_new, k, sigma, bias2=0.0: np.asarray(bias2) + orig(m_new, k, sigma))


def test_ols_law_claim_holds_and_can_fail(nc, serial_uncached, monkeypatch):
    out = nc._ols_law(False, 0)
    assert out["status"] == HOLDS, out["evidence"]
    _law_wrong_constant(monkeypatch)
    assert nc._ols_law(False, 0)["status"] == FAILS


def test_misspecified_claim_holds_and_can_fail(nc, serial_uncached, monkeypatch):
    out = nc._misspecified(False, 0)
    assert out["status"] == HOLDS, out["evidence"]
    _misspecified_no_bias_inflation(monkeypatch)
    assert nc._misspecified(False, 0)["status"] == FAILS


def test_elasticity(nc):
    ms = np.array([20.0, 160.0])
    noisy = 0.5 / (ms - 3.0)  # eps ~ 1/m: elasticity about 1, above any k log(1/eps)
    e, se, e_max = nc.elasticity(ms, noisy, 0.01 * noisy)
    assert e > e_max and se > 0
    logish = np.exp(-ms / (2 * 8.0))  # m = 8 k log(1/eps): elasticity 1/log(1/eps) < e_max
    e, se, e_max = nc.elasticity(ms, logish, 0.001 * logish)
    assert e < e_max
    with pytest.raises(ValueError):
        nc.elasticity(ms[::-1], noisy, noisy)


def test_law_elasticity(nc):
    # eps = sigma^2 k/(m - k - 1): the law's elasticity between 20 and 160 is log 8 / log(157/17)
    assert nc.law_elasticity((20, 160), 2) == pytest.approx(np.log(8) / np.log(157 / 17))
    with pytest.raises(ValueError):
        nc.law_elasticity((3, 160), 2)


def k_log_eps_log_like(mp):
    """Injected measured numbers where the excess risk falls like exp(-m/16) (m = 8 k log(1/eps)): the
    printed Theta(k log(1/eps)) then holds."""
    def fake(B_hat, thetas, m_new, sigma, seed):
        rng = np.random.default_rng(int(m_new))
        x = np.exp(-m_new / 16.0) * (1 + 0.05 * rng.standard_normal(len(thetas)))
        return x if sigma > 0 else np.zeros(len(thetas))
    mp.setattr(f"{NC}.simulate_excess", fake)


def test_k_log_eps_is_refuted_on_real_numbers():
    """Relabelled from an erratum: Theta(k/eps) is not a typo-level correction of Theta(k log(1/eps))."""
    from fedtheory import get_claim

    v = get_claim("fedrep.newclient.k-log-eps").evaluate()
    assert v.status == "refuted", v.summary()
    assert v.root_cause == "new-client-k-log-eps"
    law = v.observed["noisy_law"]
    assert law["ci_inside_margin"]     # the noisy law's elasticity is what the simulation measures
    assert v.observed["noiseless_m_eq_k_max_rel_excess"] <= 1e-12


def test_k_log_eps_holds_on_log_like_numbers(nc, monkeypatch):
    k_log_eps_log_like(monkeypatch)
    out = nc._k_log_eps(False, 0)
    assert out["status"] == HOLDS, out["evidence"]


NOT_REPRODUCED = "not-reproduced"


def test_k_log_eps_noisy_numbers_do_not_refute(nc, monkeypatch):
    """Very noisy Monte Carlo means (30x the standard errors): decide.bound cannot reject the printed
    elasticity bound, and the margin carries the confidence limit."""
    import dataclasses

    from fedtheory.montecarlo import estimate_from_samples

    def noisy(x):
        e = estimate_from_samples(x)
        return dataclasses.replace(e, se=30 * e.se)
    monkeypatch.setattr(f"{NC}.estimate_from_samples", noisy)
    out = nc._k_log_eps(False, 0)
    assert out["status"] == HOLDS, out["evidence"]
    assert out["margin"]["ci"] is not None


#: fails paths of the Sec. 5 / new-client claims (run by test_claim_can_fail)
FAILS_PATHS = {
    "fedrep.newclient.ols-law": _law_wrong_constant,
    "fedrep.newclient.misspecified": _misspecified_no_bias_inflation,
    "fedrep.newclient.k-log-eps": lambda mp: None,  # refuted on the real numbers already
}


#: the same paths with the legacy status names, and Figure 3's ordering under the tuned head step
#: (fig3_tuned_order_reversed, the twin of fig3_order_reversed)
SEC5_PATHS = {
    "fedrep.newclient.ols-law": _law_wrong_constant,
    "fedrep.newclient.misspecified": _misspecified_no_bias_inflation,
    "fedrep.newclient.k-log-eps": lambda mp: None,
}


@pytest.mark.parametrize("claim_id", sorted(SEC5_PATHS))
def test_fails_paths_make_the_claim_fail(claim_id, monkeypatch, serial_uncached):
    from fedtheory import get_claim

    SEC5_PATHS[claim_id](monkeypatch)
    v = get_claim(claim_id).evaluate(full=False)
    experiment = {"fedrep.fig3.ordering", "fedrep.fig3.ordering-paper-steps", "fedrep.sec5.gd-n-scaling",
                  "fedrep.benefit1.local-updates"}
    assert v.status == (NOT_REPRODUCED if claim_id in experiment else FAILS), v.summary()


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
