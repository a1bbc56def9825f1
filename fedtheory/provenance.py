"""Provenance of a run: what produced a JSON output, a figure sidecar or a report.

:func:`provenance` returns the fedtheory version, the git commit of the source tree (when
fedtheory runs from a git checkout), the numpy, scipy and Python versions, the platform, the
date, the seed and the mode. The date honours ``SOURCE_DATE_EPOCH`` (the reproducible-builds
convention), so outputs can be made byte-identical across runs.
"""
from __future__ import annotations

import contextlib
import contextvars
import datetime as _dt
import functools
import os
import platform
import subprocess

__all__ = ["provenance", "figure_context", "current_figure_context"]

_FIGURE: contextvars.ContextVar[dict | None] = contextvars.ContextVar("fedtheory_figure", default=None)


@functools.lru_cache(maxsize=1)
def _git() -> tuple[str | None, bool | None]:
    """(commit, dirty) of the checkout fedtheory runs from, or (None, None)."""
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        top = subprocess.run(["git", "-C", here, "rev-parse", "--show-toplevel"], capture_output=True,
                             text=True, timeout=5)
        if top.returncode != 0:
            return None, None
        # only trust the repository if this very file belongs to it (not an enclosing unrelated repo)
        if not os.path.samefile(os.path.join(top.stdout.strip(), "fedtheory", "provenance.py"), __file__):
            return None, None
        head = subprocess.run(["git", "-C", here, "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5)
        dirty = subprocess.run(["git", "-C", here, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=5)
        if head.returncode != 0:
            return None, None
        return head.stdout.strip(), bool(dirty.stdout.strip()) if dirty.returncode == 0 else None
    except (OSError, subprocess.SubprocessError):
        return None, None


def _date() -> str:
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch and epoch.strip().isdigit():
        t = _dt.datetime.fromtimestamp(int(epoch), tz=_dt.timezone.utc)
    else:
        t = _dt.datetime.now(tz=_dt.timezone.utc)
    return t.replace(microsecond=0).isoformat()


def provenance(*, seed=None, mode: str | None = None) -> dict:
    """A dict describing the software and machine behind an output.

    Keys: ``fedtheory``, ``git_commit``, ``git_dirty``, ``python``, ``numpy``, ``scipy``,
    ``platform``, ``date`` (UTC, ISO 8601), ``seed``, ``mode``.
    """
    import numpy
    import scipy

    from . import __version__

    commit, dirty = _git()
    return {"fedtheory": __version__, "git_commit": commit, "git_dirty": dirty,
            "python": platform.python_version(), "numpy": numpy.__version__, "scipy": scipy.__version__,
            "platform": platform.platform(), "date": _date(), "seed": seed, "mode": mode}


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
