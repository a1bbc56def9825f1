"""Command-line interface.

``fedtheory verify | list | findings | reproduce | report | ledger | cite | calc | explore | bench``, also as
``python -m fedtheory``. Papers are plugins (entry-point group ``fedtheory.papers``): every
command that takes ``--paper`` works for an installed third-party paper exactly as for the
built-in ones.

Errors in user input print one line on stderr and exit with status 2. ``verify`` and ``report``
exit 1 on an ``error`` verdict, on a verdict that differs from its recorded outcome (a regression),
on a ``refuted`` verdict of a claim with no recorded outcome, or when a paper plugin could not be
loaded (:func:`exit_status`); a paper that is wrong as recorded does not fail the run.
"""
from __future__ import annotations

import argparse
import math
import os
import stat
import sys
import tempfile
import time

from ._version import __version__
from .claims import BAD_STATUSES, ERROR, NOT_RUN, STATUSES, dump_json
from .plugins import get_claim, get_paper, load_papers

__all__ = ["main", "build_parser"]


def _one_line(msg) -> str:
    return " ".join(str(msg).split())


def _finite_float(text: str) -> float:
    """``float`` for options: NaN and infinities are rejected (argparse names the option)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a finite number; got {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite number; got {text!r}")
    return value


def _int_at_least(low: int):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be an integer >= {low}; got {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be an integer >= {low}; got {text!r}")
        return value

    parse.__name__ = f"int >= {low}"
    return parse


def _positive_float(text: str) -> float:
    value = _finite_float(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a finite number > 0; got {text!r}")
    return value


class _Parser(argparse.ArgumentParser):
    """One-line errors (``fedtheory: error: ...``, exit 2); ``type=float`` options reject NaN and inf
    (also in the calculators' parsers, whose options are added by the paper plugins)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.register("type", float, _finite_float)

    def error(self, message):  # one line, exit 2
        where = self.prog[len("fedtheory"):].strip() if self.prog.startswith("fedtheory") else self.prog
        print(f"fedtheory: error: {where + ': ' if where else ''}{_one_line(message)}", file=sys.stderr)
        raise SystemExit(2)


class _Formatter(argparse.ArgumentDefaultsHelpFormatter):
    """Shows each option's default after its help (none when the default is ``None`` or off: such
    options say their default in their help text)."""

    def _get_help_string(self, action):
        if (action.default is None or action.default is False or action.default is argparse.SUPPRESS
                or not action.help or "%(default)" in action.help):  # `is`: a default of 0 is shown
            return action.help
        return super()._get_help_string(action)


class UsageError(ValueError):
    """Bad command-line input found before any work starts (one line, exit 2)."""


def _err(msg: str) -> None:
    print(f"fedtheory: error: {_one_line(msg)}", file=sys.stderr)


# ----------------------------------------------------------------------------- output paths
def _nearest_existing(path: str) -> str:
    p = path
    while not os.path.lexists(p):
        parent = os.path.dirname(p)
        if parent == p:
            break
        p = parent
    return p


def _probe_folder(folder: str, what: str) -> None:
    """Create ``folder`` (and its parents) and check that a file can be created in it."""
    existing = _nearest_existing(folder)
    if os.path.lexists(existing) and not os.path.isdir(existing):
        raise UsageError(f"{what}: {existing!r} is a file, not a folder")
    try:
        os.makedirs(folder, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".fedtheory-probe-")
        os.close(fd)
        os.remove(tmp)
    except OSError as exc:
        raise UsageError(f"{what}: cannot write in {folder!r} ({exc.strerror or exc})") from None


def check_output_file(path: str, option: str) -> str:
    """Check that ``path`` can be written as a file, creating missing parent folders.

    Raises :class:`UsageError` (one line naming ``option``) for a folder, a path under a file, a
    read-only file or a folder where files cannot be created.
    """
    what = f"{option} {path!r}"
    allowed = f"; {option} takes a writable file path"
    if not path:
        raise UsageError(f"{option}: empty path{allowed}")
    full = os.path.abspath(path)
    if os.path.isdir(full):
        raise UsageError(f"{what} is a folder, not a file{allowed}")
    try:
        _probe_folder(os.path.dirname(full), what)
    except UsageError as exc:
        raise UsageError(f"{exc}{allowed}") from None
    if os.path.lexists(full):
        mode = os.stat(full).st_mode if os.path.exists(full) else 0
        if not stat.S_ISREG(mode) and not stat.S_ISCHR(mode):
            raise UsageError(f"{what} is not a regular file{allowed}")
        if stat.S_ISREG(mode) and (not os.access(full, os.W_OK) or not mode & 0o222):
            raise UsageError(f"{what} is read-only{allowed}")
    return path


def check_output_dir(path: str, option: str, files=(), folders=()) -> str:
    """Check that ``path`` can be used as an output folder (created if missing) in which ``files``
    can be written and ``folders`` created."""
    what = f"{option} {path!r}"
    allowed = f"; {option} takes a writable folder"
    if not path:
        raise UsageError(f"{option}: empty path{allowed}")
    full = os.path.abspath(path)
    if os.path.lexists(full) and not os.path.isdir(full):
        raise UsageError(f"{what} is a file, not a folder{allowed}")
    try:
        _probe_folder(full, what)
    except UsageError as exc:
        raise UsageError(f"{exc}{allowed}") from None
    for f in files:
        if os.path.isdir(os.path.join(full, f)):
            raise UsageError(f"{what}: {f!r} in it is a folder, but fedtheory writes a file there")
    for f in folders:
        q = os.path.join(full, f)
        if os.path.lexists(q) and not os.path.isdir(q):
            raise UsageError(f"{what}: {f!r} in it is a file, but fedtheory writes a folder there")
    return path


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
    """``text`` on one line (whitespace collapsed), at most ``width`` characters; a longer text is cut
    at a word boundary and marked with `` ...`` (a single word longer than the line with ``...``)."""
    text = _one_line(text)
    if len(text) <= width:
        return text
    head = text[: width - 4]
    if text[width - 4] == " ":  # the cut falls between two words
        return head.rstrip() + " ..."
    if " " in head:
        return head.rsplit(" ", 1)[0].rstrip() + " ..."
    return text[: width - 3] + "..."


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
    t0 = time.perf_counter()
    mode = "full" if args.full else "quick"
    fmt = getattr(args, "format", "table")
    log = sys.stdout if fmt == "table" else sys.stderr  # --format csv/json/latex: stdout holds the table only
    print(f"fedtheory verify ({mode} mode, seed {args.seed if args.seed is not None else 'default'}):"
          f" {len(claims)} claims from {', '.join(p.key for p in papers)}", file=log, flush=True)
    width = max(len(c.id) for c in claims)
    from .results import evaluate_claims, paper_fingerprint, results_header, verdict_store

    store = verdict_store()

    def show(c, v, printed):
        if printed:
            log.write(printed)
        if store is not None:  # saved for `fedtheory report` (fedtheory.results)
            store.put(c, v, full=args.full, seed=args.seed, fingerprint=paper_fingerprint(get_paper(c.paper)))
        flag = "  REGRESSION: recorded " + v.expected if v.regression else ""
        print(f"  {v.status:<15} {c.id:<{width}}  {v.seconds:6.1f}s  {_cut(v.evidence, 150)}{flag}"
              if not args.verbose else f"\n{v}", file=log, flush=True)

    verdicts = evaluate_claims(claims, full=args.full, seed=args.seed, on_verdict=show)
    counts = {s: sum(v.status == s for v in verdicts) for s in STATUSES}
    regressions = [v for v in verdicts if v.regression]
    consistency = sum(v.kind == "consistency" for v in verdicts)
    print("summary: " + ", ".join(f"{n} {s}" for s, n in counts.items() if n or s in ("holds", "error")) +
          (f" (of which {consistency} consistency checks)" if consistency else "") +
          f"; {len(regressions)} differ from the recorded outcome" +
          f" ({time.perf_counter() - t0:.1f}s)" + (f"; {len(errors)} paper plugin(s) failed to load"
                                                     if errors else ""), file=log)
    not_run = [v for v in verdicts if v.status == NOT_RUN]
    if not_run:
        cost = sum(v.params.get("full_cost_s", 0.0) for v in not_run)
        print(f"full mode only, not run in quick mode: {len(not_run)} claim(s), about {cost:.0f} s together in full "
              f"mode on one core: " + ", ".join(f"{v.id} ({v.params.get('full_cost_s', 0):.0f} s)" for v in not_run),
              file=log)
    from .findings import census

    print(census(verdicts).line(), file=log)
    for v in regressions:
        print(f"regression: {v.id} is {v.status}, recorded {v.expected}", file=log)
    header = {"provenance": provenance(seed=args.seed, mode=mode), "papers": _citations(papers),
              **results_header(papers)}
    if args.json:
        dump_json(verdicts, args.json, header=header)
        print(f"wrote {args.json}", file=log)
    if fmt != "table":  # fedtheory.export: the same JSON as --json, or a claim table for a paper
        from . import export

        text = export.to_json(verdicts, header) + "\n" if fmt == "json" else \
            export.to_csv(verdicts) if fmt == "csv" else export.to_latex(verdicts)
        sys.stdout.write(text)
        sys.stdout.flush()
    return exit_status(verdicts) or (1 if errors else 0)


def exit_status(verdicts) -> int:
    """``verify``'s exit status for these verdicts: 1 on an ``error``, on a verdict that differs from
    its recorded outcome (a regression), or on a ``refuted`` verdict of a claim with no recorded outcome;
    0 otherwise (a paper that is wrong as recorded does not fail the run)."""
    for v in verdicts:
        if v.status == ERROR or v.regression or (v.expected is None and v.status in BAD_STATUSES):
            return 1
    return 0


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
    from .ledger import LEDGER_STATUSES, ledger_counts, undecided_note
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
        full_only = {c.id: "not-run" for c in p.claims() if c.full_only is not None}
        for r in shown:
            what = ", ".join(r.claims + r.figures) if r.status == "checked" else r.reason
            note = undecided_note(r, full_only, "quick")
            if note:  # every claim of the row is full mode only
                what += " (full mode only: quick mode does not run them)"
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
    """``fedtheory reproduce``: write the paper's figures, leaving current ones untouched (unless ``--force``);
    one line per figure says which, and why a figure was written."""
    from .plotting import figure_outcomes
    from .plugins import reproduce

    with figure_outcomes(force=args.force) as outcomes:
        reproduce(args.paper, outdir=args.out, full=args.full, seed=0 if args.seed is None else args.seed,
                  only=args.figure)
    for o in outcomes:
        print(reproduce_line(o))
    kept = sum(not o.written for o in outcomes)
    print(f"{len(outcomes) - kept} written, {kept} current and left untouched")
    return 0


def reproduce_line(outcome) -> str:
    """One line of ``fedtheory reproduce``'s output for a :class:`fedtheory.plotting.FigureOutcome`.

    Examples
    --------
    >>> from fedtheory.plotting import FigureOutcome
    >>> reproduce_line(FigureOutcome("f", {"png": "figures/f.png"}, False, "current"))
    'kept  figures/f.png (+ .pdf, .json): current (same sources, params, seed and mode; numbers within tolerance)'
    >>> reproduce_line(FigureOutcome("f", {"png": "figures/f.png"}, True, "data.y[3]: 1 -> 1.5"))
    'wrote figures/f.png (+ .pdf, .json): data.y[3]: 1 -> 1.5'
    """
    if not outcome.written:
        return (f"kept  {outcome.paths['png']} (+ .pdf, .json): current (same sources, params, seed and mode; "
                "numbers within tolerance)")
    return f"wrote {outcome.paths['png']} (+ .pdf, .json): {outcome.reason}"


def _report(args) -> int:
    from .report import build_report

    papers, errors = _papers(args.paper)
    res = build_report(args.out, full=args.full, papers=[p.key for p in papers], seed=args.seed,
                       from_json=args.from_json, figures_dir=args.figures)
    c = res["counts"]
    src = ", ".join(f"{n} {k}" for k, n in res["source"].items() if n)
    print(f"wrote {res['index']} and {res['claims']}: " + ", ".join(f"{n} {s}" for s, n in c.items()) +
          f" (verdicts: {src}; figures: {res['figures']['reused']} reused, {res['figures']['regenerated']} "
          f"regenerated; {res['seconds']:.1f} s)")
    return exit_status(res["verdicts"]) or (1 if errors else 0)


def _findings(args) -> int:
    """``fedtheory findings``: each paper's verdicts as a referee report (:mod:`fedtheory.findings`)."""
    import contextlib
    import json

    from .findings import census, findings
    from .provenance import provenance
    from .report import collect_verdicts

    papers, errors = _papers(args.paper)
    with contextlib.redirect_stdout(sys.stderr):  # a claim that runs now prints nothing to stdout
        verdicts, source = collect_verdicts(papers, full=args.full, seed=args.seed, from_json=args.from_json)
    found = [findings(p, verdicts) for p in papers]
    if args.format == "json":
        text = json.dumps({"provenance": provenance(seed=args.seed, mode="full" if args.full else "quick"),
                           "verdict_source": source, "census": census(verdicts).to_dict(),
                           "papers": [f.to_dict() for f in found]}, indent=1) + "\n"
    elif args.format == "md":
        text = "\n".join(f.to_markdown() for f in found)
    elif args.format == "html":
        text = "\n".join(f.to_html(standalone=True) for f in found)
    else:
        text = "\n".join(f.to_text() for f in found)
        if len(found) > 1:
            text += "\nAll papers: " + census(verdicts).line() + "\n"
    sys.stdout.write(text)
    return 1 if errors else 0


# ----------------------------------------------------------------------------- calc
def calc_parser(paper) -> argparse.ArgumentParser:
    """The parser of ``fedtheory calc KEY`` for a loaded paper with a calculator."""
    calc = paper.calc
    parser = _Parser(prog=f"fedtheory calc {paper.key}", description=f"{calc.help}. {paper.citation.text()}",
                     formatter_class=_Formatter)
    calc.arguments(parser)
    return parser


def _check_finite(parser, args) -> None:
    """NaN or infinite values of any option (also of options with their own ``type``) are errors."""
    for action in parser._actions:
        value = getattr(args, action.dest, None) if action.dest else None
        values = value if isinstance(value, (list, tuple)) else [value]
        for v in values:
            if isinstance(v, float) and not math.isfinite(v):
                name = "/".join(action.option_strings) or action.dest
                parser.error(f"argument {name}: must be a finite number; got {v!r}")


def _calc(args) -> int:
    if args.calc_paper is None or args.calc_paper in ("-h", "--help"):
        if args.calc_args:
            raise UsageError(f"calc: give the paper first: fedtheory calc PAPER {' '.join(args.calc_args)}")
        papers, _ = load_papers(strict=False)
        with_calc = [p for p in papers if p.calc is not None]
        print("usage: fedtheory calc PAPER [options]   (fedtheory calc PAPER --help for the options)")
        for p in with_calc:
            print(f"  {p.key:<10} {p.calc.help}")
        return 0
    p = get_paper(args.calc_paper)
    if p.calc is None:
        papers, _ = load_papers(strict=False)
        have = ", ".join(q.key for q in papers if q.calc is not None) or "none"
        raise UsageError(f"paper {p.key!r} has no calculator; papers with one: {have}")
    parser = calc_parser(p)
    calc_args = parser.parse_args(args.calc_args)
    _check_finite(parser, calc_args)
    return p.calc.run(calc_args)


# ----------------------------------------------------------------------------- explore, bench
def _bench(args) -> int:
    import json

    from fedtheory_benchmarks import fedrep_round as fb
    from fedtheory_benchmarks import whole_call as wc

    from .provenance import provenance

    result = fb.run(quick=args.quick)
    print(fb.table(result))
    result["whole_call"] = wc.run(quick=args.quick)
    print(wc.table(result["whole_call"]))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"provenance": provenance(mode="quick" if args.quick else "full"), **result}, fh, indent=1)
        print(f"wrote {args.json}")
    return 0


