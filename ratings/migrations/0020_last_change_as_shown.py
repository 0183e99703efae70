"""The list's "last change" becomes the difference of the figures the event shows ("2303 →
2304" is +1, not the unrounded +1.6; none from acf-1993's "1 R" to a rating), as the re-rate
now stores it: each state row's value worked out again from its last rating change's
shown figures, so a club need not re-rate to see the figures add up."""

import re

from django.db import migrations

_FIGURE = re.compile(r"-?\d+(\.\d+)?[A-Za-z*]?")
_NUMBER = re.compile(r"-?\d+(\.\d+)?")


def _shown_change(before, after):
    # As ratings.figures.shown_change stood when this migration was written.
    if not (before and after and _FIGURE.fullmatch(before) and _FIGURE.fullmatch(after)):
        return None
    return round(float(_NUMBER.match(after).group()) - float(_NUMBER.match(before).group()), 2)


def last_changes_as_shown(apps, schema_editor):
    RatingState = apps.get_model("ratings", "RatingState")
    RatingChange = apps.get_model("ratings", "RatingChange")
    states = RatingState.objects.filter(last_event__isnull=False).order_by("pk")
    batch = 2000
    last_pk = 0
    while True:
        rows = list(
            states.filter(pk__gt=last_pk).values_list(
                "pk", "member_id", "last_event_id", "time_class", "last_change"
            )[:batch]
        )
        if not rows:
            return
        last_pk = rows[-1][0]
        shown = {
            (member, event, time_class): _shown_change(before, after)
            for member, event, time_class, before, after in RatingChange.objects.filter(
                member_id__in={row[1] for row in rows},
                event_id__in={row[2] for row in rows},
            ).values_list("member_id", "event_id", "time_class", "display_before", "display_after")
        }
        changed = []
        for pk, member, event, time_class, stored in rows:
            value = shown.get((member, event, time_class), stored)
            if value != stored:
                changed.append(RatingState(pk=pk, last_change=value))
        RatingState.objects.bulk_update(changed, ["last_change"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0019_period_breakdowns_packed"),
    ]

    operations = [
        # Going back keeps the shown figures' difference: a re-rate of the older code
        # writes the unrounded one again.
        migrations.RunPython(last_changes_as_shown, migrations.RunPython.noop),
    ]
