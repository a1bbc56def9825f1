"""Sec. III-D of Jadbabaie, Makur and Shah (2023), *Federated Optimization of Smooth Loss Functions*, IEEE Trans.
Inf. Theory (comparison to federated averaging): Theorem 3 (FedAve, eqs. (79)-(89) of its proof in Appendix D),
Proposition 1 (proved in Appendix E) and footnote 11's bound on the initial gap. The measured FedAve runs are in
:mod:`.fedave_runs`. Verdicts come from ``fedtheory.decide``.

Tests of the catalogue module ``fedtheory_checks.fedlrgd.sec3d_fedave``: its helpers against independent
computations and its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS``
injects a violating computation with monkeypatch and the quick verdict must refute the claim (the rule is
``check_fails_path`` in this folder's conftest.py)."""
import math

import numpy as np
import pytest

M = "fedtheory_checks.fedlrgd."


def _orig(path):
    mod, name = path.rsplit(".", 1)
    return getattr(__import__(mod, fromlist=[name]), name)


def _patch(monkeypatch, path, make):
    """monkeypatch ``path`` with ``make(original)``."""
    monkeypatch.setattr(path, make(_orig(path)))


# ----------------------------------------------------------------------------- Sec. V, App. D-E, App. C
def _thm3(mp):  # Viete root on the wrong branch (pi/3 instead of 2 pi/3)
    def viete(m, phi, tau, eps_t, C):
        C1, C2, C3 = C / (2 * m * eps_t), m * math.sqrt(C / eps_t), phi * tau * m
        return C3 / 3 * (math.sin(math.asin(1 - 54 * C2 / (C1 * C3 ** 2)) / 3 + math.pi / 3) - 0.5)
    mp.setattr(M + "sec3d_fedave.fedave_b_star_viete", viete)


def _prop1(mp):  # FedAve's Gamma_+ with (C eps/p)^{3/4} instead of (C p/eps)^{3/4}
    _patch(mp, M + "sec3d_fedave.proposition1_ratio",
           lambda f: lambda pe, **k: f(pe, **k) * np.asarray(pe, float) ** 1.5)


def _L1_is_mu(mp):  # the smoothness constant read as the strong-convexity constant mu
    from fedtheory.lowrank.algorithms import LogisticProblem
    mp.setattr(LogisticProblem, "L1", property(lambda self: self.mu))


FAILS_PATHS = {
    "fedlrgd.thm3.fedave": _thm3,
    "fedlrgd.prop1.ratio": _prop1,
    "fedlrgd.fn11.initial-gap": _L1_is_mu,
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
