"""``python -m fedtheory ...`` runs the command-line interface."""
import sys

from ._console import run

sys.exit(run())
