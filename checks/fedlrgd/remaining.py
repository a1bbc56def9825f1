"""Lemma 1 and Theorem 1 with l >= 2, the remaining partial claims, time-model rows and errata (issue 15, items 5-7)."""
from __future__ import annotations

from . import PAPER  # noqa: F401
