"""lp-proj Theorems 14 and 15 figures: decay under the paper's schedules with fitted slopes."""
from __future__ import annotations

from fedtheory_checks.lpproj import PAPER  # noqa: F401
