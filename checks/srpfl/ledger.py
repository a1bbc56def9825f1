"""Results ledger of Tziotis, Shen, Pedarsani, Hassani, Mokhtari, "Straggler-Resilient Personalized Federated Learning" (TMLR). Numbering follows the TMLR version (Tziotis et al., TMLR); `alt` gives the arXiv version (Tziotis et al., arXiv)."""
from fedtheory.ledger import LedgerRow as R

_DEF = "definition"
_NO_ARXIV = "arXiv: absent (TMLR only)"

LEDGER = (
    # ------------------------------------------------------------------ 1 Introduction
    R("Contribution 2 (speedup)", "claim",
      "SRPFL gives a provable logarithmic (O(log N)) wall-clock speedup over straggler-prone FedRep with Exp(lambda) "
      "client times, non-convex loss, heterogeneous data and changing speeds; checked: the speedup part through "
      "the Theorem 4.9 claims (idealised, simulated and real linear runs), not the generality wording.",
      "checked", section="1", claims=("srpfl.thm4.9.ratio", "srpfl.thm4.9.real-runs"), figures=("srpfl.speedup",),
      alt="arXiv: Sec. 1, contribution 2"),
    R("Contribution 2 (sample complexity)", "claim",
      "SRPFL keeps the 'state of the art' per-client sample complexity m = O(d/N + log N) (Theorem 4.7 actually "
      "needs m >= c0 (1+sigma^2) k^3 kappa^4/E0^2 max{log N, d/n0}, i.e. d/n0, not d/N).",
      "unchecked", section="1",
      reason="a check would sweep d and N (n0 fixed, and n0 proportional to N) on exact FedRep-SRPFL runs, find the "
             "smallest batch m for which dist reaches the stage-R floor within a fixed round budget, and test "
             "whether that m scales like d/N + log N (as claimed) or like d/n0 + log N (as Theorem 4.7 requires)",
      alt="arXiv: Sec. 1, contribution 2"),
    # ------------------------------------------------------------------ 2 Problem formulation
    R("Eqs. (1)-(2)", "equation",
      "Personalised FL objective (1) min over (q_1..q_M) of (1/M) sum_i f_i(q_i) and its shared-representation "
      "empirical form (2) min_phi (1/M) sum_i min_{h_i} (1/S_i) sum_s l(h_i o phi(x_i^s), y_i^s).",
      "not-checkable", section="2", reason="problem definitions", alt="arXiv: eqs. (1)-(2)"),
    R("Figure 1", "figure", "Schematic of classic FL client sampling (N of M clients, all N participate) for (2).",
      "not-checkable", section="2", reason="schematic diagram, no data", alt="arXiv: Figure 1"),
    R("Figure 2", "figure", "Schematic of SRPFL: of the N sampled clients only the fastest n (doubling per stage) participate.",
      "not-checkable", section="2", reason="schematic diagram, no data", alt="arXiv: Figure 2"),
    # ------------------------------------------------------------------ 3 SRPFL
    R("Remark 3.1", "remark",
      "The server need not know client speeds: it broadcasts to all N sampled clients and aggregates the first n0 "
      "models returned, which are those of the n0 fastest clients.",
      "not-checkable", section="3", reason="implementation remark; true by construction (first returned = fastest)",
      alt="arXiv: Remark 3.2"),
    R("Remark 3.2", "remark",
      "The N sampled nodes are assumed to stay connected for a whole stage, but the analysis is unchanged if a new set "
      "is sampled every round; checked: only the wall-clock part (expected WCT is the same whether the N times are "
      "drawn once per stage or redrawn every round), not the contraction part.",
      "checked", section="3", claims=("srpfl.thm4.9.simulated",), alt="arXiv: Remark 3.1"),
    R("Eqs. (3)-(4)", "equation",
      "Alternating update scheme: tau_h head steps h_i^{t,s} = GRD(f_i(h_i^{t,s-1}, phi^t), h_i^{t,s-1}, eta) (3) "
      "then tau_phi representation steps phi_i^{t,s} = GRD(f_i(h_i^{t,tau_h}, phi_i^{t,s-1}), phi_i^{t,s-1}, eta) (4).",
      "not-checkable", section="3", reason="definition of the subroutine class (GRD is any gradient-type step)",
      alt="arXiv: eqs. (3)-(4)"),
    R("Algorithm 1", "algorithm",
      "SRPFL meta-algorithm: stages r = 0..log(N/n0) with n = min(N, 2^r n0) fastest of N sampled clients, tau_r rounds "
      "each of tau_h head and tau_phi representation gradient steps, server averaging, frozen heads for non-participants.",
      "unchecked", section="3",
      reason="a check would implement the generic meta-algorithm on the linear model (tau_h gradient steps on w_i, "
             "tau_phi on B, averaging, frozen non-participant heads) and verify it reproduces Algorithm 2's rounds "
             "(to solver tolerance) when tau_h -> infinity and tau_phi = 1 (up to Algorithm 2's QR step)",
      alt="arXiv: Algorithm 1"),
    R("Remark 3.3", "remark",
      "Comparison with FLANP (Reisizadeh et al. 2022): SRPFL does not need data homogeneity, persistent clients, "
      "strong convexity or a gradient-norm stage criterion, and derives the optimal rounds per stage.",
      "not-checkable", section="3", reason="qualitative comparison with prior work", alt="arXiv: Remark 3.3"),
    # ------------------------------------------------------------------ 4 Linear representation
    R("Algorithm 2", "algorithm",
      "FedRep-SRPFL: method-of-moments init (top-k eigvecs of (1/N) sum_i P_i, P_i = (1/m) sum_j y^2 x x^T), then per "
      "stage tau_r rounds of exact least-squares heads, one gradient step on B per client, averaging and QR; line 16 "
      "hands U <- B_bar to the next stage; checked: the line-16 erratum (B_bar is not orthonormal although (16)-(19) "
      "assume it; corrected: carry the QR factor); the MoM init (lines 2-3) is not checked.",
      "checked", section="4", claims=("srpfl.alg2.line16",), alt="arXiv: Algorithm 2 (loop t = 0..tau_r)"),
    R("Eqs. (5)-(6)", "equation",
      "Linear model y_i = w_i*^T B*^T x_i + z_i, expected risk (5) and empirical risk (6) (1/(2Mm)) sum_i sum_j "
      "(y_i^j - w_i^T B^T x_i^j)^2, whose global minima include every (W* Q^{-1}, B* Q^T).",
      "not-checkable", section="4", reason="definitions; the non-identifiability remark is immediate",
      alt="arXiv: eqs. (5)-(6)"),
    R("Definition 4.1", "definition",
      "Principal angle distance dist(B1, B2) = ||B_hat_{1,perp}^T B_hat_2||_2 (printed with a stray comma).",
      "not-checkable", section="4", reason=_DEF, alt="arXiv: Definition 4.1"),
    R("Remark 4.2", "remark",
      "Differences from Collins et al. (2021): finite noisy samples, participating sets of varying size, and system "
      "heterogeneity are handled here.",
      "not-checkable", section="4", reason="qualitative comparison with prior work", alt=_NO_ARXIV),
    R("Eq. (7)", "definition", "E0 := 1 - dist^2(B^0, B*).", "not-checkable", section="4.1", reason=_DEF,
      alt="arXiv: eq. (7)"),
    R("Eqs. (8)-(9)", "definition",
      "sigma_max,* / sigma_min,* := max / min over subsets I with n0 <= |I| = n <= N of sigma_max / sigma_min "
      "(W*_I/sqrt(n)); checked: with Assumption 4.6 they satisfy sigma_min,* <= 1 <= sigma_max,* <= sqrt(k) "
      "(exact enumeration over subsets).",
      "checked", section="4.1", claims=("srpfl.thm4.7.stepsize",), alt="arXiv: eq. (8) (both merged)"),
    R("Assumption 4.3", "assumption", "Sub-gaussian design: x_i i.i.d., mean 0, covariance I_d, I_d-sub-gaussian.",
      "not-checkable", section="4.1", reason="assumption (the toolkit uses Gaussian x)", alt="arXiv: Assumption 4.2"),
    R("Assumption 4.4", "assumption",
      "Client diversity: sigma_min,* > 0 for every participating subset of size n >= n0 (heads span R^k).",
      "not-checkable", section="4.1",
      reason="assumption; note the appendix re-defines sigma_min,* over all n' <= N, which gives 0 for n' < k",
      alt="arXiv: Assumption 4.3"),
    R("Remark 4.5", "remark",
      "Client speeds are assumed independent of local data; strong speed/data correlation may break Assumption 4.4.",
      "not-checkable", section="4.1", reason="qualitative limitation", alt=_NO_ARXIV),
    R("Assumption 4.6", "assumption",
      "Client normalisation: ||w_i*||_2 = sqrt(k) for all i and B* orthonormal, so ||W*_I/sqrt(n)||_F^2 = k; checked: "
      "its consequence sigma_min,* <= 1 <= sigma_max,* <= sqrt(k) (the appendix's '1/n'' should be 1/sqrt(n')).",
      "checked", section="4.1", claims=("srpfl.thm4.7.stepsize",), alt="arXiv: Assumption 4.4"),
    R("Sec. 4.1 wall-clock model", "statement",
      "Expected WCT: E[T_SRPFL] = sum_{r=0}^{log(N/n0)} tau_r (E[T^r_{n_r}] + C) with T^r_{n_r} the slowest participant "
      "(n_r-th order statistic of N), and E[T_FedRep] = T_FR (E[T_N] + C); checked: Monte Carlo WCT equals the formula "
      "with E[T_(j:N)] = (H_N - H_{N-j})/lambda, for times drawn per stage or per round.",
      "checked", section="4.1", claims=("srpfl.thm4.9.simulated", "srpfl.ordstat.mean"),
      alt="arXiv: Sec. 4.1, Wall Clock Time paragraph"),
    R("Theorem 4.7", "theorem",
      "Under Assumptions 4.3-4.6, n >= n0, m >= c0 (1+sigma^2) k^3 kappa^4/E0^2 max{log N, d/n0} and eta <= "
      "1/(8 sigma_max,*^2), FedRep-SRPFL satisfies (10) w.p. >= 1 - T exp(-90 min{d, k^2 log N}) with a = eta E0 "
      "sigma_min,*^2/2 <= 1/4; checked: eta = 1/(8k) is admissible and a <= E0/(16 kappa^2) <= 1/16, and (10) on exact "
      "runs with a from the actual participating set; the unknown c0 and the probability value are not tested.",
      "checked", section="4.1", claims=("srpfl.thm4.7.contraction", "srpfl.thm4.7.stepsize"),
      figures=("srpfl.stages",), alt="arXiv: Theorem 4.5"),
    R("Eq. (10)", "equation",
      "Contraction dist(B^{t+1}, B*) <= dist(B^t, B*) sqrt(1-a) + a/sqrt((n/n0)(1-a)); checked: per-round on exact "
      "runs, its closed-form iteration and floor; the additive floor does not vanish at sigma = 0 (proof artefact).",
      "checked", section="4.1",
      claims=("srpfl.thm4.7.contraction", "srpfl.corA11.noise-floor", "srpfl.thm4.7.floor-not-prediction"),
      figures=("srpfl.stages",), alt="arXiv: eq. (9)"),
    R("Remark 4.8", "remark",
      "Fairness: once the server has B*, clients that never participated can fit their k-dimensional head locally "
      "with a few samples, so they lose nothing.",
      "unchecked", section="4.1",
      reason="a check would learn B with FedRep-SRPFL, then for clients never among the n fastest fit w_i by least "
             "squares on m fresh samples against the learned B and compare their exact test MSE with that of "
             "participants and with the oracle sigma^2 (1 + k/(m-k-1))",
      alt=_NO_ARXIV),
    R("Eq. (11)", "equation",
      "Stage-r contraction dist+ <= dist sqrt(1-alpha) + alpha/sqrt(2^r (1-alpha)) (n = 2^r n0); checked: iterates "
      "d_t = D_r + (d0 - D_r)(1-a)^{t/2}, D_{r+1} = D_r/sqrt2, and the bound is vacuous (D_r >= 1) for 2^r <~ 4.",
      "checked", section="4.1", claims=("srpfl.corA11.noise-floor",), figures=("srpfl.stages",),
      alt="arXiv: eq. (10)"),
    R("Sec. 4.1 noise-floor statement", "statement",
      "In the limit (11) converges to D_r = alpha/(sqrt(2^r(1-alpha))(1-sqrt(1-alpha))), so the achievable error is "
      "bounded below by D_{log(N/n0)}; checked: the fixed point is exact, but noiseless runs go far below D_r, so D is "
      "a limit of the bound, not a lower bound on the achievable error.",
      "checked", section="4.1", claims=("srpfl.corA11.noise-floor", "srpfl.thm4.7.floor-not-prediction"),
      alt="arXiv: Sec. 4.1, text after eq. (10)"),
    R("Eq. (12)", "equation",
      "Target error eps = c_hat alpha/(sqrt((N/n0)(1-alpha))(1-sqrt(1-alpha))) = c_hat D_{log(N/n0)}, 1 < c_hat < sqrt2; "
      "checked: eps lies below D_{log(N/(2n0))}, so all N nodes are needed.",
      "checked", section="4.1", claims=("srpfl.corA11.noise-floor",), alt="arXiv: eq. (11)"),
    R("arXiv Sec. 4.1 target upper bound", "statement",
      "arXiv only: for a fair comparison the target must be below sqrt2 alpha/(sqrt((N/n0)(1-alpha))(1-sqrt(1-alpha))) "
      "= D_{log(N/(2n0))} so that all N nodes are needed; checked: (11)/(12) with c_hat < sqrt2 lies below it.",
      "checked", section="4.1", claims=("srpfl.corA11.noise-floor",), alt="arXiv: Sec. 4.1, text before eq. (11)"),
    R("Theorem 4.9", "theorem",
      "With i.i.d. Exp(lambda) times, C = c/lambda and target (12): E[T_SRPFL]/E[T_FedRep] = O(log(1/(c_hat-1))/"
      "(log N + log(1/(c_hat-1)))), also when speeds are redrawn every round; checked: idealised ratio falls ~1/log N, "
      "rises with c and as c_hat -> 1, simulated and real linear runs agree; Lemma B.3 (hence the proof) is invalid "
      "as printed and the explicit bound (256) exceeds 1 for moderate N.",
      "checked", section="4.1",
      claims=("srpfl.thm4.9.ratio", "srpfl.thm4.9.simulated", "srpfl.thm4.9.real-runs", "srpfl.lemB2.upper-bound",
              "srpfl.lemB3.lower-bound"),
      figures=("srpfl.speedup",), alt="arXiv: Theorem 4.6"),
    R("Remark 4.10", "remark",
      "FedAvg also recovers the ground-truth representation in multi-task linear regression (Collins et al. 2022), so "
      "it is a candidate SRPFL subroutine.",
      "not-checkable", section="4.1", reason="suggestion citing another paper; no claim about SRPFL", alt=_NO_ARXIV),
    R("Remark 4.11", "remark",
      "The one-time initialisation reveals only sums of outer products and could be protected with differential privacy.",
      "not-checkable", section="4.1", reason="qualitative privacy remark", alt=_NO_ARXIV),
    # ------------------------------------------------------------------ 5 Experiments
    R("Figure 3", "figure",
      "Deep-net results on CIFAR10/CIFAR100/EMNIST/FEMNIST, full participation (M = N), fixed Exp(1) speeds, "
      "C.T. = 0, 10, 100 (rows): FedRep-SRPFL best, SRPFL speeds up FedRep and LG-FedAvg, gain shrinks as C.T. grows; "
      "checked: only a linear analogue (FedRep vs FedRep-SRPFL dist/exact MSE vs simulated wall-clock on the same "
      "speed/C.T. grid); the deep-net curves and other baselines are not reproduced.",
      "checked", section="5", claims=("srpfl.thm4.9.real-runs",), figures=("srpfl.wallclock",),
      alt="arXiv: Figure 3 (different runs: lr 0.01, Shard 3/5/20)"),
    R("Figure 4", "figure",
      "As Figure 3 with partial participation (N = M/5), fixed speeds; checked: only the linear analogue "
      "(partial-participation, fixed-speed column of the wall-clock figure).",
      "checked", section="5", claims=("srpfl.thm4.9.real-runs",), figures=("srpfl.wallclock",),
      alt="arXiv: Figure 5 (appendix, lr 0.01)"),
    R("Figure 5", "figure",
      "As Figure 3 with dynamic speeds (lambda_i ~ U[1/M, 1], fresh Exp(lambda_i) time per round), full participation; "
      "checked: only the linear analogue (dynamic-speed, full-participation column).",
      "checked", section="5", claims=("srpfl.thm4.9.real-runs",), figures=("srpfl.wallclock",),
      alt="arXiv: Figure 4 (appendix, lambda_i ~ U[1/N, 1])"),
    R("Figure 6", "figure",
      "Dynamic speeds with partial participation (caption wrongly says M = N; it is N = M/5); checked: only the "
      "linear analogue (dynamic-speed, partial-participation column).",
      "checked", section="5", claims=("srpfl.thm4.9.real-runs",), figures=("srpfl.wallclock",),
      alt="arXiv: Figure 6 (appendix)"),
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
    R("Eqs. (13)-(15)", "equation",
      "Loss L_N(B, W) = (1/(2mn)) sum_i ||Y_i - X_i B w_i||^2 (13) and its gradients (14) (1/(mn)) sum_i X_i^T "
      "(X_i B w_i - Y_i) w_i^T and (15) (1/(mn)) B^T X_i^T (X_i B w_i - Y_i).",
      "unchecked", section="App. A",
      reason="a check would compare (14)-(15) with central finite differences of L_N (13) (read with a squared norm; "
             "X_i is m x d although stated d x m) on random X_i, Y_i, B, w_i",
      alt="arXiv: eqs. (12)-(14)"),
    R("Eqs. (16)-(19)", "equation",
      "One round in closed form: w_i+ = ((1/m) B^T X_i^T X_i B)^{-1} (1/m) B^T X_i^T Y_i (16)-(17), B+ = B - (eta/(mn)) "
      "sum_i X_i^T (X_i B w_i+ - Y_i) w_i+^T (18), (B_hat+, R+) = QR(B+) (19).",
      "unchecked", section="App. A",
      reason="a check would verify that (17) equals the least-squares solution (numpy lstsq) of min_w ||Y_i - X_i B w||, "
             "that (18) equals the average of the client steps B - eta grad_B f_i (Algorithm 2 lines 11-13), and that "
             "(19) gives orthonormal B_hat+ with B+ = B_hat+ R+",
      alt="arXiv: eqs. (15)-(18)"),
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
    R("Corollary A.3", "corollary",
      "(26): W+ = W* B*^T B + F + G (printed W* B* B, a missing transpose); checked via its rows (20).",
      "checked", section="App. A", claims=("srpfl.lemA2.identities",), alt="arXiv: Corollary A.3, eq. (25)"),
    R("Lemma A.4", "lemma",
      "(27)-(28): w.p. >= 1 - exp(-115 k^3 log N), sigma_min((1/m) B^T X_i^T X_i B) >= 1 - delta for all i (hence "
      "inverse norm <= 1/(1-delta)), delta = c k^{3/2} sqrt(log N)/sqrt(m); checked: one fitted c (99% quantile) works "
      "across m, stays below the Davidson-Szarek envelope; the probability is not checked.",
      "checked", section="App. A", claims=("srpfl.lemA4.concentration",), alt="arXiv: Lemma A.4, eqs. (26)-(27)"),
    R("Eqs. (29)-(31)", "equation",
      "Proof of Lemma A.4: rewrite as a sum of outer products (29), Vershynin Thm 4.6.1 bound 1 - c1(sqrt(k/m) + l/sqrt(m)) "
      "(30), choice of l and delta_1 (31) (printed l = 12 k^{3/2} log(N) sqrt(k) is inconsistent with the stated failure "
      "probability).",
      "not-checkable", section="App. A", reason="proof steps of Lemma A.4 (citation of a textbook bound)",
      alt="arXiv: eqs. (28)-(30)"),
    R("Eqs. (32)-(33)", "equation",
      "exp(-k(12k sqrt(log N) - 1)^2) = exp(k(-144 k^2 log N + 24 k log N - 1)) <= exp(-120 k^3 log N) (the middle "
      "term should read 24 k sqrt(log N)).",
      "unchecked", section="App. A",
      reason="a check would evaluate both sides on a grid of k and N: the correct expansion has 24k sqrt(log N), and "
             "the inequality holds iff 24x^2 - 24x + 1 >= 0 with x = k sqrt(log N), i.e. for x >= 0.96 (all k >= 1 "
             "once N >= 3, natural log)",
      alt="arXiv: eqs. (31)-(32)"),
    R("Eqs. (34)-(35)", "equation", "Union bound over the n clients: 1 - n exp(-120 k^3 log N) >= 1 - exp(-115 k^3 log N).",
      "not-checkable", section="App. A", reason="proof step of Lemma A.4 (union bound, n <= N)",
      alt="arXiv: eqs. (33)-(34)"),
    R("Lemma A.5", "lemma",
      "(36): with H_i = (1/m) B^T X_i^T X_i (B B^T - I) B*, sum_i ||H_i w_i*||^2 <= delta^2 ||W*||_2^2 dist^2(B, B*) "
      "w.p. >= 1 - exp(-115 k^2 log N).",
      "unchecked", section="App. A",
      reason="a check would compute H_i from the X_i, B, B* of exact rounds and the ratio sum_i ||H_i w_i*||^2/"
             "(||W*||_2^2 dist^2) against delta^2 = c^2 k^3 log N/m, fitting c at the 99% quantile over m, k, N and "
             "dist (c should be m-stable, as in srpfl.lemA4.concentration)",
      alt="arXiv: Lemma A.5, eq. (35)"),
    R("Eqs. (37)-(50)", "equation",
      "Proof of Lemma A.5: 1/4-net bound (37)-(38), zero mean (39), Bernstein (40)-(45), per-client bound ||H_i|| <= "
      "dist sqrt(C k^2 log N/m) (46)-(47), averaged forms (48)-(49), and sum ||H_i w_i*||^2 <= (k/n) ||W*||^2 sum ||H_i||^2 (50).",
      "not-checkable", section="App. A",
      reason="proof steps of Lemma A.5 (net argument, Bernstein, union bound); the per-client bound (46) would be "
             "tested together with Lemma A.5",
      alt="arXiv: eqs. (36)-(49)"),
    R("Lemma A.6", "lemma",
      "(51)-(52): w.p. >= 1 - exp(-110 k^2 log N), ||F_i|| <= (delta/(1-delta)) dist ||w_i*|| for all i and ||F||_F <= "
      "(delta/(1-delta)) dist ||W*||_2.",
      "unchecked", section="App. A",
      reason="a check would compute F_i (24) in exact rounds and test both bounds with one fitted c in delta over "
             "m, k, N and dist (expected scaling sqrt(k^3 log N/m) dist)",
      alt="arXiv: Lemma A.6, eqs. (50)-(51)"),
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
    R("Lemma A.8", "lemma",
      "(70)-(71): w.p. >= 1 - exp(-105 k^2 log N), ||w_i+|| <= 2 sqrt(k) + sigma^2 delta_hat and ||q_i|| = ||B w_i+ - "
      "B* w_i*|| <= 2 sqrt(k) dist + sigma^2 delta_hat, delta_hat = delta/(1-delta).",
      "unchecked", section="App. A",
      reason="a check would record max_i ||w_i+|| and max_i ||q_i|| in exact rounds and compare with the two bounds "
             "(fitted c); (71) is the sensitive one: at dist ~ 0 and small sigma, ||q_i|| = ||G_i|| ~ sigma sqrt(k/m) "
             "exceeds sigma^2 delta_hat for any fixed c (inherits the sigma-scaling error of Lemma A.7)",
      alt="arXiv: Lemma A.8, eqs. (69)-(70)"),
    R("Eqs. (72)-(81)", "equation", "Proof of Lemma A.8 from (20), (51), (58) and Assumption 4.6.",
      "not-checkable", section="App. A", reason="proof steps of Lemma A.8", alt="arXiv: eqs. (71)-(80)"),
    R("Lemma A.9", "lemma",
      "(82): ||(1/(mn)) sum_i X_i^T Z_i w_i+^T|| <= c sigma^2 (sqrt(k) + delta_hat sigma^2) sqrt(d)/sqrt(mn) w.p. >= "
      "1 - exp(-105 d) - exp(-105 k^2 log N); checked: the sigma^2 scaling fails as sigma -> 0 (the term scales like sigma).",
      "checked", section="App. A", claims=("srpfl.lemA7-A9.sigma-scaling",), alt="arXiv: Lemma A.9, eq. (81)"),
    R("Eqs. (83)-(94)", "equation", "Proof of Lemma A.9: net over S^{d-1} x S^{k-1}, conditioning on E1 (86), Bernstein, union bounds.",
      "not-checkable", section="App. A", reason="proof steps of Lemma A.9", alt="arXiv: eqs. (82)-(92)"),
    R("Lemma A.10", "lemma",
      "(95): ||(1/n) sum_i ((1/m) X_i^T X_i q_i - q_i) w_i+^T|| <= c sqrt(d) (dist k + sqrt(k) delta_hat sigma^2 + "
      "(delta_hat sigma^2)^2)/sqrt(mn) w.p. >= 1 - exp(-100 d) - exp(-100 k^2 log N).",
      "unchecked", section="App. A",
      reason="a check would compute that d x k matrix in exact rounds and the ratio of its norm to sqrt(d)(dist k + "
             "sqrt(k) delta_hat sigma^2 + (delta_hat sigma^2)^2)/sqrt(mn), fitting c over d, m, n, dist and sigma "
             "(including dist -> 0 with small sigma, where q_i ~ sigma and the sigma^2 terms may be too small)",
      alt="arXiv: Lemma A.10, eq. (93)"),
    R("Eqs. (96)-(106)", "equation", "Proof of Lemma A.10: event E2 (96), net and Bernstein (97)-(105), conclusion (106).",
      "not-checkable", section="App. A", reason="proof steps of Lemma A.10", alt="arXiv: eqs. (94)-(104)"),
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
    R("Eqs. (121)-(125)", "equation",
      "||W+||_2^2 <= 2||W*||^2 + 4||F||^2 + 4||G||^2 <= 4(||W*||_2^2 + n) <= 4n(sigma_max,*^2 + 1), so I_k - (eta/n) "
      "W+^T W+ is positive definite.",
      "unchecked", section="App. A (proof of Thm 4.7)",
      reason="a check would compute ||W+||_2^2 in exact rounds and compare with (122) and 4n(sigma_max,*^2 + 1) (W* "
             "restricted to the participating rows), and confirm I_k - (eta/n) W+^T W+ > 0 for eta = 1/(8 sigma_max,*^2)",
      alt="arXiv: eqs. (119)-(123)"),
    R("Eqs. (126)-(135)", "equation",
      "Chain bounding ||I_k - (eta/n) W+^T W+|| by 1 - eta sigma_min,*^2 sigma_min^2(B*^T B) + (1/6) eta E0 sigma_min,*^2, "
      "then using E0 <= sigma_min^2(B*^T B).",
      "not-checkable", section="App. A (proof of Thm 4.7)",
      reason="proof steps; the end point (136) and its trajectory assumption are listed at Eq. (136)",
      alt="arXiv: eqs. (124)-(133)"),
    R("Eq. (136)", "equation", "A1 <= dist(B, B*) (1 - (5/6) eta E0 sigma_min,*^2).",
      "unchecked", section="App. A (proof of Thm 4.7)",
      reason="a check would compute A1 (113) in exact rounds against dist (1 - (5/6) eta E0 sigma_min,*^2), and log "
             "sigma_min^2(B*^T B_t) >= E0 (i.e. dist_t <= dist_0) along the trajectory, which (135) assumes but the "
             "additive term of (10) does not guarantee",
      alt="arXiv: eq. (134)"),
    R("Eq. (137)", "equation", "A2 <= eta c sigma^2 (sqrt(k) + 1) sqrt(d)/sqrt(mn).",
      "unchecked", section="App. A (proof of Thm 4.7)",
      reason="a check would compute A2 (114) in exact rounds against eta c sigma^2 (sqrt(k)+1) sqrt(d)/sqrt(mn) with a "
             "fitted c; A2 is linear in the noise, so the ratio should blow up as sigma -> 0 (same sigma-scaling error "
             "as Lemma A.9)",
      alt="arXiv: eq. (135)"),
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
    R("Eqs. (143)-(144)", "equation",
      "Expansion B+^T B+ = I_k - (eta/n)(B^T S + S^T B) + (eta/n)(B^T E + E^T B) - (eta^2/n^2)(E^T S + S^T E) + "
      "(eta^2/n^2)(E^T E + S^T S).",
      "unchecked", section="App. A (proof of Thm 4.7)",
      reason="a check would compute B+^T B+ in exact rounds and compare with (144) to machine precision (the expansion "
             "is right; the sign slip is in (145)/(148))",
      alt="arXiv: eqs. (141)-(142)"),
    R("Eqs. (145)-(149)", "equation",
      "Weyl: sigma_min^2(R+) >= 1 - R1 - R2 - R3 (149) with R1-R3 (146)-(148); checked: with the printed R3 = (eta/n) "
      "lambda_max(B^T E + E^T B) it fails; the sign-corrected (eta/n) lambda_max(-(B^T E + E^T B)) holds (also "
      "R+^T R+ = B+^T B+, not B_hat+^T B_hat+).",
      "checked", section="App. A (proof of Thm 4.7)", claims=("srpfl.eq149.inequality",), alt="arXiv: eqs. (143)-(147)"),
    R("Eqs. (150)-(164)", "equation", "Splitting R1 via (20) into T1 + T2 + T3 (150)-(163) and bounding T1 under E3 (164).",
      "not-checkable", section="App. A (proof of Thm 4.7)", reason="proof steps towards (165) and (174)",
      alt="arXiv: eqs. (148)-(162)"),
    R("Eq. (165)", "equation", "T1 <= (1/10) eta E0 sigma_min,*^2.",
      "unchecked", section="App. A (proof of Thm 4.7)",
      reason="a check would compute T1 (156), maximised over unit p, in exact rounds and compare with (1/10) eta E0 "
             "sigma_min,*^2 and with (164) (it relies on delta_hat <= E0/(20 kappa^2 (1+sigma^2)))",
      alt="arXiv: eq. (163)"),
    R("Eqs. (166)-(173)", "equation", "Bounds T2 <= (2 eta/n)(||F||^2 + ||G|| ||F||), T3 likewise, T2 + T3 <= (2 eta/n)(||F||_F + ||G||_F)^2.",
      "not-checkable", section="App. A (proof of Thm 4.7)", reason="proof steps towards (174)",
      alt="arXiv: eqs. (164)-(170)"),
    R("Eq. (174)", "equation", "T2 + T3 <= 2 eta delta_hat^2 (sigma_max,*^2 + sigma^4) <= (1/10) eta E0 sigma_min,*^2.",
      "unchecked", section="App. A (proof of Thm 4.7)",
      reason="a check would compute T2 + T3 (157)-(158), maximised over unit p, in exact rounds and compare with "
             "(1/10) eta E0 sigma_min,*^2 and with 2 eta delta_hat^2 (sigma_max,*^2 + sigma^4) (173)",
      alt="arXiv: eq. (170)"),
    R("Eqs. (175)-(176)", "equation", "R1 <= 6 eta c k sqrt(d)/sqrt(mn) + (1/5) eta E0 sigma_min,*^2.",
      "unchecked", section="App. A (proof of Thm 4.7)",
      reason="a check would compute R1 (146) in exact rounds and compare with 6 eta c k sqrt(d)/sqrt(mn) + (1/5) eta E0 "
             "sigma_min,*^2 for a fitted c across d, m, n",
      alt="arXiv: eqs. (171)-(172)"),
    R("Eqs. (177)-(184)", "equation", "Bounding R2 via E4, E5 and E2.",
      "not-checkable", section="App. A (proof of Thm 4.7)", reason="proof steps towards (185)",
      alt="arXiv: eqs. (173)-(178)"),
    R("Eq. (185)", "equation", "R2 <= 3 eta^2 c^2 k^{3/2} sigma^2 d/(mn) + 9 eta^2 c k^{3/2} sigma^2 sqrt(d)/sqrt(mn).",
      "unchecked", section="App. A (proof of Thm 4.7)",
      reason="a check would compute R2 (147) in exact rounds against the bound with a fitted c; R2 is linear in E "
             "(noise ~ sigma), so test the ratio as sigma -> 0",
      alt="arXiv: eq. (179)"),
    R("Eqs. (186)-(189)", "equation", "Bounding R3 by (2 eta/n)||B|| ||sum (1/m) X_i^T Z_i w_i+^T|| ((187) misprints 2 eta^2/n^2 for 2 eta/n).",
      "not-checkable", section="App. A (proof of Thm 4.7)", reason="proof steps towards (190)",
      alt="arXiv: eqs. (180)-(182)"),
    R("Eq. (190)", "equation", "R3 <= 3 eta c sqrt(k) sigma^2 sqrt(d)/sqrt(mn).",
      "unchecked", section="App. A (proof of Thm 4.7)",
      reason="a check would compute |R3| in exact rounds (both sign conventions) against 3 eta c sqrt(k) sigma^2 "
             "sqrt(d)/sqrt(mn); R3 scales like sigma, so for fixed c the sigma^2 bound should fail as sigma -> 0",
      alt="arXiv: eq. (183)"),
    R("Eqs. (191)-(192)", "equation",
      "Combining (149), (176), (185), (190); the step (191) -> (192) folds the noise-free term 6 eta c k sqrt(d)/sqrt(mn) "
      "into terms carrying sigma^2 (only valid for sigma^2 >~ 1/sqrt(k)).",
      "not-checkable", section="App. A (proof of Thm 4.7)",
      reason="proof steps; the slip is that (192) drops a sigma-free term (the final side condition before (197) uses "
             "(1 + sigma^2), which would cover it); tested at Eq. (193)",
      alt="arXiv: eq. (184)"),
    R("Eq. (193)", "equation",
      "sigma_min^2(R+) >= 1 - 15 eta c k^{3/2} sigma^2 sqrt(d)/sqrt(mn) - (1/5) eta E0 sigma_min,*^2.",
      "unchecked", section="App. A (proof of Thm 4.7)",
      reason="a check would compute sigma_min^2(R+) in exact rounds against the bound; at sigma = 0 it becomes the "
             "constant-free claim sigma_min^2(R+) >= 1 - eta E0 sigma_min,*^2/5, testable directly (the noise-free "
             "term lost at (192) may make it fail at large dist or small m)",
      alt="arXiv: eq. (185)"),
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
    # ------------------------------------------------------------------ Appendix B
    R("Eq. (199)", "equation", "Restatement of (198) at the start of App. B.",
      "not-checkable", section="App. B", reason="verbatim restatement of (198) (Corollary A.11), which is checked",
      alt="arXiv: eq. (191)"),
    R("Eqs. (200)-(201)", "definition",
      "Progress per unit time with 2^r n0 (200) and 2^{r+1} n0 (201) nodes: (dist - dist sqrt(1-a) - a/sqrt(2^r(1-a)))/"
      "(E[T_{n0 2^r}] + C) (printed numerator starts with dist+, a typo); checked in the corrected form: the two are "
      "equal at X_{r+1}.",
      "checked", section="App. B", claims=("srpfl.lemB1.switching",), alt="arXiv: eqs. (192)-(193)"),
    R("Lemma B.1", "lemma",
      "(202)-(203): switching distance X_{r+1} = D_r (1 + (E[T_{n0 2^r}] + C)(1 - 1/sqrt2)/(E[T_{n0 2^{r+1}}] - "
      "E[T_{n0 2^r}])) (printed statement mixes i/r and drops a parenthesis; see (206)), X_0 = inf, and rounds per stage "
      "t^r = 2 log(sqrt2 Delta_{r+1}/Delta_r)/log(1/(1-a)); checked: exact landing on X_{r+1}, independent of C.",
      "checked", section="App. B", claims=("srpfl.lemB1.switching",), figures=("srpfl.stages",),
      alt="arXiv: Lemma B.1, eqs. (194)-(195)"),
    R("Eqs. (204)-(206)", "equation",
      "Equating (200) and (201) at dist = X_{r+1} and solving gives (206); checked: the ratios are equal at (206).",
      "checked", section="App. B", claims=("srpfl.lemB1.switching",), alt="arXiv: eqs. (196)-(198)"),
    R("Eqs. (207)-(213)", "equation",
      "Geometric-series solution of the stage-r recursion from X_r to X_{r+1} ((212) drops a factor 1/sqrt2 that the "
      "final (214) restores).",
      "not-checkable", section="App. B", reason="proof steps of Lemma B.1; the resulting count (214) is checked",
      alt="arXiv: eqs. (199)-(205)"),
    R("Eqs. (214)-(215)", "equation",
      "t >= 2 log(sqrt2 (E[T_{n0 2^{r+1}}] - E[T_{n0 2^r}])/(E[T_{n0 2^r}] - E[T_{n0 2^{r-1}}]))/log(1/(1-a)); checked: "
      "holds with equality (iterating t^r rounds from X_r lands exactly on X_{r+1}).",
      "checked", section="App. B", claims=("srpfl.lemB1.switching",), alt="arXiv: eq. (206)"),
    R("Eq. (216)", "equation", "Restatement of the target (12).",
      "not-checkable", section="App. B", reason="restatement of (12), which is checked", alt="arXiv: eq. (208)"),
    R("Lemma B.2", "lemma",
      "(217): E[T_SRPFL] <= log N (6(c+1) + 4 log(1/(c_hat-1)))/log(1/(1-a)) / lambda for Exp(lambda) times, C = c/lambda, "
      "target (12); checked against the exact idealised SRPFL wall-clock (scalar recursion, exact order-statistic means, "
      "optimal switching, from dist 1).",
      "checked", section="App. B", claims=("srpfl.lemB2.upper-bound",), figures=("srpfl.speedup",),
      alt="arXiv: Lemma B.2, eq. (209)"),
    R("Eqs. (218)-(220)", "equation",
      "Phase-1 cost sum_{i=1}^{log(N/(2n0))} t^i (E[T_{n0 2^i}] + C) (218) (stage 0 omitted), with each stage's ratio "
      "bounded by the (N/2, N/4, N/8) ratios (220).",
      "unchecked", section="App. B",
      reason="a check would compute the exact per-stage ratios sqrt2 Delta_{i+1}/Delta_i with harmonic numbers and "
             "verify they increase in i, so that (220)'s replacement by the last-stage ratios is an upper bound (a "
             "quick computation gives 2.83..3.72 for N up to 2^16), and report the omitted stage-0 cost",
      alt="arXiv: eqs. (210)-(212)"),
    R("Eq. (221)", "equation",
      "E[T_N] - E[T_{N/2}] = (1/lambda) sum_{i=1}^{N/2} 1/i <= (ln(N/2) + 1)/lambda <= log(N)/lambda (TMLR prints the "
      "sum to N); checked: the harmonic form, and that the last step needs log base 2.",
      "checked", section="App. B",
      claims=("srpfl.eq221-228.ordstat-bounds", "srpfl.lemB2.log-base", "srpfl.ordstat.mean"),
      alt="arXiv: eq. (213) (sum to N/2)"),
    R("Eqs. (222)-(223)", "equation", "1/(3 lambda) <= E[T_{N/2}] - E[T_{N/4}] <= 1/(2 lambda); checked.",
      "checked", section="App. B", claims=("srpfl.eq221-228.ordstat-bounds", "srpfl.ordstat.mean"),
      alt="arXiv: eqs. (214)-(215)"),
    R("Eq. (224)", "equation",
      "Printed E[T_{N/4}] - E[T_{N/8}] >= 1/(6 lambda); checked: false for large N (limit ln(7/6)/lambda = 0.1542/lambda), "
      "the corrected 1/(7 lambda) holds for every N.",
      "checked", section="App. B", claims=("srpfl.eq224.erratum",), alt="arXiv: eq. (216)"),
    R("Eqs. (225)-(226)", "equation",
      "Phase-1 cost bounded with factors log(3 sqrt2) (stages up to N/4) and log(3 sqrt2 log N) (last stage), then by "
      "5/log(1/(1-a)) (sum_i E[T_{n0 2^i}] + log(N/(2n0)) C) + 2 log(3 sqrt2 log N)/log(1/(1-a)) (E[T_{N/2}] + C).",
      "unchecked", section="App. B",
      reason="a check would evaluate (225)-(226) with exact order-statistic means: after the (224) fix the derived "
             "factor is 3.5 sqrt2, but the true ratio sqrt2 Delta(N/2)/Delta(N/4) -> sqrt2 ln(3/2)/ln(7/6) = 3.72 < "
             "3 sqrt2 = 4.24, so log(3 sqrt2) remains valid; also check the 2 log(3 sqrt2) <= 5 step",
      alt="arXiv: eqs. (217)-(218)"),
    R("Eqs. (227)-(228)", "equation",
      "E[T_{N/2}] <= 1/lambda, E[T_{N/2^j}] <= 1/((2^j - 1) lambda), and sum_{i=1}^{log(N/(4n0))} E[T_{n0 2^i}] <= 1/lambda; checked.",
      "checked", section="App. B", claims=("srpfl.eq221-228.ordstat-bounds", "srpfl.ordstat.mean"),
      alt="arXiv: eqs. (219)-(220)"),
    R("Eqs. (229)-(230)", "equation",
      "E[T^1_SRPFL] <= 5 (c log(N/(2n0)) + 1)/(lambda log(1/(1-a))) + 2 log(3 sqrt2 log N)/(log(1/(1-a))(c+1)) / lambda "
      "<= log(N/n0) 6(c+1)/(lambda log(1/(1-a))) ((c+1) is misplaced in a denominator).",
      "unchecked", section="App. B",
      reason="a check would compute the exact idealised phase-1 cost (stages 1..log(N/(2n0)) with the Lemma B.1 "
             "round counts) and compare with (229) read with (c+1) as a factor and with (230), over N, n0, c",
      alt="arXiv: eqs. (221)-(222)"),
    R("Eqs. (231)-(232)", "equation",
      "X_{log(N/n0)} (206) at the last switch (231) (printed with (1 - sqrt(1-a)) inside the square root) and the "
      "N-node contraction (232).",
      "not-checkable", section="App. B", reason="instances of (206) and (198), both checked", alt="arXiv: eqs. (223)-(224)"),
    R("Eqs. (233)-(237)", "equation",
      "Phase-2 distance after t rounds from X_{log(N/n0)}: D + (X - D) (1-a)^{t/2}, bounded by D + D (1-a)^{t/2} (237), "
      "using E[T_N] - E[T_{N/2}] <= log(N)/lambda in (236).",
      "unchecked", section="App. B",
      reason="a check would compute the exact phase-2 iterates (235) and test (236)-(237): (237) needs sqrt2(1+rho) - 1 "
             "<= 1, i.e. (c+1) <~ sqrt2 log N (unstated), and (236) bounds the denominator E[T_N] - E[T_{N/2}] = "
             "H_{N/2}/lambda from above where a lower bound is needed (H_{N/2} < ln N for N >= 16)",
      alt="arXiv: eqs. (225)-(229)"),
    R("Eqs. (238)-(240)", "equation", "Solving eps = c_hat D >= D + D (1-a)^{t/2} for the phase-2 rounds: t >= 2 log(1/(c_hat-1))/log(1/(1-a)).",
      "not-checkable", section="App. B", reason="algebra, exact given (237); (239) restates (12)",
      alt="arXiv: eqs. (230)-(232)"),
    R("Eqs. (241)-(244)", "equation",
      "Phase-2 cost (E[T_N] + C)(t + 1) <= (ln N + 1 + c)(2L/l + 1)/lambda <= 4 log N L/(l lambda), with L = "
      "log(1/(c_hat-1)), l = log(1/(1-a)).",
      "unchecked", section="App. B",
      reason="a check would evaluate (242) and (243) on a grid: (243) needs (ln N + 1 + c)(2L + l) <= 4 L log N, which "
             "fails for every c_hat once c >~ log N - 1 (and for small L/l); (217) survives only because its phase-1 "
             "term 6(c+1) log N absorbs the lost c-dependence",
      alt="arXiv: eqs. (233)-(236)"),
    R("Eqs. (245)-(247)", "equation", "Summing phases 1 and 2; (247) restates (217).",
      "not-checkable", section="App. B", reason="proof steps; (247) = (217) is checked at Lemma B.2",
      alt="arXiv: eqs. (237)-(239)"),
    R("Lemma B.3", "lemma",
      "(248): E[T_FedRep] >= log N (log N + 2 log(1/(c_hat-1)))/log(1/(1-a)) / lambda; checked: not a valid lower bound "
      "of the exact idealised FedRep time; the corrected count 2 ln((1-D)/((c_hat-1) D))/ln(1/(1-a)) times (H_N + c)/lambda is.",
      "checked", section="App. B", claims=("srpfl.lemB3.lower-bound",), figures=("srpfl.speedup",),
      alt="arXiv: Lemma B.3, eq. (240)"),
    R("Eqs. (249)-(252)", "equation",
      "FedRep contraction with N nodes (249), distance after t rounds from 1 (250), target (251), and the round condition "
      "(252) using sqrt((N/n0)(1-a))(1 - sqrt(1-a)) - a > 0; checked: that condition is D_{log(N/n0)} < 1, i.e. N/n0 "
      "above the vacuity threshold (about 4 to 4.64), and (250) gives the exact count used by the corrected Lemma B.3.",
      "checked", section="App. B", claims=("srpfl.corA11.noise-floor", "srpfl.lemB3.lower-bound"),
      alt="arXiv: eqs. (241)-(244)"),
    R("Eq. (253)", "equation",
      "t >= 2 log(1/(c_hat-1))/log(1/(1-a)) + log N/log(1/(1-a)); checked: overstates the exact count (which has "
      "ln(N/n0) - 1.39 in place of log N).",
      "checked", section="App. B", claims=("srpfl.lemB3.lower-bound",), alt="arXiv: eq. (245)"),
    R("Eqs. (254)-(255)", "equation",
      "E[T_FedRep] >= (E[T_N] + C) 2 log(1/(c_hat-1))/log(1/(1-a)) (254, drops the log N term) >= (255) = (248) using "
      "E[T_N] >= log(N)/lambda; checked: (255) needs the natural log (H_N >= ln N) while (221) needs base 2, and the "
      "printed bound fails.",
      "checked", section="App. B", claims=("srpfl.lemB3.lower-bound", "srpfl.lemB2.log-base"),
      alt="arXiv: eqs. (246)-(247)"),
    R("Eq. (256)", "equation",
      "E[T_SRPFL]/E[T_FedRep] <= (6(c+1) + 4L)/(log N + 2L) = O(L/(log N + L)), L = log(1/(c_hat-1)) (appendix writes c "
      "for c_hat); checked: compared with the idealised ratio; the explicit bound exceeds 1 unless N is very large.",
      "checked", section="App. B", claims=("srpfl.thm4.9.ratio",), figures=("srpfl.speedup",), alt="arXiv: eq. (248)"),
    R("Remark B.4", "remark",
      "The method-of-moments initialisation of Algorithm 2 gives dist(B^0, B*) < 1 - c w.p. >= 1 - O((mn)^{-100}) without "
      "extra sample complexity (as Theorem 3 of Collins et al. 2021).",
      "unchecked", section="App. B",
      reason="a check would run Algorithm 2 lines 2-3 (top-k eigenvectors of (1/N) sum_i P_i) over many seeds and "
             "record dist(B^0, B*) as a function of m, N, d, k and sigma, verifying it stays bounded away from 1 and "
             "shrinks with mN (E[P_i] = (k + sigma^2) I + 2 B* w_i* w_i*^T B*^T for Gaussian x)",
      alt="arXiv: Remark B.4 (<= 1 - c)"),
    # ------------------------------------------------------------------ Appendix C
    R("Figure 7", "figure",
      "Homogeneous setting, full participation, fixed speeds: CIFAR10, EMNIST, Sent140; FedRep-SRPFL keeps an edge, "
      "LG-SRPFL beats it on Sent140, doubling helps both subroutines.",
      "out-of-scope", section="App. C",
      reason="deep-network experiments on real data (CIFAR10, EMNIST, Sent140 with LeNet/MLP/LSTM)", alt=_NO_ARXIV),
    R("Figure 8", "figure",
      "Additional regimes (fixed speeds): imbalanced FEMNIST (100 + U[0,50] samples) and Sent140 (log-normal), "
      "varying % of stragglers (lambda = 0.1 fast vs 10 slow, inverted under the rate convention), and correlated "
      "speed/label heterogeneity; SRPFL gains shrink in each.",
      "out-of-scope", section="App. C",
      reason="deep-network experiments on real data (FEMNIST, Sent140, CIFAR10)", alt=_NO_ARXIV),
)

from . import PAPER  # noqa: E402

PAPER.set_ledger(LEDGER)
