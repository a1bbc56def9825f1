"""Theorem 2's proof chain (59)-(64) on instrumented FedLRGD runs (issue 15, item 3)."""
from __future__ import annotations

from . import PAPER  # noqa: F401
