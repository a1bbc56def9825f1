"""Input validation helpers.

Every public function validates its inputs first and raises a ``ValueError``
whose message names the parameter, the allowed range and the value received,
for example ``"`k` must satisfy 1 <= k <= d (d=5); got k=7"``.
"""
from __future__ import annotations

import numbers
from typing import Any, Iterable

import numpy as np

__all__ = [
    "check_int",
    "check_real",
    "check_choice",
    "check_array_nonneg",
]


def _fmt_range(low: Any, high: Any, low_open: bool, high_open: bool) -> str:
    lo = "(" if (low_open or low is None) else "["
    hi = ")" if (high_open or high is None) else "]"
    low_s = "-inf" if low is None else repr(low)
    high_s = "inf" if high is None else repr(high)
    return f"{lo}{low_s}, {high_s}{hi}"


def check_int(value: Any, name: str, low: int | None = None, high: int | None = None,
              why: str = "") -> int:
    """Return ``value`` as an ``int`` after checking ``low <= value <= high``.

    Raises ``TypeError`` for a non-integer and ``ValueError`` for an out-of-range value.
    """
    if isinstance(value, bool) or not isinstance(value, (numbers.Integral, np.integer)):
        if isinstance(value, (float, np.floating)) and float(value).is_integer():
            value = int(value)
        else:
            raise TypeError(f"`{name}` must be an integer; got {value!r}")
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        suffix = f" ({why})" if why else ""
        raise ValueError(
            f"`{name}` must be in {_fmt_range(low, high, False, False)}{suffix}; got {name}={value}")
    return value


def check_real(value: Any, name: str, low: float | None = None, high: float | None = None,
               low_open: bool = False, high_open: bool = False, why: str = "") -> float:
    """Return ``value`` as a ``float`` after checking it lies in the given interval."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, np.floating, np.integer)):
        raise TypeError(f"`{name}` must be a real number; got {value!r}")
    value = float(value)
    bad = not np.isfinite(value) and not (high is None and value == np.inf)
    if low is not None and (value < low or (low_open and value == low)):
        bad = True
    if high is not None and (value > high or (high_open and value == high)):
        bad = True
    if bad or np.isnan(value):
        suffix = f" ({why})" if why else ""
        raise ValueError(
            f"`{name}` must be in {_fmt_range(low, high, low_open, high_open)}{suffix}; "
            f"got {name}={value!r}")
    return value


def check_choice(value: Any, name: str, options: Iterable[Any]) -> Any:
    """Check that ``value`` is one of ``options``."""
    options = tuple(options)
    if value not in options:
        opts = ", ".join(repr(o) for o in options)
        raise ValueError(f"`{name}` must be one of: {opts}; got {value!r}")
    return value


def check_array_nonneg(value: Any, name: str) -> np.ndarray:
    """Return ``value`` as a float array after checking it is finite and >= 0."""
    arr = np.asarray(value, dtype=float)
    if not np.all(np.isfinite(arr)) or np.any(arr < 0):
        raise ValueError(f"`{name}` must be finite and >= 0; got {name}={value!r}")
    return arr
