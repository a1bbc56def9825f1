"""Entry point of the ``fedtheory`` console script and of ``python -m fedtheory``.

It imports the command line (and with it numpy and scipy) inside a handler, so that Ctrl-C while
they load prints one line, like Ctrl-C during the work, instead of an import traceback.
"""
from __future__ import annotations

import sys


def run(argv: list[str] | None = None) -> int:
    """Import :mod:`fedtheory.cli` and run it; returns the exit status (130 when interrupted)."""
    try:
        from .cli import main
    except KeyboardInterrupt:
        print("fedtheory: interrupted", file=sys.stderr)
        return 130
    return main(argv)


def console() -> None:  # pragma: no cover - exercised through the installed script
    """``fedtheory`` console script."""
    sys.exit(run())
