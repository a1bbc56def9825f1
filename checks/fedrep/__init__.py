"""FedRep plugin: Collins, Hassani, Mokhtari and Shakkottai (2021), *Exploiting Shared
Representations for Personalized Federated Learning*, ICML 2021.

Claims by section: :mod:`.sec2_problem` (Sec. 2.1, eqs. (4)-(6)), :mod:`.alg2` (Sec. 4.1,
Algorithm 2), :mod:`.thm1` (Sec. 4.2: Definition 1, Assumptions 1-3, Theorem 1, eq. (11)),
:mod:`.sec5_experiments` (Sec. 5.1, Figures 1, 3, 4). Figures: ``fedtheory_reproductions.fedrep``.
Results ledger: :mod:`.ledger`.
"""
from fedtheory import Paper

PAPER = Paper(
    key="fedrep",
    title="Exploiting Shared Representations for Personalized Federated Learning",
    authors=("Liam Collins", "Hamed Hassani", "Aryan Mokhtari", "Sanjay Shakkottai"),
    year=2021,
    venue="Proceedings of the 38th International Conference on Machine Learning (ICML), PMLR 139",
    arxiv="2102.07078",
    description="FedRep on linear representation learning: Theorem 1's contraction, sample complexity, "
                "Figures 1, 3, 4.",
    modules=tuple(f"{__name__}.{m}" for m in ("sec2_problem", "alg2", "thm1", "sec5_experiments"))
    + ("fedtheory_reproductions.fedrep", f"{__name__}.ledger"),
)
