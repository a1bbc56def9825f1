"""The generated parts of the developer page (``docs/developer.rst``): the architecture picture, the
house rules as measured on this checkout, and the folder tree.

The picture is the import graph of :func:`fedtheory.architecture.import_graph` over the repository's
packages (the core ``fedtheory``, the paper plugins, the figure reproductions), drawn in layers:
reproductions, paper plugins, subjects (the papers' linear models) beside the decision kit, core.
Each box is a package (a paper's plugin, a subject, the decision kit, the core) listing its modules;
an arrow is every import between two boxes, labelled with their number, grey when it points down
the layers and red when it points up. Everything is read from the source and the entry points at
build time, so renamed or new modules appear without touching the docs.
"""
from __future__ import annotations

import ast
import io
import os
import subprocess
import textwrap

#: the layers, top to bottom, and their colours
LAYERS = ("reproductions, benchmarks", "paper plugins", "subjects", "decision kit", "core")
LAYER_COLORS = {"reproductions, benchmarks": "#efe3f7", "paper plugins": "#fbe8bd", "subjects": "#dcf2dc",
                "decision kit": "#dde5f3", "core": "#e8e8e8"}
#: a module longer than this breaks the house rule (files of at most about 400 lines)
MAX_LINES = 400


# ============================================================================ the graph
def source_packages(root: str) -> dict:
    """Importable package name -> source folder, from ``[tool.setuptools.package-dir]`` of
    ``pyproject.toml`` (top-level packages only) and the ``fedtheory`` folder."""
    out = {"fedtheory": os.path.join(root, "fedtheory")}
    try:
        import tomllib

        with open(os.path.join(root, "pyproject.toml"), "rb") as fh:
            dirs = tomllib.load(fh).get("tool", {}).get("setuptools", {}).get("package-dir", {})
    except (ImportError, OSError, ValueError):
        dirs = {}
    for name, folder in dirs.items():
        if name and "." not in name and os.path.isfile(os.path.join(root, folder, "__init__.py")):
            out[name] = os.path.join(root, folder)
    return out


def plugin_packages() -> set:
    """Top-level packages of the installed paper plugins (entry point group ``fedtheory.papers``)."""
    from importlib.metadata import entry_points

    return {ep.value.split(":")[0].split(".")[0] for ep in entry_points(group="fedtheory.papers")}


def group_of(module: str, packages: set, plugins: set) -> tuple[str, str]:
    """``(layer, box)`` of a module: ``fedtheory.decide.*`` is the decision kit, another subpackage
    of ``fedtheory`` a subject, the rest of ``fedtheory`` the core; a plugin package's modules are
    boxed by subpackage (one per paper) where it has subpackages; any other package is a box of the
    reproductions' layer.

    Examples
    --------
    >>> group_of("fedtheory.srpfl.theory", {"fedtheory.srpfl"}, {"fedtheory_checks"})
    ('subjects', 'fedtheory.srpfl')
    >>> group_of("fedtheory_checks.srpfl.thm1", {"fedtheory_checks.srpfl"}, {"fedtheory_checks"})
    ('paper plugins', 'fedtheory_checks.srpfl')
    """
    parts = module.split(".")
    sub = ".".join(parts[:2])
    if parts[0] == "fedtheory":
        if len(parts) > 1 and sub in packages:
            return ("decision kit" if parts[1] == "decide" else "subjects"), sub
        return "core", "fedtheory"
    if parts[0] in plugins:
        return "paper plugins", sub if len(parts) > 1 and sub in packages else parts[0]
    return "reproductions, benchmarks", parts[0]


