"""The claim catalogue: one module per paper (``checks.fedrep``, ...).

Importing a module registers its claims with :func:`fedtheory.claims.claim`.
"""
