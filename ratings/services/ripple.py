"""A correction's ripple: re-rate only the later events that the change reaches.

When one event's games change (a result corrected, a game added or taken out) or one
event becomes rateable (completed late), every later event is rated from the same
states as before unless one of its players' states has changed. The walk starts
from that event with no member "changed"; it rates the event, and a player whose new
state differs from the one stored for them after it is changed from there on. A later
event is rated again only if a changed member plays in it, that is has a row in it
(its other players' states are read from the stored chain); after it, each player is
changed or not by the same test. An event no changed member reaches keeps its rows:
rated from the same states and games, the engine would give the same rows (it is
deterministic, and a per-event system rates an event from its players' states alone).

So a correction a year back rewrites the events its ripple reaches (a third of them in
a club of 20,000, docs/performance.md) and their players' current states, not the
whole year. Period systems rate a period as a whole, and a period's opening can change
members who do not play (acf-1993): their ripple is ``period_ripple.py``. Every other
change (an event deleted, moved or un-rated, a starting rating, a merge) takes the full
road in ``rerate.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from django.db import connection

from ..engine import PlayerState, RatingSystem
from ..models import Event, Member, RatingChange
from .chain import (
    Position,
    RerateScope,
    member_initial_state,
    state_from_json,
)
from .rerate_chain import LastChange
from .rerate_rows import chunks
from .ripple_reads import Stored, engine_event, games_of, stored_rows_of
from .ripple_walk import RippleWalk

#: Rewritten events' rows flushed at a time (their deletes and inserts).
FLUSH_EVENTS = 200
#: Events whose new faces are looked up along with one event's.
LOOK_AHEAD = 25


def ripple_possible(
    *, scope: RerateScope, system: RatingSystem[Any], changed: Event | None
) -> bool:
    """Whether a re-rate of ``scope`` after a change to ``changed`` alone may ripple."""
    return (
        changed is not None
        and not system.period_based
        and scope.key is not None
        and bool(scope.events)
        and scope.events[0].pk == changed.pk
    )


def _states_at_start(
    key: Position, system: RatingSystem[Any], member_ids: set[int], time_class: str
) -> dict[int, PlayerState]:
    """The members' states before rating position ``key``: their last rows before it (one
    indexed lookup a member, in one statement), or as they came in.

    Plain SQL: the walk asks this for the new faces of the events it re-rates, and the
    ORM's compiling of a correlated subquery, or making a member of every row, would cost
    more than the lookups themselves. Only members with no row before read the member.
    """
    end, start, pk = (
        connection.ops.adapt_datefield_value(key[0]),
        connection.ops.adapt_datefield_value(key[1]),
        key[2],
    )
    state = "c.state_after::text" if connection.vendor == "postgresql" else "c.state_after"
    found: dict[int, PlayerState] = {}
    new_faces: list[int] = []  # no row before the start: as they came in
    with connection.cursor() as cursor:
        for ids in chunks(sorted(member_ids)):
            marks = ", ".join(["%s"] * len(ids))
            cursor.execute(
                f"SELECT m.id, (SELECT {state} FROM ratings_ratingchange c "
                "WHERE c.member_id = m.id AND c.time_class = %s "
                "AND (c.event_end < %s OR (c.event_end = %s "
                "AND (c.event_start < %s OR (c.event_start = %s AND c.event_id < %s)))) "
                "ORDER BY c.event_end DESC, c.event_start DESC, c.event_id DESC LIMIT 1) "
                f"FROM ratings_member m WHERE m.id IN ({marks})",
                [time_class, end, end, start, start, pk, *ids],
            )
            for member_id, text in cursor.fetchall():
                if text is None:
                    new_faces.append(member_id)
                else:
                    found[member_id] = state_from_json(text)
    for ids in chunks(new_faces):
        for member in Member.objects.filter(pk__in=ids):
            found[member.pk] = member_initial_state(member, system, time_class)
    return found


def _event_members(events: Sequence[Event]) -> dict[int, set[int]]:
    """Who has a stored row in each of ``events``: event pk -> member pks. Two integers a
    row, read down the (event, member) index alone: what the walk needs of an event out of
    its reach (most of them), without its games or states."""
    out: dict[int, set[int]] = {e.pk: set() for e in events}
    with connection.cursor() as cursor:
        for chunk in chunks([e.pk for e in events]):
            marks = ", ".join(["%s"] * len(chunk))
            cursor.execute(
                f"SELECT event_id, member_id FROM {RatingChange._meta.db_table} "
                f"WHERE event_id IN ({marks})",
                list(chunk),
            )
            for event_id, member_id in cursor.fetchall():
                out[event_id].add(member_id)
    return out


def _rows_of(pairs: set[tuple[int, int]]) -> dict[tuple[int, int], Stored]:
    """The stored rows of these (event pk, member pk) pairs, in one statement a chunk of
    events: the rows a few events' players last had (``stored_rows_of``' columns)."""
    state = "state_after::text" if connection.vendor == "postgresql" else "state_after"
    events = sorted({event for event, _ in pairs})
    members = sorted({member for _, member in pairs})
    out: dict[tuple[int, int], Stored] = {}
    with connection.cursor() as cursor:
        for event_chunk in chunks(events, 250):
            for member_chunk in chunks(members, 500):
                cursor.execute(
                    f"SELECT event_id, member_id, {state}, display_before, display_after "
                    f"FROM {RatingChange._meta.db_table} WHERE event_id IN "
                    f"({', '.join(['%s'] * len(event_chunk))}) AND member_id IN "
                    f"({', '.join(['%s'] * len(member_chunk))})",
                    [*event_chunk, *member_chunk],
                )
                for event_id, member_id, text, before, after in cursor.fetchall():
                    if (event_id, member_id) in pairs:
                        out[event_id, member_id] = (text, before, after)
    return out


def ripple_rerate(
    *,
    scope: RerateScope,
    system: RatingSystem[Any],
    report: Callable[[int, str], None],
    time_class: str,
) -> tuple[int, int]:
    """Re-rate ``scope``, whose first event alone changed, as far as the change reaches.

    Returns the events and games rated (those the ripple reached).
    """
    rated = EventRipple(scope=scope, system=system, report=report, time_class=time_class).rerate()
    assert rated is not None, "an event's ripple can always tell who it reaches"
    return rated


class EventRipple(RippleWalk):
    """The walk a step an event (``RippleWalk``).

    Of an event out of reach the walk reads only who has a row in it (``_event_members``):
    a correction a year back at ten million games passes some 7,800 events and reaches a
    few hundred, and reading every passed event's games and states had been most of its
    time. A reached event's games and rows are read when it is reached, with the rows its
    unchanged players last had (in an event passed, ``where``).
    """

    def __init__(
        self,
        *,
        scope: RerateScope,
        system: RatingSystem[Any],
        report: Callable[[int, str], None],
        time_class: str,
    ) -> None:
        super().__init__(scope=scope, system=system, report=report, time_class=time_class)
        self.first = scope.events[0].pk
        self.changed: dict[int, PlayerState] = {}  # member pk -> their state, where it differs
        # member pk -> their state after the last reached event they played in; a member
        # who has played in a passed event since has its stored row instead (``passed``).
        self.known: dict[int, PlayerState] = {}
        self.passed: dict[int, Event] = {}
        # member pk -> the last passed event they played in, until a reached event rates
        # them: their last row is there (read at the end).
        self.where: dict[int, Event] = {}
        self.at_start: dict[int, PlayerState] = {}  # member pk -> their state before the start
        self.lost: set[int] = set()  # taken out of an event, their last row unknown to the walk
        # Games and rows of events the walk will likely reach, read a few events at a time.
        self.games_ahead: dict[int, list[tuple[int, int, str, int]]] = {}
        self.rows_ahead: dict[int, dict[int, Stored]] = {}
        self.batch: list[Event] = []
        self.members_of: dict[int, set[int]] = {}
        self.index = 0  # the step's place in its batch

    def batch_read(self, batch: list[Event]) -> None:
        self.batch = batch
        self.members_of = _event_members(batch)

    def steps(self, batch: list[Event]) -> Iterator[list[Event]]:
        for self.index, event in enumerate(batch):
            yield [event]

    def flush_due(self) -> bool:
        return len(self.pending) >= FLUSH_EVENTS

    def step_take(self, step: list[Event]) -> bool:
        (event,) = step
        members = self.members_of[event.pk]
        if event.pk != self.first and self.changed.keys().isdisjoint(members):
            # Out of the ripple's reach: its rows stand, and say where its players are.
            for pk in members:
                self.where[pk] = self.passed[pk] = event
            self.games_ahead.pop(event.pk, None)
            self.rows_ahead.pop(event.pk, None)
        else:
            self._rate(event, members)
        return True

    def _likely_next(self) -> list[Event]:
        """The next few events of the batch a changed member plays in as things stand."""
        return [
            later
            for later in self.batch[self.index + 1 : self.index + LOOK_AHEAD]
            if not self.changed.keys().isdisjoint(self.members_of[later.pk])
        ]

    def _rate(self, event: Event, members: set[int]) -> None:
        """Rate ``event`` again from its players' states as the walk stands."""
        if event.pk not in self.games_ahead:
            likely = [event, *self._likely_next()]
            self.games_ahead.update(games_of(likely))
            self.rows_ahead.update(stored_rows_of(likely))
        games = self.games_ahead.pop(event.pk)
        stored = self.rows_ahead.pop(event.pk)
        players = {pk for game in games for pk in game[:2]}
        everyone = players | members
        states = self._states_of(everyone)
        result = self.system.rate(
            [states[str(pk)] for pk in players], [engine_event(event, games)]
        )
        self._standings_after(everyone, states, stored, result.players)
        self.touched |= everyone
        self.rows_add([event], self.walk.change_rows([event], result.events))
        self.events_rated += 1
        self.games_rated += len(games)

    def _states_of(self, everyone: set[int]) -> dict[str, PlayerState]:
        """The states ``everyone`` of an event brings into it, as the walk stands."""
        changed, known, passed, at_start = self.changed, self.known, self.passed, self.at_start
        # Membership tests, not set arithmetic with the dicts' keys: ``a_set -
        # a_dict.keys()`` walks the whole dict (every member met so far, 200,000 at
        # ten million games), not the event's fifty players.
        last_rows = {(passed[pk].pk, pk) for pk in everyone if pk not in changed and pk in passed}
        read = _rows_of(last_rows) if last_rows else {}
        states = {str(pk): changed[pk] for pk in everyone if pk in changed}
        for at, pk in last_rows:
            states[str(pk)] = state_from_json(read[at, pk][0])
        for pk in everyone:
            if str(pk) not in states and pk in known:
                states[str(pk)] = known[pk]
        missing = {pk for pk in everyone if str(pk) not in states}
        if any(pk not in at_start for pk in missing):
            # First met since the start: as they stood before it. So are the new faces
            # of the next few events a changed member plays in as things stand, looked
            # up with them (one statement, not one an event; a state before the start
            # holds until the walk meets them).
            ahead = {pk for later in self._likely_next() for pk in self.members_of[later.pk]}
            wanted = missing | {
                pk
                for pk in ahead
                if pk not in changed
                and pk not in known
                and pk not in passed
                and pk not in at_start
            }
            at_start.update(_states_at_start(self.key, self.system, wanted, self.time_class))
        for pk in missing:
            states[str(pk)] = at_start[pk]
        return states

    def _standings_after(
        self,
        everyone: set[int],
        states: dict[str, PlayerState],
        stored: dict[int, Stored],
        rated: Sequence[PlayerState],
    ) -> None:
        """Each of an event's members changed or not after it: changed where their new
        state differs from the one stored after it."""
        after = {int(state.id): state for state in rated}
        for pk in everyone:
            # A player taken out of the event keeps the state they came in with.
            state = after.get(pk) or states[str(pk)]
            old = stored.get(pk)
            if self.stored_same(pk, None if old is None else old[0], state):
                self.changed.pop(pk, None)
            else:
                self.changed[pk] = state
            self.known[pk] = state
            self.passed.pop(pk, None)
            if pk in after:
                self.where.pop(pk, None)
            elif pk not in self.walk.last and pk not in self.where:
                self.lost.add(pk)

    def current_standings(
        self,
    ) -> tuple[set[int], dict[int, PlayerState], dict[int, LastChange]]:
        # Last seen in a passed event, or taken out of one: their last row as it stands.
        taken_in = self.lost | (self.touched & self.where.keys())
        rest = self.touched - taken_in
        states = {pk: self.known[pk] for pk in rest}
        last = {pk: self.walk.last[pk] for pk in rest if pk in self.walk.last}
        return taken_in, states, last
