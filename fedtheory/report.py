"""``fedtheory report``: one self-contained HTML page with every paper's claims, errata, ledger and figures.

The page is built from saved results when they are current (:mod:`fedtheory.results`): the
verdicts of a ``fedtheory verify --json`` file (``from_json``), else the verdict cache that
``verify`` fills, running only the claims that are missing. Figures are reused when their sidecar
(or the report's own figure manifest) says they were made by the same version, sources, mode and
seed; the others are regenerated (their sweeps go through the task cache).

Each paper's section opens with its findings (:mod:`fedtheory.findings`: major findings, errata by
root cause, what holds by tightness, what the linear analogue does not reproduce), before the claim
tables; the header shows the census and a legend of the seven outcomes.

The page works offline: numbers are formatted (4 significant digits, intervals as ``[lo, hi]``,
arrays summarised), statements render as MathML (:mod:`fedtheory._asciimath`), figures are
inlined PNGs that enlarge on click, and a table of contents and a provenance header head the page.
A hidden element ``#fedtheory-selfcheck`` records, once the page has loaded, how many images
decoded, how many formulas are MathML and whether every internal link resolves (read by the
browser test).
"""
from __future__ import annotations

import base64
import html
import json
import math
import os
import time

from ._asciimath import math_html
from ._findings_render import CSS as FINDINGS_CSS
from ._findings_render import STATUS_COLORS, STATUS_MEANING, _flat, _is_num
from .claims import ERRATUM, HOLDS, STATUSES, Verdict, dump_json, to_jsonable
from .findings import census as _census
from .findings import findings as _findings
from .ledger import LEDGER_STATUSES, ledger_counts, undecided_note
from .plugins import get_paper, paper_keys, reproduce

__all__ = ["build_report", "default_figures_dir", "format_value", "format_number"]

#: background colour of each outcome (every outcome of fedtheory.claims.STATUSES)
COLORS = {s: STATUS_COLORS[s] for s in STATUSES}
LEDGER_COLORS = {"checked": COLORS[HOLDS], "unchecked": "#f6f6f6", "not-checkable": "#ffffff",
                 "out-of-scope": "#ffffff"}
#: units by the end of a key name
UNITS = (("seconds", "s"), ("_secs", "s"), ("_s", "s"), ("_ms", "ms"), ("bytes", "B"), ("_pct", "%"),
         ("percent", "%"))

CSS = """
body{font-family:"DejaVu Sans",Arial,sans-serif;margin:0;color:#222;line-height:1.4}
header,main{max-width:1400px;margin:0 auto;padding:0 1.5em}
header{border-bottom:3px solid #2a5d8f;padding-bottom:.6em}
h1{font-size:1.6em;margin:.8em 0 .3em} h2{border-bottom:2px solid #ccc;padding-bottom:.2em;margin-top:2.2em}
h3{margin-top:1.6em}
dl.prov{display:grid;grid-template-columns:max-content 1fr;gap:.1em 1em;font-size:.85em;margin:.4em 0}
dl.prov dt{color:#555} dl.prov dd{margin:0}
nav.toc{background:#f7f9fb;border:1px solid #d8e0e8;padding:.5em 1em;margin:1em 0;font-size:.9em}
nav.toc ol{margin:.2em 0;padding-left:1.4em} nav.toc li{margin:.15em 0}
table{border-collapse:collapse;width:100%;font-size:.84em;margin:.5em 0 1.5em}
td,th{border:1px solid #ccc;padding:4px 6px;vertical-align:top;text-align:left}
th{background:#eef2f5;position:sticky;top:0}
table.claims{table-layout:fixed} table.claims td{overflow-wrap:anywhere}
table.claims col.c1{width:12%} table.claims col.c2{width:40%} table.claims col.c3{width:8%}
table.claims col.c4,table.claims col.c5{width:20%}
table.claims td.status{overflow-wrap:normal} span.n{white-space:nowrap}
table.kv{width:auto;font-size:1em;margin:0} table.kv td{border:none;padding:0 .5em 0 0}
table.kv td.k{color:#555;overflow-wrap:normal;min-width:3em}
.status{font-weight:bold}
.summary span{display:inline-block;padding:3px 10px;margin:0 6px 4px 0;border-radius:4px}
.ev{color:#444;font-size:.92em;margin-top:.3em}
details summary{cursor:pointer;color:#2a5d8f}
figure{margin:1.2em 0;border:1px solid #ddd;padding:.6em;background:#fff}
figure img{max-width:100%;height:auto;cursor:zoom-in;display:block}
figcaption{font-size:.82em;color:#444;margin-top:.4em}
#lightbox{display:none;position:fixed;inset:0;background:rgba(0,0,0,.85);z-index:10;overflow:auto;cursor:zoom-out}
#lightbox.open{display:block} #lightbox img{display:block;margin:2vh auto;max-width:none;background:#fff}
math{font-size:1.05em}
code{font-size:.95em}
dl.legend{display:grid;grid-template-columns:max-content 1fr;gap:.1em .8em;font-size:.82em;margin:.3em 0}
dl.legend dd{margin:0} .census{font-size:.88em;color:#333;white-space:pre-line;margin:.3em 0}
""" + FINDINGS_CSS

