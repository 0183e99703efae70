"""A re-rate now, or queued for the task worker.

The estimate decides which; a queued run is carried out once, under the ratings lock,
its progress and heartbeat written through connections of their own; a dead worker's
run is taken over by another worker; a failed run can be retried.
"""

from __future__ import annotations

import copy
import datetime as dt
import logging
import os
import socket
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.conf import settings
from django.db import (
    DEFAULT_DB_ALIAS,
    DatabaseError,
    OperationalError,
    connection,
    connections,
    transaction,
)
from django.db.models import Q
from django.utils import timezone
from django_tasks import task
from django_tasks.base import Task
from django_tasks_db.models import DBTaskResult

from ..engine import RatingSystem
from ..models import (
    ClubSettings,
    Event,
    Game,
    RatingRun,
)
from ..models.club import club_time_zone_activate
from ..models.rating import heartbeat_lapse
from ..rules.time_classes import STANDARD
from ..words.counts import count_phrase
from .chain import (
    Position,
    rating_key,
    rerate_scope,
)
from .rerate import (
    Progress,
    RerateRequest,
    ratings_lock_take,
    ratings_rerate_locked,
    rerate_lists,
    run_user,
)

log = logging.getLogger("ratings")

#: Seconds any re-rate costs however little it rates (the settings lock, finding the
#: events, the run's log): what the estimate adds to the games' share.
FIXED_SECONDS = 0.05
#: Games a second before any run has been timed: slow enough to err towards the background.
FIRST_PACE = 5_000.0


# -- now, or in the background ------------------------------------------------------------


def position_json(start: Event | Position | None) -> list[Any] | None:
    """A restart point as a task argument (JSON): [end, start, pk] or None."""
    if start is None:
        return None
    end, begin, pk = rating_key(start) if isinstance(start, Event) else start
    return [end.isoformat(), begin.isoformat(), pk]


def position_from_json(data: list[Any] | None) -> Position | None:
    if data is None:
        return None
    end, begin, pk = data
    return (dt.date.fromisoformat(end), dt.date.fromisoformat(begin), int(pk))


def rerate_games(
    *,
    start: Event | Position | None,
    system: RatingSystem[Any] | None = None,
    time_class: str | None = None,
) -> int:
    """The played games a re-rate from ``start`` rates (every list it touches)."""
    club = ClubSettings.load()
    games = 0
    for rating_list in rerate_lists(start=start, time_class=time_class):
        scope = rerate_scope(
            start=start, system=system or club.engine(rating_list), time_class=rating_list
        )
        games += Game.objects.filter(
            event__in=[e.pk for e in scope.events], result__in=Game.PLAYED
        ).count()
    return games


def rerate_estimate(
    *,
    start: Event | Position | None,
    system: RatingSystem[Any] | None = None,
    time_class: str | None = None,
    games: int | None = None,
) -> float:
    """Seconds a re-rate from ``start`` should take: a fixed cost plus its games' share.

    The pace is that of the last finished runs, less the fixed cost each of them paid.
    ``system``: the one list's system, when it is not the club's yet (a switch).
    """
    if games is None:
        games = rerate_games(start=start, system=system, time_class=time_class)
    pace = FIRST_PACE
    recent = RatingRun.objects.filter(
        status=RatingRun.Status.DONE, games_rated__gte=100, seconds__gt=0
    ).order_by("-finished")[:5]
    timed = [(r.games_rated, r.seconds) for r in recent if r.seconds]
    if timed:
        spent = sum(max(s - FIXED_SECONDS, 0.001) for _, s in timed)
        pace = sum(g for g, _ in timed) / spent
    return FIXED_SECONDS + games / pace


def machine_load() -> float:
    """How many times over its cores the machine is asked for now (1 when it has room):
    a re-rate timed on a quiet machine takes about this many times longer now."""
    try:
        waiting = os.getloadavg()[0]
    except OSError:  # no load average on this platform
        return 1.0
    return max(1.0, waiting / (os.cpu_count() or 1))


