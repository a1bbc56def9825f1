"""Sec. 5.2 of Collins, Hassani, Mokhtari and Shakkottai (2021), *Exploiting Shared Representations for Personalized
Federated Learning*, ICML 2021 (real data), on its linear analogue or on the printed numbers: "Benefit of more
local updates" (Benefit (1) of Sec. 1, Figure 5) and "Robustness to varying levels of heterogeneity" (Table 1).
Verdicts come from :mod:`fedtheory.decide`; an experiment that the linear analogue does not reproduce is
``not-reproduced``, with the analogue named.
"""
from __future__ import annotations

import numpy as np
from fedtheory import decide
from fedtheory.representation import experiments as ex
from ._common import PAPER_NOISE
from . import PAPER


# --------------------------------------------------------------------------- Benefit (1), Figure 5: more local updates
@PAPER.claim("fedrep.benefit1.local-updates", "Sec. 1, Benefit (1) (more local updates); cf. Sec. 5.2, Figure 5",
             "Many local updates help FedRep (its k-dimensional heads) but not single-model FL: 'multiple local "
             "updates in a heterogeneous setting move each client away from the best averaged representation, "
             "and thus hurt performance' of FedAvg.",
             regime="linear model d=10, k=2, n=100, m=10, r=0.1, noise std 1e-3, heterogeneous heads (Assumption "
                    "3), tau local updates per round: FedAvg on objective (4) with tau GD steps on (B, w) (step 0.05, "
                    "50 (quick) / 100 (full) rounds); FedRep with tau GD head steps (step 0.2) and one step on B "
                    "(eta = 1/(4k)), 30 / 50 rounds; tau in {1, 20} (quick) / {1, 5, 20, 100} (full), 40 / 48 "
                    "paired seeds (same ground truth and streams for every tau). 'Performance' of single-model FL "
                    "read as objective (4), the global model's risk (the best averaged model is its minimiser "
                    "B w = mean_i theta_i; Figure 5 plots FedAvg's global accuracy): FedAvg's final excess "
                    "(1/2)||B w - mean theta||^2 at the largest tau above that at tau=1 ('hurts'), and FedRep's final "
                    "dist(B, B*) at the largest tau below that at tau=1 ('helps'). Paired exact sign tests "
                    "(decide.ordering, Bonferroni over the 2 comparisons at 1e-4): both as stated is `holds`; "
                    "either significantly reversed is `not-reproduced` (the statement rests on the paper's "
                    "CIFAR-10 runs, Figure 5); otherwise inconclusive with the number of pairs that would decide. FedAvg+FT (head fine-tuning) is "
                    "reported, not decided. The paper shows this on CIFAR-10 (Figure 5); the linear model is the "
                    "setting of its theory")
def _benefit1(full: bool, seed):
    taus = (1, 5, 20, 100) if full else (1, 20)
    seeds = 48 if full else 40
    data = ex.local_updates_data(taus, n=100, r=0.1, rounds_fedavg=100 if full else 50,
                                 rounds_fedrep=50 if full else 30, seeds=seeds, seed=seed)
    med = {k_: np.median(v, axis=0).tolist() for k_, v in data.items()}
    claim = decide.combine(
        [decide.ordering(data["FedAvg_excess4"][:, 0], data["FedAvg_excess4"][:, -1], expect="less", tests=2,
                         what=f"FedAvg's excess of (4) at tau={taus[0]} below that at tau={taus[-1]} (drift hurts)"),
         decide.ordering(data["FedRep_dist"][:, -1], data["FedRep_dist"][:, 0], expect="less", tests=2,
                         what=f"FedRep's dist(B, B*) at tau={taus[-1]} below that at tau={taus[0]} (helps)")],
        what=f"tau = {list(taus)}, {seeds} paired seeds, medians: FedAvg excess of (4) "
             + ", ".join(f"{x:.3g}" for x in med["FedAvg_excess4"]) + "; FedRep dist "
             + ", ".join(f"{x:.3g}" for x in med["FedRep_dist"]),
        observed={"tau": list(taus), "median": med}, bound={"expect": "FedAvg hurt, FedRep helped by more local updates"},
        params={"d": 10, "k": 2, "n": 100, "m": 10, "r": 0.1, "taus": list(taus), "seeds": seeds,
                "fedavg_eta": 0.05, "fedrep_head_lr": 0.2, "eta": 0.125, "sigma": PAPER_NOISE})
    claim["evidence"] += ("; not decided, reported: FedAvg+FT (per-client head fine-tuning on FedAvg's B) MSE "
                          + ", ".join(f"{x:.3g}" for x in med["FedAvg_mse"]) + " and FedAvg dist(B, B*) "
                          + ", ".join(f"{x:.3g}" for x in med["FedAvg_dist"])
                          + ": on the linear model the drift hurts the global model but the local steps fit each "
                            "theta_i, and the averaged B spans B*, so fine-tuned FedAvg improves with tau")
    return decide.not_reproduced(
        claim, analogue=(f"linear FedAvg (tau GD steps on (B, w), step 0.05) and FedRep (tau GD head steps, step 0.2, "
                         f"eta = 1/(4k)) of fedtheory.representation, d=10, k=2, n=100, m=10, r=0.1, tau in "
                         f"{list(taus)}, {seeds} paired seeds"))