SCRIPT = """
(function () {
  var box = document.getElementById('lightbox'), big = document.getElementById('lightbox-img');
  document.querySelectorAll('figure img').forEach(function (img) {
    img.addEventListener('click', function () { big.src = img.src; big.alt = img.alt; box.classList.add('open'); });
  });
  box.addEventListener('click', function () { box.classList.remove('open'); });
  document.addEventListener('keydown', function (e) { if (e.key === 'Escape') box.classList.remove('open'); });
})();
window.addEventListener('load', function () {
  var imgs = Array.prototype.slice.call(document.querySelectorAll('figure img'));
  var broken = imgs.filter(function (i) { return !(i.complete && i.naturalWidth > 0); });
  var links = Array.prototype.slice.call(document.querySelectorAll('a[href^="#"]'));
  var dead = links.filter(function (a) { return !document.getElementById(a.getAttribute('href').slice(1)); });
  var maths = document.getElementsByTagName('math');
  var out = document.getElementById('fedtheory-selfcheck');
  out.setAttribute('data-images', String(imgs.length));
  out.setAttribute('data-broken', String(broken.length));
  out.setAttribute('data-links', String(links.length));
  out.setAttribute('data-dead-links', String(dead.length));
  out.setAttribute('data-math', String(maths.length));
  out.setAttribute('data-done', '1');
});
"""


# ----------------------------------------------------------------------------- number formatting
def format_number(x, unit: str = "") -> str:
    """HTML of one number: integers exactly, floats to 4 significant digits (powers of ten as
    ``×10<sup>k</sup>``), infinities as ``∞``, ``None``/NaN as ``–``.

    >>> format_number(0.000123456)
    '1.235×10<sup>−4</sup>'
    >>> format_number(3), format_number(2.5, "s"), format_number(float("inf"))
    ('3', '2.5 s', '∞')
    """
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    if isinstance(x, str):
        x = {"inf": math.inf, "-inf": -math.inf}.get(x, x)
        if isinstance(x, str):
            return html.escape(x)
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, int):
        s = str(x)
    elif math.isinf(x):
        s = "∞" if x > 0 else "−∞"
    else:
        s = f"{x:.3e}" if x != 0 and not 1e-3 <= abs(x) < 1e5 else f"{x:.4g}"
        if "e" in s:
            mant, exp = s.split("e")
            s = (mant.rstrip("0").rstrip(".") if "." in mant else mant) + "e" + exp
        if "e" in s:
            mant, exp = s.split("e")
            s = ("" if mant == "1" else "−" if mant == "-1" else mant + "×") + "10<sup>" + str(int(exp)) + "</sup>"
        s = s.replace("-", "−")
    return s + (f" {unit}" if unit else "")


def _unit(key) -> str:
    key = str(key or "").lower()
    return next((u for suffix, u in UNITS if key.endswith(suffix)), "")


def _shape(x) -> list:
    shape = []
    while isinstance(x, list) and x:
        shape.append(len(x))
        x = x[0]
    return shape


