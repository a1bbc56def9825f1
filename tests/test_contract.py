"""The input contract of every public function (issue 11, "inputs that cannot fool the helpers").

Walks ``__all__`` of ``fedtheory``, ``fedtheory.representation``, ``fedtheory.srpfl``,
``fedtheory.lpproj``, ``fedtheory.lowrank``, ``fedtheory.linalg`` and ``fedtheory.montecarlo``.
Every public function has a known-good baseline call in :data:`CASES`; hypothesis mutates ONE
parameter of it at a time with a value of one of these kinds:

valid      the baseline itself and other valid values (e.g. every choice of a string option);
invalid    values outside the documented range (``k > d``, ...; per function in ``CASES``);
zero, negative, NaN, +-inf, huge (``1e300``, ``10**12``);
wrong type ``"abc"``, ``None``, a list (and for arrays: a wrong shape, a planted NaN/inf).

The call must then either return finite values (every float and array in the result, walking
tuples, dicts and dataclasses; documented non-finite outputs are listed per function and are
only allowed when every input was finite), or raise ``ValueError``/``TypeError`` whose message
names the mutated parameter. A NaN or inf in a numeric parameter (one whose baseline value is a
number or an array) must always raise, unless the function documents ``+inf`` as valid for it. Any other exception, a silent NaN/inf, or a call longer than
``TIMEOUT`` seconds (``signal.setitimer``) fails.

Hypothesis draws either one of the fixed mutations or a random value of a numeric parameter
(any float64 including NaN, +-inf and subnormals; small and huge integers). In CI the draws are
derandomised (the same examples every run, so CI is stable); ``FEDTHEORY_CONTRACT_RANDOM=1``
draws fresh examples, ``FEDTHEORY_CONTRACT_EXAMPLES=N`` changes the number of examples per
function (default 25), ``FEDTHEORY_CONTRACT_EXHAUSTIVE=1`` additionally runs every fixed mutation
of every parameter (about a minute; what the library was checked with) and
``FEDTHEORY_CONTRACT_TIMEOUT`` the per-call limit (default 20 s).
"""
from __future__ import annotations

import dataclasses
import inspect
import math
import os
import re
import signal
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import fedtheory
import fedtheory.linalg as LA
import fedtheory.lowrank as LR
import fedtheory.lpproj as LP
import fedtheory.montecarlo as MC
import fedtheory.representation as REP
import fedtheory.srpfl as SR

MODULES = (fedtheory, REP, SR, LP, LR, LA, MC)
TIMEOUT = float(os.environ.get("FEDTHEORY_CONTRACT_TIMEOUT", "20"))  #: seconds per call; longer is a hang
EXAMPLES = int(os.environ.get("FEDTHEORY_CONTRACT_EXAMPLES", "25"))
#: FEDTHEORY_CONTRACT_NOSHRINK=1 reports the first failing example as drawn (faster exploration)
PHASES = tuple(p for p in Phase if not (p is Phase.shrink and os.environ.get("FEDTHEORY_CONTRACT_NOSHRINK") == "1"))

#: public functions the contract does not cover, with the reason
SKIPPED = {
    # plugin machinery (fedtheory/plugins.py, provenance.py): ids, Paper objects and folders, not numbers
    "registry": "plugin registry: takes a paper key, returns claims (no numeric input)",
    "get_claim": "plugin registry lookup by id (raises PluginError/KeyError by design)",
    "get_figure": "plugin registry lookup by id (raises PluginError/KeyError by design)",
    "get_paper": "plugin registry lookup by key (raises PluginError by design)",
    "load_papers": "loads entry points; no numeric input",
    "paper_keys": "no parameters; lists the registered papers",
    "register_paper": "mutates the process-wide registry; takes a Paper",
    "unregister_paper": "mutates the process-wide registry",
    "reproduce": "writes figure files (plotting), minutes per call",
    "provenance": "environment record (versions, git commit), no numeric input",
}


# ----------------------------------------------------------------------------- fixtures (tiny and fast)
def _model(d=6, k=2, n=8, sigma=0.1):
    return REP.make_model(d, k, n, sigma=sigma, seed=1)


def _round_inputs():
    model = _model()
    rng = np.random.default_rng(0)
    sel = np.arange(4)
    X, y = model.sample(rng, sel, 5)
    B = LA.random_orthonormal(rng, model.d, model.k)
    return model, B, X, y, sel


def _decomposition_inputs():
    model, B, X, y, sel = _round_inputs()
    rnd = REP.fedrep_round(B, X, y, 0.1)
    return dict(B_hat=B, X=X, y=y, B_star=model.B_star, W_star_sel=model.W_star[sel], eta=0.1,
                B_bar=rnd.B_bar, R=rnd.R, w=rnd.w, B_next=rnd.B_next)


def _problem():
    return LP.make_problem(N=6, d=4, d_sub=2, n=8, seed=0)


def _lp_design():
    p = _problem()
    Xi, y = p.sample_data(np.random.default_rng(0))
    n = Xi.shape[1]
    G = np.swapaxes(Xi, 1, 2) @ Xi / n
    h = np.einsum("knd,kn->kd", Xi, y) / n
    return p, G, h


def _rng():
    return np.random.default_rng(3)


def _mc_sampler(g, size):
    return g.standard_normal(size)


