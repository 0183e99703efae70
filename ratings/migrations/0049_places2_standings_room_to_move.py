"""Each page of the kept standings half filled on PostgreSQL (fillfactor 50), so that a
place set again (``services.list_figures._standings_place``) is written beside its row and
none of the table's seven indexes (a heap-only update): 35,000 places moved took 1.07 s
with full pages, 0.13 s so. The rows kept are dropped and the lists' figures forgotten:
counted at once by their next reader, the standings written afresh (into pages with the
room) by the worker's next look. SQLite writes a row's unindexed column without its
indexes already: nothing to do there."""

from django.db import migrations


def room_to_move(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("ALTER TABLE ratings_liststanding SET (fillfactor = 50)")
    apps.get_model("ratings", "ListStanding").objects.all().delete()
    apps.get_model("ratings", "PublishedListFigures").objects.update(figures=None)


def as_before(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE ratings_liststanding RESET (fillfactor)")


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0048_merge_places"),
    ]

    operations = [migrations.RunPython(room_to_move, as_before)]