# ----------------------------------------------------------------------------- Table 1: robustness to heterogeneity
TABLE1_COLUMNS = ("CIFAR10 (100,2)", "CIFAR10 (100,5)", "CIFAR10 (1000,2)", "CIFAR100 (100,5)", "CIFAR100 (100,20)",
                  "Sent140 (183,2)", "FEMNIST (150,3)")


#: Table 1 of the paper as printed (average local test accuracy, %, r = 0.1).
TABLE1 = {
    "Local Only": (89.79, 70.68, 78.30, 75.29, 41.29, 69.88, 60.86),
    "FedAvg": (42.65, 51.78, 44.31, 23.94, 31.97, 52.75, 51.64),
    "FedAvg+FT": (87.65, 73.68, 82.04, 79.34, 55.44, 71.92, 72.41),
    "FedProx": (39.92, 50.99, 21.93, 20.17, 28.52, 52.33, 18.89),
    "FedProx+FT": (85.81, 72.75, 75.41, 78.52, 55.09, 71.21, 53.54),
    "SCAFFOLD": (37.72, 47.33, 33.79, 20.32, 22.52, 51.31, 17.65),
    "SCAFFOLD+FT": (86.35, 68.23, 78.24, 78.88, 44.34, 71.49, 52.11),
    "Fed-MTL": (80.46, 58.31, 76.53, 71.47, 41.25, 71.20, 54.11),
    "PerFedAvg": (82.27, 67.20, 67.36, 72.05, 52.49, 68.45, 71.51),
    "LG-Fed": (84.14, 63.02, 77.48, 72.44, 38.76, 70.37, 62.08),
    "L2GD": (81.04, 59.98, 71.96, 72.13, 42.84, 70.67, 66.18),
    "APFL": (83.77, 72.29, 82.39, 78.20, 55.44, 69.87, 70.74),
    "Ditto": (85.39, 70.34, 80.36, 78.91, 56.34, 71.04, 68.28),
    "FedPer": (87.13, 73.84, 81.73, 76.00, 55.68, 72.12, 76.91),
    "FedRep": (87.70, 75.68, 83.27, 79.15, 56.10, 72.41, 78.56),
}


@PAPER.claim("fedrep.sec5.table1-robustness", "Sec. 5.2, 'Robustness to varying levels of heterogeneity'; Table 1",
             "In all settings of Table 1 FedRep is either the top-performing method or very close to it "
             "(arithmetic on the printed table; the deep-network runs themselves are out of scope).",
             regime="the printed Table 1 (15 methods x 7 columns) as reference data. 'Very close to the top' read "
                    "as: FedRep ranks at worst second and trails the best by at most 2.5 accuracy points in every "
                    "column; a column where it does not is `refuted`")
def _table1(full: bool, seed):
    return table1_verdict(TABLE1, gap_max=2.5)


def table1_verdict(table: dict, gap_max: float = 2.5, method: str = "FedRep") -> dict:
    """Rank and gap of ``method`` in every column of ``table`` (``{method: accuracies}``)."""
    cols = []
    for j, name in enumerate(TABLE1_COLUMNS):
        col = {m: v[j] for m, v in table.items()}
        best = max(col, key=col.get)
        rank = 1 + sum(v > col[method] for v in col.values())
        cols.append(dict(column=name, rank=rank, gap=round(col[best] - col[method], 10), best=best))
    top = sum(c["rank"] == 1 for c in cols)
    return decide.combine(
        [decide.bound([c["rank"] for c in cols], 2, of="rank", what=f"{method}'s rank per column"),
         decide.bound([c["gap"] for c in cols], gap_max, of="accuracy gap",
                      what=f"{method}'s gap to the best method per column (points)")],
        observed={"columns": cols, "top_in": top}, bound={"rank_max": 2, "gap_max": gap_max},
        what=f"{method} is top in {top} of {len(cols)} columns; elsewhere " +
                         ", ".join(f"{c['column']}: rank {c['rank']}, {c['gap']:.2f} points behind {c['best']}"
                                   for c in cols if c["rank"] > 1) +
                         " (the text calls these 'test errors'; the table holds accuracies)",
                params={"gap_max": gap_max, "source": "Table 1 as printed"})
