"""ledger.models: see README.md, "Where things are"."""
from ledger.models.nights import *  # noqa: F401,F403  (imports keep working)