def format_value(x, key=None, depth: int = 0) -> str:
    """HTML of an observed value or bound: numbers formatted, pairs as intervals, arrays summarised,
    dicts as small key/value tables.

    >>> format_value([0.01234, 0.05678], key="ci")
    '[0.01234, 0.05678]'
    >>> format_value(list(range(20)))
    '20 values: 0, 1, 2, …, 19 (min 0, max 19)'
    """
    x = to_jsonable(x)
    unit = _unit(key)
    if _is_num(x) or isinstance(x, bool):
        return f"<span class='n'>{format_number(x, unit)}</span>"
    if isinstance(x, str):
        return html.escape(x if len(x) <= 300 else x[:297] + "...")
    if isinstance(x, list):
        if not x:
            return "[]"
        if all(_is_num(v) for v in x):
            if len(x) == 2:
                return f"[{format_number(x[0], unit)}, {format_number(x[1], unit)}]"
            if len(x) <= 6:
                return "[" + ", ".join(format_number(v, unit) for v in x) + "]"
            nums = [v for v in x if isinstance(v, (int, float))]
            rng = f" (min {format_number(min(nums))}, max {format_number(max(nums))})" if nums else ""
            return (f"{len(x)} values: " + ", ".join(format_number(v, unit) for v in x[:3]) +
                    f", …, {format_number(x[-1], unit)}" + rng)
        flat = list(_flat(x))
        if all(_is_num(v) for v in flat):
            nums = [v for v in flat if isinstance(v, (int, float))]
            rng = f", range [{format_number(min(nums))}, {format_number(max(nums))}]" if nums else ""
            return "×".join(map(str, _shape(x))) + " array" + rng
        if depth >= 2 or len(x) > 8:
            return f"{len(x)} items"
        return "[" + ", ".join(format_value(v, depth=depth + 1) for v in x) + "]"
    if isinstance(x, dict):
        if not x:
            return "{}"
        if depth >= 4:
            return f"{len(x)} entries"
        if depth >= 2:  # deeper levels fold away
            word = "entry" if len(x) == 1 else "entries"
            return f"<details><summary>{len(x)} {word}</summary>{format_value(x, key, depth=-depth)}</details>"
        depth = abs(depth)
        items = list(x.items())
        rows = ["<tr><td class='k'>" + html.escape(str(k)).replace("_", "_<wbr>") + "</td><td>" + format_value(v, k, depth + 1) +
                "</td></tr>" for k, v in items]
        if len(rows) <= 8:
            return "<table class='kv'>" + "".join(rows) + "</table>"
        return ("<table class='kv'>" + "".join(rows[:6]) + "</table><details><summary>" +
                f"{len(rows) - 6} more</summary><table class='kv'>" + "".join(rows[6:]) + "</table></details>")
    return html.escape(str(x))


# ----------------------------------------------------------------------------- verdicts
def collect_verdicts(papers, *, full: bool, seed, from_json: str | None = None):
    """The verdicts of every claim of ``papers``, from saved results where they are current.

    Returns ``(verdicts, source)`` where ``source`` counts where the verdicts came from
    (``{"json": n}``, or ``{"cache": n, "fresh": m, "tampered": t}``: ``t`` of the fresh ones replaced a cache
    entry whose checksum did not match). With ``from_json`` a file that is not current
    raises :class:`fedtheory.results.StaleResults`; otherwise missing verdicts are computed (and
    stored in the verdict cache, if one is configured).
    """
    from .results import load_verify_json, paper_fingerprint, run_claim, verdict_store

    if from_json:
        vs = load_verify_json(from_json, papers, full=full, seed=seed)
        return vs, {"json": len(vs)}
    store = verdict_store()
    verdicts, source = [], {"cache": 0, "fresh": 0}
    for p in papers:
        fp = paper_fingerprint(p) if store is not None else None
        for c in p.claims():
            v = store.get(c, full=full, seed=seed, fingerprint=fp) if store is not None else None
            if v is None:
                v = run_claim(c, full=full, seed=seed)
                if store is not None:
                    store.put(c, v, full=full, seed=seed, fingerprint=fp)
                source["fresh"] += 1
            else:
                source["cache"] += 1
            verdicts.append(v)
    if store is not None:
        source["tampered"] = store.tampered
    return verdicts, source


# ----------------------------------------------------------------------------- figures
MANIFEST = "report-figures.json"


def _figure_key(paper, full: bool, seed) -> dict:
    from ._version import __version__
    from .results import paper_fingerprint

    return {"fedtheory": __version__, "source": paper_fingerprint(paper), "mode": "full" if full else "quick",
            "seed": seed}


def _sidecar_current(meta: dict, key: dict) -> bool:
    """A figure sidecar written by ``reproduce`` is current if its provenance names this version,
    mode, seed and source fingerprint (``source_fingerprint``)."""
    prov = meta.get("provenance") or {}
    fp = prov.get("source_fingerprint", meta.get("source_fingerprint"))
    return (prov.get("fedtheory") == key["fedtheory"] and prov.get("mode") == key["mode"]
            and prov.get("seed") == key["seed"] and fp == key["source"])


