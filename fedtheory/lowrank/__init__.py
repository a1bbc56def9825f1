"""Low-rank subject: FedLRGD (Jadbabaie, Makur and Shah, IEEE Trans. Inf. Theory 2023).

* :mod:`.model` - latent-variable test functions with documented (eta, L2) Hoelder classes;
* :mod:`.algorithms` - Lemma 1 Taylor approximants, SVD tails, FedLRGD runs with counters,
  time models, the Appendix C analogue;
* :mod:`.theory` - Theorem 1, Lemma 1, (52), Proposition 2, Theorems 2-3, Lemma 4, Proposition 1;
* :mod:`.fedave` - FedAve as analysed (FedPAQ without quantisation), run exactly with counters (Lemma 3, (78));
* :mod:`.chain` - Theorem 2's proof chain (53)-(64) on instrumented FedLRGD runs, explicit weights, covers;
* :mod:`.assumption8` - assumption (8): a loss that satisfies it, the logistic example's ||G^-1|| in mpmath;
* :mod:`.holder_classes` - test functions with l >= 2 (eta in (2, 4]) and sharp Hoelder constants;
* :mod:`.hypotheses` - Theorem 2's hypotheses against each other (the conditioning floor from (6) and Lemma 1) and
  assumption (46) on Appendix A's gradient, in mpmath.
"""
from .algorithms import (FedLRGDResult, LogisticProblem, appendix_c_ranks, approximate_rank,
                         erlang_max_mc, l1_cover, make_logistic_problem, mm1_departure_times,
                         run_fedlrgd, svd_tail, taylor_matrix)
from .model import Cosine, HolderFunction, L1Power, PowerSum, SoftLabelLogistic
from .theory import (erlang_max_approximation, erlang_quantile_bounds, fedave_b_star_viete,
                     fedave_bracket, fedave_constraint_T, fedave_gamma_numeric, fedlrgd_gamma,
                     holder_l, inequality52, lemma1_bound, lemma4_gap, proposition1_ratio,
                     theorem1_bound, theorem1_min_rank, theorem2_K1, theorem2_r, theorem2_S)

from . import assumption8, chain, fedave, holder_classes, hypotheses  # noqa: E402
from .assumption8 import *  # noqa: E402,F401,F403
from .chain import *  # noqa: E402,F401,F403
from .fedave import *  # noqa: E402,F401,F403
from .holder_classes import *  # noqa: E402,F401,F403

# identifiers only: under pytest, assertion rewriting can add names such as "@py_builtins"
__all__ = [name for name in dir() if not name.startswith("_") and name.isidentifier()]
