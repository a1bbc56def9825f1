"""FedLRGD figures: the fit of alpha in ||G^-1|| <= r^alpha (Assumption (8)) for two losses."""
from __future__ import annotations

from fedtheory_checks.fedlrgd import PAPER  # noqa: F401