def _saved_figures(folder: str, key: dict, ids) -> dict:
    """``{figure id: [paths dicts]}`` of current figures found in ``folder`` (sidecars with a figure id)."""
    found: dict = {}
    if not folder or not os.path.isdir(folder):
        return found
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".json") or name == MANIFEST:
            continue
        path = os.path.join(folder, name)
        try:
            with open(path) as fh:
                meta = json.load(fh)
        except (OSError, ValueError):
            continue
        fid = meta.get("figure_id") if isinstance(meta, dict) else None
        png = path[:-5] + ".png"
        if fid in ids and os.path.exists(png) and _sidecar_current(meta, key):
            found.setdefault(fid, []).append({"png": png, "json": path})
    return found


def default_figures_dir() -> str:
    """Where ``fedtheory report`` looks for figures by default: ``./figures`` when it exists, else the
    ``figures/`` folder of the checkout fedtheory runs from (the tracked, reproducible figures), else
    ``./figures``.

    Examples
    --------
    >>> import os
    >>> os.path.basename(default_figures_dir())
    'figures'
    """
    if os.path.isdir("figures"):
        return "figures"
    tracked = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "figures")
    return tracked if os.path.isdir(tracked) else "figures"


def collect_figures(paper, outdir: str, *, full: bool, seed: int, figures_dir: str | None = "figures"):
    """The figures of ``paper``: reused when current (the report's manifest in ``outdir``, then the
    sidecars in ``figures_dir``), the others regenerated into ``outdir``. Returns
    ``(list of paths dicts, number reused, number regenerated)``."""
    figs = paper.figures()
    if not figs:
        return [], 0, 0
    if figures_dir == "figures" and not os.path.isdir(figures_dir):  # run from outside the checkout
        figures_dir = default_figures_dir()
    key = _figure_key(paper, full, seed)
    man_path = os.path.join(outdir, MANIFEST)
    try:
        with open(man_path) as fh:
            manifest = json.load(fh)
    except (OSError, ValueError):
        manifest = {}
    entry = manifest.get(paper.key) or {}
    have: dict = {}
    if entry.get("key") == key:
        for fid, paths in (entry.get("figures") or {}).items():
            if all(os.path.exists(p["png"]) for p in paths):
                have[fid] = paths
    ids = [f.id for f in figs]
    if figures_dir and os.path.abspath(figures_dir) != os.path.abspath(outdir):  # another report's figures
        try:
            with open(os.path.join(figures_dir, MANIFEST)) as fh:
                other = json.load(fh).get(paper.key) or {}
        except (OSError, ValueError, AttributeError):
            other = {}
        if other.get("key") == key:
            for fid, paths in (other.get("figures") or {}).items():
                if fid in ids and fid not in have and all(os.path.exists(p["png"]) for p in paths):
                    have[fid] = paths
    for fid, paths in _saved_figures(figures_dir, key, set(ids) - set(have)).items():
        have[fid] = paths
    missing = [i for i in ids if i not in have]
    reused = len(ids) - len(missing)
    if missing:
        for f in figs:
            if f.id in missing:
                have[f.id] = [{k: os.path.abspath(v) for k, v in d.items()}
                              for d in reproduce(paper.key, outdir=outdir, full=full, seed=seed, only=[f.id])]
    manifest[paper.key] = {"key": key, "figures": {i: have[i] for i in ids}}
    with open(man_path, "w") as fh:
        json.dump(manifest, fh, indent=1, sort_keys=True)
    return [p for i in ids for p in have[i]], reused, len(missing)


def _figure_html(png: str, sidecar: str, n: int) -> str:
    with open(png, "rb") as fh:
        b64 = base64.b64encode(fh.read()).decode()
    name = os.path.basename(png)[:-4]
    cap, params = html.escape(name), ""
    if os.path.exists(sidecar):
        try:
            with open(sidecar) as fh:
                meta = json.load(fh)
        except (OSError, ValueError):
            meta = {}
        title = meta.get("figure_id") or meta.get("figure", name)
        cap = f"<b>{html.escape(str(title))}</b>"
        if meta.get("reference"):
            cap += f" — {html.escape(str(meta['reference']))}"
        if meta.get("params"):
            params = f"<details><summary>parameters</summary>{format_value(meta['params'])}</details>"
    return (f"<figure id='fig-{n}'><img alt='{html.escape(name)}' src='data:image/png;base64,{b64}'>"
            f"<figcaption>{cap} <small>(click to enlarge)</small>{params}</figcaption></figure>")


