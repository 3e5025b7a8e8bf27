"""Settings of the load benchmark's server: the app as deployed, plus the floor endpoint (bench only)."""
from ledger.settings import *  # noqa: F401,F403

ROOT_URLCONF = "bench.floor_urls"
