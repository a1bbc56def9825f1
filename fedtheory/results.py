"""Saved verdicts: the verdict cache and ``verify --json`` files, so a report need not re-run claims.

``fedtheory verify`` stores each claim's verdict as a small JSON file (never pickle) in the task
cache folder (``<cache>/verdicts/<key>.json``, see :mod:`fedtheory.cache`). The key covers the
claim id, the mode, the seed the claim runs with, the fedtheory version and
:func:`paper_fingerprint` (the fedtheory sources and the paper plugin's packages), so a verdict is
reused only for exactly the code that produced it. ``fedtheory report`` reads verdicts from there
(or from a ``verify --json`` file, :func:`load_verify_json`) and runs only the claims that are
missing.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
import warnings

from .claims import ERROR, Claim, Verdict, to_jsonable

__all__ = ["StaleResults", "paper_fingerprint", "verdict_key", "VerdictStore", "verdict_store",
           "run_claim", "verdict_from_dict", "results_header", "load_verify_json"]

#: fields of a :class:`~fedtheory.claims.Verdict` as written by ``Verdict.to_dict``
_FIELDS = ("id", "paper", "reference", "statement", "status", "observed", "bound", "evidence", "params",
           "seed", "mode", "seconds", "regime", "referee", "margin", "detects", "power", "root_cause", "analogue",
           "kind", "expected", "printed", "corrected")


def _checksum(record: dict) -> str:
    """SHA-256 of a verdict record's canonical JSON (sorted keys): a cache entry's integrity check."""
    return hashlib.sha256(json.dumps(record, sort_keys=True, allow_nan=False).encode()).hexdigest()


def _expected_for(claim: Claim, full: bool):
    """The recorded outcome of ``claim`` in this mode (``None`` if its paper records none or is not registered)."""
    from .plugins import get_paper

    try:
        return get_paper(claim.paper).expected(claim.id, full)
    except Exception:  # noqa: BLE001 - a claim built outside any registered paper records nothing
        return None


class StaleResults(ValueError):
    """Saved results that cannot be used for this run (the message says why, on one line)."""


_PAPER_FP: dict = {}


def paper_fingerprint(paper) -> str:
    """SHA-256 of the fedtheory sources and of every package the paper's claims and figures come from.

    Parameters
    ----------
    paper : fedtheory.Paper
        A paper plugin; its ``modules``, the module defining it and the modules of its claim and
        figure functions are covered (each through its whole top-level package).
    """
    from .cache import source_fingerprint

    mods = set(paper.modules)
    mods |= {c.func.__module__ for c in paper.claims()}
    mods |= {f.func.__module__ for f in paper.figures()}
    mods.discard(None)
    key = (paper.key, tuple(sorted(mods)))
    if key not in _PAPER_FP:
        _PAPER_FP[key] = source_fingerprint(mods)
    return _PAPER_FP[key]


def _mode(full: bool) -> str:
    return "full" if full else "quick"


def verdict_key(claim: Claim, *, full: bool, seed, fingerprint: str) -> str:
    """Key of a claim's verdict: claim id, mode, the seed it runs with, version and source fingerprint.

    ``seed=None`` means the claim's own default seed, so ``verify`` and ``verify --seed S`` with
    ``S`` equal to that default share an entry.
    """
    from ._version import __version__

    seed = claim.default_seed if seed is None else seed
    blob = json.dumps({"claim": claim.id, "mode": _mode(full), "seed": to_jsonable(seed), "version": __version__,
                       "source": fingerprint}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()


def verdict_from_dict(d: dict) -> Verdict:
    """A :class:`~fedtheory.claims.Verdict` from its ``to_dict()`` form (a ``verify --json`` record).

    Raises
    ------
    ValueError
        A field is missing or the status is unknown.
    """
    if not isinstance(d, dict):
        raise ValueError(f"a verdict record must be a JSON object; got {type(d).__name__}")
    missing = [k for k in ("id", "paper", "reference", "statement", "status", "observed", "bound") if k not in d]
    if missing:
        raise ValueError(f"verdict record {d.get('id', '?')!r} lacks {', '.join(missing)}")
    kw = {k: d[k] for k in _FIELDS if k in d}
    kw["params"] = kw.get("params") or {}
    kw["seconds"] = float(kw.get("seconds") or 0.0)
    for k in ("evidence", "regime", "referee", "root_cause", "analogue"):
        kw[k] = kw.get(k) or ""
    kw["kind"] = kw.get("kind") or "paper"
    return Verdict(**kw)


class VerdictStore:
    """Verdicts as JSON files under ``root/verdicts`` (atomic writes, no pickle).

    Each entry carries the SHA-256 of its verdict record. An unreadable or mismatching entry is ignored
    (and removed), never used; an entry whose checksum does not match its record (edited by hand, or
    damaged) is counted in ``tampered`` and recomputed. The recorded outcome attached to a stored verdict
    is the paper's current one, not the one stored.
    """

    def __init__(self, root: str):
        self.root = os.path.join(root, "verdicts")
        os.makedirs(self.root, exist_ok=True)
        self.hits = self.misses = self.tampered = 0

    def _path(self, key: str) -> str:
        return os.path.join(self.root, f"{key}.json")

    def get(self, claim: Claim, *, full: bool, seed, fingerprint: str) -> Verdict | None:
        """The stored verdict of ``claim`` for this mode, seed and source, or ``None``."""
        key = verdict_key(claim, full=full, seed=seed, fingerprint=fingerprint)
        p = self._path(key)
        if not os.path.exists(p):
            self.misses += 1
            return None
        try:
            with open(p) as fh:
                rec = json.load(fh)
            if rec.get("key") != key or rec["verdict"].get("id") != claim.id:
                raise ValueError("key mismatch")
            if rec.get("sha256") != _checksum(rec["verdict"]):
                self.tampered += 1
                raise ValueError("checksum mismatch")
            v = verdict_from_dict({**rec["verdict"], "expected": _expected_for(claim, full)})
        except Exception:  # noqa: BLE001 - a damaged entry is recomputed, never used
            self.misses += 1
            try:
                os.remove(p)
            except OSError:
                pass
            return None
        self.hits += 1
        return v

    def put(self, claim: Claim, verdict: Verdict, *, full: bool, seed, fingerprint: str) -> bool:
        """Store ``verdict`` (not an ``error`` verdict: those are retried). Returns whether it was stored."""
        if verdict.status == ERROR:
            return False
        key = verdict_key(claim, full=full, seed=seed, fingerprint=fingerprint)
        fd, tmp = tempfile.mkstemp(dir=self.root, suffix=".tmp")
        try:
            with os.fdopen(fd, "w") as fh:
                record = verdict.to_dict()
                json.dump({"key": key, "verdict": record, "sha256": _checksum(record)}, fh)
            os.replace(tmp, self._path(key))
        finally:
            if os.path.exists(tmp):
                os.remove(tmp)
        return True


def verdict_store() -> VerdictStore | None:
    """The verdict store of the configured task cache (``None`` with ``--no-cache``)."""
    from .cache import current_cache

    cache = current_cache()
    return VerdictStore(cache.root) if cache is not None else None


def run_claim(claim: Claim, *, full: bool, seed) -> Verdict:
    """Evaluate ``claim`` as ``verify`` does: warnings raised inside are counted in the evidence, and BLAS
    runs on one thread (as in every worker process), so the floating-point summation order, and every bit
    of the verdict, is the same for any number of workers; several BLAS threads on small matrices mostly
    contend (the method-of-moments initialisation ran about 20x slower with them)."""
    from .linalg import blas_single_thread

    with warnings.catch_warnings(record=True) as caught, blas_single_thread():
        warnings.simplefilter("always")
        v = claim.evaluate(full=full, seed=seed, expected=_expected_for(claim, full))
    if caught:
        kinds = sorted({w.category.__name__ for w in caught})
        v = type(v)(**{**v.__dict__, "evidence": v.evidence + f" [{len(caught)} warning(s): {', '.join(kinds)}]"})
    return v


def _claim_task(task) -> tuple:
    """Worker side of :func:`evaluate_claims`: ``(claim id, full, seed) -> (verdict, printed text)``.

    The worker runs its claim's own sweeps serially (the claims are the parallelism), and what the
    claim prints is returned to the parent instead of being written to the worker's stdout."""
    import contextlib
    import io

    from .parallel import run_serially_here
    from .plugins import get_claim

    claim_id, full, seed = task
    run_serially_here()
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        v = run_claim(get_claim(claim_id), full=full, seed=seed)
    return v, buf.getvalue()


