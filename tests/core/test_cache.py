"""Tests of :mod:`fedtheory.cache`: the task cache (entry round trip and checksum, a killed run resumed, corrupted
and unusable entries, every paper's sweep resumed after SIGKILL), ``cached_map`` with and without worker processes,
task keys and source fingerprints (the plugin's source in, presentation modules out), and the verdict cache of
``fedtheory verify``."""
import json
import os
import signal
import subprocess
import sys
import time
from functools import partial

import numpy as np
import pytest

from fedtheory.cache import CacheCorruptWarning, TaskCache, source_fingerprint, task_key, task_modules
from fedtheory.parallel import cached_map
from fedtheory.random import spawn_seeds


#: (paper, figure id, sidecar written by it); each figure computes several cached tasks
CASES = [
    ("fedrep", "fedrep.fig1-mtest", "fedrep_fig1_mtest.json"),
    ("srpfl", "srpfl.speedup", "srpfl_speedup.json"),
    ("lpproj", "lpproj.robust", "lpproj_robust.json"),
    ("fedlrgd", "fedlrgd.appendix_c", "fedlrgd_appendix_c.json"),
]


def _cmd(paper, figure, out, cache):
    return [sys.executable, "-m", "fedtheory", "reproduce", paper, "--figure", figure, "--out", out,
            "--cache", cache, "--workers", "1", "-q"]


def _env(delay=None):
    env = dict(os.environ, MPLBACKEND="Agg")
    env.pop("FEDTHEORY_TEST_TASK_DELAY", None)
    if delay is not None:
        env["FEDTHEORY_TEST_TASK_DELAY"] = str(delay)
    return env


def _entries(cache):
    return sorted(f for f in os.listdir(cache) if f.endswith(".npz")) if os.path.isdir(cache) else []


def _counts(stdout):
    """``(hits, computed)`` from the CLI's ``cache DIR: H hits, C computed, ...`` line."""
    line = [ln for ln in stdout.splitlines() if ln.startswith("cache ")][-1]
    hits = int(line.split(": ")[-1].split(" hits")[0])
    computed = int(line.split("hits, ")[1].split(" computed")[0])
    return hits, computed


def _data_without_provenance(path):
    """A sidecar without its provenance (the run's date differs; everything computed must not)."""
    with open(path) as fh:
        out = json.load(fh)
    out.pop("provenance", None)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("paper,figure,sidecar", CASES, ids=[c[0] for c in CASES])
def test_sigkill_mid_sweep_then_resume(tmp_path, paper, figure, sidecar):
    ref_cache, cache = str(tmp_path / "ref-cache"), str(tmp_path / "cache")
    ref = subprocess.run(_cmd(paper, figure, str(tmp_path / "ref"), ref_cache), capture_output=True, text=True,
                         env=_env(), timeout=600)
    assert ref.returncode == 0, ref.stderr
    assert _counts(ref.stdout)[0] == 0
    total = _counts(ref.stdout)[1]
    assert total == len(_entries(ref_cache)) >= 2, "the figure must compute several cached tasks"

    proc = subprocess.Popen(_cmd(paper, figure, str(tmp_path / "a"), cache), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=_env(delay=30), start_new_session=True)
    try:
        deadline = time.time() + 300
        while time.time() < deadline and not _entries(cache) and proc.poll() is None:
            time.sleep(0.02)
    finally:  # the run sleeps 30 s after each stored task: the kill lands after the first one
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert proc.returncode == -signal.SIGKILL, "the run ended before it was killed"
    stored = _entries(cache)
    assert 1 <= len(stored) < total, (len(stored), total)
    before = {f: os.stat(os.path.join(cache, f)).st_mtime_ns for f in stored}

    res = subprocess.run(_cmd(paper, figure, str(tmp_path / "b"), cache), capture_output=True, text=True,
                         env=_env(), timeout=600)
    assert res.returncode == 0, res.stderr
    hits, computed = _counts(res.stdout)
    assert (hits, computed) == (len(stored), total - len(stored))  # every stored entry read, only the rest computed
    assert {f: os.stat(os.path.join(cache, f)).st_mtime_ns for f in stored} == before  # read, not rewritten
    assert _data_without_provenance(str(tmp_path / "b" / sidecar)) == _data_without_provenance(str(tmp_path / "ref" / sidecar))


def _double(x):
    return {"y": 2.0 * np.asarray(x, dtype=float)}


