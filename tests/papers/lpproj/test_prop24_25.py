"""Assumption 3 (eq. (5), Sec. 4.1) and Propositions 24 and 25 (App. A.1) (Han, Li, Lin and Zhang, *A Random
Projection Approach to Personalized Federated Learning*, JMLR 25 (2024)).

Tests of the catalogue module ``fedtheory_checks.lpproj.prop24_25``: its helpers against independent computations
and its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS`` injects a
violating computation with monkeypatch and the quick verdict must refute the claim (the rule is ``check_fails_path``
in this folder's conftest.py)."""
import math

import numpy as np
import pytest

from fedtheory import get_claim
from fedtheory.lpproj import make_projection

REMAINING = "fedtheory_checks.lpproj.prop24_25"


def _s_from_half_the_edge(mp):
    # s read as 0.5 sqrt(d_sub/d) (half the Marchenko-Pastur edge) instead of measured from P
    mp.setattr(f"{REMAINING}._measured_s", lambda P: 0.5 * math.sqrt(P.shape[0] / P.shape[1]))


def _projection_orthonormal_rows_dropped(mp):
    # a rank-deficient "P" (last row copies the first): P P^T is singular
    def bad(d_sub, d, *, orthonormal=True, seed=0):
        P = make_projection(d_sub, d, orthonormal=orthonormal, seed=seed)
        P[-1] = P[0]
        return P

    mp.setattr(f"{REMAINING}.make_projection", bad)


M = "fedtheory_checks.lpproj"


def _projection_columns_normalised(mp):
    # P normalised by columns instead of rows: s(P) ~ sqrt(d/d_sub), no constant C works out of sample
    from fedtheory.random import as_generator

    def bad(d_sub, d, *, orthonormal=True, seed=0):
        P = as_generator(seed).standard_normal((d_sub, d))
        return P / np.linalg.norm(P, axis=0, keepdims=True)

    mp.setattr(f"{M}.prop24_25.make_projection", bad)
    mp.setattr(f"{M}.prop24_25.PROP24_FIT", ((100, 5), (400, 20)))  # shrink what runs
    mp.setattr(f"{M}.prop24_25.PROP24_TEST", ((4000, 10),))


FAILS_PATHS = {
    "lpproj.prop25.norm-bounds": _s_from_half_the_edge,
    "lpproj.prop24.gram-matrix.erratum": _projection_orthonormal_rows_dropped,
    "lpproj.prop24.singular-values": _projection_columns_normalised,
}


#: quick-mode verdicts of the unpatched claims (lpproj.sec53.savings: the 79x matches no ratio of Table 1, no typo-level fix)
QUICK_VERDICTS = {
    "lpproj.prop25.norm-bounds": "holds",
    "lpproj.prop24.gram-matrix.erratum": "erratum",
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])


@pytest.mark.parametrize("claim_id", sorted(QUICK_VERDICTS))
def test_claim_quick_verdict(claim_id, serial_uncached):
    v = get_claim(claim_id).evaluate(full=False)
    assert v.status == QUICK_VERDICTS[claim_id], v.summary()
