"""Eq. (11) and Theorem 13 (Sec. 4.1.2), with the proof of Theorem 13 (App. A.3: Lemma 26, eqs. (19)-(22)) (Han, Li,
Lin and Zhang, *A Random Projection Approach to Personalized Federated Learning*, JMLR 25 (2024)).

Tests of the catalogue module ``fedtheory_checks.lpproj.thm13``: its helpers against independent computations and
its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS`` injects a violating
computation with monkeypatch and the quick verdict must refute the claim (the rule is ``check_fails_path`` in this
folder's conftest.py)."""
import numpy as np
import pytest

from fedtheory.lpproj import a6 as A6

A6_SMOOTH = "fedtheory_checks.lpproj.thm13"


def _wrap(monkeypatch, target, make):
    """Replace ``target`` ("module.attr") by ``make(original)``."""
    import importlib

    mod, attr = target.rsplit(".", 1)
    monkeypatch.setattr(target, make(getattr(importlib.import_module(mod), attr)))


def _fresh_caches(mp):
    mp.setattr(A6_SMOOTH + "._THM13_CACHE", {})
    mp.setattr(A6_SMOOTH + "._EQ11_CACHE", {})


def _lemma26_lam_dropped(mp):
    # Lemma 26's right side with delta_2^2 where lam^2 delta_2^2 is meant
    mp.setattr("fedtheory.lpproj.a6.lemma26_rhs",
               lambda lam, d2, e, beta, g: 2 * d2 + 4 * lam ** 2 * e ** 2 / beta ** 2 * (7 * g + 10 * d2))


def _local_steps_uphill(mp):
    # the local step taken with the wrong sign (w~ <- w~ + eta g): the messages move uphill
    _fresh_caches(mp)

    def make(orig):
        def run(*a, **k):
            res = orig(*a, **k)
            w0 = res["w_local"][:, :, 0]
            res["w_R"] = 2 * w0 - res["w_R"]
            return res
        return run
    _wrap(mp, A6_SMOOTH + "._run", make)


def _g_t_summed_over_r(mp):
    # g_t summed over the R local steps instead of averaged (E||g_t||^2 scaled by R^2)
    _fresh_caches(mp)

    def make(orig):
        def enum(cl, lam, w_t, res, beta, S):
            EF, Eg2, samp, subsets = orig(cl, lam, w_t, res, beta, S)
            return EF, Eg2 * res["g"].shape[2] ** 2, samp, subsets
        return enum
    _wrap(mp, A6_SMOOTH + "._enumerate_round", make)


def _sampling_term_eta_cubed(mp):
    # the corrected last term of (11) with eta~^3 for eta~^2: then it cannot cover the sampling variance
    _wrap(mp, "fedtheory.lpproj.a6.eq11_rhs", lambda orig: lambda e, LF, g, dr, sa: orig(e, LF, g, dr, np.asarray(sa) * e))


def _prox_drops_lam_w(mp):
    # u_hat = (A_k + lam I)^{-1} a_k: the lam w~ term of the prox point dropped, so grad F_k is wrong
    _fresh_caches(mp)
    orig = A6.A6Clients.u_hat

    def u_hat(self, w, lam, per_client=False):
        return orig(self, np.zeros_like(np.asarray(w, float)), lam, per_client)
    mp.setattr(A6.A6Clients, "u_hat", u_hat)


def _personalised_lam4(mp):
    # the personalised bound divided by lam^2 (units slip: lam^4 in the denominators)
    _fresh_caches(mp)
    _wrap(mp, "fedtheory.lpproj.a6.personalised_bound_13",
          lambda orig: lambda g, lam, L, d2, sF: np.asarray(orig(g, lam, L, d2, sF)) / lam ** 2)


FAILS_PATHS = {
    "lpproj.lemma26.drift": _lemma26_lam_dropped,
    "lpproj.eq11.one-step": _local_steps_uphill,
    "lpproj.eq19.gt-bound": _g_t_summed_over_r,
    "lpproj.eq11.erratum": _sampling_term_eta_cubed,
    "lpproj.thm13.bound20": _prox_drops_lam_w,
    "lpproj.thm13.personalised": _personalised_lam4,
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])


def test_a_shorter_horizon_is_the_prefix_of_a_longer_run():
    """lpproj.thm13.bound20 reads the T = 20 cells from the first 20 rounds of the T = 60 runs: the runner draws
    round by round from its seed, so a run's first rounds do not depend on its horizon."""
    from fedtheory_checks.lpproj._common import _lam, _ls, _run

    cl = _ls(5)
    lam = _lam(cl.L)
    kw = dict(R=2, S=3, beta=2.0, eta_tilde=float(A6.eta_hat_2(lam)), w0=cl.w_star(lam) + 1.0, reps=7, seed=11)
    short, long = _run(cl, lam, T=4, **kw), _run(cl, lam, T=9, **kw)
    for key in ("g", "w_local", "u_hat_loc", "u_pers", "sel"):
        np.testing.assert_array_equal(short[key], long[key][:, :4])
    np.testing.assert_array_equal(short["history"], long["history"][:, :5])
