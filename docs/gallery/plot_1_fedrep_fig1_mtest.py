"""
FedRep Figure 1: the y-axis scale (erratum T15)
===============================================

The public notebook behind Figure 1 divides the MSE by m_test a second time. This figure draws
the bars unscaled and with the extra 1/m_test side by side: only the unscaled values agree with
the Monte Carlo test error, so the printed scale is an erratum.

Paper: Collins, Hassani, Mokhtari and Shakkottai (ICML 2021); Figure 1 (its y-axis scale; spec
erratum T15). Figure id :ref:`fedrep.fig1-mtest <figure-fedrep.fig1-mtest>` (on the paper's
page). Claims that check what it shows: :ref:`fedrep.fig1.mtest-scaling
<claim-fedrep.fig1.mtest-scaling>`.
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
paths = fedtheory.reproduce("fedrep", outdir=outdir, only=["fedrep.fig1-mtest"], seed=0)

# %%
# The code that made it
# ---------------------
# The figure function, registered with ``@PAPER.figure("fedrep.fig1-mtest", ...)`` in
# ``checks/fedrep/fig1.py``:
import inspect

from IPython.display import Code

figure = fedtheory.get_figure("fedrep.fig1-mtest")
Code(inspect.getsource(figure.func), language="python")

# %%
# Its parameters, from the JSON sidecar
# -------------------------------------
import json

with open(paths[0]["json"]) as fh:
    sidecar = json.load(fh)
print(json.dumps(sidecar["params"], indent=1)[:1500])
