"""Tests of :mod:`fedtheory.plotting`: a headless backend chosen by the user is kept."""
import pytest


@pytest.mark.parametrize("chosen, expected", [
    ("module://ipympl.backend_nbagg", "module://ipympl.backend_nbagg"),  # %matplotlib widget outside a kernel
    ("svg", "svg"),                                                      # a headless backend the user picked
    ("TkAgg", "agg"),                                                    # a GUI backend without a display
    (None, "agg"),                                                       # nothing chosen, no display
])
def test_plotting_keeps_a_chosen_headless_backend(chosen, expected):
    import os
    import subprocess
    import sys

    use = f"matplotlib.use({chosen!r}); " if chosen else ""
    env = {k: v for k, v in os.environ.items() if k not in ("MPLBACKEND", "DISPLAY")}
    r = subprocess.run([sys.executable, "-c", f"import matplotlib; {use}import fedtheory.plotting; "
                        "print(matplotlib.get_backend())"], capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip().lower() == expected.lower()
