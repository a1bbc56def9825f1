"""False-alarm study of the claim catalogue: run every claim over many seeds and count how many
verdicts change.

A claim whose statistical decisions are made at ``CLAIM_LEVEL`` (after Bonferroni within the
claim) should keep its verdict across seeds; a true identity that flips to ``fails`` at some seed
reveals a missing multiple-testing correction. With K stochastic claims at level alpha each, the
family-wise false-alarm rate of one ``fedtheory verify`` run is at most K alpha (union bound);
this study measures it.

Run (not part of CI; about 20 x the quick ``verify`` time, divided by the workers)::

    python -m fedtheory_benchmarks.false_alarm --seeds 20 --workers 2 --json false_alarm.json
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter

__all__ = ["run_study", "main"]


def _one(args):
    claim_id, seed = args
    from fedtheory import get_claim

    v = get_claim(claim_id).evaluate(full=False, seed=seed)
    return claim_id, seed, v.status, v.seconds


def run_study(seeds: int = 20, workers: int = 1, papers=None) -> dict:
    """Evaluate every claim (of ``papers``, default all) at seeds ``0 .. seeds-1`` in quick mode.

    Returns ``{"statuses": {claim: [status per seed]}, "changed": [...], "fails": [...], ...}``.
    """
    from fedtheory import load_papers
    from fedtheory.cache import configure_cache

    configure_cache(None)
    ps, _ = load_papers(papers, strict=bool(papers))
    jobs = [(c.id, s) for p in ps for c in p.claims() for s in range(seeds)]
    t0 = time.perf_counter()
    if workers > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(workers) as ex:
            out = list(ex.map(_one, jobs, chunksize=1))
    else:
        out = [_one(j) for j in jobs]
    statuses: dict[str, list] = {}
    for cid, seed, status, _ in sorted(out, key=lambda r: (r[0], r[1])):
        statuses.setdefault(cid, []).append(status)
    changed = {c: dict(Counter(v)) for c, v in statuses.items() if len(set(v)) > 1}
    fails = {c: [s for s, st in enumerate(v) if st in ("fails", "error")] for c, v in statuses.items()
             if any(st in ("fails", "error") for st in v)}
    runs_with_a_fail = sum(any(statuses[c][s] in ("fails", "error") for c in statuses) for s in range(seeds))
    return {"seeds": seeds, "claims": len(statuses), "statuses": statuses, "changed": changed, "fails": fails,
            "verify_runs_with_a_fails": runs_with_a_fail, "seconds": time.perf_counter() - t0}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m fedtheory_benchmarks.false_alarm", description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=20, help="seeds 0 .. SEEDS-1 (default: 20)")
    ap.add_argument("--workers", type=int, default=1, help="worker processes (default: 1)")
    ap.add_argument("--paper", action="append", help="only this paper (repeatable)")
    ap.add_argument("--json", help="write the per-claim statuses as JSON")
    a = ap.parse_args(argv)
    res = run_study(a.seeds, a.workers, a.paper)
    print(f"{res['claims']} claims x {res['seeds']} seeds in {res['seconds']:.0f} s")
    print(f"claims whose verdict changes with the seed: {len(res['changed'])}")
    for c, cnt in sorted(res["changed"].items()):
        print(f"  {c:<45} {cnt}")
    print(f"claims with a fails/error at some seed: {len(res['fails'])}")
    for c, s in sorted(res["fails"].items()):
        print(f"  {c:<45} seeds {s}")
    print(f"verify runs (seeds) with at least one fails/error: {res['verify_runs_with_a_fails']} of {res['seeds']}")
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(res, fh, indent=1)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
