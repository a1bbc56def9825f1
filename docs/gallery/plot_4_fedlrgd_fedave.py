"""
FedLRGD Theorem 3 and Proposition 1: FedAve and FedLRGD measured
================================================================

FedAve (FedPAQ without quantisation) and FedLRGD run exactly with oracle counters on the
Appendix A logistic loss: the measured complexity Gamma to reach a target accuracy eps, against
Theorem 3's bracket with a fitted constant C.

Paper: Jadbabaie, Makur and Shah (IEEE Trans. Inf. Theory 2023); Theorem 3, Proposition 1
(FedAve vs FedLRGD, measured Gamma to reach eps). Figure id :ref:`fedlrgd.fedave
<figure-fedlrgd.fedave>` (on the paper's page). Claims that check what it shows:
:ref:`fedlrgd.thm3.runs <claim-fedlrgd.thm3.runs>`, :ref:`fedlrgd.prop1.runs
<claim-fedlrgd.prop1.runs>`.
"""

# %%
# Regenerate the figure
# ---------------------
# Quick mode, seed 0, into a temporary folder. :func:`fedtheory.reproduce` returns the files
# it wrote (PNG, PDF and a JSON sidecar with the plotted data, the parameters and the
# provenance); ``fedtheory reproduce fedlrgd`` does the same for every figure of the paper.
# Sweeps go through the task cache, so a rebuild (or a run after ``fedtheory verify``) reuses
# the finished tasks.
import os
import tempfile

import fedtheory
from fedtheory.cache import configure_cache, default_cache_dir

configure_cache(os.environ.get("FEDTHEORY_CACHE") or default_cache_dir())
outdir = tempfile.mkdtemp(prefix="fedtheory-gallery-")
paths = fedtheory.reproduce("fedlrgd", outdir=outdir, only=["fedlrgd.fedave"], seed=0)

# %%
# The code that made it
# ---------------------
# The figure function, registered with ``@PAPER.figure("fedlrgd.fedave", ...)`` in
# ``paper_reproductions/fedlrgd_fedave.py``:
import inspect

from IPython.display import Code

figure = fedtheory.get_figure("fedlrgd.fedave")
Code(inspect.getsource(figure.func), language="python")

# %%
# Its parameters, from the JSON sidecar
# -------------------------------------
import json

with open(paths[0]["json"]) as fh:
    sidecar = json.load(fh)
print(json.dumps(sidecar["params"], indent=1)[:1500])
