"""Root causes of the SRPFL findings (Tziotis, Shen, Pedarsani, Hassani and Mokhtari, *Straggler-Resilient
Personalized Federated Learning*, TMLR 2023; arXiv numbers in brackets where they differ).

Each slip of the paper is registered once; the claims that exhibit it name its id (``root_cause=``), so one slip
that several claims inherit (the sigma-for-sigma^2 slip of Lemma A.7) is counted once.
"""
from __future__ import annotations

from . import PAPER

#: the sigma^2-for-sigma slip of Lemmas A.7/A.9, inherited by A.8, A.10, (137), (185), (190)
SIGMA = "sigma-for-sigma2"
ALG2_LINE16 = "alg2-line16-pre-qr"
EQ149_SIGN = "eq149-r3-sign"
LEMA10_MEAN = "lema10-dependent-mean"
CORA3 = "cora3-transpose"
EQ32 = "eq32-sqrt-log"
EQ224 = "eq224-constant"
LEMB3 = "lemb3-not-lower-bound"
EQ229 = "eq229-c-plus-1"
PHASE2 = "phase2-drops-c"
EQD = "eqd-parenthesisation"
FIG8_LAMBDA = "fig8-lambda-reading"

PAPER.root_cause(
    SIGMA, "Lemmas A.7 and A.9 bound noise terms that are linear in the noise by sigma^2 instead of sigma",
    kind="typo",
    detail="Printed: ||G_i|| <= (delta/(1-delta)) sigma^2 (58) and ||(1/(mn)) sum_i X_i^T Z_i w_i^T|| <= c sigma^2 "
           "(sqrt k + delta_hat sigma^2) sqrt(d)/sqrt(mn) (82); corrected: sigma in place of sigma^2. The terms are "
           "linear in the noise (E||(1/m) sum_j z_j B^T x_j||^2 = sigma^2 k/m), so a fixed-c sigma^2 bound fails as "
           "sigma -> 0. Inherited by Lemma A.8 (71), Lemma A.10 (95) and the proof steps (137), (185), (190); "
           "Theorem 4.7 keeps its form because (1 + sigma^2) enters the m condition.",
    references=("Lemma A.7 (58)", "Lemma A.9 (82)", "Lemma A.8 (71)", "Lemma A.10 (95)", "(137)", "(185)", "(190)"))
PAPER.root_cause(
    ALG2_LINE16, "Algorithm 2, line 16 carries the pre-QR average B_bar to the next stage",
    kind="typo",
    detail="Printed: U <- B_bar^{r,t+1} (not orthonormal, out-of-scope t); corrected: U <- the QR factor B^{r,tau_r}. "
           "The span is the same, but (16)-(19) assume an orthonormal B_hat.",
    references=("Algorithm 2, line 16",))
PAPER.root_cause(
    EQ149_SIGN, "The Weyl step (149) uses R3 with the wrong sign",
    kind="typo",
    detail="Printed: R3 = (eta/n) lambda_max(B^T E + E^T B) (148); the expansion (144) of B+^T B+ contains "
           "+(eta/n)(B^T E + E^T B), so the valid term is (eta/n) lambda_max(-(B^T E + E^T B)). The later bound (190) "
           "on |R3| is unaffected.",
    references=("(148)", "(149)"))
PAPER.root_cause(
    LEMA10_MEAN, "Lemma A.10's zero-mean step (101) ignores that q_i and w_i^+ are functions of X_i",
    kind="proof",
    detail="(101) asserts that the summands (1/m) X_i^T X_i q_i w_i^{+T} - q_i w_i^{+T} have mean zero, giving "
           "(95) ||.|| <= c sqrt(d)(dist k + ...)/sqrt(mn), which vanishes as n grows. At sigma = 0 the matrix has "
           "mean (k/m)(I - B B^T) B* (1/n) sum_i w_i* w_i^{+T}, of norm ~ k dist/m, so the norm plateaus in n: the "
           "bound needs an extra term c k dist/m, which is not a typo-level change.",
    references=("Lemma A.10 (95)", "(101)"))
PAPER.root_cause(
    CORA3, "Corollary A.3 (26) drops the transpose of B*",
    kind="typo",
    detail="Printed: W+ = W* B*hat B_hat + F + G (undefined for d > k); corrected: W* B*hat^T B_hat + F + G. The "
           "LaTeX source has no transpose (not an extraction artefact); the typo recurs in (121) and (126)-(128).",
    references=("Corollary A.3 (26)", "(121)"))
