"""Sec. III-B of Jadbabaie, Makur and Shah (2023), *Federated Optimization of Smooth Loss Functions*, IEEE Trans.
Inf. Theory: Algorithm 1 (FedLRGD), its oracle counters against Definition 1 and Theorem 2's Gamma, the erratum of
its line 10, and the explicit weights (35), (37)-(39), (41) on instrumented runs. Verdicts come from
``fedtheory.decide``.

Tests of the catalogue module ``fedtheory_checks.fedlrgd.alg1``: its helpers against independent computations and
its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS`` injects a violating
computation with monkeypatch and the quick verdict must refute the claim (the rule is ``check_fails_path`` in this
folder's conftest.py)."""
import numpy as np
import pytest

from fedtheory import get_claim

CHAIN = "fedtheory_checks.fedlrgd.alg1."


LIB_CHAIN = "fedtheory.lowrank.chain."


# ----------------------------------------------------------------------------- fails paths
def _fresh(mp):
    mp.setattr("fedtheory_checks.fedlrgd._common._CACHE", {})


def _weights(mp):  # weights solved with G instead of G^T (w_j = G^{-1} row_j): a transposition bug
    _fresh(mp)
    mp.setattr(LIB_CHAIN + "explicit_weights", lambda G, Gc: np.linalg.solve(G, Gc.T).T)


M = "fedtheory_checks.fedlrgd."


def _orig(path):
    mod, name = path.rsplit(".", 1)
    return getattr(__import__(mod, fromlist=[name]), name)


def _patch(monkeypatch, path, make):
    """monkeypatch ``path`` with ``make(original)``."""
    monkeypatch.setattr(path, make(_orig(path)))


# ----------------------------------------------------------------------------- Sec. III-B/C, IV-V
def _counters(mp):  # Gamma counting client communication in r - 1 epochs instead of r
    _patch(mp, M + "alg1.fedlrgd_gamma",
           lambda f: lambda r, s, S, m, phi, tau=1.0: f(r, s, S, m, phi, tau) - phi * tau * m)


def _line10(mp):  # the implementation uploads v_1 in every epoch whatever rule it is asked for
    _patch(mp, M + "alg1.run_fedlrgd", lambda f: lambda *a, line10="corrected", **k: f(*a, line10="printed", **k))


FAILS_PATHS = {
    "fedlrgd.thm2.weights-explicit": _weights,
    "fedlrgd.alg1.counters": _counters,
    "fedlrgd.alg1.line10.erratum": _line10,
}


#: quick-mode verdicts of the unpatched claims
QUICK_VERDICTS = {
    "fedlrgd.thm2.weights-explicit": "holds",
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])


@pytest.mark.parametrize("claim_id", sorted(QUICK_VERDICTS))
def test_claim_quick_verdict(claim_id, serial_uncached):
    v = get_claim(claim_id).evaluate(full=False)
    assert v.status == QUICK_VERDICTS[claim_id], v.summary()
