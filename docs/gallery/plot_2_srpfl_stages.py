"""
SRPFL Theorem 4.7 and Lemma B.1: the stages of one run
======================================================

One exact FedRep-SRPFL run: dist(B^t, B*) round by round against the Theorem 4.7 bound (10), the
per-stage floors D_r of Corollary A.11 and the switching points X_{r+1} of Lemma B.1, at which
the number of participating clients doubles.

Paper: Tziotis, Shen, Pedarsani, Hassani and Mokhtari (TMLR 2023); Theorem 4.7, Lemma B.1
(per-stage dist, floors, X_r). Figure id :ref:`srpfl.stages <figure-srpfl.stages>` (on the
paper's page). Claims that check what it shows: :ref:`srpfl.thm4.7.contraction
<claim-srpfl.thm4.7.contraction>`, :ref:`srpfl.corA11.noise-floor
<claim-srpfl.corA11.noise-floor>`, :ref:`srpfl.lemB1.switching <claim-srpfl.lemB1.switching>`.
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
paths = fedtheory.reproduce("srpfl", outdir=outdir, only=["srpfl.stages"], seed=0)

# %%
# The code that made it
# ---------------------
# The figure function, registered with ``@PAPER.figure("srpfl.stages", ...)`` in
# ``paper_reproductions/srpfl.py``:
import inspect

from IPython.display import Code

figure = fedtheory.get_figure("srpfl.stages")
Code(inspect.getsource(figure.func), language="python")

# %%
# Its parameters, from the JSON sidecar
# -------------------------------------
import json

with open(paths[0]["json"]) as fh:
    sidecar = json.load(fh)
print(json.dumps(sidecar["params"], indent=1)[:1500])
