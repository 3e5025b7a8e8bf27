"""Give every night a stable UUID (existing nights get a fresh one) so backups can be restored idempotently."""
import uuid

from django.apps.registry import Apps
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor


def fill_uuids(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Night = apps.get_model("ledger", "Night")
    for night in Night.objects.filter(uuid__isnull=True).only("pk"):
        night.uuid = uuid.uuid4()
        night.save(update_fields=["uuid"])


class Migration(migrations.Migration):

    dependencies = [
        ("ledger", "0001_initial"),
    ]

    operations = [
        migrations.AddField(model_name="night", name="uuid", field=models.UUIDField(editable=False, null=True)),
        migrations.RunPython(fill_uuids, migrations.RunPython.noop),
        migrations.AlterField(model_name="night", name="uuid",
                              field=models.UUIDField(default=uuid.uuid4, editable=False, unique=True)),
    ]
