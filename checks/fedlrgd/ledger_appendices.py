"""Results ledger of the fedlrgd paper, Appendices A-E: one row per numbered result (see :mod:`.ledger`)."""
from fedtheory.ledger import LedgerRow as R

ROWS = (
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
      "p/eps exponent of Gamma (r^2 dominating) with r the smallest rank the proof of Theorem 2 admits, 0.2506 = 2 x 1/(2 c1) "
      "at d = 1, eta = 8 (c1 = 4, alpha = 1), i.e. r ~ (p/eps)^{1/(2 c1)}; the sub-poly(n) factor is not.",
      "checked", section="App. E", claims=("fedlrgd.abstract.exponent.erratum",)),
)
