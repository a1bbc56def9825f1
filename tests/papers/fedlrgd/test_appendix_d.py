"""Appendix D of Jadbabaie, Makur and Shah (2023), *Federated Optimization of Smooth Loss Functions*, IEEE Trans.
Inf. Theory (proof of Theorem 3): the sandwich (85), the discriminant of (87) with the sufficient thresholds implied
by (88), the note "T >= T0" after (81), and Lemma 4, decided by ``fedtheory.decide``. Lemma 3 and the constant C of
(78) are checked on measured FedAve runs in :mod:`.fedave_runs`.

Tests of the catalogue module ``fedtheory_checks.fedlrgd.appendix_d``: its helpers against independent computations
and its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS`` injects a
violating computation with monkeypatch and the quick verdict must refute the claim (the rule is ``check_fails_path``
in this folder's conftest.py)."""
import math

import numpy as np
import pytest

from fedtheory import get_claim
from fedtheory.lowrank.fedave import lemma3_T0
from fedtheory.lowrank.theory import fedave_b_star_viete, fedave_constraint_T, fedave_gamma_numeric
from fedtheory_checks.fedlrgd import appendix_d as A

APPENDIX_D = "fedtheory_checks.fedlrgd.appendix_d."


# ----------------------------------------------------------------------------- the referees
@pytest.mark.parametrize("b, m, et, C", [(1.0, 10, 1.0, 1.0), (37.5, 1000, 1e-4, 100.0), (1e-3, 5, 1e-6, 0.01),
                                         (5e4, 100, 0.3, 2.0)])
def test_T_root_solves_the_constraint_and_is_smallest(b, m, et, C):
    """The referee's T meets the constraint of (79) with equality, and a slightly smaller T violates it."""
    T = A._T_root(b, m, et, C)
    lhs = lambda t: m ** 2 / (t * b) ** 2 + b / (m * t)  # noqa: E731
    assert lhs(T) == pytest.approx(et / C, rel=1e-13)
    assert lhs(T * (1 - 1e-9)) > et / C
    # and it agrees with the closed form (80) of fedtheory
    assert float(fedave_constraint_T(b, m, et, C)) == pytest.approx(T, rel=1e-12)


@pytest.mark.parametrize("m, phi, tau, et, C", [(10, 0.5, 1.0, 1.0, 0.01), (1000, 100.0, 0.5, 1e-4, 100.0),
                                                (100, 5.0, 0.1, 1e-2, 1.0)])
def test_gamma_referee_against_dense_grid(m, phi, tau, et, C):
    """Brute force: T(b)(b + phi tau m) on 200k log-spaced b, with T = 1/s from the positive root of the constraint
    written as a quadratic in s = 1/T (a different formula from (80), which solves the quadratic in T)."""
    b = np.logspace(-8, math.log10(1e6 * m), 200001)
    # the constraint in s = 1/T: (m^2/b^2) s^2 + (b/m) s - et/C = 0, positive root
    qa, qb, qc = m ** 2 / b ** 2, b / m, -et / C
    s = -2 * qc / (qb + np.sqrt(qb ** 2 - 4 * qa * qc))  # the positive root, in cancellation-free form
    brute = float(np.min((1 / s) * (b + phi * tau * m)))
    G_ref, _ = A._gamma_ref(m, phi, tau, et, C)
    assert G_ref <= brute * (1 + 1e-12)
    assert G_ref == pytest.approx(brute, rel=1e-6)
    assert fedave_gamma_numeric(m, phi, tau, et, C)[0] == pytest.approx(G_ref, rel=1e-9)


@pytest.mark.parametrize("m, phi, tau, et, C", [(100, 100.0, 1.0, 0.01, 1.0), (1000, 400.0, 0.5, 1e-6, 100.0)])
def test_g_min_referee_equals_g_at_viete_root(m, phi, tau, et, C):
    C1, C2, C3 = C / (2 * m * et), m * math.sqrt(C / et), phi * tau * m
    bv = fedave_b_star_viete(m, phi, tau, et, C)
    gmin, bmin = A._g_min_ref(m, phi, tau, et, C)
    assert gmin == pytest.approx((C1 * bv + C2 / bv) * (bv + C3), rel=1e-12)
    assert bmin == pytest.approx(bv, rel=1e-5)


