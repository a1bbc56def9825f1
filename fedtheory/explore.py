"""Interactive explorers built on matplotlib widgets (desktop windows and Jupyter ``%matplotlib widget``).

Each function returns the figure; its sliders are in ``fig.fedtheory_sliders`` (name -> Slider) so
that code and tests can drive them. Closed-form curves update instantly; exact runs update with a
bounded budget (``rounds``).

In Jupyter, run ``%matplotlib widget`` (ipympl, the ``jupyter`` extra) first: the sliders are
matplotlib widgets, which ipympl drives from the browser, and the figure redraws in the notebook
when one moves. With the default inline backend the figure is a static PNG and its sliders cannot
be dragged (``set_val`` from code still works). ``examples/*.ipynb`` open one explorer per paper.

Dependent sliders stay valid: moving one slider narrows the range of the sliders that depend on
it (``N_a < N`` and ``d_sub <= d`` for lp-proj; ``k <= d``, ``m >= k`` and ``r >= 1/n`` for FedRep)
and moves a value that left its range to the nearest valid one, so the plotted model is always the
one the sliders show.

* :func:`lpproj_robustness` - lp-proj benign test loss against lambda (same-value attack);
* :func:`fedrep_contraction` - FedRep Theorem 1 bound against an exact run;
* :func:`srpfl_wallclock` - SRPFL vs FedRep idealised wall-clock times against N;
* :func:`lowrank_theorem1` - FedLRGD Theorem 1: SVD tail against the bound.
"""
from __future__ import annotations

import numpy as np

from .plotting import plt

__all__ = ["EXPLORERS", "lpproj_robustness", "fedrep_contraction", "srpfl_wallclock", "lowrank_theorem1"]


def _sliders(fig, specs, top=0.30):
    from matplotlib.widgets import Slider

    fig.subplots_adjust(bottom=top + 0.07)
    out = {}
    h = top / (len(specs) + 1)
    for i, (name, lo, hi, val, step) in enumerate(specs):
        ax = fig.add_axes([0.18, top - (i + 1) * h, 0.62, h * 0.6])
        out[name] = Slider(ax, name, lo, hi, valinit=val, valstep=step)
        out[name].fedtheory_range = (lo, hi)
    fig.fedtheory_sliders = out
    return out


def _limit(slider, lo=None, hi=None) -> float:
    """Restrict ``slider`` to ``[lo, hi]`` (within its own range): dragging stops at the ends, and a
    value outside is moved to the nearest end without firing the callbacks. Returns the value."""
    lo0, hi0 = slider.fedtheory_range
    lo = lo0 if lo is None else min(max(lo, lo0), hi0)
    hi = hi0 if hi is None else max(min(hi, hi0), lo)
    slider.valmin, slider.valmax = lo, hi
    v = min(max(slider.val, lo), hi)
    if v != slider.val:
        events, slider.eventson = slider.eventson, False
        try:
            slider.set_val(v)
        finally:
            slider.eventson = events
    return v


def lpproj_robustness(**init):
    """lp-proj Figure 1 as an explorer: sliders N, N_a, tau, d_sub, Sigma, n (closed forms, instant)."""
    from .lpproj import optimal_lambda, proposition16_threshold, test_loss

    p = dict(N=100, N_a=20, tau=100.0, d_sub=10, Sigma=0.1, n=200)
    p.update(init)
    lams = np.logspace(-6, 1, 300)
    fig, ax = plt.subplots(figsize=(8, 7))
    lines = {m: ax.plot(lams, lams * 0, label=m)[0] for m in ("pfedme", "lp-proj-2")}
    loc = ax.axhline(0, color="0.5", ls="--", label="local")
    avg = ax.axhline(0, color="#d62728", ls="--", label="FedAvg")
    thr = ax.axvline(1, color="#9467bd", ls="-.", label="threshold")
    ax.set_xscale("log"); ax.set_yscale("log")
    ax.set_xlabel(r"$\lambda$"); ax.set_ylabel("benign-average test loss")
    ax.legend(fontsize=8)
    s = _sliders(fig, [("N", 10, 500, p["N"], 1), ("N_a", 0, 200, p["N_a"], 1), ("tau", 0, 200, p["tau"], None),
                       ("d_sub", 1, 100, p["d_sub"], 1), ("Sigma", 0.001, 1.0, p["Sigma"], None),
                       ("n", 10, 1000, p["n"], 1)])

    def update(_=None):
        N, d = int(s["N"].val), 100
        N_a = int(_limit(s["N_a"], hi=N - 1))  # 0 <= N_a < N
        d_sub = int(_limit(s["d_sub"], hi=d))  # d_sub <= d
        kw = dict(N=N, n=int(s["n"].val), d=d, d_sub=d_sub, b=1.0, sigma=1.0, Sigma=float(s["Sigma"].val),
                  attack="same-value", N_a=N_a, tau=float(s["tau"].val))
        for m, ln in lines.items():
            ln.set_ydata(test_loss(m, lams, **kw))
        loc.set_ydata([test_loss("local", **kw)] * 2)
        avg.set_ydata([test_loss("fedavg", **kw)] * 2)
        t = proposition16_threshold(optimal_lambda(**kw), 1.0)
        thr.set_xdata([t if np.isfinite(t) else lams[-1]] * 2)
        ax.set_title(f"lambda_1* = {optimal_lambda(**kw):.3g}, threshold = {t:.3g}", fontsize=9)
        ax.relim(); ax.autoscale_view()
        fig.canvas.draw_idle()
        fig.fedtheory_params = kw

    for sl in s.values():
        sl.on_changed(update)
    update()
    fig.fedtheory_lambda = lams
    fig.fedtheory_lines = lines
    return fig


