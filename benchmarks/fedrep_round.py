"""FedRep round benchmark: the library's exact path against a per-client reference loop, the
measured roofline, two threaded workers and the reduced sampler.

``full`` is one round as ``run_fedrep`` runs it (PCG64 stream, the batch drawn into a buffer the run
reuses); ``full_sfc64`` is the same round drawn from SFC64, the roofline's generator, as
``run_fedrep(..., bit_generator="sfc64")`` runs it (the ratio that isolates the library's own
overhead); ``full_fresh_arrays`` is the public one-round call ``fedrep_round_stacked``, which allocates
its batch. The roofline is the tight lower bound: SFC64 (the fastest numpy generator here) into a
preallocated buffer plus the two tall matmuls into preallocated outputs, at one BLAS thread.

Sizes (d, k, n, m, r): S1 = (20, 2, 100, 10, 1), S2 = (100, 5, 1000, 20, 0.1),
S3 = (100, 5, 10000, 20, 1), S4 = (500, 10, 1000, 50, 1). Every variant except the 2-worker one
runs with BLAS pinned to one thread ("single-thread"). Timings of all variants are interleaved
within each repeat, so their ratios are robust to a noisy machine; the median over repeats is
reported.
"""
from __future__ import annotations

import time
import tracemalloc

import numpy as np

from fedtheory.linalg import blas_single_thread, random_orthonormal
from fedtheory.representation import (fedrep_round_reduced, fedrep_round_sharded, fedrep_round_stacked,
                                      make_model)
from fedtheory.representation.algorithms import PARALLEL_MIN_NORMALS, _round_stacked

SIZES = {"S1": (20, 2, 100, 10, 1.0), "S2": (100, 5, 1000, 20, 0.1), "S3": (100, 5, 10000, 20, 1.0),
         "S4": (500, 10, 1000, 50, 1.0)}

TARGETS = {"full_over_roofline": 1.3, "reference_over_full": 3.0, "single_over_2workers": 1.5,
           "roofline_over_reduced_S3": 3.5, "roofline_over_reduced_S4": 12.0, "mc_seconds": 0.7, "mc_peak_mb": 100.0}


def reference_loop(B, model, clients, m, eta, rng):
    """One client at a time with the reference algebra (a d x d X_i^T X_i per client)."""
    G = np.zeros_like(B)
    for i in clients:
        X = rng.standard_normal((m, model.d))
        y = X @ model.theta_star[i]
        XtX = X.T @ X
        Xty = X.T @ y
        w = np.linalg.solve(B.T @ XtX @ B, B.T @ Xty)
        G += np.outer(XtX @ B @ w - Xty, w) / m
    return np.linalg.qr(B - eta * G / clients.size)[0]


def roofline(BB, gen, X, P, R, G):
    """The unavoidable work of a round, as tight as this machine allows: fill the c m x d batch with
    normals from the fastest generator measured (SFC64) into a preallocated buffer ``X``, then the
    two tall matmuls ``X [B | B*]`` and ``X^T R`` into preallocated outputs ``P`` and ``G``."""
    gen.standard_normal(out=X)
    np.matmul(X, BB, out=P)
    np.matmul(X.T, R, out=G)
    return G


def median_times(variants: dict, repeats: int) -> dict:
    """Median seconds per variant over ``repeats``, after one warm-up call each; within a repeat the
    variants run one after the other (interleaved), so their ratios are robust to a noisy machine."""
    for f in variants.values():
        f()
    times = {name: [] for name in variants}
    for _ in range(repeats):
        for name, f in variants.items():
            t0 = time.perf_counter()
            f()
            times[name].append(time.perf_counter() - t0)
    return {name: float(np.median(v)) for name, v in times.items()}


def bench_size(name, repeats=5, with_reference=True):
    d, k, n, m, r = SIZES[name]
    c = int(round(r * n))
    model = make_model(d, k, n, seed=0)
    rng = np.random.default_rng(0)
    B = random_orthonormal(rng, d, k)
    sel = np.arange(c)
    g2 = [np.random.default_rng(1), np.random.default_rng(2)]
    R = np.ones((c * m, k))
    BB = np.hstack([B, model.B_star])
    X = np.empty((c * m, d))
    P = np.empty((c * m, 2 * k))
    G = np.empty((d, k))
    sfc = np.random.Generator(np.random.SFC64(0))
    sfc_run = np.random.Generator(np.random.SFC64(3))
    buf = np.empty((c * m, d))
    buf_sfc = np.empty((c * m, d))

    def single(f):
        def run():
            with blas_single_thread():
                f()
        return run

    variants = {
        "roofline": single(lambda: roofline(BB, sfc, X, P, R, G)),
        "full": single(lambda: _round_stacked(B, model, sel, m, 0.1, rng, buf)),
        "full_sfc64": single(lambda: _round_stacked(B, model, sel, m, 0.1, sfc_run, buf_sfc)),
        "full_fresh_arrays": single(lambda: fedrep_round_stacked(B, model, sel, m, 0.1, rng)),
        "full_2workers": lambda: fedrep_round_sharded(B, model, sel, m, 0.1, g2, workers=2),
        "reduced": single(lambda: fedrep_round_reduced(B, model, sel, m, 0.1, rng)),
    }
    if with_reference:
        variants["reference_loop"] = single(lambda: reference_loop(B, model, sel, m, 0.1, rng))
    med = median_times(variants, repeats)
    rec = {"size": name, "d": d, "k": k, "n": n, "m": m, "r": r, "clients_per_round": c,
           "normals_per_round": c * m * d, "seconds": med, "repeats": repeats,
           "ratios": {"full_over_roofline": med["full"] / med["roofline"],
                      "full_sfc64_over_roofline": med["full_sfc64"] / med["roofline"],
                      "single_over_2workers": med["full"] / med["full_2workers"],
                      "2workers_parallel": c * m * d >= PARALLEL_MIN_NORMALS,
                      "roofline_over_reduced": med["roofline"] / med["reduced"]}}
    if with_reference:
        rec["ratios"]["reference_over_full"] = med["reference_loop"] / med["full"]
    return rec