def test_sandwich_constant_two_is_approached_but_not_exceeded():
    """(81)'s factor: T/x = (r + sqrt(r^2 + 1))/(r + 1), r = a/c, tends to 2 (never reaches it), so (85)'s 2 is sharp
    for T at fixed b; the ratio Gamma/min g of the claim stays well inside."""
    r = np.logspace(-6, 8, 1001)
    ratio = (r + np.sqrt(r ** 2 + 1)) / (r + 1)
    assert np.all(ratio >= 1) and np.all(ratio < 2) and ratio[-1] > 1.99999


# ----------------------------------------------------------------------------- symbolic part
def test_symbolic_checks_all_pass():
    out = A._symbolic_checks()
    assert len(out) == 11 and all(ok for _, ok in out), [n for n, ok in out if not ok]


def test_symbolic_discriminant_check_detects_a_wrong_printed_form(monkeypatch):
    import sympy as sp

    monkeypatch.setattr(A, "_printed_discriminant", lambda phi, tau, m, eps, C: phi ** 2 * tau ** 2 * m ** 6
                        * sp.sqrt(eps / C) * (phi ** 2 * tau ** 2 / 2 - 26 * sp.sqrt(eps / C)))
    out = dict(A._symbolic_checks())
    assert out["discriminant identity"] is False


def test_symbolic_threshold_check_detects_a_threshold_above_40(monkeypatch):
    monkeypatch.setitem(A.THRESHOLDS, "Lemma 4: t <= 1", "41")
    out = A._symbolic_checks()
    bad = [n for n, ok in out if not ok]
    assert any("Lemma 4: t <= 1" in n for n in bad)


def test_lemma4_t_on_88_boundary_is_6sqrt3_over_40():
    """On (88)'s boundary with eps~ = 1 the t of Lemma 4 is exactly 6 sqrt(3)/40, from the Viete argument."""
    m, tau, et, C = 100, 1.0, 1.0, 1.0
    phi = 40 / (C ** 0.25 * tau)
    C1, C2, C3 = C / (2 * m * et), m * math.sqrt(C / et), phi * tau * m
    arg = 1 - 54 * C2 / (C1 * C3 ** 2)
    assert math.sqrt(1 - arg) == pytest.approx(6 * math.sqrt(3) / 40, rel=1e-13)


# ----------------------------------------------------------------------------- T >= T0
def test_T_at_least_sqrt2_x_cubed_for_every_b():
    """AM-GM step of corrected_T0_condition: T(b) >= sqrt(2) (C/eps~)^{3/4} for all b (T by root finding)."""
    for m, et, C in [(10, 1.0, 1.0), (1000, 1e-5, 100.0)]:
        x = (C / et) ** 0.25
        for b in np.logspace(-3, 6, 37):
            assert A._T_root(float(b), m, et, C) >= math.sqrt(2) * x ** 3 * (1 - 1e-12)


def test_printed_note_fails_at_eps_one():
    """m = 10, eps~ = C = 1, mu = 0.1: T at both integer neighbours of b* is far below Lemma 3's T0."""
    m, tau, et, C, mu, kappa = 10, 1.0, 1.0, 1.0, 0.1, 2.0
    phi = 100.0
    bs = fedave_b_star_viete(m, phi, tau, et, C)
    for b in (math.floor(bs), math.ceil(bs)):
        assert A._T_root(b, m, et, C) < lemma3_T0(kappa, tau, m, mu, b) / 100


def test_corrected_condition_monotone_in_eps_and_sufficient():
    m, tau, C, mu, kappa = 1000, 1.0, 1.0, 0.1, 2.0
    flags = [A.corrected_T0_condition(m, tau, et, C, mu, kappa) for et in 10.0 ** -np.arange(0, 12)]
    assert flags[0] is False and flags[-1] is True
    assert flags == sorted(flags)  # once true, stays true as eps~ shrinks
    phi = 100.0
    for et in 10.0 ** -np.arange(0, 12):
        if A.corrected_T0_condition(m, tau, et, C, mu, kappa):
            bs = fedave_b_star_viete(m, phi, tau, et, C)
            for b in {max(1, math.ceil(bs)), max(1, math.floor(bs))}:
                assert A._T_root(b, m, et, C) >= lemma3_T0(kappa, tau, m, mu, b)