def evaluate_claims(claims, *, full: bool, seed, on_verdict=None) -> list[Verdict]:
    """Evaluate claims as ``verify`` does, in parallel over claims when local workers are configured.

    With the process backend and more than one worker (:func:`fedtheory.parallel.configure`, the
    CLI's ``--workers``), each worker evaluates whole claims and runs their sweeps serially;
    otherwise the claims run one after the other here, their sweeps on the configured backend.
    Every claim draws from its own seed, so the verdicts are the same either way.

    Parameters
    ----------
    claims : sequence of Claim
        Claims of registered papers (a worker finds each by its id).
    full : bool
        Full mode.
    seed : int or None
        The base seed (``None``: each claim's own).
    on_verdict : callable, optional
        ``on_verdict(claim, verdict, printed)`` is called here for each claim in the order of
        ``claims``, as soon as it and every claim before it are done; ``printed`` is what the claim
        wrote to stdout.

    Returns
    -------
    list of Verdict
        In the order of ``claims``.
    """
    import contextlib
    import io

    from .parallel import current_config, map_tasks

    claims = list(claims)
    cfg = current_config()
    workers = cfg["workers"] or 1
    out: list = [None] * len(claims)
    if cfg["backend"] != "processes" or workers <= 1 or len(claims) <= 1:
        for i, c in enumerate(claims):
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                out[i] = run_claim(c, full=full, seed=seed)
            if on_verdict is not None:
                on_verdict(c, out[i], buf.getvalue())
        return out
    done: dict = {}
    shown = [0]

    def ready(i, result):
        done[i] = result
        while shown[0] in done:
            j = shown[0]
            out[j] = done[j][0]
            if on_verdict is not None:
                on_verdict(claims[j], done[j][0], done[j][1])
            shown[0] += 1

    map_tasks(_claim_task, [(c.id, bool(full), seed) for c in claims], backend="processes",
              workers=min(workers, len(claims)), on_done=ready)
    return out


