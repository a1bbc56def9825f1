"""Sec. III-A of Jadbabaie, Makur and Shah (2023), *Federated Optimization of Smooth Loss Functions*, IEEE Trans.
Inf. Theory: Lemma 1 (piecewise Taylor approximation of a Hoelder class, proved in Sec. IV-A with eq. (49)) for l =
1 and for l = 2, 3, and the exponent of the smoothness assumption (6) of Sec. II-B that Lemma 1 and its proof use.
Verdicts come from ``fedtheory.decide``.

Tests of the catalogue module ``fedtheory_checks.fedlrgd.lemma1``: its helpers against independent computations and
its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS`` injects a violating
computation with monkeypatch and the quick verdict must refute the claim (the rule is ``check_fails_path`` in this
folder's conftest.py)."""
import math

import pytest

M = "fedtheory_checks.fedlrgd."


def _orig(path):
    mod, name = path.rsplit(".", 1)
    return getattr(__import__(mod, fromlist=[name]), name)


def _patch(monkeypatch, path, make):
    """monkeypatch ``path`` with ``make(original)``."""
    monkeypatch.setattr(path, make(_orig(path)))


# ----------------------------------------------------------------------------- Sec. III, App. A
def _factorial_squared(mp, module):  # Lemma 1's bound with (l!)^2 instead of l!: invisible for l <= 1, halves it for l = 2
    from fedtheory.lowrank import holder_l
    _patch(mp, M + module + ".lemma1_bound",
           lambda f: lambda q, eta, L2=1.0: f(q, eta, L2) / math.factorial(holder_l(eta)))


def _eq6(mp):
    _factorial_squared(mp, "lemma1")


def _lemma1(mp):
    _factorial_squared(mp, "lemma1")
    mp.setattr(M + "lemma1._test_functions", lambda d: [])  # shrink: the l <= 1 cases cannot see this bug
    _patch(mp, M + "lemma1._eta_gt2_functions", lambda f: lambda d: f(d) if d == 1 else [])


REMAINING = "fedtheory_checks.fedlrgd.lemma1"


# ----------------------------------------------------------------------------- fails paths
def _drop_lfact(mp):  # Lemma 1's bound without l!: loose by l!
    from fedtheory.lowrank import holder_l
    _patch(mp, REMAINING + ".lemma1_bound", lambda f: lambda q, eta, L2=1.0: f(q, eta, L2) * math.factorial(holder_l(eta)))


FAILS_PATHS = {
    "fedlrgd.eq6.exponent": _eq6,
    "fedlrgd.lemma1.taylor": _lemma1,
    "fedlrgd.lemma1.high-order": _drop_lfact,
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
