"""
FedRep Figure 1: local test MSE against samples per client
==========================================================

Figure 1 of the paper compares Local Only, FedAvg (+ fine-tuning) and FedRep by their local test
MSE as the number m of training samples per client grows. This is its linear analogue (d = 20, k
= 2, n = 100 clients, m in {5, 10, 20}), with the test MSE computed in closed form: FedRep's
error is orders of magnitude below Local Only's, and FedAvg cannot overcome the heterogeneity of
the heads.

Paper: Collins, Hassani, Mokhtari and Shakkottai (ICML 2021); Figure 1 (local MSE vs m; linear
analogue). Figure id :ref:`fedrep.fig1 <figure-fedrep.fig1>` (on the paper's page). Claims that
check what it shows: :ref:`fedrep.fig1.local-mse <claim-fedrep.fig1.local-mse>`,
:ref:`fedrep.fig1.local-worst-small-m <claim-fedrep.fig1.local-worst-small-m>`.
"""

# %%
# Regenerate the figure
# ---------------------
# Quick mode, seed 0, into a temporary folder. :func:`fedtheory.reproduce` returns the files
# it wrote (PNG, PDF and a JSON sidecar with the plotted data, the parameters and the
# provenance); ``fedtheory reproduce fedrep`` does the same for every figure of the paper.
# Sweeps go through the task cache, so a rebuild (or a run after ``fedtheory verify``) reuses
# the finished tasks.
import os
import tempfile

import fedtheory
from fedtheory.cache import configure_cache, default_cache_dir

configure_cache(os.environ.get("FEDTHEORY_CACHE") or default_cache_dir())
outdir = tempfile.mkdtemp(prefix="fedtheory-gallery-")
paths = fedtheory.reproduce("fedrep", outdir=outdir, only=["fedrep.fig1"], seed=0)

# %%
# The code that made it
# ---------------------
# The figure function, registered with ``@PAPER.figure("fedrep.fig1", ...)`` in
# ``paper_reproductions/fedrep.py``:
import inspect

from IPython.display import Code

figure = fedtheory.get_figure("fedrep.fig1")
Code(inspect.getsource(figure.func), language="python")

# %%
# Its parameters, from the JSON sidecar
# -------------------------------------
import json

with open(paths[0]["json"]) as fh:
    sidecar = json.load(fh)
print(json.dumps(sidecar["params"], indent=1)[:1500])
