"""The record as both ripples read it (``ripple.py``, ``period_ripple.py``): the events'
stored rows and played games, in plain SQL, and an event as the engine takes it. Kept
apart from either ripple so that neither reaches into the other's private helpers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connection

from ..engine import Event as EngineEvent
from ..engine import Game as EngineGame
from ..models import Event, Game
from .rerate_rows import chunks

#: A member's stored row of one event: its state after (JSON, read as text) and its
#: figures as shown before and after.
Stored = tuple[Any, str, str]


def stored_rows_of(
    events: Sequence[Event], *, ids: dict[tuple[int, int], int] | None = None
) -> dict[int, dict[int, Stored]]:
    """The stored rows of ``events``: event pk -> member pk -> (state after, shown before,
    shown after).

    The states stay JSON text (decoded only for the few the ripple compares), read down
    the (event, member) index. ``ids``, where given, is filled with each row's pk by
    (event pk, member pk): a walk that rewrites some of the rows deletes them by it,
    all at once when it flushes, instead of looking them up again a step at a time.
    """
    state = "state_after::text" if connection.vendor == "postgresql" else "state_after"
    out: dict[int, dict[int, Stored]] = {e.pk: {} for e in events}
    with connection.cursor() as cursor:
        for chunk in chunks([e.pk for e in events]):
            marks = ", ".join(["%s"] * len(chunk))
            cursor.execute(
                f"SELECT id, event_id, member_id, {state}, display_before, display_after "
                "FROM ratings_ratingchange "
                f"WHERE event_id IN ({marks})",
                list(chunk),
            )
            for pk, event_id, member_id, text, before, after in cursor.fetchall():
                out[event_id][member_id] = (text, before, after)
                if ids is not None:
                    ids[event_id, member_id] = pk
    return out


def games_of(events: Sequence[Event]) -> dict[int, list[tuple[int, int, str, int]]]:
    """Each event's played games as plain rows (white, black, result, round), in the order
    the engine takes them: most events only show who played, so no engine games yet.

    Plain SQL: the ripple asks this for a few events at a time as it reaches them, and the
    ORM's compiling of the query cost more than reading their games."""
    by_event: dict[int, list[tuple[int, int, str, int]]] = {e.pk: [] for e in events}
    played = sorted(Game.PLAYED)
    with connection.cursor() as cursor:
        for chunk in chunks([e.pk for e in events]):
            cursor.execute(
                f"SELECT event_id, white_id, black_id, result, round FROM {Game._meta.db_table} "
                f"WHERE event_id IN ({', '.join(['%s'] * len(chunk))}) "
                f"AND result IN ({', '.join(['%s'] * len(played))}) AND black_id IS NOT NULL "
                "ORDER BY event_id, round, board, id",
                [*chunk, *played],
            )
            for event_id, white, black, result, round_ in cursor.fetchall():
                by_event[event_id].append((white, black, result, round_))
    return by_event


def engine_event(event: Event, games: list[tuple[int, int, str, int]]) -> EngineEvent:
    points = {result: score for result, (score, _) in Game.POINTS.items()}
    return EngineEvent(
        id=str(event.pk),
        date=event.end_date,
        games=tuple(EngineGame(str(w), str(b), points[r], n) for w, b, r, n in games),
    )
