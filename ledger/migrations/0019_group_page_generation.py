"""Groups get a second generation, `page_generation` (issue 17, item 6): bumped by every change but a hand's own, so
the group page keeps its body across a recorded hand and draws only its leaderboard anew. Existing groups start at 0
(a generation only has to move from now on); undone, the column goes."""
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('ledger', '0018_drop_night_generation'),
    ]

    operations = [
        migrations.AddField(
            model_name='group',
            name='page_generation',
            field=models.PositiveBigIntegerField(default=0, editable=False),
        ),
    ]
