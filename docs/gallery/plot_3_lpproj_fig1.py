"""
lp-proj Figure 1: test loss against lambda under the same-value attack
======================================================================

Figure 1: the benign-average test loss of pFedMe/Ditto and lp-proj-2 against lambda under the
same-value attack (n = 200, N = 100, N_a = 20, d = 100, d_sub = 10), as closed forms (Theorem
30) with Monte Carlo points. The right panel zooms on the excess over local training near
lambda_1^*, where the printed lambda_1^* is an erratum.

Paper: Han, Li, Lin and Zhang (JMLR 2024); Figure 1 (loss vs lambda, same-value attack). Figure
id :ref:`lpproj.fig1 <figure-lpproj.fig1>` (on the paper's page). Claims that check what it
shows: :ref:`lpproj.fig1.lambda-star.erratum <claim-lpproj.fig1.lambda-star.erratum>`,
:ref:`lpproj.prop16 <claim-lpproj.prop16>`, :ref:`lpproj.fig1.negligible-gap
<claim-lpproj.fig1.negligible-gap>`.
"""

# %%
# The figure
# ----------
# Regenerating this figure takes about 101 s in quick mode (measured on a busy 2-core machine),
# too long for every documentation build, so the gallery shows the copy tracked in the
# repository's ``figures/`` folder, which ``fedtheory reproduce lpproj`` writes with this call::
#
#     fedtheory.reproduce("lpproj", outdir="figures", only=["lpproj.fig1"], seed=0)
#
# The JSON sidecar next to each PNG records the library versions, the platform, the source
# fingerprint, the seed and the mode that made it.
import pathlib

import fedtheory

figures = pathlib.Path(fedtheory.__file__).resolve().parents[1] / "figures"
paths = [{"png": str(png), "json": str(png.with_suffix(".json"))}
         for png in sorted(figures.glob("lpproj_fig1*.png"))]

# %%
# The code that made it
# ---------------------
# The figure function, registered with ``@PAPER.figure("lpproj.fig1", ...)`` in
# ``paper_reproductions/lpproj.py``:
import inspect

from IPython.display import Code

figure = fedtheory.get_figure("lpproj.fig1")
Code(inspect.getsource(figure.func), language="python")

# %%
# Its parameters, from the JSON sidecar
# -------------------------------------
import json

with open(paths[0]["json"]) as fh:
    sidecar = json.load(fh)
print(json.dumps(sidecar["params"], indent=1)[:1500])
