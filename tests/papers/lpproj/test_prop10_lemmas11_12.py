"""Proposition 10 and Lemmas 11 and 12 (Sec. 4.1.2; proofs in App. A.4), under Assumption 6 (Han, Li, Lin and Zhang,
*A Random Projection Approach to Personalized Federated Learning*, JMLR 25 (2024)).

Tests of the catalogue module ``fedtheory_checks.lpproj.prop10_lemmas11_12``: its helpers against independent
computations and its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS``
injects a violating computation with monkeypatch and the quick verdict must refute the claim (the rule is
``check_fails_path`` in this folder's conftest.py)."""
import pytest

from fedtheory.lpproj import a6 as A6


def _wrap(monkeypatch, target, make):
    """Replace ``target`` ("module.attr") by ``make(original)``."""
    import importlib

    mod, attr = target.rsplit(".", 1)
    monkeypatch.setattr(target, make(getattr(importlib.import_module(mod), attr)))


def _u_hat_lam_slip(mp):
    # the prox point solved with lam/2 for lam: grad F_k no longer matches finite differences of F_k
    orig = A6.A6Clients.u_hat
    mp.setattr(A6.A6Clients, "u_hat", lambda self, w, lam, per_client=False: orig(self, w, lam / 2, per_client))


def _delta2_lam_twice(mp):
    # delta_2^2 divided by lam^2 once more (the 1/lam^2 of Lemma 11's left side applied twice)
    _wrap(mp, "fedtheory.lpproj.a6.delta2_sq", lambda orig: lambda g, b, nu, lam, L, s: orig(g, b, nu, lam, L, s) / lam ** 2)


def _sigma_F2_inverted(mp):
    # sigma_F2^2 = sigma_f^2 (lam^2 - 10 L^2)/lam^2: the factor inverted
    mp.setattr("fedtheory.lpproj.a6.sigma_F2_sq", lambda sf, lam, L: sf * (lam ** 2 - 10 * L ** 2) / lam ** 2)


FAILS_PATHS = {
    "lpproj.prop10.a6-smoothness": _u_hat_lam_slip,
    "lpproj.lemma11.delta2": _delta2_lam_twice,
    "lpproj.lemma12.diversity": _sigma_F2_inverted,
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
