"""Every claim of the catalogue can fail, states its regime, and every erratum names its referee.

The per-paper tables ``FAILS_PATHS`` (tests/test_fails_<paper>.py) inject violating numbers into
each claim and assert ``fails``; this file checks that together they cover every claim.
"""
import importlib

import pytest

from fedtheory import registry

PAPERS = ("fedrep", "srpfl", "lpproj", "fedlrgd")


def test_every_claim_has_a_tested_fails_path():
    covered = set()
    for p in PAPERS:
        covered |= set(importlib.import_module(f"test_fails_{p}").FAILS_PATHS)
    ids = {c.id for c in registry()}
    missing = sorted(i for i in ids if i.split(".", 1)[0] in PAPERS and i not in covered)
    assert not missing, f"claims without a tested fails path: {missing}"


@pytest.mark.parametrize("claim", [c for c in registry() if c.paper in PAPERS], ids=lambda c: c.id)
def test_every_claim_states_its_regime(claim):
    assert len(claim.regime) >= 20, f"{claim.id} states no regime"
