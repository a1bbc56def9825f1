"""The built-in paper catalogue as a whole: every claim cites its paper, states its regime and has a tested fails
path (the ``FAILS_PATHS`` tables of tests/papers/<paper>/), and every erratum is shown as printed-fails /
corrected-holds."""
import pytest

from fedtheory import get_claim, paper_keys, registry


def test_every_claim_cites_its_paper_and_has_a_statement():
    assert len(registry("fedrep")) >= 15 and len(registry("srpfl")) >= 18 and len(registry("lpproj")) >= 20 \
        and len(registry("fedlrgd")) >= 18
    for c in registry():
        assert c.paper in paper_keys() and c.id.startswith(c.paper + ".")
        assert c.reference and len(c.statement) > 20


ERRATA = ("fedrep.thm1.kappa-typo", "fedrep.sec4.non-identifiability", "srpfl.eq224.erratum",
          "srpfl.eq149.inequality", "srpfl.lemA7-A9.sigma-scaling", "srpfl.alg2.line16",
          "lpproj.thm32.fairness-constant.erratum", "lpproj.appB4.fairness-monotone.erratum",
          "lpproj.appB2.bias-over-N.erratum", "lpproj.appB2.covariance.erratum", "lpproj.fig1.lambda-star.erratum",
          "fedlrgd.alg1.line10.erratum",
          "fedlrgd.eq47.bracket.erratum",
          "fedrep.fig1.mtest-scaling", "fedrep.remark-init.e0-reading", "fedrep.asm3.row-incoherence",
          "fedrep.sec4.invariance-general",
          "srpfl.lemA8-A10.sigma-scaling", "srpfl.eq137.A2-sigma", "srpfl.eq185.R2-sigma",
          "srpfl.eq190.R3-sigma", "srpfl.corA3.transpose", "srpfl.eq32-33.expansion", "srpfl.eq229.erratum",
          "srpfl.eqD.parenthesisation-erratum",
          "lpproj.thm9.AT-step.erratum", "lpproj.thm9.exp-T.erratum", "lpproj.a5.sums.erratum",
          "lpproj.eq33.sums.erratum", "lpproj.thm28.first-term.erratum", "lpproj.eq49d.identity.erratum",
          "lpproj.prop3.proof-conjugate.erratum", "lpproj.prop24.gram-matrix.erratum",
          "lpproj.sec61.block-diagonal-cost.erratum",
          "lpproj.appC71.table11-text.erratum", "lpproj.eq11.erratum",
          "fedlrgd.eq60.step-iv.erratum", "fedlrgd.appE.first-term.erratum",
          "srpfl.eq107.c0-threshold",
          "srpfl.eq150-151.max-split",
          "srpfl.eq152-153.E5-step",
          "srpfl.eq172-173.cross-term",
          "srpfl.eq186-188.R3-links",
          "srpfl.eq191-192.sigma-free-term",
          "srpfl.eq194-196.assembly",
          "srpfl.eq31.l-choice",
          "srpfl.eq37.net-normalisation",
          "srpfl.eq40.bernstein",
          "srpfl.eq44-91.substitution",
          "srpfl.eq55.sum-range",
          "srpfl.eq61-62.sigma",
          "srpfl.eq65.direction",
          "srpfl.fig8.stragglers-rates")


@pytest.mark.parametrize("cid", ERRATA)
def test_errata_are_shown_as_printed_fails_corrected_holds(cid, serial_uncached):
    """Each erratum: printed form fails and corrected form holds, decided by a named independent referee."""
    v = get_claim(cid).evaluate()
    assert v.status == "erratum", v.summary()
    assert v.bound == {"printed_holds": False, "corrected_holds": True}
    assert len(v.referee) >= 15, f"{cid} names no referee"
    assert v.root_cause, f"{cid} names no root cause"


def test_every_erratum_verdict_is_in_the_errata_list():
    assert {c.id for c in registry() if c.id.endswith(".erratum")} <= set(ERRATA)
    # and every claim whose recorded outcome is an erratum
    from fedtheory.plugins import get_paper

    recorded = {c.id for c in registry() if get_paper(c.paper).expected(c.id, False) == "erratum"}
    assert recorded <= set(ERRATA), sorted(recorded - set(ERRATA))


PAPERS = ("fedrep", "srpfl", "lpproj", "fedlrgd")


def test_every_claim_has_a_tested_fails_path(fails_path_ids):
    covered = {cid for p in PAPERS for cid, _ in fails_path_ids(p)}
    ids = {c.id for c in registry()}
    missing = sorted(i for i in ids if i.split(".", 1)[0] in PAPERS and i not in covered)
    assert not missing, f"claims without a tested fails path: {missing}"


@pytest.mark.parametrize("claim", [c for c in registry() if c.paper in PAPERS], ids=lambda c: c.id)
def test_every_claim_states_its_regime(claim):
    assert len(claim.regime) >= 20, f"{claim.id} states no regime"
