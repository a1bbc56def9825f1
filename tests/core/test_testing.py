"""Tests of :mod:`fedtheory.testing`, the assertion helpers and the pytest plugin a researcher uses in their own
tests: ``assert_bound``, ``assert_agrees``, ``assert_holds_with_probability`` and ``assert_claim`` pass and fail with
clear messages (non-finite numbers fail), the ``claim`` marker and its option, and the helpers hide their frames."""
import numpy as np
import pytest

from fedtheory import get_paper, mc_mean
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
    assert_claim("fedrep.thm1.kappa-typo")  # its recorded outcome (an erratum) passes
    v = assert_claim("fedrep.thm1.sample-complexity-exponents")  # decided in quick mode
    assert v.status == "holds" and v.margin is not None


def test_assert_claim_skips_a_full_mode_only_claim_in_quick_mode():
    from fedtheory import get_claim

    cid = next(c.id for k in ("srpfl", "fedrep", "lpproj", "fedlrgd") for c in get_paper(k).claims()
               if c.full_only is not None)
    with pytest.raises(pytest.skip.Exception, match=f"claim {cid} is full mode only"):
        assert_claim(cid, full=False)
    assert get_claim(cid).full_only > 0


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


# ------------------------------------------------------------------ inputs that cannot fool the helpers
NAN, INF = float("nan"), float("inf")


def test_assert_agrees_fails_on_a_nan_closed_form():
    est = mc_mean(lambda g, n: g.exponential(2.0, n), 2_000, seed=1)
    with pytest.raises(AssertionError, match=r"closed-form value is not finite \(nan\)"):
        assert_agrees(est, NAN)
    with pytest.raises(AssertionError, match="closed-form value is not finite"):
        assert_agrees(est, INF)


def _samples_off_by_502():
    """100 x 2 replications: column 0 has sample mean 55.2 and se exactly 0.1, so |z| = 502 against 5.0."""
    g = np.random.default_rng(0).standard_normal((100, 2))
    g = (g - g.mean(axis=0)) / g.std(axis=0, ddof=1)  # mean 0, sd 1 exactly
    return np.column_stack([55.2 + g[:, 0], g[:, 1]])


def test_assert_agrees_fails_on_nan_even_when_another_entry_disagrees():
    s = _samples_off_by_502()
    with pytest.raises(AssertionError, match=r"\|z\| = 502\.00"):  # the finite value is far off...
        assert_agrees(s, [5.0, 0.0])
    # ... and the NaN used to hide it (max(|z|) was NaN, and NaN > crit is False)
    with pytest.raises(AssertionError, match=r"closed-form value is not finite .*nan at index \(1,\)"):
        assert_agrees(s, [5.0, NAN])


def test_assert_agrees_fails_on_nan_or_inf_samples():
    s = np.random.default_rng(0).standard_normal(1000)
    s[17] = NAN
    with pytest.raises(AssertionError, match=r"samples is not finite .*index \(17,\)"):
        assert_agrees(s, 0.0)
    s[17] = INF
    with pytest.raises(AssertionError, match="samples is not finite"):
        assert_agrees(s, 0.0)
    from fedtheory.montecarlo import Estimate
    bad = Estimate(mean=NAN, se=0.1, ci_low=NAN, ci_high=NAN, n=10)
    with pytest.raises(AssertionError, match="estimate's mean is not finite"):
        assert_agrees(bad, 0.0)


@pytest.mark.parametrize("ret", [NAN, 1.0, None, 1, "yes", np.array([True])])
def test_assert_holds_with_probability_fails_on_a_non_bool_trial(ret):
    with pytest.raises(AssertionError, match=r"trial 0 returned .* not a bool"):
        assert_holds_with_probability(lambda g: ret, 0.5, n_trials=10, seed=0)


def test_assert_holds_with_probability_accepts_numpy_bools():
    assert_holds_with_probability(lambda g: np.bool_(g.uniform() < 0.99), 0.5, n_trials=50, seed=1)
    assert_holds_with_probability(lambda g: bool(np.all(g.uniform(size=3) < 2)), 0.9, n_trials=20, seed=1)


@pytest.mark.parametrize("observed, bound, role", [
    (NAN, 1.0, "observed value"), (1.0, NAN, "bound"), ([0.5, NAN], 1.0, "observed value"),
    (0.5, [1.0, INF], "bound"), (-INF, 1.0, "observed value"), (0.5, INF, "bound"),
    ("x", 1.0, "observed value"),
])
def test_assert_bound_fails_on_nan_or_inf(observed, bound, role):
    with pytest.raises(AssertionError, match=f"Theorem 1: the {role} is (not finite|not numeric)"):
        assert_bound(observed, bound, what="Theorem 1")