@dataclass
class Case:
    """A known-good call and what the contract allows for it."""

    kwargs: Callable[[], dict]  #: fresh keyword arguments of a valid call
    invalid: dict = field(default_factory=dict)  #: extra out-of-range values per parameter
    valid: dict = field(default_factory=dict)  #: extra valid values per parameter
    allow_nonfinite: tuple = ()  #: result paths (prefixes; "" = all) that may be NaN/inf for finite input
    fixed: dict = field(default_factory=dict)  #: parameters not mutated -> reason
    positional: tuple = ()  #: names passed positionally (``*args`` functions)
    inf_ok: tuple = ()  #: parameters documented to accept +inf (then documented non-finite output is allowed)


def K(**kw):
    return lambda: dict(kw)


CASES: dict[str, Case] = {
    # ------------------------------------------------------------------ linalg
    "principal_angle_distance": Case(K(B1=np.eye(4)[:, :2], B2=np.eye(4)[:, 1:3])),
    "orthonormalize": Case(K(B=np.arange(12.0).reshape(4, 3) ** 0.5)),
    "orthogonal_complement": Case(K(B=np.eye(4)[:, :2] + 0.1)),
    "principal_angle_distance_def1": Case(K(B1=np.eye(4)[:, :2], B2=np.eye(4)[:, 1:3] + 0.2)),
    "batched_solve": Case(K(A=np.stack([np.eye(3) * 2, np.eye(3) + 0.1]), b=np.ones((2, 3)), rcond=1e-10,
                            what="system", symmetric=False),
                          fixed={"what": "free text for the warning message"}),
    "random_orthonormal": Case(lambda: dict(rng=_rng(), d=5, k=2, size=()), invalid={"k": [6]},
                               valid={"size": [(2,)]}),
    "blas_single_thread": Case(K()),
    # ------------------------------------------------------------------ montecarlo
    "mc_mean": Case(lambda: dict(sampler=_mc_sampler, n_samples=500, seed=0, chunk=None, confidence=0.99,
                                 block=128),
                    invalid={"sampler": [lambda g, size: np.full(size, np.nan), lambda g, size: np.ones(3)]},
                    valid={"chunk": [100]}),
    "estimate_from_samples": Case(K(samples=np.array([1.0, 2.0, 4.0, 3.0]), confidence=0.9),
                                  invalid={"samples": [np.ones(1)]}),
    "proportion_estimate": Case(K(successes=3, n=10, confidence=0.95, method="beta"),
                                invalid={"successes": [11]}, valid={"method": ["wilson"]}),
    # ------------------------------------------------------------------ representation: theory
    "fedrep.theorem1_rate": Case(K(eta=0.1, E0=0.5, sigma_min=1.0), invalid={"E0": [1.5]},
                                 valid={"eta": [np.array([0.1, 0.2])]}, allow_nonfinite=("",)),
    "fedrep.theorem1_bound": Case(K(T=np.arange(4.0), dist0=0.5, eta=0.1, E0=0.75, sigma_min=1.0),
                                  invalid={"dist0": [1.5], "E0": [2.0]}, allow_nonfinite=("",)),
    "theorem1_max_eta": Case(K(sigma_max=1.5), allow_nonfinite=("",)),
    "theorem1_probability": Case(K(T=10, k=2, rn=5, d=20, log_base=math.e), invalid={"log_base": [1.0]}),
    "theorem1_rounds_to_eps": Case(K(eps=0.01, dist0=0.5, eta=0.1, E0=0.75, sigma_min=1.0),
                                   allow_nonfinite=("",)),
    "sample_complexity": Case(K(k=2, d=50, n=100, r=0.1, kappa=2.0, E0=0.5, c=1.0, variant="theorem", eps=None),
                              invalid={"k": [60], "r": [1.5], "kappa": [0.5], "eps": [1.5]},
                              valid={"variant": ["intro"], "d": [[50, 500]], "eps": [0.1]}),
    "mom_expectation": Case(lambda: dict(B_star=_model().B_star, W_star=_model().W_star, sigma=0.1,
                                         design="gaussian"), valid={"design": ["rademacher"]}),
    "federation_helps_interval": Case(K(d=50.0, C=1.0), allow_nonfinite=("",)),
    "min_norm_interpolation_risk": Case(K(d=10, m=4, signal_sq=2.0)),
    "ols_excess_risk": Case(K(p=2, m=10, sigma=0.5), allow_nonfinite=("",)),
    "population_objective": Case(lambda: dict(B=_model().B_star, W=_model().W_star * 0.5, B_star=_model().B_star,
                                              W_star=_model().W_star, sigma=0.1)),
    "fedavg_minimiser": Case(lambda: dict(B_star=_model().B_star, W_star=_model().W_star)),
    "fedavg_global_error": Case(lambda: dict(B_star=_model().B_star, W_star=_model().W_star)),
    # ------------------------------------------------------------------ representation: model
    "make_model": Case(K(d=6, k=2, n=5, sigma=0.1, head_norm="sqrt_k", design="gaussian", seed=0),
                       invalid={"k": [7]}, valid={"head_norm": ["unit", "qr_cols"], "design": ["rademacher"]}),
    "make_heads": Case(lambda: dict(rng=_rng(), n=5, k=2, head_norm="sqrt_k"),
                       valid={"head_norm": ["unit", "qr_cols"]}, invalid={"k": [6]}),
    "noise_std": Case(K(level=1e-3, convention="std"), valid={"convention": ["variance"]}),
    "n_selected": Case(K(n=10, r=0.5), invalid={"r": [0.05]}),
    "client_diversity": Case(lambda: dict(W_star=_model().W_star, n_sel=3, max_exact=200_000, n_starts=4, seed=0),
                             invalid={"n_sel": [9]}, valid={"max_exact": [1]}),
    # ------------------------------------------------------------------ representation: algorithms
    "default_eta": Case(lambda: dict(W_star=_model().W_star)),
    "mom_init": Case(lambda: dict(model=_model(), m=5, rng=_rng(), chunk=3)),
    "fit_heads": Case(lambda: dict(A=np.random.default_rng(0).standard_normal((3, 6, 2)),
                                   y=np.random.default_rng(1).standard_normal((3, 6)), ridge=0.0)),
    "fit_local": Case(lambda: dict(X=np.random.default_rng(0).standard_normal((3, 4, 5)),
                                   y=np.random.default_rng(1).standard_normal((3, 4)), ridge=1e-5)),
    "test_mse": Case(lambda: dict(model=_model(), theta_hat=_model().theta_star * 0.9, rng=_rng(), m_test=5,
                                  clients=None, noiseless=False)),
    "test_mse_exact": Case(lambda: dict(model=_model(), theta_hat=_model().theta_star * 0.9, clients=None,
                                        noiseless=False)),
    "fedrep_round": Case(lambda: dict(zip(("B", "X", "y"), _round_inputs()[1:4]), eta=0.1, w_init=None,
                                      head_steps=None, head_lr=0.5, orthonormalize_B=True),
                         valid={"head_steps": [2]}),
    "fedrep_round_stacked": Case(lambda: dict(B=_round_inputs()[1], model=_model(), clients=np.arange(4), m=5,
                                              eta=0.1, rng=_rng())),
    "fedrep_round_reduced": Case(lambda: dict(B=_round_inputs()[1], model=_model(), clients=np.arange(4), m=5,
                                              eta=0.1, rng=_rng(), w_init=None, head_steps=None, head_lr=0.5,
                                              orthonormalize_B=True), valid={"head_steps": [2]}),
    "fedrep_round_sharded": Case(lambda: dict(B=_round_inputs()[1], model=_model(), clients=np.arange(4), m=5,
                                              eta=0.1, rngs=[_rng(), np.random.default_rng(4)], workers=1,
                                              w_init=None, head_steps=None, head_lr=0.5, orthonormalize_B=True),
                                 valid={"workers": [2]}),
    "resolve_sampler": Case(lambda: dict(sampler="auto", model=_model(), fresh_batches=True),
                            valid={"sampler": ["full", "reduced"]}),
    "run_fedrep": Case(K(d=6, k=2, n=8, m=5, r=0.5, rounds=3, eta=None, sigma=0.1, head_norm="sqrt_k",
                         design="gaussian", init="mom", fresh_batches=True, orthonormalize_B=True,
                         head_steps=None, head_lr=0.5, m_init=None, m_test=5, model=None, sampler="full",
                         shards=1, workers=1, seed=0),
                       invalid={"k": [7], "r": [1.5, 0.05], "m": [1], "d": [10 ** 7]},
                       valid={"init": ["random"], "sampler": ["reduced", "auto"], "shards": [2],
                              "head_steps": [2], "m_test": [0]},
                       allow_nonfinite=("eval_mse",)),
    "run_altgd": Case(K(d=6, k=2, n=8, m=5, r=0.5, rounds=3, head_steps=1, head_lr=0.5, seed=0),
                      invalid={"k": [7]}, allow_nonfinite=("eval_mse",)),
    "run_fedavg": Case(K(d=6, k=2, n=8, m=5, r=0.5, rounds=3, eta=0.1, sigma=0.1, head_norm="sqrt_k",
                         design="gaussian", local_steps=1, fresh_batches=True, m_test=5, model=None,
                         selection_log=None, seed=0),
                       invalid={"k": [7], "r": [1.5]}, valid={"fresh_batches": [False], "m_test": [0]},
                       allow_nonfinite=("eval_mse",)),
    "new_client_mse": Case(lambda: dict(B_hat=_model().B_star, m_new=4, d=6, k=2, n_new=3, sigma=1e-3,
                                        head_norm="sqrt_k", B_star=_model().B_star, m_test=5, ridge=1e-5, seed=0),
                           valid={"B_hat": [None]}, invalid={"k": [3], "d": [7]}),
    # ------------------------------------------------------------------ srpfl
    "harmonic": Case(K(n=np.arange(5.0))),
    "expected_order_statistic": Case(K(j=2, N=8, lam=1.0), invalid={"j": [9, 1.5]}),
    "contraction_bound": Case(K(dist=0.5, a=0.1, n_over_n0=2.0)),
    "noise_floor": Case(K(a=0.1, n_over_n0=2.0)),
    "floor_recursion": Case(K(d0=1.0, a=0.1, n_over_n0=2.0, t=np.arange(4.0))),
    "vacuous_ratio": Case(K(a=0.1)),
    "target_error": Case(K(a=0.05, N=64, n0=4, c_hat=1.2)),
    "progress_ratio": Case(K(dist=0.5, a=0.05, r=1, N=64, n0=4, lam=1.0, c=0.0)),
    "switch_point": Case(K(r=1, a=0.05, N=64, n0=4, lam=1.0, c=0.0)),
    "stage_rounds": Case(K(r=1, a=0.05, N=64, n0=4, lam=1.0)),
    "theorem47_probability": Case(K(T=10, d=20, k=2, N=64)),
    "theorem47_m_condition": Case(K(k=2, d=20, N=64, n0=4, kappa=1.5, E0=0.5, sigma=0.1, c0=1.0)),
    "phase2_rounds_exact": Case(K(a=0.05, N=64, n0=4, c_hat=1.2, lam=1.0, c=0.0)),
    "fedrep_rounds_exact": Case(K(a=0.05, N=64, n0=4, c_hat=1.2, d0=1.0), allow_nonfinite=("",)),
    "idealised_wallclock": Case(K(N=64, n0=4, a=0.05, c_hat=1.2, lam=1.0, c=0.0, d0=1.0, schedule="srpfl",
                                  max_rounds=10_000_000), valid={"schedule": ["fedrep"]}),
    "lemma_b2_bound": Case(K(N=64, a=0.05, c_hat=1.2, lam=1.0, c=0.0, log_base=math.e), valid={"log_base": [2.0]}),
    "lemma_b3_bound": Case(K(N=64, a=0.05, c_hat=1.2, lam=1.0, log_base=math.e)),
    "theorem49_ratio_bound": Case(K(N=64, c_hat=1.2, c=0.0, log_base=math.e)),
    "round_decomposition": Case(_decomposition_inputs),
    "make_speed_model": Case(K(kind="fixed", M=8, N=4, lam=1.0, variant="tmlr", straggler_fraction=0.2,
                               fast_mean=0.1, slow_mean=10.0, seed=0),
                             valid={"kind": ["dynamic", "iid", "mixture"]}, invalid={"N": [9]}),
    "srpfl_default_eta": Case(lambda: dict(W_star=_model().W_star)),
    "run_srpfl": Case(K(d=6, k=2, M=8, N=8, n0=2, m=5, sigma=0.1, speeds="fixed", comm_cost=0.0, lam=1.0,
                        schedule="doubling", stage_lengths=2, a_stage=None, rounds=5, target=None, eta=None,
                        head_norm="sqrt_k", design="gaussian", init="mom", resample="stage", carry="qr",
                        speed_variant="tmlr", straggler_fraction=0.2, eval_every=0, record_identities=False,
                        model=None, sampler="full", seed=0),
                      invalid={"n0": [1, 9], "N": [9]},
                      valid={"speeds": ["dynamic", "iid", "mixture"], "eval_every": [2], "record_identities": [True],
                             "target": [0.5], "carry": ["pre_qr"], "schedule": ["all"]},
                      allow_nonfinite=("mse", "bound")),
    "fedavg_wallclock": Case(K(d=6, k=2, M=8, N=4, m=5, sigma=0.1, speeds="fixed", comm_cost=0.0, lam=1.0,
                               rounds=3, eta=0.05, speed_variant="tmlr", straggler_fraction=0.2, model=None, seed=0),
                             invalid={"N": [9]}),
    # ------------------------------------------------------------------ lpproj
    "make_projection": Case(K(d_sub=2, d=4, orthonormal=True, seed=0), invalid={"d_sub": [5]}),
    "make_problem": Case(K(N=6, d=4, d_sub=2, n=8, b=1.0, sigma=1.0, W=None, mu_w=0.0, Sigma_w=None,
                           heterogeneity=0.1, orthonormal_P=True, seed=0),
                         invalid={"d_sub": [5]}, valid={"W": [np.ones((6, 4))], "Sigma_w": [np.eye(4) * 0.2]}),
    "effective_heterogeneity": Case(K(Sigma=0.1, N=20, n=50, b=1.0, sigma=1.0, attack="same-value", N_a=3,
                                      tau=2.0, M0=None), valid={"attack": [None]}),
    "test_loss": Case(K(method="lp-proj-2", lam=np.array([0.1, 1.0]), N=20, n=50, d=10, d_sub=3, b=1.0, sigma=1.0,
                        Sigma=0.1, attack=None, N_a=0, tau=0.0, M0=None, variant="corrected"),
                      invalid={"d_sub": [11], "N_a": [3]},
                      valid={"method": ["local", "fedavg", "pfedme", "ditto"], "variant": ["printed"]}),
    "lemma29_argmin": Case(K(A=1.0, B=0.5, C=2.0, b=1.0), allow_nonfinite=("",)),
    "optimal_lambda": Case(K(N=20, n=50, d=10, d_sub=3, b=1.0, sigma=1.0, Sigma=0.1, attack="gaussian", N_a=2,
                             tau=1.0, M0=None), valid={"attack": [None]}, allow_nonfinite=("",)),
    "minimal_loss": Case(K(method="pfedme", N=20, n=50, d=10, d_sub=3, Sigma=0.1)),
    "proposition16_threshold": Case(K(lam_star=0.5, b=1.0), allow_nonfinite=("",), inf_ok=("lam_star",)),
    "loss_derivative_lpproj": Case(K(lam=np.array([0.1, 1.0]), d_sub=3, N=20, n=50, b=1.0, sigma=1.0, N_a=2,
                                     tau=1.0, Sigma=0.1)),
    "per_client_test_loss": Case(lambda: dict(method="lp-proj-2", lam=0.5, W=_problem().W, n=8, b=1.0, sigma=1.0,
                                              P=_problem().P),
                                 valid={"method": ["local", "fedavg", "pfedme"]}),
    "fairness_V": Case(lambda: dict(method="lp-proj-2", lam=np.array([0.5, 2.0]), W=_problem().W, b=1.0,
                                    P=_problem().P), valid={"method": ["local", "fedavg", "pfedme"]}),
    "expected_fairness_V": Case(lambda: dict(method="lp-proj-2", lam=np.array([0.5, 2.0]), N=6,
                                             Sigma_w=np.eye(4) * 0.1, b=1.0, P=_problem().P, variant="corrected"),
                                valid={"method": ["local", "fedavg", "pfedme"], "variant": ["printed"]}),
    "signflip_moments": Case(K(w=np.array([1.0, -0.5]), tau=1.0, sigma=1.0, b=1.0, n=10)),
    "lambda_star_symbolic": Case(K()),
    "attack_messages": Case(lambda: dict(rng=_rng(), attack="same-value", honest=np.ones((2, 3)), tau=1.0),
                            valid={"attack": ["sign-flip", "gaussian"]}),
    "closed_form_models": Case(lambda: dict(method="lp-proj-2", w_hat=_problem().W + 0.1, lam=0.5, b=1.0,
                                            P=_problem().P, attack="same-value", N_a=2, tau=1.0, rng=_rng()),
                               valid={"method": ["local", "fedavg", "pfedme"], "attack": [None, "sign-flip"]}),
    "benign_losses": Case(lambda: dict(x=_problem().W + 0.1, W=_problem().W, b=1.0, sigma=1.0, N_a=1)),
    "mc_test_loss": Case(lambda: dict(method="lp-proj-2", problem=_problem(), lam=0.5, attack="same-value", N_a=2,
                                      tau=1.0, n_samples=300, chunk=None, seed=0, confidence=0.99, sampler="full"),
                         valid={"sampler": ["reduced"], "method": ["pfedme", "fedavg", "local"]},
                         invalid={"n_samples": [10 ** 12]}),
    "test_loss_general": Case(lambda: dict(method="lp-proj-2", lam=np.array([0.1, 1.0]), problem=_problem(),
                                           attack="sign-flip", N_a=2, tau=1.0),
                              valid={"method": ["local", "fedavg", "pfedme"], "attack": [None, "gaussian"]}),
    "lpproj2_general_solution": Case(lambda: dict(G=_lp_design()[1], h=_lp_design()[2], P=_problem().P, lam=0.5)),
    "admm_l1_inner": Case(lambda: dict(G=_lp_design()[1], h=_lp_design()[2], P=_problem().P,
                                       w=_problem().W @ _problem().P.T, lam=0.5, rho=None, nu=1e-10,
                                       max_iter=300)),
    "run_algorithm1": Case(lambda: dict(problem=_problem(), lam=0.5, method="lp-proj", p=2, T=2, R=5, S=None,
                                        beta=1.0, eta=1.0, attack=None, N_a=0, tau=0.0, data=None, nu=1e-10,
                                        w0=None, seed=0),
                           valid={"method": ["pfedme", "fedavg", "ditto"], "p": [1], "S": [3],
                                  "attack": ["same-value"]}),
    # ------------------------------------------------------------------ lowrank
    "holder_l": Case(K(eta=2.5)),
    "theorem1_min_rank": Case(K(d=2, eta=2.0)),
    "lowrank.theorem1_bound": Case(K(r=np.array([200.0, 1000.0]), d=2, eta=2.0, L2=1.0, variant="corrected"),
                                   valid={"variant": ["printed"], "r": [10.0]}, allow_nonfinite=("",)),
    "lemma1_bound": Case(K(q=4.0, eta=2.0, L2=1.0)),
    "inequality52": Case(K(d=2, l=1)),
    "erlang_quantile_bounds": Case(K(b=5, q=20), invalid={"q": [1], "b": [0.5]}),
    "erlang_max_approximation": Case(K(b=5, k=10)),
    "theorem2_K1": Case(K(d=1, eta=50.0, L2=1.0), allow_nonfinite=("",)),
    "theorem2_r": Case(K(d=1, eta=50.0, alpha=1.0, kappa=2.0, eps=0.01, B=1.0, mu=0.1, p=1, L2=1.0, F0_gap=1.0,
                         variant="corrected"), valid={"variant": ["printed"]}, allow_nonfinite=("",)),
    "theorem2_S": Case(K(kappa=2.0, eps=0.01, B=1.0, mu=0.1, p=1, F0_gap=1.0)),
    "fedlrgd_gamma": Case(K(r=10, s=20, S=5, m=50, phi=10.0, tau=1.0)),
    "fedave_constraint_T": Case(K(b=10.0, m=50, eps_t=0.01, C=1.0)),
    "fedave_gamma_numeric": Case(K(m=20, phi=10.0, tau=1.0, eps_t=0.01, C=1.0)),
    "fedave_b_star_viete": Case(K(m=100, phi=100.0, tau=1.0, eps_t=0.01, C=1.0)),
    "fedave_bracket": Case(K(m=100, phi=100.0, tau=1.0, eps_t=0.01, C=1.0)),
    "lemma4_gap": Case(K(t=np.array([0.0, 0.1, 0.5]))),
    "proposition1_ratio": Case(K(p_over_eps=np.array([10.0, 100.0]), m=50, phi=10.0, d=1, c1=4.0, alpha=1.0,
                                 kappa=2.0, B=1.0, mu=0.1, L2=1.0, s=None, C=1.0, tau=1.0),
                               allow_nonfinite=("",)),
    "l1_cover": Case(K(q=4.0, d=2), valid={"d": [1]}),
    "taylor_matrix": Case(lambda: dict(fn=LR.Cosine(eta=2.0, L2=1.0, d=1, p=1),
                                       X=np.linspace(0, 1, 5)[:, None], Theta=np.array([[0.5], [-0.3]]), q=4.0)),
    "svd_tail": Case(K(M=np.arange(12.0).reshape(4, 3) ** 0.5)),
    "approximate_rank": Case(K(M=np.arange(12.0).reshape(4, 3) ** 0.5, threshold=0.9)),
    "make_logistic_problem": Case(K(d=3, r=4, m=3, s=5, mu=0.1, seed=0)),
    "run_fedlrgd": Case(lambda: dict(problem=LR.make_logistic_problem(d=3, r=4, m=3, s=5, seed=0), r=None, S=3,
                                     phi=10.0, line10="corrected", rcond=1e-13, seed=0),
                        valid={"line10": ["printed"], "r": [4]}),
    "erlang_max_mc": Case(K(b=3, k=4, n_samples=300, seed=0)),
    "mm1_departure_times": Case(K(n_dep=5, nu=2.0, reps=50, seed=0)),
    "appendix_c_ranks": Case(K(k=6, d=3, classes=2, n_train=20, mu=1e-3, threshold=0.9, min_weight=0.005, seed=0)),
}


