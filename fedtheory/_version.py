"""The version of fedtheory, in a module of its own so that any module can read it without
importing the package's ``__init__``."""
__version__ = "0.2.0"
