"""
FedLRGD Proposition 2: Erlang quantiles
=======================================

Proposition 2 brackets the quantile F_Y^{-1}(1 - 1/q) of an Erlang(b, 1) variable. The figure
draws scipy's exact quantiles between the lower and upper bounds, for several b.

Paper: Jadbabaie, Makur and Shah (IEEE Trans. Inf. Theory 2023); Proposition 2 (Erlang
quantiles). Figure id :ref:`fedlrgd.erlang <figure-fedlrgd.erlang>` (on the paper's page).
Claims that check what it shows: :ref:`fedlrgd.prop2.erlang-quantile
<claim-fedlrgd.prop2.erlang-quantile>`.
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
paths = fedtheory.reproduce("fedlrgd", outdir=outdir, only=["fedlrgd.erlang"], seed=0)

# %%
# The code that made it
# ---------------------
# The figure function, registered with ``@PAPER.figure("fedlrgd.erlang", ...)`` in
# ``paper_reproductions/fedlrgd.py``:
import inspect

from IPython.display import Code

figure = fedtheory.get_figure("fedlrgd.erlang")
Code(inspect.getsource(figure.func), language="python")

# %%
# Its parameters, from the JSON sidecar
# -------------------------------------
import json

with open(paths[0]["json"]) as fh:
    sidecar = json.load(fh)
print(json.dumps(sidecar["params"], indent=1)[:1500])
