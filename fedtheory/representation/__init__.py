"""FedRep's linear shared-representation subject.

Paper: Collins, Hassani, Mokhtari and Shakkottai, ICML 2021.

* :mod:`.model` - data model (B*, W*, head normalisations, designs, diversity constants);
* :mod:`.algorithms` - exact runs: FedRep (Algorithm 2), GD-GD, 10GD-GD, FedAvg, Local Only;
* :mod:`.theory` - closed forms: Theorem 1, eqs. (4), (6), (11), method of moments.
"""
from .algorithms import (SAMPLERS, FedAvgResult, FedRepResult, RoundResult, default_eta, fedrep_round,
                         fedrep_round_reduced, fedrep_round_sharded, fedrep_round_stacked,
                         resolve_sampler, fit_heads, fit_local,
                         mom_init, new_client_mse, run_altgd, run_fedavg, run_fedrep, test_mse, test_mse_exact,
                         EVALUATIONS)
from .replicates import FedAvgReplicates, FedRepReplicates
from .model import (DESIGNS, HEAD_NORMS, Diversity, FedRepModel, client_diversity, make_heads,
                    make_model, n_selected, noise_std)
from .theory import (SAMPLE_COMPLEXITY_VARIANTS, fedavg_global_error, fedavg_minimiser,
                     federation_helps_interval, min_norm_interpolation_risk, mom_expectation,
                     ols_excess_risk, population_objective, sample_complexity, theorem1_bound,
                     theorem1_max_eta, theorem1_probability, theorem1_rate,
                     theorem1_rounds_to_eps)

# identifiers only: under pytest, assertion rewriting can add names such as "@py_builtins"
__all__ = [name for name in dir() if not name.startswith("_") and name.isidentifier()]