def fedrep_contraction(rounds: int = 40, **init):
    """FedRep Theorem 1 explorer: sliders d, k, n, m, r, eta, sigma; an exact run (<= ``rounds``) and the bound."""
    from .representation import client_diversity, make_model, n_selected, run_fedrep, theorem1_bound

    p = dict(d=20, k=2, n=20, m=20, r=0.5, eta=0.125, sigma=0.0)
    p.update(init)
    fig, ax = plt.subplots(figsize=(8, 7))
    t = np.arange(rounds + 1)
    run_line, = ax.plot(t, t * 0 + 1, label="exact run: dist(B^t, B*)")
    bound_line, = ax.plot(t, t * 0 + 1, "k--", label="Theorem 1 bound")
    status = ax.text(0.02, 0.02, "", transform=ax.transAxes, fontsize=8, color="#b00000")
    ax.set_yscale("log"); ax.set_xlabel("round t"); ax.set_ylabel("principal-angle distance")
    ax.legend(fontsize=8)
    s = _sliders(fig, [("d", 4, 60, p["d"], 1), ("k", 1, 5, p["k"], 1), ("n", 4, 200, p["n"], 1),
                       ("m", 2, 100, p["m"], 1), ("r", 0.05, 1.0, p["r"], None), ("eta", 0.01, 0.5, p["eta"], None),
                       ("sigma", 0.0, 1.0, p["sigma"], None)])

    def update(_=None):
        d, n = int(s["d"].val), int(s["n"].val)
        k = int(_limit(s["k"], hi=d))  # k <= d
        m = int(_limit(s["m"], lo=k))  # m >= k: the exact head solve
        r = float(_limit(s["r"], lo=1.0 / n))  # r n >= 1: at least one client per round
        fig.fedtheory_params = dict(d=d, k=k, n=n, m=m, r=r, eta=float(s["eta"].val), sigma=float(s["sigma"].val))
        status.set_text("computing ..."); fig.canvas.draw_idle()
        model = make_model(d, k, n, sigma=float(s["sigma"].val), seed=0)
        res = run_fedrep(d, k, n, m, r, rounds, eta=float(s["eta"].val), model=model, m_test=0, seed=1)
        dv = client_diversity(model.W_star, n_selected(n, r), max_exact=20_000)
        run_line.set_ydata(np.maximum(res.dist, 1e-16))
        bound_line.set_ydata(theorem1_bound(t, res.dist[0], res.eta, res.E0, dv.sigma_min))
        status.set_text(f"sigma_min={dv.sigma_min:.3g} ({'exact' if dv.exact else 'estimated'}), E0={res.E0:.3g}")
        ax.relim(); ax.autoscale_view()
        fig.canvas.draw_idle()
        fig.fedtheory_result = res

    for sl in s.values():
        sl.on_changed(update)
    update()
    fig.fedtheory_lines = {"run": run_line, "bound": bound_line}
    return fig