# ----------------------------------------------------------------------------- enumeration
def _key(mod, name, obj) -> str:
    """Table key: the bare name, qualified where two subjects export the same name."""
    if name == "theorem1_bound":
        return ("fedrep." if obj.__module__.startswith("fedtheory.representation") else "lowrank.") + name
    if name == "theorem1_rate":
        return "fedrep." + name
    return name


def public_functions() -> dict[str, Callable]:
    out: dict[str, Callable] = {}
    for mod in MODULES:
        for name in mod.__all__:
            obj = getattr(mod, name)
            if inspect.isclass(obj) or inspect.ismodule(obj) or not callable(obj):
                continue  # classes are built and validated by the public functions that return them
            out.setdefault(_key(mod, name, obj), obj)
    return out


FUNCS = public_functions()
COVERED = sorted(k for k in FUNCS if k not in SKIPPED)


def test_every_public_function_has_a_case_or_a_documented_skip():
    missing = [k for k in FUNCS if k not in CASES and k not in SKIPPED]
    assert not missing, f"add a baseline call to CASES (or a reason to SKIPPED) for: {missing}"
    stale = [k for k in CASES if k not in FUNCS]
    assert not stale, f"CASES names functions that are not public: {stale}"


# ----------------------------------------------------------------------------- mutations
NAN, INF = float("nan"), float("inf")
NONFINITE = "nonfinite"  # kind label: the mutated input itself is NaN/inf (then no NaN/inf may come out)


