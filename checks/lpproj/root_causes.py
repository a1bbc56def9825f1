"""Root causes of the lp-proj errata and refutations: Han, Li, Lin and Zhang (2024), JMLR 25.

Each slip is registered once; the claims that exhibit it name its id (``root_cause=``). Kinds follow
:data:`fedtheory.paper.ROOT_CAUSE_KINDS`. Text-extraction artifacts of the paper text (minus signs lost in the
bullets of Theorem 30) are not slips of the paper and are not registered: the claims hold under the correct
reading.
"""
from __future__ import annotations

from . import PAPER

PAPER.root_cause(
    "thm9-at-factor-2", "Proof of Theorem 9: the bound on A_T before (16) drops a factor 2", kind="typo",
    detail="Printed: A_T >= alpha_{T-1}(1 - e^-1)/(eta~ mu_F/2) >= alpha_{T-1}/(eta~ mu_F/2), false since 1 - e^-1 < 1. "
           "Corrected: A_T >= alpha_{T-1}/(eta~ mu_F) (as 2(1 - e^-1) >= 1); 1/(eta~ A_T) <= mu_F/alpha_{T-1} survives.",
    references=("Proof of Theorem 9, before (16)",))
PAPER.root_cause(
    "thm9-exp-missing-t", "Theorem 9, (16)-(17): the exponent of the initial term misses the factor T", kind="typo",
    detail="Printed: mu_F exp(-eta~ mu_F/2) Delta_0 (T-free, so case 1 of the step rule fails). Corrected: "
           "mu_F exp(-eta~ mu_F T/2) Delta_0.",
    references=("(16)", "(17)", "case analysis after (17)"))
PAPER.root_cause(
    "eq11-missing-norm-squared", "Eq. (11) and its proof: the last term misses ||.||^2", kind="typo",
    detail="Printed: (3 eta~^2 L_F/2) E[(1/S) sum_{S_t} grad F_k - grad F] (a vector, or read as E||.||). Corrected: "
           "(3 eta~^2 L_F/2) E||(1/S) sum_{S_t} grad F_k - grad F||^2, as the proof (App. A.3) uses it.",
    references=("(11)", "App. A.3"))
PAPER.root_cause(
    "a5-sums-step-constant", "App. A.5: the step-size sums after (32) use the constants of eta~_t = 4/(mu_F(zeta+t))",
    kind="typo",
    detail="Printed: 16/(3 mu_F^2 (zeta+T-1)), 32/(mu_F^3 ...), 256 T/(mu_F^4 ...). Corrected for eta~_t = "
           "8/(mu_F(zeta+t)): constants 64/3, 256 and 4096; the O(1/T) rate of Theorem 27 is unaffected.",
    references=("App. A.5, after (32)",))
PAPER.root_cause(
    "eq33-sum-first-term", "App. A.6: sum_{i<=T} i^(-5/3) <= 3/2 drops the first term", kind="typo",
    detail="Printed: sum_{i<=T} i^(-5/3) <= 3/2 (false from T = 4). Corrected: 1 + (3/2)(1 - T^(-2/3)) < 5/2.",
    references=("App. A.6, after (33)",))
PAPER.root_cause(
    "thm28-first-term-lf-power", "Theorem 28 (and 15): the initialisation term carries L_F^2 where the proof gives L_F",
    kind="typo",
    detail="Printed: O(lam^2 L_F^2 Delta_F/sqrt(T)). The proof's chain gives 180 lam^2 L_F Delta_F/(sqrt(T+1) - 1), "
           "i.e. O(lam^2 L_F Delta_F/sqrt(T)); the printed form is a looser (still valid, L_F = lam > 1) bound.",
    references=("Theorem 28", "Theorem 15", "(33)"))
PAPER.root_cause(
    "appb2-bias-extra-1-over-n", "App. B.2: the bias terms of L^Me and L^l2 (and Lemma 29's A) carry an extra 1/N",
    kind="typo",
    detail="Printed: b lam^2 d Sigma/(2N(b+lam)^2) and A = ... + b d Sigma/(2N) (argmin (N-1) sigma^2/(n Sigma)). "
           "Corrected: b lam^2 d Sigma/(2(b+lam)^2), since sum_k ||w_bar - w_k||^2 = d N Sigma; lambda* = "
           "(1 - 1/N) sigma^2/(n Sigma).",
    references=("App. B.2", "Lemma 29"))