def srpfl_wallclock(**init):
    """SRPFL vs FedRep idealised expected wall-clock time against N: sliders log2 N, c, c_hat, lambda."""
    from .srpfl import idealised_wallclock, theorem49_ratio_bound

    p = dict(log2N=10, c=0.0, c_hat=1.2, lam=1.0, a=0.05, n0=4)
    p.update(init)
    Ns = 2 ** np.arange(5, 15)
    fig, ax = plt.subplots(figsize=(8, 7))
    ls_, = ax.plot(Ns, Ns * 0 + 1.0, "o-", label="SRPFL (idealised)")
    lf_, = ax.plot(Ns, Ns * 0 + 1.0, "s-", label="FedRep (idealised)")
    mark = ax.axvline(2 ** p["log2N"], color="0.5", lw=0.8)
    ax.set_xscale("log", base=2); ax.set_yscale("log")
    ax.set_xlabel("N"); ax.set_ylabel("expected wall-clock time to the target (12)")
    ax.legend(fontsize=8)
    s = _sliders(fig, [("log2N", 5, 14, p["log2N"], 1), ("c", 0.0, 100.0, p["c"], None),
                       ("c_hat", 1.01, 1.41, p["c_hat"], None), ("lam", 0.1, 10.0, p["lam"], None)])

    def update(_=None):
        c, ch, lam = float(s["c"].val), float(s["c_hat"].val), float(s["lam"].val)
        ts = [idealised_wallclock(int(N), p["n0"], p["a"], ch, lam, c)[0] for N in Ns]
        tf = [idealised_wallclock(int(N), p["n0"], p["a"], ch, lam, c, schedule="fedrep")[0] for N in Ns]
        ls_.set_ydata(ts); lf_.set_ydata(tf)
        N = 2 ** int(s["log2N"].val)
        mark.set_xdata([N, N])
        i = int(np.where(Ns == N)[0][0])
        ax.set_title(f"N={N}: ratio {ts[i] / tf[i]:.3f}, Theorem 4.9 bound {theorem49_ratio_bound(N, ch, c):.3f}",
                     fontsize=9)
        ax.relim(); ax.autoscale_view()
        fig.canvas.draw_idle()
        fig.fedtheory_times = (np.array(ts), np.array(tf))
        fig.fedtheory_params = dict(N=N, c=c, c_hat=ch, lam=lam, a=p["a"], n0=p["n0"])

    for sl in s.values():
        sl.on_changed(update)
    update()
    fig.fedtheory_N = Ns
    fig.fedtheory_lines = {"srpfl": ls_, "fedrep": lf_}
    return fig


def lowrank_theorem1(**init):
    """FedLRGD Theorem 1 explorer: sliders eta, L2, d (1 or 2), matrix size; SVD tail vs bound."""
    from .lowrank import Cosine, L1Power, PowerSum, svd_tail, theorem1_bound

    p = dict(eta=1.5, L2=1.0, d=2, size=200)
    p.update(init)
    fig, ax = plt.subplots(figsize=(8, 7))
    tail_line, = ax.plot([1], [1], label="SVD tail")
    bound_line, = ax.plot([1], [1], "k--", label="Theorem 1 bound")
    ax.set_xscale("log"); ax.set_yscale("log")
    ax.set_xlabel("rank r"); ax.set_ylabel("(1/nk) sum_{i>r} sigma_i^2")
    ax.legend(fontsize=8)
    s = _sliders(fig, [("eta", 0.1, 2.0, p["eta"], 0.1), ("L2", 0.1, 5.0, p["L2"], None), ("d", 1, 2, p["d"], 1),
                       ("size", 50, 400, p["size"], 10)])

    def update(_=None):
        # eta on its 0.1 grid (a dragged value such as 2.0000000000000004 would leave Cosine's eta = 2)
        eta, L2, d, size = round(float(s["eta"].val), 6), float(s["L2"].val), int(s["d"].val), int(s["size"].val)
        fn = (L1Power if eta <= 1 else PowerSum if eta < 2 else Cosine)(eta=eta, L2=L2, d=d, p=d)
        rng = np.random.default_rng(0)
        M = fn.matrix(rng.uniform(0, 1, (size, d)), fn.sample_theta(rng, size))
        r = np.arange(1, size + 1)
        tail = svd_tail(M)
        # tail[min(n, k)] = 0 and tails below ~(eps sigma_1)^2 are round-off: not drawn (they would stretch
        # the log axis down to 1e-32 and squash the curve and the bound)
        tail_line.set_data(r, np.where(tail[1:] > 1e-28 * tail[0], tail[1:], np.nan))
        bound_line.set_data(r, theorem1_bound(r.astype(float), d, eta, L2))
        ax.set_title(f"{type(fn).__name__}(eta={eta:g}, L2={L2:g}), d={d}, {size} x {size}", fontsize=9)
        ax.relim(); ax.autoscale_view()
        fig.canvas.draw_idle()
        fig.fedtheory_function = fn
        fig.fedtheory_params = dict(eta=eta, L2=L2, d=d, size=size)

    for sl in s.values():
        sl.on_changed(update)
    update()
    fig.fedtheory_lines = {"tail": tail_line, "bound": bound_line}
    return fig


EXPLORERS = {"lpproj-robustness": lpproj_robustness, "fedrep-contraction": fedrep_contraction,
             "srpfl-wallclock": srpfl_wallclock, "lowrank-theorem1": lowrank_theorem1}