PAPER.root_cause(
    EQ32, "The expansion (32) writes 24 k log N for 24 k sqrt(log N)",
    kind="typo",
    detail="Printed: exp(-k(12k sqrt(log N) - 1)^2) = exp(k(-144 k^2 log N + 24 k log N - 1)); the middle term is "
           "24 k sqrt(log N). With it, (33) holds for every k >= 1 once N >= 3 (natural log).",
    references=("Lemma A.4 proof, (32)-(33)",))
PAPER.root_cause(
    EQ224, "(224) bounds E[T_{N/4}] - E[T_{N/8}] below by 1/(6 lambda), above its limit ln(7/6)/lambda",
    kind="typo",
    detail="Printed: >= 1/(6 lambda); the gap tends to ln(7/6)/lambda = 0.154/lambda < 1/6. Corrected: 1/(7 lambda) "
           "(3 sqrt2 becomes 3.5 sqrt2 in (225)); (225) itself survives because the ratio stays below 3.",
    references=("(224)", "(225)"))
PAPER.root_cause(
    LEMB3, "Lemma B.3's (248) is not a lower bound of FedRep's wall-clock time, so Theorem 4.9's proof is broken",
    kind="proof",
    detail="Printed: E[T_FedRep] >= log N (log N + 2 log(1/(c_hat-1)))/log(1/(1-a))/lambda. FedRep's round count "
           "under its own recursion (249) is t_FR = 2 ln((1-D)/((c_hat-1)D))/ln(1/(1-a)), smaller than the count "
           "(253), and (254) drops the log N term that (255) reintroduces; the simulated FedRep time falls below "
           "(248) by up to a factor ~2. Theorem 4.9 divides (247) by (248), so its ratio bound (256) is not proved "
           "as printed; a valid lower bound is t_FR (H_N + c)/lambda.",
    references=("Lemma B.3 (248)-(255)", "Theorem 4.9 (256)"))
PAPER.root_cause(
    EQ229, "(229) puts the factor (c+1) in the denominator",
    kind="typo",
    detail="Printed: ... + 2 log(3 sqrt2 log N)/(log(1/(1-a))(c+1)); corrected: ... + 2 log(3 sqrt2 log N)(c+1)/"
           "log(1/(1-a)). With it (229) bounds (226) and (230) bounds (229).",
    references=("(229)", "(230)"))
PAPER.root_cause(
    PHASE2, "The phase-2 cost (236)-(244) drops the communication ratio c through invalid steps",
    kind="proof",
    detail="(236) upper-bounds the denominator E[T_N] - E[T_{N/2}] = H_{N/2}/lambda of (235) by log N/lambda, which "
           "makes the fraction smaller (the wrong direction; H_{N/2} can exceed ln N); (236) -> (237) needs sqrt2 + "
           "(c+1)(sqrt2-1)/log N <= 2, which is not assumed and fails for large c; (241) inherits it and (243) drops "
           "c. The exact last-stage recursion and cost exceed the printed lines when c is large against log N; with "
           "H_{N/2} and the factor kept the bounds hold, but that restructures the argument.",
    references=("(235)-(237)", "(241)-(244)"))
PAPER.root_cause(
    EQD, "D in (231), (233)-(238), (251) has (1 - sqrt(1-a)) inside the square root",
    kind="typo",
    detail="Printed: D = a/sqrt((N/n0)(1-a)(1-sqrt(1-a))); the fixed point of (232)/(249) and the limit of (233) is "
           "a/(sqrt((N/n0)(1-a))(1-sqrt(1-a))), as in (12).",
    references=("(231)", "(233)-(238)", "(251)", "(12)"))
PAPER.root_cause(
    FIG8_LAMBDA, "Figure 8 prints the straggler parameters as lambda = 0.1 (fast) and lambda = 10 (stragglers)",
    kind="reading",
    detail="Under Sec. 4.1's convention (Exp rate lambda, mean 1/lambda) the 'stragglers' are the fast clients; read "
           "as mean times (fast mean 0.1, stragglers mean 10) the caption's statement is the one the experiment "
           "supports.",
    references=("Figure 8 (App. C)", "Sec. 4.1"))
