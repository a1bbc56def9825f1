"""fedtheory: check the theory of federated-learning papers on linear models.

Subjects (one subpackage each, split into model / algorithms / theory):

* :mod:`fedtheory.representation` - FedRep (`002_3dc82ad2944c0e6c.txt`).

Shared core: :mod:`.linalg`, :mod:`.random`, :mod:`.montecarlo`, :mod:`.claims`,
:mod:`.parallel`, :mod:`.plotting`, :mod:`.cli`.
"""
from ._warnings import BoundInapplicableWarning, FedtheoryWarning, IllConditionedWarning
from .claims import ERRATUM, FAILS, HOLDS, INCONCLUSIVE, Claim, Verdict, get_claim, registry
from .linalg import orthonormalize, principal_angle_distance
from .montecarlo import Estimate, ProportionEstimate, mc_mean, proportion_estimate

__version__ = "0.1.0"

__all__ = [
    "principal_angle_distance", "orthonormalize", "Estimate", "ProportionEstimate", "mc_mean",
    "proportion_estimate", "Verdict", "Claim", "registry", "get_claim", "HOLDS", "FAILS",
    "ERRATUM", "INCONCLUSIVE", "FedtheoryWarning", "IllConditionedWarning",
    "BoundInapplicableWarning", "__version__",
]
