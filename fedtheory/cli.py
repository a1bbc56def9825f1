"""Command-line interface.

``fedtheory verify | list | reproduce | report | ledger | cite | calc | explore | bench``, also as
``python -m fedtheory``. Papers are plugins (entry-point group ``fedtheory.papers``): every
command that takes ``--paper`` works for an installed third-party paper exactly as for the
built-in ones.

Errors in user input print one line on stderr and exit with status 2. ``verify`` and ``report``
exit 1 if any claim has status ``fails`` or a paper plugin could not be loaded, else 0.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
import warnings

from . import __version__
from .claims import BAD_STATUSES, STATUSES, dump_json
from .plugins import get_claim, get_paper, load_papers

__all__ = ["main", "build_parser"]


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(2)


class _Formatter(argparse.ArgumentDefaultsHelpFormatter):
    """Shows each option's default after its help (none when the default is ``None`` or off)."""

    def _get_help_string(self, action):
        if action.default in (None, False, argparse.SUPPRESS) or not action.help:
            return action.help
        return super()._get_help_string(action)


def _err(msg: str) -> None:
    print(f"fedtheory: error: {' '.join(str(msg).split())}", file=sys.stderr)


def _papers(keys):
    """Papers selected by ``--paper`` (explicit keys must all load), else every paper found.

    Returns ``(papers, errors)``: with explicit keys a problem raises (one line, exit 2); without,
    broken plugins are reported on stderr and skipped.
    """
    if keys:
        return load_papers(keys, strict=True)[0], []
    papers, errors = load_papers(strict=False)
    for e in errors:
        _err(e)
    return papers, errors


def _citations(papers) -> dict:
    return {p.key: {"citation": p.citation.to_dict(),
                    "other_versions": [c.to_dict() for c in p.versions]} for p in papers}


def _cut(text: str, width: int) -> str:
    """``text`` cut at a word boundary to at most ``width`` characters, marked with ``...``."""
    if len(text) <= width:
        return text
    cut = text[: width - 3].rsplit(" ", 1)[0]
    return cut + " ..."


# ----------------------------------------------------------------------------- verify
def _verify(args) -> int:
    from .provenance import provenance

    papers, errors = _papers(args.paper)
    if args.claim:
        claims = []
        for cid in dict.fromkeys(args.claim):
            c = get_claim(cid)  # resolves former ids (aliases); raises for unknown ids
            if args.paper and c.paper not in args.paper:
                raise ValueError(f"claim {cid!r} belongs to paper {c.paper!r}, not to --paper "
                                 f"{', '.join(args.paper)}")
            claims.append(c)
        papers = [get_paper(k) for k in dict.fromkeys(c.paper for c in claims)]
    else:
        claims = [c for p in papers for c in p.claims()]
    if not claims:
        raise ValueError("no claims to run: the selected papers register none")
    verdicts = []
    t0 = time.perf_counter()
    mode = "full" if args.full else "quick"
    print(f"fedtheory verify ({mode} mode, seed {args.seed if args.seed is not None else 'default'}):"
          f" {len(claims)} claims from {', '.join(p.key for p in papers)}")
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
        print(f"  {v.status:<17} {c.id:<{width}}  {v.seconds:6.1f}s  {_cut(v.evidence, 160)}"
              if not args.verbose else f"\n{v}", flush=True)
    counts = {s: sum(v.status == s for v in verdicts) for s in STATUSES}
    print("summary: " + ", ".join(f"{n} {s}" for s, n in counts.items()) +
          f" ({time.perf_counter() - t0:.1f}s)" + (f"; {len(errors)} paper plugin(s) failed to load"
                                                     if errors else ""))
    if args.json:
        dump_json(verdicts, args.json, header={"provenance": provenance(seed=args.seed, mode=mode),
                                               "papers": _citations(papers)})
        print(f"wrote {args.json}")
    return 1 if any(counts[s] for s in BAD_STATUSES) or errors else 0


# ----------------------------------------------------------------------------- list, ledger, cite
def _list(args) -> int:
    papers, errors = _papers(args.paper)
    for p in papers:
        print(f"paper   {p.key:<40} {p.citation.text()}")
        for c in p.claims():
            print(f"claim   {c.id:<40} {c.reference}")
        for f in p.figures():
            print(f"figure  {f.id:<40} {f.reference}")
        for old, new in p.aliases().items():
            print(f"alias   {old:<40} -> {new}")
    return 1 if errors else 0


