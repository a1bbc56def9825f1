"""lp-proj multi-round robustness figure: test loss over rounds per attack level and method."""
from __future__ import annotations

from fedtheory_checks.lpproj import PAPER  # noqa: F401
