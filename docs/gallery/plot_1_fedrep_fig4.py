"""
FedRep Figure 4: new-client MSE against fine-tuning samples
===========================================================

Figure 4: a new client fits its head on the frozen learned representation with m_new samples.
FedRep's representation gives an excess risk sigma^2 k/(m_new - k - 1) (the OLS law on k
dimensions), Local Only follows (1 - m/d), and FedAvg's representation, which never recovers
col(B*), stays far off.

Paper: Collins, Hassani, Mokhtari and Shakkottai (ICML 2021); Figure 4 (new-client MSE vs
m_new). Figure id :ref:`fedrep.fig4 <figure-fedrep.fig4>` (on the paper's page). Claims that
check what it shows: :ref:`fedrep.fig4.new-client <claim-fedrep.fig4.new-client>`,
:ref:`fedrep.newclient.ols-law <claim-fedrep.newclient.ols-law>`,
:ref:`fedrep.sec2.fedavg-no-recovery <claim-fedrep.sec2.fedavg-no-recovery>`.
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
paths = fedtheory.reproduce("fedrep", outdir=outdir, only=["fedrep.fig4"], seed=0)

# %%
# The code that made it
# ---------------------
# The figure function, registered with ``@PAPER.figure("fedrep.fig4", ...)`` in
# ``paper_reproductions/fedrep.py``:
import inspect

from IPython.display import Code

figure = fedtheory.get_figure("fedrep.fig4")
Code(inspect.getsource(figure.func), language="python")

# %%
# Its parameters, from the JSON sidecar
# -------------------------------------
import json

with open(paths[0]["json"]) as fh:
    sidecar = json.load(fh)
print(json.dumps(sidecar["params"], indent=1)[:1500])
