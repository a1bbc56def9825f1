"""``fedtheory calc lpproj``: lp-proj closed-form test losses, optimal lambda and the Prop. 16 threshold.

Han, Li, Lin and Zhang (2024), *A Random Projection Approach to Personalized Federated Learning*,
JMLR 25: Theorem 30 (losses under attacks), Lemma 29 (optimal lambda), Proposition 16.

The attack options depend on ``--attack``: ``--N-a`` and ``--tau`` apply to ``same-value`` and
``gaussian``, ``--N-a`` and ``--M0`` (required) to ``sign-flip``, none of them to ``none``. An
option that would be ignored is an error.
"""
from __future__ import annotations

__all__ = ["HELP", "arguments", "run"]

HELP = "lp-proj closed-form benign test losses, optimal lambda and the Proposition 16 threshold"

#: defaults of the attack options that apply only to some attacks (``None`` in the parser, so that
#: an explicit value can be told from the default)
N_A, TAU = 20, 100.0


def arguments(parser) -> None:
    """Add the calculator's options to an ``argparse`` parser."""
    parser.add_argument("--method", default="all", choices=["all", "local", "fedavg", "pfedme", "ditto", "lp-proj-2"],
                        help="method whose loss to print")
    parser.add_argument("--lam", type=float, nargs="+", default=[1e-4, 1e-3, 1e-2, 1e-1],
                        help="lambda values (>= 0)")
    parser.add_argument("--N", type=int, default=100, help="clients")
    parser.add_argument("--n", type=int, default=200, help="samples per client")
    parser.add_argument("--d", type=int, default=100, help="model dimension")
    parser.add_argument("--d-sub", dest="d_sub", type=int, default=10, help="projected dimension (<= d)")
    parser.add_argument("--b", type=float, default=1.0, help="design scale b (Xi^T Xi = n b I)")
    parser.add_argument("--sigma", type=float, default=1.0, help="noise standard deviation")
    parser.add_argument("--Sigma", type=float, default=0.1, help="heterogeneity Sigma_1")
    parser.add_argument("--attack", default="same-value", choices=["none", "same-value", "sign-flip", "gaussian"],
                        help="Byzantine attack")
    parser.add_argument("--N-a", dest="N_a", type=int, default=None,
                        help=f"malicious clients, 0 <= N_a < N (default: {N_A}; not with --attack none)")
    parser.add_argument("--tau", type=float, default=None,
                        help=f"attack scale of the same-value and gaussian attacks (default: {TAU:g})")
    parser.add_argument("--M0", type=float, default=None,
                        help="second moment M0 of eq. (41) for the sign-flip attack (default: none; required with, "
                             "and only with, --attack sign-flip)")


def _check_attack_options(args) -> None:
    """Options that the chosen attack would ignore are errors; sign-flip needs ``--M0``."""
    given = [o for o, v in (("--N-a", args.N_a), ("--tau", args.tau), ("--M0", args.M0)) if v is not None]
    if args.attack == "none":
        if given:
            raise ValueError(f"{' and '.join(given)} would be ignored with --attack none; drop "
                             f"{'it' if len(given) == 1 else 'them'} or choose --attack same-value, sign-flip or "
                             "gaussian")
    elif args.attack == "sign-flip":
        if args.tau is not None:
            raise ValueError("--tau would be ignored with --attack sign-flip (its scale is --M0); drop it or "
                             "choose --attack same-value or gaussian")
        if args.M0 is None:
            raise ValueError("--M0 is required with --attack sign-flip (the second moment of eq. (41), >= 0)")
    elif args.M0 is not None:
        raise ValueError(f"--M0 would be ignored with --attack {args.attack}; it applies to --attack sign-flip "
                         "only (the scale of same-value and gaussian is --tau)")


def run(args) -> int:
    """Print the losses per method and lambda, lambda* and the threshold; returns 0."""
    from . import METHODS, optimal_lambda, proposition16_threshold

    _check_attack_options(args)
    attack = None if args.attack == "none" else args.attack
    kw = dict(N=args.N, n=args.n, d=args.d, d_sub=args.d_sub, b=args.b, sigma=args.sigma, Sigma=args.Sigma,
              attack=attack, N_a=0 if attack is None else (N_A if args.N_a is None else args.N_a),
              tau=TAU if args.tau is None else args.tau, M0=args.M0)
    if any(v < 0 for v in args.lam):
        raise ValueError(f"`lam` must be >= 0; got {args.lam}")
    methods = METHODS if args.method == "all" else [args.method]
    rows = [(m, _losses(m, args.lam, kw)) for m in methods]
    ls = optimal_lambda(**kw)
    thr = proposition16_threshold(ls, args.b)
    print(f"lp-proj linear model (benign-average test loss): {kw}")
    print(f"optimal lambda = {ls:.6g}; Proposition 16 threshold = {thr:.6g}")
    print(f"{'method':>10} " + " ".join(f"{'lam=' + format(v, 'g'):>14}" for v in args.lam))
    for m, vals in rows:
        print(f"{m:>10} " + " ".join(f"{v:>14.6g}" for v in vals))
    return 0


def _losses(method, lams, kw) -> list:
    """``test_loss(method, lam, **kw)`` at every ``lam`` of ``lams``: one vectorised call (the loss broadcasts over
    ``lam``, elementwise the same float64 operations), so the arguments are validated once; if that call raises, lam
    by lam, so that the message names the first offending value as for a single ``--lam``."""
    import numpy as np

    from . import test_loss

    try:
        return list(test_loss(method, np.array(lams, dtype=float), **kw))
    except ValueError:
        pass  # outside the handler, so that the message below is raised alone
    return [test_loss(method, lam, **kw) for lam in lams]
