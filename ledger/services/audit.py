"""The one writer of the audit trail: every change of the ledger records its entry here, in the change's transaction.

An entry carries its night (if any) and the night's group, or a group alone (players, members, settlements). Writing
it also bumps the generations of that group (`Group.generation`, and `Group.page_generation` unless the change is
a hand's own: `HAND_ONLY`), in the same UPDATE of the change's transaction, so a generation moves exactly when a
change commits: caches keyed on `generation_key` never outlive the data they were computed from, and
nothing has to guess from the audit table (the old 200-entry stamp).

Nights have no generation (they had one, migration 0018 drops it): what is kept of a night's pages is keyed on what
never changes once written (a hand's revision, an audit entry), and a night's pages read its change cursor (the
latest audit entry) with the night, so a generation of the night would cost every change a statement for no reader.

Row locks: a night's change holds the night's lock and then bumps its group; a change that touches several nights
(a merge, closing an evening's tables) takes all their locks, by id, before the first bump of the group; a change
of the group alone (a rename, a claim or unclaim, a settlement, a transfer marked paid) takes the group's row
before any other. So nights come before their group everywhere, and no two changes wait for each other in a circle.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import router, transaction
from django.db.models import F

from ledger.models import Adjustment, AuditEntry, Group, Hand, Night
from ledger.selectors.generations import generation_key as generation_key  # the caches' key part


def build(action: str, *, actor: Any, night: Night | None = None, group: Group | None = None,
          group_id: int | None = None, hand: Hand | None = None, adjustment: Adjustment | None = None,
          reason: str = "", before: Any = None, after: Any = None) -> AuditEntry:
    """An unsaved entry: its group is the night's when a night is given. Save it with `log_many`: only this module
    builds entries."""
    group_id = night.group_id if night is not None else group.pk if group is not None else group_id
    if group_id is None:
        raise ValueError("an audit entry needs a night or a group")
    return AuditEntry(night=night, group_id=group_id, hand=hand, adjustment=adjustment, actor=actor, action=action,
                      reason=reason, before=before, after=after)


def log(action: str, *, actor: Any, night: Night | None = None, group: Group | None = None,
        group_id: int | None = None, hand: Hand | None = None, adjustment: Adjustment | None = None,
        reason: str = "", before: Any = None, after: Any = None) -> AuditEntry:
    """Write one entry and bump its group's generation, in the caller's transaction (or one of its
    own: no savepoint either way)."""
    entry = build(action, actor=actor, night=night, group=group, group_id=group_id, hand=hand,
                  adjustment=adjustment, reason=reason, before=before, after=after)
    with transaction.atomic(using=router.db_for_write(AuditEntry), savepoint=False):
        entry.save()
        written([entry])
    return entry


def forget_night(night: Night) -> None:
    """Delete a night's own entries, for deleting the night itself (services.nights.night_delete: only a night with
    nothing recorded on it); the caller logs the deletion on its group's trail."""
    AuditEntry.objects.filter(night=night).delete()


def log_many(entries: list[AuditEntry]) -> list[AuditEntry]:
    """Write entries made by `build` in one statement (a restored backup's trail) and bump their generations."""
    with transaction.atomic(using=router.db_for_write(AuditEntry), savepoint=False):
        created = AuditEntry.objects.bulk_create(entries)
        written(created)
    return created


#: The changes that move nothing of a group but what is summed from its nights' hands (the statistics): they bump
#: the group's `generation`, not its `page_generation`, so the group page keeps its body (its nights, players,
#: members, evenings and debts) and draws only its leaderboard anew. A test renders the body before and after every
#: change (tests/audit_and_rights/test_audit_writer.py): a change that alters it must bump the page generation.
HAND_ONLY = frozenset({AuditEntry.Action.HAND_RECORDED, AuditEntry.Action.HAND_CORRECTED,
                       AuditEntry.Action.HAND_VOIDED})


def written(entries: Iterable[AuditEntry]) -> None:
    """Bump the generations of the groups of entries just saved (by `log` or `log_many`): one UPDATE; the page
    generation too unless every entry is a hand's own change (HAND_ONLY)."""
    entries = list(entries)
    pks = sorted({e.group_id for e in entries if e.group_id is not None})
    bumps = {"generation": F("generation") + 1}
    if any(e.action not in HAND_ONLY for e in entries):
        bumps["page_generation"] = F("page_generation") + 1
    if pks:
        Group.objects.filter(pk__in=pks).update(**bumps)
