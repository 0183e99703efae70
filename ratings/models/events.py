"""Rating periods, events, entries and games: what the officer records."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import cached_property
from simple_history.models import HistoricalRecords

from ..rules import results, tiebreaks
from ..rules.names import name_problem
from ..rules.period_names import period_name
from ..rules.places_of_play import LIST_CHOICES, LIST_KEY_LENGTH
from ..rules.text import EVENT_NAME_LENGTH, TIME_CONTROL_LENGTH
from ..rules.time_classes import CHOICES as TIME_CLASSES
from ..rules.time_classes import STANDARD
from ..words.counts import count_phrase
from . import rules
from .club import SYSTEM_CHOICES, ClubSettings
from .members import Member, member_names
from .rating_lists import event_list_of, on_list
from .rules import EARLIEST_DATE

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


class RatingPeriodQuerySet(models.QuerySet["RatingPeriod"]):
    """The one way to ask for rating periods: a list's, closed, the one holding an event."""

    def of_list(self, system: Any, time_class: str = STANDARD) -> RatingPeriodQuerySet:
        """The periods of one list's chain under ``system`` (an engine)."""
        return self.filter(system=system.id, time_class=time_class)

    def closed(self) -> RatingPeriodQuerySet:
        """Closed periods: rated and published."""
        return self.filter(closed_at__isnull=False)

    def last_closed(self) -> RatingPeriod | None:
        """The latest closed period: the one the list stands on."""
        return self.closed().order_by("-end").first()

    def labelled(self, label: str, *, system: Any, time_class: str = STANDARD) -> RatingPeriod:
        """Period ``label`` of the list: the saved one, else built unsaved from the system's
        dates for it (``EngineError``/``ValueError`` for a label the system cannot read)."""
        saved = self.of_list(system, time_class).filter(label=label).first()
        return saved or RatingPeriod.unsaved(system=system, time_class=time_class, label=label)

    def for_event(
        self, event: Event, *, system: Any = None, time_class: str | None = None
    ) -> RatingPeriod | None:
        """The period (saved, or unsaved until closed) holding ``event`` on its list, or on
        list ``time_class`` under ``system``; None for a per-event system or an event on
        no list the club keeps."""
        if time_class is None:
            time_class = event_list_of(event)
            if time_class is None:
                return None
        if system is None:
            system = ClubSettings.load().engine(time_class)
        label = system.period_of(event.end_date)
        if label is None:
            return None
        return self.labelled(label, system=system, time_class=time_class)

    def of_events(
        self, events: Any, *, system: Any, time_class: str = STANDARD
    ) -> list[RatingPeriod]:
        """The periods (saved or unsaved) holding ``events`` (a queryset of them), in
        order of their dates: one query for the end dates, one for the saved periods."""
        ends = events.order_by().values_list("end_date", flat=True).distinct()
        labels = {system.period_of(end) for end in ends} - {None}
        saved = {p.label: p for p in self.of_list(system, time_class).filter(label__in=labels)}
        periods = [
            saved.get(label)
            or RatingPeriod.unsaved(system=system, time_class=time_class, label=label)
            for label in labels
        ]
        return sorted(periods, key=lambda p: p.start)


