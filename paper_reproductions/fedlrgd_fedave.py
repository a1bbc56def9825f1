"""FedLRGD figures: FedAve against FedLRGD oracle complexity to reach epsilon, measured."""
from __future__ import annotations

from fedtheory_checks.fedlrgd import PAPER  # noqa: F401
