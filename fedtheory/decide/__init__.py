"""The decision kit: the one place where numbers become verdicts.

Every claim, built-in or third-party, turns its numbers into an outcome with one
of these templates. Each returns the dict a claim function returns (see
:class:`fedtheory.claims.Claim`): the outcome with its statistics filled in,

* ``margin``: the tightness, ``{"kind", "value", "ci", "tightness"}``. For a
  bound, ``value`` is observed/bound (below 1 for a bound that holds); for a
  rate, the fitted minus the claimed exponent;
* ``detects``: the sensitivity, ``{"factor", "of", "relative"}``: the smallest
  change of the claimed constant or exponent, as a factor, that this check
  would turn into a failure at its level. A check whose factor exceeds 10
  cannot detect a 10x error and says so in its evidence;
* ``power`` (``inconclusive`` only): the size that would decide at power
  :data:`POWER`, computed here, never typed by hand.

The significance level of every decision of one claim is :data:`LEVEL`; a claim
that makes ``tests`` decisions passes ``tests=`` and each is made at
``LEVEL / tests`` (Bonferroni within the claim). With about 225 claims the
family-wise false-alarm rate of one ``fedtheory verify`` is at most about
225 x 1e-4 = 2.3% (union bound).

Templates
---------
:func:`identity`
    an identity to a tolerance;
:func:`agreement`
    a Monte Carlo estimate against a closed form (z test, Bonferroni over
    vector entries);
:func:`bound`
    a one-sided bound, deterministic or with a standard error;
:func:`probability`
    a probability bound: exact binomial test against the paper's failure
    probability;
:func:`distribution`
    samples against a claimed law (Kolmogorov-Smirnov, Bonferroni over the
    samples);
:func:`rate`
    an exponent or rate fit, log-log or affine, OLS or WLS (standard errors
    known), the fit model named in the verdict;
:func:`ordering`
    a comparison of methods: paired (exact sign test, ties dropped) or
    unpaired (Mann-Whitney);
:func:`erratum`
    a printed form against a corrected form, each decided by a named
    independent referee;
:func:`vacuous`, :func:`not_reproduced`, :func:`combine`
    the remaining outcomes, and a claim made of several decisions;
:func:`regression_rate`, :func:`vacuous_given`, :func:`premised`, :func:`direction`, :func:`erratum_if_decided`
    compound forms: an exponent read off a multiple regression, a vacuity
    argument resting on computed links, a check asserted only where its
    premise holds, the sign of an effect, an erratum once both forms are
    decided.

The statistics (:func:`sign_test`, :func:`mann_whitney`,
:func:`clopper_pearson`, :func:`fit_line`) and the size searches behind the
power statements (:func:`binomial_trials_needed`, :func:`replicates_needed`
with ``statsmodels.stats.power.TTestPower``, :func:`sweeps_needed`,
:func:`pairs_needed`, :func:`mann_whitney_size_needed` with
``statsmodels.stats.power.NormalIndPower``) are public too.

References
----------
Clopper, C. J. and Pearson, E. S. (1934). The use of confidence or fiducial
limits illustrated in the case of the binomial. Biometrika 26(4).
"""
from __future__ import annotations

from ._stats import (LEVEL, POWER, TIGHT, SLACK, corrected_level, z_critical, tightness, binomial_power, binomial_trials_needed, replicates_needed, sweeps_needed, pairs_needed, mann_whitney_size_needed, sign_test, mann_whitney, clopper_pearson, fit_line, power_statement)
from ._bounds import (identity, agreement, bound, probability, distribution)
from ._fits import (rate, ordering)
from ._outcomes import (erratum, vacuous, not_reproduced, inconclusive, combine)
from ._compound import (regression_rate, vacuous_given, premised, direction, erratum_if_decided)

__all__ = ["LEVEL", "POWER", "TIGHT", "SLACK", "corrected_level", "z_critical", "tightness", "binomial_power", "binomial_trials_needed", "replicates_needed", "sweeps_needed", "pairs_needed", "mann_whitney_size_needed", "sign_test", "mann_whitney", "clopper_pearson", "fit_line", "power_statement", "identity", "agreement", "bound", "probability", "distribution", "rate", "ordering", "erratum", "vacuous", "not_reproduced", "inconclusive", "combine", "regression_rate", "vacuous_given", "premised", "direction", "erratum_if_decided"]
