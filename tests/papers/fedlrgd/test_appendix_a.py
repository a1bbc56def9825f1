"""Appendix A of Jadbabaie, Makur and Shah (2023), *Federated Optimization of Smooth Loss Functions*, IEEE Trans.
Inf. Theory (smoothness assumptions for logistic regression with soft labels): the Hoelder class of the example,
eqs. (66)-(72), the derivatives (69) and the case constants (70)-(71). Verdicts come from ``fedtheory.decide``.

Tests of the catalogue module ``fedtheory_checks.fedlrgd.appendix_a``: its helpers against independent computations
and its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS`` injects a
violating computation with monkeypatch and the quick verdict must refute the claim (the rule is ``check_fails_path``
in this folder's conftest.py)."""
import numpy as np
import pytest

REMAINING = "fedtheory_checks.fedlrgd.appendix_a"


def _orig(path):
    mod, name = path.rsplit(".", 1)
    return getattr(__import__(mod, fromlist=[name]), name)


def _patch(monkeypatch, path, make):
    """monkeypatch ``path`` with ``make(original)``."""
    monkeypatch.setattr(path, make(_orig(path)))


def test_eq69_closed_forms_match_finite_differences():
    from fedtheory_checks.fedlrgd.appendix_a import _eq69_vec
    rng = np.random.default_rng(3)
    p, h = 3, 1e-6
    x, y, th = rng.uniform(0, 1, (1, p)), rng.uniform(0, 1, 1), rng.uniform(-1, 1, (1, p))

    def g(x, y, i):
        z = (x * th).sum(1)
        return (1 / (1 + np.exp(-z)) - y) * x[:, i] + 0.1 * th[:, i]
    for i in range(p):
        for j in range(p + 1):
            if j == p:
                fd = (g(x, y + h, i) - g(x, y - h, i)) / (2 * h)
            else:
                e = np.zeros((1, p))
                e[0, j] = h
                fd = (g(x + e, y, i) - g(x - e, y, i)) / (2 * h)
            np.testing.assert_allclose(_eq69_vec(x, y, th, i, j), fd, atol=1e-8)


def _eq69_sign(mp):  # d g_i / d y = +x_i
    _patch(mp, REMAINING + "._eq69_vec", lambda f: lambda x, y, th, i, j: -f(x, y, th, i, j) if j == th.shape[1] else
           f(x, y, th, i, j))


def _eq71_quarter(mp):  # (71) mis-derived as (1/4)||dx||_1
    from fedtheory_checks.fedlrgd import appendix_a as remaining
    mp.setattr(REMAINING + "._EQ70_CONST", {**remaining._EQ70_CONST, "j!=i": (0.25, 0.0)})


M = "fedtheory_checks.fedlrgd."


def _appA(mp):  # features not normalised: drawn from [0, 2]^{d-1} instead of [0, 1]^{d-1}
    mp.setattr(M + "appendix_a._APPA_FEATURE_HIGH", 2.0)


FAILS_PATHS = {
    "fedlrgd.eq69.derivatives": _eq69_sign,
    "fedlrgd.eq70.case-constants": _eq71_quarter,
    "fedlrgd.appA.holder-class": _appA,
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
