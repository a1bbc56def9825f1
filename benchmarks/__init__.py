"""Benchmarks (``fedtheory bench``): data, solvers and measurement kept apart (benchopt-style).

These are benchmarks, not timed tests: CI runs ``fedtheory bench --quick`` only to check that
they work.
"""
