"""Root causes of the FedRep findings: the slips of Collins, Hassani, Mokhtari and Shakkottai (2021),
*Exploiting Shared Representations for Personalized Federated Learning*, ICML 2021, that the claims of
this plugin decide. Several claims may share one root cause; each claim names its id with
``root_cause=`` on its decorator.
"""
from __future__ import annotations

from . import PAPER

PAPER.root_cause(
    "kappa-sigma-max-over-sigma-max",
    "Theorem 1 defines kappa := sigma_max,*/sigma_max,* (identically 1)",
    kind="typo",
    detail="printed kappa := sigma_max,*/sigma_max,*; corrected kappa := sigma_max,*/sigma_min,*, the condition "
           "number of the ground-truth heads that the Introduction (ii) names. At r = 1 the corrected form equals "
           "cond(W*) computed by an independent SVD; the printed one is 1.",
    references=("Theorem 1", "Introduction (ii)"))

PAPER.root_cause(
    "q-inverse-on-the-wrong-side",
    "The invariance of objective (3) is printed as (Q^-1 W*, B* Q^T) instead of (W* Q^-1, B* Q^T)",
    kind="typo",
    detail="W* is n x k (Sec. 2.1, W = [w_1^T, ..., w_n^T]), so (W Q^-1)(B Q^T)^T = W B^T for every invertible "
           "Q and every (W, B); the printed Q^-1 W* does not conform for n != k and is not an invariance for "
           "n = k (exact rational arithmetic gives a nonzero change of the objective).",
    references=("Sec. 4.2, text after eq. (8)",))

PAPER.root_cause(
    "init-dist-larger-than-c",
    "The Remark on initialization requires dist(B^0, B*) 'larger than a constant c > 0'",
    kind="typo",
    detail="printed: dist(B^0, B*) > c; corrected: E0 = 1 - dist^2(B^0, B*) >= c (the start bounded away from "
           "the orthogonal complement), which is what Theorem 1's m condition uses. Under the printed reading the "
           "start dist_0 = 1 qualifies and the population iteration of Algorithm 2 stays at dist 1.",
    references=("Sec. 4.2, Remark on initialization", "Theorem 1"))

PAPER.root_cause(
    "asm2-named-for-asm3",
    "Row-wise incoherence of W* B*^T is attributed to Assumption 2 instead of Assumption 3",
    kind="typo",
    detail="printed: 'Assumption 2 ensures that W* B*^T is row-wise incoherent'; corrected: Assumption 3 "
           "(||w_i*|| = sqrt(k), B* orthonormal) makes every row norm sqrt(k) (incoherence ratio 1), while "
           "Assumption 2 (client diversity) admits a row scaled by 100 (ratio 3.03, near the maximum sqrt(n)).",
    references=("Sec. 4.2, text after Assumption 3",))

PAPER.root_cause(
    "fig1-extra-mtest-scaling",
    "Figure 1's plotted errors carry an extra factor 1/m_test",
    kind="experiment",
    detail="printed: the notebook error divided by m_test = 100 (the public notebook's comment calls the division "
           "a mistake); corrected: the unscaled notebook error, which equals the objective (1/2n) sum_i "
           "||theta_hat_i - theta_i*||^2. Every bar shrinks by the same factor, so the figure's orderings stand.",
    references=("Figure 1",))

PAPER.root_cause(
    "new-client-k-log-eps",
    "A new client's sample complexity is stated as Theta(k log(1/eps))",
    kind="statement",
    detail="printed: a new client with the learned representation needs Theta(k log(1/eps)) samples to reach "
           "error eps. With label noise N(0, sigma^2) a least-squares head has expected excess risk "
           "sigma^2 k/(m_new - k - 1) (exact for Gaussian designs), so m_eps = k + 1 + sigma^2 k/eps = "
           "Theta(k/eps); without noise m_new = k samples recover theta exactly, with no eps dependence. "
           "log(1/eps) is the number of gradient steps on the strongly convex head problem (Sec. 4.1), not a "
           "sample count. No typo-level change of the printed form gives the noisy law.",
    references=("Sec. 1, Benefit (III)", "Sec. 4.2, 'When and whom does federation help?'"))

PAPER.root_cause(
    "fig3-ordering-linear-analogue",
    "Figure 3's ordering FedRep < 10GD-GD < GD-GD is not reproduced by the linear analogue",
    kind="experiment",
    detail="reported: FedRep (exact head) converges faster than 10GD-GD, which converges faster than GD-GD. In "
           "the linear analogue (d=10, k=2, m=5, r=0.1, eta = 1/(4k) on B, GD head steps tuned on {0.05, 0.1, "
           "0.2, 0.4} or taken from the public code) 10GD-GD ties FedRep (distances at t=20 within 10%) and both "
           "are ahead of GD-GD; the paper prints no step sizes.",
    references=("Sec. 5.1", "Figure 3"))

PAPER.root_cause(
    "gd-n-scaling-linear-analogue",
    "'GD-GD and 10GD-GD do not scale properly with n' is not reproduced by the linear analogue",
    kind="experiment",
    detail="reported: replacing the exact head by 1 or 10 GD steps gives methods whose convergence does not "
           "improve with n the way FedRep's does. In the linear analogue (Figure 3's setting, GD head steps "
           "10GD-GD 0.2, GD-GD 0.4 at every n) 10GD-GD's per-round rate improves with n about as much as "
           "FedRep's.",
    references=("Sec. 5.1", "Figure 3"))

PAPER.root_cause(
    "alg2-qr-omitted",
    "Algorithm 2 prints no QR step while Theorem 1 analyses the orthonormalised iterate",
    kind="reading",
    detail="a presentation convention: exact runs with and without QR on identical batches both satisfy (10) "
           "(the exact head's residual is orthogonal to col(B), so B^T B drifts only at second order); named "
           "only if the printed variant ever failed.",
    references=("Algorithm 2", "Theorem 1"))

PAPER.root_cause(
    "sample-complexity-forms-disagree",
    "Eq. (11) and Contribution (ii) print d-terms kappa^8 k^4 d/(rn) and kappa^4 k^4 d/n where Theorem 1 gives "
    "kappa^4 k^2 d/(E0^2 rn)",
    kind="statement",
    detail="Read as Theta (as eq. (11) prints it), the k^4 and kappa^8 powers are refuted by the measured one-round "
           "contraction threshold m* in exact-in-law runs (k exponent about 1.08, kappa exponent about 0.1); read "
           "as sufficient conditions (upper bounds) all three printed forms are consistent, Theorem 1's "
           "kappa^4 k^2 the tightest.",
    references=("Eq. (11)", "Introduction (ii)", "Theorem 1"))
