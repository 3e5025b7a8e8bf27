"""Statistics computed once per change of a group, not per request.

Every change that moves a group's statistics writes an audit entry carrying the group, in the transaction of the
change: hands recorded, corrected or voided, seats changed, nights closed (their fee shares), players renamed or
merged, backups imported. The newest entry's id with the number of recent entries is therefore a stamp of its
data (`group_stamp`); results are kept in the cache under it and a newer entry makes them unreachable (they expire
after an hour). The stamp is read
before the data, so whatever is stored under a stamp is at least as new as that stamp.
"""
from __future__ import annotations

from typing import Callable, TypeVar

from django.core.cache import cache
from django.db.models import Count, Max, Subquery

from ..models import AuditEntry, Group

T = TypeVar("T")

#: Seconds a result is kept (a newer stamp makes it unreachable before that).
TIMEOUT = 3600


#: How far back the stamp counts entries: a change that commits after this many newer entries of its group would be
#: missed (a transaction lasts milliseconds; a group writes a few entries a minute).
STAMP_WINDOW = 200


def group_stamp(group_id: int) -> str:
    """A stamp of the group's data: its newest audit entry's id, and how many of its entries are among the last
    `STAMP_WINDOW` ids.

    Entries are only added, each in the transaction of its change, so a change committed since gives another stamp
    whatever time it carries and whenever it began: a restored backup's entries keep their old times (but take new
    ids), and a change that began before another may commit after it (its id is below the newest: the count moves).
    One statement over the (group, id) index, the same cost at any size.
    """
    newest = AuditEntry.objects.filter(group_id=group_id).order_by("-id").values("id")[:1]
    row = AuditEntry.objects.filter(group_id=group_id, id__gt=Subquery(newest) - STAMP_WINDOW).aggregate(
        n=Count("id"), top=Max("id"))
    return f"{row['top'] or 0}.{row['n']}"


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
