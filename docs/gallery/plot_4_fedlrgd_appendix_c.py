"""
FedLRGD Appendix C: approximate ranks of gradient slices
========================================================

Appendix C observes that gradient slices are approximately low rank. The linear analogue:
multinomial logistic regression (d = 20, 10 classes, p = 200) with the perturbation (75);
histograms of the approximate rank (90% of the squared Frobenius norm) per weight.

Paper: Jadbabaie, Makur and Shah (IEEE Trans. Inf. Theory 2023); Appendix C (approximate-rank
histograms, linear analogue). Figure id :ref:`fedlrgd.appendix_c <figure-fedlrgd.appendix_c>`
(on the paper's page). Claims that check what it shows: :ref:`fedlrgd.appC.approximate-rank
<claim-fedlrgd.appC.approximate-rank>`.
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
paths = fedtheory.reproduce("fedlrgd", outdir=outdir, only=["fedlrgd.appendix_c"], seed=0)

# %%
# The code that made it
# ---------------------
# The figure function, registered with ``@PAPER.figure("fedlrgd.appendix_c", ...)`` in
# ``paper_reproductions/fedlrgd.py``:
import inspect

from IPython.display import Code

figure = fedtheory.get_figure("fedlrgd.appendix_c")
Code(inspect.getsource(figure.func), language="python")

# %%
# Its parameters, from the JSON sidecar
# -------------------------------------
import json

with open(paths[0]["json"]) as fh:
    sidecar = json.load(fh)
print(json.dumps(sidecar["params"], indent=1)[:1500])
