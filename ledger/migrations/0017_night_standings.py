"""The night standings (issue 17 item 6): one row per night and player, what the night brought them, so
statistics read one row per night instead of one per hand. Created and filled from the rows they sum (the seat
results, fee shares and adjustments that count, and the seating); going back drops the table (it is derived)."""
from decimal import Decimal
from typing import Any

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import Count, F, Q, Sum


def fill(apps: Any, schema_editor: Any) -> None:
    """Every night's lines, as ledger.services.standings.computed gives them (in the models of this migration)."""
    Seating, SeatResult, FeeShare, AdjustmentSeat, NightStanding = (
        apps.get_model("ledger", name) for name in ("Seating", "SeatResult", "FeeShare", "AdjustmentSeat",
                                                    "NightStanding"))
    lines: dict[tuple[int, int], list[Any]] = {}

    def line(night_id: int, player_id: int) -> list[Any]:
        return lines.setdefault((night_id, player_id), [0, 0, 0, 0, Decimal(0), Decimal(0), Decimal(0)])

    for night_id, player_id in Seating.objects.values_list("night_id", "player_id"):
        line(night_id, player_id)
    counted = SeatResult.objects.filter(revision__is_current=True, revision__hand__status="recorded")
    for r in (counted.order_by().values("player_id", night_id=F("revision__hand__night_id"))
              .annotate(n=Count("pk"), w=Sum("wins"), sd=Sum("self_draws"),
                        di=Count("pk", filter=Q(dealt_in__gt=0)), net=Sum("net"))):
        line(r["night_id"], r["player_id"])[:5] = [r["n"], r["w"], r["sd"], r["di"], r["net"]]
    for night_id, player_id, amount in FeeShare.objects.values_list("night_id", "player_id", "amount"):
        line(night_id, player_id)[5] = amount
    for r in (AdjustmentSeat.objects.filter(adjustment__status="recorded").order_by()
              .values("player_id", night_id=F("adjustment__night_id")).annotate(s=Sum("net"))):
        line(r["night_id"], r["player_id"])[6] = r["s"]
    columns = ("hands", "wins", "self_draws", "deal_in_hands", "hands_net", "fee", "adjusted")
    NightStanding.objects.bulk_create(
        [NightStanding(night_id=night_id, player_id=player_id, **dict(zip(columns, values)))
         for (night_id, player_id), values in sorted(lines.items())], batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ('ledger', '0016_audit_generations'),
    ]

    operations = [
        migrations.CreateModel(
            name='NightStanding',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('hands', models.PositiveIntegerField(default=0)),
                ('wins', models.PositiveIntegerField(default=0)),
                ('self_draws', models.PositiveIntegerField(default=0)),
                ('deal_in_hands', models.PositiveIntegerField(default=0)),
                ('hands_net', models.DecimalField(decimal_places=4, default=0, max_digits=16)),
                ('fee', models.DecimalField(decimal_places=4, default=0, max_digits=16)),
                ('adjusted', models.DecimalField(decimal_places=4, default=0, max_digits=16)),
                ('night', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='standings', to='ledger.night')),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='standings', to='ledger.player')),
            ],
            options={
                'ordering': ['night', 'player'],
                'indexes': [models.Index(fields=['player', 'night'], name='standing_player')],
                'constraints': [models.UniqueConstraint(fields=('night', 'player'), name='one_standing_per_night_player')],
            },
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
