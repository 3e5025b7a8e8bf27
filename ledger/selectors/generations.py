"""A night's or a group's generation as a cache-key part. The generations are bumped by the audit writer
(ledger.services.audit) in each change's transaction; caches key on them (statistics, the group page's body)."""
from __future__ import annotations

from typing import Any, Protocol


class _Generational(Protocol):
    uuid: Any
    generation: int


def generation_key(obj: _Generational) -> str:
    """A cache-key part naming a night or a group and its generation as read with the object: read the object before
    the data it keys, so whatever is stored under a key is at least as new as the key says. The UUID, not the id:
    ids may be handed out again (a restored or rolled-back database), a UUID is not."""
    return f"{obj.uuid}.{obj.generation}"
