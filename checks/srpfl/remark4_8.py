"""Section 4.1, Remark 4.8 (fairness towards clients that never participate) of Tziotis, Shen, Pedarsani, Hassani and
Mokhtari, *Straggler-Resilient Personalized Federated Learning* (TMLR 2023; absent from the arXiv version).

* ``srpfl.rem4.8.fairness`` - never-participants fit their head on the learned representation and lose nothing
  against the B* oracle or against the participants.

The decision is a small pure function (:func:`decide_fairness`) that feeds the per-run numbers to the decision kit
:mod:`fedtheory.decide`, so its ``refuted`` path is tested on violating numbers.
"""
from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np

from fedtheory import decide
from fedtheory.linalg import principal_angle_distance
from fedtheory.random import as_generator, spawn_seeds
from fedtheory.representation import make_model
from fedtheory.srpfl import make_speed_model, srpfl_default_eta
from fedtheory.srpfl.meta import head_excess_risk

from . import PAPER


def decide_fairness(loss: np.ndarray, gap: np.ndarray, mc_minus_cf: np.ndarray, margin: float = 0.05) -> dict:
    """Remark 4.8 from per-run numbers, through the kit: ``loss`` (never-participants' test MSE over the B*
    oracle's, minus 1) <= ``margin``; ``gap`` (never-participants minus participants, relative to the oracle MSE)
    within [-margin, margin]; the referee ``mc_minus_cf`` (Monte Carlo minus closed-form excess risk of the
    never-participants) agrees with 0. One-sided z tests of the run means with their standard errors
    (Bonferroni over the 4 decisions), combined."""
    def est(x):
        x = np.asarray(x, float)
        return SimpleNamespace(mean=float(np.mean(x)), se=float(np.std(x, ddof=1) / math.sqrt(x.size)), n=int(x.size))

    L, G, D = est(loss), est(gap), est(mc_minus_cf)
    return decide.combine(
        [decide.bound(L, margin, tests=4, of="margin", what=f"never-participants' test MSE / oracle MSE - 1 = "
                                                            f"{L.mean:.4f} (se {L.se:.2g}) <= {margin:g}"),
         decide.bound(G, margin, tests=4, of="margin", what=f"minus participants' (relative) {G.mean:+.4f} "
                                                            f"(se {G.se:.2g}) <= {margin:g}"),
         decide.bound(G, -margin, sense=">=", tests=4, of="margin", what=f"the same >= {-margin:g}"),
         decide.agreement(D, 0.0, tests=4, what=f"Monte Carlo minus closed-form excess risk {D.mean:+.2e} "
                                                f"(se {D.se:.2g}) vs 0")],
        what=f"Remark 4.8 over {np.size(loss)} runs",
        observed={"loss_vs_oracle": {"mean": L.mean, "se": L.se}, "gap_vs_participants": {"mean": G.mean, "se": G.se},
                  "mc_minus_closed_form": {"mean": D.mean, "se": D.se}, "runs": int(np.size(loss))},
        bound={"margin": margin, "level": decide.LEVEL})


def srpfl_partial(model, fixed_times: np.ndarray, n0: int, m: int, stage_lengths, eta: float, rng):
    """FedRep-SRPFL (Algorithm 2, N = M, fixed speeds) run through the stages with ``min(M, 2^r n0)`` fastest
    clients for ``stage_lengths[r]`` rounds each, with the MoM initialisation and rounds drawn from their exact
    law (reduced sampler). Returns the final orthonormal B and the mask of clients that ever participated."""
    from fedtheory.representation import fedrep_round_reduced
    from fedtheory.representation.algorithms import mom_init

    order = np.argsort(fixed_times, kind="stable")
    B = mom_init(model, m, rng)
    ever = np.zeros(model.n, bool)
    for r, T in enumerate(stage_lengths):
        sel = order[: min(model.n, n0 * 2 ** r)]
        ever[sel] = True
        for _ in range(T):
            B = fedrep_round_reduced(B, model, sel, m, eta, rng).B_next
    return B, ever


FAIR = dict(d=20, k=2, M=64, n0=4, m=50, sigma=0.5, stage_lengths=(5, 5, 5, 30), m_new=20, mc_fits=40)


@PAPER.claim("srpfl.rem4.8.fairness", "Remark 4.8 [arXiv: absent (TMLR only)]",
             "Clients never selected in the representation learning fit their k-dimensional head locally on the "
             "learned representation with a few samples and lose nothing (against the ground-truth representation, "
             "and against the clients that did participate).",
             regime="FedRep-SRPFL (Algorithm 2) with N=M=64 clients, fixed Exp(1) speeds, d=20, k=2, n0=4, m=50, "
                    "sigma=0.5, stages n=4, 8, 16, 32 of 5, 5, 5, 30 rounds, stopped before the last stage, so the 32 "
                    "slowest clients never participate; every client then fits its head by least squares on m_new=20 "
                    "fresh samples on the learned B; 'lose nothing' read as: the never-participants' expected test "
                    "MSE is within 5% of the oracle's (B = B*, sigma^2 (1 + k/(m_new-k-1))) and within 5% of the "
                    "participants'; per-run exact expectations (misspecified-OLS closed form) refereed by a Monte "
                    "Carlo of 40 head fits per client; t CIs over 6 runs (quick) or 40 (full), Bonferroni over 3 at "
                    "the claim level")
def _fairness(full: bool, seed):
    p = FAIR
    R = 40 if full else 6
    loss, gap, diff, dists = [], [], [], []
    k, s2, mn = p["k"], p["sigma"] ** 2, p["m_new"]
    e_or = s2 * k / (mn - k - 1)
    for s in spawn_seeds(seed, R):
        sm, ssp, sr, se = spawn_seeds(s, 4)
        model = make_model(p["d"], k, p["M"], sigma=p["sigma"], seed=sm)
        times = make_speed_model("fixed", p["M"], p["M"], seed=ssp).fixed_times
        B, ever = srpfl_partial(model, times, p["n0"], p["m"], p["stage_lengths"], srpfl_default_eta(model.W_star),
                                as_generator(sr))
        dists.append(float(principal_angle_distance(B, model.B_star)))
        e = head_excess_risk(B, model.theta_star, mn, p["sigma"])
        never = np.flatnonzero(~ever)
        loss.append((e[never].mean() - e_or) / (s2 + e_or))
        gap.append((e[never].mean() - e[ever].mean()) / (s2 + e_or))
        g = as_generator(se)
        X, y = model.sample(g, np.repeat(never, p["mc_fits"]), mn)
        A = X @ B
        W = np.linalg.solve(np.swapaxes(A, 1, 2) @ A, np.einsum("cmk,cm->ck", A, y)[..., None])[..., 0]
        mc = np.sum((W @ B.T - model.theta_star[np.repeat(never, p["mc_fits"])]) ** 2, axis=1)
        diff.append(mc.mean() - e[never].mean())
    v = decide_fairness(np.array(loss), np.array(gap), np.array(diff))
    v["observed"]["final_dist_median"] = float(np.median(dists))
    v["evidence"] += f"; learned dist(B, B*) median {np.median(dists):.3f}"
    v["params"] = {**p, "runs": R}
    v["referee"] = "Monte Carlo of least-squares head fits on fresh samples vs the misspecified-OLS closed form"
    return v