def architecture(root: str) -> dict:
    """The import graph grouped into boxes: ``{"boxes": {box: {"layer", "modules": {short name: lines}}},
    "edges": {(box, box): count}, "graph": ImportGraph, "cycles": [...], "upward": [(a, b)], "long":
    [(module, lines)], "core_to_plugins": [(a, b)]}``."""
    from fedtheory.architecture import import_cycles, import_graph

    g = import_graph(source_packages(root))
    packages = {m for m, p in g.modules.items() if p.endswith("__init__.py")}
    plugins = plugin_packages()
    where = {m: group_of(m, packages, plugins) for m in g.modules}
    boxes, long_ = {}, []
    for m, path in g.modules.items():
        layer, box = where[m]
        with open(path, encoding="utf-8") as fh:
            n = sum(1 for _ in fh)
        short = m[len(box) + 1:] if m.startswith(box + ".") else "__init__"
        boxes.setdefault(box, {"layer": layer, "modules": {}})["modules"][short] = n
        if n > MAX_LINES:
            long_.append((os.path.relpath(path, root), n))
    edges, upward = {}, []
    for a, b in sorted(g.edges):
        (la, ba), (lb, bb) = where[a], where[b]
        if ba != bb:
            edges[(ba, bb)] = edges.get((ba, bb), 0) + 1
        if LAYERS.index(la) > LAYERS.index(lb) and not (la == "decision kit" and lb == "subjects"):
            upward.append((a, b))
    core_to_plugins = [(a, b) for a, b in g.edges if where[a][0] == "core" and where[b][0] == "paper plugins"]
    return {"boxes": boxes, "edges": edges, "graph": g, "cycles": import_cycles(g), "upward": upward,
            "long": sorted(long_, key=lambda t: -t[1]), "core_to_plugins": sorted(core_to_plugins)}


