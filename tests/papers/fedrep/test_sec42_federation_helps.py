"""Sec. 4.2 of Collins, Hassani, Mokhtari and Shakkottai (2021), *Exploiting Shared Representations for Personalized
Federated Learning*, ICML 2021: the sample complexity (11) that follows Theorem 1 and the paragraph "When and whom
does federation help?". Theorem 1's batch-size condition is measured as a one-round contraction threshold m*(d, rn);
"federation helps" is decided on the closed forms and as per-client total samples against Local least squares.
Verdicts come from ``fedtheory.decide``.

Tests of the catalogue module ``fedtheory_checks.fedrep.sec42_federation_helps``: its helpers against independent
computations and its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS``
injects a violating computation with monkeypatch and the quick verdict must refute the claim (the rule is
``check_fails_path`` in this folder's conftest.py)."""
import numpy as np
import pytest

from fedtheory import get_claim
from fedtheory.claims import FAILS, HOLDS, INCONCLUSIVE

SC = "fedtheory_checks.fedrep.sec42_federation_helps"


# ----------------------------------------------------------------------------- verdicts (fails paths)
def _grid(exponent, noise, seed=0):
    rng = np.random.default_rng(seed)
    return [(d, rn, float(np.exp(np.log(0.3 * (d / rn) ** exponent) + noise * rng.standard_normal())))
            for rn in (4, 8, 16, 32, 64) for d in (1024, 4096, 16384, 65536)]


def test_mstar_decision_paths():
    """The exponent is decided by fedtheory.decide.regression_rate (refuted / holds / inconclusive)."""
    from fedtheory_checks.fedrep.sec42_federation_helps import mstar_decision

    assert mstar_decision(_grid(0.5, 0.01))["status"] == FAILS       # m* ~ sqrt(d/(rn))
    assert mstar_decision(_grid(1.6, 0.01))["status"] == FAILS
    assert mstar_decision(_grid(1.0, 0.01))["status"] == HOLDS
    out = mstar_decision(_grid(1.0, 0.5)[:6])                      # few noisy points
    assert out["status"] == INCONCLUSIVE and out["power"]["needed"] > 1


def test_eq11_quick_decides_with_both_fits_reported():
    """Quick mode decides the exponent (two replicated 3 x 3 grids, df 12): holds, with the plain fit (no d^-1/2
    term) reported beside it and the regressor rn log(rn)/d (Theorem 1's own log term) in the fit."""
    out = get_claim("fedrep.eq11.sample-complexity").evaluate(full=False)
    assert out.status == HOLDS, out.summary()
    assert "plain_fit" in out.observed and out.observed["plain_fit"]["ci"][0] < out.observed["plain_fit"]["ci"][1]
    lo, hi = out.observed["slope_ci"]
    assert lo <= 1 <= hi and (hi - lo) / 2 <= 0.25
    assert set(out.observed["fit"]["coefficients"]) == {"const", "log(d/rn)", "rn log(rn)/d", "d^-1/2"}
    assert "Without the d^-1/2 tail term" in out.evidence


def test_mstar_decision_plain_fit_bends_below_one_with_a_sqrt_d_term():
    """m* = (0.3 d + 3 sqrt(d))/(rn): the fit with the d^-1/2 term recovers slope 1, the plain fit bends below 1."""
    from fedtheory_checks.fedrep.sec42_federation_helps import mstar_decision

    pts = [(d, rn, (0.3 * d + 3 * np.sqrt(d)) / rn) for rn in (4, 8, 16) for d in (512, 1024, 2048, 4096, 8192)]
    main, plain = mstar_decision(pts, True), mstar_decision(pts, False)
    assert main["status"] == HOLDS and abs(main["observed"]["slope"] - 1) < 0.02  # first order in d^-1/2
    assert plain["observed"]["slope"] < main["observed"]["slope"] - 0.03


def test_eq11_claim_fails_on_sqrt_scaling(monkeypatch):
    def fake(full, seed):  # m* = 3 sqrt(d/(rn)) + noise: the wrong exponent
        rng = np.random.default_rng(0)
        pts = [(d, rn, int(round(3 * np.sqrt(d / rn) * np.exp(0.02 * rng.standard_normal()))) + 8)
               for rn in (4, 8, 16, 32, 64) for d in (1024, 4096, 16384, 65536)]
        return pts, 400
    monkeypatch.setattr(f"{SC}._sc_points", fake)
    out = get_claim("fedrep.eq11.sample-complexity").func(False, 0)
    assert out["status"] == FAILS and out["observed"]["slope_ci"][1] < 1


