"""ledger.views: see README.md, "Where things are"."""
from ledger.views.nights import *  # noqa: F401,F403  (imports keep working)
