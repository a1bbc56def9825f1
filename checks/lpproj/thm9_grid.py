"""Theorem 9 over a grid of (eta~, T, R, S, beta), Lemmas 4-8 and eqs. (8)-(10), (26) (issue 14, item 1)."""
from __future__ import annotations

from . import PAPER  # noqa: F401
