"""Remaining lp-proj results and errata: Proposition 25, Sec. 5.3, Sec. 6.1, Table 3, eq. (34) (issue 14, item 7)."""
from __future__ import annotations

from . import PAPER  # noqa: F401
