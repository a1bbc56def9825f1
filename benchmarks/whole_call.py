"""Whole-call benchmarks: what users and the catalogue actually run.

* ``replicates`` - R replicates of a small FedRep run in one ``run_fedrep(..., replicates=R)`` call
  against a loop of R single calls (the same R runs: replicate j is the single run with the j-th
  child seed, bitwise), at S1 = (d, k, n, m, r) = (20, 2, 100, 10, 1) and at the small size
  (20, 2, 100, 10, 0.1). Target: at least 8x at R = 64, 200 rounds.
* ``end_to_end`` - one ``run_fedrep`` call at S3 = (100, 5, 10000, 20, 1) and S4 = (500, 10, 1000,
  50, 1) with T = 20 rounds and the default (exact) evaluation, timed as one call, against the sum of
  its parts measured alone: ``mom_init`` + T x one round of the run's path. Target: at most 1.15x.
  The sampled evaluation (``m_test = 100``) is timed once for comparison.
* ``mom_init`` - the method of moments against its roofline: the same normals drawn by the fastest
  generator into a preallocated buffer, plus the weighted Gram matmul, at one BLAS thread.
* ``memory`` - peak traced memory (tracemalloc; numpy reports its buffers to it) of a replicate batch
  whose round arrays would need about 2 GB unchunked.

Every timing runs with BLAS pinned to one thread; variants compared by a ratio are measured in the
same repeat, interleaved, and the median over repeats is reported.
"""
from __future__ import annotations

import time
import tracemalloc

import numpy as np

from fedtheory.linalg import blas_single_thread, random_orthonormal
from fedtheory_benchmarks.fedrep_round import median_times
from fedtheory.random import as_generator, spawn_seeds
from fedtheory.representation import make_model, mom_init, run_fedrep
from fedtheory.representation.algorithms import _round_stacked

SMALL = dict(d=20, k=2, n=100, m=10)
LARGE = {"S3": (100, 5, 10000, 20, 1.0), "S4": (500, 10, 1000, 50, 1.0)}
TARGETS = {"replicates_speedup": 8.0, "end_to_end_over_parts": 1.15, "mom_over_roofline": 1.3,
           "memory_peak_mb": 1024.0}


def bench_replicates(r: float, R: int = 64, rounds: int = 200, repeats: int = 3) -> dict:
    """R replicates in one call vs a loop of R single calls (the same runs)."""
    kw = dict(SMALL, r=r, rounds=rounds)
    seeds = spawn_seeds(0, R)

    def loop():
        for s in seeds:
            run_fedrep(**kw, seed=s)

    with blas_single_thread():
        med = median_times({"loop": loop, "batched": lambda: run_fedrep(**kw, replicates=R, seed=0)}, repeats)
    per = R * rounds
    return {"size": "S1" if r == 1.0 else "small", **kw, "replicates": R, "seconds": med,
            "us_per_replicate_round": {k: v / per * 1e6 for k, v in med.items()},
            "speedup": med["loop"] / med["batched"]}


def bench_end_to_end(name: str, T: int = 20, repeats: int = 3, sampled: bool = True) -> dict:
    """One run_fedrep call (init + T rounds + exact evaluation) vs mom_init + T x one round (medians of
    ``repeats`` interleaved timings: a single timing of a 10-20 s call moved the ratio by about 5%)."""
    d, k, n, m, r = LARGE[name]
    model = make_model(d, k, n, seed=0)
    c = int(round(r * n))
    sel = np.arange(c)
    B = random_orthonormal(as_generator(1), d, k)
    buf = np.empty((c * m, d))
    rng = as_generator(2)
    eta = 1.0 / (4 * k)
    variants = {
        "run": lambda: run_fedrep(d, k, n, m, r, T, model=model, seed=3),
        "mom_init": lambda: mom_init(model, m, as_generator(4)),
        "round": lambda: _round_stacked(B, model, sel, m, eta, rng, buf),
    }
    with blas_single_thread():
        med = median_times(variants, repeats)
        out = {"size": name, "d": d, "k": k, "n": n, "m": m, "r": r, "T": T, "seconds": med,
               "parts": med["mom_init"] + T * med["round"]}
        out["end_to_end_over_parts"] = med["run"] / out["parts"]
        if sampled:
            t0 = time.perf_counter()
            run_fedrep(d, k, n, m, r, 0, model=model, evaluation="sampled", m_test=100, seed=3)
            t_s = time.perf_counter() - t0
            t0 = time.perf_counter()
            run_fedrep(d, k, n, m, r, 0, model=model, seed=3)
            t_e = time.perf_counter() - t0
            out["evaluation_seconds"] = {"sampled_m_test_100": t_s - med["mom_init"],
                                         "exact": t_e - med["mom_init"]}
    return out


