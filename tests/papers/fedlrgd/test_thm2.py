"""Sec. III-C of Jadbabaie, Makur and Shah (2023), *Federated Optimization of Smooth Loss Functions*, IEEE Trans.
Inf. Theory (federated oracle complexity of FedLRGD): the choice of q and the unisolvence of the server samples for
(45), Theorem 2 (the approximate rank (47), its erratum and the two lower bounds it must meet, and S of (48)), and
the exponent that the abstract and Secs. I-B and VI state from Theorem 2. Assumption (8), which Theorem 2 assumes,
is in :mod:`.assumption8`; the proof (Sec. V) is in :mod:`.sec5_thm2_proof`. Verdicts come from
``fedtheory.decide``.

Tests of the catalogue module ``fedtheory_checks.fedlrgd.thm2``: its helpers against independent computations and
its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS`` injects a violating
computation with monkeypatch and the quick verdict must refute the claim (the rule is ``check_fails_path`` in this
folder's conftest.py)."""
import math

import numpy as np
import pytest

from fedtheory import get_claim

LIB_CHAIN = "fedtheory.lowrank.chain."


def _orig(path):
    mod, name = path.rsplit(".", 1)
    return getattr(__import__(mod, fromlist=[name]), name)


def _lattice(mp):  # monomials without the cell indicator 1{x in I}: Phi repeats the same rows for every cell
    f = _orig(LIB_CHAIN + "monomial_matrix")

    def mono(X, q, l):
        out = f(X, q, l)
        D = math.comb(l + np.asarray(X).shape[1], l)
        n = out.shape[0] // D
        return np.tile(out.reshape(n, D, -1).sum(axis=0), (n, 1))
    mp.setattr(LIB_CHAIN + "monomial_matrix", mono)


M = "fedtheory_checks.fedlrgd."


def _patch(monkeypatch, path, make):
    """monkeypatch ``path`` with ``make(original)``."""
    monkeypatch.setattr(path, make(_orig(path)))


def _eq47(mp):  # the "corrected" r computed with the printed bracket
    _patch(mp, M + "thm2.theorem2_r", lambda f: lambda *a, variant="corrected", **k: f(*a, variant="printed", **k))


def _thm2(mp):  # S rounded down instead of up in (48)
    def S_floor(*, kappa=2.0, eps=0.01, B=1.0, mu=0.1, p=1, F0_gap=1.0):
        A = F0_gap + 9 * (B + 3) ** 4 * p / (2 * mu)
        return int(math.floor(math.log(A / eps) / math.log(kappa / (kappa - 1))))
    mp.setattr(M + "thm2.theorem2_S", S_floor)


def _abstract(mp):  # the proof's requirement evaluated at a frozen accuracy p/eps = 100 (the eps dependence lost)
    _patch(mp, M + "thm2.chain_log_r_min", lambda f: lambda d, eta, log_inv_eps, **k: f(d, eta, math.log(100), **k))


REMAINING = "fedtheory_checks.fedlrgd.thm2"


def _eq47_printed(mp):  # the printed bracket of (47)
    _patch(mp, REMAINING + ".theorem2_r", lambda f: lambda *a, **k: f(*a, **{**k, "variant": "printed"}))


FAILS_PATHS = {
    "fedlrgd.eq45.lattice-unisolvence": _lattice,
    "fedlrgd.eq47.bracket.erratum": _eq47,
    "fedlrgd.thm2.S-and-delta": _thm2,
    "fedlrgd.abstract.exponent": _abstract,
    "fedlrgd.eq47.both-lower-bounds": _eq47_printed,
}


#: quick-mode verdicts of the unpatched claims
QUICK_VERDICTS = {
    "fedlrgd.eq45.lattice-unisolvence": "refuted",
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])


@pytest.mark.parametrize("claim_id", sorted(QUICK_VERDICTS))
def test_claim_quick_verdict(claim_id, serial_uncached):
    v = get_claim(claim_id).evaluate(full=False)
    assert v.status == QUICK_VERDICTS[claim_id], v.summary()
