"""The input contract of every public function ("inputs that cannot fool the helpers").

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


def _ls_clients():
    return LP.make_least_squares_clients(3, 6, 3, 2, ridge=0.5, seed=1)


def _rec32():
    return LP.recursion32_constants(lam=0.05, mu=0.5, mu_F=0.04, s=0.4, gamma_f_sq=10.0, sigma_F1_sq=0.3, N=8,
                                    S=3, D=2.0)


def _a6_clients():
    return LP.make_a6_least_squares(N=3, n=5, d=20, d_sub=2, seed=0)


def _thm14_eta_tilde():
    return LP.theorem14_schedule(6, mu_F=0.04, L_F=0.05, beta=50.0, R=2, D=1.0).eta_tilde


def _lr_tiny():
    """A 3-client logistic problem (d = 3, p = 2) for the FedAve cases."""
    return LR.make_logistic_problem(d=3, r=4, m=3, s=5, seed=0)


def _kernel_tiny():
    """A PolyTanhKernel problem with l = 1 (r = 2 server samples), the cover q = 2 of Theorem 2's chain."""
    return LR.make_kernel_problem(1, 1e-2, m=3, s=2, amp=10.0, beta=6.0, mu=0.5, seed=0)


def _chain_inputs():
    prob = _kernel_tiny()
    return dict(problem=prob, fn=prob.kernel, q=2.0, S=3, seed=0)