class _Obj:
    """A value of the wrong type for an object parameter."""

    def __repr__(self):
        return "<object>"


def _scalar_mutations(base) -> list[tuple[str, Any]]:
    out = [("zero", 0), ("zero", 0.0), ("negative", -1), ("negative", -2.5), (NONFINITE, NAN), (NONFINITE, INF),
           (NONFINITE, -INF), ("huge", 1e300), ("huge", 10 ** 12), ("huge", -1e300), ("wrong type", "abc"),
           ("wrong type", None), ("wrong type", [1.0, 2.0]), ("wrong type", _Obj()), ("fraction", 0.5),
           ("fraction", 2.5), ("tiny", 1e-300)]
    if isinstance(base, (int, np.integer)) and not isinstance(base, bool):
        out += [("valid", base + 1), ("valid", float(base))]
    elif isinstance(base, float):
        out += [("valid", base * 1.5)]
    return out


def _array_mutations(base: np.ndarray) -> list[tuple[str, Any]]:
    b = np.asarray(base, float)
    out = [("zero", np.zeros_like(b)), ("negative", -b), ("huge", b * 1e300 + (b == 0) * 1e300),
           ("huge", np.full_like(b, 10.0 ** 12)), (NONFINITE, NAN), ("wrong type", "abc"), ("wrong type", None),
           ("valid", b.tolist()), ("wrong shape", np.ones(3)), ("wrong shape", np.ones((2, 2, 2, 2))),
           ("wrong type", _Obj())]
    if b.size:
        for v in (NAN, INF, -INF):
            c = b.copy()
            c.flat[b.size // 2] = v
            out.append((NONFINITE, c))
    return out


def _choice_mutations(base) -> list[tuple[str, Any]]:
    return [("invalid", "bogus"), ("invalid", ""), ("wrong type", None), ("wrong type", 1.0),
            (NONFINITE, NAN), ("wrong type", ["a"])]


def _object_mutations(base) -> list[tuple[str, Any]]:
    return [("wrong type", "abc"), ("wrong type", None), ("wrong type", 1.0), (NONFINITE, NAN),
            ("wrong type", _Obj()), ("wrong type", [1, 2])]


def mutations(case: Case, name: str, base) -> list[tuple[str, Any]]:
    if isinstance(base, bool):
        out = [("valid", not base), ("wrong type", "abc"), ("wrong type", None), (NONFINITE, NAN)]
    elif isinstance(base, (int, float, np.integer, np.floating)):
        out = _scalar_mutations(base)
    elif isinstance(base, np.ndarray):
        out = _array_mutations(base)
    elif isinstance(base, str):
        out = _choice_mutations(base)
    elif base is None:  # an optional parameter: every kind of number and type
        out = [("zero", 0), ("negative", -1.0), (NONFINITE, NAN), (NONFINITE, INF), ("huge", 1e300),
               ("huge", 10 ** 12), ("wrong type", "abc"), ("wrong type", [1.0]), ("wrong type", _Obj())]
    else:
        out = _object_mutations(base)
    out = [("valid", base)] + out
    out += [("valid", v) for v in case.valid.get(name, [])]
    out += [("invalid", v) for v in case.invalid.get(name, [])]
    return out


def all_mutations(key: str) -> list[tuple[str, str, Any]]:
    case = CASES[key]
    base = case.kwargs()
    out = [("", "valid", None)]
    for name, value in base.items():
        if name in case.fixed:
            continue
        out += [(name, kind, v) for kind, v in mutations(case, name, value)]
    return out


# ----------------------------------------------------------------------------- checking one call
def _brief(value) -> str:
    """A one-line description of a mutated value for the failure messages."""
    if isinstance(value, np.ndarray) and value.size > 1:
        with np.errstate(all="ignore"):
            top = np.nanmax(np.abs(value)) if value.dtype.kind in "fiu" else float("nan")
        return f"<array shape={value.shape} max|x|={top:.3g} nan={bool(np.isnan(value).any())}>"
    return repr(value).replace("\n", " ")[:80]


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang(f"call exceeded {TIMEOUT} s")


def _nonfinite_paths(x, path="", depth=0):
    """Paths of non-finite floats/arrays in a result (tuples, lists, dicts, dataclasses)."""
    if depth > 6:
        return
    if isinstance(x, (bool, np.bool_, str, bytes)) or x is None or callable(x):
        return
    if isinstance(x, (float, np.floating, complex)):
        if not np.isfinite(x):
            yield path
    elif isinstance(x, np.ndarray):
        if x.dtype.kind in "fc" and not np.all(np.isfinite(x)):
            yield path
        elif x.dtype == object:
            for i, v in enumerate(x.flat):
                yield from _nonfinite_paths(v, f"{path}[{i}]", depth + 1)
    elif isinstance(x, dict):
        for k, v in x.items():
            yield from _nonfinite_paths(v, f"{path}.{k}".lstrip("."), depth + 1)
    elif isinstance(x, (list, tuple)):
        for i, v in enumerate(x):
            yield from _nonfinite_paths(v, f"{path}[{i}]", depth + 1)
    elif dataclasses.is_dataclass(x):
        for f in dataclasses.fields(x):
            yield from _nonfinite_paths(getattr(x, f.name), f"{path}.{f.name}".lstrip("."), depth + 1)


def _names(msg: str, name: str) -> bool:
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", msg) is not None


def check_call(key: str, name: str, kind: str, value) -> None:
    """Run one mutated call and assert the contract."""
    case = CASES[key]
    func = FUNCS[key]
    kwargs = case.kwargs()
    if name:
        kwargs[name] = value
    args = [kwargs.pop(p) for p in case.positional]
    what = f"{key}({name}={_brief(value)})" if name else f"{key}(baseline)"
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, TIMEOUT)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with np.errstate(all="ignore"):
                out = func(*args, **kwargs)
                if key == "blas_single_thread":
                    with out:
                        pass
                    out = None
    except (ValueError, TypeError) as exc:
        msg = str(exc)
        assert name, f"{what}: the baseline call must succeed; got {type(exc).__name__}: {msg}"
        assert _names(msg, name), f"{what}: {type(exc).__name__} does not name `{name}`: {msg}"
        return
    except Hang:
        pytest.fail(f"{what}: hang (> {TIMEOUT} s)")
    except Exception as exc:  # noqa: BLE001 - anything but ValueError/TypeError breaks the contract
        pytest.fail(f"{what}: raised {type(exc).__name__}: {exc}")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    base = case.kwargs().get(name) if name else None
    numeric_param = isinstance(base, (int, float, np.integer, np.floating, np.ndarray)) and not isinstance(base, bool)
    if kind == NONFINITE and numeric_param and not (name in case.inf_ok and value == INF):
        pytest.fail(f"{what}: a non-finite value of a numeric parameter was accepted (no ValueError)")
    bad = list(_nonfinite_paths(out))
    if kind != NONFINITE or (name in case.inf_ok and value == INF):
        bad = [p for p in bad if not any(p.startswith(a) for a in case.allow_nonfinite)]
    assert not bad, f"{what}: silent NaN/inf in the result at {bad[:4]}"


