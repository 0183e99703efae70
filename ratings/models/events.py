"""Rating periods, events, entries and games: what the officer records."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import cached_property
from simple_history.models import HistoricalRecords

from ..time_classes import CHOICES as TIME_CLASSES
from ..time_classes import STANDARD
from .club import SYSTEM_CHOICES
from .members import EARLIEST_DATE, Member, name_problem

#: How far ahead an event may be dated (a season's fixtures entered early).
EVENT_DAYS_AHEAD = 366


def event_date_problem(day: dt.date) -> str | None:
    """What is wrong with an event's date, or None: the event form's and the imports' rule.

    A mistyped year would move the event to the far end of the rating chain (and a date
    in year 1 would re-rate everything from it).
    """
    if day < EARLIEST_DATE:
        return f"{day.day} {day:%b %Y}: before {EARLIEST_DATE.year}."
    if day > timezone.localdate() + dt.timedelta(days=EVENT_DAYS_AHEAD):
        return f"{day.day} {day:%b %Y} is more than a year ahead: check the year."
    return None


class RatingPeriod(models.Model):
    """A rating period of a period system (acf-1993, ecf-2020): closed = published."""

    system = models.CharField(max_length=20, choices=SYSTEM_CHOICES)
    label = models.CharField(max_length=20)
    start = models.DateField()
    end = models.DateField()
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )

    class Meta:
        ordering = ["-start"]
        constraints = [
            models.UniqueConstraint(fields=["system", "label"], name="one_period_a_label")
        ]

    def __str__(self) -> str:
        return self.label

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None

    @property
    def name(self) -> str:
        """Its dates in words ("Jul–Oct 2026, December 2026 list"): the label is a key."""
        from ..period_names import period_name

        return period_name(self.system, self.label, self.start, self.end)


class EventQuerySet(models.QuerySet["Event"]):
    def in_rating_order(self) -> EventQuerySet:
        """The order the engine rates events in: by end date, then start, then entry."""
        return self.order_by("end_date", "start_date", "pk")


class Event(models.Model):
    class Kind(models.TextChoices):
        CLUB_NIGHT = "club-night", "Club night"
        ROUND_ROBIN = "round-robin", "Round robin"
        SWISS = "swiss", "Swiss"
        MATCH = "match", "Match"
        LEAGUE = "league", "League / interclub"

    class Status(models.TextChoices):
        DRAFT = "draft", "Entering results"
        COMPLETE = "complete", "Complete"

    name = models.CharField(max_length=120)
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.SWISS)
    start_date = models.DateField()
    end_date = models.DateField()
    rounds = models.PositiveSmallIntegerField(
        default=1, validators=[MinValueValidator(1), MaxValueValidator(99)]
    )
    time_control = models.CharField(
        max_length=40, blank=True, help_text="e.g. 60+30, G/90, 25 min rapid"
    )
    #: Standard, rapid or blitz: the class the rating bodies keep apart. The database's
    #: own default too, so bulk writers that name no class (generate_history) get standard.
    time_class = models.CharField(
        "standard, rapid or blitz",
        max_length=10,
        choices=TIME_CLASSES,
        default=STANDARD,
        db_default=STANDARD,
        help_text="FIDE's classes by the time for 60 moves: blitz 10 minutes or less, "
        "rapid under 60, standard 60 or more.",
    )
    rated = models.BooleanField(default=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    players = models.ManyToManyField(Member, through="Entry", related_name="events")
    created = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords()

    objects = EventQuerySet.as_manager()

    class Meta:
        ordering = ["-end_date", "-start_date", "-pk"]
        # The events' own order: the officer's list and the newest rated event read it.
        indexes = [
            models.Index(fields=["-end_date", "-start_date", "-id"], name="event_newest_first")
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("ratings:event", args=[self.pk])

    def clean(self) -> None:
        problem = name_problem(self.name)
        if problem:
            raise ValidationError({"name": problem})
        if self.start_date and self.end_date and self.end_date < self.start_date:
            raise ValidationError({"end_date": "An event cannot end before it starts."})
        for field in ("start_date", "end_date"):
            day = getattr(self, field)
            problem = event_date_problem(day) if day is not None else None
            if problem:
                raise ValidationError({field: problem})

    @property
    def is_complete(self) -> bool:
        return self.status == self.Status.COMPLETE

    @cached_property
    def is_rated(self) -> bool:
        """True once the engine has rated it (its rating changes exist)."""
        return self.rating_changes.exists()


class Entry(models.Model):
    """A member playing in an event."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    member = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="entries")
    history = HistoricalRecords()

    class Meta:
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["event", "member"], name="one_entry_a_member")
        ]

    def __str__(self) -> str:
        return f"{self.member} in {self.event}"