def _mom_roofline(n, m, chunk, gen, buf, Y, Z):
    """The unavoidable work of mom_init: n m d normals into a buffer and the d x d product of the
    batch with its weighted rows (a general matmul against a second buffer ``Y``, so that numpy's
    X^T X shortcut cannot make the roofline cheaper than the weighted Gram), chunk by chunk."""
    for start in range(0, n, chunk):
        rows = min(chunk, n - start) * m
        gen.standard_normal(out=buf[:rows])
        np.matmul(buf[:rows].T, Y[:rows], out=Z)
    return Z


def bench_mom(name: str, repeats: int = 3) -> dict:
    d, k, n, m, _ = LARGE[name]
    model = make_model(d, k, n, seed=0)
    chunk = 4096
    buf = np.empty((min(chunk, n) * m, d))
    Y = np.random.default_rng(7).standard_normal(buf.shape)
    Z = np.empty((d, d))
    gen = np.random.Generator(np.random.SFC64(5))
    with blas_single_thread():
        med = median_times({"roofline": lambda: _mom_roofline(n, m, chunk, gen, buf, Y, Z),
                             "mom_init": lambda: mom_init(model, m, as_generator(6))}, repeats)
    return {"size": name, "seconds": med, "mom_over_roofline": med["mom_init"] / med["roofline"]}


def bench_memory(R: int = 64, quick: bool = False) -> dict:
    """Peak traced memory of run_fedrep(replicates=R) at d=100, k=5, n=2000, m=20, r=1 (the round
    arrays of R replicates would need R x 35 MB unchunked), 2 rounds."""
    kw = dict(d=100, k=5, n=500 if quick else 2000, m=20, r=1.0, rounds=2, m_test=0)
    unchunked = R * kw["n"] * kw["m"] * (kw["d"] + 5 * kw["k"] + 4) * 8 / 2 ** 20
    tracemalloc.start()
    t0 = time.perf_counter()
    res = run_fedrep(**kw, replicates=R, seed=0)
    secs = time.perf_counter() - t0
    peak = tracemalloc.get_traced_memory()[1] / 2 ** 20
    tracemalloc.stop()
    return {**kw, "replicates": R, "chunk": res.params["chunk"], "peak_mb": peak,
            "unchunked_round_arrays_mb": unchunked, "seconds": secs}


def run(quick: bool = False) -> dict:
    reps = [bench_replicates(1.0, rounds=50 if quick else 200, repeats=1 if quick else 3),
            bench_replicates(0.1, rounds=50 if quick else 200, repeats=1 if quick else 3)]
    out = {"replicates": reps, "memory": bench_memory(16 if quick else 64, quick), "targets": TARGETS}
    if not quick:
        out["end_to_end"] = [bench_end_to_end(s) for s in LARGE]
        out["mom_init"] = [bench_mom(s) for s in LARGE]
    return out


def table(res: dict) -> str:
    lines = ["whole calls (BLAS one thread):"]
    for r in res["replicates"]:
        u = r["us_per_replicate_round"]
        lines.append(f"  replicates  {r['size']:<5} R={r['replicates']}, {r['rounds']} rounds: loop of single calls "
                     f"{r['seconds']['loop']:.2f} s ({u['loop']:.0f} us/replicate-round), one call "
                     f"{r['seconds']['batched']:.2f} s ({u['batched']:.0f} us): {r['speedup']:.1f}x "
                     f"(target >= {TARGETS['replicates_speedup']:g}x)")
    for e in res.get("end_to_end", []):
        s = e["seconds"]
        ev = e.get("evaluation_seconds", {})
        lines.append(f"  end-to-end  {e['size']:<5} T={e['T']}: one call {s['run']:.2f} s vs mom_init "
                     f"{s['mom_init']:.2f} s + T x round {s['round']:.3f} s = {e['parts']:.2f} s: {e['end_to_end_over_parts']:.3f}x "
                     f"(target <= {TARGETS['end_to_end_over_parts']:g}x); evaluation exact "
                     f"{ev.get('exact', float('nan')):.2f} s, sampled (m_test=100) "
                     f"{ev.get('sampled_m_test_100', float('nan')):.2f} s")
    for mo in res.get("mom_init", []):
        s = mo["seconds"]
        lines.append(f"  mom_init    {mo['size']:<5} {s['mom_init']:.3f} s vs roofline {s['roofline']:.3f} s: "
                     f"{mo['mom_over_roofline']:.2f}x")
    mem = res["memory"]
    lines.append(f"  memory      R={mem['replicates']} at d={mem['d']}, n={mem['n']}, m={mem['m']}: peak "
                 f"{mem['peak_mb']:.0f} MB with chunks of {mem['chunk']} (round arrays unchunked "
                 f"{mem['unchunked_round_arrays_mb']:.0f} MB; target < {TARGETS['memory_peak_mb']:g} MB)")
    return "\n".join(lines)
