"""What the re-rate writes: each member's current state, each game's change, each run."""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import Any

from django.conf import settings
from django.db import connection, models
from django.utils import timezone

from ..rules.places_of_play import LIST_CHOICES, LIST_KEY_LENGTH
from ..rules.time_classes import STANDARD
from .breakdowns import breakdown_read
from .club import SYSTEM_CHOICES
from .events import Event
from .members import Member

#: A rating a tournament organiser can seed on: a number, perhaps with one marker
#: ("1486p", "1540P", "412*"). acf-1993's "4 R" (games still to play) and "Unr" are not.
USABLE = r"^[0-9]+[^0-9 ]?$"
_USABLE = re.compile(USABLE)


def is_usable(display: str) -> bool:
    return bool(_USABLE.match(display or ""))


class JSONText(models.TextField):
    """JSON kept as text, for a value read and written whole and never queried inside.

    JSONField is jsonb on PostgreSQL, which spends 8 to 12 bytes on each number: twice a
    packed breakdown's text. (SQLite keeps JSON as text either way.)
    """

    def from_db_value(self, value: str | None, expression: Any, connection: Any) -> Any:
        return None if value is None else json.loads(value)

    def to_python(self, value: Any) -> Any:
        return json.loads(value) if isinstance(value, str) else value

    def get_prep_value(self, value: Any) -> str | None:
        return None if value is None else json.dumps(value, separators=(",", ":"))

    def value_to_string(self, obj: models.Model) -> str:
        return self.get_prep_value(self.value_from_object(obj)) or ""


