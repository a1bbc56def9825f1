"""Warning classes used across fedtheory (warnings are classes, never prints)."""

__all__ = ["FedtheoryWarning", "IllConditionedWarning", "BoundInapplicableWarning"]


class FedtheoryWarning(RuntimeWarning):
    """Base class of all fedtheory warnings."""


class IllConditionedWarning(FedtheoryWarning):
    """A linear system was too ill-conditioned for ``solve``; a least-squares fallback was used."""


class BoundInapplicableWarning(FedtheoryWarning):
    """A bound was evaluated outside the assumptions of the theorem it comes from."""
