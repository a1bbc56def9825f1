"""lp-proj: random-projection personalised FL (Han, Li, Lin, Zhang, JMLR 2024;
Han et al., JMLR 2024), linear analysis of Sec. 4.2 and Appendix B.

* :mod:`.model` - fixed-design linear model, true parameters, random projection P;
* :mod:`.algorithms` - closed-form solutions, attacks, Monte Carlo of test losses, Algorithm 1;
* :mod:`.theory` - test losses, optimal lambda (sympy), Proposition 16, fairness (Theorem 32).
"""
from .algorithms import (Algorithm1Result, admm_l1_inner, attack_messages, benign_losses,
                         closed_form_models, lpproj2_general_solution, mc_test_loss, run_algorithm1,
                         test_loss_general)
from .model import LinearFLProblem, make_problem, make_projection
from .theory import (ATTACKS, METHODS, effective_heterogeneity, expected_fairness_V, fairness_V,
                     lambda_star_symbolic, lemma29_argmin, loss_derivative_lpproj, minimal_loss,
                     optimal_lambda, per_client_test_loss, proposition16_threshold, signflip_moments, test_loss)

__all__ = [name for name in dir() if not name.startswith("_")]