# ----------------------------------------------------------------------------- the tests
def _not_big_valid_size(x: float) -> bool:
    """Keep a random float for an integer parameter unless it is an integer between 65 and 1e15:
    such sizes are valid but can take minutes (that is not a contract violation), while sizes from
    1e15 up must be refused by the memory and loop guards."""
    return not math.isfinite(x) or not float(x).is_integer() or abs(x) <= 64 or abs(x) >= 1e15


def _random_values(base):
    """Random values of the parameter's own type: any float64 (NaN, +-inf, subnormals, huge) for a
    float parameter; small integers, 10**12-scale integers and non-integer or huge floats for an
    integer parameter."""
    floats = st.floats(allow_nan=True, allow_infinity=True)
    if isinstance(base, (int, np.integer)):
        return st.one_of(st.integers(-5, 64), st.integers(10 ** 12, 10 ** 13).map(lambda v: v * (-1) ** (v % 2)),
                         floats.filter(_not_big_valid_size))
    return floats


def contract_strategy(key: str):
    """One mutated call: a fixed mutation of ``all_mutations`` or a random value of a numeric parameter."""
    muts = all_mutations(key)
    case = CASES[key]
    numeric = [(n, v) for n, v in case.kwargs().items() if n not in case.fixed
               and isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)]
    fixed = st.sampled_from(muts)
    if not numeric:
        return fixed

    def random_call(nb):
        name, base = nb
        return _random_values(base).map(
            lambda v: (name, NONFINITE if isinstance(v, float) and not math.isfinite(v) else "random", v))

    return st.one_of(fixed, st.sampled_from(numeric).flatmap(random_call))


