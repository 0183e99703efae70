"""Re-rating the chain: from a point on, incrementally, in one transaction.

Games are the record and ratings are derived. A re-rate from rating position K rates the
events from K on and rewrites the rows of the members it touches, nobody else's: the
players of those events, the members whose changes from K on it deletes, the members the
caller names (a changed starting rating), and the members whose state the opening of a
later rating period would change (acf-1993's zero-score reset). Everyone else's state
already equals what a full re-rate gives, so the stored ratings always equal a full
re-rate (tests/web/test_rerate_property.py) at the cost of the events from K on.

The chain is read in batches of events (whole rating periods for period systems), each
rated from the states the last one left and written before the next is read: memory
grows with the members, not with the history.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, Min
from django.utils import timezone

from ..engine import Event as EngineEvent
from ..engine import EventResult, PlayerState, RatingSystem, rated_games
from ..engine.codec import state_to_dict
from ..models import (
    ClubSettings,
    Event,
    Game,
    Member,
    RatingChange,
    RatingRun,
    RatingState,
    is_usable,
)
from ..models.breakdowns import breakdown_stored
from ..presentation.counts import count_phrase
from ..presentation.figures import shown_change
from ..rules.rating_lists import list_of, lists_kept
from ..rules.time_classes import RAPID, STANDARD
from .chain import (
    Position,
    PriorChange,
    RerateScope,
    before_q,
    change_before_q,
    engine_events,
    last_changes_before,
    member_initial_state,
    players_of,
    rateable_events,
    rateable_q,
    rating_key,
    rerate_scope,
)
from .list_figures import list_figures_counted_by_the_run, list_figures_keep
from .period_ripple import period_opening_moves, period_ripple_possible, period_ripple_rerate
from .public_pages import public_pages_changed
from .rapid_standing import holds_rapid, rapid_feeds_standard, rapid_ratings_set
from .rerate_rows import (
    CHANGE_COLUMNS,
    STATE_COLUMNS,
    _analyse,
    _collector_paused,
    _json,
    _page_cache,
    chunks,
    insert_rows,
)
from .ripple import ripple_possible, ripple_rerate

log = logging.getLogger("ratings")

Progress = Callable[[int, str], None]

#: A position after every event: a re-rate from here rates nothing and takes each member
#: in with their last change (``member_states_write``).
AFTER_ALL: Position = (dt.date.max, dt.date.max, 0)
#: Games a batch of the chain holds at most (a period of a period system may hold more).
BATCH_GAMES = 50_000


def _batches(events: Sequence[Event], system: RatingSystem) -> Iterator[list[Event]]:
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


class Chain:
    """One re-rate's working set on one list: the touched members' states and what their
    rows will say."""

    def __init__(
        self, system: RatingSystem, key: Position | None, time_class: str = STANDARD
    ) -> None:
        self.system = system
        self.key = key
        self.time_class = time_class
        #: ecf-2020 on the standard list reads a new player's current rapid rating.
        self.reads_rapid = rapid_feeds_standard(system, time_class)
        self.opens = period_opening_moves(system)
        self.states: dict[str, PlayerState] = {}
        #: member pk -> (event pk, end date, figures shown before and after) of their last
        #: change written or kept
        self.last: dict[int, tuple[int, Any, str, str]] = {}
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
                    states=self.states, key=key, member_ids=self._rapid_readers(playing, key)
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
        opening = self.system.period_opening
        date = connection.ops.adapt_datefield_value
        rows = []
        time_class = self.time_class
        for event_result in results:
            event = by_id[event_result.id]
            end, start = date(event.end_date), date(event.start_date)
            period = event_result.period or ""
            for change in event_result.changes:
                state = change.state
                assert state is not None
                member_id = int(change.player)
                before, after = change.before, change.after
                self.last[member_id] = (
                    event.pk,
                    event.end_date,
                    change.display_before,
                    change.display_after,
                )
                lines = change.games
                # A system whose period opening leaves states alone hands the state back:
                # no field-by-field comparison a change.
                opened = opening(state)
                rows.append(
                    (
                        event.pk,
                        member_id,
                        time_class,
                        period,
                        before,
                        after,
                        change.display_before,
                        change.display_after,
                        # The games the system rated and their score, as the event's
                        # report counts them: a game it left out is no part of either.
                        *rated_games(lines),
                        _json(breakdown_stored(change, system=self.system)),
                        _json(state_to_dict(state)),
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
        for member_id in sorted(self.active):
            state = prepare(self.states[str(member_id)])
            display = self.system.display(state)
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
                    _json(state_to_dict(state)),
                    event_id,
                    date(played),
                    change,
                    is_usable(display),
                    now,
                )
            )
        insert_rows(RatingState, STATE_COLUMNS, rows)


def _stale_members(key: Position, system: RatingSystem, time_class: str) -> set[int]:
    """Delete the changes a re-rate from ``key`` derives anew; the members they were of.

    Those of events from ``key`` on, and of events no longer rateable (unrated, reopened,
    in a period not closed): a deleted event's changes went with it, so its members are
    found by their states' last played date instead.
    """
    end = key[0]
    on_list = RatingChange.objects.filter(time_class=time_class)
    later = on_list.filter(event_end__gte=end).exclude(change_before_q(key))
    unrateable = on_list.filter(
        event__in=Event.objects.exclude(rateable_q(system, time_class)).filter(
            rating_changes__time_class=time_class
        )
    )
    members: set[int] = set()
    for stale in (later, unrateable):
        # order_by(): the model's ordering would join the DISTINCT and make it one row a change.
        members.update(stale.order_by().values_list("member_id", flat=True).distinct())
        stale.delete()
    members.update(
        RatingState.objects.filter(time_class=time_class, last_played__gte=end).values_list(
            "member_id", flat=True
        )
    )
    # The opening of a period from ``key`` on resets these (acf-1993): rated along.
    # Rare rows, read down their partial index alone and sorted out here: a condition on
    # the list or the place in SQL lets SQLite's planner walk the whole table instead.
    unsettled = RatingChange.objects.filter(unsettled=True).order_by()
    members.update(
        member
        for member, list_, *place in unsettled.values_list(
            "member_id", "time_class", "event_end", "event_start", "event"
        )
        if list_ == time_class and tuple(place) < key
    )
    return members


def _chain_rerate(
    *,
    scope: RerateScope,
    system: RatingSystem,
    members: Iterable[int],
    report: Progress,
    time_class: str,
) -> tuple[int, int]:
    """Rate ``scope`` of one list incrementally (see the module's docstring); events and
    games rated."""
    with _page_cache(big=scope.key is None), _collector_paused() as collector:
        return _chain_rate(
            collector=collector,
            scope=scope,
            system=system,
            members=members,
            report=report,
            time_class=time_class,
        )


def _chain_rate(
    *,
    collector: _collector_paused,
    scope: RerateScope,
    system: RatingSystem,
    members: Iterable[int],
    report: Progress,
    time_class: str,
) -> tuple[int, int]:
    chain = Chain(system, scope.key, time_class)
    everyone = scope.key is None
    if everyone:
        RatingChange.objects.filter(time_class=time_class).delete()
        chain.take_in(Member.objects.values_list("pk", flat=True))
    else:
        chain.take_in(_stale_members(scope.key, system, time_class) | set(members))
    events_rated = games_rated = 0
    total = len(scope.events) or 1
    done = 0
    for batch in _batches(scope.events, system):
        rated, games = chain.rate(batch)
        collector.batch_done()
        events_rated += rated
        games_rated += games
        done += len(batch)
        report(
            10 + 80 * done // total, f"Rated {done} of {count_phrase(len(scope.events), 'event')}"
        )
    report(92, "Saving current ratings")
    chain.write_states(everyone=everyone)
    _analyse(lines=games_rated * 2, everyone=everyone)
    return events_rated, games_rated


def rerate_lists(*, start: Event | Position | None, time_class: str | None) -> list[str]:
    """The lists a re-rate from ``start`` rates, in the order it rates them.

    ``time_class`` names one; otherwise an event's own list (none, for a time control
    not rated), or every list the club keeps from a position or from the beginning. A
    re-rate of the rapid list takes the standard one along when ecf-2020 rates it
    (a new player's rapid rating is their dummy there), after the rapid one.
    """
    if time_class is not None:
        lists = [time_class]
    elif isinstance(start, Event):
        own = list_of(start.time_class)
        lists = [] if own is None else [own]
    else:
        lists = lists_kept()
    if RAPID in lists and STANDARD not in lists and rapid_feeds_standard():
        lists.append(STANDARD)
    return sorted(lists, key=lambda tc: tc != RAPID)


#: The key of the PostgreSQL advisory lock that serialises rating runs ("RATE").
RATINGS_LOCK = 0x52415445


def ratings_lock_take(*, wait: bool) -> bool:
    """Take the lock every rating run holds until its transaction ends; whether it was taken.

    One run at a time over every list (ecf-2020's standard list reads the rapid one, so
    lists are not rated apart). PostgreSQL: a transaction-level advisory lock, taken
    before the run writes anything, so runs queue on it alone and never on each other's
    rows. ``wait``: wait for the run holding it (only a transaction that holds nothing
    yet may); otherwise answer False at once. SQLite: every transaction already holds
    the database's one write lock from its first statement (``BEGIN IMMEDIATE``), so
    writers are serialised before they get here.
    """
    if connection.vendor != "postgresql":
        return True
    assert connection.in_atomic_block, "the ratings lock is held by a transaction"
    with connection.cursor() as cursor:
        if wait:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [RATINGS_LOCK])
            return True
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [RATINGS_LOCK])
        return bool(cursor.fetchone()[0])


def ratings_rerate(
    *,
    start: Event | Position | None = None,
    members: Iterable[int] = (),
    changed: Event | None = None,
    user: Any = None,
    reason: str,
    progress: Progress | None = None,
    run: RatingRun | None = None,
    time_class: str | None = None,
) -> RatingRun:
    """Re-rate every rateable event from ``start`` onwards (None: everything), atomically.

    The chain before ``start`` is left alone; the states as they stood before it are
    the starting point. ``members``: pks of members to rewrite even if no event from
    ``start`` on touches them (their starting details changed). ``changed``: the one
    event (``start`` itself) whose games changed or that became rateable, when nothing
    else did: only the later events its ripple reaches are rated again
    (``services/ripple.py``). ``time_class``: the one list to re-rate (otherwise as
    ``rerate_lists`` says). Returns the RatingRun logged for it.

    One run at a time (``ratings_lock_take``): called outside a transaction it waits for
    a run going; inside one (a correction saved while a run goes) its re-rate is queued
    behind that run instead, and the QUEUED run is returned. ``run``: a background run
    being carried out; a system switch it brings (``run.pending``) is made here, in the
    transaction that stores its ratings.
    """
    clock = time.perf_counter()
    report = progress or (lambda percent, message: None)
    # Waiting for a run going is safe only for a transaction that holds nothing yet: one
    # that has written (a correction's games, its event's row) and then waits could be
    # waited on by the run in turn. Such a caller's re-rate is queued behind the run.
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if not ratings_lock_take(wait=outermost):
            from .runs import run_queue

            return run_queue(
                start=start,
                members=members,
                changed=changed,
                user=user,
                reason=reason,
                time_class=time_class,
                behind=True,
            )
        # Every public page may show what this re-rate writes (past the model layer); the
        # published lists' figures it counts as its last step.
        public_pages_changed()
        if run is not None and run.pending:
            from .systems import pending_apply

            with list_figures_counted_by_the_run():
                pending_apply(pending=run.pending, user=run.user)
        club = ClubSettings.load()
        lists = rerate_lists(start=start, time_class=time_class)
        everything = start is None and time_class is None
        if everything:
            # Every list is rated again from nothing: every change goes, in one statement
            # with no condition (SQLite empties the table and its indexes whole, where a
            # list at a time deletes row by row). Lists the club no longer keeps (rapid
            # moved back to the standard list) lose their states too.
            RatingChange.objects.all().delete()
            RatingState.objects.exclude(time_class__in=lists).delete()
        members = list(members)
        events_rated = games_rated = 0
        first_event: Event | None = None
        for rating_list in lists:
            system = club.engine(rating_list)
            report(5, "Finding the events to rate")
            scope = rerate_scope(start=start, system=system, time_class=rating_list)
            if scope.events and first_event is None:
                first_event = scope.events[0]
            rated: tuple[int, int] | None = None
            if not members and ripple_possible(scope=scope, system=system, changed=changed):
                rated = ripple_rerate(
                    scope=scope, system=system, report=report, time_class=rating_list
                )
            elif not members and period_ripple_possible(
                scope=scope, system=system, changed=changed
            ):
                rated = period_ripple_rerate(
                    scope=scope, system=system, report=report, time_class=rating_list
                )
            if rated is None:
                rated = _chain_rerate(
                    scope=scope,
                    system=system,
                    members=members,
                    report=report,
                    time_class=rating_list,
                )
            events_rated += rated[0]
            games_rated += rated[1]
        run = run or RatingRun(user=user if getattr(user, "is_authenticated", False) else None)
        run.reason = reason[:200]
        run.time_class = lists[0] if len(lists) == 1 else ""
        run.system = club.engine(lists[0]).id if lists else club.rating_system
        run.from_event = first_event
        run.events_rated = events_rated
        run.games_rated = games_rated
        run.seconds = round(time.perf_counter() - clock, 3)
        run.status = RatingRun.Status.DONE
        run.progress = 100
        run.message = ""
        run.finished = timezone.now()
        run.save()
        # The published lists as this run leaves them, counted once for their readers.
        list_figures_keep()
    report(100, "Done")
    log.info(
        "re-rated %s, %s in %.2fs: %s",
        count_phrase(run.events_rated, "event"),
        count_phrase(run.games_rated, "game"),
        run.seconds,
        reason,
    )
    return run
