"""
FedLRGD assumption (8): a fixed alpha, or none
==============================================

Assumption (8) asks ||(G^(i))^-1|| <= r^alpha for an absolute alpha. A Brownian-type loss
satisfies it with a fitted alpha; the paper's logistic example (Appendix A) does not: its norm
grows like exp(b r^(1/(d-1))), and the local exponent keeps rising.

Paper: Jadbabaie, Makur and Shah (IEEE Trans. Inf. Theory 2023); Assumption (8): ||(G^(i))^-1||
<= r^alpha; Appendix A. Figure id :ref:`fedlrgd.alpha <figure-fedlrgd.alpha>` (on the paper's
page). Claims that check what it shows: :ref:`fedlrgd.asm8.good-kernel
<claim-fedlrgd.asm8.good-kernel>`, :ref:`fedlrgd.asm8.logistic-violates
<claim-fedlrgd.asm8.logistic-violates>`.
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
paths = fedtheory.reproduce("fedlrgd", outdir=outdir, only=["fedlrgd.alpha"], seed=0)

# %%
# The code that made it
# ---------------------
# The figure function, registered with ``@PAPER.figure("fedlrgd.alpha", ...)`` in
# ``paper_reproductions/fedlrgd_alpha.py``:
import inspect

from IPython.display import Code

figure = fedtheory.get_figure("fedlrgd.alpha")
Code(inspect.getsource(figure.func), language="python")

# %%
# Its parameters, from the JSON sidecar
# -------------------------------------
import json

with open(paths[0]["json"]) as fh:
    sidecar = json.load(fh)
print(json.dumps(sidecar["params"], indent=1)[:1500])
