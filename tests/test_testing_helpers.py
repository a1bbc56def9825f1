import numpy as np
import pytest

from fedtheory import mc_mean
from fedtheory.representation import client_diversity, make_model, run_fedrep, theorem1_bound
from fedtheory.testing import assert_agrees, assert_bound, assert_claim, assert_holds_with_probability


def test_assert_bound_passes_and_fails_with_a_clear_message():
    assert_bound([0.5, 0.9], 1.0)
    with pytest.raises(AssertionError, match=r"Theorem 1 violated at index \(1,\): observed 1.2 > bound 1"):
        assert_bound([0.5, 1.2], 1.0, what="Theorem 1")
    assert_bound(1.05, 1.0, rtol=0.1)


def test_assert_agrees():
    est = mc_mean(lambda g, n: g.exponential(2.0, n), 50_000, seed=1)
    assert_agrees(est, 2.0, what="Exp mean")
    with pytest.raises(AssertionError, match="Monte Carlo disagrees with the Exp mean"):
        assert_agrees(est, 2.2, what="Exp mean")
    assert_agrees(np.random.default_rng(0).standard_normal(4000), 0.0)


def test_assert_holds_with_probability():
    assert_holds_with_probability(lambda g: g.uniform() < 0.95, 0.9, n_trials=300, seed=2)
    with pytest.raises(AssertionError, match="rejected"):
        assert_holds_with_probability(lambda g: g.uniform() < 0.5, 0.9, n_trials=300, seed=2)


def test_theorem1_contraction_with_probability():
    """The project's own use: Theorem 1's (10) holds at every round with probability >= 0.9 (large m)."""
    model = make_model(12, 2, 10, seed=5)
    dv = client_diversity(model.W_star, 5)

    def trial(rng):
        res = run_fedrep(12, 2, 10, 60, 0.5, 30, model=model, m_test=0, seed=rng)
        bound = theorem1_bound(np.arange(31), res.dist[0], res.eta, res.E0, dv.sigma_min)
        return bool(np.all(res.dist <= bound * (1 + 1e-12)))

    assert_holds_with_probability(trial, 0.9, n_trials=40, seed=3, what="Theorem 1 contraction")


def test_assert_claim_and_marker(pytester):
    v = assert_claim("fedrep.def1.dist-identities")
    assert v.status == "holds"
    assert_claim("fedrep.thm1.kappa-typo")  # erratum-confirmed counts as holding (corrected form)
    with pytest.raises(AssertionError, match="inconclusive"):
        assert_claim("fedrep.fig3.ordering")


def test_pytest_plugin_marker_and_option(pytester):
    pytester.makepyfile("""
        import pytest

        @pytest.mark.claim("fedrep.def1.dist-identities")
        def test_uses_claim():
            assert True

        def test_full_flag(request):
            assert request.config.getoption("--fedtheory-full") is True
    """)
    result = pytester.runpytest("--fedtheory-full", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)
