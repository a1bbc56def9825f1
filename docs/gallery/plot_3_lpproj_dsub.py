"""
lp-proj Remark 17: the role of d_sub
====================================

Remark 17: with Figure 1's parameters, the optimal lp-proj loss is affine in d_sub with a
negative slope (left), and a smaller d_sub makes the loss flatter in lambda (right): tuning
lambda is more robust.

Paper: Han, Li, Lin and Zhang (JMLR 2024); Remark 17 (d_sub sweep). Figure id :ref:`lpproj.dsub
<figure-lpproj.dsub>` (on the paper's page). Claims that check what it shows:
:ref:`lpproj.rem17.dsub <claim-lpproj.rem17.dsub>`.
"""

# %%
# Regenerate the figure
# ---------------------
# Quick mode, seed 0, into a temporary folder. :func:`fedtheory.reproduce` returns the files
# it wrote (PNG, PDF and a JSON sidecar with the plotted data, the parameters and the
# provenance); ``fedtheory reproduce lpproj`` does the same for every figure of the paper.
# Sweeps go through the task cache, so a rebuild (or a run after ``fedtheory verify``) reuses
# the finished tasks.
import os
import tempfile

import fedtheory
from fedtheory.cache import configure_cache, default_cache_dir

configure_cache(os.environ.get("FEDTHEORY_CACHE") or default_cache_dir())
outdir = tempfile.mkdtemp(prefix="fedtheory-gallery-")
paths = fedtheory.reproduce("lpproj", outdir=outdir, only=["lpproj.dsub"], seed=0)

# %%
# The code that made it
# ---------------------
# The figure function, registered with ``@PAPER.figure("lpproj.dsub", ...)`` in
# ``paper_reproductions/lpproj.py``:
import inspect

from IPython.display import Code

figure = fedtheory.get_figure("lpproj.dsub")
Code(inspect.getsource(figure.func), language="python")

# %%
# Its parameters, from the JSON sidecar
# -------------------------------------
import json

with open(paths[0]["json"]) as fh:
    sidecar = json.load(fh)
print(json.dumps(sidecar["params"], indent=1)[:1500])
