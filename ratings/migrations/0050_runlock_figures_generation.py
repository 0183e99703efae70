"""The published lists' figures numbered at each write (``generation``), so that the worker
writes each member's standing without holding their row and marks them holding only where
no write came meanwhile (an officer's rating never waits for the worker's standings)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('ratings', '0049_places2_standings_room_to_move'),
    ]

    operations = [
        migrations.AddField(
            model_name='publishedlistfigures',
            name='generation',
            field=models.PositiveBigIntegerField(default=0),
        ),
    ]
