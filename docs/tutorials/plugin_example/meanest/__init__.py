"""A fedtheory plugin for a (made-up) paper on federated mean estimation.

Every client i = 1..n holds m samples x_ij ~ N(mu, sigma^2) and uploads its sample mean; the
server averages the n uploads. The "paper" states:

* Eq. (1): the server's estimate is unbiased, E[mu_hat] = mu;
* Theorem 1: Var(mu_hat) = sigma^2 / n   (printed; the correct value is sigma^2 / (n m)).
"""
import numpy as np
from scipy import stats

from fedtheory import LedgerRow, Paper, mc_mean

PAPER = Paper(key="meanest", title="Federated Mean Estimation, Made Simple", authors=["A. Author", "B. Writer"],
              year=2025, venue="arXiv", arxiv="2501.00001")

LEVEL = 1e-4  # significance level of each claim's decision (after Bonferroni within the claim)


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
    z = est.z_score(mu)
    crit = stats.norm.ppf(1 - LEVEL / 2)
    return dict(status="holds" if abs(z) <= crit else "fails",
                observed={"estimate": est.mean, "ci": [est.ci_low, est.ci_high], "n": est.n}, bound=mu,
                evidence=f"Monte Carlo mean {est.mean:.4f} vs mu = {mu}: |z| = {abs(z):.2f} vs critical {crit:.2f}",
                params=dict(n=n, m=m, mu=mu, sigma=sigma))


@PAPER.claim("meanest.thm1.variance.erratum", reference="Theorem 1",
             statement="Var(mu_hat) = sigma^2 / n (printed); sigma^2 / (n m) (corrected)",
             regime="n = 10, m = 5, sigma = 2; the referee is a Monte Carlo estimate of the variance")
def _thm1(full: bool, seed) -> dict:
    n, m, mu, sigma = 10, 5, 0.0, 2.0
    # E[(mu_hat - mu)^2] estimated by Monte Carlo: the referee, independent of both formulas
    est = mc_mean(lambda rng, size: (server_estimates(rng, size, n, m, mu, sigma) - mu) ** 2,
                  n_samples=400_000 if full else 40_000, seed=seed)
    printed, corrected = sigma**2 / n, sigma**2 / (n * m)
    crit = stats.norm.ppf(1 - LEVEL / 4)  # two forms, two-sided: Bonferroni over 2
    ok = {name: bool(abs(est.z_score(v)) <= crit) for name, v in (("printed", printed), ("corrected", corrected))}
    if not ok["printed"] and ok["corrected"]:
        status = "erratum-confirmed"
    elif ok["corrected"]:
        status = "holds"
    else:
        status = "fails"
    return dict(status=status, observed={"variance": est.mean, "se": est.se},
                bound={"printed": printed, "corrected": corrected},
                evidence=f"Monte Carlo variance {est.mean:.5f} (se {est.se:.1g}): printed {printed:.4f} "
                         f"(z = {est.z_score(printed):.0f}), corrected {corrected:.4f} "
                         f"(z = {est.z_score(corrected):.2f}), critical {crit:.2f}",
                referee="Monte Carlo of (mu_hat - mu)^2 over simulated rounds", params=dict(n=n, m=m, sigma=sigma))


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
