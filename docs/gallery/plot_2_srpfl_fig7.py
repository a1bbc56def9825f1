"""
SRPFL Figure 7: the homogeneous setting
=======================================

Figure 7: homogeneous versus heterogeneous heads, full participation and fixed speeds. The
linear analogue plots the exact test MSE against wall-clock time and the speed-ups of
FedRep-SRPFL over FedRep.

Paper: Tziotis, Shen, Pedarsani, Hassani and Mokhtari (TMLR 2023); Figure 7 (homogeneous
setting; linear analogue). Figure id :ref:`srpfl.fig7 <figure-srpfl.fig7>` (on the paper's
page). Claims that check what it shows: :ref:`srpfl.fig7.homogeneous
<claim-srpfl.fig7.homogeneous>`.
"""

# %%
# Regenerate the figure
# ---------------------
# Quick mode, seed 0, into a temporary folder. :func:`fedtheory.reproduce` returns the files
# it wrote (PNG, PDF and a JSON sidecar with the plotted data, the parameters and the
# provenance); ``fedtheory reproduce srpfl`` does the same for every figure of the paper.
# Sweeps go through the task cache, so a rebuild (or a run after ``fedtheory verify``) reuses
# the finished tasks.
import os
import tempfile

import fedtheory
from fedtheory.cache import configure_cache, default_cache_dir

configure_cache(os.environ.get("FEDTHEORY_CACHE") or default_cache_dir())
outdir = tempfile.mkdtemp(prefix="fedtheory-gallery-")
paths = fedtheory.reproduce("srpfl", outdir=outdir, only=["srpfl.fig7"], seed=0)

# %%
# The code that made it
# ---------------------
# The figure function, registered with ``@PAPER.figure("srpfl.fig7", ...)`` in
# ``paper_reproductions/srpfl_fig78.py``:
import inspect

from IPython.display import Code

figure = fedtheory.get_figure("srpfl.fig7")
Code(inspect.getsource(figure.func), language="python")

# %%
# Its parameters, from the JSON sidecar
# -------------------------------------
import json

with open(paths[0]["json"]) as fh:
    sidecar = json.load(fh)
print(json.dumps(sidecar["params"], indent=1)[:1500])
