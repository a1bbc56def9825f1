"""Results ledger of Collins, Hassani, Mokhtari, Shakkottai, "Exploiting Shared Representations for
Personalized Federated Learning", ICML 2021 (PMLR 139). Numbering follows the ICML main text
(Sections 1-6, eqs. (1)-(11), Figures 1-6, Table 1); the appendices (A: experimental details,
B: proof of Theorem 1) are not in the available text, so no appendix lemmas are listed."""
from fedtheory.ledger import LedgerRow as R

LEDGER = (
    # ------------------------------------------------------------------ Abstract and Section 1
    R("Abstract (convergence claim)", "statement",
      "In the linear setting FedRep converges linearly to the ground-truth representation with "
      "near-optimal sample complexity (checked: the linear convergence; 'near-optimal' has no "
      "lower bound in the paper and is not checked).",
      "checked", section="Abstract", claims=("fedrep.thm1.contraction",)),
    R("Figure 1", "figure", "Local test MSE vs training samples per client: Local Only suffers at small m, FedAvg cannot "
      "overcome heterogeneity even at large m, FedRep has small error in all cases (linear analogue "
      "d=20, k=2, n=100, m in {5, 10, 20}).", "checked", section="1", claims=("fedrep.fig1.local-mse", "fedrep.fig1.mtest-scaling", "fedrep.fig1.local-worst-small-m"), figures=('fedrep.fig1', 'fedrep.fig1-mtest')),
    R("Contribution (ii)", "statement",
      "FedRep converges exponentially fast to the optimal representation and needs "
      "O(kappa^2 k^3 (log n + kappa^2 k d/n)) samples per client, kappa the condition number of the "
      "ground-truth heads (checked: the rate, the definition of kappa, and the k- and kappa-exponents of "
      "its d-term kappa^4 k^4 d/n against the measured batch-size threshold: as an O(.) upper bound "
      "consistent, the measured exponents being about 1 in k and below 1 in kappa; see the row 'Eq. (11) "
      "and Contribution (ii) vs Theorem 1 (printed forms)').",
      "checked", section="1",
      claims=("fedrep.thm1.contraction", "fedrep.thm1.kappa-typo", "fedrep.thm1.sample-complexity-exponents")),
    R("Contribution (iii)", "statement",
      "Synthetic and real-data (CIFAR10/100, FEMNIST, Sent140) experiments show benefits of FedRep "
      "in (a) many local updates, (b) robustness to heterogeneity, (c) generalisation to new clients.",
      "not-checkable", section="1",
      reason="summary of Section 5; each experiment has its own row (Figures 1, 3-6, Table 1)"),
    R("Benefit (1) (more local updates)", "statement",
      "Reducing the local problem to k dimensions lets each client make many local head updates per "
      "round, whereas many local updates in single-model FL move clients away from the best averaged "
      "model and hurt performance (client drift) (checked on the linear model, tau in {1, 5, 20, 100}: "
      "FedAvg's excess of objective (4) over its minimum grows with tau and FedRep's dist(B, B*) shrinks; "
      "FedAvg with head fine-tuning nevertheless improves with tau, reported).",
      "checked", section="1", claims=("fedrep.benefit1.local-updates",)),
    R("Sec. 1 (local updates wording, spec T16)", "statement",
      "The Introduction's 'many local updates' on the k-dimensional head names Algorithm 1's tau local "
      "head steps, which Algorithm 2 (the analysed method) replaces by the exact head solve (tau = infinity).",
      "not-checkable", section="1",
      reason="a wording convention with no printed quantity to refute; the quantitative content ('more head "
             "updates accelerate convergence') is decided by fedrep.fig3.ordering and fedrep.benefit1.local-updates"),
    R("Benefit (II) (gains of cooperation)", "statement",
      "Per-client sample complexity is Theta(log n + d/n) with FedRep vs Theta(d) for local learning, "
      "so federation helps when 1 << n << e^Theta(d) (checked: the interval {n : log n + d/n < d}, "
      "the one-round threshold m* scaling as d/(rn) with slope 0.99 [0.92, 1.06], and FedRep's "
      "per-client samples to reach eps falling below Local's from n = 64 at d = 1024).",
      "checked", section="1",
      claims=("fedrep.sec4.federation-helps", "fedrep.eq11.sample-complexity",
              "fedrep.sec4.federation-helps-samples")),
    R("Benefit (III) (new clients)", "statement",
      "A new client with a ready-made representation only learns a k-dim head, so its sample "
      "complexity is Theta(k log(1/eps)) (checked: small MSE once m_new >= k on the learned "
      "representation; the log(1/eps) factor is not checked).",
      "checked", section="1", claims=("fedrep.fig4.new-client", "fedrep.newclient.ols-law", "fedrep.newclient.k-log-eps")),
    # ------------------------------------------------------------------ Section 2
    R("Eq. (1)", "equation",
      "Generic FL objective min over (q_1..q_n) in Q_n of (1/n) sum_i f_i(q_i), "
      "f_i(q_i) = E_{D_i}[l(q_i(x_i), y_i)].",
      "not-checkable", section="2", reason="definition of the problem"),
    R("Figure 2", "figure",
      "Schematic of federated representation learning: a global representation phi shared by all "
      "clients and a local head h_i per client.",
      "not-checkable", section="2", reason="schematic diagram, no data"),
    R("Eq. (2)", "equation",
      "Representation objective min_phi (1/n) sum_i min_{h_i} f_i(h_i, phi).",
      "not-checkable", section="2", reason="definition of the FedRep objective"),
    R("Sec. 2.1 (population loss)", "statement",
      "For y_i = w_i*^T B*^T x_i the expected error is f_i(w_i, B) = (1/2)||B w_i - B* w_i*||_2^2 "
      "(needs Cov(x) = I_d and no noise; + sigma^2/2 with label noise).",
      "checked", section="2.1", claims=("fedrep.eq6.population-loss",)),
    R("Eq. (3)", "equation",
      "FedRep's linear objective min_{B, w_1..w_n} (1/2n) sum_i ||B w_i - B* w_i*||_2^2.",
      "not-checkable", section="2.1", reason="definition of the objective"),
    R("Sec. 2.1 (minimisers of (3))", "statement", "Any global minimiser (B^, {w^_i}) of (3) satisfies B^ w^_i = B* w_i* for all i, i.e. zero "
      "global error.", 'checked', section="2.1", claims=('fedrep.sec2.eq3-minimisers',)),
    R("Eq. (4)", "equation",
      "Single-model objective min_{B, w} (1/2n) sum_i ||B w - B* w_i*||^2; (B, w) is a global "
      "minimiser iff B w = B* mean(w_i*), with global error "
      "(1/2n) sum_i ||(1/n) B* sum_i' (w_i'* - w_i*)||^2, which grows with head heterogeneity.",
      "checked", section="2.1", claims=("fedrep.eq4.fedavg-minimiser",)),
    R("Sec. 2.1 (recovery of col(B*) from (3))", "statement", "Solving (3) gives n matrix equations B w_i = B* w_i*, so col(B*) is fully recovered whenever "
      "the w_i* span R^k.", 'checked', section="2.1", claims=('fedrep.sec2.col-recovery',)),
    R("Sec. 2.1 (no recovery by (4))", "statement",
      "Solving (4) yields only one matrix equation, so there is no hope to recover col(B*) for any "
      "k > 1 (only the direction B* mean(w_i*) is pinned down).",
      "checked", section="2.1", claims=("fedrep.sec2.fedavg-no-recovery",)),
    # ------------------------------------------------------------------ Section 3
    R("Algorithm 1", "algorithm",
      "Generic FedRep: each of rn sampled clients runs tau GRD steps on its head (warm-started from "
      "its last head) with phi^t fixed, then one GRD step on phi; the server averages the phi_i^{t+1} "
      "(printed with an off-by-one in h_i^{t,s} and step size alpha instead of eta for phi; checked "
      "through its linear instances GD-GD and 10GD-GD, i.e. tau = 1, 10 GD head steps).",
      "checked", section="3", claims=("fedrep.fig3.ordering",)),
    # ------------------------------------------------------------------ Section 4
    R("Eqs. (5)-(6)", "equation",
      "Linear-model loss f_i(w_i, B) = (1/2) E[(y_i - w_i^T B^T x_i)^2] and global objective "
      "F(B, W) = (1/2n) sum_i E[(y_i - w_i^T B^T x_i)^2], W in R^{n x k} (checked: the closed form "
      "(1/2)||B w - B* w*||^2 under Assumption 1 for Gaussian and Rademacher x).",
      "checked", section="4", claims=("fedrep.eq6.population-loss",)),
    R("Sec. 4 (ground-truth model)", "definition",
      "Noiseless model y_i = w_i*^T B*^T x_i with B* in R^{d x k}, w_i* in R^k: all clients' optimal "
      "solutions lie in one k-dim subspace.",
      "not-checkable", section="4", reason="definition of the data model"),
    R("Assumption 1", "assumption",
      "Sub-gaussian design: x_i i.i.d., mean 0, covariance I_d, E[exp(v^T x)] <= exp(||v||^2/2) for "
      "all v.",
      "not-checkable", section="4",
      reason="definition (modelling assumption); the checks sample Gaussian/Rademacher x, which satisfy it"),
    R("Sec. 4.1 (head solve)", "statement",
      "f^_i^t is strongly convex in w, so GD reaches an eps-close head in log(1/eps) steps; the "
      "quadratic can also be solved exactly in O(m k^2 + k^3) operations (checked: the closed form "
      "and the linear GD convergence; the operation count is not).",
      "checked", section="4.1", claims=("fedrep.alg2.head-least-squares",)),
    R("Eq. (7)", "equation",
      "Per-round batch loss f^_i^t(w, B) = (1/2m) sum_{j=1}^m (y_i^{t,j} - w^T B^T x_i^{t,j})^2 on a "
      "fresh batch of m samples; its argmin in w is (B^T X^T X B)^{-1} B^T X^T y.",
      "checked", section="4.1", claims=("fedrep.alg2.head-least-squares",)),
    R("Algorithm 2", "algorithm", "FedRep for linear regression: per round each of rn clients draws a fresh batch, sets "
      "w_i^{t+1} = argmin_w f^_i^t(w, B^t), takes one GD step B_i^{t+1} = B^t - eta grad_B f^_i^t, "
      "and the server averages (no QR step is printed although Theorem 1 is about orthonormalised "
      "B^t; loop index and 'T^t' typos).", "checked", section="4.2", claims=('fedrep.thm1.contraction', 'fedrep.alg2.head-least-squares', 'fedrep.alg2.qr-step')),
    R("Algorithm 2 (initialisation)", "algorithm", "Method of moments: each client sends Z_i = (1/m) sum_j (y_i^{0,j})^2 x_i^{0,j} x_i^{0,j}^T and "
      "B^0 = top-k eigenvectors of (1/n) sum_i Z_i (checked: E[Z] has top-k eigenspace col(B*) and "
      "dist(B^0, B*) -> 0 as nm grows).", "checked", section="4.2", claims=('fedrep.alg2.mom-expectation', 'fedrep.alg2.mom-consistency', 'fedrep.alg2.mom-e0-budget')),
    R("Eq. (8)", "equation",
      "Global batch loss (1/n) sum_i f^_i^t = (1/2mn) sum_i sum_j (y_i^{t,j} - w_i^T B^T x_i^{t,j})^2.",
      "not-checkable", section="4.2", reason="definition (average of (7) over clients)"),
    R("Sec. 4.2 (non-identifiability)", "statement", "Objective (8) has many global minima, all (W* Q^{-1}, B* Q^T) for invertible Q (printed "
      "(Q^{-1} W*, B* Q^T), dimensionally wrong), so only col(B*) can be recovered.", "checked", section="4.2", claims=('fedrep.sec4.non-identifiability', 'fedrep.sec4.invariance-general')),
    R("Definition 1", "definition",
      "Principal angle distance between column spaces: dist(B1, B2) = ||B^_{1,perp}^T B^_2||_2 with "
      "orthonormal bases (checked: equals sin of the largest principal angle, in [0, 1], symmetric, "
      "basis invariant).",
      "checked", section="4.2", claims=("fedrep.def1.dist-identities",)),
    R("Eq. (9)", "equation",
      "dist(B1, B2) := ||B^_{1,perp}^T B^_2||_2 = sqrt(1 - sigma_min^2(B^_1^T B^_2)).",
      "checked", section="4.2", claims=("fedrep.def1.dist-identities",)),
    R("Assumption 2", "assumption",
      "Client diversity: sigma_bar_min,* = min singular value of any rn x k matrix of rn distinct "
      "ground-truth heads is > 0 (requires rn >= k; checked: sigma_min,* = 0 when rn < k).",
      "checked", section="4.2", claims=("fedrep.asm3.diversity-constants",)),
    R("Sec. 4.2 (necessity of Assumption 2)", "statement", "If the client heads do not span R^k, recovering B* is impossible because the samples carry "
      "no information about some feature of B*.", 'checked', section="4.2", claims=('fedrep.sec4.asm2-necessity', 'fedrep.sec2.col-recovery')),
    R("Assumption 3", "assumption", "Client normalisation: ||w_i*||_2 = sqrt(k) for all i and B* has orthonormal columns (checked: "
      "implied sigma_max,*^2 >= 1 >= sigma_min,*^2, sigma_max,*^2 <= k, kappa >= 1).", "checked", section="4.2", claims=('fedrep.asm3.diversity-constants', 'fedrep.asm3.row-incoherence')),
    R("Sec. 4.2 (row-wise incoherence)", "remark", "The normalisation (printed 'Assumption 2', should be Assumption 3) makes W* B*^T row-wise "
      "incoherent, i.e. its row norms have similar magnitudes (formal definition in App. B, not "
      "in the text).", 'checked', section="4.2", claims=('fedrep.asm3.row-incoherence',)),
    R("Sec. 4.2 (relaxed normalisation)", "remark", "Assumption 3 can be relaxed to ||w_i*||_2 <= O(sqrt(k)); the exact normalisation is only for "
      "simplicity.", 'checked', section="4.2", claims=('fedrep.sec4.relaxed-normalisation',)),
    R("Theorem 1", "theorem", 'With E0 = 1 - dist^2(B^0, B*), kappa = sigma_max,*/sigma_min,* (printed sigma_max,*/sigma_max,*), m >= c(kappa^4 k^3 log(rn)/E0^2 + kappa^4 k^2 d/(E0^2 rn)) and eta <= 1/(4 sigma_max,*^2), FedRep satisfies dist(B^T, B*) <= (1 - eta E0 sigma_min,*^2/2)^(T/2) dist(B^0, B*) with probability >= 1 - T exp(-100 min(k^2 log(rn), d)) (checked: the bound and its rate in noiseless runs; the unspecified constant c is not). Violations occur only in runs with small E0, outside the regime m >= c K/E0^2 (c read as 1.4e-4); 0/985 inside it (full mode).', "checked", section="4.2", claims=("fedrep.thm1.contraction", "fedrep.thm1.rate-fit", "fedrep.thm1.kappa-typo",
              "fedrep.asm3.diversity-constants", "fedrep.eq11.sample-complexity")),
    R("Theorem 1 (constants E0, sigma_max,*, sigma_min,*, kappa, eta)", "statement",
      "sigma_bar_max,* / sigma_bar_min,* are the max/min singular values over all rn-row submatrices "
      "of W*/sqrt(rn), kappa is their ratio (printed as sigma_max,*/sigma_max,* = 1, a typo), and "
      "eta <= 1/(4 sigma_max,*^2); under Assumption 3 eta = 1/(4k) is always admissible.",
      "checked", section="4.2",
      claims=("fedrep.thm1.kappa-typo", "fedrep.asm3.diversity-constants")),
    R("Theorem 1 (condition on m)", "statement", "Sufficient per-round batch size m >= c(kappa^4 k^3 log(rn)/E0^2 + kappa^4 k^2 d/(E0^2 rn)) (checked: the empirically needed m grows no faster in d and not in rn; c is unspecified, and Theorem 1's c is read through a measured m_0 in the contraction check). Checked: the one-round contraction threshold m*(d, rn) scales as d/(rn) (slope with a d^-1/2 tail term and Theorem 1's own log term rn log(rn)/d: quick 1.033 [0.791, 1.275]; the plain fit without the tail term 0.849 [0.561, 1.137]); its k-exponent is about 1 (<= 2) and its kappa-exponent about 0 (<= 4), so the printed k^2 and kappa^4 are sufficient but not tight.", "checked", section="4.2", claims=('fedrep.eq11.sample-complexity', 'fedrep.thm1.contraction', 'fedrep.thm1.sample-complexity-exponents')),
    R("Eq. (10)", "equation", 'dist(B^T, B*) <= (1 - eta E0 sigma_min,*^2/2)^(T/2) dist(B^0, B*), i.e. per-round contraction rho = (1 - eta E0 sigma_min,*^2/2)^(1/2) (checked: at every round in exact runs, and the fitted empirical rate is at least as fast). Violations occur only in runs with small E0, outside the regime m >= c K/E0^2 (c read as 1.4e-4); 0/985 inside it (full mode).', "checked", section="4.2", claims=("fedrep.thm1.contraction", "fedrep.thm1.rate-fit")),
    R("Theorem 1 (probability)", "statement", 'Bound (10) holds with probability >= 1 - T exp(-100 min(k^2 log(rn), d)) (checked: the fraction of runs satisfying (10) at all rounds against this value; vacuous at rn = 1). Violations occur only in runs with small E0, outside the regime m >= c K/E0^2 (c read as 1.4e-4); 0/985 inside it (full mode).', "checked", section="4.2", claims=("fedrep.thm1.contraction", "fedrep.asm3.diversity-constants")),
    R("Sec. 4.2 (strict decrease)", "statement", "By Assumption 2 sigma_min,*^2 > 0, so the right side of (10) strictly decreases with T for an "
      "appropriate step size.", 'checked', section="4.2", claims=('fedrep.sec4.strict-decrease',)),
    R("Eq. (11)", "equation",
      "Total samples per client to reach eps accuracy: Theta(m log(1/eps)), printed as "
      "Theta([kappa^4 k^3 (log(rn) + kappa^4 k d/rn)] log(1/eps)) (checked: the needed m's scaling in "
      "d and rn against Theorem 1's m, and its k- and kappa-exponents read as Theta: refuted, the "
      "needed m grows about like k^1 and kappa^0, not k^4 kappa^8; the printed form's mismatch with "
      "Theorem 1 is the next row).",
      "checked", section="4.2",
      claims=("fedrep.eq11.sample-complexity", "fedrep.eq11.theta-exponents")),
    R("Eq. (11) and Contribution (ii) vs Theorem 1 (printed forms)", "statement",
      "Eq. (11) is introduced as Theta(m log(1/eps)) with Theorem 1's m, but its second term reads "
      "kappa^8 k^4 d/(rn) where Theorem 1 gives kappa^4 k^2 d/(E0^2 rn); Contribution (ii) prints a "
      "third form, kappa^2 k^3 (log n + kappa^2 k d/n), i.e. kappa^4 k^4 d/n. Checked through the exponents "
      "of the measured one-round batch-size threshold m* where the d-term dominates (exact-in-law runs, "
      "k = 1..8 with kappa = 1, kappa = 1..8 with k = 2): about k^1 and no growth in kappa (a V-shaped "
      "curve, minimum near kappa = 2, since Theorem 1's rate loosens with kappa). Read as sufficient "
      "conditions (Theorem 1's c, Contribution (ii)'s O) all three forms are consistent, Theorem 1's "
      "k^2 kappa^4 the tightest; read as Theta (eq. (11)) none is: eq. (11)'s k^4 and kappa^8 are refuted.",
      "checked", section="4.2",
      claims=("fedrep.thm1.sample-complexity-exponents", "fedrep.eq11.theta-exponents",
              "fedrep.eq11.sample-complexity")),
    R("Sec. 4.2 (federation helps)", "remark", "With FedRep the per-client sample complexity scales as Theta(log n + d/n), so federation helps whenever log n + d/n << d, e.g. for 1 << n << e^Theta(d). Checked in samples: FedRep's per-client samples fall below Local's 2049 from n = 64 (d = 1024, eps = sigma^2); the upper end e^Theta(d) is not reachable numerically.", "checked", section="4.2", claims=('fedrep.sec4.federation-helps', 'fedrep.eq11.sample-complexity', 'fedrep.sec4.federation-helps-samples')),
    R("Sec. 4.2 (local learning Theta(d))", "remark",
      "A single client without collaboration needs Theta(d) samples (checked: Local Only's noiseless "
      "risk (1 - m/d)||theta||^2 vanishes only at m = d).",
      "checked", section="4.2", claims=("fedrep.fig4.new-client",)),
    R("Sec. 4.2 (new client k log(1/eps))", "remark",
      "A new client gets the representation for free and needs only k log(1/eps) samples to adapt "
      "(checked: small MSE once m_new >= k; the log(1/eps) factor is not).",
      "checked", section="4.2", claims=("fedrep.fig4.new-client", "fedrep.newclient.k-log-eps")),
    R("Sec. 4.2 (matrix sensing)", "remark", "Problem (6) is an instance of matrix sensing with rank-1, row-wise sparse measurements "
      "y_i^j = <e_i x_i^j^T, W* B*^T>_F.", 'checked', section="4.2", claims=('fedrep.sec4.matrix-sensing',)),
    R("Sec. 4.2 (no RIP)", "remark", "Because the measurements are row-wise sparse, the sensing operator does not satisfy RIP "
      "(does not concentrate to the identity on all rank-k matrices) within an efficient number "
      "of samples.", 'checked', section="4.2", claims=('fedrep.sec4.no-rip',)),
    R("Sec. 4.2 (novelty of the analysis)", "statement",
      "FedRep is a novel nonsymmetric alternating minimisation-descent procedure; Theorem 1 is the "
      "first convergence result for such a procedure in matrix sensing and the first sample-"
      "efficient linear convergence for rank-1 row-wise sparse measurements.",
      "not-checkable", section="4.2", reason="novelty / literature claim"),
    R("Sec. 4.2 (comparison with Zhong et al. 2015)", "remark",
      "The rate matches the state of the art for rank-1 independent Gaussian measurements (Zhong "
      "et al., 2015) up to an O(kappa^2) factor; kappa^4 dependence is known for sparse "
      "measurements such as matrix completion (Jain et al., 2013).",
      "not-checkable", section="4.2",
      reason="comparison with cited bounds whose expressions the paper does not print"),
    R("Sec. 4.2 (new users, cited excess risk)", "remark",
      "Cited result (Tripuraneni et al., Du et al.): with a learned common representation the excess "
      "risk on a new task is O(C(Phi)/(nm) + k/m_new), so only O(k) new-task samples are needed "
      "(checked: the exact Gaussian-design law sigma^2 k/(m_new - k - 1) on B*, Local Only's "
      "sigma^2 d/(m_new - d - 1), and with a learned or perturbed B_hat the derived "
      "b^2 + (sigma^2 + b^2) k/(m_new - k - 1), b^2 = ||(I - B_hat B_hat^T) theta||^2, all against simulation).",
      "checked", section="4.2", claims=("fedrep.newclient.ols-law", "fedrep.newclient.misspecified")),
    R("Remark on initialization", "remark", "Theorem 1 needs the initial distance bounded away from 1 (printed 'larger than a constant "
      "c > 0'; means E0 >= c), which the method of moments achieves without increasing the "
      "per-client sample complexity up to log factors (checked: MoM dist_0 -> 0 as nm grows, so E0 "
      "is bounded away from 0).", "checked", section="4.2", claims=('fedrep.alg2.mom-consistency', 'fedrep.alg2.mom-expectation', 'fedrep.remark-init.e0-reading', 'fedrep.alg2.mom-e0-budget')),
    R("Remark on initialization (privacy)", "remark",
      "Each user sends sum_j (y_i^j)^2 x_i^j x_i^j^T once, which 'does not compromise privacy'.",
      "not-checkable", section="4.2", reason="qualitative privacy statement with no formal guarantee"),
    # ------------------------------------------------------------------ Section 5.1
    R("Figure 3", "figure",
      "Distance to the ground-truth representation vs rounds for FedRep, GD-GD and 10GD-GD for "
      "several n (d=10, k=2, m=5, r=0.1): larger n converges faster and FedRep (exact head) is "
      "fastest (text says four n, the code has three; n=10 gives rn=1 < k, violating Assumption 2).",
      "checked", section="5.1",
      claims=("fedrep.fig3.ordering", "fedrep.fig3.n-scaling", "fedrep.fig3.ordering-paper-steps", "fedrep.sec5.gd-n-scaling"), figures=("fedrep.fig3",)),
    R("Sec. 5.1 (synthetic setup)", "definition",
      "x_i^j ~ N(0, I_d), y_i^j ~ N(w_i*^T B*^T x_i^j, 1e-3) (additive noise; variance vs std "
      "ambiguous), heads and B* from normalised Gaussian matrices.",
      "not-checkable", section="5.1", reason="definition of the experimental setup"),
    R("Sec. 5.1 (more head updates accelerate)", "statement",
      "Running more local head updates accelerates convergence: FedRep (exact head) is faster than "
      "10GD-GD, which is faster than GD-GD.",
      "checked", section="5.1", claims=("fedrep.fig3.ordering", "fedrep.fig3.ordering-paper-steps")),
    R("Sec. 5.1 (GD-GD does not scale with n)", "statement",
      "Methods replacing the exact head minimisation by 1 or 10 GD steps (GD-GD, 10GD-GD) 'do not "
      "scale properly with n', unlike FedRep (checked: per-round log-slopes of dist at n in {100, 1000, "
      "10000}; with tuned head steps the GD methods' rates improve with n about as much as FedRep's).",
      "checked", section="5.1", claims=("fedrep.sec5.gd-n-scaling",)),
    R("Figure 4", "figure",
      "New-client MSE vs fine-tuning samples m_new on the frozen learned representation (d=20, k=2, "
      "n=100): FedAvg's representation gives large error, FedRep is accurate once m_new >= k, Local "
      "Only needs m_new = Omega(d).",
      "checked", section="5.1",
      claims=("fedrep.fig4.new-client", "fedrep.sec2.fedavg-no-recovery", "fedrep.newclient.ols-law", "fedrep.newclient.misspecified"),
      figures=("fedrep.fig4",)),
    # ------------------------------------------------------------------ Section 5.2
    R("Figure 5", "figure",
      "CIFAR10 (n=100, S=2) local test error vs local epochs E: FedRep is monotonically "
      "non-decreasing in performance with E, FedAvg is not.",
      "out-of-scope", section="5.2", reason="deep-network experiment on CIFAR10 (real data)"),
    R("Table 1", "table",
      "Average local test accuracy (r=0.1) of 15 methods on CIFAR10 (100,2)/(100,5)/(1000,2), "
      "CIFAR100 (100,5)/(100,20), Sent140 (183,2), FEMNIST (150,3); FedRep: 87.70, 75.68, 83.27, "
      "79.15, 56.10, 72.41, 78.56.",
      "out-of-scope", section="5.2",
      reason="deep networks on real datasets (CIFAR10/100, Sent140, FEMNIST)"),
    R("Sec. 5.2 (robustness claim)", "statement", "In all settings of Table 1 FedRep is the top-performing method or very close to it.", 'checked', section="5.2", claims=('fedrep.sec5.table1-robustness',)),
    R("Figure 6", "figure",
      "Test accuracy on FEMNIST digits after fine-tuning the head (500 samples, several epochs) of "
      "models trained on FEMNIST letters: FedRep beats FedAvg, PerFedAvg, LG-FedAvg, APFL, L2GD, "
      "FedProx.",
      "out-of-scope", section="5.2", reason="deep-network transfer experiment on FEMNIST (real data)"),
    # ------------------------------------------------------------------ Section 6 and appendices
    R("Sec. 6 (fine-tuning observation)", "statement",
      "Fine-tuned global methods, especially FedAvg+FT, also perform very well.",
      "out-of-scope", section="6", reason="observation on the real-data results of Table 1"),
    R("App. A", "statement",
      "Full experimental details (architectures, step sizes, iterations) for Sections 5.1-5.2.",
      "not-checkable", section="App. A",
      reason="appendix not included in the available paper text (ICML main text only)"),
    R("App. B", "statement",
      "Proof of Theorem 1 (matrix-sensing view, incoherence definition, method-of-moments details, "
      "B.5 on the RIP / nonsymmetry challenges).",
      "not-checkable", section="App. B",
      reason="appendix not included in the available paper text; its lemmas and equations cannot "
             "be listed"),
)

from . import PAPER  # noqa: E402

PAPER.set_ledger(LEDGER)