def _ledger(args) -> int:
    import json

    from .claims import to_jsonable
    from .ledger import LEDGER_STATUSES, ledger_counts
    from .provenance import provenance

    papers, errors = _papers(args.paper)
    out = {}
    for p in papers:
        rows = p.ledger()
        shown = [r for r in rows if (not args.status or r.status in args.status)
                 and (not args.ref or args.ref.lower() in r.ref.lower())]
        counts = ledger_counts(rows)
        out[p.key] = {"citation": p.citation.to_dict(), "counts": counts, "rows": [r.to_dict() for r in rows]}
        print(f"{p.key}: {p.citation.text()}")
        if not rows:
            print("  (this paper has no results ledger)\n")
            continue
        print(f"  {len(rows)} numbered results: " + ", ".join(f"{counts[s]} {s}" for s in LEDGER_STATUSES))
        w = min(28, max(len(r.ref) for r in rows))
        for r in shown:
            what = ", ".join(r.claims + r.figures) if r.status == "checked" else r.reason
            if len(r.ref) > w:  # a long reference gets a line of its own
                print(f"  {r.ref}")
            print(f"  {'' if len(r.ref) > w else r.ref:<{w}}  {r.status:<13}  {_cut(what, 120)}")
            if args.verbose:
                print(f"  {'':<{w}}  {'':<13}  {r.summary}" + (f" [{r.alt}]" if r.alt else ""))
        print()
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(to_jsonable({"provenance": provenance(), "papers": out}), fh, indent=1)
        print(f"wrote {args.json}")
    return 1 if errors else 0


def _cite(args) -> int:
    papers, errors = _papers([args.key] if args.key else None)
    print("\n\n".join(p.cite() for p in papers))
    return 1 if errors else 0


# ----------------------------------------------------------------------------- figures, report
def _reproduce(args) -> int:
    from .plugins import reproduce

    paths = reproduce(args.paper, outdir=args.out, full=args.full, seed=0 if args.seed is None else args.seed,
                      only=args.figure)
    for p in paths:
        print(f"wrote {p['png']} (+ .pdf, .json)")
    return 0


def _report(args) -> int:
    from .report import build_report

    papers, errors = _papers(args.paper)
    res = build_report(args.out, full=args.full, papers=[p.key for p in papers], seed=args.seed)
    c = res["counts"]
    print(f"wrote {res['index']} and {res['claims']}: " + ", ".join(f"{n} {s}" for s, n in c.items()) +
          f" ({res['seconds']:.1f} s)")
    return 1 if any(c[s] for s in BAD_STATUSES) or errors else 0


# ----------------------------------------------------------------------------- calc
def _calc(args) -> int:
    if args.calc_paper is None or args.calc_paper in ("-h", "--help"):
        papers, _ = load_papers(strict=False)
        with_calc = [p for p in papers if p.calc is not None]
        print("usage: fedtheory calc PAPER [options]   (fedtheory calc PAPER --help for the options)")
        for p in with_calc:
            print(f"  {p.key:<10} {p.calc.help}")
        return 0
    p = get_paper(args.calc_paper)
    calc = p.calc
    if calc is None:
        papers, _ = load_papers(strict=False)
        have = ", ".join(q.key for q in papers if q.calc is not None) or "none"
        raise ValueError(f"paper {p.key!r} has no calculator; papers with one: {have}")
    parser = _Parser(prog=f"fedtheory calc {p.key}", description=f"{calc.help}. {p.citation.text()}",
                     formatter_class=_Formatter)
    calc.arguments(parser)
    return calc.run(parser.parse_args(args.calc_args))


# ----------------------------------------------------------------------------- explore, bench
def _bench(args) -> int:
    import json

    from fedtheory_benchmarks import fedrep_round as fb

    from .provenance import provenance

    result = fb.run(quick=args.quick)
    print(fb.table(result))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"provenance": provenance(mode="quick" if args.quick else "full"), **result}, fh, indent=1)
        print(f"wrote {args.json}")
    return 0


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


# ----------------------------------------------------------------------------- parser
def _run_options() -> argparse.ArgumentParser:
    """Options shared by every command that runs claims or figures (defined once)."""
    p = argparse.ArgumentParser(add_help=False)
    g = p.add_argument_group("execution")
    g.add_argument("--workers", type=int, default=None,
                   help="local worker processes for sweeps (default: one per core); results do not depend on it")
    g.add_argument("--scheduler", default=None,
                   help="dask.distributed scheduler address (default: $FEDTHEORY_SCHEDULER, else local)")
    g.add_argument("--cache", default=None, metavar="DIR",
                   help="task cache folder (default: $FEDTHEORY_CACHE, else the user cache folder)")
    g.add_argument("--no-cache", dest="no_cache", action="store_true", help="do not read or write the task cache")
    g.add_argument("--quiet", "-q", action="store_true", help="no progress bars")
    return p


def _mode_options() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("--full", action="store_true", help="full mode: more seeds and larger sizes")
    p.add_argument("--seed", type=int, default=None,
                   help="base seed (default: each claim's own; 0 for figures)")
    return p


def _paper_option(p, what: str) -> None:
    p.add_argument("--paper", action="append", metavar="KEY",
                   help=f"only this paper's {what} (repeatable; keys: `fedtheory list`)")


