"""Multi-round robustness of Algorithm 1 (p = 1 ADMM, p = 2) under Byzantine attacks (issue 14, item 4)."""
from __future__ import annotations

from . import PAPER  # noqa: F401
