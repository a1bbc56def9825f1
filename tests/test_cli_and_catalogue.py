import json
import subprocess
import sys

import pytest

from fedtheory import Paper, get_claim, get_paper, paper_keys, register_paper, registry, unregister_paper
from fedtheory.claims import FAILS, STATUSES
from fedtheory.cli import main


def test_every_claim_cites_its_paper_and_has_a_statement():
    assert len(registry("fedrep")) >= 15 and len(registry("srpfl")) >= 18 and len(registry("lpproj")) >= 20 \
        and len(registry("fedlrgd")) >= 18
    for c in registry():
        assert c.paper in paper_keys() and c.id.startswith(c.paper + ".")
        assert c.reference and len(c.statement) > 20


@pytest.mark.parametrize("claim_id", [c.id for c in registry()])
def test_quick_claims_match_their_recorded_outcome(claim_id):
    """Contract over the catalogue (benchopt-style): every quick claim returns the outcome its paper
    records for it (a paper that is wrong as recorded is fine; a changed outcome is a regression),
    with the required fields, and a decided outcome carries its margin and detection threshold."""
    from fedtheory.claims import DECIDED
    from fedtheory.plugins import get_paper

    claim = get_claim(claim_id)
    v = claim.evaluate(full=False, expected=get_paper(claim.paper).expected(claim.id, False))
    assert v.status in STATUSES
    assert v.expected is not None and not v.regression, str(v)
    if v.status in DECIDED:
        assert isinstance(v.margin, dict) and isinstance(v.detects, dict), str(v)
    d = v.to_dict()
    for key in ("id", "paper", "reference", "statement", "status", "observed", "bound"):
        assert key in d
    json.dumps(d)


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
          "fedlrgd.eq60.step-iv.erratum", "fedlrgd.appE.first-term.erratum")


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


