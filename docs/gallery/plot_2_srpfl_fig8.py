"""
SRPFL Figure 8: imbalanced data, stragglers and correlated heterogeneity
========================================================================

Figure 8 in the linear analogue: imbalanced sample sizes (uniform and log-normal), a varying
percentage of stragglers (with lambda read as mean times and as rates: the paper's lambda must
be mean times, an erratum) and correlated heterogeneity.

Paper: Tziotis, Shen, Pedarsani, Hassani and Mokhtari (TMLR 2023); Figure 8 (imbalanced data, %
stragglers, correlated heterogeneity; linear analogue). Figure id :ref:`srpfl.fig8
<figure-srpfl.fig8>` (on the paper's page). Claims that check what it shows:
:ref:`srpfl.fig8.imbalanced <claim-srpfl.fig8.imbalanced>`, :ref:`srpfl.fig8.stragglers-means
<claim-srpfl.fig8.stragglers-means>`, :ref:`srpfl.fig8.stragglers-rates
<claim-srpfl.fig8.stragglers-rates>`, :ref:`srpfl.fig8.correlated
<claim-srpfl.fig8.correlated>`.
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
paths = fedtheory.reproduce("srpfl", outdir=outdir, only=["srpfl.fig8"], seed=0)

# %%
# The code that made it
# ---------------------
# The figure function, registered with ``@PAPER.figure("srpfl.fig8", ...)`` in
# ``paper_reproductions/srpfl_fig78.py``:
import inspect

from IPython.display import Code

figure = fedtheory.get_figure("srpfl.fig8")
Code(inspect.getsource(figure.func), language="python")

# %%
# Its parameters, from the JSON sidecar
# -------------------------------------
import json

with open(paths[0]["json"]) as fh:
    sidecar = json.load(fh)
print(json.dumps(sidecar["params"], indent=1)[:1500])
