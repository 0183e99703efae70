"""The club's record: members, subscriptions, events and games.

Games are the record; ratings (RatingState, RatingChange) are derived from them by
the engine through ``ratings.services`` and never edited by hand.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models import Exists, OuterRef, Q
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import cached_property
from simple_history.models import HistoricalRecords

from .engine import DEFAULT_SYSTEM, SYSTEMS, RatingSystem, get_system
from .engine.codec import TITLES

SYSTEM_CHOICES = [(system_id, cls.title) for system_id, cls in SYSTEMS.items()]


class ClubSettings(models.Model):
    """The club's one row of settings; ``ClubSettings.load()`` always returns it."""

    name = models.CharField(max_length=120, default="Our Chess Club")
    rating_system = models.CharField(max_length=20, choices=SYSTEM_CHOICES, default=DEFAULT_SYSTEM)
    system_params = models.JSONField(
        "system parameters",
        default=dict,
        blank=True,
        help_text='Overrides of the system\'s documented parameters, e.g. {"floor": 900}.',
    )
    season_start_month = models.PositiveSmallIntegerField(
        default=1,
        validators=[MinValueValidator(1), MaxValueValidator(12)],
        help_text="The month a subscription season starts (1 = January).",
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = "club settings"
        verbose_name_plural = "club settings"
        permissions = [("officer", "Can keep members, enter results and rate events")]

    def __str__(self) -> str:
        return self.name

    @classmethod
    def load(cls) -> ClubSettings:
        obj, _ = cls.objects.get_or_create(pk=1)
        return obj

    def clean(self) -> None:
        if not isinstance(self.system_params, dict):
            raise ValidationError({"system_params": "Must be a JSON object."})
        system = SYSTEMS.get(self.rating_system)
        if system is not None:
            problems = system.check_params(self.system_params, path="")
            if problems:
                raise ValidationError({"system_params": [p.lstrip(".") for p in problems]})

    def engine(self) -> RatingSystem:
        return get_system(self.rating_system, self.system_params)

    def season_for(self, day: dt.date) -> tuple[str, dt.date, dt.date]:
        """The name, first and last day of the season containing ``day``."""
        month = self.season_start_month
        year = day.year if day.month >= month else day.year - 1
        start = dt.date(year, month, 1)
        end = dt.date(year + 1, month, 1) - dt.timedelta(days=1)
        name = str(year) if month == 1 else f"{year}/{str(year + 1)[-2:]}"
        return name, start, end


class Season(models.Model):
    """A subscription season: paying for it makes a member financial within its dates."""

    name = models.CharField(max_length=20, unique=True)
    start = models.DateField()
    end = models.DateField()

    class Meta:
        ordering = ["-start"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        if self.start and self.end and self.end < self.start:
            raise ValidationError({"end": "A season cannot end before it starts."})

    @classmethod
    def for_day(cls, day: dt.date) -> Season:
        """The season covering ``day``, created from the club settings if need be."""
        existing = cls.objects.filter(start__lte=day, end__gte=day).first()
        if existing:
            return existing
        name, start, end = ClubSettings.load().season_for(day)
        season, _ = cls.objects.get_or_create(name=name, defaults={"start": start, "end": end})
        return season


class MemberQuerySet(models.QuerySet["Member"]):
    def active(self) -> MemberQuerySet:
        return self.filter(merged_into__isnull=True)

    def listable(self) -> MemberQuerySet:
        """Members with a rating to list: not a new player yet to play who brought none in
        (their state holds only the system's starting figure, nz's 1500)."""
        return self.filter(rating_state__isnull=False).exclude(
            rating_state__last_event__isnull=True,
            rating_state__games=0,
            initial_rating__isnull=True,
        )

    def with_financial(self, day: dt.date | None = None) -> MemberQuerySet:
        """Annotate ``is_financial``: a subscription covers ``day`` (default today)."""
        day = day or timezone.localdate()
        paid = Subscription.objects.filter(
            member=OuterRef("pk"), season__start__lte=day, season__end__gte=day
        )
        return self.annotate(is_financial=Exists(paid))

    def published(self, day: dt.date | None = None) -> MemberQuerySet:
        """Members whose rating the public may see: financial, not guests, not merged.

        The paid-up members are one list the database makes once (``pk IN (...)``), not a
        lookup per member: the list's deep pages read every member.
        """
        day = day or timezone.localdate()
        # The seasons covering the day first (a handful), then their members down the
        # (season, member) index: not every subscription ever paid, each with its season.
        seasons = Season.objects.filter(start__lte=day, end__gte=day).values("pk")
        paid = Subscription.objects.filter(season__in=seasons)
        return (
            self.active()
            .filter(is_guest=False, pk__in=paid.values("member_id"))
            .annotate(is_financial=models.Value(True, output_field=models.BooleanField()))
        )


#: The highest initial rating a member may be given. No system here rates anywhere near it
#: (FIDE's highest ever is 2882; club scales run lower), so a bigger number is a typo
#: (15000 for 1500), not a player.
MAX_INITIAL_RATING = 3500
#: No member was born, and no event was played, before this: an earlier date is a typing slip.
EARLIEST_DATE = dt.date(1900, 1, 1)
#: How far ahead an event may be dated (a season's fixtures entered early).
EVENT_DAYS_AHEAD = 366


def name_problem(name: str) -> str | None:
    """What is wrong with a member's or an event's name, or None. A name made only of
    spaces, zero-width or control characters looks blank on every page and list."""
    if name and not any(char.isalnum() for char in name):
        return (
            "A name must contain letters (this one is only spaces, marks or invisible characters)."
        )
    return None


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


class Member(models.Model):
    class Gender(models.TextChoices):
        MALE = "M", "Male"
        FEMALE = "F", "Female"

    member_number = models.CharField(
        max_length=32,
        unique=True,
        validators=[RegexValidator(r"^[\w.-]+$", "Letters, digits, '.', '-' or '_' only.")],
        help_text="The club's own id for the member (the 'id' column of imports).",
    )
    name = models.CharField(max_length=120, db_index=True)
    born = models.DateField("date of birth", null=True, blank=True)
    gender = models.CharField(max_length=1, choices=Gender.choices, blank=True)
    region = models.CharField("region / state", max_length=40, blank=True, db_index=True)
    title = models.CharField(
        "FIDE title", max_length=3, blank=True, choices=[(t, t) for t in TITLES]
    )
    fide_id = models.CharField(
        "FIDE id",
        max_length=12,
        blank=True,
        validators=[RegexValidator(r"^\d+$", "A FIDE id is digits only.")],
    )
    is_guest = models.BooleanField(
        "guest",
        default=False,
        help_text="Guests play in events but are not members: they never get a published rating.",
    )
    initial_rating = models.FloatField(
        null=True,
        blank=True,
        validators=[
            MinValueValidator(0, "A rating cannot be below 0."),
            MaxValueValidator(
                MAX_INITIAL_RATING,
                f"A rating is at most {MAX_INITIAL_RATING}.",
            ),
        ],
        help_text="The member's rating before their first event here (blank: a new player).",
    )
    initial_games = models.PositiveIntegerField(
        default=0,
        validators=[MinValueValidator(0, "Games played cannot be below 0.")],
        help_text="Rated games played before the first event here.",
    )
    merged_into = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="merged_from",
        help_text="Set when this record was merged into another (a duplicate).",
    )
    created = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords()

    objects = MemberQuerySet.as_manager()

    class Meta:
        ordering = ["name", "member_number"]
        constraints = [
            # Numbers are typed in any case (results, pasted rounds): A1 and a1 are one.
            models.UniqueConstraint(
                Lower("member_number"),
                name="member_number_unique_any_case",
                violation_error_message="Another member has this number.",
            )
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("ratings:member", args=[self.member_number])

    def clean(self) -> None:
        problem = name_problem(self.name)
        if problem:
            raise ValidationError({"name": problem})
        # A birth date decides the junior lists and ecf-2020's junior rules.
        if self.born is not None and self.born > timezone.localdate():
            raise ValidationError({"born": "A date of birth cannot be in the future."})
        if self.born is not None and self.born < EARLIEST_DATE:
            raise ValidationError(
                {"born": f"A date of birth before {EARLIEST_DATE.year} is surely a slip."}
            )

    def namesakes(self) -> list[str]:
        """The numbers of the other current members with this name, in any case."""
        others = Member.objects.active().filter(name__iexact=self.name).exclude(pk=self.pk)
        return list(others.values_list("member_number", flat=True))

    def is_financial_on(self, day: dt.date | None = None) -> bool:
        day = day or timezone.localdate()
        return self.subscriptions.filter(season__start__lte=day, season__end__gte=day).exists()

    @property
    def engine_id(self) -> str:
        return str(self.pk)

    def age_on(self, day: dt.date) -> int | None:
        if self.born is None:
            return None
        years = day.year - self.born.year
        if (day.month, day.day) < (self.born.month, self.born.day):
            years -= 1
        return years


class Subscription(models.Model):
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="subscriptions")
    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="subscriptions")
    paid_on = models.DateField(default=timezone.localdate)
    amount = models.DecimalField(max_digits=8, decimal_places=2, null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["-season__start"]
        constraints = [
            models.UniqueConstraint(fields=["member", "season"], name="one_subscription_a_season")
        ]
        #: A season's members in one index: the published list reads who has paid for
        #: today's season without touching the subscriptions themselves.
        indexes = [models.Index(fields=["season", "member"], name="subscription_season_member")]

    def __str__(self) -> str:
        return f"{self.member} — {self.season}"


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


#: A rating a tournament organiser can seed on: a number, perhaps with one marker
#: ("1486p", "1540P", "412*"). acf-1993's "4 R" (games still to play) and "Unr" are not.
USABLE = r"^[0-9]+[^0-9 ]?$"
_USABLE = re.compile(USABLE)


def is_usable(display: str) -> bool:
    return bool(_USABLE.match(display or ""))


class RatingState(models.Model):
    """A member's current rating: the engine's state after every rated event."""

    member = models.OneToOneField(
        Member, on_delete=models.CASCADE, primary_key=True, related_name="rating_state"
    )
    rating = models.FloatField(null=True, blank=True)
    display = models.CharField(max_length=12, blank=True)
    games = models.PositiveIntegerField(default=0)
    state = models.JSONField(default=dict)
    last_event = models.ForeignKey(Event, null=True, blank=True, on_delete=models.SET_NULL)
    last_played = models.DateField(null=True, blank=True)
    #: The change at ``last_event`` (after − before), kept here so the list reads one row a
    #: member instead of looking up each member's last RatingChange.
    last_change = models.FloatField(null=True, blank=True)
    #: A rating others can seed on (``reports.is_usable`` of ``display``): the list ranks these.
    usable = models.BooleanField(default=False)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["-rating"])]

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
    period = models.CharField(max_length=20, blank=True)
    before = models.FloatField(null=True, blank=True)
    after = models.FloatField(null=True, blank=True)
    display_before = models.CharField(max_length=12, blank=True)
    display_after = models.CharField(max_length=12, blank=True)
    played = models.PositiveSmallIntegerField(default=0)
    score = models.FloatField(default=0)
    breakdown = models.JSONField(default=dict)
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
            models.UniqueConstraint(
                fields=["event", "member"], name="one_change_a_member_an_event"
            )
        ]
        indexes = [
            models.Index(
                fields=["member", "-event_end", "-event_start", "-event"],
                name="change_member_chain",
            ),
            models.Index(fields=["event_end", "event_start", "event"], name="change_chain"),
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
        """The breakdown as the engine's JSON has it: its figures, its game lines as dicts."""
        from .breakdowns import breakdown_read

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

    class Meta:
        ordering = ["-started", "-pk"]

    def __str__(self) -> str:
        return f"{self.started:%Y-%m-%d %H:%M} {self.reason}"

    #: A queued run no worker has taken after this long means no worker is running.
    STALLED_AFTER = dt.timedelta(minutes=1)

    @property
    def stalled(self) -> bool:
        return (
            self.status == self.Status.QUEUED
            and timezone.now() - self.started > self.STALLED_AFTER
        )

    #: A running run with no sign of its worker for this long (or three times its estimate,
    #: if longer) lost its worker: killed, or its machine restarted.
    DEAD_AFTER = dt.timedelta(minutes=2)

    @property
    def dead(self) -> bool:
        if self.status != self.Status.RUNNING:
            return False
        # On SQLite the worker cannot write while its re-rate holds the write lock, so a
        # long run may go quiet for about its whole length: allow for its estimate.
        allowed = max(self.DEAD_AFTER, dt.timedelta(seconds=3 * (self.estimate or 0)))
        return timezone.now() - (self.heartbeat or self.started) > allowed
