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
           "seed_repr", "random_subset", "random_subsets"]


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


#: bit generators a run may draw from: numpy's default PCG64, or SFC64 (about 20% faster normals
#: on this machine kind; the same law, other numbers)
BIT_GENERATORS = {"pcg64": np.random.PCG64, "sfc64": np.random.SFC64}


def as_generator(seed: SeedLike, bit_generator: str = "pcg64") -> np.random.Generator:
    """Return a ``Generator``: ``seed`` itself if it is one, else one seeded from it with the named
    bit generator (``"pcg64"``, numpy's default, or ``"sfc64"``; see :data:`BIT_GENERATORS`)."""
    if isinstance(seed, np.random.Generator):
        return seed
    if bit_generator not in BIT_GENERATORS:
        raise ValueError(f"`bit_generator` must be one of {tuple(BIT_GENERATORS)}; got {bit_generator!r}")
    return np.random.Generator(BIT_GENERATORS[bit_generator](as_seed_sequence(seed)))


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


def random_subset(rng: np.random.Generator, n: int, size: int) -> np.ndarray:
    """A uniformly random ``size``-subset of ``range(n)``, sorted (partial participation: the
    server samples ``size`` of ``n`` clients without replacement).

    The ranks of ``n`` i.i.d. uniforms are a uniformly random permutation, so the indices of the
    ``size`` smallest form a uniform subset (ties have probability zero). ``size == n`` draws
    nothing and returns ``arange(n)``. :func:`random_subsets` does the same for a stack of
    streams, with the same numbers stream by stream.
    """
    from ._validation import check_generator, check_int

    check_generator(rng, "rng")
    n = check_int(n, "n", 1)
    size = check_int(size, "size", 1, n, why="a subset of range(n)")
    return random_subsets([rng], n, size)[0]


def random_subsets(rngs, n: int, size: int) -> np.ndarray:
    """One :func:`random_subset` per generator in ``rngs``, shape ``(len(rngs), size)``: each
    stream draws its own ``n`` uniforms; the selection is one batched ``argpartition``."""
    if size == n:
        return np.broadcast_to(np.arange(n), (len(rngs), n))
    u = np.empty((len(rngs), n))
    for j, g in enumerate(rngs):
        g.random(out=u[j])
    return np.sort(np.argpartition(u, size - 1, axis=1)[:, :size], axis=1)
