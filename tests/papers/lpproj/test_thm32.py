"""Theorem 32 and the text of App. B.4 (fairness; informal version: Proposition 18, Sec. 4.2) (Han, Li, Lin and
Zhang, *A Random Projection Approach to Personalized Federated Learning*, JMLR 25 (2024)).

Tests of the catalogue module ``fedtheory_checks.lpproj.thm32``: its helpers against independent computations and
its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS`` injects a violating
computation with monkeypatch and the quick verdict must refute the claim (the rule is ``check_fails_path`` in this
folder's conftest.py)."""
import numpy as np
import pytest

from fedtheory import get_claim

M = "fedtheory_checks.lpproj"


def _wrap(monkeypatch, target, make):
    """Replace ``target`` ("module.attr") by ``make(original)``."""
    import importlib

    mod, attr = target.rsplit(".", 1)
    monkeypatch.setattr(target, make(getattr(importlib.import_module(mod), attr)))


def _eq49_without_half(mp):
    _wrap(mp, f"{M}.thm32.eq49_pair_sum", lambda orig: (lambda W, variant="corrected": orig(W, "printed")))


def _vl2_unprojected(mp):
    # V^l2 computed without the projection (as V^Me)
    _wrap(mp, f"{M}.thm32.fairness_V",
          lambda orig: (lambda method, lam, W, **k: orig("pfedme" if method == "lp-proj-2" else method, lam, W, **k)))


def _kw(**over):
    """A wrapper factory that calls the original with some keyword arguments overridden."""
    return lambda orig: (lambda *a, **k: orig(*a, **{**k, **over}))


# ----------------------------------------------------------------------------- Sec. 4.3, App. B.4
def _fairness_avg_b_not_squared(mp):
    _wrap(mp, f"{M}.thm32.fairness_V",
          lambda orig: (lambda method, lam, W, *, b=1.0, P=None:
                        orig(method, lam, W, b=b, P=P) / (b if method == "fedavg" else 1.0)))


def _fairness_printed_constant(mp, n_samples=5000):
    _wrap(mp, f"{M}.thm32.expected_fairness_V", _kw(variant="printed"))
    _wrap(mp, f"{M}.thm32.mc_mean", lambda orig: (lambda sampler, n, seed, **k: orig(sampler, n_samples, seed, **k)))


def _pfedme_weights_swapped(mp):
    # pFedMe's x_k = (lam w_hat_k + b m)/(b + lam): the weights of the local estimate and of the average swapped,
    # so V^Me falls in lambda while V^l2 still rises: neither monotone reading holds (with both methods swapped the
    # printed 'decreasing' reading would hold, which the kit reports as holds)
    _wrap(mp, f"{M}._common.closed_form_models",
          lambda orig: (lambda method, wh, lam, b, P=None, **k:
                        orig(method, wh, (b * b / lam if lam > 0 else np.inf) if method == "pfedme" else lam, b, P,
                             **k)))


def _sampler_ignores_b(mp):
    # training noise drawn with variance sigma^2/n instead of sigma^2/(b n) (b = 1.2 in the claim)
    from fedtheory.lpproj import LinearFLProblem

    def bad(self, rng, reps):
        return self.W + self.sigma / np.sqrt(self.n) * rng.standard_normal((reps, self.N, self.d))

    mp.setattr(LinearFLProblem, "sample_w_hat", bad)


FAILS_PATHS = {
    "lpproj.eq49d.identity.erratum": _eq49_without_half,
    "lpproj.appB4.vl2-exceeds-vme": _vl2_unprojected,
    "lpproj.thm32.fairness-exact": _fairness_avg_b_not_squared,
    "lpproj.thm32.fairness-constant.erratum": _fairness_printed_constant,
    "lpproj.appB4.fairness-monotone.erratum": _pfedme_weights_swapped,
    "lpproj.appB4.per-client-losses-mc": _sampler_ignores_b,
}


#: quick-mode verdicts of the unpatched claims
QUICK_VERDICTS = {
    "lpproj.eq49d.identity.erratum": "erratum",
    "lpproj.appB4.vl2-exceeds-vme": "holds",
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])


@pytest.mark.parametrize("claim_id", sorted(QUICK_VERDICTS))
def test_claim_quick_verdict(claim_id, serial_uncached):
    v = get_claim(claim_id).evaluate(full=False)
    assert v.status == QUICK_VERDICTS[claim_id], v.summary()
