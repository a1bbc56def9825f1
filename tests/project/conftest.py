"""Fixtures shared by the tests of the project as a whole (README, packaging, the public API contract).

None so far: each test file keeps the fixtures only it uses; one that two files of this folder need moves here."""
