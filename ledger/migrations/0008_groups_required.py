import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("ledger", "0007_groups_from_owners")]
    operations = [
        migrations.AlterField(model_name="night", name="group", field=models.ForeignKey(
            on_delete=django.db.models.deletion.PROTECT, related_name="nights", to="ledger.group")),
        migrations.AlterField(model_name="player", name="group", field=models.ForeignKey(
            on_delete=django.db.models.deletion.PROTECT, related_name="players", to="ledger.group")),
    ]
