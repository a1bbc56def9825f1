"""SRPFL plugin: Tziotis, Shen, Pedarsani, Hassani and Mokhtari, *Straggler-Resilient Personalized Federated
Learning*, TMLR 2023 (numbering followed) and arXiv 2022 (cited separately, in brackets where it differs).

One module per result or group of results of the paper, in the paper's order:

* Section 1, Contribution 2 (sample complexity) -> :mod:`.contribution2`
* Section 3, Algorithm 1 -> :mod:`.alg1`
* Section 4, Algorithm 2 (line 16) -> :mod:`.alg2`
* Section 4.1, Theorem 4.7: definitions (8)-(9), contraction (10), Corollary A.11 (198) and the target (12) ->
  :mod:`.thm4_7`; (10) round by round on exact runs -> :mod:`.thm4_7_one_step`
* Section 4.1, Remark 4.8 -> :mod:`.remark4_8`
* Section 4.1, Theorem 4.9 and its wall-clock model (Section 5's experiments as linear analogues) ->
  :mod:`.thm4_9`; its O(log N) rate (256) -> :mod:`.thm4_9_rate`
* Appendix A, eqs. (13)-(19) -> :mod:`.eqs13_19`
* Appendix A, Lemma A.2 (20)-(25) and Corollary A.3 (26) -> :mod:`.lemma_a2`
* Appendix A, Lemma A.4 (27)-(28) and its proof (32)-(33) -> :mod:`.lemma_a4`
* Appendix A, the proofs of Lemmas A.2-A.9 step by step: (21)-(23) -> :mod:`.lemma_a2_proof`; (29)-(35) ->
  :mod:`.lemma_a4_proof`; (37)-(50) -> :mod:`.lemma_a5_proof`; (53)-(69) -> :mod:`.lemmas_a6_a7_proof`; (72)-(94)
  -> :mod:`.lemmas_a8_a9_proof`
* Appendix A, Lemmas A.5 (36), A.6 (51)-(52) and A.10 (95), (101) -> :mod:`.lemmas_a5_a6_a10`
* Appendix A, the noise terms of Lemmas A.7 (58), A.8 (71), A.9 (82), A.10 (95) -> :mod:`.lemmas_a7_a10_sigma`
* Appendix A, proof of Theorem 4.7, (116)-(137): (116), (121)-(125), (134)-(135), (136), (137) ->
  :mod:`.thm4_7_proof_116_137`
* Appendix A, proof of Theorem 4.7, (143)-(193): (143)-(144), (149), (165), (174), (176), (185), (190), (193) ->
  :mod:`.thm4_7_proof_143_193`
* Appendix A, proof of Theorem 4.7, link by link: (107)-(139) -> :mod:`.thm4_7_proof_chain_107_139`; (150)-(174) ->
  :mod:`.thm4_7_proof_chain_150_174`; (177)-(196) -> :mod:`.thm4_7_proof_chain_177_196`
* Appendix B, Lemma B.1 (200)-(206) -> :mod:`.lemma_b1`
* Appendix B, Lemma B.2 (217), order statistics (221)-(228) and the erratum (224) -> :mod:`.lemma_b2`
* Appendix B, proof of Lemma B.2, phase costs (218)-(244) and D in (231), (233)-(238), (251) ->
  :mod:`.lemma_b2_phases`
* Appendix B, Lemma B.3 (248)-(255) and FedRep's round count (249)-(253) -> :mod:`.lemma_b3`
* Appendix B, Remark B.4 -> :mod:`.remark_b4`
* Appendix C, Figure 7 -> :mod:`.fig7`; Figure 8 -> :mod:`.fig8` (their shared settings and runs: :mod:`._appendix_c`)

Shared helpers: :mod:`._common` (exact runs, the round tracer) and :mod:`.appendix_a_rounds` (the exact rounds of
Appendix A's proof quantities). Root causes of the findings: :mod:`.root_causes`; recorded outcomes:
``outcomes.csv``. Results ledger: :mod:`.ledger` (rows in :mod:`.ledger_main`, :mod:`.ledger_appendix_a`,
:mod:`.ledger_appendix_bc`). Figures: ``fedtheory_reproductions.srpfl`` and ``fedtheory_reproductions.srpfl_fig78``.
"""
import os

from fedtheory import Citation, Paper

_TITLE = "Straggler-Resilient Personalized Federated Learning"
_AUTHORS = ("Isidoros Tziotis", "Zebang Shen", "Ramtin Pedarsani", "Hamed Hassani", "Aryan Mokhtari")

#: the claim modules, in the order of the paper (Sections 1-5, Appendices A-C)
_CLAIM_MODULES = ("root_causes", "contribution2", "alg1", "alg2", "thm4_7", "thm4_7_one_step", "remark4_8", "thm4_9",
                  "thm4_9_rate", "eqs13_19", "lemma_a2", "lemma_a2_proof", "lemma_a4", "lemma_a4_proof",
                  "lemmas_a5_a6_a10", "lemma_a5_proof", "lemmas_a7_a10_sigma", "lemmas_a6_a7_proof",
                  "lemmas_a8_a9_proof", "thm4_7_proof_116_137", "thm4_7_proof_143_193", "thm4_7_proof_chain_107_139",
                  "thm4_7_proof_chain_150_174", "thm4_7_proof_chain_177_196", "lemma_b1", "lemma_b2", "lemma_b2_phases",
                  "lemma_b3", "remark_b4", "fig7", "fig8")

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
    modules=tuple(f"{__name__}.{m}" for m in _CLAIM_MODULES)
    + ("fedtheory_reproductions.srpfl", "fedtheory_reproductions.srpfl_fig78", f"{__name__}.ledger"),
)

from fedtheory.srpfl import calc as _calc  # noqa: E402

PAPER.calculator(arguments=_calc.arguments, help=_calc.HELP)(_calc.run)
# the outcomes the maintainers established per claim and mode (a differing verdict is a regression)
PAPER.set_expected_outcomes(os.path.join(os.path.dirname(__file__), "outcomes.csv"))

