import matplotlib

matplotlib.use("Agg")

import os
import tempfile

# the CLI's task cache goes to a throw-away folder during the test session
os.environ.setdefault("FEDTHEORY_CACHE", tempfile.mkdtemp(prefix="fedtheory-cache-"))
pytest_plugins = ["pytester"]