PAPER.root_cause(
    "appb2-l2-covariance-lambda2-over-n2", "App. B.2: the lp-proj-2 covariance prints lam^2/N^2 for lam^2/N",
    kind="typo",
    detail="Printed: (b^2 + 2 b lam/N + lam^2/N^2) sigma^2/(b n)/(b+lam)^2. Corrected: lam^2/N (as for pFedMe).",
    references=("App. B.2, distribution of x_k^{l2}",))
PAPER.root_cause(
    "fig1-lambda1-quotes-threshold", "Figure 1 text quotes lambda_1^* = 4.9e-4, the Proposition 16 threshold",
    kind="typo",
    detail="Printed: lambda_1^* = 4.9e-4. With the stated parameters lambda_1^* = 2.46e-4; 4.9e-4 is the threshold "
           "2 lambda_1^*/(1 - lambda_1^*/b).",
    references=("Sec. 4.2, Figure 1", "App. B.3.2"))
PAPER.root_cause(
    "eq49d-lost-half", "App. B.4, (49)(d): the factor 1/2 is lost, so (46)-(48) are twice too large", kind="typo",
    detail="Printed: (1/N^2) sum_{k != l} <w_k - w_l, w_k + w_l - 2 w_bar>^2 and E var(||w_bar - w_k||^2) = "
           "4 (N-1)(N-2)/N^2 tr(Sigma_w^2). Corrected: 1/(2N^2) and the constant 2 (N-1)(N-2)/N^2.",
    references=("(49)(d)", "(46)-(48)", "Theorem 32"))
PAPER.root_cause(
    "appb4-larger-for-smaller-lambda", "App. B.4: 'larger lambda leads to more fairness' has the direction reversed",
    kind="typo",
    detail="Printed: larger lambda is fairer. V^Me = lam^4/(b+lam)^4 V^Avg increases in lambda, and the paper's own "
           "explanation (local, lambda -> 0, is unbiased and fairest) supports the corrected 'smaller lambda'.",
    references=("App. B.4, after Theorem 32",))
PAPER.root_cause(
    "prop3-proof-f-for-fstar", "Proof of Proposition 3: f(.) printed where f_k^*(.) is meant", kind="typo",
    detail="Printed: a f_k^*(P^T u_1) + (1-a) f_k^*(P^T u_2) >= f(P^T u_bar) + a(1-a)/(2L)||P^T(u_1 - u_2)||^2. "
           "Corrected: f_k^*(P^T u_bar) on the right side.",
    references=("App. A.4, proof of Proposition 3",))
PAPER.root_cause(
    "prop24-proof-ptp-for-ppt", "Proof of Proposition 24: 'the d_sub x d_sub matrix P^T P is invertible'", kind="typo",
    detail="P^T P is d x d of rank d_sub < d (singular); the invertible d_sub x d_sub matrix is P P^T.",
    references=("App. A.1, proof of Proposition 24",))
PAPER.root_cause(
    "sec61-storage-k-squared", "Sec. 6.1: block-diagonal storage printed O(d_sub d/k^2)", kind="typo",
    detail="Printed: storage O(d_sub d/k^2) ('proportional to the square of the number of blocks'). Storing the k "
           "blocks takes d_sub d/k entries, the same order as the time O(d_sub d/k).",
    references=("Sec. 6.1",))
PAPER.root_cause(
    "sec53-79x-no-ratio", "Sec. 5.3: the '79x' saving on Synthetic(0,0) is no ratio of Table 1's byte counts",
    kind="statement",
    detail="The Synthetic(0,0) byte ratios of Table 1 are 129.4 (FedAvg), 80.5 (DGC), 2.6 (LBGM), 199.9 (QSGD); none "
           "is within 1 of 79 and no typo-level correction is known. The other quoted numbers (26.3 and 83.5 "
           "points, 1320x, d/d_sub >= 1000) are recomputed correctly.",
    references=("Sec. 5.3", "Table 1", "Table 5"))
PAPER.root_cause(
    "appc71-32-for-22", "App. C.7.1: the accuracy gain over the best method of Table 11 is 22%, printed 'at least 32%'",
    kind="typo",
    detail="Printed: at least 32%. Table 11: lp-proj 0.898 vs DGC 0.735, a relative gain of 22% (16.3 points).",
    references=("App. C.7.1", "Table 11"))
