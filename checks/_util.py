"""Small helpers shared by the catalogue modules."""
from __future__ import annotations

import numpy as np

from fedtheory.claims import ERRATUM, FAILS, HOLDS, INCONCLUSIVE


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

    Vector estimates use a Bonferroni correction over the entries: the claim
    holds if every entry's |z| is below the two-sided quantile at
    ``1 - (1 - confidence)/n_entries``; it fails otherwise.
    """
    from scipy import stats

    z = np.atleast_1d(np.abs(est.z_score(value)))
    n_entries = z.size
    crit = stats.norm.ppf(1 - (1 - est.confidence) / (2 * n_entries)) if max_abs_z is None else max_abs_z
    zmax = float(np.max(z))
    status = HOLDS if zmax <= crit else FAILS
    mean = np.asarray(est.mean)
    observed = ({"estimate": float(mean), "se": float(est.se), "ci": [float(est.ci_low), float(est.ci_high)],
                 "n": est.n} if mean.ndim == 0 else {"max_abs_z": zmax, "n": est.n,
                                                      "entries": n_entries})
    bound = float(value) if np.ndim(value) == 0 else {"closed_form_entries": int(np.size(value))}
    return dict(status=status, observed=observed, bound=bound,
                evidence=f"{what}: max |z| = {zmax:.2f} vs critical {crit:.2f} "
                         f"({100 * est.confidence:g}% level, Bonferroni over {n_entries}), n={est.n}",
                params=params or {})


def erratum_verdict(printed_holds: bool, corrected_holds: bool, printed, corrected,
                    evidence: str, params=None) -> dict:
    """Verdict for a suspected erratum: printed form vs corrected form."""
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
                evidence=evidence, params=params or {})
