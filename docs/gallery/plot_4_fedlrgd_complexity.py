"""
FedLRGD Theorems 2-3 and Proposition 1: oracle complexity against p/eps
=======================================================================

The federated oracle complexity Gamma of FedLRGD (r^2 + rs + rS + phi m r, at the r and S of
(47)-(48)) and of FedAve (the numerical minimum of (79), inside Theorem 3's bracket) against
p/eps: FedLRGD wins for smooth enough losses, as Proposition 1 says.

Paper: Jadbabaie, Makur and Shah (IEEE Trans. Inf. Theory 2023); Theorems 2-3, Prop. 1 (Gamma vs
p/eps). Figure id :ref:`fedlrgd.complexity <figure-fedlrgd.complexity>` (on the paper's page).
Claims that check what it shows: :ref:`fedlrgd.thm3.fedave <claim-fedlrgd.thm3.fedave>`,
:ref:`fedlrgd.prop1.ratio <claim-fedlrgd.prop1.ratio>`, :ref:`fedlrgd.eq47.bracket.erratum
<claim-fedlrgd.eq47.bracket.erratum>`.
"""

# %%
# Regenerate the figure
# ---------------------
# Quick mode, seed 0, into a temporary folder. :func:`fedtheory.reproduce` returns the files
# it wrote (PNG, PDF and a JSON sidecar with the plotted data, the parameters and the
# provenance); ``fedtheory reproduce fedlrgd`` does the same for every figure of the paper.
# Sweeps go through the task cache, so a rebuild (or a run after ``fedtheory verify``) reuses
# the finished tasks.
import os
import tempfile

import fedtheory
from fedtheory.cache import configure_cache, default_cache_dir

configure_cache(os.environ.get("FEDTHEORY_CACHE") or default_cache_dir())
outdir = tempfile.mkdtemp(prefix="fedtheory-gallery-")
paths = fedtheory.reproduce("fedlrgd", outdir=outdir, only=["fedlrgd.complexity"], seed=0)

# %%
# The code that made it
# ---------------------
# The figure function, registered with ``@PAPER.figure("fedlrgd.complexity", ...)`` in
# ``paper_reproductions/fedlrgd.py``:
import inspect

from IPython.display import Code

figure = fedtheory.get_figure("fedlrgd.complexity")
Code(inspect.getsource(figure.func), language="python")

# %%
# Its parameters, from the JSON sidecar
# -------------------------------------
import json

with open(paths[0]["json"]) as fh:
    sidecar = json.load(fh)
print(json.dumps(sidecar["params"], indent=1)[:1500])
