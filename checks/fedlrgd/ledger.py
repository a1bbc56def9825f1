"""Results ledger of Jadbabaie, Makur, Shah, "Federated Optimization of Smooth Loss Functions" (FedLRGD). Numbering follows the paper (eqs. (1)-(90), Sections I-VI, Appendices A-E).

The rows are split by part of the paper: :mod:`.ledger_main`, :mod:`.ledger_appendices`."""
from .ledger_main import ROWS as _LEDGER_MAIN
from .ledger_appendices import ROWS as _LEDGER_APPENDICES
from . import PAPER

LEDGER = _LEDGER_MAIN + _LEDGER_APPENDICES

PAPER.set_ledger(LEDGER)
