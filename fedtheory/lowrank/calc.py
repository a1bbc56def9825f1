"""``fedtheory calc fedlrgd``: FedLRGD closed forms (Theorem 1 bound and r*, Theorem 2 r and S, Proposition 2).

Jadbabaie, Makur and Shah, *Federated Optimization of Smooth Loss Functions*, IEEE Trans. Inf.
Theory (2023).
"""
from __future__ import annotations

__all__ = ["HELP", "arguments", "run"]

HELP = "FedLRGD closed forms: Theorem 1 bound and r*, Theorem 2 r and S, Proposition 2 quantile bounds"


def arguments(parser) -> None:
    """Add the calculator's options to an ``argparse`` parser."""
    parser.add_argument("--d", type=int, default=2, help="latent dimension")
    parser.add_argument("--eta", type=float, default=2.0, help="Hoelder smoothness eta")
    parser.add_argument("--L2", type=float, default=1.0, help="Hoelder constant L2")
    parser.add_argument("--r", type=int, nargs="+", default=[139, 200, 400], help="ranks for the Theorem 1 bound")
    parser.add_argument("--kappa", type=float, default=None, help="condition number (enables Theorem 2)")
    parser.add_argument("--eps", type=float, default=None, help="target accuracy (enables Theorem 2)")
    parser.add_argument("--alpha", type=float, default=1.0, help="conditioning exponent of (8)")
    parser.add_argument("--B", type=float, default=1.0, help="bound B of Theorem 2")
    parser.add_argument("--mu", type=float, default=0.1, help="strong convexity mu")
    parser.add_argument("--p", type=int, default=1, help="parameter dimension p")
    parser.add_argument("--b", type=int, default=None, help="Erlang shape for Proposition 2")
    parser.add_argument("--q", type=float, default=100.0, help="quantile index q >= 2 for Proposition 2")


def run(args) -> int:
    """Print the requested closed forms; returns 0."""
    from . import erlang_quantile_bounds, theorem1_bound, theorem1_min_rank, theorem2_r, theorem2_S

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
