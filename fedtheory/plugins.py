"""Finding paper plugins: the ``fedtheory.papers`` entry-point group, and the claim registry.

Every paper, built-in or third-party, is a :class:`~fedtheory.Paper` exposed as an entry point
in the group ``fedtheory.papers`` (name = paper key, value = ``"module:ATTRIBUTE"``). Papers can
also be registered at run time with :func:`register_paper` (e.g. in a ``conftest.py``).

Problems with a plugin (it fails to import, its object is not a :class:`~fedtheory.Paper`, its
key differs from the entry-point name, two plugins claim one key, a claim id does not start with
the key, a malformed ledger) raise :class:`PluginError`, a :class:`ValueError` with a one-line
message naming the plugin(s); the other papers keep working.
"""
from __future__ import annotations

import importlib.metadata as _md
from dataclasses import dataclass

from .claims import Claim
from .paper import Figure, Paper

__all__ = ["GROUP", "PluginError", "paper_keys", "get_paper", "load_papers", "register_paper",
           "unregister_paper", "registry", "get_claim", "get_figure", "reproduce", "paper_of"]

GROUP = "fedtheory.papers"


class PluginError(ValueError):
    """A paper plugin cannot be used (message: one line naming the plugin)."""


@dataclass(frozen=True)
class _Source:
    value: str  # "module:attr" or "register_paper(...)"
    dist: str

    def __str__(self) -> str:
        return f"{self.value} (from {self.dist})"


_MANUAL: dict[str, Paper] = {}
_LOADED: dict[str, Paper] = {}


def _one_line(msg: str) -> str:
    return " ".join(str(msg).split())


def _sources() -> dict[str, list[_Source]]:
    """Entry-point name -> its distinct sources (the same value found twice is one source)."""
    out: dict[str, list[_Source]] = {}
    for ep in _md.entry_points(group=GROUP):
        dist = getattr(ep, "dist", None)
        dname = f"{dist.metadata['Name']} {dist.version}" if dist is not None else "unknown distribution"
        src = _Source(ep.value, dname)
        lst = out.setdefault(ep.name, [])
        if all(s.value != src.value for s in lst):
            lst.append(src)
    for key, paper in _MANUAL.items():
        out.setdefault(key, []).append(_Source(f"register_paper({paper!r})", "run time"))
    return out


def paper_keys() -> list[str]:
    """Keys of every paper found (entry points and :func:`register_paper`), without loading them."""
    return list(_sources())


def register_paper(paper: Paper) -> Paper:
    """Register a :class:`~fedtheory.Paper` at run time (no packaging needed); returns it."""
    if not isinstance(paper, Paper):
        raise TypeError(f"`paper` must be a fedtheory.Paper; got {type(paper).__name__}")
    if paper.key in _MANUAL and _MANUAL[paper.key] is not paper:
        raise PluginError(f"paper key {paper.key!r} is already registered at run time")
    _MANUAL[paper.key] = paper
    _LOADED.pop(paper.key, None)
    return paper


def unregister_paper(key: str) -> None:
    """Undo :func:`register_paper`."""
    _MANUAL.pop(key, None)
    _LOADED.pop(key, None)


def get_paper(key: str) -> Paper:
    """The loaded :class:`~fedtheory.Paper` with this key.

    Raises
    ------
    PluginError
        Unknown key, two plugins with this key, or a plugin that fails to load.
    """
    if key in _LOADED:
        return _LOADED[key]
    sources = _sources()
    if key not in sources:
        known = ", ".join(sources) or "none installed"
        raise PluginError(f"unknown paper {key!r}; known papers: {known}")
    srcs = sources[key]
    if len(srcs) > 1:
        raise PluginError(f"paper key {key!r} is registered by more than one plugin: "
                          + " and ".join(str(s) for s in srcs))
    src = srcs[0]
    try:
        if key in _MANUAL:
            obj = _MANUAL[key]
        else:
            ep = next(ep for ep in _md.entry_points(group=GROUP) if ep.name == key and ep.value == src.value)
            obj = ep.load()
        if not isinstance(obj, Paper):
            raise TypeError(f"the entry point gives a {type(obj).__name__}, not a fedtheory.Paper")
        if obj.key != key:
            raise ValueError(f"the entry point is named {key!r} but the paper's key is {obj.key!r}")
        obj.load()
    except Exception as exc:  # any failure inside a plugin is reported, not raised through
        raise PluginError(_one_line(f"paper plugin {key!r} ({src}) failed to load: "
                                    f"{type(exc).__name__}: {exc}")) from exc
    _LOADED[key] = obj
    return obj


def load_papers(keys=None, *, strict: bool = True) -> tuple[list[Paper], list[str]]:
    """Load the papers ``keys`` (all found if ``None``).

    Returns ``(papers, errors)``. With ``strict=True`` (explicit keys) the first problem raises
    :class:`PluginError`; with ``strict=False`` broken plugins are skipped and their one-line
    messages returned in ``errors``.
    """
    wanted = paper_keys() if keys is None else list(dict.fromkeys(keys))
    papers, errors = [], []
    for k in wanted:
        try:
            papers.append(get_paper(k))
        except PluginError as exc:
            if strict:
                raise
            errors.append(str(exc))
    return papers, errors


def registry(paper: str | None = None) -> list[Claim]:
    """All claims (of one paper if given), in catalogue order; broken plugins are skipped."""
    if paper is not None:
        return get_paper(paper).claims()
    papers, _ = load_papers(strict=False)
    return [c for p in papers for c in p.claims()]


def paper_of(item_id: str) -> Paper:
    """The paper whose key prefixes a claim or figure id."""
    key = item_id.split(".", 1)[0] if isinstance(item_id, str) else None
    if key is None or key not in paper_keys():
        raise PluginError(f"unknown claim id {item_id!r}: it does not start with a known paper key "
                          f"({', '.join(paper_keys())}); run `fedtheory list`")
    return get_paper(key)


def get_claim(claim_id: str) -> Claim:
    """The claim with this id (or a former id kept as an alias); loads only its paper."""
    c = paper_of(claim_id).get_claim(claim_id)
    if c is None:
        raise PluginError(f"unknown claim id {claim_id!r}; run `fedtheory list` for the ids")
    return c


def get_figure(figure_id: str) -> Figure:
    """The figure with this id."""
    for f in paper_of(figure_id).figures():
        if f.id == figure_id:
            return f
    raise PluginError(f"unknown figure id {figure_id!r}; run `fedtheory list` for the ids")


def reproduce(paper: str, outdir: str = "figures", full: bool = False, seed: int = 0,
              only=None) -> list[dict]:
    """Regenerate every figure of ``paper`` (or those in ``only``); returns the paths written.

    Each sidecar JSON carries the figure id, its reference, the paper's citation and the
    provenance of the run (see :func:`fedtheory.provenance.provenance`).
    """
    from ._figure_context import figure_context

    p = get_paper(paper)
    figs = p.figures()
    ids = [f.id for f in figs]
    if only:
        unknown = set(only) - set(ids)
        if unknown:
            raise ValueError(f"unknown figure id(s) for {paper}: {', '.join(sorted(unknown))}; "
                             f"known: {', '.join(ids) or 'none'}")
        figs = [f for f in figs if f.id in only]
    if not figs:
        raise ValueError(f"paper {paper!r} registers no figures")
    out = []
    for f in figs:
        with figure_context(figure_id=f.id, reference=f.reference, paper=p.citation.text(), seed=seed,
                            mode="full" if full else "quick"):
            res = f.func(outdir=outdir, full=full, seed=seed)
        out.extend(res if isinstance(res, list) else [res])
    return out
