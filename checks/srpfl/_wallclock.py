"""Exact expected wall-clock times of FedRep-SRPFL and FedRep runs given their hitting rounds (Tziotis, Shen,
Pedarsani, Hassani and Mokhtari, *Straggler-Resilient Personalized Federated Learning*, TMLR 2023, Sec. 4.2's
clock and App. C's straggler mixtures), shared by :mod:`._appendix_c`
(Figures 7 and 8), :mod:`.thm4_9` and :mod:`.thm4_9_rate`.

A round with n participants costs the n-th smallest compute time plus C. When a run's trajectory does not depend on
the values of the sorted times (heads drawn independently of the times, or depending on their ranks only; i.i.d.
times are independent of their ranks), the expected time to target given the hitting round h is
``E[T | h] = sum_{t<h} (E[X_(n_t:M)] + C)`` (Rao-Blackwell): the claims use it instead of sampling clocks.
"""
from __future__ import annotations

import math

import numpy as np


def first_hit_round(values, target: float) -> np.ndarray:
    """Per row of ``values`` (R, T+1; NaN where not evaluated), the first round h with ``values[h] <= target``,
    or -1 if none."""
    v = np.atleast_2d(np.asarray(values, float))
    with np.errstate(invalid="ignore"):
        hit = v <= target
    return np.where(hit.any(axis=1), np.argmax(hit, axis=1), -1)


def order_statistic_means(M: int, n_slow: int = 0, fast_mean: float = 1.0, slow_mean: float = 1.0) -> np.ndarray:
    """``E[X_(n:M)]`` for n = 1..M: the n-th smallest of M independent exponential compute times, ``n_slow`` of
    mean ``slow_mean`` and ``M - n_slow`` of mean ``fast_mean`` (App. C of Tziotis et al., TMLR 2023: Fig. 8's
    straggler mixtures; with ``n_slow = 0``, Theorem 4.9's i.i.d. Exp(1/fast_mean) times, (H_M - H_{M-n}) fast_mean).

    Exact recursion over the arrivals (memorylessness): with ``a`` fast and ``b`` slow clients done, the next
    arrival comes after an Exp(F lf + S ls) wait (F, S the clients left, lf, ls their rates) and is fast with
    probability F lf/(F lf + S ls); ``E[X_(n:M)]`` is the sum over the first n steps of the mean wait, averaged over
    the law of (a, b) at each step.
    """
    M, n_slow = int(M), int(n_slow)
    if not 0 <= n_slow <= M or M < 1:
        raise ValueError(f"need M >= 1 and 0 <= n_slow <= M; got M={M}, n_slow={n_slow}")
    if not (fast_mean > 0 and slow_mean > 0):
        raise ValueError(f"`fast_mean` and `slow_mean` must be > 0; got {fast_mean}, {slow_mean}")
    F, S = M - n_slow, n_slow
    lf, ls = 1.0 / fast_mean, 1.0 / slow_mean
    prob = np.zeros((F + 2, S + 2))
    prob[0, 0] = 1.0
    out, acc = np.empty(M), 0.0
    for j in range(M):
        a = np.arange(max(0, j - S), min(F, j) + 1)
        b = j - a
        rate = (F - a) * lf + (S - b) * ls
        p = prob[a, b]
        acc += float(np.sum(p / rate))
        out[j] = acc
        p_fast = (F - a) * lf / rate
        prob[a + 1, b] += p * p_fast
        prob[a, b + 1] += p * (1 - p_fast)
    return out


def round_sizes(cfg: dict, schedule: str) -> np.ndarray:
    """Participants per round (``cfg['rounds']`` rounds) of FedRep-SRPFL (``"doubling"``: ``min(N, 2^r n0)`` for
    ``stage_lengths`` rounds per non-final stage, Algorithm 2) or of FedRep (``"all"``: N every round)."""
    N, n0, L, T = cfg["N"], cfg["n0"], cfg["stage_lengths"], cfg["rounds"]
    if schedule == "all":
        return np.full(T, N)
    R = max(0, math.ceil(math.log2(N / n0)))
    sizes = [min(N, n0 * 2 ** r) for r in range(R + 1)]
    per = np.concatenate([np.full(L, s) for s in sizes[:-1]] + [np.full(max(T - L * R, 0), N)])
    return per[:T].astype(int)


def expected_time_to(h, sizes, mu, C: float = 0.0) -> np.ndarray:
    """``E[T | h] = sum_{t < h} (E[X_(n_t:M)] + C)``: the expected wall-clock time of a run that first meets its
    target at round ``h`` (-1: never, inf), given the participants ``sizes`` per round and the order-statistic
    means ``mu`` (:func:`order_statistic_means`). Exact (Rao-Blackwell) whenever the run's trajectory is
    independent of the values of the sorted compute times (Sec. 4.2's clock: a round of n participants costs the
    n-th smallest time plus C)."""
    clock = np.concatenate([[0.0], np.cumsum(np.asarray(mu, float)[np.asarray(sizes, int) - 1] + C)])
    h = np.asarray(h, int)
    return np.where(h >= 0, clock[np.clip(h, 0, clock.size - 1)], math.inf)
