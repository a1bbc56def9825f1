"""Input validation helpers.

Every public function validates its inputs first and raises a ``ValueError``
whose message names the parameter, the allowed range and the value received,
for example ``"`k` must satisfy 1 <= k <= d (d=5); got k=7"``, or a ``TypeError``
naming the parameter for a value of the wrong type. Non-finite numbers (NaN, inf)
are refused by default (``"`sigma` must be finite; got nan"``).

Resource guards refuse, before anything is allocated, sizes whose memory would exceed
the machine (:data:`MAX_ARRAY_BYTES` in one array) and loop counts that would not finish
(:data:`MAX_LOOP_ITERATIONS`); their messages name the sizes responsible.
"""
from __future__ import annotations

import functools
import inspect
import math
import numbers
from typing import Any, Callable, Iterable

import numpy as np

__all__ = [
    "MAX_ARRAY_BYTES",
    "MAX_LOOP_ITERATIONS",
    "check_int",
    "check_real",
    "check_choice",
    "check_array_nonneg",
    "check_finite_array",
    "check_matrix",
    "check_instance",
    "check_callable",
    "check_generator",
    "check_alloc",
    "check_iterations",
    "check_finite_result",
    "check_bool",
    "guard_numeric_errors",
    "guard_module",
]

#: largest single array (bytes) a public function may allocate: the machine has 24 GiB shared
#: by several processes, so one array above 4 GiB is refused up front.
MAX_ARRAY_BYTES = 4 * 2 ** 30
#: largest number of Python-level loop iterations (rounds x inner steps, events, ...) a public
#: function may run; beyond it the call would take days, so it is refused up front.
MAX_LOOP_ITERATIONS = 10 ** 8


def _short(value: Any, width: int = 60) -> str:
    s = repr(value)
    return s if len(s) <= width else s[: width - 3] + "..."


def _nonfinite_msg(name: str, arr: np.ndarray, value: Any) -> str:
    bad = ~np.isfinite(arr)
    if arr.ndim == 0:
        return f"`{name}` must be finite; got {float(arr)!r}"
    idx = tuple(int(i) for i in np.argwhere(bad)[0])
    return (f"`{name}` must be finite; got {float(arr[idx])!r} at index {idx} "
            f"({int(bad.sum())} of {arr.size} entries non-finite)")


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
        if isinstance(value, (float, np.floating)) and not np.isfinite(value):
            raise ValueError(f"`{name}` must be finite; got {float(value)!r}")
        if isinstance(value, (float, np.floating)) and float(value).is_integer():
            value = int(value)
        else:
            raise TypeError(f"`{name}` must be an integer; got {_short(value)}")
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        suffix = f" ({why})" if why else ""
        raise ValueError(
            f"`{name}` must be in {_fmt_range(low, high, False, False)}{suffix}; got {name}={value}")
    return value


def check_real(value: Any, name: str, low: float | None = None, high: float | None = None,
               low_open: bool = False, high_open: bool = False, why: str = "",
               allow_inf: bool = False) -> float:
    """Return ``value`` as a ``float`` after checking it is finite and lies in the given interval.

    Parameters
    ----------
    value : real number
        The value to check (a bool, a string, ``None`` or an array is a ``TypeError``).
    name : str
        Parameter name used in the messages.
    low, high : float, optional
        Bounds of the allowed interval (``None``: unbounded).
    low_open, high_open : bool
        Whether the bounds are excluded.
    why : str
        Explanation appended to the range message.
    allow_inf : bool
        Accept ``+inf`` when ``high`` is ``None`` (NaN is always refused).

    Raises
    ------
    TypeError
        ``value`` is not a real number.
    ValueError
        ``value`` is NaN or infinite (``"`sigma` must be finite; got nan"``) or out of range.
    """
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, np.floating, np.integer)):
        suffix = f" ({why})" if why else ""
        raise TypeError(f"`{name}` must be a real number{suffix}; got {_short(value)}")
    try:
        value = float(value)
    except OverflowError:  # an int beyond float64
        raise ValueError(f"`{name}` must be finite (representable as a float64); got {_short(value)}") from None
    if np.isnan(value) or (np.isinf(value) and not (allow_inf and high is None and value == np.inf)):
        suffix = f" ({why})" if why else ""
        raise ValueError(f"`{name}` must be finite{suffix}; got {value!r}")
    bad = False
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
    def same(o: Any) -> bool:
        if value is o:
            return True
        if isinstance(value, str) and isinstance(o, str):
            return value == o
        ints = (numbers.Integral, np.integer)
        if isinstance(value, ints) and isinstance(o, ints) and not isinstance(value, bool) and not isinstance(o, bool):
            return int(value) == int(o)
        return type(value) is type(o) and bool(value == o)

    try:
        ok = any(same(o) for o in options)
    except Exception:  # noqa: BLE001 - arrays and odd objects compare badly: not an option
        ok = False
    if not ok:
        opts = ", ".join(repr(o) for o in options)
        raise ValueError(f"`{name}` must be one of: {opts}; got {value!r}")
    return value


