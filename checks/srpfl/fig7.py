"""Appendix C, Figure 7 of Tziotis, Shen, Pedarsani, Hassani and Mokhtari, *Straggler-Resilient Personalized
Federated Learning* (TMLR 2023; absent from the arXiv version), on its linear analogue.

* ``srpfl.fig7.homogeneous`` - FedRep-SRPFL keeps its wall-clock edge with (data-)homogeneous clients.

The setting (:data:`FIG7`, over :data:`~._appendix_c.FIG_BASE`) is shared with the figure script
``fedtheory_reproductions.srpfl_fig78``; the runs are :func:`~._appendix_c.independent_hits` (one ground truth per
replicate, each schedule one call of the batched engine).
"""
from __future__ import annotations

from . import PAPER
from ._appendix_c import ANALOGUE, CLOCK, decide_all, independent_setting, log_speedup, sign_rule

#: Fig. 7's settings (cfg overrides of FIG_BASE): the claim's homogeneous one and the figure's heterogeneous one
FIG7 = {"homogeneous": dict(heads="homogeneous", heterogeneity=0.5, metric="mse", target=0.0335, rounds=300,
                            eval_every=10),
        "heterogeneous": dict(heads="random", metric="mse", target=0.0335, rounds=300, eval_every=10)}

#: independent replicates (own ground truth each, one paired FedRep-SRPFL / FedRep run) per mode (quick, full)
REPLICATES = {False: 24, True: 48}


@PAPER.claim("srpfl.fig7.homogeneous", "Figure 7 [arXiv: absent] (App. C, homogeneous setting; linear analogue)",
             "In the (data-)homogeneous setting FedRep-SRPFL keeps its edge: it reaches the target accuracy in less "
             "wall-clock time than FedRep (the doubling scheme helps even with homogeneous data).",
             regime="linear analogue: heads w_i* = sqrt(k) (u + 0.5 g_i/sqrt(k))/||.|| around a common direction u "
                    "(heterogeneity 0.5; 'homogeneous' read as low head diversity), full participation N=M=64, fixed "
                    "Exp(1) speeds, C.T.=0, d=20, k=2, n0=4, m=20, sigma=0.1, 10 rounds per non-final stage, at most 300 "
                    "rounds; target: exact test MSE (heads re-fit on m fresh samples, drawn from their exact law in "
                    "span[B, B*]; evaluated every 10 rounds, a run stops at its first hit) <= 0.0335 = 3x the B* "
                    "oracle's; " + CLOCK + "; per replicate log(E[T_FedRep|h]/E[T_SRPFL|h]); "
                    + sign_rule(f"{REPLICATES[False]} (quick) or {REPLICATES[True]} (full) independent replicates, "
                                "each with its own ground truth and compute times (the batched engine, one model per "
                                "replicate)") + " at the claim level")
def _fig7(full: bool, seed):
    cfg = FIG7["homogeneous"]
    gs = independent_setting(cfg, REPLICATES[bool(full)], seed, "srpfl.fig7.homogeneous.ind")
    return decide_all({"log(T_FedRep/T_SRPFL), homogeneous": log_speedup(cfg, gs)},
                      params={**cfg, "replicates": REPLICATES[bool(full)]}, analogue=ANALOGUE["fig7"])
