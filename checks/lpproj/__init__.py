"""lp-proj plugin: Han, Li, Lin and Zhang (2024), *A Random Projection Approach to Personalized
Federated Learning: Enhancing Communication Efficiency, Robustness, and Fairness*, JMLR 25.

One module per section or result of the paper (JMLR numbering), in the paper's order:

* Sec. 3.1, Algorithm 1; App. B.1 (closed forms, eq. (34)) -> :mod:`.alg1`
* Sec. 4.1, Proposition 3; its proof (App. A.4) -> :mod:`.prop3`
* App. A.1, Propositions 20, 22 and 23 (cited tools, on the paper's instances) -> :mod:`.appendix_a1_propositions`
* Assumption 3 (eq. (5)); App. A.1, Propositions 24 and 25 -> :mod:`.prop24_25`
* Sec. 4.1.1, Lemmas 4-8 (eqs. (6), (8); proofs in App. A.4) -> :mod:`.lemmas4_8`
* Sec. 4.1.1, Theorem 9: eqs. (9), (10), the remark after (9), the drift floor -> :mod:`.thm9`
* App. A.2, proof of Theorem 9: steps (13)-(15) -> :mod:`.appendix_a2_thm9_steps`
* App. A.2, proof of Theorem 9: the telescoped bound (16) -> :mod:`.appendix_a2_thm9_eq16`
* App. A.2, proof of Theorem 9: bound (17), errata of (16)-(17) -> :mod:`.appendix_a2_thm9_proof`
* Sec. 4.1.2, Proposition 10, Lemmas 11 and 12 (proofs in App. A.4) -> :mod:`.prop10_lemmas11_12`
* Sec. 4.1.2, eq. (11), Theorem 13; App. A.3 (Lemma 26, eqs. (19)-(22)) -> :mod:`.thm13`
* Sec. 4.1.3, Theorem 14; App. A.5 (Theorem 27, recursion (32)) -> :mod:`.thm14`
* Sec. 4.1.3, Theorem 15; App. A.6 (Theorem 28, eq. (33)) -> :mod:`.thm15`
* Sec. 4.2 attacks; Theorem 30; App. B.2-B.3 test losses (eqs. (36)-(43)) -> :mod:`.thm30_losses`
* Lemma 29 (App. B.2); Sec. 4.2, Proposition 16, Remark 17 (Remark 31) -> :mod:`.lemma29_prop16_rem17`
* Sec. 4.2, Figure 1; the Monte Carlo sampler of App. B.1-B.3 -> :mod:`.fig1`
* Sec. 4.2, Proposition 18 -> :mod:`.prop18`
* App. B.4, Theorem 32 (eqs. (44)-(49)) and the text after it -> :mod:`.thm32`
* Sec. 5.3, Table 1 (Table 5) -> :mod:`.sec53_communication`
* Sec. 5.4, Table 7 (multi-round attacks of Sec. 4.2) -> :mod:`.sec54_robustness`
* Sec. 6.1, block-diagonal projection -> :mod:`.sec61_block_diagonal`
* App. C, Table 3; App. C.7.1, Tables 10 and 11 -> :mod:`.appendix_c_tables`

Helpers shared by these modules: :mod:`._common`. Root causes of the errata: :mod:`.root_causes`; recorded
outcomes: ``outcomes.csv``. Figures: ``fedtheory_reproductions.lpproj``. Results ledger: :mod:`.ledger`
(:mod:`.ledger_main`, :mod:`.ledger_appendix_a`, :mod:`.ledger_appendix_b`, :mod:`.ledger_appendix_c`).
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
    modules=tuple(f"{__name__}.{m}" for m in ("root_causes", "alg1", "prop3", "appendix_a1_propositions",
                                              "prop24_25", "lemmas4_8", "thm9", "appendix_a2_thm9_steps",
                                              "appendix_a2_thm9_eq16",
                                              "appendix_a2_thm9_proof", "prop10_lemmas11_12", "thm13", "thm14",
                                              "thm15", "thm30_losses", "lemma29_prop16_rem17", "fig1", "prop18",
                                              "thm32", "sec53_communication", "sec54_robustness",
                                              "sec61_block_diagonal", "appendix_c_tables"))
    + tuple(f"fedtheory_reproductions.{m}" for m in ("lpproj", "lpproj_thm9", "lpproj_schedules", "lpproj_robust"))
    + (f"{__name__}.ledger",),
)

PAPER.set_expected_outcomes(os.path.join(os.path.dirname(__file__), "outcomes.csv"))

from fedtheory.lpproj import calc as _calc  # noqa: E402

PAPER.calculator(arguments=_calc.arguments, help=_calc.HELP)(_calc.run)
