"""Nights lose their generation (issue 17): no cache key read it (what is kept of a night's pages is keyed on rows
that never change once written), and bumping it cost every change of a night a statement. Groups keep theirs.
Undone, the column comes back at 0 (a generation only has to move from now on)."""
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('ledger', '0017_night_standings'),
    ]

    operations = [
        migrations.RemoveField(
            model_name='night',
            name='generation',
        ),
    ]
