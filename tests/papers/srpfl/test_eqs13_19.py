"""Appendix A, eqs. (13)-(19) of Tziotis, Shen, Pedarsani, Hassani and Mokhtari, *Straggler-Resilient Personalized
Federated Learning* (TMLR 2023; arXiv eqs. (12)-(18)): one FedRep-SRPFL round in closed form.

Tests of the catalogue module ``fedtheory_checks.srpfl.eqs13_19``: its helpers against independent computations and
its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS`` injects a violating
computation with monkeypatch and the quick verdict must refute the claim (the rule is ``check_fails_path`` in this
folder's conftest.py)."""
import numpy as np
import pytest

from fedtheory.claims import FAILS, HOLDS
from fedtheory.srpfl.meta import grad_B_LN, grad_W_LN, loss_LN
from fedtheory_checks.srpfl import alg1, contribution2, eqs13_19, remark4_8


def _batch(seed=0, d=8, k=2, n=4, m=7):
    g = np.random.default_rng(seed)
    return g.standard_normal((d, k)), g.standard_normal((n, k)), g.standard_normal((n, m, d)), g.standard_normal((n, m))


# ------------------------------------------------------------------ library: fedtheory.srpfl.meta
def test_gradients_match_finite_differences():
    B, W, X, Y = _batch()
    fdB = eqs13_19.central_differences(lambda b: loss_LN(b, W, X, Y), B, 1e-5)
    fdW = eqs13_19.central_differences(lambda w: loss_LN(B, w, X, Y), W, 1e-5)
    assert np.allclose(grad_B_LN(B, W, X, Y), fdB, atol=1e-8)
    assert np.allclose(grad_W_LN(B, W, X, Y), fdW, atol=1e-8)


# ------------------------------------------------------------------ decisions: fails paths
def test_relative_fails_on_large_error():
    assert eqs13_19.decide_relative({"a": 1e-12, "b": 0.5}, 1e-7, "x")["status"] == FAILS
    assert eqs13_19.decide_relative({"a": 1e-12}, 1e-7, "x")["status"] == HOLDS


# ------------------------------------------------------------------ holds paths on the real numbers (cheap ones)
@pytest.mark.parametrize("cid", ["srpfl.eqs13-15.gradients", "srpfl.eqs16-19.closed-form"])
def test_identity_claims_hold(cid):
    from fedtheory import get_claim
    assert get_claim(cid).evaluate(full=False).status == HOLDS


S = "fedtheory_checks.srpfl"


SEC3_FIGS = f"{S}.eqs13_19"


def _wrap(monkeypatch, target, make):
    """Replace ``target`` ("module.attr") by ``make(original)``."""
    import importlib

    mod, attr = target.rsplit(".", 1)
    monkeypatch.setattr(target, make(getattr(importlib.import_module(mod), attr)))


# ----------------------------------------------------------------------------- Section 3 formulas, Algorithm 1
def _eqs13_15(mp):
    # bug: the gradient (14) without its 1/n (sum over clients instead of the mean)
    _wrap(mp, f"{SEC3_FIGS}.grad_B_LN", lambda orig: lambda B, W, X, Y: orig(B, W, X, Y) * np.shape(X)[0])


def _eqs16_19(mp):
    # bug: the representation step (18) scaled by eta/n instead of eta/(mn) (the 1/m forgotten)
    _wrap(mp, f"{SEC3_FIGS}.closed_form_round", lambda orig: lambda B, X, Y, eta: orig(B, X, Y, eta * np.shape(X)[1]))


FAILS_PATHS = {
    "srpfl.eqs13-15.gradients": _eqs13_15,
    "srpfl.eqs16-19.closed-form": _eqs16_19,
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
