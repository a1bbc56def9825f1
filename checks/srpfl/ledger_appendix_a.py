"""Results ledger of Tziotis et al., *Straggler-Resilient Personalized Federated Learning* (TMLR 2023), Appendix A
(proof of Theorem 4.7): one row per numbered result (see :mod:`.ledger`)."""
from fedtheory.ledger import LedgerRow as R

_DEF = "definition"

ROWS = (
    # ------------------------------------------------------------------ Appendix A
    R("Definition A.1", "definition",
      "A^T x is ||A||_2-subgaussian if E[exp(y^T A^T x)] <= exp(||y||^2 ||A||_2^2/2) for all y.",
      "not-checkable", section="App. A", reason=_DEF, alt="arXiv: Definition A.1"),
    R("App. A setup", "assumption",
      "Standing assumptions of App. A: n >= n0 := 2d/(log(N) sigma_max,*), m >= c0 (1+sigma^2) k^3 kappa^4 log(N)/E0^2, "
      "fresh batches each round, sigma_min/max,* over all |I| = n' <= N, kappa = sigma_max,*/sigma_min,*.",
      "not-checkable", section="App. A",
      reason="standing assumptions; they differ from Theorem 4.7 (n0 unsquared sigma_max, no d/n0 in m, n' < k "
             "allowed which makes sigma_min,* = 0), a wording inconsistency rather than a checkable result",
      alt="arXiv: App. A setup"),
    R("Eqs. (13)-(15)", "equation", "Loss L_N(B, W) = (1/(2mn)) sum_i ||Y_i - X_i B w_i||^2 (13) and its gradients (14) (1/(mn)) sum_i X_i^T "
      "(X_i B w_i - Y_i) w_i^T and (15) (1/(mn)) B^T X_i^T (X_i B w_i - Y_i).", 'checked', section="App. A", alt="arXiv: eqs. (12)-(14)", claims=('srpfl.eqs13-15.gradients',)),
    R("Eqs. (16)-(19)", "equation", "One round in closed form: w_i+ = ((1/m) B^T X_i^T X_i B)^{-1} (1/m) B^T X_i^T Y_i (16)-(17), B+ = B - (eta/(mn)) "
      "sum_i X_i^T (X_i B w_i+ - Y_i) w_i+^T (18), (B_hat+, R+) = QR(B+) (19).", 'checked', section="App. A", alt="arXiv: eqs. (15)-(18)", claims=('srpfl.eqs16-19.closed-form',)),
    R("Lemma A.2", "lemma",
      "(20): w_i+ = B^T B* w_i* + F_i + G_i exactly; checked to machine precision in every round of exact runs.",
      "checked", section="App. A", claims=("srpfl.lemA2.identities",), alt="arXiv: Lemma A.2, eq. (19)"),
    R("Eqs. (21)-(23)", "equation", "Algebraic expansion of (17) leading to (20).",
      "not-checkable", section="App. A", reason="proof steps of Lemma A.2; the end point (20) is checked",
      alt="arXiv: eqs. (20)-(22)"),
    R("Eqs. (24)-(25)", "definition",
      "F_i := ((1/m) B^T X^T X B)^{-1} ((1/m) B^T X^T X B* - (1/m) B^T X^T X B B^T B*) w_i* (24), G_i := ((1/m) B^T X^T "
      "X B)^{-1} (1/m) B^T X^T Z_i (25); checked: as the terms of the exact identity (20).",
      "checked", section="App. A", claims=("srpfl.lemA2.identities",), alt="arXiv: eqs. (23)-(24)"),
    R("Corollary A.3", "corollary", "(26): W+ = W* B*^T B + F + G (printed W* B* B, a missing transpose); checked via its rows (20).", "checked", section="App. A", claims=('srpfl.lemA2.identities', 'srpfl.corA3.transpose'), alt="arXiv: Corollary A.3, eq. (25)"),
    R("Lemma A.4", "lemma",
      "(27)-(28): w.p. >= 1 - exp(-115 k^3 log N), sigma_min((1/m) B^T X_i^T X_i B) >= 1 - delta for all i (hence "
      "inverse norm <= 1/(1-delta)), delta = c k^{3/2} sqrt(log N)/sqrt(m); checked: with c read as the m-free "
      "Davidson-Szarek envelope the exceedance rate is at most 1/200 (exact binomial test); the fitted c (99% quantile) "
      "is reported by m; the paper's probability exp(-115 k^3 log N) is not checked.",
      "checked", section="App. A", claims=("srpfl.lemA4.concentration",), alt="arXiv: Lemma A.4, eqs. (26)-(27)"),
    R("Eqs. (29)-(31)", "equation",
      "Proof of Lemma A.4: rewrite as a sum of outer products (29), Vershynin Thm 4.6.1 bound 1 - c1(sqrt(k/m) + l/sqrt(m)) "
      "(30), choice of l and delta_1 (31) (printed l = 12 k^{3/2} log(N) sqrt(k) is inconsistent with the stated failure "
      "probability).",
      "not-checkable", section="App. A", reason="proof steps of Lemma A.4 (citation of a textbook bound)",
      alt="arXiv: eqs. (28)-(30)"),
    R("Eqs. (32)-(33)", "equation", "exp(-k(12k sqrt(log N) - 1)^2) = exp(k(-144 k^2 log N + 24 k log N - 1)) <= exp(-120 k^3 log N) (the middle "
      "term should read 24 k sqrt(log N)).", 'checked', section="App. A", alt="arXiv: eqs. (31)-(32)", claims=('srpfl.eq32-33.expansion',)),
    R("Eqs. (34)-(35)", "equation", "Union bound over the n clients: 1 - n exp(-120 k^3 log N) >= 1 - exp(-115 k^3 log N).",
      "not-checkable", section="App. A", reason="proof step of Lemma A.4 (union bound, n <= N)",
      alt="arXiv: eqs. (33)-(34)"),
    R("Lemma A.5", "lemma", '(36): with H_i = (1/m) B^T X_i^T X_i (B B^T - I) B*, sum_i ||H_i w_i*||^2 <= delta^2 ||W*||_2^2 dist^2(B, B*) w.p. >= 1 - exp(-115 k^2 log N). Checked: Monte Carlo exponents in m, d, n, dist as printed; c fitted (0.58).', 'checked', section="App. A", alt="arXiv: Lemma A.5, eq. (35)", claims=('srpfl.lemA5-A6.scaling',)),
    R("Eqs. (37)-(50)", "equation",
      "Proof of Lemma A.5: 1/4-net bound (37)-(38), zero mean (39), Bernstein (40)-(45), per-client bound ||H_i|| <= "
      "dist sqrt(C k^2 log N/m) (46)-(47), averaged forms (48)-(49), and sum ||H_i w_i*||^2 <= (k/n) ||W*||^2 sum ||H_i||^2 (50).",
      "not-checkable", section="App. A",
      reason="proof steps of Lemma A.5 (net argument, Bernstein, union bound); the per-client bound (46) would be "
             "tested together with Lemma A.5",
      alt="arXiv: eqs. (36)-(49)"),
    R("Lemma A.6", "lemma", '(51)-(52): w.p. >= 1 - exp(-110 k^2 log N), ||F_i|| <= (delta/(1-delta)) dist ||w_i*|| for all i and ||F||_F <= (delta/(1-delta)) dist ||W*||_2. Checked: exponents as printed.', 'checked', section="App. A", alt="arXiv: Lemma A.6, eqs. (50)-(51)", claims=('srpfl.lemA5-A6.scaling',)),
    R("Eqs. (53)-(57)", "equation", "Proof of Lemma A.6 from (28), (36) and (47) (sums printed up to m instead of n).",
      "not-checkable", section="App. A", reason="proof steps of Lemma A.6", alt="arXiv: eqs. (52)-(56)"),
    R("Lemma A.7", "lemma",
      "(58)-(59): ||G_i|| <= (delta/(1-delta)) sigma^2 and ||G||_F <= (delta/(1-delta)) sqrt(n) sigma^2; checked: the "
      "printed sigma^2 scaling fails as sigma -> 0 (G_i scales like sigma), the sigma-scaled bound has a stable ratio.",
      "checked", section="App. A", claims=("srpfl.lemA7-A9.sigma-scaling",), alt="arXiv: Lemma A.7, eqs. (57)-(58)"),
    R("Eqs. (60)-(69)", "equation",
      "Proof of Lemma A.7: subexponential z_j B^T x_j with norm ~ sigma^2 (should be sigma), Bernstein over a net "
      "(61)-(64), union bound (65)-(67) (printed with <= for >=), and (68)-(69).",
      "not-checkable", section="App. A",
      reason="proof steps of Lemma A.7; the sigma^2 vs sigma error is checked at the lemma",
      alt="arXiv: eqs. (59)-(68)"),
    R("Lemma A.8", "lemma", '(70)-(71): w.p. >= 1 - exp(-105 k^2 log N), ||w_i+|| <= 2 sqrt(k) + sigma^2 delta_hat and ||q_i|| = ||B w_i+ - B* w_i*|| <= 2 sqrt(k) dist + sigma^2 delta_hat, delta_hat = delta/(1-delta). Checked: (71) inherits the sigma^2 slip (q_i is linear in sigma at dist = 0); (70) holds.', 'checked', section="App. A", alt="arXiv: Lemma A.8, eqs. (69)-(70)", claims=('srpfl.lemA8-A10.sigma-scaling',)),
    R("Eqs. (72)-(81)", "equation", "Proof of Lemma A.8 from (20), (51), (58) and Assumption 4.6.",
      "not-checkable", section="App. A", reason="proof steps of Lemma A.8", alt="arXiv: eqs. (71)-(80)"),
    R("Lemma A.9", "lemma",
      "(82): ||(1/(mn)) sum_i X_i^T Z_i w_i+^T|| <= c sigma^2 (sqrt(k) + delta_hat sigma^2) sqrt(d)/sqrt(mn) w.p. >= "
      "1 - exp(-105 d) - exp(-105 k^2 log N); checked: the sigma^2 scaling fails as sigma -> 0 (the term scales like sigma).",
      "checked", section="App. A", claims=("srpfl.lemA7-A9.sigma-scaling",), alt="arXiv: Lemma A.9, eq. (81)"),
    R("Eqs. (83)-(94)", "equation", "Proof of Lemma A.9: net over S^{d-1} x S^{k-1}, conditioning on E1 (86), Bernstein, union bounds.",
      "not-checkable", section="App. A", reason="proof steps of Lemma A.9", alt="arXiv: eqs. (82)-(92)"),
    R("Lemma A.10", "lemma", '(95): ||(1/n) sum_i ((1/m) X_i^T X_i q_i - q_i) w_i+^T|| <= c sqrt(d) (dist k + sqrt(k) delta_hat sigma^2 + (delta_hat sigma^2)^2)/sqrt(mn) w.p. >= 1 - exp(-100 d) - exp(-100 k^2 log N). Checked: sigma^2 slip; (101) is false, so the bound needs + c k dist/m.', 'checked', section="App. A", alt="arXiv: Lemma A.10, eq. (93)", claims=('srpfl.lemA5-A6.scaling', 'srpfl.lemA8-A10.sigma-scaling', 'srpfl.lemA10.zero-mean')),
    R("Eqs. (96)-(106)", "equation", 'Proof of Lemma A.10: event E2 (96), net and Bernstein (97)-(105), conclusion (106). Checked: (101) is false (q_i and w_i+ depend on X_i).', 'checked', section="App. A", alt="arXiv: eqs. (94)-(104)", claims=('srpfl.lemA10.zero-mean',)),
    R("Eq. (107)", "equation",
      "delta_hat <= 2 delta <= E0/(20 kappa^2 (1 + sigma^2)) <= 1/20 for the m of Theorem 4.7 and large c0.",
      "not-checkable", section="App. A (proof of Thm 4.7)",
      reason="holds by choosing the unspecified constants c and c0; nothing to test without them",
      alt="arXiv: eq. (105)"),
    R("Eqs. (108)-(110)", "equation", "Add-and-subtract rewriting of (18) and its projection on B*_perp.",
      "not-checkable", section="App. A (proof of Thm 4.7)",
      reason="algebra of (18), equivalent to (142) which is checked", alt="arXiv: eqs. (106)-(108)"),
    R("Eq. (111)", "equation",
      "Identity B*_perp^T B+ = B*_perp^T B (I - (eta/n) sum w_i+ w_i+^T) + (eta/n) B*_perp^T sum (1/m) X_i^T Z_i w_i+^T "
      "- (eta/n) B*_perp^T sum ((1/m) X_i^T X_i q_i - q_i) w_i+^T; checked to machine precision.",
      "checked", section="App. A (proof of Thm 4.7)", claims=("srpfl.lemA2.identities",), alt="arXiv: eq. (109)"),
    R("Eqs. (112)-(115)", "equation", "Triangle inequality on (111) times ||(R+)^{-1}|| (112) and definitions of A1, A2, A3 (113)-(115).",
      "not-checkable", section="App. A (proof of Thm 4.7)",
      reason="proof step and definitions; the resulting inequality (116) is checked", alt="arXiv: eqs. (110)-(113)"),
    R("Eq. (116)", "equation",
      "dist(B_hat+, B*) <= (A1 + A2 + A3) ||(R+)^{-1}||_2; checked: holds deterministically in every round.",
      "checked", section="App. A (proof of Thm 4.7)", claims=("srpfl.eq116.inequality",), alt="arXiv: eq. (114)"),
    R("Eqs. (117)-(120)", "equation", "Events E2-E5 (the bounds of Lemmas A.6-A.10), jointly w.p. >= 1 - exp(-90 d) - exp(-90 k^2 log N).",
      "not-checkable", section="App. A (proof of Thm 4.7)", reason="definitions of events restating Lemmas A.6-A.10",
      alt="arXiv: eqs. (115)-(118)"),
    R("Eqs. (121)-(125)", "equation", "||W+||_2^2 <= 2||W*||^2 + 4||F||^2 + 4||G||^2 <= 4(||W*||_2^2 + n) <= 4n(sigma_max,*^2 + 1), so I_k - (eta/n) "
      "W+^T W+ is positive definite.", 'checked', section="App. A (proof of Thm 4.7)", alt="arXiv: eqs. (119)-(123)", claims=('srpfl.eq121-125.wplus-norm',)),
    R("Eqs. (126)-(135)", "equation", "Chain bounding ||I_k - (eta/n) W+^T W+|| by 1 - eta sigma_min,*^2 sigma_min^2(B*^T B) + (1/6) eta E0 sigma_min,*^2, "
      "then using E0 <= sigma_min^2(B*^T B).", 'checked', section="App. A (proof of Thm 4.7)", alt="arXiv: eqs. (124)-(133)", claims=('srpfl.thm4.7.E0-trajectory',)),
    R("Eq. (136)", "equation", "A1 <= dist(B, B*) (1 - (5/6) eta E0 sigma_min,*^2).", 'checked', section="App. A (proof of Thm 4.7)", alt="arXiv: eq. (134)", claims=('srpfl.eq136.A1', 'srpfl.thm4.7.E0-trajectory')),
    R("Eq. (137)", "equation", "A2 <= eta c sigma^2 (sqrt(k) + 1) sqrt(d)/sqrt(mn).", 'checked', section="App. A (proof of Thm 4.7)", alt="arXiv: eq. (135)", claims=('srpfl.eq137.A2-sigma',)),
    R("Eq. (138)", "equation",
      "A3 <= eta c (dist k + sqrt(k) + 1) sqrt(d)/sqrt(mn) (replacing sqrt(k) delta_hat sigma^2 + (delta_hat sigma^2)^2 by "
      "sqrt(k) + 1); checked: only its consequence, a sigma-free additive floor in (10) that noiseless runs beat by "
      "orders of magnitude; A3 itself is not compared with the bound.",
      "checked", section="App. A (proof of Thm 4.7)", claims=("srpfl.thm4.7.floor-not-prediction",),
      alt="arXiv: eq. (136)"),
    R("Eq. (139)", "equation",
      "dist+ <= [dist (1 - (5/6) eta E0 sigma_min,*^2 + eta c k sqrt(d)/sqrt(mn)) + eta c (sqrt(k)+1)(sigma^2+1) "
      "sqrt(d)/sqrt(mn)] ||(R+)^{-1}||.",
      "not-checkable", section="App. A (proof of Thm 4.7)", reason="combination of (116) and (136)-(138); no new content",
      alt="arXiv: eq. (137)"),
    R("Eqs. (140)-(142)", "equation",
      "S := sum_i (1/m) X_i^T X_i q_i w_i+^T, E := sum_i (1/m) X_i^T Z_i w_i+^T, and B+ = B - (eta/n) S + (eta/n) E (142); "
      "checked: (142) to machine precision.",
      "checked", section="App. A (proof of Thm 4.7)", claims=("srpfl.lemA2.identities",), alt="arXiv: eqs. (138)-(140)"),
    R("Eqs. (143)-(144)", "equation", "Expansion B+^T B+ = I_k - (eta/n)(B^T S + S^T B) + (eta/n)(B^T E + E^T B) - (eta^2/n^2)(E^T S + S^T E) + "
      "(eta^2/n^2)(E^T E + S^T S).", 'checked', section="App. A (proof of Thm 4.7)", alt="arXiv: eqs. (141)-(142)", claims=('srpfl.eq143-144.expansion',)),
    R("Eqs. (145)-(149)", "equation",
      "Weyl: sigma_min^2(R+) >= 1 - R1 - R2 - R3 (149) with R1-R3 (146)-(148); checked: with the printed R3 = (eta/n) "
      "lambda_max(B^T E + E^T B) it fails; the sign-corrected (eta/n) lambda_max(-(B^T E + E^T B)) holds (also "
      "R+^T R+ = B+^T B+, not B_hat+^T B_hat+).",
      "checked", section="App. A (proof of Thm 4.7)", claims=("srpfl.eq149.inequality",), alt="arXiv: eqs. (143)-(147)"),
    R("Eqs. (150)-(164)", "equation", "Splitting R1 via (20) into T1 + T2 + T3 (150)-(163) and bounding T1 under E3 (164).",
      "not-checkable", section="App. A (proof of Thm 4.7)", reason="proof steps towards (165) and (174)",
      alt="arXiv: eqs. (148)-(162)"),
    R("Eq. (165)", "equation", "T1 <= (1/10) eta E0 sigma_min,*^2.", 'checked', section="App. A (proof of Thm 4.7)", alt="arXiv: eq. (163)", claims=('srpfl.eq165.T1',)),
    R("Eqs. (166)-(173)", "equation", "Bounds T2 <= (2 eta/n)(||F||^2 + ||G|| ||F||), T3 likewise, T2 + T3 <= (2 eta/n)(||F||_F + ||G||_F)^2.",
      "not-checkable", section="App. A (proof of Thm 4.7)", reason="proof steps towards (174)",
      alt="arXiv: eqs. (164)-(170)"),
    R("Eq. (174)", "equation", "T2 + T3 <= 2 eta delta_hat^2 (sigma_max,*^2 + sigma^4) <= (1/10) eta E0 sigma_min,*^2.", 'checked', section="App. A (proof of Thm 4.7)", alt="arXiv: eq. (170)", claims=('srpfl.eq174.T2T3',)),
    R("Eqs. (175)-(176)", "equation", "R1 <= 6 eta c k sqrt(d)/sqrt(mn) + (1/5) eta E0 sigma_min,*^2.", 'checked', section="App. A (proof of Thm 4.7)", alt="arXiv: eqs. (171)-(172)", claims=('srpfl.eq176.R1',)),
    R("Eqs. (177)-(184)", "equation", "Bounding R2 via E4, E5 and E2.",
      "not-checkable", section="App. A (proof of Thm 4.7)", reason="proof steps towards (185)",
      alt="arXiv: eqs. (173)-(178)"),
    R("Eq. (185)", "equation", "R2 <= 3 eta^2 c^2 k^{3/2} sigma^2 d/(mn) + 9 eta^2 c k^{3/2} sigma^2 sqrt(d)/sqrt(mn).", 'checked', section="App. A (proof of Thm 4.7)", alt="arXiv: eq. (179)", claims=('srpfl.eq185.R2-sigma',)),
    R("Eqs. (186)-(189)", "equation", "Bounding R3 by (2 eta/n)||B|| ||sum (1/m) X_i^T Z_i w_i+^T|| ((187) misprints 2 eta^2/n^2 for 2 eta/n).",
      "not-checkable", section="App. A (proof of Thm 4.7)", reason="proof steps towards (190)",
      alt="arXiv: eqs. (180)-(182)"),
    R("Eq. (190)", "equation", "R3 <= 3 eta c sqrt(k) sigma^2 sqrt(d)/sqrt(mn).", 'checked', section="App. A (proof of Thm 4.7)", alt="arXiv: eq. (183)", claims=('srpfl.eq190.R3-sigma',)),
    R("Eqs. (191)-(192)", "equation",
      "Combining (149), (176), (185), (190); the step (191) -> (192) folds the noise-free term 6 eta c k sqrt(d)/sqrt(mn) "
      "into terms carrying sigma^2 (only valid for sigma^2 >~ 1/sqrt(k)).",
      "not-checkable", section="App. A (proof of Thm 4.7)",
      reason="proof steps; the slip is that (192) drops a sigma-free term (the final side condition before (197) uses "
             "(1 + sigma^2), which would cover it); tested at Eq. (193)",
      alt="arXiv: eq. (184)"),
    R("Eq. (193)", "equation", "sigma_min^2(R+) >= 1 - 15 eta c k^{3/2} sigma^2 sqrt(d)/sqrt(mn) - (1/5) eta E0 sigma_min,*^2.", 'checked', section="App. A (proof of Thm 4.7)", alt="arXiv: eq. (185)", claims=('srpfl.eq193.sigma-min-R',)),
    R("Eqs. (194)-(196)", "equation",
      "Assembly of (139) and (193) using 15 eta c k^{3/2} (1 + sigma^2) sqrt(d)/sqrt(m n0) <= (1/10) eta E0 sigma_min,*^2.",
      "not-checkable", section="App. A (proof of Thm 4.7)",
      reason="proof steps; the side condition holds by the choice of the unspecified c0", alt="arXiv: eqs. (186)-(188)"),
    R("Eq. (197)", "equation",
      "dist(B_hat+, B*) <= dist sqrt(1 - eta E0 sigma_min,*^2/2) + (eta E0 sigma_min,*^2/2)/sqrt((n/n0)(1 - eta E0 "
      "sigma_min,*^2/2)), i.e. (10); checked per round on exact runs.",
      "checked", section="App. A (proof of Thm 4.7)", claims=("srpfl.thm4.7.contraction",), alt="arXiv: eq. (189)"),
    R("Corollary A.11", "corollary",
      "(198): at stage r (n = 2^r n0), dist+ <= dist sqrt(1-a) + a/sqrt(2^r (1-a)), a <= 1/4; checked: closed-form "
      "iterates and floors D_r, and the per-stage behaviour on exact runs.",
      "checked", section="App. A", claims=("srpfl.corA11.noise-floor", "srpfl.thm4.7.contraction"),
      figures=("srpfl.stages",), alt="arXiv: Corollary A.11, eq. (190)"),
)
