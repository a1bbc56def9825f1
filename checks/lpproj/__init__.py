"""lp-proj plugin: Han, Li, Lin and Zhang (2024), *A Random Projection Approach to Personalized
Federated Learning: Enhancing Communication Efficiency, Robustness, and Fairness*, JMLR 25.

Claims by section: :mod:`.alg1` (Sec. 3, Algorithm 1, App. B.1), :mod:`.convergence`
(Proposition 3, Proposition 24, Lemma 8, Theorem 9), :mod:`.thm9_grid` (Theorem 9 over a grid, Lemmas
4-7, eqs. (8)-(10)), :mod:`.a6_smooth` (Proposition 10, Lemmas 11, 12, 26, Theorem 13), :mod:`.schedules`
(Theorems 14, 15, 27, 28), :mod:`.robust_rounds` (multi-round Byzantine robustness), :mod:`.thm30_losses` (Sec. 4.2, Theorem 30,
App. B.2-B.3), :mod:`.optimal_lambda` (Lemma 29, Proposition 16, Remark 17, Figure 1),
:mod:`.fairness` and :mod:`.fairness_scaling` (Sec. 4.3, Theorem 32, Proposition 18, App. B.4), :mod:`.remaining`
(Proposition 25, Sec. 6.1, Table 3, eq. (34)), :mod:`.sec53_tables` (Sec. 5.3, App. C.7.1). Root causes of the
errata: :mod:`.root_causes`; recorded outcomes: ``outcomes.csv``. Figures:
``fedtheory_reproductions.lpproj``. Results ledger: :mod:`.ledger`.
"""
import os

from fedtheory import Paper

PAPER = Paper(
    key="lpproj",
    title="A Random Projection Approach to Personalized Federated Learning: Enhancing Communication "
          "Efficiency, Robustness, and Fairness",
    authors=("Yuze Han", "Xiang Li", "Shiyun Lin", "Zhihua Zhang"),
    year=2024,
    venue="Journal of Machine Learning Research, 25",
    url="http://jmlr.org/papers/v25/23-0215.html",
    description="Random-projection personalised FL on linear models: test losses, optimal lambda, Byzantine "
                "robustness, fairness, convergence.",
    modules=tuple(f"{__name__}.{m}" for m in ("root_causes", "alg1", "convergence", "thm9_grid", "a6_smooth", "schedules",
                                              "thm30_losses", "optimal_lambda", "robust_rounds", "fairness",
                                              "fairness_scaling", "remaining", "sec53_tables"))
    + tuple(f"fedtheory_reproductions.{m}" for m in ("lpproj", "lpproj_thm9", "lpproj_schedules", "lpproj_robust"))
    + (f"{__name__}.ledger",),
)

PAPER.set_expected_outcomes(os.path.join(os.path.dirname(__file__), "outcomes.csv"))

from fedtheory.lpproj import calc as _calc  # noqa: E402

PAPER.calculator(arguments=_calc.arguments, help=_calc.HELP)(_calc.run)
