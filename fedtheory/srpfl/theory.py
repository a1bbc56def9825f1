"""Closed forms of SRPFL's analysis (straggler-resilient FedRep).

Sources: Tziotis, Shen, Pedarsani, Hassani, Mokhtari, "Straggler-Resilient
Personalized Federated Learning": TMLR version
(numbers below) and arXiv version (numbers in
brackets). Our own derivations say "(derived)".

Wall-clock model (Sec. 4.2, App. B): a round of stage r costs the n_r-th smallest
of N i.i.d. Exp(lam) compute times plus a communication cost C = c/lam.
All functions broadcast like ``scipy.special``.
"""
from __future__ import annotations

import math

import numpy as np
from scipy.special import digamma

from .._validation import check_finite_array, check_finite_result, check_matrix, check_real
from .._validation import guard_module as _guard_module

__all__ = [
    "harmonic", "expected_order_statistic", "contraction_bound", "noise_floor",
    "floor_recursion", "vacuous_ratio", "target_error", "switch_point", "stage_rounds",
    "progress_ratio", "idealised_wallclock", "lemma_b2_bound", "lemma_b3_bound",
    "theorem49_ratio_bound", "theorem47_probability", "theorem47_m_condition",
    "phase2_rounds_exact", "fedrep_rounds_exact", "round_decomposition",
    "order_statistic_mean_stable", "idealised_times",
]

_EULER = 0.5772156649015329


def _out(x):
    x = np.asarray(x, dtype=float)
    return float(x) if x.ndim == 0 else x


def _f(x, name, low=None, high=None, low_open=False, high_open=False, why=""):
    """A finite float array (scalars and lists accepted), optionally in an interval."""
    return check_finite_array(x, name, low, high, low_open, high_open, why)


def _fin(out, what, **params):
    """``_out(out)`` after checking it is finite (a float64 overflow raises a ValueError naming the inputs)."""
    return _out(check_finite_result(out, what, **params))


def harmonic(n):
    """Harmonic number ``H_n = sum_{i<=n} 1/i`` (``H_0 = 0``), via ``digamma(n+1) + gamma``."""
    n = _f(n, "n")
    if np.any(n < 0):
        raise ValueError(f"`n` must be >= 0; got n={n!r}")
    return _out(np.where(n == 0, 0.0, digamma(n + 1.0) + _EULER))


def expected_order_statistic(j, N, lam=1.0):
    """``E[T_(j:N)]``, the j-th smallest of N i.i.d. Exp(rate ``lam``) times.

    ``E[T_(j:N)] = (H_N - H_{N-j}) / lam = (1/lam) sum_{i=0}^{j-1} 1/(N-i)`` (derived:
    Renyi's representation of exponential spacings; used in SRPFL App. B,
    Tziotis et al., TMLR, eqs. (221)-(228) [arXiv: (213)-(220)]).

    Parameters
    ----------
    j, N : array_like of int
        ``1 <= j <= N``.
    lam : array_like of float
        Rate, > 0 (mean time ``1/lam``).

    Examples
    --------
    With four clients at rate 2 (mean time 1/2), the expected times until the fastest 1, 2, 3, 4
    have answered:

    >>> from fedtheory.srpfl.theory import expected_order_statistic, harmonic
    >>> expected_order_statistic([1, 2, 3, 4], 4, lam=2.0)
    array([0.125     , 0.29166667, 0.54166667, 1.04166667])
    >>> round(harmonic(4) / 2.0, 8)    # the slowest of four: H_4 / lam
    1.04166667
    """
    j, N, lam = _f(j, "j"), _f(N, "N"), _f(lam, "lam")
    if np.any(lam <= 0):
        raise ValueError(f"`lam` must be > 0 (the exponential rate); got lam={lam!r}")
    if np.any(j < 1) or np.any(j > N) or np.any(j != np.round(j)) or np.any(N != np.round(N)):
        raise ValueError("`j` and `N` must be integers with 1 <= j <= N")
    with np.errstate(over="ignore"):
        out = (harmonic(N) - harmonic(N - j)) / lam
    return _fin(out, "E[T_(j:N)]", j=j, N=N, lam=lam)


def _check_a(a):
    a = _f(a, "a")
    if np.any((a <= 0) | (a >= 1)):
        raise ValueError(f"`a` must be in (0, 1) (a = eta E0 sigma_min^2 / 2 <= 1/4); got a={a!r}")
    return a


