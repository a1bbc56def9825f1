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
           "task_key", "task_modules", "source_fingerprint"]


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


_SOURCE_FP: dict = {}


def _package_files(top: str) -> list[tuple[str, str]]:
    """``(relative name, path)`` of the ``.py`` files of the top-level package (or module) ``top``."""
    import importlib.util

    spec = importlib.util.find_spec(top)
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return []
    if spec.submodule_search_locations:  # a package: every .py file under its folder(s)
        out = []
        for root in spec.submodule_search_locations:
            for dirpath, dirs, files in os.walk(root):
                dirs[:] = sorted(d for d in dirs if d != "__pycache__")
                out += [(os.path.relpath(os.path.join(dirpath, f), root), os.path.join(dirpath, f))
                        for f in sorted(files) if f.endswith(".py")]
        return sorted(out)
    return [(os.path.basename(spec.origin), spec.origin)]


#: fedtheory modules that only present results (left out of :func:`source_fingerprint`)
PRESENTATION_MODULES = frozenset({"report.py", "_asciimath.py", "export.py", "findings.py", "_findings_render.py"})


def source_fingerprint(modules) -> str:
    """SHA-256 of the fedtheory sources and of the top-level packages of ``modules``.

    ``modules`` are module names (a paper plugin's ``modules`` and the modules of its claim and
    figure functions): the whole top-level package of each (``fedtheory_checks`` for
    ``fedtheory_checks.fedrep.thm1``) is hashed, so any change of a plugin's code gives a new
    fingerprint. A name that is not found is hashed as a name. Of fedtheory itself, every module
    is covered except the presentation modules (:data:`PRESENTATION_MODULES`: the report page,
    its mathematics, the claim-table export, the findings view), which compute no result: editing them keeps saved
    verdicts and figures current.

    >>> len(source_fingerprint(["fedtheory.claims"]))
    64
    """
    tops = sorted({str(m).split(".", 1)[0] for m in modules} | {"fedtheory"})
    h = hashlib.sha256()
    for top in tops:
        if top not in _SOURCE_FP:
            ph = hashlib.sha256(top.encode())
            for rel, path in _package_files(top):
                if top == "fedtheory" and rel in PRESENTATION_MODULES:
                    continue
                with open(path, "rb") as fh:
                    ph.update(rel.encode())
                    ph.update(fh.read())
            _SOURCE_FP[top] = ph.hexdigest()
        h.update(top.encode())
        h.update(_SOURCE_FP[top].encode())
    return h.hexdigest()


_DIST_TOPS: dict = {}


def _distribution_packages() -> frozenset:
    """Top-level packages installed by the fedtheory distribution (``fedtheory``, ``fedtheory_checks``,
    ``fedtheory_reproductions``, ...), read once from its metadata; ``{"fedtheory"}`` without it."""
    if "tops" not in _DIST_TOPS:
        tops = {"fedtheory"}
        try:
            from importlib.metadata import distribution

            tops |= set((distribution("fedtheory").read_text("top_level.txt") or "").split())
        except Exception:  # noqa: BLE001 - not installed (a bare source tree): fedtheory alone
            pass
        _DIST_TOPS["tops"] = frozenset(tops)
    return _DIST_TOPS["tops"]


def task_modules(func) -> list[str]:
    """Modules whose source a task function's results depend on, for :func:`source_fingerprint`.

    ``func`` is unwrapped (``functools.partial``, or any wrapper with a ``func`` attribute); the result
    is its module and the modules of the names that module imports, kept when their top-level package
    is the task's own or one of the fedtheory distribution's (``fedtheory_checks``,
    ``fedtheory_reproductions``): a figure task of ``fedtheory_reproductions`` that calls
    ``fedtheory_checks`` code is keyed by both sources. fedtheory's own modules are left out (the key
    always holds :func:`code_fingerprint`); numpy, scipy and the standard library are not hashed (their
    versions do not enter the key).

    >>> import functools
    >>> from fedtheory.random import spawn_seeds
    >>> task_modules(functools.partial(spawn_seeds, n=2))
    []
    """
    import sys

    seen = set()
    while hasattr(func, "func") and id(func) not in seen:  # partial, _Pinned
        seen.add(id(func))
        func = func.func
    name = getattr(func, "__module__", None) or ""
    if not name:
        return []
    own = name.split(".", 1)[0]
    keep = (_distribution_packages() | {own}) - {"fedtheory"}  # fedtheory itself: always in the key
    mods = {name} if own != "fedtheory" else set()
    for v in vars(sys.modules[name]).values() if name in sys.modules else ():
        ref = v.__name__ if type(v).__name__ == "module" else getattr(v, "__module__", None)
        if isinstance(ref, str) and ref.split(".", 1)[0] in keep:
            mods.add(ref)
    return sorted(mods)


def task_key(namespace: str, params: dict, seed, code: str | None = None) -> str:
    """Key of a task: namespace, parameters, seed, package version and source fingerprint.

    ``code`` is the fingerprint of the sources the task depends on (default: fedtheory's,
    :func:`code_fingerprint`); :func:`fedtheory.parallel.cached_map` passes
    ``source_fingerprint(task_modules(func))``, which also covers a plugin's own package.
    """
    from ._version import __version__

    blob = json.dumps({"ns": namespace, "params": _canon(params), "seed": _canon(seed), "version": __version__,
                       "code": code or code_fingerprint()}, sort_keys=True)
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
