"""SRPFL plugin: Tziotis, Shen, Pedarsani, Hassani and Mokhtari, *Straggler-Resilient
Personalized Federated Learning*, TMLR (numbering followed) and arXiv (cited separately).

Claims by section: :mod:`.alg2` (Algorithm 2), :mod:`.thm4_7` (Theorem 4.7, Corollary A.11),
:mod:`.appendix_a` (Lemmas A.2-A.9, eqs. (116), (149)), :mod:`.thm4_9` (Theorem 4.9),
:mod:`.appendix_b` (Lemmas B.1-B.3, order statistics, eqs. (221)-(255)). Figures:
``fedtheory_reproductions.srpfl``. Results ledger: :mod:`.ledger`.
"""
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
    modules=tuple(f"{__name__}.{m}" for m in ("alg2", "thm4_7", "appendix_a", "thm4_9", "appendix_b"))
    + ("fedtheory_reproductions.srpfl", f"{__name__}.ledger"),
)

from fedtheory.srpfl import calc as _calc  # noqa: E402

PAPER.calculator(arguments=_calc.arguments, help=_calc.HELP)(_calc.run)
