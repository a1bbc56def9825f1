"""FedAve (Sec. III-D) as analysed by Jadbabaie, Makur and Shah (2023), *Federated Optimization of Smooth Loss
Functions*, run exactly (FedPAQ without quantisation): Lemma 3 and the constant C of (78) (Appendix D), Theorem 3
(proved in Appendix D) and Proposition 1 (proved in Appendix E) on measured oracle complexities, decided by
``fedtheory.decide``. The figure script ``fedtheory_reproductions.fedlrgd_fedave`` reuses its problem and run
functions.

Tests of the catalogue module ``fedtheory_checks.fedlrgd.fedave_runs``: its helpers against independent computations
and its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS`` injects a
violating computation with monkeypatch and the quick verdict must refute the claim (the rule is ``check_fails_path``
in this folder's conftest.py)."""
import dataclasses

import pytest

from fedtheory import get_claim

FEDAVE_RUNS = "fedtheory_checks.fedlrgd.fedave_runs."


def _orig(path):
    mod, name = path.rsplit(".", 1)
    return getattr(__import__(mod, fromlist=[name]), name)


def _patch(monkeypatch, path, make):
    """monkeypatch ``path`` with ``make(original)``."""
    monkeypatch.setattr(path, make(_orig(path)))


def _lemma3(mp):  # Lemma 3's bound a million times smaller
    _patch(mp, FEDAVE_RUNS + "lemma3_terms", lambda f: lambda *a, **k: f(*a, **k) / 1e6)


def _eq78(mp):  # a run whose gap stalls at a floor 1e-4 (no 1/T decay)
    _patch(mp, FEDAVE_RUNS + "run_fedave", lambda f: lambda *a, **k: dataclasses.replace(f(*a, **k), gap=f(*a, **k).gap + 1e-4))


def _thm3_runs(mp):  # Theorem 3's bracket a million times smaller
    _patch(mp, FEDAVE_RUNS + "fedave_bracket", lambda f: lambda *a: tuple((x / 1e6, y / 1e6) for x, y in f(*a)))


def _prop1_runs(mp):  # FedLRGD's Gamma growing like m^2 faster than measured
    _patch(mp, FEDAVE_RUNS + "fedlrgd_min_gamma",
           lambda f: lambda prob, *a, **k: (lambda g: (g[0] * prob.Xc.shape[0] ** 2,) + g[1:])(f(prob, *a, **k)))


FAILS_PATHS = {
    "fedlrgd.lemma3.runs": _lemma3,
    "fedlrgd.eq78.constant": _eq78,
    "fedlrgd.thm3.runs": _thm3_runs,
    "fedlrgd.prop1.runs": _prop1_runs,
}


#: quick-mode verdicts of the unpatched claims
QUICK_VERDICTS = {
    "fedlrgd.lemma3.runs": "holds",
    "fedlrgd.eq78.constant": "holds",
    "fedlrgd.thm3.runs": "holds",
    "fedlrgd.prop1.runs": "holds",
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])


@pytest.mark.parametrize("claim_id", sorted(QUICK_VERDICTS))
def test_claim_quick_verdict(claim_id, serial_uncached):
    v = get_claim(claim_id).evaluate(full=False)
    assert v.status == QUICK_VERDICTS[claim_id], v.summary()
