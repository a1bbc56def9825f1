"""``fedtheory report``: one self-contained HTML page with every paper's claims, errata and figures.

The page embeds the figures as base64 PNGs and carries a small script that, once loaded, checks
that every image decoded (``naturalWidth > 0``) and records the result in
``<div id="fedtheory-selfcheck">`` (used by the browser test).
"""
from __future__ import annotations

import base64
import html
import json
import os
import time

from .claims import ERRATUM, ERROR, FAILS, HOLDS, INCONCLUSIVE, STATUSES, dump_json, to_jsonable
from .ledger import LEDGER_STATUSES, ledger_counts
from .plugins import get_paper, paper_keys, reproduce

__all__ = ["build_report"]

COLORS = {HOLDS: "#d8f0d8", FAILS: "#f6c9c9", ERRATUM: "#fbe6b8", INCONCLUSIVE: "#e4e4e4", ERROR: "#e8b4f0"}

CSS = """
body{font-family:DejaVu Sans,Arial,sans-serif;margin:2em auto;max-width:1200px;color:#222}
h1{font-size:1.6em} h2{border-bottom:2px solid #ccc;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;width:100%;font-size:.82em;margin:.5em 0 1.5em}
td,th{border:1px solid #ccc;padding:4px 6px;vertical-align:top;text-align:left}
th{background:#f2f2f2} code{font-size:.95em}
.summary span{display:inline-block;padding:4px 10px;margin-right:8px;border-radius:4px}
figure{margin:1em 0;border:1px solid #ddd;padding:.5em} figure img{max-width:100%}
figcaption{font-size:.8em;color:#444}
"""

SELFCHECK = """
window.addEventListener('load', function () {
  var imgs = Array.prototype.slice.call(document.images);
  var broken = imgs.filter(function (i) { return !(i.complete && i.naturalWidth > 0); });
  var out = document.getElementById('fedtheory-selfcheck');
  out.textContent = 'images=' + imgs.length + ' broken=' + broken.length;
  out.setAttribute('data-broken', String(broken.length));
});
"""


def _fmt(x, width=160):
    s = json.dumps(to_jsonable(x))
    return s if len(s) <= width else s[: width - 3] + "..."


def _figure_html(png: str, sidecar: str) -> str:
    with open(png, "rb") as fh:
        b64 = base64.b64encode(fh.read()).decode()
    cap = os.path.basename(png)
    if os.path.exists(sidecar):
        with open(sidecar) as fh:
            meta = json.load(fh)
        cap = (f"<b>{html.escape(meta.get('figure', cap))}</b> - {html.escape(str(meta.get('reference', '')))}<br>"
               f"parameters: <code>{html.escape(_fmt(meta.get('params', {}), 600))}</code>")
    return (f'<figure><img alt="{html.escape(os.path.basename(png))}" src="data:image/png;base64,{b64}">'
            f"<figcaption>{cap}</figcaption></figure>")


LEDGER_COLORS = {"checked": COLORS[HOLDS], "unchecked": "#f3f3f3", "not-checkable": "#ffffff",
                 "out-of-scope": "#ffffff"}


def _ledger_html(rows) -> str:
    """The results ledger as a table (every numbered result and what checks it)."""
    if not rows:
        return "<h3>Results ledger</h3><p>This paper has no results ledger.</p>"
    counts = ledger_counts(rows)
    out = ["<h3>Results ledger</h3><p>" + f"{len(rows)} numbered results: " +
           ", ".join(f"{counts[s]} {s}" for s in LEDGER_STATUSES) + "</p>",
           "<table><tr><th>result</th><th>section</th><th>status</th><th>checked by / reason</th><th>summary</th></tr>"]
    for r in rows:
        what = ", ".join(f"<code>{html.escape(i)}</code>" for i in r.claims + r.figures) \
            if r.status == "checked" else html.escape(r.reason)
        alt = f" <small>({html.escape(r.alt)})</small>" if r.alt else ""
        out.append(f"<tr style='background:{LEDGER_COLORS[r.status]}'><td>{html.escape(r.ref)}{alt}</td>"
                   f"<td>{html.escape(r.section)}</td><td>{r.status}</td><td>{what}</td>"
                   f"<td>{html.escape(r.summary)}</td></tr>")
    out.append("</table>")
    return "\n".join(out)


