"""Every srpfl claim can fail: a violating computation (mostly a realistic bug injected with
monkeypatch into a function the claim calls) must give ``fails``, never ``inconclusive``.

For errata the fails path is "the corrected form fails the referee". Patches also shrink what runs
where the claim would otherwise take long (the file stays well under a minute)."""
import functools
import math

import numpy as np
import pytest

from fedtheory import get_claim, get_paper

S = "fedtheory_checks.srpfl"


def _wrap(monkeypatch, target, make):
    """Replace ``target`` ("module.attr") by ``make(original)``."""
    mod, attr = target.rsplit(".", 1)
    import importlib

    orig = getattr(importlib.import_module(mod), attr)
    monkeypatch.setattr(target, make(orig))


# ----------------------------------------------------------------------------- Algorithm 2, Theorem 4.7
def _line16(mp):
    # bug: the run ignores `carry` and always hands the pre-QR average to the next stage, so the
    # corrected form (carry the QR factor) fails the referee (orthonormality on the exact run)
    _wrap(mp, f"{S}.alg2.run_srpfl", lambda orig: lambda **kw: orig(**{**kw, "carry": "pre_qr"}))


def _stepsize(mp):
    # bug: the diversity constants computed from W*_I instead of W*_I / sqrt(n)
    _wrap(mp, f"{S}.thm4_7.client_diversity", lambda orig: lambda W, n, **k: orig(W * math.sqrt(n), n, **k))


def _contraction(mp):
    # bug: the bound of (10) without its additive term a / sqrt((n/n0)(1-a)); one run at m = 120
    mp.setattr(f"{S}.thm4_7.CONTRACTION_GRID", {False: ((120,), 1), True: ((120,), 1)})
    mp.setattr(f"{S}.thm4_7.contraction_bound", lambda dist, a, r: np.asarray(dist) * np.sqrt(1 - np.asarray(a)))


def _noise_floor(mp):
    # bug: the floor D without the (1 - a) under the square root
    mp.setattr(f"{S}.thm4_7.noise_floor",
               lambda a, r: np.asarray(a) / (np.sqrt(np.asarray(r, float)) * (1 - np.sqrt(1 - np.asarray(a)))))


def _floor_pred(mp):
    # bug: the noiseless runs silently use the default noise level (sigma dropped); one run
    _wrap(mp, f"{S}.thm4_7._runs",
          lambda orig: lambda full, seed, **kw: orig(full, seed, **{**kw, "sigma": 0.5, "seeds": 1}))


# ----------------------------------------------------------------------------- Appendix A
def _lemA2(mp):
    # bug: the decomposition uses a stale step size (1% off), so (142) no longer closes; one run
    _wrap(mp, f"{S}.appendix_a._runs", lambda orig: lambda full, seed, **kw: orig(full, seed, **{**kw, "seeds": 1}))
    _wrap(mp, "fedtheory.srpfl.algorithms.round_decomposition",
          lambda orig: lambda B, X, y, Bs, W, eta, *a: orig(B, X, y, Bs, W, 1.01 * eta, *a))


def _eq116(mp):
    # bug: the server skips the QR step, so B_hat is not orthonormal (precondition of (116))
    import fedtheory.srpfl.algorithms as alg
    from fedtheory_checks.srpfl._common import _ROUND_FUNCS

    for name in _ROUND_FUNCS:
        if callable(getattr(alg, name, None)):
            mp.setattr(alg, name, functools.partial(getattr(alg, name), orthonormalize_B=False))


def _eq149(mp):
    # bug: SRPFL carries the pre-QR average into each new stage (Algorithm 2, line 16 as printed); the
    # Weyl step's leading 1 is B_hat^T B_hat, so the check must refuse the non-orthonormal B_hat
    _wrap(mp, f"{S}._common.run_srpfl", lambda orig: lambda **kw: orig(**{**kw, "carry": "pre_qr"}))


