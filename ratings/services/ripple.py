"""A correction's ripple: re-rate only the later events that the change reaches.

When one event's games change (a result corrected, a game added or taken out) or one
event becomes rateable (completed late), every later event is rated from the same
states as before unless one of its players' states has changed. The walk starts
from that event with no member "changed"; it rates the event, and a player whose new
state differs from the one stored for them after it is changed from there on. A later
event is rated again only if a changed member plays in it (its other players' states
are read from the stored chain); after it, each player is changed or not by the same
test. An event no changed member reaches keeps its rows: rated from the same states
and games, the engine would give the same rows (it is deterministic, and a per-event
system rates an event from its players' states alone).

So a correction a year back rewrites the events its ripple reaches (a third of them in
a club of 20,000, docs/performance.md) and their players' current states, not the
whole year. Period systems rate a period as a whole, and a period's opening can change
members who do not play (acf-1993): their ripple is ``period_ripple.py``. Every other
change (an event deleted, moved or un-rated, a starting rating, a merge) takes the full
road in ``rerate.py``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from django.db import connection

from ..engine import Event as EngineEvent
from ..engine import Game as EngineGame
from ..engine import PlayerState, RatingSystem
from ..engine.codec import state_to_dict
from ..models import Event, Game, Member, RatingChange
from ..presentation.counts import count_phrase
from .chain import (
    Position,
    RerateScope,
    member_initial_state,
    state_from_json,
)

#: Rewritten events' rows flushed at a time (their deletes and inserts).
FLUSH_EVENTS = 200
#: Events whose new faces are looked up along with one event's.
LOOK_AHEAD = 25

#: A member's stored row of one event: its state after (JSON, read as text) and its
#: figures as shown before and after.
Stored = tuple[Any, str, str]


def ripple_possible(*, scope: RerateScope, system: RatingSystem, changed: Event | None) -> bool:
    """Whether a re-rate of ``scope`` after a change to ``changed`` alone may ripple."""
    return (
        changed is not None
        and not system.period_based
        and scope.key is not None
        and bool(scope.events)
        and scope.events[0].pk == changed.pk
    )


def _stored_rows(events: Sequence[Event]) -> dict[int, dict[int, Stored]]:
    """The stored rows of ``events``: event pk -> member pk -> (state after, shown before,
    shown after).

    The states stay JSON text (decoded only for the few the ripple compares), read down
    the (event, member) index.
    """
    from .rerate_rows import chunks

    state = "state_after::text" if connection.vendor == "postgresql" else "state_after"
    out: dict[int, dict[int, Stored]] = {e.pk: {} for e in events}
    with connection.cursor() as cursor:
        for chunk in chunks([e.pk for e in events]):
            marks = ", ".join(["%s"] * len(chunk))
            cursor.execute(
                f"SELECT event_id, member_id, {state}, display_before, display_after "
                "FROM ratings_ratingchange "
                f"WHERE event_id IN ({marks})",
                list(chunk),
            )
            for event_id, member_id, text, before, after in cursor.fetchall():
                out[event_id][member_id] = (text, before, after)
    return out


def _states_at_start(
    key: Position, system: RatingSystem, member_ids: set[int], time_class: str
) -> dict[int, PlayerState]:
    """The members' states before rating position ``key``: their last rows before it (one
    indexed lookup a member, in one statement), or as they came in.

    Plain SQL through ``raw()``: the walk asks this for the new faces of the events it
    re-rates, and the ORM's compiling of a correlated subquery would cost more than the
    lookups themselves.
    """
    from .rerate_rows import chunks

    end, start, pk = (
        connection.ops.adapt_datefield_value(key[0]),
        connection.ops.adapt_datefield_value(key[1]),
        key[2],
    )
    state = "c.state_after::text" if connection.vendor == "postgresql" else "c.state_after"
    found: dict[int, PlayerState] = {}
    for ids in chunks(sorted(member_ids)):
        marks = ", ".join(["%s"] * len(ids))
        members = Member.objects.raw(
            f"SELECT m.*, (SELECT {state} FROM ratings_ratingchange c "
            "WHERE c.member_id = m.id AND c.time_class = %s "
            "AND (c.event_end < %s OR (c.event_end = %s "
            "AND (c.event_start < %s OR (c.event_start = %s AND c.event_id < %s)))) "
            "ORDER BY c.event_end DESC, c.event_start DESC, c.event_id DESC LIMIT 1) "
            f"AS last_state FROM ratings_member m WHERE m.id IN ({marks})",
            [time_class, end, end, start, start, pk, *ids],
        )
        for member in members:
            text = member.last_state  # type: ignore[attr-defined]
            found[member.pk] = (
                member_initial_state(member, system, time_class)
                if text is None
                else state_from_json(text)
            )
    return found


def _event_games(events: Sequence[Event]) -> dict[int, list[tuple[int, int, str, int]]]:
    """Each event's played games as plain rows (white, black, result, round), in the order
    the engine takes them: most events only show who played, so no engine games yet."""
    by_event: dict[int, list[tuple[int, int, str, int]]] = {e.pk: [] for e in events}
    games = (
        Game.objects.filter(event__in=[e.pk for e in events], result__in=Game.PLAYED)
        .exclude(black__isnull=True)
        .order_by("event_id", "round", "board", "pk")
        .values_list("event_id", "white_id", "black_id", "result", "round")
    )
    for event_id, *game in games.iterator(chunk_size=5000):
        by_event[event_id].append(tuple(game))  # type: ignore[arg-type]
    return by_event


def _engine_event(event: Event, games: list[tuple[int, int, str, int]]) -> EngineEvent:
    points = {result: score for result, (score, _) in Game.POINTS.items()}
    return EngineEvent(
        id=str(event.pk),
        date=event.end_date,
        games=tuple(EngineGame(str(w), str(b), points[r], n) for w, b, r, n in games),
    )


def ripple_rerate(
    *,
    scope: RerateScope,
    system: RatingSystem,
    report: Callable[[int, str], None],
    time_class: str,
) -> tuple[int, int]:
    """Re-rate ``scope``, whose first event alone changed, as far as the change reaches.

    Returns the events and games rated (those the ripple reached).
    """
    from .rerate import AFTER_ALL, Chain, _batches
    from .rerate_rows import CHANGE_COLUMNS, chunks, insert_rows

    assert scope.key is not None
    walk = Chain(system, scope.key, time_class)  # builds the rows; ``walk.last``: rows it writes
    changed: dict[int, PlayerState] = {}  # member pk -> their state, where it differs
    # member pk -> their state as the walk stands: a PlayerState, or the stored row
    # (``Stored``) of the last event out of reach they played in, and that event.
    known: dict[int, Any] = {}
    where: dict[int, Event] = {}
    at_start: dict[int, PlayerState] = {}  # member pk -> their state before the start
    touched: set[int] = set()  # members whose current state is written again
    lost: set[int] = set()  # taken out of an event, their last row unknown to the walk
    pending: list[int] = []  # events whose rows are rewritten, not yet flushed
    rows: list[tuple[Any, ...]] = []
    events_rated = games_rated = done = 0
    total = len(scope.events)

    def flush() -> None:
        for chunk in chunks(pending):
            RatingChange.objects.filter(event__in=chunk, time_class=time_class).delete()
        insert_rows(RatingChange, CHANGE_COLUMNS, rows)
        pending.clear()
        rows.clear()

    def state_of(pk: int) -> PlayerState:
        value = known[pk]
        return value if isinstance(value, PlayerState) else state_from_json(value[0])

    first = scope.events[0].pk
    for batch in _batches(scope.events, system):
        stored_rows = _stored_rows(batch)
        event_games = _event_games(batch)
        for index, event in enumerate(batch):
            stored = stored_rows[event.pk]
            games = event_games[event.pk]
            players = {pk for game in games for pk in game[:2]}
            if event.pk != first and changed.keys().isdisjoint(players):
                # Out of the ripple's reach: its rows stand, and say where its players are.
                known.update(stored)
                where.update(dict.fromkeys(stored, event))
                continue
            everyone = players | stored.keys()
            # Membership tests, not set arithmetic with the dicts' keys: ``a_set -
            # a_dict.keys()`` walks the whole dict (every member met so far, 200,000 at
            # ten million games), not the event's fifty players.
            states = {str(pk): changed[pk] for pk in everyone if pk in changed}
            missing = {pk for pk in everyone if pk not in changed and pk not in known}
            for pk in everyone:
                if pk not in changed and pk not in missing:
                    states[str(pk)] = state_of(pk)
            if any(pk not in at_start for pk in missing):
                # First met since the start: as they stood before it. So are the new faces
                # of the next few events, looked up with them (one statement, not one an
                # event; a state before the start holds until the walk meets them).
                ahead = {
                    pk
                    for later in batch[index : index + LOOK_AHEAD]
                    for game in event_games[later.pk]
                    for pk in game[:2]
                }
                wanted = missing | {
                    pk
                    for pk in ahead
                    if pk not in changed and pk not in known and pk not in at_start
                }
                at_start.update(_states_at_start(scope.key, system, wanted, time_class))
            for pk in missing:
                states[str(pk)] = at_start[pk]
            event_input = _engine_event(event, games)
            result = system.rate([states[str(pk)] for pk in players], [event_input])
            after = {int(state.id): state for state in result.players}
            for pk in everyone:
                # A player taken out of the event keeps the state they came in with.
                state = after.get(pk) or states[str(pk)]
                old = stored.get(pk)
                if old is not None and _as_dict(old[0]) == state_to_dict(state):
                    changed.pop(pk, None)
                else:
                    changed[pk] = state
                known[pk] = state
                if pk in after:
                    where.pop(pk, None)
                elif pk not in walk.last and pk not in where:
                    lost.add(pk)
            touched |= everyone
            rows.extend(walk.change_rows([event], result.events))
            pending.append(event.pk)
            events_rated += 1
            games_rated += len(games)
            if len(pending) >= FLUSH_EVENTS:
                flush()
        done += len(batch)
        report(
            10 + 80 * done // max(total, 1), f"Looked at {done} of {count_phrase(total, 'event')}"
        )
    flush()
    report(92, "Saving current ratings")
    final = Chain(system, AFTER_ALL, time_class)
    final.take_in(lost)  # their last row, wherever it is now
    rest = touched - lost
    final.touched |= rest
    for chunk in chunks(sorted(rest)):
        active = Member.objects.filter(pk__in=chunk).active()
        final.active.update(active.values_list("pk", flat=True))
    for pk in rest:
        final.states[str(pk)] = state_of(pk)
        if pk in where:  # last seen in an event out of reach: its stored row
            _, shown_before, shown_after = known[pk]
            event = where[pk]
            final.last[pk] = (event.pk, event.end_date, shown_before, shown_after)
        elif pk in walk.last:
            final.last[pk] = walk.last[pk]
    final.write_states(everyone=False)
    return events_rated, games_rated


def _as_dict(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value
