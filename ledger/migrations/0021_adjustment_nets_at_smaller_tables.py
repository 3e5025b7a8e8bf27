"""Adjustments at a table of 3 or 2 (RULES.md §9) had their seat nets computed for four seats: a 诈胡 at three
players paid a fourth seat that does not exist, so the night's nets no longer summed to zero and its pages failed.
The adjustments' own values (kind, payer, payee, amount) were stored right; only what is derived from them was
wrong. This recomputes, for nights of fewer than four seats, each adjustment's seat nets from its values and the
night standings' `adjusted` column from those nets, and bumps the groups' generations so no kept piece shows the
old figures.

A transfer to or from a seat the table does not have (the old check let seats 0-3 through at any table) cannot be
made right: it is voided, with its reason and an audit entry, and stays listed (nothing is lost; the table may
record it again between its real seats). The entry's actor is the night's owner, its reason says the upgrade did
it. Nothing to undo: the nets before were not a state any code can read back."""
from decimal import Decimal
from typing import Any

from django.db import migrations
from django.db.models import F


VOID_REASON = "座位不在本桌：升级时作废（迁移 0021）"


def nets(kind: str, payer: int, payee: int | None, amount: Decimal, seats: int) -> list[Decimal]:
    out = [Decimal(0)] * seats
    receivers: list[int | None] = [s for s in range(seats) if s != payer] if kind == "zha_hu" else [payee]
    for seat in (s for s in receivers if s is not None):
        out[seat] += amount
        out[payer] -= amount
    return out


def recompute(apps: Any, schema_editor: Any) -> None:
    Night, Adjustment = apps.get_model("ledger", "Night"), apps.get_model("ledger", "Adjustment")
    AdjustmentSeat, NightStanding = apps.get_model("ledger", "AdjustmentSeat"), apps.get_model("ledger", "NightStanding")
    Group, AuditEntry = apps.get_model("ledger", "Group"), apps.get_model("ledger", "AuditEntry")
    changed_nights, groups = [], set()
    for night in Night.objects.order_by("pk").iterator():
        seats = int((night.rules or {}).get("players", 4))
        if seats == 4:
            continue
        changed = False
        for adjustment in Adjustment.objects.filter(night=night):
            outside = adjustment.payer_seat >= seats or (adjustment.payee_seat or 0) >= seats
            if outside and adjustment.status == "recorded":
                Adjustment.objects.filter(pk=adjustment.pk).update(status="voided", void_reason=VOID_REASON)
                AuditEntry.objects.create(night=night, adjustment=adjustment, actor_id=night.owner_id,
                                          action="adjustment_voided", reason=VOID_REASON,
                                          before={"status": "recorded"}, after={"status": "voided"})
                changed = True
            wide = max(seats, adjustment.payer_seat + 1, (adjustment.payee_seat or 0) + 1)
            right = nets(adjustment.kind, adjustment.payer_seat, adjustment.payee_seat, adjustment.amount, wide)
            for row in AdjustmentSeat.objects.filter(adjustment=adjustment):
                if row.seat < seats and row.net != right[row.seat]:
                    AdjustmentSeat.objects.filter(pk=row.pk).update(net=right[row.seat])
                    changed = True
        if changed:
            changed_nights.append(night.pk)
            groups.add(night.group_id)
    for night_id in changed_nights:
        counted: dict[int, Decimal] = {}  # added in Python: exact on SQLite too (ledger.models.money)
        for player_id, net in AdjustmentSeat.objects.filter(adjustment__night_id=night_id,
                                                             adjustment__status="recorded").values_list("player_id", "net"):
            counted[player_id] = counted.get(player_id, Decimal(0)) + net
        for standing in NightStanding.objects.filter(night_id=night_id):
            NightStanding.objects.filter(pk=standing.pk).update(adjusted=counted.get(standing.player_id) or 0)
    if groups:
        Group.objects.filter(pk__in=groups).update(generation=F("generation") + 1,
                                                  page_generation=F("page_generation") + 1)


class Migration(migrations.Migration):

    dependencies = [
        ('ledger', '0020_drop_payment_rows'),
    ]

    operations = [
        migrations.RunPython(recompute, migrations.RunPython.noop),
    ]
