"""A rating change's game lines and figures for a page.

A period system's change stores them packed (``breakdowns``): its lines are read with the
member's games in the event, which give each line its opponent, score and round, in one
statement for every change a page shows.

A per-event system's rating change stores no breakdown (``breakdowns.breakdown_stored``):
the engine is deterministic and rates an event from its games and its players' states
before it alone, and the chain keeps those states (each player's previous change's
``state_after``, or the state they came in with). So rating the event again from them
gives the very lines and figures the re-rate had, at the cost of one event's rating and
one indexed lookup a player, in a few statements however many events a page shows. A
member's page rates only the games the system names for their lines
(``RatingSystem.games_to_rate``: their own games where it rates players apart; for
st-charles, whose games move the ratings later games are played on, the games before
each of theirs that moved either player, and so on back), and reads only those players'
states.

A derived change whose before and after differ from the stored row's (its games or the
club's rules changed and the re-rate has not caught up yet) is not shown: its lines would
not add up to the row's change. The page then shows the event's change without its lines
until the re-rate writes the row again.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection

from ..engine import Event as EngineEvent
from ..engine import Game as EngineGame
from ..engine import PlayerChange, PlayerState, RatingSystem
from ..models import ClubSettings, Event, Game, Member, RatingChange
from ..models.breakdowns import (
    PlayedGame,
    breakdown_has_lines,
    breakdown_is_packed,
    breakdown_json,
    breakdown_read,
    breakdown_unpacked,
)
from ..services.chain import member_initial_state, state_from_json

#: Events whose players' states are read in one statement.
EVENTS_AT_ONCE = 200


def _states_before(
    event_ids: Sequence[int], system: RatingSystem, member_ids: Iterable[int] | None = None
) -> dict[int, dict[int, PlayerState]]:
    """Each rated player of each event: their state before it on the event's list, the
    state after their previous change there or (the event is their first rated one on it)
    the state they came in with.

    One statement for all the events, one indexed lookup (``change_member_chain``) a
    player; the member's own columns come along for those who came in with the event,
    so plain SQL rather than ``raw()``, which would make a Member of every row.
    """
    fields = list(Member._meta.concrete_fields)
    state = "p.state_after::text" if connection.vendor == "postgresql" else "p.state_after"
    marks = ", ".join(["%s"] * len(event_ids))
    members = sorted(set(member_ids)) if member_ids is not None else []
    if member_ids is not None and not members:
        return {pk: {} for pk in event_ids}
    only = f" AND c.member_id IN ({', '.join(['%s'] * len(members))})" if members else ""
    columns = ", ".join(f"m.{connection.ops.quote_name(f.column)}" for f in fields)
    out: dict[int, dict[int, PlayerState]] = {pk: {} for pk in event_ids}
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT c.event_id, c.time_class, (SELECT {state} FROM ratings_ratingchange p "
            "WHERE p.member_id = c.member_id AND p.time_class = c.time_class "
            "AND (p.event_end < c.event_end "
            "OR (p.event_end = c.event_end AND (p.event_start < c.event_start "
            "OR (p.event_start = c.event_start AND p.event_id < c.event_id)))) "
            "ORDER BY p.event_end DESC, p.event_start DESC, p.event_id DESC LIMIT 1), "
            f"{columns} FROM ratings_ratingchange c JOIN ratings_member m ON m.id = c.member_id "
            f"WHERE c.event_id IN ({marks}){only}",
            [*event_ids, *members],
        )
        names = [f.attname for f in fields]
        pk_at = names.index(Member._meta.pk.attname)
        for event_id, time_class, text, *row in cursor.fetchall():
            if text is not None:
                out[event_id][row[pk_at]] = state_from_json(text)
                continue
            # Their first rated event: as they came in (rare, so the model's own reading).
            member = Member.from_db(connection.alias, names, _converted(row, fields))
            out[event_id][member.pk] = member_initial_state(member, system, time_class)
    return out


def _converted(row: list[Any], fields: list[Any]) -> list[Any]:
    """A member's row as the ORM reads it (SQLite's dates are text, and so on)."""
    values = []
    for value, field in zip(row, fields, strict=True):
        col = field.get_col(Member._meta.db_table)
        for convert in connection.ops.get_db_converters(col) + col.get_db_converters(connection):
            value = convert(value, col, connection)
        values.append(value)
    return values


def _played_rows(
    event_ids: Sequence[int], members: Sequence[int] | None = None
) -> list[tuple[int, int, int, float, int | None]]:
    """The played games of ``event_ids`` (those of ``members`` only, where given) as
    (event pk, white pk, black pk, white's score, round), in the order the re-rate rated
    them (``chain.engine_events``'s), in one statement, without the ORM's cost a row."""
    played = list(Game.PLAYED)
    points = {result: score for result, (score, _) in Game.POINTS.items()}
    only = ""
    if members is not None:
        marks = ", ".join(["%s"] * len(members))
        only = f" AND (white_id IN ({marks}) OR black_id IN ({marks}))"
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT event_id, white_id, black_id, result, round FROM ratings_game "
            f"WHERE event_id IN ({', '.join(['%s'] * len(event_ids))}) "
            f"AND result IN ({', '.join(['%s'] * len(played))}) "
            f"AND black_id IS NOT NULL{only} ORDER BY event_id, round, board, id",
            [*event_ids, *played, *(members or []), *(members or [])],
        )
        return [
            (event_id, white, black, points[result], round_)
            for event_id, white, black, result, round_ in cursor.fetchall()
        ]


def _engine_events(
    events: Sequence[Event], members: Sequence[int] | None = None
) -> list[EngineEvent]:
    """``chain.engine_events`` in plain SQL: the same games in the same order (only
    ``members``' games, where given)."""
    by_event: dict[int, list[EngineGame]] = {e.pk: [] for e in events}
    for event_id, white, black, score, round_ in _played_rows([e.pk for e in events], members):
        by_event[event_id].append(EngineGame(str(white), str(black), score, round_))
    return [
        EngineEvent(id=str(e.pk), date=e.end_date, games=tuple(by_event[e.pk])) for e in events
    ]


def event_changes_derive(
    *,
    events: Sequence[Event],
    system: RatingSystem,
    members: Iterable[int] | None = None,
) -> dict[int, dict[int, PlayerChange]]:
    """The engine's changes of rated ``events`` of a per-event system, rated again from
    their players' states before each: event pk -> member pk -> change. An event with a
    player the chain has no change of (its games changed since) is left out.

    ``members``: the players wanted (a member's page): only the games the system needs
    for their lines are rated again (``games_to_rate``: their own where it rates players
    apart), from the states of those games' players; the others' changes are then partial.
    """
    assert not system.period_based, "a period system's lines are stored"
    wanted = {str(pk) for pk in members} if members is not None else None
    # Players rated apart need no game but their own: the others are not read at all.
    own = sorted(int(pk) for pk in wanted) if wanted and system.rates_players_apart else None
    out: dict[int, dict[int, PlayerChange]] = {}
    for at in range(0, len(events), EVENTS_AT_ONCE):
        batch = events[at : at + EVENTS_AT_ONCE]
        inputs = _engine_events(batch, own)
        players = None
        if wanted is not None:
            inputs = [
                EngineEvent(id=e.id, date=e.date, games=system.games_to_rate(e, wanted))
                for e in inputs
            ]
            players = {int(pid) for e in inputs for g in e.games for pid in (g.a, g.b)}
        before = _states_before([e.pk for e in batch], system, players)
        for event in inputs:
            states = {str(pk): state for pk, state in before[int(event.id)].items()}
            if any(g.a not in states or g.b not in states for g in event.games):
                continue
            results = system.rate(states.values(), [event]).events
            changes = results[0].changes if results else []
            out[int(event.id)] = {int(change.player): change for change in changes}
    return out


def _agrees(change: PlayerChange, before: float | None, after: float | None) -> bool:
    def same(x: float | None, y: float | None) -> bool:
        return (x is None and y is None) or (
            x is not None and y is not None and math.isclose(x, y, rel_tol=0, abs_tol=1e-9)
        )

    return same(change.before, before) and same(change.after, after)


def played_games(
    *, events: Sequence[int], members: Iterable[int] | None = None
) -> dict[tuple[int, int], list[PlayedGame]]:
    """Each player's games in ``events`` (only ``members``' where given), as a packed
    breakdown's lines are read with them: (event pk, member pk) -> [(opponent, score,
    round)], in the order the engine rated them (``chain.engine_events``'s). One statement
    for every ``EVENTS_AT_ONCE`` events.
    """
    wanted = sorted(set(members)) if members is not None else None
    out: dict[tuple[int, int], list[PlayedGame]] = {}
    if wanted == []:
        return out
    ids = sorted(set(events))
    for at in range(0, len(ids), EVENTS_AT_ONCE):
        for event_id, white, black, score, round_ in _played_rows(
            ids[at : at + EVENTS_AT_ONCE], wanted
        ):
            out.setdefault((event_id, white), []).append((str(black), score, round_))
            out.setdefault((event_id, black), []).append((str(white), 1.0 - score, round_))
    return out


def changes_breakdown_fill(
    *,
    changes: Iterable[RatingChange],
    system: RatingSystem | None = None,
    club: ClubSettings | None = None,
) -> None:
    """Give each of ``changes`` (with their events) its breakdown whole: a packed one's
    lines read with its games, a per-event system's worked out again, in a few statements
    for them all.

    ``system``: the changes' list's; none, each list's own (changes of several lists), of
    ``club`` (the settings a page has read already).
    """
    changes = list(changes)
    packed = [c for c in changes if breakdown_is_packed(c.breakdown)]
    if packed:
        games = played_games(
            events=[c.event_id for c in packed], members={c.member_id for c in packed}
        )
        for change in packed:
            change.breakdown = breakdown_unpacked(
                change.breakdown,
                games.get((change.event_id, change.member_id)),
                score=change.score,
            )
    wanted = [c for c in changes if not breakdown_has_lines(c.breakdown or {})]
    if not wanted:
        return
    if system is None:
        club = club or ClubSettings.load()
        by_list: dict[str, list[RatingChange]] = {}
        for change in wanted:
            by_list.setdefault(change.time_class, []).append(change)
        for rating_list, group in by_list.items():
            changes_breakdown_fill(changes=group, system=club.engine(rating_list))
        return
    if system.period_based:
        return
    events = {c.event_id: c.event for c in wanted}
    derived = event_changes_derive(
        events=list(events.values()), system=system, members={c.member_id for c in wanted}
    )
    for change in wanted:
        found = derived.get(change.event_id, {}).get(change.member_id)
        if found is not None and _agrees(found, change.before, change.after):
            change.breakdown = breakdown_json(found)


def event_breakdowns(
    *, event: Event, changes: Sequence[dict[str, Any]], system: RatingSystem
) -> dict[int, dict[str, Any]]:
    """The whole breakdowns of one event's saved ``changes`` (dicts with player, before,
    after, score and breakdown) that are not stored whole: a packed one's read with the
    event's games, a per-event system's worked out again. Member pk -> breakdown."""
    out = {}
    packed = [c for c in changes if breakdown_is_packed(c["breakdown"])]
    if packed:
        games = played_games(events=[event.pk])
        for change in packed:
            out[change["player"]] = breakdown_unpacked(
                change["breakdown"], games.get((event.pk, change["player"])), score=change["score"]
            )
    wanted = [c for c in changes if not breakdown_has_lines(c["breakdown"] or {})]
    if system.period_based or not wanted:
        return out
    derived = event_changes_derive(events=[event], system=system).get(event.pk, {})
    for change in wanted:
        found = derived.get(change["player"])
        if found is not None and _agrees(found, change["before"], change["after"]):
            out[change["player"]] = breakdown_json(found)
    return out


def period_event_breakdowns(
    *, event: Event, members: Iterable[int]
) -> tuple[list[Event], dict[int, dict[int, dict[str, Any]]]]:
    """A period system's changes of ``members`` in every event of ``event``'s rating
    period (the period's change is stored on each): the period's events in the order
    rated, and member pk -> event pk -> that change's breakdown as ``breakdown_read``
    gives it, its lines read with the games. A few statements, however many members."""
    wanted = sorted(set(members))
    mine = (
        RatingChange.objects.filter(event=event, member_id__in=wanted)
        .values_list("period", "time_class")
        .first()
    )
    if mine is None or not mine[0]:
        return [], {}
    period, time_class = mine
    rows = list(
        RatingChange.objects.filter(member_id__in=wanted, period=period, time_class=time_class)
        .order_by("event_start", "event_end", "event_id")
        .values_list("member_id", "event_id", "breakdown", "score")
    )
    ids = list(dict.fromkeys(event_id for _m, event_id, _b, _s in rows))
    by_pk = Event.objects.in_bulk(ids)
    games = played_games(events=ids, members=wanted)
    out: dict[int, dict[int, dict[str, Any]]] = {}
    for member_id, event_id, stored, score in rows:
        data: Any = stored  # the JSON a change stores: packed (a list) or whole (a dict)
        whole = (
            breakdown_unpacked(data, games.get((event_id, member_id)), score=score)
            if breakdown_is_packed(data)
            else data
        )
        out.setdefault(member_id, {})[event_id] = breakdown_read(whole)
    return [by_pk[pk] for pk in ids if pk in by_pk], out
