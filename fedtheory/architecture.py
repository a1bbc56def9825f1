"""The package's own import graph: who imports whom, and whether any import closes a cycle.

The graph is read from the source with :mod:`ast`, without importing anything, so it sees the
imports a module makes inside functions as well as at its top. Relative imports are resolved
against the importing module. An edge ``a -> b`` means module ``a`` names module ``b`` (or a
name defined in ``b``) in an ``import`` or ``from ... import`` statement.

The developer page of the documentation draws this graph, and the test suite fails when
:func:`import_cycles` finds a cycle.
"""
from __future__ import annotations

import ast
import os
from dataclasses import dataclass

__all__ = ["ImportGraph", "import_graph", "import_cycles"]


@dataclass(frozen=True)
class ImportGraph:
    """Modules of one or more packages and the imports between them.

    Attributes
    ----------
    modules : dict
        Dotted module name -> source path.
    edges : frozenset of tuple
        ``(importer, imported)`` pairs, both in ``modules``.
    """

    modules: dict
    edges: frozenset

    def successors(self, module: str) -> list:
        """Modules that ``module`` imports, sorted."""
        return sorted(b for a, b in self.edges if a == module)

    def summary(self) -> str:
        """One line per module: its name and the modules it imports."""
        lines = [f"{len(self.modules)} modules, {len(self.edges)} imports, "
                 f"{len(import_cycles(self))} cycles"]
        for m in sorted(self.modules):
            lines.append(f"{m} -> {', '.join(self.successors(m)) or '(none)'}")
        return "\n".join(lines)


def _modules_under(root: str, package: str) -> dict:
    found = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith((".", "__pycache__")))
        rel = os.path.relpath(dirpath, root)
        parts = [] if rel == "." else rel.split(os.sep)
        if not os.path.exists(os.path.join(dirpath, "__init__.py")):
            continue
        for fn in sorted(filenames):
            if not fn.endswith(".py"):
                continue
            stem = fn[:-3]
            name = ".".join([package, *parts] + ([] if stem == "__init__" else [stem]))
            found[name] = os.path.join(dirpath, fn)
    return found


def _imported_names(tree: ast.AST, module: str, is_package: bool, known) -> set:
    """Modules named by the imports of one module: ``from pkg import sub`` names ``pkg.sub``
    (not ``pkg``) when ``sub`` is a module, and ``pkg`` when it is a name defined there."""
    names = set()
    here = module.split(".") if is_package else module.split(".")[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - node.level + 1]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            for alias in node.names:
                sub = f"{prefix}.{alias.name}"
                names.add(sub if sub in known else prefix)
    return names


def import_graph(packages: dict) -> ImportGraph:
    """Read the import graph of source packages.

    Parameters
    ----------
    packages : dict
        Importable package name -> its source folder, for example
        ``{"fedtheory": "fedtheory", "fedtheory_checks": "checks"}``.

    Returns
    -------
    ImportGraph
        Every module found under the folders and the imports among them; imports of modules
        outside ``packages`` are dropped.
    """
    if not isinstance(packages, dict) or not packages:
        raise TypeError("packages must be a non-empty dict of package name -> source folder")
    modules = {}
    for package, root in packages.items():
        if not os.path.isdir(root):
            raise ValueError(f"packages[{package!r}] = {root!r} is not a folder")
        modules.update(_modules_under(root, package))
    edges = set()
    for module, path in modules.items():
        with open(path, encoding="utf-8") as fh:
            tree = ast.parse(fh.read(), filename=path)
        for name in _imported_names(tree, module, path.endswith("__init__.py"), modules):
            # `from pkg import mod` names pkg.mod; `from mod import f` names mod.f -> mod
            target = name
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != module:
                edges.add((module, target))
    return ImportGraph(modules=dict(sorted(modules.items())), edges=frozenset(edges))


def import_cycles(graph: ImportGraph) -> list:
    """Strongly connected components of more than one module (Tarjan's algorithm).

    An import of a package's ``__init__`` by its own submodules is a cycle only if the
    ``__init__`` imports that submodule back; such pairs are reported like any other.

    Returns
    -------
    list of tuple
        Each cycle as a sorted tuple of module names; the list is sorted.
    """
    succ = {m: [] for m in graph.modules}
    for a, b in graph.edges:
        succ[a].append(b)
    index, low, stack, on_stack, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        work = [(v, iter(sorted(succ[v])))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        while work:
            node, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(succ[w]))))
                    advanced = True
                    break
                if w in on_stack:
                    low[node] = min(low[node], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                if len(comp) > 1:
                    out.append(tuple(sorted(comp)))

    for v in sorted(succ):
        if v not in index:
            visit(v)
    return sorted(out)
