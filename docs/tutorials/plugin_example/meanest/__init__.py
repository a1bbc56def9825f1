"""A fedtheory plugin for a (made-up) paper on federated mean estimation.

Every client i = 1..n holds m samples x_ij ~ N(mu, sigma^2) and uploads its sample mean; the
server averages the n uploads. The "paper" states:

* Eq. (1): the server's estimate is unbiased, E[mu_hat] = mu;
* Theorem 1: Var(mu_hat) = sigma^2 / n   (printed; the correct value is sigma^2 / (n m)).
"""
import os

import numpy as np

from fedtheory import LedgerRow, Paper, decide, mc_mean

PAPER = Paper(key="meanest", title="Federated Mean Estimation, Made Simple", authors=["A. Author", "B. Writer"],
              year=2025, venue="arXiv", arxiv="2501.00001")

# the slip Theorem 1 makes; every claim that finds it names this id, and the findings group errata by it
PAPER.root_cause("variance-drops-m", "Theorem 1 drops the m samples per client from the variance", kind="typo",
                 detail="printed Var(mu_hat) = sigma^2/n; the average of n means of m samples has sigma^2/(n m)",
                 references=("Theorem 1",))


def server_estimates(rng, size, n, m, mu, sigma):
    """``size`` independent runs of one round: the server's average of n client means."""
    x = rng.normal(mu, sigma, size=(size, n, m))
    return x.mean(axis=2).mean(axis=1)


@PAPER.claim("meanest.eq1.unbiased", reference="Eq. (1)", statement="E[mu_hat] = mu",
             regime="n = 10 clients, m = 5 samples each, mu = 1.5, sigma = 2; two-sided z test at level 1e-4")
def _eq1(full: bool, seed) -> dict:
    n, m, mu, sigma = 10, 5, 1.5, 2.0
    est = mc_mean(lambda rng, size: server_estimates(rng, size, n, m, mu, sigma),
                  n_samples=400_000 if full else 40_000, seed=seed)
    # the decision kit turns the numbers into a verdict: z test, margin and detection threshold filled in
    return decide.agreement(est, mu, what="Monte Carlo mean of mu_hat vs mu", params=dict(n=n, m=m, mu=mu, sigma=sigma))


@PAPER.claim("meanest.thm1.variance.erratum", reference="Theorem 1",
             statement="Var(mu_hat) = sigma^2 / n (printed); sigma^2 / (n m) (corrected)",
             regime="n = 10, m = 5, sigma = 2; the referee is a Monte Carlo estimate of the variance",
             root_cause="variance-drops-m")
def _thm1(full: bool, seed) -> dict:
    n, m, mu, sigma = 10, 5, 0.0, 2.0
    # E[(mu_hat - mu)^2] estimated by Monte Carlo: the referee, independent of both formulas
    est = mc_mean(lambda rng, size: (server_estimates(rng, size, n, m, mu, sigma) - mu) ** 2,
                  n_samples=400_000 if full else 40_000, seed=seed)
    printed, corrected = sigma**2 / n, sigma**2 / (n * m)
    # two decisions in one claim: Bonferroni over 2 (tests=2)
    return decide.erratum(decide.agreement(est, printed, what="printed sigma^2/n", tests=2),
                          decide.agreement(est, corrected, what="corrected sigma^2/(n m)", tests=2),
                          referee="Monte Carlo of (mu_hat - mu)^2 over simulated rounds",
                          root_cause="variance-drops-m", what="Theorem 1's variance",
                          printed_value=printed, corrected_value=corrected,
                          referee_value={"variance": est.mean, "se": est.se}, params=dict(n=n, m=m, sigma=sigma))


@PAPER.figure("meanest.fig1", reference="Figure 1")
def _fig1(outdir, full, seed):
    """Figure 1: Var(mu_hat) against m, the printed and the corrected Theorem 1, Monte Carlo points."""
    from fedtheory.plotting import plt, save_figure, style

    n, sigma, ms = 10, 2.0, [1, 2, 5, 10, 20]
    rng = np.random.default_rng(seed)
    mc = [float(np.var(server_estimates(rng, 20_000, n, m, 0.0, sigma))) for m in ms]
    with style():
        fig, ax = plt.subplots(figsize=(5, 3.2))
        ax.loglog(ms, [sigma**2 / n] * len(ms), "--", label="Theorem 1 as printed: $\\sigma^2/n$")
        ax.loglog(ms, [sigma**2 / (n * m) for m in ms], "-", label="corrected: $\\sigma^2/(nm)$")
        ax.loglog(ms, mc, "o", label="Monte Carlo (20 000 rounds)")
        ax.set_xlabel("samples per client m")
        ax.set_ylabel("Var($\\hat\\mu$)")
        ax.legend()
        return save_figure(fig, outdir, "meanest_fig1", {"m": ms, "mc": mc}, {"n": n, "sigma": sigma, "seed": seed})


PAPER.set_ledger([
    LedgerRow("Eq. (1)", "equation", "the server's estimate is unbiased", "checked", claims=("meanest.eq1.unbiased",)),
    LedgerRow("Theorem 1", "theorem", "Var(mu_hat) = sigma^2/n", "checked",
              claims=("meanest.thm1.variance.erratum",), figures=("meanest.fig1",)),
    LedgerRow("Lemma 2", "lemma", "variance of a sum of independent terms", "not-checkable",
              reason="a textbook step of Theorem 1's proof"),
])

# the outcomes the maintainers established: `fedtheory verify` exits 1 when a verdict differs (a regression)
PAPER.set_expected_outcomes(os.path.join(os.path.dirname(__file__), "outcomes.csv"))
