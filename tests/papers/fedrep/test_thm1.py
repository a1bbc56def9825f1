"""Sec. 4.2 of Collins, Hassani, Mokhtari and Shakkottai (2021), *Exploiting Shared Representations for Personalized
Federated Learning*, ICML 2021: Definition 1 (the principal angle distance (9)), the constants of Assumptions 2-3
that Theorem 1 uses, Theorem 1 (the contraction (10), its probability, its rate, the definition of kappa and its
erratum) and the strict decrease of (10) stated after it. Verdicts come from ``fedtheory.decide``.

Tests of the catalogue module ``fedtheory_checks.fedrep.thm1``: its helpers against independent computations and its
verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS`` injects a violating
computation with monkeypatch and the quick verdict must refute the claim (the rule is ``check_fails_path`` in this
folder's conftest.py)."""
import dataclasses

import numpy as np
import pytest

from fedtheory import get_claim
from fedtheory.claims import ERRATUM, FAILS, HOLDS
from fedtheory_checks.fedrep import thm1 as _thm1

M = "fedtheory_checks.fedrep"


def _wrap(monkeypatch, target, make):
    """Replace ``target`` ("module.attr") by ``make(original)``."""
    import importlib

    mod, attr = target.rsplit(".", 1)
    monkeypatch.setattr(target, make(getattr(importlib.import_module(mod), attr)))


def rate_step_tenfold(mp):  # the rate with 10 eta (outside the step condition)
    _wrap(mp, f"{M}.thm1.theorem1_rate", lambda f: lambda eta, E0, s: f(10 * eta, E0, s))


T1 = "fedtheory_checks.fedrep.thm1"


def test_contraction_verdict_paths():
    from fedtheory_checks.fedrep.thm1 import contraction_verdict

    out, c0, inside = contraction_verdict([0.01], [0.5, 0.5, 0.001], [True, False, True], 0.0)
    assert out["status"] == FAILS and c0 == 0.02 and inside.tolist() == [True, True, False]
    out, _, _ = contraction_verdict([0.01], [0.5, 0.5, 0.001], [False, False, True], 0.0)
    assert out["status"] == HOLDS                     # the violation is outside the regime
    out, _, _ = contraction_verdict([0.4], [0.5, 0.1], [False, False], 0.0)
    assert out["status"] == FAILS                     # no check run inside the regime


def test_contraction_claim_fails_on_in_regime_violation(monkeypatch):
    calls = {"n": 0}

    def fake(model, m, r, rounds, seed, runs, sigma_min):
        calls["n"] += 1
        broken = np.zeros(runs, bool)
        if calls["n"] % 2 == 0 and m == 80:  # a check run at large m and E0 = 0.9 breaks (10)
            broken[0] = True
        return broken, np.ones(runs), np.full(runs, 0.9)
    monkeypatch.setattr(f"{T1}._contraction_batch", fake)
    assert get_claim("fedrep.thm1.contraction").func(False, 0)["status"] == FAILS


EX = "fedtheory.representation.experiments"


def _bottom_k_mom(model, m, rng, chunk=4096):
    """The method of moments with the classic bug: the eigenvectors of the k smallest eigenvalues."""
    X, y = model.sample(rng, np.arange(model.n), m)
    Xf = X.reshape(-1, model.d)
    Z = (Xf * (y.reshape(-1) ** 2)[:, None]).T @ Xf / (model.n * m)
    return np.linalg.eigh(Z)[1][:, : model.k].copy()


# ----------------------------------------------------------------------------- Sec. 4.2
def dist_squared(mp):  # dist returned as sin^2 of the largest principal angle
    _wrap(mp, f"{M}.thm1.principal_angle_distance", lambda f: lambda *a, **k: np.asarray(f(*a, **k)) ** 2)


def eta_too_large(mp):  # default step 1/(2 max ||w_i||^2) instead of 1/(4 ...)
    _wrap(mp, f"{M}.thm1.default_eta", lambda f: lambda W: 2 * f(W))


def kappa_from_eigenvalues(mp):  # eigenvalues of W^T W / rn used as singular values: kappa = cond(W*)^2
    def make(f):
        def g(*a, **k):
            dv = f(*a, **k)
            return dataclasses.replace(dv, sigma_min=dv.sigma_min ** 2, sigma_max=dv.sigma_max ** 2)
        return g
    _wrap(mp, f"{M}.thm1.client_diversity", make)


def contraction_bottom_k(mp):  # Algorithm 2's initialisation returns the bottom-k eigenvectors
    mp.setattr("fedtheory.representation.algorithms.mom_init", _bottom_k_mom)
    mp.setattr(f"{M}.thm1.CONTRACTION_GRID", (20, 40, 80))  # shrink what runs: no m_cal on a shorter grid


def rate_step_mismatch(mp):  # the runs use eta/1000 while the reported (theory) eta is the default
    def make(f):
        def g(model, m, r, rounds, runs, **k):
            from fedtheory.representation import default_eta

            eta0 = default_eta(model.W_star)
            dist, E0, _ = f(model, m, r, rounds, runs, **{**k, "eta": eta0 / 1000})
            return dist, E0, eta0
        return g
    _wrap(mp, f"{EX}.theorem1_runs", make)
    _wrap(mp, f"{M}.thm1._thm1_setting", lambda f: lambda full: {**f(full), "rounds": 20})


FAILS_PATHS = {
    "fedrep.sec4.strict-decrease": rate_step_tenfold,
    "fedrep.def1.dist-identities": dist_squared,
    "fedrep.asm3.diversity-constants": eta_too_large,
    "fedrep.thm1.kappa-typo": kappa_from_eigenvalues,
    "fedrep.thm1.contraction": contraction_bottom_k,
    "fedrep.thm1.rate-fit": rate_step_mismatch,
}


FUNCS = {
    "fedrep.sec4.strict-decrease": _thm1._strict,
}


# the statuses the claims reach on the real numbers (quick mode, default seed 0)
EXPECTED = {
    "fedrep.sec4.strict-decrease": HOLDS,
}


def test_tables_cover_the_same_claims():
    assert set(FUNCS) == set(EXPECTED) and set(FUNCS) <= set(FAILS_PATHS)


def test_claims_are_registered_with_these_functions():
    from fedtheory_checks.fedrep import PAPER

    for cid, func in FUNCS.items():
        claim = PAPER._claims[cid]   # registered on import; the ledger is not needed for this
        assert claim.func is func, cid
        assert len(claim.regime) >= 20


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])


@pytest.mark.parametrize("claim_id", sorted(EXPECTED))
def test_claim_on_real_numbers(claim_id, serial_uncached):
    out = FUNCS[claim_id](full=False, seed=0)
    assert out["status"] == EXPECTED[claim_id], out["evidence"]
    assert out["margin"] is not None and out["detects"] is not None   # decided by fedtheory.decide
    if out["status"] == ERRATUM:
        assert out["referee"]
        from fedtheory_checks.fedrep import PAPER
        assert out["root_cause"] in PAPER.root_causes()
