"""ledger.api.serializers: see README.md, "Where things are"."""
from ledger.api.serializers.nights import *  # noqa: F401,F403  (imports keep working)
