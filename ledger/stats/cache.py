"""Statistics computed once per change of a group, not per request.

Every change that moves a group's statistics writes an audit entry carrying the group, in the transaction of the
change: hands recorded, corrected or voided, seats changed, nights closed (their fee shares), players renamed or
merged, backups imported. The id of the group's latest entry is therefore a stamp of its data; results are kept
in the cache under it and a newer entry makes them unreachable (they expire after an hour). The stamp is read
before the data, so whatever is stored under a stamp is at least as new as that stamp.
"""
from __future__ import annotations

from typing import Callable, TypeVar

from django.core.cache import cache

from ..models import AuditEntry, Group

T = TypeVar("T")

#: Seconds a result is kept (a newer stamp makes it unreachable before that).
TIMEOUT = 3600


def group_stamp(group_id: int) -> int:
    """The id of the group's latest audit entry (the (group, at, id) index read backwards: one row)."""
    latest = (AuditEntry.objects.filter(group_id=group_id).order_by("-at", "-id")
              .values_list("id", flat=True).first())
    return latest or 0


def cached(group: Group, parts: tuple[object, ...], compute: Callable[[], T]) -> T:
    """`compute()` as of the group's current stamp, from the cache when it was computed since the last change.

    The key holds the group's UUID, not its id: ids may be handed out again (a restored or rolled-back
    database), a UUID is not.
    """
    key = "stats:v1:" + ":".join(str(p) for p in (group.uuid, group_stamp(group.pk), *parts))
    found: T | None = cache.get(key)
    if found is not None:
        return found
    value = compute()
    cache.set(key, value, TIMEOUT)
    return value
