"""SRPFL plugin: Tziotis, Shen, Pedarsani, Hassani and Mokhtari, *Straggler-Resilient
Personalized Federated Learning*, TMLR (numbering followed) and arXiv (cited separately).

Claims by section: :mod:`.sec3_figs` (Algorithm 1, eqs. (13)-(19), Remark 4.8, Contribution 2,
Figures 7-8), :mod:`.alg2` (Algorithm 2), :mod:`.thm4_7` (Theorem 4.7, Corollary A.11),
:mod:`.appendix_a` (Lemmas A.2-A.9, eqs. (116), (149)), :mod:`.lemmas` (Lemmas A.5-A.10, the
one-step contraction, E0 along the trajectory), :mod:`.proof_steps` (eqs. (121)-(193), Corollary
A.3, (32)-(33), Remark B.4), :mod:`.thm4_9` (Theorem 4.9), :mod:`.rate` (the O(log N) rate),
:mod:`.appendix_b` (Lemmas B.1-B.3, order statistics), :mod:`.lemma_b2_phases` (eqs. (218)-(244)). Figures:
``fedtheory_reproductions.srpfl`` and ``fedtheory_reproductions.srpfl_fig78``. Results ledger: :mod:`.ledger`. Root causes of the
findings: :mod:`.root_causes`; recorded outcomes: ``outcomes.csv``.
"""
import os

from fedtheory import Citation, Paper

_TITLE = "Straggler-Resilient Personalized Federated Learning"
_AUTHORS = ("Isidoros Tziotis", "Zebang Shen", "Ramtin Pedarsani", "Hamed Hassani", "Aryan Mokhtari")

PAPER = Paper(
    key="srpfl",
    title=_TITLE,
    authors=_AUTHORS,
    year=2023,
    venue="Transactions on Machine Learning Research",
    url="https://openreview.net/forum?id=gxEpUFxIgz",
    version="TMLR",
    versions=(Citation(title=_TITLE, authors=_AUTHORS, year=2022, venue="arXiv preprint", arxiv="2206.02078",
                       version="arXiv"),),
    description="SRPFL (FedRep on a doubling set of fastest clients): Theorem 4.7's contraction and noise "
                "floor, the Theorem 4.9 speedup, Appendices A-B.",
    modules=tuple(f"{__name__}.{m}" for m in ("root_causes", "sec3_figs", "alg2", "thm4_7", "appendix_a", "lemmas",
                                               "proof_steps", "thm4_9", "rate", "appendix_b",
                                               "lemma_b2_phases"))
    + ("fedtheory_reproductions.srpfl", "fedtheory_reproductions.srpfl_fig78", f"{__name__}.ledger"),
)

from fedtheory.srpfl import calc as _calc  # noqa: E402

PAPER.calculator(arguments=_calc.arguments, help=_calc.HELP)(_calc.run)
# the outcomes the maintainers established per claim and mode (a differing verdict is a regression)
PAPER.set_expected_outcomes(os.path.join(os.path.dirname(__file__), "outcomes.csv"))