def _explore(args) -> int:
    import matplotlib

    from .explore import EXPLORERS
    from .plotting import plt

    if matplotlib.get_backend().lower() == "agg":
        path = args.save or f"explore_{args.name}.png"
        if not args.save:  # the default path is checked here, before the figure is built
            check_output_file(path, "--save")
        fig = EXPLORERS[args.name]()
        fig.savefig(path)
        print(f"no display for an interactive window (backend Agg); wrote {path}. Run it in a desktop session "
              "or in Jupyter with %matplotlib widget: fedtheory.explore." + args.name.replace("-", "_") + "()")
        return 0
    fig = EXPLORERS[args.name]()
    if args.save:
        fig.savefig(args.save)
        print(f"wrote {args.save}")
    plt.show()
    return 0


# ----------------------------------------------------------------------------- parser
#: seconds to wait for a Dask scheduler to answer before giving up (``--scheduler-timeout``)
SCHEDULER_TIMEOUT = 10.0


def _run_options() -> argparse.ArgumentParser:
    """Options shared by every command that runs claims or figures (defined once)."""
    p = _Parser(add_help=False)
    g = p.add_argument_group("execution")
    g.add_argument("--workers", type=_int_at_least(1), default=None, metavar="N",
                   help="local worker processes for sweeps (default: one per core); results do not depend on "
                        "it; not with a Dask scheduler")
    g.add_argument("--scheduler", default=None, metavar="ADDR",
                   help="dask.distributed scheduler address, e.g. tcp://host:8786 (default: $FEDTHEORY_SCHEDULER, "
                        "else local)")
    g.add_argument("--scheduler-timeout", dest="scheduler_timeout", type=_positive_float, default=None,
                   metavar="SECONDS", help=f"give up if the Dask scheduler does not answer within this time "
                                           f"(default: {SCHEDULER_TIMEOUT:g}); needs a scheduler")
    g.add_argument("--cache", default=None, metavar="DIR",
                   help="task cache folder, created if missing (default: $FEDTHEORY_CACHE, else the user cache "
                        "folder); not with --no-cache")
    g.add_argument("--no-cache", dest="no_cache", action="store_true", help="do not read or write the task cache")
    g.add_argument("--quiet", "-q", action="store_true", help="no progress bars")
    return p