def results_header(papers) -> dict:
    """What ``verify --json`` records so that a later report can tell whether the file is current:
    ``{"fingerprints": {paper key: paper_fingerprint}}``."""
    return {"fingerprints": {p.key: paper_fingerprint(p) for p in papers}}


def load_verify_json(path: str, papers, *, full: bool, seed) -> list[Verdict]:
    """The verdicts of a ``fedtheory verify --json`` file, if it is current for this run.

    Current means: written by this fedtheory version, from the same sources (the file's
    ``fingerprints`` equal :func:`paper_fingerprint` of every requested paper), in the same mode
    with the same ``--seed``, and holding a verdict for every claim of every requested paper.

    Raises
    ------
    StaleResults
        One line saying why the file cannot be used (or that it cannot be read).
    """
    from ._version import __version__

    try:
        with open(path) as fh:
            data = json.load(fh)
    except OSError as exc:
        raise StaleResults(f"--from-json {path!r}: cannot read it ({exc.strerror or exc})") from None
    except json.JSONDecodeError as exc:
        raise StaleResults(f"--from-json {path!r}: not JSON ({exc.msg} at line {exc.lineno})") from None
    where = f"--from-json {path!r}"
    if not isinstance(data, dict) or not isinstance(data.get("verdicts"), list):
        raise StaleResults(f"{where}: not a `fedtheory verify --json` file (no list of verdicts)")
    prov = data.get("provenance") or {}
    if prov.get("fedtheory") != __version__:
        raise StaleResults(f"{where} was written by fedtheory {prov.get('fedtheory')}, this is {__version__}; "
                           "run `fedtheory verify --json` again")
    if prov.get("mode") != _mode(full):
        raise StaleResults(f"{where} holds {prov.get('mode')}-mode verdicts; this report is {_mode(full)} mode")
    if prov.get("seed") != seed:
        raise StaleResults(f"{where} was run with seed {prov.get('seed')}, this report with seed {seed}")
    fps = data.get("fingerprints") or {}
    by_id = {}
    for rec in data["verdicts"]:
        try:
            v = verdict_from_dict(rec)
        except (ValueError, TypeError) as exc:
            raise StaleResults(f"{where}: malformed verdict ({exc})") from None
        by_id[v.id] = v
    out = []
    for p in papers:
        if p.key not in fps:
            raise StaleResults(f"{where} does not cover paper {p.key!r}; run `fedtheory verify --json` for it")
        if fps[p.key] != paper_fingerprint(p):
            raise StaleResults(f"{where} is stale: the code of paper {p.key!r} (fedtheory or its plugin) changed "
                               "since it was written; run `fedtheory verify --json` again")
        claims = p.claims()
        missing = [c.id for c in claims if c.id not in by_id]
        if missing:
            raise StaleResults(f"{where} covers {len(claims) - len(missing)} of {len(claims)} claims of {p.key!r} "
                               f"(missing: {', '.join(missing[:3])}{', ...' if len(missing) > 3 else ''})")
        out += [by_id[c.id] for c in claims]
    return out
