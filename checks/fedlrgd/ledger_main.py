"""Results ledger of the fedlrgd paper, main text (Sections I-VI): one row per numbered result (see :mod:`.ledger`)."""
from fedtheory.ledger import LedgerRow as R

ROWS = (
    # ------------------------------------------------------------------ Abstract, Section I
    R("Abstract", "statement",
      "Gamma(FedLRGD) scales like phi m (p/eps)^{Theta(d/eta)} (the extracted text's Theta(d/n) is an eta/n glyph artifact: the arXiv abstract, Sec. I-B item 3 and Sec. VI say d/eta) "
      "and Gamma(FedAve) like phi m (p/eps)^{3/4}; checked: the exponent of p/eps in Gamma, with r the smallest rank the "
      "proof of Theorem 2 admits (bisection on its requirement), stays within a factor 16 of d/eta over (d, eta, m, s) "
      "while exponent x n/d spreads over 24 decades (the artifact reading d/n would fail); holds.",
      "checked", section="Abstract", claims=("fedlrgd.abstract.exponent",)),
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
      "<= L2 ||y1 - y2||_1^{eta - l} for |s| = l = ceil(eta) - 1; checked under this reading (the extracted eta - 1 is an "
      "l/1 glyph artifact: it would admit only polynomials for eta = 2.5); eta - l is the one the Lemma 1 proof uses; holds.",
      "checked", section="II-B", claims=("fedlrgd.eq6.exponent",)),
    R("Eq. (7)", "assumption",
      "Assumption 4 (non-singularity): for distinct data y^(1..r) and (a.e.) distinct parameters, G^(i)_{jk} = g_i(y^(j); "
      "theta^(k)) is invertible; checked on Appendix A's logistic g_i at random distinct data and nodes (d = 2, 3): G rebuilt "
      "and inverted in mpmath (>= log10 cond + 25 digits, referee +20 digits) has sigma_min > 0 and stable to 1e-6, e.g. "
      "2.2e-43 at r = 16 and 3.1e-64 at r = 24 (d = 2), 1.6e-15 at r = 32 (d = 3), where double precision calls G singular "
      "(the paper asserts (7) for no instance; 'any distinct samples' cannot be sampled, only random nodes are covered).",
      "checked", section="II-B", claims=("fedlrgd.asm7.invertible",)),
    R("Eq. (8)", "assumption",
      "Assumption 5 (conditioning): ||(G^(i))^{-1}||_op <= r^alpha for an absolute alpha >= 1, i.e. sigma_min(G^(i)) decays "
      "at most polynomially in r; asserted for no instance (Appendix A shows (4)-(6) only). Checked: a constructed loss (g = "
      "min(x, theta) + mu theta, class (1, 1), mu-strongly convex, theta^(k) = x^(0,k) at separated data) satisfies it with "
      "a fixed alpha (full mode, t intervals across replicates at the claim level: log-log slope 1.03 [1.02, 1.04], local "
      "exponent trend -0.008 [-0.020, 0.004] per unit log r, alpha = 2.17 for r = 4..512); Appendix A's analytic logistic g_i violates it for every fixed alpha (log ||G^-1|| ~ b r^(1/p): "
      "b = 6.4 [3.0, 9.7] for p = 1, local exponent 15 -> 131 over r = 2..24; b = 5.8 [3.6, 8.0] for p = 2, 7.7 -> 22 over "
      "r = 4..64). Read literally ('any distinct samples') (8) holds for no continuous g (two nearby samples make G nearly "
      "singular); with (6) and Lemma 1 it forces alpha >= eta/d - 1 - o(1), i.e. eta <= (alpha + 1) d, against Theorem 2's "
      "eta > (2 alpha + 2) d: Theorem 2's hypotheses admit no full-rank instance (vacuous, root cause "
      "thm2-hypotheses-empty), and Appendix A's example lies outside them.",
      "checked", section="II-B", claims=("fedlrgd.asm8.good-kernel", "fedlrgd.asm8.logistic-violates",
                                          "fedlrgd.asm8.eta-ceiling"),
      figures=("fedlrgd.alpha",)),
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
      "Descent lemma: F(theta - grad F(theta)/L1) - F(theta) <= -||grad F(theta)||^2/(2 L1) when grad F is L1-Lipschitz; "
      "checked on the Appendix A risk (d = 2, 4) at uniform theta in [-1,1]^(d-1) with L1 = (d-1)/2 + mu and the tighter "
      "(d-1)/4 + mu: 0 violations in 400 (quick) points.",
      "checked", section="II-C", claims=("fedlrgd.eq13.descent-lemma",)),
    R("Eqs. (14)-(15)", "equation",
      "Heuristic SVD expansion g_i(x, theta) = sum_j sigma_j u_j(x) v_j(theta) of the kernel (14) and the induced expansion of "
      "the sampled matrix G^(i) (15), motivating non-singularity.",
      "not-checkable", section="II-C",
      reason="qualitative motivation for Assumption 4; no quantitative claim"),
    # ------------------------------------------------------------------ Section II-D time model
    R("Eq. (16)", "equation",
      "The Erlang(b, 1) CDF is a von Mises function with auxiliary function a(x) = sum_{k<b} (b-1)!/(b-k-1)! x^{-k} = "
      "1 + (b-1)/x + O(x^{-2}); checked: the closed form equals scipy's (1 - F_Y)/f_Y to 1.4e-13 (b in {1, 2, 5, 20, 60}, x in "
      "[0.1, 1000]) and x^2 (a - 1 - (b-1)/x) -> (b-1)(b-2).",
      "checked", section="II-D", claims=("fedlrgd.eq16.auxiliary-function",)),
    R("Eq. (17)", "equation",
      "Gumbel limit: (max{Y_1..Y_k} - F^{-1}(1 - 1/k))/a(F^{-1}(1 - 1/k)) converges in law to exp(-e^{-x}); checked: the exact "
      "Kolmogorov distance of the normalised maximum to Gumbel decreases strictly for k = 10..1e12 (b = 20: 0.035 -> 0.0017; "
      "slowly, about 1/log k, for b > 1), and simulated normalised maxima pass a KS test against the exact law F^k.",
      "checked", section="II-D", claims=("fedlrgd.eq17.gumbel-limit",)),
    R("Eq. (18)", "equation",
      "Approximation F_Y^{-1}(1 - 1/k) ~ log(k) + b for the Erlang(b,1) quantile; checked as an order-of-magnitude "
      "approximation: F^{-1}/(log k + b) lies in [0.697, 1.506] over b = 1..1000, k = 10..1e12 (b = 20, k = 1e4: 41.0 vs "
      "29.2), while the additive error grows to 211.",
      "checked", section="II-D", claims=("fedlrgd.eq18.quantile-table",)),
    R("Eq. (19)", "equation",
      "Expected epoch computation time b + E[max of tau m Erlang(b,1)] ~ gamma a(F^{-1}) + F^{-1} + b ~ log(tau m) + 2b "
      "(+Theta(1)); checked only as an order-of-magnitude approximation (within a factor 2): Monte Carlo exceeds "
      "log(tau m) + 2b by an amount growing with b.",
      "checked", section="II-D", claims=("fedlrgd.eq19.erlang-max",)),
    R("Eq. (20)", "equation",
      "Server-only computation: b + E[Y] = 2b for Y ~ Erlang(b, 1); checked: Monte Carlo of b costs 1 + Exp(1) matches 2b "
      "(b = 1, 5, 20, 100; max |z| 1.38 at n = 8000) and b + scipy's Erlang mean is 2b exactly.",
      "checked", section="II-D", claims=("fedlrgd.eq20.server-2b",)),
    R("Eq. (21)", "equation",
      "Expected computation time per epoch: 2b + log(tau m) if the active clients compute, 2b if the server computes; checked: "
      "the client case, via (19) (order of magnitude only); the server case (20) exactly (scipy's mean of b + Erlang(b, 1) is "
      "2b) and by Monte Carlo (max |z| 1.38).",
      "checked", section="II-D", claims=("fedlrgd.eq19.erlang-max", "fedlrgd.eq20.server-2b")),
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
      "Expected epoch running time: 2b + log(tau m) + phi tau m (Type A), 2b (Type B), phi tau m (Type C); checked on "
      "simulated whole epochs (Erlang computations, M/M/1 uploads): B and C match exactly (z tests, max |z| 1.19), A lies "
      "within 1.01-1.07 of its approximation (an order-of-magnitude reading, as (19)).",
      "checked", section="II-D", claims=("fedlrgd.eq25.epoch-times", "fedlrgd.eq20.server-2b")),
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
      "sup_y |g(y; theta) - P_{q,l}(y; theta)| <= L2/(l! q^eta), l = ceil(eta) - 1, for any q > 0; checked for l = 0..3, and "
      "for l = 2, 3 on a class member that attains the bound up to l! Gamma(eta-l+1)/Gamma(eta+1) (0.533, 0.457), so the l! "
      "is needed and exercised.",
      "checked", section="III-A", claims=("fedlrgd.lemma1.taylor", "fedlrgd.lemma1.high-order")),
    R("Eqs. (29)-(31)", "definition",
      "Latent variable model M_ij = g(y^(i); theta^(j)) (29), its SVD (30) and best rank-r approximation M_r (31, "
      "Eckart-Young-Mirsky); (29)-(30) are definitions; checked: the SVD tail used by every Theorem 1 check equals "
      "||M - M_r||_F^2/(nk) of the explicit truncated SVD to 1e-12.",
      "checked", section="III-A", claims=("fedlrgd.thm1.high-order",)),
    R("Theorem 1", "theorem",
      "Low rank approximation: for r >= r* = e sqrt(d) 2^d (l+d)^d (and r <= min(n,k)), (1/(nk)) ||M - M_r||_F^2 <= "
      "L2^2 e^{2eta/d} d^{eta/d} 4^eta (l+d)^{2eta}/(l!)^2 r^{-2eta/d}; the printed (l)^2 denominator is corrected to (l!)^2 "
      "from the proof; the bound equals L2^2/(l!)^2 at r*; checked also with l = 3 (eta = 3.5, 4) and the proof chain "
      "(50)-(51) with an explicit cover.",
      "checked", section="III-A", claims=("fedlrgd.thm1.svd-tail", "fedlrgd.thm1.bound-shape", "fedlrgd.thm1.high-order"),
      figures=("fedlrgd.theorem1",)),
    R("Theorem 1, printed (l)^2", "statement",
      "The statement of Theorem 1 prints (l)^2 in the denominator of the bound; the last line of its proof has (l!)^2.",
      "not-checkable", section="III-A",
      reason="typography (l! lost its '!'): (l)^2 equals (l!)^2 for l = 1, 2, is smaller for l >= 3 (a larger, still true "
             "bound) and 0 for l = 0 (an infinite, vacuous bound), so the printed statement is implied by the proof's "
             "(l!)^2 form and no computation can refute it; the (l!)^2 form is what fedlrgd.thm1.svd-tail and "
             "fedlrgd.thm1.bound-shape check (the former erratum verdict fedlrgd.thm1.denominator.erratum is an alias of "
             "fedlrgd.thm1.bound-shape, whose bound(r*) = L2^2/(l!)^2 identity fails for the printed form at l = 0, 3, 4)"),
    R("Footnote 7", "remark",
      "l_inf-coverings (honeycomb cubes) give a worse bound in Lemma 1 than the modified minimal l1-covering.",
      "not-checkable", section="III-A",
      reason="'it can be verified that l_inf-coverings produce a worse bound in Lemma 1' does not say what is held fixed. At "
             "equal radius 1/q it is trivial (an l_inf ball of radius 1/q has l1 radius d/q, so the proof gives L2 d^eta/(l! "
             "q^eta)); at equal cell count N, the count that matters for the rank (51), it is not true with the paper's own "
             "counts: l_inf cubes tile with (q/2)^d cells, the l1 cover is bounded by d!(q+1)^d, so the l1 bound over the "
             "l_inf bound tends to (2 (d!)^{1/d}/d)^eta = 2^eta, 1.41^eta, 1.21^eta, 1.11^eta, 1.04^eta for d = 1..5 "
             "(l1 worse) and 0.998^eta, 0.966^eta, ... -> (2/e)^eta for d >= 6 (l1 better); the minimal l1 cover count, "
             "which would decide it, is unknown for general d (for d = 2 diamonds tile and l1 wins by 2^{eta/2})"),
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
      "(<= 1e-10) at the r interpolation nodes; and with the w_j formed explicitly one client sample at a time, (37) holds, "
      "sum_j w_j equals the algorithm's v^(i,c) and the run's estimate (41) equals the explicit-weight one at every GD iterate "
      "(full mode: largest relative discrepancy 1.2e-15 over the 40 of 44 runs with cond(G) <= 1e10, tolerance 1e3 u cond(G)).",
      "checked", section="III-B", claims=("fedlrgd.alg1.counters", "fedlrgd.thm2.weights-explicit")),
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
      "Non-singularity of monomials: Phi_{w,j} = phi_w(x^(0,j)) is invertible, with q fixed so that r = D|S_{d,q}|; checked "
      "(refuted, a proof gap, root cause thm2-r-lattice): |S_{d,q}| is an integer step function of q, so r = D|S_{d,q}| is attainable only on a lattice "
      "(d = 1, D = 3: 18 of the 28 integers in range unattainable); Phi is singular for 323/600 i.i.d. uniform server draws "
      "and invertible for 600/600 draws with D unisolvent samples per cell (full mode).",
      "checked", section="III-C", claims=("fedlrgd.eq45.lattice-unisolvence",)),
    R("Eq. (46)", "assumption",
      "Non-singularity of approximation: P^(i)_{jk} = P_{q,l}(x^(0,j); theta^(k)) is invertible for distinct theta^(k) "
      "(every large r, q fixed by r = D|S_{d,q}|). By (55)-(56) P = Phi^T Psi, so (46) requires (45) and the r coefficient "
      "functions psi_(I,v)(theta) to be linearly independent and unisolvent at the nodes. Checked on the paper's worked "
      "example (Appendix A, d = 2, l = 1) in mpmath (50 and 100 digits): d g/d y = -x is theta-free, so rank P = 1 + 2 n_x "
      "< r on every cover with >= 2 cells, e.g. rank 5 of r = 12 (q = 2) and 7 of 27 (q = 3), the singular values beyond "
      "it falling by ~50 orders when the digits double (exact zeros; the 1e19 condition numbers seen in double precision "
      "on the r = 12 logistic cover are this), while Phi of (45) is invertible; P is invertible only for one cell (r = 3). "
      "The example never satisfies (46) at an r Theorem 2 admits (vacuous, root cause thm2-hypotheses-empty; "
      "the paper asserts (4)-(6) only for it).",
      "checked", section="III-C", claims=("fedlrgd.eq46.logistic-singular",)),
    R("Theorem 2", "theorem",
      "Under Sec. II-B, (45)-(46), 0 < eps <= 9(B+3)^4 p/(8 mu), eta > (2 alpha + 2) d and tau = 1, FedLRGD with r from (47) and "
      "S from (48) returns an eps-approximate solution (11) with Gamma = r^2 + rs + rS + phi m r; checked: the Gamma count on "
      "instrumented runs, the S/delta arithmetic, the r requirement and the error chain (53)/Lemma 2 on runs. Inside "
      "its own hypotheses the theorem is vacuous (root cause thm2-hypotheses-empty): at every r meeting the proof's "
      "requirements q >= 1 and (61), which (47) secures, Lemma 1 with Eckart-Young forces ||G^{-1}|| >= l! q'^eta/(r L2) "
      ">= r^(2 alpha + 1) for every loss of class (eta, L2), against (8)'s r^alpha (analytic lemma; sympy for its algebra; "
      "mpmath at r(47) over 1296 points of the regime, smallest margin 10^5.1; certified on g = cos(theta x) + 2 theta at "
      "its r(47) = 115: ||G^-1|| >= 10^15 vs r^alpha = 10^2.1), so no instance satisfying all hypotheses exists and the "
      "eps-guarantee cannot be run inside them.",
      "checked", section="III-C", claims=("fedlrgd.alg1.counters", "fedlrgd.thm2.S-and-delta", "fedlrgd.eq47.bracket.erratum",
                                          "fedlrgd.eq53.lemma2", "fedlrgd.thm2.hypotheses-vacuous"),
      figures=("fedlrgd.complexity",)),
    R("Eq. (47)", "equation",
      "r = ceil(max{e sqrt(d) 2^d (eta+d)^d, (K1 (kappa A/((kappa-1) eps))^{d/2})^{1/(eta - (2alpha+2)d)}}), K1 = L2^d eta^d "
      "e^{eta(d+1)} d^{eta/2} (2eta+2d)^{eta d}/(eta-1)^{eta d}, A = F(theta0) - F* + 9(B+3)^4 p/(2mu); the printed bracket "
      "puts the exponent on the whole max; checked against the proof itself: at the printed r the q the proof derives is < 1 "
      "(and (61) fails), at the corrected r q >= 1 and (61) holds with exact l!; and the corrected r meets both lower bounds "
      "of the proof (72 grid points, 50-digit referee).",
      "checked", section="III-C", claims=("fedlrgd.eq47.bracket.erratum", "fedlrgd.abstract.exponent",
                                          "fedlrgd.eq47.both-lower-bounds")),
    R("Eq. (48)", "equation",
      "S = ceil(log(A/eps)/log(kappa/(kappa-1))), which gives (1 - 1/kappa)^S A <= eps (needs kappa > 1).",
      "checked", section="III-C", claims=("fedlrgd.thm2.S-and-delta",)),
    # ------------------------------------------------------------------ Section III-D
    R("Theorem 3", "theorem",
      "FedAve (FedPAQ without quantization): under smoothness, strong convexity, sigma^2 = O(p), b = O(m), "
      "E||theta^(T0) - theta*||^2 = O(p), for eps in (0,1], phi large and m large, Gamma(FedAve) = min_{b,T} T(b + phi tau m) = "
      "O(phi m (p/eps)^{3/4}); checked: the closed-form optimisation (79)-(89), Gamma in [3/4, 8] phi tau m (C/eps~)^{3/4}, and "
      "on exact FedAve runs (m = 8, phi = 200, eps = 2e-5, b <= m): the measured min_b T(b + phi tau m) = 4.8e4 (at b = 8 = m) "
      "is below the bracket [2.0e5, 2.1e6] computed with the fitted C (upper CI 0.0093), so the O(.) upper bound holds with "
      "room; the Viete root b* = 2.05 does not locate the measured optimum (the bound is loose in b). C of (78): 0.013 "
      "[0.0084, 0.0175] on a (T, b, m) grid.",
      "checked", section="III-D", claims=("fedlrgd.thm3.fedave", "fedlrgd.thm3.runs", "fedlrgd.eq78.constant"),
      figures=("fedlrgd.complexity", "fedlrgd.fedave")),
    R("Proposition 1", "proposition",
      "With s = O(phi m), d = O(log(n)^lambda), eps = Theta(n^{-beta}), (c1+2alpha+2)d <= eta <= (c2+2alpha+2)d, c2 > c1 >= "
      "2/xi, F(theta0) - F* = O(p): Gamma(FedLRGD) = O(phi m (p/eps)^xi), Gamma(FedAve) <= Gamma_+ = Theta(phi m (p/eps)^{3/4}), "
      "and Gamma(FedLRGD)/Gamma_+(FedAve) -> 0; checked along the stated scalings (d = 1, eta = (c1+2alpha+2)d) by "
      "evaluating both formulas, and on exact runs (logistic, m = 4..512, s = 10, eps = 2e-4 n^{-1/2}, phi = 200): measured "
      "Gamma(FedLRGD) (r = 3-4) over Gamma_+ with FedAve's fitted C has log-log slope -0.30 in m, 99.995% CI [-0.35, -0.24]; "
      "the p/eps exponent of the measured r is 0.16 [0.05, 0.28] and of (47) exactly 1/(2c1) = 0.125, both < 3/4. Against "
      "FedAve's measured Gamma (not Gamma_+) the ratio grows (0.033, 0.27, 0.36 at m = 4, 16, 64): the limit holds for the "
      "upper bound, not for these runs.",
      "checked", section="III-D", claims=("fedlrgd.prop1.ratio", "fedlrgd.prop1.runs"),
      figures=("fedlrgd.complexity", "fedlrgd.fedave")),
    R("Footnote 11", "remark",
      "F(theta0) - F* <= L1 ||theta0 - theta*||_2^2 = O(p) (mean value theorem + Lipschitz gradient); checked on the Appendix "
      "A risk (p = 1, 3, 7), also with the sharper L1/2: the ratio to L1 ||.||^2 is at most 0.15.",
      "checked", section="III-D", claims=("fedlrgd.fn11.initial-gap",)),
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
      "inequality (rank <= cells x C(l+d,d)) and, for explicit covers (whose cell count bounds the minimal one), the "
      "volumetric d! C(l+d,d)(q+1)^d, l = 0..3.",
      "checked", section="IV-B", claims=("fedlrgd.lemma1.taylor", "fedlrgd.eq51.volumetric")),
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
      "be R^p), exact interpolation P(x^(j)) = sum_k a_jk P(x^(k)) (57) and a_j = [P(x^(j); theta^(k))]_k (P^(i))^{-1} (58); "
      "checked on instrumented runs with an explicit cover, r = D|S_{d,q}| and D unisolvent server samples per cell "
      "(44 runs, l in {1, 2, 3}, full mode): sup|g_i - P_{q,l}| / (L2/(l! q^eta)) <= 0.37 (54); a_j = phi(x_j) Phi^{-T} "
      "interpolates P at every path theta to 1.2e-14 (57) and equals (58)'s route to 7.9e-11 where cond(P) <= 1e10.",
      "checked", section="V", claims=("fedlrgd.eq54-58.approximant", "fedlrgd.eq45.lattice-unisolvence")),
    R("Eq. (59)", "equation",
      "||a_j - w_j||_2 <= L2 sqrt(r)/(l! q^eta) ||G^{-1}|| + L2 r^{3/2}/(l! q^eta) (B + L2/(l! q^eta)) ||G^{-1}||^2/(1 - "
      "||G^{-1}|| r L2/(l! q^eta)), valid when ||G^{-1}|| r L2 < l! q^eta (step (iv) has a misplaced parenthesis; the final "
      "line is right); checked on instrumented runs (explicit cover, a_j from Phi and from (58), w_j from (38), measured "
      "||G^{-1}||, full mode): the premise held in 36 of 36 PolyTanhKernel runs (l = 1, 2, 3) and in 0 of 8 logistic "
      "runs; where it held, max_j ||a_j - w_j|| / rhs <= 0.029, no violation.",
      "checked", section="V", claims=("fedlrgd.eq59.coefficient-distance",)),
    R("Eq. (60)", "equation",
      "|d_i F - grad_hat F_i| <= L2 r^{2alpha+2}/(l! q^eta) (2 + B + L2/(l! q^eta))^2 (1/(1 - L2 r^{alpha+1}/(l! q^eta)) + 1), "
      "using max_j sum_k |w_jk| <= ||G^{-1}|| B r and (8); checked on instrumented runs (full mode): the auxiliary bound on all "
      "44 runs (ratio <= 0.28), and every step |dF_i - grad_hat F_i| <= (53) <= (i) <= ... <= (viii) at all 2160 iterates "
      "of the 36 runs where L2 r^{alpha+1} < l! q^eta (alpha = max(1, log||G^{-1}||/log r)); error / (60) <= 4.2e-6. Steps "
      "(iv)-(vi) as printed put ||G^{-1}||^2/(1 - .) on both summands; with that grouping a step ((vi) <= (vii)) fails at "
      "1380 of the 2160 iterates (erratum; the final (60) is right).",
      "checked", section="V", claims=("fedlrgd.eq60-62.gradient-error", "fedlrgd.thm2.weight-l1-bound",
                                      "fedlrgd.eq60.step-iv.erratum")),
    R("Eq. (61)", "equation",
      "Hypothesis L2 r^{2alpha+2}/(l! q^eta) <= delta for some delta in (0, 1/2]; checked: delta computed on every "
      "instrumented run with the measured alpha = max(1, log||G^{-1}||/log r) and the explicit q, l (full mode): <= 1/2 in "
      "18 of 36 PolyTanhKernel runs (l = 1: 11/12, l = 2: 3/12, l = 3: 4/12; delta from 0.03), never on the logistic "
      "example (delta >= 3.9e7 at r = 3, >= 3.2e36 at r = 12); (62) asserted at the 1080 iterates where it held.",
      "checked", section="V", claims=("fedlrgd.eq60-62.gradient-error",)),
    R("Eq. (62)", "equation",
      "Under (61): |d_i F - grad_hat F_i| <= delta (2 + B + delta)^2 (1/(1-delta) + 1) <= 3 (B+3)^2 delta, hence "
      "||grad_hat F - grad F||^2 <= 9 (B+3)^4 delta^2 p; checked: the scalar inequality on a delta grid for several B; and on "
      "instrumented FedLRGD runs (a kernel loss with well-conditioned G; the paper's logistic example never meets "
      "delta <= 1/2): at 1080 iterates where delta <= 1/2 the gradient error is at most 4.0e-6 of "
      "delta (2 + B + delta)^2 (1/(1-delta) + 1).",
      "checked", section="V", claims=("fedlrgd.thm2.S-and-delta", "fedlrgd.eq60-62.gradient-error")),
    R("Eq. (63)", "equation",
      "F(theta^(S)) - F* <= (1 - 1/kappa)^S (F(theta0) - F*) + 9 (B+3)^4 delta^2 p/(2 mu) (Lemma 2 + sum_gamma "
      "(1-1/kappa)^{S-gamma} <= kappa); checked in the sharper Lemma 2 form on runs (which implies (63) with the measured "
      "maximal error); and as printed, with the measured delta of (61), at the 1080 (run, S) pairs where delta <= 1/2 "
      "(full mode; max gap / rhs = 9.2e-5).",
      "checked", section="V", claims=("fedlrgd.eq53.lemma2", "fedlrgd.eq63-64.chain")),
    R("Eq. (64)", "equation",
      "Choosing delta = (1 - 1/kappa)^{S/2} gives F(theta^(S)) - F* <= (1 - 1/kappa)^S A <= eps for S from (48); checked also "
      "on runs (spec 14): at the 2640 (run, S) pairs where ||grad_hat F - grad F||^2 <= 9 (B+3)^4 delta_S^2 p held at every "
      "iterate up to S, F(theta_S) - F* <= (1 - 1/kappa)^S A (full mode, 44 runs; max ratio 8e-6).",
      "checked", section="V", claims=("fedlrgd.thm2.S-and-delta", "fedlrgd.eq63-64.chain")),
    R("Eq. (65)", "equation",
      "delta^2 <= eps/A <= eps/(9(B+3)^4 p/(2 mu)) <= 1/4 under eps <= 9(B+3)^4 p/(8 mu).",
      "checked", section="V", claims=("fedlrgd.thm2.S-and-delta",)),
    R("Sec. V, choice of r", "statement",
      "r <= e sqrt(d) (eta+d)^d (q+1)^d gives q >= r^{1/d}/(2 e^{1/d} d^{1/(2d)} (eta+d)) when r >= e sqrt(d) 2^d (eta+d)^d; "
      "with 1/l! <= eta e^eta/(eta-1)^eta this yields (61) for r >= K1^{1/(eta-(2alpha+2)d)} delta^{-d/(eta-(2alpha+2)d)}, "
      "and delta >= sqrt((kappa-1) eps/(kappa A)); checked: the Stirling step on eta in (1, 200], the power-d step gives K1 "
      "exactly (sympy; the printed '(eta-1) eta' read as (eta-1)^eta), the delta bound and q >= x/2.",
      "checked", section="V", claims=("fedlrgd.secV.choice-of-r", "fedlrgd.eq47.both-lower-bounds")),
)
