"""Exact runs of FedRep-SRPFL (Algorithm 2) with a simulated wall clock.

SRPFL (Tziotis et al., TMLR), Algorithm 2 [arXiv: "SRPFL in Linear Representation"]:
stages r = 0, 1, ...; in stage r the server samples N of the M clients, waits for
the ``n_r = min(N, 2^r n0)`` fastest, and runs one FedRep round on them (fresh batch,
exact head, one gradient step on B, average, QR). The round itself is FedRep's
vectorised :func:`fedtheory.representation.fedrep_round`.

A round costs the n_r-th smallest of the N sampled compute times plus ``C = c/lam``
(Sec. 4.2, App. B). ``schedule="all"`` is the straggler-prone FedRep baseline: all N
sampled clients every round, so the slowest one sets the pace.
"""
from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from .._validation import guard_module as _guard_module
from .._validation import (check_alloc, check_bool, check_choice, check_instance, check_int, check_iterations, check_matrix,
                           check_real)
from ..linalg import principal_angle_distance, random_orthonormal
from ..random import SeedLike, as_generator, seed_repr, spawn_seeds
from ..representation.algorithms import (_round_given_batch, _round_reduced, fit_heads, mom_init,
                                         resolve_sampler)
from ..representation.model import DESIGNS, HEAD_NORMS, SIGMA_MAX, FedRepModel, make_model
from .model import SPEEDS, SpeedModel, make_speed_model
from .theory import contraction_bound, round_decomposition, stage_rounds, switch_point

__all__ = ["SRPFLResult", "run_srpfl", "srpfl_default_eta", "fedavg_wallclock"]


@dataclass(frozen=True, eq=False)
class SRPFLResult:
    """Trajectory of one FedRep-SRPFL (or FedRep, ``schedule="all"``) run.

    Attributes
    ----------
    dist : ndarray (T+1,)
        ``dist(B^t, B*)``, t = 0..T.
    wall_clock : ndarray (T+1,)
        Cumulative simulated time (0 at t = 0).
    participants : ndarray (T,)
        Number of clients aggregated in each round.
    stage : ndarray (T,)
        Stage index r of each round.
    a : ndarray (T,)
        ``a_t = eta E0 sigma_min^2(W*_I / sqrt(n)) / 2`` from the actual participating set I.
    bound : ndarray (T,)
        Theorem 4.7's right side ``dist_t sqrt(1-a_t) + a_t / sqrt((n_t/n0)(1-a_t))``.
    mse : ndarray (T+1,)
        Exact expected test MSE after every client re-fits its head on ``B^t`` from ``m``
        fresh samples (NaN where not evaluated).
    identities : dict of ndarray
        Appendix A residuals and inequality sides per round (``record_identities=True``).
    E0, eta : float
    params : dict
    model : FedRepModel
    """

    dist: np.ndarray
    wall_clock: np.ndarray
    participants: np.ndarray
    stage: np.ndarray
    a: np.ndarray
    bound: np.ndarray
    mse: np.ndarray
    identities: dict
    E0: float
    eta: float
    params: dict
    model: FedRepModel = field(repr=False)

    @property
    def bound_violations(self) -> np.ndarray:
        """Rounds t (0-based) where ``dist_{t+1}`` exceeds Theorem 4.7's bound."""
        return np.flatnonzero(self.dist[1:] > self.bound * (1 + 1e-12))

    def time_to(self, eps: float) -> float:
        """Simulated time at which ``dist`` first drops to ``eps`` (inf if never)."""
        hit = np.flatnonzero(self.dist <= eps)
        return float(self.wall_clock[hit[0]]) if hit.size else math.inf

    def summary(self) -> str:
        p = self.params
        return (f"{p['schedule']} run: d={p['d']}, k={p['k']}, M={p['M']}, N={p['N']}, n0={p['n0']}, "
                f"m={p['m']}, speeds={p['speeds']!r}; {self.dist.size - 1} rounds, dist "
                f"{self.dist[0]:.3g} -> {self.dist[-1]:.3g}, time {self.wall_clock[-1]:.4g}, "
                f"{self.bound_violations.size} bound violations")

    def __repr__(self) -> str:
        return f"SRPFLResult({self.summary()})"


