"""Sec. 5.1 of Collins, Hassani, Mokhtari and Shakkottai (2021), *Exploiting Shared Representations for Personalized
Federated Learning*, ICML 2021 (synthetic data): Figure 3 (FedRep against alternating gradient descent: the ordering
FedRep < 10GD-GD < GD-GD, "GD-GD and 10GD-GD do not scale properly with n", the improvement with n) and Figure 4
(new clients). Verdicts come from ``fedtheory.decide``; an experiment that the linear analogue does not reproduce is
``not-reproduced``, with the analogue named.

Tests of the catalogue module ``fedtheory_checks.fedrep.sec51_synthetic``: its helpers against independent
computations and its verdicts where pinned; and every claim of the section can fail: its entry in ``FAILS_PATHS``
injects a violating computation with monkeypatch and the quick verdict must refute the claim (the rule is
``check_fails_path`` in this folder's conftest.py)."""
import numpy as np
import pytest

from fedtheory.claims import FAILS, HOLDS, INCONCLUSIVE

S5 = "fedtheory_checks.fedrep.sec51_synthetic"


EX = "fedtheory.representation.experiments"


@pytest.fixture
def s5():
    from fedtheory_checks.fedrep import sec51_synthetic as sec5_experiments
    return sec5_experiments


# ----------------------------------------------------------------------------- Figure 3 ordering
def test_fig3_ordering_reading_is_validated(s5):
    with pytest.raises(ValueError, match="head_lr_reading"):
        s5.fig3_ordering(False, 0, head_lr_reading="untuned")


def _fake_fig3_by_method(tau):
    def fake(ns=(100,), *, rounds=100, seeds=5, seed=0, **k):
        rng = np.random.default_rng(0)
        t = np.arange(rounds + 1)
        return {n: {meth: np.exp(-t[None, :] / (tau[meth] * (1 + 0.1 * rng.random((seeds, 1)))))
                    for meth in ("FedRep", "10GD-GD", "GD-GD")} for n in ns}
    return fake


def fig3_paper_steps_reversed(mp):
    """Injected Figure 3 data with GD-GD fastest and FedRep slowest."""
    mp.setattr(f"{EX}.fig3_dists", _fake_fig3_by_method({"FedRep": 30.0, "10GD-GD": 20.0, "GD-GD": 10.0}))


def _fake_fig3_tie(mp, taus, jitter=0.01):
    """Figure 3 data with per-method time constants ``taus`` and a small per-seed jitter; a method whose
    time constant equals FedRep's gets FedRep's jitter too (a tie up to 1%)."""
    def fake(ns=(100,), *, rounds=100, seeds=5, seed=0, **k):
        rng = np.random.default_rng(0)
        t = np.arange(rounds + 1)
        u = {meth: rng.random((seeds, 1)) for meth in ("FedRep", "10GD-GD", "GD-GD")}
        v = {meth: rng.random((seeds, 1)) for meth in ("FedRep", "10GD-GD", "GD-GD")}
        return {n: {meth: np.exp(-t[None, :] / (taus[meth] * (1 + jitter * (u[meth] + v[meth]))))
                    for meth in ("FedRep", "10GD-GD", "GD-GD")} for n in ns}
    mp.setattr(f"{EX}.fig3_dists", fake)
    mp.setattr(f"{S5}.HEAD_LR_GRID", (0.2,))


NOT_REPRODUCED = "not-reproduced"


def test_fig3_ordering_fake_paths(s5, monkeypatch):
    fig3_paper_steps_reversed(monkeypatch)
    out = s5.fig3_ordering(False, 0, head_lr_reading="paper")
    assert out["status"] == NOT_REPRODUCED and "d=10, k=2" in out["analogue"]
    # the printed order with a clear gap (FedRep well ahead of 10GD-GD): holds
    monkeypatch.setattr(f"{EX}.fig3_dists", _fake_fig3_by_method({"FedRep": 5.0, "10GD-GD": 10.0, "GD-GD": 20.0}))
    monkeypatch.setattr(f"{S5}.HEAD_LR_GRID", (0.2,))
    for reading in ("paper", "tuned"):
        assert s5.fig3_ordering(False, 0, head_lr_reading=reading)["status"] == HOLDS
    # 10GD-GD ties FedRep, both ahead of GD-GD (what the linear analogue shows): not reproduced
    _fake_fig3_tie(monkeypatch, {"FedRep": 10.0, "10GD-GD": 10.0, "GD-GD": 20.0})
    for reading in ("paper", "tuned"):
        out = s5.fig3_ordering(False, 0, head_lr_reading=reading)
        assert out["status"] == NOT_REPRODUCED, out["evidence"]
        assert out["observed"]["tie_10GD-GD_FedRep"]["within_10pct"] == out["observed"]["tie_10GD-GD_FedRep"]["pairs"]


