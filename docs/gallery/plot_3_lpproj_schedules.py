"""
lp-proj Theorems 14 and 15: rates under decaying schedules
==========================================================

Theorem 14 (strongly convex) and Theorem 15 (smooth non-convex, A6 least squares) under the
paper's decaying step sizes and batch schedules: measured errors over replicates (99% t bands)
with fitted log-log slopes against the stated rates.

Paper: Han, Li, Lin and Zhang (JMLR 2024); Theorems 14 and 15 (formal: 27, 28): rates under
decaying schedules. Figure id :ref:`lpproj.schedules <figure-lpproj.schedules>` (on the paper's
page). Claims that check what it shows: :ref:`lpproj.thm14.rate <claim-lpproj.thm14.rate>`,
:ref:`lpproj.thm15.rate <claim-lpproj.thm15.rate>`.
"""

# %%
# The figure
# ----------
# Regenerating this figure takes about 123 s in quick mode (measured on a busy 2-core machine),
# too long for every documentation build, so the gallery shows the copy tracked in the
# repository's ``figures/`` folder, which ``fedtheory reproduce lpproj`` writes with this call::
#
#     fedtheory.reproduce("lpproj", outdir="figures", only=["lpproj.schedules"], seed=0)
#
# The JSON sidecar next to each PNG records the library versions, the platform, the source
# fingerprint, the seed and the mode that made it.
import pathlib

import fedtheory

figures = pathlib.Path(fedtheory.__file__).resolve().parents[1] / "figures"
paths = [{"png": str(png), "json": str(png.with_suffix(".json"))}
         for png in sorted(figures.glob("lpproj_schedules*.png"))]

# %%
# The code that made it
# ---------------------
# The figure function, registered with ``@PAPER.figure("lpproj.schedules", ...)`` in
# ``paper_reproductions/lpproj_schedules.py``:
import inspect

from IPython.display import Code

figure = fedtheory.get_figure("lpproj.schedules")
Code(inspect.getsource(figure.func), language="python")

# %%
# Its parameters, from the JSON sidecar
# -------------------------------------
import json

with open(paths[0]["json"]) as fh:
    sidecar = json.load(fh)
print(json.dumps(sidecar["params"], indent=1)[:1500])
