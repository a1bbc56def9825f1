"""Small helpers shared by the catalogue modules."""
from __future__ import annotations

import numpy as np

from fedtheory.claims import ERRATUM, FAILS, HOLDS, INCONCLUSIVE

#: Significance level of every statistical decision of one claim (after Bonferroni within the
#: claim). With 225 claims (not all of them random), the family-wise false-alarm rate of one
#: ``fedtheory verify`` run is at most about 225 x 1e-4 = 2.3% (union bound).
CLAIM_LEVEL = 1e-4


def equality_verdict(discrepancy: float, tol: float, what: str, observed=None, bound=None,
                     params=None) -> dict:
    """Verdict for an identity checked to floating-point tolerance."""
    status = HOLDS if discrepancy <= tol else FAILS
    return dict(status=status,
                observed=observed if observed is not None else {"max_discrepancy": discrepancy},
                bound=bound if bound is not None else {"tolerance": tol},
                evidence=f"{what}: largest discrepancy {discrepancy:.3g} "
                         f"{'<=' if status == HOLDS else '>'} tolerance {tol:.1g}",
                params=params or {})


def agreement_verdict(est, value, what: str, params=None, max_abs_z: float | None = None) -> dict:
    """Verdict for a Monte Carlo estimate compared with a closed form.

    Two-sided z test at the claim level :data:`CLAIM_LEVEL`; vector estimates use a Bonferroni
    correction over the entries: the claim holds if every entry's |z| is below the two-sided
    normal quantile at ``1 - CLAIM_LEVEL/(2 n_entries)``; it fails otherwise.
    """
    from scipy import stats

    z = np.atleast_1d(np.abs(est.z_score(value)))
    n_entries = z.size
    if not np.all(np.isfinite(z)):
        return dict(status=FAILS, observed={"z": z.tolist()}, bound=None,
                    evidence=f"{what}: non-finite z score (NaN or inf in the estimate or the closed form)",
                    params=params or {})
    crit = stats.norm.ppf(1 - CLAIM_LEVEL / (2 * n_entries)) if max_abs_z is None else max_abs_z
    zmax = float(np.max(z))
    status = HOLDS if zmax <= crit else FAILS
    mean = np.asarray(est.mean)
    observed = ({"estimate": float(mean), "se": float(est.se), "ci": [float(est.ci_low), float(est.ci_high)],
                 "n": est.n} if mean.ndim == 0 else {"max_abs_z": zmax, "n": est.n,
                                                      "entries": n_entries})
    bound = float(value) if np.ndim(value) == 0 else {"closed_form_entries": int(np.size(value))}
    return dict(status=status, observed=observed, bound=bound,
                evidence=f"{what}: max |z| = {zmax:.2f} vs critical {crit:.2f} "
                         f"(level {CLAIM_LEVEL:g}, Bonferroni over {n_entries}), n={est.n}",
                params=params or {})


def erratum_verdict(printed_holds: bool, corrected_holds: bool, printed, corrected,
                    evidence: str, params=None, *, referee: str = "") -> dict:
    """Verdict for a suspected erratum: printed form vs corrected form.

    ``referee`` names the independent computation (Monte Carlo, brute force, exact
    arithmetic, sympy, an exact run) that decided which form is right; both ``printed_holds``
    and ``corrected_holds`` must come from it, never from comparing the two formulas with each
    other. Printed fails and corrected holds: ``erratum-confirmed``; both hold: ``holds`` (the
    printed form is fine after all); corrected fails: ``fails``.
    """
    if not printed_holds and corrected_holds:
        status = ERRATUM
    elif printed_holds and corrected_holds:
        status = HOLDS  # the printed form is fine after all
    elif not corrected_holds:
        status = FAILS
    else:
        status = INCONCLUSIVE
    return dict(status=status, observed={"printed": printed, "corrected": corrected},
                bound={"printed_holds": printed_holds, "corrected_holds": corrected_holds},
                evidence=evidence, params=params or {}, referee=referee)


def binomial_trials_needed(p0: float, p1: float, level: float = CLAIM_LEVEL, power: float = 0.8, n_max: int = 10**7) -> int:
    """Smallest number of trials for which the one-sided exact binomial test of
    H0: P <= p0 at ``level`` rejects with probability >= ``power`` when the true rate is ``p1``
    (``p1 > p0``). Used for the power statements of ``inconclusive`` verdicts."""
    from scipy import stats

    if not 0 <= p0 < p1 <= 1:
        raise ValueError(f"need 0 <= p0 < p1 <= 1; got p0={p0}, p1={p1}")

    def pw(n):
        k = int(stats.binom.isf(level, n, p0)) + 1  # smallest k with P(X >= k | p0) <= level
        while k > 0 and stats.binom.sf(k - 2, n, p0) <= level:
            k -= 1
        return stats.binom.sf(k - 1, n, p1)

    n = 1
    while pw(n) < power:
        n *= 2
        if n > n_max:
            return n_max
    lo, hi = n // 2, n
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if pw(mid) < power else (lo, mid)
    return hi


def binomial_verdict(violations: int, trials: int, p_allowed: float, *, what: str, level: float = CLAIM_LEVEL,
                     params=None, observed=None, bound=None) -> dict:
    """Verdict for "the event fails with probability at most ``p_allowed``" (a theorem's failure
    probability) from ``violations`` failures in ``trials`` independent trials.

    One-sided exact binomial test of H0: P(violation) <= p_allowed (``scipy.stats.binomtest``,
    ``alternative="greater"``) at ``level``: rejected -> ``fails``; otherwise ``holds``. The
    evidence carries the Clopper-Pearson interval of the violation rate and the number of trials
    that would detect a violation rate of ``max(2 p_allowed, p_allowed + 0.05)`` with power 0.8.
    """
    from scipy import stats

    if trials < 1 or not 0 <= violations <= trials:
        raise ValueError(f"need 0 <= violations <= trials, trials >= 1; got {violations}/{trials}")
    res = stats.binomtest(int(violations), int(trials), p_allowed, alternative="greater")
    ci = stats.binomtest(int(violations), int(trials)).proportion_ci(confidence_level=1 - level, method="exact")
    status = FAILS if res.pvalue < level else HOLDS
    p1 = min(1.0, max(2 * p_allowed, p_allowed + 0.05))
    need = binomial_trials_needed(p_allowed, p1, level) if p1 > p_allowed else trials
    return dict(status=status,
                observed=observed if observed is not None else
                {"violations": int(violations), "trials": int(trials), "rate": violations / trials,
                 "ci": [float(ci.low), float(ci.high)]},
                bound=bound if bound is not None else {"p_allowed": p_allowed, "level": level},
                evidence=f"{what}: {violations}/{trials} violations (exact {100 * (1 - level):g}% CI "
                         f"[{ci.low:.3g}, {ci.high:.3g}]) vs allowed rate {p_allowed:.3g}; one-sided exact "
                         f"binomial p-value {res.pvalue:.3g} {'<' if status == FAILS else '>='} {level:g}; "
                         f"{need} trials detect a rate of {p1:.3g} with power 0.8",
                params=params or {})