# ============================================================================ the picture
def _box_lines(box: str, d: dict, cols: int) -> list[str]:
    names = sorted(d["modules"], key=lambda s: (s != "__init__", s))
    cells = [f"{s} ({n})" if n > MAX_LINES else s for s, n in ((s, d["modules"][s]) for s in names)]
    rows = -(-len(cells) // cols)
    return ["   ".join(f"{cells[c * rows + r]:<22}" if c * rows + r < len(cells) else "" for c in range(cols)).rstrip()
            for r in range(rows)]


def _rows(arch: dict) -> list[list[str]]:
    """The boxes of each drawn row, top to bottom (the decision kit shares the subjects' row)."""
    rows = []
    for layer in LAYERS:
        if layer == "decision kit":
            continue
        members = [b for b, d in arch["boxes"].items()
                   if d["layer"] == layer or (layer == "subjects" and d["layer"] == "decision kit")]
        if members:
            rows.append(sorted(members, key=lambda b: (arch["boxes"][b]["layer"] == "decision kit", b)))
    return rows


def _layout(arch: dict) -> dict:
    """``box -> (x, y, width, height, module lines, row)`` in inches, rows top to bottom; a box's
    width grows with the square root of its number of modules."""
    width, gap, line_h, pad = 17.0, 0.25, 0.112, 0.62
    out, y = {}, 0.0
    for r, members in enumerate(_rows(arch)):
        weight = {b: 1.5 + len(arch["boxes"][b]["modules"]) ** 0.5 for b in members}
        free = width - gap * (len(members) - 1)
        x, lines, ws = 0.0, {}, {}
        for b in members:
            ws[b] = free * weight[b] / sum(weight.values())
            lines[b] = _box_lines(b, arch["boxes"][b], max(1, int(ws[b] // 1.45)))
        h = pad + line_h * max(len(v) for v in lines.values())
        for b in members:
            out[b] = (x, y - h, ws[b], h, lines[b], r)
            x += ws[b] + gap
        y -= h + 1.0
    return out


def _skipped(arch: dict, lay: dict) -> dict:
    """``box -> "imports too: ..."`` for the arrows not drawn: those that would cross a row of boxes."""
    out = {}
    for (a, b), n in sorted(arch["edges"].items(), key=lambda t: -t[1]):
        if a in lay and b in lay and abs(lay[a][5] - lay[b][5]) > 1:
            out.setdefault(a, []).append(f"{b} {n}")
    return {b: "imports too: " + ", ".join(v) for b, v in out.items()}


def _arrow_ends(lay: dict, a: str, b: str) -> tuple:
    """Start and end of the arrow ``a -> b``: as straight as the boxes allow (each end as close as it
    can to the other box's centre); within a row, from bottom to bottom."""
    (xa, ya, wa, ha, _, ra), (xb, yb, wb, hb, _, rb) = lay[a], lay[b]
    if ra == rb:  # side to side
        mid = min(ya + ha, yb + hb) / 2 + max(ya, yb) / 2
        return ((xa, mid), (xb + wb, mid), False) if xa > xb else ((xa + wa, mid), (xb, mid), False)
    sx = min(max(xb + wb / 2, xa + 0.15), xa + wa - 0.15)
    ex = min(max(xa + wa / 2, xb + 0.15), xb + wb - 0.15)
    if ra < rb:  # down the rows
        return (sx, ya), (ex, yb + hb), False
    return (sx + 0.3, ya + ha), (ex + 0.3, yb), True  # beside the arrow that comes down


def architecture_svg(arch: dict) -> bytes:
    """The architecture picture as SVG (deterministic: no date, fixed ids)."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

    lay = _layout(arch)
    skipped = _skipped(arch, lay)
    bottom = min(t[1] for t in lay.values())
    fig = plt.figure(figsize=(17.6, -bottom + 0.8))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(-0.3, 17.3)
    ax.set_ylim(bottom - 0.5, 0.3)
    ax.text(0, bottom - 0.15, "Arrow: the imports from one box into another (their number); red: an import up the "
            f"layers. A module longer than {MAX_LINES} lines shows its length. Imports that would cross a row of "
            "boxes are listed in the importing box.", fontsize=7.5, va="top", color="#333")
    ax.axis("off")
    for box, (x, y, w, h, lines, _) in lay.items():
        d = arch["boxes"][box]
        ax.add_patch(FancyBboxPatch((x, y), w, h, boxstyle="round,pad=0.02,rounding_size=0.08",
                                    fc=LAYER_COLORS[d["layer"]], ec="#555", lw=0.8, zorder=2))
        total = sum(d["modules"].values())
        ax.text(x + 0.08, y + h - 0.08, box, fontsize=9.5, weight="bold", va="top", zorder=3)
        notes = [f"{d['layer']} · {len(d['modules'])} modules · {total} lines"]
        notes += textwrap.wrap(skipped.get(box, ""), max(20, int(w * 19)))
        ax.text(x + 0.08, y + h - 0.3, "\n".join(notes), fontsize=6.3, va="top", color="#333", linespacing=1.3,
                zorder=3)
        ax.text(x + 0.08, y + h - 0.36 - 0.12 * len(notes), "\n".join(lines), fontsize=6.2, family="monospace",
                va="top", linespacing=1.25, zorder=3)
    biggest = max(arch["edges"].values(), default=1)
    for (a, b), n in sorted(arch["edges"].items()):
        if a not in lay or b not in lay or abs(lay[a][5] - lay[b][5]) > 1:
            continue
        start, end, up = _arrow_ends(lay, a, b)
        color = "#c0392b" if up else "#2c3e50"
        rad = 0.0
        ax.add_patch(FancyArrowPatch(start, end, arrowstyle="-|>", mutation_scale=9,
                                     lw=0.4 + 2.2 * (n / biggest) ** .5, color=color, alpha=0.9 if up else 0.45,
                                     zorder=1, connectionstyle=f"arc3,rad={rad}", shrinkA=2, shrinkB=2))
        mx, my = start[0] * 0.35 + end[0] * 0.65, start[1] * 0.35 + end[1] * 0.65
        ax.text(mx, my, str(n), fontsize=6, ha="center", va="center", color=color, zorder=4,
                bbox=dict(boxstyle="round,pad=0.1", fc="white", ec="none", alpha=0.8))
    buf = io.BytesIO()
    with matplotlib.rc_context({"svg.hashsalt": "fedtheory-architecture", "svg.fonttype": "none"}):
        fig.savefig(buf, format="svg", metadata={"Date": None})
    plt.close(fig)
    return buf.getvalue()


# ============================================================================ the rules, measured
def rules_rst(arch: dict) -> str:
    """reST: the import graph's size and the house rules as measured on this checkout."""
    g = arch["graph"]

    def mods(pairs):
        return ", ".join(f"``{a}`` -> ``{b}``" for a, b in pairs)

    lines = [f"This build read {len(g.modules)} modules and {len(g.edges)} imports "
             f"({len(arch['boxes'])} boxes, {len(arch['edges'])} arrows).", ""]
    lines.append("- Core imports no paper plugin: " + ("yes." if not arch["core_to_plugins"]
                                                      else "**no**: " + mods(arch["core_to_plugins"]) + "."))
    lines.append("- Import cycles: " + ("none." if not arch["cycles"] else "**" + str(len(arch["cycles"])) + "**: " +
                                        "; ".join(", ".join(f"``{m}``" for m in c) for c in arch["cycles"]) + "."))
    lines.append("- Imports up the layers (red arrows): " + (mods(arch["upward"]) + "." if arch["upward"] else "none."))
    lines.append(f"- Modules over {MAX_LINES} lines ({len(arch['long'])}): "
                 + (", ".join(f"``{p}`` ({n})" for p, n in arch["long"]) + "." if arch["long"] else "none."))
    return "\n".join(lines) + "\n"


# ============================================================================ the folder tree
def _doc_line(init: str) -> str:
    try:
        with open(init, encoding="utf-8") as fh:
            doc = ast.get_docstring(ast.parse(fh.read())) or ""
    except (OSError, SyntaxError, ValueError):
        return ""
    first = doc.strip().split("\n\n")[0].replace("\n", " ").replace("``", "")
    return first if len(first) <= 78 else first[:75].rstrip() + "..."


def tracked_files(root: str) -> list[str]:
    """The repository's tracked files (``git ls-files``), or every file outside hidden and build
    folders when git is not there."""
    try:
        out = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True, check=True, timeout=30)
        files = [f for f in out.stdout.splitlines() if f]
        if files:
            return files
    except (OSError, subprocess.SubprocessError):
        pass
    files = []
    for d, dirs, names in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith((".", "_build", "__pycache__")) or x == ".ci"]
        files += [os.path.relpath(os.path.join(d, n), root) for n in names]
    return files


def folder_tree(root: str, depth: int = 2) -> str:
    """The folders of the repository (tracked files only) to ``depth`` levels, each with its number of
    files and, for a Python package, the first sentence of its docstring."""
    counts: dict = {}
    for f in tracked_files(root):
        parts = f.split("/")[:-1]
        for k in range(1, min(len(parts), depth) + 1):
            key = "/".join(parts[:k])
            counts[key] = counts.get(key, 0) + 1
    lines = []
    for key in sorted(counts, key=lambda k: k.split("/")):
        level = key.count("/")
        name = key.rsplit("/", 1)[-1] + "/"
        desc = _doc_line(os.path.join(root, key, "__init__.py"))
        label = f"{'  ' * level}{name}"
        lines.append(f"{label:<30}{counts[key]:>4} files" + (f"  {desc}" if desc else ""))
    return "\n".join(lines) + "\n"


def developer_files(root: str) -> dict:
    """``{file name under docs/_generated: text or bytes}``: ``architecture.svg``,
    ``architecture_rules.rst`` and ``tree.txt``."""
    arch = architecture(root)
    return {"architecture.svg": architecture_svg(arch), "architecture_rules.rst": rules_rst(arch),
            "tree.txt": folder_tree(root)}