def contraction_bound(dist, a, n_over_n0):
    """Right side of Theorem 4.7, eq. (10) [arXiv: Thm 4.5, (9)]:
    ``dist * sqrt(1-a) + a / sqrt((n/n0)(1-a))``."""
    a = _check_a(a)
    dist = _f(dist, "dist", 0)
    n_over_n0 = _f(n_over_n0, "n_over_n0", 0, low_open=True)
    return _fin(dist * np.sqrt(1 - a) + a / np.sqrt(n_over_n0 * (1 - a)), "the bound (10)", dist=dist,
                a=a, n_over_n0=n_over_n0)


def noise_floor(a, n_over_n0):
    """Fixed point of (10): ``D = a / (sqrt((n/n0)(1-a)) (1 - sqrt(1-a)))`` (derived; the
    stage-r floor D_r with n/n0 = 2^r; eq. (12) with c_hat = 1, Tziotis et al., TMLR)."""
    a = _check_a(a)
    n_over_n0 = _f(n_over_n0, "n_over_n0", 0, low_open=True)
    return _fin(a / (np.sqrt(n_over_n0 * (1 - a)) * (1 - np.sqrt(1 - a))), "the noise floor", a=a,
                n_over_n0=n_over_n0)


def floor_recursion(d0, a, n_over_n0, t):
    """Closed form of the recursion ``d_{t+1} = sqrt(1-a) d_t + a/sqrt((n/n0)(1-a))``:
    ``d_t = D + (d0 - D)(1-a)^{t/2}`` (derived; Corollary A.11, eq. (198))."""
    D = np.asarray(noise_floor(a, n_over_n0))
    d0 = _f(d0, "d0")
    t = _f(t, "t", 0)
    return _fin(D + (d0 - D) * (1 - np.asarray(a, float)) ** (t / 2), "the recursion's value", d0=d0, a=a,
                n_over_n0=n_over_n0, t=t)


def vacuous_ratio(a):
    """The n/n0 below which the floor is >= 1 (the bound (10) guarantees nothing):
    ``a^2 / ((1-a)(1-sqrt(1-a))^2)`` (derived; about 4 for small a, 4.64 at a = 1/4)."""
    a = _check_a(a)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = a ** 2 / ((1 - a) * (1 - np.sqrt(1 - a)) ** 2)
    return _fin(out, "the vacuous ratio (1 - sqrt(1 - a) rounds to 0 for a this small)", a=a)


def target_error(a, N, n0, c_hat):
    """Target error (12) [arXiv: (11)]: ``eps = c_hat * D_{log2(N/n0)}``, ``1 < c_hat < sqrt 2``."""
    c_hat = _f(c_hat, "c_hat")
    if np.any((c_hat <= 1) | (c_hat >= math.sqrt(2))):
        raise ValueError(f"`c_hat` must be in (1, sqrt(2)) (eq. (12)); got c_hat={c_hat!r}")
    N = _f(N, "N", 0, low_open=True)
    n0 = _f(n0, "n0", 0, low_open=True)
    return _fin(c_hat * np.asarray(noise_floor(a, N / n0)), "the target error", a=a, N=N, n0=n0)


def _c_hat(c_hat):
    c_hat = _f(c_hat, "c_hat")
    if np.any(c_hat <= 1):
        raise ValueError(f"`c_hat` must be > 1 (eq. (12)); got c_hat={c_hat!r}")
    return c_hat


def _stage_args(r, N, n0, lam, r_low=0):
    """Validate the stage index ``r`` (integer >= r_low), ``N``, ``n0`` (integers, 1 <= n0 <= N) and ``lam > 0``."""
    r = _f(r, "r", r_low)
    if np.any(r != np.round(r)):
        raise ValueError(f"`r` must be an integer stage index; got r={r!r}")
    N = _f(N, "N", 1)
    n0 = _f(n0, "n0", 1)
    if np.any(N != np.round(N)) or np.any(n0 != np.round(n0)) or np.any(n0 > N):
        raise ValueError(f"`N` and `n0` must be integers with 1 <= n0 <= N; got N={N!r}, n0={n0!r}")
    lam = _f(lam, "lam", 0, low_open=True)
    return r, N, n0, lam


def _stage_time(r, N, n0, lam):
    with np.errstate(over="ignore"):
        n = np.minimum(np.asarray(N, float), np.asarray(n0, float) * 2.0 ** np.asarray(r, float))
    return expected_order_statistic(n, N, lam)


