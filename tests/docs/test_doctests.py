"""The docstring examples of fedtheory run as doctests (one case per module with examples).

Every public module is imported and its docstrings searched with :class:`doctest.DocTestFinder`;
the examples run with ``NORMALIZE_WHITESPACE | ELLIPSIS`` and numpy's print options fixed
(legacy ``1.25`` scalar reprs off: ``np.float64(0.5)`` prints as ``np.float64(0.5)``, as a reader's
numpy 2 session does). A failed example fails the module's case. The modules a researcher uses
first must carry at least one example (``MUST_HAVE_EXAMPLES``).
"""
from __future__ import annotations

import doctest
import importlib
import io
import pkgutil

import numpy as np
import pytest

import fedtheory

#: modules whose public functions researchers use first: each must have a runnable example
MUST_HAVE_EXAMPLES = ("fedtheory.claims", "fedtheory.montecarlo", "fedtheory.linalg", "fedtheory.testing",
                      "fedtheory.representation.theory", "fedtheory.srpfl.theory", "fedtheory.lpproj.theory",
                      "fedtheory.lowrank.theory")
FLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS


def _modules() -> list[str]:
    names = ["fedtheory"] + [m.name for m in pkgutil.walk_packages(fedtheory.__path__, "fedtheory.")
                             if not m.name.endswith(("__main__", "_console"))]
    return sorted(names)


def _tests(modname: str) -> list[doctest.DocTest]:
    mod = importlib.import_module(modname)
    finder = doctest.DocTestFinder(exclude_empty=True)
    # only docstrings of objects defined in this module (re-exports are tested where they live)
    return [t for t in finder.find(mod, modname) if t.examples]


def _run(tests) -> tuple[int, int, str]:
    out = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    old = np.get_printoptions()
    np.set_printoptions(precision=8, suppress=False, linewidth=75, threshold=1000, legacy=False)
    try:
        for t in sorted(tests, key=lambda t: t.name):
            runner.run(t, out=out.write, clear_globs=True)
    finally:
        np.set_printoptions(**old)
    res = runner.summarize(verbose=False)
    return res.failed, res.attempted, out.getvalue()


MODULES_WITH_EXAMPLES = [m for m in _modules() if _tests(m)]


def test_required_modules_have_examples():
    missing = [m for m in MUST_HAVE_EXAMPLES if m not in MODULES_WITH_EXAMPLES]
    assert not missing, f"modules without a runnable docstring example: {missing}"


@pytest.mark.parametrize("modname", MODULES_WITH_EXAMPLES)
def test_docstring_examples(modname):
    failed, attempted, report = _run(_tests(modname))
    assert attempted > 0
    assert failed == 0, f"{failed} of {attempted} examples failed in {modname}:\n{report}"


def test_runner_reports_a_wrong_example():
    """The harness itself fails on a wrong expected output (so a passing run means something)."""
    parser = doctest.DocTestParser()
    bad = parser.get_doctest(">>> 1 + 1\n3\n", {}, "bad", "bad.py", 0)
    good = parser.get_doctest(">>> 1 + 1\n2\n", {}, "good", "good.py", 0)
    assert _run([bad])[0] == 1
    assert _run([good]) == (0, 1, "")
