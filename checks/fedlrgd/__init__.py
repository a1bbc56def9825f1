"""FedLRGD plugin: Jadbabaie, Makur and Shah, *Federated Optimization of Smooth Loss Functions*,
IEEE Transactions on Information Theory (2023).

One claim module per part of the paper, in the paper's order:

- Abstract, Secs. I-B and VI (the exponent of FedLRGD's complexity) -> :mod:`.thm2`
- Sec. II-B, assumptions (7) and (8), and the ceiling (6) and (8) put on eta -> :mod:`.assumption8`
- Sec. II-B, smoothness (6) (its exponent, as Lemma 1 uses it) -> :mod:`.lemma1`
- Sec. II-C, the descent lemma (13) -> :mod:`.sec2c_descent_lemma`
- Sec. II-D, federated oracle complexity, eqs. (16)-(25) -> :mod:`.sec2d_oracle_complexity`
- Sec. III-A, Lemma 1 (its proof: Sec. IV-A, eq. (49)) -> :mod:`.lemma1`
- Sec. III-A, Theorem 1 (its proof: Sec. IV-B, eqs. (50)-(52)) -> :mod:`.thm1`
- Sec. III-B, Algorithm 1 and the weights (35)-(41) -> :mod:`.alg1`
- Sec. III-C, eq. (45) and Theorem 2 (eqs. (47)-(48)) -> :mod:`.thm2`
- Sec. III-C, Theorem 2 inside its own hypotheses and assumption (46) on Appendix A's example -> :mod:`.sec3c_hypotheses`
- Sec. III-D, Theorem 3, Proposition 1 and footnote 11 -> :mod:`.sec3d_fedave`
- Sec. V, the proof of Theorem 2 (Lemma 2, eqs. (53)-(64), the choice of r) -> :mod:`.sec5_thm2_proof`
- Appendix A, eqs. (66)-(72) -> :mod:`.appendix_a`
- Appendix B, Proposition 2 -> :mod:`.sec2d_oracle_complexity`; its proof (eq. (74) and the two chains) -> :mod:`.appendix_b`
- Appendix C, eqs. (75)-(77) and the parameter counts -> :mod:`.appendix_c`
- Appendix D, the proof of Theorem 3 (eqs. (81)-(89), Lemma 4) -> :mod:`.appendix_d`; the surrogate g of (82)-(84) and
  the bounds on its minimum -> :mod:`.appendix_d_surrogate`
- Appendices D and E on measured FedAve runs (Lemma 3, eq. (78), Theorem 3, Proposition 1) -> :mod:`.fedave_runs`
- Appendix E, the proof of Proposition 1 (its first-term erratum) -> :mod:`.appendix_e`

Code shared by these modules: :mod:`._common`. Root causes of the findings: :mod:`.root_causes`; every
verdict is decided by :mod:`fedtheory.decide`; the established outcomes are recorded in ``outcomes.csv``.
Figures: ``fedtheory_reproductions.fedlrgd``, ``fedtheory_reproductions.fedlrgd_fedave`` and
``fedtheory_reproductions.fedlrgd_alpha``. Results ledger: :mod:`.ledger`.
"""
import os

from fedtheory import Paper

PAPER = Paper(
    key="fedlrgd",
    title="Federated Optimization of Smooth Loss Functions",
    authors=("Ali Jadbabaie", "Anuran Makur", "Devavrat Shah"),
    year=2023,
    venue="IEEE Transactions on Information Theory",
    arxiv="2201.01954",
    description="Low-rank structure of smooth latent-variable losses (Theorem 1) and FedLRGD's oracle "
                "complexity against FedAve (Theorems 2-3).",
    modules=tuple(f"{__name__}.{m}" for m in ("root_causes", "assumption8", "sec2c_descent_lemma",
                                              "sec2d_oracle_complexity", "lemma1", "thm1", "alg1", "thm2", "sec3c_hypotheses",
                                              "sec3d_fedave", "sec5_thm2_proof", "appendix_a", "appendix_b", "appendix_c",
                                              "appendix_d", "appendix_d_surrogate", "fedave_runs", "appendix_e"))
    + tuple(f"fedtheory_reproductions.{m}" for m in ("fedlrgd", "fedlrgd_fedave", "fedlrgd_alpha"))
    + (f"{__name__}.ledger",),
)

from fedtheory.lowrank import calc as _calc  # noqa: E402

PAPER.calculator(arguments=_calc.arguments, help=_calc.HELP)(_calc.run)

PAPER.set_expected_outcomes(os.path.join(os.path.dirname(__file__), "outcomes.csv"))
