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
    R("Eqs. (21)-(23)", "equation", "Algebraic expansion of (17) leading to (20); checked: each line against the "
      "least-squares heads of exact rounds.", "checked", section="App. A", claims=("srpfl.lemA2.proof-steps",),
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
    R("Eqs. (29)-(30)", "equation",
      "Proof of Lemma A.4: rewrite as a sum of outer products (29) and Vershynin Thm 4.6.1 bound 1 - c1(sqrt(k/m) + "
      "l/sqrt(m)) w.p. >= 1 - exp(-l^2) (30); checked: (29) on exact rounds, (30) on exact Wishart draws with c1 read as "
      "the Davidson-Szarek 2 sqrt 2.", "checked", section="App. A", claims=("srpfl.lemA4.proof-steps",),
      alt="arXiv: eqs. (28)-(29)"),
    R("Eq. (31)", "equation",
      "Choice of l and delta_1: sigma_min >= 1 - delta_1 w.p. >= 1 - exp(-k(12k sqrt(log N) - 1)^2); checked: the "
      "printed l = 12 k^{3/2} log(N) sqrt(k) does not give it, l = sqrt(k)(12k sqrt(log N) - 1) does (erratum).",
      "checked", section="App. A", claims=("srpfl.eq31.l-choice",), alt="arXiv: eq. (30)"),
    R("Eqs. (32)-(33)", "equation", "exp(-k(12k sqrt(log N) - 1)^2) = exp(k(-144 k^2 log N + 24 k log N - 1)) <= exp(-120 k^3 log N) (the middle "
      "term should read 24 k sqrt(log N)).", 'checked', section="App. A", alt="arXiv: eqs. (31)-(32)", claims=('srpfl.eq32-33.expansion',)),
    R("Eqs. (34)-(35)", "equation", "Union bound over the n clients: 1 - n exp(-120 k^3 log N) >= 1 - exp(-115 k^3 log N); "
      "checked: the union bound on exact Wishart draws and (35) exactly for n <= N.", "checked", section="App. A",
      claims=("srpfl.lemA4.proof-steps",), alt="arXiv: eqs. (33)-(34)"),
    R("Lemma A.5", "lemma", '(36): with H_i = (1/m) B^T X_i^T X_i (B B^T - I) B*, sum_i ||H_i w_i*||^2 <= delta^2 ||W*||_2^2 dist^2(B, B*) w.p. >= 1 - exp(-115 k^2 log N). Checked: Monte Carlo exponents in m, d, n, dist as printed; c fitted (0.58).', 'checked', section="App. A", alt="arXiv: Lemma A.5, eq. (35)", claims=('srpfl.lemA5-A6.scaling',)),
    R("Eqs. (37)-(38)", "equation",
      "Proof of Lemma A.5: 1/4-net bound (37) ||.|| <= 2 max_{p,y} p^T(sum_j u_j v_j^T) y and its sum form (38); checked: "
      "(37) as printed lacks the 1/m of H_i (erratum), the corrected form and (38) hold on exact rounds with an explicit net.",
      "checked", section="App. A", claims=("srpfl.eq37.net-normalisation", "srpfl.lemA5.proof-steps"),
      alt="arXiv: eqs. (36)-(37)"),
    R("Eq. (39)", "equation", "Zero mean of the net summand: p^T B*^T (I - B B^T) B y = 0; checked exactly and by Monte Carlo.",
      "checked", section="App. A", claims=("srpfl.lemA5.proof-steps",), alt="arXiv: eq. (38)"),
    R("Eqs. (40)-(41)", "equation",
      "Bernstein for the net summand: (40) exp(-c2 min(s^2 m^2/dist^2, s m/dist)), (41) exp(-c2 m min(s^2/dist^2, "
      "s/dist)); checked against the exact tail: (40) has m^2 for m (erratum), (41) holds with c2 = 1/4.",
      "checked", section="App. A", claims=("srpfl.eq40.bernstein",), alt="arXiv: eqs. (39)-(40)"),
    R("Eqs. (42)-(43)", "equation", "Union bound over the 9^{2k} net pairs (42) and the choice s = dist sqrt(C k^2 log N/(4m)) "
      "(43); checked on the exact law of H_i with an explicit net.", "checked", section="App. A",
      claims=("srpfl.lemA5.proof-steps",), alt="arXiv: eqs. (41)-(42)"),
    R("Eqs. (44)-(45)", "equation", "9^{2k} exp(-C c2 m k^2 log N) (44) <= exp(-120 k^2 log N) (45); checked: (44) should be "
      "9^{2k} exp(-C c2 k^2 log N/4) (erratum); (45) holds with an absolute C.", "checked", section="App. A",
      claims=("srpfl.eq44-91.substitution", "srpfl.lemA5.proof-steps"), alt="arXiv: eqs. (43)-(44)"),
    R("Eqs. (46)-(50)", "equation",
      "Per-client bound ||H_i|| <= dist sqrt(C k^2 log N/m) for all i (46)-(47), averaged forms (48)-(49), and sum "
      "||H_i w_i*||^2 <= (k/n) ||W*||^2 sum ||H_i||^2 (50); checked on exact laws and rounds.", "checked",
      section="App. A", claims=("srpfl.lemA5.proof-steps",), alt="arXiv: eqs. (45)-(49)"),
    R("Lemma A.6", "lemma", '(51)-(52): w.p. >= 1 - exp(-110 k^2 log N), ||F_i|| <= (delta/(1-delta)) dist ||w_i*|| for all i and ||F||_F <= (delta/(1-delta)) dist ||W*||_2. Checked: exponents as printed.', 'checked', section="App. A", alt="arXiv: Lemma A.6, eqs. (50)-(51)", claims=('srpfl.lemA5-A6.scaling',)),
    R("Eqs. (53)-(54)", "equation", "Proof of Lemma A.6: ||F_i||^2 <= ||gram^{-1}||^2 ||H_i||^2 ||w_i*||^2 <= delta^2/(1-delta)^2 "
      "dist^2 ||w_i*||^2; checked in every exact round given the premises (28), (47).", "checked", section="App. A",
      claims=("srpfl.lemA6.proof-steps",), alt="arXiv: eqs. (52)-(53)"),
    R("Eqs. (55)-(56)", "equation", "||F||_F^2 <= sum ||gram^{-1}||^2 ||H_i w_i*||^2 <= (1-delta)^{-2} sum ||H_i w_i*||^2, sums "
      "printed up to m; checked: with the sums to n both hold, as printed they fail for m < n (erratum).", "checked",
      section="App. A", claims=("srpfl.eq55.sum-range", "srpfl.lemA6.proof-steps"), alt="arXiv: eqs. (54)-(55)"),
    R("Eq. (57)", "equation", "||F||_F^2 <= delta^2/(1-delta)^2 dist^2 ||W*||^2 given (36); checked in every exact round.",
      "checked", section="App. A", claims=("srpfl.lemA6.proof-steps",), alt="arXiv: eq. (56)"),
    R("Lemma A.7", "lemma",
      "(58)-(59): ||G_i|| <= (delta/(1-delta)) sigma^2 and ||G||_F <= (delta/(1-delta)) sqrt(n) sigma^2; checked: the "
      "printed sigma^2 scaling fails as sigma -> 0 (G_i scales like sigma), the sigma-scaled bound has a stable ratio.",
      "checked", section="App. A", claims=("srpfl.lemA7-A9.sigma-scaling",), alt="arXiv: Lemma A.7, eqs. (57)-(58)"),
    R("Eq. (60)", "equation", "G_i = gram^{-1} (1/m) sum_j z_j B^T x_j; checked on exact rounds (and the sum's law).",
      "checked", section="App. A", claims=("srpfl.lemA7.proof-steps",), alt="arXiv: eq. (59)"),
    R("Eqs. (61)-(62)", "equation", "Bernstein over a net with sigma^4, sigma^2 and the threshold sigma^2 sqrt(C2 k^2 log N/m); "
      "checked against the exact law: fails as sigma -> 0, holds with sigma^2, sigma (erratum, the sigma slip).",
      "checked", section="App. A", claims=("srpfl.eq61-62.sigma",), alt="arXiv: eqs. (60)-(61)"),
    R("Eqs. (63)-(64)", "equation", "9^{k+1} exp(-C2 c3 k^2 log N) (63) <= exp(-115 k^2 log N) (64); checked: (63) drops the "
      "1/4 of the substitution (erratum), (64) holds with an absolute C2.", "checked", section="App. A",
      claims=("srpfl.eq44-91.substitution", "srpfl.lemA7.proof-steps"), alt="arXiv: eqs. (62)-(63)"),
    R("Eqs. (65)-(66)", "equation", "Union over the n clients, printed P(...) <= 1 - n exp(-115 k^2 log N) <= 1 - exp(-113 k^2 "
      "log N); checked: the inequalities point the wrong way (erratum); with >= they hold.", "checked", section="App. A",
      claims=("srpfl.eq65.direction", "srpfl.lemA7.proof-steps"), alt="arXiv: eqs. (64)-(65)"),
    R("Eq. (67)", "equation", "An empty numbered line (the end of the display (65)-(66)).", "not-checkable",
      section="App. A", reason="the number labels an empty line; no content", alt="arXiv: eq. (66)"),
    R("Eqs. (68)-(69)", "equation", "||G_i|| <= ||gram^{-1}|| ||(1/m) sum z_j B^T x_j|| <= (delta/(1-delta)) sigma^2 (68) and "
      "||G||_F^2 <= n (delta/(1-delta))^2 sigma^4 (69); checked in every exact round (sigma-corrected premise).",
      "checked", section="App. A", claims=("srpfl.lemA7.proof-steps",), alt="arXiv: eqs. (67)-(68)"),
    R("Lemma A.8", "lemma", '(70)-(71): w.p. >= 1 - exp(-105 k^2 log N), ||w_i+|| <= 2 sqrt(k) + sigma^2 delta_hat and ||q_i|| = ||B w_i+ - B* w_i*|| <= 2 sqrt(k) dist + sigma^2 delta_hat, delta_hat = delta/(1-delta). Checked: (71) inherits the sigma^2 slip (q_i is linear in sigma at dist = 0); (70) holds.', 'checked', section="App. A", alt="arXiv: Lemma A.8, eqs. (69)-(70)", claims=('srpfl.lemA8-A10.sigma-scaling',)),
    R("Eqs. (72)-(81)", "equation", "Proof of Lemma A.8 from (20), (51), (58) and Assumption 4.6: the chains for ||w_i^+|| "
      "(72)-(75) and ||q_i|| (76)-(81) and their union bounds; checked in every exact round (delta_hat read from the "
      "premises, sigma-corrected).", "checked", section="App. A", claims=("srpfl.lemA8.proof-steps",),
      alt="arXiv: eqs. (71)-(80)"),
    R("Lemma A.9", "lemma",
      "(82): ||(1/(mn)) sum_i X_i^T Z_i w_i+^T|| <= c sigma^2 (sqrt(k) + delta_hat sigma^2) sqrt(d)/sqrt(mn) w.p. >= "
      "1 - exp(-105 d) - exp(-105 k^2 log N); checked: the sigma^2 scaling fails as sigma -> 0 (the term scales like sigma).",
      "checked", section="App. A", claims=("srpfl.lemA7-A9.sigma-scaling",), alt="arXiv: Lemma A.9, eq. (81)"),
    R("Eqs. (83)-(85)", "equation", "Net bound over S^{d-1} x S^{k-1} (83) and its double-sum forms (84)-(85); checked with "
      "explicit nets (d = 2) and on exact rounds.", "checked", section="App. A", claims=("srpfl.lemA9.proof-steps",),
      alt="arXiv: eqs. (82)-(84)"),
    R("Eq. (86)", "definition", "The event E1 = {||w_i^+|| <= 2 sqrt(k) + delta_hat sigma^2 for all i}.", "not-checkable",
      section="App. A", reason="definition of an event (the event of (70), checked at Lemma A.8)", alt="arXiv: eq. (85)"),
    R("Eqs. (87)-(88)", "equation", "Bernstein for the summands z_i^j <x_i^j, p><w_i^+, y>/(mn) as i.i.d. zero-mean terms; "
      "checked: they are not zero-mean (w_i^+ depends on Z_i), the matrix has mean (sigma^2/m) B_hat and (82) fails as "
      "n grows (refuted).", "checked", section="App. A", claims=("srpfl.lemA9.zero-mean",), alt="arXiv: eqs. (85)-(86)"),
    R("Eqs. (89)-(92)", "equation", "exp(-C3 c4 d) (89) <= exp(-110 d) (90); union over the nets 9^{d+k} exp(-110 d) (91) <= "
      "exp(-105 d) (92); checked: (89) drops 1/64 and (91)'s threshold is 2-4 times too small (erratum), (90), (92) "
      "hold.", "checked", section="App. A", claims=("srpfl.eq44-91.substitution", "srpfl.lemA9.proof-steps"),
      alt="arXiv: eqs. (87)-(90)"),
    R("Eqs. (93)-(94)", "equation", "Removing the conditioning on E1: P(A) <= P(A | E1) + P(E1^c) <= exp(-105 d) + "
      "exp(-105 k^2 log N).", "not-checkable", section="App. A",
      reason="probability algebra (total probability) and substitution of Lemma A.8's failure probability; no numeric "
             "content of its own (the conditional bound it rests on is refuted at (87)-(88))", alt="arXiv: eqs. (91)-(92)"),
    R("Lemma A.10", "lemma", '(95): ||(1/n) sum_i ((1/m) X_i^T X_i q_i - q_i) w_i+^T|| <= c sqrt(d) (dist k + sqrt(k) delta_hat sigma^2 + (delta_hat sigma^2)^2)/sqrt(mn) w.p. >= 1 - exp(-100 d) - exp(-100 k^2 log N). Checked: sigma^2 slip; (101) is false, so the bound needs + c k dist/m.', 'checked', section="App. A", alt="arXiv: Lemma A.10, eq. (93)", claims=('srpfl.lemA5-A6.scaling', 'srpfl.lemA8-A10.sigma-scaling', 'srpfl.lemA10.zero-mean')),
    R("Eqs. (96)-(106)", "equation", 'Proof of Lemma A.10: event E2 (96), net and Bernstein (97)-(105), conclusion (106). Checked: (101) is false (q_i and w_i+ depend on X_i).', 'checked', section="App. A", alt="arXiv: eqs. (94)-(104)", claims=('srpfl.lemA10.zero-mean',)),
    R("Eq. (107)", "equation",
      "delta_hat <= 2 delta <= E0/(20 kappa^2 (1 + sigma^2)) <= 1/20 'for our choice of m and sufficiently large c0'; "
      "checked: the outer links hold (delta <= 1/2; E0 <= 1 <= kappa); the middle one needs c0 >= 1600 c^2 (1+sigma^2) "
      "(sympy): no absolute c0, the batch condition needs (1+sigma^2)^2 (erratum).",
      "checked", section="App. A (proof of Thm 4.7)", claims=("srpfl.eq107.c0-threshold",), alt="arXiv: eq. (105)"),
    R("Eqs. (108)-(110)", "equation",
      "Add-and-subtract rewriting of (18) and its projection on B*_perp; checked: each line equals the algorithm's own "
      "pre-QR average (resp. its projection) to machine precision (worst relative residual ~1e-16).",
      "checked", section="App. A (proof of Thm 4.7)", claims=("srpfl.eq108-110.update-identities",), alt="arXiv: eqs. (106)-(108)"),
    R("Eq. (111)", "equation",
      "Identity B*_perp^T B+ = B*_perp^T B (I - (eta/n) sum w_i+ w_i+^T) + (eta/n) B*_perp^T sum (1/m) X_i^T Z_i w_i+^T "
      "- (eta/n) B*_perp^T sum ((1/m) X_i^T X_i q_i - q_i) w_i+^T; checked to machine precision.",
      "checked", section="App. A (proof of Thm 4.7)", claims=("srpfl.lemA2.identities",), alt="arXiv: eq. (109)"),
    R("Eqs. (112)-(115)", "equation",
      "Triangle inequality on (111) times ||(R+)^{-1}|| (112) and the terms A1, A2, A3 (113)-(115); checked: (112) in "
      "every round (tight, max ratio ~0.996), its first term <= A1 (113), A2 (114) from its definition.",
      "checked", section="App. A (proof of Thm 4.7)", claims=("srpfl.eq112-115.triangle", "srpfl.eq116.inequality"), alt="arXiv: eqs. (110)-(113)"),
    R("Eq. (116)", "equation",
      "dist(B_hat+, B*) <= (A1 + A2 + A3) ||(R+)^{-1}||_2; checked: holds deterministically in every round.",
      "checked", section="App. A (proof of Thm 4.7)", claims=("srpfl.eq116.inequality",), alt="arXiv: eq. (114)"),
    R("Eqs. (117)-(120)", "equation", "Events E2-E5 (the bounds of Lemmas A.6-A.10), jointly w.p. >= 1 - exp(-90 d) - exp(-90 k^2 log N).",
      "not-checkable", section="App. A (proof of Thm 4.7)",
      reason="definitions of events restating Lemmas A.6-A.10 ((51)-(52), (58)-(59), (70)-(71), (82), (95)), which are "
             "checked at the lemmas; each substitution of an event into the chain is located at its step ((152), (164), "
             "(172), (182), (184), (189))",
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
      "sqrt(d)/sqrt(mn)] ||(R+)^{-1}||; checked: the combination of (116), (136)-(138) is exact (sympy) and holds in "
      "every round with the c that (137)-(138) need; the c (139) itself needs stays bounded as sigma -> 0.",
      "checked", section="App. A (proof of Thm 4.7)", claims=("srpfl.eq139.combination",), alt="arXiv: eq. (137)"),
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
    R("Eqs. (150)-(164)", "equation",
      "Splitting R1 via (20) into the E5 part and T1 + T2 + T3 (150)-(163) and bounding T1 under E3 (164); checked: "
      "(150), (152) (Cauchy-Schwarz), (154)-(162), (163) and (164) -> (165) under (107) hold; (151) prints '=' for "
      "'<=' (erratum); (153) drops the '+1' at a fixed c, false when dist k + sqrt k < 2 (erratum; (152) gives (175) "
      "directly); E5 in (152) is Lemma A.10 and E3 in (164) is Lemmas A.6-A.7 (sigma^2 slip), decided there.",
      "checked", section="App. A (proof of Thm 4.7)", claims=("srpfl.eq150-151.max-split", "srpfl.eq152-153.E5-step", "srpfl.eq154-168.trace-identities",
                                 "srpfl.eq163-171.trace-bounds", "srpfl.eq165.T1"),
      alt="arXiv: eqs. (148)-(162)"),
    R("Eq. (165)", "equation", "T1 <= (1/10) eta E0 sigma_min,*^2.", 'checked', section="App. A (proof of Thm 4.7)", alt="arXiv: eq. (163)", claims=('srpfl.eq165.T1',)),
    R("Eqs. (166)-(173)", "equation",
      "Bounds T2 <= (2 eta/n)(||F||^2 + ||G|| ||F||), T3 likewise, T2 + T3 <= (2 eta/n)(||F||_F + ||G||_F)^2, then under "
      "E3 (172)-(173); checked: (166)-(168) identities, (169)-(171) in every round; (173) drops the cross term "
      "2 sigma_max,* sigma^2 of (172) (erratum; with it (174) still follows under (107)).",
      "checked", section="App. A (proof of Thm 4.7)", claims=("srpfl.eq154-168.trace-identities", "srpfl.eq163-171.trace-bounds",
                                 "srpfl.eq172-173.cross-term", "srpfl.eq174.T2T3"),
      alt="arXiv: eqs. (164)-(170)"),
    R("Eq. (174)", "equation", "T2 + T3 <= 2 eta delta_hat^2 (sigma_max,*^2 + sigma^4) <= (1/10) eta E0 sigma_min,*^2.", 'checked', section="App. A (proof of Thm 4.7)", alt="arXiv: eq. (170)", claims=('srpfl.eq174.T2T3',)),
    R("Eqs. (175)-(176)", "equation", "R1 <= 6 eta c k sqrt(d)/sqrt(mn) + (1/5) eta E0 sigma_min,*^2.", 'checked', section="App. A (proof of Thm 4.7)", alt="arXiv: eqs. (171)-(172)", claims=('srpfl.eq176.R1',)),
    R("Eqs. (177)-(184)", "equation",
      "Bounding R2 via E4, E5 and E2; checked: (177)-(181) and (183)'s triangle step in every round, and the algebra "
      "(182) -> (185) under (107) (factors <= 2.21 and 8.83 against 3 and 9; (183) drops E4's delta_hat sigma^2, which "
      "the 9 absorbs); the sigma^2 slip of E4 (Lemma A.9) enters at (182).",
      "checked", section="App. A (proof of Thm 4.7)", claims=("srpfl.eq177-184.R2-links", "srpfl.eq185.R2-sigma"), alt="arXiv: eqs. (173)-(178)"),
    R("Eq. (185)", "equation", "R2 <= 3 eta^2 c^2 k^{3/2} sigma^2 d/(mn) + 9 eta^2 c k^{3/2} sigma^2 sqrt(d)/sqrt(mn).", 'checked', section="App. A (proof of Thm 4.7)", alt="arXiv: eq. (179)", claims=('srpfl.eq185.R2-sigma',)),
    R("Eqs. (186)-(189)", "equation",
      "Bounding R3 by (2 eta/n)||B|| ||sum (1/m) X_i^T Z_i w_i+^T|| and E4; checked: (186), (188) hold; (187) prints "
      "2 eta^2/n^2 for 2 eta/n (erratum); (189) is E4 = Lemma A.9 (82), whose sigma^2 slip it inherits (decided at "
      "(190) and at the lemma).",
      "checked", section="App. A (proof of Thm 4.7)", claims=("srpfl.eq186-188.R3-links", "srpfl.eq190.R3-sigma", "srpfl.lemA7-A9.sigma-scaling"),
      alt="arXiv: eqs. (180)-(182)"),
    R("Eq. (190)", "equation", "R3 <= 3 eta c sqrt(k) sigma^2 sqrt(d)/sqrt(mn).", 'checked', section="App. A (proof of Thm 4.7)", alt="arXiv: eq. (183)", claims=('srpfl.eq190.R3-sigma',)),
    R("Eqs. (191)-(192)", "equation",
      "Combining (149), (176), (185), (190); checked: the step (191) -> (192) folds the noise-free 6 eta c k "
      "sqrt(d)/sqrt(mn) into sigma^2 terms, false for sigma < 0.60 (k = 2, eta = 1/16; sympy), in particular at sigma = 0 "
      "(erratum); with (1 + sigma^2) in (192)-(193) every step holds, the form the side condition of (196) uses.",
      "checked", section="App. A (proof of Thm 4.7)", claims=("srpfl.eq191-192.sigma-free-term",), alt="arXiv: eq. (184)"),
    R("Eq. (193)", "equation", "sigma_min^2(R+) >= 1 - 15 eta c k^{3/2} sigma^2 sqrt(d)/sqrt(mn) - (1/5) eta E0 sigma_min,*^2.", 'checked', section="App. A (proof of Thm 4.7)", alt="arXiv: eq. (185)", claims=('srpfl.eq193.sigma-min-R',)),
    R("Eqs. (194)-(196)", "equation",
      "Assembly of (139) and (193) using 15 eta c k^{3/2} (1 + sigma^2) sqrt(d)/sqrt(m n0) <= (1/10) eta E0 "
      "sigma_min,*^2; checked: (194) per round (c = 0), (195) (sympy) and (196)'s inequalities given the side condition "
      "hold; the side condition needs c0 >= 22500 c^2 (1 + sigma^2)/sigma_max,*^4 (sympy): no absolute c0 (erratum, "
      "(1 + sigma^2)^2 in the batch condition).",
      "checked", section="App. A (proof of Thm 4.7)", claims=("srpfl.eq194-196.assembly",), alt="arXiv: eqs. (186)-(188)"),
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