def srpfl_default_eta(W_star: np.ndarray) -> float:
    """``1/(8 max_i ||w_i*||^2)``, which satisfies Theorem 4.7's ``eta <= 1/(8 sigma_max,*^2)``
    for every subset (as :func:`fedtheory.representation.default_eta`; Tziotis et al., TMLR).
    ``W_star`` is a finite n x k matrix with a nonzero row."""
    W = check_matrix(W_star, "W_star", (None, None))
    top = float(np.max(np.sum(W ** 2, axis=1))) if W.size else 0.0
    if not top > 0:
        raise ValueError("`W_star` must have a nonzero row (the step 1/(8 max ||w_i*||^2) is infinite otherwise)")
    return 1.0 / (8.0 * top)


def _exact_mse(model: FedRepModel, B: np.ndarray, m: int, rng: np.random.Generator) -> float:
    """All M clients fit heads on ``B`` from ``m`` fresh samples; the exact expected test MSE
    ``mean_i ||B w_i - theta_i||^2 + sigma^2`` (isotropic x)."""
    X, y = model.sample(rng, np.arange(model.n), m)
    W = fit_heads(X @ B, y, ridge=1e-12)
    return float(np.mean(np.sum((W @ B.T - model.theta_star) ** 2, axis=1))) + model.sigma ** 2


