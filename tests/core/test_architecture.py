"""fedtheory.architecture: the import graph read from source, and the house rule of no import cycles."""
import os

import pytest

from fedtheory.architecture import ImportGraph, import_cycles, import_graph

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PACKAGES = {"fedtheory": os.path.join(ROOT, "fedtheory"), "fedtheory_checks": os.path.join(ROOT, "checks"),
            "fedtheory_reproductions": os.path.join(ROOT, "paper_reproductions"),
            "fedtheory_benchmarks": os.path.join(ROOT, "benchmarks")}
# the mutation sandbox (.ci/mutation.sh) copies fedtheory/ and tests/ only: read what is there
PACKAGES = {name: path for name, path in PACKAGES.items() if os.path.isdir(path)}
WHOLE_REPO = len(PACKAGES) == 4


def _write(root, files: dict):
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as fh:
            fh.write(text)


@pytest.fixture(scope="module")
def graph():
    return import_graph(PACKAGES)


def test_the_package_has_no_import_cycle(graph):
    assert import_cycles(graph) == []


def test_the_graph_sees_the_whole_package(graph):
    assert "fedtheory.decide._bounds" in graph.modules
    if WHOLE_REPO:
        assert "fedtheory_checks.srpfl" in graph.modules
    assert ("fedtheory.findings", "fedtheory._findings_render") in graph.edges
    assert len(graph.edges) > 200


def test_the_core_knows_no_paper(graph):
    core = [a for a, b in graph.edges if a.startswith("fedtheory.") or a == "fedtheory"]
    leaks = sorted((a, b) for a, b in graph.edges
                   if a in core and b.split(".")[0] in ("fedtheory_checks", "fedtheory_reproductions"))
    assert leaks == []


def test_a_cycle_is_found_with_its_members(tmp_path):
    _write(tmp_path, {"pkg/__init__.py": "", "pkg/a.py": "from . import b\n",
                      "pkg/b.py": "def f():\n    from .c import g\n",  # a function-level import counts
                      "pkg/c.py": "import pkg.a\n", "pkg/d.py": "from pkg.a import x\n"})
    g = import_graph({"pkg": str(tmp_path / "pkg")})
    assert import_cycles(g) == [("pkg.a", "pkg.b", "pkg.c")]
    assert g.successors("pkg.d") == ["pkg.a"]


def test_two_cycles_are_reported_apart_and_sorted(tmp_path):
    _write(tmp_path, {"q/__init__.py": "", "q/x.py": "from .y import f\n", "q/y.py": "from .x import g\n",
                      "q/sub/__init__.py": "from ..z import h\n", "q/z.py": "from .sub import k\n"})
    g = import_graph({"q": str(tmp_path / "q")})
    assert import_cycles(g) == [("q.sub", "q.z"), ("q.x", "q.y")]


def test_a_name_from_a_package_is_not_an_import_of_its_submodule(tmp_path):
    # `from pkg import name` names pkg; `from pkg import sub` names pkg.sub
    _write(tmp_path, {"p/__init__.py": "from .core import VALUE\n", "p/core.py": "VALUE = 1\n",
                      "p/user.py": "from p import VALUE\nfrom p import core\n"})
    g = import_graph({"p": str(tmp_path / "p")})
    assert g.successors("p.user") == ["p", "p.core"]
    assert import_cycles(g) == []
    assert "0 cycles" in g.summary() and "p.user -> p, p.core" in g.summary()


def test_a_self_import_and_outside_imports_are_dropped(tmp_path):
    _write(tmp_path, {"s/__init__.py": "import os\nimport numpy\n", "s/m.py": "import s.m\nimport json\n"})
    g = import_graph({"s": str(tmp_path / "s")})
    assert g.edges == frozenset()
    assert isinstance(g, ImportGraph)


def test_a_folder_without_init_is_not_a_package(tmp_path):
    _write(tmp_path, {"t/__init__.py": "", "t/data/notes.py": "import t\n"})
    assert list(import_graph({"t": str(tmp_path / "t")}).modules) == ["t"]


@pytest.mark.parametrize("bad", [None, {}, ["fedtheory"], "fedtheory"])
def test_packages_must_be_a_non_empty_dict(bad):
    with pytest.raises(TypeError, match="packages"):
        import_graph(bad)


def test_a_missing_folder_is_named(tmp_path):
    with pytest.raises(ValueError, match=r"packages\['nope'\]"):
        import_graph({"nope": str(tmp_path / "absent")})


def test_a_cycle_below_the_first_module_is_found(tmp_path):
    # r -> s -> t -> s: the cycle does not pass through the module the search starts from
    _write(tmp_path, {"w/__init__.py": "", "w/r.py": "from . import s\n", "w/s.py": "from . import t\n",
                      "w/t.py": "from .s import f\n"})
    assert import_cycles(import_graph({"w": str(tmp_path / "w")})) == [("w.s", "w.t")]


def test_a_dotted_name_below_a_module_resolves_to_the_module(tmp_path):
    # `import v.core.helper` names v.core (helper is not a module); a module that imports nothing shows (none)
    _write(tmp_path, {"v/__init__.py": "", "v/core.py": "helper = 1\n", "v/user.py": "import v.core.helper\n"})
    g = import_graph({"v": str(tmp_path / "v")})
    assert g.successors("v.user") == ["v.core"]
    assert "v.core -> (none)" in g.summary().splitlines()
