"""
lp-proj Theorem 9: the bound (17) and the client-drift floor
============================================================

Left: E F(w_bar_T) - F* over replicates (99% t intervals) against T with the right side of (17),
for three configurations of Algorithm 1 with mini-batches and inexact inner solves. Right: with
all clients and exact solves, the last iterate's gap against T with the exact client-drift
floors. The printed (17) lacks a T in its exponent (erratum).

Paper: Han, Li, Lin and Zhang (JMLR 2024); Theorem 9, bound (17); drift floor (spec claims 10,
13). Figure id :ref:`lpproj.thm9 <figure-lpproj.thm9>` (on the paper's page). Claims that check
what it shows: :ref:`lpproj.thm9.bound17 <claim-lpproj.thm9.bound17>`,
:ref:`lpproj.thm9.drift-floor <claim-lpproj.thm9.drift-floor>`, :ref:`lpproj.thm9.exp-T.erratum
<claim-lpproj.thm9.exp-T.erratum>`.
"""

# %%
# The figure
# ----------
# Regenerating this figure takes about 90 s in quick mode (measured on a busy 2-core machine),
# too long for every documentation build, so the gallery shows the copy tracked in the
# repository's ``figures/`` folder, which ``fedtheory reproduce lpproj`` writes with this call::
#
#     fedtheory.reproduce("lpproj", outdir="figures", only=["lpproj.thm9"], seed=0)
#
# The JSON sidecar next to each PNG records the library versions, the platform, the source
# fingerprint, the seed and the mode that made it.
import pathlib

import fedtheory

figures = pathlib.Path(fedtheory.__file__).resolve().parents[1] / "figures"
paths = [{"png": str(png), "json": str(png.with_suffix(".json"))}
         for png in sorted(figures.glob("lpproj_thm9*.png"))]

# %%
# The code that made it
# ---------------------
# The figure function, registered with ``@PAPER.figure("lpproj.thm9", ...)`` in
# ``paper_reproductions/lpproj_thm9.py``:
import inspect

from IPython.display import Code

figure = fedtheory.get_figure("lpproj.thm9")
Code(inspect.getsource(figure.func), language="python")

# %%
# Its parameters, from the JSON sidecar
# -------------------------------------
import json

with open(paths[0]["json"]) as fh:
    sidecar = json.load(fh)
print(json.dumps(sidecar["params"], indent=1)[:1500])
