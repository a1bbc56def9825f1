"""Results ledger of Tziotis, Shen, Pedarsani, Hassani, Mokhtari, "Straggler-Resilient Personalized Federated
Learning" (TMLR 2023). Numbering follows the TMLR version (Tziotis et al., TMLR); `alt` gives the arXiv version
(Tziotis et al., arXiv).

The rows are split by part of the paper: :mod:`.ledger_main`, :mod:`.ledger_appendix_a`, :mod:`.ledger_appendix_bc`."""
from .ledger_main import ROWS as _LEDGER_MAIN
from .ledger_appendix_a import ROWS as _LEDGER_APPENDIX_A
from .ledger_appendix_bc import ROWS as _LEDGER_APPENDIX_BC
from . import PAPER

LEDGER = _LEDGER_MAIN + _LEDGER_APPENDIX_A + _LEDGER_APPENDIX_BC

PAPER.set_ledger(LEDGER)
