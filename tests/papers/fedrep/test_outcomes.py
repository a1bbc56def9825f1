"""The FedRep plugin as a whole (Collins, Hassani, Mokhtari and Shakkottai, *Exploiting Shared Representations for
Personalized Federated Learning*, ICML 2021): recorded outcomes for every claim, no verdict rule outside
:mod:`fedtheory.decide`, and exactly one fails path per claim among the section files."""


def test_outcomes_are_recorded_for_every_claim():
    from fedtheory import get_paper

    paper = get_paper("fedrep")
    assert set(paper.expected_outcomes()) == {c.id for c in paper.claims()}


def test_no_verdict_rule_in_the_catalogue():
    """The catalogue decides through fedtheory.decide: no status literal, no legacy helper."""
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parents[3] / "checks" / "fedrep"
    for path in root.glob("*.py"):
        text = path.read_text()
        assert "_util" not in text, path.name
        assert not re.search(r"status\s*=\s*(HOLDS|FAILS|ERRATUM|INCONCLUSIVE|REFUTED|\")", text), path.name
        assert not re.search(r"from fedtheory\.claims import", text), path.name


def test_every_claim_has_a_fails_path(fails_path_ids):
    """The ``FAILS_PATHS`` tables of this folder's section files cover exactly the claims of the paper."""
    from fedtheory import get_paper

    assert {cid for cid, _ in fails_path_ids("fedrep")} == {c.id for c in get_paper("fedrep").claims()}


def test_no_claim_has_two_fails_paths(fails_path_ids):
    seen = {}
    for cid, where in fails_path_ids("fedrep"):
        assert cid not in seen, f"{cid}: a fails path in {seen.get(cid)} and in {where}"
        seen[cid] = where