def test_task_key_covers_the_task_functions_package(tmp_path):
    # this test module is outside fedtheory: its own source is in the key of its tasks
    mods = task_modules(_double)
    assert __name__ in mods and not [m for m in mods if m.split(".")[0] in ("fedtheory", "numpy")]
    assert source_fingerprint(mods) != source_fingerprint(["fedtheory.parallel"])
    # figure tasks of fedtheory_reproductions that call fedtheory_checks code are keyed by both packages
    from fedtheory_reproductions.fedlrgd_fedave import fedave_task

    tops = {m.split(".")[0] for m in task_modules(fedave_task)}
    assert tops == {"fedtheory_checks", "fedtheory_reproductions"}
    assert task_modules(partial(spawn_seeds, n=2)) == []  # fedtheory's own tasks: code_fingerprint() alone
    k = task_key("ns", {"a": 1}, 0)
    assert k != task_key("ns", {"a": 1}, 0, code=source_fingerprint(mods))


def test_cached_map_same_numbers_and_types_with_and_without_cache(tmp_path, monkeypatch):
    from fedtheory import cache as cache_mod

    tasks = [1.0, 2.0, 3.0]
    monkeypatch.setitem(cache_mod._CACHE, "cache", None)
    plain = cached_map(_double, tasks, namespace="t", params={}, backend="serial")
    monkeypatch.setitem(cache_mod._CACHE, "cache", TaskCache(str(tmp_path)))
    first = cached_map(_double, tasks, namespace="t", params={}, backend="serial")
    again = cached_map(_double, tasks, namespace="t", params={}, backend="threads", workers=2)
    assert cache_mod.current_cache().hits == 3 and cache_mod.current_cache().misses == 3
    for a, b, c in zip(plain, first, again):
        assert a["y"] == b["y"] == c["y"] and type(b["y"]) is type(c["y"])


def test_cached_map_on_worker_processes_stores_every_task(tmp_path, monkeypatch):
    from fedtheory import cache as cache_mod

    monkeypatch.setitem(cache_mod._CACHE, "cache", TaskCache(str(tmp_path)))
    done = []
    monkeypatch.setattr(TaskCache, "put", lambda self, key, arrays, _put=TaskCache.put: (done.append(key),
                                                                                         _put(self, key, arrays)))
    tasks = [1.0, 2.0, 3.0, 4.0]
    got = cached_map(_double, tasks, namespace="p", params={}, backend="processes", workers=2)
    assert len(done) == 4 and len(os.listdir(tmp_path)) == 4  # each task stored by the parent as it finished
    assert [g["y"] for g in got] == [2.0, 4.0, 6.0, 8.0]
    again = cached_map(_double, tasks, namespace="p", params={}, backend="processes", workers=2)
    assert len(done) == 4 and [g["y"] for g in again] == [g["y"] for g in got]


def _double_or_fail_late(x):
    if x < 0:  # fails after the other tasks have finished
        time.sleep(1.5)
        raise ValueError("task failed")
    return _double(x)


def test_interrupted_parallel_sweep_keeps_the_finished_tasks(tmp_path, monkeypatch):
    from fedtheory import cache as cache_mod

    from fedtheory import parallel

    monkeypatch.setitem(cache_mod._CACHE, "cache", TaskCache(str(tmp_path)))
    monkeypatch.setattr(parallel, "_CONFIG", dict(parallel._CONFIG))  # restored after the test
    parallel.configure(workers=2)  # the CLI's default: worker processes
    with pytest.raises(ValueError, match="task failed"):
        cached_map(_double_or_fail_late, [1.0, 2.0, 3.0, -1.0], namespace="f", params={})
    assert len([f for f in os.listdir(tmp_path) if f.endswith(".npz")]) == 3  # not lost with the failed sweep


def test_bad_task_delay_is_a_value_error(tmp_path, monkeypatch):
    from fedtheory import cache as cache_mod

    monkeypatch.setitem(cache_mod._CACHE, "cache", TaskCache(str(tmp_path)))
    for bad in ("soon", "-1", "nan"):
        monkeypatch.setenv("FEDTHEORY_TEST_TASK_DELAY", bad)
        with pytest.raises(ValueError, match="FEDTHEORY_TEST_TASK_DELAY"):
            cached_map(_double, [1.0], namespace="t", params={}, backend="serial")


CMD = [sys.executable, "-m", "fedtheory.cli", "reproduce", "fedrep", "--figure", "fedrep.fig3"]


N_TASKS = 4  # fedrep.fig3: one cached task (a replicate batch over the seeds) per n in (10, 100, 1000, 10000)


