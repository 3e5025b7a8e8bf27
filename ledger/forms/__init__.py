"""ledger.forms: see README.md, "Where things are"."""
from ledger.forms.nights import *  # noqa: F401,F403  (imports keep working)