class RatingPeriod(models.Model):
    """A rating period of a period system (acf-1993, ecf-2020): closed = published."""

    system = models.CharField(max_length=20, choices=SYSTEM_CHOICES)
    #: The list whose chain it belongs to (``rules/rating_lists.py``).
    time_class = models.CharField(
        max_length=LIST_KEY_LENGTH, choices=LIST_CHOICES, default=STANDARD
    )
    label = models.CharField(max_length=20)
    start = models.DateField()
    end = models.DateField()
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )

    objects = RatingPeriodQuerySet.as_manager()

    class Meta:
        ordering = ["-start"]
        constraints = [
            models.UniqueConstraint(
                fields=["system", "time_class", "label"], name="one_period_a_label_a_list"
            )
        ]

    def __str__(self) -> str:
        # Wherever a period is written out (the admin, a message), by its dates.
        return self.name

    @classmethod
    def unsaved(cls, *, system: Any, time_class: str, label: str) -> RatingPeriod:
        """Period ``label`` of a list as ``system`` dates it, not saved: the one place an
        unsaved period is made (it is saved when closed)."""
        start, end = system.period_bounds(label)
        return cls(system=system.id, time_class=time_class, label=label, start=start, end=end)

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None

    def has_started(self, today: dt.date | None = None) -> bool:
        return self.start <= (today or timezone.localdate())

    def has_ended(self, today: dt.date | None = None) -> bool:
        """Its last day is past: its events have all been played."""
        return self.end < (today or timezone.localdate())

    def events(self) -> EventQuerySet:
        """The events of this period: of its list's time controls, ending within its
        dates, in rating order (drafts and unrated ones too: narrow as needed)."""
        return Event.objects.filter(
            on_list(self.time_class), end_date__gte=self.start, end_date__lte=self.end
        ).in_rating_order()

    @property
    def name(self) -> str:
        """Its dates in words ("Jul–Oct 2026, December 2026 list"): the label is a key."""
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

    name = models.CharField(max_length=EVENT_NAME_LENGTH, validators=[rules.validate_text])
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.SWISS)
    start_date = models.DateField()
    end_date = models.DateField()
    rounds = models.PositiveSmallIntegerField(
        default=1, validators=[MinValueValidator(1), MaxValueValidator(rules.MAX_ROUNDS)]
    )
    time_control = models.CharField(
        max_length=TIME_CONTROL_LENGTH,
        blank=True,
        validators=[rules.validate_text],
        help_text="e.g. 60+30, G/90, 25 min rapid",
    )
    #: Where it is played: the club's calendar (``/events.ics``) gives it as the location.
    place = models.CharField(
        max_length=100,
        blank=True,
        validators=[rules.validate_text],
        help_text="Where it is played (the venue): the club's calendar shows it.",
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
    #: How players level on points are ranked: FIDE's acronyms (C.07) in order, e.g.
    #: "BH/C1,BH,SB"; blank for the default of the event's kind (``tie_break_codes``).
    tie_breaks = models.CharField(
        max_length=60,
        blank=True,
        default="",
        db_default="",
        validators=[rules.validate_tie_breaks],
        help_text="In order, commas between: BH/C1 (Buchholz Cut-1), BH (Buchholz), "
        "BH/M1 (Median Buchholz), SB (Sonneborn-Berger), SB/C1, DE (direct encounter), "
        "WIN (wins), WON (games won), ARO (average rating of opponents). Blank: BH/C1, BH, "
        "SB for a Swiss or club night; DE, SB, WIN for a round robin.",
    )
    rated = models.BooleanField(default=True)
    #: Over the board (the default) or online, on a chess server: the rating bodies keep
    #: online play apart, and an online event's games are rated on no over-the-board list
    #: (``rules.rating_lists.event_list_of``). Its games are all of one kind by this.
    online = models.BooleanField(
        "played online",
        default=False,
        db_default=False,
        help_text="Played on a chess server (Lichess, chess.com…), not over the board. "
        "Its games are rated on the club's list of online play of their time class, if it "
        "keeps one; never on a list of games over the board.",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    players: models.ManyToManyField[Member, Any] = models.ManyToManyField(
        Member, through="Entry", related_name="events"
    )
    #: The tournament directors given this event: they enter its players and results
    #: (``ratings/views/access.py``: ``can_direct``), nothing else.
    directors: models.ManyToManyField[Any, Any] = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="directed_events",
        help_text="Who may enter this event's players and results (tournament directors).",
    )
    #: Why games already recorded in another event were recorded here again (the officer's
    #: words, asked for at the import or the completion: ``rules.duplicates``).
    duplicate_reason = models.TextField(
        "why its games are recorded again",
        blank=True,
        max_length=500,
        help_text="Given when games already recorded in another event are recorded here too.",
    )
    # Its stage (``stage``): entered by its director, submitted for rating, rated by the
    # officer (``status`` complete), or sent back to its director with a note. Who did
    # each step and when are kept so every event page can say so.
    submitted_at = models.DateTimeField(null=True, blank=True)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    #: How many times it was submitted: each submission's mails have their own key.
    submissions = models.PositiveSmallIntegerField(default=0)
    rated_at = models.DateTimeField(null=True, blank=True)
    rated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    sent_back_at = models.DateTimeField(null=True, blank=True)
    sent_back_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    sent_back_note = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords()

    objects = EventQuerySet.as_manager()

    #: The stages an event goes through, as the pages name them.
    DRAFT, SUBMITTED, RATED = "draft", "submitted", "rated"
    STAGE_WORDS = {DRAFT: "Draft", SUBMITTED: "Submitted for rating", RATED: "Rated"}

    class Meta:
        ordering = ["-end_date", "-start_date", "-pk"]
        # The events' own order: the officer's list and the newest rated event read it.
        indexes = [
            models.Index(fields=["-end_date", "-start_date", "-id"], name="event_newest_first")
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(rounds__gte=1, rounds__lte=rules.MAX_ROUNDS),
                name="event_rounds_in_bounds",
                violation_error_message=f"An event has 1 to {rules.MAX_ROUNDS} rounds.",
            ),
            models.CheckConstraint(
                condition=Q(end_date__gte=models.F("start_date")),
                name="event_ends_after_it_starts",
                violation_error_message="An event cannot end before it starts.",
            ),
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
        codes, problem = tiebreaks.read_codes(self.tie_breaks)
        if not problem:
            self.tie_breaks = tiebreaks.codes_text(codes)  # as the club writes them
        for field in ("start_date", "end_date"):
            day = getattr(self, field)
            problem = event_date_problem(day) if day is not None else None
            if problem:
                raise ValidationError({field: problem})
        # A new event has no games yet: the admin's add form asks the rule itself.
        if self.status == self.Status.COMPLETE and self.start_date and self.pk is not None:
            problem = complete_problem(self)
            if problem:
                raise ValidationError({"status": problem})

    @property
    def tie_break_codes(self) -> tuple[str, ...]:
        """The event's tie-breaks in order: its own, or its kind's default."""
        codes, problem = tiebreaks.read_codes(self.tie_breaks)
        if codes and not problem:
            return codes
        return tiebreaks.default_codes(round_robin=self.kind == self.Kind.ROUND_ROBIN)

    @property
    def stage(self) -> str:
        """Draft (results being entered), submitted (waiting for the officer) or rated
        (complete: the officer rated it, or it waits for its rating period)."""
        if self.status == self.Status.COMPLETE:
            return self.RATED
        return self.SUBMITTED if self.submitted_at else self.DRAFT

    @property
    def stage_word(self) -> str:
        # A friendly completed is at the stage a rated event reaches, but was never rated.
        if self.stage == self.RATED and not self.rated:
            return "Complete, not rated"
        return self.STAGE_WORDS[self.stage]

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
        """The results the club records: codes and names from ``ratings.rules.results``."""

        WHITE_WIN = results.WHITE_WIN, results.LABELS[results.WHITE_WIN]
        DRAW = results.DRAW, results.LABELS[results.DRAW]
        BLACK_WIN = results.BLACK_WIN, results.LABELS[results.BLACK_WIN]
        WHITE_FORFEIT_WIN = results.WHITE_FORFEIT_WIN, results.LABELS[results.WHITE_FORFEIT_WIN]
        BLACK_FORFEIT_WIN = results.BLACK_FORFEIT_WIN, results.LABELS[results.BLACK_FORFEIT_WIN]
        DOUBLE_FORFEIT = results.DOUBLE_FORFEIT, results.LABELS[results.DOUBLE_FORFEIT]
        WHITE_WIN_UNRATED = results.WHITE_WIN_UNRATED, results.LABELS[results.WHITE_WIN_UNRATED]
        DRAW_UNRATED = results.DRAW_UNRATED, results.LABELS[results.DRAW_UNRATED]
        BLACK_WIN_UNRATED = results.BLACK_WIN_UNRATED, results.LABELS[results.BLACK_WIN_UNRATED]
        BYE = results.BYE, results.LABELS[results.BYE]
        HALF_BYE = results.HALF_BYE, results.LABELS[results.HALF_BYE]
        ZERO_BYE = results.ZERO_BYE, results.LABELS[results.ZERO_BYE]

    # The vocabulary's groups, where the model's callers have always found them.
    PLAYED = results.PLAYED
    UNRATED = results.UNRATED
    BYES = results.BYES
    POINTS = results.POINTS

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="games")
    round = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(rules.MAX_ROUNDS)]
    )
    board = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(rules.MAX_BOARD)],
    )
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
                condition=~Q(white=models.F("black")),
                name="game_not_against_oneself",
                violation_error_message="A player cannot play themselves.",
            ),
            models.CheckConstraint(
                condition=Q(round__gte=1, round__lte=rules.MAX_ROUNDS),
                name="game_round_in_bounds",
                violation_error_message=f"A round is from 1 to {rules.MAX_ROUNDS}.",
            ),
            models.CheckConstraint(
                condition=Q(board__isnull=True) | Q(board__gte=1, board__lte=rules.MAX_BOARD),
                name="game_board_in_bounds",
                violation_error_message=f"A board is from 1 to {rules.MAX_BOARD}.",
            ),
            # A player at most once a round is ``rules.twice_in_round_problems``, asked by
            # every writer, not a constraint: a round entered again moves players between
            # rows in one UPDATE, which a unique index checked row by row would refuse
            # (PostgreSQL can defer the check; SQLite cannot).
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
        if problem := rules.self_play_problem(self.white_id, self.black_id):
            errors["black"] = problem
        if self.event_id and self.round and self.round > self.event.rounds:
            errors["round"] = f"This event has {count_phrase(self.event.rounds, 'round')}."
        if self.event_id and (problem := rules.results_too_early_problem(self.event)):
            # Not the event's field: an inline row has it hidden.
            errors[NON_FIELD_ERRORS] = problem
        together = getattr(self, "round_checked_together", False)  # an admin inline's row
        if (
            self.event_id
            and self.round
            and self.white_id
            and "black" not in errors
            and not together
        ):
            problem = game_twice_in_round_problem(
                event_id=self.event_id,
                round_=self.round,
                white_id=self.white_id,
                black_id=self.black_id,
                besides=[self.pk] if self.pk else [],
            )
            if problem:
                errors["white" if "white" not in errors else "black"] = problem
        if errors:
            raise ValidationError(errors)


