"""Payment rows go (issue 17, item 2: drop what is redundant). Each revision's result holds its payments (who paid
whom, by seat, how much and why), which every page, report, export and check reads; the rows only copied them, and
the totals they once summed come from the seat results and the night standings. Undone, the table comes back and is
filled again from the results, as the service wrote it (a row per payment, its players those of the revision's
seats)."""
from decimal import Decimal
from typing import Any

from django.db import migrations


def rows_from_results(apps: Any, schema_editor: Any) -> None:
    HandRevision, Payment = apps.get_model("ledger", "HandRevision"), apps.get_model("ledger", "Payment")
    rows = []
    for revision in HandRevision.objects.order_by("pk").iterator(chunk_size=500):
        seats = [revision.player_0_id, revision.player_1_id, revision.player_2_id, revision.player_3_id]
        rows += [Payment(revision_id=revision.pk, position=i, event=p["event"], payer_id=seats[p["from"]],
                         payee_id=seats[p["to"]], payer_seat=p["from"], payee_seat=p["to"],
                         amount=Decimal(p["amount"]), reason=p["reason"])
                 for i, p in enumerate(revision.result.get("payments", []))]
    Payment.objects.bulk_create(rows, batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ('ledger', '0019_group_page_generation'),
    ]

    operations = [
        migrations.RunPython(migrations.RunPython.noop, rows_from_results),
        migrations.DeleteModel(
            name='Payment',
        ),
    ]
