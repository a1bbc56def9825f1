"""Every paper's figures go through the task cache: a run killed mid-sweep (SIGKILL) resumes.

For one figure of each of the four papers (chosen cheap, with several cached tasks): an uninterrupted
run in a fresh cache gives the reference sidecar and the number of tasks; a second run in another
cache is SIGKILLed once some, but not all, of its tasks are stored (``FEDTHEORY_TEST_TASK_DELAY``
makes it wait after each stored task, so the kill lands mid-sweep); the rerun in that cache must read
every stored entry (its ``cache ...: H hits`` line counts them), compute only the rest, and write the
reference sidecar exactly.
"""
import json
import os
import signal
import subprocess
import sys
import time

from functools import partial

import numpy as np
import pytest

from fedtheory.cache import TaskCache, source_fingerprint, task_key, task_modules
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


def _data(path):
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
    assert _data(str(tmp_path / "b" / sidecar)) == _data(str(tmp_path / "ref" / sidecar))


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
