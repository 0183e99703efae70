"""A period system's rating changes store their breakdowns packed (ratings/breakdowns.py):
their figures' values without their names, and of each game line only what the engine
worked out (the opponent's rating as used, the system's own figures). The opponent, the
score and the round are the game's: pages read them from the Game rows. Stored whole, the
breakdowns were most of a period club's database.

The column becomes JSON kept as text (``models.rating.JSONText``): PostgreSQL's jsonb
spent 8 to 12 bytes on each number, twice the packed text.

Converted in place. A row no shape fits (or not a period system's) is kept as it was,
written again as compact text: the pages read it whole as before. Going back empties the
packed rows: the older code shows their changes without figures or lines until a re-rate
writes them whole again.
"""

from django.db import migrations

import ratings.models.rating

#: ``ratings.breakdowns`` as this migration packs, copied rather than imported: a
#: migration must do the same whatever the code later becomes.
LINE_KEYS = ("opponent", "score", "opponent_rating", "round", "expected", "change", "rated")
_ACF_STATUS = ("status_before", "status_after")
_ACF_ESTABLISHED = ("calculation", "NG", "Sa", "AR", "D", "D_table", "P", "Se", "BP", "Ri")
_ACF_NONE_RATED = ("calculation", "NG", "Sa", "AR", "D", "P", "Se", "BP", "Ri")
_ACF_PERFORMANCE = ("calculation", "played", "Sa", "NG", "TS", "AR", "percentage", "Dp", "Rp")
_ACF_LINE = ("held_from",)
_ECF_MONTH = ("category_before", "category_after", "pass", "month_games", "month_points")
_ECF_P = (
    "dummy_rating",
    "total_games",
    "total_points",
    "avg_opp",
    "p",
    "dp",
    "rating_a",
    "rating_b",
    "pass1_games_used",
    "pass1_total_games",
    "pass1_avg_opp",
    "pass1_p",
    "pass1_dp",
)
_ECF_K = ("player_k", "improving", "sum_offsets", "adjustment")
_ECF_LINE = ("d", "d_offset", "score_offset", "increment")
#: (figures, a line's own figures), each at its place in ``breakdowns.SHAPES``.
SHAPES = (
    (_ACF_STATUS + _ACF_ESTABLISHED, _ACF_LINE),
    (_ACF_STATUS + _ACF_NONE_RATED, _ACF_LINE),
    (_ACF_STATUS + _ACF_PERFORMANCE, _ACF_LINE),
    ((*_ACF_STATUS, "reset", *_ACF_PERFORMANCE), _ACF_LINE),
    (_ECF_MONTH + _ECF_P, _ECF_LINE),
    (_ECF_MONTH + _ECF_K, _ECF_LINE),
)
_SHAPE_OF = {frozenset(figures): at for at, (figures, _) in enumerate(SHAPES)}
#: Rows read and written at a time.
BATCH = 2000


def _plain(value):
    if type(value) is float and value.is_integer() and abs(value) < 2**53:
        return int(value)
    return value


def packed(data):
    """A whole breakdown (lines as rows under keys, or as dicts as older rows had them)
    packed; None when it is not a period system's or a line holds what packing drops."""
    if not isinstance(data, dict):
        return None
    if "lines" in data:
        keys = data["lines"]["keys"]
        lines = [dict(zip(keys, row)) for row in data["lines"]["rows"]]
    elif "games" in data:
        lines = data["games"]
    else:
        return None
    figures = {key: value for key, value in data.items() if key not in ("lines", "games")}
    at = _SHAPE_OF.get(frozenset(figures))
    if at is None:
        return None
    names, own_names = SHAPES[at]
    out = []
    for line in lines:
        rating = line.get("opponent_rating")
        own = {key: value for key, value in line.items() if key not in LINE_KEYS}
        if (
            line.get("expected") is not None
            or line.get("change") is not None
            or line.get("rated", True) != (rating is not None)
            or not own.keys() <= set(own_names)
        ):
            return None
        values = [_plain(rating), *(_plain(own.get(key)) for key in own_names)]
        while len(values) > 1 and values[-1] is None:
            values.pop()
        out.append(values[0] if len(values) == 1 else values)
    return [at, *(_plain(figures[key]) for key in names), out]


def pack_breakdowns(apps, schema_editor):
    RatingChange = apps.get_model("ratings", "RatingChange")
    last = 0
    while True:
        rows = list(
            RatingChange.objects.filter(pk__gt=last)
            .exclude(breakdown={})
            .order_by("pk")
            .only("pk", "breakdown")[:BATCH]
        )
        if not rows:
            return
        last = rows[-1].pk
        for row in rows:
            # Every row is written again: PostgreSQL's jsonb turned to text with spaces.
            row.breakdown = packed(row.breakdown) or row.breakdown
        RatingChange.objects.bulk_update(rows, ["breakdown"], batch_size=500)


def empty_packed(apps, schema_editor):
    RatingChange = apps.get_model("ratings", "RatingChange")
    last = 0
    while True:
        rows = list(
            RatingChange.objects.filter(pk__gt=last)
            .exclude(breakdown={})
            .order_by("pk")
            .only("pk", "breakdown")[:BATCH]
        )
        if not rows:
            return
        last = rows[-1].pk
        ids = [row.pk for row in rows if isinstance(row.breakdown, list)]
        RatingChange.objects.filter(pk__in=ids).update(breakdown={})


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0018_member_brought_in_by"),
    ]

    operations = [
        migrations.AlterField(
            model_name="ratingchange",
            name="breakdown",
            field=ratings.models.rating.JSONText(default=dict),
        ),
        migrations.RunPython(pack_breakdowns, empty_packed, elidable=True),
    ]
