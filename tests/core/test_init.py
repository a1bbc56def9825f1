"""Tests of :mod:`fedtheory`: ``import fedtheory`` loads neither numpy nor scipy."""
import subprocess
import sys


def test_import_fedtheory_is_light():
    out = subprocess.run([sys.executable, "-c", "import sys, fedtheory; print('numpy' in sys.modules, "
                          "'scipy' in sys.modules); from fedtheory import Paper, mc_mean, provenance; "
                          "import fedtheory.provenance; print(callable(fedtheory.provenance))"],
                         capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "False", "True"]
