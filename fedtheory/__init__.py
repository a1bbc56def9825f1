"""fedtheory: check the theory of federated-learning papers on linear models.

Subjects (one subpackage each, split into model / algorithms / theory):

* :mod:`fedtheory.representation` - FedRep (Collins, Hassani, Mokhtari and Shakkottai, 2021);
* :mod:`fedtheory.srpfl` - SRPFL (Tziotis, Shen, Pedarsani, Hassani and Mokhtari, TMLR);
* :mod:`fedtheory.lpproj` - lp-proj (Han, Li, Lin and Zhang, JMLR 2024);
* :mod:`fedtheory.lowrank` - FedLRGD (Jadbabaie, Makur and Shah, IEEE Trans. Inf. Theory 2023).

Papers are plugins (:class:`Paper`, entry-point group ``fedtheory.papers``): each carries a
citation, claims grouped by section, figures and a results ledger. Shared core:
:mod:`.linalg`, :mod:`.random`, :mod:`.montecarlo`, :mod:`.claims`, :mod:`.paper`,
:mod:`.plugins`, :mod:`.ledger`, :mod:`.provenance`, :mod:`.parallel`, :mod:`.cache`,
:mod:`.plotting`, :mod:`.report`, :mod:`.cli`, :mod:`.testing`.
"""
__version__ = "0.2.0"

from ._warnings import BoundInapplicableWarning, FedtheoryWarning, IllConditionedWarning  # noqa: E402
from .claims import ERRATUM, ERROR, FAILS, HOLDS, INCONCLUSIVE, STATUSES, Claim, Verdict  # noqa: E402
from .ledger import LedgerRow  # noqa: E402
from .linalg import orthonormalize, principal_angle_distance  # noqa: E402
from .montecarlo import Estimate, ProportionEstimate, mc_mean, proportion_estimate  # noqa: E402
from .paper import Citation, Figure, Paper  # noqa: E402
from .plugins import (PluginError, get_claim, get_figure, get_paper, load_papers, paper_keys,  # noqa: E402
                      register_paper, registry, reproduce, unregister_paper)
from .provenance import provenance  # noqa: E402

__all__ = [
    "principal_angle_distance", "orthonormalize", "Estimate", "ProportionEstimate", "mc_mean",
    "proportion_estimate", "Verdict", "Claim", "Paper", "Citation", "Figure", "LedgerRow", "PluginError",
    "registry", "get_claim", "get_figure", "get_paper", "load_papers", "paper_keys", "register_paper",
    "unregister_paper", "reproduce", "provenance", "HOLDS", "FAILS", "ERRATUM", "INCONCLUSIVE", "ERROR", "STATUSES",
    "FedtheoryWarning", "IllConditionedWarning", "BoundInapplicableWarning", "__version__",
]
