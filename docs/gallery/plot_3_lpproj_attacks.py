"""
lp-proj Sec. 4.2 and App. B.3: test loss against the fraction of attackers
==========================================================================

The benign-average test loss of Local, FedAvg, pFedMe/Ditto and lp-proj-2 against the fraction
N_a/N of malicious clients, for the same-value, sign-flip and Gaussian attacks, in closed form
with Monte Carlo points.

Paper: Han, Li, Lin and Zhang (JMLR 2024); Sec. 4.2 / App. B.3 (loss vs fraction malicious).
Figure id :ref:`lpproj.attacks <figure-lpproj.attacks>` (on the paper's page). Claims that check
what it shows: :ref:`lpproj.thm30.general-losses-mc <claim-lpproj.thm30.general-losses-mc>`,
:ref:`lpproj.thm30.gaussian-equals-same-value <claim-lpproj.thm30.gaussian-equals-same-value>`.
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
paths = fedtheory.reproduce("lpproj", outdir=outdir, only=["lpproj.attacks"], seed=0)

# %%
# The code that made it
# ---------------------
# The figure function, registered with ``@PAPER.figure("lpproj.attacks", ...)`` in
# ``paper_reproductions/lpproj.py``:
import inspect

from IPython.display import Code

figure = fedtheory.get_figure("lpproj.attacks")
Code(inspect.getsource(figure.func), language="python")

# %%
# Its parameters, from the JSON sidecar
# -------------------------------------
import json

with open(paths[0]["json"]) as fh:
    sidecar = json.load(fh)
print(json.dumps(sidecar["params"], indent=1)[:1500])
