"""Nights of 2, 3 or 4 seats (RULES.md §9): a revision's seats 2 and 3 may be empty. A 血流成河 hand holds many
wins, several by one player: seat results count them (wins, self_draws) and WinResult keeps one row per win.

Existing nights are 血战, four players, three suits (their rules carry no `players`, which reads as 4): no seat
changes. Their seat results and win rows are recomputed from each revision's stored result, the same
derivation as recording (models.seat_results / win_results), so a restored older database reads the same."""
from decimal import Decimal

import django.db.models.deletion
from django.apps.registry import Apps
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor


def recompute(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    HandRevision = apps.get_model("ledger", "HandRevision")
    SeatResult = apps.get_model("ledger", "SeatResult")
    WinResult = apps.get_model("ledger", "WinResult")
    rows = []
    for revision in HandRevision.objects.order_by("pk").iterator(chunk_size=500):
        result = revision.result or {}
        seats = [revision.player_0_id, revision.player_1_id, revision.player_2_id, revision.player_3_id]
        amounts: dict[tuple[int | None, int], Decimal] = {}
        for payment in result.get("payments", []):
            if payment["reason"] in ("self_draw", "discard"):
                key = (payment.get("event"), payment["to"])
                amounts[key] = amounts.get(key, Decimal(0)) + Decimal(payment["amount"])
        wins = result.get("wins", [])
        for i, w in enumerate(wins):
            event = w.get("event", i)
            rows.append(WinResult(revision_id=revision.pk, event=event, seat=w["player"],
                                  player_id=seats[w["player"]], self_drawn=w["from"] is None, pattern=w["pattern"],
                                  fan=w["fan"], amount=amounts.get((w.get("event"), w["player"]), Decimal(0))))
        for seat in range(4):
            mine = [w for w in wins if w["player"] == seat]
            if mine:
                SeatResult.objects.filter(revision_id=revision.pk, seat=seat).update(
                    wins=len(mine), self_draws=sum(1 for w in mine if w["from"] is None))
        if len(rows) >= 1000:
            WinResult.objects.bulk_create(rows)
            rows = []
    WinResult.objects.bulk_create(rows)


class Migration(migrations.Migration):

    dependencies = [
        ("ledger", "0013_adjustments_confirmations"),
    ]

    operations = [
        migrations.AlterField(
            model_name="handrevision", name="player_2",
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT,
                                    related_name="+", to="ledger.player")),
        migrations.AlterField(
            model_name="handrevision", name="player_3",
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT,
                                    related_name="+", to="ledger.player")),
        migrations.AlterField(
            model_name="handrevision", name="player_names",
            field=models.JSONField(blank=True, default=list,
                                   help_text="The players' names as they were when this revision was recorded.")),
        migrations.AddField(model_name="seatresult", name="wins", field=models.PositiveSmallIntegerField(default=0)),
        migrations.AddField(model_name="seatresult", name="self_draws",
                            field=models.PositiveSmallIntegerField(default=0)),
        migrations.CreateModel(
            name="WinResult",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("event", models.PositiveSmallIntegerField()),
                ("seat", models.PositiveSmallIntegerField()),
                ("self_drawn", models.BooleanField(default=False)),
                ("pattern", models.CharField(max_length=30)),
                ("fan", models.PositiveSmallIntegerField()),
                ("amount", models.DecimalField(decimal_places=4, default=0, max_digits=14)),
                ("player", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="win_results",
                                             to="ledger.player")),
                ("revision", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                               related_name="win_results", to="ledger.handrevision")),
            ],
            options={"ordering": ["revision", "event", "seat"],
                     "indexes": [models.Index(fields=["player", "revision"], name="win_result_player")],
                     "constraints": [models.UniqueConstraint(fields=("revision", "event", "seat"),
                                                             name="one_result_per_win")]},
        ),
        migrations.RunPython(recompute, migrations.RunPython.noop),
    ]
