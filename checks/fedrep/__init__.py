"""FedRep plugin: Collins, Hassani, Mokhtari and Shakkottai (2021), *Exploiting Shared
Representations for Personalized Federated Learning*, ICML 2021.

Claims by section: :mod:`.sec2_problem` (Sec. 2.1, eqs. (4)-(6)), :mod:`.alg2` (Sec. 4.1,
Algorithm 2), :mod:`.thm1` (Sec. 4.2: Definition 1, Assumptions 1-3, Theorem 1),
:mod:`.sample_complexity` (Theorem 1's m condition, eq. (11), federation helps in samples),
:mod:`.sec4_structure` (Secs. 2.1 and 4.2: minimisers of (3), Assumption 2's necessity, strict
decrease, matrix sensing, no RIP, Table 1), :mod:`.sec5_experiments` (Sec. 5.1, Figures 1, 3, 4),
:mod:`.new_client` (new clients' excess risk), :mod:`.errata` (T4, T5, T10, T15, the invariance).
Figures: ``fedtheory_reproductions.fedrep``.
Results ledger: :mod:`.ledger`. Root causes: :mod:`.root_causes`; recorded outcomes: ``outcomes.csv``.
"""
import os

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
    modules=tuple(f"{__name__}.{m}" for m in ("root_causes", "sec2_problem", "alg2", "thm1", "sample_complexity", "sec4_structure",
                                               "sec5_experiments", "new_client", "errata"))
    + ("fedtheory_reproductions.fedrep", f"{__name__}.ledger"),
)
PAPER.set_expected_outcomes(os.path.join(os.path.dirname(__file__), "outcomes.csv"))
