"""fedtheory.results: evaluating claims as ``verify`` does, serially or in parallel over claims."""
import os

import numpy as np
import pytest

from fedtheory import Paper, decide, register_paper, unregister_paper
from fedtheory.parallel import configure, current_config
from fedtheory.results import evaluate_claims


def _noisy_paper(key: str) -> Paper:
    """Claims whose numbers depend on their seed only (a sweep inside one of them), and one that prints."""
    from fedtheory.parallel import parallel_map
    from fedtheory.random import as_generator

    paper = Paper(key=key, title="Noisy", authors=["A. Author"], year=2025, venue="arXiv")
    for i in range(5):
        def claim(full, seed, i=i):
            draws = [g.standard_normal() for g in parallel_map(as_generator, seed + i, 4)]
            print(f"claim {i} in process {os.getpid()}")
            return decide.bound(abs(float(np.mean(draws))), 10.0, what=f"mean {i}")
        paper.claim(f"{key}.eq{i + 1}.mean", f"Eq. ({i + 1})", f"claim {i}", default_seed=100 + i)(claim)
    return paper


@pytest.fixture
def noisy():
    saved = current_config()
    paper = register_paper(_noisy_paper("zzpar"))
    yield paper
    unregister_paper(paper.key)
    configure(workers=saved["workers"]) if saved["backend"] == "processes" else configure(workers=1)


def test_claims_give_the_same_verdicts_serially_and_in_parallel_over_claims(noisy):
    claims = noisy.claims()
    configure(workers=1)
    seen1 = []
    serial = evaluate_claims(claims, full=False, seed=None, on_verdict=lambda c, v, out: seen1.append((c.id, out)))
    configure(workers=2)
    seen2 = []
    parallel = evaluate_claims(claims, full=False, seed=None, on_verdict=lambda c, v, out: seen2.append((c.id, out)))
    assert [v.observed for v in serial] == [v.observed for v in parallel]
    assert [v.status for v in parallel] == ["holds"] * 5
    # on_verdict comes in the order of the claims, with what each claim printed
    assert [cid for cid, _ in seen1] == [cid for cid, _ in seen2] == [c.id for c in claims]
    assert all(out.startswith(f"claim {i} in process ") for i, (_, out) in enumerate(seen2))
    assert {out.split()[-1] for _, out in seen1} == {str(os.getpid())}
    assert str(os.getpid()) not in {out.split()[-1] for _, out in seen2}  # workers evaluated them
    # the workers ran their claims' sweeps serially (no nested pools) and left this process's setting alone
    assert current_config()["backend"] == "processes" and current_config()["workers"] == 2


def test_one_claim_or_one_worker_runs_here(noisy):
    configure(workers=2)
    seen = []
    v = evaluate_claims(noisy.claims()[:1], full=False, seed=3, on_verdict=lambda c, v, out: seen.append(out))
    assert len(v) == 1 and v[0].seed == 3 and seen[0].endswith(f"{os.getpid()}\n")