# ----------------------------------------------------------------------------- page parts
def _anchor(claim_id: str) -> str:
    return "claim-" + "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in claim_id)


def _claims_html(vs: list[Verdict]) -> str:
    out = ["<table class='claims'><colgroup><col class='c1'><col class='c2'><col class='c3'><col class='c4'>"
           "<col class='c5'></colgroup><tr><th>claim</th><th>statement and evidence</th><th>status</th>"
           "<th>observed</th><th>bound / closed form</th></tr>"]
    for v in vs:
        extra = ""
        if v.regime or v.referee:
            extra = ("<details><summary>regime" + (" and referee" if v.referee else "") + "</summary>" +
                     (f"<div>{html.escape(v.regime)}</div>" if v.regime else "") +
                     (f"<div><i>referee:</i> {html.escape(v.referee)}</div>" if v.referee else "") + "</details>")
        out.append(f"<tr id='{_anchor(v.id)}' style='background:{COLORS[v.status]}'>"
                   f"<td><code>{html.escape(v.id)}</code><br><small>{html.escape(v.reference)}</small></td>"
                   f"<td>{math_html(v.statement)}<div class='ev'>{html.escape(v.evidence)}</div>{extra}</td>"
                   f"<td class='status'>{v.status}"
                   f"{'<br><small>consistency check</small>' if v.kind == 'consistency' else ''}</td>"
                   f"<td>{format_value(v.observed)}</td>"
                   f"<td>{format_value(v.bound)}</td></tr>")
    out.append("</table>")
    return "\n".join(out)


def _errata_html(vs: list[Verdict]) -> str:
    """The ``erratum`` verdicts: printed and corrected values (``Verdict.printed``/``corrected``, else the
    ``printed``/``corrected`` entries of ``observed``), root cause, referee and evidence."""
    out = ["<table><tr><th>claim</th><th>printed</th><th>corrected</th><th>root cause and referee</th>"
           "<th>evidence</th></tr>"]
    for v in vs:
        ob = v.observed if isinstance(v.observed, dict) else {}
        printed = v.printed if v.printed is not None else ob.get("printed")
        corrected = v.corrected if v.corrected is not None else ob.get("corrected")
        who = (f"<code>{html.escape(v.root_cause)}</code>" if v.root_cause else "") + \
              (f"<div><i>referee:</i> {html.escape(v.referee)}</div>" if v.referee else "")
        out.append(f"<tr><td><a href='#{_anchor(v.id)}'><code>{html.escape(v.id)}</code></a><br>"
                   f"<small>{html.escape(v.reference)}</small></td><td>{format_value(printed)}</td>"
                   f"<td>{format_value(corrected)}</td><td>{who}</td><td>{html.escape(v.evidence)}</td></tr>")
    out.append("</table>")
    return "\n".join(out)


def _ledger_html(rows, claim_ids, statuses=None, mode: str = "quick") -> str:
    """The results ledger as a table (every numbered result and what checks it), with its counts;
    a checked row whose claims are all undecided in this mode says so (:func:`~fedtheory.ledger.undecided_note`)."""
    if not rows:
        return "<p>This paper has no results ledger.</p>"
    counts = ledger_counts(rows)
    out = ["<p class='summary'>" + f"{len(rows)} numbered results: " + "".join(
        f"<span style='background:{LEDGER_COLORS[s]};border:1px solid #ccc'>{counts[s]} {s}</span>"
        for s in LEDGER_STATUSES) + "</p>",
        "<table><tr><th>result</th><th>section</th><th>status</th><th>checked by / reason</th><th>summary</th></tr>"]
    for r in rows:
        if r.status == "checked":
            what = ", ".join((f"<a href='#{_anchor(i)}'><code>{html.escape(i)}</code></a>" if i in claim_ids
                              else f"<code>{html.escape(i)}</code>") for i in r.claims + r.figures)
            note = undecided_note(r, statuses or {}, mode)
            if note:
                what += f"<br><small><i>{html.escape(note)}</i></small>"
        else:
            what = html.escape(r.reason)
        alt = f" <small>({html.escape(r.alt)})</small>" if r.alt else ""
        out.append(f"<tr style='background:{LEDGER_COLORS[r.status]}'><td>{html.escape(r.ref)}{alt}</td>"
                   f"<td>{html.escape(r.section)}</td><td>{r.status}</td><td>{what}</td>"
                   f"<td>{math_html(r.summary)}</td></tr>")
    out.append("</table>")
    return "\n".join(out)


