"""Sec. III-A of Jadbabaie, Makur and Shah (2023), *Federated Optimization of Smooth Loss Functions*, IEEE Trans.
Inf. Theory: Theorem 1 (the singular-value tail of a latent variable model, eqs. (29)-(31), proved in Sec. IV-B) for
l = 1 and for l = 2, 3, the shape of its bound with inequality (52), and the volumetric count (51) of its proof.
Verdicts come from ``fedtheory.decide``.

Tests of the catalogue module ``fedtheory_checks.fedlrgd.thm1``: its helpers against independent computations and
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


def _svd_tail(mp):  # "tail" summed over the leading singular values (sum_{i <= r}) instead of the trailing ones
    _patch(mp, M + "thm1.svd_tail", lambda f: lambda A: (lambda t: t[0] - t)(f(A)))
    _patch(mp, M + "thm1._latent_cases", lambda f: lambda seed, size: f(seed, size)[:2])
    mp.setattr(M + "thm1._eta_gt2_functions", lambda d: [])


def _bound_shape(mp):  # the Theorem 1 bound with the printed denominator (l)^2
    _patch(mp, M + "thm1.theorem1_bound",
           lambda f: lambda r, d=2, eta=2.0, L2=1.0, variant="corrected": f(r, d, eta, L2, variant="printed"))


REMAINING = "fedtheory_checks.fedlrgd.thm1"


def _taylor_no_sfact(mp):  # Taylor coefficients without 1/s! (l! dropped in the approximant (49))
    path = "fedtheory.lowrank.algorithms._taylor_terms"
    _patch(mp, path, lambda f: lambda fn: [(s, 1, g) for s, _, g in f(fn)])


def _monomials_off_by_one(mp):  # D = C(l+d-1, d): monomials of degree < l
    mp.setattr(REMAINING + "._monomials", lambda l, d: math.comb(l + d - 1, d))


FAILS_PATHS = {
    "fedlrgd.thm1.svd-tail": _svd_tail,
    "fedlrgd.thm1.bound-shape": _bound_shape,
    "fedlrgd.thm1.high-order": _taylor_no_sfact,
    "fedlrgd.eq51.volumetric": _monomials_off_by_one,
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
