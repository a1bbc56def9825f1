"""Fairness dimension scaling, identity (49)(d) and V^l2 > V^Me for fixed w_k (issue 14, item 5)."""
from __future__ import annotations

from . import PAPER  # noqa: F401
