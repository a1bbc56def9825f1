"""FedRep plugin: Collins, Hassani, Mokhtari and Shakkottai (2021), *Exploiting Shared
Representations for Personalized Federated Learning*, ICML 2021.

One claim module per part of the paper (the ICML main text; its appendices are not in the available
text), in the paper's order:

- Sec. 1, Figure 1 and the erratum of its y-axis scale -> :mod:`.fig1`
- Sec. 1, Benefit (1) (more local updates) -> :mod:`.sec52_real_data` (with Sec. 5.2, Figure 5)
- Sec. 1, Benefit (III) (a new client's sample complexity, erratum) -> :mod:`.sec42_new_users`
- Sec. 2.1, objectives (3) and (4); eqs. (5)-(6) under Assumption 1 -> :mod:`.sec21_comparison`
- Sec. 4.1, Algorithm 2 (head update (7), method of moments, the QR step) -> :mod:`.alg2`
- Sec. 4.2, text after eq. (8) (non-identifiability, the invariance erratum) -> :mod:`.sec42_eq8_invariance`
- Sec. 4.2, Definition 1, eq. (9) -> :mod:`.thm1`
- Sec. 4.2, Theorem 1 (eq. (10), kappa and its erratum; constants of Assumptions 2-3) -> :mod:`.thm1`
- Sec. 4.2, text after Theorem 1 (strict decrease of (10)) -> :mod:`.thm1`
- Sec. 4.2, text after Assumptions 2 and 3 (necessity, relaxed normalisation, incoherence erratum)
  -> :mod:`.sec42_assumptions`
- Sec. 4.2, eq. (11) and "When and whom does federation help?" -> :mod:`.sec42_federation_helps`
- Theorem 1, eq. (11), Introduction (ii): the k- and kappa-exponents of the sample complexity
  -> :mod:`.thm1_sample_complexity`
- Sec. 4.2, "Connection to matrix sensing" -> :mod:`.sec42_matrix_sensing`
- Sec. 4.2, "New users and dimensionality reduction" -> :mod:`.sec42_new_users`
- Sec. 4.2, "Remark on initialization" (erratum; the method of moments' E0) -> :mod:`.sec42_remark_init`
- Sec. 5.1, Figures 3 and 4 -> :mod:`.sec51_synthetic`
- Sec. 5.2, Figure 5 and Table 1 -> :mod:`.sec52_real_data`

Code shared by these modules: :mod:`._common`. Figures: ``fedtheory_reproductions.fedrep`` (the figure
``fedrep.fig1-mtest`` is in :mod:`.fig1`). Results ledger: :mod:`.ledger`. Root causes: :mod:`.root_causes`;
recorded outcomes: ``outcomes.csv``.
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
    modules=tuple(f"{__name__}.{m}" for m in ("root_causes", "fig1", "sec21_comparison", "alg2",
                                               "sec42_eq8_invariance", "thm1", "sec42_assumptions",
                                               "sec42_federation_helps", "thm1_sample_complexity",
                                               "sec42_matrix_sensing", "sec42_new_users",
                                               "sec42_remark_init", "sec51_synthetic", "sec52_real_data"))
    + ("fedtheory_reproductions.fedrep", f"{__name__}.ledger"),
)
PAPER.set_expected_outcomes(os.path.join(os.path.dirname(__file__), "outcomes.csv"))
