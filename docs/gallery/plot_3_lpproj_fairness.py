"""
lp-proj Theorem 32 and Proposition 18: fairness
===============================================

Fairness as the variance V of the test loss across clients (Theorem 32), against lambda, and the
accuracy-fairness trade-off as lambda runs from 1e-3 to 1e3. lp-proj-2 is fairer than
pFedMe/Ditto (Proposition 18); the fairness constant 4 of the paper is an erratum (2).

Paper: Han, Li, Lin and Zhang (JMLR 2024); Theorem 32 / Prop. 18 (fairness, trade-off). Figure
id :ref:`lpproj.fairness <figure-lpproj.fairness>` (on the paper's page). Claims that check what
it shows: :ref:`lpproj.thm32.fairness-exact <claim-lpproj.thm32.fairness-exact>`,
:ref:`lpproj.prop18.expected-ordering <claim-lpproj.prop18.expected-ordering>`,
:ref:`lpproj.thm32.fairness-constant.erratum <claim-lpproj.thm32.fairness-constant.erratum>`.
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
paths = fedtheory.reproduce("lpproj", outdir=outdir, only=["lpproj.fairness"], seed=0)

# %%
# The code that made it
# ---------------------
# The figure function, registered with ``@PAPER.figure("lpproj.fairness", ...)`` in
# ``paper_reproductions/lpproj.py``:
import inspect

from IPython.display import Code

figure = fedtheory.get_figure("lpproj.fairness")
Code(inspect.getsource(figure.func), language="python")

# %%
# Its parameters, from the JSON sidecar
# -------------------------------------
import json

with open(paths[0]["json"]) as fh:
    sidecar = json.load(fh)
print(json.dumps(sidecar["params"], indent=1)[:1500])
