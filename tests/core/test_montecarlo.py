"""Tests of :mod:`fedtheory.montecarlo`: ``mc_mean`` (Student-t intervals, coverage, blocks, chunking, independent
streams), ``estimate_from_samples``, Clopper-Pearson ``proportion_estimate`` and the parameter messages."""
import math
import warnings

import numpy as np
import pytest
from scipy import stats

from fedtheory import proportion_estimate
from fedtheory.montecarlo import estimate_from_samples, mc_mean


class Recorder:
    """A sampler that returns prescribed values block after block and records the calls."""

    def __init__(self, values):
        self.values = np.asarray(values, float)
        self.pos = 0
        self.sizes = []

    def __call__(self, rng, size):
        self.sizes.append(size)
        out = self.values[self.pos:self.pos + size]
        self.pos += size
        return out


@pytest.mark.parametrize("n", [2, 3, 5])
@pytest.mark.parametrize("confidence", [0.9, 0.99])
def test_mc_mean_interval_uses_student_t_with_n_minus_1_dof(n, confidence):
    x = np.array([1.0, 4.0, 2.5, -3.0, 10.0])[:n]
    est = mc_mean(Recorder(x), n, seed=0, confidence=confidence)
    se = np.std(x, ddof=1) / math.sqrt(n)
    q = stats.t(df=n - 1).ppf(1 - (1 - confidence) / 2)
    assert est.n == n and est.confidence == confidence
    assert est.mean == pytest.approx(x.mean(), rel=1e-13)
    assert est.se == pytest.approx(se, rel=1e-12)
    assert est.ci_high - est.mean == pytest.approx(q * se, rel=1e-12)
    assert est.mean - est.ci_low == pytest.approx(q * se, rel=1e-12)
    est2 = estimate_from_samples(x, confidence=confidence)
    assert (est2.mean, est2.se, est2.ci_low, est2.ci_high) == pytest.approx(
        (est.mean, est.se, est.ci_low, est.ci_high), rel=1e-12)


def test_mc_mean_interval_covers_at_its_level_for_n_3():
    """1000 experiments of 3 normal replications each: the 90% t interval covers the true mean about
    90% of the time (a z interval would cover 76%, t with n dof about 86%)."""
    hits = hits2 = 0
    reps = 1000
    for s in range(reps):
        est = mc_mean(lambda g, size: 5.0 + 2.0 * g.standard_normal(size), 3, seed=s, confidence=0.9)
        hits += est.covers(5.0)
        hits2 += estimate_from_samples(5.0 + 2.0 * np.random.default_rng(10_000 + s).standard_normal(3),
                                       confidence=0.9).covers(5.0)
    lo, hi = stats.binom(reps, 0.9).ppf([0.0005, 0.9995]) / reps
    assert lo <= hits / reps <= hi, hits
    assert lo <= hits2 / reps <= hi, hits2


@pytest.mark.parametrize("block, n", [(2, 7), (3, 3), (4, 16), (5, 1), (1, 4)])
def test_mc_mean_blocks_fold_to_the_plain_mean_and_variance(block, n):
    n = max(n, 2)
    rng = np.random.default_rng(block)
    x = 1e6 + rng.standard_normal((n, 2))  # a large offset: the shifted sums must stay accurate
    rec = Recorder(x)
    est = mc_mean(rec, n, seed=1, block=block)
    assert rec.sizes == [min(block, n - j) for j in range(0, n, block)]
    np.testing.assert_allclose(est.mean, x.mean(axis=0), rtol=1e-14)
    np.testing.assert_allclose(est.se, x.std(axis=0, ddof=1) / math.sqrt(n), rtol=1e-7)
    q = stats.t(df=n - 1).ppf(0.995)
    np.testing.assert_allclose(est.ci_high - est.ci_low, 2 * q * x.std(axis=0, ddof=1) / math.sqrt(n), rtol=1e-7)


def test_mc_mean_streams_are_independent_of_chunk_and_distinct_per_block():
    f = lambda g, size: g.standard_normal(size)  # noqa: E731
    a = mc_mean(f, 50, seed=3, block=10)
    b = mc_mean(f, 50, seed=3, block=10, chunk=7)
    assert (a.mean, a.se) == (b.mean, b.se)
    blocks = []
    mc_mean(lambda g, size: blocks.append(g.standard_normal(size)) or blocks[-1], 30, seed=3, block=10)
    assert len(blocks) == 3 and not np.allclose(blocks[0], blocks[1])


