"""Which system fits the club: every system run over the club's whole history, beside the
live ratings, with the measures of how well each predicted the games (issue 19).

A comparison reads the rated, complete events in the chain's order, in batches of about
BATCH_GAMES games (never splitting any period system's rating period), and feeds the same
games to each system's engine from states of its own. Before each event (for period
systems, before each period: the ratings then in force) it takes every game's expected
score from each system (``RatingSystem.expected_score``) and adds it to that system's
``MeasureTally``, which keeps sums only. It writes nothing until the end, and then only its
own tables: RatingChange and RatingState are never read for it nor written.

Period systems rate every period of the history here, the current one included, whether
or not the club closed it: the comparison asks what each system would have said.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from array import array
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import partial
from typing import Any

from django.db import DatabaseError, transaction
from django.db.models import Count
from django.utils import timezone
from django_tasks import task

from ..engine import SYSTEMS, PlayerState, RatingSystem, get_system
from ..engine import Event as EngineEvent
from ..engine.measures import (
    Measures,
    MeasureTally,
    deviance,
    month_key,
    month_of_key,
)
from ..models import (
    ClubSettings,
    Comparison,
    ComparisonRating,
    Event,
    Game,
    Member,
    RatingList,
    is_usable,
)
from ..models.club import _with_time_control as with_time_control
from ..models.club import club_time_zone_activate
from ..models.rating_lists import lists_kept, on_list
from ..rules.places_of_play import list_place
from ..rules.time_classes import STANDARD
from ..words.counts import count_phrase
from .chain import engine_events, member_initial_state, players_of
from .compare_verdict import verdict
from .public_pages import public_pages_changed
from .rerate_rows import _json, chunks, insert_rows
from .runs import tasks_running_fail

log = logging.getLogger("ratings")

#: Games read and rated at a time (a rating period may hold more).
BATCH_GAMES = 50_000
#: Points kept of a member's rating over time under a system (the chart draws 120 dots).
HISTORY_POINTS = 240
#: Members "whose ratings differ most" kept in the results.
DIFFER_KEPT = 40
#: Members' rows written at a time.
WRITE_ROWS = 2_000
RATING_COLUMNS = ("comparison_id", "member_id", "system", "rating", "display", "rank", "history")


def comparison_default_params(club: ClubSettings | None = None) -> dict[str, dict[str, Any]]:
    """Each system's parameters unless the officer tries others: the club's own for its
    system, the documented defaults for the others."""
    club = club or ClubSettings.load()
    return {sid: dict(club.system_params) if sid == club.rating_system else {} for sid in SYSTEMS}


def comparison_start(
    *, user: Any = None, params: Mapping[str, Mapping[str, Any]] | None = None
) -> Comparison:
    """Queue a comparison for the task worker (it starts once this transaction commits).

    ``params``: {system id: parameter overrides}; a system left out runs on
    ``comparison_default_params``. Parameters are checked by the caller's form.
    """
    club = ClubSettings.load()
    chosen = comparison_default_params(club)
    chosen.update({sid: dict(values) for sid, values in (params or {}).items() if sid in SYSTEMS})
    comparison = Comparison.objects.create(
        user=user if getattr(user, "is_authenticated", False) else None,
        club_system=club.rating_system,
        params=chosen,
        message="Waiting for the worker",
    )
    transaction.on_commit(lambda: compare_in_background.enqueue(comparison_pk=comparison.pk))
    return comparison


def comparison_check_alive(*, comparison: Comparison) -> Comparison:
    """A comparison as its page shows it: one whose worker went quiet says a worker takes
    it over (``comparisons_take_over``: the running worker within a heartbeat or two, a
    restarted one as it starts)."""
    if comparison.dead:
        comparison.message = (
            "The worker carrying this comparison out stopped; nothing of it was saved. A "
            "worker takes it over and runs it again from the start."
        )
    return comparison


def comparisons_take_over() -> list[Comparison]:
    """Queue again every comparison whose worker died mid-run (``Comparison.dead``); the
    comparisons taken over. A comparison writes its results only at its end, in one
    transaction, so a dead worker left nothing of it; its task row is marked failed, not
    left running, and a new task carries it out from the start."""
    taken: list[Comparison] = []
    for comparison in Comparison.objects.filter(status=Comparison.Status.RUNNING):
        if not comparison.dead:
            continue
        with transaction.atomic():
            claimed = Comparison.objects.filter(
                pk=comparison.pk, status=Comparison.Status.RUNNING, started=comparison.started
            ).update(
                status=Comparison.Status.QUEUED,
                heartbeat=None,
                progress=0,
                message="Taken over: the worker carrying it out stopped. Waiting for the worker.",
            )
            if not claimed:
                continue
            tasks_running_fail(
                run_pk=comparison.pk, task=compare_in_background, key="comparison_pk"
            )
            transaction.on_commit(
                partial(compare_in_background.enqueue, comparison_pk=comparison.pk)
            )
        log.warning("comparison %s taken over: its worker stopped", comparison.pk)
        taken.append(comparison)
    return taken


def comparison_publish(*, comparison: Comparison, publish: bool) -> None:
    """Show a finished comparison to members (the latest published one), or withdraw it."""
    comparison.published = timezone.now() if publish else None
    with transaction.atomic():
        comparison.save(update_fields=["published"])
        if not publish:
            # Withdrawn: no page's previous copy may still show it.
            public_pages_changed(hides=True)


def comparison_published() -> Comparison | None:
    return (
        Comparison.objects.filter(status=Comparison.Status.DONE, published__isnull=False)
        .order_by("-published")
        .first()
    )


# -- the run ----------------------------------------------------------------------------


def _report(comparison: Comparison, percent: int, message: str) -> None:
    """Progress where the page sees it at once (nothing here holds a transaction open)."""
    try:
        Comparison.objects.filter(pk=comparison.pk).update(
            progress=percent, message=message[:500], heartbeat=timezone.now()
        )
    except DatabaseError:  # SQLite busy with a re-rate: the next report will do
        log.debug("progress of comparison %s not recorded (database busy)", comparison.pk)


def comparison_run(*, comparison: Comparison) -> Comparison:
    """Carry out a queued comparison (the task worker calls it)."""
    now = timezone.now()
    Comparison.objects.filter(pk=comparison.pk).update(
        status=Comparison.Status.RUNNING, started=now, heartbeat=now, progress=1
    )
    comparison.refresh_from_db()
    clock = time.perf_counter()
    try:
        runner = _Runner(comparison, lambda p, m: _report(comparison, p, m))
        runner.run()
        with transaction.atomic():
            if not Comparison.objects.select_for_update().filter(
                pk=comparison.pk, status=Comparison.Status.RUNNING, started=now
            ):
                # Taken over while this worker was thought dead: the new run writes.
                log.warning(
                    "comparison %s was taken over; this run's results dropped", comparison.pk
                )
                return comparison
            runner.write()
            comparison.status = Comparison.Status.DONE
            comparison.progress = 100
            comparison.message = ""
            comparison.finished = timezone.now()
            comparison.seconds = round(time.perf_counter() - clock, 3)
            comparison.save()
    except Exception:
        # The page speaks the club's words; the error itself goes to the log.
        log.exception("comparison %s failed", comparison.pk)
        Comparison.objects.filter(pk=comparison.pk, started=now).update(
            status=Comparison.Status.FAILED,
            finished=timezone.now(),
            message=(
                "The comparison stopped on an error and saved nothing; the club's ratings "
                "are untouched. Start it again; if it stops again, the server's log says why."
            ),
        )
        raise
    log.info(
        "comparison %s: %s events, %s games in %.2fs",
        comparison.pk,
        comparison.events,
        comparison.games,
        comparison.seconds,
    )
    return comparison


@task()
def compare_in_background(*, comparison_pk: int) -> int:
    """The worker's task: run the queued comparison of systems ``comparison_pk``."""
    club_time_zone_activate()
    comparison = Comparison.objects.get(pk=comparison_pk)
    if comparison.status != Comparison.Status.QUEUED:
        return comparison.pk  # already carried out (a worker retried it)
    comparison_run(comparison=comparison)
    return comparison.pk


