"""Input checks of the runs of Algorithm 1 in :mod:`fedtheory.lpproj.stochastic`, run once at the public entry.

Han, Li, Lin & Zhang (2024), "A Random Projection Approach to Personalized Federated Learning", JMLR 25,
Algorithm 1: the local step ``eta_t``, the inner tolerance ``nu_t`` and the mini-batch ``D_t`` may be constants or
per-round schedules of length ``T``. A schedule is validated as a whole, by one vectorised test, before the rounds
start; only an array that fails the test is checked entry by entry, which raises the message of its first
offending entry (the message a constant with that value gets), so the loop over the rounds never checks again.
"""
from __future__ import annotations

import numpy as np

from .._validation import check_int, check_real


def _positive_schedule(value, name, T, *, why, none_ok=False):
    """Validated ``(values, param)`` of a positive real ``value`` or length-``T`` schedule of them.

    ``values`` is the list of the ``T`` per-round floats and ``param`` what the run records (the float, or the
    array). ``None`` gives ``([None] * T, None)`` when ``none_ok`` and a ``ValueError`` otherwise. An array is checked
    finite entry by entry first, then positive (``why`` explains the range), as a constant would be.
    """
    if value is None:
        if not none_ok:
            raise ValueError(f"`{name}` is required")
        return [None] * T, None
    arr = np.asarray(value)
    if arr.ndim == 0:
        v = check_real(check_real(value, name), name, 0, low_open=True, why=why)
        return [v] * T, v
    if arr.shape != (T,):
        raise ValueError(f"`{name}` must be a scalar or an array of length T={T}; got shape {arr.shape}")
    if arr.dtype.kind in "biuf" and np.all(np.isfinite(arr) & (arr > 0)):
        vals = arr.astype(float).tolist()
    else:
        vals = [check_real(float(v), name) for v in arr]
        vals = [check_real(v, name, 0, low_open=True, why=why) for v in vals]
    return vals, np.array(vals)


def _batch_schedule(batch, T, n):
    """Validated ``(values, param)`` of the mini-batch sizes: ``None`` (the full batch), an int or a length-``T``
    array of ints, each in ``[1, n]`` (``n`` samples per client); ``values`` is the list of the ``T`` per-round
    sizes and ``param`` what the run records."""
    why = f"1 <= batch <= n = {n} samples per client"
    if batch is None:
        return [None] * T, None
    if np.ndim(batch) == 0:
        b = check_int(batch, "batch", 1, n, why=why)
        return [b] * T, b
    if np.shape(batch) != (T,):
        raise ValueError(f"`batch` must be a scalar or an array of length T={T}; got shape {np.shape(batch)}")
    arr = np.asarray(batch)
    if arr.dtype.kind in "iu" and np.all((arr >= 1) & (arr <= n)):
        vals = arr.tolist()
    else:
        vals = [check_int(v, "batch", 1, n, why=why) for v in batch]
    return vals, np.array(vals)