def _toy_paper():
    from fedtheory import Paper

    paper = Paper(key="zztesting", title="A paper for the helpers", authors=["A. Author"], year=2025,
                  venue="arXiv")
    outcomes = {
        "holds": dict(status="holds", observed=1.0, bound=2.0),
        # the printed form of a confirmed erratum may be the infinite one (FedLRGD's (l)^2 = 0)
        "erratum": dict(status="erratum", observed={"printed": INF, "corrected": 1.0}, bound=2.0, referee="exact run"),
        "erratum-nan": dict(status="erratum", observed={"printed": 3.0, "corrected": NAN}, bound=2.0,
                            referee="exact run"),
        "refuted": dict(status="refuted", observed=3.0, bound=2.0),
        "inconclusive": dict(status="inconclusive", observed=2.0, bound=2.0,
                             power={"needed": 40, "statement": "40 runs would decide"}),
        "nan-holds": dict(status="holds", observed=NAN, bound=2.0),
        "inf-bound": dict(status="holds", observed=1.0, bound={"corrected": INF}),
    }
    for name, out in outcomes.items():
        paper.claim(f"zztesting.{name}", "Eq. (1)", name)(lambda full, seed, out=out: dict(out))

    @paper.claim("zztesting.error", "Eq. (2)", "raises")
    def _err(full, seed):
        raise ZeroDivisionError("boom")

    return paper


@pytest.fixture
def toy_claims():
    from fedtheory import register_paper, unregister_paper

    register_paper(_toy_paper())
    yield
    unregister_paper("zztesting")


def test_assert_claim_passes_only_holds_and_erratum_without_a_recorded_outcome(toy_claims):
    assert assert_claim("zztesting.holds").status == "holds"
    assert assert_claim("zztesting.erratum").status == "erratum"
    for status in ("refuted", "inconclusive"):
        with pytest.raises(AssertionError, match=f"is '{status}'"):
            assert_claim(f"zztesting.{status}")
    with pytest.raises(AssertionError, match=r"is 'error'(.|\n)*ZeroDivisionError: boom"):
        assert_claim("zztesting.error")


def test_assert_claim_fails_on_non_finite_numbers_in_a_holding_verdict(toy_claims):
    # the verdict contract turns a decided outcome with NaN/inf into an error naming the rule and the place
    with pytest.raises(AssertionError, match=r"is 'error'(.|\n)*'finite-numbers'(.|\n)*observed \(value\)"):
        assert_claim("zztesting.nan-holds")
    with pytest.raises(AssertionError, match=r"is 'error'(.|\n)*finite-numbers(.|\n)*bound \(corrected\)"):
        assert_claim("zztesting.inf-bound")
    with pytest.raises(AssertionError, match=r"is 'error'(.|\n)*finite-numbers(.|\n)*observed \(corrected\)"):
        assert_claim("zztesting.erratum-nan")


def test_assert_claim_with_recorded_outcomes_is_strict(toy_claims):
    """A recorded outcome passes exactly when the verdict has it (pytest's strict xfail), and is never
    passed to the claim's computation."""
    from fedtheory.plugins import get_paper

    paper = get_paper("zztesting")
    paper.set_expected_outcomes({"zztesting.refuted": "refuted", "zztesting.holds": {"quick": "refuted"},
                                 "zztesting.inconclusive": {"full": "holds"}})
    try:
        assert assert_claim("zztesting.refuted", full=False).status == "refuted"  # a recorded refutation passes
        with pytest.raises(AssertionError, match="recorded outcome in quick mode is 'refuted'"):
            assert_claim("zztesting.holds", full=False)  # holds where a refutation was recorded: the finding changed
        with pytest.raises(AssertionError, match="is 'inconclusive'"):
            assert_claim("zztesting.inconclusive", full=False)  # nothing recorded for quick mode: must hold
        with pytest.raises(AssertionError, match="recorded outcome in full mode is 'holds'"):
            assert_claim("zztesting.inconclusive", full=True)
        with pytest.raises(TypeError, match="`full` must be a bool"):
            assert_claim("zztesting.holds", full="no")
    finally:
        paper.set_expected_outcomes({})


def test_helpers_hide_their_frames():
    import fedtheory.testing as T

    for f in (T.assert_bound, T.assert_agrees, T.assert_holds_with_probability, T.assert_claim):
        assert "__tracebackhide__" in f.__code__.co_varnames, f.__name__
