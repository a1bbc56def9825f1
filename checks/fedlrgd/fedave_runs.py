"""FedAve as analysed, run exactly (FedPAQ without quantisation): Lemma 3, the constant C of (78), Theorem 3 and Proposition 1 on measured oracle complexities (issue 15, items 1-2)."""
from __future__ import annotations

from . import PAPER  # noqa: F401
