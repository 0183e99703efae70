"""One FIDE id, one member: a unique FIDE id among the members not merged away.

A database that already gives one id to two members cannot take the constraint: the
migration stops and names them, for the officer to merge them (or correct an id) first.
"""

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
        ("ratings", "0020_last_change_as_shown"),
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
    ]
