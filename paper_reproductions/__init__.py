"""Paper reproductions: one entry per figure or table.

``FIGURES`` maps a figure id (``"fedrep.fig3"``) to ``(reference, function)``;
each function takes ``(outdir, full, seed)`` and writes PNG, PDF and a JSON
sidecar through :func:`fedtheory.plotting.save_figure`.
"""
from __future__ import annotations

from . import fedrep as _fedrep
from . import srpfl as _srpfl
from . import lpproj as _lpproj
from . import fedlrgd as _fedlrgd

FIGURES = {
    "fedrep.fig1": ("002_3dc82ad2944c0e6c.txt, Figure 1 (local MSE vs m; linear analogue)", _fedrep.figure1),
    "fedrep.fig3": ("002_3dc82ad2944c0e6c.txt, Figure 3 (dist vs rounds for several n)", _fedrep.figure3),
    "fedrep.fig4": ("002_3dc82ad2944c0e6c.txt, Figure 4 (new-client MSE vs m_new)", _fedrep.figure4),
    "srpfl.wallclock": ("000_bcc6d6f70d0908f0.txt, Figs. 3-6 (linear analogue: dist and MSE vs wall-clock)",
                        _srpfl.wallclock),
    "srpfl.speedup": ("000_bcc6d6f70d0908f0.txt, Theorem 4.9 (speedup vs N)", _srpfl.speedup),
    "lpproj.fig1": ("001_f32187b9e5e0af1a.txt, Figure 1 (loss vs lambda, same-value attack)", _lpproj.figure1),
    "lpproj.fairness": ("001_f32187b9e5e0af1a.txt, Theorem 32 / Prop. 18 (fairness, trade-off)", _lpproj.fairness),
    "lpproj.dsub": ("001_f32187b9e5e0af1a.txt, Remark 17 (d_sub sweep)", _lpproj.dsub),
    "lpproj.attacks": ("001_f32187b9e5e0af1a.txt, Sec. 4.2 / App. B.3 (loss vs fraction malicious)", _lpproj.attacks),
    "fedlrgd.theorem1": ("004_0bad4fc2134383fd.txt, Theorem 1 (SVD tail vs bound)", _fedlrgd.theorem1),
    "fedlrgd.appendix_c": ("004_0bad4fc2134383fd.txt, Appendix C (approximate-rank histograms, linear analogue)",
                           _fedlrgd.appendix_c),
    "fedlrgd.complexity": ("004_0bad4fc2134383fd.txt, Theorems 2-3, Prop. 1 (Gamma vs p/eps)", _fedlrgd.complexity),
    "fedlrgd.erlang": ("004_0bad4fc2134383fd.txt, Proposition 2 (Erlang quantiles)", _fedlrgd.erlang),
    "srpfl.stages": ("000_bcc6d6f70d0908f0.txt, Theorem 4.7, Lemma B.1 (per-stage dist, floors, X_r)",
                     _srpfl.stages),
}


def reproduce(paper: str, outdir: str = "figures", full: bool = False, seed: int = 0,
              only: list[str] | None = None) -> list[dict]:
    """Regenerate every figure of ``paper`` (or those in ``only``); returns the paths."""
    ids = [f for f in FIGURES if f.startswith(paper + ".")]
    if only:
        unknown = set(only) - set(ids)
        if unknown:
            raise ValueError(f"unknown figure id(s) for {paper}: {', '.join(sorted(unknown))}; "
                             f"known: {', '.join(ids) or 'none'}")
        ids = [f for f in ids if f in only]
    if not ids:
        raise ValueError(f"no figures registered for paper {paper!r} yet")
    out = []
    for f in ids:
        res = FIGURES[f][1](outdir=outdir, full=full, seed=seed)
        out.extend(res if isinstance(res, list) else [res])
    return out