def _mode_options() -> argparse.ArgumentParser:
    p = _Parser(add_help=False)
    p.add_argument("--full", action="store_true", help="full mode: more seeds and larger sizes (default: quick mode)")
    p.add_argument("--seed", type=_int_at_least(0), default=None,
                   help="base seed, an integer >= 0 (default: each claim's own; 0 for figures)")
    return p


def _paper_option(p, what: str) -> None:
    p.add_argument("--paper", action="append", metavar="KEY",
                   help=f"only this paper's {what} (repeatable; keys: `fedtheory list`; default: all papers)")


def build_parser() -> argparse.ArgumentParser:
    run_opts, mode_opts = _run_options(), _mode_options()
    p = _Parser(prog="fedtheory", description="Check federated-learning theory against exact computation on "
                "linear models. Papers are plugins (entry-point group fedtheory.papers).",
                formatter_class=_Formatter)
    p.add_argument("--version", action="version", version=f"fedtheory {__version__}",
                   help="print the version and exit")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser, metavar="COMMAND",
                           help="what to do (`fedtheory COMMAND --help` for its options)")

    def add(name, help, parents=()):
        return sub.add_parser(name, help=help, description=help, parents=list(parents), formatter_class=_Formatter)

    v = add("verify", "run the claim catalogue and print verdicts (exit 1 if a claim fails)", (mode_opts, run_opts))
    _paper_option(v, "claims")
    v.add_argument("--claim", action="append", metavar="ID",
                   help="only this claim id (repeatable; former ids accepted; default: every claim of the papers)")
    v.add_argument("--json", metavar="PATH",
                   help="write the verdicts, citations and provenance as JSON (default: no JSON file)")
    v.add_argument("--format", choices=["table", "json", "csv", "latex"], default="table",
                   help="what goes to stdout: table (progress lines and a summary), json (what --json writes), "
                        "csv (one row per claim: paper, id, reference, status, computed and theory key numbers, "
                        "CI, statement, evidence) or latex (a booktabs tabular, a longtable above 25 claims; "
                        "needs \\usepackage{booktabs,longtable,array}); with json, csv or latex the progress and "
                        "summary go to stderr, "
                        "e.g. `fedtheory verify --paper fedrep --format latex > claims.tex`")
    v.add_argument("--verbose", "-v", action="store_true", help="print paired computed/theory lines")
    v.set_defaults(func=_verify)

    li = add("list", "list papers, claim ids, figure ids and former ids with their references")
    _paper_option(li, "claims and figures")
    li.set_defaults(func=_list)

    lg = add("ledger", "print the results ledger: every numbered result of a paper and what checks it")
    _paper_option(lg, "ledger")
    lg.add_argument("--status", action="append", choices=["checked", "unchecked", "not-checkable", "out-of-scope"],
                    help="only rows with this status (repeatable; default: every status)")
    lg.add_argument("--ref", default=None,
                    help="only rows whose reference contains this text, e.g. 'Theorem 1' (default: every row)")
    lg.add_argument("--verbose", "-v", action="store_true", help="also print each result's summary")
    lg.add_argument("--json", metavar="PATH", help="write the ledgers as JSON (default: no JSON file)")
    lg.set_defaults(func=_ledger)

    ct = add("cite", "print BibTeX for a paper (every version), or for all papers")
    ct.add_argument("key", nargs="?", default=None, help="paper key (default: all papers)")
    ct.set_defaults(func=_cite)

    r = add("reproduce", "regenerate a paper's figures (PNG, PDF, JSON sidecar)", (mode_opts, run_opts))
    r.add_argument("paper", metavar="PAPER", help="paper key (see `fedtheory list`)")
    r.add_argument("--out", default="figures", metavar="DIR", help="output folder, created if missing")
    r.add_argument("--figure", action="append", metavar="ID",
                   help="only this figure id (repeatable; default: every figure of the paper)")
    r.add_argument("--force", action="store_true",
                   help="rewrite every figure (default: a figure whose files in --out are current - same sources, "
                        "params, seed and mode, numbers within the tolerance its sidecar states - is left untouched)")
    r.set_defaults(func=_reproduce)

    rp = add("report", "write a self-contained HTML report (claims, errata, ledger, figures)", (mode_opts, run_opts))
    _paper_option(rp, "section")
    rp.add_argument("--out", default="report", metavar="DIR",
                    help="output folder (index.html, claims.json, figures/), created if missing")
    rp.add_argument("--from-json", dest="from_json", default=None, metavar="PATH",
                    help="take the verdicts from this `fedtheory verify --json` file; refused (exit 2) unless "
                         "it is current: same version, sources, mode, seed, and every claim of the papers "
                         "(default: the verdict cache that verify fills; missing claims are run)")
    rp.add_argument("--figures", default="figures", metavar="DIR",
                    help="reuse figures written here by `fedtheory reproduce` when their sidecars say they are "
                         "current; the others are regenerated into OUT/figures")
    rp.set_defaults(func=_report)

    fd = add("findings", "each paper's verdicts as a referee report: major findings, errata by root cause, "
                         "what holds by tightness, what the linear analogue does not reproduce", (mode_opts, run_opts))
    _paper_option(fd, "findings")
    fd.add_argument("--format", choices=["text", "md", "json", "html"], default="text",
                    help="text, md (Markdown), json (the findings and the census) or html (a standalone page)")
    fd.add_argument("--from-json", dest="from_json", default=None, metavar="PATH",
                    help="take the verdicts from this `fedtheory verify --json` file; refused (exit 2) unless "
                         "it is current (default: the verdict cache that verify fills; missing claims are run)")
    fd.set_defaults(func=_findings)

    c = add("calc", "a paper's calculator: `fedtheory calc PAPER [options]` (`fedtheory calc` lists them)")
    c.add_argument("calc_paper", nargs="?", metavar="PAPER",
                   help="paper key (default: list the papers that have a calculator)")
    c.add_argument("calc_args", nargs=argparse.REMAINDER, metavar="...",
                   help="the calculator's options, see `fedtheory calc PAPER --help` (default: none)")
    c.set_defaults(func=_calc)

    ex = add("explore", "interactive explorers (matplotlib widgets)")
    ex.add_argument("name", choices=["lpproj-robustness", "fedrep-contraction", "srpfl-wallclock", "lowrank-theorem1"],
                    help="which explorer: %(choices)s")
    ex.add_argument("--save", default=None, metavar="PATH",
                    help="also write the figure as PNG here (default: explore_NAME.png, written only when no "
                         "display is available)")
    ex.set_defaults(func=_explore)

    bn = add("bench", "benchmarks: FedRep round variants, whole calls (replicates, end to end, mom_init, memory) "
                         "and the Monte Carlo kernel")
    bn.add_argument("--quick", action="store_true", help="S1, S2 and a short Monte Carlo only (default: all sizes)")
    bn.add_argument("--json", metavar="PATH", help="write the results as JSON (default: no JSON file)")
    bn.set_defaults(func=_bench)
    return p