# --------------------------------------------------------------------------- Estimate helpers
def test_estimate_covers_z_score_and_unpacking():
    est = estimate_from_samples(np.array([1.0, 2.0, 3.0, 4.0]), confidence=0.95)
    mean, se = est
    assert (mean, se) == (2.5, pytest.approx(np.std([1, 2, 3, 4], ddof=1) / 2))
    assert est.covers(est.ci_low) and est.covers(est.ci_high)
    assert not est.covers(est.ci_high + 1e-9)
    assert est.covers(est.ci_high + 0.5, atol=0.5) and not est.covers(est.ci_low - 0.6, atol=0.5)
    assert est.covers(est.ci_low - 0.4, atol=0.5) and not est.covers(est.ci_high + 0.6, atol=0.5)
    assert type(est.covers(2.5)) is bool
    assert est.z_score(2.5 - 2 * se) == pytest.approx(2.0)
    assert est.z_score(2.5 + se) == pytest.approx(-1.0)
    vec = estimate_from_samples(np.array([[0.0, 1.0, 5.0], [0.0, 3.0, 5.0]]))
    np.testing.assert_array_equal(vec.covers([0.0, 2.0, 6.0]), [True, True, False])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # 0/0 and inf*0 are handled without numpy warnings
        z = vec.z_score([0.0, 1.0, 4.0])  # se = 0 in the first and last coordinates
    assert z[0] == 0.0 and z[1] == pytest.approx(1.0) and z[2] == np.inf
    assert vec.z_score([1.0, 2.0, 6.0])[2] == -np.inf
    assert type(est.z_score(0.0)) is float


def test_estimate_summaries_report_the_numbers():
    est = estimate_from_samples(np.array([1.0, 2.0, 3.0, 4.0]), confidence=0.9)
    s = est.summary()
    assert s.startswith("estimate 2.5 (se 0.645), 90% CI [") and s.endswith("], n=4")
    assert f"{est.ci_low:.6g}" in s and f"{est.ci_high:.6g}" in s
    assert repr(est) == f"Estimate({s})"
    vec = estimate_from_samples(np.array([[0.0, 1.0], [2.0, 5.0]]), confidence=0.99)
    assert vec.summary() == f"vector estimate of shape (2,), max se {np.max(vec.se):.3g}, n=2, 99% CIs"


def test_estimate_from_samples_and_mc_mean_reject_bad_input():
    with pytest.raises(ValueError, match="at least 2 replications; got 1"):
        estimate_from_samples(np.array([1.0]))
    with pytest.raises(ValueError, match="must return 3 replications along axis 0; got shape"):
        mc_mean(lambda g, size: np.zeros(size + 1), 3, seed=0)
    z = lambda g, size: np.zeros(size)  # noqa: E731
    for kw, name in ((dict(n_samples=1), "n_samples"), (dict(chunk=0), "chunk"), (dict(confidence=1.0), "confidence"),
                     (dict(confidence=0.0), "confidence"), (dict(block=0), "block")):
        with pytest.raises(ValueError, match=f"`{name}`"):
            mc_mean(z, **{**dict(n_samples=5, seed=0), **kw})
    assert mc_mean(z, 2, seed=0, chunk=1, block=1).mean == 0.0  # the smallest valid values


