"""Proposition 10, Lemmas 11, 12 and 26, eq. (11), Theorem 13 and eqs. (12), (19), (20) in the A6 setting (issue 14, item 2)."""
from __future__ import annotations

from . import PAPER  # noqa: F401