def _x_logistic():
    return np.array([[0.2, 0.3], [0.7, 0.9], [0.45, 0.1]]), np.array([[0.1], [-0.5], [0.8]])


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
    # ------------------------------------------------------------------ lpproj
    # theory.py / algorithms.py additions
    "fairness_dimension_ratio": Case(lambda: dict(Sigma_w=np.eye(4) * 0.1 + 0.02, P=_problem().P)),
    "eq49_pair_sum": Case(lambda: dict(W=_problem().W, variant="corrected"), valid={"variant": ["printed"]}),
    "benign_loss_draws": Case(lambda: dict(method="lp-proj-2", problem=_problem(), lam=0.5, size=50, attack="sign-flip",
                                           N_a=2, tau=1.0, sampler="full", seed=0),
                              valid={"sampler": ["sufficient"], "method": ["pfedme", "ditto"],
                                     "attack": [None, "same-value", "gaussian"]},
                              invalid={"size": [2 ** 20 + 1], "N_a": [6]}),
    "mc_fairness_ratio": Case(lambda: dict(Sigma_w=np.eye(4) * 0.1, P=_problem().P, N=6, mu_w=0.0, lam=1.0, b=1.0,
                                           n_samples=200, seed=0, confidence=0.99),
                              valid={"mu_w": [np.ones(4)]}, invalid={"N": [2], "Sigma_w": [np.diag([1.0, -1, 1, 1])]}),
    # stochastic.py (Theorem 9)
    "theorem9_eta_hat": Case(K(L_F=1.0, mu_F=0.2, beta=2.0), valid={"L_F": [np.array([1.0, 2.0])]}),
    "make_least_squares_clients": Case(K(N=3, n=6, d=3, d_sub=2, ridge=0.5, heterogeneity=1.0, noise=0.5, a6=False,
                                         orthonormal_P=False, feature_scale=1.0, seed=0),
                                       valid={"a6": [True], "orthonormal_P": [True]}, invalid={"d_sub": [4]}),
    "run_algorithm1_sgd": Case(lambda: dict(clients=_ls_clients(), lam=0.8, T=3, R=2, S=None, beta=1.0, eta=0.1,
                                            batch=None, nu=None, w0=None, replicates=2, seed=0, regime=None,
                                            record=False, warm_start=True, on_local_step=None),
                               valid={"S": [2], "batch": [3], "nu": [1e-6], "w0": [np.ones(2)], "record": [True],
                                      "regime": ["theorem14"], "eta": [np.array([0.1, 0.05, 0.02])]},
                               invalid={"S": [4], "batch": [7], "regime": ["theorem13"]}),
    "regime_checks": Case(lambda: dict(clients=_ls_clients(), lam=0.8, regime="theorem9", T=4000, R=1, beta=1.0,
                                       eta_max=0.002),
                          valid={"regime": [None, "theorem14"]}, invalid={"T": [100], "eta_max": [0.01]}),
    # schedules.py (Theorems 14, 15, 27, 28)
    "theorem14_zeta": Case(K(kappa_F=2.0, beta=3.0), valid={"kappa_F": [np.array([1.0, 2.0])]}),
    "theorem14_schedule": Case(K(T=5, mu_F=0.3, L_F=0.45, beta=7.0, R=3, D=2.0, no_sampling=False, n=None),
                               valid={"n": [4], "no_sampling": [True]}, invalid={"L_F": [0.2]}),
    "theorem15_lambda_min": Case(K(L=0.3), valid={"L": [np.array([0.3, 1.0])]}),
    "theorem15_schedule": Case(K(T=5, lam=2.0, L_F=None, beta=1.0, R=2, D=10.0, no_sampling=False, n=None, L=None),
                               valid={"no_sampling": [True], "n": [3], "L": [0.3], "L_F": [1.5]},
                               invalid={"L": [1.0]}),
    "check_schedule_regime": Case(lambda: dict(theorem="theorem14", eta_tilde=_thm14_eta_tilde(), beta=50.0, L_F=0.05,
                                               mu_F=0.04, lam=None, no_sampling=False),
                                  invalid={"eta_tilde": [_thm14_eta_tilde() * 1.01]}),
    "sampling_law": Case(K(eta=np.array([0.3, 0.2, 0.1]))),
    "recursion32_constants": Case(K(lam=0.05, mu=0.5, mu_F=0.04, L_F=None, s=0.4, gamma_f_sq=10.0, sigma_F1_sq=0.3,
                                    N=8, S=3, D=2.0), valid={"L_F": [0.1]}, invalid={"S": [9], "N": [1]}),
    "recursion32_rhs": Case(lambda: dict(E_delta=1.0, eta_tilde=np.array([0.01, 0.02]), consts=_rec32(), beta=1.0,
                                         no_sampling=False), valid={"no_sampling": [True]}),
    "a5_sums": Case(K(T=5, zeta=81.0, mu_F=0.5), valid={"zeta": [81], "mu_F": [1]}, invalid={"zeta": [4.0]}),
    "theorem15_exact_moments": Case(K(T=np.array([2, 10]), curvature=0.2, lam=1.2, theta=np.array([0.0, 1.0, 2.0]),
                                      theta_var=np.array([0.5, 0.5, 0.5]), n=10, S=2, R=2, beta=1.0, D=5.0,
                                      no_sampling=False),
                                    valid={"w0": [1.0], "S": [3]}, invalid={"n": [1], "S": [4], "beta": [0.5],
                                                                            "curvature": [-0.2]}),
    "theorem28_sums": Case(K(T=57, lam=1.5, L_F=None, beta=1.0, no_sampling=False),
                           valid={"no_sampling": [True], "T": [np.array([3, 57])], "L_F": [2.0]}),
    "theorem28_first_term": Case(K(T=100, lam=2.0, L_F=None, Delta_F=3.0), valid={"L_F": [1.0]}),
    "loglog_slope": Case(K(x=np.array([1.0, 2.0, 4.0]), Y=np.array([[1.0, 0.5, 0.26], [1.1, 0.52, 0.24],
                                                                      [0.9, 0.49, 0.25]]), level=0.99, n_boot=50,
                           seed=0)),
    # robust.py (multi-round Algorithm 1 under attacks)
    "contraction_factor": Case(K(eta=0.4, lam=0.8, b=1.0), valid={"eta": [np.array([0.1, 0.2])]}),
    "signflip_multiplier": Case(K(C=1.0, rho=0.9, R=1, N=10, N_a=2, beta=1.0), invalid={"N_a": [10], "rho": [1.5]}),
    "signflip_multiplier_mean": Case(K(rho=0.9, R=1, N=10, N_a=2, tau=1.0, beta=1.0), invalid={"N_a": [10]}),
    "log_abs_shifted_halfnormal_sum": Case(K(a=2.0, tau=1.0, n=2), valid={"n": [0]}),
    "signflip_log_multiplier_mean": Case(K(rho=0.9, R=1, N=10, N_a=2, tau=1.0, beta=1.0), invalid={"N_a": [10]}),
    "collapse_threshold": Case(K(rho=0.9, R=1, N=6, tau=10.0, beta=1.0)),
    "lpproj1_loss_bound": Case(lambda: dict(w_hat=_problem().W + 0.1, W=_problem().W, lam=0.3, b=1.0, sigma=1.0,
                                            d_sub=2, N_a=1), invalid={"d_sub": [5], "N_a": [6]}),
    "norm_envelope": Case(K(w0_norm=np.array([1.0, 0.0, 5.0]), q=0.6, drift=0.5, attack_norms=np.ones((4, 3)),
                            beta=1.0, N=4)),
    "stationary_norm_bound": Case(K(q=0.6, drift=0.5, tau=1.0, N_a=4, d_sub=1, beta=1.0, N=4), invalid={"q": [1.0]}),
    # documented: a zero norm in the history gives -inf (and -inf - -inf = nan)
    "fitted_growth_rates": Case(K(history=np.exp(0.1 * np.arange(5.0))[:, None, None] * np.ones((5, 2, 3)), t0=1),
                                invalid={"t0": [4]}, allow_nonfinite=("",)),
    "personalised_models": Case(lambda: dict(w=np.array([0.1, -0.2]), w_hat=_problem().W + 0.1, P=_problem().P,
                                             lam=0.4, b=1.0, p=2), valid={"p": [1]}),
    "run_rounds": Case(lambda: dict(problem=_problem(), lam=0.8, p=2, T=3, R=2, eta=0.1, beta=1.0, attack="sign-flip",
                                    N_a=2, tau=1.0, c_draw="per-round", reps=2, w_hat=None, w0=None, seed=0),
                       valid={"p": [1], "attack": [None, "same-value", "gaussian"], "c_draw": ["fixed"],
                              "w0": [np.ones(2)], "w_hat": [_problem().W + 0.1]},
                       invalid={"N_a": [6]}, allow_nonfinite=("attack_scale",)),  # documented NaN unless sign-flip
    # a6.py (Assumption 6: Proposition 10, Lemmas 11, 12, 26, eq. (11), Theorem 13)
    "check_a6_regime": Case(K(s=0.01, lam=5.0, L=1.0, result="theorem13"),
                            valid={"result": ["proposition10", "lemma11", "lemma12", "lemma26"]},
                            invalid={"s": [0.04], "lam": [3.0]}),
    "inner_strong_convexity": Case(K(lam=5.0, L=1.0, s=0.01), valid={"lam": [np.array([5.0, 8.0])]},
                                   invalid={"lam": [4.0]}),
    "delta2_sq": Case(K(gamma_f_sq=2.0, batch=4, nu=0.01, lam=5.0, L=1.0, s=0.01), invalid={"s": [0.04]}),
    "sigma_F2_sq": Case(K(sigma_f_sq=0.5, lam=5.0, L=1.0), invalid={"lam": [3.0]}),
    "eta_hat_2": Case(K(lam=2.0), valid={"lam": [np.array([2.0, 5.0])]}),
    "theorem13_constants": Case(K(lam=5.0, L=1.0, s=0.01, sigma_f_sq=0.5, delta2_sq=0.1, N=8, S=3),
                                invalid={"S": [9], "lam": [3.9]}),
    "eq20_rhs": Case(K(descent=1.0, eta_tilde=1e-3, T=100, beta=1.0, C4=10.0, C5=2.0, C6=0.1)),
    "theorem13_step": Case(K(Delta_F=1.0, T=100, beta=1.0, C4=10.0, C5=2.0, lam=5.0), valid={"C4": [0.0]}),
    "lemma26_rhs": Case(K(lam=5.0, delta2_sq=0.1, eta_tilde=0.01, beta=1.0, mean_grad_Fk_sq=2.0),
                        invalid={"eta_tilde": [0.05]}),
    "eq11_rhs": Case(K(eta_tilde=0.01, L_F=5.0, grad_sq=1.0, drift=0.5, sampling=0.2)),
    "personalised_bound_13": Case(K(mean_grad_sq=1.0, lam=5.0, L=1.0, delta2_sq=0.1, sigma_F2_sq=0.5),
                                  invalid={"lam": [3.0]}),
    "make_a6_least_squares": Case(K(N=3, n=5, d=20, d_sub=2, heterogeneity=1.0, noise=0.5, scale=1.0,
                                    shared_design=True, orthonormal_P=False, seed=0),
                                  valid={"shared_design": [False], "orthonormal_P": [True]}, invalid={"d_sub": [21]}),
    "a6_quadratics": Case(K(P=np.eye(3)[:2] + 0.01, A=np.stack([np.eye(2), np.diag([2.0, -1.0])]), a=np.ones((2, 2)),
                            c=None), valid={"c": [np.zeros(2)]}),
    "to_stochastic_clients": Case(lambda: dict(clients=_a6_clients(), reduce=True), valid={"reduce": [False]}),
    "check_theorem13_steps": Case(K(s=0.01, lam=5.0, L=1.0, eta_tilde=1e-5, beta=1.0), invalid={"eta_tilde": [1e-3]}),
    # extras.py (Proposition 3's envelope, conjugates, eq. (34), block-diagonal projections, model sizes)
    "projected_envelope": Case(K(H=np.eye(3) * 2 + 0.1, g=np.ones(3), P=np.eye(3)[:2], lam=0.5,
                                 w=np.array([0.3, -0.1]))),
    "quadratic_conjugate": Case(K(H=np.eye(3) * 2 + 0.1, g=np.ones(3), u=np.array([0.5, -1.0, 0.2]))),
    "pfedme_general_solution": Case(lambda: dict(zip(("Xi", "y"), _problem().sample_data(np.random.default_rng(0))),
                                                 lam=0.5)),
    "block_diagonal_projection": Case(K(d_sub=6, d=12, k=3, seed=0), invalid={"k": [4]}),
    "block_diagonal_cost": Case(K(d_sub=6, d=12, k=3), invalid={"k": [4]}),
    "layer_parameter_count": Case(K(kind="conv", n_in=3, n_out=6, kernel=5, bias=True),
                                  valid={"kind": ["linear", "batchnorm"], "bias": [False]}),
    # ------------------------------------------------------------------ lowrank
    # fedave.py (FedAve as analysed: Lemma 3, (78))
    "lemma3_T0": Case(K(kappa=2.0, tau=0.5, m=10, mu=0.1, b=5), valid={"m": [1], "tau": [1.0]},
                      invalid={"kappa": [0.5], "tau": [1.5]}),
    "lemma3_terms": Case(K(T=np.array([10.0, 100.0]), b=5, m=10, tau=0.5, L1=1.0, mu=0.1, sigma2=0.2, dist2_T0=1.0,
                           T0=20.0, e=math.e), valid={"m": [1], "T": [50.0], "e": [0.01]}, invalid={"mu": [2.0]}),
    "gradient_noise_variance": Case(lambda: dict(problem=_lr_tiny(), Theta=np.array([[0.1, -0.2], [0.3, 0.0]]),
                                                 batch=1),
                                    valid={"Theta": [np.array([0.5, 0.5])], "batch": [4]},
                                    invalid={"Theta": [np.ones((2, 3))]}),
    "sigma2_sup": Case(lambda: dict(problem=_lr_tiny(), lo=-1.0, hi=1.0, batch=1, grid=5),
                       invalid={"hi": [-2.0], "grid": [1]}),
    "fedave_steps": Case(K(steps="fedpaq", T=5, b=2, mu=0.1, T0=3.0),
                         valid={"steps": [0.05, np.full(5, 0.05)], "T0": [0.0]},
                         invalid={"steps": [np.full(4, 0.05), -0.1, np.array([0.1, 0.1, 0.0, 0.1, 0.1])]}),
    "run_fedave": Case(lambda: dict(problem=_lr_tiny(), T=3, b=2, tau=1.0, phi=10.0, reps=4, steps="fedpaq",
                                    batch=1, theta0=None, trace=False, seed=0),
                       valid={"tau": [0.5], "steps": [0.05, np.full(3, 0.05)], "theta0": [np.array([0.5, -0.5])],
                              "trace": [True], "batch": [3]},
                       invalid={"tau": [1.5], "theta0": [np.ones(3)], "steps": [1e6]}),
    # documented: T = None, Gamma = inf when eps is not reached by T_max
    "fedave_gamma_to_target": Case(lambda: dict(problem=_lr_tiny(), eps=0.05, b=2, T_max=5, tau=1.0, phi=10.0, reps=4,
                                                steps="fedpaq", batch=1, confidence=0.99, seed=0),
                                   valid={"eps": [1e-9], "steps": [0.05], "reps": [1]},
                                   invalid={"eps": [1e-18], "steps": [np.full(5, 0.05)]},
                                   allow_nonfinite=("[1]",)),
    "target_floor": Case(lambda: dict(problem=_lr_tiny())),
    # chain.py (Theorem 2's proof chain (53)-(64))
    "make_kernel_problem": Case(K(l=2, lam=0.01, m=3, s=2, beta=3.0, mu=0.1, amp=1.0, seed=0),
                                valid={"l": [1, 6]}, invalid={"l": [7]}),
    "make_cover_logistic_problem": Case(K(q=1, m=3, s=2, mu=0.1, seed=0), valid={"q": [2], "mu": [0.0]},
                                        invalid={"q": [5]}),
    "monomial_exponents": Case(K(l=2, d=2), valid={"l": [0]}),
    "monomial_matrix": Case(K(X=np.array([[0.1, 0.2], [0.6, 0.7], [0.3, 0.9]]), q=2.0, l=1),
                            valid={"X": [np.array([[0.5], [1.0]])]},
                            invalid={"X": [np.array([[0.1, 1.5]]), np.ones((2, 3))], "l": [-1]}),
    "cover_lattice": Case(K(d=1, l=2, q_grid=np.array([1.0, 2.5, 4.0])), valid={"d": [2], "l": [0]},
                          invalid={"d": [3], "q_grid": [np.array([1.0, 0.0])]}),
    "explicit_weights": Case(K(G=np.eye(3) * 2 + 0.1, Gc=np.arange(6.0).reshape(2, 3)),
                             valid={"G": [np.ones((3, 3))]}, invalid={"Gc": [np.ones((2, 4))], "G": [np.ones((3, 2))]}),
    # documented: inf when the premise ||G^-1|| r eps < 1 fails, and Ginv = inf (a singular G) is accepted
    "eq59_rhs": Case(K(eps=0.01, r=4, Ginv=2.0, B=3.0), valid={"eps": [0.2]}, invalid={"r": [0]},
                     allow_nonfinite=("",), inf_ok=("Ginv",)),
    "eq60_steps": Case(K(eps=1e-3, r=3, Ginv=9.0, B=2.0, alpha=2.0, Lw=5.0, Pn=4.0, res53=0.01, resP=0.02, resA=0.02,
                         dist_aw=1e-3, grouping="corrected"),
                       valid={"grouping": ["printed"]}, invalid={"eps": [0.1], "alpha": [0.5]}),
    "fedlrgd_chain": Case(_chain_inputs, valid={"S": [1]},
                          invalid={"q": [4.0, 0.5], "fn": [LR.Cosine(eta=2.0, L2=1.0, d=1, p=1)],
                                   "seed": [np.random.default_rng(0)]}),
    # assumption8.py (assumption (8): the Brownian loss, the logistic ||G^-1|| in mpmath, the alpha fits)
    "brownian_loss": Case(K(x=np.array([0.2, 0.5]), theta=np.array([0.3, 0.4]), mu=0.1),
                          valid={"x": [0.7]}, invalid={"x": [np.array([0.2, 1.5])], "theta": [np.ones(3)]}),
    "brownian_gradient": Case(K(x=np.array([0.2, 0.5]), theta=np.array([0.3, 0.4]), mu=0.1),
                              valid={"x": [0.7]}, invalid={"theta": [np.array([-0.1, 0.2])]}),
    "brownian_node_matrix": Case(K(x=np.array([0.2, 0.5, 0.9]), theta=None, mu=0.1),
                                 valid={"theta": [np.array([0.1, 0.3, 0.6])]}, invalid={"theta": [np.ones(2)]}),
    "brownian_inverse_closed_form": Case(K(x=np.array([0.2, 0.5, 0.9]), mu=0.1),
                                         invalid={"x": [np.array([0.5, 0.2, 0.9]), np.array([0.2, 0.2, 0.9])]}),
    "brownian_inverse_bound": Case(K(x=np.array([0.2, 0.5, 0.9]), mu=0.1),
                                   valid={"x": [np.array([0.5, 0.2, 0.9])]}, invalid={"x": [np.array([0.0, 0.5])]}),
    "separated_nodes": Case(lambda: dict(r=4, reps=2, rng=_rng(), jitter=0.5), valid={"jitter": [0.0]},
                            invalid={"jitter": [1.0]}),
    # documented: ||G^-1|| = inf for a matrix singular in double precision (sigma_min = 0)
    "inverse_norm": Case(K(G=np.eye(3) * 2 + 0.1), valid={"G": [np.ones((2, 3, 3)) + np.eye(3)]},
                         invalid={"G": [np.ones((2, 3))]}, allow_nonfinite=("",)),
    "logistic_node_matrix": Case(lambda: dict(zip(("X0", "nodes"), _x_logistic()), mu=0.1),
                                 invalid={"nodes": [np.ones((3, 1)) * 2, np.ones((2, 1))],
                                          "X0": [np.ones((3, 2)) * 2]}),
    # documented: value = inf for a matrix singular in exact arithmetic
    "logistic_inverse_norm": Case(lambda: dict(zip(("X0", "nodes"), _x_logistic()), mu=0.1, switch=1e-12, check=False,
                                               start_dps=30, max_dps=60),
                                  valid={"check": [True], "switch": [1.0]},
                                  invalid={"switch": [2.0], "start_dps": [10, 61], "max_dps": [5001]},
                                  allow_nonfinite=("value", "rel_change")),
    "alpha_fit": Case(K(r=np.array([2.0, 4.0, 8.0, 16.0]),
                        inv_norm=np.array([[2.0, 4.5, 9.0, 17.0], [2.2, 4.0, 8.5, 16.5], [1.9, 4.2, 8.1, 15.0]]),
                        k=1, level=1e-3),
                      valid={"k": [2]}, invalid={"r": [np.array([2.0, 4.0, 3.0, 16.0]), np.array([2.0, 4.0, 8.0])],
                                                 "inv_norm": [np.ones((1, 4))], "level": [1.0]}),
    # holder_classes.py (l >= 2 test functions)
    "lemma1_extremal_ratio": Case(K(eta=2.5), valid={"eta": [np.array([2.5, 3.5]), 0.5]}),
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


# ----------------------------------------------------------------------------- named cases
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
    """These returned NaN (or inf) silently before the input checks."""
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
