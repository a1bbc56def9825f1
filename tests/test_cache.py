"""Cache and resume: atomic npz entries, resume after SIGKILL, corrupted entries recomputed."""
import json
import os
import signal
import subprocess
import sys
import time
import warnings

import numpy as np
import pytest

from fedtheory.cache import CacheCorruptWarning, TaskCache, task_key

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