class Game(models.Model):
    class Result(models.TextChoices):
        WHITE_WIN = "1-0", "1-0"
        DRAW = "1/2-1/2", "½-½"
        BLACK_WIN = "0-1", "0-1"
        WHITE_FORFEIT_WIN = "+/-", "+/− (white wins by forfeit)"
        BLACK_FORFEIT_WIN = "-/+", "−/+ (black wins by forfeit)"
        DOUBLE_FORFEIT = "-/-", "−/− (both forfeit)"
        # Scored but not rated: the game lasted less than a move, or the arbiter left it
        # out (the W, D and L of a FIDE tournament report file).
        WHITE_WIN_UNRATED = "1-0 nr", "1-0 (not rated)"
        DRAW_UNRATED = "1/2-1/2 nr", "½-½ (not rated)"
        BLACK_WIN_UNRATED = "0-1 nr", "0-1 (not rated)"
        BYE = "bye", "Bye (1 point)"
        HALF_BYE = "half-bye", "Half-point bye"
        ZERO_BYE = "zero-bye", "Absent (0 points)"

    #: Results that were played over the board: the only ones a system rates.
    PLAYED = (Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN)
    #: Results with both players there and scored as a game, but not rated.
    UNRATED = (Result.WHITE_WIN_UNRATED, Result.DRAW_UNRATED, Result.BLACK_WIN_UNRATED)
    #: Results with one player only.
    BYES = (Result.BYE, Result.HALF_BYE, Result.ZERO_BYE)
    #: Points for white and black of each result.
    POINTS: dict[str, tuple[float, float]] = {
        Result.WHITE_WIN: (1.0, 0.0),
        Result.DRAW: (0.5, 0.5),
        Result.BLACK_WIN: (0.0, 1.0),
        Result.WHITE_FORFEIT_WIN: (1.0, 0.0),
        Result.BLACK_FORFEIT_WIN: (0.0, 1.0),
        Result.DOUBLE_FORFEIT: (0.0, 0.0),
        Result.WHITE_WIN_UNRATED: (1.0, 0.0),
        Result.DRAW_UNRATED: (0.5, 0.5),
        Result.BLACK_WIN_UNRATED: (0.0, 1.0),
        Result.BYE: (1.0, 0.0),
        Result.HALF_BYE: (0.5, 0.0),
        Result.ZERO_BYE: (0.0, 0.0),
    }

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="games")
    round = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])
    board = models.PositiveSmallIntegerField(null=True, blank=True)
    white = models.ForeignKey(
        Member,
        on_delete=models.PROTECT,
        related_name="games_as_white",
        help_text="The player with white (or the player with the bye).",
    )
    black = models.ForeignKey(
        Member,
        on_delete=models.PROTECT,
        related_name="games_as_black",
        null=True,
        blank=True,
        help_text="Empty for a bye.",
    )
    result = models.CharField(max_length=10, choices=Result.choices)
    colours_known = models.BooleanField(
        default=True, help_text="False when the record does not say who had white."
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["event", "round", "board", "pk"]
        indexes = [models.Index(fields=["event", "round"])]
        constraints = [
            models.CheckConstraint(
                condition=~Q(white=models.F("black")), name="game_not_against_oneself"
            ),
        ]

    def __str__(self) -> str:
        if self.black_id is None:
            return f"R{self.round}: {self.white} {self.get_result_display()}"
        return f"R{self.round}: {self.white} – {self.black} {self.get_result_display()}"

    @property
    def is_played(self) -> bool:
        """Played over the board, so rated; forfeits, byes and unrated games are not."""
        return self.result in self.PLAYED and self.black_id is not None

    @property
    def is_bye(self) -> bool:
        return self.result in self.BYES

    @property
    def white_points(self) -> float:
        return self.POINTS[self.result][0]

    @property
    def black_points(self) -> float:
        return self.POINTS[self.result][1]

    def clean(self) -> None:
        errors: dict[str, Any] = {}
        if self.is_bye and self.black_id is not None:
            errors["black"] = "A bye has one player only: leave black empty."
        if not self.is_bye and self.black_id is None and self.result:
            errors["black"] = "Choose black, or record a bye."
        if self.black_id is not None and self.black_id == self.white_id:
            errors["black"] = "A player cannot play themselves."
        if self.event_id and self.round and self.round > self.event.rounds:
            errors["round"] = f"This event has {self.event.rounds} rounds."
        if errors:
            raise ValidationError(errors)
