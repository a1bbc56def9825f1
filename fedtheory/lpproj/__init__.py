"""lp-proj: random-projection personalised FL (Han, Li, Lin, Zhang, JMLR 2024;
Han et al., JMLR 2024), linear analysis of Sec. 4.2 and Appendix B.

* :mod:`.model` - fixed-design linear model, true parameters, random projection P;
* :mod:`.algorithms` - closed-form solutions, attacks, Monte Carlo of test losses, Algorithm 1;
* :mod:`.theory` - test losses, optimal lambda (sympy), Proposition 16, fairness (Theorem 32);
* :mod:`.stochastic` - Algorithm 1 with mini-batches and tolerance-nu inner solves on least squares,
  vectorised over clients and replicates (Theorem 9, Lemmas 4-8);
* :mod:`.a6` - the low-dimensional setting (Assumption 6): Proposition 10, Lemmas 11, 12, 26, Theorem 13;
* :mod:`.schedules` - the decaying schedules of Theorems 14, 15 (27, 28), recursion (32), the A.5 sums;
* :mod:`.robust` - multi-round Algorithm 1 under Byzantine attacks and the sign-flip collapse theory;
* :mod:`.extras` - Proposition 3's envelope, conjugates, eq. (34), block-diagonal projections, model sizes.
"""
from .algorithms import (Algorithm1Result, FairnessRatioEstimate, admm_l1_inner, attack_messages, benign_loss_draws,
                         benign_losses, closed_form_models, lpproj2_general_solution, mc_fairness_ratio, mc_test_loss,
                         run_algorithm1, test_loss_general)
from .model import LinearFLProblem, make_problem, make_projection
from .theory import (ATTACKS, METHODS, effective_heterogeneity, expected_fairness_V, fairness_V,
                     lambda_star_symbolic, lemma29_argmin, loss_derivative_lpproj, minimal_loss,
                     optimal_lambda, per_client_test_loss, proposition16_threshold, signflip_moments, test_loss,
                     fairness_dimension_ratio, eq49_pair_sum)

from . import a6, extras, robust, schedules, stochastic  # noqa: E402
from .a6 import *  # noqa: E402,F401,F403
from .extras import *  # noqa: E402,F401,F403
from .robust import *  # noqa: E402,F401,F403
from .schedules import *  # noqa: E402,F401,F403
from .stochastic import *  # noqa: E402,F401,F403

# identifiers only: under pytest, assertion rewriting can add names such as "@py_builtins"
__all__ = [name for name in dir() if not name.startswith("_") and name.isidentifier()]
