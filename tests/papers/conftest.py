"""Fixtures shared by the tests of the paper catalogue (tests/papers/<paper>/test_<section>.py): the fails-path
tables of a paper's section files, read from their source (``serial_uncached``, which runs claims in process, is in
tests/conftest.py)."""
import ast
import pathlib

import pytest


@pytest.fixture(scope="session")
def fails_path_ids():
    """``fails_path_ids(paper)``: ``(claim id, file name)`` for every key of the module-level ``FAILS_PATHS``
    dict of each tests/papers/<paper>/test_*.py, read from the source (test modules never import each other)."""
    here = pathlib.Path(__file__).resolve().parent

    def ids(paper):
        out = []
        for path in sorted((here / paper).glob("test_*.py")):
            for node in ast.parse(path.read_text()).body:
                if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "FAILS_PATHS"
                                                        for t in node.targets):
                    assert isinstance(node.value, ast.Dict), f"{path.name}: FAILS_PATHS must be a dict literal"
                    out += [(k.value, path.name) for k in node.value.keys]
        return out

    return ids
