"""Results ledger of the lpproj paper, Appendix C (experimental details, C.1-C.7): one row per numbered result (see :mod:`.ledger`)."""
from fedtheory.ledger import LedgerRow as R

_NN = "neural networks on real data (EMNIST / CIFAR / MNIST / FASHIONMNIST)"

ROWS = (
    # ------------------------------------------------------------------ App. C
    R("Table 3", "table",
      "Data sets and models: Synthetic(0,0)/(1,1) (100 clients, 202 samples, multinomial logistic, d = 610), EMNIST, "
      "CIFAR, MNIST, FASHIONMNIST (MLPs/CNNs), with parameter counts 610, 94862, 62006, 79510, 678794. Checked: a numpy "
      "forward pass through each model described in App. C, counting every trainable array it allocates, gives "
      "610, 79510, 62006, 94862 and 678794, equal to the printed counts and to per-layer formulas; the FASHIONMNIST "
      "count needs conv biases and the d2l residual layout (1x1-conv shortcut without BN), without conv biases it "
      "would be 678090.",
      "checked", section="App. C", claims=("lpproj.table3.parameter-counts",),
      reason="the experiments on these data sets are out of scope (see Tables 4-17); only the model sizes are checked"),
    R("Table 4", "table",
      "Train loss, train-loss variance, test accuracy and test-accuracy variance of all methods on six data sets "
      "(e.g. Synthetic(0,0): lp-proj-1/2 test accuracy 0.8868/0.8867 with variance ~0.0105, above local 0.8665, pFedMe "
      "0.8580, Ditto 0.8569, RSA 0.8314, FedAvg 0.7714).",
      "out-of-scope", section="App. C.3",
      reason="reported experimental numbers (spec claim 48 is this table's Synthetic(0,0) ranking). The Synthetic(0,0)/(1,1) "
             "rows are softmax regression on the FedProx generator and only approximately reproducible: the paper does "
             "not give the client sample sizes (power law, only the mean 202), the train/validation split draws, T, "
             "the inner GD step count, w~_0, or which of its two learning rates is eta, and the baselines (Per-FedAvg, "
             "RSA, Ditto) add their own unspecified solver settings, so a rerun could compare orderings only, not "
             "the cells; the EMNIST/CIFAR/MNIST/FASHIONMNIST rows are neural networks on real data. No internal "
             "consistency statement is attached to this table (several Synthetic(1,1) train-loss cells are "
             "OCR-corrupted)"),
    R("Figure 5", "figure",
      "Train-loss and test-accuracy curves of all methods on all data sets.",
      "out-of-scope", section="App. C.3",
      reason=f"mostly {_NN}; the Synthetic panels carry the Table 4 numbers (Table 4 row)"),
    R("Table 5", "table",
      "Communication on all data sets: accuracy at a byte budget and bytes to a target accuracy (lp-proj uses 4620 "
      "bytes on both Synthetic sets vs >= 11200 for every other method). Checked (internal consistency only): its "
      "Synthetic(0,0) and EMNIST rows equal Table 1, whose byte arithmetic and Sec. 5.3 text numbers are recomputed "
      "there; the text's 'compression rate up to 1000x' matches d/d_sub = 1186 (EMNIST), 1033 (CIFAR), 1590 "
      "(MNIST), 1131 (FASHIONMNIST); lp-proj's byte counts are whole numbers of 4 d_sub-byte messages except "
      "EMNIST lp-proj-2 (196560 = 614.25 x 320; the cells are means over repeats).",
      "checked", section="App. C.4", claims=("lpproj.table1.byte-accounting", "lpproj.sec53.savings"),
      reason="the accuracy and byte cells themselves are out of scope: real-data rows are neural networks, and the "
             "Synthetic rows are only approximately reproducible (client sizes, T, inner GD steps, learning-rate "
             "roles, compressor settings and the byte-counting convention unspecified)"),
    R("Table 6", "table",
      "Benign test accuracy under same-value attacks (tau = 100; 10/20/50/80% malicious) on all data sets; lp-proj-1 "
      "stays >= 0.868 on Synthetic(0,0) while Global+Mean drops to 0.446.",
      "out-of-scope", section="App. C.5",
      reason="reported experimental numbers: the Synthetic(0,0)/(1,1) rows are multi-round softmax regression with "
             "same-value attacks and only approximately reproducible (client sample sizes, T, inner GD steps, w~_0, "
             "the learning-rate roles and the baselines' robust-aggregation settings are unspecified); the other rows "
             "are neural networks on real data. The linear-model analogue of the attacks is checked by the Theorem 30 "
             "and multi-round robustness rows"),
    R("Table 7", "table",
      "Benign test accuracy under sign-flipping attacks (tau = 10): lp-proj-2, Ditto and Global+Mean collapse at 50% and "
      "80% malicious; lp-proj-1 and RSA survive.",
      "out-of-scope", section="App. C.5",
      reason="softmax regression on the Synthetic data sets (and neural networks on real data): approximately "
             "reproducible only: partitions, power-law sizes, inner solver and T are unspecified; the linear analogue "
             "of the star entries (lp-proj-2 collapse at 50% and 80%, lp-proj-1 survives) is checked in the row "
             "'Sec. 5.4, sign-flip collapse of lp-proj-2' (lpproj.robust.table7-linear, lpproj.robust.signflip-collapse)"),
    R("Sec. 5.4, sign-flip collapse of lp-proj-2", "statement",
      "'under the sign-flipping attack, when the fraction of malicious clients exceeds 20%, only lp-proj-1, RSA and "
      "Global+Krum work, while all other methods fail to produce a solution. When the attack intensity further increases "
      "to 80%, the only robust methods that achieve the desired accuracy are lp-proj-1 and RSA.' Checked on the linear "
      "model with exact multi-round runs: lp-proj-2's global iterate is multiplied each round by m = rho^R (N_b - "
      "sum_{I_a}|c_k|)/N (identity to 3e-16); it diverges exactly when E log|m| > 0 (full mode: 0/3008 mismatches, "
      "99.99% CI [0, 0.0033]; at eta = 0.05, lam = 1, R = 5, tau = 10, N = 100 the predicted rates are -2.236, -0.423, "
      "1.1156, 1.6914 per round at 10/20/50/80%, fitted 1.1166 [1.1135, 1.1197] and 1.6915 [1.6892, 1.6937]; collapse "
      "threshold 25%, 23-32% on 16 of the 18 grid points); the criterion gives Table 7's star pattern at 16 of the 18 "
      "grid points (0/3200 run mismatches); lp-proj-1's benign loss stays below its clip bound (max 3.39) although its "
      "global iterate diverges too, at rate E log|(N_b - C)/N| (1.242, 1.818 predicted; 1.2425, 1.8177 fitted); "
      "same-value and Gaussian attacks (tau = 100) stay within explicit pathwise and stationary bounds for both methods.",
      "checked", section="5.4",
      claims=("lpproj.robust.multiplier-identity", "lpproj.robust.signflip-collapse", "lpproj.robust.lpproj1-bounded",
              "lpproj.robust.other-attacks-bounded", "lpproj.robust.table7-linear"),
      figures=("lpproj.robust",)),
    R("Table 8", "table",
      "Benign test accuracy under Gaussian attacks (tau = 100): lp-proj-1 >= 0.862 on Synthetic(0,0), Ditto drops to "
      "~0.65-0.72, Global+Mean to ~0.17-0.25.",
      "out-of-scope", section="App. C.5",
      reason="reported experimental numbers: the Synthetic rows are multi-round softmax regression under Gaussian "
             "attacks (N(0, 100^2 I) messages), only approximately reproducible for the same unspecified settings as "
             "Table 6 (client sizes, T, inner steps, w~_0, learning-rate roles); the other rows are neural networks "
             "on real data. App. B.3.4's linear-model statement (Gaussian = same-value losses) is checked in the "
             "Theorem 30 row"),
    R("Table 9", "table",
      "Benign test accuracy under data poisoning (random labels, messages scaled by N(0, 20^2); 2-20% malicious): "
      "lp-proj-1/2 stay >= 0.866 on Synthetic(0,0), Ditto falls to 0.342 at 20%.",
      "out-of-scope", section="App. C.5",
      reason="reported experimental numbers: the Synthetic rows are multi-round softmax regression with label-"
             "randomised malicious clients whose messages are scaled by N(0, 20^2), only approximately reproducible "
             "(client sizes, T, inner steps, w~_0, learning-rate roles unspecified); the other rows are neural "
             "networks on real data; data poisoning has no counterpart in the App. B linear analysis"),
    R("Figure 6", "figure",
      "Accuracy-fairness trade-off (test-accuracy variance vs test accuracy) on all data sets.",
      "out-of-scope", section="App. C.6",
      reason=f"mostly {_NN}; Synthetic points carry the Table 4 numbers (Table 4 row)"),
    R("Figure 7", "figure",
      "Variance of test losses vs test loss of all methods on all data sets (bottom-left is better).",
      "out-of-scope", section="App. C.6",
      reason=f"mostly {_NN}; the linear-model counterpart (V vs lam and the trade-off) is the lpproj.fairness figure "
             "attached to Theorem 32"),
    R("Figure 8", "figure",
      "Train-loss and test-accuracy curves on the data-volume-skewed Synthetic(0,0)-unbalance set.",
      "out-of-scope", section="App. C.7.1",
      reason="training curves of multi-round softmax regression on Synthetic(0,0)-unbalance; only approximately "
             "reproducible: the power law of the client sizes (exponent, minimum), T, the inner GD steps, w~_0 and "
             "the learning-rate roles are not given, and the figure survives only as a caption (no numbers to "
             "compare)"),
    R("Table 10", "table",
      "Data-volume-skewed Synthetic: lp-proj-1/2 test accuracy 0.9253/0.9230 (variance 0.0122) vs local 0.8733 (0.0206), "
      "pFedMe 0.8587, Ditto 0.8576, RSA 0.8374, Per-FedAvg 0.7732, FedAvg 0.7522; train loss 0.1556/0.1664 vs local 0.3070. "
      "Checked (internal consistency only): the App. C.7.1 text's 'at least 50% / 6% / 40%' recomputed from the cells "
      "holds against the federated SOTA methods (train loss -56.9%, accuracy +6.43 points = 7.5%, variances -87% / "
      "-47%) but not if local training counts as a competitor (-45.8%, +4.97 points = 5.7%, -84% / -40.8%).",
      "checked", section="App. C.7.1", claims=("lpproj.appC71.table10-text",),
      reason="the cells themselves are out of scope: multi-round softmax regression on Synthetic(0,0)-unbalance, "
             "only approximately reproducible (power-law client sizes, T, inner GD steps, learning-rate roles "
             "unspecified)"),
    R("App. C.7.1, data-volume-skew text claims", "statement",
      "From Tables 10-11: lp-proj has train loss lower by at least 50%, test accuracy higher by at least 6% and "
      "variance lower by at least 40%, and at the byte budget at least 32% higher accuracy than the best SOTA method. "
      "Checked by recomputation from Tables 10-11: against the best federated SOTA method per metric (Ditto, pFedMe, "
      "Per-FedAvg, FedAvg, RSA) the worse lp-proj variant has train loss -56.9%, accuracy +6.43 points (7.5%), "
      "train-loss and accuracy variances -87% / -47%, so the Table 10 sentence holds; it fails if local training "
      "counts as a competitor (-45.8%, +4.97 points = 5.7%, -40.8%). The Table 11 sentence is wrong: against the "
      "best competitor at the budget, DGC (0.735), lp-proj gains 22.2% relative / 16.3 points, not >= 32%.",
      "checked", section="App. C.7.1",
      claims=("lpproj.appC71.table10-text", "lpproj.appC71.table11-text.erratum")),
    R("Table 11", "table",
      "Communication on the data-volume-skewed Synthetic set (budget 194700 bytes, target 0.6): lp-proj-1/2 reach "
      "0.899/0.898 and need 4620 bytes; FedAvg 0.566/250100, Sketch 0.484/511392, LBGM 0.457/429996, QSGD 0.587/248835, "
      "DGC 0.735/184320. Checked (internal consistency only): the text's 'at least 32% higher accuracy than the best "
      "SOTA method' is not supported by the cells: against DGC (0.735) lp-proj gains 22.2% relative / 16.3 points, "
      "and 32 points is cleared only against FedAvg, Sketch and LBGM (QSGD 31.1); 4620 = 55 x 4 x 21 as in Table 1.",
      "checked", section="App. C.7.1", claims=("lpproj.appC71.table11-text.erratum",),
      reason="the cells themselves are out of scope: multi-round softmax regression with compressors on "
             "Synthetic(0,0)-unbalance, only approximately reproducible (client sizes, T, inner steps, compressor "
             "settings and byte convention unspecified)"),
    R("Table 12", "table",
      "Data-volume-skewed Synthetic under same-value attacks: lp-proj-1 0.913-0.926 at all levels, lp-proj-2 0.883-0.924, "
      "Global+Mean 0.57-0.75.",
      "out-of-scope", section="App. C.7.1",
      reason="reported experimental numbers: multi-round softmax regression on Synthetic(0,0)-unbalance under "
             "same-value attacks, only approximately reproducible (power-law client sizes, T, inner GD steps, w~_0, "
             "learning-rate roles and the baselines' settings unspecified); no internal-consistency statement in the "
             "text beyond 'stable performance'"),
    R("Table 13", "table",
      "Data-volume-skewed Synthetic under sign-flipping: lp-proj-1 0.916-0.926 throughout, lp-proj-2 and Ditto collapse "
      "at 50% and 80%.",
      "out-of-scope", section="App. C.7.1",
      reason="softmax regression on the data-volume-skewed Synthetic set: approximately reproducible only: partitions, "
             "power-law sizes, inner solver and T are unspecified; the linear analogue of the sign-flip collapse of "
             "lp-proj-2 at 50% and 80% (and lp-proj-1's survival) is checked in the row 'Sec. 5.4, sign-flip collapse "
             "of lp-proj-2' (lpproj.robust.table7-linear)"),
    R("Table 14", "table",
      "Data-volume-skewed Synthetic under Gaussian attacks: lp-proj-1 0.916-0.926, lp-proj-2 0.844-0.924, Ditto ~0.68-0.71.",
      "out-of-scope", section="App. C.7.1",
      reason="reported experimental numbers: multi-round softmax regression on Synthetic(0,0)-unbalance under "
             "Gaussian attacks (N(0, 100^2 I) messages), only approximately reproducible for the same unspecified "
             "settings as Table 12"),
    R("Table 15", "table",
      "Data-volume-skewed Synthetic under data poisoning: lp-proj-1 0.915-0.926, lp-proj-2 0.876-0.924, Ditto down to 0.322 "
      "at 20%.",
      "out-of-scope", section="App. C.7.1",
      reason="reported experimental numbers: multi-round softmax regression on Synthetic(0,0)-unbalance under data "
             "poisoning (label-randomised clients, N(0, 20^2)-scaled messages), only approximately reproducible for "
             "the same unspecified settings as Table 12"),
    R("Figure 9", "figure",
      "Collaboration fairness (correlation between local-training accuracy and final accuracy) vs accuracy; lp-proj is "
      "'comparable' to the baselines.",
      "out-of-scope", section="App. C.7.3",
      reason=f"qualitative comparison dominated by {_NN}; no numbers given"),
    R("Table 16", "table",
      "MNIST with and without explicit orthogonalisation of P: test accuracy changes by <= 2e-4 (lp-proj-1 0.9822 both; "
      "lp-proj-2 0.9817 vs 0.9819).",
      "out-of-scope", section="App. C.7.4",
      reason="reported experimental numbers (spec claim 51): an MLP on MNIST (real data); the text only says the "
             "difference 'is so tiny that can be ignored', which has no threshold to test (the cells differ by 0 and "
             "2e-4); a linear-model analogue (orthonormal vs row-normalised P in the App. B losses) would be a "
             "different experiment"),
    R("Table 17", "table",
      "EMNIST MLP with d_sub in {40, 80, 120, 160, 200}: test accuracy varies by <= 0.0024 (lp-proj-1) and <= 0.0008 "
      "(lp-proj-2), supporting the mild d_sub dependence of Lemmas 4 and 11.",
      "out-of-scope", section="App. C.7.5",
      reason="reported experimental numbers (spec claim 52): an MLP on EMNIST (real data); the text says only that "
             "there are 'tiny changes' (no threshold to test; the printed test accuracies span 0.0024 for lp-proj-1 "
             "and 0.0008 for lp-proj-2)"),
)
