"""
SRPFL Figures 3-6: FedRep-SRPFL and FedRep on wall-clock time
=============================================================

Figures 3-6 of the paper train deep networks with straggling clients. The linear analogue runs
FedRep, FedRep-SRPFL and FedAvg exactly with a simulated clock (Exp(lambda) compute times) and
plots dist(B^t, B*) and the exact test MSE against wall-clock time, for communication times C.T.
= 0, 10, 100 and fixed or dynamic speeds with full or partial participation. SRPFL reaches the
target first. The call writes two files (distance and MSE).

Paper: Tziotis, Shen, Pedarsani, Hassani and Mokhtari (TMLR 2023); Figs. 3-6 (linear analogue:
dist and MSE vs wall-clock). Figure id :ref:`srpfl.wallclock <figure-srpfl.wallclock>` (on the
paper's page). Claims that check what it shows: :ref:`srpfl.thm4.9.real-runs
<claim-srpfl.thm4.9.real-runs>`.
"""

# %%
# The figure
# ----------
# Regenerating this figure takes about 302 s in quick mode (measured on a busy 2-core machine),
# too long for every documentation build, so the gallery shows the copy tracked in the
# repository's ``figures/`` folder, which ``fedtheory reproduce srpfl`` writes with this call::
#
#     fedtheory.reproduce("srpfl", outdir="figures", only=["srpfl.wallclock"], seed=0)
#
# The JSON sidecar next to each PNG records the library versions, the platform, the source
# fingerprint, the seed and the mode that made it.
import pathlib

import fedtheory

figures = pathlib.Path(fedtheory.__file__).resolve().parents[1] / "figures"
paths = [{"png": str(png), "json": str(png.with_suffix(".json"))}
         for png in sorted(figures.glob("srpfl_wallclock_*.png"))]

# %%
# The code that made it
# ---------------------
# The figure function, registered with ``@PAPER.figure("srpfl.wallclock", ...)`` in
# ``paper_reproductions/srpfl.py``:
import inspect

from IPython.display import Code

figure = fedtheory.get_figure("srpfl.wallclock")
Code(inspect.getsource(figure.func), language="python")

# %%
# Its parameters, from the JSON sidecar
# -------------------------------------
import json

with open(paths[0]["json"]) as fh:
    sidecar = json.load(fh)
print(json.dumps(sidecar["params"], indent=1)[:1500])
