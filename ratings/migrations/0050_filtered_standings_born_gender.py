"""Each kept standing gains what the list's filters ask besides the region: the member's
date of birth (the age groups) and gender (the women's list), with the indexes that read
a filter's range alone (``pages.lists.FilteredStandings``). The standings kept are
filled from their members here, in one UPDATE, so they hold on as they did; a site
without any has them written by the worker's next look, as ever."""

from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def fill_from_members(apps, schema_editor):
    standing = apps.get_model("ratings", "ListStanding")
    member = apps.get_model("ratings", "Member").objects.filter(pk=OuterRef("member_id"))
    standing.objects.using(schema_editor.connection.alias).update(
        born=Subquery(member.values("born")[:1]),
        gender=Subquery(member.values("gender")[:1]),
    )


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0049_places2_standings_room_to_move"),
    ]

    operations = [
        migrations.AddField(
            model_name="liststanding",
            name="born",
            field=models.DateField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="liststanding",
            name="gender",
            field=models.CharField(blank=True, default="", max_length=1),
        ),
        # Filled before the indexes are built: one pass over the table, not three.
        migrations.RunPython(fill_from_members, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name="liststanding",
            index=models.Index(
                fields=["time_class", "region", "unrated", "-rating_value", "name", "member"],
                name="standing_region_rating",
            ),
        ),
        migrations.AddIndex(
            model_name="liststanding",
            index=models.Index(
                fields=["time_class", "gender", "unrated", "-rating_value", "name", "member"],
                name="standing_gender_rating",
            ),
        ),
        migrations.AddIndex(
            model_name="liststanding",
            index=models.Index(fields=["time_class", "born"], name="standing_born"),
        ),
    ]
