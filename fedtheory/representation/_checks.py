"""Input checks of the exact FedRep runs and rounds, run once at each public entry.

The runs (:func:`~fedtheory.representation.run_fedrep`, :func:`~fedtheory.representation.run_fedavg`)
and the single-round functions of :mod:`fedtheory.representation.rounds` validate their arguments here
before anything is drawn; the batched kernels of :mod:`fedtheory.representation._kernels` and the
engine of :mod:`fedtheory.representation._engine` then take validated arrays and never check them
again (FedRep, Collins, Hassani, Mokhtari and Shakkottai, ICML 2021, Algorithm 2).
"""
from __future__ import annotations

import numpy as np

from .._validation import (check_alloc, check_bool, check_finite_result, check_instance, check_int, check_iterations,
                           check_matrix, check_real)
from .model import SIGMA_MAX, FedRepModel, n_selected
from .results import RoundResult


def _check_predictors(model, theta_hat, clients, noiseless):
    """Validated ``(clients, theta_hat, noiseless)`` of :func:`test_mse` and :func:`test_mse_exact`:
    ``theta_hat`` has one row of length d per client in ``clients`` (default all)."""
    clients = np.arange(model.n) if clients is None else _check_clients(clients, model.n)
    theta_hat = check_matrix(theta_hat, "theta_hat")
    if theta_hat.shape != (clients.size, model.d):
        raise ValueError(f"`theta_hat` must have one row of length d={model.d} per client in `clients` "
                         f"({clients.size} clients): shape {(clients.size, model.d)}; got {theta_hat.shape}")
    return clients, theta_hat, check_bool(noiseless, "noiseless")


def _check_run_size(d, k, n, m, n_sel, rounds, m_test, fresh_batches, *, init="random", m_init=None,
                    head_steps=None, shards=1, sampler="full", local_steps=None, evaluation="sampled"):
    """Refuse, before anything is drawn, a run whose arrays exceed the memory guard or whose loops
    would not finish; the messages name the sizes."""
    sizes = dict(d=d, k=k, n=n)
    check_alloc(max(n * d, d * k, n * k), "the ground truth (the n x d thetas B* w_i*)", **sizes)
    check_alloc(rounds + 1, "the trajectory (rounds + 1 entries)", rounds=rounds)
    if init == "mom":
        check_alloc(max(d * d, min(n, 4096) * (m_init or m) * d), "the method of moments (d x d, and a chunk of "
                    "clients' m_init x d batches; m_init defaults to m)", d=d, m=m, m_init=m_init or m, n=n)
    if sampler != "reduced":
        check_alloc(n_sel * m * d, "one round's batch (rn x m x d)", m=m, d=d, n=n)
    if not fresh_batches:
        check_alloc(n * m * d, "the fixed dataset (n x m x d)", n=n, m=m, d=d)
    if m_test and evaluation == "exact":
        check_alloc(n * m * d, "the evaluation (n x m x d refit samples)", n=n, m=m, d=d)
    elif m_test:
        check_alloc(n * max(m, m_test) * d, "the evaluation (n x m x d training and n x m_test x d test samples)",
                    n=n, m=m, m_test=m_test, d=d)
    check_alloc(shards, "the shard streams", itemsize=400, shards=shards)
    steps = rounds * (head_steps or 1) * (local_steps or 1)
    check_iterations(steps, "the run", rounds=rounds, **({"head_steps": head_steps} if head_steps else {}),
                     **({"local_steps": local_steps} if local_steps else {}))


def _validate_common(d, k, n, m, r, rounds, sigma):
    """The validated sizes ``(d, k, n, m, n_sel, rounds)`` shared by the runs (``n_sel = round(r n)``)."""
    d = check_int(d, "d", 1)
    k = check_int(k, "k", 1, d, why=f"k must not exceed d={d}")
    n = check_int(n, "n", 1)
    n_sel = n_selected(n, r)
    rounds = check_int(rounds, "rounds", 0)
    check_real(sigma, "sigma", 0, SIGMA_MAX, why="noise standard deviation")
    m = check_int(m, "m", 1)
    return d, k, n, m, n_sel, rounds


