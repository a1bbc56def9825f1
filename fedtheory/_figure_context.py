"""The figure being written: :func:`figure_context` is set by :func:`fedtheory.plugins.reproduce`
around each figure function and read by :func:`fedtheory.plotting.save_figure` for the sidecar."""
from __future__ import annotations

import contextlib
import contextvars

__all__ = ["figure_context", "current_figure_context"]

_FIGURE: contextvars.ContextVar[dict | None] = contextvars.ContextVar("fedtheory_figure", default=None)


@contextlib.contextmanager
def figure_context(**info):
    """Within the block, :func:`fedtheory.plotting.save_figure` adds ``info`` (figure id,
    reference, paper citation, seed, mode) to every sidecar it writes."""
    token = _FIGURE.set(info)
    try:
        yield
    finally:
        _FIGURE.reset(token)


def current_figure_context() -> dict | None:
    """The information set by the innermost :func:`figure_context`, if any."""
    return _FIGURE.get()
