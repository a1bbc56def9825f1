"""Appendix E of Jadbabaie, Makur and Shah (2023), *Federated Optimization of Smooth Loss Functions*, IEEE Trans.
Inf. Theory (proof of Proposition 1): the erratum of its estimate of the first term of r in (47). Proposition 1
itself is in :mod:`.sec3d_fedave` and, on measured runs, in :mod:`.fedave_runs`. Verdicts come from
``fedtheory.decide``.

Tests of the catalogue module ``fedtheory_checks.fedlrgd.appendix_e``: its helpers against independent computations
and its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS`` injects a
violating computation with monkeypatch and the quick verdict must refute the claim (the rule is ``check_fails_path``
in this folder's conftest.py)."""
import pytest

REMAINING = "fedtheory_checks.fedlrgd.appendix_e"


def _appE_corrected_wrong(mp):  # corrected form with exponent d - 1
    from fractions import Fraction
    mp.setattr(REMAINING + "._appE_bounds", lambda d, c2, alpha: (Fraction(2 * c2 + 4 * alpha + 6),
                                                           Fraction(2 * c2 + 4 * alpha + 6) ** (d - 1)))


FAILS_PATHS = {
    "fedlrgd.appE.first-term.erratum": _appE_corrected_wrong,
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