def rerate_in_the_page(
    *,
    start: Event | Position | None,
    system: RatingSystem[Any] | None = None,
    time_class: str | None = None,
) -> tuple[bool, float]:
    """Whether a page may wait for a re-rate from ``start``, and its estimate in seconds
    on this machine as loaded now.

    Within RERATE_FOREGROUND_SECONDS at the last runs' pace slowed by the machine's load
    now (runs timed when it was quiet would promise too much when it is busy), and
    never more than RERATE_FOREGROUND_GAMES games however fast the last runs went: a
    size no load makes take more than a couple of seconds. Anything more goes to the
    worker with its progress page.
    """
    games = rerate_games(start=start, system=system, time_class=time_class)
    estimate = rerate_estimate(start=start, games=games) * machine_load()
    limit = getattr(settings, "RERATE_FOREGROUND_SECONDS", 2.0)
    most = getattr(settings, "RERATE_FOREGROUND_GAMES", 20_000)
    return estimate <= limit and games <= most, estimate


def ratings_rerate(
    request: RerateRequest,
    *,
    progress: Progress | None = None,
    run: RatingRun | None = None,
) -> RatingRun:
    """Re-rate every rateable event from ``start`` onwards (None: everything), atomically.

    The chain before ``request.start`` is left alone; the states as they stood before it
    are the starting point (``RerateRequest`` says what each field asks). Returns the
    RatingRun logged for it.

    One run at a time (``ratings_lock_take``): called outside a transaction it waits for
    a run going; inside one (a correction saved while a run goes) its re-rate is queued
    behind that run instead, and the QUEUED run is returned. ``run``: a background run
    being carried out; a system switch it brings (``run.pending``) is made here, in the
    transaction that stores its ratings (``rerate.ratings_rerate_locked`` rates).
    """
    clock = time.perf_counter()
    report = progress or (lambda percent, message: None)
    # Waiting for a run going is safe only for a transaction that holds nothing yet: one
    # that has written (a correction's games, its event's row) and then waits could be
    # waited on by the run in turn. Such a caller's re-rate is queued behind the run.
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if not ratings_lock_take(wait=outermost):
            return run_queue(request, behind=True)
        run = ratings_rerate_locked(request, report=report, run=run, clock=clock)
    report(100, "Done")
    log.info(
        "re-rated %s, %s in %.2fs: %s",
        count_phrase(run.events_rated, "event"),
        count_phrase(run.games_rated, "game"),
        run.seconds,
        request.reason,
    )
    return run


def ratings_rerate_soon(request: RerateRequest) -> RatingRun:
    """Re-rate as ``request`` asks now, in this transaction, or queue it when it would be
    slow.

    A re-rate a page should not wait for (``rerate_in_the_page``) is queued for the task
    worker once this transaction commits; until it finishes the published list keeps
    the last complete ratings. The run returned is DONE, or QUEUED with a progress page.
    """
    now, estimate = rerate_in_the_page(start=request.start, time_class=request.time_class)
    if now:
        return ratings_rerate(request)
    return run_queue(request, estimate=estimate)


def run_queue(
    request: RerateRequest,
    *,
    estimate: float | None = None,
    pending: dict[str, Any] | None = None,
    system: str | None = None,
    behind: bool = False,
) -> RatingRun:
    """Queue a re-rate for the task worker once this transaction commits; the QUEUED run.

    ``pending``: the system switch it brings in (``rating_system_apply``), ``system`` its
    system. ``behind``: queued because a run is going (``ratings_rerate``); the worker takes
    it once that one has finished, and rates from the record as it then stands.
    """
    start, time_class = request.start, request.time_class
    lists = rerate_lists(start=start, time_class=time_class)
    if estimate is None:
        estimate = rerate_estimate(start=start, time_class=time_class)
    run = RatingRun.objects.create(
        user=run_user(request.user),
        reason=request.reason[:200],
        time_class=time_class or (lists[0] if len(lists) == 1 else ""),
        system=system or ClubSettings.load().engine(lists[0] if lists else STANDARD).id,
        from_event=start if isinstance(start, Event) else None,
        status=RatingRun.Status.QUEUED,
        message=WAITING_BEHIND if behind else WAITING,
        estimate=round(estimate, 3),
        start=position_json(start),
        members=list(request.members),
        changed_event=request.changed,
        pending=pending,
    )
    _enqueue(run)
    return run


