"""The built-in papers' figure reproductions (installed as ``fedtheory_reproductions``).

One module per paper; each function is registered with ``@PAPER.figure(id, reference=...)``,
takes ``(outdir, full, seed)`` and writes PNG, PDF and a JSON sidecar through
:func:`fedtheory.plotting.save_figure`. Run them with ``fedtheory reproduce PAPER`` or
:func:`fedtheory.reproduce`.
"""
