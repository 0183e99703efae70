"""One FIDE id, one member: a unique FIDE id among the members not merged away; and the
club's details a tournament report file's header needs (city, federation, arbiters).

A database that already gives one id to two members cannot take the constraint: the
migration stops and names them, for the officer to merge them (or correct an id) first.
"""

import django.core.validators
from django.db import migrations, models
from django.db.models import Count


def refuse_duplicates(apps, schema_editor):
    Member = apps.get_model("ratings", "Member")
    live = Member.objects.filter(merged_into__isnull=True).exclude(fide_id="")
    shared = (
        live.values("fide_id").annotate(n=Count("pk")).filter(n__gt=1).values_list("fide_id", flat=True)
    )
    problems = []
    for fide_id in sorted(shared):
        holders = ", ".join(
            f"{m.name} ({m.member_number})" for m in live.filter(fide_id=fide_id).order_by("pk")
        )
        problems.append(f"FIDE id {fide_id}: {holders}")
    if problems:
        raise RuntimeError(
            "Members share a FIDE id: one id is one person. Merge the duplicates (or correct "
            "the id) in the admin, then migrate again.\n" + "\n".join(problems)
        )


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0023_firstday_club_time_zone"),
    ]

    operations = [
        migrations.RunPython(refuse_duplicates, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="member",
            constraint=models.UniqueConstraint(
                condition=models.Q(models.Q(("fide_id", ""), _negated=True), ("merged_into__isnull", True)),
                fields=("fide_id",),
                name="fide_id_one_member",
                violation_error_message="Another member has this FIDE id.",
            ),
        ),

        migrations.AddField(
            model_name='clubsettings',
            name='chief_arbiter',
            field=models.CharField(blank=True, help_text='The chief arbiter, with a FIDE id if any (TRF 102).', max_length=60),
        ),
        migrations.AddField(
            model_name='clubsettings',
            name='city',
            field=models.CharField(blank=True, help_text='Where the club plays (TRF 022).', max_length=60),
        ),
        migrations.AddField(
            model_name='clubsettings',
            name='deputy_arbiters',
            field=models.TextField(blank=True, help_text='Deputy arbiters, one a line (TRF 112, one line each).'),
        ),
        migrations.AddField(
            model_name='clubsettings',
            name='federation',
            field=models.CharField(blank=True, help_text="The club's federation, FIDE's three letters (TRF 032).", max_length=3, validators=[django.core.validators.RegexValidator('^[A-Z]{3}$', "FIDE's three capital letters, e.g. NZL.")]),
        ),
        migrations.AddField(
            model_name='historicalclubsettings',
            name='chief_arbiter',
            field=models.CharField(blank=True, help_text='The chief arbiter, with a FIDE id if any (TRF 102).', max_length=60),
        ),
        migrations.AddField(
            model_name='historicalclubsettings',
            name='city',
            field=models.CharField(blank=True, help_text='Where the club plays (TRF 022).', max_length=60),
        ),
        migrations.AddField(
            model_name='historicalclubsettings',
            name='deputy_arbiters',
            field=models.TextField(blank=True, help_text='Deputy arbiters, one a line (TRF 112, one line each).'),
        ),
        migrations.AddField(
            model_name='historicalclubsettings',
            name='federation',
            field=models.CharField(blank=True, help_text="The club's federation, FIDE's three letters (TRF 032).", max_length=3, validators=[django.core.validators.RegexValidator('^[A-Z]{3}$', "FIDE's three capital letters, e.g. NZL.")]),
        ),
    ]