def run_srpfl(d: int = 50, k: int = 3, M: int = 64, N: int = 64, n0: int = 4, m: int = 30,
              sigma: float = 0.5, speeds: str | SpeedModel = "fixed", comm_cost: float = 0.0, *,
              lam: float = 1.0, schedule: str = "doubling",
              stage_lengths: int | Sequence[int] | str = 20, a_stage: float | None = None,
              rounds: int | None = None, target: float | None = None, eta: float | None = None,
              head_norm: str = "sqrt_k", design: str = "gaussian", init: str = "mom",
              resample: str = "stage", carry: str = "qr", speed_variant: str = "tmlr",
              straggler_fraction: float = 0.2, eval_every: int = 0,
              record_identities: bool = False, model: FedRepModel | None = None,
              sampler: str = "full", seed: SeedLike = 0, replicates: int | None = None) -> SRPFLResult:
    """Run FedRep-SRPFL (Algorithm 2) or the FedRep baseline, exactly, with a simulated clock.

    Parameters
    ----------
    d, k : int
        Dimension and representation rank (``k <= d``).
    M, N, n0 : int
        Clients in total, clients sampled per stage (``N <= M``), initial participants
        (``k <= n0 <= N``). Stage r aggregates the ``min(N, 2^r n0)`` fastest.
    m : int
        Fresh samples per participant per round (``m >= k``).
    sigma : float
        Label-noise standard deviation.
    speeds : str or SpeedModel
        ``"fixed"``, ``"dynamic"``, ``"iid"`` or ``"mixture"`` (see :mod:`fedtheory.srpfl.model`).
    comm_cost : float
        ``c`` in the per-round communication cost ``C = c/lam``.
    schedule : {"doubling", "all"}
        SRPFL's doubling, or FedRep with all N sampled clients every round.
    stage_lengths : int, sequence of int, or "lemma_b1"
        Rounds per non-final stage. ``"lemma_b1"``: stage 0 runs until ``dist <= X_1`` and
        stage r >= 1 runs ``ceil(t^r)`` rounds (Lemma B.1, eqs. (203), (206)) with
        ``a = a_stage`` (required). The final stage (n = N) runs until ``target`` or the
        ``rounds`` budget.
    rounds : int, optional
        Total round budget (default ``stage_lengths`` times the number of stages, or 200).
    target : float, optional
        Stop once ``dist <= target`` (run-until-target).
    eta : float, optional
        Step size; default :func:`srpfl_default_eta`.
    resample : {"stage", "round"}
        Draw the N active clients once per stage (Remark 3.2) or every round.
    carry : {"qr", "pre_qr"}
        Carry the orthonormal factor into the next stage (corrected), or the pre-QR average
        ``B_bar`` as printed in Algorithm 2, line 16.
    eval_every : int
        Every that many rounds, compute the exact test MSE with re-fitted heads (0: never).
    record_identities : bool
        Record the Appendix A identities and inequalities every round (needs ``sampler="full"``).
    sampler : {"full", "reduced", "auto"}
        As in :func:`fedtheory.representation.run_fedrep`: ``"reduced"`` draws each round from its
        exact law without forming the batches (isotropic Gaussian designs, d >= 2k).
    seed : int, SeedSequence or Generator
    replicates : int, optional
        Run this many independent replicates in one vectorised pass and return a
        :class:`~fedtheory.srpfl.replicates.SRPFLReplicates` (arrays with a leading replicate axis).
        Replicate j equals, bitwise, the single run with seed ``spawn_seeds(seed, replicates)[j]``
        (its own ground truth and speed model unless ``model`` / a ``SpeedModel`` is given), and the
        numbers do not depend on how the replicates are chunked for memory. With ``target`` each
        replicate stops at its own round and the arrays are NaN-padded after it (``rounds_run`` gives
        each replicate's rounds; ``res[j]`` is unpadded). Not with ``stage_lengths="lemma_b1"`` or
        ``record_identities`` (their replicates would switch stages at their own rounds or need the
        batches).

    Returns
    -------
    SRPFLResult (SRPFLReplicates with ``replicates``)
    """
    d = check_int(d, "d", 1)
    k = check_int(k, "k", 1, d, why=f"k must not exceed d={d}")
    M = check_int(M, "M", 1)
    N = check_int(N, "N", 1, M, why=f"N must not exceed M={M}")
    n0 = check_int(n0, "n0", k, N, why=f"k={k} <= n0 <= N={N}")
    m = check_int(m, "m", k, why=f"the exact head needs m >= k={k}")
    check_real(sigma, "sigma", 0, SIGMA_MAX, why="noise standard deviation")
    lam = check_real(lam, "lam", 0, low_open=True, why="exponential rate")
    c = check_real(comm_cost, "comm_cost", 0)
    check_choice(schedule, "schedule", ("doubling", "all"))
    check_choice(resample, "resample", ("stage", "round"))
    check_choice(carry, "carry", ("qr", "pre_qr"))
    check_choice(init, "init", ("mom", "random"))
    check_choice(head_norm, "head_norm", HEAD_NORMS)
    check_choice(design, "design", DESIGNS)
    check_choice(sampler, "sampler", ("full", "reduced", "auto"))
    if isinstance(speeds, SpeedModel):
        if speeds.M != M:
            raise ValueError(f"`speeds` is a SpeedModel for M={speeds.M} clients; the run has M={M}")
    else:
        check_choice(speeds, "speeds", SPEEDS)
    if model is not None:
        check_instance(model, "model", FedRepModel)
    if eta is not None:
        eta = check_real(eta, "eta", 0, low_open=True)
    check_choice(speed_variant, "speed_variant", ("tmlr", "arxiv"))
    check_real(straggler_fraction, "straggler_fraction", 0, 1)
    record_identities = check_bool(record_identities, "record_identities")
    if a_stage is not None:
        a_stage = check_real(a_stage, "a_stage", 0, 1, True, True)
    eval_every = check_int(eval_every, "eval_every", 0)
    R = max(0, math.ceil(math.log2(N / n0)))
    sizes = [min(N, n0 * 2 ** r) for r in range(R + 1)] if schedule == "doubling" else [N]
    if isinstance(stage_lengths, str):
        check_choice(stage_lengths, "stage_lengths", ("lemma_b1",))
        if a_stage is None:
            raise ValueError("`a_stage` in (0, 1) is required with stage_lengths='lemma_b1'")
    elif isinstance(stage_lengths, (numbers.Real, np.number)):
        stage_lengths = [check_int(stage_lengths, "stage_lengths", 1)] * len(sizes)
    elif isinstance(stage_lengths, (list, tuple, np.ndarray)):
        stage_lengths = [check_int(v, "stage_lengths", 1) for v in np.ravel(stage_lengths).tolist()]
        if len(stage_lengths) < len(sizes) - 1:
            raise ValueError(f"`stage_lengths` needs {len(sizes) - 1} entries; got {len(stage_lengths)}")
    else:
        raise TypeError(f"`stage_lengths` must be an int, a sequence of ints or 'lemma_b1'; got {stage_lengths!r}")
    if rounds is None:
        rounds = 200 if isinstance(stage_lengths, str) or target is not None else sum(
            list(stage_lengths)[: len(sizes)])
    rounds = check_int(rounds, "rounds", 0)
    if target is not None:
        target = check_real(target, "target", 0, low_open=True)
    check_alloc(rounds + 1, "the trajectory (rounds + 1 entries per record)", itemsize=8 * 8, rounds=rounds)
    check_iterations(rounds, "the run", rounds=rounds)
    check_alloc(max(M * d, d * d, N * m * d, (M * m * d) if eval_every else 0),
                "the run's largest array (M x d thetas, d x d moments, N x m x d batch, M x m x d evaluation)",
                d=d, M=M, N=N, m=m)
    if replicates is not None:
        replicates = check_int(replicates, "replicates", 1)
        for name, val, bad in (("stage_lengths", stage_lengths, isinstance(stage_lengths, str)),
                               ("record_identities", record_identities, record_identities)):
            if bad:
                raise ValueError(f"`replicates` cannot be combined with `{name}`={val!r}: the replicates would "
                                 "switch stages at their own rounds, or need every round's batch; "
                                 "run single runs over spawn_seeds(seed, replicates) instead")
        from .replicates import _run_replicates

        return _run_replicates(replicates, d=d, k=k, M=M, N=N, n0=n0, m=m, sigma=sigma, speeds=speeds, lam=lam,
                               comm_cost=c, schedule=schedule, sizes=sizes, stage_lengths=stage_lengths,
                               rounds=rounds, eta=eta, head_norm=head_norm, design=design, init=init,
                               resample=resample, carry=carry, speed_variant=speed_variant,
                               straggler_fraction=straggler_fraction, eval_every=eval_every, model=model,
                               sampler=sampler, seed=seed, a_stage=a_stage, target=target)

    ss_model, ss_speed, ss_init, ss_run, ss_time, ss_eval = spawn_seeds(seed, 6)
    if model is None:
        model = make_model(d, k, M, sigma=sigma, head_norm=head_norm, design=design, seed=ss_model)
    elif (model.d, model.k, model.n) != (d, k, M):
        raise ValueError(f"`model` has (d, k, M)={(model.d, model.k, model.n)} but the run asks "
                         f"for {(d, k, M)}")
    sp = speeds if isinstance(speeds, SpeedModel) else make_speed_model(
        speeds, M, N, lam=lam, variant=speed_variant, straggler_fraction=straggler_fraction,
        seed=ss_speed)
    eta = srpfl_default_eta(model.W_star) if eta is None else eta
    sampler = resolve_sampler(sampler, model)
    if sampler == "reduced" and record_identities:
        raise ValueError("`record_identities` needs the batches; use sampler='full'")
    rng_init = as_generator(ss_init)
    if init == "mom":  # the N sampled clients send P_i (Alg. 2, lines 2-3); N = M here uses all
        sub = FedRepModel(B_star=model.B_star, W_star=model.W_star[rng_init.choice(M, N, replace=False)],
                          sigma=model.sigma, design=model.design)
        B = mom_init(sub, m, rng_init)
    else:
        B = random_orthonormal(rng_init, d, k)
    rng, rng_t, rng_e = as_generator(ss_run), as_generator(ss_time), as_generator(ss_eval)
    C = c / lam
    dist = [principal_angle_distance(B, model.B_star)]
    E0 = 1.0 - dist[0] ** 2
    clock, parts, stages, a_list, bounds = [0.0], [], [], [], []
    mse = [_exact_mse(model, B, m, rng_e) if eval_every else math.nan]
    ident: dict[str, list] = {}
    if isinstance(stage_lengths, str):
        X_sw = [switch_point(r, a_stage, N, n0, lam, c) for r in range(len(sizes) - 1)]
    r, in_stage, active = 0, 0, None
    for t in range(rounds):
        if target is not None and dist[-1] <= target:
            break
        last = r == len(sizes) - 1
        if not last:  # stage switching
            if isinstance(stage_lengths, str):
                done = (dist[-1] <= X_sw[r]) if r == 0 else in_stage >= math.ceil(
                    stage_rounds(r, a_stage, N, n0, lam))
            else:
                done = in_stage >= stage_lengths[r]
            if done:
                r, in_stage, active = r + 1, 0, None
                if carry == "pre_qr":
                    B = B_bar_prev  # Algorithm 2, line 16 as printed: U <- B_bar (not orthonormal)
        if active is None or resample == "round":
            active = rng.choice(M, size=N, replace=False)
        times = sp.draw(rng_t, active)
        n = sizes[r]
        order = np.argsort(times, kind="stable")
        sel = active[order[:n]]
        round_time = float(times[order[n - 1]]) + C
        B_in = B
        if sampler == "reduced":
            rnd = _round_reduced(B_in, model, sel, m, eta, rng)
        else:
            X, y = model.sample(rng, sel, m)
            rnd = _round_given_batch(B_in, X, y, eta)
        B, B_bar_prev = rnd.B_next, rnd.B_bar
        if record_identities and carry == "qr":
            for key, val in round_decomposition(B_in, X, y, model.B_star, model.W_star[sel], eta,
                                                rnd.B_bar, rnd.R, rnd.w, rnd.B_next).items():
                ident.setdefault(key, []).append(val)
        sv = np.linalg.svd(model.W_star[sel] / math.sqrt(n), compute_uv=False)
        a_t = 0.5 * eta * E0 * (sv[-1] ** 2 if n >= k else 0.0)
        if a_t >= 1:
            raise ValueError(f"the step `eta`={eta:g} gives a_t = eta E0 sigma_min^2/2 = {a_t:.4g} >= 1 at round {t}; "
                             "Theorem 4.7 needs eta <= 1/(8 sigma_max,*^2) (the default)")
        a_list.append(a_t)
        bounds.append(contraction_bound(dist[-1], a_t, n / n0) if a_t > 0 else math.inf)
        dist.append(principal_angle_distance(B, model.B_star))
        clock.append(clock[-1] + round_time)
        parts.append(n)
        stages.append(r)
        mse.append(_exact_mse(model, B, m, rng_e) if eval_every and (t + 1) % eval_every == 0
                   else math.nan)
        in_stage += 1
    if not math.isfinite(clock[-1]):
        raise ValueError(f"the simulated clock overflows float64: `lam`={lam!r} too small or `comm_cost`={c!r} "
                         f"too large (or the `speeds` model's times)")
    params = dict(schedule="SRPFL" if schedule == "doubling" else "FedRep", d=d, k=k, M=M, N=N,
                  n0=n0, m=m, sigma=model.sigma, speeds=sp.kind, speed_params=sp.params, lam=lam,
                  comm_cost=c, stage_lengths=stage_lengths if not isinstance(stage_lengths, list)
                  else list(stage_lengths), a_stage=a_stage, rounds=rounds, target=target, eta=eta,
                  head_norm=model.head_norm, init=init, resample=resample, carry=carry,
                  sampler=sampler, seed=seed_repr(seed))
    return SRPFLResult(dist=np.array(dist), wall_clock=np.array(clock), participants=np.array(parts),
                       stage=np.array(stages), a=np.array(a_list), bound=np.array(bounds),
                       mse=np.array(mse), identities={k_: np.array(v) for k_, v in ident.items()},
                       E0=E0, eta=eta, params=params, model=model)