# ----------------------------------------------------------------------------- before any work
def _scheduler(args):
    """``(address, where it comes from)`` of the Dask scheduler in use, or ``(None, None)``."""
    if getattr(args, "scheduler", None):
        return args.scheduler, "--scheduler"
    env = os.environ.get("FEDTHEORY_SCHEDULER")
    return (env, "$FEDTHEORY_SCHEDULER") if env else (None, None)


def _cache_root(args) -> tuple[str | None, str]:
    """The task cache folder in use (``None`` with ``--no-cache``) and where it comes from."""
    if args.no_cache:
        return None, "--no-cache"
    if args.cache:
        return args.cache, "--cache"
    if os.environ.get("FEDTHEORY_CACHE"):
        return os.environ["FEDTHEORY_CACHE"], "$FEDTHEORY_CACHE"
    from .cache import default_cache_dir

    return default_cache_dir(), "the default cache folder (set --cache DIR or use --no-cache)"


def _check_options(args) -> None:
    """Options that would be ignored are errors (one line, exit 2); checked before any work."""
    if not hasattr(args, "no_cache"):
        return
    if args.cache is not None and args.no_cache:
        raise UsageError(f"--cache {args.cache} would be ignored with --no-cache; give one of them")
    address, source = _scheduler(args)
    if address and args.workers is not None:
        raise UsageError(f"--workers {args.workers} would be ignored with a Dask scheduler ({source} {address}); "
                         "drop --workers (the cluster sets the workers), or the scheduler to run locally")
    if not address and args.scheduler_timeout is not None:
        raise UsageError("--scheduler-timeout needs a Dask scheduler (--scheduler ADDR or $FEDTHEORY_SCHEDULER)")


