"""Byte-reproducible figures.

``fedtheory reproduce`` run twice writes identical PNG, PDF and JSON bytes: the PDF carries no
creation or modification date, the PNG no time, and the JSON sidecar records what the figure
depends on (versions, platform, source fingerprint, seed, mode), not when or from which commit it
was made. One cheap figure of each paper is reproduced twice: in-process for srpfl, lpproj and
fedlrgd; in-process and then through the command line in another process (another
``PYTHONHASHSEED``) for fedrep. CPU time of this file: about 40 s.
"""
from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import sys

import pytest

import fedtheory
from fedtheory.plugins import get_paper

#: one cheap figure per paper (quick mode; 2-6 s of CPU each)
FIGURES = {"fedrep": "fedrep.fig1-mtest", "srpfl": "srpfl.stages", "lpproj": "lpproj.fairness",
           "fedlrgd": "fedlrgd.erlang"}
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _files(folder) -> dict:
    return {f: open(os.path.join(folder, f), "rb").read() for f in sorted(os.listdir(folder))}


def _png_chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    out, i = [], 8
    while i < len(data):
        n, kind = struct.unpack(">I4s", data[i:i + 8])
        out.append((kind, data[i + 8:i + 8 + n]))
        i += 12 + n
    return out


def _check_no_dates(files: dict) -> None:
    for name, data in files.items():
        if name.endswith(".pdf"):
            for key in (b"/CreationDate", b"/ModDate", b"/ID"):
                assert key not in data, (name, key)
        elif name.endswith(".png"):
            chunks = _png_chunks(data)
            assert b"tIME" not in [k for k, _ in chunks], name
            text = b" ".join(v for k, v in chunks if k in (b"tEXt", b"iTXt", b"zTXt"))
            assert b"Date" not in text and b"Time" not in text and b"Creation" not in text, (name, text)
        elif name.endswith(".json"):
            prov = json.loads(data)["provenance"]
            assert not {"date", "git_commit", "git_dirty"} & set(prov), (name, prov)


@pytest.mark.parametrize("paper", sorted(set(FIGURES) - {"fedrep"}))  # fedrep: the next test, across processes
def test_reproduce_twice_gives_identical_bytes(paper, tmp_path):
    fig = FIGURES[paper]
    written = [fedtheory.reproduce(paper, outdir=str(tmp_path / run), only=[fig]) for run in ("a", "b")]
    a, b = _files(tmp_path / "a"), _files(tmp_path / "b")
    assert sorted(a) == sorted(b) and len(a) == 3 * len(written[0]) and len(a) >= 3
    assert {n.rsplit(".", 1)[1] for n in a} == {"png", "pdf", "json"}
    for name in a:
        assert a[name] == b[name], f"{name} differs between two runs of `reproduce {paper}`"
    _check_no_dates(a)
    side = json.loads(a[os.path.basename(written[0][0]["json"])])
    from fedtheory.results import paper_fingerprint

    assert side["figure_id"] == fig and side["provenance"]["seed"] == 0 and side["provenance"]["mode"] == "quick"
    assert side["provenance"]["source_fingerprint"] == paper_fingerprint(get_paper(paper))
    assert side["provenance"]["fedtheory"] == fedtheory.__version__ and side["provenance"]["matplotlib"]


def test_another_process_and_hash_seed_gives_the_same_bytes(tmp_path):
    """The command line in a fresh process (another PYTHONHASHSEED: set and dict orders of strings
    change) writes what the in-process run wrote."""
    fedtheory.reproduce("fedrep", outdir=str(tmp_path / "in"), only=[FIGURES["fedrep"]])
    env = {**os.environ, "PYTHONHASHSEED": "12345", "SOURCE_DATE_EPOCH": "86400"}
    r = subprocess.run([sys.executable, "-m", "fedtheory", "reproduce", "fedrep", "--figure", FIGURES["fedrep"],
                        "--out", str(tmp_path / "cli"), "--no-cache", "-q"], capture_output=True, text=True,
                       env=env, timeout=600)
    assert r.returncode == 0, r.stderr
    a = _files(tmp_path / "in")
    assert sorted(a) == [f"fedrep_fig1_mtest.{e}" for e in ("json", "pdf", "png")] and a == _files(tmp_path / "cli")
    _check_no_dates(a)


