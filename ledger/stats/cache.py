"""Statistics computed once per change of a group, not per request.

Every change that moves a group's statistics writes an audit entry carrying the group, in the transaction of the
change: hands recorded, corrected or voided, seats changed, nights closed (their fee shares), players renamed or
merged, backups imported. The number of the group's entries with the newest id is therefore a stamp of its data
(`group_stamp`); results are kept in the cache under it and a newer entry makes them unreachable (they expire
after an hour). The stamp is read
before the data, so whatever is stored under a stamp is at least as new as that stamp.
"""
from __future__ import annotations

from typing import Callable, TypeVar

from django.core.cache import cache
from django.db.models import Count, Max

from ..models import AuditEntry, Group

T = TypeVar("T")

#: Seconds a result is kept (a newer stamp makes it unreachable before that).
TIMEOUT = 3600


def group_stamp(group_id: int) -> str:
    """A stamp of the group's data: how many audit entries the group has, and the newest id.

    Entries are only added, each in the transaction of its change, so a change committed since gives another stamp
    whatever time it carries and whenever it began: a restored backup's entries keep their old times, and a change
    that began before another one may commit after it (the latest entry by time would miss both). One aggregate
    over the (group, at, id) index.
    """
    row = AuditEntry.objects.filter(group_id=group_id).aggregate(n=Count("id"), top=Max("id"))
    return f"{row['n']}.{row['top'] or 0}"


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
