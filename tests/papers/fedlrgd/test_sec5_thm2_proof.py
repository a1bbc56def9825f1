"""Sec. V of Jadbabaie, Makur and Shah (2023), *Federated Optimization of Smooth Loss Functions*, IEEE Trans. Inf.
Theory (the proof of Theorem 2): Lemma 2 and (53) on the actual error sequence, the chain (54)-(64) on instrumented
FedLRGD runs with the erratum of steps (iv)-(vii) of (60), and the choice of r. Verdicts come from
``fedtheory.decide``.

Tests of the catalogue module ``fedtheory_checks.fedlrgd.sec5_thm2_proof``: its helpers against independent
computations and its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS``
injects a violating computation with monkeypatch and the quick verdict must refute the claim (the rule is
``check_fails_path`` in this folder's conftest.py)."""
import dataclasses
import inspect

import numpy as np
import pytest

from fedtheory import get_claim
from fedtheory.lowrank import chain as ch

CHAIN = "fedtheory_checks.fedlrgd.sec5_thm2_proof."


LIB_CHAIN = "fedtheory.lowrank.chain."


# ----------------------------------------------------------------------------- fails paths
def _fresh(mp):
    mp.setattr("fedtheory_checks.fedlrgd._common._CACHE", {})


def _orig(path):
    mod, name = path.rsplit(".", 1)
    return getattr(__import__(mod, fromlist=[name]), name)


def _weights(mp):  # weights solved with G instead of G^T (w_j = G^{-1} row_j): a transposition bug
    _fresh(mp)
    mp.setattr(LIB_CHAIN + "explicit_weights", lambda G, Gc: np.linalg.solve(G, Gc.T).T)


def _l1(mp):  # B of (9) taken as the regulariser's part mu R only (the data terms dropped)
    _fresh(mp)
    mp.setattr(ch.PolyTanhKernel, "bound", lambda self, R: self.mu * R)


def _approx(mp):  # monomials phi_w(x) evaluated as x^(v + e_1): the constant monomial is lost
    _fresh(mp)
    f = _orig(LIB_CHAIN + "monomial_matrix")
    mp.setattr(LIB_CHAIN + "monomial_matrix", lambda X, q, l: f(X, q, l) * np.asarray(X, float)[:, 0][None, :])


def _eq59(mp):  # the same transposition bug in w_j: ||a_j - w_j|| is then far above (59)'s bound
    _weights(mp)


def _eq60(mp):  # (60)'s right side without the factor (2 + B + L2/(l! q^eta))^2
    _fresh(mp)
    f = _orig(LIB_CHAIN + "_eq60")  # the kernel of eq60_steps, which fedlrgd_chain evaluates at every iterate
    sig = inspect.signature(f)

    def steps(*a, **kw):
        args = sig.bind(*a, **kw).arguments
        out = f(**args)
        out["(viii)"] = out["(viii)"] / (2 + args["B"] + args["eps"]) ** 2
        return out
    mp.setattr(LIB_CHAIN + "_eq60", steps)


def _eq6364(mp):  # L1 taken as 1.5 mu (condition number 1.5): the run's step 1/L1 is too long
    _fresh(mp)
    mp.setattr(ch.KernelProblem, "L1", property(lambda self: 1.5 * self.kernel.mu))


def _step_iv(mp):  # the "corrected" grouping silently evaluated as printed
    _fresh(mp)
    f = _orig(LIB_CHAIN + "_eq60")  # the kernel of eq60_steps, which fedlrgd_chain evaluates at every iterate
    sig = inspect.signature(f)

    def printed(*a, **kw):
        args = sig.bind(*a, **kw).arguments
        args["grouping"] = "printed"
        return f(**args)
    mp.setattr(LIB_CHAIN + "_eq60", printed)


M = "fedtheory_checks.fedlrgd."


def _patch(monkeypatch, path, make):
    """monkeypatch ``path`` with ``make(original)``."""
    monkeypatch.setattr(path, make(_orig(path)))


def _eq53(mp):  # F* from a minimiser stopped early: every optimality gap too large by 5% of the initial gap
    _patch(mp, M + "sec5_thm2_proof.run_fedlrgd",
           lambda f: lambda *a, **k: (lambda res: dataclasses.replace(res, gap=res.gap + 0.05 * res.gap[0]))(f(*a, **k)))


REMAINING = "fedtheory_checks.fedlrgd.sec5_thm2_proof"


def _S_plus_one(mp):  # (48) with one iteration too many
    _patch(mp, REMAINING + ".theorem2_S", lambda f: lambda **k: f(**k) + 1)


def test_premise_never_met_is_inconclusive_with_a_computed_size(monkeypatch, serial_uncached):
    """decide.premised: if (59)'s premise held on no run, the claim is inconclusive with the runs that would meet it."""
    from fedtheory_checks.fedlrgd import sec5_thm2_proof as T
    orig = T._runs
    monkeypatch.setattr(M + "sec5_thm2_proof._runs", lambda full, seed: [
        (lab, dataclasses.replace(c, scalars={**c.scalars, "premise59": False})) for lab, c in orig(full, seed)])
    v = get_claim("fedlrgd.eq59.coefficient-distance").evaluate(full=False)
    assert v.status == "inconclusive", v.summary()
    assert v.power["needed"] > v.power["current"]


FAILS_PATHS = {
    "fedlrgd.thm2.weight-l1-bound": _l1,
    "fedlrgd.eq54-58.approximant": _approx,
    "fedlrgd.eq59.coefficient-distance": _eq59,
    "fedlrgd.eq60-62.gradient-error": _eq60,
    "fedlrgd.eq63-64.chain": _eq6364,
    "fedlrgd.eq60.step-iv.erratum": _step_iv,
    "fedlrgd.eq53.lemma2": _eq53,
    "fedlrgd.secV.choice-of-r": _S_plus_one,
}


#: quick-mode verdicts of the unpatched claims
QUICK_VERDICTS = {
    "fedlrgd.thm2.weight-l1-bound": "holds",
    "fedlrgd.eq54-58.approximant": "holds",
    "fedlrgd.eq59.coefficient-distance": "holds",
    "fedlrgd.eq60-62.gradient-error": "holds",
    "fedlrgd.eq63-64.chain": "holds",
    "fedlrgd.eq60.step-iv.erratum": "erratum",
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])


@pytest.mark.parametrize("claim_id", sorted(QUICK_VERDICTS))
def test_claim_quick_verdict(claim_id, serial_uncached):
    v = get_claim(claim_id).evaluate(full=False)
    assert v.status == QUICK_VERDICTS[claim_id], v.summary()
