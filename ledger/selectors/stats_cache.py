"""Statistics computed once per change of a group, not per request.

Every change that moves a group's statistics writes an audit entry carrying the group (hands recorded, corrected or
voided, seats changed, nights closed with their fee shares, players renamed or merged, backups imported), and the
one audit writer bumps the group's generation in the transaction of the change (ledger.services.audit). Results are kept
in the cache under the group's UUID and generation, so a committed change makes them unreachable (they expire after
an hour). The generation is read with the group, before the data, so whatever is stored under a generation is at
least as new as that generation.

They are kept in the "pieces" cache (a memory cache of each process, as the kept hand cards and the group page's
body): since the statistics add up the night standings (one row per night and player), computing them costs a few
milliseconds, less than a round trip of the database cache would on every miss (five statements: a count, a
transaction, a read and a write) and on every hit (one). Each process computes a generation's results once; the
generation in the key keeps every process right.
"""
from __future__ import annotations

from typing import Callable, TypeVar

from django.core.cache import caches

from ledger.selectors.generations import generation_key
from ledger.models import Group

T = TypeVar("T")

#: Seconds a result is kept (a newer generation makes it unreachable before that).
TIMEOUT = 3600


def cached(group: Group, parts: tuple[object, ...], compute: Callable[[], T]) -> T:
    """`compute()` as of the group's generation, from the cache when it was computed since the group's last change."""
    key = "stats:v2:" + ":".join(str(p) for p in (generation_key(group), *parts))
    found: T | None = caches["pieces"].get(key)
    if found is not None:
        return found
    value = compute()
    caches["pieces"].set(key, value, TIMEOUT)
    return value