def check_array_nonneg(value: Any, name: str) -> np.ndarray:
    """Return ``value`` as a float array after checking it is finite and >= 0."""
    arr = check_finite_array(value, name)
    if np.any(arr < 0):
        raise ValueError(f"`{name}` must be finite and >= 0; got {name}={_short(value)}")
    return arr


def check_finite_array(value: Any, name: str, low: float | None = None, high: float | None = None,
                       low_open: bool = False, high_open: bool = False, why: str = "", *,
                       ndim: int | None = None, integer: bool = False, allow_inf: bool = False) -> np.ndarray:
    """Return ``value`` as a float ndarray after checking every entry is finite (and in range).

    Accepts scalars, lists and arrays (closed forms broadcast like ``scipy.special``).

    Parameters
    ----------
    value : array_like of real numbers
    name : str
        Parameter name used in the messages.
    low, high, low_open, high_open, why
        Optional interval every entry must lie in, as in :func:`check_real`.
    ndim : int, optional
        Required number of dimensions.
    integer : bool
        Require integer values.
    allow_inf : bool
        Accept ``+inf`` entries (documented uses only; NaN and ``-inf`` are always refused).

    Raises
    ------
    TypeError
        ``value`` is not numeric (``None``, a string, a complex or ragged array...).
    ValueError
        An entry is NaN or infinite, out of range, not an integer, or ``ndim`` is wrong.
    """
    if value is None or isinstance(value, (str, bytes)):
        raise TypeError(f"`{name}` must be a real number or an array of real numbers; got {_short(value)}")
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"`{name}` must be a real number or an array of real numbers; "
                        f"got {_short(value)}") from None
    if not np.all(np.isfinite(arr) | (allow_inf & (arr == np.inf))):
        raise ValueError(_nonfinite_msg(name, arr, value))
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"`{name}` must have {ndim} dimension(s); got shape {arr.shape}")
    if integer and np.any((arr != np.round(arr)) & np.isfinite(arr)):
        raise ValueError(f"`{name}` must hold integers; got {name}={_short(value)}")
    bad = np.zeros(arr.shape, bool)
    if low is not None:
        bad |= (arr < low) | ((arr == low) if low_open else False)
    if high is not None:
        bad |= (arr > high) | ((arr == high) if high_open else False)
    if np.any(bad):
        suffix = f" ({why})" if why else ""
        worst = float(arr[np.unravel_index(int(np.argmax(bad)), arr.shape)]) if arr.ndim else float(arr)
        raise ValueError(f"`{name}` must be in {_fmt_range(low, high, low_open, high_open)}{suffix}; "
                         f"got {name}={worst!r}")
    return arr


