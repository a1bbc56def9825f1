"""Fixtures shared by the tests of the documentation, the docstring examples and the notebooks.

None so far: each test file keeps the fixtures only it uses; one that two files of this folder need moves here."""
