"""Session-wide test setup: matplotlib's Agg backend, a throw-away task cache for the CLI, the pytester plugin
and ``serial_uncached`` (used by several areas). Fixtures that one area of the suite shares live in that area's
conftest.py (tests/<area>/conftest.py); test modules never import each other (``--import-mode=importlib``)."""
import os
import tempfile

import matplotlib
import pytest

matplotlib.use("Agg")

# the CLI's task cache goes to a throw-away folder during the test session
os.environ.setdefault("FEDTHEORY_CACHE", tempfile.mkdtemp(prefix="fedtheory-cache-"))
pytest_plugins = ["pytester"]


@pytest.fixture
def serial_uncached():
    """Run claims and figure sweeps in this process, serially and without the task cache, so that monkeypatches
    of their inner functions take effect (worker processes and cached results would bypass them). Used by the
    fails paths and quick verdicts of tests/papers/ and by tests/representation/test_experiments.py."""
    from fedtheory.cache import configure_cache
    from fedtheory.parallel import configure

    configure(workers=1)
    configure_cache(None)
    yield