def test_entry_roundtrip_checksum_and_corruption(tmp_path):
    c = TaskCache(str(tmp_path))
    k = task_key("ns", {"a": 1, "b": [1, 2]}, np.random.SeedSequence(3))
    assert k == task_key("ns", {"b": [1, 2], "a": 1}, np.random.SeedSequence(3))
    assert k != task_key("ns", {"a": 2, "b": [1, 2]}, np.random.SeedSequence(3))
    c.put(k, {"x": np.arange(5.0), "y": np.float64(2.5)})
    got = c.get(k)
    np.testing.assert_array_equal(got["x"], np.arange(5.0))
    with open(c.path(k), "r+b") as fh:  # truncate: unreadable
        fh.truncate(30)
    with pytest.warns(CacheCorruptWarning, match="corrupt cache entry"):
        assert c.get(k) is None
    assert not os.path.exists(c.path(k)) and c.corrupt == 1
    with pytest.raises(TypeError, match="numeric"):
        c.put(k, {"z": np.array([object()])})
    assert not [f for f in os.listdir(tmp_path) if f.endswith(".tmp")]


def _run(args, **kw):
    return subprocess.run(CMD + args, capture_output=True, text=True, **kw)


def _data(path):
    """A sidecar without its provenance (the run's date differs; everything computed must not)."""
    with open(path) as fh:
        out = json.load(fh)
    out.pop("provenance")
    return out