def fig3_tuned_order_reversed(mp):
    """Injected Figure 3 data with GD-GD fastest and FedRep slowest (tuned reading)."""
    mp.setattr(f"{EX}.fig3_dists", _fake_fig3_by_method({"FedRep": 30.0, "10GD-GD": 20.0, "GD-GD": 10.0}))
    mp.setattr(f"{S5}.HEAD_LR_GRID", (0.2,))


@pytest.mark.parametrize("reading", ["tuned", "paper"])
def test_fig3_ordering_is_not_reproduced_on_real_numbers(s5, reading):
    """Relabelled from an erratum: the linear analogue does not reproduce Figure 3's ordering."""
    out = s5.fig3_ordering(False, 0, head_lr_reading=reading)
    assert out["status"] == NOT_REPRODUCED, out["evidence"]
    assert out["params"]["head_lr_reading"] == reading and out["analogue"]
    tie = out["observed"]["tie_10GD-GD_FedRep"]
    assert tie["within_10pct"] > tie["pairs"] / 2      # 10GD-GD ties FedRep (reported)


# ----------------------------------------------------------------------------- GD-GD scaling with n
def test_per_run_log_slopes(s5):
    t = np.arange(31)
    dist = np.exp(np.outer([-0.1, -0.05], t) + 0.3)
    assert np.allclose(s5.per_run_log_slopes(dist, 30), [-0.1, -0.05])
    with pytest.raises(ValueError):
        s5.per_run_log_slopes(dist, 31)


def _fake_scaling(mp, tau):
    def fake(ns=(100,), *, rounds=100, seeds=5, seed=0, **k):
        rng = np.random.default_rng(int(ns[0]))
        t = np.arange(rounds + 1)
        return {n: {m: np.exp(-t[None, :] / (tau(m, n) * (1 + 0.05 * rng.random((seeds, 1)))))
                    for m in ("FedRep", "10GD-GD", "GD-GD")} for n in ns}
    mp.setattr(f"{EX}.fig3_dists", fake)


def gd_scaling_reversed(mp):
    """Injected Figure 3 data where the GD methods' rates improve with n and FedRep's does not."""
    _fake_scaling(mp, lambda meth, n: 10.0 if meth == "FedRep" else 40.0 / np.log10(n))


def gd_scaling_as_printed(mp):
    """Injected Figure 3 data where FedRep's rate improves with n and the GD methods' do not (the printed
    statement): the corrected statement fails."""
    _fake_scaling(mp, lambda meth, n: 40.0 / np.log10(n) if meth == "FedRep" else 10.0)


def test_gd_scaling_as_printed_holds(s5, monkeypatch):
    gd_scaling_as_printed(monkeypatch)
    assert s5._gd_n_scaling(False, 0)["status"] == HOLDS


def test_gd_scaling_reversed_is_not_reproduced(s5, monkeypatch):
    gd_scaling_reversed(monkeypatch)
    out = s5._gd_n_scaling(False, 0)
    assert out["status"] == NOT_REPRODUCED and out["analogue"], out["evidence"]


def test_gd_scaling_is_not_reproduced_on_real_numbers(s5):
    """Relabelled from an erratum: 10GD-GD's rate improves with n about as much as FedRep's."""
    out = s5._gd_n_scaling(False, 0)
    assert out["status"] == NOT_REPRODUCED, out["evidence"]
    assert "10GD-GD 0.2" in out["analogue"] or "'10GD-GD': 0.2" in out["analogue"]


# ----------------------------------------------------------------------------- undecided paths carry power statements
def test_fig3_ordering_undecided_has_power_statement(s5, monkeypatch):
    """Noisy data (per-seed time constants spread by +-50%): no order is decided at 32 seeds."""
    def fake(ns=(100,), *, rounds=100, seeds=5, seed=0, **k):
        rng = np.random.default_rng(1)
        t = np.arange(rounds + 1)
        return {n: {meth: np.exp(-t[None, :] / (10.0 * (0.5 + rng.random((seeds, 1)))))
                    for meth in ("FedRep", "10GD-GD", "GD-GD")} for n in ns}
    monkeypatch.setattr(f"{EX}.fig3_dists", fake)
    out = s5.fig3_ordering(False, 0, head_lr_reading="paper")
    assert out["status"] == INCONCLUSIVE, out["evidence"]
    assert out["power"]["unit"] == "untied pairs" and out["power"]["needed"] > 32