def test_sidecar_and_pdf_do_not_change_with_date_or_commit(tmp_path, monkeypatch):
    """What a later commit or another day changes (git commit, dirty flag, date) is not written."""
    import importlib

    import matplotlib.pyplot as plt

    from fedtheory.plotting import save_figure
    from fedtheory.provenance import figure_context

    def draw():
        fig, ax = plt.subplots()
        ax.plot([0, 1, 2], [1.0, 0.5, 0.25], label="a line")
        ax.legend()
        return fig

    prov_mod = importlib.import_module("fedtheory.provenance")  # `fedtheory.provenance` is also a function
    out = {}
    for run, (commit, epoch) in enumerate([("a" * 40, "0"), ("b" * 40, "1700000000")]):
        monkeypatch.setattr(prov_mod, "_git", lambda c=commit: (c, True))
        monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
        assert prov_mod.provenance()["git_commit"] == commit  # the run's record does change
        with figure_context(figure_id="fedrep.fig4", reference="Figure 4", paper="cite", seed=3, mode="quick"):
            save_figure(draw(), str(tmp_path / str(run)), "fig", {"y": [1.0, 0.5]}, {"n": 3})
        out[run] = _files(tmp_path / str(run))
    assert out[0] == out[1]
    _check_no_dates(out[0])
    side = json.loads(out[0]["fig.json"])
    assert side["provenance"]["seed"] == 3 and side["provenance"]["platform"].count("-") >= 1
    assert out[0]["fig.json"].endswith(b"}\n")


def test_figure_provenance_records_what_results_depend_on():
    from fedtheory.cache import code_fingerprint
    from fedtheory.provenance import figure_provenance, provenance
    from fedtheory.results import paper_fingerprint

    p = figure_provenance(seed=1, mode="full")
    assert set(p) == {"fedtheory", "python", "numpy", "scipy", "matplotlib", "platform", "source_fingerprint",
                      "seed", "mode"}
    assert p["source_fingerprint"] == code_fingerprint() and (p["seed"], p["mode"]) == (1, "full")
    q = figure_provenance(seed=1, mode="full", paper=get_paper("fedrep"))
    assert q["source_fingerprint"] == paper_fingerprint(get_paper("fedrep")) != p["source_fingerprint"]
    full = provenance(seed=1, mode="full")
    assert {"date", "git_commit", "git_dirty", "matplotlib"} <= set(full)  # verify --json keeps them


def test_tracked_figure_is_current(tmp_path):
    """The tracked figures/fedrep_fig1_mtest.* are current: `fedtheory reproduce fedrep` run on a copy of
    them leaves the PNG, PDF and sidecar untouched, byte for byte, on any machine whose numbers agree
    within the tolerance the sidecar states (another BLAS changes their last bits; the versions and
    platform recorded in the sidecar are those of the machine that made the figure). The copy's source
    fingerprint is set to today's first: it changes at every edit of the sources."""
    from fedtheory.plotting import figure_outcomes
    from fedtheory.results import paper_fingerprint

    tracked = os.path.join(ROOT, "figures")
    if not os.path.exists(os.path.join(tracked, "fedrep_fig1_mtest.json")):
        pytest.skip("no tracked figures (installed package)")
    exts = ("png", "pdf", "json")
    for e in exts:
        shutil.copy(os.path.join(tracked, f"fedrep_fig1_mtest.{e}"), tmp_path)
    side_path = tmp_path / "fedrep_fig1_mtest.json"
    side = json.loads(side_path.read_text())
    assert "precision" in side, "figures/fedrep_fig1_mtest.json predates the stated precision: run " \
                                "`fedtheory reproduce fedrep`"
    side["provenance"]["source_fingerprint"] = paper_fingerprint(get_paper("fedrep"))
    side_path.write_text(json.dumps(side, indent=1) + "\n")
    before = {e: (tmp_path / f"fedrep_fig1_mtest.{e}").read_bytes() for e in exts}
    with figure_outcomes() as log:
        fedtheory.reproduce("fedrep", outdir=str(tmp_path), only=[FIGURES["fedrep"]])
    assert [o.reason for o in log] == ["current"], \
        f"figures/fedrep_fig1_mtest.* is stale ({log[0].reason}): run `fedtheory reproduce fedrep`"
    assert {e: (tmp_path / f"fedrep_fig1_mtest.{e}").read_bytes() for e in exts} == before


