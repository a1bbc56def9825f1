"""FedLRGD plugin: Jadbabaie, Makur and Shah, *Federated Optimization of Smooth Loss Functions*,
IEEE Transactions on Information Theory (2023).

Claims by section: :mod:`.time_models` (Sec. II-D, Proposition 2), :mod:`.thm1` (Sec. III,
eq. (6), Lemma 1, Theorem 1, Appendix A), :mod:`.thm2_fedlrgd` (Sec. IV, Algorithm 1,
Theorem 2), :mod:`.thm3_fedave` (Sec. V, Theorem 3, Lemma 4, Proposition 1),
:mod:`.appendix_c` (Appendix C), :mod:`.thm2_chain` (Theorem 2's proof chain), :mod:`.assumption8`
(assumption (8)), :mod:`.fedave_runs` (FedAve run exactly: Lemma 3, (78), Theorem 3, Proposition 1), :mod:`.appendix_d`
((85), the discriminant step, the T >= T0 note),
:mod:`.remaining` (Lemma 1 / Theorem 1 with l >= 2, time models, remaining rows). Root causes of the findings:
:mod:`.root_causes`; every verdict is decided by :mod:`fedtheory.decide`; the established outcomes are recorded in
``outcomes.csv``. Figures: ``fedtheory_reproductions.fedlrgd``. Results ledger:
:mod:`.ledger`.
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
    modules=tuple(f"{__name__}.{m}" for m in ("root_causes", "time_models", "thm1", "thm2_fedlrgd", "thm2_chain",
                                              "assumption8", "thm3_fedave", "fedave_runs", "appendix_d", "appendix_c",
                                              "remaining"))
    + tuple(f"fedtheory_reproductions.{m}" for m in ("fedlrgd", "fedlrgd_fedave", "fedlrgd_alpha"))
    + (f"{__name__}.ledger",),
)

from fedtheory.lowrank import calc as _calc  # noqa: E402

PAPER.calculator(arguments=_calc.arguments, help=_calc.HELP)(_calc.run)

PAPER.set_expected_outcomes(os.path.join(os.path.dirname(__file__), "outcomes.csv"))
