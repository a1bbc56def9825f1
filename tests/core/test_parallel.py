"""Tests of :mod:`fedtheory.parallel`: the serial, thread, process and dask backends give the same numbers, the
backend is validated, and the process pool stops at once on an interrupt."""
import os
import signal
import threading
import time

import pytest

from fedtheory.parallel import map_tasks, parallel_map
from fedtheory.random import as_generator


def _draw(ss):
    return float(as_generator(ss).standard_normal())


def test_backends_give_identical_results():
    serial = parallel_map(_draw, 11, 6, backend="serial")
    threads = parallel_map(_draw, 11, 6, backend="threads", workers=2)
    procs = parallel_map(_draw, 11, 6, backend="processes", workers=2)
    assert serial == threads == procs


def test_backend_validation():
    with pytest.raises(ValueError, match="backend"):
        map_tasks(_draw, [1], backend="gpu")


def test_dask_backend_matches_serial():
    pytest.importorskip("dask.distributed")
    serial = parallel_map(_draw, 11, 4, backend="serial")
    dask = parallel_map(_draw, 11, 4, backend="dask", workers=2)
    assert serial == dask


def test_the_process_pool_stops_at_once_on_interrupt():
    """In-process: a KeyboardInterrupt in the parent while tasks run cancels the rest and terminates
    the workers at once (no waiting for the running tasks, no worker left)."""
    import multiprocessing

    from fedtheory import parallel

    def interrupt_soon():
        time.sleep(1.5)
        os.kill(os.getpid(), signal.SIGINT)

    # Python's Ctrl-C handler, also when the test run was started with SIGINT ignored (in the background)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    threading.Thread(target=interrupt_soon, daemon=True).start()
    t0 = time.time()
    try:
        _run_interrupted_pool(parallel, multiprocessing, t0)
    finally:
        signal.signal(signal.SIGINT, previous)


def _run_interrupted_pool(parallel, multiprocessing, t0):
    with pytest.raises(KeyboardInterrupt):
        parallel.map_tasks(time.sleep, [60.0] * 4, backend="processes", workers=2)
    assert time.time() - t0 < 30
    deadline = time.time() + 10
    while multiprocessing.active_children() and time.time() < deadline:
        time.sleep(0.1)
    assert not multiprocessing.active_children()