def test_cli_list(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "fedrep.thm1.contraction" in out and "fedrep.fig3" in out


def test_cli_verify_json(tmp_path, capsys):
    path = tmp_path / "out.json"
    code = main(["verify", "--paper", "fedrep", "--claim", "fedrep.def1.dist-identities",
                 "--claim", "fedrep.thm1.kappa-typo", "--json", str(path)])
    assert code == 0
    out = json.loads(path.read_text())
    records = out["verdicts"]
    assert out["provenance"]["fedtheory"] and out["provenance"]["mode"] == "quick"
    assert out["papers"]["fedrep"]["citation"]["year"] == 2021
    assert [r["id"] for r in records] == ["fedrep.def1.dist-identities", "fedrep.thm1.kappa-typo"]
    assert records[1]["status"] == "erratum" and records[1]["legacy_status"] == "erratum-confirmed"
    assert "summary:" in capsys.readouterr().out


def test_cli_verify_exits_1_on_fails(capsys):
    paper = Paper(key="zzfail", title="A failing paper", authors=["A. Author"], year=2025, venue="arXiv")

    @paper.claim("zzfail.eq1", "Eq. (1)", "a deliberately failing claim for the exit-code test")
    def _f(full, seed):
        return dict(status=FAILS, observed=2.0, bound=1.0, evidence="2 > 1")

    register_paper(paper)
    try:
        assert main(["verify", "--claim", "zzfail.eq1"]) == 1
        assert main(["verify", "--paper", "zzfail"]) == 1
    finally:
        unregister_paper("zzfail")


def test_cli_bad_input_is_one_line_and_exit_2():
    r = subprocess.run([sys.executable, "-m", "fedtheory.cli", "verify", "--claim", "nope.x"],
                       capture_output=True, text=True)
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    r = subprocess.run([sys.executable, "-m", "fedtheory.cli", "verify", "--paper", "xyz"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    r = subprocess.run([sys.executable, "-m", "fedtheory.cli", "reproduce", "fedrep", "--figure",
                        "fedrep.fig9"], capture_output=True, text=True)
    assert r.returncode == 2 and "unknown figure" in r.stderr and "Traceback" not in r.stderr


def test_reproduce_writes_png_pdf_and_sidecar(tmp_path):
    from fedtheory import reproduce

    paths = reproduce("fedrep", outdir=str(tmp_path), only=["fedrep.fig4"])
    p = paths[0]
    for ext in ("png", "pdf", "json"):
        assert (tmp_path / f"fedrep_fig4.{ext}").stat().st_size > 1000
    side = json.loads(open(p["json"]).read())
    assert side["params"]["d"] == 20 and "FedRep" in side["data"]
    assert side["figure_id"] == "fedrep.fig4" and "Collins" in side["paper"] and "2021" in side["paper"]
    assert side["provenance"]["seed"] == 0 and side["provenance"]["numpy"]
    assert len(side["data"]["FedRep"][0]) == len(side["params"]["m_news"])


def test_cli_speedup_and_its_bad_input():
    r = subprocess.run([sys.executable, "-m", "fedtheory", "calc", "srpfl", "--N", "256"],
                       capture_output=True, text=True)
    assert r.returncode == 0 and "0.474" in r.stdout  # idealised ratio at N=256, a=0.05, c_hat=1.2
    for bad in (["--c-hat", "1.5"], ["--n0", "1000"], ["--lam", "0"], ["--N", "64", "--n0", "1"]):
        r = subprocess.run([sys.executable, "-m", "fedtheory", "calc", "srpfl", *bad],
                           capture_output=True, text=True)
        if bad[0] == "--N":
            assert r.returncode == 0  # n0 = 1 is allowed
            continue
        assert r.returncode == 2 and r.stdout == "" and r.stderr.count("\n") == 1, bad


def test_cli_lpproj_and_its_bad_input():
    r = subprocess.run([sys.executable, "-m", "fedtheory", "calc", "lpproj"], capture_output=True, text=True)
    assert r.returncode == 0 and "0.000246269" in r.stdout  # lambda_1^* for the Figure 1 parameters
    r = subprocess.run([sys.executable, "-m", "fedtheory", "calc", "lpproj", "--attack", "none"],
                       capture_output=True, text=True)
    assert r.returncode == 0
    for bad, word in ((["--d-sub", "200"], "d_sub"), (["--N-a", "100"], "N_a"), (["--b", "0"], "`b`"),
                      (["--lam", "-1"], "lam"), (["--attack", "flood"], "attack")):
        r = subprocess.run([sys.executable, "-m", "fedtheory", "calc", "lpproj", *bad], capture_output=True, text=True)
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and word in r.stderr, bad


def test_cli_fedlrgd_and_its_bad_input():
    r = subprocess.run([sys.executable, "-m", "fedtheory", "calc", "fedlrgd", "--d", "1", "--eta", "50", "--kappa", "2",
                        "--eps", "0.01"], capture_output=True, text=True)
    assert r.returncode == 0 and "r = 278" in r.stdout
    for bad, word in ((["--eta", "0"], "eta"), (["--d", "0"], "`d`"), (["--r", "0"], "`r`"),
                      (["--b", "5", "--q", "1"], "`q`"), (["--d", "1", "--eta", "50", "--kappa", "1"], "kappa"),
                      (["--d", "1", "--eta", "50", "--eps", "1e6"], "epsilon")):
        r = subprocess.run([sys.executable, "-m", "fedtheory", "calc", "fedlrgd", *bad], capture_output=True, text=True)
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and word in r.stderr, bad


def test_a_claim_that_raises_is_an_error_and_verify_goes_on(capsys, tmp_path):
    paper = Paper(key="zzerr", title="A crashing paper", authors=["A. Author"], year=2025, venue="arXiv")

    @paper.claim("zzerr.a", "Eq. (1)", "raises")
    def _a(full, seed):
        raise ZeroDivisionError("boom")

    @paper.claim("zzerr.b", "Eq. (2)", "holds, and runs after the crash")
    def _b(full, seed):
        return dict(status="holds", observed=1, bound=1, evidence="ok")

    @paper.claim("zzerr.c", "Eq. (3)", "returns a status that does not exist")
    def _c(full, seed):
        return dict(status="fine", observed=1, bound=1)

    register_paper(paper)
    try:
        out = tmp_path / "v.json"
        assert main(["verify", "--paper", "zzerr", "--json", str(out)]) == 1
        text = capsys.readouterr().out
        assert "ZeroDivisionError: boom" in text and "1 holds" in text and "2 error" in text
        recs = {v["id"]: v for v in json.loads(out.read_text())["verdicts"]}
        assert recs["zzerr.a"]["status"] == "error" and recs["zzerr.b"]["status"] == "holds"
        assert "'fine'" in recs["zzerr.c"]["evidence"]
    finally:
        unregister_paper("zzerr")
