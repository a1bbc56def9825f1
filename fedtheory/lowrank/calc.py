"""``fedtheory calc fedlrgd``: FedLRGD closed forms (Theorem 1 bound and r*, Theorem 2 r and S, Proposition 2).

Jadbabaie, Makur and Shah, *Federated Optimization of Smooth Loss Functions*, IEEE Trans. Inf.
Theory (2023).
"""
from __future__ import annotations

__all__ = ["HELP", "arguments", "run"]

HELP = "FedLRGD closed forms: Theorem 1 bound and r*, Theorem 2 r and S, Proposition 2 quantile bounds"


#: defaults of the options that apply only to Theorem 2 (``--kappa``/``--eps``) or Proposition 2
#: (``--b``); ``None`` in the parser, so that an explicit value can be told from the default
THEOREM2 = {"kappa": 2.0, "eps": 0.01, "alpha": 1.0, "B": 1.0, "mu": 0.1, "p": 1}
Q = 100.0


def arguments(parser) -> None:
    """Add the calculator's options to an ``argparse`` parser."""
    parser.add_argument("--d", type=int, default=2, help="latent dimension")
    parser.add_argument("--eta", type=float, default=2.0, help="Hoelder smoothness eta")
    parser.add_argument("--L2", type=float, default=1.0, help="Hoelder constant L2")
    parser.add_argument("--r", type=int, nargs="+", default=[139, 200, 400], help="ranks for the Theorem 1 bound")
    t2 = THEOREM2
    parser.add_argument("--kappa", type=float, default=None,
                        help=f"condition number; enables Theorem 2 (default: Theorem 2 off; {t2['kappa']:g} when "
                             "only --eps is given)")
    parser.add_argument("--eps", type=float, default=None,
                        help=f"target accuracy; enables Theorem 2 (default: Theorem 2 off; {t2['eps']:g} when "
                             "only --kappa is given)")
    for name, what in (("alpha", "conditioning exponent of (8)"), ("B", "bound B"), ("mu", "strong convexity mu"),
                       ("p", "parameter dimension p")):
        parser.add_argument(f"--{name}", type=int if name == "p" else float, default=None,
                            help=f"Theorem 2: {what} (default: {t2[name]:g}; needs --kappa or --eps)")
    parser.add_argument("--b", type=int, default=None,
                        help="Erlang shape; enables Proposition 2 (default: Proposition 2 off)")
    parser.add_argument("--q", type=float, default=None,
                        help=f"Proposition 2: quantile index q >= 2 (default: {Q:g}; needs --b)")


def _check_dependent_options(args) -> None:
    """Options of a result that is not computed would be ignored: errors."""
    theorem2 = args.kappa is not None or args.eps is not None
    stray = [f"--{n}" for n in ("alpha", "B", "mu", "p") if getattr(args, n) is not None]
    if stray and not theorem2:
        raise ValueError(f"{' and '.join(stray)} would be ignored without Theorem 2; add --kappa and/or --eps, "
                         f"or drop {'it' if len(stray) == 1 else 'them'}")
    if args.q is not None and args.b is None:
        raise ValueError("--q would be ignored without Proposition 2; add --b (the Erlang shape), or drop --q")


def run(args) -> int:
    """Print the requested closed forms; returns 0."""
    from . import erlang_quantile_bounds, theorem1_bound, theorem1_min_rank, theorem2_r, theorem2_S

    _check_dependent_options(args)
    if any(r < 1 for r in args.r):
        raise ValueError(f"`r` must be >= 1; got {args.r}")
    rstar = theorem1_min_rank(args.d, args.eta)
    bounds = theorem1_bound([float(r) for r in args.r], args.d, args.eta, args.L2)
    out = [f"Theorem 1 (d={args.d}, eta={args.eta}, L2={args.L2}): r* = {rstar:.6g}"]
    for r, b in zip(args.r, bounds):
        out.append(f"  r={r}: bound {b:.6g}" if b == b else f"  r={r}: below r*, not covered")
    if args.kappa is not None or args.eps is not None:
        kw = {k: THEOREM2[k] if getattr(args, k) is None else getattr(args, k) for k in THEOREM2}
        r = theorem2_r(args.d, args.eta, **kw, L2=args.L2)
        S = theorem2_S(kappa=kw["kappa"], eps=kw["eps"], B=kw["B"], mu=kw["mu"], p=kw["p"])
        out.append(f"Theorem 2: r = {r} (corrected (47)), S = {S} (48)")
    if args.b is not None:
        q = Q if args.q is None else args.q
        lo, hi = erlang_quantile_bounds(args.b, q)
        out.append(f"Proposition 2 (b={args.b}, q={q}): {lo:.6g} <= F^-1(1-1/q) <= {hi:.6g}")
    print("\n".join(out))
    return 0