def progress_ratio(dist, a, r, N, n0, lam=1.0, c=0.0):
    """Progress per unit time at stage r, eq. (200): ``(dist - dist sqrt(1-a) - a/sqrt(2^r (1-a)))
    / (E[T_{n0 2^r}] + C)`` with ``C = c/lam`` (numerator corrected from the printed
    ``dist^+ - ...``; Lemma B.1, Tziotis et al., TMLR)."""
    a = _check_a(a)
    r, N, n0, lam = _stage_args(r, N, n0, lam)
    dist = _f(dist, "dist", 0)
    c = _f(c, "c", 0)
    with np.errstate(over="ignore"):
        num = dist * (1 - np.sqrt(1 - a)) - a / np.sqrt(2.0 ** r * (1 - a))
    return _fin(num / (np.asarray(_stage_time(r, N, n0, lam)) + c / lam), "the progress ratio", dist=dist,
                a=a, r=r, N=N, n0=n0, lam=lam, c=c)


def switch_point(r, a, N, n0, lam=1.0, c=0.0):
    """Lemma B.1, eq. (206): the distance ``X_{r+1}`` at which stage r+1 (twice the nodes)
    makes more progress per unit time than stage r.

    ``X_{r+1} = D_r (1 + (E[T_{n0 2^r}] + C)(1 - 1/sqrt 2) / (E[T_{n0 2^{r+1}}] - E[T_{n0 2^r}]))``.

    Defined for the stages that have a successor, ``0 <= r`` and ``n0 2^r < N`` (a ``ValueError``
    otherwise: the denominator vanishes).
    """
    a = _check_a(a)
    r, N, n0, lam = _stage_args(r, N, n0, lam)
    c = _f(c, "c", 0)
    if np.any(n0 * 2.0 ** np.minimum(r, 1100) >= N):
        raise ValueError(f"`r` must name a stage with a successor (n0 2^r < N, N={N!r}, n0={n0!r}); got r={r!r}")
    Er, Er1 = np.asarray(_stage_time(r, N, n0, lam)), np.asarray(_stage_time(np.asarray(r) + 1, N, n0, lam))
    C = np.asarray(c, float) / np.asarray(lam, float)
    Dr = np.asarray(noise_floor(a, 2.0 ** np.asarray(r, float)))
    return _fin(Dr * (1 + (Er + C) * (1 - 1 / math.sqrt(2)) / (Er1 - Er)), "the switch point", a=a, r=r, N=N,
                n0=n0, lam=lam, c=c)


def stage_rounds(r, a, N, n0, lam=1.0):
    """Lemma B.1, eq. (203)/(214): rounds of stage r (1 <= r < log2(N/n0)),
    ``t^r = 2 log( sqrt2 (E[T_{n0 2^{r+1}}] - E[T_{n0 2^r}]) / (E[T_{n0 2^r}] - E[T_{n0 2^{r-1}}]) ) / log(1/(1-a))``.

    (Derived:) iterating the stage-r recursion from ``X_r`` for ``t^r`` rounds lands exactly
    on ``X_{r+1}``, and ``t^r`` does not depend on C. Any log base (it cancels).
    Defined for ``1 <= r`` with ``n0 2^r < N`` (a ``ValueError`` otherwise).
    """
    a = _check_a(a)
    r, N, n0, lam = _stage_args(r, N, n0, lam, r_low=1)
    if np.any(n0 * 2.0 ** np.minimum(r, 1100) >= N):
        raise ValueError(f"`r` must satisfy 1 <= r < log2(N/n0) (N={N!r}, n0={n0!r}); got r={r!r}")
    E = lambda q: np.asarray(_stage_time(q, N, n0, lam))  # noqa: E731
    ratio = math.sqrt(2) * (E(r + 1) - E(r)) / (E(r) - E(r - 1))
    return _fin(2 * np.log(ratio) / np.log(1 / (1 - a)), "the stage length", a=a, r=r, N=N, n0=n0, lam=lam)


def theorem47_probability(T, d, k, N):
    """Success probability of Theorem 4.7: ``1 - T exp(-90 min(d, k^2 log N))`` (natural log)."""
    T, d, k, N = _f(T, "T", 0), _f(d, "d", 1), _f(k, "k", 1), _f(N, "N", 1)
    return _fin(np.maximum(1 - T * np.exp(-90 * np.minimum(d, k ** 2 * np.log(N))), 0.0), "the probability",
                T=T, d=d, k=k, N=N)


