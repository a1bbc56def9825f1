"""Task cache: completed sweep tasks stored on disk so interrupted runs resume.

Entries are ``.npz`` files (``numpy.load(..., allow_pickle=False)``: never pickle), written
atomically (temporary file in the same folder, then ``os.replace``), keyed by a SHA-256 of the
task's namespace, parameters, seed and the package version. Each entry carries a SHA-256 of its
own arrays; an unreadable, truncated or mismatching entry is reported with a
:class:`CacheCorruptWarning`, deleted and recomputed, never used.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
import warnings

import numpy as np

from ._warnings import FedtheoryWarning

__all__ = ["CacheCorruptWarning", "TaskCache", "default_cache_dir", "configure_cache", "current_cache",
           "task_key"]


class CacheCorruptWarning(FedtheoryWarning):
    """A cache entry could not be read or failed its checksum; it was discarded and recomputed."""


def default_cache_dir() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "fedtheory")


def _canon(x):
    if isinstance(x, dict):
        return {str(k): _canon(v) for k, v in sorted(x.items(), key=lambda kv: str(kv[0]))}
    if isinstance(x, (list, tuple)):
        return [_canon(v) for v in x]
    if isinstance(x, np.random.SeedSequence):
        return {"entropy": str(x.entropy), "spawn_key": list(x.spawn_key)}
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (np.floating,)):
        return float(x)
    if isinstance(x, np.ndarray):
        return x.tolist()
    return x if isinstance(x, (int, float, str, bool, type(None))) else repr(x)


_FINGERPRINT: dict = {}


def code_fingerprint() -> str:
    """SHA-256 of the fedtheory sources, so that a code change (even without a version bump)
    never reuses results computed by other code."""
    if "fp" not in _FINGERPRINT:
        root = os.path.dirname(os.path.abspath(__file__))
        h = hashlib.sha256()
        for dirpath, _, files in sorted(os.walk(root)):
            for f in sorted(files):
                if f.endswith(".py"):
                    with open(os.path.join(dirpath, f), "rb") as fh:
                        h.update(f.encode())
                        h.update(fh.read())
        _FINGERPRINT["fp"] = h.hexdigest()
    return _FINGERPRINT["fp"]


def task_key(namespace: str, params: dict, seed) -> str:
    """Key of a task: namespace, parameters, seed, package version and source fingerprint."""
    from . import __version__

    blob = json.dumps({"ns": namespace, "params": _canon(params), "seed": _canon(seed), "version": __version__,
                       "code": code_fingerprint()}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()


def _digest(arrays: dict) -> str:
    h = hashlib.sha256()
    for k in sorted(arrays):
        a = np.ascontiguousarray(arrays[k])
        h.update(k.encode())
        h.update(str(a.dtype).encode())
        h.update(str(a.shape).encode())
        h.update(a.tobytes())
    return h.hexdigest()


class TaskCache:
    """A folder of ``<key>.npz`` entries with hit / miss / corrupt counters."""

    def __init__(self, root: str):
        self.root = root
        try:
            os.makedirs(root, exist_ok=True)
        except OSError as exc:  # a file in the way, no permission, read-only file system
            raise ValueError(f"the cache folder {root!r} cannot be used: {exc.strerror or exc}; give a writable "
                             "folder") from None
        self.hits = self.misses = self.corrupt = 0

    def path(self, key: str) -> str:
        return os.path.join(self.root, f"{key}.npz")

    def get(self, key: str) -> dict | None:
        p = self.path(key)
        if not os.path.exists(p):
            self.misses += 1
            return None
        try:
            with np.load(p, allow_pickle=False) as z:
                arrays = {k: z[k] for k in z.files if k != "__sha256__"}
                stored = str(z["__sha256__"])
            if stored != _digest(arrays):
                raise ValueError("checksum mismatch")
        except Exception as exc:  # unreadable, truncated or tampered: never used
            warnings.warn(f"corrupt cache entry {os.path.basename(p)} ({type(exc).__name__}: {exc}); recomputing",
                          CacheCorruptWarning, stacklevel=2)
            self.corrupt += 1
            self.misses += 1
            try:
                os.remove(p)
            except OSError:
                pass
            return None
        self.hits += 1
        return arrays

    def put(self, key: str, arrays: dict) -> None:
        arrays = {k: np.asarray(v) for k, v in arrays.items()}
        for k, v in arrays.items():
            if v.dtype == object:
                raise TypeError(f"cache entries hold numeric arrays only; {k!r} has dtype object")
        fd, tmp = tempfile.mkstemp(dir=self.root, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                np.savez(fh, __sha256__=np.array(_digest(arrays)), **arrays)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, self.path(key))
        finally:
            if os.path.exists(tmp):
                os.remove(tmp)

    def summary(self) -> str:
        return f"cache {self.root}: {self.hits} hits, {self.misses} computed, {self.corrupt} corrupt entries recomputed"


_CACHE: dict = {"cache": None}


def configure_cache(root: str | None) -> TaskCache | None:
    """Enable the task cache under ``root`` (``None`` disables it)."""
    _CACHE["cache"] = TaskCache(root) if root else None
    return _CACHE["cache"]


def current_cache() -> TaskCache | None:
    return _CACHE["cache"]
