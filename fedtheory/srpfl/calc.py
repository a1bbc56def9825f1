"""``fedtheory calc srpfl``: SRPFL vs FedRep idealised wall-clock times and the speedup bounds.

Tziotis, Shen, Pedarsani, Hassani and Mokhtari, *Straggler-Resilient Personalized Federated
Learning* (TMLR): Theorem 4.9's model, Lemmas B.2 and B.3.
"""
from __future__ import annotations

__all__ = ["HELP", "arguments", "run"]

HELP = "SRPFL vs FedRep idealised wall-clock times and the Theorem 4.9 / Lemma B.2-B.3 bounds"


def arguments(parser) -> None:
    """Add the calculator's options to an ``argparse`` parser."""
    parser.add_argument("--N", type=int, nargs="+", default=[256, 1024, 4096], help="numbers of clients")
    parser.add_argument("--n0", type=int, default=4, help="clients in the first stage")
    parser.add_argument("--a", type=float, default=0.05, help="contraction constant a of Theorem 4.7")
    parser.add_argument("--c", type=float, default=0.0, help="communication cost C = c/lambda")
    parser.add_argument("--c-hat", dest="c_hat", type=float, default=1.2, help="target factor in (1, sqrt 2)")
    parser.add_argument("--lam", type=float, default=1.0, help="exponential rate of compute times")


def run(args) -> int:
    """Print one row per N: idealised times, their ratio and the bounds; returns 0."""
    from . import idealised_wallclock, lemma_b2_bound, lemma_b3_bound, theorem49_ratio_bound

    rows = []
    for N in args.N:  # compute first, so bad input fails before anything is printed
        ts, _, _ = idealised_wallclock(N, args.n0, args.a, args.c_hat, args.lam, args.c)
        tf, _, _ = idealised_wallclock(N, args.n0, args.a, args.c_hat, args.lam, args.c, schedule="fedrep")
        rows.append((N, ts, tf, theorem49_ratio_bound(N, args.c_hat, args.c),
                     lemma_b2_bound(N, args.a, args.c_hat, args.lam, args.c),
                     lemma_b3_bound(N, args.a, args.c_hat, args.lam)))
    print(f"idealised wall-clock (SRPFL Thm 4.9 model): n0={args.n0}, a={args.a}, c={args.c}, "
          f"c_hat={args.c_hat}, lambda={args.lam}")
    print(f"{'N':>7} {'T_SRPFL':>11} {'T_FedRep':>11} {'ratio':>7} {'Thm4.9':>7} {'B.2 bound':>11} "
          f"{'B.3 bound':>11}")
    for N, ts, tf, t49, b2, b3 in rows:
        ratio = f"{ts / tf:>7.3f}" if tf > 0 else f"{'-':>7}"
        print(f"{N:>7} {ts:>11.4g} {tf:>11.4g} {ratio} {t49:>7.3f} {b2:>11.4g} {b3:>11.4g}")
    if any(tf == 0 for _, _, tf, *_ in rows):
        print("ratio '-': both times are 0, the start (dist 1) already meets the target (12) for this N")
    return 0