@pytest.mark.parametrize("k, n", [(0, 10), (3, 10), (10, 10), (7, 40)])
def test_proportion_estimate_against_beta_quantiles_and_wilson_formula(k, n):
    from fedtheory.montecarlo import proportion_estimate

    conf = 0.9
    a = 1 - conf
    est = proportion_estimate(k, n, confidence=conf)
    lo = 0.0 if k == 0 else stats.beta(k, n - k + 1).ppf(a / 2)
    hi = 1.0 if k == n else stats.beta(k + 1, n - k).ppf(1 - a / 2)
    assert (est.ci_low, est.ci_high) == pytest.approx((lo, hi), abs=1e-10)
    p_hat, (l2, h2) = est
    assert p_hat == k / n and est.successes == k and est.n == n and est.method == "beta"
    w = proportion_estimate(k, n, confidence=conf, method="wilson")
    z = stats.norm.ppf(1 - a / 2)
    centre = (k / n + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(k / n * (1 - k / n) / n + z * z / (4 * n * n))
    assert (w.ci_low, w.ci_high) == pytest.approx((centre - half, centre + half), abs=1e-10)
    assert w.confidence == conf and w.method == "wilson"
    assert est.summary() == f"{k}/{n} = {k / n:.4g}, 90% Clopper-Pearson CI [{lo:.4g}, {hi:.4g}]"
    assert "Wilson CI" in w.summary() and repr(w) == f"ProportionEstimate({w.summary()})"


def test_proportion_estimate_rejects_bad_input():
    from fedtheory.montecarlo import proportion_estimate

    from fedtheory.montecarlo import ProportionEstimate

    with pytest.raises(ValueError, match="`method` must be one of: 'beta', 'wilson'; got 'exact'"):
        proportion_estimate(1, 2, method="exact")
    for args, name in (((3, 2), "successes"), ((-1, 2), "successes"), ((0, 0), "n")):
        with pytest.raises(ValueError, match=f"`{name}`"):
            proportion_estimate(*args)
    for conf in (0.0, 1.0):
        with pytest.raises(ValueError, match="`confidence`"):
            proportion_estimate(1, 2, confidence=conf)
    assert proportion_estimate(1, 1).p_hat == 1.0  # n = 1 is allowed
    other = ProportionEstimate(1, 2, 0.5, 0.1, 0.9, 0.95, method="jeffreys")
    assert other.summary() == "1/2 = 0.5, 95% jeffreys CI [0.1, 0.9]"


# --------------------------------------------------------------------------- re-measured 120-sample of
# montecarlo.py: parameter names and whole messages, the sampler's own errors, the caller's errstate.
def test_montecarlo_messages_name_their_parameters():
    from fedtheory.montecarlo import proportion_estimate

    with pytest.raises(ValueError, match=r"^`samples` must be finite"):
        estimate_from_samples([1.0, np.nan])
    for bad in (1.0, 1.5):  # the interval (0, 1) is open at 1
        with pytest.raises(ValueError, match=r"^`confidence` must be in"):
            estimate_from_samples([1.0, 2.0], confidence=bad)
    with np.errstate(all="ignore"):  # deviations of 5e199 square to inf
        with pytest.raises(ValueError, match=r"^the estimate of `samples` overflows float64 \(their spread is too "
                                             r"large in magnitude\)$"):
            estimate_from_samples([0.0, 1e200])
    # the per-block streams: 2e7 blocks of one replication need 2e7 x 400 bytes > 4 GiB
    with pytest.raises(ValueError, match=r"^the 20000000 per-block random streams .*`n_samples`=20000000, `block`=1"):
        mc_mean(lambda rng, size: rng.random(size), 2 * 10 ** 7, seed=0, block=1)
    # one sampler call of 1e9 replications needs 8e9 bytes > 4 GiB
    with pytest.raises(ValueError, match=r"^one sampler call \(at least 8 bytes per replication\) would need .*"
                                         r"`n_samples`=1000000000, `block`=1000000000"):
        mc_mean(lambda rng, size: rng.random(size), 10 ** 9, seed=0, block=10 ** 9)
    with pytest.raises(ValueError, match=r"^`n` must be"):
        proportion_estimate(0, 0)


def test_mc_mean_reports_the_samplers_errors():
    def names_itself(rng, size):
        raise ValueError("my sampler needs size >= 3")

    def plain(rng, size):
        raise ValueError("boom")

    def nan_at_one(rng, size):
        x = rng.random(size)
        x[1] = np.nan
        return x

    with pytest.raises(ValueError, match=r"^my sampler needs size >= 3$"):  # already names the sampler: as is
        mc_mean(names_itself, 10, seed=0)
    with pytest.raises(ValueError, match=r"^`sampler` raised ValueError: boom$"):
        mc_mean(plain, 10, seed=0)
    with pytest.raises(ValueError, match=r"^`sampler` returned a NaN or inf in block 0 \(1 entries\)"):
        mc_mean(nan_at_one, 10, seed=0)


def test_proportion_estimate_keeps_its_own_errstate():
    """The Wilson interval of 1e307 successes in 1e308 overflows in an intermediate product; the
    function silences that itself, so a caller's ``np.errstate(all="raise")`` must not turn it into an
    error. p_hat = 0.1 and n = 1e308 give an interval of width ~1e-154 around 0.1."""
    from fedtheory.montecarlo import proportion_estimate

    with np.errstate(all="raise"):
        est = proportion_estimate(10 ** 307, 10 ** 308, method="wilson")
    assert est.ci_low == pytest.approx(0.1, rel=1e-12) and est.ci_high == pytest.approx(0.1, rel=1e-12)


def test_mc_mean_against_exponential_mean():
    est = mc_mean(lambda g, n: g.exponential(2.0, n), 200_000, seed=5, chunk=30_000)
    assert est.covers(2.0)
    assert est.se == pytest.approx(2.0 / np.sqrt(200_000), rel=0.05)  # std of Exp(scale 2) is 2
    again = mc_mean(lambda g, n: g.exponential(2.0, n), 200_000, seed=5, chunk=30_000)
    assert again.mean == est.mean


def test_mc_mean_vector_and_summary():
    est = mc_mean(lambda g, n: g.standard_normal((n, 3)) + np.arange(3), 50_000, seed=1)
    assert np.all(est.covers(np.arange(3)))
    assert "vector estimate" in est.summary()
    m, se = est
    assert m.shape == (3,)


def test_estimate_from_samples_matches_scipy_t_interval():
    x = np.random.default_rng(0).standard_normal(40)
    est = estimate_from_samples(x, 0.95)
    lo, hi = stats.t.interval(0.95, 39, loc=x.mean(), scale=stats.sem(x))
    assert est.ci_low == pytest.approx(lo) and est.ci_high == pytest.approx(hi)


def test_proportion_estimate_is_clopper_pearson():
    pe = proportion_estimate(7, 20, 0.95)
    ci = stats.binomtest(7, 20).proportion_ci(0.95, method="exact")
    assert pe.ci_low == pytest.approx(ci.low) and pe.ci_high == pytest.approx(ci.high)
    with pytest.raises(ValueError, match="successes"):
        proportion_estimate(21, 20)


def test_mc_chunk_size_never_changes_the_result():
    f = lambda g, n: g.standard_normal((n, 3)).sum(axis=1)  # noqa: E731
    a = mc_mean(f, 20_000, seed=4, chunk=1000)
    b = mc_mean(f, 20_000, seed=4, chunk=7777)
    c = mc_mean(f, 20_000, seed=4)
    assert a.mean == b.mean == c.mean and a.se == b.se