def test_gd_scaling_undecided_has_power_statement(s5, monkeypatch):
    _fake_scaling(monkeypatch, lambda meth, n: 10.0)  # nobody improves: Delta = 0 up to noise
    import fedtheory_checks.fedrep.sec51_synthetic as m_

    orig = m_.per_run_log_slopes
    rng = np.random.default_rng(0)
    monkeypatch.setattr(f"{S5}.per_run_log_slopes",
                        lambda dist, t_max: orig(dist, t_max) + 0.01 * rng.standard_normal(dist.shape[0]))
    out = s5._gd_n_scaling(False, 0)
    assert out["status"] == INCONCLUSIVE, out["evidence"]
    assert out["power"]["unit"] == "runs per method" and out["power"]["needed"] > 16


M = "fedtheory_checks.fedrep"


def _wrap(monkeypatch, target, make):
    """Replace ``target`` ("module.attr") by ``make(original)``."""
    import importlib

    mod, attr = target.rsplit(".", 1)
    monkeypatch.setattr(target, make(getattr(importlib.import_module(mod), attr)))


# ----------------------------------------------------------------------------- Sec. 5.1
def _swap(key_a, key_b, rounds):
    def make(f):
        def g(*a, **k):
            out = dict(f(*a, **{**k, "rounds": rounds}))  # fewer rounds: the swap decides anyway
            out[key_a], out[key_b] = out[key_b], out[key_a]
            return out
        return g
    return make


def fig4_labels_swapped(mp):
    _wrap(mp, f"{EX}.fig4_data", _swap("FedRep", "FedAvg", 30))


def _fake_fig3(tau, seed_noise=0.1):
    """Injected Figure 3 data: dist_t = exp(-t / tau[method](n)) with seed-to-seed noise."""
    def fake(ns=(100,), *, rounds=100, seeds=5, seed=0, **k):
        rng = np.random.default_rng(0)
        t = np.arange(rounds + 1)
        out = {}
        for n in ns:
            out[n] = {}
            for meth in ("FedRep", "10GD-GD", "GD-GD"):
                scale = tau(meth, n) * (1 + seed_noise * rng.random((seeds, 1)))
                out[n][meth] = np.exp(-t[None, :] / scale)
        return out
    return fake


def fig3_order_reversed(mp):  # injected: GD-GD fastest, FedRep slowest
    taus = {"FedRep": 30.0, "10GD-GD": 20.0, "GD-GD": 10.0}
    mp.setattr(f"{EX}.fig3_dists", _fake_fig3(lambda meth, n: taus[meth]))
    mp.setattr(f"{M}.sec51_synthetic.HEAD_LR_GRID", (0.2,))


def fig3_more_clients_slower(mp):  # injected: FedRep slows down as n grows
    mp.setattr(f"{EX}.fig3_dists", _fake_fig3(lambda meth, n: 5.0 * np.log10(n)))


#: fails paths of the Sec. 5 / new-client claims (run by test_claim_can_fail)
FAILS_PATHS = {
    "fedrep.fig3.ordering-paper-steps": fig3_paper_steps_reversed,  # the order reversed: not reproduced
    "fedrep.sec5.gd-n-scaling": gd_scaling_reversed,  # GD rates improve with n, FedRep's does not
    "fedrep.fig3.ordering": fig3_order_reversed,
    "fedrep.fig3.n-scaling": fig3_more_clients_slower,
    "fedrep.fig4.new-client": fig4_labels_swapped,
}


#: the same paths with the legacy status names, and Figure 3's ordering under the tuned head step
#: (fig3_tuned_order_reversed, the twin of fig3_order_reversed)
SEC5_PATHS = {
    "fedrep.fig3.ordering-paper-steps": fig3_paper_steps_reversed,
    "fedrep.sec5.gd-n-scaling": gd_scaling_reversed,
    "fedrep.fig3.ordering": fig3_tuned_order_reversed,
}


@pytest.mark.parametrize("claim_id", sorted(SEC5_PATHS))
def test_fails_paths_make_the_claim_fail(claim_id, monkeypatch, serial_uncached):
    from fedtheory import get_claim

    SEC5_PATHS[claim_id](monkeypatch)
    v = get_claim(claim_id).evaluate(full=False)
    experiment = {"fedrep.fig3.ordering", "fedrep.fig3.ordering-paper-steps", "fedrep.sec5.gd-n-scaling",
                  "fedrep.benefit1.local-updates"}
    assert v.status == (NOT_REPRODUCED if claim_id in experiment else FAILS), v.summary()


@pytest.mark.parametrize("claim_id", sorted(FAILS_PATHS))
def test_claim_can_fail(claim_id, check_fails_path):
    check_fails_path(claim_id, FAILS_PATHS[claim_id])
