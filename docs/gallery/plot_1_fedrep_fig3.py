"""
FedRep Figure 3: distance to the representation against rounds
==============================================================

Figure 3 plots dist(B^t, B*) (Definition 1) against the round t for FedRep, GD-GD and 10GD-GD,
one panel per number of clients n (d = 10, k = 2, m = 5, r = 0.1), with the Theorem 1 bound.
Larger n converges faster (claim ``fedrep.fig3.n-scaling``); the printed ordering "FedRep
fastest" fails and a corrected statement holds (``fedrep.fig3.ordering``). The panel n = 10
violates Assumption 2 (rn = 1 < k) and is marked so.

Paper: Collins, Hassani, Mokhtari and Shakkottai (ICML 2021); Figure 3 (dist vs rounds for
several n). Figure id :ref:`fedrep.fig3 <figure-fedrep.fig3>` (on the paper's page). Claims that
check what it shows: :ref:`fedrep.fig3.ordering <claim-fedrep.fig3.ordering>`,
:ref:`fedrep.fig3.n-scaling <claim-fedrep.fig3.n-scaling>`, :ref:`fedrep.sec5.gd-n-scaling
<claim-fedrep.sec5.gd-n-scaling>`.
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
paths = fedtheory.reproduce("fedrep", outdir=outdir, only=["fedrep.fig3"], seed=0)

# %%
# The code that made it
# ---------------------
# The figure function, registered with ``@PAPER.figure("fedrep.fig3", ...)`` in
# ``paper_reproductions/fedrep.py``:
import inspect

from IPython.display import Code

figure = fedtheory.get_figure("fedrep.fig3")
Code(inspect.getsource(figure.func), language="python")

# %%
# Its parameters, from the JSON sidecar
# -------------------------------------
import json

with open(paths[0]["json"]) as fh:
    sidecar = json.load(fh)
print(json.dumps(sidecar["params"], indent=1)[:1500])