def _enqueue(run: RatingRun) -> None:
    """Hand a queued run to the task worker once the transaction that queued it commits."""
    transaction.on_commit(
        lambda: rerate_in_background.enqueue(run_pk=run.pk, start=run.start, members=run.members)
    )


WAITING = "Waiting for the worker"
WAITING_BEHIND = "Waiting for the re-rate going now to finish"


def run_retry(*, run: RatingRun, user: Any = None) -> RatingRun:
    """Queue a failed background run's re-rate again (its worker died, or it failed)."""
    with transaction.atomic():
        again = RatingRun.objects.create(
            pending=run.pending,
            user=run_user(user),
            reason=f"{run.reason} (again)"[:200],
            time_class=run.time_class,
            system=run.system,
            from_event=run.from_event,
            status=RatingRun.Status.QUEUED,
            message="Waiting for the worker",
            estimate=run.estimate,
            start=run.start,
            members=run.members,
            changed_event=run.changed_event,
        )
        _enqueue(again)
    return again


def run_check_alive(*, run: RatingRun) -> RatingRun:
    """A run as its page shows it: one whose worker went quiet says it waits for a worker
    to take it over (``runs_take_over``), which a running worker does within a heartbeat
    or two, and a restarted one as it starts."""
    if run.dead:
        run.message = (
            "The worker carrying this run out stopped (no sign of it since "
            f"{timezone.localtime(run.heartbeat or run.started):%H:%M:%S}); nothing it did "
            "was saved. A worker takes it over and runs it again from the start (the "
            "worker running, or as it starts: make serve starts a stopped one again)."
        )
    return run


#: Whether a person is waiting on a page for what is being saved (set for each request by
#: ``ratings.middleware.rerate_policy``). Only then may a re-rate go to the background.
_page_waiting: ContextVar[bool] = ContextVar("page_waiting", default=False)


@contextmanager
def rerates_for_a_page() -> Iterator[None]:
    """Within it, a re-rate too slow for a page goes to the background (the web's requests
    run in it); outside it (commands, the worker, tests) every re-rate runs now."""
    token = _page_waiting.set(True)
    try:
        yield
    finally:
        _page_waiting.reset(token)


def page_waiting() -> bool:
    """Whether a person waits on a page for this save (``rerates_for_a_page``)."""
    return _page_waiting.get()


def ratings_update(request: RerateRequest) -> RatingRun:
    """Re-rate as ``request`` asks after a change to the record: the one re-rate policy.

    Every service that changes the record asks here, whoever called it. A page's save
    (``rerates_for_a_page``) re-rates now when the estimate is within
    ``RERATE_FOREGROUND_SECONDS``, else queues it for the worker (``ratings_rerate_soon``);
    a command, the worker and anything else without a page waiting re-rates now, as it
    has no page to time out and may run where no worker does.
    """
    rerate = ratings_rerate_soon if _page_waiting.get() else ratings_rerate
    return rerate(request)


#: The runs log's message for a change that re-rated nothing.
NOTHING_TO_RERATE = "Nothing to re-rate: no rated game moved."


def run_logged(*, reason: str, user: Any = None) -> RatingRun:
    """A change to the record that re-rates nothing (a merge of a record with no rated
    games), in the runs log all the same, done at once: the log is where the officers
    read what was changed and by whom, whether or not ratings moved."""
    now = timezone.now()
    return RatingRun.objects.create(
        user=run_user(user),
        reason=reason[:200],
        system=ClubSettings.load().engine().id,
        status=RatingRun.Status.DONE,
        started=now,
        finished=now,
        seconds=0.0,
        progress=100,
        message=NOTHING_TO_RERATE,
    )