def fedavg_wallclock(d: int = 50, k: int = 3, M: int = 64, N: int = 64, m: int = 30, sigma: float = 0.5,
                     speeds: str | SpeedModel = "fixed", comm_cost: float = 0.0, *, lam: float = 1.0,
                     rounds: int = 100, eta: float = 0.05, speed_variant: str = "tmlr",
                     straggler_fraction: float = 0.2, model: FedRepModel | None = None, seed: SeedLike = 0):
    """FedAvg (single model, Sec. 5 baselines) on the same simulated clock as :func:`run_srpfl`.

    Runs :func:`fedtheory.representation.run_fedavg` with ``N`` of the ``M`` clients per round and
    charges each round the slowest selected client's time plus ``C = c/lam`` (straggler-prone, like
    FedRep). Returns ``(wall_clock, dist, mse)`` arrays over rounds 0..T, where ``mse`` is the exact
    population test MSE of the single model, ``2 x`` objective (4) including the noise.
    """
    from ..representation.algorithms import run_fedavg

    M = check_int(M, "M", 1)
    N = check_int(N, "N", 1, M, why=f"N must not exceed M={M}")
    lam = check_real(lam, "lam", 0, low_open=True, why="exponential rate")
    comm_cost = check_real(comm_cost, "comm_cost", 0)
    if isinstance(speeds, SpeedModel):
        if speeds.M != M:
            raise ValueError(f"`speeds` is a SpeedModel for M={speeds.M} clients; the run has M={M}")
    else:
        check_choice(speeds, "speeds", SPEEDS)
    check_choice(speed_variant, "speed_variant", ("tmlr", "arxiv"))
    check_real(straggler_fraction, "straggler_fraction", 0, 1)
    if model is not None:
        check_instance(model, "model", FedRepModel)
    ss_model, ss_speed, ss_run, ss_time = spawn_seeds(seed, 4)
    if model is None:
        d = check_int(d, "d", 1)
        k = check_int(k, "k", 1, d, why=f"k must not exceed d={d}")
        check_real(sigma, "sigma", 0, SIGMA_MAX, why="noise standard deviation")
        check_alloc(max(M * d, N * m * d if isinstance(m, int) else 0), "the run's largest array", d=d, M=M, m=m)
        model = make_model(d, k, M, sigma=sigma, seed=ss_model)
    sp = speeds if isinstance(speeds, SpeedModel) else make_speed_model(
        speeds, M, N, lam=lam, variant=speed_variant, straggler_fraction=straggler_fraction, seed=ss_speed)
    log: list = []
    res = run_fedavg(d, k, M, m, N / M, rounds, eta=eta, model=model, m_test=0, selection_log=log, seed=ss_run)
    rng_t = as_generator(ss_time)
    C = comm_cost / lam
    times = np.array([float(np.max(sp.draw(rng_t, sel))) + C for sel in log])
    clock = np.concatenate([[0.0], np.cumsum(times)])
    if not np.all(np.isfinite(clock)):
        raise ValueError(f"the simulated clock overflows float64: `lam`={lam!r} too small or `comm_cost`={comm_cost!r} "
                         f"too large (or the `speeds` model's times)")
    return clock, res.dist, 2 * res.objective


# every public function turns float64 overflows, linear-algebra failures and broadcasting errors
# into ValueErrors naming its parameters (fedtheory._validation.guard_numeric_errors)
_guard_module(globals(), __all__)