def check_matrix(value: Any, name: str, shape: tuple | None = None) -> np.ndarray:
    """Return ``value`` as a finite float array of the given ``shape`` (``None`` entries: any size).

    ``shape`` also fixes the number of dimensions, e.g. ``(None, 3)`` is any n x 3 matrix.
    """
    arr = check_finite_array(value, name)
    if shape is not None:
        ok = arr.ndim == len(shape) and all(s is None or s == a for s, a in zip(shape, arr.shape))
        if not ok:
            want = "(" + ", ".join("any" if s is None else str(s) for s in shape) + ")"
            raise ValueError(f"`{name}` must have shape {want}; got shape {arr.shape}")
    return arr


def check_instance(value: Any, name: str, cls: type | tuple, what: str | None = None) -> Any:
    """Raise a ``TypeError`` naming ``name`` unless ``isinstance(value, cls)``."""
    if not isinstance(value, cls):
        if what is None:
            what = cls.__name__ if isinstance(cls, type) else " or ".join(c.__name__ for c in cls)
        raise TypeError(f"`{name}` must be a {what}; got {_short(value)}")
    return value


def check_callable(value: Any, name: str) -> Any:
    """Raise a ``TypeError`` naming ``name`` unless ``value`` is callable."""
    if not callable(value):
        raise TypeError(f"`{name}` must be callable; got {_short(value)}")
    return value


def check_generator(value: Any, name: str = "rng") -> np.random.Generator:
    """Raise a ``TypeError`` naming ``name`` unless ``value`` is a ``numpy.random.Generator``."""
    return check_instance(value, name, np.random.Generator, "numpy.random.Generator")


def _as_float(x: Any) -> float:
    try:
        return float(x)
    except OverflowError:
        return math.inf


def _sizes(sizes: dict) -> str:
    return ", ".join(f"`{k}`={v}" for k, v in sizes.items())


def check_alloc(elements: Any, what: str, itemsize: int = 8, **sizes: Any) -> None:
    """Refuse up front an array of ``elements`` items of ``itemsize`` bytes above :data:`MAX_ARRAY_BYTES`.

    ``sizes`` are the parameters the size comes from; the message names them, e.g.
    ``"the batch X (n_sel*m*d entries) would need 74.5 GiB in one array (limit 4 GiB); got `m`=10, `d`=10000000"``.
    ``elements`` may be a Python int (exact) or a float (products of huge values).
    """
    nbytes = _as_float(elements) * itemsize
    if not nbytes <= MAX_ARRAY_BYTES:
        raise ValueError(f"{what} would need {nbytes / 2 ** 30:.3g} GiB in one array (limit "
                         f"{MAX_ARRAY_BYTES / 2 ** 30:g} GiB); got {_sizes(sizes)}")


def check_iterations(count: Any, what: str, **sizes: Any) -> None:
    """Refuse up front a loop of more than :data:`MAX_LOOP_ITERATIONS` iterations (it would not finish)."""
    if not _as_float(count) <= MAX_LOOP_ITERATIONS:
        raise ValueError(f"{what} would run {_as_float(count):.3g} loop iterations (limit "
                         f"{MAX_LOOP_ITERATIONS:.0e}); got {_sizes(sizes)}")


def _all_finite(value: Any) -> bool:
    if isinstance(value, dict):
        return all(_all_finite(v) for v in value.values())
    if isinstance(value, (list, tuple)) and any(isinstance(v, (dict, list, tuple, np.ndarray)) for v in value):
        return all(_all_finite(v) for v in value)
    return bool(np.all(np.isfinite(np.asarray(value, dtype=float))))


def check_finite_result(value: Any, what: str, *names: str, **params: Any) -> Any:
    """Return ``value``; raise a ``ValueError`` if it is non-finite although the inputs were finite.

    Used where a float64 overflow (e.g. ``d = 1e300``) would otherwise return ``inf`` or NaN
    silently. The message names the parameters: ``names`` (arrays, named only) and ``params``
    (named with their values).
    """
    if not _all_finite(value):
        parts = [f"`{n}`" for n in names] + [f"`{k}`={_short(v, 30)}" for k, v in params.items()]
        raise ValueError(f"{what} overflows float64 (not finite) for these inputs; they are too large "
                         f"in magnitude: {', '.join(parts)}")
    return value