def test_eq11_claim_holds_on_linear_scaling(monkeypatch):
    def fake(full, seed):
        rng = np.random.default_rng(1)
        pts = [(d, rn, int(round((0.29 * d + 1.8 * np.sqrt(d)) / rn * np.exp(0.01 * rng.standard_normal()))))
               for rn in (4, 8, 16, 32, 64) for d in (1024, 4096, 16384, 65536)]
        return pts, 400
    monkeypatch.setattr(f"{SC}._sc_points", fake)
    assert get_claim("fedrep.eq11.sample-complexity").func(False, 0)["status"] == HOLDS


def test_federation_decision_paths():
    from fedtheory_checks.fedrep.sec42_federation_helps import federation_decision

    out = federation_decision([8000, 2500, 800, 600], [9000, 2600, 900, 700], 2049, ns=(4, 16, 64, 256))
    assert out["status"] == HOLDS and out["observed"]["crossover_n"] == 64
    assert federation_decision([8000, 2500], [9000, 2600], 2049)["status"] == FAILS   # never cheaper
    assert federation_decision([8000, -1], [9000, -1], 2049)["status"] == FAILS       # never reaches eps
    out = federation_decision([8000, 1900], [9000, 2300], 2049)   # not confidently costlier: holds, not cheaper
    assert out["status"] == HOLDS and out["observed"]["confidently_cheaper"] is False


def test_federation_claim_fails_when_fedrep_needs_more(monkeypatch):
    def fake_map(func, tasks, **kw):
        return [{"N_lo": 5000.0, "N_hi": 6000.0} for _ in tasks]
    monkeypatch.setattr(f"{SC}.cached_map", fake_map)
    assert get_claim("fedrep.sec4.federation-helps-samples").func(False, 0)["status"] == FAILS


def test_federation_claim_quick_holds():
    out = get_claim("fedrep.sec4.federation-helps-samples").func(False, get_claim(
        "fedrep.sec4.federation-helps-samples").default_seed)
    assert out["status"] == HOLDS


def test_library_module_does_not_shadow_the_closed_form():
    import fedtheory.representation as rep
    import fedtheory.representation.sample_budget  # noqa: F401
    import fedtheory_checks.fedrep.sec42_federation_helps  # noqa: F401

    assert callable(rep.sample_complexity) and rep.sample_complexity(2, 32, 8) > 0


M = "fedtheory_checks.fedrep"


def _wrap(monkeypatch, target, make):
    """Replace ``target`` ("module.attr") by ``make(original)``."""
    import importlib

    mod, attr = target.rsplit(".", 1)
    monkeypatch.setattr(target, make(getattr(importlib.import_module(mod), attr)))


def needed_m_like_local(mp):  # injected: m* ~ sqrt(d/(rn)), the wrong exponent
    mp.setattr(f"{M}.sec42_federation_helps._sc_points", lambda full, seed: (
        [(d, rn, int(round(3 * (d / rn) ** 0.5)) + 8) for rn in (4, 8, 16, 32, 64)
         for d in (1024, 4096, 16384, 65536)], 400))


def fedrep_needs_more_than_local(mp):  # injected: FedRep needs 5000-6000 samples per client at every n
    mp.setattr(f"{M}.sec42_federation_helps.cached_map",
               lambda func, tasks, **kw: [{"N_lo": 5000.0, "N_hi": 6000.0} for _ in tasks])


def fed_helps_half_d(mp):  # the root-finder solves log n + (d/2)/n < d/2
    _wrap(mp, f"{M}.sec42_federation_helps.federation_helps_interval", lambda f: lambda d, C=1.0: f(d / 2, C))


FAILS_PATHS = {
    "fedrep.eq11.sample-complexity": needed_m_like_local,
    "fedrep.sec4.federation-helps": fed_helps_half_d,
    "fedrep.sec4.federation-helps-samples": fedrep_needs_more_than_local,
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
