# The generations of nights and groups (bumped by ledger.services.audit); the (group, id) index of the old stamp goes.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('ledger', '0015_writes_drop_caches'),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name='auditentry',
            name='audit_group_id',
        ),
        migrations.AddField(
            model_name='group',
            name='generation',
            field=models.PositiveBigIntegerField(default=0, editable=False),
        ),
        migrations.AddField(
            model_name='night',
            name='generation',
            field=models.PositiveBigIntegerField(default=0, editable=False),
        ),
    ]
