"""Algorithm 2 of SRPFL (FedRep-SRPFL for linear representations)."""
from __future__ import annotations

import numpy as np
from fedtheory.random import as_generator
from fedtheory.srpfl import run_srpfl
from .._util import erratum_verdict
from . import PAPER


@PAPER.claim("srpfl.alg2.line16", "Algorithm 2, line 16 [arXiv: same]",
             "Printed: the next stage starts from U <- B_bar (the pre-QR average), which is not orthonormal, "
             "although (16)-(19) assume an orthonormal B_hat. Corrected: carry the QR factor.")
def _line16(full: bool, seed):
    kw = dict(d=30, k=3, M=32, N=32, n0=4, m=20, sigma=0.3, stage_lengths=5, rounds=25, seed=seed)
    pr = run_srpfl(**kw, carry="pre_qr")
    co = run_srpfl(**kw, carry="qr")

    from fedtheory.representation.algorithms import fedrep_round  # noqa: F401 (documentation)
    # orthonormality defect of what each variant carries into stage 1: replay to the first switch
    g = as_generator(seed)
    B = np.linalg.qr(g.standard_normal((30, 3)))[0]
    X = g.standard_normal((4, 20, 30))
    y = g.standard_normal((4, 20))
    rnd = fedrep_round(B, X, y, 0.05)
    defect_printed = float(np.linalg.norm(rnd.B_bar.T @ rnd.B_bar - np.eye(3), 2))
    defect_corr = float(np.linalg.norm(rnd.B_next.T @ rnd.B_next - np.eye(3), 2))
    return erratum_verdict(defect_printed < 1e-10, defect_corr < 1e-10,
                           printed={"orthonormality_defect": defect_printed,
                                    "final_dist": float(pr.dist[-1])},
                           corrected={"orthonormality_defect": defect_corr,
                                      "final_dist": float(co.dist[-1])},
                           evidence=f"||U^T U - I|| = {defect_printed:.3g} for the printed U = B_bar vs "
                                    f"{defect_corr:.1e} for the QR factor; runs with each carry end at dist "
                                    f"{pr.dist[-1]:.4f} (printed) and {co.dist[-1]:.4f} (corrected)",
                           params=kw)
