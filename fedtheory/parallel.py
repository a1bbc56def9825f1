"""Parallel execution of independent, seeded tasks.

``parallel_map(func, seed, n_tasks)`` runs ``func(child_seed_i)`` for the
children ``i = 0..n_tasks-1`` of ``SeedSequence(seed).spawn(n_tasks)``. Each task
gets its own stream, so the results are identical on every backend
(``serial``, ``threads``, ``processes``, ``dask``) and for any number of workers.
"""
from __future__ import annotations

import os
import signal
import time

import numpy as np
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor, as_completed
from typing import Any, Callable, Sequence

from ._validation import check_choice
from .random import SeedLike, spawn_seeds

__all__ = ["BACKENDS", "SCHEDULER_TIMEOUT", "SchedulerUnreachable", "parallel_map", "map_tasks", "cached_map",
           "configure", "current_config", "run_serially_here", "set_quiet"]

BACKENDS = ("serial", "threads", "processes", "dask")

#: seconds :func:`configure` waits for a Dask scheduler to answer (the CLI's ``--scheduler-timeout``)
SCHEDULER_TIMEOUT = 10.0


class SchedulerUnreachable(ValueError):
    """No Dask scheduler answered at the given address within the timeout (one-line message)."""

#: process-wide default used when a caller passes ``backend=None``; set by :func:`configure`
#: (the CLI's ``--workers`` / ``--scheduler``, or ``FEDTHEORY_SCHEDULER``)
_CONFIG = {"backend": "serial", "workers": None, "client": None, "scheduler": None, "quiet": False}


def set_quiet(quiet: bool) -> None:
    """Silence progress bars (the CLI's ``--quiet``)."""
    _CONFIG["quiet"] = bool(quiet)


def _progress(iterable, total: int, desc: str):
    """A tqdm bar on a TTY that appears only if the sweep lasts more than 2 s; quiet otherwise."""
    import sys

    if _CONFIG["quiet"] or not sys.stderr.isatty():
        return iterable
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm is a dependency
        return iterable
    return tqdm(iterable, total=total, desc=desc, delay=2.0, leave=False)


def configure(*, workers: int | None = None, scheduler: str | None = None,
              timeout: float = SCHEDULER_TIMEOUT) -> dict:
    """Set the default execution backend for sweeps and replications.

    ``scheduler`` (an address such as ``tcp://127.0.0.1:8786``, or ``FEDTHEORY_SCHEDULER``) sends
    tasks to a dask.distributed cluster; otherwise ``workers > 1`` runs local processes and
    ``workers`` in (None, 1) runs serially. Task streams come from the task index
    (``SeedSequence.spawn``), never from the worker, so the numbers do not depend on this choice.

    Raises :class:`SchedulerUnreachable` if the scheduler does not answer within ``timeout``
    seconds (default :data:`SCHEDULER_TIMEOUT`).
    """
    scheduler = scheduler or os.environ.get("FEDTHEORY_SCHEDULER") or None
    if scheduler:
        try:
            from dask.distributed import Client
        except ImportError as exc:  # pragma: no cover - depends on the extra
            raise ValueError("`scheduler` needs the dask extra: pip install -e '.[dask]'") from exc
        try:
            client = Client(scheduler, timeout=timeout)
        except Exception as exc:  # noqa: BLE001 - unreachable, refused, malformed address: one line
            msg = f"{type(exc).__name__}: {' '.join(str(exc).split())}"
            if isinstance(exc, (OSError, TimeoutError)):  # nothing answered (refused, unreachable, timed out)
                raise SchedulerUnreachable(f"no Dask scheduler answered within {timeout:g} s ({msg})") from None
            raise SchedulerUnreachable(f"not a usable scheduler address ({msg})") from None
        _CONFIG.update(backend="dask", client=client, scheduler=scheduler, workers=workers)
    elif workers is not None and workers > 1:
        _CONFIG.update(backend="processes", workers=workers, client=None, scheduler=None)
    else:
        _CONFIG.update(backend="serial", workers=None, client=None, scheduler=None)
    return dict(_CONFIG)