def _source_text(source: dict, from_json) -> str:
    if "json" in source:
        return f"{source['json']} from <code>{html.escape(str(from_json))}</code> (fedtheory verify --json)"
    parts = []
    if source.get("cache"):
        parts.append(f"{source['cache']} from the verdict cache")
    if source.get("fresh"):
        parts.append(f"{source['fresh']} computed now")
    return ", ".join(parts) or "none"


def _provenance_html(prov: dict, source_txt: str, fig_txt: str, secs: float) -> str:
    commit = prov.get("git_commit")
    dirty = " (uncommitted changes)" if prov.get("git_dirty") else ""
    commit_txt = commit[:12] + dirty if commit else "not a git checkout"
    rows = [("fedtheory", prov.get("fedtheory")), ("git commit", commit_txt), ("date (UTC)", prov.get("date")),
            ("platform", prov.get("platform")),
            ("Python / numpy / scipy", f"{prov.get('python')} / {prov.get('numpy')} / {prov.get('scipy')}"),
            ("mode", prov.get("mode")),
            ("seed", "each claim's own" if prov.get("seed") is None else prov.get("seed"))]
    out = "".join(f"<dt>{k}</dt><dd>{html.escape(str(v))}</dd>" for k, v in rows)
    out += f"<dt>verdicts</dt><dd>{source_txt}</dd><dt>figures</dt><dd>{html.escape(fig_txt)}</dd>"
    out += f"<dt>built in</dt><dd>{secs:.1f} s</dd>"
    return f"<dl class='prov'>{out}</dl>"