def run_progress(*, run: RatingRun, percent: int, message: str, using: Any = None) -> None:
    """Record a background run's progress where the progress page sees it at once.

    ``using``: the connection of ``progress_connection``, outside the run's transaction
    (which commits only at the end); none, the current one.
    """
    now = timezone.now()
    values = {"progress": percent, "message": message[:500], "heartbeat": now}
    if using is None:
        RatingRun.objects.filter(pk=run.pk).update(**values)
        return
    try:
        with using.cursor() as cursor:
            cursor.execute(
                "UPDATE ratings_ratingrun SET progress = %s, message = %s, heartbeat = %s "
                "WHERE id = %s",
                [percent, message[:500], using.ops.adapt_datetimefield_value(now), run.pk],
            )
    except DatabaseError:
        # SQLite: the re-rate holds the database's one write lock once it writes, and
        # this connection gives up at once rather than hold the re-rate up.
        log.debug("progress of run %s not recorded (database busy)", run.pk)


def progress_connection() -> Any:
    """A connection of its own, in autocommit, for a run's progress (closed by the caller)."""
    default = connections[DEFAULT_DB_ALIAS]
    params = copy.deepcopy(default.settings_dict)
    # A plain connection of its own, closed when the run ends: not one of the pool's.
    params.setdefault("OPTIONS", {}).pop("pool", None)
    params["CONN_MAX_AGE"] = 0
    if default.vendor == "sqlite":
        params.setdefault("OPTIONS", {})["timeout"] = 0.05
        params["OPTIONS"].pop("transaction_mode", None)
        params["OPTIONS"].pop("init_command", None)
    return type(default)(params, alias="progress")


def heartbeat_seconds() -> float:
    """How often a worker carrying a run out says it is alive."""
    return float(getattr(settings, "RERATE_HEARTBEAT_SECONDS", 5))


class Heartbeat:
    """A thread writing a run's heartbeat every few seconds through a connection of its
    own, whatever the run's own transaction is doing (PostgreSQL; SQLite's one write lock
    is the run's while it writes, and ``runs_take_over`` reads that lock instead)."""

    def __init__(
        self, run: Any, *, table: str = "ratings_ratingrun", status: str = RatingRun.Status.RUNNING
    ) -> None:
        # ``table``, ``status``: another kind of background job's row (a members file's
        # import), beating while it is in that status.
        self.run_pk = run.pk
        self.table = table
        self.status = status
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._beat, name=f"heartbeat-{run.pk}", daemon=True)

    def __enter__(self) -> Heartbeat:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopped.set()
        self.thread.join(timeout=10)

    def _beat(self) -> None:
        side = progress_connection()
        try:
            while not self.stopped.wait(heartbeat_seconds()):
                try:
                    with side.cursor() as cursor:
                        cursor.execute(
                            f"UPDATE {self.table} SET heartbeat = %s WHERE id = %s "
                            "AND status = %s",
                            [
                                side.ops.adapt_datetimefield_value(timezone.now()),
                                self.run_pk,
                                self.status,
                            ],
                        )
                except DatabaseError:
                    log.debug("heartbeat of run %s not recorded (database busy)", self.run_pk)
        finally:
            side.close()


#: What a failed run's page says: the club's words, never the database's (the log has those).
FAILED = (
    "The re-rate stopped on an error and saved nothing: the ratings are as they were "
    "before it. Run it again; if it fails again, the administrator will find the error "
    "in the server's log (run {pk})."
)


def rerate_run(
    *,
    run: RatingRun,
    start: Event | Position | None,
    members: Iterable[int] = (),
    worker: str = "",
) -> RatingRun:
    """Carry out a queued re-rate: the chain read and rated once, in one transaction.

    Readers keep seeing the old ratings until it commits. It waits for the run going (the
    ratings lock); a correction saved meanwhile is queued behind it and rates from the
    record as it then stands, so the saved ratings always match the games. A heartbeat
    says the worker is alive; if it dies, nothing is saved and another worker takes the
    run over (``runs_take_over``). Runs taken up already (done by another worker) are
    left alone.
    """
    now = timezone.now()
    claimed = RatingRun.objects.filter(pk=run.pk, status=RatingRun.Status.QUEUED).update(
        status=RatingRun.Status.RUNNING,
        started=now,
        heartbeat=now,
        progress=1,
        message="Waiting for the ratings lock",
        worker=(worker or f"{socket.gethostname()}:{os.getpid()}")[:64],
    )
    run.refresh_from_db()
    if not claimed:
        return run

    side = progress_connection()

    def report(percent: int, message: str) -> None:
        run_progress(run=run, percent=percent, message=message, using=side)

    try:
        with Heartbeat(run):
            request = RerateRequest(
                start=start,
                members=tuple(members),
                changed=run.changed_event,
                time_class=run.time_class or None,
                user=run.user,
                reason=run.reason,
            )
            run = ratings_rerate(request, progress=report, run=run)
    except Exception:
        log.exception("background re-rate %s failed", run.pk)
        RatingRun.objects.filter(pk=run.pk).update(
            status=RatingRun.Status.FAILED,
            finished=timezone.now(),
            message=FAILED.format(pk=run.pk),
        )
        raise
    finally:
        side.close()
    log.info("background re-rate %s: %s events in %.2fs", run.pk, run.events_rated, run.seconds)
    return run