class RatingState(models.Model):
    """A member's current rating on one list: the engine's state after every rated event.

    One row a member a list (``time_class``: standard, or rapid or blitz kept on a list of
    their own, ``rules/rating_lists.py``). Queries read a member's row on one list through
    ``Member.objects.with_state(time_class)``, as ``rating_state``.
    """

    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="rating_states")
    time_class = models.CharField(
        max_length=LIST_KEY_LENGTH, choices=LIST_CHOICES, default=STANDARD
    )
    rating = models.FloatField(null=True, blank=True)
    display = models.CharField(max_length=12, blank=True)
    games = models.PositiveIntegerField(default=0)
    state = models.JSONField(default=dict)
    last_event = models.ForeignKey(Event, null=True, blank=True, on_delete=models.SET_NULL)
    last_played = models.DateField(null=True, blank=True)
    #: The change at ``last_event`` as its report shows it (the shown after less the shown
    #: before, ``figures.shown_change``; none from a marker such as "1 R"), kept here so the
    #: list reads one row a member instead of looking up each member's last RatingChange.
    last_change = models.FloatField(null=True, blank=True)
    #: A rating others can seed on (``reports.is_usable`` of ``display``): the list ranks these.
    usable = models.BooleanField(default=False)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["member", "time_class"], name="one_state_a_list")
        ]
        indexes = [
            models.Index(fields=["time_class", "-rating"], name="state_list_rating"),
            # The list joins each member's row on one list for these alone: read from the
            # index, not the table (a third off the list's sort at 20,000 members).
            models.Index(
                fields=["member", "time_class", "rating", "usable", "games", "last_event"],
                name="state_list_cover",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.member}: {self.display}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.usable = is_usable(self.display)
        fields = kwargs.get("update_fields")
        if fields is not None and "display" in fields:
            kwargs["update_fields"] = {*fields, "usable"}
        super().save(*args, **kwargs)


class RatingChange(models.Model):
    """A member's rating before and after one rated event, with the engine's breakdown."""

    # No index of their own: the unique (event, member) and the member's chain index below
    # serve their lookups, and every index is written for every change a re-rate writes.
    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="rating_changes", db_index=False
    )
    member = models.ForeignKey(
        Member, on_delete=models.CASCADE, related_name="rating_changes", db_index=False
    )
    #: The list it counts on (``RatingState.time_class``), copied like ``event_end``: a
    #: member's changes on one list are one index range.
    time_class = models.CharField(
        max_length=LIST_KEY_LENGTH, choices=LIST_CHOICES, default=STANDARD
    )
    period = models.CharField(max_length=20, blank=True)
    before = models.FloatField(null=True, blank=True)
    after = models.FloatField(null=True, blank=True)
    display_before = models.CharField(max_length=12, blank=True)
    display_after = models.CharField(max_length=12, blank=True)
    played = models.PositiveSmallIntegerField(default=0)
    score = models.FloatField(default=0)
    #: The engine's breakdown as ``ratings.models.breakdowns`` stores it: packed for a period
    #: system (the game lines' opponents, scores and rounds are the games'), empty for a
    #: per-event system (worked out again when a page asks).
    breakdown = JSONText(default=dict)
    state_after = models.JSONField(default=dict)
    #: The event's place in the chain, copied so that a member's last change before a
    #: point is one index lookup (``member``, then these) rather than a join per member.
    #: A change is re-created whenever its event moves, so the copy never goes stale.
    event_end = models.DateField()
    event_start = models.DateField()
    #: ``state_after`` is one the next rating period's opening changes even without games
    #: (acf-1993's zero-score reset): a re-rate from a later point takes this member in.
    unsettled = models.BooleanField(default=False)

    class Meta:
        ordering = ["event_end", "event_start", "event_id"]
        constraints = [
            # A list's: while a re-rate moves an event to another list, it writes the new
            # list's rows before it takes the old one's away.
            models.UniqueConstraint(
                fields=["event", "member", "time_class"],
                name="one_change_a_member_an_event_a_list",
            )
        ]
        indexes = [
            models.Index(
                fields=["member", "time_class", "-event_end", "-event_start", "-event"],
                name="change_member_list_chain",
            ),
            models.Index(
                fields=["time_class", "event_end", "event_start", "event"],
                name="change_list_chain",
            ),
            models.Index(
                fields=["unsettled"], condition=models.Q(unsettled=True), name="change_unsettled"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.member} in {self.event}: {self.display_before} → {self.display_after}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.event_end is None or self.event_start is None:
            self.event_end, self.event_start = self.event.end_date, self.event.start_date
        super().save(*args, **kwargs)

    @property
    def detail(self) -> dict[str, Any]:
        """The breakdown as the engine's JSON has it: its figures, its game lines as dicts
        (``pages.game_lines.changes_breakdown_fill`` first: a per-event system's stores
        none, a period system's are read with the games)."""
        return breakdown_read(self.breakdown)

    @property
    def change(self) -> float | None:
        if self.before is None or self.after is None:
            return None
        return self.after - self.before


class RatingRun(models.Model):
    """One run of the engine over the chain of events: the officers' log."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    started = models.DateTimeField(default=timezone.now)
    finished = models.DateTimeField(null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    reason = models.CharField(max_length=200)
    #: The list it re-rated; blank: every list the club keeps.
    time_class = models.CharField(max_length=LIST_KEY_LENGTH, choices=LIST_CHOICES, blank=True)
    system = models.CharField(max_length=20, choices=SYSTEM_CHOICES)
    from_event = models.ForeignKey(Event, null=True, blank=True, on_delete=models.SET_NULL)
    events_rated = models.PositiveIntegerField(default=0)
    games_rated = models.PositiveIntegerField(default=0)
    seconds = models.FloatField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveSmallIntegerField(default=0)
    message = models.TextField(blank=True)
    #: The last sign of life of the worker carrying a background run out.
    heartbeat = models.DateTimeField(null=True, blank=True)
    #: Seconds the run was expected to take when it was queued.
    estimate = models.FloatField(null=True, blank=True)
    #: What it re-rates, to carry it out again: the restart position ([end, start, pk] or
    #: null for everything) and the members named along.
    start = models.JSONField(null=True, blank=True)
    members = models.JSONField(default=list, blank=True)
    #: The one event whose games changed (or that became rateable), when that is all that
    #: changed: the re-rate follows its ripple (``services/ripple.py``).
    changed_event = models.ForeignKey(
        Event, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    #: A switch of the club's system or parameters this run brings in
    #: (``{"rating_system": ..., "system_params": {...}}``): the settings name it only in
    #: the run's own transaction, so the site never names a system its ratings are not.
    pending = models.JSONField(null=True, blank=True)
    #: The worker carrying it out (its id), for the log and the takeover of a dead one.
    worker = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["-started", "-pk"]

    def __str__(self) -> str:
        return f"{self.started:%Y-%m-%d %H:%M} {self.reason}"

    #: A queued run no worker has taken after this long, with no run going either, means
    #: no worker is running.
    STALLED_AFTER = dt.timedelta(minutes=1)

    @property
    def stalled(self) -> bool:
        if (
            self.status != self.Status.QUEUED
            or timezone.now() - self.started <= self.STALLED_AFTER
        ):
            return False
        # Queued behind a run that is going: the worker is busy, not missing.
        running = RatingRun.objects.filter(status=self.Status.RUNNING)
        return all(run.dead for run in running)

    @property
    def dead(self) -> bool:
        """Whether its worker has given no sign of life for longer than a heartbeat allows.

        On SQLite the worker cannot write its heartbeat while its re-rate holds the write
        lock, so a long run goes quiet for about its length: it is allowed three times its
        estimate. A worker taking it over checks the lock besides (``runs_take_over``).
        """
        if self.status != self.Status.RUNNING:
            return False
        lapse = heartbeat_lapse()
        if connection.vendor == "sqlite":
            lapse = max(lapse, dt.timedelta(seconds=3 * (self.estimate or 0)))
        return timezone.now() - (self.heartbeat or self.started) > lapse


def heartbeat_lapse() -> dt.timedelta:
    """How long a running run may go without a heartbeat before its worker counts as gone."""
    return dt.timedelta(seconds=getattr(settings, "RERATE_HEARTBEAT_LAPSE", 30.0))
