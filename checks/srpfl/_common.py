"""Helpers shared by the claim modules of Tziotis et al., *Straggler-Resilient Personalized Federated Learning*
(TMLR 2023): exact FedRep-SRPFL runs (Algorithm 2), the tracer of the B_hat every round receives (Appendix A,
(16)-(19), assume it orthonormal), the Wishart draws of Lemma A.4 and the Appendix B grid."""
from __future__ import annotations

from contextlib import contextmanager
from functools import partial
from types import SimpleNamespace

import numpy as np
from fedtheory.parallel import cached_map
from fedtheory.random import spawn_seeds
from fedtheory.srpfl import run_srpfl

POW2 = [2 ** p for p in range(3, 17)]  # N = 8 .. 65536

#: ||B^T B - I||_2 above which a round's input B_hat is not orthonormal (Appendix A, (16)-(19), assumes it is)
ORTHO_TOL = 1e-10


def _runs(full, seed, *, sigma=0.5, record=False, seeds=None, trace=False, **kw):
    """Exact FedRep-SRPFL runs (defaults d=50, k=3, N=M=64, n0=4, m=30, fixed speeds), run j with seed
    ``spawn_seeds(seed, seeds)[j]``. With ``trace=True`` also returns, per run, the orthonormality defect
    of every round's input B_hat (stopping after the first run in which a B_hat is not orthonormal).

    Without ``trace`` and ``record`` the runs are one replicate batch (``run_srpfl(..., replicates=seeds)``,
    whose replicate j equals the single run with that seed bitwise); the tracer and the identities need
    single runs (the tracer referees what the round functions of single runs actually receive)."""
    seeds = seeds or (6 if full else 2)
    p = dict(d=50, k=3, M=64, N=64, n0=4, m=30, sigma=sigma, speeds="fixed", stage_lengths=25,
             rounds=150)
    p.update(kw)
    if not (trace or record):
        return list(run_srpfl(**p, replicates=seeds, seed=seed)), p
    runs, defects = [], []
    if trace:  # one cached task per run (traced runs return their identities and defects only)
        for out in cached_map(partial(_traced_run, p=p, record=record), spawn_seeds(seed, seeds),
                              namespace="srpfl.traced-run", params={**p, "record": record}):
            runs.append(SimpleNamespace(identities={k[4:]: v for k, v in out.items() if k.startswith("ids_")}))
            defects.append(np.atleast_1d(np.asarray(out["defects"], float)))
            if defects[-1].size and defects[-1].max() > ORTHO_TOL:
                break  # the precondition is already violated: the caller's bound refutes it
        return runs, p, defects
    for s in spawn_seeds(seed, seeds):
        runs.append(run_srpfl(**p, record_identities=record, seed=s))
    return runs, p


def _traced_run(s, p, record):
    """One traced exact run of :func:`_runs` (a :func:`fedtheory.parallel.cached_map` task): the orthonormality
    defects of its rounds' inputs (``"defects"``) and, with ``record``, its Appendix A identities (``"ids_<name>"``)."""
    with trace_round_inputs() as rec:
        res = run_srpfl(**p, record_identities=record, seed=s)
    out = {"defects": check_trace(rec, res)}
    if record:
        out.update({f"ids_{k}": np.asarray(v) for k, v in res.identities.items()})
    return out


def orthonormality_defect(B: np.ndarray) -> float:
    """``||B^T B - I_k||_2``."""
    B = np.asarray(B, float)
    return float(np.linalg.norm(B.T @ B - np.eye(B.shape[1]), 2))


#: names under which :mod:`fedtheory.srpfl._engine` calls the FedRep round kernels (B_hat first, stacked
#: over the replicates: (R, d, k); a single run is R = 1)
_ROUND_FUNCS = ("_round_from_features", "_reduced_from_draws")