@pytest.mark.parametrize("key", COVERED)
def test_contract(key):
    @settings(max_examples=EXAMPLES, deadline=None, database=None,
              derandomize=os.environ.get("FEDTHEORY_CONTRACT_RANDOM") != "1",
              phases=PHASES, suppress_health_check=list(HealthCheck))
    @given(contract_strategy(key))
    def run(call):
        check_call(key, *call)

    run()


@pytest.mark.skipif(os.environ.get("FEDTHEORY_CONTRACT_EXHAUSTIVE") != "1",
                    reason="set FEDTHEORY_CONTRACT_EXHAUSTIVE=1 to run every fixed mutation (minutes)")
@pytest.mark.parametrize("key", COVERED)
def test_contract_exhaustive(key):
    failures = []
    for name, kind, value in all_mutations(key):
        try:
            check_call(key, name, kind, value)
        except (AssertionError, pytest.fail.Exception) as exc:
            failures.append(str(exc).splitlines()[0])
    assert not failures, "\n".join(failures)


# ----------------------------------------------------------------------------- the named cases
@pytest.mark.parametrize("call, name", [
    (lambda: LP.test_loss("pfedme", NAN), "lam"),
    (lambda: LP.test_loss("lp-proj-2", 0.5, sigma=NAN), "sigma"),
    (lambda: LP.test_loss("fedavg", 0.5, Sigma=INF), "Sigma"),
    (lambda: LP.test_loss_general("pfedme", NAN, _problem()), "lam"),
    (lambda: LP.test_loss_general("lp-proj-2", 0.5, _problem(), attack="sign-flip", N_a=2, tau=NAN), "tau"),
    (lambda: REP.theorem1_bound(np.arange(3.0), NAN, 0.1, 0.5, 1.0), "dist0"),
    (lambda: REP.theorem1_bound(np.arange(3.0), 0.5, 0.1, NAN, 1.0), "E0"),
    (lambda: REP.theorem1_bound([0.0, NAN], 0.5, 0.1, 0.5, 1.0), "T"),
    (lambda: LR.theorem1_bound(NAN), "r"),
    (lambda: LR.theorem1_bound(200.0, eta=NAN), "eta"),
    (lambda: LR.theorem1_bound(200.0, L2=INF), "L2"),
    (lambda: REP.sample_complexity(NAN, 50, 100), "k"),
    (lambda: REP.sample_complexity(2, [50, NAN], 100), "d"),
    (lambda: REP.sample_complexity(2, 50, 100, kappa=INF), "kappa"),
    (lambda: LR.erlang_quantile_bounds(NAN, 20), "b"),
    (lambda: LR.erlang_quantile_bounds(5, INF), "q"),
])
def test_known_offenders_refuse_non_finite_input(call, name):
    """These returned NaN (or inf) silently before issue 11."""
    with pytest.raises(ValueError, match=rf"`{name}` must be finite"):
        call()


