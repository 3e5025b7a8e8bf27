"""ledger.services: see README.md, "Where things are"."""
from ledger.services.nights import *  # noqa: F401,F403  (imports keep working)
