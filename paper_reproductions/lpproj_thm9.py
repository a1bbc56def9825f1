"""lp-proj Theorem 9 figures: bound (17) against the observed suboptimality over T."""
from __future__ import annotations

from fedtheory_checks.lpproj import PAPER  # noqa: F401