@pytest.mark.slow
def test_sigkill_then_resume_recomputes_only_missing_tasks(tmp_path):
    cache, out_a, out_b, out_ref = (str(tmp_path / x) for x in ("cache", "a", "b", "ref"))
    ref = _run(["--no-cache", "--out", out_ref])
    assert ref.returncode == 0, ref.stderr
    proc = subprocess.Popen(CMD + ["--cache", cache, "--out", out_a], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while time.time() < deadline:  # wait until some, but not all, tasks are stored
        n = len([f for f in os.listdir(cache) if f.endswith(".npz")]) if os.path.isdir(cache) else 0
        if n >= 1:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    stored = len([f for f in os.listdir(cache) if f.endswith(".npz")])
    assert 1 <= stored <= N_TASKS
    res = _run(["--cache", cache, "--out", out_b])
    assert res.returncode == 0, res.stderr
    line = [ln for ln in res.stdout.splitlines() if ln.startswith("cache ")][0]
    hits = int(line.split(": ")[1].split(" hits")[0])
    computed = int(line.split("hits, ")[1].split(" computed")[0])
    assert hits == stored and hits + computed == N_TASKS
    assert _data(os.path.join(out_b, "fedrep_fig3.json")) == _data(os.path.join(out_ref, "fedrep_fig3.json"))


@pytest.mark.slow
def test_corrupted_entry_is_reported_and_recomputed(tmp_path):
    cache, out_a, out_b = (str(tmp_path / x) for x in ("cache", "a", "b"))
    assert _run(["--cache", cache, "--out", out_a]).returncode == 0
    victim = sorted(f for f in os.listdir(cache) if f.endswith(".npz"))[0]
    with open(os.path.join(cache, victim), "r+b") as fh:
        fh.seek(100)
        fh.write(b"garbage-garbage-garbage")
    res = _run(["--cache", cache, "--out", out_b])
    assert res.returncode == 0 and "Traceback" not in res.stderr
    assert "corrupt cache entry" in res.stderr
    assert "1 corrupt entries recomputed" in res.stdout
    assert _data(os.path.join(out_b, "fedrep_fig3.json")) == _data(os.path.join(out_a, "fedrep_fig3.json"))


def test_unusable_cache_folder_is_a_one_line_value_error(tmp_path):
    f = tmp_path / "a-file"
    f.write_text("x")
    for root in (f, f / "cache"):  # a file where the folder should be, a folder under a file
        with pytest.raises(ValueError, match="cache folder") as exc:
            TaskCache(str(root))
        assert "\n" not in str(exc.value) and str(root) in str(exc.value)


# ----------------------------------------------------------------------------- saved results (cheap: a toy paper)
CALLS = {"n": 0}


def _toy_paper(key="zzrep"):
    from fedtheory import Paper

    paper = Paper(key=key, title="A toy paper for the report", authors=["A. Author"], year=2025, venue="arXiv")

    @paper.claim(f"{key}.eq1", "Eq. (1)", "lam <= mu and ||w - P x||_1 <= sigma^2 for the toy model")
    def _eq1(full, seed):
        CALLS["n"] += 1
        return dict(status="holds", observed={"gap": 0.000123456, "ci": [0.1234567, 0.2], "runs": 12,
                                              "time_s": 2.5},
                    bound={"tolerance": 1e-12, "curve": list(range(40))}, evidence="arithmetic")

    @paper.claim(f"{key}.eq2", "Eq. (2)", "the printed constant 2 should be 3")
    def _eq2(full, seed):
        CALLS["n"] += 1
        return dict(status="erratum", observed={"printed": 2.0, "corrected": 3.0}, bound=3.0,
                    evidence="printed 2, corrected 3", referee="exact arithmetic")

    return paper


@pytest.fixture
def toy(tmp_path):
    from fedtheory import register_paper, unregister_paper
    from fedtheory.cache import configure_cache

    paper = register_paper(_toy_paper())
    CALLS["n"] = 0
    yield paper
    unregister_paper(paper.key)
    configure_cache(None)


def _cli(*argv):
    from fedtheory.cli import main

    return main([str(a) for a in argv])


def test_verdict_cache_is_hit_after_verify(toy, tmp_path, capsys):
    cache = tmp_path / "cache"
    assert _cli("verify", "--paper", "zzrep", "--cache", cache, "-q", "--workers", 1) == 0  # claims run here
    assert CALLS["n"] == 2 and len(list((cache / "verdicts").glob("*.json"))) == 2
    assert _cli("report", "--paper", "zzrep", "--cache", cache, "--out", tmp_path / "r", "-q") == 0
    assert CALLS["n"] == 2  # no claim function ran: both verdicts came from the cache
    assert "verdicts: 2 cache" in capsys.readouterr().out
    page = (tmp_path / "r" / "index.html").read_text()
    assert "2 from the verdict cache" in page
    # another seed or mode is another key: the claims run (and are stored) once
    assert _cli("report", "--paper", "zzrep", "--cache", cache, "--out", tmp_path / "r", "--seed", 7, "-q") == 0
    assert CALLS["n"] == 4
    assert _cli("report", "--paper", "zzrep", "--cache", cache, "--out", tmp_path / "r", "--seed", 7, "-q") == 0
    assert CALLS["n"] == 4
    # --no-cache reads nothing
    assert _cli("report", "--paper", "zzrep", "--no-cache", "--out", tmp_path / "r", "-q") == 0
    assert CALLS["n"] == 6


def test_verdict_cache_ignores_a_damaged_entry(toy, tmp_path):
    cache = tmp_path / "cache"
    assert _cli("verify", "--paper", "zzrep", "--cache", cache, "-q", "--workers", 1) == 0  # claims run here
    for f in (cache / "verdicts").glob("*.json"):
        f.write_text(f.read_text()[:20])
    assert _cli("report", "--paper", "zzrep", "--cache", cache, "--out", tmp_path / "r", "-q") == 0
    assert CALLS["n"] == 4  # recomputed, not used


def test_paper_fingerprint_covers_the_plugin_source(tmp_path, monkeypatch):
    from fedtheory import Paper, cache, results

    pkg = tmp_path / "zzplug"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "claims.py").write_text("def f(full, seed):\n    return dict(status='holds', observed=1, bound=1)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    mod = importlib.import_module("zzplug.claims")
    paper = Paper(key="zzfp", title="T", authors=["A. B"], year=2025, venue="arXiv")
    paper.claim("zzfp.c", "Eq. (1)", "x")(mod.f)
    fp1 = results.paper_fingerprint(paper)
    (pkg / "claims.py").write_text("def f(full, seed):\n    return dict(status='holds', observed=2, bound=1)\n")
    cache._SOURCE_FP.clear()
    results._PAPER_FP.clear()
    fp2 = results.paper_fingerprint(paper)
    assert fp1 != fp2
    cache._SOURCE_FP.clear()
    results._PAPER_FP.clear()
    assert results.paper_fingerprint(paper) == fp2  # deterministic


def test_source_fingerprint_ignores_presentation_modules(tmp_path, monkeypatch):
    """Editing the report page keeps saved verdicts current; editing a computing module does not."""
    from fedtheory import cache

    files = {name: tmp_path / name for name in ("claims.py", "report.py")}
    for f in files.values():
        f.write_text("x = 1\n")
    monkeypatch.setattr(cache, "_package_files", lambda top: [(n, str(p)) for n, p in files.items()])
    monkeypatch.setattr(cache, "_SOURCE_FP", {})
    fp = cache.source_fingerprint(["fedtheory"])
    files["report.py"].write_text("x = 2\n")
    monkeypatch.setattr(cache, "_SOURCE_FP", {})
    assert cache.source_fingerprint(["fedtheory"]) == fp
    files["claims.py"].write_text("x = 2\n")
    monkeypatch.setattr(cache, "_SOURCE_FP", {})
    assert cache.source_fingerprint(["fedtheory"]) != fp
