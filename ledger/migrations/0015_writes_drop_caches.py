"""Drop the copies of what the seat results hold: the night's cached summary and each revision's seat nets.

`SeatResult.net` is the truth the totals are summed from (selectors.night_nets); migrating back refills the
revisions' `net_0`..`net_3` from it, and a night's cached summary was only ever a cache (None: recomputed).
"""
from decimal import Decimal

from django.apps.registry import Apps
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor


def refill_revision_nets(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """Each revision's seat nets again, from its seat results (0 for a seat the table does not have)."""
    HandRevision = apps.get_model("ledger", "HandRevision")
    SeatResult = apps.get_model("ledger", "SeatResult")
    nets: dict[int, dict[int, Decimal]] = {}
    for revision, seat, net in SeatResult.objects.values_list("revision_id", "seat", "net").iterator():
        nets.setdefault(revision, {})[seat] = net
    revisions = list(HandRevision.objects.filter(pk__in=list(nets)).only("pk"))
    for revision in revisions:
        for seat in range(4):
            setattr(revision, f"net_{seat}", nets[revision.pk].get(seat, Decimal(0)))
    HandRevision.objects.bulk_update(revisions, ["net_0", "net_1", "net_2", "net_3"], batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ("ledger", "0014_table_shapes_and_wins"),
    ]

    operations = [
        # Backwards this runs last, once the columns are back.
        migrations.RunPython(migrations.RunPython.noop, refill_revision_nets),
        migrations.RemoveField(model_name="night", name="totals_cache"),
        migrations.RemoveField(model_name="handrevision", name="net_0"),
        migrations.RemoveField(model_name="handrevision", name="net_1"),
        migrations.RemoveField(model_name="handrevision", name="net_2"),
        migrations.RemoveField(model_name="handrevision", name="net_3"),
    ]
