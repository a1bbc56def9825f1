"""Assumption (8) (Sec. II-B) of Jadbabaie, Makur and Shah (2023), *Federated Optimization of Smooth Loss
Functions*, ||G^-1|| <= r^alpha: a kernel that satisfies it, the Appendix A logistic example that violates it, and
the vacuity of Theorem 2's hypotheses, decided by ``fedtheory.decide``.

Tests of the catalogue module ``fedtheory_checks.fedlrgd.assumption8``: its helpers against independent computations
and its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS`` injects a
violating computation with monkeypatch and the quick verdict must refute the claim (the rule is ``check_fails_path``
in this folder's conftest.py)."""
import numpy as np
import pytest

from fedtheory import get_claim
from fedtheory.lowrank.algorithms import make_logistic_problem
from fedtheory.lowrank.assumption8 import logistic_node_matrix

ASSUMPTION8 = "fedtheory_checks.fedlrgd.assumption8."


def test_closed_form_taylor_matches_the_sympy_approximant_and_the_eta_chain():
    from fedtheory.lowrank.algorithms import taylor_matrix
    from fedtheory.lowrank.model import Cosine
    from fedtheory_checks.fedlrgd._common import AbsPowerSum
    from fedtheory_checks.fedlrgd.assumption8 import _rank_below_r_scale, eta_ceiling_rows, piecewise_taylor
    rng = np.random.default_rng(9)
    for fn in (Cosine(eta=2.0, L2=1.0, d=1, p=1), AbsPowerSum(eta=2.5, L2=1.0, d=1, p=1)):
        X, Th = rng.uniform(0, 1, (25, 1)), fn.sample_theta(rng, 25)
        with np.errstate(invalid="ignore"):
            assert np.allclose(piecewise_taylor(fn, X, Th, 8), taylor_matrix(fn, X, Th, 8)[0], atol=1e-12)
    assert _rank_below_r_scale(9, 1) == 8 and _rank_below_r_scale(13, 2) == 8  # (l+1) ceil(q/2) = r - 1
    rows = eta_ceiling_rows([(Cosine(eta=2.0, L2=1.0, d=1, p=1), (17, 33))], 0)
    for row in rows:
        assert row["rank_P"] <= row["r"] - 1 and row["sigma_min"] <= row["err_op"] <= row["bound"]


# ----------------------------------------------------------------------------- every claim can fail
def _good_kernel(mp_):  # the node matrix built with max instead of min (a one-character bug)
    def bad(x, theta=None, mu=0.1):
        theta = x if theta is None else theta
        return np.maximum(x[..., :, None], theta[..., None, :]) + mu * theta[..., None, :]
    mp_.setattr(ASSUMPTION8 + "brownian_node_matrix", bad)


def _logistic(mp_):  # the wrong end of the spectrum: 1/sigma_max instead of 1/sigma_min (a fixed alpha then fits)
    def wrong_end(X0, nodes, mu=0.1, **kw):
        from fedtheory.lowrank.assumption8 import InverseNorm
        smax = float(np.linalg.svd(logistic_node_matrix(X0, nodes, mu), compute_uv=False)[:, 0].max())
        return InverseNorm(1.0 / smax, smax, "double")
    mp_.setattr(ASSUMPTION8 + "logistic_inverse_norm", wrong_end)


def _invertible(mp_):  # the data generator repeats a server sample: G singular in exact arithmetic
    orig = make_logistic_problem

    def dup(*a, **k):
        prob = orig(*a, **k)
        X0 = prob.X0.copy()
        X0[3] = X0[2]
        return type(prob)(X0=X0, Xc=prob.Xc, mu=prob.mu)
    mp_.setattr(ASSUMPTION8 + "make_logistic_problem", dup)


def _eta_ceiling(mp_):  # Lemma 1's approximant one degree short (the top Taylor term dropped)
    from fedtheory_checks.fedlrgd import assumption8 as A
    orig = A._x_derivatives
    mp_.setattr(ASSUMPTION8 + "_x_derivatives", lambda fn: orig(fn)[:-1])


M = "fedtheory_checks.fedlrgd."


def test_eta_ceiling_breaks_into_refuted_when_a_link_fails(monkeypatch, serial_uncached):
    """decide.vacuous_given: a Lemma 1 bound ten times too small breaks link (a), so the vacuity is not claimed."""
    from fedtheory_checks.fedlrgd import assumption8 as A
    orig = A.eta_ceiling_rows

    def rows(cases, seed):
        return [dict(r, bound=r["bound"] / 10) for r in orig(cases, seed)]
    monkeypatch.setattr(M + "assumption8.eta_ceiling_rows", rows)
    v = get_claim("fedlrgd.asm8.eta-ceiling").evaluate(full=False)
    assert v.status == "refuted", v.summary()


def test_eta_ceiling_onsets_are_small_and_grow_with_L2():
    from fedtheory_checks.fedlrgd.assumption8 import contradiction_onset
    assert contradiction_onset(6.0) <= 9 and contradiction_onset(6.0, 100.0) >= contradiction_onset(6.0)
    # a huge L2 pushes the onset beyond a short scan: the function reports r_max + 1 (not established there)
    assert contradiction_onset(6.0, 1e30, r_max=50) == 51


FAILS_PATHS = {
    "fedlrgd.asm8.eta-ceiling": _eta_ceiling,
    "fedlrgd.asm8.good-kernel": _good_kernel,
    "fedlrgd.asm8.logistic-violates": _logistic,
    "fedlrgd.asm7.invertible": _invertible,
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
