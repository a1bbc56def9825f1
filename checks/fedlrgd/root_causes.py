"""Root causes of the findings on Jadbabaie, Makur and Shah (2023), *Federated Optimization of Smooth Loss
Functions*, IEEE Trans. Inf. Theory 69(12).

Each slip is registered once; the claims that exhibit it name its id (``root_cause=`` on the claim). The
``reading`` entry documents text-extraction artifacts of the paper's text (not errata of the paper): the claims
that name it hold under the correct reading.
"""
from . import PAPER

PAPER.root_cause(
    "thm2-hypotheses-empty",
    "Theorem 2's hypotheses admit no full-rank instance: (6) + Lemma 1 force alpha >= eta/d - 1 - o(1) in (8), "
    "while Theorem 2 needs eta > (2 alpha + 2) d; the paper's only worked example (Appendix A) violates (8)",
    kind="hypotheses",
    detail="Printed: Theorem 2 assumes (6) (class (eta, L2)), (7)-(8) (||G^-1|| <= r^alpha for every large r, alpha >= "
           "1) and eta > (2 alpha + 2) d. Lemma 1 applied at the finest scale q' whose approximant has rank <= r - 1 "
           "gives sigma_min(G) <= ||G - P'|| <= r L2/(l! q'^eta) (Eckart-Young), i.e. ||G^-1|| >= l! q'^eta/(r L2) ~ "
           "r^(eta/d - 1); with (8) this forces alpha >= eta/d - 1 - o(1), incompatible with alpha < eta/(2d) - 1 for "
           "large r. No correction of a symbol restores the theorem: (8) has to be weakened (alpha growing with r) "
           "or the rank r decoupled from the conditioning. Appendix A's soft-label logistic loss (asserted to satisfy "
           "(4)-(6) only, Sec. II-C) has ||G^-1|| growing faster than every power of r, so it lies outside the regime.",
    references=("Theorem 2", "(6)", "(8)", "Lemma 1", "Appendix A", "Sec. II-C"))

PAPER.root_cause(
    "alg1-line10-v1",
    "Algorithm 1, line 10 uploads v_1 in every epoch t = 3..r+1; the text (Sec. III-B) and the estimator (41) need v_(t-1)",
    kind="typo",
    detail="Printed: 'Every client c communicates the p weights {v_1^(i,c)}' in line 10 (a copy of line 9). Corrected: "
           "{v_(t-1)^(i,c)} in epoch t, as the paragraph before Algorithm 1 states. With the printed rule the server "
           "never receives v_2..v_r and its gradient estimate is not exact at the interpolation nodes.",
    references=("Algorithm 1, line 10", "Sec. III-B"))

PAPER.root_cause(
    "eq47-exponent-placement",
    "(47) (and its copy in Appendix E) puts the exponent 1/(eta - (2 alpha + 2) d) on the max of both terms; the proof "
    "applies it to the second term only",
    kind="typo",
    detail="Printed: r = ceil(max{e sqrt(d) 2^d (eta + d)^d, K1 (kappa A/((kappa - 1) eps))^(d/2)}^(1/(eta - (2 alpha + "
           "2) d))). Corrected: max{e sqrt(d) 2^d (eta + d)^d, (K1 (...)^(d/2))^(1/(eta - (2 alpha + 2) d))}: the proof "
           "needs r >= e sqrt(d) 2^d (eta + d)^d (q >= 1), which the printed form violates (d = 1, eta = 50: r = 25 "
           "vs 277.3).",
    references=("(47)", "Appendix E", "proof of Theorem 2"))

PAPER.root_cause(
    "eq60-step-iv-grouping",
    "Step (iv) of (60) multiplies both summands of (59)'s bound by ||G^-1||^2/(1 - ||G^-1|| r L2/(l! q^eta)); (59) "
    "gives that factor on the second summand only",
    kind="typo",
    detail="A misplaced parenthesis in steps (iv)-(vi) of (60); the final line of (60) is right. With the printed "
           "grouping a step of the chain (iii) <= (iv) <= ... <= (vii) fails on instrumented runs; with the corrected "
           "grouping every step holds.",
    references=("(59)", "(60), steps (iv)-(vi)"))

