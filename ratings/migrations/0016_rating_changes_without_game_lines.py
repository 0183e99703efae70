"""A per-event system's rating changes drop their stored breakdowns: pages work the game
lines out again (ratings/services/game_lines.py), and they were most of the table.

Decided list by list, as ``ClubSettings.engine`` does: a rapid or blitz list of its own
(0015) has its own system, any other list the club's. A period system's rows keep theirs.
Going back leaves the rows as they are: the older code shows no game lines for them until
a re-rate writes them in full again.
"""

from django.db import migrations

#: The systems that rate by period, named here rather than read from the engine: a
#: migration must do the same whatever the engine later becomes.
PERIOD_SYSTEMS = {"acf-1993", "ecf-2020"}


def drop_game_lines(apps, schema_editor):
    ClubSettings = apps.get_model("ratings", "ClubSettings")
    RatingList = apps.get_model("ratings", "RatingList")
    RatingChange = apps.get_model("ratings", "RatingChange")
    club = ClubSettings.objects.filter(pk=1).first()
    standard = club.rating_system if club is not None else "nz-club-elo"
    own = dict(RatingList.objects.filter(kept="own").values_list("time_class", "rating_system"))
    lists = RatingChange.objects.order_by().values_list("time_class", flat=True).distinct()
    per_event = [tc for tc in lists if own.get(tc, standard) not in PERIOD_SYSTEMS]
    if per_event:
        RatingChange.objects.filter(time_class__in=per_event).exclude(breakdown={}).update(
            breakdown={}
        )


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0015_rating_lists"),
    ]

    operations = [
        migrations.RunPython(drop_game_lines, migrations.RunPython.noop, elidable=True),
    ]
