"""Command-line interface: ``fedtheory verify | list | reproduce | speedup | lpproj | fedlrgd``.

Errors in user input print one line on stderr and exit with status 2.
``verify`` exits 1 if any claim has status ``fails``, else 0.
"""
from __future__ import annotations

import argparse
import sys
import time
import warnings

from .claims import FAILS, PAPERS, STATUSES, dump_json, registry

__all__ = ["main"]


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2
        print(f"fedtheory: error: {message}", file=sys.stderr)
        raise SystemExit(2)


def _verify(args) -> int:
    claims = registry(args.paper)
    if args.claim:
        wanted = set(args.claim)
        unknown = wanted - {c.id for c in claims}
        if unknown:
            raise ValueError(f"unknown claim id(s): {', '.join(sorted(unknown))}; run `fedtheory list`")
        claims = [c for c in claims if c.id in wanted]
    if not claims:
        raise ValueError(f"no claims registered for paper {args.paper!r} yet")
    verdicts = []
    t0 = time.perf_counter()
    mode = "full" if args.full else "quick"
    print(f"fedtheory verify ({mode} mode, seed {args.seed if args.seed is not None else 'default'}):"
          f" {len(claims)} claims")
    width = max(len(c.id) for c in claims)
    for c in claims:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            v = c.evaluate(full=args.full, seed=args.seed)
        if caught:
            kinds = sorted({w.category.__name__ for w in caught})
            v = type(v)(**{**v.__dict__, "evidence": v.evidence + f" [{len(caught)} warning(s): "
                                                                    f"{', '.join(kinds)}]"})
        verdicts.append(v)
        print(f"  {v.status:<17} {c.id:<{width}}  {v.seconds:6.1f}s  {v.evidence[:160]}"
              if not args.verbose else f"\n{v}", flush=True)
    counts = {s: sum(v.status == s for v in verdicts) for s in STATUSES}
    print(f"summary: " + ", ".join(f"{n} {s}" for s, n in counts.items()) +
          f" ({time.perf_counter() - t0:.1f}s)")
    if args.json:
        dump_json(verdicts, args.json)
        print(f"wrote {args.json}")
    return 1 if counts[FAILS] else 0


def _list(args) -> int:
    from paper_reproductions import FIGURES

    for c in registry(args.paper):
        print(f"claim   {c.id:<40} {c.seed_file}, {c.reference}")
    for fid, (ref, _) in FIGURES.items():
        if args.paper is None or fid.startswith(args.paper + "."):
            print(f"figure  {fid:<40} {ref}")
    return 0


def _reproduce(args) -> int:
    from paper_reproductions import FIGURES, reproduce

    paths = reproduce(args.paper, outdir=args.out, full=args.full, seed=args.seed,
                      only=args.figure)
    for p in paths:
        print(f"wrote {p['png']} (+ .pdf, .json)")
    return 0


def _speedup(args) -> int:
    from .srpfl import idealised_wallclock, lemma_b2_bound, lemma_b3_bound, theorem49_ratio_bound

    rows = []
    for N in args.N:  # compute first, so bad input fails before anything is printed
        ts, _, _ = idealised_wallclock(N, args.n0, args.a, args.c_hat, args.lam, args.c)
        tf, _, _ = idealised_wallclock(N, args.n0, args.a, args.c_hat, args.lam, args.c,
                                       schedule="fedrep")
        rows.append((N, ts, tf, theorem49_ratio_bound(N, args.c_hat, args.c),
                     lemma_b2_bound(N, args.a, args.c_hat, args.lam, args.c),
                     lemma_b3_bound(N, args.a, args.c_hat, args.lam)))
    print(f"idealised wall-clock (SRPFL Thm 4.9 model): n0={args.n0}, a={args.a}, c={args.c}, "
          f"c_hat={args.c_hat}, lambda={args.lam}")
    print(f"{'N':>7} {'T_SRPFL':>11} {'T_FedRep':>11} {'ratio':>7} {'Thm4.9':>7} {'B.2 bound':>11} "
          f"{'B.3 bound':>11}")
    for N, ts, tf, t49, b2, b3 in rows:
        print(f"{N:>7} {ts:>11.4g} {tf:>11.4g} {ts / tf:>7.3f} {t49:>7.3f} {b2:>11.4g} {b3:>11.4g}")
    return 0


