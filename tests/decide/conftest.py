"""Fixtures shared by the tests of the decision kit fedtheory.decide (tests/decide/test_<module>.py for
fedtheory/decide/_<module>.py).

None so far: each test file keeps the fixtures only it uses; one that two files of this folder need moves here."""
