"""The README's Python examples run as written (keeps the README true)."""
import pathlib
import re

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def _python_blocks():
    return re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def test_readme_python_examples_run():
    blocks = _python_blocks()
    assert len(blocks) >= 2
    for block in blocks:
        ns: dict = {}
        exec(compile(block, str(README), "exec"), ns)
        for name, obj in list(ns.items()):
            code = getattr(obj, "__code__", None)
            if name.startswith("test_") and code is not None and code.co_filename == str(README):
                obj()  # a test function defined in the README itself
        paper = ns.get("PAPER")
        if paper is not None:  # the plugin example: a valid paper whose ledger covers its claims and figure
            assert len(paper.ledger()) == 2 and paper.claims()[0].evaluate().status == "holds"


def test_readme_names_the_commands():
    text = README.read_text()
    for cmd in ("fedtheory verify", "fedtheory reproduce fedrep", "fedtheory list",
                "python3 -m pytest", "pip install -e '.[test,dask,docs,jupyter]'",
                "python3 -m sphinx -W -b html docs docs/_build/html"):
        assert cmd in text