def _lpproj(args) -> int:
    from .lpproj import METHODS, optimal_lambda, proposition16_threshold, test_loss

    kw = dict(N=args.N, n=args.n, d=args.d, d_sub=args.d_sub, b=args.b, sigma=args.sigma,
              Sigma=args.Sigma, attack=None if args.attack == "none" else args.attack, N_a=args.N_a,
              tau=args.tau, M0=args.M0)
    if kw["attack"] is None:
        kw["N_a"] = 0
    if any(v < 0 for v in args.lam):
        raise ValueError(f"`lam` must be >= 0; got {args.lam}")
    methods = METHODS if args.method == "all" else [args.method]
    rows = [(m, [test_loss(m, lam, **kw) for lam in args.lam]) for m in methods]
    ls = optimal_lambda(**kw)
    thr = proposition16_threshold(ls, args.b)
    print(f"lp-proj linear model (benign-average test loss): {kw}")
    print(f"optimal lambda = {ls:.6g}; Proposition 16 threshold = {thr:.6g}")
    print(f"{'method':>10} " + " ".join(f"{'lam=' + format(l, 'g'):>14}" for l in args.lam))
    for m, vals in rows:
        print(f"{m:>10} " + " ".join(f"{v:>14.6g}" for v in vals))
    return 0


def _fedlrgd(args) -> int:
    from .lowrank import (erlang_quantile_bounds, theorem1_bound, theorem1_min_rank, theorem2_r,
                          theorem2_S)

    if any(r < 1 for r in args.r):
        raise ValueError(f"`r` must be >= 1; got {args.r}")
    rstar = theorem1_min_rank(args.d, args.eta)
    bounds = theorem1_bound([float(r) for r in args.r], args.d, args.eta, args.L2)
    out = [f"Theorem 1 (d={args.d}, eta={args.eta}, L2={args.L2}): r* = {rstar:.6g}"]
    for r, b in zip(args.r, bounds):
        out.append(f"  r={r}: bound {b:.6g}" if b == b else f"  r={r}: below r*, not covered")
    if args.kappa is not None or args.eps is not None:
        kw = dict(alpha=args.alpha, kappa=args.kappa if args.kappa is not None else 2.0,
                  eps=args.eps if args.eps is not None else 0.01, B=args.B, mu=args.mu, p=args.p, L2=args.L2)
        r = theorem2_r(args.d, args.eta, **kw)
        S = theorem2_S(kappa=kw["kappa"], eps=kw["eps"], B=args.B, mu=args.mu, p=args.p)
        out.append(f"Theorem 2: r = {r} (corrected (47)), S = {S} (48)")
    if args.b is not None:
        lo, hi = erlang_quantile_bounds(args.b, args.q)
        out.append(f"Proposition 2 (b={args.b}, q={args.q}): {lo:.6g} <= F^-1(1-1/q) <= {hi:.6g}")
    print("\n".join(out))
    return 0


def _bench(args) -> int:
    import json

    from benchmarks import fedrep_round as fb

    result = fb.run(quick=args.quick)
    print(fb.table(result))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(result, fh, indent=1)
        print(f"wrote {args.json}")
    return 0


def _report(args) -> int:
    from .report import build_report

    res = build_report(args.out, full=args.full, papers=args.paper, seed=args.seed)
    c = res["counts"]
    print(f"wrote {res['index']} and {res['claims']}: " + ", ".join(f"{n} {s}" for s, n in c.items()) +
          f" ({res['seconds']:.1f} s)")
    return 1 if c["fails"] else 0