PAPER.root_cause(
    "thm2-r-lattice",
    "The proof of Theorem 2 fixes q with r = D |S_(d,q)| for the r of (47), and assumes Phi of (45) invertible for the "
    "server's data; |S_(d,q)| is an integer step function, and Phi is singular unless each cell holds exactly D "
    "unisolvent server samples",
    kind="proof",
    detail="Printed (Sec. III-C, proof in Sec. V): 'fix q > 0 such that r = D |S_(d,q)|' for every sufficiently large "
           "r, and (45). Most integers r are not of the form D |S_(d,q)| (the attainable r form a lattice), and for "
           "server data drawn i.i.d. (as in any federated data set) Phi is singular. A repair changes the statement "
           "(r rounded up to the lattice, server data designed cell by cell), not a symbol.",
    references=("Sec. III-C", "(45)", "proof of Theorem 2"))

PAPER.root_cause(
    "appd-t-ge-t0",
    "The note after (81) ('T >= T0 = Theta(m/b) is satisfied') is false for eps~ in (0, 1] not small: Lemma 3 is "
    "applied outside its range",
    kind="proof",
    detail="Printed: at the optimum of (79), T >= T0 for all eps in (0, 1] (Theorem 3). Computed: at the Viete b* "
           "(either integer neighbour) T < T0 on part of the grid; T >= T0 is guaranteed only when sqrt(2) x^3 >= 4 "
           "max{kappa, 4 + 32 kappa^2 (1 - tau)/(tau (m - 1)), 16 x/mu^2}, x = (C/eps~)^(1/4) (asymptotically "
           "C/eps~ >= 2048/mu^4). The proof of Theorem 3 needs this extra hypothesis.",
    references=("Appendix D, note after (81)", "Lemma 3", "Theorem 3"))

PAPER.root_cause(
    "appe-missing-exponent-d",
    "Appendix E bounds e sqrt(d) 2^d (eta + d)^d by e (2 c2 + 4 alpha + 6) d^(d + 1/2); the factor needs the exponent d",
    kind="typo",
    detail="Printed: e sqrt(d) 2^d (eta + d)^d <= e (2 c2 + 4 alpha + 6) d^(d + 1/2). Corrected: e (2 c2 + 4 alpha + "
           "6)^d d^(d + 1/2) (from eta + d <= (c2 + 2 alpha + 3) d). The conclusion O(d^(2d + 1/2)) is unaffected.",
    references=("Appendix E, proof of Proposition 1",))

PAPER.root_cause(
    "extraction-glyphs",
    "Text-extraction artifacts, not errata: l printed as 1 in (6), l! as l in Theorem 1, eta as n in the abstract",
    kind="reading",
    detail="The extracted text prints the exponent of (6) as eta - 1 (the proof of Lemma 1 uses eta - l; l = ceil(eta) "
           "- 1 and the digit 1 are one glyph apart), Theorem 1's denominator as (l)^2 (the proof's last line has "
           "(l!)^2) and the abstract's exponent as Theta(d/n) (the arXiv abstract, Sec. I-B and Sec. VI read "
           "Theta(d/eta)). The claims are checked under the correct readings and hold.",
    references=("(6)", "Theorem 1", "Abstract"))

PAPER.root_cause(
    "eq46-theta-free-coefficients",
    "(46) fails on Appendix A's loss whenever the cover has two or more cells: the y-coefficients of the Taylor "
    "expansion do not depend on theta",
    kind="hypotheses",
    detail="By (55)-(56) P = Phi^T Psi, so (46) needs r linearly independent coefficient functions psi_(I,v)(theta). "
           "On Appendix A's logistic loss dg_i/dy = -x_i is theta-free, so the (I, y) rows of Psi are constants and "
           "rank P <= 1 + 2 n_x < r for every cover with >= 2 cells, for every server data set and parameter "
           "sequence, even where Phi of (45) is invertible; the condition numbers near 1e19 seen in floating point "
           "are this exact singularity (mpmath at 50 and 100 digits: the trailing singular values halve their "
           "exponent as the digits double).",
    references=("Eq. (46)", "Eqs. (55)-(56)", "App. A"))
