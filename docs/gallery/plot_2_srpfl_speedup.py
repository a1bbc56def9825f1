"""
SRPFL Theorem 4.9: wall-clock speedup against N
===============================================

Theorem 4.9 bounds E[T_SRPFL]/E[T_FedRep] by O(log(1/(c_hat - 1))/(log N + log(1/(c_hat - 1)))):
a logarithmic speedup in the number of clients N. The figure shows the idealised ratio (exact
order-statistic means), simulated stage times, the explicit bound (256) and real exact runs,
against N on a log2 scale.

Paper: Tziotis, Shen, Pedarsani, Hassani and Mokhtari (TMLR 2023); Theorem 4.9 (speedup vs N).
Figure id :ref:`srpfl.speedup <figure-srpfl.speedup>` (on the paper's page). Claims that check
what it shows: :ref:`srpfl.thm4.9.ratio <claim-srpfl.thm4.9.ratio>`,
:ref:`srpfl.thm4.9.simulated <claim-srpfl.thm4.9.simulated>`, :ref:`srpfl.thm4.9.rate
<claim-srpfl.thm4.9.rate>`.
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
paths = fedtheory.reproduce("srpfl", outdir=outdir, only=["srpfl.speedup"], seed=0)

# %%
# The code that made it
# ---------------------
# The figure function, registered with ``@PAPER.figure("srpfl.speedup", ...)`` in
# ``paper_reproductions/srpfl.py``:
import inspect

from IPython.display import Code

figure = fedtheory.get_figure("srpfl.speedup")
Code(inspect.getsource(figure.func), language="python")

# %%
# Its parameters, from the JSON sidecar
# -------------------------------------
import json

with open(paths[0]["json"]) as fh:
    sidecar = json.load(fh)
print(json.dumps(sidecar["params"], indent=1)[:1500])
