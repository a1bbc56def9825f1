"""Theorems 14, 15, 27, 28: decaying schedules, recursion (32) and the App. A.5 sums (issue 14, item 3)."""
from __future__ import annotations

from . import PAPER  # noqa: F401