def current_config() -> dict:
    return dict(_CONFIG)


def run_serially_here() -> None:
    """In a worker process that already is the parallelism: run this process's sweeps serially
    (no nested pools, no Dask client)."""
    _CONFIG.update(backend="serial", workers=None, client=None, scheduler=None)


_PINNED = []


def _pin_blas():
    """Worker-process initializer: one BLAS thread per process (the processes are the parallelism).

    Workers also ignore SIGINT: Ctrl-C reaches the whole process group, and only the parent
    handles it (it stops the pool), so no worker prints a KeyboardInterrupt traceback.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # blocked while the parent forked us
    from threadpoolctl import threadpool_limits

    _PINNED.append(threadpool_limits(limits=1, user_api="blas"))


def _in_completion_order(futures: list, on_done, as_completed) -> list:
    """``[f.result() for f in futures]``, calling ``on_done(i, result)`` as each future finishes."""
    if on_done is not None:
        index = {id(f): i for i, f in enumerate(futures)}
        for f in as_completed(futures):
            on_done(index[id(f)], f.result())
    return [f.result() for f in futures]


def _process_map(func, tasks: list, workers: int, on_done=None) -> list:
    """``ProcessPoolExecutor.map`` that stops at once on Ctrl-C (or any error): pending tasks are
    cancelled and the workers terminated, then the exception propagates. ``on_done(i, result)`` is
    called in this process as each task finishes (in completion order)."""
    block = hasattr(signal, "pthread_sigmask")
    ex = ProcessPoolExecutor(max_workers=workers, initializer=_pin_blas)
    futures: list = []
    try:
        if block:  # workers start with SIGINT blocked until their initializer ignores it (no race)
            old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            futures = [ex.submit(func, t) for t in tasks]
        finally:
            if block:
                signal.pthread_sigmask(signal.SIG_SETMASK, old)
        return _in_completion_order(futures, on_done, as_completed)
    except BaseException:
        # terminate the workers; the pool then fails every pending future itself (BrokenProcessPool).
        # Cancelling them here as well races with that and Python 3.11's pool thread raises
        # InvalidStateError on a cancelled future (a traceback on stderr after Ctrl-C).
        for proc in list((getattr(ex, "_processes", None) or {}).values()):
            if proc.is_alive():
                proc.terminate()
        ex.shutdown(wait=False)
        raise
    finally:
        ex.shutdown(wait=True)


class _Pinned:
    """``func`` run with BLAS pinned to one thread, on every backend, so that the floating-point
    summation order (and every bit of the result) is the same serially, in processes and on Dask."""

    def __init__(self, func):
        self.func = func

    def __call__(self, task):
        from .linalg import blas_single_thread

        with blas_single_thread():
            return self.func(task)


def map_tasks(func: Callable[[Any], Any], tasks: Sequence[Any], backend: str | None = None,
              workers: int | None = None, client: Any = None, on_done: Callable[[int, Any], None] | None = None
              ) -> list:
    """Apply ``func`` to each task, preserving order.

    Parameters
    ----------
    func : callable
        Must be picklable for ``processes`` and ``dask``.
    tasks : sequence
    backend : {"serial", "threads", "processes", "dask"}, optional
        Default: the process-wide setting of :func:`configure` (serial unless configured).
    workers : int, optional
        Pool size (default ``os.cpu_count()``).
    client : dask.distributed.Client, optional
        For ``backend="dask"``; by default a local cluster is started.
    on_done : callable, optional
        ``on_done(i, result)`` is called in this process as soon as task ``i`` finishes (in
        completion order, before the list is returned): :func:`cached_map` stores each task there,
        so an interrupted sweep keeps every task finished before the interruption.
    """
    if backend is None:
        backend = _CONFIG["backend"]
        workers = workers or _CONFIG["workers"]
        client = client or _CONFIG["client"]
    check_choice(backend, "backend", BACKENDS)
    tasks = list(tasks)
    func = func if isinstance(func, _Pinned) else _Pinned(func)
    if backend == "serial" or len(tasks) <= 1:
        out = []
        for t in _progress(tasks, len(tasks), getattr(func.func, "__name__", "tasks")):
            out.append(func(t))
            if on_done is not None:
                on_done(len(out) - 1, out[-1])
        return out
    workers = workers or os.cpu_count() or 1
    if backend == "threads":
        with ThreadPoolExecutor(max_workers=workers) as ex:
            return _in_completion_order([ex.submit(func, t) for t in tasks], on_done, as_completed)
    if backend == "processes":
        return _process_map(func, tasks, workers, on_done)
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError as exc:  # pragma: no cover - depends on the extra
        raise ValueError("`backend`='dask' needs the dask extra: pip install -e '.[dask]'") from exc
    own = client is None
    if own:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    try:
        futures = client.map(func, tasks, pure=False)
        if on_done is None:
            return client.gather(futures)
        from dask.distributed import as_completed as dask_completed

        return _in_completion_order(futures, on_done, dask_completed)
    finally:
        if own:
            client.close()
            cluster.close()


def _to_arrays(result) -> dict:
    if not isinstance(result, dict):
        return {"__value__": np.asarray(result)}
    return {k: np.asarray(v) for k, v in result.items()}


def _from_arrays(arrays: dict):
    if set(arrays) == {"__value__"}:
        v = arrays["__value__"]
        return v.item() if v.ndim == 0 else v
    return {k: (v.item() if v.ndim == 0 else v) for k, v in arrays.items()}


def _test_task_delay() -> float:
    """Seconds to sleep after storing each cached task: ``FEDTHEORY_TEST_TASK_DELAY`` (tests only: it
    makes a run that is killed mid-sweep leave some, not all, of its tasks in the cache); 0 if unset."""
    raw = os.environ.get("FEDTHEORY_TEST_TASK_DELAY", "")
    if not raw.strip():
        return 0.0
    try:
        delay = float(raw)
    except ValueError:
        delay = float("nan")
    if not 0 <= delay < 3600:
        raise ValueError(f"FEDTHEORY_TEST_TASK_DELAY must be a number of seconds in [0, 3600); got {raw!r}")
    return delay


def cached_map(func: Callable[[Any], Any], tasks: Sequence[Any], *, namespace: str, params: dict,
               backend: str | None = None, workers: int | None = None) -> list:
    """:func:`map_tasks` with the process-wide task cache (:mod:`fedtheory.cache`), if enabled.

    Each task's key is ``(namespace, params, task)`` (the task is its seed sequence); cached
    tasks are loaded, missing ones computed and stored as soon as each one finishes, so an
    interrupted sweep resumes where it stopped and gives the same final result.
    """
    from .cache import current_cache, source_fingerprint, task_key, task_modules

    cache = current_cache()
    if cache is None:
        return map_tasks(func, tasks, backend=backend, workers=workers)
    tasks = list(tasks)
    code = source_fingerprint(task_modules(func))  # fedtheory's and the task's own sources (a plugin's)
    keys = [task_key(namespace, params, t, code=code) for t in tasks]
    out = [None] * len(tasks)
    missing = []
    for i, k in enumerate(keys):
        got = cache.get(k)
        if got is None:
            missing.append(i)
        else:
            out[i] = _from_arrays(got)

    delay = _test_task_delay()

    def store(j, res):  # task missing[j] finished: stored at once, so an interruption keeps it
        cache.put(keys[missing[j]], _to_arrays(res))
        if delay:
            time.sleep(delay)

    results = map_tasks(func, [tasks[i] for i in missing], backend=backend, workers=workers, on_done=store)
    for i, res in zip(missing, results):
        out[i] = _from_arrays(_to_arrays(res))  # the types a resumed run reads back: runs agree in type too
    return out


def parallel_map(func: Callable[[Any], Any], seed: SeedLike, n_tasks: int,
                 backend: str | None = None, workers: int | None = None, client: Any = None) -> list:
    """Run ``func(child_seed)`` for ``n_tasks`` spawned children of ``seed``."""
    return map_tasks(func, spawn_seeds(seed, n_tasks), backend=backend, workers=workers,
                     client=client)