def bench_mc(n_samples=200_000):
    """lp-proj same-value attack Monte Carlo at N=20, d=8 (single-threaded): seconds and peak memory."""
    from fedtheory.lpproj import make_problem, mc_test_loss

    prob = make_problem(N=20, d=8, d_sub=3, n=50, seed=0)
    with blas_single_thread():
        mc_test_loss("lp-proj-2", prob, 0.5, attack="same-value", N_a=4, tau=3.0, n_samples=5000, seed=1)
        tracemalloc.start()
        t0 = time.perf_counter()
        e1 = mc_test_loss("lp-proj-2", prob, 0.5, attack="same-value", N_a=4, tau=3.0, n_samples=n_samples, seed=1,
                          sampler="reduced")
        secs = time.perf_counter() - t0
        peak = tracemalloc.get_traced_memory()[1] / 2 ** 20
        tracemalloc.stop()
        e2 = mc_test_loss("lp-proj-2", prob, 0.5, attack="same-value", N_a=4, tau=3.0, n_samples=n_samples, seed=1,
                          chunk=1234, sampler="reduced")
        t0 = time.perf_counter()
        mc_test_loss("lp-proj-2", prob, 0.5, attack="same-value", N_a=4, tau=3.0, n_samples=n_samples, seed=1)
        secs_full = time.perf_counter() - t0
        t0 = time.perf_counter()
        prob_rng = np.random.default_rng(0)
        prob_rng.standard_normal(n_samples * 20 * 8)
        secs_normals = time.perf_counter() - t0
    from fedtheory.lpproj import test_loss_general

    v = test_loss_general("lp-proj-2", 0.5, prob, attack="same-value", N_a=4, tau=3.0)
    return {"kernel": "lpproj-2 same-value MC (reduced sampler)", "n_samples": n_samples, "N": 20, "d": 8,
            "seconds": secs, "peak_mb": peak, "chunk_invariant": bool(e1.mean == e2.mean and e1.se == e2.se),
            "z_vs_closed_form": float(e1.z_score(v)), "seconds_full_sampler": secs_full,
            "seconds_to_draw_all_full_normals": secs_normals}


def run(quick=False):
    sizes = ["S1", "S2"] if quick else list(SIZES)
    recs = [bench_size(s, repeats=3 if quick else 5) for s in sizes]
    mc = bench_mc(20_000 if quick else 200_000)
    return {"rounds": recs, "monte_carlo": mc, "targets": TARGETS, "quick": quick}


def table(result) -> str:
    lines = [f"{'size':<5}{'normals':>12}{'roofline':>11}{'full':>10}{'2 workers':>11}{'reduced':>10}"
             f"{'reference':>11}  full/roof  sfc64/roof  ref/full  1w/2w  roof/red"]
    for r in result["rounds"]:
        s, q = r["seconds"], r["ratios"]
        lines.append(f"{r['size']:<5}{r['normals_per_round']:>12}{s['roofline'] * 1e3:>9.2f}ms{s['full'] * 1e3:>8.2f}ms"
                     f"{s['full_2workers'] * 1e3:>9.2f}ms{s['reduced'] * 1e3:>8.2f}ms"
                     f"{s.get('reference_loop', float('nan')) * 1e3:>9.2f}ms  {q['full_over_roofline']:>9.2f}"
                     f"  {q['full_sfc64_over_roofline']:>10.2f}"
                     f"  {q.get('reference_over_full', float('nan')):>8.2f}  {q['single_over_2workers']:>5.2f}"
                     f"  {q['roofline_over_reduced']:>8.2f}")
    mc = result["monte_carlo"]
    lines.append(f"Monte Carlo ({mc['kernel']}, {mc['n_samples']} replications): {mc['seconds']:.3f} s, peak "
                 f"{mc['peak_mb']:.1f} MB, chunk-invariant: {mc['chunk_invariant']}, z vs closed form "
                 f"{mc['z_vs_closed_form']:.2f}; full sampler {mc['seconds_full_sampler']:.3f} s (drawing its "
                 f"normals alone takes {mc['seconds_to_draw_all_full_normals']:.3f} s)")
    return "\n".join(lines)
