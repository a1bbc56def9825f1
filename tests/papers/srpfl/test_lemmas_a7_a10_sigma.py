"""Appendix A, the noise terms of Lemmas A.7, A.8, A.9 and A.10 of Tziotis, Shen, Pedarsani, Hassani and Mokhtari,
*Straggler-Resilient Personalized Federated Learning* (TMLR 2023; arXiv Lemmas A.7-A.10): the sigma^2-for-sigma slip
of Lemmas A.7 (58) and A.9 (82) and its inheritance by Lemmas A.8 (71) and A.10 (95) (one root cause,
``sigma-for-sigma2``; its further inheritance by (137), (185), (190) is in :mod:`.thm4_7_proof_116_137` and
:mod:`.thm4_7_proof_143_193`).

Tests of the catalogue module ``fedtheory_checks.srpfl.lemmas_a7_a10_sigma``: its helpers against independent
computations and its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS``
injects a violating computation with monkeypatch and the quick verdict must refute the claim (the rule is
``check_fails_path`` in this folder's conftest.py)."""
import math

import numpy as np
import pytest

from fedtheory.claims import ERRATUM, HOLDS, REFUTED
from fedtheory_checks.srpfl import lemmas_a7_a10_sigma as L7


def test_sigma_decision_and_exponent():
    assert L7.sigma_decision({"q": (1.0, 0.01)}, 2)["status"] == REFUTED
    assert L7.sigma_decision({"q": (1.0, 0.01)}, 1)["status"] == HOLDS
    g = np.random.default_rng(1)
    sig = np.array(L7.SIGMAS)
    samples = [s * np.exp(0.1 * g.standard_normal(200)) for s in sig]
    b, se = L7.sigma_exponent(samples, sig)
    assert abs(b - 1) < 5 * se


def test_sigma_claim_is_erratum_and_fails_if_corrected_form_breaks(monkeypatch):
    out = L7._sigma(False, 0)
    assert out["status"] == ERRATUM and out["root_cause"] == "sigma-for-sigma2" and out["referee"]
    # bug: the corrected form read with sigma^2 as well -> the referee rejects it -> refuted
    orig = L7.sigma_decision
    monkeypatch.setattr(L7, "sigma_decision", lambda ex, p, tests=4: orig(ex, 2, tests))
    assert L7._sigma(False, 0)["status"] == REFUTED


S = "fedtheory_checks.srpfl"


def _wrap(monkeypatch, target, make):
    """Replace ``target`` ("module.attr") by ``make(original)``."""
    import importlib

    mod, attr = target.rsplit(".", 1)
    monkeypatch.setattr(target, make(getattr(importlib.import_module(mod), attr)))


def _sigma_scaling(mp):
    # bug: sigma passed as the noise variance (the noise std is sqrt(sigma)); the terms scale like
    # sigma^(1/2), so even the corrected sigma form fails the referee
    _wrap(mp, f"{S}.lemmas_a7_a10_sigma.noise_terms",
          lambda orig: lambda g, sigma, *a: orig(g, math.sqrt(sigma), *a))


LEMMAS = f"{S}.lemmas_a7_a10_sigma"


def _sigma_scaling_a8_a10(mp):
    # bug: sigma passed as the noise variance (the noise std is sqrt(sigma)); the terms scale like sigma^(1/2),
    # so even the corrected sigma form fails the referee
    _wrap(mp, f"{LEMMAS}.lemma_draws",
          lambda orig: lambda g, reps, m, d, n, dist, sigma, *a, **k: orig(g, reps, m, d, n, dist, math.sqrt(sigma),
                                                                            *a, **k))


FAILS_PATHS = {
    "srpfl.lemA7-A9.sigma-scaling": _sigma_scaling,
    "srpfl.lemA8-A10.sigma-scaling": _sigma_scaling_a8_a10,
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
