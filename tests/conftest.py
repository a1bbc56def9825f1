import matplotlib

matplotlib.use("Agg")

import os
import tempfile

# the CLI's task cache goes to a throw-away folder during the test session
os.environ.setdefault("FEDTHEORY_CACHE", tempfile.mkdtemp(prefix="fedtheory-cache-"))
pytest_plugins = ["pytester"]


import pytest  # noqa: E402


@pytest.fixture
def serial_uncached():
    """Run claims in this process, serially and without the task cache, so that monkeypatches of
    a claim's inner functions take effect (worker processes and cached results would bypass them).
    Used by the fails-path tests (tests/test_fails_*.py)."""
    from fedtheory.cache import configure_cache
    from fedtheory.parallel import configure

    configure(workers=1)
    configure_cache(None)
    yield
