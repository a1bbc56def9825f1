"""The built-in paper plugins' claim catalogues (installed as ``fedtheory_checks``).

One package per paper (``fedtheory_checks.fedrep``, ...), each defining ``PAPER`` (a
:class:`fedtheory.Paper`, exposed through the ``fedtheory.papers`` entry point) and one module
per section or theorem group, so a theorem is found from its number. Each package's ``ledger``
module lists every numbered result of the paper (``fedtheory ledger --paper KEY``).
"""
