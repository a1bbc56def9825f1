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
    """The tracked figures/fedrep_fig1_mtest.* are what `fedtheory reproduce fedrep` writes now, so a
    reproduce leaves `git status` clean (the PNG and PDF byte for byte, the sidecar up to the source
    fingerprint, which changes at every edit of the sources). Skipped when the libraries or the
    platform differ from those recorded in the tracked sidecar (other bytes are then expected)."""
    tracked = os.path.join(ROOT, "figures")
    side_path = os.path.join(tracked, "fedrep_fig1_mtest.json")
    if not os.path.exists(side_path):
        pytest.skip("no tracked figures (installed package)")
    old = json.load(open(side_path))
    from fedtheory.provenance import figure_provenance

    now = figure_provenance(seed=0, mode="quick")
    keys = ("python", "numpy", "scipy", "matplotlib", "platform")
    if any(old.get("provenance", {}).get(k) != now[k] for k in keys):
        pytest.skip("tracked figures made with other versions: " +
                    ", ".join(f"{k} {old.get('provenance', {}).get(k)}" for k in keys))
    fedtheory.reproduce("fedrep", outdir=str(tmp_path), only=[FIGURES["fedrep"]])
    for ext in ("png", "pdf"):
        with open(os.path.join(tracked, f"fedrep_fig1_mtest.{ext}"), "rb") as fh:
            assert fh.read() == (tmp_path / f"fedrep_fig1_mtest.{ext}").read_bytes(), \
                f"figures/fedrep_fig1_mtest.{ext} is stale: run `fedtheory reproduce fedrep`"
    new = json.loads((tmp_path / "fedrep_fig1_mtest.json").read_text())
    for d in (old, new):
        d["provenance"].pop("source_fingerprint", None)
    assert old == new, "figures/fedrep_fig1_mtest.json is stale: run `fedtheory reproduce fedrep`"
