"""Everything the club holds about one member, for the officer to give them: their record,
subscriptions, games, rating changes and the history of their record, as plain data (the
officer's JSON and CSV downloads read it)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from django.db.models import Q

from ..models import Game, Member, RatingChange

#: The record's own fields in the download, in this order (what the club holds of them).
RECORD_FIELDS = (
    "member_number",
    "name",
    "email",
    "mail_consent_at",
    "mail_consent_how",
    "mail_wanted",
    "born",
    "gender",
    "region",
    "title",
    "fide_id",
    "is_guest",
    "initial_rating",
    "initial_games",
    "brought_in",
    "created",
)


def member_held(*, member: Member) -> dict[str, Any]:
    """Each section of what is held about ``member``, a list of rows (dicts) but the
    record itself; a fixed number of queries however long their history."""
    subscriptions = [
        {
            "season": sub.season.name,
            "season_start": sub.season.start,
            "season_end": sub.season.end,
            "paid_on": sub.paid_on,
            "amount": sub.amount,
        }
        for sub in member.subscriptions.select_related("season").order_by("season__start")
    ]
    games = []
    played = (
        Game.objects.filter(Q(white=member) | Q(black=member))
        .select_related("event", "white", "black")
        .order_by("event__start_date", "event_id", "round", "pk")
    )
    for game in played:
        white = game.white_id == member.pk
        opponent = game.black if white else game.white
        games.append(
            {
                "event": game.event.name,
                "date": game.event.start_date,
                "round": game.round,
                "colour": "white" if white else "black",
                "opponent_number": opponent.member_number if opponent else "",
                "opponent": opponent.name if opponent else "",
                "result": game.result,
            }
        )
    changes = [
        {
            "event": change.event.name,
            "list": change.time_class,
            "period": change.period,
            "before": change.before,
            "after": change.after,
            "shown_before": change.display_before,
            "shown_after": change.display_after,
        }
        for change in RatingChange.objects.filter(member=member)
        .select_related("event")
        .defer("breakdown", "state_after")
        .order_by("event_end", "event_start", "event_id")
    ]
    history = [
        {
            "when": version.history_date,
            "by": version.history_user.get_username() if version.history_user else "",
            "change": {"+": "created", "~": "changed", "-": "deleted"}.get(
                version.history_type, version.history_type
            ),
            "reason": version.history_change_reason or "",
            **{name: getattr(version, name) for name in RECORD_FIELDS if name != "created"},
        }
        for version in member.history.select_related("history_user").order_by("history_date")
    ]
    return {
        "record": {name: getattr(member, name) for name in RECORD_FIELDS},
        "subscriptions": subscriptions,
        "games": games,
        "rating_changes": changes,
        "history": history,
    }


def plain(value: Any) -> Any:
    """A value as JSON and CSV write it: dates in ISO form, amounts as text."""
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def member_held_json(*, member: Member) -> dict[str, Any]:
    held = member_held(member=member)
    return {
        "record": {name: plain(value) for name, value in held["record"].items()},
        **{
            section: [{k: plain(v) for k, v in row.items()} for row in rows]
            for section, rows in held.items()
            if section != "record"
        },
    }


#: The download's columns: one figure a line, each named by its section, row and field.
HELD_CSV = ("section", "row", "field", "value")


def member_held_rows(*, member: Member) -> Iterator[list[Any]]:
    """The CSV's rows (after ``HELD_CSV``): every field of every section, one a line."""
    held = member_held_json(member=member)
    for name, value in held["record"].items():
        if isinstance(value, dict):
            # The words brought in with a rating, one a line by their name ("brought_in.status").
            for word, given in value.items():
                yield ["record", 1, f"{name}.{word}", _cell(given)]
        else:
            yield ["record", 1, name, _cell(value)]
    for section, rows in held.items():
        if section == "record":
            continue
        for number, row in enumerate(rows, start=1):
            for name, value in row.items():
                yield [section, number, name, _cell(value)]


def _cell(value: Any) -> Any:
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return "" if value is None else value