def _lemA4(mp):
    # bug: the Wishart matrix built from m/16 samples instead of m
    _wrap(mp, f"{S}.appendix_a._wishart_min_eig", lambda orig: lambda g, reps, n, m, k: orig(g, reps, n, m // 16, k))


def _sigma_scaling(mp):
    # bug: sigma passed as the noise variance (the noise std is sqrt(sigma)); the terms scale like
    # sigma^(1/2), so even the corrected sigma form fails the referee
    _wrap(mp, f"{S}.appendix_a.noise_terms",
          lambda orig: lambda g, sigma, *a: orig(g, math.sqrt(sigma), *a))


# ----------------------------------------------------------------------------- Theorem 4.9
def _thm49_ratio(mp):
    # bug: the FedRep baseline computed with SRPFL's schedule (the `schedule` argument dropped)
    _wrap(mp, f"{S}.thm4_9.idealised_wallclock",
          lambda orig: lambda *a, schedule="srpfl", **k: orig(*a, **k))


def _thm49_simulated(mp):
    # bug: the closed form charges the (n-1)-th order statistic instead of the n-th
    mp.setattr(f"{S}.thm4_9.SIM_REPS", {False: 300, True: 300})
    _wrap(mp, f"{S}.thm4_9.expected_order_statistic",
          lambda orig: lambda j, N, lam=1.0: orig(np.maximum(np.asarray(j) - 1, 1), N, lam))


def _thm49_real(mp):
    # violating numbers: SRPFL 25% slower than FedRep on every seed (no runs, to stay fast)
    mp.setattr(f"{S}.thm4_9.time_ratios", lambda N, seed, seeds, target: np.full(seeds, 1.25))


# ----------------------------------------------------------------------------- Appendix B
def _off_by_one(orig):
    return lambda j, N, lam=1.0: orig(np.maximum(np.asarray(j) - 1, 1), N, lam)


def _ordstat(mp):
    # bug: E[T_(j:N)] computed as the (j-1)-th order statistic
    _wrap(mp, f"{S}.appendix_b.expected_order_statistic", _off_by_one)


def _ord_bounds(mp):
    # bug: harmonic numbers replaced by their asymptotic approximation ln n + gamma
    mp.setattr(f"{S}.appendix_b.harmonic", lambda n: np.log(np.maximum(np.asarray(n, float), 1)) + 0.5772156649)


def _eq224(mp):
    # a wrong correction (1/6.25 instead of 1/7): the Monte Carlo referee rejects it
    mp.setattr(f"{S}.appendix_b.EQ224_CORRECTED", 1 / 6.25)
    mp.setattr(f"{S}.appendix_b.EQ224_REPS", {False: 2000, True: 2000})


def _lemB1(mp):
    # bug: the rounds per stage without the sqrt2 inside the log (the slip of (212))
    _wrap(mp, f"{S}.appendix_b.stage_rounds",
          lambda orig: lambda r, a, N, n0, lam=1.0: orig(r, a, N, n0, lam) - math.log(2) / math.log(1 / (1 - a)))


def _lemB2(mp):
    # bug: the bound (217) without its log N factor (on the first 12 grid points)
    _wrap(mp, f"{S}.appendix_b._grid", lambda orig: lambda: orig()[:12])
    _wrap(mp, f"{S}.appendix_b.lemma_b2_bound", lambda orig: lambda N, *a, **k: orig(N, *a, **k) / math.log(N))


def _lemB3(mp):
    # bug: the corrected count uses the floor of stage log2(N) (n0 dropped): too many rounds, so the
    # corrected form exceeds the simulated FedRep time
    mp.setattr(f"{S}.appendix_b.LEMB3_REPS", {False: 50, True: 50})
    _wrap(mp, f"{S}.appendix_b._grid", lambda orig: lambda: orig()[:12])
    _wrap(mp, f"{S}.appendix_b.fedrep_rounds_exact",
          lambda orig: lambda a, N, n0, c_hat, d0=1.0: orig(a, N, 1, c_hat, d0))


FAILS_PATHS = {
    "srpfl.alg2.line16": _line16,
    "srpfl.thm4.7.stepsize": _stepsize,
    "srpfl.thm4.7.contraction": _contraction,
    "srpfl.corA11.noise-floor": _noise_floor,
    "srpfl.thm4.7.floor-not-prediction": _floor_pred,
    "srpfl.lemA2.identities": _lemA2,
    "srpfl.eq116.inequality": _eq116,
    "srpfl.eq149.inequality": _eq149,
    "srpfl.lemA4.concentration": _lemA4,
    "srpfl.lemA7-A9.sigma-scaling": _sigma_scaling,
    "srpfl.thm4.9.ratio": _thm49_ratio,
    "srpfl.thm4.9.simulated": _thm49_simulated,
    "srpfl.thm4.9.real-runs": _thm49_real,
    "srpfl.ordstat.mean": _ordstat,
    "srpfl.eq221-228.ordstat-bounds": _ord_bounds,
    "srpfl.eq224.erratum": _eq224,
    "srpfl.lemB1.switching": _lemB1,
    "srpfl.lemB2.upper-bound": _lemB2,
    "srpfl.lemB3.lower-bound": _lemB3,
}


# claims: their paths live beside their tests; those of test_fails_srpfl_proofs.py and
# test_srpfl_proof_steps.py run there, the rate / Appendix B ones run here
from test_srpfl_rate import FAILS_PATHS as _RATE_PATHS  # noqa: E402
from test_fails_srpfl_proofs import FAILS_PATHS as _I13_PATHS  # noqa: E402
from test_srpfl_proof_steps import FAILS_PATHS_PROOF_STEPS as _PROOF_PATHS  # noqa: E402

FAILS_PATHS.update(_RATE_PATHS)
_RUN_HERE = sorted(FAILS_PATHS)
FAILS_PATHS.update(_I13_PATHS)
FAILS_PATHS.update(_PROOF_PATHS)


def test_every_srpfl_claim_has_a_fails_path():
    assert set(FAILS_PATHS) == {c.id for c in get_paper("srpfl").claims()}


@pytest.mark.parametrize("claim_id", _RUN_HERE)
def test_claim_can_fail(claim_id, monkeypatch, serial_uncached):
    FAILS_PATHS[claim_id](monkeypatch)
    v = get_claim(claim_id).evaluate(full=False)
    assert v.status == "refuted", v.summary()
