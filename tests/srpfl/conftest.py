"""Fixtures shared by the tests of fedtheory.srpfl (tests/srpfl/test_<module>.py).

None so far: each test file keeps the fixtures only it uses; one that two files of this folder need moves here."""