@contextmanager
def trace_round_inputs():
    """Record the orthonormality defect of the ``B_hat`` that every FedRep round of
    :func:`fedtheory.srpfl.run_srpfl` receives (in the order the rounds run; one entry per replicate and
    round, so one per round for a single run).

    The exact runs do not return their per-round ``B_hat``; this wraps the round kernels that
    :mod:`fedtheory.srpfl._engine` calls (full and reduced samplers) for the duration of the
    ``with`` block and restores them afterwards. Yields the list the defects are appended to; use
    :func:`check_trace` to confirm that every round was seen.
    """
    import fedtheory.srpfl._engine as alg

    rec: list = []
    saved = {name: getattr(alg, name) for name in _ROUND_FUNCS if callable(getattr(alg, name, None))}
    if not saved:
        raise RuntimeError("fedtheory.srpfl._engine calls none of the round kernels "
                           f"{', '.join(_ROUND_FUNCS)}: update the tracer in checks/srpfl/_common.py")

    def wrap(f):
        def traced(B, *a, **k):
            rec.extend(orthonormality_defect(b) for b in np.reshape(B, (-1,) + np.shape(B)[-2:]))
            return f(B, *a, **k)
        return traced

    try:
        for name, f in saved.items():
            setattr(alg, name, wrap(f))
        yield rec
    finally:
        for name, f in saved.items():
            setattr(alg, name, f)


def check_trace(rec, res) -> np.ndarray:
    """The traced defects of one run as an array, after checking that every round of ``res`` was traced."""
    if len(rec) != res.participants.size:
        raise RuntimeError(f"traced {len(rec)} FedRep rounds but the run has {res.participants.size}: "
                           "update the tracer in checks/srpfl/_common.py")
    return np.asarray(rec, float)


def orthonormality_precondition(defects):
    """The precondition of the Appendix A round checks (Tziotis et al., TMLR 2023, (16)-(19): the round's input
    ``B_hat`` is orthonormal) as entries of a one-sided bound: ``(observed, bound, summary)`` with the largest
    orthonormality defect of each traced run against :data:`ORTHO_TOL`. A claim appends these entries to the
    entries of its own :func:`fedtheory.decide.bound`, so a run that breaks the precondition refutes it."""
    worst = np.array([float(np.max(d)) if np.size(d) else 0.0 for d in defects] or [0.0])
    bad = sum(int(np.sum(np.asarray(d) > ORTHO_TOL)) for d in defects)
    total = sum(int(np.size(d)) for d in defects)
    return worst, np.full(worst.shape, ORTHO_TOL), {"max_orthonormality_defect": float(worst.max()),
                                                    "rounds_not_orthonormal": bad, "rounds": total,
                                                    "orthonormality_tolerance": ORTHO_TOL}


def _wishart_min_eig(g, reps, n, m, k):
    """sigma_min((1/m) G^T G), G (m x k) Gaussian, via the Bartlett decomposition (exact in law)."""
    L = np.zeros((reps, n, k, k))
    idx = np.arange(k)
    L[..., idx, idx] = np.sqrt(g.chisquare(m - idx, size=(reps, n, k)))
    low = np.tril_indices(k, -1)
    L[..., low[0], low[1]] = g.standard_normal((reps, n, low[0].size))
    return np.linalg.eigvalsh(L @ np.swapaxes(L, -1, -2) / m)[..., 0]


def _grid():
    return [(N, a, c, ch) for N in (64, 256, 1024, 4096) for a in (0.01, 0.05, 0.2)
            for c in (0.0, 10.0, 100.0) for ch in (1.05, 1.2, 1.35)]


def relative_identity(errors, tol: float, *, what: str, **kw) -> dict:
    """An identity checked through its relative errors ``e = |observed - expected| / |expected|``: the kit's
    :func:`fedtheory.decide.identity` of ``1 + e`` against 1 with ``rtol=tol`` (the same condition, ``e <= tol``),
    so that its ``detects`` is the relative change ``tol`` of the identity's value that would fail it."""
    from fedtheory import decide

    e = np.atleast_1d(np.asarray(errors, float))
    return decide.identity(1.0 + e, np.ones_like(e), rtol=tol, what=what, **kw)


# ----------------------------------------------------------------------------- Appendix A identities of traced runs
def _ids(runs, key) -> np.ndarray:
    """One Appendix A identity of every traced run, concatenated (empty when the runs stopped at a broken
    precondition before recording it)."""
    parts = [np.ravel(r.identities[key]) for r in runs if key in r.identities]
    return np.concatenate(parts) if parts else np.empty(0)


_ROUND_REGIME = ("one exact round of Appendix A, (16)-(19), given an orthonormal B_hat: checked in every round "
                 "(||B_hat^T B_hat - I|| <= 1e-10 is part of the decided bound: a round that breaks it refutes the claim); exact FedRep-SRPFL runs (d=50, k=3, "
                 "N=M=64, n0=4, m=30, sigma=0.5, fixed speeds, 25 rounds per stage)")
