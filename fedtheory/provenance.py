"""Provenance of a run: what produced a JSON output, a figure sidecar or a report.

Two records, for two uses:

* :func:`provenance` (``verify --json``, ``ledger --json``, the report) describes *this run*: the
  fedtheory version, the git commit of the source tree and whether it had uncommitted changes
  (when fedtheory runs from a git checkout), the numpy, scipy, matplotlib and Python versions,
  the platform, the date, the seed and the mode. The date honours ``SOURCE_DATE_EPOCH`` (the
  reproducible-builds convention).
* :func:`figure_provenance` (the JSON sidecar of every figure) describes only *what the figure's
  content depends on*: the versions, a coarse platform (operating system and machine, no kernel
  release), the seed, the mode and a fingerprint of the sources of fedtheory and of the figure's
  paper plugin (:func:`fedtheory.results.paper_fingerprint`). It has no date, no git commit and no dirty flag, so
  ``fedtheory reproduce`` run twice writes byte-identical sidecars, and tracked figures stay
  unchanged after a commit that does not touch the code (a commit hash changes at every commit,
  a date at every run).
"""
from __future__ import annotations

import datetime as _dt
import functools
import os
import platform
import subprocess

from ._figure_context import current_figure_context, figure_context  # noqa: E402,F401 (re-exported)

__all__ = ["provenance", "figure_provenance", "figure_context", "current_figure_context"]



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


def _versions() -> dict:
    """The versions of fedtheory, Python and the libraries whose output a result depends on."""
    import importlib.metadata

    import numpy
    import scipy

    from ._version import __version__

    try:  # the installed version, without importing matplotlib (verify --json never plots)
        mpl = importlib.metadata.version("matplotlib")
    except importlib.metadata.PackageNotFoundError:
        mpl = None
    return {"fedtheory": __version__, "python": platform.python_version(), "numpy": numpy.__version__,
            "scipy": scipy.__version__, "matplotlib": mpl}


def provenance(*, seed=None, mode: str | None = None) -> dict:
    """A dict describing the software and machine behind an output, and when it was made.

    Parameters
    ----------
    seed : int or None
        The run's base seed (``None``: each claim's own).
    mode : {"quick", "full"} or None
        The run's mode.

    Returns
    -------
    dict
        Keys ``fedtheory``, ``git_commit``, ``git_dirty``, ``python``, ``numpy``, ``scipy``,
        ``matplotlib``, ``platform`` (:func:`platform.platform`), ``date`` (UTC, ISO 8601; honours
        ``SOURCE_DATE_EPOCH``), ``seed``, ``mode``. For figure sidecars use
        :func:`figure_provenance`, which leaves out what changes between identical runs.

    Examples
    --------
    >>> from fedtheory.provenance import provenance
    >>> p = provenance(seed=0, mode="quick")
    >>> p["seed"], p["mode"], "date" in p and "git_commit" in p
    (0, 'quick', True)
    """
    commit, dirty = _git()
    v = _versions()
    return {"fedtheory": v.pop("fedtheory"), "git_commit": commit, "git_dirty": dirty, **v,
            "platform": platform.platform(), "date": _date(), "seed": seed, "mode": mode}


def figure_provenance(*, seed=None, mode: str | None = None, paper=None) -> dict:
    """The provenance written into a figure's JSON sidecar: only what its content depends on.

    Two runs of ``fedtheory reproduce`` with the same code, libraries, seed and mode give the
    same record (and so byte-identical sidecars), whatever the date or the git commit; the record
    changes when the results may change: a new version of fedtheory, numpy, scipy, matplotlib or
    Python, another operating system or machine type, another seed or mode, or any edit of the
    sources (``source_fingerprint``).

    Parameters
    ----------
    seed : int or None
        The figure's seed.
    mode : {"quick", "full"} or None
        The run's mode.
    paper : fedtheory.Paper or None
        The paper the figure belongs to: the fingerprint then covers its plugin's packages too
        (:func:`fedtheory.results.paper_fingerprint`); ``None``: the fedtheory sources only
        (:func:`fedtheory.cache.code_fingerprint`).

    Returns
    -------
    dict
        Keys ``fedtheory``, ``python``, ``numpy``, ``scipy``, ``matplotlib``, ``platform``
        (``system-machine``, e.g. ``Linux-x86_64``: no kernel release, which changes with every OS
        update but not the numbers), ``source_fingerprint`` (SHA-256 of the sources), ``seed``,
        ``mode``. No ``date``, ``git_commit`` or ``git_dirty``: those are in :func:`provenance`.

    Examples
    --------
    >>> from fedtheory.provenance import figure_provenance
    >>> p = figure_provenance(seed=0, mode="quick")
    >>> p == figure_provenance(seed=0, mode="quick"), "date" in p, "git_commit" in p, len(p["source_fingerprint"])
    (True, False, False, 64)
    """
    if paper is None:
        from .cache import code_fingerprint

        fp = code_fingerprint()
    else:
        from .results import paper_fingerprint

        fp = paper_fingerprint(paper)
    return {**_versions(), "platform": f"{platform.system()}-{platform.machine()}", "source_fingerprint": fp,
            "seed": seed, "mode": mode}
