"""
lp-proj Sec. 5.4: the sign-flip collapse over rounds
====================================================

Multi-round Byzantine runs: under the sign-flip attack lp-proj-2 collapses once N_a/N passes a
predicted threshold while lp-proj-1 stays bounded (Sec. 5.4, Table 7's starred entries, linear
analogue), with the predicted E log|m| against the measured one.

Paper: Han, Li, Lin and Zhang (JMLR 2024); Table 7 star entries (linear analogue); Sec. 5.4
sign-flip collapse. Figure id :ref:`lpproj.robust <figure-lpproj.robust>` (on the paper's page).
Claims that check what it shows: :ref:`lpproj.robust.signflip-collapse
<claim-lpproj.robust.signflip-collapse>`, :ref:`lpproj.robust.lpproj1-bounded
<claim-lpproj.robust.lpproj1-bounded>`, :ref:`lpproj.robust.table7-linear
<claim-lpproj.robust.table7-linear>`.
"""

# %%
# The figure
# ----------
# Regenerating this figure takes about 97 s in quick mode (measured on a busy 2-core machine),
# too long for every documentation build, so the gallery shows the copy tracked in the
# repository's ``figures/`` folder, which ``fedtheory reproduce lpproj`` writes with this call::
#
#     fedtheory.reproduce("lpproj", outdir="figures", only=["lpproj.robust"], seed=0)
#
# The JSON sidecar next to each PNG records the library versions, the platform, the source
# fingerprint, the seed and the mode that made it.
import pathlib

import fedtheory

figures = pathlib.Path(fedtheory.__file__).resolve().parents[1] / "figures"
paths = [{"png": str(png), "json": str(png.with_suffix(".json"))}
         for png in sorted(figures.glob("lpproj_robust*.png"))]

# %%
# The code that made it
# ---------------------
# The figure function, registered with ``@PAPER.figure("lpproj.robust", ...)`` in
# ``paper_reproductions/lpproj_robust.py``:
import inspect

from IPython.display import Code

figure = fedtheory.get_figure("lpproj.robust")
Code(inspect.getsource(figure.func), language="python")

# %%
# Its parameters, from the JSON sidecar
# -------------------------------------
import json

with open(paths[0]["json"]) as fh:
    sidecar = json.load(fh)
print(json.dumps(sidecar["params"], indent=1)[:1500])
