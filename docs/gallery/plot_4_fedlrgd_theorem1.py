"""
FedLRGD Theorem 1: truncated-SVD tail against the bound
=======================================================

Theorem 1: a latent matrix built from a Hoelder class has a small truncated-SVD tail (1/(nk))
sum_{i>r} sigma_i^2 for every rank r >= r* = e sqrt(d) 2^d (l + d)^d. Five test functions (d =
2), each with its tail and its bound from r*.

Paper: Jadbabaie, Makur and Shah (IEEE Trans. Inf. Theory 2023); Theorem 1 (SVD tail vs bound).
Figure id :ref:`fedlrgd.theorem1 <figure-fedlrgd.theorem1>` (on the paper's page). Claims that
check what it shows: :ref:`fedlrgd.thm1.svd-tail <claim-fedlrgd.thm1.svd-tail>`,
:ref:`fedlrgd.thm1.bound-shape <claim-fedlrgd.thm1.bound-shape>`.
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
paths = fedtheory.reproduce("fedlrgd", outdir=outdir, only=["fedlrgd.theorem1"], seed=0)

# %%
# The code that made it
# ---------------------
# The figure function, registered with ``@PAPER.figure("fedlrgd.theorem1", ...)`` in
# ``paper_reproductions/fedlrgd.py``:
import inspect

from IPython.display import Code

figure = fedtheory.get_figure("fedlrgd.theorem1")
Code(inspect.getsource(figure.func), language="python")

# %%
# Its parameters, from the JSON sidecar
# -------------------------------------
import json

with open(paths[0]["json"]) as fh:
    sidecar = json.load(fh)
print(json.dumps(sidecar["params"], indent=1)[:1500])
