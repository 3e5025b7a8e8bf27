"""ledger.presenters: see README.md, "Where things are"."""
from ledger.presenters.nights import *  # noqa: F401,F403  (imports keep working)
