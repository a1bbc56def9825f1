"""Section 4, Algorithm 2 (FedRep-SRPFL for linear representations) of Tziotis, Shen, Pedarsani, Hassani and
Mokhtari, *Straggler-Resilient Personalized Federated Learning* (TMLR 2023; arXiv Algorithm 2).

* ``srpfl.alg2.line16`` - line 16 hands the pre-QR average B_bar to the next stage, which is not orthonormal
  although Appendix A's (16)-(19) assume it (an erratum; root cause ``alg2-line16-pre-qr``).

Its method-of-moments initialisation (lines 2-3) is checked with Remark B.4 in :mod:`.remark_b4`.
"""
from __future__ import annotations

import numpy as np
from fedtheory.srpfl import run_srpfl
from fedtheory import decide
from ._common import ORTHO_TOL, check_trace, relative_identity, trace_round_inputs
from . import PAPER
from .root_causes import ALG2_LINE16


def carried_defects(**kw):
    """Run Algorithm 2 exactly and return ``(result, defects)``: the orthonormality defect
    ``||U^T U - I||_2`` of the U handed to the first round of every stage after the first."""
    with trace_round_inputs() as rec:
        res = run_srpfl(**kw)
    rec = check_trace(rec, res)
    switch = np.flatnonzero(np.diff(res.stage) != 0) + 1  # first round of each new stage
    return res, rec[switch]


@PAPER.claim("srpfl.alg2.line16", "Algorithm 2, line 16 [arXiv: same]",
             "Printed: the next stage starts from U <- B_bar (the pre-QR average), which is not orthonormal, "
             "although (16)-(19) assume an orthonormal B_hat. Corrected: carry the QR factor.",
             root_cause=ALG2_LINE16,
             regime="Algorithm 2 run exactly (d=30, k=3, N=M=32, n0=4, m=20, sigma=0.3, fixed speeds, 5 rounds per "
                    "stage, 25 rounds: 3 stage switches), once with each form of line 16 (printed: U <- B_bar, corrected: "
                    "U <- the QR factor); no probability, no constant: a form holds when every U it hands to a new stage "
                    f"is orthonormal to ||U^T U - I|| <= {ORTHO_TOL:g}, as Appendix A's (16)-(19) assume")
def _line16(full: bool, seed):
    kw = dict(d=30, k=3, M=32, N=32, n0=4, m=20, sigma=0.3, stage_lengths=5, rounds=25, seed=seed)
    pr, dp = carried_defects(**kw, carry="pre_qr")
    co, dc = carried_defects(**kw, carry="qr")
    defect_printed, defect_corr = float(np.max(dp)), float(np.max(dc))
    what = "||U^T U - I||_2 of the U handed to each later stage"
    return decide.erratum(
        relative_identity(dp, ORTHO_TOL, what=f"printed U = B_bar: {what}"),
        relative_identity(dc, ORTHO_TOL, what=f"corrected U = QR factor: {what}"),
        what="Algorithm 2 line 16", root_cause=ALG2_LINE16,
        printed_value={"orthonormality_defect": defect_printed, "switches": int(dp.size),
                       "final_dist": float(pr.dist[-1])},
        corrected_value={"orthonormality_defect": defect_corr, "switches": int(dc.size),
                         "final_dist": float(co.dist[-1])},
        evidence=f"on the exact runs, the U handed to the {dp.size} later stages has ||U^T U - I|| up "
                 f"to {defect_printed:.3g} with the printed U = B_bar vs {defect_corr:.1e} with the QR "
                 f"factor (tolerance {ORTHO_TOL:g}); the runs end at dist {pr.dist[-1]:.4f} (printed) "
                 f"and {co.dist[-1]:.4f} (corrected)",
        params=kw,
        referee="the exact Algorithm 2 runs themselves: the U each form of line 16 actually hands to "
                "the next stage's first round (traced inside run_srpfl), measured by ||U^T U - I||_2 "
                "against Appendix A's assumption (16)-(19) of an orthonormal B_hat")
