"""Results ledger of the lpproj paper, Appendix B (federated linear regression: B.1 solutions, B.2 test loss, B.3 robustness, B.4 fairness): one row per numbered result (see :mod:`.ledger`)."""
from fedtheory.ledger import LedgerRow as R

ROWS = (
    # ------------------------------------------------------------------ App. B.1
    R("Eq. (34)", "equation",
      "pFedMe global model for general designs: stationarity condition whose solution is the matrix-weighted average "
      "w^Me = [sum_k (Xi_k^T Xi_k/n + lam I)^-1 Xi_k^T Xi_k/n]^-1 sum_k (Xi_k^T Xi_k/n + lam I)^-1 Xi_k^T Xi_k w_hat_k/n "
      "(the weights commute by Sherman-Morrison-Woodbury). Checked on non-orthogonal Gaussian designs (N = 5, n = 12, "
      "d = 4, column scales in [0.3, 3], lam in {0.05, 1, 20}; 3 draws quick, 10 full): the joint minimiser of "
      "(1/N) sum_k [f_k(x_k) + (lam/2)||w - x_k||^2] over (w, x_1..x_N) satisfies (34) (residual ~1e-15) and equals "
      "the matrix-weighted average and x_k^Me to ~1e-14; the Sherman-Morrison-Woodbury form of the weights also "
      "holds; the simple average of w_hat_k differs by up to 1.6, so the general-design formula is needed.",
      "checked", section="App. B.1", claims=("lpproj.eq34.pfedme-general-design",)),
    R("App. B.1, closed-form solutions", "statement",
      "With Xi_k^T Xi_k = n b_k I: w^Avg = sum b_k w_hat_k/sum b_k, w^Me = sum (b_k/(b_k+lam)) w_hat_k/sum b_k/(b_k+lam), "
      "x_k^Me = (b_k w_hat_k + lam w^Me)/(b_k + lam), Ditto uses w^Avg, and lp-proj-2 (P = P_0 WLOG) has w~^{l2} = "
      "b_k-weighted average of P w_hat_k and x_k^{l2} = (P-part of pFedMe, rest local); for b_k = b all global models "
      "equal the plain average and pFedMe = Ditto. Checked for b_k = b (also the general-P lp-proj solution); the "
      "b_k-weighted forms are not exercised.",
      "checked", section="App. B.1", claims=("lpproj.appB1.algorithm-vs-closed-form",)),
    # ------------------------------------------------------------------ App. B.2
    R("App. B.2, solution distributions", "statement",
      "For b_k = b: w^Avg = w^Me ~ N(w_bar, sigma^2/(b N n) I), x_k^Me ~ N((b w_k + lam w_bar)/(b+lam), (b^2 + 2 b lam/N + "
      "lam^2/N) sigma^2/(b n)/(b+lam)^2 I), and x_k^{l2} has the pFedMe law on the projected coordinates and the local "
      "law sigma^2/(b n) on the rest. Checked: the printed lam^2/N^2 in the lp-proj-2 covariance is wrong (lam^2/N); "
      "'(b_k + lam)^2' should read (b + lam)^2.",
      "checked", section="App. B.2",
      claims=("lpproj.appB2.covariance.erratum", "lpproj.thm30.general-losses-mc")),
    R("Eq. (35)", "equation",
      "Test loss f_k^te(x_k) = (1/2n) E||Xi_k x_k - y'_k||^2 = sigma^2/2 + (b/2) E||x_k - w_k||^2 = sigma^2/2 + (b/2) "
      "tr var(x_k) + (b/2)||E x_k - w_k||^2. Checked: the bias-variance split (Monte Carlo of (b/2)||x_k - w_k||^2 "
      "against the trace + bias closed forms, per client and averaged); the test-noise averaging step is used, not "
      "simulated.",
      "checked", section="App. B.2",
      claims=("lpproj.appB4.per-client-losses-mc", "lpproj.thm30.general-losses-mc")),
    R("Eq. (36)", "equation",
      "Uniform heterogeneity: Sigma := (1/(d N)) sum_k ||w_bar - w_k||^2 = (1/(d_sub N)) sum_k ||w_bar_1 - w_{k,1}||^2. "
      "Checked: under (36) the uniform-form losses equal the general forms exactly.",
      "checked", section="App. B.2", claims=("lpproj.appB2.uniform-forms",)),
    R("App. B.2, averaged test losses", "statement",
      "L^loc = sigma^2/2 + sigma^2 d/(2n), L^Avg = sigma^2/2 + sigma^2 d/(2 N n) + b d Sigma/2, L^Me(lam) = sigma^2/2 + "
      "(b^2 + 2 b lam/N + lam^2/N)/(b+lam)^2 sigma^2 d/(2n) + bias, L^l2 the same with d_sub plus sigma^2 (d - d_sub)/(2n). "
      "Checked (Monte Carlo and exact): the printed bias b lam^2 d Sigma/(2 N (b+lam)^2) has a spurious 1/N; the correct "
      "term is b lam^2 d Sigma/(2 (b+lam)^2).",
      "checked", section="App. B.2",
      claims=("lpproj.thm30.general-losses-mc", "lpproj.appB2.uniform-forms", "lpproj.appB2.bias-over-N.erratum")),
    R("Lemma 29", "lemma",
      "g(lam) = (A lam^2 + B lam + C)/(lam + b)^2 with A, B, C, b > 0, 2Ab - B > 0 and Bb - 2C < 0 has argmin_{lam>=0} "
      "g = (2C - Bb)/(2Ab - B) (g'(lam) = ((2Ab - B) lam + Bb - 2C)/(lam + b)^3). Checked symbolically and numerically.",
      "checked", section="App. B.2", claims=("lpproj.lemma29.optimal-lambda",)),
    R("App. B.2, optimal lambda and minimal losses", "statement",
      "Applying Lemma 29, both pFedMe and lp-proj-2 are minimised at lam* = (1 - 1/N) sigma^2/(n Sigma), with "
      "L^Me_* = sigma^2/2 + sigma^2 d/(2n(b+lam*)^2)[lam*^2/N + (N+1) b lam*/N + b^2], L^l2_* the d_sub analogue plus the "
      "local part, and L^Avg in the same template. Checked; the printed A = ... + b d Sigma/(2N) carries the same "
      "spurious 1/N (it would give argmin (N-1) sigma^2/(n Sigma)).",
      "checked", section="App. B.2",
      claims=("lpproj.lemma29.optimal-lambda", "lpproj.appB2.bias-over-N.erratum")),
    R("App. B.2, comparisons and regimes", "statement",
      "L^loc >= L^l2_* >= L^Me_*, L^Avg >= L^Me_*; L^loc <= L^Avg iff lam* <= b; L^l2_* <= L^Avg iff lam* <= b sqrt(d/(d - "
      "d_sub)); for any lam: L^loc <= L^l2 <= L^Me iff Sigma >= ((N-1)/N)((2b+lam)/lam) sigma^2/(b n), L^Me <= L^Avg iff "
      "lam >= (lam* - b)/2, L^l2 <= L^Avg iff Sigma >= ((N-1)/N)(sigma^2/(b n)) (d(b+lam)^2 - d_sub lam(2b+lam))/(d(b+lam)^2 "
      "- d_sub lam^2) (fraction in [sqrt((d-d_sub)/d), 1]); small/large-heterogeneity orderings. Checked (minus signs "
      "lost in the text restored); the Sigma -> infinity limit remark is not separately checked.",
      "checked", section="App. B.2", claims=("lpproj.appB2.comparisons",)),
    # ------------------------------------------------------------------ App. B.3
    R("App. B.3.1, one round with infinite local steps", "statement",
      "With one communication round, S = N, beta = 1 and infinitely many local steps (step eta lam b/(b+lam) not too "
      "large), local, FedAvg, pFedMe, Ditto and lp-proj-2 reach exactly their App. B.1 solutions. Checked to machine "
      "precision by running Algorithm 1.",
      "checked", section="App. B.3.1", claims=("lpproj.appB1.algorithm-vs-closed-form",)),
    R("Eq. (37)", "equation",
      "Same-value uniformity: Sigma_1 := (1/(d N_b)) sum_{I_b} ||sum_{I_b} w_i/N - w_k||^2 = the same over the first d_sub "
      "coordinates. Checked: under (37) the uniform forms (38)-(39) equal the general forms.",
      "checked", section="App. B.3.2", claims=("lpproj.appB2.uniform-forms",)),
    R("App. B.3.2, same-value attack derivation", "statement",
      "Server aggregates divide by N; x_k^{Me,att1} ~ N((b w_k + lam sum_{I_b} w_i/N)/(b+lam), ([(b + lam/N)^2 + (N_b - 1) "
      "lam^2/N^2] sigma^2/(b n) I + N_a lam^2 tau^2 J/N^2)/(b+lam)^2); Lemma 29 with (A, B, C) = (sigma^2 N_b/(b N^2 n) + "
      "N_a tau^2/N^2 + Sigma_1, 2 sigma^2/(N n), sigma^2 b/n) gives lambda_1^*. Checked through the losses and the argmin "
      "(the printed lp-proj-2 covariance drops lam^2/N^2 on the (N_b - 1) term and mislabels the lower block).",
      "checked", section="App. B.3.2",
      claims=("lpproj.thm30.general-losses-mc", "lpproj.lemma29.optimal-lambda", "lpproj.thm30.effective-heterogeneity")),
    R("Eq. (38)", "equation",
      "Losses at lambda_1^*: L^{Me,att1}_* and L^{l2,att1}_* (and L^loc, L^{Avg,att1}) in the minimal-loss template of "
      "App. B.2 with lam* -> lambda_1^*. Checked: exact equality via the effective heterogeneity D_1 and the closed-form "
      "minima.",
      "checked", section="App. B.3.2",
      claims=("lpproj.lemma29.optimal-lambda", "lpproj.thm30.effective-heterogeneity")),
    R("App. B.3.2, observations at lambda_1^*", "statement",
      "Under the same-value attack: L^loc >= L^l2_* >= L^Me_*, L^Avg >= L^Me_*, L^loc <= L^Avg iff lambda_1^* <= b, "
      "L^l2_* <= L^Avg iff lambda_1^* <= b sqrt(d/(d - d_sub)); lambda_1^* << lambda^* since tau^2 is large.",
      "checked", section="App. B.3.2",
      claims=("lpproj.appB2.comparisons", "lpproj.thm30.effective-heterogeneity")),
    R("Theorem 30", "theorem",
      "Formal Prop. 16, eq. (39): closed forms of L^{loc,att1}, L^{Avg,att1}, L^{Me,att1}(lam) = L^{Di,att1}(lam) and "
      "L^{l2,att1}(lam) under the same-value attack, plus comparison bullets (loc vs Avg iff lambda_1^* <= b; l2 vs Me "
      "threshold 2 lambda_1^*/(1 - lambda_1^*/b); Me vs Avg iff lam >= (lambda_1^* - b)/2; l2 vs Avg condition) and the "
      "severe-attack orderings. Checked: closed forms vs Monte Carlo (and Gaussian attack = same-value), the reduction "
      "to the clean formulas with Sigma -> D_1 = Sigma_1 + (N_a/N^2)(tau^2 - sigma^2/(b n)), Prop. 16, and the bullets "
      "read with their minus signs (lost in text extraction, not an erratum) against brute-force exact losses.",
      "checked", section="App. B.3.2", alt="informal: Proposition 16",
      claims=("lpproj.thm30.general-losses-mc", "lpproj.appB2.uniform-forms", "lpproj.thm30.effective-heterogeneity",
              "lpproj.thm30.gaussian-equals-same-value", "lpproj.prop16", "lpproj.appB2.comparisons",
              "lpproj.thm30.bullets"),
      figures=("lpproj.attacks", "lpproj.fig1")),
    R("Eq. (39)", "equation",
      "L^{l2,att1}(lam) = sigma^2/2 + (b d_sub/2)[(b^2 + 2 b lam/N + N_b lam^2/N^2) sigma^2/(b n) + N_a lam^2 tau^2/N^2]/"
      "(b+lam)^2 + (d - d_sub) sigma^2/(2n) + b lam^2 d_sub Sigma_1/(2(b+lam)^2) (last line of Theorem 30's display).",
      "checked", section="App. B.3.2",
      claims=("lpproj.appB2.uniform-forms", "lpproj.thm30.general-losses-mc")),
    R("Remark 31", "remark",
      "L*_{l2} = C + sigma^2 lambda_1^* (1/N - 1) d_sub/(2 n (b + lambda_1^*)) (linear in d_sub, negative slope) and "
      "L'_{l2,att1}(lam) = (b d_sub sigma^2/n)((1/N - 1) b + (N_b/N - 1) lam/N)/(b+lam)^3 + b^2 lam d_sub (N_a tau^2/N^2 + "
      "Sigma_1)/(b+lam)^3, linear in d_sub. Checked with the parenthesisation corrected (printed: Sigma_1 outside the "
      "fraction; lambda_1 for lambda_1^*).",
      "checked", section="App. B.3.2", alt="informal: Remark 17",
      claims=("lpproj.rem17.dsub",), figures=("lpproj.dsub",)),
    R("Eqs. (40)-(41)", "equation",
      "Sign-flip uniformity: Sigma_2 with centre (N_b w_bar_b - N_a sqrt(2/pi) tau w_bar_a)/N equal over all and over the "
      "first d_sub coordinates (40), and M_0 := sum_{I_a} tr M_i/(N_a d) = sum_{I_a} tr M~_i/(N_a d_sub) (41). Checked: "
      "under (40)-(41) the uniform sign-flip forms equal the general forms.",
      "checked", section="App. B.3.3", claims=("lpproj.appB2.uniform-forms",)),
    R("Eq. (42)", "equation",
      "Sign-flip message -|c| w_hat_k (c ~ N(0, tau^2)): mean -sqrt(2/pi) tau w_k (printed sqrt(2/pi tau)) and covariance "
      "M_k = ((pi-2)/pi) tau^2 w_k w_k^T + tau^2 sigma^2/(b n) I_d.",
      "checked", section="App. B.3.3", claims=("lpproj.eq42-43.signflip-moments",)),
    R("Eq. (43)", "equation",
      "Projected analogue: var(-|c| w_hat_{k,1}) = M~_k = ((pi-2)/pi) tau^2 w_{k,1} w_{k,1}^T + tau^2 sigma^2/(b n) I_{d_sub}.",
      "checked", section="App. B.3.3", claims=("lpproj.eq42-43.signflip-moments",)),
    R("App. B.3.3, sign-flip losses and lambda_2^*", "statement",
      "Under sign-flipping, L^{Avg,att2}, L^{Me,att2} = L^{Di,att2} and L^{l2,att2} are the same-value forms with "
      "(Sigma_1, tau^2) -> (Sigma_2, M_0), minimised at lambda_2^* = (1 - 1/N) sigma^2/n/(Sigma_2 + (N_a/N^2)(M_0 - "
      "sigma^2/(b n))); all Theorem 30 comparisons carry over. Checked (general forms by Monte Carlo, uniform forms, "
      "effective heterogeneity D_2, argmin).",
      "checked", section="App. B.3.3",
      claims=("lpproj.thm30.general-losses-mc", "lpproj.appB2.uniform-forms", "lpproj.thm30.effective-heterogeneity",
              "lpproj.lemma29.optimal-lambda"),
      figures=("lpproj.attacks",)),
    R("App. B.3.4, Gaussian attack", "statement",
      "Gaussian messages N(0, tau^2 I) give exactly the same benign test losses as the same-value attack because "
      "tr I = tr J and the loss depends on the attack covariance only through its trace.",
      "checked", section="App. B.3.4", claims=("lpproj.thm30.gaussian-equals-same-value",),
      figures=("lpproj.attacks",)),
    # ------------------------------------------------------------------ App. B.4
    R("App. B.4, per-client test losses", "statement",
      "f_k^te(w_k^loc) = sigma^2/2 + sigma^2 d/(2n), f_k^te(w^Avg) = sigma^2/2 + sigma^2 d/(2 N n) + (b/2)||w_bar - w_k||^2, "
      "f_k^te(x_k^Me) = f_k^te(x_k^Di) = sigma^2/2 + (b^2 + 2 b lam/N + lam^2/N)/(b+lam)^2 sigma^2 d/(2n) + b lam^2 "
      "||w_bar - w_k||^2/(2(b+lam)^2), and the lp-proj-2 analogue with the projected difference. Checked per client by "
      "Monte Carlo.",
      "checked", section="App. B.4", claims=("lpproj.appB4.per-client-losses-mc",)),
    R("Eq. (44)", "equation",
      "var~(a_k) := (1/N) sum a_k^2 - ((1/N) sum a_k)^2 (population variance across clients).",
      "not-checkable", section="App. B.4", reason="definition"),
    R("Theorem 32", "theorem",
      "Formal Prop. 18: V^loc = 0, V^Avg = (b^2/4) var~(||w_bar - w_k||^2), V^Me = V^Di = b^2 lam^4/(4(b+lam)^4) "
      "var~(||w_bar - w_k||^2), V^l2 the same with the projected difference (eq. (45)); for Gaussian w_k, E V^Avg, "
      "E V^Me, E V^l2 in (46)-(48). Checked: (45) exactly, the expectations by Monte Carlo (printed constant 4 should "
      "be 2), the corrected E V^l2, the ratio E V^l2/E V^Me = tr((P Sigma_w P^T)^2)/tr(Sigma_w^2) by Monte Carlo in 6 "
      "(Sigma_w, P) cases, and the proof identity (49)(d) exactly (its printed form is 2x the variance).",
      "checked", section="App. B.4", alt="informal: Proposition 18",
      claims=("lpproj.thm32.fairness-exact", "lpproj.thm32.fairness-constant.erratum",
              "lpproj.prop18.expected-ordering", "lpproj.appB4.per-client-losses-mc",
              "lpproj.prop18.dimension-scaling", "lpproj.eq49d.identity.erratum"),
      figures=("lpproj.fairness",)),
    R("Eq. (45)", "equation",
      "Exact across-client variances V^loc = 0, V^Avg = (b^2/4) var~(||w_bar - w_k||^2), V^Me(lam) = V^Di(lam) = "
      "b^2 lam^4/(4(b+lam)^4) var~(||w_bar - w_k||^2), V^l2(lam) = b^2 lam^4/(4(b+lam)^4) var~(||w_bar_1 - w_{k,1}||^2).",
      "checked", section="App. B.4", claims=("lpproj.thm32.fairness-exact",)),
    R("Eqs. (46)-(48)", "equation",
      "For w_k i.i.d. N(mu_w, Sigma_w): E V^Avg = b^2 (N-1)(N-2)/N^2 sum_{ij} Sigma_ij^2 = O(d^2), E V^Me = b^2 lam^4/"
      "(b+lam)^4 (N-1)(N-2)/N^2 sum_{ij<=d} Sigma_ij^2, E V^l2 the same over i, j <= d_sub = O(d_sub^2). Checked by Monte "
      "Carlo: every printed value is 2x too large (factor (N-1)(N-2)/(2N^2) is right); orderings unaffected. Ratio "
      "E V^l2/E V^Me (Monte Carlo, N = 10, d = 20, d_sub = 4): d_sub/d = 0.2 for isotropic Sigma_w (any P), (d_sub/d)^2 "
      "= 0.04 for Sigma_w = s^2 11^T with P = P_0, but ||P1||^4/d^2 for general P (0 to 1; 0.0545 = d_sub(d_sub+2)/"
      "(d(d+2)) on average over random P). MC exponent of E V^Me in d (d = 10 -> 40): 1.00 isotropic, 1.99 dense.",
      "checked", section="App. B.4",
      claims=("lpproj.thm32.fairness-constant.erratum", "lpproj.prop18.expected-ordering",
              "lpproj.prop18.dimension-scaling")),
    R("App. B.4, fairness orderings and monotonicity", "statement",
      "V^loc <= V^Me(lam) <= V^Avg and V^loc <= V^l2(lam) for fixed w_k, E V^loc <= E V^l2 <= E V^Me <= E V^Avg for "
      "Gaussian w_k, and 'larger lambda leads to more fairness'. Checked: the orderings hold; the monotonicity sentence "
      "is wrong (V^Me = lam^4/(b+lam)^4 V^Avg increases in lam, also by brute force; smaller lam is fairer).",
      "checked", section="App. B.4",
      claims=("lpproj.thm32.fairness-exact", "lpproj.appB4.fairness-monotone.erratum", "lpproj.prop18.expected-ordering"),
      figures=("lpproj.fairness",)),
    R("App. B.4, V^l2 can exceed V^Me", "statement",
      "For fixed w_k the projected variance var~(||w_bar_1 - w_{k,1}||^2) can exceed var~(||w_bar - w_k||^2) when the "
      "heterogeneity concentrates in the first d_sub coordinates, so V^l2 <= V^Me is only claimed in expectation. "
      "Checked exactly (brute-force per-client losses and (45)): V^l2 > V^Me iff var~(c_k) + 2 cov~(a_k, c_k) < 0 (a_k, c_k "
      "the projected and complementary squared deviations). Heterogeneity only in the first d_sub coordinates gives "
      "V^l2 = V^Me (0.0197 = 0.0197 at lam = 1), not more; an anti-correlated complement gives V^l2 = 0.0197 > V^Me = 0.",
      "checked", section="App. B.4", claims=("lpproj.appB4.vl2-exceeds-vme",)),
    R("Eq. (49)", "equation",
      "Identity var~(||w_bar - w_k||^2) = (1/N^2) sum_{k != l} (||w_k - w_bar||^2 - ||w_l - w_bar||^2)^2/2 = "
      "(1/N^2) sum_{k != l} <w_k - w_l, w_k + w_l - 2 w_bar>^2 (steps (a)-(d)). Checked on 300 random configurations "
      "against var~ computed directly: steps (b), (c) and (d) with 1/2 hold to 2e-14; printed (d) is exactly 2x var~ "
      "(source of the 2x error in (46)-(48), also seen by Monte Carlo).",
      "checked", section="App. B.4", claims=("lpproj.thm32.fairness-constant.erratum", "lpproj.eq49d.identity.erratum")),
)