@pytest.mark.parametrize("kw, msg", [(dict(mu=0.0), r"`mu` must be in \(0, inf\)"),
                                     (dict(tau=1.5), r"`tau` must be in \(0, 1\]"),
                                     (dict(eps_t=-1.0), r"`eps_t` must be in \(0, inf\)"),
                                     (dict(C=float("nan")), r"`C`"),
                                     (dict(kappa=0.5), r"`kappa` must be in \[1, inf\)"),
                                     (dict(m=0), r"`m`")])
def test_corrected_condition_rejects_bad_input(kw, msg):
    args = dict(m=10, tau=1.0, eps_t=1.0, C=1.0, mu=0.1, kappa=2.0)
    args.update(kw)
    with pytest.raises(ValueError, match=msg):
        A.corrected_T0_condition(**args)


# ----------------------------------------------------------------------------- fails paths
def _eq85(monkeypatch):
    """Gamma three times too large: outside the sandwich and far from the referee."""
    orig = A.fedave_gamma_numeric
    monkeypatch.setattr(APPENDIX_D + "fedave_gamma_numeric", lambda *a: (3 * orig(*a)[0],) + tuple(orig(*a)[1:]))


def _disc(monkeypatch):
    """Viete root 1.5 times too large: outside Lemma 4's bracket and not stationary for g."""
    orig = A.fedave_b_star_viete
    monkeypatch.setattr(APPENDIX_D + "fedave_b_star_viete", lambda *a: 1.5 * orig(*a))


def _T0(monkeypatch):
    """Lemma 3's T0 a thousand times larger: the corrected form then fails its referee too."""
    orig = A.lemma3_T0
    monkeypatch.setattr(APPENDIX_D + "lemma3_T0", lambda *a: 1000 * orig(*a))


def test_discriminant_claim_fails_on_a_wrong_printed_form(monkeypatch, serial_uncached):
    import sympy as sp

    monkeypatch.setattr(APPENDIX_D + "_printed_discriminant", lambda phi, tau, m, eps, C: 2 * phi ** 2 * tau ** 2 * m ** 6
                        * sp.sqrt(eps / C) * (phi ** 2 * tau ** 2 / 2 - 27 * sp.sqrt(eps / C)))
    v = get_claim("fedlrgd.appD.discriminant").evaluate(full=False)
    assert v.status == "refuted", v.summary()


M = "fedtheory_checks.fedlrgd."


def _lemma4(mp):  # first-order coefficient 1/sqrt(3) instead of 1/sqrt(6)
    mp.setattr(M + "appendix_d.lemma4_gap",
               lambda t: (np.abs(np.sin(np.arcsin(1 - t ** 2) / 3 + 2 * np.pi / 3) - 0.5 - t / math.sqrt(3)), 5 * t ** 2 / 9))


# ----------------------------------------------------------------------------- the kit at work
def test_T0_note_holds_when_T0_is_small(monkeypatch, serial_uncached):
    """decide.combine over the printed note and its repair: with Lemma 3's T0 a thousand times smaller the printed
    note holds everywhere and the verdict is holds (the refutation is the numbers', not a hard-coded label)."""
    from fedtheory_checks.fedlrgd import appendix_d as A
    orig = A.lemma3_T0
    monkeypatch.setattr(M + "appendix_d.lemma3_T0", lambda *a: orig(*a) / 1000)
    v = get_claim("fedlrgd.appD.T-ge-T0").evaluate(full=False)
    assert v.status == "holds", v.summary()


FAILS_PATHS = {
    "fedlrgd.eq85.sandwich": _eq85,
    "fedlrgd.appD.discriminant": _disc,
    "fedlrgd.appD.T-ge-T0": _T0,
    "fedlrgd.lemma4": _lemma4,
}


#: quick-mode verdicts of the unpatched claims
QUICK_VERDICTS = {
    "fedlrgd.eq85.sandwich": "holds",
    "fedlrgd.appD.discriminant": "holds",
    "fedlrgd.appD.T-ge-T0": "refuted",
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])


@pytest.mark.parametrize("claim_id", sorted(QUICK_VERDICTS))
def test_claim_quick_verdict(claim_id, serial_uncached):
    v = get_claim(claim_id).evaluate(full=False)
    assert v.status == QUICK_VERDICTS[claim_id], v.summary()
