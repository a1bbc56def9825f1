"""Explicit random streams.

Every stochastic function in fedtheory takes ``seed`` as an ``int``, a
``numpy.random.SeedSequence`` or a ``numpy.random.Generator``. Parallel work
derives independent child streams with ``SeedSequence.spawn``, so the numbers a
given seed produces do not depend on the backend or the number of workers.
"""
from __future__ import annotations

from typing import Union

import numpy as np

SeedLike = Union[int, np.integer, np.random.SeedSequence, np.random.Generator, None]

__all__ = ["SeedLike", "as_generator", "as_seed_sequence", "spawn_seeds", "spawn_generators",
           "seed_repr"]


def as_seed_sequence(seed: SeedLike) -> np.random.SeedSequence:
    """Return a ``SeedSequence`` for ``seed``.

    ``None`` is refused: fedtheory never draws from unseeded entropy, so every
    number can be reproduced.
    """
    if seed is None:
        raise ValueError("`seed` must be an int, SeedSequence or Generator; got None "
                         "(fedtheory requires explicit seeds)")
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, np.random.Generator):
        return seed.bit_generator.seed_seq  # type: ignore[return-value]
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        if seed < 0:
            raise ValueError(f"`seed` must be a non-negative integer; got seed={seed}")
        return np.random.SeedSequence(int(seed))
    raise TypeError(f"`seed` must be an int, SeedSequence or Generator; got {seed!r}")


def as_generator(seed: SeedLike) -> np.random.Generator:
    """Return a ``Generator``: ``seed`` itself if it is one, else a PCG64 seeded from it."""
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.Generator(np.random.PCG64(as_seed_sequence(seed)))


def spawn_seeds(seed: SeedLike, n: int) -> list[np.random.SeedSequence]:
    """Spawn ``n`` independent child ``SeedSequence`` objects from ``seed``.

    The i-th child is the same whatever the backend that later consumes it.
    A ``Generator`` is spawned from its own seed sequence.
    """
    if isinstance(seed, np.random.Generator):
        return list(seed.bit_generator.seed_seq.spawn(n))  # type: ignore[union-attr]
    ss = as_seed_sequence(seed)
    # spawn() mutates the parent's counter; use a copy so that the same int seed
    # always yields the same children, however often it is spawned.
    fresh = np.random.SeedSequence(ss.entropy, spawn_key=ss.spawn_key, pool_size=ss.pool_size)
    return list(fresh.spawn(n))


def spawn_generators(seed: SeedLike, n: int) -> list[np.random.Generator]:
    """``n`` independent generators, one per child of ``spawn_seeds(seed, n)``."""
    return [as_generator(s) for s in spawn_seeds(seed, n)]


def seed_repr(seed: SeedLike) -> object:
    """A JSON-friendly description of a seed, for provenance records."""
    if isinstance(seed, (int, np.integer)):
        return int(seed)
    ss = as_seed_sequence(seed)
    return {"entropy": int(ss.entropy) if ss.entropy is not None else None,
            "spawn_key": list(ss.spawn_key)}