def build_report(outdir: str = "report", *, full: bool = False, papers=None, seed=None,
                 with_figures: bool = True) -> dict:
    """Run the catalogue (and the figure reproductions) and write ``outdir/index.html`` and
    ``outdir/claims.json``. Returns the status counts and the paths.

    Each paper's section cites it (authors, year, title, venue), and shows its claims, its
    errata, its results ledger and its figures; the page and ``claims.json`` carry the run's
    provenance (:func:`fedtheory.provenance.provenance`).
    """
    from .provenance import provenance

    t0 = time.perf_counter()
    keys = list(papers) if papers else paper_keys()
    paper_objs = {k: get_paper(k) for k in keys}
    os.makedirs(outdir, exist_ok=True)
    verdicts = []
    for k in keys:
        for c in paper_objs[k].claims():
            verdicts.append(c.evaluate(full=full, seed=seed))
    figs = {}
    if with_figures:
        figdir = os.path.join(outdir, "figures")
        for k in keys:
            if paper_objs[k].figures():
                figs[k] = reproduce(k, outdir=figdir, full=full, seed=0 if seed is None else seed)
    secs = time.perf_counter() - t0
    counts = {s: sum(v.status == s for v in verdicts) for s in STATUSES}
    mode = "full" if full else "quick"
    prov = provenance(seed=seed, mode=mode)
    dump_json(verdicts, os.path.join(outdir, "claims.json"),
              header={"provenance": prov, "papers": {k: p.citation.to_dict() for k, p in paper_objs.items()}})
    prov_txt = ", ".join(f"{k} {v}" for k, v in prov.items() if v is not None)
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>fedtheory report</title><style>{CSS}</style>"
             f"</head><body><h1>fedtheory verification report ({mode} mode)</h1>",
             f"<p class='provenance'><small>{html.escape(prov_txt)}</small></p>",
             "<p class='summary'>" + "".join(
                 f"<span style='background:{COLORS[s]}'>{counts[s]} {s}</span>" for s in STATUSES) +
             f" in {secs:.1f} s over {len(verdicts)} claims</p><div id='fedtheory-selfcheck'>pending</div>"]
    for p in keys:
        vs = [v for v in verdicts if v.paper == p]
        paper = paper_objs[p]
        parts.append(f"<h2 id='{p}'>{html.escape(p)}: {html.escape(paper.citation.text())}</h2>")
        for other in paper.versions:
            parts.append(f"<p>Also cited: {html.escape(other.text())}</p>")
        parts.append("<table><tr><th>claim</th><th>reference</th><th>statement</th><th>status</th><th>observed</th>"
                     "<th>bound / closed form</th></tr>")
        for v in vs:
            parts.append(f"<tr style='background:{COLORS[v.status]}'><td><code>{html.escape(v.id)}</code></td>"
                         f"<td>{html.escape(v.reference)}</td><td>{html.escape(v.statement)}</td><td><b>{v.status}</b></td>"
                         f"<td><code>{html.escape(_fmt(v.observed))}</code></td><td><code>{html.escape(_fmt(v.bound))}</code>"
                         f"</td></tr>")
        parts.append("</table>")
        err = [v for v in vs if v.status == ERRATUM]
        if err:
            parts.append("<h3>Errata (printed form fails, corrected form holds)</h3><table><tr><th>claim</th>"
                         "<th>printed</th><th>corrected</th><th>evidence</th></tr>")
            for v in err:
                ob = v.observed if isinstance(v.observed, dict) else {}
                parts.append(f"<tr><td><code>{html.escape(v.id)}</code></td><td><code>"
                             f"{html.escape(_fmt(ob.get('printed'), 300))}</code></td><td><code>"
                             f"{html.escape(_fmt(ob.get('corrected'), 300))}</code></td><td>{html.escape(v.evidence)}</td></tr>")
            parts.append("</table>")
        parts.append(_ledger_html(paper.ledger()))
        if figs.get(p):
            parts.append("<h3>Reproduced figures</h3>")
            for f in figs[p]:
                parts.append(_figure_html(f["png"], f["json"]))
    parts.append(f"<script>{SELFCHECK}</script></body></html>")
    index = os.path.join(outdir, "index.html")
    with open(index, "w") as fh:
        fh.write("\n".join(parts))
    return {"counts": counts, "seconds": secs, "index": index, "claims": os.path.join(outdir, "claims.json")}
