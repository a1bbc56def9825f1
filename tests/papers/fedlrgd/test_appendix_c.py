"""Appendix C of Jadbabaie, Makur and Shah (2023), *Federated Optimization of Smooth Loss Functions*, IEEE Trans.
Inf. Theory (low rank structure in neural networks): approximate low rank of gradient slices (the paper's MNIST and
CIFAR-10 networks, Figs. 1-2, eqs. (75)-(77)), checked on its linear analogue, and the parameter counts of the
stated architectures. Verdicts come from ``fedtheory.decide``.

Tests of the catalogue module ``fedtheory_checks.fedlrgd.appendix_c``: its helpers against independent computations
and its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS`` injects a
violating computation with monkeypatch and the quick verdict must refute the claim (the rule is ``check_fails_path``
in this folder's conftest.py)."""
import pytest

M = "fedtheory_checks.fedlrgd."


def _orig(path):
    mod, name = path.rsplit(".", 1)
    return getattr(__import__(mod, fromlist=[name]), name)


def _patch(monkeypatch, path, make):
    """monkeypatch ``path`` with ``make(original)``."""
    monkeypatch.setattr(path, make(_orig(path)))


def _appC(mp):  # approximate rank (77) at an energy threshold of 99.99% instead of 90%
    _patch(mp, M + "appendix_c.appendix_c_ranks", lambda f: lambda k=60, seed=0, **kw: f(k=k, seed=seed, threshold=0.9999))


REMAINING = "fedtheory_checks.fedlrgd.appendix_c"


def _conv_no_bias(mp):  # convolution layers counted without biases
    mp.setattr(REMAINING + "._conv", lambda k, c_in, c_out: k * k * c_in * c_out)


FAILS_PATHS = {
    "fedlrgd.appC.approximate-rank": _appC,
    "fedlrgd.appC.parameter-counts": _conv_no_bias,
}


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
