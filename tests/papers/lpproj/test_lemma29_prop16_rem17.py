"""Lemma 29 (App. B.2), Proposition 16 and Remark 17 (Sec. 4.2; formal: Theorem 30 and Remark 31, App. B.3) (Han,
Li, Lin and Zhang, *A Random Projection Approach to Personalized Federated Learning*, JMLR 25 (2024)).

Tests of the catalogue module ``fedtheory_checks.lpproj.lemma29_prop16_rem17``: its helpers against independent
computations and its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS``
injects a violating computation with monkeypatch and the quick verdict must refute the claim (the rule is
``check_fails_path`` in this folder's conftest.py)."""
import numpy as np
import pytest

M = "fedtheory_checks.lpproj"


def _wrap(monkeypatch, target, make):
    """Replace ``target`` ("module.attr") by ``make(original)``."""
    import importlib

    mod, attr = target.rsplit(".", 1)
    monkeypatch.setattr(target, make(getattr(importlib.import_module(mod), attr)))


# ----------------------------------------------------------------------------- Sec. 4.2, Lemma 29, Prop. 16
def _lemma29_sign_slip(mp):
    mp.setattr(f"{M}.lemma29_prop16_rem17.lemma29_argmin",
               lambda A, B, C, b: (2 * C - B * b) / (2 * A * b + B))


def _prop16_first_order_threshold(mp):
    # the threshold read as 2 lambda_1^* (first order in lambda_1^*/b)
    mp.setattr(f"{M}.lemma29_prop16_rem17.proposition16_threshold", lambda ls, b: 2 * np.asarray(ls, float))


def _printed_lambda_star(mp):
    # lambda* from Lemma 29 with the printed A (extra 1/N): (N - 1) sigma^2/(n Sigma)
    mp.setattr(f"{M}.lemma29_prop16_rem17.optimal_lambda",
               lambda **kw: (kw["N"] - 1) * kw["sigma"] ** 2 / (kw["n"] * kw["Sigma"]))
    mp.setattr(f"{M}.lemma29_prop16_rem17.COMPARISONS_DRAWS", (500, 500))  # shrink what runs


def _rem17_derivative_power(mp):
    # (b + lam)^2 in place of (b + lam)^3 in the derivative
    _wrap(mp, f"{M}.lemma29_prop16_rem17.loss_derivative_lpproj",
          lambda orig: (lambda lam, *, d_sub, **kw: orig(lam, d_sub=d_sub, **kw) * (kw.get("b", 1.0) + np.asarray(lam))))


FAILS_PATHS = {
    "lpproj.lemma29.optimal-lambda": _lemma29_sign_slip,
    "lpproj.prop16": _prop16_first_order_threshold,
    "lpproj.appB2.comparisons": _printed_lambda_star,
    "lpproj.rem17.dsub": _rem17_derivative_power,
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
