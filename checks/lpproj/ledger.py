"""Results ledger of Han, Li, Lin & Zhang, "A Random Projection Approach to Personalized Federated Learning: Enhancing Communication Efficiency, Robustness, and Fairness" (JMLR 25, 2024, paper 23-0215). Numbering follows the JMLR version (Han et al., JMLR 2024).

The rows are split by part of the paper: :mod:`.ledger_main` (Sections 1-6), :mod:`.ledger_appendix_a`
(Appendix A), :mod:`.ledger_appendix_b` (Appendix B), :mod:`.ledger_appendix_c` (Appendix C)."""
from .ledger_main import ROWS as _LEDGER_MAIN
from .ledger_appendix_a import ROWS as _LEDGER_APPENDIX_A
from .ledger_appendix_b import ROWS as _LEDGER_APPENDIX_B
from .ledger_appendix_c import ROWS as _LEDGER_APPENDIX_C
from . import PAPER

LEDGER = _LEDGER_MAIN + _LEDGER_APPENDIX_A + _LEDGER_APPENDIX_B + _LEDGER_APPENDIX_C

PAPER.set_ledger(LEDGER)
