"""A group's generations as cache-key parts. The generations are bumped by the audit writer (ledger.services.audit)
in each change's transaction; caches key on them: the statistics on `generation` (every change of the group), the
group page's body on `page_generation` (every change but a hand's own)."""
from __future__ import annotations

from typing import Any, Protocol


class _Generational(Protocol):
    uuid: Any
    generation: int


def generation_key(obj: _Generational) -> str:
    """A cache-key part naming a group and its generation as read with the object: read the object before
    the data it keys, so whatever is stored under a key is at least as new as the key says. The UUID, not the id:
    ids may be handed out again (a restored or rolled-back database), a UUID is not."""
    return f"{obj.uuid}.{obj.generation}"


class _Paged(Protocol):
    uuid: Any
    page_generation: int


def page_generation_key(group: _Paged) -> str:
    """As `generation_key`, for the group page's body: the group and its `page_generation`."""
    return f"{group.uuid}.p{group.page_generation}"
