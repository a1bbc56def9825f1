"""fedtheory: check the theory of federated-learning papers on linear models.

Subjects (one subpackage each, split into model / algorithms / theory):

* :mod:`fedtheory.representation` - FedRep (Collins, Hassani, Mokhtari and Shakkottai, 2021);
* :mod:`fedtheory.srpfl` - SRPFL (Tziotis, Shen, Pedarsani, Hassani and Mokhtari, TMLR);
* :mod:`fedtheory.lpproj` - lp-proj (Han, Li, Lin and Zhang, JMLR 2024);
* :mod:`fedtheory.lowrank` - FedLRGD (Jadbabaie, Makur and Shah, IEEE Trans. Inf. Theory 2023).

Papers are plugins (:class:`Paper`, entry-point group ``fedtheory.papers``): each carries a
citation, claims grouped by section, figures and a results ledger. Shared core:
:mod:`.linalg`, :mod:`.random`, :mod:`.montecarlo`, :mod:`.claims`, :mod:`.decide` (the decision
kit, where numbers become verdicts), :mod:`.paper`,
:mod:`.plugins`, :mod:`.ledger`, :mod:`.provenance`, :mod:`.parallel`, :mod:`.cache`,
:mod:`.plotting`, :mod:`.report`, :mod:`.cli`, :mod:`.testing`.
"""
from ._version import __version__  # noqa: E402,F401

# Names are imported on first use (PEP 562), so that ``import fedtheory`` and the command line
# start without loading numpy/scipy first, and Ctrl-C while they load is handled by the CLI.
_LAZY = {
    "BoundInapplicableWarning": "_warnings", "FedtheoryWarning": "_warnings",
    "IllConditionedWarning": "_warnings",
    "ERRATUM": "claims", "ERROR": "claims", "FAILS": "claims", "HOLDS": "claims",
    "INCONCLUSIVE": "claims", "NOT_RUN": "claims", "STATUSES": "claims", "Claim": "claims", "Verdict": "claims",
    "REFUTED": "claims", "NOT_REPRODUCED": "claims", "VACUOUS": "claims", "RootCause": "paper",
    "LedgerRow": "ledger",
    "orthonormalize": "linalg", "principal_angle_distance": "linalg",
    "Estimate": "montecarlo", "ProportionEstimate": "montecarlo", "mc_mean": "montecarlo",
    "proportion_estimate": "montecarlo",
    "Citation": "paper", "Figure": "paper", "Paper": "paper",
    "PluginError": "plugins", "get_claim": "plugins", "get_figure": "plugins", "get_paper": "plugins",
    "load_papers": "plugins", "paper_keys": "plugins", "register_paper": "plugins",
    "registry": "plugins", "reproduce": "plugins", "unregister_paper": "plugins",
}

# ``provenance`` names both a submodule and its function: import it now (it is light), so that a
# later ``import fedtheory.provenance`` elsewhere cannot leave the module where the function belongs.
from .provenance import provenance  # noqa: E402


def __getattr__(name):
    try:
        module = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'fedtheory' has no attribute {name!r}") from None
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "principal_angle_distance", "orthonormalize", "Estimate", "ProportionEstimate", "mc_mean",
    "proportion_estimate", "Verdict", "Claim", "Paper", "Citation", "Figure", "LedgerRow", "PluginError",
    "registry", "get_claim", "get_figure", "get_paper", "load_papers", "paper_keys", "register_paper",
    "unregister_paper", "reproduce", "provenance", "HOLDS", "FAILS", "ERRATUM", "INCONCLUSIVE", "NOT_RUN", "ERROR",
    "STATUSES",
    "REFUTED", "NOT_REPRODUCED", "VACUOUS", "RootCause",
    "FedtheoryWarning", "IllConditionedWarning", "BoundInapplicableWarning", "__version__",
]