def _check_paths(args) -> None:
    """Every output path is usable (missing parent folders are created) before any work starts."""
    cmd = args.command
    if cmd in ("verify", "ledger", "bench") and args.json:
        check_output_file(args.json, "--json")
    if cmd == "reproduce":
        check_output_dir(args.out, "--out")
    if cmd == "report":
        check_output_dir(args.out, "--out", files=("index.html", "claims.json"), folders=("figures",))
    if cmd == "explore" and args.save:
        check_output_file(args.save, "--save")
    if hasattr(args, "no_cache"):
        root, source = _cache_root(args)
        if root is not None:
            check_output_dir(root, source)


def _configure_execution(args):
    """Apply the shared execution options; returns the task cache (or ``None``)."""
    from .cache import configure_cache
    from .parallel import SchedulerUnreachable, configure, set_quiet

    address, source = _scheduler(args)
    timeout = args.scheduler_timeout if args.scheduler_timeout is not None else SCHEDULER_TIMEOUT
    try:
        # the CLI defaults to local processes (one per core); results do not depend on it
        configure(workers=args.workers if args.workers is not None else (os.cpu_count() or 1),
                  scheduler=address, timeout=timeout)
    except SchedulerUnreachable as exc:
        raise UsageError(f"{source} {address}: {exc}; start a scheduler there, fix the address, or drop "
                         f"{source} to run locally") from None
    set_quiet(args.quiet)
    return configure_cache(_cache_root(args)[0])


