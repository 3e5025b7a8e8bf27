"""The night standings count the hands each player won in (`won_hands`), once however many times: the win rate is
hands won among hands played, 0 to 1 as the API documents it. It was wins per hand, above 1 in 血流成河 where a
player may win several times a hand. Filled here from the seat results that count (current revisions of hands not
voided, `won`), and the groups' generations are bumped so no kept statistic shows the old rate. Undone by dropping
the column (nothing else reads it)."""
from typing import Any

from django.db import migrations, models
from django.db.models import Count, F


def fill(apps: Any, schema_editor: Any) -> None:
    SeatResult, NightStanding = apps.get_model("ledger", "SeatResult"), apps.get_model("ledger", "NightStanding")
    Group = apps.get_model("ledger", "Group")
    won = {(r["night_id"], r["player_id"]): r["n"] for r in
           SeatResult.objects.filter(revision__is_current=True, revision__hand__status="recorded", won=True)
           .order_by().values("player_id", night_id=F("revision__hand__night_id")).annotate(n=Count("pk"))}
    lines = []
    for line in NightStanding.objects.order_by("pk").iterator():
        line.won_hands = won.get((line.night_id, line.player_id), 0)
        if line.won_hands:
            lines.append(line)
    NightStanding.objects.bulk_update(lines, ["won_hands"], batch_size=500)
    Group.objects.update(generation=F("generation") + 1, page_generation=F("page_generation") + 1)


class Migration(migrations.Migration):

    dependencies = [
        ('ledger', '0021_adjustment_nets_at_smaller_tables'),
    ]

    operations = [
        migrations.AddField(
            model_name='nightstanding',
            name='won_hands',
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
