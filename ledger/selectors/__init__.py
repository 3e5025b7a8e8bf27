"""ledger.selectors: see README.md, "Where things are"."""
from ledger.selectors.nights import *  # noqa: F401,F403  (imports keep working)