@pytest.mark.parametrize("call, sizes", [
    (lambda: REP.run_fedrep(d=10 ** 7, n=10 ** 4, m=10, r=0.1, rounds=1), ("`d`=10000000", "`n`=10000")),
    (lambda: REP.run_fedrep(d=10 ** 7, n=10 ** 4, m=10, r=0.1, rounds=1, init="random", m_test=0),
     ("`d`=10000000", "`n`=10000")),
    (lambda: LP.mc_test_loss("pfedme", _problem(), 0.5, n_samples=10 ** 12), ("`n_samples`=1000000000000",)),
    (lambda: MC.mc_mean(_mc_sampler, 10 ** 12, seed=0), ("`n_samples`=1000000000000",)),
    (lambda: REP.run_fedavg(d=10 ** 6, n=10 ** 5, m=10, r=0.1, rounds=1), ("`d`=1000000", "`n`=100000")),
    (lambda: SR.run_srpfl(d=10 ** 6, k=2, M=10 ** 5, N=64, rounds=1), ("`d`=1000000", "`M`=100000")),
    (lambda: LP.run_algorithm1(LP.make_problem(N=100, d=10, n=10 ** 7, seed=0), 0.5), ("`n`=10000000",)),
    (lambda: LP.make_problem(N=10 ** 6, d=10 ** 4), ("`N`=1000000", "`d`=10000")),
    (lambda: LR.erlang_max_mc(3, 10 ** 9), ("`k`=1000000000",)),
    (lambda: LR.run_fedlrgd(LR.make_logistic_problem(d=3, r=4, m=3, s=5), S=10 ** 12), ("`S`=1000000000000",)),
    (lambda: REP.run_fedrep(d=6, k=2, n=8, m=5, r=0.5, rounds=10 ** 12), ("`rounds`=1000000000000",)),
])
def test_memory_and_loop_guards_refuse_up_front(call, sizes):
    """Sizes beyond the machine are refused before anything is allocated (fast, little memory)."""
    import time
    import tracemalloc

    tracemalloc.start()
    t0 = time.perf_counter()
    try:
        with pytest.raises(ValueError, match="limit") as err:
            call()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert time.perf_counter() - t0 < 10
    assert peak < 200 * 2 ** 20, f"{peak / 2 ** 20:.0f} MiB allocated before refusing"
    for s in sizes:
        assert s in str(err.value), (s, str(err.value))