# -- the record's rules that read the record: asked of an event, a game or an entry, with
# the message of ``models/rules.py``'s kind (the rest are there, on values alone) ----------


def nothing_to_rate_problem(event: Event) -> str | None:
    """A rated event is "complete and rated" only with a game between two players to rate
    (byes and forfeits alone rate nothing)."""
    if not event.rated:
        return None
    if event.pk is None:
        return f"{event.name} has no games yet: enter its results, then mark it complete."
    played = Game.objects.filter(event=event, result__in=Game.PLAYED, black__isnull=False)
    if not played.exists():
        return (
            f"{event.name} has no game between two players to rate: enter its results, "
            "or untick “rated”, before marking it complete."
        )
    return None


def complete_problem(event: Event) -> str | None:
    """Whether ``event`` may be marked complete (and rated): it has started and has a game
    to rate."""
    return rules.results_too_early_problem(event) or nothing_to_rate_problem(event)


def game_twice_in_round_problem(
    *, event_id: int, round_: int, white_id: int | None, black_id: int | None, besides: Any = ()
) -> str | None:
    """The game's players against the event's other games of its round (``besides``: the
    games' pks not to count, e.g. the game itself being changed)."""
    players = [p for p in (white_id, black_id) if p is not None]
    if not players:
        return None
    others = (
        Game.objects.filter(event_id=event_id, round=round_)
        .filter(Q(white_id__in=players) | Q(black_id__in=players))
        .exclude(pk__in=list(besides))
        .values_list("round", "white_id", "black_id")
    )
    problems = rules.twice_in_round_problems(
        [*others, (round_, white_id, black_id)], names=member_names
    )
    return problems[0] if problems else None


def entry_with_games_problem(entry: Entry) -> str | None:
    """An entry stays while its player has games in the event: a game's players are
    entered in its event (the round pages, imports and the admin enter them)."""
    played = Game.objects.filter(event_id=entry.event_id).filter(
        Q(white_id=entry.member_id) | Q(black_id=entry.member_id)
    )
    if played.exists():
        return (
            f"{entry.member} has games in {entry.event}: delete those first (a game's "
            "players are entered in its event)."
        )
    return None