def _silence_stdout() -> None:
    """After a broken pipe: send what is left in stdout's buffer (and later writes) to /dev/null."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # pragma: no cover - stdout without a file descriptor
        pass


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 a claim fails or a plugin failed to
    load, 2 bad input, 130 interrupted). A closed pipe (``fedtheory list | head -1``) stops quietly."""
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        try:
            _check_options(args)
            _check_paths(args)
            cache = _configure_execution(args) if hasattr(args, "no_cache") else None
            code = args.func(args)
            if cache is not None:  # to stderr when stdout carries a table (verify --format csv/json/latex)
                print(cache.summary(),
                      file=sys.stdout if getattr(args, "format", "table") == "table" else sys.stderr)
            sys.stdout.flush()  # a closed pipe shows here, inside the handlers, not at exit
            return code
        except (ValueError, TypeError) as exc:  # UsageError and PluginError are ValueErrors
            _err(exc)
            return 2
        except OSError as exc:
            if isinstance(exc, BrokenPipeError):
                raise
            _err(f"{type(exc).__name__}: {exc}")
            return 2
        except Exception as exc:  # noqa: BLE001 - a bug: one line, the traceback on request
            if os.environ.get("FEDTHEORY_TRACEBACK"):
                raise
            _err(f"internal error ({type(exc).__name__}: {exc}); set FEDTHEORY_TRACEBACK=1 for the traceback "
                 "and please report it")
            return 1
    except SystemExit:  # --help, --version and parser errors: what --help wrote may meet a closed pipe
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            _silence_stdout()
        raise
    except BrokenPipeError:  # `fedtheory list | head`: stop quietly
        _silence_stdout()
        return 0
    except KeyboardInterrupt:
        print("fedtheory: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
