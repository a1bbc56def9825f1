"""Results ledger of the lpproj paper, Appendix A (convergence proofs): one row per numbered result (see :mod:`.ledger`)."""
from fedtheory.ledger import LedgerRow as R

ROWS = (
    # ------------------------------------------------------------------ App. A.1
    R("Definition 19", "definition",
      "Convexity and mu-strong convexity (equivalently Hess f >= mu I for C^2 functions).",
      "not-checkable", section="App. A.1", reason="definition"),
    R("Proposition 20", "proposition",
      "Nesterov: for L_F-smooth convex F_k, ||grad F_k(w') - grad F_k(w)||^2/(2 L_F) <= F_k(w') - F_k(w) - <grad F_k(w), "
      "w' - w>; for mu_F-strongly convex F_k, ||grad F_k(w') - grad F_k(w)|| >= mu_F ||w' - w||.",
      "not-checkable", section="App. A.1",
      reason="standard cited textbook inequality (Nesterov 2018, Thms 2.1.5/2.1.10), used only as a proof tool"),
    R("Proposition 21", "proposition",
      "||sum_{k<=M} x_k||^2 <= M sum ||x_k||^2 and ||x_1 + x_2||^2 <= (1+c)||x_1||^2 + (1 + 1/c)||x_2||^2.",
      "not-checkable", section="App. A.1", reason="standard Cauchy-Schwarz inequalities used as proof tools"),
    R("Proposition 22", "proposition",
      "Conjugate duality: f** = f; c-strongly convex => f* is 1/c-smooth on R^d; convex c-smooth => f* 1/c-strongly "
      "convex; u in df(x) <=> x in df*(u).",
      "not-checkable", section="App. A.1", reason="standard cited facts (Hiriart-Urruty & Lemarechal 1993)"),
    R("Proposition 23", "proposition",
      "Vershynin Thm 5.58: a d x D matrix with independent sub-gaussian isotropic rows of norm sqrt(D) has "
      "sqrt(D) - C sqrt(d) - t <= s_min <= s_max <= sqrt(D) + C sqrt(d) + t w.p. >= 1 - 2 exp(-c t^2).",
      "not-checkable", section="App. A.1",
      reason="cited random-matrix theorem with unspecified constants C, c (its instance for the paper's P is "
             "Proposition 24, which is checked)"),
    R("Proposition 24", "proposition",
      "For the paper's P (rows uniform on the sphere), w.p. >= 1 - 2 exp(-c d_sub): 1 - C sqrt(d_sub/d) <= s_min(P) <= "
      "s_max(P) <= 1 + C sqrt(d_sub/d). Checked: C fitted as the largest 99% quantile on one grid of (d, d_sub) (about 1, "
      "the Marchenko-Pastur edge) and tested out of sample on larger d/d_sub (violation rate at most 5%, exact binomial "
      "test); the probability exponent c is not estimated.",
      "checked", section="App. A.1", claims=("lpproj.prop24.singular-values",)),
    R("Proposition 25", "proposition",
      "Under (5): ||P x||^2 <= (1+s)^2 ||x||^2, ||P x||^2 >= (1-s)^2 ||x||^2 on col(P^T), (1-s)^2||y||^2 <= ||P^T y||^2 <= "
      "(1+s)^2 ||y||^2, and f(P^T .) is (1+s)^2 L-smooth.",
      "unchecked", section="App. A.1",
      reason="a check would draw P, set s = max(s_max - 1, 1 - s_min), and verify the norm sandwiches on random x, y "
             "(and x in col(P^T)) and the smoothness constant of a quadratic composed with P^T (eigenvalues)"),
    # ------------------------------------------------------------------ App. A.2-A.6
    R("Eqs. (13)-(16)", "equation",
      "Proof steps of Theorem 9: client-sampling bound via Lemmas 8 and 5 (13), drift bound (14), one-step recursion "
      "E Delta_{t+1} <= (1 - eta~ mu_F/2) E Delta_t - eta~ E[F - F*] + eta~ C_1 + eta~^2 C_2 + eta~^3 C_3/beta^2 (15), "
      "and the weighted telescoped bound (16).",
      "not-checkable", section="App. A.2",
      reason="proof steps of Theorem 9; their conclusion (17) has its own checked row (note: (16) prints "
             "exp(-eta~ mu_F/2) for exp(-eta~ mu_F T/2), and the step A_T >= alpha_{T-1}(1 - e^-1)/(eta~ mu_F/2) >= "
             "alpha_{T-1}/(eta~ mu_F/2) is false though the conclusion survives)"),
    R("Eq. (17)", "equation",
      "Explicit bound: for eta~ = eta beta R <= eta_hat_1 and eta~ T >= 2/mu_F, E F(w_bar_T) - F* <= mu_F "
      "exp(-eta~ mu_F T/2) Delta_0 + eta~^2 C_3/beta^2 + eta~ C_2 + C_1, C_1 = 16 lam^2 delta_1^2/mu_F, "
      "C_2 = 6 sigma_F1^2 (N/S-1)/(N-1), C_3 = 32 kappa_F L_F (14 sigma_F1^2 + 10 lam^2 delta_1^2) (printed without the "
      "T in the exponent). Checked with exact full-batch inner solves (C_1 = 0), S = 4 of N = 10, R = 2, beta = 20, "
      "non-orthogonal P; the nu > 0 / mini-batch floor C_1 is not exercised.",
      "checked", section="App. A.2", claims=("lpproj.thm9.bound17",)),
    R("Lemma 26", "lemma",
      "Smooth-case client drift (A2, A4, A6, (5), s < 1/30, eta~ <= beta/(5 L_F)): the bound of Lemma 7 with delta_1 "
      "replaced by delta_2.",
      "unchecked", section="App. A.3",
      reason="same computation as for Lemma 7 on an A6 problem (data in col(P^T)), comparing with delta_2 of Lemma 11"),
    R("Eqs. (18)-(19)", "equation",
      "Proof steps of Theorem 13: L_F-smoothness descent expansion (18) and E||g_t||^2 <= 3 E avg||g - grad F_k||^2 + "
      "3 E||sampled avg - grad F||^2 + 3 ||grad F||^2 (19).",
      "not-checkable", section="App. A.3",
      reason="proof steps of Theorem 13 (the proof also cites 'Lemmas 7 and 8' where Lemmas 26 and 8 are meant)"),
    R("Eq. (20)", "equation",
      "Explicit smooth-case bound: (1/(4T)) sum_{t<T} E||grad F(w~_t)||^2 <= E[F(w~_0) - F(w~_T)]/(eta~ T) + "
      "eta~^2 C_4/beta^2 + eta~ C_5 + C_6, C_4 = 4 L_F^2 (21 sigma_F2^2 + 10 lam^2 delta_2^2), C_5 = 5 L_F sigma_F2^2 "
      "(N/S-1)/(N-1), C_6 = 2 lam^2 delta_2^2, for eta~ <= eta_hat_2 = 1/(90 lam^2 L_F).",
      "unchecked", section="App. A.3",
      reason="a check would run Algorithm 1 (p = 2) on an A6 problem with lam >= max(sqrt(10 L^2 + 1), 4L), s < 1/30, "
             "eta~ <= eta_hat_2, exact or tolerance-nu inner solves, and compare the averaged squared gradient norm "
             "(Monte Carlo over sampling) with the right side computed from sigma_f^2, delta_2^2"),
    R("Eqs. (21)-(22)", "equation",
      "Proof steps of Theorem 13's personalised bound: avg E||P x_k^t - w~_t||^2 <= 2 delta_2^2 + (2/N) sum "
      "E||grad F_k||^2/lam^2 (21) and (1/N) sum E||grad F_k||^2 <= 3 sigma_F2^2 + lam^2/(lam^2 - 10 L^2) ||grad F||^2 (22).",
      "not-checkable", section="App. A.3", reason="proof steps of Theorem 13 (personalised-model bound)"),
    R("Eqs. (23)-(25)", "equation",
      "Proof steps of Lemma 7: split of ||g - grad F_k(w~_t)||^2 (23) and the per-step drift recursion (24)-(25) with "
      "factor (1 + 1/R).",
      "not-checkable", section="App. A.4", reason="proof steps of Lemma 7"),
    R("Eq. (26)", "equation",
      "Intermediate drift bound: E||w~^t_{k,r} - w~_t||^2 <= (14 eta~^2/beta^2) E||grad F_k(w~_t)||^2 + "
      "20 eta~^2 lam^2 delta_1^2/beta^2 for all r <= R when eta~ <= beta/(5 L_F).",
      "unchecked", section="App. A.4",
      reason="a check would run R local steps from w~_t with exact inner solves (delta_1 = 0, deterministic) and "
             "compare max_r ||w~^t_{k,r} - w~_t||^2 with 14 eta~^2 ||grad F_k(w~_t)||^2/beta^2 for eta~ = beta/(5 L_F)"),
    R("Eqs. (27)-(30)", "equation",
      "Proof steps of Proposition 10 (variational inequality (27) and co-coercivity-type bound (28)) and of Lemma 12 "
      "(diversity split (29) and smoothness bound (30), using 2(1-s)^-2 <= 3 and 8(1-s)^-4 <= 10 for s < 1/30).",
      "not-checkable", section="App. A.4", reason="proof steps of Proposition 10 and Lemma 12"),
    R("Theorem 27", "theorem",
      "Formal Theorem 14: w.p. >= 1 - 2 exp(-c d_sub), E||w~_T - w~*||^2 <= O(Delta_0/T^4 + lam^2 (1 + gamma_f^2)/(mu^2 "
      "mu_F^3 T) (1 + kappa_F^2/(beta^2 T^2)) + (N/S-1) sigma_F1^2/(mu_F^2 N T) + kappa_F^2 sigma_F1^2/(mu_F^2 beta^2 T^2)) "
      "and E||x_k^T - x_k^*||^2 <= O((1 + gamma_f^2)/(mu^2 mu_F T) + lam^2 E||w~_T - w~*||^2/mu^2); S = N version with "
      "1/(beta^2 T^2) rates.",
      "unchecked", section="App. A.5", alt="informal: Theorem 14",
      reason="rate fits as for Theorem 14, plus the explicit personalised bound E||x_k^T - x_k^*||^2 <= "
             "(4/mu^2)(gamma_f^2/D_T + nu_T) + 2 lam^2 (1+s)^2 E||w~_T - w~*||^2/mu^2 from the proof"),
    R("Eqs. (31)-(32)", "equation",
      "Proof steps of Theorem 27: the Lemma 6 analogue with eta~_t (31) and the recursion E Delta_{t+1} <= "
      "(1 - mu_F eta~_t/2) E Delta_t + eta~_t^2 (C_0 C_1 + C_2) + eta~_t^3 C_3/beta^2 + eta~_t^4 C_0 C_4/beta^2 (32) "
      "with C_1 = 10 lam^2/mu_F, C_3 = 280 kappa_F L_F sigma_F1^2, C_4 = 200 kappa_F L_F lam^2.",
      "not-checkable", section="App. A.5", reason="proof steps of Theorem 27"),
    R("App. A.5, step-size sums after (32)", "statement",
      "For eta~_t = 8/(mu_F (zeta + t)) the proof bounds sum_t eta~_t^2 prod_{s>t}(1 - mu_F eta~_s/2) <= "
      "16/(3 mu_F^2 (zeta+T-1)), the eta~^3 sum by 32/(mu_F^3 (zeta+T-1)(zeta+T-2)) and the eta~^4 sum by "
      "256 T/(mu_F^4 (zeta+T-1)...(zeta+T-4)).",
      "unchecked", section="App. A.5",
      reason="a check would evaluate the three sums exactly and compare them with the printed bounds; a quick "
             "evaluation (zeta = 100, T = 1000, mu_F = 1) gives 1.94e-2 vs 4.85e-3, 2.09e-4 vs 2.65e-5 and 2.78e-6 vs "
             "1.76e-7: the printed constants 16, 64, 256 are those of eta~_t = 4/(mu_F(zeta+t)) and are too small by "
             "4, 8, 16 (64, 512, 4096 are right); the O(1/T) rate of Theorem 27 is unaffected"),
    R("Theorem 28", "theorem",
      "Formal Theorem 15: w.p. >= 1 - 2 exp(-c d_sub), E||grad F(w~_{t*})||^2 <= O(lam^2 L_F^2 Delta_F/sqrt(T) + "
      "(1 + gamma_f^2) ln T/(lam^2 L_F sqrt(T)) + (N/S-1) sigma_F2^2 ln T/(lam^2 N sqrt(T)) + sigma_F2^2/(lam^4 beta^2 "
      "sqrt(T))) = O(ln T/sqrt(T)); S = N version O(lam^2 L_F Delta_F/(beta T)^{2/3} + ...).",
      "unchecked", section="App. A.6", alt="informal: Theorem 15",
      reason="rate fits as for Theorem 15; the proof's explicit first term is 180 lam^2 L_F Delta_F/(sqrt(T+1) - 1), "
             "which a check could compare directly with the alpha-weighted gradient norms"),
    R("Eq. (33)", "equation",
      "Proof step of Theorem 28: sum_t alpha_t E||grad F||^2 <= 4 Delta_F/sum eta~_t + weighted sums of eta~_t^2, "
      "eta~_t^3, eta~_t^4 over sum eta~_t.",
      "not-checkable", section="App. A.6",
      reason="proof step of Theorem 28 (in the S = N branch the bound sum (t+1)^{-5/3} <= 3/2 is printed where "
             "1 + (3/2)(1 - T^{-2/3}) < 5/2 is right, and delta_t^2 lacks a beta^{-2/3}; constants only)"),
)
