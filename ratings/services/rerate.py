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

Taking the ratings lock, or queueing the re-rate behind the run that holds it, is
``runs.ratings_rerate``'s, which calls ``ratings_rerate_locked`` here: this module knows
nothing of runs queued, so runs may import it and it never imports runs back.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.utils import timezone

from ..engine import RatingSystem
from ..models import (
    ClubSettings,
    Event,
    Member,
    RatingChange,
    RatingRun,
    RatingState,
)
from ..models.rating_lists import event_list_of, lists_kept
from ..rules.time_classes import RAPID, STANDARD
from ..words.counts import count_phrase
from .chain import (
    Position,
    RerateScope,
    change_before_q,
    rateable_q,
    rerate_scope,
)
from .list_figures import list_figures_counted_by_the_run, list_figures_keep
from .period_ripple import period_ripple_possible, period_ripple_rerate
from .public_pages import public_pages_changed
from .rapid_standing import rapid_feeds_standard
from .rerate_chain import Chain, event_batches
from .rerate_rows import (
    _analyse,
    _collector_paused,
    _page_cache,
)
from .ripple import ripple_possible, ripple_rerate
from .switches import pending_apply

log = logging.getLogger("ratings")

Progress = Callable[[int, str], None]


@dataclass(frozen=True)
class RerateRequest:
    """What a change to the record asks to be re-rated, and why: the one argument every
    way of re-rating takes (now, queued, or whichever the estimate says).

    ``start``: the event or rating position the chain is re-rated from (None: from the
    beginning). ``members``: pks of members to rewrite even if no event from ``start`` on
    touches them (their starting details changed). ``changed``: the one event (``start``
    itself) whose games changed or that became rateable, when nothing else did: only
    the later events its ripple reaches are rated again. ``user``: who asked (the runs
    log). ``reason``: the runs log's words. ``time_class``: the one list to re-rate
    (otherwise as ``rerate_lists`` says).
    """

    reason: str
    start: Event | Position | None = None
    members: Sequence[int] = ()
    changed: Event | None = None
    user: Any = None
    time_class: str | None = None

    def __post_init__(self) -> None:
        # A tuple, whatever the caller passed (a list, a set's keys): the request is a
        # value, and a generator would be spent by its first reader.
        object.__setattr__(self, "members", tuple(self.members))


def _stale_members(key: Position, system: RatingSystem[Any], time_class: str) -> set[int]:
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
    system: RatingSystem[Any],
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
    system: RatingSystem[Any],
    members: Iterable[int],
    report: Progress,
    time_class: str,
) -> tuple[int, int]:
    chain = Chain(system, scope.key, time_class)
    everyone = scope.key is None
    if scope.key is None:
        RatingChange.objects.filter(time_class=time_class).delete()
        chain.take_in(Member.objects.values_list("pk", flat=True))
    else:
        chain.take_in(_stale_members(scope.key, system, time_class) | set(members))
    events_rated = games_rated = 0
    total = len(scope.events) or 1
    done = 0
    for batch in event_batches(scope.events, system):
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
        own = event_list_of(start)
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


def ratings_rerate_locked(
    request: RerateRequest, *, report: Progress, run: RatingRun | None, clock: float
) -> RatingRun:
    """Re-rate every rateable event from ``request.start`` onwards (None: everything), in
    the caller's transaction, which holds the ratings lock: ``runs.ratings_rerate`` takes
    it, or queues the re-rate behind the run holding it.

    The chain before ``request.start`` is left alone; the states as they stood before it
    are the starting point (``RerateRequest`` says what each field asks). Returns the
    RatingRun logged for it. ``run``: a background run being carried out; a system switch
    it brings (``run.pending``) is made here, in the transaction that stores its ratings.
    ``clock``: ``time.perf_counter()`` when the re-rate was asked (the run's seconds).
    """
    # Every public page may show what this re-rate writes (past the model layer); the
    # published lists' figures it counts as its last step.
    public_pages_changed()
    if run is not None and run.pending:
        with list_figures_counted_by_the_run():
            pending_apply(pending=run.pending, user=run.user)
    club = ClubSettings.load()
    lists = rerate_lists(start=request.start, time_class=request.time_class)
    if request.start is None and request.time_class is None:
        # Every list is rated again from nothing: every change goes, in one statement
        # with no condition (SQLite empties the table and its indexes whole, where a
        # list at a time deletes row by row). Lists the club no longer keeps (rapid
        # moved back to the standard list) lose their states too.
        RatingChange.objects.all().delete()
        RatingState.objects.exclude(time_class__in=lists).delete()
    tally = _Tally()
    for rating_list in lists:
        _list_rerate(
            request,
            system=club.engine(rating_list),
            time_class=rating_list,
            report=report,
            tally=tally,
        )
    run = _run_done(
        run or RatingRun(user=run_user(request.user)),
        request=request,
        system=club.engine(lists[0]).id if lists else club.rating_system,
        lists=lists,
        tally=tally,
        seconds=round(time.perf_counter() - clock, 3),
    )
    # The published lists as this run leaves them, counted once for their readers.
    list_figures_keep()
    return run


def run_user(user: Any) -> Any:
    """The runs log's user: a signed-in person, or nobody (a command, the worker)."""
    return user if getattr(user, "is_authenticated", False) else None


@dataclass
class _Tally:
    """What a run rated over its lists: the first event and the events and games."""

    first_event: Event | None = None
    events: int = 0
    games: int = 0


def _list_rerate(
    request: RerateRequest,
    *,
    system: RatingSystem[Any],
    time_class: str,
    report: Progress,
    tally: _Tally,
) -> None:
    """Re-rate one list as ``request`` asks: by the ripple where only one event's games
    changed and it can tell who they reach, else by the full road from the start."""
    report(5, "Finding the events to rate")
    scope = rerate_scope(start=request.start, system=system, time_class=time_class)
    if scope.events and tally.first_event is None:
        tally.first_event = scope.events[0]
    rated: tuple[int, int] | None = None
    changed = request.changed
    if not request.members and ripple_possible(scope=scope, system=system, changed=changed):
        rated = ripple_rerate(scope=scope, system=system, report=report, time_class=time_class)
    elif not request.members and period_ripple_possible(
        scope=scope, system=system, changed=changed
    ):
        rated = period_ripple_rerate(
            scope=scope, system=system, report=report, time_class=time_class
        )
    if rated is None:
        rated = _chain_rerate(
            scope=scope,
            system=system,
            members=request.members,
            report=report,
            time_class=time_class,
        )
    tally.events += rated[0]
    tally.games += rated[1]


def _run_done(
    run: RatingRun,
    *,
    request: RerateRequest,
    system: str,
    lists: list[str],
    tally: _Tally,
    seconds: float,
) -> RatingRun:
    """The run logged as done, with what it rated."""
    run.reason = request.reason[:200]
    run.time_class = lists[0] if len(lists) == 1 else ""
    run.system = system
    run.from_event = tally.first_event
    run.events_rated = tally.events
    run.games_rated = tally.games
    run.seconds = seconds
    run.status = RatingRun.Status.DONE
    run.progress = 100
    run.message = ""
    run.finished = timezone.now()
    run.save()
    return run