def _rated_events(rating_list: str) -> list[Event]:
    """The rated, complete events of one list: its own time classes (standard takes those
    the club keeps with it; a class the club does not rate is on no list)."""
    return list(
        Event.objects.filter(on_list(rating_list), rated=True, status=Event.Status.COMPLETE)
        .in_rating_order()
        .only("pk", "end_date", "start_date")
    )


def list_systems(comparison: Comparison, rating_list: str) -> dict[str, RatingSystem]:
    """Every system as it would rate ``rating_list``: on the standard list with the
    comparison's parameters (the club's for its own system, or those tried); on a list of
    its own with that list's parameters for the list's system, the documented ones for
    the others; ecf-2020 rating the list's own time control."""
    if rating_list == STANDARD:
        chosen = {sid: comparison.params.get(sid) or {} for sid in SYSTEMS}
    else:
        played, online = list_place(rating_list)
        own = RatingList.objects.filter(time_class=played, online=online).first()
        chosen = {
            sid: dict(own.system_params) if own and sid == own.rating_system else {}
            for sid in SYSTEMS
        }
    return {
        sid: get_system(sid, with_time_control(sid, params, list_place(rating_list)[0]))
        for sid, params in chosen.items()
    }


def _batches(
    events: Sequence[Event], systems: Sequence[RatingSystem], rating_list: str
) -> Iterator[list[Event]]:
    """The events cut into batches of about BATCH_GAMES games, never inside a rating period
    of any period system (a cut where every one of them starts a new period)."""
    counts = dict(
        Game.objects.filter(
            on_list(rating_list, prefix="event__"),
            event__rated=True,
            event__status=Event.Status.COMPLETE,
            result__in=Game.PLAYED,
        )
        .exclude(black__isnull=True)
        .order_by()
        .values("event")
        .annotate(n=Count("pk"))
        .values_list("event", "n")
    )
    periodic = [s for s in systems if s.period_based]
    batch: list[Event] = []
    games = 0
    labels: list[str | None] = [None] * len(periodic)
    for event in events:
        here = [s.period_of(event.end_date) for s in periodic]
        new_periods = all(a != b for a, b in zip(here, labels, strict=True))
        if batch and games >= BATCH_GAMES and new_periods:
            yield batch
            batch, games = [], 0
        batch.append(event)
        games += counts.get(event.pk, 0)
        labels = here
    if batch:
        yield batch


