"""Every game once: the games coming in compared with the games already recorded.

The rule and its words are ``rules.duplicates``; this module asks the record, one query
for everything an import brings (however many events and games): the games between
the players coming in, in events whose dates overlap theirs.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..models import Event, Game
from ..rules.duplicates import NONE_FOUND, Duplicates, RecordedGame, compare, fingerprint
from .audit import reason_kept

#: A game coming in as the comparison reads it: (round, white's member id, black's member
#: id or None for a bye, result). Players new to the club (no id yet) have no games.
GameIn = tuple[int, int | None, int | None, str]


@dataclass(frozen=True)
class EventIn:
    """An event's games coming in; ``event`` is its own id when it is recorded already
    (a completion, a pasted round): its own games are not duplicates of themselves."""

    start: dt.date
    end: dt.date
    games: Sequence[GameIn]
    event: int | None = None


def duplicates_find(*, events: Sequence[EventIn]) -> list[Duplicates]:
    """For each event coming in, the games already recorded in another event (one query)."""
    prints = [
        [
            fingerprint(round=r, white=w, black=b, result=res)
            for r, w, b, res in e.games
            if w is not None and b is not None
        ]
        for e in events
    ]
    players = {p for ps in prints for f in ps if f is not None for p in f[1:3]}
    if not players:
        return [NONE_FOUND for _ in events]
    rows = (
        Game.objects.filter(
            black__isnull=False,
            white_id__in=players,
            black_id__in=players,
            event__start_date__lte=max(e.end for e in events),
            event__end_date__gte=min(e.start for e in events),
        )
        .order_by()
        .values_list(
            "event_id",
            "event__name",
            "event__start_date",
            "event__end_date",
            "round",
            "white_id",
            "black_id",
            "result",
        )
    )
    recorded = [
        RecordedGame(
            event=eid,
            name=name,
            start=start,
            end=end,
            print=fingerprint(round=r, white=w, black=b, result=res),  # type: ignore[arg-type]
        )
        for eid, name, start, end, r, w, b, res in rows
    ]
    return [
        compare(
            games=ps,
            start=e.start,
            end=e.end,
            recorded=(g for g in recorded if g.event != e.event),
        )
        for e, ps in zip(events, prints, strict=True)
    ]


def duplicates_of(
    *, start: dt.date, end: dt.date, games: Iterable[GameIn], event: int | None = None
) -> Duplicates:
    """``duplicates_find`` for one event."""
    return duplicates_find(events=[EventIn(start=start, end=end, games=list(games), event=event)])[
        0
    ]


def duplicates_of_event(event: Event) -> Duplicates:
    """The recorded event's own games compared with every other event's."""
    games = [
        (r, w, b, res)
        for r, w, b, res in Game.objects.filter(event=event).values_list(
            "round", "white_id", "black_id", "result"
        )
    ]
    return duplicates_of(start=event.start_date, end=event.end_date, games=games, event=event.pk)


def duplicate_reason_problem(found: Duplicates, reason: str) -> str | None:
    """Why games may not be saved as they are: a duplicate with no reason given."""
    if found.is_duplicate and not reason.strip():
        return (
            f"{found.words()} Open that event to check it, or say here why these games "
            "are to be recorded again."
        )
    return None


def event_duplicate_reason_keep(*, event: Event, reason: str, user: object = None) -> None:
    """Keep with ``event`` the officer's reason for recording games already recorded
    elsewhere (added to any reason it keeps already); its history says so too."""
    reason = reason.strip()
    if not reason or reason in event.duplicate_reason:
        return
    kept = f"{event.duplicate_reason}\n{reason}" if event.duplicate_reason else reason
    event.duplicate_reason = kept[: Event._meta.get_field("duplicate_reason").max_length]
    event._change_reason = reason_kept(f"games recorded again: {reason}")  # type: ignore[attr-defined]
    if getattr(user, "is_authenticated", False):  # a command's change names no one
        event._history_user = user  # type: ignore[attr-defined]
    event.save(update_fields=["duplicate_reason"])