def theorem47_m_condition(k, d, N, n0, kappa, E0, sigma, c0=1.0):
    """Theorem 4.7's batch size: ``m >= c0 (1+sigma^2) k^3 kappa^4 / E0^2 * max(log N, d/n0)``."""
    k, d, N, n0 = _f(k, "k", 1), _f(d, "d", 1), _f(N, "N", 1), _f(n0, "n0", 0, low_open=True)
    kappa, E0, sigma = _f(kappa, "kappa", 1), _f(E0, "E0", 0, 1, low_open=True), _f(sigma, "sigma", 0)
    c0 = check_real(c0, "c0", 0, low_open=True)
    return _fin(c0 * (1 + sigma ** 2) * k ** 3 * kappa ** 4 / E0 ** 2 * np.maximum(np.log(N), d / n0),
                "the batch-size condition", k=k, d=d, N=N, n0=n0, kappa=kappa, E0=E0, sigma=sigma, c0=c0)


def phase2_rounds_exact(a, N, n0, c_hat, lam=1.0, c=0.0):
    """(Derived) rounds of the last stage from ``X_{log2(N/n0)}`` down to the target (12):
    ``2 ln((sqrt2 (1+rho) - 1)/(c_hat - 1)) / ln(1/(1-a))`` with
    ``rho = (E[T_{N/2}] + C)(1 - 1/sqrt2) / (E[T_N] - E[T_{N/2}])``."""
    a = _check_a(a)
    N = _f(N, "N", 2, why="the last stage halves N")
    _f(n0, "n0", 0, low_open=True)
    c_hat = _c_hat(c_hat)
    lam = _f(lam, "lam", 0, low_open=True)
    c = _f(c, "c", 0)
    EN = np.asarray(expected_order_statistic(N, N, lam))
    EN2 = np.asarray(expected_order_statistic(np.asarray(N) // 2, N, lam))
    rho = (EN2 + c / lam) * (1 - 1 / math.sqrt(2)) / (EN - EN2)
    return _fin(2 * np.log((math.sqrt(2) * (1 + rho) - 1) / (c_hat - 1)) / np.log(1 / (1 - a)),
                "the phase-2 rounds", a=a, N=N, c_hat=c_hat, lam=lam, c=c)


def fedrep_rounds_exact(a, N, n0, c_hat, d0=1.0):
    """(Derived) rounds FedRep (all N nodes) needs from ``d0`` to the target (12):
    ``2 ln((d0 - D)/((c_hat - 1) D)) / ln(1/(1-a))`` with ``D = D_{log2(N/n0)}``. NaN where
    ``d0 <= D`` (the start is already below the floor: no number of rounds is defined)."""
    a = _check_a(a)
    N = _f(N, "N", 0, low_open=True)
    n0 = _f(n0, "n0", 0, low_open=True)
    c_hat = _c_hat(c_hat)
    d0 = _f(d0, "d0", 0)
    D = np.asarray(noise_floor(a, N / n0))
    with np.errstate(invalid="ignore", divide="ignore"):
        out = 2 * np.log((d0 - D) / ((c_hat - 1) * D)) / np.log(1 / (1 - a))
    return _out(out)


def idealised_wallclock(N, n0, a, c_hat, lam=1.0, c=0.0, d0=1.0, schedule="srpfl",
                        max_rounds=10_000_000):
    """Exact idealised wall-clock time to reach the target (12) (derived, App. B model).

    The scalar recursion of (10) is run round by round from ``d0`` with exact
    order-statistic means: SRPFL (``schedule="srpfl"``) uses stage r while
    ``dist > X_{r+1}`` (Lemma B.1's optimal switching) and pays
    ``E[T_(n_r:N)] + C`` per round; FedRep (``"fedrep"``) uses all N nodes and pays
    ``E[T_(N:N)] + C``. Returns ``(time, rounds, rounds_per_stage)``.
    Scalar arguments only.
    """
    from .._validation import check_int

    N = check_int(N, "N", 2)
    n0 = check_int(n0, "n0", 1, N, why=f"1 <= n0 <= N={N}")
    check_real(c_hat, "c_hat", 1, math.sqrt(2), low_open=True, high_open=True, why="eq. (12)")
    a = float(_check_a(a))
    check_real(lam, "lam", 0, low_open=True)
    check_real(c, "c", 0)
    d0 = check_real(d0, "d0", 0, low_open=True)
    from .._validation import check_choice

    check_choice(schedule, "schedule", ("srpfl", "fedrep"))
    max_rounds = check_int(max_rounds, "max_rounds", 1)
    R = int(round(math.log2(N / n0)))
    if n0 * 2 ** R != N:
        raise ValueError(f"`N`/`n0` must be a power of 2 for the stage structure; got N={N}, n0={n0}")
    eps = target_error(a, N, n0, c_hat)
    s = math.sqrt(1 - a)
    C = c / lam
    d, time, rounds = float(d0), 0.0, 0
    per_stage = [0] * (R + 1)
    r = 0 if schedule == "srpfl" else R
    X = [switch_point(q, a, N, n0, lam, c) for q in range(R)] + [0.0]
    while d > eps:
        while schedule == "srpfl" and r < R and d <= X[r]:
            r += 1
        n_over = 2.0 ** r
        cost = expected_order_statistic(min(N, n0 * 2 ** r), N, lam) + C
        # all rounds until the next switch (or the target) at once: closed form of the recursion
        D = a / (math.sqrt(n_over * (1 - a)) * (1 - s))
        stop = max(X[r] if (schedule == "srpfl" and r < R) else eps, eps)
        if d - D <= 0 or stop <= D:
            raise ValueError(f"the recursion cannot reach {stop:.4g} at stage {r} (floor {D:.4g})")
        t = max(1, math.ceil(math.log((stop - D) / (d - D)) / math.log(s)))
        d = D + (d - D) * s ** t
        time += t * cost
        rounds += t
        per_stage[r] += t
        if rounds > max_rounds:
            raise ValueError("idealised run exceeded `max_rounds`")
    return time, rounds, per_stage


def _log(x, base):
    return np.log(x) / math.log(base)


def _bound_args(N, c_hat, lam, c, log_base):
    """Validate the arguments of Lemmas B.2-B.3 and Theorem 4.9: ``N >= 1``, ``c_hat > 1``, ``lam > 0``,
    ``c >= 0`` (finite arrays) and a ``log_base > 0``, ``!= 1``."""
    N = _f(N, "N", 1)
    c_hat = _c_hat(c_hat)
    lam = _f(lam, "lam", 0, low_open=True)
    c = _f(c, "c", 0)
    log_base = check_real(log_base, "log_base", 0, low_open=True)
    if log_base == 1:
        raise ValueError("`log_base` must be > 0 and != 1; got log_base=1.0")
    return N, c_hat, lam, c, log_base


def lemma_b2_bound(N, a, c_hat, lam=1.0, c=0.0, log_base=math.e):
    """Lemma B.2, eq. (217): ``E[T_SRPFL] <= log N (6(c+1) + 4 log(1/(c_hat-1))) / log(1/(1-a)) / lam``.

    ``log_base`` applies to every log in the formula (the paper mixes bases; see
    the claim ``srpfl.lemB2.log-base``).
    """
    a = _check_a(a)
    N, c_hat, lam, c, log_base = _bound_args(N, c_hat, lam, c, log_base)
    L = _log(1 / (c_hat - 1), log_base)
    return _fin(_log(N, log_base) * (6 * (c + 1) + 4 * L) / _log(1 / (1 - a), log_base) / lam,
                "the bound (217)", N=N, a=a, c_hat=c_hat, lam=lam, c=c)


def lemma_b3_bound(N, a, c_hat, lam=1.0, log_base=math.e):
    """Lemma B.3, eq. (248): ``E[T_FedRep] >= log N (log N + 2 log(1/(c_hat-1))) / log(1/(1-a)) / lam``."""
    a = _check_a(a)
    N, c_hat, lam, _, log_base = _bound_args(N, c_hat, lam, 0.0, log_base)
    L = _log(1 / (c_hat - 1), log_base)
    lN = _log(N, log_base)
    return _fin(lN * (lN + 2 * L) / _log(1 / (1 - a), log_base) / lam, "the bound (248)", N=N, a=a,
                c_hat=c_hat, lam=lam)


def theorem49_ratio_bound(N, c_hat, c=0.0, log_base=math.e):
    """Theorem 4.9 [arXiv: 4.6], eq. (256): ``E[T_SRPFL]/E[T_FedRep] <= (6(c+1) + 4L) / (log N + 2L)``,
    ``L = log(1/(c_hat - 1))``."""
    N, c_hat, _, c, log_base = _bound_args(N, c_hat, 1.0, c, log_base)
    L = _log(1 / (c_hat - 1), log_base)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = (6 * (c + 1) + 4 * L) / (_log(N, log_base) + 2 * L)
    return _fin(out, "the ratio bound (256)", N=N, c_hat=c_hat, c=c)


def round_decomposition(B_hat, X, y, B_star, W_star_sel, eta, B_bar, R, w, B_next):
    """Appendix A quantities of one exact round (Tziotis et al., TMLR; [arXiv] shifts numbers).

    Given the round's orthonormal input ``B_hat``, batches ``X`` (n, m, d), labels ``y``
    (n, m), the participating clients' true heads ``W_star_sel`` (n, k), and the round's
    output (pre-QR ``B_bar`` = B^+, ``R``, heads ``w``, ``B_next`` = B_hat^+), returns:

    ``lemmaA2_residual``
        ``max_i ||w_i^+ - (B_hat^T B* w_i* + F_i + G_i)||`` with F_i, G_i of (24)-(25): 0 up to rounding.
    ``eq142_residual``
        ``||B^+ - (B_hat - eta/n S + eta/n E)||`` with S (140), E (141).
    ``eq111_residual``
        ``||B*_perp^T B^+ - (three terms of (111))||``.
    ``eq116_lhs``, ``eq116_rhs``
        ``dist(B_hat^+, B*)`` and ``(A1 + A2 + A3) ||(R^+)^{-1}||`` (116), A1-A3 of (113)-(115).
    ``eq149_lhs``, ``eq149_rhs_printed``, ``eq149_rhs_corrected``
        ``sigma_min^2(R^+)`` and ``1 - R1 - R2 - R3``. Printed R3 = (eta/n) lambda_max(B_hat^T E
        + E^T B_hat); since the expansion of ``B^+T B^+`` contains ``+(eta/n)(B_hat^T E + E^T B_hat)``,
        the valid term is ``(eta/n) lambda_max(-(B_hat^T E + E^T B_hat))`` (corrected).
    """
    X = check_matrix(X, "X", (None, None, None))
    n, m, d = X.shape
    B_hat = check_matrix(B_hat, "B_hat", (d, None))
    k = B_hat.shape[1]
    y = check_matrix(y, "y", (n, m))
    B_star = check_matrix(B_star, "B_star", (d, None))
    W_star_sel = check_matrix(W_star_sel, "W_star_sel", (n, B_star.shape[1]))
    eta = check_real(eta, "eta", 0)
    B_bar = check_matrix(B_bar, "B_bar", (d, k))
    R = check_matrix(R, "R", (k, k))
    w = check_matrix(w, "w", (n, k))
    B_next = check_matrix(B_next, "B_next", (d, k))
    try:
        out = _round_decomposition(B_hat, X, y, B_star, W_star_sel, eta, B_bar, R, w, B_next)
    except np.linalg.LinAlgError as exc:
        raise ValueError(f"linear algebra failed in the decomposition ({exc}): the Gram matrices (1/m) B_hat^T "
                         f"X_i^T X_i B_hat (from `X`, `B_hat`) and `R` must be invertible, and `y`, `B_star`, "
                         f"`W_star_sel`, `B_bar`, `w`, `B_next`, `eta` of moderate magnitude") from None
    return check_finite_result(out, "the Appendix A quantities", "X", "y", "B_hat", "B_star", "W_star_sel",
                               "B_bar", "R", "w", "B_next", eta=eta)


def _round_decomposition(B_hat, X, y, B_star, W_star_sel, eta, B_bar, R, w, B_next):
    from ..linalg import orthogonal_complement, principal_angle_distance

    n, m, d = X.shape
    k = B_hat.shape[1]
    theta = W_star_sel @ B_star.T  # (n, d)
    Z = y - np.einsum("nmd,nd->nm", X, theta)
    A = X @ B_hat  # (n, m, k)
    Gm = np.swapaxes(A, 1, 2) @ A / m  # (1/m) B^T X^T X B
    XBs = X @ B_star
    cross = np.swapaxes(A, 1, 2) @ XBs / m  # (1/m) B^T X^T X B*
    P = B_hat.T @ B_star
    F = np.linalg.solve(Gm, np.einsum("nkl,nl->nk", cross - Gm @ P, W_star_sel)[..., None])[..., 0]
    G = np.linalg.solve(Gm, (np.einsum("nmk,nm->nk", A, Z) / m)[..., None])[..., 0]
    a2 = np.max(np.linalg.norm(w - (W_star_sel @ P.T + F + G), axis=1))
    q = w @ B_hat.T - theta  # (n, d): B_hat w_i - B* w_i*
    XtXq = np.einsum("nmd,nm->nd", X, np.einsum("nmd,nd->nm", X, q)) / m
    S = XtXq.T @ w
    E = (np.einsum("nmd,nm->nd", X, Z) / m).T @ w
    r142 = np.linalg.norm(B_bar - (B_hat - eta / n * S + eta / n * E))
    perp = orthogonal_complement(B_star)
    WW = w.T @ w
    t1 = perp.T @ B_hat @ (np.eye(k) - eta / n * WW)
    t2 = eta / n * perp.T @ E
    t3 = -eta / n * perp.T @ ((XtXq - q).T @ w)
    r111 = np.linalg.norm(perp.T @ B_bar - (t1 + t2 + t3))
    dist = principal_angle_distance(B_hat, B_star)
    A1 = dist * np.linalg.norm(np.eye(k) - eta / n * WW, 2)
    A2, A3 = np.linalg.norm(t2, 2), np.linalg.norm(t3, 2)
    Rinv = np.linalg.norm(np.linalg.inv(R), 2)
    lhs116 = principal_angle_distance(B_next, B_star)
    sym = lambda M_: 0.5 * (M_ + M_.T)  # noqa: E731
    R1 = eta / n * np.linalg.eigvalsh(sym(B_hat.T @ S + S.T @ B_hat))[-1]
    R2 = eta ** 2 / n ** 2 * np.linalg.eigvalsh(sym(E.T @ S + S.T @ E))[-1]
    BE = sym(B_hat.T @ E + E.T @ B_hat)
    R3p = eta / n * np.linalg.eigvalsh(BE)[-1]
    R3c = eta / n * np.linalg.eigvalsh(-BE)[-1]
    smin2 = np.linalg.svd(R, compute_uv=False)[-1] ** 2
    return {"lemmaA2_residual": float(a2), "eq142_residual": float(r142),
            "eq111_residual": float(r111), "eq116_lhs": float(lhs116),
            "eq116_rhs": float((A1 + A2 + A3) * Rinv), "eq149_lhs": float(smin2),
            "eq149_rhs_printed": float(1 - R1 - R2 - R3p),
            "eq149_rhs_corrected": float(1 - R1 - R2 - R3c)}


#: below this argument the digamma differences of :func:`order_statistic_mean_stable` are summed directly
_PSI_DIRECT = 64


def _psi_diff_large(x1: int, x2: int) -> float:
    """``psi(x1) - psi(x2)`` for integers ``x1 >= x2 >= 64`` (asymptotic series, every term formed as a
    difference without cancellation; truncation error below 1e-18 relative)."""
    j = x1 - x2
    f1, f2 = float(x1), float(x2)
    r = float(j) / f2  # j / x2, exact to rounding even when x1, x2 exceed 2^53
    out = math.log1p(r)
    # psi(x) = ln x - 1/(2x) - 1/(12x^2) + 1/(120x^4) - 1/(252x^6) + 1/(240x^8) - ...
    inv_diff = -(float(j) / f1) / f2  # 1/x1 - 1/x2
    out -= 0.5 * inv_diff
    if f2 >= 1e6:  # only the 1/x^2 term is above 1e-20 relative: (1/x1^2 - 1/x2^2) = inv_diff (1/x1 + 1/x2)
        return out - inv_diff * (1 / f1 + 1 / f2) / 12
    for coef, p in ((-1 / 12, 2), (1 / 120, 4), (-1 / 252, 6), (1 / 240, 8)):
        out += coef * (f1 ** -p - f2 ** -p)
    return out


def order_statistic_mean_stable(j, N, lam=1.0) -> float:
    """``E[T_(j:N)] = (1/lam) sum_{i=0}^{j-1} 1/(N-i)`` to relative accuracy ~1e-15 for any integers
    ``1 <= j <= N`` (Python ints, N up to ~1e300).

    Same quantity as :func:`expected_order_statistic` (i.i.d. Exp(lam) times; Tziotis et al., TMLR,
    App. B, eqs. (221)-(228)), which forms ``H_N - H_{N-j}`` and so loses all relative accuracy when
    ``j << N`` at large N (e.g. ``j = 4``, ``N = 2^60``). Here the sum is formed as
    ``psi(N+1) - psi(N-j+1)`` with the digamma asymptotic series written as differences, and summed
    directly below the argument 64. Scalars only.

    Parameters
    ----------
    j, N : int
        ``1 <= j <= N``.
    lam : float
        Exponential rate, > 0.
    """
    from .._validation import check_int

    N = check_int(N, "N", 1)
    j = check_int(j, "j", 1, N, why=f"1 <= j <= N={N}")
    lam = check_real(lam, "lam", 0, low_open=True, why="exponential rate")
    return _osm(j, N, lam)


def _osm(j: int, N: int, lam: float) -> float:
    """:func:`order_statistic_mean_stable` without the input validation."""
    x1, x2 = N + 1, N - j + 1
    if x2 >= _PSI_DIRECT:
        out = _psi_diff_large(x1, x2)
    elif x1 <= _PSI_DIRECT:
        out = math.fsum(1.0 / i for i in range(x2, x1))
    else:
        out = math.fsum(1.0 / i for i in range(x2, _PSI_DIRECT)) + _psi_diff_large(x1, _PSI_DIRECT)
    return out / lam


def idealised_times(N, n0, a, c_hat, lam=1.0, c=0.0, d0=1.0, max_rounds=10 ** 12):
    """Exact idealised wall-clock times of SRPFL and FedRep for any power-of-two ``N/n0`` (derived,
    Tziotis et al., TMLR, App. B model, Lemma B.1's switching; the setting of Theorem 4.9).

    The computation of :func:`idealised_wallclock` (the scalar recursion of (10) run from ``d0`` to the
    target (12), whole runs of rounds between switches in closed form) with the order-statistic means
    of :func:`order_statistic_mean_stable`, so that it stays accurate for N up to about 2^1000 (the
    asymptotic regime of Theorem 4.9). Agrees with :func:`idealised_wallclock` where the latter is
    accurate (N <= 2^16).

    Parameters
    ----------
    N, n0 : int
        ``1 <= n0 < N`` with ``N/n0`` a power of 2.
    a : float
        In (0, 1).
    c_hat : float
        In (1, sqrt 2) (eq. (12)).
    lam, c, d0 : float
        Rate > 0, communication ratio ``c >= 0`` (``C = c/lam``), start distance > 0.
    max_rounds : int

    Returns
    -------
    dict
        ``T_srpfl``, ``T_fedrep`` (times), ``rounds_srpfl`` (per stage, list), ``rounds_fedrep``.
    """
    from .._validation import check_int

    N = check_int(N, "N", 2)
    n0 = check_int(n0, "n0", 1, N - 1, why=f"1 <= n0 < N={N}")
    R = (N // n0).bit_length() - 1
    if n0 * 2 ** R != N:
        raise ValueError(f"`N`/`n0` must be a power of 2 for the stage structure; got N={N}, n0={n0}")
    check_real(c_hat, "c_hat", 1, math.sqrt(2), low_open=True, high_open=True, why="eq. (12)")
    a = float(_check_a(a))
    lam = check_real(lam, "lam", 0, low_open=True)
    c = check_real(c, "c", 0)
    d0 = check_real(d0, "d0", 0, low_open=True)
    max_rounds = check_int(max_rounds, "max_rounds", 1)
    s = math.sqrt(1 - a)
    C = c / lam
    E = [_osm(n0 * 2 ** r, N, lam) for r in range(R + 1)]
    D = [a / (math.sqrt(2.0 ** r * (1 - a)) * (1 - s)) for r in range(R + 1)]
    eps = c_hat * D[R]
    X = [D[r] * (1 + (E[r] + C) * (1 - 1 / math.sqrt(2)) / (E[r + 1] - E[r])) for r in range(R)] + [0.0]

    def run(stages):
        d, time, per = d0, 0.0, [0] * (R + 1)
        i = 0
        while d > eps:
            while i < len(stages) - 1 and d <= X[stages[i]]:
                i += 1
            r = stages[i]
            stop = max(X[r] if i < len(stages) - 1 else eps, eps)
            if d - D[r] <= 0 or stop <= D[r]:
                raise ValueError(f"the recursion cannot reach {stop:.4g} at stage {r} (floor {D[r]:.4g})")
            t = max(1, math.ceil(math.log((stop - D[r]) / (d - D[r])) / math.log(s)))
            d = D[r] + (d - D[r]) * s ** t
            time += t * (E[r] + C)
            per[r] += t
            if sum(per) > max_rounds:
                raise ValueError("idealised run exceeded `max_rounds`")
        return time, per

    ts, ps = run(list(range(R + 1)))
    tf, pf = run([R])
    return {"T_srpfl": ts, "T_fedrep": tf, "rounds_srpfl": ps, "rounds_fedrep": pf[R]}


# every public function turns float64 overflows, linear-algebra failures and broadcasting errors
# into ValueErrors naming its parameters (fedtheory._validation.guard_numeric_errors)
_guard_module(globals(), __all__)
