"""Results ledger of Jadbabaie, Makur, Shah, "Federated Optimization of Smooth Loss Functions" (FedLRGD). Numbering follows the paper (eqs. (1)-(90), Sections I-VI, Appendices A-E)."""
from fedtheory.ledger import LedgerRow as R

LEDGER = (
    # ------------------------------------------------------------------ Abstract, Section I
    R("Abstract", "statement",
      "Gamma(FedLRGD) scales like phi m (p/eps)^{Theta(d/eta)} (printed Theta(d/n), a typo; Sec. I-B item 3 and Sec. VI say d/eta) "
      "and Gamma(FedAve) like phi m (p/eps)^{3/4}; checked: the exponent of p/eps in r from (47) does not involve n and "
      "scales like d/eta.",
      "checked", section="Abstract", claims=("fedlrgd.abstract.exponent.erratum",)),
    R("Eqs. (1)-(3)", "definition",
      "ERM objective F(theta) = (1/n) sum_i f(x^(i); theta) (1), its finite-sum form (2), and the federated split with r server "
      "samples and s samples on each of m clients, n = ms + r (3).",
      "not-checkable", section="I, I-A",
      reason="definitions (Sec. I-A's index set {x^(i,j): i in {0} u [m], j in [s]} should use j in [r] for i = 0)"),

    # ------------------------------------------------------------------ Section II-B assumptions
    R("Eq. (4)", "assumption",
      "Assumption 1 (smoothness in theta): ||grad_theta f(x; t1) - grad_theta f(x; t2)||_2 <= L1 ||t1 - t2||_2 for every x.",
      "not-checkable", section="II-B",
      reason="assumption; its Appendix A instance (L1 = (d-1)/2 + mu) is checked in the Eq. (68) row"),
    R("Eq. (5)", "assumption",
      "Assumption 2 (mu-strong convexity of f(x; .) for every x); condition number kappa = L1/mu >= 1.",
      "not-checkable", section="II-B",
      reason="assumption; its Appendix A instance (lambda_min >= mu) is checked in the Eq. (68) row"),
    R("Eq. (6)", "assumption",
      "Assumption 3 (smoothness in data): each g_i(.; theta) is (eta, L2)-Hoelder w.r.t. l1, |grad^s g_i(y1) - grad^s g_i(y2)| "
      "<= L2 ||y1 - y2||_1^{eta - l} for |s| = l = ceil(eta) - 1; checked: the printed exponent eta - 1 (l/1 glyph error) "
      "admits only polynomials for eta = 2.5, the corrected eta - l is the one the Lemma 1 proof uses.",
      "checked", section="II-B", claims=("fedlrgd.eq6.exponent.erratum",)),
    R("Eq. (7)", "assumption",
      "Assumption 4 (non-singularity): for distinct data y^(1..r) and (a.e.) distinct parameters, G^(i)_{jk} = g_i(y^(j); "
      "theta^(k)) is invertible.",
      "unchecked", section="II-B",
      reason="a check would report sigma_min(G^(i)) against r for the Appendix A logistic g_i in extended precision (mpmath), "
             "to tell true singularity from double-precision rank loss; fedlrgd.asm8.conditioning only measures ||G^{-1}|| in "
             "double precision, where G is numerically singular beyond moderate r"),
    R("Eq. (8)", "assumption",
      "Assumption 5 (conditioning): ||(G^(i))^{-1}||_op <= r^alpha for an absolute alpha >= 1; checked (measured, not "
      "asserted): alpha_hat(r) = log||G^{-1}||/log r on the Appendix A logistic example grows with r, so no fixed alpha fits "
      "an analytic kernel (the paper does not claim (8) for this example).",
      "checked", section="II-B", claims=("fedlrgd.asm8.conditioning",)),
    R("Eq. (9)", "assumption",
      "Assumption 6 (boundedness): sup_x sup_theta |g_i(x; theta)| <= B.",
      "not-checkable", section="II-B",
      reason="assumption, asserted for no instance; over R^p it contradicts strong convexity (the paper notes this and "
             "points to a compact parameter set / projected GD, Sec. II-C)"),
    R("Eqs. (10)-(12)", "definition",
      "F_* = min F = F(theta*) (10); eps-approximate solution: F(theta_out) - F_* <= eps for deterministic output (11), "
      "E[F(theta_out)] - F_* <= eps for random output (12).",
      "not-checkable", section="II-B",
      reason="definitions (note FedLRGD is analysed in sense (11), FedAve in the weaker sense (12))"),
    R("Eq. (13)", "equation",
      "Descent lemma: F(theta - grad F(theta)/L1) - F(theta) <= -||grad F(theta)||^2/(2 L1) when grad F is L1-Lipschitz.",
      "unchecked", section="II-C",
      reason="a check would evaluate both sides at random theta in [-1,1]^{d-1} for the Appendix A regularised logistic risk "
             "with L1 = (d-1)/2 + mu (and with the tighter (d-1)/4 + mu) and count violations"),
    R("Eqs. (14)-(15)", "equation",
      "Heuristic SVD expansion g_i(x, theta) = sum_j sigma_j u_j(x) v_j(theta) of the kernel (14) and the induced expansion of "
      "the sampled matrix G^(i) (15), motivating non-singularity.",
      "not-checkable", section="II-C",
      reason="qualitative motivation for Assumption 4; no quantitative claim"),

    # ------------------------------------------------------------------ Section II-D time model
    R("Eq. (16)", "equation",
      "The Erlang(b, 1) CDF is a von Mises function with auxiliary function a(x) = sum_{k<b} (b-1)!/(b-k-1)! x^{-k} = "
      "1 + (b-1)/x + O(x^{-2}).",
      "unchecked", section="II-D",
      reason="a check would compare the closed form with (1 - F_Y(x))/f_Y(x) from scipy.stats.gamma on a grid of x and b and "
             "confirm the 1 + (b-1)/x expansion for x >> b"),
    R("Eq. (17)", "equation",
      "Gumbel limit: (max{Y_1..Y_k} - F^{-1}(1 - 1/k))/a(F^{-1}(1 - 1/k)) converges in law to exp(-e^{-x}).",
      "unchecked", section="II-D",
      reason="a check would simulate maxima of k Erlang(b,1) draws, normalise them with scipy quantiles and (16), and "
             "KS-test against the Gumbel CDF for growing k"),
    R("Eq. (18)", "equation",
      "Approximation F_Y^{-1}(1 - 1/k) ~ log(k) + b for the Erlang(b,1) quantile.",
      "unchecked", section="II-D",
      reason="a check would tabulate scipy.stats.gamma.isf(1/k, b) / (log k + b) over a (b, k) grid (spec: b = 20, k = 1e4 "
             "gives 41.0 vs 29.2); fedlrgd.eq19.erlang-max cites (18) but only tests the end result (19)"),
    R("Eq. (19)", "equation",
      "Expected epoch computation time b + E[max of tau m Erlang(b,1)] ~ gamma a(F^{-1}) + F^{-1} + b ~ log(tau m) + 2b "
      "(+Theta(1)); checked only as an order-of-magnitude approximation (within a factor 2): Monte Carlo exceeds "
      "log(tau m) + 2b by an amount growing with b.",
      "checked", section="II-D", claims=("fedlrgd.eq19.erlang-max",)),
    R("Eq. (20)", "equation",
      "Server-only computation: b + E[Y] = 2b for Y ~ Erlang(b, 1).",
      "unchecked", section="II-D",
      reason="a check would compare the Monte Carlo mean of b + Erlang(b,1) with 2b (exact since E[Y] = b); trivial"),
    R("Eq. (21)", "equation",
      "Expected computation time per epoch: 2b + log(tau m) if the active clients compute, 2b if the server computes; checked: "
      "the client case, via (19) (order of magnitude only); the server case (20) is not.",
      "checked", section="II-D", claims=("fedlrgd.eq19.erlang-max",)),
    R("Eq. (22)", "equation",
      "Upload completion time S = inf{t: D(t) = tau m} of a stationary M/M/1 queue (arrival rate 1, service rate nu > 1) is "
      "Erlang(tau m, 1) by Burke's theorem.",
      "checked", section="II-D", claims=("fedlrgd.eq23.mm1-queue",)),
    R("Eq. (23)", "equation",
      "E[S] = tau m.",
      "checked", section="II-D", claims=("fedlrgd.eq23.mm1-queue",)),
    R("Eq. (24)", "equation",
      "Expected communication time per epoch = phi tau m (phi = communication-to-computation ratio).",
      "not-checkable", section="II-D",
      reason="modelling definition: (23) rescaled by the ratio phi"),
    R("Eq. (25)", "equation",
      "Expected epoch running time: 2b + log(tau m) + phi tau m (Type A), 2b (Type B), phi tau m (Type C).",
      "unchecked", section="II-D",
      reason="a check would simulate whole epochs of each type (max of tau m Erlang computations, then M/M/1 uploads scaled by "
             "phi) and compare the mean times with the three expressions"),
    R("Eq. (26)", "equation",
      "Orders: Theta(b + phi tau m), Theta(b), Theta(phi tau m) for epoch types A, B, C.",
      "not-checkable", section="II-D", reason="Theta-order restatement of (25)"),
    R("Definition 1", "definition",
      "Federated oracle complexity Gamma(A) = sum_{t<=T} (b_t + 1{clients communicate in epoch t} phi tau m) (the printed sum "
      "lacks the parentheses); checked: FedLRGD's instrumented per-epoch counts reproduce Gamma = r^2 + rs + rS + phi m r.",
      "checked", section="II-D", claims=("fedlrgd.alg1.counters",)),

    # ------------------------------------------------------------------ Section III-A
    R("Eqs. (27)-(28)", "definition",
      "Minimal l1 cover of [0,1]^d by closed l1-balls of radius 1/q (27) and the disjointified partition S_{d,q} (28).",
      "not-checkable", section="III-A",
      reason="definitions (Sec. III-A allows any q > 0, the Theorem 2 proof needs q >= 1)"),
    R("Lemma 1", "lemma",
      "Uniform piecewise polynomial approximation: the piecewise degree-l Taylor approximant P_{q,l} on S_{d,q} satisfies "
      "sup_y |g(y; theta) - P_{q,l}(y; theta)| <= L2/(l! q^eta), l = ceil(eta) - 1, for any q > 0.",
      "checked", section="III-A", claims=("fedlrgd.lemma1.taylor",)),
    R("Eqs. (29)-(31)", "definition",
      "Latent variable model M_ij = g(y^(i); theta^(j)) (29), its SVD (30) and best rank-r approximation M_r (31, "
      "Eckart-Young-Mirsky).",
      "not-checkable", section="III-A",
      reason="definitions; (31) is the classical Eckart-Young-Mirsky theorem (used by svd_tail in the checks)"),
    R("Theorem 1", "theorem",
      "Low rank approximation: for r >= r* = e sqrt(d) 2^d (l+d)^d (and r <= min(n,k)), (1/(nk)) ||M - M_r||_F^2 <= "
      "L2^2 e^{2eta/d} d^{eta/d} 4^eta (l+d)^{2eta}/(l!)^2 r^{-2eta/d}; the printed (l)^2 denominator is corrected to (l!)^2 "
      "from the proof; the bound equals L2^2/(l!)^2 at r*.",
      "checked", section="III-A", claims=("fedlrgd.thm1.svd-tail", "fedlrgd.thm1.bound-shape",
                                          "fedlrgd.thm1.denominator.erratum"), figures=("fedlrgd.theorem1",)),
    R("Footnote 7", "remark",
      "l_inf-coverings (honeycomb cubes) give a worse bound in Lemma 1 than the modified minimal l1-covering.",
      "unchecked", section="III-A",
      reason="stated without proof and without saying what is held fixed; a check would compare, at equal cell counts N, the "
             "sup error of the Taylor approximant on an l_inf cube grid (l1 radius up to d/(2 N^{1/d})) with that on an explicit "
             "l1 cover, for test functions with known (eta, L2)"),

    # ------------------------------------------------------------------ Section III-B FedLRGD
    R("Eq. (32)", "equation",
      "grad F(theta) = (1/n) sum_k grad f(x^(0,k); theta) + (1/n) sum_c sum_j grad f(x^(c,j); theta).",
      "not-checkable", section="III-B", reason="linearity of the gradient of (3)"),
    R("Eq. (33)", "equation",
      "Target approximation d_i F(theta) ~ (1/n) sum_k g_i(x^(0,k); theta)(1 + sum_c sum_j w^(i,c)_{jk}).",
      "not-checkable", section="III-B",
      reason="informal approximation stating the design goal; its error is quantified by (53) and (60)"),
    R("Eqs. (34)-(35)", "definition",
      "Server matrices G^(i)_{jk} = g_i(x^(0,j); theta^(k)) (34) and client weight vectors (v^(i,c))^T = (sum_j [g_i(x^(c,j); "
      "theta^(k))]_k) (G^(i))^{-1} (35).",
      "not-checkable", section="III-B",
      reason="algorithm definitions, exercised by every FedLRGD run of the catalogue"),
    R("Eq. (36)", "equation",
      "Approximate low rankness: g_i(x^(c,j); theta) ~ sum_k w^(i,c)_{jk} g_i(x^(0,k); theta) for all theta.",
      "not-checkable", section="III-B",
      reason="informal approximation; made precise by (37)-(38) and bounded in the proof of Theorem 2"),
    R("Eqs. (37)-(39)", "equation",
      "Weights interpolate at the r nodes: [g_i(x^(c,j); theta^(k))]_k = w_j G^(i) (37), w_j = row G^{-1} (38), v^(i,c)_k = "
      "sum_j w^(i,c)_{jk} (39), so (35) = (38) + (39); checked: the resulting gradient estimate equals grad F exactly "
      "(<= 1e-10) at the r interpolation nodes.",
      "checked", section="III-B", claims=("fedlrgd.alg1.counters",)),
    R("Eqs. (40)-(42)", "equation",
      "Gradient estimate grad_hat F_i(theta) = (1/n) sum_k g_i(x^(0,k); theta)(1 + sum_c v^(i,c)_k) (40)-(41) and inexact "
      "GD step theta^(gamma) = theta^(gamma-1) - grad_hat F(theta^(gamma-1))/L1 (42).",
      "not-checkable", section="III-B",
      reason="definitions of the estimator and the update (implemented in every FedLRGD run; their error is checked via (53) "
             "and Lemma 2)"),
    R("Algorithm 1", "algorithm",
      "FedLRGD: epoch 1 server computes r^2 gradients and inverts G^(i); epoch 2 clients compute rs gradients, form v^(i,c) and "
      "upload v_1; epochs 3..r+1 upload v_{t-1} (printed v_1, an erratum); epoch r+2 server runs S inexact GD steps with r "
      "gradients each; T = r + 2.",
      "checked", section="III-B", claims=("fedlrgd.alg1.counters", "fedlrgd.alg1.line10.erratum")),

    # ------------------------------------------------------------------ Section III-C Theorem 2
    R("Eq. (43)", "definition",
      "Piecewise polynomial approximation of g_i: P_{q,l}(x; theta) = sum_{I in S_{d,q}} P_I(x; theta) 1{x in I}.",
      "not-checkable", section="III-C", reason="definition (the Lemma 1 approximant applied to g_i)"),
    R("Eq. (44)", "equation",
      "Rank-r form P_{q,l}(x; theta) = sum_{w<=r} phi_w(x) psi_w(theta) with r = C(l+d, d)|S_{d,q}|, i.e. the approximant has "
      "rank <= r; checked: rank(N) <= (#cells) C(l+d, d) for explicit covers.",
      "checked", section="III-C", claims=("fedlrgd.lemma1.taylor",)),
    R("Eq. (45)", "assumption",
      "Non-singularity of monomials: Phi_{w,j} = phi_w(x^(0,j)) is invertible.",
      "not-checkable", section="III-C",
      reason="assumption on the server data, asserted for no instance; note Phi is block-structured by cell, so it can only be "
             "invertible if every cell of S_{d,q} holds exactly C(l+d, d) unisolvent server samples"),
    R("Eq. (46)", "assumption",
      "Non-singularity of approximation: P^(i)_{jk} = P_{q,l}(x^(0,j); theta^(k)) is invertible for distinct theta^(k).",
      "not-checkable", section="III-C", reason="assumption, asserted for no instance"),
    R("Theorem 2", "theorem",
      "Under Sec. II-B, (45)-(46), 0 < eps <= 9(B+3)^4 p/(8 mu), eta > (2 alpha + 2) d and tau = 1, FedLRGD with r from (47) and "
      "S from (48) returns an eps-approximate solution (11) with Gamma = r^2 + rs + rS + phi m r; checked: the Gamma count on "
      "instrumented runs, the S/delta arithmetic, the r requirement and the error chain (53)/Lemma 2 on runs; the "
      "eps-guarantee at the theorem's r is not run end to end (r is astronomically large and (8) fails for analytic kernels).",
      "checked", section="III-C", claims=("fedlrgd.alg1.counters", "fedlrgd.thm2.S-and-delta", "fedlrgd.eq47.bracket.erratum",
                                          "fedlrgd.eq53.lemma2"), figures=("fedlrgd.complexity",)),
    R("Eq. (47)", "equation",
      "r = ceil(max{e sqrt(d) 2^d (eta+d)^d, (K1 (kappa A/((kappa-1) eps))^{d/2})^{1/(eta - (2alpha+2)d)}}), K1 = L2^d eta^d "
      "e^{eta(d+1)} d^{eta/2} (2eta+2d)^{eta d}/(eta-1)^{eta d}, A = F(theta0) - F* + 9(B+3)^4 p/(2mu); the printed bracket "
      "puts the exponent on the whole max, which can violate the proof's r >= e sqrt(d) 2^d (eta+d)^d.",
      "checked", section="III-C", claims=("fedlrgd.eq47.bracket.erratum", "fedlrgd.abstract.exponent.erratum")),
    R("Eq. (48)", "equation",
      "S = ceil(log(A/eps)/log(kappa/(kappa-1))), which gives (1 - 1/kappa)^S A <= eps (needs kappa > 1).",
      "checked", section="III-C", claims=("fedlrgd.thm2.S-and-delta",)),

    # ------------------------------------------------------------------ Section III-D
    R("Theorem 3", "theorem",
      "FedAve (FedPAQ without quantization): under smoothness, strong convexity, sigma^2 = O(p), b = O(m), "
      "E||theta^(T0) - theta*||^2 = O(p), for eps in (0,1], phi large and m large, Gamma(FedAve) = min_{b,T} T(b + phi tau m) = "
      "O(phi m (p/eps)^{3/4}); checked: the closed-form optimisation (79)-(89), Gamma in [3/4, 8] phi tau m (C/eps~)^{3/4}; "
      "Lemma 3 and the reduction to (78) are not.",
      "checked", section="III-D", claims=("fedlrgd.thm3.fedave",), figures=("fedlrgd.complexity",)),
    R("Proposition 1", "proposition",
      "With s = O(phi m), d = O(log(n)^lambda), eps = Theta(n^{-beta}), (c1+2alpha+2)d <= eta <= (c2+2alpha+2)d, c2 > c1 >= "
      "2/xi, F(theta0) - F* = O(p): Gamma(FedLRGD) = O(phi m (p/eps)^xi), Gamma(FedAve) <= Gamma_+ = Theta(phi m (p/eps)^{3/4}), "
      "and Gamma(FedLRGD)/Gamma_+(FedAve) -> 0; checked along the stated scalings (d = 1, eta = (c1+2alpha+2)d) by "
      "evaluating both formulas.",
      "checked", section="III-D", claims=("fedlrgd.prop1.ratio",), figures=("fedlrgd.complexity",)),
    R("Footnote 11", "remark",
      "F(theta0) - F* <= L1 ||theta0 - theta*||_2^2 = O(p) (mean value theorem + Lipschitz gradient).",
      "unchecked", section="III-D",
      reason="a check would compute F(theta0) - F* and L1 ||theta0 - theta*||^2 (and the sharper L1/2 version) at random "
             "theta0 in [-1,1]^p for the Appendix A logistic risk, with theta* from a converged exact GD run"),

    # ------------------------------------------------------------------ Section IV proofs
    R("Eq. (49)", "equation",
      "Taylor polynomial P_I(y; theta) = sum_{|s|<=l} grad^s g(z_I; theta)/s! (y - z_I)^s around the centre z_I of each cell.",
      "checked", section="IV-A", claims=("fedlrgd.lemma1.taylor",)),
    R("Eq. (50)", "equation",
      "max_{ij} |M_ij - N_ij| <= L2/(l! q^eta) for N_ij = P_{q,l}(y^(i); theta^(j)); checked as the entrywise instance of "
      "Lemma 1's sup bound (fine grids).",
      "checked", section="IV-B", claims=("fedlrgd.lemma1.taylor",)),
    R("Eq. (51)", "equation",
      "rank(N) <= |N| C(l+d, d) <= d! C(l+d, d) (q+1)^d via the volumetric covering bound |N| <= d!(q+1)^d; checked: the first "
      "inequality (rank <= cells x C(l+d,d)); the covering-number bound d!(q+1)^d is not.",
      "checked", section="IV-B", claims=("fedlrgd.lemma1.taylor",)),
    R("Eq. (52)", "equation",
      "d! C(l+d, d) <= e sqrt(d) (l+d)^d (binomial bound + Stirling).",
      "checked", section="IV-B", claims=("fedlrgd.thm1.bound-shape",)),

    # ------------------------------------------------------------------ Section V proof of Theorem 2
    R("Lemma 2", "lemma",
      "Inexact GD bound [5, Lemma 2.1]: F(theta^(S)) - F* <= (1 - 1/kappa)^S (F(theta0) - F*) + (1/(2 L1)) sum_gamma "
      "(1 - 1/kappa)^{S-gamma} ||grad_hat F(theta^(gamma-1)) - grad F(theta^(gamma-1))||^2; checked on the actual error "
      "sequences of exact FedLRGD runs.",
      "checked", section="V", claims=("fedlrgd.eq53.lemma2",)),
    R("Eq. (53)", "equation",
      "|d_i F(theta) - grad_hat F_i(theta)| <= (1/n) sum_{j>r} |g_i(x^(j); theta) - sum_k g_i(x^(k); theta) w_jk| <= "
      "max_{j>r} |g_i(x^(j); theta) - sum_k g_i(x^(k); theta) w_jk|.",
      "checked", section="V", claims=("fedlrgd.eq53.lemma2",)),
    R("Eqs. (54)-(58)", "equation",
      "Lemma 1 for g_i (54), rank-r form (55)-(56) with phi_w = 1{x in I} x^v, psi_w = [V_I]_v (the printed theta in R^d should "
      "be R^p), exact interpolation P(x^(j)) = sum_k a_jk P(x^(k)) (57) and a_j = [P(x^(j); theta^(k))]_k (P^(i))^{-1} (58).",
      "not-checkable", section="V",
      reason="proof steps of Theorem 2 (they need an explicit cover with r = C(l+d,d)|S_{d,q}| and assumptions (45)-(46))"),
    R("Eq. (59)", "equation",
      "||a_j - w_j||_2 <= L2 sqrt(r)/(l! q^eta) ||G^{-1}|| + L2 r^{3/2}/(l! q^eta) (B + L2/(l! q^eta)) ||G^{-1}||^2/(1 - "
      "||G^{-1}|| r L2/(l! q^eta)), valid when ||G^{-1}|| r L2 < l! q^eta (step (iv) has a misplaced parenthesis; the final "
      "line is right).",
      "unchecked", section="V",
      reason="a check would, for d = 1 and a function with known (eta, L2), place C(l+1,1) server points per cell of an explicit "
             "cover, compute a_j from (58) and w_j from (38), and compare ||a_j - w_j|| with the right-hand side whenever its "
             "validity condition holds"),
    R("Eq. (60)", "equation",
      "|d_i F - grad_hat F_i| <= L2 r^{2alpha+2}/(l! q^eta) (2 + B + L2/(l! q^eta))^2 (1/(1 - L2 r^{alpha+1}/(l! q^eta)) + 1), "
      "using max_j sum_k |w_jk| <= ||G^{-1}|| B r and (8).",
      "unchecked", section="V",
      reason="a check would, on exact FedLRGD runs, compare max_j sum_k |w_jk| with ||G^{-1}||_op B r (step (vi)), and "
             "evaluate (60) with the measured ||G^{-1}|| in place of r^alpha against the measured gradient error, for an instance "
             "with known (eta, L2, B) and explicit q"),
    R("Eq. (61)", "equation",
      "Hypothesis L2 r^{2alpha+2}/(l! q^eta) <= delta for some delta in (0, 1/2].",
      "not-checkable", section="V", reason="hypothesis fixing delta (the choice of r) inside the proof of Theorem 2"),
    R("Eq. (62)", "equation",
      "Under (61): |d_i F - grad_hat F_i| <= delta (2 + B + delta)^2 (1/(1-delta) + 1) <= 3 (B+3)^2 delta, hence "
      "||grad_hat F - grad F||^2 <= 9 (B+3)^4 delta^2 p; checked: the scalar inequality on a delta grid for several B; the "
      "gradient-error bound itself is not verified on runs.",
      "checked", section="V", claims=("fedlrgd.thm2.S-and-delta",)),
    R("Eq. (63)", "equation",
      "F(theta^(S)) - F* <= (1 - 1/kappa)^S (F(theta0) - F*) + 9 (B+3)^4 delta^2 p/(2 mu) (Lemma 2 + sum_gamma "
      "(1-1/kappa)^{S-gamma} <= kappa); checked in the sharper Lemma 2 form on runs (which implies (63) with the measured "
      "maximal error); the premise (62) is not verified on runs.",
      "checked", section="V", claims=("fedlrgd.eq53.lemma2",)),
    R("Eq. (64)", "equation",
      "Choosing delta = (1 - 1/kappa)^{S/2} gives F(theta^(S)) - F* <= (1 - 1/kappa)^S A <= eps for S from (48).",
      "checked", section="V", claims=("fedlrgd.thm2.S-and-delta",)),
    R("Eq. (65)", "equation",
      "delta^2 <= eps/A <= eps/(9(B+3)^4 p/(2 mu)) <= 1/4 under eps <= 9(B+3)^4 p/(8 mu).",
      "checked", section="V", claims=("fedlrgd.thm2.S-and-delta",)),
    R("Sec. V, choice of r", "statement",
      "r <= e sqrt(d) (eta+d)^d (q+1)^d gives q >= r^{1/d}/(2 e^{1/d} d^{1/(2d)} (eta+d)) when r >= e sqrt(d) 2^d (eta+d)^d; "
      "with 1/l! <= eta e^eta/(eta-1)^eta this yields (61) for r >= K1^{1/(eta-(2alpha+2)d)} delta^{-d/(eta-(2alpha+2)d)}, "
      "and delta >= sqrt((kappa-1) eps/(kappa A)).",
      "unchecked", section="V",
      reason="a check would verify 1/l! <= eta e^eta/(eta-1)^eta for eta > 1 on a grid (it holds numerically for eta in "
             "(1, 200]), that raising the intermediate condition (printed garbled as '(eta-1) eta') to the power d gives exactly "
             "K1 of (47), and that delta = (1-1/kappa)^{S/2} >= sqrt((kappa-1) eps/(kappa A)) for S from (48)"),

    # ------------------------------------------------------------------ Appendix A
    R("Eqs. (66)-(67)", "definition",
      "l2-regularised soft-label cross-entropy f_ent(x, y; theta) (66) on [0,1]^{d-1} x [0,1], theta in [-1,1]^{d-1}, and its "
      "empirical risk (67).",
      "not-checkable", section="App. A", reason="definitions of the example loss"),
    R("Eq. (68)", "equation",
      "grad_theta f_ent is L1-Lipschitz with L1 = (d-1)/2 + mu (valid but loose: the data term is <= (d-1)/4), and f_ent is "
      "mu-strongly convex (item 2); checked: Hessian eigenvalues lie in [mu, (d-1)/2 + mu].",
      "checked", section="App. A", claims=("fedlrgd.appA.holder-class",)),
    R("Eq. (69)", "equation",
      "Closed forms of the first data-derivatives of g_i: theta_i x_i s'(z) + s(z) - y (j = i), theta_j x_i s'(z) (j != i), "
      "-x_i (j = d), with s the sigmoid and z = theta^T x.",
      "unchecked", section="App. A",
      reason="the catalogue differentiates g_i with sympy but never compares with the printed closed forms; a check would "
             "evaluate both at random (x, y, theta) (the case labels d^2 f/(d theta_j d x_i) are also garbled)"),
    R("Eqs. (70)-(71)", "equation",
      "Per-case Hoelder bounds |Delta grad^s g_i| <= (3/4)||Delta x||_1 + |Delta y| (j = i), (1/2)||Delta x||_1 (j != i, "
      "derived in (71)), |Delta x_i| (j = d).",
      "unchecked", section="App. A",
      reason="fedlrgd.appA.holder-class only tests the combined l1 bound (72); a check would compute the maximal quotient "
             "separately for each case against its own constant 3/4 (+1 for y), 1/2 and 1"),
    R("Eq. (72)", "equation",
      "|grad^s g_i(x1, y1) - grad^s g_i(x2, y2)| <= ||(x1, y1) - (x2, y2)||_1, so each g_i is (2, 1)-Hoelder (L2 = 1).",
      "checked", section="App. A", claims=("fedlrgd.appA.holder-class",)),

    # ------------------------------------------------------------------ Appendix B
    R("Eq. (73)", "equation",
      "Erlang(b, 1) CDF F_Y(y) = 1 - e^{-y} sum_{k<b} y^k/k!.",
      "not-checkable", section="App. B", reason="standard closed form used as a definition (the checks use scipy.stats.gamma)"),
    R("Proposition 2", "proposition",
      "For integer q with (q-1) b >= 55: (1/2) log(q-1) + (1/2) log b <= F_Y^{-1}(1 - 1/q) <= 2 log(q-1) + 2b log(2b).",
      "checked", section="App. B", claims=("fedlrgd.prop2.erlang-quantile",), figures=("fedlrgd.erlang",)),
    R("Eq. (74)", "equation",
      "Series representation of the quantile: F_Y^{-1}(1 - 1/q) = inf{y: b!(q-1) sum_{k<b} y^{k-b}/k! <= sum_k y^k/k! "
      "C(k+b, b)^{-1}}.",
      "not-checkable", section="App. B", reason="proof step of Proposition 2"),

    # ------------------------------------------------------------------ Appendix C
    R("App. C, parameter counts", "statement",
      "The MNIST one-hidden-layer network (K = 784) has p = 623,290 parameters and the CIFAR-10 CNN p = 1,553,220; d = 794 "
      "and 3082.",
      "unchecked", section="App. C",
      reason="a check would recompute 784*784 + 784 + 784*10 + 10 = 623,290 and 1120 + 14,440 + 1,536,150 + 1510 = 1,553,220 "
             "from the stated architectures (both match by hand)"),
    R("Eqs. (75)-(77)", "definition",
      "Experiment definitions: perturbations theta^(i) = theta* + (||theta*||_1/p) g_i (75), gradient tensor "
      "M_{ijq} = d f/d theta_q (x^(i); theta^(j)) (76), approximate rank = min{J: sum_{i<=J} sigma_i^2 >= 0.9 ||M_q||_F^2} (77).",
      "not-checkable", section="App. C",
      reason="definitions of the experiment (implemented on a linear analogue by the catalogue; see the next row)"),
    R("App. C, low-rank observation", "statement",
      "Gradient slices M_q are approximately low rank: for non-trivial weights (|theta*_q| >= 0.005) almost all approximate "
      "ranks are <= 10 on MNIST (about half <= 5) and <= 6 on CIFAR-10, unchanged across k, K, optimiser, depth and ReLU; "
      "checked only on a linear analogue (multinomial logistic regression, synthetic data), not on the paper's networks.",
      "checked", section="App. C", claims=("fedlrgd.appC.approximate-rank",), figures=("fedlrgd.appendix_c",)),
    R("Figure 1", "figure",
      "Histograms of approximate ranks (77) for MNIST networks: (a)-(c) k = 30/60/90, (d) all weights, (e)-(f) K = 500/1000, "
      "(g) RMSprop, (h) two hidden layers, (i) ReLU.",
      "out-of-scope", section="App. C",
      reason="deep-network experiment on real data (MNIST, Keras); only the linear analogue is reproduced"),
    R("Figure 2", "figure",
      "Histograms of approximate ranks for the CIFAR-10 CNN: (a) k = 30, (b) k = 60, (c) RMSprop, (d) ReLU.",
      "out-of-scope", section="App. C",
      reason="deep-network experiment on real data (CIFAR-10, Keras)"),

    # ------------------------------------------------------------------ Appendix D
    R("Lemma 3", "lemma",
      "FedAve convergence [30, Thm 1]: for T >= T0 = 4 max{kappa, 4 + 32 kappa^2 (1-tau)/(tau(m-1)), 4m/(mu^2 b)}, "
      "E[F(theta^(T))] - F* <= four terms in (T b + 1) (the printed 'epsilon' in terms 3-4 is Euler's e; terms 2 and 4 carry "
      "inconsistent 8(1-tau)m/(tau(m-1)) vs 8(1-tau)/(tau(m-1)) factors).",
      "unchecked", section="App. D",
      reason="a check would run FedPAQ without quantization (step sizes from [30], not given here) on a strongly convex "
             "quadratic or the Appendix A logistic risk with controlled stochastic-gradient variance sigma^2 and compare the "
             "Monte Carlo E[F(theta^(T))] - F* with the four-term bound for T >= T0"),
    R("Lemma 4", "lemma",
      "|sin((1/3) arcsin(1 - t^2) + 2pi/3) - 1/2 - t/sqrt(6)| <= 5t^2/9 on [0, 1] (h(0) = 1/2, h'(0) = 1/sqrt(6), |h''| <= 10/9).",
      "checked", section="App. D", claims=("fedlrgd.lemma4",)),
    R("Eq. (78)", "equation",
      "Accuracy constraint m^2/(T^2 b^2) + b/(mT) <= eps/(C p), after keeping the dominant O(m^2 p/(T^2 b^2)) and O(bp/(mT)) "
      "terms of Lemma 3.",
      "not-checkable", section="App. D",
      reason="proof step of Theorem 3 with an unspecified constant C (asymptotic term dropping)"),
    R("Eq. (79)", "equation",
      "Gamma(FedAve) = min_{b,T > 0} T (b + phi tau m) s.t. m^2/(T^2 b^2) + b/(mT) <= eps~/C, eps~ = eps/p (printed eps/C).",
      "checked", section="App. D", claims=("fedlrgd.thm3.fedave",)),
    R("Eqs. (80)-(81)", "equation",
      "The binding constraint gives T = bC/(2m eps~) + sqrt((bC/(2m eps~))^2 + C m^2/(eps~ b^2)) (80), within [x, 2x] for "
      "x = bC/(2m eps~) + (m/b) sqrt(C/eps~) (81); checked at the numerical optimum.",
      "checked", section="App. D", claims=("fedlrgd.thm3.fedave",)),
    R("Eqs. (82)-(84)", "definition",
      "C1 = C/(2m eps~), C2 = m sqrt(C/eps~), C3 = phi tau m; surrogate g(b) = (C1 b + C2/b)(b + C3).",
      "not-checkable", section="App. D", reason="definitions of the proof of Theorem 3"),
    R("Eq. (85)", "equation",
      "min_b g(b) <= Gamma(FedAve) <= 2 min_b g(b).",
      "unchecked", section="App. D",
      reason="a check would compare the numerically minimised Gamma of (79) with min_b g(b) (both already computed by "
             "fedlrgd.thm3.fedave, which never compares them) and assert the factor-2 sandwich"),
    R("Eqs. (86)-(87)", "equation",
      "Stationarity 2 C1 b^3 + C1 C3 b^2 - C2 C3 = 0 (86) and, with b = a - C3/6, the depressed cubic a^3 - (C3^2/12) a + "
      "(C3^3/108 - C2 C3/(2 C1)) = 0 (87), solved by Viete's formula b* = (C3/3)(sin((1/3) arcsin(1 - 54 C2/(C1 C3^2)) + "
      "2pi/3) - 1/2); checked: the numerical minimiser of g equals the Viete root.",
      "checked", section="App. D", claims=("fedlrgd.thm3.fedave",)),
    R("App. D, discriminant", "statement",
      "Discriminant of (87) = phi^2 tau^2 m^6 sqrt(eps~/C)(phi^2 tau^2/2 - 27 sqrt(eps~/C)) > 0, and (88) implies the three "
      "sufficient thresholds phi > 3 sqrt(6)/tau, phi >= 6 sqrt(3)/tau, phi >= 3/tau (times (eps~/C)^{1/4}).",
      "unchecked", section="App. D",
      reason="a check would verify the discriminant identity symbolically (sympy) and that phi >= 40/(C^{1/4} tau) with "
             "eps~ in (0,1] implies each threshold (hence Lemma 4's t <= 1 and the final 4 phi tau m bound)"),
    R("Eq. (88)", "equation",
      "Proof hypothesis phi >= 40/(C^{1/4} tau).",
      "not-checkable", section="App. D",
      reason="hypothesis of the proof of Theorem 3 (used as the precondition of the fedlrgd.thm3.fedave cases)"),
    R("Eq. (89)", "equation",
      "(m/2)(eps~/C)^{1/4} <= b* <= 2m (eps~/C)^{1/4}, hence (3/4) phi tau m (C/eps~)^{3/4} <= Gamma(FedAve) <= 8 phi tau m "
      "(C/eps~)^{3/4}.",
      "checked", section="App. D", claims=("fedlrgd.thm3.fedave",)),
    R("App. D, T >= T0 note", "remark",
      "At the optimum, T >= T0 = Theta(m/b) (Lemma 3's range) and b* = O(m) are asserted to hold.",
      "unchecked", section="App. D",
      reason="a check would compare T* from (80) at b* with Lemma 3's T0 = 4 max{kappa, 4 + ..., 4m/(mu^2 b*)}; a quick "
             "computation (m = 1000, phi = 100, mu = 0.1, kappa = 2) finds T* < T0 unless C/eps~ >~ 64/mu^4, so the note is only "
             "asymptotic in eps~ (or needs C large), not 'for all eps in (0,1]'"),

    # ------------------------------------------------------------------ Appendix E
    R("App. E, first-term estimate", "statement",
      "e sqrt(d) 2^d (eta+d)^d <= e (2c2+4alpha+6) d^{d+1/2} = O(d^{2d+1/2}) (printed without the exponent d on "
      "(2c2+4alpha+6)), sub-polynomial in n for d = O(log(n)^lambda).",
      "unchecked", section="App. E",
      reason="a check would evaluate e sqrt(d) 2^d (eta+d)^d at eta = (c2+2alpha+2)d against the printed e(2c2+4alpha+6) "
             "d^{d+1/2} (fails already at d = 2) and the corrected e (2c2+4alpha+6)^d d^{d+1/2}"),
    R("Eq. (90)", "equation",
      "r = O(sub-poly(n) (p/eps)^{1/(2 c1)}) under Proposition 1's scalings, and S = Theta(log(p/eps)) = O(log r); checked: the "
      "p/eps exponent of r computed from (47) (d/(2eta - (4alpha+4)d) = 1/(2c1) at eta = (c1+2alpha+2)d); the sub-poly(n) "
      "factor is not.",
      "checked", section="App. E", claims=("fedlrgd.abstract.exponent.erratum",)),
)

from . import PAPER  # noqa: E402

PAPER.set_ledger(LEDGER)