def _explore(args) -> int:
    from .explore import EXPLORERS
    from .plotting import plt

    fig = EXPLORERS[args.name]()
    import matplotlib

    if matplotlib.get_backend().lower() == "agg":
        path = args.save or f"explore_{args.name}.png"
        fig.savefig(path)
        print(f"no display for an interactive window (backend Agg); wrote {path}. Run it in a desktop session "
              "or in Jupyter with %matplotlib widget: fedtheory.explore." + args.name.replace("-", "_") + "()")
        return 0
    plt.show()
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="fedtheory", description="Check federated-learning theory against exact "
                "computation on linear models.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    papers = list(PAPERS)
    v = sub.add_parser("verify", help="run the claim catalogue and print verdicts")
    v.add_argument("--paper", choices=papers, help="only this paper's claims")
    v.add_argument("--claim", action="append", help="only this claim id (repeatable)")
    v.add_argument("--full", action="store_true", help="more seeds and sizes")
    v.add_argument("--seed", type=int, help="base seed (default: each claim's own)")
    v.add_argument("--json", metavar="PATH", help="write the verdicts as JSON")
    v.add_argument("--verbose", "-v", action="store_true", help="print paired computed/theory lines")
    v.add_argument("--workers", type=int, default=None, help="local worker processes for sweeps (default: one per core)")
    v.add_argument("--cache", default=None, help="task cache folder (default: $FEDTHEORY_CACHE or the user cache dir)")
    v.add_argument("--no-cache", dest="no_cache", action="store_true", help="do not read or write the task cache")
    v.add_argument("--quiet", "-q", action="store_true", help="no progress bars")
    v.add_argument("--scheduler", default=None, help="dask.distributed scheduler address (or FEDTHEORY_SCHEDULER)")
    v.set_defaults(func=_verify)
    li = sub.add_parser("list", help="list claim ids and figure ids with their references")
    li.add_argument("--paper", choices=papers)
    li.set_defaults(func=_list)
    r = sub.add_parser("reproduce", help="regenerate a paper's figures (PNG, PDF, JSON sidecar)")
    r.add_argument("paper", choices=papers)
    r.add_argument("--out", default="figures", help="output folder (default: figures/)")
    r.add_argument("--full", action="store_true", help="more seeds")
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--figure", action="append", help="only this figure id (repeatable)")
    r.add_argument("--workers", type=int, default=None, help="local worker processes for sweeps (default: one per core)")
    r.add_argument("--cache", default=None, help="task cache folder (default: $FEDTHEORY_CACHE or the user cache dir)")
    r.add_argument("--no-cache", dest="no_cache", action="store_true", help="do not read or write the task cache")
    r.add_argument("--quiet", "-q", action="store_true", help="no progress bars")
    r.add_argument("--scheduler", default=None, help="dask.distributed scheduler address (or FEDTHEORY_SCHEDULER)")
    r.set_defaults(func=_reproduce)
    s = sub.add_parser("speedup", help="SRPFL vs FedRep idealised wall-clock times (Theorem 4.9)")
    s.add_argument("--N", type=int, nargs="+", default=[256, 1024, 4096])
    s.add_argument("--n0", type=int, default=4)
    s.add_argument("--a", type=float, default=0.05, help="contraction constant a of Theorem 4.7")
    s.add_argument("--c", type=float, default=0.0, help="communication cost C = c/lambda")
    s.add_argument("--c-hat", dest="c_hat", type=float, default=1.2, help="target factor in (1, sqrt 2)")
    s.add_argument("--lam", type=float, default=1.0, help="exponential rate of compute times")
    s.set_defaults(func=_speedup)
    lp = sub.add_parser("lpproj", help="lp-proj closed-form test losses, optimal lambda and threshold")
    lp.add_argument("--method", default="all",
                    choices=["all", "local", "fedavg", "pfedme", "ditto", "lp-proj-2"])
    lp.add_argument("--lam", type=float, nargs="+", default=[1e-4, 1e-3, 1e-2, 1e-1])
    lp.add_argument("--N", type=int, default=100)
    lp.add_argument("--n", type=int, default=200)
    lp.add_argument("--d", type=int, default=100)
    lp.add_argument("--d-sub", dest="d_sub", type=int, default=10)
    lp.add_argument("--b", type=float, default=1.0)
    lp.add_argument("--sigma", type=float, default=1.0)
    lp.add_argument("--Sigma", type=float, default=0.1)
    lp.add_argument("--attack", default="same-value", choices=["none", "same-value", "sign-flip", "gaussian"])
    lp.add_argument("--N-a", dest="N_a", type=int, default=20)
    lp.add_argument("--tau", type=float, default=100.0)
    lp.add_argument("--M0", type=float, default=None)
    lp.set_defaults(func=_lpproj)
    fl = sub.add_parser("fedlrgd", help="FedLRGD closed forms: Theorem 1 bound and r*, Theorem 2 r and S, Prop. 2")
    fl.add_argument("--d", type=int, default=2)
    fl.add_argument("--eta", type=float, default=2.0)
    fl.add_argument("--L2", type=float, default=1.0)
    fl.add_argument("--r", type=int, nargs="+", default=[139, 200, 400])
    fl.add_argument("--kappa", type=float, default=None)
    fl.add_argument("--eps", type=float, default=None)
    fl.add_argument("--alpha", type=float, default=1.0)
    fl.add_argument("--B", type=float, default=1.0)
    fl.add_argument("--mu", type=float, default=0.1)
    fl.add_argument("--p", type=int, default=1)
    fl.add_argument("--b", type=int, default=None, help="Erlang shape for Proposition 2")
    fl.add_argument("--q", type=float, default=100.0, help="quantile index q >= 2 for Proposition 2")
    fl.set_defaults(func=_fedlrgd)
    rp = sub.add_parser("report", help="write a self-contained HTML report (claims, errata, figures)")
    rp.add_argument("--out", default="report", help="output folder (default: report/)")
    rp.add_argument("--full", action="store_true")
    rp.add_argument("--paper", action="append", choices=papers, help="only this paper (repeatable)")
    rp.add_argument("--seed", type=int, default=None)
    rp.add_argument("--workers", type=int, default=None, help="local worker processes for sweeps")
    rp.add_argument("--scheduler", default=None)
    rp.add_argument("--cache", default=None)
    rp.add_argument("--no-cache", dest="no_cache", action="store_true")
    rp.add_argument("--quiet", "-q", action="store_true")
    rp.set_defaults(func=_report)
    ex = sub.add_parser("explore", help="interactive explorers (matplotlib widgets)")
    ex.add_argument("name", choices=["lpproj-robustness", "fedrep-contraction", "srpfl-wallclock", "lowrank-theorem1"])
    ex.add_argument("--save", default=None, help="PNG path when no display is available")
    ex.set_defaults(func=_explore)
    bn = sub.add_parser("bench", help="benchmarks: FedRep round variants and the Monte Carlo kernel")
    bn.add_argument("--quick", action="store_true", help="S1, S2 and a short Monte Carlo only")
    bn.add_argument("--json", metavar="PATH")
    bn.set_defaults(func=_bench)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if hasattr(args, "workers"):
            from .parallel import configure

            if args.workers is not None and args.workers < 1:
                raise ValueError(f"`workers` must be >= 1; got workers={args.workers}")
            import os as _os

            # the CLI defaults to local processes (one per core); results do not depend on it
            configure(workers=args.workers if args.workers is not None else (_os.cpu_count() or 1),
                      scheduler=args.scheduler)
        if hasattr(args, "quiet"):
            from .parallel import set_quiet

            set_quiet(args.quiet)
        cache = None
        if hasattr(args, "no_cache"):
            import os

            from .cache import configure_cache, default_cache_dir

            cache = configure_cache(None if args.no_cache else
                                    (args.cache or os.environ.get("FEDTHEORY_CACHE") or default_cache_dir()))
        code = args.func(args)
        if cache is not None:
            print(cache.summary())
        return code
    except (ValueError, TypeError) as exc:
        print(f"fedtheory: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # pragma: no cover
        print("fedtheory: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