def check_bool(value: Any, name: str) -> bool:
    """Return ``value`` as a ``bool``; a ``TypeError`` naming ``name`` unless it is a bool (or 0/1)."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (numbers.Integral, np.integer)) and value in (0, 1):
        return bool(value)
    raise TypeError(f"`{name}` must be True or False; got {_short(value)}")


def _extreme(value: Any) -> bool:
    """Whether a numeric argument is extreme enough to overflow float64 arithmetic."""
    try:
        a = np.abs(np.asarray(value, dtype=float))
    except (TypeError, ValueError, OverflowError):
        return isinstance(value, numbers.Integral) and abs(value) > 10 ** 100
    if a.size == 0:
        return False
    return bool(np.any(a >= 1e100) or np.any((a > 0) & (a <= 1e-100)))


def _culprits(sig: inspect.Signature, args: tuple, kwargs: dict) -> str:
    try:
        bound = sig.bind_partial(*args, **kwargs).arguments
    except TypeError:
        bound = dict(kwargs)
    flat = {}
    for k, v in bound.items():
        if sig.parameters.get(k) is not None and sig.parameters[k].kind is inspect.Parameter.VAR_KEYWORD:
            flat.update(v)
        else:
            flat[k] = v
    numeric = {k: v for k, v in flat.items()
               if isinstance(v, (numbers.Number, np.ndarray, list, tuple)) and not isinstance(v, bool)}
    pick = {k: v for k, v in numeric.items() if _extreme(v)} or numeric or flat

    def show(k, v):
        if isinstance(v, np.ndarray) and v.size > 1:
            return f"`{k}` (array of shape {v.shape})"
        return f"`{k}`={_short(v, 30)}"

    return ", ".join(show(k, v) for k, v in pick.items())


def guard_numeric_errors(func: Callable) -> Callable:
    """Decorator: turn the numeric failures of ``func`` into ``ValueError``s naming its parameters.

    * ``OverflowError`` (Python float ``**``, ``math.exp``, huge ints converted to float) and
    * ``numpy.linalg.LinAlgError`` (e.g. an eigen-solver fed the NaN of an overflow)

    become ``ValueError("<func>: float64 overflow (...) for `sigma`=1e+300")`` naming the
    arguments that are extreme in magnitude (all numeric arguments if none is); a broadcasting
    error of numpy becomes a ``ValueError`` naming the array arguments and their shapes. Other
    exceptions, and every result, pass through unchanged.
    """
    sig = inspect.signature(func)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except OverflowError as exc:
            raise ValueError(f"{func.__name__}: the computation overflows float64 ({exc}); inputs too large "
                             f"or too small in magnitude: {_culprits(sig, args, kwargs)}") from None
        except np.linalg.LinAlgError as exc:
            raise ValueError(f"{func.__name__}: linear algebra failed ({exc}), typically after a float64 "
                             f"overflow or for degenerate inputs: {_culprits(sig, args, kwargs)}") from None
        except ValueError as exc:
            msg = str(exc)
            if "broadcast" in msg and "`" not in msg:
                try:
                    bound = sig.bind_partial(*args, **kwargs).arguments
                except TypeError:
                    bound = dict(kwargs)
                shapes = ", ".join(f"`{k}` shape {np.shape(v)}" for k, v in bound.items()
                                   if isinstance(v, (np.ndarray, list, tuple)))
                raise ValueError(f"{func.__name__}: the array arguments do not broadcast together ({shapes}): "
                                 f"{msg}") from None
            raise

    return wrapper


def guard_module(namespace: dict, names: Iterable[str]) -> None:
    """Wrap the public functions ``names`` of a module namespace with :func:`guard_numeric_errors`."""
    for name in names:
        obj = namespace.get(name)
        if inspect.isfunction(obj) and not hasattr(obj, "__wrapped__"):
            namespace[name] = guard_numeric_errors(obj)