class _OverflowNames:
    """Context manager: an overflow ``ValueError`` raised inside is re-raised naming the caller's inputs."""

    def __init__(self, *names: str):
        self.names = names

    def __enter__(self):
        return self

    def __exit__(self, typ, exc, tb):
        if typ is not None and issubclass(typ, ValueError) and "overflows float64" in str(exc):
            raise ValueError(f"{exc} (inputs of this call: {', '.join(f'`{n}`' for n in self.names)})") from None
        return False


def _check_model_memory(model: FedRepModel) -> None:
    """``model.sample`` forms the n x d matrix of thetas: refuse it above the memory guard."""
    check_alloc(model.n * model.d, "the n x d thetas B* w_i* of the model", n=model.n, d=model.d)


def _check_clients(clients, n: int) -> np.ndarray:
    """``clients`` as a 1-D integer array of indices in ``[0, n)``."""
    c = check_matrix(clients, "clients", (None,))
    if c.size and (np.any(c != np.round(c)) or c.min() < 0 or c.max() >= n):
        raise ValueError(f"`clients` must hold integer client indices in [0, {n - 1}]; got {clients!r}")
    return c.astype(np.int64)


def _overflow_check(arrays, what: str, *names: str) -> None:
    """A ``ValueError`` naming the inputs if an intermediate of ``what`` overflowed float64."""
    for a in arrays:
        check_finite_result(a, what, *names)


def _check_round(B, model, clients, m, eta, w_init, head_steps, head_lr):
    """Validate the arguments of the fresh-batch round variants; returns ``(B, clients, m, eta, w_init,
    head_steps, head_lr)``."""
    check_instance(model, "model", FedRepModel)
    B = check_matrix(B, "B", (model.d, None))
    if B.shape[1] < 1 or B.shape[1] > model.d:
        raise ValueError(f"`B` must be d x k with 1 <= k <= d={model.d}; got shape {B.shape}")
    clients = _check_clients(clients, model.n)
    if clients.size < 1:
        raise ValueError("`clients` must name at least one client")
    m = check_int(m, "m", 1)
    eta = check_real(eta, "eta", 0)
    w_init, head_steps, head_lr = _check_heads(w_init, head_steps, head_lr, clients.size, B.shape[1], m)
    _check_model_memory(model)
    check_alloc(clients.size * m * (model.d + 2 * B.shape[1]), "the round's batch (clients x m x d)",
                m=m, d=model.d, clients=clients.size)
    return B, clients, m, eta, w_init, head_steps, head_lr


def _check_heads(w_init, head_steps, head_lr, c, k, m):
    """Validated ``(w_init, head_steps, head_lr)`` of a round on ``c`` clients with ``m`` samples each."""
    head_lr = check_real(head_lr, "head_lr", 0, low_open=True)
    if head_steps is None:
        if m < k:
            raise ValueError(f"`m` must be >= k={k} for the exact head solve; got m={m}")
    else:
        head_steps = check_int(head_steps, "head_steps", 1)
        check_iterations(head_steps, "the head's gradient steps", head_steps=head_steps)
    if w_init is not None:
        w_init = check_matrix(w_init, "w_init", (c, k))
    return w_init, head_steps, head_lr


def _check_result(rnd: RoundResult, *names: str) -> RoundResult:
    """``rnd`` after checking that its representation and heads are finite (the round did not overflow)."""
    check_finite_result(rnd.B_next, "the round's representation", *names)
    check_finite_result(rnd.w, "the round's heads", *names)
    return rnd


def _check_replicates(R: int, kept: int, what: str, *, n: int, d: int, k: int, rounds: int) -> None:
    """Refuse a replicate batch whose results (``kept`` floats per replicate: ``what``) exceed the memory
    guard or whose rounds would not finish; the messages name ``replicates``."""
    check_alloc(R * kept, f"the results of the replicates ({what})", replicates=R, n=n, d=d, k=k, rounds=rounds)
    check_iterations(R * (rounds + 1), "the replicate rounds", replicates=R, rounds=rounds)
