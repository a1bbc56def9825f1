"""SRPFL: straggler-resilient FedRep (Tziotis, Shen, Pedarsani, Hassani and
Mokhtari; TMLR version, with the arXiv version's numbers in brackets).

* :mod:`.model` - compute-time models (fixed, dynamic, iid, straggler mixture);
* :mod:`.algorithms` - exact runs of FedRep-SRPFL (Algorithm 2) and FedRep with a simulated clock;
* :mod:`.theory` - order statistics, Theorem 4.7, Corollary A.11, Lemmas B.1-B.3, Theorem 4.9,
  and the Appendix A decomposition of a round.

The data model and the vectorised round are FedRep's (:mod:`fedtheory.representation`).
"""
from .algorithms import SRPFLResult, fedavg_wallclock, run_srpfl, srpfl_default_eta
from .model import SPEEDS, SpeedModel, make_speed_model
from .theory import (contraction_bound, expected_order_statistic, fedrep_rounds_exact,
                     floor_recursion, harmonic, idealised_wallclock, lemma_b2_bound,
                     lemma_b3_bound, noise_floor, phase2_rounds_exact, progress_ratio,
                     round_decomposition, stage_rounds, switch_point, target_error,
                     theorem47_m_condition, theorem47_probability, theorem49_ratio_bound,
                     vacuous_ratio)

# identifiers only: under pytest, assertion rewriting can add names such as "@py_builtins"
__all__ = [name for name in dir() if not name.startswith("_") and name.isidentifier()]
