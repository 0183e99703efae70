"""One re-rate's working set on one list (``Chain``): the members it touches, their states
as the chain reaches them, the rows it writes; and the events cut into the batches it
rates (``event_batches``). The full road (``rerate.py``), the ripples (``ripple.py``,
``period_ripple.py``) and the members' states (``members.py``) each build one.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from django.db import connection
from django.db.models import Count, Min
from django.utils import timezone

from ..engine import Event as EngineEvent
from ..engine import EventResult, PlayerState, RatingSystem, rated_games
from ..engine.codec import state_to_dict
from ..models import (
    Event,
    Game,
    Member,
    RatingChange,
    RatingState,
    is_usable,
)
from ..models.breakdowns import breakdown_stored
from ..rules.time_classes import RAPID, STANDARD
from ..words.figures import shown_change
from .chain import (
    Position,
    PriorChange,
    before_q,
    engine_events,
    last_changes_before,
    member_initial_state,
    players_of,
    rateable_events,
    rating_key,
)
from .rapid_standing import holds_rapid, rapid_feeds_standard, rapid_ratings_set
from .rerate_rows import (
    CHANGE_COLUMNS,
    STATE_COLUMNS,
    _json,
    chunks,
    insert_rows,
)

#: A position after every event: a re-rate from here rates nothing and takes each member
#: in with their last change (``member_states_write``).
AFTER_ALL: Position = (dt.date.max, dt.date.max, 0)
#: A member's last change written or kept: (event pk, end date, figures shown before and
#: after).
LastChange = tuple[int, Any, str, str]
#: Games a batch of the chain holds at most (a period of a period system may hold more).
BATCH_GAMES = 50_000


def event_batches(events: Sequence[Event], system: RatingSystem[Any]) -> Iterator[list[Event]]:
    """The events in order, cut into batches of about BATCH_GAMES games, never mid-period."""
    counts: dict[int, int] = {}
    if len(events) > 1:
        for chunk in chunks([e.pk for e in events]):
            counts.update(
                Game.objects.filter(event__in=chunk, result__in=Game.PLAYED)
                .exclude(black__isnull=True)
                .values("event")
                .annotate(n=Count("pk"))
                .values_list("event", "n")
            )
    batch: list[Event] = []
    games = 0
    label: str | None = None
    for event in events:
        here = system.period_of(event.end_date)
        if batch and games >= BATCH_GAMES and (here is None or here != label):
            yield batch
            batch, games = [], 0
        batch.append(event)
        games += counts.get(event.pk, 0)
        label = here
    if batch:
        yield batch


def period_opening_moves(system: RatingSystem[Any]) -> bool:
    """Whether the system's period opening ever changes a state (acf-1993's reset)."""
    return type(system).period_opening is not RatingSystem.period_opening


class Chain:
    """One re-rate's working set on one list: the touched members' states and what their
    rows will say."""

    def __init__(
        self, system: RatingSystem[Any], key: Position | None, time_class: str = STANDARD
    ) -> None:
        self.system = system
        self.key = key
        self.time_class = time_class
        #: ecf-2020 on the standard list reads a new player's current rapid rating.
        self.reads_rapid = rapid_feeds_standard(system, time_class)
        self.opens = period_opening_moves(system)
        self.states: dict[str, PlayerState] = {}
        #: member pk -> their last change written or kept
        self.last: dict[int, LastChange] = {}
        self.active: set[int] = set()
        self.touched: set[int] = set()
        #: member pk -> their first rapid change's end date (read once, when first needed)
        self.first_rapid_end: dict[int, dt.date] | None = None
        #: Whether a batch was rated: a member taken in after it comes in across its
        #: period's opening, wherever their state was last written.
        self.rated_a_batch = False
        #: The period of the last rateable event before ``key`` (read once, when first
        #: needed; "" for none).
        self._previous_period: str | None = None
        #: member pk -> a state of theirs and it as JSON, where a ripple worked it out to
        #: compare it with the stored one: their row, if of that state, writes it as it is.
        self.state_dicts: dict[int, tuple[PlayerState, dict[str, Any]]] = {}

    def take_in(self, member_ids: Iterable[int]) -> None:
        """Add members to the re-rate with their states before its starting point."""
        new = sorted(set(member_ids) - self.touched)
        if not new:
            return
        self.touched.update(new)
        prior: dict[int, PriorChange] = last_changes_before(self.key, new, self.time_class)
        for pk, before in prior.items():
            self.states[str(pk)] = self._brought(before.state, last_played=before.event_end)
            self.last[pk] = (
                before.event_id,
                before.event_end,
                before.shown_before,
                before.shown_after,
            )
        for chunk in chunks(new):
            members = Member.objects.filter(pk__in=chunk)
            self.active.update(members.active().values_list("pk", flat=True))
            for member in members.exclude(pk__in=prior.keys() & set(chunk)):
                initial = member_initial_state(member, self.system, self.time_class)
                self.states[str(member.pk)] = self._brought(initial, last_played=None)

    def _brought(self, state: PlayerState, *, last_played: dt.date | None) -> PlayerState:
        """The state a member taken in brings to the chain's next period: as a full run
        leaves it, opened by every period rated since it was written (acf-1993's reset
        comes at the first opening after a zero score, so its report shows it there, not
        at the member's next event). ``last_played``: the end date of the event that
        wrote it; None for a starting state."""
        if not self.opens:
            return state
        if not self.rated_a_batch:
            previous = self._previous_period_label()
            if not previous:
                return state  # no period opened before the chain's first
            if last_played is not None and self.system.period_of(last_played) == previous:
                return state  # written in the period just before the chain's first
        ready = self.system.prepare(state)
        opened = self.system.period_opening(ready)
        return state if opened is ready else opened

    def _previous_period_label(self) -> str:
        if self._previous_period is None:
            last = None
            if self.key is not None:
                last = (
                    rateable_events(self.system, self.time_class)
                    .filter(before_q(self.key))
                    .order_by("-end_date", "-start_date", "-pk")
                    .values_list("end_date", flat=True)
                    .first()
                )
            self._previous_period = "" if last is None else self.system.period_of(last) or ""
        return self._previous_period

    def rate(self, events: Sequence[Event]) -> tuple[int, int]:
        """Rate a batch of events from the states so far and write its changes."""
        inputs = engine_events(events)
        playing = players_of(inputs)
        self.take_in(playing)
        if self.reads_rapid:
            results = self._rate_reading_rapid(events, inputs)
        else:
            result = self.system.rate(self._states_moved(playing), inputs)
            self.states.update((state.id, state) for state in result.players)
            results = list(result.events)
        self.rated_a_batch = True
        insert_rows(RatingChange, CHANGE_COLUMNS, self.change_rows(events, results))
        return len(inputs), sum(len(e.games) for e in inputs)

    def _states_moved(self, playing: set[int]) -> list[PlayerState]:
        """The states a batch can change: its players', and under a system whose period
        opening changes states (acf-1993's reset) those the opening would change. Every
        other member's state comes out of the engine as it went in, so handing the engine
        the whole club made each batch cost every member: two hundred thousand of them
        over two hundred batches at ten million games, a quarter of the re-rate's CPU."""
        states = self.states
        moved = [states[str(pk)] for pk in playing]
        if self.opens:
            # Asked of the state as the engine prepares it: a member taken in may not
            # have their status worked out yet.
            opening, prepare = self.system.period_opening, self.system.prepare
            ids = {str(pk) for pk in playing}
            moved.extend(
                state
                for pid, state in states.items()
                if pid not in ids and opening(ready := prepare(state)) is not ready
            )
        return moved

    def _rate_reading_rapid(
        self, events: Sequence[Event], inputs: Sequence[EngineEvent]
    ) -> list[EventResult]:
        """Rate period by period, each new player holding their rapid rating as it stood
        when the period began (ecf-2020: their dummy opponent, where higher)."""
        results: list[EventResult] = []
        i = 0
        while i < len(events):
            label = self.system.period_of(events[i].end_date)
            j = i + 1
            while j < len(events) and self.system.period_of(events[j].end_date) == label:
                j += 1
            group = inputs[i:j]
            playing = players_of(group)
            key = rating_key(events[i])
            self.states.update(
                rapid_ratings_set(
                    states=self.states,
                    key=key,
                    member_ids=self._rapid_readers(playing, key),
                    system=self.system,
                )
            )
            # ecf-2020 rates a month from its players' own states alone: handed only
            # theirs, a month costs its players, not the whole club (twenty thousand
            # members over a hundred and twenty months at a million games).
            result = self.system.rate([self.states[str(pk)] for pk in playing], group)
            self.states.update((state.id, state) for state in result.players)
            results.extend(result.events)
            i = j
        return results

    def _rapid_readers(self, playing: Iterable[int], key: Position) -> list[int]:
        """The members of ``playing`` whose rapid standing before ``key`` may differ from
        their state's: a rapid change by the day of ``key``, or rapid figures held. Reading
        any other's would change nothing, so most months skip their lookup."""
        if self.first_rapid_end is None:
            self.first_rapid_end = dict(
                RatingChange.objects.filter(time_class=RAPID)
                .values("member_id")
                .annotate(first=Min("event_end"))
                .values_list("member_id", "first")
            )
        first, day, states = self.first_rapid_end, key[0], self.states
        return [
            pk
            for pk in playing
            if ((end := first.get(pk)) is not None and end <= day)
            or ((state := states.get(str(pk))) is not None and holds_rapid(state))
        ]

    def change_rows(
        self, events: Sequence[Event], results: Sequence[EventResult]
    ) -> list[tuple[Any, ...]]:
        """The rating changes' rows of ``results`` (of ``events``), noting each member's last."""
        by_id = {str(e.pk): e for e in events}
        system = self.system
        opening = system.period_opening
        date = connection.ops.adapt_datefield_value
        rows: list[tuple[Any, ...]] = []
        append = rows.append
        time_class = self.time_class
        last = self.last
        # A state as JSON where a ripple worked it out already to compare it.
        dicts = self.state_dicts
        for event_result in results:
            event = by_id[event_result.id]
            event_pk, end_date = event.pk, event.end_date
            end, start = date(end_date), date(event.start_date)
            period = event_result.period or ""
            for change in event_result.changes:
                state = change.state
                assert state is not None
                member_id = int(change.player)
                shown_before, shown_after = change.display_before, change.display_after
                last[member_id] = (event_pk, end_date, shown_before, shown_after)
                held = dicts.get(member_id)
                as_dict = (
                    held[1] if held is not None and held[0] is state else state_to_dict(state)
                )
                # A system whose period opening leaves states alone hands the state back:
                # no field-by-field comparison a change.
                opened = opening(state)
                append(
                    (
                        event_pk,
                        member_id,
                        time_class,
                        period,
                        change.before,
                        change.after,
                        shown_before,
                        shown_after,
                        # The games the system rated and their score, as the event's
                        # report counts them: a game it left out is no part of either.
                        *rated_games(change.games),
                        _json(breakdown_stored(change, system=system)),
                        _json(as_dict),
                        end,
                        start,
                        opened is not state and opened != state,
                    )
                )
        return rows

    def write_states(self, *, everyone: bool) -> None:
        """Rewrite the touched members' current states (``everyone``: the whole table)."""
        states = RatingState.objects.filter(time_class=self.time_class)
        if everyone:
            states.delete()
        else:
            for chunk in chunks(sorted(self.touched)):
                states.filter(member_id__in=chunk).delete()
        rows = []
        prepare = self.system.prepare  # a member yet to play is as the engine would take them
        date = connection.ops.adapt_datefield_value
        now = connection.ops.adapt_datetimefield_value(timezone.now())
        dicts = self.state_dicts  # a state as JSON a ripple worked out already
        for member_id in sorted(self.active):
            state = prepare(self.states[str(member_id)])
            display = self.system.display(state)
            held = dicts.get(member_id)
            event_id, played, shown_before, shown_after = self.last.get(
                member_id, (None, None, "", "")
            )
            # The list's "last change" is the one the event's report shows: the
            # difference of the figures as displayed, none where either is a marker.
            change = shown_change(shown_before, shown_after)
            rows.append(
                (
                    member_id,
                    self.time_class,
                    state.rating,
                    display,
                    state.games,
                    _json(
                        held[1] if held is not None and held[0] is state else state_to_dict(state)
                    ),
                    event_id,
                    date(played),
                    change,
                    is_usable(display),
                    now,
                )
            )
        insert_rows(RatingState, STATE_COLUMNS, rows)