@task()
def rerate_in_background(
    *, run_pk: int, start: list[Any] | None, members: list[int] | None = None
) -> int:
    """The worker's task: carry out the queued re-rate ``run_pk`` from ``start`` ([end,
    start, pk] or None; ``position_json``).

    ``members``: pks of members rewritten even if no event from ``start`` on has them.
    """
    club_time_zone_activate()
    run = RatingRun.objects.get(pk=run_pk)
    if run.status != RatingRun.Status.QUEUED:
        return run.pk  # already carried out (a worker retried it): nothing to do
    rerate_run(run=run, start=position_from_json(start), members=members or ())
    return run.pk


def runs_take_over() -> list[RatingRun]:
    """Queue again every run whose worker died mid-run; the runs taken over.

    A run is dead when its heartbeat has lapsed and no run holds the ratings lock (a dead
    worker's transaction was rolled back with its connection: nothing it did was saved,
    and its lock went with it). On SQLite the claim itself needs the database's write
    lock, which a live run holds for as long as it writes: such a claim waits and finds it
    done, or gives up (busy) and is tried again at the next heartbeat. The django-tasks row
    of the dead worker's task is marked failed (not left running for good), and a new task
    carries the run out from the start: its ratings are those of a full re-rate, as ever.
    """
    cutoff = timezone.now() - heartbeat_lapse()
    lapsed = RatingRun.objects.filter(status=RatingRun.Status.RUNNING).filter(
        Q(heartbeat__lt=cutoff) | Q(heartbeat__isnull=True, started__lt=cutoff)
    )
    taken: list[RatingRun] = []
    for run in list(lapsed.order_by("pk")):
        try:
            with transaction.atomic():
                if not ratings_lock_take(wait=False):
                    continue  # a run is going: perhaps this one, its heartbeat late
                claimed = lapsed.filter(pk=run.pk).update(
                    status=RatingRun.Status.QUEUED,
                    heartbeat=None,
                    progress=0,
                    message=(
                        "Taken over: the worker carrying it out stopped, and nothing it did "
                        "was saved. Waiting for the worker to run it again."
                    ),
                )
                if not claimed:
                    continue
                tasks_running_fail(run_pk=run.pk)
                run.refresh_from_db()
                _enqueue(run)
        except OperationalError:
            log.debug("run %s not taken over yet (database busy)", run.pk)
            continue
        log.warning("re-rate %s taken over: its worker stopped", run.pk)
        taken.append(run)
    return taken


def tasks_running_fail(
    *, run_pk: int, task: Task[Any, Any] | None = None, key: str = "run_pk"
) -> int:
    """Mark the django-tasks rows of ``task`` (a rating run's re-rate unless named) still
    RUNNING for ``key=run_pk`` (a rating run; a comparison's ``comparison_pk``, a members
    file's ``import_pk``) failed: their worker died."""
    path = (task or rerate_in_background).module_path
    rows = [
        row.pk
        for row in DBTaskResult.objects.filter(status="RUNNING", task_path=path)
        if row.args_kwargs.get("kwargs", {}).get(key) == run_pk
    ]
    return DBTaskResult.objects.filter(pk__in=rows).update(
        status="FAILED",
        finished_at=timezone.now(),
        exception_class_path="ratings.services.runs.WorkerStopped",
        traceback="The worker carrying this task out stopped; its work was taken over.",
    )