class _History:
    """A member's rating at the end of each month they played, compactly (arrays)."""

    __slots__ = ("months", "ratings")

    def __init__(self) -> None:
        self.months = array("i")
        self.ratings = array("d")

    def note(self, month: int, rating: float) -> None:
        if self.months and self.months[-1] == month:
            self.ratings[-1] = rating
        else:
            self.months.append(month)
            self.ratings.append(rating)

    def points(self, most: int) -> list[list[float]]:
        """[[day ordinal of the month's first day, rating]], every n-th kept, the last too."""
        n = len(self.months)
        step = max(1, -(-n // most))
        kept = list(range(0, n, step))
        if kept and kept[-1] != n - 1:
            kept[-1] = n - 1
        return [
            [month_of_key(self.months[i]).toordinal(), round(self.ratings[i], 2)] for i in kept
        ]


class _Runner:
    """One comparison: each list the club keeps, compared on its own games."""

    def __init__(self, comparison: Comparison, report: Callable[[int, str], None]) -> None:
        self.comparison = comparison
        self.report = report
        self.lists = [_ListRunner(comparison, rating_list) for rating_list in lists_kept()]

    def run(self) -> None:
        self.report(2, "Finding the rated events")
        for runner in self.lists:
            runner.events = _rated_events(runner.rating_list)
        total = sum(len(runner.events) for runner in self.lists) or 1
        done = 0
        for runner in self.lists:

            def report(events: int, base: int = done) -> None:
                self.report(
                    5 + 85 * (base + events) // total,
                    f"Rated {base + events} of {count_phrase(total, 'event')}",
                )

            runner.run(report)
            done += len(runner.events)
        self.comparison.events = sum(len(runner.events) for runner in self.lists)
        self.comparison.games = sum(runner.games for runner in self.lists)
        self.report(92, "Saving the comparison")

    def write(self) -> None:
        """The standard list's members (final ratings, ranks, histories) and every list's
        results (inside the caller's transaction)."""
        ComparisonRating.objects.filter(comparison=self.comparison).delete()
        lists = {runner.rating_list: runner.results() for runner in self.lists}
        standard = self.lists[0]
        ranks = standard.write()
        results = dict(lists[STANDARD])
        results["differ"] = _differ(ranks)
        results["lists"] = lists
        self.comparison.results = results


class _ListRunner:
    """One list's working set: each system's states, tallies and histories, and each
    event's deviance under each system (for the verdict's bootstrap)."""

    def __init__(self, comparison: Comparison, rating_list: str) -> None:
        self.comparison = comparison
        self.rating_list = rating_list
        self.systems = list_systems(comparison, rating_list)
        self.states: dict[str, dict[str, PlayerState]] = {sid: {} for sid in SYSTEMS}
        self.history: dict[str, dict[str, _History]] = {sid: {} for sid in SYSTEMS}
        self.tallies: dict[str, MeasureTally] = {}
        self.baseline: MeasureTally | None = None
        self.events: list[Event] = []
        self.games = 0
        #: per event with a rated game: its games, and each system's deviance summed
        self.event_games: list[int] = []
        self.event_deviance: dict[str, list[float]] = {sid: [] for sid in SYSTEMS}
        self.first_day: dt.date | None = None
        self.last_day: dt.date | None = None
        self.recent_from = 0

    def run(self, report: Callable[[int], None]) -> None:
        events = self.events
        if events:
            self.first_day, self.last_day = events[0].end_date, events[-1].end_date
        last = month_key(self.last_day or timezone.localdate())
        self.recent_from = last - 11
        self.tallies = {sid: MeasureTally(recent_from=self.recent_from) for sid in SYSTEMS}
        self.baseline = MeasureTally(recent_from=self.recent_from)
        done = 0
        for batch in _batches(events, list(self.systems.values()), self.rating_list):
            inputs = engine_events(batch)
            self._take_in(players_of(inputs))
            self._rate(inputs)
            done += len(batch)
            self.games += sum(len(e.games) for e in inputs)
            report(done)

    def _take_in(self, member_ids: set[int]) -> None:
        """Players met for the first time, from their starting details on this list, in
        every system."""
        new = sorted(m for m in member_ids if str(m) not in self.states[DEFAULT_KEY])
        for chunk in chunks(new):
            for member in Member.objects.filter(pk__in=chunk):
                for sid, system in self.systems.items():
                    state = system.prepare(member_initial_state(member, system, self.rating_list))
                    self.states[sid][state.id] = state

    def _rates(self, system: RatingSystem, event: EngineEvent) -> bool:
        """Whether ``system`` rates ``event`` on this list, as the live list's re-rate
        decides (``chain.rateable_q``): an online list's events from the day the system
        rates online play (``online_rated_from``)."""
        start = system.online_rated_from
        return start is None or not list_place(self.rating_list)[1] or event.date >= start

    def _rate(self, inputs: list[EngineEvent]) -> None:
        expected: dict[str, dict[str, list[float | None]]] = {}
        for sid, system in self.systems.items():
            states = self.states[sid]
            history = self.history[sid]
            mine: dict[str, list[float | None]] = {}
            expect = system.expected_score
            rated = [event for event in inputs if self._rates(system, event)]
            for event in inputs:  # not rated by this system: no prediction of its own
                mine.setdefault(event.id, [None] * len(event.games))
            for label, group in system.group_events(rated):
                for event in group:  # on the ratings before the event (period systems: period)
                    mine[event.id] = [expect(states[g.a], states[g.b]) for g in event.games]
                dates = {event.id: event.date for event in group}
                for result in system.rate_period(states, group, label):
                    month = month_key(dates[result.id])
                    for change in result.changes:
                        if change.after is None:
                            continue
                        points = history.get(change.player)
                        if points is None:
                            points = history[change.player] = _History()
                        points.note(month, change.after)
            expected[sid] = mine
        baseline = self.baseline
        assert baseline is not None
        for event in inputs:
            if not event.games:
                continue
            month = month_key(event.date)
            rows = {sid: expected[sid][event.id] for sid in SYSTEMS}
            for i, game in enumerate(event.games):
                for sid, tally in self.tallies.items():
                    tally.add(month, game.a, game.b, rows[sid][i], game.score)
                baseline.add(month, game.a, game.b, 0.5, game.score)
            self.event_games.append(len(event.games))
            for sid in SYSTEMS:
                self.event_deviance[sid].append(
                    sum(
                        deviance(0.5 if e is None else e, game.score)
                        for e, game in zip(rows[sid], event.games, strict=True)
                    )
                )

    def write(self) -> dict[str, dict[int, int]]:
        """The members' final ratings under each system, ranked among the members on the
        list's published list (the public list's members: published today and listed);
        each system's ranks."""
        published = set(
            Member.objects.published().listable(self.rating_list).values_list("pk", flat=True)
        )
        ranks: dict[str, dict[int, int]] = {}
        rows: list[tuple[Any, ...]] = []
        for sid, system in self.systems.items():
            states = self.states[sid]
            shown = {pid: system.display(state) for pid, state in states.items()}
            ranked = sorted(
                (
                    (state.rating, int(pid))
                    for pid, state in states.items()
                    if int(pid) in published and state.rating is not None and is_usable(shown[pid])
                ),
                reverse=True,
            )
            mine = ranks[sid] = {}
            place = 0
            previous: float | None = None
            for position, (rating, member) in enumerate(ranked, start=1):
                if rating != previous:
                    place, previous = position, rating
                mine[member] = place
            history = self.history[sid]
            for pid, state in states.items():
                member = int(pid)
                points = history.get(pid)
                rows.append(
                    (
                        self.comparison.pk,
                        member,
                        sid,
                        state.rating,
                        shown[pid],
                        mine.get(member),
                        _json(points.points(HISTORY_POINTS) if points else []),
                    )
                )
                if len(rows) >= WRITE_ROWS:  # written as they come: a row holds a history
                    insert_rows(ComparisonRating, RATING_COLUMNS, rows)
                    rows = []
        insert_rows(ComparisonRating, RATING_COLUMNS, rows)
        return ranks

    def results(self) -> dict[str, Any]:
        baseline = self.baseline
        assert baseline is not None
        systems = {sid: measures_json(t.result()) for sid, t in self.tallies.items()}
        return {
            "events": len(self.events),
            "games": self.games,
            "first_day": self.first_day.isoformat() if self.first_day else None,
            "last_day": self.last_day.isoformat() if self.last_day else None,
            "recent_from": month_of_key(self.recent_from).isoformat(),
            "systems": systems,
            "baseline": measures_json(baseline.result(), calibration=False),
            "verdict": verdict(systems, self.event_games, self.event_deviance),
        }


def _differ(ranks: dict[str, dict[int, int]]) -> list[int]:
    """The members whose rank differs most between the systems, most first."""
    spreads = []
    members = set().union(*(r.keys() for r in ranks.values()))
    for member in members:
        places = [r[member] for r in ranks.values() if member in r]
        if len(places) > 1:
            spreads.append((max(places) - min(places), -min(places), member))
    spreads.sort(reverse=True)
    return [member for _, _, member in spreads[:DIFFER_KEPT]]


#: Any system's key: every system meets the same players.
DEFAULT_KEY = next(iter(SYSTEMS))


def measures_json(measures: Measures, *, calibration: bool = True) -> dict[str, Any]:
    data: dict[str, Any] = {
        "games": measures.games,
        "deviance": measures.deviance,
        "player_months": measures.player_months,
        "rmse": measures.rmse,
        "recent_games": measures.recent_games,
        "recent_deviance": measures.recent_deviance,
        "recent_player_months": measures.recent_player_months,
        "recent_rmse": measures.recent_rmse,
        "expected_games": measures.expected_games,
    }
    if calibration:
        data["calibration"] = [
            [b.low, b.high, b.count, b.expected, b.actual] for b in measures.calibration
        ]
    return data


__all__ = [
    "comparison_check_alive",
    "comparison_default_params",
    "comparison_publish",
    "comparison_published",
    "comparison_run",
    "comparison_start",
]