def build_parser() -> argparse.ArgumentParser:
    run_opts, mode_opts = _run_options(), _mode_options()
    p = _Parser(prog="fedtheory", description="Check federated-learning theory against exact computation on "
                "linear models. Papers are plugins (entry-point group fedtheory.papers).",
                formatter_class=_Formatter)
    p.add_argument("--version", action="version", version=f"fedtheory {__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser, metavar="COMMAND")

    def add(name, help, parents=()):
        return sub.add_parser(name, help=help, description=help, parents=list(parents), formatter_class=_Formatter)

    v = add("verify", "run the claim catalogue and print verdicts (exit 1 if a claim fails)", (mode_opts, run_opts))
    _paper_option(v, "claims")
    v.add_argument("--claim", action="append", metavar="ID", help="only this claim id (repeatable; former ids accepted)")
    v.add_argument("--json", metavar="PATH", help="write the verdicts, citations and provenance as JSON")
    v.add_argument("--verbose", "-v", action="store_true", help="print paired computed/theory lines")
    v.set_defaults(func=_verify)

    li = add("list", "list papers, claim ids, figure ids and former ids with their references")
    _paper_option(li, "claims and figures")
    li.set_defaults(func=_list)

    lg = add("ledger", "print the results ledger: every numbered result of a paper and what checks it")
    _paper_option(lg, "ledger")
    lg.add_argument("--status", action="append", choices=["checked", "unchecked", "not-checkable", "out-of-scope"],
                    help="only rows with this status (repeatable)")
    lg.add_argument("--ref", default=None, help="only rows whose reference contains this text, e.g. 'Theorem 1'")
    lg.add_argument("--verbose", "-v", action="store_true", help="also print each result's summary")
    lg.add_argument("--json", metavar="PATH", help="write the ledgers as JSON")
    lg.set_defaults(func=_ledger)

    ct = add("cite", "print BibTeX for a paper (every version), or for all papers")
    ct.add_argument("key", nargs="?", default=None, help="paper key (default: all papers)")
    ct.set_defaults(func=_cite)

    r = add("reproduce", "regenerate a paper's figures (PNG, PDF, JSON sidecar)", (mode_opts, run_opts))
    r.add_argument("paper", metavar="PAPER", help="paper key")
    r.add_argument("--out", default="figures", help="output folder")
    r.add_argument("--figure", action="append", metavar="ID", help="only this figure id (repeatable)")
    r.set_defaults(func=_reproduce)

    rp = add("report", "write a self-contained HTML report (claims, errata, ledger, figures)", (mode_opts, run_opts))
    _paper_option(rp, "section")
    rp.add_argument("--out", default="report", help="output folder")
    rp.set_defaults(func=_report)

    c = add("calc", "a paper's calculator: `fedtheory calc PAPER [options]` (`fedtheory calc` lists them)")
    c.add_argument("calc_paper", nargs="?", metavar="PAPER", help="paper key")
    c.add_argument("calc_args", nargs=argparse.REMAINDER, metavar="...", help="the calculator's options")
    c.set_defaults(func=_calc)

    ex = add("explore", "interactive explorers (matplotlib widgets)")
    ex.add_argument("name", choices=["lpproj-robustness", "fedrep-contraction", "srpfl-wallclock", "lowrank-theorem1"])
    ex.add_argument("--save", default=None, help="PNG path when no display is available")
    ex.set_defaults(func=_explore)

    bn = add("bench", "benchmarks: FedRep round variants and the Monte Carlo kernel")
    bn.add_argument("--quick", action="store_true", help="S1, S2 and a short Monte Carlo only")
    bn.add_argument("--json", metavar="PATH", help="write the results as JSON")
    bn.set_defaults(func=_bench)
    return p


def _configure_execution(args):
    """Apply the shared execution options; returns the task cache (or ``None``)."""
    from .cache import configure_cache, default_cache_dir
    from .parallel import configure, set_quiet

    if args.workers is not None and args.workers < 1:
        raise ValueError(f"`workers` must be >= 1; got workers={args.workers}")
    # the CLI defaults to local processes (one per core); results do not depend on it
    configure(workers=args.workers if args.workers is not None else (os.cpu_count() or 1), scheduler=args.scheduler)
    set_quiet(args.quiet)
    return configure_cache(None if args.no_cache else
                           (args.cache or os.environ.get("FEDTHEORY_CACHE") or default_cache_dir()))


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        cache = _configure_execution(args) if hasattr(args, "no_cache") else None
        code = args.func(args)
        if cache is not None:
            print(cache.summary())
        return code
    except (ValueError, TypeError) as exc:  # PluginError is a ValueError
        _err(exc)
        return 2
    except BrokenPipeError:  # `fedtheory list | head`: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:  # pragma: no cover
        print("fedtheory: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