# ---- every script's shown text uses the papers' symbols
"""The figures of every paper write the papers' symbols in mathtext: titles, axis labels, legends and
annotations say ``$\\lambda$``, ``$\\hat c$``, ``$n_0$``, ``$d_{sub}$``, ``$\\leq$``, not ``lambda``, ``c_hat``,
``n0``, ``d_sub``, ``<=`` (a static scan of the text each figure module passes to matplotlib)."""

import ast
import os
import re

import pytest

import fedtheory_reproductions as repro

FOLDER = os.path.dirname(repro.__file__)
MODULES = sorted(f for f in os.listdir(FOLDER) if f.endswith(".py") and f != "__init__.py")
#: matplotlib calls whose text arguments a reader sees
TEXT_CALLS = {"set_title", "suptitle", "set_xlabel", "set_ylabel", "text", "annotate", "legend", "plot", "errorbar",
              "hlines", "axhline", "axvline", "fill_between", "scatter", "bar", "set_xticks", "set_yticks", "hist"}
#: a symbol written as plain text (outside $...$)
PLAIN_SYMBOL = re.compile(r"\b(lambda|lam|sigma|Sigma_1|eta|tau|beta|rho|phi|alpha|eps|Gamma|c_hat|n0|d_sub|N_a|"
                          r"m_test|m_new)\b|<=|>=")


def _text(node) -> str | None:
    """The text of a string expression, formatted values as ``{}``; ``None`` if it is not one."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        a, b = (None if _is_math_call(x) else _text(x) for x in (node.left, node.right))
        if a is not None or b is not None:
            return (a if a is not None else "{}") + (b if b is not None else "{}")
    return None


#: helpers whose result is mathtext (:func:`fedtheory.plotting.tex_params`, ...)
MATH_HELPERS = {"tex_params", "tex_number", "tex_name", "_base_text", "comm_label"}


def _is_math_call(node) -> bool:
    f = getattr(node, "func", None)
    return isinstance(node, ast.Call) and getattr(f, "id", getattr(f, "attr", None)) in MATH_HELPERS


def _shown_texts(path):
    """Every string expression inside a call a reader sees (titles, labels, legend entries, annotations)."""
    out = []
    for node in ast.walk(ast.parse(open(path).read())):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in TEXT_CALLS:
            stack = list(node.args) + [k.value for k in node.keywords]
            while stack:
                sub = stack.pop()
                if isinstance(sub, (ast.Subscript, ast.Lambda)) or _is_math_call(sub):
                    continue  # p["tau"] is a key, not text; tex_params(...) writes mathtext
                text = _text(sub)
                if text is not None:
                    out.append(text)
                else:
                    stack.extend(ast.iter_child_nodes(sub))
    return out


def _plain_symbols(text: str) -> list[str]:
    outside = re.sub(r"\$[^$]*\$", " ", text)
    return [m.group(0) for m in PLAIN_SYMBOL.finditer(outside)]


@pytest.mark.parametrize("module", MODULES)
def test_shown_text_uses_mathtext_symbols(module):
    texts = _shown_texts(os.path.join(FOLDER, module))
    bad = [(t, _plain_symbols(t)) for t in texts if _plain_symbols(t)]
    assert not bad, bad


def test_the_scan_finds_plain_symbols():
    assert _plain_symbols("Wall-clock ratio (c_hat=1.2, lambda=1)") == ["c_hat", "lambda"]
    assert _plain_symbols(r"ratio ($\hat c=1.2$, $\lambda=1$), dist <= 0.05") == ["<="]
    assert _plain_symbols(r"$d_{sub}$ and $\lambda$ from $10^{-3}$") == []


def test_every_module_is_scanned():
    assert len(MODULES) >= 10 and all(_shown_texts(os.path.join(FOLDER, m)) for m in MODULES)