# ----------------------------------------------------------------------------- the report
def build_report(outdir: str = "report", *, full: bool = False, papers=None, seed=None,
                 with_figures: bool = True, from_json: str | None = None,
                 figures_dir: str | None = "figures") -> dict:
    """Write ``outdir/index.html`` and ``outdir/claims.json`` from current saved results.

    Parameters
    ----------
    outdir : str
        Output folder (created if missing); regenerated figures go to ``outdir/figures``.
    full : bool
        Full mode (else quick).
    papers : list of str, optional
        Paper keys (default: every paper found).
    seed : int, optional
        Base seed (default: each claim's own; 0 for figures).
    with_figures : bool
        Embed the papers' figures.
    from_json : str, optional
        A ``fedtheory verify --json`` file to take the verdicts from; it must be current
        (:func:`fedtheory.results.load_verify_json`), else :class:`~fedtheory.results.StaleResults`.
        Without it, verdicts come from the verdict cache and missing ones are computed.
    figures_dir : str, optional
        Folder of figures written by ``fedtheory reproduce``, reused when current.

    Returns
    -------
    dict
        ``counts`` (per status), ``verdicts`` (the :class:`~fedtheory.claims.Verdict` objects), ``seconds``,
        ``index`` and ``claims`` paths, ``source`` (where the
        verdicts came from) and ``figures`` (``{"reused": n, "regenerated": m}``).
    """
    from .provenance import provenance

    t0 = time.perf_counter()
    keys = list(papers) if papers else paper_keys()
    paper_objs = {k: get_paper(k) for k in keys}
    os.makedirs(outdir, exist_ok=True)
    verdicts, source = collect_verdicts(list(paper_objs.values()), full=full, seed=seed, from_json=from_json)
    figs, n_reused, n_regen = {}, 0, 0
    if with_figures:
        figdir = os.path.join(outdir, "figures")
        os.makedirs(figdir, exist_ok=True)
        for k, p in paper_objs.items():
            figs[k], r, g = collect_figures(p, figdir, full=full, seed=0 if seed is None else seed,
                                            figures_dir=figures_dir)
            n_reused, n_regen = n_reused + r, n_regen + g
    counts = {s: sum(v.status == s for v in verdicts) for s in STATUSES}
    mode = "full" if full else "quick"
    prov = provenance(seed=seed, mode=mode)
    dump_json(verdicts, os.path.join(outdir, "claims.json"),
              header={"provenance": prov, "papers": {k: p.citation.to_dict() for k, p in paper_objs.items()},
                      "verdict_source": source})
    fig_txt = (f"{n_reused} reused, {n_regen} regenerated" if with_figures else "not included")
    claim_ids = {v.id for v in verdicts}

    toc = ["<nav class='toc'><b>Contents</b><ol>"]
    body, nfig = [], 0
    for k in keys:
        p = paper_objs[k]
        vs = [v for v in verdicts if v.paper == k]
        pc = {s: sum(v.status == s for v in vs) for s in STATUSES}
        err = [v for v in vs if v.status == ERRATUM]
        rows = p.ledger()
        found = _findings(p, vs)
        sub = [(f"{k}-findings", "Findings"), (f"{k}-claims", f"Claims ({len(vs)})")]
        if err:
            sub.append((f"{k}-errata", f"Errata ({len(err)})"))
        sub.append((f"{k}-ledger", f"Results ledger ({len(rows)})"))
        if figs.get(k):
            sub.append((f"{k}-figures", f"Figures ({len(figs[k])})"))
        toc.append(f"<li><a href='#{k}'>{html.escape(p.citation.short())}: {html.escape(p.title)}</a> "
                   f"<small>({', '.join(f'{n} {s}' for s, n in pc.items() if n)})</small><ol>" +
                   "".join(f"<li><a href='#{a}'>{t}</a></li>" for a, t in sub) + "</ol></li>")
        body.append(f"<section><h2 id='{k}'>{html.escape(k)}: {html.escape(p.citation.text())}</h2>")
        for other in p.versions:
            body.append(f"<p>Also cited: {html.escape(other.text())}</p>")
        if p.description:
            body.append(f"<p>{html.escape(p.description)}</p>")
        body.append(f"<h3 id='{k}-findings'>Findings</h3>")
        body.append(found.to_html(anchor=_anchor))
        body.append(f"<h3 id='{k}-claims'>Claims</h3><p class='summary'>" + "".join(
            f"<span style='background:{COLORS[s]}'>{pc[s]} {s}</span>" for s in STATUSES if pc[s]) + "</p>")
        body.append(_claims_html(vs))
        if err:
            body.append(f"<h3 id='{k}-errata'>Errata (printed form fails, corrected form holds)</h3>")
            body.append("<p>Every <code>erratum</code> verdict: the value of the printed form and of the corrected "
                        "form, decided by the referee named.</p>")
            body.append(_errata_html(err))
        body.append(f"<h3 id='{k}-ledger'>Results ledger</h3>")
        body.append(_ledger_html(rows, claim_ids, {v.id: v.status for v in vs}, found.mode))
        if figs.get(k):
            body.append(f"<h3 id='{k}-figures'>Reproduced figures</h3>")
            for f in figs[k]:
                nfig += 1
                body.append(_figure_html(f["png"], f["json"], nfig))
        body.append("</section>")
    toc.append("</ol></nav>")
    secs = time.perf_counter() - t0
    head = (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>fedtheory report</title>"
            f"<meta name='viewport' content='width=device-width, initial-scale=1'><style>{CSS}</style></head><body>"
            f"<header><h1>fedtheory verification report</h1>"
            + _provenance_html(prov, _source_text(source, from_json), fig_txt, secs) +
            "<p class='summary'>" + "".join(f"<span style='background:{COLORS[s]}'>{counts[s]} {s}</span>"
                                            for s in STATUSES) + f" over {len(verdicts)} claims</p>"
            + f"<p class='census'>{html.escape(_census(verdicts).summary())}</p>"
            + "<details open><summary>what the outcomes mean</summary><dl class='legend'>" + "".join(
                f"<dt><span class='status' style='background:{COLORS[s]};padding:0 .4em'>{s}</span></dt>"
                f"<dd>{html.escape(STATUS_MEANING[s])}</dd>" for s in STATUSES) + "</dl></details></header>")
    parts = [head, "<main>", "".join(toc), *body, "</main>",
             "<div id='lightbox' title='click or Esc to close'><img id='lightbox-img' alt=''></div>",
             "<div id='fedtheory-selfcheck' hidden></div>", f"<script>{SCRIPT}</script></body></html>"]
    index = os.path.join(outdir, "index.html")
    with open(index, "w") as fh:
        fh.write("\n".join(parts))
    return {"counts": counts, "verdicts": verdicts, "seconds": time.perf_counter() - t0, "index": index,
            "claims": os.path.join(outdir, "claims.json"), "source": source,
            "figures": {"reused": n_reused, "regenerated": n_regen}}
